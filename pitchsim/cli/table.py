"""``pitchsim table RUN``: make-probabilities by hand features, from a batch run."""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING

import typer

from ..game.rules import BIDS
from ..util.errors import InputError
from ..util.limits import MAX_MIN_COUNT, check_count
from .app import app
from .common import FullCheckOpt, NoVerifyOpt, RunRulesOpt, run_verify

if TYPE_CHECKING:
    import pandas as pd

    from ..study.analysis import Run

FORMATS = ("text", "csv", "json")
# The names of pitchsim.game.features.FEATURES, for the help without loading numpy
# (tests/test_cli_startup.py checks they agree)
FEATURE_NAMES = tuple(
    "players length high low holding pattern keys ace king queen jack ten deuce trump "
    "off_aces off_tens game_held jack_dealt trumps_dealt".split()
)
BY, MIN_COUNT = "length,high", 100  # the defaults of --by and --min-count
# A run under a rule family (pitchsim.study.family_analysis.FAMILY_FEATURES)
FAMILY_FEATURE_NAMES = ("holding", "length", "holding_held", "length_held", "trump", "high")
FAMILY_BY = "holding"


@app.command("table")
def table_command(
    run: str = typer.Argument(..., help="A run directory written by `pitchsim simulate`."),
    by: str = typer.Option(
        None,
        "--by",
        help=f"Features to group by, comma-separated: {', '.join(FEATURE_NAMES)} (default {BY}); "
        f"for a run under a rule family: {', '.join(FAMILY_FEATURE_NAMES)} (default {FAMILY_BY}).",
    ),
    players: str = typer.Option(
        None, "--players", "-n", help="Only these player counts (4 or 3,5)."
    ),
    min_count: int = typer.Option(
        None, "--min-count", help=f"Leave out groups with fewer deals (default {MIN_COUNT})."
    ),
    fmt: str = typer.Option("text", "--format", help="text, csv or json."),
    checks: bool = typer.Option(
        False, "--checks", help="Instead: the exact values the run must reproduce."
    ),
    levels: str = typer.Option(
        None,
        "--levels",
        help="A run under a rule family: the levels k the text table shows, e.g. 5,7,9,10 "
        "(default every level, 1 to the family's total; csv and json have all).",
    ),
    rules: str = RunRulesOpt,
    no_verify: bool = NoVerifyOpt,
    full_check: bool = FullCheckOpt,
) -> None:
    """P(the pitcher's side wins >= k points), k = 1-4 (1 to the family's point total
    under a rule family), with 95% intervals and deal counts, by player count and hand
    features."""
    if fmt not in FORMATS:
        raise InputError(f"--format must be one of {', '.join(FORMATS)}, not {fmt!r}")
    if checks and (by is not None or min_count is not None or levels is not None):
        raise InputError(
            "--checks shows every exact check: leave out --by, --min-count and --levels"
        )
    check_count("--min-count", min_count, MAX_MIN_COUNT)
    # numpy, pandas and pyarrow load here, not when any other command starts
    from ..game.features import parse_features
    from ..study.analysis import Run, exact_checks, make_table
    from ..study.family_analysis import rules_match
    from ..study.manifest import parse_players

    min_count = MIN_COUNT if min_count is None else min_count
    opened = Run(run, verify=run_verify(no_verify, full_check))
    rules_match(opened, rules)
    counts = None if players is None else parse_players(players)
    if opened.manifest.family and not checks:
        return _family_table(opened, by, counts, min_count, fmt, levels)
    if levels is not None:
        raise InputError(
            "--levels is for a run under a rule family: the base game's table always shows "
            "its four levels"
        )
    features = parse_features(BY if by is None else by)
    if opened.missing_parts:
        total = len(opened.manifest.parts)
        print(
            f"pitchsim: note: {run} is incomplete ({total - opened.missing_parts} of {total} "
            "parts done); these numbers use the finished parts",
            file=sys.stderr,
        )
    if checks and opened.manifest.family:
        from ..study.family_analysis import family_exact_checks

        df = family_exact_checks(opened, counts)
        text = render_checks
    elif checks:
        df = exact_checks(opened, counts)
        text = render_checks
    else:
        df = make_table(opened, features, counts, min_count)
        text = lambda d: render(d, opened, features, min_count)  # noqa: E731
    if fmt == "csv":
        output = df.to_csv(index=False, float_format="%.6g")
    elif fmt == "json":
        output = df.to_json(orient="records", indent=1, double_precision=6) + "\n"
    else:
        output = text(df)
    try:
        sys.stdout.write(output)
        sys.stdout.flush()
    except BrokenPipeError:  # `pitchsim table ... | head`: the reader has all it wants
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def _write(output: str) -> None:
    try:
        sys.stdout.write(output)
        sys.stdout.flush()
    except BrokenPipeError:  # `pitchsim table ... | head`: the reader has all it wants
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def _family_table(opened: Run, by, counts, min_count: int, fmt: str, levels) -> None:
    from ..advice.odds import parse_levels
    from ..study.family_analysis import family_rules, family_table, parse_family_features

    rules = family_rules(opened)
    if levels is not None and fmt != "text":
        raise InputError(
            f"--levels chooses the text table's columns; --format {fmt} has every level"
        )
    shown = parse_levels(levels, rules.max_bid)
    features = parse_family_features(FAMILY_BY if by is None else by)
    df = family_table(opened, features, counts, min_count)
    if fmt == "csv":
        output = df.to_csv(index=False, float_format="%.6g")
    elif fmt == "json":
        output = df.to_json(orient="records", indent=1, double_precision=6) + "\n"
    else:
        output = render_family(df, opened, features, min_count, rules, shown)
    _write(output)


def _short_cell(p: float, lo: float, hi: float) -> str:
    """``63.2±0.9``: a level's P(make k) and the half-width of its 95% interval."""
    return f"{100 * p:4.1f}±{100 * max(p - lo, hi - p):.1f}"


def render_family(
    df: pd.DataFrame, run: Run, features: list[str], min_count: int, rules, levels: list[int]
) -> str:
    from ..study.family_analysis import describe_run

    keys = ["players", *features]
    lines = [
        f"{run.path}: {describe_run(run)}  ·  by {', '.join(keys)}  ·  groups of at "
        f"least {min_count:,} deals",
        f"P(the pitcher's side wins at least k points), k = 1-{rules.max_bid}, in % ± the "
        "half-width of the 95% Wilson interval (--format csv or json: the bounds); bid = the "
        f"highest bid {rules.min_bid}-{rules.max_bid} with a positive expected score "
        "('?': not clear at 95%)",
        "",
    ]
    if df.empty:
        return "\n".join(lines + ["no group has that many deals"]) + "\n"
    widths = [max(len(k), *(len(_label(v)) for v in df[k])) for k in keys]
    cell = len(_short_cell(1.0, 0.999, 1.0))
    header = "  ".join(k.rjust(w) for k, w in zip(keys, widths, strict=True))
    header += f"  {'deals':>11}  " + "  ".join(f"k={k}".rjust(cell) for k in levels) + "  bid"
    lines.append(header)
    for row in df.itertuples(index=False):
        r = row._asdict()
        left = "  ".join(_label(r[k]).rjust(w) for k, w in zip(keys, widths, strict=True))
        cells = "  ".join(
            _short_cell(r[f"p{k}"], r[f"p{k}_lo"], r[f"p{k}_hi"]).rjust(cell) for k in levels
        )
        bid = "pass" if r["bid"] == 0 else str(r["bid"])
        lines.append(f"{left}  {r['deals']:>11,}  {cells}  {bid}{'' if r['bid_sure'] else '?'}")
    return "\n".join(lines) + "\n"


def _cell(p: float, lo: float, hi: float) -> str:
    return f"{100 * p:5.1f}% ({100 * lo:5.1f}-{100 * hi:5.1f})"


def _label(v) -> str:
    if isinstance(v, bool):
        return "yes" if v else "no"
    return str(v)


def render(df: pd.DataFrame, run: Run, features: list[str], min_count: int) -> str:
    m = run.manifest
    keys = ["players", *features]
    lines = [
        f"{run.path}: {m.policy} play, seed {m.seed}  ·  by {', '.join(keys)}  ·  "
        f"groups of at least {min_count:,} deals",
        "P(the pitcher's side wins at least k points), 95% Wilson interval; "
        "bid = the highest bid with a positive expected score ('?': not clear at 95%)",
        "",
    ]
    if df.empty:
        return "\n".join(lines + ["no group has that many deals"]) + "\n"
    widths = [max(len(k), *(len(_label(v)) for v in df[k])) for k in keys]
    cell = len(_cell(0.5, 0.25, 0.75))
    header = "  ".join(k.rjust(w) for k, w in zip(keys, widths, strict=True))
    header += f"  {'deals':>11}  " + "  ".join(f"k = {k}".ljust(cell) for k in BIDS) + "  bid"
    lines.append(header)
    for row in df.itertuples(index=False):
        r = row._asdict()
        left = "  ".join(_label(r[k]).rjust(w) for k, w in zip(keys, widths, strict=True))
        cells = "  ".join(_cell(r[f"p{k}"], r[f"p{k}_lo"], r[f"p{k}_hi"]) for k in BIDS)
        bid = "pass" if r["bid"] == 0 else str(r["bid"])
        lines.append(f"{left}  {r['deals']:>11,}  {cells}  {bid}{'' if r['bid_sure'] else '?'}")
    return "\n".join(lines) + "\n"


def render_checks(df: pd.DataFrame) -> str:
    w = max([5, *map(len, df.check)])  # the widest check name
    lines = [
        "Exact values the run must reproduce (95% interval; z = (estimate - exact) / s.e.)",
        f"{'players':>7}  {'check':<{w}}  {'deals':>11}  {'estimate':>10}  "
        f"{'95% interval':>21}  {'exact':>10}  {'z':>6}",
    ]
    for r in df.itertuples(index=False):
        mark = "" if r.inside else "  (outside)"
        lines.append(
            f"{r.players:>7}  {r.check:<{w}}  {r.deals:>11,}  {r.estimate:>10.5f}  "
            f"{r.lo:>10.5f}-{r.hi:<10.5f}  {r.exact:>10.5f}  {r.z:>6.2f}{mark}"
        )
    return "\n".join(lines) + "\n"
