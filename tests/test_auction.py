"""The auction of the preset kernels (kernels/bidding/calls.py, game.py): the legal
calls in every state against the reference's, docs/rules.md's auction edge cases and
variants on hand-built deals, and the bidders' own rules.

Every hand-built auction runs in the game kernel's auction (``bidding_round``, as
tests/test_hint_view.py calls it) and then again in the reference's (``run_auction``)
on the kernel's calls, which must find the kernel's legal calls, pitcher and bid; the
expected calls are worked out here from the rules.  Whole games, every bidder and
preset, against the reference: tests/test_families_games.py.

Hand-built auctions use the ``heuristic`` bidder, whose count is deterministic: junk
hands pass, a deuce-and-nothing hand is worth 1, an ace with the deuce 2, A-J-2 3, and
five top trumps with the deuce 4 (asserted below, at 4 players under auction-pitch).
"""

from __future__ import annotations

import numpy as np
import pytest

from pitchsim.game import reference as F
from pitchsim.game.cards import mask_of, parse_cards
from pitchsim.game.reference import PASS
from pitchsim.game.rules import Rules
from pitchsim.kernels.bidding.calls import BIDDING_IDS, ODDS_BIDDERS, legal_calls
from pitchsim.kernels.game import bidding_round
from pitchsim.kernels.presets import rules_array, rules_table
from pitchsim.table.bidding import Strategy, StrategyError, parse_strategies
from pitchsim.table.boards import no_odds, odds_bidder_table

NOT_CALLED = -1  # a seat the auction never reached
JUNK = ["5C 7D 9H 3S 6C 8D", "4C 6D 8H 5S 7C 9D", "3D 5H 7S 9C 4H 6S"]
WORTH = {
    1: "2C 5D 7H 9S 3C 4D",
    2: "AH 2H 3C 5D 7S 8C",
    3: "AS JS 2S 3C 5D 7H",
    4: "AD KD QD JD TD 2D",
}


def mask(text: str) -> int:
    return mask_of(parse_cards(text))


def auction(spec: str, hands: list[str], dealer: int, bidding="heuristic", scores=None):
    """(pitcher, bid, calls) of the kernel's auction on ``hands`` (-1: all passed; the
    calls in calling order from the dealer's left, ``NOT_CALLED`` after the end), after
    the reference's auction, told the kernel's calls, agreed on all of it."""
    r = Rules.parse(spec)
    n = len(hands)
    fr, tab = rules_array(r), rules_table(r)
    odds, defender = odds_bidder_table(r, n) if bidding in ODDS_BIDDERS else no_odds()
    scores = [0] * n if scores is None else scores
    calls, legal = np.empty(n, np.int64), np.empty(n, np.int64)
    pitcher, bid, _, _ = bidding_round(
        np.uint64(3), n, dealer, np.array(scores, np.int64),
        np.full(n, BIDDING_IDS[bidding], np.int64), fr, tab, odds, defender, 0, 0, 0,
        -1, -1, np.array([mask(h) for h in hands], np.int64), np.zeros(n, np.int64),
        np.zeros(n, np.int64), calls, legal,
    )  # fmt: skip
    asked = []

    def replay(seat, made, allowed):
        i = len(made)
        assert seat == (dealer + 1 + i) % n
        assert int(legal[i]) == sum(1 << c for c in allowed), (spec, made, allowed)
        asked.append(seat)
        return int(calls[i])

    ref = F.run_auction(dealer, n, replay, r, scores)
    got = [int(c) for c in calls]
    assert got[len(asked) :] == [NOT_CALLED] * (n - len(asked))  # never asked after the end
    ref_pitcher = -1 if ref.pitcher is None else ref.pitcher
    assert (int(pitcher), int(bid)) == (ref_pitcher, ref.bid)
    return int(pitcher), int(bid), got


def test_hand_built_worths():
    """Each hand first to call, the others junk: its call is its worth."""
    for k, hand in WORTH.items():
        assert auction("auction-pitch", [hand, *JUNK], 3)[2][0] == k
    for hand in JUNK:
        assert auction("auction-pitch", [hand, *JUNK], 3)[2][0] == PASS


# The base game's variants and every preset's auction options (docs/rules.md "Variants",
# 6.1; 1.4 and 6.3.4 the maximum, 2.4-2.6, 3.3, 3.4, 4.4, 4.5, 12.12 all-pass).
AUCTION_RULES = [
    "auction-pitch",
    "auction-pitch,min-bid=2",
    "auction-pitch,all-pass=redeal",
    "auction-pitch,dealer-steal=false",
    "auction-pitch,min-bid=2,all-pass=redeal,dealer-steal=false",
    "auction-pitch,partnership=true",
    "auction-pitch,shoot=true,all-pass=dealer-set",
    "auction-pitch,all-pass=dealer-free",
    "setback",
    "smear",
    "smear,shoot=true,dealer-steal=max,all-pass=next-dealer",
    "ten-point",
    "ten-point,all-pass=forced,dealer-steal=true,min-bid=4",
    "cinch",
]


@pytest.mark.parametrize("spec", AUCTION_RULES)
def test_the_legal_calls_are_the_references_in_every_state(spec):
    """The kernel's legal calls (a mask of the high call so far) are the reference's
    list, for every high call, caller (the dealer or not) and score (a seat below zero
    may not shoot, 6.1)."""
    r = Rules.parse(spec)
    fr = rules_array(r)
    for high in range(F.shoot_call(r) + 1):
        if high and high < r.min_bid:
            continue  # no such bid
        for dealer in (False, True):
            for may_shoot in (False, True):
                want = F.legal_calls([high], dealer, r, may_shoot)
                got = int(legal_calls(high, dealer, may_shoot, fr))
                assert got == sum(1 << c for c in want), (spec, high, dealer, may_shoot)


# ---------------------------------------------------------------- docs/rules.md edges 1-4


def test_edge_01_all_pass_the_stuck_dealer_bids_2():
    # Dealer 3; seats 0-2 pass; the dealer (worth 1) may not pass or bid 1: bids 2.
    assert F.legal_calls([PASS] * 3, True, Rules()) == [2, 3, 4]
    hands = [JUNK[0], JUNK[1], JUNK[2], WORTH[1]]
    assert auction("auction-pitch", hands, 3) == (3, 2, [0, 0, 0, 2])
    # min-bid=2 keeps the stuck dealer at 2 (Variants); a junk dealer bids it too
    assert auction("auction-pitch,min-bid=2", [*JUNK, JUNK[0]], 3) == (3, 2, [0, 0, 0, 2])


def test_edge_02_the_dealer_steals_a_1():
    # Dealer 0; seat 1 bids 1, seats 2 and 3 pass, the dealer (worth 1) steals at 1.
    hands = [WORTH[1], WORTH[1], JUNK[0], JUNK[1]]
    assert auction("auction-pitch", hands, 0) == (0, 1, [1, 0, 0, 1])
    # all-pass=redeal leaves the steal on
    assert auction("auction-pitch,all-pass=redeal", hands, 0) == (0, 1, [1, 0, 0, 1])
    # No steal: the dealer must outbid, and a worth-1 hand passes.
    assert auction("auction-pitch,dealer-steal=false", hands, 0) == (1, 1, [1, 0, 0, 0])


def test_edge_03_a_non_dealer_may_not_equal_the_high_bid():
    # Seat 1 bids 2; seat 2 (worth 2) may not bid 2 and passes; seat 3 (worth 3) bids 3.
    assert F.legal_calls([2], False, Rules()) == [PASS, 3, 4]
    hands = [JUNK[0], WORTH[2], WORTH[2], WORTH[3]]
    assert auction("auction-pitch", hands, 0) == (3, 3, [2, 0, 3, 0])


def test_edge_04_a_pitched_4_ends_the_auction():
    # Seat 1 passes, seat 2 bids 4: seat 3 (worth 3) and the dealer are never asked (1.4).
    hands = [JUNK[0], JUNK[1], WORTH[4], WORTH[3]]
    assert auction("auction-pitch", hands, 0) == (2, 4, [0, 4, NOT_CALLED, NOT_CALLED])
    # ... unless the dealer may still match it (dealer-steal=max, 2.4, 2.5, 6.3.4)
    spec = "auction-pitch,dealer-steal=max"
    assert auction(spec, hands, 0) == (2, 4, [0, 4, 0, 0])
    dealer_4 = "AC KC QC JC TC 2C"  # worth 4 too
    assert auction(spec, [dealer_4, JUNK[1], WORTH[4], WORTH[3]], 0) == (0, 4, [0, 4, 0, 4])


def test_variant_min_bid_2_and_redeal():
    hands = [JUNK[0], WORTH[1], JUNK[1], JUNK[2]]
    # Minimum bid 2: the worth-1 hand cannot open; the stuck dealer bids 2.
    assert auction("auction-pitch,min-bid=2", hands, 0) == (0, 2, [0, 0, 0, 2])
    assert auction("auction-pitch", hands, 0) == (1, 1, [1, 0, 0, 0])
    # Redeal: nobody is stuck; all four pass, the steal on or off.
    for spec in ("auction-pitch,all-pass=redeal", "auction-pitch,all-pass=redeal,min-bid=2"):
        assert auction(spec, [*JUNK, JUNK[1]], 0) == (-1, 0, [0, 0, 0, 0])


# Worth 0 in partnership too, where a side's Game counts double (Game shared by 2 sides).
PARTNER_JUNK = ["7C 8D 9H 6S 8C 9D", "6C 7D 8H 9S 7C 8D"]


def test_heuristic_never_steals_from_its_partner():
    # Seat 2 (the dealer's partner) bids 2; the dealer is worth 2 but does not steal
    # (a dealer may, docs/rules.md "Partnerships"; the heuristic bidder does not).
    hands = [WORTH[2], PARTNER_JUNK[0], WORTH[2], PARTNER_JUNK[1]]
    assert auction("auction-pitch,partnership=true", hands, 0) == (2, 2, [0, 2, 0, 0])
    assert auction("auction-pitch", hands, 0) == (0, 2, [0, 2, 0, 2])  # solo: steal
    # nor does it outbid its partner: seat 3's partner, seat 1, opened 2
    hands = [PARTNER_JUNK[0], WORTH[2], PARTNER_JUNK[1], WORTH[3]]
    assert auction("auction-pitch,partnership=true", hands, 0) == (1, 2, [2, 0, 0, 0])
    assert auction("auction-pitch", hands, 0) == (3, 3, [2, 0, 3, 0])


def test_odds_bids_its_hand():
    """The odds bidder, first to call: junk passes, and a stronger hand never calls
    lower (each WORTH hand holds more of the points than the one before)."""

    def first_call(hand):
        return auction("auction-pitch", [JUNK[0], hand, JUNK[1], JUNK[2]], 0, "odds")[2][0]

    assert first_call(JUNK[2]) == PASS
    calls = [first_call(WORTH[k]) for k in (1, 2, 3, 4)]
    assert calls == sorted(calls) and calls[0] >= 1 and calls[3] >= 3, calls


# odds-game against odds where the score decides: tests/test_presets_bidders.py


def test_strategy_names():
    assert Strategy.parse("odds") == Strategy("odds", "heuristic")
    assert Strategy.parse("random") == Strategy("random", "random")
    assert Strategy.parse("advisor") == Strategy("advisor", "heuristic")
    assert Strategy.parse(" Odds-Game + random ") == Strategy("odds-game", "random")
    assert [s.name for s in parse_strategies("odds,heuristic")] == [
        "odds+heuristic",
        "heuristic+heuristic",
    ]
    for bad in ("bogus", "odds+bogus", "odds+heuristic+random", "odds+", ""):
        with pytest.raises(StrategyError):
            parse_strategies(bad)


def test_reference_rejects_bad_bids():
    from pitchsim.game.reference import Bid

    base = Rules()
    with pytest.raises(ValueError):
        F.run_auction(0, 2, lambda s, b, legal: Bid(2, pitch=5), base)  # only a 4 is pitched
    with pytest.raises(ValueError):
        F.run_auction(0, 2, lambda s, b, legal: (4, 99), base)
    with pytest.raises(ValueError):
        F.run_auction(0, 2, lambda s, b, legal: Bid(2, trump=7), base)
    r = F.run_auction(0, 2, lambda s, b, legal: Bid(4, pitch=5) if s == 1 else 0, base)
    assert (r.pitcher, r.bid, r.pitched_card, r.trump) == (1, 4, 5, 0)
