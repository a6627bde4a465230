"""Search play: the view's history (who played what, voids shown), the search's choice
rule and the search policies in bid odds' kernel.  (The play-out after each card:
tests/test_family_rollout.py.)"""

import random

import numpy as np
import pytest

from pitchsim.game.cards import suit_cards, suit_of
from pitchsim.game.reference import deal_hands, legal_cards, play_hand
from pitchsim.game.rules import Rules
from pitchsim.kernels.fixed_hand import AS_DEFENDER, fixed_kernel
from pitchsim.kernels.presets import rules_array, rules_table
from pitchsim.kernels.search.rollout import choose_by_outcomes
from pitchsim.table.boards import kernel_play_array
from pitchsim.table.policies import seat_policies
from pitchsim.util.runtime import use_threads

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
        for leader, _, cards, _ in record.tricks:
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


# --- the choice: the side's chance of its bid first, then points -------------------------


def test_search_ranks_cards_by_the_bid_then_by_points():
    cards = np.array([3, 17, 40])
    # card 3: makes 2 in 2 of 4 worlds, 8 points; card 17: in 3 of 4, 6 points;
    # card 40: 3 of 4 too, 7 points.
    out = np.array([[4, 4, 0, 0], [2, 2, 2, 0], [2, 2, 3, 0]])
    assert choose_by_outcomes(cards, out, 4, True, 2, 3) == 40  # the pitcher: P(2), then points
    assert choose_by_outcomes(cards, out, 4, True, 0, 3) == 3  # no bid: the most points
    assert choose_by_outcomes(cards, out, 4, False, 2, 17) == 3  # defenders: P(set) first
    assert choose_by_outcomes(cards, out, 4, False, 3, 17) == 17  # sets every world: points
    # Equal in every world: the heuristic's card (the prior) stays.
    same = np.array([[1, 2, 3, 4]] * 3)
    for prior in cards:
        assert choose_by_outcomes(cards, same, 4, True, 2, prior) == prior
        assert choose_by_outcomes(cards, same, 4, False, 2, prior) == prior


# --- search policies in the engines -------------------------------------------------------


def test_bid_odds_search_play_is_the_same_on_any_threads_and_chunks():
    """bid-odds' kernel (the hand as pitcher and as a defender) with a search seat."""
    from pitchsim.game.cards import mask_of, parse_hand

    hand = np.int64(mask_of(parse_hand("AH KH 2H 9C 7D 3S")))
    ids = seat_policies("rollout:3,heuristic,heuristic,rollout:2", 4)
    policies = kernel_play_array([int(i) for i in ids])
    r = Rules()
    fr, tab = rules_array(r), rules_table(r)

    def run(start, count, threads, seat):
        out = [np.empty(count, dtype=np.int64) for _ in range(3)]
        with use_threads(threads):  # hearts trump, the search aims at 2
            fixed_kernel(fr, policies)(
                5, start, count, 4, seat, hand, 2, 2, policies, fr, tab, *out
            )
        return out

    for seat in (0, AS_DEFENDER):
        one = run(0, 120, 1, seat)
        two = run(0, 120, 2, seat)
        parts = [run(0, 37, 2, seat), run(37, 83, 1, seat)]
        for i in range(3):
            np.testing.assert_array_equal(one[i], two[i])
            np.testing.assert_array_equal(one[i], np.concatenate([p[i] for p in parts]))
