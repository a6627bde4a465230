"""Many hands at once: parallel loops over deal indices.

Deals are split into fixed blocks for ``prange``; each deal draws only from its own
key (seed, deal index), so the outcome arrays are identical on any thread count and
block size.  A block is 4,096 deals, or 8 when a seat searches (``deals_per_block``).
"""

import numpy as np
from numba import njit, prange

from .deal import deal_hands
from .hand import hand_scratch, points_flags, score_hand
from .play import play_hand
from .policies import KIND_MASK, PIMC, ROLLOUT
from .rng import deal_key

BLOCK = 4096
# A searching seat makes a deal cost ~10**3-10**5 times a heuristic one, and unevenly:
# a few hundred search deals in blocks of 4,096 would all land on one thread.
SEARCH_BLOCK = 8
PITCHER = 0


@njit(cache=True)
def any_search(policies):
    """Does any seat of ``policies`` (one play-policy id per seat) search?"""
    for p in policies:
        kind = p & KIND_MASK
        if kind == ROLLOUT or kind == PIMC:
            return True
    return False


@njit(cache=True)
def deals_per_block(policies):
    """The block size for a run played by ``policies``."""
    return SEARCH_BLOCK if any_search(policies) else BLOCK


@njit(cache=True, inline="always")
def deal_and_play(
    key,
    n,
    fixed_hand,
    template,
    fixed_trump,
    policies,
    rules,
    dealt,
    hands,
    won,
    trick,
    deck,
    award,
    log,
):
    """Deal ``key``'s hands (seat 0 pitches, holding ``fixed_hand`` when non-zero), play
    them out (``fixed_trump`` >= 0: the pitcher leads that suit) and fill ``award``;
    return trump.  The arrays are ``hand_scratch``'s; ``log`` as for ``play_hand``.
    """
    deal_hands(key, n, PITCHER, fixed_hand, template, deck, dealt)
    trump = play_hand(
        dealt, n, PITCHER, 0, fixed_trump, -1, policies, rules, key, hands, won, trick, log
    )
    score_hand(dealt, won, n, trump, rules, award)
    return trump


@njit(cache=True, parallel=True, nogil=True)
def simulate_hands(
    seed,
    start,
    count,
    n,
    fixed_hand,
    template,
    fixed_trump,
    policies,
    rules,
    out_flags,
    out_trump,
    out_hand,
    out_in_play,
):
    """Play deals ``start .. start+count-1`` with seat 0 as pitcher.

    ``fixed_hand`` (mask, 0 for a random one) is the pitcher's hand; ``template`` is
    the deck without it.  Per deal: ``out_flags`` bit i = point i (High, Low, Jack,
    Game) went to the pitcher's side; ``out_trump``; ``out_hand`` the pitcher's hand
    and ``out_in_play`` the cards dealt to anyone (each written only when its size > 0).
    """
    no_log = np.empty(0, dtype=np.int64)
    block = deals_per_block(policies)
    blocks = (count + block - 1) // block
    for b in prange(blocks):
        dealt, hands, won, trick, deck, award = hand_scratch(n)
        for d in range(b * block, min(count, (b + 1) * block)):
            key = deal_key(seed, start + d)
            trump = deal_and_play(
                key,
                n,
                fixed_hand,
                template,
                fixed_trump,
                policies,
                rules,
                dealt,
                hands,
                won,
                trick,
                deck,
                award,
                no_log,
            )
            out_flags[d] = points_flags(award, PITCHER, rules)
            out_trump[d] = trump
            if out_hand.size > 0:
                out_hand[d] = dealt[PITCHER]
            if out_in_play.size > 0:
                in_play = np.int64(0)
                for s in range(n):
                    in_play |= dealt[s]
                out_in_play[d] = in_play


@njit(cache=True)
def play_logged(
    seed, deal, n, fixed_hand, template, fixed_trump, policies, rules, dealt, log, award
):
    """One deal, recording every trick in ``log`` (size 6 * (n + 2)); returns trump."""
    _, hands, won, trick, deck, _ = hand_scratch(n)  # the caller's dealt and award instead
    return deal_and_play(
        deal_key(seed, deal),
        n,
        fixed_hand,
        template,
        fixed_trump,
        policies,
        rules,
        dealt,
        hands,
        won,
        trick,
        deck,
        award,
        log,
    )
