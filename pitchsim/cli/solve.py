"""``pitchsim solve POSITION.json``: the double-dummy value of a position and of each card."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import typer

from ..game.cards import format_card, format_cards, game_points, sort_for_display
from ..game.rules import BASE_RULES, Rules, label
from .app import app
from .common import JsonOpt, print_json, suit_label

DEFAULT_TIME = 20.0  # seconds a position's solve may take (issue 19: no search waits longer)

if TYPE_CHECKING:
    from ..search.double_dummy import Solution


@app.command("solve")
def solve_command(
    position: str = typer.Argument(
        ...,
        help="A position as `pitchsim play --json` writes a round (`-`: stdin); "
        "a JSON list solves many.",
    ),
    rules: str = typer.Option(
        None,
        "--rules",
        help="The rules of a position that does not carry its own (as --rules "
        "elsewhere: name=value,... or a TOML file; a family such as smear); one that "
        "does must agree.",
    ),
    time: float = typer.Option(
        DEFAULT_TIME,
        "--time",
        help="Seconds the exact search of each position may take (0: no limit; loading "
        "the kernels comes first, off the clock).  A position not solved in them gets "
        "no value, a line saying so, and exit status 1.",
    ),
    as_json: bool = JsonOpt,
) -> None:
    """Double-dummy value (every hand open) of a position: the points the pitcher's side
    makes with best play by all, and the value after each legal card (the base game or
    a rule family: setback, smear, ten-point, ...).  Exit status 1 when the clock
    (--time) stopped a position before it was solved."""
    from ..table.clock import check_time

    budget = check_time(time, zero_is_none=True)  # before reading, and before loading
    from ..search.double_dummy import solve  # the kernels load here
    from ..search.position import read_positions, read_source

    stated = Rules.parse(rules) if rules is not None else None
    text, name = read_source(position)
    positions = read_positions(text, name, stated)
    many = isinstance(positions, list)
    todo = positions if many else [positions]
    solutions = []
    for i, p in enumerate(todo):
        which = f"position {i + 1} of {len(todo)}: " if many else ""
        solutions.append(solve(p, time=budget, progress=lambda t, w=which: _searching(w, t)))
    if as_json:
        docs = [s.to_json() for s in solutions]
        print_json(docs if many else docs[0])
    else:
        for i, s in enumerate(solutions):
            title = f"Position {i + 1} of {len(solutions)}" if many else "Position"
            sys.stdout.write(render(s, title) + ("\n" if i + 1 < len(solutions) else ""))
    if not all(s.solved for s in solutions):
        raise typer.Exit(1)


def _searching(which: str, budget: float | None) -> None:
    limit = "no time limit (--time 0)" if budget is None else f"up to {budget:g} s (--time)"
    sys.stderr.write(f"pitchsim: {which}searching every line of play, {limit}\n")
    sys.stderr.flush()


def not_solved(s: Solution) -> str:
    """The line for a position the clock stopped: what happened and what to do."""
    return (
        f"Not solved within {s.time:g} s ({s.nodes:,} nodes searched): the exact search "
        "of a 6-7 player deal with many cards left can take minutes; --time 0 waits for "
        "it, or solve a later position."
    )


def render(s: Solution, title: str) -> str:
    pos = s.position
    n = pos.players
    head = [
        f"{n} players",
        "partnership" if pos.rules.partnership else "solo",
        f"pitcher seat {pos.pitcher}",
    ]
    if pos.bid is not None:
        head.append(f"bid {pos.bid}")
    head.append(f"trump {suit_label(pos.trump)}" if pos.trump >= 0 else "trump not yet led")
    if not pos.rules.base_game:  # a preset beyond the base game: its label
        head.append(label(pos.rules))
        if pos.state.called >= 0:  # 12.1.5: its holder is the partner, else he is alone
            who = "the pitcher alone" if pos.state.partner is None else "partner"
            head.append(f"called {format_card(pos.state.called)} ({who})")
    else:
        variants = [
            f"{k}={v}"
            for k, v in pos.rules.describe().items()
            if k in ("low", "follow") and v != getattr(BASE_RULES, k)
        ]
        if variants:
            head.append(", ".join(variants))
    out = [f"{title}: " + "  ·  ".join(head)]
    for seat in range(n):
        role = "pitcher" if seat == pos.pitcher else ("partner" if pos.pitcher_side(seat) else "")
        held = format_cards(sort_for_display(c for c in range(54) if pos.hands[seat] >> c & 1))
        count = sum(game_points(c) for c in range(52) if pos.won[seat] >> c & 1)
        mark = "*" if seat == pos.to_play else " "
        out.append(f" {mark}seat {seat} {role:<8} {held or '-':<22} game count won {count}")
    if pos.trick:
        seats = getattr(pos, "trick_seats", None) or [
            (pos.leader + j) % n for j in range(len(pos.trick))
        ]
        plays = "  ".join(
            f"{seat}:{format_card(c)}" for seat, c in zip(seats, pos.trick, strict=True)
        )
        out.append(f"Trick {len(pos.tricks)} so far: {plays}")
    if not s.solved:
        out.append(not_solved(s))
        return "\n".join(out) + "\n"
    made = ""
    if pos.bid is not None:
        made = f"; bid {pos.bid} {'made' if s.made else 'set'}"
    if pos.finished:
        out.append(f"The hand is over: the pitcher's side holds {s.value}{made}.")
        return "\n".join(out) + "\n"
    side = "the pitcher's side" if pos.pitcher_side(pos.to_play) else "defending"
    out.append(
        f"Seat {pos.to_play} to play ({side}).  Value: {s.value} "
        f"(points the pitcher's side makes with best play, every hand open{made})"
    )
    cards = sort_for_display(s.cards)
    out.append("Cards: " + "   ".join(f"{format_card(c)} {s.cards[c]}" for c in cards))
    out.append("Best: " + format_cards(sort_for_display(s.best)))
    return "\n".join(out) + "\n"
