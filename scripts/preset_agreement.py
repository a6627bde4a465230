"""The one solver (``kernels/search/solver.py`` ``solve_preset``/``preset_card_values``)
against the family solver (``kernels/families/solver.py``) on random positions under
every preset: the value and every card's value.

    python scripts/preset_agreement.py                 # every spec, 200 positions each
    python scripts/preset_agreement.py --positions 50 --spec smear --players 5

Positions are ``tests/test_family_solver.random_position``'s: a hand dealt by the
reference engine, trump named (with the discard and draw) or left to the first lead,
played at random and cut 1-6 tricks before the end (whole hands from the opening lead
included), half of them inside a trick.  Prints per spec the positions, disagreements
and both solvers' nodes.
"""

from __future__ import annotations

import argparse
import os
import random
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))
from test_family_solver import _kernel_args, random_position  # noqa: E402

from pitchsim.game.rules import Rules  # noqa: E402
from pitchsim.kernels.families import solver as family  # noqa: E402
from pitchsim.kernels.search import solver as one  # noqa: E402

SPECS = [
    ("auction-pitch", (3, 4, 5, 6)),
    ("auction-pitch,follow=suit,low=dealt", (3, 4)),
    ("setback", (4,)),
    ("smear", (2, 3, 4, 5, 6, 7)),
    ("smear,partnership=true", (4,)),
    ("smear,low=captured", (4,)),
    ("five-point", (4,)),
    ("ten-point,follow=trump,rob=false", (4,)),
    ("ten-point,partnership=false,follow=trump", (4, 5)),
    ("jokers=2,game=ten,three=true,five=true", (3, 4)),
    ("jokers=1", (3, 4)),
    ("jick=true,five=true,low=dealt", (4,)),
    ("jokers=2,trump=named,lead-trump=true,follow=suit", (3, 4)),
    ("ten-point", (4, 6)),
    ("ten-point,partnership=false", (4, 5)),
    ("trump=named,follow=only", (4, 5)),
]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--positions", type=int, default=200, help="per spec and player count")
    ap.add_argument("--spec", action="append", help="a rules spec (repeatable)")
    ap.add_argument("--players", type=int, default=None)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    specs = [(s, (a.players,)) for s in a.spec] if a.spec else SPECS
    old_table = family.new_family_table()
    new_table = one.new_table(one.TABLE_BITS)
    out_old = np.empty(54, dtype=np.int64)
    out_new = np.empty(54, dtype=np.int64)
    total = bad = 0
    for spec, counts in specs:
        rules = Rules.parse(spec)
        for n in counts if a.players is None else (a.players,):
            rng = random.Random(f"{a.seed}/{spec}/{n}")
            differ = 0
            nodes_old = nodes_new = 0
            for _ in range(a.positions):
                pos = random_position(rules, n, rng, (1, 6))
                o = _kernel_args(rules, *pos, old_table)
                w = _kernel_args(rules, *pos, new_table)
                b0, b1 = int(old_table[0, 2]), int(new_table[0, 2])
                v_old = (int(family.family_card_values(*o, out_old)), int(family.solve_family(*o)))
                v_new = (int(one.preset_card_values(*w, out_new)), int(one.solve_preset(*w)))
                nodes_old += int(old_table[0, 2]) - b0
                nodes_new += int(new_table[0, 2]) - b1
                if v_old != v_new or not np.array_equal(out_old, out_new):
                    differ += 1
                    if differ <= 3:
                        print(f"  DIFFER {spec} {n}p: {pos} old {v_old} new {v_new}")
            total += a.positions
            bad += differ
            print(
                f"{spec:50s} {n}p {a.positions:5d} positions, {differ} differ; "
                f"nodes family {nodes_old:,} one {nodes_new:,}",
                flush=True,
            )
    print(f"all: {total} positions, {bad} differ")


if __name__ == "__main__":
    main()
