"""Rank relevance in the double-dummy solver (issue 33, item 1; docs/search.md, "Rank
relevance").

Once a move is searched, its subtree reports the ranks its answer relied on (a card
that won a trick by rank, the winning card an in-trick bound compared, a table
entry's ranks, kept with the entry in relative ranks); the mover's other cards of that
suit which no such rank (and no card that scores) parts from it give the same answer
and are skipped.  The values must stay the plain-Python minimax's (search/minimax.py):
deep positions dealt from few suits (many plain cards of one suit in a hand, where the
skipping happens) at 3-7 players, in partnership and under the presets, every
trick-boundary position of each one's minimax tree solved in turn on tables kept
across the deal (``check_deal``: table entries, and their ranks, met by other lines),
and each position's every card.  Each position is one where the solver skips a move
by relevance (it counts them in ``table[0, T_SKIPPED]``), so the cases test the
skipping and not a search that never skips.

Planted in the solver one at a time (a scratch copy, nothing of it kept), and the
tests here that failed: docs/search.md, "Rank relevance".
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from solver_cases import (
    DENSE_CASES,
    DENSE_PRESET_CASES,
    case_ids,
    check_dense_and_preset_cases,
    on_and_off_along_lines,
)

from pitchsim.kernels.bits import HONOURS, gather, scatter, scatter_loop, suit_mask
from pitchsim.kernels.search import solver as kernel
from pitchsim.kernels.search.ranks import absolute_mask, relative_hands, relative_mask


def test_scatter_inverts_gather():
    """``scatter`` (pdep where the CPU has BMI2) and its portable loop against the
    definition, and as ``gather``'s inverse, on random 52-bit masks."""

    def reference(src, mask):
        places = [i for i in range(64) if mask >> i & 1]
        return sum(1 << p for k, p in enumerate(places) if src >> k & 1)

    rng = random.Random(7)
    cases = [(0, 0), ((1 << 52) - 1, 0), (0b1011, 0b110110), (1, 1 << 51)]
    cases += [(rng.getrandbits(13), rng.getrandbits(52)) for _ in range(2000)]
    for src, mask in cases:
        want = reference(src, mask)
        assert scatter(src, mask) == want == scatter_loop(src, mask), (src, mask)
        assert scatter(gather(want, mask), mask) == want


def test_relevant_ranks_are_renamed_as_the_key_renames_the_hands():
    """A table entry keeps its ranks relative, as the key keeps the hands
    (``relative_hands``): a seat's plain cards renamed are its relative hand less its
    cards that score, and ``absolute_mask`` names them again in the position."""
    rng = random.Random(8)
    for _ in range(3000):
        n = rng.randrange(2, 8)
        deck = rng.sample(range(52), 6 * n)
        cut = [rng.randrange(1, 7) for _ in range(n)]
        hands = np.array(
            [sum(1 << c for c in deck[6 * s : 6 * s + cut[s]]) for s in range(n)],
            dtype=np.int64,
        )
        rest = int(np.bitwise_or.reduce(hands))
        trump = rng.randrange(4)
        trumps = rest & suit_mask(trump)
        low = trumps & -trumps
        low_rank = (low.bit_length() - 1) % 13 if low else 0
        worth = HONOURS | low | (1 << (13 * trump + 9))
        if rng.random() < 0.2:
            worth |= suit_mask(trump)  # three or five: no trump is plain
        out = np.empty(7, dtype=np.int64)
        relative_hands(hands, n, np.int64(rest), np.int64(worth), trump, low_rank, out)
        for s in range(n):
            h = int(hands[s])
            rel = relative_mask(h, rest, worth, trump, low_rank)
            assert out[s] == (h & worth) | rel
            assert absolute_mask(rel, rest, worth, trump, low_rank) == h & ~worth
        some = rng.getrandbits(52) & rest
        rel = relative_mask(some, rest, worth, trump, low_rank)
        assert absolute_mask(rel, rest, worth, trump, low_rank) == some & ~worth


BASE_CASES = DENSE_CASES
# and under ten-point's jokers, 3 and 5 (under ten-point itself three=true makes every
# trump score and follow=only plays nothing else: no move is ever skipped there)
PRESET_CASES = [*DENSE_PRESET_CASES, ("jokers=2,game=ten,three=true,five=true", 3, 2, 4)]


@pytest.fixture(scope="module")
def tables():
    return [kernel.new_table(b) for b in (1, 2, kernel.TABLE_BITS, kernel.BIG_TABLE_BITS)]


@pytest.mark.parametrize(
    ("spec", "n", "count", "left", "suits"), BASE_CASES, ids=case_ids(BASE_CASES, "left", "suits")
)
def test_dense_positions_with_relevance_against_the_minimax(spec, n, count, left, suits, tables):
    seed = f"relevance/{spec}/{n}/{suits}"
    check_dense_and_preset_cases(spec, n, count, left, suits, tables, seed, kernel.T_SKIPPED)


@pytest.mark.parametrize(
    ("spec", "n", "count", "left"), PRESET_CASES, ids=case_ids(PRESET_CASES, "left")
)
def test_preset_positions_with_relevance_against_the_minimax(spec, n, count, left, tables):
    seed = f"relevance/{spec}/{n}"
    check_dense_and_preset_cases(spec, n, count, left, None, tables, seed, kernel.T_SKIPPED)


# (rules, players, deals, suits dealt from): deeper positions than the minimax reaches,
# where relevance skips most, each against the same solver without relevance (itself
# checked against the minimax above and in every other solver test)
DEEP_CASES = [
    ("", 4, 60, 2),
    ("partnership=true", 4, 60, 2),
    ("follow=suit", 5, 50, 2),
    ("", 5, 50, 4),
    ("", 6, 40, 2),
    ("", 7, 50, 4),
    ("low=dealt", 7, 30, 2),
    ("smear", 5, 50, 0),
    ("smear,partnership=true", 4, 60, 0),
    ("setback", 4, 60, 0),
    ("jick=true,five=true,low=dealt", 6, 30, 0),
    ("jokers=2,game=ten,three=true,five=true", 5, 40, 0),
]


@pytest.mark.parametrize(
    ("spec", "n", "count", "suits"), DEEP_CASES, ids=case_ids(DEEP_CASES, "suits")
)
def test_relevance_changes_no_value_three_to_five_tricks_from_the_end(spec, n, count, suits):
    """Every card's value with relevance and without, on a fresh table and on one kept
    across the positions of the deal (``T_SAME``: entries and their ranks met from other
    positions), a small table's too."""
    kept = [kernel.new_table(b) for b in (10, kernel.TABLE_BITS)]
    skips = on_and_off_along_lines(
        spec, n, count, suits, f"relevance deep/{spec}/{n}", kernel.T_NO_RELEVANCE, 0, 1,
        kernel.T_SKIPPED, kernel.new_table(kernel.TABLE_BITS), kept,
    )  # fmt: skip
    assert skips > 0  # relevance skipped moves
