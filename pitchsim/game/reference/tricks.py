"""Trump and the trick, under every preset: which cards are trumps, their order, the
effective suit, what may be played, what a card shows and who wins (docs/rules.md
"The play", 0.3-0.5, 3.6, 3.7, 4.7, 4.9, 6.3.5, 11.3, 12.6).

Every function takes the rules of any preset (:class:`~pitchsim.game.rules.Rules`, the
base game's too: the auction-pitch preset).  Cards and masks as in
:mod:`pitchsim.game.cards`, with the jokers ``HJ`` = 52 and ``LJ`` = 53.
"""

from __future__ import annotations

from collections.abc import Sequence

from pitchsim.game.cards import (
    ACE,
    HIGH_JOKER,
    JACK,
    LOW_JOKER,
    N_CARDS,
    TEN,
    card,
    cards_of,
    joker_cards,
    mask_of,
    rank_of,
    suit_cards,
    suit_of,
)
from pitchsim.game.rules import Rules

# 3.6: the jick is the jack of the other suit of the same colour.
SAME_COLOUR = {0: 3, 3: 0, 1: 2, 2: 1}


FIVE_RANK = 3  # the rank index of the 5


# by trump suit (asked for every card a view replays)
_JICKS = tuple(card(JACK, SAME_COLOUR[t]) for t in range(4))
_LEFT_PEDROS = tuple(card(FIVE_RANK, SAME_COLOUR[t]) for t in range(4))


def jick_of(trump: int) -> int:
    return _JICKS[trump]


def left_pedro_of(trump: int) -> int:
    """12.6: the 5 of the other suit of trump's colour."""
    return _LEFT_PEDROS[trump]


def off_colour_trumps(trump: int, rules: Rules) -> list[int]:
    """The trumps of the other suit of trump's colour: the jick under jick=true (0.4) and
    the left pedro under five=pedro (12.6)."""
    return ([jick_of(trump)] if rules.jick else []) + (
        [left_pedro_of(trump)] if rules.five == "pedro" else []
    )


def is_trump(c: int, trump: int, rules: Rules) -> bool:
    """0.4: the trump suit, the jick under jick=true, the left pedro under five=pedro
    (12.6), and every joker."""
    if c >= N_CARDS:
        return True
    if trump < 0:
        return False  # trump not fixed yet: only the jokers are trumps
    if suit_of(c) == trump:
        return True
    # off_colour_trumps, without its list: every card of a replayed view asks this
    return (rules.jick and c == jick_of(trump)) or (
        rules.five == "pedro" and c == left_pedro_of(trump)
    )


def effective_suit(c: int, trump: int, rules: Rules) -> int:
    """0.4: trump for every trump (a jick led is a trump lead), else the printed suit."""
    return trump if is_trump(c, trump, rules) else suit_of(c)


def trump_order(rules: Rules, trump: int) -> list[int]:
    """The trumps, lowest first (4.7: A K Q J Jick HJ LJ 10 ... 2, high to low; 3.6
    without the jokers; 2.7 and RULES the plain suit; 11.3: the left pedro just below
    the 5 of trump)."""
    low = [card(rank, trump) for rank in range(TEN + 1)]  # 2 ... 10
    if rules.five == "pedro":
        low.insert(FIVE_RANK, left_pedro_of(trump))  # 2 3 4 left-pedro 5 ...
    jokers = [LOW_JOKER, HIGH_JOKER] if rules.jokers == 2 else joker_cards(rules.jokers)
    jick = [jick_of(trump)] if rules.jick else []
    return low + jokers + jick + [card(rank, trump) for rank in range(JACK, ACE + 1)]


def trumps_in(mask: int, trump: int, rules: Rules) -> int:
    if trump >= 0 and not off_colour_trumps(trump, rules) and mask < 1 << N_CARDS:
        return mask & suit_cards(trump)  # the plain suit: no jick, no joker
    return mask_of(c for c in cards_of(mask) if is_trump(c, trump, rules))


def of_suit(mask: int, suit: int, trump: int, rules: Rules) -> int:
    """The cards of ``mask`` whose effective suit is ``suit`` (0.4)."""
    if suit == trump:
        return trumps_in(mask, trump, rules)
    plain = mask & suit_cards(suit)  # never a joker
    if trump >= 0:
        plain &= ~mask_of(off_colour_trumps(trump, rules))  # the jick, the left pedro
    return plain


def trick_winner(trick: Sequence[int], trump: int, rules: Rules) -> int:
    """Index (in play order) of the card that wins ``trick`` (RULES "The play", 0.5):
    the highest trump by the trump order; with no trump, the highest card of the led
    card's effective suit.  Cards of a third suit never win."""
    trumps = [i for i, c in enumerate(trick) if is_trump(c, trump, rules)]
    if trumps:
        order = trump_order(rules, trump)
        return max(trumps, key=lambda i: order.index(trick[i]))
    led = effective_suit(trick[0], trump, rules)
    led_cards = [i for i, c in enumerate(trick) if effective_suit(c, trump, rules) == led]
    return max(led_cards, key=lambda i: rank_of(trick[i]))


def legal_cards(
    hand: int,
    trick: Sequence[int],
    trump: int,
    rules: Rules,
    first_lead: bool = False,
    lead_suit: int = -1,
) -> int:
    """The cards of ``hand`` that may be played to ``trick``.

    - follow=only (4.9): only trumps are played, led or followed.
    - The first lead of the hand (``first_lead``): under trump=first-lead any card but a
      joker (6.3.5), and only the suit ``lead_suit`` when the pitcher planned it in the
      auction (``Bid.trump``); under lead-trump=true a trump if the pitcher holds one
      (4.9, 6.1).
    - Following (RULES, 3.7, 0.4): a player holding the led card's effective suit
      follows it, or under follow=trump may trump instead; a void player plays anything.
      Inside the opening trick under trump=first-lead, ``trump`` may still be -1: the
      led suit is trump.
    """
    if rules.follow == "only":
        return trumps_in(hand, trump, rules)
    if not trick:
        if first_lead and rules.trump == "first-lead":
            if lead_suit >= 0:
                leads = hand & suit_cards(lead_suit)
                if not leads:
                    raise ValueError("the pitcher holds no card of the suit he planned as trump")
                return leads
            return hand & ~mask_of(joker_cards(2))
        if first_lead and rules.lead_trump:
            return trumps_in(hand, trump, rules) or hand
        return hand
    if trump < 0:
        trump = suit_of(trick[0])  # the opening lead is what fixes trump
    led = effective_suit(trick[0], trump, rules)
    have = of_suit(hand, led, trump, rules)
    if not have:
        return hand
    if rules.follow == "suit":
        return have
    return have | trumps_in(hand, trump, rules)


def shows_void(c: int, led: int, trump: int, rules: Rules) -> bool:
    """Does card ``c``, played to a trick whose lead's effective suit is ``led``, show
    its player holds none of ``led``?  A player holding the led suit must follow it or
    (under follow=trump) trump; any other card means he had none.  On a trump lead, not
    following means no trump.  Under follow=only nobody follows a suit: nothing shows."""
    if rules.follow == "only":
        return False
    mine = effective_suit(c, trump, rules)
    return mine != led and (mine != trump or rules.follow == "suit")
