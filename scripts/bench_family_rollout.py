#!/usr/bin/env python3
"""The family search play policies' speed (``rollout``, and ``pimc`` with ``--kinds``):
decisions per CPU-second, per family.

    .venv/bin/python scripts/bench_family_rollout.py
    .venv/bin/python scripts/bench_family_rollout.py --hands 200 --worlds 16 32
    .venv/bin/python scripts/bench_family_rollout.py --families cinch ten-point --worlds 32
    .venv/bin/python scripts/bench_family_rollout.py --players 5 --kinds rollout pimc \
        --families smear smear,partner=called smear,partner=announced --hands 40 --worlds 16

Hands are played with every seat ``rollout:W`` (``kernels.simulate.
play_logged``: seat 0 pitches and names trump, one thread, warm kernels); a
*decision* is a card a seat chose with more than one legal card (the only ones that
search), counted from the logged legal masks; forced cards are counted apart.  Under
cinch the dealer (seat n - 1) robs (12.7) and seat 0 pitches.  CPU
seconds are the process's (``time.process_time``), so a loaded machine slows the wall
clock, not the figure much.  The same hands with every seat ``heuristic`` give the
baseline.  Under a called partner (12.1) the pitcher calls and the search values each
world with its own sides; the same seeds deal the same hands with and without one.
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

from pitchsim.game.rules import Rules
from pitchsim.kernels.play import MAX_TRICKS
from pitchsim.kernels.presets import rules_array, rules_table
from pitchsim.kernels.score import N_AWARDS
from pitchsim.kernels.simulate import play_logged
from pitchsim.table.policies import play_array, play_policy

FAMILIES = ["setback", "smear", "ten-point"]


def run(spec: str, n: int, hands: int, policy: str, seed: int) -> tuple[float, int, int]:
    r = Rules.parse(spec)
    fr, tab = rules_array(r), rules_table(r)
    pol = play_array([play_policy(policy).id] * n)
    width = MAX_TRICKS * (n + 2)

    def call(count):
        legal = np.zeros((count, MAX_TRICKS * n), np.int64)
        play_logged(
            seed, 0, count, n, n - 1, 0, np.int64(0), -1, pol, fr, tab,
            np.zeros((count, n), np.int64), np.zeros((count, 54), np.int64),
            np.zeros((count, n), np.int64), np.zeros((count, 4), np.int64),
            np.zeros((count, width), np.int64), legal, np.zeros((count, 54), np.int64),
            np.zeros((count, N_AWARDS), np.int64), np.zeros((count, n), np.int64),
        )  # fmt: skip
        return legal

    call(1)  # compile
    c0 = time.process_time()
    legal = call(hands)
    cpu = time.process_time() - c0
    m = legal[legal != 0]
    searched = int(np.sum((m & (m - 1)) != 0))
    return cpu, searched, int(m.size) - searched


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hands", type=int, default=100)
    ap.add_argument("--worlds", type=int, nargs="+", default=[16])
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--families", nargs="+", default=FAMILIES, help="presets (rules specs)")
    ap.add_argument("--kinds", nargs="+", default=["rollout"], choices=["rollout", "pimc"])
    a = ap.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.1f}")
    for spec in a.families:
        cpu, searched, forced = run(spec, a.players, a.hands * 20, "heuristic", a.seed)
        per = (searched + forced) / cpu
        print(f"{spec:10s} heuristic   {a.hands * 20} hands: {per:12,.0f} cards/CPU-s")
        for kind in a.kinds:
            for w in a.worlds:
                cpu, searched, forced = run(spec, a.players, a.hands, f"{kind}:{w}", a.seed)
                print(
                    f"{spec:10s} {kind}:{w:<4d}{a.hands} hands: {searched} decisions "
                    f"(+{forced} forced) in {cpu:.2f} CPU-s = {searched / cpu:,.1f} "
                    f"decisions/CPU-s, {1000 * cpu / searched:.2f} ms a decision"
                )
    print(f"load average after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
