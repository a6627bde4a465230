"""The advisor's engine under every preset, the base game (auction-pitch) included: deals
that fit the calls heard, and one seat's every call played out to the end of the game,
through the family kernels (``pitchsim.kernels``).

A *sample* is one deal with the advised seat's hand fixed (``deal_cards_fixed``:
jokers, 9 or 10 cards, the stock in order).  It is kept only if every earlier caller,
bidding by the *model* policy, would make the call he made (rejection sampling: plain,
the whole deal then the heard calls, since the family deal draws its runs in dealing
order and the seat's run sits among them), so the kept deals are uniform among those
the model makes the heard calls with.  A caller's call depends only on his own hand
and the public auction before it (the calls heard, the scores, the rules, and for
``random`` the sample's own stream).

Each kept deal is then played once per candidate call: the seat makes it, the later
seats call by the model (``bidding.calls``: the shoot, the dealer-steal variants,
all-pass), the hand is named, drawn, played, scored and settled as
``game.play_deal`` does it, and the game is played on by ``play_deal``
until a side wins under the preset's target and win rule (``settle.winners``).

Sample i of a seed deals from the stream (seed, i); the deals after it in the same game
use (seed, CONTINUATION + i * MAX_DEALS + d), the same for every candidate call, so two
calls are compared on the same cards (common random numbers) and every answer is the
same on any thread count.

The tremble model: a model that never makes a call heard with any hand (the odds model
never passes as the first caller of a partnership auction-pitch, where a bid of 1 with
the partner's help beats a defender's points) leaves no deal to keep.  A player's slip
explains it: with chance ``tremble`` a caller makes the call heard whatever his policy
makes, so a deal is kept with chance tremble ** (the calls that do not fit), which is
rejection sampling from the deals' likelihood under that model.  ``advise`` asks it
only when the plain model keeps too few deals.

The model cannot be the advisor itself: the family bidding arrays this engine is given
are plain (int64), so its auctions compile without the advisor
(``bidding.calls.seat_call``), which is what lets the ``advisor`` bidding policy
(``kernels.advisor``, above this module) run this engine from inside the game kernels'
auction.
"""

import numpy as np
from numba import njit, prange

from .bidding.calls import choose_call, legal_calls
from .contract import MAX_DEALS
from .deal import deal_cards_fixed
from .game import bidding_round, passed_out, play_called_hand, play_deal
from .presets import (
    ALL_PASS_REDEAL,
    F_ALL_PASS,
    F_PARTNERSHIP,
)
from .rng import AUCTION_COUNTER, deal_key, draw
from .score import side_of
from .settle import count_hand
from .simulate import hand_scratch, study_hand_fixed

CONTINUATION = 1 << 40  # deal indices of the rest of the game (samples < 2**30)
TREMBLE_COUNTER = AUCTION_COUNTER + 64  # after the calls' and the naming's counters
BLOCK = 256  # samples per parallel block

# What one candidate call led to in one sample (a row of ``play_calls``' output):
# the seat's side won the auction, made its bid, the seat's score for the hand, its
# margin over the opponents (the average opponent in solo, the other side in a
# partnership), won the game (1, 0; -1 unfinished) and trump (-1: nobody pitched).
O_SIDE_PITCHED, O_MADE, O_SCORE, O_MARGIN, O_WON, O_TRUMP = 0, 1, 2, 3, 4, 5
N_OUTCOMES = 6


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


@njit(cache=True, inline="always")
def heard_high(n, dealer, heard):
    """(the highest call heard, its seat; -1: all passed so far)."""
    high = np.int64(0)
    high_seat = np.int64(-1)
    for i in range(heard.size):
        if heard[i] != 0:
            high = max(high, heard[i])
            high_seat = (dealer + 1 + i) % n
    return high, high_seat


@njit(cache=True, inline="always")
def slipped(key, i, tremble):
    """Does the caller of heard call ``i`` make it though his policy makes another?  With
    chance ``tremble`` (the module's tremble model)."""
    if tremble <= 0.0:
        return False
    return (draw(key, TREMBLE_COUNTER + i) >> np.uint64(11)) * 2.0**-53 < tremble


@njit(cache=True, inline="always")
def heard_fit(
    key, n, seat, hand, dealer, heard, scores, bidders, fr, tab, odds, defender, tremble, deck,
    dealt,
):  # fmt: skip
    """Deal sample ``key`` with ``hand`` in ``seat`` and make the first ``heard.size``
    calls by the callers' bidding policies.  Returns (fits, pack size): fits when every
    call is the one heard, or, under a ``tremble`` above 0, when each call that is not
    passes the tremble's draw (``slipped``)."""
    size = deal_cards_fixed(key, n, dealer, seat, hand, fr, deck, dealt)
    high = np.int64(0)
    high_seat = np.int64(-1)
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
    bidders,
    fr,
    tab,
    odds,
    defender,
    tremble,
    out_fits,
):
    """``out_fits[i]``: does deal ``start + i`` fit the calls ``heard`` (under the
    ``tremble``: ``heard_fit``)?"""
    blocks = (count + BLOCK - 1) // BLOCK
    for b in prange(blocks):
        deck = np.empty(54, dtype=np.int64)
        dealt = np.empty(n, dtype=np.int64)
        for i in range(b * BLOCK, min(count, (b + 1) * BLOCK)):
            key = deal_key(seed, start + i)
            out_fits[i] = heard_fit(
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
def suit_row(
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
    ``study_hand_fixed`` on the same deal; -1 for a suit not in ``suits`` (a mask)."""
    no_log = junk[:0]
    for s in range(4):
        if not suits >> s & 1:
            row[s] = -1
            continue
        study_hand_fixed(
            key,
            n,
            dealer,
            seat,
            np.int64(0),
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
def pitch_suits(seed, samples, n, seat, hand, dealer, suits, players, fr, tab, out_suit):
    """``out_suit[j]``: ``suit_row`` of kept deal j."""
    count = samples.size
    blocks = (count + BLOCK - 1) // BLOCK
    for b in prange(blocks):
        deck, dealt, held, hands, won, trick, tseats, award, points, junk = hand_scratch(n)
        for j in range(b * BLOCK, min(count, (b + 1) * BLOCK)):
            suit_row(
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
def finish_game(
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
    ``play_deal`` plays them, until a side wins; the winners as a side mask (0: the
    deal limit).  ``counted``: the hands already counted toward hands=N (12.4), of the
    ``fr[F_HANDS]`` the game has left."""
    no_log = junk[:0]
    for d in range(MAX_DEALS):
        key = deal_key(seed, CONTINUATION + sample * MAX_DEALS + d)
        pitcher, _, _, _, _, _, _, _, won_by = play_deal(
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
def play_calls(
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
    constants) of candidate c.  The seat makes the call, the later
    seats call by their policies, the hand is played and settled, by ``play_deal``'s
    own steps (``game``: ``bidding_round`` from the next seat on, then
    ``passed_out`` or ``play_called_hand``), and the game played on; won is 1 when the
    seat's side is among the winners.  ``candidate_trump[c]``:
    the seat's planned trump when it pitches at call c (-1: its policies choose).  The
    rest of the game deals into ``deck2``/``dealt2``: this deal's stay for the next
    candidate."""
    m = heard.size
    no_log = junk[:0]
    key = deal_key(seed, sample)
    # A kept deal: its calls are the ones heard (fitted, or slipped under a tremble).
    size = deal_cards_fixed(key, n, dealer, seat, hand, fr, deck, dealt)
    high0, high_seat0 = heard_high(n, dealer, heard)
    side = side_of(seat, fr)
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
        pitcher, bid, shoot, plan = bidding_round(
            key, n, dealer, scores, bidders, fr, tab, odds, defender, np.int64(0), m + 1, high,
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
        o[O_SIDE_PITCHED] = bid > 0 and side_of(pitcher, fr) == side
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
            won_by = finish_game(
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
    scores0,
    bidders,
    players,
    fr,
    tab,
    odds,
    defender,
    out,
):
    """``out[j]``: ``play_calls`` of kept deal j."""
    count = samples.size
    blocks = (count + BLOCK - 1) // BLOCK
    for b in prange(blocks):
        deck, dealt, held, hands, won, trick, tseats, award, points, junk = hand_scratch(n)
        deck2 = np.empty(54, dtype=np.int64)
        dealt2 = np.empty(n, dtype=np.int64)
        change = np.empty(n, dtype=np.int64)
        calls = np.empty(n, dtype=np.int64)
        call_legal = np.empty(n, dtype=np.int64)
        scores = np.empty(n, dtype=np.int64)
        for j in range(b * BLOCK, min(count, (b + 1) * BLOCK)):
            play_calls(
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
