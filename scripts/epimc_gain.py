#!/usr/bin/env python3
"""How often ``epimc`` plays another card than ``pimc``, decision by decision, on the
same worlds (issue 31 item 4).

    .venv/bin/python scripts/epimc_gain.py --rules auction-pitch --players 4 --games 20
    .venv/bin/python scripts/epimc_gain.py --rules smear --players 3 --worlds 64

Table games are played by ``--table`` at every seat (``play_table_game``, seeds 1000,
1001, ...).  At every card decision with two legal cards or more the seat's view is
answered by ``heuristic+pimc:W`` and ``heuristic+epimc:W`` (``KernelSeat.decide`` with
values, the same stream ``view_key(7, view)``: the same worlds).  Printed: the
decisions, how many had some card valued otherwise by epimc (a group of worlds the seat
cannot tell apart took one next card), how many changed card, and for those the gain
of epimc's card over pimc's in the true deal solved double dummy (the pitcher's side's
points after the card, every hand open; signed for the seat's side), with a 95%
interval; and the CPU seconds of each (compile time excluded: a first decision of each
is made before the clock starts).  Progress on stderr.
"""

from __future__ import annotations

import argparse
import math
import sys
import time

import numpy as np

from pitchsim.game.cards import mask_of, parse_cards
from pitchsim.game.rules import Rules
from pitchsim.table.decide import pimc_valuer, view_knowledge
from pitchsim.table.game import play_table_game
from pitchsim.table.record import _decisions
from pitchsim.table.seats import KernelSeat, view_key


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rules", default="auction-pitch")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--worlds", type=int, default=16)
    ap.add_argument("--table", default="odds+heuristic", help="every seat's strategy")
    a = ap.parse_args()
    rules = Rules.parse(a.rules)
    n = a.players
    seats = {p: KernelSeat(f"heuristic+{p}:{a.worlds}") for p in ("pimc", "epimc")}
    cpu = dict.fromkeys(seats, 0.0)
    decisions = revalued = changed = 0
    gains: list[float] = []
    warm = False
    t0 = time.time()
    for g in range(a.games):
        doc = play_table_game([a.table] * n, rules, seed=1000 + g)
        for _k, h, view, _act, _sc, _full in _decisions(doc):
            if view is None or view.phase != "play" or view.to_move != view.seat:
                continue
            if len(view.legal()) < 2:
                continue
            key = view_key(7, view)
            if not warm:  # compile both off the clock
                for s in seats.values():
                    s.decide(view, key, values=True)
                warm = True
            got = {}
            for p, s in seats.items():
                c = time.process_time()
                got[p] = s.decide(view, key, values=True)
                cpu[p] += time.process_time() - c
            decisions += 1
            revalued += got["pimc"].values != got["epimc"].values
            if got["pimc"].action == got["epimc"].action:
                continue
            changed += 1
            k = view_knowledge(view)
            held = h.get("held") or h["hands"]
            dealt = [mask_of(parse_cards(" ".join(x), rules.jokers)) for x in held]
            truth = np.array([[dealt[s] & ~int(k.pby[s]) for s in range(n)] + [0]], np.int64)
            cards = np.array([c for c in range(54) if k.legal >> c & 1], np.int64)
            value = pimc_valuer(k, truth, cards)(0, 1)[0][:, 0]
            at = {int(c): j for j, c in enumerate(cards)}
            pick = {p: parse_cards(d.action, rules.jokers)[0] for p, d in got.items()}
            sign = 1 if k.our_side else -1
            gains.append(sign * float(value[at[pick["epimc"]]] - value[at[pick["pimc"]]]))
        print(
            f"game {g + 1}/{a.games}: {decisions:,} decisions, {changed} changed, "
            f"{time.time() - t0:.0f} s",
            file=sys.stderr,
            flush=True,
        )
    line = (
        f"{a.rules} {n}p, table {a.table}, W {a.worlds}: {decisions:,} decisions, "
        f"{revalued:,} revalued, {changed:,} changed card"
    )
    if gains:
        x = np.array(gains)
        half = 1.96 * x.std(ddof=1) / math.sqrt(x.size) if x.size > 1 else float("nan")
        line += f"; gain in the true deal (DD) {x.mean():+.3f} points a changed decision (95% ±{half:.3f})"
    print(line)
    print(
        f"CPU s: pimc {cpu['pimc']:.1f} ({decisions / max(cpu['pimc'], 1e-9):.0f} decisions a "
        f"CPU-s), epimc {cpu['epimc']:.1f} ({decisions / max(cpu['epimc'], 1e-9):.0f} a CPU-s)"
    )


if __name__ == "__main__":
    main()
