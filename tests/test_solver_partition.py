"""Partition search in the double-dummy solver (issue 33, item 1; docs/search.md,
"Partition search").

A table entry's bound holds for every position that differs from the entry's only below
the lowest rank its proof relied on in each suit (the ranks rank relevance keeps beside
each bound), each seat holding as many plain cards of each suit and the same cards that
score (``solver._probe``).  The cases here are positions where such a cut-off happens
(the solver counts them in ``table[0, T_COVERED]``): deep positions dealt from few suits
at 3-7 players, in partnership and under the presets, every trick-boundary position of
each one's minimax tree solved in turn on tables of every size kept across the deal
(``check_deal``), against the plain-Python minimax; and deeper lines, every card's value
with partition search and without it (the exact position's entry only, the solver the
other solver tests check against the minimax), on fresh tables and tables kept across
the deal, tiny ones too.

Planted in the solver one at a time (a scratch copy, nothing of it kept), and the
tests here that failed: docs/search.md, "Partition search".
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from test_solver_key_through_search import Solver, check_deal, preset_position, spec_id
from test_solver_relevance import dense_position, line_of_play

from pitchsim.game.rules import Rules
from pitchsim.kernels.search import solver as kernel


def covering(make, solver):
    """The first position from ``make()`` whose every card's value takes a cut-off from
    another position's entry (on a fresh table)."""
    for _ in range(500):
        st = make()
        table = kernel.new_table(kernel.TABLE_BITS)
        table[0, kernel.T_NO_PARTITION] = -1
        solver.card_values(st, table)
        if table[0, kernel.T_COVERED] > 0:
            return st
    raise AssertionError("no position where partition search covers one")


def always(bits):
    """A table searched with partition search at every table size (by default it is
    from ``PARTITION_FROM`` players: at 4 players it costs nodes)."""
    table = kernel.new_table(bits)
    table[0, kernel.T_NO_PARTITION] = -1
    return table


@pytest.fixture(scope="module")
def tables():
    return [always(b) for b in (1, 2, 3, kernel.TABLE_BITS, kernel.BIG_TABLE_BITS)]


# (rules, players, positions, tricks left, suits dealt from)
BASE_CASES = [
    ("", 3, 3, 4, 1),
    ("follow=suit", 3, 2, 4, 2),
    ("low=dealt", 3, 2, 4, 1),
    ("", 4, 3, 3, 1),
    ("partnership=true", 4, 2, 3, 2),
    ("follow=suit,partnership=true", 4, 2, 3, 1),
    ("", 5, 2, 3, 2),
    ("", 6, 2, 3, 1),
    ("", 7, 2, 3, 1),
]
PRESET_CASES = [
    ("smear", 3, 2, 4),
    ("smear", 5, 2, 3),
    ("smear,partnership=true", 4, 2, 3),
    ("setback", 4, 2, 3),
    ("jick=true,five=true,low=dealt", 4, 2, 3),
]


@pytest.mark.parametrize(
    ("spec", "n", "count", "left", "suits"),
    BASE_CASES,
    ids=[f"{spec_id(c[0])}-{c[1]}p-{c[3]}left-{c[4]}suits" for c in BASE_CASES],
)
def test_dense_positions_with_partition_against_the_minimax(spec, n, count, left, suits, tables):
    rules = Rules.parse(spec) if spec else Rules()
    rng = random.Random(f"partition/{spec}/{n}/{suits}")
    solver = Solver(rules)
    for _ in range(count):
        st = covering(lambda: dense_position(rng, n, rules, suits, left), solver)
        check_deal(st, solver, tables, rng, most=400)


@pytest.mark.parametrize(
    ("spec", "n", "count", "left"),
    PRESET_CASES,
    ids=[f"{c[0]}-{c[1]}p-{c[3]}left" for c in PRESET_CASES],
)
def test_preset_positions_with_partition_against_the_minimax(spec, n, count, left, tables):
    rules = Rules.parse(spec)
    rng = random.Random(f"partition/{spec}/{n}")
    solver = Solver(rules)
    for _ in range(count):
        st = covering(lambda: preset_position(rules, n, rng, (left, left)), solver)
        check_deal(st, solver, tables, rng, most=400)


def values(solver, st, table, partition):
    table[0, kernel.T_NO_PARTITION] = -1 if partition else 1
    try:
        return solver.card_values(st, table)
    finally:
        table[0, kernel.T_NO_PARTITION] = -1


# (rules, players, deals, suits dealt from): 3-5 tricks from the end
DEEP_CASES = [
    ("", 4, 40, 2),
    ("partnership=true", 4, 40, 2),
    ("follow=suit", 5, 40, 2),
    ("", 5, 40, 4),
    ("", 6, 30, 2),
    ("", 7, 40, 4),
    ("low=dealt", 7, 25, 2),
    ("smear", 5, 40, 0),
    ("smear,partnership=true", 4, 40, 0),
    ("jick=true,five=true,low=dealt", 6, 25, 0),
    ("jokers=2,game=ten,three=true,five=true", 5, 30, 0),
]


@pytest.mark.parametrize(
    ("spec", "n", "count", "suits"),
    DEEP_CASES,
    ids=[f"{spec_id(c[0])}-{c[1]}p-{c[3]}suits" for c in DEEP_CASES],
)
def test_partition_changes_no_value_three_to_five_tricks_from_the_end(spec, n, count, suits):
    """Every card's value with partition search and without, on a fresh table and on
    tables kept across the positions of the deal (``T_SAME``), small ones too (a bucket
    of partition search is 4 rows: a table of 2 or 4 rows holds one)."""
    rules = Rules.parse(spec) if spec else Rules()
    rng = random.Random(f"partition deep/{spec}/{n}")
    solver = Solver(rules)
    kept = [always(b) for b in (1, 2, 10, kernel.TABLE_BITS)]
    fresh = always(kernel.TABLE_BITS)
    covered = 0
    for _ in range(count):
        line = line_of_play(rules, n, rng, suits)
        for k, st in enumerate(line):
            want = values(solver, st, fresh, False)
            before = fresh[0, kernel.T_COVERED]
            assert values(solver, st, fresh, True) == want, st
            covered += fresh[0, kernel.T_COVERED] > before
            for table in kept:
                table[0, kernel.T_SAME] = k > 0
                assert values(solver, st, table, True) == want, (st, table.shape)
    assert covered > 0  # partition search cut somewhere


@pytest.mark.parametrize(("n", "flag"), [(6, 1), (4, 0)])
def test_partition_off_is_the_exact_table(n, flag):
    """With ``T_NO_PARTITION`` = 1, and by default below ``PARTITION_FROM`` players, no
    entry of another position is ever used."""
    rng = random.Random(f"partition off/{n}")
    rules = Rules()
    solver = Solver(rules)
    table = kernel.new_table(kernel.TABLE_BITS)
    for _ in range(20):
        for st in line_of_play(rules, n, rng, 2):
            table[0, kernel.T_NO_PARTITION] = flag
            solver.card_values(st, table)
    assert table[0, kernel.T_COVERED] == 0
    assert np.all(table[1:, kernel._K_LO] <= table[1:, kernel._K_HI])
