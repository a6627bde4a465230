"""The auction in a kernel: one call each from the dealer's left, the dealer last.

Mirrors ``pitchsim.game.reference.auction``; tests replay both on the same decisions.
The legal calls are always pass (or not, for a stuck dealer) plus every bid from a
lowest one up to 4, so a caller is told just ``lowest`` and ``can_pass``.
"""

import numpy as np
from numba import njit

from ..game.rules import R_ALL_PASS_REDEAL, R_DEALER_STEAL, R_MIN_BID
from .bits import suit_mask
from .dispatch import choose_bid, choose_card
from .rng import AUCTION_COUNTER, DECISION_COUNTER

MAX_BID = 4
FORCED_DEALER_MIN = 2
NOT_CALLED = -1  # a seat after a 4: the auction was over before its turn


@njit(cache=True, inline="always")
def legal_range(high, is_dealer, rules):
    """(lowest bid, may pass) for the next caller; lowest > 4 means no bid is legal."""
    min_bid = rules[R_MIN_BID]
    if not is_dealer:
        return max(high + 1, min_bid), True
    if high == 0:
        if rules[R_ALL_PASS_REDEAL] != 0:
            return min_bid, True  # redeal: the dealer calls like anyone else
        return max(FORCED_DEALER_MIN, min_bid), False
    return (high if rules[R_DEALER_STEAL] != 0 else high + 1), True


@njit(cache=True)  # not inlined: compiled once for every caller
def run_auction(dealt, n, dealer, scores, bidding, rules, odds, params, key, calls):
    """Ask every seat for its call; return (pitcher, bid, planned trump).

    ``calls[i]`` receives the call of the i-th caller from the dealer's left (0 = pass,
    -1 = never asked because a 4 ended the auction).  Pitcher -1 (bid 0): everybody
    passed under the redeal variant.  ``bidding[seat]`` names each seat's policy.
    """
    return finish_auction(
        dealt, n, dealer, 0, calls, 0, -1, -1, scores, bidding, rules, odds, params, key
    )


@njit(cache=True, inline="always")
def finish_auction(
    dealt,
    n,
    dealer,
    start,
    calls,
    high,
    high_seat,
    trump,
    scores,
    bidding,
    rules,
    odds,
    params,
    key,
):
    """Callers ``start .. n-1`` (from the dealer's left) call, after ``calls[:start]``
    left the high bid ``high`` by ``high_seat`` (planned trump ``trump``); return
    (pitcher, bid, planned trump) as ``run_auction`` does."""
    for i in range(start, n):
        if high == MAX_BID:
            calls[i] = NOT_CALLED  # a 4 cannot be stolen or outbid
            continue
        seat = (dealer + 1 + i) % n
        lowest, can_pass = legal_range(high, i == n - 1, rules)
        call, suit = choose_bid(
            bidding[seat],
            dealt[seat],
            seat,
            n,
            dealer,
            calls,
            i,
            high,
            high_seat,
            lowest,
            can_pass,
            scores,
            rules,
            odds,
            params,
            key,
            AUCTION_COUNTER + i,
        )
        calls[i] = call
        if call > 0:
            high = call
            high_seat = seat
            trump = suit
    return high_seat, high, trump


@njit(cache=True, inline="always")
def pitched_card(dealt, n, pitcher, trump, play, rules, key, trick, won):
    """The card a 4 is pitched with: the pitcher's play policy picks its opening lead
    (in the planned trump suit, if any), from the same random stream position that
    ``play_hand`` would use, so pitching does not change the play.  ``trick`` and
    ``won`` are scratch of size n.
    """
    hand = dealt[pitcher]
    legal = hand
    if trump >= 0 and hand & suit_mask(trump) != 0:
        legal = hand & suit_mask(trump)
    for s in range(n):
        won[s] = 0
    nothing = np.int64(0)  # no card played yet: no seats to tell apart, no voids
    return choose_card(
        play[pitcher],
        legal,
        hand,
        pitcher,
        n,
        pitcher,
        MAX_BID,
        trump,
        0,
        trick,
        0,
        pitcher,
        nothing,
        won,
        (nothing, nothing, nothing),
        nothing,
        rules,
        key,
        DECISION_COUNTER,
    )
