"""Dealing: six cards at a time drawn from a bit mask of the unseen cards.

Each seat's six draws come from one 64-bit hash of (deal key, seat), split into six
uniform draws by multiplication (``rng.split_below``); ``bits.nth_bit`` picks the
chosen card out of the mask in one instruction.  No deck array is shuffled: the
short chain mask -> pdep -> mask is all that orders the draws.
"""

import numpy as np
from numba import njit

from .bits import nth_bit, popcount
from .rng import DEAL_COUNTER, draw, split_below

HAND_SIZE = 6
ALL_CARDS = np.int64((1 << 52) - 1)


def deck_without(fixed_hand: int) -> np.ndarray:
    """The cards not in ``fixed_hand``, as the template a deal is drawn from."""
    return np.array([c for c in range(52) if not fixed_hand >> c & 1], dtype=np.int64)


@njit(cache=True, inline="always")
def deal_hands(key, n, fixed_seat, fixed_hand, template, deck, dealt):
    """Fill ``dealt[0:n]`` with six-card masks.

    Seat ``fixed_seat`` gets ``fixed_hand`` when it is non-zero (``template`` is then
    the deck without it); every other seat gets six cards drawn from ``template``.
    ``deck`` is unused (kept for callers' scratch).  The result depends only on
    ``key``, never on what was dealt before.
    """
    rest = ALL_CARDS & ~fixed_hand
    left = popcount(rest)
    if template.size != left:
        # Not the plain deck without ``fixed_hand``: deal from exactly its cards.
        rest = np.int64(0)
        for i in range(template.size):
            rest |= np.int64(1) << template[i]
        left = popcount(rest)
    for seat in range(n):
        if fixed_hand != 0 and seat == fixed_seat:
            dealt[seat] = fixed_hand
            continue
        r = draw(key, DEAL_COUNTER + seat)
        hand = np.int64(0)
        for _ in range(HAND_SIZE):
            k, r = split_below(r, left)
            b = nth_bit(rest, k)
            rest ^= b
            hand |= b
            left -= 1
        dealt[seat] = hand
