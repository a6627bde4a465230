#!/usr/bin/env python3
"""Kernel throughput: deals per second per core, thread scaling, compile time, bid-odds.

    .venv/bin/python scripts/bench.py                 # 4 players, random and heuristic
    .venv/bin/python scripts/bench.py --players 3,4,7 --deals 4000000 --json

- Throughput: the kernel ``pitchsim simulate`` runs for auction-pitch
  (``study.batch.play_deals``: ``sample.record_base_columns``, a run's columns; until
  session 68 a hand kernel of its own, ``simulate_base_hands``, that wrote three
  numbers a deal: figures before then are not comparable) on warm kernels,
  compile excluded, 1 thread and 2 threads; each figure is the best of ``--repeat``
  runs, since other load on the machine only ever slows a run down.  Beside the wall
  clock rate it shows deals per CPU-second, which other processes disturb much less
  (a run that had to share its core shows a wall rate well under its CPU rate).
- Compile: a fresh process with an empty numba cache times the first call of the
  batch kernel (import apart); a second fresh process on the same cache shows the
  load time and that it wrote no cache file (nothing was recompiled).
- bid-odds: the wall clock of a warm ``pitchsim bid-odds "AH KH 2H 9C 7D 3S"
  --samples 200000`` end to end (best of 3, after one run to warm the cache), the time
  of ``import pitchsim.cli`` alone for comparison, and whether the second run left
  the cache folder exactly as it was (no recompile).

The load average before and after is printed: on a shared machine read the figures
with it.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BIN = Path(sys.executable).parent
BID_ODDS = [
    str(BIN / "pitchsim"),
    "bid-odds",
    "AH KH 2H 9C 7D 3S",
    "--samples",
    "200000",
    "--seed",
    "1",
    "--json",
]

FIRST_CALL = """
import time, numpy as np
t0 = time.perf_counter()
from pitchsim.game.rules import Rules
from pitchsim.kernels.simulate import policy_row
from pitchsim.study.batch import play_deals
t1 = time.perf_counter()
args = (Rules(), 4, 1, 0, 1000, policy_row("heuristic", 4))
play_deals(*args)
t2 = time.perf_counter()
play_deals(*args)
t3 = time.perf_counter()
print(t1 - t0, t2 - t1, t3 - t2)
"""


def throughput(players: int, policy: str, threads: int, deals: int, repeat: int) -> dict:
    """Best wall-clock and best CPU-time rates (deals/s) of ``repeat`` runs."""
    from pitchsim.game.rules import Rules
    from pitchsim.kernels.simulate import policy_row
    from pitchsim.study.batch import part_buffers, play_deals

    r, pol = Rules(), policy_row(policy, players)
    buffers = part_buffers(deals)  # (reused run after run, as a run's parts do)
    wall = cpu = float("inf")
    play_deals(r, players, 1, 0, 20_000, pol, threads, buffers=buffers)
    for rep in range(repeat):
        t, c = time.perf_counter(), time.process_time()
        play_deals(r, players, rep + 1, 0, deals, pol, threads, buffers=buffers)
        wall = min(wall, time.perf_counter() - t)
        cpu = min(cpu, time.process_time() - c)
    return {"wall": deals / wall, "cpu": deals / cpu}


def compile_times() -> dict:
    """Compile (empty cache) and cache-load (second process) times of the batch kernel."""
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)

        def first_call():
            out = subprocess.run(
                [sys.executable, "-c", FIRST_CALL],
                env=env,
                check=True,
                capture_output=True,
                text=True,
            ).stdout.split()
            return [float(x) for x in out]

        cold = first_call()
        files_cold = _cache_state(Path(cache))
        warm = first_call()
        files_warm = _cache_state(Path(cache))
    return {
        "import_s": cold[0],
        "compile_first_call_s": cold[1],
        "cached_first_call_s": warm[1],
        "warm_second_call_s": warm[2],
        "second_process_wrote_no_cache_files": files_cold == files_warm,
    }


def _cache_state(folder: Path) -> dict:
    """Every cache file under ``folder`` with its size and modification time."""
    return {
        str(p.relative_to(folder)): (p.stat().st_size, p.stat().st_mtime_ns)
        for p in folder.rglob("*")
        if p.is_file() and p.suffix in (".nbi", ".nbc")
    }


def _cache_dir() -> Path:
    out = subprocess.run(
        [sys.executable, "-c", "import numba, pitchsim.kernels; print(numba.config.CACHE_DIR)"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    return Path(out)


def bid_odds(repeat: int) -> dict:
    """Warm bid-odds wall clock, the CLI's import time, and a recompile check."""
    subprocess.run(BID_ODDS, check=True, capture_output=True)  # compile or load once
    cache = _cache_dir()
    before = _cache_state(cache)
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        subprocess.run(BID_ODDS, check=True, capture_output=True)
        best = min(best, time.perf_counter() - t)
    after = _cache_state(cache)
    imp = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        subprocess.run([sys.executable, "-c", "import pitchsim.cli"], check=True)
        imp = min(imp, time.perf_counter() - t)
    return {
        "wall_s": best,
        "import_cli_s": imp,
        "cache_dir": str(cache),
        "cache_files": len(after),
        "second_run_left_cache_unchanged": before == after and len(after) > 0,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--players", default="4", help="player counts, e.g. 4 or 3,4,7")
    ap.add_argument("--policies", default="random,heuristic")
    ap.add_argument("--deals", type=int, default=2_000_000, help="deals per timed run")
    ap.add_argument("--repeat", type=int, default=5, help="timed runs; the best counts")
    ap.add_argument("--skip-compile", action="store_true", help="skip the compile-time probe")
    ap.add_argument("--skip-bid-odds", action="store_true", help="skip the bid-odds runs")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()

    import numba

    load_before = os.getloadavg()
    max_threads = min(2, numba.config.NUMBA_NUM_THREADS)
    rows = []
    for n in (int(x) for x in a.players.split(",")):
        for policy in a.policies.split(","):
            rate = {
                t: throughput(n, policy, t, a.deals, a.repeat) for t in range(1, max_threads + 1)
            }
            two = rate.get(2, {"wall": float("nan"), "cpu": float("nan")})
            rows.append(
                {
                    "players": n,
                    "policy": policy,
                    "per_core_1_thread": rate[1]["wall"],
                    "per_cpu_second_1_thread": rate[1]["cpu"],
                    "total_2_threads": two["wall"],
                    "per_core_2_threads": two["wall"] / 2,
                    "per_cpu_second_2_threads": two["cpu"],
                    "scaling": two["wall"] / rate[1]["wall"],
                }
            )
    result = {
        "machine": {
            "cpu": platform.processor() or platform.machine(),
            "cores": os.cpu_count(),
            "numba": numba.__version__,
            "threading_layer": _threading_layer(),
            "load_avg_before": load_before,
        },
        "throughput": rows,
    }
    if not a.skip_bid_odds:
        result["bid_odds_200k"] = bid_odds(3)
    if not a.skip_compile:
        result["compile"] = compile_times()
    result["machine"]["load_avg_after"] = os.getloadavg()
    if a.json:
        json.dump(result, sys.stdout, indent=2)
        print()
        return
    _render(result)


def _threading_layer() -> str:
    import numba

    from pitchsim.game.rules import Rules
    from pitchsim.kernels.simulate import policy_row
    from pitchsim.study.batch import play_deals

    play_deals(Rules(), 4, 1, 0, 1, policy_row("random", 4))
    return numba.threading_layer()


def _render(r: dict) -> None:
    m = r["machine"]
    print(
        f"{m['cores']} cores, numba {m['numba']} ({m['threading_layer']}), load average "
        f"{m['load_avg_before'][0]:.2f} before, {m['load_avg_after'][0]:.2f} after"
    )
    print()
    print("deals per second (warm kernels, best run)       1 thread          2 threads")
    print(
        f"{'players':>7} {'policy':<10} {'per core':>12} {'per CPU-s':>12} "
        f"{'per core':>12} {'per CPU-s':>12} {'scaling':>8}"
    )
    for row in r["throughput"]:
        print(
            f"{row['players']:>7} {row['policy']:<10} {row['per_core_1_thread']:>12,.0f} "
            f"{row['per_cpu_second_1_thread']:>12,.0f} {row['per_core_2_threads']:>12,.0f} "
            f"{row['per_cpu_second_2_threads']:>12,.0f} {row['scaling']:>7.2f}x"
        )
    if "bid_odds_200k" in r:
        b = r["bid_odds_200k"]
        print()
        print(
            f'warm `pitchsim bid-odds "AH KH 2H 9C 7D 3S" --samples 200000`: {b["wall_s"]:.2f} s '
            f"wall end to end (of which `import pitchsim.cli` alone: {b['import_cli_s']:.2f} s)"
        )
        print(
            f"  second run recompiled nothing (cache files unchanged): "
            f"{b['second_run_left_cache_unchanged']} ({b['cache_files']} files in {b['cache_dir']})"
        )
    if "compile" in r:
        c = r["compile"]
        print()
        print(
            f"numba compile, empty cache, first call of the batch kernel: "
            f"{c['compile_first_call_s']:.1f} s (imports {c['import_s']:.2f} s)"
        )
        print(
            f"  second process on that cache: first call {c['cached_first_call_s']:.2f} s, "
            f"wrote no cache file: {c['second_process_wrote_no_cache_files']}"
        )


if __name__ == "__main__":
    main()
