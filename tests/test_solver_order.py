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

import itertools
import random
from dataclasses import replace

import numpy as np
import pytest
from solver_cases import (
    Solver,
    check_deal,
    dense_position,
    line_of_play,
    preset_position,
    spec_id,
)
from test_solver_keys import dense_deal

from pitchsim.game.cards import cards_of, game_points, mask_of, suit_of
from pitchsim.game.rules import Rules
from pitchsim.kernels.search import solver as kernel
from pitchsim.search import minimax as fm
from pitchsim.search.position import start_position


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


def keyed_counts(st, left):
    """The Game counts as the solver's key holds them at a trick boundary (solo, the
    base game; ``solver._key``): None when Game is decided by count (the key's flags),
    else each seat's count, a count that can no longer matter cleared to 0."""
    c = [sum(game_points(x) for x in cards_of(w)) for w in st.won]
    p = c[st.pitcher]
    others = [x for s, x in enumerate(c) if s != st.pitcher]
    if p > max(others) + left or p + left <= max(others):
        return None
    out = []
    for s, x in enumerate(c):
        cleared = s != st.pitcher and (
            x + left < p or any(x + left < c[a] for a in range(st.n) if a != st.pitcher)
        )
        out.append(0 if cleared else x)
    return tuple(out)


def counts_moved(rng, n, left, tries):
    """Solo trick-boundary positions ``left`` tricks from the end, each with variants:
    its captured side-suit count cards dealt again among the seats (the trumps, so every
    point but Game, where they were): the same hands and points, other Game counts."""
    rules = Rules()
    for _ in range(tries):
        pos = start_position(dense_deal(rng, n, 3), rng.randrange(n), rules)
        for _ in range(6 * n - left * n):
            pos = pos.play(rng.choice(cards_of(pos.legal())))
        st = pos.state
        side = [c for w in st.won for c in cards_of(w) if suit_of(c) != st.trump and game_points(c)]
        variants = []
        for _ in range(40):
            won = [w & ~mask_of(side) for w in st.won]
            for c in side:
                won[rng.randrange(n)] |= 1 << c
            variants.append(replace(st, won=tuple(won)))
        yield variants


def test_a_better_count_for_the_pitcher_through_a_cleared_count():
    """Pairs of one position under two vectors of Game counts, A then B, where B's
    pitcher has more count than A's and every other count B's key holds is at least
    A's: the count the pitcher gained was another seat's that A's key cleared (one
    that could no longer matter).  Neither vector is at least as good for the pitcher
    as the other, so A's entry bounds nothing of B's; where B is worth more than A a
    dominance test that left the pitcher's own count out (only the others compared)
    reads A's upper bound for B.  A on a fresh table, then B on it (``T_SAME``: one
    deal), each against the minimax; and the pair the other way round."""
    n = 4
    rng = random.Random("dominance/pitcher count")
    solver = Solver(Rules())
    deciding = 0
    for variants in counts_moved(rng, n, 2, 200):
        held = 0
        for h in variants[0].hands:
            held |= h
        left = sum(game_points(x) for x in cards_of(held))
        keyed = [keyed_counts(v, left) for v in variants]
        memo: dict = {}
        values = [fm.solve(v, memo) for v in variants]
        p = variants[0].pitcher
        for a, b in itertools.permutations(range(len(variants)), 2):
            ka, kb = keyed[a], keyed[b]
            if ka is None or kb is None or values[b] <= values[a] or kb[p] <= ka[p]:
                continue
            if any(kb[s] < ka[s] for s in range(n) if s != p):
                continue
            deciding += 1
            for first, then in ((a, b), (b, a)):
                table = always(kernel.TABLE_BITS)
                assert solver.value(variants[first], table) == values[first]
                table[0, kernel.T_SAME] = 1
                assert solver.value(variants[then], table) == values[then], variants[then]
        if deciding >= 10:
            break
    assert deciding >= 10, deciding


def test_counts_kept_as_distances_from_the_pitchers_under_dominance():
    """Game compares counts with each other only (0.8; a tie gives it to nobody, Edge 8),
    so under count dominance the key keeps each count that matters as its distance from
    the pitcher's: counts moved by one constant share a key, and a count that can just
    tie the pitcher's (``left`` below it) is kept, not cleared.  Without dominance the
    counts are kept as they are."""
    from pitchsim.kernels.presets import rules_array, rules_table

    rules = Rules()
    n = 6
    # two plain cards a seat, and a ten and a king still out: 13 count
    hands = np.array([mask_of([s, 26 + s]) for s in range(n)], dtype=np.int64)
    hands[1] |= mask_of([47])
    hands[2] |= mask_of([11])
    ctx = np.zeros(kernel._CTX, dtype=np.int64)
    kernel._setup(ctx, hands, n, 0, 1, rules_array(rules), rules_table(rules), -1)
    rest = np.int64(0)
    for h in hands:
        rest |= h
    left = kernel._count(rest, ctx)
    assert left == 13
    rel = np.zeros(kernel.MAX_SEATS, dtype=np.int64)

    def key(counts, dominance):
        ctx[kernel.C_DOMINANCE] = dominance
        c = np.zeros(kernel.MAX_SEATS, dtype=np.int64)
        c[:n] = counts
        return kernel._key(hands, c, ctx, rest, 0, rel)

    base = [20, 18, 20 - left, 0, 5, 19]
    moved = [c + 3 for c in base]
    assert key(base, 1) == key(moved, 1)
    assert key(base, 0) != key(moved, 0)
    tie = list(base)
    tie[2] = 0  # far below: cleared
    assert key(tie, 1) != key(base, 1)  # the just-tie count is not cleared
