"""The numba kernels against the plain-Python reference engine, deal by deal."""

import numpy as np
import pytest

from pitchsim.cards import FULL_DECK
from pitchsim.kernels.deal import deal_hands, deck_without
from pitchsim.kernels.hand import GAME, HIGH, JACK_POINT, LOW, points_flags
from pitchsim.kernels.rng import deal_key
from pitchsim.kernels.simulate import play_logged, simulate_hands
from pitchsim.options import BASE_RULES, Rules
from pitchsim.policies import kernel_chooser, seat_policies
from pitchsim.reference import play_hand

VARIANTS = [
    Rules(),
    Rules(low="dealt"),
    Rules(follow="suit"),
    Rules(partnership=True),
    Rules(low="dealt", follow="suit", partnership=True),
]


def kernel_deal(seed, deal, n, policies, rules, fixed_hand=0, fixed_trump=-1):
    dealt = np.empty(n, dtype=np.int64)
    log = np.empty(6 * (n + 2), dtype=np.int64)
    award = np.empty(4, dtype=np.int64)
    template = deck_without(fixed_hand)
    trump = play_logged(seed, deal, n, fixed_hand, template, fixed_trump, policies,
                        rules.to_array(), dealt, log, award)  # fmt: skip
    tricks = []
    for t in range(6):
        row = log[t * (n + 2) : (t + 1) * (n + 2)]
        tricks.append((int(row[0]), [int(c) for c in row[1 : n + 1]], int(row[n + 1])))
    return [int(m) for m in dealt], int(trump), tricks, award


def none_if_negative(x):
    return None if x < 0 else int(x)


@pytest.mark.parametrize("policy", ["random", "heuristic", "mixed"])
def test_kernel_matches_reference_on_random_deals(policy):
    """Same decisions -> same tricks, winners, trump and points, on 1500 deals each."""
    rng = np.random.default_rng(2024)
    checked = 0
    for deal in range(1500):
        rules = VARIANTS[deal % len(VARIANTS)]
        n = 4 if rules.partnership else int(rng.integers(2, 8))
        if policy == "mixed":
            names = [("random", "heuristic")[int(b)] for b in rng.integers(0, 2, n)]
        else:
            names = [policy]
        policies = seat_policies(names, n)
        fixed_trump = int(rng.integers(-1, 4))
        seed = int(rng.integers(0, 2**62))
        dealt, trump, tricks, award = kernel_deal(seed, deal, n, policies, rules)
        if fixed_trump >= 0 and not dealt[0] >> (13 * fixed_trump) & 0x1FFF:
            fixed_trump = -1
        if fixed_trump >= 0:
            dealt, trump, tricks, award = kernel_deal(seed, deal, n, policies, rules,
                                                      fixed_trump=fixed_trump)  # fmt: skip
        ref = play_hand(dealt, 0, kernel_chooser(policies, seed, deal), rules,
                        fixed_trump=fixed_trump)  # fmt: skip
        assert ref.trump == trump
        assert ref.tricks == tricks
        s = ref.score
        assert (s.high, s.low, s.jack, s.game) == tuple(
            none_if_negative(award[i]) for i in (HIGH, LOW, JACK_POINT, GAME)
        )
        flags = points_flags(award, 0, rules.to_array())
        assert bin(flags).count("1") == s.points[0]
        checked += 1
    assert checked == 1500


def test_deal_is_a_uniform_partition():
    """Every seat gets six distinct cards; a fixed hand is kept and never dealt again."""
    n = 7
    dealt = np.empty(n, dtype=np.int64)
    deck = np.empty(52, dtype=np.int64)
    fixed = (1 << 0) | (1 << 13) | (1 << 26) | (1 << 39) | (1 << 51) | (1 << 12)
    template = deck_without(fixed)
    counts = np.zeros(52)
    deals = 20000
    for d in range(deals):
        deal_hands(np.uint64(deal_key(7, d)), n, 0, fixed, template, deck, dealt)
        union = 0
        for m in dealt:
            m = int(m)
            assert m.bit_count() == 6 and union & m == 0
            union |= m
        assert int(dealt[0]) == fixed
        others = union & ~fixed & FULL_DECK
        for c in range(52):
            counts[c] += others >> c & 1
    # Each unseen card is dealt to one of 6 others with probability 36/46.
    p = 36 / 46
    unseen = [c for c in range(52) if not fixed >> c & 1]
    se = np.sqrt(p * (1 - p) / deals)
    assert np.all(np.abs(counts[unseen] / deals - p) < 4.5 * se)
    assert np.all(counts[[c for c in range(52) if fixed >> c & 1]] == 0)


def run_block(seed, start, count, n, threads=None, policy="heuristic", rules=BASE_RULES):
    import numba

    old = numba.get_num_threads()
    if threads:
        numba.set_num_threads(threads)
    try:
        flags = np.empty(count, dtype=np.int8)
        trump = np.empty(count, dtype=np.int8)
        hand = np.empty(count, dtype=np.int64)
        simulate_hands(seed, start, count, n, 0, deck_without(0), -1,
                       seat_policies(policy, n), rules.to_array(), flags, trump, hand,
                       np.empty(0, np.int64))  # fmt: skip
    finally:
        numba.set_num_threads(old)
    return flags, trump, hand


def test_same_seed_same_results_on_any_threads_and_chunks():
    a = run_block(11, 0, 20000, 5, threads=1)
    b = run_block(11, 0, 20000, 5, threads=2)
    first = run_block(11, 0, 7000, 5)
    rest = run_block(11, 7000, 13000, 5)
    for x, y, f, r in zip(a, b, first, rest, strict=True):
        np.testing.assert_array_equal(x, y)
        np.testing.assert_array_equal(x, np.concatenate([f, r]))
    c = run_block(12, 0, 20000, 5)
    assert not np.array_equal(a[2], c[2])


def test_batch_kernel_agrees_with_logged_kernel():
    rules = Rules(partnership=True)
    flags, trump, hand = run_block(5, 100, 200, 4, rules=rules)
    pol = seat_policies("heuristic", 4)
    for i in range(200):
        dealt, tr, _, award = kernel_deal(5, 100 + i, 4, pol, rules)
        assert dealt[0] == hand[i] and tr == trump[i]
        assert points_flags(award, 0, rules.to_array()) == flags[i]
