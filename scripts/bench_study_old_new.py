#!/usr/bin/env python3
"""A study run's part (``pitchsim simulate``) in an old tree and this one, alternated; CPU time.

    .venv/bin/python scripts/bench_study_old_new.py --old /path/to/old/tree [--rounds 5]

Each round runs a fresh process of each tree (``old_new.alternate``: ``PYTHONPATH``, this
venv, one numba thread, a cache folder per tree): a first part of 2,000 deals compiles
or loads the kernels, off the clock, then the best of three parts of 200,000 deals,
auction-pitch at 4 players, heuristic and random play, through ``batch.simulate_part``
(the kernel and the columns, no Parquet), in deals per CPU-second.  The rules are given
as the base game's own options, which every tree reads: a tree from before the one
engine plays them on the base kernels and writes the base columns, this one on the
preset kernels and the preset columns.  Prints each round and the medians' ratio
new/old: the base game must not slow down as the engine generalises.
"""

import argparse
from pathlib import Path

from old_new import alternate, median_ratio

CODE = r"""
import json, time
from pitchsim.game.rules import Rules
from pitchsim.study.batch import simulate_part
from pitchsim.study.manifest import Part, RunParams
N = 200_000
out = {}
for policy in ("heuristic", "random"):
    params = RunParams(7, policy, Rules().describe())
    simulate_part(Part(0, 4, 0, 2000), params, threads=1)
    best = 1e9
    for r in range(3):
        t0 = time.process_time()
        simulate_part(Part(0, 4, r * N, N), params, threads=1)
        best = min(best, time.process_time() - t0)
    out[policy] = N / best
print(json.dumps(out))
"""
ap = argparse.ArgumentParser(description=__doc__.splitlines()[1])
ap.add_argument("--old", type=Path, required=True, help="a checkout of the tree before")
ap.add_argument("--rounds", type=int, default=5)
a = ap.parse_args()
show = lambda d: {k: f"{v:,.0f}" for k, v in d.items()}  # noqa: E731
res = alternate(a.old, CODE, [], a.rounds, "study", show)
for pol in ("heuristic", "random"):
    mo, mn, ratio = median_ratio(res, lambda x, pol=pol: x[pol])
    print(f"{pol}: old median {mo:,.0f} deals/CPU-s, new {mn:,.0f}, new/old {ratio:.3f}")
