"""The advisor's engine: deals that fit the calls heard, and one seat's every call
played out to the end of the game.

A *sample* is one deal of the unseen cards to the other seats (the advised seat keeps
its hand), drawn by the one world resampler (``search.worlds.draw_world``, which play
search uses with the cards seen and voids shown).  It is kept only if every earlier
caller, bidding by the *model* policy, would make the call he made (rejection
sampling: an ``accept`` hook on the dealer, as redeal does it), so the kept deals are
uniform among those the model makes the heard calls with.

Rejection is sequential (``deal_fits``): the seats are dealt one at a time, in the
resampler's order, and a caller's call is checked as soon as his hand is dealt; the first
call that does not fit rejects the deal before the later hands are dealt.  The kept deals
are exactly plain rejection's, deal by deal, because a caller's call depends only on his
own hand and the public auction before it (the calls heard, the scores, the rules, and
for ``random`` the sample's own stream): every model policy (``random``, ``heuristic``,
``odds``, ``odds-game``; ``kernels.bidding``) sees only that, and the advisor, which deals
imagined hands of its own, cannot be the model.  When the heard calls are unlikely
(under 1% fit) most deals fail at the first caller dealt, so a deal costs one hand
and one call instead of every hand and its draw_world bookkeeping.  The call itself is
the rest of the cost: an ``odds`` caller can answer from tables of the policy's call
by trump holding, made once for the question (``call_tables``; the same calls).
(Dealing callers in another order, the least likely call first, would reject sooner
still, but would change every deal of every seed.)

Each kept deal is then played once per candidate call: the seat makes it,
the later seats call by the model, the hand is played and settled, and the rest of the
game is played out by the model's strategies from the new scores.

Sample i of a seed deals from the stream (seed, i); the deals after it in the same game
use (seed, CONTINUATION + i * MAX_DEALS + d), the same for every candidate call, so two
calls are compared on the same cards (common random numbers) and every answer is the
same on any thread count.

The model cannot be the advisor itself: this engine's bidding-policy arrays are plain
(int64), so its auctions compile without the advisor (``kernels.dispatch``), which is
what lets the ``advisor`` bidding policy (``kernels.advisor``, above this
module) run this engine from inside the tournament kernels' auction.
"""

import numpy as np
from numba import njit, prange

from ..game.rules import R_PARTNERSHIP
from .auction import finish_auction, legal_range
from .bidding import ODDS, ODDS_GAME
from .bidding.odds import N_HOLDINGS, N_SIDE, odds_call, odds_call_table
from .bits import nth_bit, popcount, suit_mask
from .contract import MAX_DEALS, play_contract
from .deal import deal_hands
from .dispatch import choose_bid
from .families.bidding import choose_call, legal_calls
from .families.deal import deal_family_fixed
from .families.game import family_auction, family_deal, passed_out, play_called_hand
from .families.score import side_of as family_side
from .families.settle import count_hand
from .families.simulate import family_hand_fixed
from .families.simulate import hand_scratch as family_scratch
from .families.tables import (
    ALL_PASS_REDEAL,
    F_ALL_PASS,
    F_PARTNERSHIP,
)
from .hand import hand_scratch, points_won, score_hand, side_of
from .play import play_hand
from .rng import AUCTION_COUNTER, deal_key, draw, split_below
from .search.worlds import ALL_CARDS, HAND_SIZE, draw_world

CONTINUATION = 1 << 40  # deal indices of the rest of the game (samples < 2**30)
TREMBLE_COUNTER = AUCTION_COUNTER + 64  # after the calls' and the naming's counters
BLOCK = 256  # samples per parallel block

# What one candidate call led to in one sample (a row of ``play_call``'s output).
O_SIDE_PITCHED, O_MADE, O_SCORE, O_MARGIN, O_WON, O_TRUMP = 0, 1, 2, 3, 4, 5
N_OUTCOMES = 6


@njit(cache=True, inline="always")
def hand_only(n, seat, hand):
    """What the advised seat knows of the cards before play: only its own hand.  As
    the world resampler's constraint: (unseen cards, cards per seat, allowed cards)."""
    unseen = ALL_CARDS & ~hand
    counts = np.full(n, HAND_SIZE, dtype=np.int64)
    allowed = np.full(n, unseen, dtype=np.int64)
    return unseen, counts, allowed


@njit(cache=True, inline="always")
def deal_sample(key, n, seat, hand, unseen, counts, allowed, dealt):
    """Sample ``key``'s deal: the unseen cards dealt to the other seats by the one world
    resampler (``search.worlds``), attempt 0 of the sample's own stream.  With no voids
    to respect every attempt is kept, and every deal equally likely; the calls heard
    are the accept hook on top (``calls_fit``)."""
    draw_world(key, 0, n, seat, hand, unseen, counts, allowed, dealt)


@njit(cache=True, inline="always")
def calls_fit(dealt, n, dealer, heard, m, scores, bidding, rules, odds, params, key, calls):
    """The accept hook: would the first ``m`` callers, bidding by their policies on the
    cards in ``dealt``, make the calls ``heard[:m]``?  Fills ``calls[:m]`` on the way.

    Returns (fits, high bid, high bidder, his planned trump) of the heard calls.
    """
    high = 0
    high_seat = -1
    trump = -1
    for i in range(m):
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
        if call != heard[i]:
            return False, high, high_seat, trump
        calls[i] = call
        if call > 0:
            high = call
            high_seat = seat
            trump = suit
    return True, high, high_seat, trump


@njit(cache=True)
def finish_game(
    seed,
    sample,
    n,
    dealer,
    scores,
    bidding,
    play,
    rules,
    odds,
    params,
    hands,
    won,
    trick,
    deck,
    award,
):
    """Play the game on from ``scores`` with ``dealer`` dealing next, until a pitcher
    wins; return the winner (seat, or team in a partnership; -1: the deal limit)."""
    template = np.arange(52, dtype=np.int64)
    # Its own deal and calls: the caller's still hold the sample for its next call.
    dealt = np.empty(n, dtype=np.int64)
    calls = np.empty(n, dtype=np.int64)
    no_log = np.empty(0, dtype=np.int64)
    for d in range(MAX_DEALS):
        key = deal_key(seed, CONTINUATION + sample * MAX_DEALS + d)
        deal_hands(key, n, 0, 0, template, deck, dealt)  # a fresh deal, as in the game kernels
        pitcher, bid, trump = finish_auction(
            dealt, n, dealer, 0, calls, 0, -1, -1, scores, bidding, rules, odds, params, key
        )
        if pitcher < 0:
            continue  # thrown in: the same dealer deals again
        _, _, _, winner = play_contract(
            key,
            n,
            pitcher,
            bid,
            trump,
            -1,
            dealt,
            scores,
            play,
            rules,
            hands,
            won,
            trick,
            award,
            no_log,
        )
        if winner >= 0:
            return winner
        dealer = (dealer + 1) % n
    return -1


@njit(cache=True)
def play_call(
    seed,
    sample,
    key,
    n,
    seat,
    dealer,
    m,
    call,
    call_trump,
    heard_high,
    heard_seat,
    heard_trump,
    scores0,
    bidding,
    play,
    rules,
    odds,
    params,
    dealt,
    calls,
    scores,
    hands,
    won,
    trick,
    deck,
    award,
    out,
):
    """``seat`` (the m-th caller) makes ``call`` on the deal in ``dealt`` after the heard
    calls in ``calls[:m]``: the rest call, the hand is played and settled from
    ``scores0`` and the game played out.  ``call_trump`` is the seat's planned trump
    (-1: its play policy's opening lead).  Fills ``out`` (see the O_ constants): the
    seat's side pitched, made, the seat's score for the hand, its margin over the
    opponents (the average opponent in solo, the other team in a partnership), won the
    game (1, 0; -1 unfinished) and trump (-1: nobody pitched).
    """
    calls[m] = call
    high, high_seat, trump = heard_high, heard_seat, heard_trump
    if call > 0:
        high, high_seat, trump = call, seat, call_trump
    pitcher, bid, trump = finish_auction(
        dealt,
        n,
        dealer,
        m + 1,
        calls,
        high,
        high_seat,
        trump,
        scores0,
        bidding,
        rules,
        odds,
        params,
        key,
    )
    for s in range(n):
        scores[s] = scores0[s]
    side = side_of(seat, rules)
    winner = -1
    out[O_SIDE_PITCHED] = 0
    out[O_MADE] = 0
    out[O_TRUMP] = -1
    next_dealer = dealer  # all passed under the redeal variant: the same dealer again
    if pitcher >= 0:
        no_log = np.empty(0, dtype=np.int64)
        trump, _, made, winner = play_contract(
            key,
            n,
            pitcher,
            bid,
            trump,
            -1,
            dealt,
            scores,
            play,
            rules,
            hands,
            won,
            trick,
            award,
            no_log,
        )
        out[O_SIDE_PITCHED] = side_of(pitcher, rules) == side
        out[O_MADE] = made
        out[O_TRUMP] = trump
        next_dealer = (dealer + 1) % n
    mine = scores[seat] - scores0[seat]
    if rules[R_PARTNERSHIP] != 0:
        theirs = np.float64(scores[(seat + 1) % 4] - scores0[(seat + 1) % 4])
    else:
        theirs = 0.0
        for s in range(n):
            if s != seat:
                theirs += scores[s] - scores0[s]
        theirs /= n - 1
    out[O_SCORE] = mine
    out[O_MARGIN] = mine - theirs
    if winner < 0:
        winner = finish_game(
            seed,
            sample,
            n,
            next_dealer,
            scores,
            bidding,
            play,
            rules,
            odds,
            params,
            hands,
            won,
            trick,
            deck,
            award,
        )
    out[O_WON] = -1 if winner < 0 else (1 if winner == side else 0)


@njit(cache=True, inline="always")
def suit_points(key, n, seat, suit, dealt, play, rules, hands, won, trick, award):
    """Points the seat's side takes pitching the deal in ``dealt`` with ``suit`` as trump
    (every seat playing its play policy); -1 when the seat holds no card of the suit."""
    if dealt[seat] & suit_mask(suit) == 0:
        return -1
    no_log = np.empty(0, dtype=np.int64)
    trump = play_hand(dealt, n, seat, 0, suit, -1, play, rules, key, hands, won, trick, no_log)
    score_hand(dealt, won, n, trump, rules, award)
    return points_won(award, seat, rules)


@njit(cache=True, inline="always")
def bid_trump(points, kept, k):
    """The suit with the best expected score bidding k (points if made, -k if set) in
    the first ``kept`` rows of ``points`` (``pitch_suits``' table)."""
    best = -1e9
    best_suit = -1
    for s in range(4):
        if points[0, s] < 0:
            continue
        v = 0.0
        for j in range(kept):
            p = points[j, s]
            v += p if p >= k else -k
        if v > best:
            best = v
            best_suit = s
    return best_suit


@njit(cache=True)
def heard_auction(n, dealer, heard, rules):
    """The public auction before each heard call, when every call before it was made:
    rows (high bid, high bidder, lowest legal bid, may pass), one per heard call."""
    m = heard.size
    state = np.empty((m, 4), dtype=np.int64)
    high = 0
    high_seat = -1
    for i in range(m):
        lowest, can_pass = legal_range(high, i == n - 1, rules)
        state[i, 0] = high
        state[i, 1] = high_seat
        state[i, 2] = lowest
        state[i, 3] = can_pass
        if heard[i] > 0:
            high = heard[i]
            high_seat = (dealer + 1 + i) % n
    return state


@njit(cache=True)
def call_tables(n, dealer, heard, scores, bidding, rules, odds, params, value, call, beat, tabled):
    """The ``odds`` and ``odds-game`` callers' calls as tables (``odds_call_table``): for
    heard call i, ``value[i]``, ``call[i]`` and ``beat[i]``, and ``tabled[i]`` True.
    Other policies' callers are left to ``choose_bid`` (``tabled[i]`` False)."""
    state = heard_auction(n, dealer, heard, rules)
    for i in range(heard.size):
        s = (dealer + 1 + i) % n
        tabled[i] = bidding[s] == ODDS or bidding[s] == ODDS_GAME
        if tabled[i]:
            beat[i] = odds_call_table(
                s,
                n,
                dealer,
                i,
                state[i, 0],
                state[i, 1],
                state[i, 2],
                state[i, 3] != 0,
                scores,
                rules,
                odds,
                params,
                bidding[s] == ODDS_GAME,
                value[i],
                call[i],
            )


def no_tables(m: int) -> tuple:
    """``call_tables``' arrays with no caller tabled (``accept_deals`` asks the policies)."""
    return (
        np.empty((0, N_HOLDINGS, N_SIDE)),
        np.empty((0, N_HOLDINGS, N_SIDE), dtype=np.int8),
        np.empty(m),
        np.zeros(m, dtype=np.bool_),
    )


def odds_tables(n, dealer, heard, scores, bidding, rules, odds, params) -> tuple:
    """``call_tables`` for the heard calls: (value, call, beat, tabled)."""
    m = heard.size
    value = np.empty((m, N_HOLDINGS, N_SIDE))
    call = np.empty((m, N_HOLDINGS, N_SIDE), dtype=np.int8)
    beat = np.empty(m)
    tabled = np.zeros(m, dtype=np.bool_)
    call_tables(n, dealer, heard, scores, bidding, rules, odds, params, value, call, beat, tabled)
    return value, call, beat, tabled


@njit(cache=True, inline="always")
def deal_fits(
    key,
    n,
    seat,
    hand,
    unseen,
    dealer,
    heard,
    state,
    scores,
    bidding,
    rules,
    odds,
    params,
    value,
    call_of,
    beat,
    tabled,
    dealt,
):
    """Does sample ``key``'s deal fit the calls ``heard``?  Sequential rejection: the
    other seats are dealt in ``deal_sample``'s order and with its draws (so the deal is
    the same card for card), and each caller's call is checked as soon as his hand is
    dealt: a call that does not fit stops the dealing.  ``state``: ``heard_auction``;
    a caller ``tabled`` is answered from ``call_tables``' tables (the same call)."""
    m = heard.size
    dealt[seat] = hand
    free = unseen
    left = popcount(unseen)
    k = 0
    for s in range(n):
        if s == seat:
            continue
        # draw_world, attempt 0, no voids: seat k in seat order takes a uniform six of
        # the free cards from the draws at counter k (and every attempt is kept).
        r = draw(key, k)
        cards = np.int64(0)
        pool = free
        a = left
        for _ in range(HAND_SIZE):
            i, r = split_below(r, a)
            b = nth_bit(pool, i)
            pool ^= b
            cards |= b
            a -= 1
        dealt[s] = cards
        free &= ~cards
        left -= HAND_SIZE
        k += 1
        i = (s - dealer - 1) % n  # the seat's place in the calling order
        if i < m and tabled[i]:
            if odds_call(cards, value[i], call_of[i], beat[i]) != heard[i]:
                return False
        elif i < m:
            call, _ = choose_bid(
                bidding[s],
                cards,
                s,
                n,
                dealer,
                heard,
                i,
                state[i, 0],
                state[i, 1],
                state[i, 2],
                state[i, 3] != 0,
                scores,
                rules,
                odds,
                params,
                key,
                AUCTION_COUNTER + i,
            )
            if call != heard[i]:
                return False
    return True


@njit(cache=True, parallel=True, nogil=True)
def accept_deals(
    seed,
    start,
    count,
    n,
    seat,
    hand,
    dealer,
    heard,
    scores,
    bidding,
    rules,
    odds,
    params,
    value,
    call,
    beat,
    tabled,
    out_fits,
):
    """``out_fits[i]``: does deal ``start + i`` fit the calls ``heard``?  ``value``,
    ``call``, ``beat``, ``tabled``: ``odds_tables`` or ``no_tables`` (the same answer;
    tables answer an odds caller in a few lookups, worth building for many deals)."""
    blocks = (count + BLOCK - 1) // BLOCK
    unseen = ALL_CARDS & ~hand
    state = heard_auction(n, dealer, heard, rules)
    for b in prange(blocks):
        dealt = np.empty(n, dtype=np.int64)
        for i in range(b * BLOCK, min(count, (b + 1) * BLOCK)):
            key = deal_key(seed, start + i)
            out_fits[i] = deal_fits(
                key,
                n,
                seat,
                hand,
                unseen,
                dealer,
                heard,
                state,
                scores,
                bidding,
                rules,
                odds,
                params,
                value,
                call,
                beat,
                tabled,
                dealt,
            )


@njit(cache=True, parallel=True, nogil=True)
def pitch_suits(seed, samples, n, seat, hand, play, rules, out_suit):
    """``out_suit[j, s]``: the points the seat's side takes pitching kept deal j
    (``samples``: their deal numbers) with suit s as trump (-1: not held)."""
    count = samples.size
    blocks = (count + BLOCK - 1) // BLOCK
    unseen, counts, allowed = hand_only(n, seat, hand)
    for b in prange(blocks):
        dealt, hands, won, trick, deck, award = hand_scratch(n)
        for j in range(b * BLOCK, min(count, (b + 1) * BLOCK)):
            key = deal_key(seed, samples[j])
            deal_sample(key, n, seat, hand, unseen, counts, allowed, dealt)
            for s in range(4):
                out_suit[j, s] = suit_points(
                    key, n, seat, s, dealt, play, rules, hands, won, trick, award
                )


@njit(cache=True, parallel=True, nogil=True)
def evaluate_calls(
    seed,
    samples,
    n,
    seat,
    hand,
    dealer,
    heard,
    candidates,
    candidate_trump,
    scores,
    bidding,
    play,
    rules,
    odds,
    params,
    out,
):
    """Play every candidate call in every kept deal (``samples``: their deal numbers);
    ``out[j, c]`` is ``play_call``'s row for kept deal j and candidate c."""
    m = heard.size
    count = samples.size
    blocks = (count + BLOCK - 1) // BLOCK
    unseen, counts, allowed = hand_only(n, seat, hand)
    for b in prange(blocks):
        dealt, hands, won, trick, deck, award = hand_scratch(n)
        calls = np.empty(n, dtype=np.int64)
        scores_now = np.empty(n, dtype=np.int64)
        for j in range(b * BLOCK, min(count, (b + 1) * BLOCK)):
            key = deal_key(seed, samples[j])
            deal_sample(key, n, seat, hand, unseen, counts, allowed, dealt)
            _, high, high_seat, trump = calls_fit(
                dealt, n, dealer, heard, m, scores, bidding, rules, odds, params, key, calls
            )
            for c in range(candidates.size):
                play_call(
                    seed,
                    samples[j],
                    key,
                    n,
                    seat,
                    dealer,
                    m,
                    candidates[c],
                    candidate_trump[c],
                    high,
                    high_seat,
                    trump,
                    scores,
                    bidding,
                    play,
                    rules,
                    odds,
                    params,
                    dealt,
                    calls,
                    scores_now,
                    hands,
                    won,
                    trick,
                    deck,
                    award,
                    out[j, c],
                )


# ---------------------------------------------------------------- every preset
#
# The same question under any preset, auction-pitch included, as ``FamilyRules``
# through the family kernels (``kernels.families``): the deal is the family deal with
# the seat's hand fixed (``deal_family_fixed``: jokers, 9 or 10 cards, the stock in
# order), the calls are the family auction's (``families.bidding``: the shoot, the
# dealer-steal variants, all-pass), the hand is named, drawn, played, scored and
# settled as ``families.game.family_deal`` does it, and the game is played on by
# ``family_deal`` until a side wins under the preset's target and win rule
# (``families.settle.winners``).  The streams are those of the base engine above: deal
# ``sample`` from (seed, sample), the rest of the game from (seed, CONTINUATION +
# sample * MAX_DEALS + d), so two calls are compared on the same cards.  Rejection is
# plain (the whole deal, then the heard calls): the family deal draws its runs in
# dealing order, and the seat's run sits among them.
#
# The tremble model: a model that never makes a call heard with any hand (the odds
# model never passes as the first caller of a partnership auction-pitch, where a bid of
# 1 with the partner's help beats a defender's points) leaves no deal to keep.  A
# player's slip explains it: with chance ``tremble`` a caller makes the call heard
# whatever his policy makes, so a deal is kept with chance tremble ** (the calls that
# do not fit), which is rejection sampling from the deals' likelihood under that
# model.  ``advise`` asks it only when the plain model keeps too few deals.


@njit(cache=True, inline="always")
def heard_high(n, dealer, heard):
    """(the highest call heard, its seat; -1: all passed so far)."""
    high = 0
    high_seat = -1
    for i in range(heard.size):
        if heard[i] != 0:
            high = max(high, heard[i])
            high_seat = (dealer + 1 + i) % n
    return high, high_seat


@njit(cache=True, inline="always")
def slipped(key, i, tremble):
    """Does the caller of heard call ``i`` make it though his policy makes another?  With
    chance ``tremble`` (the tremble model, below)."""
    if tremble <= 0.0:
        return False
    return (draw(key, TREMBLE_COUNTER + i) >> np.uint64(11)) * 2.0**-53 < tremble


@njit(cache=True, inline="always")
def family_heard_fit(
    key, n, seat, hand, dealer, heard, scores, bidders, fr, tab, odds, defender, tremble, deck,
    dealt,
):  # fmt: skip
    """Deal sample ``key`` with ``hand`` in ``seat`` and make the first ``heard.size``
    calls by the callers' bidding policies.  Returns (fits, pack size): fits when every
    call is the one heard, or, under a ``tremble`` above 0, when each call that is not
    passes the tremble's draw (``slipped``)."""
    size = deal_family_fixed(key, n, dealer, seat, hand, fr, deck, dealt)
    high = 0
    high_seat = -1
    for i in range(heard.size):
        s = (dealer + 1 + i) % n
        legal = legal_calls(high, s == dealer, scores[s] >= 0, fr)
        call = choose_call(
            bidders[s],
            dealt[s],
            s,
            n,
            dealer,
            high,
            high_seat,
            legal,
            scores,
            fr,
            tab,
            odds,
            defender,
            key,
            AUCTION_COUNTER + i,
        )
        if call != heard[i] and not slipped(key, i, tremble):
            return False, size
        if heard[i] != 0:
            high = max(high, heard[i])
            high_seat = s
    return True, size


@njit(cache=True, parallel=True, nogil=True)
def family_accept_deals(
    seed,
    start,
    count,
    n,
    seat,
    hand,
    dealer,
    heard,
    scores,
    bidders,
    fr,
    tab,
    odds,
    defender,
    tremble,
    out_fits,
):
    """``out_fits[i]``: does deal ``start + i`` fit the calls ``heard`` (under the
    ``tremble``: ``family_heard_fit``)?"""
    blocks = (count + BLOCK - 1) // BLOCK
    for b in prange(blocks):
        deck = np.empty(54, dtype=np.int64)
        dealt = np.empty(n, dtype=np.int64)
        for i in range(b * BLOCK, min(count, (b + 1) * BLOCK)):
            key = deal_key(seed, start + i)
            out_fits[i] = family_heard_fit(
                key,
                n,
                seat,
                hand,
                dealer,
                heard,
                scores,
                bidders,
                fr,
                tab,
                odds,
                defender,
                tremble,
                deck,
                dealt,
            )[0]


@njit(cache=True, inline="always")
def family_suit_row(
    key,
    n,
    dealer,
    seat,
    hand,
    suits,
    players,
    fr,
    tab,
    deck,
    dealt,
    held,
    hands,
    won,
    trick,
    tseats,
    award,
    points,
    junk,
    row,
):
    """``row[s]``: the points the seat's side takes pitching deal ``key`` with suit s as
    trump (named; under first-lead its first lead of that suit), by
    ``family_hand_fixed`` on the same deal; -1 for a suit not in ``suits`` (a mask)."""
    no_log = junk[:0]
    for s in range(4):
        if not suits >> s & 1:
            row[s] = -1
            continue
        family_hand_fixed(
            key,
            n,
            dealer,
            seat,
            0,
            hand,
            s,
            players,
            fr,
            tab,
            deck,
            dealt,
            held,
            hands,
            won,
            trick,
            tseats,
            award,
            points,
            no_log,
            no_log,
            junk,
        )
        row[s] = points[seat]


@njit(cache=True, parallel=True, nogil=True)
def family_pitch_suits(seed, samples, n, seat, hand, dealer, suits, players, fr, tab, out_suit):
    """``out_suit[j]``: ``family_suit_row`` of kept deal j."""
    count = samples.size
    blocks = (count + BLOCK - 1) // BLOCK
    for b in prange(blocks):
        deck, dealt, held, hands, won, trick, tseats, award, points, junk = family_scratch(n)
        for j in range(b * BLOCK, min(count, (b + 1) * BLOCK)):
            family_suit_row(
                deal_key(seed, samples[j]),
                n,
                dealer,
                seat,
                hand,
                suits,
                players,
                fr,
                tab,
                deck,
                dealt,
                held,
                hands,
                won,
                trick,
                tseats,
                award,
                points,
                junk,
                out_suit[j],
            )


@njit(cache=True)
def family_finish_game(
    seed,
    sample,
    n,
    dealer,
    scores,
    bidders,
    players,
    fr,
    tab,
    odds,
    defender,
    deck,
    dealt,
    held,
    hands,
    won,
    trick,
    tseats,
    award,
    points,
    change,
    calls,
    call_legal,
    junk,
    counted,
):
    """Play the game on from ``scores`` with ``dealer`` dealing next, deal by deal as
    ``family_deal`` plays them, until a side wins; the winners as a side mask (0: the
    deal limit).  ``counted``: the hands already counted toward hands=N (12.4), of the
    ``fr[F_HANDS]`` the game has left."""
    no_log = junk[:0]
    for d in range(MAX_DEALS):
        key = deal_key(seed, CONTINUATION + sample * MAX_DEALS + d)
        pitcher, _, _, _, _, _, _, _, won_by = family_deal(
            key,
            n,
            dealer,
            scores,
            bidders,
            players,
            fr,
            tab,
            odds,
            defender,
            deck,
            dealt,
            held,
            hands,
            won,
            trick,
            tseats,
            award,
            points,
            change,
            calls,
            call_legal,
            no_log,
            no_log,
            junk,
        )
        counted, won_by = count_hand(pitcher, won_by, counted, scores, n, fr)
        if won_by != 0:
            return won_by
        if pitcher >= 0 or fr[F_ALL_PASS] != ALL_PASS_REDEAL:
            dealer = (dealer + 1) % n
    return np.int64(0)


@njit(cache=True)
def family_play_calls(
    seed,
    sample,
    n,
    seat,
    hand,
    dealer,
    heard,
    candidates,
    candidate_trump,
    scores0,
    bidders,
    players,
    fr,
    tab,
    odds,
    defender,
    deck,
    dealt,
    held,
    hands,
    won,
    trick,
    tseats,
    award,
    points,
    junk,
    deck2,
    dealt2,
    change,
    calls,
    call_legal,
    scores,
    out,
):
    """Play every candidate call in deal ``sample``: ``out[c]`` is the row (the O_
    constants) of candidate c, as ``play_call``'s.  The seat makes the call, the later
    seats call by their policies, the hand is played and settled, by ``family_deal``'s
    own steps (``families.game``: ``family_auction`` from the next seat on, then
    ``passed_out`` or ``play_called_hand``), and the game played on; won is 1 when the
    seat's side is among the winners.  ``candidate_trump[c]``:
    the seat's planned trump when it pitches at call c (-1: its policies choose).  The
    rest of the game deals into ``deck2``/``dealt2``: this deal's stay for the next
    candidate."""
    m = heard.size
    no_log = junk[:0]
    key = deal_key(seed, sample)
    # A kept deal: its calls are the ones heard (fitted, or slipped under a tremble).
    size = deal_family_fixed(key, n, dealer, seat, hand, fr, deck, dealt)
    high0, high_seat0 = heard_high(n, dealer, heard)
    side = family_side(seat, fr)
    for i in range(m):
        calls[i] = heard[i]
    for c in range(candidates.size):
        o = out[c]
        high = high0
        high_seat = high_seat0
        plan = np.int64(-1)
        if candidates[c] != 0:
            high = candidates[c]
            high_seat = seat
            plan = candidate_trump[c]
        calls[m] = candidates[c]
        for s in range(n):
            scores[s] = scores0[s]
        pitcher, bid, shoot, plan = family_auction(
            key, n, dealer, scores, bidders, fr, tab, odds, defender, 0, m + 1, high,
            high_seat, plan, dealt, points, change, calls, call_legal,
        )  # fmt: skip
        made = False
        trump = -1
        if pitcher < 0:
            won_by = passed_out(n, dealer, scores, change, fr)
        else:
            for s in range(n):
                held[s] = dealt[s]
            trump, made, _, _, won_by = play_called_hand(
                key, n, dealer, pitcher, bid, shoot, plan, scores, bidders, players, fr, tab,
                size, deck, dealt, held, hands, won, trick, tseats, award, points, change,
                no_log, no_log, junk,
            )  # fmt: skip
        # the side that won the auction (the dealer pitching at 0 after all passed,
        # 12.12, did not)
        o[O_SIDE_PITCHED] = bid > 0 and family_side(pitcher, fr) == side
        o[O_MADE] = made
        o[O_TRUMP] = trump
        mine = scores[seat] - scores0[seat]
        if fr[F_PARTNERSHIP] != 0:
            theirs = np.float64(scores[(seat + 1) % n] - scores0[(seat + 1) % n])
        else:
            theirs = 0.0
            for s in range(n):
                if s != seat:
                    theirs += scores[s] - scores0[s]
            theirs /= n - 1
        o[O_SCORE] = mine
        o[O_MARGIN] = mine - theirs
        # 12.4: under hands=N, ``fr[F_HANDS]`` is the hands left, this one the first
        counted, won_by = count_hand(pitcher, won_by, np.int64(0), scores, n, fr)
        if won_by == 0:
            after = dealer
            if pitcher >= 0 or fr[F_ALL_PASS] != ALL_PASS_REDEAL:
                after = (dealer + 1) % n
            won_by = family_finish_game(
                seed,
                sample,
                n,
                after,
                scores,
                bidders,
                players,
                fr,
                tab,
                odds,
                defender,
                deck2,
                dealt2,
                held,
                hands,
                won,
                trick,
                tseats,
                award,
                points,
                change,
                calls,
                call_legal,
                junk,
                counted,
            )
        o[O_WON] = -1 if won_by == 0 else (won_by >> side) & 1


@njit(cache=True, parallel=True, nogil=True)
def family_evaluate_calls(
    seed,
    samples,
    n,
    seat,
    hand,
    dealer,
    heard,
    candidates,
    candidate_trump,
    scores0,
    bidders,
    players,
    fr,
    tab,
    odds,
    defender,
    out,
):
    """``out[j]``: ``family_play_calls`` of kept deal j."""
    count = samples.size
    blocks = (count + BLOCK - 1) // BLOCK
    for b in prange(blocks):
        deck, dealt, held, hands, won, trick, tseats, award, points, junk = family_scratch(n)
        deck2 = np.empty(54, dtype=np.int64)
        dealt2 = np.empty(n, dtype=np.int64)
        change = np.empty(n, dtype=np.int64)
        calls = np.empty(n, dtype=np.int64)
        call_legal = np.empty(n, dtype=np.int64)
        scores = np.empty(n, dtype=np.int64)
        for j in range(b * BLOCK, min(count, (b + 1) * BLOCK)):
            family_play_calls(
                seed,
                samples[j],
                n,
                seat,
                hand,
                dealer,
                heard,
                candidates,
                candidate_trump,
                scores0,
                bidders,
                players,
                fr,
                tab,
                odds,
                defender,
                deck,
                dealt,
                held,
                hands,
                won,
                trick,
                tseats,
                award,
                points,
                junk,
                deck2,
                dealt2,
                change,
                calls,
                call_legal,
                scores,
                out[j],
            )
