"""bid-odds' result objects written out: a BidOdds built by hand from a few deals, every
number worked out here from those deals (not from the methods under test), and the
few things of bid_odds() that only show in what it writes (the partnership's one
opponent, the trump shares of a fixed trump)."""

from __future__ import annotations

import math
import statistics

import numpy as np
import pytest

from pitchsim.advice.odds import BidOdds, DefenceOdds, SuitDict, TrumpOdds, bid_odds
from pitchsim.game.cards import Suit, parse_hand
from pitchsim.game.rules import Rules
from pitchsim.util.errors import InputError

# Hearts: four deals, (pitcher's side points, the others' points).
HEARTS_DEALS = [(0, 4), (2, 2), (2, 1), (3, 1)]
# Clubs: two deals, all four points both times; no joint distribution kept.
CLUBS_POINTS = [0, 0, 0, 0, 2]
# As a defender: five deals winning 0, 0, 1, 2, 3 points.
DEFENCE = [0, 0, 1, 2, 3]


def _hearts() -> TrumpOdds:
    joint = np.zeros((5, 5), dtype=np.int64)
    for p, q in HEARTS_DEALS:
        joint[p, q] += 1
    return TrumpOdds(Suit.HEARTS, 4, joint.sum(axis=1), joint, opponents=3)


def _result(passing: bool = True) -> BidOdds:
    return BidOdds(
        hand=parse_hand("AH KH 2H 9C 7D 3S"),
        players=4,
        samples=4,
        seed=7,
        policy="heuristic",
        rules=Rules(),
        by_trump=SuitDict(
            {Suit.HEARTS: _hearts(), Suit.CLUBS: TrumpOdds(Suit.CLUBS, 2, np.array(CLUBS_POINTS))}
        ),
        chosen_trump=Suit.HEARTS,
        chosen_trump_share={Suit.HEARTS: 0.75, Suit.CLUBS: 0.25},
        passing=DefenceOdds(5, np.bincount(DEFENCE, minlength=5)) if passing else None,
    )


def _score(points: int, bid: int) -> int:
    return points if points >= bid else -bid


def _mean_se(values: list[float]) -> tuple[float, float]:
    return statistics.fmean(values), statistics.pstdev(values) / math.sqrt(len(values))


def test_expected_score_and_its_se_by_hand():
    h = _hearts()
    for bid in (1, 2, 3, 4):
        mean, se = _mean_se([_score(p, bid) for p, _ in HEARTS_DEALS])
        assert h.expected_score(bid) == pytest.approx(mean)
        assert h.expected_score_se(bid) == pytest.approx(se)
    # bid 2: scores -2, 2, 2, 3
    assert h.expected_score(2) == pytest.approx(1.25)
    assert h.expected_score_se(2) == pytest.approx(math.sqrt(3.6875 / 4))


def test_margin_takes_an_opponents_share():
    h = _hearts()
    mean, se = _mean_se([_score(p, 2) - q / 3 for p, q in HEARTS_DEALS])
    assert h.expected_margin(2) == pytest.approx(mean)
    assert h.expected_margin_se(2) == pytest.approx(se)


def test_reprs_whole():
    assert repr(_hearts()) == (
        "TrumpOdds(trump=Suit.HEARTS, samples=4, "
        "p_at_least={1: 0.750, 2: 0.750, 3: 0.250, 4: 0.000})"
    )
    # Clubs: bid 4 always made (+4.00) beats hearts' best (bid 2, +1.25).
    assert repr(_result()) == (
        "BidOdds(hand='AH KH 2H 9C 7D 3S', players=4, samples=4, seed=7, "
        "policy='heuristic', trumps='HC', "
        "recommendation='worth bidding up to 4 with clubs as trump (+4.00)')"
    )


def test_json_writes_passing_and_the_recommendation():
    doc = _result().to_json()
    mean, se = _mean_se(DEFENCE)
    assert doc["passing"] == {
        "samples": 5,
        "expected_points": pytest.approx(mean),
        "expected_points_se": pytest.approx(se),
        "points_distribution": {"0": 2, "1": 1, "2": 1, "3": 1, "4": 0},
    }
    assert mean == pytest.approx(1.2)
    assert doc["recommended_bid"] == 4
    assert doc["recommended_trump"] == "C"
    assert doc["recommended_expected_score"] == pytest.approx(4.0)
    assert doc["chosen_trump"] == "H" and doc["chosen_trump_share"] == {"H": 0.75, "C": 0.25}
    assert doc["hand"] == ["AH", "KH", "2H", "9C", "7D", "3S"]
    h = doc["by_trump"]["H"]
    assert h["expected_score_se"]["2"] == pytest.approx(math.sqrt(3.6875 / 4))
    assert doc["by_trump"]["C"]["expected_margin"] is None
    assert _result(passing=False).to_json()["passing"] is None


def test_frame_without_a_joint_has_no_margins():
    df = _result().to_frame().set_index(["trump", "bid"])
    assert df.loc[("H", 2), "expected_score"] == pytest.approx(1.25)
    assert df.loc[("H", 2), "expected_margin"] == pytest.approx(
        _mean_se([_score(p, 2) - q / 3 for p, q in HEARTS_DEALS])[0]
    )
    assert np.isnan(df.loc[("C", 3), "expected_margin"])
    assert np.isnan(df.loc[("C", 3), "expected_margin_se"])
    assert df.loc[("C", 3), "expected_score"] == 4.0


def test_suit_dict_keys():
    d = _result().by_trump
    assert d["H"] is d[Suit.HEARTS] and d["clubs"] is d[Suit.CLUBS]
    assert "H" in d and 0 in d and "♣" in d
    assert "S" not in d and 3 not in d and "X" not in d  # missing, and not a suit at all
    with pytest.raises(KeyError):
        d["S"]


def test_a_partnership_has_one_opponent_team():
    """Margins divide the others' points by 1 in a partnership, by n - 1 alone:
    recounted from the joint distribution bid_odds kept."""
    for partnership, opponents in ((True, 1), (False, 3)):
        r = bid_odds("AS JS 4S KD 9C 3H", samples=200, seed=1, trump="S", partnership=partnership)
        o = r.by_trump["S"]
        assert o.opponents == opponents
        deals = [(p, q) for p in range(5) for q in range(5) for _ in range(int(o.joint[p, q]))]
        assert len(deals) == 200
        mean, se = _mean_se([_score(p, 2) - q / opponents for p, q in deals])
        assert o.expected_margin(2) == pytest.approx(mean)
        assert o.expected_margin_se(2) == pytest.approx(se)


def test_a_fixed_trump_has_the_whole_share():
    r = bid_odds("AH KH 2H 9C 7D 3S", samples=100, seed=1, trump="H")
    assert dict(r.chosen_trump_share) == {Suit.HEARTS: 1.0}
    assert r.to_json()["chosen_trump_share"] == {"H": 1.0}


def test_progress_is_told_each_chunk():
    seen = []
    r = bid_odds(
        "AH KH 2H 9C 7D 3S", samples=100, seed=1, trump="H", progress=lambda *a: seen.append(a)
    )
    # one chunk per run: the trump's deals, then the defender's (no trump choice)
    assert seen == [(100, r.deals_played), (100, r.deals_played)] and r.deals_played == 200


def test_compare_samples_named_in_their_refusal():
    with pytest.raises(InputError, match="^compare samples"):
        bid_odds("AH KH 2H 9C 7D 3S", samples=100, compare_policy="heuristic", compare_samples=0)


def test_compare_json_whole_under_a_heuristic_compare():
    """The same policy again: both chances are P(make k) on the first 20 deals, which a
    run of 20 deals with the same seed counts on its own (deal i is stream (seed, i))."""
    r = bid_odds(
        "AH KH 2H 9C 7D 3S",
        samples=100,
        seed=3,
        trump="H",
        compare_policy="heuristic",
        compare_samples=20,
    )
    first = bid_odds("AH KH 2H 9C 7D 3S", samples=20, seed=3, trump="H").by_trump["H"]
    doc = r.to_json()["compare"]
    assert r.compare.searches is False
    assert doc["aim"] == "none: heuristic and random play ignore the bid"
    assert doc["policy"] == "heuristic" and doc["samples"] == 20 and doc["seats"] == "every seat"
    for k in (1, 2, 3, 4):
        p = first.p_at_least(k)
        level = doc["by_trump"]["H"][str(k)]
        ci = level.pop("difference_ci95")
        assert level == {"base": p, "compare": p, "difference": 0.0}
        assert ci is None or ci[0] <= 0.0 <= ci[1]
