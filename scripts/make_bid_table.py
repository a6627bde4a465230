#!/usr/bin/env python3
"""Regenerate ``pitchsim/data/family_bid_table.npz``: the make-probabilities the ``odds``
bidder of every preset (the base game as ``auction-pitch``) bids from.

    .venv/bin/python scripts/make_bid_table.py [--deals 200000] [--seed 2024]

Per family and table (``FAMILY_CONFIGS``: every preset at each player count it allows),
P(the pitcher's side takes at least k points), k = 1 .. the family's maximum bid, by
the heuristic count of the pitcher's best suit in half points and whether it holds
that suit's top and bottom ranked trumps (``bidding.odds_row``,
``kernels/bid_table.py``), and a defender's mean points, made, filled and fitted by
``pitchsim.table.odds_rows.count_rows`` (which also makes the rows of any other rules on
first use): rows with fewer than ``MIN_CELL`` deals borrow from their neighbours, and
P(at least k) is made to rise with the count within each holding where the deals allow
(``rise``), so that noise never makes a better hand read worse odds.  (The base
kernels' own table, ``bid_table.npz``, went with them.)
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

from pitchsim.util.atomic import atomic_path

OUT = Path(__file__).resolve().parent.parent / "pitchsim" / "data" / "family_bid_table.npz"
# (family, players): every preset at the player counts VARIANTS.md 6.4 allows.
FAMILY_CONFIGS = [("setback", 4)] + [("smear", n) for n in range(2, 8)]
FAMILY_CONFIGS += [("ten-point", 4)]
FAMILY_SOLO = [("ten-point,partnership=false", n) for n in (4, 5, 6)]
FAMILY_SOLO += [("smear,partnership=true", 4)]
# Trickster's five- and seven-point games (VARIANTS.md 8, 10), after the others so that
# their seeds (seed * 100 + place) and rows stay as they were
FAMILY_SOLO += [("five-point", 4)] + [("five-point,partnership=false", n) for n in (2, 3, 4)]
FAMILY_SOLO += [("seven-point", 4), ("seven-point,partnership=false", 4)]
# Trickster's six-point game (VARIANTS.md 9), after those for the same reason
FAMILY_SOLO += [("six-point", 4)] + [("six-point,partnership=false", n) for n in (2, 3, 4)]
# Cinch (VARIANTS.md 11, 4 players in partnership only), after those for the same reason
FAMILY_SOLO += [("cinch", 4)]
# The base game as the auction-pitch preset (so that its variants, trump=named and the
# rest, bid by odds on the family kernels), after those for the same reason
FAMILY_SOLO += [("auction-pitch", n) for n in range(2, 8)]
FAMILY_SOLO += [("auction-pitch,partnership=true", 4)]
# kitty=3 (12.2), the size on record: rows of their own (the pitcher's 3 more cards)
FAMILY_SOLO += [
    ("smear,kitty=3", 4),
    ("five-point,kitty=3", 4),
    ("auction-pitch,trump=named,kitty=3", 4),
]
# The other kitty sizes (12.2) at 4 players, after those for the same reason
FAMILY_SOLO += [
    (f"{family},kitty={k}", 4)
    for family in ("smear", "five-point", "auction-pitch,trump=named")
    for k in (1, 2, 4, 5, 6)
]
FAMILY_SOLO += [
    (f"{family},kitty={k}", 4)
    for family in ("six-point", "setback,trump=named")
    for k in range(1, 7)
]
# A called or announced partner (12.1: the pitcher's side is two seats) at the 5 and 6
# players it needs, under every preset 6.3.7 allows it, after those for the same reason
FAMILY_SOLO += [
    (f"{family},partner={partner}", n)
    for family in ("smear", "auction-pitch,trump=named", "ten-point,partnership=false")
    for partner in ("called", "announced")
    for n in (5, 6)
]


def rules_table(deals: int, seed: int, out: Path) -> None:
    from pitchsim.game.rules import Rules
    from pitchsim.kernels.bidding.calls import N_BUCKETS, N_CLASSES, N_ROWS
    from pitchsim.table.odds_rows import FILL, count_rows, odds_table_key

    configs = FAMILY_CONFIGS + FAMILY_SOLO
    # the largest maximum bid of a preset (cinch's 14)
    width = max(Rules.parse(spec).max_bid for spec, _ in configs)
    keys, max_bid = [], []
    p_at_least = np.zeros((len(configs), N_ROWS, width))
    cells = np.zeros((len(configs), N_ROWS), dtype=np.int64)
    defender = np.zeros(len(configs))
    # A row already in the table at the same place, deals and seed is what this loop would
    # compute again (its stream is seed * 100 + place): kept, so adding a preset is cheap.
    old = {}
    if out.exists():
        with np.load(out) as z:
            filled_by = int(z["fill"]) if "fill" in z.files else 1
            if int(z["deals"]) == deals and int(z["seed"]) == seed and filled_by == FILL:
                old = {str(k): j for j, k in enumerate(z["keys"])}
                kept = {k: z[k].copy() for k in ("p_at_least", "cells", "defender")}
                narrow = kept["p_at_least"]  # a table from before a wider preset: widened
                kept["p_at_least"] = np.zeros((*narrow.shape[:2], width), np.float32)
                kept["p_at_least"][:, :, : narrow.shape[2]] = narrow
    for i, (spec, n) in enumerate(configs):
        t0, c0 = time.perf_counter(), time.process_time()
        r = Rules.parse(spec)
        key = odds_table_key(r, n)
        if old.get(key) == i:
            keys.append(key)
            max_bid.append(r.max_bid)
            p_at_least[i], cells[i], defender[i] = (kept[k][i] for k in kept)
            print(f"{key}: kept from {out.name}", flush=True)
            continue
        rows = count_rows(r, n, deals, seed * 100 + i)
        keys.append(key)
        max_bid.append(r.max_bid)
        defender[i], cells[i] = rows.defender, rows.cells
        p_at_least[i][:, : r.max_bid] = rows.p_at_least
        at = p_at_least[i].reshape(N_BUCKETS, N_CLASSES, width)
        print(
            f"{keys[-1]}: defender {defender[i]:.2f} points, "
            f"P(>= k) at count 2: {np.round(at[4, :, : r.max_bid].T, 2).tolist()}, "
            f"at count 4: {np.round(at[8, :, : r.max_bid].T, 2).tolist()}  "
            f"({time.perf_counter() - t0:.0f} s wall, {time.process_time() - c0:.0f} s CPU)",
            flush=True,
        )
    out.parent.mkdir(parents=True, exist_ok=True)
    with atomic_path(out) as tmp, open(tmp, "wb") as f:
        np.savez_compressed(
            f,
            keys=np.array(keys),
            max_bid=np.array(max_bid, dtype=np.int64),
            p_at_least=p_at_least.astype(np.float32),
            cells=cells,
            defender=defender,
            deals=np.int64(deals),
            seed=np.int64(seed),
            fill=np.int64(FILL),
            play_policy=np.array("heuristic"),
        )
    print(f"wrote {out} ({out.stat().st_size / 1024:.0f} KiB)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--deals", type=int, default=200_000, help="deals per table")
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args()
    rules_table(args.deals, args.seed, args.out)


if __name__ == "__main__":
    main()
