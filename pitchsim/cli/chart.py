"""``pitchsim chart RUN --kind K --out FILE``: strategy charts from a batch run."""

from __future__ import annotations

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
    from ..charts import chart, save  # matplotlib loads only when a chart is drawn

    wanted = [h for h in holdings.split(",") if h.strip()] if holdings else None
    fig = chart(run, kind, players=players, holdings=wanted, min_count=min_count)
    print(f"wrote {save(fig, out)}")
