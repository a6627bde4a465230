"""A player's view: everything one seat knows at the table, and nothing it does not, under
every preset (docs/view.md).

A view is the JSON object a table sends a seat at each decision.  Under the base game's
rules (auction-pitch given as plain options, a ``Rules``)::

    {"rules": "low=captured,min-bid=1,...", "players": 4, "partnership": false,
     "target": 7, "seat": 1, "dealer": 3, "hand": ["AH", "KH", "2H", "9C", "7D", "3S"],
     "calls": ["pass", "2"], "pitcher": null, "bid": null, "trump": null,
     "tricks": [], "scores": [0, 0, 0, 0], "legal": ["pass", "3", "4"]}

Under a preset (``"smear"``, ``"ten-point,..."``, ``"auction-pitch,shoot=true"``: rules
beyond the base game's) the same fields widen to the preset's deal of 6, 9 or 10 cards, its
calls (and ``"shoot"``), trump named after the auction (the action ``"trump:H"``), and
it adds what only a preset has: the discard and draw as this seat saw it (non-trumps
down, excess trumps burnt face up by rule X, the draw to 6, the pitcher's rob), who
played each card (``"seats"``: under ``follow=only`` a seat with no trump is out) and
the worked-out ``shoot``, ``held``, ``phase`` and ``to_move``::

    {"rules": "ten-point,...", "players": 4, "seat": 1, "dealer": 0,
     "hand": [9 cards as dealt], "calls": ["pass", "6", "pass", "pass"],
     "trump": "H",
     "draw": {"seats": [{"discarded": 5, "burnt": []}, ...], "mine": {"drawn": ["QH"]}},
     "tricks": [{"leader": 2, "seats": [2, 3, 1], "cards": ["AH", "HJ", "2H"]}],
     "out": [0], "scores": [0, 0]}

One reader, one replay, one writer for both: the base game is the auction-pitch preset,
written in the base game's words (the fields only a preset has are neither read nor
written there, so a base document reads and writes as it always has).

:meth:`View.from_json` replays all of it by the reference engine (:mod:`.reference`)
and refuses, in one line (:class:`ViewError`), a view that cannot have happened.
:meth:`View.legal` gives the seat's legal actions: calls, the trump to name, or cards.
:func:`cut_hand` cuts a hand the reference engine played into the view of each seat at
each of its decisions (tests and tables).

Under ``kitty=N`` (12.2) a view adds ``"kitty"``: null until trump is named, then
``{"taken": 3, "put_down": 3}`` for every seat (required then), and for the pitcher ``"mine": {"taken":
[the kitty's cards], "put_down": [what he put down]}`` (given: ``taken``; worked out and
checked: ``put_down``, face down and out of play).

The discard, the burn and the draw are automatic (4.8), so a view carries only what a
seat saw of them.  Coming down to 6 is a decision (the phase ``"put_down"``, the action
``"down:4D"``): the kitty's pitcher's (12.2.2), every seat's under discard=choice
(12.8.1) and the robber's after the rob (4.8.7); a view reads its seat's own put-down
so far and every seat's count.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property

from ..util.errors import InputError
from ..util.jsonio import dumps_json
from ..util.limits import MAX_SCORE
from . import reference as F
from .cards import (
    HAND_SIZE,
    JSON_CARDS,
    JSON_TEXTS,
    N_CARDS,
    SUIT_NAMES,
    SUITS,
    CardError,
    cards_of,
    format_card,
    mask_of,
    parse_cards,
    suit_of,
)
from .rules import (
    BASE_RULES,
    Rules,
    RulesError,
    document_rules,
    label,
    rules_text,
    spec,
    stated_rules,
)

TRUMP_ACTION = "trump:"  # the pitcher's naming of trump: "trump:H"
CALL_ACTION = "call:"  # the pitcher's call of his partner's card (12.1): "call:AS"
PUT_DOWN_ACTION = "down:"  # one card put down coming down to 6 (12.2.2, 12.8.1): "down:4D"
DRAW_ACTION = "draw"  # under discard=draw: no more put down, draw back to 6 (12.8.2)
SHOOT = "shoot"


class ViewError(InputError):
    """A view that cannot have happened (or cannot be read); the message names the problem."""


def card_text(c: int) -> str:
    return JSON_TEXTS[c] if 0 <= c < len(JSON_TEXTS) else format_card(c, symbols=False)


def call_text(call: int, rules: Rules | None = None) -> str:
    """0 -> ``"pass"``, the shoot code -> ``"shoot"``, a bid -> ``"7"``: a call as the
    protocol writes it (``rules``: where a shoot is offered; none in the base game)."""
    if call == F.PASS:
        return "pass"
    if rules is not None and rules.shoot and call == F.shoot_call(rules):
        return SHOOT
    return str(call)


STEAL = " (steal)"  # a call that steals the bid, as the table shows it ("you 2 (steal)")


def steals(call: int, high: int, by_dealer: bool) -> bool:
    """Whether ``call`` steals the bid: the dealer's bid at the high bid's own number
    (RULES "steal", 2.4 under dealer-steal=max); any other bid must outbid it."""
    return by_dealer and call > F.PASS and call == high


def trump_text(suit: int) -> str:
    return TRUMP_ACTION + SUITS[suit]


def partner_call_text(card: int) -> str:
    """The pitcher's call of ``card`` as an action (12.1): ``"call:AS"``, ``"call:HJ"``."""
    return CALL_ACTION + card_text(card)


def put_down_text(card: int) -> str:
    """One card put down coming down to 6 as an action (12.2.2, 12.8.1): ``"down:4D"``."""
    return PUT_DOWN_ACTION + card_text(card)


def put_down_clauses(rules: Rules) -> str:
    """The clauses a put-down under ``rules`` is asked by: the robber's after the rob
    (4.8.7; nobody else comes down beside a rob, 6.3.8), else the kitty's and
    discard=choice's (12.2.2, 12.8.1)."""
    return "4.8.7" if rules.rob else "12.2.2, 12.8.1"


def parse_call(value: object, what: str, rules: Rules | None = None) -> int:
    """A call as written in a view or an action: ``"pass"`` (or null / 0), a bid from 1
    to the rules' maximum, or ``"shoot"`` where offered (``rules`` None: the base game)."""
    r = rules if rules is not None else BASE_RULES
    top = r.max_bid
    if value is None or value == "pass":
        return F.PASS
    if value == SHOOT and r.shoot:
        return F.shoot_call(r)
    if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= 2:
        value = int(value)
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= top:
        return value
    shoot = ', or "shoot"' if r.shoot else ""
    raise ViewError(
        f'{what} must be "pass" or a bid "1"-"{top}"{shoot}, not {dumps_json(value, indent=None)}'
    )


@dataclass(frozen=True)
class Trick:
    leader: int
    cards: tuple[int, ...]  # from the leader on
    seats: tuple[int, ...] = ()  # who played each card (follow=only skips the out); () -> in turn

    def seat_of(self, i: int, players: int) -> int:
        """The seat that played card ``i``."""
        return self.seats[i] if self.seats else (self.leader + i) % players


@dataclass(frozen=True)
class SeatDraw:
    """What every seat saw of one seat's discard and draw (4.8)."""

    discarded: int  # cards put down (4.8: non-trumps; 12.8: any, 12.8.4)
    burnt: tuple[int, ...]  # trumps burnt face up by rule X: out of play, seen by all
    drawn: int = 0  # cards drawn from the stock, then from the discards (step 4)
    shown: tuple[int, ...] = ()  # under discards=shown (12.9): the discards, face up


@dataclass(frozen=True)
class View:
    """What ``seat`` knows (see the module), under any preset.  Build one with
    :meth:`from_json` (checked) or :meth:`check` after building or ``replace``; the
    fields after ``out`` are worked out by the replay."""

    rules: Rules  # as read; rules compare by their options
    players: int
    seat: int
    dealer: int
    hand: tuple[int, ...]  # own cards as dealt (6, 9 or 10), in the order given
    calls: tuple[int, ...]  # 0 pass, 1..max bid, max bid + 1 a shoot; from the dealer's left
    tricks: tuple[Trick, ...] = ()
    scores: tuple[int, ...] = ()  # per seat, or per team in a partnership
    named: int | None = None  # the suit named (trump=named), None until named
    draws: tuple[SeatDraw, ...] = ()  # per seat, once the draw is made
    drawn: tuple[int, ...] = ()  # this seat's own drawn cards, in order
    robbed: tuple[int, ...] = ()  # the stock's cards this seat took as the robbing pitcher
    # The robber's cards put down after the rob face up, seen by all (4.8 step 5, 12.7,
    # 12.9: ``reference.shown_put_down``); none given reads as none shown.
    put_down_shown: tuple[int, ...] = ()
    # Under kitty=N (12.2.2): the kitty's cards, given to the pitcher's view only once
    # trump is named (he took them; every other seat sees a count).
    kitty: tuple[int, ...] = ()
    # Under partner=called|announced (12.1): the card the pitcher called (-1 until he
    # calls: heard by all), and his partner as this seat knows him: None while unknown,
    # else the partner's seat, the pitcher's own when he is known to play alone (12.1.5).
    # Given under announced (the holder says so at once, 12.1.4); worked out and checked.
    called: int = -1
    partner: int | None = None
    out: tuple[int, ...] = ()  # seats shown to hold no trump (follow=only)
    hands_played: int = 0  # under hands=N (12.4): the hands counted before this one
    # Worked out by the replay:
    pitcher: int | None = None
    bid: int | None = None
    trump: int | None = None
    to_move: int | None = None  # whose turn it is (None: the hand is over or thrown in)
    phase: str = "auction"  # auction | trump | call | put_down | play | over | thrown-in
    shoot: bool = False
    kept: tuple[int, ...] = ()  # own cards when play starts, after any draw ("held")
    discards: tuple[int, ...] = ()  # own cards put down (4.8: non-trumps; 12.8: any)
    burnt: tuple[int, ...] = ()  # own trumps burnt
    put_down: tuple[int, ...] = ()  # own cards put down after the rob or the kitty (12.2.2)
    robbed_count: int = 0  # cards the robber took from the stock, or the pitcher's kitty
    put_down_count: int = 0  # cards the robber (the pitcher taking a kitty) put down
    # Worked out by the replay for the search (``search.hint``), not in the JSON:
    sizes: tuple[int, ...] = field(default=(), repr=False, compare=False)  # held at the start
    voids: int = field(default=0, repr=False, compare=False)  # bit 4 * seat + effective suit
    junk_lost: int = field(default=0, repr=False, compare=False)  # own discards others drew
    # discards=shown (12.9): the other seats' face-up discards still out of play (none
    # a later seat may have drawn from the discards, 4.8 step 4)
    shown_out: int = field(default=0, repr=False, compare=False)
    # the discards this seat saw go down (its own; 12.9: every seat's) that each seat may
    # have drawn back since (4.8 step 4, 12.8.2): those down before it drew from them
    drawn_back: tuple[int, ...] = field(default=(), repr=False, compare=False)
    open_trick: bool = field(default=False, repr=False, compare=False)  # the last unfinished
    _legal: tuple[str, ...] = field(default=(), repr=False, compare=False)
    # The put-down count as given, the kitty's pitcher's (12.2.2) or the robber's
    # (4.8.7): fewer than the rules': under way
    down_so_far: int | None = field(default=None, repr=False, compare=False)
    # Under discard=draw (12.8.2): the seat whose put-down is under way, yet to draw
    putting_down: int | None = None

    # ---- derived facts -----------------------------------------------------------

    @cached_property
    def preset(self) -> Rules:
        """The rules as the preset they are (the base game's as auction-pitch): what the
        replay reads, and what a preset's kernels take."""
        return self.rules

    @property
    def partnership(self) -> bool:
        return self.rules.partnership

    @property
    def is_pitcher(self) -> bool:
        return self.pitcher == self.seat

    @property
    def target(self) -> int:
        return self.rules.target

    @property
    def hand_mask(self) -> int:
        return mask_of(self.hand)

    @property
    def calling_order(self) -> list[int]:
        """The seats from the dealer's left, the dealer last: the order of the calls and
        of every put-down and draw (4.8, 12.8)."""
        return [(self.dealer + 1 + i) % self.players for i in range(self.players)]

    def caller(self, i: int) -> int:
        """The seat that makes call number ``i`` (0 = the dealer's left)."""
        return (self.dealer + 1 + i) % self.players

    def call_words(self, i: int) -> str:
        """Call number ``i`` as the table shows it: ``"pass"``, ``"3"``, ``"shoot"``, a
        dealer's steal ``"2 (steal)"``."""
        c = self.calls[i]
        stole = steals(c, max(self.calls[:i], default=F.PASS), self.caller(i) == self.dealer)
        return call_text(c, self.rules) + (STEAL if stole else "")

    def is_steal(self, call: str) -> bool:
        """Whether a legal call of this seat's (as the protocol writes it) steals the bid."""
        c = parse_call(call, "call", self.rules)
        return steals(c, max(self.calls, default=F.PASS), self.seat == self.dealer)

    def stealing_call(self) -> str | None:
        """The legal call of this seat's that steals the bid, if any (in the auction)."""
        if self.phase != "auction":
            return None
        return next((a for a in self.legal() if self.is_steal(a)), None)

    def choice_words(self, call: str) -> str:
        """A legal call (as the protocol writes it) as the table offers it: a steal marked."""
        return call + (STEAL if self.is_steal(call) else "")

    def seat_score(self, seat: int) -> int:
        return self.scores[seat % 2] if self.partnership else self.scores[seat]

    def seat_scores(self) -> tuple[int, ...]:
        """Scores per seat (partners carry their team's)."""
        return tuple(self.seat_score(s) for s in range(self.players))

    @property
    def played_by(self) -> tuple[int, ...]:
        """Per seat, the cards (mask) it has played this hand, the current trick too."""
        out = [0] * self.players
        for t in self.tricks:
            for i, c in enumerate(t.cards):
                out[t.seat_of(i, self.players)] |= 1 << c
        return tuple(out)

    @property
    def after_draw(self) -> bool:
        """The hands in play are made: the discard and draw and any kitty are done (play
        has started, or the pitcher calls after them under partner=announced, 12.1.4)."""
        return self.phase in ("play", "over") or (
            self.phase == "call" and self.rules.partner == "announced"
        )

    @property
    def drawing(self) -> bool:
        """In phase put_down, a seat putting down to draw under discard=draw (12.8.2; not
        the kitty's pitcher, who comes down to 6 and draws nothing)."""
        r = self.preset
        return (
            self.phase == "put_down"
            and r.discard == "draw"
            and not (r.kitty and self.to_move == self.pitcher)
        )

    @property
    def held(self) -> int:
        """The seat's own cards still in hand (mask): as dealt, or after the draw once
        it is made, less those played."""
        start = mask_of(self.kept) if self.after_draw else self.hand_mask
        return start & ~self.played_by[self.seat]

    @property
    def complete_tricks(self) -> tuple[Trick, ...]:
        return self.tricks[:-1] if self.open_trick else self.tricks

    @property
    def current_trick(self) -> Trick | None:
        """The trick in progress (possibly with no card yet), or None outside the play."""
        if self.phase != "play":
            return None
        if self.open_trick:
            return self.tricks[-1]
        return Trick(self.to_move, ())

    def winner(self, t: Trick) -> int:
        """The seat that wins the complete trick ``t``."""
        return t.seat_of(F.trick_winner(t.cards, self.trump, self.preset), self.players)

    @property
    def won(self) -> tuple[int, ...]:
        """Per seat, the cards it captured in completed tricks (mask)."""
        out = [0] * self.players
        for t in self.complete_tricks:
            out[self.winner(t)] |= mask_of(t.cards)
        return tuple(out)

    def legal(self) -> list[str]:
        """The seat's legal actions now, as the protocol writes them (empty when it is
        not this seat's turn)."""
        return list(self._legal) if self.to_move == self.seat else []

    def legal_calls(self) -> list[int]:
        """The legal calls as ints (0 = pass, the shoot code); empty outside this seat's
        turn to call."""
        if self.phase != "auction" or self.to_move != self.seat:
            return []
        return [parse_call(a, "call", self.rules) for a in self._legal]

    def legal_cards(self) -> int:
        """The legal cards as a mask; 0 outside this seat's turn to play."""
        if self.phase != "play" or self.to_move != self.seat:
            return 0
        return mask_of(parse_cards(a, self.preset.jokers)[0] for a in self._legal)

    # ---- reading and writing ----------------------------------------------------

    @classmethod
    def from_json(cls, doc: object, who: str | None = None, rules: Rules | None = None) -> View:
        """A checked view from a decoded JSON object (see the module).  Given ``rules``
        (those of the table or command ``who`` reading it), the view's own rules must
        be the same game, else it is refused naming both; the view then holds ``rules``.
        The base game's views are written in its own words (docs/view.md), however its
        rules were written."""
        return _parse(doc, who, rules)

    def check(self) -> View:
        """This view replayed and checked; the derived fields filled in."""
        return _Replay(self).run()

    @property
    def hands_left(self) -> int | None:
        """Under hands=N (12.4): the hands still to count, this one included; else None."""
        n = self.preset.hands_limit
        return n - self.hands_played if n else None

    def hands_doc(self) -> dict:
        """``hands_played`` and ``hands_left`` under hands=N (12.4); nothing otherwise."""
        if not self.preset.hands_limit:
            return {}
        return {"hands_played": self.hands_played, "hands_left": self.hands_left}

    def to_json(self) -> dict:
        if self.rules.base_game:
            # The base game's words (docs/view.md): no field only a preset has.
            return {
                "rules": rules_text(self.rules),
                "players": self.players,
                "partnership": self.partnership,
                "target": self.target,
                "seat": self.seat,
                "dealer": self.dealer,
                "hand": _texts(self.hand),
                "calls": [call_text(c) for c in self.calls],
                "pitcher": self.pitcher,
                "bid": self.bid,
                "trump": SUITS[self.trump] if self.trump is not None else None,
                "tricks": [{"leader": t.leader, "cards": _texts(t.cards)} for t in self.tricks],
                "scores": list(self.scores),
                "legal": self.legal(),
            }
        r = self.rules
        draw = None
        if self.draws:
            draw = {
                "seats": [
                    {"discarded": d.discarded, "burnt": _texts(d.burnt), "drawn": d.drawn}
                    | ({"shown": _texts(d.shown)} if r.discards == "shown" else {})
                    for d in self.draws
                ],
                "mine": {
                    "discarded": _texts(self.discards),
                    "burnt": _texts(self.burnt),
                    "drawn": _texts(self.drawn),
                },
            }
            if self.putting_down is not None:  # 12.8.2: under way, yet to draw
                draw["putting_down"] = self.putting_down
            if r.rob:
                draw["robbed"] = self.robbed_count
                draw["put_down"] = self.put_down_count
                if self.put_down_shown:
                    draw["put_down_shown"] = _texts(self.put_down_shown)
                if self.seat == r.robber(self.pitcher, self.dealer):
                    draw["mine"] |= {
                        "robbed": _texts(self.robbed),
                        "put_down": _texts(self.put_down),
                    }
        kitty = {}
        if r.kitty:  # 12.2: null until the pitcher has taken it
            taken = self.after_draw or self.phase == "put_down"
            kitty = {
                "kitty": kitty_doc(
                    self.robbed_count,
                    self.put_down_count,
                    self.kitty,
                    self.put_down,
                    self.is_pitcher,
                    self.put_down_shown if r.discards == "shown" else None,
                )
                if taken
                else None
            }
        partner = {}
        if r.partner != "none":  # 12.1: null until the pitcher calls
            on = self.phase in ("put_down", "play", "over")  # (called by then, 12.1.2)
            partner = partner_doc(self.called if on else -1, self.partner, self.pitcher)
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
            **kitty,
            **partner,
            "held": _texts(self.kept) if self.after_draw else None,
            "tricks": [
                {"leader": t.leader, "seats": list(t.seats), "cards": _texts(t.cards)}
                for t in self.tricks
            ],
            "out": sorted(self.out),
            "scores": list(self.scores),
            **self.hands_doc(),
            "phase": self.phase,
            "to_move": self.to_move,
            "legal": self.legal(),
        }


KITTY_MISSING = "kitty: the pitcher took the kitty's "  # a pitcher's view without them
DRAW_MISSING = ": give draw"  # how a view past the draw without one is refused (4.8, 12.8)


def kitty_doc(
    count: int,
    down: int,
    taken: Sequence[int],
    put_down: Sequence[int],
    pitcher: bool,
    shown: Sequence[int] | None = None,
) -> dict:
    """A view's ``kitty`` once the pitcher has taken it (12.2.2): how many cards he took
    and put down, which every seat sees, under discards=shown (``shown`` not None) the
    cards he put down face up (12.9.1), and for the pitcher alone ``mine``: the kitty's
    cards and what he put down (out of play)."""
    doc: dict = {"taken": count, "put_down": down}
    if shown is not None:
        doc["shown"] = _texts(shown)
    if pitcher:
        doc["mine"] = {"taken": _texts(taken), "put_down": _texts(put_down)}
    return doc


def partner_doc(called: int, partner: int | None, pitcher: int | None) -> dict:
    """A view's fields under partner=called|announced (12.1): ``called``, the card the
    pitcher called (null before he calls), ``partner``, the partner as this seat knows
    him (null while unknown; the pitcher's own seat when he is known to play alone),
    and ``pitcher_side``, the seats that score as the pitcher's side (12.1.6) once the
    partner is known (null before)."""
    side = None
    if partner is not None and pitcher is not None:
        side = sorted({pitcher, partner})
    return {
        "called": card_text(called) if called >= 0 else None,
        "partner": partner,
        "pitcher_side": side,
    }


def _read_partner(doc: dict, r: Rules, n: int) -> tuple[int, int | None]:
    """A view's ``called`` (-1: null or absent) and ``partner`` (None: null or absent),
    12.1; refused under rules without a called partner."""
    given_c, given_p = doc.get("called"), doc.get("partner")
    if r.partner == "none":  # the base game's view included: no view of these has them
        for key in ("called", "partner", "pitcher_side"):
            if doc.get(key) is not None:
                raise ViewError(
                    f"{key}: only under partner=called|announced (12.1), not {label(r)}"
                )
        return -1, None
    called = -1
    if given_c is not None:
        if not isinstance(given_c, str):
            raise ViewError(f'called must be a card like "AH", not {shown(given_c)}')
        called = _cards([given_c], "called", r.jokers)[0]
    partner = None
    if given_p is not None:
        partner = whole_number(given_p, "partner")
        if not 0 <= partner < n:
            raise ViewError(f"partner: {partner} is not a seat (0-{n - 1})")
    return called, partner


def names_a_family(doc: object) -> bool:
    """Whether a view document's rules are a preset's other than the base game's plain
    options (the kernels they go to differ).  Rules that do not parse are left to the
    view reader's one-line refusal."""
    if not isinstance(doc, dict) or not isinstance(doc.get("rules"), str | dict):
        return False
    try:
        return not document_rules(doc["rules"]).base_game
    except (RulesError, TypeError, ValueError):
        return False


def _texts(cards: Sequence[int]) -> list[str]:
    return [card_text(c) for c in cards]


# ---------------------------------------------------------------- reading


def whole_number(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ViewError(f"{what} must be a whole number, not {shown(value)}")
    return value


def read_hands_played(doc: dict, r: Rules) -> int:
    """A view's ``hands_played`` (and ``hands_left``, which must agree): under hands=N
    (12.4) the hands counted before this one, 0 to N - 1; absent: 0.  Other rules have
    no count of hands: a count given there is refused."""
    limit = r.hands_limit
    played = doc.get("hands_played")
    left = doc.get("hands_left")
    if not limit:
        if played not in (None, 0) or left is not None:
            raise ViewError("hands_played and hands_left: only under hands=N (VARIANTS.md 12.4)")
        return 0
    played = 0 if played is None else whole_number(played, "hands_played")
    try:
        r.check_hands_played(played, "hands_played")
    except RulesError as e:
        raise ViewError(str(e)) from None
    if left is not None and whole_number(left, "hands_left") != limit - played:
        raise ViewError(
            f"hands_left is {left}, but hands={limit} with {played} played leaves {limit - played}"
        )
    return played


def read_scores(doc: dict, n: int, partnership: bool) -> tuple[int, ...]:
    """A view's ``scores``: one per seat, or one per team in a partnership (absent: 0s)."""
    scores_doc = doc.get("scores")
    want = 2 if partnership else n
    if scores_doc is None:
        return (0,) * want
    if not isinstance(scores_doc, list) or len(scores_doc) != want:
        per = "one per team (2)" if partnership else f"one per seat ({n})"
        raise ViewError(f"scores must be a list of whole numbers, {per}")
    scores = tuple(whole_number(s, f"score {i}") for i, s in enumerate(scores_doc))
    for s in scores:
        if abs(s) > MAX_SCORE:
            raise ViewError(f"score {s} is out of range (at most {MAX_SCORE:,} either way)")
    return scores


def shown(value: object) -> str:
    text = (
        dumps_json(value, indent=None)
        if not isinstance(value, str | int | float | None)
        else repr(value)
    )
    return text if len(text) <= 40 else text[:37] + "..."


def _cards(value: object, what: str, jokers: int = 0) -> tuple[int, ...]:
    if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
        raise ViewError(f'{what} must be a list of cards like ["AH", "TS"]')
    out = [JSON_CARDS.get(c, N_CARDS) for c in value]  # as JSON writes them: looked up
    if len(set(out)) == len(out) and all(k < N_CARDS for k in out):
        return tuple(out)
    out = []
    for c in value:
        k = JSON_CARDS.get(c, N_CARDS)  # as JSON writes it, else read (a joker: in the deck?)
        try:
            cs = [k] if k < N_CARDS else parse_cards(c, jokers)
        except CardError as e:
            raise ViewError(f"{what}: {e}") from None
        if len(cs) != 1:
            raise ViewError(f"{what}: {c!r} is not one card")
        if cs[0] in out:
            raise ViewError(f"{what}: {card_text(cs[0])} is there twice")
        out.append(cs[0])
    return tuple(out)


def _rules(doc: dict) -> Rules:
    """The view's rules (none: the base game's); ``partnership`` and ``target`` beside
    them must agree with what the rules state (a preset states them all), else set them."""
    given_spec = doc.get("rules")
    given: dict[str, object] = {}
    try:
        if given_spec is None:
            rules = BASE_RULES
        elif not isinstance(given_spec, str | dict):
            raise ViewError('rules must be a rule string like "low=dealt,follow=suit"')
        else:
            given, rules = stated_rules(given_spec)  # a string or an object, never a file
    except RulesError as e:  # said once, also where the rules reader says "rules: " itself
        raise ViewError(f"rules: {str(e).removeprefix('rules: ')}") from None
    for key in ("partnership", "target"):
        if doc.get(key) is None:
            continue
        value = doc[key]
        # Typed before compared: 0 is not false, nor 11.0 or true a target.
        if key == "partnership" and not isinstance(value, bool):
            raise ViewError(f"partnership must be true or false, not {shown(value)}")
        if key == "target":
            whole_number(value, "target")
        stated = key in given or not rules.base_game
        if stated and getattr(rules, key) != value:
            raise ViewError(f"{key} is {shown(value)} but the rules say {getattr(rules, key)}")
        try:
            rules = replace(rules, **{key: value})
        except RulesError as e:
            raise ViewError(str(e)) from None
    return rules


def _list(doc: dict, key: str, what: str) -> list:
    value = doc.get(key)
    if value is None:
        return []
    if not isinstance(value, list):
        raise ViewError(what)
    return value


def _parse(doc: object, who: str | None = None, expected: Rules | None = None) -> View:
    if not isinstance(doc, dict):
        raise ViewError("a view is a JSON object with players, seat, dealer, hand and calls")
    for key in ("players", "seat", "dealer", "hand"):
        if key not in doc:
            raise ViewError(f"the view has no {key!r}")
    rules = _rules(doc)
    if expected is not None:
        if rules != expected:
            raise ViewError(
                f"rules: this is a view of {label(rules)}, but {who or 'the table'} "
                f"plays {label(expected)}"
            )
        rules = expected
    r = rules
    preset = not rules.base_game  # else the base game's words: no preset fields
    n = whole_number(doc["players"], "players")
    try:
        rules.check_players(n)
    except RulesError as e:
        raise ViewError(str(e)) from None
    seat = whole_number(doc["seat"], "seat")
    dealer = whole_number(doc["dealer"], "dealer")
    for name, s in (("seat", seat), ("dealer", dealer)):
        if not 0 <= s < n:
            raise ViewError(f"{name} {s} is not a seat of a {n}-player table (0-{n - 1})")
    hand = _cards(doc["hand"], "hand", r.jokers)
    if not preset and len(hand) != r.cards_each(n):  # a preset's: after the tricks, as ever
        raise ViewError(_dealt(len(hand), r, n))
    calls_doc = _list(doc, "calls", 'calls must be a list like ["pass", "2"]')
    if len(calls_doc) > n:
        raise ViewError(f"{len(calls_doc)} calls: each of the {n} seats calls at most once")
    calls = tuple(parse_call(c, f"call {i + 1}", r) for i, c in enumerate(calls_doc))
    named = None
    if r.trump == "named" and doc.get("trump") is not None:
        named = _suit(doc["trump"])
    draws: tuple[SeatDraw, ...] = ()
    drawn: tuple[int, ...] = ()
    robbed: tuple[int, ...] = ()
    put_down_shown: tuple[int, ...] = ()
    # The seat's own put-down as given (12.2.2, 12.8.1: its choice; none: pitchsim's)
    discards: tuple[int, ...] = ()
    put_down: tuple[int, ...] = ()
    down_so_far = None  # the count put down so far by the kitty's pitcher or the robber
    putting_down = None
    draw_doc = doc.get("draw") if preset else None
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
            shown = _cards(d.get("shown", []), f"draw: seat {s}'s shown", r.jokers)
            if shown and r.discards != "shown":
                raise ViewError(f"draw: seat {s} shows discards, but discards=hidden (12.9)")
            out_draws.append(SeatDraw(k, burnt, 0, shown))
        draws = tuple(out_draws)
        mine = draw_doc.get("mine", {})
        if not isinstance(mine, dict):
            raise ViewError("draw: mine must be an object with drawn (and robbed)")
        drawn = _cards(mine.get("drawn", []), "draw: drawn", r.jokers)
        if r.discard in ("choice", "draw"):  # 12.8.1, 12.8.2: the seat's own, its choice
            discards = _cards(mine.get("discarded", []), "draw: discarded", r.jokers)
        if draw_doc.get("putting_down") is not None:  # 12.8.2: a put-down under way
            putting_down = whole_number(draw_doc["putting_down"], "draw: putting_down")
            if r.discard != "draw" or not 0 <= putting_down < n:
                raise ViewError(
                    f"draw: putting_down is {putting_down}, but only a seat (0-{n - 1}) "
                    "putting down to draw under discard=draw is (12.8.2)"
                )
        robbed = _cards(mine.get("robbed", []), "draw: robbed", r.jokers)
        put_down_shown = _cards(
            draw_doc.get("put_down_shown", []), "draw: put_down_shown", r.jokers
        )
        if r.rob:  # the robber's come-down, his choice (4.8.7): his cards, everyone's count
            put_down = _cards(mine.get("put_down", []), "draw: put_down", r.jokers)
            if draw_doc.get("put_down") is not None:
                down_so_far = whole_number(draw_doc["put_down"], "draw: put_down")
    kitty: tuple[int, ...] = ()
    kitty_given = doc.get("kitty")  # refused under rules without one, the base game's too
    if kitty_given is not None:
        if not r.kitty:
            raise ViewError(f"kitty: {label(rules)} deals no kitty (12.2)")
        if not isinstance(kitty_given, dict):
            raise ViewError('kitty must be an object with "taken" and "put_down" (or null)')
        mine_k = kitty_given.get("mine", {})
        if not isinstance(mine_k, dict):
            raise ViewError("kitty: mine must be an object with taken (and put_down)")
        kitty = _cards(mine_k.get("taken", []), "kitty: taken", r.jokers)
        put_down = _cards(mine_k.get("put_down", []), "kitty: put_down", r.jokers)
        if kitty_given.get("put_down") is not None:
            down_so_far = whole_number(kitty_given["put_down"], "kitty: put_down")
        up = _cards(kitty_given.get("shown", []), "kitty: shown", r.jokers)
        if up and r.discards != "shown":
            raise ViewError("kitty: shown is given, but discards=hidden (12.9.1)")
        put_down_shown += up  # (nobody robs beside a kitty, 6.3.8)
    called, partner = _read_partner(doc, r, n)
    only = r.follow == "only"
    tricks = []
    tricks_doc = _list(doc, "tricks", 'tricks must be a list of {"leader", "cards"} objects')
    if len(tricks_doc) > F.HAND_TARGET:
        most = "at most " if only else ""
        raise ViewError(f"{len(tricks_doc)} tricks: a hand has {most}{F.HAND_TARGET}")
    for t, trick in enumerate(tricks_doc, 1):
        if not isinstance(trick, dict) or "leader" not in trick or "cards" not in trick:
            raise ViewError(f"trick {t} must be an object with leader and cards")
        leader = whole_number(trick["leader"], f"trick {t}'s leader")
        if not 0 <= leader < n:
            raise ViewError(f"trick {t}'s leader {leader} is not a seat (0-{n - 1})")
        if not isinstance(trick["cards"], list):
            raise ViewError(f'trick {t}\'s cards must be a list like ["AH", "TS"]')
        if len(trick["cards"]) > n:
            raise ViewError(
                f"trick {t} has {len(trick['cards'])} cards: at most {n} at {n} players"
            )
        cards = _cards(trick["cards"], f"trick {t}", r.jokers)
        if not preset or trick.get("seats") is None:
            if only:
                raise ViewError(f"trick {t} needs seats: under follow=only a seat may be out")
            seats = tuple((leader + i) % n for i in range(len(cards)))
        else:
            seats_v = trick["seats"]
            if not isinstance(seats_v, list):
                raise ViewError(f"trick {t}'s seats must be a list of seats")
            seats = tuple(whole_number(s, f"trick {t}'s seat") for s in seats_v)
            if len(seats) != len(cards):
                raise ViewError(f"trick {t} has {len(cards)} cards but {len(seats)} seats")
        tricks.append(Trick(leader, cards, seats))
    out: tuple[int, ...] = ()
    if preset:
        out = tuple(whole_number(s, "out") for s in _list(doc, "out", "out must be a list"))
    for s in out:
        if not 0 <= s < n:
            raise ViewError(f"out: {s} is not a seat (0-{n - 1})")
    if out and not only:
        raise ViewError("out: seats drop out only under follow=only")
    scores = read_scores(doc, n, rules.partnership)
    hands_played = read_hands_played(doc, rules)
    base = View(
        rules,
        n,
        seat,
        dealer,
        hand,
        calls,
        tuple(tricks),
        scores,
        named=named,
        draws=draws,
        drawn=drawn,
        robbed=robbed,
        put_down_shown=put_down_shown,
        kitty=kitty,
        called=called,
        partner=partner,
        out=out,
        hands_played=hands_played,
        discards=discards,
        put_down=put_down,
        down_so_far=down_so_far,
        putting_down=putting_down,
    )
    view = _Replay(base).run()
    _agrees(doc, view, preset)
    return view


def _dealt(k: int, r: Rules, n: int) -> str:
    each = r.cards_each(n)
    where = f" ({r.family}, {n} players)" if each != HAND_SIZE else ""
    return f"hand has {k} cards: a seat is dealt {each}{where}"


def _suit(value: object) -> int:
    if not isinstance(value, str) or len(value) != 1 or value.upper() not in SUITS:
        raise ViewError(f'trump must be a suit letter "C", "D", "H" or "S", not {shown(value)}')
    return SUITS.index(value.upper())


def _agrees(doc: dict, v: View, preset: bool) -> None:
    """The facts a table may state must agree with what the replay worked out (in the
    base game's words only those the base game writes)."""
    for key, got in (("pitcher", v.pitcher), ("bid", v.bid)):
        # A whole number or null: true is not seat 1, nor 1.0 a bid of 1.
        if doc.get(key) is not None and whole_number(doc[key], key) != got:
            raise ViewError(f"{key} is {doc[key]} but the calls make it {shown(got)}")
    r = v.preset
    if preset:
        if doc.get("to_move") is not None and whole_number(doc["to_move"], "to_move") != v.to_move:
            raise ViewError(f"to_move is {doc['to_move']} but the view makes it {shown(v.to_move)}")
        if doc.get("shoot") is not None and not isinstance(doc["shoot"], bool):
            raise ViewError(f"shoot must be true or false, not {shown(doc['shoot'])}")
        if doc.get("shoot") is not None and doc["shoot"] is not v.shoot:
            raise ViewError(f"shoot is {shown(doc['shoot'])} but the calls make it {v.shoot}")
        if doc.get("phase") is not None and doc["phase"] != v.phase:
            raise ViewError(f"phase is {shown(doc['phase'])} but the view makes it {v.phase!r}")
    t = doc.get("trump")
    if t is not None and r.trump == "first-lead":
        suit = _suit(t)
        if v.trump is None:
            raise ViewError(f"trump is {t} but the opening lead has not been made")
        if suit != v.trump:
            raise ViewError(f"trump is {t} but the opening lead makes it {SUITS[v.trump]}")
    if preset and doc.get("held") is not None:
        held = _cards(doc["held"], "held", r.jokers)
        if sorted(held) != sorted(v.kept) or not v.after_draw:
            raise ViewError(f"held is {' '.join(_texts(held))} but the draw leaves {_held(v)}")
    draw = doc.get("draw") if preset else None
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
    kitty = doc.get("kitty") if preset else None
    taken = v.after_draw or v.phase == "put_down"  # 12.2.2: the kitty is taken
    if r.kitty and taken and kitty is None:  # (an object, if given)
        # 12.2.2: the whole table saw the pitcher take the kitty and put cards down
        raise ViewError(
            f"kitty is {'null' if 'kitty' in doc else 'missing'}, but trump is named, so the "
            "pitcher took the kitty (12.2.2): every seat's view then carries it, "
            f'"kitty": {{"taken": {v.robbed_count}, "put_down": {v.put_down_count}}}'
        )
    if isinstance(kitty, dict):
        if v.phase == "call" and not v.after_draw:
            raise ViewError("kitty: the pitcher takes the kitty after his call (12.1.2, 12.2.2)")
        if not taken:
            raise ViewError("kitty: the pitcher takes the kitty once trump is named (12.2.2)")
        for key, got in (("taken", v.robbed_count), ("put_down", v.put_down_count)):
            if kitty.get(key) is not None and whole_number(kitty[key], f"kitty: {key}") != got:
                raise ViewError(f"kitty: {key} is {kitty[key]} but the rules make it {got}")
        given = (kitty.get("mine") or {}).get("put_down")
        if given is not None:
            down = _cards(given, "kitty: put_down", r.jokers)
            if sorted(down) != sorted(v.put_down):
                raise ViewError(
                    f"kitty: mine put_down is {' '.join(_texts(down)) or 'nothing'}, but the "
                    f"pitcher puts down {' '.join(_texts(v.put_down)) or 'nothing'} (12.2.2)"
                )
    side = doc.get("pitcher_side") if preset and r.partner != "none" else None
    if side is not None:
        if not isinstance(side, list):
            raise ViewError(f"pitcher_side must be a list of seats, not {shown(side)}")
        side = [whole_number(x, "pitcher_side: a seat") for x in side]  # 1.0 is not seat 1
        want = partner_doc(v.called, v.partner, v.pitcher)["pitcher_side"]
        if side != want:
            raise ViewError(
                f"pitcher_side is {shown(side)}, but seat {v.seat} knows it as {shown(want)} (12.1.6)"
            )
    if doc.get("legal") is not None:
        legal = doc["legal"]
        if not isinstance(legal, list) or not all(isinstance(a, str) for a in legal):
            raise ViewError('legal must be a list of actions like ["pass", "3"] or ["KS"]')
        if sorted(normal_action(a, r) for a in legal) != sorted(v.legal()):
            raise ViewError(
                f"legal lists {' '.join(legal) or 'nothing'}, but the legal "
                f"actions are {' '.join(v.legal()) or 'none'}"
            )


def _held(v: View) -> str:
    return " ".join(_texts(v.kept)) if v.after_draw else "no hand yet"


def normal_action(a: str, rules: Rules | None = None) -> str:
    """An action as :meth:`View.legal` writes it (``"th"`` -> ``"TH"``,
    ``"Trump:h"`` -> ``"trump:H"``, ``"PASS"`` -> ``"pass"``); anything else lowered."""
    low = a.strip().lower()
    for prefix in (TRUMP_ACTION, CALL_ACTION, PUT_DOWN_ACTION):
        if low.startswith(prefix):
            return prefix + low[len(prefix) :].upper()
    try:
        cs = parse_cards(a, (rules or BASE_RULES).jokers)
        if len(cs) == 1:
            return card_text(cs[0])
    except CardError:
        pass
    return low


def read_view(
    source: str, what: str | None = None, who: str | None = None, rules: Rules | None = None
) -> View:
    """A checked view from a JSON file (``-``: stdin); ``who``, ``rules`` as in
    :meth:`View.from_json`."""
    from ..util.jsonio import read_json

    return View.from_json(read_json(source, what), who, rules)


def parse_view(
    text: str, what: str = "view", who: str | None = None, rules: Rules | None = None
) -> View:
    from ..util.jsonio import parse_json

    return View.from_json(parse_json(text, what), who, rules)


# ---------------------------------------------------------------- replaying


class _Replay:
    """The view replayed clause by clause; ``run`` returns it with the derived fields."""

    def __init__(self, v: View) -> None:
        if any(t.cards and not t.seats for t in v.tricks) and v.preset.follow != "only":
            # built in code: every seat in turn from the leader
            n = v.players
            tricks = tuple(
                Trick(t.leader, t.cards, tuple((t.leader + i) % n for i in range(len(t.cards))))
                for t in v.tricks
            )
            v = replace(v, tricks=tricks)
        self.v = v
        self.r = v.preset
        self.n = v.players
        self.pack = mask_of(F.pack(self.r, self.n))
        # card -> where this seat knows it is ("hand", "burnt by seat 2", ...)
        self.known: dict[int, str] = {}
        self.burnt_by: dict[int, tuple[int, ...]] = {}  # seat -> its trumps burnt face up
        self.lost_to_junk = 0  # own discards another seat may have drawn (4.8 step 4)
        self.shown_out = 0  # other seats' face-up discards still out of play (12.9)
        self.drawn_back = (0,) * self.n  # ... and those each seat may have drawn back
        self.pitcher = -1  # once the auction is over
        self.keep = -1  # the called card under partner=called: rule X passes over it (12.1.3)
        # A seat coming down to 6 (12.2.2, 12.8.1): (seat, legal actions, facts)
        self.asked: tuple[int, tuple[str, ...], dict] | None = None
        self.kitty_coming = False  # the kitty's pitcher has not come down to 6 yet

    def fail(self, text: str) -> None:
        raise ViewError(text)

    def done(self, **kw) -> View:
        return replace(self.v, **kw)

    def run(self) -> View:
        v, r, n = self.v, self.r, self.n
        each = r.cards_each(n)
        for c in v.hand:  # a view built in code: cards as numbers
            if isinstance(c, bool) or not isinstance(c, int) or not 0 <= c < N_CARDS + r.jokers:
                self.fail(f"{c} is not a card")
        if len(set(v.hand)) != len(v.hand):
            self.fail(f"hand must be {each} different cards")
        if len(v.hand) != each:
            self.fail(_dealt(len(v.hand), r, n))
        for c in v.hand:
            self.check_in_pack(c, "hand")
            self.known[c] = "its own hand"
        if any(t.cards and len(t.seats) != len(t.cards) for t in v.tricks):
            self.fail("a trick needs seats: under follow=only a seat may be out")

        # The auction (0.2, 6.1).
        made: list[int] = []
        for i, call in enumerate(v.calls):
            s = v.caller(i)
            legal = F.legal_calls(made, s == v.dealer, r, may_shoot=v.seat_score(s) >= 0)
            if not legal:
                ends = call_text(max(made), r)
                self.fail(f"call {i + 1} (seat {s}) comes after a {ends}, which ends the auction")
            if call not in legal:
                why = _why_not(call, made, s == v.dealer, legal, r)
                self.fail(
                    f"call {i + 1}: seat {s} may not call {call_text(call, r)} {why} "
                    f"(legal: {', '.join(call_text(c, r) for c in legal)})"
                )
            made.append(call)
        nxt = v.caller(len(made))
        legal = (
            F.legal_calls(made, nxt == v.dealer, r, may_shoot=v.seat_score(nxt) >= 0)
            if len(made) < n
            else []
        )
        calls_partner = v.called >= 0 or v.partner is not None
        later = v.named is not None or v.draws or v.tricks or v.out or v.kitty or calls_partner
        if legal:
            if later:
                what = "no card can be played yet" if v.tricks else "the auction is not over"
                self.fail(f"{len(made)} of {n} calls made, so {what}")
            return self.done(
                phase="auction", to_move=nxt, _legal=tuple(call_text(c, r) for c in legal)
            )
        bids = [i for i, c in enumerate(made) if c != F.PASS]
        if not bids and r.all_pass == "dealer-free":  # 12.12: the dealer pitches at 0
            pitcher, shoot, bid = v.dealer, False, 0
        elif not bids:
            if later:
                what = "no card is played" if v.tricks else "nothing follows"
                self.fail(f"everybody passed, so the hand was thrown in: {what}")
            return self.done(phase="thrown-in", to_move=None)
        else:
            pitcher = v.caller(bids[-1])
            shoot = made[bids[-1]] == F.shoot_call(r)
            bid = r.max_bid if shoot else made[bids[-1]]
        fixed = dict(pitcher=pitcher, bid=bid, shoot=shoot)

        # Trump named after the auction (3.5, 4.6).
        trump = None
        if r.trump == "named":
            if v.named is None:
                if v.draws or v.tricks or v.out or v.kitty or calls_partner:
                    what = "no kitty is taken" if v.kitty else "no card is drawn or played"
                    if calls_partner:
                        what = "no partner is called (12.1.2, 12.1.4)"
                    self.fail(f"trump is not named yet, so {what}")
                actions = tuple(trump_text(s) for s in range(4))
                return self.done(phase="trump", to_move=pitcher, _legal=actions, **fixed)
            trump = v.named

        self.pitcher = pitcher
        if r.partner == "called":  # 12.1.2: once trump is named, before any discard or kitty
            after = v.draws or v.drawn or v.robbed or v.put_down_shown or v.kitty or v.tricks
            if self.to_call(bool(after or v.out)):
                return self.calling(trump, fixed)
            self.keep = self.check_call(trump)
        # The discard and draw (4.8).
        held = mask_of(v.hand)
        counts = [each] * n  # cards each seat holds when play starts
        draw_facts: dict = {}
        if r.discard == "non-trump":
            if not v.draws:
                self.fail(f"trump is named, so the discard and draw has been made{DRAW_MISSING}")
            held, counts, draw_facts = self.draw(pitcher, trump)
        elif r.discard != "none":  # 12.8, after any kitty
            held, counts, draw_facts = self.draw_in_turn(pitcher, trump)
        elif v.draws or v.drawn or v.robbed or (v.put_down_shown and not r.kitty):
            self.fail(f"{r.family} has no discard and draw (discard=none)")
        if r.kitty and trump is not None and r.discard == "none":
            held, counts, draw_facts = self.take_kitty(pitcher, trump)
        elif v.kitty and not r.kitty:
            self.fail("the rules deal no kitty (12.2)")
        if self.asked is not None:  # a seat is coming down to 6 (12.2.2, 12.8.1)
            seat, legal, facts = self.asked
            return self.done(
                phase="put_down",
                to_move=seat,
                trump=trump,
                _legal=legal,
                **(fixed | draw_facts | facts),
            )
        if r.partner == "announced":  # 12.1.4: after the discard and draw and any kitty
            if self.to_call(bool(v.tricks or v.out)):
                kept = dict(kept=tuple(cards_of(held)), sizes=tuple(counts))
                return self.calling(trump, fixed | draw_facts | kept)
            self.check_call(trump)
        return self.play(pitcher, trump, held, counts, fixed | draw_facts)

    def to_call(self, after: bool) -> bool:
        """12.1: whether the pitcher is still to call his partner's card: the view
        carries no call and nothing that follows it (``after``).  A partner given
        before the call is refused; a call missing after it, by ``check_call``."""
        v = self.v
        if v.called >= 0 or after:
            return False
        if v.partner is not None:
            self.fail(
                f"partner is {v.partner}, but the pitcher has not called his partner's card "
                "yet (12.1.2, 12.1.4)"
            )
        return True

    def calling(self, trump: int, facts: dict) -> View:
        """The pitcher's call (12.1.2, 12.1.4): any card of ``callable_cards``."""
        legal = tuple(partner_call_text(c) for c in F.callable_cards(trump, self.r))
        return self.done(phase="call", to_move=self.pitcher, trump=trump, _legal=legal, **facts)

    def check_call(self, trump: int | None) -> int:
        """12.1: the card the pitcher called, heard by all once trump is named (under
        announced the call follows the draw, 12.1.4; play follows at once either way), so
        every seat's view then carries it.  Returns the card rule X and the coming down
        pass over (12.1.3: under called), else -1."""
        v, r = self.v, self.r
        if r.partner == "none":
            return -1
        clause = "12.1.2" if r.partner == "called" else "12.1.4"
        if v.called < 0:
            after = (
                "a card is played"
                if v.tricks
                else "the kitty is taken"
                if v.kitty and not v.draws
                else "the discard and draw is made"
            )
            self.fail(
                f"called is null or missing, but {after}, so the pitcher called his "
                f"partner's card ({clause}): every seat's view then carries it"
            )
        try:
            F.checked_call(v.called, trump, r)
        except ValueError as e:
            self.fail(f"called: {e}")  # (the reason names its clause)
        return v.called if r.partner == "called" else -1

    def check_in_pack(self, c: int, what: str) -> None:
        if not self.pack >> c & 1:
            self.fail(
                f"{what}: {card_text(c)} is not in the pack ({self.r.family}, {self.n} players, 4.3)"
                if self.r.deck == "2-A"
                else f"{what}: {card_text(c)} is not in the pack of deck={self.r.deck} (12.3)"
            )

    def see(self, c: int, where: str, what: str) -> None:
        self.check_in_pack(c, what)
        if c in self.known:
            self.fail(f"{what}: {card_text(c)} is already in {self.known[c]}")
        self.known[c] = where

    # ---- 12.2 -----------------------------------------------------------------------

    def take_kitty(self, pitcher: int, trump: int) -> tuple[int, list[int], dict]:
        """12.2.2 as this seat saw it: the pitcher took the kitty's N cards and put down
        face down, out of play, until he held 6 (``reference.come_down``); he knows the
        cards, every other seat only the counts."""
        v, r, n = self.v, self.r, self.n
        each = r.cards_each(n)
        down = max(0, each + r.kitty - F.HAND_TARGET)
        counts = [each] * n
        counts[pitcher] = each + r.kitty - down
        held = mask_of(v.hand)
        put_down: list[int] = []
        if v.seat == pitcher:
            if len(v.kitty) != r.kitty:
                self.fail(
                    f"{KITTY_MISSING}{r.kitty} cards (12.2.2), but {len(v.kitty)} are given "
                    "as its mine taken"
                )
            for c in v.kitty:
                self.see(c, "the kitty", "kitty: taken")
            held |= mask_of(v.kitty)
            if self.coming_down(pitcher, down, v.down_so_far, len(v.put_down)):
                put_down = list(v.put_down)
                self.check_put_down_so_far(held, trump, put_down)
                held &= ~mask_of(put_down)
                self.kitty_coming = True  # under choice he is asked in his turn (12.8.1)
                if r.discard == "none":
                    self.ask_put_down(pitcher, held, trump, put_down_count=len(put_down))
                up = self.check_put_down_shown(pitcher, trump, put_down, len(put_down))
                facts = dict(put_down=tuple(put_down), robbed_count=r.kitty, put_down_shown=up)
                return held, counts, facts | dict(put_down_count=len(put_down))
            put_down = self.own_put_down(held, trump, v.put_down)
            held &= ~mask_of(put_down)
        elif v.kitty:
            self.fail(
                f"kitty: seat {v.seat} sees no kitty card: only the pitcher takes it (12.2.2)"
            )
        elif self.coming_down(pitcher, down, v.down_so_far, v.down_so_far or 0):
            self.kitty_coming = True
            if r.discard == "none":
                self.ask_put_down(pitcher, held, trump, put_down_count=v.down_so_far)
            up = self.check_put_down_shown(pitcher, trump, [], v.down_so_far or 0)
            facts = dict(robbed_count=r.kitty, put_down_shown=up)
            return held, counts, facts | dict(put_down_count=v.down_so_far)
        # 12.9.1: under discards=shown his put-down is face up
        put_down_shown = self.check_put_down_shown(pitcher, trump, put_down, down)
        facts = dict(
            put_down=tuple(put_down),
            robbed_count=r.kitty,
            put_down_count=down,
            put_down_shown=put_down_shown,
        )
        return held, counts, facts

    def coming_down(self, seat: int, need: int, count: int | None, given: int) -> bool:
        """Whether ``seat`` is still coming down to 6 (12.2.2, 12.8.1): the view counts
        fewer cards put down than the rules' ``need`` and nothing that follows (else
        ``_agrees`` refuses the count); its own cards put down so far (``given``) must be
        that many."""
        v = self.v
        if count is None or count >= need:
            return False
        if v.tricks or v.out or (v.called >= 0 and self.r.partner == "announced"):
            return False  # play has started: a count short of it is refused with the rest
        if count < 0 or given != count:
            self.fail(f"seat {seat} has put down {given} cards, but {count} are counted")
        return True

    def choice_turn(self, pitcher: int, draws: list, kitty_seat: int) -> int | None:
        """12.8.1: the seat coming down to 6 now, from the dealer's left, the dealer last
        (None: all have); every seat after it has put down nothing yet."""
        v, n = self.v, self.n
        need = self.r.cards_each(n) - F.HAND_TARGET
        mover = None
        for s in v.calling_order:
            if mover is not None:
                if draws[s].discarded or (s == kitty_seat and (v.down_so_far or 0)):
                    self.fail(
                        f"draw: seat {s} put down cards before seat {mover} came down to 6 "
                        "(12.8.1: in turn from the dealer's left)"
                    )
            elif self.kitty_coming if s == kitty_seat else draws[s].discarded < need:
                mover = s
        return mover

    def draw_turn(self, kitty_seat: int) -> int | None:
        """12.8.2: the seat putting down now (None: every seat has drawn): the one the
        view names (``putting_down``), or the kitty's pitcher coming down to 6 in his
        turn (12.2.2), never both."""
        v = self.v
        if v.putting_down is None:
            return kitty_seat if self.kitty_coming else None
        order = v.calling_order
        before = kitty_seat >= 0 and order.index(kitty_seat) < order.index(v.putting_down)
        if v.putting_down == kitty_seat or (kitty_seat >= 0 and self.kitty_coming == before):
            self.fail(
                f"draw: putting_down is {v.putting_down}, but the kitty's pitcher comes "
                "down to 6 in his turn and draws nothing (12.2.2, 12.8.2)"
            )
        if v.tricks or v.out or (v.called >= 0 and self.r.partner == "announced"):
            self.fail(f"draw: putting_down is {v.putting_down}, but play has started")
        return v.putting_down

    def check_put_down_so_far(
        self, held: int, trump: int, down: list[int], drawing: bool = False, robbing=False
    ) -> None:
        """The seat's own cards put down so far: cards it held, never a called trump,
        putting down to draw (``drawing``, 12.8.2) trumps only beyond 6 and 3 kept, and
        the robber's non-trumps first (``robbing``, 4.8.7)."""
        if not F.puts_down_legally(held, trump, self.r, self.keep, down, drawing, robbing):
            rule = (
                "any non-trump, a trump only beyond 6, keeping 3 (12.8.2)"
                if drawing
                else "cards it held, never a called trump (12.1.3, 12.2.2, 12.8.1)"
            )
            rob = ", non-trumps first after the rob (4.8.7)" if robbing else ""
            self.fail(
                f"seat {self.v.seat} put down {' '.join(_texts(down))}, but it puts down "
                f"{rule}{rob}"
            )

    def ask_put_down(
        self, seat: int, held: int, trump: int, drawing: bool = False, robbing=False, **facts
    ) -> None:
        """``seat`` puts down one more card (12.2.2, 12.8.1): any it holds but a called
        trump (12.1.3), the robber's non-trumps first (``robbing``, 4.8.7); its own view
        lists them and its hand now (``kept``).  Putting
        down to draw (``drawing``, 12.8.2) it may put down ``may_put_down``'s cards, and
        once it holds 6 or fewer, stop and draw (``DRAW_ACTION``)."""
        legal: tuple[str, ...] = ()
        if seat == self.v.seat:
            cards = F.may_put_down(held, trump, self.r, self.keep, drawing, robbing)
            if drawing and not cards:
                self.fail(f"seat {seat} may put down no more, so it has drawn (12.8.2)")
            legal = tuple(put_down_text(c) for c in cards)
            if drawing and F.may_stop(held, drawing):
                legal += (DRAW_ACTION,)
            facts["kept"] = tuple(cards_of(held))
        self.asked = (seat, legal, facts)

    def own_put_down(
        self,
        held: int,
        trump: int,
        given: tuple[int, ...],
        drawing: bool = False,
        robbing: bool = False,
    ) -> list[int]:
        """This seat's own coming down to 6 (12.2.2, 12.8.1; ``robbing``: after the rob,
        4.8.7), or putting down to draw (``drawing``, 12.8.2): the cards it chose, as the view gives them (checked:
        ``reference.put_down_by``), else pitchsim's (``reference.come_down``,
        ``draw_discard``).  Putting down to draw, none given is read as pitchsim's."""
        v = self.v
        try:
            return F.put_down_by(
                v.seat,
                held,
                trump,
                self.r,
                self.keep,
                {v.seat: list(given)} if given else None,
                drawing,
                robbing,
            )
        except ValueError:
            have = " ".join(_texts(given))
            need = max(0, held.bit_count() - F.HAND_TARGET)
            keep = f", never the called {card_text(self.keep)} (12.1.3)" if self.keep >= 0 else ""
            how = (
                "any non-trumps, trumps only beyond 6, keeping 3 to 6 (12.8.2)"
                if drawing
                else f"it comes down to 6 with {need} of the cards it held (12.2.2, 12.8.1)"
            )
            if robbing:
                how += ", its non-trumps first (4.8.7)"
            self.fail(
                f"seat {v.seat} put down {have}, but {how}: it held "
                f"{' '.join(_texts(cards_of(held)))}{keep}"
            )
            raise

    # ---- 12.8 -----------------------------------------------------------------------

    def draw_in_turn(self, pitcher: int, trump: int) -> tuple[int, list[int], dict]:
        """12.8 as this seat saw it: after any kitty (``take_kitty``: the pitcher comes
        down at once here, the same hands as in his turn, since nobody's discard depends
        on his and his are never drawn), each seat from the dealer's left, the dealer
        last, put down (12.8.4: face down, counts only, trumps too; under discards=shown
        face up, 12.9: ``read_shown``, ``see_shown``) and under draw drew
        back to 6, from the discards once the stock ran out (4.8 step 4).  This seat's
        own discard is pitchsim's (12.8.3: ``come_down``, ``draw_discard``)."""
        v, r, n = self.v, self.r, self.n
        each = r.cards_each(n)
        held, counts, facts = mask_of(v.hand), [each] * n, {}
        if r.kitty:
            held, counts, facts = self.take_kitty(pitcher, trump)
        elif v.kitty:
            self.fail("the rules deal no kitty (12.2)")
        if not v.draws:
            self.fail(f"trump is named, so every player has discarded (12.8){DRAW_MISSING}")
        if v.robbed or (v.put_down_shown and not r.kitty):
            self.fail(f"draw: nobody robs under discard={r.discard} (6.3.2)")
        kitty_seat = pitcher if r.kitty else -1  # he came down with the kitty (12.2.2)
        draws = list(v.draws)
        for s, d in enumerate(draws):
            if d.burnt:
                self.fail(
                    f"draw: seat {s} burnt cards, but under discard={r.discard} nothing is "
                    "burnt: every discard is put down (12.8.4)"
                )
        if r.discard == "choice":
            mover = self.choice_turn(pitcher, draws, kitty_seat)
            if mover is not None:  # 12.8.1: a seat is coming down to 6
                own = [] if v.seat == kitty_seat else list(v.discards)
                if v.seat != kitty_seat:
                    if len(own) != draws[v.seat].discarded:
                        self.fail(
                            f"draw: seat {v.seat} discarded {draws[v.seat].discarded}, but "
                            f"its own put-down names {len(own)} cards (12.8.1)"
                        )
                    self.check_put_down_so_far(held, trump, own)
                    held &= ~mask_of(own)
                self.read_shown(draws, trump, mask_of(own))  # 12.9: face up as put down
                self.ask_put_down(mover, held, trump)
                return held, counts, facts | dict(draws=tuple(draws), discards=tuple(own))
        order = v.calling_order
        mover = self.draw_turn(kitty_seat) if r.discard == "draw" else None
        after = order[order.index(mover) + 1 :] if mover is not None else []
        if v.seat == kitty_seat or v.seat in after:
            own_down: list[int] = []
        elif v.seat == mover:  # 12.8.2: its put-down so far
            own_down = list(v.discards)
            self.check_put_down_so_far(held, trump, own_down, drawing=True)
        elif r.discard == "draw" and not (v.discards or draws[v.seat].discarded):
            own_down = []  # it put down nothing (12.8.2: held 6 or fewer)
            if not F.may_stop(held, True):
                self.fail(
                    f"draw: seat {v.seat} discarded 0, but holding more than 6 it "
                    "puts down at least the excess (12.8.2)"
                )
        else:
            own_down = self.own_put_down(held, trump, v.discards, drawing=r.discard == "draw")
        if draws[v.seat].discarded != len(own_down):
            self.fail(
                f"draw: seat {v.seat} discarded {draws[v.seat].discarded}, but it puts down "
                f"{len(own_down)} (12.8.3)"
            )
        shown_by = self.read_shown(draws, trump, mask_of(own_down))  # 12.9
        pile_shown = shown_out = 0  # as in ``draw`` (4.8 step 4)
        reach: dict[int, int] = {}  # as in ``draw``
        stock = self.pack.bit_count() - n * each - r.kitty
        junk = 0  # face-down discards so far (a count)
        mine_discarded = junk_draw_after_me = False
        drawn_from_stock = drawn_from_junk = 0
        for s in order:
            d = draws[s]
            if s == kitty_seat or s in after:
                if d.discarded:
                    self.fail(
                        f"draw: seat {s} took the kitty and put down in it (12.2.2): its "
                        "discarded is 0"
                        if s == kitty_seat
                        else f"draw: seat {s} put down cards before seat {mover} drew "
                        "(12.8.2: in turn from the dealer's left)"
                    )
                continue
            if s == mover:  # 12.8.2: putting down, yet to draw
                if each - d.discarded < F.KEEP_AT_LEAST:
                    self.fail(
                        f"draw: seat {s} discarded {d.discarded} of {each}, but each keeps "
                        f"{F.KEEP_AT_LEAST} (12.8.2)"
                    )
                continue
            kept = each - d.discarded
            low = F.HAND_TARGET if r.discard == "choice" else min(each, F.KEEP_AT_LEAST)
            if not low <= kept <= F.HAND_TARGET:
                rule = (
                    "comes down to 6 (12.8.1)"
                    if r.discard == "choice"
                    else f"keeps {F.KEEP_AT_LEAST} to {F.HAND_TARGET} (12.8.2, 12.8.3)"
                )
                self.fail(f"draw: seat {s} discarded {d.discarded} of {each}, but each {rule}")
            took = from_junk = 0
            pile_shown |= shown_by.get(s, 0)
            shown_out |= shown_by.get(s, 0)
            if r.discard == "draw":
                junk += d.discarded
                mine_discarded |= s == v.seat
                took = min(F.HAND_TARGET - kept, stock)
                stock -= took
                if kept + took < F.HAND_TARGET and r.follow != "only" and junk:
                    from_junk = min(F.HAND_TARGET - kept - took, junk)
                    junk -= from_junk
                    junk_draw_after_me |= mine_discarded and s != v.seat
                    if s != v.seat:  # any of them may be in that seat's hand now
                        shown_out &= ~pile_shown
                        reach[s] = pile_shown | (mask_of(own_down) if mine_discarded else 0)
            counts[s] = kept + took + from_junk
            up = tuple(own_down) if s == v.seat and r.discards == "shown" else d.shown
            draws[s] = SeatDraw(d.discarded, (), took + from_junk, up)
            if s == v.seat:
                drawn_from_stock, drawn_from_junk = took, from_junk
        if len(v.drawn) != drawn_from_stock + drawn_from_junk:
            self.fail(
                f"draw: seat {v.seat} drew {len(v.drawn)} cards, but after its discard it "
                f"draws {drawn_from_stock + drawn_from_junk} (12.8.2)"
            )
        for i, c in enumerate(v.drawn):
            if i < drawn_from_stock or c not in own_down:  # (its own discards drawn back)
                self.see(c, "the cards drawn", "draw: drawn")
        # Own discards stay known to this seat unless a later seat drew from the discards.
        self.lost_to_junk = mask_of(own_down) if junk_draw_after_me else 0
        self.see_shown(shown_by, shown_out, reach)
        held = (held & ~mask_of(own_down)) | mask_of(v.drawn)
        if mover is not None:  # a put-down under way (12.8.2), its own or another's
            self.ask_put_down(mover, held, trump, drawing=mover != kitty_seat)
        return held, counts, facts | dict(draws=tuple(draws), discards=tuple(own_down))

    # ---- 4.8 ------------------------------------------------------------------------

    def draw(self, pitcher: int, trump: int) -> tuple[int, list[int], dict]:
        """4.8 as this seat saw it; under rob=dealer (12.7, 11.8) the dealer robs and
        the draw runs from his left (``pitcher`` below is then the robber)."""
        v, r, n = self.v, self.r, self.n
        if r.rob == "dealer":
            pitcher = v.dealer
        each = r.cards_each(n)
        stock = self.pack.bit_count() - n * each
        junk = 0  # face-down discards so far (a count: their cards are unknown)
        mine_discarded = False  # own discards are in the face-down pile from here on
        draws = list(v.draws)
        own_dealt = mask_of(v.hand)
        own_trumps = F.trumps_in(own_dealt, trump, r)
        own_discards = own_dealt & ~own_trumps
        own_burnt = F.excess_trumps(cards_of(own_trumps), F.HAND_TARGET, trump, r, self.keep)
        for s, d in enumerate(draws):
            for c in d.burnt:
                if s == v.seat:
                    continue
                self.see(c, f"seat {s}'s burnt trumps", f"draw: seat {s}'s burnt")
                if not F.is_trump(c, trump, r):
                    self.fail(
                        f"draw: seat {s} burnt {card_text(c)}, which is not a trump (4.8 step 2)"
                    )
                if c == self.keep:
                    self.fail(
                        f"draw: seat {s} burnt {card_text(c)}, the called card, which rule X "
                        "passes over (12.1.3)"
                    )
        shown_by = self.read_shown(draws, trump, own_discards)  # 12.9
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
        pile_shown = 0  # face-up discards in the pile so far (12.9)
        shown_out = 0  # ... that no later seat can have drawn back (4.8 step 4)
        # seat -> the discards this seat saw go down before that seat drew from them
        reach: dict[int, int] = {}
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
            pile_shown |= shown_by.get(s, 0)
            shown_out |= shown_by.get(s, 0)
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
                if s != v.seat:  # any of them may be in that seat's hand now; this seat
                    shown_out &= ~pile_shown  # knows what it drew (4.8 step 4)
                    reach[s] = pile_shown | (own_discards if mine_discarded else 0)
            put = max(0, held - F.HAND_TARGET)
            counts[s] = held - put
            up = tuple(cards_of(own_discards)) if s == v.seat and r.discards == "shown" else d.shown
            draws[s] = SeatDraw(d.discarded, d.burnt, took + from_junk, up)
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
                face_up = any(m >> c & 1 for m in shown_by.values())  # 12.9
                if c in self.known and not own_discards >> c & 1 and not face_up:
                    self.fail(f"draw: drawn: {card_text(c)} is already in {self.known[c]}")
                self.check_in_pack(c, "draw: drawn")
                self.known[c] = "the cards drawn"
        if r.rob and v.seat == pitcher:
            if len(v.robbed) != robbed_count:
                self.fail(
                    f"draw: seat {v.seat} robbed {len(v.robbed)} cards, but the stock held "
                    f"{robbed_count}"
                )
            for c in v.robbed:
                self.see(c, "the robbed stock", "draw: robbed")
        elif v.robbed:
            who = "the dealer robs (12.7)" if r.rob == "dealer" else "the pitcher robs (4.8 step 5)"
            self.fail(f"draw: seat {v.seat} robbed cards, but only {who}")
        held_mask = (own_trumps & ~mask_of(own_burnt)) | mask_of(v.drawn) | mask_of(v.robbed)
        put_down: list[int] = []
        count = put_down_count if r.rob else 0
        so_far = len(v.put_down) if v.seat == pitcher else v.down_so_far or 0
        if r.rob and self.coming_down(pitcher, count, v.down_so_far, so_far):
            # 4.8.7: the robber is coming down to 6, one card a decision
            if v.seat == pitcher:
                put_down = list(v.put_down)
                self.check_put_down_so_far(held_mask, trump, put_down, robbing=True)
                held_mask &= ~mask_of(put_down)
            count = so_far
            self.ask_put_down(pitcher, held_mask, trump, robbing=True)
        elif r.rob and v.seat == pitcher:  # his choice as given, else pitchsim's (4.8.7)
            put_down = self.own_put_down(held_mask, trump, v.put_down, robbing=True)
            held_mask &= ~mask_of(put_down)
        if v.put_down and v.seat != pitcher:
            self.fail(
                f"draw: seat {v.seat} put down cards after the rob, but only the robber, "
                f"seat {pitcher}, comes down (4.8.7)"
            )
        put_down_shown = self.check_put_down_shown(pitcher, trump, put_down, count)
        # Own discards stay known to this seat unless a later seat drew from the discards.
        self.lost_to_junk = own_discards if junk_draw_after_me else 0
        self.see_shown(shown_by, shown_out, reach)
        self.burnt_by = {s: d.burnt for s, d in enumerate(draws)}
        facts = dict(
            draws=tuple(draws),
            discards=tuple(cards_of(own_discards)),
            burnt=tuple(own_burnt),
            put_down=tuple(put_down),
            robbed_count=robbed_count,
            put_down_count=count,
            put_down_shown=put_down_shown,
        )
        return held_mask, counts, facts

    def read_shown(self, draws: Sequence[SeatDraw], trump: int, own: int) -> dict[int, int]:
        """Under discards=shown (12.9) every seat's discards face up, as given and
        checked (``own``: this seat's, worked out): the other seats' ``shown`` as many
        as they put down, never seen twice, and under discard=non-trump no trump (4.8
        step 1).  Returns seat -> its face-up discards, this seat's left out (its own
        discards are ``lost_to_junk``'s business)."""
        v, r = self.v, self.r
        shown_by: dict[int, int] = {}
        if r.discards != "shown":  # (a shown list is refused as it is read)
            return shown_by
        for s, d in enumerate(draws):
            if s == v.seat:
                if d.shown and mask_of(d.shown) != own:
                    self.fail(
                        f"draw: seat {s}'s shown is {' '.join(_texts(d.shown))}, but it put "
                        f"down {' '.join(_texts(cards_of(own))) or 'nothing'} (12.9)"
                    )
                continue
            if len(d.shown) != d.discarded:
                self.fail(
                    f"draw: seat {s} discarded {d.discarded}, face up under "
                    f"discards=shown: give them as shown (12.9)"
                )
            for c in d.shown:
                # Seen, but known out of play only while no seat can have drawn
                # it back (``see_shown``); so not in ``known`` yet.
                self.check_in_pack(c, f"draw: seat {s}'s shown")
                if c in self.known or any(m >> c & 1 for m in shown_by.values()):
                    self.fail(f"draw: seat {s}'s shown: {card_text(c)} is seen twice")
                if r.discard == "non-trump" and F.is_trump(c, trump, r):
                    self.fail(f"draw: seat {s} discarded {card_text(c)}, a trump (4.8 step 1)")
            shown_by[s] = mask_of(d.shown)
        return shown_by

    def see_shown(self, shown_by: dict[int, int], shown_out: int, reach: dict[int, int]) -> None:
        """The other seats' face-up discards (12.9) this seat knows are out of play:
        ``shown_out``, those no other seat can have drawn back from the discards (4.8
        step 4), less what this seat drew itself; and those it saw go down (its own too)
        that each other seat may hold: ``reach[s]``, those down before s drew from the
        discards, less what this seat drew."""
        drew = mask_of(self.v.drawn)
        self.shown_out = shown_out & ~drew
        self.drawn_back = tuple(reach.get(s, 0) & ~drew for s in range(self.n))
        for s, m in shown_by.items():
            for c in cards_of(m & self.shown_out):
                self.see(c, f"seat {s}'s discards", f"draw: seat {s}'s shown")

    def check_put_down_shown(
        self, robber: int, trump: int, put_down: list[int], count: int
    ) -> tuple[int, ...]:
        """The robber's put-down shown face up (4.8 step 5, 12.7, 12.9), or the
        pitcher's after taking a kitty (12.9.1: his is the robber's below), as given and
        checked: the robber's own are worked out (``reference.shown_put_down``); another
        seat's must be cards it has not seen, trumps under rob=dealer, at most the count
        put down, and under rob=true or a kitty with discards=shown all of them.  Not
        given (an older document): none shown."""
        v, r = self.v, self.r
        given = v.put_down_shown
        what = "kitty: shown" if r.kitty else "draw: put_down_shown"
        if not r.rob and not r.kitty:
            if given:
                self.fail(f"{what}: nobody robs, so nothing is put down after a rob (4.8 step 5)")
            return ()
        if v.seat == robber:
            want = tuple(F.shown_put_down(put_down, trump, r))
            if given and sorted(given) != sorted(want):
                self.fail(
                    f"{what} is {' '.join(_texts(given))}, but the robber shows "
                    f"{' '.join(_texts(want)) or 'nothing'} of what he put down (12.7, 12.9)"
                )
            return want
        if len(set(given)) != len(given):
            self.fail(f"{what}: a card is given twice")
        if len(given) > count:
            self.fail(f"{what}: {len(given)} cards shown, but the robber put down {count}")
        pitcher_shows = r.rob is True or bool(r.kitty)  # all or nothing (12.9, 12.9.1)
        clause = "12.9.1" if r.kitty else "12.9"
        if given and pitcher_shows and r.discards == "hidden":
            self.fail(
                f"{what}: with discards=hidden the pitcher's put-down is face down ({clause})"
            )
        if given and pitcher_shows and r.discards == "shown" and len(given) != count:
            self.fail(
                f"{what}: {len(given)} of the {count} cards put down shown, but under "
                f"discards=shown every one is face up ({clause})"
            )
        for c in given:
            where = "the pitcher's kitty put-down" if r.kitty else "the robber's shown put-down"
            self.see(c, where, what)
            if r.rob == "dealer" and not F.is_trump(c, trump, r):
                self.fail(
                    f"{what}: {card_text(c)} is not a trump; the dealer shows only the "
                    "trumps he puts down (12.7)"
                )
        return given

    # ---- play (0.5, RULES, 3.7, 4.9, 6.3.5) -------------------------------------------

    def play(
        self, pitcher: int, trump: int | None, held: int, counts: list[int], facts: dict
    ) -> View:
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
            "kept": tuple(cards_of(held)),
            "trump": trump,
            "sizes": tuple(counts),
            "junk_lost": lost_to_junk,
            "shown_out": self.shown_out,
            "drawn_back": self.drawn_back,
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
                    who = "the pitcher" if t == 1 else f"the winner of trick {t - 1}"
                    if only:
                        who = "the next seat holding a trump (4.9)"
                    self.fail(f"trick {t} is led by seat {trick.leader}, not {who} ({res.to_move})")
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
                            f"seat {s} plays {name} in trick {t} but does not hold it (its hand: {self._own(hand_now)})"
                        )
                    if not F.legal_cards(hand_now, played, tr, r, first_lead=first) >> c & 1:
                        self.fail(
                            f"seat {s}'s {name} in trick {t} is illegal: {self._why(hand_now, played, tr, first)}"
                        )
                    if t == 1 and self.owes_call(hand_now) and c != self.keep:
                        self.fail(
                            f"seat {s} plays {name} to trick 1, but it holds the called card "
                            f"{card_text(self.keep)} and must play it there (12.1.3)"
                        )
                    hand_now &= ~(1 << c)
                else:
                    where = self.known.get(c)
                    if where is not None and not lost_to_junk >> c & 1:
                        if where == "its own hand":
                            self.fail(
                                f"seat {s} plays {name} in trick {t}, but seat {v.seat} holds it"
                            )
                        mine = where in ("the cards drawn", "the robbed stock", "the kitty")
                        whose = f" of seat {v.seat}" if mine else ""
                        self.fail(
                            f"seat {s} plays {name} in trick {t}, but it is in {where}{whose}"
                        )
                    if played_count[s] >= counts[s]:
                        self.fail(
                            f"seat {s} plays a card in trick {t} but held only {counts[s]} (4.8)"
                        )
                    if c == self.keep and t > 1 and s != pitcher:
                        self.fail(
                            f"seat {s} plays the called card {name} in trick {t}: its holder, "
                            "the partner, plays it to trick 1 (12.1.3)"
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
                        if F.is_trump(c, trump, r) and burnt_by.get(s) and c != self.keep:
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
                    of = "" if only else f" of {n}"
                    self.fail(f"trick {t} has {len(trick.cards)}{of} cards but is not the last")
                break
            w = trick.seats[F.trick_winner(trick.cards, trump, r)]
            leader = w
        facts["partner"] = self.partner(
            pitcher, facts["trump"], held, seen, voids, played_count, counts
        )
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
            if (
                len(v.tricks) <= 1
                and not (v.tricks and not trick_cards)
                and self.owes_call(hand_now)
            ):
                mask = 1 << self.keep  # 12.1.3: the partner plays the called card to trick 1
            legal = tuple(card_text(c) for c in cards_of(mask))
        return self.done(
            phase="play",
            to_move=to_move,
            out=out,
            voids=voids,
            open_trick=bool(trick_cards),
            _legal=legal,
            **facts,
        )

    def owes_call(self, hand_now: int) -> bool:
        """Whether this seat, holding ``hand_now`` in trick 1, must play the called card
        there: the partner under partner=called (12.1.3; a pitcher holding his own call
        has no partner and no such duty)."""
        keep = self.keep
        return keep >= 0 and self.v.seat != self.pitcher and bool(hand_now >> keep & 1)

    def partner(
        self,
        pitcher: int,
        trump: int,
        kept: int,
        seen: dict[int, tuple[int, int]],
        voids: int,
        played_count: list[int],
        counts: list[int],
    ) -> int | None:
        """The pitcher's partner as this seat knows him (12.1.2-12.1.5; ``View.partner``),
        checked against the one given: under called worked out (the seat's own hand, the
        card once played); under announced given (the holder says so at once, 12.1.4) and
        checked against what the seat saw."""
        v, r = self.v, self.r
        if r.partner == "none":
            return None
        called, me = v.called, v.seat
        by = seen[called][1] if called in seen else None  # who played it
        holder = me if kept >> called & 1 else by  # known to hold it when play started
        if r.partner == "announced":
            p = v.partner
            if p is None:
                self.fail(
                    "partner is null or missing, but the called card's "
                    "holder said so at once (12.1.4): every seat's view then carries it "
                    "(the pitcher's own seat when nobody else holds it)"
                )
            if holder is not None and p != holder:
                whose = f"seat {me} holds it" if by is None else f"seat {holder} played it"
                self.fail(
                    f"partner is {p}, but {card_text(called)} was called and {whose} (12.1.4)"
                )
            if holder is None and p == me and me != pitcher:
                self.fail(
                    f"partner is {p}, but seat {me} does not hold {card_text(called)} (12.1.4)"
                )
            if holder is None and p != pitcher:
                eff = F.effective_suit(called, trump, r)
                if voids >> (4 * p + eff) & 1 or played_count[p] >= counts[p]:
                    self.fail(
                        f"partner is {p}, but seat {p} cannot still hold {card_text(called)} (12.1.4)"
                    )
            return p
        partner = None if holder == pitcher else holder
        known = F.known_partner(r, me, pitcher, called, partner, holder == pitcher, by is not None)
        if v.partner is not None and v.partner != known:
            if known is None:
                self.fail(
                    f"partner is {v.partner}, but seat {me} cannot know the partner before "
                    f"the called card {card_text(called)} is played (12.1.2, 12.1.3)"
                )
            self.fail(f"partner is {v.partner}, but the view makes it {known} (12.1.3, 12.1.5)")
        return known

    def _complete(self, trick: Trick, out: set[int], hand_now: int, trump) -> bool:
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
        return f"it holds {SUIT_NAMES[led]}, so it must {must}"

    def _drop_last(self) -> View:
        return replace(self.v, tricks=self.v.tricks[:-1])

    def _own(self, hand_now: int) -> str:
        """This seat's cards in hand, in the order it was given them."""
        own = [*self.v.hand, *self.v.drawn, *self.v.robbed, *self.v.kitty]
        return " ".join(card_text(c) for c in own if hand_now >> c & 1)


def _why_not(call: int, made: list[int], dealer: bool, legal: list[int], r: Rules) -> str:
    """Why ``call`` is not among the ``legal`` calls after ``made`` (the auction's rules)."""
    high = max(made, default=F.PASS)
    if call == F.PASS:
        return "(the dealer is stuck: everybody else passed)"
    if call == F.shoot_call(r):
        return "(a seat below zero may not shoot, 6.1)"
    if call < r.min_bid:
        return f"(the minimum bid is {r.min_bid})"
    if dealer and high == F.PASS:
        return f"(a stuck dealer bids at least {min(c for c in legal if c != F.PASS)})"
    if dealer and call == high:
        if r.dealer_steal == "max":
            return f"(the dealer steals only a bid of {r.max_bid}: it must outbid {high})"
        return f"(no dealer steal: the dealer must outbid {high})"
    return f"after a high bid of {high}"


def _x_key(c: int, trump: int, rules: Rules) -> tuple:
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
    ``(seat, view document, action taken)``: each call, the naming of trump, the call of
    a partner's card (12.1.2, 12.1.4; under announced cut only where the pitcher leads
    trick 1, as he does unless ``follow=only`` passes him over) and each card.

    ``scores`` are the seats' scores before the hand (partners carry their team's).
    A view holds only what its seat saw: its own cards, the calls, the burnt trumps and
    the counts of the draw, the tricks and who is out.
    """
    n = players
    score_doc = [scores[0], scores[1]] if rules.partnership else list(scores)
    dealt = [sorted(cards_of(m)) for m in hand.dealt]
    a = hand.auction
    made: list[int] = []
    for i, s in enumerate(a.order):
        if not F.legal_calls(made, s == hand.dealer, rules, may_shoot=scores[s] >= 0):
            break
        made.append(a.calls[i] if a.calls[i] is not None else F.PASS)

    def base(seat: int) -> dict:
        return {
            "rules": spec(rules),
            "players": n,
            "seat": seat,
            "dealer": hand.dealer,
            "hand": _texts(dealt[seat]),
            "scores": score_doc,
        }

    for i, call in enumerate(made):
        s = a.order[i]
        yield (
            s,
            base(s) | {"calls": [call_text(c, rules) for c in made[:i]]},
            call_text(call, rules),
        )
    calls = [call_text(c, rules) for c in made]
    if a.pitcher is None or hand.play is None:
        return
    pitcher = a.pitcher
    trump = hand.play.trump
    after: dict = {"calls": calls}
    if rules.trump == "named":
        yield pitcher, base(pitcher) | after, trump_text(trump)
        after["trump"] = SUITS[trump]
    if rules.partner == "called":  # 12.1.2: the call, before any discard or kitty
        yield pitcher, base(pitcher) | after, partner_call_text(hand.play.called)
    drawn_by: list[list[int]] = [[] for _ in range(n)]
    kitty = hand.draw if rules.kitty else None  # 12.2.2: recorded as a rob of the kitty
    if hand.draw is not None and rules.discard != "none":  # 4.8, 12.8 (after any kitty)
        rec = hand.draw
        draw_seats = [
            {"discarded": rec.discarded[s].bit_count(), "burnt": _texts(cards_of(rec.burnt[s]))}
            | ({"shown": _texts(cards_of(rec.discarded[s]))} if rules.discards == "shown" else {})
            for s in range(n)
        ]
        drawn_by = rec.drawn
        robbed = list(rec.robbed)
    only = rules.follow == "only"
    called = hand.play.called
    pitcher_holds = called >= 0 and bool(hand.play.held[pitcher] >> called & 1)
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
            if called >= 0:  # 12.1: heard by all; the partner as seat s knows him
                on_table = any(card_text(called) in t["cards"] for t in shown)
                known = F.known_partner(
                    rules, s, pitcher, called, hand.play.partner, pitcher_holds, on_table
                )
                doc |= partner_doc(called, known, pitcher)
            if kitty is not None:
                doc["kitty"] = kitty_doc(
                    len(kitty.robbed),
                    len(kitty.put_down),
                    kitty.robbed,
                    kitty.put_down,
                    s == pitcher,
                    kitty.put_down_shown if rules.discards == "shown" else None,  # 12.9.1
                )
            if hand.draw is not None and rules.discard != "none":
                mine = {"drawn": _texts(drawn_by[s])}
                if rules.rob and s == rules.robber(pitcher, hand.dealer):
                    mine["robbed"] = _texts(robbed)
                doc["draw"] = {"seats": draw_seats, "mine": mine}
                if rules.rob and rec.put_down_shown:  # face up, seen by all (12.7, 12.9)
                    doc["draw"]["put_down_shown"] = _texts(rec.put_down_shown)
            if rules.partner == "announced" and s == pitcher and not shown and called >= 0:
                # 12.1.4: the call, after the draw, before the pitcher's first card (a
                # pitcher who does not lead trick 1 under follow=only: not cut)
                heard = ("called", "partner", "pitcher_side", "out")
                before = {k: v for k, v in doc.items() if k not in heard}
                yield s, before, partner_call_text(called)
            yield s, doc, card_text(c)
            cur["seats"].append(s)
            cur["cards"].append(card_text(c))
        tricks.append(cur)
        if only:  # every seat that did not play to the trick was out (4.9)
            out |= set(range(n)) - set(seats)
