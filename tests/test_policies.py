"""Play policies: legal choices, only their own view, and what each is meant to do."""

import math
import random

import numpy as np
import pytest

from pitchsim.cards import cards_of, mask_of, parse_hand, suit_of
from pitchsim.kernels.deal import deck_without
from pitchsim.kernels.simulate import play_logged
from pitchsim.odds import bid_odds
from pitchsim.options import Rules
from pitchsim.policies import kernel_chooser, seat_policies
from pitchsim.reference import play_hand


def recording(choose, log):
    def wrapped(view):
        c = choose(view)
        assert view.legal >> c & 1, "a policy chose an illegal card"
        log[view] = c
        return c

    return wrapped


@pytest.mark.parametrize("policy", ["heuristic", "random"])
@pytest.mark.parametrize("partnership", [False, True])
def test_choices_depend_on_the_view_only(policy, partnership):
    """Re-deal the hidden hands: wherever a player's view is the same, so is his card."""
    rng = random.Random(5)
    rules = Rules(partnership=partnership)
    n = 4
    same_views = 0
    for deal in range(300):
        deck = list(range(52))
        rng.shuffle(deck)
        hands = [mask_of(deck[6 * s : 6 * s + 6]) for s in range(n)]
        # Seats 0 and 1 keep their cards; seats 2 and 3 swap a random share of theirs.
        hidden = cards_of(hands[2] | hands[3])
        rng.shuffle(hidden)
        other = hands[:2] + [mask_of(hidden[:6]), mask_of(hidden[6:])]
        policies = seat_policies(policy, n)
        first, second = {}, {}
        play_hand(hands, 0, recording(kernel_chooser(policies, 9, deal), first), rules)
        play_hand(other, 0, recording(kernel_chooser(policies, 9, deal), second), rules)
        for view, card in second.items():
            if view in first:
                same_views += 1
                assert first[view] == card
    assert same_views >= 300 * 2  # at least the two opening decisions of seats 0 and 1


def test_heuristic_pitcher_leads_the_same_card_whatever_the_others_hold():
    hand = mask_of(parse_hand("AH KH 2H 9C 7D 3S"))
    leads = set()
    for deal in range(500):
        dealt = np.empty(4, np.int64)
        log = np.empty(6 * 6, np.int64)
        play_logged(3, deal, 4, hand, deck_without(hand), -1, seat_policies("heuristic", 4),
                    Rules().to_array(), dealt, log, np.empty(4, np.int64))  # fmt: skip
        leads.add(int(log[1]))
    assert len(leads) == 1 and suit_of(leads.pop()) == 2


def test_random_opening_lead_is_uniform_over_the_fixed_trump():
    hand = mask_of(parse_hand("AH 7H 2H 9C 7D 3S"))
    hearts = [c for c in cards_of(hand) if suit_of(c) == 2]
    deals = 6000
    counts = dict.fromkeys(hearts, 0)
    dealt = np.empty(4, np.int64)
    log = np.empty(6 * 6, np.int64)
    for deal in range(deals):
        play_logged(8, deal, 4, hand, deck_without(hand), 2, seat_policies("random", 4),
                    Rules().to_array(), dealt, log, np.empty(4, np.int64))  # fmt: skip
        counts[int(log[1])] += 1
    p = 1 / 3
    se = math.sqrt(p * (1 - p) / deals)
    for c in hearts:
        assert abs(counts[c] / deals - p) < 4 * se


@pytest.mark.parametrize(
    "hand, suit",
    [("AH KH QH 2C 5D 7S", "H"), ("AS JS 2S 3S 9H 8D", "S"), ("KD QD JD TD 2C 3H", "D")],
)
def test_heuristic_picks_the_obvious_trump(hand, suit):
    r = bid_odds(hand, samples=500, seed=1, trump=suit)
    left_to_choose = bid_odds(hand, samples=500, seed=1)
    assert "CDHS"[left_to_choose.chosen_trump] == suit
    assert r.by_trump["CDHS".index(suit)].p_at_least(1) > 0.5


def test_heuristic_beats_random_on_the_same_deals():
    """A heuristic pitcher makes 2 far more often than a random one against the same
    (heuristic) defenders, and heuristic defenders set a heuristic pitcher more often
    than random defenders do; the margins are many standard errors wide."""
    hand_free = 40_000

    def make2(pitcher, defenders):
        from pitchsim.kernels.simulate import simulate_hands

        pol = seat_policies([pitcher] + [defenders] * 3, 4)
        f = np.empty(hand_free, np.int8)
        t = np.empty(hand_free, np.int8)
        simulate_hands(4, 0, hand_free, 4, 0, deck_without(0), -1, pol, Rules().to_array(), f, t,
                       np.empty(0, np.int64))  # fmt: skip
        pts = np.bitwise_count(f.view(np.uint8))
        return float((pts >= 2).mean())

    se = math.sqrt(0.25 / hand_free) * math.sqrt(2)
    assert make2("heuristic", "heuristic") - make2("random", "heuristic") > 10 * se
    assert make2("heuristic", "random") - make2("heuristic", "heuristic") > 10 * se
