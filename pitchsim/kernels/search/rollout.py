"""``rollout``: each legal card played out by ``heuristic`` in sampled worlds.

W worlds consistent with the view (``kernels.search.worlds``), the same for every
card; in each, the card is played and the hand finished by ``heuristic`` at every
seat; the card the side needs most wins (``kernels.search.monte_carlo``).
"""

import numpy as np
from numba import njit

from .monte_carlo import ROLLOUT, search_card


@njit(cache=True, inline="always")
def rollout_card(
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
    worlds,
):
    return search_card(
        np.int64(ROLLOUT),  # (not a literal: one compile of the search for both evaluators)
        worlds,
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
    )
