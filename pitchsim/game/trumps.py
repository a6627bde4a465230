"""Per-trump tables for trick play with the jick and jokers, ready for the kernels.

OpenSpiel's Skat answers "which card wins, which may follow" with one integer order key
per card (ANCHORS.md 1); here the key is per (trump suit, card), beside each card's
effective suit (VARIANTS.md 0.4: the jick and the jokers belong to trump) and the masks
that make legality and the trick winner plain mask operations:

- ``trump_mask[t]``: the trumps when ``t`` is trump: the suit, the jick, the jokers;
- ``suit_masks[t, s]``: the cards whose effective suit is ``s`` (so ``suit_masks[t, t]``
  is ``trump_mask[t]``);
- ``eff_suit[t, c]``: card ``c``'s effective suit;
- ``key[t, c]``: its order key: a trump is 16 plus its place in the trump order, any
  other card its rank (0 = deuce ... 12 = ace).  Within trump the order is 2 ... 10
  (16-24), low joker 25, high joker 26, jick 27, J 28, Q 29, K 30, A 31 (VARIANTS.md
  4.7; without jick or jokers those keys are simply unused).  Under five=pedro (11.3,
  12.6) the left pedro ranks between the 4 and the 5 of trump: the 2, 3 and 4 of trump
  then take 15-17 and the left pedro 18, every other key as above.

Scoring stays mask work too: ``capture_values(...)[t, c]`` is what a card carries to
its captor, High and Low are the highest and lowest key among the trumps in play less
the jokers, Game is ``GAME_COUNT`` summed (:func:`score_by_tables`, the kernels' recipe).

Cards are numbered as in :mod:`pitchsim.game.cards` (jokers 52 and 53), masks are int64
with the jokers in bits 52-53.  The tables are written by arithmetic on purpose, apart
from the reference engine's clause-by-clause trump order, so that tests comparing the two
mean something.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .cards import (
    GAME_POINTS_BY_RANK,
    HIGH_JOKER,
    JACK,
    LOW_JOKER,
    N_CARDS,
    N_CARDS_WITH_JOKERS,
    N_RANKS,
)

TRUMP_BASE = 16  # a trump's key is at least this (15 under five=pedro); any other card's
# is its rank, below it
KEY_LOW_JOKER, KEY_HIGH_JOKER, KEY_JICK = 25, 26, 27
KEY_LEFT_PEDRO = 18  # under five=pedro, the 2, 3 and 4 of trump keyed 15-17 below it
FIVE_RANK = 3
FOLLOW_TRUMP, FOLLOW_SUIT, FOLLOW_ONLY = 0, 1, 2  # the follow option as the kernels will read it


class TrumpTables(NamedTuple):
    trump_mask: np.ndarray  # (4,) int64
    suit_masks: np.ndarray  # (4, 4) int64
    eff_suit: np.ndarray  # (4, 54) int64
    key: np.ndarray  # (4, 54) int64


def jick_card(trump: int) -> int:
    """The jack of the other suit of trump's colour: clubs<->spades, diamonds<->hearts."""
    return (3 - trump) * N_RANKS + JACK


def left_pedro_card(trump: int) -> int:
    """The 5 of the other suit of trump's colour (12.6)."""
    return (3 - trump) * N_RANKS + FIVE_RANK


def trump_tables(jokers: int, jick: bool, pedro: bool = False) -> TrumpTables:
    """The tables for a deck with ``jokers`` jokers (0-2), the jick a trump or not, and
    under ``pedro`` (five=pedro) the left pedro a trump just below the 5 of trump."""
    cards = np.arange(N_CARDS_WITH_JOKERS)
    suit = np.minimum(cards // N_RANKS, 3)  # jokers get a placeholder, overwritten below
    rank = cards % N_RANKS
    present = cards < N_CARDS + jokers  # a single joker is the high joker, card 52
    eff = np.empty((4, N_CARDS_WITH_JOKERS), dtype=np.int64)
    key = np.empty((4, N_CARDS_WITH_JOKERS), dtype=np.int64)
    for t in range(4):
        is_jick = (cards == jick_card(t)) & jick
        is_pedro = (cards == left_pedro_card(t)) & pedro
        is_joker = cards >= N_CARDS
        trump = ((suit == t) & (cards < N_CARDS)) | is_jick | is_pedro | is_joker
        eff[t] = np.where(trump, t, suit)
        plain_trump_key = TRUMP_BASE + rank + 3 * (rank >= JACK) - (pedro & (rank < FIVE_RANK))
        key[t] = np.where(trump & ~is_jick & ~is_pedro & ~is_joker, plain_trump_key, rank)
        key[t, is_jick] = KEY_JICK
        key[t, is_pedro] = KEY_LEFT_PEDRO
        key[t, HIGH_JOKER] = KEY_HIGH_JOKER
        key[t, LOW_JOKER] = KEY_LOW_JOKER
    bits = np.left_shift(np.int64(1), cards.astype(np.int64))
    suit_masks = np.zeros((4, 4), dtype=np.int64)
    for t in range(4):
        for s in range(4):
            suit_masks[t, s] = np.bitwise_or.reduce(np.where(present & (eff[t] == s), bits, 0))
    trump_mask = suit_masks[np.arange(4), np.arange(4)].copy()
    return TrumpTables(trump_mask, suit_masks, eff, key)


def legal_mask(tables: TrumpTables, hand: int, trick: list[int], trump: int, follow: int) -> int:
    """The cards of ``hand`` that may follow to ``trick`` (non-empty), as mask operations:
    the led card's effective suit, then follow suit (or trump, under ``FOLLOW_TRUMP``);
    a void player plays anything.  Under ``FOLLOW_ONLY`` only trumps are played."""
    trumps = hand & int(tables.trump_mask[trump])
    if follow == FOLLOW_ONLY:
        return trumps
    led = int(tables.eff_suit[trump, trick[0]])
    have = hand & int(tables.suit_masks[trump, led])
    if not have:
        return hand
    return have if follow == FOLLOW_SUIT else have | trumps


def trick_winner_by_key(tables: TrumpTables, trick: list[int], trump: int) -> int:
    """Index of the winning card: the highest key among trumps and cards of the led
    (effective) suit; any trump's key is above every other card's."""
    led = tables.eff_suit[trump, trick[0]]
    best, best_key = 0, -1
    for i, c in enumerate(trick):
        e = tables.eff_suit[trump, c]
        k = tables.key[trump, c] if e == trump or e == led else -1
        if k > best_key:
            best, best_key = i, k
    return best


JOKER_MASK = (1 << HIGH_JOKER) | (1 << LOW_JOKER)
# Game count per card (0.8): 10 for a ten, 4 ace, 3 king, 2 queen, 1 jack; jokers 0.
GAME_COUNT = np.array(
    [GAME_POINTS_BY_RANK[c % N_RANKS] if c < N_CARDS else 0 for c in range(N_CARDS_WITH_JOKERS)],
    dtype=np.int64,
)


def capture_values(jokers: int, jick: bool, ten: bool, three: bool, five: bool | str) -> np.ndarray:
    """``value[t, c]``: the points card ``c`` carries to its captor when ``t`` is trump,
    beside High, Low and Game (VARIANTS.md 0.7, 4.10): the jack 1, the jick 1, each
    joker 1, the 10 (``game=ten``) 1, the 3 (``three``) 3, the 5 (``five``) 5, and under
    ``five="pedro"`` the left pedro 5 too (12.6)."""
    value = np.zeros((4, N_CARDS_WITH_JOKERS), dtype=np.int64)
    for t in range(4):
        base = t * N_RANKS
        value[t, base + JACK] = 1
        if jick:
            value[t, jick_card(t)] = 1
        value[t, N_CARDS : N_CARDS + jokers] = 1
        value[t, base + 8] += ten  # rank 8 is the ten
        value[t, base + 1] += 3 * three  # rank 1 is the 3
        value[t, base + 3] += 5 * bool(five)  # rank 3 is the 5
        if five == "pedro":
            value[t, left_pedro_card(t)] = 5
    return value


def score_by_tables(
    tables: TrumpTables,
    values: np.ndarray,
    held: list[int],
    won: list[int],
    trump: int,
    low_dealt: bool,
    game_count: bool,
    team: list[int],
) -> list[int]:
    """Points per seat (partners carrying their team's) as the kernels will score a hand:
    High and Low by the order key among the trumps in play less the jokers, the capture
    values of the cards each side won, and Game by count."""
    n = len(held)
    in_play = 0
    for h in held:
        in_play |= h
    side = [0] * n  # points per side, indexed by team number
    ranked = in_play & int(tables.trump_mask[trump]) & ~JOKER_MASK
    if ranked:
        cards = [c for c in range(N_CARDS) if ranked >> c & 1]
        high = max(cards, key=lambda c: tables.key[trump, c])
        low = min(cards, key=lambda c: tables.key[trump, c])
        side[team[_owner(won, high)]] += 1
        side[team[_owner(held if low_dealt else won, low)]] += 1
    for seat, w in enumerate(won):
        side[team[seat]] += int(
            sum(values[trump, c] for c in range(N_CARDS_WITH_JOKERS) if w >> c & 1)
        )
    if game_count:
        counts: dict[int, int] = {}
        for seat, w in enumerate(won):
            counts[team[seat]] = counts.get(team[seat], 0) + int(
                sum(GAME_COUNT[c] for c in range(N_CARDS_WITH_JOKERS) if w >> c & 1)
            )
        best = max(counts.values())
        leaders = [s for s, v in counts.items() if v == best]
        if len(leaders) == 1:
            side[leaders[0]] += 1
    return [side[team[seat]] for seat in range(n)]


def _owner(masks: list[int], c: int) -> int:
    return next(seat for seat, m in enumerate(masks) if m >> c & 1)
