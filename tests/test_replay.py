"""kernels/replay.py: chosen deals of a run played again, or solved with every hand open,
are exactly the run's deals."""

from __future__ import annotations

import numpy as np
import pytest

from pitchsim.game.rules import Rules
from pitchsim.kernels.deal import deal_hands, deck_without
from pitchsim.kernels.replay import replay_deals, solve_deals_with_trump
from pitchsim.kernels.rng import deal_key
from pitchsim.kernels.search.solver import solve_deals
from pitchsim.kernels.simulate import simulate_hands
from pitchsim.search import minimax as reference
from pitchsim.search.double_dummy import solve
from pitchsim.search.position import start_position
from pitchsim.util.stats import paired_difference

TEMPLATE = deck_without(0)
NONE = np.empty(0, np.int64)
VARIANTS = [Rules(), Rules(follow="suit", low="dealt"), Rules(partnership=True)]


def _screen(seed, count, n, rules, policy="heuristic", fixed_trump=-1):
    from pitchsim.games.policies import seat_policies

    flags = np.empty(count, np.int8)
    trump = np.empty(count, np.int8)
    simulate_hands(
        seed,
        0,
        count,
        n,
        0,
        TEMPLATE,
        fixed_trump,
        seat_policies(policy, n),
        rules.to_array(),
        flags,
        trump,
        NONE,
        NONE,
    )
    return flags, trump.astype(np.int64)


def _replay(seed, deals, n, trumps, rules, policy, bid):
    from pitchsim.games.policies import seat_policies

    out = np.empty(deals.size, np.int8)
    replay_deals(
        seed, deals, n, TEMPLATE, trumps, bid, seat_policies(policy, n), rules.to_array(), out
    )
    return out


@pytest.mark.parametrize("rules", VARIANTS, ids=["base", "suit,dealt", "partnership"])
def test_replayed_deals_are_the_runs_deals(rules):
    for n in [4] if rules.partnership else range(2, 8):
        flags, trumps = _screen(11, 400, n, rules)
        picked = np.array([399, 3, 17, 17, 250, 0], np.int64)  # any order, repeats too
        got = _replay(11, picked, n, trumps[picked], rules, "heuristic", 0)
        assert np.array_equal(got, flags[picked]), n


def test_search_play_replays_too():
    rules = Rules()
    flags, _ = _screen(5, 12, 4, rules, "rollout:2", fixed_trump=2)
    deals = np.arange(12, dtype=np.int64)[::-1].copy()
    got = _replay(5, deals, 4, np.full(12, 2, np.int64), rules, "rollout:2", 0)
    assert np.array_equal(got, flags[deals])


def _dealt(seed, d, n):
    dealt = np.empty(n, np.int64)
    deal_hands(np.uint64(deal_key(seed, d)), n, 0, 0, TEMPLATE, np.empty(52, np.int64), dealt)
    return dealt


def _dd(seed, deals, n, trumps, rules):
    out = np.empty(deals.size, np.int64)
    solve_deals_with_trump(seed, deals, n, TEMPLATE, trumps, rules.to_array(), out)
    return out


@pytest.mark.parametrize("rules", VARIANTS[:2], ids=["base", "suit,dealt"])
def test_two_player_values_equal_the_reference_minimax(rules):
    deals = np.arange(6, dtype=np.int64)
    got = [_dd(3, deals, 2, np.full(deals.size, suit, np.int64), rules) for suit in range(4)]
    for d in deals:
        dealt = _dealt(3, int(d), 2)
        leads = reference.card_values(start_position(list(map(int, dealt)), 0, rules))
        for suit in range(4):
            mine = [c for c in leads if c // 13 == suit] or list(leads)  # none held: any lead
            assert got[suit][d] == max(leads[c] for c in mine), (d, suit)


def test_best_trump_is_the_whole_deal_value():
    rules = Rules()
    for n in (3, 4):
        deals = np.arange(20, dtype=np.int64)
        per_suit = np.stack([_dd(8, deals, n, np.full(20, s, np.int64), rules) for s in range(4)])
        dealt = np.stack([_dealt(8, int(d), n) for d in deals])
        free = solve_deals(dealt, np.zeros(20, np.int64), rules.to_array())
        held = np.array(
            [[dealt[i, 0] >> (13 * s) & 0x1FFF != 0 for i in range(20)] for s in range(4)]
        )
        assert np.array_equal(np.where(held, per_suit, -1).max(axis=0), free), n
        # and one suit's value is the best of the kernel's own values of its leads
        i, s = 4, int(np.flatnonzero(held[:, 4])[0])
        cards = solve(start_position(list(map(int, dealt[i])), 0, rules)).cards
        assert per_suit[s, i] == max(v for c, v in cards.items() if c // 13 == s)


def test_paired_difference():
    assert paired_difference(0, 0, 50) == (0.0, 0.0, 0.0)
    d, lo, hi = paired_difference(5, 0, 10)  # x = 1 on half the trials, 0 on the rest
    assert d == 0.5 and hi - d == pytest.approx(1.959963984540054 * 0.5 / 10**0.5)
    d, lo, hi = paired_difference(0, 3, 3)
    assert (d, lo, hi) == (-1.0, -1.0, -1.0)
