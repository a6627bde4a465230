#!/usr/bin/env python3
"""Why does a search policy choose what it chooses?  Decision by decision, same worlds.

Hands are played by ``heuristic`` at every seat (trump: the heuristic pitcher's lead);
at every decision of the chosen seat(s) with more than one legal card, the decision's
worlds (W, from its own stream) are valued twice, double-dummy (pimc's evaluator) and by
heuristic playouts (rollout's), and each card is also valued in the *true* deal, both
ways.  Per evaluator, aiming at ``--bid``:

- how often its card differs from the heuristic's (and from the other evaluator's);
- ties: how often two or more cards share the best count of worlds reaching the bid
  (then points decide), and how often every card ties (the heuristic's card stays);
- when it differs from the heuristic: the change in reaching the bid in the true deal
  if the hand is then played on by heuristic ("true, playout") and if it is then played
  perfectly with every hand open ("true, DD"), mean over those decisions with a 95%
  interval;
- noise: how often a second, independent set of worlds of the same size picks the same
  card (``--worlds`` and again at 4x).

The true-deal values judge one decision with everyone playing on the same way after it;
they are not the search's whole effect (its later decisions differ too), which
``compare_policies.py --search`` measures.

    .venv/bin/python scripts/diagnose_search.py --players 4 --deals 300 --worlds 16 --bid 2
"""

from __future__ import annotations

import argparse
import json
import os
import time

import numpy as np

from pitchsim.game.reference import play_hand
from pitchsim.game.rules import Rules
from pitchsim.games.policies import kernel_chooser, seat_planes, seat_policies
from pitchsim.kernels.rng import deal_key, draw
from pitchsim.kernels.search.monte_carlo import (
    DOUBLE_DUMMY,
    PLAY_NODES,
    ROLLOUT,
    TARGET_QUERY,
    card_outcomes,
    choose_by_outcomes,
    dd_outcomes,
    rollout_outcomes,
)
from pitchsim.util.stats import Z95

EVALUATORS = {"pimc": DOUBLE_DUMMY, "rollout": ROLLOUT}


def decisions(seed, deals, n, rules, seats, bid):
    """(view, dealt) at every decision of ``seats`` with a choice, in heuristic play."""
    from test_kernels import kernel_deal  # noqa: PLC0415 (tests/ on the path: see main)

    policies = seat_policies("heuristic", n)
    for deal in range(deals):
        dealt, trump, _, _ = kernel_deal(seed, deal, n, policies, rules)
        chooser = kernel_chooser(policies, seed, deal)
        found = []

        def choose(view, chooser=chooser, found=found):
            if view.seat in seats and view.legal & (view.legal - 1):
                found.append(view)
            return chooser(view)

        play_hand(dealt, 0, choose, rules, bid=bid, lead_suit=trump)
        for view in found:
            yield deal, view, dealt


def view_args(v, bid, rules):
    trick = np.zeros(8, dtype=np.int64)
    trick[: len(v.trick)] = v.trick
    won = np.zeros(8, dtype=np.int64)
    won[: v.players] = v.won
    return (
        v.legal,
        v.hand,
        v.seat,
        v.players,
        v.pitcher,
        bid,
        v.trump,
        v.trick_no,
        trick,
        len(v.trick),
        v.leader,
        v.played,
        won,
        seat_planes(v.played_by),
        v.voids,
        rules.to_array(),
    )


def true_values(v, dealt, bid, rules, cards, target=False):
    """Each card's points for the pitcher's side in the true deal: (playout, DD);
    ``target``: the DD values by target queries (whether each card makes the bid, all
    a gain in reaching it needs)."""
    n = v.players
    played_by = np.array(v.played_by, dtype=np.int64)
    world = np.array([[dealt[s] & ~v.played_by[s] for s in range(n)]], dtype=np.int64)
    trick = np.zeros(8, dtype=np.int64)
    trick[: len(v.trick)] = v.trick
    won = np.zeros(8, dtype=np.int64)
    won[:n] = v.won
    ro = np.empty((cards.size, 1), dtype=np.int64)
    rollout_outcomes(
        world,
        1,
        played_by,
        n,
        v.pitcher,
        bid,
        v.trump,
        v.trick_no,
        trick,
        len(v.trick),
        v.leader,
        v.played,
        won,
        rules.to_array(),
        cards,
        ro,
    )
    dd = np.empty((cards.size, 1), dtype=np.int64)
    trump = v.trump if v.trump >= 0 else -1
    dd_outcomes(
        world,
        1,
        played_by,
        n,
        v.pitcher,
        trump,
        trick,
        len(v.trick),
        v.leader,
        won,
        rules.to_array(),
        cards,
        dd,
        0,
        bid if target else 0,
        0,
    )
    return ro[:, 0], dd[:, 0]


def mean_ci(x):
    x = np.asarray(x, dtype=float)
    if x.size < 2:
        return [float(x.mean()) if x.size else float("nan"), float("nan")]
    return [float(x.mean()), float(Z95 * x.std(ddof=1) / np.sqrt(x.size))]


def diagnose(seed, deals, n, rules, seats, bid, worlds, target=False):
    """``target``: pimc as its play policy with target queries runs (``TARGET_QUERY``
    within the play budget ``PLAY_NODES``), else exact values with no budget."""
    from pitchsim.kernels.dispatch import choose_card
    from pitchsim.kernels.policies import PLAY_POLICY_IDS

    stats = {
        e: {
            "differs": [],
            "ties_at_best": [],
            "all_tied": [],
            "gain_playout": [],
            "gain_dd": [],
            "same_again": [],
            "same_at_4x": [],
        }
        for e in EVALUATORS
    }
    both_same = []
    count = 0
    timing = {e: 0.0 for e in EVALUATORS}
    for deal, v, dealt in decisions(seed, deals, n, rules, seats, bid):
        args = view_args(v, bid, rules)
        key = np.uint64(draw(np.uint64(deal_key(seed, deal)), 1000 + count))
        prior = int(choose_card(PLAY_POLICY_IDS["heuristic"], *args, np.uint64(0), 0))
        ours = rules.team(v.seat) == rules.team(v.pitcher)
        picks = {}
        truth = None
        for name, ev in EVALUATORS.items():
            k = v.legal.bit_count()
            choice = []
            for w, stream in (
                (worlds, key),
                (worlds, draw(key, np.int64(1))),
                (4 * worlds, draw(key, np.int64(2))),
            ):
                out = np.empty((k, w), dtype=np.int64)
                t = time.process_time()
                nodes, opts = (
                    (PLAY_NODES, TARGET_QUERY) if target and ev == DOUBLE_DUMMY else (0, 0)
                )
                cards, kept, _ = card_outcomes(
                    ev, w, *args, np.uint64(stream), out, False, nodes, opts
                )
                timing[name] += time.process_time() - t
                choice.append(int(choose_by_outcomes(cards, out, kept, ours, bid, prior)))
                if len(choice) == 1:
                    made = (out[:, :kept] >= bid).sum(axis=1) if bid else out.sum(axis=1)
                    best = made.max() if ours else made.min()
                    tied = int((made == best).sum())
            if truth is None:
                truth = true_values(v, dealt, bid, rules, cards, target)
            s = stats[name]
            pick = choice[0]
            picks[name] = pick
            s["differs"].append(pick != prior)
            s["ties_at_best"].append(tied > 1)
            s["all_tied"].append(tied == k)
            s["same_again"].append(choice[1] == pick)
            s["same_at_4x"].append(choice[2] == pick)
            if pick != prior:
                j, i = list(cards).index(pick), list(cards).index(prior)
                sign = 1 if ours else -1  # the searching side's gain
                for what, values in (("gain_playout", truth[0]), ("gain_dd", truth[1])):
                    reach = (values >= bid) if bid else values
                    s[what].append(sign * (int(reach[j]) - int(reach[i])))
        both_same.append(picks["pimc"] == picks["rollout"])
        count += 1
    report = {"decisions": count, "pimc_equals_rollout": float(np.mean(both_same))}
    for name, s in stats.items():
        report[name] = {
            "differs_from_heuristic": float(np.mean(s["differs"])),
            "ties_at_best": float(np.mean(s["ties_at_best"])),
            "all_cards_tied": float(np.mean(s["all_tied"])),
            "same_card_other_worlds": float(np.mean(s["same_again"])),
            "same_card_4x_worlds": float(np.mean(s["same_at_4x"])),
            "when_differs_true_playout_gain": mean_ci(s["gain_playout"]),
            "when_differs_true_dd_gain": mean_ci(s["gain_dd"]),
            "cpu_ms_per_decision": 1000 * timing[name] / max(1, 3 * count),
        }
    return report


def render(title, r, bid):
    aim = f"P(>= {bid})" if bid else "points"
    lines = [
        title,
        f"  {r['decisions']} decisions; pimc and rollout pick the same card in "
        f"{100 * r['pimc_equals_rollout']:.0f}%",
        "",
    ]
    lines.append(
        f"  {'':<8} {'differs':>8} {'ties':>6} {'all tie':>8} {'again':>6} {'4x':>6}"
        f"   {'when it differs, gain in ' + aim + ' in the true deal':<52} {'ms/dec':>7}"
    )
    for name in EVALUATORS:
        s = r[name]
        gp, hp = s["when_differs_true_playout_gain"]
        gd, hd = s["when_differs_true_dd_gain"]
        scale = 100 if bid else 1
        lines.append(
            f"  {name:<8} {100 * s['differs_from_heuristic']:7.0f}% {100 * s['ties_at_best']:5.0f}% "
            f"{100 * s['all_cards_tied']:7.0f}% {100 * s['same_card_other_worlds']:5.0f}% "
            f"{100 * s['same_card_4x_worlds']:5.0f}%   played on by heuristic {scale * gp:+5.1f} "
            f"±{scale * hp:4.1f}, perfectly {scale * gd:+5.1f} ±{scale * hd:4.1f}  "
            f"{s['cpu_ms_per_decision']:7.1f}"
        )
    lines.append(
        "  (differs: from the heuristic's card; ties: two or more cards share the best "
        "count of worlds;"
    )
    lines.append(
        "   again / 4x: other worlds of the same size / four times as many pick the same "
        "card; gains in points of"
    )
    lines.append("   probability (percent) for the searching side, against the heuristic's card)")
    return "\n".join(lines)


def main() -> None:
    import sys

    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests"))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--partnership", action="store_true")
    ap.add_argument("--deals", type=int, default=300)
    ap.add_argument("--worlds", type=int, default=16)
    ap.add_argument("--bid", type=int, default=2)
    ap.add_argument("--seats", default="pitcher", choices=["pitcher", "defenders"])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument(
        "--target",
        action="store_true",
        help="pimc by target queries within the play budget, as pimc:W+target plays",
    )
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    rules = Rules(partnership=a.partnership)
    n = a.players
    ours = {s for s in range(n) if rules.team(s) == rules.team(0)}
    seats = ours if a.seats == "pitcher" else set(range(n)) - ours
    load = os.getloadavg()
    r = diagnose(a.seed, a.deals, n, rules, seats, a.bid, a.worlds, a.target)
    r.update(
        players=n,
        partnership=a.partnership,
        deals=a.deals,
        worlds=a.worlds,
        target=a.target,
        bid=a.bid,
        seats=a.seats,
        seed=a.seed,
        load_avg_before=load,
        load_avg_after=os.getloadavg(),
    )
    if a.json:
        print(json.dumps(r, indent=1))
    else:
        table = "partnership" if a.partnership else "solo"
        print(
            render(
                f"{n} players {table}, decisions of the {a.seats}, {a.deals} deals, "
                f"W = {a.worlds}, aiming at bid {a.bid}"
                + (", pimc by target queries" if a.target else ""),
                r,
                a.bid,
            )
        )
        print(f"load average {load[0]:.2f} before, {r['load_avg_after'][0]:.2f} after")


if __name__ == "__main__":
    main()
