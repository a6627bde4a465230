"""A player's view under any rule family (VARIANTS.md): what one seat knows, checked.

The base game's view (:mod:`.view`, docs/view.md) knows six cards, bids 1-4 and trump
fixed by the opening lead.  A family adds a deal of 6, 9 or 10 cards, its own range of
calls (and ``"shoot"``), trump named after the auction (the action ``"trump:H"``), the
discard and draw after naming (non-trumps down, excess trumps burnt face up by rule X,
the draw to 6, the pitcher's rob), jokers and the jick, and ``follow=only``, where a
seat with no trump left is out.  The JSON (docs/view.md, "Views under a rule family")::

    {"rules": "ten-point,...", "players": 4, "seat": 1, "dealer": 0,
     "hand": [9 cards as dealt], "calls": ["pass", "6", "pass", "pass"],
     "trump": "H",
     "draw": {"seats": [{"discarded": 5, "burnt": []}, ...], "mine": {"drawn": ["QH"]}},
     "tricks": [{"leader": 2, "seats": [2, 3, 1], "cards": ["AH", "HJ", "2H"]}],
     "out": [0], "scores": [0, 0]}

:meth:`FamilyView.from_json` replays all of it by the reference engine's family rules
(:mod:`.reference`) and refuses, in one line (:class:`ViewError`), a view that
cannot have happened.  :meth:`FamilyView.legal` gives the seat's legal actions: calls,
the trump to name, or cards.  :func:`cut_hand` cuts a hand the reference engine played
into the view of each seat at each of its decisions (tests and tables).

Nothing here is a decision: the discard, the burn and the pitcher's coming down are
automatic (4.8), so a view carries only what a seat saw of them.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from . import reference as F
from .cards import (
    N_CARDS,
    SUIT_NAMES,
    SUITS,
    CardError,
    cards_of,
    format_card,
    mask_of,
    parse_cards,
    rank_of,
    suit_of,
)
from .rules import FamilyRules, Rules, RulesError, as_family, document_rules, spec
from .view import ViewError, read_scores, shown, whole_number

TRUMP_ACTION = "trump:"  # the pitcher's naming of trump: "trump:H"
SHOOT = "shoot"


def card_text(c: int) -> str:
    return format_card(c, symbols=False)


def call_text(call: int, rules: FamilyRules) -> str:
    """0 -> ``"pass"``, the shoot code -> ``"shoot"``, a bid -> ``"7"``."""
    if call == F.PASS:
        return "pass"
    return SHOOT if call == F.shoot_call(rules) else str(call)


def trump_text(suit: int) -> str:
    return TRUMP_ACTION + SUITS[suit]


@dataclass(frozen=True)
class FamilyTrick:
    leader: int
    seats: tuple[int, ...]  # who played, from the leader on (follow=only skips the out)
    cards: tuple[int, ...]


@dataclass(frozen=True)
class SeatDraw:
    """What every seat saw of one seat's discard and draw (4.8)."""

    discarded: int  # non-trumps put down face down
    burnt: tuple[int, ...]  # trumps burnt face up by rule X: out of play, seen by all
    drawn: int = 0  # cards drawn from the stock, then from the discards (step 4)


@dataclass(frozen=True)
class FamilyView:
    """What ``seat`` knows under a rule family.  Build one with :meth:`from_json`."""

    rules: FamilyRules
    players: int
    seat: int
    dealer: int
    hand: tuple[int, ...]  # as dealt: 6, 9 or 10 cards
    calls: tuple[int, ...]  # 0 pass, 1..max bid, max bid + 1 a shoot
    scores: tuple[int, ...]  # per seat, or per team in a partnership
    named: int | None = None  # the suit named (trump=named), None until named
    draws: tuple[SeatDraw, ...] = ()  # per seat, once the draw is made
    drawn: tuple[int, ...] = ()  # this seat's own drawn cards, in order
    robbed: tuple[int, ...] = ()  # the stock's cards this seat took as the robbing pitcher
    tricks: tuple[FamilyTrick, ...] = ()
    out: tuple[int, ...] = ()  # seats shown to hold no trump (follow=only)
    # Worked out by the replay:
    pitcher: int | None = None
    bid: int | None = None
    shoot: bool = False
    trump: int | None = None
    phase: str = "auction"  # auction | trump | play | over | thrown-in
    to_move: int | None = None
    held: tuple[int, ...] = ()  # own cards when play starts (after any draw)
    discards: tuple[int, ...] = ()  # own non-trumps put down
    burnt: tuple[int, ...] = ()  # own trumps burnt
    put_down: tuple[int, ...] = ()  # own cards put down after the rob
    robbed_count: int = 0
    put_down_count: int = 0
    # Worked out by the replay for the search (``search.hint``), not in the JSON:
    sizes: tuple[int, ...] = field(default=(), repr=False, compare=False)  # held at the start
    voids: int = field(default=0, repr=False, compare=False)  # bit 4 * seat + effective suit
    junk_lost: int = field(default=0, repr=False, compare=False)  # own discards others drew
    _legal: tuple[str, ...] = field(default=(), repr=False, compare=False)

    @property
    def partnership(self) -> bool:
        return self.rules.partnership

    @property
    def target(self) -> int:
        return self.rules.target

    def caller(self, i: int) -> int:
        return (self.dealer + 1 + i) % self.players

    def seat_score(self, seat: int) -> int:
        return self.scores[seat % 2] if self.partnership else self.scores[seat]

    @property
    def in_hand(self) -> int:
        """Own cards still held (mask) once play has started."""
        m = mask_of(self.held)
        for t in self.tricks:
            m &= ~mask_of(t.cards)
        return m

    def legal(self) -> list[str]:
        """The seat's legal actions now (empty when it is not its turn)."""
        return list(self._legal) if self.to_move == self.seat else []

    @classmethod
    def from_json(cls, doc: object) -> FamilyView:
        return _parse(doc)

    def to_json(self) -> dict:
        r = self.rules
        draw = None
        if self.draws:
            draw = {
                "seats": [
                    {"discarded": d.discarded, "burnt": _texts(d.burnt), "drawn": d.drawn}
                    for d in self.draws
                ],
                "mine": {
                    "discarded": _texts(self.discards),
                    "burnt": _texts(self.burnt),
                    "drawn": _texts(self.drawn),
                },
            }
            if r.rob:
                draw["robbed"] = self.robbed_count
                draw["put_down"] = self.put_down_count
                if self.seat == self.pitcher:
                    draw["mine"] |= {
                        "robbed": _texts(self.robbed),
                        "put_down": _texts(self.put_down),
                    }
        return {
            "rules": spec(r),
            "players": self.players,
            "partnership": self.partnership,
            "target": self.target,
            "seat": self.seat,
            "dealer": self.dealer,
            "hand": _texts(self.hand),
            "calls": [call_text(c, r) for c in self.calls],
            "pitcher": self.pitcher,
            "bid": self.bid,
            "shoot": self.shoot,
            "trump": SUITS[self.trump] if self.trump is not None else None,
            "draw": draw,
            "held": _texts(self.held) if self.phase in ("play", "over") else None,
            "tricks": [
                {"leader": t.leader, "seats": list(t.seats), "cards": _texts(t.cards)}
                for t in self.tricks
            ],
            "out": sorted(self.out),
            "scores": list(self.scores),
            "phase": self.phase,
            "to_move": self.to_move,
            "legal": self.legal(),
        }


def names_a_family(doc: object) -> bool:
    """Whether a view document's rules are a preset's other than the base game's (read
    by :meth:`FamilyView.from_json`; the base game's by ``view.View``).  Rules that do
    not parse are left to the view reader's one-line refusal."""
    if not isinstance(doc, dict) or not isinstance(doc.get("rules"), str | dict):
        return False
    try:
        return isinstance(document_rules(doc["rules"]), FamilyRules)
    except (RulesError, TypeError, ValueError):
        return False


def _texts(cards: Sequence[int]) -> list[str]:
    return [card_text(c) for c in cards]


# ---------------------------------------------------------------- reading


def _cards(value: object, what: str, jokers: int) -> tuple[int, ...]:
    if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
        raise ViewError(f'{what} must be a list of cards like ["AH", "TS"]')
    out: list[int] = []
    for c in value:
        try:
            cs = parse_cards(c, jokers)
        except CardError as e:
            raise ViewError(f"{what}: {e}") from None
        if len(cs) != 1:
            raise ViewError(f"{what}: {c!r} is not one card")
        if cs[0] in out:
            raise ViewError(f"{what}: {card_text(cs[0])} is there twice")
        out.append(cs[0])
    return tuple(out)


def _rules(doc: dict) -> FamilyRules:
    given = doc.get("rules")
    if not isinstance(given, str | dict):
        raise ViewError('rules must be a rule string like "smear" or "ten-point,target=21"')
    try:
        rules = as_family(document_rules(given))  # a string or an object, never a file
    except RulesError as e:
        raise ViewError(f"rules: {e}") from None
    for key in ("partnership", "target"):
        if doc.get(key) is None:
            continue
        # Typed before compared: 0 is not false, nor 11.0 or true a target.
        if key == "partnership" and not isinstance(doc[key], bool):
            raise ViewError(f"partnership must be true or false, not {shown(doc[key])}")
        if key == "target":
            whole_number(doc[key], "target")
        if doc[key] != getattr(rules, key):
            raise ViewError(f"{key} is {shown(doc[key])} but the rules say {getattr(rules, key)}")
    return rules


def parse_call(value: object, what: str, rules: FamilyRules) -> int:
    """``"pass"`` (or null), ``"shoot"`` where offered, or a bid in the family's range."""
    top = rules.max_bid
    if value is None or value == "pass":
        return F.PASS
    if value == SHOOT and rules.shoot:
        return F.shoot_call(rules)
    if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= 2:
        value = int(value)
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= top:
        return value
    shoot = ', or "shoot"' if rules.shoot else ""
    raise ViewError(f'{what} must be "pass" or a bid "1"-"{top}"{shoot}, not {shown(value)}')


def _list(doc: dict, key: str, what: str) -> list:
    value = doc.get(key)
    if value is None:
        return []
    if not isinstance(value, list):
        raise ViewError(f"{what} must be a list")
    return value


def _parse(doc: object) -> FamilyView:
    if not isinstance(doc, dict):
        raise ViewError("a view is a JSON object with rules, players, seat, dealer and hand")
    for key in ("rules", "players", "seat", "dealer", "hand"):
        if key not in doc:
            raise ViewError(f"the view has no {key!r}")
    r = _rules(doc)
    n = whole_number(doc["players"], "players")
    try:
        r.check_players(n)
    except RulesError as e:
        raise ViewError(str(e)) from None
    seat = whole_number(doc["seat"], "seat")
    dealer = whole_number(doc["dealer"], "dealer")
    for name, s in (("seat", seat), ("dealer", dealer)):
        if not 0 <= s < n:
            raise ViewError(f"{name} {s} is not a seat of a {n}-player table (0-{n - 1})")
    hand = _cards(doc["hand"], "hand", r.jokers)
    calls_doc = _list(doc, "calls", "calls")
    if len(calls_doc) > n:
        raise ViewError(f"{len(calls_doc)} calls: each of the {n} seats calls at most once")
    calls = tuple(parse_call(c, f"call {i + 1}", r) for i, c in enumerate(calls_doc))
    named = None
    if r.trump == "named" and doc.get("trump") is not None:
        named = _suit(doc["trump"])
    draws: tuple[SeatDraw, ...] = ()
    drawn: tuple[int, ...] = ()
    robbed: tuple[int, ...] = ()
    draw_doc = doc.get("draw")
    if draw_doc is not None:
        if not isinstance(draw_doc, dict):
            raise ViewError('draw must be an object with "seats" (and "mine")')
        seats_doc = draw_doc.get("seats")
        if not isinstance(seats_doc, list) or len(seats_doc) != n:
            raise ViewError(f"draw: seats must list the {n} seats' discards and burnt trumps")
        out_draws = []
        for s, d in enumerate(seats_doc):
            if not isinstance(d, dict) or "discarded" not in d:
                raise ViewError(f"draw: seat {s} must be an object with discarded (and burnt)")
            k = whole_number(d["discarded"], f"draw: seat {s}'s discarded")
            if k < 0:
                raise ViewError(f"draw: seat {s} discarded {k} cards")
            burnt = _cards(d.get("burnt", []), f"draw: seat {s}'s burnt", r.jokers)
            out_draws.append(SeatDraw(k, burnt))
        draws = tuple(out_draws)
        mine = draw_doc.get("mine", {})
        if not isinstance(mine, dict):
            raise ViewError("draw: mine must be an object with drawn (and robbed)")
        drawn = _cards(mine.get("drawn", []), "draw: drawn", r.jokers)
        robbed = _cards(mine.get("robbed", []), "draw: robbed", r.jokers)
    tricks = []
    tricks_doc = _list(doc, "tricks", "tricks")
    if len(tricks_doc) > F.HAND_TARGET:
        raise ViewError(f"{len(tricks_doc)} tricks: a hand has at most {F.HAND_TARGET}")
    for t, trick in enumerate(tricks_doc, 1):
        if not isinstance(trick, dict) or "leader" not in trick or "cards" not in trick:
            raise ViewError(f"trick {t} must be an object with leader and cards")
        leader = whole_number(trick["leader"], f"trick {t}'s leader")
        if not 0 <= leader < n:
            raise ViewError(f"trick {t}'s leader {leader} is not a seat (0-{n - 1})")
        cards = _cards(trick["cards"], f"trick {t}", r.jokers)
        if len(cards) > n:
            raise ViewError(f"trick {t} has {len(cards)} cards: at most {n} at {n} players")
        if trick.get("seats") is None:
            if r.follow == "only":
                raise ViewError(f"trick {t} needs seats: under follow=only a seat may be out")
            seats = tuple((leader + i) % n for i in range(len(cards)))
        else:
            seats_v = trick["seats"]
            if not isinstance(seats_v, list):
                raise ViewError(f"trick {t}'s seats must be a list of seats")
            seats = tuple(whole_number(s, f"trick {t}'s seat") for s in seats_v)
            if len(seats) != len(cards):
                raise ViewError(f"trick {t} has {len(cards)} cards but {len(seats)} seats")
        tricks.append(FamilyTrick(leader, seats, cards))
    out_doc = _list(doc, "out", "out")
    out = tuple(whole_number(s, "out") for s in out_doc)
    for s in out:
        if not 0 <= s < n:
            raise ViewError(f"out: {s} is not a seat (0-{n - 1})")
    if out and r.follow != "only":
        raise ViewError("out: seats drop out only under follow=only")
    scores = read_scores(doc, n, r.partnership)
    base = FamilyView(
        r, n, seat, dealer, hand, calls, scores, named, draws, drawn, robbed, tuple(tricks), out
    )
    view = _Replay(base).run()
    _agrees(doc, view)
    return view


def _suit(value: object) -> int:
    if not isinstance(value, str) or len(value) != 1 or value.upper() not in SUITS:
        raise ViewError(f'trump must be a suit letter "C", "D", "H" or "S", not {shown(value)}')
    return SUITS.index(value.upper())


def _agrees(doc: dict, v: FamilyView) -> None:
    """The facts a table may state must agree with what the replay worked out."""
    for key, got in (("pitcher", v.pitcher), ("bid", v.bid), ("to_move", v.to_move)):
        # A whole number or null: true is not seat 1, nor 1.0 a bid of 1.
        if doc.get(key) is not None and whole_number(doc[key], key) != got:
            raise ViewError(f"{key} is {doc[key]} but the view makes it {shown(got)}")
    if doc.get("shoot") is not None and not isinstance(doc["shoot"], bool):
        raise ViewError(f"shoot must be true or false, not {shown(doc['shoot'])}")
    if doc.get("shoot") is not None and doc["shoot"] is not v.shoot:
        raise ViewError(f"shoot is {shown(doc['shoot'])} but the calls make it {v.shoot}")
    if doc.get("phase") is not None and doc["phase"] != v.phase:
        raise ViewError(f"phase is {shown(doc['phase'])} but the view makes it {v.phase!r}")
    t = doc.get("trump")
    if t is not None and v.rules.trump == "first-lead":
        suit = _suit(t)
        if v.trump is None:
            raise ViewError(f"trump is {t} but the opening lead has not been made")
        if suit != v.trump:
            raise ViewError(f"trump is {t} but the opening lead makes it {SUITS[v.trump]}")
    r = v.rules
    if doc.get("held") is not None:
        held = _cards(doc["held"], "held", r.jokers)
        if sorted(held) != sorted(v.held) or v.phase not in ("play", "over"):
            raise ViewError(f"held is {' '.join(_texts(held))} but the draw leaves {_held(v)}")
    draw = doc.get("draw")
    if isinstance(draw, dict):
        for s, d in enumerate(draw["seats"]):
            said, got = d.get("drawn"), v.draws[s].drawn
            if said is not None and whole_number(said, f"draw: seat {s}'s drawn") != got:
                raise ViewError(
                    f"draw: seat {s} drew {d['drawn']} cards, but after discarding "
                    f"{v.draws[s].discarded} and burning {len(v.draws[s].burnt)} of "
                    f"{len(v.hand)} it draws {v.draws[s].drawn}"
                )
        for key, got in (("robbed", v.robbed_count), ("put_down", v.put_down_count)):
            if draw.get(key) is not None and whole_number(draw[key], f"draw: {key}") != got:
                raise ViewError(f"draw: {key} is {draw[key]} but the counts make it {got}")
        mine = draw.get("mine") or {}
        for key, got in (("discarded", v.discards), ("burnt", v.burnt), ("put_down", v.put_down)):
            if mine.get(key) is not None:
                given = _cards(mine[key], f"draw: {key}", r.jokers)
                if sorted(given) != sorted(got):
                    raise ViewError(
                        f"draw: mine {key} is {' '.join(_texts(given)) or 'nothing'}, but "
                        f"the rules put down {' '.join(_texts(got)) or 'nothing'} (4.8)"
                    )
    if doc.get("legal") is not None:
        legal = doc["legal"]
        if not isinstance(legal, list) or not all(isinstance(a, str) for a in legal):
            raise ViewError('legal must be a list of actions like ["pass", "6"], ["trump:H"]')
        if sorted(_norm_action(a, r) for a in legal) != sorted(v.legal()):
            raise ViewError(
                f"legal lists {' '.join(legal) or 'nothing'}, but the legal "
                f"actions are {' '.join(v.legal()) or 'none'}"
            )


def _held(v: FamilyView) -> str:
    return " ".join(_texts(v.held)) if v.phase in ("play", "over") else "no hand yet"


def normal_action(a: str, rules: FamilyRules) -> str:
    """An action as :meth:`FamilyView.legal` writes it (``"th"`` -> ``"TH"``,
    ``"Trump:h"`` -> ``"trump:H"``, ``"PASS"`` -> ``"pass"``); anything else lowered."""
    return _norm_action(a, rules)


def _norm_action(a: str, rules: FamilyRules) -> str:
    low = a.strip().lower()
    if low.startswith(TRUMP_ACTION):
        return TRUMP_ACTION + low[len(TRUMP_ACTION) :].upper()
    try:
        cs = parse_cards(a, rules.jokers)
        if len(cs) == 1:
            return card_text(cs[0])
    except CardError:
        pass
    return low


# ---------------------------------------------------------------- replaying


class _Replay:
    """The view replayed clause by clause; ``run`` returns it with the derived fields."""

    def __init__(self, v: FamilyView) -> None:
        self.v = v
        self.r = v.rules
        self.n = v.players
        self.pack = mask_of(F.pack(self.r, self.n))
        # card -> where this seat knows it is ("hand", "burnt by seat 2", ...)
        self.known: dict[int, str] = {}
        self.burnt_by: dict[int, tuple[int, ...]] = {}  # seat -> its trumps burnt face up
        self.lost_to_junk = 0  # own discards another seat may have drawn (4.8 step 4)

    def fail(self, text: str) -> None:
        raise ViewError(text)

    def done(self, **kw) -> FamilyView:
        from dataclasses import replace

        return replace(self.v, **kw)

    def run(self) -> FamilyView:
        v, r, n = self.v, self.r, self.n
        each = r.cards_each(n)
        for c in v.hand:
            self.check_in_pack(c, "hand")
            self.known[c] = "its own hand"
        if len(v.hand) != each:
            self.fail(
                f"hand has {len(v.hand)} cards: a seat is dealt {each} ({r.family}, {n} players)"
            )

        # The auction (0.2, 6.1).
        made: list[int] = []
        for i, call in enumerate(v.calls):
            s = v.caller(i)
            legal = F.legal_calls(made, s == v.dealer, r, may_shoot=v.seat_score(s) >= 0)
            if not legal:
                self.fail(f"call {i + 1} (seat {s}) comes after the auction is over")
            if call not in legal:
                self.fail(
                    f"call {i + 1}: seat {s} may not call {call_text(call, r)} "
                    f"(legal: {', '.join(call_text(c, r) for c in legal)})"
                )
            made.append(call)
        nxt = v.caller(len(made))
        legal = (
            F.legal_calls(made, nxt == v.dealer, r, may_shoot=v.seat_score(nxt) >= 0)
            if len(made) < n
            else []
        )
        later = v.named is not None or v.draws or v.tricks or v.out
        if legal:
            if later:
                self.fail(f"{len(made)} of {n} calls made: the auction is not over")
            return self.done(
                phase="auction", to_move=nxt, _legal=tuple(call_text(c, r) for c in legal)
            )
        bids = [i for i, c in enumerate(made) if c != F.PASS]
        if not bids:
            if later:
                self.fail("everybody passed, so the hand was thrown in: nothing follows")
            return self.done(phase="thrown-in", to_move=None)
        pitcher = v.caller(bids[-1])
        shoot = made[bids[-1]] == F.shoot_call(r)
        bid = r.max_bid if shoot else made[bids[-1]]
        fixed = dict(pitcher=pitcher, bid=bid, shoot=shoot)

        # Trump named after the auction (3.5, 4.6).
        trump = None
        if r.trump == "named":
            if v.named is None:
                if v.draws or v.tricks or v.out:
                    self.fail("trump is not named yet, so no card is drawn or played")
                actions = tuple(trump_text(s) for s in range(4))
                return self.done(phase="trump", to_move=pitcher, _legal=actions, **fixed)
            trump = v.named

        # The discard and draw (4.8).
        held = mask_of(v.hand)
        counts = [each] * n  # cards each seat holds when play starts
        draw_facts: dict = {}
        if r.discard == "non-trump":
            if not v.draws:
                self.fail("trump is named, so the discard and draw has been made: give draw")
            held, counts, draw_facts = self.draw(pitcher, trump)
        elif v.draws or v.drawn or v.robbed:
            self.fail(f"{r.family} has no discard and draw (discard=none)")
        return self.play(pitcher, trump, held, counts, fixed | draw_facts)

    def check_in_pack(self, c: int, what: str) -> None:
        if not self.pack >> c & 1:
            self.fail(
                f"{what}: {card_text(c)} is not in the pack ({self.r.family}, {self.n} players, 4.3)"
            )

    def see(self, c: int, where: str, what: str) -> None:
        self.check_in_pack(c, what)
        if c in self.known:
            self.fail(f"{what}: {card_text(c)} is already in {self.known[c]}")
        self.known[c] = where

    # ---- 4.8 ------------------------------------------------------------------------

    def draw(self, pitcher: int, trump: int) -> tuple[int, list[int], dict]:
        v, r, n = self.v, self.r, self.n
        each = r.cards_each(n)
        stock = self.pack.bit_count() - n * each
        junk = 0  # face-down discards so far (a count: their cards are unknown)
        mine_discarded = False  # own discards are in the face-down pile from here on
        draws = list(v.draws)
        own_dealt = mask_of(v.hand)
        own_trumps = F.trumps_in(own_dealt, trump, r)
        own_discards = own_dealt & ~own_trumps
        own_burnt = F.excess_trumps(cards_of(own_trumps), F.HAND_TARGET, trump, r)
        for s, d in enumerate(draws):
            for c in d.burnt:
                if s == v.seat:
                    continue
                self.see(c, f"seat {s}'s burnt trumps", f"draw: seat {s}'s burnt")
                if not F.is_trump(c, trump, r):
                    self.fail(
                        f"draw: seat {s} burnt {card_text(c)}, which is not a trump (4.8 step 2)"
                    )
        me = draws[v.seat]
        if me.discarded != own_discards.bit_count():
            self.fail(
                f"draw: seat {v.seat} discarded {me.discarded}, but it holds "
                f"{own_discards.bit_count()} non-trumps to put down (4.8 step 1)"
            )
        if sorted(me.burnt) != sorted(own_burnt):
            self.fail(
                f"draw: seat {v.seat} burnt {' '.join(_texts(me.burnt)) or 'nothing'}, but rule X "
                f"burns {' '.join(_texts(own_burnt)) or 'nothing'} (4.8 step 6)"
            )
        drawn_from_stock = drawn_from_junk = 0
        robbed_count = 0
        order = [(pitcher + 1 + i) % n for i in range(n)]
        counts = [0] * n
        junk_draw_after_me = False
        for s in order:
            d = draws[s]
            kept = each - d.discarded - len(d.burnt)
            if kept < 0:
                self.fail(
                    f"draw: seat {s} put down {d.discarded + len(d.burnt)} of its {each} cards"
                )
            if d.burnt and kept != F.HAND_TARGET:
                self.fail(
                    f"draw: seat {s} burnt {len(d.burnt)} trumps but kept {kept}: only trumps "
                    f"beyond {F.HAND_TARGET} are burnt (4.8 step 2)"
                )
            if kept > F.HAND_TARGET:
                self.fail(
                    f"draw: seat {s} discarded {d.discarded} of {each}, so it kept {kept} "
                    f"trumps: more than {F.HAND_TARGET} are burnt (4.8 step 2)"
                )
            junk += d.discarded
            if s == v.seat:
                mine_discarded = True
            held = kept
            took = from_junk = 0
            if not (r.rob and s == pitcher):
                took = min(F.HAND_TARGET - held, stock)
                stock -= took
                held += took
            else:
                robbed_count = stock
                held += stock
                stock = 0
            if held < F.HAND_TARGET and r.follow != "only" and junk:
                from_junk = min(F.HAND_TARGET - held, junk)
                junk -= from_junk
                held += from_junk
                if mine_discarded and s != v.seat:
                    junk_draw_after_me = True
            put = max(0, held - F.HAND_TARGET)
            counts[s] = held - put
            draws[s] = SeatDraw(d.discarded, d.burnt, took + from_junk)
            if s == v.seat:
                drawn_from_stock, drawn_from_junk = (
                    (0 if r.rob and s == pitcher else took),
                    from_junk,
                )
            if r.rob and s == pitcher:
                put_down_count = put
        # This seat's own cards: what it drew, what it robbed.
        want = drawn_from_stock + drawn_from_junk
        if len(v.drawn) != want:
            self.fail(
                f"draw: seat {v.seat} drew {len(v.drawn)} cards, but after its discard it "
                f"draws {want} (4.8 step 3)"
            )
        for i, c in enumerate(v.drawn):
            if i < drawn_from_stock:
                self.see(c, "the cards drawn", "draw: drawn")
            else:  # step 4: from the face-down discards, non-trumps only
                if F.is_trump(c, trump, self.r):
                    self.fail(
                        f"draw: {card_text(c)} came from the discards but is a trump (4.8 step 4)"
                    )
                if c in self.known and not own_discards >> c & 1:
                    self.fail(f"draw: drawn: {card_text(c)} is already in {self.known[c]}")
                self.check_in_pack(c, "draw: drawn")
                self.known[c] = "the cards drawn"
        if r.rob and v.seat == pitcher:
            if len(v.robbed) != robbed_count:
                self.fail(
                    f"draw: the pitcher robbed {len(v.robbed)} cards, but the stock held {robbed_count}"
                )
            for c in v.robbed:
                self.see(c, "the robbed stock", "draw: robbed")
        elif v.robbed:
            self.fail(f"draw: seat {v.seat} robbed cards, but only the pitcher robs (4.8 step 5)")
        held_mask = (own_trumps & ~mask_of(own_burnt)) | mask_of(v.drawn) | mask_of(v.robbed)
        put_down: list[int] = []
        if r.rob and v.seat == pitcher:
            cards = cards_of(held_mask)
            non = sorted(
                (c for c in cards if not F.is_trump(c, trump, r)),
                key=lambda c: (rank_of(c), suit_of(c)),
            )
            put_down = non[: max(0, len(cards) - F.HAND_TARGET)]
            trumps = [c for c in cards if F.is_trump(c, trump, r)]
            put_down += F.excess_trumps(
                trumps, F.HAND_TARGET - (len(non) - len(put_down)), trump, r
            )
            held_mask &= ~mask_of(put_down)
        # Own discards stay known to this seat unless a later seat drew from the discards.
        self.lost_to_junk = own_discards if junk_draw_after_me else 0
        self.burnt_by = {s: d.burnt for s, d in enumerate(draws)}
        facts = dict(
            draws=tuple(draws),
            discards=tuple(cards_of(own_discards)),
            burnt=tuple(own_burnt),
            put_down=tuple(put_down),
            robbed_count=robbed_count,
            put_down_count=put_down_count if r.rob else 0,
        )
        return held_mask, counts, facts

    # ---- play (0.5, RULES, 3.7, 4.9, 6.3.5) -------------------------------------------

    def play(
        self, pitcher: int, trump: int | None, held: int, counts: list[int], facts: dict
    ) -> FamilyView:
        v, r, n = self.v, self.r, self.n
        only = r.follow == "only"
        burnt_by = self.burnt_by
        lost_to_junk = self.lost_to_junk
        seen: dict[int, tuple[int, int]] = {}
        voids = 0
        shown_out: set[int] = set()
        played_count = [0] * n
        hand_now = held
        facts = facts | {
            "held": tuple(cards_of(held)),
            "trump": trump,
            "sizes": tuple(counts),
            "junk_lost": lost_to_junk,
        }

        def has_trump(s: int) -> bool | None:
            """Own seat: known; another seat: None (unknown) unless shown out."""
            if s == v.seat:
                return (
                    bool(F.trumps_in(hand_now, trump, r)) if trump is not None else bool(hand_now)
                )
            return False if s in shown_out else None

        given_out = set(v.out)
        leader = pitcher
        for t, trick in enumerate(v.tricks, 1):
            if not trick.cards:
                if t < len(v.tricks):
                    self.fail(f"trick {t} has no cards but is not the last")
                # A trick about to be led, written out empty: its leader must be next.
                res = _Replay(self._drop_last()).run()
                if res.to_move != trick.leader:
                    self.fail(
                        f"trick {t} is led by seat {trick.leader}, but seat {res.to_move} leads"
                    )
                return res
            if only:
                # 4.9: the leader is the first seat from the last winner (the pitcher)
                # holding a trump; every seat passed over is out.
                s = leader
                while s != trick.leader:
                    if s == v.seat and has_trump(s):
                        self.fail(
                            f"trick {t} is led by seat {trick.leader}, but seat {s} holds a trump and leads"
                        )
                    shown_out.add(s)
                    s = (s + 1) % n
                    if s == leader:
                        break
            elif trick.leader != leader:
                who = "the pitcher" if t == 1 else f"the winner of trick {t - 1}"
                self.fail(f"trick {t} is led by seat {trick.leader}, but {who} is seat {leader}")
            if trick.seats[0] != trick.leader:
                self.fail(
                    f"trick {t}'s seats start at {trick.seats[0]}, not its leader {trick.leader}"
                )
            if trick.leader in shown_out:
                self.fail(f"trick {t} is led by seat {trick.leader}, who is out (no trump left)")
            prev = None
            played: list[int] = []
            for i, (s, c) in enumerate(zip(trick.seats, trick.cards, strict=True)):
                if not 0 <= s < n:
                    self.fail(f"trick {t}: seat {s} is not a seat (0-{n - 1})")
                if prev is not None:
                    gap = (s - prev) % n
                    if gap == 0 or (s - trick.leader) % n <= (prev - trick.leader) % n:
                        self.fail(f"trick {t}: seat {s} plays out of turn")
                    for k in range(1, gap):
                        skipped = (prev + k) % n
                        if not only:
                            self.fail(
                                f"trick {t}: seat {skipped} is skipped, but only follow=only skips a seat"
                            )
                        if skipped == v.seat and has_trump(skipped):
                            self.fail(f"trick {t}: seat {skipped} is skipped but holds a trump")
                        shown_out.add(skipped)
                if s in shown_out:
                    self.fail(f"trick {t}: seat {s} plays after it was out (no trump left, 4.9)")
                prev = s
                first = t == 1 and i == 0
                name = card_text(c)
                if c in seen:
                    t0, s0 = seen[c]
                    self.fail(
                        f"{name} is played twice: by seat {s0} in trick {t0} and by seat {s} in trick {t}"
                    )
                self.check_in_pack(c, f"trick {t}")
                tr = -1 if trump is None else trump
                if s == v.seat:
                    if not hand_now >> c & 1:
                        self.fail(
                            f"seat {s} plays {name} in trick {t} but does not hold it (it holds {' '.join(_texts(cards_of(hand_now)))})"
                        )
                    if not F.legal_cards(hand_now, played, tr, r, first_lead=first) >> c & 1:
                        self.fail(
                            f"seat {s}'s {name} in trick {t} is illegal: {self._why(hand_now, played, tr, first)}"
                        )
                    hand_now &= ~(1 << c)
                else:
                    where = self.known.get(c)
                    if where is not None and not lost_to_junk >> c & 1:
                        mine = where in ("its own hand", "the cards drawn", "the robbed stock")
                        whose = f" of seat {v.seat}" if mine else ""
                        self.fail(
                            f"seat {s} plays {name} in trick {t}, but it is in {where}{whose}"
                        )
                    if played_count[s] >= counts[s]:
                        self.fail(
                            f"seat {s} plays a card in trick {t} but held only {counts[s]} (4.8)"
                        )
                    if trump is not None:
                        eff = F.effective_suit(c, trump, r)
                        if voids >> (4 * s + eff) & 1:
                            self.fail(
                                f"seat {s} plays {name} in trick {t} after showing it held no {SUIT_NAMES[eff]}{' trump' if eff == trump else ''}"
                            )
                        if only and not F.is_trump(c, trump, r):
                            self.fail(
                                f"seat {s} plays {name} in trick {t}: under follow=only only trumps are played (4.9)"
                            )
                        if F.is_trump(c, trump, r) and burnt_by.get(s):
                            key = _x_key(c, trump, r)
                            if key < max(_x_key(b, trump, r) for b in burnt_by[s]):
                                self.fail(
                                    f"seat {s} plays {name} in trick {t}, but rule X would have burnt it before {' '.join(_texts(burnt_by[s]))} (4.8 step 6)"
                                )
                    if first and r.trump == "first-lead" and c >= N_CARDS:
                        self.fail(f"seat {s} leads {name} first: a joker may not fix trump (6.3.5)")
                played_count[s] += 1
                if trump is None:
                    trump = suit_of(c)  # 6.3.5: the first card's printed suit
                    facts["trump"] = trump
                if first and r.lead_trump and not only and not F.is_trump(c, trump, r):
                    voids |= 1 << (4 * s + trump)  # it held no trump (6.1 lead-trump)
                if played and not only:
                    led = F.effective_suit(played[0], trump, r)
                    mine = F.effective_suit(c, trump, r)
                    if mine != led and (mine != trump or r.follow == "suit"):
                        voids |= 1 << (4 * s + led)
                seen[c] = (t, s)
                played.append(c)
            if t < len(v.tricks) and only:
                # a later trick exists, so every seat after the last to play was out
                k = (trick.seats[-1] + 1) % n
                while k != trick.leader:
                    if k == v.seat and has_trump(k):
                        self.fail(f"trick {t}: seat {k} is skipped but holds a trump")
                    shown_out.add(k)
                    k = (k + 1) % n
            complete = self._complete(trick, given_out | shown_out, hand_now, trump)
            if not complete:
                if t < len(v.tricks):
                    self.fail(f"trick {t} has {len(trick.cards)} cards but is not the last")
                break
            w = trick.seats[F.trick_winner(trick.cards, trump, r)]
            leader = w
        # Where the hand stands now.
        if only:
            bad = shown_out - given_out
            if bad:
                self.fail(
                    f"out must list seat {min(bad)}: it was passed over, so it holds no trump"
                )
            for s in given_out:
                if s == v.seat and has_trump(s):
                    self.fail(f"out lists seat {s}, but it holds a trump")
            if v.seat not in given_out and not has_trump(v.seat) and facts["trump"] is not None:
                given_out.add(v.seat)  # it knows it is out
        elif v.out:
            self.fail("out: seats drop out only under follow=only")
        out = tuple(sorted(given_out)) if only else ()
        last = v.tricks[-1] if v.tricks else None
        trump = facts["trump"]
        if last is not None and not self._complete(last, given_out | shown_out, hand_now, trump):
            # the next seat of the trick in progress
            s = (last.seats[-1] + 1) % n
            while s in given_out or s in shown_out:
                s = (s + 1) % n
            to_move, trick_cards = s, list(last.cards)
            first = False
        else:
            trick_cards = []
            first = not v.tricks
            done = len(v.tricks)
            if not only and done == counts[pitcher]:
                return self.done(phase="over", to_move=None, out=out, voids=voids, **facts)
            if only:
                to_move = None
                for i in range(n):
                    s = (leader + i) % n
                    if s not in given_out and s not in shown_out:
                        to_move = s
                        break
                if to_move is None:
                    return self.done(phase="over", to_move=None, out=out, **facts)
                if len(v.tricks) == F.HAND_TARGET:
                    self.fail(
                        f"{F.HAND_TARGET} tricks are played, so nobody holds a trump: out must list every seat"
                    )
            else:
                to_move = leader
        legal: tuple[str, ...] = ()
        if to_move == v.seat:
            tr = -1 if trump is None else trump
            mask = F.legal_cards(hand_now, trick_cards, tr, r, first_lead=first)
            legal = tuple(card_text(c) for c in cards_of(mask))
        return self.done(phase="play", to_move=to_move, out=out, voids=voids, _legal=legal, **facts)

    def _complete(self, trick: FamilyTrick, out: set[int], hand_now: int, trump) -> bool:
        """Every seat not out has played to ``trick``."""
        if self.r.follow != "only":
            return len(trick.cards) == self.n
        s = (trick.seats[-1] + 1) % self.n
        while s != trick.leader:
            if s == self.v.seat:
                if F.trumps_in(hand_now, trump, self.r):
                    return False
            elif s not in out:
                return False
            s = (s + 1) % self.n
        return True

    def _why(self, hand: int, played: list[int], trump: int, first: bool) -> str:
        r = self.r
        if r.follow == "only":
            return "only trumps are played (4.9)"
        if not played:
            if r.trump == "first-lead":
                return "a joker may not be the first lead (6.3.5)"
            return "the first lead must be a trump while the pitcher holds one (lead-trump, 4.9)"
        led = F.effective_suit(played[0], trump, r)
        must = "follow suit" if r.follow == "suit" else "follow suit or trump"
        return f"it holds {SUIT_NAMES[led]}{' trump' if led == trump else ''}, so it must {must}"

    def _drop_last(self) -> FamilyView:
        from dataclasses import replace

        return replace(self.v, tricks=self.v.tricks[:-1])


def _x_key(c: int, trump: int, rules: FamilyRules) -> tuple:
    """Rule X's burn order (4.8 step 6): plain trumps lowest first, then point carriers by
    value, then rank.  A card with a smaller key goes before one with a larger key."""
    order = F.trump_order(rules, trump)
    if not F.carries_point(c, trump, rules):
        return (0, 0, order.index(c))
    return (1, F.point_value(c, trump, rules), order.index(c))


# ---------------------------------------------------------------- cutting a played hand


def cut_hand(
    hand: F.GameHand, players: int, rules: Rules, scores: Sequence[int]
) -> Iterator[tuple[int, dict, str]]:
    """Every decision of a hand the reference engine played (``play_game``), as
    ``(seat, view document, action taken)``: each call, the naming of trump and each card.

    ``scores`` are the seats' scores before the hand (partners carry their team's).
    A view holds only what its seat saw: its own cards, the calls, the burnt trumps and
    the counts of the draw, the tricks and who is out.
    """
    r = as_family(rules)
    n = players
    score_doc = [scores[0], scores[1]] if r.partnership else list(scores)
    dealt = [sorted(cards_of(m)) for m in hand.dealt]
    a = hand.auction
    made: list[int] = []
    for i, s in enumerate(a.order):
        if not F.legal_calls(made, s == hand.dealer, r, may_shoot=scores[s] >= 0):
            break
        made.append(a.calls[i] if a.calls[i] is not None else F.PASS)

    def base(seat: int) -> dict:
        return {
            "rules": spec(r),
            "players": n,
            "seat": seat,
            "dealer": hand.dealer,
            "hand": _texts(dealt[seat]),
            "scores": score_doc,
        }

    for i, call in enumerate(made):
        s = a.order[i]
        yield s, base(s) | {"calls": [call_text(c, r) for c in made[:i]]}, call_text(call, r)
    calls = [call_text(c, r) for c in made]
    if a.pitcher is None or hand.play is None:
        return
    pitcher = a.pitcher
    trump = hand.play.trump
    after: dict = {"calls": calls}
    if r.trump == "named":
        yield pitcher, base(pitcher) | after, trump_text(trump)
        after["trump"] = SUITS[trump]
    drawn_by: list[list[int]] = [[] for _ in range(n)]
    if hand.draw is not None:
        rec = hand.draw
        draw_seats = [
            {"discarded": rec.discarded[s].bit_count(), "burnt": _texts(cards_of(rec.burnt[s]))}
            for s in range(n)
        ]
        drawn_by = rec.drawn
        robbed = list(rec.robbed)
    only = r.follow == "only"
    tricks: list[dict] = []
    out: set[int] = set()
    for leader, seats, cards, _winner in hand.play.tricks:
        if only and tricks:
            # passed over as leader: out (4.9)
            prev_winner = hand.play.tricks[len(tricks) - 1][3]
            s = prev_winner
            while s != leader:
                out.add(s)
                s = (s + 1) % n
        elif only:
            s = pitcher
            while s != leader:
                out.add(s)
                s = (s + 1) % n
        cur: dict = {"leader": leader, "seats": [], "cards": []}
        for j, (s, c) in enumerate(zip(seats, cards, strict=True)):
            if only and j > 0:
                k = (seats[j - 1] + 1) % n
                while k != s:
                    out.add(k)
                    k = (k + 1) % n
            shown = tricks + ([cur] if cur["cards"] else [])
            doc = (
                base(s)
                | after
                | {
                    "tricks": [
                        dict(t, seats=list(t["seats"]), cards=list(t["cards"])) for t in shown
                    ]
                }
            )
            if only:
                doc["out"] = sorted(out)
            if hand.draw is not None:
                mine = {"drawn": _texts(drawn_by[s])}
                if r.rob and s == pitcher:
                    mine["robbed"] = _texts(robbed)
                doc["draw"] = {"seats": draw_seats, "mine": mine}
            yield s, doc, card_text(c)
            cur["seats"].append(s)
            cur["cards"].append(card_text(c))
        tricks.append(cur)
        if only:  # every seat that did not play to the trick was out (4.9)
            out |= set(range(n)) - set(seats)
