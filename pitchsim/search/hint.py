"""Which card now?  Every legal card of the player to move, valued by search play.

``hint(position, policy, worlds, seed)`` looks at the position only through the eyes of
the player to move (``Position.view()``: his hand, the tricks, who played what, the
voids they showed), samples ``worlds`` deals of the hidden cards consistent with it
(``kernels.search.worlds``), and values every legal card in every one of them -- by
``pimc`` (the double-dummy solver) or ``rollout`` (played out by ``heuristic``), the
same worlds for every card -- exactly as those play policies do.  Per card: the
points the pitcher's side takes (mean, 95% interval), the chance it reaches the bid
(or, with no bid, at least 1-4 points) and the difference from the recommended card
on the same worlds.  The recommended card is the one the policy plays.

Worlds come in fixed blocks of ``BLOCK``, block b from the stream (seed, b), so the
answer depends only on the seed and the number of worlds.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ..game.cards import format_card
from ..game.reference.play import shows_void
from ..games.policies import seat_planes
from ..kernels.dispatch import choose_card
from ..kernels.policies import PLAY_POLICY_IDS
from ..kernels.rng import deal_key
from ..kernels.search.monte_carlo import DOUBLE_DUMMY, ROLLOUT, card_outcomes, choose_by_outcomes
from ..util.errors import InputError, quoted
from ..util.runtime import pick_seed
from ..util.stats import Z95, too_few, wilson
from .position import Position, PositionError

EVALUATORS = {"pimc": DOUBLE_DUMMY, "rollout": ROLLOUT}
DEFAULT_WORLDS = 200
MAX_WORLDS = 100_000
BLOCK = 25  # worlds per kernel call: a progress step, and the unit of the random stream


class HintError(InputError):
    """A position or option ``hint`` cannot answer."""


@dataclass(frozen=True)
class CardHint:
    card: int
    points: float  # the pitcher's side's mean points after this card
    points_ci95: tuple[float, float] | None  # None: too few worlds for an interval
    p_at_least: tuple[float, ...]  # P(pitcher's side >= k points), k = 1..4
    p_ci95: tuple[tuple[float, float], ...] | None
    vs_best: tuple[float, float | None]  # mean points minus the recommended card's, 95% half-width


@dataclass(frozen=True)
class Hint:
    seat: int
    pitcher: int
    pitcher_side: bool  # is the player to move on the pitcher's side?
    bid: int | None
    trump: int
    policy: str
    worlds: int  # worlds valued
    attempts: int  # worlds drawn (rejection: some are drawn and thrown back)
    seed: int
    cards: list[CardHint]
    recommended: int

    def p_make(self, c: CardHint) -> float | None:
        return None if self.bid is None else c.p_at_least[self.bid - 1]

    def to_json(self) -> dict:
        def card(c: CardHint) -> dict:
            d = {
                "card": format_card(c.card, symbols=False),
                "points": c.points,
                "points_ci95": _list(c.points_ci95),
                "p_at_least": {str(k + 1): p for k, p in enumerate(c.p_at_least)},
                "p_at_least_ci95": {str(k + 1): _list(c.p_ci95 and c.p_ci95[k]) for k in range(4)},
                "points_vs_recommended": list(c.vs_best),
            }
            if self.bid is not None:
                d["p_make"] = c.p_at_least[self.bid - 1]
                d["p_make_ci95"] = _list(c.p_ci95 and c.p_ci95[self.bid - 1])
            return d

        return {
            "to_play": self.seat,
            "pitcher": self.pitcher,
            "pitcher_side": self.pitcher_side,
            "bid": self.bid,
            "trump": "CDHS"[self.trump] if self.trump >= 0 else None,
            "policy": self.policy,
            "worlds": self.worlds,
            "attempts": self.attempts,
            "seed": self.seed,
            "recommended": format_card(self.recommended, symbols=False),
            "cards": [card(c) for c in self.cards],
        }


def _list(ci) -> list | None:
    return None if ci is None else list(ci)


def _view_arrays(pos: Position):
    """The kernel view of the player to move, from ``Position.view()`` alone."""
    v = pos.view()
    n = v.players
    complete = [t for t in v.tricks if t.winner is not None]
    current = v.tricks[-1] if v.tricks and v.tricks[-1].winner is None else None
    trick = list(current.cards) if current else []
    if current:
        leader = current.leader
    else:
        leader = complete[-1].winner if complete else v.pitcher
    played = 0
    for t in complete:
        for c in t.cards:
            played |= 1 << c
    voids = 0
    trump = v.trump
    for t in v.tricks:
        led = t.cards[0] // 13
        for i, c in enumerate(t.cards[1:], 1):
            if shows_void(c, led, trump, v.rules):
                voids |= 1 << (4 * ((t.leader + i) % n) + led)
    trick_arr = np.zeros(8, dtype=np.int64)
    trick_arr[: len(trick)] = trick
    won = np.zeros(8, dtype=np.int64)
    won[:n] = v.won
    return v, len(complete), trick_arr, len(trick), leader, played, won, voids


def check_hint_options(policy: str, worlds: int) -> None:
    if policy not in EVALUATORS:
        raise HintError(f"--policy must be one of {', '.join(EVALUATORS)}, not {quoted(policy)}")
    if isinstance(worlds, bool) or not isinstance(worlds, int) or not 1 <= worlds <= MAX_WORLDS:
        raise HintError(f"worlds must be 1-{MAX_WORLDS:,}, not {quoted(worlds)}")


def hint(
    pos: Position,
    policy: str = "pimc",
    worlds: int = DEFAULT_WORLDS,
    seed: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Hint:
    """Value every legal card of the player to move (see the module)."""
    check_hint_options(policy, worlds)
    if pos.finished:
        raise PositionError("the hand is over: nobody is to play")
    seed = pick_seed(seed)
    v, trick_no, trick, trick_len, leader, played, won, voids = _view_arrays(pos)
    n = v.players
    rules = v.rules.to_array()
    who = seat_planes(v.played_by)
    legal = v.legal
    args = (legal, v.hand, v.seat, n, v.pitcher, v.bid or 0, v.trump, trick_no, trick,
            trick_len, leader, played, won, who, voids, rules)  # fmt: skip
    cards = None
    blocks = []
    attempts = 0
    for b in range(math.ceil(worlds / BLOCK)):
        w = min(BLOCK, worlds - b * BLOCK)
        out = np.empty((legal.bit_count(), w), dtype=np.int64)
        cards, kept, tried = card_outcomes(EVALUATORS[policy], w, *args,
                                           np.uint64(deal_key(seed, b)), out)  # fmt: skip
        blocks.append(out[:, :kept])
        attempts += tried
        if progress:
            progress(w, worlds)
    out = np.concatenate(blocks, axis=1)
    kept = out.shape[1]
    if kept == 0:
        raise HintError(f"no deal of the hidden cards fits what seat {v.seat} has seen "
                        f"({attempts:,} tried)")  # fmt: skip
    prior = int(choose_card(PLAY_POLICY_IDS["heuristic"], *args, np.uint64(0), 0))
    pitcher_side = v.rules.team(v.seat) == v.rules.team(v.pitcher)
    best = int(choose_by_outcomes(cards, out, kept, pitcher_side, v.bid or 0, prior))
    best_row = out[list(cards).index(best)]
    hints = []
    for j, c in enumerate(cards):
        pts = out[j].astype(float)
        diff = pts - best_row
        hits = [(out[j] >= k).sum() for k in range(1, 5)]
        if too_few(kept):  # no interval from a handful of worlds: None, "too few deals"
            ci, cis, dhalf = None, None, None
        else:
            half = Z95 * pts.std(ddof=1) / math.sqrt(kept)
            ci = (float(pts.mean() - half), float(pts.mean() + half))
            cis = tuple(tuple(float(x) for x in wilson(h, kept)) for h in hits)
            dhalf = float(Z95 * diff.std(ddof=1) / math.sqrt(kept))
        hints.append(CardHint(int(c), float(pts.mean()), ci,
                              tuple(float(h / kept) for h in hits), cis,
                              (float(diff.mean()), dhalf)))  # fmt: skip
    return Hint(v.seat, v.pitcher, pitcher_side, v.bid, v.trump, policy, kept, attempts, seed,
                hints, best)  # fmt: skip
