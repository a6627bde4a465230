#!/usr/bin/env python3
"""Search play speed: decisions per second per policy and W, hands per second in bid-odds.

    .venv/bin/python scripts/bench_search.py                       # 4 players
    .venv/bin/python scripts/bench_search.py --players 4,7 --policies rollout:16,pimc:16 --json

Each row runs bid-odds' kernel (``fixed_hand.fixed_kernel``) on the hand
A♥ K♥ 2♥ 9♣ 7♦ 3♠ with hearts as trump (bid-odds' own setting), warm kernels,
compile excluded, on 1 and 2 threads:

- one search seat (the pitcher, the others heuristic) and every seat searching;
- hands per second, wall clock and per CPU-second (other processes on a shared
  machine slow the wall rate far more than the CPU rate);
- decisions per second of the search seats: hands x 6 x search seats over the CPU
  time (forced plays included: they cost the heuristic's decision and no search).

The load average before and after is printed: read the figures with it.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

import numpy as np


def rate(players: int, spec: str, threads: int, hands: int) -> dict:
    from pitchsim.game.cards import mask_of, parse_hand
    from pitchsim.game.rules import Rules
    from pitchsim.kernels.fixed_hand import PITCHER, fixed_kernel
    from pitchsim.kernels.presets import rules_array, rules_table
    from pitchsim.table.boards import kernel_play_array
    from pitchsim.table.policies import seat_policies
    from pitchsim.util.runtime import use_threads

    hand = np.int64(mask_of(parse_hand("AH KH 2H 9C 7D 3S")))
    r = Rules()
    fr, tab = rules_array(r), rules_table(r)
    policies = kernel_play_array([int(i) for i in seat_policies(spec, players)])
    kernel = fixed_kernel(fr, policies)  # hearts trump, no bid: the most points
    out = [np.empty(hands, np.int64) for _ in range(3)]
    args = (players, PITCHER, hand, 2, 0, policies, fr, tab)
    with use_threads(threads):
        kernel(99, 0, 2, *args, *(x[:2] for x in out))  # compile / load
        t, c = time.perf_counter(), time.process_time()
        kernel(1, 0, hands, *args, *out)
        wall, cpu = time.perf_counter() - t, time.process_time() - c
    return {"wall": hands / wall, "cpu": hands / cpu, "seconds": wall}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--players", default="4")
    ap.add_argument("--policies", default="rollout:8,rollout:16,rollout:32,pimc:8,pimc:16")
    ap.add_argument("--hands", type=int, default=400, help="hands per timed run (one seat)")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    load_before = os.getloadavg()
    rows = []
    for n in (int(x) for x in a.players.split(",")):
        for policy in a.policies.split(","):
            for seats in ("one", "all"):
                spec = ",".join([policy] + ["heuristic"] * (n - 1)) if seats == "one" else policy
                searchers = 1 if seats == "one" else n
                hands = max(20, a.hands // searchers)
                for threads in (1, 2):
                    r = rate(n, spec, threads, hands)
                    rows.append(
                        {
                            "players": n,
                            "policy": policy,
                            "search_seats": seats,
                            "threads": threads,
                            "hands": hands,
                            "hands_per_s": r["wall"],
                            "hands_per_cpu_s": r["cpu"],
                            "decisions_per_cpu_s": r["cpu"] * 6 * searchers,
                        }
                    )
                    if not a.json:
                        print(
                            f"{n} players  {policy:<11} {seats:>3} seat(s) searching  "
                            f"{threads} thread(s): {r['wall']:8.1f} hands/s wall, "
                            f"{r['cpu']:8.1f} per CPU-s, "
                            f"{r['cpu'] * 6 * searchers:9.0f} decisions per CPU-s "
                            f"({hands} hands, {r['seconds']:.1f} s)",
                            flush=True,
                        )
    out = {"load_avg_before": load_before, "load_avg_after": os.getloadavg(), "rows": rows}
    if a.json:
        json.dump(out, sys.stdout, indent=1)
        print()
    else:
        print(f"load average {load_before[0]:.2f} before, {out['load_avg_after'][0]:.2f} after")


if __name__ == "__main__":
    main()
