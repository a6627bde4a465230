#!/usr/bin/env python3
"""Family kernels' throughput, their compile time, and the base game old vs new.

    .venv/bin/python scripts/bench_families.py
    .venv/bin/python scripts/bench_families.py --deals 400000 --repeat 3 --old /work/wt/old-famk
    .venv/bin/python scripts/bench_families.py --versus-base --rounds 5 --deals 400000
    .venv/bin/python scripts/bench_families.py --versus-base --kernel bid-odds --rounds 20 --deals 60000
    .venv/bin/python scripts/bench_families.py --versus-base --kernel bid-odds --presets auction-pitch \\
        --old /tmp/control --rounds 8 --deals 60000
    .venv/bin/python scripts/bench_families.py --fingerprint > before.json

- Families: the kernel ``pitchsim simulate`` runs (``sample.columns_kernel``, called as a
  run's part, ``study.batch.simulate_part``: deal, name trump, discard and draw, play,
  score, the run's columns) on warm kernels, one thread, per family at its usual
  table (4 players; smear also at 3) for ``random`` and ``heuristic`` play; deals per
  CPU-second (process time) and per wall second, best of ``--repeat``.  With each, the
  pitcher's P(make k) for k = 1 .. the maximum bid and its mean points (the hand-level
  Monte Carlo, seat 0 pitching and naming trump by its policy).
- Strength: the pitcher side's mean points on the same deals, each side random or
  heuristic (``strength``).
- Compile: a fresh process with an empty numba cache times the first call of that
  kernel for any rules (both policies compile in it), import apart.
- Base game old vs new: auction-pitch's run kernel (``simulate_part``, 4
  players, one thread) in fresh processes of this tree and of ``--old`` (a checkout of
  the tree before, run by PYTHONPATH with this venv), alternating, ``--rounds`` times
  each; best deals per CPU-second of each.

- Versus the base kernels (``--versus-base``): in ONE process, one thread, the base
  game's ``simulate_hands`` (in a tree before issue 28 only: it is gone; without it
  auction-pitch gets no ratio) and the kernel ``pitchsim simulate`` runs for
  auction-pitch (``simulate_part``: ``sample.record_base_columns``), 4 players, alternated round by
  round (random, heuristic), and the other presets (setback, smear, ten-point, six-point, 4 players) in the same rounds; deals per
  CPU-second (``time.process_time``) of each run, the median over ``--rounds``, and the
  ratios family/base (auction-pitch) and preset/auction-pitch per round, median.
  Compile (the first call of each kernel) is timed apart.  ``--kernel bid-odds``
  times the kernels ``bid-odds`` runs instead (``play_fixed_hand``, and
  ``fixed_hand.fixed_kernel``'s pick: ``play_base_fixed`` under the base game's shape,
  else ``play_fixed``; a fixed hand of the preset's size, seat 0 then a
  defender's seat, each timed apart).  ``--presets``: only those presets.  Alternating, each
  engine sees the same load; the ratios are the figures on a shared machine.  With
  ``--old DIR``: the same in fresh processes of this tree and of the checkout ``DIR``
  by turns, one round a process (``versus_trees``): the ratios of both trees, min,
  median and max over the rounds; ``--old-cache DIR``: the old tree's own
  NUMBA_CACHE_DIR (a cached kernel is not recompiled for an edit to a function it
  inlines from another module: give each tree its own cache).  ``--presets`` may
  also name cinch, five-point and seven-point (``MORE``).
- Fingerprint (``--fingerprint``): a hash of every column of a run's part
  (``simulate_part``: the base game's shape gets ``record_base_columns``), of
  ``simulate_fixed``'s outputs (points, award flags, trump) for a fixed hand, per
  preset and policy, and of ``play_logged``'s logs: two trees that print the same
  fingerprints play the same hands.

Until session 68 the throughput figures (and issue 28's ratios) were measured on a kernel
of their own, ``simulate.simulate_deals`` / ``simulate_base_hands``, which wrote the
pitcher side's points, award flags and trump alone; that twin is gone, and these
figures measure the kernel ``pitchsim simulate`` runs, which writes a run's columns
too: not comparable with figures before it.

The load average before and after is printed: on a shared machine read the figures
with it.
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

HERE = Path(__file__).resolve().parent.parent
FAMILIES = [("auction-pitch", 4), ("setback", 4), ("smear", 3), ("smear", 4), ("ten-point", 4)]

FIRST_CALL = """
import time, numpy as np
t0 = time.perf_counter()
from pitchsim.game.rules import Rules
from pitchsim.kernels.simulate import policy_row
from pitchsim.study.batch import play_deals
t1 = time.perf_counter()
n = 4
pol = policy_row("heuristic", n)
pol[1] = pol[3] = 0
play_deals(Rules.parse("ten-point"), n, 1, 0, 1000, pol)
t2 = time.perf_counter()
print(t1 - t0, t2 - t1)
"""

BASE_WORKER = """
import json, sys, time
sys.path.insert(0, sys.argv[3])
from bench_families import part_runner
deals, repeat = int(sys.argv[1]), int(sys.argv[2])
res = {}
for policy in ("random", "heuristic"):
    run = part_runner("auction-pitch", 4, policy, deals)
    best = float("inf")
    run(1, 20000)
    for rep in range(repeat):
        c = time.process_time()
        run(rep + 1, deals)
        best = min(best, time.process_time() - c)
    res[policy] = deals / best
print(json.dumps(res))
"""


def part_runner(spec: str, n: int, policy: str, deals: int):
    """``run(seed, count)``: deals 0 .. count-1 of ``seed``'s run at ``n`` players, every
    seat ``policy``, played on one thread as a run's part (``study.batch.simulate_part``:
    the kernel ``pitchsim simulate`` runs, ``sample.columns_kernel``; the same call in
    the trees before and after the hand kernels of their own went), returning the
    part's columns (views of buffers for ``deals`` deals, reused run after run)."""
    from pitchsim.game.rules import Rules
    from pitchsim.study.batch import part_buffers, simulate_part
    from pitchsim.study.manifest import Part, RunParams

    rules = Rules.parse(spec).describe_in_full()
    buffers = part_buffers(deals)

    def run(seed: int, count: int) -> dict:
        part = Part(0, n, 0, count)
        return simulate_part(part, RunParams(seed, policy, rules), 1, buffers=buffers)

    return run


def family_rates(spec: str, n: int, policy: str, deals: int, repeat: int) -> dict:
    from pitchsim.game.rules import Rules

    r = Rules.parse(spec)
    run = part_runner(spec, n, policy, deals)
    run(1, 20_000)
    wall = cpu = float("inf")
    for k in range(repeat):
        t, c = time.perf_counter(), time.process_time()
        pts = run(k + 1, deals)["points"]
        wall = min(wall, time.perf_counter() - t)
        cpu = min(cpu, time.process_time() - c)
    return {
        "rules": spec,
        "players": n,
        "policy": policy,
        "per_cpu_second": deals / cpu,
        "per_wall_second": deals / wall,
        "p_make": [round(float((pts >= k).mean()), 4) for k in range(1, r.max_bid + 1)],
        "mean_points": round(float(pts.mean()), 3),
    }


def strength(spec: str, n: int, deals: int) -> dict:
    """The pitcher side's mean points on the same deals with each side playing random
    (R) or heuristic (H), pitcher's side first: HR - RR is what the heuristic gains as
    pitcher (naming trump included), RR - RH what it takes away as defender."""
    import numpy as np

    from pitchsim.game.rules import Rules
    from pitchsim.study.batch import play_deals

    r = Rules.parse(spec)
    out = {"rules": spec, "players": n}
    for name, pitcher_side, defenders in (("RR", 0, 0), ("HR", 1, 0), ("RH", 0, 1), ("HH", 1, 1)):
        pol = np.array(
            [pitcher_side if r.team(s) == r.team(0) else defenders for s in range(n)], np.int64
        )
        pts = play_deals(r, n, 3, 0, deals, pol)["points"]
        out[name] = round(float(pts.mean()), 3)
    return out


def compile_time() -> dict:
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache, PITCHSIM_COMPILE_NOTICE="0")
        t = time.process_time()
        c0 = os.times()
        out = subprocess.run(
            [sys.executable, "-c", FIRST_CALL], env=env, check=True, capture_output=True, text=True
        ).stdout.split()
        c1 = os.times()
        del t
    return {
        "import_s": float(out[0]),
        "compile_first_call_wall_s": float(out[1]),
        "process_cpu_s": (c1.children_user + c1.children_system)
        - (c0.children_user + c0.children_system),
    }


def base_old_vs_new(old: Path, rounds: int, deals: int, repeat: int) -> dict:
    trees = {"new": HERE, "old": old}
    best: dict = {name: {} for name in trees}
    for _ in range(rounds):
        for name, tree in trees.items():  # alternating, so both see the same load
            env = dict(os.environ, PYTHONPATH=str(tree), PITCHSIM_COMPILE_NOTICE="0")
            out = subprocess.run(
                [sys.executable, "-c", BASE_WORKER, str(deals), str(repeat), str(HERE / "scripts")],
                env=env,
                check=True,
                capture_output=True,
                text=True,
                cwd="/tmp",
            ).stdout
            for policy, rate in json.loads(out).items():
                best[name][policy] = max(best[name].get(policy, 0.0), rate)
    return best


# The bid-odds kernels' seats for the known hand: the pitcher's, and a defender's
# (``fixed_hand.AS_DEFENDER``: each opponent of the pitcher in turn), timed apart.
SEATS = (("pitcher", 0), ("defender", -1))
VERSUS = [("auction-pitch", 4), ("setback", 4), ("smear", 4), ("ten-point", 4), ("six-point", 4)]
# ``--presets`` may also name these (not run by default)
MORE = [("cinch", 4), ("five-point", 4), ("seven-point", 4)]
# ``--presets ...,kitty``: kitty=N (12.2) beside the same presets without one
KITTY_RUNS = [
    ("auction-pitch,trump=named", 4),
    ("auction-pitch,trump=named,kitty=3", 4),
    ("five-point", 4),
    ("five-point,kitty=3", 4),
]
# ``--presets ...,partner``: partner=called (12.1) at 5 players beside the same without
PARTNER_RUNS = [
    ("auction-pitch,trump=named,partner=none", 5),
    ("auction-pitch,trump=named,partner=called", 5),
    ("ten-point,partnership=false", 5),
    ("ten-point,partnership=false,partner=called", 5),
]


def _bid_odds_hand(rules, n: int) -> int:
    """A fixed hand of the rules' size from their pack (the same for a seed of the
    script): the known hand of the bid-odds kernels."""
    import numpy as np

    pack = sorted(rules.pack(n))
    chosen = np.random.default_rng(2026).choice(pack, rules.cards_each(n), replace=False)
    return int(sum(1 << int(c) for c in chosen))


def versus_base(
    rounds: int,
    deals: int,
    kernel: str = "simulate",
    seed_offset: int = 0,
    presets: tuple[str, ...] = (),
) -> dict:
    """Base vs family kernels alternated in this process (see the module docstring).
    ``kernel`` "bid-odds": the kernels ``bid-odds`` runs (``play_fixed_hand`` and
    ``play_fixed``, a fixed hand, the pitcher's then a defender's seat by turns),
    instead of the hand kernels (``simulate_hands``, ``part_runner``), each seat
    timed apart (``SEATS``).  ``presets``: only these of ``VERSUS`` (auction-pitch
    always among them for the ratios; empty: all; ``kitty`` among them: ``KITTY_RUNS``
    too, kitty=N beside the same presets without; ``partner``: ``PARTNER_RUNS``, a
    called partner at 5 players beside the same without); ``seed_offset`` shifts the rounds'
    seeds (``versus_trees``: each tree's process plays other deals round by round)."""
    import statistics

    import numba
    import numpy as np

    from pitchsim.game.rules import Rules
    from pitchsim.kernels.fixed_hand import play_fixed
    from pitchsim.kernels.simulate import policy_row
    from pitchsim.table.policies import seat_policies

    try:  # (a tree before ``fixed_kernel``: one kernel)
        from pitchsim.kernels.fixed_hand import fixed_kernel
    except ImportError:

        def fixed_kernel(fr, policies=None):
            return play_fixed

    from pitchsim.kernels.presets import rules_array, rules_table

    try:  # (a tree before issue 28: the base game's own kernels, the yardstick)
        from pitchsim.kernels.simulate import simulate_hands
    except ImportError:
        simulate_hands = None

    def deck_without(hand: int) -> np.ndarray:  # (the base kernels' deal template, old trees)
        return np.array([c for c in range(52) if not hand >> c & 1], dtype=np.int64)

    numba.set_num_threads(1)
    fixed = kernel == "bid-odds"
    play_fixed_hand = None
    if fixed:
        try:  # (a tree before bid-odds ran the one engine's kernel)
            from pitchsim.kernels.fixed_hand import play_fixed_hand
        except ImportError:
            pass
    m8 = [np.empty(deals, np.int8) for _ in range(3)]
    f8, t8 = np.empty(deals, np.int8), np.empty(deals, np.int8)
    none = np.empty(0, np.int64)
    pts, flags, trump = (np.empty(deals, np.int64) for _ in range(3))
    runs = {}  # name -> a function of (seed, count)
    for policy in ("random", "heuristic"):
        if not fixed and simulate_hands is not None:
            # (the old tree's rules array: ``to_array`` went with the base kernels)
            base = (4, 0, deck_without(0), -1, seat_policies(policy, 4), Rules().to_array())
            runs[("base", policy)] = lambda seed, count, a=base: simulate_hands(
                seed, 0, count, *a, f8[:count], t8[:count], none, none
            )
        elif fixed and play_fixed_hand is not None:
            hand = _bid_odds_hand(Rules(), 4)
            a = (4, hand, deck_without(hand), -1, 0, seat_policies(policy, 4), Rules().to_array())
            for where, seat in SEATS:
                runs[("base", f"{policy}:{where}")] = lambda seed, count, a=a, seat=seat: (
                    play_fixed_hand(seed, 0, count, a[0], seat, *a[1:], *(x[:count] for x in m8))
                )
        extra = (KITTY_RUNS if "kitty" in presets else []) + (
            PARTNER_RUNS if "partner" in presets else []
        )
        more = [(spec, n) for spec, n in MORE if spec in presets]
        for spec, n in VERSUS + more + extra:
            if presets and spec not in presets and (spec, n) not in extra:
                continue
            r = Rules.parse(spec)
            fr = rules_array(r)
            a = (n, policy_row(policy, n), fr, rules_table(r))
            if not fixed:  # as ``pitchsim simulate`` runs it
                runs[(spec, policy)] = part_runner(spec, n, policy, deals)
            else:
                hand = np.int64(_bid_odds_hand(r, n))
                try:  # as ``advice.odds`` calls it (before session 62: the rules alone)
                    kernel = fixed_kernel(a[2], a[1])
                except TypeError:
                    kernel = fixed_kernel(a[2])
                # (a tree before the kernel took the bid: no such argument)
                bid = (0,) if "bid" in kernel.py_func.__code__.co_varnames else ()
                for where, seat in SEATS:
                    runs[(spec, f"{policy}:{where}")] = (
                        lambda seed, count, a=a, hand=hand, seat=seat, kernel=kernel, bid=bid: (
                            kernel(
                                seed,
                                0,
                                count,
                                a[0],
                                seat,
                                hand,
                                -1,
                                *bid,
                                *a[1:],
                                pts[:count],
                                flags[:count],
                                trump[:count],
                            )
                        )  # fmt: skip
                    )
    compile_s = {}
    for name, run in runs.items():
        c = time.process_time()
        run(1, 1000)
        compile_s[name] = time.process_time() - c
    rates: dict = {name: [] for name in runs}
    for k in range(rounds):
        for name, run in runs.items():  # base, then each family: alternated every round
            c = time.process_time()
            run(k + 2 + seed_offset, deals)
            rates[name].append(deals / (time.process_time() - c))
    ratios = {}
    for name in runs:
        ref = ("base", name[1]) if name[0] == "auction-pitch" else ("auction-pitch", name[1])
        if name[0] != "base" and ref in rates:  # (no base kernels in this tree: none)
            ratios[name] = statistics.median(
                a / b for a, b in zip(rates[name], rates[ref], strict=True)
            )
    return {
        "compile_cpu_s": {f"{a}/{b}": v for (a, b), v in compile_s.items()},
        "rates": {f"{a}/{b}": v for (a, b), v in rates.items()},
        "median": {f"{a}/{b}": statistics.median(v) for (a, b), v in rates.items()},
        "ratio": {f"{a}/{b}": v for (a, b), v in ratios.items()},
    }


def versus_trees(
    old: Path, rounds: int, deals: int, kernel: str, presets: tuple, old_cache: str = ""
) -> dict:
    """``versus_base`` in fresh processes of this tree and of ``old`` (a checkout run by
    PYTHONPATH with this venv), alternated ``rounds`` times, one round of each per
    process: per tree and run, the family/base ratios of every round (each measured
    in its own process, base and family alternated there).  ``old_cache``: the old
    tree's NUMBA_CACHE_DIR (a kernel's cache is not told of an edit to a function it
    inlines from another module: each tree its own cache)."""
    trees = {"old": old, "new": HERE}
    out: dict = {name: {} for name in trees}
    for k in range(rounds):
        for name, tree in trees.items():
            env = dict(os.environ, PYTHONPATH=str(tree), PITCHSIM_COMPILE_NOTICE="0")
            if old_cache and name == "old":
                env["NUMBA_CACHE_DIR"] = old_cache
            cmd = [sys.executable, str(Path(__file__).resolve()), "--versus-base", "--json"]
            cmd += ["--kernel", kernel, "--rounds", "1", "--deals", str(deals)]
            cmd += ["--seed-offset", str(k), "--presets", ",".join(presets)]
            v = json.loads(
                subprocess.run(
                    cmd, env=env, check=True, capture_output=True, text=True, cwd="/tmp"
                ).stdout
            )
            for run, ratio in v["ratio"].items():
                out[name].setdefault(run, []).append(ratio)
            for run, rate in v["median"].items():
                out[name].setdefault("rate " + run, []).append(rate)
    return out


def print_trees(t: dict, rounds: int, deals: int) -> None:
    print(f"\n{rounds} rounds of old and new trees by turns, {deals:,} deals a run, one thread")
    print(f"{'run':<38}{'old min/median/max':>36}{'new min/median/max':>36}")
    for run in t["new"]:
        cells = []
        for tree in ("old", "new"):
            v = sorted(t[tree].get(run, [float("nan")]))
            fmt = ",.0f" if run.startswith("rate ") else ".3f"
            cells.append(" / ".join(format(x, fmt) for x in (v[0], v[len(v) // 2], v[-1])))
        print(f"{run:<38}{cells[0]:>36}{cells[1]:>36}")


def print_versus(v: dict, rounds: int, deals: int) -> None:
    print(f"\none thread, one process, {rounds} alternated rounds of {deals:,} deals, 4 players")
    print(f"{'kernels':<16}{'policy':<20}{'median deals/CPU-s':>19}{'ratio':>8}  against")
    for name, rate in v["median"].items():
        spec, policy = name.split("/")
        ratio = v["ratio"].get(name)
        against = "" if ratio is None else ("base" if spec == "auction-pitch" else "auction-pitch")
        cell = "" if ratio is None else f"{ratio:.3f}"
        print(f"{spec:<16}{policy:<20}{rate:>19,.0f}{cell:>8}  {against}")
    comp = ", ".join(f"{k} {s:.1f}" for k, s in v["compile_cpu_s"].items() if s > 0.5)
    print(f"first calls (compile or cache load), CPU-s: {comp or 'all under 0.5 s'}")


def fingerprint(deals: int) -> dict:
    """A hash per preset and policy of what the family kernels play (see the docstring)."""
    import hashlib

    import numpy as np

    from pitchsim.game.rules import Rules
    from pitchsim.kernels.play import MAX_TRICKS
    from pitchsim.kernels.presets import rules_array, rules_table
    from pitchsim.kernels.score import AWARD_NAMES, N_AWARDS
    from pitchsim.kernels.simulate import (
        play_logged,
        policy_row,
        simulate_fixed,
    )

    specs = [
        ("auction-pitch", 4),
        ("auction-pitch,follow=suit,low=dealt", 5),
        ("auction-pitch,partnership=true", 4),
        ("setback", 4),
        ("smear", 3),
        ("smear", 4),
        ("smear,jokers=2,lead-trump=true", 5),
        ("smear,deal=9,discard=non-trump,rob=true,follow=only", 4),
        ("ten-point", 4),
        ("ten-point,partnership=false", 5),
        ("ten-point,follow=suit,partnership=false,lead-trump=false", 3),
        ("jokers=2,trump=first-lead,jick=true", 4),
        ("jokers=1,game=ten,three=true", 6),
        ("six-point", 4),  # joker-game=half (after the others: their hashes stay as they were)
        ("cinch,discards=hidden", 4),  # five=pedro, rob=dealer (11)
        ("cinch,discards=hidden,set=to-others", 4),
        ("cinch", 4),
        ("five-point", 4),
        ("seven-point", 4),
        ("five-point,kitty=3", 4),  # 12.2: the kitty taken from the stock's last cards
        ("ten-point,partnership=false,partner=called", 5),
    ]
    out = {}
    for spec, n in specs:
        r = Rules.parse(spec)
        fr, tab = rules_array(r), rules_table(r)
        for policy in ("random", "heuristic"):
            pol = policy_row(policy, n)
            h = hashlib.sha256()
            arrs = [np.zeros(deals, np.int64) for _ in range(3)]
            for a in part_runner(spec, n, policy, deals)(5, deals).values():
                h.update(a.tobytes())
            hand = 0
            for c in range(r.cards_each(n)):  # a fixed hand: the first cards of the pack
                hand |= 1 << (c * 5)
            simulate_fixed(5, 0, deals, n, np.int64(hand), 2, pol, fr, tab, *arrs)
            for a in arrs:
                h.update(a.tobytes())
            d = min(deals, 2000)
            logs = [
                np.zeros((d, n), np.int64),
                np.zeros((d, 54), np.int64),
                np.zeros((d, n), np.int64),
                np.zeros((d, 4), np.int64),
                np.zeros((d, MAX_TRICKS * (n + 2)), np.int64),
                np.zeros((d, MAX_TRICKS * n), np.int64),
                np.zeros((d, 54), np.int64),
                np.zeros((d, N_AWARDS), np.int64),
                np.zeros((d, n), np.int64),
            ]
            play_logged(7, 0, d, n, n - 1, 1 % n, np.int64(0), -1, pol, fr, tab, *logs)
            # The deck past the dealt cards is never drawn without a draw step: scratch.
            drawn = int(logs[3][0, 2]) if r.discard == "non-trump" else n * r.cards_each(n)
            logs[1] = logs[1][:, :drawn].copy()
            if r.five != "pedro":  # the awards before the left pedro's (12.6) was added
                logs[7] = logs[7][:, : AWARD_NAMES.index("left-pedro")].copy()
            for a in logs:
                h.update(a.tobytes())
            out[f"{spec}/{n}p/{policy}"] = h.hexdigest()[:16]
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--deals", type=int, default=400_000, help="deals per timed run")
    ap.add_argument("--repeat", type=int, default=3, help="timed runs; the best counts")
    ap.add_argument("--old", type=Path, help="checkout of the tree before (base game old vs new)")
    ap.add_argument("--rounds", type=int, default=3, help="old/new alternations")
    ap.add_argument("--skip-compile", action="store_true")
    ap.add_argument("--json", action="store_true")
    ap.add_argument(
        "--versus-base",
        action="store_true",
        help="only base vs family kernels, alternated in one process (--rounds, --deals)",
    )
    ap.add_argument(
        "--kernel",
        choices=("simulate", "bid-odds"),
        default="simulate",
        help="with --versus-base: the hand kernels, or the ones bid-odds runs",
    )
    ap.add_argument(
        "--presets",
        default="",
        help="with --versus-base: only these presets (comma-separated; auction-pitch first)",
    )
    ap.add_argument("--seed-offset", type=int, default=0, help=argparse.SUPPRESS)
    ap.add_argument("--old-cache", default="", help="with --old: the old tree's NUMBA_CACHE_DIR")
    ap.add_argument(
        "--fingerprint", action="store_true", help="only the hashes of what the kernels play"
    )
    a = ap.parse_args()
    if a.fingerprint:
        print(json.dumps(fingerprint(20_000), indent=1))
        return
    load_before = os.getloadavg()
    result: dict = {}
    presets = tuple(p for p in a.presets.split(",") if p)
    if a.versus_base and a.old:
        t = versus_trees(a.old, a.rounds, a.deals, a.kernel, presets, a.old_cache)
        load_after = os.getloadavg()
        print(f"load average before {load_before[0]:.2f}, after {load_after[0]:.2f}")
        print_trees(t, a.rounds, a.deals)
        return
    if a.versus_base:
        v = versus_base(a.rounds, a.deals, a.kernel, a.seed_offset, presets)
        load_after = os.getloadavg()
        if a.json:
            print(json.dumps(dict(v, load_before=load_before, load_after=load_after), indent=2))
            return
        print(f"load average before {load_before[0]:.2f}, after {load_after[0]:.2f}")
        print_versus(v, a.rounds, a.deals)
        return
    if not a.skip_compile:
        result["compile"] = compile_time()
    result["families"] = [
        family_rates(spec, n, policy, a.deals, a.repeat)
        for spec, n in FAMILIES
        for policy in ("random", "heuristic")
    ]
    result["strength"] = [strength(spec, n, a.deals) for spec, n in FAMILIES]
    if a.old:
        result["base_game"] = base_old_vs_new(a.old, a.rounds, a.deals * 5, a.repeat)
    result["load_before"] = load_before
    result["load_after"] = os.getloadavg()
    if a.json:
        print(json.dumps(result, indent=2))
        return
    print(f"load average before {load_before[0]:.2f}, after {result['load_after'][0]:.2f}")
    if "compile" in result:
        c = result["compile"]
        print(
            f"compile (empty cache, first call): {c['compile_first_call_wall_s']:.1f} s wall, "
            f"{c['process_cpu_s']:.1f} CPU-s in the process (import {c['import_s']:.1f} s)"
        )
    print(
        f"\n{'rules':<16}{'n':>2} {'policy':<10}{'deals/CPU-s':>12}{'deals/s':>11}  mean  P(make k)"
    )
    for row in result["families"]:
        pm = " ".join(f"{p:.3f}" for p in row["p_make"])
        print(
            f"{row['rules']:<16}{row['players']:>2} {row['policy']:<10}"
            f"{row['per_cpu_second']:>12,.0f}{row['per_wall_second']:>11,.0f}"
            f"  {row['mean_points']:.2f}  {pm}"
        )
    print(
        "\nthe pitcher side's mean points, same deals (pitcher side / defenders: R random, H heuristic)"
    )
    for row in result["strength"]:
        cells = "  ".join(f"{k} {row[k]:.3f}" for k in ("RR", "HR", "RH", "HH"))
        print(f"  {row['rules']:<16}{row['players']:>2}  {cells}")
    if "base_game" in result:
        b = result["base_game"]
        print("\nbase game, 4 players, one thread, best deals per CPU-second (alternating trees):")
        for policy in ("random", "heuristic"):
            old, new = b["old"][policy], b["new"][policy]
            print(f"  {policy:<10} old {old:>12,.0f}  new {new:>12,.0f}  new/old {new / old:.3f}")


if __name__ == "__main__":
    main()
