"""Relative ranks for the solver's transposition table.

Once cards are played, only the order of the cards still in play matters, not their
names -- except for cards that score (game-count cards, the high, low and jack of
trump).  So a position's key renames the other cards ("plain" cards: 2-9 of a side
suit, 2-9 of trump other than High and Low) to the lowest ranks of their suit, in order,
keeping who holds each: positions that differ only in which plain cards were played
share a table entry.  (DDS, the bridge solver, keys its table on relative ranks too.)

In a side suit plain cards lie below every scoring card (the ten up); in trump, between
Low (the lowest trump in play) and the ten or High, so there they start just above
Low's rank.  Renaming keeps every card below or above the same cards as before.
"""

from numba import njit

from ..bits import gather, popcount, scatter, suit_mask


@njit(cache=True)
def relative_hands(hands, n, rest, worth, trump, low_rank, out):
    """``out[:n]``: the hands with their plain cards renamed to relative ranks.

    ``rest`` is every card still held, ``worth`` the cards that score, ``low_rank`` the
    rank of the lowest trump in play."""
    plain = rest & ~worth
    for s in range(n):
        out[s] = hands[s] & worth
    for u in range(4):
        m = plain & suit_mask(u)
        if m == 0:
            continue
        base = 13 * u + (low_rank + 1 if u == trump else 0)
        for s in range(n):
            out[s] |= gather(hands[s], m) << base


@njit(cache=True)
def relative_mask(cards, rest, worth, trump, low_rank):
    """The plain cards of ``cards`` renamed as ``relative_hands`` renames them (the
    solver's relevant ranks in a table entry): valid for every position with the key."""
    plain = rest & ~worth
    out = 0
    for u in range(4):
        m = plain & suit_mask(u)
        if cards & m:
            out |= gather(cards, m) << (13 * u + (low_rank + 1 if u == trump else 0))
    return out


@njit(cache=True)
def absolute_mask(rel, rest, worth, trump, low_rank):
    """``relative_mask``'s inverse for the position with these ``rest`` cards: the cards
    of ``rest`` whose relative ranks are in ``rel``."""
    if rel == 0:
        return 0
    plain = rest & ~worth
    out = 0
    for u in range(4):
        m = plain & suit_mask(u)
        if m == 0:
            continue
        r = rel >> (13 * u + (low_rank + 1 if u == trump else 0))
        out |= scatter(r & ((1 << popcount(m)) - 1), m)
    return out
