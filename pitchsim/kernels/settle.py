"""Settling a family hand (VARIANTS.md 0.9) and who has won the game (RULES, 2.11,
3.11, 6.1 win and shoot, 12.4 hands), mirroring the reference engine's ``settle_hand``
and ``winners``.  Under hands=N ``winners`` finds only a made shoot: the game loop
counts the hands (``counts``) and ends the game after the N-th (``top_sides``)."""

import numpy as np
from numba import njit

from .presets import (
    ALL_PASS_REDEAL,
    F_ALL_PASS,
    F_HANDS,
    F_PARTNERSHIP,
    F_SET_PITCHER_WINS,
    F_SET_TO_OTHERS,
    F_TARGET,
    F_WIN,
    WIN_HIGHEST,
    WIN_PITCHER,
)


@njit(cache=True, inline="always")
def _side(seat, fr):
    return seat % 2 if fr[F_PARTNERSHIP] != 0 else seat


@njit(cache=True)
def settle_hand(points, n, pitcher, bid, fr, change, partner):
    """0.9: made (the pitcher's side won at least ``bid``), it scores every point it
    won; set, minus the bid and nothing else.  Every other side scores what it won.
    Under set=to-others (12.11) a set side scores 0 and every other side its points
    plus the bid.  Fills ``change`` (n) and returns whether the bid was made.  Under a
    called partner the pitcher's side is he and ``partner`` (-1: none), each adding the
    side's result to his own score (12.1.7)."""
    made = points[pitcher] >= bid
    mine = _side(pitcher, fr)
    to_others = fr[F_SET_TO_OTHERS] != 0 and not made
    for s in range(n):
        if (_side(s, fr) == mine or s == partner) and not made:
            change[s] = 0 if to_others else -bid
        else:
            change[s] = points[s] + (bid if to_others else 0)
    return made


@njit(cache=True)
def winners(scores, n, pitcher, made, shoot, fr, partner):
    """The winning sides after a hand, as a bit mask by side (0: play on).
    ``pitcher`` is -1 for a hand nobody bid; ``scores`` per seat (partners equal).
    Under a called partner (12.1.8) a side is a player and the pitcher's side he and
    ``partner`` (-1: none): those of the two the rule lets win win, both together when
    both do."""
    if shoot and made and pitcher >= 0:
        return _ours(pitcher, partner, fr)
    if fr[F_HANDS] != 0:  # 12.4: the game loop ends it after the N-th hand
        return np.int64(0)
    target = fr[F_TARGET]
    there = np.int64(0)  # those of the pitcher's side at or past the target
    if pitcher >= 0 and scores[pitcher] >= target:
        there = np.int64(1) << _side(pitcher, fr)
    if partner >= 0 and scores[partner] >= target:
        there |= np.int64(1) << partner  # (partnership=false under a called partner)
    if fr[F_WIN] == WIN_PITCHER:
        if made or fr[F_SET_PITCHER_WINS] != 0:
            return there
        return np.int64(0)
    best = scores[0]
    for s in range(1, n):
        best = max(best, scores[s])
    top = np.int64(0)
    for s in range(n):
        if scores[s] == best:
            top |= np.int64(1) << _side(s, fr)
    if fr[F_WIN] == WIN_HIGHEST:
        single = top & (top - 1) == 0
        return top if best >= target and single else np.int64(0)
    if best < target:
        return np.int64(0)
    if there != 0:
        return there
    return top


@njit(cache=True, inline="always")
def _ours(pitcher, partner, fr):
    """The pitcher's side as a bit mask of sides: his, and his called partner's."""
    ours = np.int64(1) << _side(pitcher, fr)
    if partner >= 0:
        ours |= np.int64(1) << partner
    return ours


@njit(cache=True)
def top_sides(scores, n, fr):
    """The sides with the highest total, as a bit mask (several: a shared win, 12.4)."""
    best = scores[0]
    for s in range(1, n):
        best = max(best, scores[s])
    top = np.int64(0)
    for s in range(n):
        if scores[s] == best:
            top |= np.int64(1) << _side(s, fr)
    return top


@njit(cache=True, inline="always")
def counts(pitcher, fr):
    """Whether a hand counts toward hands=N: all but one all passed and redealt (12.4)."""
    return pitcher >= 0 or fr[F_ALL_PASS] != ALL_PASS_REDEAL


@njit(cache=True)
def hands_winners(won_by, counted, scores, n, fr):
    """``won_by`` (the hand's ``winners``), or under hands=N, once ``counted`` hands
    have counted, the sides with the highest total (12.4)."""
    if won_by == 0 and fr[F_HANDS] != 0 and counted >= fr[F_HANDS]:
        return top_sides(scores, n, fr)
    return won_by


@njit(cache=True, inline="always")
def count_hand(pitcher, won_by, counted, scores, n, fr):
    """After a hand (``pitcher``: -1 when all passed; ``won_by``: its ``winners``): the
    hands counted toward hands=N, this one if it ``counts``, and the winners, under
    hands=N the highest totals once the last hand has counted (12.4)."""
    if counts(pitcher, fr):
        counted += 1
    return counted, hands_winners(won_by, counted, scores, n, fr)
