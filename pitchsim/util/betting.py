"""Is one option ahead of every other?  A sequential test by betting, valid at any stop.

Options (a player's legal cards) are valued on the same worlds, one world after another.
For every ordered pair (i, j) a gambler bets, world by world, that i is ahead of j:
against the null "the mean of i's outcome minus j's is at most 0".  Each world he stakes
a fraction ``lam`` of his wealth on the scaled difference ``x`` (in [-1, 1]), so the
wealth is ``prod(1 + lam * x)``; ``lam`` is chosen from the earlier worlds only, between 0
and ``MAX_STAKE`` (the aGRAPA rule of Waudby-Smith and Ramdas, "Estimating means of
bounded random variables by betting", JRSS B 2023: the growth-optimal stake for the mean
and variance seen so far).  Under the null the expected factor of every world is at most 1,
so the wealth is a nonnegative supermartingale, and by Ville's inequality it *ever*
reaches ``1 / a`` with chance at most ``a`` -- however often one looks, and whatever rule
decides when to stop.  No normal approximation and no assumption but outcomes bounded by
``scale`` and worlds drawn independently.

Why betting and not a z-test with a Bonferroni share per look: the outcomes are small
integers, mostly equal (the difference is 0 in most worlds) and skewed, where a normal
interval on 25 worlds can be far too narrow; and the rule here may be looked at after
every world for free, which a share per look would make expensive.  The cost: where the
differences are small against ``scale`` it needs more worlds than a z-test would.
"""

from __future__ import annotations

import math

import numpy as np

MAX_STAKE = 0.75  # the most of his wealth a gambler risks on one world (see choose_stake)
PRIOR_VARIANCE = 0.25  # the variance assumed before any world (one pseudo-observation)


class PairedBets:
    """The gamblers of every ordered pair of ``k`` options on one outcome, bounded so that
    any difference of two options lies in [-scale, scale]."""

    def __init__(self, k: int, scale: float):
        if k < 1 or not scale > 0:
            raise ValueError(f"need k >= 1 options and a positive scale, not {k}, {scale}")
        self.k = k
        self.scale = float(scale)
        self.worlds = 0
        self.total = np.zeros((k, k))  # sum of the scaled differences so far
        self.squares = np.zeros((k, k))  # sum of squared deviations from the running mean
        self.log_wealth = np.zeros((k, k))
        self.peak = np.zeros((k, k))  # the highest log wealth reached so far

    def stake(self) -> np.ndarray:
        """The fractions staked on the next world, from the earlier worlds only."""
        t = self.worlds
        mean = self.total / (t + 1)  # shrunk toward 0 by one pseudo-world
        var = (PRIOR_VARIANCE + self.squares) / (t + 1)
        with np.errstate(divide="ignore", invalid="ignore"):
            lam = np.where(mean > 0, mean / (var + mean * mean), 0.0)
        return np.clip(lam, 0.0, MAX_STAKE)

    def add(self, outcomes) -> None:
        """One world's outcome of every option (the same world for all)."""
        x = np.asarray(outcomes, dtype=float)
        d = (x[:, None] - x[None, :]) / self.scale
        if np.abs(d).max(initial=0.0) > 1.0:
            raise ValueError(f"a difference beyond the scale {self.scale}: {outcomes}")
        lam = self.stake()
        self.log_wealth += np.log1p(lam * d)
        np.maximum(self.peak, self.log_wealth, out=self.peak)
        self.total += d
        self.worlds += 1
        mean = self.total / (self.worlds + 1)
        self.squares += (d - mean) ** 2

    def ahead(self, i: int, j: int, level: float) -> bool:
        """Whether the gambler on "i ahead of j" has ever reached ``1 / level`` times his
        stake: i is ahead of j, with chance at most ``level`` of saying so wrongly."""
        return bool(self.peak[i, j] >= -math.log(level))

    def wealth(self, i: int, j: int) -> float:
        return math.exp(self.log_wealth[i, j])
