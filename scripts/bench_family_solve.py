"""Family double-dummy solve time for whole hands from the opening lead, per family.

    python scripts/bench_family_solve.py                       # every preset, 3-7 players
    python scripts/bench_family_solve.py --rules smear --players 6 --hands 200
    python scripts/bench_family_solve.py --limit 60            # stop a row after 60 s

Each hand is dealt by the family reference engine (seeded), seat 0 pitches, trump is
drawn at random and named (trump=named) with the discard and draw done (4.8), or left
to the first lead (trump=first-lead: every lead tried, 6.3.5); then
``kernels/search/solver.solve_preset`` finds the value, one hand at a time on one
core, reusing one transposition table.  Prints the median, 95th percentile and largest
CPU time per hand (CPU time of this thread: other processes distort it less than wall
time); the first call's compile (or cache load) is reported apart.  ``--limit`` stops a
row after that many seconds (the hands solved so far are reported).
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np

from pitchsim.game import reference as ref
from pitchsim.game.presets import FAMILIES
from pitchsim.game.rules import Rules
from pitchsim.kernels.presets import rules_array, rules_table
from pitchsim.kernels.search import solver

DEFAULT = ("setback", "smear", "ten-point", "ten-point,partnership=false", "jokers=1")


def whole_hand(rules, n: int, rng: random.Random) -> tuple[np.ndarray, int]:
    """(held, trump) of one hand at its opening lead, seat 0 pitching."""
    dealt, stock = ref.deal(rng, rules, n, n - 1)
    trump = -1
    held = dealt
    if rules.trump == "named":
        trump = rng.randrange(4)
        if rules.discard == "non-trump":
            held, _ = ref.discard_and_draw(dealt, stock, 0, trump, rules, rng)
    return np.array(held, dtype=np.int64), trump


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules", action="append", help="a family (repeatable); default: presets")
    ap.add_argument("--players", default="3-7", help="a count or a range, e.g. 4 or 3-7")
    ap.add_argument("--hands", type=int, default=50)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--limit", type=float, default=120.0, help="seconds per row at most")
    a = ap.parse_args()
    lo, _, hi = a.players.partition("-")
    counts = range(int(lo), int(hi or lo) + 1)
    table = solver.new_table(solver.BIG_TABLE_BITS)
    t = time.process_time()
    probe = Rules.parse("smear")
    held, trump = whole_hand(probe, 3, random.Random(0))
    solver.solve_preset(
        held, np.zeros(3, np.int64), held, 3, 0, np.zeros(8, np.int64), 0, 0, 0,
        rules_array(probe), rules_table(probe), table, -1,
    )  # fmt: skip
    print(f"compile (or cache load) of the solver: {time.process_time() - t:.1f} s CPU")
    print(f"{'rules':<30} {'n':>2} {'hands':>5} {'median ms':>10} {'p95 ms':>9} {'worst ms':>9}")
    for spec in a.rules or DEFAULT:
        rules = Rules.parse(spec)
        fr, tab = rules_array(rules), rules_table(rules)
        span = FAMILIES[rules.family].players
        for n in counts:
            try:
                rules.check_players(n)
            except Exception:
                continue
            if not span[0] <= n <= span[1]:
                continue
            rng = random.Random(f"{a.seed}/{spec}/{n}")
            times = []
            start = time.process_time()
            for _ in range(a.hands):
                held, trump = whole_hand(rules, n, rng)
                leader = 0
                if rules.follow == "only":
                    leader = next(
                        (s for s in range(n) if ref.trumps_in(int(held[s]), trump, rules)), 0
                    )
                t0 = time.thread_time()
                solver.solve_preset(
                    held, np.zeros(n, np.int64), held, n, leader, np.zeros(8, np.int64), 0,
                    trump, 0, fr, tab, table, -1,
                )  # fmt: skip
                times.append((time.thread_time() - t0) * 1e3)
                if time.process_time() - start > a.limit:
                    break
            ts = np.sort(times)
            print(
                f"{spec:<30} {n:>2} {len(ts):>5} {np.median(ts):>10.1f} "
                f"{np.percentile(ts, 95):>9.1f} {ts[-1]:>9.1f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
