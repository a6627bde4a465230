"""``pitchsim engine``: pitchsim as an engine other programs ask for decisions, speaking
JSON lines on stdin/stdout (``docs/protocol.md``); logs go to stderr only."""

from __future__ import annotations

import sys

import typer

from ..games.engine import DEFAULT_STRATEGY, PROTOCOL, Engine, serve
from . import app


@app.command("engine")
def engine_command(
    strategy: str = typer.Option(
        DEFAULT_STRATEGY,
        "--strategy",
        "-s",
        help="bidding+play, e.g. odds+heuristic or advisor+rollout (a request may override it).",
    ),
    seed: int = typer.Option(
        0,
        "--seed",
        help="Seed of every decision's random stream (with the view): same view, same answer.",
    ),
    values: bool = typer.Option(
        True, "--values/--no-values", help="Give every legal card's value when the play searches."
    ),
) -> None:
    """Answer decide requests (one JSON object per line) until quit or end of input."""
    engine = Engine(strategy, seed, values)
    print(
        f"pitchsim engine: {PROTOCOL}, strategy {engine.strategy}, seed {engine.seed}",
        file=sys.stderr,
    )
    serve(engine)
