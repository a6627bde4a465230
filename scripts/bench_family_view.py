#!/usr/bin/env python3
"""How fast are views read and checked: the base view (the three examples) and the
family view (every decision of reference games with random legal decisions, cut by
``view.cut_hand``), in views per CPU second.  Also counts the cut views that
fail to parse or whose legal actions miss the action taken (both should be 0).

    .venv/bin/python scripts/bench_family_view.py --games 20
"""

from __future__ import annotations

import argparse
import json
import random
import time

import project_python  # noqa: E402  (scripts/ is first on sys.path)

project_python.require(__file__)

from pitchsim.game import reference as F  # noqa: E402
from pitchsim.game.cards import cards_of  # noqa: E402
from pitchsim.game.rules import Rules  # noqa: E402
from pitchsim.game.view import View, cut_hand  # noqa: E402

ROOT = project_python.ROOT
PRESETS = [
    ("setback", 4),
    ("smear", 4),
    ("smear", 3),
    ("ten-point", 4),
    ("ten-point,partnership=false", 5),
]


def random_game(rules, n: int, seed: int):
    rng, pick = random.Random(seed), random.Random(seed + 1)
    return F.play_game(
        n,
        rules,
        rng,
        lambda seat, hand, calls, legal, scores: pick.choice(legal),
        lambda seat, hand: pick.randrange(4),
        lambda view: pick.choice(cards_of(view.legal)),
        first_dealer=pick.randrange(n),
        max_hands=30,
    )


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=20, help="games per preset")
    args = ap.parse_args()
    base = [
        json.loads((ROOT / "examples" / "views" / f"{k}.json").read_text())
        for k in ("call", "lead", "follow")
    ]
    t = time.process_time()
    reps = 2000
    for _ in range(reps):
        for d in base:
            View.from_json(d)
    print(f"base view: {len(base) * reps / (time.process_time() - t):,.0f} views/CPU-s")
    for spec, n in PRESETS:
        rules = Rules.parse(spec)
        cut = []
        for seed in range(args.games):
            g = random_game(rules, n, seed)
            before = [0] * n
            for h in g.hands:
                cut += list(cut_hand(h, n, rules, before))
                before = h.scores
        t = time.process_time()
        bad = 0
        for _seat, doc, action in cut:
            try:
                bad += action not in View.from_json(doc).legal()
            except Exception:
                bad += 1
        dt = time.process_time() - t
        print(
            f"{spec} ({n} players): {len(cut):,} views, {len(cut) / dt:,.0f} views/CPU-s, {bad} bad"
        )


if __name__ == "__main__":
    main()
