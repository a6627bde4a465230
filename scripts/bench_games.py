#!/usr/bin/env python3
"""Whole games per second through the game kernels of any preset (auction + play, to
the target; ``kernels/game.py``, the base game's shape compiled in where the
rules have it).

    .venv/bin/python scripts/bench_games.py [--games 200000] [--players 4]
        [--strategy heuristic] [--rules ...] [--repeat 3]

Prints the first call's time (numba compile, or loading the on-disk cache) apart from
the timed runs, then games/s on 1 thread (= per core) and on 2 threads, with the
scaling.  Each figure is the median of ``--repeat`` runs over the same games.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numba
import numpy as np

from pitchsim.game.rules import Rules
from pitchsim.kernels.game import MAX_CALL, games_kernel
from pitchsim.kernels.presets import rules_array, rules_table
from pitchsim.table.bidding import parse_strategies
from pitchsim.table.boards import odds_for, seat_ids
from pitchsim.util.runtime import use_threads


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=200_000)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--strategy", default="heuristic", help="every seat's bidding+play")
    ap.add_argument("--rules", default=None, help="rule options, e.g. partnership=true")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()

    n = args.players
    rules = Rules.parse(args.rules)
    seats = parse_strategies(args.strategy) * n
    bidders, players = seat_ids(seats)
    odds, defender = odds_for(seats, rules, n)
    fr, tab = rules_array(rules), rules_table(rules)
    play_games = games_kernel(fr, bidders, players)

    def run(count: int) -> tuple[float, float, np.ndarray, np.ndarray]:
        w = np.empty(count, dtype=np.int64)
        sc = np.empty((count, n), dtype=np.int64)
        dl = np.empty(count, dtype=np.int64)
        st = np.empty((count, n, MAX_CALL, 2), dtype=np.int64)
        t0, c0 = time.perf_counter(), time.process_time()
        play_games(args.seed, 0, count, n, bidders, players, fr, tab, odds, defender, w, sc, dl, st)
        return time.perf_counter() - t0, time.process_time() - c0, w, dl

    first, _, _, _ = run(8)
    print(f"{args.strategy} x {n} players, {rules.describe_in_full()}")
    print(f"first call (compile or cache load): {first:.2f} s")
    rates = {}
    for threads in (1, 2):
        if threads > numba.config.NUMBA_NUM_THREADS:
            continue
        times, cpu = [], []
        with use_threads(threads):  # as every pitchsim command runs its kernels
            for _ in range(args.repeat):
                dt, ct, w, dl = run(args.games)
                times.append(dt)
                cpu.append(ct)
        rates[threads] = args.games / statistics.median(times)
        per_cpu = args.games / statistics.median(cpu)
        print(
            f"{threads} thread(s): {rates[threads]:,.0f} games/s wall, "
            f"{per_cpu:,.0f} games per CPU-second  "
            f"(median of {args.repeat} x {args.games:,} games; "
            f"{dl.mean():.2f} deals/game, {(w == 0).sum()} unfinished)"
        )
    if 2 in rates:
        print(f"2-thread scaling: {rates[2] / rates[1]:.2f}x")


if __name__ == "__main__":
    main()
