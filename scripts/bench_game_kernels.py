#!/usr/bin/env python3
"""A kernel tournament of the base game: the base game kernels against the family ones.

    .venv/bin/python scripts/bench_game_kernels.py -s odds+heuristic,heuristic+rollout \\
        --boards 200 --rounds 5
    .venv/bin/python scripts/bench_game_kernels.py -s heuristic,random --boards 4000

In ONE process, one thread: ``games.tournament.tournament`` under the plain base rules
(the base game kernels, ``kernels/game.py``: ``play_games``) and
``games.families.family_tournament`` under the same rules as the auction-pitch preset
(``as_family``: the family game kernels, ``kernels/families/``), the same strategies,
boards and seed, alternated round by round (base first in even rounds, family first in
odd ones), CPU seconds (``time.process_time``) of each.  The first call of each (numba
compile or cache load) is timed apart and left out.  Prints each round, the median
games per CPU-second of each, and the median of the per-round ratios family/base (1.0:
as fast; under 1: the family kernels are slower), and the same per deal dealt (games
of different lengths weigh alike).  Also checks that both played the
same number of games and prints each side's win shares, which should agree closely
(the family kernels deal the base game's hands card for card, tests/test_one_deal.py).
"""

from __future__ import annotations

import argparse
import os
import statistics
import time


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("-s", "--strategies", default="odds+heuristic,heuristic+rollout")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--boards", type=int, default=200)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--rules", default=None, help="base options, e.g. partnership=true")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()

    from pitchsim.game.rules import Rules, as_family
    from pitchsim.games.bidding import parse_strategies
    from pitchsim.games.families import family_tournament
    from pitchsim.games.tournament import tournament

    rules = Rules.parse(args.rules)
    family = as_family(rules)
    chosen = parse_strategies(args.strategies)
    n = args.players

    def base(boards: int):
        return tournament(chosen, n, boards, rules, seed=args.seed, threads=1)

    def fam(boards: int):
        return family_tournament(chosen, n, boards, family, args.seed, threads=1)

    for name, run in (("base", base), ("family", fam)):
        t0 = time.perf_counter()
        run(2)
        print(f"first call ({name}): {time.perf_counter() - t0:.1f} s wall (compile or load)")
    rates: dict[str, list[float]] = {"base": [], "family": []}
    deal_rates: dict[str, list[float]] = {"base": [], "family": []}
    ratios = []
    shares = {}
    for r in range(args.rounds):
        order = (("base", base), ("family", fam))
        if r % 2:
            order = order[::-1]
        now = {}
        for name, run in order:
            c0 = time.process_time()
            out = run(args.boards)
            cpu = time.process_time() - c0
            games = args.boards * len(chosen)
            now[name] = games / cpu
            rates[name].append(now[name])
            # deals dealt (redeals included): games of other lengths weigh alike
            deals = out.deals if hasattr(out, "deals") else out.mean_deals * games
            deal_rates[name].append(deals / cpu)
            wins = out.wins if hasattr(out, "wins") else [s.wins for s in out.results]
            shares[name] = [round(float(w) / games, 3) for w in _per_strategy(wins)]
        ratios.append(now["family"] / now["base"])
        print(
            f"round {r}: base {now['base']:8.1f} games/CPU-s, family {now['family']:8.1f}, "
            f"family/base {ratios[-1]:.3f}"
        )
    print(f"strategies {args.strategies}, {n} players, {args.boards} boards, one thread")
    print(f"load average {os.getloadavg()[0]:.2f}")
    for name in rates:
        print(
            f"{name:>6}: median {statistics.median(rates[name]):.1f} games/CPU-s, "
            f"{statistics.median(deal_rates[name]):.1f} deals/CPU-s"
        )
    per_deal = [f / b for f, b in zip(deal_rates["family"], deal_rates["base"], strict=True)]
    print(f"family/base per deal: median {statistics.median(per_deal):.3f}")
    print(f"family/base: median {statistics.median(ratios):.3f} (min {min(ratios):.3f})")
    print(f"win shares (last round): base {shares['base']}, family {shares['family']}")


def _per_strategy(wins) -> list[float]:
    import numpy as np

    a = np.asarray(wins, dtype=float)
    return list(a.sum(axis=0)) if a.ndim == 2 else list(a)


if __name__ == "__main__":
    main()
