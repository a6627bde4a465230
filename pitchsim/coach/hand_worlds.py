"""The coach's value of a decision made before the play: the pitcher's call of a
partner's card (12.1.2, 12.1.4) and a card put down coming down to 6 (12.2.2, 12.8.1),
the person's choice against pitchsim's.

A world is a deal that fits what the seat knows at the decision: its own hand as dealt,
the kitty it took (12.2.2), its own put-downs so far; the other seats' hands and the
stock are dealt at random from the rest of the pack (a known kitty the stock's last
cards, 12.2.1).  The calls and the naming of trump are the ones heard (not fitted: the
worlds fit the hand, as the naming of trump's do, ``judge.judge_trump``).  Each world's
hand is played out at the table twice (``table.paired``), once with the person's choice
and once with pitchsim's, every other decision by heuristic seats from the same random
streams: what the seats put down (12.8.3) and every card.  So the two arms differ only
by the choice and what follows from it, and the difference is paired world by world.

The measure is the naming of trump's: the seat's side's score on the hand (its points
made, minus the bid when set; a defender's side its points), with P(make) beside it.
"""

from __future__ import annotations

import random
import time as clock
from dataclasses import dataclass

import numpy as np

from ..game import reference as F
from ..game.cards import mask_of
from ..game.view import View, call_text, partner_call_text, put_down_text, trump_text
from ..kernels.rng import deal_key
from ..table.game import TableDeal
from ..table.paired import asking, interval, play_hand
from ..table.seats import KernelSeat

SEATS = "heuristic+heuristic"  # every seat in a world, as the naming of trump's deal-out


@dataclass(frozen=True)
class Valued:
    """The person's choice and pitchsim's on the same ``worlds``: each arm's mean score
    and P(make) for the seat's side, and the paired difference (pitchsim's minus the
    person's) with its 95% half-width."""

    worlds: int
    score: tuple[float, float]  # the person's, pitchsim's
    made: tuple[float, float]
    loss: float  # pitchsim's mean score minus the person's
    error: float  # the loss's 95% half-width, paired (NaN: under 2 worlds)
    stopped: bool  # by the clock, before every world wanted


def values_here(view: View) -> bool:
    """Whether the worlds can fit the seat's knowledge at ``view``: every put-down and
    call but an announced call after a discard (12.1.4 with 4.8, 12.8: the cards drawn
    and the others' face-up trumps are not dealt into the worlds) and the robber's
    come-down (4.8.7: nor are the others' draws and the stock he robbed)."""
    if view.phase == "call":
        return view.rules.partner == "called" or view.rules.discard == "none"
    return view.phase == "put_down" and not view.rules.rob


def own_put_downs(view: View) -> tuple[int, ...]:
    """The cards the seat has put down so far: the kitty's pitcher's put-down (12.2.2),
    else its discards (12.8.1)."""
    r = view.rules
    if r.kitty and view.seat == view.pitcher:
        return tuple(view.put_down)
    return tuple(view.discards)


def world(view: View, rng: random.Random) -> tuple[list[int], list[int]]:
    """One deal fitting the seat's knowledge (see the module): the hands as masks and
    the stock, top card first."""
    r, n = view.rules, view.players
    kitty = list(view.kitty) if view.seat == view.pitcher else []
    known = set(view.hand) | set(kitty)
    rest = [c for c in r.pack(n) if c not in known]
    rng.shuffle(rest)
    each = r.cards_each(n)
    dealt = [0] * n
    top = 0
    for s in range(n):
        if s == view.seat:
            dealt[s] = mask_of(view.hand)
        else:
            dealt[s] = mask_of(rest[top : top + each])
            top += each
    stock: list[int] = []
    if F.takes_stock(r):  # the undealt pack; a kitty taken is its last cards (12.2.1)
        size = r.pack_size(n) - n * each
        stock = rest[top : top + size - len(kitty)] + kitty
    return dealt, stock


def _forced(view: View, choice: str):
    """The arm of ``choice`` in a world: the calls, the trump, the call and the seat's
    put-downs so far as ``view`` heard and made them, then ``choice`` at the decision;
    None (the seats' choice) after it."""
    r = view.rules
    calls = [call_text(c, r) for c in view.calls]
    trump = trump_text(view.named) if view.named is not None else None
    own = [put_down_text(c) for c in own_put_downs(view)]
    downs = [0]

    def pick(seat: int, v: View) -> str | None:
        if v.phase == "auction":
            return calls[len(v.calls)]
        if v.phase == "trump":
            return trump
        if v.phase == "call":
            return choice if view.phase == "call" else partner_call_text(view.called)
        if v.phase == "put_down" and seat == view.seat:
            k = downs[0]
            downs[0] += 1
            if k < len(own):
                return own[k]
            if k == len(own) and view.phase == "put_down":
                if v.hand_mask != view.hand_mask or v.legal() != view.legal():
                    raise RuntimeError("a world's decision is not the view's")  # a bug
                return choice
        return None

    return pick


def value_choice(
    view: View, chosen: str, want: str, worlds: int, seed: int, time: float | None
) -> Valued:
    """``chosen`` and ``want`` (pitchsim's) at ``view`` (a call or a put-down,
    ``values_here``) on the same worlds of ``seed``, up to ``worlds`` of them, or as
    many as ``time`` seconds allow (at least 2)."""
    r, n, seat = view.rules, view.players, view.seat
    seats = [KernelSeat(SEATS) for _ in range(n)]
    scores = list(view.seat_scores())
    stop = None if time is None else clock.perf_counter() + time
    rows: tuple[list, list] = ([], [])
    made: tuple[list, list] = ([], [])
    stopped = False
    for w in range(worlds):
        if stop is not None and w >= 2 and clock.perf_counter() > stop:
            stopped = True
            break
        rng = random.Random(seed * 1_000_003 + w)
        dealt, stock = world(view, rng)
        key = np.uint64(deal_key(seed, w))
        for arm, action in enumerate((chosen, want)):
            draw_rng = random.Random(seed * 1_000_003 + w)  # the draw's shuffle, the same

            def draw(held, stock_, pitcher, trump, called=-1, chosen=None, g=draw_rng):
                return F.after_naming(
                    held, stock_, pitcher, trump, r, g, view.dealer, called, chosen
                )

            hand = TableDeal(r, n, view.dealer, dealt, stock, scores, draw, view.hands_played)
            doc = play_hand(hand, asking(seats, key, _forced(view, action)))
            ours = r.team(seat) == r.team(doc["pitcher"]) or seat == doc.get("partner")
            rows[arm].append(doc["round_points"][seat])
            made[arm].append(float(bool(doc["made"]) == ours))
    k = len(rows[0])
    loss, error = interval([b - a for a, b in zip(*rows, strict=True)])
    return Valued(
        k,
        (sum(rows[0]) / k, sum(rows[1]) / k),
        (sum(made[0]) / k, sum(made[1]) / k),
        loss,
        error,
        stopped,
    )
