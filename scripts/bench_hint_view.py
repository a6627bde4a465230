#!/usr/bin/env python3
"""How long does ``hint`` from a player's view take at default settings (pimc, 200
worlds, worlds fitted to the calls by the odds model)?  Warm (kernels compiled first).

Views are cut from real deals: dealt and bid by the odds model at every seat (the preset
kernels' hand, ``table.boards.board_hand``), the pitcher leading the trump his hand
was played in, then played at random to a random point of the hand; the view is that
of the seat to play.  Per table size:
median and worst wall and CPU seconds per hint, with the calls fitted and (the old
cost) ignored, the median acceptance rate and how many hints fell back.

    .venv/bin/python scripts/bench_hint_view.py --players 3,4,5,7 --views 8
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import project_python  # noqa: E402  (scripts/ is first on sys.path)

project_python.require(__file__)

from pitchsim.game.rules import Rules  # noqa: E402
from pitchsim.game.view import View, card_text, rules_text  # noqa: E402
from pitchsim.search.hint import hint_view  # noqa: E402
from pitchsim.search.position import start_position  # noqa: E402
from pitchsim.table.boards import board_hand  # noqa: E402


def real_view(rng: random.Random, n: int, rules: Rules, cards: int | None = None) -> View:
    """The view of the seat to play at a random point of a deal bid by the odds model
    (after ``cards`` cards, when given); ``real_view.trump`` is the hand's trump."""
    while True:
        h = board_hand(rng.getrandbits(32), 0, ["odds"] * n, rules, rng.randrange(n))
        if h.pitcher is not None:
            break
    pos = start_position(h.dealt, h.pitcher, rules, h.bid)
    real_view.trump = h.trump
    for k in range(rng.randrange(0, 5 * n) if cards is None else cards):
        legal = [c for c in range(52) if pos.legal() >> c & 1]
        if k == 0:
            legal = [c for c in legal if c // 13 == h.trump]
        pos = pos.play(rng.choice(legal))
    seat = pos.to_play
    return View.from_json(
        {
            "rules": rules_text(rules),
            "players": n,
            "seat": seat,
            "dealer": h.dealer,
            "hand": [card_text(c) for c in range(52) if pos.dealt[seat] >> c & 1],
            "calls": [c for c in h.calls if c is not None],
            "tricks": [
                {"leader": t.leader, "cards": [card_text(c) for c in t.cards]} for t in pos.tricks
            ],
        }
    )


def timed(view: View, fit: bool, seed: int, policy: str = "pimc", each: bool = False):
    cpu, wall = time.process_time(), time.perf_counter()
    h = hint_view(view, policy, seed=seed, fit_calls=fit)
    row = time.perf_counter() - wall, time.process_time() - cpu, h
    if each:
        print(
            f"  seat {view.seat}, {sum(len(t.cards) for t in view.tricks)} cards played, "
            f"{h.auction.note.split(':')[0]}: {row[1]:.2f} CPU s, {row[0]:.2f} s wall",
            flush=True,
        )
    return row


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--players", default="3,4,5,7")
    ap.add_argument("--views", type=int, default=8)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--each", action="store_true", help="a line per view as it is timed")
    ap.add_argument("--policy", default="pimc", help="pimc (the default) or rollout")
    ap.add_argument(
        "--cards",
        type=int,
        default=None,
        help="cut every view after this many cards (default: a random point)",
    )
    a = ap.parse_args()
    rng = random.Random(a.seed)
    warm = real_view(rng, 4, Rules())
    timed(warm, True, 0), timed(warm, False, 0)  # compile
    for n in (int(x) for x in a.players.split(",")):
        views = [real_view(rng, n, Rules(), a.cards) for _ in range(a.views)]
        fit = [timed(v, True, i, a.policy, a.each) for i, v in enumerate(views)]
        plain = [timed(v, False, i, a.policy, a.each) for i, v in enumerate(views)]
        rates = [h.auction.acceptance_rate for _, _, h in fit]
        fell = sum(not h.auction.fitted for _, _, h in fit)

        def stat(rows, i):
            xs = [r[i] for r in rows]
            return f"{statistics.median(xs):.2f}/{max(xs):.2f}"

        at = "a random point" if a.cards is None else f"after {a.cards} cards"
        print(
            f"{n} players, {a.views} views at {at}: fitted wall {stat(fit, 0)} s, CPU {stat(fit, 1)} s"
            f" (median/worst); calls ignored wall {stat(plain, 0)} s, CPU {stat(plain, 1)} s;"
            f" acceptance median {100 * statistics.median(rates):.1f}% (min "
            f"{100 * min(rates):.2f}%), fell back {fell}",
            flush=True,
        )


if __name__ == "__main__":
    main()
