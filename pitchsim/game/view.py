"""A player's view: everything one seat knows at the table, and nothing it does not.

A view is the JSON object a table sends a seat at each decision (``docs/view.md``)::

    {"rules": "low=captured,min-bid=1,...", "players": 4, "partnership": false,
     "target": 7, "seat": 1, "dealer": 3, "hand": ["AH", "KH", "2H", "9C", "7D", "3S"],
     "calls": ["pass", "2"], "pitcher": null, "bid": null, "trump": null,
     "tricks": [], "scores": [0, 0, 0, 0], "legal": ["pass", "3", "4"]}

- ``hand``: the seat's own six cards as dealt (never another seat's);
- ``calls``: the calls so far, from the dealer's left: ``"pass"`` or ``"1"``..``"4"``;
- ``pitcher``, ``bid`` (once the auction is over) and ``trump`` (once the opening lead
  is made): null until known; they follow from the calls and tricks and must agree;
- ``tricks``: ``[{"leader": s, "cards": [...]}]`` in order, the last possibly incomplete;
- ``scores``: the game scores before this hand, one per seat (in a partnership one per
  team: seats 0+2, then 1+3);
- ``legal``: optional on input (when given it must be right), always written.

:meth:`View.from_json` replays the calls and tricks by the reference engine's rules
and refuses, in one line (:class:`ViewError`), a view that cannot have happened.
Unknown fields are ignored.  :meth:`View.legal` gives the legal actions of the seat
when it is to act: calls (``"pass"``, ``"1"``..``"4"``) in the auction, cards (``"KS"``)
in the play.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from ..util.errors import InputError
from ..util.jsonio import dumps_json
from .cards import HAND_SIZE, N_CARDS, SUIT_NAMES, SUITS, CardError, format_card, parse_cards
from .reference import MAX_BID, PASS, TRICKS, legal_calls, legal_cards, shows_void, trick_winner
from .rules import FamilyRules, Rules, RulesError, document_rule_values, label, rules_text

MAX_SCORE = 10**6  # scores past this cannot come from a game abandoned after 1,024 deals


class ViewError(InputError):
    """A view that cannot have happened (or cannot be read); the message names the problem."""


def call_text(call: int) -> str:
    """0 -> ``"pass"``, a bid -> ``"2"``: a call as the protocol writes it."""
    return "pass" if call == PASS else str(call)


def card_text(c: int) -> str:
    return format_card(c, symbols=False)


def parse_call(value: object, what: str) -> int:
    """A call as written in a view or an action: ``"pass"`` (or null / 0) or a bid."""
    if value is None or value == "pass":
        return PASS
    if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= 2:
        value = int(value)
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= MAX_BID:
        return value
    raise ViewError(
        f'{what} must be "pass" or a bid "1"-"{MAX_BID}", not {dumps_json(value, indent=None)}'
    )


@dataclass(frozen=True)
class Trick:
    leader: int
    cards: tuple[int, ...]  # from the leader on


@dataclass(frozen=True)
class View:
    """What ``seat`` knows (see the module).  Build one with :meth:`from_json` (checked) or
    :meth:`check` after ``replace``; the fields after ``scores`` are worked out."""

    rules: Rules
    players: int
    seat: int
    dealer: int
    hand: tuple[int, ...]  # own cards as dealt, in the order given
    calls: tuple[int, ...]  # 0 = pass, from the dealer's left
    tricks: tuple[Trick, ...]
    scores: tuple[int, ...]  # per seat, or per team in a partnership
    # Worked out from the above by ``check``:
    pitcher: int | None = None
    bid: int | None = None
    trump: int | None = None
    to_move: int | None = None  # whose turn it is (None: the hand is over or thrown in)
    phase: str = "auction"  # "auction" | "play" | "over" | "thrown-in"
    _legal: tuple = field(default=(), repr=False, compare=False)

    # ---- derived facts -----------------------------------------------------------

    @property
    def partnership(self) -> bool:
        return self.rules.partnership

    @property
    def target(self) -> int:
        return self.rules.target

    @property
    def hand_mask(self) -> int:
        m = 0
        for c in self.hand:
            m |= 1 << c
        return m

    @property
    def calling_order(self) -> list[int]:
        return [(self.dealer + 1 + i) % self.players for i in range(self.players)]

    def caller(self, i: int) -> int:
        """The seat that makes call number ``i`` (0 = the dealer's left)."""
        return (self.dealer + 1 + i) % self.players

    @property
    def played_by(self) -> tuple[int, ...]:
        """Per seat, the cards (mask) it has played this hand, the current trick too."""
        out = [0] * self.players
        for t in self.tricks:
            for i, c in enumerate(t.cards):
                out[(t.leader + i) % self.players] |= 1 << c
        return tuple(out)

    @property
    def held(self) -> int:
        """The seat's own cards still in hand (mask)."""
        return self.hand_mask & ~self.played_by[self.seat]

    @property
    def complete_tricks(self) -> tuple[Trick, ...]:
        return tuple(t for t in self.tricks if len(t.cards) == self.players)

    @property
    def current_trick(self) -> Trick | None:
        """The trick in progress (possibly with no card yet), or None outside the play."""
        if self.phase != "play":
            return None
        if self.tricks and len(self.tricks[-1].cards) < self.players:
            return self.tricks[-1]
        return Trick(self.to_move, ())

    def winner(self, t: Trick) -> int:
        return (t.leader + trick_winner(t.cards, self.trump, self.rules)) % self.players

    @property
    def won(self) -> tuple[int, ...]:
        """Per seat, the cards it captured in completed tricks (mask)."""
        out = [0] * self.players
        for t in self.complete_tricks:
            for c in t.cards:
                out[self.winner(t)] |= 1 << c
        return tuple(out)

    @property
    def voids(self) -> int:
        """Bit ``4 * seat + suit``: that seat has shown it holds none of that suit."""
        v = 0
        for t in self.tricks:
            led = t.cards[0] // 13
            for i, c in enumerate(t.cards[1:], 1):
                if shows_void(c, led, self.trump, self.rules):
                    v |= 1 << (4 * ((t.leader + i) % self.players) + led)
        return v

    def seat_scores(self) -> tuple[int, ...]:
        """Scores per seat (partners carry their team's)."""
        if self.partnership:
            return tuple(self.scores[s % 2] for s in range(self.players))
        return self.scores

    def legal(self) -> list[str]:
        """The seat's legal actions now, as the protocol writes them (empty when it is
        not this seat's turn)."""
        return list(self._legal) if self.to_move == self.seat else []

    def legal_calls(self) -> list[int]:
        """The legal calls as ints (0 = pass); empty outside this seat's turn to call."""
        if self.phase != "auction" or self.to_move != self.seat:
            return []
        return [parse_call(a, "call") for a in self._legal]

    def legal_cards(self) -> int:
        """The legal cards as a mask; 0 outside this seat's turn to play."""
        if self.phase != "play" or self.to_move != self.seat:
            return 0
        m = 0
        for a in self._legal:
            m |= 1 << parse_cards(a)[0]
        return m

    # ---- reading and writing ----------------------------------------------------

    def to_json(self) -> dict:
        scores = list(self.scores)
        return {
            "rules": rules_text(self.rules),
            "players": self.players,
            "partnership": self.partnership,
            "target": self.target,
            "seat": self.seat,
            "dealer": self.dealer,
            "hand": [card_text(c) for c in self.hand],
            "calls": [call_text(c) for c in self.calls],
            "pitcher": self.pitcher,
            "bid": self.bid,
            "trump": SUITS[self.trump] if self.trump is not None else None,
            "tricks": [
                {"leader": t.leader, "cards": [card_text(c) for c in t.cards]} for t in self.tricks
            ],
            "scores": scores,
            "legal": self.legal(),
        }

    @classmethod
    def from_json(cls, doc: object, who: str | None = None) -> View:
        """A checked view from a decoded JSON object (see the module).  A view under a
        rule family is refused in one line naming ``who`` (the command reading it): it
        is read by :mod:`.family_view`."""
        return _parse(doc, who)

    def check(self) -> View:
        """This view replayed and checked; the derived fields filled in."""
        return _replay(self)


# ---------------------------------------------------------------- reading


def whole_number(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ViewError(f"{what} must be a whole number, not {shown(value)}")
    return value


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


def _cards(value: object, what: str) -> tuple[int, ...]:
    if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
        raise ViewError(f'{what} must be a list of cards like ["AH", "TS"]')
    out = []
    for c in value:
        try:
            cs = parse_cards(c)
        except CardError as e:
            raise ViewError(f"{what}: {e}") from None
        if len(cs) != 1:
            raise ViewError(f"{what}: {c!r} is not one card")
        if cs[0] in out:
            raise ViewError(f"{what}: {card_text(cs[0])} is there twice")
        out.append(cs[0])
    return tuple(out)


def _rules(doc: dict, who: str | None = None) -> Rules:
    spec = doc.get("rules")
    given: dict[str, object] = {}
    try:
        if spec is None:
            rules = Rules()
        elif not isinstance(spec, str | dict):
            raise ViewError('rules must be a rule string like "low=dealt,follow=suit"')
        else:
            given = document_rule_values(spec)  # a string or an object, never a file
            rules = Rules.parse(given)
    except RulesError as e:
        raise ViewError(f"rules: {e}") from None
    if isinstance(rules, FamilyRules):
        # This view replays its calls and tricks by the base game's rules: a family's
        # bids, jick and jokers would be judged by the wrong ones.  A family's view is
        # read by game/family_view.py; the commands that take this one do not use it yet.
        raise ViewError(
            f"rules: {label(rules)}: {who or 'this command'} takes views of the base game only; "
            "a view under a rule family is not taken here yet"
        )
    for key in ("partnership", "target"):
        if doc.get(key) is None:
            continue
        value = doc[key]
        if key == "partnership" and not isinstance(value, bool):
            raise ViewError(f"partnership must be true or false, not {shown(value)}")
        if key == "target":
            whole_number(value, "target")
        if key in given and getattr(rules, key) != value:
            raise ViewError(f"{key} is {shown(value)} but the rules say {getattr(rules, key)}")
        try:
            rules = replace(rules, **{key: value})
        except RulesError as e:
            raise ViewError(str(e)) from None
    return rules


def _parse(doc: object, who: str | None = None) -> View:
    if not isinstance(doc, dict):
        raise ViewError("a view is a JSON object with players, seat, dealer, hand and calls")
    for key in ("players", "seat", "dealer", "hand"):
        if key not in doc:
            raise ViewError(f"the view has no {key!r}")
    rules = _rules(doc, who)
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
    hand = _cards(doc["hand"], "hand")
    if len(hand) != HAND_SIZE:
        raise ViewError(f"hand has {len(hand)} cards: a seat is dealt {HAND_SIZE}")
    calls_doc = doc.get("calls", [])
    if not isinstance(calls_doc, list):
        raise ViewError('calls must be a list like ["pass", "2"]')
    if len(calls_doc) > n:
        raise ViewError(f"{len(calls_doc)} calls: each of the {n} seats calls at most once")
    calls = tuple(parse_call(c, f"call {i + 1}") for i, c in enumerate(calls_doc))
    tricks_doc = doc.get("tricks", [])
    if not isinstance(tricks_doc, list):
        raise ViewError('tricks must be a list of {"leader", "cards"} objects')
    if len(tricks_doc) > TRICKS:
        raise ViewError(f"{len(tricks_doc)} tricks: a hand has {TRICKS}")
    tricks = []
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
        tricks.append(Trick(leader, _cards(trick["cards"], f"trick {t}")))
    scores = read_scores(doc, n, rules.partnership)
    view = _replay(View(rules, n, seat, dealer, hand, calls, tuple(tricks), scores))

    # The facts a table may state must agree with what the calls and cards say.
    for key, got in (("pitcher", view.pitcher), ("bid", view.bid)):
        # A whole number or null: true is not seat 1, nor 1.0 a bid of 1.
        if doc.get(key) is not None and whole_number(doc[key], key) != got:
            raise ViewError(f"{key} is {doc[key]} but the calls make it {shown(got)}")
    if doc.get("trump") is not None:
        t = doc["trump"]
        if not isinstance(t, str) or t.upper() not in SUITS or len(t) != 1:
            raise ViewError(f'trump must be a suit letter "C", "D", "H" or "S", not {shown(t)}')
        if view.trump is None:
            raise ViewError(f"trump is {t} but the opening lead has not been made")
        if SUITS.index(t.upper()) != view.trump:
            raise ViewError(f"trump is {t} but the opening lead makes it {SUITS[view.trump]}")
    if doc.get("legal") is not None:
        legal = doc["legal"]
        if not isinstance(legal, list) or not all(isinstance(a, str) for a in legal):
            raise ViewError('legal must be a list of actions like ["pass", "3"] or ["KS"]')
        if sorted(_norm_action(a) for a in legal) != sorted(view.legal()):
            raise ViewError(
                f"legal lists {' '.join(legal) or 'nothing'}, but the legal "
                f"actions are {' '.join(view.legal()) or 'none'}"
            )
    return view


def _norm_action(a: str) -> str:
    try:
        cs = parse_cards(a)
        if len(cs) == 1:
            return card_text(cs[0])
    except CardError:
        pass
    return a.strip().lower()


# ---------------------------------------------------------------- replaying


def _replay(v: View) -> View:
    """Replay the calls and tricks of ``v`` by the rules; fill in what follows."""
    n, rules = v.players, v.rules
    if isinstance(rules, FamilyRules):  # a view built in code, past _rules's refusal
        raise ViewError(
            f"rules: {label(rules)}: this view replays the base game only; a rule family's "
            "view is a FamilyView (game/family_view.py)"
        )
    own = 0
    for c in v.hand:
        if not 0 <= c < N_CARDS:
            raise ViewError(f"{c} is not a card")
        own |= 1 << c
    if own.bit_count() != HAND_SIZE or len(v.hand) != HAND_SIZE:
        raise ViewError(f"hand must be {HAND_SIZE} different cards")

    # The auction.
    bids: list[int] = []
    for i, call in enumerate(v.calls):
        seat = v.caller(i)
        legal = legal_calls(bids, seat == v.dealer, rules)
        if not legal:
            raise ViewError(f"call {i + 1} (seat {seat}) comes after a 4, which ends the auction")
        if call not in legal:
            high = max(bids, default=PASS)
            why = _why_not(call, high, seat == v.dealer, rules)
            raise ViewError(
                f"call {i + 1}: seat {seat} may not call {call_text(call)} {why} "
                f"(legal: {', '.join(map(call_text, legal))})"
            )
        bids.append(call)
    high = max(bids, default=PASS)
    auction_over = len(bids) == n or high == MAX_BID
    pitcher = bid = None
    if auction_over and high > PASS:
        bid = high
        pitcher = v.caller(max(i for i, b in enumerate(bids) if b != PASS))
    if not auction_over:
        if v.tricks:
            raise ViewError(f"{len(bids)} of {n} calls made, so no card can be played yet")
        return _done(
            v,
            "auction",
            v.caller(len(bids)),
            None,
            None,
            None,
            tuple(map(call_text, legal_calls(bids, v.caller(len(bids)) == v.dealer, rules))),
        )
    if pitcher is None:
        if v.tricks:
            raise ViewError("everybody passed, so the hand was thrown in: no card is played")
        return _done(v, "thrown-in", None, None, None, None, ())

    # The play.  Only this seat's hand is known: its cards must be legal from it; any
    # other seat's card must be one nobody has shown out of.
    held = own
    seen: dict[int, tuple[int, int]] = {}  # card -> (trick, seat)
    voids = 0
    trump = None
    leader = pitcher
    for t, trick in enumerate(v.tricks, 1):
        if not trick.cards:
            if t < len(v.tricks):
                raise ViewError(f"trick {t} has no cards but is not the last")
            if trick.leader != leader:
                who = "the pitcher" if t == 1 else f"the winner of trick {t - 1}"
                raise ViewError(f"trick {t} is led by seat {trick.leader}, not {who} ({leader})")
            # A trick about to be led, written out empty: the same view as leaving it out.
            return _replay(replace(v, tricks=v.tricks[:-1]))
        if len(trick.cards) < n and t < len(v.tricks):
            raise ViewError(f"trick {t} has {len(trick.cards)} of {n} cards but is not the last")
        if trick.leader != leader:
            who = "the pitcher" if t == 1 else f"the winner of trick {t - 1}"
            raise ViewError(f"trick {t} is led by seat {trick.leader}, but {who} is seat {leader}")
        played: list[int] = []
        for i, c in enumerate(trick.cards):
            seat = (leader + i) % n
            name = card_text(c)
            if c in seen:
                t0, s0 = seen[c]
                raise ViewError(
                    f"{name} is played twice: by seat {s0} in trick {t0} and by "
                    f"seat {seat} in trick {t}"
                )
            led = played[0] // 13 if played else None
            if seat == v.seat:
                if not own >> c & 1:
                    raise ViewError(
                        f"seat {seat} plays {name} in trick {t} but does not hold it "
                        f"(its hand: {' '.join(map(card_text, v.hand))})"
                    )
                if not legal_cards(held, played, -1 if trump is None else trump, rules) >> c & 1:
                    must = "follow suit" if rules.follow == "suit" else "follow suit or trump"
                    raise ViewError(
                        f"seat {seat}'s {name} in trick {t} is illegal: it holds "
                        f"{SUIT_NAMES[led]}, so it must {must}"
                    )
                held &= ~(1 << c)
            else:
                if own >> c & 1:
                    raise ViewError(
                        f"seat {seat} plays {name} in trick {t}, but seat {v.seat} holds it"
                    )
                if voids >> (4 * seat + c // 13) & 1:
                    raise ViewError(
                        f"seat {seat} plays {name} in trick {t} after showing it held "
                        f"no {SUIT_NAMES[c // 13]}"
                    )
            if i == 0 and t == 1:
                trump = c // 13  # the opening lead fixes trump
            if led is not None and shows_void(c, led, trump, rules):
                voids |= 1 << (4 * seat + led)
            seen[c] = (t, seat)
            played.append(c)
        if len(played) == n:
            leader = (leader + trick_winner(played, trump, rules)) % n
    current = v.tricks[-1].cards if v.tricks and len(v.tricks[-1].cards) < n else ()
    complete = len(v.tricks) - (1 if current else 0)
    if complete == TRICKS:
        return _done(v, "over", None, pitcher, bid, trump, ())
    to_move = (leader + len(current)) % n if current else leader
    legal_actions: tuple[str, ...] = ()
    if to_move == v.seat:
        mask = legal_cards(held, list(current), -1 if trump is None else trump, rules)
        legal_actions = tuple(card_text(c) for c in range(N_CARDS) if mask >> c & 1)
    return _done(v, "play", to_move, pitcher, bid, trump, legal_actions)


def _why_not(call: int, high: int, dealer: bool, rules: Rules) -> str:
    if call == PASS:
        return "(the dealer is stuck: everybody else passed)"
    if call < rules.min_bid:
        return f"(the minimum bid is {rules.min_bid})"
    if dealer and high == PASS:
        return "(a stuck dealer bids at least 2)"
    if dealer and not rules.dealer_steal and call == high:
        return f"(no dealer steal: the dealer must outbid {high})"
    return f"after a high bid of {high}"


def _done(v, phase, to_move, pitcher, bid, trump, legal) -> View:
    return replace(
        v, phase=phase, to_move=to_move, pitcher=pitcher, bid=bid, trump=trump, _legal=tuple(legal)
    )


def read_view(source: str, what: str | None = None, who: str | None = None) -> View:
    """A checked view from a JSON file (``-``: stdin); ``who`` as in :meth:`View.from_json`."""
    from ..util.jsonio import read_json

    return View.from_json(read_json(source, what), who)


def parse_view(text: str, what: str = "view", who: str | None = None) -> View:
    from ..util.jsonio import parse_json

    return View.from_json(parse_json(text, what), who)
