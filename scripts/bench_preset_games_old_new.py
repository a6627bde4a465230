#!/usr/bin/env python3
"""Whole preset games in an old tree and this one, alternated; CPU time.

    .venv/bin/python scripts/bench_preset_games_old_new.py --old /path/to/old/checkout \\
        [--rules setback,smear] [-s heuristic,random] [--boards 2000] [--rounds 3]

Each round runs a fresh process of each tree (``PYTHONPATH``, this venv, one numba
thread, a fresh cache folder per tree and run of this script): a first tournament of 2 boards
compiles or loads the kernels, off the clock, then ``games.tournament.tournament`` (the
kernels each tree plays the preset on) of ``--boards`` boards under each preset, in games
per CPU-second
(``time.process_time``).  Prints each round, and per preset the medians and their ratio
new/old.  The same seed in both trees: where the new tree plays the same games (as it
should when only speed changed), the deals dealt agree, and they are printed.
"""

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
CODE = r"""
import json, sys, time
from pitchsim.games.tournament import tournament
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
    trees = {"old": str(a.old.resolve()), "new": str(HERE)}
    res: dict[str, list[dict]] = {k: [] for k in trees}
    for rnd in range(a.rounds):
        order = list(trees.items()) if rnd % 2 == 0 else list(trees.items())[::-1]
        for name, path in order:
            env = dict(
                os.environ,
                PYTHONPATH=path,
                # a fresh folder per run of this script: numba checks only a kernel's own
                # file, so a cache kept from an older tree could serve stale kernels
                NUMBA_CACHE_DIR=f"/tmp/bench-preset-games-cache-{name}-{os.getpid()}",
                NUMBA_NUM_THREADS="1",
            )
            cmd = [sys.executable, "-c", CODE, ";".join(specs), a.strategies, str(a.boards)]
            r = subprocess.run(cmd, env=env, capture_output=True, text=True, cwd=path)
            if r.returncode != 0:
                sys.exit(f"{name} tree failed: {r.stderr.strip().splitlines()[-1]}")
            d = json.loads(r.stdout.strip().splitlines()[-1])
            res[name].append(d)
            shown = {k: f"{v[0]:,.0f} games/CPU-s, {v[1]} deals" for k, v in d.items()}
            print(rnd, name, shown, flush=True)
    print(f"strategies {a.strategies}, 4 players, {a.boards} boards, one thread")
    print(f"load average {os.getloadavg()[0]:.2f}")
    for spec in specs:
        o = sorted(x[spec][0] for x in res["old"])
        n = sorted(x[spec][0] for x in res["new"])
        mo, mn = o[len(o) // 2], n[len(n) // 2]
        print(f"{spec}: old median {mo:,.0f} games/CPU-s, new {mn:,.0f}, new/old {mn / mo:.3f}")


if __name__ == "__main__":
    main()
