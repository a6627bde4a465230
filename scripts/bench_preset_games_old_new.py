#!/usr/bin/env python3
"""Whole preset games in an old tree and this one, alternated; CPU time.

    .venv/bin/python scripts/bench_preset_games_old_new.py --old /path/to/old/checkout \\
        [--rules setback,smear] [-s heuristic,random] [--boards 2000] [--rounds 3]

Each round runs a fresh process of each tree (``PYTHONPATH``, this venv, one numba
thread, a fresh cache folder per tree and run of this script): a first tournament of 2 boards
compiles or loads the kernels, off the clock, then ``table.tournament.tournament`` (the
kernels each tree plays the preset on) of ``--boards`` boards under each preset, in games
per CPU-second
(``time.process_time``).  Prints each round, and per preset the medians and their ratio
new/old.  The same seed in both trees: where the new tree plays the same games (as it
should when only speed changed), the deals dealt agree, and they are printed.
"""

import argparse
import os
from pathlib import Path

from old_new import alternate, median_ratio

CODE = r"""
import json, sys, time
from pitchsim.table.tournament import tournament
rules, strategies, boards = sys.argv[1].split(";"), sys.argv[2], int(sys.argv[3])
out = {}
for spec in rules:
    tournament(strategies, players=4, boards=2, rules=spec, seed=1, threads=1)
    t0 = time.process_time()
    t = tournament(strategies, players=4, boards=boards, rules=spec, seed=7, threads=1)
    cpu = time.process_time() - t0
    games = t.boards * t.rotations
    out[spec] = [games / cpu, round(t.mean_deals * games)]
print(json.dumps(out))
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    ap.add_argument("--old", type=Path, required=True, help="a checkout of the tree before")
    ap.add_argument("--rules", default="setback,smear,ten-point")
    ap.add_argument("-s", "--strategies", default="heuristic,random")
    ap.add_argument("--boards", type=int, default=2000)
    ap.add_argument("--rounds", type=int, default=3)
    a = ap.parse_args()
    specs = a.rules.split(",")
    res = alternate(
        a.old, CODE, [";".join(specs), a.strategies, str(a.boards)], a.rounds, "preset-games",
        lambda d: {k: f"{v[0]:,.0f} games/CPU-s, {v[1]} deals" for k, v in d.items()},
    )  # fmt: skip
    print(f"strategies {a.strategies}, 4 players, {a.boards} boards, one thread")
    print(f"load average {os.getloadavg()[0]:.2f}")
    for spec in specs:
        mo, mn, ratio = median_ratio(res, lambda x, spec=spec: x[spec][0])
        print(f"{spec}: old median {mo:,.0f} games/CPU-s, new {mn:,.0f}, new/old {ratio:.3f}")


if __name__ == "__main__":
    main()
