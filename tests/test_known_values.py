"""Known values, not self-consistency: intervals against published tables, expected
scores and standard errors worked out by hand, and make-probabilities of a hand whose
answer follows from counting cards alone."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from pitchsim.advice.odds import BidOdds, TrumpOdds, bid_odds
from pitchsim.game.rules import Rules
from pitchsim.study.analysis import summarize
from pitchsim.table.tournament import board_interval
from pitchsim.util.stats import Z95, samples_for_half_width, wilson

# Newcombe (1998), "Two-sided confidence intervals for the single proportion",
# Statistics in Medicine 17:857-872, Table I, method 3 (Wilson score, no continuity
# correction), plus the textbook 50/100 -> 0.404-0.596.
PUBLISHED_WILSON = [
    (81, 263, 0.2553, 0.3662),
    (15, 148, 0.0624, 0.1605),
    (0, 20, 0.0000, 0.1611),
    (1, 29, 0.0061, 0.1718),
    (29, 29, 0.8830, 1.0000),
    (50, 100, 0.4038, 0.5962),
]


@pytest.mark.parametrize("k, n, lo, hi", PUBLISHED_WILSON)
def test_wilson_matches_published_values(k, n, lo, hi):
    got = wilson(k, n)
    assert (round(float(got[0]), 4), round(float(got[1]), 4)) == (lo, hi)


def test_wilson_on_arrays_is_the_same_as_one_at_a_time():
    k = np.array([r[0] for r in PUBLISHED_WILSON])
    n = np.array([r[1] for r in PUBLISHED_WILSON])
    lo, hi = wilson(k, n)
    np.testing.assert_allclose(lo, [r[2] for r in PUBLISHED_WILSON], atol=5e-5)
    np.testing.assert_allclose(hi, [r[3] for r in PUBLISHED_WILSON], atol=5e-5)


def test_z95_and_the_sample_size_rule():
    assert Z95 == pytest.approx(1.959964, abs=1e-6)  # the 97.5% normal quantile
    # The classic survey numbers: +/-1% at 95% takes 9,604 samples, +/-0.5% 38,415.
    assert samples_for_half_width(0.01) == 9604
    assert samples_for_half_width(0.005) == 38415


# ---- expected score and its standard error, by hand --------------------------------------

# 10 deals in which the pitcher's side won 0, 1, 2, 3, 4 points 1, 2, 3, 3, 1 times.
# Bid 2: scores -2 (x3: 0 or 1 point), 2 (x3), 3 (x3), 4 (x1): sum 13, mean 1.3;
# squares 12 + 12 + 27 + 16 = 67, E[x^2] = 6.7, variance 6.7 - 1.69 = 5.01,
# standard error sqrt(5.01 / 10).  Bid 1: (-1 + 2 + 6 + 9 + 4) / 10.  Bid 3: (-18 + 9 + 4) / 10.
# Bid 4: (-36 + 4) / 10.
POINTS = [1, 2, 3, 3, 1]
BY_HAND = {1: 2.0, 2: 1.3, 3: -0.5, 4: -3.2}
SE_BY_HAND = {
    1: math.sqrt((5.8 - 2.0**2) / 10),  # scores -1, 1, 1, 2, 2, 2, 3, 3, 3, 4
    2: math.sqrt(5.01 / 10),
    3: math.sqrt((9 * 6 + 9 * 3 + 16 - 0.25 * 10) / 10 / 10),
    4: math.sqrt((16 - 3.2**2) / 10),
}


def test_expected_score_and_its_error_by_hand():
    o = TrumpOdds(suit=2, samples=10, points=np.array(POINTS))
    for k in (1, 2, 3, 4):
        assert o.expected_score(k) == pytest.approx(BY_HAND[k], abs=1e-12)
        assert o.expected_score_se(k) == pytest.approx(SE_BY_HAND[k], abs=1e-12)
    assert o.best_bid() == (2, pytest.approx(1.3))
    assert [o.p_at_least(k) for k in (1, 2, 3, 4)] == [0.9, 0.7, 0.4, 0.1]
    # Wilson 9/10: 0.5958-0.9821 (score interval, z = 1.96).
    assert tuple(round(x, 4) for x in o.ci95(1)) == (0.5958, 0.9821)


def test_recommendation_picks_the_highest_positive_bid_over_suits():
    strong = TrumpOdds(2, 10, np.array(POINTS))  # best bid 2 at +1.3
    weak = TrumpOdds(0, 10, np.array([0, 1, 8, 1, 0]))  # bid 2: (-2 + 16 + 3) / 10 = +1.7
    for by_trump in ({0: weak, 2: strong}, {2: strong, 0: weak}):  # in either order
        r = BidOdds([0] * 6, 4, 10, 1, "heuristic", Rules(), by_trump, 2)
        assert r.recommendation == (2, 0, pytest.approx(1.7))  # tie on the bid: larger score
    doc = r.to_json()
    assert doc["recommended_bid"] == 2 and doc["recommended_trump"] == "C"
    assert doc["by_trump"]["H"]["expected_score_se"]["2"] == pytest.approx(SE_BY_HAND[2])
    assert doc["by_trump"]["H"]["ci95"]["4"] == pytest.approx(list(wilson(1, 10)))


def test_summarize_gives_the_hand_computed_numbers():
    scale = [1, 4, 100]  # 10, 40 and 1000 deals of the same shape
    counts = pd.DataFrame(
        {
            "players": [4] * 3,
            "deals": [10 * m for m in scale],
            **{f"pts{p}": [c * m for m in scale] for p, c in enumerate(POINTS)},
        }
    )
    t = summarize(counts)
    for k in (1, 2, 3, 4):
        assert t[f"score{k}"].tolist() == pytest.approx([BY_HAND[k]] * 3)
        assert t[f"score{k}_se"].tolist() == pytest.approx(
            [SE_BY_HAND[k] / math.sqrt(m) for m in scale], rel=1e-9
        )
    assert t["p1"].tolist() == [0.9] * 3 and t["p4"].tolist() == [0.1] * 3
    assert (round(t["p1_lo"][0], 4), round(t["p1_hi"][0], 4)) == (0.5958, 0.9821)
    assert t["bid"].tolist() == [2, 2, 2]
    # 'Sure' needs every expected score 1.96 errors from zero.  At 10 deals bid 2's +1.3
    # is 1.84 errors out; at 40 deals bid 3's -0.5 is only 1.03 (0.5 / (0.972 / 2)); at
    # 1000 deals every score is many errors from zero.
    assert t["bid_sure"].tolist() == [False, False, True]


def test_board_interval_by_hand():
    # 40 boards: 10 won twice (share 1), 20 split (1/2), 10 lost (0).  Mean 1/2; sample
    # variance 20 x 0.25 / 39; half width 1.959964 x sqrt(5 / 39) / sqrt(40) = 0.110961.
    shares = np.array([1.0] * 10 + [0.5] * 20 + [0.0] * 10)
    lo, hi = board_interval(shares)
    assert (round(lo, 6), round(hi, 6)) == (0.389039, 0.610961)
    # Under 30 boards it is the Wilson interval of the wins: 10 boards, share 0.3 -> 3/10.
    lo, hi = board_interval(np.array([1.0] * 3 + [0.0] * 7))
    assert (round(lo, 4), round(hi, 4)) == (0.1078, 0.6032)  # Wilson 3/10


# ---- make-probabilities that counting cards decides -------------------------------------


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("policy", ["heuristic", "random"])
def test_make_probabilities_of_a_hand_with_an_exact_answer(players, policy):
    """A-K-Q-J-10-3 of spades under low=dealt, at 2 or 3 players, whatever the play:

    - High: the ace.  Jack: only the A, K, Q beat the jack, and they are the pitcher's.
    - Game: every trick but the one the 3 is led to goes to the pitcher (his other
      trumps are the five highest); that one trick holds the 3, a low spade (the only
      cards that beat the 3) and at 3 players one more card, at most a ten: at most 10
      game points against the pitcher's own 20.
    - Low goes to whoever was dealt the lowest trump: the deuce if an opponent got it
      (probability 6(n-1)/46), else the pitcher's 3.

    So every bid of 1-3 is made for sure and 4 exactly when the deuce stayed undealt.
    """
    samples = 20_000
    r = bid_odds(
        "AS KS QS JS TS 3S",
        players=players,
        samples=samples,
        seed=5,
        trump="S",
        rules=Rules(low="dealt"),
        policy=policy,
    )
    o = r.by_trump[3]
    p = 1 - 6 * (players - 1) / 46
    assert [o.p_at_least(k) for k in (1, 2, 3)] == [1.0, 1.0, 1.0]
    se = math.sqrt(p * (1 - p) / samples)
    assert abs(o.p_at_least(4) - p) < 4 * se
    lo, hi = o.ci95(4)
    assert lo < p < hi or abs(o.p_at_least(4) - p) > 2.5 * se  # 1 in 20 falls outside
    # Expected scores: bid 1-3 wins 4 points or (Low lost) 3; bid 4 wins 4 or loses 4.
    assert o.points[:3].sum() == 0
    assert o.expected_score(3) == pytest.approx(3 + o.p_at_least(4))
    assert abs(o.expected_score(3) - (3 + p)) < 4 * se
    assert abs(o.expected_score(4) - (8 * p - 4)) < 4 * 8 * se
    assert o.expected_score_se(4) == pytest.approx(
        8 * math.sqrt(o.p_at_least(4) * (1 - o.p_at_least(4)) / samples)
    )
    assert r.recommendation[:2] == (4, 3)


def test_an_expected_score_of_exactly_zero_is_not_a_reason_to_bid():
    """'The highest bid with a positive expected score': bid 1 made once (1 point) and
    set once (-1) scores 0 on average, which is no reason to bid, in bid-odds and in the
    tables alike."""
    even = TrumpOdds(0, 2, np.array([1, 1, 0, 0, 0]))
    assert even.expected_score(1) == 0.0 and even.best_bid() == (0, 0.0)
    r = BidOdds([0] * 6, 4, 2, 1, "heuristic", Rules(), {0: even}, 0)
    assert r.recommendation == (0, None, 0.0)
    counts = pd.DataFrame(
        {
            "players": [4],
            "deals": [2],
            "pts0": [1],
            "pts1": [1],
            "pts2": [0],
            "pts3": [0],
            "pts4": [0],
        }
    )
    t = summarize(counts)
    assert t["score1"][0] == 0.0 and t["bid"][0] == 0
