"""``bid-odds --compare-policy``: the first deals played again under another play model,
once per bid level, paired with the run's own numbers on the same deals."""

from __future__ import annotations

import json

import numpy as np
import pytest

from pitchsim import bid_odds
from pitchsim.cli import main
from pitchsim.game.cards import mask_of, parse_hand, parse_suit
from pitchsim.game.rules import BIDS, Rules
from pitchsim.kernels.fixed_hand import PITCHER, fixed_kernel
from pitchsim.kernels.presets import rules_array, rules_table
from pitchsim.table.boards import kernel_play_array
from pitchsim.table.policies import seat_policies

HAND = "AH KH 2H 9C 7D 3S"
CHEAP = "rollout:2"  # a real search policy, at the cheapest W


def _points(seed, count, n, trump, policy, bid):
    """The pitcher's points deal by deal, straight from the kernel bid-odds runs."""
    rules = Rules()
    fr, tab = rules_array(rules), rules_table(rules)
    ours, every, trumps = (np.empty(count, np.int64) for _ in range(3))
    ids = kernel_play_array([int(i) for i in seat_policies(policy, n)])
    fixed_kernel(fr, ids)(
        seed, 0, count, n, PITCHER, np.int64(mask_of(parse_hand(HAND))), parse_suit(trump),
        bid, ids, fr, tab, ours, every, trumps,
    )  # fmt: skip
    return ours


def test_the_same_policy_moves_nothing_and_base_is_the_first_deals():
    r = bid_odds(HAND, samples=600, seed=5, compare_policy="heuristic", compare_samples=250)
    first = _points(5, 250, 4, "H", "heuristic", 0)
    assert len(r.compare.by_trump) == 4  # every suit the hand holds
    for by in r.compare.by_trump.values():
        for m in by.values():
            assert m.samples == 250
            assert m.compare_made == m.base_made and m.only_base == m.only_compare == 0
            assert m.difference == 0 and m.difference_ci95() == (0.0, 0.0)
    hearts = r.compare.by_trump["H"]
    assert [hearts[k].base_made for k in BIDS] == [int((first >= k).sum()) for k in BIDS]


def test_the_compare_run_is_the_kernel_aiming_at_each_level():
    r = bid_odds(HAND, samples=120, seed=9, trump="H", compare_policy=CHEAP, compare_samples=40)
    base = _points(9, 40, 4, "H", "heuristic", 0)
    for k in BIDS:
        direct = _points(9, 40, 4, "H", CHEAP, k) >= k
        m = r.compare.by_trump["H"][k]
        assert m.compare_made == int(direct.sum())
        assert m.only_compare == int((direct & (base < k)).sum())
        assert m.only_base == int(((base >= k) & ~direct).sum())


def test_the_search_pitcher_aims_at_the_level_it_is_asked_about():
    # Aiming at k is not the same play as aiming at the most points: some deal differs.
    at_zero = _points(9, 40, 4, "H", CHEAP, 0)
    assert any(not np.array_equal(_points(9, 40, 4, "H", CHEAP, k), at_zero) for k in BIDS)


def test_same_seed_same_compare_on_any_thread_count():
    a = bid_odds(
        HAND, samples=60, seed=3, trump="H", compare_policy=CHEAP, compare_samples=30, threads=1
    )
    b = bid_odds(
        HAND, samples=60, seed=3, trump="H", compare_policy=CHEAP, compare_samples=30, threads=2
    )
    assert a.to_json()["compare"] == b.to_json()["compare"]


def test_frame_json_and_text_carry_it(capsys):
    r = bid_odds(HAND, samples=100, seed=2, trump="H", compare_policy=CHEAP, compare_samples=30)
    frame = r.to_frame()
    assert {"p_make_paired", "p_make_compare", "compare_diff", "compare_diff_lo"} <= set(frame)
    row = frame[frame.bid == 3].iloc[0]
    m = r.compare.by_trump["H"][3]
    assert row.p_make_compare == m.compare and row.compare_diff == m.difference
    doc = r.to_json()["compare"]
    assert doc["policy"] == CHEAP and doc["samples"] == 30 and doc["seats"] == "every seat"
    assert doc["by_trump"]["H"]["3"]["difference"] == m.difference
    assert r.deals_played == 100 + 100 + 30 * len(BIDS)

    with pytest.raises(SystemExit) as e:
        main(
            [
                "bid-odds",
                HAND,
                "--samples",
                "100",
                "--seed",
                "2",
                "--trump",
                "H",
                "--compare-policy",
                CHEAP,
                "--compare-samples",
                "30",
            ]
        )
    assert e.value.code == 0
    out = capsys.readouterr().out
    assert f"Under {CHEAP} play at every seat: the first 30 of these deals" in out
    assert "to make k and the defenders to set it" in out
    line = next(x for x in out.splitlines() if x.startswith("♥ hearts") and "→" in x)
    assert f"{100 * m.base:4.1f}→{100 * m.compare:4.1f}" in line

    with pytest.raises(SystemExit):
        main(
            [
                "bid-odds",
                HAND,
                "--samples",
                "100",
                "--seed",
                "2",
                "--trump",
                "H",
                "--json",
                "--compare-policy",
                CHEAP,
                "--compare-samples",
                "30",
            ]
        )
    assert json.loads(capsys.readouterr().out)["compare"] == json.loads(json.dumps(doc))


def test_without_the_option_nothing_changes():
    r = bid_odds(HAND, samples=200, seed=4, trump="H")
    assert r.compare is None and r.to_json()["compare"] is None
    assert "compare_diff" not in r.to_frame()


def test_per_seat_lists_say_which_seat_searches():
    r = bid_odds(
        HAND,
        samples=40,
        seed=1,
        trump="H",
        compare_samples=20,
        compare_policy="rollout:2,heuristic,heuristic,heuristic",
    )
    assert r.compare.seats.endswith("rollout:2, heuristic, heuristic, heuristic")


@pytest.mark.parametrize(
    "extra, message",
    [
        (["--compare-policy", "minimax"], "unknown policy 'minimax'"),
        (["--compare-policy", "rollout:0"], "worlds in 'rollout:0' must be"),
        (["--compare-policy", "rollout,heuristic"], "give one policy for every seat"),
        (
            ["--compare-policy", "rollout", "--compare-samples", "0"],
            "--compare-samples must be positive",
        ),
        (
            ["--compare-policy", "rollout", "--compare-samples", "501"],
            "cannot exceed --samples (500)",
        ),
        (["--compare-samples", "100"], "--compare-samples needs --compare-policy"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(capsys, extra, message):
    with pytest.raises(SystemExit) as e:
        main(["bid-odds", HAND, "--samples", "500", "--seed", "1", *extra])
    out, err = capsys.readouterr()
    assert e.value.code == 2 and out == ""
    assert err.startswith("pitchsim: error:") and err.count("\n") == 1 and message in err, err


def test_library_checks_too():
    from pitchsim.util.errors import InputError

    with pytest.raises(InputError, match="compare samples need a compare policy"):
        bid_odds(HAND, samples=100, compare_samples=10)
    with pytest.raises(InputError, match=r"must be at most samples \(100\)"):
        bid_odds(HAND, samples=100, compare_policy="heuristic", compare_samples=101)
