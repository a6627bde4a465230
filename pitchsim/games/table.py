"""The table: a whole game played decision by decision, each seat asked from its view.

A seat is a built-in strategy (:class:`~pitchsim.games.seats.KernelSeat`, asked at the
game kernel's own random-stream positions: a game of built-in seats here is the game
``pitchsim tournament`` plays for that board) or any object with ``call(view)`` and
``play(view)`` returning an action (``"pass"``, ``"2"``, ``"KS"``): a Python bot, or an
outside program behind ``cmd:COMMAND`` (``games.outside``).  Every answer is checked:
one that is not a legal action **forfeits the game** (the reason is in the record); the
table never plays in a seat's place.

The game comes back as a *record* (``docs/record.md``): the rules, every deal as dealt,
every action in order and the results; ``games.record`` replays one and cuts views from
it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..game.cards import SUITS, cards_of, parse_cards
from ..game.reference.auction import MAX_BID, PASS
from ..game.reference.game import game_winner, pitcher_made, settle_hand
from ..game.reference.play import TRICKS, score_hand, trick_winner
from ..game.rules import Rules, rules_text
from ..game.view import Trick, View, card_text, parse_call
from ..kernels.deal import deal_hands
from ..kernels.game import MAX_DEALS
from ..kernels.rng import deal_key
from .answers import Forfeit, StopGame, checked_action
from .seats import KernelSeat

RECORD_FORMAT = "pitchsim-game"
RECORD_VERSION = 1


def seat_name(seat) -> str:
    if isinstance(seat, KernelSeat):
        return seat.name
    return str(getattr(seat, "name", type(seat).__name__))


def as_seat(s):
    """A strategy name -> :class:`KernelSeat`; an outside seat as it is."""
    if isinstance(s, str):
        if s.startswith("cmd:"):
            from .outside import CommandSeat

            return CommandSeat(s[4:])
        return KernelSeat(s)
    if isinstance(s, KernelSeat):
        return s
    if not (callable(getattr(s, "call", None)) and callable(getattr(s, "play", None))):
        raise TypeError(f"a seat is a strategy name or has call(view) and play(view): {s!r}")
    return s


@dataclass
class _Hand:
    dealer: int
    dealt: list[int]
    actions: list[dict]
    calls: list[int]
    tricks: list[Trick]


def _view(rules: Rules, n: int, seat: int, h: _Hand, scores: list[int]) -> View:
    per = [scores[0], scores[1]] if rules.partnership else scores
    v = View(
        rules,
        n,
        seat,
        h.dealer,
        tuple(cards_of(h.dealt[seat])),
        tuple(h.calls),
        tuple(h.tricks),
        tuple(per),
    )
    return v.check()


def play_table_game(
    seats: Sequence,
    rules: Rules,
    seed: int,
    board: int = 0,
    names: Sequence[str] | None = None,
    on_hand=None,
) -> dict:
    """Board ``board`` of ``seed`` played decision by decision by ``seats`` (see the
    module); the game's record (``docs/record.md``).  ``on_hand(doc)`` is called with
    each finished hand's record; a seat raising :class:`StopGame` ends the game there
    (the record's ``stopped`` says why)."""
    n = len(seats)
    rules.check_players(n)
    seats = [as_seat(s) for s in seats]
    names = list(names) if names is not None else [seat_name(s) for s in seats]
    for s in seats:
        if hasattr(s, "start_game"):
            s.start_game()
    record = _record_head(rules, n, seed, board, names)
    scores = [0] * n
    dealer = board % n
    template = np.arange(52, dtype=np.int64)
    deck = np.empty(52, dtype=np.int64)
    dealt_arr = np.empty(n, dtype=np.int64)
    try:
        for d in range(MAX_DEALS):
            key = np.uint64(deal_key(seed, board * MAX_DEALS + d))
            deal_hands(key, n, 0, 0, template, deck, dealt_arr)
            h = _Hand(dealer, [int(m) for m in dealt_arr], [], [], [])
            try:
                doc = _play_hand(seats, rules, n, h, scores, key)
            except Forfeit as f:
                record["hands"].append(_partial(h, n, rules, scores))
                record["forfeit"] = {"seat": f.seat, "strategy": names[f.seat], "reason": f.reason}
                break
            except StopGame as s:
                record["hands"].append(_partial(h, n, rules, scores))
                record["stopped"] = str(s) or "stopped"
                break
            record["hands"].append(doc)
            if on_hand is not None:
                on_hand(doc)
            if doc["pitcher"] is None:
                continue  # thrown in: the same dealer deals again
            scores = doc["scores_after"]
            won = game_winner(scores, doc["pitcher"], doc["made"], rules)
            if won is not None:
                record["winner"] = won
                break
            dealer = (dealer + 1) % n
    finally:
        for s in seats:
            if hasattr(s, "end_game"):
                s.end_game()
    record["final_scores"] = list(scores)
    return record


def _record_head(rules: Rules, n: int, seed, board, names) -> dict:
    return {
        "format": RECORD_FORMAT,
        "version": RECORD_VERSION,
        "rules": rules_text(rules),
        "players": n,
        "seed": seed,
        "board": board,
        "strategies": list(names),
        "target": rules.target,
        "partnership": rules.partnership,
        "winner": None,
        "final_scores": [0] * n,
        "forfeit": None,
        "hands": [],
    }


def _ask(seats, seat: int, view: View, key, plan: int) -> tuple[str, int]:
    s = seats[seat]
    if isinstance(s, KernelSeat):
        d = s.decide(view, key, plan)
        return d.action, d.plan
    try:
        answer = s.call(view) if view.phase == "auction" else s.play(view)
    except Forfeit:
        raise
    except Exception as e:  # a Python seat's own failure ends its game, named
        raise Forfeit(seat, f"{type(e).__name__}: {e}") from None
    try:
        return checked_action(view, answer), -1
    except ValueError as e:
        raise Forfeit(seat, str(e)) from None


def _play_hand(seats, rules: Rules, n: int, h: _Hand, scores: list[int], key) -> dict:
    plans: dict[int, int] = {}
    for i in range(n):
        if h.calls and max(h.calls) == MAX_BID:
            break  # a 4 ends the auction
        seat = (h.dealer + 1 + i) % n
        action, plan = _ask(seats, seat, _view(rules, n, seat, h, scores), key, -1)
        h.calls.append(parse_call(action, "call"))
        h.actions.append({"seat": seat, "action": action})
        plans[seat] = plan
    if max(h.calls) == PASS:
        return hand_doc(h, n, rules, scores)
    pitcher = (h.dealer + 1 + max(i for i, c in enumerate(h.calls) if c != PASS)) % n
    leader = pitcher
    trump = -1
    for t in range(TRICKS):
        cards: list[int] = []
        for j in range(n):
            seat = (leader + j) % n
            if cards:
                h.tricks.append(Trick(leader, tuple(cards)))
            view = _view(rules, n, seat, h, scores)
            if cards:
                h.tricks.pop()
            plan = plans.get(seat, -1) if t == 0 and j == 0 else -1
            action, _ = _ask(seats, seat, view, key, plan)
            c = parse_cards(action)[0]
            cards.append(c)
            h.actions.append({"seat": seat, "action": action})
            if trump < 0:
                trump = c // 13
        h.tricks.append(Trick(leader, tuple(cards)))
        leader = (leader + trick_winner(cards, trump)) % n
    return hand_doc(h, n, rules, scores)


def hand_doc(h: _Hand, n: int, rules: Rules, scores: list[int]) -> dict:
    """A finished (or thrown-in) hand as the record writes it: the deal, the actions and
    everything that follows from them (the same fields ``play --json`` shows a hand with)."""
    fmt = [[card_text(c) for c in cards_of(m)] for m in h.dealt]
    bids = [c if c != PASS else None for c in h.calls] + [None] * (n - len(h.calls))
    doc = {"players": n, "dealer": h.dealer, "bids": bids, "hands": fmt, "rules": rules_text(rules)}
    if max(h.calls, default=PASS) == PASS:
        doc.update(
            pitcher=None,
            bid=0,
            pitched=None,
            trump=None,
            tricks=[],
            points=dict.fromkeys(("high", "low", "jack", "game")),
            game_points=[0] * n,
            points_won=[0] * n,
            round_points=[0] * n,
            made=None,
            partnership=rules.partnership,
            scores_after=list(scores),
            actions=h.actions,
        )
        return _ordered(doc)
    bid = max(h.calls)
    pitcher = (h.dealer + 1 + max(i for i, c in enumerate(h.calls) if c != PASS)) % n
    trump = h.tricks[0].cards[0] // 13
    won = [0] * n
    tricks = []
    for t in h.tricks:
        w = (t.leader + trick_winner(t.cards, trump)) % n
        for c in t.cards:
            won[w] |= 1 << c
        tricks.append({"leader": t.leader, "cards": [card_text(c) for c in t.cards], "winner": w})
    score = score_hand(h.dealt, won, trump, rules)
    change = settle_hand(score.points, pitcher, bid, rules)
    after = [s + c for s, c in zip(scores, change, strict=True)]
    doc.update(
        pitcher=pitcher,
        bid=bid,
        pitched=card_text(h.tricks[0].cards[0]) if bid == MAX_BID else None,
        trump=SUITS[trump],
        tricks=tricks,
        points={"high": score.high, "low": score.low, "jack": score.jack, "game": score.game},
        game_points=score.game_counts,
        points_won=score.points,
        round_points=change,
        made=pitcher_made(score.points, pitcher, bid),
        partnership=rules.partnership,
        scores_after=after,
        actions=h.actions,
    )
    return _ordered(doc)


KEY_ORDER = (
    "players",
    "dealer",
    "bids",
    "pitcher",
    "bid",
    "pitched",
    "trump",
    "hands",
    "tricks",
    "points",
    "game_points",
    "points_won",
    "round_points",
    "made",
    "partnership",
    "scores_after",
    "actions",
)


def _ordered(doc: dict) -> dict:
    return {k: doc[k] for k in KEY_ORDER if k in doc} | {
        k: v for k, v in doc.items() if k not in KEY_ORDER
    }


def _partial(h: _Hand, n: int, rules: Rules, scores: list[int]) -> dict:
    """The hand a forfeit cut short: the deal and the actions made before it."""
    return {
        "players": n,
        "dealer": h.dealer,
        "hands": [[card_text(c) for c in cards_of(m)] for m in h.dealt],
        "incomplete": True,
        "scores_after": list(scores),
        "actions": h.actions,
    }
