"""``random``: a card uniformly at random among the legal ones."""

from numba import njit

from ..bits import nth_card, popcount
from ..rng import below


@njit(cache=True, inline="always")
def random_card(view):
    return nth_card(view.legal, below(view.key, view.counter, popcount(view.legal)))
