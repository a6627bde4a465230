"""Every point of a family hand and who gets it (VARIANTS.md 0.7, 0.8, 4.10).

``award[i]`` is the seat credited with point ``i`` of ``AWARD_NAMES`` (-1: nobody,
the card not in play or Game tied; -2: no such point under these rules), as the
reference engine's ``score_hand`` names them:

- High: the highest trump in play by the order key, never a joker; its captor.
- Low: the lowest such trump; its captor, or its holder under low=dealt (held = the
  hands when the first card is led, 0.6).
- jack, jick, high joker, low joker, the 10 (game=ten), the 3 (three=true, 3 points),
  the 5 (five=true, 5 points): their captors when in play.
- Game (game=count): the single highest count of the cards a side captured (jokers
  count 0); a tie, all zero included, gives it to nobody.  The seat credited is the
  lowest seat of the side (the team number under partnership).

``points[seat]`` is what the seat's side won (partners carry their team's points).
"""

import numpy as np
from numba import njit, types
from numba.extending import overload

from ..bits import SUIT_BITS, game_count, highest_card, lowest_card
from .borrow import borrowed
from .shape import SHAPE_ANY, SIMPLE
from .tables import (
    F_FIVE,
    F_GAME_TEN,
    F_JICK,
    F_JOKERS,
    F_LOW_DEALT,
    F_PARTNERSHIP,
    F_THREE,
    T_KEY,
    T_RANKED,
)

AWARD_NAMES = (
    "high",
    "low",
    "jack",
    "jick",
    "high-joker",
    "low-joker",
    "ten",
    "three",
    "five",
    "game",
)
HIGH, LOW, JACK, JICK, HIGH_JOKER, LOW_JOKER, TEN, THREE, FIVE, GAME = range(10)
N_AWARDS = 10
AWARD_VALUES = np.array([1, 1, 1, 1, 1, 1, 1, 3, 5, 1], dtype=np.int64)
NOBODY, NOT_PLAYED = -1, -2
HJ, LJ = 52, 53


def award_names(rules) -> list[str]:
    """The points ``rules`` (a ``FamilyRules``) award, in ``AWARD_NAMES`` order."""
    have = {
        "high": True,
        "low": True,
        "jack": True,
        "jick": rules.jick,
        "high-joker": rules.jokers >= 1,
        "low-joker": rules.jokers >= 2,
        "ten": rules.game == "ten",
        "three": rules.three,
        "five": rules.five,
        "game": rules.game == "count",
    }
    return [name for name in AWARD_NAMES if have[name]]


@njit(cache=True, inline="always")
def side_of(seat, fr):
    return seat % 2 if fr[F_PARTNERSHIP] != 0 else seat


@njit(cache=True, inline="always")
def _planes(masks, n):
    """Three bit planes of the seat numbers of ``masks[0:n]`` and their union: the seat
    holding card bit ``b`` is then read off without a search (``_seat_of``)."""
    p0 = p1 = p2 = every = np.int64(0)
    for s in range(8):  # (an early exit: a loop over a handful of seats is not vectorized)
        if s == n:
            break
        m = masks[s]
        every |= m
        p0 |= m & -(s & 1)
        p1 |= m & -((s >> 1) & 1)
        p2 |= m & -((s >> 2) & 1)
    return p0, p1, p2, every


@njit(cache=True, inline="always")
def _seat_of(planes, c):
    """The seat whose mask holds card ``c`` (-1: none), from ``_planes``: arithmetic, no
    branch (whether a card was captured, and by whom, is data and mispredicts).  A
    card no mask holds has every plane bit 0, so the ``| -1`` gives -1."""
    p0, p1, p2, every = planes
    b = np.int64(1) << c
    seat = ((p0 & b) != 0) + 2 * ((p1 & b) != 0) + 4 * ((p2 & b) != 0)
    return seat | -np.int64((every & b) == 0)


@njit(cache=True)
def score_hand(held, won, n, trump, fr, tab, award, points):
    """Fill ``award`` (N_AWARDS) and ``points`` (n) for a played hand.  A card's captor
    is read off the planes of the cards won: a card not in play was won by nobody, so
    it reads NOBODY as the module says."""
    _score(held, won, n, trump, fr, tab, award, points, False)


def score_shaped(shape, held, won, n, trump, fr, tab, award, points):
    """``score_hand`` for a preset's ``shape`` (``shape``), a literal: compiled with the
    base game's trumps (``shape.SIMPLE``) as a constant (a call still: inlined into a
    parallel kernel its compile costs more than its call); ``SHAPE_ANY``: ``score_hand``.
    Jitted code only (``_score_shaped``)."""
    raise NotImplementedError("score_shaped is called from jitted code only")


@overload(score_shaped, prefer_literal=True)
def _score_shaped(shape, held, won, n, trump, fr, tab, award, points):
    value = getattr(shape, "literal_value", SHAPE_ANY)
    if not isinstance(shape, types.IntegerLiteral) or value < 0:

        def any_shape(shape, held, won, n, trump, fr, tab, award, points):
            score_hand(held, won, n, trump, fr, tab, award, points)

        return any_shape
    plain = bool(value & SIMPLE)

    def shaped(shape, held, won, n, trump, fr, tab, award, points):
        _score(held, won, n, trump, fr, tab, award, points, plain)

    return shaped


@njit(cache=True, inline="always")
def _score(held, won, n, trump, fr, tab, award, points, plain):
    """``score_hand``; ``plain`` (a constant): the base game's trumps (one printed suit,
    no jick, no jokers, no 10, 3 or 5 to score: ``policies.plain_trumps``)."""
    held, won, fr, tab = borrowed(held), borrowed(won), borrowed(fr), borrowed(tab)
    award, points = borrowed(award), borrowed(points)
    captors = _planes(won, n)
    in_play = np.int64(0)
    for s in range(8):
        if s == n:
            break
        in_play |= held[s]
    for i in range(N_AWARDS):
        award[i] = NOT_PLAYED
    ranked = in_play & tab[trump, T_RANKED]
    award[HIGH] = NOBODY
    award[LOW] = NOBODY
    if ranked:
        # The highest and lowest key: the trump suit's own cards are keyed by rank, so
        # its highest and lowest card; any other ranked trump (the jick) by its key.
        printed = ranked & (SUIT_BITS << (13 * trump))
        others = ranked & ~printed
        if printed:
            hi = highest_card(printed)
            lo = lowest_card(printed)
        else:
            hi = lo = lowest_card(others)
        while others:
            c = lowest_card(others)
            others &= others - 1
            k = tab[trump, T_KEY + c]
            if k > tab[trump, T_KEY + hi]:
                hi = c
            if k < tab[trump, T_KEY + lo]:
                lo = c
        award[HIGH] = _seat_of(captors, hi)
        award[LOW] = _seat_of(_planes(held, n) if fr[F_LOW_DEALT] != 0 else captors, lo)
    base = trump * 13
    award[JACK] = _seat_of(captors, base + 9)
    # (``if plain`` on the constant alone: numba prunes the branch before compiling it)
    if plain:  # none of the points below; Game by count
        game = True
    else:
        if fr[F_JICK] != 0:
            award[JICK] = _seat_of(captors, (3 - trump) * 13 + 9)
        if fr[F_JOKERS] >= 1:
            award[HIGH_JOKER] = _seat_of(captors, HJ)
        if fr[F_JOKERS] >= 2:
            award[LOW_JOKER] = _seat_of(captors, LJ)
        if fr[F_GAME_TEN] != 0:
            award[TEN] = _seat_of(captors, base + 8)
        if fr[F_THREE] != 0:
            award[THREE] = _seat_of(captors, base + 1)
        if fr[F_FIVE] != 0:
            award[FIVE] = _seat_of(captors, base + 3)
        game = fr[F_GAME_TEN] == 0
    partners = fr[F_PARTNERSHIP] != 0
    if game:
        sides = 2 if partners else n
        best = -1
        best_side = -1
        tied = False
        for side in range(8):
            if side == sides:
                break
            count = game_count(won[side])
            if partners:
                count += game_count(won[side + 2])
            # Selects: who leads the count is data-dependent.
            gt = count > best
            tied = (count == best) | (tied & ~gt)
            best_side = side if gt else best_side
            best = count if gt else best
        award[GAME] = NOBODY if tied else best_side
    # Each point to its side: a seat alone, or a team (its seats' parity); selects,
    # since who won each point is data.
    for s in range(8):
        if s == n:
            break
        points[s] = 0
    team0 = team1 = np.int64(0)
    for i in range(N_AWARDS):
        seat = award[i]
        value = AWARD_VALUES[i] & -np.int64(seat >= 0)
        if partners:
            odd = -(seat & 1)
            team1 += value & odd
            team0 += value & ~odd
        else:
            points[seat if seat >= 0 else 0] += value
    if partners:
        for s in range(8):
            if s == n:
                break
            points[s] = team1 if s & 1 else team0
