"""Single hands played out by the kernels and recorded trick by trick (``pitchsim play``)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .cards import SUITS, cards_of, format_card, mask_of
from .kernels.bits import game_count
from .kernels.deal import deck_without
from .kernels.hand import GAME, HIGH, JACK_POINT, LOW
from .kernels.simulate import PITCHER, play_logged
from .options import Rules


@dataclass
class Round:
    players: int
    pitcher: int
    bid: int
    trump: int
    hands: list[list[int]]  # per seat, as dealt
    tricks: list[tuple[int, list[int], int]]  # (leader, cards from the leader, winner)
    points: dict[str, int | None]  # high/low/jack/game -> seat (None: nobody)
    game_points: list[int]  # per seat, game count captured
    points_won: list[int]  # per seat (partners share their team's)
    round_points: list[int]  # per seat, after made/set
    made: bool
    rules: Rules

    def to_json(self) -> dict:
        def fmt(cs):
            return [format_card(c, symbols=False) for c in cs]

        return {
            "players": self.players,
            "pitcher": self.pitcher,
            "bid": self.bid,
            "trump": SUITS[self.trump],
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
        }


def play_round(seed: int, deal: int, players: int, policies: np.ndarray, rules: Rules,
               hand: list[int] | None = None, trump: int = -1, bid: int = 2) -> Round:  # fmt: skip
    """Deal ``deal`` of ``seed`` played out by the kernels, seat 0 pitching at ``bid``."""
    fixed = mask_of(hand) if hand else 0
    n = players
    dealt = np.empty(n, dtype=np.int64)
    log = np.empty(6 * (n + 2), dtype=np.int64)
    award = np.empty(4, dtype=np.int64)
    t = play_logged(seed, deal, n, fixed, deck_without(fixed), trump, policies,
                    rules.to_array(), dealt, log, award)  # fmt: skip
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
    made = points_won[PITCHER] >= bid
    round_points = [
        (points_won[s] if made else -bid) if rules.team(s) == rules.team(PITCHER) else points_won[s]
        for s in range(n)
    ]
    return Round(
        players=n,
        pitcher=PITCHER,
        bid=bid,
        trump=int(t),
        hands=[cards_of(int(m)) for m in dealt],
        tricks=tricks,
        points=points,
        game_points=[int(game_count(np.int64(w))) for w in won],
        points_won=points_won,
        round_points=round_points,
        made=made,
        rules=rules,
    )
