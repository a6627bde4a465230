"""Search on a clock: value sampled worlds a few at a time, and stop when the time budget
is spent, when every world wanted is valued, or when the recommended card is separated.

``hint`` and the search play policies (``rollout``, ``pimc``) value every legal card in
sampled worlds.  Here the worlds are valued in *chunks* (a few worlds per kernel call,
sized so that a call takes about ``CHUNK_SECONDS``), and between chunks the clock is read.
Which worlds are valued, and what each is worth, never depends on the chunks or the clock:
only *how many* are valued does.  So the answer depends on the seed and the number of
worlds valued alone, and stopping by the clock is the one thing that can make two runs of
the same question differ (the answer says so, with the number of worlds that reproduces
it).  The clock is read between kernel calls, so a rollout's budget can be overrun by one
chunk, at most by the time of one world (a chunk is one world when the time left is
short).  A double-dummy world can cost seconds at 6-7 players, so pimc's calls also carry
a budget of solver nodes (``preset_world_values``' ``nodes``: numba counts nodes, it cannot
read a clock cheaply): the time left times the nodes per second measured so far in this
search (before any measurement, ``NODES_PER_SECOND``, or the rate the process measured
last, for at most ``CALIBRATE_SECONDS``: a first measurement).  A world the budget
stops is dropped, never counted in part; when a call stops with time still left (the
rate was guessed low) the world is solved again with the rate just measured, if the time
left buys more nodes than the stopped call searched (``Valuation.dropped``: 1 when the
search ends inside a world).  A call gets at most twice the nodes of the largest call so
far: under time-sharing a rate measured on short calls can be several times too high,
and so a long call's overrun grows at most twofold per call, at the cost of solving a
hard world up to about four times over (budgets 1, 2, 4, ... of the first call's nodes).  So
pimc's overrun is the error of that rate, not a world's time; and when no world is
finished in the budget the search ends with none (``Valuation.valued`` 0), which its
caller must answer for itself (hint with rollout, a seat with its prior).

The stopping rule (:class:`Separation`), looked at after every world valued: the card the
policy recommends on the worlds so far is *separated* when, against every other legal
card, one of these holds:

1. it makes the bid (the side's aim; with no bid, any score does) in more worlds -- a
   test by betting on the paired difference of "bid made" (``util.betting``);
2. no world valued so far tells the two apart on the bid, and it takes more points (the
   defenders: fewer) -- the same test on the paired difference of points;
3. a tie: the two gave the same points in every one of at least ``TIE_WORLDS`` worlds.

The tests by betting are valid at any stop (Ville's inequality), so looking after every
world costs nothing.  Each pair's test runs at level ``ALPHA / (tests * rivals)`` (tests:
2 with a bid to make, else 1), so the chance that a "separated" answer makes a claim 1 or
2 that is false, about any card, is at most ``ALPHA`` = 5% (Bonferroni over the rivals
and the two tests).  What the rule does not promise: claim 2 rests on the bid chances
being equal where no world told them apart; claim 3 is an observation, not a test (were
the cards different in a share q of worlds, ``TIE_WORLDS`` = 50 equal worlds would be
seen with chance (1 - q)**50: under 5% once q >= 6%).  The worlds themselves are
independent draws (``kernels.search.resample``), which is what the tests assume.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ..game.rules import BIDS
from ..kernels import compile_count
from ..util.betting import PairedBets
from ..util.errors import InputError

ALPHA = 0.05  # the chance a "separated" answer's claims are wrong (see the module)
TIE_WORLDS = 50  # equal points in this many worlds and more: a tie (see the module)
CHUNK_SECONDS = 0.1  # the time a kernel call aims at: how often the clock is read
MAX_TIME = 86_400.0  # a budget of more than a day is a mistake
# The solver's nodes per wall second before a search has measured its own: on the low
# side of what scripts/bench_hint_clock.py --budget measured at 6-7 players (a guess too
# low costs a world solved twice, one too high an overrun), then the last rate measured.
NODES_PER_SECOND = 1_000_000.0
_last_rate = [NODES_PER_SECOND]
# A search's first budgeted call gets at most this many seconds' nodes at the guessed rate:
# it measures the rate (a load that slows the process fivefold is common here) at the cost
# of solving that much again when the world is not done in it.
CALIBRATE_SECONDS = 0.05
POINTS = max(BIDS)  # the most points a hand awards, in the game the kernels play

SEPARATED = "separated"
ALL_DONE = "all worlds done"
CLOCK = "stopped by the clock"


def check_time(value, what: str = "--time", zero_is_none: bool = False) -> float | None:
    """A time budget in seconds (None: no clock): a finite number above 0, at most a day;
    ``zero_is_none``: 0 also means no clock (``solve --time 0``)."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InputError(f"{what} must be a number of seconds, not {value!r}")
    if zero_is_none and value == 0:
        return None
    if not (math.isfinite(value) and 0 < value <= MAX_TIME):
        zero = "0 (no limit) or " if zero_is_none else ""
        raise InputError(
            f"{what} must be {zero}seconds above 0 and at most {MAX_TIME:,.0f}, not {value}"
        )
    return float(value)


class Clock:
    """A budget of ``seconds`` (None: no clock) started now."""

    def __init__(self, seconds: float | None):
        self.budget = seconds
        self.start = time.perf_counter()

    def spent(self) -> float:
        return time.perf_counter() - self.start

    def left(self) -> float:
        return math.inf if self.budget is None else self.budget - self.spent()


def warmed(warm: Callable[[], object]) -> tuple[float, bool]:
    """Run ``warm`` (the kernels called on no worlds: loaded or compiled, before any
    clock starts); returns (seconds it took, whether anything was compiled)."""
    before = compile_count()
    t = time.perf_counter()
    warm()
    return time.perf_counter() - t, compile_count() > before


def side_choice(points: np.ndarray, our_side: bool, bid: int, prior_index: int) -> int:
    """The index of the card ``monte_carlo.choose_by_outcomes`` picks from the summed
    outcomes: the pitcher's side the most worlds reaching the bid, then the most points;
    the defenders the fewest of both; ties to ``prior_index`` (when among the best), else
    the first."""
    made = (points >= bid).sum(axis=1)
    total = points.sum(axis=1)
    return _pick(made, total, our_side, prior_index)


def _pick(made, total, our_side: bool, prior_index: int) -> int:
    sign = 1 if our_side else -1
    key = [(sign * int(m), sign * int(t)) for m, t in zip(made, total, strict=True)]
    top = max(key)
    if 0 <= prior_index < len(key) and key[prior_index] == top:
        return prior_index
    return key.index(top)


class Separation:
    """The stopping rule (see the module) for ``k`` cards, fed one world at a time: the
    pitcher's side's points after every card in that world."""

    def __init__(
        self,
        k: int,
        our_side: bool,
        bid: int,
        points_range: int,
        prior_index: int,
        alpha: float = ALPHA,
    ):
        self.k = k
        self.our_side = our_side
        self.bid = bid
        self.prior_index = prior_index
        self.sign = 1.0 if our_side else -1.0
        self.made = PairedBets(k, 1.0)
        self.points = PairedBets(k, float(points_range))
        self.tests = 2 if bid > 0 else 1  # with no bid every world reaches it: points only
        self.level = alpha / (self.tests * max(k - 1, 1))
        self.worlds = 0
        self.made_count = np.zeros(k, dtype=np.int64)
        self.total = np.zeros(k, dtype=np.int64)
        self.same_made = np.ones((k, k), dtype=bool)  # no world told them apart on the bid
        self.same_points = np.ones((k, k), dtype=bool)

    def add(self, points) -> None:
        p = np.asarray(points, dtype=np.int64)
        made = (p >= self.bid).astype(np.int64)
        if self.tests == 2:
            self.made.add(self.sign * made)
        self.points.add(self.sign * p)
        self.same_made &= made[:, None] == made[None, :]
        self.same_points &= p[:, None] == p[None, :]
        self.made_count += made
        self.total += p
        self.worlds += 1

    def best(self) -> int:
        """The index of the card the policy recommends on the worlds so far."""
        return _pick(self.made_count, self.total, self.our_side, self.prior_index)

    def verdict(self, b: int, j: int) -> str | None:
        """How card ``b`` stands against ``j``: "bid", "points", "tie" or None (not yet)."""
        if self.tests == 2 and self.made.ahead(b, j, self.level):
            return "bid"
        if self.same_made[b, j] and self.points.ahead(b, j, self.level):
            return "points"
        if self.same_points[b, j] and self.worlds >= TIE_WORLDS:
            return "tie"
        return None

    def separated(self) -> bool:
        if self.worlds == 0 or self.k < 2:
            return self.k < 2 and self.worlds > 0
        b = self.best()
        return all(self.verdict(b, j) is not None for j in range(self.k) if j != b)

    def ties(self, b: int) -> list[int]:
        return [j for j in range(self.k) if j != b and self.verdict(b, j) == "tie"]


@dataclass
class Valuation:
    """Worlds valued so far (``out[:, :valued]``) and why the valuing stopped."""

    out: np.ndarray  # out[j, w]: the pitcher's side's points after card j in world w
    # (room for every world wanted)
    valued: int = 0
    stop: str | None = None  # SEPARATED, CLOCK, or None (go on; at the end ALL_DONE)
    per_world: float | None = None  # seconds a world took, lately (sizes the chunks)
    nodes: int = 0  # solver nodes searched so far (budgeted valuing only)
    node_seconds: float = 0.0  # and the seconds they took
    dropped: int = 0  # 1: the search ended inside a world, left unsolved (not counted)
    largest: int = 0  # the most nodes one budgeted call searched

    def node_rate(self) -> float:
        """Solver nodes per second: measured in this search, else the last measured."""
        if self.nodes > 0 and self.node_seconds > 0:
            return self.nodes / self.node_seconds
        return _last_rate[0]

    def add(self, values: np.ndarray) -> None:
        w = values.shape[1]
        self.out[:, self.valued : self.valued + w] = values
        self.valued += w

    def outcomes(self) -> np.ndarray:
        return self.out[:, : self.valued]


def value_on_clock(
    value: Callable[[int, int, int], tuple[np.ndarray, int]],
    count: int,
    clock: Clock,
    acc: Valuation,
    rule: Separation | None,
    progress: Callable[[int], None] | None = None,
    budgeted: bool = False,
    reserve: float = 0.0,
) -> None:
    """Value worlds 0..``count`` of a sample into ``acc``, a chunk at a time, feeding
    ``rule`` (None: no early stop) world by world: ``value(lo, hi, nodes)`` -> (``out[:,
    done]``, solver nodes searched), worlds lo..lo + done valued.  ``budgeted`` (the
    solver's valuing): a call carries a budget of ``nodes`` (0: none) and may stop before
    hi, leaving the world it stopped in undone (see the module).  Stops early, setting
    ``acc.stop``, when ``rule`` says separated or the clock runs out (unbudgeted: never
    before ``acc`` holds one world; budgeted: possibly with none).  ``reserve``: seconds
    a budgeted search leaves unspent while it has no world, for its caller's fallback."""
    i = 0
    size = 0
    while i < count:
        left = clock.left()
        if left <= 0 and (acc.valued > 0 or (budgeted and clock.budget is not None)):
            acc.stop = CLOCK
            return
        if clock.budget is None and rule is None:
            size = count - i
        elif acc.per_world is None:
            size = 1  # first: time one world
        else:
            # A world's cost varies a lot (a solver's worst deal), so chunks grow at most
            # twofold, and are single worlds once a world costs a chunk's time.
            aim = min(left, CHUNK_SECONDS)
            size = int(min(max(aim / max(acc.per_world, 1e-7), 1), 2 * max(size, 1), count - i))
        nodes = 0
        if budgeted and clock.budget is not None:
            usable = left - (reserve if acc.valued == 0 else 0.0)
            if usable <= 0:
                acc.stop = CLOCK
                return
            if acc.nodes == 0:
                usable = min(usable, CALIBRATE_SECONDS)
            nodes = max(int(usable * acc.node_rate()), 1)
            if acc.nodes > 0:
                # At most twice the largest call so far: a rate measured over short calls
                # on a shared machine can be several times too high, and a call cannot be
                # stopped by the clock, only by its nodes.
                nodes = min(nodes, 2 * acc.largest)
        t = time.perf_counter()
        values, searched = value(i, i + size, nodes)
        took = time.perf_counter() - t
        done = values.shape[1]
        if budgeted and searched > 0:
            acc.largest = max(acc.largest, searched)
            acc.nodes += searched
            acc.node_seconds += took
            _last_rate[0] = acc.node_rate()
        acc.dropped = int(done < size)  # solved again below, or left unsolved
        acc.per_world = took / max(done, 1)
        if rule is not None:
            for w in range(done):
                rule.add(values[:, w])
                if rule.separated():
                    acc.add(values[:, : w + 1])
                    acc.stop = SEPARATED
                    if progress:
                        progress(acc.valued)
                    return
        acc.add(values)
        i += done
        if progress:
            progress(acc.valued)
        if done < size:
            # The world stopped unfinished.  Solved again (the same search, node for node)
            # it needs more nodes than this call searched past the worlds it finished; try
            # only when the time left buys more than the whole call.
            usable = clock.left() - (reserve if acc.valued == 0 else 0.0)
            if usable * acc.node_rate() <= searched:
                acc.stop = CLOCK
                return
