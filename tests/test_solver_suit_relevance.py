"""Suit relevance in the double-dummy solver (issue 33; docs/search.md, "The tail is
Game alone, and discards of other suits").

A seat void in the suit led may discard a card of any other suit.  Every node reports,
beside the ranks its answer relied on, the suits led to a seat whose holding of that
suit its answer read (a seat's legal cards, an in-trick bound, the last trick); once a
discard is searched, a later discard of another suit is skipped when both score
nothing, neither is a trump and the first one's answer read no holding of either suit
(``solver._discard_twin``).  The values must stay the plain-Python minimax's
(search/minimax.py): positions where the merge cuts nodes, at 4-7 players and under the
presets, every trick-boundary position of each one's minimax tree solved in turn on
tables kept across the deal; and lines of play 5-3 tricks from the end, every card with
the merge and without (``table[0, T_NO_RELEVANCE] = 2``: rank relevance alone, the
search before, which the other solver tests check against the minimax).

Planted in the solver (a scratch edit, nothing of it kept), and what failed here: the
suits' bits not backed up from a node inside a trick (``_LEAVE``: any two discards of
other suits merge, but for what the last trick reads) -- the 4-player case against the
minimax and the 6-player lines; cards worth a Game count merged as plain ones -- the
jick preset's case against the minimax.
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

MERGE_OFF = 2  # table[0, T_NO_RELEVANCE]: rank relevance without the suit merge


def merged_nodes(solver, st):
    """(nodes with the merge, nodes without) of every card's value on fresh tables."""
    out = []
    for flag in (0, MERGE_OFF):
        table = kernel.new_table(kernel.TABLE_BITS)
        table[0, kernel.T_NO_RELEVANCE] = flag
        solver.card_values(st, table)
        out.append(int(table[0, kernel.T_NODES]))
    return out


def merging_position(make, solver):
    """The first position from ``make()`` where the merge searches fewer nodes."""
    for _ in range(300):
        st = make()
        on, off = merged_nodes(solver, st)
        if on < off:
            return st
    raise AssertionError("no position where the suit merge acts")


# (rules, players, positions, tricks left; suits dealt from, None: a preset's position)
CASES = [
    ("", 4, 3, 3, 4),
    ("partnership=true", 4, 2, 3, 4),
    ("follow=suit", 5, 2, 3, 4),
    ("", 5, 2, 3, 4),
    ("", 6, 2, 3, 4),
    ("", 7, 2, 3, 4),
    ("low=dealt", 7, 2, 3, 4),
    ("smear", 5, 2, 3, None),
    ("smear,partnership=true", 4, 2, 3, None),
    ("jick=true,five=true,low=dealt", 4, 2, 3, None),
]


@pytest.fixture(scope="module")
def tables():
    return [kernel.new_table(b) for b in (1, 2, kernel.TABLE_BITS, kernel.BIG_TABLE_BITS)]


@pytest.mark.parametrize(
    ("spec", "n", "count", "left", "suits"), CASES, ids=case_ids(CASES, "left", "suits")
)
def test_merged_discards_against_the_minimax(spec, n, count, left, suits, tables):
    """Positions where the merge cuts nodes, each with the boundary positions of its
    minimax tree on tables kept across the deal (entries and their suits met from other
    lines)."""
    rules = rules_of(spec)
    rng = random.Random(f"suit relevance/{spec}/{n}")
    solver = Solver(rules)
    for _ in range(count):
        if suits is None:
            make = lambda: preset_position(rules, n, rng, (left, left))  # noqa: E731
        else:
            make = lambda: dense_position(rng, n, rules, suits, left)  # noqa: E731
        check_deal(merging_position(make, solver), solver, tables, rng, most=400)


LINES = [("", 4, 30), ("", 5, 20), ("", 6, 15), ("", 7, 15), ("smear", 6, 10)]


@pytest.mark.parametrize(("spec", "n", "count"), LINES, ids=case_ids(LINES))
def test_the_merge_changes_no_value_along_lines_of_play(spec, n, count):
    """Every card's value with the merge and without, 5, 4 and 3 tricks from the end
    of ``count`` deals played at random, on a fresh table and on a table kept across the
    deal; and the merge cuts nodes somewhere."""
    rules = rules_of(spec)
    rng = random.Random(f"suit relevance lines/{spec}/{n}")
    solver = Solver(rules)
    fresh = kernel.new_table(kernel.TABLE_BITS)
    kept = [kernel.new_table(kernel.TABLE_BITS)]
    saved = 0
    for _ in range(count):
        for k, st in enumerate(line_of_play(rules, n, rng, 4)):
            on, off = merged_nodes(solver, st)
            saved += off - on
            fresh[0, kernel.T_NO_RELEVANCE] = MERGE_OFF
            want = solver.card_values(st, fresh)
            fresh[0, kernel.T_NO_RELEVANCE] = 0
            assert solver.card_values(st, fresh) == want, st
            for table in kept:
                table[0, kernel.T_SAME] = k > 0
                assert solver.card_values(st, table) == want, (st, table.shape)
    assert saved > 0
