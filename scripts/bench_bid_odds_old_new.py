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
engine's (``kernels.families.fixed_hand``).
"""

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
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
trees = {"old": str(a.old.resolve()), "new": str(HERE)}
res = {k: [] for k in trees}
for rnd in range(a.rounds):
    for name, path in trees.items():
        env = dict(
            os.environ,
            PYTHONPATH=path,
            NUMBA_CACHE_DIR=f"/tmp/bench-bid-odds-cache-{name}",
            NUMBA_NUM_THREADS="1",
            PITCHSIM_COMPILE_NOTICE="0",
        )
        r = subprocess.run(
            [sys.executable, "-c", CODE, str(a.samples)],
            env=env,
            capture_output=True,
            text=True,
            cwd=path,
        )
        if r.returncode != 0:
            sys.exit(f"{name} tree failed: {r.stderr.strip().splitlines()[-1]}")
        d = json.loads(r.stdout.strip().splitlines()[-1])
        res[name].append(d)
        print(rnd, name, {k: f"{v:.3f} s" for k, v in d.items()}, flush=True)
for pol in ("random", "heuristic"):
    o = sorted(x[pol] for x in res["old"])
    n = sorted(x[pol] for x in res["new"])
    mo, mn = o[len(o) // 2], n[len(n) // 2]
    print(f"{pol}: old median {mo:.3f} CPU-s, new {mn:.3f}, old/new {mo / mn:.3f}")
