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
from test_family_solver import cut, random_hand
from test_solver_key_through_search import (
    Solver,
    check_deal,
    preset_position,
    spec_id,
)
from test_solver_keys import dense_deal

from pitchsim.game.cards import cards_of
from pitchsim.game.rules import Rules
from pitchsim.kernels.bits import HONOURS, gather, scatter, scatter_loop, suit_mask
from pitchsim.kernels.search import solver as kernel
from pitchsim.kernels.search.ranks import absolute_mask, relative_hands, relative_mask
from pitchsim.search import minimax as fm
from pitchsim.search.position import start_position


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


def dense_position(rng, n, rules, suits, left):
    """A base position ``left`` tricks from the end (sometimes a card or two into the
    next trick), dealt from ``suits`` suits and played at random."""
    while True:
        pos = start_position(dense_deal(rng, n, suits), rng.randrange(n), rules)
        for _ in range(6 * n - left * n + rng.randrange(min(n, 3))):
            pos = pos.play(rng.choice(cards_of(pos.legal())))
        if not pos.finished:
            return pos.state


def skipping(make, solver):
    """The first position from ``make()`` in which the solver skips a move by relevance
    (every card valued, on a fresh table): some 5-25% of these positions."""
    for _ in range(500):
        st = make()
        table = kernel.new_table(kernel.TABLE_BITS)
        solver.card_values(st, table)
        if table[0, kernel.T_SKIPPED] > 0:
            return st
    raise AssertionError("no position where relevance skips a move")


# (rules, players, positions, tricks left, suits dealt from): auction-pitch solo at 3-7
# players, partnership, follow=suit, low=dealt
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
# every preset whose plain cards are played (under ten-point's three=true every trump
# scores and follow=only plays nothing else: no move is ever skipped there)
PRESET_CASES = [
    ("smear", 3, 2, 4),
    ("smear", 5, 2, 3),
    ("smear,partnership=true", 4, 2, 3),
    ("setback", 4, 2, 3),
    ("jokers=2,game=ten,three=true,five=true", 3, 2, 4),
    ("jick=true,five=true,low=dealt", 4, 2, 3),
]


@pytest.fixture(scope="module")
def tables():
    return [kernel.new_table(b) for b in (1, 2, kernel.TABLE_BITS, kernel.BIG_TABLE_BITS)]


@pytest.mark.parametrize(
    ("spec", "n", "count", "left", "suits"),
    BASE_CASES,
    ids=[f"{spec_id(c[0])}-{c[1]}p-{c[3]}left-{c[4]}suits" for c in BASE_CASES],
)
def test_dense_positions_with_relevance_against_the_minimax(spec, n, count, left, suits, tables):
    rules = Rules.parse(spec) if spec else Rules()
    rng = random.Random(f"relevance/{spec}/{n}/{suits}")
    solver = Solver(rules)
    for _ in range(count):
        st = skipping(lambda: dense_position(rng, n, rules, suits, left), solver)
        check_deal(st, solver, tables, rng, most=400)


@pytest.mark.parametrize(
    ("spec", "n", "count", "left"),
    PRESET_CASES,
    ids=[f"{c[0]}-{c[1]}p-{c[3]}left" for c in PRESET_CASES],
)
def test_preset_positions_with_relevance_against_the_minimax(spec, n, count, left, tables):
    rules = Rules.parse(spec)
    rng = random.Random(f"relevance/{spec}/{n}")
    solver = Solver(rules)
    for _ in range(count):
        st = skipping(lambda: preset_position(rules, n, rng, (left, left)), solver)
        check_deal(st, solver, tables, rng, most=400)


def line_of_play(rules, n, rng, suits):
    """The trick-boundary positions 5, 4 and 3 tricks from the end of one deal played
    at random (base rules: dealt from ``suits`` suits)."""
    if isinstance(rules, Rules):
        pos = start_position(dense_deal(rng, n, suits), rng.randrange(n), rules)
        out = []
        while not pos.finished:
            if not pos.state.trick and len(cards_of(pos.hands[0])) in (3, 4, 5):
                out.append(pos.state)
            pos = pos.play(rng.choice(cards_of(pos.legal())))
        return out
    held, trump, rec = random_hand(rules, n, rng)
    out = []
    for left in (5, 4, 3):
        hands, won, leader, trick, tr = cut(held, trump, rec, len(rec.tricks) - left, 0)
        out.append(fm.start_state(rules, rec.pitcher, held, hands, won, tr, leader, trick))
    return out


def values(solver, st, table, relevance):
    table[0, kernel.T_NO_RELEVANCE] = not relevance
    try:
        return solver.card_values(st, table)
    finally:
        table[0, kernel.T_NO_RELEVANCE] = 0


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
    ("spec", "n", "count", "suits"),
    DEEP_CASES,
    ids=[f"{spec_id(c[0])}-{c[1]}p-{c[3]}suits" for c in DEEP_CASES],
)
def test_relevance_changes_no_value_three_to_five_tricks_from_the_end(spec, n, count, suits):
    """Every card's value with relevance and without, on a fresh table and on one kept
    across the positions of the deal (``T_SAME``: entries and their ranks met from other
    positions), a small table's too."""
    rules = Rules.parse(spec) if spec else Rules()
    rng = random.Random(f"relevance deep/{spec}/{n}")
    solver = Solver(rules)
    kept = [kernel.new_table(b) for b in (10, kernel.TABLE_BITS)]
    fresh = kernel.new_table(kernel.TABLE_BITS)
    skips = 0
    for _ in range(count):
        line = line_of_play(rules, n, rng, suits)
        for k, st in enumerate(line):
            want = values(solver, st, fresh, False)
            before = fresh[0, kernel.T_SKIPPED]
            assert values(solver, st, fresh, True) == want, st
            skips += fresh[0, kernel.T_SKIPPED] > before
            for table in kept:
                table[0, kernel.T_SAME] = k > 0
                assert values(solver, st, table, True) == want, (st, table.shape)
    assert skips > 0  # relevance skipped moves
