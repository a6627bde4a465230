"""Double-dummy solving of a :class:`~pitchsim.search.position.Position` (``pitchsim solve``).

Every hand open, the pitcher's side maximising and everyone else minimising the points
(0-4) the pitcher's side holds at the end of the hand; points already captured count.
The numba solver (:mod:`pitchsim.kernels.search.solver`) does the work; this module
turns a position into its arrays and the answer into plain data.

Example
-------
>>> from pitchsim.search.position import read_position
>>> pos = read_position(open("examples/endgame.json").read())  # doctest: +SKIP
>>> s = solve(pos)  # doctest: +SKIP
>>> s.value, s.best  # doctest: +SKIP
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..game.cards import N_CARDS_WITH_JOKERS, format_card
from ..kernels.search import solver as kernel
from .position import FamilyPosition, Position

_TABLE: np.ndarray | None = None  # one transposition table, reused by every call


def _table() -> np.ndarray:
    global _TABLE
    if _TABLE is None:
        _TABLE = kernel.new_table()
    return _TABLE


def kernel_args(pos: Position) -> tuple:
    """The solver's arguments for ``pos``, up to ``rules`` (the table comes after)."""
    n = pos.players
    trick = np.zeros(max(n, 1), dtype=np.int64)
    trick[: len(pos.trick)] = pos.trick
    return (
        np.array(pos.hands, dtype=np.int64),
        np.array(pos.won, dtype=np.int64),
        np.array(pos.dealt, dtype=np.int64),
        n,
        pos.leader,
        trick,
        len(pos.trick),
        pos.trump,
        pos.pitcher,
        pos.rules.to_array(),
    )


@dataclass(frozen=True)
class Solution:
    """A solved position: its value and the value after each legal card."""

    position: Position | FamilyPosition
    value: int  # points the pitcher's side holds at the end under best play (0-4 base)
    cards: dict[int, int]  # each legal card of the player to move -> value after it

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
        return None if bid is None else self.value >= bid

    def to_json(self) -> dict:
        doc = {
            "to_play": self.to_play,
            "value": self.value,
            "cards": {format_card(c, symbols=False): v for c, v in sorted(self.cards.items())},
            "best": [format_card(c, symbols=False) for c in self.best],
        }
        if self.position.bid is not None:
            doc["bid"] = self.position.bid
            doc["made"] = self.made
        return doc


def solve_value(pos: Position | FamilyPosition, table: np.ndarray | None = None) -> int:
    """The position's double-dummy value (0-4; under a family up to its point total)."""
    if isinstance(pos, FamilyPosition):
        return _family_values(pos, table)[0]
    if pos.finished:
        return pos.points()
    return int(kernel.solve_position(*kernel_args(pos), _table() if table is None else table))


def solve(pos: Position | FamilyPosition, table: np.ndarray | None = None) -> Solution:
    """The value and every legal card's value (before the opening lead: each lead, its
    suit becoming trump)."""
    if isinstance(pos, FamilyPosition):
        value, cards = _family_values(pos, table, each=True)
        return Solution(pos, value, cards)
    if pos.finished:
        return Solution(pos, pos.points(), {})
    out = np.empty(52, dtype=np.int64)
    value = kernel.card_values(*kernel_args(pos), _table() if table is None else table, out)
    cards = {c: int(out[c]) for c in range(52) if out[c] >= 0}
    return Solution(pos, int(value), cards)


# ---- rule families (kernels/families/solver.py) ----------------------------------------------

_FAMILY_TABLE: np.ndarray | None = None


def family_kernel_args(pos: FamilyPosition) -> tuple:
    """The family solver's arguments for ``pos``, up to ``tab`` (the table comes after)."""
    from ..kernels.families.tables import family_array, family_tables

    n = pos.players
    trick = np.zeros(max(n, 1), dtype=np.int64)
    trick[: len(pos.trick)] = pos.trick
    leader = pos.leader if pos.leader is not None else pos.pitcher
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
        family_array(pos.rules),
        family_tables(pos.rules),
    )


def _family_values(
    pos: FamilyPosition, table: np.ndarray | None, each: bool = False
) -> tuple[int, dict[int, int]]:
    from ..kernels.families import solver as family_kernel

    global _FAMILY_TABLE
    if pos.finished:
        return pos.points(), {}
    if table is None:
        if _FAMILY_TABLE is None:
            _FAMILY_TABLE = family_kernel.new_family_table()
        table = _FAMILY_TABLE
    args = family_kernel_args(pos)
    if not each:
        return int(family_kernel.solve_family(*args, table)), {}
    out = np.empty(N_CARDS_WITH_JOKERS, dtype=np.int64)
    value = family_kernel.family_card_values(*args, table, out)
    cards = {c: int(out[c]) for c in range(N_CARDS_WITH_JOKERS) if out[c] >= 0}
    return int(value), cards
