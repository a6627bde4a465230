#!/usr/bin/env python3
"""Whole games through the reference engine with and without a called partner
(docs/rules.md 12.1): how often the pitcher's side makes its bid, with 95% intervals.

The kernels do not play ``partner`` yet, so this plays ``pitchsim.game.reference``'s
``play_game`` (the engine the clause tests use) with plain policies written here, the
same for both arms: a bidder that estimates, for its best suit, the points its trumps
carry (each point card held, plus the ace's High, plus Low for a 2 or 3 it holds), bids
the lowest legal bid not above that estimate and otherwise passes (the lowest legal bid
when it must); it names that suit; cards are played at random among the legal ones; the
pitcher calls pitchsim's default card (the highest trump he lacks, 12.1.2).  Each game
of an arm uses the same seed as the same game of the other arm, so the deals of a game's
first hand are the same; after that the games drift apart.

A hand counts when somebody bid (a pitcher at 0 under all-pass=dealer-free always
makes it and does not count).  Hands within one game are not independent, so the Wilson
intervals are a little narrow; the per-game make rate's t-interval is printed beside.

    python scripts/partner_games.py --games 400
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time

from pitchsim.game import reference as F
from pitchsim.game.cards import cards_of
from pitchsim.game.reference.draw import carries_point, point_value
from pitchsim.game.rules import Rules
from pitchsim.util.stats import Z95, wilson

ARMS = [  # (label, rules with a called partner, players)
    ("ten-point", "ten-point,partnership=false", 5),
    ("ten-point", "ten-point,partnership=false", 6),
    ("auction-pitch,trump=named", "auction-pitch,trump=named", 5),
    ("auction-pitch,trump=named", "auction-pitch,trump=named", 6),
]


def estimate(hand: int, suit: int, r) -> float:
    """The points ``hand`` may take with ``suit`` trump: each point card among its
    trumps, the ace's High, and Low for a 2 or 3 of trump."""
    order = F.trump_order(r, suit)
    trumps = [c for c in cards_of(hand) if c in order]
    pts = sum(point_value(c, suit, r) for c in trumps if carries_point(c, suit, r))
    if order[-1] in trumps:
        pts += 1  # High
    if any(c in trumps for c in order[:2]):
        pts += 1  # Low, with luck
    return pts + 0.2 * len(trumps)


def best_suit(hand: int, r) -> tuple[int, float]:
    return max(((s, estimate(hand, s, r)) for s in range(4)), key=lambda t: t[1])


def play(spec: str, n: int, games: int, seed: int) -> dict:
    rules = Rules.parse(spec)
    r = rules
    made = hands = 0
    per_game: list[float] = []
    for g in range(games):
        pick = random.Random(seed * 1_000_003 + g)

        def bidder(seat, hand, calls, legal, scores):
            bids = sorted(b for b in legal if b != F.PASS)
            est = best_suit(hand, r)[1]
            fit = [b for b in bids if b <= est]
            if fit:
                return fit[0]
            return F.PASS if F.PASS in legal else bids[0]

        game = F.play_game(
            n,
            rules,
            random.Random(seed * 7_919 + g),
            bidder,
            lambda seat, hand: best_suit(hand, r)[0],
            lambda view, pick=pick: pick.choice(cards_of(view.legal)),
            first_dealer=g % n,
            max_hands=200,
        )
        m = h = 0
        for hand in game.hands:
            if hand.play is None or hand.auction.bid == 0:
                continue
            h += 1
            m += bool(hand.made)
        made, hands = made + m, hands + h
        if h:
            per_game.append(m / h)
    return {"made": made, "hands": hands, "per_game": per_game}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--partner", default="called", choices=["called", "announced"])
    args = ap.parse_args()
    print(f"{args.games} games per arm, seed {args.seed}, partner={args.partner} against none")
    print("rules                       n  partner    hands  made   rate (95% Wilson)      per game")
    for label, base, n in ARMS:
        rates = {}
        for partner in ("none", args.partner):
            spec = base + ("" if partner == "none" else f",partner={partner}")
            t0 = time.process_time()
            res = play(spec, n, args.games, args.seed)
            cpu = time.process_time() - t0
            k, t = res["made"], res["hands"]
            lo, hi = wilson(k, t)
            pg = res["per_game"]
            half = Z95 * statistics.stdev(pg) / math.sqrt(len(pg))
            rates[partner] = (k, t)
            print(
                f"{label:<26} {n}  {partner:<9} {t:6d} {k:6d}  {k / t:.3f} "
                f"({float(lo):.3f}-{float(hi):.3f})  {statistics.mean(pg):.3f} ± {half:.3f}"
                f"  [{cpu:.1f} CPU-s]"
            )
        (k0, t0_), (k1, t1) = rates["none"], rates[args.partner]
        p0, p1 = k0 / t0_, k1 / t1
        se = math.sqrt(p0 * (1 - p0) / t0_ + p1 * (1 - p1) / t1)
        d = p1 - p0
        print(f"{'':<29}difference {d:+.3f} ({d - Z95 * se:+.3f} to {d + Z95 * se:+.3f})")


if __name__ == "__main__":
    main()
