"""``pitchsim bid-odds HAND``: make-probabilities, expected scores and a recommended bid."""

from __future__ import annotations

import textwrap
from typing import TYPE_CHECKING

import typer

from ..game.cards import format_cards
from ..game.rules import BIDS, FamilyRules, label
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
        help="Under a rule family: the levels k the tables show, e.g. 2,5,8,10 (default every "
        "level, 1 to the points the rules award; all are estimated and in --json).",
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
    if isinstance(rule_set, FamilyRules):
        compare = (compare_policy, compare_samples)
        _family(
            hand, rule_set, players, samples, seed, policy, trump, levels, threads, as_json, compare
        )
        return
    if levels is not None:
        raise InputError(
            "--levels is for the rule families (--rules FAMILY): the base game's tables "
            "always show its four levels"
        )
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
        )
    show(result, as_json, render)


def _pct(p: float) -> str:
    return f"{100 * p:5.1f}%"


def _pm(half: float, samples: int) -> str:
    """``±0.12``, or ``too few deals`` where an error from so few deals would lie."""
    return TOO_FEW if too_few(samples) else f"±{half:.2f}"


def _wrap(text: str) -> list[str]:
    return textwrap.wrap(text, WIDTH, break_on_hyphens=False)


def _bid_table(r: BidOdds, order, title: str, value) -> list[str]:
    lines = ["", title, f"{'trump':<12}" + "".join(f"{'bid ' + str(k):>9}" for k in BIDS)]
    for s in order:
        o = r.by_trump[s]
        lines.append(f"{suit_label(s):<12}" + "".join(f"{signed(value(o, k)):>9}" for k in BIDS))
    return lines


def render(r: BidOdds) -> str:

    table = "partnership" if r.rules.partnership else "solo"
    side = "the pitcher's team" if r.rules.partnership else "the pitcher"
    suits = "trump suit" if len(r.by_trump) == 1 else f"trump suit ({r.deals_played:,} in all)"
    lines = [
        f"Hand {format_cards(r.hand)}  ·  {r.players} players, {table}  ·  "
        f"{r.policy} play  ·  {r.samples:,} deals per {suits}  ·  seed {r.seed}",
        "",
        f"Chance {side} wins at least k points (95% interval)",
        f"{'trump':<12}" + "".join(f"{'k = ' + str(k):<23}" for k in BIDS),
    ]
    order = sorted(r.by_trump, key=lambda s: -r.by_trump[s].expected_score(2))
    for s in order:
        o = r.by_trump[s]
        cells = []
        for k in BIDS:
            lo, hi = o.ci95(k)
            ci = f"({TOO_FEW})" if too_few(r.samples) else f"({100 * lo:5.1f}-{100 * hi:5.1f})"
            cells.append(f"{_pct(o.p_at_least(k))} {ci}".ljust(23))
        lines.append(f"{suit_label(s):<12}" + "".join(cells))
    lines += _bid_table(
        r,
        order,
        "Expected score of bidding k (made: points won; set: minus the bid)",
        lambda o, k: o.expected_score(k),
    )
    them = "the other team wins" if r.rules.partnership else "an average opponent wins"
    lines += _bid_table(
        r,
        order,
        f"Expected margin: the score of bidding k minus what {them}",
        lambda o, k: o.expected_margin(k),
    )
    if r.compare is not None:
        lines += _compare_table(r, r.compare, order)
    lines.append("")
    if r.passing is not None:
        p = r.passing
        who = "the team" if r.rules.partnership else "this hand"
        lines += _wrap(
            f"Passing instead: as a defender {who} wins {p.expected_points:.2f} points a hand "
            f"({_pm(Z95 * p.expected_points_se, r.samples)}), against a pitcher dealt a random hand; "
            f"a pitcher who outbids you is usually stronger, so passing is likely worth less."
        )
    if not r.trump_fixed:
        share = r.chosen_trump_share.get(r.chosen_trump, 0.0)
        how = "" if share > 0.999 else f" ({100 * share:.0f}% of the time)"
        lines.append(
            f"Left to choose, the {r.policy} pitcher leads {suit_label(r.chosen_trump)}{how}."
        )
    bid, trump, e = r.recommendation
    if bid == 0:
        lines.append("Recommended: pass (no bid has a positive expected score).")
    else:
        o = r.by_trump[trump]
        se = o.expected_score_se(bid)
        lower = ", ".join(f"bid {k} {signed(o.expected_score(k))}" for k in range(bid - 1, 0, -1))
        lower = f"; lower bids expect more: {lower}" if lower else ""
        lines += _wrap(
            f"Recommended: worth bidding up to {bid} with {suit_label(trump)} as trump "
            f"(bid {bid} still expects {signed(e)} {_pm(Z95 * se, r.samples)}, margin "
            f"{signed(o.expected_margin(bid))}{lower}). Bidding more than needed never scores "
            f"more: a made bid scores the points won whatever the bid, so bid only as high as "
            f"it takes to win the auction."
        )
    return "\n".join(line.rstrip() for line in lines) + "\n"


def _compare_table(
    r: BidOdds, c: CompareOdds, order, levels=BIDS, per_bid: bool = True
) -> list[str]:
    """The second table: the same deals under the compare play model, bid by bid
    (``levels``: a rule family's levels; ``per_bid`` False: one run serves every level,
    as under a rule family, whose play policies are not told the bid)."""
    where = "at every seat" if c.seats == "every seat" else f"({c.seats})"
    aim = (
        "the search pitcher's side playing to make k and the defenders to set it"
        if c.searches
        else "(heuristic and random play ignore the bid)"
    )
    if not per_bid:
        aim = "one run for every k (the family play policies are not told the bid)"
    lines = [""]
    lines += _wrap(
        f"Under {c.policy} play {where}: the first {c.samples:,} of these deals played again, "
        f"{'once per bid k, ' if per_bid else ''}{aim}. {r.policy} → {c.policy} on those deals, and the difference "
        f"in points of percentage with its 95% interval (*: the interval excludes 0)"
    )
    lines.append(f"{'trump':<12}" + "".join(f"{'k = ' + str(k):<22}" for k in levels))
    for s in order:
        cells = []
        for k in levels:
            m = c.by_trump[s][k]
            moved = f"{100 * m.base:4.1f}→{100 * m.compare:4.1f}"
            if too_few(m.samples):  # no interval, and no star, from a handful of deals
                cells.append(f"{moved} {TOO_FEW}".ljust(22))
                continue
            lo, hi = m.difference_ci95()
            mark = "*" if lo > 0 or hi < 0 else ""
            cell = f"{moved} {100 * m.difference:+4.1f}±{100 * (hi - lo) / 2:.1f}{mark}"
            cells.append(cell.ljust(22))
        lines.append(f"{suit_label(s):<12}" + "".join(cells))
    return lines


# ---- under a rule family -----------------------------------------------------------------


def _family(
    hand, rules, players, samples, seed, policy, trump, levels, threads, as_json, compare
) -> None:
    from ..advice.family_odds import family_bid_odds  # the kernels load here

    with Progress("deals") as bar:
        result = family_bid_odds(
            hand,
            rules,
            players=players,
            samples=samples,
            seed=seed,
            policy=policy,
            trump=trump,
            levels=levels,
            threads=threads,
            progress=bar.update,
            compare_policy=compare[0],
            compare_samples=compare[1],
        )
    show(result, as_json, render_family)


def render_family(r) -> str:
    """The family tables with the levels as rows and the trump suits as columns, so
    that ten levels stay as readable as four (docs: bid-odds under a rule family)."""
    rules = r.rules
    table = "partnership" if rules.partnership else "solo"
    side = "the pitcher's team" if rules.partnership else "the pitcher"
    suits = "trump suit" if len(r.by_trump) == 1 else f"trump suit ({r.deals_played:,} in all)"
    lo_bid, top = rules.min_bid, r.max_bid
    order = sorted(r.by_trump, key=lambda s: -r.by_trump[s].expected_score(lo_bid))
    head = f"{'k':>5}  " + "".join(f"{suit_label(s):<23}" for s in order)
    lines = [
        f"Hand {format_cards(r.hand)}  ·  {label(rules)}  ·  {r.players} players, {table}  ·  "
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
    lines += [
        f"Chance {side} wins at least k points of {top} (95% interval); bids {lo_bid}-{top}",
        head,
    ]
    few = too_few(r.samples)

    def cell(o, k):
        lo, hi = o.ci95(k)
        ci = f"({TOO_FEW})" if few else f"({100 * lo:5.1f}-{100 * hi:5.1f})"
        return f"{_pct(o.p_at_least(k))} {ci}".ljust(23)

    for k in r.levels:
        lines.append(f"{k:>5}  " + "".join(cell(r.by_trump[s], k) for s in order))
    if rules.shoot:
        lines.append(f"{'shoot':>5}  " + "".join(cell(r.by_trump[s], top) for s in order))
        lines += _wrap(
            f"Shoot (shoot=true): made when the side wins all {top} points, and then it wins "
            f"the game at once; set, it scores -{top}."
        )
    bids = [k for k in r.levels if k >= lo_bid]
    them = "the other team wins" if rules.partnership else "an average opponent wins"
    for title, value in (
        ("Expected score of bidding k (made: points won; set: minus the bid)", "expected_score"),
        (f"Expected margin: the score of bidding k minus what {them}", "expected_margin"),
    ):
        if not bids:
            break
        lines += ["", title, f"{'bid':>5}  " + "".join(f"{suit_label(s):>12}" for s in order)]
        for k in bids:
            row = "".join(f"{signed(getattr(r.by_trump[s], value)(k)):>12}" for s in order)
            lines.append(f"{k:>5}  " + row)
    if not bids:
        lines += ["", f"(no level shown is a bid: bids are {lo_bid}-{top})"]
    lines.append("")
    mean, se = r.passing_points
    who = "the team" if rules.partnership else "this hand"
    lines += _wrap(
        f"Passing instead: as a defender {who} wins {mean:.2f} points a hand "
        f"({_pm(Z95 * se, r.samples)}), against a pitcher dealt a random hand; a pitcher who "
        f"outbids you is usually stronger, so passing is likely worth less."
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
        lines.append(f"Recommended: pass (no bid {lo_bid}-{top} has a positive expected score).")
    else:
        o = r.by_trump[trump]
        lines += _wrap(
            f"Recommended: worth bidding up to {bid} with {suit_label(trump)} as trump "
            f"(bid {bid} still expects {signed(e)} {_pm(Z95 * o.expected_score_se(bid), r.samples)}, "
            f"margin {signed(o.expected_margin(bid))}). A made bid scores the points won whatever "
            f"the bid, so bid only as high as it takes to win the auction."
        )
    if r.compare is not None:
        lines += _compare_table(r, r.compare, order, r.levels, per_bid=False)
    return "\n".join(line.rstrip() for line in lines) + "\n"
