"""The preset hand kernels' runs (``simulate.hands_kernel``) being the same on
any thread count and cut into any chunks.

(The base game's own kernels are gone: every preset, auction-pitch too, deals and plays
on ``kernels/``: the deal checked in tests/test_one_deal.py, the hands deal by
deal against the reference in tests/test_families_kernels.py and game by game in
tests/test_families_games.py.)"""

import numpy as np
import pytest

from pitchsim.game.rules import Rules
from pitchsim.kernels.presets import rules_array, rules_table
from pitchsim.kernels.simulate import (
    hands_kernel,
    policy_row,
    simulate_base_hands,
    simulate_deals,
)


def run_block(spec, seed, start, count, n, threads=None, policy="heuristic"):
    """(points, flags, trump) of deals ``start .. start+count-1`` of ``seed``, from the
    kernel ``pitchsim simulate`` runs for ``spec`` (``hands_kernel``)."""
    import numba

    r = Rules.parse(spec)
    fr, tab = rules_array(r), rules_table(r)
    old = numba.get_num_threads()
    if threads:
        numba.set_num_threads(threads)
    try:
        out = [np.empty(count, dtype=np.int64) for _ in range(3)]
        hands_kernel(fr)(seed, start, count, n, policy_row(policy, n), fr, tab, *out)
    finally:
        numba.set_num_threads(old)
    return out


@pytest.mark.parametrize(
    "spec, n, kernel",
    [("auction-pitch", 5, simulate_base_hands), ("smear", 4, simulate_deals)],
)
def test_same_seed_same_results_on_any_threads_and_chunks(spec, n, kernel):
    """Deal d draws from its own key (seed, d): one or two threads, one run or two runs
    cut at a deal that is not a block's edge, the same points, flags and trump; another
    seed, other deals.  (The base game's shape and the general kernel.)"""
    picked = hands_kernel(rules_array(Rules.parse(spec)))
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
