"""Bad input, command by command and option by option: one line on stderr that starts
``pitchsim: error:`` and names the problem, exit code 2, nothing on stdout, never a
traceback, a hang or a silent default."""

from __future__ import annotations

import pytest

from pitchsim.cli import main

HAND = "AH KH 2H 9C 7D 3S"
TOO_BIG_SEED = str(1 << 62)


def run(capsys, argv):
    with pytest.raises(SystemExit) as e:
        main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return e.value.code, out, err


def check(capsys, argv, message):
    code, out, err = run(capsys, argv)
    assert code == 2, (argv, err)
    assert message in err, (argv, err)
    assert err.startswith("pitchsim: error:") and err.count("\n") == 1, err
    assert "Traceback" not in err and out == ""


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    """A small finished run at 3 and 4 players."""
    path = tmp_path_factory.mktemp("bad") / "run"
    with pytest.raises(SystemExit) as e:
        main(["simulate", "--deals", "3000", "--players", "3,4", "--seed", "2", "--out",
              str(path), "--part-size", "1500", "--quiet"])  # fmt: skip
    assert e.value.code == 0
    return path


def toml(tmp_path, text):
    path = tmp_path / "rules.toml"
    path.write_text(text)
    return str(path)


# ---- rules, shared by every command that plays ----------------------------------------

RULES_CASES = [
    ("low=maybe", "low must be 'captured' or 'dealt'"),
    ("colour=red", "unknown rule option 'colour'"),
    ("low", "rule option 'low' needs name=value"),
    ("min-bid=3", "min-bid must be 1 or 2"),
    ("min-bid=two", "min-bid takes a whole number"),
    ("all-pass=never", "all-pass must be 'forced' or 'redeal'"),
    ("dealer-steal=maybe", "dealer-steal takes true or false"),
    ("follow=none", "follow must be 'trump' or 'suit'"),
    ("target=0", "target must be 1-100"),
    ("target=-7", "target must be 1-100"),
    ("set-pitcher-wins=2", "set-pitcher-wins takes true or false"),
    ("partnership=perhaps", "partnership takes true or false"),
]

TOML_CASES = [
    (None, "cannot read rules file"),  # no such file
    ("low = dealt\n", "is not valid TOML"),  # not TOML: a bare word
    ("[rules]\nlow = 'maybe'\n", "low must be 'captured' or 'dealt'"),
    ("[rules]\ncolour = 'red'\n", "unknown rule option 'colour'"),
    ("target = 0\n", "target must be 1-100"),
    ("target = 7.5\n", "target takes a whole number, not 7.5"),
    ("target = 'eleven'\n", "target takes a whole number"),
    ("min-bid = 3\n", "min-bid must be 1 or 2"),
    ("min-bid = true\n", "min-bid takes a whole number, not True"),
    ("dealer-steal = 'maybe'\n", "dealer-steal takes true or false"),
    ("dealer-steal = 2\n", "dealer-steal takes true or false"),
    ("partnership = true\n", "partnership needs exactly 4 players"),  # with --players 3
]


@pytest.mark.parametrize("spec, message", RULES_CASES)
@pytest.mark.parametrize("command", ["bid-odds", "play", "tournament", "simulate"])
def test_rules_option(capsys, tmp_path, command, spec, message):
    argv = {
        "bid-odds": ["bid-odds", HAND],
        "play": ["play"],
        "tournament": ["tournament", "-s", "odds,heuristic", "-g", "5"],
        "simulate": ["simulate", "--deals", "10", "--out", tmp_path / "r", "--quiet"],
    }[command]
    check(capsys, [*argv, "--rules", spec], message)
    assert not (tmp_path / "r").exists()  # nothing was started


@pytest.mark.parametrize("text, message", TOML_CASES)
def test_rules_from_toml_via_bid_odds(capsys, tmp_path, text, message):
    path = str(tmp_path / "missing.toml") if text is None else toml(tmp_path, text)
    check(capsys, ["bid-odds", HAND, "--players", "3", "--rules", path], message)


@pytest.mark.parametrize("text, message", TOML_CASES[2:6])
def test_rules_from_toml_via_the_other_commands(capsys, tmp_path, text, message):
    path = toml(tmp_path, text)
    for argv in (["play", "--players", "3"], ["tournament", "-s", "odds,heuristic", "-g", "5"],
                 ["simulate", "--deals", "10", "--out", tmp_path / "r", "--quiet"]):  # fmt: skip
        check(capsys, [*argv, "--rules", path], message)


# ---- bid-odds -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "options, message",
    [
        (["AH KH 2H 9C 7D ZZ"], "cannot read card 'ZZ'"),
        (["AH KH 2H 9C 7D"], "exactly 6 cards, got 5"),
        (["AH KH 2H 9C 7D 3S 4S"], "exactly 6 cards, got 7"),
        (["AH KH 2H 9C 7D AH"], "duplicate card AH"),
        ([""], "HAND is empty"),
        ([HAND, "--players", "1"], "players must be 2-7, not 1"),
        ([HAND, "--players", "8"], "players must be 2-7, not 8"),
        ([HAND, "--players", "four"], "--players"),
        ([HAND, "--samples", "0"], "samples must be positive"),
        ([HAND, "--samples", "-5"], "samples must be positive"),
        ([HAND, "--samples", "lots"], "--samples"),
        ([HAND, "--seed", "-1"], "seed must be 0-"),
        ([HAND, "--seed", TOO_BIG_SEED], "seed must be 0-"),
        ([HAND, "--seed", "x"], "--seed"),
        ([HAND, "--policy", "smart"], "unknown policy 'smart'"),
        ([HAND, "--trump", "X"], "unknown suit"),
        ([HAND, "--trump", ""], "--trump is empty"),
        (["AH KH 2H 9C 3S 4S", "--trump", "D"], "the hand holds no card of that suit"),
        ([HAND, "--partnership", "--players", "3"], "partnership needs exactly 4 players"),
        ([HAND, "--threads", "0"], "threads must be 1-"),
        ([HAND, "--threads", "99"], "threads must be 1-"),
        ([HAND, "--json", "--bogus"], "No such option"),
    ],
)
def test_bid_odds(capsys, options, message):
    check(capsys, ["bid-odds", *options], message)


# ---- play -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "options, message",
    [
        (["--rounds", "0"], "rounds must be positive"),
        (["--rounds", "-2"], "rounds must be positive"),
        (["--hand", "AH KH 2H 9C 7D"], "exactly 6 cards, got 5"),
        (["--hand", "AH KH 2H 9C 7D QQ"], "cannot read card 'QQ'"),
        (["--hand", "AH KH 2H 9C 7D 7D"], "duplicate card 7D"),
        (["--hand", HAND, "--trump", "S", "--rules", "low=dealt", "--trump", "X"], "unknown suit"),
        (["--hand", "AH KH 2H 9C 3S 4S", "--trump", "D"], "the hand holds no card of that suit"),
        (["--partnership", "--players", "3"], "partnership needs exactly 4 players, not 3"),
        (["--partnership", "--players", "6"], "partnership needs exactly 4 players, not 6"),
        (["--players", "1"], "players must be 2-7"),
        (["--players", "9"], "players must be 2-7"),
        (["--seed", "-1"], "seed must be 0-"),
        (["--seed", TOO_BIG_SEED], "seed must be 0-"),
        (["--policy", "nope"], "unknown policy 'nope'"),
        (["--policy", "heuristic,random"], "one per seat"),
        (["--bidding", "psychic"], "unknown bidding policy 'psychic'"),
        (["--bidding", "odds,heuristic"], "one per seat"),
        (["--bid", "0"], "bid must be 1-4"),
        (["--bid", "5"], "bid must be 1-4"),
        (["--dealer", "-1"], "dealer must be a seat"),
        (["--dealer", "4"], "dealer must be a seat"),
        (["--bid", "2", "--dealer", "1"], "leave out --dealer"),
        (["--board", "3"], "--board needs --game"),
        (["--game", "--board", "-1"], "board must be >= 0"),
        (["--game", "--rounds", "3"], "leave out --rounds"),
        (["--game", "--hand", HAND], "leave out --hand"),
        (["--game", "--trump", "H"], "leave out --trump"),
        (["--game", "--bid", "2"], "leave out --bid"),
        (["--game", "--dealer", "1"], "leave out --dealer"),
        (["--game", "--rounds", "3", "--bid", "2"], "leave out --bid, --rounds"),
    ],
)
def test_play(capsys, options, message):
    check(capsys, ["play", *options], message)


# ---- simulate -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "options, message",
    [
        ([], "--deals is needed"),
        (["--deals", "0"], "deals must be positive"),
        (["--deals", "-5"], "deals must be positive"),
        (["--deals", str(10**13)], "--deals must be at most"),
        (["--deals", "10", "--players", "3,x"], "cannot read player counts"),
        (["--deals", "10", "--players", "8"], "players must be 2-7, not 8"),
        (["--deals", "10", "--players", "1-3"], "cannot read player counts '1-3'"),
        (["--deals", "10", "--players", "3,3"], "repeat a count"),
        (["--deals", "10", "--players", ","], "cannot read player counts ','"),
        (["--deals", "10", "--players", "3,4", "--rules", "partnership=true"],
         "partnership needs exactly 4 players, not 3"),
        (["--deals", "10", "--policy", "clever"], "unknown policy 'clever'"),
        (["--deals", "10", "--policy", "heuristic,random"], "one per seat"),
        (["--deals", "10", "--part-size", "0"], "--part-size must be at least 1,000"),
        (["--deals", "10", "--part-size", "-3"], "--part-size must be at least 1,000"),
        (["--deals", "10", "--part-size", str(1 << 25)], "--part-size must be at most"),
        (["--deals", "10", "--threads", "0"], "threads must be 1-"),
        (["--deals", "10", "--threads", "99"], "threads must be 1-"),
        (["--deals", "10", "--seed", "-1"], "seed must be 0-"),
        (["--deals", "10", "--seed", str(1 << 59)], "seed must be 0-"),
        (["--deals", "10", "--seed", "x"], "--seed"),
    ],
)  # fmt: skip
def test_simulate(capsys, tmp_path, options, message):
    out = tmp_path / "r"
    check(capsys, ["simulate", "--out", out, "--quiet", *options], message)
    assert not (out / "manifest.json").exists()  # nothing was started


@pytest.mark.parametrize(
    "options, message",
    [
        (["--seed", "3"], "was started with --seed 2, not 3"),
        (["--deals", "10"], "was started with --deals 3000, not 10"),
        (["--players", "3"], "was started with --players 3,4, not 3"),
        (["--policy", "random"], "was started with --policy heuristic, not random"),
        (["--part-size", "1000"], "was started with --part-size 1500, not 1000"),
        (["--rules", "low=dealt"], "was started with --rules"),
        (["--rules", "low=maybe"], "low must be"),
        (["--threads", "99"], "threads must be 1-"),
    ],
)
def test_simulate_resume(capsys, made, tmp_path, options, message):
    copy = tmp_path / "copy"
    copy.mkdir()
    for f in made.iterdir():
        (copy / f.name).write_bytes(f.read_bytes())
    (copy / "part-000001.parquet").unlink()
    check(capsys, ["simulate", "--resume", "--out", copy, "--quiet", *options], message)
    assert not (copy / "part-000001.parquet").exists()  # nothing was redone


# ---- table and chart ------------------------------------------------------------------


@pytest.mark.parametrize(
    "options, message",
    [
        (["--players", "5"], "has no 5-player deals (it has 3,4)"),
        (["--players", "x"], "cannot read player counts"),
        (["--by", "colour"], "unknown feature 'colour'"),
        (["--format", "xml"], "--format must be one of"),
        (["--min-count", "0"], "--min-count must be positive"),
        (["--checks", "--players", "6"], "has no 6-player deals"),
    ],
)
def test_table(capsys, made, options, message):
    check(capsys, ["table", made, *options], message)


@pytest.mark.parametrize(
    "options, message",
    [
        (["--kind", "heatmap", "--players", "5"], "has no 5-player deals (it has 3,4)"),
        (["--kind", "heatmap", "--players", "9"], "no 9-player deals"),
        (["--kind", "pie"], "unknown chart kind 'pie'"),
        (["--kind", "players", "--holdings", "A-Z"], "A-Z"),
        (["--kind", "heatmap", "--min-count", "0"], "--min-count must be positive"),
    ],
)
def test_chart(capsys, made, tmp_path, options, message):
    out = tmp_path / "c.png"
    check(capsys, ["chart", made, "--out", out, *options], message)
    assert not out.exists()


def test_chart_file_type(capsys, made, tmp_path):
    check(capsys, ["chart", made, "--kind", "points", "--out", tmp_path / "c.jpg"], ".png or .svg")


@pytest.mark.parametrize("command", ["table", "chart"])
def test_not_a_run(capsys, tmp_path, command):
    extra = ["--kind", "points", "--out", tmp_path / "c.png"] if command == "chart" else []
    check(capsys, [command, tmp_path / "nope", *extra], "does not exist")
    (tmp_path / "empty").mkdir()
    check(capsys, [command, tmp_path / "empty", *extra], "no manifest.json")


# ---- tournament -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "options, message",
    [
        (["-s", "heuristic,smart"], "unknown bidding policy 'smart'"),
        (["-s", "odds+smart,heuristic"], "unknown play policy 'smart'"),
        (["-s", "odds,,heuristic"], "cannot read strategies"),
        (["-s", "odds+heuristic+random,heuristic"], "cannot read strategy"),
        (["-s", "odds,heuristic", "--rules", "nope.toml"], "cannot read rules file"),
        (["-s", "odds"], "at least two strategies"),
        (["-s", "odds,heuristic,random,odds-game,random", "--players", "4"], "do not fit"),
        (["-s", "odds,heuristic,random", "--partnership"], "exactly two"),
        (["-s", "odds,heuristic", "--partnership", "--players", "3"], "exactly 4 players"),
        (["-s", "odds,heuristic", "--players", "1"], "players must be 2-7"),
        (["-s", "odds,heuristic", "--players", "9"], "players must be 2-7"),
        (["-s", "odds,heuristic", "--games", "0"], "games must be positive"),
        (["-s", "odds,heuristic", "--games", "-1"], "games must be positive"),
        (["-s", "odds,heuristic", "--target", "0"], "target must be"),
        (["-s", "odds,heuristic", "--target", "-3"], "target must be"),
        (["-s", "odds,heuristic", "--seed", "-1"], "seed must be 0-"),
        (["-s", "odds,heuristic", "--seed", TOO_BIG_SEED], "seed must be 0-"),
        (["-s", "odds,heuristic", "--threads", "0"], "threads must be 1-"),
        (["-s", "odds,heuristic", "--threads", "99"], "threads must be 1-"),
        ([], "--strategies"),
    ],
)
def test_tournament(capsys, options, message):
    check(capsys, ["tournament", *options], message)


def test_unknown_command(capsys):
    check(capsys, ["no-such-command"], "No such command")
