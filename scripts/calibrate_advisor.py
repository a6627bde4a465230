"""Calibration of the advisor (issue 31, item 2): its predicted P(make) against the rate
realised when the hand is played out with defenders stronger than its model.

Measurement only (not CI).  For deal ``i`` of ``--seed`` (the family kernels' deal of
``deal_key(seed, i)``, dealer ``i % n``, the table's ``TableDeal`` walk):

- one seat, drawn per deal (``--seat-choice``), is the *advised seat*; every other seat
  calls by the advisor's model (``odds``) from its view, as ``KernelSeat("odds+heuristic")``;
- at the advised seat's call, ``advise_view`` (``--samples`` kept deals, seed from the
  deal) gives P(make) and P(win game) for every legal call; the seat makes the
  advisor bidder's call: the best-ranked one (highest P(win), then margin, then the
  higher call: ``table.advisor_clock.advisor_pick``'s order), not advise's cautious
  recommendation;
- when the advised seat (or its partner) ends up pitching, the hand is played out once
  per defender condition (``--defenders``, e.g. ``heuristic,rollout``) on the SAME deal
  and auction: the pitcher's side plays the model's play policy (``heuristic``; the
  advised pitcher leads in the trump its call planned, as the advisor's evaluation does)
  and the other side plays the condition's policy.  Optionally (``--pitcher-side``) the
  pitcher's side plays another policy (e.g. ``rollout``: the table's default strategy
  ``odds+rollout`` at every seat).

The realised make is the hand's ``made``.  P(win game) is realised with ``--game``: the
game is played on from the hand's scores (``odds`` bidding at every seat, the advised
side playing the condition's first policy, the others its second); without it only the
prediction is recorded.  The tables and commands: reports/advisor_calibration.md.

The advised seat's advice is ``advise``'s as shipped: corrected for defenders who search
where ``advice.defence`` has a correction (``p_made``), the model's own figure of the
same call recorded beside it (``p_made_model``); ``--model-figures`` advises without it.

Subcommands:
  run     play deals, one JSON line per advised decision (append to --out)
  report  read JSON lines, print markdown tables (per bid level, per predicted decile);
          --model-figures: judge the model's own P(make) of the calls made
  fit     the log-odds shift of P(make) that the paired gap (pimc minus the model's
          defenders, the same hands) asks for: ``advice.defence``'s data

Examples (the commands of reports/advisor_calibration.md):
  NUMBA_CACHE_DIR=/work/wt/cache-calib .venv/bin/python scripts/calibrate_advisor.py run \\
      --rules auction-pitch --players 4 --seed 2 --deals 0:1296 --samples 2000 --scores random \\
      --defenders heuristic,rollout,pimc,rollout/rollout,pimc/pimc --out /tmp/calib-ap4.jsonl
  .venv/bin/python scripts/calibrate_advisor.py report /tmp/calib-ap4.jsonl
"""

from __future__ import annotations

import argparse
import gzip
import json
import math
import sys
from collections import defaultdict
from time import perf_counter, process_time

import numpy as np

from pitchsim.advice.advise import advise_view
from pitchsim.advice.defence import shifted
from pitchsim.game.reference import PASS
from pitchsim.game.rules import build_rules, rule_values
from pitchsim.game.view import card_text, parse_call, trump_text
from pitchsim.kernels.policies.cards import choose_card
from pitchsim.kernels.rng import deal_key
from pitchsim.kernels.search.rollout import KIND_MASK
from pitchsim.table.decide import card_counter, view_knowledge
from pitchsim.table.game import TableDeal, _kernel_deal, next_dealer, winners_of
from pitchsim.table.policies import play_policy
from pitchsim.table.seats import KernelSeat, view_key

Z95 = 1.959963984540054
MODEL = "odds"  # advise's default model: odds bidding, heuristic play


def advisor_choice(advice) -> int:
    """The advisor bidder's call: the best-ranked (P(win), then margin, then higher)."""
    return max(
        advice.legal_calls,
        key=lambda c: (
            advice.by_call[c].p_win_game.value,
            advice.by_call[c].expected_margin.value,
            c,
        ),
    )


class Decisions:
    """Per-seat decisions of one condition: the advised seat's call is fixed (given),
    its first lead is in the planned trump, every other decision is a KernelSeat's."""

    def __init__(self, rules, n, advised, call_text_, plan, pitch_policy, defend_policy, seed):
        self.rules, self.n, self.advised = rules, n, advised
        self.call_text, self.plan = call_text_, plan
        self.bidder = KernelSeat(f"{MODEL}+heuristic", seed=seed)
        self.pitch = KernelSeat(f"{MODEL}+{pitch_policy}", seed=seed)
        self.defend = KernelSeat(f"{MODEL}+{defend_policy}", seed=seed)
        self.pitch_policy = pitch_policy
        self.seed = seed

    def side(self, seat: int) -> int:
        return self.rules.team(seat) if self.rules.partnership else seat

    def act(self, seat, view, pitcher):
        if view.phase == "auction":
            if seat == self.advised:
                return self.call_text
            return self.bidder.call(view)
        if view.phase == "trump":
            if seat == self.advised and self.plan >= 0:
                return trump_text(self.plan)
            return self.bidder.call(view)
        if view.phase in ("call", "put_down"):  # pitchsim's call and put-down (12.1, 12.8.3)
            return self.bidder.call(view)
        ours = self.side(seat) == self.side(self.advised)  # the advised seat's side
        if seat == self.advised and view.trump is None and self.plan >= 0:
            card = self._planned_lead(view)
            if card is not None:
                return card
        return (self.pitch if ours else self.defend).play(view)

    def _planned_lead(self, view):
        """The advisor's first lead under trump=first-lead: its play policy's card of
        the planned suit (as ``table.decide._card`` for an advisor pitcher)."""
        k = view_knowledge(view)
        if not (k.trump < 0 and k.trick_no == 0 and k.count == 0):
            return None
        suit = k.hand & (0x1FFF << (13 * self.plan))
        if not suit:
            return None
        policy = play_policy("heuristic")
        card = int(
            choose_card(
                policy.id & KIND_MASK, np.int64(suit), np.int64(k.hand), k.seat, k.n,
                k.pitcher, k.bid, np.int64(self.plan), k.trick_no, k.trick, k.tseats, k.count,
                np.int64(k.played), k.won, k.fr, k.tab, view_key(self.seed, view),
                card_counter(k),
            )
        )  # fmt: skip
        return card_text(card)


def walk(deal: TableDeal, act):
    """Run a TableDeal with ``act(seat, view, pitcher)``; the hand's record."""
    g = deal.run()
    try:
        seat, view = next(g)
        while True:
            seat, view = g.send(act(seat, view, deal.pitcher))
    except StopIteration as end:
        return end.value


def one_deal(args, rules, n, i, conditions):
    key = np.uint64(deal_key(args.seed, i))
    dealer = i % n
    rng = np.random.default_rng([args.seed, i, 7])
    scores = [0] * n
    if args.scores == "random":  # a game situation: each seat (team) 0 .. target-1
        sides = 2 if rules.partnership else n
        s = [int(x) for x in rng.integers(0, rules.target, sides)]
        scores = [s[rules.team(k)] for k in range(n)] if rules.partnership else s
    advised = dealer if args.seat_choice == "dealer" else int(rng.integers(0, n))
    dealt, stock, draw = _kernel_deal(rules, n, dealer, key)
    bidder = KernelSeat(f"{MODEL}+heuristic", seed=args.seed)
    # the auction up to the advised seat (by the model), then the advice
    deal = TableDeal(rules, n, dealer, dealt, stock, scores, draw)
    g = deal.run()
    seat, view = next(g)
    while seat != advised or view.phase != "auction":
        try:
            seat, view = g.send(bidder.call(view))
        except StopIteration:
            return None  # the auction ended before the advised seat (a maximum bid)
        if view.phase != "auction":
            return None
    t0 = perf_counter()
    adv = advise_view(
        view,
        samples=args.samples,
        seed=args.seed * 1_000_003 + i,
        threads=1,
        search_correction=not args.model_figures,
    )
    t_adv = perf_counter() - t0
    call = advisor_choice(adv)
    ca = adv.by_call[call]
    rec = {
        "deal": i,
        "dealer": dealer,
        "seat": advised,
        "scores": scores,
        "calls_before": [int(c) for c in view.calls],
        "call": call,
        "label": ca.label,
        "plan": ca.trump,
        "p_made": ca.p_made.value,
        # the model's own P(make) of the same call (p_made uncorrected, advice.defence)
        "p_made_model": ca.p_made.value
        if adv.correction is None
        else float(shifted(ca.p_made.value, -adv.correction.shift)),
        "corrected": adv.correction is not None,
        "p_pitcher": ca.p_pitcher.value,
        "p_win": ca.p_win_game.value,
        "samples": adv.samples,
        "advise_s": round(t_adv, 3),
        "results": {},
    }
    text = view.legal()[[parse_call(a, "a call", rules) for a in view.legal()].index(call)]
    plan = -1 if ca.trump is None else int(ca.trump)
    for name, (pitch_p, defend_p) in conditions.items():
        d = Decisions(rules, n, advised, text, plan, pitch_p, defend_p, args.seed)
        hand = TableDeal(rules, n, dealer, dealt, stock, scores, draw)
        t0 = perf_counter()
        doc = walk(hand, d.act)
        side = d.side
        ours = doc["pitcher"] is not None and side(doc["pitcher"]) == side(advised)
        won, hands = None, 0
        if args.game:
            won, hands = rest_of_game(args, rules, n, i, doc, d, pitch_p, defend_p)
        rec["results"][name] = {
            "won": won,
            "hands": hands,
            "pitched": bool(ours),
            "pitcher": doc["pitcher"],
            "bid": doc["bid"],
            "made": bool(doc["made"]) if ours else None,
            "points": doc["points_won"][doc["pitcher"]] if doc["pitcher"] is not None else None,
            "seconds": round(perf_counter() - t0, 3),
        }
    return rec


CONTINUATION = 1 << 40  # deal numbers of the games' later hands (the deals: below it)
MAX_HANDS = 64  # a game still on after this many later hands counts as not won


def rest_of_game(args, rules, n, i, doc, d, pitch_p, defend_p):
    """Play the game on from the hand ``doc`` by the model's bidding, the advised seat's
    side playing ``pitch_p`` and the others ``defend_p``; (the advised side won, hands)."""
    seats = [
        KernelSeat(f"{MODEL}+{pitch_p if d.side(s) == d.side(d.advised) else defend_p}")
        for s in range(n)
    ]
    for s in seats:
        s.seed = args.seed
    for h in range(MAX_HANDS):
        won = winners_of(doc, rules)
        if won:
            return d.side(d.advised) in won, h
        key = np.uint64(deal_key(args.seed, CONTINUATION + i * MAX_HANDS + h))
        dealer = next_dealer(doc, rules)
        dealt, stock, draw = _kernel_deal(rules, n, dealer, key)
        hand = TableDeal(rules, n, dealer, dealt, stock, doc["scores_after"], draw)
        doc = walk(
            hand,
            lambda seat, view, _p: (
                seats[seat].call(view)
                if view.phase in ("auction", "trump")
                else seats[seat].play(view)
            ),
        )
    return False, MAX_HANDS


def parse_range(text: str) -> range:
    a, _, b = text.partition(":")
    return range(int(a), int(b))


def run(args) -> None:
    rules = build_rules(rule_values(args.rules))
    n = args.players
    rules.check_players(n)
    conditions = {}
    for spec in args.defenders.split(","):  # DEFENDERS or PITCHER_SIDE/DEFENDERS
        ours, _, theirs = spec.rpartition("/")
        ours = ours or args.pitcher_side
        conditions[f"{ours}/{theirs}"] = (ours, theirs)
    t_start, c_start = perf_counter(), process_time()
    done = pitched = 0
    deals = parse_range(args.deals)
    with open(args.out, "a") as out:
        for i in deals:
            if args.budget and perf_counter() - t_start > args.budget:
                print(f"budget reached at deal {i}", file=sys.stderr)
                break
            rec = one_deal(args, rules, n, i, conditions)
            done += 1
            if rec is None:
                continue
            rec |= {"rules": args.rules, "players": n, "seed": args.seed}
            out.write(json.dumps(rec) + "\n")
            out.flush()
            if any(r["pitched"] for r in rec["results"].values()):
                pitched += 1
            if done % 10 == 0:
                print(
                    f"deal {i}: {done} done, {pitched} pitched by the advised side, "
                    f"{perf_counter() - t_start:.0f} s wall, {process_time() - c_start:.0f} s CPU",
                    file=sys.stderr,
                )
    print(
        f"{done} deals, {pitched} pitched, {perf_counter() - t_start:.0f} s wall, "
        f"{process_time() - c_start:.0f} s CPU",
        file=sys.stderr,
    )


# -- the report


def wilson(k: int, m: int) -> tuple[float, float]:
    if m == 0:
        return float("nan"), float("nan")
    p = k / m
    d = 1 + Z95**2 / m
    c = (p + Z95**2 / (2 * m)) / d
    h = Z95 * math.sqrt(p * (1 - p) / m + Z95**2 / (4 * m * m)) / d
    return c - h, c + h


def diff_ci(pred: list[float], real: list[int]) -> tuple[float, float, float]:
    """Mean of realised minus predicted, hand by hand, with a normal 95% interval
    (the prediction's own error, from ~1,000+ deals, is small beside one hand's 0/1)."""
    x = np.array(real, dtype=float) - np.array(pred, dtype=float)
    m = x.mean()
    se = x.std(ddof=1) / math.sqrt(len(x)) if len(x) > 1 else float("nan")  # n=1: none
    return m, m - Z95 * se, m + Z95 * se


def load(paths) -> list[dict]:
    recs = []
    for p in paths:
        with gzip.open(p, "rt") if p.endswith(".gz") else open(p) as f:
            recs += [json.loads(line) for line in f if line.strip()]
    return recs


def pct(x: float) -> str:
    return "-" if x != x else f"{100 * x:.1f}"


def decile(p: float) -> str:
    k = min(int(p * 10), 9) * 10
    return f"{k:02d}-{k + 10}%"


def table(rows, cond, group, label_of, what="make") -> list[str]:
    """``what``: "make" (P(make) against made, the hands the advised side pitched) or
    "win" (P(win game) against the game won, every advised call with a finished game)."""
    out = [
        f"| {label_of} | {'hands' if what == 'make' else 'games'} | predicted P({what}) % "
        "| realised % (Wilson 95%) | realised - predicted, pp (normal 95%) |",
        "|---|---:|---:|---:|---:|",
    ]
    groups = defaultdict(list)
    for r in rows:
        res = r["results"].get(cond)
        if res is None:
            continue
        if what == "make" and res["pitched"]:
            groups[group(r)].append((r["p_made"], int(res["made"])))
        elif what == "win" and res.get("won") is not None:
            groups[group(r)].append((r["p_win"], int(res["won"])))
    for g in sorted(groups):
        pred = [p for p, _ in groups[g]]
        real = [m for _, m in groups[g]]
        k, m = sum(real), len(real)
        lo, hi = wilson(k, m)
        d, dlo, dhi = diff_ci(pred, real)
        out.append(
            f"| {g} | {m} | {pct(np.mean(pred))} | {pct(k / m)} ({pct(lo)}-{pct(hi)}) "
            f"| {100 * d:+.1f} ({100 * dlo:+.1f} to {100 * dhi:+.1f}) |"
        )
    return out


def paired(rows, a, b) -> list[str]:
    """Made under b minus made under a, on the hands pitched under both, per bid."""
    out = [
        f"| bid | hands | made {a} % | made {b} % | {b} - {a}, pp (paired normal 95%) |",
        "|---|---:|---:|---:|---:|",
    ]
    groups = defaultdict(list)
    for r in rows:
        ra, rb = r["results"].get(a), r["results"].get(b)
        if ra and rb and ra["pitched"] and rb["pitched"]:
            groups[r["label"]].append((int(ra["made"]), int(rb["made"])))
            groups["all"].append((int(ra["made"]), int(rb["made"])))
    for g in sorted(groups, key=lambda x: (x == "all", x)):
        x = np.array(groups[g], dtype=float)
        d = x[:, 1] - x[:, 0]
        se = d.std(ddof=1) / math.sqrt(len(d)) if len(d) > 1 else float("nan")
        out.append(
            f"| {g} | {len(d)} | {pct(x[:, 0].mean())} | {pct(x[:, 1].mean())} "
            f"| {100 * d.mean():+.1f} ({100 * (d.mean() - Z95 * se):+.1f} to "
            f"{100 * (d.mean() + Z95 * se):+.1f}) |"
        )
    return out


def summary(rows, conds, what="make") -> list[str]:
    """The key figure: realised minus predicted P(make) (or P(win game)), pp (normal
    95%), hands (games), per call (rows) and condition (columns)."""
    out = ["| call | " + " | ".join(conds) + " |", "|---|" + "---:|" * len(conds)]

    def counted(res) -> bool:
        return res["pitched"] if what == "make" else res.get("won") is not None

    labels = sorted({r["label"] for r in rows if any(counted(x) for x in r["results"].values())})
    for g in [*labels, "all"]:
        cells = []
        for c in conds:
            pred, real = [], []
            for r in rows:
                res = r["results"].get(c)
                if res and counted(res) and g in ("all", r["label"]):
                    pred.append(r["p_made"] if what == "make" else r["p_win"])
                    real.append(int(res["made"] if what == "make" else res["won"]))
            if len(real) < 2:
                cells.append(f"n={len(real)}")
                continue
            d, lo, hi = diff_ci(pred, real)
            cells.append(f"{100 * d:+.1f} ({100 * lo:+.1f} to {100 * hi:+.1f}), n={len(real)}")
        out.append(f"| {g} | " + " | ".join(cells) + " |")
    return out


def report(args) -> None:
    recs = load(args.files)
    if args.model_figures:  # the model's own P(make) of the calls made (uncorrected)
        recs = [r | {"p_made": r.get("p_made_model", r["p_made"])} for r in recs]
    conds = sorted({c for r in recs for c in r["results"]})
    heads = sorted({(r["rules"], r["players"]) for r in recs})
    for rules, n in heads:
        rows = [r for r in recs if r["rules"] == rules and r["players"] == n]
        bids = sum(1 for r in rows if r["call"] != PASS)
        seeds = sorted({r["seed"] for r in rows})
        print(
            f"\n### {rules}, {n} players: {len(rows)} advised calls ({bids} bids), seeds {seeds}\n"
        )
        here = [c for c in conds if any(c in r["results"] for r in rows)]
        print("Realised minus predicted P(make), percentage points (normal 95%), hands; ")
        print("columns: the advised side's play / the other side's play:\n")
        print("\n".join(summary(rows, here)))
        print()
        won = [c for c in here if any(r["results"].get(c, {}).get("won") is not None for r in rows)]
        if won:
            print("Realised minus predicted P(win game), pp (normal 95%), games (--game runs):\n")
            print("\n".join(summary(rows, won, "win")))
            print()
        if args.summary:
            continue
        for c in here:
            print(f"**Pitcher's side / defenders = {c}**, by the call made:\n")
            print("\n".join(table(rows, c, lambda r: r["label"], "call")))
            print()
            print(f"By predicted P(make) decile ({c}):\n")
            print("\n".join(table(rows, c, lambda r: decile(r["p_made"]), "predicted")))
            print()
            print("\n".join(table(rows, c, lambda r: "all", "all bids")))
            print()
            if any(r["results"][c].get("won") is not None for r in rows if c in r["results"]):
                print(f"P(win game), by the call made ({c}):\n")
                print("\n".join(table(rows, c, lambda r: r["label"], "call", "win")))
                print()
                print(f"P(win game), by predicted decile ({c}):\n")
                print("\n".join(table(rows, c, lambda r: decile(r["p_win"]), "predicted", "win")))
                print()
                print("\n".join(table(rows, c, lambda r: "all", "all calls", "win")))
                print()
        base = "heuristic/heuristic" if "heuristic/heuristic" in here else here[0]
        for c in here:
            if c != base:
                print(f"Made, paired on the same deals ({base} against {c}):\n")
                print("\n".join(paired(rows, base, c)))
                print()


def fit_shift(p: np.ndarray, target: float) -> float:
    """The log-odds shift that moves the mean of P(make) ``p`` by ``target`` (bisection)."""
    lo, hi = -5.0, 5.0
    for _ in range(60):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if shifted(p, mid).mean() - p.mean() < target else (lo, mid)
    return (lo + hi) / 2


def fit(args) -> None:
    """The logit shift of P(make) that moves the advisor's predictions by the paired
    gap of ``--against`` over ``--base`` (made minus made, the same hands), with the
    shifts of the gap's 95% bounds: ``advice.defence``'s data, per rules and table."""
    recs = load(args.files)
    for rules, n in sorted({(r["rules"], r["players"]) for r in recs}):
        pred, gap = [], []
        for r in recs:
            a, b = r["results"].get(args.base), r["results"].get(args.against)
            if (
                r["rules"] == rules
                and r["players"] == n
                and a
                and b
                and a["pitched"]
                and b["pitched"]
            ):
                pred.append(r["p_made"])
                gap.append(int(b["made"]) - int(a["made"]))
        p, d = np.array(pred), np.array(gap, dtype=float)
        half = Z95 * d.std(ddof=1) / math.sqrt(d.size)

        m = d.mean()
        print(
            f"{rules}, {n} players, seeds {sorted({r['seed'] for r in recs})}: {d.size} hands, "
            f"gap {100 * m:+.1f} pp ({100 * (m - half):+.1f} to {100 * (m + half):+.1f}); "
            f"logit shift {fit_shift(p, m):+.3f} ({fit_shift(p, m - half):+.3f} to {fit_shift(p, m + half):+.3f})"
        )


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run")
    r.add_argument("--rules", default="auction-pitch")
    r.add_argument("--players", type=int, default=4)
    r.add_argument("--seed", type=int, default=1)
    r.add_argument("--deals", default="0:100", help="deal numbers A:B")
    r.add_argument("--samples", type=int, default=1000, help="advise's kept deals")
    r.add_argument(
        "--defenders",
        default="heuristic,rollout",
        help="play policies of the other side, each a condition; OURS/THEIRS also sets "
        "the advised side's (default --pitcher-side)",
    )
    r.add_argument("--pitcher-side", default="heuristic")
    r.add_argument("--seat-choice", choices=("random", "dealer"), default="random")
    r.add_argument("--scores", choices=("zero", "random"), default="zero")
    r.add_argument("--game", action="store_true", help="play the rest of the game")
    r.add_argument("--budget", type=float, default=0, help="stop after this many seconds")
    r.add_argument(
        "--model-figures",
        action="store_true",
        help="advise without its correction for searching defenders (advice.defence)",
    )
    r.add_argument("--out", required=True)
    q = sub.add_parser("report")
    q.add_argument("files", nargs="+", help="JSON lines of run (.gz read too)")
    q.add_argument("--summary", action="store_true", help="the key table only")
    q.add_argument(
        "--model-figures",
        action="store_true",
        help="the model's own P(make) of each call made, not the corrected one",
    )
    f = sub.add_parser("fit")
    f.add_argument("files", nargs="+", help="JSON lines of run (.gz read too)")
    f.add_argument("--base", default="heuristic/heuristic")
    f.add_argument("--against", default="heuristic/pimc")
    args = p.parse_args(argv)
    {"run": run, "report": report, "fit": fit}[args.cmd](args)


if __name__ == "__main__":
    main()
