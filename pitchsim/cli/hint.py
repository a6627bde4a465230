"""``pitchsim hint VIEW.json | POSITION.json | --hand ...``: which card now.

A player's view (``docs/view.md``: one seat's own hand, the calls, the tricks) or its
short form typed at the table (``--hand``, ``--calls``, ``--tricks``:
``pitchsim.game.short_view``) values the cards of that seat from what it knows, on
worlds that fit the calls heard; a position (every hand as dealt, ``docs/solve.md``)
values those of the player to move from his view of the play only (under every preset,
as that seat's view: ``search.hint.position_knowledge``).
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import typer

from ..game.cards import format_card, format_cards, sort_for_display
from ..game.rules import Rules
from ..util.errors import InputError
from ..util.stats import TOO_FEW
from .app import app
from .common import JsonOpt, PartnershipOpt, SeedOpt, make_rules, show, suit_label
from .progress import Progress

if TYPE_CHECKING:
    from ..search.hint import Hint

# pitchsim.search.hint.DEFAULT_WORLDS, DEFAULT_MODEL, DEFAULT_TIME and DEFAULT_POLICY, for
# the help without loading the kernels (tests/test_cli_startup.py checks they agree)
DEFAULT_WORLDS = 200
DEFAULT_MODEL = "odds"
DEFAULT_TIME = 4.0
DEFAULT_POLICY = {2: "pimc", 3: "pimc", 4: "pimc", 5: "rollout", 6: "rollout", 7: "rollout"}


def _policy_help() -> str:
    by = {}
    for n, p in DEFAULT_POLICY.items():
        by.setdefault(p, []).append(n)
    parts = [f"{p} at {min(ns)}-{max(ns)} players" for p, ns in by.items()]
    return (
        "pimc (solve each world), epimc (pimc with your next card one for the worlds you "
        "cannot tell apart then) or rollout (play it out); default under auction-pitch "
        + ", ".join(parts)
        + ", under the other presets rollout."
    )


# The short form's words for the discard and draw (4.8, 12.8; ``short_view``).
DRAW_OPTIONS = ("--discarded", "--drawn", "--burnt", "--shown", "--robbed", "--put-down")

_SHORT = (
    "--players",
    "--dealer",
    "--seat",
    "--calls",
    "--tricks",
    "--scores",
    "--partnership",
    "--target",
    "--trump",
    "--kitty",
    "--called",
    "--partner",
    *DRAW_OPTIONS,
)


@app.command("hint")
def hint_command(
    source: str = typer.Argument(
        None,
        help="A player's view (docs/view.md) or a position as `pitchsim play --json` writes "
        "a round (`-`: stdin); or give --hand and the short form instead.",
    ),
    hand: str = typer.Option(
        None, "--hand", help='Short form: your six cards as dealt, e.g. "AH KH 2H 9C 7D 3S".'
    ),
    players: int = typer.Option(None, "--players", "-n", help="Short form: players (default 4)."),
    dealer: int = typer.Option(None, "--dealer", help="Short form: the dealer's seat."),
    seat: int = typer.Option(None, "--seat", help="Short form: your seat (default: whose turn)."),
    calls: str = typer.Option(
        None,
        "--calls",
        help='Short form: every call from the dealer\'s left, e.g. "pass,2,pass,3".',
    ),
    tricks: str = typer.Option(
        None,
        "--tricks",
        help='Short form: the tricks, ";" between them, cards from the leader on; '
        '"S:" first names the leader (checked), e.g. "3: 6D 2C 9D 4D; 4C AC".',
    ),
    scores: str = typer.Option(
        None, "--scores", help="Short form: game scores before the hand, per seat (or team)."
    ),
    rules: str = typer.Option(
        None,
        "--rules",
        help="Short form: the rules (name=value,... or a TOML file). With a position that "
        "does not carry its rules: its rules (one that does must agree).",
    ),
    partnership: bool = PartnershipOpt,
    target: int = typer.Option(None, "--target", help="Short form: points to win."),
    trump: str = typer.Option(
        None,
        "--trump",
        help="Short form, a preset that names trump (smear, five-point): the suit named, "
        "C, D, H or S.",
    ),
    kitty: str = typer.Option(
        None,
        "--kitty",
        help="Short form, under kitty=N when you pitched: the kitty's N cards you took "
        '(12.2.2), e.g. "TH 7H 4D"; what you put down is worked out.',
    ),
    called: str = typer.Option(
        None,
        "--called",
        help="Short form, under partner=called|announced once trump is named: the card the "
        'pitcher called (12.1.2), e.g. "AS".',
    ),
    partner: int = typer.Option(
        None,
        "--partner",
        help="Short form, under partner=announced: the seat holding the called card, who "
        "said so (12.1.4; the pitcher's own if nobody). Under called it is worked out.",
    ),
    discarded: str = typer.Option(
        None,
        "--discarded",
        help="Short form, under a discard and draw once trump is named (4.8, 12.8): how "
        'many cards each seat put down, seat by seat, yours included, e.g. "3,5,0,2".',
    ),
    drawn: str = typer.Option(
        None,
        "--drawn",
        help="Short form, under a discard and draw: the cards you drew, in order (the "
        "stock first, then the discards, 4.8 step 4).",
    ),
    burnt: str = typer.Option(
        None,
        "--burnt",
        help="Short form, under discard=non-trump: the trumps each other seat burnt face up "
        '(4.8 step 2), e.g. "1: 3H 4H; 2: 5H"; yours are worked out.',
    ),
    shown: str = typer.Option(
        None,
        "--shown",
        help="Short form, under discards=shown: the cards each other seat put down face up "
        '(12.9), e.g. "1: 2C 3D; 2: 9S".',
    ),
    robbed: str = typer.Option(
        None,
        "--robbed",
        help="Short form, when you robbed (4.8 step 5; the dealer under rob=dealer, 12.7): "
        "the stock's cards you took.",
    ),
    put_down: str = typer.Option(
        None,
        "--put-down",
        help="Short form: the cards you chose to put down, when the choice was yours: "
        "after robbing (4.8.7), after taking the kitty (12.2.2), or coming down to 6 under "
        "discard=choice|draw (12.8.1, 12.8.2). Left out: pitchsim's own choice is assumed.",
    ),
    policy: str = typer.Option(None, "--policy", help=_policy_help()),
    worlds: int = typer.Option(
        DEFAULT_WORLDS,
        "--worlds",
        help="The most deals of the hidden cards to sample and value.",
    ),
    time: float = typer.Option(
        DEFAULT_TIME,
        "--time",
        help="Seconds the search may take: it stops when they are spent, when the "
        "recommended card is separated from every other, or when --worlds are valued "
        "(loading or compiling the kernels comes first, off the clock).",
    ),
    all_worlds: bool = typer.Option(
        False,
        "--all-worlds",
        help="Value all of --worlds (time allowing), even once the recommended card is separated.",
    ),
    model: str = typer.Option(
        None,
        "--model",
        help="A view's worlds fit the calls as this bidding policy makes them (default "
        f"{DEFAULT_MODEL} under auction-pitch; under the other presets the calls are fitted "
        "when a model is named).",
    ),
    ignore_calls: bool = typer.Option(
        False, "--ignore-calls", help="A view's worlds ignore the calls (fit the play only)."
    ),
    read_play: float = typer.Option(
        None,
        "--read-play",
        metavar="RHO",
        help="A view's worlds also read the play: each other seat taken to play the "
        "heuristic's card, a world kept with chance RHO (0 < RHO <= 1) to the power of "
        "the plays it explains otherwise (docs/search.md).",
    ),
    game: bool = typer.Option(
        False,
        "--game",
        help="A view: value each card by the game on this hand, P(your side wins "
        "it on this hand) minus P(another side does), from the view's scores (rollout; "
        "the practice coach's measure when more than the pitcher's side can go out).",
    ),
    seed: int = SeedOpt,
    as_json: bool = JsonOpt,
) -> None:
    """Every legal card of the player to move, valued over sampled deals of the cards
    he cannot see (only what he has seen is used; from a view, the worlds also fit the
    calls heard): the pitcher's side's points and its chance of making the bid, with
    95% intervals, and the card to play."""
    if hand is None and source is None:  # before anything loads
        raise InputError("give a view or position file (`-`: stdin), or your cards with --hand")
    from ..game.short_view import short_view
    from ..game.view import View
    from ..search.hint import (  # the kernels load here
        check_hint_options,
        check_read_play,
        hint,
        hint_view,
    )
    from ..search.position import parse_position, read_source
    from ..util.jsonio import parse_json

    given = {
        "--players": players,
        "--dealer": dealer,
        "--seat": seat,
        "--calls": calls,
        "--tricks": tricks,
        "--scores": scores,
        "--rules": rules,
        "--partnership": partnership or None,
        "--target": target,
        "--trump": trump,
        "--kitty": kitty,
        "--called": called,
        "--partner": partner,
        "--discarded": discarded,
        "--drawn": drawn,
        "--burnt": burnt,
        "--shown": shown,
        "--robbed": robbed,
        "--put-down": put_down,
    }
    if policy is not None:
        policy = policy.strip().lower()
    check_hint_options(policy or "pimc", worlds, time)  # before reading, and before compiling
    check_read_play(read_play)
    if model is not None and ignore_calls:  # (the library names a model it does not fit)
        raise InputError(
            f"--model {model} fits the worlds to the calls heard and --ignore-calls ignores "
            "them: give one"
        )
    separate = not all_worlds
    if hand is None:
        if source is None:
            raise InputError("give a view or position file (`-`: stdin), or your cards with --hand")
        extra = [k for k in _SHORT if given[k] is not None]
        if extra:
            raise InputError(
                f"{extra[0]} belongs to the short form: give --hand with it, or "
                "put it in the view file"
            )
        text, name = read_source(source)
        doc = parse_json(text, name)
        if isinstance(doc, dict) and "hands" not in doc and "hand" in doc:
            if rules is not None:
                raise InputError("--rules: a view carries its rules; leave --rules out")
            view = View.from_json(doc, "hint")
        else:
            if isinstance(doc, list):
                raise InputError(f"{name} holds a list; give one view or position")
            if model is not None or ignore_calls:
                raise InputError(
                    "--model and --ignore-calls are for views: a position has no calls"
                )
            if read_play is not None:
                raise InputError("--read-play is for a view: give the seat's view (docs/view.md)")
            if game:
                raise InputError("--game is for a view: a position has no scores")
            pos = parse_position(doc, Rules.parse(rules) if rules is not None else None)
            with Progress("worlds") as bar:
                result = hint(
                    pos,
                    policy,
                    worlds,
                    seed,
                    progress=lambda k, total: bar.update(k, total),
                    time=time,
                    separate=separate,
                )
            _say_warm(result)
            held, line = pos.hands[pos.to_play], _position_trick_line(pos)
            show(
                result,
                as_json,
                lambda r: render(r, pos.players, pos.rules.partnership, held, line),
            )
            return
    else:
        if source is not None:
            raise InputError("give a view file or --hand, not both")
        if dealer is None:
            raise InputError("--dealer: the short form needs the dealer's seat")
        n = 4 if players is None else players
        if not 2 <= n <= 7:
            raise InputError(f"--players must be 2-7, not {n}")
        rule_set = make_rules(rules, partnership, n, target)
        words = {k: given[k] for k in DRAW_OPTIONS}
        view = short_view(
            hand, n, dealer, calls, tricks, seat, scores, rule_set, trump, kitty, called,
            partner, words,
        )  # fmt: skip
    with Progress("worlds") as bar:
        result = hint_view(
            view,
            policy,
            worlds,
            seed,
            model,
            not ignore_calls,
            progress=lambda k, total: bar.update(k, total),
            time=time,
            separate=separate,
            game=game,
            read_play=read_play,
        )
    _say_warm(result)
    line = _trick_line(view)
    show(
        result,
        as_json,
        lambda r: render(r, view.players, view.partnership, view.held, line),
    )


def _trick_line(view) -> str:
    """The trick in progress as ``render`` shows it (seats out under follow=only are
    skipped, so each card is named with its seat), or "You lead."."""
    from ..table.decide import trick_over

    last = view.tricks[-1] if view.tricks else None
    if last is not None and not trick_over(view, last):
        on = "  ".join(
            f"seat {last.seat_of(i, view.players)} {format_card(c)}"
            for i, c in enumerate(last.cards)
        )
        return f"This trick: {on}"
    return "You lead."


def _position_trick_line(pos) -> str:
    """A preset position's trick in progress, each card with its seat, or "You lead."."""
    if not pos.trick:
        return "You lead."
    on = "  ".join(
        f"seat {s} {format_card(c)}" for s, c in zip(pos.trick_seats, pos.trick, strict=True)
    )
    return f"This trick: {on}"


def _say_warm(r: Hint) -> None:
    """Compiling is off the clock: say so, and how long it took."""
    seconds, compiled = r.warm
    if compiled:
        print(
            f"pitchsim: hint: the kernels compiled in {seconds:.1f} s, before the "
            f"{r.time:g} s clock started",
            file=sys.stderr,
            flush=True,
        )


def _pct(p: float) -> str:
    return f"{100 * p:5.1f}%"


def render(r: Hint, n: int, partnership: bool, hand: int, trick_line: str) -> str:
    """The hint as text: ``hand`` the cards held, ``trick_line`` the trick in progress in
    words (each card with its seat), or "You lead."."""
    bid = f"shoot ({r.bid})" if r.shoot else f"bid {r.bid}"
    head = [
        f"Seat {r.seat} to play",
        (f"{r.rules}, " if r.rules else "") + f"{n} players, "
        + ("partnership" if partnership else "solo"),
        f"pitcher seat {r.pitcher}" + (f", {bid}" if r.bid else ", no bid given"),
        f"trump {suit_label(r.trump)}" if r.trump >= 0 else "trump not yet led",
    ]  # fmt: skip
    lines = ["  ·  ".join(head)]
    lines.append(
        f"Your hand: {format_cards(sort_for_display(_cards(hand)))}"
        + ("   (you are on the pitcher's side)" if r.pitcher_side else "   (you defend)")
    )
    lines.append(trick_line)
    lines.append(
        f"{r.policy}{_why_policy(r, n)}, {r.worlds:,} deals of the unseen cards valued "
        f"(at most {r.worlds_max:,}; drawn {r.attempts:,}, seed {r.seed})"
    )
    if r.auction is not None:
        lines.append(f"Calls: {r.auction.note}.")
    if r.play is not None:
        lines.append(f"Play: {r.play.note}.")
    lines.append(_stop_line(r))
    if r.fallback:
        lines.append(f"Fallback: {r.fallback}.")
    lines.append("")
    unit, width = ("pitcher side points", 27) if r.objective is None else ("value", 24)
    goal = _goal(r)
    lines.append(
        f"{'card':<6} {unit + ' (95%)':<{width}} "
        + ("" if goal is None else f"{goal:<23} ")
        + f"{unit} vs recommended"
    )
    for c in sorted(r.cards, key=lambda c: _rank(r, c)):
        few = c.points_ci95 is None  # too few worlds: no interval is given
        if c.card == r.recommended:
            vs = "-"
        elif few:
            vs = f"{c.vs_best[0]:+.2f} ({TOO_FEW})"
        else:
            vs = f"{c.vs_best[0]:+.2f} ±{c.vs_best[1]:.2f}"
        odds = "" if goal is None else f"{_odds(r, c):<23} "
        lines.append(f"{format_card(c.card):<6} {_mean(r, c):<{width}} {odds}{vs}")
    lines.append("")
    if r.objective is not None:
        why = "the highest value"
        lines.append(f"Value: {r.objective}.")
    elif r.bid and not r.pitcher_side:
        why = "chance of setting the bid, then fewest points"
    elif r.bid:
        why = "chance of making the bid, then points"
    else:
        why = "most points" if r.pitcher_side else "fewest points for the pitcher's side"
    lines.append(
        f"Play {format_card(r.recommended)} ({why}; the last column compares each "
        "card with it on the same deals)."
    )
    return "\n".join(lines) + "\n"


def _goal(r: Hint) -> str | None:
    """The chances column's title (None: an objective has none)."""
    if r.objective is not None:
        return None
    if r.bid:
        return f"P(bid {r.bid} made)" if r.pitcher_side else f"P(bid {r.bid} set)"
    return "P(>= 2)    P(>= 3)"


def _mean(r: Hint, c) -> str:
    """A card's mean and 95% interval: points within 0 to the hand's most; a value
    (an objective's) signed."""
    if r.objective is not None:
        if c.points_ci95 is None:
            return f"{c.points:+6.2f} ({TOO_FEW})"
        return f"{c.points:+6.2f} ({c.points_ci95[0]:+.2f} to {c.points_ci95[1]:+.2f})"
    if c.points_ci95 is None:
        return f"{c.points:4.2f} ({TOO_FEW})"
    lo, hi = max(c.points_ci95[0], 0.0), min(c.points_ci95[1], float(r.max_points))
    return f"{c.points:4.2f} ({lo:4.2f}-{hi:4.2f})"


def _odds(r: Hint, c) -> str:
    """The side's chance of its bid (made or set) with its interval, or of 2 and 3."""
    if not r.bid:
        return f"{_pct(c.p_at_least[1])}    {_pct(c.p_at_least[2])}"
    p = c.p_at_least[r.bid - 1]
    if c.p_ci95 is None:
        return f"{_pct(p if r.pitcher_side else 1 - p)}"
    plo, phi = c.p_ci95[r.bid - 1]
    if not r.pitcher_side:
        p, plo, phi = 1 - p, 1 - phi, 1 - plo
    return f"{_pct(p)} ({_pct(plo)}-{_pct(phi)})"


def _why_policy(r: Hint, n: int) -> str:
    if r.objective is not None:  # a preset's rollout: its objective is the game's score
        return " (every seat plays on by the family heuristic)"
    if not r.default_policy:
        return ""
    if r.policy == "pimc":
        return f" (the default at {n} players)"
    return f" (the default at {n} players: pimc is dearer here and measured no stronger)"


def _stop_line(r: Hint) -> str:
    """Why the search stopped, and what that means for another run."""
    if r.stop == "separated":
        ties = ""
        if r.ties:
            same = ", ".join(format_card(c) for c in r.ties)
            ties = f" (tied with {same}: the same points in every world)"
        return (
            f"Stopped: separated -- the recommended card is ahead of every other{ties}, "
            "at a 5% error rate; the same seed gives the same answer."
        )
    if r.stop == "stopped by the clock":
        dropped = ""
        if r.dropped:
            dropped = " (the world under way left unsolved, not counted)"
        return (
            f"Stopped by the clock ({r.time:g} s){dropped}: the one answer that can differ "
            f"between runs; --worlds {r.asked} with the same seed gives this one."
        )
    budget = "" if r.time is None else f" within {r.time:g} s"
    return f"Stopped: all worlds done{budget}; the same seed gives the same answer."


def _rank(r: Hint, c) -> tuple:
    """The policy's order: the side's chance of its bid first, then points."""
    p = c.p_at_least[r.bid - 1] if r.bid and c.p_at_least else 1.0
    first = c.card != r.recommended
    up = r.pitcher_side or r.objective is not None  # an objective is the seat's own
    return (first, -p, -c.points) if up else (first, p, c.points)


def _cards(mask: int) -> list[int]:
    from ..game.cards import cards_of  # the jokers (52, 53) too: a family hand may hold them

    return cards_of(mask)
