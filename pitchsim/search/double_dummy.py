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

from ..game.cards import format_card
from ..kernels.search import solver as kernel
from .position import Position

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

    position: Position
    value: int  # points (0-4) the pitcher's side holds at the end under best play
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


def solve_value(pos: Position, table: np.ndarray | None = None) -> int:
    """The position's double-dummy value (0-4) for the pitcher's side."""
    if pos.finished:
        return pos.points()
    return int(kernel.solve_position(*kernel_args(pos), _table() if table is None else table))


def solve(pos: Position, table: np.ndarray | None = None) -> Solution:
    """The value and every legal card's value (before the opening lead: each lead, its
    suit becoming trump)."""
    if pos.finished:
        return Solution(pos, pos.points(), {})
    out = np.empty(52, dtype=np.int64)
    value = kernel.card_values(*kernel_args(pos), _table() if table is None else table, out)
    cards = {c: int(out[c]) for c in range(52) if out[c] >= 0}
    return Solution(pos, int(value), cards)
