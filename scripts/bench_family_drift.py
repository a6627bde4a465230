#!/usr/bin/env python3
"""Issue 28 before and after: how often the family hint's worlds rule out the true deal,
and the CPU seconds of the family worlds, the family hint and the family rollout play
policy, old code and new alternated in one run.

    .venv/bin/python scripts/bench_family_drift.py [--old REV] [--rounds 3] [--seed 1]

The old code is ``git archive REV pitchsim`` unpacked in ``$TMPDIR/pitchsim-old-REV``
(kept, so numba's cache beside it survives; REV: by default the merge base of HEAD and
main); the new is this worktree's ``pitchsim``.
Each round runs one child process per tree, old then new, each importing only its own
``pitchsim`` (``--tree DIR``): the kernels are compiled (or loaded from the cache) and
warmed before any clock starts, and the figures are the child's ``time.process_time``.

Measured in each child, on the ten-point games of bench_family_hint.py (4 players,
random legal decisions, 6 hands, ``--seed``), at every card decision with two or more
legal cards:

- ruled out: decisions whose worlds' constraint (``view_knowledge`` then
  ``world_constraint``) excludes the true deal: some seat's true hand holds a card it
  may not, or an unseen trump that must be placed is neither in a hand nor (new code)
  among the pitcher's put-down cards counted as the pile;
- no world: times the sampler found no world at all (``worlds_at``, 40 per decision);
- worlds CPU: ``worlds_at`` (its knowledge, constraint and first block of 25 worlds)
  at every decision, 40 seeds each;
- hint CPU: ``hint_view`` with 1,000 worlds, no clock, at every decision;
- rollout CPU: ``--hands`` ten-point hands with every seat ``rollout:16``
  (``play_logged``, one thread), and the searched decisions.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SPEC = "ten-point"


def child(seed: int, hands: int) -> dict:
    import random

    import numpy as np

    from pitchsim.game import reference as F
    from pitchsim.game.cards import cards_of, mask_of
    from pitchsim.game.rules import Rules
    from pitchsim.game.view import View, cut_hand
    from pitchsim.kernels.play import MAX_TRICKS
    from pitchsim.kernels.presets import rules_array, rules_table
    from pitchsim.kernels.score import N_AWARDS
    from pitchsim.kernels.search.worlds import world_constraint
    from pitchsim.kernels.simulate import play_logged
    from pitchsim.search.hint import hint_view, worlds_at
    from pitchsim.table.decide import view_knowledge
    from pitchsim.table.policies import play_array, play_policy

    n = 4
    rules = Rules.parse(SPEC)
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
                found.append((hand, v))
        before = list(hand.scores)

    ruled_out = 0
    for hand, v in found:
        k = view_knowledge(v)
        now = [int(m) for m in hand.play.held]
        for t in v.tricks:
            for s, c in zip(t.seats, t.cards, strict=True):
                now[s] &= ~(1 << c)
        allowed = np.empty(len(k.counts), np.int64)  # n (old) or n + 1 (new: the pile)
        _, must = world_constraint(
            n, v.seat, np.int64(k.hand), np.int64(k.known_out), k.drawn_back, k.pby,
            np.int64(k.voids), k.counts, k.trump, k.fr, k.tab, allowed,
        )  # fmt: skip
        placed = 0
        bad = False
        for s in range(n):
            if s != v.seat:
                bad |= bool(now[s] & ~int(allowed[s])) or now[s].bit_count() != k.counts[s]
                placed |= now[s]
        if len(k.counts) > n and v.seat != v.pitcher and hand.draw is not None:
            pile = mask_of(hand.draw.put_down)
            bad |= pile.bit_count() != int(k.counts[n]) or bool(pile & ~int(allowed[n]))
            placed |= pile
        bad |= bool(int(must) & ~placed)
        ruled_out += bad

    def cpu(f) -> float:
        t = time.process_time()
        f()
        return time.process_time() - t

    worlds_at(found[0][1], 4, seed=0)  # compile or load, off the clock
    hint_view(found[0][1], worlds=2, seed=0)
    no_world = 0

    def worlds():
        nonlocal no_world
        for i, (_, v) in enumerate(found):
            for rep in range(40):
                no_world += worlds_at(v, 25, seed=1000 * rep + i).shape[0] == 0

    worlds_cpu = cpu(worlds)

    def hints():
        for i, (_, v) in enumerate(found):
            try:
                hint_view(v, worlds=1000, seed=i)
            except Exception as e:  # the old code refuses views it finds no world for
                if "no deal of the hidden cards" not in str(e):
                    raise

    hint_cpu = cpu(hints)

    r = rules
    fr, tab = rules_array(r), rules_table(r)
    pol = play_array([play_policy("rollout:16").id] * n)
    width = MAX_TRICKS * (n + 2)

    def play(count):
        legal = np.zeros((count, MAX_TRICKS * n), np.int64)
        play_logged(
            seed, 0, count, n, n - 1, 0, np.int64(0), -1, pol, fr, tab,
            np.zeros((count, n), np.int64), np.zeros((count, 54), np.int64),
            np.zeros((count, n), np.int64), np.zeros((count, 4), np.int64),
            np.zeros((count, width), np.int64), legal, np.zeros((count, 54), np.int64),
            np.zeros((count, N_AWARDS), np.int64), np.zeros((count, n), np.int64),
        )  # fmt: skip
        return legal

    play(1)
    t = time.process_time()
    legal = play(hands)
    rollout_cpu = time.process_time() - t
    m = legal[legal != 0]
    import pitchsim

    return {
        "tree": str(Path(pitchsim.__file__).parent.parent),
        "decisions": len(found),
        "ruled_out": int(ruled_out),
        "no_world": int(no_world),
        "worlds_cpu": worlds_cpu,
        "hint_cpu": hint_cpu,
        "hint_views": len(found),
        "rollout_cpu": rollout_cpu,
        "rollout_searched": int(np.sum((m & (m - 1)) != 0)),
    }


def run_tree(tree: Path, seed: int, hands: int) -> dict:
    env = dict(os.environ, PYTHONPATH=str(tree), NUMBA_NUM_THREADS="1")
    out = subprocess.run(
        [sys.executable, __file__, "--tree", str(tree), "--seed", str(seed), "--hands", str(hands)],
        env=env,
        capture_output=True,
        text=True,
        cwd=tree,
    )
    if out.returncode != 0:
        raise SystemExit(f"the child for {tree} failed:\n{out.stderr}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--old", default=None, help="the old code's git revision")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--hands", type=int, default=2000)
    ap.add_argument("--tree", default=None, help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.tree is not None:
        print(json.dumps(child(a.seed, a.hands)))
        return
    old = (
        a.old
        or subprocess.run(
            ["git", "merge-base", "HEAD", "main"],
            cwd=ROOT,
            check=True,
            capture_output=True,
            text=True,
        ).stdout.strip()
    )
    # A folder per revision, kept: numba's cache beside the old code survives the run.
    tmp = Path(tempfile.gettempdir()) / f"pitchsim-old-{old[:12]}"
    tmp.mkdir(exist_ok=True)
    archive = subprocess.run(
        ["git", "archive", old, "pitchsim"], cwd=ROOT, check=True, capture_output=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(tmp)], input=archive, check=True)
    trees = {"old": tmp, "new": ROOT}
    print(f"old = {old[:12]} (git archive in {tmp}), new = {ROOT}; {SPEC}, seed {a.seed}")
    for rnd in range(a.rounds):
        for name, tree in trees.items():
            r = run_tree(tree, a.seed, a.hands)
            if Path(r["tree"]).resolve() != tree.resolve():
                raise SystemExit(f"the {name} child imported pitchsim from {r['tree']}")
            print(
                f"round {rnd + 1} {name}: ruled out {r['ruled_out']} of {r['decisions']}  "
                f"no world {r['no_world']}  worlds CPU {r['worlds_cpu']:.3f} s  "
                f"hint CPU {r['hint_cpu']:.3f} s ({r['hint_views']} views)  "
                f"rollout CPU {r['rollout_cpu']:.3f} s ({a.hands} hands, "
                f"{r['rollout_searched']} searched)",
                flush=True,
            )


if __name__ == "__main__":
    main()
