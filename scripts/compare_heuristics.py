#!/usr/bin/env python3
"""The family kernels' ``heuristic`` card play of this tree against an older tree's, paired.

    .venv/bin/python scripts/compare_heuristics.py --old a3477c0 [--deals 200000]
        [--presets auction-pitch,setback,smear,ten-point]

Both policies must sit at one table, so the script builds a scratch copy of this tree's
package with the old tree's ``kernels/policies/cards.py`` beside it as
``old_policies`` and play-policy id 7 dispatched to the old ``heuristic_card`` in
``kernels/plain.py`` (text patches, checked to apply); nothing in this tree is
changed.  Then, hand-level (seat 0 pitches, trump named or led by the policy, no
auction), on the same deals, per preset:

- ``new-old``: the pitcher's side plays this tree's heuristic, the defenders the old;
- ``old-new``: the other way round;

and the paired difference of the pitcher side's points, deal by deal, ``new-old`` minus
``old-new``: above 0 when this tree's policy is the stronger on both sides of the
table; its 95% interval is 1.96 standard errors of the mean difference.  ``new-new``
and ``old-old`` are shown for reference.  Compile time is excluded (a first call on a
few deals); runs on a cache folder of its own.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
PRESETS = [("auction-pitch", 4), ("setback", 4), ("smear", 3), ("smear", 4), ("ten-point", 4)]
OLD_ID = 7  # a plain policy id no kernel uses (search kinds are 2 and up to 255 by mask)

MEASURE = """
import sys, numpy as np
from pitchsim.game.rules import Rules
from pitchsim.study.batch import play_deals
deals = int(sys.argv[1])
for spec, n in eval(sys.argv[2]):
    r = Rules.parse(spec)
    part = bool(r.partnership)
    def seats(p, d):
        return np.array([p if (s % 2 == 0 if part else s == 0) else d for s in range(n)],
                        dtype=np.int64)
    out = {}
    for name, a, b in (("new-old", 1, OLD), ("old-new", OLD, 1), ("new-new", 1, 1),
                       ("old-old", OLD, OLD)):
        play_deals(r, n, 11, 0, 2000, seats(a, b))  # compile
        out[name] = play_deals(r, n, 11, 0, deals, seats(a, b))["points"].astype(float)
    d = out["new-old"] - out["old-new"]
    half = 1.96 * d.std(ddof=1) / np.sqrt(deals)
    print(f"| {spec} | {n} | {out['new-old'].mean():.4f} | {out['old-new'].mean():.4f} | "
          f"{d.mean():+.4f} +- {half:.4f} | {out['new-new'].mean():.4f} | "
          f"{out['old-old'].mean():.4f} |", flush=True)
"""


def patch(text: str, old: str, new: str, what: str) -> str:
    if old not in text:
        sys.exit(f"compare_heuristics: cannot patch {what}: the tree changed; update the script")
    return text.replace(old, new, 1)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--old", required=True, help="git revision of the old heuristic")
    ap.add_argument("--deals", type=int, default=200_000)
    ap.add_argument("--presets", default=None, help="comma-separated (default: all)")
    a = ap.parse_args()
    presets = PRESETS
    if a.presets:
        presets = [p for p in PRESETS if p[0] in a.presets.split(",")]
    old = subprocess.run(
        ["git", "show", f"{a.old}:pitchsim/kernels/policies/cards.py"],
        cwd=HERE,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    old = old.replace(
        "from .trick import order_cards, trump_order",
        "from ..trump_order import order_cards, trump_order",
    )
    work = Path(tempfile.mkdtemp(prefix="compare-heuristics-"))
    try:
        shutil.copytree(HERE / "pitchsim", work / "pitchsim")
        fam = work / "pitchsim" / "kernels" / "families"
        (fam / "old_policies.py").write_text(old)
        plain = (fam / "plain.py").read_text()
        plain = patch(
            plain,
            "from .policies import RANDOM, heuristic_card, random_card",
            "from .policies import RANDOM, heuristic_card, random_card\n"
            "from .old_policies import heuristic_card as old_heuristic_card",
            "plain.py's imports",
        )
        plain = patch(
            plain,
            "                else:\n                    card = heuristic_card(",
            f"                elif policies[seat] == {OLD_ID}:\n"
            "                    card = old_heuristic_card(\n"
            "                        legal, hand, seat, n, pitcher, trump, t, trick, tseats,"
            " count, played, fr, tab,\n                    )\n"
            "                else:\n                    card = heuristic_card(",
            "plain.py's heuristic call",
        )
        (fam / "plain.py").write_text(plain)
        print(f"paired, hand-level, {a.deals:,} deals each; the pitcher side's mean points")
        print(
            "| preset | players | new vs old | old vs new | difference (95%) | new-new | old-old |"
        )
        print("|---|---:|---:|---:|---:|---:|---:|")
        env = dict(os.environ, PYTHONPATH=str(work), NUMBA_CACHE_DIR=str(work / "cache"))
        subprocess.run(
            [
                sys.executable,
                "-c",
                MEASURE.replace("OLD", str(OLD_ID)),
                str(a.deals),
                repr(presets),
            ],
            env=env,
            check=True,
        )
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
