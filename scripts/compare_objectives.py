#!/usr/bin/env python3
"""Which objective should ``rollout`` play for?  Paired, duplicate, under any preset.

Three objectives, each inside the same search seat (``kernels.search.rollout``,
picked by the bits of the worlds count from ``OBJECTIVE_SHIFT``):

- ``score``: the seat's side's score change minus the mean change of the other sides
  (settled: a set pitcher loses the bid), summed over worlds;
- ``make``: the base game's: worlds in which the pitcher's side reaches the bid (a
  defender: in which it is set), then the pitcher's side's points (a defender: fewest);
- ``hybrid``: worlds made (set) first, then ``score``.

Whole games (``--boards``): a duplicate tournament of two strategies that differ only
in the objective (``BIDDING+rollout:W``), every board played once per rotation of the
two around the table (seat s plays strategy (s + r) % 2), so seat and card luck cancel.
The first strategy's win rate with its 95% interval over boards (fair share 0.5), and
each strategy's hands made as pitcher.

Hands (``--deals``): seat 0 pitches at bid B (``--bids``); every deal is played with
the pitcher's side searching (defenders ``heuristic``) under each objective, then with
the defenders searching (the pitcher's side ``heuristic``), on the same deals.  Paired
differences (first objective minus second) in P(make) and in the pitcher's side's score
change (points beyond the bid when made, minus the bid when set), 95% intervals.

    .venv/bin/python scripts/compare_objectives.py --rules auction-pitch --players 4 \\
        --objectives score,make --boards 500 --deals 2000 --worlds 16
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from numba import njit, prange

from pitchsim.game.rules import Rules
from pitchsim.kernels.game import MAX_CALL, whole_games
from pitchsim.kernels.policies import HEURISTIC, ROLLOUT, WORLDS_SHIFT
from pitchsim.kernels.presets import rules_array, rules_table
from pitchsim.kernels.rng import deal_key
from pitchsim.kernels.score import side_of
from pitchsim.kernels.search.rollout import (
    MAKE_THEN_POINTS,
    MAKE_THEN_SCORE,
    OBJECTIVE_SHIFT,
    SCORE_DIFFERENCE,
)
from pitchsim.kernels.simulate import hand_scratch, study_hand
from pitchsim.table.boards import BIDDING_IDS, kernel_play_array, no_odds, odds_for
from pitchsim.util.stats import Z95

OBJECTIVES = {"score": SCORE_DIFFERENCE, "make": MAKE_THEN_POINTS, "hybrid": MAKE_THEN_SCORE}


def rollout_id(worlds: int, objective: int) -> int:
    return ROLLOUT | (worlds | objective << OBJECTIVE_SHIFT) << WORLDS_SHIFT


def mean_ci(x: np.ndarray) -> str:
    m = float(x.mean())
    h = Z95 * float(x.std(ddof=1)) / np.sqrt(x.size) if x.size > 1 else float("nan")
    return f"{m:+.4f} [{m - h:+.4f}, {m + h:+.4f}]"


@njit(cache=True, parallel=True)
def play_bid_hands(seed, count, n, bid, policies, fr, tab, out_points):
    """Deals 0..count-1 of ``seed``, seat 0 pitching at ``bid`` (dealer n-1): per deal
    the pitcher's side's points."""
    no_log = np.empty(0, dtype=np.int64)
    for d in prange(count):
        deck, dealt, held, hands, won, trick, tseats, award, points, junk = hand_scratch(n)
        study_hand(
            deal_key(seed, d), n, n - 1, 0, bid, policies, fr, tab, deck, dealt, held, hands,
            won, trick, tseats, award, points, no_log, no_log, junk,
        )  # fmt: skip
        out_points[d] = points[0]


def games(args, r, fr, tab, n, ids) -> None:
    bid_id = BIDDING_IDS[args.bidding]
    bidders = np.full(n, bid_id, dtype=np.int64)
    odds, defender = no_odds() if args.bidding == "heuristic" else odds_for([], r, n)
    m = args.boards
    wins = np.zeros((m, 2))
    pitched = np.zeros((2, MAX_CALL), dtype=np.int64)
    made = np.zeros((2, MAX_CALL), dtype=np.int64)
    cpu = time.process_time()
    for rot in range(2):
        of_seat = [(s + rot) % 2 for s in range(n)]
        plays = kernel_play_array([ids[i] for i in of_seat])
        won_by = np.empty(m, dtype=np.int64)
        scores = np.empty((m, n), dtype=np.int64)
        dealt = np.empty(m, dtype=np.int64)
        stats = np.empty((m, n, MAX_CALL, 2), dtype=np.int64)
        whole_games(
            args.seed, 0, m, n, bidders, plays, fr, tab, odds, defender, won_by, scores, dealt,
            stats, None,
        )  # fmt: skip
        for g in range(m):
            sides = [s for s in range(n) if int(won_by[g]) >> s & 1]
            for s in sides:
                wins[g, of_seat[s]] += 1 / len(sides)
        per_seat = stats.sum(axis=0)
        for s in range(n):
            pitched[of_seat[s]] += per_seat[s, :, 0]
            made[of_seat[s]] += per_seat[s, :, 1]
    cpu = time.process_time() - cpu
    share = wins[:, 0] / 2
    a, b = args.objectives.split(",")
    print(f"  games: {m} boards x 2 rotations ({cpu:.0f} CPU s)")
    print(f"    {a} win share (fair 0.5): {mean_ci(share)}")
    for i, name in enumerate((a, b)):
        p, k = pitched[i].sum(), made[i].sum()
        print(f"    {name}: pitched {p}, made {k} ({k / max(p, 1):.3f})")


def hands(args, fr, tab, n, ids) -> None:
    a, b = args.objectives.split(",")
    sides = np.array([side_of(s, fr) for s in range(n)])
    pitcher_side = sides == sides[0]
    for bid in [int(x) for x in args.bids.split(",")]:
        for who, searching in (("pitcher's side", pitcher_side), ("defenders", ~pitcher_side)):
            pts = []
            cpu = time.process_time()
            for obj in ids:
                pol = kernel_play_array([obj if searching[s] else HEURISTIC for s in range(n)])
                out = np.empty(args.deals, dtype=np.int64)
                play_bid_hands(args.seed, args.deals, n, bid, pol, fr, tab, out)
                pts.append(out)
            cpu = time.process_time() - cpu
            made = [(p >= bid).astype(float) for p in pts]
            change = [np.where(p >= bid, p, -bid).astype(float) for p in pts]
            print(
                f"  hands, bid {bid}, {who} searching ({args.deals} deals, {cpu:.0f} CPU s): "
                f"P(make) {a} {made[0].mean():.3f} {b} {made[1].mean():.3f}, "
                f"difference {mean_ci(made[0] - made[1])}; "
                f"pitcher's score change {a} {change[0].mean():+.3f} {b} {change[1].mean():+.3f}, "
                f"difference {mean_ci(change[0] - change[1])}"
            )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rules", default="auction-pitch")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--objectives", default="score,make", help="two of score, make, hybrid")
    ap.add_argument("--worlds", type=int, default=16)
    ap.add_argument("--bidding", default="heuristic")
    ap.add_argument("--boards", type=int, default=0)
    ap.add_argument("--deals", type=int, default=0)
    ap.add_argument("--bids", default="2,3")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    r = Rules.parse(args.rules)
    fr, tab = rules_array(r), rules_table(r)
    n = args.players
    ids = [rollout_id(args.worlds, OBJECTIVES[o]) for o in args.objectives.split(",")]
    print(f"{args.rules}, {n} players, rollout:{args.worlds}, objectives {args.objectives}")
    if args.boards:
        games(args, r, fr, tab, n, ids)
    if args.deals:
        hands(args, fr, tab, n, ids)


if __name__ == "__main__":
    main()
