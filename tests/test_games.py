"""Whole games: the kernels against the reference engine, deal by deal, and the
settlement and winning rules of RULES.md through the kernels."""

from __future__ import annotations

import random

import numba
import numpy as np
import pytest
from test_kernels import logged_trick

from pitchsim.game.rules import Rules
from pitchsim.games.bidding import KernelDecisions, parse_strategies, seat_arrays
from pitchsim.games.rounds import game_log
from pitchsim.kernels.contract import settle
from pitchsim.kernels.game import (
    L_BID,
    L_DEALER,
    L_MADE,
    L_PITCHED,
    L_PITCHER,
    L_TRUMP,
    MAX_DEALS,
    play_games,
)
from pitchsim.kernels.hand import GAME, HIGH, JACK_POINT, LOW

BASE = Rules()


def kernel_game(seed, game, seats, rules, rows=MAX_DEALS):
    g = game_log(seed, game, seats, rules, rows)
    return g.winner, g.deals, g.scores, g.stats, g.rows, g.layout


def none_if_negative(x):
    return None if x < 0 else int(x)


def check_same_game(seed, game, seats, rules):
    """Both engines, same decisions: same deals, calls, tricks, points, scores, winner."""
    n = len(seats)
    winner, deals, scores, stats, rows, at = kernel_game(seed, game, seats, rules)
    ref = KernelDecisions(seed, game, seats, rules).play()
    assert len(ref.hands) == deals
    assert (ref.winners or [-1]) == [winner]
    assert ref.scores == [int(s) for s in scores]
    pitched = np.zeros((n, 4, 2), dtype=np.int64)
    for h, row in zip(ref.hands, rows, strict=True):
        assert h.dealer == row[L_DEALER]
        assert h.dealt == [int(m) for m in row[at["dealt"] : at["dealt"] + n]]
        union = 0
        for m in h.dealt:
            union |= m
        assert union.bit_count() == 6 * n  # edge case 12: 42 cards at 7 players, 12 at 2
        calls = [int(c) for c in row[at["calls"] : at["calls"] + n]]
        assert [c if c is not None else 0 for c in h.auction.calls] == [max(c, 0) for c in calls]
        assert h.scores == [int(s) for s in row[at["scores"] : at["scores"] + n]]
        if h.play is None:
            assert row[L_PITCHER] == -1
            continue
        pitcher, bid = h.auction.pitcher, h.auction.bid
        assert (pitcher, bid, h.made) == (row[L_PITCHER], row[L_BID], bool(row[L_MADE]))
        assert h.play.trump == row[L_TRUMP]
        assert h.auction.pitched_card == row[L_PITCHED]
        tricks = row[at["tricks"] :].reshape(6, n + 2)
        if row[L_PITCHED] >= 0:  # edge case 4: the pitched card leads and fixes trump
            assert bid == 4 and tricks[0][1] == row[L_PITCHED]
            assert row[L_TRUMP] == row[L_PITCHED] // 13
        assert h.play.tricks == [logged_trick(t, n) for t in tricks]
        s = h.play.score
        award = row[at["award"] : at["award"] + 4]
        assert (s.high, s.low, s.jack, s.game) == tuple(
            none_if_negative(award[i]) for i in (HIGH, LOW, JACK_POINT, GAME)
        )
        pitched[pitcher, bid - 1, 0] += 1
        pitched[pitcher, bid - 1, 1] += h.made
    np.testing.assert_array_equal(stats, pitched)
    return ref


VARIANTS = [
    BASE,
    Rules(low="dealt", min_bid=2),
    Rules(all_pass="redeal", dealer_steal=False),
    Rules(follow="suit", set_pitcher_wins=True, target=11),
    Rules(partnership=True),
    Rules(partnership=True, all_pass="redeal", low="dealt", target=11),
]
STRATEGIES = ["random", "heuristic", "odds", "odds-game", "odds-game+random", "heuristic+random"]


def random_rules(rng: random.Random, players: int) -> Rules:
    """Any combination of RULES.md's variants."""
    return Rules(
        low=rng.choice(["captured", "dealt"]),
        min_bid=rng.choice([1, 2]),
        all_pass=rng.choice(["forced", "redeal"]),
        dealer_steal=rng.random() < 0.5,
        follow=rng.choice(["trump", "suit"]),
        target=rng.choice([7, 11, 15]),
        set_pitcher_wins=rng.random() < 0.5,
        partnership=players == 4 and rng.random() < 0.5,
    )


def test_kernel_games_match_reference():
    """300 games, 2-7 players, random variants and strategies (every bidding and play
    policy), played deal by deal by both engines."""
    rng = random.Random(11)
    won = 0
    for i in range(300):
        players = rng.randint(2, 7)
        rules = VARIANTS[i] if i < len(VARIANTS) else random_rules(rng, players)
        n = 4 if rules.partnership else players
        seats = parse_strategies([rng.choice(STRATEGIES) for _ in range(n)])
        ref = check_same_game(rng.randrange(2**40), rng.randrange(10**6), seats, rules)
        won += bool(ref.winners)
        if not ref.winners:  # random bidders can sink ever deeper below zero
            assert len(ref.hands) == MAX_DEALS
    assert won >= 295


def test_every_bid_and_the_redeal_happen_in_the_cross_check():
    """The random games above reach every branch: all four bids, pitches and redeals."""
    seats = parse_strategies("random") * 3
    rules = Rules(all_pass="redeal")
    bids, redeals = set(), 0
    for game in range(12):
        ref = check_same_game(5, game, seats, rules)
        for h in ref.hands:
            bids.add(h.auction.bid)
            redeals += h.play is None
    assert bids == {0, 1, 2, 3, 4} and redeals > 0


def run_games(seed, start, count, seats, rules):
    n = len(seats)
    a = seat_arrays(seats, rules)
    w = np.empty(count, dtype=np.int64)
    sc = np.empty((count, n), dtype=np.int32)
    dl = np.empty(count, dtype=np.int16)
    st = np.empty((count, n, 4, 2), dtype=np.int16)
    play_games(
        seed, start, count, n, a.bidding, a.play, rules.to_array(), a.odds, a.params, w, sc, dl, st
    )
    return w, sc, dl, st


def test_parallel_games_are_the_logged_games_on_any_threads():
    seats = parse_strategies("odds,heuristic,random,heuristic")
    rules = Rules(all_pass="redeal")
    old = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = run_games(3, 10, 300, seats, rules)
        numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
        two = run_games(3, 10, 300, seats, rules)
    finally:
        numba.set_num_threads(old)
    parts = [run_games(3, 10, 137, seats, rules), run_games(3, 147, 163, seats, rules)]
    for x, y, *split in zip(one, two, *parts, strict=True):
        np.testing.assert_array_equal(x, y)
        np.testing.assert_array_equal(x, np.concatenate(split))
    w, sc, dl, st = one
    for g in (0, 1, 299):
        winner, deals, scores, stats, _, _ = kernel_game(3, 10 + g, seats, rules, rows=0)
        assert (w[g], dl[g]) == (winner, deals)
        np.testing.assert_array_equal(sc[g], scores)
        np.testing.assert_array_equal(st[g], stats)


# ---------------------------------------------------------------- settlement and winning


def settle_kernel(award, pitcher, bid, scores, rules=BASE):
    """Kernel settlement of one hand; ``award`` = seats credited with H, L, J, G."""
    s = np.array(scores, dtype=np.int64)
    a = np.array([x if x is not None else -1 for x in award], dtype=np.int64)
    made, winner = settle(a, len(scores), pitcher, bid, rules.to_array(), s)
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
    w, sc, dl, st = run_games(9, 0, 400, parse_strategies("heuristic") * 5, BASE)
    assert (w >= 0).all()
    assert (sc[np.arange(400), w] >= 7).all()
    made = st[..., 1].sum(axis=(1, 2))
    assert (made >= 1).all()


@pytest.mark.parametrize("n", [2, 7])
def test_two_and_seven_players(n):
    """At the smallest and largest tables: every game of the parallel kernel is the
    logged game (winner, deals, scores, bids), which ends with its winner pitching and
    making the bid at or past the target; a few are replayed by the reference engine."""
    seats = parse_strategies("heuristic") * n
    w, sc, dl, st = run_games(1, 0, 200, seats, BASE)
    assert ((w >= 0) & (w < n)).all()
    for g in range(0, 200, 25):
        winner, deals, scores, stats, rows, at = kernel_game(1, g, seats, BASE)
        assert (w[g], dl[g]) == (winner, deals) and len(rows) == deals
        np.testing.assert_array_equal(sc[g], scores)
        np.testing.assert_array_equal(st[g], stats)
        last = rows[-1]
        assert last[L_PITCHER] == winner and last[L_MADE] == 1 and scores[winner] >= BASE.target
        assert all(
            r[L_PITCHER] == -1 or not r[L_MADE] or r[at["scores"] + r[L_PITCHER]] < 7
            for r in rows[:-1]
        )
    for g in (0, 1, 2):
        assert check_same_game(1, g, seats, BASE).winners == [w[g]]
