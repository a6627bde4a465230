"""The discard and draw (docs/rules.md 4.8, 11.8, 12.7), once after trump is named, in
plain Python: every player discards his non-trumps, burns trumps beyond six by rule X
and draws back to six; under rob=true the pitcher (rob=dealer: the dealer) takes the
rest of the stock and comes down to six.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from pitchsim.game.cards import ACE, JACK, N_CARDS, TEN, cards_of, mask_of, rank_of, suit_of
from pitchsim.game.reference.tricks import is_trump, jick_of, trump_order
from pitchsim.game.rules import Rules

HAND_TARGET = 6  # cards in hand after a discard and draw (4.8)
THREE, FIVE, DEUCE = 1, 3, 0  # ranks of the 3, the 5 and the 2


def carries_point(c: int, trump: int, rules: Rules) -> bool:
    """4.8 rule X: the ace, the jack, the jick, a joker, the 10 under game=ten, the 3
    under three=true, the 5 under five=true, both pedros under five=pedro (12.6), or the
    2."""
    if c >= N_CARDS or (rules.jick and c == jick_of(trump)):
        return True
    rank = rank_of(c)
    return (
        rank in (ACE, JACK, DEUCE)
        or (rank == TEN and rules.game == "ten")
        or (rank == THREE and rules.three)
        or (rank == FIVE and rules.five is not False)  # the left pedro is a 5 too
    )


def point_value(c: int, trump: int, rules: Rules) -> int:
    if c < N_CARDS and c != jick_of(trump):
        if rank_of(c) == THREE and rules.three:
            return 3
        if rank_of(c) == FIVE and rules.five is not False:
            return 5
    return 1


def excess_trumps(
    trumps: Sequence[int], keep: int, trump: int, rules: Rules, called: int = -1
) -> list[int]:
    """4.8 rule X: which trumps go when more than ``keep`` are held: the lowest-ranking
    trumps carrying no point first; only then the lowest point value, lower rank first.
    A called card (12.1.3) is never among them: rule X passes over it."""
    order = trump_order(rules, trump)
    may_go = [c for c in trumps if c != called]
    plain = sorted((c for c in may_go if not carries_point(c, trump, rules)), key=order.index)
    points = sorted(
        (c for c in may_go if carries_point(c, trump, rules)),
        key=lambda c: (point_value(c, trump, rules), order.index(c)),
    )
    return (plain + points)[: max(0, len(trumps) - keep)]


def come_down(held: int, trump: int, rules: Rules, called: int = -1) -> list[int]:
    """What a player holding more than 6 cards puts down to keep 6 (4.8 step 5): the
    non-trumps first, the lowest-ranking first (equal ranks in suit order), then excess
    trumps by rule X, passing over a called trump (12.1.3)."""
    cards = cards_of(held)
    non_trumps = sorted(
        (c for c in cards if not is_trump(c, trump, rules)), key=lambda c: (rank_of(c), suit_of(c))
    )
    down = non_trumps[: max(0, len(cards) - HAND_TARGET)]
    trumps = [c for c in cards if is_trump(c, trump, rules)]
    keep = HAND_TARGET - (len(non_trumps) - len(down))
    return down + excess_trumps(trumps, keep, trump, rules, called)


def kitty_of(stock: Sequence[int], rules: Rules) -> list[int]:
    """12.2.1: the kitty, the last ``kitty`` cards of the undealt pack (none: [])."""
    k = rules.kitty
    return list(stock[len(stock) - k :]) if k else []


@dataclass
class DrawRecord:
    """What the discard and draw did, per seat: face-down discards, trumps burnt face up,
    cards drawn (from the stock or the discards), and the pitcher's rob."""

    discarded: list[int]
    burnt: list[int]
    drawn: list[list[int]]
    robbed: list[int] = field(default_factory=list)
    put_down: list[int] = field(default_factory=list)  # by the pitcher after robbing
    # The cards of ``put_down`` shown face up to every seat (``shown_put_down``).
    put_down_shown: list[int] = field(default_factory=list)


def shown_put_down(down: Sequence[int], trump: int, rules: Rules) -> list[int]:
    """Which cards the robber puts down after robbing (step 5) are face up, seen by all
    and out of play: under rob=dealer his excess trumps (12.7, 11.8; the rest of the
    stock stays face down); under rob=true with discards=shown all of them (12.9: every
    discard of the hand is face up); under rob=true with discards=hidden none (12.9:
    only the excess trumps of step 2 are shown)."""
    if rules.rob == "dealer":
        return [c for c in down if is_trump(c, trump, rules)]
    if rules.rob is True and rules.discards == "shown":
        return list(down)
    return []


def discard_and_draw(
    hands: Sequence[int],
    stock: Sequence[int],
    pitcher: int,
    trump: int,
    rules: Rules,
    rng: random.Random,
    dealer: int | None = None,
    called: int = -1,
) -> tuple[list[int], DrawRecord]:
    """4.8, once after trump is named: each player from the pitcher's left, pitcher last,
    discards non-trumps (1), burns trumps beyond 6 by rule X (2) and draws to 6 (3),
    from the face-down discards, shuffled, when the stock runs out unless follow=only
    (4); under rob=true the pitcher skips 3, takes the rest of the stock and comes down
    to 6, non-trumps lowest-ranking first, then rule X (5), showing what ``shown_put_down``
    shows.  Under rob=dealer (12.7,
    11.8) the same with the dealer in the pitcher's place: from the dealer's left, the
    dealer last, robbing; ``dealer`` is then needed.  The non-trumps the robber keeps
    are his choice (11.8): the highest-ranking, as under rob=true.  A trump ``called``
    under partner=called is never discarded: rule X passes over it (12.1.3)."""
    if rules.rob == "dealer":
        if dealer is None:
            raise ValueError("rob=dealer needs the dealer: he robs the stock (12.7)")
        pitcher = dealer  # the robber and the last to draw
    n = len(hands)
    hands = list(hands)
    stock = list(stock)
    junk: list[int] = []  # this hand's face-down discards
    rec = DrawRecord([0] * n, [0] * n, [[] for _ in range(n)])

    def fill(seat: int) -> None:
        while hands[seat].bit_count() < HAND_TARGET and stock:  # 3
            c = stock.pop(0)
            hands[seat] |= 1 << c
            rec.drawn[seat].append(c)
        if hands[seat].bit_count() < HAND_TARGET and rules.follow != "only" and junk:  # 4
            rng.shuffle(junk)
            while hands[seat].bit_count() < HAND_TARGET and junk:
                c = junk.pop(0)
                hands[seat] |= 1 << c
                rec.drawn[seat].append(c)

    for seat in [(pitcher + 1 + i) % n for i in range(n)]:  # the pitcher last
        non_trumps = [c for c in cards_of(hands[seat]) if not is_trump(c, trump, rules)]  # 1
        hands[seat] &= ~mask_of(non_trumps)
        junk.extend(non_trumps)
        rec.discarded[seat] = mask_of(non_trumps)
        burnt = excess_trumps(cards_of(hands[seat]), HAND_TARGET, trump, rules, called)  # 2
        hands[seat] &= ~mask_of(burnt)
        rec.burnt[seat] = mask_of(burnt)
        if not (rules.rob is not False and seat == pitcher):
            fill(seat)
    if rules.rob is not False:  # 5
        rec.robbed = list(stock)
        hands[pitcher] |= mask_of(stock)
        stock.clear()
        fill(pitcher)  # step 4 when the stock left the pitcher short
        down = come_down(hands[pitcher], trump, rules, called)
        hands[pitcher] &= ~mask_of(down)
        rec.put_down = down
        rec.put_down_shown = shown_put_down(down, trump, rules)
    return hands, rec


def take_kitty(
    hands: Sequence[int],
    stock: Sequence[int],
    pitcher: int,
    trump: int,
    rules: Rules,
    called: int = -1,
) -> tuple[list[int], DrawRecord]:
    """12.2.2: once trump is named, before any other discard, the pitcher adds the
    kitty (``kitty_of``) to his hand, unseen by the others, and under discard=none
    discards face down at once until he holds 6 (12.2.4: ``kitty`` cards with deal=6).
    Which cards go is the pitcher's choice; pitchsim puts down as a robbing pitcher
    comes down to 6 (``come_down``: non-trumps lowest first, then rule X).  He does
    not draw, and his discards are out of play.  Recorded as a rob of the kitty:
    ``robbed`` the kitty, ``put_down`` the discards, none shown.  A trump ``called``
    under partner=called is never put down (12.1.3)."""
    if rules.kitty and rules.discard != "none":
        raise ValueError("a kitty is played with discard=none only (6.3.8, 12.8)")
    n = len(hands)
    hands = list(hands)
    kitty = kitty_of(stock, rules)
    rec = DrawRecord([0] * n, [0] * n, [[] for _ in range(n)], robbed=kitty)
    if kitty:
        hands[pitcher] |= mask_of(kitty)
        rec.put_down = come_down(hands[pitcher], trump, rules, called)
        hands[pitcher] &= ~mask_of(rec.put_down)
    return hands, rec
