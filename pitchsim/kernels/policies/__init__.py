"""Play policies: numba kernels that pick one legal card from what their player sees.

Every policy has the same signature (the player's *view*; never another hand)::

    policy(legal, hand, seat, n, pitcher, bid, trump, trick_no, trick, trick_len,
           leader, played, won, who, voids, rules, key, counter) -> card

- ``legal``/``hand``: masks of the legal cards and of the player's own cards
- ``trump``: -1 while the pitcher's opening lead is still to fix it
- ``trick[:trick_len]``: cards already in this trick, in order from ``leader``
- ``played``: cards of completed tricks; ``won[s]``: cards seat s has captured
- ``who``, ``voids``: which seat played each card seen; the voids shown (``kernels.view``)
- ``key``, ``counter``: the counter-based random stream of this decision

A policy id is its kind (the ids below) plus, for the search policies, the number
of worlds they sample shifted left by ``WORLDS_SHIFT`` (``pitchsim.policies`` reads
``rollout:16`` as ``ROLLOUT | 16 << WORLDS_SHIFT``).

To add a policy: write its kernel in this folder, give it the next id below and one
branch in ``choose_card``; ``pitchsim.policies`` lists it by name.
"""

from numba import njit

from .heuristic import heuristic_card
from .random import random_card

RANDOM = 0
HEURISTIC = 1
ROLLOUT = 2
PIMC = 3
PLAY_POLICY_IDS = {"random": RANDOM, "heuristic": HEURISTIC, "rollout": ROLLOUT, "pimc": PIMC}
WORLDS_SHIFT = 8
KIND_MASK = (1 << WORLDS_SHIFT) - 1


@njit(cache=True, inline="always")
def choose_card(policy, legal, hand, seat, n, pitcher, bid, trump, trick_no, trick, trick_len,
                leader, played, won, who, voids, rules, key, counter):  # fmt: skip
    """Dispatch one seat's decision to its policy kernel."""
    if policy == HEURISTIC:
        return heuristic_card(legal, hand, seat, n, pitcher, bid, trump, trick_no, trick,
                              trick_len, leader, played, won, who, voids, rules, key,
                              counter)  # fmt: skip
    kind = policy & KIND_MASK
    if kind == ROLLOUT:
        return rollout_card(legal, hand, seat, n, pitcher, bid, trump, trick_no, trick,
                            trick_len, leader, played, won, who, voids, rules, key, counter,
                            policy >> WORLDS_SHIFT)  # fmt: skip
    if kind == PIMC:
        return pimc_card(legal, hand, seat, n, pitcher, bid, trump, trick_no, trick, trick_len,
                         leader, played, won, who, voids, rules, key, counter,
                         policy >> WORLDS_SHIFT)  # fmt: skip
    return random_card(legal, hand, seat, n, pitcher, bid, trump, trick_no, trick, trick_len,
                       leader, played, won, who, voids, rules, key, counter)  # fmt: skip


# Last: the search policies play hands out, which needs hand.py, which imports
# ``choose_card`` from here (numba resolves ``rollout_card`` when it compiles).
from .pimc import pimc_card  # noqa: E402
from .rollout import rollout_card  # noqa: E402
