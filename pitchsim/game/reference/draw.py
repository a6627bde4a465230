"""The discard and draw (docs/rules.md 4.8, 11.8, 12.7, 12.8), once after trump is named,
in plain Python: under discard=non-trump every player discards his non-trumps, burns
trumps beyond six by rule X and draws back to six, and under rob=true the pitcher
(rob=dealer: the dealer) takes the rest of the stock and comes down to six; under
discard=choice every player comes down to six, under discard=draw every player
discards (keeping three) and draws back to six, in turn from the dealer's left.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from pitchsim.game.cards import ACE, JACK, N_CARDS, TEN, cards_of, mask_of, rank_of, suit_of
from pitchsim.game.reference.tricks import is_trump, jick_of, trump_order
from pitchsim.game.rules import Rules

HAND_TARGET = 6  # cards in hand after a discard and draw (4.8)
KEEP_AT_LEAST = 3  # 12.8.2: under discard=draw a player keeps at least 3 cards
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


def may_put_down(
    held: int,
    trump: int,
    rules: Rules,
    called: int = -1,
    drawing: bool = False,
    robbing: bool = False,
) -> list[int]:
    """The cards a player coming down to 6 may put down (12.2.2, 12.8.1): any card he
    holds but a called trump (12.1.3).  ``drawing``: a player putting down to draw
    under discard=draw (12.8.2): any non-trump and a trump only while he holds more
    than 6 trumps, and nothing once he is down to 3 cards.  ``robbing``: the robber
    coming down after the rob (4.8.5, 11.8) puts down his non-trumps first, any of
    them while he holds one, then any of his trumps but a called one (4.8.7).  Which
    ones is his choice (``put_down_by``)."""
    cards = cards_of(held)
    if robbing:
        mine = [c for c in cards if c != called]
        return [c for c in mine if not is_trump(c, trump, rules)] or mine
    if not drawing:
        return [c for c in cards if c != called]
    if len(cards) <= KEEP_AT_LEAST:
        return []
    excess = sum(is_trump(c, trump, rules) for c in cards) > HAND_TARGET
    return [c for c in cards if c != called and (excess or not is_trump(c, trump, rules))]


def puts_down_legally(
    held: int,
    trump: int,
    rules: Rules,
    called: int,
    down: Sequence[int],
    drawing: bool = False,
    robbing: bool = False,
) -> bool:
    """Whether ``down`` can go down one card at a time from ``held``, each a card
    ``may_put_down`` allows then; the robber's in any order, read non-trumps first
    (4.8.7: a set of his is legal if it holds no trump or every non-trump)."""
    order = sorted(down, key=lambda c: is_trump(c, trump, rules)) if robbing else down
    for c in order:
        if c not in may_put_down(held, trump, rules, called, drawing, robbing):
            return False
        held &= ~(1 << c)
    return True


def may_stop(held: int, drawing: bool) -> bool:
    """Whether a player putting down may stop (12.8.2: under discard=draw once he holds
    6 or fewer; coming down to 6 otherwise, only there)."""
    return held.bit_count() <= HAND_TARGET if drawing else held.bit_count() == HAND_TARGET


def pitchsims_put_down(
    held: int, trump: int, rules: Rules, called: int = -1, drawing: bool = False
) -> int | None:
    """pitchsim's put-down of one card by a player holding more than 6 (12.8.3; the
    robber's after the rob, 4.8.7): the first of ``come_down``, or putting down to draw
    (``drawing``, 12.8.2) the first of ``draw_discard``, None when it puts down no more
    (he draws).  Asked again until he stops, it puts down the whole rule's cards in its
    order, so one card at a time comes down as the whole put-down did."""
    down = (draw_discard if drawing else come_down)(held, trump, rules, called)
    return down[0] if down else None


def put_down_by(
    seat: int,
    held: int,
    trump: int,
    rules: Rules,
    called: int,
    chosen: dict | None,
    drawing: bool = False,
    robbing: bool = False,
) -> list[int]:
    """What ``seat`` puts down coming down to 6 (12.2.2, 12.8.1; ``robbing``: the
    robber after the rob, 4.8.7), or to draw (``drawing``, 12.8.2): his own choice when
    ``chosen`` gives one (the seats asked at the table), checked
    (``puts_down_legally``, stopping where ``may_stop``), else pitchsim's
    (``come_down``, ``draw_discard``)."""
    if not chosen or seat not in chosen:
        return (draw_discard if drawing else come_down)(held, trump, rules, called)
    down = list(chosen[seat])
    if puts_down_legally(held, trump, rules, called, down, drawing, robbing) and may_stop(
        held & ~mask_of(down), drawing
    ):
        return down
    if drawing:
        why = "any non-trumps, trumps only beyond 6, keeping 3 and at most 6 (12.8.2)"
    else:
        why = f"it comes down to 6 with {max(0, held.bit_count() - HAND_TARGET)} of its cards"
    rob = ", non-trumps first after the rob (4.8.7)" if robbing else ""
    raise ValueError(
        f"seat {seat} puts down {len(down)} cards {down}: {why}, a called trump kept "
        f"(12.1.3, 12.8.1){rob}"
    )


def draw_discard(held: int, trump: int, rules: Rules, called: int = -1) -> list[int]:
    """What a player puts down under discard=draw (12.8.2), pitchsim's choice for him
    (docs/rules.md 12.8.3): every non-trump, except the highest-ranking ones he needs to
    keep 3 cards (equal ranks in suit order), and the trumps beyond 6 by rule X,
    passing over a called trump (12.1.3)."""
    cards = cards_of(held)
    trumps = [c for c in cards if is_trump(c, trump, rules)]
    non_trumps = sorted(
        (c for c in cards if not is_trump(c, trump, rules)), key=lambda c: (rank_of(c), suit_of(c))
    )
    kept = max(0, KEEP_AT_LEAST - min(len(trumps), HAND_TARGET))  # non-trumps he keeps
    down = non_trumps[: max(0, len(non_trumps) - kept)]
    return down + excess_trumps(trumps, HAND_TARGET, trump, rules, called)


def last_to_discard(pitcher: int, dealer: int | None, rules: Rules) -> int:
    """The seat that discards and draws last: the pitcher (4.8), the dealer under
    rob=dealer (12.7) and under discard=choice and draw (12.8.1, 12.8.2).  The others
    go in turn from his left."""
    if rules.rob == "dealer" or rules.discard in ("choice", "draw"):
        if dealer is None:
            why = "rob=dealer" if rules.rob == "dealer" else f"discard={rules.discard}"
            raise ValueError(f"{why} needs the dealer: the discard runs from his left (12.7, 12.8)")
        return dealer
    return pitcher


def takes_stock(rules: Rules) -> bool:
    """Does a step after trump take from the undealt pack: the draw (4.8, 12.8.2; not
    discard=choice, 12.8.1) or a kitty (12.2)?"""
    return rules.discard in ("non-trump", "draw") or rules.kitty > 0


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
    """Which cards the robber puts down after robbing (step 5), or the pitcher after
    taking a kitty (12.2.2), are face up, seen by all and out of play: under rob=dealer
    his excess trumps (12.7, 11.8; the rest of the stock stays face down); under
    rob=true or a kitty with discards=shown all of them (12.9: every discard of the
    hand is face up); with discards=hidden none (12.9: only the excess trumps of step 2
    are shown)."""
    if rules.rob == "dealer":
        return [c for c in down if is_trump(c, trump, rules)]
    if (rules.rob is True or rules.kitty) and rules.discards == "shown":
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
    kitty: DrawRecord | None = None,
    chosen: dict[int, list[int]] | None = None,
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
    under partner=called is never discarded: rule X passes over it (12.1.3).

    Under discard=choice and draw (12.8), after any kitty (``kitty``: the record of
    ``take_kitty``, ``hands`` then giving the pitcher the kitty too; the stock's last N
    cards are the kitty's and never drawn, 12.2.1), each player from the dealer's left,
    the dealer last: under choice comes down to 6 face down (``come_down``) and draws
    nothing (12.8.1); under draw puts down ``draw_discard`` face down and draws to 6 by
    steps 3 and 4 (12.8.2), except that a pitcher who took a kitty comes down to 6 and
    does not draw (12.2.2), his discards out of play and never drawn from.  Nothing is
    ``burnt``: a discard is face down, trumps too (docs/rules.md 12.8.4), or under
    discards=shown face up (12.9: the views show ``discarded``); the pitcher's coming
    down from a kitty is its ``put_down``, as under discard=none, shown face up under
    discards=shown (``put_down_shown``, 12.9.1).  ``chosen``: the put-downs the seats
    chose (``put_down_by``; under choice, a kitty's pitcher's and the robber's after
    the rob, 4.8.7); the rest pitchsim's."""
    last = last_to_discard(pitcher, dealer, rules)  # the robber under a rob
    n = len(hands)
    hands = list(hands)
    stock = list(stock[: len(stock) - rules.kitty])  # 12.2.1: the kitty is never drawn
    junk: list[int] = []  # this hand's face-down discards
    rec = DrawRecord([0] * n, [0] * n, [[] for _ in range(n)])
    if kitty is not None:
        rec.robbed = list(kitty.robbed)

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

    for seat in [(last + 1 + i) % n for i in range(n)]:  # the last last
        if rules.discard == "non-trump":
            non_trumps = [c for c in cards_of(hands[seat]) if not is_trump(c, trump, rules)]  # 1
            hands[seat] &= ~mask_of(non_trumps)
            junk.extend(non_trumps)
            rec.discarded[seat] = mask_of(non_trumps)
            burnt = excess_trumps(cards_of(hands[seat]), HAND_TARGET, trump, rules, called)  # 2
            hands[seat] &= ~mask_of(burnt)
            rec.burnt[seat] = mask_of(burnt)
            if not (rules.rob is not False and seat == last):
                fill(seat)
        elif rules.discard == "choice" or (rules.kitty and seat == pitcher):  # 12.8.1, 12.2.2
            down = put_down_by(seat, hands[seat], trump, rules, called, chosen)
            hands[seat] &= ~mask_of(down)
            if rules.kitty and seat == pitcher:
                rec.put_down = down
                rec.put_down_shown = shown_put_down(down, trump, rules)
            else:
                rec.discarded[seat] = mask_of(down)
        else:  # 12.8.2
            down = put_down_by(seat, hands[seat], trump, rules, called, chosen, drawing=True)
            hands[seat] &= ~mask_of(down)
            junk.extend(down)
            rec.discarded[seat] = mask_of(down)
            fill(seat)
    if rules.rob is not False:  # 5
        rec.robbed = list(stock)
        hands[last] |= mask_of(stock)
        stock.clear()
        fill(last)  # step 4 when the stock left the pitcher short
        down = put_down_by(last, hands[last], trump, rules, called, chosen, robbing=True)
        hands[last] &= ~mask_of(down)
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
    chosen: dict[int, list[int]] | None = None,
) -> tuple[list[int], DrawRecord]:
    """12.2.2: once trump is named, before any other discard, the pitcher adds the
    kitty (``kitty_of``) to his hand, unseen by the others, and under discard=none
    discards face down at once until he holds 6 (12.2.4: ``kitty`` cards with deal=6);
    under discard=choice or draw he does so in his turn (``discard_and_draw``, given
    this record).  Which cards go is the pitcher's choice; pitchsim puts down as a
    robbing pitcher comes down to 6 (``come_down``: non-trumps lowest first, then rule
    X).  He does not draw, and his discards are out of play.  Recorded as a rob of the
    kitty: ``robbed`` the kitty, ``put_down`` the discards, shown face up under
    discards=shown (``shown_put_down``, 12.9.1).  A trump
    ``called`` under partner=called is never put down (12.1.3).  ``chosen``: the
    pitcher's own put-down, if he chose one (``put_down_by``)."""
    if rules.kitty and rules.discard == "non-trump":
        raise ValueError("a kitty is not played with discard=non-trump (6.3.8)")
    n = len(hands)
    hands = list(hands)
    kitty = kitty_of(stock, rules)
    rec = DrawRecord([0] * n, [0] * n, [[] for _ in range(n)], robbed=kitty)
    if kitty:
        hands[pitcher] |= mask_of(kitty)
        if rules.discard == "none":
            rec.put_down = put_down_by(pitcher, hands[pitcher], trump, rules, called, chosen)
            rec.put_down_shown = shown_put_down(rec.put_down, trump, rules)
            hands[pitcher] &= ~mask_of(rec.put_down)
    return hands, rec


def after_naming(
    dealt: Sequence[int],
    stock: Sequence[int],
    pitcher: int,
    trump: int,
    rules: Rules,
    rng: random.Random,
    dealer: int | None = None,
    called: int = -1,
    chosen: dict[int, list[int]] | None = None,
) -> tuple[list[int], DrawRecord | None]:
    """What trump's naming brings to the hands: the kitty (12.2.2), then the discard
    and draw (4.8, 12.8); the hands when play starts and the record (None: neither).
    ``chosen``: the put-downs seats chose (``put_down_by``), seat -> cards."""
    held, rec = list(dealt), None
    if rules.kitty:
        held, rec = take_kitty(held, stock, pitcher, trump, rules, called, chosen)
    if rules.discard != "none":
        held, rec = discard_and_draw(
            held, stock, pitcher, trump, rules, rng, dealer, called, rec, chosen
        )
    return held, rec
