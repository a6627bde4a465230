"""CPU seconds of ``pitchsim hint`` under each rule family at its default settings
(rollout, 200 worlds, a 4 s clock, stop when separated), on views cut from games.

    .venv/bin/python scripts/bench_family_hint.py [--views 10] [--seed 1]

Games are played by the reference engine with random legal decisions (seeded); every
card decision with two or more legal cards is cut into the seat's view
(``game.family_view.cut_hand``), and ``--views`` of them, spread over the hands, are
hinted.  The kernels are loaded before timing.  Prints per family: the views, the
median and worst CPU seconds of a hint, the worlds valued and the stops.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections import Counter

from pitchsim.game.cards import cards_of
from pitchsim.game.family_view import FamilyView, cut_hand
from pitchsim.game.reference import families as F
from pitchsim.game.rules import Rules
from pitchsim.search.family_hint import family_hint
from pitchsim.search.hint import DEFAULT_TIME, DEFAULT_WORLDS

PRESETS = ("setback", "smear", "ten-point")


def views(spec: str, n: int, seed: int, want: int) -> list[FamilyView]:
    rules = Rules.parse(spec)
    pick = random.Random(seed + 1)
    game = F.play_game(
        n,
        rules,
        random.Random(seed),
        lambda seat, hand, calls, legal, scores: pick.choice(legal),
        lambda seat, hand: pick.randrange(4),
        lambda view: pick.choice(cards_of(view.legal)),
        max_hands=6,
    )
    found = []
    before = [0] * n
    for hand in game.hands:
        for _seat, doc, _ in cut_hand(hand, n, rules, before):
            v = FamilyView.from_json(json.loads(json.dumps(doc)))
            if v.phase == "play" and len(v.legal()) > 1:
                found.append(v)
        before = list(hand.scores)
    step = max(1, len(found) // want)
    return found[::step][:want]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--views", type=int, default=10)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    print(f"default: rollout, {DEFAULT_WORLDS} worlds, {DEFAULT_TIME:g} s clock, separate")
    for spec in PRESETS:
        vs = views(spec, 4, a.seed, a.views)
        family_hint(vs[0], worlds=1, seed=0)  # load the kernels off the clock
        cpu, stops, worlds = [], Counter(), []
        for i, v in enumerate(vs):
            t = time.process_time()
            h = family_hint(v, worlds=DEFAULT_WORLDS, seed=i, time=DEFAULT_TIME, separate=True)
            cpu.append(time.process_time() - t)
            stops[h.stop] += 1
            worlds.append(h.worlds)
        print(
            f"{spec:10} views {len(vs):3}  CPU s median {statistics.median(cpu):.3f}  "
            f"worst {max(cpu):.3f}  worlds median {statistics.median(worlds):.0f}  "
            f"stops {dict(stops)}"
        )


if __name__ == "__main__":
    main()
