"""One resampler of hidden cards: deals consistent with what one player has seen.

Search play samples *worlds* from a player's view of the play; the advisor samples
deals from a player's view of the auction.  Both use this module (OpenSpiel's
``ResampleFromInfostate``; redeal's ``accept`` hook).

Contract (stable; callers in ``kernels/policies`` and the advisor rely on it)
------------------------------------------------------------------------------
What the player ``me`` at an n-seat table knows is a *constraint*:

- ``unseen``: the cards ``me`` has not seen (not in his hand, not played).  They are in
  the other hands or out of play (52 - 6n cards are never dealt).
- ``counts[s]``: how many cards seat s still holds (``counts[me]`` is not used).
- ``allowed[s]``: the cards seat s may hold, a mask: ``unseen`` less the suits s has
  shown void in (``void_suits``).  Any other card-by-card knowledge fits the same mask.

A *world* gives every seat s != me ``counts[s]`` cards of ``unseen & allowed[s]``, no
card twice; the unseen cards nobody gets are out of play.  ``world[me]`` is ``hand``.

``draw_world(key, attempt, n, me, hand, unseen, counts, allowed, world) -> bool``
    One attempt; fills ``world[:n]`` and says whether it is kept.  The kept worlds of
    attempts 0, 1, 2, ... are independent and exactly uniform over every world
    consistent with the constraint (rejection sampling, see below).  An attempt uses
    only the counters ``attempt * STRIDE + 0 .. STRIDE - 2`` of the stream ``key``.
``evidence_draw(key, attempt) -> float``
    A uniform [0, 1) for the same attempt (its counter ``attempt * STRIDE + STRIDE - 1``
    is left for this): accept a kept world with probability L(world) by
    ``evidence_draw(key, a) < L(world)`` and the accepted worlds are distributed in
    proportion to L, e.g. the posterior given the calls heard when L is a bidding
    model's probability of those calls.  This is the accept hook: to condition on
    more evidence, loop over attempts yourself::

        for a in range(max_attempts):
            if draw_world(key, a, n, me, hand, unseen, counts, allowed, world) and \\
                    evidence_draw(key, a) < likelihood(world, ...):
                ...  # one more world
``sample_worlds(key, n, me, hand, unseen, counts, allowed, worlds, max_attempts)``
    The loop for play (no further evidence): ``worlds[w, :n]`` for w < W =
    ``worlds.shape[0]``; returns (worlds kept, attempts made).  Fewer than W kept
    means ``max_attempts`` ran out (the constraint admits no world, or hardly any).
``view_constraint(n, me, hand, trick_no, trick_len, leader, played, trick, who, voids,
counts, allowed, played_by) -> unseen``
    The constraint of a play policy's view (``kernels.policies``): fills ``counts``,
    ``allowed`` and ``played_by`` (the cards each seat has played, from ``who``), so
    that a world's hand as dealt is ``world[s] | played_by[s]``.

(Hooks are not passed as functions: a numba kernel that takes a function argument is
recompiled in every process, whatever ``cache=True`` says.)

How: seats are dealt one at a time, the most constrained first, each a uniform subset
of the cards it may hold that are still free.  That proposal favours some worlds:
world w comes out with probability prod_k 1 / C(a_k(w), c_k), where a_k(w) is the
number of allowed cards still free when seat k is dealt (c_k of them).  Keeping it
with probability prod_k C(a_k(w), c_k) / C(B_k, c_k), for fixed bounds B_k >= a_k,
makes every world equally likely, exactly.  B_k = min(allowed cards of k, free cards
left), so seats with no void shown (dealt last) never cause a rejection.
"""

import numpy as np
from numba import njit

from ..bits import nth_bit, popcount
from ..rng import draw, split_below
from ..view import played_by as _played_by
from ..view import void_suits

ALL_CARDS = np.int64((1 << 52) - 1)
HAND_SIZE = 6
STRIDE = 16  # counters per attempt: one per seat, the acceptance draw, the evidence draw
_ACCEPT = STRIDE - 2
_EVIDENCE = STRIDE - 1
_TO_UNIT = 1.0 / 9007199254740992.0  # 2**-53


@njit(cache=True, inline="always")
def _unit(key, counter):
    """A uniform float in [0, 1) from position ``counter`` of stream ``key``."""
    return np.float64(draw(key, counter) >> np.uint64(11)) * _TO_UNIT


@njit(cache=True)
def evidence_draw(key, attempt):
    """The uniform [0, 1) an accept hook compares its likelihood with (see above)."""
    return _unit(key, attempt * STRIDE + _EVIDENCE)


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
        bound = min(room[k], left)
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
    return keep >= 1.0 or _unit(key, attempt * STRIDE + _ACCEPT) < keep


@njit(cache=True)
def sample_worlds(key, n, me, hand, unseen, counts, allowed, worlds, max_attempts):
    """Up to ``worlds.shape[0]`` uniform worlds; returns (kept, attempts)."""
    kept = 0
    attempt = np.int64(0)
    while kept < worlds.shape[0] and attempt < max_attempts:
        if draw_world(key, attempt, n, me, hand, unseen, counts, allowed, worlds[kept]):
            kept += 1
        attempt += 1
    return kept, attempt


@njit(cache=True)
def view_constraint(
    n, me, hand, trick_no, trick_len, leader, played, trick, who, voids, counts, allowed, played_by
):
    """The constraint a play policy's view puts on the other hands (see the contract)."""
    seen = played
    for i in range(trick_len):
        seen |= np.int64(1) << trick[i]
    unseen = ALL_CARDS & ~(seen | hand)
    for s in range(n):
        # Seats from the leader up to ``me`` have played to this trick already.
        ahead = s - leader
        if ahead < 0:
            ahead += n
        counts[s] = HAND_SIZE - trick_no - (1 if ahead < trick_len else 0)
        allowed[s] = unseen & ~void_suits(voids, s)
        played_by[s] = _played_by(who, seen, s)
    return unseen
