"""One hand of Pitch played in a kernel: six tricks, each card from its seat's policy.

Mirrors ``pitchsim.game.reference.hand``; tests replay both on the same decisions.
Scoring and the trick's rules are ``kernels.hand``'s.
"""

import numpy as np
from numba import njit

from ..game.rules import R_MUST_FOLLOW
from .bits import bit, suit_mask
from .dispatch import choose_card
from .hand import TRICKS, follow_cards, opening_lead_cards, suit_of, trumping_in, winning_card
from .rng import DECISION_COUNTER
from .view import shows_void


@njit(cache=True, inline="always")
def play_hand(
    dealt, n, pitcher, bid, fixed_trump, first_lead, policies, rules, key, hands, won, trick, log
):
    """Play six tricks from the hands in ``dealt``; return trump.

    ``policies[seat]`` names each seat's play policy.  ``fixed_trump`` >= 0 makes the
    pitcher lead that suit; ``first_lead`` >= 0 is a pitched card that must lead.
    ``hands``, ``won`` (cards captured per seat) and ``trick`` are scratch of size n.
    When ``log.size`` > 0 it receives, per trick, leader, cards in order and winner.
    """
    # Who holds which card, as three bit planes of the seat number: the seat that played
    # a card is then read off in a few instructions, with no search through the trick.
    # (Loops over seats exit early so that LLVM does not vectorize them: for a handful
    # of seats vector code only costs, and its registers are saved around every call.)
    own0 = own1 = own2 = np.int64(0)
    for s in range(8):
        if s == n:
            break
        hands[s] = dealt[s]
        won[s] = 0
        own0 |= dealt[s] & -(s & 1)
        own1 |= dealt[s] & -((s >> 1) & 1)
        own2 |= dealt[s] & -((s >> 2) & 1)
    must_follow = rules[R_MUST_FOLLOW] != 0
    voids = np.int64(0)  # bit 4 * seat + suit: seat has shown it holds none of suit
    led = 0
    played = np.int64(0)
    trump = fixed_trump
    tmask = np.int64(0)
    leader = pitcher
    # One decision site for leads and follows keeps the (inlined) policies compiled once.
    # The trick's winner comes from masks, not from comparing cards one by one: those
    # branches are data-dependent and mispredict.
    for t in range(TRICKS):
        seat = leader
        taken = np.int64(0)
        led_mask = np.int64(0)
        trump_ok = np.int64(0)
        for i in range(n):
            hand = hands[seat]
            if i == 0:
                legal = opening_lead_cards(hand, trump) if t == 0 else hand
            else:
                legal = follow_cards(hand, led_mask, trump_ok)
            if t == 0 and i == 0 and first_lead >= 0:
                card = first_lead
            else:
                # Who played each card seen so far, as the seat planes cut to those cards.
                seen = played | taken
                who = (own0 & seen, own1 & seen, own2 & seen)
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
                    i,
                    leader,
                    played,
                    won,
                    who,
                    voids,
                    rules,
                    key,
                    DECISION_COUNTER + t * n + i,
                )
            if i > 0:
                shown = shows_void(suit_of(card), led, trump, must_follow)
                voids |= np.int64(shown) << (4 * seat + led)
            b = bit(card)
            hands[seat] = hand & ~b
            trick[i] = card
            taken |= b
            if i == 0:
                led = suit_of(card)
                if t == 0:
                    trump = led  # the opening lead fixes trump for the hand
                    tmask = suit_mask(trump)
                led_mask = suit_mask(led)
                trump_ok = trumping_in(led, trump, must_follow)
            seat += 1
            if seat == n:
                seat = 0
        tb = bit(winning_card(taken, led_mask, tmask))
        winner = ((own0 & tb) != 0) + 2 * ((own1 & tb) != 0) + 4 * ((own2 & tb) != 0)
        won[winner] |= taken
        played |= taken
        if log.size > 0:
            base = t * (n + 2)
            log[base] = leader
            for i in range(n):
                log[base + 1 + i] = trick[i]
            log[base + 1 + n] = winner
        leader = winner
    return trump
