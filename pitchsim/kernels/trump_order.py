"""The trumps of every preset in their order, as bits: one bit scan finds the highest or
lowest trump of a mask, jick and jokers included (VARIANTS.md 4.7).

Bit ``key - TRUMP_BASE`` (``game.trumps``): the 2 .. 10 of trump bits 0-8, the low joker
9, the high joker 10, the jick 11, the J Q K A 12-15.  Under a plain trump suit (no jick,
no jokers) the order bits are the suit's ranks in order, so ``highest_card`` of a mask
of trumps is already its highest trump: ``policies.heuristic`` takes that short way.
"""

import numpy as np
from numba import njit

# The trumps in their order (VARIANTS.md 4.7), one bit each: bit ``key - TRUMP_BASE``
# (``game.trumps``): 2 .. 10 bits 0-8, low joker 9, high joker 10, jick 11, J Q K A
# 12-15.  The highest or lowest trump of a mask is then one bit scan, for every preset.
NINE_LOW = np.int64(0x1FF)  # the 2 .. 10 of a suit
FOUR_HIGH = np.int64(0xF << 9)  # its J Q K A
HJ_BIT, LJ_BIT = np.int64(1) << 52, np.int64(1) << 53


@njit(cache=True, inline="always")
def trump_order(m, trump):
    """The trumps of ``m`` (a mask of trumps only) as trump-order bits."""
    p = (m >> (13 * trump)) & (NINE_LOW | FOUR_HIGH)
    jick = (3 - trump) * 13 + 9
    return (
        (p & NINE_LOW)
        | ((p & FOUR_HIGH) << 3)
        | ((m >> 44) & (np.int64(1) << 9))
        | ((m >> 42) & (np.int64(1) << 10))
        | (((m >> jick) & 1) << 11)
    )


@njit(cache=True, inline="always")
def order_cards(ob, trump):
    """The cards of trump-order bits ``ob`` (``trump_order``'s inverse)."""
    p = (ob & NINE_LOW) | ((ob >> 3) & FOUR_HIGH)
    jick = (3 - trump) * 13 + 9
    return (
        (p << (13 * trump))
        | ((ob & (np.int64(1) << 9)) << 44)
        | ((ob & (np.int64(1) << 10)) << 42)
        | (((ob >> 11) & 1) << jick)
    )
