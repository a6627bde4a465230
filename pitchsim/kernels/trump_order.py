"""The trumps of every preset in their order, as bits: one bit scan finds the highest or
lowest trump of a mask, jick, left pedro and jokers included (VARIANTS.md 4.7, 11.3).

The order bits, low to high: the 2, 3, 4 of trump bits 0-2, the left pedro (five=pedro,
12.6) bit 3, the 5 .. 10 of trump bits 4-9, the low joker 10, the high joker 11, the
jick 12, the J Q K A 13-16.  The order of the keys of ``game.trumps`` (bits a preset
does not have are simply never set).  Under a plain trump suit (no jick, no jokers, no
left pedro) the order bits are the suit's ranks in order, so ``highest_card`` of a mask
of trumps is already its highest trump: ``policies.heuristic`` takes that short way.
"""

import numpy as np
from numba import njit

from .bits import highest_card, lowest_card

LOW_THREE = np.int64(0x7)  # the 2 3 4 of a suit: order bits 0-2
SIX_MID = np.int64(0x3F << 3)  # its 5 .. 10: order bits 4-9
FOUR_HIGH = np.int64(0xF << 9)  # its J Q K A: order bits 13-16
ONE = np.int64(1)
LEFT_PEDRO = np.int64(1 << 3)  # rank 3 (the 5) of the other suit of trump's colour
JICK = np.int64(1 << 9)  # rank 9 (the jack) of that suit: order bit 12


@njit(cache=True, inline="always")
def trump_order(m, trump):
    """The trumps of ``m`` (a mask of trumps only) as trump-order bits."""
    p = m >> (13 * trump)
    q = m >> ((3 - trump) * 13)  # the other suit of trump's colour: its 5 and its jack
    return (
        (p & LOW_THREE)
        | ((p & SIX_MID) << 1)
        | ((p & FOUR_HIGH) << 4)
        | (q & LEFT_PEDRO)  # the left pedro: rank 3 is order bit 3 already
        | ((q & JICK) << 3)
        | ((m >> 43) & (ONE << 10))
        | ((m >> 41) & (ONE << 11))
    )


@njit(cache=True, inline="always")
def order_cards(ob, trump):
    """The cards of trump-order bits ``ob`` (``trump_order``'s inverse)."""
    p = (ob & LOW_THREE) | ((ob >> 1) & SIX_MID) | ((ob >> 4) & FOUR_HIGH)
    q = (ob & LEFT_PEDRO) | ((ob >> 3) & JICK)
    return (
        (p << (13 * trump))
        | (q << ((3 - trump) * 13))
        | ((ob & (ONE << 10)) << 43)
        | ((ob & (ONE << 11)) << 41)
    )


def _order_tables():
    """Per trump suit: ``CARD_AT[t, b]``, the card at order bit ``b`` (-1: none), and
    ``ABOVE[t, c]``/``BELOW[t, c]``, the cards ranked above and below card ``c`` in trump
    order (0 for a card that is never a trump of ``t``).  Every preset's trumps are a
    subset of these positions, so a preset's trumps above a card are ``tmask & ABOVE``."""
    card_at = np.full((4, 17), -1, dtype=np.int64)
    above = np.zeros((4, 54), dtype=np.int64)
    below = np.zeros((4, 54), dtype=np.int64)
    for t in range(4):
        at = {}
        for c in range(54):
            ob = int(trump_order.py_func(np.int64(1) << np.int64(c), t))
            if ob:
                at[c] = ob.bit_length() - 1
        for c, b in at.items():
            card_at[t, b] = c
            above[t, c] = sum(1 << d for d, e in at.items() if e > b)
            below[t, c] = sum(1 << d for d, e in at.items() if e < b)
    return card_at, above, below


CARD_AT, ABOVE, BELOW = _order_tables()


@njit(cache=True, inline="always")
def highest_trump(m, trump):
    """The highest trump of ``m`` (trumps only, non-empty) in trump order."""
    return CARD_AT[trump, highest_card(trump_order(m, trump))]


@njit(cache=True, inline="always")
def lowest_trump(m, trump):
    """The lowest trump of ``m`` (trumps only, non-empty) in trump order."""
    return CARD_AT[trump, lowest_card(trump_order(m, trump))]


@njit(cache=True, inline="always")
def trump_ends(m, trump):
    """(highest, lowest) trump of ``m`` (trumps only, non-empty) in trump order."""
    ob = trump_order(m, trump)
    return CARD_AT[trump, highest_card(ob)], CARD_AT[trump, lowest_card(ob)]
