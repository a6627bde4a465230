#!/usr/bin/env python3
"""Warm ``bid_odds`` of the base game in an old tree and this one, alternated; CPU time.

    .venv/bin/python scripts/bench_bid_odds_old_new.py --old /path/to/old/tree [--rounds 5]

The figure a player waits on: ``bid_odds("AH KH 2H 9C 7D 3S", samples=S)`` at 4 players,
every suit the hand holds, the trump choice and the hand as a defender, with random and
heuristic play.  Each round runs a fresh process of each tree (``PYTHONPATH``, this venv,
one numba thread, a cache folder per tree): a first call of 2,000 samples compiles or
loads the kernels, off the clock, then the best of three calls, in CPU seconds.  Prints
each round and the medians' ratio old/new (above 1: the new tree is faster).  Made when
bid-odds of the base game moved from the base kernels (``kernels.fixed_hand``) to the one
engine's (``kernels.fixed_hand``).
"""

import argparse
from pathlib import Path

from old_new import alternate, median_ratio

CODE = r"""
import json, sys, time
from pitchsim.advice.odds import bid_odds
S = int(sys.argv[1])
out = {}
for policy in ("random", "heuristic"):
    bid_odds("AH KH 2H 9C 7D 3S", samples=2000, seed=1, policy=policy, threads=1)
    best = 1e9
    for r in range(3):
        t0 = time.process_time()
        bid_odds("AH KH 2H 9C 7D 3S", samples=S, seed=r + 2, policy=policy, threads=1)
        best = min(best, time.process_time() - t0)
    out[policy] = best
print(json.dumps(out))
"""
ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
ap.add_argument("--old", type=Path, required=True, help="a tree before (its pitchsim package)")
ap.add_argument("--rounds", type=int, default=5)
ap.add_argument("--samples", type=int, default=200_000)
a = ap.parse_args()
res = alternate(
    a.old, CODE, [str(a.samples)], a.rounds, "bid-odds",
    lambda d: {k: f"{v:.3f} s" for k, v in d.items()},
)  # fmt: skip
for pol in ("random", "heuristic"):
    mo, mn, ratio = median_ratio(res, lambda x, pol=pol: x[pol])
    print(f"{pol}: old median {mo:.3f} CPU-s, new {mn:.3f}, old/new {1 / ratio:.3f}")
