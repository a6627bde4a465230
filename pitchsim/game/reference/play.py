"""The play of one hand (six tricks) and its scoring, in plain Python.

This mirrors RULES.md's "Play (six tricks)" and "Scoring a hand (capture-based)"
sections line by line.  It is the specification the numba kernels are tested
against, so it favours being obviously right over being fast.

Seats are numbered clockwise 0..n-1; play goes clockwise, so the player after
``seat`` is ``(seat + 1) % n``.  Cards and hands use the encoding of
:mod:`pitchsim.game.cards` (card = suit * 13 + rank, hands as int bit masks).
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from pitchsim.game.cards import (
    HAND_SIZE,
    JACK,
    N_CARDS,
    card,
    cards_of,
    format_card,
    game_points,
    rank_of,
    suit_cards,
    suit_of,
)
from pitchsim.game.rules import Rules

TRICKS = HAND_SIZE  # every player plays every card: six tricks


@dataclass(frozen=True)
class View:
    """Everything ``seat`` can see when choosing a card; never another player's hand."""

    seat: int
    hand: int  # own cards still held, bit mask
    legal: int  # the cards the rules allow now, bit mask (a subset of ``hand``)
    players: int
    pitcher: int
    bid: int  # the pitcher's bid (0 when the caller did not say)
    trump: int  # -1 until the opening lead fixes it (unless fixed before play)
    trick_no: int  # 0..5
    leader: int  # the seat that led this trick
    trick: tuple[int, ...]  # cards played so far in this trick, from the leader on
    played: int  # cards of completed tricks (not the current trick)
    won: tuple[int, ...]  # per seat, cards captured so far (tricks are public)
    rules: Rules
    # per seat, the cards it has played this hand (completed tricks and this trick)
    played_by: tuple[int, ...]
    # bit 4 * seat + suit: that seat has shown it holds none of that suit (shows_void)
    voids: int

    def void(self, seat: int, suit: int) -> bool:
        return bool(self.voids >> (4 * seat + suit) & 1)


def shows_void(c: int, led: int, trump: int, rules: Rules) -> bool:
    """Does card ``c``, played to a trick led in suit ``led``, show its player holds
    none of ``led``?  A player holding the led suit must follow it or (unless follow =
    suit) trump; any other card means he had none.  On a trump lead, not following
    means no trump."""
    if suit_of(c) == led:
        return False
    return suit_of(c) != trump or rules.follow == "suit"


def legal_cards(
    hand: int, trick: Sequence[int], trump: int, rules: Rules, fixed_trump: int = -1
) -> int:
    """The mask of cards in ``hand`` that may be played to ``trick``.

    Leading: any card.  At the opening lead (``trick`` empty, ``trump == -1``) a caller
    that fixed trump in advance passes ``fixed_trump``; then only that suit may be led.
    Following: base rules let a player holding the led suit follow suit or play a
    trump; ``rules.follow == "suit"`` makes him follow suit.  A void player plays
    anything.  A trump lead is covered by the same test: the led suit is trump.
    """
    if not trick:
        if trump < 0 and fixed_trump >= 0:
            leads = hand & suit_cards(fixed_trump)
            if not leads:
                raise ValueError("the pitcher holds no card of the fixed trump suit")
            return leads
        return hand
    led = suit_of(trick[0])
    if trump < 0:
        # Still inside the opening trick: its lead is what fixes trump.
        trump = led
    of_led_suit = hand & suit_cards(led)
    if not of_led_suit:
        return hand
    if rules.follow == "suit":
        return of_led_suit
    return of_led_suit | (hand & suit_cards(trump))


def trick_winner(trick: Sequence[int], trump: int) -> int:
    """Index (in play order) of the card that wins ``trick``.

    The highest trump wins; with no trump in the trick, the highest card of the
    led suit.  Cards of a third suit never win.
    """
    led = suit_of(trick[0])
    trumps = [i for i, c in enumerate(trick) if suit_of(c) == trump]
    contenders = trumps or [i for i, c in enumerate(trick) if suit_of(c) == led]
    return max(contenders, key=lambda i: rank_of(trick[i]))


@dataclass
class HandScore:
    """Who won each point of one hand.

    ``high``, ``low``, ``jack`` and ``game`` name the seat credited with that point
    (``None``: nobody).  ``points`` is per seat; in a partnership both partners carry
    their team's points.  ``game_counts`` is per seat and not pooled, so it always sums
    to the game value of the cards dealt.
    """

    high: int | None
    low: int | None
    jack: int | None
    game: int | None
    game_counts: list[int]
    points: list[int]


def _holder(masks: Sequence[int], c: int) -> int:
    """The seat whose mask contains card ``c``."""
    return next(seat for seat, m in enumerate(masks) if m >> c & 1)


def score_hand(dealt: Sequence[int], won: Sequence[int], trump: int, rules: Rules) -> HandScore:
    """Score a finished hand: High, Low, Jack and Game, capture-based.

    ``dealt`` is each seat's hand as dealt (only needed for ``rules.low == "dealt"``
    and to know which cards were in play); ``won`` is each seat's captured cards.
    """
    n = len(dealt)
    in_play = 0
    for m in dealt:
        in_play |= m
    captured = 0
    for m in won:
        if captured & m:
            raise ValueError("a card was captured twice")
        captured |= m
    if len(won) != n or captured != in_play:
        raise ValueError("the captured cards must be exactly the cards dealt")

    trumps_in_play = cards_of(in_play & suit_cards(trump)) if trump >= 0 else []
    high = low = jack = None
    if trumps_in_play:
        # One trump in play is both highest and lowest: no special case needed.
        high = _holder(won, trumps_in_play[-1])
        low_owner = dealt if rules.low == "dealt" else won
        low = _holder(low_owner, trumps_in_play[0])
    jack_of_trump = card(JACK, trump) if trump >= 0 else -1
    if jack_of_trump >= 0 and in_play >> jack_of_trump & 1:
        jack = _holder(won, jack_of_trump)

    game_counts = [sum(game_points(c) for c in cards_of(m)) for m in won]
    # Partners pool their game counts; without partners each seat is its own team.
    team_counts: dict[int, int] = {}
    for seat in range(n):
        team = rules.team(seat)
        team_counts[team] = team_counts.get(team, 0) + game_counts[seat]
    best = max(team_counts.values())
    leaders = [team for team, count in team_counts.items() if count == best]
    game = None
    if len(leaders) == 1:  # a tie for highest (all zero included) gives nobody the point
        game = min(seat for seat in range(n) if rules.team(seat) == leaders[0])

    team_points: dict[int, int] = {}
    for seat in (high, low, jack, game):
        if seat is not None:
            team = rules.team(seat)
            team_points[team] = team_points.get(team, 0) + 1
    points = [team_points.get(rules.team(seat), 0) for seat in range(n)]
    return HandScore(high, low, jack, game, game_counts, points)


@dataclass
class HandRecord:
    """One played hand: the deal, the contract, every trick and the score."""

    dealt: list[int]
    pitcher: int
    bid: int
    trump: int
    tricks: list[tuple[int, list[int], int]]  # (leader seat, cards from the leader on, winner)
    won: list[int]
    score: HandScore


def _check_deal(dealt: Sequence[int], pitcher: int, rules: Rules) -> None:
    rules.check_players(len(dealt))
    if not 0 <= pitcher < len(dealt):
        raise ValueError(f"pitcher {pitcher} is not a seat of a {len(dealt)}-player table")
    seen = 0
    for seat, m in enumerate(dealt):
        if m < 0 or m >> N_CARDS:
            raise ValueError(f"seat {seat}'s hand holds bits that are not cards")
        if m.bit_count() != HAND_SIZE:
            raise ValueError(f"seat {seat} was dealt {m.bit_count()} cards, not {HAND_SIZE}")
        if seen & m:
            raise ValueError(f"seat {seat} was dealt a card another seat holds")
        seen |= m


def _checked_play(c: object, legal: int, what: str) -> int:
    """``c`` as a plain int card, or ``ValueError`` when it is not in ``legal``."""
    try:
        c = operator.index(c)  # accepts numpy integers from policies
    except TypeError:
        raise ValueError(f"{what} {c!r} is not a card") from None
    if not 0 <= c < N_CARDS:
        raise ValueError(f"{what} {c} is not a card")
    if not legal >> c & 1:
        raise ValueError(f"{what} {format_card(c, symbols=False)} is not a legal play")
    return c


def play_hand(
    dealt: Sequence[int],
    pitcher: int,
    choose: Callable[[View], int],
    rules: Rules,
    bid: int = 0,
    fixed_trump: int = -1,
    first_lead: int = -1,
) -> HandRecord:
    """Play six tricks and score them.

    The pitcher leads trick 1 and its suit is trump (``fixed_trump >= 0`` makes him
    lead that suit).  ``first_lead >= 0`` is a card pitched in the auction: it is
    the opening lead and ``choose`` is not asked for it.  ``choose(view)`` returns a
    card from ``view.legal``; anything else raises ``ValueError``.
    """
    dealt = [int(m) for m in dealt]
    _check_deal(dealt, pitcher, rules)
    n = len(dealt)
    hands = list(dealt)
    won = [0] * n
    played_by = [0] * n
    voids = 0
    played = 0
    trump = -1
    leader = pitcher
    tricks: list[tuple[int, list[int], int]] = []

    for trick_no in range(TRICKS):
        trick: list[int] = []
        for i in range(n):
            seat = (leader + i) % n
            legal = legal_cards(hands[seat], trick, trump, rules, fixed_trump)
            if trump < 0 and first_lead >= 0:
                c = first_lead
                what = "pitched card"
            else:
                view = View(
                    seat=seat,
                    hand=hands[seat],
                    legal=legal,
                    players=n,
                    pitcher=pitcher,
                    bid=bid,
                    trump=trump if trump >= 0 else fixed_trump,
                    trick_no=trick_no,
                    leader=leader,
                    trick=tuple(trick),
                    played=played,
                    won=tuple(won),
                    rules=rules,
                    played_by=tuple(played_by),
                    voids=voids,
                )
                c = choose(view)
                what = f"seat {seat}'s card"
            c = _checked_play(c, legal, what)
            hands[seat] &= ~(1 << c)
            played_by[seat] |= 1 << c
            if trick and shows_void(c, suit_of(trick[0]), trump, rules):
                voids |= 1 << (4 * seat + suit_of(trick[0]))
            trick.append(c)
            if trump < 0:
                trump = suit_of(c)  # the opening lead fixes trump for the hand

        winner = (leader + trick_winner(trick, trump)) % n
        for c in trick:
            won[winner] |= 1 << c
            played |= 1 << c
        tricks.append((leader, trick, winner))
        leader = winner

    return HandRecord(
        dealt=dealt,
        pitcher=pitcher,
        bid=bid,
        trump=trump,
        tricks=tricks,
        won=won,
        score=score_hand(dealt, won, trump, rules),
    )
