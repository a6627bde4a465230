"""A contract played out: after the auction, the pitch, six tricks, scoring and settlement.

Below the shown hand (``kernels.shown_hand``) and the advisor's engine (``kernels.advice``),
which both play contracts to the end of a game.
"""

from numba import njit

from ..game.rules import R_SET_PITCHER_WINS, R_TARGET
from .auction import MAX_BID, pitched_card
from .bits import suit_mask
from .hand import points_won, score_hand, side_of
from .play import play_hand

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


# Not inlined: the play (with its inlined policies) is compiled once and shared by every
# entry point below, which keeps numba's compile time down at no measurable cost.
@njit(cache=True)
def play_contract(
    key,
    n,
    pitcher,
    bid,
    trump,
    force_trump,
    dealt,
    scores,
    play,
    rules,
    hands,
    won,
    trick,
    award,
    tricks_log,
):
    """Everything after the auction: the pitch, six tricks, scoring and settlement.

    ``trump`` is the pitcher's planned suit (-1: none); ``force_trump`` >= 0 overrides
    it when the pitcher holds that suit.  Returns (trump, pitched card, made, winner).
    """
    if force_trump >= 0 and dealt[pitcher] & suit_mask(force_trump) != 0:
        trump = force_trump
    first = -1
    if bid == MAX_BID:
        first = pitched_card(dealt, n, pitcher, trump, play, rules, key, trick, won)
    trump = play_hand(
        dealt, n, pitcher, bid, trump, first, play, rules, key, hands, won, trick, tricks_log
    )
    score_hand(dealt, won, n, trump, rules, award)
    made, winner = settle(award, n, pitcher, bid, rules, scores)
    return trump, first, made, winner
