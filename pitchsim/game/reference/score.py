"""The points of a hand, settling it, and the end of the game, under every preset
(docs/rules.md "The points", "Partnerships", 0.6-0.10, 2.11, 3.8, 3.11, 4.10, 6.1, 12.1).

A **side** is a seat, or a team under partnership (``rules.team``); under a called
partner, for one hand, the pitcher and his partner, and all the others (``sides_of``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pitchsim.game.cards import JACK, N_CARDS, TEN, card, cards_of, game_points, joker_cards
from pitchsim.game.reference.draw import FIVE, THREE
from pitchsim.game.reference.tricks import jick_of, left_pedro_of, trump_order
from pitchsim.game.rules import Rules

DEALER_SET_PENALTY = 2  # 3.4: all pass under all-pass=dealer-set


@dataclass
class HandScore:
    """Who got each point (0.7, 0.8, 4.10): ``awards`` maps a point's name to the seat
    credited (``None``: nobody), ``values`` to what it is worth; ``points`` per seat,
    partners carrying their team's points (0.10).  ``game_counts`` is per seat and not
    pooled (jokers count 0), so it always sums to the game value of the cards captured.
    """

    awards: dict[str, int | None]
    values: dict[str, int]
    game_counts: list[int]
    points: list[int]

    # The four points every preset awards (under game=ten, Game is None: no such point).
    @property
    def high(self) -> int | None:
        return self.awards["high"]

    @property
    def low(self) -> int | None:
        return self.awards["low"]

    @property
    def jack(self) -> int | None:
        return self.awards["jack"]

    @property
    def game(self) -> int | None:
        return self.awards.get("game")


def sides_of(players: int, pitcher: int | None, partner: int | None, rules: Rules) -> list[int]:
    """The side of each seat for one hand: ``rules.team(seat)`` (0.10), or under
    partner=called|announced (12.1.6) the pitcher and his ``partner`` (None: he plays
    alone, 12.1.5) one side, numbered by the pitcher's seat, and all the others another,
    numbered -1."""
    if rules.partner == "none" or pitcher is None:
        return [rules.team(s) for s in range(players)]
    return [pitcher if s in (pitcher, partner) else -1 for s in range(players)]


def _holder(masks: Sequence[int], c: int) -> int:
    """The seat whose mask contains card ``c``."""
    return next(seat for seat, m in enumerate(masks) if m >> c & 1)


def score_hand(
    held: Sequence[int],
    won: Sequence[int],
    trump: int,
    rules: Rules,
    sides: Sequence[int] | None = None,
) -> HandScore:
    """The points of a played hand.

    ``held`` is each seat's hand when the first card is led: the cards in play (0.6,
    RULES "The deal": in the base game the cards dealt); ``won`` each seat's captures.
    High and Low are the highest and lowest trump in play by the trump order, never a
    joker (0.7); High, Jack, Jick, the jokers, the 10 (game=ten), the 3 and the 5 (both pedros, 12.6) go to
    their captors (0.7, 4.10); Low to its captor or holder (low=); Game to the single
    highest count of the cards a side captured, jokers 0 (each ½ under
    joker-game=half, 12.10), a tie (all zero included) giving it to nobody (0.8).  A point card not in play scores for nobody.
    ``sides`` (``sides_of``; default ``rules.team``) pool the Game counts and the points:
    a team (0.10), or the pitcher with his called partner and all the others (12.1.6).
    """
    n = len(held)
    side = list(sides) if sides is not None else [rules.team(s) for s in range(n)]
    in_play = 0
    for m in held:
        in_play |= m
    captured = 0
    for m in won:
        if captured & m:
            raise ValueError("a card was captured twice")
        captured |= m
    if len(won) != n or captured & ~in_play:
        raise ValueError("a card not in play was captured")
    if rules.follow != "only" and captured != in_play:  # 4.9: only trumps are played
        raise ValueError("the captured cards must be exactly the cards in play")
    awards: dict[str, int | None] = {}
    values: dict[str, int] = {}

    def award(name: str, value: int, seat: int | None) -> None:
        awards[name], values[name] = seat, value

    order = trump_order(rules, trump) if trump >= 0 else []
    ranked = [c for c in order if c < N_CARDS and in_play >> c & 1]  # jokers never High/Low
    # One trump in play is both highest and lowest: no special case needed.
    award("high", 1, _holder(won, ranked[-1]) if ranked else None)
    low_owner = held if rules.low == "dealt" else won
    award("low", 1, _holder(low_owner, ranked[0]) if ranked else None)

    def capture(name: str, c: int, value: int = 1) -> None:
        award(name, value, _holder(won, c) if trump >= 0 and in_play >> c & 1 else None)

    capture("jack", card(JACK, trump) if trump >= 0 else 0)
    if rules.jick:
        capture("jick", jick_of(trump) if trump >= 0 else 0)
    for name, c in zip(("high-joker", "low-joker"), joker_cards(rules.jokers), strict=False):
        capture(name, c)
    if rules.game == "ten":
        capture("ten", card(TEN, trump) if trump >= 0 else 0)
    if rules.three:
        capture("three", card(THREE, trump) if trump >= 0 else 0, 3)
    if rules.five is not False:  # the 5 of trump; under five=pedro the right pedro (12.6)
        capture("five", card(FIVE, trump) if trump >= 0 else 0, 5)
    if rules.five == "pedro":
        capture("left-pedro", left_pedro_of(trump) if trump >= 0 else 0, 5)

    game_counts = [sum(game_points(c) for c in cards_of(m) if c < N_CARDS) for m in won]
    if rules.game == "count":
        # Partners pool their game counts; without partners each seat is its own side.
        # Under joker-game=half (12.10) on a doubled scale: twice the count, plus 1 for
        # each joker captured (a joker's half).
        scale = 2 if rules.joker_game == "half" else 1
        counts: dict[int, int] = {}
        for seat in range(n):
            halves = (won[seat] >> N_CARDS).bit_count() if scale == 2 else 0
            count = scale * game_counts[seat] + halves
            counts[side[seat]] = counts.get(side[seat], 0) + count
        best = max(counts.values())
        leaders = [side for side, count in counts.items() if count == best]
        game = None
        if len(leaders) == 1:  # a tie for the highest count, all zero included: nobody
            game = min(seat for seat in range(n) if side[seat] == leaders[0])
        award("game", 1, game)

    side_points: dict[int, int] = {}
    for name, seat in awards.items():
        if seat is not None:
            side_points[side[seat]] = side_points.get(side[seat], 0) + values[name]
    points = [side_points.get(side[seat], 0) for seat in range(n)]
    return HandScore(awards, values, game_counts, points)


def pitcher_made(points: Sequence[int], pitcher: int, bid: int) -> bool:
    """0.9: the pitcher's side makes the bid when the points it won are at least the bid."""
    return points[pitcher] >= bid


def counts(pitcher: int | None, rules: Rules) -> bool:
    """Whether a hand counts toward hands=N (12.4): every hand but one all passed and
    redealt by the same dealer (all-pass=redeal)."""
    return pitcher is not None or rules.all_pass != "redeal"


def settle_hand(
    points: Sequence[int],
    pitcher: int,
    bid: int,
    rules: Rules,
    sides: Sequence[int] | None = None,
) -> list[int]:
    """Score change per seat for one hand (0.9): made, the pitcher's side scores every
    point it won; set, minus the bid and nothing else.  Every other side scores what it
    won.  Under set=to-others (12.11) a set side scores 0 and every other side its
    points plus the bid.  ``points`` is :attr:`HandScore.points` (partners carry the
    team's points).  ``sides`` as in :func:`score_hand`: under a called partner each
    player adds his side's result to his own score (12.1.7)."""
    side = list(sides) if sides is not None else [rules.team(s) for s in range(len(points))]
    made = pitcher_made(points, pitcher, bid)
    if not made and rules.set == "to-others":  # 12.11: 0 to the set side, the bid to the rest
        return [0 if side[s] == side[pitcher] else won + bid for s, won in enumerate(points)]
    return [
        (won if made else -bid) if side[s] == side[pitcher] else won for s, won in enumerate(points)
    ]


def winners(
    scores: Sequence[int],
    pitcher: int | None,
    made: bool,
    rules: Rules,
    shoot: bool = False,
    counted: int = 0,
    partner: int | None = None,
) -> list[int]:
    """The winning sides after a hand (empty: play on).  ``pitcher`` is ``None`` for a
    hand nobody bid.  win=pitcher (RULES "Winning"): only the pitcher's side,
    at or past the target having made the bid (or, under set-pitcher-wins, even set);
    pitcher-first: 3.11; highest: 2.11; a made shoot wins at once (6.1).  Under
    hands=N (12.4) the target and the win rule have no effect (6.3.10): after the N-th
    hand that counts (``counted``: the hands counted so far, this one included) the
    highest total wins, sides tied for it sharing the win.  A side is
    ``rules.team(seat)``: the seat, or in a partnership the team number (0 for seats
    0+2, 1 for seats 1+3).  Under a called partner (12.1.8) a side is a player, each
    at his own score, and "the pitcher's side" the pitcher and his ``partner`` (None:
    alone): each of the two the rule lets win wins, both together when both do."""
    sides: dict[int, int] = {}
    for seat, score in enumerate(scores):
        sides.setdefault(rules.team(seat), score)
    ours = [] if pitcher is None else [rules.team(pitcher)]
    if pitcher is not None and partner is not None:
        ours = sorted({rules.team(pitcher), rules.team(partner)})
    if shoot and made and pitcher is not None:
        return ours
    if rules.hands_limit:  # 12.4
        if counted < rules.hands_limit:
            return []
        best = max(sides.values())
        return [side for side, score in sides.items() if score == best]
    there = [side for side in ours if sides[side] >= rules.target]
    if rules.win == "pitcher":
        return there if made or rules.set_pitcher_wins else []
    best = max(sides.values())
    top = [side for side, score in sides.items() if score == best]
    if rules.win == "highest":
        return top if best >= rules.target and len(top) == 1 else []
    if best < rules.target:
        return []
    return there or top  # sides tied for the highest total share the win
