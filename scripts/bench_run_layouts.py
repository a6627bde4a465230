"""A base game's study run (``pitchsim simulate``): the base kernels and the base layout
against the family record kernel and the family layout, on the same deals.

    python scripts/bench_run_layouts.py [--deals 100000] [--rounds 5] [--policy heuristic]
    python scripts/bench_run_layouts.py --compile [--rounds 2]

Both play one part of auction-pitch at 4 players on one thread (``batch.simulate_part``:
the kernel and the columns, no Parquet): ``base`` as a base game's run does
(``simulate_hands`` + ``_describe_deals``), ``family`` as a preset's run does
(``record_family_hands`` + ``describe_family_deals``) with the auction-pitch preset's
complete options.  Rounds alternate base and family; each round is timed in CPU seconds
of this process (``time.process_time``) after a warm-up call, and the deals per
CPU-second of each are reported (median) with the ratio family/base per round (median).
It also says how many deals agree between the two: the pitcher's hand, trump, points.

``--compile``: a fresh process with an empty numba cache times the first call of each
(CPU seconds, the warm call's time taken off), alternating base and family.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

from pitchsim.game.rules import FamilyRules, Rules
from pitchsim.study.batch import part_buffers, simulate_part
from pitchsim.study.manifest import Part, RunParams, layout_of

PLAYERS = 4


def params(which: str, policy: str, seed: int = 7) -> RunParams:
    # the same rules both ways: the base game's options, or every option of the preset
    rules = Rules.parse(None).describe() if which == "base" else FamilyRules().describe_in_full()
    p = RunParams(seed, policy, rules)
    assert layout_of(p.rules).name == which, (which, layout_of(p.rules))
    return p


def play(which: str, policy: str, deals: int) -> tuple[float, dict]:
    p = params(which, policy)
    part = Part(0, PLAYERS, 0, deals)
    buffers = part_buffers(deals, layout_of(p.rules))
    c0 = time.process_time()
    cols = simulate_part(part, p, threads=1, buffers=buffers)
    return time.process_time() - c0, {k: v.copy() for k, v in cols.items()}


def compile_once(which: str, policy: str) -> float:
    """In this process, with an empty cache: the first call's CPU seconds less a warm one's."""
    first, _ = play(which, policy, 1000)
    warm, _ = play(which, policy, 1000)
    return first - warm


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=100_000)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--policy", default="heuristic", choices=("heuristic", "random"))
    ap.add_argument("--compile", action="store_true")
    ap.add_argument("--compile-one", choices=("base", "family"), help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.compile_one:
        print(json.dumps({"cpu": compile_once(a.compile_one, a.policy)}))
        return
    if a.compile:
        got = {"base": [], "family": []}
        for _ in range(a.rounds):
            for which in ("base", "family"):
                with tempfile.TemporaryDirectory(prefix="pitchsim-cache-") as cache:
                    env = os.environ | {"NUMBA_CACHE_DIR": cache, "NUMBA_NUM_THREADS": "1"}
                    cmd = [sys.executable, __file__, "--compile-one", which, "--policy", a.policy]
                    out = subprocess.run(cmd, env=env, check=True, capture_output=True, text=True)
                    got[which].append(json.loads(out.stdout)["cpu"])
                    print(f"compile {which}: {got[which][-1]:.1f} CPU-s", flush=True)
        for which, v in got.items():
            print(f"{which}: cold compile {statistics.median(v):.1f} CPU-s (median of {len(v)})")
        return
    for which in ("base", "family"):
        play(which, a.policy, 1000)  # compile, or load from the cache: not counted
    rates = {"base": [], "family": []}
    ratios = []
    for r in range(a.rounds):
        t = {}
        for which in ("base", "family") if r % 2 == 0 else ("family", "base"):
            t[which], cols = play(which, a.policy, a.deals)
            rates[which].append(a.deals / t[which])
            if which == "base":
                base_cols = cols
            else:
                fam_cols = cols
        ratios.append(t["base"] / t["family"])
        print(
            f"round {r}: base {rates['base'][-1]:,.0f}  family {rates['family'][-1]:,.0f} "
            "deals/CPU-s",
            flush=True,
        )
    same = {
        k: int(np.sum(base_cols[k].astype(np.int64) == fam_cols[k].astype(np.int64)))
        for k in ("hand", "trump", "points")
    }
    print(
        f"auction-pitch, {PLAYERS} players, {a.policy}, {a.deals:,} deals, 1 thread: "
        f"base {statistics.median(rates['base']):,.0f}, family "
        f"{statistics.median(rates['family']):,.0f} deals/CPU-s (median of {a.rounds}); "
        f"family/base {statistics.median(ratios):.2f}"
    )
    print(f"deals equal in both layouts (of {a.deals:,}): {same}")


if __name__ == "__main__":
    main()
