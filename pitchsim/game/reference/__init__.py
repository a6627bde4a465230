"""The reference engine: docs/rules.md in plain, readable Python, one engine for every
preset (the base game is the auction-pitch preset, one :class:`~pitchsim.game.rules.Rules`
like the others).

It is the specification the numba kernels are tested against.  One module per part of
the game: :mod:`.tricks` (trump, the effective suit, what may be played, who wins a
trick), :mod:`.auction` (the calls), :mod:`.deal` (the pack and the deal), :mod:`.draw`
(the discard and draw), :mod:`.partner` (the called partner), :mod:`.score` (the points,
settling a hand, the winners),
:mod:`.hand` (a hand played trick by trick) and :mod:`.game` (whole games).

Calls are ints: 0 pass, 1 up to the maximum bid, and :func:`shoot_call` for a shoot.
Cards and masks as in :mod:`pitchsim.game.cards`, with the jokers 52 and 53.
"""

from pitchsim.game.reference.auction import (
    FORCED_DEALER_MIN,
    MAX_BID,
    PASS,
    AuctionResult,
    Bid,
    BidView,
    as_bid,
    legal_calls,
    run_auction,
    shoot_call,
)
from pitchsim.game.reference.deal import deal, deal_hands, pack
from pitchsim.game.reference.draw import (
    HAND_TARGET,
    KEEP_AT_LEAST,
    DrawRecord,
    after_naming,
    carries_point,
    come_down,
    discard_and_draw,
    draw_discard,
    excess_trumps,
    kitty_of,
    last_to_discard,
    may_put_down,
    may_stop,
    pitchsims_put_down,
    point_value,
    put_down_by,
    puts_down_legally,
    shown_put_down,
    take_kitty,
    takes_stock,
)
from pitchsim.game.reference.game import GameHand, GameRecord, play_game
from pitchsim.game.reference.hand import TRICKS, HandRecord, View, play_hand
from pitchsim.game.reference.partner import (
    callable_cards,
    checked_call,
    highest_missing_trump,
    known_partner,
    partner_of,
)
from pitchsim.game.reference.score import (
    DEALER_SET_PENALTY,
    HandScore,
    counts,
    pitcher_made,
    score_hand,
    settle_hand,
    sides_of,
    winners,
)
from pitchsim.game.reference.tricks import (
    effective_suit,
    is_trump,
    jick_of,
    legal_cards,
    shows_void,
    trick_winner,
    trump_order,
    trumps_in,
)

__all__ = [
    "DEALER_SET_PENALTY",
    "FORCED_DEALER_MIN",
    "HAND_TARGET",
    "MAX_BID",
    "PASS",
    "TRICKS",
    "AuctionResult",
    "Bid",
    "BidView",
    "DrawRecord",
    "KEEP_AT_LEAST",
    "GameHand",
    "GameRecord",
    "HandRecord",
    "HandScore",
    "View",
    "after_naming",
    "as_bid",
    "callable_cards",
    "carries_point",
    "checked_call",
    "come_down",
    "deal",
    "deal_hands",
    "discard_and_draw",
    "draw_discard",
    "effective_suit",
    "excess_trumps",
    "highest_missing_trump",
    "is_trump",
    "jick_of",
    "kitty_of",
    "last_to_discard",
    "legal_calls",
    "legal_cards",
    "may_put_down",
    "may_stop",
    "pack",
    "known_partner",
    "partner_of",
    "pitcher_made",
    "pitchsims_put_down",
    "play_game",
    "play_hand",
    "point_value",
    "put_down_by",
    "puts_down_legally",
    "run_auction",
    "score_hand",
    "settle_hand",
    "shoot_call",
    "shown_put_down",
    "sides_of",
    "shows_void",
    "take_kitty",
    "takes_stock",
    "trick_winner",
    "trump_order",
    "trumps_in",
    "winners",
    "counts",
]
