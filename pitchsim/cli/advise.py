"""``pitchsim advise HAND``: which call to make from this seat, after these calls, at
this score."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import typer

from ..game.cards import SUIT_SYMBOLS, format_cards
from ..util.errors import InputError
from ..util.limits import MAX_ADVISE_SAMPLES, MAX_ADVISE_TIME, check_seconds
from ..util.stats import TOO_FEW
from .app import app
from .common import (
    JsonOpt,
    PartnershipOpt,
    PlayersOpt,
    RulesOpt,
    SeedOpt,
    ThreadsOpt,
    given_flags,
    make_rules,
    positive,
    show,
    suit_label,
)
from .progress import Progress

if TYPE_CHECKING:
    from ..advice.advise import Advice

# pitchsim.advice.advise.DEFAULT_MODEL, for the help without loading the kernels
# (tests/test_cli_startup.py checks they agree)
DEFAULT_MODEL = "odds"


@app.command("advise")
def advise_command(
    hand: str = typer.Argument(
        ...,
        help='Your cards, e.g. "AH KH 2H 9C 7D 3S" (9 under ten-point, jokers HJ LJ); or a player\'s view of the auction '
        "(a JSON file, docs/view.md; `-`: stdin), which gives the table, calls and scores.",
    ),
    players: int = PlayersOpt,
    seat: int = typer.Option(None, "--seat", help="Your seat (0 .. players-1, clockwise)."),
    dealer: int = typer.Option(None, "--dealer", help="The dealer's seat."),
    calls: str = typer.Option(
        None,
        "--calls",
        help="The calls before yours, from the dealer's left: pass, a bid (1-4 in "
        "auction-pitch; the preset's range under --rules) or shoot, e.g. 2,pass.",
    ),
    scores: str = typer.Option(
        None, "--scores", help="Game scores per seat, e.g. 3,5,0,6 (default all 0)."
    ),
    target: int = typer.Option(None, "--target", help="Points to win (default: the rules', 7)."),
    hands_played: int = typer.Option(
        None,
        "--hands-played",
        help="Under hands=N: the hands counted before this one (default 0); the game "
        "ends after the hands left, the highest total winning.",
    ),
    partnership: bool = PartnershipOpt,
    rules: str = RulesOpt,
    model: str = typer.Option(
        DEFAULT_MODEL,
        "--model",
        help="The strategy the others are taken to play, bidding+play (default odds).",
    ),
    play: str = typer.Option(None, "--play", help="Play policy instead of the model's."),
    samples: int = typer.Option(
        None, "--samples", help="Deals that fit the calls to play out (default 6,000)."
    ),
    time: float = typer.Option(
        None,
        "--time",
        help="Seconds to answer in (after compiling): stop early once the best call is "
        "ahead by more than its error, or when the time is up (default: no clock).",
    ),
    search_correction: bool = typer.Option(
        True,
        "--search-correction/--model-figures",
        help="Where defenders who search were measured to set the model's bids more "
        "often than its own (auction-pitch at 5 players, reports/advisor_calibration.md), "
        "P(make) and what follows are corrected for them (default); --model-figures: "
        "the model's own figures.",
    ),
    seed: int = SeedOpt,
    threads: int = ThreadsOpt,
    as_json: bool = JsonOpt,
) -> None:
    """Your best call at the table: every legal call played out to the end of the game
    in deals that fit the calls heard, with 95% intervals."""
    positive("samples", samples, MAX_ADVISE_SAMPLES)
    check_seconds("--time", time, MAX_ADVISE_TIME)
    options = dict(
        model=model,
        play=play,
        samples=samples,
        seed=seed,
        threads=threads,
        time=time,
        search_correction=search_correction,
    )
    if hand.strip() == "-" or hand.strip().lower().endswith(".json") or Path(hand).is_file():
        extra = given_flags(  # given at all: --players 4 beside a 5-player view too
            "players", "seat", "dealer", "calls", "scores", "target", "hands_played",
            "partnership", "rules",
        )  # fmt: skip
        if extra:
            raise InputError(
                f"{extra[0]} comes from the view: give a hand with it, or put it in the view file"
            )
        from ..advice.advise import advise_view  # the kernels load here
        from ..game.view import View
        from ..util.jsonio import read_json

        view = View.from_json(read_json(hand, None), "advise")
        with Progress("deals") as bar:
            result = advise_view(view, progress=bar.update, **options)
        show(result, as_json, render)
        return
    for name, value in (("--seat", seat), ("--dealer", dealer)):
        if value is None:
            raise InputError(f"{name} is needed with a hand (a view file gives it)")
    rule_set = make_rules(rules, partnership, players, target)  # --target vs --rules target=
    from ..advice.advise import advise  # the kernels load here

    with Progress("deals") as bar:
        result = advise(
            hand,
            players=players,
            seat=seat,
            dealer=dealer,
            calls=calls,
            scores=scores,
            target=None,
            rules=rule_set,
            hands_played=hands_played,
            progress=bar.update,
            **options,
        )
    show(result, as_json, render)


def _signed(x: float) -> str:
    return f"{0.0 if abs(x) < 0.005 else x:+.2f}"  # no "-0.00"


def _pct(p: float) -> str:
    return f"{100 * p:.0f}%" if p == p else "-"


def _range(lo: float, hi: float, pct: bool = True) -> str:
    if pct:
        return f"{100 * lo:.0f}-{100 * hi:.0f}%"
    return f"{lo:+.2f}..{hi:+.2f}"


def _heard(r: Advice) -> str:
    if not r.calls:
        return "you call first"
    parts = []
    for i, c in enumerate(r.calls):
        seat = (r.dealer + 1 + i) % r.players
        name = r.call_name(c)
        parts.append(
            f"seat {seat} {'passed' if c == 0 else name + 'ed' if name == 'shoot' else 'bid ' + name}"
        )
    return ", ".join(parts)


def _clock(r: Advice) -> str:
    from ..advice.advise import CLOCK, SEPARATED

    why = {
        SEPARATED: "separated: the best call is ahead of every other by more than its error",
        CLOCK: "stopped by the clock; another run may stop at a different count (the clock "
        "is the one thing that varies from run to run: the same seed gives the same deals)",
    }.get(r.stopped, "all deals done")
    return (
        f"Clock: {r.time_budget:g} s (kernels compiled before it started), {r.seconds:.1f} s "
        f"used: {r.samples:,} deals, {why}."
    )


def render(r: Advice) -> str:
    from ..game.rules import label

    call_name = r.call_name
    table = "partnership" if r.rules.partnership else "solo"
    scores = ",".join(str(s) for s in r.scores)
    left = r.hands_left
    goal = f"target {r.target}" if left is None else f"{left} of the game's hands left"
    lines = [
        f"Hand {format_cards(r.hand, sort=True)}  ·  seat {r.seat} of {r.players} ({table}), "
        f"dealer {r.dealer}  ·  {_heard(r)}",
        f"Rules {label(r.rules)}  ·  scores {scores}, {goal}  ·  others modelled as {r.model}  ·  "
        f"{r.samples:,} deals fit the calls ({100 * r.acceptance_rate:.1f}% of "
        f"{r.tried:,} dealt)  ·  seed {r.seed}",
        "",
        f"{'call':<12}{'win game':>9} {'(95%)':<9}{'you pitch':>10}{'made':>7}"
        f"{'hand score':>12}{'margin':>9}",
    ]
    for c, a in sorted(r.by_call.items(), key=lambda kv: -kv[1].p_win_game.value):
        label = a.label + (f" {SUIT_SYMBOLS[a.trump]}" if a.trump is not None else "")
        mark = " <" if c == r.recommended_call else ""
        ci = "-" if r.too_few_deals else _range(*a.p_win_game.ci95)
        lines.append(
            f"{label:<12}{_pct(a.p_win_game.value):>9} {ci:<9}"
            f"{_pct(a.p_pitcher.value):>10}{_pct(a.p_made.value):>7}"
            f"{_signed(a.expected_score.value):>12}{_signed(a.expected_margin.value):>9}{mark}"
        )
    lines.append("")
    best = r.by_call[r.recommended_call]
    what = "pass" if r.recommended_call == 0 else f"bid {best.label}"
    if best.trump is not None:
        what += f" with {suit_label(best.trump)} as trump"
    if r.difference is None:
        lines.append(f"Recommended: {what} (your only legal call).")
    elif r.too_few_deals:  # no interval from a handful of deals, and no verdict
        lines.append(
            f"Recommended: {what}, the cautious call: {TOO_FEW} ({r.samples}) to tell it from "
            f"{call_name(r.runner_up)}; either is fine as far as these deals show."
        )
    else:
        d = r.difference
        if r.either_is_fine:
            verdict = "inside the error: either is fine, and this is the cautious call"
        else:
            verdict = "more than the error"
        lines.append(
            f"Recommended: {what}: wins the game {_pct(best.p_win_game.value)}, "
            f"{100 * d.value:+.1f} percentage points over {call_name(r.runner_up)} "
            f"(95% {100 * d.ci95[0]:+.1f} to {100 * d.ci95[1]:+.1f}: {verdict})."
        )
    if r.time_budget is not None:
        lines += ["", _clock(r)]
    lines += ["", "If you pitch: chance of taking at least k points with each trump suit"]
    lines.append(f"{'trump':<12}" + "".join(f"{'k = ' + str(k):>8}" for k in r.levels))
    order = sorted(r.by_suit, key=lambda s: -r.by_suit[s].expected_score(2))
    for s in order:
        o = r.by_suit[s]
        lines.append(
            f"{suit_label(s):<12}" + "".join(f"{_pct(o.p_make(k).value):>8}" for k in r.levels)
        )
    lines.append("")
    lines.append(
        "win game: P(your side wins the game) if you make that call"
        + (" (the highest total after the last hand)" if left is not None else "")
        + "; you pitch: you (or your "
        "partner) become the pitcher; made: of those hands; margin: your hand score minus "
        + ("the other team's." if r.rules.partnership else "the average opponent's.")
    )
    lines += [f"Note: {n}." for n in r.notes]
    return "\n".join(line.rstrip() for line in lines) + "\n"
