"""Deals per CPU-second of a study run (``pitchsim simulate``) under each rule family,
against the raw family kernel on the same deals and the base game's run.

    python scripts/bench_family_study.py [--deals 200000] [--players 4] [--threads 2]

Every run is made twice (the first compiles, if need be, and is not counted) and the CPU
seconds of this process, all threads, are reported (the machine may be shared: CPU time
is steadier than wall time).  ``kernel`` is ``make_odds`` on the same seed and
deals (the deals a run plays, without the columns and the Parquet).
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
import time
from pathlib import Path

from pitchsim.game.rules import Rules
from pitchsim.kernels.simulate import make_odds
from pitchsim.study.batch import simulate

FAMILIES = ("auction-pitch", "setback", "smear", "ten-point")


def run_once(rules: str, deals: int, players: int, threads: int | None) -> tuple[float, float]:
    where = Path(tempfile.mkdtemp(prefix="pitchsim-bench-"))
    try:
        c0, w0 = time.process_time(), time.perf_counter()
        simulate(where / "run", deals, players=[players], seed=1, rules=rules, threads=threads)
        return time.process_time() - c0, time.perf_counter() - w0
    finally:
        shutil.rmtree(where, ignore_errors=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=200_000)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--threads", type=int, default=None)
    a = ap.parse_args()
    print(f"{a.deals:,} deals at {a.players} players, heuristic play, seed 1")
    print(f"{'rules':<14} {'run deals/CPU-s':>16} {'kernel deals/CPU-s':>19} {'run CPU-s':>10}")
    for fam in FAMILIES:
        base = fam == "auction-pitch"
        rules = None if base else fam
        run_once(rules, 2000, a.players, a.threads)  # compiles, if need be
        cpu, _ = run_once(rules, a.deals, a.players, a.threads)
        kernel = ""
        if not base:
            odds = make_odds(Rules.parse(fam), a.players, a.deals, seed=1 * 8 + a.players)
            kernel = f"{a.deals / odds['cpu_s']:,.0f}"
        name = "base game" if base else fam
        print(f"{name:<14} {a.deals / cpu:>16,.0f} {kernel:>19} {cpu:>10.2f}")


if __name__ == "__main__":
    main()
