"""The CLI answers help, ``rules`` and argument errors without loading numba, numpy or
pandas: those load inside a command, once its options have passed their checks.

Each case runs in a fresh interpreter (this one has long loaded everything) that reports
which heavy packages it ended up with.  The time this saves is measured by
scripts/bench_startup.py, not asserted here.
"""

import json
import subprocess
import sys

import pytest

from pitchsim.cli import app  # light: loads none of HEAVY (the probes check it)

HEAVY = ("numba", "llvmlite", "numpy", "pandas", "pyarrow", "matplotlib", "tqdm")

# Runs the CLI, then prints (last line on stderr) the heavy packages it loaded.
PROBE = """\
import json, sys
from pitchsim.cli import main
try:
    main(sys.argv[1:])
except SystemExit as e:
    code = e.code
heavy = sorted({m.split(".")[0] for m in sys.modules} & set(HEAVY))
sys.stderr.write("\\nLOADED " + json.dumps([code, heavy]) + "\\n")
""".replace("HEAVY", repr(HEAVY))

HAND = "AH KH 2H 9C 7D 3S"
# every command registered (a new one is covered by the --help check at once)
COMMANDS = sorted(c.name for c in app.registered_commands)

# (argv, exit code): help, the rules, and errors in the arguments, of every command
LIGHT = [
    ([], 2),
    (["--help"], 0),
    *(([c, "--help"], 0) for c in COMMANDS),
    (["rules"], 0),
    (["rules", "--json", "--rules", "low=dealt,target=11", "--partnership"], 0),
    (["rules", "--rules", "low=nowhere"], 2),
    (["no-such-command"], 2),
    (["bid-odds"], 2),
    (["bid-odds", HAND, "--samples", "0"], 2),
    (["bid-odds", HAND, "--samples", "many"], 2),
    (["bid-odds", HAND, "--compare-samples", "5"], 2),
    (["bid-odds", HAND, "--players", "5", "--partnership"], 2),
    (["bid-odds", HAND, "--bogus"], 2),
    (["bid-odds", HAND, "--policy", ""], 2),
    (["advise", HAND], 2),
    (["advise", HAND, "--seat", "0", "--dealer", "3", "--samples", "0"], 2),
    (["advise", HAND, "--seat", "0", "--dealer", "3", "--time", "0"], 2),
    (["advise", HAND, "--seat", "0", "--dealer", "3", "--time", "nan"], 2),
    (["play", "--board", "1"], 2),
    (["play", "--bid", "7"], 2),
    (["play", "--game", "--hand", HAND], 2),
    (["play", "--players", "9", "--rules", "low=x"], 2),
    (["simulate"], 2),
    (["simulate", "--deals", "0"], 2),
    (["simulate", "--resume"], 2),
    (["table", "some-run", "--format", "yaml"], 2),
    (["table", "some-run", "--checks", "--by", "length"], 2),
    (["chart", "some-run", "--kind", "points", "--out", "x.png", "--players", "3"], 2),
    (["tournament"], 2),
    (["tournament", "-s", "odds,heuristic", "--games", "0"], 2),
    (["tournament", "-s", "odds,heuristic", "--target", "0"], 2),
    (["hint"], 2),
    (["solve"], 2),
    (["cache", "--all"], 2),
    (["--version"], 0),
]


def probe(argv: list[str]) -> tuple[int, list[str], str]:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *argv], capture_output=True, text=True, timeout=120
    )
    err, _, last = done.stderr.rstrip("\n").rpartition("\n")
    assert last.startswith("LOADED "), done.stderr
    code, heavy = json.loads(last.removeprefix("LOADED "))
    return code, heavy, err


@pytest.mark.parametrize(
    ("argv", "code"), LIGHT, ids=lambda v: " ".join(v) if isinstance(v, list) else None
)
def test_answers_without_loading_the_library(argv, code):
    got, heavy, err = probe(argv)
    assert got == code, err
    if code == 2:  # one line, as every error
        assert err.startswith("pitchsim: error: ") or argv == [], err
    assert heavy == [], f"pitchsim {' '.join(argv)} loaded {heavy}"


def test_the_probe_sees_a_command_that_runs_the_kernels():
    """The check above can fail: a command that plays deals loads numba."""
    code, heavy, err = probe(["bid-odds", HAND, "--samples", "50", "--seed", "1", "--json"])
    assert code == 0, err
    assert "numba" in heavy and "numpy" in heavy


def test_help_defaults_are_the_library_defaults():
    """The CLI keeps a copy of the library defaults its help shows, so that the help
    needs no kernels: each copy must be the library's value."""
    from pitchsim.advice import advise, odds
    from pitchsim.cli import advise as advise_cli
    from pitchsim.cli import bid_odds as bid_odds_cli
    from pitchsim.cli import hint as hint_cli
    from pitchsim.cli import table as table_cli
    from pitchsim.search import hint
    from pitchsim.study.analysis import DEFAULT_BY, FROM_HAND, PRESET_FEATURES

    assert advise_cli.DEFAULT_MODEL == advise.DEFAULT_MODEL
    assert bid_odds_cli.DEFAULT_SAMPLES == odds.DEFAULT_SAMPLES
    assert bid_odds_cli.DEFAULT_COMPARE_SAMPLES == odds.DEFAULT_COMPARE_SAMPLES
    assert hint_cli.DEFAULT_WORLDS == hint.DEFAULT_WORLDS
    assert hint_cli.DEFAULT_MODEL == hint.DEFAULT_MODEL
    assert hint_cli.DEFAULT_TIME == hint.DEFAULT_TIME
    assert hint_cli.DEFAULT_POLICY == hint.DEFAULT_POLICY
    assert table_cli.PRESET_FEATURE_NAMES == tuple(PRESET_FEATURES)
    assert table_cli.PRESET_BY == DEFAULT_BY and table_cli.FROM_HAND_NAMES == FROM_HAND
    from pitchsim.cli import engine as engine_cli
    from pitchsim.cli import practice as practice_cli
    from pitchsim.table import bidding, engine

    assert engine_cli.DEFAULT_STRATEGY == engine.DEFAULT_STRATEGY == bidding.PLAYER_STRATEGY
    assert practice_cli.DEFAULT_OPPONENTS == bidding.PLAYER_STRATEGY
    assert engine_cli.ADVISOR_SAMPLES == bidding.ADVISOR_SAMPLES


def test_version_names_the_installed_package():
    from importlib.metadata import version

    done = subprocess.run(
        [sys.executable, "-m", "pitchsim", "--version"], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0 and done.stdout == f"pitchsim {version('pitchsim')}\n"


def test_rules_help_names_every_preset():
    from pitchsim.game.rules import FAMILIES

    done = subprocess.run(
        [sys.executable, "-m", "pitchsim", "play", "--help"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    text = " ".join(done.stdout.split())  # help is wrapped to the terminal
    assert done.returncode == 0
    assert all(name in text for name in FAMILIES) and "pitchsim rules --rules PRESET" in text
