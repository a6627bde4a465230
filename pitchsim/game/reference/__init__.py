"""The reference engine: RULES.md in plain, readable Python.

It is the specification the numba kernels are tested against.  The rule families of
VARIANTS.md (setback, smear, ten-point, five-point, seven-point and any mix of the generic options) are played by
:mod:`pitchsim.game.reference.families`, which plays the base game exactly as these
modules do (tests/test_families_reference.py checks that deal by deal).
"""

from pitchsim.game.reference.auction import (
    MAX_BID,
    PASS,
    AuctionResult,
    legal_bids,
    run_auction,
)
from pitchsim.game.reference.game import (
    BidView,
    GameHand,
    GameRecord,
    deal_hands,
    game_winner,
    pitcher_made,
    play_game,
    settle_hand,
)
from pitchsim.game.reference.play import (
    TRICKS,
    HandRecord,
    HandScore,
    View,
    legal_cards,
    play_hand,
    score_hand,
    trick_winner,
)

__all__ = [
    "MAX_BID",
    "PASS",
    "TRICKS",
    "AuctionResult",
    "BidView",
    "GameHand",
    "GameRecord",
    "HandRecord",
    "HandScore",
    "View",
    "deal_hands",
    "game_winner",
    "legal_bids",
    "legal_cards",
    "pitcher_made",
    "play_game",
    "play_hand",
    "run_auction",
    "score_hand",
    "settle_hand",
    "trick_winner",
]
