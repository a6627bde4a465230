"""Options and rendering shared by several commands."""

from __future__ import annotations

import json
import sys

import typer

from ..cards import SUIT_NAMES, SUIT_SYMBOLS
from ..errors import InputError
from ..options import Rules

PlayersOpt = typer.Option(4, "--players", "-n", help="Players at the table (2-7).")
SeedOpt = typer.Option(None, "--seed", help="Random seed (default: a new one, printed).")
PolicyOpt = typer.Option(
    "heuristic",
    "--policy",
    help="Play policy: random, heuristic, rollout[:W] or pimc[:W] (W worlds a decision); or one per "
    "seat, comma-separated.",
)
PartnershipOpt = typer.Option(
    False, "--partnership", help="Two teams of two (seats 0+2 vs 1+3); 4 players only."
)
RulesOpt = typer.Option(
    None, "--rules", help="Rule variants, e.g. low=dealt,follow=suit, or a TOML file."
)
ThreadsOpt = typer.Option(None, "--threads", help="Threads to run on (default: all cores).")
JsonOpt = typer.Option(False, "--json", help="Print one JSON document on stdout.")


def make_rules(spec: str | None, partnership: bool, players: int) -> Rules:
    rules = Rules.parse(spec, partnership=partnership or None)
    rules.check_players(players)
    return rules


def positive(name: str, value: int | None) -> None:
    if value is not None and value <= 0:
        raise InputError(f"{name} must be positive, not {value}")


def suit_label(suit: int) -> str:
    return f"{SUIT_SYMBOLS[suit]} {SUIT_NAMES[suit]}"


def print_json(doc) -> None:
    json.dump(doc, sys.stdout, indent=2)
    sys.stdout.write("\n")


def show(result, as_json: bool, render) -> None:
    """A command's result on stdout: its ``to_json()`` with --json, else ``render(result)``."""
    if as_json:
        print_json(result.to_json())
    else:
        sys.stdout.write(render(result))
