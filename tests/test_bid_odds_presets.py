"""``bid-odds --compare-policy`` under every preset (the family kernels): the first deals
of each trump suit played again under another play model and paired deal by deal."""

from __future__ import annotations

import json
import math

import pytest
from clirun import cli
from preset_path import AP_PRESET

from pitchsim.advice.odds import bid_odds
from pitchsim.game.rules import Rules
from pitchsim.util.errors import InputError
from pitchsim.util.stats import FEW_SAMPLES, TOO_FEW

PRESETS = {
    "auction-pitch": (Rules(), "AH KH 2H 9C 7D 3S"),
    "setback": (Rules.parse("setback"), "AH KH 2H 9C 7D 3S"),
    "smear": (Rules.parse("smear"), "AH KH 2H JD 7D 3S"),
    "ten-point": (Rules.parse("ten-point"), "AH KH 2H JD 7D 3S HJ 9C 3H"),
}


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
    for bad in (["--compare-policy", "odds"], ["--compare-samples", "100"]):
        code, out, err = cli(*args, *bad)
        assert code == 2 and out == "" and err.count("\n") == 1, err
    with pytest.raises(InputError, match="at most samples"):
        bid_odds("AH KH 2H JD 7D 3S", rules="smear", samples=100, compare_policy="random",
                        compare_samples=200)  # fmt: skip


def test_a_presets_deals_played_counts_its_compare_run_once_per_level():
    # smear: AH KH 2H JD 7D 3S can make hearts (JD is hearts' jick), diamonds or spades
    # trump: 3 suits.  300 deals a suit, 300 for the trump choice, 300 as a defender,
    # and the compare run's 100 first deals once a suit and level (1-5: the search
    # policies are told the bid, so each level is a run of its own).
    seen = []
    r = bid_odds(
        "AH KH 2H JD 7D 3S", rules="smear", samples=300, seed=2, compare_policy="random",
        compare_samples=100, progress=lambda done, total: seen.append((done, total)),
    )  # fmt: skip
    assert sorted(r.by_trump) == [1, 2, 3]
    expected = 3 * 300 + 300 + 300 + 3 * 5 * 100
    assert r.deals_played == expected == sum(d for d, _ in seen) == seen[-1][1]
    assert set(r.compare.by_trump["H"]) == {1, 2, 3, 4, 5}
    doc = r.to_json()
    assert doc["deals_played"] == expected
    assert doc["compare"]["aim"] == "none: heuristic and random play ignore the bid"


def test_a_handful_of_compare_deals_gives_no_interval_under_a_preset():
    r = bid_odds(
        "AH KH 2H JD 7D 3S", rules="smear", samples=50, seed=2, trump="H",
        compare_policy="random", compare_samples=FEW_SAMPLES - 1,
    )  # fmt: skip
    levels = r.to_json()["compare"]["by_trump"]["H"]
    assert [levels[str(k)]["difference_ci95"] for k in range(1, 6)] == [None] * 5
    code, out, err = cli(
        "bid-odds", "AH KH 2H JD 7D 3S", "--rules", "smear", "--samples", "50", "--seed", "2",
        "--trump", "H", "--compare-policy", "random", "--compare-samples", FEW_SAMPLES - 1,
    )  # fmt: skip
    assert code == 0, err
    row = out.split("Under random play")[1].splitlines()[-1]  # the hearts row
    assert row.startswith("♥ hearts") and row.count(TOO_FEW) == 5 and "*" not in row


def test_levels_choose_the_base_games_columns_too():
    args = ["bid-odds", "AH KH 2H 9C 7D 3S", "--samples", "400", "--seed", "5"]
    code, every, err = cli(*args)
    assert code == 0, err
    code, some, err = cli(*args, "--levels", "4,2")
    assert code == 0, err

    # Expected: the full output with columns k = 1 and 3 cut out of its three tables
    # (a 12-character suit column, then 23 characters a chance cell, 9 a score cell).
    def cut(line: str, width: int) -> str:
        cells = [line[12 + width * i : 12 + width * (i + 1)].ljust(width) for i in (1, 3)]
        return (line[:12] + "".join(cells)).rstrip()

    expected, width = [], None
    for line in every.splitlines():
        if not line:
            width = None
        elif width:
            line = cut(line, width)
        elif line.startswith(("Chance", "Expected")):
            width = 23 if line.startswith("Chance") else 9
        expected.append(line)
    assert some == "\n".join(expected) + "\n"
    code, out, err = cli(*args, "--levels", "4,2", "--json")
    assert set(json.loads(out)["by_trump"]["H"]["p_at_least"]) == {"1", "2", "3", "4"}


def _shape(doc):
    """A JSON document's shape: its keys, nested, and each value's JSON type (a level or
    a suit key stands for any)."""
    if isinstance(doc, dict):
        return {("#" if k.isdigit() or k in "CDHS" else k): _shape(v) for k, v in doc.items()}
    if isinstance(doc, list):
        return ["list", *sorted({repr(_shape(v)) for v in doc})]
    return "number" if isinstance(doc, int | float) and not isinstance(doc, bool) else type(doc)


@pytest.mark.parametrize("name", list(PRESETS))
def test_one_json_shape_under_every_preset_levels_included(name):
    # bid-odds --json is one document under every preset, the base game's too: the
    # levels asked for (--levels), the maximum and minimum bid, the rules by name and in
    # full; every level is still in the tables (README, "bid-odds under a rule family").
    rules, hand = PRESETS[name]
    argv = ["bid-odds", hand, "--samples", "200", "--seed", "4", "--trump", "H", "--json"]
    if name != "auction-pitch":
        argv += ["--rules", name]
    code, out, err = cli(*argv, "--levels", "4,2")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["levels"] == [2, 4]
    assert (doc["min_bid"], doc["max_bid"]) == (rules.min_bid, rules.max_bid)
    assert doc["rules"] == name and doc["rules_in_full"] == rules.describe()
    assert list(doc["by_trump"]["H"]["p_at_least"]) == [str(k) for k in range(1, rules.max_bid + 1)]
    # (rules_in_full is each preset's own options, by their names: an object in each)
    doc["rules_in_full"] = other_options = {}
    # the shape is setback's, key for key, type for type (setback: the base game's levels
    # and a preset's rules, so neither side is the one a test might share a bug with)
    setback, setback_hand = PRESETS["setback"]
    code, out, err = cli(
        "bid-odds", setback_hand, "--rules", "setback", "--samples", "200", "--seed", "4",
        "--trump", "H", "--json",
    )  # fmt: skip
    assert code == 0, err
    other = json.loads(out)
    assert other["levels"] == [1, 2, 3, 4] and isinstance(other["rules_in_full"], dict)
    other["rules_in_full"] = other_options
    assert _shape(doc) == _shape(other)


def test_auction_pitch_as_a_preset_agrees_with_the_base_game_under_random_play():
    # The base game and auction-pitch with discards=shown (nothing is discarded, 12.9:
    # the same game, read as other rules): random play is the same game in both, so
    # every number agrees within 4 standard errors.
    hand = "AH KH 2H 9C 7D 3S"
    base = bid_odds(hand, samples=20_000, seed=1, policy="random")
    preset = bid_odds(hand, rules=AP_PRESET, samples=20_000, seed=1, policy="random")
    assert preset.preset and not base.preset and list(preset.by_trump) == list(base.by_trump)

    def close(a, b, se_a, se_b):
        return abs(a - b) <= 4 * math.hypot(se_a, se_b) + 1e-12

    for s, a in base.by_trump.items():
        b = preset.by_trump[s]
        for k in range(1, 5):
            assert close(a.p_at_least(k), b.p_at_least(k), a.se(k), b.se(k)), (s, k)
            assert close(
                a.expected_margin(k), b.expected_margin(k),
                a.expected_margin_se(k), b.expected_margin_se(k),
            ), (s, k)  # fmt: skip
    p, q = base.passing, preset.passing
    assert close(p.expected_points, q.expected_points, p.expected_points_se, q.expected_points_se)
