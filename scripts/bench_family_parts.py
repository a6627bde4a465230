#!/usr/bin/env python3
"""Where a family hand's time goes, per preset: the deal, then naming trump and the
discard and draw, then the play, then the scoring (ns a deal, each stage's median over
``ROUNDS`` rounds, one thread, one process, warm kernels).  A stage's figure is the
difference between running up to it and up to the one before, so it is noisy on a
loaded machine: read it with the load.

    ROUNDS=5 .venv/bin/python scripts/bench_family_parts.py random 200000 auction-pitch smear ten-point
    ROUNDS=5 .venv/bin/python scripts/bench_family_parts.py heuristic 200000 auction-pitch setback

The end-to-end figure is ``bench_families.py``; this one says which stage a preset's
time lies in.

``bid-odds`` as the first argument: the path of the bid-odds kernel instead
(``kernels.fixed_hand``: ``deal_cards_fixed``, ``play_hand``, ``score_hand``
and its award sum) on auction-pitch, a fixed hand in the pitcher's seat and in a
defender's, stage by stage (deal, +play, +score).  (The base game's own kernels, once
timed beside it, are gone since issue 28.)

    ROUNDS=9 .venv/bin/python scripts/bench_family_parts.py bid-odds 100000 heuristic random
"""

from __future__ import annotations

import os
import sys
import time

import numpy as np
from numba import njit, prange

from pitchsim.game.rules import Rules
from pitchsim.kernels.borrow import keep_alive
from pitchsim.kernels.deal import cards_each, deal_cards_fixed
from pitchsim.kernels.draw import discard_and_draw
from pitchsim.kernels.fixed_hand import AS_DEFENDER, defender_seat
from pitchsim.kernels.plain import play_plain, random_play
from pitchsim.kernels.play import play_hand as play_preset
from pitchsim.kernels.policies.cards import name_trump
from pitchsim.kernels.presets import (
    F_DISCARD,
    F_PARTNERSHIP,
    F_TRUMP_NAMED,
    rules_array,
    rules_table,
)
from pitchsim.kernels.rng import AUCTION_COUNTER, deal_key
from pitchsim.kernels.score import AWARD_VALUES, N_AWARDS, score_hand
from pitchsim.kernels.simulate import hand_scratch, policy_row
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
        size = deal_cards_fixed(key, n, n - 1, 0, np.int64(0), fr, deck, dealt)
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
                acc += discard_and_draw(
                    held, n, deck, top, size, 0, n - 1, trump, fr, tab, key, no_log, 0
                )
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
        score_hand(held, won, n, trump, fr, tab, award, points, 0, -1)
        acc += points[0]
    keep_alive(owned)
    return acc


@njit(cache=True, parallel=True)
def run_fixed(stage, seed, count, n, hand_seat, fixed_hand, policies, fr, tab):
    """``kernels.fixed_hand._play_block``'s deals (trump=first-lead, no fixed
    trump) up to ``stage`` (0 deal, 1 +play, 2 +score); a sum, as ``run``.  A parallel
    loop run on one thread: numba compiles a prange body apart (error model numpy, its
    arrays hoisted and marked noalias), and the base game's hand inlined there runs
    1.3x (heuristic) to 2.3x (random) faster than in a plain function (session 45), so
    the base kernel's figures need a prange body.  (The family kernel's deal loop is a
    plain function, ``_play_block``, whose play and score are calls: there a prange
    body gains it less, 0.9x-0.8x.)"""
    out = np.zeros(count, np.int64)
    owned = hand_scratch(n)
    deck, dealt, held, hands, won, trick, tseats, award, points, junk = owned
    no_log = junk[:0]
    partnership = fr[F_PARTNERSHIP] != 0
    for d in prange(count):  # (one thread: the scratch is shared)
        seat = hand_seat if hand_seat >= 0 else defender_seat(d, n, partnership)
        key = deal_key(seed, d)
        deal_cards_fixed(key, n, n - 1, seat, fixed_hand, fr, deck[:0], dealt)
        out[d] += dealt[1]
        if stage == 0:
            continue
        for s in range(n):
            held[s] = dealt[s]
            won[s] = 0
        trump, _ = play_preset(
            held, dealt, 0, n, 0, n - 1, 0, -1, -1, np.int64(-1), policies, fr, tab, key,
            hands, won, trick, tseats, no_log, no_log,
        )  # fmt: skip
        out[d] += won[0] + trump
        if stage == 1:
            continue
        score_hand(held, won, n, trump, fr, tab, award, points, 0, -1)
        total = 0
        for i in range(N_AWARDS):
            if award[i] >= 0:
                total += AWARD_VALUES[i]
        out[d] += points[seat] + total
    keep_alive(owned)
    return out.sum()


FIXED_STAGES = ("deal", "+play", "+score")


def bid_odds_parts(deals: int, policies: list[str], rounds: int) -> None:
    """The bid-odds kernel's path stage by stage (the module)."""
    n = 4
    rules = Rules()
    r = rules
    fr, tab = rules_array(r), rules_table(r)
    pack = sorted(r.pack(n))
    chosen = np.random.default_rng(2026).choice(pack, 6, replace=False)
    hand = np.int64(sum(1 << int(c) for c in chosen))  # bench_families' bid-odds hand
    for policy in policies:
        fam = policy_row(policy, n)
        for seat in (0, AS_DEFENDER):
            runs = {
                "family": lambda st, sd, k, seat=seat, f=fam: run_fixed(
                    st, sd, k, n, seat, hand, f, fr, tab
                ),
            }
            for run_ in runs.values():
                for stage in range(len(FIXED_STAGES)):
                    run_(stage, 1, 1000)  # compile (or load) apart
            times = {(e, st): [] for e in runs for st in range(len(FIXED_STAGES))}
            for k in range(rounds):
                for stage in range(len(FIXED_STAGES)):
                    for engine, run_ in runs.items():  # alternated stage by stage
                        t = time.process_time()
                        run_(stage, k + 2, deals)
                        times[engine, stage].append(time.process_time() - t)
            where = "pitcher" if seat == 0 else "defender"
            for engine in runs:
                ns = [
                    sorted(times[engine, st])[rounds // 2] / deals * 1e9
                    for st in range(len(FIXED_STAGES))
                ]
                parts = [ns[0]] + [ns[i] - ns[i - 1] for i in range(1, len(ns))]
                cells = "  ".join(
                    f"{name} {v:6.0f}" for name, v in zip(FIXED_STAGES, parts, strict=True)
                )
                print(f"{policy:9s} {where:8s} {engine:6s} {cells}  total {ns[-1]:6.0f} ns/deal")


def main() -> None:
    if len(sys.argv) < 3 or sys.argv[1] in ("-h", "--help"):
        print(__doc__)
        return
    use_threads(1)
    if sys.argv[1] == "bid-odds":
        rounds = int(os.environ.get("ROUNDS", "9"))
        print(f"load average {os.getloadavg()[0]:.2f}")
        bid_odds_parts(int(sys.argv[2]), sys.argv[3:] or ["heuristic", "random"], rounds)
        return
    policy, deals, specs = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
    rounds = int(os.environ.get("ROUNDS", "5"))
    print(f"load average {os.getloadavg()[0]:.2f}")
    n = 4
    for spec in specs:
        r = Rules.parse(spec)
        args = (n, policy_row(policy, n), rules_array(r), rules_table(r))
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
