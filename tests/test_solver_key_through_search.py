"""The solver's table key, through the solver: deep positions (4 tricks left, a whole
2-player hand) where Game counts that can still tie, Low or the Jack still out, the
jick, jokers and the 10 decide the value, against the plain-Python minimax, at every
table size (issue 33, item 0).

A table entry holds bounds on the points still to come, shared by every position with
its key (``solver._key``: the hands in relative ranks, the leader, trump, the Game
counts that can still matter).  A key that leaves something out is wrong only when two
positions that differ in it meet on one table, and a search from one position rarely
meets both (an alpha-beta search settles most nodes by bounds before the table).  So
here the table is kept across every trick-boundary position of one deal: the minimax
solves a deep position exhaustively, and each trick-boundary position of its tree
(its memo), in a seeded random order, is then solved by the kernel on one table with
``T_SAME`` set, which keeps the entries of the calls before.  That is sound for a sound
key: within one deal and pitcher (the cards in play, High and Low, the points fixed at
the deal) an entry is valid for every position with its key, whatever line reached it;
the key names all else (the solver's docstring).  Each position's value must be the
minimax's.  Tables of every size the solver uses: one bucket (two rows: next to no
table), two buckets, ``TABLE_BITS`` and ``BIG_TABLE_BITS``; and each deep position's
every card by ``card_values`` on a fresh table and on the full one.

Two more kinds of pair the trees rarely hold, on a kept table too: a seat that can at
best tie the pitcher's count with another seat's captures swapped in (the issue's
slip: ``c + left <= p``), and a position's captured cards dealt again among the seats.

``tests/test_solver_keys.py`` asks the key directly (variants of a position keyed alike
must have the same value to come); this file asks the solver, as play uses it.  The
slips planted in ``_key`` and which test here caught each: docs/search.md, "The table
key's tests".
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from solver_cases import Solver, case_ids, check_deal, preset_position, rules_of
from test_family_solver import random_position
from test_solver_keys import dense_deal, game_close, just_tie_position, trumps_out

from pitchsim.game.cards import cards_of
from pitchsim.game.rules import Rules
from pitchsim.kernels.search import solver as kernel
from pitchsim.search import minimax as fm
from pitchsim.search.position import start_position

SIZES = (1, 2, kernel.TABLE_BITS, kernel.BIG_TABLE_BITS)


@pytest.fixture(scope="module")
def tables():
    """One table of each size, reused by every case (a new deal starts a new generation:
    entries of other deals must never be read)."""
    return [kernel.new_table(b) for b in SIZES]


def base_position(rng, n, rules, left):
    """A base position at a trick boundary ``left`` tricks from the end, dealt from two
    suits (plain neighbours: many lines reach the same hands) and played at random, where
    Game is open and some other side can still tie the pitcher's side's count, and Low
    (under low=captured) or the Jack is still out."""
    for _ in range(5000):
        pos = start_position(dense_deal(rng, n, 2), rng.randrange(n), rules)
        for _ in range(6 * n - left * n):
            pos = pos.play(rng.choice(cards_of(pos.legal())))
        if pos.finished or not game_close(pos):
            continue
        low, jack = trumps_out(pos)
        if (low and rules.low == "captured") or jack:
            return pos.state
    raise AssertionError("no position found")


# (rules, players, deep positions, tricks left): auction-pitch solo at 3-7 players, in
# partnership, follow=suit, low=dealt; every preset's own awards: smear (the jick,
# low=dealt, solo and pooled), setback (partnership), ten-point (the jokers, the 10 and
# the 3 under game=ten, follow=only: unequal hands), the 5 and both jokers.
BASE_CASES = [
    ("", 3, 4, 4),
    ("low=dealt", 3, 3, 4),
    ("follow=suit", 3, 3, 4),
    ("", 4, 6, 3),
    ("partnership=true", 4, 1, 4),
    ("", 5, 4, 3),
    ("", 6, 2, 3),
    ("", 7, 1, 3),
]
PRESET_CASES = [
    ("smear", 3, 3, 4),
    ("smear", 4, 2, 4),
    ("smear", 5, 2, 3),
    ("smear,partnership=true", 4, 3, 4),
    ("setback", 4, 3, 4),
    ("ten-point", 4, 4, 4),
    ("ten-point,partnership=false", 5, 2, 3),
    ("jokers=2,game=ten,three=true,five=true", 3, 4, 4),
    ("jick=true,five=true,low=dealt", 4, 3, 4),
]


@pytest.mark.parametrize(
    ("spec", "n", "count", "left"),
    BASE_CASES,
    ids=case_ids(BASE_CASES, "left"),
)
def test_base_deep_positions_on_a_kept_table(spec, n, count, left, tables):
    rules = rules_of(spec)
    rng = random.Random(f"solver key/{spec}/{n}")
    solver = Solver(rules)
    for _ in range(count):
        assert check_deal(base_position(rng, n, rules, left), solver, tables, rng) > 50


@pytest.mark.parametrize(
    ("spec", "n", "count", "left"),
    PRESET_CASES,
    ids=case_ids(PRESET_CASES, "left"),
)
def test_preset_deep_positions_on_a_kept_table(spec, n, count, left, tables):
    rules = Rules.parse(spec)
    rng = random.Random(f"solver key/{spec}/{n}")
    solver = Solver(rules)
    for _ in range(count):
        check_deal(preset_position(rules, n, rng, (left, left)), solver, tables, rng)


def test_a_whole_hand_under_first_lead_trump_on_a_kept_table(tables):
    """Auction-pitch with the jick (a preset's award) at 2 players from the opening lead:
    each lead fixes trump, so the tree's positions under every trump share each table
    (trump is in the key)."""
    rules = Rules.parse("jick=true")
    rng = random.Random("solver key/whole")
    solver = Solver(rules)
    for _ in range(3):
        pitcher, held, hands, won, leader, trick, trump = random_position(
            rules, 2, rng, (6, 6), mid=False
        )
        st = fm.start_state(rules, pitcher, held, hands, won, trump, leader, trick)
        assert st.trump < 0 and st.first
        check_deal(st, solver, tables, rng, most=4000)


TIE_CASES = [(4, Rules(), 3), (5, Rules(follow="suit"), 2), (6, Rules(), 2), (7, Rules(), 2)]


@pytest.mark.parametrize(("n", "rules", "left"), TIE_CASES)
def test_a_count_that_can_just_tie_through_the_solver(n, rules, left, tables):
    """Seat s can at best tie the pitcher for Game (a tie: nobody's), seat t cannot:
    the position, then the same hands with their captures swapped, on one table kept
    across the two (one deal: sound), each against the minimax.  The searches above
    rarely meet such a pair; a key clearing a count that can just tie (``c + left <=
    p``) gives the second the first's entry."""
    rng = random.Random(f"solver key/tie/{n}/{left}")
    solver = Solver(rules)
    differ = 0
    for _ in range(40):
        pos, s, t = just_tie_position(rng, n, rules, left)
        won = list(pos.won)
        won[s], won[t] = won[t], won[s]
        pair = [pos.state, replace(pos, won=tuple(won)).state]
        memo: dict = {}
        values = [fm.solve(st, memo) for st in pair]
        differ += values[0] != values[1]
        for table in tables:
            for k, (st, value) in enumerate(zip(pair, values, strict=True)):
                table[0, kernel.T_SAME] = k > 0
                assert solver.value(st, table) == value, (n, st, table.shape)
    assert differ >= 3, differ


CAPTURE_CASES = [
    # (rules, players, positions, tricks left)
    ("", 4, 8, 2),
    ("partnership=true", 4, 10, 2),
    ("smear,partnership=true", 4, 8, 2),
    ("", 6, 6, 2),
]


@pytest.mark.parametrize(
    ("spec", "n", "count", "left"),
    CAPTURE_CASES,
    ids=case_ids(CAPTURE_CASES, "left"),
)
def test_the_captures_dealt_again_on_a_kept_table(spec, n, count, left, tables):
    """One trick-boundary position with its captured cards dealt again among the seats
    (the same hands, other Game counts, High, Low or the Jack taken by another side),
    each variant solved in turn on one table kept across them (one deal: sound), each
    against the minimax.  Two lines of play rarely capture the same cards by other
    seats; here every variant meets every other on the table."""
    rules = rules_of(spec)
    rng = random.Random(f"solver key/captures/{spec}/{n}")
    solver = Solver(rules)
    values = set()
    for _ in range(count):
        if not rules.base_game:
            st = preset_position(rules, n, rng, (left, left))
            while st.trick:  # (a boundary: the next preset position)
                st = preset_position(rules, n, rng, (left, left))
        else:
            st = base_position(rng, n, rules, left)
        captured = [c for w in st.won for c in cards_of(w)]
        variants = []
        for _ in range(16):
            won = [0] * n
            for c in captured:
                won[rng.randrange(n)] |= 1 << c
            variants.append(replace(st, won=tuple(won)))
        memo: dict = {}
        want = [fm.solve(v, memo) for v in variants]
        values.update(want)
        for table in tables:
            for k, (v, value) in enumerate(zip(variants, want, strict=True)):
                table[0, kernel.T_SAME] = k > 0
                assert solver.value(v, table) == value, (v, table.shape)
    assert len(values) > 2  # the variants differ in value: the test can fail
