"""The resampler of hidden cards: one deal consistent with what one player has seen
(``draw_world``).  The preset kernels' world sampler (``kernels.search.worlds``, the
worlds of search play and ``hint``) deals with it when no card must be placed.

Contract
--------
What the player ``me`` at an n-seat table knows is a *constraint*:

- ``unseen``: the cards ``me`` has not seen (not in his hand, not played).  They are in
  the other hands or out of play.
- ``counts[s]``: how many cards seat s still holds (``counts[me]`` is not used).
- ``allowed[s]``: the cards seat s may hold, a mask: ``unseen`` less the suits s has
  shown void in.  Any other card-by-card knowledge fits the same mask.

A *world* gives every seat s != me ``counts[s]`` cards of ``unseen & allowed[s]``, no
card twice; the unseen cards nobody gets are out of play.  ``world[me]`` is ``hand``.

``draw_world(key, attempt, n, me, hand, unseen, counts, allowed, world) -> bool``
    One attempt; fills ``world[:n]`` and says whether it is kept.  The kept worlds of
    attempts 0, 1, 2, ... are independent and exactly uniform over every world
    consistent with the constraint (rejection sampling, see below).  An attempt uses
    only the counters ``attempt * STRIDE + 0 .. STRIDE - 2`` of the stream ``key``.

How: seats are dealt one at a time, the most constrained first, each a uniform subset
of the cards it may hold that are still free.  That proposal favours some worlds:
world w comes out with probability prod_k 1 / C(a_k(w), c_k), where a_k(w) is the
number of allowed cards still free when seat k is dealt (c_k of them).  Keeping it
with probability prod_k C(a_k(w), c_k) / C(B_k, c_k), for fixed bounds B_k >= a_k,
makes every world equally likely, exactly.  B_k = min(allowed cards of k less those
the seats dealt before must have taken of them, free cards left): a seat dealt before
k holding c_j cards of which at most o_j lie outside k's allowed cards took at least
c_j - o_j of k's.  So seats with no void shown (dealt last) never cause a rejection,
nor does a seat allowed every card of one dealt before (seats allowed the same cards,
or those a seat allowed more may hold, 12.9's discards drawn back).
"""

import numpy as np
from numba import njit

from ..bits import nth_bit, popcount
from ..rng import draw, split_below

STRIDE = 16  # counters per attempt: one per seat, the acceptance draw (and one spare)
_ACCEPT = STRIDE - 2
_TO_UNIT = 1.0 / 9007199254740992.0  # 2**-53


@njit(cache=True, inline="always")
def unit(key, counter):
    """A uniform float in [0, 1) from position ``counter`` of stream ``key``."""
    return np.float64(draw(key, counter) >> np.uint64(11)) * _TO_UNIT


@njit(cache=True)
def draw_world(key, attempt, n, me, hand, unseen, counts, allowed, world):
    """One attempt at a world; True when it is kept (then uniform; see the contract)."""
    # The order: seats with fewer cards allowed first (insertion sort; n <= 7).
    order = np.empty(8, dtype=np.int64)
    room = np.empty(8, dtype=np.int64)
    m = 0
    for s in range(n):
        if s == me:
            continue
        r = popcount(allowed[s] & unseen)
        j = m
        while j > 0 and room[j - 1] > r:
            order[j] = order[j - 1]
            room[j] = room[j - 1]
            j -= 1
        order[j] = s
        room[j] = r
        m += 1
    world[me] = hand
    free = unseen
    left = popcount(unseen)
    keep = 1.0
    for k in range(m):
        s = order[k]
        c = counts[s]
        pool = allowed[s] & free
        a = popcount(pool)
        # The seats dealt before took at least c_j - |their cards outside s's| of s's.
        taken = 0
        for i in range(k):
            j = order[i]
            taken += max(0, counts[j] - popcount(allowed[j] & unseen & ~allowed[s]))
        bound = min(room[k] - taken, left)
        if a < c:
            return False
        for j in range(c):
            keep *= (a - j) / (bound - j)
        r = draw(key, attempt * STRIDE + k)
        cards = np.int64(0)
        for _ in range(c):
            i, r = split_below(r, a)
            b = nth_bit(pool, i)
            pool ^= b
            cards |= b
            a -= 1
        world[s] = cards
        free &= ~cards
        left -= c
    return keep >= 1.0 or unit(key, attempt * STRIDE + _ACCEPT) < keep
