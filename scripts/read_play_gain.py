#!/usr/bin/env python3
"""What reading the play (``hint --read-play RHO``) gains, paired on the same decisions.

    .venv/bin/python scripts/read_play_gain.py --rules auction-pitch --players 4 --games 150
    .venv/bin/python scripts/read_play_gain.py --rules smear --games 100 --rho 0.05,0.2,0.5
    .venv/bin/python scripts/read_play_gain.py --table heuristic+rollout --games 30

Table games are played by ``--table`` at every seat (``play_table_game``, boards
1000, 1001, ...).  At every card decision after the first card with two legal cards or
more, the seat's view is answered by ``hint_view`` with ``rollout`` on ``--worlds``
worlds (seed 7, the calls not fitted, the objective valued: the seat's side's score
change less the others' mean), once with uniform worlds and once per RHO reading the
play.  Each recommended card is then judged in the true deal: that card played, the
heuristic playing on at every seat, the same objective (``rollout_valuer`` on the one
true world), divided by the number of other seats' sides' seats (points a decision).
Printed per RHO: the decisions, how many changed card, and the mean gain of the reading
over the uniform worlds with its 95% interval (a decision's gain is 0 when both pick
the same card).  Under a discard and draw the hand in play is read from the record's
``held``.  Progress on stderr.
"""

from __future__ import annotations

import argparse
import math
import sys
import time

import numpy as np

from pitchsim.game.cards import mask_of, parse_cards
from pitchsim.game.rules import Rules
from pitchsim.search.hint import hint_view
from pitchsim.table.decide import rollout_valuer, view_knowledge
from pitchsim.table.game import play_table_game
from pitchsim.table.record import _decisions


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rules", default="auction-pitch")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=50)
    ap.add_argument("--rho", default="0.05,0.2,0.5", help="comma-separated RHOs")
    ap.add_argument("--worlds", type=int, default=100)
    ap.add_argument("--table", default="odds+heuristic", help="every seat's strategy")
    a = ap.parse_args()
    rules = Rules.parse(a.rules)
    n = a.players
    rhos = [float(x) for x in a.rho.split(",")]
    gains: dict[float, list[float]] = {r: [] for r in rhos}
    changed = dict.fromkeys(rhos, 0)
    t0 = time.time()
    for g in range(a.games):
        doc = play_table_game([a.table] * n, rules, seed=1000 + g)
        for _k, h, view, _act, _sc, _full in _decisions(doc):
            if view is None or not view.tricks or view.to_move != view.seat:
                continue
            k = view_knowledge(view)
            if k.legal.bit_count() < 2:
                continue
            held = h.get("held") or h["hands"]
            dealt = [mask_of(parse_cards(" ".join(x), rules.jokers)) for x in held]
            truth = np.array([[dealt[s] & ~int(k.pby[s]) for s in range(n)] + [0]], np.int64)
            base = hint_view(view, "rollout", a.worlds, seed=7, fit_calls=False, points=False)
            cards = np.array(sorted(c.card for c in base.cards), dtype=np.int64)
            value = rollout_valuer(k, truth, cards)(0, 1)[0][:, 0]
            at = {int(c): j for j, c in enumerate(cards)}
            for r in rhos:
                read = hint_view(
                    view, "rollout", a.worlds, seed=7, fit_calls=False, points=False, read_play=r
                )
                gain = (value[at[read.recommended]] - value[at[base.recommended]]) / k.others
                gains[r].append(gain)
                changed[r] += read.recommended != base.recommended
        print(
            f"game {g + 1}/{a.games}: {len(gains[rhos[0]]):,} decisions, {time.time() - t0:.0f} s",
            file=sys.stderr,
            flush=True,
        )
    for r in rhos:
        x = np.array(gains[r], dtype=float)
        m = x.mean()
        half = 1.96 * x.std(ddof=1) / math.sqrt(x.size)
        print(
            f"{a.rules} {n}p, table {a.table}, rho {r:g}: {x.size:,} decisions, "
            f"{changed[r]:,} changed, gain {m:+.4f} points a decision "
            f"(95% {m - half:+.4f} to {m + half:+.4f})"
        )


if __name__ == "__main__":
    main()
