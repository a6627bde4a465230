"""The called partner (docs/rules.md 12.1) in the family kernels: pitchsim's call, who
the partner is when play starts, and who owes the called card to the first trick.  The
reference engine's ``game.reference.partner``; the sides it makes for the points are
``score.score_hand``'s and ``settle``'s ``partner`` argument.
"""

import numpy as np
from numba import njit

from .bits import highest_card, lowest_card
from .deal import cards_each
from .draw import discard_and_draw, take_kitty
from .presets import (
    F_DISCARD,
    F_KITTY,
    F_PARTNER,
    PARTNER_ANNOUNCED,
    PARTNER_CALLED,
    PARTNER_NONE,
    T_TRUMPS,
)
from .score import side_of
from .trump_order import order_cards, trump_order


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
def call_of(dealt, held, trump, fr, tab):
    """pitchsim's call, read back from the pitcher's hand as dealt (``dealt``: under
    called the call comes before any discard or kitty, 12.1.2) or as held when play
    starts (``held``: under announced it comes after them, 12.1.4); -1: no partner.
    ``after_naming`` makes the same call as the hand goes."""
    if fr[F_PARTNER] == PARTNER_CALLED:
        return highest_missing_trump(dealt, trump, tab)
    if fr[F_PARTNER] == PARTNER_ANNOUNCED:
        return highest_missing_trump(held, trump, tab)
    return np.int64(-1)


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
def call_and_partner(dealt, held, n, pitcher, trump, fr, tab):
    """pitchsim's call read back (``call_of``, from the pitcher's hand in ``dealt`` and
    ``held``, every seat's) and the seat holding it (``partner_of``): (-1, -1) without
    a partner."""
    called = call_of(dealt[pitcher], held[pitcher], trump, fr, tab)
    return called, partner_of(held, n, pitcher, called)


@njit(cache=True, inline="always")
def hand_side(seat, pitcher, partner, fr):
    """The side ``seat`` plays on for the hand: ``score.side_of``, or under a called
    partner (12.1.6) the pitcher's seat for him and ``partner`` and -1 for all the others
    (the reference's ``sides_of``)."""
    if fr[F_PARTNER] == PARTNER_NONE:
        return side_of(seat, fr)
    return pitcher if seat == pitcher or seat == partner else -1


@njit(cache=True, inline="always")
def known_partner(seat, hand, pby, n, pitcher, called, partner, fr):
    """The partner as ``seat`` (holding ``hand``, ``pby[s]`` the cards seat s played)
    knows him (12.1.10), as the reference's ``known_partner``: -1 unknown, else the
    partner's seat, the pitcher's own when he is known to play alone.  ``partner`` is
    the true one (``partner_of``), read only where the seat knows it: under announced
    (12.1.4), once the card is played (12.1.3), by the partner himself or by a pitcher
    holding his own call (12.1.2)."""
    if called < 0:
        return -1
    b = np.int64(1) << called
    played = False
    for s in range(n):
        if pby[s] & b:
            played = True
    if fr[F_PARTNER] == PARTNER_ANNOUNCED or played:
        return pitcher if partner < 0 else partner
    if (hand | pby[seat]) & b:
        return seat  # the partner, or a pitcher holding his own call: alone
    return -1


@njit(cache=True, inline="always")
def trick1_others(n, trick_no, trick, tseats, count, called):
    """The seats that played to trick 1 a card other than the call (bit per seat;
    ``worlds.partner_constraint``'s ``trick1``): after trick 1 every seat (one that
    played the call is known, and a seat out of the hand under follow=only holds no
    trump), during it those that have played."""
    if trick_no > 0:
        return (np.int64(1) << n) - 1
    m = np.int64(0)
    for k in range(count):
        if trick[k] != called:
            m |= np.int64(1) << tseats[k]
    return m


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
    if fr[F_KITTY] != 0:  # 12.2.2: before any other discard
        kitty = take_kitty(held, deck, size, pitcher, trump, fr, tab, keep)
    if fr[F_DISCARD] != 0:
        top = n * cards_each(n, fr)
        drawn = discard_and_draw(
            held, n, deck, top, size, pitcher, dealer, trump, fr, tab, key, junk_log, keep
        )
    if fr[F_PARTNER] == PARTNER_ANNOUNCED:
        called = highest_missing_trump(held[pitcher], trump, tab)
    return drawn, kitty, called
