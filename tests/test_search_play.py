"""Search play: the view's history (who played what, voids shown) and the search policies."""

import random

import pytest

from pitchsim.cards import suit_cards, suit_of
from pitchsim.options import Rules
from pitchsim.reference import deal_hands, legal_cards, play_hand

VARIANTS = [Rules(), Rules(follow="suit"), Rules(partnership=True), Rules(low="dealt")]


def void_by_the_rules(c, trick, trump, rules):
    """Would ``c`` have been illegal had its player held a card of the led suit?"""
    led = suit_of(trick[0])
    other = next(x for x in range(52) if suit_of(x) == led and x != c)
    return not legal_cards(1 << c | 1 << other, trick, trump, rules) >> c & 1


@pytest.mark.parametrize("rules", VARIANTS, ids=["base", "follow=suit", "partnership", "low=dealt"])
def test_view_tells_who_played_what_and_the_voids_shown(rules):
    """Every view's ``played_by`` is exactly the cards each seat played, and its voids
    are those the rules reveal: a card that would be illegal for a player holding the
    led suit (and every void shown is true)."""
    rng = random.Random(7)
    for _ in range(200):
        n = 4 if rules.partnership else rng.randrange(2, 8)
        dealt = deal_hands(rng, n)
        views = []

        def choose(view, views=views):
            views.append(view)
            return rng.choice([c for c in range(52) if view.legal >> c & 1])

        record = play_hand(dealt, 0, choose, rules)
        history = [0] * n
        voids = 0
        at = 0
        for leader, cards, _ in record.tricks:
            for i, c in enumerate(cards):
                seat = (leader + i) % n
                view = views[at]
                at += 1
                assert view.played_by == tuple(history)
                assert view.voids == voids
                for s in range(n):
                    for suit in range(4):
                        if view.void(s, suit):
                            assert dealt[s] & ~history[s] & suit_cards(suit) == 0
                history[seat] |= 1 << c
                if i > 0 and void_by_the_rules(c, cards[:i], record.trump, rules):
                    voids |= 1 << (4 * seat + suit_of(cards[0]))
        assert history == dealt
