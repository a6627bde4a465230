"""Small things a newcomer meets on the command line: strategies listed by seat,
--boards and its old name, --rules help that names every key, the chart's note on
blank cells, bid-odds JSON with the value of passing."""

import json
import re

from clirun import cli

from pitchsim.game.variants import VARIANTS
from pitchsim.study.batch import simulate


def test_play_lists_strategies_in_seat_order(capsys):
    code, out, _ = cli("play", "--seed", "3", "--bidding", "random,odds,heuristic,odds")
    assert code == 0
    first = out.splitlines()[0]
    assert first.endswith(
        "seat 0 random+heuristic, seat 1 odds+heuristic, "
        "seat 2 heuristic+heuristic, seat 3 odds+heuristic"
    )
    code, out, _ = cli("play", "--seed", "3")
    assert out.splitlines()[0].endswith("·  heuristic+heuristic")


def test_boards_and_its_old_name_are_the_same_option(capsys):
    args = ["tournament", "-s", "heuristic,random", "--seed", "4", "--json"]
    _, by_boards, _ = cli(*args, "--boards", "40")
    _, by_games, _ = cli(*args, "--games", "40")
    assert by_boards == by_games
    doc = json.loads(by_boards)
    assert doc["boards"] == 40 and doc["games"] == 80
    code, out, _ = cli("tournament", "-s", "heuristic,random", "--seed", "4", "--boards", "40")
    assert "each of 40 boards" in out and "80 games" in out


def test_rules_help_names_every_key_and_value(capsys):
    code, out, _ = cli("bid-odds", "--help")
    words = " ".join(out.split()).replace("- ", "-")
    for v in VARIANTS:
        assert f"{v.key}={'|'.join(v.values)}" in words, v.key


def test_chart_says_why_cells_are_blank(capsys, tmp_path):
    simulate(tmp_path / "r", 3000, [4], seed=2)
    code, out, err = cli("chart", tmp_path / "r", "--kind", "bids", "--out", tmp_path / "b.png")
    assert code == 0 and "wrote" in out
    m = re.search(r"note: (\d+) cells have fewer than 2,500 deals", err)
    assert m and int(m.group(1)) > 0 and "--min-count" in err
    code, out, err = cli("chart", tmp_path / "r", "--kind", "points", "--out", tmp_path / "p.png")
    assert code == 0 and err == ""


def test_bid_odds_json_has_passing_and_margins(capsys):
    code, out, _ = cli(
        "bid-odds",
        "AS JS 4S KD 9C 3H",
        "--partnership",
        "--trump",
        "S",
        "--samples",
        "2000",
        "--seed",
        "1",
        "--json",
    )
    doc = json.loads(out)
    assert code == 0 and doc["deals_played"] == 4000
    assert set(doc["by_trump"]) == {"S"} and set(doc["by_trump"]["S"]["expected_margin"]) == {
        "1",
        "2",
        "3",
        "4",
    }
    assert doc["passing"]["samples"] == 2000 and 0 <= doc["passing"]["expected_points"] <= 4
    assert doc["chosen_trump"] == "S"
