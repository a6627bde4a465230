#!/usr/bin/env python3
"""Hand-level odds of a rule family: P(the pitcher's side makes k) for k = 1 .. the
maximum bid, from the family kernels (``pitchsim.kernels.simulate``).

    .venv/bin/python scripts/family_odds.py --rules smear --players 4
    .venv/bin/python scripts/family_odds.py --rules ten-point --hand "HJ AH 2H 3H 9C 7D 3S JD 5C"
    .venv/bin/python scripts/family_odds.py --rules smear --hand "JD AH 2H 9C 7D 3S" --trump H

Seat 0 pitches; under trump=named it names trump by its policy unless ``--trump`` is
given (under trump=first-lead ``--trump`` makes its first lead that suit).  Every seat
plays ``--policy`` (random or heuristic).  No bid is made: the table is what the
pitcher's side wins, whatever it bid.  This is the library call ``make_odds`` on
the command line; a hand's odds with expected scores and passing are ``pitchsim
bid-odds --rules FAMILY`` (``pitchsim.advice.odds``).
"""

from __future__ import annotations

import argparse
import sys
import time

from pitchsim.game.cards import SUIT_NAMES, mask_of, parse_cards, parse_suit
from pitchsim.game.rules import Rules
from pitchsim.kernels.simulate import make_odds
from pitchsim.util.errors import InputError


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--rules", default="smear", help="a family and options: smear,target=15")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--deals", type=int, default=200_000)
    ap.add_argument("--policy", default="heuristic", choices=("random", "heuristic"))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--hand", help="the pitcher's cards (HJ/LJ for jokers)")
    ap.add_argument("--trump", help="the pitcher's trump suit (C D H S)")
    a = ap.parse_args()
    try:
        rules = Rules.parse(a.rules)
        hand = mask_of(parse_cards(a.hand, jokers=rules.jokers)) if a.hand else 0
        trump = parse_suit(a.trump) if a.trump else -1
        t = time.perf_counter()
        odds = make_odds(rules, a.players, a.deals, a.policy, a.seed, hand, trump)
        total = time.perf_counter() - t
    except InputError as e:
        sys.exit(f"odds_bidder_table: error: {e}")
    print(
        f"{a.rules}, {a.players} players, {a.deals:,} deals, {a.policy} play, seed {a.seed}"
        + (f", pitcher holds {a.hand}" if a.hand else "")
    )
    named = ", ".join(
        f"{SUIT_NAMES[s]} {p:.1%}" for s, p in enumerate(odds["trump_named"]) if p > 0
    )
    print(f"trump: {named}")
    print(f"mean points of the pitcher's side: {odds['mean_points']:.3f}")
    print("k   P(make k)")
    for k, p in enumerate(odds["p_make"], 1):
        print(f"{k:<3} {p:7.2%}")
    print("P(each point to the pitcher's side): ", end="")
    print(", ".join(f"{name} {p:.1%}" for name, p in odds["awards"].items()))
    print(
        f"kernel {odds['wall_s']:.2f} s wall, {odds['cpu_s']:.2f} CPU-s "
        f"({a.deals / max(odds['wall_s'], 1e-9):,.0f} deals/s); {total:.1f} s in all"
    )


if __name__ == "__main__":
    main()
