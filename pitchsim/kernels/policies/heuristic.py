"""``heuristic``: a club player's card play, for the pitcher's side and the defenders.

Sides: the pitcher (and partner) against everyone else; in a solo game the defenders
all want the pitcher set, so they play as one side.

- Trump choice (the pitcher's opening lead): the suit with the most likely points
  from High, Low, Jack and length.
- Pitcher's side leads: master trumps to pull trumps and catch the jack and low, then
  side-suit winners to capture game points, then low cards that give nothing away.
- Following: a trick our side wins for sure gets our points (jack, low trump, tens,
  aces); a trick we can win cheaply and that is worth it we win; otherwise we
  play the card we least want to keep, never a ten or an ace if we can help it.
"""

import numpy as np
from numba import njit

from ...options import R_PARTNERSHIP
from ..bits import JACK, bit, card_game_points, highest_card, lowest_card, popcount, suit_mask

ACE, KING, QUEEN, TEN = 12, 11, 10, 8


@njit(cache=True, inline="always")
def _side(seat, pitcher, partnership):
    """0 for the pitcher's side, 1 for the defenders."""
    if partnership:
        return 0 if seat % 2 == pitcher % 2 else 1
    return 0 if seat == pitcher else 1


@njit(cache=True)
def trump_value(hand, suit):
    """Rough count of points the pitcher expects with ``suit`` as trump."""
    trumps = hand & suit_mask(suit)
    if trumps == 0:
        return -1.0
    top = highest_card(trumps) % 13
    bottom = lowest_card(trumps) % 13
    v = 0.3 * popcount(trumps)
    if top == ACE:
        v += 1.0
    elif top == KING:
        v += 0.6
    elif top == QUEEN:
        v += 0.35
    if bottom <= 1:
        v += 0.8 - 0.3 * bottom
    elif bottom <= 3:
        v += 0.25
    if trumps & bit(suit * 13 + JACK):
        v += 0.45 + (0.3 if top > JACK else 0.0)
    return v


@njit(cache=True)
def choose_trump(hand):
    best = -1
    best_v = -2.0
    for s in range(4):
        v = trump_value(hand, s)
        if v > best_v:
            best_v = v
            best = s
    return best


@njit(cache=True, inline="always")
def _is_master(card, unseen, trump):
    """No unseen card can beat ``card`` (a trump above all unseen trumps).

    A side-suit card is never counted as master: someone may trump it.
    """
    if card // 13 != trump:
        return False
    above = unseen & suit_mask(trump) & ~((bit(card) << 1) - 1)
    return above == 0


@njit(cache=True, inline="always")
def _keep_value(card, trump, low_trump, jack):
    """How much we want to keep a card (low = good to throw away)."""
    r = card % 13
    if card // 13 == trump:
        v = 40 + r
        if card == jack or card == low_trump:
            v += 30
        return v
    return 3 * card_game_points(card) + r


@njit(cache=True, inline="always")
def _give_value(card, trump, low_trump, jack, unseen):
    """How much a card is worth dropping on a trick our side is sure to win."""
    if card == jack or card == low_trump:
        return 30
    if card // 13 == trump:
        if _is_master(card, unseen, trump):
            return -10  # a future winner: keep it
        return 1
    return card_game_points(card) * 2 + 1


@njit(cache=True, inline="always")
def _lowest_keep(legal, trump, low_trump, jack):
    best = -1
    best_v = 1 << 30
    m = legal
    while m:
        c = lowest_card(m)
        m &= m - 1
        v = _keep_value(c, trump, low_trump, jack)
        if v < best_v:
            best_v = v
            best = c
    return best


@njit(cache=True)
def heuristic_card(legal, hand, seat, n, pitcher, bid, trump, trick_no, trick, trick_len, leader,
                   played, won, rules, key, counter):  # fmt: skip
    if legal & (legal - 1) == 0:
        return lowest_card(legal)
    if trump < 0:
        # Opening lead with trump still open: our best suit, then lead as if it were fixed.
        trump = choose_trump(hand)
        legal = hand & suit_mask(trump)
        if legal & (legal - 1) == 0:
            return lowest_card(legal)

    partnership = rules[R_PARTNERSHIP] != 0
    my_side = _side(seat, pitcher, partnership)
    tmask = suit_mask(trump)
    jack = trump * 13 + JACK
    in_trick = np.int64(0)
    for i in range(trick_len):
        in_trick |= bit(trick[i])
    unseen = ~(played | hand | in_trick) & ((np.int64(1) << 52) - 1)
    # The lowest trump that might still be in play: Low if it was dealt.
    candidates = (unseen | hand | in_trick) & tmask
    low_trump = lowest_card(candidates) if candidates else -1
    my_trumps = hand & tmask

    if trick_len == 0:
        return _lead(legal, my_trumps, my_side, trump, unseen, low_trump, jack, trick_no)

    # Who is winning the trick so far.
    led = trick[0] // 13
    best = trick[0]
    best_i = 0
    value = 0
    for i in range(trick_len):
        c = trick[i]
        value += card_game_points(c)
        if c == jack or c == low_trump:
            value += 15
        if i > 0:
            s = c // 13
            if (s == trump and (best // 13 != trump or c > best)) or (
                s == led and best // 13 == led and c > best
            ):
                best = c
                best_i = i
    winner = (leader + best_i) % n
    ours = _side(winner, pitcher, partnership) == my_side
    # Are all players still to act on our side?
    friends_after = True
    for j in range(trick_len + 1, n):
        if _side((leader + j) % n, pitcher, partnership) != my_side:
            friends_after = False
            break

    if ours and (friends_after or _is_master(best, unseen, trump)):
        # Our trick for sure: drop points on it.
        pick = -1
        pick_v = -(1 << 30)
        m = legal
        while m:
            c = lowest_card(m)
            m &= m - 1
            v = _give_value(c, trump, low_trump, jack, unseen)
            if v > pick_v:
                pick_v = v
                pick = c
        return pick

    # Cards that would take the lead in this trick.
    winners = np.int64(0)
    m = legal
    while m:
        c = lowest_card(m)
        m &= m - 1
        s = c // 13
        if (s == trump and (best // 13 != trump or c > best)) or (
            s == led and best // 13 == led and c > best
        ):
            winners |= bit(c)

    if winners != 0 and not ours:
        if friends_after:
            # Last word is ours: win as cheaply as possible, the jack first if we can.
            if winners & bit(jack):
                return jack
            side_winners = winners & ~tmask
            if side_winners:
                return lowest_card(side_winners)
            return _lowest_keep(winners, trump, low_trump, jack)
        # Opponents still to play: only a master trump wins for sure.
        masters = np.int64(0)
        m = winners & tmask
        while m:
            c = lowest_card(m)
            m &= m - 1
            if _is_master(c, unseen, trump):
                masters |= bit(c)
        if masters and (value >= 10 or my_side == 1 or trick_no >= 3):
            return lowest_card(masters)
        if value >= 10:
            return highest_card(winners)

    return _lowest_keep(legal, trump, low_trump, jack)


@njit(cache=True)
def _lead(legal, my_trumps, my_side, trump, unseen, low_trump, jack, trick_no):
    unseen_trumps = unseen & suit_mask(trump)
    if my_trumps and unseen_trumps:
        top = highest_card(my_trumps)
        if _is_master(top, unseen, trump):
            return top  # pull trumps; may drop the jack or low on us
        if my_side == 0 and trick_no == 0:
            # Opening without the master: lead a trump that is not a point card.
            m = my_trumps & ~bit(jack) & ~bit(low_trump)
            if m:
                return highest_card(m) if (highest_card(m) % 13) >= 10 else lowest_card(m)
            return top
    # Side-suit winners: the highest card of its suit still out.
    m = legal & ~suit_mask(trump)
    best = -1
    best_v = -1
    while m:
        c = lowest_card(m)
        m &= m - 1
        s = c // 13
        higher_out = unseen & suit_mask(s) & ~((bit(c) << 1) - 1)
        if higher_out == 0 and (c % 13) * 10 + card_game_points(c) > best_v:
            best_v = (c % 13) * 10 + card_game_points(c)
            best = c
    if best >= 0 and not (unseen_trumps and my_side == 1 and best % 13 == TEN):
        return best
    return _lowest_keep(legal, trump, low_trump, jack)
