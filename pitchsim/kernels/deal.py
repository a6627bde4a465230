"""Dealing: partial Fisher-Yates over the unseen cards, driven by the deal's own key."""

import numpy as np
from numba import njit

from .rng import DEAL_COUNTER, below

HAND_SIZE = 6


def deck_without(fixed_hand: int) -> np.ndarray:
    """The cards not in ``fixed_hand``, as the template a deal is shuffled from."""
    return np.array([c for c in range(52) if not fixed_hand >> c & 1], dtype=np.int64)


@njit(cache=True, inline="always")
def deal_hands(key, n, fixed_seat, fixed_hand, template, deck, dealt):
    """Fill ``dealt[0:n]`` with six-card masks.

    Seat ``fixed_seat`` gets ``fixed_hand`` when it is non-zero (``template`` is then
    the deck without it); every other seat gets six cards drawn from ``template``.
    ``deck`` is scratch space of at least ``template.size``.  The result depends only
    on ``key``, never on what was dealt before.
    """
    m = template.size
    deck[:m] = template
    pos = 0
    for seat in range(n):
        if fixed_hand != 0 and seat == fixed_seat:
            dealt[seat] = fixed_hand
            continue
        hand = np.int64(0)
        for _ in range(HAND_SIZE):
            j = pos + below(key, DEAL_COUNTER + pos, m - pos)
            c = deck[j]
            deck[j] = deck[pos]
            deck[pos] = c
            hand |= np.int64(1) << c
            pos += 1
        dealt[seat] = hand
