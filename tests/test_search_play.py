"""Search play: the view's history (who played what, voids shown) and the search policies."""

import random
import sys
from pathlib import Path

import numpy as np
import pytest

from pitchsim.game.cards import suit_cards, suit_of
from pitchsim.game.reference import deal_hands, legal_cards, play_hand
from pitchsim.game.rules import Rules, as_family
from pitchsim.games.families import family_play_array
from pitchsim.games.policies import kernel_chooser, seat_planes, seat_policies
from pitchsim.kernels.deal import deal_hands as deal_hands_kernel
from pitchsim.kernels.deal import deck_without
from pitchsim.kernels.families.fixed_hand import AS_DEFENDER, fixed_kernel
from pitchsim.kernels.families.tables import family_array, family_tables
from pitchsim.kernels.hand import points_won
from pitchsim.kernels.rng import deal_key, draw
from pitchsim.kernels.search.monte_carlo import (
    DOUBLE_DUMMY,
    ROLLOUT,
    card_outcomes,
    choose_by_outcomes,
)
from pitchsim.kernels.search.playout import play_out
from pitchsim.util.runtime import use_threads

VARIANTS = [Rules(), Rules(follow="suit"), Rules(partnership=True), Rules(low="dealt")]
TEMPLATE, DECK = deck_without(0), np.empty(52, np.int64)


def reference_deal(seed, deal, n, policies, rules):
    """Deal ``deal`` of ``seed`` (the kernels' dealer, seat 0 pitching) played by the
    reference engine, each card chosen by ``policies``' kernels: (hands dealt, trump,
    tricks as (leader, seats, cards, winner), award of High, Low, Jack, Game: -1 nobody)."""
    dealt = np.empty(n, np.int64)
    deal_hands_kernel(np.uint64(deal_key(seed, deal)), n, 0, 0, TEMPLATE, DECK, dealt)
    dealt = [int(m) for m in dealt]
    ref = play_hand(dealt, 0, kernel_chooser(policies, seed, deal), rules)
    s = ref.score
    award = np.array([-1 if x is None else x for x in (s.high, s.low, s.jack, s.game)])
    return dealt, ref.trump, ref.tricks, award


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


# --- the rollout evaluator: play_out continues a hand exactly as play_hand does ----------


@pytest.mark.parametrize("rules", VARIANTS, ids=["base", "follow=suit", "partnership", "low=dealt"])
def test_play_out_finishes_a_hand_as_the_kernel_plays_it(rules):
    """Cut a heuristic hand at any card: ``play_out`` from there plays the same cards to
    the same captures and points as the hand played whole (the reference engine, each
    card the same heuristic kernel's: ``kernel_chooser``)."""
    rng = np.random.default_rng(3)
    policies = seat_policies("heuristic", 4)
    for deal in range(300):
        n = 4 if rules.partnership else int(rng.integers(2, 8))
        policies = seat_policies("heuristic", n)
        dealt, trump, tricks, award = reference_deal(17, deal, n, policies, rules)
        cut = int(rng.integers(1, 6 * n))  # cards already played (the lead at least)
        t, i = divmod(cut, n)
        hands = np.array(dealt, dtype=np.int64)
        won = np.zeros(n, dtype=np.int64)
        played = 0
        for k in range(t):
            leader, _, cards, winner = tricks[k]
            for c in cards:
                hands[(leader + cards.index(c)) % n] &= ~(1 << c)
                won[winner] |= 1 << c
                played |= 1 << c
        leader, _, cards, _ = tricks[t]
        trick = np.zeros(n, dtype=np.int64)
        for k in range(i):
            trick[k] = cards[k]
            hands[(leader + k) % n] &= ~(1 << cards[k])
        got = np.empty(4, dtype=np.int64)
        pts = play_out(
            hands,
            won,
            np.array(dealt, dtype=np.int64),
            n,
            0,
            0,
            trump,
            t,
            leader,
            trick,
            i,
            played,
            rules.to_array(),
            got,
        )
        assert list(got) == list(award)
        assert pts == points_won(award, 0, rules.to_array())
        assert hands.sum() == 0


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
    policies = family_play_array([int(i) for i in ids])
    r = as_family(Rules())
    fr, tab = family_array(r), family_tables(r)

    def run(start, count, threads, seat):
        out = [np.empty(count, dtype=np.int64) for _ in range(3)]
        with use_threads(threads):  # hearts trump, the search aims at 2
            fixed_kernel(fr)(5, start, count, 4, seat, hand, 2, 2, policies, fr, tab, *out)
        return out

    for seat in (0, AS_DEFENDER):
        one = run(0, 120, 1, seat)
        two = run(0, 120, 2, seat)
        parts = [run(0, 37, 2, seat), run(37, 83, 1, seat)]
        for i in range(3):
            np.testing.assert_array_equal(one[i], two[i])
            np.testing.assert_array_equal(one[i], np.concatenate([p[i] for p in parts]))


# --- the ablations (scripts/compare_policies.py --ablate) --------------------------------


def _views(seed, n, rules, count):
    """Views met in heuristic play (only decisions with a choice)."""
    policies = seat_policies("heuristic", n)
    views = []
    for deal in range(count):
        dealt = np.empty(n, np.int64)
        deal_hands_kernel(np.uint64(deal_key(seed, deal)), n, 0, 0, TEMPLATE, DECK, dealt)
        dealt = [int(m) for m in dealt]
        chooser = kernel_chooser(policies, seed, deal)

        def choose(view, chooser=chooser):
            if view.legal & (view.legal - 1):
                views.append(view)
            return chooser(view)

        play_hand(dealt, 0, choose, rules)
    return views


@pytest.mark.parametrize("evaluator", [ROLLOUT, DOUBLE_DUMMY], ids=["rollout", "pimc"])
def test_fresh_worlds_value_each_card_on_its_own_stream(evaluator):
    """``fresh``: card j's row is what the shared-worlds search gives card j from the
    stream ``draw(key, j)``, so every card has worlds of its own."""
    rules = Rules()
    views = _views(11, 4, rules, 6)[:: 3 if evaluator == ROLLOUT else 7]
    differ = 0
    for i, v in enumerate(views):
        trick = np.zeros(8, dtype=np.int64)
        trick[: len(v.trick)] = v.trick
        won = np.zeros(8, dtype=np.int64)
        won[: v.players] = v.won
        args = (
            v.legal,
            v.hand,
            v.seat,
            v.players,
            v.pitcher,
            2,
            v.trump,
            v.trick_no,
            trick,
            len(v.trick),
            v.leader,
            v.played,
            won,
            seat_planes(v.played_by),
            v.voids,
            rules.to_array(),
        )
        key = np.uint64(draw(np.uint64(99), i))
        w = 5
        fresh = np.empty((v.legal.bit_count(), w), dtype=np.int64)
        cards, kept, _ = card_outcomes(evaluator, w, *args, key, fresh, True, 0)
        assert kept == w
        shared = np.empty_like(fresh)
        for j in range(cards.size):
            card_outcomes(evaluator, w, *args, np.uint64(draw(key, j)), shared, False, 0)
            np.testing.assert_array_equal(fresh[j], shared[j])
        card_outcomes(evaluator, w, *args, key, shared, False, 0)
        differ += not np.array_equal(fresh, shared)
    assert differ > 0  # and the shared worlds are not the same as the fresh ones


def test_a_search_named_with_options_carries_their_bits():
    """``compare_policies.py --search pimc:16+target``: the searching seats play pimc:16
    with ``TARGET_QUERY`` above the worlds count (the bits ``--ablate target`` gives the
    full search), an ablation adds its own, and heuristic seats carry none."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))
    from compare_policies import search_policies  # noqa: PLC0415

    from pitchsim.kernels.policies import WORLDS_SHIFT  # noqa: PLC0415
    from pitchsim.kernels.search.monte_carlo import GREEDY_POINTS, TARGET_QUERY  # noqa: PLC0415

    rules = Rules()
    plain = seat_policies(["pimc:16", "heuristic", "heuristic", "heuristic", "heuristic"], 5)
    named = search_policies(5, rules, "pimc:16+target", "heuristic", "")
    assert list(named) == [plain[0] | TARGET_QUERY << WORLDS_SHIFT, *plain[1:]]
    assert list(named) == list(search_policies(5, rules, "pimc:16", "heuristic", "target"))
    both = search_policies(5, rules, "heuristic", "pimc:16+target", "greedy")
    assert both[0] == plain[1]
    assert all(p == plain[0] | (TARGET_QUERY | GREEDY_POINTS) << WORLDS_SHIFT for p in both[1:])
