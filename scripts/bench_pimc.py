"""pimc decision time: every legal card valued double-dummy in W sampled worlds.

    .venv/bin/python scripts/bench_pimc.py                      # 4 and 7 players, W = 100
    .venv/bin/python scripts/bench_pimc.py --players 7 --worlds 100 --positions 10 --cut 0

Positions: random deals (seed fixed), seat 0 pitching, played by random legal cards to a
random card of the first trick (``--cut K``: after K cards; 0 is the pitcher's opening
lead).  Each decision is ``hint`` with ``pimc`` (the preset path's worlds and solver,
``preset_world_values``, in blocks of 25 worlds).  Prints the median, 95th
percentile and largest CPU time per decision (process time: other processes on a
shared machine distort it less than wall time) and decisions per CPU-second; compile
(the first call) is excluded.

``--kernel`` times pimc's options (issue 33, ``kernels/search/monte_carlo.py``) against
the exact valuing, alternated position by position in one process (the order of the
modes rotated each position), on the kernels pimc plays with (``worlds.sample_worlds``,
``monte_carlo.value_cards``): hands as ``pitchsim play`` plays them with their bids
(``bench_hint_clock.positions``), cut at the pitcher's opening lead, in the first trick
(after 1 to n - 1 cards) and mid-hand (tricks 2-5).  Per mode: decisions per CPU-second, median and worst CPU s a
decision, solver nodes in all (machine-independent), worlds solved, and how often the
card chosen (``choose_by_outcomes``, ties to the lowest card) is the exact mode's.

    .venv/bin/python scripts/bench_pimc.py --kernel --players 5,6,7 --positions 6 \
        --modes exact,target,w18,target+w18 --nodes 20000000
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

import numpy as np

from pitchsim.game.cards import cards_of
from pitchsim.game.reference import shows_void
from pitchsim.game.rules import R_PARTNERSHIP, Rules
from pitchsim.games.policies import seat_planes
from pitchsim.kernels.search.monte_carlo import (
    ATTEMPTS_PER_WORLD,
    DOUBLE_DUMMY,
    TARGET_QUERY,
    WORLD_NODES_SHIFT,
    choose_by_outcomes,
    decision_stream,
    value_cards,
)
from pitchsim.kernels.search.worlds import sample_worlds, view_constraint
from pitchsim.search.hint import hint
from pitchsim.search.position import start_position

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_hint_clock import positions as played_positions  # noqa: E402

MODES = {"exact": 0, "target": TARGET_QUERY}


def mode_bits(name: str) -> int:
    """``target+w20``: the options' bits (``wK``: 2**K nodes a world)."""
    bits = 0
    for part in name.split("+"):
        if part.startswith("w") and part[1:].isdigit():
            bits |= int(part[1:]) << WORLD_NODES_SHIFT
        else:
            bits |= MODES[part]
    return bits


def positions(n: int, count: int, seed: int, cut: int | None) -> list:
    rng = random.Random(f"{seed}-{n}")
    out = []
    for _ in range(count):
        deck = list(range(52))
        rng.shuffle(deck)
        dealt = [sum(1 << c for c in deck[6 * s : 6 * s + 6]) for s in range(n)]
        pos = start_position(dealt, 0, Rules())
        for _ in range(rng.randrange(0, n) if cut is None else cut):
            pos = pos.play(rng.choice(cards_of(pos.legal())))
        out.append(pos)
    return out


def sample_view_worlds(
    stream, hand, seat, n, trick_no, trick, trick_len, leader, played, who, voids, worlds, played_by
):
    """The worlds ``card_outcomes`` values, drawn as it draws them (stream ``stream``, up
    to ``worlds.shape[0]``): fills ``worlds[:kept]`` and ``played_by`` (the cards each
    seat has played); returns (kept, attempts).  The kernels' own steps, from Python."""
    counts = np.empty(n, dtype=np.int64)
    allowed = np.empty(n, dtype=np.int64)
    unseen = view_constraint(
        n, seat, hand, trick_no, trick_len, leader, played, trick, who, voids, counts,
        allowed, played_by,
    )  # fmt: skip
    return sample_worlds(
        stream, n, seat, hand, unseen, counts, allowed, worlds,
        ATTEMPTS_PER_WORLD * worlds.shape[0],
    )  # fmt: skip


def value_worlds(
    evaluator, worlds, played_by, n, pitcher, bid, trump, trick_no, trick, trick_len, leader,
    played, won, rules, cards, out, nodes=0, opts=0,
):  # fmt: skip
    """``out[j, w]``: ``cards[j]`` valued in every world of ``worlds`` by ``evaluator``, as
    ``card_outcomes`` values them (``monte_carlo.value_cards``, called from Python);
    returns (worlds done, solver nodes searched): a budget of ``nodes`` (0: none) stops
    at the first world it does not finish."""
    return value_cards(
        evaluator, worlds, worlds.shape[0], played_by, n, pitcher, bid, trump, trick_no, trick,
        trick_len, leader, played, won, rules, cards, out, nodes, opts,
    )  # fmt: skip


def _view_arrays(pos):
    """The kernel view of the player to move, from ``Position.view()`` alone."""
    v = pos.view()
    n = v.players
    complete = [t for t in v.tricks if t.winner is not None]
    current = v.tricks[-1] if v.tricks and v.tricks[-1].winner is None else None
    trick = list(current.cards) if current else []
    if current:
        leader = current.leader
    else:
        leader = complete[-1].winner if complete else v.pitcher
    played = 0
    for t in complete:
        for c in t.cards:
            played |= 1 << c
    voids = 0
    trump = v.trump
    for t in v.tricks:
        led = t.cards[0] // 13
        for i, c in enumerate(t.cards[1:], 1):
            if shows_void(c, led, trump, v.rules):
                voids |= 1 << (4 * ((t.leader + i) % n) + led)
    trick_arr = np.zeros(8, dtype=np.int64)
    trick_arr[: len(trick)] = trick
    won = np.zeros(8, dtype=np.int64)
    won[:n] = v.won
    return v, len(complete), trick_arr, len(trick), leader, played, won, voids


def kernel_decision(pos, worlds_wanted: int, nodes: int, opts: int, seed: int):
    """(card chosen, worlds solved, solver nodes, CPU s) of one pimc decision."""
    view, trick_no, trick, trick_len, leader, played, won, voids = _view_arrays(pos)
    n = view.players
    rules = view.rules.to_array()
    who = seat_planes(view.played_by)
    worlds = np.empty((worlds_wanted, n), dtype=np.int64)
    played_by = np.empty(n, dtype=np.int64)
    cards = np.array(cards_of(view.legal), dtype=np.int64)
    out = np.empty((cards.size, worlds_wanted), dtype=np.int64)
    bid = view.bid or 0
    t = time.process_time()
    kept, _ = sample_view_worlds(
        np.uint64(decision_stream(np.uint64(seed), 1)), view.hand, view.seat, n, trick_no, trick,
        trick_len, leader, played, who, voids, worlds, played_by,
    )  # fmt: skip
    done, searched = value_worlds(
        DOUBLE_DUMMY, worlds[:kept], played_by, n, view.pitcher, bid, view.trump, trick_no,
        trick, trick_len, leader, played, won, rules, cards, out, nodes, opts,
    )  # fmt: skip
    if rules[R_PARTNERSHIP]:
        ours = (view.seat ^ view.pitcher) & 1 == 0
    else:
        ours = view.seat == view.pitcher
    card = choose_by_outcomes(cards, out, done, ours, bid, cards[0]) if done else -1
    return int(card), int(done), int(searched), time.process_time() - t


def kernel_bench(args) -> None:
    modes = args.modes.split(",")
    bits = [mode_bits(m) for m in modes]
    warm = played_positions(4, 1, 1)[1][0]
    t = time.process_time()
    for b in set(bits):
        kernel_decision(warm, 2, 0, b, 1)
    print(f"compile (or load from cache): {time.process_time() - t:.1f} CPU s")
    print(
        f"load average before: {os.getloadavg()[0]:.2f}; {args.worlds} worlds a decision, "
        f"a budget of {args.nodes:,} nodes a decision (0: none); modes alternated"
    )
    print(
        "players cut          mode                decisions  per CPU-s  median s   worst s"
        "        nodes  worlds  same card"
    )
    for n in (int(x) for x in args.players.split(",")):
        opening, first_trick = played_positions(n, args.positions, args.seed + 100, True)
        _, middle = played_positions(n, args.positions, args.seed + 100, False)
        for name, poses in (
            ("opening", opening),
            ("first trick", first_trick),
            ("mid-hand", middle),
        ):
            rows = {m: [] for m in modes}
            for i, pos in enumerate(poses):
                order = modes[i % len(modes) :] + modes[: i % len(modes)]
                for m in order:
                    rows[m].append(
                        kernel_decision(pos, args.worlds, args.nodes, mode_bits(m), i + 1)
                    )
            exact = rows[modes[0]]
            for m in modes:
                r = rows[m]
                cpu = np.array([x[3] for x in r])
                same = sum(a[0] == b[0] for a, b in zip(r, exact, strict=True))
                print(
                    f"{n:7d} {name:12s} {m:20s}"
                    f"{len(r):9d} {len(r) / cpu.sum():10.3f} {np.median(cpu):9.3f} "
                    f"{cpu.max():9.3f} {sum(x[2] for x in r):12,d} {sum(x[1] for x in r):7d}"
                    f"  {same} of {len(r)}",
                    flush=True,
                )
    print(f"load average after: {os.getloadavg()[0]:.2f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--players", default="4,7")
    ap.add_argument("--worlds", type=int, default=100)
    ap.add_argument("--positions", type=int, default=10, help="decisions per player count")
    ap.add_argument("--cut", type=int, default=None, help="cards played before (default random)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--kernel", action="store_true", help="pimc's options, alternated")
    ap.add_argument(
        "--modes",
        default="exact,target,w18,target+w18",
        help="with --kernel: the first is the reference; target, wK (2**K nodes a world) "
        "joined by +",
    )
    ap.add_argument("--nodes", type=int, default=0, help="with --kernel: a decision's budget")
    args = ap.parse_args()
    if args.kernel:
        kernel_bench(args)
        return
    t0 = time.perf_counter()
    hint(positions(2, 1, 0, 1)[0], "pimc", 2, seed=1)
    print(f"compile (or load from cache): {time.perf_counter() - t0:.1f} s")
    print(f"load average before: {os.getloadavg()[0]:.2f}; {args.worlds} worlds a decision")
    print("players  decisions  median s    p95 s    max s  decisions per CPU-s")
    for n in (int(x) for x in args.players.split(",")):
        times = []
        for pos in positions(n, args.positions, args.seed, args.cut):
            t = time.process_time()
            hint(pos, "pimc", args.worlds, seed=1)
            times.append(time.process_time() - t)
        s = np.array(times)
        print(f"{n:7d} {len(s):10d} {np.median(s):9.3f} {np.percentile(s, 95):8.3f} "
              f"{s.max():8.3f} {len(s) / s.sum():20.2f}", flush=True)  # fmt: skip
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
