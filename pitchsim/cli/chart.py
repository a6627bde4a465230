"""``pitchsim chart RUN --kind K --out FILE``: strategy charts from a batch run."""

from __future__ import annotations

import sys

import typer

from ..study.chart_kinds import DEFAULT_MIN_COUNT, DEFAULT_SHOWN, KINDS
from ..util.errors import InputError
from ..util.limits import MAX_MIN_COUNT, check_count
from .app import app
from .common import FullCheckOpt, NoVerifyOpt, RunRulesOpt, run_verify


@app.command("chart")
def chart_command(
    run: str = typer.Argument(..., help="A run directory written by `pitchsim simulate`."),
    kind: str = typer.Option(..., "--kind", help="; ".join(f"{k}: {v}" for k, v in KINDS.items())),
    out: str = typer.Option(..., "--out", help="Output file, .png or .svg."),
    players: int = typer.Option(
        None, "--players", "-n", help="heatmap: the player count (default 4)."
    ),
    holdings: str = typer.Option(
        None,
        "--holdings",
        help="players: key-trump holdings dealt, e.g. A-J-2,K-J (default the "
        f"{DEFAULT_SHOWN} most frequent).",
    ),
    min_count: int = typer.Option(
        None,
        "--min-count",
        help=f"heatmap, players, bids: leave out cells with fewer deals (default {DEFAULT_MIN_COUNT}).",
    ),
    levels: str = typer.Option(
        None,
        "--levels",
        help="heatmap and players: the levels k of P(make k), e.g. 5,6 (default the "
        "preset's lowest bids: two of at least 2 for heatmap, four for players).",
    ),
    rules: str = RunRulesOpt,
    no_verify: bool = NoVerifyOpt,
    full_check: bool = FullCheckOpt,
) -> None:
    """Draw a strategy chart: heatmap, players, points or bids, for a run of any preset."""
    # An option the chart kind does not use is refused rather than silently ignored.
    used = {
        "--players": ("heatmap",),
        "--holdings": ("players",),
        "--min-count": ("heatmap", "players", "bids"),
        "--levels": ("heatmap", "players"),
    }
    given = {
        "--players": players,
        "--holdings": holdings,
        "--min-count": min_count,
        "--levels": levels,
    }
    for option, kinds in used.items():
        if given[option] is not None and kind in KINDS and kind not in kinds:
            raise InputError(
                f"{option} does nothing for --kind {kind} (only for {', '.join(kinds)})"
            )
    check_count("--min-count", min_count, MAX_MIN_COUNT)
    wanted = None
    if holdings is not None:
        wanted = [h.strip() for h in holdings.split(",")]
        if not all(wanted):
            raise InputError(f"--holdings {holdings!r} has an empty holding")
    from ..study.analysis import Run, rules_match
    from ..study.charts import (  # matplotlib loads only when a chart is drawn
        chart,
        chart_data,
        save,
    )

    opened = Run(run, verify=run_verify(no_verify, full_check))
    rules_match(opened, rules)
    min_count = DEFAULT_MIN_COUNT if min_count is None else min_count
    wanted_levels = _levels(levels) if levels else None
    data = chart_data(opened, kind, players, wanted, min_count, wanted_levels)
    fig = chart(opened, kind, players, wanted, min_count, data=data)
    print(f"wrote {save(fig, out)}")
    if data.blank_cells:
        print(
            f"pitchsim: note: {data.blank_cells} cells have fewer than {min_count:,} deals "
            "and are left out (blank or grey); a longer run fills them, or lower "
            "--min-count (wider intervals)",
            file=sys.stderr,
        )


def _levels(text: str) -> list[int]:
    try:
        return [int(x) for x in text.split(",")]
    except ValueError:
        raise InputError(f"--levels {text!r}: give whole numbers, e.g. 5,6") from None
