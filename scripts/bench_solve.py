"""Double-dummy solve time for whole deals from the opening lead, 2-7 players.

    python scripts/bench_solve.py                    # 2-7 players, base rules
    python scripts/bench_solve.py --players 4 --deals 2000 --rules follow=suit
    python scripts/bench_solve.py --players 7 --deals 20 --limit 60
    python scripts/bench_solve.py --players 5-7 --save slow.npz --keep 10   # keep the slowest
    python scripts/bench_solve.py --load slow.npz      # re-run exactly those deals

Each deal is dealt at random (seed fixed), seat 0 pitches, and the solver finds the
value with every lead tried (trump = the led card's suit) on one core, one deal at a
time, reusing one transposition table.  Prints the median, 95th percentile and largest
time per deal (CPU time of this thread, so other processes on a shared machine distort
it less than wall time), and the search nodes per deal (the same on any machine);
compile time (the first call) is reported apart.  ``--limit`` stops a player count
after that many seconds (the deals solved so far are reported).

``--cards`` times ``card_values`` instead (every legal card valued, as the pimc play
policy does in each sampled world) on positions cut at a random card of the first
three tricks, reached by random legal play (seeded: the same positions every run);
``--cut 0`` asks it at the opening lead instead (every lead's exact value: pimc's
first decision, its dearest).

``--save FILE`` writes the ``--keep`` slowest deals of each player count (with their
values) to an .npz; ``--load FILE`` solves those deals again, one line each, and checks
the values are unchanged: before/after timings of a solver change on the same deals.

``--alternate`` solves each deal twice in one run, without rank relevance and with it
(``solver.T_NO_RELEVANCE``), the order swapped every deal, one row each (the values
must agree): the two searches under the same load.  ``--alternate partition`` does the
same without and with partition search (``solver.T_NO_PARTITION``), relevance on;
``--alternate dominance`` without and with count dominance (``solver.T_NO_DOMINANCE``);
``--alternate twochoice`` without and with a second bucket hashed with the Game counts
under dominance (``solver.T_NO_TWO_CHOICE``); ``--alternate suits`` without and with
suit relevance's merge of a void seat's discards (``solver.T_NO_RELEVANCE`` 2).
``--alternate preset`` solves each deal by the base game's entry point
(``solve_position``, its options array) and by the presets' (``solve_preset``, the
auction-pitch preset's options and tables), off and on: the base game as a preset.  On
a fresh table the two search the same nodes deal for deal
(tests/test_base_position_as_preset.py); here they share one table, whose earlier
entries steer a search a little, so their node counts differ a little both ways.
``--load`` alone also prints each deal's nodes in searches that answered yes (the
pitcher's side makes the target) and no; the rest went to searches the lead race gave up.
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

from pitchsim.game.rules import Rules
from pitchsim.kernels.search import solver


def random_deals(rng: np.random.Generator, n: int, count: int) -> np.ndarray:
    deals = np.zeros((count, n), dtype=np.int64)
    for d in range(count):
        deck = rng.permutation(52)
        for s in range(n):
            for c in deck[6 * s : 6 * s + 6]:
                deals[d, s] |= np.int64(1) << np.int64(c)
    return deals


# the technique ``--alternate`` switches off and on: its table flag (row 0's column, and
# the value that switches it off)
SWITCHES = {
    "relevance": (solver.T_NO_RELEVANCE, 1),
    "partition": (solver.T_NO_PARTITION, 1),
    "dominance": (solver.T_NO_DOMINANCE, 1),
    "twochoice": (solver.T_NO_TWO_CHOICE, 1),
    "suits": (solver.T_NO_RELEVANCE, 2),  # off: rank relevance without the suit merge
    "preset": (None, 0),  # off: solve_position (the base options), on: solve_preset
}
PRESET: tuple = ()  # the rules' preset options and tables (main sets them), for "preset"


def timed_solve(
    deal: np.ndarray, arr: np.ndarray, table: np.ndarray, on: bool = True, switch="relevance"
) -> tuple[int, float, int]:
    """(value, CPU ms, nodes) of one whole deal, seat 0 pitching; ``on`` False: without
    the technique ``switch`` (every other one on)."""
    for flag, _ in SWITCHES.values():
        if flag is not None:  # (table[0, None] is the whole header row: its index mask too)
            table[0, flag] = 0
    flag, off = SWITCHES[switch]
    if flag is not None:
        table[0, flag] = 0 if on else off
    preset = switch == "preset" and on
    n = deal.size
    won = np.zeros(n, dtype=np.int64)
    trick = np.zeros(8, dtype=np.int64)
    nodes = table[0, 2]
    t = time.thread_time()
    if preset:
        v = solver.solve_preset(deal, won, deal, n, 0, trick, 0, -1, 0, *PRESET, table, -1)
    else:
        v = solver.solve_position(deal, won, deal, n, 0, trick, 0, -1, 0, arr, table)
    return v, (time.thread_time() - t) * 1e3, int(table[0, 2] - nodes)


def cut_positions(rng: np.random.Generator, n: int, count: int, rules: Rules, cut=None) -> list:
    """Random deals played at random to a random card of tricks 1-3, or to ``cut``
    cards (0: the opening lead, which pimc's first decision asks); seat 0 pitches."""
    import random

    from pitchsim.game.cards import cards_of
    from pitchsim.search.position import start_position

    out = []
    for d in random_deals(rng, n, count):
        pos = start_position([int(h) for h in d], 0, rules)
        r = random.Random(int(rng.integers(1 << 62)))
        for _ in range(r.randrange(1, 3 * n) if cut is None else cut):
            pos = pos.play(r.choice(cards_of(pos.legal())))
        out.append(pos)
    return out


def timed_card_values(pos, table: np.ndarray) -> tuple[int, float, int]:
    """(value, CPU ms, nodes) of ``card_values`` on one position."""
    from pitchsim.search.double_dummy import kernel_args

    values = np.empty(52, dtype=np.int64)
    args = kernel_args(pos)
    nodes = table[0, 2]
    t = time.thread_time()
    v = solver.card_values(*args, table, values)
    return v, (time.thread_time() - t) * 1e3, int(table[0, 2] - nodes)


def alternated(deal, arr, table, d, switch="relevance"):
    """Deal ``d`` without and with the technique ``switch``, the order swapped every
    deal: {on: (value, CPU ms, nodes)}."""
    out = {}
    for on in (d % 2 == 1, d % 2 == 0):
        out[on] = timed_solve(deal, arr, table, on, switch)
    return out


def rerun(path: str, arr: np.ndarray, table_for, alternate) -> None:
    saved = np.load(path)
    runs = (False, True) if alternate else (True,)
    total_ms = dict.fromkeys(runs, 0.0)
    total_nodes = dict.fromkeys(runs, 0)
    changed = 0
    print(
        f"players  deal {alternate or 'relevance':>9}   value      ms       nodes"
        + ("" if alternate else "    yes nodes     no nodes")
    )
    for name in sorted(k for k in saved.files if k.startswith("deals")):
        deals = saved[name]
        values = saved["values" + name[5:]]
        for d in range(len(deals)):
            table = table_for(deals.shape[1])
            split = table[0, solver.T_YES_NODES], table[0, solver.T_NO_NODES]
            got = (
                alternated(deals[d], arr, table, d, alternate)
                if alternate
                else {True: timed_solve(deals[d], arr, table)}
            )
            for relevance in runs:
                v, ms, nodes = got[relevance]
                total_ms[relevance] += ms
                total_nodes[relevance] += nodes
                flag = "" if v == values[d] else f"  VALUE CHANGED (was {values[d]})"
                changed += v != values[d]
                # (one run: nodes of searches answering yes, no; the rest a race gave up)
                yes_no = (
                    ""
                    if alternate
                    else f" {table[0, solver.T_YES_NODES] - split[0]:12d}"
                    f" {table[0, solver.T_NO_NODES] - split[1]:12d}"
                )
                print(
                    f"{deals.shape[1]:7d} {d:5d} {'on' if relevance else 'off':>9} {v:7d} "
                    f"{ms:9.1f} {nodes:11d}{yes_no}{flag}",
                    flush=True,
                )
    for relevance in runs:
        print(
            f"total, {alternate or 'relevance'} {'on' if relevance else 'off'}: "
            f"{total_ms[relevance] / 1e3:.2f} CPU s, {total_nodes[relevance]} nodes"
        )
    print(f"values changed: {changed}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--players", default="2-7", help="e.g. 4 or 2-7 or 3,5")
    ap.add_argument("--deals", type=int, default=None, help="deals per player count")
    ap.add_argument("--rules", default=None, help="rule variants, as for --rules")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--limit", type=float, default=60.0, help="seconds per player count")
    ap.add_argument("--save", default=None, help="write the slowest deals to this .npz")
    ap.add_argument("--keep", type=int, default=10, help="deals per player count for --save")
    ap.add_argument("--load", default=None, help="re-solve the deals of a --save file")
    ap.add_argument(
        "--alternate",
        nargs="?",
        const="relevance",
        default=None,
        choices=sorted(SWITCHES),
        help="each deal without and with rank relevance (or partition search), "
        "alternated (whole deals)",
    )
    ap.add_argument(
        "--cards",
        action="store_true",
        help="card_values on positions cut in tricks 1-3 (what pimc asks)",
    )
    ap.add_argument(
        "--cut",
        type=int,
        default=None,
        help="with --cards: positions after this many cards (0: the opening lead)",
    )
    ap.add_argument(
        "--table-bits",
        type=int,
        default=None,
        help="transposition table of 2**bits entries (default: as pitchsim solve, "
        "solver.table_bits: 2**16 to 4 players, 2**20 from 5)",
    )
    args = ap.parse_args()
    if "-" in args.players:
        lo, hi = (int(x) for x in args.players.split("-"))
        counts = list(range(lo, hi + 1))
    else:
        counts = [int(x) for x in args.players.split(",")]
    rules = Rules.parse(args.rules)
    if not rules.base_game:  # solve_position plays auction-pitch's tables
        raise SystemExit(f"{args.rules}: the base game's entry points time its rules alone")
    from pitchsim.kernels.presets import rules_array, rules_table

    arr = rules_array(rules)  # the base game's options (solve_position's ``fr``)
    if args.alternate == "preset":
        global PRESET
        PRESET = (rules_array(rules), rules_table(rules))
    tables: dict[int, np.ndarray] = {}

    def table_for(n: int) -> np.ndarray:
        """One table per size, made once (``--table-bits`` or as ``pitchsim solve``)."""
        bits = args.table_bits or solver.table_bits(n)
        if bits not in tables:
            tables[bits] = solver.new_table(bits)
        return tables[bits]

    table = table_for(2)
    t0 = time.perf_counter()
    timed_solve(random_deals(np.random.default_rng(0), 2, 1)[0], arr, table)
    if args.alternate == "preset":  # both entry points compiled before any timing
        timed_solve(random_deals(np.random.default_rng(0), 2, 1)[0], arr, table, True, "preset")
    if args.cards:
        timed_card_values(cut_positions(np.random.default_rng(0), 2, 1, rules)[0], table)
    print(f"compile (or load from cache): {time.perf_counter() - t0:.1f} s")
    sizes = f"2**{args.table_bits}" if args.table_bits else "2**16 to 4 players, 2**20 from 5"
    print(f"rules: {rules.describe()}; table: {sizes} entries")
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    if args.load:
        rerun(args.load, arr, table_for, args.alternate)
        print(f"load average after: {os.getloadavg()[0]:.2f}")
        return
    slow = {}
    runs = (False, True) if args.alternate and not args.cards else (True,)
    print(
        f"players  deals {args.alternate or 'relevance':>9}  median ms   p95 ms    max ms  mean value  median nodes"
        "   p95 nodes   max nodes  nodes in all  CPU s in all"
    )
    for n in counts:
        if rules.partnership and n != 4:
            continue
        count = args.deals or {2: 2000, 3: 2000, 4: 1000, 5: 300, 6: 60, 7: 20}[n]
        rng = np.random.default_rng([args.seed, n])
        if args.cards:
            deals = cut_positions(rng, n, count, rules, args.cut)
        else:
            deals = random_deals(rng, n, count)
        table = table_for(n)
        times = {r: [] for r in runs}
        values = {r: [] for r in runs}
        nodes = {r: [] for r in runs}
        start = time.perf_counter()
        for d in range(count):
            if args.cards:
                got = {True: timed_card_values(deals[d], table)}
            elif len(runs) == 2:
                got = alternated(deals[d], arr, table, d, args.alternate)
                if got[False][0] != got[True][0]:
                    raise SystemExit(f"deal {d}: {args.alternate} changed the value: {got}")
            else:
                got = {True: timed_solve(deals[d], arr, table)}
            for r in runs:
                v, ms, k = got[r]
                times[r].append(ms)
                values[r].append(v)
                nodes[r].append(k)
            if time.perf_counter() - start > args.limit:
                break
        for r in runs:
            ms = np.array(times[r])
            cut = "" if len(ms) == count else f"  (stopped after {args.limit:.0f} s)"
            print(
                f"{n:7d} {len(ms):6d} {'on' if r else 'off':>9} {np.median(ms):10.3f} "
                f"{np.percentile(ms, 95):8.2f} {ms.max():9.1f} {np.mean(values[r]):11.2f} "
                f"{np.median(nodes[r]):13.0f} {np.percentile(nodes[r], 95):11.0f} "
                f"{max(nodes[r]):11d} {sum(nodes[r]):13d} {ms.sum() / 1e3:13.2f}{cut}",
                flush=True,
            )
        ms = np.array(times[True])
        values = values[True]
        worst = np.argsort(ms)[::-1][: args.keep]
        if args.cards:
            continue  # (--save keeps whole deals only)
        slow[f"deals{n}"] = deals[worst]
        slow[f"values{n}"] = np.array(values)[worst]
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    if args.save:
        np.savez(args.save, **slow)
        print(f"the {args.keep} slowest deals per player count: {args.save}")


if __name__ == "__main__":
    main()
