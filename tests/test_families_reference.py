"""The reference engine plays every preset by the clauses of docs/rules.md (VARIANTS.md's
numbers).

One test per clause where the clause has one (named test_<section>_<clause>_...), the
edge cases of each section (test_<section>_15_<n>_...), hand-worked expectations, then
random whole games of every family at every player count checking invariants.  The base
game's own rules and edge cases, as the auction-pitch preset, are in
tests/test_reference.py (with the tests of rules every preset shares, run under each).
"""

import random
import zlib

import pytest

from pitchsim.game import reference as F
from pitchsim.game.cards import (
    HIGH_JOKER,
    LOW_JOKER,
    cards_of,
    format_card,
    mask_of,
    parse_card,
    parse_cards,
)
from pitchsim.game.rules import Rules, RulesError

C, D, H, S = range(4)
SMEAR = Rules.parse("smear")
TEN = Rules.parse("ten-point")
SETBACK = Rules.parse("setback")
BASE = Rules()


def c(text: str) -> int:
    return parse_card(text, jokers=2)


def m(text: str) -> int:
    return mask_of(parse_cards(text, jokers=2))


def names(mask: int) -> set[str]:
    from pitchsim.game.cards import format_card

    return {format_card(x, symbols=False) for x in cards_of(mask)}


def scripted(cards_by_seat: dict[int, list[str]]):
    """A chooser that plays each seat's cards in the order given."""
    queues = {seat: [c(x) for x in cs] for seat, cs in cards_by_seat.items()}
    return lambda view: queues[view.seat].pop(0)


def random_legal(seed: int):
    """A chooser picking a random legal card, from its own seeded stream."""
    rng = random.Random(seed)
    return lambda view: cards_of(view.legal)[rng.randrange(view.legal.bit_count())]


def first_legal(view):
    return cards_of(view.legal)[0]


# ---- 0. common ground ---------------------------------------------------------------------


def test_0_1_the_deal_passes_left_after_every_hand_but_a_redeal():
    # All pass every time: next-dealer (setback) and dealer-set (smear) pass the deal;
    # redeal (ten-point) keeps it.
    def all_pass(seat, hand, calls, legal, scores):
        return F.PASS

    for rules, moves in ((SETBACK, True), (SMEAR, True), (TEN, False)):
        g = F.play_game(
            4,
            rules,
            random.Random(1),
            all_pass,
            lambda s, h: H,
            first_legal,
            first_dealer=1,
            max_hands=3,
        )
        dealers = [h.dealer for h in g.hands]
        assert dealers == ([1, 2, 3] if moves else [1, 1, 1]), rules


def test_0_2_one_round_each_calls_once_up_to_the_maximum_bid():
    assert F.legal_calls([], False, SMEAR) == [0, 2, 3, 4, 5]
    assert F.legal_calls([], False, TEN) == [0, 5, 6, 7, 8, 9, 10]
    asked = []

    def call(seat, calls, legal):
        asked.append(seat)
        return F.PASS if seat != 0 else legal[-1]

    a = F.run_auction(2, 4, call, SMEAR)
    assert asked == [3, 0]  # a 5 ends the auction at once (6.3.4): seats 1, 2 never call
    assert (a.pitcher, a.bid) == (0, 5)


def test_0_3_under_jick_the_jicks_suit_has_12_cards():
    r = SMEAR
    diamonds = [x for x in range(52) if F.effective_suit(x, H, r) == D]
    assert len(diamonds) == 12 and c("JD") not in diamonds
    assert len([x for x in range(52) if F.is_trump(x, H, r)]) == 14


def test_0_4_the_jick_and_jokers_are_trump_for_leading_following_and_winning():
    r = TEN
    assert F.effective_suit(c("JD"), H, r) == H
    assert F.effective_suit(HIGH_JOKER, S, r) == S and F.effective_suit(LOW_JOKER, C, r) == C
    # a jick led is a trump lead: a player holding a heart must play a trump
    follow = Rules.parse("ten-point,follow=trump")
    hand = m("2H 5D 9C")
    assert names(F.legal_cards(hand, [c("JD")], H, follow)) == {"2H"}
    # a player whose only diamond is the jick is void in diamonds (3.15.1)
    assert F.legal_cards(m("JD 9C 4S"), [c("5D")], H, follow) == m("JD 9C 4S")


def test_0_5_highest_trump_wins_else_highest_of_the_led_effective_suit():
    r = TEN
    assert F.trick_winner([c("TH"), c("LJ")], H, r) == 1
    assert F.trick_winner([c("LJ"), c("HJ"), c("JD")], H, r) == 2
    assert F.trick_winner([c("JD"), c("JH")], H, r) == 1
    assert F.trick_winner([c("5C"), c("KC"), c("AD")], H, r) == 1  # a third suit never wins
    # without the jick, J♦ is a plain diamond
    assert F.trick_winner([c("JD"), c("2H")], H, BASE) == 1
    assert F.trick_winner([c("QD"), c("JD")], H, BASE) == 0


def test_0_6_in_play_means_held_at_the_first_lead_after_the_draw():
    # Seat 0 was dealt the 2♥ but... it cannot lose a trump in the discard; a dealt
    # non-trump that is discarded is out of play and never captured.
    hands = [
        m("2H 3H AH 5C 6C 7C 8C 9C TC"),
        m("KH QH 2S 3S 4S 5S 6S 7S 8S"),
        m("JH 4H 2D 3D 4D 5D 6D 7D 8D"),
        m("5H 6H 9S TS JS QS KS AS 9D"),
    ]
    stock = [c(x) for x in "7H 8H 9H TH JD HJ LJ 2C 3C 4C JC QC KC AC TD JS QD KD AD".split()]
    stock = [x for x in stock if not any(h >> x & 1 for h in hands)]
    held, rec = F.discard_and_draw(hands, stock, 0, H, TEN, random.Random(0))
    assert rec.discarded[0] == m("5C 6C 7C 8C 9C TC")
    play = F.play_hand(held, 0, first_legal, TEN, bid=5, trump=H)
    in_play = 0
    for h in held:
        in_play |= h
    assert not in_play & rec.discarded[0]
    assert all(not w & rec.discarded[0] for w in play.won)


def test_0_7_jokers_are_never_high_or_low_and_no_trump_gives_nobody_high_or_low():
    r = TEN
    held = [m("HJ LJ"), m("9C 8C"), m("QS 4S"), m("5D 6D")]
    won = [m("HJ LJ 9C 8C QS 4S 5D 6D"), 0, 0, 0]
    s = F.score_hand(held, won, H, r)
    assert s.awards["high"] is None and s.awards["low"] is None
    assert s.awards["high-joker"] == 0 and s.awards["low-joker"] == 0
    assert s.points[0] == 2


def test_0_7_a_lone_trump_is_high_and_low_and_carries_its_own_point():
    # 3.15.6: trumps in play J♦ only (♥ trump, smear): its holder scores High, Low, Jick.
    held = [m("JD 9C"), m("KS 4S"), m("5D 6D")]
    won = [m("JD 9C KS"), m("4S"), m("5D 6D")]
    s = F.score_hand(held, won, H, SMEAR)
    assert (s.awards["high"], s.awards["low"], s.awards["jick"]) == (0, 0, 0)
    assert s.awards["jack"] is None


def test_0_8_game_counts_the_jick_as_a_jack_and_jokers_zero_ties_give_nobody():
    r = Rules(jick=True, jokers=2, trump="named")
    held = [m("JD HJ"), m("2C 3C")]
    s = F.score_hand(held, [m("JD HJ"), m("2C 3C")], H, r)
    assert s.game_counts == [1, 0] and s.awards["game"] == 0
    s = F.score_hand([m("HJ 2C"), m("LJ 3C")], [m("HJ 2C"), m("LJ 3C")], H, r)
    assert s.game_counts == [0, 0] and s.awards["game"] is None


def test_0_9_made_scores_everything_won_set_loses_the_bid_others_keep_theirs():
    assert F.settle_hand([3, 1, 1], 0, 3, SMEAR) == [3, 1, 1]
    assert F.settle_hand([2, 2, 1], 0, 3, SMEAR) == [-3, 2, 1]


def test_0_10_partners_pool_points_and_game_counts():
    r = SETBACK
    held = [m("AH 2C"), m("KH 3C"), m("TC 4C"), m("5C 6C")]
    won = [m("AH KH 2C 3C"), 0, m("TC 4C 5C 6C"), 0]
    s = F.score_hand(held, won, H, r)
    # team 0+2 takes High (A), Low (K, the lowest trump in play), Game; no jack in play
    assert s.points == [3, 0, 3, 0]


# ---- 1. auction-pitch: the base game's own rules and edge cases are tests/test_reference.py ----


# ---- 2. setback ------------------------------------------------------------------------------


def test_2_15_1_after_2_3_pass_the_dealer_may_pass_or_bid_4():
    assert F.legal_calls([2, 3, 0], True, SETBACK) == [0, 4]


def test_2_15_2_a_4_leaves_only_passes_and_the_dealer_may_match_it():
    assert F.legal_calls([4], False, SETBACK) == [0]
    assert F.legal_calls([4, 0, 0], True, SETBACK) == [0, 4]
    a = F.run_auction(3, 4, lambda seat, calls, legal: legal[-1] if seat in (0, 3) else 0, SETBACK)
    assert (a.pitcher, a.bid) == (3, 4)  # the dealer steals the 4
    with pytest.raises(ValueError, match="may not pitch"):  # the dealer is still to call
        F.run_auction(3, 4, lambda s, calls, legal: F.Bid(4, c("2C")) if s == 0 else 0, SETBACK)


def test_2_15_3_all_four_pass_nobody_scores_and_the_next_seat_deals():
    g = F.play_game(
        4,
        SETBACK,
        random.Random(2),
        lambda *a: 0,
        lambda s, h: H,
        first_legal,
        first_dealer=0,
        max_hands=2,
    )
    assert [h.dealer for h in g.hands] == [0, 1] and g.scores == [0, 0, 0, 0]
    assert all(h.play is None for h in g.hands)


def test_2_7_the_suit_of_the_pitchers_first_card_is_trump():
    hands = [
        m("9C 2H 3H 4H 5H 6H"),
        m("TC 7H 8H 9H TH JH"),
        m("AC QH KH AH 2S 3S"),
        m("KC 4S 5S 6S 7S 8S"),
    ]
    p = F.play_hand(hands, 0, first_legal, SETBACK, bid=2)
    assert p.trump == C


def test_2_15_4_low_goes_to_the_team_that_captures_it():
    held = [m("2H 5C"), m("AH 6C"), m("7C 8C"), m("9C TC")]
    won = [0, m("2H AH 5C 6C"), 0, m("7C 8C 9C TC")]
    s = F.score_hand(held, won, H, SETBACK)
    assert s.awards["low"] == 1


def test_2_15_5_the_higher_total_wins_whoever_bid_and_a_tie_plays_on():
    assert F.winners([12, 11, 12, 11], 1, True, SETBACK) == [0]
    assert F.winners([11, 11, 11, 11], 1, True, SETBACK) == []
    assert F.winners([10, 9, 10, 9], 0, True, SETBACK) == []


def test_2_15_6_bid_3_win_2_scores_minus_3_the_others_keep_theirs():
    assert F.settle_hand([2, 2, 2, 2], 0, 3, SETBACK) == [-3, 2, -3, 2]


# ---- 3. smear --------------------------------------------------------------------------------


def test_3_15_3_calls_2_3_then_3_again_is_illegal():
    assert F.legal_calls([2, 3], False, SMEAR) == [0, 4, 5]


def test_3_15_4_all_pass_the_dealers_side_scores_minus_2_and_the_deal_passes():
    assert F.legal_calls([0, 0], True, SMEAR) == [0, 2, 3, 4, 5]
    g = F.play_game(
        3,
        SMEAR,
        random.Random(3),
        lambda *a: 0,
        lambda s, h: H,
        first_legal,
        first_dealer=2,
        max_hands=2,
    )
    assert g.hands[0].change == [0, 0, -2] and g.hands[1].dealer == 0
    assert g.scores == [-2, 0, -2]


def test_3_5_the_pitcher_names_any_suit_and_may_lead_any_card():
    hands = [m("2C 3C 4C 5C 6C 7C"), m("8C 9C TC QC KC 7D"), m("AC 2D 3D 4D 5D 6D")]
    p = F.play_hand(hands, 0, first_legal, SMEAR, bid=2, trump=S)  # nobody holds a spade or J♣
    assert p.trump == S and p.tricks[0][2][0] == c("2C")
    assert p.score.awards["high"] is None and p.score.awards["low"] is None  # 3.15.8


def test_3_6_trump_order_with_the_jick():
    order = [format_card(x, symbols=False) for x in reversed(F.trump_order(SMEAR, H))]
    assert order == "AH KH QH JH JD TH 9H 8H 7H 6H 5H 4H 3H 2H".split()


def test_3_15_1_the_jick_does_not_follow_its_printed_suit():
    assert F.legal_cards(m("JD 9C 4S"), [c("5D")], H, SMEAR) == m("JD 9C 4S")
    assert F.legal_cards(m("JD 7D 4S"), [c("5D")], H, SMEAR) == m("JD 7D")  # 7♦ or trump


def test_3_15_2_a_jick_led_is_a_trump_lead():
    assert F.legal_cards(m("2H 7D 4S"), [c("JD")], H, SMEAR) == m("2H")


def test_3_15_2_and_0_4_a_side_card_on_a_jick_lead_shows_no_trump_and_the_jick_wins():
    """Hearts named, the jick led: seat 1, holding no heart, may play a diamond, and so
    shows it holds no trump (0.4: the lead's suit is its effective suit); seat 2 must
    trump, and the jick beats its 2♥ (3.6)."""
    held = [m("JD 2C 3C 4C 5C 6C"), m("7D 8D 9D TD QD KD"), m("2H 3H 4S 5S 6S 7S")]
    views = []

    def choose(view):
        views.append(view)
        return c("JD") if not views[:-1] else first_legal(view)

    p = F.play_hand(held, 0, choose, SMEAR, bid=2, trump=H)
    assert views[1].legal == held[1]  # void in trumps: anything
    assert p.tricks[0] == (0, [0, 1, 2], [c("JD"), c("7D"), c("2H")], 0)
    assert views[3].trick_no == 1 and views[3].voids == 1 << (4 * 1 + H)


def test_3_15_5_low_goes_to_its_holder_and_the_jick_to_its_captor():
    held = [m("AH 9C"), m("JD 4S"), m("5D 6D")]
    won = [m("AH JD 9C 4S"), 0, m("5D 6D")]
    s = F.score_hand(held, won, H, SMEAR)
    assert s.awards["high"] == 0 and s.awards["low"] == 1 and s.awards["jick"] == 0


def test_3_15_7_bid_5_without_the_jack_in_play_is_set():
    held = [m("AH KH QH 2H JD TC"), m("3C 4C 5C 6C 7C 8C"), m("9C JC QC KC AC 2S")]
    p = F.play_hand(held, 0, first_legal, SMEAR, bid=5, trump=H)
    assert sum(p.score.values[k] for k, v in p.score.awards.items() if v == 0) <= 4
    assert F.settle_hand(p.score.points, 0, 5, SMEAR)[0] == -5


def test_3_15_8_no_card_of_the_named_suit_in_play_only_game_can_score():
    held = [m("2C 3C"), m("8C 9C"), m("AC 2D")]
    s = F.score_hand(held, [m("2C 3C 8C"), m("9C AC 2D"), 0], S, SMEAR)
    assert {k for k, v in s.awards.items() if v is not None} <= {"game"}


def test_3_15_9_the_pitcher_at_the_target_wins_else_the_highest_ties_share():
    assert F.winners([11, 13, 0], 0, True, SMEAR) == [0]
    assert F.winners([8, 12, 12], 0, True, SMEAR) == [1, 2]
    assert F.winners([8, 10, 10], 0, True, SMEAR) == []


def test_3_13_there_is_no_shoot_the_moon():
    assert F.shoot_call(SMEAR) not in F.legal_calls([], False, SMEAR)


# ---- 4. ten-point ----------------------------------------------------------------------------


def test_4_3_nine_each_with_a_stock_and_4_15_9_ten_each_without_the_4s_for_5():
    r5 = Rules.parse("ten-point,partnership=false")
    for n, each, stock in ((4, 9, 18), (5, 10, 0), (6, 9, 0)):
        hands, rest = F.deal(random.Random(n), r5 if n != 4 else TEN, n, 0)
        assert [h.bit_count() for h in hands] == [each] * n and len(rest) == stock
    hands, _ = F.deal(random.Random(1), r5, 5, 0)
    all_cards = 0
    for h in hands:
        all_cards |= h
    assert not any(all_cards >> x & 1 for x in (c("4C"), c("4D"), c("4H"), c("4S")))
    assert all_cards >> HIGH_JOKER & 1 and all_cards >> LOW_JOKER & 1


def test_4_4_calls_are_pass_or_5_to_10_and_there_is_no_steal():
    assert F.legal_calls([], False, TEN) == [0, 5, 6, 7, 8, 9, 10]
    assert F.legal_calls([6, 0, 0], True, TEN) == [0, 7, 8, 9, 10]


def test_4_4_choices_min_bid_4_and_dealer_steal():
    r = Rules.parse("ten-point,min-bid=4,dealer-steal=true")
    assert F.legal_calls([], False, r) == [0, 4, 5, 6, 7, 8, 9, 10]
    assert F.legal_calls([6, 0, 0], True, r) == [0, 6, 7, 8, 9, 10]  # the dealer steals a 6
    assert F.legal_calls([10], False, r) == []  # the maximum is never stolen


def test_4_5_choice_stick_the_dealer_with_the_minimum_bid():
    r = Rules.parse("ten-point,all-pass=forced")
    assert F.legal_calls([0, 0, 0], True, r) == [5, 6, 7, 8, 9, 10]


def test_4_15_8_all_pass_the_same_dealer_deals_again_no_score_changes():
    g = F.play_game(
        4,
        TEN,
        random.Random(4),
        lambda *a: 0,
        lambda s, h: H,
        first_legal,
        first_dealer=2,
        max_hands=2,
    )
    assert [h.dealer for h in g.hands] == [2, 2] and g.scores == [0] * 4


def test_4_15_1_trump_order_with_jick_and_both_jokers():
    order = [format_card(x, symbols=False) for x in reversed(F.trump_order(TEN, H))]
    assert order == "AH KH QH JH JD HJ LJ TH 9H 8H 7H 6H 5H 4H 3H 2H".split()


def test_4_15_2_rule_x_burns_the_lowest_trumps_without_a_point():
    held = parse_cards("AH KH JH 9H 8H 7H 4H 3H")
    assert sorted(F.excess_trumps(held, 6, H, TEN)) == sorted([c("4H"), c("7H")])
    # every trump carries a point: the lowest value goes first, the lower rank among equals
    held = parse_cards("AH JH JD TH 2H 3H HJ LJ", jokers=2)
    assert F.excess_trumps(held, 6, H, TEN) == [c("2H"), c("TH")]


def test_4_8_discard_draw_and_rob():
    rng = random.Random(5)
    for _ in range(200):
        hands, stock = F.deal(rng, TEN, 4, 0)
        pitcher = rng.randrange(4)
        held, rec = F.discard_and_draw(hands, stock, pitcher, H, TEN, rng)
        everything = set(stock)
        for h in hands:
            everything |= set(cards_of(h))
        seen = set()
        for seat, h in enumerate(held):
            cards = set(cards_of(h))
            assert not cards & seen and cards <= everything
            seen |= cards
            assert h.bit_count() <= 6
            if seat != pitcher:
                # step 1: no dealt non-trump kept; step 3: only drawn cards beside trumps
                kept = cards & set(cards_of(hands[seat]))
                assert all(F.is_trump(x, H, TEN) for x in kept)
        # 5: the pitcher's non-trumps go down before any trump (under follow=only he
        # draws nothing from the discards, so he may end short of 6)
        if any(F.is_trump(x, H, TEN) for x in rec.put_down):
            assert all(F.is_trump(x, H, TEN) for x in cards_of(held[pitcher]))
        assert rec.robbed or held[pitcher].bit_count() <= 6


def test_4_8_5_the_pitcher_robs_and_puts_down_non_trumps_lowest_first_clubs_before_hearts():
    stock = [c(x) for x in "3S 4S 5S 6S 9D 9C 9H KH 7S JS QS".split()]
    held, rec = F.discard_and_draw([m("KS TS 2H"), m("AS 2C")], stock, 0, S, TEN, random.Random(0))
    assert held[1] == m("AS 3S 4S 5S 6S 9D")  # 1 and 3: 2♣ out, five drawn, 9♦ kept
    assert rec.robbed == [c(x) for x in "9C 9H KH 7S JS QS".split()]
    assert rec.put_down == [c("9C"), c("9H")]  # 5: 8 cards, the two lowest non-trumps go
    assert held[0] == m("KS TS KH 7S JS QS")


def test_4_8_4_a_short_pitcher_draws_from_the_discards_unless_follow_only():
    stock = [c(x) for x in "9S 5C 5D KH 8S 4S".split()]
    r = Rules.parse("ten-point,follow=trump")
    held, rec = F.discard_and_draw([m("AH 2C 3C"), m("QH 7S 2D")], stock, 1, H, r, random.Random(0))
    assert held[0] == m("AH 9S 5C 5D KH 8S")  # 3: draws to 6 and keeps what it draws
    assert held[1] == m("QH 4S 2C 3C 7S 2D")  # 5 then 4: the discards make up the rest
    held, _ = F.discard_and_draw([m("AH 2C 3C"), m("QH 7S 2D")], stock, 1, H, TEN, random.Random(0))
    assert held[1] == m("QH 4S")  # follow=only: the pitcher keeps fewer than 6


def test_4_2_choice_one_joker_in_the_high_jokers_place():
    r = Rules.parse("ten-point,jokers=1")
    order = [format_card(x, symbols=False) for x in reversed(F.trump_order(r, H))]
    assert order == "AH KH QH JH JD HJ TH 9H 8H 7H 6H 5H 4H 3H 2H".split()
    assert LOW_JOKER not in F.pack(r, 4) and r.max_bid == 9


def test_4_8_4_under_follow_trump_a_short_stock_is_made_up_from_the_discards():
    r = Rules.parse("ten-point,partnership=false,follow=trump")
    rng = random.Random(6)
    for _ in range(50):
        hands, stock = F.deal(rng, r, 6, 0)
        assert stock == []  # 4.15.9: six players, no stock
        held, rec = F.discard_and_draw(hands, stock, 1, S, r, rng)
        assert [h.bit_count() for h in held] == [6] * 6
    r_only = Rules.parse("ten-point,partnership=false")
    hands, stock = F.deal(random.Random(7), r_only, 6, 0)
    held, _ = F.discard_and_draw(hands, stock, 1, S, r_only, random.Random(7))
    assert all(all(F.is_trump(x, S, r_only) for x in cards_of(h)) for h in held)


def test_4_15_3_follow_only_skips_players_without_trump_and_ends_when_none_is_held():
    held = [m("AH 2H 3H"), m("5C"), m("KH"), m("7C 8C")]
    p = F.play_hand(held, 1, first_legal, TEN, bid=5, trump=H)
    # seat 1 (the pitcher) holds no trump: seat 2 leads; seats 1 and 3 never play
    assert p.tricks[0][0] == 2 and p.tricks[0][1] == [2, 0]
    assert all(seat in (0, 2) for t in p.tricks for seat in t[1])
    assert len(p.tricks) == 3  # as many as the most trumps held
    assert p.tricks[1][0] == 0  # seat 2 has no trump left: the next with one leads


def test_4_15_4_every_point_card_in_play_adds_up_to_10():
    held = [m("AH TH"), m("JH JD 2H 3H"), m("HJ LJ 5H"), m("6H 7H 8H")]
    won = [m("AH 2H TH JH JD 3H HJ LJ 5H 6H 7H 8H"), 0, 0, 0]
    s = F.score_hand(held, won, H, TEN)
    assert sum(s.values.values()) == 10 == TEN.max_bid
    assert s.points == [9, 1, 9, 1]  # Low (2♥) to its holder, seat 1; the rest to seat 0


def test_4_15_5_low_to_its_holder_or_its_captor():
    held = [m("AH"), m("2H"), m("KH"), m("9C")]
    won = [0, 0, m("AH 2H KH 9C"), 0]
    assert F.score_hand(held, won, H, TEN).awards["low"] == 1
    captured = Rules.parse("ten-point,low=captured")
    assert F.score_hand(held, won, H, captured).awards["low"] == 2


def test_4_15_6_bid_7_win_6_scores_minus_7():
    assert F.settle_hand([6, 4, 6, 4], 0, 7, TEN) == [-7, 4, -7, 4]


def test_4_15_7_both_sides_past_32_the_pitchers_side_wins():
    assert F.winners([33, 35, 33, 35], 0, True, TEN) == [0]


def test_4_9_choice_follow_trump_with_lead_trump():
    r = Rules.parse("ten-point,follow=trump")
    hand = m("AH 9C 8C")
    assert F.legal_cards(hand, [], H, r, first_lead=True) == m("AH")
    assert F.legal_cards(m("9C 8C"), [], H, r, first_lead=True) == m("9C 8C")


# ---- 6. generic options --------------------------------------------------------------------


def test_6_2_the_maximum_bid_is_the_points_the_options_can_award():
    assert [Rules.parse(f).max_bid for f in ("setback", "smear", "ten-point")] == [4, 5, 10]
    assert Rules.parse("ten-point,jokers=1").max_bid == 9
    assert Rules.parse("jick=true,five=true,trump=named").max_bid == 10


@pytest.mark.parametrize(
    "spec, message",
    [
        ("deal=9", "deal=9 needs discard=non-trump"),
        ("discard=non-trump", "needs trump=named"),
        ("rob=true,trump=named", "rob=true needs discard=non-trump"),
        ("follow=only", "follow=only needs trump=named"),
        ("lead-trump=true", "lead-trump=true needs trump=named"),
        ("smear,set-pitcher-wins=true", "set-pitcher-wins=true needs win=pitcher"),
    ],
)
def test_6_3_2_and_6_3_6_options_that_need_one_another(spec, message):
    with pytest.raises(RulesError, match=message):
        Rules.parse(spec)


def test_6_3_1_and_6_3_3_players_partnership_and_the_pack():
    with pytest.raises(RulesError, match="partnership needs exactly 4"):
        Rules.parse("smear,partnership=true").check_players(5)
    with pytest.raises(RulesError, match="more than the 52-card pack"):
        Rules.parse("deal=9,discard=non-trump,trump=named").check_players(6)


def test_6_3_5_no_joker_first_under_first_lead_and_a_jack_makes_its_own_suit_trump():
    r = Rules(jokers=2, jick=True)
    assert F.legal_cards(m("HJ LJ 2C 3D 4H 5S"), [], -1, r, first_lead=True) == m("2C 3D 4H 5S")
    hands = [
        m("JD 2C 3C 4C 5C HJ"),
        m("6C 7C 8C 9C TC JC"),
        m("QC KC AC 2D 3D 4D"),
        m("5D 6D 7D 8D 9D TD"),
    ]
    p = F.play_hand(hands, 0, first_legal, r, bid=2, first_lead=c("JD"))
    assert p.trump == D


def test_6_1_shoot_outranks_the_maximum_cannot_be_stolen_and_wins_when_made():
    r = Rules.parse("shoot=true")
    shoot = F.shoot_call(r)
    assert shoot == 5 and F.legal_calls([4], False, r) == []  # a plain 4 still ends it
    assert F.legal_calls([1], False, r) == [0, 2, 3, 4, shoot]
    assert F.legal_calls([1], False, r, may_shoot=False) == [0, 2, 3, 4]
    a = F.run_auction(0, 3, lambda seat, calls, legal: legal[-1], r)
    assert a.shoot and a.bid == 4 and a.pitcher == 1
    assert F.winners([5, 0, 0], 0, True, r, shoot=True) == [0]
    assert F.settle_hand([3, 1, 0], 0, 4, r) == [-4, 1, 0]


# ---- random whole games: invariants, every family, every player count ---------------------------


FAMILY_TABLES = (
    [("auction-pitch", n) for n in range(2, 8)]
    + [("setback", 4)]
    + [("smear", n) for n in range(2, 8)]
    + [("smear,partnership=true", 4), ("ten-point", 4)]
    + [("ten-point,partnership=false", n) for n in (4, 5, 6)]
    + [
        ("ten-point,follow=trump,low=captured,game=count", 4),
        ("ten-point,partnership=false,follow=trump", 6),
        ("ten-point,jokers=1,rob=false", 4),
        ("auction-pitch,shoot=true,win=highest,dealer-steal=max", 3),
    ]
)


@pytest.mark.parametrize("spec, n", FAMILY_TABLES)
def test_random_games_keep_every_invariant(spec, n):
    rules = Rules.parse(spec)
    r = rules
    rng = random.Random(zlib.crc32(f"{spec}/{n}".encode()))

    def bidder(seat, hand, calls, legal, scores):
        return rng.choice(legal)

    def chooser(view):
        return rng.choice(cards_of(view.legal))

    for _ in range(6):
        g = F.play_game(
            n,
            rules,
            rng,
            bidder,
            lambda s, h: rng.randrange(4),
            chooser,
            first_dealer=rng.randrange(n),
            max_hands=40,
        )
        total = [0] * n
        for hand in g.hands:
            total = [t + ch for t, ch in zip(total, hand.change, strict=True)]
            assert hand.scores == total
            if hand.play is None:
                continue
            p = hand.play
            in_play = 0
            for h in p.held:
                in_play |= h
            played = [x for t in p.tricks for x in t[2]]
            assert len(played) == len(set(played))  # every card played once
            trumps = {x for x in cards_of(in_play) if F.is_trump(x, p.trump, r)}
            # follow=only plays exactly the trumps in play; otherwise every card in play
            assert set(played) == (trumps if r.follow == "only" else set(cards_of(in_play)))
            for leader, seats, trick, winner in p.tricks:
                assert seats[0] == leader and winner in seats
                assert winner == seats[F.trick_winner(trick, p.trump, r)]
            # the points: every award to a real seat, values summing to at most the maximum
            s = p.score
            if s.awards["high"] is not None:  # 0.7: High's captor is its holder
                high = max((x for x in trumps if x < 52), key=F.trump_order(r, p.trump).index)
                holder = next(seat for seat, h in enumerate(p.held) if h >> high & 1)
                assert r.team(s.awards["high"]) == r.team(holder) and s.awards["high"] == holder
            assert sum(s.values.values()) == r.max_bid
            awarded = sum(s.values[k] for k, v in s.awards.items() if v is not None)
            assert awarded <= r.max_bid
            sides = {r.team(x) for x in range(n)}
            by_side = {
                side: s.points[min(x for x in range(n) if r.team(x) == side)] for side in sides
            }
            assert sum(by_side.values()) == awarded  # points conserved
            # the cards in play: the deal (and the stock) and nothing else
            everything = set(hand.stock)
            for h in hand.dealt:
                everything |= set(cards_of(h))
            assert set(cards_of(in_play)) <= everything
        if g.winners:
            last = g.hands[-1]
            pitcher = last.auction.pitcher
            assert g.winners == F.winners(g.scores, pitcher, bool(last.made), r, last.auction.shoot)
