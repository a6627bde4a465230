#!/usr/bin/env python3
"""pitchsim's call of a partner's card (docs/rules.md 12.1.2: the highest trump the
pitcher lacks) against a uniformly random callable card, paired on the same deals.

    PYTHONPATH=. .venv/bin/python scripts/call_policy.py --boards 2000
    PYTHONPATH=. .venv/bin/python scripts/call_policy.py --rules smear,partner=announced --players 6

Each board is one hand at the open table (``table.game.TableDeal``: the deal and the
draw the family kernels give board ``b`` of ``--seed``, scores 0, the dealer seat
``b`` mod players), played twice by built-in seats (``--strategy``): once with
pitchsim's call, once with a card drawn uniformly from the call's legal actions
(``callable_cards``: any trump under called, also one the pitcher holds, then he plays
alone, 12.1.5).  Everything before the call (the deal, the auction, the naming of
trump) is the same in both; every decision after it is made by the same seats from the
same random streams, so the two differ only by the call and what follows from it.
Hands nobody bid are left out.

For the pitcher's side (12.1.6: the pitcher and the holder of the call) it prints the
mean per hand of its points taken, P(make) and its score change (the pitcher's
``round_points``), each for both calls and as the paired difference (pitchsim's minus
random) with a 95% interval (1.96 paired standard errors), and the CPU seconds.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time

import numpy as np

from pitchsim.game.rules import Rules
from pitchsim.kernels.contract import MAX_DEALS
from pitchsim.kernels.rng import deal_key
from pitchsim.table.game import TableDeal, _ask, _kernel_deal
from pitchsim.table.seats import KernelSeat


def play(r: Rules, n: int, dealer: int, key, seats, pick) -> dict:
    """One hand at the table; the pitcher's call is ``pick(view)`` (None: the seats')."""
    dealt, stock, draw = _kernel_deal(r, n, dealer, key)
    walk = TableDeal(r, n, dealer, dealt, stock, [0] * n, draw).run()
    try:
        seat, view = next(walk)
        while True:
            if view.phase == "call" and pick is not None:
                action = pick(view)
            else:
                action = _ask(seats, seat, view, key)
            seat, view = walk.send(action)
    except StopIteration as end:
        return end.value


def interval(xs: list[float]) -> tuple[float, float]:
    m = sum(xs) / len(xs)
    var = sum((x - m) ** 2 for x in xs) / (len(xs) - 1)
    return m, 1.96 * math.sqrt(var / len(xs))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rules", default="smear,partner=called")
    ap.add_argument("--players", type=int, default=5)
    ap.add_argument("--boards", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--strategy", default="heuristic+heuristic")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    r, n = Rules.parse(a.rules), a.players
    seats = [KernelSeat(a.strategy) for _ in range(n)]
    rows = {"points": ([], []), "made": ([], []), "score": ([], [])}
    alone = [0, 0]
    cpu = time.process_time()
    for b in range(a.boards):
        key = np.uint64(deal_key(a.seed, b * MAX_DEALS))
        rng = random.Random(a.seed * 1_000_003 + b)
        docs = [
            play(r, n, b % n, key, seats, None),
            play(r, n, b % n, key, seats, lambda v, rng=rng: rng.choice(v.legal())),
        ]
        p = docs[0]["pitcher"]
        if p is None:
            continue
        for arm, d in enumerate(docs):
            rows["points"][arm].append(d["points_won"][p])
            rows["made"][arm].append(float(d["made"]))
            rows["score"][arm].append(d["round_points"][p])
            alone[arm] += d["partner"] is None
    cpu = time.process_time() - cpu
    hands = len(rows["points"][0])
    out: dict = {
        "rules": a.rules,
        "players": n,
        "strategy": a.strategy,
        "boards": a.boards,
        "seed": a.seed,
        "hands": hands,
        "alone": {"pitchsim": alone[0] / hands, "random": alone[1] / hands},
        "cpu_seconds": round(cpu, 1),
    }
    for name, (mine, rand) in rows.items():
        d, half = interval([x - y for x, y in zip(mine, rand, strict=True)])
        out[name] = {
            "pitchsim": sum(mine) / hands,
            "random": sum(rand) / hands,
            "difference": d,
            "ci95": [d - half, d + half],
        }
    if a.json:
        print(json.dumps(out, indent=2))
        return
    print(
        f"{a.rules}, {n} players, {a.strategy}: {hands} hands bid of {a.boards} boards "
        f"(seed {a.seed}), {cpu:.1f} CPU s; the pitcher alone: pitchsim's call "
        f"{out['alone']['pitchsim']:.1%}, random {out['alone']['random']:.1%}"
    )
    for name, words in (
        ("points", "the pitcher's side's points"),
        ("made", "P(make)"),
        ("score", "the pitcher's score change"),
    ):
        o = out[name]
        lo, hi = o["ci95"]
        print(
            f"  {words}: pitchsim {o['pitchsim']:.3f}, random {o['random']:.3f}, "
            f"difference {o['difference']:+.3f} (95% {lo:+.3f} to {hi:+.3f})"
        )


if __name__ == "__main__":
    main()
