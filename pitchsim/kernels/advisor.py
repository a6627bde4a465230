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

Under every preset (``FamilyRules``, auction-pitch included) the family game kernel
asks ``family_advisor_bid`` (``families.bidding.seat_call``'s advisor branch, plugged
in below for int32 family bidding arrays).  It is ``pitchsim advise --rules PRESET``
with ``DEFAULT_SAMPLES`` samples, its default model (``odds``, play ``heuristic``;
``heuristic+heuristic`` under a preset without an odds table, ``family_model``) and
the seed drawn from the decision's own stream, made of ``kernels.advice``'s family
functions: the first ``DEFAULT_SAMPLES`` deals of that seed among the first
``DEFAULT_SAMPLES * DEFAULT_TRIES`` that fit the calls heard (``family_heard_fit``),
each candidate bid's trump planned from the same deals (``family_suit_row``,
``bid_trump``), every legal call played out in each (``family_play_calls``), and the
call ranked first by advise's ``ranking``: most games won, then the best mean margin,
then the higher call.  It is advise's ranking, not advise's recommendation: advise
then prefers the lowest call whose lead is inside the error, which at 32 deals would
nearly always be a pass.  With fewer than a quarter of the samples fitting (advise
would call the calls unlikely) it calls as its model.  A bid comes with its planned
trump, which the game names (or, under first-lead, leads in) as the evaluation did.
"""

import numpy as np
from numba import njit, types
from numba.extending import overload

from . import advice
from .bidding.odds import MAX_BID, N_PARAMS
from .bits import suit_mask
from .dispatch import advisor_call, choose_bid
from .families import bidding as family_bidding
from .families.policies import HEURISTIC as FAMILY_HEURISTIC
from .families.simulate import hand_scratch as family_scratch
from .families.tables import F_MAX_BID, F_TRUMP_NAMED, T_TRUMPS
from .rng import deal_key, draw

A_SAMPLES = N_PARAMS  # deals kept per decision
A_MODEL = N_PARAMS + 1  # bidding policy id the other callers are modelled by
A_PLAY = N_PARAMS + 2  # play policy id of every seat in the simulations
A_OBJECTIVE = N_PARAMS + 3  # WIN_GAME or MARGIN
A_TRIES = N_PARAMS + 4  # deals tried per deal wanted, at most
N_ADVISOR_PARAMS = 5
WIN_GAME, MARGIN = 0, 1
DEFAULT_SAMPLES = 32  # deals kept per decision (both engines)
DEFAULT_TRIES = 64  # deals tried per deal wanted, at most
FAMILY_PLAY = FAMILY_HEURISTIC  # advise's default play


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


# ---------------------------------------------------------------- every preset


@njit(cache=True, inline="always")
def family_model(defender):
    """The bidding policy the advisor models every seat by: advise's default, ``odds``,
    where the preset has an odds table, else ``heuristic`` (no table: ``odds``, and so
    ``advise``'s default model, is refused there; ``games.families.odds_for`` gives
    the advisor zeros, a defender's mean of 0)."""
    return family_bidding.BID_ODDS if defender > 0 else family_bidding.BID_HEURISTIC


@njit(cache=True)
def pitchable_suits(hand, fr, tab):
    """The suits ``hand`` can make trump, as a mask (``advice.odds.trump_suits``):
    under trump=first-lead the printed suits it holds; under trump=named every suit in
    which it holds a trump other than a joker (the suit's own cards or its jick)."""
    suits = 0
    for t in range(4):
        if fr[F_TRUMP_NAMED] != 0:
            held = hand & tab[t, T_TRUMPS] & family_bidding.ALL_52
        else:
            held = hand & suit_mask(t)
        if held:
            suits |= 1 << t
    return suits


@njit(cache=True)
def family_advisor_bid(
    hand,
    seat,
    n,
    dealer,
    calls,
    n_calls,
    legal,
    scores,
    fr,
    tab,
    odds,
    defender,
    key,
    counter,
    samples,
):
    """The advisor's (call, planned trump, -1: none) under a preset (see the module):
    ``calls[:n_calls]`` heard, ``legal`` the legal calls as a mask; ``samples`` deals
    kept (the game kernel's seats: ``DEFAULT_SAMPLES``; a seat at the table may ask
    more, ``games.seats.KernelSeat(samples=)``)."""
    tries = samples * DEFAULT_TRIES
    model = family_model(defender)
    bidders = np.full(n, model, dtype=np.int64)
    players = np.full(n, FAMILY_PLAY, dtype=np.int64)
    heard = calls[:n_calls].copy()
    top = fr[F_MAX_BID]
    n_cand = 0
    for c in range(top + 2):
        n_cand += legal >> c & 1
    candidates = np.empty(n_cand, dtype=np.int64)
    i = 0
    for c in range(top + 2):
        if legal >> c & 1:
            candidates[i] = c
            i += 1
    # This decision's own stream: the deals it imagines never repeat the real ones.
    seed = np.int64(draw(key, counter) >> np.uint64(2))
    deck, dealt, held, hands, won, trick, tseats, award, points, junk = family_scratch(n)
    kept_deal = np.empty(samples, dtype=np.int64)
    kept = 0
    for d in range(tries):
        fits, _ = advice.family_heard_fit(
            deal_key(seed, d), n, seat, hand, dealer, heard, scores, bidders, fr, tab, odds,
            defender, 0.0, deck, dealt,
        )  # fmt: skip
        if fits:
            kept_deal[kept] = d
            kept += 1
            if kept == samples:
                break
    if kept < max(1, samples // 4):
        high = np.int64(0)
        high_seat = -1
        for i in range(n_calls):
            if calls[i] != 0:
                high = max(high, calls[i])
                high_seat = (dealer + 1 + i) % n
        call = family_bidding.choose_call(
            model, hand, seat, n, dealer, high, high_seat, legal, scores, fr, tab,
            odds, defender, key, counter,
        )  # fmt: skip
        return np.int64(call), np.int64(-1)
    suits = pitchable_suits(hand, fr, tab)
    suit_pts = np.empty((kept, 4), dtype=np.int64)
    for j in range(kept):
        advice.family_suit_row(
            deal_key(seed, kept_deal[j]), n, dealer, seat, hand, suits, players, fr, tab,
            deck, dealt, held, hands, won, trick, tseats, award, points, junk, suit_pts[j],
        )  # fmt: skip
    candidate_trump = np.full(n_cand, -1, dtype=np.int64)
    for c in range(n_cand):
        if candidates[c] > 0:  # a shoot is made at the maximum bid
            candidate_trump[c] = advice.bid_trump(suit_pts, kept, min(candidates[c], top))
    out = np.empty((n_cand, advice.N_OUTCOMES))
    deck2 = np.empty(54, dtype=np.int64)
    dealt2 = np.empty(n, dtype=np.int64)
    change = np.empty(n, dtype=np.int64)
    game_calls = np.empty(n, dtype=np.int64)
    call_legal = np.empty(n, dtype=np.int64)
    scores_now = np.empty(n, dtype=np.int64)
    wins = np.zeros(n_cand, dtype=np.int64)
    margin = np.zeros(n_cand)
    for j in range(kept):
        advice.family_play_calls(
            seed, kept_deal[j], n, seat, hand, dealer, heard, candidates, candidate_trump,
            scores, bidders, players, fr, tab, odds, defender, deck, dealt, held, hands, won,
            trick, tseats, award, points, junk, deck2, dealt2, change, game_calls,
            call_legal, scores_now, out,
        )  # fmt: skip
        for c in range(n_cand):
            wins[c] += out[c, advice.O_WON] > 0
            margin[c] += out[c, advice.O_MARGIN]
    # advise's ranking: most wins, then the best margin, then the higher call.
    best = 0
    for c in range(1, n_cand):
        if wins[c] > wins[best] or (wins[c] == wins[best] and margin[c] >= margin[best]):
            best = c
    return candidates[best], candidate_trump[best]


@overload(family_bidding.advisor_call)
def _family_advisor_call(
    policy,
    hand,
    seat,
    n,
    dealer,
    calls,
    n_calls,
    legal,
    scores,
    fr,
    tab,
    odds,
    defender,
    key,
    counter,
):
    """``families.bidding.seat_call``'s advisor branch, for int32 family bidding ids only
    (int64 ids get the refusal there): importing this module plugs it in."""
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
        legal,
        scores,
        fr,
        tab,
        odds,
        defender,
        key,
        counter,
    ):
        return family_advisor_bid(
            hand,
            seat,
            n,
            dealer,
            calls,
            n_calls,
            legal,
            scores,
            fr,
            tab,
            odds,
            defender,
            key,
            counter,
            DEFAULT_SAMPLES,
        )

    return advise
