"""The auction (one round of calls), in plain Python.

Mirrors RULES.md's "Auction (one round)" section and the bidding variants
(minimum bid, all pass, dealer steal).  A call is an int: 0 (``PASS``) or a bid 1-4.
A bidder may attach its plan to a call with :class:`Bid`: the suit it means to lead
if it wins (its own business, never shown to the table) or the card a 4 is pitched with.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from pitchsim.game.cards import N_CARDS, suit_of
from pitchsim.game.rules import Rules

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


@dataclass(frozen=True)
class Bid:
    """A call plus what the bidder means to do with it.

    ``trump`` is the suit the bidder plans to lead if it becomes the pitcher (-1: it
    decides at the opening lead).  It is the bidder's private plan, not an announcement:
    the table learns trump from the opening lead, as the rules say.  ``pitch`` >= 0
    bids 4 by pitching that card, which ends the auction and is the opening lead.
    """

    amount: int  # 0 = pass, else 1-4
    trump: int = -1
    pitch: int = -1


def as_bid(answer: object) -> Bid:
    """A caller's answer as a :class:`Bid`: an int, ``(4, card)`` or a ``Bid``."""
    if isinstance(answer, Bid):
        return answer
    if isinstance(answer, tuple):
        if len(answer) != 2 or answer[0] != MAX_BID:
            raise ValueError(f"only a 4 can be pitched, got {answer!r}")
        card = operator.index(answer[1])
        if not 0 <= card < N_CARDS:
            raise ValueError(f"pitched {card}, which is not a card")
        return Bid(MAX_BID, pitch=card)
    return Bid(operator.index(answer))


@dataclass
class AuctionResult:
    """What the auction decided.

    ``calls[i]`` is the call of ``order[i]`` (calling order from the dealer's left):
    the bid, or ``None`` for a pass or for a seat that never called because a 4 ended
    the auction.  ``pitcher`` is ``None`` only when everybody passed under the redeal
    variant; ``bid`` is then 0.  ``pitched_card`` is the card a 4 was pitched with
    (the opening lead), else -1.  ``trump`` is the pitcher's planned trump (the suit of
    a pitched card, or the winning :class:`Bid`'s ``trump``), else -1.
    """

    calls: list[int | None]
    order: list[int]
    pitcher: int | None
    bid: int
    pitched_card: int = -1
    trump: int = -1


Call = Callable[[int, list[int], list[int]], "int | tuple[int, int] | Bid"]


def run_auction(dealer: int, players: int, call: Call, rules: Rules) -> AuctionResult:
    """Ask each seat for its call, from the dealer's left round to the dealer.

    ``call(seat, bids_so_far, legal)`` returns a call from ``legal``, ``(4, card)``
    to bid 4 by pitching ``card``, or a :class:`Bid`.  An illegal call raises
    ``ValueError``.  The high bidder is the pitcher: since every legal bid is above
    the high bid (or equal to it, when the dealer steals), the last bidder is always
    the high bidder.
    """
    rules.check_players(players)
    if not 0 <= dealer < players:
        raise ValueError(f"dealer {dealer} is not a seat of a {players}-player table")
    order = [(dealer + 1 + i) % players for i in range(players)]
    calls: list[int | None] = [None] * players
    bids: list[int] = []
    pitcher: int | None = None
    bid = PASS
    pitched_card = trump = -1

    for i, seat in enumerate(order):
        legal = legal_bids(bids, seat == dealer, rules)
        if not legal:
            break  # a 4 ended the auction
        raw = call(seat, list(bids), list(legal))
        try:
            answer = as_bid(raw)
        except (TypeError, ValueError) as e:
            raise ValueError(f"seat {seat}: {e}") from None
        if answer.amount not in legal:
            raise ValueError(f"seat {seat} may not call {answer.amount} now (legal: {legal})")
        if answer.pitch != -1:
            if answer.amount != MAX_BID:
                raise ValueError(f"seat {seat}: only a 4 can be pitched")
            if not 0 <= answer.pitch < N_CARDS:
                raise ValueError(f"seat {seat} pitched {answer.pitch}, which is not a card")
        if not -1 <= answer.trump < 4:
            raise ValueError(f"seat {seat}: {answer.trump} is not a suit")
        bids.append(answer.amount)
        if answer.amount != PASS:
            calls[i] = answer.amount
            pitcher, bid, pitched_card = seat, answer.amount, answer.pitch
            trump = suit_of(answer.pitch) if answer.pitch >= 0 else answer.trump

    return AuctionResult(calls, order, pitcher, bid, pitched_card, trump)
