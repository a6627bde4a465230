"""``heuristic``: a club player's rule of thumb -- count the points the hand is likely
to take in its best suit and bid that many.

Per suit, as trump (q = the chance that one particular unseen card was not dealt):

- High: the top trump is High unless a higher one was dealt: ``q ** (cards above it)``.
- Low: the bottom trump is Low unless a lower one was dealt, and it must still be
  captured: ``0.8 * q ** (cards below it)`` (under low = dealt, holding it is enough).
- Jack: held with a higher trump to guard it 0.9, with the queen only 0.65, bare 0.5;
  not held, a chance to catch it with a high trump and length.
- Game: a little for each trump, more for the ten of trump and side aces and tens,
  divided among the players.

A count of 0.8 is worth a bid of 1, 1.8 of 2, 2.8 of 3 and 3.5 of 4.  A non-dealer
bids its count when it is legal; the dealer, who calls last, bids just enough (it
steals when it can); a stuck dealer bids the minimum.  Partners do not steal from each other.
"""

from numba import njit

from ...game.rules import R_LOW_DEALT, R_PARTNERSHIP
from ..bits import JACK, highest_card, lowest_card, popcount, suit_mask

MAX_BID = 4
_ACES = sum(1 << (s * 13 + 12) for s in range(4))
_TENS = sum(1 << (s * 13 + 8) for s in range(4))


@njit(cache=True, inline="always")
def suit_count(hand, suit, n, low_dealt):
    """Points the hand expects to take with ``suit`` as trump (-1: no card of it)."""
    trumps = hand & suit_mask(suit)
    if trumps == 0:
        return -1.0
    q = 1.0 - 6.0 * (n - 1) / 46.0
    top = highest_card(trumps) % 13
    bottom = lowest_card(trumps) % 13
    length = popcount(trumps)
    high = q ** (12 - top)
    low = q**bottom if low_dealt else 0.8 * q**bottom
    jack = 0.0
    if trumps >> (suit * 13 + JACK) & 1:
        if top > JACK + 1:
            jack = 0.9
        elif top == JACK + 1:
            jack = 0.65
        else:
            jack = 0.5
    elif top > JACK and length >= 2:
        jack = (1.0 - q) * (0.2 + 0.1 * min(length, 4))
    off = hand & ~suit_mask(suit)
    game = 0.12 * length + 0.3 * (trumps >> (suit * 13 + 8) & 1)
    game += 0.12 * popcount(off & _ACES) + 0.05 * popcount(off & _TENS)
    game = min(0.9, game * 4.0 / n + 0.05)
    return high + low + jack + game


@njit(cache=True)
def best_count(hand, n, low_dealt=False):
    """(count, suit) of the hand's best trump suit."""
    best = -1.0
    best_suit = -1
    for s in range(4):
        c = suit_count(hand, s, n, low_dealt)
        if c > best:
            best = c
            best_suit = s
    return best, best_suit


@njit(cache=True)
def heuristic_bid(
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
    count, suit = best_count(hand, n, rules[R_LOW_DEALT] != 0)
    worth = MAX_BID if count >= 3.5 else min(MAX_BID - 1, int(count + 0.2))
    partner_high = rules[R_PARTNERSHIP] != 0 and high_seat >= 0 and high_seat % 2 == seat % 2
    if seat == dealer:
        if not can_pass:
            return lowest, suit  # stuck: the cheapest bid
        if partner_high:
            lowest = high + 1  # never steal from the partner
        if worth >= lowest and lowest <= MAX_BID:
            return lowest, suit
        return 0, -1
    if worth >= lowest:
        return worth, suit
    return 0, -1
