"""Worlds that fit the auction heard: search play's worlds with the advisor's accept hook.

Play search (``monte_carlo``) samples worlds from what the player has seen of the play
(cards played, voids shown); the advisor (``kernels.advice``) keeps only the deals in
which every earlier caller, bidding by a *model* policy, makes the call he made.  Here
both at once: a world of the hidden cards is kept only if it fits the play seen *and*
every caller but the player himself, given his hand as dealt in that world (the cards
he still holds there plus those he has played), would make the call he made after the
calls before it, and the pitcher's model would have planned the trump that was led.
Passing seats come out weaker and the pitcher holds what his bid says, in proportion
to how often the model bids that way (the posterior, for a model that may randomise:
its draw is the attempt's evidence draw, ``worlds.evidence_draw``'s counter).

The calls are ``heard[:m]`` in order from the dealer's left (0 = pass, 1-4; -1, a seat
never asked after a 4, ends them).  The player's own call says nothing about the other
hands and is not checked.  The pitcher's call is checked first: it rejects most.

``sample_fitted_worlds`` returns (kept, attempts) like ``worlds.sample_worlds``; with
``max_attempts`` spent and few kept, the calls are too unlikely under the model for
rejection, and the caller decides how to fall back (``fitted_search_card`` plays the
view's plain worlds then, and says so in its return).
"""

import numpy as np
from numba import njit

from .auction import NOT_CALLED, legal_range
from .bits import popcount
from .dispatch import choose_bid
from .policies.heuristic import heuristic_card
from .rng import AUCTION_COUNTER, draw
from .search import monte_carlo
from .search.worlds import STRIDE, draw_world, view_constraint

_EVIDENCE = STRIDE - 1  # the counter of worlds.evidence_draw: the model's own randomness


@njit(cache=True)
def calls_fit_world(
    dealt, n, me, dealer, heard, m, trump, scores, bidding, rules, odds, params, key
):
    """Would every caller but ``me``, bidding by ``bidding[seat]`` on ``dealt[seat]``,
    make the call he made (``heard[:m]``), and the pitcher plan trump ``trump`` (when
    it is known, >= 0, and his model names a suit)?"""
    # The pitcher's call first (it rejects most), then the others in order.
    last_bid = -1
    calls = 0
    for i in range(m):
        if heard[i] == NOT_CALLED:
            break
        calls += 1
        if heard[i] > 0:
            last_bid = i
    for step in range(calls + 1):
        if step == 0:
            if last_bid < 0:
                continue
            i = last_bid
        else:
            i = step - 1
            if i == last_bid:
                continue
        seat = (dealer + 1 + i) % n
        if seat == me:
            continue
        high = 0
        high_seat = -1
        for j in range(i):
            if heard[j] > 0:
                high = heard[j]
                high_seat = (dealer + 1 + j) % n
        lowest, can_pass = legal_range(high, i == n - 1, rules)
        call, suit = choose_bid(
            bidding[seat],
            dealt[seat],
            seat,
            n,
            dealer,
            heard,
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
        if call != heard[i]:
            return False
        if i == last_bid and trump >= 0 and suit >= 0 and suit != trump:
            return False
    return True


@njit(cache=True)
def sample_fitted_worlds(
    key,
    n,
    me,
    hand,
    unseen,
    counts,
    allowed,
    played_by,
    dealer,
    heard,
    m,
    trump,
    scores,
    bidding,
    rules,
    odds,
    params,
    worlds,
    max_attempts,
):
    """Up to ``worlds.shape[0]`` worlds that fit the view and the calls (see the module);
    returns (kept, attempts).  Kept worlds are uniform among those the model makes the
    calls in (weighted by its chance of making them, for a randomising model)."""
    dealt = np.empty(n, dtype=np.int64)
    kept = 0
    attempt = 0
    while kept < worlds.shape[0] and attempt < max_attempts:
        w = worlds[kept]
        if draw_world(key, attempt, n, me, hand, unseen, counts, allowed, w):
            for s in range(n):
                dealt[s] = w[s] | played_by[s]
            if calls_fit_world(
                dealt,
                n,
                me,
                dealer,
                heard,
                m,
                trump,
                scores,
                bidding,
                rules,
                odds,
                params,
                draw(key, attempt * STRIDE + _EVIDENCE),
            ):
                kept += 1
        attempt += 1
    return kept, attempt


@njit(cache=True)
def fitted_card_outcomes(
    evaluator,
    worlds_wanted,
    legal,
    hand,
    seat,
    n,
    pitcher,
    bid,
    trump,
    trick_no,
    trick,
    trick_len,
    leader,
    played,
    won,
    who,
    voids,
    rules,
    key,
    out,
    dealer,
    heard,
    m,
    scores,
    bidding,
    odds,
    params,
    max_attempts,
):
    """``monte_carlo.card_outcomes`` on worlds that also fit the calls: ``out[j, w]`` the
    pitcher's side's points after legal card j (ascending) in world w; returns
    (cards, worlds kept, attempts)."""
    counts = np.empty(n, dtype=np.int64)
    allowed = np.empty(n, dtype=np.int64)
    played_by = np.empty(n, dtype=np.int64)
    unseen = view_constraint(
        n,
        seat,
        hand,
        trick_no,
        trick_len,
        leader,
        played,
        trick,
        who,
        voids,
        counts,
        allowed,
        played_by,
    )
    worlds = np.empty((worlds_wanted, n), dtype=np.int64)
    cards = monte_carlo.ascending_cards(legal)
    kept, attempts = sample_fitted_worlds(
        key,
        n,
        seat,
        hand,
        unseen,
        counts,
        allowed,
        played_by,
        dealer,
        heard,
        m,
        trump,
        scores,
        bidding,
        rules,
        odds,
        params,
        worlds,
        max_attempts,
    )
    monte_carlo.value_cards(
        evaluator,
        worlds,
        kept,
        played_by,
        n,
        pitcher,
        bid,
        trump,
        trick_no,
        trick,
        trick_len,
        leader,
        played,
        won,
        rules,
        cards,
        out,
    )
    return cards, kept, attempts


@njit(cache=True)
def fitted_search_card(
    evaluator,
    worlds_wanted,
    min_kept,
    legal,
    hand,
    seat,
    n,
    pitcher,
    bid,
    trump,
    trick_no,
    trick,
    trick_len,
    leader,
    played,
    won,
    who,
    voids,
    rules,
    key,
    counter,
    dealer,
    heard,
    m,
    scores,
    bidding,
    odds,
    params,
    partnership,
):
    """A search policy's card on worlds fitted to the calls: ``monte_carlo.search_card``
    with the accept hook.  Returns (card, worlds kept, attempts, fell back): with fewer
    than ``min_kept`` worlds fitting in ``ATTEMPTS_PER_WORLD`` attempts per world wanted,
    the decision is made on the view's plain worlds instead (fell back = True)."""
    prior = heuristic_card(
        legal,
        hand,
        seat,
        n,
        pitcher,
        bid,
        trump,
        trick_no,
        trick,
        trick_len,
        leader,
        played,
        won,
        who,
        voids,
        rules,
        key,
        counter,
    )
    if legal & (legal - 1) == 0:
        return prior, 0, 0, False
    if partnership:
        our_side = (seat ^ pitcher) & 1 == 0
    else:
        our_side = seat == pitcher
    out = np.empty((popcount(legal), worlds_wanted), dtype=np.int64)
    stream = draw(key, counter)
    cards, kept, attempts = fitted_card_outcomes(
        evaluator,
        worlds_wanted,
        legal,
        hand,
        seat,
        n,
        pitcher,
        bid,
        trump,
        trick_no,
        trick,
        trick_len,
        leader,
        played,
        won,
        who,
        voids,
        rules,
        stream,
        out,
        dealer,
        heard,
        m,
        scores,
        bidding,
        odds,
        params,
        monte_carlo.ATTEMPTS_PER_WORLD * worlds_wanted,
    )
    fell_back = kept < min_kept
    if fell_back:
        cards, kept, more = monte_carlo.card_outcomes(
            evaluator,
            worlds_wanted,
            legal,
            hand,
            seat,
            n,
            pitcher,
            bid,
            trump,
            trick_no,
            trick,
            trick_len,
            leader,
            played,
            won,
            who,
            voids,
            rules,
            stream,
            out,
        )
        attempts += more
    if kept == 0:
        return prior, 0, attempts, fell_back
    return (
        monte_carlo.choose_by_outcomes(cards, out, kept, our_side, bid, prior),
        kept,
        attempts,
        fell_back,
    )
