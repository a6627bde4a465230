"""Every rule family, clause by clause (VARIANTS.md), in plain Python.

This is the specification of the rule families the way :mod:`.play`, :mod:`.auction`
and :mod:`.game` are the specification of the base game; for the base rules it plays
exactly the same hands (tests/test_families_reference.py checks that deal by deal).
Comments cite the clauses.  It favours being obviously right over being fast.

Calls are ints: 0 pass, 1 up to the maximum bid, and :func:`shoot_call` (the maximum
bid plus one) for a shoot.  Cards and masks as in :mod:`pitchsim.game.cards`, with the
jokers ``HJ`` = 52 and ``LJ`` = 53.  A **side** is a seat, or a team under partnership.
"""

from __future__ import annotations

import operator
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from pitchsim.game.cards import (
    ACE,
    HIGH_JOKER,
    JACK,
    LOW_JOKER,
    N_CARDS,
    N_CARDS_WITH_JOKERS,
    TEN,
    card,
    cards_of,
    format_card,
    game_points,
    joker_cards,
    mask_of,
    rank_of,
    suit_of,
)
from pitchsim.game.reference.play import View
from pitchsim.game.rules import FamilyRules, Rules, as_family

PASS = 0
HAND_TARGET = 6  # cards in hand after a discard and draw (4.8)
DEALER_SET_PENALTY = 2  # 3.4
FORCED_DEALER_MIN = 2  # RULES; 6.1 all-pass=forced: at least the larger of 2 and min-bid
THREE, FIVE, DEUCE = 1, 3, 0  # ranks of the 3, the 5 and the 2
# 3.6: the jick is the jack of the other suit of the same colour.
SAME_COLOUR = {0: 3, 3: 0, 1: 2, 2: 1}


# ---- the pack (6.1 jokers, 4.3) ------------------------------------------------------------


def pack(rules: Rules, players: int) -> list[int]:
    """The cards used: 52 plus the jokers (6.1), less the four 4s with 5 players, 9
    to deal and two jokers (4.3, 4.15.9)."""
    r = as_family(rules)
    cards = list(range(N_CARDS)) + joker_cards(r.jokers)
    if r.no_fours(players):
        cards = [c for c in cards if c >= N_CARDS or rank_of(c) != 2]  # rank 2 is the 4
    return cards


def deal(
    rng: random.Random, rules: Rules, players: int, dealer: int
) -> tuple[list[int], list[int]]:
    """Shuffle the pack and deal ``cards_each`` to every seat from the dealer's left
    (6.1 deal; how many at a time does not change the odds, 3.2).  Returns the hands as
    masks and the undealt stock, top card first (4.3)."""
    r = as_family(rules)
    r.check_players(players)
    cards = pack(r, players)
    rng.shuffle(cards)
    each = r.cards_each(players)
    hands = [0] * players
    for i in range(players):
        seat = (dealer + 1 + i) % players
        hands[seat] = mask_of(cards[i * each : (i + 1) * each])
    return hands, cards[players * each :]


# ---- trump: members, effective suit, order (0.3, 0.4, 3.6, 4.7) ------------------------------


def jick_of(trump: int) -> int:
    return card(JACK, SAME_COLOUR[trump])


def is_trump(c: int, trump: int, rules: FamilyRules) -> bool:
    """0.4: the trump suit, the jick under jick=true, and every joker."""
    if c >= N_CARDS:
        return True
    if rules.jick and c == jick_of(trump):
        return True
    return suit_of(c) == trump


def effective_suit(c: int, trump: int, rules: FamilyRules) -> int:
    """0.4: trump for every trump (a jick led is a trump lead), else the printed suit."""
    return trump if is_trump(c, trump, rules) else suit_of(c)


def trump_order(rules: Rules, trump: int) -> list[int]:
    """The trumps, lowest first (4.7: A K Q J Jick HJ LJ 10 ... 2, high to low; 3.6
    without the jokers; 2.7 and RULES the plain suit)."""
    r = as_family(rules)
    low = [card(rank, trump) for rank in range(TEN + 1)]  # 2 ... 10
    jokers = [LOW_JOKER, HIGH_JOKER] if r.jokers == 2 else joker_cards(r.jokers)
    jick = [jick_of(trump)] if r.jick else []
    return low + jokers + jick + [card(rank, trump) for rank in range(JACK, ACE + 1)]


def trick_winner(trick: Sequence[int], trump: int, rules: Rules) -> int:
    """0.5: the highest trump by the trump order; with no trump, the highest card of the
    led card's effective suit."""
    r = as_family(rules)
    order = trump_order(r, trump)
    trumps = [i for i, c in enumerate(trick) if is_trump(c, trump, r)]
    if trumps:
        return max(trumps, key=lambda i: order.index(trick[i]))
    led = effective_suit(trick[0], trump, r)
    led_cards = [i for i, c in enumerate(trick) if effective_suit(c, trump, r) == led]
    return max(led_cards, key=lambda i: rank_of(trick[i]))


def trumps_in(mask: int, trump: int, rules: FamilyRules) -> int:
    return mask_of(c for c in cards_of(mask) if is_trump(c, trump, rules))


def legal_cards(
    hand: int, trick: Sequence[int], trump: int, rules: Rules, first_lead: bool = False
) -> int:
    """The cards of ``hand`` that may be played to ``trick``.

    - follow=only (4.9): only trumps are played, led or followed.
    - The first lead of the hand: under trump=first-lead any card but a joker (6.3.5);
      under lead-trump=true a trump if the pitcher holds one (4.9, 6.1).
    - Following (RULES, 3.7, 0.4): a player holding the led card's effective suit
      follows it, or under follow=trump may trump instead; a void player plays anything.
    """
    r = as_family(rules)
    if r.follow == "only":
        return trumps_in(hand, trump, r)
    if not trick:
        if first_lead and r.trump == "first-lead":
            return hand & ~mask_of(joker_cards(2))
        if first_lead and r.lead_trump:
            return trumps_in(hand, trump, r) or hand
        return hand
    led = effective_suit(trick[0], trump, r)
    have = mask_of(c for c in cards_of(hand) if effective_suit(c, trump, r) == led)
    if not have:
        return hand
    if r.follow == "suit":
        return have
    return have | trumps_in(hand, trump, r)


# ---- the auction (0.2, 1.4, 2.6, 3.3, 3.4, 4.4, 4.5, 6.1, 6.3.4) ----------------------------


def shoot_call(rules: Rules) -> int:
    """The call code of a shoot: one above the maximum bid (6.1 shoot)."""
    return as_family(rules).max_bid + 1


def legal_calls(
    calls: Sequence[int], dealer_to_call: bool, rules: Rules, may_shoot: bool = True
) -> list[int]:
    """The calls allowed now, ascending (0 = pass); empty when the auction is over.

    ``calls`` are the calls made so far; ``may_shoot`` is False for a player whose
    score is below zero (6.1 shoot).
    """
    r = as_family(rules)
    top, shoot = r.max_bid, shoot_call(r)
    high = max(calls, default=PASS)
    shoots = [shoot] if r.shoot and may_shoot else []
    if high == shoot:
        return []  # 6.1: a shoot cannot be stolen and ends the auction
    if high == top:
        if r.dealer_steal != "max":
            return []  # 1.4, 6.3.4: a bid of the maximum ends the auction at once
        # 2.5, 2.15.2: the others may only pass; the dealer may match the maximum.
        return [PASS, top, *shoots] if dealer_to_call else [PASS, *shoots]
    if not dealer_to_call:
        return [PASS, *range(max(high + 1, r.min_bid), top + 1), *shoots]
    if high == PASS:
        if r.all_pass == "forced":  # RULES, 6.1: at least the larger of 2 and min-bid
            return [*range(max(FORCED_DEALER_MIN, r.min_bid), top + 1), *shoots]
        return [PASS, *range(r.min_bid, top + 1), *shoots]  # 3.4, 4.5, 2.6
    lowest = high if r.dealer_steal is True else high + 1  # RULES steal; 3.3, 2.4
    return [PASS, *range(lowest, top + 1), *shoots]


@dataclass(frozen=True)
class FamilyBid:
    """A call, and under trump=first-lead the card it is pitched with (-1: none)."""

    amount: int
    pitch: int = -1


@dataclass
class FamilyAuction:
    """What the auction decided.  ``pitcher`` is ``None`` when everybody passed;
    ``bid`` is the points the pitcher's side must win (a shoot's is the maximum bid)."""

    calls: list[int | None]  # per calling position, None: a pass or no call at all
    order: list[int]
    pitcher: int | None
    bid: int
    shoot: bool = False
    pitched_card: int = -1


Caller = Callable[[int, list[int], list[int]], "int | FamilyBid"]


def run_auction(
    dealer: int, players: int, call: Caller, rules: Rules, scores: Sequence[int] | None = None
) -> FamilyAuction:
    """One round of calls from the dealer's left to the dealer (0.2).  ``call(seat,
    calls_so_far, legal)`` answers with a legal call or a :class:`FamilyBid`.  The last
    bidder is the high bidder, since every bid beats the high bid or steals it."""
    r = as_family(rules)
    r.check_players(players)
    scores = list(scores) if scores is not None else [0] * players
    order = [(dealer + 1 + i) % players for i in range(players)]
    calls: list[int | None] = [None] * players
    made: list[int] = []
    result = FamilyAuction(calls, order, None, PASS)
    for i, seat in enumerate(order):
        legal = legal_calls(made, seat == dealer, r, may_shoot=scores[seat] >= 0)
        if not legal:
            break
        answer = call(seat, list(made), list(legal))
        bid = answer if isinstance(answer, FamilyBid) else FamilyBid(operator.index(answer))
        if bid.amount not in legal:
            raise ValueError(f"seat {seat} may not call {bid.amount} now (legal: {legal})")
        made.append(bid.amount)
        if bid.pitch >= 0:
            ends = not legal_calls(made, False, r) or seat == dealer
            if r.trump != "first-lead" or bid.amount < r.max_bid or not ends:
                raise ValueError(f"seat {seat} may not pitch with this call (6.3.4)")
        if bid.amount != PASS:
            calls[i] = bid.amount
            result.pitcher = seat
            result.shoot = bid.amount == shoot_call(r)
            result.bid = r.max_bid if result.shoot else bid.amount
            result.pitched_card = bid.pitch
    return result


# ---- the discard and draw (4.8) --------------------------------------------------------------


def carries_point(c: int, trump: int, rules: FamilyRules) -> bool:
    """4.8 rule X: the ace, the jack, the jick, a joker, the 10 under game=ten, the 3
    under three=true, the 5 under five=true, or the 2."""
    if c >= N_CARDS or (rules.jick and c == jick_of(trump)):
        return True
    rank = rank_of(c)
    return (
        rank in (ACE, JACK, DEUCE)
        or (rank == TEN and rules.game == "ten")
        or (rank == THREE and rules.three)
        or (rank == FIVE and rules.five)
    )


def point_value(c: int, trump: int, rules: FamilyRules) -> int:
    if c < N_CARDS and c != jick_of(trump):
        if rank_of(c) == THREE and rules.three:
            return 3
        if rank_of(c) == FIVE and rules.five:
            return 5
    return 1


def excess_trumps(trumps: Sequence[int], keep: int, trump: int, rules: FamilyRules) -> list[int]:
    """4.8 rule X: which trumps go when more than ``keep`` are held: the lowest-ranking
    trumps carrying no point first; only then the lowest point value, lower rank first."""
    order = trump_order(rules, trump)
    plain = sorted((c for c in trumps if not carries_point(c, trump, rules)), key=order.index)
    points = sorted(
        (c for c in trumps if carries_point(c, trump, rules)),
        key=lambda c: (point_value(c, trump, rules), order.index(c)),
    )
    return (plain + points)[: max(0, len(trumps) - keep)]


@dataclass
class DrawRecord:
    """What the discard and draw did, per seat: face-down discards, trumps burnt face up,
    cards drawn (from the stock or the discards), and the pitcher's rob."""

    discarded: list[int]
    burnt: list[int]
    drawn: list[list[int]]
    robbed: list[int] = field(default_factory=list)
    put_down: list[int] = field(default_factory=list)  # by the pitcher after robbing


def discard_and_draw(
    hands: Sequence[int],
    stock: Sequence[int],
    pitcher: int,
    trump: int,
    rules: Rules,
    rng: random.Random,
) -> tuple[list[int], DrawRecord]:
    """4.8, once after trump is named: each player from the pitcher's left, pitcher last,
    discards non-trumps (1), burns trumps beyond 6 by rule X (2) and draws to 6 (3),
    from the face-down discards, shuffled, when the stock runs out unless follow=only
    (4); under rob=true the pitcher skips 3, takes the rest of the stock and comes down
    to 6, non-trumps lowest-ranking first, then rule X (5)."""
    r = as_family(rules)
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
        if hands[seat].bit_count() < HAND_TARGET and r.follow != "only" and junk:  # 4
            rng.shuffle(junk)
            while hands[seat].bit_count() < HAND_TARGET and junk:
                c = junk.pop(0)
                hands[seat] |= 1 << c
                rec.drawn[seat].append(c)

    for seat in [(pitcher + 1 + i) % n for i in range(n)]:  # the pitcher last
        non_trumps = [c for c in cards_of(hands[seat]) if not is_trump(c, trump, r)]  # 1
        hands[seat] &= ~mask_of(non_trumps)
        junk.extend(non_trumps)
        rec.discarded[seat] = mask_of(non_trumps)
        burnt = excess_trumps(cards_of(hands[seat]), HAND_TARGET, trump, r)  # 2
        hands[seat] &= ~mask_of(burnt)
        rec.burnt[seat] = mask_of(burnt)
        if not (r.rob and seat == pitcher):
            fill(seat)
    if r.rob:  # 5
        rec.robbed = list(stock)
        hands[pitcher] |= mask_of(stock)
        stock.clear()
        fill(pitcher)  # step 4 when the stock left the pitcher short
        held = cards_of(hands[pitcher])
        non_trumps = sorted(
            (c for c in held if not is_trump(c, trump, r)), key=lambda c: (rank_of(c), suit_of(c))
        )
        down = non_trumps[: max(0, len(held) - HAND_TARGET)]
        trumps = [c for c in held if is_trump(c, trump, r)]
        down += excess_trumps(trumps, HAND_TARGET - (len(non_trumps) - len(down)), trump, r)
        hands[pitcher] &= ~mask_of(down)
        rec.put_down = down
    return hands, rec


# ---- play (0.5, 0.6, RULES, 3.7, 4.9) --------------------------------------------------------


@dataclass
class FamilyScore:
    """Who got each point (0.7, 0.8, 4.10): ``awards`` maps a point's name to the seat
    credited (``None``: nobody), ``values`` to what it is worth; ``points`` per seat,
    partners carrying their team's points (0.10)."""

    awards: dict[str, int | None]
    values: dict[str, int]
    game_counts: list[int]
    points: list[int]


@dataclass
class FamilyHandRecord:
    held: list[int]  # each seat's hand when the first card is led: the cards in play (0.6)
    pitcher: int
    bid: int
    trump: int
    tricks: list[tuple[int, list[int], list[int], int]]  # (leader, seats, cards, winner seat)
    won: list[int]
    score: FamilyScore


def _holder(masks: Sequence[int], c: int) -> int:
    return next(seat for seat, m in enumerate(masks) if m >> c & 1)


def score_hand(held: Sequence[int], won: Sequence[int], trump: int, rules: Rules) -> FamilyScore:
    """The points of a played hand.

    In play means held when the first card is led (0.6).  High and Low are the highest
    and lowest trump in play by the trump order, never a joker (0.7); High, Jack, Jick,
    the jokers, the 10 (game=ten), the 3 and the 5 go to their captors (0.7, 4.10);
    Low to its captor or holder (low=); Game to the single highest count of the cards a
    side captured, jokers 0 (0.8).  A point card not in play scores for nobody.
    """
    r = as_family(rules)
    n = len(held)
    in_play = 0
    for m in held:
        in_play |= m
    captured = 0
    for m in won:
        if captured & m:
            raise ValueError("a card was captured twice")
        captured |= m
    if captured & ~in_play:
        raise ValueError("a card not in play was captured")
    awards: dict[str, int | None] = {}
    values: dict[str, int] = {}

    def award(name: str, value: int, seat: int | None) -> None:
        awards[name], values[name] = seat, value

    order = trump_order(r, trump) if trump >= 0 else []
    ranked = [c for c in order if c < N_CARDS and in_play >> c & 1]  # jokers never High/Low
    award("high", 1, _holder(won, ranked[-1]) if ranked else None)
    low_owner = held if r.low == "dealt" else won
    award("low", 1, _holder(low_owner, ranked[0]) if ranked else None)

    def capture(name: str, c: int, value: int = 1) -> None:
        award(name, value, _holder(won, c) if trump >= 0 and in_play >> c & 1 else None)

    capture("jack", card(JACK, trump) if trump >= 0 else 0)
    if r.jick:
        capture("jick", jick_of(trump) if trump >= 0 else 0)
    for name, c in zip(("high-joker", "low-joker"), joker_cards(r.jokers), strict=False):
        capture(name, c)
    if r.game == "ten":
        capture("ten", card(TEN, trump) if trump >= 0 else 0)
    if r.three:
        capture("three", card(THREE, trump) if trump >= 0 else 0, 3)
    if r.five:
        capture("five", card(FIVE, trump) if trump >= 0 else 0, 5)

    game_counts = [sum(game_points(c) for c in cards_of(m) if c < N_CARDS) for m in won]
    if r.game == "count":
        counts: dict[int, int] = {}
        for seat in range(n):
            counts[r.team(seat)] = counts.get(r.team(seat), 0) + game_counts[seat]
        best = max(counts.values())
        leaders = [side for side, count in counts.items() if count == best]
        game = None
        if len(leaders) == 1:  # a tie for the highest count, all zero included: nobody
            game = min(seat for seat in range(n) if r.team(seat) == leaders[0])
        award("game", 1, game)

    side_points: dict[int, int] = {}
    for name, seat in awards.items():
        if seat is not None:
            side_points[r.team(seat)] = side_points.get(r.team(seat), 0) + values[name]
    points = [side_points.get(r.team(seat), 0) for seat in range(n)]
    return FamilyScore(awards, values, game_counts, points)


def _checked(c: object, legal: int, what: str) -> int:
    try:
        c = operator.index(c)
    except TypeError:
        raise ValueError(f"{what} {c!r} is not a card") from None
    if not 0 <= c < N_CARDS_WITH_JOKERS or not legal >> c & 1:
        shown = format_card(c, symbols=False) if 0 <= c < N_CARDS_WITH_JOKERS else c
        raise ValueError(f"{what} {shown} is not a legal play")
    return c


def play_hand(
    held: Sequence[int],
    pitcher: int,
    choose: Callable[[View], int],
    rules: Rules,
    bid: int = 0,
    trump: int = -1,
    first_lead: int = -1,
) -> FamilyHandRecord:
    """Play a hand from the first lead and score it.

    ``held`` are the hands when play starts (after any discard and draw).  ``trump`` is
    the named suit, or -1 under trump=first-lead: then the pitcher's first card fixes it
    (its printed suit, 6.3.5), and ``first_lead >= 0`` is a card pitched in the auction.

    follow=only (4.9): only trumps are played; a player holding none is out; the trick
    winner leads if still holding a trump, else the next player to the left who does
    (so also the first lead); the hand ends when nobody holds a trump.  Otherwise every
    card is played, the pitcher leading first and each trick's winner the next (0.5).
    """
    r = as_family(rules)
    held = [int(m) for m in held]
    n = len(held)
    hands = list(held)
    won = [0] * n
    played_by = [0] * n
    played = voids = 0
    tricks: list[tuple[int, list[int], list[int], int]] = []
    only = r.follow == "only"
    if only and trump < 0:
        raise ValueError("follow=only needs a named trump (6.3.2)")
    if not only and len({m.bit_count() for m in held}) != 1:
        raise ValueError("every player must hold as many cards as the others")

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
            legal = legal_cards(hands[seat], trick, trump, r, first_lead=first)
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
                    trump=trump,
                    trick_no=trick_no,
                    leader=leader,
                    trick=tuple(trick),
                    played=played,
                    won=tuple(won),
                    rules=rules,
                    played_by=tuple(played_by),
                    voids=voids,
                )
                c, what = choose(view), f"seat {seat}'s card"
            c = _checked(c, legal, what)
            if trump < 0:
                trump = suit_of(c)  # 6.3.5: the first card's printed suit is trump
            if trick and not only:
                led = effective_suit(trick[0], trump, r)
                mine = effective_suit(c, trump, r)
                if mine != led and (mine != trump or r.follow == "suit"):
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
    return FamilyHandRecord(held, pitcher, bid, trump, tricks, won, score_hand(held, won, trump, r))


# ---- settling a hand and the end of the game (0.9, 2.11, 3.11, 6.1 win, shoot) ---------------


def settle_hand(points: Sequence[int], pitcher: int, bid: int, rules: Rules) -> list[int]:
    """0.9: made (points won at least the bid), the pitcher's side scores every point
    it won; set, minus the bid and nothing else.  Every other side scores what it won."""
    r = as_family(rules)
    made = points[pitcher] >= bid
    return [
        (won if made else -bid) if r.team(s) == r.team(pitcher) else won
        for s, won in enumerate(points)
    ]


def winners(
    scores: Sequence[int], pitcher: int | None, made: bool, rules: Rules, shoot: bool = False
) -> list[int]:
    """The winning sides after a hand (empty: play on).  ``pitcher`` is ``None`` for a
    hand nobody bid.  win=pitcher: RULES; pitcher-first: 3.11; highest: 2.11; a made
    shoot wins at once (6.1)."""
    r = as_family(rules)
    sides: dict[int, int] = {}
    for seat, score in enumerate(scores):
        sides.setdefault(r.team(seat), score)
    if shoot and made and pitcher is not None:
        return [r.team(pitcher)]
    if r.win == "pitcher":
        if pitcher is not None and scores[pitcher] >= r.target and (made or r.set_pitcher_wins):
            return [r.team(pitcher)]
        return []
    best = max(sides.values())
    top = [side for side, score in sides.items() if score == best]
    if r.win == "highest":
        return top if best >= r.target and len(top) == 1 else []
    if best < r.target:
        return []
    if pitcher is not None and sides[r.team(pitcher)] >= r.target:
        return [r.team(pitcher)]
    return top  # sides tied for the highest total share the win


# ---- whole games ------------------------------------------------------------------------------


@dataclass
class FamilyHand:
    deal_no: int
    dealer: int
    dealt: list[int]
    stock: list[int]
    auction: FamilyAuction
    trump: int  # -1 when nobody bid
    draw: DrawRecord | None
    play: FamilyHandRecord | None  # None when nobody bid
    made: bool | None
    change: list[int]
    scores: list[int]


@dataclass
class FamilyGame:
    players: int
    rules: Rules
    winners: list[int]  # sides; empty when the game hit max_hands
    scores: list[int]
    hands: list[FamilyHand] = field(default_factory=list)


Bidder = Callable[[int, int, list[int], list[int], list[int]], "int | FamilyBid"]
Namer = Callable[[int, int], int]


def play_game(
    players: int,
    rules: Rules,
    rng: random.Random,
    bidder: Bidder,
    namer: Namer,
    chooser: Callable[[View], int],
    first_dealer: int = 0,
    max_hands: int = 1000,
) -> FamilyGame:
    """Deal, bid, fix trump, discard and draw, play and settle until a side wins.

    ``bidder(seat, hand, calls, legal, scores)`` calls; ``namer(seat, hand)`` names trump
    under trump=named (any suit, 3.5); ``chooser(view)`` plays a card.  All pass:
    forced cannot happen; redeal: the same dealer deals again (4.5); next-dealer: nobody
    scores (2.6); dealer-set: the dealer's side scores -2 (3.4).  Otherwise the deal
    passes to the left after every hand (0.1).
    """
    r = as_family(rules)
    r.check_players(players)
    scores = [0] * players
    dealer = first_dealer
    game = FamilyGame(players, rules, [], scores)
    for deal_no in range(max_hands):
        dealt, stock = deal(rng, r, players, dealer)
        before = list(scores)

        def call(seat: int, calls: list[int], legal: list[int]) -> int | FamilyBid:
            return bidder(seat, dealt[seat], calls, legal, list(before))  # noqa: B023

        auction = run_auction(dealer, players, call, r, before)
        if auction.pitcher is None:
            change = [0] * players
            if r.all_pass == "dealer-set":
                change = [
                    -DEALER_SET_PENALTY if r.team(s) == r.team(dealer) else 0
                    for s in range(players)
                ]
            scores = [s + c for s, c in zip(scores, change, strict=True)]
            game.hands.append(
                FamilyHand(
                    deal_no,
                    dealer,
                    dealt,
                    stock,
                    auction,
                    -1,
                    None,
                    None,
                    None,
                    change,
                    list(scores),
                )
            )
            game.scores = scores
            game.winners = winners(scores, None, False, r)
            if game.winners:
                break
            if r.all_pass != "redeal":
                dealer = (dealer + 1) % players
            continue
        pitcher, bid = auction.pitcher, auction.bid
        trump = -1
        held, draw = dealt, None
        if r.trump == "named":
            trump = namer(pitcher, dealt[pitcher])
            if not 0 <= trump < 4:
                raise ValueError(f"seat {pitcher} named {trump}, which is not a suit")
            if r.discard == "non-trump":
                held, draw = discard_and_draw(dealt, stock, pitcher, trump, r, rng)
        played = play_hand(
            held, pitcher, chooser, r, bid=bid, trump=trump, first_lead=auction.pitched_card
        )
        points = played.score.points
        made = points[pitcher] >= bid
        change = settle_hand(points, pitcher, bid, r)
        scores = [s + c for s, c in zip(scores, change, strict=True)]
        game.hands.append(
            FamilyHand(
                deal_no,
                dealer,
                dealt,
                stock,
                auction,
                played.trump,
                draw,
                played,
                made,
                change,
                list(scores),
            )
        )
        game.scores = scores
        game.winners = winners(scores, pitcher, made, r, auction.shoot)
        if game.winners:
            break
        dealer = (dealer + 1) % players
    return game
