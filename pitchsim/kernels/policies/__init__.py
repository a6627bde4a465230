"""Play policies: their ids, and the heuristic's decision (``heuristic.decide``).

The preset kernels play every policy (``kernels.policies.cards.choose_card``: random
and heuristic; ``kernels.search.rollout.search_card``: the search policies), from
what their player sees of the hand: his hand and legal cards, trump, the trick so far
and who played it, the cards played and captured, and for a search the voids shown and
the hand sizes (``kernels.search.worlds``).

A policy id is its kind (the ids below) plus, for the search policies, the number
of worlds they sample shifted left by ``WORLDS_SHIFT`` (``pitchsim.table.policies`` reads
``rollout:16`` as ``ROLLOUT | 16 << WORLDS_SHIFT``).

Search policies compile only into play loops that may need them.  A search policy plays
hands out (or solves them) at every decision, so compiling it into every play loop cost
a minute of compile time per kernel.  Play-policy arrays that name a search policy are
therefore of ``SEARCH_DTYPE`` (int32; ``pitchsim.table.policies.play_array`` makes
them), plain ones int64; the policy's integer type picks, at compile time, whether
the play loop has a search branch (``search.rollout.seat_search_card``).  A search
id in an int64 array raises, never plays a wrong card.

To add a policy: give it the next id below and a branch in
``kernels.policies.cards.choose_card`` (a search policy: in
``kernels.search.rollout.search_card``); ``pitchsim.table.policies`` lists it by name.
"""

import numpy as np

RANDOM = 0
HEURISTIC = 1
ROLLOUT = 2
PIMC = 3
EPIMC = 4  # pimc with the seat's next decision one for the worlds it cannot tell apart
PLAY_POLICY_IDS = {
    "random": RANDOM,
    "heuristic": HEURISTIC,
    "rollout": ROLLOUT,
    "pimc": PIMC,
    "epimc": EPIMC,
}
WORLDS_SHIFT = 8
KIND_MASK = (1 << WORLDS_SHIFT) - 1
SEARCH_DTYPE = np.int32  # play-policy arrays that may name a search policy
PLAIN_DTYPE = np.int64  # and those that may not
# The family kernels' arrays whose search is rollout alone: no solver compiled in
# (``pitchsim.table.boards.seat_ids``).
ROLLOUT_DTYPE = np.uint32
