"""The pack and the deal under every preset (docs/rules.md "The deal", 0.1, 3.2, 4.3,
6.1 jokers, 6.1 deal)."""

from __future__ import annotations

import random

from pitchsim.game.cards import HAND_SIZE, mask_of
from pitchsim.game.rules import BASE_RULES, Rules


def pack(rules: Rules, players: int) -> list[int]:
    """The cards used: the ``deck`` pack (12.3: all 52, or without the 2s to 4s, the 2s
    to 8s, or the 3s to 8s) plus the jokers (6.1), less the four 4s with 5 players, 9
    to deal and two jokers (4.3, 4.15.9)."""
    return rules.pack(players)


def deal(
    rng: random.Random, rules: Rules, players: int, dealer: int, at_a_time: int = 0
) -> tuple[list[int], list[int]]:
    """Shuffle the pack and deal ``cards_each`` to every seat from the dealer's left,
    ``at_a_time`` cards to a seat per round (0: all at once; how many at a time does
    not change the odds, RULES "Where the rules are silent", 3.2).  Returns the hands as
    masks and the undealt stock, top card first (4.3)."""
    rules.check_players(players)
    cards = pack(rules, players)
    rng.shuffle(cards)
    each = rules.cards_each(players)
    step = at_a_time or each
    if each % step:
        raise ValueError(f"{each} cards each cannot be dealt {step} at a time")
    hands = [0] * players
    top = 0
    for _ in range(each // step):
        for i in range(players):
            seat = (dealer + 1 + i) % players
            hands[seat] |= mask_of(cards[top : top + step])
            top += step
    return hands, cards[top:]


def deal_hands(rng: random.Random, players: int, dealer: int = 0) -> list[int]:
    """The base game's deal as the table deals it: six cards each, three at a time from
    the dealer's left (RULES "The deal"); the other 52 - 6n cards stay out of play.
    The hands alone, for the many callers that deal base hands from a seeded stream."""
    return deal(rng, BASE_RULES, players, dealer, at_a_time=HAND_SIZE // 2)[0]
