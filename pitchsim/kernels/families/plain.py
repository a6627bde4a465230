"""A family hand played by the plain policies (random, heuristic): ``play_plain``.

The same hand as ``play.play_hand`` (which hands over to it when no seat searches),
trick for trick and card for card, in the base kernels' style (``kernels.play``):

- the led suit's mask and the trumps a player able to follow may add are found once
  a trick, when the lead is played, so a legal follow is two mask operations;
- the trick goes to the highest key among its trumps, else to the highest card of
  the led suit (a non-trump effective suit is one printed suit, keyed by rank): a
  mask, not a card-by-card comparison whose branches mispredict;
- who played the winning card is read off three bit planes of the seat numbers;
- the policy is called directly, on borrowed views of the arrays (``borrow``): no
  reference counting per card.

``play.play_hand``'s docstring gives the arguments and the logs, the same here.
"""

import numpy as np
from numba import njit

from ..bits import highest_card, lowest_card
from ..rng import DECISION_COUNTER
from .borrow import borrowed
from .policies import RANDOM, heuristic_card, random_card
from .tables import F_FOLLOW, F_LEAD_TRUMP, JOKERS, T_EFF, T_KEY, T_SUITS, T_TRUMPS
from .trick import FOLLOW_ONLY, FOLLOW_TRUMP, next_with_trump


@njit(cache=True, inline="always")
def _winning_card(taken, tm, led_mask, trump, tab):
    """The card that wins a trick of the cards ``taken`` (``trick.trick_winner``)."""
    top = taken & tm
    if top == 0:
        return highest_card(taken & led_mask)
    best = lowest_card(top)
    best_k = tab[trump, T_KEY + best]
    top &= top - 1
    while top:
        c = lowest_card(top)
        top &= top - 1
        k = tab[trump, T_KEY + c]
        best = c if k > best_k else best
        best_k = k if k > best_k else best_k
    return best


@njit(cache=True)
def play_plain(
    held, n, pitcher, bid, trump, first_lead, policies, fr, tab, key, hands, won, trick,
    tseats, log, legal_log,
):  # fmt: skip
    """``play.play_hand`` for seats that do not search; returns ``(trump, tricks)``.
    A table of random players gets a loop without the heuristic in it (its code
    compiled in the loop slows every card, taken or not)."""
    for s in range(n):
        if policies[s] != RANDOM:
            return _play_plain(
                held, n, pitcher, bid, trump, first_lead, policies, fr, tab, key, hands,
                won, trick, tseats, log, legal_log, True,
            )  # fmt: skip
    return _play_plain(
        held, n, pitcher, bid, trump, first_lead, policies, fr, tab, key, hands, won,
        trick, tseats, log, legal_log, False,
    )  # fmt: skip


@njit(cache=True, inline="always")
def _play_plain(
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
    heuristic,
):
    """``play_plain``; ``heuristic``, a constant: may a seat play ``heuristic``."""
    held, policies, fr, tab = borrowed(held), borrowed(policies), borrowed(fr), borrowed(tab)
    hands, won, trick, tseats = borrowed(hands), borrowed(won), borrowed(trick), borrowed(tseats)
    log, legal_log = borrowed(log), borrowed(legal_log)
    for s in range(n):
        hands[s] = held[s]
        won[s] = 0
    follow = fr[F_FOLLOW]
    only = follow == FOLLOW_ONLY
    may_trump = follow == FOLLOW_TRUMP
    lead_trump = fr[F_LEAD_TRUMP] != 0
    logging = log.size > 0
    logging_legal = legal_log.size > 0
    played = np.int64(0)
    # Who played each card of this hand, as three bit planes of the seat number.
    by0 = by1 = by2 = np.int64(0)
    tm = tab[trump, T_TRUMPS]  # (trump -1: a row never used but under follow=only, as before)
    leader = next_with_trump(hands, n, pitcher, tm) if only else pitcher
    t = 0
    while leader >= 0 and hands[leader] != 0:
        count = 0
        taken = np.int64(0)
        led_mask = np.int64(0)
        trump_ok = np.int64(0)
        seat = leader
        for i in range(n):
            hand = hands[seat]
            if only and hand & tm == 0:
                if logging:
                    log[t * (n + 2) + 1 + i] = -1  # 4.9: out of the hand
            else:
                if only:
                    legal = hand & tm
                elif count > 0:
                    have = hand & led_mask
                    legal = hand if have == 0 else have | (hand & trump_ok)
                elif t > 0:
                    legal = hand
                elif trump < 0:
                    legal = hand & ~JOKERS  # 6.3.5: a joker cannot fix trump
                elif lead_trump and hand & tm != 0:
                    legal = hand & tm
                else:
                    legal = hand
                if logging_legal:
                    legal_log[t * n + i] = legal
                if t == 0 and count == 0 and first_lead >= 0:
                    card = first_lead
                elif not heuristic or policies[seat] == RANDOM:
                    card = random_card(legal, key, DECISION_COUNTER + t * n + i)
                else:
                    card = heuristic_card(
                        legal, hand, seat, n, pitcher, trump, t, trick, tseats, count, played,
                        fr, tab,
                    )  # fmt: skip
                b = np.int64(1) << card
                if count == 0:
                    if trump < 0:
                        trump = card // 13  # 6.3.5: the first card's printed suit is trump
                        tm = tab[trump, T_TRUMPS]
                    led_mask = tab[trump, T_SUITS + tab[trump, T_EFF + card]]
                    trump_ok = tm if may_trump else np.int64(0)
                hands[seat] = hand & ~b
                trick[count] = card
                tseats[count] = seat
                taken |= b
                by0 |= b & -(seat & 1)
                by1 |= b & -((seat >> 1) & 1)
                by2 |= b & -((seat >> 2) & 1)
                count += 1
                if logging:
                    log[t * (n + 2) + 1 + i] = card
            seat += 1
            if seat == n:
                seat = 0  # (no % in the loop: a division per card)
        wb = np.int64(1) << _winning_card(taken, tm, led_mask, trump, tab)
        winner = ((by0 & wb) != 0) + 2 * ((by1 & wb) != 0) + 4 * ((by2 & wb) != 0)
        won[winner] |= taken
        played |= taken
        if logging:
            log[t * (n + 2)] = leader
            log[t * (n + 2) + n + 1] = winner
        t += 1
        leader = next_with_trump(hands, n, winner, tm) if only else winner
    return trump, t
