"""Play policies: numba kernels that pick one legal card from what their player sees.

This package holds the policies and their ids; ``kernels.dispatch.choose_card`` hands
a seat's decision to its policy by id.

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
therefore of ``SEARCH_DTYPE`` (int32; ``pitchsim.games.policies.play_array`` makes
them), plain ones int64; the policy's integer type picks, at compile time, whether
``kernels.dispatch.choose_card`` has a search branch (``search_card``).  A search id in
an int64 array raises, never plays a wrong card.

To add a policy: write its kernel in this folder (a search policy's in ``kernels/search``,
beside the search it runs), give it the next id below and one branch in
``kernels.dispatch.choose_card`` (or, for a search policy, in ``search_card``);
``pitchsim.games.policies`` lists it by name.
"""

import numpy as np

RANDOM = 0
HEURISTIC = 1
ROLLOUT = 2
PIMC = 3
PLAY_POLICY_IDS = {"random": RANDOM, "heuristic": HEURISTIC, "rollout": ROLLOUT, "pimc": PIMC}
WORLDS_SHIFT = 8
KIND_MASK = (1 << WORLDS_SHIFT) - 1
SEARCH_DTYPE = np.int32  # play-policy arrays that may name a search policy
PLAIN_DTYPE = np.int64  # and those that may not
# The family kernels' arrays whose search is rollout alone: no solver compiled in
# (``pitchsim.games.families.seat_ids``).
ROLLOUT_DTYPE = np.uint32
