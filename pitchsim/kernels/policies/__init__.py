"""Play policies: numba kernels that pick one legal card from what their player sees.

Every policy has the same signature (the player's *view*; never another hand)::

    policy(legal, hand, seat, n, pitcher, bid, trump, trick_no, trick, trick_len,
           leader, played, won, who, voids, rules, key, counter) -> card

- ``legal``/``hand``: masks of the legal cards and of the player's own cards
- ``trump``: -1 while the pitcher's opening lead is still to fix it
- ``trick[:trick_len]``: cards already in this trick, in order from ``leader``
- ``played``: cards of completed tricks; ``won[s]``: cards seat s has captured
- ``who``, ``voids``: which seat played each card seen, and the voids shown (``view``)
- ``key``, ``counter``: the counter-based random stream of this decision

To add a policy: write its kernel in this folder, give it the next id below and one
branch in ``choose_card``; ``pitchsim.policies`` lists it by name.
"""

from numba import njit

from .heuristic import heuristic_card
from .random import random_card

RANDOM = 0
HEURISTIC = 1
PLAY_POLICY_IDS = {"random": RANDOM, "heuristic": HEURISTIC}


@njit(cache=True, inline="always")
def choose_card(policy, legal, hand, seat, n, pitcher, bid, trump, trick_no, trick, trick_len,
                leader, played, won, who, voids, rules, key, counter):  # fmt: skip
    """Dispatch one seat's decision to its policy kernel."""
    if policy == HEURISTIC:
        return heuristic_card(legal, hand, seat, n, pitcher, bid, trump, trick_no, trick,
                              trick_len, leader, played, won, who, voids, rules, key,
                              counter)  # fmt: skip
    return random_card(legal, hand, seat, n, pitcher, bid, trump, trick_no, trick, trick_len,
                       leader, played, won, who, voids, rules, key, counter)  # fmt: skip
