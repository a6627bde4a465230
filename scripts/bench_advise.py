#!/usr/bin/env python3
"""The advisor's speed and strength.

    .venv/bin/python scripts/bench_advise.py speed [--samples N] [--threads T]
    .venv/bin/python scripts/bench_advise.py rare [--repeat 3] [--threads T]
    .venv/bin/python scripts/bench_advise.py tables [--histories 10] [--players 2-7] [--time 5]
    .venv/bin/python scripts/bench_advise.py tournament [--boards 500] [--against odds,heuristic]
        [--players 3-7] [--rules base,low=dealt,...]

``speed``: the first call (compile or cache load) apart, then warm ``advise`` on typical
auctions (median of 3): wall time, deals tried and kept (acceptance rate), and deals
simulated per second (kept deals x calls, each played to the end of the game).

``rare``: the auctions above whose calls the model seldom makes (under 0.3% of deals
fit): warm ``advise`` at its defaults, and the rejection alone (``keep_deals``: deals
tried per second), median of ``--repeat`` runs, wall and CPU.  It calls only what the
tree at 4ff906c has too, so ``PYTHONPATH=OLD_TREE`` times the old rejection (alternate
the two trees in one session for a fair comparison).

``tables``: warm ``advise`` at its defaults, and on a clock of ``--time`` seconds, at
each table size: ``--histories`` questions per size, each a random hand at a random seat
after the calls the model itself made on a random deal (typical auctions); median and
worst wall time, CPU, deals used and how the clocked runs stopped.

``tournament``: duplicate tournaments ``advisor`` against each opponent, solo at each
player count and under each rule variant (4 players), and in partnership; win rate
with its 95% interval over boards, the fair share, games per second.  The advisor bids
at its defaults (``kernels.advisor.advisor_bid``: 32 deals a call, the odds
model, the win-first ranking), as in every tournament.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

from pitchsim.advice.advise import advise
from pitchsim.game.rules import Rules
from pitchsim.table.tournament import tournament

# (label, hand, players, seat, dealer, calls, scores)
AUCTIONS = [
    ("first to call, 4p", "AH KH 2H 9C 7D 3S", 4, 0, 3, "", None),
    ("third, after 2 and pass", "AH KH 2H 9C 7D 3S", 4, 2, 3, "2,pass", None),
    ("dealer after three passes", "QS 9S 4S KD 8C 3H", 4, 3, 3, "pass,pass,pass", None),
    ("dealer after 3, pass, pass", "AS JS 2S 3C 5D 7H", 4, 3, 3, "3,pass,pass", None),
    ("they are at 6 of 7 and bid 2", "KH QH 5H 9C 7D 3S", 4, 3, 3, "pass,2,pass", "0,6,0,0"),
    ("7 players, 5th to call", "AD TD 4D KC 6S 2H", 7, 4, 6, "pass,2,pass,3", None),
    ("partnership, opponent bid 2", "KS 8S 3S AH 9D 5C", 4, 3, 3, "pass,pass,2", None),
]


def speed(args) -> None:
    t0 = time.perf_counter()
    advise("AH KH 2H 9C 7D 3S", players=4, seat=0, dealer=3, samples=50, seed=1)
    print(f"first call (compile or cache load): {time.perf_counter() - t0:.1f} s")
    print(f"load average: {os.getloadavg()[0]:.2f}")
    print(
        f"{'auction':<30}{'wall s':>8}{'cpu s':>7}{'tried':>11}{'kept':>7}{'accept':>8}"
        f"{'calls':>6}{'deals/s':>9}  recommended"
    )
    for label, hand, n, seat, dealer, calls, scores in AUCTIONS:
        rules = Rules(partnership=label.startswith("partnership"))
        times, cpu = [], []
        for _ in range(3):
            t, c = time.perf_counter(), time.process_time()
            r = advise(
                hand,
                players=n,
                seat=seat,
                dealer=dealer,
                calls=calls,
                scores=scores,
                rules=rules,
                samples=args.samples,
                seed=7,
                threads=args.threads,
            )
            times.append(time.perf_counter() - t)
            cpu.append(time.process_time() - c)
        wall = statistics.median(times)
        simulated = r.samples * len(r.legal_calls)  # deals played to the end of the game
        print(
            f"{label:<30}{wall:>8.2f}{statistics.median(cpu):>7.2f}{r.tried:>11,}"
            f"{r.samples:>7,}{100 * r.acceptance_rate:>7.2f}%{len(r.legal_calls):>6}"
            f"{simulated / wall:>9,.0f}  {r.by_call[r.recommended_call].label}"
        )


RARE = 0.003  # acceptance under this: a rare history


def rare(args) -> None:

    import pitchsim.advice.advise as adv

    t0 = time.perf_counter()
    advise("AH KH 2H 9C 7D 3S", players=4, seat=0, dealer=3, samples=50, seed=1)
    print(f"tree {os.path.dirname(os.path.dirname(adv.__file__))}")
    print(f"first call (compile or cache load): {time.perf_counter() - t0:.1f} s")
    print(f"load average at start: {os.getloadavg()[0]:.2f}")
    print(
        f"{'auction':<30}{'accept':>8}{'advise wall':>12}{'cpu':>7}"
        f"{'reject wall':>12}{'cpu':>7}{'tries/s':>12}{'kept':>7}"
    )
    for label, hand, n, seat, dealer, calls, scores in AUCTIONS:
        rules = Rules(partnership=label.startswith("partnership"))
        kwargs = dict(players=n, seat=seat, dealer=dealer, calls=calls, scores=scores)
        r = advise(hand, rules=rules, samples=200, seed=7, threads=args.threads, **kwargs)
        if r.acceptance_rate >= RARE:
            continue
        wall, cpu, rwall, rcpu = [], [], [], []
        # The rejection alone, as advise runs it (keep_deals and its kernels' acceptance).
        accept = acceptance(hand, rules, n, seat, dealer, calls, scores, seed=7)
        for _ in range(args.repeat):
            t, c = time.perf_counter(), time.process_time()
            r = advise(hand, rules=rules, seed=7, threads=args.threads, **kwargs)
            wall.append(time.perf_counter() - t)
            cpu.append(time.process_time() - c)
            t, c = time.perf_counter(), time.process_time()
            with adv.use_threads(args.threads):
                deals, tried = adv.keep_deals(7, adv.DEFAULT_SAMPLES, adv.MAX_TRIES, accept)
            rwall.append(time.perf_counter() - t)
            rcpu.append(time.process_time() - c)
        med = statistics.median
        print(
            f"{label:<30}{100 * r.acceptance_rate:>7.2f}%{med(wall):>12.2f}{med(cpu):>7.2f}"
            f"{med(rwall):>12.2f}{med(rcpu):>7.2f}{tried / med(rwall):>12,.0f}{deals.size:>7,}"
        )
    print(f"load average at end: {os.getloadavg()[0]:.2f}")


def acceptance(hand, rules, n, seat, dealer, calls, scores, seed):
    """advise's acceptance of deals for this question (``PresetKernels.accept``)."""
    import numpy as np

    import pitchsim.advice.advise as adv
    from pitchsim.kernels.presets import rules_array, rules_table
    from pitchsim.table.advisor_clock import PresetKernels
    from pitchsim.table.bidding import Strategy
    from pitchsim.table.boards import odds_for, seat_ids

    seats = [Strategy.parse(adv.DEFAULT_MODEL)] * n
    bidders, players = seat_ids(seats)
    odds, defender = odds_for(seats, rules, n)
    cards = adv.preset_hand(hand, rules, n)
    k = PresetKernels(
        seed, n, seat, np.int64(adv.mask_of(cards)), dealer,
        np.array(adv.parse_calls(calls, rules), dtype=np.int64),
        np.array(adv.parse_scores(scores, n, rules), dtype=np.int64), bidders, players,
        rules_array(rules), rules_table(rules), odds, defender, np.zeros(1, dtype=np.int64), 0,
        rules.max_bid,
    )  # fmt: skip
    return k.accept


def table_histories(n: int, count: int, seed: int) -> list[tuple]:
    """``count`` questions at ``n`` players: (hand, seat, dealer, calls), the calls those
    the default model made before the seat on a random deal (the preset kernels'
    auction-pitch hand, ``table.boards.board_hand``)."""
    import random

    from pitchsim.advice.advise import DEFAULT_MODEL
    from pitchsim.game.cards import cards_of, format_cards
    from pitchsim.table.boards import board_hand

    rng = random.Random(seed * 100 + n)
    out = []
    deal = 1000 * n
    while len(out) < count:
        dealer, seat = rng.randrange(n), rng.randrange(n)
        h = board_hand(seed, deal, [DEFAULT_MODEL] * n, Rules(), dealer)
        deal += 1
        heard = h.calls[: (seat - dealer - 1) % n]
        if None in heard or "4" in heard:  # a 4 ended it before the seat
            continue
        hand = format_cards(cards_of(h.dealt[seat]), symbols=False)
        out.append((hand, seat, dealer, ",".join(heard)))
    return out


def tables(args) -> None:
    t0 = time.perf_counter()
    advise("AH KH 2H 9C 7D 3S", players=4, seat=0, dealer=3, samples=50, seed=1)
    advise("AH KH 2H 9C 7D 3S", players=4, seat=0, dealer=3, samples=50, seed=1, time=1.0)
    print(f"first calls (compile or cache load): {time.perf_counter() - t0:.1f} s")
    print(
        f"load average at start: {os.getloadavg()[0]:.2f}; {args.histories} histories per "
        f"table size; clock --time {args.time:g}"
    )
    print(
        f"{'players':>7}  {'defaults: wall median':>21}{'worst':>7}{'cpu med':>8}{'accept min':>11}"
        f"  {'clock: wall median':>18}{'worst':>7}{'deals med':>10}  stops"
    )
    med = statistics.median
    for n in parse_players(args.players):
        plain, clocked, cpu, deals, accept, stops = [], [], [], [], [], {}
        for hand, seat, dealer, calls in table_histories(n, args.histories, args.seed):
            kw = dict(players=n, seat=seat, dealer=dealer, calls=calls, seed=7)
            t, c = time.perf_counter(), time.process_time()
            r = advise(hand, threads=args.threads, **kw)
            plain.append(time.perf_counter() - t)
            cpu.append(time.process_time() - c)
            accept.append(r.acceptance_rate)
            t = time.perf_counter()
            r = advise(hand, threads=args.threads, time=args.time, **kw)
            clocked.append(time.perf_counter() - t)
            deals.append(r.samples)
            stops[r.stopped] = stops.get(r.stopped, 0) + 1
            if args.verbose:
                what = f"{hand} seat {seat} dealer {dealer} calls {calls or '-'}"
                print(
                    f"    {what}: {plain[-1]:.2f} s, clock {clocked[-1]:.2f} s, {r.samples} {r.stopped}"
                )
        print(
            f"{n:>7}  {med(plain):>21.2f}{max(plain):>7.2f}{med(cpu):>8.2f}"
            f"{100 * min(accept):>10.2f}%  {med(clocked):>18.2f}{max(clocked):>7.2f}"
            f"{med(deals):>10,.0f}  {', '.join(f'{k} {v}' for k, v in sorted(stops.items()))}",
            flush=True,
        )
    print(f"load average at end: {os.getloadavg()[0]:.2f}")


def parse_players(text: str) -> list[int]:
    if "-" in text:
        lo, hi = text.split("-")
        return list(range(int(lo), int(hi) + 1))
    return [int(x) for x in text.split(",")]


def run_tournament(strategies, players, rules, boards, seed) -> tuple:
    t = time.perf_counter()
    r = tournament(strategies, players=players, boards=boards, rules=rules, seed=seed)
    return r, time.perf_counter() - t


def tournaments(args) -> None:
    configs = []
    for n in parse_players(args.players):
        configs.append((f"{n}p base", n, Rules()))
    for spec in args.rules.split(";"):
        if spec and spec != "base":
            configs.append((f"4p {spec}", 4, Rules.parse(spec)))
    if args.partnership:
        configs.append(("4p partnership", 4, Rules(partnership=True)))
    print(f"advisor at its defaults; {args.boards} boards per line; load {os.getloadavg()[0]:.2f}")
    print(f"{'table':<34}{'against':<11}{'advisor wins':>13}  {'95%':<13}{'fair':>6}{'games/s':>9}")
    for label, n, rules in configs:
        for opp in args.against.split(","):
            r, wall = run_tournament(f"advisor,{opp}", n, rules, args.boards, args.seed)
            a = r.results[0]
            lo, hi = a.ci95
            verdict = "above" if lo > r.fair_share else ("below" if hi < r.fair_share else "inside")
            print(
                f"{label:<34}{opp:<11}{100 * a.win_rate:>12.1f}%  "
                f"{f'{100 * lo:.1f}-{100 * hi:.1f}%':<13}{100 * r.fair_share:>5.0f}%"
                f"{r.games / wall:>9.1f}  {verdict}",
                flush=True,
            )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="what", required=True)
    s = sub.add_parser("speed")
    s.add_argument("--samples", type=int, default=None)
    s.add_argument("--threads", type=int, default=None)
    q = sub.add_parser("rare")
    q.add_argument("--repeat", type=int, default=3)
    q.add_argument("--threads", type=int, default=None)
    b = sub.add_parser("tables")
    b.add_argument("--histories", type=int, default=10)
    b.add_argument("--players", default="2-7")
    b.add_argument("--time", type=float, default=5.0)
    b.add_argument("--seed", type=int, default=19)
    b.add_argument("--threads", type=int, default=None)
    b.add_argument("--verbose", action="store_true")
    t = sub.add_parser("tournament")
    t.add_argument("--boards", type=int, default=500)
    t.add_argument("--against", default="odds,heuristic")
    t.add_argument("--players", default="3-7")
    t.add_argument(
        "--rules", default="low=dealt;min-bid=2;all-pass=redeal;dealer-steal=false;follow=suit"
    )
    t.add_argument("--partnership", action=argparse.BooleanOptionalAction, default=True)
    t.add_argument("--seed", type=int, default=11)
    args = ap.parse_args()
    run = {"speed": speed, "rare": rare, "tables": tables, "tournament": tournaments}
    run[args.what](args)


if __name__ == "__main__":
    main()
