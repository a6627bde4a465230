"""Intervals recomputed by hand from the trials themselves: the compare run's paired
interval (``util.stats.paired_difference`` as ``bid-odds --compare-policy`` calls it) and
the tournament's interval of a win share (``table.tournament.board_interval``).

Every example is lopsided, so an interval whose arguments are swapped (b - a for
a - b, wins for trials) or whose boundary (30 boards) is off by one gives other numbers.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from pitchsim.advice.odds import _paired
from pitchsim.table.tournament import board_interval
from pitchsim.util.stats import Z95, paired_difference, wilson

Z = 1.959963984540054  # the 97.5% point of the normal distribution


def mean_interval(xs):
    """Mean of ``xs`` +/- Z sample standard errors (divisor n - 1), plain Python."""
    n = len(xs)
    m = sum(xs) / n
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1))
    return m, m - Z * sd / math.sqrt(n), m + Z * sd / math.sqrt(n)


def paired_by_hand(xs):
    """The paired difference's normal interval over per-trial differences in {-1, 0, 1}:
    the variance with divisor n, as a binomial proportion's is."""
    n = len(xs)
    m = sum(xs) / n
    var = sum((x - m) ** 2 for x in xs) / n
    half = Z * math.sqrt(var / n)
    return m, m - half, m + half


def wilson_by_hand(k, n):
    p = k / n
    centre = (p + Z * Z / (2 * n)) / (1 + Z * Z / n)
    half = Z * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n)) / (1 + Z * Z / n)
    return (0.0 if k <= 0 else max(0.0, centre - half), 1.0 if k >= n else min(1.0, centre + half))


def test_z_is_the_normal_quantile():
    assert Z95 == Z
    assert math.erf(Z / math.sqrt(2)) == pytest.approx(0.95, abs=1e-12)


def test_paired_difference_from_the_trials():
    # 20 deals: made under b alone on 7, under a alone on 2, the same on the other 11.
    xs = [1] * 7 + [-1] * 2 + [0] * 11
    d, lo, hi = paired_difference(7, 2, 20)
    assert d == pytest.approx(0.25)
    assert (d, lo, hi) == pytest.approx(paired_by_hand(xs), abs=1e-12)
    # By hand: E[x^2] = 9/20, variance 0.45 - 0.0625 = 0.3875, half 1.96 sqrt(0.3875/20).
    assert hi - d == pytest.approx(Z * math.sqrt(0.3875 / 20), abs=1e-12)
    # The order is b - a: swapping the counts mirrors the interval.
    d2, lo2, hi2 = paired_difference(2, 7, 20)
    assert (d2, lo2, hi2) == pytest.approx((-d, -hi, -lo), abs=1e-12)
    assert hi2 < hi and lo2 < lo


def test_paired_difference_when_every_trial_disagrees_one_way():
    # b alone on all 5: no spread at all, a zero-width interval at 1.
    assert paired_difference(5, 0, 5) == pytest.approx((1.0, 1.0, 1.0))
    # b alone on 1 of 4: x = (1, 0, 0, 0).
    assert paired_difference(1, 0, 4) == pytest.approx(paired_by_hand([1, 0, 0, 0]))
    # Agreeing on every trial (from the deleted tests/test_replay.py): nothing at all.
    assert paired_difference(0, 0, 50) == (0.0, 0.0, 0.0)


def test_the_compare_runs_paired_make_counts_and_interval():
    """``bid-odds --compare-policy``: points per deal under the run's policy (base) and
    the compare policy, on the same deals; the difference is compare - base."""
    base = np.array([0, 1, 2, 3, 4, 2, 1, 0, 3, 2, 2, 1])
    compare = np.array([1, 1, 3, 3, 2, 2, 2, 1, 4, 1, 3, 2])
    for bid in (1, 2, 3):
        m = _paired(bid, base, compare)
        made_a = [int(p >= bid) for p in base]
        made_b = [int(p >= bid) for p in compare]
        xs = [b - a for a, b in zip(made_a, made_b, strict=True)]
        assert (m.bid, m.samples) == (bid, 12)
        assert (m.base_made, m.compare_made) == (sum(made_a), sum(made_b))
        assert m.only_base == sum(a and not b for a, b in zip(made_a, made_b, strict=True))
        assert m.only_compare == sum(b and not a for a, b in zip(made_a, made_b, strict=True))
        assert m.base == pytest.approx(sum(made_a) / 12)
        assert m.compare == pytest.approx(sum(made_b) / 12)
        d, lo, hi = paired_by_hand(xs)
        assert m.difference == pytest.approx(d, abs=1e-12)
        assert m.difference_ci95() == pytest.approx((lo, hi), abs=1e-12)
    # By hand at bid 2: made under compare alone on deals 6 and 11, under base alone on 9.
    m = _paired(2, base, compare)
    assert (m.only_compare, m.only_base) == (2, 1)
    assert m.difference == pytest.approx(1 / 12)


def test_board_interval_at_thirty_boards_is_the_normal_one():
    # 30 boards (the first count given the normal approximation): 12 won, 9 split, 9 lost.
    shares = [1.0] * 12 + [0.5] * 9 + [0.0] * 9
    m, lo, hi = mean_interval(shares)
    assert board_interval(np.array(shares)) == pytest.approx((lo, hi), abs=1e-12)
    assert m == pytest.approx(0.55)


def test_board_interval_under_thirty_boards_is_wilson_of_the_wins():
    # 29 boards: 12 won, 9 split, 8 lost: 16.5 wins' worth of 29.
    shares = [1.0] * 12 + [0.5] * 9 + [0.0] * 8
    assert board_interval(np.array(shares)) == pytest.approx(wilson_by_hand(16.5, 29), abs=1e-12)
    # Not the normal interval (which would be wider here) and not Wilson of 29 in 16.5.
    assert board_interval(np.array(shares)) != pytest.approx(mean_interval(shares)[1:], abs=1e-6)


def test_board_interval_with_no_spread_is_wilson():
    # 40 boards all split: the sample deviation is 0, so the normal interval has width 0.
    lo, hi = board_interval(np.full(40, 0.5))
    assert (lo, hi) == pytest.approx(wilson_by_hand(20, 40), abs=1e-12)
    assert lo < 0.5 < hi
    assert board_interval(np.ones(35)) == pytest.approx((wilson_by_hand(35, 35)[0], 1.0))


def test_board_interval_is_clipped_to_zero_and_one():
    shares = [1.0] * 38 + [0.0] * 2
    m, lo, hi = mean_interval(shares)
    assert hi > 1
    assert board_interval(np.array(shares)) == pytest.approx((lo, 1.0), abs=1e-12)


def test_wilson_by_hand_agrees():
    for k, n in ((0, 7), (3, 10), (16.5, 29), (81, 263), (9, 9)):
        assert tuple(float(x) for x in wilson(k, n)) == pytest.approx(wilson_by_hand(k, n))


def test_wilson_edges_are_exact():
    # No success: exactly 0 below; every trial a success: exactly 1 above; one in
    # between: strictly inside (0, 1).
    assert float(wilson(0, 10)[0]) == 0.0 and float(wilson(10, 10)[1]) == 1.0
    assert 0.0 < float(wilson(1, 10)[0]) and float(wilson(9, 10)[1]) < 1.0
    assert tuple(float(x) for x in wilson(1, 10)) == pytest.approx(wilson_by_hand(1, 10))
    assert tuple(float(x) for x in wilson(9, 10)) == pytest.approx(wilson_by_hand(9, 10))


def test_wilson_of_no_trials_is_everything_and_quiet():
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no division warning leaks to the user
        lo, hi = wilson(0, 0)
        los, his = wilson(np.array([0, 2]), np.array([0, 4]))
    assert (float(lo), float(hi)) == (0.0, 1.0)
    assert (float(los[0]), float(his[0])) == (0.0, 1.0)
    assert (float(los[1]), float(his[1])) == pytest.approx(wilson_by_hand(2, 4))


def test_wilson_gives_scalars_for_scalars_and_arrays_for_arrays():
    lo, hi = wilson(3, 10)
    assert not isinstance(lo, np.ndarray) and not isinstance(hi, np.ndarray)
    los, his = wilson(np.array([3, 0]), np.array([10, 7]))
    assert los.shape == his.shape == (2,)
    assert (float(los[0]), float(his[0])) == pytest.approx(wilson_by_hand(3, 10))
    assert (float(los[1]), float(his[1])) == pytest.approx(wilson_by_hand(0, 7))


def test_samples_for_half_width_by_hand():
    from pitchsim.util.stats import samples_for_half_width

    # n = z^2 p (1 - p) / h^2 at p = 1/2, rounded up: the survey classics.
    assert samples_for_half_width(0.01) == math.ceil(Z * Z / 4 / 0.01**2) == 9604
    assert samples_for_half_width(0.05) == 385
    assert samples_for_half_width(0.1, z=1.0) == 25
