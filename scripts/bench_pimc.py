"""pimc decision time: every legal card valued double-dummy in W sampled worlds.

    .venv/bin/python scripts/bench_pimc.py                      # 4 and 7 players, W = 100
    .venv/bin/python scripts/bench_pimc.py --players 7 --worlds 100 --positions 10 --cut 0

Positions: random deals (seed fixed), seat 0 pitching, played by random legal cards to a
random card of the first trick (``--cut K``: after K cards; 0 is the pitcher's opening
lead).  Each decision is ``hint`` with ``pimc`` (the preset path's worlds and solver,
``preset_world_values``, in blocks of 25 worlds).  Prints the median, 95th
percentile and largest CPU time per decision (process time: other processes on a
shared machine distort it less than wall time) and decisions per CPU-second; compile
(the first call) is excluded.

(``--kernel``, which timed the base game's own pimc options of issue 33 --
target queries, per-world node budgets -- went with that search: docs/search.md keeps
its measurements.)
"""

from __future__ import annotations

import argparse
import os
import random
import time

import numpy as np

from pitchsim.game.cards import cards_of
from pitchsim.game.rules import Rules
from pitchsim.search.hint import hint
from pitchsim.search.position import start_position


def positions(n: int, count: int, seed: int, cut: int | None) -> list:
    rng = random.Random(f"{seed}-{n}")
    out = []
    for _ in range(count):
        deck = list(range(52))
        rng.shuffle(deck)
        dealt = [sum(1 << c for c in deck[6 * s : 6 * s + 6]) for s in range(n)]
        pos = start_position(dealt, 0, Rules())
        for _ in range(rng.randrange(0, n) if cut is None else cut):
            pos = pos.play(rng.choice(cards_of(pos.legal())))
        out.append(pos)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--players", default="4,7")
    ap.add_argument("--worlds", type=int, default=100)
    ap.add_argument("--positions", type=int, default=10, help="decisions per player count")
    ap.add_argument("--cut", type=int, default=None, help="cards played before (default random)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    t0 = time.perf_counter()
    hint(positions(2, 1, 0, 1)[0], "pimc", 2, seed=1)
    print(f"compile (or load from cache): {time.perf_counter() - t0:.1f} s")
    print(f"load average before: {os.getloadavg()[0]:.2f}; {args.worlds} worlds a decision")
    print("players  decisions  median s    p95 s    max s  decisions per CPU-s")
    for n in (int(x) for x in args.players.split(",")):
        times = []
        for pos in positions(n, args.positions, args.seed, args.cut):
            t = time.process_time()
            hint(pos, "pimc", args.worlds, seed=1)
            times.append(time.process_time() - t)
        s = np.array(times)
        print(f"{n:7d} {len(s):10d} {np.median(s):9.3f} {np.percentile(s, 95):8.3f} "
              f"{s.max():8.3f} {len(s) / s.sum():20.2f}", flush=True)  # fmt: skip
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
