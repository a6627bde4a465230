"""A base-game record read back for showing (``record.game_of_record``): :class:`Round`,
one hand trick by trick, and :class:`Game`.  Records written before the one engine;
every hand played now is the one engine's (``table.boards.board_hand`` and
``board_game``)."""

from __future__ import annotations

from dataclasses import dataclass

from ..game.cards import SUITS, format_card
from ..game.rules import Rules, rules_text


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
