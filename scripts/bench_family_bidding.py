#!/usr/bin/env python3
"""The family bidders' cost per call, and whole games through the family kernels
against the base kernels (CPU time, compile apart).

    .venv/bin/python scripts/bench_family_bidding.py calls [--hands 100000] [--rules smear]
    .venv/bin/python scripts/bench_family_bidding.py games --old /tmp/old-tree \\
        [--strategies heuristic,odds] [--boards 1500] [--rounds 4]
    .venv/bin/python scripts/bench_family_bidding.py fingerprint > before.txt

- ``calls``: nanoseconds per ``best_suit`` (the count of every suit), per heuristic call
  and per odds call (``choose_call``: an opening call, seat 1, dealer seat 3), on random
  6-card hands at 4 players, warm, best of 5 passes.
- ``games``: tournaments of ``--strategies`` at auction-pitch, 4 players, one thread,
  through the base kernels (``Rules()``) and the family kernels (the same rules as the
  preset), in one process: games per CPU-second of each and their ratio.  With
  ``--old DIR`` (a checkout of another tree, run by PYTHONPATH with this venv, its own
  numba cache) fresh processes of this tree and the old one take turns, ``--rounds``
  times: the ratio family/base of each tree (the figure on a shared machine: both
  engines see the same load), and the family engine's new/old per round.
- ``fingerprint``: a hash of whole tournaments through the family kernels (the odds,
  odds-game and heuristic bidders, heuristic and random play; presets with jokers, the
  pedros, hands=N, solo and partnership): two trees that print the same lines bid and
  play the same games.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent

GAMES = """
import json, sys, time
from pitchsim.game.rules import Rules
from pitchsim.table.tournament import tournament
strategies, boards = sys.argv[1], int(sys.argv[2])
engines = (("base", Rules()), ("family", Rules.parse("auction-pitch")))
for _, r in engines:  # compile, or load the cache
    tournament(strategies, players=4, boards=50, rules=r, seed=1, threads=1)
out = {}
for name, r in engines:
    t = time.process_time()
    res = tournament(strategies, players=4, boards=boards, rules=r, seed=7, threads=1)
    out[name] = boards * res.rotations / (time.process_time() - t)
print(json.dumps(out))
"""


def calls(hands: int, spec: str) -> None:
    import numpy as np
    from numba import njit

    from pitchsim.game.rules import Rules
    from pitchsim.kernels.bidding.calls import (
        BID_HEURISTIC,
        BID_ODDS,
        best_suit,
        choose_call,
        legal_calls,
    )
    from pitchsim.kernels.presets import rules_array, rules_table
    from pitchsim.table.boards import odds_bidder_table

    r = Rules.parse(spec)
    fr, tab = rules_array(r), rules_table(r)
    odds, defender = odds_bidder_table(r, 4)
    rng = np.random.default_rng(1)
    deck = np.arange(52)
    masks = [
        sum(1 << int(c) for c in rng.choice(deck, r.deal, replace=False)) for _ in range(hands)
    ]
    held = np.array(masks, dtype=np.int64)

    @njit
    def count_all(held, fr, tab):
        s = 0.0
        for h in held:
            s += best_suit(h, 4, fr, tab)[0]
        return s

    @njit
    def call_all(held, fr, tab, odds, defender, policy):
        s = 0
        scores = np.zeros(4, dtype=np.int64)
        legal = legal_calls(0, False, True, fr)
        for i in range(held.size):
            s += choose_call(
                policy, held[i], 1, 4, 3, 0, -1, legal, scores, fr, tab, odds, defender,
                np.uint64(i), 0,
            )  # fmt: skip
        return s

    cases = (
        ("best_suit", count_all, (held, fr, tab)),
        ("heuristic call", call_all, (held, fr, tab, odds, defender, BID_HEURISTIC)),
        ("odds call", call_all, (held, fr, tab, odds, defender, BID_ODDS)),
    )
    print(f"{spec}, 4 players, {hands:,} hands, best of 5 passes")
    for name, fn, args in cases:
        t = time.process_time()
        fn(*args)
        first = time.process_time() - t
        best = float("inf")
        for _ in range(5):
            t = time.process_time()
            fn(*args)
            best = min(best, time.process_time() - t)
        print(f"  {name:15s} {best / hands * 1e9:6.0f} ns a call  (first call {first:.1f} CPU-s)")


def _games_in(tree: Path, cache: str, strategies: str, boards: int) -> dict:
    env = dict(os.environ, PYTHONPATH=str(tree), NUMBA_CACHE_DIR=cache)
    p = subprocess.run(
        [sys.executable, "-c", GAMES, strategies, str(boards)],
        cwd=tree,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(p.stdout.strip().splitlines()[-1])


def games(old: Path | None, strategies: str, boards: int, rounds: int) -> None:
    trees = {"new": HERE} if old is None else {"new": HERE, "old": old.resolve()}
    caches = {name: tempfile.mkdtemp(prefix=f"numba-{name}-") for name in trees}
    runs: dict[str, list[dict]] = {name: [] for name in trees}
    for i in range(rounds):
        for name, tree in trees.items():
            runs[name].append(_games_in(tree, caches[name], strategies, boards))
            print(f"round {i + 1} {name}: {runs[name][-1]}", file=sys.stderr, flush=True)
    print(f"auction-pitch, 4 players, {strategies}, {boards} boards, one thread, {rounds} rounds")
    for name, rs in runs.items():
        ratio = [r["family"] / r["base"] for r in rs]
        fam = statistics.median(r["family"] for r in rs)
        base = statistics.median(r["base"] for r in rs)
        print(
            f"  {name}: family {fam:,.0f}, base {base:,.0f} games/CPU-s; family/base "
            f"median {statistics.median(ratio):.3f} (min {min(ratio):.3f}, max {max(ratio):.3f})"
        )
    if old is not None:
        per = [n["family"] / o["family"] for n, o in zip(runs["new"], runs["old"], strict=True)]
        print("  family engine new/old per round: " + ", ".join(f"{x:.3f}" for x in per))


FINGERPRINTS = (
    ("smear", 4, "odds+heuristic,heuristic+heuristic"),
    ("ten-point", 4, "odds-game+heuristic,heuristic+heuristic"),
    ("cinch", 4, "odds+heuristic,heuristic+random"),
    ("six-point,partnership=false", 3, "odds+heuristic,heuristic+heuristic"),
    ("five-point,hands=3", 4, "odds+heuristic,heuristic+random"),
    ("six-point,hands=2,partnership=false", 3, "heuristic+heuristic,random+heuristic"),
)


def fingerprint() -> None:
    import hashlib

    from pitchsim.game.rules import Rules
    from pitchsim.table.tournament import tournament

    for spec, n, strategies in FINGERPRINTS:
        r = Rules.parse(spec)
        res = tournament(strategies, players=n, boards=300, rules=r, seed=5, threads=1)
        doc = res.to_json()
        doc.pop("seconds", None)
        digest = hashlib.sha256(json.dumps(doc, sort_keys=True).encode()).hexdigest()[:16]
        rates = [round(x.win_rate, 4) for x in res.results]
        print(f"{spec} {n} players {strategies}: {digest} {rates}", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="what", required=True)
    c = sub.add_parser("calls")
    c.add_argument("--hands", type=int, default=100_000)
    c.add_argument("--rules", default="auction-pitch")
    g = sub.add_parser("games")
    g.add_argument("--old", type=Path, default=None)
    g.add_argument("--strategies", default="heuristic,odds")
    g.add_argument("--boards", type=int, default=1500)
    g.add_argument("--rounds", type=int, default=4)
    sub.add_parser("fingerprint")
    a = ap.parse_args()
    if a.what == "calls":
        calls(a.hands, a.rules)
    elif a.what == "fingerprint":
        fingerprint()
    else:
        games(a.old, a.strategies, a.boards, a.rounds)


if __name__ == "__main__":
    main()
