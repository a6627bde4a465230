"""``pimc``: Perfect Information Monte Carlo, each legal card solved in sampled worlds.

W worlds consistent with the view (``kernels.search.worlds``), the same for every
card; in each, the double-dummy solver values every legal card with all hands open;
the card the side needs most wins (``kernels.search.monte_carlo``).  Its known
weakness is the solver's: in each world it plays as if it could see every card
(strategy fusion), so it undervalues keeping options open and never plays to find
out.
"""

import numpy as np
from numba import njit

from .monte_carlo import DOUBLE_DUMMY, search_card


@njit(cache=True, inline="always")
def pimc_card(
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
        np.int64(DOUBLE_DUMMY),  # (not a literal: as ``rollout_card``'s)
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
