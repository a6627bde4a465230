"""``pitchsim bid-odds HAND``: make-probabilities, expected scores and a recommended bid."""

from __future__ import annotations

import typer

from ..cards import format_cards
from ..limits import MAX_SAMPLES
from ..odds import BIDS, BidOdds, bid_odds
from . import app
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
    suit_label,
)
from .progress import Progress


@app.command("bid-odds")
def bid_odds_command(
    hand: str = typer.Argument(..., help='Six cards, e.g. "AH KH 2H 9C 7D 3S" or AhKh2h9c7d3s.'),
    players: int = PlayersOpt,
    samples: int = typer.Option(None, "--samples", help="Deals per trump suit (default 40,000)."),
    seed: int = SeedOpt,
    policy: str = PolicyOpt,
    trump: str = typer.Option(None, "--trump", help="Only this trump suit (C, D, H, S)."),
    partnership: bool = PartnershipOpt,
    rules: str = RulesOpt,
    threads: int = ThreadsOpt,
    as_json: bool = JsonOpt,
) -> None:
    """How often HAND makes each bid 1-4 as pitcher, per trump suit, with 95% intervals."""
    positive("--samples", samples, MAX_SAMPLES)
    rule_set = make_rules(rules, partnership, players)
    with Progress("deals") as bar:
        result = bid_odds(hand, players=players, samples=samples, seed=seed, policy=policy,
                          trump=trump, threads=threads, rules=rule_set, progress=bar.update)  # fmt: skip
    show(result, as_json, render)


def _pct(p: float) -> str:
    return f"{100 * p:5.1f}%"


def render(r: BidOdds) -> str:
    table = "partnership" if r.rules.partnership else "solo"
    side = "the pitcher's team" if r.rules.partnership else "the pitcher"
    lines = [
        f"Hand {format_cards(r.hand)}  ·  {r.players} players, {table}  ·  "
        f"{r.policy} play  ·  {r.samples:,} deals per trump suit  ·  seed {r.seed}",
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
            cells.append(f"{_pct(o.p_at_least(k))} ({100 * lo:5.1f}-{100 * hi:5.1f})".ljust(23))
        lines.append(f"{suit_label(s):<12}" + "".join(cells))
    lines += [
        "",
        "Expected score of bidding k (made: points won; set: minus the bid)",
        f"{'trump':<12}" + "".join(f"{'bid ' + str(k):>9}" for k in BIDS),
    ]
    for s in order:
        o = r.by_trump[s]
        lines.append(
            f"{suit_label(s):<12}" + "".join(f"{o.expected_score(k):>+9.2f}" for k in BIDS)
        )
    lines.append("")
    share = r.chosen_trump_share.get(r.chosen_trump, 0.0)
    how = "" if share > 0.999 else f" ({100 * share:.0f}% of the time)"
    lines.append(f"Left to choose, the {r.policy} pitcher leads {suit_label(r.chosen_trump)}{how}.")
    bid, trump, e = r.recommendation
    if bid == 0:
        lines.append("Recommended: pass (no bid has a positive expected score).")
    else:
        se = r.by_trump[trump].expected_score_se(bid)
        lines.append(
            f"Recommended: bid up to {bid} with {suit_label(trump)} as trump "
            f"(the highest bid with a positive expected score: {e:+.2f} ±{1.96 * se:.2f})."
        )
    return "\n".join(line.rstrip() for line in lines) + "\n"
