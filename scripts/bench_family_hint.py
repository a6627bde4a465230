"""CPU seconds of ``pitchsim hint`` under each rule family at its default settings
(rollout, 200 worlds, a 4 s clock, stop when separated), on views cut from games.

    .venv/bin/python scripts/bench_family_hint.py [--views 10] [--seed 1]
    .venv/bin/python scripts/bench_family_hint.py --pimc [--worlds 100] [--views 10]

``--pimc``: decisions per second of ``hint --policy pimc`` under smear and ten-point
(every world valued, no clock), at the first trick and mid-hand (half the tricks
played), warm; the kernels' load or compile time printed apart.

Games are played by the reference engine with random legal decisions (seeded); every
card decision with two or more legal cards is cut into the seat's view
(``game.view.cut_hand``), and ``--views`` of them, spread over the hands, are
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

from pitchsim.game import reference as F
from pitchsim.game.cards import cards_of
from pitchsim.game.rules import Rules
from pitchsim.game.view import View, cut_hand
from pitchsim.search.hint import DEFAULT_TIME, DEFAULT_WORLDS, hint_view

PRESETS = ("setback", "smear", "ten-point")


def views(spec: str, n: int, seed: int, want: int) -> list[View]:
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
            v = View.from_json(json.loads(json.dumps(doc)))
            if v.phase == "play" and len(v.legal()) > 1:
                found.append(v)
        before = list(hand.scores)
    step = max(1, len(found) // want)
    return found[::step][:want]


def pimc(a) -> None:
    """Decisions per second of pimc (see the module)."""
    for spec in ("smear", "ten-point"):
        every = views(spec, 4, a.seed, 10_000)
        for phase in ("first trick", "mid-hand"):
            if phase == "first trick":
                vs = [v for v in every if len(v.tricks) <= 1 and not _done(v)]
            else:
                vs = [v for v in every if _done(v) == len(_tricks_of(v)) // 2 and _done(v)]
            vs = vs[: a.views]
            h = hint_view(vs[0], policy="pimc", worlds=1, seed=0)
            print(f"{spec} load/compile {h.warm[0]:.1f} s (compiled: {h.warm[1]})")
            cpu0, wall0 = time.process_time(), time.perf_counter()
            for i, v in enumerate(vs):
                hint_view(v, policy="pimc", worlds=a.worlds, seed=i)
            cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
            print(
                f"{spec:10} {phase:12} views {len(vs):3}  {a.worlds} worlds  "
                f"decisions/s {len(vs) / wall:.2f} (wall)  {len(vs) / cpu:.2f} (CPU)"
            )


def _done(v: View) -> int:
    from pitchsim.table.decide import trick_over

    return sum(trick_over(v, t) for t in v.tricks)


def _tricks_of(v: View) -> range:
    return range(max(v.sizes))  # tricks in the hand: the largest hand after the draw


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--views", type=int, default=10)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--pimc", action="store_true")
    ap.add_argument("--worlds", type=int, default=100)
    a = ap.parse_args()
    if a.pimc:
        pimc(a)
        return
    print(f"default: rollout, {DEFAULT_WORLDS} worlds, {DEFAULT_TIME:g} s clock, separate")
    for spec in PRESETS:
        vs = views(spec, 4, a.seed, a.views)
        hint_view(vs[0], worlds=1, seed=0)  # load the kernels off the clock
        cpu, stops, worlds = [], Counter(), []
        for i, v in enumerate(vs):
            t = time.process_time()
            h = hint_view(v, worlds=DEFAULT_WORLDS, seed=i, time=DEFAULT_TIME, separate=True)
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
