"""scripts/bench_solve.py measures the solver it means to: its switches leave the rest of
the table's header row alone (the index mask, the generation), so a timed deal searches
the whole table and a fresh generation as ``pitchsim solve`` does."""

from __future__ import annotations

import numpy as np
import pytest
from script_module import script_module

from pitchsim.game.rules import Rules
from pitchsim.kernels.presets import rules_array
from pitchsim.kernels.search import solver as kernel


@pytest.fixture(scope="module")
def bench():
    return script_module("bench_solve")


@pytest.mark.parametrize("switch", ["relevance", "partition", "dominance", "twochoice"])
def test_a_timed_deal_keeps_the_index_mask_and_starts_a_generation(bench, switch):
    table = kernel.new_table(10)
    mask = table[0, kernel.T_MASK]
    deal = bench.random_deals(np.random.default_rng(3), 3, 2)
    arr = rules_array(Rules())
    for d, hands in enumerate(deal):
        for on in (False, True):
            gen = table[0, kernel.T_GEN]
            bench.timed_solve(hands, arr, table, on, switch)
            assert table[0, kernel.T_MASK] == mask
            assert table[0, kernel.T_GEN] == gen + 1, (d, on)
