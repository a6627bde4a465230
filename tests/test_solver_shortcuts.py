"""A shortcut of the solver that changes no search (issue 33; docs/search.md, "Forced
seats inside a trick"): the same nodes as the search before it.

A seat with one legal card, inside a trick: its in-trick bounds (which count a seat
still to play with one legal card as having played it) equal the next seat's after that
card, so when they did not settle the forced seat, the next seat does not compute them
again (``solver.F_KNOWN``); and its one move is not ordered.

It changes nothing searched, so the node counts of positions at 5-7 players (where the
in-trick bounds are on) and at 4 (where they are off), under the base game and the
presets, are pinned here from the tree before it (commit 9eab279), each with its value
(the values are the minimax's by the other solver tests).  Bounds skipped where they
would have settled change these counts: planted, ``F_KNOWN`` set after any seat, not
only a forced one, fails the 8 cases at 5-7 players.  The suit merge (a void seat's
discards of other suits, ``solver._discard_twin``) changes the search: these pins are
with it off (``T_NO_RELEVANCE`` 2, node for node the search before it), and its own
counts, the same values, are pinned beside them.
"""

from __future__ import annotations

import random

import pytest
from solver_cases import Solver, preset_position, rules_of
from test_solver import random_position

from pitchsim.kernels.search import solver as kernel

# (rules, players, tricks left, positions): base solo at 5-7, follow=suit, low=dealt;
# smear (the jick, low=dealt), the 3 and 5 with both jokers, follow=only at 6; and at 4
# players (no in-trick bounds there: the one-move ordering alone) setback, ten-point
CASES = [
    ("", 5, 5, 4),
    ("", 6, 5, 4),
    ("", 7, 5, 4),
    ("follow=suit", 6, 5, 3),
    ("low=dealt", 7, 5, 3),
    ("smear", 5, 5, 4),
    ("smear", 7, 4, 4),
    ("jokers=2,game=ten,three=true,five=true", 6, 5, 4),
    ("jokers=1,follow=only,trump=named", 6, 5, 4),
    ("setback", 4, 5, 3),
    ("ten-point", 4, 5, 3),
]


def counts(spec, n, left, count, relevance=0):
    """(value, nodes) of every card's value at each position, on a fresh table
    (``relevance``: its ``T_NO_RELEVANCE``; 2, the suit merge off)."""
    rules = rules_of(spec)
    solver = Solver(rules)
    rng = random.Random(f"shortcuts/{spec}/{n}")
    out = []
    for _ in range(count):
        if spec:
            st = preset_position(rules, n, rng, (left, left))
        else:
            st = random_position(rng, n, rules, left * n + rng.randrange(3)).state
        table = kernel.new_table(kernel.TABLE_BITS)
        table[0, kernel.T_NO_RELEVANCE] = relevance
        v, _ = solver.card_values(st, table)
        out.append((v, int(table[0, kernel.T_NODES])))
    return out


# Pinned from commit 9eab279 (the search before the shortcut), as ``counts`` gives them;
# a change of the search that changes nodes pins them again (``python this_file.py``).
PINNED = {
    ("", 5): [(0, 208), (1, 302), (0, 112), (4, 1022891)],
    ("", 6): [(0, 26248), (0, 18677), (0, 43), (0, 816)],
    ("", 7): [(1, 271), (3, 80660), (2, 72), (2, 170966)],
    ("follow=suit", 6): [(0, 6), (0, 22441), (2, 5763)],
    ("low=dealt", 7): [(0, 412), (0, 32), (0, 90)],
    ("smear", 5): [(0, 24), (0, 28), (2, 131), (0, 300)],
    ("smear", 7): [(1, 24), (2, 44122), (0, 17), (1, 166)],
    ("jokers=2,game=ten,three=true,five=true", 6): [(1, 85115), (3, 0), (4, 3), (3, 84121)],
    ("jokers=1,follow=only,trump=named", 6): [(0, 5), (0, 8), (0, 4), (0, 6)],
    ("setback", 4): [(3, 1852), (0, 2945), (2, 739)],
    ("ten-point", 4): [(3, 1421), (6, 16237), (5, 14428)],
}


@pytest.mark.parametrize(("spec", "n", "left", "count"), CASES, ids=lambda x: str(x))
def test_forced_seats_search_the_nodes_the_search_before_did(spec, n, left, count):
    """With the suit merge off, the search of 9eab279 node for node."""
    assert counts(spec, n, left, count, 2) == PINNED[(spec, n)]


# With the suit merge (docs/search.md, "The tail is Game alone, and discards of other
# suits"): the same values, fewer nodes (pinned when it came in).
MERGED = {
    ("", 5): [(0, 208), (1, 302), (0, 109), (4, 921271)],
    ("", 6): [(0, 23551), (0, 18584), (0, 35), (0, 803)],
    ("", 7): [(1, 270), (3, 80660), (2, 59), (2, 83689)],
    ("follow=suit", 6): [(0, 5), (0, 15523), (2, 4892)],
    ("low=dealt", 7): [(0, 406), (0, 32), (0, 90)],
    ("smear", 5): [(0, 24), (0, 28), (2, 131), (0, 232)],
    ("smear", 7): [(1, 24), (2, 26882), (0, 17), (1, 160)],
    ("jokers=2,game=ten,three=true,five=true", 6): [(1, 80033), (3, 0), (4, 3), (3, 83555)],
    ("jokers=1,follow=only,trump=named", 6): [(0, 5), (0, 8), (0, 4), (0, 6)],
    ("setback", 4): [(3, 1828), (0, 2935), (2, 732)],
    ("ten-point", 4): [(3, 1421), (6, 16237), (5, 14428)],
}


@pytest.mark.parametrize(("spec", "n", "left", "count"), CASES, ids=lambda x: str(x))
def test_the_suit_merge_searches_its_pinned_nodes(spec, n, left, count):
    got = counts(spec, n, left, count)
    assert got == MERGED[(spec, n)]
    assert [v for v, _ in got] == [v for v, _ in PINNED[(spec, n)]]


if __name__ == "__main__":  # the pins (PINNED: run against the tree before, relevance 0)
    for relevance in (2, 0):
        for spec, n, left, count in CASES:
            print(f"    {(spec, n)!r}: {counts(spec, n, left, count, relevance)!r},")
