"""Settling a family hand (VARIANTS.md 0.9) and who has won the game (RULES, 2.11,
3.11, 6.1 win and shoot), mirroring the reference engine's ``settle_hand`` and
``winners``."""

import numpy as np
from numba import njit

from .tables import F_PARTNERSHIP, F_SET_PITCHER_WINS, F_TARGET, F_WIN, WIN_HIGHEST, WIN_PITCHER


@njit(cache=True, inline="always")
def _side(seat, fr):
    return seat % 2 if fr[F_PARTNERSHIP] != 0 else seat


@njit(cache=True)
def settle_hand(points, n, pitcher, bid, fr, change):
    """0.9: made (the pitcher's side won at least ``bid``), it scores every point it
    won; set, minus the bid and nothing else.  Every other side scores what it won.
    Fills ``change`` (n) and returns whether the bid was made."""
    made = points[pitcher] >= bid
    mine = _side(pitcher, fr)
    for s in range(n):
        if _side(s, fr) == mine and not made:
            change[s] = -bid
        else:
            change[s] = points[s]
    return made


@njit(cache=True)
def winners(scores, n, pitcher, made, shoot, fr):
    """The winning sides after a hand, as a bit mask by side (0: play on).
    ``pitcher`` is -1 for a hand nobody bid; ``scores`` per seat (partners equal)."""
    if shoot and made and pitcher >= 0:
        return np.int64(1) << _side(pitcher, fr)
    target = fr[F_TARGET]
    if fr[F_WIN] == WIN_PITCHER:
        if pitcher >= 0 and scores[pitcher] >= target and (made or fr[F_SET_PITCHER_WINS] != 0):
            return np.int64(1) << _side(pitcher, fr)
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
    if pitcher >= 0 and scores[pitcher] >= target:
        return np.int64(1) << _side(pitcher, fr)
    return top
