"""The called partner (docs/rules.md 12.1) in the family kernels: pitchsim's call, who
the partner is when play starts, and who owes the called card to the first trick.  The
reference engine's ``game.reference.partner``; the sides it makes for the points are
``score.score_hand``'s and ``settle``'s ``partner`` argument.
"""

import numpy as np
from numba import njit

from ..bits import highest_card, lowest_card
from ..trump_order import order_cards, trump_order
from .deal import cards_each
from .draw import discard_and_draw, take_kitty
from .tables import (
    F_DISCARD,
    F_KITTY,
    F_PARTNER,
    PARTNER_ANNOUNCED,
    PARTNER_CALLED,
    T_TRUMPS,
)


@njit(cache=True, inline="always")
def highest_missing_trump(hand, trump, tab):
    """pitchsim's call under called and announced alike (12.1.2, 12.1.4): the highest
    trump of the trump order (every trump of the rules, also one the pack leaves out)
    that ``hand`` does not hold; a hand holding every trump calls the highest."""
    tm = tab[trump, T_TRUMPS]
    missing = tm & ~hand
    ob = trump_order(missing if missing != 0 else tm, trump)
    return lowest_card(order_cards(np.int64(1) << highest_card(ob), trump))


@njit(cache=True, inline="always")
def partner_of(held, n, pitcher, called):
    """12.1.5: the seat holding ``called`` when play starts (``held``), or -1 when
    nobody but the pitcher does (his own, robbed or taken by him, or out of play) or
    nothing was called (``called`` < 0)."""
    if called < 0:
        return -1
    b = np.int64(1) << called
    for s in range(n):
        if s != pitcher and held[s] & b:
            return s
    return -1


@njit(cache=True, inline="always")
def duty_seat(held, n, pitcher, called, fr):
    """The seat that must play ``called`` to the first trick (12.1.3: the partner under
    partner=called), or -1: none (no call, announced, or the pitcher alone)."""
    if fr[F_PARTNER] != PARTNER_CALLED:
        return -1
    return partner_of(held, n, pitcher, called)


@njit(cache=True, inline="always")
def after_naming(held, n, deck, size, pitcher, dealer, trump, fr, tab, key, junk_log):
    """What follows the naming of trump, on ``held`` (the hands as dealt) in place: the
    call under partner=called (12.1.2: before any discard or kitty), the discard and
    draw (4.8, passing over the called card, 12.1.3) or the kitty (12.2.2), and the call
    under announced (12.1.4: after them).  Returns (the cards drawn from the discards,
    the kitty taken as a mask, the card called or -1)."""
    called = np.int64(-1)
    keep = np.int64(0)
    if fr[F_PARTNER] == PARTNER_CALLED:
        called = highest_missing_trump(held[pitcher], trump, tab)
        keep = np.int64(1) << called
    drawn = 0
    kitty = np.int64(0)
    if fr[F_DISCARD] != 0:
        top = n * cards_each(n, fr)
        drawn = discard_and_draw(
            held, n, deck, top, size, pitcher, dealer, trump, fr, tab, key, junk_log, keep
        )
    elif fr[F_KITTY] != 0:  # 12.2.2
        kitty = take_kitty(held, deck, size, pitcher, trump, fr, tab, keep)
    if fr[F_PARTNER] == PARTNER_ANNOUNCED:
        called = highest_missing_trump(held[pitcher], trump, tab)
    return drawn, kitty, called
