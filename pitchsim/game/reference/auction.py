"""The auction (one round of calls) under every preset, in plain Python (docs/rules.md
"The auction", 0.2, 1.4, 2.4-2.6, 3.3, 3.4, 4.4, 4.5, 6.1, 6.3.4, 12.12).

Calls are ints: 0 (``PASS``), a bid from the minimum bid to the maximum bid, and
:func:`shoot_call` (the maximum bid plus one) for a shoot.  A bidder may attach its plan
to a call with :class:`Bid`: the suit it means to lead if it wins under
trump=first-lead (its own business, never shown to the table) or the card a bid of the
maximum is pitched with.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from pitchsim.game.cards import N_CARDS_WITH_JOKERS, suit_of
from pitchsim.game.rules import Rules

PASS = 0
MAX_BID = 4  # the base game's maximum bid (all four points); a preset's is rules.max_bid
FORCED_DEALER_MIN = 2  # RULES; 6.1 all-pass=forced: at least the larger of 2 and min-bid


def shoot_call(rules: Rules) -> int:
    """The call code of a shoot: one above the maximum bid (6.1 shoot)."""
    return rules.max_bid + 1


def legal_calls(
    calls: Sequence[int], dealer_to_call: bool, rules: Rules, may_shoot: bool = True
) -> list[int]:
    """The calls allowed now, ascending (0 = pass); empty when the auction is over.

    ``calls`` are the calls made so far; ``may_shoot`` is False for a player whose
    score is below zero (6.1 shoot).
    """
    top, shoot = rules.max_bid, shoot_call(rules)
    high = max(calls, default=PASS)
    shoots = [shoot] if rules.shoot and may_shoot else []
    if high == shoot:
        return []  # 6.1: a shoot cannot be stolen and ends the auction
    if high == top:
        if rules.dealer_steal != "max":
            return []  # RULES, 1.4, 6.3.4: a bid of the maximum ends the auction at once
        # 2.5, 2.15.2: the others may only pass; the dealer may match the maximum.
        return [PASS, top, *shoots] if dealer_to_call else [PASS, *shoots]
    if not dealer_to_call:
        return [PASS, *range(max(high + 1, rules.min_bid), top + 1), *shoots]
    if high == PASS:
        if rules.all_pass == "forced":  # RULES, 6.1: at least the larger of 2 and min-bid
            return [*range(max(FORCED_DEALER_MIN, rules.min_bid), top + 1), *shoots]
        return [PASS, *range(rules.min_bid, top + 1), *shoots]  # 3.4, 4.5, 2.6
    lowest = high if rules.dealer_steal is True else high + 1  # RULES steal; 3.3, 2.4
    return [PASS, *range(lowest, top + 1), *shoots]


@dataclass(frozen=True)
class Bid:
    """A call plus what the bidder means to do with it.

    ``pitch`` >= 0 bids the maximum by pitching that card under trump=first-lead, which
    ends the auction and is the opening lead (RULES, 1.4).  ``trump`` is the suit the
    bidder plans to lead if it becomes the pitcher under trump=first-lead (-1: it
    decides at the opening lead); its private plan, not an announcement: the table
    learns trump from the opening lead.
    """

    amount: int  # 0 = pass, else a bid (or the shoot call)
    pitch: int = -1
    trump: int = -1


def as_bid(answer: object) -> Bid:
    """A caller's answer as a :class:`Bid`: an int, ``(bid, card)`` or a ``Bid``."""
    if isinstance(answer, Bid):
        return answer
    if isinstance(answer, tuple):
        if len(answer) != 2:
            raise ValueError(f"a pitch is (bid, card), got {answer!r}")
        return Bid(operator.index(answer[0]), pitch=operator.index(answer[1]))
    return Bid(operator.index(answer))


@dataclass(frozen=True)
class BidView:
    """Everything ``seat`` can see when calling in the auction."""

    seat: int
    hand: int  # own cards, bit mask
    dealer: int
    players: int
    bids: tuple[int, ...]  # calls so far this auction, in calling order (0 = pass)
    legal: tuple[int, ...]  # the calls allowed now (0 = pass)
    scores: tuple[int, ...]  # game scores before this hand, per seat
    rules: Rules


@dataclass
class AuctionResult:
    """What the auction decided.

    ``calls[i]`` is the call of ``order[i]`` (calling order from the dealer's left): the
    bid, or ``None`` for a pass or for a seat that never called because the auction
    ended.  ``pitcher`` is ``None`` only when everybody passed (redeal and the like;
    under all-pass=dealer-free the dealer, with ``bid`` 0, 12.12); ``bid`` is then 0,
    else the points the pitcher's side must win (a shoot's is the
    maximum bid).  ``pitched_card`` is the card a bid of the maximum was pitched with
    (the opening lead), else -1.  ``trump`` is the pitcher's planned trump (the suit of
    a pitched card, or the winning :class:`Bid`'s ``trump``), else -1.
    """

    calls: list[int | None]
    order: list[int]
    pitcher: int | None
    bid: int
    shoot: bool = False
    pitched_card: int = -1
    trump: int = -1


Call = Callable[[int, list[int], list[int]], "int | tuple[int, int] | Bid"]


def run_auction(
    dealer: int, players: int, call: Call, rules: Rules, scores: Sequence[int] | None = None
) -> AuctionResult:
    """Ask each seat for its call, from the dealer's left round to the dealer (0.2).

    ``call(seat, calls_so_far, legal)`` returns a call from ``legal``, ``(bid, card)``
    to bid the maximum by pitching ``card``, or a :class:`Bid`; an illegal call raises
    ``ValueError``.  ``scores`` (before the hand) bar a seat below zero from shooting.
    The last bidder is the high bidder, since every bid beats the high bid or steals it.
    """
    rules.check_players(players)
    if not 0 <= dealer < players:
        raise ValueError(f"dealer {dealer} is not a seat of a {players}-player table")
    scores = list(scores) if scores is not None else [0] * players
    order = [(dealer + 1 + i) % players for i in range(players)]
    calls: list[int | None] = [None] * players
    made: list[int] = []
    result = AuctionResult(calls, order, None, PASS)
    for i, seat in enumerate(order):
        legal = legal_calls(made, seat == dealer, rules, may_shoot=scores[seat] >= 0)
        if not legal:
            break  # a bid of the maximum or a shoot ended the auction
        try:
            bid = as_bid(call(seat, list(made), list(legal)))
        except (TypeError, ValueError) as e:
            raise ValueError(f"seat {seat}: {e}") from None
        if bid.amount not in legal:
            raise ValueError(f"seat {seat} may not call {bid.amount} now (legal: {legal})")
        if not -1 <= bid.trump < 4:
            raise ValueError(f"seat {seat}: {bid.trump} is not a suit")
        made.append(bid.amount)
        if bid.pitch != -1:
            if not 0 <= bid.pitch < N_CARDS_WITH_JOKERS:
                raise ValueError(f"seat {seat} pitched {bid.pitch}, which is not a card")
            ends = not legal_calls(made, False, rules) or seat == dealer
            if rules.trump != "first-lead" or bid.amount < rules.max_bid or not ends:
                raise ValueError(f"seat {seat} may not pitch with this call (1.4, 6.3.4)")
        if bid.amount != PASS:
            calls[i] = bid.amount
            result.pitcher = seat
            result.shoot = bid.amount == shoot_call(rules)
            result.bid = rules.max_bid if result.shoot else bid.amount
            result.pitched_card = bid.pitch
            result.trump = suit_of(bid.pitch) if bid.pitch >= 0 else bid.trump
    if result.pitcher is None and rules.all_pass == "dealer-free":
        result.pitcher = dealer  # 12.12: the dealer names trump with a bid of 0
    return result
