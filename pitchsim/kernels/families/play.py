"""A family hand played trick by trick in a kernel (VARIANTS.md 0.4-0.6, 3.7, 4.9).

Mirrors the reference engine's ``play_hand``:

- legality by the effective-suit masks of ``tab``: follow the led card's effective
  suit, or trump too under follow=trump, anything when void; the first lead under
  trump=first-lead any card but a joker (6.3.5), under lead-trump a trump if the
  pitcher holds one;
- follow=only: only trumps are played; a player with none is out; the trick's winner
  leads if still holding a trump, else the next player to the left who does (also the
  first lead); the hand ends when nobody holds a trump;
- the trick goes to the highest order key among the trumps and the led suit's cards.
"""

import numpy as np
from numba import njit

from ..rng import DECISION_COUNTER
from .policies import choose_card
from .tables import F_FOLLOW, F_LEAD_TRUMP, JOKERS, T_EFF, T_KEY, T_SUITS, T_TRUMPS

FOLLOW_SUIT, FOLLOW_ONLY = 1, 2
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


@njit(cache=True)
def play_hand(
    held,
    n,
    pitcher,
    bid,
    trump,
    first_lead,
    policies,
    fr,
    tab,
    key,
    hands,
    won,
    trick,
    tseats,
    log,
    legal_log,
):
    """Play a hand from ``held`` (the hands when the first card is led); return
    ``(trump, tricks)``.  ``trump`` -1: the first card's printed suit fixes it;
    ``first_lead`` >= 0: a card pitched in the auction that must lead.  ``hands``,
    ``won``, ``trick``, ``tseats`` are scratch of size n.  When ``log.size`` > 0 it gets
    per trick (``n + 2`` each) the leader, the card of each seat from the leader on
    (-1: out under follow=only) and the winner; ``legal_log`` (size ``MAX_TRICKS * n``
    or 0) the legal mask of every decision at ``trick * n + position``."""
    for s in range(n):
        hands[s] = held[s]
        won[s] = 0
    only = fr[F_FOLLOW] == FOLLOW_ONLY
    played = np.int64(0)
    leader = next_with_trump(hands, n, pitcher, tab[trump, T_TRUMPS]) if only else pitcher
    t = 0
    while leader >= 0 and hands[leader] != 0:
        count = 0
        taken = np.int64(0)
        seat = leader - 1
        for i in range(n):
            seat += 1
            if seat == n:
                seat = 0  # (no % in the loop: a division per card)
            hand = hands[seat]
            if only and hand & tab[trump, T_TRUMPS] == 0:
                if log.size > 0:
                    log[t * (n + 2) + 1 + i] = -1
                continue  # 4.9: out of the hand
            first = t == 0 and count == 0
            legal = legal_cards(hand, trick, count, trump, first, fr, tab)
            if legal_log.size > 0:
                legal_log[t * n + i] = legal
            if first and first_lead >= 0:
                card = first_lead
            else:
                card = choose_card(
                    policies[seat],
                    legal,
                    hand,
                    seat,
                    n,
                    pitcher,
                    bid,
                    trump,
                    t,
                    trick,
                    tseats,
                    count,
                    played,
                    won,
                    fr,
                    tab,
                    key,
                    DECISION_COUNTER + t * n + i,
                )
            if trump < 0:
                trump = card // 13  # 6.3.5: the first card's printed suit is trump
            b = np.int64(1) << card
            hands[seat] = hand & ~b
            trick[count] = card
            tseats[count] = seat
            taken |= b
            count += 1
            if log.size > 0:
                log[t * (n + 2) + 1 + i] = card
        winner = tseats[trick_winner(trick, count, trump, tab)]
        won[winner] |= taken
        played |= taken
        if log.size > 0:
            log[t * (n + 2)] = leader
            log[t * (n + 2) + n + 1] = winner
        t += 1
        leader = next_with_trump(hands, n, winner, tab[trump, T_TRUMPS]) if only else winner
    return trump, t
