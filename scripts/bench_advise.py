#!/usr/bin/env python3
"""The advisor's speed and strength.

    .venv/bin/python scripts/bench_advise.py speed [--samples N] [--threads T]
    .venv/bin/python scripts/bench_advise.py tournament [--boards 500] [--against odds,heuristic]
        [--players 3-7] [--rules base,low=dealt,...] [--samples 32] [--objective win|margin]

``speed``: the first call (compile or cache load) apart, then warm ``advise`` on typical
auctions (median of 3): wall time, deals tried and kept (acceptance rate), and deals
simulated per second (kept deals x calls, each played to the end of the game).

``tournament``: duplicate tournaments ``advisor`` against each opponent, solo at each
player count and under each rule variant (4 players), and in partnership; win rate
with its 95% interval over boards, the fair share, games per second.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import statistics
import time

from pitchsim.advice.advise import advise
from pitchsim.game.rules import Rules
from pitchsim.games.bidding import advisor_params
from pitchsim.games.tournament import tournament

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


def parse_players(text: str) -> list[int]:
    if "-" in text:
        lo, hi = text.split("-")
        return list(range(int(lo), int(hi) + 1))
    return [int(x) for x in text.split(",")]


def run_tournament(strategies, players, rules, boards, seed, params_of) -> tuple:
    """A tournament with the advisor's settings put into every rotation's params (the
    tournament takes strategies by name; the settings ride in the odds constants)."""
    import pitchsim.games.tournament as tm

    real = tm.seat_arrays

    def patched(seats, rules_):
        a = real(seats, rules_)
        if any(s.bidding == "advisor" for s in seats):
            a = dataclasses.replace(a, params=params_of(a.params))
        return a

    tm.seat_arrays = patched
    try:
        t = time.perf_counter()
        r = tournament(strategies, players=players, games=boards, rules=rules, seed=seed)
        return r, time.perf_counter() - t
    finally:
        tm.seat_arrays = real


def tournaments(args) -> None:
    def params_of(p):
        return advisor_params(p, samples=args.samples, model=args.model, objective=args.objective)

    configs = []
    for n in parse_players(args.players):
        configs.append((f"{n}p base", n, Rules()))
    for spec in args.rules.split(";"):
        if spec and spec != "base":
            configs.append((f"4p {spec}", 4, Rules.parse(spec)))
    if args.partnership:
        configs.append(("4p partnership", 4, Rules(partnership=True)))
    print(
        f"advisor: {args.samples} deals per decision, model {args.model}, objective "
        f"{args.objective}; {args.boards} boards per line; load {os.getloadavg()[0]:.2f}"
    )
    print(f"{'table':<34}{'against':<11}{'advisor wins':>13}  {'95%':<13}{'fair':>6}{'games/s':>9}")
    for label, n, rules in configs:
        for opp in args.against.split(","):
            r, wall = run_tournament(f"advisor,{opp}", n, rules, args.boards, args.seed, params_of)
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
    t = sub.add_parser("tournament")
    t.add_argument("--boards", type=int, default=500)
    t.add_argument("--against", default="odds,heuristic")
    t.add_argument("--players", default="3-7")
    t.add_argument(
        "--rules", default="low=dealt;min-bid=2;all-pass=redeal;dealer-steal=false;follow=suit"
    )
    t.add_argument("--partnership", action=argparse.BooleanOptionalAction, default=True)
    t.add_argument("--samples", type=int, default=32)
    t.add_argument("--model", default="odds")
    t.add_argument("--objective", default="win", choices=("win", "margin"))
    t.add_argument("--seed", type=int, default=11)
    args = ap.parse_args()
    speed(args) if args.what == "speed" else tournaments(args)


if __name__ == "__main__":
    main()
