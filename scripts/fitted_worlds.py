#!/usr/bin/env python3
"""What do worlds fitted to the auction gain search play?  Same deals, same auctions, paired.

Every deal is dealt (deal d of the seed, dealer d mod n) and bid by the ``odds`` model
at every seat: a real auction, whose pitcher leads the trump he planned and aims at
the bid he won.  The hand is then played four times from the same cards:

- ``pitcher`` runs: the pitcher's side plays ``rollout:W`` and the defenders
  ``heuristic``, once on plain worlds (the view of the play only: what ``rollout``
  does today) and once on worlds that also fit the calls heard
  (``kernels.fitted``: every other caller's ``odds`` model makes his call, the
  pitcher plans the trump he led);
- ``defender`` runs: the same with the defenders searching and a ``heuristic`` pitcher.

Reported per table size: the pitcher's side's P(make) and mean points in each run, and
the paired differences fitted minus plain (95% intervals from the per-deal
differences: for the defenders negative is better), the share of searching decisions
whose card changed, the acceptance rate of the fitted worlds (worlds kept / deals of
the hidden cards drawn), the decisions that fell back to plain worlds (fewer than
``--min-kept`` fitted worlds in 200 attempts per world wanted) and CPU seconds.

    .venv/bin/python scripts/fitted_worlds.py --players 3,4,5 --deals 2000 --worlds 32
"""

from __future__ import annotations

import argparse
import json
import time

import project_python  # noqa: E402  (scripts/ is first on sys.path)

project_python.require(__file__)

import numpy as np  # noqa: E402
from numba import njit, prange  # noqa: E402

from pitchsim.game.rules import R_MUST_FOLLOW, R_PARTNERSHIP, Rules  # noqa: E402
from pitchsim.games.bidding import bidding_policy, odds_table  # noqa: E402
from pitchsim.kernels.auction import run_auction  # noqa: E402
from pitchsim.kernels.bits import bit, suit_mask  # noqa: E402
from pitchsim.kernels.deal import deal_hands  # noqa: E402
from pitchsim.kernels.fitted import fitted_search_card  # noqa: E402
from pitchsim.kernels.hand import (  # noqa: E402
    follow_cards,
    hand_scratch,
    opening_lead_cards,
    points_won,
    score_hand,
    side_of,
    suit_of,
    trumping_in,
    winning_card,
)
from pitchsim.kernels.policies.heuristic import heuristic_card  # noqa: E402
from pitchsim.kernels.rng import DECISION_COUNTER, deal_key  # noqa: E402
from pitchsim.kernels.search import monte_carlo  # noqa: E402
from pitchsim.kernels.view import shows_void  # noqa: E402
from pitchsim.util.stats import Z95, wilson  # noqa: E402

TRICKS = 6
# Per-deal statistics of one run (columns of ``out_stats``).
S_DECISIONS, S_CHANGED, S_KEPT, S_ATTEMPTS, S_FELL_BACK = range(5)
BLOCK = 8  # deals per parallel block: every decision searches


@njit(cache=True)
def play_auctioned(
    dealt,
    n,
    dealer,
    calls,
    pitcher,
    bid,
    trump0,
    searchers,
    fitted,
    worlds,
    min_kept,
    bidding,
    scores,
    rules,
    odds,
    params,
    key,
    hands,
    won,
    trick,
    stats,
):
    """``kernels.hand.play_hand`` with the seats in the ``searchers`` mask playing
    rollout (plain worlds, or with ``fitted`` worlds that fit ``calls``) and the others
    ``heuristic``; the pitcher leads ``trump0``.  Returns trump; ``stats`` counts the
    searching decisions, how many differ from the plain-world card, worlds, attempts and
    fall-backs."""
    own0 = own1 = own2 = np.int64(0)
    for s in range(n):
        hands[s] = dealt[s]
        won[s] = 0
        own0 |= dealt[s] & -(s & 1)
        own1 |= dealt[s] & -((s >> 1) & 1)
        own2 |= dealt[s] & -((s >> 2) & 1)
    must_follow = rules[R_MUST_FOLLOW] != 0
    partnership = rules[R_PARTNERSHIP] != 0
    voids = np.int64(0)
    led = 0
    played = np.int64(0)
    trump = trump0
    tmask = np.int64(0)
    leader = pitcher
    for t in range(TRICKS):
        seat = leader
        taken = np.int64(0)
        led_mask = np.int64(0)
        trump_ok = np.int64(0)
        for i in range(n):
            hand = hands[seat]
            if i == 0:
                legal = opening_lead_cards(hand, trump) if t == 0 else hand
            else:
                legal = follow_cards(hand, led_mask, trump_ok)
            seen = played | taken
            who = (own0 & seen, own1 & seen, own2 & seen)
            counter = DECISION_COUNTER + t * n + i
            if searchers >> seat & 1:
                plain = monte_carlo.search_card(
                    monte_carlo.ROLLOUT,
                    worlds,
                    legal,
                    hand,
                    seat,
                    n,
                    pitcher,
                    bid,
                    trump,
                    t,
                    trick,
                    i,
                    leader,
                    played,
                    won,
                    who,
                    voids,
                    rules,
                    key,
                    counter,
                )
                card = plain
                if legal & (legal - 1) != 0:
                    stats[S_DECISIONS] += 1
                if fitted:
                    card, kept, attempts, fell_back = fitted_search_card(
                        monte_carlo.ROLLOUT,
                        worlds,
                        min_kept,
                        legal,
                        hand,
                        seat,
                        n,
                        pitcher,
                        bid,
                        trump,
                        t,
                        trick,
                        i,
                        leader,
                        played,
                        won,
                        who,
                        voids,
                        rules,
                        key,
                        counter,
                        dealer,
                        calls,
                        n,
                        scores,
                        bidding,
                        odds,
                        params,
                        partnership,
                    )
                    stats[S_CHANGED] += card != plain
                    stats[S_KEPT] += kept
                    stats[S_ATTEMPTS] += attempts
                    stats[S_FELL_BACK] += fell_back
            else:
                card = heuristic_card(
                    legal,
                    hand,
                    seat,
                    n,
                    pitcher,
                    bid,
                    trump,
                    t,
                    trick,
                    i,
                    leader,
                    played,
                    won,
                    who,
                    voids,
                    rules,
                    key,
                    counter,
                )
            if i > 0:
                shown = shows_void(suit_of(card), led, trump, must_follow)
                voids |= np.int64(shown) << (4 * seat + led)
            b = bit(card)
            hands[seat] = hand & ~b
            trick[i] = card
            taken |= b
            if i == 0:
                led = suit_of(card)
                if t == 0:
                    trump = led
                    tmask = suit_mask(trump)
                led_mask = suit_mask(led)
                trump_ok = trumping_in(led, trump, must_follow)
            seat += 1
            if seat == n:
                seat = 0
        tb = bit(winning_card(taken, led_mask, tmask))
        winner = ((own0 & tb) != 0) + 2 * ((own1 & tb) != 0) + 4 * ((own2 & tb) != 0)
        won[winner] |= taken
        played |= taken
        leader = winner
    return trump


@njit(cache=True, parallel=True)
def run_deals(
    seed, count, n, bidding, rules, odds, params, worlds, min_kept, out_bid, out_points, out_stats
):
    """Deal, auction and the four plays of deals 0..count-1 (see the module).
    ``out_points[d, r]``: the pitcher's side's points in run r (pitcher plain, pitcher
    fitted, defenders plain, defenders fitted); ``out_bid[d]``: the bid (0: thrown in)."""
    template = np.arange(52, dtype=np.int64)
    for b in prange((count + BLOCK - 1) // BLOCK):
        dealt, hands, won, trick, deck, award = hand_scratch(n)
        calls = np.empty(n, dtype=np.int64)
        scores = np.zeros(n, dtype=np.int64)
        for d in range(b * BLOCK, min(count, (b + 1) * BLOCK)):
            key = deal_key(seed, d)
            dealer = d % n
            deal_hands(key, n, 0, 0, template, deck, dealt)
            pitcher, bid, planned = run_auction(
                dealt, n, dealer, scores, bidding, rules, odds, params, key, calls
            )
            out_bid[d] = bid if pitcher >= 0 else 0
            if pitcher < 0:
                continue
            side = side_of(pitcher, rules)
            ours = 0
            for s in range(n):
                if side_of(s, rules) == side:
                    ours |= 1 << s
            theirs = ((1 << n) - 1) & ~ours
            for r in range(4):
                searchers = ours if r < 2 else theirs
                trump = play_auctioned(
                    dealt,
                    n,
                    dealer,
                    calls,
                    pitcher,
                    bid,
                    planned,
                    searchers,
                    r % 2 == 1,
                    worlds,
                    min_kept,
                    bidding,
                    scores,
                    rules,
                    odds,
                    params,
                    key,
                    hands,
                    won,
                    trick,
                    out_stats[d, r],
                )
                score_hand(dealt, won, n, trump, rules, award)
                out_points[d, r] = points_won(award, pitcher, rules)


def paired(a: np.ndarray, b: np.ndarray) -> tuple[float, float]:
    """Mean of b - a and its 95% half-width."""
    d = b.astype(float) - a
    return float(d.mean()), float(Z95 * d.std(ddof=1) / np.sqrt(d.size))


def measure(n: int, deals: int, worlds: int, min_kept: int, seed: int, partnership: bool):
    rules = Rules(partnership=partnership)
    rules.check_players(n)
    odds, params = odds_table(n, rules)
    bidding = np.full(n, bidding_policy("odds").id, dtype=np.int64)
    out_bid = np.zeros(deals, dtype=np.int64)
    out_points = np.zeros((deals, 4), dtype=np.int64)
    out_stats = np.zeros((deals, 4, 5), dtype=np.int64)
    cpu, wall = time.process_time(), time.perf_counter()
    run_deals(
        seed,
        deals,
        n,
        bidding,
        rules.to_array(),
        odds,
        params,
        worlds,
        min_kept,
        out_bid,
        out_points,
        out_stats,
    )
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    ok = out_bid > 0
    bid = out_bid[ok]
    pts = out_points[ok]
    made = pts >= bid[:, None]
    st = out_stats[ok]
    result = {
        "players": n,
        "partnership": partnership,
        "deals": int(ok.sum()),
        "worlds": worlds,
        "seed": seed,
        "cpu_s": cpu,
        "wall_s": wall,
        "bids": {str(k): int((bid == k).sum()) for k in range(1, 5)},
    }
    for who, (p, f) in (("pitcher", (0, 1)), ("defenders", (2, 3))):
        s = st[:, f]
        row = {}
        for name, r in (("plain", p), ("fitted", f)):
            m = int(made[:, r].sum())
            lo, hi = wilson(m, made.shape[0])
            row[name] = {
                "p_make": m / made.shape[0],
                "p_make_ci95": [float(lo), float(hi)],
                "points": float(pts[:, r].mean()),
            }
        row["d_p_make"] = paired(made[:, p], made[:, f])
        row["d_points"] = paired(pts[:, p], pts[:, f])
        dec = int(s[:, S_DECISIONS].sum())
        row["decisions"] = dec
        row["changed"] = int(s[:, S_CHANGED].sum())
        row["acceptance"] = float(s[:, S_KEPT].sum() / max(s[:, S_ATTEMPTS].sum(), 1))
        row["fell_back"] = int(s[:, S_FELL_BACK].sum())
        row["deals_differing"] = int((pts[:, p] != pts[:, f]).sum())
        result[who] = row
    return result


def show(r: dict) -> str:
    out = [
        f"{r['players']} players{' partnership' if r['partnership'] else ''}: "
        f"{r['deals']:,} deals with a pitcher (bids {r['bids']}), rollout:{r['worlds']}, "
        f"{r['cpu_s']:.0f} CPU s, {r['wall_s']:.0f} s wall"
    ]
    for who in ("pitcher", "defenders"):
        w = r[who]
        pl, fi = w["plain"], w["fitted"]
        dm, hm = w["d_p_make"]
        dp, hp = w["d_points"]
        out.append(
            f"  {who:<9} searching: P(make) plain {100 * pl['p_make']:.1f}% fitted "
            f"{100 * fi['p_make']:.1f}%, dP(make) {100 * dm:+.2f} ±{100 * hm:.2f}; points "
            f"{pl['points']:.3f} -> {fi['points']:.3f}, d {dp:+.3f} ±{hp:.3f}; cards changed "
            f"{w['changed']:,}/{w['decisions']:,}, deals differing {w['deals_differing']:,}; "
            f"acceptance {100 * w['acceptance']:.1f}%, fell back {w['fell_back']:,}"
        )
    return "\n".join(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--players", default="3,4,5")
    ap.add_argument("--deals", type=int, default=1000)
    ap.add_argument("--worlds", type=int, default=32)
    ap.add_argument("--min-kept", type=int, default=8)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--partnership", action="store_true")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    results = []
    for n in (int(x) for x in a.players.split(",")):
        r = measure(n, a.deals, a.worlds, a.min_kept, a.seed, a.partnership)
        results.append(r)
        if not a.json:
            print(show(r), flush=True)
    if a.json:
        print(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
