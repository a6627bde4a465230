#!/usr/bin/env python3
"""A rule-based Pitch bot in the manner of Trickster's Pitch bot, as an outside seat
(issue 31, item 1): an opponent nobody on this project designed, for measuring
pitchsim's strength at ten-point.

It speaks pitch-engine/1 (docs/protocol.md) on stdin/stdout, standard library only, and
plays every decision a ten-point view asks for (the call, the naming of trump, the
robber's come-down after the rob, docs/rules.md 4.8.7, and the card; the discard, burn,
draw and rob itself follow the rules and are not decisions). Seat it with

    pitchsim tournament --rules ten-point --boards 1000 --seed 1 \\
        -s "cmd:python3 scripts/trickster_style_bot.py",odds+heuristic

What it does follows the published behaviour of TricksterCards/TricksterBots'
``PitchBot`` (github.com/TricksterCards/TricksterBots, Bots/Pitch/PitchBot.cs, read at
commit 8d7f92a); the code is this project's own:

- **Bidding by point estimates.** For each suit as trump it estimates the points the
  hand takes: a tenth of a point per trump (at most six), the ace worth itself and up to
  two captured points, the king and the queen one captured point each while capturable
  points remain, each lower point trump it holds (the jack, the jick, each joker, the ten
  under game=ten) a point with four trumps or more and half a point with two or three,
  the three (worth 3) all of it with five trumps or more and half with three or four,
  the two a point when Low goes to its holder. It bids the floor of its best suit's
  estimate when that beats the high bid (one over the high bid as dealer), never
  outbids its partner as dealer, and names the suit of its best estimate.
- **Play by tricks worth taking.** It leads a trump known to be the highest left when
  its side pitches, else the top of its shortest suit when that card is the highest
  left, else its cheapest card; it wins a trick cheaply when it can and the trick holds
  points, gives its partner points when the partner's card is sure to win, and
  otherwise plays its cheapest card (non-trumps, then fewest points, then lowest rank).

Rules it reads from the view's complete rule string: jick, jokers, game, three, five,
low, discard, partnership. Under a preset other than ten-point it still plays (it
reads the legal actions), by the same estimates.

Logs go to stderr; nothing is written anywhere.
"""

from __future__ import annotations

import json
import math
import sys

RANKS = "23456789TJQKA"
SUITS = "CDHS"
SAME_COLOUR = {"C": "S", "S": "C", "D": "H", "H": "D"}
JOKERS = ("HJ", "LJ")


class Table:
    """What one decision needs of the rules and the view."""

    def __init__(self, view: dict):
        self.view = view
        words = view["rules"].split(",")
        self.preset = words[0] if "=" not in words[0] else "auction-pitch"
        opts = dict(w.split("=", 1) for w in words if "=" in w)
        self.jick = opts.get("jick") == "true"
        self.jokers = int(opts.get("jokers", "0"))
        self.ten_point = opts.get("game") == "ten"  # the ten of trump instead of Game
        self.three = opts.get("three") == "true"
        self.five = opts.get("five") in ("true", "pedro")
        self.low_to_taker = opts.get("low", "captured") == "captured"
        self.post_bid_discard = opts.get("discard", "none") != "none"
        self.players = view["players"]
        self.seat = view["seat"]
        self.partnership = bool(view.get("partnership"))
        self.trump = view.get("trump")

    # -- the points a preset awards, all told (High, Low, Jack, then the rest)
    def max_points(self) -> int:
        points = 3 + 1  # High, Low, Jack, and Game or the ten of trump
        points += (1 if self.jick else 0) + self.jokers
        points += 3 if self.three else 0
        points += 5 if self.five else 0
        return points

    def partner(self) -> int | None:
        if self.partnership and self.players == 4:
            return (self.seat + 2) % 4
        return None

    # -- cards under a trump suit
    def is_jick(self, card: str, trump: str) -> bool:
        return self.jick and card[0] == "J" and card[1] == SAME_COLOUR[trump]

    def suit_of(self, card: str, trump: str | None) -> str:
        if card in JOKERS:
            return trump or "?"
        if trump and self.is_jick(card, trump):
            return trump
        return card[1]

    def is_trump(self, card: str, trump: str | None = None) -> bool:
        trump = trump or self.trump
        return trump is not None and self.suit_of(card, trump) == trump

    def order(self, card: str, trump: str | None = None) -> float:
        """Higher wins within an effective suit: the trump order A K Q J jick HJ LJ 10 ..."""
        trump = trump or self.trump
        if trump is not None and self.is_trump(card, trump):
            # between the jack and the ten: the jick, then the high and the low joker
            if self.is_jick(card, trump):
                return 100 + RANKS.index("J") - 0.25
            if card == "HJ":
                return 100 + RANKS.index("T") + 0.5
            if card == "LJ":
                return 100 + RANKS.index("T") + 0.25
            return 100 + RANKS.index(card[0])
        return RANKS.index(card[0])

    def points(self, card: str) -> int:
        """What capturing the card is worth to its captor (Low only when it goes to the
        taker), as the Trickster bot counts it."""
        if not self.is_trump(card):
            return 0
        r = card[0]
        if card in JOKERS or r in "AJ":
            return 1
        if r == "T" and self.ten_point:
            return 1
        if r == "5" and self.five:
            return 5
        if r == "3" and self.three:
            return 3
        if r == "2" and self.low_to_taker:
            return 1
        return 0

    def game_points_x2(self, card: str) -> int:
        """Twice the card's Game count, under game=count only."""
        if self.ten_point or card in JOKERS:
            return 0
        return {"A": 8, "K": 6, "Q": 4, "J": 2, "T": 20}.get(card[0], 0)

    def capture_value(self, card: str) -> int:
        return self.points(card) * 100 + self.game_points_x2(card)

    def suit_cards(self, suit: str, trump: str | None) -> list[str]:
        """Every card of an effective suit in the pack, under this trump."""
        cards = [r + s for s in SUITS for r in RANKS]
        cards += list(JOKERS[: self.jokers])
        return [c for c in cards if self.suit_of(c, trump) == suit]

    def is_high(self, card: str, known: set[str]) -> bool:
        """No card of its effective suit above it is left unknown: it wins its suit."""
        suit = self.suit_of(card, self.trump)
        above = [c for c in self.suit_cards(suit, self.trump) if self.order(c) > self.order(card)]
        return all(c in known for c in above)


# ---- the auction --------------------------------------------------------------------


def estimate(t: Table, hand: list[str], trump: str) -> float:
    """The points the hand is expected to take with ``trump`` named."""
    est = 0.1  # every suit is worth something, so a suit is always chosen
    trumps = min(6, sum(t.suit_of(c, trump) == trump for c in hand))
    held = set(hand)

    def has(rank: str) -> bool:
        return rank + trump in held

    ace, king, queen, jack, ten = has("A"), has("K"), has("Q"), has("J"), has("T")
    three, two, five = has("3"), has("2"), t.five and has("5")
    jick = t.jick and ("J" + SAME_COLOUR[trump]) in held
    high_joker, low_joker = "HJ" in held, "LJ" in held
    most = t.max_points()
    capturable = most - 1  # all but the ace's own point
    est += trumps * 0.1
    if not t.low_to_taker or two:
        capturable -= 1  # Low is its holder's, or ours already
    if not t.ten_point:
        capturable -= 1  # Game is estimated apart
    if five:
        capturable -= 5
    if three and most >= 10:
        capturable -= 3
    capturable -= jack + jick + high_joker + low_joker + (ten and t.ten_point)
    if not t.post_bid_discard:
        capturable //= 3  # about 18 of 52 cards are in play: a point may be out
    if ace and king and queen and jack and two and most == 4:
        return float(most)
    if ace:  # the ace is its own point and the best capturer
        got = min(capturable // 2, 2)
        est += 1 + got
        capturable = max(capturable - got, 0)
    if king:
        got = min(capturable, 1)
        est += got + (0.5 if not ace and not t.post_bid_discard else 0)
        capturable = max(capturable - got, 0)
    if queen:
        est += min(capturable, 1)
    kept = 1.0 if trumps >= 4 else 0.5 if trumps >= 2 else 0.0
    est += kept * (jack + jick + high_joker + low_joker + (ten and t.ten_point))
    big = 1.0 if trumps >= 5 else 0.5 if trumps >= 3 else 0.0
    if five:
        est += 5 * big
    if three and most >= 10:
        est += 3 * big
    if not t.low_to_taker:
        if two:
            est += 1
        elif three and not t.post_bid_discard:
            est += 0.5  # the three may be the lowest trump out
    if not t.ten_point:
        game = trumps / len(hand)
        if not t.post_bid_discard:
            game += sum(c[0] in "AK" for c in hand) / len(hand)
        est += min(game, 1.0)
    return est


def best_suit(t: Table, hand: list[str]) -> tuple[str, float]:
    best, value = "C", -1.0
    for s in SUITS:
        e = estimate(t, hand, s)
        if e > value:
            best, value = s, e
    return best, value


def call(t: Table) -> str:
    view, legal = t.view, t.view["legal"]
    _, value = best_suit(t, view["hand"])
    most = t.max_points()
    floored = min(math.floor(value), most)
    first = (view["dealer"] + 1) % t.players
    bids = {}  # seat -> its call
    for i, c in enumerate(view["calls"]):
        bids[(first + i) % t.players] = c
    numbers = [int(c) for c in bids.values() if c.isdigit()]
    min_bid = min((int(a) for a in legal if a.isdigit()), default=most)
    if "shoot" in bids.values():
        return "pass" if "pass" in legal else legal[0]
    high = max(numbers) if numbers else min_bid - 1
    dealer = t.seat == view["dealer"]
    if "shoot" in legal and floored == most:
        return "shoot"
    if "pass" not in legal:  # a stuck dealer takes the lowest bid
        return min((a for a in legal if a.isdigit()), key=int)
    partner = t.partner()
    if dealer and numbers and partner is not None and bids.get(partner) == str(high):
        return "pass"  # never outbid the partner from the last seat
    if floored > high:
        want = str(high + 1) if dealer else str(floored)
        if want in legal:
            return want
        up = [a for a in legal if a.isdigit() and int(a) <= floored]
        return max(up, key=int) if up else "pass"
    return "pass"


def name_trump(t: Table) -> str:
    suit, _ = best_suit(t, t.view["hand"])
    return "trump:" + suit


# ---- the play -----------------------------------------------------------------------


def play(t: Table) -> str:
    view = t.view
    legal = view["legal"]
    if len(legal) == 1:
        return legal[0]
    tricks = view["tricks"]
    seats_of = [tr.get("seats") or trick_seats(t, tr) for tr in tricks]
    # The seat to act was never out, so it played to every finished trick: the last
    # trick is still being played exactly when this seat is not in it.
    current = tricks[-1] if tricks and t.seat not in seats_of[-1] else None
    done = tricks[:-1] if current is not None else tricks
    played = [c for tr in done for c in tr["cards"]]
    burnt = [c for s in ((view.get("draw") or {}).get("seats") or []) for c in s.get("burnt", [])]
    seen = set(played) | set(burnt)
    if current is None:
        return lead(t, legal, seen)
    cards = current["cards"]
    seats = seats_of[-1]
    winner_at = max(range(len(cards)), key=lambda i: winning_key(t, cards[0], cards[i]))
    winning, winner = cards[winner_at], seats[winner_at]
    partner = t.partner()
    partner_taking = partner is not None and winner == partner
    known = set(hand_now(t, played)) | seen
    still = [s for s in to_play(t, current, seats) if s != t.seat]
    last = not still or all(s == partner for s in still)
    if last:
        return from_last_seat(t, legal, cards, winning, partner_taking, known)
    if partner_taking:
        lho = (t.seat + 1) % t.players
        if not t.is_high(winning, known) or (
            not t.is_trump(winning) and not void_in_trump(t, lho, known)
        ):
            partner_taking = False  # not sure the partner keeps it: no points his way
    led = t.suit_of(cards[0], t.trump)
    follows = [c for c in legal if t.suit_of(c, t.trump) == led]
    if follows:
        no_trump_in = all(not t.is_trump(c) for c in cards)
        if (led == t.trump or no_trump_in) and not partner_taking:
            top = max(follows, key=t.order)
            if not any(t.suit_of(c, t.trump) == led and t.order(c) > t.order(top) for c in cards):
                return top
        if partner_taking:
            give = card_for_partner(t, legal, known)
            if give is not None:
                return give
        trump_anytime = "follow=trump" in t.view["rules"]
        if partner_taking or not trump_anytime or led == t.trump or not any(map(t.is_trump, legal)):
            return cheapest(t, legal, cards, played)
    if any(map(t.is_trump, legal)) and not partner_taking and worth_taking(t, cards):
        if any(map(t.is_trump, cards)):
            top = max((c for c in legal if t.is_trump(c)), key=t.order)
            if not any(t.is_trump(c) and t.order(c) > t.order(top) for c in cards):
                return top
        else:
            plain = sorted((c for c in legal if t.is_trump(c) and t.points(c) == 0), key=t.order)
            if plain:
                return plain[0]  # a cheap trump: the trick may yet be overtrumped
    if partner_taking:
        give = card_for_partner(t, legal, known)
        if give is not None:
            return give
    return cheapest(t, legal, cards, played)


def lead(t: Table, legal: list[str], seen: set[str]) -> str:
    pitcher = t.view.get("pitcher")
    ours = pitcher is not None and (pitcher == t.seat or pitcher == t.partner())
    if ours:
        for c in sorted((c for c in legal if t.is_trump(c)), key=t.order, reverse=True):
            if t.is_high(c, seen):
                return c
    suits = sorted(
        {t.suit_of(c, t.trump) for c in legal},
        key=lambda s: sum(t.suit_of(c, t.trump) == s for c in legal),
    )
    for s in suits:
        top = max((c for c in legal if t.suit_of(c, t.trump) == s), key=t.order)
        if t.is_high(top, seen):
            return top
    return cheapest(t, legal, [], list(seen))


def from_last_seat(t, legal, cards, winning, partner_taking, known) -> str:
    if partner_taking:
        return card_for_partner(t, legal, known) or cheapest(t, legal, cards, list(known))
    pointer = cheap_point_winner(t, legal, known, winning)
    if pointer is not None:
        return pointer
    led = t.suit_of(cards[0], t.trump)
    if not any(map(t.is_trump, cards)):
        over = [c for c in legal if t.suit_of(c, t.trump) == led and t.order(c) > t.order(winning)]
        if over:
            return min(over, key=lambda c: (-t.game_points_x2(c), t.order(c)))
    if worth_taking(t, cards):
        trumps = sorted((c for c in legal if t.is_trump(c)), key=t.order)
        if not t.is_trump(winning):
            if trumps:
                return trumps[0]
        else:
            over = [c for c in trumps if t.order(c) > t.order(winning)]
            if over:
                return over[0]
    return cheapest(t, legal, cards, list(known))


def cheap_point_winner(t, legal, known, above) -> str | None:
    """The most valuable point card that is not already sure to win, above the card now
    winning (the lowest rank first among equals); never the king or queen."""
    options = [
        c
        for c in legal
        if t.points(c) > 0
        and not t.is_high(c, known)
        and (t.suit_of(c, t.trump) != t.suit_of(above, t.trump) or t.order(c) > t.order(above))
        and c[0] not in "QK"
    ]
    if not options:
        return None
    return min(options, key=lambda c: (-t.points(c), t.order(c)))


def card_for_partner(t, legal, known) -> str | None:
    """A point card for the partner's trick, never a top trump."""
    queen = 100 + RANKS.index("Q")
    give = [
        c for c in legal if not t.is_trump(c) or (not t.is_high(c, known) and t.order(c) < queen)
    ]
    pointed = [c for c in give if t.points(c)]
    if pointed:
        return min(pointed, key=lambda c: (-t.points(c), t.order(c)))
    counted = [c for c in give if c[0] not in "KA" and t.game_points_x2(c) > 0]
    if counted:
        return min(counted, key=lambda c: (-t.game_points_x2(c), t.order(c)))
    return None


def cheapest(t, legal, trick_cards, played) -> str:
    """The lowest card worth the fewest points, non-trumps first; under low to the taker
    a low trump is kept back when it may be the two that takes Low."""
    ranked = sorted(legal, key=lambda c: (t.is_trump(c), t.capture_value(c), t.order(c)))
    pick = ranked[0]
    if not t.is_trump(pick) or not t.low_to_taker:
        return pick
    others = [c for c in list(played) + list(trick_cards) + ranked if c != pick and t.is_trump(c)]
    if not others or min(map(t.order, others)) < t.order(pick):
        return pick
    if pick[0] in "56789TJQKA" or t.post_bid_discard:
        return pick
    same = [c for c in ranked if c != pick and t.capture_value(c) == t.capture_value(pick)]
    higher = [c for c in same if t.order(c) > t.order(pick)]
    return higher[0] if higher else pick


def worth_taking(t, cards) -> bool:
    return sum(map(t.points, cards)) > 0 or sum(map(t.game_points_x2, cards)) >= 8


def winning_key(t: Table, led: str, card: str) -> tuple[int, float]:
    if t.is_trump(card):
        return (2, t.order(card))
    if t.suit_of(card, t.trump) == t.suit_of(led, t.trump):
        return (1, t.order(card))
    return (0, 0)


def trick_seats(t: Table, trick: dict) -> list[int]:
    return [(trick["leader"] + i) % t.players for i in range(len(trick["cards"]))]


def to_play(t: Table, trick: dict, seats: list[int]) -> list[int]:
    out = set(t.view.get("out") or [])
    order = [(trick["leader"] + i) % t.players for i in range(t.players)]
    return [s for s in order if s not in seats and s not in out]


def hand_now(t: Table, played: list[str]) -> list[str]:
    """The seat's cards now: those held when play started, less those played."""
    held = t.view.get("held") or t.view["hand"]
    return [c for c in held if c not in set(played)]


def void_in_trump(t: Table, seat: int, known: set[str]) -> bool:
    if seat in set(t.view.get("out") or []):
        return True
    return all(c in known for c in t.suit_cards(t.trump, t.trump))


# ---- the protocol -------------------------------------------------------------------


def decide(view: dict) -> str:
    t = Table(view)
    legal = view["legal"]
    if not legal:
        raise ValueError("nothing is legal: not my turn")
    if legal[0].startswith("trump:"):
        choice = name_trump(t)
        return choice if choice in legal else legal[0]
    if legal[0] == "pass" or legal[0].isdigit() or legal[0] == "shoot":
        return call(t)
    if legal[0].startswith("down:"):
        return come_down(t)
    return play(t)


def come_down(t: Table) -> str:
    """Coming down to 6 after the rob (docs/rules.md 4.8.7), one card a decision: the
    cheapest card offered, as ``cheapest`` ranks them (non-trumps, then fewest points,
    then lowest rank); the table offers the non-trumps first."""
    card = lambda a: a.split(":", 1)[1]  # noqa: E731
    return min(
        t.view["legal"],
        key=lambda a: (t.is_trump(card(a)), t.capture_value(card(a)), t.order(card(a))),
    )


def reply(msg: dict) -> None:
    print(json.dumps(msg), flush=True)


def main() -> None:
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            msg = json.loads(line)
        except ValueError:
            reply({"type": "error", "id": None, "code": "bad-json", "message": "not JSON"})
            continue
        kind = msg.get("type")
        if kind == "hello":
            reply(
                {
                    "type": "hello",
                    "protocol": "pitch-engine/1",
                    "name": "trickster-style",
                    "options": [],
                }
            )
        elif kind == "ready":
            reply({"type": "readyok"})
        elif kind == "quit":
            return
        elif kind == "decide":
            try:
                action = decide(msg["view"])
            except Exception as e:  # a bug here: say so, and pitchsim forfeits the game
                print(f"trickster-style: {type(e).__name__}: {e}", file=sys.stderr, flush=True)
                reply({"type": "error", "id": msg.get("id"), "code": "internal", "message": str(e)})
                continue
            reply({"type": "action", "id": msg.get("id"), "action": action})


if __name__ == "__main__":
    main()
