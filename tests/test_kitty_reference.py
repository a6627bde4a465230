"""docs/rules.md 12.2, ``kitty=N``, clause by clause in the reference engine
(``pitchsim.game.reference``): N cards dealt aside; once trump is named, before any
other discard, the pitcher takes them unseen by the others and, under discard=none,
discards face down at once back to 6; he does not draw; his discards are out of play.
And the combinations 6.3.3 and 6.3.8 allow, and every command playing it (the kernels
and the view: tests/test_kitty_kernels.py, tests/test_kitty_view.py).

Expectations are worked by hand from the clauses."""

from __future__ import annotations

import random

import pytest
from clirun import refused, run

from pitchsim.game import reference as F
from pitchsim.game.cards import cards_of, mask_of, parse_card, parse_cards
from pitchsim.game.rules import Rules, RulesError

C, D, H, S = range(4)
FIVE_KITTY = Rules.parse("five-point,kitty=3")


def c(text: str) -> int:
    return parse_card(text)


def m(text: str) -> int:
    return mask_of(parse_cards(text))


def fixed_game(hands_text: list[str], stock_first: str, rules=FIVE_KITTY, trump=H, bid=2):
    """One hand of ``rules``: the hands given (dealer 3, seat 0 calls first and bids
    ``bid``, the others pass), the undealt pack ending with ``stock_first`` (12.2.1: the
    kitty is its last N cards), seat 0 names ``trump``; cards played at random."""
    used = set()
    hands = []
    for t in hands_text:
        cs = parse_cards(t)
        used |= set(cs)
        hands.append(mask_of(cs))
    kitty = parse_cards(stock_first)
    used |= set(kitty)
    rest = [x for x in F.pack(rules, 4) if x not in used]
    stock = rest + kitty
    pick = random.Random(0)

    def bidder(seat, hand, calls, legal, scores):
        return bid if seat == 0 and bid in legal else F.PASS

    return F.play_game(
        4, rules, random.Random(1), bidder, lambda seat, hand: trump,
        lambda view: pick.choice(cards_of(view.legal)),
        max_hands=1, first_dealer=3, deals=lambda no, dealer: (hands, stock),
    ).hands[0]  # fmt: skip


# ---- 6.3 ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("auction-pitch,kitty=3", "kitty=3 needs trump=named"),  # the pitch fixes trump
        ("ten-point,kitty=3", "kitty=3 needs rob=false"),
        ("ten-point,rob=false,kitty=3", "kitty=3 needs discard=none"),
        ("cinch,kitty=3", "kitty=3 needs rob=false"),
    ],
)
def test_6_3_8_a_kitty_needs_trump_named_no_rob_and_no_automatic_discard(spec, words):
    with pytest.raises(RulesError, match=words):
        Rules.parse(spec)


def test_6_3_3_and_12_2_3_players_times_dealt_plus_the_kitty_within_the_pack():
    Rules.parse("five-point,kitty=28").check_players(4)  # 4 x 6 + 28 = 52
    with pytest.raises(RulesError, match=r"kitty of 29 is more than the 52-card pack"):
        Rules.parse("five-point,kitty=29").check_players(4)
    with pytest.raises(RulesError, match="kitty of 17 is more than the 40-card pack"):
        Rules.parse("five-point,deck=5-A,kitty=17").check_players(4)  # 12.3: 40 cards
    with pytest.raises(RulesError, match="kitty must be 0-54|kitty"):
        Rules.parse("five-point,kitty=-1")


def test_12_2_no_kitty_is_the_preset_unchanged():
    assert Rules.parse("five-point,kitty=0") == Rules.parse("five-point")
    assert "kitty" not in Rules.parse("five-point").describe()
    assert Rules.parse("five-point,kitty=3").describe()["kitty"] == 3


# ---- 12.2 ---------------------------------------------------------------------------


def test_12_2_1_the_kitty_is_the_last_n_cards_of_the_undealt_pack():
    assert F.kitty_of([5, 9, 11, 30, 40], FIVE_KITTY) == [11, 30, 40]
    assert F.kitty_of([5, 9, 11], Rules.parse("five-point")) == []


def test_12_2_2_and_12_2_4_the_pitcher_takes_three_and_discards_three():
    # Hearts trump.  Seat 0 pitches holding K♥ 9♥ 4♣ 5♦ 7♠ 8♠ and takes A♥ 2♣ 3♦: nine
    # cards; he discards three face down, non-trumps lowest first (pitchsim's choice,
    # as a robbing pitcher comes down): 2♣ 3♦ 4♣.  A♥ from the kitty is in play (0.6):
    # High is his.  The others keep their hands; nobody draws.
    others = ["QH 6C 6D 6S 9C 9D", "JH 7C 7D TC TD TS", "TH 8C 8D JC JD JS"]
    hand = fixed_game(["KH 9H 4C 5D 7S 8S", *others], "AH 2C 3D")
    rec = hand.draw
    assert rec.robbed == parse_cards("AH 2C 3D")
    assert sorted(rec.put_down) == sorted(parse_cards("2C 3D 4C"))
    assert rec.put_down_shown == [] and rec.drawn == [[], [], [], []]
    assert hand.play.held[0] == m("AH KH 9H 5D 7S 8S")
    assert hand.play.held[1:] == hand.dealt[1:]
    assert hand.play.score.high == 0  # seat 0 holds the A♥: High (0.7)


def test_12_2_2_a_pitcher_with_nine_trumps_discards_three_by_rule_x():
    # Seat 0 holds six hearts and takes three more: rule X puts down the lowest trumps
    # that carry no point (4.8.6; five-point: the ace, jack, jick and 2 carry one;
    # Game by count, so the 10 does not): 3♥ 4♥ 5♥.  Low (the 2♥) stays in play.
    others = ["QC 6C 6D 6S 9C 9D", "QD 7C 7D TC TD TS", "QS 8C 8D JC KD JS"]
    hand = fixed_game(["AH KH QH 2H 3H 4H", *others], "5H 6H JD")
    assert sorted(hand.draw.put_down) == sorted(parse_cards("3H 4H 5H"))
    assert hand.play.held[0] == m("AH KH QH 2H 6H JD")  # J♦ is the jick: a trump


def test_12_2_2_the_discards_are_out_of_play():
    # The pitcher puts down the 2♣ he took; a trump put down is not in play either:
    # seat 0 takes 3♥ and discards it (rule X), so Low is the 4♥ (seat 1's).
    others = ["4H 6C 6D 6S 9C 9D", "QD 7C 7D TC TD TS", "QS 8C 8D JC KD JS"]
    hand = fixed_game(["AH KH QH JH TH 9H", *others], "3H 2C 5C")
    assert sorted(hand.draw.put_down) == sorted(parse_cards("3H 2C 5C"))
    in_play = 0
    for h in hand.play.held:
        in_play |= h
    assert not in_play & m("3H 2C 5C")
    assert hand.play.score.low == 1  # 4♥, held by seat 1 (low=dealt)


def test_12_2_random_games_keep_every_invariant():
    """Random five-point,kitty=3 games: the pitcher holds 6 when play starts, the kitty
    came from the end of the stock, what he put down came from his hand and the kitty,
    nobody else's hand changed, no card is in play twice."""
    pick = random.Random(5)
    hands = 0
    for rules_text, n in (
        ("five-point,kitty=3", 4),
        ("smear,kitty=4", 3),
        ("six-point,partnership=false,kitty=2", 2),
    ):
        rules = Rules.parse(rules_text)
        k = rules.kitty
        game = F.play_game(
            n, rules, random.Random(hands), lambda s, h, calls, legal, sc: pick.choice(legal),
            lambda seat, hand: pick.randrange(4), lambda view: pick.choice(cards_of(view.legal)),
            max_hands=40,
        )  # fmt: skip
        for hand in game.hands:
            if hand.play is None:
                continue
            p = hand.auction.pitcher
            rec = hand.draw
            assert rec.robbed == hand.stock[-k:]
            assert len(rec.put_down) == k
            assert mask_of(rec.put_down) & ~(hand.dealt[p] | mask_of(rec.robbed)) == 0
            assert hand.play.held[p].bit_count() == 6
            assert all(hand.play.held[s] == hand.dealt[s] for s in range(n) if s != p)
            seen = 0
            for h in hand.play.held:
                assert not seen & h
                seen |= h
            hands += 1
    assert hands > 60


# ---- every command plays it -------------------------------------------------------


@pytest.mark.parametrize(
    "argv, words",
    [
        (("bid-odds", "--rules", "five-point,kitty=3", "--samples", "2000", "AH KH QH 2H 3C 4D"),
         "takes the kitty"),
        (("simulate", "--rules", "five-point,kitty=3", "--deals", "200", "-q"), ""),
        (("play", "--rules", "five-point,kitty=3", "--seed", "1"), "takes the kitty"),
        (("advise", "--rules", "five-point,kitty=3", "--seat", "1", "--dealer", "0",
          "--samples", "200", "AH KH QH 2H 3C 4D"), "Recommended"),
        (("hint", "--rules", "five-point,kitty=3", "--hand", "AS KS QD 2C 5C 4H",
          "--dealer", "0", "--calls", "2,pass,pass,pass", "--trump", "H", "--tricks", "AH",
          "--worlds", "20"), "Play "),
        (("hint", "--rules", "five-point,kitty=3", "--hand", "AH KH QH 2H 3C 4D",
          "--dealer", "0", "--calls", "2,pass,pass,pass", "--trump", "H", "--kitty",
          "TH 7H 4S", "--worlds", "20"), "Play "),
    ],
)  # fmt: skip
def test_12_2_every_command_plays_a_kitty(argv, words, tmp_path):
    done = run(*argv, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert words in done.stdout


def test_12_2_2_the_pitchers_short_form_without_the_kitty_is_refused_in_one_line():
    line = refused(
        "hint", "--rules", "five-point,kitty=3", "--hand", "AH KH QH 2H 3C 4D", "--dealer",
        "0", "--calls", "2,pass,pass,pass", "--trump", "H",
    )  # fmt: skip
    assert "--kitty" in line and "12.2.2" in line


def test_12_2_a_kitty_given_to_the_short_form_without_one_is_refused():
    line = refused(
        "hint", "--rules", "five-point", "--hand", "AH KH QH 2H 3C 4D", "--dealer", "0",
        "--calls", "2,pass,pass,pass", "--trump", "H", "--kitty", "TH 7H 4S",
    )  # fmt: skip
    assert "deals no kitty" in line
