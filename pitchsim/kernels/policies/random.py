"""``random``: a card uniformly at random among the legal ones."""

from numba import njit

from ..bits import nth_card, popcount
from ..rng import below


@njit(cache=True, inline="always")
def random_card(
    legal,
    hand,
    seat,
    n,
    pitcher,
    bid,
    trump,
    trick_no,
    trick,
    trick_len,
    leader,
    played,
    won,
    who,
    voids,
    rules,
    key,
    counter,
):
    return nth_card(legal, below(key, counter, popcount(legal)))
