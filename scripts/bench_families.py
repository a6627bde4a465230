#!/usr/bin/env python3
"""Family kernels' throughput, their compile time, and the base game old vs new.

    .venv/bin/python scripts/bench_families.py
    .venv/bin/python scripts/bench_families.py --deals 400000 --repeat 3 --old /work/wt/old-famk

- Families: ``kernels.families.simulate.simulate_family_hands`` (deal, name trump,
  discard and draw, play, score) on warm kernels, one thread, per family at its usual
  table (4 players; smear also at 3) for ``random`` and ``heuristic`` play; deals per
  CPU-second (process time) and per wall second, best of ``--repeat``.  With each, the
  pitcher's P(make k) for k = 1 .. the maximum bid and its mean points (the hand-level
  Monte Carlo, seat 0 pitching and naming trump by its policy).
- Strength: the pitcher side's mean points on the same deals, each side random or
  heuristic (``strength``).
- Compile: a fresh process with an empty numba cache times the first call of the
  family kernel (both policies compile in it), import apart.
- Base game old vs new: the base game's ``simulate_hands`` (4 players, one thread) in
  fresh processes of this tree and of ``--old`` (a checkout of the tree before, run by
  PYTHONPATH with this venv), alternating, ``--rounds`` times each; best deals per
  CPU-second of each.  The base kernels are unchanged by the family kernels, so the
  two should agree within the noise.

The load average before and after is printed: on a shared machine read the figures
with it.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
FAMILIES = [("auction-pitch", 4), ("setback", 4), ("smear", 3), ("smear", 4), ("ten-point", 4)]

FIRST_CALL = """
import time, numpy as np
t0 = time.perf_counter()
from pitchsim.game.rules import Rules
from pitchsim.kernels.families.simulate import family_policies, simulate_family_hands
from pitchsim.kernels.families.tables import family_array, family_tables
t1 = time.perf_counter()
r = Rules.parse("ten-point")
n, d = 4, 1000
out = [np.empty(d, np.int64) for _ in range(3)]
pol = family_policies("heuristic", n)
pol[1] = pol[3] = 0
simulate_family_hands(1, 0, d, n, pol, family_array(r), family_tables(r), *out)
t2 = time.perf_counter()
print(t1 - t0, t2 - t1)
"""

BASE_WORKER = """
import json, sys, time, numpy as np
from pitchsim.game.rules import Rules
from pitchsim.games.policies import seat_policies
from pitchsim.kernels.deal import deck_without
from pitchsim.kernels.simulate import simulate_hands
from pitchsim.util.runtime import use_threads
deals, repeat = int(sys.argv[1]), int(sys.argv[2])
res = {}
for policy in ("random", "heuristic"):
    f = np.empty(deals, np.int8); t = np.empty(deals, np.int8); h = np.empty(0, np.int64)
    args = (4, 0, deck_without(0), -1, seat_policies(policy, 4), Rules().to_array())
    best = float("inf")
    with use_threads(1):
        simulate_hands(1, 0, 20000, *args, f[:20000], t[:20000], h, h)
        for r in range(repeat):
            c = time.process_time()
            simulate_hands(r + 1, 0, deals, *args, f, t, h, h)
            best = min(best, time.process_time() - c)
    res[policy] = deals / best
print(json.dumps(res))
"""


def family_rates(spec: str, n: int, policy: str, deals: int, repeat: int) -> dict:
    import numpy as np

    from pitchsim.game.rules import Rules, as_family
    from pitchsim.kernels.families.simulate import family_policies, simulate_family_hands
    from pitchsim.kernels.families.tables import family_array, family_tables
    from pitchsim.util.runtime import use_threads

    r = as_family(Rules.parse(spec))
    fr, tab, pol = family_array(r), family_tables(r), family_policies(policy, n)
    pts, flags, trump = (np.empty(deals, np.int64) for _ in range(3))
    wall = cpu = float("inf")
    with use_threads(1):
        simulate_family_hands(1, 0, 20_000, n, pol, fr, tab, pts[:20_000], flags, trump)
        for k in range(repeat):
            t, c = time.perf_counter(), time.process_time()
            simulate_family_hands(k + 1, 0, deals, n, pol, fr, tab, pts, flags, trump)
            wall = min(wall, time.perf_counter() - t)
            cpu = min(cpu, time.process_time() - c)
    return {
        "rules": spec,
        "players": n,
        "policy": policy,
        "per_cpu_second": deals / cpu,
        "per_wall_second": deals / wall,
        "p_make": [round(float((pts >= k).mean()), 4) for k in range(1, r.max_bid + 1)],
        "mean_points": round(float(pts.mean()), 3),
    }


def strength(spec: str, n: int, deals: int) -> dict:
    """The pitcher side's mean points on the same deals with each side playing random
    (R) or heuristic (H), pitcher's side first: HR - RR is what the heuristic gains as
    pitcher (naming trump included), RR - RH what it takes away as defender."""
    import numpy as np

    from pitchsim.game.rules import Rules, as_family
    from pitchsim.kernels.families.simulate import simulate_family_hands
    from pitchsim.kernels.families.tables import family_array, family_tables

    r = as_family(Rules.parse(spec))
    fr, tab = family_array(r), family_tables(r)
    pts, flags, trump = (np.empty(deals, np.int64) for _ in range(3))
    out = {"rules": spec, "players": n}
    for name, pitcher_side, defenders in (("RR", 0, 0), ("HR", 1, 0), ("RH", 0, 1), ("HH", 1, 1)):
        pol = np.array(
            [pitcher_side if r.team(s) == r.team(0) else defenders for s in range(n)], np.int64
        )
        simulate_family_hands(3, 0, deals, n, pol, fr, tab, pts, flags, trump)
        out[name] = round(float(pts.mean()), 3)
    return out


def compile_time() -> dict:
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache, PITCHSIM_COMPILE_NOTICE="0")
        t = time.process_time()
        c0 = os.times()
        out = subprocess.run(
            [sys.executable, "-c", FIRST_CALL], env=env, check=True, capture_output=True, text=True
        ).stdout.split()
        c1 = os.times()
        del t
    return {
        "import_s": float(out[0]),
        "compile_first_call_wall_s": float(out[1]),
        "process_cpu_s": (c1.children_user + c1.children_system)
        - (c0.children_user + c0.children_system),
    }


def base_old_vs_new(old: Path, rounds: int, deals: int, repeat: int) -> dict:
    trees = {"new": HERE, "old": old}
    best: dict = {name: {} for name in trees}
    for _ in range(rounds):
        for name, tree in trees.items():  # alternating, so both see the same load
            env = dict(os.environ, PYTHONPATH=str(tree), PITCHSIM_COMPILE_NOTICE="0")
            out = subprocess.run(
                [sys.executable, "-c", BASE_WORKER, str(deals), str(repeat)],
                env=env,
                check=True,
                capture_output=True,
                text=True,
                cwd="/tmp",
            ).stdout
            for policy, rate in json.loads(out).items():
                best[name][policy] = max(best[name].get(policy, 0.0), rate)
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--deals", type=int, default=400_000, help="deals per timed run")
    ap.add_argument("--repeat", type=int, default=3, help="timed runs; the best counts")
    ap.add_argument("--old", type=Path, help="checkout of the tree before (base game old vs new)")
    ap.add_argument("--rounds", type=int, default=3, help="old/new alternations")
    ap.add_argument("--skip-compile", action="store_true")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    load_before = os.getloadavg()
    result: dict = {}
    if not a.skip_compile:
        result["compile"] = compile_time()
    result["families"] = [
        family_rates(spec, n, policy, a.deals, a.repeat)
        for spec, n in FAMILIES
        for policy in ("random", "heuristic")
    ]
    result["strength"] = [strength(spec, n, a.deals) for spec, n in FAMILIES]
    if a.old:
        result["base_game"] = base_old_vs_new(a.old, a.rounds, a.deals * 5, a.repeat)
    result["load_before"] = load_before
    result["load_after"] = os.getloadavg()
    if a.json:
        print(json.dumps(result, indent=2))
        return
    print(f"load average before {load_before[0]:.2f}, after {result['load_after'][0]:.2f}")
    if "compile" in result:
        c = result["compile"]
        print(
            f"compile (empty cache, first call): {c['compile_first_call_wall_s']:.1f} s wall, "
            f"{c['process_cpu_s']:.1f} CPU-s in the process (import {c['import_s']:.1f} s)"
        )
    print(
        f"\n{'rules':<16}{'n':>2} {'policy':<10}{'deals/CPU-s':>12}{'deals/s':>11}  mean  P(make k)"
    )
    for row in result["families"]:
        pm = " ".join(f"{p:.3f}" for p in row["p_make"])
        print(
            f"{row['rules']:<16}{row['players']:>2} {row['policy']:<10}"
            f"{row['per_cpu_second']:>12,.0f}{row['per_wall_second']:>11,.0f}"
            f"  {row['mean_points']:.2f}  {pm}"
        )
    print(
        "\nthe pitcher side's mean points, same deals (pitcher side / defenders: R random, H heuristic)"
    )
    for row in result["strength"]:
        cells = "  ".join(f"{k} {row[k]:.3f}" for k in ("RR", "HR", "RH", "HH"))
        print(f"  {row['rules']:<16}{row['players']:>2}  {cells}")
    if "base_game" in result:
        b = result["base_game"]
        print("\nbase game, 4 players, one thread, best deals per CPU-second (alternating trees):")
        for policy in ("random", "heuristic"):
            old, new = b["old"][policy], b["new"][policy]
            print(f"  {policy:<10} old {old:>12,.0f}  new {new:>12,.0f}  new/old {new / old:.3f}")


if __name__ == "__main__":
    main()
