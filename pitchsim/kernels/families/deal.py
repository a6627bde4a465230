"""The deal of a family hand: the pack, 6, 9 or 10 cards each, and the stock in order.

The pack is the 52 cards plus the jokers (6.1), less the four 4s with 5 players, 9 to
deal and two jokers (4.3).  It is shuffled by drawing each next card uniformly from
the cards left (``kernels.rng``, ``bits.nth_bit``): all of them when a draw step will
take cards from the stock, else only as many as are dealt.  Seat ``dealer + 1 + i`` gets the ``i``-th run of cards, as in
the reference engine's ``deal``; the rest of ``deck`` is the stock, top card first.
"""

import numpy as np
from numba import njit

from ..bits import lowest_card, nth_bit, popcount
from ..rng import DEAL_COUNTER, below
from .tables import F_DEAL, F_DISCARD, F_JOKERS

FOURS = np.int64(sum(1 << (s * 13 + 2) for s in range(4)))
ALL_52 = np.int64((1 << 52) - 1)


@njit(cache=True, inline="always")
def no_fours(n, fr):
    return fr[F_DEAL] == 9 and fr[F_JOKERS] == 2 and n == 5


@njit(cache=True, inline="always")
def cards_each(n, fr):
    """Cards dealt to each player (VARIANTS.md 6.1 deal, 4.3)."""
    return 10 if no_fours(n, fr) else fr[F_DEAL]


@njit(cache=True, inline="always")
def pack_mask(n, fr):
    """The cards in the pack for ``n`` players."""
    m = ALL_52 | (((np.int64(1) << fr[F_JOKERS]) - 1) << 52)
    if no_fours(n, fr):
        m &= ~FOURS
    return m


@njit(cache=True, inline="always")
def deal_family(key, n, dealer, fr, deck, dealt):
    """Shuffle the pack into ``deck`` (size >= 54), fill ``dealt[0:n]`` and return the
    number of cards in the pack: ``deck[n * cards_each : that]`` is the stock.

    Each position of ``deck`` gets a card drawn uniformly from those left (a uniform
    shuffle, drawn in order); without a draw step the stock is never looked at, so only
    the dealt positions are drawn."""
    return deal_family_fixed(key, n, dealer, -1, np.int64(0), fr, deck, dealt)


@njit(cache=True, inline="always")
def deal_family_fixed(key, n, dealer, fixed_seat, fixed_hand, fr, deck, dealt):
    """``deal_family`` with ``fixed_hand`` (a mask of ``cards_each`` cards of the pack;
    0: none) dealt to ``fixed_seat``: its run of ``deck`` holds those cards, lowest
    first, and every other position is drawn from the rest of the pack."""
    rest = pack_mask(n, fr) & ~fixed_hand
    size = popcount(pack_mask(n, fr))
    left = popcount(rest)
    each = cards_each(n, fr)
    fixed_run = (fixed_seat - dealer - 1) % n if fixed_hand != 0 else -1
    j = 0  # draws made, the counter of the next one
    i = 0  # the position in ``deck``
    seat = dealer + 1 if dealer + 1 < n else 0
    # Run by run, card by card within a run: no division nor run bookkeeping per card.
    for run in range(n):
        h = np.int64(0)
        if run == fixed_run:
            mine = fixed_hand
            for _ in range(each):
                b = mine & -mine
                mine ^= b
                deck[i] = lowest_card(b)
                h |= b
                i += 1
        else:
            for _ in range(each):
                b = nth_bit(rest, below(key, DEAL_COUNTER + j, left))
                j += 1
                left -= 1
                rest ^= b
                deck[i] = lowest_card(b)
                h |= b
                i += 1
        dealt[seat] = h
        seat = seat + 1 if seat + 1 < n else 0
    if fr[F_DISCARD] != 0:  # the stock, drawn only when a draw step will take from it
        while i < size:
            b = nth_bit(rest, below(key, DEAL_COUNTER + j, left))
            j += 1
            left -= 1
            rest ^= b
            deck[i] = lowest_card(b)
            i += 1
    return size
