"""Game bounded by the trumps that carry count (issue 33; ``solver._game_reach``).

A trump whose holder's side holds every trump above it still out is that side's
whenever it is played (the trick's highest trump is it or its partner's), and a trump
of the other sides with no trump of the pitcher's side above it never reaches the
pitcher's side: so the Game counts (0.8, 6.3.11 for the jokers' halves; a tie gives
Game to nobody, Edge 8) can be decided before the counts alone decide them.  The cases
are deep positions where that bound decides Game and the counts alone do not, at 3-7
players solo, in partnership and under the presets with Game by count (the jick, the
jokers counting half), each with every trick-boundary position of its minimax tree
solved in turn on tables of every size kept across the deal (``check_deal``), against
the plain-Python minimax.

Planted in ``_game_reach`` one at a time (and reverted), each failing here: Game sure
on a tie (``>=`` for ``>``); Game out of reach one count too soon (``- 1`` on the
pitcher's side's most); a trump of theirs that the pitcher's side can never take
without looking at the trick (a trump above it already played to it).
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from solver_cases import (
    Solver,
    boundaries,
    case_ids,
    check_deal,
    dense_position,
    preset_position,
    rules_of,
)

from pitchsim.kernels.presets import rules_array, rules_table
from pitchsim.kernels.search import solver as kernel
from pitchsim.search import minimax as fm


def context(st):
    """The solver's context, Game counts and hands of a position (``ctx``, ``counts``,
    ``hands``, the cards in hands, those with the trick in progress), or None when
    Game is not by count."""
    rules = st.rules
    n = st.n
    ctx = np.zeros(kernel._CTX, dtype=np.int64)
    held = np.array(st.held, dtype=np.int64)
    trump = st.trump if st.trump >= 0 else kernel._suit(st.trick[0])
    kernel._setup(ctx, held, n, st.pitcher, trump, rules_array(rules), rules_table(rules), -1)
    if ctx[kernel.C_GAME] == 0:
        return None
    ctx[kernel.C_GAME_REACH] = 1
    hands = np.array(st.hands, dtype=np.int64)
    counts = np.zeros(kernel.MAX_SEATS, dtype=np.int64)
    for s in range(n):
        counts[kernel._slot(s, ctx)] += kernel._count(st.won[s], ctx)
    rest = np.int64(0)
    for h in st.hands:
        rest |= h
    every = rest
    for c in st.trick:
        every |= np.int64(1) << np.int64(c)
    return ctx, counts, hands, rest, every


def game_decided(st):
    """Does ``_game_reach`` decide Game at this position (the trick in progress as
    taken) where the counts alone do not?"""
    got = context(st)
    if got is None:
        return False
    ctx, counts, hands, rest, every = got
    new = kernel._game_reach(hands, counts, ctx, every, rest)
    ctx[kernel.C_GAME_REACH] = 0
    return new != kernel._game_reach(hands, counts, ctx, every, rest)


def check_bounds(st, memo):
    """At every trick-boundary position of ``st``'s minimax tree (``memo``), the quick
    bounds (``_bounds``, Game by ``_game_reach``) hold the minimax value; returns how
    many positions the trumps decided Game at."""
    decided = 0
    for pos, value in boundaries(st, memo, random.Random(0), 10**6):
        ctx, counts, hands, rest, _ = context(pos)
        pts = ctx[kernel.C_BASE]
        for s in range(pos.n):
            if kernel._on_pitcher_side(s, ctx):
                pts += kernel._roles(np.int64(pos.won[s]), ctx)
        lo, hi = kernel._bounds(hands, counts, ctx, rest, pts)
        assert lo <= value <= hi, (pos, value, lo, hi)
        decided += game_decided(pos)
    return decided


# (rules, players, positions, tricks left, suits dealt from: None for a preset's hand)
CASES = [
    ("", 3, 3, 4, 2),
    ("", 4, 3, 3, 2),
    ("partnership=true", 4, 2, 3, 2),
    ("follow=suit,partnership=true", 4, 2, 3, 2),
    ("", 5, 2, 3, 2),
    ("", 6, 2, 3, 2),
    ("", 7, 2, 3, 2),
    ("smear", 3, 2, 4, None),
    ("smear,partnership=true", 4, 2, 3, None),
    ("jokers=2,joker-game=half", 3, 2, 4, None),
    ("jick=true,low=dealt", 4, 2, 3, None),
]


@pytest.fixture(scope="module")
def tables():
    return [kernel.new_table(b) for b in (1, 2, kernel.TABLE_BITS, kernel.BIG_TABLE_BITS)]


@pytest.mark.parametrize(
    ("spec", "n", "count", "left", "suits"), CASES, ids=case_ids(CASES, "left", "suits")
)
def test_game_decided_by_trumps_against_the_minimax(spec, n, count, left, suits, tables):
    rules = rules_of(spec)
    rng = random.Random(f"game reach/{spec}/{n}")
    solver = Solver(rules)
    for _ in range(count):
        for _ in range(3000):
            if suits is None:
                st = preset_position(rules, n, rng, (left, left))
            else:
                st = dense_position(rng, n, rules, suits, left)
            if game_decided(st):
                break
        else:
            raise AssertionError("no position where the trumps decide Game")
        check_deal(st, solver, tables, rng, most=400)


@pytest.mark.parametrize(
    ("spec", "n", "count", "left", "suits"), CASES, ids=case_ids(CASES, "left", "suits")
)
def test_quick_bounds_hold_the_minimax_value(spec, n, count, left, suits):
    """The bounds themselves, at every trick-boundary position of deep positions' trees
    (where a slip shows even when the search would not meet it on its critical line)."""
    rules = rules_of(spec)
    rng = random.Random(f"game reach bounds/{spec}/{n}")
    decided = 0
    done = 0
    while done < 3 * count or (decided == 0 and done < 60):
        done += 1
        if suits is None:
            st = preset_position(rules, n, rng, (left, left))
        else:
            st = dense_position(rng, n, rules, suits, left)
        memo: dict = {}
        fm.solve(st, memo)
        decided += check_bounds(st, memo)
    assert decided > 0  # the trumps decided Game somewhere: the case tests the bound
