"""The reference engine under the auction-pitch preset (the base game), against
docs/rules.md: "The auction", "The play", "The points", "Partnerships", "Variants".

The edge cases are numbered as in docs/rules.md's "Edge cases of the base game".  The
base game is played as any preset is: ``Rules()`` is the auction-pitch preset.  A test of a rule that every preset shares runs under every preset
(``PRESETS``); the clauses of the other presets are in tests/test_families_reference.py.
Hand-built deals are traced in comments; the chooser for most of them plays the
lowest-numbered legal card (clubs before diamonds before hearts before spades,
deuce first), so every trick can be followed by hand.
"""

from __future__ import annotations

import random

import pytest

from pitchsim.game.cards import (
    HAND_SIZE,
    JACK,
    N_CARDS,
    card,
    cards_of,
    game_points,
    mask_of,
    parse_card,
    parse_cards,
    parse_suit,
    rank_of,
    suit_cards,
    suit_of,
)
from pitchsim.game.reference import (
    PASS,
    Bid,
    View,
    deal_hands,
    legal_calls,
    legal_cards,
    play_game,
    play_hand,
    run_auction,
    score_hand,
    settle_hand,
    trick_winner,
    winners,
)
from pitchsim.game.reference import deal as reference_deal
from pitchsim.game.rules import FAMILIES, Rules

BASE = Rules()
PRESETS = {name: Rules.parse(name) for name in FAMILIES}


def presets(**options):
    """The presets whose generic options have these values (pytest parameters by name)."""
    return [
        pytest.param(r, id=name)
        for name, r in PRESETS.items()
        if all(getattr(r, k) == v for k, v in options.items())
    ]


CLUBS, HEARTS, SPADES = parse_suit("C"), parse_suit("H"), parse_suit("S")


def cards(text: str) -> list[int]:
    return parse_cards(text)


def hand(text: str) -> int:
    return mask_of(parse_cards(text))


def deal(*hands: str) -> list[int]:
    return [hand(h) for h in hands]


def lowest_legal(view: View) -> int:
    return cards_of(view.legal)[0]


def leading_with(text: str):
    """Opens the hand with ``text``; after that every seat plays its lowest legal card."""
    lead = parse_card(text)

    def choose(view: View) -> int:
        return lead if view.trump < 0 else lowest_legal(view)

    return choose


def random_legal(rng: random.Random):
    """A chooser that plays a random legal card."""
    return lambda view: rng.choice(cards_of(view.legal))


def scripted_calls(calls: dict[int, int | tuple[int, int]], asked: list[int] | None = None):
    """An auction caller: ``calls[seat]``, recording who was asked in ``asked``."""

    def call(seat: int, bids: list[int], legal: list[int]):
        if asked is not None:
            asked.append(seat)
        return calls[seat]

    return call


# A 3-player deal where seat 0 pitches with one trump (the X card), seat 1 has high
# clubs worth 15 game points and seat 2 has nothing.  Trick 1: X, 7C, 2D -> seat 0.
# Trick 2: 2C, 8C, 3D -> seat 1, who then wins 9C, TC, QC, KC.  Seat 1's game: 15.
def one_trump_deal(x: str) -> list[int]:
    return deal(f"{x} 2C 3C 4C 5C 6C", "7C 8C 9C TC QC KC", "2D 3D 4D 5D 6D 7D")


# ---------------------------------------------------------------- edge cases 1-12


def test_edge_01_all_pass_dealer_must_bid_2_3_or_4():
    assert legal_calls([PASS, PASS, PASS], True, BASE) == [2, 3, 4]
    for illegal in (PASS, 1):
        with pytest.raises(ValueError):
            run_auction(0, 4, scripted_calls({1: 0, 2: 0, 3: 0, 0: illegal}), BASE)
    result = run_auction(0, 4, scripted_calls({1: 0, 2: 0, 3: 0, 0: 2}), BASE)
    assert (result.pitcher, result.bid) == (0, 2)
    assert result.calls == [None, None, None, 2]


def test_edge_02_dealer_steals_a_1_and_the_first_bidder_scores_as_non_pitcher():
    result = run_auction(0, 4, scripted_calls({1: 1, 2: 0, 3: 0, 0: 1}), BASE)
    assert result.order == [1, 2, 3, 0]
    assert result.calls == [1, None, None, 1]
    assert (result.pitcher, result.bid) == (0, 1)
    # Seat 0 leads 7H (only trump: high and low); seat 1 takes tricks 2-6 and Game.
    dealt = deal("7H 2C 3C 4C 5C 6C", "7C 8C 9C TC QC KC", "2D 3D 4D 5D 6D 7D", "2S 3S 4S 5S 6S 7S")
    record = play_hand(dealt, 0, leading_with("7H"), BASE, bid=1)
    assert record.score.points == [2, 1, 0, 0]
    assert settle_hand(record.score.points, 0, 1, BASE) == [2, 1, 0, 0]


def test_edge_03_non_dealer_may_not_equal_the_high_bid():
    assert legal_calls([2], False, BASE) == [PASS, 3, 4]
    assert legal_calls([PASS, 2], False, BASE) == [PASS, 3, 4]
    with pytest.raises(ValueError):
        run_auction(0, 4, scripted_calls({1: 2, 2: 2, 3: 0, 0: 0}), BASE)


def test_edge_04_pitched_4_ends_auction_leads_and_sets_trump():
    """Edge 4, and VARIANTS.md 1.4: a bid of the maximum ends the auction, its card leads."""
    asked: list[int] = []
    pitched = parse_card("7H")
    result = run_auction(0, 4, scripted_calls({1: (4, pitched)}, asked), BASE)
    assert asked == [1]  # nobody calls after a 4
    assert result.calls == [4, None, None, None]
    assert (result.pitcher, result.bid, result.pitched_card) == (1, 4, pitched)
    assert result.trump == HEARTS  # the pitched card's suit
    assert legal_calls([4], True, BASE) == []
    as_bid = run_auction(0, 4, scripted_calls({1: Bid(4, pitch=pitched)}), BASE)
    assert as_bid == result
    with pytest.raises(ValueError, match="may not pitch"):  # only a bid of the maximum
        run_auction(0, 4, scripted_calls({1: Bid(3, pitch=pitched)}), BASE)

    dealt = deal("2S 3S 4S 5S 6S 7S", "7H 2C 3C 4C 5C 6C", "7C 8C 9C TC QC KC", "2D 3D 4D 5D 6D 7D")

    def choose(view: View) -> int:
        assert view.trump == HEARTS, "the chooser is never asked for the pitched lead"
        return lowest_legal(view)

    record = play_hand(dealt, 1, choose, BASE, bid=4, first_lead=result.pitched_card)
    leader, _, trick, _ = record.tricks[0]
    assert (leader, trick[0], record.trump) == (1, pitched, HEARTS)
    with pytest.raises(ValueError):  # a pitched card must come from the pitcher's hand
        play_hand(dealt, 1, choose, BASE, bid=4, first_lead=parse_card("AH"))


@pytest.mark.parametrize(("only_trump", "pitcher_points"), [("7H", 2), ("JH", 3)])
def test_edge_05_only_trump_in_play(only_trump, pitcher_points):
    record = play_hand(one_trump_deal(only_trump), 0, leading_with(only_trump), BASE, bid=2)
    score = record.score
    assert record.trump == HEARTS
    assert score.high == score.low == 0
    assert score.jack == (0 if only_trump == "JH" else None)
    assert score.game == 1 and score.game_counts[1] == 15
    assert score.points == [pitcher_points, 1, 0]


def test_edge_06_jack_captured_by_queen_gives_high_low_jack_to_the_queen():
    # Seat 0 leads JH; seat 1 must play its only trump, QH, and wins; then seat 1
    # wins every club trick, so it also takes Game (JH 1 + QH 2 + TC 10 + KC 3).
    dealt = deal("JH 2C 3C 4C 5C 6C", "QH 7C 8C 9C TC KC", "2D 3D 4D 5D 6D 7D")
    record = play_hand(dealt, 0, leading_with("JH"), BASE, bid=2)
    assert record.tricks[0] == (0, [0, 1, 2], cards("JH QH 2D"), 1)
    score = record.score
    assert (score.high, score.low, score.jack) == (1, 1, 1)
    assert score.game == 1
    assert score.points == [0, 4, 0]

    dealt_low = Rules(low="dealt")
    score = play_hand(dealt, 0, leading_with("JH"), dealt_low, bid=2).score
    assert (score.high, score.low, score.jack, score.game) == (1, 0, 1, 1)
    assert score.points == [1, 3, 0]


def test_edge_07_jack_not_dealt_a_bid_of_4_fails():
    # Seat 0 captures every card in play, yet only High, Low and Game exist.
    dealt = deal("7H 9H AC KC TC QC", "2C 3C 4C 5C 6C 7C", "2D 3D 4D 5D 6D 7D")
    record = play_hand(dealt, 0, leading_with("9H"), BASE, bid=4)
    assert record.won[0] == dealt[0] | dealt[1] | dealt[2]
    score = record.score
    assert score.jack is None
    assert score.points == [3, 0, 0]
    assert settle_hand(score.points, 0, 4, BASE) == [-4, 0, 0]


@pytest.mark.parametrize("rules", presets(game="count", partnership=False))
def test_edge_08_game_ties_give_nobody_the_point(rules):
    """Edge 8, and 0.8 under every preset with the Game point."""
    won = deal("TC AC JC", "TD KD QD", "KS 2H")  # game counts 15, 15, 3
    score = score_hand(won, won, HEARTS, rules)
    assert score.game_counts == [15, 15, 3]
    assert score.game is None
    assert score.high == score.low == 2  # 2H: the only trump, high and low
    assert score.points == [0, 0, 2]

    won = deal("2C 3C", "2D", "2H 9S")  # all zero
    score = score_hand(won, won, HEARTS, rules)
    assert score.game_counts == [0, 0, 0]
    assert score.game is None

    won = deal("TC AC JC", "TD KD", "KS 2H")  # 15, 13, 3: a single highest
    assert score_hand(won, won, HEARTS, rules).game == 0


@pytest.mark.parametrize("rules", presets(partnership=False))
def test_edge_09_made_and_set(rules):
    """Edge 9, and 0.9 under every preset without partners."""
    assert settle_hand([2, 1, 1], 0, 3, rules) == [-3, 1, 1]
    assert settle_hand([4, 0, 0], 0, 2, rules) == [4, 0, 0]
    assert settle_hand([1, 2, 1, 0], 1, 2, rules) == [1, 2, 1, 0]  # exactly the bid makes it


def test_edge_10_only_a_pitcher_who_made_the_bid_can_win():
    # Seat 0 is at the target but seat 1 pitched: nobody wins.
    assert winners([7, 3, 0], 1, True, BASE) == []
    # The pitcher at the target wins although seat 0 has more.
    assert winners([9, 7, 3], 1, True, BASE) == [1]
    assert winners([9, 8, 3], 1, False, BASE) == []  # set: no win
    assert winners([9, 6, 3], 1, True, BASE) == []  # made, short of the target


@pytest.mark.parametrize("rules", presets(follow="trump"))
def test_edge_11_follow_suit_or_trump(rules):
    """Edge 11, and 0.4 with 3.7 under every preset that lets a player trump."""
    held = hand("2H 9H AC KD 3S 4S")
    # Trump led: holding trump means playing trump.
    assert legal_cards(held, cards("QH"), HEARTS, rules) == hand("2H 9H")
    # Side suit led: follow or trump, even when able to follow.
    assert legal_cards(held, cards("5S"), HEARTS, rules) == hand("3S 4S 2H 9H")
    # Void in the led suit: anything.
    void = hand("2H 9H AC KD 3C 4C")
    assert legal_cards(void, cards("5S KS"), HEARTS, rules) == void
    # Leading (after trick 1): anything.
    assert legal_cards(held, [], HEARTS, rules) == held


def test_edge_12_seven_players_deal_42_cards_two_players_12():
    for players, in_play in ((7, 42), (2, 12)):
        dealt = deal_hands(random.Random(players), players, dealer=0)
        assert all(m.bit_count() == HAND_SIZE for m in dealt)
        union = 0
        for m in dealt:
            assert union & m == 0
            union |= m
        assert union.bit_count() == in_play
        record = play_hand(dealt, players - 1, random_legal(random.Random(100 + players)), BASE)
        assert all(len(trick) == players for _, _, trick, _ in record.tricks)
        assert sorted(c for _, _, trick, _ in record.tricks for c in trick) == cards_of(union)


def test_the_deal_three_at_a_time_from_the_dealers_left():
    """RULES "The deal" as the table deals it; every seeded base deal rests on this."""
    for players, dealer in ((4, 0), (3, 2), (7, 5)):
        deck = list(range(N_CARDS))
        random.Random(9).shuffle(deck)
        packets = [deck[i : i + 3] for i in range(0, 6 * players, 3)]
        order = [(dealer + 1 + i) % players for i in range(players)] * 2
        expected = [0] * players
        for seat, packet in zip(order, packets, strict=True):
            expected[seat] |= mask_of(packet)
        assert deal_hands(random.Random(9), players, dealer) == expected
        hands, stock = reference_deal(random.Random(9), BASE, players, dealer, at_a_time=3)
        assert hands == expected and stock == deck[6 * players :]  # the rest, top card first


# ---------------------------------------------------------------- play details


@pytest.mark.parametrize("rules", presets())
def test_trick_winner(rules):
    """RULES "The play" and 0.5 under every preset (no jick or joker in these tricks)."""
    assert trick_winner(cards("KC AC 2H"), HEARTS, rules) == 2  # a trump beats the led suit
    assert trick_winner(cards("KC AS 3C"), HEARTS, rules) == 0  # a third suit never wins
    assert trick_winner(cards("4H QH 3H"), HEARTS, rules) == 1
    assert trick_winner(cards("KC 2H AH 5D"), HEARTS, rules) == 2


def test_a_planned_trump_restricts_the_opening_lead():
    """The pitcher's plan from the auction (``Bid.trump``) is the suit he leads."""
    held = hand("2H 9H AC KD 3S 4S")
    assert legal_cards(held, [], -1, BASE, first_lead=True, lead_suit=SPADES) == hand("3S 4S")
    assert legal_cards(held, [], -1, BASE, first_lead=True) == held
    with pytest.raises(ValueError):
        legal_cards(hand("2H 9H AC KD 3C 4C"), [], -1, BASE, first_lead=True, lead_suit=SPADES)

    dealt = deal_hands(random.Random(5), 4)
    suit = suit_of(cards_of(dealt[0])[-1])
    seen = []

    def choose(view: View) -> int:
        seen.append(view.trump)  # the pitcher sees his plan; the others see it led
        return lowest_legal(view)

    record = play_hand(dealt, 0, choose, BASE, lead_suit=suit)
    assert record.trump == suit == suit_of(record.tricks[0][2][0])
    assert seen[:2] == [suit, suit]


@pytest.mark.parametrize(
    "rules",
    [*presets(follow="trump"), pytest.param(Rules(follow="suit"), id="follow=suit")],
)
def test_a_card_off_the_led_suit_shows_a_void(rules):
    """RULES "The play": a player holding the led suit follows it or (follow=trump)
    trumps, so any other card shows he holds none of it; trumping shows it only under
    follow=suit.  Hearts trump under every preset that has players follow a suit."""
    dealt = deal(
        "AH KH 2C 3C 4C 5C",
        "6C 7C 8C 9C TC 2D",  # no heart
        "3H 4H 2S 3S 4S 5S",  # no club
        "5H 6H 3D 4D 5D 6D",  # no club
    )
    plays = {0: cards("AH 2C"), 1: cards("2D 6C"), 2: cards("3H 4H"), 3: cards("5H 3D")}
    views = []

    def choose(view: View) -> int:
        views.append(view)
        return plays[view.seat].pop(0) if plays[view.seat] else lowest_legal(view)

    named = HEARTS if rules.trump == "named" else -1
    record = play_hand(dealt, 0, choose, rules, bid=2, trump=named)
    # trick 1: AH 2D 3H 5H to seat 0; trick 2: 2C 6C 4H 3D to seat 2, who trumps
    assert record.tricks[1] == (0, [0, 1, 2, 3], cards("2C 6C 4H 3D"), 2)
    shown = 1 << (4 * 1 + HEARTS) | 1 << (4 * 3 + CLUBS)  # seat 1 no heart, seat 3 no club
    if rules.follow == "suit":
        shown |= 1 << (4 * 2 + CLUBS)  # trumping, seat 2 shows it had no club to follow
    assert views[8].trick_no == 2 and views[8].voids == shown
    assert views[8].void(1, HEARTS) and not views[8].void(1, CLUBS)


def test_illegal_card_raises():
    # Seat 1 holds a trump (2H), so it may not answer the 7H lead with 7C.
    dealt = deal("7H 2C 3C 4C 5C 6C", "2H 7C 8C 9C TC KC", "2D 3D 4D 5D 6D 7D")

    def not_following(view: View) -> int:
        if view.trump < 0:
            return parse_card("7H")
        return cards_of(view.hand)[0]

    with pytest.raises(ValueError):
        play_hand(dealt, 0, not_following, BASE)
    with pytest.raises(ValueError):
        play_hand(dealt, 0, lambda v: parse_card("AS"), BASE)
    with pytest.raises(ValueError):  # a deal must give everybody six cards
        play_hand(deal("7H 2C", "7C 8C", "2D 3D"), 0, lowest_legal, BASE)


def test_capture_based_scoring_with_one_trump_in_play():
    # Seat 0 was dealt the only trump, seat 2 captured it: seat 2 gets High and Low.
    dealt = deal("5H 2C 3C 4C 5C 6C", "7C 8C 9C 2S 3S 4S", "2D 3D 4D 5D 6D 7D")
    won = [hand("2C 3C 4C 5C 6C 7C"), hand("8C 9C 2S 3S 4S 2D"), hand("5H 3D 4D 5D 6D 7D")]
    score = score_hand(dealt, won, HEARTS, BASE)
    assert (score.high, score.low, score.jack, score.game) == (2, 2, None, None)
    assert score.points == [0, 0, 2]
    score = score_hand(dealt, won, HEARTS, Rules(low="dealt"))
    assert (score.high, score.low) == (2, 0)
    assert score.points == [1, 0, 1]


def test_score_hand_rejects_captures_that_are_not_the_deal():
    dealt = deal("2C", "3C")
    with pytest.raises(ValueError, match="not in play"):
        score_hand(dealt, deal("2C", "4C"), HEARTS, BASE)
    with pytest.raises(ValueError, match="twice"):
        score_hand(dealt, deal("2C 3C", "3C"), HEARTS, BASE)
    with pytest.raises(ValueError, match="exactly the cards in play"):  # 3C not captured
        score_hand(dealt, deal("2C", ""), HEARTS, BASE)


# ---------------------------------------------------------------- variants


def test_variant_min_bid_2():
    rules = Rules(min_bid=2)
    assert legal_calls([], False, rules) == [PASS, 2, 3, 4]
    assert legal_calls([PASS, PASS, PASS], True, rules) == [2, 3, 4]
    assert legal_calls([2], False, rules) == [PASS, 3, 4]
    assert legal_calls([PASS, 2, PASS], True, rules) == [PASS, 2, 3, 4]
    assert legal_calls([PASS, PASS, PASS], True, Rules(min_bid=2, all_pass="redeal")) == [
        PASS,
        2,
        3,
        4,
    ]
    with pytest.raises(ValueError):
        run_auction(0, 3, scripted_calls({1: 1, 2: 0, 0: 0}), rules)


def test_variant_all_pass_redeal():
    rules = Rules(all_pass="redeal")
    # Not stuck, the dealer calls like anyone else; his pass throws the hand in.
    assert legal_calls([PASS, PASS, PASS], True, rules) == [PASS, 1, 2, 3, 4]
    result = run_auction(2, 4, scripted_calls({3: 0, 0: 0, 1: 0, 2: 0}), rules)
    assert result.order == [3, 0, 1, 2]
    assert (result.pitcher, result.bid, result.calls) == (None, 0, [None] * 4)

    # In a game the same dealer deals again, as a new deal.
    auctions = []

    def bidder(seat, hand, calls, legal, scores):
        if not calls:
            auctions.append(seat)
        if len(auctions) == 1:
            return PASS  # everybody passes the first deal
        return 1 if 1 in legal and not any(calls) else PASS

    record = play_game(
        3,
        Rules(all_pass="redeal", target=21),
        random.Random(0),
        bidder,
        None,
        lowest_legal,
        first_dealer=1,
        max_hands=3,
    )
    assert auctions == [2, 2, 0]  # the first caller: the left of dealers 1, 1 and 2
    assert [h.deal_no for h in record.hands] == [0, 1, 2]
    assert [h.dealer for h in record.hands] == [1, 1, 2]
    assert record.hands[0].play is None and record.hands[0].change == [0, 0, 0]
    assert record.hands[1].auction.pitcher == 2  # left of dealer 1 bid 1, the rest passed
    assert record.winners == []


def test_variant_no_dealer_steal():
    assert legal_calls([PASS, 2, PASS], True, BASE) == [PASS, 2, 3, 4]
    assert legal_calls([PASS, 2, PASS], True, Rules(dealer_steal=False)) == [PASS, 3, 4]
    assert legal_calls([3], True, Rules(dealer_steal=False)) == [PASS, 4]
    with pytest.raises(ValueError):
        run_auction(0, 2, scripted_calls({1: 2, 0: 2}), Rules(dealer_steal=False))


def test_variant_must_follow_suit():
    rules = Rules(follow="suit")
    held = hand("2H 9H AC KD 3S 4S")
    assert legal_cards(held, cards("5S"), HEARTS, rules) == hand("3S 4S")
    assert legal_cards(held, cards("QH"), HEARTS, rules) == hand("2H 9H")
    assert legal_cards(held, cards("5C 8C"), HEARTS, rules) == hand("AC")
    void = hand("2H 9H AC KD 3C 4C")
    assert legal_cards(void, cards("5S"), HEARTS, rules) == void


def test_variant_set_pitcher_wins():
    rules = Rules(set_pitcher_wins=True)
    assert winners([9, 3], 0, False, BASE) == []
    assert winners([9, 3], 0, False, rules) == [0]
    assert winners([6, 3], 0, False, rules) == []
    assert winners([7, 9], 0, False, rules) == [0]  # only the pitcher can win


def test_variant_partnership_pools_game_counts_and_points():
    rules = Rules(partnership=True)
    # Seat 1 has the single highest count (14) but team 0+2 pools 10 + 5 = 15.
    won = deal("TC 2C", "TD AD 3D", "KC QC 2H", "3H 4S")
    score = score_hand(won, won, HEARTS, rules)
    assert score.game_counts == [10, 14, 5, 0]
    assert score.game == 0  # recorded as the winning team's lower seat
    assert (score.high, score.low) == (3, 2)  # 3H high, 2H low
    assert score.points == [2, 1, 2, 1]
    assert score_hand(won, won, HEARTS, BASE).game == 1  # without partners: seat 1

    # The team is made or set as one; opponents keep their team's points.
    assert settle_hand([2, 1, 2, 1], 2, 3, rules) == [-3, 1, -3, 1]
    assert settle_hand([2, 1, 2, 1], 2, 2, rules) == [2, 1, 2, 1]
    assert winners([8, 5, 8, 5], 2, True, rules) == [0]  # the team wins

    # Partners may outbid each other; the dealer may steal from the partner.
    result = run_auction(0, 4, scripted_calls({1: 2, 2: 0, 3: 3, 0: 0}), rules)
    assert (result.pitcher, result.bid) == (3, 3)
    result = run_auction(0, 4, scripted_calls({1: 0, 2: 2, 3: 0, 0: 2}), rules)
    assert (result.pitcher, result.bid) == (0, 2)


def test_partnership_needs_four_players():
    """RULES "Partnerships": four players; the deal and the auction refuse other tables."""
    rules = Rules(partnership=True)
    with pytest.raises(ValueError, match="4 players"):
        reference_deal(random.Random(0), rules, 3, 0)
    with pytest.raises(ValueError, match="4 players"):
        run_auction(0, 3, scripted_calls({1: 0, 2: 0, 0: 2}), rules)
    with pytest.raises(ValueError, match="4 players"):
        play_game(3, rules, random.Random(0), lambda *a: 2, None, lowest_legal)


# ---------------------------------------------------------------- random play


def random_rules(rng: random.Random, players: int) -> Rules:
    return Rules(
        low=rng.choice(["captured", "dealt"]),
        min_bid=rng.choice([1, 2]),
        all_pass=rng.choice(["forced", "redeal"]),
        dealer_steal=rng.random() < 0.5,
        follow=rng.choice(["trump", "suit"]),
        target=rng.choice([7, 11]),
        set_pitcher_wins=rng.random() < 0.5,
        partnership=players == 4 and rng.random() < 0.5,
    )


def random_chooser(rng: random.Random, dealt: list[int]):
    """Plays a random legal card, checking that the view shows only what the seat may see."""

    def choose(view: View) -> int:
        assert view.hand & ~dealt[view.seat] == 0
        assert view.hand.bit_count() == HAND_SIZE - view.trick_no
        assert view.legal and view.legal & ~view.hand == 0
        assert view.played & view.hand == 0
        assert len(view.trick) == (view.seat - view.leader) % view.players
        return rng.choice(cards_of(view.legal))

    return choose


def check_follow_rules(record, rules: Rules, lead_suit: int) -> None:
    """Replay the record and check every card against RULES.md's follow rule."""
    held = list(record.held)
    if lead_suit >= 0:
        assert suit_of(record.tricks[0][2][0]) == lead_suit
    for leader, seats, trick, winner in record.tricks:
        assert seats == [(leader + i) % len(held) for i in range(len(trick))]
        led = suit_of(trick[0])
        for i, c in enumerate(trick):
            seat = (leader + i) % len(held)
            assert held[seat] >> c & 1
            if i and held[seat] & suit_cards(led):
                allowed = {led} if rules.follow == "suit" else {led, record.trump}
                assert suit_of(c) in allowed
            held[seat] &= ~(1 << c)
        # The winner, by a second formulation: trump first, then the led suit, then rank.
        best = max(
            range(len(trick)),
            key=lambda i: (
                suit_of(trick[i]) == record.trump,
                suit_of(trick[i]) == led,
                rank_of(trick[i]),
            ),
        )
        assert winner == (leader + best) % len(held)
    assert held == [0] * len(held)


def test_random_play_properties():
    for seed in range(600):
        rng = random.Random(seed)
        players = rng.randint(2, 7)
        rules = random_rules(rng, players)
        dealt = deal_hands(rng, players, dealer=rng.randrange(players))
        pitcher = rng.randrange(players)
        lead_suit = first_lead = -1
        if rng.random() < 0.2:
            lead_suit = suit_of(rng.choice(cards_of(dealt[pitcher])))
        elif rng.random() < 0.2:
            first_lead = rng.choice(cards_of(dealt[pitcher]))
        record = play_hand(
            dealt,
            pitcher,
            random_chooser(rng, dealt),
            rules,
            bid=rng.randint(1, 4),
            lead_suit=lead_suit,
            first_lead=first_lead,
        )

        in_play = 0
        for m in dealt:
            in_play |= m
        played = [c for _, _, trick, _ in record.tricks for c in trick]
        assert sorted(played) == cards_of(in_play)  # every card played exactly once
        assert len(record.tricks) == 6
        assert all(len(trick) == players for _, _, trick, _ in record.tricks)
        assert record.tricks[0][0] == pitcher
        for (_, _, _, winner), (next_leader, _, _, _) in zip(
            record.tricks, record.tricks[1:], strict=False
        ):
            assert next_leader == winner
        assert record.trump == suit_of(played[0])
        if first_lead >= 0:
            assert played[0] == first_lead
        check_follow_rules(record, rules, lead_suit)

        score = record.score
        assert sum(score.game_counts) == sum(game_points(c) for c in cards_of(in_play))
        assert all(0 <= p <= 4 for p in score.points)
        credited = [s for s in (score.high, score.low, score.jack, score.game) if s is not None]
        assert sum(score.points) == len(credited) * (2 if rules.partnership else 1)
        trumps = cards_of(in_play & suit_cards(record.trump))
        assert record.won[score.high] >> trumps[-1] & 1
        low_owner = record.held if rules.low == "dealt" else record.won
        assert low_owner[score.low] >> trumps[0] & 1
        jack = card(JACK, record.trump)
        if in_play >> jack & 1:
            assert record.won[score.jack] >> jack & 1
        else:  # edge case 7: at most 3 points, so a 4 bid is set
            assert score.jack is None and score.points[pitcher] <= 3
            assert settle_hand(score.points, pitcher, 4, rules)[pitcher] == -4
        if rules.partnership:
            assert score.points[0] == score.points[2] and score.points[1] == score.points[3]


def play_random_game(seed: int):
    """A whole game with random rules, deals, calls and cards."""
    rng = random.Random(seed)
    players = rng.randint(2, 7)
    rules = random_rules(rng, players)
    hands: dict[int, list[int]] = {}

    def deal(k: int, dealer: int) -> tuple[list[int], list[int]]:
        hands[k] = deal_hands(random.Random(seed * 1_000_003 + k), players, dealer)
        return hands[k], []

    def bidder(seat, hand, calls, legal, scores):
        assert hand == hands[max(hands)][seat]
        call = rng.choice(legal)
        if call == 4 and rng.random() < 0.5:
            return (4, rng.choice(cards_of(hand)))  # pitch it
        if call and rng.random() < 0.3:  # plan the trump to lead, a suit held
            return Bid(call, trump=suit_of(rng.choice(cards_of(hand))))
        return call

    first_dealer = rng.randrange(players)
    record = play_game(
        players,
        rules,
        None,
        bidder,
        None,
        random_legal(rng),
        first_dealer=first_dealer,
        max_hands=300,
        deals=deal,
    )
    return record, first_dealer


def test_random_games():
    for seed in range(40):
        record, first_dealer = play_random_game(seed)
        players, rules = record.players, record.rules
        scores = [0] * players
        dealer = first_dealer
        for i, h in enumerate(record.hands):
            assert h.deal_no == i and h.dealer == dealer
            scores = [s + c for s, c in zip(scores, h.change, strict=True)]
            assert h.scores == scores
            if h.play is None:
                assert rules.all_pass == "redeal" and h.auction.pitcher is None
                continue  # redealt by the same dealer
            pitcher = h.auction.pitcher
            won = winners(scores, pitcher, h.made, rules)
            assert won == (record.winners if i == len(record.hands) - 1 else [])
            if h.auction.pitched_card >= 0:
                assert h.play.tricks[0][2][0] == h.auction.pitched_card
            elif h.auction.trump >= 0:  # the planned suit is led
                assert suit_of(h.play.tricks[0][2][0]) == h.auction.trump
            dealer = (dealer + 1) % players
        assert record.scores == scores
        if not record.winners:
            assert len(record.hands) == 300
        else:
            last = record.hands[-1]
            assert [rules.team(last.auction.pitcher)] == record.winners
            assert scores[last.auction.pitcher] >= rules.target
            assert last.made or rules.set_pitcher_wins


def test_card_encoding_sanity():
    # The tests above lean on these: clubs are the lowest card numbers, deuce first.
    assert parse_card("2C") == 0 and parse_card("AS") == N_CARDS - 1
    assert parse_card("JH") == card(JACK, HEARTS)
