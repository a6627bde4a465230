"""The Game bound from the tricks each side can still win, in the double-dummy solver
(issue 33; ``solver._game_reach``; docs/search.md, "A Game bound from the tricks left").

At a trick boundary where the count alone leaves Game open, the solver bounds the Game
count the pitcher's side can still reach: a trick holding a trump of the other side
above all of the pitcher side's is the other side's, so a defender holding m such
trumps leaves the pitcher's side at most T - m of the T tricks left, and of each
seat's cards it captures at most that many; its own trumps above all of the other
side's take their tricks.  The cut it makes relies on every trump's rank (reported to
rank relevance and partition search as such).  Here: positions where the bound changes
the search (its nodes with the bound and without, ``T_SWITCHES``), at 3-7 players, in
partnership, follow=suit, low=dealt, joker-game=half and smear, every trick-boundary
position of each one's minimax tree solved in turn on tables of every size kept across
the deal, against the plain-Python minimax; and lines of play 5-3 tricks from the end at
4-7 players, every card's value with the bound and without.

Planted in the solver one at a time, and what failed here: docs/search.md.
"""

from __future__ import annotations

import random

import pytest
from solver_cases import (
    Solver,
    case_ids,
    check_deal,
    dense_position,
    line_of_play,
    preset_position,
    rules_of,
)

from pitchsim.kernels.search import solver as kernel


def table(bits, bound=True):
    t = kernel.new_table(bits)
    t[0, kernel.T_SWITCHES] = 0 if bound else kernel.SW_NO_GAME_BOUND
    return t


def bounded(make, solver, tries=600):
    """The first position from ``make()`` whose every card's value takes another
    search with the Game bound than without it (fresh tables)."""
    for _ in range(tries):
        st = make()
        on, off = table(kernel.TABLE_BITS), table(kernel.TABLE_BITS, bound=False)
        assert solver.card_values(st, on) == solver.card_values(st, off), st
        if on[0, kernel.T_NODES] != off[0, kernel.T_NODES]:
            return st
    raise AssertionError("no position where the Game bound changes the search")


@pytest.fixture(scope="module")
def tables():
    return [table(b) for b in (1, 2, 3, kernel.TABLE_BITS, kernel.BIG_TABLE_BITS)]


# (rules, players, positions, tricks left, suits dealt from; None: a preset's position)
CASES = [
    ("", 3, 3, 4, 2),
    ("low=dealt", 3, 2, 4, 2),
    ("follow=suit", 4, 2, 3, 2),
    ("partnership=true", 4, 2, 3, 2),
    ("", 5, 2, 3, 2),
    ("", 6, 2, 3, 2),
    ("", 7, 1, 3, 3),
    ("smear", 4, 2, 3, None),
    ("smear,partnership=true", 4, 1, 3, None),
    ("jokers=1,joker-game=half", 4, 2, 3, None),
]


@pytest.mark.parametrize(
    ("spec", "n", "count", "left", "suits"), CASES, ids=case_ids(CASES, "left", "suits")
)
def test_positions_the_game_bound_cuts_against_the_minimax(spec, n, count, left, suits, tables):
    rules = rules_of(spec)
    rng = random.Random(f"game bound/{spec}/{n}")
    solver = Solver(rules)
    for _ in range(count):
        if suits is None:
            make = lambda: preset_position(rules, n, rng, (left, left))  # noqa: E731
        else:
            make = lambda: dense_position(rng, n, rules, suits, left)  # noqa: E731
        check_deal(bounded(make, solver), solver, tables, rng, most=300)


# (rules, players, deals, suits dealt from): 5-3 tricks from the end
LINE_CASES = [
    ("", 4, 30, 2),
    ("partnership=true", 4, 30, 2),
    ("", 5, 25, 3),
    ("", 6, 20, 3),
    ("", 7, 20, 4),
]


@pytest.mark.parametrize(("spec", "n", "count", "suits"), LINE_CASES, ids=case_ids(LINE_CASES))
def test_the_game_bound_changes_no_value_along_lines_of_play(spec, n, count, suits):
    """Every card's value with the bound and without, on a fresh table and on tables
    kept across the positions of the deal (``T_SAME``), small ones too."""
    rules = rules_of(spec)
    rng = random.Random(f"game bound lines/{spec}/{n}")
    solver = Solver(rules)
    kept = [table(b) for b in (2, 10, kernel.TABLE_BITS)]
    acted = 0
    for _ in range(count):
        for k, st in enumerate(line_of_play(rules, n, rng, suits)):
            off = table(kernel.TABLE_BITS, bound=False)
            want = solver.card_values(st, off)
            on = table(kernel.TABLE_BITS)
            assert solver.card_values(st, on) == want, st
            acted += on[0, kernel.T_NODES] != off[0, kernel.T_NODES]
            for t in kept:
                t[0, kernel.T_SAME] = k > 0
                assert solver.card_values(st, t) == want, (st, t.shape)
    assert acted > 0  # the bound changed some search
