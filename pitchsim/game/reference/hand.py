"""The play of one hand under every preset, from the first lead to its score (docs/rules.md
"The play", 0.5, 0.6, 3.7, 4.9, 6.3.5, 12.1), in plain Python.

It is the specification the numba kernels are tested against, so it favours being
obviously right over being fast.  Seats are numbered clockwise 0..n-1; play goes
clockwise, so the player after ``seat`` is ``(seat + 1) % n``.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from pitchsim.game.cards import HAND_SIZE, N_CARDS_WITH_JOKERS, format_card, mask_of, suit_of
from pitchsim.game.reference.deal import pack
from pitchsim.game.reference.partner import known_partner as partner_known_to
from pitchsim.game.reference.partner import partner_of
from pitchsim.game.reference.score import HandScore, score_hand, sides_of
from pitchsim.game.reference.tricks import (
    effective_suit,
    legal_cards,
    shows_void,
    trick_winner,
    trumps_in,
)
from pitchsim.game.rules import Rules

TRICKS = HAND_SIZE  # the base game: every player plays all six cards, six tricks


@dataclass(frozen=True)
class View:
    """Everything ``seat`` can see when choosing a card; never another player's hand."""

    seat: int
    hand: int  # own cards still held, bit mask
    legal: int  # the cards the rules allow now, bit mask (a subset of ``hand``)
    players: int
    pitcher: int
    bid: int  # the pitcher's bid (0 when the caller did not say)
    # -1 until the opening lead fixes it under trump=first-lead (the pitcher's own plan,
    # ``lead_suit``, he sees before leading it); the named suit under trump=named
    trump: int
    trick_no: int  # 0, 1, ...
    leader: int  # the seat that led this trick
    trick: tuple[int, ...]  # cards played so far in this trick, from the leader on
    played: int  # cards of completed tricks (not the current trick)
    won: tuple[int, ...]  # per seat, cards captured so far (tricks are public)
    rules: Rules
    # per seat, the cards it has played this hand (completed tricks and this trick)
    played_by: tuple[int, ...]
    # bit 4 * seat + suit: that seat has shown it holds none of that suit (shows_void)
    voids: int
    # 12.1: the card the pitcher called (-1: none), heard by all; and the pitcher's
    # partner as ``seat`` knows him: None while unknown to ``seat``, else the partner's
    # seat, the pitcher's own when he is known to play alone (12.1.5).  Under called
    # only the partner (and a pitcher holding his own call) know before the card is
    # played (12.1.2, 12.1.3); under announced everybody knows at once (12.1.4).
    called: int = -1
    partner: int | None = None
    # the play seen, in order: each trick so far (this one included) as its cards and
    # the seats that played them (read by a search that reads the play)
    seen: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...] = ()

    def void(self, seat: int, suit: int) -> bool:
        return bool(self.voids >> (4 * seat + suit) & 1)


@dataclass
class HandRecord:
    """One played hand: the cards in play, the contract, every trick and the score."""

    held: list[int]  # each seat's hand when the first card is led: the cards in play (0.6)
    pitcher: int
    bid: int
    trump: int
    tricks: list[tuple[int, list[int], list[int], int]]  # (leader, seats, cards, winner seat)
    won: list[int]
    score: HandScore
    called: int = -1  # the card the pitcher called (12.1.2, 12.1.4), -1 for none
    partner: int | None = None  # its holder when play starts (12.1.5); None: none or alone


def _check_held(held: Sequence[int], pitcher: int, rules: Rules) -> None:
    """The hands in play, checked.  Who may sit at the table (how many players, four in
    a partnership) is the deal's and the auction's check: a hand is played as dealt."""
    n = len(held)
    if not 2 <= n <= 7:
        raise ValueError(f"players must be 2-7, not {n}")
    if not 0 <= pitcher < n:
        raise ValueError(f"pitcher {pitcher} is not a seat of a {n}-player table")
    cards = mask_of(pack(rules, n))
    seen = 0
    for seat, m in enumerate(held):
        if m < 0 or m & ~cards:
            raise ValueError(f"seat {seat}'s hand holds bits that are not cards of the pack")
        if seen & m:
            raise ValueError(f"seat {seat} holds a card another seat holds")
        seen |= m
    if rules.discard == "none":  # every card dealt is played (RULES "The deal", 0.6)
        each = rules.cards_each(n)
        for seat, m in enumerate(held):
            if m.bit_count() != each:
                raise ValueError(f"seat {seat} was dealt {m.bit_count()} cards, not {each}")
    elif rules.follow != "only" and len({m.bit_count() for m in held}) != 1:
        raise ValueError("every player must hold as many cards as the others")


def _checked(c: object, legal: int, what: str) -> int:
    """``c`` as a plain int card, or ``ValueError`` when it is not in ``legal``."""
    try:
        c = operator.index(c)  # accepts numpy integers from policies
    except TypeError:
        raise ValueError(f"{what} {c!r} is not a card") from None
    if not 0 <= c < N_CARDS_WITH_JOKERS:
        raise ValueError(f"{what} {c} is not a card")
    if not legal >> c & 1:
        raise ValueError(f"{what} {format_card(c, symbols=False)} is not a legal play")
    return c


def play_hand(
    held: Sequence[int],
    pitcher: int,
    choose: Callable[[View], int],
    rules: Rules,
    bid: int = 0,
    trump: int = -1,
    first_lead: int = -1,
    lead_suit: int = -1,
    called: int = -1,
) -> HandRecord:
    """Play a hand from the first lead and score it.

    ``held`` are the hands when play starts (after any discard and draw).  ``trump`` is
    the named suit, or -1 under trump=first-lead: then the pitcher's first card fixes it
    (its printed suit: RULES "The play", 6.3.5); ``first_lead >= 0`` is a card pitched
    in the auction (it is the opening lead, and ``choose`` is not asked for it), and
    ``lead_suit >= 0`` the suit the pitcher planned in the auction, which he must lead.
    ``choose(view)`` returns a card from ``view.legal``; anything else raises
    ``ValueError``.

    follow=only (4.9): only trumps are played; a player holding none is out; the trick
    winner leads if still holding a trump, else the next player to the left who does
    (so also the first lead); the hand ends when nobody holds a trump.  Otherwise every
    card is played, the pitcher leading first and each trick's winner the next (0.5).

    ``called`` (12.1) is the card the pitcher called under partner=called|announced:
    its holder when play starts is his partner (12.1.5), one side with him for the
    points (12.1.6); under called he must play it to the first trick (12.1.3).
    """
    r = rules
    held = [int(m) for m in held]
    _check_held(held, pitcher, r)
    n = len(held)
    hands = list(held)
    won = [0] * n
    played_by = [0] * n
    played = voids = 0
    tricks: list[tuple[int, list[int], list[int], int]] = []
    only = r.follow == "only"
    if only and trump < 0:
        raise ValueError("follow=only needs a named trump (6.3.2)")
    if (called >= 0) != (r.partner != "none"):
        raise ValueError(f"partner={r.partner} with called card {called} (12.1)")
    partner = partner_of(held, pitcher, called)
    pitcher_alone = called >= 0 and bool(held[pitcher] >> called & 1)

    def known_partner(seat: int) -> int | None:
        """The partner as ``seat`` knows him (View.partner; 12.1.2-12.1.5)."""
        played = called >= 0 and any(m >> called & 1 for m in played_by)
        return partner_known_to(r, seat, pitcher, called, partner, pitcher_alone, played)

    def next_with_trump(seat: int) -> int | None:
        for i in range(n):
            s = (seat + i) % n
            if trumps_in(hands[s], trump, r):
                return s
        return None

    leader = next_with_trump(pitcher) if only else pitcher
    trick_no = 0
    while leader is not None and hands[leader]:
        seats: list[int] = []
        trick: list[int] = []
        for i in range(n):
            seat = (leader + i) % n
            if only and not trumps_in(hands[seat], trump, r):
                continue  # 4.9: out of the hand
            first = trick_no == 0 and not trick
            legal = legal_cards(hands[seat], trick, trump, r, first_lead=first, lead_suit=lead_suit)
            if trick_no == 0 and seat == partner and r.partner == "called":
                if not legal >> called & 1:  # cannot happen under 6.3.7's follow rules
                    raise ValueError("the called card cannot be played to the first trick")
                legal = 1 << called  # 12.1.3: the partner plays the called card to trick 1
            if first and first_lead >= 0:
                c, what = first_lead, "pitched card"
            else:
                view = View(
                    seat=seat,
                    hand=hands[seat],
                    legal=legal,
                    players=n,
                    pitcher=pitcher,
                    bid=bid,
                    trump=trump if trump >= 0 else lead_suit,
                    trick_no=trick_no,
                    leader=leader,
                    trick=tuple(trick),
                    played=played,
                    won=tuple(won),
                    rules=rules,
                    played_by=tuple(played_by),
                    voids=voids,
                    called=called,
                    partner=known_partner(seat),
                    seen=tuple((tuple(c), tuple(s)) for _, s, c, _ in tricks)
                    + ((tuple(trick), tuple(seats)),),
                )
                c, what = choose(view), f"seat {seat}'s card"
            c = _checked(c, legal, what)
            if trump < 0:
                trump = suit_of(c)  # the first card's printed suit is trump (6.3.5)
            if trick:
                led = effective_suit(trick[0], trump, r)
                if shows_void(c, led, trump, r):
                    voids |= 1 << (4 * seat + led)
            hands[seat] &= ~(1 << c)
            played_by[seat] |= 1 << c
            seats.append(seat)
            trick.append(c)
        winner = seats[trick_winner(trick, trump, r)]
        for c in trick:
            won[winner] |= 1 << c
            played |= 1 << c
        tricks.append((leader, seats, trick, winner))
        trick_no += 1
        leader = next_with_trump(winner) if only else winner
    score = score_hand(held, won, trump, r, sides_of(n, pitcher, partner, r))
    return HandRecord(held, pitcher, bid, trump, tricks, won, score, called, partner)
