"""Family hands recorded card by card, in parallel: what the exact checks and the
family sections of the report read (``pitchsim.study.families``).

Deal d is exactly ``simulate.simulate_family_hands``' deal d (seat 0 pitches, the
dealer is seat n-1, the key is (seed, d)), so the points recorded here are the ones
``family_make_odds`` counts; this kernel also keeps every seat's cards as dealt and
as held when play starts, trump and every award.
"""

import numpy as np
from numba import njit, prange

from ..rng import deal_key
from .score import N_AWARDS
from .simulate import PITCHER, family_hand, hand_scratch

BLOCK = 2048


@njit(cache=True, parallel=True, nogil=True)
def record_family_hands(
    seed, start, count, n, policies, fr, tab, out_dealt, out_held, out_trump, out_points, out_award
):
    """Play deals ``start .. start+count-1``; row ``d`` of ``out_dealt`` / ``out_held``
    (count x n) gets every seat's cards dealt / held when play starts, ``out_trump[d]``
    trump, ``out_points[d]`` the points the pitcher's side won and ``out_award[d]``
    (count x ``score.N_AWARDS``) the seat credited with each award (``score``)."""
    no_log = np.empty(0, dtype=np.int64)
    blocks = (count + BLOCK - 1) // BLOCK
    for b in prange(blocks):
        deck, dealt, held, hands, won, trick, tseats, award, points, junk = hand_scratch(n)
        for d in range(b * BLOCK, min(count, (b + 1) * BLOCK)):
            trump, _, _, _, _, _ = family_hand(
                deal_key(seed, start + d),
                n,
                n - 1,
                PITCHER,
                0,
                policies,
                fr,
                tab,
                deck,
                dealt,
                held,
                hands,
                won,
                trick,
                tseats,
                award,
                points,
                no_log,
                no_log,
                junk,
            )
            for s in range(n):
                out_dealt[d, s] = dealt[s]
                out_held[d, s] = held[s]
            out_trump[d] = trump
            out_points[d] = points[PITCHER]
            for i in range(N_AWARDS):
                out_award[d, i] = award[i]
