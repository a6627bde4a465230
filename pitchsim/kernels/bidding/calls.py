"""The auction of a family hand in kernels: the legal calls and the bidding policies.

Calls are ints as in the reference engine (``pitchsim.game.reference.auction``): 0
pass, 1 up to the maximum bid, and the maximum bid plus one for a shoot.  The legal
calls are a bit mask (bit c: call c), built exactly as the reference's ``legal_calls``
(VARIANTS.md 0.2, 1.4, 2.3-2.6, 3.3, 3.4, 4.4, 4.5, 6.1 all-pass, dealer-steal, shoot,
6.3.4).

Bidding policies (ids ``BID_RANDOM``, ``BID_HEURISTIC``, ``BID_ODDS``, ``BID_ODDS_GAME``,
``BID_ADVISOR``); each also names trump under trump=named (``name_suit``):

- ``random``: a legal call uniformly; names the suit of a random card it holds.
- ``heuristic``: counts the points the hand should take with each suit as trump
  (``expected_take``) and bids that count, rounded, when legal; names its best suit.
  The count knows the family's points through the tables: High and Low from the ranked
  trumps above and below its own, each point card held (the jack, the jick, the
  jokers, the 10 under game=ten, the 3, the 5) kept by the trumps guarding it, point
  cards not held caught by its high trumps, and Game by count.  How many unseen cards
  are in play comes from the deal: 6 each without a draw; with a draw and the rob
  nearly every trump is in play.
- ``odds``: reads the family's table of P(the pitcher's side takes at least k points)
  by the heuristic count of its best suit and which of that suit's top and bottom
  ranked trumps it holds (``odds_row``; ``scripts/make_bid_table.py``):
  the expected score of each bid k (made: the points won; set: minus k, less, when
  solo, the points the set pitcher kept from its rivals: ``bid_value``), weighed by
  the chance that no opponent still to call outbids it (from the share of random
  hands worth each bid, the table's last row), against a defender's mean points
  (``odds_call``).
- ``odds-game``: ``odds`` with the game situation (the base game's ``odds-game``, one
  valuation: ``kernels.bidding.odds.contract_value``), from the preset's target and
  win rule and the scores: a bid made (or, under set-pitcher-wins, set) that takes the
  pitcher's side to the target wins, worth a target's worth of points times the win
  chance it adds over an even share (``target (1 - 1/sides)``); under pitcher-first and
  highest a rival side reaches the target on the points the pitcher's side left it
  (the hand's points less its own, shared among the rival sides) unless the pitcher's
  side went out first (pitcher-first) or stays above it (highest), costing the even
  share ``target / sides`` (``game_situation``).  Passing: under win=pitcher an
  opponent's high bid that would take him to the target costs that share times the
  chance a bid of that size is made (the table's ``MADE_ROW``); under pitcher-first
  and highest the defenders' points (their mean) may take our side or a rival out
  (``pass_situation``).  Far from the target it calls as ``odds`` does.
- ``advisor``: every legal call played out to the end of the game over sampled deals
  that fit the calls heard (``kernels.advice``'s family engine, the one ``pitchsim
  advise --rules PRESET`` runs), and the best by P(win the game); with the call, the
  trump it plans (named, or led in under trump=first-lead).  It sits above this
  module (it runs auctions itself), so its branch is declared here (``advisor_call``)
  and supplied by ``kernels.advisor`` when imported, compiled only for bidding-policy
  arrays of ``ADVISOR_DTYPE`` (int32, ``table.boards.seat_ids``): its own auctions
  (int64) never reach it and numba never meets a recursive kernel.  It needs the
  calls heard, so it is asked through ``seat_call``; ``choose_call`` refuses it.

Shared by both counting policies: the dealer stuck (no pass) bids the cheapest legal
bid; under all-pass=dealer-set the dealer facing all passes bids the cheapest bid when
it costs no more than the penalty (2) when set; nobody outbids a partner's high bid.
"""

import numpy as np
from numba import njit, types
from numba.extending import overload

from ..bits import lowest_card, nth_card, popcount
from ..deal import cards_each, pack_mask
from ..presets import (
    ALL_PASS_DEALER_SET,
    ALL_PASS_FORCED,
    F_ALL_PASS,
    F_DEALER_STEAL,
    F_DISCARD,
    F_FIVE,
    F_FOLLOW,
    F_GAME_TEN,
    F_JICK,
    F_JOKERS,
    F_LOW_DEALT,
    F_MAX_BID,
    F_MIN_BID,
    F_PARTNERSHIP,
    F_ROB,
    F_SET_PITCHER_WINS,
    F_SHOOT,
    F_TARGET,
    F_THREE,
    F_WIN,
    STEAL_MAX,
    STEAL_YES,
    T_ABOVE,
    T_BELOW,
    T_POINTS,
    T_RANKED,
    T_TRUMPS,
    T_VALUE,
    WIN_HIGHEST,
    WIN_PITCHER,
)
from ..rng import AUCTION_COUNTER, below
from ..trump_order import trump_ends
from .odds import NO_RIVAL, contract_value

BID_RANDOM, BID_HEURISTIC, BID_ODDS, BID_ODDS_GAME, BID_ADVISOR = 0, 1, 2, 3, 4
BIDDING_IDS = {
    "random": BID_RANDOM,
    "heuristic": BID_HEURISTIC,
    "odds": BID_ODDS,
    "odds-game": BID_ODDS_GAME,
    "advisor": BID_ADVISOR,
}
ODDS_BIDDERS = ("odds", "odds-game")  # the bidders that read the family's odds table
PASS = 0
FORCED_DEALER_MIN = 2  # all-pass=forced: at least the larger of 2 and min-bid (6.1)
DEALER_SET_PENALTY = 2  # 3.4
NAME_COUNTER = 32  # after the calls' counters, in the auction's range
ALL_52 = np.int64((1 << 52) - 1)
SIDE_ACES = np.int64(sum(1 << (s * 13 + 12) for s in range(4)))
SIDE_TENS = np.int64(sum(1 << (s * 13 + 8) for s in range(4)))
N_BUCKETS = 24  # the heuristic count in half points, 0 .. 11.5+
# Per bucket, whether the hand holds the pack's top ranked trump (High) and its bottom
# one (Low): hands of one count differ in how sure their points are (smear 4 players,
# count 1.5-2: P(at least 2) is 0.39 holding the 2 of trump, 0.60 holding the ace).
# With two sides (partnership, 2 players) the four holdings of a count share one row
# (make_bid_table).
N_CLASSES = 4
N_ROWS = N_BUCKETS * N_CLASSES  # odds table rows; row N_ROWS: the outbid shares
MADE_ROW = N_ROWS + 1  # M(k): how often a bid of k is made (by the hands worth k or more)
N_ODDS_ROWS = N_ROWS + 2
ROUND_UP = 0.2  # a count of k - 0.2 bids k (the base game's heuristic rule)


@njit(cache=True, inline="always")
def _span(lo, hi):
    """Calls lo..hi as a mask (empty when lo > hi)."""
    if lo > hi:
        return np.int64(0)
    return ((np.int64(1) << (hi + 1)) - 1) & ~((np.int64(1) << lo) - 1)


@njit(cache=True)
def legal_calls(high, dealer_to_call, may_shoot, fr):
    """The legal calls as a mask, ``high`` the highest call so far (0: none); 0 when
    the auction is over.  The reference's ``legal_calls``, clause for clause."""
    top = fr[F_MAX_BID]
    shoot = top + 1
    shoots = (np.int64(1) << shoot) if fr[F_SHOOT] != 0 and may_shoot else np.int64(0)
    pass_bit = np.int64(1)
    if high == shoot:
        return np.int64(0)  # 6.1: a shoot cannot be stolen and ends the auction
    if high == top:
        if fr[F_DEALER_STEAL] != STEAL_MAX:
            return np.int64(0)  # 1.4, 6.3.4: the maximum ends the auction at once
        if dealer_to_call:  # 2.4, 2.5
            return pass_bit | (np.int64(1) << top) | shoots
        return pass_bit | shoots
    if not dealer_to_call:
        return pass_bit | _span(max(high + 1, fr[F_MIN_BID]), top) | shoots
    if high == PASS:
        if fr[F_ALL_PASS] == ALL_PASS_FORCED:
            return _span(max(FORCED_DEALER_MIN, fr[F_MIN_BID]), top) | shoots
        return pass_bit | _span(fr[F_MIN_BID], top) | shoots  # 3.4, 4.5, 2.6
    lowest = high if fr[F_DEALER_STEAL] == STEAL_YES else high + 1
    return pass_bit | _span(lowest, top) | shoots


@njit(cache=True, inline="always")
def squares_of(q):
    """(q, q^2, q^4, q^8, q^16): what ``power_of`` multiplies in."""
    q2 = q * q
    q4 = q2 * q2
    q8 = q4 * q4
    return q, q2, q4, q8, q8 * q8


@njit(cache=True, inline="always")
def power_from(sq, k):
    """``q ** k`` for 0 <= k < 32 from ``squares_of(q)``, the very number numba's ``**``
    gives (its loop multiplies in the squares q, q^2, q^4 ... of k's bits, lowest
    first; so does this), without the loop's branches: a third of the count's time."""
    r = 1.0
    r *= sq[0] if k & 1 else 1.0
    r *= sq[1] if k & 2 else 1.0
    r *= sq[2] if k & 4 else 1.0
    r *= sq[3] if k & 8 else 1.0
    r *= sq[4] if k & 16 else 1.0
    return r


@njit(cache=True, inline="always")
def power_of(q, k):
    """``q ** k`` as numba's ``**`` gives it (``power_from``)."""
    return power_from(squares_of(q), k)


@njit(cache=True, inline="always")
def count_terms(n, fr):
    """What ``expected_take`` reads of the deal, the same for every hand and suit: the
    pack, the cards each, P(a given unseen trump is in play when the first card is
    led) and the squares of its complement (``squares_of``)."""
    pack = pack_mask(n, fr)
    each = cards_each(n, fr)
    if fr[F_DISCARD] == 0:
        p_in = each * (n - 1) / (popcount(pack) - each)
    elif fr[F_ROB] != 0:
        p_in = 0.95
    else:
        p_in = 0.8
    return pack, p_in, squares_of(1.0 - p_in)


@njit(cache=True, inline="always")
def expected_take(hand, t, n, fr, tab):
    """The points ``hand`` expects its side to take with suit ``t`` as trump."""
    return counted(hand, t, n, fr, tab, count_terms(n, fr))


@njit(cache=True, inline="always")
def counted(hand, t, n, fr, tab, terms):
    """``expected_take`` with the deal's ``count_terms`` worked out once a hand."""
    pack, p_in, sq = terms
    tm = tab[t, T_TRUMPS]
    trumps = hand & tm
    unseen = pack & ~hand
    partnership = fr[F_PARTNERSHIP] != 0
    count = 0.0
    ranked = trumps & tab[t, T_RANKED]
    if ranked:
        top, bottom = trump_ends(ranked, t)  # the top and bottom ranked trumps held
        unseen_ranked = unseen & tab[t, T_RANKED]
        count += power_from(sq, popcount(unseen_ranked & tab[t, T_ABOVE + top]))  # High
        low = power_from(sq, popcount(unseen_ranked & tab[t, T_BELOW + bottom]))
        count += low if fr[F_LOW_DEALT] != 0 else 0.8 * low  # Low: it must be captured
    # The point cards (jack, jick, jokers, the 10 under game=ten, the 3, the 5), each
    # kept (held) or caught (not held) with a chance.  Solo, one held is kept by its best
    # guard: one at most one unseen trump can beat 0.9, two 0.65, more 0.55, none 0.5
    # (the base game's count: the jack with the king or ace, the queen, bare); one not
    # held is caught by a trump above it in a hand of 2+ trumps, the likelier the
    # longer.  In a partnership the partner's trumps guard and catch too, and a linear
    # rule on the trumps above it (held and unseen) did better.  Measured paired on the
    # same boards against random+heuristic (``pitchsim tournament --rules R -s
    # X,random+heuristic --boards 20000 --seed 5 --threads 1``): the solo rule took
    # auction-pitch's heuristic from 86.1% to 87.2% (the base engine's own count: 87.1%)
    # and its odds from 89.1% to 89.4%; in setback it helped the heuristic (93.1%
    # against 92.6%) but cost the odds bidders 0.7 points (93.5% against 94.2%), so
    # partnerships keep the linear rule (92.7%, 94.2%).
    points = tab[t, T_POINTS] & pack
    unseen_trumps = unseen & tm
    length = popcount(trumps)
    m = points
    while m:
        c = lowest_card(m)
        m &= m - 1
        value = tab[t, T_VALUE + c]
        above = tab[t, T_ABOVE + c]
        if hand >> c & 1:
            if unseen_trumps & above == 0:
                p = 1.0
            elif partnership:
                p = 0.55 + 0.15 * popcount(trumps & above) - 0.03 * popcount(unseen_trumps & above)
                p += 0.1  # the partner's trumps
                p = min(0.92, max(0.2, p))
            else:
                beat = 99  # the fewest unseen trumps above one of its guards
                guards = trumps & above
                while guards:
                    g = lowest_card(guards)
                    guards &= guards - 1
                    beat = min(beat, popcount(unseen_trumps & tab[t, T_ABOVE + g]))
                p = 0.9 if beat <= 1 else 0.65 if beat == 2 else 0.55 if beat < 99 else 0.5
        elif partnership:
            p = p_in * min(0.8, 0.08 + 0.12 * popcount(trumps & above) + 0.2)
        else:
            p = p_in * min(
                0.8, 0.2 + 0.1 * min(length, 4) if trumps & above and length >= 2 else 0.0
            )
        count += value * p
    # Game by count (0.8): trumps, the 10 of trump, side aces and tens.
    if fr[F_GAME_TEN] == 0:
        game = 0.12 * length + 0.3 * ((trumps >> (t * 13 + 8)) & 1)
        if fr[F_DISCARD] == 0 and fr[F_FOLLOW] != 2:
            side = hand & ALL_52 & ~tm
            game += 0.12 * popcount(side & SIDE_ACES) + 0.05 * popcount(side & SIDE_TENS)
        sides = 2 if partnership else n
        game = min(0.9, game * 4.0 / sides + 0.05)
        count += game
    return count


@njit(cache=True)
def best_suit(hand, n, fr, tab):
    """(count, suit) of the hand's best trump suit by ``expected_take``."""
    terms = count_terms(n, fr)
    best = -1.0
    best_t = 0
    for t in range(4):
        c = counted(hand, t, n, fr, tab, terms)
        if c > best:
            best = c
            best_t = t
    return best, best_t


@njit(cache=True, inline="always")
def bucket_of(count):
    return min(N_BUCKETS - 1, max(0, int(count * 2.0)))


@njit(cache=True)
def holding_class(hand, t, n, fr, tab):
    """1 if ``hand`` holds the pack's top ranked trump of suit ``t``, plus 2 if it holds
    the bottom one."""
    ranked = tab[t, T_RANKED] & pack_mask(n, fr)
    if ranked == 0:
        return 0
    top, bottom = trump_ends(ranked, t)
    return (hand >> top & 1) + 2 * (hand >> bottom & 1)


@njit(cache=True)
def odds_row(hand, n, fr, tab):
    """(count, odds table row) of ``hand``'s best suit."""
    count, t = best_suit(hand, n, fr, tab)
    return count, row_of(count, t, hand, n, fr, tab)


@njit(cache=True, inline="always")
def row_of(count, t, hand, n, fr, tab):
    """The odds table row of ``hand`` counted ``count`` with suit ``t`` as trump."""
    return bucket_of(count) * N_CLASSES + holding_class(hand, t, n, fr, tab)


@njit(cache=True, inline="always")
def _lowest_bid(legal, top):
    """The cheapest legal bid (no pass, no shoot); -1: none."""
    bids = legal & _span(np.int64(1), top)
    return lowest_card(bids) if bids else -1


@njit(cache=True)
def _counted_call(worth, legal, seat, dealer, high_seat, fr):
    """The call of a counting policy worth ``worth`` points (see the module)."""
    top = fr[F_MAX_BID]
    cheapest = _lowest_bid(legal, top)
    if legal & 1 == 0:
        return cheapest if cheapest >= 0 else top + 1  # stuck: the cheapest bid
    if cheapest < 0:
        return PASS
    partner_high = fr[F_PARTNERSHIP] != 0 and high_seat >= 0 and high_seat % 2 == seat % 2
    if partner_high:
        return PASS  # never outbid the partner
    if seat == dealer:
        if (
            high_seat < 0
            and fr[F_ALL_PASS] == ALL_PASS_DEALER_SET
            and cheapest <= DEALER_SET_PENALTY
        ):
            return cheapest  # set costs no more than passing
        return cheapest if worth >= cheapest else PASS
    if worth < cheapest:
        return PASS
    return min(worth, top)


@njit(cache=True, inline="always")
def rival_weight(n, fr):
    """How much a point scored by the others counts against one's own when solo: the
    game is a race, so points are worth their lead over the rivals' mean, 1 / (n - 1)
    per rival point.  0 with two sides (partnership, 2 players): there the plain score
    played better (weight 1 lost 1-7 points of win rate against heuristic in setback,
    ten-point and smear, seed 17)."""
    return 0.0 if fr[F_PARTNERSHIP] != 0 or n == 2 else 1.0 / (n - 1)


@njit(cache=True, inline="always")
def row_distribution(b, top, odds, dist):
    """``dist[j]`` = P(the pitcher's side takes exactly j points), j = 0..top, from
    table row ``b`` (``odds[b, k - 1]`` = P(at least k points))."""
    for j in range(top + 1):
        at_least_j = 1.0 if j == 0 else odds[b, j - 1]
        more = odds[b, j] if j < top else 0.0
        dist[j] = max(0.0, at_least_j - more)


@njit(cache=True)
def bid_value(b, k, top, odds, w):
    """The expected score of a bid of ``k`` that stands, by table row ``b``, counted
    against the rivals (``rival_weight`` ``w``) and scaled back to the pitcher's own
    points: made (at least k points) scores the j points won; set scores -k (0.9), but
    the j points the pitcher took still went to no rival: (w j - k) / (1 + w); no game
    situation (``contract_value`` with no target)."""
    dist = np.empty(top + 1)
    row_distribution(b, top, odds, dist)
    return contract_value(
        dist, k, 0.0, np.inf, 0.0, False, w, True, NO_RIVAL, np.int64(0), 0.0, 0.0
    )


@njit(cache=True)
def hand_points(fr):
    """The points a hand awards (0.7, 0.8): High, Low, the jack, Game or the 10 of
    trump, and the jick, the jokers, the 3 (3 points) and the 5 (5) where the rules
    have them."""
    return 4 + (fr[F_JICK] != 0) + fr[F_JOKERS] + 3 * (fr[F_THREE] != 0) + 5 * fr[F_FIVE]


@njit(cache=True)
def game_situation(seat, n, scores, fr):
    """``contract_value``'s game situation for ``seat``'s side under the preset's
    target and win rule (VARIANTS.md 0.9, 2.11, 3.11, 6.1 win): (score, target, win
    bonus, set wins, first, nearest rival's score, the hand's points, a rival side's
    share of the points left, loss).  A win is worth the target times the win chance
    it adds over an even share, 1 / sides; a rival's costs that share.  Under
    win=pitcher no rival goes out while we pitch; under pitcher-first the pitcher's
    side going out wins first; under highest it must also stay above the rival."""
    sides = 2 if fr[F_PARTNERSHIP] != 0 else n
    target = np.float64(fr[F_TARGET])
    mine = seat % 2 if fr[F_PARTNERSHIP] != 0 else seat
    rival = NO_RIVAL
    if fr[F_WIN] != WIN_PITCHER:
        for s in range(n):
            if (s % 2 if fr[F_PARTNERSHIP] != 0 else s) != mine:
                rival = max(rival, np.float64(scores[s]))
    return (
        np.float64(scores[seat]),
        target,
        target * (1.0 - 1.0 / sides),
        fr[F_SET_PITCHER_WINS] != 0,
        fr[F_WIN] != WIN_HIGHEST,
        rival,
        hand_points(fr),
        1.0 / (sides - 1),
        target / sides,
    )


@njit(cache=True)
def odds_worth(b, n, fr, odds, defender):
    """The highest bid whose expected score beats passing (``defender``), by table row
    ``b``; 0: none."""
    top = fr[F_MAX_BID]
    w = rival_weight(n, fr)
    best = 0
    for k in range(1, top + 1):
        if bid_value(b, k, top, odds, w) > defender:
            best = k
    return best


@njit(cache=True)
def pass_situation(defender, high, high_seat, seat, n, scores, fr, odds):
    """What the game situation adds to passing (``odds-game``), beyond a defender's
    mean points.  Under win=pitcher only a pitcher goes out: an opponent's high bid
    ``high`` (``high_seat``) that would take him to the target costs the loss times
    M(high), how often such a bid is made.  Under pitcher-first and highest a defending
    side goes out too: the defender's points, as the two whole numbers around their
    mean, weighed by ``contract_value`` as a bid of 0 that never goes out first (our
    side wins on the highest total, a rival on the points we did not take)."""
    score, target, win_bonus, _, _, rival, rest, spread, loss = game_situation(seat, n, scores, fr)
    if fr[F_WIN] == WIN_PITCHER:
        if high_seat >= 0 and scores[high_seat] + high >= target:
            return -loss * odds[MADE_ROW, high]
        return 0.0
    lo = int(defender)
    dist = np.zeros(lo + 2)
    dist[lo] = 1.0 - (defender - lo)
    dist[lo + 1] = defender - lo
    weighed = contract_value(
        dist, np.int64(0), score, target, win_bonus, False, 0.0, False, rival, rest, spread, loss
    )
    plain = contract_value(
        dist, np.int64(0), 0.0, np.inf, 0.0, False, 0.0, True, NO_RIVAL, np.int64(0), 0.0, 0.0
    )
    return weighed - plain


@njit(cache=True)
def odds_call(b, legal, seat, n, dealer, high, high_seat, fr, odds, defender, scores, weigh_game):
    """The ``odds`` call: the best of passing (a defender's mean points; -2 for a dealer
    facing all passes under dealer-set) and each legal bid k, valued as
    ``S(k) * E[k stands] + (1 - S(k)) * defender``, where S(k), the chance that no
    opponent still to call outbids k, is ``(1 - Q(k + 1)) ** m`` for m opponents after
    this seat, Q(k) being the share of random hands worth a bid of k or more (the
    table's row ``N_ROWS``, ``odds[N_ROWS, k]``); ``b`` is the hand's row
    (``odds_row``).  ``weigh_game`` (``odds-game``): E[k stands] weighs the game
    situation of ``scores`` (``game_situation``), and so does passing
    (``pass_situation``)."""
    top = fr[F_MAX_BID]
    cheapest = _lowest_bid(legal, top)
    if legal & 1 == 0:
        return cheapest if cheapest >= 0 else top + 1  # stuck: the cheapest bid
    if cheapest < 0:
        return PASS
    partnership = fr[F_PARTNERSHIP] != 0
    if partnership and high_seat >= 0 and high_seat % 2 == seat % 2:
        return PASS  # never outbid the partner
    w = rival_weight(n, fr)
    # No situation: contract_value is bid_value (no target to reach, no rival).
    score, target, win_bonus, set_wins, first, rival, rest, spread, loss = (
        0.0, np.inf, 0.0, False, True, NO_RIVAL, 0, 0.0, 0.0
    )  # fmt: skip
    if weigh_game:
        score, target, win_bonus, set_wins, first, rival, rest, spread, loss = game_situation(
            seat, n, scores, fr
        )
    best = PASS
    best_v = defender
    if weigh_game:
        best_v += pass_situation(defender, high, high_seat, seat, n, scores, fr, odds)
    if seat == dealer and high_seat < 0 and fr[F_ALL_PASS] == ALL_PASS_DEALER_SET:
        best_v = -float(DEALER_SET_PENALTY)
    m = 0  # opponents still to call
    s = seat
    while s != dealer:
        s = s + 1 if s + 1 < n else 0
        if not (partnership and (s ^ seat) & 1 == 0):
            m += 1
    dist = np.empty(top + 1)
    row_distribution(b, top, odds, dist)
    for k in range(cheapest, top + 1):
        if not legal >> k & 1:
            continue
        stand = 1.0
        if m > 0:
            q = odds[N_ROWS, k + 1] if k < top else 0.0
            stand = (1.0 - q) ** m
        made = contract_value(
            dist, k, score, target, win_bonus, set_wins, w, first, rival, rest, spread, loss
        )
        v = stand * made + (1.0 - stand) * defender
        if v > best_v:
            best_v = v
            best = k
    return best


@njit(cache=True)
def choose_call(
    policy,
    hand,
    seat,
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
    counter,
):
    """The call of ``seat`` holding ``hand`` by bidding policy ``policy``; ``high`` the
    high call so far (``high_seat`` its seat, -1: none), ``scores`` per seat.  Not the
    advisor's (it needs the calls heard: ``seat_call``)."""
    if policy == BID_ADVISOR:
        raise ValueError("the advisor's call needs the calls heard: ask seat_call")
    if policy == BID_RANDOM:
        return nth_card(legal, below(key, counter, popcount(legal)))
    count, t = best_suit(hand, n, fr, tab)
    shoot = fr[F_MAX_BID] + 1
    if legal >> shoot & 1 and count >= fr[F_MAX_BID] - 0.25:
        return shoot
    if policy == BID_ODDS or policy == BID_ODDS_GAME:
        return odds_call(
            row_of(count, t, hand, n, fr, tab), legal, seat, n, dealer, high, high_seat, fr, odds, defender, scores,
            policy == BID_ODDS_GAME,
        )  # fmt: skip
    top = fr[F_MAX_BID]
    worth = top if count >= top - 0.5 else min(top - 1, int(count + ROUND_UP))
    return _counted_call(worth, legal, seat, dealer, high_seat, fr)


@njit(cache=True, inline="always")  # inlined: see game.play_deal_fixed
def seat_call(
    policy,
    hand,
    seat,
    n,
    dealer,
    calls,
    n_calls,
    high,
    high_seat,
    legal,
    scores,
    fr,
    tab,
    odds,
    defender,
    key,
    counter,
):
    """(call, planned trump) of ``seat`` by bidding policy ``policy``, ``calls[:n_calls]``
    the calls heard from the dealer's left: the advisor's branch (``advisor_call``,
    int32 ids only), else ``choose_call`` and no plan (-1)."""
    if policy == BID_ADVISOR:
        return advisor_call(
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
        )
    call = choose_call(
        policy, hand, seat, n, dealer, high, high_seat, legal, scores, fr, tab, odds,
        defender, key, counter,
    )  # fmt: skip
    return np.int64(call), np.int64(-1)


def advisor_call(
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
    """The advisor's (call, planned trump) (compiled code only: ``seat_call`` calls
    it).  For int32 ids ``kernels.advisor`` supplies it; here, the refusal for int64."""
    raise NotImplementedError("advisor_call runs inside numba kernels only")


@overload(advisor_call)
def _advisor_refused(
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
    if isinstance(policy, types.Integer) and policy.bitwidth == 32:
        return None  # kernels.advisor's overload

    def refuse(
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
        if policy >= 0:
            raise ValueError(
                "the advisor in a plain (int64) family bidding array: "
                "make it with pitchsim.table.boards.seat_ids"
            )
        return np.int64(0), np.int64(-1)

    return refuse


@njit(cache=True)
def name_suit(policy, hand, n, fr, tab, key, counter):
    """The trump the pitcher names (trump=named): its best counted suit, or for
    ``random`` the suit of a random card it holds."""
    if policy == BID_RANDOM:
        plain = hand & ALL_52
        return nth_card(plain, below(key, counter, popcount(plain))) // 13
    _, t = best_suit(hand, n, fr, tab)
    return t


@njit(cache=True)
def worlds_fit_calls(
    worlds, pby, n, me, dealer, calls, solvent, scores, model, fr, tab, odds, defender,
    pitcher, trump, fits,
):  # fmt: skip
    """``fits[w]``: in world ``w`` (``worlds[w, seat]`` each seat's cards now, ``pby``
    those it played: its hand as dealt, no discard) every caller but ``me`` makes his
    call (``calls``, from the dealer's left) by bidding policy ``model``, asked as the
    game kernel's auction asks him (``legal_calls``: ``solvent[seat]``, may he shoot;
    counter ``AUCTION_COUNTER + i``), and with ``trump`` >= 0 the pitcher (not ``me``)
    names it (``name_suit``: the suit his call counted).  The pitcher's trump and call
    are checked first: they reject most.  Not the advisor's calls."""
    m = calls.size
    if model == BID_RANDOM:  # a random call does not depend on the hand: it fits any deal
        for w in range(worlds.shape[0]):
            fits[w] = True
        return
    # what each caller was asked (the same in every world): the high call before him,
    # its seat and the legal calls
    highs = np.empty(m, dtype=np.int64)
    high_seats = np.empty(m, dtype=np.int64)
    legals = np.empty(m, dtype=np.int64)
    order = np.empty(m, dtype=np.int64)
    high = np.int64(PASS)
    high_seat = np.int64(-1)
    last = -1
    for i in range(m):
        s = (dealer + 1 + i) % n
        highs[i] = high
        high_seats[i] = high_seat
        legals[i] = legal_calls(high, s == dealer, solvent[s] != 0, fr)
        if calls[i] != PASS:
            high = max(high, calls[i])
            high_seat = s
            last = i
    k = 0
    if last >= 0:
        order[k] = last
        k += 1
    for i in range(m):
        if i != last:
            order[k] = i
            k += 1
    key = np.uint64(0)  # heuristic and odds draw nothing
    check_trump = trump >= 0 and pitcher != me
    for w in range(worlds.shape[0]):
        ok = True
        if check_trump:  # cheapest first: one count of the pitcher's suits
            named = name_suit(
                model, worlds[w, pitcher] | pby[pitcher], n, fr, tab, key,
                AUCTION_COUNTER + NAME_COUNTER,
            )  # fmt: skip
            ok = named == trump
        for j in range(m if ok else 0):
            i = order[j]
            s = (dealer + 1 + i) % n
            if s == me:
                continue
            made = choose_call(
                model, worlds[w, s] | pby[s], s, n, dealer, highs[i], high_seats[i], legals[i],
                scores, fr, tab, odds, defender, key, AUCTION_COUNTER + i,
            )  # fmt: skip
            if made != calls[i]:
                ok = False
                break
        fits[w] = ok
