#!/usr/bin/env python3
"""How much better does ``heuristic`` play than ``random``?  Same deals, paired.

For each table (4 players, solo and partnership) every deal is played four times,
from the same cards: the pitcher's side (seat 0, and seat 2 in a partnership) and the
defenders each run ``heuristic`` or ``random``.  Reported per combination: the chance
that the pitcher's side wins at least k points (k = 2 is "makes a bid of 2") with 95%
Wilson intervals, the mean points won, and how often each point (High, Low, Jack,
Game) went to the pitcher's side.  Then the paired differences that answer

- does a heuristic pitcher beat a random one?  (defenders fixed)
- do heuristic defenders beat random ones?  (pitcher fixed)

with 95% intervals from the per-deal differences (same deals, so these are much
tighter than the two separate intervals would suggest).

Trump: by default each pitcher picks it by his own opening lead, so the random pitcher
also picks trump at random.  ``--same-trump`` gives every run the heuristic pitcher's
suit, which isolates the card play from the choice of trump.

    .venv/bin/python scripts/compare_policies.py --deals 200000 --seed 1

Search play (``--search rollout:16,pimc:16``): per table size (``--players 3,4,5,7``)
and table (solo; partnership at 4), every deal is played by heuristic at every seat,
then with the search policy for the pitcher's side (heuristic defenders), then for the
defenders (heuristic pitcher's side), on the same deals and the same trump (the one
the heuristic pitcher leads, as in a game where the auction fixed it).  The search
side plays for the bid given by ``--bids`` (each bid a separate run: a search pitcher
aiming at 2 plays differently from one aiming at 3; bid 0 = the most points).  Paired
differences (search run minus all-heuristic run, in the pitcher's side's results:
negative is good for search defenders) in P(>= 2), P(>= 3) and mean points, 95%
intervals, and the CPU time each run took with its decisions per CPU-second (deals x 6
x searching seats, forced plays included).

    .venv/bin/python scripts/compare_policies.py --search rollout:16,pimc:16 \
        --players 3,4,5,7 --deals 1000 --bids 2,3 --json > search.json

(``--ablate`` and ``+option`` suffixes, which switched parts of the base game's own
search off, went with that search; docs/search.md keeps their measurements.)
"""

from __future__ import annotations

import argparse
import json
import os
import time

import numba
import numpy as np
from preset_deals import PITCHER, preset_run  # scripts/, beside this one

from pitchsim.game.rules import Rules
from pitchsim.kernels.policies import WORLDS_SHIFT
from pitchsim.kernels.search.epimc import COARSE_SHIFT
from pitchsim.table.policies import play_array, play_policy, seat_policies
from pitchsim.util.runtime import use_threads
from pitchsim.util.stats import Z95, wilson

POINT_NAMES = ("High", "Low", "Jack", "Game")


def seat_names(pitcher_side: str, defenders: str, n: int, partnership: bool) -> list[str]:
    ours = {PITCHER, (PITCHER + 2) % n} if partnership else {PITCHER}
    return [pitcher_side if s in ours else defenders for s in range(n)]


def run(seed, deals, n, rules, pitcher_side, defenders, trumps):
    policies = seat_policies(seat_names(pitcher_side, defenders, n, rules.partnership), n)
    flags, trump, _ = preset_run(seed, np.arange(deals), n, rules, policies, trumps)
    points = np.bitwise_count(flags.astype(np.uint8)).astype(np.int64)
    return flags, points, trump


def summary(flags, points):
    d = points.size
    out = {
        "mean_points": float(points.mean()),
        "mean_points_se": float(points.std(ddof=1) / np.sqrt(d)),
    }
    for k in (1, 2, 3, 4):
        hits = int((points >= k).sum())
        lo, hi = wilson(hits, d)
        out[f"p_at_least_{k}"] = [hits / d, float(lo), float(hi)]
    for i, name in enumerate(POINT_NAMES):
        out[f"p_{name.lower()}"] = float(((flags >> i) & 1).mean())
    return out


def paired(a, b):
    """Mean of a - b over the same deals, with a 95% half-width."""
    diff = a.astype(float) - b.astype(float)
    return float(diff.mean()), float(Z95 * diff.std(ddof=1) / np.sqrt(diff.size))


def compare(seed, deals, n, rules, same_trump):
    free = np.full(deals, -1, dtype=np.int64)
    combos = [
        ("heuristic", "heuristic"),
        ("random", "heuristic"),
        ("heuristic", "random"),
        ("random", "random"),
    ]
    results = {}
    base = run(seed, deals, n, rules, "heuristic", "heuristic", free)
    trumps = base[2] if same_trump else free
    for combo in combos:
        results[combo] = base if combo == combos[0] else run(seed, deals, n, rules, *combo, trumps)
    table = {
        f"{p} pitcher side vs {d} defenders": summary(f, pts)
        for (p, d), (f, pts, _) in results.items()
    }
    diffs = {}
    for what, a, b in [
        ("heuristic vs random pitcher side (defenders heuristic)", combos[0], combos[1]),
        ("heuristic vs random pitcher side (defenders random)", combos[2], combos[3]),
        ("heuristic vs random defenders (pitcher side heuristic)", combos[0], combos[2]),
        ("heuristic vs random defenders (pitcher side random)", combos[1], combos[3]),
    ]:
        pa, pb = results[a][1], results[b][1]
        diffs[what] = {
            "p_at_least_2": paired(pa >= 2, pb >= 2),
            "p_at_least_1": paired(pa >= 1, pb >= 1),
            "mean_points": paired(pa, pb),
        }
    return table, diffs


def pct(x):
    return f"{100 * x:5.1f}%"


def render(title, table, diffs):
    lines = [title, ""]
    head = (
        f"{'pitcher side':<12} {'defenders':<10} {'P(>=1)':>7} {'P(>=2) [95% CI]':>22} "
        f"{'P(>=3)':>7} {'P(4)':>6} {'mean pts':>14} " + " ".join(f"{n:>5}" for n in POINT_NAMES)
    )
    lines.append(head)
    for name, s in table.items():
        p, d = name.split(" pitcher side vs ")
        p2, lo2, hi2 = s["p_at_least_2"]
        lines.append(
            f"{p:<12} {d.split()[0]:<10} {pct(s['p_at_least_1'][0]):>7} "
            f"{pct(p2)} [{pct(lo2)},{pct(hi2)}] {pct(s['p_at_least_3'][0]):>7} "
            f"{pct(s['p_at_least_4'][0]):>6} {s['mean_points']:7.3f}±{Z95 * s['mean_points_se']:.3f} "
            + " ".join(f"{100 * s['p_' + n.lower()]:4.0f}%" for n in POINT_NAMES)
        )
    lines.append("")
    lines.append("Paired differences on the same deals (a - b, 95% interval):")
    for what, d in diffs.items():
        m2, h2 = d["p_at_least_2"]
        mm, hm = d["mean_points"]
        lines.append(
            f"  {what:<56} P(>=2) {100 * m2:+5.1f} ±{100 * h2:.1f} pts"
            f"   mean points {mm:+.3f} ±{hm:.3f}"
        )
    return "\n".join(lines)


def search_policies(n, rules, pitcher_side, defenders):
    """Per-seat policy ids: the pitcher's side and the defenders as named (a search may
    carry ``+coarse``: epimc's measurement-only coarse grouping, ``epimc.COARSE_SHIFT``)."""
    names = seat_names(pitcher_side, defenders, n, rules.partnership)
    return play_array([_policy_id(name) for name in names])


def _policy_id(name: str) -> int:
    base, _, option = name.partition("+")
    pid = play_policy(base).id
    if option == "coarse":
        pid |= 1 << (COARSE_SHIFT + WORLDS_SHIFT)
    elif option:
        raise SystemExit(f"unknown search option {option!r} (known: coarse)")
    return pid


def search_run(seed, deals, n, rules, bid, pitcher_side, defenders, trumps):
    policies = search_policies(n, rules, pitcher_side, defenders)
    t, c = time.perf_counter(), time.process_time()
    flags, _, _ = preset_run(seed, np.arange(deals), n, rules, policies, trumps, bid)
    seconds, cpu = time.perf_counter() - t, time.process_time() - c
    return np.bitwise_count(flags.astype(np.uint8)).astype(np.int64), seconds, cpu


def _diffs(pts, base):
    return {
        "p_at_least_2": paired(pts >= 2, base >= 2),
        "p_at_least_3": paired(pts >= 3, base >= 3),
        "mean_points": paired(pts, base),
    }


def compare_search(seed, deals, n, rules, searches, bids, sides=("pitcher", "defenders")):
    """Search pitcher's side / search defenders against all-heuristic, same deals."""
    free = np.full(deals, -1, dtype=np.int64)
    _, _, trumps = run(seed, deals, n, rules, "heuristic", "heuristic", free)
    base, _, _ = search_run(seed, deals, n, rules, 0, "heuristic", "heuristic", trumps)
    rows = []
    fulls = {}  # (search, side, bid): the pitcher's side's points per deal
    for search in searches:
        for bid in bids:
            for side, combo in (
                ("pitcher", (search, "heuristic")),
                ("defenders", ("heuristic", search)),
            ):
                if side not in sides:
                    continue
                pts, seconds, cpu = search_run(seed, deals, n, rules, bid, *combo, trumps)
                searchers = sum(
                    name != "heuristic" for name in seat_names(*combo, n, rules.partnership)
                )
                d = _diffs(pts, base)
                rows.append(
                    {
                        "search": search,
                        "seat": side,
                        "bid": bid,
                        "seconds": seconds,
                        "cpu_seconds": cpu,
                        "decisions_per_cpu_s": deals * 6 * searchers / cpu,
                        **{
                            k: [float(v.mean()), *d[k]]
                            for k, v in (
                                ("p_at_least_2", pts >= 2),
                                ("p_at_least_3", pts >= 3),
                                ("mean_points", pts),
                            )
                        },
                    }
                )
                fulls[search, side, bid] = pts
    # Each search against the first one, paired on the same deals, side and bid.
    versus = [
        {"search": search, "against": searches[0], "seat": side, "bid": bid, **_diffs(pts, first)}
        for (search, side, bid), pts in fulls.items()
        if search != searches[0] and (first := fulls.get((searches[0], side, bid))) is not None
    ]
    heuristic = {
        "p_at_least_2": float((base >= 2).mean()),
        "p_at_least_3": float((base >= 3).mean()),
        "mean_points": float(base.mean()),
    }
    return heuristic, rows, versus


def _cells(d):
    cells = [
        f"{100 * d[k][-2]:+6.1f} ±{100 * d[k][-1]:4.1f}" for k in ("p_at_least_2", "p_at_least_3")
    ]
    return cells + [f"{d['mean_points'][-2]:+9.3f} ±{d['mean_points'][-1]:.3f}"]


def render_search(title, heuristic, rows, versus=()):
    lines = [
        title,
        f"  all heuristic: P(>=2) {pct(heuristic['p_at_least_2'])}, "
        f"P(>=3) {pct(heuristic['p_at_least_3'])}, mean points "
        f"{heuristic['mean_points']:.3f}",
        "",
    ]
    lines.append(
        f"  {'search':<19} {'plays for':<10} {'aims at':<8} {'dP(>=2) [95%]':>16} "
        f"{'dP(>=3) [95%]':>16} {'d mean points':>17} {'CPU-s':>7} {'dec/CPU-s':>9}"
    )
    for r in rows:
        aim = f"bid {r['bid']}" if r["bid"] else "points"
        name = r["search"]
        a, b, c = _cells(r)
        lines.append(
            f"  {name:<19} {r['seat']:<10} {aim:<8} {a:>16} {b:>16} {c:>17} "
            f"{r['cpu_seconds']:7.1f} {r['decisions_per_cpu_s']:9.0f}"
        )
    for v in versus:
        aim = f"bid {v['bid']}" if v["bid"] else "points"
        a, b, c = _cells(v)
        name = f"{v['search']} - {v['against']}"
        lines.append(f"  {name:<19} {v['seat']:<10} {aim:<8} {a:>16} {b:>16} {c:>17}")
    lines.append(
        "  (differences in the pitcher's side's results, search run minus all-heuristic "
        "run on the same deals (a - b: one search minus the first);"
    )
    lines.append("   for search defenders, negative is better)")
    return "\n".join(lines)


def main_search(args) -> None:
    searches = [s.strip() for s in args.search.split(",")]
    bids = [int(b) for b in args.bids.split(",")]
    report = {
        "deals": args.deals,
        "seed": args.seed,
        "bids": bids,
        "searches": searches,
        "threads": numba.get_num_threads(),
        "load_avg_before": os.getloadavg(),
        "tables": [],
    }
    for n in (int(x) for x in str(args.players).split(",")):
        wanted = {t.strip() for t in args.tables.split(",")} - (
            {"partnership"} if args.solo_only else set()
        )
        tables = ([("solo", Rules())] if "solo" in wanted else []) + (
            [("partnership", Rules(partnership=True))] if n == 4 and "partnership" in wanted else []
        )
        for label, rules in tables:
            heuristic, rows, versus = compare_search(
                args.seed, args.deals, n, rules, searches, bids, args.sides.split(",")
            )
            report["tables"].append(
                {
                    "players": n,
                    "table": label,
                    "heuristic": heuristic,
                    "rows": rows,
                    "versus_first": versus,
                }
            )
            if not args.json:
                print(
                    render_search(
                        f"{n} players, {label}, {args.deals:,} deals (seed "
                        f"{args.seed}), the heuristic pitcher's trump",
                        heuristic,
                        rows,
                        versus,
                    ),
                    flush=True,
                )
                print(flush=True)
    report["load_avg_after"] = os.getloadavg()
    if args.json:
        print(json.dumps(report, indent=1))
    else:
        print(
            f"load average {report['load_avg_before'][0]:.2f} before, "
            f"{report['load_avg_after'][0]:.2f} after; {report['threads']} threads"
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--deals", type=int, default=200_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--players", default="4", help="table size (with --search: a list, 3,4,7)")
    ap.add_argument(
        "--search",
        help="search play policies to measure, e.g. rollout:16,pimc:16; every search after "
        "the first is also compared with the first, paired",
    )
    ap.add_argument(
        "--bids",
        default="2,3",
        help="with --search: the bids the search side plays for, one run each (0: the most points)",
    )
    ap.add_argument(
        "--tables",
        default="solo,partnership",
        help="with --search: solo, partnership (4 players only) or both",
    )
    ap.add_argument(
        "--sides",
        default="pitcher,defenders",
        help="with --search: the side(s) that search, one run each",
    )
    ap.add_argument("--solo-only", action="store_true", help="with --search: no partnership")
    ap.add_argument(
        "--same-trump",
        action="store_true",
        help="every run plays the heuristic pitcher's trump suit",
    )
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    if args.threads:
        numba.set_num_threads(args.threads)
    if args.search:
        with use_threads(args.threads):  # blocks handed out one at a time
            main_search(args)
        return
    args.players = int(args.players)
    tables = [("solo", Rules())]
    if args.players == 4:
        tables.append(("partnership", Rules(partnership=True)))
    report = {}
    t0 = time.perf_counter()
    for label, rules in tables:
        table, diffs = compare(args.seed, args.deals, args.players, rules, args.same_trump)
        report[label] = {"table": table, "differences": diffs}
        if not args.json:
            trump = "heuristic's trump for all" if args.same_trump else "each pitcher picks trump"
            title = (
                f"{args.players} players, {label}, {args.deals:,} deals (seed {args.seed}), {trump}"
            )
            print(render(title, table, diffs))
            print()
    if args.json:
        print(
            json.dumps(
                {
                    "players": args.players,
                    "deals": args.deals,
                    "seed": args.seed,
                    "same_trump": args.same_trump,
                    **report,
                },
                indent=1,
            )
        )
    else:
        print(f"({time.perf_counter() - t0:.1f} s)")


if __name__ == "__main__":
    main()
