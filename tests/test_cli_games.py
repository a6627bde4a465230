"""``pitchsim tournament`` and the auction in ``pitchsim play``, from the command line."""

from __future__ import annotations

import json

import pytest
from clirun import cli


def test_tournament_text_says_it_was_duplicate(capsys):
    code, out, err = cli(
        "tournament", "--strategies", "odds,heuristic", "--games", "200", "--seed", "3"
    )
    assert code == 0 and "error" not in err  # (a progress bar may show on a slow machine)
    assert "Duplicate" in out and "rotation 2" in out and "400 games" in out
    assert "odds+heuristic" in out and "heuristic+heuristic" in out
    assert "95% interval" in out and "bid 4" in out and "Fair share of the wins: 50.0%" in out


def test_tournament_json(capsys):
    code, out, _ = cli(
        "tournament",
        "-s",
        "heuristic+random,random",
        "-g",
        "50",
        "--seed",
        "1",
        "--partnership",
        "--target",
        "11",
        "--rules",
        "low=dealt",
        "--json",
    )
    assert code == 0
    doc = json.loads(out)
    assert doc["duplicate"] and doc["partnership"] and doc["target"] == 11
    assert doc["rules"]["low"] == "dealt" and doc["games"] == 100
    assert [r["strategy"] for r in doc["results"]] == ["heuristic+random", "random+random"]
    for r in doc["results"]:
        assert {"win_rate", "ci95", "mean_final_score", "bids_made", "bids_set", "by_bid"} <= set(r)


def test_tournament_progress_bar_on_stderr(capsys, monkeypatch):
    monkeypatch.setattr("pitchsim.cli.progress.SHOW_AFTER", 0.0)
    code, out, err = cli(
        "tournament", "-s", "heuristic,random", "-g", "20000", "--seed", "1", "--json"
    )
    assert code == 0 and "games" in err
    # stdout stays clean: exactly the library's result
    from pitchsim.table.tournament import tournament

    assert json.loads(out) == tournament("heuristic,random", games=20000, seed=1).to_json()


def test_play_shows_the_auction(capsys):
    code, out, _ = cli("play", "--seed", "5", "--players", "5", "--json")
    assert code == 0
    doc = json.loads(out)
    calls = doc["calls"]
    assert doc["dealer"] == 4 and [c["seat"] for c in calls] == list(range(len(calls)))
    assert calls[doc["pitcher"]]["call"] == str(doc["bid"])  # dealer 4: seat i calls i-th
    assert all(c["call"] in ("pass", "1", "2", "3", "4") for c in calls)
    # Each bid beats the one before (the dealer, last, may steal at equal: 1.4).
    rising = [int(c["call"]) for c in calls[:-1] if c["call"] != "pass"]
    assert rising == sorted(set(rising))
    code, out, _ = cli("play", "--seed", "5", "--players", "5")
    assert "Auction: seat 0" in out and "dealer" in out


def test_play_fixed_bid_keeps_seat_0_pitching(capsys):
    code, out, _ = cli("play", "--seed", "2", "--bid", "3", "--rounds", "3", "--json")
    docs = json.loads(out)
    for d in docs:
        calls = [(c["seat"], c["call"]) for c in d["calls"]]
        assert (d["pitcher"], d["bid"], d["dealer"]) == (0, 3, 3)
        assert calls == [(0, "3"), (1, "pass"), (2, "pass"), (3, "pass")]
        assert d["tricks"][0]["leader"] == 0


def test_play_rounds_pass_the_deal_and_pitch_4s(capsys):
    code, out, _ = cli("play", "--seed", "1", "--bidding", "random", "--rounds", "30", "--json")
    docs = json.loads(out)
    assert [d["dealer"] for d in docs[:5]] == [3, 0, 1, 2, 3]
    fours = [d for d in docs if d["bid"] == 4]
    assert fours
    for d in fours:
        # The pitcher leads trump (2.2), and a 4 ends the auction at once (1.4).
        assert d["tricks"][0]["leader"] == d["pitcher"]
        assert d["tricks"][0]["cards"][0][-1] == d["trump"]
        assert [c["call"] for c in d["calls"]][-1] == "4"
        assert d["calls"][-1]["seat"] == d["pitcher"]


def test_play_all_pass_under_redeal(capsys):
    code, out, _ = cli(
        "play",
        "--seed",
        "1",
        "--rounds",
        "40",
        "--rules",
        "all-pass=redeal,min-bid=2",
        "--json",
    )
    thrown = [d for d in json.loads(out) if d["pitcher"] is None]
    assert thrown
    for d in thrown:
        assert [c["call"] for c in d["calls"]] == ["pass"] * 4 and d["tricks"] == []


@pytest.mark.parametrize(
    "rules", ["all-pass=redeal,min-bid=2", "setback,all-pass=redeal", "smear,all-pass=redeal"]
)
def test_play_rounds_redeal_keeps_the_dealer(capsys, rules):
    """docs/rules.md, all-pass=redeal (VARIANTS 0.1, 4.5): a hand everyone passed is
    dealt again by the same dealer; every other hand passes the deal to the left.  (A
    hand all four setback bidders pass is rare: seed 1's first is its 64th.)"""
    code, out, _ = cli("play", "--seed", "1", "--rounds", "80", "--rules", rules, "--json")
    hands = json.loads(out)
    assert code == 0 and any(h["pitcher"] is None for h in hands)
    assert hands[0]["dealer"] == 3
    for before, after in zip(hands, hands[1:], strict=False):
        stays = before["pitcher"] is None
        assert after["dealer"] == (before["dealer"] + (0 if stays else 1)) % 4


# Bad input, option by option: tests/test_bad_input.py


def test_tournament_rules_from_a_toml_file(capsys, tmp_path):
    path = tmp_path / "club.toml"
    path.write_text('[rules]\nlow = "dealt"\nmin-bid = 2\ntarget = 11\npartnership = true\n')
    code, out, _ = cli(
        "tournament",
        "-s",
        "odds,heuristic",
        "-g",
        "30",
        "--seed",
        "1",
        "--rules",
        str(path),
        "--json",
    )
    doc = json.loads(out)
    assert code == 0 and doc["partnership"] and doc["target"] == 11
    assert doc["rules"]["low"] == "dealt" and doc["rules"]["min-bid"] == 2
    for r in doc["results"]:
        assert r["by_bid"]["1"]["pitched"] == 0  # nobody may bid 1


# ---- play --game ------------------------------------------------------------------------


def game_json(capsys, *argv):
    code, out, _ = cli("play", "--game", "--json", *argv)
    assert code == 0
    return json.loads(out)


@pytest.mark.parametrize("seed, board", [(1, 0), (2, 5), (3, 11)])
def test_play_game_runs_to_a_winner_and_adds_up(capsys, seed, board):
    doc = game_json(capsys, "--seed", str(seed), "--board", str(board), "--bidding", "odds")
    hands, n = doc["hands"], 4
    assert hands[0]["dealer"] == board % n  # game g starts with seat g mod n dealing
    scores = [0] * n
    for i, h in enumerate(hands):
        scores = [a + b for a, b in zip(scores, h["round_points"], strict=True)]
        assert h["scores_after"] == scores
        if i + 1 < len(hands):  # only a pitcher who makes his bid can win, not a defender
            assert h["pitcher"] is None or not h["made"] or scores[h["pitcher"]] < doc["target"]
    last = hands[-1]
    assert doc["winner"] == last["pitcher"] and last["made"]
    assert doc["final_scores"] == scores and scores[doc["winner"]] >= doc["target"]


def test_play_game_is_the_tournaments_game(capsys, tmp_path):
    """``play --game --board B`` is board B of a tournament with the same seed and seats
    (its help says so): the very record ``tournament --record`` writes for that board
    in the rotation that seats these strategies so."""
    argv = ["--seed", "9", "--players", "3", "--rules", "target=11"]
    doc = game_json(capsys, *argv, "--board", "4", "--bidding", "odds,heuristic,random")
    assert doc["strategies"] == ["odds+heuristic", "heuristic+heuristic", "random+heuristic"]
    code, _, _ = cli(
        "tournament", *argv, "-s", ",".join(doc["strategies"]), "--boards", "5",
        "--record", str(tmp_path),
    )  # fmt: skip
    assert code == 0
    record = json.loads((tmp_path / "board-000004-rotation-0.json").read_text())
    assert record == doc
    assert doc["winner"] is not None and len(doc["hands"]) >= 2


def test_play_game_text_and_partnership(capsys):
    code, out, err = cli("play", "--game", "--seed", "4", "--partnership")
    assert code == 0 and err == ""
    assert out.startswith(
        "Game 0 of seed 4  ·  auction-pitch,partnership=true  ·  4 players, partnership  ·  to 7"
    )
    hands = out.count("\nHand ")
    assert hands >= 1 and out.count("Scores: seat 0:") == hands
    doc = game_json(capsys, "--seed", "4", "--partnership")
    assert len(doc["hands"]) == hands and doc["partnership"] and doc["winner"] in (0, 1)
    team = doc["winner"]
    assert f"Team {team} (seats {team} and {team + 2}) wins with" in out
    assert doc["final_scores"][team] == doc["final_scores"][team + 2] >= 7
