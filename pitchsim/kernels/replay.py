"""Chosen deals of a run played again: another play model, or every hand open.

A study run deals deal d from its own key (seed, d); to compare play models on the
*same* deals (paired), the deals of interest (say, those in which the pitcher's trump
holding is A-x-x) are picked by index and played again here, each with the trump the
first run's pitcher led, so that only the play differs.  Deals are drawn exactly as
``simulate_hands`` draws them with no fixed hand (a random hand pitches in seat 0).
"""

import numpy as np
from numba import njit, prange

from .bits import bit, suit_mask
from .deal import deal_hands
from .hand import hand_scratch, points_flags, score_hand
from .play import play_hand
from .rng import deal_key
from .search.solver import new_table, solve_position
from .simulate import deals_per_block

PITCHER = 0
SOLVE_CHUNKS = 64  # deals are solved in this many chunks, one transposition table each


@njit(cache=True, parallel=True, nogil=True)
def replay_deals(seed, deals, n, template, trumps, bid, policies, rules, out_flags):
    """Play deal ``deals[i]`` of ``seed``'s stream with seat 0 pitching and leading
    ``trumps[i]``; the search policies aim at ``bid`` (0: the most points).

    ``out_flags[i]`` bit j = point j (High, Low, Jack, Game) went to the pitcher's side.
    """
    no_log = np.empty(0, dtype=np.int64)
    m = deals.size
    block = deals_per_block(policies)  # small blocks when a seat searches
    for b in prange((m + block - 1) // block):
        dealt, hands, won, trick, deck, award = hand_scratch(n)
        for i in range(b * block, min(m, (b + 1) * block)):
            key = deal_key(seed, deals[i])
            deal_hands(key, n, PITCHER, 0, template, deck, dealt)
            trump = play_hand(
                dealt,
                n,
                PITCHER,
                bid,
                trumps[i],
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
            out_flags[i] = points_flags(award, PITCHER, rules)


@njit(cache=True)
def solve_with_trump(dealt, n, trump, rules, table, hands, won, trick):
    """The double-dummy value (0-4) of a whole deal when the pitcher (seat 0) must open
    with a card of ``trump``: the best of those leads (any lead when he holds none)."""
    lead_from = dealt[PITCHER] & suit_mask(trump)
    if lead_from == 0:
        lead_from = dealt[PITCHER]
    best = -1
    for c in range(52):
        if not lead_from & bit(c):
            continue
        for s in range(n):
            hands[s] = dealt[s]
            won[s] = 0
        hands[PITCHER] &= ~bit(c)
        trick[0] = c
        v = solve_position(hands, won, dealt, n, PITCHER, trick, 1, c // 13, PITCHER, rules, table)
        if v > best:
            best = v
    return best


@njit(cache=True, parallel=True)
def solve_deals_with_trump(seed, deals, n, template, trumps, rules, out_value):
    """``out_value[i]``: deal ``deals[i]`` solved double-dummy, the pitcher opening with
    trump ``trumps[i]`` (see :func:`solve_with_trump`).  Chunks, not threads, own the
    tables, so the values do not depend on the thread count."""
    m = deals.size
    chunks = min(m, SOLVE_CHUNKS)
    for k in prange(chunks):
        table = new_table()
        dealt, hands, won, trick, deck, _ = hand_scratch(n)
        for i in range(k * m // chunks, (k + 1) * m // chunks):
            deal_hands(deal_key(seed, deals[i]), n, PITCHER, 0, template, deck, dealt)
            out_value[i] = solve_with_trump(dealt, n, trumps[i], rules, table, hands, won, trick)
