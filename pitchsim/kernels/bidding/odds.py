"""A bid's expected score, the game situation weighed (``contract_value``): what the
preset kernels' ``odds`` and ``odds-game`` bidders (``kernels.bidding.calls``) value
each call by.  It stays below ``families`` in the kernels' layers (the base game's odds
bidder, whose valuation it was, is gone).
"""

import numpy as np
from numba import njit

# ``contract_value``'s situation when no rival can go out while we pitch (win=pitcher).
NO_RIVAL = -np.inf


@njit(cache=True, inline="always")
def rival_odds(mine, out, first, rival, left, spread, target):
    """(P(our side wins), P(the nearest rival wins)) after a hand that leaves our side
    at ``mine`` (``out``: at the target, having made the bid or under set-pitcher-wins)
    and the rival at ``rival`` plus X of the ``left`` points we did not take, X ~
    Binomial(left, ``spread``) (1: one rival side takes them all).  We win going out
    ``first`` or above the rival; the rival wins at the target above us."""
    p_win = 0.0
    p_lose = 0.0
    ways = 1.0
    for x in range(left + 1):
        p = ways * spread**x * (1.0 - spread) ** (left - x)
        ways = ways * (left - x) / (x + 1)
        theirs = rival + x
        if out and (first or mine > theirs):
            p_win += p
        elif theirs >= target and theirs > mine:
            p_lose += p
    return p_win, p_lose


@njit(cache=True, inline="always")
def contract_value(
    dist, k, score, target, win_bonus, set_wins, keep, first, rival, rest, spread, loss
):
    """Expected change of the pitcher's side bidding k (``dist[j]``: P(its side takes
    exactly j points)), plus ``win_bonus`` times its chance to win the game and minus
    ``loss`` times a rival's.  Every preset's game situation as values (the base game:
    keep 0, no rival):

    - made (j >= k) scores j; set scores -k, less, when the pitcher's points still went
      to no rival, ``keep`` of them: (keep j - k) / (1 + keep);
    - the side wins when its new score reaches ``target`` having made the bid (or set,
      under ``set_wins``), and, unless it goes out ``first`` (win=pitcher and
      pitcher-first), is above the nearest rival's;
    - else that rival, at ``rival`` (``NO_RIVAL``: nobody goes out while we pitch,
      win=pitcher), wins when the points it takes of the ``rest - j`` we left (each
      with chance ``spread``, ``rival_odds``) bring it to the target above us."""
    v = 0.0
    for j in range(dist.size):
        won = j >= k
        mine = score + j if won else score - k
        out = (won or set_wins) and mine >= target
        gain = j if won else (keep * j - k) / (1.0 + keep)
        if rival == NO_RIVAL:
            gain += win_bonus if out else 0.0
        else:
            p_win, p_lose = rival_odds(mine, out, first, rival, rest - j, spread, target)
            gain += win_bonus * p_win - loss * p_lose
        v += dist[j] * gain
    return v
