"""A contract settled (``settle``: the base game's scoring of one hand), and the deal
limit of every game kernel (``MAX_DEALS``).
"""

from numba import njit

from ..game.rules import R_SET_PITCHER_WINS, R_TARGET
from .hand import points_won, side_of

MAX_DEALS = 1024  # a game still going after this many deals is abandoned (winner -1)


@njit(cache=True, inline="always")
def settle(award, n, pitcher, bid, rules, scores):
    """Add one hand to ``scores``; return (made, winner).

    The pitcher's side scores its points if it made the bid and loses the bid if set;
    everyone else scores what they won.  Only the pitcher's side can then win: at or
    past the target having made the bid (or, under set-pitcher-wins, even when set).
    Winner: the pitcher's seat, or in a partnership its team; -1 while the game goes on.
    """
    made = points_won(award, pitcher, rules) >= bid
    side = side_of(pitcher, rules)
    for s in range(n):
        if side_of(s, rules) == side and not made:
            scores[s] -= bid
        else:
            scores[s] += points_won(award, s, rules)
    winner = -1
    if scores[pitcher] >= rules[R_TARGET] and (made or rules[R_SET_PITCHER_WINS] != 0):
        winner = side
    return made, winner
