"""A contract settled (``settle``: the base game's scoring of one hand, its options
``fr`` as ``presets.rules_array`` packs them), and the deal limit of every game
kernel (``MAX_DEALS``).
"""

from numba import njit

from .presets import F_PARTNERSHIP, F_SET_PITCHER_WINS, F_TARGET

MAX_DEALS = 1024  # a game still going after this many deals is abandoned (winner -1)


@njit(cache=True, inline="always")
def side_of(seat, rules):
    """The seat's side: its team in a partnership (seats 0 and 2, 1 and 3), else itself."""
    return seat % 2 if rules[F_PARTNERSHIP] != 0 else seat


@njit(cache=True, inline="always")
def points_won(award, seat, rules):
    """How many of the four points (``award``: the seats credited with High, Low, Jack,
    Game; -1 nobody) went to ``seat``'s side."""
    side = side_of(seat, rules)
    won = 0
    for i in range(4):
        if award[i] >= 0 and side_of(award[i], rules) == side:
            won += 1
    return won


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
    if scores[pitcher] >= rules[F_TARGET] and (made or rules[F_SET_PITCHER_WINS] != 0):
        winner = side
    return made, winner
