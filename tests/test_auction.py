"""The auction: kernel against reference, RULES.md's auction edge cases and variants,
and the bidding policies.

Hand-built auctions use the ``heuristic`` bidder, whose count is deterministic: junk
hands pass, a deuce-and-nothing hand is worth 1, an ace with the deuce 2, A-J-2 3, and
six top trumps 4.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from pitchsim.game.cards import mask_of, parse_cards, suit_of
from pitchsim.game.reference import PASS, BidView, legal_calls
from pitchsim.game.reference import run_auction as reference_auction
from pitchsim.game.rules import Rules
from pitchsim.games.base_kernels import KernelDecisions, seat_arrays
from pitchsim.games.bidding import Strategy, StrategyError, parse_strategies
from pitchsim.kernels.auction import NOT_CALLED, legal_range, run_auction
from pitchsim.kernels.bidding.heuristic import best_count

BASE = Rules()
AUCTION_VARIANTS = [
    BASE,
    Rules(min_bid=2),
    Rules(all_pass="redeal"),
    Rules(dealer_steal=False),
    Rules(min_bid=2, all_pass="redeal", dealer_steal=False),
    Rules(partnership=True),
]

# Heuristic worth at 4 players (asserted below): these build the auctions.
JUNK = ["5C 7D 9H 3S 6C 8D", "4C 6D 8H 5S 7C 9D", "3D 5H 7S 9C 4H 6S"]
WORTH = {
    1: "2C 5D 7H 9S 3C 4D",
    2: "AH 2H 3C 5D 7S 8C",
    3: "AS JS 2S 3C 5D 7H",
    4: "AD KD QD JD TD 2D",
}


def mask(text: str) -> int:
    return mask_of(parse_cards(text))


def heuristic_worth(text: str, n: int = 4) -> int:
    count, _ = best_count(np.int64(mask(text)), n)
    return min(3, int(count + 0.2)) if count < 3.5 else 4


def kernel_auction(hands: list[str], dealer: int, rules: Rules, strategy="heuristic", key=1):
    n = len(hands)
    a = seat_arrays(parse_strategies(strategy) * n, rules)
    dealt = np.array([mask(h) for h in hands], dtype=np.int64)
    calls = np.empty(n, dtype=np.int64)
    pitcher, bid, trump = run_auction(
        dealt,
        n,
        dealer,
        np.zeros(n, dtype=np.int64),
        a.bidding,
        rules.to_array(),
        a.odds,
        a.params,
        np.uint64(key),
        calls,
    )
    return int(pitcher), int(bid), int(trump), [int(c) for c in calls]


def test_hand_built_worths():
    assert [heuristic_worth(h) for h in JUNK] == [0, 0, 0]
    assert {k: heuristic_worth(h) for k, h in WORTH.items()} == {1: 1, 2: 2, 3: 3, 4: 4}


def test_legal_calls_match_the_reference_in_every_state():
    """The kernel's (lowest, may pass) is the reference's list, for every call sequence."""
    for rules in AUCTION_VARIANTS:
        ra = rules.to_array()
        for length in range(0, 4):
            for prefix in itertools.product(range(5), repeat=length):
                if any(b and b <= max(prefix[:i], default=0) for i, b in enumerate(prefix)):
                    continue  # not a legal history (every bid rises)
                if 4 in prefix[:-1]:
                    continue
                high = max(prefix, default=0)
                for dealer in (False, True):
                    expected = legal_calls(list(prefix), dealer, rules)
                    if high == 4:
                        assert expected == []  # the kernel stops asking after a 4
                        continue
                    lowest, can_pass = legal_range(high, dealer, ra)
                    got = ([PASS] if can_pass else []) + list(range(lowest, 5))
                    assert got == expected, (rules, prefix, dealer)


# ---------------------------------------------------------------- RULES.md edge cases 1-4


def test_edge_01_all_pass_the_stuck_dealer_bids_2():
    # Dealer 3; seats 0-2 pass; the dealer (junk too) may not pass or bid 1.
    hands = [JUNK[0], JUNK[1], JUNK[2], WORTH[1]]
    assert legal_calls([PASS] * 3, True, BASE) == [2, 3, 4]
    assert legal_range(0, True, BASE.to_array()) == (2, False)
    assert kernel_auction(hands, 3, BASE) == (3, 2, 0, [0, 0, 0, 2])


def test_edge_02_the_dealer_steals_a_1():
    # Dealer 0; seat 1 bids 1, seats 2 and 3 pass, the dealer steals at 1.
    hands = [WORTH[1], WORTH[1], JUNK[0], JUNK[1]]
    pitcher, bid, _, calls = kernel_auction(hands, 0, BASE)
    assert (pitcher, bid, calls) == (0, 1, [1, 0, 0, 1])
    # No steal: the dealer must outbid, and a worth-1 hand passes.
    pitcher, bid, _, calls = kernel_auction(hands, 0, Rules(dealer_steal=False))
    assert (pitcher, bid, calls) == (1, 1, [1, 0, 0, 0])


def test_edge_03_a_non_dealer_may_not_equal_the_high_bid():
    # Seat 1 bids 2; seat 2 (worth 2) may not bid 2 and passes; seat 3 (worth 3) bids 3.
    hands = [JUNK[0], WORTH[2], WORTH[2], WORTH[3]]
    assert legal_range(2, False, BASE.to_array()) == (3, True)
    assert kernel_auction(hands, 0, BASE) == (3, 3, 3, [2, 0, 3, 0])


def test_edge_04_a_pitched_4_ends_the_auction():
    hands = [JUNK[0], JUNK[1], WORTH[4], WORTH[3]]
    pitcher, bid, trump, calls = kernel_auction(hands, 0, BASE)
    assert (pitcher, bid, calls) == (2, 4, [0, 4, NOT_CALLED, NOT_CALLED])
    assert trump == suit_of(parse_cards("2D")[0])


def test_variant_min_bid_2_and_redeal():
    hands = [JUNK[0], WORTH[1], JUNK[1], JUNK[2]]
    # Minimum bid 2: the worth-1 hand cannot open; the stuck dealer bids 2.
    assert kernel_auction(hands, 0, Rules(min_bid=2))[:2] == (0, 2)
    # Redeal: nobody is stuck; all four pass.
    pitcher, bid, _, calls = kernel_auction(JUNK + [JUNK[1]], 0, Rules(all_pass="redeal"))
    assert (pitcher, bid, calls) == (-1, 0, [0, 0, 0, 0])


def test_heuristic_never_steals_from_its_partner():
    # Seat 2 (the dealer's partner) bids 2; the dealer is worth 2 but does not steal.
    hands = [WORTH[2], JUNK[0], WORTH[2], JUNK[1]]
    rules = Rules(partnership=True)
    assert kernel_auction(hands, 0, rules)[:2] == (2, 2)
    assert kernel_auction(hands, 0, BASE)[:2] == (0, 2)  # solo: steal


# ---------------------------------------------------------------- kernel vs reference


def asking(bridge, dealt, dealer, scores, rules):
    """The reference auction's ``call`` from the kernel bidders, via ``BidView``."""
    n = len(dealt)

    def call(seat, bids, legal):
        view = BidView(
            seat, dealt[seat], dealer, n, tuple(bids), tuple(legal), tuple(scores), rules
        )
        return bridge.bid(view)

    return call


@pytest.mark.parametrize("strategy", ["random", "heuristic", "odds", "odds-game"])
def test_kernel_auction_matches_reference(strategy):
    """Same deals and decisions -> same calls, pitcher, bid, planned trump and pitch."""
    rng = np.random.default_rng(7)
    for deal in range(300):
        rules = AUCTION_VARIANTS[deal % len(AUCTION_VARIANTS)]
        n = 4 if rules.partnership else int(rng.integers(2, 8))
        seats = parse_strategies(strategy) * n
        bridge = KernelDecisions(seed=deal, game=0, seats=seats, rules=rules)
        dealt = bridge.deal(int(rng.integers(0, 50)))
        dealer = int(rng.integers(0, n))
        scores = [int(x) for x in rng.integers(-5, 8, n)]
        if rules.partnership:
            scores[2], scores[3] = scores[0], scores[1]
        a = bridge.arrays
        calls = np.empty(n, dtype=np.int64)
        pitcher, bid, trump = run_auction(
            np.array(dealt),
            n,
            dealer,
            np.array(scores),
            a.bidding,
            rules.to_array(),
            a.odds,
            a.params,
            bridge.key,
            calls,
        )

        ref = reference_auction(dealer, n, asking(bridge, dealt, dealer, scores, rules), rules)
        expected_calls = [c if c is not None else 0 for c in ref.calls]
        asked = len([c for c in calls if c != NOT_CALLED])
        assert [int(c) for c in calls[:asked]] == expected_calls[:asked]
        assert all(c == NOT_CALLED for c in calls[asked:]) and asked == n or bid == 4
        assert (ref.pitcher if ref.pitcher is not None else -1, ref.bid) == (pitcher, bid)
        if bid == 4:
            assert ref.pitched_card >= 0 and dealt[pitcher] >> ref.pitched_card & 1
            if trump >= 0:
                assert ref.trump == trump == suit_of(ref.pitched_card)
        elif bid:
            assert ref.trump == trump
            assert trump == -1 or dealt[pitcher] >> (13 * trump) & 0x1FFF


# ---------------------------------------------------------------- bidding policies


def test_odds_bids_its_hand():
    def first_call(hand):
        return kernel_auction([JUNK[0], hand, JUNK[1], JUNK[2]], 0, BASE, "odds")[3][0]

    assert first_call(WORTH[4]) == 4
    assert first_call(WORTH[3]) >= 2
    assert first_call(JUNK[2]) == PASS


# odds-game against odds where the score decides: tests/test_option_effects.py


def test_strategy_names():
    assert Strategy.parse("odds") == Strategy("odds", "heuristic")
    assert Strategy.parse("random") == Strategy("random", "random")
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

    with pytest.raises(ValueError):
        reference_auction(0, 2, lambda s, b, legal: Bid(2, pitch=5), BASE)  # only a 4 is pitched
    with pytest.raises(ValueError):
        reference_auction(0, 2, lambda s, b, legal: (4, 99), BASE)
    with pytest.raises(ValueError):
        reference_auction(0, 2, lambda s, b, legal: Bid(2, trump=7), BASE)
    r = reference_auction(0, 2, lambda s, b, legal: Bid(4, pitch=5) if s == 1 else 0, BASE)
    assert (r.pitcher, r.bid, r.pitched_card, r.trump) == (1, 4, 5, 0)


def test_odds_table_agrees_with_bid_odds_on_an_exact_cell():
    """Six trumps and no side cards: the table's cell is that one hand (in any suit), so
    its make-probabilities must match ``bid-odds`` within sampling error."""
    from pitchsim.advice.odds import bid_odds
    from pitchsim.games.base_kernels import load_table, odds_table
    from pitchsim.kernels.bidding.odds import holding

    hand = "KH 9H 7H 5H 4H 3H"
    odds, _ = odds_table(4, Rules())
    trumps, side = holding(np.int64(mask(hand)), 2)
    table = odds[trumps, side]
    samples = int(load_table()["samples"])
    direct = bid_odds(hand, players=4, samples=3000, seed=5, trump="H").by_trump[2]
    for k in (1, 2, 3, 4):
        p = direct.p_at_least(k)
        se = np.sqrt(max(p * (1 - p), 0.01) * (1 / samples + 1 / 3000))
        assert abs(table[k - 1] - p) < 4 * se + 1 / 255, (k, table[k - 1], p)
