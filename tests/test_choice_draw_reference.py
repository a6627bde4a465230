"""docs/rules.md 12.8, ``discard=choice`` and ``discard=draw``, clause by clause in the
reference engine (``pitchsim.game.reference``): after any kitty, each player in turn from
the dealer's left, the dealer last, comes down to 6 (choice) or discards, keeping 3, and
draws back to 6 (draw); pitchsim's fixed choice of the cards (12.8.3); every discard
face down (12.8.4); the combinations 6.3.2 and 6.3.8 allow.  The kernels play the same
hands deal by deal (tests/test_families_kernels.py, its 12.8 configurations).

Expectations are worked by hand from the clauses."""

from __future__ import annotations

import random

import pytest

from pitchsim.game import reference as F
from pitchsim.game.cards import cards_of, mask_of, parse_cards
from pitchsim.game.rules import Rules, RulesError

C, D, H, S = range(4)
CHOICE9 = Rules.parse("auction-pitch,deal=9,discard=choice,trump=named")
DRAW9 = Rules.parse("auction-pitch,deal=9,discard=draw,trump=named")


def m(text: str) -> int:
    return mask_of(parse_cards(text))


def after(rules, hands_text, stock_text, pitcher=0, dealer=3, trump=H, rng=None, called=-1):
    """The hands when play starts and the record, from the hands and the stock given
    (top card first; the kitty its last N cards, 12.2.1)."""
    hands = [m(t) for t in hands_text]
    stock = parse_cards(stock_text)
    rng = rng or random.Random(0)
    return F.after_naming(hands, stock, pitcher, trump, rules, rng, dealer, called)


# ---- 6.3 ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("auction-pitch,deal=9", "deal=9 needs discard=non-trump, choice or draw"),
        ("auction-pitch,discard=choice", "discard=choice needs trump=named"),
        ("auction-pitch,discard=draw,deal=9", "needs trump=named"),
        ("auction-pitch,trump=named,discard=draw,rob=true", "rob=true needs discard=non-trump"),
        ("ten-point,rob=false,kitty=3", "kitty=3 needs discard=none, choice or draw"),
    ],
)
def test_6_3_2_and_6_3_8_and_12_8_4_the_combinations_refused(spec, words):
    with pytest.raises(RulesError, match=words):
        Rules.parse(spec)


@pytest.mark.parametrize(
    "spec",
    [
        "auction-pitch,deal=9,discard=choice,trump=named",
        "auction-pitch,deal=9,discard=draw,trump=named",
        "smear,kitty=3,discard=draw",
        "smear,kitty=3,discard=choice",
        "ten-point,rob=false,discard=draw",
        "ten-point,rob=false,kitty=2,discard=choice",
        # 12.9: every discard face up, under choice and draw too
        "smear,discard=draw,discards=shown",
        "auction-pitch,deal=9,discard=choice,trump=named,discards=shown",
        "smear,kitty=3,discard=choice,discards=shown",
    ],
)
def test_6_3_2_and_6_3_8_the_combinations_allowed(spec):
    r = Rules.parse(spec)
    assert r.discard in ("choice", "draw")
    assert Rules.parse(",".join(f"{k}={v}" for k, v in r.describe().items())) == r


# ---- 12.8.5, the worked cases ---------------------------------------------------------


def test_12_8_5_draw_seven_trumps_and_two_non_trumps_put_down_three_and_draw_nothing():
    # Hearts trump: A K Q J 9 8 7 of hearts, 2♣ 3♦.  Both non-trumps go, and one trump
    # by rule X (4.8.6: the lowest carrying no point, the 7♥); he holds 6 and draws none.
    down = F.draw_discard(m("AH KH QH JH 9H 8H 7H 2C 3D"), H, DRAW9)
    assert sorted(down) == sorted(parse_cards("2C 3D 7H"))


def test_12_8_5_draw_one_trump_and_eight_non_trumps_keeps_three_and_draws_three():
    # 5♥ and eight clubs and diamonds: he keeps the trump and his two highest non-trumps
    # (A♣, K♦; 12.8.3), puts down the other six and draws three.
    hands = ["5H AC QC 9C 4C 2C KD 7D 3D", "", "", ""]
    held, rec = after(DRAW9, hands, "AS KS QS JS TS 9S 8S")
    assert rec.discarded[0] == m("QC 9C 4C 2C 7D 3D")
    assert held[0] == m("5H AC KD") | mask_of(rec.drawn[0])
    assert len(rec.drawn[0]) == 3


def test_12_8_5_choice_every_player_puts_down_three_and_nobody_draws():
    """Random 4-player deals of 9: each player puts down exactly 3, face down, nobody
    draws, and 24 cards are in play."""
    rng = random.Random(5)
    for dealer in range(4):
        dealt, stock = F.deal(rng, CHOICE9, 4, dealer)
        held, rec = F.after_naming(dealt, stock, 1, S, CHOICE9, rng, dealer)
        assert [h.bit_count() for h in held] == [6] * 4
        assert [b.bit_count() for b in rec.discarded] == [3] * 4
        assert rec.drawn == [[], [], [], []] and rec.burnt == [0] * 4
        assert sum(h.bit_count() for h in held) == 24
        for s in range(4):
            assert held[s] | rec.discarded[s] == dealt[s]


def test_12_8_5_kitty_3_under_draw_the_pitcher_puts_down_six_the_others_draw_three():
    # smear (the jick a trump), 9 dealt, kitty=3, hearts trump.  Seat 0 pitches: 12 cards,
    # comes down to 6 and draws nothing.  Seat 1 holds no trump: puts down 6 non-trumps,
    # keeps his 3 highest and draws 3.  With 5 players the stock less the kitty is 4
    # cards: seat 4 draws 3, seat 1 the last and then from the discards, never the kitty.
    r = Rules.parse("smear,deal=9,kitty=3,discard=draw")
    hands = [
        "AH KH 2H 3C 4C 5C 6C 7C 8C",
        "AC KC QC JC TC 9C AD KD QD",
        "JD 9D 8D 7D 6D 5D 4D 3D 2D",
        "AS KS QS JS TS 9S 8S 7S 6S",
        "5S 4S 3S 2S 2C TD 3H 6H 7H",
    ]
    used = set(parse_cards(" ".join(hands)))
    kitty = parse_cards("QH 5H 4H")
    rest = [c for c in F.pack(r, 5) if c not in used and c not in kitty]
    assert len(rest) == 4
    stock = rest + kitty
    dealt = [m(t) for t in hands]
    held, rec = F.after_naming(dealt, stock, 0, H, r, random.Random(0), 3)
    assert rec.robbed == kitty and len(rec.put_down) == 6 and rec.drawn[0] == []
    # non-trumps lowest first: 3♣-8♣; he keeps every trump (A K Q 5 4 2♥)
    assert held[0] == m("AH KH QH 5H 4H 2H")
    # seat 1 keeps A♣ A♦ K♦ (equal ranks in suit order: K♦ above K♣), draws 3
    assert rec.discarded[1] == m("KC QC JC TC 9C QD") and len(rec.drawn[1]) == 3
    # seat 2 holds the jick (J♦, a trump): keeps it and 9♦ 8♦, draws 3
    assert rec.discarded[2] == m("7D 6D 5D 4D 3D 2D") and len(rec.drawn[2]) == 3
    drawn = [c for s in range(4) for c in rec.drawn[s]]
    assert not set(drawn) & set(kitty)  # 12.2.1: the kitty is never drawn
    assert rec.drawn[4] == rest[:3] and rec.drawn[1][0] == rest[3]


# ---- 12.8.1, 12.8.2: the order and the draw ------------------------------------------


# 5 players dealt 9: 45 cards, a stock of 7 (no heart below the 8 in it).
FIVE_NINES = [
    "2C 3C 4C 5C 6C 7C 8C 9C TC",
    "JC QC KC AC 2D 3D 4D 5D 6D",
    "7D 8D 9D TD JD QD KD AD 2S",
    "3S 4S 5S 6S 7S 8S 9S TS JS",
    "QS KS AS 2H 3H 4H 5H 6H 7H",
]
FIVE_STOCK = "8H 9H TH JH QH KH AH"


def test_12_8_2_the_draw_runs_from_the_dealers_left_the_dealer_last():
    # 5 players dealt 9 (45 cards), a stock of 7, clubs trump.  Dealer 2, so the order
    # is seats 3, 4, 0, 1, 2.  Seat 3 (no trump) keeps J T 9♠ and draws the stock's
    # first 3; seat 4 (no trump) keeps A K Q♠ and draws the next 3; seat 0 holds 9
    # clubs, puts down 3♣ 4♣ 5♣ by rule X and draws none; the pitcher (seat 1: 4
    # trumps) puts down his 5 diamonds and draws the last card and one from the
    # face-down discards; the dealer (no trump) draws 3 from the discards.
    stock = FIVE_STOCK
    held, rec = after(DRAW9, FIVE_NINES, stock, pitcher=1, dealer=2, trump=C)
    top = parse_cards(stock)
    assert rec.drawn[0] == [] and held[0] == m("2C 6C 7C 8C 9C TC")
    assert rec.drawn[3] == top[:3] and rec.drawn[4] == top[3:6]
    assert rec.drawn[1][0] == top[6] and len(rec.drawn[1]) == 2 and len(rec.drawn[2]) == 3
    assert held[3] == m("JS TS 9S") | mask_of(top[:3])
    assert all(h.bit_count() == 6 for h in held)


def test_12_8_2_under_follow_only_a_short_stock_leaves_a_player_short():
    r = Rules.parse("auction-pitch,deal=9,discard=draw,trump=named,follow=only")
    held, rec = after(r, FIVE_NINES, FIVE_STOCK, pitcher=1, dealer=2, trump=H)
    # Hearts trump: seat 4 keeps its 6 hearts and draws none; the others hold no trump,
    # keep 3 and want 3: seat 3 and seat 0 draw 3 each, the pitcher the last card, and
    # the dealer plays with 3 (4.8.4: no draw from the discards under follow=only).
    assert [len(d) for d in rec.drawn] == [3, 1, 0, 3, 0]
    assert [h.bit_count() for h in held] == [6, 4, 3, 6, 6]


def test_12_8_3_a_called_trump_is_never_put_down():
    # Seat 1 holds 8 hearts; under partner=called the pitcher called the 7♥: rule X
    # passes over it (12.1.3), so the 8♥ goes with the 6♥.
    r = Rules.parse("auction-pitch,deal=9,discard=draw,trump=named,partner=called")
    down = F.draw_discard(m("AH KH 9H 8H 7H 6H 4H 3H 2C"), H, r, called=parse_cards("4H")[0])
    assert sorted(down) == sorted(parse_cards("2C 3H 6H"))
    down = F.come_down(m("AH KH 9H 8H 7H 6H 4H 3H 2C"), H, r, called=parse_cards("3H")[0])
    assert sorted(down) == sorted(parse_cards("2C 4H 6H"))


def test_12_8_4_every_discard_is_face_down_trumps_too():
    held, rec = after(DRAW9, ["AH KH QH JH 9H 8H 7H 2C 3D", "", "", ""], "2S 3S 4S")
    assert rec.burnt == [0, 0, 0, 0] and rec.put_down_shown == []
    assert rec.discarded[0] == m("2C 3D 7H")


@pytest.mark.parametrize("discard", ["none", "choice", "draw"])
def test_12_9_1_the_kitty_put_down_is_face_up_under_discards_shown(discard):
    # smear, kitty=3, hearts trump, seat 0 pitches: 6 + 3 = 9, so 3 go down, the lowest
    # non-trumps first (2♣ 3♣ 4♣), face up under shown, face down under hidden (12.9.1).
    hands = ["AH KH 2H 2C 3C 4C", "AC KC QC JC TC 9C", "AD KD QD JD TD 9D", "AS KS QS JS TS 9S"]
    used = set(parse_cards(" ".join(hands)))
    kitty = parse_cards("QH 5H 5C")
    rest = [c for c in F.pack(Rules.parse("smear"), 4) if c not in used and c not in kitty]
    for shown in ("hidden", "shown"):
        r = Rules.parse(f"smear,kitty=3,discard={discard},discards={shown}")
        dealt = [m(t) for t in hands]
        held, rec = F.after_naming(dealt, rest + kitty, 0, H, r, random.Random(0), 3)
        assert sorted(rec.put_down) == sorted(parse_cards("2C 3C 4C"))
        want = rec.put_down if shown == "shown" else []
        assert rec.put_down_shown == want


def test_12_8_random_games_keep_every_invariant():
    """Whole games under draw with a kitty and under choice: every hand in play holds 6
    (nobody plays short under follow=trump), no card is in two hands, and no card put
    down is played."""
    for spec, n in (("smear,kitty=3,discard=draw", 5), (CHOICE9, 4), (DRAW9, 5)):
        r = Rules.parse(spec)
        game = F.play_game(
            n, r, random.Random(3), lambda seat, hand, calls, legal, scores: legal[-1],
            lambda seat, hand: H,
            lambda view: cards_of(view.legal)[0], max_hands=6,
        )  # fmt: skip
        for hand in game.hands:
            if hand.draw is None:
                continue
            held = hand.play.held
            assert all(h.bit_count() == 6 for h in held)
            seen = 0
            for h in held:
                assert not seen & h
                seen |= h
            down = mask_of(hand.draw.put_down)
            for b in hand.draw.discarded:
                down |= b
            drawn_back = mask_of([c for d in hand.draw.drawn for c in d])
            assert not seen & down & ~drawn_back
