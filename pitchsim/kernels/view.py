"""What a play policy sees of the other seats: who played which card, and the voids shown.

Two parts of every policy's view (see ``kernels.policies``) carry the public
history beyond the cards themselves:

- ``who``: for every card seen played (completed tricks and the current trick) the seat
  that played it, as three bit planes of the seat number: a seen card's bit is set in
  ``who[k]`` when bit k of its seat number is.  ``played_by`` reads one seat's cards off
  it.  (Three integers rather than an array of seats: ``play_hand`` already keeps these
  planes for every dealt card, so the view costs three ANDs and no memory.)
- ``voids``: bit ``4 * seat + suit`` is set once ``seat`` has shown it holds none of
  ``suit``: it did not follow a led side suit with a card of that suit or a trump (or,
  under follow = suit, with a card of that suit), or it did not follow a trump lead.
"""

import numpy as np
from numba import njit

from .bits import suit_mask


@njit(cache=True, inline="always")
def played_by(who, seen, seat):
    """The cards of ``seen`` (cards seen played) that ``seat`` played."""
    m = seen
    m &= who[0] if seat & 1 else ~who[0]
    m &= who[1] if seat & 2 else ~who[1]
    m &= who[2] if seat & 4 else ~who[2]
    return m


@njit(cache=True, inline="always")
def shows_void(card_suit, led, trump, must_follow):
    """Does playing a card of ``card_suit`` to a trick led in ``led`` show a void in it?

    Not following shows a void, except a trump on a side suit where trumping in is
    allowed (a player may trump while holding the led suit)."""
    return (card_suit != led) & ((card_suit != trump) | must_follow)


@njit(cache=True, inline="always")
def void_suits(voids, seat):
    """The suits ``seat`` has shown it does not hold, as a card mask of those suits."""
    m = np.int64(0)
    v = voids >> (4 * seat)
    for s in range(4):
        if v >> s & 1:
            m |= suit_mask(s)
    return m
