"""Cinch's options (VARIANTS.md §11 and §12.6, 12.7, 12.9, 12.11, 12.12) clause by clause
in the reference engine, played by its generic form (11.14).

`cinch` is the preset of these values (11.14, table 6.4; tested against the generic form
below); the kernels play them too, deal by deal against this engine
(tests/test_families_kernels.py, tests/test_families_games.py), and every command takes
them (tested last).

Expectations are worked by hand from the clauses, not read off the code.
"""

import random

import pytest
from clirun import run

from pitchsim.game import reference as F
from pitchsim.game.cards import cards_of, format_card, mask_of, parse_card, parse_cards
from pitchsim.game.rules import Rules, RulesError

C, D, H, S = range(4)
# 11.14, the generic form, as far as pitchsim has the options (partner=none, deck=2-A,
# kitty=0 and hands=off are their defaults)
CINCH_SPEC = (
    "auction-pitch,partnership=true,jokers=0,jick=false,game=ten,three=false,five=pedro,"
    "deal=9,discard=non-trump,discards=shown,rob=dealer,trump=named,lead-trump=false,"
    "min-bid=1,dealer-steal=false,all-pass=dealer-free,low=captured,follow=trump,shoot=false,"
    "set=minus,target=51,win=pitcher-first"
)
CINCH = Rules.parse(CINCH_SPEC)


def c(text: str) -> int:
    return parse_card(text)


def m(text: str) -> int:
    return mask_of(parse_cards(text))


def names(cards) -> list[str]:
    return [format_card(x, symbols=False) for x in cards]


def first_legal(view):
    return cards_of(view.legal)[0]


def fixed_deal(hands_text: list[str], stock_text: str, rng_seed: int = 0):
    """Four 9-card hands given in part; the rest of each hand and the stock (16 cards,
    ``stock_text`` first) filled from the unused cards at random."""
    rng = random.Random(rng_seed)
    used = set()
    hands = []
    for t in hands_text:
        cs = parse_cards(t) if t else []
        used |= set(cs)
        hands.append(list(cs))
    stock = parse_cards(stock_text) if stock_text else []
    used |= set(stock)
    rest = [x for x in range(52) if x not in used]
    rng.shuffle(rest)
    for h in hands:
        while len(h) < 9:
            h.append(rest.pop())
    stock += rest[: 16 - len(stock)]
    return [mask_of(h) for h in hands], stock


# ---- §11 cinch ------------------------------------------------------------------------------


def test_11_1_and_11_2_four_in_partnerships_a_52_card_pack():
    CINCH.check_players(4)
    assert CINCH.team(0) == CINCH.team(2) != CINCH.team(1)
    hands, stock = F.deal(random.Random(1), CINCH, 4, 0)
    assert len(stock) == 16 and {h.bit_count() for h in hands} == {9}  # 11.4
    assert sorted(stock + [x for h in hands for x in cards_of(h)]) == list(range(52))


def test_11_3_and_11_15_1_the_left_pedro_is_a_trump_below_the_right_pedro():
    order = names(reversed(F.trump_order(CINCH, C)))
    assert order == "AC KC QC JC TC 9C 8C 7C 6C 5C 5S 4C 3C 2C".split()
    assert F.is_trump(c("5S"), C, CINCH) and not F.is_trump(c("5D"), C, CINCH)
    # ♠ led: 5♠ does not follow; a player whose only spade is 5♠ is void in spades
    assert F.legal_cards(m("5S 9D KH"), [c("7S")], C, CINCH) == m("5S 9D KH")
    assert F.legal_cards(m("5S 9S KH"), [c("7S")], C, CINCH) == m("5S 9S")  # 9♠ or trump
    # 5♠ led is a trump lead: a player holding a trump must follow with one
    assert F.legal_cards(m("2C 9S KH"), [c("5S")], C, CINCH) == m("2C")
    assert F.trick_winner([c("5S"), c("4C"), c("AS")], C, CINCH) == 0  # below 5♣ only
    assert F.trick_winner([c("5S"), c("5C")], C, CINCH) == 1


def test_11_5_and_11_15_2_bids_1_to_14_no_steal():
    assert CINCH.max_bid == 14
    assert F.legal_calls([], False, CINCH) == [0, *range(1, 15)]
    assert F.legal_calls([6, 0, 9], True, CINCH) == [0, 10, 11, 12, 13, 14]
    with pytest.raises(RulesError, match="min-bid must be 1-14"):
        Rules.parse(CINCH_SPEC.replace("min-bid=1", "min-bid=15"))


def test_11_6_and_12_12_and_11_15_3_all_pass_the_dealer_names_trump_at_0_never_set():
    assert F.legal_calls([0, 0, 0], True, CINCH)[0] == F.PASS  # the dealer may pass too
    named = []
    g = F.play_game(
        4, CINCH, random.Random(4), lambda *a: F.PASS,
        lambda seat, hand: named.append(seat) or H, first_legal, first_dealer=2, max_hands=3,
    )  # fmt: skip
    for hand in g.hands:
        assert hand.auction.pitcher == hand.dealer and hand.auction.bid == 0
        assert hand.made is True and hand.play is not None
        points = hand.play.score.points
        assert hand.change == points  # every side scores what it won
    assert named == [2, 3, 0]  # the dealer names trump; the deal passes to the left


def test_11_7_and_11_8_the_draw_runs_from_the_dealers_left_the_dealer_robs():
    # dealer 3, pitcher 1: seats 0, 1, 2 draw in that order from the top of the stock
    hands, stock = fixed_deal(
        ["AH 2H 9C 9D 9S TC TD TS 8C", "KH 3C 3D 3S 4C 4D 4S 6C 6D", "QH 7C 7D 7S 8D 8S JC JD JS", ""],
        "2C 3H 4H 5H 6H 7H 8H 9H TH JH",
    )  # fmt: skip
    held, rec = F.discard_and_draw(hands, stock, 1, H, CINCH, random.Random(0), dealer=3)
    assert names(rec.drawn[0]) == ["2C", "3H", "4H", "5H"]  # seat 0 kept A♥ 2♥
    assert names(rec.drawn[1]) == ["6H", "7H", "8H", "9H", "TH"]  # the pitcher next
    assert names(rec.drawn[2]) == ["JH"] + names(stock[10:14])  # then seat 2
    assert rec.robbed == stock[14:]  # the dealer robs the rest, without drawing first
    assert not set(rec.drawn[3]) & set(stock)  # short of 6, he fills from the discards (4.8)
    assert all(h.bit_count() == 6 for h in held)
    with pytest.raises(ValueError, match="rob=dealer needs the dealer"):
        F.discard_and_draw(hands, stock, 1, H, CINCH, random.Random(0))


def test_11_15_4_seven_trumps_two_non_point_trumps_go():
    # ♣ trump; seat 0 keeps A K 9 6 5♣ 5♠ 4♣ 3♣ after the discard: 4♣ and 3♣ go (rule X:
    # the lowest trumps carrying no point), and he draws nothing
    hands, stock = fixed_deal(["AC KC 9C 6C 5C 5S 4C 3C 7D", "", "", ""], "")
    held, rec = F.discard_and_draw(hands, stock, 2, C, CINCH, random.Random(0), dealer=3)
    assert rec.burnt[0] == m("4C 3C") and rec.drawn[0] == []
    assert held[0] == m("AC KC 9C 6C 5C 5S")


def cinch_deal(trumps: list[str], tail: str):
    """A 4-player deal, hearts trump, dealer 3: each seat's trumps as given (all 14
    trumps given, here or in ``tail``), the rest non-trumps; the stock's top the cards
    seats 0-2 draw, then ``tail`` and other non-trumps: what the dealer robs."""
    hands = [parse_cards(t) for t in trumps]
    robbed = parse_cards(tail)
    used = {x for h in hands for x in h} | set(robbed)
    plain = sorted((x for x in range(52) if x not in used), key=lambda x: -(x % 13))
    assert not any(F.is_trump(x, H, CINCH) for x in plain)
    for h in hands:
        while len(h) < 9:
            h.append(plain.pop())
    top = [plain.pop() for _ in range(sum(6 - len(t.split()) for t in trumps[:3]))]
    stock = top + robbed + plain
    assert len(stock) == 16
    return [mask_of(h) for h in hands], stock


def test_11_15_5_the_dealer_keeps_every_trump_of_the_stock():
    # the dealer keeps 2 trumps and finds 3 in the stock: those 5 and one non-trump of
    # the stock, his choice (the highest-ranking, A♠)
    hands, stock = cinch_deal(["9H 8H 7H", "6H 4H 3H", "JH TH 5H", "AH 2H"], "KH QH 5D AS")
    held, rec = F.discard_and_draw(hands, stock, 0, H, CINCH, random.Random(0), dealer=3)
    assert held[3] == m("AH 2H KH QH 5D AS") and rec.drawn[3] == []
    # finding 5: he keeps 6 of the 7 trumps and shows the seventh (rule X: 3♥, no point)
    hands, stock = cinch_deal(["TH 9H 8H", "7H 6H", "5H 4H", "AH 2H"], "KH QH JH 5D 3H")
    held, rec = F.discard_and_draw(hands, stock, 0, H, CINCH, random.Random(0), dealer=3)
    assert held[3] == m("AH 2H KH QH JH 5D") and rec.put_down == [c("3H")]
    # ... face up: out of play and seen by all (11.8, 12.7); the stock's non-trumps he
    # leaves stay face down
    assert rec.put_down_shown == [c("3H")]


def test_12_7_the_robbing_dealer_shows_only_his_excess_trumps():
    # the dealer holds 2 trumps and finds 3: he puts down the stock's other non-trumps,
    # none shown (11.8: the rest of the stock is out of play, face down)
    hands, stock = cinch_deal(["9H 8H 7H", "6H 4H 3H", "JH TH 5H", "AH 2H"], "KH QH 5D AS")
    _, rec = F.discard_and_draw(hands, stock, 0, H, CINCH, random.Random(0), dealer=3)
    assert len(rec.put_down) == len(rec.robbed) - 4 > 0 and rec.put_down_shown == []
    # with discards=hidden the dealer's excess trumps are still shown (12.7, 12.9)
    hidden = Rules.parse(CINCH_SPEC.replace("discards=shown", "discards=hidden"))
    hands, stock = cinch_deal(["TH 9H 8H", "7H 6H", "5H 4H", "AH 2H"], "KH QH JH 5D 3H")
    _, rec = F.discard_and_draw(hands, stock, 0, H, hidden, random.Random(0), dealer=3)
    assert rec.put_down_shown == [c("3H")]


@pytest.mark.parametrize(("discards", "shown"), [("hidden", False), ("shown", True)])
def test_4_8_5_and_12_9_the_robbing_pitcher_shows_his_put_down_only_under_shown(discards, shown):
    # rob=true: the pitcher (seat 3, last) robs; under discards=hidden only step 2's
    # excess trumps are face up (12.9), so his put-down stays face down; under
    # discards=shown every discard of the hand is face up, the put-down included
    spec = CINCH_SPEC.replace("rob=dealer", "rob=true")
    rules = Rules.parse(spec.replace("discards=shown", f"discards={discards}"))
    hands, stock = cinch_deal(["TH 9H 8H", "7H 6H", "5H 4H", "AH 2H"], "KH QH JH 5D 3H")
    _, rec = F.discard_and_draw(hands, stock, 3, H, rules, random.Random(0))
    assert rec.put_down == [c("3H")]  # A♥ 2♥ K♥ Q♥ J♥ 5♦ (the left pedro) 3♥: rule X
    assert rec.put_down_shown == (rec.put_down if shown else [])


def test_11_9_follow_suit_or_trump_the_pitcher_leads_any_card():
    assert F.legal_cards(m("9D 4H 5C"), [], H, CINCH, first_lead=True) == m("9D 4H 5C")
    assert F.legal_cards(m("9D 4H 5C"), [c("2D")], H, CINCH) == m("9D 4H")  # may trump
    assert F.legal_cards(m("9D 4H 5D"), [c("2H")], H, CINCH) == m("4H 5D")  # 5♦: trump


def test_11_10_fourteen_points_each_to_its_captor():
    held = [m("AH 2H 5H"), m("JH TH 5D"), m("9C 9D 9S"), m("8C 8D 8S")]
    won = [m("AH 5D 9C 8C"), m("2H JH 9D 8D"), m("TH 5H 9S 8S"), 0]
    s = F.score_hand(held, won, H, CINCH)
    assert s.awards == {
        "high": 0, "low": 1, "jack": 1, "ten": 2, "five": 2, "left-pedro": 0,
    }  # fmt: skip
    assert s.values == {"high": 1, "low": 1, "jack": 1, "ten": 1, "five": 5, "left-pedro": 5}
    assert s.points == [12, 2, 12, 2]  # Low to its captor (low=captured), no Game count


def test_11_11_and_11_15_6_set_minus_or_to_others():
    assert F.settle_hand([7, 7, 7, 7], 0, 8, CINCH) == [-8, 7, -8, 7]
    others = Rules.parse(CINCH_SPEC.replace("set=minus", "set=to-others"))
    assert F.settle_hand([7, 7, 7, 7], 0, 8, others) == [0, 15, 0, 15]  # PW's example
    assert F.settle_hand([9, 5, 9, 5], 0, 8, others) == [9, 5, 9, 5]  # made: as 0.9


def test_11_12_and_11_15_7_to_51_the_pitchers_side_first():
    assert CINCH.target == 51
    assert F.winners([52, 55, 52, 55], 0, True, CINCH) == [0]
    assert F.winners([40, 55, 40, 55], 0, True, CINCH) == [1]


def test_6_3_12_the_pedros_with_the_jick_both_off_colour_cards_are_trumps():
    r = Rules.parse(CINCH_SPEC.replace("jick=false", "jick=true"))
    order = names(reversed(F.trump_order(r, S)))
    assert order == "AS KS QS JS JC TS 9S 8S 7S 6S 5S 5C 4S 3S 2S".split()
    assert r.max_bid == 15
    assert F.legal_cards(m("JC 5C 9H"), [c("2C")], S, r) == m("JC 5C 9H")  # void in clubs


def test_6_3_13_shown_discards_change_no_move_and_no_score():
    hidden = Rules.parse(CINCH_SPEC.replace("discards=shown", "discards=hidden"))
    games = []
    for r in (CINCH, hidden):
        rng = random.Random(9)
        g = F.play_game(
            4, r, rng,
            lambda seat, hand, calls, legal, scores: legal[-1] if seat == 1 else F.PASS,
            lambda s, h: 2, lambda v: cards_of(v.legal)[-1], max_hands=6,
        )  # fmt: skip
        games.append([(h.dealt, h.draw and h.draw.drawn, h.change) for h in g.hands])
    assert games[0] == games[1]


def test_12_6_rule_x_counts_both_pedros_as_point_cards():
    assert F.carries_point(c("5S"), C, CINCH) and F.point_value(c("5S"), C, CINCH) == 5
    # seven trumps with both pedros: a non-point trump goes before either
    assert F.excess_trumps(parse_cards("AC KC 5C 5S 4C 3C 2C"), 6, C, CINCH) == [c("3C")]
    all_points = parse_cards("AC JC TC 5C 5S 2C")
    assert F.excess_trumps(all_points + [c("KC")], 6, C, CINCH) == [c("KC")]
    # only point cards: the lowest value first (a 1-point card before a pedro)
    assert F.excess_trumps(all_points, 5, C, CINCH) == [c("2C")]


def test_random_whole_games_keep_every_invariant():
    rng = random.Random(11)
    for spec in (CINCH_SPEC, CINCH_SPEC.replace("set=minus", "set=to-others")):
        r = Rules.parse(spec)
        for _ in range(3):
            g = F.play_game(
                4,
                r,
                rng,
                # the first to call bids 1, the others pass: random higher bids are set
                lambda seat, hand, calls, legal, scores: 1 if not calls else F.PASS,
                lambda s, h: rng.randrange(4),
                lambda view: rng.choice(cards_of(view.legal)),
                first_dealer=rng.randrange(4),
            )
            total = [0, 0, 0, 0]
            for hand in g.hands:
                total = [t + x for t, x in zip(total, hand.change, strict=True)]
                assert hand.scores == total
                held = hand.play.held
                assert all(h.bit_count() == 6 for h in held)  # 16 in the stock: enough
                assert sum(set(hand.play.score.points)) <= 14
            assert g.winners and max(g.scores) >= 51


def test_11_14_the_cinch_preset_is_the_generic_form():
    """docs/rules.md 11.14 and table 6.4: `cinch` is exactly its generic form."""
    r = Rules.parse("cinch")
    assert r.family == "cinch" and r.max_bid == 14
    generic = CINCH
    assert {k: v for k, v in r.describe().items() if k != "family"} == {
        k: v for k, v in generic.describe().items() if k != "family"
    }
    assert Rules.parse("cinch,min-bid=7").min_bid == 7  # 11.5's choice
    with pytest.raises(RulesError, match="cinch is played with five=pedro"):
        Rules.parse("cinch,five=true")


@pytest.mark.parametrize(
    "option",
    ["five=pedro", "rob=dealer", "discards=shown", "set=to-others", "all-pass=dealer-free"],
)
def test_each_value_of_cinch_is_played_by_the_commands(option, tmp_path):
    """docs/rules.md 12.6, 12.7, 12.9, 12.11, 12.12: each value alone, on the command
    line, simulated by the kernels (no value is refused any more)."""
    spec = "trump=named,discard=non-trump,deal=9," + option
    out = run(
        "simulate", "--rules", spec, "--deals", "200", "-n", "4", "--seed", "1", "-q",
        "--out", str(tmp_path / "run"),
    )  # fmt: skip
    assert out.returncode == 0, out.stderr


def test_12_6_every_award_has_words_at_the_practice_table():
    """docs/rules.md 12.6: the left pedro is a point of its own; the practice table names
    every point the kernels award (a missing name crashed `practice --rules cinch`)."""
    from pitchsim.coach.practice import AWARD_WORDS
    from pitchsim.kernels.score import AWARD_NAMES, award_names

    assert set(AWARD_NAMES) <= set(AWARD_WORDS)
    assert award_names(Rules.parse("cinch")) == ["high", "low", "jack", "ten", "five", "left-pedro"]
