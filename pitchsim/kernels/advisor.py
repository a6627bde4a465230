"""``advisor``: the call with the best chance of winning the game, found by simulation
at the table (the engine of ``pitchsim advise``, with a small sample per decision).

The bidder deals the unseen cards to the other seats until ``samples`` deals fit the
calls heard so far (every earlier caller bidding by the *model* policy, ``odds`` by
default), then plays each legal call in each of them to the end of the game, everyone
bidding by the model and playing its play policy, and picks the call that won the game
most often (ties: the better hand margin).  A bid's trump is the suit with the best
expected score at that bid in the same deals.  When too few deals fit (a history the
model hardly ever makes) it bids as the model would.

Its settings follow the odds table's constants in ``params`` (``bidding.seat_arrays``
puts them there): samples per decision, the model, the play policy, the objective.
"""

import numpy as np
from numba import njit, types
from numba.extending import overload

from . import advice
from .bidding.odds import MAX_BID, N_PARAMS
from .dispatch import advisor_call, choose_bid
from .rng import deal_key, draw

A_SAMPLES = N_PARAMS  # deals kept per decision
A_MODEL = N_PARAMS + 1  # bidding policy id the other callers are modelled by
A_PLAY = N_PARAMS + 2  # play policy id of every seat in the simulations
A_OBJECTIVE = N_PARAMS + 3  # WIN_GAME or MARGIN
A_TRIES = N_PARAMS + 4  # deals tried per deal wanted, at most
N_ADVISOR_PARAMS = 5
WIN_GAME, MARGIN = 0, 1
DEFAULT_SAMPLES = 32
DEFAULT_TRIES = 64


@njit(cache=True)
def advisor_bid(
    hand,
    seat,
    n,
    dealer,
    calls,
    n_calls,
    high,
    high_seat,
    lowest,
    can_pass,
    scores,
    rules,
    odds,
    params,
    key,
    counter,
):
    if params.size < N_PARAMS + N_ADVISOR_PARAMS:  # no settings given: the defaults
        samples, model, play_id, by_margin, tries = DEFAULT_SAMPLES, 2, 1, False, DEFAULT_TRIES
    else:
        samples = int(params[A_SAMPLES])
        model = int(params[A_MODEL])
        play_id = int(params[A_PLAY])
        by_margin = int(params[A_OBJECTIVE]) == MARGIN
        tries = int(params[A_TRIES])
    tries *= samples
    bidding = np.full(n, model, dtype=np.int64)
    play = np.full(n, play_id, dtype=np.int64)
    heard = calls[:n_calls].copy()

    n_cand = MAX_BID - lowest + 1 + (1 if can_pass else 0)
    candidates = np.empty(n_cand, dtype=np.int64)
    c = 0
    if can_pass:
        candidates[0] = 0
        c = 1
    for k in range(lowest, MAX_BID + 1):
        candidates[c] = k
        c += 1

    unseen, counts, allowed = advice.hand_only(n, seat, hand)
    # This decision's own stream: the deals it imagines never repeat the real ones.
    seed = np.int64(draw(key, counter) >> np.uint64(2))
    dealt = np.empty(n, dtype=np.int64)
    hands = np.empty(n, dtype=np.int64)
    won = np.empty(n, dtype=np.int64)
    trick = np.empty(n, dtype=np.int64)
    deck = np.empty(52, dtype=np.int64)
    award = np.empty(4, dtype=np.int64)
    seen = np.empty(n, dtype=np.int64)
    kept_deal = np.empty(samples, dtype=np.int64)
    suit_points = np.empty((samples, 4), dtype=np.int64)
    kept = 0
    for d in range(tries):
        deal_key_d = deal_key(seed, d)
        advice.deal_sample(deal_key_d, n, seat, hand, unseen, counts, allowed, dealt)
        fits, _, _, _ = advice.calls_fit(
            dealt, n, dealer, heard, n_calls, scores, bidding, rules, odds, params, deal_key_d, seen
        )
        if not fits:
            continue
        kept_deal[kept] = d
        for s in range(4):
            suit_points[kept, s] = advice.suit_points(
                deal_key_d, n, seat, s, dealt, play, rules, hands, won, trick, award
            )
        kept += 1
        if kept == samples:
            break
    if kept < max(1, samples // 4):
        return choose_bid(
            model,
            hand,
            seat,
            n,
            dealer,
            calls,
            n_calls,
            high,
            high_seat,
            lowest,
            can_pass,
            scores,
            rules,
            odds,
            params,
            key,
            counter,
        )

    candidate_trump = np.full(n_cand, -1, dtype=np.int64)
    for c in range(n_cand):
        if candidates[c] > 0:
            candidate_trump[c] = advice.bid_trump(suit_points, kept, candidates[c])
    wins = np.zeros(n_cand)
    margin = np.zeros(n_cand)
    out = np.empty(advice.N_OUTCOMES)
    scores_now = np.empty(n, dtype=np.int64)
    for j in range(kept):
        deal_key_d = deal_key(seed, kept_deal[j])
        advice.deal_sample(deal_key_d, n, seat, hand, unseen, counts, allowed, dealt)
        _, h, hs, ht = advice.calls_fit(
            dealt, n, dealer, heard, n_calls, scores, bidding, rules, odds, params, deal_key_d, seen
        )
        for c in range(n_cand):
            advice.play_call(
                seed,
                kept_deal[j],
                deal_key_d,
                n,
                seat,
                dealer,
                n_calls,
                candidates[c],
                candidate_trump[c],
                h,
                hs,
                ht,
                scores,
                bidding,
                play,
                rules,
                odds,
                params,
                dealt,
                seen,
                scores_now,
                hands,
                won,
                trick,
                deck,
                award,
                out,
            )
            wins[c] += out[advice.O_WON] > 0
            margin[c] += out[advice.O_MARGIN]
    best = 0
    best_value = -1e18
    for c in range(n_cand):
        # A margin sum is below 8 * kept in size: it only breaks ties between win counts.
        v = margin[c] if by_margin else wins[c] + margin[c] / (16.0 * kept + 1.0)
        if v > best_value:
            best_value = v
            best = c
    return candidates[best], candidate_trump[best]


@overload(advisor_call)
def _advisor_call(
    policy,
    hand,
    seat,
    n,
    dealer,
    calls,
    n_calls,
    high,
    high_seat,
    lowest,
    can_pass,
    scores,
    rules,
    odds,
    params,
    key,
    counter,
):
    """``choose_bid``'s advisor branch, for int32 bidding-policy ids only (int64 ids get
    ``kernels.dispatch``'s refusal): importing this module plugs it in."""
    if not (isinstance(policy, types.Integer) and policy.bitwidth == 32):
        return None

    def advise(
        policy,
        hand,
        seat,
        n,
        dealer,
        calls,
        n_calls,
        high,
        high_seat,
        lowest,
        can_pass,
        scores,
        rules,
        odds,
        params,
        key,
        counter,
    ):
        return advisor_bid(
            hand,
            seat,
            n,
            dealer,
            calls,
            n_calls,
            high,
            high_seat,
            lowest,
            can_pass,
            scores,
            rules,
            odds,
            params,
            key,
            counter,
        )

    return advise
