"""Whole games of the base game (the ``auction-pitch`` preset, RULES.md): the game
kernels the tournaments run (``kernels/game.py``, the base game's shape
compiled in) against the reference engine, deal by deal, over random base-rule variants
and strategies; the parallel kernel against the logged one on any thread count; and the
settlement and winning rules of RULES.md through the kernels."""

from __future__ import annotations

import random

import numba
import numpy as np
import pytest
from test_families_games import MIXES, crosscheck_game, has_odds_table, kernel_game

from pitchsim.game.rules import Rules
from pitchsim.kernels.bidding.calls import N_ROWS
from pitchsim.kernels.contract import settle
from pitchsim.kernels.game import (
    G_BID,
    G_MADE,
    G_PITCHER,
    MAX_CALL,
    games_kernel,
)
from pitchsim.kernels.presets import rules_array, rules_table
from pitchsim.table.boards import odds_bidder_table

BASE = Rules.parse("auction-pitch")


def random_rules(rng: random.Random, players: int) -> Rules:
    """Any combination of RULES.md's variants, as the auction-pitch preset's options."""
    yes_no = ("false", "true")
    options = {
        "low": rng.choice(["captured", "dealt"]),
        "min-bid": rng.choice([1, 2]),
        "all-pass": rng.choice(["forced", "redeal"]),
        "dealer-steal": rng.choice(yes_no),
        "follow": rng.choice(["trump", "suit"]),
        "target": rng.choice([7, 11, 15]),
        "set-pitcher-wins": rng.choice(yes_no),
        "partnership": yes_no[players == 4 and rng.random() < 0.5],
    }
    return Rules.parse("auction-pitch," + ",".join(f"{k}={v}" for k, v in options.items()))


def test_base_games_match_the_reference():
    """120 games, 2-7 players, random base-rule variants and policy mixes (every bidding
    and play policy the kernels have), played deal by deal by both engines
    (``test_families_games.crosscheck_game``: every deal, call, card, award and score)."""
    rng = random.Random(11)
    counts: dict = {}
    for _ in range(120):
        players = rng.randint(2, 7)
        rules = random_rules(rng, players)
        n = 4 if rules.partnership else players
        mix = rng.choice([m for m in MIXES if m != "odds" or has_odds_table(rules, n)])
        crosscheck_game(rules, n, rng.randrange(2**40), rng.randrange(10**6), mix, None, counts)
    assert counts["games"] == 120
    assert counts["made"] > 0 and counts["set"] > 0 and counts["all_pass"] > 0


def run_games(seed, start, count, rules, n, mix="odds"):
    fr, tab = rules_array(rules), rules_table(rules)
    b1, p1, b2, p2 = MIXES[mix]
    bidders = np.array([b1 if s % 2 == 0 else b2 for s in range(n)], np.int64)
    players = np.array([p1 if s % 2 == 0 else p2 for s in range(n)], np.int64)
    odds, defender = (
        odds_bidder_table(rules, n) if mix == "odds" else (np.zeros((N_ROWS + 1, MAX_CALL)), 0.0)
    )
    w = np.empty(count, dtype=np.int64)
    sc = np.empty((count, n), dtype=np.int64)
    dl = np.empty(count, dtype=np.int64)
    st = np.empty((count, n, MAX_CALL, 2), dtype=np.int64)
    games_kernel(fr, bidders, players)(
        seed, start, count, n, bidders, players, fr, tab, odds, defender, w, sc, dl, st
    )
    return w, sc, dl, st


def test_parallel_games_are_the_logged_games_on_any_threads():
    """The same games on one thread or two, in one call or two, and each the game the
    logged kernel plays (winners, deals, scores, bids pitched and made)."""
    rules = Rules.parse("auction-pitch,all-pass=redeal")
    old = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = run_games(3, 10, 300, rules, 4)
        numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
        two = run_games(3, 10, 300, rules, 4)
    finally:
        numba.set_num_threads(old)
    parts = [run_games(3, 10, 137, rules, 4), run_games(3, 147, 163, rules, 4)]
    for x, y, *split in zip(one, two, *parts, strict=True):
        np.testing.assert_array_equal(x, y)
        np.testing.assert_array_equal(x, np.concatenate(split))
    w, sc, dl, st = one
    for g in (0, 1, 299):
        won_by, deals, _, _, scores, stats = kernel_game(rules, 4, 3, 10 + g, "odds")
        assert (w[g], dl[g]) == (won_by, deals)
        np.testing.assert_array_equal(sc[g], scores)
        np.testing.assert_array_equal(st[g], stats)


# ---------------------------------------------------------------- settlement and winning


def settle_kernel(award, pitcher, bid, scores, rules=BASE):
    """Kernel settlement of one hand; ``award`` = seats credited with H, L, J, G."""
    s = np.array(scores, dtype=np.int64)
    a = np.array([x if x is not None else -1 for x in award], dtype=np.int64)
    made, winner = settle(a, len(scores), pitcher, bid, rules_array(rules), s)
    return list(s), bool(made), int(winner)


def test_edge_02_a_stolen_1_the_first_bidder_scores_as_non_pitcher():
    # Seat 0 (dealer) stole at 1 and took High and Low; seat 1 (the first bidder) Game.
    assert settle_kernel([0, 0, None, 1], 0, 1, [0, 0, 0, 0]) == ([2, 1, 0, 0], True, -1)


def test_edge_09_made_and_set():
    assert settle_kernel([0, 1, 2, 0], 0, 3, [0, 0, 0]) == ([-3, 1, 1], False, -1)  # wins 2
    assert settle_kernel([0, 0, 0, 0], 0, 2, [0, 0, 0]) == ([4, 0, 0], True, -1)
    assert settle_kernel([0, None, None, None], 0, 1, [-2, 0, 0])[0] == [-1, 0, 0]


def test_edge_10_only_a_pitcher_who_made_it_wins():
    # Seat 0 reaches 7 as a non-pitcher: no win.
    assert settle_kernel([0, 0, 1, 1], 1, 2, [5, 3, 0]) == ([7, 5, 0], True, -1)
    # Pitcher seat 1 makes it to 7 and wins against seat 0's 9.
    assert settle_kernel([1, 1, 0, 0], 1, 2, [7, 5, 0]) == ([9, 7, 0], True, 1)
    # Set at the target: no win, unless set-pitcher-wins.
    assert settle_kernel([0, 0, 1, None], 1, 2, [0, 9, 0]) == ([2, 7, 0], False, -1)
    wins = Rules(set_pitcher_wins=True)
    assert settle_kernel([0, 0, 1, None], 1, 2, [0, 9, 0], wins) == ([2, 7, 0], False, 1)
    assert settle_kernel([0, 0, 1, None], 1, 2, [0, 8, 0], wins) == ([2, 6, 0], False, -1)


def test_target_variant():
    assert settle_kernel([1, 1, 1, 1], 1, 4, [0, 6, 0], Rules(target=11))[2] == -1
    assert settle_kernel([1, 1, 1, 1], 1, 4, [0, 7, 0], Rules(target=11))[2] == 1


def test_partnership_is_made_or_set_as_one():
    p = Rules(partnership=True)
    # Seat 2 pitched 3; its team took High and Jack only: both partners lose 3.
    assert settle_kernel([0, 1, 2, 3], 2, 3, [1, 1, 1, 1], p) == ([-2, 3, -2, 3], False, -1)
    # Made: both partners score the team's points; the team (0) wins.
    assert settle_kernel([0, 2, 2, 1], 2, 3, [5, 0, 5, 0], p) == ([8, 1, 8, 1], True, 0)


def test_games_end_with_a_made_pitcher_at_the_target():
    """RULES.md 0.10: only a pitcher who makes the bid wins, at or past the target."""
    w, sc, dl, st = run_games(9, 0, 400, BASE, 5, "heuristic")
    seat = np.log2(w).astype(int)  # one winner a game: a side mask of one seat
    assert ((w > 0) & (w & (w - 1) == 0)).all()
    assert (sc[np.arange(400), seat] >= BASE.target).all()
    made = st[..., 1].sum(axis=(1, 2))
    assert (made >= 1).all()


@pytest.mark.parametrize("n", [2, 7])
def test_two_and_seven_players(n):
    """At the smallest and largest tables: every game of the parallel kernel is the
    logged game (winners, deals, scores, bids), which ends with its winner pitching and
    making the bid at or past the target, and no earlier deal took a made pitcher
    there; a few are replayed by the reference engine."""
    w, sc, dl, st = run_games(1, 0, 200, BASE, n, "heuristic")
    assert ((w > 0) & (w < 1 << n)).all()
    for g in range(0, 200, 25):
        won_by, deals, rows, at, scores, stats = kernel_game(BASE, n, 1, g, "heuristic")
        assert (w[g], dl[g]) == (won_by, deals) and len(rows) == deals
        np.testing.assert_array_equal(sc[g], scores)
        np.testing.assert_array_equal(st[g], stats)
        winner = int(np.log2(won_by))
        last = rows[-1]
        assert last[G_PITCHER] == winner and last[G_MADE] == 1 and last[G_BID] >= 1
        assert scores[winner] >= BASE.target
        for r in rows[:-1]:
            p = int(r[G_PITCHER])
            assert p < 0 or not r[G_MADE] or r[at["scores"] + p] < BASE.target
    for g in (0, 1, 2):
        crosscheck_game(BASE, n, 1, g, "heuristic")
