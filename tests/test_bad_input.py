"""Bad input, command by command and option by option: one line on stderr that starts
``pitchsim: error:`` and names the problem, exit code 2, nothing on stdout, never a
traceback, a hang or a silent default."""

from __future__ import annotations

import contextlib
import io
import json

import pytest
from clirun import cli, refused

from pitchsim.cli import main

HAND = "AH KH 2H 9C 7D 3S"
TOO_BIG_SEED = str(1 << 62)


def run(capsys, argv):
    return cli(*argv)


def check(capsys, argv, message):
    refused(*argv, words=message)


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    """A small finished run at 3 and 4 players."""
    path = tmp_path_factory.mktemp("bad") / "run"
    with pytest.raises(SystemExit) as e:
        main(
            [
                "simulate",
                "--deals",
                "3000",
                "--players",
                "3,4",
                "--seed",
                "2",
                "--out",
                str(path),
                "--part-size",
                "1500",
                "--quiet",
            ]
        )
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
    for argv in (
        ["play", "--players", "3"],
        ["tournament", "-s", "odds,heuristic", "-g", "5"],
        ["simulate", "--deals", "10", "--out", tmp_path / "r", "--quiet"],
    ):
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
        (["--hand", "AH KH 2H 9C 7D"], "deals 6 cards each at 4 players, not 5"),
        (["--hand", "AH KH 2H 9C 7D QQ"], "cannot read card 'QQ'"),
        (["--hand", "AH KH 2H 9C 7D 7D"], "duplicate card 7D"),
        (["--hand", HAND, "--rules", "low=dealt", "--trump", "X"], "unknown suit"),
        (["--hand", HAND, "--trump", "S", "--trump", "X"], "--trump S and --trump X disagree"),
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
        # --strategies seats each player whole: a --policy or --bidding beside it was ignored
        (["--game", "-s", "random+random", "--bidding", "odds"], "leave out --bidding"),
        (["--game", "-s", "random", "--policy", "heuristic"], "leave out --policy"),
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
        (["--deals", "10", "--players", "1-3"], "players must be 2-7, not 1 (in '1-3')"),
        (["--deals", "10", "--players", "3,3"], "repeat a count"),
        (["--deals", "10", "--players", ","], "cannot read player counts ','"),
        (
            ["--deals", "10", "--players", "3,4", "--rules", "partnership=true"],
            "partnership needs exactly 4 players, not 3",
        ),
        (["--deals", "10", "--policy", "clever"], "random or heuristic policy, not 'clever'"),
        (["--deals", "10", "--policy", "heuristic,random"], "not 'heuristic,random'"),
        (["--deals", "10", "--part-size", "0"], "--part-size must be at least 1,000"),
        (["--deals", "10", "--part-size", "-3"], "--part-size must be at least 1,000"),
        (["--deals", "10", "--part-size", str(1 << 25)], "--part-size must be at most"),
        (["--deals", "10", "--threads", "0"], "threads must be 1-"),
        (["--deals", "10", "--threads", "99"], "threads must be 1-"),
        (["--deals", "10", "--seed", "-1"], "seed must be 0-"),
        (["--deals", "10", "--seed", str(1 << 59)], "seed must be 0-"),
        (["--deals", "10", "--seed", "x"], "--seed"),
    ],
)
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


# ---- issue 21: solve, hint, advise and positions ---------------------------------------


@pytest.fixture(scope="module")
def logged_round():
    """A round as ``play --json`` writes it, with its rules (low=dealt, follow=suit)."""
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf), pytest.raises(SystemExit):
        main(["play", "--json", "--seed", "3", "--rules", "low=dealt,follow=suit"])
    return json.loads(buf.getvalue())


def position_file(tmp_path, doc_or_text):
    path = tmp_path / "position.json"
    text = doc_or_text if isinstance(doc_or_text, str) else json.dumps(doc_or_text)
    path.write_text(text)
    return str(path)


BIG = "9" * 5000


@pytest.mark.parametrize(
    "change, message",
    [
        ({"rules": "/etc/passwd"}, "'/etc/passwd' names a file"),  # never opened
        ({"rules": {"low": "dealt,follow=suit"}}, "low must be 'captured' or 'dealt'"),
        (
            {"rules": {"dealer-steal": "yes"}},
            "dealer-steal takes true or false (or max), not 'yes'",
        ),
        ({"rules": {"target": True}}, "target takes a whole number, not True"),
        ({"rules": None}, "the position does not say its rules"),
        ({"partnership": True}, "the position's partnership=true and its rules"),
    ],
)
def test_position_rules(capsys, tmp_path, logged_round, change, message):
    doc = {**logged_round, **change}
    if change.get("rules", "") is None:
        del doc["rules"]
    for command in ("solve", "hint"):
        check(capsys, [command, position_file(tmp_path, doc)], message)


def test_a_round_without_rules_is_read_under_the_stated_ones(capsys, tmp_path, logged_round):
    doc = {k: v for k, v in logged_round.items() if k != "rules"}
    path = position_file(tmp_path, doc)
    code, out, _ = run(capsys, ["solve", path, "--rules", "low=dealt,follow=suit", "--json"])
    assert code == 0 and json.loads(out)["value"] == logged_round["points_won"][3]
    check(
        capsys,
        ["solve", position_file(tmp_path, logged_round), "--rules", "low=captured"],
        "the position's rules say low=dealt,follow=suit, --rules low=captured,follow=trump",
    )


@pytest.mark.parametrize(
    "ours, stated, said",
    [
        ("smear", "auction-pitch", "smear, --rules auction-pitch"),
        ("setback", "low=dealt", "setback, --rules auction-pitch,low=dealt"),
        ({}, "smear", "auction-pitch, --rules smear"),
    ],
)
def test_a_preset_position_under_the_base_games_rules_names_both(
    capsys, tmp_path, logged_round, ours, stated, said
):
    """The base game's rules and a preset's are described in different words: the
    refusal names the two rule sets (it was a KeyError traceback: smear's "family")."""
    path = position_file(tmp_path, {**logged_round, "rules": ours})
    for command in ("solve", "hint"):
        check(
            capsys, [command, path, "--rules", stated], f"the position's rules say {said}: give one"
        )


@pytest.mark.parametrize(
    "text, message",
    [
        ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
        ('{"players": ' + BIG + "}", "a number of 5,000 digits"),
        ('{"players": 4, "players": 5}', "the key 'players' is given twice"),
        ('{"players": NaN}', "NaN is not a JSON number"),
        ("\xff{}", "not UTF-8"),
    ],
)
def test_position_json(capsys, tmp_path, text, message):
    path = tmp_path / "position.json"
    path.write_bytes(text.encode("latin-1") if "\xff" in text else text.encode())
    for command in ("solve", "hint"):
        check(capsys, [command, str(path)], message)


def test_not_a_file(capsys, tmp_path):
    import os
    import time

    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)  # nobody writes to it: reading it would wait forever
    start = time.monotonic()
    for command in ("solve", "hint"):
        check(capsys, [command, fifo], "is a FIFO (pipe), not a regular file")
        check(capsys, [command, "/dev/zero"], "is a device or other non-file")  # endless
        check(capsys, [command, tmp_path], "is a directory")
    assert time.monotonic() - start < 10


class _Endless(io.RawIOBase):
    """stdin that never ends (``solve - < /dev/zero``)."""

    def readable(self):
        return True

    def readinto(self, b):
        b[:] = bytes(len(b))
        return len(b)


def test_stdin(capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", None)  # the shell closed it: solve - <&-
    check(capsys, ["solve", "-"], "cannot read the position from stdin: stdin is closed")
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BufferedReader(_Endless())))
    check(capsys, ["solve", "-"], "is over 32 MB: refused unread")


def test_stdin_closed_for_real():
    import os
    import subprocess
    import sys

    p = subprocess.run(
        [sys.executable, "-m", "pitchsim", "solve", "-"],
        capture_output=True,
        text=True,
        timeout=120,
        preexec_fn=lambda: os.close(0),
    )
    assert p.returncode == 2 and p.stdout == "", p.stderr
    assert p.stderr == "pitchsim: error: cannot read the position from stdin: stdin is closed\n"


@pytest.mark.parametrize(
    "options, message",
    [
        (["--target", "15", "--rules", "target=11"], "--target 15 and --rules target=11 disagree"),
        (
            ["--partnership", "--rules", "partnership=false"],
            "--partnership and --rules partnership=false disagree",
        ),
        (["--seat", "1"], "--seat 0 and --seat 1 disagree"),  # a flag given twice
        (["--play", "rollout:8"], "advise cannot play rollout:8 (search play)"),
        (["--model", "odds+rollout"], "advise cannot play rollout (search play)"),
        (["--model", "odds+pimc:4"], "advise cannot play pimc:4 (search play)"),
        (
            ["--model", "odds+heuristic", "--play", "random"],
            "--model 'odds+heuristic' and --play 'random' disagree",
        ),
        (["--scores", "9223372036854775806,0,0,0"], "a game score must be -1,000,000 to 1,000,000"),
        (
            ["--scores", "-9223372036854775808,0,0,0"],
            "a game score must be -1,000,000 to 1,000,000",
        ),
        (["--scores", f"{BIG},0,0,0"], "scores are whole numbers"),
        (["--target", "101"], "--target must be at most 100"),
        (["--target", str(1 << 63)], "--target"),
        (["--samples", str(10**7)], "samples must be at most 1,000,000"),
    ],
)
def test_advise(capsys, options, message):
    check(capsys, ["advise", HAND, "--seat", "0", "--dealer", "3", *options], message)


def test_advise_calls(capsys):
    check(
        capsys,
        ["advise", HAND, "--seat", "2", "--dealer", "3", "--calls", "pass,,2"],
        "empty call in 'pass,,2'",
    )


def test_rules_command_conflict(capsys):
    check(
        capsys,
        ["rules", "--partnership", "--rules", "partnership=false"],
        "--partnership and --rules partnership=false disagree: give one",
    )
    check(capsys, ["play", "-n", "3", "--players", "4"], "-n 3 and --players 4 disagree")


@pytest.mark.parametrize(
    "argv",
    [
        ["play", "--hand", "Z" * 1_000_000],
        ["play", "--policy", "Z" * 1_000_000],
        ["play", "--players", "Z" * 1_000_000],
        ["play", "--rules", "low=" + "Z" * 1_000_000],
        ["advise", HAND, "--seat", "0", "--dealer", "3", "--model", "Z" * 1_000_000],
        ["table", "Z" * 100_000],  # the OS's message names the file whole: main's last guard
    ],
)
def test_a_long_token_is_quoted_short(capsys, argv):
    code, out, err = run(capsys, argv)
    assert code == 2 and out == "" and err.count("\n") == 1
    assert len(err) < 250, err
