"""The rules of one trick of a family hand, shared by the play loop (``play``) and the
rollout's play-out (``rollout``): who may lead, which cards are legal (VARIANTS.md
0.4, 3.7, 4.9) and who wins the trick (0.5), all by the masks and keys of ``tab``."""

import numpy as np
from numba import njit

from .presets import F_FOLLOW, F_LEAD_TRUMP, JOKERS, T_EFF, T_KEY, T_SUITS, T_TRUMPS

FOLLOW_TRUMP, FOLLOW_SUIT, FOLLOW_ONLY = 0, 1, 2
MAX_TRICKS = 10  # 6 after any draw; 10 is the most cards anyone is dealt


@njit(cache=True, inline="always")
def next_with_trump(hands, n, seat, tm):
    """The first seat from ``seat`` on, clockwise, holding a trump (-1: none)."""
    for i in range(n):
        s = (seat + i) % n
        if hands[s] & tm:
            return s
    return -1


@njit(cache=True, inline="always")
def legal_cards(hand, trick, count, trump, first, fr, tab):
    """The cards of ``hand`` that may be played to ``trick[:count]``; ``first``: the
    first lead of the hand.  ``trump`` is -1 before a first lead fixes it."""
    follow = fr[F_FOLLOW]
    if follow == FOLLOW_ONLY:
        return hand & tab[trump, T_TRUMPS]
    if count == 0:
        if first and trump < 0:
            return hand & ~JOKERS
        if first and fr[F_LEAD_TRUMP] != 0:
            t = hand & tab[trump, T_TRUMPS]
            return t if t else hand
        return hand
    led = tab[trump, T_EFF + trick[0]]
    have = hand & tab[trump, T_SUITS + led]
    if have == 0:
        return hand
    if follow == FOLLOW_SUIT:
        return have
    return have | (hand & tab[trump, T_TRUMPS])


@njit(cache=True, inline="always")
def trick_winner(trick, count, trump, tab):
    """The index in ``trick[:count]`` of the winning card (0.5)."""
    led = tab[trump, T_EFF + trick[0]]
    best = 0
    best_k = np.int64(-1)
    for i in range(count):
        c = trick[i]
        e = tab[trump, T_EFF + c]
        k = tab[trump, T_KEY + c] if (e == trump or e == led) else np.int64(-1)
        if k > best_k:
            best_k = k
            best = i
    return best


@njit(cache=True, inline="always")
def close_trick(trick, tseats, count, trump, hands, won, n, only, tm, tab):
    """A complete trick ``trick[:count]``, played by ``tseats``, goes to its winner's
    pile (``won``, in place).  Returns the cards taken and who leads next: the winner,
    or under follow=only the first seat from him still holding a trump (4.9; -1: none
    holds one)."""
    taken = np.int64(0)
    for k in range(count):
        taken |= np.int64(1) << trick[k]
    winner = tseats[trick_winner(trick, count, trump, tab)]
    won[winner] |= taken
    return taken, (next_with_trump(hands, n, winner, tm) if only else winner)


@njit(cache=True, inline="always")
def shown_void(card, trick, count, trump, first, fr, tab):
    """The effective suit a player shows void in by playing ``card`` to
    ``trick[:count]`` (-1: none): not following the led suit (nor trumping, where
    trumping in is allowed: follow=trump), or, under lead-trump, a first lead
    (``first``) that is not a trump.  Under follow=only every card played is a trump
    and shows nothing (a player out shows no trump: ``play.play_hand``)."""
    e = tab[trump, T_EFF + card]
    if count > 0:
        led = tab[trump, T_EFF + trick[0]]
        if e != led and (fr[F_FOLLOW] == FOLLOW_SUIT or e != trump):
            return led
    elif first and e != trump and fr[F_LEAD_TRUMP] != 0:
        return trump
    return np.int64(-1)
