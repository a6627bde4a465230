"""A hand of Pitch in kernels: the legal cards, a trick's winner, High, Low, Jack and Game.

The rules of a hand, below any policy: the search's playouts (``search.playout``) finish
hands with them, and the policies read them.  (Every preset's hands are played by
``kernels/families/``; the base game's own loop, ``kernels/play.py``, is gone.)  Mirrors ``pitchsim.game.reference.hand`` and ``.score``.
"""

import numpy as np
from numba import njit

from ..game.rules import R_LOW_DEALT, R_PARTNERSHIP
from .bits import JACK, bit, game_count, highest_card, lowest_card, suit_mask

TRICKS = 6
HIGH, LOW, JACK_POINT, GAME = 0, 1, 2, 3
# Per-trick record in a play log: leader, the n cards in play order, winner.


@njit(cache=True, inline="always")
def legal_cards(hand, led_suit, trump, must_follow):
    """Cards ``hand`` may play to a trick led in ``led_suit`` (-1: leading)."""
    if led_suit < 0:
        return hand
    return follow_cards(hand, suit_mask(led_suit), trumping_in(led_suit, trump, must_follow))


# A play loop works the masks out once a trick and calls the two helpers below (and
# ``opening_lead_cards``, ``winning_card``) directly: tests/test_kernel_edges.py checks
# they give ``legal_cards``' answers.


@njit(cache=True, inline="always")
def trumping_in(led_suit, trump, must_follow):
    """The trump suit's mask when a player able to follow may trump instead (a side suit
    led, and the follow rule allows it), else 0."""
    return np.int64(0) if led_suit == trump or must_follow else suit_mask(trump)


@njit(cache=True, inline="always")
def follow_cards(hand, led_mask, trump_ok):
    """Cards ``hand`` may play to a trick whose led suit is ``led_mask`` (0: leading):
    that suit, or with ``trump_ok`` (from ``trumping_in``) a trump too; anything when void."""
    follow = hand & led_mask
    # Written as a select: this branch is data-dependent and mispredicts.
    return hand if follow == 0 else follow | (hand & trump_ok)


@njit(cache=True, inline="always")
def opening_lead_cards(hand, fixed_trump):
    """Cards the pitcher may lead to the first trick: any, or only the suit fixed as
    trump before play (``fixed_trump`` >= 0) when he holds it."""
    if fixed_trump >= 0 and hand & suit_mask(fixed_trump) != 0:
        return hand & suit_mask(fixed_trump)
    return hand


@njit(cache=True, inline="always")
def winning_card(taken, led_mask, trump_mask):
    """The card that wins a trick of the cards ``taken``: the highest trump in it, else
    the highest card of the led suit (masks of those suits).  Masks, not card-by-card
    comparisons, whose branches are data-dependent; the order ``beats`` defines."""
    top = taken & trump_mask
    if top == 0:
        top = taken & led_mask
    return highest_card(top)


@njit(cache=True, inline="always")
def strength(card, led_suit, trump):
    """Orders the cards of one trick: any trump > any led-suit card > anything else."""
    suit = card // 13
    return card % 13 + 16 * (suit == led_suit) + 32 * (suit == trump)


@njit(cache=True, inline="always")
def beats(card, best, led_suit, trump):
    """Does ``card`` beat the trick's current best card?"""
    return strength(card, led_suit, trump) > strength(best, led_suit, trump)


@njit(cache=True, inline="always")
def suit_of(card):
    """``card // 13`` for a card 0..51, without the sign fix-ups of Python's ``//``."""
    return (card * 5042) >> 16


@njit(cache=True, inline="always")
def _capturer(won, n, card):
    for s in range(n):
        if won[s] & bit(card):
            return s
    return -1


@njit(cache=True, inline="always")
def _seat_of(p0, p1, p2, card):
    """The seat whose cards, as three bit planes of the seat number, hold ``card``."""
    b = bit(card)
    return ((p0 & b) != 0) + 2 * ((p1 & b) != 0) + 4 * ((p2 & b) != 0)


@njit(cache=True, inline="always")
def score_hand(dealt, won, n, trump, rules, award):
    """Fill ``award`` with the seat credited with High, Low, Jack, Game (-1: nobody).

    Capture-based: each point goes to whoever won the card in a trick (Low to whoever
    was dealt it under low = dealt).  Game needs a single highest count; partners pool
    theirs, and the team's Game is credited to its lower seat (0 or 1).
    """
    in_play = np.int64(0)
    w0 = w1 = w2 = np.int64(0)
    for s in range(8):  # an early exit: not vectorized (see play_hand)
        if s == n:
            break
        in_play |= dealt[s]
        w = won[s]
        w0 |= w & -(s & 1)
        w1 |= w & -((s >> 1) & 1)
        w2 |= w & -((s >> 2) & 1)
    trumps = in_play & suit_mask(trump)
    award[HIGH] = _seat_of(w0, w1, w2, highest_card(trumps))
    low = lowest_card(trumps)
    if rules[R_LOW_DEALT] != 0:
        award[LOW] = _capturer(dealt, n, low)
    else:
        award[LOW] = _seat_of(w0, w1, w2, low)
    jack = trump * 13 + JACK
    award[JACK_POINT] = _seat_of(w0, w1, w2, jack) if in_play & bit(jack) else -1
    partners = rules[R_PARTNERSHIP] != 0
    sides = 2 if partners else n
    best = -1
    best_side = -1
    tied = False
    for side in range(8):
        if side == sides:
            break
        count = game_count(won[side])
        if partners:
            count += game_count(won[side + 2])
        # Selects: who leads the count is data-dependent.
        gt = count > best
        tied = (count == best) | (tied & ~gt)
        best_side = side if gt else best_side
        best = count if gt else best
    award[GAME] = -1 if tied else best_side


@njit(cache=True, inline="always")
def side_of(seat, rules):
    return seat % 2 if rules[R_PARTNERSHIP] != 0 else seat


@njit(cache=True, inline="always")
def points_flags(award, seat, rules):
    """Bit i set when point i (High, Low, Jack, Game) went to ``seat``'s side."""
    side = side_of(seat, rules)
    flags = 0
    for i in range(4):
        if award[i] >= 0 and side_of(award[i], rules) == side:
            flags |= 1 << i
    return flags


@njit(cache=True, inline="always")
def points_won(award, seat, rules):
    """How many of the four points went to ``seat``'s side."""
    flags = points_flags(award, seat, rules)
    return (flags & 1) + (flags >> 1 & 1) + (flags >> 2 & 1) + (flags >> 3 & 1)
