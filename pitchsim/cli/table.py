"""``pitchsim table RUN``: make-probabilities by hand features, from a batch run."""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING

import typer

from ..util.errors import InputError
from ..util.limits import MAX_MIN_COUNT, check_count
from .app import app
from .common import FullCheckOpt, NoVerifyOpt, RunRulesOpt, run_verify

if TYPE_CHECKING:
    import pandas as pd

    from ..study.analysis import Run

FORMATS = ("text", "csv", "json")
MIN_COUNT = 100  # the default of --min-count
# The features of a run (pitchsim.study.analysis.PRESET_FEATURES and DEFAULT_BY), for the
# help without loading numpy (tests/test_cli_startup.py checks they agree)
PRESET_FEATURE_NAMES = ("holding", "length", "holding_held", "length_held", "trump", "high")
PRESET_BY = "holding"
# The trump-holding features a run reads from its hand (analysis.FROM_HAND)
FROM_HAND_NAMES = tuple(
    "ranks low pattern keys ace king queen jack ten deuce off_aces off_tens game_held".split()
)


@app.command("table")
def table_command(
    run: str = typer.Argument(..., help="A run directory written by `pitchsim simulate`."),
    by: str = typer.Option(
        None,
        "--by",
        help=f"Features to group by, comma-separated: {', '.join(PRESET_FEATURE_NAMES)} "
        f"(default {PRESET_BY}), and where the trumps are the trump suit's 13 ranks "
        f"{', '.join(FROM_HAND_NAMES)}.",
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
        help="The levels k the text table shows, e.g. 5,7,9,10 (default every level, 1 to "
        "the preset's total; csv and json have all).",
    ),
    rules: str = RunRulesOpt,
    no_verify: bool = NoVerifyOpt,
    full_check: bool = FullCheckOpt,
) -> None:
    """P(the pitcher's side wins >= k points), k = 1 to the preset's point total, with
    95% intervals and deal counts, by player count and hand features."""
    if fmt not in FORMATS:
        raise InputError(f"--format must be one of {', '.join(FORMATS)}, not {fmt!r}")
    if checks and (by is not None or min_count is not None or levels is not None):
        raise InputError(
            "--checks shows every exact check: leave out --by, --min-count and --levels"
        )
    check_count("--min-count", min_count, MAX_MIN_COUNT)
    # numpy, pandas and pyarrow load here, not when any other command starts
    from ..study.analysis import Run, make_table, parse_by, rules_match
    from ..study.exact import exact_checks
    from ..study.manifest import parse_players

    min_count = MIN_COUNT if min_count is None else min_count
    opened = Run(run, verify=run_verify(no_verify, full_check))
    rules_match(opened, rules)
    counts = None if players is None else parse_players(players)
    if not checks:
        shown = _shown_levels(opened, levels, fmt)
        features = parse_by(opened, by)
    if opened.missing_parts:
        total = len(opened.manifest.parts)
        print(
            f"pitchsim: note: {run} is incomplete ({total - opened.missing_parts} of {total} "
            "parts done); these numbers use the finished parts",
            file=sys.stderr,
        )
    if checks:
        df = exact_checks(opened, counts)
        text = render_checks
    else:
        df = make_table(opened, features, counts, min_count)
        text = lambda d: render(d, opened, features, min_count, shown)  # noqa: E731
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


def _shown_levels(run: Run, levels: str | None, fmt: str) -> list[int]:
    """The levels k the text table shows: every level of the preset, or ``--levels``."""
    from ..advice.odds import parse_levels

    if levels is None:
        return list(range(1, run.rules.max_bid + 1))
    if fmt != "text":
        raise InputError(
            f"--levels chooses the text table's columns; --format {fmt} has every level"
        )
    return parse_levels(levels, run.rules.max_bid)


def _short_cell(p: float, lo: float, hi: float) -> str:
    """``63.2±0.9``: a level's P(make k) and the half-width of its 95% interval."""
    return f"{100 * p:4.1f}±{100 * max(p - lo, hi - p):.1f}"


def _label(v) -> str:
    if isinstance(v, bool):
        return "yes" if v else "no"
    return str(v)


def render(
    df: pd.DataFrame, run: Run, features: list[str], min_count: int, levels: list[int]
) -> str:
    """The text table: each cell the estimate ± the half-width of its 95% interval."""
    from ..study.analysis import describe_run

    keys = ["players", *features]
    where = f"by {', '.join(keys)}  ·  groups of at least {min_count:,} deals"
    r = run.rules
    lines = [
        f"{run.path}: {describe_run(run)}  ·  {where}",
        f"P(the pitcher's side wins at least k points), k = 1-{r.max_bid}, in % ± the "
        "half-width of the 95% Wilson interval (--format csv or json: the bounds); bid = "
        f"the highest bid {r.min_bid}-{r.max_bid} with a positive expected score "
        "('?': not clear at 95%)",
    ]
    cell, head = _short_cell, lambda k, w: f"k={k}".rjust(w)
    lines.append("")
    if df.empty:
        return "\n".join(lines + ["no group has that many deals"]) + "\n"
    widths = [max(len(k), *(len(_label(v)) for v in df[k])) for k in keys]
    width = len(cell(1.0, 0.999, 1.0))
    header = "  ".join(k.rjust(w) for k, w in zip(keys, widths, strict=True))
    header += f"  {'deals':>11}  " + "  ".join(head(k, width) for k in levels) + "  bid"
    lines.append(header)
    for row in df.itertuples(index=False):
        r = row._asdict()
        left = "  ".join(_label(r[k]).rjust(w) for k, w in zip(keys, widths, strict=True))
        cells = "  ".join(
            cell(r[f"p{k}"], r[f"p{k}_lo"], r[f"p{k}_hi"]).rjust(width) for k in levels
        )
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
