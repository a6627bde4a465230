"""bid-odds: certain cases, exact probabilities, intervals, reproducibility."""

import math

import numpy as np
import pytest

from pitchsim.advice.odds import BidOdds, TrumpOdds, bid_odds
from pitchsim.game.cards import mask_of, parse_hand, parse_suit
from pitchsim.game.rules import Rules
from pitchsim.table.bidding import seat_strategies
from pitchsim.table.boards import board_hand
from pitchsim.util.errors import InputError
from pitchsim.util.stats import samples_for_half_width, wilson


def test_six_top_trumps_make_every_bid():
    for policy in ("heuristic", "random"):
        r = bid_odds("AH KH QH JH TH 9H", players=7, samples=3000, seed=1, policy=policy)
        o = r.by_trump[parse_suit("H")]
        assert [o.p_at_least(k) for k in (1, 2, 3, 4)] == [1.0, 1.0, 1.0, 1.0]
        assert r.recommendation[:2] == (4, 2)
        assert r.chosen_trump == 2


@pytest.mark.parametrize("policy", ["heuristic", "random"])
def test_ace_of_trump_always_wins_high(policy):
    # The ace of trump is the highest trump in play, so it wins its own trick.
    r = bid_odds("AS 2H 3D 4C 5C 6C", players=5, samples=5000, seed=2, policy=policy, trump="S")
    assert r.by_trump[3].p_at_least(1) == 1.0


def test_jack_is_dealt_with_its_exact_probability():
    """The jack of trump is in play with probability 6(n-1)/46 when the pitcher lacks it;
    exactly then someone is credited with the Jack point."""
    hand = mask_of(parse_hand("AH KH 2H 9C 7D 3S"))
    n, deals = 5, 4000
    seats = seat_strategies("heuristic", "heuristic", n)
    credited = sum(
        board_hand(9, d, seats, Rules(), n - 1, hand, 2, 2).awards["jack"] is not None
        for d in range(deals)
    )
    p = 6 * (n - 1) / 46
    se = math.sqrt(p * (1 - p) / deals)
    assert abs(credited / deals - p) < 4 * se


def test_without_the_jack_four_needs_the_jack_dealt():
    r = bid_odds("AH KH 2H 9C 7D 3S", players=3, samples=20000, seed=5, trump="H")
    p4 = r.by_trump[2].p_at_least(4)
    p_jack_dealt = 6 * 2 / 46
    assert 0 < p4 <= p_jack_dealt


def test_same_seed_same_numbers_on_any_thread_count():
    a = bid_odds("AH KH 2H 9C 7D 3S", samples=30000, seed=77, threads=1).to_json()
    b = bid_odds("AH KH 2H 9C 7D 3S", samples=30000, seed=77, threads=2).to_json()
    assert a == b
    c = bid_odds("AH KH 2H 9C 7D 3S", samples=30000, seed=78).to_json()
    assert c["by_trump"] != a["by_trump"]


def test_default_samples_give_half_a_percent():
    r = bid_odds("AH KH 2H 9C 7D 3S", seed=3, trump="H")
    assert samples_for_half_width(0.005) <= r.samples
    lo, hi = r.by_trump[2].ci95(2)
    assert hi - lo <= 0.01


def test_expected_score_and_recommendation():
    o = TrumpOdds(suit=2, samples=10, points=np.array([1, 2, 3, 3, 1]))
    # bid 2: made with 2,3,3,3,2,2,4 -> points; set with 0,1,1 -> -2 each
    assert o.expected_score(2) == pytest.approx((2 * 3 + 3 * 3 + 4 - 2 * 3) / 10)
    assert o.expected_score(4) == pytest.approx((4 - 4 * 9) / 10)
    assert o.expected_score(3) < 0 < o.expected_score(2)
    assert o.best_bid()[0] == 2  # highest bid with positive expectation
    lo, hi = o.ci95(1)
    assert (lo, hi) == tuple(float(x) for x in wilson(9, 10))
    losing = TrumpOdds(suit=0, samples=10, points=np.array([9, 1, 0, 0, 0]))
    r = BidOdds([0] * 6, 4, 10, 1, "random", Rules(), {0: losing}, 0, {0: 1.0})
    assert r.recommendation == (0, None, 0.0)
    assert r.to_json()["recommended_bid"] == 0


def test_json_has_the_documented_keys():
    doc = bid_odds("ah,kh,2h,9c,7d,3s", samples=2000, seed=4).to_json()
    for key in (
        "hand",
        "players",
        "samples",
        "seed",
        "policy",
        "by_trump",
        "chosen_trump",
        "recommended_bid",
    ):
        assert key in doc
    assert doc["hand"] == ["AH", "KH", "2H", "9C", "7D", "3S"]
    h = doc["by_trump"]["H"]
    assert (
        set(h["p_at_least"]) == set(h["ci95"]) == set(h["expected_score"]) == {"1", "2", "3", "4"}
    )
    assert set(doc["by_trump"]) == {"H", "C", "D", "S"}


def test_partnership_counts_the_team():
    solo = bid_odds("AH 2H 9C 7D 3S 4S", samples=20000, seed=6, trump="H")
    team = bid_odds("AH 2H 9C 7D 3S 4S", samples=20000, seed=6, trump="H", partnership=True)
    assert team.by_trump[2].p_at_least(2) > solo.by_trump[2].p_at_least(2)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(hand="AH KH 2H 9C 7D"), "exactly 6"),
        (dict(hand="AH KH 2H 9C 7D 7D"), "duplicate"),
        (dict(hand="AH KH 2H 9C 7D 1X"), "cannot read card"),
        (dict(hand="AH KH 2H 9C 7D 3S", trump="S", players=8), "players"),
        (dict(hand="AH KH 2H 9C 7D 3S", players=5, partnership=True), "partnership"),
        (dict(hand="AH KH 2H 9C 7D 3S", trump="S", samples=0), "samples"),
        (dict(hand="AH KH 2H 9C 7D 4D", trump="S"), "no card of that suit"),
        (dict(hand="AH KH 2H 9C 7D 3S", policy="clever"), "unknown policy"),
    ],
)
def test_bad_input_raises_input_error(kwargs, message):
    with pytest.raises(InputError, match=message):
        bid_odds(**kwargs)


def _points_won(hand: str, trump: str, n: int, rules: Rules, policy: str, deals: int, seed: int):
    """Per deal, the awards (bit i: ``AWARD_NAMES[i]``, High 0 and Low 1) the pitcher's
    side took holding ``hand``, on the preset kernels (``simulate_fixed``)."""
    from pitchsim.game.cards import mask_of
    from pitchsim.kernels.presets import rules_array, rules_table
    from pitchsim.kernels.score import AWARD_NAMES
    from pitchsim.kernels.simulate import policy_row, simulate_fixed

    assert AWARD_NAMES[:2] == ("high", "low")
    fixed = np.int64(mask_of(parse_hand(hand)))
    out = [np.empty(deals, np.int64) for _ in range(3)]
    simulate_fixed(
        seed, 0, deals, n, fixed, parse_suit(trump), policy_row(policy, n),
        rules_array(rules), rules_table(rules), *out,
    )  # fmt: skip
    assert (out[2] == parse_suit(trump)).all()
    return out[1]


def _none_dealt(m: int, n: int) -> float:
    """P(none of m given unseen cards is among the 6(n-1) dealt from the 46 unseen)."""
    k = 6 * (n - 1)
    return math.comb(46 - m, k) / math.comb(46, k)


@pytest.mark.parametrize(
    "hand, higher, n",
    [
        ("KS 2H 3D 4C 5C 6C", 1, 4),
        ("QS 9S 3D 4C 5C 6H", 2, 3),
        ("TS 4S 3D 4C 5C 6H", 4, 6),
        ("7S 2S 3D 4C 5C 6H", 7, 7),
        ("5S 3S 3D 4C 9C 6H", 9, 2),
    ],
)
@pytest.mark.parametrize("policy", ["heuristic", "random"])
def test_high_is_won_exactly_when_no_higher_trump_was_dealt(hand, higher, n, policy):
    """The highest trump in play always wins its trick, so the pitcher's top trump is High
    exactly when none of the ``higher`` trumps above it was dealt: a hypergeometric
    probability, whatever the play (docs/rules.md 0.7); auction-pitch on the preset
    kernels (a preset with the jick or jokers has other trumps above)."""
    deals = 40_000
    high = _points_won(hand, "S", n, Rules.parse("auction-pitch"), policy, deals, seed=n) & 1
    p = _none_dealt(higher, n)
    assert abs(high.mean() - p) < 4.5 * math.sqrt(p * (1 - p) / deals)


@pytest.mark.parametrize(
    "hand, lower, n",
    [("AS 2S 3D 4C 5C 6H", 0, 5), ("KS 4S 3D 4C 5C 6H", 2, 4), ("QS 7S 3D 4C 5C 6H", 5, 3)],
)
def test_low_as_dealt_goes_to_the_lowest_trump_dealt(hand, lower, n):
    """Under low=dealt the pitcher takes Low exactly when none of the ``lower`` trumps
    below his lowest was dealt (with the deuce: always)."""
    deals = 40_000
    rules = Rules.parse("auction-pitch,low=dealt")
    low = (_points_won(hand, "S", n, rules, "heuristic", deals, seed=7) >> 1) & 1
    p = _none_dealt(lower, n)
    if lower == 0:
        assert low.all()
    else:
        assert abs(low.mean() - p) < 4.5 * math.sqrt(p * (1 - p) / deals)
