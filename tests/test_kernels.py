"""The kernel ``pitchsim simulate`` runs (``sample.columns_kernel``) giving the same
deals on any thread count and cut into any chunks.

(The base game's own kernels are gone: every preset, auction-pitch too, deals and plays
on ``kernels/``: the deal checked in tests/test_one_deal.py, the hands deal by
deal against the reference in tests/test_families_kernels.py and game by game in
tests/test_families_games.py.)"""

import numpy as np
import pytest

from pitchsim.game.rules import Rules
from pitchsim.kernels.presets import rules_array
from pitchsim.kernels.sample import columns_kernel, record_base_columns, record_columns
from pitchsim.kernels.simulate import policy_row
from pitchsim.study.batch import play_deals


def run_block(spec, seed, start, count, n, threads=None, policy="heuristic"):
    """Every column of deals ``start .. start+count-1`` of ``seed`` (and every seat's
    cards and awards), from the kernel ``pitchsim simulate`` runs for ``spec``."""
    r = Rules.parse(spec)
    return play_deals(r, n, seed, start, count, policy_row(policy, n), threads, seats=True)


@pytest.mark.parametrize(
    "spec, n, kernel",
    [("auction-pitch", 5, record_base_columns), ("smear", 4, record_columns)],
)
def test_same_seed_same_results_on_any_threads_and_chunks(spec, n, kernel):
    """Deal d draws from its own key (seed, d): one or two threads, one run or two runs
    cut at a deal that is not a block's edge, the same columns, cards and awards;
    another seed, other deals.  (The base game's shape and the general kernel.)"""
    picked = columns_kernel(rules_array(Rules.parse(spec)))
    assert getattr(picked, "kernel", picked) is kernel  # (any rules: called with base None)
    a = run_block(spec, 11, 0, 20000, n, threads=1)
    b = run_block(spec, 11, 0, 20000, n, threads=2)
    first = run_block(spec, 11, 0, 7000, n)
    rest = run_block(spec, 11, 7000, 13000, n)
    for name, x in a.items():
        np.testing.assert_array_equal(x, b[name], name)
        np.testing.assert_array_equal(x, np.concatenate([first[name], rest[name]]), name)
    c = run_block(spec, 12, 0, 20000, n)
    assert not np.array_equal(a["all_dealt"], c["all_dealt"])
    assert not np.array_equal(a["points"], c["points"])
