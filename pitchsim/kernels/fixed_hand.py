"""One known hand, many deals: the hand in the pitcher's seat or in a defender's.

``bid-odds`` asks both questions of a hand: what it wins as pitcher (seat 0, leading),
and what it wins as a defender when another seat pitches (the value of passing).  Deal
d draws from its own key (seed, d), as in :mod:`pitchsim.kernels.simulate`, so with the
hand in seat 0 the outcomes are exactly ``simulate_hands``'.
"""

import numpy as np
from numba import njit, prange

from ..game.rules import R_PARTNERSHIP
from .deal import deal_hands
from .hand import hand_scratch, points_flags, score_hand
from .play import play_hand
from .rng import deal_key
from .simulate import deals_per_block

PITCHER = 0
AS_DEFENDER = -1  # ``hand_seat``: a defender's seat, taken in turn deal by deal


@njit(cache=True, inline="always")
def defender_seat(d, n, partnership):
    """The seat holding the hand in deal ``d`` when it defends: every opponent of the
    pitcher (seat 0) in turn, so each place in the play order counts equally."""
    if partnership:
        return 1 + 2 * (d % 2)  # seats 1 and 3
    return 1 + d % (n - 1)


@njit(cache=True, parallel=True, nogil=True)
def play_fixed_hand(
    seed,
    start,
    count,
    n,
    hand_seat,
    fixed_hand,
    template,
    fixed_trump,
    bid,
    policies,
    rules,
    out_mine,
    out_awarded,
    out_trump,
):
    """Play deals ``start .. start+count-1``: seat 0 pitches and leads (``fixed_trump``
    >= 0: that suit), ``fixed_hand`` sits in ``hand_seat`` (``AS_DEFENDER``: see
    :func:`defender_seat`).  ``bid`` is what the search policies aim at (the pitcher's
    side plays to reach it, the defenders to set it; 0: the most points and the
    fewest); heuristic and random play ignore it.

    Per deal: ``out_mine`` bit i = point i (High, Low, Jack, Game) went to the side of
    the hand's seat; ``out_awarded`` bit i = point i went to anyone (a jack not dealt
    or a tied Game goes to nobody); ``out_trump``.
    """
    no_log = np.empty(0, dtype=np.int64)
    partnership = rules[R_PARTNERSHIP] != 0
    block = deals_per_block(policies)  # small blocks when a seat searches
    blocks = (count + block - 1) // block
    for b in prange(blocks):
        dealt, hands, won, trick, deck, award = hand_scratch(n)
        for d in range(b * block, min(count, (b + 1) * block)):
            deal = start + d
            seat = hand_seat if hand_seat >= 0 else defender_seat(deal, n, partnership)
            key = deal_key(seed, deal)
            deal_hands(key, n, seat, fixed_hand, template, deck, dealt)
            trump = play_hand(
                dealt,
                n,
                PITCHER,
                bid,
                fixed_trump,
                -1,
                policies,
                rules,
                key,
                hands,
                won,
                trick,
                no_log,
            )
            score_hand(dealt, won, n, trump, rules, award)
            out_mine[d] = points_flags(award, seat, rules)
            awarded = 0
            for i in range(4):
                if award[i] >= 0:
                    awarded |= 1 << i
            out_awarded[d] = awarded
            out_trump[d] = trump
