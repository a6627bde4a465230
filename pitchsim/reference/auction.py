"""The auction (one round of calls), in plain Python.

Mirrors RULES.md's "Auction (one round)" section and the bidding variants
(minimum bid, all pass, dealer steal).  A call is an int: 0 (``PASS``) or a bid 1-4.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from pitchsim.cards import N_CARDS
from pitchsim.options import Rules

PASS = 0
MAX_BID = 4  # all four points: High, Low, Jack, Game
FORCED_DEALER_MIN = 2  # a dealer stuck with the bid must bid at least 2


def legal_bids(bids_so_far: Sequence[int], dealer_to_call: bool, rules: Rules) -> list[int]:
    """The calls allowed now, ascending (0 = pass); empty once a 4 has ended the auction.

    ``bids_so_far`` are the calls already made this auction (0 = pass).
    """
    high = max(bids_so_far, default=PASS)
    if high == MAX_BID:
        return []  # a 4 cannot be stolen: nobody calls after it
    if not dealer_to_call:
        return [PASS, *range(max(high + 1, rules.min_bid), MAX_BID + 1)]
    if high == PASS:
        if rules.all_pass == "forced":
            return list(range(max(FORCED_DEALER_MIN, rules.min_bid), MAX_BID + 1))
        # Redeal variant: nobody is stuck, so the dealer calls like anyone else and
        # his pass throws the hand in.
        return [PASS, *range(rules.min_bid, MAX_BID + 1)]
    lowest = high if rules.dealer_steal else high + 1  # an equal bid steals
    return [PASS, *range(lowest, MAX_BID + 1)]


@dataclass
class AuctionResult:
    """What the auction decided.

    ``calls[i]`` is the call of ``order[i]`` (calling order from the dealer's left):
    the bid, or ``None`` for a pass or for a seat that never called because a 4 ended
    the auction.  ``pitcher`` is ``None`` only when everybody passed under the redeal
    variant; ``bid`` is then 0.  ``pitched_card`` is the card a 4 was pitched with
    (the opening lead), else -1.
    """

    calls: list[int | None]
    order: list[int]
    pitcher: int | None
    bid: int
    pitched_card: int = -1


Call = Callable[[int, list[int], list[int]], "int | tuple[int, int]"]


def run_auction(dealer: int, players: int, call: Call, rules: Rules) -> AuctionResult:
    """Ask each seat for its call, from the dealer's left round to the dealer.

    ``call(seat, bids_so_far, legal)`` returns a call from ``legal``, or ``(4, card)``
    to bid 4 by pitching ``card``.  An illegal call raises ``ValueError``.  The high
    bidder is the pitcher: since every legal bid is above the high bid (or equal to
    it, when the dealer steals), the last bidder is always the high bidder.
    """
    rules.check_players(players)
    if not 0 <= dealer < players:
        raise ValueError(f"dealer {dealer} is not a seat of a {players}-player table")
    order = [(dealer + 1 + i) % players for i in range(players)]
    calls: list[int | None] = [None] * players
    bids: list[int] = []
    pitcher: int | None = None
    bid = PASS
    pitched_card = -1

    for i, seat in enumerate(order):
        legal = legal_bids(bids, seat == dealer, rules)
        if not legal:
            break  # a 4 ended the auction
        answer = call(seat, list(bids), list(legal))
        card = -1
        if isinstance(answer, tuple):
            if len(answer) != 2 or answer[0] != MAX_BID:
                raise ValueError(f"seat {seat}: only a 4 can be pitched, got {answer!r}")
            answer, card = answer
            card = operator.index(card)
            if not 0 <= card < N_CARDS:
                raise ValueError(f"seat {seat} pitched {card}, which is not a card")
        answer = operator.index(answer)
        if answer not in legal:
            raise ValueError(f"seat {seat} may not call {answer} now (legal: {legal})")
        bids.append(answer)
        if answer != PASS:
            calls[i] = answer
            pitcher, bid, pitched_card = seat, answer, card

    return AuctionResult(calls, order, pitcher, bid, pitched_card)
