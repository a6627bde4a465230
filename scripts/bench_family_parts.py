#!/usr/bin/env python3
"""Where a family hand's time goes, per preset: the deal, then naming trump and the
discard and draw, then the play, then the scoring (ns a deal, each stage's median over
``ROUNDS`` rounds, one thread, one process, warm kernels).  A stage's figure is the
difference between running up to it and up to the one before, so it is noisy on a
loaded machine: read it with the load.

    ROUNDS=5 .venv/bin/python scripts/bench_family_parts.py random 200000 auction-pitch smear ten-point
    ROUNDS=5 .venv/bin/python scripts/bench_family_parts.py heuristic 200000 auction-pitch setback

The end-to-end figure, with the base kernels beside it, is ``bench_families.py
--versus-base``; this one says which stage a preset's gap lies in.
"""

from __future__ import annotations

import os
import sys
import time

import numpy as np
from numba import njit

from pitchsim.game.rules import Rules, as_family
from pitchsim.kernels.families.borrow import keep_alive
from pitchsim.kernels.families.deal import cards_each, deal_family_fixed
from pitchsim.kernels.families.draw import discard_and_draw
from pitchsim.kernels.families.plain import play_plain, random_play
from pitchsim.kernels.families.policies import name_trump
from pitchsim.kernels.families.score import score_hand
from pitchsim.kernels.families.simulate import family_policies, hand_scratch
from pitchsim.kernels.families.tables import (
    F_DISCARD,
    F_TRUMP_NAMED,
    family_array,
    family_tables,
)
from pitchsim.kernels.rng import AUCTION_COUNTER, deal_key
from pitchsim.util.runtime import use_threads

STAGES = ("deal", "+name/draw", "+play", "+score")


@njit
def run(stage, seed, count, n, policies, fr, tab, rnd):
    """Deals ``0 .. count-1`` of ``seed`` with seat 0 pitching, up to ``stage``; a sum of
    what each stage made, so that none is optimised away."""
    acc = 0
    owned = hand_scratch(n)
    deck, dealt, held, hands, won, trick, tseats, award, points, junk = owned
    no_log = junk[:0]
    for d in range(count):
        key = deal_key(seed, d)
        size = deal_family_fixed(key, n, n - 1, 0, np.int64(0), fr, deck, dealt)
        for s in range(n):
            held[s] = dealt[s]
        acc += dealt[0]
        if stage == 0:
            continue
        trump = -1
        if fr[F_TRUMP_NAMED] != 0:
            trump = name_trump(policies[0], dealt[0], n, fr, tab, key, AUCTION_COUNTER)
            if fr[F_DISCARD] != 0:
                top = n * cards_each(n, fr)
                acc += discard_and_draw(held, n, deck, top, size, 0, trump, fr, tab, key, no_log)
        if stage == 1:
            continue
        if rnd:
            trump, _ = random_play(
                held, n, 0, 0, trump, -1, policies, fr, tab, key, hands, won, trick, tseats,
                no_log, no_log,
            )  # fmt: skip
        else:
            trump, _ = play_plain(
                held, n, 0, 0, trump, -1, policies, fr, tab, key, hands, won, trick, tseats,
                no_log, no_log,
            )  # fmt: skip
        acc += won[0] + trump
        if stage == 2:
            continue
        score_hand(held, won, n, trump, fr, tab, award, points)
        acc += points[0]
    keep_alive(owned)
    return acc


def main() -> None:
    use_threads(1)
    policy, deals, specs = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
    rounds = int(os.environ.get("ROUNDS", "5"))
    print(f"load average {os.getloadavg()[0]:.2f}")
    n = 4
    for spec in specs:
        r = as_family(Rules.parse(spec))
        args = (n, family_policies(policy, n), family_array(r), family_tables(r))
        args += (policy == "random",)
        for stage in range(len(STAGES)):
            run(stage, 1, 1000, *args)  # compile (or load) apart
        times: dict[int, list[float]] = {stage: [] for stage in range(len(STAGES))}
        for _ in range(rounds):
            for stage in times:
                t = time.process_time()
                run(stage, 1, deals, *args)
                times[stage].append(time.process_time() - t)
        ns = [sorted(times[s])[rounds // 2] / deals * 1e9 for s in range(len(STAGES))]
        parts = [ns[0]] + [ns[i] - ns[i - 1] for i in range(1, len(ns))]
        cells = "  ".join(f"{name} {v:6.0f}" for name, v in zip(STAGES, parts, strict=True))
        print(f"{spec:14s} {policy:9s} {cells}  total {ns[-1]:6.0f} ns/deal")


if __name__ == "__main__":
    main()
