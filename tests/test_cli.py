"""The command line: output a person reads, JSON a program reads, bad input -> exit 2."""

import json
import subprocess
import sys

import pytest
from clirun import cli


def test_bid_odds_table(capsys):
    code, out, err = cli(
        "bid-odds",
        "AH KH 2H 9C 7D 3S",
        "--players",
        "5",
        "--samples",
        "5000",
        "--seed",
        "3",
    )
    assert code == 0
    assert "5 players" in out and "seed 3" in out and "5,000 deals" in out
    assert "♥ hearts" in out and "k = 4" in out and "bid 4" in out
    # Every number printed is the library's, in its row and column.
    import re

    from pitchsim.advice.odds import bid_odds
    from pitchsim.game.cards import SUIT_NAMES
    from pitchsim.util.stats import Z95

    r = bid_odds("AH KH 2H 9C 7D 3S", players=5, samples=5000, seed=3)
    lines = out.splitlines()
    start = lines.index(next(x for x in lines if x.startswith("Expected score")))
    for suit, o in r.by_trump.items():
        name = SUIT_NAMES[suit]
        row = next(x for x in lines[:start] if f" {name} " in x)
        cells = [
            tuple(map(float, m)) for m in re.findall(r"([\d.]+)% \(\s*([\d.]+)-\s*([\d.]+)\)", row)
        ]
        assert cells == [
            (
                round(100 * o.p_at_least(k), 1),
                round(100 * o.ci95(k)[0], 1),
                round(100 * o.ci95(k)[1], 1),
            )
            for k in (1, 2, 3, 4)
        ]
        row = next(x for x in lines[start:] if f" {name} " in x)
        assert [float(x) for x in row.split()[2:]] == [
            round(o.expected_score(k), 2) for k in (1, 2, 3, 4)
        ]
    bid, trump, e = r.recommendation
    se = r.by_trump[trump].expected_score_se(bid)
    words = " ".join(out.split())  # the recommendation wraps
    assert (
        f"Recommended: worth bidding up to {bid} with ♥ hearts as trump (bid {bid} still "
        f"expects {e:+.2f} ±{Z95 * se:.2f}, margin {r.by_trump[trump].expected_margin(bid):+.2f}"
    ) in words
    assert "Bidding more than needed never scores more" in words


def test_bid_odds_json_is_clean_and_reproducible(capsys):
    args = ["bid-odds", "Ah,Kh,2h,9c,7d,3s", "--samples", "4000", "--seed", "11", "--json"]
    code, out, _ = cli(*args)
    assert code == 0
    doc = json.loads(out)
    assert doc["seed"] == 11 and doc["samples"] == 4000 and doc["players"] == 4
    assert doc["policy"] == "heuristic"
    assert doc["hand"] == ["AH", "KH", "2H", "9C", "7D", "3S"]
    assert doc["chosen_trump"] == "H"
    from pitchsim.advice.odds import bid_odds

    assert doc == bid_odds("AH KH 2H 9C 7D 3S", samples=4000, seed=11).to_json()
    positive = [
        (k, e)
        for o in doc["by_trump"].values()
        for k, e in ((int(k), e) for k, e in o["expected_score"].items())
        if e > 0
    ]
    assert doc["recommended_bid"] == max(positive)[0] == 3  # the highest bid still positive
    assert doc["recommended_expected_score"] == pytest.approx(max(positive)[1])
    _, again, _ = cli(*args, "--threads", "1")
    assert json.loads(again) == doc


def test_bid_odds_without_seed_reports_the_one_it_picked(capsys):
    code, out, _ = cli(
        "bid-odds", "AH KH 2H 9C 7D 3S", "--samples", "1000", "--trump", "h", "--json"
    )
    doc = json.loads(out)
    assert isinstance(doc["seed"], int)
    assert list(doc["by_trump"]) == ["H"]
    _, again, _ = cli(
        "bid-odds",
        "AH KH 2H 9C 7D 3S",
        "--samples",
        "1000",
        "--trump",
        "h",
        "--json",
        "--seed",
        str(doc["seed"]),
    )
    assert json.loads(again)["by_trump"] == doc["by_trump"]


def test_sanity_every_bid_certain(capsys):
    _, out, _ = cli("bid-odds", "AH KH QH JH TH 9H", "--samples", "2000", "--seed", "1", "--json")
    doc = json.loads(out)
    assert doc["by_trump"]["H"]["p_at_least"] == {"1": 1.0, "2": 1.0, "3": 1.0, "4": 1.0}
    assert doc["recommended_bid"] == 4


# Bad input, option by option: tests/test_bad_input.py


def test_bad_input_from_a_real_process_has_no_traceback():
    p = subprocess.run(
        [sys.executable, "-m", "pitchsim", "bid-odds", "AH KH 2H 9C 7D 7D"],
        capture_output=True,
        text=True,
    )
    assert p.returncode == 2
    assert p.stderr.strip() == "pitchsim: error: duplicate card 7D"
    assert p.stdout == ""


def test_play_json_round(capsys):
    code, out, _ = cli("play", "--seed", "5", "--players", "5", "--json")
    assert code == 0
    doc = json.loads(out)
    for key in (
        "players",
        "pitcher",
        "trump",
        "dealt",
        "tricks",
        "points",
        "game_counts",
        "points_won",
        "change",
    ):
        assert key in doc
    assert doc["players"] == 5 and len(doc["dealt"]) == 5
    assert all(len(h) == 6 for h in doc["dealt"])
    assert len(doc["tricks"]) == 6
    played = [c for t in doc["tricks"] for c in t["cards"]]
    assert sorted(played) == sorted(c for h in doc["dealt"] for c in h)
    assert doc["tricks"][0]["leader"] == doc["pitcher"]
    assert doc["tricks"][0]["cards"][0][-1] == doc["trump"]
    assert set(doc["points"]) == {"high", "low", "jack", "game"}
    assert sum(doc["game_counts"]) == sum(
        {"T": 10, "A": 4, "K": 3, "Q": 2, "J": 1}.get(c[0], 0) for c in played
    )
    # Each seat's count is the cards of the tricks it won (0.8).
    for s in range(5):
        won = [c for t in doc["tricks"] if t["winner"] == s for c in t["cards"]]
        assert doc["game_counts"][s] == sum(
            {"T": 10, "A": 4, "K": 3, "Q": 2, "J": 1}.get(c[0], 0) for c in won
        )


def test_play_rounds_list_and_text(capsys):
    code, out, _ = cli("play", "--seed", "5", "--rounds", "3", "--json")
    assert code == 0 and len(json.loads(out)) == 3
    code, out, _ = cli("play", "--seed", "5", "--hand", "AH KH 2H 9C 7D 3S", "--trump", "H")
    assert code == 0 and "trick 6" in out and "♥" in out
