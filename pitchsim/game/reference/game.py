"""Whole games: settle each hand, rotate the deal, stop at the first winner.

Mirrors RULES.md's "made / set" scoring and "Winning the game".  ``play_game`` is a
plain loop meant to be read; simulations use the kernels.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from pitchsim.game.cards import HAND_SIZE, N_CARDS
from pitchsim.game.reference.auction import AuctionResult, Bid, run_auction
from pitchsim.game.reference.play import HandRecord, View, play_hand
from pitchsim.game.rules import Rules


def pitcher_made(points: Sequence[int], pitcher: int, bid: int) -> bool:
    """The pitcher (team) makes the bid when the points won are at least the bid."""
    return points[pitcher] >= bid


def settle_hand(points: Sequence[int], pitcher: int, bid: int, rules: Rules) -> list[int]:
    """Score change per seat for one hand.

    ``points`` is :attr:`HandScore.points` (in a partnership both partners already carry
    the team's points).  The pitcher's side scores its points if it made the bid and
    loses the bid if set; everybody else scores the points they won.
    """
    made = pitcher_made(points, pitcher, bid)
    change = []
    for seat, won in enumerate(points):
        if rules.team(seat) == rules.team(pitcher):
            change.append(won if made else -bid)
        else:
            change.append(won)
    return change


def game_winner(scores: Sequence[int], pitcher: int, made: bool, rules: Rules) -> int | None:
    """The winner after a hand, or ``None`` when the game goes on.

    Only the pitcher can win, and only when at or past the target having made the bid
    (``rules.set_pitcher_wins``: or having been set but still at the target).  Returns
    ``rules.team(pitcher)``: the pitcher's seat, or in a partnership the team number
    (0 for seats 0+2, 1 for seats 1+3, which is also the team's lower seat).
    """
    if scores[pitcher] >= rules.target and (made or rules.set_pitcher_wins):
        return rules.team(pitcher)
    return None


def deal_hands(rng: random.Random, players: int, dealer: int = 0) -> list[int]:
    """Shuffle a deck and deal six cards each, three at a time from the dealer's left.

    Returns the per-seat hands as bit masks; the other 52 - 6n cards stay out of play.
    """
    deck = list(range(N_CARDS))
    rng.shuffle(deck)
    hands = [0] * players
    top = 0
    for _ in range(HAND_SIZE // 3):
        for i in range(players):
            seat = (dealer + 1 + i) % players
            for c in deck[top : top + 3]:
                hands[seat] |= 1 << c
            top += 3
    return hands


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
class GameHand:
    """One deal of a game.  ``play`` is ``None`` when everybody passed and it was redealt."""

    deal_no: int
    dealer: int
    dealt: list[int]
    auction: AuctionResult
    play: HandRecord | None
    made: bool | None
    change: list[int]  # score change per seat
    scores: list[int]  # scores per seat after this hand


@dataclass
class GameRecord:
    """A whole game.  ``winner`` is ``rules.team`` of the winning pitcher, or ``None``."""

    players: int
    rules: Rules
    first_dealer: int
    winner: int | None
    scores: list[int]
    hands: list[GameHand] = field(default_factory=list)


Bidder = Callable[[BidView], "int | tuple[int, int] | Bid"]


def _asking(
    bidder: Bidder, dealt: list[int], dealer: int, scores: list[int], rules: Rules
) -> Callable[[int, list[int], list[int]], int | tuple[int, int] | Bid]:
    """Adapt ``bidder(BidView)`` to the ``call(seat, bids, legal)`` that the auction asks."""
    players = len(dealt)

    def call(seat: int, bids: list[int], legal: list[int]) -> int | tuple[int, int] | Bid:
        view = BidView(
            seat, dealt[seat], dealer, players, tuple(bids), tuple(legal), tuple(scores), rules
        )
        return bidder(view)

    return call


def play_game(
    players: int,
    rules: Rules,
    deal: Callable[[int], Sequence[int]],
    bidder: Bidder,
    chooser: Callable[[View], int],
    first_dealer: int = 0,
    max_hands: int = 1000,
) -> GameRecord:
    """Play deals until a pitcher wins, or ``max_hands`` deals (redeals included) pass.

    - ``deal(deal_no)`` returns the per-seat hands (bit masks) of deal number
      ``deal_no`` (0, 1, 2, ... counting every deal, redeals included).
    - ``bidder(view: BidView)`` returns a call from ``view.legal`` (0 = pass, 1-4),
      ``(4, card)`` to bid 4 by pitching ``card`` from ``view.hand``, or a
      :class:`~pitchsim.game.reference.auction.Bid`; the pitcher then leads the suit its
      winning ``Bid`` planned (``Bid.trump``), if any.
    - ``chooser(view: View)`` returns a card from ``view.legal``, as in ``play_hand``.

    The deal passes one seat to the left after each hand; when everybody passes under
    the redeal variant the same dealer deals again.
    """
    rules.check_players(players)
    if not 0 <= first_dealer < players:
        raise ValueError(f"first dealer {first_dealer} is not a seat of a {players}-player table")
    scores = [0] * players
    dealer = first_dealer
    record = GameRecord(players, rules, first_dealer, None, scores)

    for deal_no in range(max_hands):
        dealt = [int(m) for m in deal(deal_no)]
        if len(dealt) != players:
            raise ValueError(f"deal {deal_no} has {len(dealt)} hands for {players} players")

        auction = run_auction(dealer, players, _asking(bidder, dealt, dealer, scores, rules), rules)
        if auction.pitcher is None:  # all passed under the redeal variant
            record.hands.append(
                GameHand(deal_no, dealer, dealt, auction, None, None, [0] * players, list(scores))
            )
            continue

        pitcher, bid = auction.pitcher, auction.bid
        played = play_hand(
            dealt,
            pitcher,
            chooser,
            rules,
            bid=bid,
            fixed_trump=auction.trump,
            first_lead=auction.pitched_card,
        )
        points = played.score.points
        change = settle_hand(points, pitcher, bid, rules)
        scores = [s + c for s, c in zip(scores, change, strict=True)]
        made = pitcher_made(points, pitcher, bid)
        record.hands.append(
            GameHand(deal_no, dealer, dealt, auction, played, made, change, list(scores))
        )
        record.scores = scores
        record.winner = game_winner(scores, pitcher, made, rules)
        if record.winner is not None:
            break
        dealer = (dealer + 1) % players
    return record
