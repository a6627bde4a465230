"""``pitchsim hint POSITION.json``: which card now, for the player to move."""

from __future__ import annotations

from typing import TYPE_CHECKING

import typer

from ..game.cards import format_card, format_cards, sort_for_display
from ..game.rules import Rules
from ..util.stats import TOO_FEW
from .app import app
from .common import JsonOpt, SeedOpt, show, suit_label
from .progress import Progress

if TYPE_CHECKING:
    from ..search.hint import Hint

# pitchsim.search.hint.DEFAULT_WORLDS, for the help without loading the kernels
# (tests/test_cli_startup.py checks they agree)
DEFAULT_WORLDS = 200


@app.command("hint")
def hint_command(
    position: str = typer.Argument(
        ..., help="A position as `pitchsim play --json` writes a round (`-`: stdin)."
    ),
    policy: str = typer.Option(
        "pimc", "--policy", help="pimc (solve each world) or rollout (play it out)."
    ),
    worlds: int = typer.Option(
        DEFAULT_WORLDS, "--worlds", help="Deals of the hidden cards to sample."
    ),
    seed: int = SeedOpt,
    rules: str = typer.Option(
        None,
        "--rules",
        help="The rules of a position that does not carry its own (as --rules "
        "elsewhere: name=value,... or a TOML file); one that does must agree.",
    ),  # fmt: skip
    as_json: bool = JsonOpt,
) -> None:
    """Every legal card of the player to move, valued over sampled deals of the cards
    he cannot see (only what he has seen is used): the pitcher's side's points and its
    chance of making the bid, with 95% intervals, and the card to play."""
    from ..search.hint import check_hint_options, hint  # the kernels load here
    from ..search.position import read_position, read_source

    check_hint_options(policy.strip().lower(), worlds)  # before reading, and before compiling
    stated = Rules.parse(rules) if rules is not None else None
    text, name = read_source(position)
    pos = read_position(text, name, stated)
    with Progress("worlds") as bar:
        result = hint(pos, policy.strip().lower(), worlds, seed,
                      progress=lambda k, total: bar.update(k, total))  # fmt: skip
    show(result, as_json, lambda r: render(r, pos))


def _pct(p: float) -> str:
    return f"{100 * p:5.1f}%"


def render(r: Hint, pos) -> str:
    n = pos.players
    head = [f"Seat {r.seat} to play", f"{n} players, "
            + ("partnership" if pos.rules.partnership else "solo"),
            f"pitcher seat {r.pitcher}" + (f", bid {r.bid}" if r.bid else ", no bid given"),
            f"trump {suit_label(r.trump)}" if r.trump >= 0 else "trump not yet led"]  # fmt: skip
    view = pos.view()
    trick = view.tricks[-1] if view.tricks and view.tricks[-1].winner is None else None
    lines = ["  ·  ".join(head)]
    lines.append(f"Your hand: {format_cards(sort_for_display(_cards(view.hand)))}"
                 + ("   (you are on the pitcher's side)" if r.pitcher_side
                    else "   (you defend)"))  # fmt: skip
    if trick:
        on = "  ".join(f"seat {(trick.leader + i) % n} {format_card(c)}"
                       for i, c in enumerate(trick.cards))  # fmt: skip
        lines.append(f"This trick: {on}")
    elif view.tricks:
        lines.append("You lead.")
    lines.append(f"{r.policy}, {r.worlds:,} deals of the unseen cards (drawn {r.attempts:,}, "
                 f"seed {r.seed})")  # fmt: skip
    lines.append("")
    if r.bid:
        goal = f"P(bid {r.bid} made)" if r.pitcher_side else f"P(bid {r.bid} set)"
    else:
        goal = "P(>= 2)    P(>= 3)"
    lines.append(f"{'card':<6} {'pitcher side points (95%)':<27} {goal:<23} "
                 "pitcher side points vs recommended")  # fmt: skip
    for c in sorted(r.cards, key=lambda c: _rank(r, c)):
        few = c.points_ci95 is None  # too few worlds: no interval is given
        if few:
            pts = f"{c.points:4.2f} ({TOO_FEW})"
        else:
            lo, hi = max(c.points_ci95[0], 0.0), min(c.points_ci95[1], 4.0)
            pts = f"{c.points:4.2f} ({lo:4.2f}-{hi:4.2f})"
        if r.bid:
            p = c.p_at_least[r.bid - 1]
            if few:
                odds = f"{_pct(p if r.pitcher_side else 1 - p)}"
            else:
                plo, phi = c.p_ci95[r.bid - 1]
                if not r.pitcher_side:
                    p, plo, phi = 1 - p, 1 - phi, 1 - plo
                odds = f"{_pct(p)} ({_pct(plo)}-{_pct(phi)})"
        else:
            odds = f"{_pct(c.p_at_least[1])}    {_pct(c.p_at_least[2])}"
        if c.card == r.recommended:
            vs = "-"
        elif few:
            vs = f"{c.vs_best[0]:+.2f} ({TOO_FEW})"
        else:
            vs = f"{c.vs_best[0]:+.2f} ±{c.vs_best[1]:.2f}"
        lines.append(f"{format_card(c.card):<6} {pts:<27} {odds:<23} {vs}")
    lines.append("")
    why = "chance of making the bid, then points" if r.bid else "most points"
    if r.bid and not r.pitcher_side:
        why = "chance of setting the bid, then fewest points"
    elif not r.pitcher_side:
        why = "fewest points for the pitcher's side"
    lines.append(f"Play {format_card(r.recommended)} ({why}; the last column compares each "
                 "card with it on the same deals).")  # fmt: skip
    return "\n".join(lines) + "\n"


def _rank(r: Hint, c) -> tuple:
    """The policy's order: the side's chance of its bid first, then points."""
    p = c.p_at_least[r.bid - 1] if r.bid else 1.0
    first = c.card != r.recommended
    return (first, -p, -c.points) if r.pitcher_side else (first, p, c.points)


def _cards(mask: int) -> list[int]:
    return [c for c in range(52) if mask >> c & 1]
