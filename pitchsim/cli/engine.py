"""``pitchsim engine``: pitchsim as an engine other programs ask for decisions, speaking
JSON lines on stdin/stdout (``docs/protocol.md``); logs go to stderr only."""

from __future__ import annotations

import sys

import typer

from .app import app
from .common import seed_option

# Copies of pitchsim.table.bidding.PLAYER_STRATEGY and ADVISOR_SAMPLES, for the help
# without loading the kernels (tests/test_cli_startup.py keeps them equal)
DEFAULT_STRATEGY = "odds+rollout"
ADVISOR_SAMPLES = 32


@app.command("engine")
def engine_command(
    strategy: str = typer.Option(
        DEFAULT_STRATEGY,
        "--strategy",
        "-s",
        help="bidding+play, e.g. odds+heuristic or advisor+rollout (a request may override it).",
    ),
    seed: int = seed_option(
        0, "Seed of every decision's random stream (with the view): same view, same answer."
    ),
    values: bool = typer.Option(
        True, "--values/--no-values", help="Give every legal card's value when the play searches."
    ),
    worlds: int = typer.Option(
        None, "--worlds", help="Worlds a search play policy samples per card (rollout:W)."
    ),
    samples: int = typer.Option(
        ADVISOR_SAMPLES, "--samples", help="Deals the advisor bidding policy plays out per call."
    ),
    time: float = typer.Option(
        None,
        "--time",
        help="Seconds a search play decision may take (default: no clock); a request's "
        "options may set its own.",
    ),
) -> None:
    """Answer decide requests (one JSON object per line) until quit or end of input."""
    from ..table.engine import PROTOCOL, Engine, serve

    engine = Engine(strategy, seed, values, samples, worlds, time)
    print(
        f"pitchsim engine: {PROTOCOL}, strategy {engine.strategy}, seed {engine.seed}",
        file=sys.stderr,
    )
    serve(engine)
