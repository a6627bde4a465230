#!/usr/bin/env python3
"""Auction-pitch's run kernel in an old tree and this one, alternated; CPU time.

    .venv/bin/python scripts/bench_base_old_new.py --old /path/to/old/checkout [--rounds 3]

Both trees run the kernel ``pitchsim simulate`` runs for auction-pitch, called as a
run's part (``study.batch.simulate_part``: ``sample.record_base_columns``; the same call
in trees before and after session 68, when the hand kernel of its own these figures
were measured on, ``simulate.hands_kernel``, went: figures before then are not
comparable).  Each round runs a fresh process of
each tree (``PYTHONPATH``, this venv, one numba thread, a cache folder per tree): a first
call of 20,000 deals compiles or loads the kernel, off the clock, then the best of three
runs of 300,000 deals, 4 players, base rules, random and heuristic play, in deals per
CPU-second.  Prints each round and the medians' ratio new/old: the base game must not
slow down as the engine generalises.
"""

import argparse
from pathlib import Path

from old_new import alternate, median_ratio

CODE = r"""
import json, time, numpy as np
from pitchsim.game.rules import Rules
from pitchsim.study.batch import part_buffers, simulate_part
from pitchsim.study.manifest import Part, RunParams
N = 300_000
out = {}
rules, buffers = Rules().describe_in_full(), part_buffers(N)
def run(seed, policy, count):
    simulate_part(Part(0, 4, 0, count), RunParams(seed, policy, rules), 1, buffers=buffers)
for policy in ("random", "heuristic"):
    run(1, policy, 20000)
    best = 1e9
    for r in range(3):
        t0 = time.process_time(); run(r + 1, policy, N); best = min(best, time.process_time() - t0)
    out[policy] = N / best
print(json.dumps(out))
"""
ap = argparse.ArgumentParser(description=__doc__.splitlines()[1])
ap.add_argument("--old", type=Path, required=True, help="a checkout of the tree before")
ap.add_argument("--rounds", type=int, default=3)
a = ap.parse_args()
res = alternate(a.old, CODE, [], a.rounds, "base", lambda d: {k: f"{v:,.0f}" for k, v in d.items()})
for pol in ("random", "heuristic"):
    mo, mn, ratio = median_ratio(res, lambda x, pol=pol: x[pol])
    print(f"{pol}: old median {mo:,.0f}/CPU-s, new {mn:,.0f}, new/old {ratio:.3f}")
