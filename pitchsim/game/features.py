"""Hand features a Pitch player reasons with, computed from hand masks with numpy.

Everything here works on whole arrays at once (one entry per deal): a hand is an int64
mask (bit ``suit * 13 + rank``), trump a suit 0-3.  The trump *holding* is the 13-bit
mask of trump ranks held (bit 0 = deuce ... bit 12 = ace); most features are read off
it through small lookup tables, so a million deals take a few milliseconds.

>>> from pitchsim.game.cards import mask_of, parse_cards
>>> hand = np.array([mask_of(parse_cards("AH JH 2H TC 9D 3S"))])
>>> f = hand_features(hand, np.array([2]))
>>> int(f["trump_count"][0]), format_holding(int(f["trump_ranks"][0]))
(3, 'A-J-2')
>>> int(f["off_tens"][0]), int(f["game_held"][0])
(1, 15)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from ..util.errors import InputError
from .cards import GAME_POINTS_BY_RANK, N_RANKS, RANKS, SUIT_MASK, SUITS

DEUCE, TEN, JACK, QUEEN, KING, ACE = 0, 8, 9, 10, 11, 12
HOLDINGS = 1 << N_RANKS  # every subset of the 13 trump ranks

# Masks across all four suits, one per rank: bit (suit * 13 + rank) for every suit.
RANK_MASKS = np.array(
    [sum(1 << (s * N_RANKS + r) for s in range(4)) for r in range(N_RANKS)], dtype=np.int64
)
SUIT_MASKS = np.array([SUIT_MASK << (s * N_RANKS) for s in range(4)], dtype=np.int64)

# Lookup tables indexed by a trump holding (0 .. 8191).
_ALL = np.arange(HOLDINGS, dtype=np.int64)
HOLDING_COUNT = np.bitwise_count(_ALL).astype(np.uint8)
HOLDING_HIGH = np.array([h.bit_length() - 1 for h in range(HOLDINGS)], dtype=np.int8)
HOLDING_LOW = np.array([(h & -h).bit_length() - 1 for h in range(HOLDINGS)], dtype=np.int8)
HOLDING_GAME = sum(  # game points of one suit's cards; a whole deck's 80 fit in uint8
    ((_ALL >> r & 1) * pts for r, pts in enumerate(GAME_POINTS_BY_RANK)), np.zeros(HOLDINGS)
).astype(np.uint8)

# Ranks written as "x" in a holding pattern: 3 to 9, the cards that rarely decide a point
# (the deuce is a sure Low, the ten is Game's big card, J Q K A win tricks or are Jack).
SMALL_RANKS = sum(1 << r for r in range(1, 8))
_PATTERN_KEEP = (HOLDINGS - 1) & ~SMALL_RANKS


def hand_features(hand: np.ndarray, trump: np.ndarray) -> dict[str, np.ndarray]:
    """What the pitcher can see in his own hand once trump is chosen, per deal.

    Returns compactly typed arrays: ``trump_count`` (uint8), ``trump_ranks`` (uint16,
    the holding), ``high_trump`` / ``low_trump`` (int8 rank, -1 without trump),
    ``off_aces`` / ``off_tens`` (uint8, outside trump) and ``game_held`` (uint8, game
    points in the whole hand).
    """
    hand = np.asarray(hand, dtype=np.int64)
    trump = np.asarray(trump, dtype=np.int64)
    holding = (hand >> (trump * N_RANKS)) & SUIT_MASK
    off_trump = hand & ~SUIT_MASKS[trump]
    return {
        "trump_count": HOLDING_COUNT[holding],
        "trump_ranks": holding.astype(np.uint16),
        "high_trump": HOLDING_HIGH[holding],
        "low_trump": HOLDING_LOW[holding],
        "off_aces": np.bitwise_count(off_trump & RANK_MASKS[ACE]).astype(np.uint8),
        "off_tens": np.bitwise_count(off_trump & RANK_MASKS[TEN]).astype(np.uint8),
        "game_held": game_points(hand),
    }


def game_points(masks: np.ndarray) -> np.ndarray:
    """Game points in each mask (ten 10, ace 4, king 3, queen 2, jack 1), as uint8."""
    masks = np.asarray(masks, dtype=np.int64)
    total = HOLDING_GAME[masks & SUIT_MASK]
    for suit in range(1, 4):
        total += HOLDING_GAME[(masks >> (suit * N_RANKS)) & SUIT_MASK]
    return total


def in_play_features(in_play: np.ndarray, trump: np.ndarray) -> dict[str, np.ndarray]:
    """What the whole table was dealt, known only after the hand: ``jack_dealt`` (bool),
    ``trumps_dealt`` and ``game_dealt`` (uint8)."""
    in_play = np.asarray(in_play, dtype=np.int64)
    trump = np.asarray(trump, dtype=np.int64)
    jack = (in_play >> (trump * N_RANKS + JACK)) & 1
    return {
        "jack_dealt": jack.astype(bool),
        "trumps_dealt": np.bitwise_count(in_play & SUIT_MASKS[trump]).astype(np.uint8),
        "game_dealt": game_points(in_play),
    }


# ---- holdings as people write them -------------------------------------------------


def rank_label(rank: int) -> str:
    """0..12 -> "2".."10", "J", "Q", "K", "A" (the ten written as people write it)."""
    return "10" if rank == TEN else RANKS[rank]


def format_holding(holding: int) -> str:
    """13-bit trump holding -> ``"A-J-2"`` (high to low; ``"-"`` when empty)."""
    ranks = [rank_label(r) for r in range(N_RANKS - 1, -1, -1) if holding >> r & 1]
    return "-".join(ranks) if ranks else "-"


def pattern_code(holding):
    """A holding with its 3s-9s counted rather than named: code = kept bits + 8192 * x."""
    holding = np.asarray(holding, dtype=np.int64)
    small = np.bitwise_count(holding & SMALL_RANKS).astype(np.int64)
    return (holding & _PATTERN_KEEP) + HOLDINGS * small


def format_pattern(code: int) -> str:
    """Pattern code -> ``"A-10-x-x-2"``: the named ranks high to low, an x per 3-9."""
    kept, small = code % HOLDINGS, code // HOLDINGS
    parts = [rank_label(r) for r in range(N_RANKS - 1, TEN - 1, -1) if kept >> r & 1]
    parts += ["x"] * small
    if kept & 1:
        parts.append("2")
    return "-".join(parts) if parts else "-"


def parse_holding(text: str) -> tuple[str, int]:
    """``"A-J-2"`` -> ("holding", mask); ``"A-x-x"`` -> ("pattern", code).

    Ranks may be separated by dashes, spaces or nothing (``AJ2``, ``A J 2``); ``10`` and
    ``T`` are the ten.  A holding with no 3-9 in it names exactly one pattern, so both
    spellings find the same deals.
    """
    t = text.strip().upper().replace("10", "T")
    tokens = [c for c in t if c not in " -,"]
    if not tokens:
        raise InputError(f"empty trump holding {text!r}: write it like A-J-2 or A-x-x")
    holding, small = 0, 0
    for c in tokens:
        if c == "X":
            small += 1
            continue
        if c not in RANKS:
            raise InputError(
                f"cannot read trump holding {text!r}: {c!r} is not a rank (2-9, T, J, Q, K, A, x)"
            )
        r = RANKS.index(c)
        if holding >> r & 1:
            raise InputError(f"trump holding {text!r} names {c} twice")
        holding |= 1 << r
    if bin(holding).count("1") + small > 6:
        raise InputError(f"trump holding {text!r} has more than six cards")
    if small + bin(holding & SMALL_RANKS).count("1") > 7:
        raise InputError(f"trump holding {text!r} has more than seven cards from 3 to 9")
    if small == 0 and holding & SMALL_RANKS:
        return "holding", holding
    return "pattern", int(pattern_code(holding)) + HOLDINGS * small


# ---- key trumps: the bidding chart's rows ------------------------------------------

# The highest trump (A, K, Q, J or lower), then whether the jack and the deuce are held.
TOPS = ("A", "K", "Q", "J", "≤10")


def key_trumps_code(holding):
    """Code 0..19 = top * 4 + jack * 2 + deuce, where top 0..4 indexes :data:`TOPS`."""
    holding = np.asarray(holding, dtype=np.int64)
    high = HOLDING_HIGH[holding].astype(np.int64)
    top = np.clip(ACE - high, 0, 4)
    jack = (holding >> JACK) & 1
    deuce = holding & 1
    return top * 4 + jack * 2 + deuce


def format_key_trumps(code: int) -> str:
    """``"A J 2"``, ``"K 2"``, ``"≤10"``...: top trump, then J and 2 when held."""
    top, jack, deuce = code // 4, code // 2 % 2, code % 2
    parts = [TOPS[top]]
    if jack and TOPS[top] != "J":
        parts.append("J")
    if deuce:
        parts.append("2")
    return " ".join(parts)


def key_trumps_possible(code: int) -> bool:
    """Whether any holding has this key-trumps code (a J top means the jack is held)."""
    top, jack = code // 4, code // 2 % 2
    if TOPS[top] == "J":
        return bool(jack)
    if TOPS[top] == "≤10":
        return not jack
    return True


# ---- features by name: what tables group deals by (``pitchsim table --by``) ---------


@dataclass(frozen=True)
class Feature:
    """A way to split deals: ``code`` maps part columns to ints 0..size-1, ``label``
    turns a code into what a table shows, ``order`` sorts codes for display."""

    name: str
    help: str
    columns: tuple[str, ...]
    size: int
    code: Callable[[dict[str, np.ndarray]], np.ndarray]
    label: Callable[[int], object]
    order: Callable[[np.ndarray], np.ndarray] = lambda c: c


def _ranks(cols):
    return cols["trump_ranks"].astype(np.int64)


def _holds(rank: int, what: str) -> Feature:
    return Feature(
        what,
        f"holds the {what} of trump",
        ("trump_ranks",),
        2,
        lambda c: (_ranks(c) >> rank) & 1,
        lambda v: bool(v),
    )


def _count(name, column, size, help) -> Feature:
    return Feature(name, help, (column,), size, lambda c: c[column].astype(np.int64), int)


def _holding_order(codes):
    return HOLDING_COUNT[codes].astype(np.int64) * HOLDINGS + (HOLDINGS - 1 - codes)


def _pattern_order(codes):
    kept, small = codes % HOLDINGS, codes // HOLDINGS
    length = HOLDING_COUNT[kept].astype(np.int64) + small
    return (length * HOLDINGS + (HOLDINGS - 1 - kept)) * 8 + (7 - small)


FEATURES: dict[str, Feature] = {
    f.name: f
    for f in (
        Feature("players", "players at the table", (), 8, None, int),
        _count("length", "trump_count", 7, "trumps held (trump length)"),
        Feature(
            "high",
            "highest trump held",
            ("trump_ranks",),
            13,
            lambda c: HOLDING_HIGH[_ranks(c)].astype(np.int64),
            rank_label,
            lambda c: -c,
        ),
        Feature(
            "low",
            "lowest trump held",
            ("trump_ranks",),
            13,
            lambda c: HOLDING_LOW[_ranks(c)].astype(np.int64),
            rank_label,
            lambda c: -c,
        ),
        Feature(
            "holding",
            "the exact trump holding, e.g. A-J-2",
            ("trump_ranks",),
            HOLDINGS,
            _ranks,
            format_holding,
            _holding_order,
        ),
        Feature(
            "pattern",
            "the trump holding with 3s-9s as x, e.g. A-J-x-2",
            ("trump_ranks",),
            HOLDINGS * 8,
            lambda c: pattern_code(_ranks(c)),
            format_pattern,
            _pattern_order,
        ),
        Feature(
            "keys",
            "key trumps: highest trump (A K Q J or lower), jack held, deuce held",
            ("trump_ranks",),
            20,
            lambda c: key_trumps_code(_ranks(c)),
            format_key_trumps,
        ),
        _holds(ACE, "ace"),
        _holds(KING, "king"),
        _holds(QUEEN, "queen"),
        _holds(JACK, "jack"),
        _holds(TEN, "ten"),
        _holds(DEUCE, "deuce"),
        Feature(
            "trump",
            "the trump suit (C D H S)",
            ("trump",),
            4,
            lambda c: c["trump"].astype(np.int64),
            lambda v: SUITS[v],
        ),
        _count("off_aces", "off_aces", 7, "aces held outside trump"),
        _count("off_tens", "off_tens", 7, "tens held outside trump"),
        _count("game_held", "game_held", 81, "game points in the pitcher's hand"),
        Feature(
            "jack_dealt",
            "(after the deal) the jack of trump was in play",
            ("jack_dealt",),
            2,
            lambda c: c["jack_dealt"].astype(np.int64),
            lambda v: bool(v),
        ),
        _count("trumps_dealt", "trumps_dealt", 43, "(after the deal) trumps in play"),
    )
}


def parse_features(spec: str | Sequence[str] | None) -> list[str]:
    """``"length,high"`` -> ["length", "high"], checking every name."""
    if spec is None:
        return []
    names = [s.strip() for s in spec.split(",")] if isinstance(spec, str) else list(spec)
    names = [n.replace("-", "_") for n in names if n]
    for n in names:
        if n not in FEATURES:
            raise InputError(f"unknown feature {n!r} (known: {', '.join(FEATURES)})")
    if len(set(names)) != len(names):
        raise InputError(f"feature list {spec!r} names a feature twice")
    return [n for n in names if n != "players"]
