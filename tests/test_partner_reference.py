"""docs/rules.md 12.1, ``partner=none|called|announced``, clause by clause in the
reference engine (``pitchsim.game.reference``): the pitcher calls a card and its holder
is his partner for the hand; the two are one side for the points, the set and the Game
count, each keeping his own score.  And the combinations 6.3.7 allows, and the one-line
refusal of everything that does not play a called partner yet (the kernels, so every
command, and a player's view).

Expectations are worked by hand from the clauses."""

from __future__ import annotations

import json
import random

import pytest
from clirun import cli, refused

from pitchsim.game import reference as F
from pitchsim.game.cards import HIGH_JOKER, LOW_JOKER, cards_of, mask_of, parse_card, parse_cards
from pitchsim.game.rules import Rules, RulesError
from pitchsim.game.view import View
from pitchsim.table.engine import Engine

C, D, H, S = range(4)
TEN5 = "ten-point,partnership=false,partner=called"
NAMED5 = "auction-pitch,trump=named,partner=called"


def c(text: str) -> int:
    return parse_card(text, jokers=2)


def m(text: str) -> int:
    return mask_of(parse_cards(text, jokers=2))


def one_hand(spec, n, fixed, caller=None, trump=H, seed=0, stock_last="", stock_first=""):
    """One hand of ``spec`` at ``n`` players: the seats of ``fixed`` hold the cards
    given, the others cards of the rest of the pack (shuffled by ``seed``), the stock
    starts with ``stock_first`` and ends with ``stock_last`` (a kitty's cards, 12.2.1).  The dealer is the last seat;
    seat 0 bids the minimum and the others pass; seat 0 names ``trump`` and calls by
    ``caller`` (None: pitchsim's call).  Cards at random.  The hand's record and every
    view the chooser saw, in order."""
    rules = Rules.parse(spec)
    r = rules
    hands = [m(fixed[s]) if s in fixed else None for s in range(n)]
    first, last = parse_cards(stock_first, jokers=2), parse_cards(stock_last, jokers=2)
    taken = mask_of(first + last)
    for h in hands:
        taken |= h or 0
    rest = [x for x in F.pack(rules, n) if not taken >> x & 1]
    random.Random(seed).shuffle(rest)
    each = r.cards_each(n)
    for s in range(n):
        if hands[s] is None:
            hands[s], rest = mask_of(rest[:each]), rest[each:]
    assert all(h.bit_count() == each for h in hands)
    stock = first + rest + last
    pick = random.Random(seed)
    views = []

    def choose(view):
        views.append(view)
        return pick.choice(cards_of(view.legal))

    def bidder(seat, hand, calls, legal, scores):
        return r.min_bid if seat == 0 and r.min_bid in legal else F.PASS

    game = F.play_game(
        n, rules, random.Random(seed), bidder, lambda seat, hand: trump, choose,
        first_dealer=n - 1, max_hands=1, deals=lambda no, dealer: (hands, stock), caller=caller,
    )  # fmt: skip
    return game.hands[0], views


# ---- 6.3.7: what a called partner needs --------------------------------------------


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("auction-pitch,partner=called", "partner=called needs trump=named"),  # the pitch
        ("ten-point,partner=called", "partner=called needs partnership=false"),
        ("ten-point,partner=announced", "partner=announced needs partnership=false"),
        (
            "ten-point,partnership=false,follow=suit,partner=called",
            "partner=called needs follow=trump or only",
        ),
        ("five-point,partnership=false,partner=called", "five-point is played by 2-4"),
        ("seven-point,partnership=false,partner=called", "seven-point is played by 4"),
        ("smear,partner=ask", "partner must be 'none' or 'called' or 'announced'"),
    ],
)
def test_6_3_7_a_called_partner_needs_no_partnership_trump_named_and_a_followable_trump(
    spec, words
):
    with pytest.raises(RulesError, match=words) as e:
        Rules.parse(spec)
    assert "\n" not in str(e.value)
    if "partner=" in words:
        assert "VARIANTS.md 6.3.7" in str(e.value)


def test_6_3_7_announced_takes_any_follow_rule():
    # only `called` needs the called trump playable to the first trick (12.1.3)
    assert Rules.parse("smear,follow=suit,partner=announced").partner == "announced"


def test_6_3_7_and_12_1_1_five_or_six_players_only():
    rules = Rules.parse(TEN5)
    for n in (5, 6):
        rules.check_players(n)
    with pytest.raises(RulesError, match=r"partner=called needs 5 or 6 players, not 4"):
        rules.check_players(4)
    smear = Rules.parse("smear,partner=announced")
    for n in (2, 3, 4, 7):
        with pytest.raises(RulesError, match="needs 5 or 6 players"):
            smear.check_players(n)
    # 12.1.1: 5 players of a deal=9 jokers=2 game get 10 each of the pack without the 4s
    assert rules.cards_each(5) == 10 and rules.pack_size(5) == 50
    assert rules.cards_each(6) == 9 and rules.pack_size(6) == 54


def test_12_1_no_partner_is_the_preset_unchanged():
    assert Rules.parse("smear,partner=none") == Rules.parse("smear")
    assert Rules.parse("auction-pitch,partner=none") == Rules()  # still the plain base rules
    assert "partner" not in Rules.parse("smear").describe()
    rules = Rules.parse(NAMED5)
    assert rules.describe()["partner"] == "called"
    assert Rules.parse(rules.describe()) == rules


# ---- 12.1.2 to 12.1.5: the call and the partner -----------------------------------


def test_12_1_2_only_a_trump_of_the_trump_order_may_be_called():
    r = Rules.parse(TEN5)
    may = F.callable_cards(H, r)
    assert may == F.trump_order(r, H) and len(may) == 16
    assert {c("JD"), HIGH_JOKER, LOW_JOKER, c("AH"), c("2H")} <= set(may)
    assert c("4H") in may  # left out of the 5-player pack (4.3), still callable (12.1.9)
    assert F.checked_call(c("JD"), H, r) == c("JD")
    for bad in ("AS", "JC", "4D"):
        with pytest.raises(ValueError, match=f"called {bad}, which is not a trump"):
            F.checked_call(c(bad), H, r)
    with pytest.raises(ValueError, match="called AS, which is not a trump"):
        one_hand(TEN5, 5, {}, caller=lambda seat, hand, trump: c("AS"))
    assert F.callable_cards(H, Rules.parse("smear")) == []


def test_12_1_2_the_call_comes_once_trump_is_named_before_any_discard_or_kitty():
    seen = []

    def caller(seat, hand, trump):
        seen.append((seat, hand, trump))
        return c("AS") if trump == S else c("AH")

    hand, _ = one_hand(TEN5, 5, {}, caller=caller, trump=S)
    assert seen == [(0, hand.dealt[0], S)] and hand.dealt[0].bit_count() == 10
    assert hand.draw is not None  # the discard and draw came after the call
    seen.clear()
    hand, _ = one_hand("smear,partner=called,kitty=3", 5, {}, caller=caller, stock_last="2C 3C 4C")
    assert seen == [(0, hand.dealt[0], H)] and hand.dealt[0].bit_count() == 6  # before the kitty
    assert hand.draw.robbed == parse_cards("2C 3C 4C")


def test_12_1_2_pitchsims_call_is_the_highest_trump_the_pitcher_lacks():
    r = Rules.parse(TEN5)
    assert F.highest_missing_trump(m("AH KH 3H 9C"), H, r) == c("QH")
    assert F.highest_missing_trump(m("AH KH QH JH"), H, r) == c("JD")  # the jick next
    assert F.highest_missing_trump(m("AH KH QH JH JD 2H"), H, r) == HIGH_JOKER
    assert F.highest_missing_trump(m("KH 2C"), S, r) == c("AS")
    hand, _ = one_hand(TEN5, 5, {0: "AH KH QH 2H 3H 9C 9D 9S 8C 8D"})
    assert hand.play.called == c("JH")  # the default caller: the highest he lacks


def test_12_1_2_and_12_1_3_the_partner_is_secret_until_he_plays_the_called_card():
    # 12.1.9: the pitcher calls A♥, held by seat 3, who must play it to trick 1.
    # Until then only seat 3's view names him; once A♥ is down, every view does.
    fixed = {0: "KH QH 2C 3C 4C 5C", 3: "AH 7D 8D 9D TD 6S"}
    hand, views = one_hand(NAMED5, 5, fixed)
    assert (hand.play.called, hand.play.partner) == (c("AH"), 3)  # the highest he lacks
    leader, seats, cards, _ = hand.play.tricks[0]
    assert cards[seats.index(3)] == c("AH")
    out = False
    for v in views:
        assert v.called == c("AH")
        if v.trick_no == 0 and v.seat == 3:
            assert v.legal == m("AH") and v.partner == 3
            out = True
        elif out or v.trick_no > 0:
            assert v.partner == 3, v
        else:
            assert v.partner is None, v  # the pitcher too: he does not know
    assert out


def test_12_1_3_a_partner_who_leads_trick_1_leads_the_called_card():
    # ten-point (follow=only), 5 players: the pitcher holds no heart, so after the
    # discard he is out (4.9) and seat 1, the next with a trump, leads trick 1.  Seat 1
    # holds A♥, the call: he must lead it, not one of his other four hearts.
    fixed = {0: "2C 3C 4C 5C 6C 7C 8C 9C TC QC", 1: "AH 9H 8H 7H 6H 2S 3S 5S 6S 7S"}
    for seed in range(4):
        hand, views = one_hand(TEN5, 5, fixed, seed=seed)
        assert hand.play.partner == 1 and hand.play.called == c("AH")
        leader, seats, cards, _ = hand.play.tricks[0]
        assert (leader, cards[0]) == (1, c("AH"))
        assert views[0].seat == 1 and views[0].legal == m("AH")


def test_12_1_3_rule_x_passes_over_the_called_card():
    # ten-point, 5 players: seat 2 holds eight hearts and must burn two by rule X, the
    # plain trumps lowest first (the 2 and the 3 carry points): 5♥ 6♥, but 5♥ is the
    # called card, so 6♥ 7♥ go.  He keeps 5♥ and plays it to trick 1.
    fixed = {2: "KH QH 9H 8H 7H 6H 5H 2H 9C 9D"}
    hand, _ = one_hand(TEN5, 5, fixed, caller=lambda seat, held, trump: c("5H"))
    assert hand.draw.burnt[2] == m("6H 7H")
    assert hand.play.held[2] >> c("5H") & 1 and hand.play.partner == 2
    leader, seats, cards, _ = hand.play.tricks[0]
    assert cards[seats.index(2)] == c("5H")


def test_12_1_3_and_12_1_5_a_pitcher_coming_down_keeps_his_own_call_and_plays_alone():
    # smear with a kitty of 3: the pitcher holds nine hearts after the kitty and puts
    # three down by rule X (the ace, jack, jick and 2 carry points): 5♥ 6♥ 7♥, but he
    # called 5♥, so 6♥ 7♥ 8♥ go.  Nobody else holds it: he plays alone.
    fixed = {0: "AH KH QH TH 9H 8H"}
    hand, _ = one_hand(
        "smear,partner=called,kitty=3", 5, fixed, caller=lambda s, h, t: c("5H"),
        stock_last="7H 6H 5H",
    )  # fmt: skip
    assert sorted(hand.draw.put_down) == parse_cards("6H 7H 8H")
    assert hand.play.held[0] == m("AH KH QH TH 9H 5H")
    assert hand.play.partner is None


def test_12_1_4_announced_any_card_called_after_the_draw_and_known_at_once():
    seen = []

    def caller(seat, hand, trump):
        seen.append(hand)
        return c("9C")  # not a trump: any card may be called (12.1.4)

    rules = "smear,partner=announced"
    hand, views = one_hand(rules, 5, {2: "9C 8C 7C 6C 5C 4C"}, caller=caller)
    assert hand.play.called == c("9C") and hand.play.partner == 2
    assert all(v.partner == 2 for v in views)  # known to all from the first card
    first = [v for v in views if v.trick_no == 0 and v.seat == 2]
    assert first[0].legal.bit_count() > 1  # no duty to play it to trick 1 (12.1.3 is called's)
    # ten-point: the call comes after the discard and draw, from the trumps he kept (5
    # players: no stock, so no refill) and whatever he robbed
    seen.clear()
    rules = Rules.parse("ten-point,partnership=false,partner=announced")
    hand, _ = one_hand(rules, 5, {}, caller=caller)
    assert seen == [hand.play.held[0]] and hand.dealt[0].bit_count() == 10
    assert all(F.is_trump(x, H, rules) for x in cards_of(seen[0]))
    assert hand.play.partner is None  # 9♣ was discarded: nobody holds it (12.1.5)


def test_12_1_5_and_12_1_9_the_pitcher_plays_alone_when_nobody_else_holds_the_call():
    # his own card
    hand, views = one_hand(NAMED5, 5, {0: "AH KH QH 2C 3C 4C"}, caller=lambda s, h, t: c("KH"))
    assert hand.play.partner is None
    assert {v.partner for v in views if v.seat == 0} == {0}  # he knows he is alone
    # 12.1.9: the 4♥ in a pack without 4s
    hand, views = one_hand("smear,deck=5-A,partner=called", 5, {}, caller=lambda s, h, t: c("4H"))
    assert hand.play.called == c("4H") and hand.play.partner is None
    assert {v.partner for v in views} == {None}  # nobody can tell
    pts = hand.play.score.points
    assert len({pts[s] for s in range(1, 5)}) == 1  # all the others one side (12.1.6)


def test_12_1_5_a_player_who_draws_the_called_card_is_the_partner():
    # ten-point with one joker: 5 x 9 of 53, a stock of 8 whose top card is A♥.  Seat 1,
    # first to draw, holds no trump: he discards nine and draws six, A♥ first.
    fixed = {0: "KH QH JH 2C 3C 4C 5C 6C 7C", 1: "9C 9D 9S 8D 8S 7D 7S TC TS"}
    rules = "ten-point,partnership=false,jokers=1,partner=called"
    hand, _ = one_hand(rules, 5, fixed, stock_first="AH")
    assert hand.play.called == c("AH")  # the highest trump he lacks, in the stock
    assert hand.draw.drawn[1][0] == c("AH") and hand.play.partner == 1
    leader, seats, cards, _ = hand.play.tricks[0]
    assert cards[seats.index(1)] == c("AH")  # and plays it to trick 1 (12.1.3)


# ---- 12.1.6 to 12.1.9: one side for the hand, own scores, winning -----------------


def test_12_1_6_the_pitcher_and_partner_pool_their_points_and_game_count():
    # Hearts trump, every seat takes its own cards.  Game counts: seat 0 (pitcher) 4,
    # seat 3 (partner) 21, seat 1 22, seats 2 and 4 none.  Alone seat 1 has the highest
    # count; pooled, the pitcher's side has 25 against the others' 22: Game is theirs.
    # High (A♥) and Jack (J♥) are theirs too; Low (2♥) the others'.
    held = [
        m("AH 2C 3C 4C 5C 6C"), m("TS TH QS 3S 4S 5S"), m("6D 7C 8C 9C 7D 8D"),
        m("TC TD JH 3D 4D 5D"), m("2H 7S 8S 9S 9D 2D"),
    ]  # fmt: skip
    r = Rules.parse(NAMED5)
    sides = F.sides_of(5, 0, 3, r)
    assert sides[0] == sides[3] and sides[1] == sides[2] == sides[4] != sides[0]
    score = F.score_hand(held, held, H, r, sides)
    assert score.points == [3, 1, 1, 3, 1] and score.game in (0, 3)
    assert F.score_hand(held, held, H, r).game == 1  # without the sides: seat 1's alone
    assert F.pitcher_made(score.points, 0, 3)  # the side makes 3 as one
    assert F.sides_of(5, 0, None, r) == [0, -1, -1, -1, -1]  # alone against the rest (12.1.5)
    assert F.sides_of(5, 0, 3, Rules.parse("smear")) == [0, 1, 2, 3, 4]  # no partner: seats


def test_12_1_7_and_12_1_9_each_player_adds_his_sides_result_to_his_own_score():
    r = Rules.parse(TEN5)
    sides = F.sides_of(5, 0, 3, r)
    # 12.1.9: 6 on a bid of 5: the pitcher and seat 3 score 6 each, the others 4 each
    assert F.settle_hand([6, 4, 4, 6, 4], 0, 5, r, sides) == [6, 4, 4, 6, 4]
    assert F.settle_hand([3, 7, 7, 3, 7], 0, 5, r, sides) == [-5, 7, 7, -5, 7]  # set as one
    alone = F.sides_of(5, 0, None, r)
    assert F.settle_hand([4, 6, 6, 6, 6], 0, 5, r, alone) == [-5, 6, 6, 6, 6]
    others = Rules.parse("smear,partner=called,set=to-others")  # 12.11 with 12.1.7
    sides = F.sides_of(5, 2, 4, others)
    assert F.settle_hand([1, 4, 1, 4, 1], 2, 2, others, sides) == [3, 6, 0, 6, 0]


def test_12_1_8_the_pitchers_side_is_the_pitcher_and_partner_each_at_his_own_score():
    w = F.winners
    r = Rules.parse(NAMED5)  # win=pitcher, target 7
    assert w([5, 0, 0, 8, 0], 0, True, r, partner=3) == [3]  # the partner there, made
    assert w([8, 0, 0, 8, 0], 0, True, r, partner=3) == [0, 3]  # both together
    assert w([8, 0, 0, 8, 0], 0, False, r, partner=3) == []  # set
    assert w([8, 9, 0, 8, 0], 0, True, r, partner=None) == [0]  # alone
    first = Rules.parse("smear,partner=called")  # win=pitcher-first, target 11
    assert w([12, 13, 0, 11, 0], 0, True, first, partner=3) == [0, 3]  # though seat 1 is higher
    assert w([5, 13, 0, 11, 0], 0, True, first, partner=3) == [3]
    assert w([5, 13, 0, 9, 0], 0, True, first, partner=3) == [1]  # neither there: the highest
    assert w([12, 13, 0, 9, 0], 0, True, first, partner=None) == [0]
    shoot = Rules.parse("smear,partner=called,shoot=true")
    assert w([3, 0, 0, 3, 0], 0, True, shoot, shoot=True, partner=3) == [0, 3]


def test_12_1_9_the_pitchers_side_scores_its_points_each_in_a_whole_hand():
    # Random hands of ten-point at 5: the pitcher and partner score the same, and so do
    # all the others; their pooled points are every point awarded.
    checked = 0
    for seed in range(30):
        hand, _ = one_hand(TEN5, 5, {}, seed=seed)
        p, q = 0, hand.play.partner
        if q is None:
            continue
        others = [s for s in range(5) if s not in (p, q)]
        score = hand.play.score
        total = sum(score.values[k] for k, seat in score.awards.items() if seat is not None)
        assert score.points[p] == score.points[q]
        assert len({score.points[s] for s in others}) == 1
        assert score.points[p] + score.points[others[0]] == total
        assert hand.change[p] == hand.change[q] == (score.points[p] if hand.made else -5)
        assert all(hand.change[s] == score.points[s] for s in others)
        checked += 1
    assert checked > 20


# ---- the call in the records: a replay reproduces it ------------------------------


def _replay(record, rules, n):
    """Play ``record`` again from what it recorded: deals, calls, trump, the partner's
    call and the cards."""
    now = {}

    def deals(no, dealer):
        now["hand"] = record.hands[no]
        return now["hand"].dealt, now["hand"].stock

    def bidder(seat, hand, calls, legal, scores):
        call = now["hand"].auction.calls[len(calls)]
        return F.PASS if call is None else call

    def chooser(view):
        return now["hand"].play.tricks[view.trick_no][2][len(view.trick)]

    return F.play_game(
        n, rules, random.Random(9), bidder, lambda seat, hand: now["hand"].play.trump, chooser,
        first_dealer=record.first_dealer, deals=deals,
        caller=lambda seat, hand, trump: now["hand"].play.called,
    )  # fmt: skip


@pytest.mark.parametrize(("spec", "n"), [(TEN5, 5), (NAMED5, 6), ("smear,partner=announced", 5)])
def test_12_1_the_call_is_a_step_of_the_record_and_a_replay_reproduces_it(spec, n):
    rules = Rules.parse(spec)
    r = rules
    pick = random.Random(n)
    deal_rng = random.Random(1)
    record = F.play_game(
        n, rules, random.Random(9), lambda s, h, calls, legal, sc: pick.choice(legal),
        lambda seat, hand: pick.randrange(4), lambda v: pick.choice(cards_of(v.legal)),
        deals=lambda no, dealer: F.deal(deal_rng, rules, n, dealer),
        caller=lambda seat, hand, trump: pick.choice(F.callable_cards(trump, r)),
    )  # fmt: skip
    played = [h for h in record.hands if h.play is not None]
    assert played and all(h.play.called >= 0 for h in played)
    again = _replay(record, rules, n)
    assert again.scores == record.scores and again.winners == record.winners
    for a, b in zip(again.hands, record.hands, strict=True):
        assert (a.change, a.made) == (b.change, b.made)
        if b.play is not None:
            assert (a.play.called, a.play.partner, a.play.tricks) == (
                b.play.called, b.play.partner, b.play.tricks,
            )  # fmt: skip


def test_12_1_random_games_keep_every_clause():
    """Random games at 5 and 6 players under called and announced: the call is a card
    the rules allow, the partner holds it when play starts (12.1.5), under called he
    plays it to trick 1 (12.1.3), and a called card dealt is never discarded, burnt or
    put down (12.1.3)."""
    pick = random.Random(4)
    hands = 0
    for spec, n in (
        (TEN5, 5), (TEN5, 6), (NAMED5, 5), (NAMED5, 6), ("smear,partner=called,kitty=3", 5),
        ("ten-point,partnership=false,partner=announced", 6), ("smear,partner=announced", 5),
    ):  # fmt: skip
        rules = Rules.parse(spec)
        r = rules
        games = [
            F.play_game(
                n, rules, random.Random(g), lambda s, h, calls, legal, sc: pick.choice(legal),
                lambda seat, hand: pick.randrange(4), lambda v: pick.choice(cards_of(v.legal)),
                max_hands=30,
            )
            for g in range(3)
        ]  # fmt: skip
        for hand in (h for game in games for h in game.hands):
            if hand.play is None:
                continue
            p, called, q = hand.auction.pitcher, hand.play.called, hand.play.partner
            assert called in F.callable_cards(hand.play.trump, r)
            holder = [s for s in range(n) if hand.play.held[s] >> called & 1]
            assert q == (holder[0] if holder and holder[0] != p else None)
            if q is not None and r.partner == "called":
                leader, seats, cards, _ = hand.play.tricks[0]
                assert cards[seats.index(q)] == called
            if r.partner == "called" and hand.draw is not None:
                rec = hand.draw
                gone = mask_of(rec.put_down)
                for s in range(n):
                    gone |= rec.discarded[s] | rec.burnt[s]
                assert not gone >> called & 1
            hands += 1
    assert hands > 120


def test_12_1_pitchsim_rules_explains_the_called_partner():
    code, out, _ = cli("rules", "--rules", TEN5)
    assert code == 0
    assert "- Players: 5-6, each for himself, but with a called partner" in out
    assert "the pitcher calls one trump" in out and "must play it to the first trick" in out
    assert "plays alone against all the others" in out
    assert "* partner          = called" in out
    code, out, _ = cli("rules", "--rules", "smear,partner=announced", "--json")
    doc = json.loads(out)
    assert doc["rules"]["partner"] == "announced" and "partner" in doc["changed"]
    assert "says so at once" in doc["meaning"]["partner"]


# ---- the odds bidders under a called partner, and with a kitty as well ---------------
# (bid-odds, simulate, play, tournament, hint VIEW.json and its short form, the engine
# and practice play it: tests/test_partner_commands.py, test_partner_search.py,
# test_partner_table.py, test_partner_hint.py, test_partner_engine.py)

HAND = "AH KH QH 2H 3C 4D"


@pytest.mark.parametrize(
    "argv",
    [
        # the odds bidder, advise's and practice's default, reads the partner's own rows
        ("advise", "--players", "5", "--seat", "1", "--dealer", "0", HAND),
        ("practice", "--players", "5", "--seed", "1"),
        ("play", "--players", "5", "--seed", "1", "--bidding", "odds"),
        # (hint's short form takes the call, --called: tests/test_partner_hint.py)
    ],
)  # fmt: skip
def test_12_1_the_odds_bidders_play_a_called_partner_with_or_without_a_kitty(
    argv, tmp_path, monkeypatch
):
    """The odds tables have rows for a called partner (the pitcher's side is two seats,
    12.1.6) at 5 and 6 players, shipped; with a kitty as well (12.2) rows are made for
    it on first use, and the command plays there too."""
    monkeypatch.chdir(tmp_path)
    for rules in (NAMED5, NAMED5 + ",kitty=3"):
        code, out, err = cli(argv[0], "--rules", rules, *argv[1:], stdin="q\n")
        assert code == 0 and "partner" in out, (rules, err)


@pytest.mark.parametrize("spec", ["auction-pitch,partner=called", "ten-point,partner=called"])
def test_6_3_7_every_command_names_the_rule_in_one_line(spec, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for argv in (("bid-odds", "--players", "5", HAND), ("play", "--players", "5")):
        assert "(VARIANTS.md 6.3.7)" in refused(*argv, "--rules", spec)


def test_12_1_a_view_under_a_called_partner_reads():
    """The view carries a called partner (tests/test_partner_view.py); in the auction
    nothing is called yet."""
    doc = {
        "rules": NAMED5, "players": 5, "seat": 1, "dealer": 0,
        "hand": ["AH", "KH", "2H", "9C", "7D", "3S"], "calls": [],
    }  # fmt: skip
    out = View.from_json(doc).to_json()
    assert (out["called"], out["partner"], out["pitcher_side"]) == (None, None, None)


def test_12_1_the_engine_calls_under_a_called_partner_with_or_without_a_kitty():
    """The engine decides in the auction under a called partner by every bidding policy
    the kernels play there: ``heuristic`` and ``odds``, its default, which reads the
    partner's own rows (the pitcher's side is two seats, 12.1.6), shipped, or with a
    kitty as well made on first use."""
    doc = {
        "rules": "smear,partner=announced", "players": 5, "seat": 1, "dealer": 0,
        "hand": ["AH", "KH", "2H", "9C", "7D", "3S"], "calls": [],
    }  # fmt: skip
    engine = Engine()
    msg = {"type": "decide", "id": 6, "view": doc, "options": {"strategy": "heuristic+rollout"}}
    reply = json.loads(engine.handle(json.dumps(msg)))
    assert (reply["type"], reply["id"]) == ("action", 6)
    assert reply["action"] in View.from_json(doc).legal()
    reply = json.loads(engine.handle(json.dumps({"type": "decide", "id": 7, "view": doc})))
    assert (reply["type"], reply["id"]) == ("action", 7)
    assert reply["action"] in View.from_json(doc).legal()
    doc["rules"] = "smear,partner=announced,kitty=3"
    reply = json.loads(engine.handle(json.dumps({"type": "decide", "id": 8, "view": doc})))
    assert (reply["type"], reply["id"]) == ("action", 8), reply
    assert reply["action"] in View.from_json(doc).legal()
