#!/usr/bin/env python3
"""Auction-pitch's hand kernel in an old tree and this one, alternated; CPU time.

    .venv/bin/python scripts/bench_base_old_new.py --old /path/to/old/checkout [--rounds 3]

Both trees run the preset kernel ``pitchsim simulate`` runs for auction-pitch
(``kernels/simulate.hands_kernel``, in trees from 04fc442 on; the base game's
own ``kernels/simulate.py`` is gone since issue 28).  Each round runs a fresh process of
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
try:
    from pitchsim.kernels.simulate import policy_row, hands_kernel
except ImportError:  # a tree before kernels/families/ was folded into kernels/
    from pitchsim.kernels.families.simulate import policy_row, hands_kernel
from pitchsim.kernels.presets import rules_array, rules_table
N = 300_000
out = {}
r = Rules()
fr, tab = rules_array(r), rules_table(r)
kernel = hands_kernel(fr)
for policy in ("random", "heuristic"):
    args = (4, policy_row(policy, 4), fr, tab)
    o = [np.empty(N, np.int64) for _ in range(3)]
    kernel(1, 0, 20000, *args, *(x[:20000] for x in o))
    best = 1e9
    for r in range(3):
        t0 = time.process_time(); kernel(r + 1, 0, N, *args, *o); best = min(best, time.process_time() - t0)
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
