"""Single hands of the base game -- the auction, then the play -- recorded trick by trick
(``pitchsim play``), and :class:`Game`, a base-game record read back
(``record.game_of_record``).  Whole games are the family kernels'
(``games.families.family_board``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..game.cards import SUITS, cards_of, format_card, mask_of
from ..game.rules import Rules, rules_text
from ..kernels.bits import game_count
from ..kernels.deal import deck_without
from ..kernels.hand import GAME, HIGH, JACK_POINT, LOW
from ..kernels.shown_hand import deal_logged
from .bidding import Strategy, seat_arrays
from .policies import policy_name as play_policy_name


@dataclass
class Round:
    players: int
    dealer: int
    calls: list[int | None]  # per seat in calling order from the dealer's left; None = pass
    pitcher: int | None  # None: everybody passed (redeal variant), nothing was played
    bid: int
    pitched: int | None  # the card a 4 was pitched with
    trump: int | None
    hands: list[list[int]]  # per seat, as dealt
    tricks: list[tuple[int, list[int], int]]  # (leader, cards from the leader, winner)
    points: dict[str, int | None]  # high/low/jack/game -> seat (None: nobody)
    game_points: list[int]  # per seat, game count captured
    points_won: list[int]  # per seat (partners share their team's)
    round_points: list[int]  # per seat, after made/set
    made: bool | None
    rules: Rules

    @property
    def calling_order(self) -> list[int]:
        return [(self.dealer + 1 + i) % self.players for i in range(self.players)]

    def to_json(self) -> dict:
        def fmt(cs):
            return [format_card(c, symbols=False) for c in cs]

        return {
            "players": self.players,
            "dealer": self.dealer,
            "bids": self.calls,
            "pitcher": self.pitcher,
            "bid": self.bid,
            "pitched": format_card(self.pitched, symbols=False)
            if self.pitched is not None
            else None,
            "trump": SUITS[self.trump] if self.trump is not None else None,
            "hands": [fmt(h) for h in self.hands],
            "tricks": [
                {"leader": lead, "cards": fmt(cs), "winner": w} for lead, cs, w in self.tricks
            ],
            "points": self.points,
            "game_points": self.game_points,
            "points_won": self.points_won,
            "round_points": self.round_points,
            "made": self.made,
            "partnership": self.rules.partnership,
            "rules": rules_text(self.rules),  # solve and hint read the round under these
        }


def play_round(
    seed: int,
    deal: int,
    players: int,
    policies: np.ndarray,
    rules: Rules,
    hand: list[int] | None = None,
    trump: int = -1,
    bid: int = 2,
) -> Round:
    """Deal ``deal`` of ``seed`` played out by the kernels, seat 0 pitching at ``bid``
    (no auction: seat 0, left of the dealer, bids it and everyone passes).

    ``policies`` are the play policy ids per seat; ``hand`` fixes seat 0's cards and
    ``trump`` makes it lead that suit if it holds it.
    """
    seats = [Strategy("heuristic", play_policy_name(int(p))) for p in policies]
    if len(seats) != players:
        raise ValueError(f"{len(seats)} policies for {players} players")
    return auction_round(seed, deal, seats, rules, hand=hand, trump=trump, bid=bid)


def auction_round(
    seed: int,
    deal: int,
    seats: Sequence[Strategy],
    rules: Rules,
    hand: list[int] | None = None,
    trump: int = -1,
    bid: int | None = None,
    dealer: int | None = None,
) -> Round:
    """Deal ``deal`` of ``seed``, bid and played out by the kernels.

    ``seats`` gives each seat's strategy.  ``hand`` fixes seat 0's cards; ``trump``
    makes the pitcher lead that suit if it holds it.  ``bid`` replaces the auction:
    seat 0 (left of the dealer, who is then the last seat) bids it and everyone passes.
    ``dealer`` defaults to the last seat, so seat 0 calls first.
    """
    n = len(seats)
    rules.check_players(n)
    if bid is not None:
        dealer = n - 1
    dealer = n - 1 if dealer is None else dealer
    fixed = mask_of(hand) if hand else 0
    a = seat_arrays(seats, rules)
    dealt = np.empty(n, dtype=np.int64)
    calls = np.empty(n, dtype=np.int64)
    award = np.full(4, -1, dtype=np.int64)
    log = np.empty(6 * (n + 2), dtype=np.int64)
    pitcher, won_bid, t, first, made = deal_logged(
        seed,
        deal,
        n,
        dealer,
        fixed,
        deck_without(fixed),
        trump,
        bid or 0,
        a.bidding,
        a.play,
        rules.to_array(),
        a.odds,
        a.params,
        np.zeros(n, dtype=np.int64),
        dealt,
        calls,
        award,
        log,
    )
    return _round(n, dealer, calls, pitcher, won_bid, t, first, made, dealt, award, log, rules)


def _round(
    n, dealer, calls, pitcher, bid, trump, first, made, dealt, award, log, rules: Rules
) -> Round:
    """A :class:`Round` from what the kernels record of a hand (``log``: 6 rows of
    leader, n cards, winner)."""
    hands = [cards_of(int(m)) for m in dealt]
    call_list = [int(c) if c > 0 else None for c in calls]
    if pitcher < 0:  # all passed: thrown in
        return Round(
            n,
            dealer,
            call_list,
            None,
            0,
            None,
            None,
            hands,
            [],
            dict.fromkeys(("high", "low", "jack", "game")),
            [0] * n,
            [0] * n,
            [0] * n,
            None,
            rules,
        )
    tricks = []
    for i in range(6):
        row = [int(x) for x in log[i * (n + 2) : (i + 1) * (n + 2)]]
        tricks.append((row[0], row[1 : n + 1], row[n + 1]))
    won = [0] * n
    for _, cs, w in tricks:
        won[w] |= mask_of(cs)
    names = {"high": HIGH, "low": LOW, "jack": JACK_POINT, "game": GAME}
    points = {k: (int(award[i]) if award[i] >= 0 else None) for k, i in names.items()}
    points_won = [0] * n
    for seat in points.values():
        if seat is None:
            continue
        for s in range(n):
            if rules.team(s) == rules.team(seat):
                points_won[s] += 1
    pitcher = int(pitcher)
    bid = int(bid)
    round_points = [
        (points_won[s] if made else -bid) if rules.team(s) == rules.team(pitcher) else points_won[s]
        for s in range(n)
    ]
    return Round(
        players=n,
        dealer=int(dealer),
        calls=call_list,
        pitcher=pitcher,
        bid=bid,
        pitched=int(first) if first >= 0 else None,
        trump=int(trump),
        hands=hands,
        tricks=tricks,
        points=points,
        game_points=[int(game_count(np.int64(w))) for w in won],
        points_won=points_won,
        round_points=round_points,
        made=bool(made),
        rules=rules,
    )


# ---- whole games ----------------------------------------------------------------------


@dataclass
class Game:
    """A base-game record's game (``record.game_of_record``): every hand, with the scores
    after it."""

    seed: int
    board: int
    strategies: list[str]  # per seat
    rules: Rules
    rounds: list[Round]
    scores: list[list[int]]  # per round, every seat's score after it
    winner: int | None  # the winning seat, or team in a partnership; None: unfinished

    def to_json(self) -> dict:
        return {
            "seed": self.seed,
            "board": self.board,
            "strategies": self.strategies,
            "target": self.rules.target,
            "partnership": self.rules.partnership,
            "rules": rules_text(self.rules),
            "winner": self.winner,
            "final_scores": self.scores[-1] if self.scores else [],
            "hands": [
                {**r.to_json(), "scores_after": sc}
                for r, sc in zip(self.rounds, self.scores, strict=True)
            ],
        }
