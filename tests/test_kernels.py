"""The base kernels' dealer (``kernels.deal``, which the preset kernels deal through) and
the preset hand kernels' runs (``families.simulate.hands_kernel``) being the same on any
thread count and cut into any chunks.

(The base game's own hand loop and its cross-check against the reference engine are
gone: every preset, auction-pitch too, plays on ``kernels/families/``, checked deal by
deal against the reference in tests/test_families_kernels.py and game by game in
tests/test_families_games.py.)"""

import numpy as np
import pytest

from pitchsim.game.cards import FULL_DECK
from pitchsim.game.rules import Rules, as_family
from pitchsim.kernels.deal import deal_hands, deck_without
from pitchsim.kernels.families.simulate import (
    family_policies,
    hands_kernel,
    simulate_base_hands,
    simulate_family_hands,
)
from pitchsim.kernels.families.tables import family_array, family_tables
from pitchsim.kernels.rng import deal_key


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


def run_block(spec, seed, start, count, n, threads=None, policy="heuristic"):
    """(points, flags, trump) of deals ``start .. start+count-1`` of ``seed``, from the
    kernel ``pitchsim simulate`` runs for ``spec`` (``hands_kernel``)."""
    import numba

    r = as_family(Rules.parse(spec))
    fr, tab = family_array(r), family_tables(r)
    old = numba.get_num_threads()
    if threads:
        numba.set_num_threads(threads)
    try:
        out = [np.empty(count, dtype=np.int64) for _ in range(3)]
        hands_kernel(fr)(seed, start, count, n, family_policies(policy, n), fr, tab, *out)
    finally:
        numba.set_num_threads(old)
    return out


@pytest.mark.parametrize(
    "spec, n, kernel",
    [("auction-pitch", 5, simulate_base_hands), ("smear", 4, simulate_family_hands)],
)
def test_same_seed_same_results_on_any_threads_and_chunks(spec, n, kernel):
    """Deal d draws from its own key (seed, d): one or two threads, one run or two runs
    cut at a deal that is not a block's edge, the same points, flags and trump; another
    seed, other deals.  (The base game's shape and the general kernel.)"""
    picked = hands_kernel(family_array(as_family(Rules.parse(spec))))
    assert getattr(picked, "kernel", picked) is kernel  # (any rules: called with base None)
    a = run_block(spec, 11, 0, 20000, n, threads=1)
    b = run_block(spec, 11, 0, 20000, n, threads=2)
    first = run_block(spec, 11, 0, 7000, n)
    rest = run_block(spec, 11, 7000, 13000, n)
    for x, y, f, r in zip(a, b, first, rest, strict=True):
        np.testing.assert_array_equal(x, y)
        np.testing.assert_array_equal(x, np.concatenate([f, r]))
    c = run_block(spec, 12, 0, 20000, n)
    assert not np.array_equal(a[1], c[1])


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
