#!/usr/bin/env python3
"""Kernel throughput: deals per second per core, thread scaling, compile time, bid-odds.

    .venv/bin/python scripts/bench.py                 # 4 players, random and heuristic
    .venv/bin/python scripts/bench.py --players 3,4,7 --deals 4000000 --json

Throughput is measured on warm kernels (compile excluded) as the best of ``--repeat``
runs, since other load on the machine only ever slows a run down.  Compile time is
measured separately in a fresh process with an empty numba cache; a second fresh process
then shows the cache is used (no new cache files, load time only).  Last, the wall clock
of a warm ``pitchsim bid-odds`` with 200,000 samples per trump suit, end to end.
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

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent

FIRST_CALL = """
import time, numpy as np
t0 = time.perf_counter()
from pitchsim.kernels.deal import deck_without
from pitchsim.kernels.simulate import simulate_hands
from pitchsim.options import Rules
from pitchsim.policies import seat_policies
t1 = time.perf_counter()
n = 1000
f = np.empty(n, np.int8); t = np.empty(n, np.int8); h = np.empty(0, np.int64)
simulate_hands(1, 0, n, 4, 0, deck_without(0), -1, seat_policies("heuristic", 4),
               Rules().to_array(), f, t, h)
t2 = time.perf_counter()
simulate_hands(1, 0, n, 4, 0, deck_without(0), -1, seat_policies("heuristic", 4),
               Rules().to_array(), f, t, h)
t3 = time.perf_counter()
print(t1 - t0, t2 - t1, t3 - t2)
"""


def throughput(players: int, policy: str, threads: int, deals: int, repeat: int) -> float:
    import numba
    import numpy as np

    from pitchsim.kernels.deal import deck_without
    from pitchsim.kernels.simulate import simulate_hands
    from pitchsim.options import Rules
    from pitchsim.policies import seat_policies

    numba.set_num_threads(threads)
    flags = np.empty(deals, np.int8)
    trump = np.empty(deals, np.int8)
    no_hand = np.empty(0, np.int64)
    args = (players, 0, deck_without(0), -1, seat_policies(policy, players), Rules().to_array())
    simulate_hands(1, 0, 10_000, *args, flags[:10_000], trump[:10_000], no_hand)  # warm
    best = float("inf")
    for r in range(repeat):
        t = time.perf_counter()
        simulate_hands(r + 1, 0, deals, *args, flags, trump, no_hand)
        best = min(best, time.perf_counter() - t)
    return deals / best


def compile_times() -> dict:
    """Compile (empty cache) and cache-load (second process) times of the batch kernel."""
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        cold = subprocess.run([sys.executable, "-c", FIRST_CALL], env=env, check=True,
                              capture_output=True, text=True).stdout.split()  # fmt: skip
        files_after_cold = sorted(p.name for p in Path(cache).rglob("*") if p.is_file())
        warm = subprocess.run([sys.executable, "-c", FIRST_CALL], env=env, check=True,
                              capture_output=True, text=True).stdout.split()  # fmt: skip
        files_after_warm = sorted(p.name for p in Path(cache).rglob("*") if p.is_file())
    return {
        "import_s": float(cold[0]),
        "compile_first_call_s": float(cold[1]),
        "cached_first_call_s": float(warm[1]),
        "second_run_wrote_no_cache_files": files_after_cold == files_after_warm,
    }


def bid_odds_wall(repeat: int) -> float:
    cmd = [str(BIN / "pitchsim"), "bid-odds", "AH KH 2H 9C 7D 3S", "--samples", "200000",
           "--seed", "1", "--json"]  # fmt: skip
    subprocess.run(cmd, check=True, capture_output=True)  # compile or load once
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        subprocess.run(cmd, check=True, capture_output=True)
        best = min(best, time.perf_counter() - t)
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--players", default="4", help="player counts, e.g. 4 or 3,4,7")
    ap.add_argument("--policies", default="random,heuristic")
    ap.add_argument("--deals", type=int, default=2_000_000, help="deals per timed run")
    ap.add_argument("--repeat", type=int, default=5, help="timed runs; the best counts")
    ap.add_argument("--skip-compile", action="store_true", help="skip the compile-time probe")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()

    import numba

    rows = []
    for n in (int(x) for x in a.players.split(",")):
        for policy in a.policies.split(","):
            one = throughput(n, policy, 1, a.deals, a.repeat)
            two = (
                throughput(n, policy, 2, a.deals, a.repeat)
                if numba.config.NUMBA_NUM_THREADS >= 2
                else float("nan")
            )
            rows.append({"players": n, "policy": policy, "deals_per_s_1_thread": one,
                         "deals_per_s_2_threads": two, "per_core_2_threads": two / 2,
                         "scaling": two / one})  # fmt: skip
    result = {
        "machine": {"cores": os.cpu_count(), "load_avg_1min": os.getloadavg()[0]},
        "throughput": rows,
        "bid_odds_200k_wall_s": bid_odds_wall(3),
    }
    if not a.skip_compile:
        result["compile"] = compile_times()
    if a.json:
        json.dump(result, sys.stdout, indent=2)
        print()
        return
    print(
        f"{'players':>7} {'policy':<10} {'1 thread':>14} {'2 threads':>14} {'per core':>14} {'scaling':>8}"
    )
    for r in rows:
        print(f"{r['players']:>7} {r['policy']:<10} {r['deals_per_s_1_thread']:>12,.0f}/s "
              f"{r['deals_per_s_2_threads']:>12,.0f}/s {r['per_core_2_threads']:>12,.0f}/s "
              f"{r['scaling']:>7.2f}x")  # fmt: skip
    print(
        f"\nwarm `pitchsim bid-odds HAND --samples 200000` end to end: {result['bid_odds_200k_wall_s']:.2f} s"
    )
    if "compile" in result:
        c = result["compile"]
        print(
            f"numba compile (empty cache, first call of the batch kernel): {c['compile_first_call_s']:.1f} s"
        )
        print(
            f"second process, same cache: first call {c['cached_first_call_s']:.2f} s; "
            f"wrote no new cache files: {c['second_run_wrote_no_cache_files']}"
        )
    print(f"(load average at the end: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores)")


if __name__ == "__main__":
    main()
