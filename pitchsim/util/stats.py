"""Binomial estimates with honest error bars."""

from __future__ import annotations

import math

Z95 = 1.959963984540054


def wilson(successes, trials, z: float = Z95):
    """Wilson score interval for a binomial proportion (works on arrays too).

    Unlike the normal approximation it stays inside [0, 1] and behaves at p = 0 or 1.

    >>> lo, hi = wilson(50, 100)
    >>> round(float(lo), 3), round(float(hi), 3)
    (0.404, 0.596)

    Newcombe (1998), Table I: 81 of 263 gives 0.2553-0.3662, and 0 of 20 0-0.1611.

    >>> [round(float(x), 4) for x in wilson(81, 263) + wilson(0, 20)]
    [0.2553, 0.3662, 0.0, 0.1611]
    """
    import numpy as np  # here: the CLI imports this module for its constants

    k = np.asarray(successes, dtype=float)
    n = np.asarray(trials, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = k / n
        denom = 1 + z * z / n
        centre = (p + z * z / (2 * n)) / denom
        half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    # At k = 0 (k = n) the bound is exactly 0 (1); say so rather than a rounding error.
    lo = np.where(k <= 0, 0.0, np.clip(centre - half, 0.0, 1.0))
    hi = np.where(k >= n, 1.0, np.clip(centre + half, 0.0, 1.0))
    return (lo[()], hi[()]) if lo.ndim == 0 else (lo, hi)


def samples_for_half_width(half_width: float, z: float = Z95) -> int:
    """Samples that give a 95% interval of at most +/- ``half_width`` at p = 1/2.

    >>> samples_for_half_width(0.01)  # the survey-sampling classic
    9604
    """
    return math.ceil((z / half_width) ** 2 / 4)


def paired_difference(
    only_b: int, only_a: int, n: int, z: float = Z95
) -> tuple[float, float, float]:
    """Difference of two proportions measured on the same n trials (b - a), with its
    normal-approximation interval: ``only_b`` trials succeeded under b alone, ``only_a``
    under a alone (the trials where both agree cancel, which is why pairing is precise).

    >>> d, lo, hi = paired_difference(30, 10, 1000)
    >>> round(d, 3), round(lo, 4), round(hi, 4)
    (0.02, 0.0077, 0.0323)
    """
    d = (only_b - only_a) / n
    var = max((only_b + only_a) / n - d * d, 0.0)  # E[x^2] - E[x]^2 with x in {-1, 0, 1}
    half = z * math.sqrt(var / n)
    return d, d - half, d + half


def mean_half_width(values, z: float = Z95) -> tuple[float, float]:
    """The mean of ``values`` and the half-width of its normal-approximation interval
    (z standard errors, the sample standard deviation over n - 1).

    >>> m, half = mean_half_width([1.0, 2.0, 3.0, 4.0])
    >>> round(m, 2), round(half, 4)
    (2.5, 1.2652)
    """
    import numpy as np  # here, as in wilson: the CLI imports this module for its constants

    v = np.asarray(values, dtype=float)
    return float(v.mean()), float(z * v.std(ddof=1) / math.sqrt(v.size))


FEW_SAMPLES = 10  # fewer deals than this: no interval is given or starred ("too few deals")
TOO_FEW = "too few deals"


def too_few(samples: int) -> bool:
    """Whether ``samples`` are too few for an interval worth printing: with fewer than
    :data:`FEW_SAMPLES` a standard deviation is 0, NaN or a single lucky deal, and an
    interval or a "significant" star from it would lie."""
    return samples < FEW_SAMPLES
