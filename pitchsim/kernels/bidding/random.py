"""``random``: a legal call uniformly at random; trump is left to the opening lead."""

from numba import njit

from ..rng import below

MAX_BID = 4


@njit(cache=True, inline="always")
def random_bid(
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
    choices = MAX_BID - lowest + 1 + (1 if can_pass else 0)
    k = below(key, counter, choices)
    if can_pass:
        return (0 if k == 0 else lowest + k - 1), -1
    return lowest + k, -1
