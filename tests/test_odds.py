"""bid-odds: certain cases, exact probabilities, intervals, reproducibility."""

import math

import numpy as np
import pytest

from pitchsim.cards import parse_hand, parse_suit
from pitchsim.errors import InputError
from pitchsim.odds import BidOdds, TrumpOdds, bid_odds
from pitchsim.options import Rules
from pitchsim.policies import seat_policies
from pitchsim.rounds import play_round
from pitchsim.stats import samples_for_half_width, wilson


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
    hand = parse_hand("AH KH 2H 9C 7D 3S")
    n, deals = 5, 4000
    credited = sum(
        play_round(9, d, n, seat_policies("heuristic", n), Rules(), hand=hand, trump=2).points[
            "jack"
        ]
        is not None
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
    for key in ("hand", "players", "samples", "seed", "policy", "by_trump", "chosen_trump",
                "recommended_bid"):  # fmt: skip
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
