"""``bid-odds --compare-policy`` under every preset (the family kernels): the first deals
of each trump suit played again under another play model and paired deal by deal."""

from __future__ import annotations

import contextlib
import io
import json

import pytest

from pitchsim.advice.odds import bid_odds
from pitchsim.game.rules import Rules, as_family
from pitchsim.util.errors import InputError

PRESETS = {
    "auction-pitch": (as_family(Rules()), "AH KH 2H 9C 7D 3S"),
    "setback": (Rules.parse("setback"), "AH KH 2H 9C 7D 3S"),
    "smear": (Rules.parse("smear"), "AH KH 2H JD 7D 3S"),
    "ten-point": (Rules.parse("ten-point"), "AH KH 2H JD 7D 3S HJ 9C 3H"),
}


def cli(*argv):
    from pitchsim.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            main([str(a) for a in argv])
            code = 0
        except SystemExit as e:
            code = e.code
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("name", list(PRESETS))
def test_the_same_play_again_moves_nothing_and_another_is_paired(name):
    rules, hand = PRESETS[name]
    same = bid_odds(
        hand, rules=rules, samples=600, seed=3, policy="heuristic", trump="H",
        compare_policy="heuristic",
    )  # fmt: skip
    levels = range(1, rules.max_bid + 1)
    for k in levels:
        m = same.compare.by_trump["H"][k]
        assert m.samples == 600 and m.only_base == m.only_compare == 0 and m.difference == 0
        # the first run's own count on those deals (compare_samples = samples here)
        assert m.base == same.by_trump["H"].p_at_least(k)
    other = bid_odds(
        hand, rules=rules, samples=600, seed=3, policy="heuristic", trump="H",
        compare_policy="random", compare_samples=400,
    )  # fmt: skip
    moved = 0
    for k in levels:
        m = other.compare.by_trump["H"][k]
        assert m.samples == 400
        assert m.base_made - m.only_base == m.compare_made - m.only_compare  # both made
        moved += m.only_base + m.only_compare
    assert moved > 0  # random play loses points heuristic play takes
    # Random play makes some level less often than heuristic play, on the same deals.
    assert min(other.compare.by_trump["H"][k].difference for k in levels) < 0


def test_cli_compare_under_a_preset_and_its_errors():
    args = ["bid-odds", "AH KH 2H JD 7D 3S", "--rules", "smear", "--samples", "500"]
    args += ["--seed", "2", "--trump", "H"]
    code, out, err = cli(*args, "--compare-policy", "random", "--compare-samples", "300")
    assert code == 0, err
    assert "Under random play at every seat: the first 300" in out and "k = 5" in out
    code, out, _ = cli(*args, "--compare-policy", "random", "--json")
    doc = json.loads(out)
    assert doc["compare"]["samples"] == 500 and set(doc["compare"]["by_trump"]["H"]) == {
        "1", "2", "3", "4", "5",
    }  # fmt: skip
    for bad in (["--compare-policy", "pimc"], ["--compare-samples", "100"]):
        code, out, err = cli(*args, *bad)
        assert code == 2 and out == "" and err.count("\n") == 1, err
    with pytest.raises(InputError, match="at most samples"):
        bid_odds("AH KH 2H JD 7D 3S", rules="smear", samples=100, compare_policy="random",
                        compare_samples=200)  # fmt: skip
