"""Every point of a family hand and who gets it (VARIANTS.md 0.7, 0.8, 4.10).

``award[i]`` is the seat credited with point ``i`` of ``AWARD_NAMES`` (-1: nobody,
the card not in play or Game tied; -2: no such point under these rules), as the
reference engine's ``score_hand`` names them:

- High: the highest trump in play by the order key, never a joker; its captor.
- Low: the lowest such trump; its captor, or its holder under low=dealt (held = the
  hands when the first card is led, 0.6).
- jack, jick, high joker, low joker, the 10 (game=ten), the 3 (three=true, 3 points),
  the 5 (five=true, 5 points; under five=pedro the right pedro), the left pedro
  (five=pedro, 5 points, 12.6): their captors when in play.
- Game (game=count): the single highest count of the cards a side captured (jokers
  count 0, or each a half under joker-game=half: the doubled scale); a tie, all zero
  included, gives it to nobody.  The seat credited is the lowest seat of the side (the
  team number under partnership).

``points[seat]`` is what the seat's side won (partners carry their team's points).
Under a called partner (12.1.6) the sides of the hand are the pitcher with his partner
(``partner``, -1: he plays alone) and all the others: each pools its Game count and
its points, Game credited to the lowest seat of its side, as the reference's
``sides_of``.
"""

import numpy as np
from numba import njit

from .bits import SUIT_BITS, game_tally, highest_card, lowest_card, popcount
from .borrow import borrowed
from .presets import (
    F_FIVE,
    F_GAME_TEN,
    F_JICK,
    F_JOKER_GAME,
    F_JOKERS,
    F_LOW_DEALT,
    F_PARTNER,
    F_PARTNERSHIP,
    F_THREE,
    FIVE_PEDRO,
    T_RANKED,
)
from .trump_order import trump_ends

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
    "left-pedro",
)
HIGH, LOW, JACK, JICK, HIGH_JOKER, LOW_JOKER, TEN, THREE, FIVE, GAME, LEFT_PEDRO = range(11)
N_AWARDS = 11
AWARD_VALUES = np.array([1, 1, 1, 1, 1, 1, 1, 3, 5, 1, 5], dtype=np.int64)
NOBODY, NOT_PLAYED = -1, -2
HJ, LJ = 52, 53


def award_names(rules) -> list[str]:
    """The points ``rules`` award, in ``AWARD_NAMES`` order."""
    have = {
        "high": True,
        "low": True,
        "jack": True,
        "jick": rules.jick,
        "high-joker": rules.jokers >= 1,
        "low-joker": rules.jokers >= 2,
        "ten": rules.game == "ten",
        "three": rules.three,
        "five": rules.five is not False,
        "game": rules.game == "count",
        "left-pedro": rules.five == "pedro",
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


@njit(cache=True, inline="always")
def _start(held, won, n, award):
    """What every scoring of a hand begins with: the captors' planes, the cards in play
    (``held``: the hands when the first card was led), every award not played yet."""
    captors = _planes(won, n)
    in_play = np.int64(0)
    for s in range(8):
        if s == n:
            break
        in_play |= held[s]
    for i in range(N_AWARDS):
        award[i] = NOT_PLAYED
    award[HIGH] = NOBODY
    award[LOW] = NOBODY
    return captors, in_play


@njit(cache=True, inline="always")
def _game_side(won, n, partners, half):
    """Game (game=count): the side with the single highest count of the cards it
    captured, its lowest seat (the team number under partnership); NOBODY on a tie.
    ``half``: joker-game=half's doubled scale (12.10)."""
    sides = 2 if partners else n
    best = -1
    best_side = -1
    tied = False
    for side in range(8):
        if side == sides:
            break
        count = game_tally(won[side], half)
        if partners:
            count += game_tally(won[side + 2], half)
        # Selects: who leads the count is data-dependent.
        gt = count > best
        tied = (count == best) | (tied & ~gt)
        best_side = side if gt else best_side
        best = count if gt else best
    return NOBODY if tied else best_side


@njit(cache=True)
def score_hand(held, won, n, trump, fr, tab, award, points, pitcher, partner):
    """Fill ``award`` (N_AWARDS) and ``points`` (n) for a played hand.  A card's captor
    is read off the planes of the cards won: a card not in play was won by nobody, so
    it reads NOBODY as the module says.  ``pitcher`` and ``partner`` (-1: none) are read
    only under a called partner (12.1.6)."""
    held, won, fr, tab = borrowed(held), borrowed(won), borrowed(fr), borrowed(tab)
    award, points = borrowed(award), borrowed(points)
    _card_awards(held, won, n, trump, fr, tab, award)
    if fr[F_PARTNER] != 0:
        _two_sides(won, n, pitcher, partner, fr, award, points)
        return
    partners = fr[F_PARTNERSHIP] != 0
    if fr[F_GAME_TEN] == 0:  # (12.10: joker-game=half's doubled scale, a joker 1 on it)
        award[GAME] = _game_side(won, n, partners, fr[F_JOKER_GAME] != 0)
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


# The awards worth 3 and 5 (``AWARD_VALUES``; every other is worth 1), as flag masks.
WORTH_3 = np.int64(sum(1 << i for i in range(N_AWARDS) if AWARD_VALUES[i] == 3))
WORTH_5 = np.int64(sum(1 << i for i in range(N_AWARDS) if AWARD_VALUES[i] == 5))
assert set(AWARD_VALUES.tolist()) == {1, 3, 5}


@njit(cache=True, inline="always")
def flags_points(flags):
    """The points of the awards whose bits (``AWARD_NAMES`` order) ``flags`` sets: a
    side's points from its flags (``side_flags_of``), without a called partner."""
    return popcount(flags) + 2 * popcount(flags & WORTH_3) + 4 * popcount(flags & WORTH_5)


ABSENT = 63  # no card: bit 63 of a card mask is never set, so nobody holds or took it


@njit(cache=True, inline="always")
def _award_cards(in_play, trump, fr, tab):
    """The card of each award, in ``AWARD_NAMES`` order: High's and Low's (ABSENT when
    no trump that can be either is in play: nobody's), the jack, the jick, the jokers,
    the 10, the 3, the 5 and the left pedro; ABSENT for a point these rules lack, and
    for Game (a count, not a card)."""
    hi = lo = np.int64(ABSENT)
    ranked = in_play & tab[trump, T_RANKED]
    if ranked:
        # The highest and lowest key: the trump suit's own cards are keyed by rank, so
        # its highest and lowest card; with a jick or a left pedro, the highest and
        # lowest in trump order (``kernels.trump_order``: the order of the keys), one
        # bit scan each.
        if (fr[F_JICK] != 0) | (fr[F_FIVE] == FIVE_PEDRO):
            hi, lo = trump_ends(ranked, trump)
        else:
            hi = highest_card(ranked)
            lo = lowest_card(ranked)
    base = trump * 13
    other = (3 - trump) * 13  # the other suit of trump's colour
    no = np.int64(ABSENT)
    return (
        hi,
        lo,
        base + 9,
        other + 9 if fr[F_JICK] != 0 else no,
        np.int64(HJ) if fr[F_JOKERS] >= 1 else no,
        np.int64(LJ) if fr[F_JOKERS] >= 2 else no,
        base + 8 if fr[F_GAME_TEN] != 0 else no,
        base + 1 if fr[F_THREE] != 0 else no,
        base + 3 if fr[F_FIVE] != 0 else no,
        no,
        other + 3 if fr[F_FIVE] == FIVE_PEDRO else no,
    )


@njit(cache=True, inline="always")
def _card_awards(held, won, n, trump, fr, tab, award):
    """Every award but Game (game=count): ``award`` as the module says, Game left
    NOT_PLAYED."""
    captors, in_play = _start(held, won, n, award)
    cards = _award_cards(in_play, trump, fr, tab)
    award[HIGH] = _seat_of(captors, cards[HIGH])
    award[LOW] = _seat_of(_planes(held, n) if fr[F_LOW_DEALT] != 0 else captors, cards[LOW])
    for i in range(JACK, N_AWARDS):
        if cards[i] != ABSENT:
            award[i] = _seat_of(captors, cards[i])


@njit(cache=True, inline="always")
def side_flags_of(held, won, n, trump, fr, tab, mine):
    """Bit i set when side ``mine`` (``side_of``) won award i (``AWARD_NAMES``), read
    off the cards alone, without a seat for each award: the side took the award's card
    (held it, for Low under low=dealt), or had Game's count.  The flags of
    ``score_hand``'s awards, inlined into the hand kernels, for rules without a called
    partner (12.1.6 pools Game by the hand's sides: ``score_hand``); the side's points
    are then ``flags_points``."""
    return side_awards_of(held, won, n, trump, fr, tab, mine)[0]


@njit(cache=True, inline="always")
def side_awards_of(held, won, n, trump, fr, tab, mine):
    """``side_flags_of``'s flags, and beside them the awards anybody took (``score_hand``
    credits a seat) and the awards these rules score (not NOT_PLAYED), as flags: what a
    study run's columns record for the pitcher's side, with no seat scored
    (``sample.record_columns``).  Each set is within the next."""
    partners = fr[F_PARTNERSHIP] != 0
    ours = held_ours = in_play = taken = np.int64(0)
    for s in range(8):
        if s == n:
            break
        in_play |= held[s]
        taken |= won[s]
        if side_of(s, fr) == mine:
            ours |= won[s]
            held_ours |= held[s]
    cards = _award_cards(in_play, trump, fr, tab)
    flags = anybody = np.int64(0)
    scored = np.int64((1 << HIGH) | (1 << LOW))
    for i in range(N_AWARDS):
        flags |= ((ours >> cards[i]) & 1) << i
        anybody |= ((taken >> cards[i]) & 1) << i
        if i >= JACK:
            scored |= np.int64(cards[i] != ABSENT) << i
    if fr[F_LOW_DEALT] != 0:
        low = ~(np.int64(1) << LOW)
        flags = flags & low | ((held_ours >> cards[LOW]) & 1) << LOW
        anybody = anybody & low | ((in_play >> cards[LOW]) & 1) << LOW
    if fr[F_GAME_TEN] == 0:
        game = _game_side(won, n, partners, fr[F_JOKER_GAME] != 0)
        flags |= np.int64(game == mine) << GAME
        anybody |= np.int64(game != NOBODY) << GAME
        scored |= np.int64(1) << GAME
    return flags, anybody, scored


PLAIN_AWARDS = (HIGH, LOW, JACK, GAME)  # the base game's four points (0.7)


@njit(cache=True, inline="always")
def score_plain(held, won, n, trump, fr, award):
    """``score_hand``'s ``award`` under the base game's trumps and points
    (``policies.plain_trumps``: High, Low, Jack and Game by count, the trump suit
    alone; no called partner, as ``plain.plain_base``), inlined into the base game's
    hand kernels: the same seats, with no test of the points the preset lacks and no
    call.  Each point is worth 1, so the points of a side are a count of its
    ``side_flags``."""
    captors, in_play = _start(held, won, n, award)
    trumps = in_play & (SUIT_BITS << (13 * trump))
    if trumps:
        award[HIGH] = _seat_of(captors, highest_card(trumps))
        dealt_low = fr[F_LOW_DEALT] != 0
        award[LOW] = _seat_of(_planes(held, n) if dealt_low else captors, lowest_card(trumps))
    award[JACK] = _seat_of(captors, trump * 13 + 9)
    award[GAME] = _game_side(won, n, fr[F_PARTNERSHIP] != 0, False)


@njit(cache=True, inline="always")
def plain_points(award, n, fr, points):
    """``score_hand``'s ``points`` from ``score_plain``'s awards: each of the base
    game's four points is worth 1 to its seat's side (its team, the seat's parity, under
    partnership; Game is credited to the team number there, of the same parity)."""
    partners = fr[F_PARTNERSHIP] != 0
    for s in range(8):
        if s == n:
            break
        points[s] = 0
    for i in PLAIN_AWARDS:
        seat = award[i]
        if seat >= 0:
            if partners:
                for s in range(seat & 1, n, 2):
                    points[s] += 1
            else:
                points[seat] += 1


@njit(cache=True)
def _two_sides(won, n, pitcher, partner, fr, award, points):
    """Game and the points under a called partner (12.1.6): the pitcher's side (he and
    ``partner``, -1: alone) and the others' each pool their counts and points; Game
    to the side with the higher count (a tie: nobody), credited to its lowest seat."""
    ours = np.int64(1) << pitcher
    if partner >= 0:
        ours |= np.int64(1) << partner
    # (scalars, not arrays of two: no allocation a hand)
    if fr[F_GAME_TEN] == 0:
        half = fr[F_JOKER_GAME] != 0
        mine = others = np.int64(0)
        for s in range(n):
            count = game_tally(won[s], half)
            if (ours >> s) & 1:
                mine += count
            else:
                others += count
        award[GAME] = NOBODY
        if mine > others:
            award[GAME] = min(pitcher, partner) if partner >= 0 else pitcher
        elif others > mine:
            award[GAME] = lowest_card(~ours)  # the lowest seat not on the pitcher's side
    mine = others = np.int64(0)
    for i in range(N_AWARDS):
        seat = award[i]
        if seat >= 0:
            if (ours >> seat) & 1:
                mine += AWARD_VALUES[i]
            else:
                others += AWARD_VALUES[i]
    for s in range(n):
        points[s] = mine if (ours >> s) & 1 else others
