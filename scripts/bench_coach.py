#!/usr/bin/env python3
"""The coach's wait per decision at its default settings, and a review's time.

    .venv/bin/python scripts/bench_coach.py --players 4 7 --decisions 20

For each player count: bot games (``odds+heuristic``) from seed 1 on; seat 0's
decisions (calls and cards, in game order) are judged as ``practice`` judges them, each
timed (wall and CPU), after one warm-up judgement of each kind (compile time excluded,
reported apart).  Then ``review`` of one whole game with about 10 hands.

    .venv/bin/python scripts/bench_coach.py --rules smear,target=5 --open --players 4 7

With ``--rules`` (a preset) and ``--open``: only seat 0's cards whose hand more than the
pitcher's side can end (``game_open``: judged in net P(game) on ``rollout_game``),
each judged as ``practice`` judges it now and, alternately, as it was judged before (the
margin: ``hint_view`` with the rollout objective), both at the coach's defaults.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter

from pitchsim.coach.judge import COACH_SAMPLES, COACH_WORLDS, judge_call, judge_card
from pitchsim.coach.review import review
from pitchsim.game.rules import Rules
from pitchsim.table.game import play_table_game
from pitchsim.table.record import views_of


def timed(f, *args):
    w, c = time.perf_counter(), time.process_time()
    f(*args)
    return time.perf_counter() - w, time.process_time() - c


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, nargs="+", default=[4, 7])
    ap.add_argument("--decisions", type=int, default=20, help="per kind and player count")
    ap.add_argument("--samples", type=int, default=COACH_SAMPLES)
    ap.add_argument("--worlds", type=int, default=COACH_WORLDS)
    ap.add_argument("--rules", default=None, help="a preset (with --open)")
    ap.add_argument("--open", action="store_true", help="net P(game) cards against the margin")
    a = ap.parse_args()
    rules = Rules.parse(a.rules)
    if a.open:
        for n in a.players:
            open_cards(rules, n, a.decisions, a.worlds)
        return
    for n in a.players:
        calls, cards, games = [], [], []
        seed = 1
        while len(calls) < a.decisions or len(cards) < a.decisions:
            rec = play_table_game(["odds+heuristic"] * n, rules, seed)
            games.append(rec)
            for v, act in views_of(rec):
                if v.seat != 0:
                    continue
                (calls if v.phase == "auction" else cards).append((v, act))
            seed += 1
        t0 = time.perf_counter()
        judge_call(calls[0][0], calls[0][1], 1, a.samples, 0)
        judge_card(cards[0][0], cards[0][1], 1, a.worlds, 0)
        print(
            f"{n} players: first call + card judged in {time.perf_counter() - t0:.1f} s "
            "(compile or cache load)"
        )
        for kind, items, judge, size in (
            ("call", calls, judge_call, a.samples),
            ("card", cards, judge_card, a.worlds),
        ):
            walls, cpus = [], []
            for i, (v, act) in enumerate(items[1 : a.decisions + 1], 1):
                w, c = timed(judge, v, act, 1, size, i)
                walls.append(w)
                cpus.append(c)
            print(
                f"  {kind}s ({len(walls)}): wall median {statistics.median(walls):.2f} s, "
                f"worst {max(walls):.2f} s; CPU median {statistics.median(cpus):.2f} s, "
                f"worst {max(cpus):.2f} s"
            )
        rec = min(games, key=lambda r: abs(len(r["hands"]) - 10))
        w, c = timed(review, rec, 0, 1, a.samples, a.worlds)
        decisions = sum(1 for v, _ in views_of(rec) if v.seat == 0)
        print(
            f"  review of a {len(rec['hands'])}-hand game (seat 0, {decisions} decisions): "
            f"{w:.1f} s wall, {c:.1f} s CPU"
        )


def open_cards(rules, n: int, decisions: int, worlds: int) -> None:
    """Seat 0's cards judged in net P(game), each also valued in the margin (before)."""
    from pitchsim.coach.judge import COACH_TIME, game_open
    from pitchsim.search.hint import hint_view

    found, seed = [], 1
    while len(found) < decisions + 1 and seed < 400:
        rec = play_table_game(["odds+heuristic"] * n, rules, seed)
        for v, act in views_of(rec):
            if v.seat == 0 and v.phase == "play" and len(v.legal()) > 1:
                if game_open(v) is not None:
                    found.append((v, act))
        seed += 1
    v, act = found[0]
    t0 = time.perf_counter()
    judge_card(v, act, 1, worlds, 0)
    hint_view(v, worlds=worlds, seed=0, time=COACH_TIME)
    print(f"{n} players, {rules.family}: first net and margin judged in "
          f"{time.perf_counter() - t0:.1f} s (compile or cache load)")  # fmt: skip
    net, margin, units = [], [], Counter()
    for i, (v, act) in enumerate(found[1 : decisions + 1], 1):

        def now(v=v, act=act, i=i):
            units[judge_card(v, act, 1, worlds, i).unit] += 1

        runs = [
            (net, now),
            (margin, lambda v=v, i=i: hint_view(v, worlds=worlds, seed=i, time=COACH_TIME)),
        ]
        for out, f in runs if i % 2 else runs[::-1]:  # alternate which goes first
            out.append(timed(f))
    for name, got in (("net P(game)", net), ("margin (before)", margin)):
        walls, cpus = [w for w, _ in got], [c for _, c in got]
        print(
            f"  {name} ({len(got)} cards): wall median {statistics.median(walls):.3f} s, "
            f"worst {max(walls):.3f} s; CPU median {statistics.median(cpus):.3f} s, "
            f"worst {max(cpus):.3f} s"
        )
    print(f"  the new judgements' units: {dict(units)}")


if __name__ == "__main__":
    main()
