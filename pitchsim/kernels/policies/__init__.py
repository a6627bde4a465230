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
of worlds they sample shifted left by ``WORLDS_SHIFT`` (``pitchsim.games.policies`` reads
``rollout:16`` as ``ROLLOUT | 16 << WORLDS_SHIFT``).

Search policies compile only into play loops that may need them.  A search policy plays
hands out (or solves them) at every decision, so compiling it into every play loop cost
a minute of compile time per kernel.  Play-policy arrays that name a search policy are
therefore of ``SEARCH_DTYPE`` (int32; ``pitchsim.games.policies.play_array`` makes them), plain
ones int64; the policy's integer type picks, at compile time, whether ``choose_card``
has a search branch (``search_card``).  A search id in an int64 array raises, never
plays a wrong card.

To add a policy: write its kernel in this folder, give it the next id below and one
branch in ``choose_card`` (or, for a search policy, in ``search_card``);
``pitchsim.games.policies`` lists it by name.
"""

import numpy as np
from numba import njit, types
from numba.extending import overload

from .heuristic import heuristic_card
from .random import random_card

RANDOM = 0
HEURISTIC = 1
ROLLOUT = 2
PIMC = 3
PLAY_POLICY_IDS = {"random": RANDOM, "heuristic": HEURISTIC, "rollout": ROLLOUT, "pimc": PIMC}
WORLDS_SHIFT = 8
KIND_MASK = (1 << WORLDS_SHIFT) - 1
SEARCH_DTYPE = np.int32  # play-policy arrays that may name a search policy
PLAIN_DTYPE = np.int64  # and those that may not


@njit(cache=True, inline="always")
def choose_card(policy, legal, hand, seat, n, pitcher, bid, trump, trick_no, trick, trick_len,
                leader, played, won, who, voids, rules, key, counter):  # fmt: skip
    """Dispatch one seat's decision to its policy kernel."""
    if policy == HEURISTIC:
        return heuristic_card(legal, hand, seat, n, pitcher, bid, trump, trick_no, trick,
                              trick_len, leader, played, won, who, voids, rules, key,
                              counter)  # fmt: skip
    if policy & KIND_MASK >= ROLLOUT:
        return search_card(policy, legal, hand, seat, n, pitcher, bid, trump, trick_no, trick,
                           trick_len, leader, played, won, who, voids, rules, key,
                           counter)  # fmt: skip
    return random_card(legal, hand, seat, n, pitcher, bid, trump, trick_no, trick, trick_len,
                       leader, played, won, who, voids, rules, key, counter)  # fmt: skip


def search_card(policy, legal, hand, seat, n, pitcher, bid, trump, trick_no, trick, trick_len,
                leader, played, won, who, voids, rules, key, counter):  # fmt: skip
    """A search policy's card (compiled code only: ``choose_card`` calls it)."""
    raise NotImplementedError("search_card runs inside numba kernels only")


@overload(search_card)
def _search_card(policy, legal, hand, seat, n, pitcher, bid, trump, trick_no, trick, trick_len,
                 leader, played, won, who, voids, rules, key, counter):  # fmt: skip
    if not (isinstance(policy, types.Integer) and policy.bitwidth == 32):

        def refuse(policy, legal, hand, seat, n, pitcher, bid, trump, trick_no, trick,
                   trick_len, leader, played, won, who, voids, rules, key, counter):  # fmt: skip
            if policy >= 0:
                raise ValueError("a search play policy in a plain (int64) play-policy array: "
                                 "make it with pitchsim.games.policies.play_array")  # fmt: skip
            return np.int64(-1)

        return refuse

    def search(policy, legal, hand, seat, n, pitcher, bid, trump, trick_no, trick, trick_len,
               leader, played, won, who, voids, rules, key, counter):  # fmt: skip
        worlds = policy >> WORLDS_SHIFT
        if policy & KIND_MASK == ROLLOUT:
            return rollout_card(legal, hand, seat, n, pitcher, bid, trump, trick_no, trick,
                                trick_len, leader, played, won, who, voids, rules, key, counter,
                                worlds)  # fmt: skip
        return pimc_card(legal, hand, seat, n, pitcher, bid, trump, trick_no, trick, trick_len,
                         leader, played, won, who, voids, rules, key, counter,
                         worlds)  # fmt: skip

    return search


# Last: the search policies play hands out, which needs hand.py, which imports
# ``choose_card`` from here (numba resolves ``rollout_card`` when it compiles).
from .pimc import pimc_card  # noqa: E402
from .rollout import rollout_card  # noqa: E402
