"""Double-dummy solve time for whole deals from the opening lead, 2-7 players.

    python scripts/bench_solve.py                    # 2-7 players, base rules
    python scripts/bench_solve.py --players 4 --deals 2000 --rules follow=suit
    python scripts/bench_solve.py --players 7 --deals 20 --limit 60

Each deal is dealt at random (seed fixed), seat 0 pitches, and the solver finds the
value with every lead tried (trump = the led card's suit) on one core, one deal at a
time, reusing one transposition table.  Prints the median, 95th percentile and largest
time per deal; compile time (the first call) is reported apart.  ``--limit`` stops a
player count after that many seconds (the deals solved so far are reported).
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

from pitchsim.kernels.search import solver
from pitchsim.options import Rules


def random_deals(rng: np.random.Generator, n: int, count: int) -> np.ndarray:
    deals = np.zeros((count, n), dtype=np.int64)
    for d in range(count):
        deck = rng.permutation(52)
        for s in range(n):
            for c in deck[6 * s : 6 * s + 6]:
                deals[d, s] |= np.int64(1) << np.int64(c)
    return deals


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--players", default="2-7", help="e.g. 4 or 2-7 or 3,5")
    ap.add_argument("--deals", type=int, default=None, help="deals per player count")
    ap.add_argument("--rules", default=None, help="rule variants, as for --rules")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--limit", type=float, default=60.0, help="seconds per player count")
    args = ap.parse_args()
    if "-" in args.players:
        lo, hi = (int(x) for x in args.players.split("-"))
        counts = list(range(lo, hi + 1))
    else:
        counts = [int(x) for x in args.players.split(",")]
    rules = Rules.parse(args.rules)
    arr = rules.to_array()
    table = solver.new_table()
    t0 = time.perf_counter()
    first = random_deals(np.random.default_rng(0), 2, 1)[0]
    solver.solve_position(first, np.zeros(2, np.int64), first, 2, 0, np.zeros(8, np.int64), 0,
                          -1, 0, arr, table)  # fmt: skip
    print(f"compile (or load from cache): {time.perf_counter() - t0:.1f} s")
    print(f"rules: {rules.describe()}")
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    print("players  deals  median ms   p95 ms    max ms  mean value")
    for n in counts:
        if rules.partnership and n != 4:
            continue
        count = args.deals or {2: 2000, 3: 2000, 4: 1000, 5: 300, 6: 60, 7: 20}[n]
        deals = random_deals(np.random.default_rng([args.seed, n]), n, count)
        won = np.zeros(n, dtype=np.int64)
        trick = np.zeros(8, dtype=np.int64)
        times = []
        values = []
        start = time.perf_counter()
        for d in range(count):
            t = time.perf_counter()
            v = solver.solve_position(deals[d], won, deals[d], n, 0, trick, 0, -1, 0, arr, table)
            times.append(time.perf_counter() - t)
            values.append(v)
            if time.perf_counter() - start > args.limit:
                break
        ms = np.array(times) * 1e3
        cut = "" if len(ms) == count else f"  (stopped after {args.limit:.0f} s)"
        print(f"{n:7d} {len(ms):6d} {np.median(ms):10.3f} {np.percentile(ms, 95):8.2f} "
              f"{ms.max():9.1f} {np.mean(values):11.2f}{cut}", flush=True)  # fmt: skip
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
