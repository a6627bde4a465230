"""Play a hand out from any point with ``heuristic`` at every seat: the rollout evaluator.

``play_out`` continues a hand cut inside any trick (the state of ``play_hand`` between
two cards) to the end and scores it.  It is not a play loop's ``play_hand``: a search
policy runs it from inside ``play_hand``'s own decisions, and a kernel that reached ``choose_card``
again from here would be recursive, which numba cannot compile; this loop calls the
heuristic's kernel directly.
"""

import numpy as np
from numba import njit

from ...game.rules import R_MUST_FOLLOW
from ..bits import bit, highest_card, suit_mask
from ..hand import points_won, score_hand
from ..policies.heuristic import heuristic_card

TRICKS = 6
_NOBODY = np.int64(0)


@njit(cache=True)
def play_out(
    hands,
    won,
    dealt,
    n,
    pitcher,
    bid,
    trump,
    trick_no,
    leader,
    trick,
    trick_len,
    played,
    rules,
    award,
):
    """Finish the hand; return the points (0-4) the pitcher's side won.

    ``hands``/``won``/``dealt`` (size >= n): each seat's cards still held, captured,
    and as dealt; ``trick[:trick_len]`` the trick in progress from ``leader`` (it may
    be complete: ``trick_len == n``); ``played`` the cards of completed tricks; ``trump``
    is fixed (>= 0).  ``hands``, ``won`` and ``trick`` are played on (pass copies);
    ``award`` (4) receives who took High, Low, Jack and Game, as ``score_hand`` gives.
    """
    may_trump = rules[R_MUST_FOLLOW] == 0
    tmask = suit_mask(trump)
    who = (_NOBODY, _NOBODY, _NOBODY)  # the heuristic reads neither
    t = trick_no
    i = trick_len
    led_mask = suit_mask(trick[0] // 13) if i > 0 else np.int64(0)
    while t < TRICKS:
        while i < n:
            seat = leader + i
            if seat >= n:
                seat -= n
            held = hands[seat]
            if i == 0:
                legal = held
            else:
                follow = held & led_mask
                trumps = held & tmask if may_trump and led_mask != tmask else np.int64(0)
                legal = held if follow == 0 else follow | trumps
            card = heuristic_card(
                legal,
                held,
                seat,
                n,
                pitcher,
                bid,
                trump,
                t,
                trick,
                i,
                leader,
                played,
                won,
                who,
                _NOBODY,
                rules,
                0,
                0,
            )
            hands[seat] = held & ~bit(card)
            trick[i] = card
            if i == 0:
                led_mask = suit_mask(card // 13)
            i += 1
        taken = np.int64(0)
        for k in range(n):
            taken |= bit(trick[k])
        top = taken & tmask
        if top == 0:
            top = taken & led_mask
        best = highest_card(top)
        winner = leader
        for k in range(n):
            if trick[k] == best:
                winner = leader + k
                if winner >= n:
                    winner -= n
        won[winner] |= taken
        played |= taken
        leader = winner
        t += 1
        i = 0
    score_hand(dealt, won, n, trump, rules, award)
    return points_won(award, pitcher, rules)
