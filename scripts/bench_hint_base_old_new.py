#!/usr/bin/env python3
"""The base game's ``hint`` before and after it moved to the preset path: CPU time per
hint and agreement of the recommended card, on the same views with the same seeds.

    .venv/bin/python scripts/bench_hint_base_old_new.py --old /tmp/hint-old \
        --views 300 --players 4,6

Views: auction-pitch (the base rules), games of the reference engine whose every call
is the preset kernels' ``odds`` bidder's, the pitcher leading the suit its call counted,
played at random to a mid-hand card (trick 2 to 5), the seat to move's view written as
JSON (docs/view.md).  (The base kernels' auction, which once made the calls, is gone.)
The views are made once, in this process, and both trees read the same file.

Each tree (``PYTHONPATH``, this venv, one numba thread, its own numba cache folder kept
between runs: ``--cache``) answers every view by ``hint_view(view, seed=i)``, the
library's defaults: the policy by table size, the calls fitted by the default model,
all of 200 worlds valued, no clock (the answer depends on the seed alone).  A first hint, not counted, loads or
compiles the kernels; a hint that compiled anything has its warm-up subtracted
(``Hint.warm``).  The old tree also answers with seed i + 10**6: how often a tree agrees
with itself on other worlds, the yardstick for the trees' agreement.  The trees run in
turn, half the views each turn, the order flipped (the machine is shared).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import project_python  # noqa: E402  (scripts/ is first on sys.path)

project_python.require(__file__)

import numpy as np  # noqa: E402

HERE = Path(__file__).resolve().parent.parent

CODE = r"""
import json, sys, time
from pitchsim.game.view import View
from pitchsim.search.hint import hint_view
docs = json.load(open(sys.argv[1]))
lo, hi, shift = int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
hint_view(View.from_json(docs[0]), seed=1, worlds=25)  # compile or load, not counted
out = []
for i in range(lo, hi):
    v = View.from_json(docs[i])
    t0 = time.process_time()
    h = hint_view(v, seed=i + shift)
    cpu = time.process_time() - t0 - (h.warm[0] if h.warm[1] else 0.0)
    out.append({"i": i, "card": h.recommended, "cpu": cpu, "worlds": h.worlds,
                "policy": h.policy, "fitted": bool(h.auction and h.auction.fitted),
                "compiled": h.warm[1]})
print(json.dumps(out))
"""


def make_views(n: int, count: int) -> list[dict]:
    """``count`` mid-hand views at ``n`` players, the calls made by the preset kernels'
    ``odds`` bidder (``kernels.bidding.calls.choose_call``) in a reference game
    (``play_game``), the pitcher leading the suit its call counted; two card decisions a
    hand at most."""
    from pitchsim.game import reference as F
    from pitchsim.game.cards import cards_of
    from pitchsim.game.reference import Bid
    from pitchsim.game.rules import Rules
    from pitchsim.game.view import View, cut_hand
    from pitchsim.kernels.bidding.calls import BID_ODDS, choose_call, name_suit
    from pitchsim.kernels.presets import rules_array, rules_table
    from pitchsim.table.boards import odds_bidder_table

    rules = Rules()
    r = rules
    fr, tab = rules_array(r), rules_table(r)
    odds, defender = odds_bidder_table(r, n)
    rng = random.Random(1000 + n)
    zero = np.uint64(0)

    def bid(seat, hand, calls, legal, scores):
        dealer = (seat - len(calls) - 1) % n
        high = max(calls, default=0)
        on = [(dealer + 1 + i) % n for i, c in enumerate(calls) if c and c == high]
        call = int(
            choose_call(
                BID_ODDS, np.int64(hand), seat, n, dealer, high, on[-1] if on else -1,
                np.int64(sum(1 << c for c in legal)), np.array(scores, dtype=np.int64), fr,
                tab, odds, defender, zero, 0,
            )
        )  # fmt: skip
        suit = int(name_suit(BID_ODDS, np.int64(hand), n, fr, tab, zero, 0))
        return Bid(call, trump=suit if call else -1)

    docs: list[dict] = []
    game_no = 0
    while len(docs) < count:
        game = F.play_game(
            n, rules, random.Random(game_no), bid, None,
            lambda view: rng.choice(cards_of(view.legal)), max_hands=3,
        )  # fmt: skip
        game_no += 1
        before = [0] * n
        for hand in game.hands:
            mid = []
            for _seat, doc, _ in cut_hand(hand, n, rules, before):
                doc = json.loads(json.dumps(doc))
                v = View.from_json(doc, rules=r)
                done = sum(len(t.cards) == n for t in v.tricks)
                if v.phase == "play" and 1 <= done <= 4 and v.legal_cards().bit_count() >= 2:
                    mid.append(doc | {"scores": [0] * n})
            docs += rng.sample(mid, min(2, len(mid)))
            before = list(hand.scores)
    return docs[:count]


def run(tree: str, cache: str, path: str, lo: int, hi: int, shift: int) -> list[dict]:
    env = dict(
        os.environ,
        PYTHONPATH=tree,
        NUMBA_CACHE_DIR=cache,
        NUMBA_NUM_THREADS="1",
        PITCHSIM_COMPILE_NOTICE="0",
    )
    cmd = [sys.executable, "-c", CODE, path, str(lo), str(hi), str(shift)]
    r = subprocess.run(cmd, env=env, capture_output=True, text=True, cwd=tree)
    if r.returncode != 0:
        sys.exit(f"{tree} failed: {r.stderr.strip().splitlines()[-1]}")
    return json.loads(r.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--old", type=Path, required=True, help="a checkout of the tree before")
    ap.add_argument("--views", type=int, default=300)
    ap.add_argument("--players", default="4,6")
    ap.add_argument("--cache", default="/tmp/bench-hint-base", help="numba cache folder prefix")
    a = ap.parse_args()
    trees = {"old": str(a.old.resolve()), "new": str(HERE)}
    for n in [int(x) for x in a.players.split(",")]:
        docs = make_views(n, a.views)
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
            json.dump(docs, f)
        res: dict[str, list[dict]] = {"old": [], "new": [], "old2": []}
        half = a.views // 2
        for turn, (lo, hi) in enumerate([(0, half), (half, a.views)]):
            jobs = [("old", 0), ("new", 0), ("old2", 10**6)]
            for name, shift in jobs if turn == 0 else jobs[::-1]:
                tree = trees[name[:3]]
                res[name] += run(tree, f"{a.cache}-{name[:3]}", f.name, lo, hi, shift)
        os.unlink(f.name)
        old, new, old2 = res["old"], res["new"], res["old2"]
        agree = sum(o["card"] == w["card"] for o, w in zip(old, new, strict=True))
        self_agree = sum(o["card"] == w["card"] for o, w in zip(old, old2, strict=True))
        print(f"\n{n} players, {len(old)} views, policy {old[0]['policy']} / {new[0]['policy']}")
        for name, rows in (("old", old), ("new", new)):
            cpu = [r["cpu"] for r in rows]
            print(
                f"  {name}: CPU per hint mean {statistics.mean(cpu):.3f} s, median "
                f"{statistics.median(cpu):.3f} s, total {sum(cpu):.1f} s; worlds valued mean "
                f"{statistics.mean(r['worlds'] for r in rows):.0f}; calls fitted in "
                f"{sum(r['fitted'] for r in rows)} of {len(rows)}; compiled in "
                f"{sum(r['compiled'] for r in rows)}"
            )
        print(
            f"  recommended card: new = old in {agree} of {len(old)} "
            f"({100 * agree / len(old):.1f}%); old = old at another seed in {self_agree} "
            f"({100 * self_agree / len(old):.1f}%)"
        )
        ratio = statistics.mean(r["cpu"] for r in new) / statistics.mean(r["cpu"] for r in old)
        print(f"  CPU new/old (means): {ratio:.2f}")


if __name__ == "__main__":
    main()
