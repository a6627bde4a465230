"""Count dominance in the double-dummy solver's partition search (issue 33; docs/search.md,
"Count dominance").

A position's value only grows with the pitcher side's Game count and only shrinks with
any other seat's (or team's), the cards and everything else the same: so an entry's
lower bound holds for the same cards under counts at least as good for the pitcher's
side, its upper bound under counts at most as good (``solver._probe``,
``_at_least_as_good``; Furtak & Buro's payoff similarity).  A count the key clears (one
that can no longer matter) is 0 in the key, and the position's value is the one with
that count 0.  The cases here are positions where such a cut-off happens (the solver
counts them in ``table[0, T_DOMINATED]``; they need 4 tricks left or more: none in
400 positions 3 tricks from the end at 4-7 players): positions 4 tricks from the end at
3-5 players, in partnership and under presets (joker-game=half's doubled counts, 8 bits
a count in the key), every trick-boundary position of each one's minimax tree solved in
turn on tables of every size kept across the deal (``check_deal``) against the
plain-Python minimax (at 6-7 players 4 tricks left cost it minutes a position); and
lines of play 5-3 tricks from the end at 4-7 players, every card's value with dominance
and without (partition search alone: the solver the other tests check against the
minimax).

Planted in the solver one at a time (a scratch copy, nothing of it kept), and the
tests here that failed: docs/search.md, "Count dominance".
"""

from __future__ import annotations

import random

import pytest
from solver_cases import (
    Solver,
    check_deal,
    dense_position,
    line_of_play,
    preset_position,
    spec_id,
)

from pitchsim.game.rules import Rules
from pitchsim.kernels.search import solver as kernel


def always(bits, dominance=True):
    """A table searched with partition search at every table size (by default from
    ``PARTITION_FROM`` players), with count dominance or without."""
    table = kernel.new_table(bits)
    table[0, kernel.T_NO_PARTITION] = -1
    table[0, kernel.T_NO_DOMINANCE] = -1 if dominance else 1  # (-1: below DOMINANCE_FROM too)
    return table


def dominating(make, solver):
    """The first position from ``make()`` whose every card's value takes a cut-off from
    an entry under other Game counts (on a fresh table)."""
    for _ in range(800):
        st = make()
        table = always(kernel.TABLE_BITS)
        solver.card_values(st, table)
        if table[0, kernel.T_DOMINATED] > 0:
            return st
    raise AssertionError("no position where an entry under other counts cuts off")


@pytest.fixture(scope="module")
def tables():
    return [always(b) for b in (1, 2, 3, kernel.TABLE_BITS, kernel.BIG_TABLE_BITS)]


# (rules, players, positions, tricks left, suits dealt from)
BASE_CASES = [
    ("", 3, 3, 4, 2),
    ("low=dealt", 3, 2, 4, 2),
    ("partnership=true", 4, 2, 4, 2),
    ("follow=suit", 4, 2, 4, 3),
    ("", 5, 1, 4, 4),
]
PRESET_CASES = [
    ("smear", 3, 2, 4),
    ("smear,partnership=true", 4, 1, 4),
    ("jokers=1,joker-game=half", 4, 1, 4),
]


@pytest.mark.parametrize(
    ("spec", "n", "count", "left", "suits"),
    BASE_CASES,
    ids=[f"{spec_id(c[0])}-{c[1]}p-{c[3]}left-{c[4]}suits" for c in BASE_CASES],
)
def test_dense_positions_with_dominance_against_the_minimax(spec, n, count, left, suits, tables):
    rules = Rules.parse(spec) if spec else Rules()
    rng = random.Random(f"dominance/{spec}/{n}/{suits}")
    solver = Solver(rules)
    for _ in range(count):
        st = dominating(lambda: dense_position(rng, n, rules, suits, left), solver)
        check_deal(st, solver, tables, rng, most=300)


@pytest.mark.parametrize(
    ("spec", "n", "count", "left"),
    PRESET_CASES,
    ids=[f"{spec_id(c[0])}-{c[1]}p-{c[3]}left" for c in PRESET_CASES],
)
def test_preset_positions_with_dominance_against_the_minimax(spec, n, count, left, tables):
    rules = Rules.parse(spec)
    rng = random.Random(f"dominance/{spec}/{n}")
    solver = Solver(rules)
    for _ in range(count):
        st = dominating(lambda: preset_position(rules, n, rng, (left, left)), solver)
        check_deal(st, solver, tables, rng, most=300)


# (rules, players, deals, suits dealt from): 5-3 tricks from the end
DEEP_CASES = [
    ("", 5, 30, 2),
    ("partnership=true", 4, 30, 2),
    ("", 6, 25, 3),
    ("", 7, 25, 4),
    ("jokers=1,joker-game=half", 6, 20, 0),
]


@pytest.mark.parametrize(
    ("spec", "n", "count", "suits"),
    DEEP_CASES,
    ids=[f"{spec_id(c[0])}-{c[1]}p-{c[3]}suits" for c in DEEP_CASES],
)
def test_dominance_changes_no_value_three_to_five_tricks_from_the_end(spec, n, count, suits):
    """Every card's value with dominance and without, on a fresh table and on tables
    kept across the positions of the deal (``T_SAME``), small ones too."""
    rules = Rules.parse(spec) if spec else Rules()
    rng = random.Random(f"dominance deep/{spec}/{n}")
    solver = Solver(rules)
    kept = [always(b) for b in (2, 10, kernel.TABLE_BITS)]
    dominated = 0
    for _ in range(count):
        for k, st in enumerate(line_of_play(rules, n, rng, suits)):
            want = solver.card_values(st, always(kernel.TABLE_BITS, dominance=False))
            fresh = always(kernel.TABLE_BITS)
            assert solver.card_values(st, fresh) == want, st
            dominated += fresh[0, kernel.T_DOMINATED] > 0
            for table in kept:
                table[0, kernel.T_SAME] = k > 0
                assert solver.card_values(st, table) == want, (st, table.shape)
    assert dominated > 0  # an entry under other counts cut somewhere


def test_no_dominance_reads_entries_under_its_own_counts_only():
    """With ``T_NO_DOMINANCE`` = 1 no cut-off comes from an entry under other counts."""
    rng = random.Random("dominance off")
    rules = Rules()
    solver = Solver(rules)
    table = always(kernel.TABLE_BITS, dominance=False)
    for _ in range(15):
        for st in line_of_play(rules, 6, rng, 2):
            solver.card_values(st, table)
    assert table[0, kernel.T_DOMINATED] == 0
