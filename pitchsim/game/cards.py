"""Cards as integers and hands as int64 bit masks.

A card is ``suit * 13 + rank`` with rank 0 = deuce ... 12 = ace and suits in the
order clubs, diamonds, hearts, spades.  A hand is an int64 whose bit ``card`` is set
when the hand holds that card; 52 bits fit with room to spare, and int64 keeps numba
from mixing signed and unsigned arithmetic.

The rule families with jokers (docs/rules.md, VARIANTS.md 6.1) add the high joker
``HJ`` = 52 and the low joker ``LJ`` = 53, so every card still fits in an int64 mask.
Jokers exist only in a deck that has them: parsing takes the number of jokers in the
deck (``jokers=0`` by default, the base game's 52 cards) and refuses a joker that
is not in it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from enum import IntEnum

from ..util.errors import InputError, quoted

SUITS = "CDHS"
SUIT_SYMBOLS = "♣♦♥♠"
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
RANKS = "23456789TJQKA"
N_CARDS = 52
N_RANKS = 13
HAND_SIZE = 6

TEN, JACK, QUEEN, KING, ACE = 8, 9, 10, 11, 12
# Game points by rank: ten 10, ace 4, king 3, queen 2, jack 1 (the deck totals 80).
GAME_POINTS_BY_RANK = (0, 0, 0, 0, 0, 0, 0, 0, 10, 1, 2, 3, 4)
SUIT_MASK = (1 << N_RANKS) - 1
FULL_DECK = (1 << N_CARDS) - 1
HIGH_JOKER, LOW_JOKER = 52, 53  # "HJ" (red) above "LJ" (black), both always trump
JOKER_NAMES = {HIGH_JOKER: "HJ", LOW_JOKER: "LJ"}
N_CARDS_WITH_JOKERS = 54


class CardError(InputError):
    """A card string or hand that cannot be used; the message names the problem."""


class Suit(IntEnum):
    """A suit, as the int the engines use (``Suit.HEARTS == 2``) but shown by its name.

    >>> Suit(2), str(Suit.HEARTS), Suit.HEARTS.letter, Suit.HEARTS.symbol
    (Suit.HEARTS, 'hearts', 'H', '♥')
    """

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def letter(self) -> str:
        return SUITS[self]

    @property
    def symbol(self) -> str:
        return SUIT_SYMBOLS[self]

    def __str__(self) -> str:
        return SUIT_NAMES[self]

    def __repr__(self) -> str:
        return f"Suit.{self.name}"


def joker_cards(jokers: int) -> list[int]:
    """The jokers of a deck with ``jokers`` of them: a single joker is the high joker."""
    return [HIGH_JOKER, LOW_JOKER][:jokers]


def deck_mask(jokers: int = 0) -> int:
    """All cards of a 52-card pack plus ``jokers`` jokers, as a mask."""
    return FULL_DECK | mask_of(joker_cards(jokers))


def card(rank: int, suit: int) -> int:
    return suit * N_RANKS + rank


def suit_of(c: int) -> int:
    return c // N_RANKS


def rank_of(c: int) -> int:
    return c % N_RANKS


def game_points(c: int) -> int:
    return GAME_POINTS_BY_RANK[rank_of(c)]


def suit_cards(suit: int) -> int:
    """The mask of all 13 cards of ``suit``."""
    return SUIT_MASK << (suit * N_RANKS)


def mask_of(cards: Iterable[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


_EVERY_CARD = (1 << N_CARDS_WITH_JOKERS) - 1


def cards_of(mask: int) -> list[int]:
    """The cards in ``mask``, lowest card number first (jokers, 52 and 53, last)."""
    mask &= _EVERY_CARD  # (bits past the jokers are no cards)
    out = []
    while mask:  # one step a card, not one a card of the pack: the search's hot loop
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


_SUIT_ALIASES = {s: i for i, s in enumerate(SUITS)} | {s: i for i, s in enumerate(SUIT_SYMBOLS)}
_SUIT_ALIASES |= {"♧": 0, "♢": 1, "♡": 2, "♤": 3}
_RANK_ALIASES = {r: i for i, r in enumerate(RANKS)} | {"10": TEN}
_CARD_RE = re.compile(r"(10|[2-9TJQKA])([CDHS♣♦♥♠♧♢♡♤])", re.IGNORECASE)
# Jokers: "HJ"/"LJ" as TricksterBots writes them; no rank letter is H or L, so they
# never clash with a card ("JH" is the jack of hearts).
_JOKER_RE = re.compile(r"(HJ|LJ)", re.IGNORECASE)
_JOKERS = {"HJ": HIGH_JOKER, "LJ": LOW_JOKER}


def _joker(text: str, jokers: int) -> int:
    c = _JOKERS[text.upper()]
    if c not in joker_cards(jokers):
        deck = "no jokers" if jokers == 0 else "one joker, HJ"
        raise CardError(f"{text.upper()} is not in this deck ({deck})")
    return c


def parse_suit(text: str) -> int:
    """``H``, ``h``, ``♥`` or ``hearts`` -> 2."""
    t = text.strip()
    if t.upper() in _SUIT_ALIASES:
        return _SUIT_ALIASES[t.upper()]
    if t in _SUIT_ALIASES:
        return _SUIT_ALIASES[t]
    for i, name in enumerate(SUIT_NAMES):
        if t.lower() in (name, name[:-1]):
            return i
    raise CardError(f"unknown suit {quoted(text)}: use one of C D H S (or ♣ ♦ ♥ ♠)")


def parse_card(text: str, jokers: int = 0) -> int:
    """One card; ``HJ``/``LJ`` only when the deck has that joker (``jokers``)."""
    if _JOKER_RE.fullmatch(text.strip()):
        return _joker(text.strip(), jokers)
    m = _CARD_RE.fullmatch(text.strip())
    if not m:
        raise CardError(
            f"cannot read card {quoted(text)}: expected rank then suit, like AH, 10h, T♥"
        )
    return card(_RANK_ALIASES[m.group(1).upper()], parse_suit(m.group(2)))


def parse_cards(text: str, jokers: int = 0) -> list[int]:
    """Every card in ``text``, in the order typed.

    Accepts ``AH KH 2H``, ``Ah,Kh,2h``, ``10h``/``Th``, suit symbols, and no separators
    at all (``AhKh2h``); ``HJ``/``LJ`` when the deck has that joker (``jokers``).
    Raises :class:`CardError` on anything else or on a duplicate.
    """
    cards: list[int] = []
    pos = 0
    stripped = text.strip()
    while pos < len(stripped):
        ch = stripped[pos]
        if ch in " ,;\t\n":
            pos += 1
            continue
        m = _CARD_RE.match(stripped, pos)
        joker = _JOKER_RE.match(stripped, pos)
        if joker:
            m = joker
            c = _joker(m.group(1), jokers)
        elif not m:
            bad = re.split(r"[\s,;]", stripped[pos:])[0]
            raise CardError(
                f"cannot read card {quoted(bad)}: expected rank then suit, like AH, 10h, T♥"
            )
        else:
            c = card(_RANK_ALIASES[m.group(1).upper()], parse_suit(m.group(2)))
        if c in cards:
            raise CardError(f"duplicate card {format_card(c, symbols=False)}")
        cards.append(c)
        pos = m.end()
    return cards


def parse_hand(text: str, size: int = HAND_SIZE, jokers: int = 0) -> list[int]:
    cards = parse_cards(text, jokers)
    if len(cards) != size:
        raise CardError(f"a hand has exactly {size} cards, got {len(cards)}")
    return cards


def format_card(c: int, symbols: bool = True) -> str:
    """``AH`` style (for JSON) or ``A♥`` (for people, the ten written as people write
    it: ``10♥``, as the browser table draws it); jokers are ``HJ`` and ``LJ``."""
    if c in JOKER_NAMES:
        return JOKER_NAMES[c]
    if symbols:
        return ("10" if rank_of(c) == TEN else RANKS[rank_of(c)]) + SUIT_SYMBOLS[suit_of(c)]
    return RANKS[rank_of(c)] + SUITS[suit_of(c)]


# Every card as JSON writes it (``AH``, ``HJ``) and back: a table's hand writes and reads
# each seat's view at every decision (``table.game.TableDeal.view``), so looked up there
# rather than formatted and parsed card by card.
JSON_TEXTS = tuple(format_card(c, symbols=False) for c in range(N_CARDS_WITH_JOKERS))
JSON_CARDS = {t: c for c, t in enumerate(JSON_TEXTS)}


def sort_for_display(cards: Iterable[int]) -> list[int]:
    """Spades, hearts, clubs, diamonds (alternating colours), high to low within a suit."""
    order = {3: 0, 2: 1, 0: 2, 1: 3, 4: -1}  # jokers (suit_of 4) first
    return sorted(cards, key=lambda c: (order[suit_of(c)], -rank_of(c) if c < N_CARDS else c))


def format_cards(cards: Iterable[int], symbols: bool = True, sort: bool = False) -> str:
    cs = sort_for_display(cards) if sort else list(cards)
    return " ".join(format_card(c, symbols) for c in cs)


def format_suit(suit: int, symbols: bool = True) -> str:
    return SUIT_SYMBOLS[suit] if symbols else SUITS[suit]
