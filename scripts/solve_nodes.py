"""The solver's value and nodes on each of ``bench_solve.py``'s deals, one line a deal, so
two trees can be diffed (node counts are the same on any machine; times are not).

    python scripts/solve_nodes.py > new.txt
    PYTHONPATH=/work/main python scripts/solve_nodes.py > old.txt   # the old tree's solver
    diff old.txt new.txt && echo identical

(Run the old tree with its own ``NUMBA_CACHE_DIR``: its kernels compile once.)  Whole
deals from the opening lead are ``bench_solve.random_deals`` with the same seeds
(``[seed, players]``), seat 0 pitching, one table per size as ``pitchsim solve`` makes
it (``solver.table_bits``), reused deal after deal; ``--cards`` adds ``card_values`` on
``bench_solve.cut_positions`` (what pimc asks in each world).  The last line per player
count sums the nodes.
"""

from __future__ import annotations

import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_solve import cut_positions, random_deals  # noqa: E402

from pitchsim.game.rules import Rules  # noqa: E402
from pitchsim.kernels.presets import rules_array  # noqa: E402
from pitchsim.kernels.search import solver  # noqa: E402
from pitchsim.search.double_dummy import kernel_args  # noqa: E402

DEALS = {4: 200, 5: 100, 6: 40, 7: 20}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--players", default="4-7", help="e.g. 4 or 4-7 or 5,7")
    ap.add_argument("--deals", type=int, default=None, help="deals per player count")
    ap.add_argument("--rules", default=None, help="rule variants, as for --rules")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--cards", type=int, default=0, help="card_values positions per count")
    a = ap.parse_args()
    if "-" in a.players:
        lo, hi = (int(x) for x in a.players.split("-"))
        counts = list(range(lo, hi + 1))
    else:
        counts = [int(x) for x in a.players.split(",")]
    rules = Rules.parse(a.rules)
    if not rules.base_game:  # solve_position plays auction-pitch's tables
        raise SystemExit(f"{a.rules}: the base game's entry points solve its rules alone")
    arr = rules_array(rules)  # the base game's options (solve_position's ``fr``)
    print(f"# rules: {rules.describe()}")
    for n in counts:
        table = solver.new_table(solver.table_bits(n))
        deals = random_deals(np.random.default_rng([a.seed, n]), n, a.deals or DEALS[n])
        won = np.zeros(n, dtype=np.int64)
        trick = np.zeros(8, dtype=np.int64)
        total = 0
        for d, deal in enumerate(deals):
            before = int(table[0, solver.T_NODES])
            v = solver.solve_position(deal, won, deal, n, 0, trick, 0, -1, 0, arr, table)
            nodes = int(table[0, solver.T_NODES]) - before
            total += nodes
            print(f"deal {n}p {d:4d} value {v} nodes {nodes}", flush=True)
        print(f"total {n}p whole deals: {total} nodes", flush=True)
        if a.cards:
            out = np.empty(52, dtype=np.int64)
            total = 0
            for d, pos in enumerate(
                cut_positions(np.random.default_rng([a.seed, n]), n, a.cards, rules)
            ):
                before = int(table[0, solver.T_NODES])
                v = solver.card_values(*kernel_args(pos), table, out)
                nodes = int(table[0, solver.T_NODES]) - before
                total += nodes
                vals = " ".join(f"{c}:{out[c]}" for c in range(52) if out[c] >= 0)
                print(f"cards {n}p {d:4d} value {v} nodes {nodes} [{vals}]", flush=True)
            print(f"total {n}p card_values: {total} nodes", flush=True)


if __name__ == "__main__":
    main()
