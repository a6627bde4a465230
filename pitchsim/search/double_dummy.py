"""Double-dummy solving of a :class:`~pitchsim.search.position.Position` (``pitchsim solve``).

Every hand open, the pitcher's side maximising and everyone else minimising the points
(0-4) the pitcher's side holds at the end of the hand; points already captured count.
The numba solver (:mod:`pitchsim.kernels.search.solver`) does the work; this module
turns a position into its arrays and the answer into plain data.

On a clock (``time=`` seconds; ``pitchsim solve --time``): a whole 6-7 player deal can
take minutes, and numba cannot read a clock cheaply, so the seconds become a node budget
(the solvers' ``table[0, T_BUDGET]``, a call over it returns -1), as in
:mod:`pitchsim.table.clock`.  The kernel is first loaded (compiled, once per install)
off the clock by a call of one node.  Then a short call (``FIRST_SECONDS`` at the rate
this process measured last) solves most positions outright and measures the node rate;
when it does not finish, calls follow with the time left at the rate measured on this
position, each at most ``GROWTH`` times the nodes of the largest so far (a rate
measured on short calls under time-sharing can be several times too high, and a call
can only be stopped by its nodes), until one finishes -- its value exact, as
unbudgeted -- or the time left cannot buy more nodes than a call already stopped
(such a call seldom finishes, even with the entries of the calls before it).  Every call after the first keeps the table
entries of the calls before it (the solvers' ``T_SAME``: the same position, so the
bounds they proved hold), so a retry does not search again what a stopped call settled.
A position stopped by the clock has no value (``Solution.solved`` False), never a
guess.

Example
-------
>>> from pitchsim.search.position import read_position
>>> pos = read_position(open("examples/endgame.json").read())  # doctest: +SKIP
>>> s = solve(pos)  # doctest: +SKIP
>>> s.value, s.best  # doctest: +SKIP
"""

from __future__ import annotations

import math
import time as _time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ..game.cards import N_CARDS_WITH_JOKERS, format_card
from ..kernels.presets import rules_array, rules_table
from ..kernels.search import solver as kernel
from ..table.clock import NODES_PER_SECOND, check_time
from .position import Position, PresetPosition

_TABLE: np.ndarray | None = None  # one transposition table, reused by every call
# The clock (see the module): the first call's seconds at the last rate measured, the
# most a call may grow over the largest before it, and the nodes per second assumed
# before any measurement (per solver; then the last rate measured, on a long enough call).
FIRST_SECONDS = 0.1
GROWTH = 4
_last_rate = {"base": NODES_PER_SECOND}
_RATE_NODES = 20_000  # a rate measured on fewer nodes is mostly overhead: not kept for
# the next position (this one's calls use it: it is all they have)
# A solve that may run past this many seconds is announced (``progress``).
ANNOUNCE_SECONDS = 2.0
CLOCK = "clock"  # Solution.stop: the time budget ran out


def _table(players: int) -> np.ndarray:
    """The shared table, made (once) as big as ``players`` calls for."""
    global _TABLE
    bits = kernel.table_bits(players)
    if _TABLE is None or _TABLE.shape[0] < (1 << bits) + 1:
        _TABLE = kernel.new_table(bits)
    return _TABLE


def preset_args(pos: Position | PresetPosition) -> tuple:
    """The arguments of ``solve_preset`` and ``preset_card_values`` for ``pos``, any
    preset's (the base game's as auction-pitch: the one solver's form, what ``solve``
    calls), up to its options and tables (the table comes after)."""
    return (*_cards_args(pos), rules_array(pos.rules), rules_table(pos.rules))


def kernel_args(pos: Position | PresetPosition) -> tuple:
    """The arguments of the base game's entry points (``solve_position``,
    ``card_values``: its options, auction-pitch's tables implied) for a base game's
    position; a preset's (:func:`preset_args`) for any other."""
    if not pos.rules.base_game:
        return preset_args(pos)
    return (*_cards_args(pos), rules_array(pos.rules))


def _cards_args(pos: Position | PresetPosition) -> tuple:
    """The solver's arguments for ``pos`` up to the rules."""
    n = pos.players
    trick = np.zeros(max(n, 1), dtype=np.int64)
    trick[: len(pos.trick)] = pos.trick
    leader = pos.leader if pos.leader is not None else pos.pitcher  # None: the hand is over
    return (
        np.array(pos.hands, dtype=np.int64),
        np.array(pos.won, dtype=np.int64),
        np.array(pos.held, dtype=np.int64),
        n,
        leader,
        trick,
        len(pos.trick),
        pos.trump,
        pos.pitcher,
    )


@dataclass(frozen=True)
class Solution:
    """A solved position: its value and the value after each legal card."""

    position: Position | PresetPosition
    value: int | None  # points the pitcher's side holds at the end under best play
    # (0-4 base); None: not solved (stopped by the clock)
    cards: dict[int, int]  # each legal card of the player to move -> value after it
    stop: str | None = None  # CLOCK: the time budget ran out, no value
    time: float | None = None  # the budget in seconds (None: no limit)
    seconds: float = 0.0  # the search's wall seconds (on the clock: after loading)
    nodes: int = 0  # solver nodes searched, every call of the search

    @property
    def solved(self) -> bool:
        return self.stop is None

    @property
    def to_play(self) -> int | None:
        return self.position.to_play

    @property
    def best(self) -> list[int]:
        """The cards that keep the value (the pitcher's side's highest, the others' lowest)."""
        return sorted(c for c, v in self.cards.items() if v == self.value)

    @property
    def made(self) -> bool | None:
        """With a bid in the position: does the pitcher's side make it under best play?"""
        bid = self.position.bid
        return None if bid is None or self.value is None else self.value >= bid

    def to_json(self) -> dict:
        if not self.solved:
            return {
                "to_play": self.to_play,
                "solved": False,
                "stop": self.stop,
                "time": self.time,
                "seconds": round(self.seconds, 3),
                "nodes": self.nodes,
            }
        doc = {
            "solved": True,
            "to_play": self.to_play,
            "value": self.value,
            "cards": {format_card(c, symbols=False): v for c, v in sorted(self.cards.items())},
            "best": [format_card(c, symbols=False) for c in self.best],
        }
        if self.position.bid is not None:
            doc["bid"] = self.position.bid
            doc["made"] = self.made
        return doc


def solve_value(
    pos: Position | PresetPosition,
    table: np.ndarray | None = None,
    time: float | None = None,
) -> int | None:
    """The position's double-dummy value (0-4; under a family up to its point total);
    ``time``: seconds at most (None: no limit), None when they run out."""
    return solve(pos, table, time, each=False).value


def solve(
    pos: Position | PresetPosition,
    table: np.ndarray | None = None,
    time: float | None = None,
    progress: Callable[[float | None], None] | None = None,
    each: bool = True,
) -> Solution:
    """The value and every legal card's value (before the opening lead: each lead, its
    suit becoming trump).  ``time``: seconds at most (None: no limit; see the module);
    the answer is then ``solved`` or stopped with no value.  ``progress(time)`` is
    called once when the search may take more than ``ANNOUNCE_SECONDS``.  ``each``
    False: the value alone (``cards`` empty)."""
    time = check_time(time, "time")
    if pos.finished:
        return Solution(pos, pos.points(), {}, time=time)
    table = _table(pos.players) if table is None else table
    one = kernel.preset_card_values if each else kernel.solve_preset
    args = (*preset_args(pos), table)
    out = np.empty(N_CARDS_WITH_JOKERS, dtype=np.int64)
    # the card a pitcher called (12.1): its holder is his partner (the solver's last)
    called = pos.called

    def call() -> int:
        return int(one(*args, out, called) if each else one(*args, called))

    if time is None and progress is None:
        value, seconds, nodes = _unbudgeted(call, table)
    else:
        value, seconds, nodes = _on_clock(call, table, time, progress)
    if value < 0:
        return Solution(pos, None, {}, CLOCK, time, seconds, nodes)
    cards = {c: int(out[c]) for c in range(N_CARDS_WITH_JOKERS) if out[c] >= 0} if each else {}
    return Solution(pos, value, cards, None, time, seconds, nodes)


def _unbudgeted(call: Callable[[], int], table: np.ndarray) -> tuple[int, float, int]:
    before = int(table[0, kernel.T_NODES])
    t = _time.perf_counter()
    value = call()
    return value, _time.perf_counter() - t, int(table[0, kernel.T_NODES]) - before


def _on_clock(
    call: Callable[[], int],
    table: np.ndarray,
    time: float | None,
    progress: Callable[[float | None], None] | None,
) -> tuple[int, float, int]:
    """(value or -1, seconds, nodes) of a search of ``time`` seconds (see the module);
    ``time`` None: no limit after the first call (which then only tells a long search
    from a short one, for ``progress``)."""
    try:
        table[0, kernel.T_BUDGET] = 1  # loads (or compiles) the kernel, off the clock
        value = call()
        if value >= 0:
            return value, 0.0, 0
        start = _time.perf_counter()
        nodes = 0
        seconds = 0.0
        largest = 0  # the most nodes a stopped call searched
        rate = _last_rate["base"]
        announced = progress is None
        while True:
            spent = _time.perf_counter() - start
            left = math.inf if time is None else time - spent
            if nodes == 0:
                budget = max(int(min(FIRST_SECONDS, left) * rate), 1)
            elif time is None:
                budget = 0  # no limit
            else:
                budget = min(int(left * rate), GROWTH * largest)
                if budget <= largest:
                    return -1, spent, nodes  # it would stop again
            if not announced and (budget == 0 or spent + budget / rate > ANNOUNCE_SECONDS):
                progress(time)
                announced = True
            table[0, kernel.T_BUDGET] = budget
            table[0, kernel.T_SAME] = 1  # the loading call's position: keep its entries
            before = int(table[0, kernel.T_NODES])
            t = _time.perf_counter()
            value = call()
            seconds += _time.perf_counter() - t
            searched = int(table[0, kernel.T_NODES]) - before
            nodes += searched
            largest = max(largest, searched)
            if seconds > 0 and nodes > 0:
                rate = nodes / seconds  # this position's: the next call's budget
                if nodes >= _RATE_NODES:
                    _last_rate["base"] = rate  # the next position's first call
            if value >= 0:
                return value, _time.perf_counter() - start, nodes
    finally:
        table[0, kernel.T_BUDGET] = 0  # the table is shared: no budget left behind
        table[0, kernel.T_SAME] = 0  # (a call cleared it, unless one raised)
