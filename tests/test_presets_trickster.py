"""`five-point` (§8) and `seven-point` (§10), Trickster's smaller games, as values of the
one engine: clause by clause in the reference engine (docs/rules.md), random whole games
keeping every invariant, the family kernels deal by deal equal to the reference, and the
commands that play the families taking them (six-point's, §9, too: its clauses are in
tests/test_presets_six_point.py).

Expectations are worked by hand from the clauses, not read off the code.
"""

import random
import zlib

import pytest
from clirun import cli, refused

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
from pitchsim.game.rules import Rules

C, D, H, S = range(4)
FIVE = Rules.parse("five-point")
SEVEN = Rules.parse("seven-point")


def c(text: str) -> int:
    return parse_card(text, jokers=2)


def m(text: str) -> int:
    return mask_of(parse_cards(text, jokers=2))


def first_legal(view):
    return cards_of(view.legal)[0]


def all_pass(seat, hand, calls, legal, scores):
    return F.PASS


# ---- §8 five-point -------------------------------------------------------------------------


def test_8_1_four_in_partnerships_or_two_to_four_alone():
    FIVE.check_players(4)
    for n in (2, 3, 5):
        with pytest.raises(ValueError):
            FIVE.check_players(n)
    alone = Rules.parse("five-point,partnership=false")
    for n in (2, 3, 4):
        alone.check_players(n)
    with pytest.raises(ValueError, match="five-point is played by 2-4 players"):
        alone.check_players(5)
    assert FIVE.team(0) == FIVE.team(2) != FIVE.team(1) == FIVE.team(3)


def test_8_2_and_8_3_a_52_card_pack_six_each_no_draw():
    for n in (2, 3, 4):
        r = FIVE if n == 4 else Rules.parse("five-point,partnership=false")
        hands, rest = F.deal(random.Random(n), r, n, 0)
        assert [h.bit_count() for h in hands] == [6] * n
        everything = set(rest)
        for h in hands:
            everything |= set(cards_of(h))
        assert everything == set(range(52))  # no joker in the pack
    assert FIVE.discard == "none" and not FIVE.rob


def test_8_4_calls_are_pass_or_2_to_5_and_8_14_4_the_dealer_may_not_steal():
    assert F.legal_calls([], False, FIVE) == [0, 2, 3, 4, 5]
    assert F.legal_calls([2, 3, 0], True, FIVE) == [0, 4, 5]  # 3 again is not a call
    assert F.legal_calls([5], False, FIVE) == []  # the maximum ends the auction
    assert F.legal_calls([0, 2], False, Rules.parse("five-point,min-bid=1")) == [0, 3, 4, 5]


def test_8_5_and_8_14_5_all_pass_the_same_dealer_deals_again_no_score_changes():
    g = F.play_game(
        4, FIVE, random.Random(2), all_pass, lambda s, h: H, first_legal, first_dealer=3,
        max_hands=3,
    )  # fmt: skip
    assert [h.dealer for h in g.hands] == [3, 3, 3]
    assert all(h.play is None and h.change == [0, 0, 0, 0] for h in g.hands)
    assert g.scores == [0, 0, 0, 0]


def test_8_6_and_8_14_2_trump_is_named_and_the_first_lead_is_a_trump_when_held():
    hand = m("AS 7S KH QH 3D 4C")
    assert F.legal_cards(hand, [], S, FIVE, first_lead=True) == m("AS 7S")
    assert F.legal_cards(m("KH QH 3D 4C"), [], S, FIVE, first_lead=True) == m("KH QH 3D 4C")
    assert F.legal_cards(hand, [], S, FIVE) == hand  # later leads: any card
    assert FIVE.trump == "named"


def test_8_7_trumps_with_the_jick_14_cards():
    order = [format_card(x, symbols=False) for x in reversed(F.trump_order(FIVE, S))]
    assert order == "AS KS QS JS JC TS 9S 8S 7S 6S 5S 4S 3S 2S".split()


def test_8_8_and_8_14_1_the_jick_is_no_club_when_spades_are_trump():
    assert F.legal_cards(m("JC 9D 4H"), [c("5C")], S, FIVE) == m("JC 9D 4H")  # void in clubs
    assert F.legal_cards(m("JC 7C 4H"), [c("5C")], S, FIVE) == m("JC 7C")  # 7♣ or trump
    assert F.legal_cards(m("2S 7C 4H"), [c("JC")], S, FIVE) == m("2S")  # the jick led is trump


def test_8_9_five_points_and_8_14_3_high_and_low_of_two_trumps():
    assert FIVE.max_bid == 5
    # 8.14.3: K♠ and 6♠ the only trumps in play; seat 1 (dealt the 6♠) loses it to seat 0.
    held = [m("KS 9C"), m("6S 4H"), m("8C 8D"), m("2C 3C")]
    won = [m("KS 6S 9C 4H"), 0, m("8C 8D 2C 3C"), 0]
    s = F.score_hand(held, won, S, FIVE)
    assert s.awards["high"] == 0 and s.awards["low"] == 1
    assert s.awards["jack"] is None and s.awards["jick"] is None
    captured = Rules.parse("five-point,low=captured")
    assert F.score_hand(held, won, S, captured).awards["low"] == 0


def test_8_10_and_8_14_6_bid_4_take_2_scores_minus_4_the_others_plus_2():
    assert F.settle_hand([2, 2, 2, 2], 0, 4, FIVE) == [-4, 2, -4, 2]
    assert F.settle_hand([4, 1, 4, 1], 0, 2, FIVE) == [4, 1, 4, 1]  # made: all it took
    assert F.settle_hand([4, 1, 4, 1], 1, 2, FIVE) == [4, -2, 4, -2]  # set: minus the bid


def test_8_11_to_11_the_pitchers_side_first():
    assert FIVE.target == 11
    assert F.winners([11, 12, 11, 12], 0, True, FIVE) == [0]
    assert F.winners([8, 12, 8, 12], 0, True, FIVE) == [1]
    assert F.winners([8, 10, 8, 10], 0, True, FIVE) == []


def test_8_12_no_shoot_the_moon():
    assert F.shoot_call(FIVE) not in F.legal_calls([], False, FIVE)


def test_8_13_the_generic_form():
    spec = (
        "auction-pitch,partnership=true,jick=true,trump=named,lead-trump=true,min-bid=2,"
        "dealer-steal=false,all-pass=redeal,low=dealt,target=11,win=pitcher-first"
    )
    assert Rules.parse(spec).describe() | {"family": "five-point"} == (FIVE.describe())


# ---- §10 seven-point ---------------------------------------------------------------------


def test_10_1_four_players_only_until_the_called_partner():
    SEVEN.check_players(4)
    alone = Rules.parse("seven-point,partnership=false")
    alone.check_players(4)
    for n in (3, 5):
        with pytest.raises(ValueError, match="seven-point is played by 4 players"):
            alone.check_players(n)


def test_10_2_and_10_3_a_pack_of_54_nine_each_then_down_to_six():
    hands, stock = F.deal(random.Random(1), SEVEN, 4, 0)
    assert [h.bit_count() for h in hands] == [9] * 4 and len(stock) == 54 - 36
    everything = set(stock)
    for h in hands:
        everything |= set(cards_of(h))
    assert {HIGH_JOKER, LOW_JOKER} <= everything and len(everything) == 54
    rng = random.Random(5)
    for _ in range(100):
        hands, stock = F.deal(rng, SEVEN, 4, 0)
        pitcher = rng.randrange(4)
        held, rec = F.discard_and_draw(hands, stock, pitcher, H, SEVEN, rng)
        assert all(h.bit_count() <= 6 for h in held) and rec.robbed
        for seat, h in enumerate(held):
            if seat != pitcher:  # no dealt non-trump kept
                kept = set(cards_of(h)) & set(cards_of(hands[seat]))
                assert all(F.is_trump(x, H, SEVEN) for x in kept)
    order = [format_card(x, symbols=False) for x in reversed(F.trump_order(SEVEN, H))]
    assert order == "AH KH QH JH JD HJ LJ TH 9H 8H 7H 6H 5H 4H 3H 2H".split()


def test_10_4_and_10_9_1_seven_points_and_the_three_scores_nothing():
    assert SEVEN.max_bid == 7
    held = [m("AH TH 3H"), m("JH JD 2H"), m("HJ LJ 5H"), m("6H 7H 8H")]
    won = [m("AH 2H TH JH JD 3H HJ LJ 5H 6H 7H 8H"), 0, 0, 0]
    s = F.score_hand(held, won, H, SEVEN)
    assert sum(s.values.values()) == 7
    assert set(s.values) == {"high", "low", "jack", "jick", "high-joker", "low-joker", "ten"}
    assert s.points == [6, 1, 6, 1]  # Low (2♥) to seat 1, who was dealt it


def test_10_5_calls_3_to_7_no_steal_and_all_pass_redeals():
    assert F.legal_calls([], False, SEVEN) == [0, 3, 4, 5, 6, 7]
    assert F.legal_calls([3, 4, 0], True, SEVEN) == [0, 5, 6, 7]
    g = F.play_game(
        4, SEVEN, random.Random(3), all_pass, lambda s, h: H, first_legal, first_dealer=1,
        max_hands=2,
    )  # fmt: skip
    assert [h.dealer for h in g.hands] == [1, 1] and g.scores == [0, 0, 0, 0]


def test_10_6_the_first_lead_is_a_trump_and_a_player_may_trump_when_able_to_follow():
    assert F.legal_cards(m("AH 9C 8C"), [], H, SEVEN, first_lead=True) == m("AH")
    assert F.legal_cards(m("2H 9C 8D"), [c("5C")], H, SEVEN) == m("2H 9C")


def test_10_7_and_10_9_2_bid_7_without_low_is_set_and_the_game_is_to_21():
    held = [m("AH KH JH JD HJ LJ"), m("2H 3C"), m("TH 4C"), m("5C 6C")]
    won = [m("AH KH JH JD HJ LJ 2H 3C TH 4C 5C 6C"), 0, 0, 0]
    s = F.score_hand(held, won, H, SEVEN)
    assert s.points[0] == 6 and s.awards["low"] == 1  # the 2 of trump: its holder's side
    assert F.settle_hand(s.points, 0, 7, SEVEN)[0] == -7
    assert SEVEN.target == 21
    assert F.winners([21, 25, 21, 25], 0, True, SEVEN) == [0]


def test_10_8_the_generic_form():
    spec = (
        "auction-pitch,partnership=true,jokers=2,jick=true,game=ten,deal=9,discard=non-trump,"
        "rob=true,trump=named,lead-trump=true,min-bid=3,dealer-steal=false,all-pass=redeal,"
        "low=dealt,target=21,win=pitcher-first"
    )
    assert Rules.parse(spec).describe() | {"family": "seven-point"} == (SEVEN.describe())


# ---- whole games, the kernels and the commands --------------------------------------------

TABLES = [
    ("five-point", 4),
    ("five-point,partnership=false", 2),
    ("five-point,partnership=false", 3),
]
TABLES += [("seven-point", 4), ("seven-point,partnership=false", 4)]
# six-point (§9; tests/test_presets_six_point.py has its clauses)
TABLES += [("six-point", 4), ("six-point,partnership=false", 2), ("six-point,partnership=false", 3)]


@pytest.mark.parametrize("spec, n", TABLES)
def test_random_games_reach_the_target_and_every_hand_adds_up(spec, n):
    rules = Rules.parse(spec)
    r = rules
    rng = random.Random(zlib.crc32(f"{spec}/{n}".encode()))
    for _ in range(4):
        g = F.play_game(
            n,
            rules,
            rng,
            # the first to call bids the lowest bid, the others pass: random bids, each
            # above the last, reach 5 and are set for ever under random play
            lambda seat, hand, calls, legal, scores: (
                min(x for x in legal if x) if not any(calls) and any(legal) else legal[0]
            ),
            lambda s, h: rng.randrange(4),
            lambda view: rng.choice(cards_of(view.legal)),
            first_dealer=rng.randrange(n),
        )
        total = [0] * n
        for hand in g.hands:
            total = [t + ch for t, ch in zip(total, hand.change, strict=True)]
            assert hand.scores == total
            if hand.play is not None:
                points = hand.play.score.points
                assert sum(set(points) if r.partnership else points) <= r.max_bid
        assert g.winners, "a game to the target ends with a winner"
        assert max(g.scores) >= r.target


@pytest.mark.parametrize("spec, n", TABLES)
def test_the_family_kernels_play_the_reference_hand_deal_by_deal(spec, n):
    # the family kernel tests' own harness: every trick, award and point equal
    from test_families_kernels import crosscheck, zlib_seed

    for policy in ("random", "heuristic"):
        counts = crosscheck(Rules.parse(spec), n, 150, seed=zlib_seed(spec, n), policy=policy)
        assert counts["deals"] == 150 and counts["tricks"] > 0


@pytest.mark.parametrize("preset", ["five-point", "six-point", "seven-point"])
def test_the_commands_that_play_the_families_take_the_preset(preset, tmp_path):
    code, out, _ = cli("rules", "--rules", preset)
    assert code == 0 and f"{preset}:" in out
    hand = "AH KH JD 2H 9C 7D 3S QC 4D" if preset == "seven-point" else "AH KH JD 2H 9C 7D"
    code, out, _ = cli("bid-odds", hand, "--rules", preset, "--samples", "2000", "--seed", "1")
    assert code == 0 and "Recommended" in out
    code, out, _ = cli("play", "--rules", preset, "--seed", "3", "--game", "--json")
    assert code == 0
    code, _, _ = cli(
        "simulate", "--rules", preset, "--deals", "2000", "--out", tmp_path / "r", "-q"
    )
    assert code == 0
    code, out, _ = cli("table", tmp_path / "r", "--checks")
    assert code == 0 and "the ace of trump held wins High" in out
    refused("play", "--rules", preset, "-n", "5", words=f"{preset} is played by")


def test_the_seven_point_text_does_not_offer_five_players():
    _, out, _ = cli("rules", "--rules", "seven-point")
    cards = next(line for line in out.splitlines() if line.startswith("- Cards:"))
    assert "5 players" not in cards and "- Players: 4, two teams of two" in out
