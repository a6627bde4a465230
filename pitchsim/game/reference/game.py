"""Whole games under every preset: deal, bid, fix trump, discard and draw, play, settle,
until a side wins (docs/rules.md "Winning", 0.1, 2.6, 2.11, 3.4, 3.11, 4.5, 6.1, 12.1).

``play_game`` is a plain loop meant to be read; simulations use the kernels.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from pitchsim.game.reference.auction import AuctionResult, Bid, run_auction
from pitchsim.game.reference.deal import deal
from pitchsim.game.reference.draw import DrawRecord, after_naming
from pitchsim.game.reference.hand import HandRecord, View, play_hand
from pitchsim.game.reference.partner import checked_call, highest_missing_trump
from pitchsim.game.reference.score import (
    DEALER_SET_PENALTY,
    counts,
    pitcher_made,
    settle_hand,
    sides_of,
    winners,
)
from pitchsim.game.rules import Rules


@dataclass
class GameHand:
    """One deal of a game.  ``play`` is ``None`` when everybody passed."""

    deal_no: int
    dealer: int
    dealt: list[int]
    stock: list[int]
    auction: AuctionResult
    trump: int  # -1 when nobody bid
    draw: DrawRecord | None
    play: HandRecord | None  # None when nobody bid
    made: bool | None
    change: list[int]  # score change per seat
    scores: list[int]  # scores per seat after this hand


@dataclass
class GameRecord:
    """A whole game.  ``winners`` are sides (``rules.team`` of a seat); empty when the
    game hit ``max_hands``."""

    players: int
    rules: Rules
    winners: list[int]
    scores: list[int]
    hands: list[GameHand] = field(default_factory=list)
    first_dealer: int = 0


Bidder = Callable[[int, int, list[int], list[int], list[int]], "int | tuple[int, int] | Bid"]
Namer = Callable[[int, int], int]
Caller = Callable[[int, int, int], int]
Deals = Callable[[int, int], tuple[Sequence[int], Sequence[int]]]


def play_game(
    players: int,
    rules: Rules,
    rng: random.Random | None,
    bidder: Bidder,
    namer: Namer | None,
    chooser: Callable[[View], int],
    first_dealer: int = 0,
    max_hands: int = 1000,
    deals: Deals | None = None,
    caller: Caller | None = None,
    start_scores: Sequence[int] | None = None,
    put_downs: Callable[[], dict[int, list[int]]] | None = None,
) -> GameRecord:
    """Deal, bid, fix trump, discard and draw, play and settle until a side wins (under
    hands=N: until N hands have counted, 12.4), or ``max_hands`` deals (redeals
    included) pass.

    - ``bidder(seat, hand, calls, legal, scores)`` answers with a call from ``legal``,
      ``(bid, card)`` to pitch a bid of the maximum, or a :class:`Bid`; under
      trump=first-lead the pitcher then leads the suit its winning ``Bid`` planned.
    - ``namer(seat, hand)`` names trump under trump=named (any suit, 3.5).
    - ``chooser(view)`` plays a card, as in :func:`play_hand`.
    - ``caller(seat, hand, trump)`` calls the pitcher's partner's card under
      partner=called (once trump is named, before any discard or kitty, 12.1.2) or
      announced (after them, 12.1.4), from ``partner.callable_cards``; by default
      pitchsim's call, the highest trump the pitcher does not hold.  The call is
      recorded as the hand's ``play.called``, its holder as ``play.partner``.
    - Each deal is dealt from ``rng`` (:func:`deal`), or, given ``deals``, is
      ``deals(deal_no, dealer)``: the hands and the stock (top card first) of deal
      number ``deal_no`` (0, 1, 2, ... counting every deal, redeals included).  ``rng``
      also shuffles the discards drawn from (4.8).
    - ``start_scores``: the scores before the first deal (a game already under way;
      default 0 each).
    - ``put_downs()``, asked once trump is named in each deal, gives the put-downs the
      seats chose, seat -> cards (``draw.put_down_by``: the kitty's pitcher's and under
      discard=choice any seat's, 12.2.2, 12.8.1, the robber's after the rob, 4.8.7);
      by default, and for a seat it leaves out, pitchsim's.

    All pass: forced cannot happen; redeal: the same dealer deals again (4.5);
    next-dealer: nobody scores (2.6); dealer-set: the dealer's side scores -2 (3.4);
    dealer-free: the auction makes the dealer the pitcher at 0 (12.12), played as any hand.
    Otherwise the deal passes to the left after every hand (0.1).
    """
    rules.check_players(players)

    def call_partner(seat: int, hand: int, trump: int) -> int:  # 12.1.2, 12.1.4
        if caller is None:
            return highest_missing_trump(hand, trump, rules)
        return checked_call(caller(seat, hand, trump), trump, rules)

    if not 0 <= first_dealer < players:
        raise ValueError(f"first dealer {first_dealer} is not a seat of a {players}-player table")
    scores = [0] * players if start_scores is None else [int(s) for s in start_scores]
    if len(scores) != players:
        raise ValueError(f"{len(scores)} scores for {players} players")
    dealer = first_dealer
    counted = 0  # the hands that count toward hands=N (12.4)
    game = GameRecord(players, rules, [], scores, first_dealer=first_dealer)
    for deal_no in range(max_hands):
        if deals is not None:
            hands, undealt = deals(deal_no, dealer)
            dealt, stock = [int(m) for m in hands], [int(c) for c in undealt]
            if len(dealt) != players:
                raise ValueError(f"deal {deal_no} has {len(dealt)} hands for {players} players")
        else:
            dealt, stock = deal(rng, rules, players, dealer)
        before = list(scores)

        def call(seat: int, calls: list[int], legal: list[int]) -> int | tuple[int, int] | Bid:
            return bidder(seat, dealt[seat], calls, legal, list(before))  # noqa: B023

        auction = run_auction(dealer, players, call, rules, before)
        if auction.pitcher is None:
            change = [0] * players
            if rules.all_pass == "dealer-set":
                change = [
                    -DEALER_SET_PENALTY if rules.team(s) == rules.team(dealer) else 0
                    for s in range(players)
                ]
            scores = [s + c for s, c in zip(scores, change, strict=True)]
            game.hands.append(
                GameHand(
                    deal_no, dealer, dealt, stock, auction, -1, None, None, None, change, scores
                )
            )
            game.scores = scores
            counted += counts(None, rules)
            game.winners = winners(scores, None, False, rules, counted=counted)
            if game.winners:
                break
            if rules.all_pass != "redeal":
                dealer = (dealer + 1) % players
            continue
        pitcher, bid = auction.pitcher, auction.bid
        trump = called = -1
        held, draw = dealt, None
        if rules.trump == "named":
            if namer is None:
                raise ValueError("trump=named needs a namer: the pitcher names trump (3.5)")
            trump = namer(pitcher, dealt[pitcher])
            if not 0 <= trump < 4:
                raise ValueError(f"seat {pitcher} named {trump}, which is not a suit")
            if rules.partner == "called":  # 12.1.2: before any discard or kitty
                called = call_partner(pitcher, dealt[pitcher], trump)
            # 12.2, 4.8, 12.8: the kitty, then the discard and draw
            chosen = put_downs() if put_downs is not None else None
            held, draw = after_naming(
                dealt, stock, pitcher, trump, rules, rng, dealer, called, chosen
            )
            if rules.partner == "announced":  # 12.1.4: after the discard and draw
                called = call_partner(pitcher, held[pitcher], trump)
        played = play_hand(
            held,
            pitcher,
            chooser,
            rules,  # the caller's own: a view carries the rules it was given
            bid=bid,
            trump=trump,
            first_lead=auction.pitched_card,
            lead_suit=auction.trump if rules.trump == "first-lead" else -1,
            called=called,
        )
        points = played.score.points
        made = pitcher_made(points, pitcher, bid)
        change = settle_hand(
            points, pitcher, bid, rules, sides_of(players, pitcher, played.partner, rules)
        )
        scores = [s + c for s, c in zip(scores, change, strict=True)]
        game.hands.append(
            GameHand(
                deal_no, dealer, dealt, stock, auction, played.trump, draw, played, made, change,
                scores,
            )
        )  # fmt: skip
        game.scores = scores
        counted += 1
        game.winners = winners(scores, pitcher, made, rules, auction.shoot, counted, played.partner)
        if game.winners:
            break
        dealer = (dealer + 1) % players
    return game
