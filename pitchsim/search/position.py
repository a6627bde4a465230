"""Positions: a hand cut at any card, read from JSON and checked (``solve``, ``hint``).

A position is the JSON object ``pitchsim play --json`` writes for a round::

    {"players": 4, "pitcher": 3, "bid": 2,
     "hands": [["4C", "6C", "JD", "AH", "8S", "TS"], ...],      # as dealt, 6 per seat
     "tricks": [{"leader": 3, "cards": ["4H", "AH", "3H", "6H"]},
                {"leader": 0, "cards": ["4C"]}],                # the last may be incomplete
     "partnership": false, "rules": "follow=suit"}

``bid``, ``partnership`` and ``rules`` (a ``--rules`` string such as
``"low=dealt,follow=suit"`` or an object with the same keys) are optional; any other
field (``winner``, ``points``, ``dealer``, ``trump``, ...) is ignored: who won each trick
and which suit is trump follow from the cards.  ``tricks: []`` is the position before
the opening lead, trump not yet fixed.

The base game (``rules.base_game``) is read so, and so is a preset's round of it
(``dealt``/``held`` for ``hands``).  Under any other preset (``"rules": "smear"`` or
``solve --rules smear``) ``hands`` are the hands when the first card is
led: the deal, or 6 each after the discard and draw (fewer allowed under follow=only;
a preset's round as ``pitchsim play --json`` writes it gives them as ``held``, else
``dealt``);
jokers (``HJ``, ``LJ``) when the family's pack has them; ``"trump": "H"`` is required
under trump=named and must be left out (or agree with the first card) under
trump=first-lead.  The tricks are replayed by the family's own rules
(:mod:`pitchsim.search.minimax`, the reference engine's), giving a
:class:`PresetPosition`.

:func:`read_position` (one object) and :func:`read_positions` (one object or a list)
return :class:`Position`, which knows the cards still held, the cards each seat has
captured, the trick in progress, the player to move and trump; :meth:`Position.view`
is what the player to move can see (own hand, every seat's played cards, the tricks),
for search that must not peek.  Every problem is a :class:`PositionError`, one line.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from ..game import reference as ref_families
from ..game.cards import (
    HAND_SIZE,
    SUIT_NAMES,
    CardError,
    format_card,
    mask_of,
    parse_cards,
    parse_suit,
)
from ..game.cards import suit_of as _suit_of
from ..game.reference import TRICKS, legal_cards, score_hand, trick_winner
from ..game.rules import Rules, RulesError, label, rules_text, stated_rules
from ..util.errors import InputError, quoted
from ..util.jsonio import parse_json, read_text
from .minimax import PlayState, start_state


class PositionError(InputError):
    """A position that cannot have happened; the message names the problem."""


@dataclass(frozen=True)
class Trick:
    leader: int
    cards: tuple[int, ...]  # from the leader on
    winner: int | None  # None while incomplete


@dataclass(frozen=True)
class SeatView:
    """What ``seat`` (the player to move) can see: never another player's hand."""

    seat: int
    hand: int  # own cards still held
    legal: int
    players: int
    pitcher: int
    bid: int | None
    trump: int  # -1 before the opening lead
    tricks: tuple[Trick, ...]  # every trick so far, the last one possibly incomplete
    played_by: tuple[int, ...]  # per seat, the cards it has played (current trick too)
    won: tuple[int, ...]  # per seat, the cards it has captured
    held: tuple[int, ...]  # per seat, how many cards it still holds
    rules: Rules


@dataclass(frozen=True)
class Position:
    """A hand of Pitch cut at one card, every hand open.

    ``dealt`` and ``hands`` are per-seat bit masks (as dealt / still held), ``won`` the
    cards each seat has captured in completed tricks; ``trick`` is the trick in
    progress (cards from ``leader`` on, possibly empty).  ``to_play`` is None once all
    six tricks are played.
    """

    players: int
    pitcher: int
    bid: int | None
    rules: Rules
    dealt: tuple[int, ...]
    hands: tuple[int, ...]
    won: tuple[int, ...]
    tricks: tuple[Trick, ...]
    trump: int  # -1: the opening lead has not been made
    leader: int
    trick: tuple[int, ...]
    to_play: int | None

    @property
    def finished(self) -> bool:
        return self.to_play is None

    @property
    def played_by(self) -> tuple[int, ...]:
        return tuple(d & ~h for d, h in zip(self.dealt, self.hands, strict=True))

    @property
    def held(self) -> tuple[int, ...]:
        """The hands when the first card was led (as a family position's): the deal."""
        return self.dealt

    @property
    def trick_seats(self) -> tuple[int, ...]:
        """Who played each card of the trick in progress (in turn from the leader)."""
        return tuple((self.leader + i) % self.players for i in range(len(self.trick)))

    @property
    def called(self) -> int:
        """The card the pitcher called (12.1): none in the base game."""
        return -1

    @property
    def state(self) -> PlayState:
        """This position as the auction-pitch preset's state (a family position's
        ``state``): how the reference minimax (search/minimax.py) solves it."""
        return start_state(
            self.rules, self.pitcher, self.dealt, self.hands, self.won, self.trump,
            self.leader, self.trick,
        )  # fmt: skip

    def side(self, seat: int) -> int:
        return self.rules.team(seat)

    def pitcher_side(self, seat: int) -> bool:
        return self.side(seat) == self.side(self.pitcher)

    def legal(self) -> int:
        """The cards the player to move may play (0 when the hand is over)."""
        if self.to_play is None:
            return 0
        return legal_cards(self.hands[self.to_play], self.trick, self.trump, self.rules)

    def play(self, c: int) -> Position:
        """The position after the player to move plays card ``c`` (it must be legal)."""
        if not self.legal() >> c & 1:
            raise PositionError(f"{format_card(c, symbols=False)} is not a legal play here")
        seat = self.to_play
        n = self.players
        hands = list(self.hands)
        hands[seat] &= ~(1 << c)
        trump = _suit_of(c) if self.trump < 0 else self.trump
        trick = self.trick + (c,)
        won = list(self.won)
        tricks = list(self.tricks)
        if len(trick) < n:
            open_trick = Trick(self.leader, trick, None)
            if self.trick:
                tricks[-1] = open_trick
            else:
                tricks.append(open_trick)
            return replace(
                self,
                hands=tuple(hands),
                trump=trump,
                trick=trick,
                tricks=tuple(tricks),
                to_play=(seat + 1) % n,
            )
        winner = (self.leader + trick_winner(trick, trump, self.rules)) % n
        won[winner] |= mask_of(trick)
        done = Trick(self.leader, trick, winner)
        if self.trick:
            tricks[-1] = done
        else:
            tricks.append(done)
        over = len(tricks) == TRICKS
        return replace(
            self,
            hands=tuple(hands),
            won=tuple(won),
            trump=trump,
            trick=(),
            tricks=tuple(tricks),
            leader=winner,
            to_play=None if over else winner,
        )

    def points(self) -> int:
        """Points (0-4) the pitcher's side holds at the end of a finished hand."""
        if not self.finished:
            raise ValueError("the hand is not over")
        return score_hand(self.dealt, self.won, self.trump, self.rules).points[self.pitcher]

    def view(self) -> SeatView:
        """What the player to move sees (for ``hint``): no other seat's hand."""
        if self.to_play is None:
            raise PositionError("the hand is over: nobody is to play")
        return SeatView(
            seat=self.to_play,
            hand=self.hands[self.to_play],
            legal=self.legal(),
            players=self.players,
            pitcher=self.pitcher,
            bid=self.bid,
            trump=self.trump,
            tricks=self.tricks,
            played_by=self.played_by,
            won=self.won,
            held=tuple(h.bit_count() for h in self.hands),
            rules=self.rules,
        )

    def to_json(self) -> dict:
        def fmt(mask: int) -> list[str]:
            return [format_card(c, symbols=False) for c in range(52) if mask >> c & 1]

        return {
            "players": self.players,
            "pitcher": self.pitcher,
            "bid": self.bid,
            "hands": [fmt(d) for d in self.dealt],
            "tricks": [
                {"leader": t.leader, "cards": [format_card(c, symbols=False) for c in t.cards]}
                for t in self.tricks
            ],
            "partnership": self.rules.partnership,
            # the base game's rule string in its own words (rules_text)
            "rules": rules_text(self.rules),
        }


def start_position(dealt: Sequence[int], pitcher: int, rules: Rules, bid: int | None = None):
    """The position before the opening lead of a deal (masks per seat)."""
    n = len(dealt)
    return Position(
        players=n,
        pitcher=pitcher,
        bid=bid,
        rules=rules,
        dealt=tuple(dealt),
        hands=tuple(dealt),
        won=(0,) * n,
        tricks=(),
        trump=-1,
        leader=pitcher,
        trick=(),
        to_play=pitcher,
    )


def _int(doc: dict, key: str, what: str) -> int:
    v = doc[key]
    if isinstance(v, bool) or not isinstance(v, int):
        raise PositionError(f"{what} must be a whole number, not {quoted(v)}")
    return v


def _cards(value, what: str, jokers: int = 0) -> list[int]:
    if isinstance(value, str):
        text = value
    elif isinstance(value, list) and all(isinstance(c, str) for c in value):
        text = " ".join(value)
    else:
        raise PositionError(f'{what} must be a list of cards like ["AH", "10S"]')
    try:
        return parse_cards(text, jokers)
    except CardError as e:
        raise PositionError(f"{what}: {e}") from None


def _rules(doc: dict, stated: Rules | None) -> Rules:
    """The position's rules: its ``rules`` field (a rule string or an object, checked by
    the same strict parser as ``--rules``, never a file) with its ``partnership``, or
    the rules the caller states (``--rules``).  Missing both is refused, never guessed;
    the two disagreeing is refused naming both."""
    partnership = doc.get("partnership")
    if partnership is not None and not isinstance(partnership, bool):
        raise PositionError(f"partnership must be true or false, not {quoted(partnership)}")
    if "rules" not in doc:
        if stated is None:
            raise PositionError(
                'the position does not say its rules: add a "rules" field (pitchsim play '
                "--json writes one; {} is the base rules) or give them with --rules"
            )
        if partnership is not None and partnership != stated.partnership:
            raise PositionError(
                f"the position's partnership={str(partnership).lower()} and --rules "
                f"partnership={str(stated.partnership).lower()} disagree: give one"
            )
        return stated
    spec = doc["rules"]
    if not isinstance(spec, (str, dict)):
        raise PositionError(
            f'rules must be a string like "low=dealt,follow=suit" or an object, not {quoted(spec)}'
        )
    try:
        given, rules = stated_rules(spec)  # a string or an object, never a file
    except RulesError as e:
        raise PositionError(f"rules: {e}") from None
    if partnership is not None:
        if given.get("partnership", partnership) != partnership:
            raise PositionError(
                f"the position's partnership={str(partnership).lower()} and its rules "
                f"(partnership={str(rules.partnership).lower()}) disagree: give one"
            )
        rules = replace(rules, partnership=partnership)
    if stated is not None and stated != rules:
        raise PositionError(f"the position's rules say {_differ(rules, stated)}: give one")
    return rules if stated is None else stated  # the same rules: the caller's object


def _differ(ours: Rules, stated: Rules) -> str:
    """``low=dealt, --rules low=captured``: the options on which two rule sets differ."""
    a, b = ours.describe(), stated.describe()
    if a.keys() != b.keys():  # the base game's words and a preset's: name the presets
        return f"{label(ours)}, --rules {label(stated)}"
    keys = [k for k in a if a[k] != b[k]]
    show = lambda d: ",".join(f"{k}={str(d[k]).lower()}" for k in keys)  # noqa: E731
    return f"{show(a)}, --rules {show(b)}"


def parse_position(doc: object, rules: Rules | None = None) -> Position | PresetPosition:
    """A checked :class:`Position` from a decoded JSON object; ``rules`` states the
    rules of a position that does not carry its own (it must agree with one that does).
    A position under a preset other than the base game is a :class:`PresetPosition`."""
    if not isinstance(doc, dict):
        raise PositionError("a position is a JSON object with players, pitcher, hands and tricks")
    if "hands" not in doc and "dealt" in doc:
        # a preset's round as `pitchsim play --json` writes it: the hands in play are
        # those held after the discard and draw, else those dealt
        doc = doc | {"hands": doc["held"] if doc.get("held") is not None else doc["dealt"]}
    for key in ("players", "pitcher", "hands", "tricks"):
        if key not in doc:
            raise PositionError(f"the position has no {key!r}")
    n = _int(doc, "players", "players")
    rules = _rules(doc, rules)
    try:
        rules.check_players(n)
    except RulesError as e:
        raise PositionError(str(e)) from None
    pitcher = _pitcher(doc, n)
    if not rules.base_game:  # a preset beyond the base game, by its own rules
        return _preset_position(doc, rules, n, pitcher)
    bid = doc.get("bid")
    if bid is not None:
        bid = _int(doc, "bid", "bid")
        if not 1 <= bid <= 4:
            raise PositionError(f"bid must be 1-4, not {bid}")

    hands = doc["hands"]
    if not isinstance(hands, list) or len(hands) != n:
        got = len(hands) if isinstance(hands, list) else "no list of"
        raise PositionError(f"hands must list one hand per seat: {n} seats, {got} hands")
    dealt: list[int] = []
    holder: dict[int, int] = {}
    for seat, h in enumerate(hands):
        cs = _cards(h, f"seat {seat}'s hand")
        if len(cs) != HAND_SIZE:
            raise PositionError(f"seat {seat} was dealt {len(cs)} cards, not {HAND_SIZE}")
        for c in cs:
            if c in holder:
                raise PositionError(
                    f"{format_card(c, symbols=False)} is in two hands: "
                    f"seat {holder[c]} and seat {seat}"
                )
            holder[c] = seat
        dealt.append(mask_of(cs))

    tricks = doc["tricks"]
    if not isinstance(tricks, list):
        raise PositionError('tricks must be a list of {"leader", "cards"} objects')
    if len(tricks) > TRICKS:
        raise PositionError(f"{len(tricks)} tricks: a hand has {TRICKS}")
    pos = start_position(dealt, pitcher, rules, bid)
    for t, trick in enumerate(tricks, 1):
        if not isinstance(trick, dict) or "leader" not in trick or "cards" not in trick:
            raise PositionError(f"trick {t} must be an object with leader and cards")
        leader = _int(trick, "leader", f"trick {t}'s leader")
        if leader != pos.leader:
            who = "the pitcher" if t == 1 else f"the winner of trick {t - 1}"
            raise PositionError(
                f"trick {t} is led by seat {leader}, but {who} is seat {pos.leader}"
            )
        cs = _cards(trick["cards"], f"trick {t}")
        if len(cs) > n:
            raise PositionError(f"trick {t} has {len(cs)} cards: a trick has {n} at {n} players")
        if len(cs) < n and t < len(tricks):
            raise PositionError(f"trick {t} has {len(cs)} of {n} cards but is not the last trick")
        if not cs and t > 1:
            raise PositionError(f"trick {t} has no cards: leave it out")
        for c in cs:
            seat = pos.to_play
            name = format_card(c, symbols=False)
            if not pos.hands[seat] >> c & 1:
                if pos.dealt[seat] >> c & 1:
                    raise PositionError(f"seat {seat} plays {name} in trick {t} a second time")
                raise PositionError(
                    f"seat {seat} plays {name} in trick {t} but was not dealt it"
                    + (f" (seat {holder[c]} was)" if c in holder else "")
                )
            if not pos.legal() >> c & 1:
                led = SUIT_NAMES[_suit_of(pos.trick[0])]
                must = "follow suit" if rules.follow == "suit" else "follow suit or trump"
                raise PositionError(
                    f"seat {seat}'s {name} in trick {t} is illegal: it holds "
                    f"{led}, so it must {must}"
                )
            pos = pos.play(c)
    return pos


def _pitcher(doc: dict, n: int) -> int:
    if doc["pitcher"] is None:
        raise PositionError("pitcher is null: everybody passed, so no hand was played")
    pitcher = _int(doc, "pitcher", "pitcher")
    if not 0 <= pitcher < n:
        raise PositionError(f"pitcher {pitcher} is not a seat of a {n}-player table (0-{n - 1})")
    return pitcher


# ---- positions under a rule family (VARIANTS.md) ---------------------------------------------


@dataclass(frozen=True)
class PresetPosition:
    """A family hand cut at one card, every hand open.  ``held``: each seat's hand when
    the first card was led (after any discard and draw: the cards in play, 0.6);
    ``state`` steps the hand by the family reference engine (search/minimax)."""

    players: int
    pitcher: int
    bid: int | None
    rules: Rules
    held: tuple[int, ...]
    tricks: tuple[Trick, ...]
    state: PlayState

    @property
    def hands(self) -> tuple[int, ...]:
        return self.state.hands

    @property
    def won(self) -> tuple[int, ...]:
        return self.state.won

    @property
    def trick(self) -> tuple[int, ...]:
        return self.state.trick

    @property
    def trick_seats(self) -> tuple[int, ...]:
        return self.state.seats

    @property
    def trump(self) -> int:
        return self.state.trump

    @property
    def called(self) -> int:
        """The card the pitcher called (12.1), -1 without one."""
        return self.state.called

    @property
    def leader(self) -> int | None:
        return self.state.leader

    @property
    def to_play(self) -> int | None:
        return self.state.to_play()

    @property
    def finished(self) -> bool:
        return self.to_play is None

    def pitcher_side(self, seat: int) -> bool:
        return self.state.pitcher_side(seat)

    def legal(self) -> int:
        return self.state.legal()

    def points(self) -> int:
        """The pitcher's side's points of a finished hand (the reference's score_hand)."""
        if not self.finished:
            raise ValueError("the hand is not over")
        return self.state.points()


def _preset_position(doc: dict, rules: Rules, n: int, pitcher: int) -> PresetPosition:
    """A position under a family: hands as held when the first card is led (the deal,
    or 6 after the discard and draw, 4.8), jokers when the pack has them (6.1), trump
    named in the position under trump=named (3.5) or fixed by the first card (6.3.5),
    the tricks replayed by the family's own rules (0.4-0.6, 3.7, 4.9)."""
    bid = doc.get("bid")
    if bid is not None:
        bid = _int(doc, "bid", "bid")
        if not 1 <= bid <= rules.max_bid:
            raise PositionError(f"bid must be 1-{rules.max_bid} under {label(rules)}, not {bid}")
    trump = -1
    if doc.get("trump") is not None:
        if not isinstance(doc["trump"], str):
            raise PositionError(f'trump must be a suit like "H", not {quoted(doc["trump"])}')
        try:
            trump = parse_suit(doc["trump"])
        except CardError as e:
            raise PositionError(f"trump: {e}") from None
    if rules.trump == "named" and trump < 0:
        raise PositionError(f'{label(rules)} names trump after the auction: give it ("trump": "H")')
    hands = doc["hands"]
    if not isinstance(hands, list) or len(hands) != n:
        got = len(hands) if isinstance(hands, list) else "no list of"
        raise PositionError(f"hands must list one hand per seat: {n} seats, {got} hands")
    pack = mask_of(ref_families.pack(rules, n))
    drawn = rules.discard != "none"  # 4.8, 12.8: 6 cards each in play
    size = 6 if drawn else rules.cards_each(n)
    held: list[int] = []
    holder: dict[int, int] = {}
    for seat, h in enumerate(hands):
        cs = _cards(h, f"seat {seat}'s hand", rules.jokers)
        if drawn and rules.follow == "only" and len(cs) > size:
            raise PositionError(f"seat {seat} holds {len(cs)} cards after the draw, not 6 or fewer")
        if len(cs) != size and not (drawn and rules.follow == "only"):
            when = "after the discard and draw" if drawn else "dealt"
            raise PositionError(f"seat {seat} holds {len(cs)} cards {when}, not {size}")
        for c in cs:
            name = format_card(c, symbols=False)
            if not pack >> c & 1:
                raise PositionError(f"{name} is not in the pack of {label(rules)} at {n} players")
            if c in holder:
                raise PositionError(f"{name} is in two hands: seat {holder[c]} and seat {seat}")
            holder[c] = seat
        held.append(mask_of(cs))
    tricks = doc["tricks"]
    if not isinstance(tricks, list):
        raise PositionError('tricks must be a list of {"leader", "cards"} objects')
    if rules.trump == "first-lead":
        first = tricks[0] if tricks and isinstance(tricks[0], dict) else {}
        cs = _cards(first["cards"], "trick 1", rules.jokers) if first.get("cards") else []
        if cs and trump >= 0 and trump != _suit_of(cs[0]):
            raise PositionError(
                f"trump {SUIT_NAMES[trump]} disagrees with the first card led, "
                f"{format_card(cs[0], symbols=False)} (6.3.5: its suit is trump)"
            )
        if not cs and trump >= 0:
            raise PositionError(
                "under trump=first-lead the first card led fixes trump (6.3.5): "
                "leave trump out before the opening lead"
            )
        trump = -1  # the replay fixes it from the first card
    called = _called(doc, rules, trump)
    st = start_state(
        rules, pitcher, held, held, [0] * n, trump, _first_leader(held, pitcher, trump, rules),
        called=called,
    )  # fmt: skip
    done: list[Trick] = []
    for t, trick in enumerate(tricks, 1):
        if st.leader is None:
            raise PositionError(f"trick {t}: the hand is already over")
        if not isinstance(trick, dict) or "leader" not in trick or "cards" not in trick:
            raise PositionError(f"trick {t} must be an object with leader and cards")
        leader = _int(trick, "leader", f"trick {t}'s leader")
        if leader != st.leader:
            raise PositionError(f"trick {t} is led by seat {leader}, but seat {st.leader} leads it")
        cs = _cards(trick["cards"], f"trick {t}", rules.jokers)
        if not cs:
            raise PositionError(f"trick {t} has no cards: leave it out")
        for i, c in enumerate(cs):
            name = format_card(c, symbols=False)
            if i > 0 and not st.trick:
                raise PositionError(f"trick {t} has {len(cs)} cards: it was over after {i}")
            seat = st.to_play()
            if not st.hands[seat] >> c & 1:
                if held[seat] >> c & 1:
                    raise PositionError(f"seat {seat} plays {name} in trick {t} a second time")
                raise PositionError(f"seat {seat} plays {name} in trick {t} but does not hold it")
            if not st.legal() >> c & 1:
                raise PositionError(
                    f"seat {seat}'s {name} in trick {t} is not a legal play under {label(rules)}"
                )
            st = st.play(c)
        if st.trick:
            if t < len(tricks):
                raise PositionError(f"trick {t} is not over but is not the last trick")
            done.append(Trick(leader, tuple(cs), None))
        else:
            done.append(Trick(leader, tuple(cs), _winner(st, cs)))
    if st.leader is not None and not st.trick and tricks and st.to_play() is None:
        st = replace(st, leader=None)
    return PresetPosition(n, pitcher, bid, rules, tuple(held), tuple(done), st)


def _called(doc: dict, rules: Rules, trump: int) -> int:
    """Under partner=called|announced the card the pitcher called (12.1): any card, also
    one the pack leaves out; under called a trump (12.1.2).  Its holder in the hands is
    the partner (12.1.5), who under called owes it to trick 1 (12.1.3).  -1 without."""
    if rules.partner == "none":
        if doc.get("called") is not None:
            raise PositionError("called: only under partner=called|announced (12.1)")
        return -1
    if not isinstance(doc.get("called"), str):
        raise PositionError(
            f'partner={rules.partner} (12.1): give the card the pitcher called ("called": "AH")'
        )
    cs = _cards(doc["called"], "called", rules.jokers)
    if len(cs) != 1:
        raise PositionError(f"called must be one card, not {quoted(doc['called'])}")
    if rules.partner == "called" and not ref_families.trumps_in(1 << cs[0], trump, rules):
        name = format_card(cs[0], symbols=False)
        raise PositionError(f"called: {name} is not a trump (12.1.2: the pitcher calls a trump)")
    return cs[0]


def _winner(st: PlayState, cs: list[int]) -> int:
    """The seat that took the trick just completed (its cards are in its won mask)."""
    c = cs[-1]
    return next(s for s in range(st.n) if st.won[s] >> c & 1)


def _first_leader(held, pitcher: int, trump: int, rules: Rules) -> int:
    """The pitcher, or under follow=only the first seat from the pitcher holding a trump
    (4.9; any seat when nobody does: the hand is over at once)."""
    if rules.follow != "only":
        return pitcher
    n = len(held)
    for i in range(n):
        s = (pitcher + i) % n
        if ref_families.trumps_in(held[s], trump, rules):
            return s
    return pitcher


def read_positions(
    text: str, source: str = "input", rules: Rules | None = None
) -> list[Position] | Position:
    """One position (a JSON object) or a list of them (a JSON list) from ``text``."""
    try:
        doc = parse_json(text, source)
    except PositionError:
        raise
    except InputError as e:  # every problem with a position is a PositionError
        raise PositionError(str(e)) from None
    if isinstance(doc, list):
        if not doc:
            raise PositionError(f"{source} is an empty list: no positions")
        out = []
        for i, d in enumerate(doc):
            try:
                out.append(parse_position(d, rules))
            except PositionError as e:
                raise PositionError(f"position {i}: {e}") from None
        return out
    return parse_position(doc, rules)


def read_position(
    text: str, source: str = "input", rules: Rules | None = None
) -> Position | PresetPosition:
    pos = read_positions(text, source, rules)
    if isinstance(pos, list):
        raise PositionError(f"{source} holds a list of positions; give one")
    return pos


def read_source(source: str) -> tuple[str, str]:
    """(text, name) of a file path, or of stdin for ``-``: streamed with a size cap,
    FIFOs and devices refused (``util.jsonio``)."""
    text = read_text(source, "the position")
    return text, "stdin" if source == "-" else quoted(source, tail=True)
