"""``advisor``: the call with the best chance of winning the game, found by simulation
at the table (the engine of ``pitchsim advise``, with a small sample per decision).

Under every preset (auction-pitch included) the family game kernel
asks ``advisor_bid`` (``bidding.calls.seat_call``'s advisor branch, plugged
in below for int32 family bidding arrays).  It is ``pitchsim advise --rules PRESET``
with ``DEFAULT_SAMPLES`` samples, its default model (``odds``, play ``heuristic``;
``advisor_model``) and
the seed drawn from the decision's own stream, made of ``kernels.advice``'s family
functions: the first ``DEFAULT_SAMPLES`` deals of that seed among the first
``DEFAULT_SAMPLES * DEFAULT_TRIES`` that fit the calls heard (``heard_fit``),
each candidate bid's trump planned from the same deals (``suit_row``,
``bid_trump``), every legal call played out in each (``play_calls``), and the
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
from .bidding import calls as bidding
from .bits import suit_mask
from .policies.cards import HEURISTIC
from .presets import F_MAX_BID, F_TRUMP_NAMED, T_TRUMPS
from .rng import deal_key, draw
from .simulate import hand_scratch

DEFAULT_SAMPLES = 32  # deals kept per decision
DEFAULT_TRIES = 64  # deals tried per deal wanted, at most
ADVISOR_PLAY = HEURISTIC  # advise's default play


@njit(cache=True, inline="always")
def advisor_model(defender):
    """The bidding policy the advisor models every seat by: advise's default, ``odds``
    (its rows shipped or made at every table, ``table.odds_rows``), or ``heuristic``
    when it was given no rows (zeros, a defender's mean of 0: ``table.boards.no_odds``)."""
    return bidding.BID_ODDS if defender > 0 else bidding.BID_HEURISTIC


@njit(cache=True)
def pitchable_suits(hand, fr, tab):
    """The suits ``hand`` can make trump, as a mask (``advice.odds.trump_suits``):
    under trump=first-lead the printed suits it holds; under trump=named every suit in
    which it holds a trump other than a joker (the suit's own cards or its jick)."""
    suits = 0
    for t in range(4):
        if fr[F_TRUMP_NAMED] != 0:
            held = hand & tab[t, T_TRUMPS] & bidding.ALL_52
        else:
            held = hand & suit_mask(t)
        if held:
            suits |= 1 << t
    return suits


@njit(cache=True)
def advisor_bid(
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
    more, ``table.seats.KernelSeat(samples=)``)."""
    tries = samples * DEFAULT_TRIES
    model = advisor_model(defender)
    bidders = np.full(n, model, dtype=np.int64)
    players = np.full(n, ADVISOR_PLAY, dtype=np.int64)
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
    deck, dealt, held, hands, won, trick, tseats, award, points, junk = hand_scratch(n)
    kept_deal = np.empty(samples, dtype=np.int64)
    kept = 0
    for d in range(tries):
        fits, _ = advice.heard_fit(
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
        high_seat = np.int64(-1)
        for i in range(n_calls):
            if calls[i] != 0:
                high = max(high, calls[i])
                high_seat = (dealer + 1 + i) % n
        call = bidding.choose_call(
            model, hand, seat, n, dealer, high, high_seat, legal, scores, fr, tab,
            odds, defender, key, counter,
        )  # fmt: skip
        return np.int64(call), np.int64(-1)
    suits = pitchable_suits(hand, fr, tab)
    suit_pts = np.empty((kept, 4), dtype=np.int64)
    for j in range(kept):
        advice.suit_row(
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
        advice.play_calls(
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


@overload(bidding.advisor_call)
def _advisor_call(
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
    """``bidding.calls.seat_call``'s advisor branch, for int32 family bidding ids only
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
        return advisor_bid(
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
            np.int64(DEFAULT_SAMPLES),  # (a bare constant: a second signature)
        )

    return advise
