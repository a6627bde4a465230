"""``pitchsim cache warm``: compiles the kernels of the commands a player meets, every
preset, in processes side by side (what ``scripts/dev.py`` runs at set-up).

Its runs are replaced here by two small ones (the real list compiles for minutes on a
cold cache; CI runs it whole before the suite, and a run that fails there is named and
fails the warm-up): the progress counts the runs, a failing run is named with its error
and the exit status is 1, and its options are checked like every command's.  Its
output is one progress bar, not a line per run.  ``scripts/dev.py``'s set-up (``demo``,
``test``) runs it once after installing, its processes recorded here, not run.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from clirun import cli, refused

from pitchsim.cli import cache as cache_cli
from pitchsim.game.rules import Rules

HAND = "AH KH 2H 9C 7D 3S"


def test_every_preset_warms_every_command_it_runs():
    runs = cache_cli.warm_runs(cache_cli.Path("/nowhere"))
    for preset in cache_cli.WARM_PRESETS:
        commands = {r[0] for r in runs if preset in r}
        assert {"tournament", "play", "bid-odds", "advise", "simulate"} <= commands, preset
    # the coach's search at a card, and pimc, under a preset (the rules are data: one
    # preset compiles them for all)
    searched = [r for r in runs if r[0] == "hint"]
    # --game: rollout_game; odds: the fit of the calls heard (worlds_fit_calls)
    assert {r[-1] for r in searched} == {"4", "pimc", "--game", "odds"}
    assert cache_cli.WARM_VIEW["rules"] == "smear"
    # the odds rows made for rules with none shipped (table.odds_rows): their count
    from pitchsim.table.odds_rows import shipped_rows

    made = [r for r in runs if r[0] == "tournament" and "odds" in r[r.index("-s") + 1]]
    rules = {r[r.index("--rules") + 1] for r in made}
    assert any(shipped_rows(Rules.parse(spec), 4) is None for spec in rules), rules


def test_the_short_packs_rows_are_made_again_so_the_count_compiles(monkeypatch, tmp_path):
    """Odds rows made at an earlier warm-up outlive a kernel edit (their file is not the
    kernels' version's): warm deletes the file its short pack's run reads, so that the
    run makes the rows again and compiles the count (README: ``cache warm``)."""
    from pitchsim.table import odds_rows

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    run = cache_cli.WARM_MADE_ROWS
    rules = Rules.parse(run[run.index("--rules") + 1])
    players = int(run[run.index("-n") + 1]) if "-n" in run else 4  # tournament's default
    assert odds_rows.shipped_rows(rules, players) is None  # rows are made, not read
    key = odds_rows.made_key(rules, players)
    made = odds_rows.made_file(key, odds_rows.MADE_DEALS, odds_rows.made_seed(key))
    made.parent.mkdir(parents=True)
    made.write_bytes(b"rows of an earlier warm-up")
    cache_cli._unmake_warm_rows()
    assert not made.exists()


def test_warm_runs_each_command_under_one_bar(monkeypatch, tmp_path):
    """One bar counting the runs done of all (no line per run), the header and the total."""
    from pitchsim.cli import progress

    monkeypatch.setattr(progress, "SHOW_AFTER", 0.0)  # the bar from the first run on
    runs = [
        ["bid-odds", HAND, "--samples", "50", "--seed", "1"],
        ["rules", "--rules", "smear"],
        ["rules", "--rules", "setback"],
    ]
    monkeypatch.setattr(cache_cli, "warm_runs", lambda out: runs)
    code, out, err = cli("cache", "warm", "--jobs", "2")
    assert code == 0, err
    assert out == ""
    lines = err.rstrip("\n").split("\n")  # (not splitlines: the bar redraws after a \r)
    assert lines[0].startswith("pitchsim: compiling the kernels of 3 commands, 2 at a time")
    assert lines[-1].startswith("pitchsim: kernels compiled in ") and "failed" not in lines[-1]
    # the bar: drawn over itself (carriage returns), counting the runs done of 3, in
    # order, up to 3/3, with its elapsed time; no run is named
    assert len(lines) == 3, repr(err)  # the header, the bar's one line, the total
    draws = [d for d in lines[1].split("\r") if d.strip()]
    shape = re.compile(r"compiling: (\d+)/3 commands \|.*\| \d\d:\d\d elapsed")
    done = [int(shape.fullmatch(d.strip()).group(1)) for d in draws]
    assert done[-1] == 3 and done == sorted(done) and 1 <= done[0], draws
    assert "pitchsim bid-odds" not in err and "pitchsim rules" not in err


def test_a_run_that_fails_is_named_and_fails_the_warm_up(monkeypatch):
    runs = [["rules"], ["bid-odds", "AH AH", "--seed", "1"]]
    monkeypatch.setattr(cache_cli, "warm_runs", lambda out: runs)
    code, _, err = cli("cache", "warm", "--jobs", "1", one_line=False)
    assert code == 1
    failed = [line for line in err.splitlines() if "FAILED" in line]
    assert len(failed) == 1 and "bid-odds 'AH AH'" in failed[0], err
    assert "FAILED (exit 2): pitchsim: error: " in failed[0], err


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["cache", "cool"], "unknown action 'cool'"),
        (["cache", "--jobs", "2"], "--jobs goes with warm"),
        (["cache", "warm", "--jobs", "0"], "--jobs"),
        (["cache", "warm", "--clear"], "warm takes no --clear"),
        (["cache", "warm", "--json"], "warm takes no"),
    ],
)
def test_bad_options_are_one_line(argv, words):
    refused(*argv, words=words)


def test_the_search_runs_follow_the_hands_lane():
    """Hands by the thousand (study runs and bid-odds), whole games and the advisor, and
    the presets' search compile different kernels: each set to its own lane; with two
    lanes the search (a run on the warm view, a smear view with no --rules, and a pimc
    seat) follows the hands' runs."""
    runs = [
        ["simulate", "--seed", "1"],
        ["hint", "/tmp/x/" + cache_cli.VIEW_FILE, "--seed", "1"],
        ["play", "--rules", "smear"],
        ["tournament", "--rules", "smear", "-s", "odds+pimc:2,heuristic"],
        ["bid-odds", "AH KH 2H 9C 7D 3S", "--rules", "smear"],
    ]
    lanes = cache_cli._lanes(runs, 2)
    assert lanes == [[runs[0], runs[4], runs[1], runs[3]], [runs[2]]]
    assert cache_cli._lanes(runs, 3) == [[runs[0], runs[4]], [runs[2]], [runs[1], runs[3]]]
    for hands in (["simulate", "--rules", "setback"], ["bid-odds", "AH KH 2H 9C 7D 3S"]):
        assert cache_cli._kernel_set(hands) == cache_cli.HANDS
    # hands and whole games of every preset, and advise, the base game's too: one lane
    for games in (
        ["tournament", "--rules", "auction-pitch"],
        ["play", "--seed", "1", "--game"],
        ["play", "--seed", "1"],
        ["advise", "AH KH 2H 9C 7D 3S", "--rules", "auction-pitch"],
    ):
        assert cache_cli._kernel_set(games) == cache_cli.GAMES
    # The warm-up's own runs: no lane of two holds more than 60% of them.
    runs = cache_cli.warm_runs(cache_cli.Path("/w"))
    assert max(len(lane) for lane in cache_cli._lanes(runs, 2)) <= 0.6 * len(runs)


def test_the_base_games_solver_warms_after_the_presets_search():
    """``solve`` on a base-game position compiles the solver's base entry points; the
    search under them is the presets' (the same types), compiled by the view's runs, so
    the solve runs in their lane, after them, and loads it."""
    from pitchsim.search.position import Position, read_positions
    from pitchsim.util.jsonio import dumps_json

    runs = cache_cli.warm_runs(cache_cli.Path("/w"))
    solves = [r for r in runs if r[0] == "solve"]
    assert solves == [["solve", "/w/" + cache_cli.POSITION_FILE]]
    assert cache_cli._kernel_set(solves[0]) == cache_cli.SEARCH
    for jobs in (1, 2, 3, 4):
        lane = next(lane for lane in cache_cli._lanes(runs, jobs) if solves[0] in lane)
        hints = [i for i, r in enumerate(lane) if r[0] == "hint"]
        assert hints and lane.index(solves[0]) > max(hints), jobs
    pos = read_positions(dumps_json(cache_cli.WARM_POSITION), "warm")
    assert isinstance(pos, Position) and not pos.finished  # the base game, still to play


def _dev(monkeypatch, tmp_path, argv, warm_code=0):
    """Run ``scripts/dev.py ARGV`` with its processes recorded, not run: (the commands in
    order, each as its words after the venv's folder, and the exit status)."""
    import importlib.util
    import subprocess

    root = Path(__file__).resolve().parent.parent
    spec = importlib.util.spec_from_file_location("dev_under_test", root / "scripts" / "dev.py")
    dev = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(dev)
    (tmp_path / "python").touch()  # a venv already there: no EnvBuilder
    monkeypatch.setattr(dev, "BIN", tmp_path)
    monkeypatch.setattr(dev.sys, "argv", ["dev.py", *argv])
    calls = []

    def fake_run(cmd, cwd=None, check=False, **kw):
        words = [str(c).removeprefix(str(tmp_path) + "/") for c in cmd]
        calls.append(words)
        code = warm_code if words[:3] == ["pitchsim", "cache", "warm"] else 0
        if check and code:
            raise subprocess.CalledProcessError(code, cmd)
        return subprocess.CompletedProcess(cmd, code)

    monkeypatch.setattr(dev.subprocess, "run", fake_run)
    try:
        dev.main()
        code = 0
    except SystemExit as e:
        code = e.code
    return calls, code


def _is_warm(words):
    return words[:3] == ["pitchsim", "cache", "warm"]


TESTS_KERNELS = ["python", str(Path(__file__).resolve().parent / "warm_kernels.py")]


@pytest.mark.parametrize(
    ("argv", "last"),
    [
        (["demo"], [["pitchsim", "bid-odds"]]),
        (["test"], [TESTS_KERNELS, ["python", "-m", "pytest"]]),
    ],
)
def test_set_up_warms_the_cache_once_after_installing(monkeypatch, tmp_path, argv, last):
    """A new user's set-up (``demo``, ``test``) compiles every kernel once, with the bar,
    after pip installed pitchsim and before the first command; ``test`` not twice, and
    then the kernels only the tests run (tests/warm_kernels.py), before the suite."""
    calls, code = _dev(monkeypatch, tmp_path, argv)
    assert code == 0
    assert len(calls) == 2 + len(last), calls
    install, warm, *then = calls
    assert install[:3] == ["python", "-m", "pip"] and "install" in install
    assert _is_warm(warm) and warm[3] == "--jobs" and 1 <= int(warm[4]) <= 4
    assert [words[: len(start)] for words, start in zip(then, last, strict=True)] == last
    assert sum(map(_is_warm, calls)) == 1


def test_tests_by_name_run_without_a_warm_up(monkeypatch, tmp_path):
    calls, code = _dev(monkeypatch, tmp_path, ["test", "tests/test_rules.py"])
    assert code == 0
    assert not any(map(_is_warm, calls)), calls
    assert calls[-1] == ["python", "-m", "pytest", "tests/test_rules.py"]


def test_a_failed_warm_up_still_runs_the_demo_and_fails_the_set_up(monkeypatch, tmp_path):
    calls, code = _dev(monkeypatch, tmp_path, ["demo"], warm_code=1)
    assert code == 1
    assert calls[-1][:2] == ["pitchsim", "bid-odds"]
