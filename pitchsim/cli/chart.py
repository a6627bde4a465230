"""``pitchsim chart RUN --kind K --out FILE``: strategy charts from a batch run."""

from __future__ import annotations

import sys

import typer

from ..chart_kinds import DEFAULT_HOLDINGS, DEFAULT_MIN_COUNT, KINDS
from . import app


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
        help=f"players: trump holdings, x = any 3-9 (default {','.join(DEFAULT_HOLDINGS)}).",
    ),  # fmt: skip
    min_count: int = typer.Option(
        DEFAULT_MIN_COUNT, "--min-count", help="Leave out cells with fewer deals."
    ),
) -> None:
    """Draw a strategy chart: heatmap, players, points or bids."""
    from ..charts import chart, chart_data, save  # matplotlib loads only when a chart is drawn

    wanted = [h for h in holdings.split(",") if h.strip()] if holdings else None
    data = chart_data(run, kind, players=players, holdings=wanted, min_count=min_count)
    fig = chart(run, kind, players=players, holdings=wanted, min_count=min_count, data=data)
    print(f"wrote {save(fig, out)}")
    if data.blank_cells:
        print(f"pitchsim: note: {data.blank_cells} cells have fewer than {min_count:,} deals "
              "and are left out (blank or grey); a longer run fills them, or lower "
              "--min-count (wider intervals)", file=sys.stderr)  # fmt: skip
