"""The deal of a family hand: the pack, 6, 9 or 10 cards each, and the stock in order.

The pack is the 52 cards less those a short pack leaves out (deck, 12.3), plus the
jokers (6.1), less the four 4s with 5 players, 9 to deal and two jokers (4.3).  Each
card dealt is drawn uniformly from the cards left (``kernels.rng``, ``bits.nth_bit``),
seat by seat, then the stock when a draw step will take cards from it.  Seat
``dealer + 1 + i`` holds the ``i``-th run of ``deck``, as in the reference engine's
``deal``; the rest of ``deck`` is the stock, top card first.  Under kitty=N (12.2.1)
the kitty is the stock's last N cards, as the reference engine's ``kitty_of`` takes it.
"""

import numpy as np
from numba import njit

from .bits import lowest_card, nth_bit, popcount
from .presets import DISCARD_CHOICE, DISCARD_NONE, F_DEAL, F_DISCARD, F_JOKERS, F_KITTY, F_OUT
from .rng import DEAL_COUNTER, draw, split_below

FOURS = np.int64(sum(1 << (s * 13 + 2) for s in range(4)))
ALL_52 = np.int64((1 << 52) - 1)
SPLIT = 6  # draws a 64-bit hash gives
MAX_SEATS = 8  # (counter blocks: a seat's first hash, its second, then the stock's)


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
    m = (ALL_52 & ~fr[F_OUT]) | (((np.int64(1) << fr[F_JOKERS]) - 1) << 52)
    if no_fours(n, fr):
        m &= ~FOURS
    return m


@njit(cache=True, inline="always")
def takes_stock(fr):
    """Does a step after trump take from the undealt pack: the draw (4.8, 12.8.2; not
    discard=choice, 12.8.1) or a kitty (12.2)?  Only then is the stock drawn, in order,
    into ``deck`` (the reference's ``takes_stock``)."""
    d = fr[F_DISCARD]
    return (d != DISCARD_NONE and d != DISCARD_CHOICE) or fr[F_KITTY] != 0


@njit(cache=True, inline="always")
def deal_cards(key, n, dealer, fr, deck, dealt):
    """Shuffle the pack into ``deck`` (size >= 54), fill ``dealt[0:n]`` and return the
    number of cards in the pack: ``deck[n * cards_each : that]`` is the stock, top card
    first, drawn only when a step will take from it (``takes_stock``; else left as it
    was)."""
    return deal_cards_fixed(key, n, dealer, np.int64(-1), np.int64(0), fr, deck, dealt)


@njit(cache=True, inline="always")
def deal_cards_fixed(key, n, dealer, fixed_seat, fixed_hand, fr, deck, dealt):
    """``deal_cards`` with ``fixed_hand`` (a mask of ``cards_each`` cards of the pack;
    0: none) dealt to ``fixed_seat``.

    Seat by seat from seat 0, each seat's cards come from one 64-bit hash of (key, seat)
    split into uniform draws among the cards left (``rng.split_below``), a second hash
    for cards 7-10; the stock after the hands, six draws a hash (under the base game's
    pack and six cards: the base game's own deal before issue 28, card for card,
    tests/test_one_deal.py's plain-Python recount).  Seat ``dealer + 1 + i`` holds the ``i``-th run of ``deck`` (the reference
    engine's ``deal``), its cards in the order drawn; an empty ``deck`` (no stock to
    draw from, no log) skips writing them."""
    full = pack_mask(n, fr)
    rest = full & ~fixed_hand
    left = popcount(rest)
    each = cards_each(n, fr)
    first = dealer + 1 if dealer + 1 < n else 0
    runs = deck.size > 0  # (an empty ``deck``: the caller needs the hands alone)
    for seat in range(n):
        at = (seat - first if seat >= first else seat + n - first) * each
        if fixed_hand != 0 and seat == fixed_seat:
            mine = fixed_hand
            if runs:
                for i in range(at, at + each):
                    b = mine & -mine
                    mine ^= b
                    deck[i] = lowest_card(b)
            dealt[seat] = fixed_hand
            continue
        # Six draws from the first hash (64 bits give six draws below 54 with bias
        # < 2**-29), any more from the second: loops of fixed length, unrolled.
        r = draw(key, DEAL_COUNTER + seat)
        h = np.int64(0)
        for j in range(SPLIT):
            k, r = split_below(r, left)
            b = nth_bit(rest, k)
            rest ^= b
            left -= 1
            h |= b
            if runs:
                deck[at + j] = lowest_card(b)
        if each > SPLIT:
            r = draw(key, DEAL_COUNTER + MAX_SEATS + seat)
            for j in range(SPLIT, each):
                k, r = split_below(r, left)
                b = nth_bit(rest, k)
                rest ^= b
                left -= 1
                h |= b
                if runs:
                    deck[at + j] = lowest_card(b)
        dealt[seat] = h
    size = popcount(full)
    if takes_stock(fr):  # the stock, drawn only when a step will take from it
        r = np.uint64(0)
        i = n * each
        while i < size:
            if (i - n * each) % SPLIT == 0:
                r = draw(key, DEAL_COUNTER + 2 * MAX_SEATS + (i - n * each) // SPLIT)
            k, r = split_below(r, left)
            b = nth_bit(rest, k)
            rest ^= b
            left -= 1
            deck[i] = lowest_card(b)
            i += 1
    return size
