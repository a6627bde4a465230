"""The advisor's P(make) against defenders who search: a correction learned from play.

The advisor's simulations play every hand by the model's heuristic at every seat.  Where
defenders who search (``pimc``, the strongest pitchsim has) were measured to set its bids
more often than those heuristic defenders do, by more than the error
(reports/advisor_calibration.md), ``advise`` shifts each call's P(make) on the log-odds
scale by the amount learned from those games, and reweights the simulated deals in
which the seat's side pitched: a made one by p'/p, a set one by (1 - p')/(1 - p).  So
P(win game), the hand's score and margin, and the ranking of the calls follow the
corrected P(make), each from the simulations' own outcomes:

    P(win) = P(not pitching) P(win | not) + P(pitching) [p' P(win | made) + (1 - p') P(win | set)].

A log-odds shift moves a middling P(make) most and leaves a sure one (0 or 1) alone, as
the measured gap did by predicted decile.  Tables and rules not measured: no correction.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..game.rules import Rules, label
from ..kernels import advice as engine


@dataclass(frozen=True)
class Correction:
    """P(make)'s log-odds shift for one preset (its label, as measured) and table size."""

    rules: str
    players: int
    shift: float  # added to log(p / (1 - p))
    gap: tuple[float, float, float]  # the paired gap it was fitted to: pp, 95% bounds
    source: str  # the games it was learned from


# Learned with ``scripts/calibrate_advisor.py fit`` (made under pimc defenders minus made
# under the model's heuristic ones, on the same hands); checked on other seeds
# (reports/advisor_calibration.md, "A correction at 5 and 6 players").
CORRECTIONS = {
    ("auction-pitch", 5): Correction(
        "auction-pitch",
        5,
        shift=-0.307,
        gap=(-5.5, -8.6, -2.5),
        source="calibrate_advisor.py run --players 5 --seed 5 --deals 0:932 --samples 2000 "
        "--scores random (470 hands the advised seat pitched)",
    ),
}


def correction_for(rules: Rules, players: int) -> Correction | None:
    return CORRECTIONS.get((label(rules), players))


def shifted(p, shift: float):
    """P(make) ``p`` (a number or an array) with its log-odds moved by ``shift``."""
    p = np.asarray(p, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        odds = p / (1 - p) * np.exp(shift)  # p = 1: inf, stays 1
        return np.where(p >= 1, 1.0, odds / (1 + odds))


def weights(out: np.ndarray, shift: float) -> np.ndarray:
    """Each kept deal's weight under each call (deals x calls, from ``out``, the advice
    kernels' outcomes): 1 where the seat's side did not pitch, p'/p where it made the
    bid and (1 - p')/(1 - p) where it was set, p being the call's P(make) in these deals
    and p' its shifted value.  Every call's weights average 1."""
    side = out[:, :, engine.O_SIDE_PITCHED] > 0
    made = side & (out[:, :, engine.O_MADE] > 0)
    pitched = side.sum(axis=0)
    p = made.sum(axis=0) / np.maximum(pitched, 1)
    q = shifted(p, shift)
    up = np.divide(q, p, out=np.ones_like(p), where=p > 0)
    down = np.divide(1 - q, 1 - p, out=np.ones_like(p), where=p < 1)
    return np.where(made, up, np.where(side, down, 1.0))
