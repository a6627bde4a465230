"""Integer and float options are plain decimal digits, on every command (cli/common.py,
``plain_number_options``): ``4.0``, ``+4``, `` 4``, ``1_000``, ``0x4``, ``4e0`` or a
digit of another script is a one-line error naming the option, exit 2, before any work
(typer alone took ``4.0``, ``+4`` and ``1_000`` as numbers and ran with them).  A float
option (seconds) takes a point and an exponent too, but no ``1_0``, space, ``nan`` or
``inf`` (typer took ``1_0`` as 10 seconds)."""

from __future__ import annotations

import inspect

import pytest
from clirun import cli, refused

from pitchsim.cli import main  # noqa: F401  (registers every command)
from pitchsim.cli.app import app
from pitchsim.cli.common import UsageError

HAND = "AH KH 2H 9C 7D 3S"
NOT_PLAIN = ["4.0", "+4", " 4", "4 ", "1_000", "0x4", "4e0", "\u0664", "four", "--"]


@pytest.mark.parametrize("value", NOT_PLAIN)
@pytest.mark.parametrize(
    "argv, flag",
    [
        (["bid-odds", HAND, "--samples", "100", "--players"], "--players"),
        (["bid-odds", HAND, "--players", "4", "--samples"], "--samples"),
        (["bid-odds", HAND, "--samples", "100", "--seed"], "--seed"),
        (["play", "--seed", "1", "--rounds"], "--rounds"),
        (["review", "no-such-record.json", "--seat"], "--seat"),
        (["serve", "--saves", "/dev/null", "--max-games"], "--max-games"),
        (["tournament", "--strategies", "heuristic,heuristic", "--seed", "1", "-g"], "-g"),
        (
            ["tournament", "--strategies", "heuristic,heuristic", "--seed", "1", "--games"],
            "--games",
        ),
        (["hint", "--worlds"], "--worlds"),
    ],
)
def test_an_integer_option_takes_plain_digits_only(argv, flag, value):
    line = refused(*argv, value)
    if value == "--":  # click reads "--" as the end of options: its own error
        return
    assert line.startswith(f"pitchsim: error: {flag} must be a whole number"), line
    assert repr(value) in line, line


def test_a_negative_number_reaches_the_options_own_range_check():
    # the minus sign is read, so the option says what it takes, as before
    assert "must be positive" in refused("bid-odds", HAND, "--samples", "-5")
    assert "2-7" in refused("bid-odds", HAND, "--players", "-3")


def test_a_number_of_hundreds_of_digits_is_one_line():
    line = refused("bid-odds", HAND, "--seed", "9" * 5000)
    assert "--seed is out of range" in line and len(line) < 200


def test_plain_digits_still_run():
    code, out, _ = cli("bid-odds", HAND, "--players", "3", "--samples", "100", "--seed", "07")
    assert code == 0 and "3 players" in out and "seed 7" in out


NOT_PLAIN_SECONDS = ["1_0", " 2", "2 ", "+2", "0x1", "nan", "inf", "1e", ".", "\u0662"]


@pytest.mark.parametrize("value", NOT_PLAIN_SECONDS)
@pytest.mark.parametrize(
    "argv, flag",
    [
        (["solve", "no-such-position.json", "--time"], "--time"),
        (["play", "--seed", "1", "--decision-time"], "--decision-time"),
        (["serve", "--saves", "/dev/null", "--idle"], "--idle"),
    ],
)
def test_a_float_option_takes_plain_digits_only(argv, flag, value):
    line = refused(*argv, value)
    assert line.startswith(f"pitchsim: error: {flag} must be a number in plain digits"), line


@pytest.mark.parametrize("value, seconds", [("2", 2.0), ("0.5", 0.5), (".5", 0.5), ("1e1", 10.0)])
def test_plain_seconds_are_read(value, seconds):
    import inspect

    from pitchsim.cli.solve import solve_command as solve

    parser = inspect.signature(inspect.unwrap(solve)).parameters["time"].default.parser
    assert parser(value) == seconds and parser(3) == 3.0


def test_every_integer_option_has_the_one_reader():
    # each command's int options, found from the signatures (not listed by hand)
    import inspect

    found = 0
    for command in app.registered_commands:
        fn = inspect.unwrap(command.callback)
        for p in inspect.signature(fn).parameters.values():
            if p.annotation in (int, "int"):
                found += 1
                assert p.default.parser is not None, (command.name, p.name)
                assert p.default.parser("12") == 12 and p.default.parser(3) == 3
    assert found >= 40  # bid-odds, play, tournament, ... (about 60 today)


@pytest.mark.parametrize(
    "typed, flag",
    [
        (["-g", "1_000"], "-g"),
        (["-g1_000"], "-g"),
        (["--games", "1_000"], "--games"),
        (["--games=1_000"], "--games"),
        (["--boards", "1_000"], "--boards"),
        (["--boards=1_000"], "--boards"),
    ],
)
def test_the_error_names_the_flag_typed(typed, flag):
    # tournament's boards has three flags; the error named --boards for -g 1_000
    line = refused("tournament", "-s", "heuristic,heuristic", "--seed", "1", *typed)
    assert (
        line
        == f"pitchsim: error: {flag} must be a whole number in plain digits (like 4), not '1_000'"
    )


def test_a_number_option_that_may_be_none_has_the_one_reader():
    # `float | None` (and its kin) is a number option too: typer alone took 1_0 as 10
    import typer

    from pitchsim.cli.common import number_kind, plain_number_options

    for ann, kind in [
        (int, int), (float, float), ("int", int), ("float", float), (float | None, float),
        (int | None, int), ("float | None", float), ("Optional[int]", int),
        ("None | float", float), (str, None), ("str | None", None), (bool, None),
        (int | float, None),
    ]:  # fmt: skip
        assert number_kind(ann) is kind, ann

    def command(
        seconds: float | None = typer.Option(None, "--seconds", "-S"),  # noqa: B008
        count: int | None = typer.Option(None, "--count"),  # noqa: B008
    ):
        pass

    plain_number_options(command)
    params = inspect.signature(command).parameters
    read_seconds, read_count = params["seconds"].default.parser, params["count"].default.parser
    assert read_seconds("0.5") == 0.5 and read_count("12") == 12
    for read, value, flag in [(read_seconds, "1_0", "--seconds"), (read_count, "4.0", "--count")]:
        with pytest.raises(UsageError, match=f"^{flag} must be "):
            read(value)


@pytest.mark.parametrize(
    "typed, line",
    [
        (["-g", "0"], "-g must be positive, not 0"),
        (["-g0"], "-g must be positive, not 0"),
        (["--games", "0"], "--games must be positive, not 0"),
        (["--boards=0"], "--boards must be positive, not 0"),
        (["-g", "100000000"], "-g must be at most 10,000,000 (docs/limits.md), not 100,000,000"),
    ],
)
def test_the_range_error_names_the_flag_typed(typed, line):
    # it named "--boards/--games" whichever was typed, -g included
    assert refused("tournament", "-s", "heuristic,heuristic", *typed) == f"pitchsim: error: {line}"
