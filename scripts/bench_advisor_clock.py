"""The advisor seat's call on a clock: CPU and wall seconds per decision.

For each table size, the calls of one table game of odds seats are asked of an
``advisor+heuristic`` seat playing ``--samples`` deals a call: unclocked (what every
budget got before the clock: the budget was ignored) and with each ``--time``.

    .venv/bin/python scripts/bench_advisor_clock.py --players 4,7 --time 1,2,4 --calls 3
"""

from __future__ import annotations

import argparse
import time

from pitchsim.game.rules import Rules
from pitchsim.table.game import play_table_game
from pitchsim.table.seats import KernelSeat


def auction_views(players: int, seed: int):
    seen = []

    class Spy(KernelSeat):
        def decide(self, view, key, values=False, time=None):
            if view.phase == "auction":
                seen.append((view, key))
            return super().decide(view, key, values, time)

    play_table_game([Spy("odds+heuristic") for _ in range(players)], Rules(), seed, 0)
    return seen


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--players", default="4,7")
    ap.add_argument("--time", default="1,2,4")
    ap.add_argument("--samples", type=int, default=100_000)
    ap.add_argument("--calls", type=int, default=3)
    ap.add_argument("--seed", type=int, default=4)
    ap.add_argument("--no-before", action="store_true")
    a = ap.parse_args()
    seat = KernelSeat("advisor+heuristic", samples=a.samples)
    budgets = [None] * (not a.no_before) + [float(t) for t in a.time.split(",")]
    print("players budget  cpu_s(mean,max)  wall_s(mean,max)  stops")
    for n in map(int, a.players.split(",")):
        views = auction_views(n, a.seed)[: a.calls]
        seat.decide(*views[0], time=0.05)  # load the kernels
        seat.decide(*views[0])
        for budget in budgets:
            cpus, walls, stops = [], [], []
            for view, key in views:
                c, t = time.process_time(), time.perf_counter()
                d = seat.decide(view, key, time=budget)
                cpus.append(time.process_time() - c)
                walls.append(time.perf_counter() - t)
                s = d.search
                stops.append("-" if s is None else f"{s['stop']}@{s['deals']}")
            print(
                f"{n:7} {budget!s:>6}  {sum(cpus) / len(cpus):6.2f} {max(cpus):6.2f}"
                f"   {sum(walls) / len(walls):6.2f} {max(walls):6.2f}   {', '.join(stops)}",
                flush=True,
            )


if __name__ == "__main__":
    main()
