"""One hand played twice or more, paired: the same deal, the same seats drawing from the
same random streams, and only one decision made otherwise in each arm.  A policy for a
decision (the call of a partner's card, a put-down) is measured so against another
(``scripts/call_policy.py``, ``scripts/put_down_policy.py``: the boards of a seed at
the open table), and the coach values a person's choice against pitchsim's so on
worlds that fit what he knows (``coach.hand_worlds``).

An arm is ``pick(seat, view) -> action | None``: the action it takes at that decision,
or None to let the seats decide as always.  Everything one arm does not pick is decided
by the same seats from the same streams in every arm, so the arms differ only by what
they pick and what follows from it.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Iterator, Sequence

import numpy as np

from ..game.rules import Rules, label
from ..kernels.contract import MAX_DEALS
from ..kernels.rng import deal_key
from .game import TableDeal, _ask, _kernel_deal

Pick = Callable[[int, object], "str | None"]  # (seat, view) -> action, None: the seats'


def play_hand(hand: TableDeal, ask: Callable[[int, object], str]) -> dict:
    """``hand`` played to its end, each decision ``ask(seat, view)``; its record."""
    walk = hand.run()
    try:
        seat, view = next(walk)
        while True:
            seat, view = walk.send(ask(seat, view))
    except StopIteration as end:
        return end.value


def asking(seats: Sequence, key, pick: Pick | None) -> Callable[[int, object], str]:
    """The arm ``pick`` first, else the seats (``table.game._ask``, from stream ``key``)."""

    def ask(seat: int, view) -> str:
        action = None if pick is None else pick(seat, view)
        return _ask(seats, seat, view, key) if action is None else action

    return ask


def board_hands(
    r: Rules, n: int, boards: int, seed: int, seats: Sequence, arms: Callable[[random.Random], list]
) -> Iterator[list[dict]]:
    """Per board ``b`` of ``seed``: its hand at the open table (``TableDeal``: the deal
    and draw the family kernels give board ``b``, scores 0, the dealer seat ``b`` mod
    ``n``) played once per arm of ``arms(rng)`` (the board's own ``random.Random``, the
    same for every arm, so a random arm picks from the same stream), the records in
    the arms' order."""
    for b in range(boards):
        key = np.uint64(deal_key(seed, b * MAX_DEALS))
        picks = arms(random.Random(seed * 1_000_003 + b))
        docs = []
        for pick in picks:
            dealt, stock, draw = _kernel_deal(r, n, b % n, key)
            hand = TableDeal(r, n, b % n, dealt, stock, [0] * n, draw)
            docs.append(play_hand(hand, asking(seats, key, pick)))
        yield docs


def interval(xs: Sequence[float]) -> tuple[float, float]:
    """The mean of ``xs`` and its 95% half-width (1.96 standard errors; NaN under 2)."""
    m = sum(xs) / len(xs)
    if len(xs) < 2:
        return m, math.nan
    var = sum((x - m) ** 2 for x in xs) / (len(xs) - 1)
    return m, 1.96 * math.sqrt(var / len(xs))


MEASURES = (  # the figures of a side, by name: (words, from a record and the seat)
    ("points", "the side's points"),
    ("made", "P(make)"),
    ("score", "the seat's score change"),
)


def policy_versus(
    r: Rules,
    n: int,
    boards: int,
    seed: int,
    strategy: str,
    decides: Callable[[int, object], bool],
    seat_of: Callable[[dict], int | None],
    other: Callable[[object, random.Random], str] | None = None,
    other_name: str = "random",
) -> tuple[dict, list[tuple[int, list[dict]]]]:
    """pitchsim's seats (``strategy``, every seat) against the same seats but for the
    decisions ``decides(seat, view)`` picks, each taken by ``other(view, rng)`` (None:
    uniformly at random from its legal actions; ``other_name`` names it), on ``boards``
    boards of ``seed`` (``board_hands``).  For the seat
    ``seat_of(record)`` (None: the board is left out, e.g. nobody bid) per board: its
    side's points taken, whether it made its bid (a defender: set the pitcher) and its
    score change, summed up as each arm's mean and their paired difference
    (``paired_summary``), with the CPU seconds.  Also the boards kept, as (seat, the
    arms' records)."""
    from .seats import KernelSeat

    seats = [KernelSeat(strategy) for _ in range(n)]

    def arms(rng: random.Random) -> list:
        def theirs(seat: int, view) -> str | None:
            if not decides(seat, view):
                return None
            return rng.choice(view.legal()) if other is None else other(view, rng)

        return [None, theirs]

    rows: dict = {name: ([], []) for name, _ in MEASURES}
    kept = []
    cpu = time.process_time()
    for docs in board_hands(r, n, boards, seed, seats, arms):
        s = seat_of(docs[0])
        if s is None:
            continue
        kept.append((s, docs))
        for arm, d in enumerate(docs):
            ours = r.team(s) == r.team(d["pitcher"]) or s == d.get("partner")
            rows["points"][arm].append(d["points_won"][s])
            rows["made"][arm].append(float(d["made"] == ours))
            rows["score"][arm].append(d["round_points"][s])
    out = {
        "rules": label(r),
        "players": n,
        "strategy": strategy,
        "other": other_name,
        "boards": boards,
        "seed": seed,
        "hands": len(kept),
        "cpu_seconds": round(time.process_time() - cpu, 1),
    }
    for name, _ in MEASURES:
        out[name] = paired_summary(*rows[name])
    return out, kept


def paired_summary(mine: Sequence[float], other: Sequence[float]) -> dict:
    """Two arms' values on the same boards: each mean, and the paired difference (the
    first's minus the second's) with its 95% interval."""
    d, half = interval([x - y for x, y in zip(mine, other, strict=True)])
    return {
        "pitchsim": sum(mine) / len(mine),
        "other": sum(other) / len(other),
        "difference": d,
        "ci95": [d - half, d + half],
    }
