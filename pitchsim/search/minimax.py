"""Double-dummy value of a position by exhaustive minimax, in plain Python.

The specification the numba solver (:mod:`pitchsim.kernels.search.solver`) is tested
against.  Every hand is open; the pitcher's side plays to maximise, every other seat to
minimise, the points (0-4) the pitcher's side holds when the hand is scored.  Play and
scoring are the reference engine's own (:meth:`pitchsim.search.position.Position.play` uses
``legal_cards`` and ``trick_winner``; a finished hand is scored by ``score_hand``), so
every rule option is honoured exactly as in a played hand.

Before the opening lead trump is not fixed: each lead is tried, its suit becoming trump.
A memo of positions already solved (keyed by everything that decides the rest of the
hand: the cards still held, the cards each seat has captured, the trick, the player to
move) only saves time; it changes no value.
"""

from __future__ import annotations

from pitchsim.game.cards import cards_of
from pitchsim.search.position import Position


def _key(pos: Position) -> tuple:
    return (pos.hands, pos.won, pos.trick, pos.trump, pos.to_play)


def solve(pos: Position, memo: dict | None = None) -> int:
    """The points (0-4) the pitcher's side holds at the end under best play by all."""
    if pos.finished:
        return pos.points()
    memo = {} if memo is None else memo
    key = _key(pos)
    if key in memo:
        return memo[key]
    values = [solve(pos.play(c), memo) for c in cards_of(pos.legal())]
    value = max(values) if pos.pitcher_side(pos.to_play) else min(values)
    memo[key] = value
    return value


def card_values(pos: Position) -> dict[int, int]:
    """Every legal card of the player to move -> the position's value after it."""
    memo: dict = {}
    return {c: solve(pos.play(c), memo) for c in cards_of(pos.legal())}
