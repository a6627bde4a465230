"""hint on a clock: its time at the command's defaults at 2-7 players, and pimc's speed.

    .venv/bin/python scripts/bench_hint_clock.py                   # 2-7 players, 20 + 20
    .venv/bin/python scripts/bench_hint_clock.py --players 7 --positions 5
    .venv/bin/python scripts/bench_hint_clock.py --pimc-only
    .venv/bin/python scripts/bench_hint_clock.py --budget 2,4 --players 6,7 --positions 5

Positions: hands as ``pitchsim play --players N --seed S --json`` plays them (heuristic
bidding and play; a thrown-in hand is skipped for the next seed), cut at the pitcher's
opening lead and at a random card of tricks 2-5 (mid-hand).  Each is asked of
``hint`` with ``pitchsim hint``'s defaults: the table size's policy
(``DEFAULT_POLICY``), at most ``DEFAULT_WORLDS`` worlds, a ``DEFAULT_TIME`` clock, and
the stop when the recommended card is separated.  Timed in-process with the kernels
warm (compiling and loading are off the clock in the command too): wall and CPU
(process) time, median and worst; how the searches stopped.  The command's own start
(Python, numpy, numba loading its cache) comes on top: ``--startup`` times a few runs
of the command itself.

``--budget`` instead asks explicit ``pimc`` at each budget given (and the stop when
separated), on opening leads and mid-hand positions together, and shows how far wall
time goes past the budget: no search should keep a user waiting longer than asked.

Then pimc's speed: decisions per second, the pimc play policy's own way (its default 16
worlds, ``pimc:16``) and hint's (100 worlds), at 4 and 7 players, on positions in the
first trick (after the lead: the dearest but for the lead itself) and mid-hand; each
decision capped by a ``--pimc-cap`` seconds clock (the worlds
valued in the time are counted: worlds per second is the figure that does not depend
on the cap).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

from pitchsim.game.rules import Rules, spec  # noqa: E402
from pitchsim.search.hint import DEFAULT_TIME, DEFAULT_WORLDS, default_policy, hint  # noqa: E402
from pitchsim.search.position import parse_position  # noqa: E402
from pitchsim.table.bidding import seat_strategies  # noqa: E402
from pitchsim.table.boards import board_hand  # noqa: E402
from pitchsim.util.jsonio import dumps_json  # noqa: E402


def played_hands(n: int, count: int, first_seed: int) -> list[dict]:
    """``count`` hands as ``pitchsim play --players n --seed S --json`` writes them."""
    seats = seat_strategies("heuristic", "heuristic", n)
    out = []
    seed = first_seed
    while len(out) < count:
        rules = Rules()
        h = board_hand(seed, 0, seats, rules, n - 1)
        seed += 1
        if h.pitcher is None:
            continue  # thrown in: nothing to play
        out.append(h.to_json(rules) | {"players": n, "rules": spec(rules)})
    return out


def cut(doc: dict, cards: int) -> dict:
    """The hand cut after ``cards`` cards of play."""
    d = dict(doc)
    tricks = []
    left = cards
    for t in doc["tricks"]:
        if left <= 0:
            break
        take = t["cards"][:left]
        tricks.append({"leader": t["leader"], "cards": take})
        left -= len(take)
    d["tricks"] = tricks
    return d


def positions(n: int, count: int, seed: int, first_trick: bool = False):
    """(opening leads, mid-hand positions); with ``first_trick``, positions cut after a
    random 1 to n - 1 cards of the first trick instead of mid-hand (pimc's dearest
    decisions after the lead itself)."""
    rng = random.Random(f"clock-{n}-{seed}")
    hands = played_hands(n, count, seed)
    opening = [parse_position(cut(h, 0)) for h in hands]
    lo, hi = (1, n) if first_trick else (n, 5 * n)
    middle = [parse_position(cut(h, rng.randrange(lo, hi))) for h in hands]
    return opening, middle


def time_hints(poses) -> tuple[list[float], list[float], dict]:
    walls, cpus, stops = [], [], {}
    for i, pos in enumerate(poses):
        w, c = time.perf_counter(), time.process_time()
        h = hint(pos, None, DEFAULT_WORLDS, seed=i + 1, time=DEFAULT_TIME, separate=True)
        walls.append(time.perf_counter() - w)
        cpus.append(time.process_time() - c)
        stops.setdefault(h.stop, []).append(h.worlds)
    return walls, cpus, stops


def show_stops(stops: dict) -> str:
    return "; ".join(
        f"{k} {len(v)} (worlds median {statistics.median(v):.0f})" for k, v in sorted(stops.items())
    )


def budget_check(counts, budgets, count: int, seed: int) -> None:
    print("explicit pimc on a clock: wall / CPU seconds over opening and mid-hand positions")
    print("players budget  median wall  worst wall  median CPU  worst CPU  worst search  stops")
    for n in counts:
        opening, middle = positions(n, count, seed)
        for b in budgets:
            walls, cpus, stops, searches = [], [], {}, []
            for i, pos in enumerate(opening + middle):
                w, c = time.perf_counter(), time.process_time()
                h = hint(pos, "pimc", DEFAULT_WORLDS, seed=i + 1, time=b, separate=True)
                walls.append(time.perf_counter() - w)
                cpus.append(time.process_time() - c)
                searches.append(h.seconds)
                stops.setdefault(f"{h.policy}: {h.stop}", []).append(h.worlds)
            print(
                f"{n:7d} {b:6g} {statistics.median(walls):12.3f} {max(walls):11.3f} "
                f"{statistics.median(cpus):11.3f} {max(cpus):10.3f} {max(searches):13.3f}  "
                f"{show_stops(stops)}",
                flush=True,
            )


def pimc_speed(poses, worlds: int, cap: float) -> tuple[float, float, int]:
    """(decisions per wall second, worlds per wall second, decisions stopped by the cap)."""
    t = time.perf_counter()
    valued = capped = 0
    for i, pos in enumerate(poses):
        h = hint(pos, "pimc", worlds, seed=i + 1, time=cap)
        valued += h.worlds
        capped += h.stop == "stopped by the clock"
    spent = time.perf_counter() - t
    return len(poses) / spent, valued / spent, capped


def startup(n: int, runs: int = 3) -> float:
    hands = played_hands(n, runs, 1)
    best = []
    with tempfile.TemporaryDirectory() as tmp:
        for i, h in enumerate(hands):
            f = Path(tmp) / f"p{i}.json"
            f.write_text(dumps_json(cut(h, n + 1)))
            t = time.perf_counter()
            subprocess.run(
                [str(ROOT / ".venv/bin/pitchsim"), "hint", str(f), "--seed", "1"],
                check=True,
                capture_output=True,
            )
            best.append(time.perf_counter() - t)
    return statistics.median(best)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--players", default="2,3,4,5,6,7")
    ap.add_argument("--positions", type=int, default=20, help="per cut and player count")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--pimc-only", action="store_true")
    ap.add_argument("--pimc-cap", type=float, default=30.0)
    ap.add_argument("--pimc-positions", type=int, default=5)
    ap.add_argument("--startup", action="store_true", help="also time the command itself")
    ap.add_argument("--budget", help="seconds, comma-separated: explicit pimc on this clock")
    args = ap.parse_args()
    counts = [int(x) for x in args.players.split(",")]
    t = time.perf_counter()
    pos = positions(2, 1, 1)[1][0]
    hint(pos, "pimc", 2, seed=1)
    hint(pos, "rollout", 2, seed=1)
    print(f"warm-up (load or compile): {time.perf_counter() - t:.1f} s")
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    if args.budget:
        budgets = [float(x) for x in args.budget.split(",")]
        budget_check(counts, budgets, args.positions, args.seed)
        print(f"load average after: {os.getloadavg()[0]:.2f}")
        return
    if not args.pimc_only:
        print(
            f"hint at the defaults ({DEFAULT_WORLDS} worlds at most, {DEFAULT_TIME:g} s clock, "
            "stop when separated); wall / CPU seconds, median and worst"
        )
        print("players policy   cut      median wall  worst wall  median CPU  worst CPU  stops")
        for n in counts:
            opening, middle = positions(n, args.positions, args.seed)
            for name, poses in (("opening", opening), ("mid-hand", middle)):
                walls, cpus, stops = time_hints(poses)
                print(
                    f"{n:7d} {default_policy(n, Rules()):8s} {name:8s} {statistics.median(walls):11.3f} "
                    f"{max(walls):11.3f} {statistics.median(cpus):11.3f} {max(cpus):10.3f}  "
                    f"{show_stops(stops)}",
                    flush=True,
                )
        print(f"load average after: {os.getloadavg()[0]:.2f}")
    if args.startup:
        for n in counts:
            print(f"{n} players: the command, start to answer (median of 3): {startup(n):.2f} s")
    print(f"pimc speed (wall; each decision capped at {args.pimc_cap:g} s)")
    print("players positions    worlds  decisions/s  worlds/s  capped")
    for n in (4, 7):
        for first in (True, False):
            _, poses = positions(n, args.pimc_positions, args.seed + 100, first)
            name = "first trick" if first else "mid-hand"
            for w in (16, 100):
                d, ws, capped = pimc_speed(poses, w, args.pimc_cap)
                print(
                    f"{n:7d} {name:12s} {w:6d} {d:12.3f} {ws:9.1f}  {capped} of {len(poses)}",
                    flush=True,
                )
    print(f"load average at the end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    sys.exit(main())
