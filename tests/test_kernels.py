"""The numba kernels against the plain-Python reference engine, deal by deal."""

import numpy as np
import pytest

from pitchsim.game.cards import FULL_DECK
from pitchsim.game.reference import play_hand
from pitchsim.game.rules import BASE_RULES, Rules
from pitchsim.games.policies import kernel_chooser, seat_policies
from pitchsim.kernels.deal import deal_hands, deck_without
from pitchsim.kernels.hand import GAME, HIGH, JACK_POINT, LOW, points_flags
from pitchsim.kernels.rng import deal_key
from pitchsim.kernels.simulate import play_logged, simulate_hands

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
    trump = play_logged(
        seed,
        deal,
        n,
        fixed_hand,
        template,
        fixed_trump,
        policies,
        rules.to_array(),
        dealt,
        log,
        award,
    )
    tricks = []
    for t in range(6):
        row = log[t * (n + 2) : (t + 1) * (n + 2)]
        tricks.append(logged_trick(row, n))
    return [int(m) for m in dealt], int(trump), tricks, award


def logged_trick(row, n):
    """A kernel's logged trick (leader, n cards, winner) in the reference's shape:
    (leader, seats in play order, cards, winner)."""
    leader = int(row[0])
    seats = [(leader + i) % n for i in range(n)]
    return leader, seats, [int(c) for c in row[1 : n + 1]], int(row[n + 1])


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
            dealt, trump, tricks, award = kernel_deal(
                seed, deal, n, policies, rules, fixed_trump=fixed_trump
            )
        ref = play_hand(
            dealt, 0, kernel_chooser(policies, seed, deal), rules, lead_suit=fixed_trump
        )
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
        simulate_hands(
            seed,
            start,
            count,
            n,
            0,
            deck_without(0),
            -1,
            seat_policies(policy, n),
            rules.to_array(),
            flags,
            trump,
            hand,
            np.empty(0, np.int64),
        )
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


def kernel_hand(dealt, pitcher, bid, policies, rules, key, fixed_trump, first_lead):
    """``play_hand`` + ``score_hand`` on the given hands: (trump, tricks, award, points per
    seat)."""
    from pitchsim.kernels.hand import points_won, score_hand
    from pitchsim.kernels.play import play_hand as kernel_play_hand

    n = len(dealt)
    ra = rules.to_array()
    d = np.array(dealt, dtype=np.int64)
    won = np.empty(n, dtype=np.int64)
    log = np.empty(6 * (n + 2), dtype=np.int64)
    trump = kernel_play_hand(
        d,
        n,
        pitcher,
        bid,
        fixed_trump,
        first_lead,
        policies,
        ra,
        key,
        np.empty(n, np.int64),
        won,
        np.empty(n, np.int64),
        log,
    )
    award = np.empty(4, dtype=np.int64)
    score_hand(d, won, n, trump, ra, award)
    tricks = []
    for t in range(6):
        row = log[t * (n + 2) : (t + 1) * (n + 2)]
        tricks.append(logged_trick(row, n))
    return int(trump), tricks, award, [int(points_won(award, s, ra)) for s in range(n)]


@pytest.mark.parametrize("policy", ["random", "heuristic", "mixed"])
def test_kernel_matches_reference_with_any_pitcher_on_hands_dealt_apart(policy):
    """Hands shuffled here with numpy (not the kernel's dealer), the pitcher in every
    seat, sometimes a pitched 4 or a fixed trump: the same tricks, points credited and
    points per seat (every seat's, not only the pitcher's) in both engines."""
    from pitchsim.kernels.rng import deal_key

    rng = np.random.default_rng(99)
    cases = 0
    for deal in range(160):
        rules = VARIANTS[deal % len(VARIANTS)]
        n = 4 if rules.partnership else int(rng.integers(2, 8))
        names = (
            [("random", "heuristic")[int(b)] for b in rng.integers(0, 2, n)]
            if policy == "mixed"
            else [policy]
        )
        policies = seat_policies(names, n)
        deck = rng.permutation(52)
        dealt = [sum(1 << int(c) for c in deck[6 * s : 6 * s + 6]) for s in range(n)]
        seed = int(rng.integers(0, 2**62))
        for pitcher in range(n):
            bid, fixed_trump, first_lead = int(rng.integers(1, 4)), -1, -1
            style = int(rng.integers(0, 3))
            held = [c for c in range(52) if dealt[pitcher] >> c & 1]
            if style == 1:  # pitched 4: the card leads and fixes trump
                bid, first_lead = 4, int(rng.choice(held))
            elif style == 2:  # trump fixed before play
                fixed_trump = int(rng.choice(held)) // 13
            key = np.uint64(deal_key(seed, deal))
            trump, tricks, award, points = kernel_hand(
                dealt, pitcher, bid, policies, rules, key, fixed_trump, first_lead
            )
            ref = play_hand(
                dealt,
                pitcher,
                kernel_chooser(policies, seed, deal),
                rules,
                bid=bid,
                lead_suit=fixed_trump,
                first_lead=first_lead,
            )
            assert ref.trump == trump and ref.tricks == tricks, (deal, pitcher)
            assert tricks[0][0] == pitcher
            if first_lead >= 0:
                assert tricks[0][2][0] == first_lead
            if fixed_trump >= 0:
                assert trump == fixed_trump
            s = ref.score
            assert (s.high, s.low, s.jack, s.game) == tuple(
                none_if_negative(award[i]) for i in (HIGH, LOW, JACK_POINT, GAME)
            )
            assert s.points == points
            cases += 1
    assert cases > 500


@pytest.mark.parametrize("n", [2, 4, 7])
def test_kernel_deal_has_the_exact_joint_law_of_a_shuffled_deck(n):
    """Two seats' hands are not independent: the spades of seat a and seat b have
    correlation exactly -6/46 (two draws without replacement from one deck).  Dealing
    every seat from one hash would make neighbouring seats' hands alike, which no
    cross-check can see, since both engines play the hands the kernel dealt."""
    deals = 20_000
    dealt = np.empty(n, dtype=np.int64)
    deck = np.empty(52, dtype=np.int64)
    spades = np.empty((deals, n))
    template = deck_without(0)
    for d in range(deals):
        deal_hands(np.uint64(deal_key(23, d)), n, 0, 0, template, deck, dealt)
        spades[d] = np.bitwise_count(dealt >> 39 & 0x1FFF)
    # Each seat: hypergeometric mean 6 x 13/52 = 1.5, variance 6 x 1/4 x 3/4 x 46/51.
    mean_se = np.sqrt(6 * 0.25 * 0.75 * 46 / 51 / deals)
    assert np.all(np.abs(spades.mean(axis=0) - 1.5) < 4.5 * mean_se)
    for a in range(n):
        for b in range(a + 1, n):
            r = np.corrcoef(spades[:, a], spades[:, b])[0, 1]
            assert abs(r + 6 / 46) < 4.5 / np.sqrt(deals), (a, b, r)
