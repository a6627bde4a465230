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
from solver_cases import (
    DENSE_CASES,
    DENSE_PRESET_CASES,
    Solver,
    case_ids,
    check_dense_and_preset_cases,
    line_of_play,
    on_and_off_along_lines,
)

from pitchsim.game.rules import Rules
from pitchsim.kernels.search import solver as kernel

ALWAYS = ((kernel.T_NO_PARTITION, -1),)  # partition search at every table size (by
# default it is from ``PARTITION_FROM`` players: at 4 players it costs nodes)


def always(bits):
    """A table searched with partition search at every table size."""
    table = kernel.new_table(bits)
    table[0, kernel.T_NO_PARTITION] = -1
    return table


@pytest.fixture(scope="module")
def tables():
    return [always(b) for b in (1, 2, 3, kernel.TABLE_BITS, kernel.BIG_TABLE_BITS)]


BASE_CASES = DENSE_CASES
PRESET_CASES = DENSE_PRESET_CASES


@pytest.mark.parametrize(
    ("spec", "n", "count", "left", "suits"), BASE_CASES, ids=case_ids(BASE_CASES, "left", "suits")
)
def test_dense_positions_with_partition_against_the_minimax(spec, n, count, left, suits, tables):
    seed = f"partition/{spec}/{n}/{suits}"
    check_dense_and_preset_cases(
        spec, n, count, left, suits, tables, seed, kernel.T_COVERED, ALWAYS
    )


@pytest.mark.parametrize(
    ("spec", "n", "count", "left"), PRESET_CASES, ids=case_ids(PRESET_CASES, "left")
)
def test_preset_positions_with_partition_against_the_minimax(spec, n, count, left, tables):
    seed = f"partition/{spec}/{n}"
    check_dense_and_preset_cases(spec, n, count, left, None, tables, seed, kernel.T_COVERED, ALWAYS)


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
    ids=case_ids(DEEP_CASES, "suits"),
)
def test_partition_changes_no_value_three_to_five_tricks_from_the_end(spec, n, count, suits):
    """Every card's value with partition search and without, on a fresh table and on
    tables kept across the positions of the deal (``T_SAME``), small ones too (a bucket
    of partition search is 4 rows: a table of 2 or 4 rows holds one)."""
    kept = [always(b) for b in (1, 2, 10, kernel.TABLE_BITS)]
    covered = on_and_off_along_lines(
        spec, n, count, suits, f"partition deep/{spec}/{n}", kernel.T_NO_PARTITION, -1, 1,
        kernel.T_COVERED, always(kernel.TABLE_BITS), kept,
    )  # fmt: skip
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
