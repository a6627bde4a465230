"""``pitchsim bid-odds HAND``: make-probabilities, expected scores and a recommended bid."""

from __future__ import annotations

import textwrap
from typing import TYPE_CHECKING

import typer

from ..game.cards import format_cards
from ..game.rules import label
from ..util.errors import InputError
from ..util.limits import MAX_SAMPLES
from ..util.stats import TOO_FEW, Z95, too_few
from .app import app
from .common import (
    JsonOpt,
    PartnershipOpt,
    PlayersOpt,
    PolicyOpt,
    RulesOpt,
    SeedOpt,
    ThreadsOpt,
    make_rules,
    positive,
    show,
    signed,
    suit_label,
)
from .progress import Progress

if TYPE_CHECKING:
    from ..advice.odds import BidOdds, CompareOdds

WIDTH = 100  # the tables' width: prose lines wrap to it
# pitchsim.advice.odds's defaults, for the help and checks without loading the kernels
# (tests/test_cli_startup.py checks they agree)
DEFAULT_SAMPLES = 40_000
DEFAULT_COMPARE_SAMPLES = 2_000


@app.command("bid-odds")
def bid_odds_command(
    hand: str = typer.Argument(
        ...,
        help='Six cards, e.g. "AH KH 2H 9C 7D 3S" or AhKh2h9c7d3s (under a '
        "rule family the seat's whole deal: 9 or 10 cards under deal=9, HJ/LJ the jokers).",
    ),
    players: int = PlayersOpt,
    samples: int = typer.Option(None, "--samples", help="Deals per trump suit (default 40,000)."),
    seed: int = SeedOpt,
    policy: str = PolicyOpt,
    trump: str = typer.Option(None, "--trump", help="Only this trump suit (C, D, H, S)."),
    partnership: bool = PartnershipOpt,
    rules: str = RulesOpt,
    threads: int = ThreadsOpt,
    as_json: bool = JsonOpt,
    compare_policy: str = typer.Option(
        None,
        "--compare-policy",
        help="Play the first deals again under this play model (rollout[:W], pimc[:W], any "
        "policy, or one per seat) and show how far P(make k) moves: both chances on the same "
        "deals, the difference and its 95% interval. Each bid k is a run of its own in which "
        "the search pitcher's side plays to make k and the defenders to set it.",
    ),
    levels: str = typer.Option(
        None,
        "--levels",
        help="The levels k the tables show, e.g. 2,5,8,10 (default every level, 1 to the "
        "points the rules award; all are estimated and in --json).",
    ),
    compare_samples: int = typer.Option(
        None,
        "--compare-samples",
        help=f"Deals in the --compare-policy run (default {DEFAULT_COMPARE_SAMPLES:,}, at most "
        "--samples): the first ones of each trump suit, played once per bid.",
    ),
) -> None:
    """How often HAND makes each bid 1-4 as pitcher, per trump suit, with 95% intervals
    (under a rule family: each level 1 to its point total, HAND its 6, 9 or 10 cards)."""
    positive("--samples", samples, MAX_SAMPLES)
    positive("--compare-samples", compare_samples, MAX_SAMPLES)
    if compare_samples is not None and compare_policy is None:
        raise InputError("--compare-samples needs --compare-policy (the play model to compare)")
    shown = DEFAULT_SAMPLES if samples is None else samples
    if compare_samples is not None and compare_samples > shown:
        raise InputError(
            f"--compare-samples ({compare_samples:,}) cannot exceed --samples "
            f"({shown:,}): the compare run plays the first deals again"
        )
    rule_set = make_rules(rules, partnership, players)
    from ..advice.odds import bid_odds  # the kernels load here

    with Progress("deals") as bar:
        result = bid_odds(
            hand,
            players=players,
            samples=samples,
            seed=seed,
            policy=policy,
            trump=trump,
            threads=threads,
            rules=rule_set,
            progress=bar.update,
            compare_policy=compare_policy,
            compare_samples=compare_samples,
            levels=levels,
        )
    show(result, as_json, render)


def _pct(p: float) -> str:
    return f"{100 * p:5.1f}%"


def _pm(half: float, samples: int) -> str:
    """``±0.12``, or ``too few deals`` where an error from so few deals would lie."""
    return TOO_FEW if too_few(samples) else f"±{half:.2f}"


def _wrap(text: str) -> list[str]:
    return textwrap.wrap(text, WIDTH, break_on_hyphens=False)


def _grid(r: BidOdds, order, keys, cell, down: bool, corner: str, across, fmt: str) -> list[str]:
    """Trump suits by levels: ``keys`` the (row name, level) pairs, ``cell(odds, k)``
    the text of a cell, padded by ``fmt``.  ``down``: the levels as rows and the suits as
    columns (a preset's up to 10 levels stay readable), else the suits as rows and
    ``across(name)`` heads the columns."""
    if down:
        lines = [f"{corner:>5}  " + "".join(f"{suit_label(s):{fmt}}" for s in order)]
        for name, k in keys:
            lines.append(f"{name:>5}  " + "".join(f"{cell(r.by_trump[s], k):{fmt}}" for s in order))
        return lines
    lines = [f"{'trump':<12}" + "".join(f"{across(name):{fmt}}" for name, _ in keys)]
    for s in order:
        row = "".join(f"{cell(r.by_trump[s], k):{fmt}}" for _, k in keys)
        lines.append(f"{suit_label(s):<12}" + row)
    return lines


def render(r: BidOdds) -> str:
    """The tables of :func:`~pitchsim.advice.odds.bid_odds` under any rules.  A preset
    is named, with its levels down the page; the base game keeps the layout it always
    had (``r.preset``: levels across, suits down, BIDS as its bids)."""
    rules = r.rules
    preset = r.preset
    called = rules.partner != "none"  # 12.1: the pitcher and the call's holder, one side
    table = "partnership" if rules.partnership else "solo"
    side = "the pitcher's team" if rules.partnership else "the pitcher"
    if called:
        table, side = f"partner={rules.partner}", "the pitcher's side"
    suits = "trump suit" if len(r.by_trump) == 1 else f"trump suit ({r.deals_played:,} in all)"
    lo, top = r.lowest_bid, r.max_bid
    order = sorted(r.by_trump, key=lambda s: -r.by_trump[s].expected_score(lo if preset else 2))
    named = f"{label(r.rules)}  ·  " if preset else ""
    lines = [
        f"Hand {format_cards(r.hand)}  ·  {named}{r.players} players, {table}  ·  "
        f"{r.policy} play  ·  {r.samples:,} deals per {suits}  ·  seed {r.seed}",
        "",
    ]
    if rules.deal == 9:
        lines += _wrap(
            f"The hand is the {len(r.hand)} cards dealt: trump named by the {r.policy} "
            "pitcher's policy (or the suit of each column), then every player discards "
            "non-trumps and draws as the rules say before play."
        )
        lines.append("")
    if called:
        when = "once trump is named" if rules.partner == "called" else "after the draw"
        lines += _wrap(
            f"Called partner (12.1): as pitcher this hand calls the highest trump it lacks "
            f"{when}; the pitcher's side is this hand and whoever holds that card (the "
            "hand alone when nobody else does, 12.1.5), and its points are the side's "
            "pooled points, which each of the two scores (12.1.6, 12.1.7)."
        )
        lines.append("")
    of = f" of {top} (95% interval); bids {lo}-{top}" if preset else " (95% interval)"
    lines.append(f"Chance {side} wins at least k points{of}")
    few = too_few(r.samples)

    def chance(o, k):
        lo, hi = o.ci95(k)
        ci = f"({TOO_FEW})" if few else f"({100 * lo:5.1f}-{100 * hi:5.1f})"
        return f"{_pct(o.p_at_least(k))} {ci}"

    keys = [(str(k), k) for k in r.levels] + ([("shoot", top)] if rules.shoot else [])
    lines += _grid(r, order, keys, chance, preset, "k", lambda k: f"k = {k}", "<23")
    if rules.shoot:
        lines += _wrap(
            f"Shoot (shoot=true): made when the side wins all {top} points, and then it wins "
            f"the game at once; set, it scores -{top}."
        )
    bids = [(str(k), k) for k in r.levels if k >= lo]
    them = "the other team wins" if rules.partnership else "an average opponent wins"
    if called:
        them = "the other side wins (each of the others scores it, 12.1.7)"
    for title, value in (
        ("Expected score of bidding k (made: points won; set: minus the bid)", "expected_score"),
        (f"Expected margin: the score of bidding k minus what {them}", "expected_margin"),
    ):
        if not bids:
            lines += ["", f"(no level shown is a bid: bids are {lo}-{top})"]
            break
        lines += ["", title]
        cell = lambda o, k, v=value: signed(getattr(o, v)(k))  # noqa: E731
        lines += _grid(
            r, order, bids, cell, preset, "bid", lambda k: f"bid {k}", ">12" if preset else ">9"
        )
    if r.compare is not None and not preset:
        lines += _compare_table(r, r.compare, order)
    lines.append("")
    k = getattr(rules, "kitty", 0)
    if k:  # 12.2.2
        lines += _wrap(
            f"The kitty: as pitcher this hand also takes the kitty's {k} cards, unknown here "
            f"(dealt from the rest of the pack), and puts down {k} by the rules (12.2.2)."
        )
    if r.passing is not None:
        p = r.passing
        who = "the team" if rules.partnership else "this hand"
        if called:  # 12.1.6
            who = "this hand's side (the others pooled; the pitcher's when it holds his call)"
        lines += _wrap(
            f"Passing instead: as a defender {who} wins {p.expected_points:.2f} points a hand "
            f"({_pm(Z95 * p.expected_points_se, r.samples)}), against a pitcher dealt a random hand; "
            f"a pitcher who outbids you is usually stronger, so passing is likely worth less."
        )
    if not r.trump_fixed:
        share = r.chosen_trump_share.get(r.chosen_trump, 0.0)
        how = "" if share > 0.999 else f" ({100 * share:.0f}% of the time)"
        verb = "names" if rules.trump == "named" else "leads"
        lines.append(
            f"Left to choose, the {r.policy} pitcher {verb} {suit_label(r.chosen_trump)}{how}."
        )
    bid, trump, e = r.recommendation
    if bid == 0:
        span = f" {lo}-{top}" if preset else ""
        lines.append(f"Recommended: pass (no bid{span} has a positive expected score).")
    else:
        o = r.by_trump[trump]
        lower = ", ".join(
            f"bid {k} {signed(o.expected_score(k))}" for k in range(bid - 1, lo - 1, -1)
        )
        lower = f"; lower bids expect more: {lower}" if lower and not preset else ""
        made = "A made bid" if preset else "Bidding more than needed never scores more: a made bid"
        lines += _wrap(
            f"Recommended: worth bidding up to {bid} with {suit_label(trump)} as trump "
            f"(bid {bid} still expects {signed(e)} {_pm(Z95 * o.expected_score_se(bid), r.samples)}, "
            f"margin {signed(o.expected_margin(bid))}{lower}). {made} scores "
            f"the points won whatever the bid, so bid only as high as it takes to win the auction."
        )
    if r.compare is not None and preset:
        lines += _compare_table(r, r.compare, order)
    return "\n".join(line.rstrip() for line in lines) + "\n"


def _compare_table(r: BidOdds, c: CompareOdds, order) -> list[str]:
    """The same deals under the compare play model, level by level: one run per level,
    the search pitcher's side aiming at k."""
    where = "at every seat" if c.seats == "every seat" else f"({c.seats})"
    if c.searches:
        aim = "the search pitcher's side playing to make k and the defenders to set it"
    else:
        aim = "(heuristic and random play ignore the bid)"
    lines = [""]
    lines += _wrap(
        f"Under {c.policy} play {where}: the first {c.samples:,} of these deals played again, "
        f"once per bid k, {aim}. {r.policy} → {c.policy} on those "
        f"deals, and the difference in points of percentage with its 95% interval (*: the "
        f"interval excludes 0)"
    )

    def cell(o, k):
        m = c.by_trump[o.suit][k]
        moved = f"{100 * m.base:4.1f}→{100 * m.compare:4.1f}"
        if too_few(m.samples):  # no interval, and no star, from a handful of deals
            return f"{moved} {TOO_FEW}"
        lo, hi = m.difference_ci95()
        mark = "*" if lo > 0 or hi < 0 else ""
        return f"{moved} {100 * m.difference:+4.1f}±{100 * (hi - lo) / 2:.1f}{mark}"

    keys = [(str(k), k) for k in r.levels]
    return lines + _grid(r, order, keys, cell, False, "k", lambda k: f"k = {k}", "<22")
