"""The table: a whole game played decision by decision, each seat asked from its view.

A seat is a built-in strategy (:class:`~pitchsim.table.seats.KernelSeat`, asked at the
game kernel's own random-stream positions: a game of built-in seats here is the game
``pitchsim tournament`` plays for that board) or any object with ``call(view)`` and
``play(view)`` returning an action (``"pass"``, ``"2"``, ``"KS"``): a Python bot, or an
outside program behind ``cmd:COMMAND`` (``table.outside``).  Every answer is checked:
one that is not a legal action **forfeits the game** (the reason is in the record); the
table never plays in a seat's place.

A seat with a ``hand_ended(seat, hand)`` or ``game_ended(seat, result)`` method is
told when a hand or the game ends (:func:`seen_hand`, :func:`game_result`): an outside
program that asked for it in its hello gets a ``hand-end`` or ``game-end`` message
(``docs/protocol.md``).

The game comes back as a *record* (``docs/record.md``): the rules, every deal as dealt,
every action in order and the results; ``table.record`` replays one and cuts views from
it.

Under every preset, the base game's included, a hand is a :class:`TableDeal`: the
reference engine's preset rules (``game/reference/``), each seat asked from its
:class:`~pitchsim.game.view.View` (``call`` for the calls and the naming of trump,
``play`` for cards), on the game kernel's deal and draw for the board, so that built-in
seats play the game ``tournament --rules PRESET`` plays for it.  The same walk replays a
record (``table.record``).  A record of the base game written before the one engine
(no ``family``) is still read: ``_Hand``, ``_view`` and ``hand_doc`` below are its
reader's.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from ..game import reference as F
from ..game.cards import SUITS, cards_of, mask_of, parse_cards, suit_of
from ..game.reference import (
    MAX_BID,
    PASS,
    pitcher_made,
    score_hand,
    settle_hand,
    trick_winner,
)
from ..game.reference.partner import highest_missing_trump, known_partner, partner_of
from ..game.reference.score import sides_of
from ..game.rules import Rules, rules_text, spec
from ..game.view import (
    CALL_ACTION,
    DRAW_ACTION,
    PUT_DOWN_ACTION,
    TRUMP_ACTION,
    Trick,
    View,
    call_text,
    card_text,
    kitty_doc,
    parse_call,
)
from ..kernels.contract import MAX_DEALS
from ..kernels.rng import deal_key
from .answers import Forfeit, StopGame, checked_action
from .seats import KernelSeat

RECORD_FORMAT = "pitchsim-game"
RECORD_VERSION = 4
# Versions 1 to 3 are read too: their games are written as version 4's, except that
# some put-downs (12.2.2, 12.8, 4.8.7) were no actions: the table made pitchsim's
# (12.8.3, 4.8.7) and the hand's draw carries them (``puts_down``: in versions 1 and 2
# none was an action, in version 3 none under discard=draw or discards=shown, nor the
# robber's come-down after the rob); and in version 1 under partner=called|announced
# the call of the partner's card (12.1) was no action either: the table made pitchsim's
# call, the highest trump the pitcher lacked, and the hand's ``called`` carries it.
CALL_BY_RULE_VERSION = 1
PUT_DOWN_BY_RULE_VERSIONS = (1, 2)
READ_VERSIONS = (1, 2, 3, RECORD_VERSION)
# How a seed turns into deals (kernels/rng.deal_key, the kernels' dealing, _kernel_deal):
# every record names it (``deal_order``, docs/record.md), and a record whose seed this
# pitchsim would deal otherwise is told so, not called damaged.  Raise it with any change
# that deals a seed otherwise.
DEAL_ORDER = 1


def puts_down(r: Rules, version: int = RECORD_VERSION) -> bool:
    """Whether a seat putting down chooses its put-down under ``r``, one card a decision
    (the action ``"down:4D"``): the kitty's pitcher (12.2.2), under discard=choice every
    seat coming down to 6 (12.8.1), under discard=draw every seat before it draws
    (12.8.2; ``"draw"`` stops) and the robber after the rob (4.8.7), face up under
    discards=shown (12.9; the robber's as 4.8.5 says).  In a record of an older
    ``version`` the table made pitchsim's where it was no decision yet: in versions 1
    and 2 anywhere, in version 3 under discard=draw or discards=shown and the rob's."""
    if version in PUT_DOWN_BY_RULE_VERSIONS:
        return False
    if version == 3 and (r.discard == "draw" or r.discards == "shown" or r.rob):
        return False
    return bool(r.kitty) or r.discard in ("choice", "draw") or bool(r.rob)


def seat_name(seat) -> str:
    if isinstance(seat, KernelSeat):
        return seat.name
    return str(getattr(seat, "name", type(seat).__name__))


def as_seat(s):
    """A strategy name -> :class:`KernelSeat`; an outside seat as it is."""
    if isinstance(s, str):
        if s.startswith("cmd:"):
            from .outside import CommandSeat

            return CommandSeat(s[4:])
        return KernelSeat(s)
    if isinstance(s, KernelSeat):
        return s
    if not (callable(getattr(s, "call", None)) and callable(getattr(s, "play", None))):
        raise TypeError(f"a seat is a strategy name or has call(view) and play(view): {s!r}")
    return s


def built_in_strategies(seats: Sequence) -> list:
    """The built-in strategies among ``seats`` (as :func:`check_table` takes them), in
    order, each name read: one that cannot be read is refused in one line naming it,
    and after a ``cmd:`` seat saying how a comma stays inside a command (every comma
    outside quotes ends a seat: ``table.tournament.split_seats``)."""
    from .bidding import Strategy, StrategyError

    strategies = []
    after_command = False
    for s in seats:
        if isinstance(s, KernelSeat):
            s = s.strategy
        command = isinstance(s, str) and s.strip().startswith("cmd:")
        if isinstance(s, str) and not command:
            try:
                s = Strategy.parse(s.strip())
            except StrategyError as e:
                if not after_command:
                    raise
                # -s once read such a piece as part of the command
                raise StrategyError(
                    f"{e}; a comma inside a cmd: command is quoted: cmd:bot.py 'a,b'"
                ) from None
        after_command = command
        if isinstance(s, Strategy):
            strategies.append(s)
    return strategies


def check_table(seats: Sequence, rules: Rules, players: int) -> None:
    """What the table refuses, in one line, before a game starts rather than at its first
    deal or decision: the rules at this many players, a strategy name that cannot be
    read (:func:`built_in_strategies`), and a built-in strategy the preset's kernels do
    not play there (the odds bidder bids everywhere: ``odds_rows``).  ``seats`` are a
    game's seats or a tournament's
    strategies (fewer than ``players``, each seated in turn): strategy names,
    :class:`~pitchsim.table.bidding.Strategy`, :class:`KernelSeat` or outside seats
    (``cmd:COMMAND`` or an object), which only the game itself can check.  A command
    calls it before it prints, starts or writes anything of the game."""
    rules.check_players(players)
    strategies = built_in_strategies(seats)
    from .decide import checked_strategy

    for s in strategies:
        checked_strategy(s, rules)


@dataclass
class _Hand:
    dealer: int
    dealt: list[int]
    actions: list[dict]
    calls: list[int]
    tricks: list[Trick]


def _view(rules: Rules, n: int, seat: int, h: _Hand, scores: list[int]) -> View:
    per = [scores[0], scores[1]] if rules.partnership else scores
    v = View(
        rules,
        n,
        seat,
        h.dealer,
        tuple(cards_of(h.dealt[seat])),
        tuple(h.calls),
        tuple(h.tricks),
        tuple(per),
    )
    return v.check()


def play_table_game(
    seats: Sequence,
    rules: Rules,
    seed: int,
    board: int = 0,
    names: Sequence[str] | None = None,
    on_hand=None,
) -> dict:
    """Board ``board`` of ``seed`` played decision by decision by ``seats`` (see the
    module); the game's record (``docs/record.md``).  ``on_hand(doc)`` is called with
    each finished hand's record; a seat raising :class:`StopGame` ends the game there
    (the record's ``stopped`` says why)."""
    n = len(seats)
    check_table(seats, rules, n)
    seats = [as_seat(s) for s in seats]
    names = list(names) if names is not None else [seat_name(s) for s in seats]
    for s in seats:
        if hasattr(s, "start_game"):
            s.start_game()
    return _play_table_game(seats, rules, n, seed, board, names, on_hand)


# What no seat saw whole, left out of what the seats are told at a hand's end: the cards
# dealt (under a preset some are never played), the stock and the draw.
UNSEEN = ("hands", "stock", "draw", "held")
RESULT = ("winner", "winners", "final_scores", "forfeit", "stopped")


def seen_hand(doc: dict) -> dict:
    """A finished hand's record (docs/record.md) as every seat may know it at its end."""
    return {k: v for k, v in doc.items() if k not in UNSEEN}


def game_result(record: dict) -> dict:
    """How the game ended: its record's winner(s), final scores, forfeit or stop."""
    return {k: record[k] for k in RESULT if k in record}


def game_end_words(result: dict, seat: int | None, partnership: bool) -> str:
    """How the game ended, in words, from ``seat``'s side (it is "you"; None: nobody):
    a stop, a forfeit, sides tied on top sharing the win (3.11: seats, or teams under
    partnership), no winner within the deals a game may last, or the winner.  ``result``
    is :func:`game_result`'s (or the whole record).  The terminal's practice and the
    web table both say it in these words."""
    if result.get("stopped"):
        return "Game saved unfinished"
    forfeit = result.get("forfeit")
    if forfeit is not None:  # a bot's failure (the person's seat stops, never forfeits)
        return f"Seat {forfeit['seat']} forfeits: {forfeit['reason']}"

    def team(s: int) -> int:  # a record names a team by its lower seat, or by any seat
        return s % 2 if partnership else s

    def side(s: int) -> str:
        if seat is not None and team(s) == team(seat):
            return "you"
        return f"seats {team(s)} and {team(s) + 2}" if partnership else f"seat {s}"

    shared = result.get("winners") or []
    if len(shared) > 1:
        return f"Tied on top: {', '.join(side(s) for s in shared)} share the win"
    won = result.get("winner")
    if won is None and shared:
        won = shared[0]
    if won is None:
        return "Nobody won within the deals a game may last"
    who = side(won)
    return "You won the game" if who == "you" else f"{who[0].upper()}{who[1:]} won the game"


def _tell(seats, hook: str, doc: dict) -> None:
    for i, s in enumerate(seats):
        if hasattr(s, hook):
            getattr(s, hook)(i, doc)


def record_stamp() -> dict:
    """The fields every record starts with, whoever writes it: its format, version and
    deal order."""
    return {"format": RECORD_FORMAT, "version": RECORD_VERSION, "deal_order": DEAL_ORDER}


def _record_head(rules: Rules, n: int, seed, board, names, preset: bool = False) -> dict:
    """A record's fields before its hands: a preset's record (the preset path's, the
    base game's too when played by it) states its ``family`` and complete rules."""
    head = {
        **record_stamp(),
        "rules": spec(rules) if preset else rules_text(rules),
        "players": n,
        "seed": seed,
        "board": board,
        "strategies": list(names),
        "target": rules.target,
        "partnership": rules.partnership,
        "winner": None,
        "final_scores": [0] * n,
        "forfeit": None,
        "hands": [],
    }
    if preset:
        head["family"] = rules.family
    return head


CALL_PHASES = ("auction", "trump", "call", "put_down")  # call(view); play(view) in "play"


def _ask(seats, seat: int, view: View, key) -> str:
    s = seats[seat]
    if isinstance(s, KernelSeat):
        return s.decide(view, key).action
    try:
        # the calls, the naming of trump, the partner's card and the put-down are calls
        answer = s.call(view) if view.phase in CALL_PHASES else s.play(view)
    except Forfeit:
        raise
    except Exception as e:  # a Python seat's own failure ends its game, named
        raise Forfeit(seat, f"{type(e).__name__}: {e}") from None
    try:
        return checked_action(view, answer)
    except ValueError as e:
        raise Forfeit(seat, str(e)) from None


def hand_doc(h: _Hand, n: int, rules: Rules, scores: list[int]) -> dict:
    """A finished (or thrown-in) hand as the record writes it: the deal, the actions and
    everything that follows from them (the same fields ``play --json`` shows a hand with)."""
    fmt = [[card_text(c) for c in cards_of(m)] for m in h.dealt]
    bids = [c if c != PASS else None for c in h.calls] + [None] * (n - len(h.calls))
    doc = {"players": n, "dealer": h.dealer, "bids": bids, "hands": fmt, "rules": rules_text(rules)}
    if max(h.calls, default=PASS) == PASS:
        doc.update(
            pitcher=None,
            bid=0,
            pitched=None,
            trump=None,
            tricks=[],
            points=dict.fromkeys(("high", "low", "jack", "game")),
            game_points=[0] * n,
            points_won=[0] * n,
            round_points=[0] * n,
            made=None,
            partnership=rules.partnership,
            scores_after=list(scores),
            actions=h.actions,
        )
        return _ordered(doc)
    bid = max(h.calls)
    pitcher = (h.dealer + 1 + max(i for i, c in enumerate(h.calls) if c != PASS)) % n
    trump = h.tricks[0].cards[0] // 13
    won = [0] * n
    tricks = []
    for t in h.tricks:
        w = (t.leader + trick_winner(t.cards, trump, rules)) % n
        for c in t.cards:
            won[w] |= 1 << c
        tricks.append({"leader": t.leader, "cards": [card_text(c) for c in t.cards], "winner": w})
    score = score_hand(h.dealt, won, trump, rules)
    change = settle_hand(score.points, pitcher, bid, rules)
    after = [s + c for s, c in zip(scores, change, strict=True)]
    doc.update(
        pitcher=pitcher,
        bid=bid,
        pitched=card_text(h.tricks[0].cards[0]) if bid == MAX_BID else None,
        trump=SUITS[trump],
        tricks=tricks,
        points={"high": score.high, "low": score.low, "jack": score.jack, "game": score.game},
        game_points=score.game_counts,
        points_won=score.points,
        round_points=change,
        made=pitcher_made(score.points, pitcher, bid),
        partnership=rules.partnership,
        scores_after=after,
        actions=h.actions,
    )
    return _ordered(doc)


KEY_ORDER = (
    "players",
    "dealer",
    "bids",
    "pitcher",
    "bid",
    "pitched",
    "trump",
    "hands",
    "tricks",
    "points",
    "game_points",
    "points_won",
    "round_points",
    "made",
    "partnership",
    "scores_after",
    "actions",
)


def _ordered(doc: dict) -> dict:
    return {k: doc[k] for k in KEY_ORDER if k in doc} | {
        k: v for k, v in doc.items() if k not in KEY_ORDER
    }


class _Drawn:
    """The cards drawn from the face-down discards (4.8 step 4), in the order they were
    drawn: given to the reference engine's ``discard_and_draw`` as its ``rng``, each
    shuffle puts them first, so it draws exactly them (the kernels' draw, or a record's)."""

    def __init__(self, order, rng: random.Random | None = None) -> None:
        self.order = [int(c) for c in order]
        self.rng = rng  # shuffles the rest: discards a seat chose that the kernels did not

    def shuffle(self, junk: list[int]) -> None:
        first = [c for c in self.order if c in junk]
        rest = [c for c in junk if c not in first]
        if self.rng is not None:
            self.rng.shuffle(rest)
        junk[:] = first + rest


def _texts(cards) -> list[str]:
    return [card_text(int(c)) for c in cards]


class TableDeal:
    """One hand under any preset, decision by decision.  :meth:`run` is a generator:
    it yields ``(seat, view)`` at every decision and is sent the action taken (checked
    by the caller against ``view.legal()``); it returns the hand's record (``doc``).
    ``draw(held, pitcher, trump)`` makes the discard and draw (4.8): the hands in play
    and the :class:`~pitchsim.game.reference.draw.DrawRecord`; ``called`` (12.1.3) the
    card it passes over, ``chosen`` (seat -> cards) the put-downs seats chose (12.2.2,
    12.8.1: asked card by card, :meth:`_put_downs`).  Under partner=called|announced the
    pitcher is asked for his call (the action ``"call:AS"``; 12.1.2: once trump is named, before any discard or
    kitty; 12.1.4: after the draw and any kitty), and its holder is his partner (12.1.5,
    12.1.6)."""

    def __init__(
        self, rules: Rules, n: int, dealer: int, dealt, stock, scores, draw, counted=0,
        call_by_rule=False, version=RECORD_VERSION,
    ):  # fmt: skip
        self.r = rules
        self.call_by_rule = call_by_rule  # a record of version 1: the call was no action
        # A record of an older version: some put-downs were pitchsim's fixed rule
        # (12.8.3), no actions (``puts_down``)
        self.version = version
        self.putting_down: int | None = None  # under discard=draw: yet to draw (12.8.2)
        self.counted = counted  # hands counted toward hands=N before this one (12.4)
        self.n = n
        self.dealer = dealer
        self.dealt = [int(m) for m in dealt]
        self.stock = [int(c) for c in stock]
        self.scores = list(scores)
        self._draw = draw
        self.actions: list[dict] = []
        self.calls: list[int] = []
        self.pitcher: int | None = None
        self.bid = 0
        self.shoot = False
        self.trump = -1
        self.named = False
        self.draw: F.DrawRecord | None = None
        self.held = list(self.dealt)
        self.tricks: list[tuple[int, list[int], list[int], int]] = []
        self.cur: tuple[int, list[int], list[int]] | None = None  # leader, seats, cards
        self.called = -1  # the card the pitcher called (12.1), -1: none (yet)

    @property
    def partner(self) -> int | None:
        """The holder of the call when play starts, None: none (12.1.5)."""
        return (
            partner_of(self.held, self.pitcher, self.called) if self.pitcher is not None else None
        )

    def _known_partner(self, seat: int) -> int | None:
        """The partner as ``seat`` knows him (12.1.10; the reference's)."""
        cards = [c for *_, cs, _ in self.tricks for c in cs] + (self.cur[2] if self.cur else [])
        holds = bool(self.held[self.pitcher] >> self.called & 1)
        played = self.called in cards
        return known_partner(self.r, seat, self.pitcher, self.called, self.partner, holds, played)

    # -- the views

    def _out(self, seat: int) -> list[int]:
        """follow=only (4.9): the seats shown out (passed over) when ``seat`` acts."""
        n, out = self.n, set()
        prev = self.pitcher
        done = [(lead, seats) for lead, seats, _, _ in self.tricks]
        winners = [w for *_, w in self.tricks]
        cur_leader, cur_seats = (self.cur[0], self.cur[1]) if self.cur else (seat, [])
        for i, (lead, seats) in enumerate([*done, (cur_leader, [*cur_seats, seat])]):
            s = prev
            while s != lead:
                out.add(s)
                s = (s + 1) % n
            for j in range(1, len(seats)):
                k = (seats[j - 1] + 1) % n
                while k != seats[j]:
                    out.add(k)
                    k = (k + 1) % n
            if i < len(done):
                out |= set(range(n)) - set(seats)
                prev = winners[i]
        return sorted(out)

    def view_doc(self, seat: int) -> dict:
        r = self.r
        doc = {
            "rules": spec(r),
            "players": self.n,
            "seat": seat,
            "dealer": self.dealer,
            "hand": _texts(cards_of(self.dealt[seat])),
            "scores": [self.scores[0], self.scores[1]] if r.partnership else list(self.scores),
            "calls": [call_text(c, r) for c in self.calls],
        }
        if r.hands_limit:  # 12.4: how many hands the game has had, and has left
            doc["hands_played"] = self.counted
            doc["hands_left"] = r.hands_limit - self.counted
        if self.named:
            doc["trump"] = SUITS[self.trump]
        if r.kitty and self.draw is not None:  # 12.2.2: taken once trump is named
            rec = self.draw
            doc["kitty"] = kitty_doc(
                len(rec.robbed),
                len(rec.put_down),
                rec.robbed,
                rec.put_down,
                seat == self.pitcher,
                rec.put_down_shown if r.discards == "shown" else None,  # 12.9.1
            )
        if self.draw is not None and r.discard != "none":  # 4.8, 12.8 (after any kitty)
            rec = self.draw
            mine = {"drawn": _texts(rec.drawn[seat])}
            if r.discard != "non-trump":  # its own put-down, its choice (12.8.1, 12.8.2)
                mine["discarded"] = _texts(cards_of(rec.discarded[seat]))
            if r.rob and seat == r.robber(self.pitcher, self.dealer):
                mine["robbed"] = _texts(rec.robbed)
                mine["put_down"] = _texts(rec.put_down)  # his choice (4.8.7)
            doc["draw"] = {
                "seats": [
                    {
                        "discarded": rec.discarded[s].bit_count(),
                        "burnt": _texts(cards_of(rec.burnt[s])),
                    }
                    | (  # 12.9: every discard face up (12.8 too)
                        {"shown": _texts(cards_of(rec.discarded[s]))}
                        if r.discards == "shown"
                        else {}
                    )
                    for s in range(self.n)
                ],
                "mine": mine,
            }
            if r.rob:  # the robber's put-down so far (4.8.7), face up as 12.7, 12.9 say
                doc["draw"]["put_down"] = len(rec.put_down)
                if rec.put_down_shown:
                    doc["draw"]["put_down_shown"] = _texts(rec.put_down_shown)
            if self.putting_down is not None:  # 12.8.2: under way, yet to draw
                doc["draw"]["putting_down"] = self.putting_down
        tricks = [
            {"leader": lead, "seats": list(seats), "cards": _texts(cards)}
            for lead, seats, cards, _ in self.tricks
        ]
        if self.cur is not None and self.cur[2]:
            tricks.append(
                {"leader": self.cur[0], "seats": list(self.cur[1]), "cards": _texts(self.cur[2])}
            )
        if tricks:
            doc["tricks"] = tricks
        if r.follow == "only" and (self.cur is not None or self.tricks):  # in play (4.9)
            doc["out"] = self._out(seat)
        if self.called >= 0:  # 12.1: heard by all once the play starts
            doc["called"] = card_text(self.called)
            doc["partner"] = self._known_partner(seat)
        return doc

    def view(self, seat: int) -> View:
        view = View.from_json(self.view_doc(seat), "the table", self.r)
        if view.to_move != seat:  # the table and the view's replay disagree: a bug
            raise RuntimeError(
                f"the table asks seat {seat}, the view has seat {view.to_move} to act"
            )
        return view

    # -- the hand

    def run(self):
        r, n = self.r, self.n
        for i in range(n):  # 0.2: one round from the dealer's left
            seat = (self.dealer + 1 + i) % n
            if not F.legal_calls(
                self.calls, seat == self.dealer, r, may_shoot=self.scores[seat] >= 0
            ):
                break  # a maximum bid or a shoot ended it
            action = yield seat, self.view(seat)
            call = parse_call(action, "the call", r)
            self.calls.append(call)
            self.actions.append({"seat": seat, "action": action})
            if call != F.PASS:
                self.pitcher = seat
                self.shoot = call == F.shoot_call(r)
                self.bid = r.max_bid if self.shoot else call
        if self.pitcher is None and r.all_pass == "dealer-free":
            self.pitcher, self.bid = self.dealer, 0  # 12.12: the dealer pitches at 0
        if self.pitcher is None:
            return self.doc()
        if r.trump == "named":
            action = yield self.pitcher, self.view(self.pitcher)
            self.trump = SUITS.index(action[len(TRUMP_ACTION) :])
            self.named = True
            self.actions.append({"seat": self.pitcher, "action": action})
            if r.partner == "called":  # 12.1.2: before any discard or kitty
                self.called = yield from self._call(self.dealt)
            chosen = yield from self._put_downs()
            if r.discard != "none":  # 4.8, 12.8: after any kitty (12.2.2)
                more = {"chosen": chosen} if chosen else {}
                self.held, self.draw = self._draw(
                    self.dealt, self.stock, self.pitcher, self.trump, self.called, **more
                )
                if r.rob:  # 4.8.5: the robber comes down to 6 after the rob
                    yield from self._rob_put_down()
            elif r.kitty:  # 12.2.2: the pitcher takes the kitty and comes down to 6
                self.held, self.draw = F.take_kitty(
                    self.dealt, self.stock, self.pitcher, self.trump, r, self.called, chosen
                )
            if r.partner == "announced":  # 12.1.4: after the draw and the kitty
                self.called = yield from self._call(self.held)
        yield from self._play()
        return self.doc()

    def _call(self, hands: list[int]):
        """The pitcher's call of his partner's card (12.1.2, 12.1.4), asked as any
        decision; in a record written before it was one, pitchsim's (``call_by_rule``)."""
        if self.call_by_rule:
            return highest_missing_trump(hands[self.pitcher], self.trump, self.r)
        action = yield self.pitcher, self.view(self.pitcher)
        self.actions.append({"seat": self.pitcher, "action": action})
        return parse_cards(action[len(CALL_ACTION) :], self.r.jokers)[0]

    def _put_downs(self):
        """The seats putting down in turn, one card a decision (the action ``"down:4D"``):
        the kitty's pitcher (12.2.2: at once under discard=none) and under discard=choice
        every seat from the dealer's left, the dealer last, coming down to 6 (12.8.1);
        under discard=draw every seat in that turn as far as it likes, stopping with
        ``"draw"`` (asked while it may put down a card; 12.8.2), and then drawing, so
        the next seat sees the draw.  Face up under discards=shown (12.9, 12.9.1).
        Returns seat -> the cards put down.  Not asked (pitchsim's fixed rule, 12.8.3)
        where :func:`puts_down` says no for the record's version."""
        r, n, chosen = self.r, self.n, {}
        if r.rob or not puts_down(r, self.version):  # (the rob's: after the draw)
            return chosen
        kitty = F.kitty_of(self.stock, r)
        hands = list(self.dealt)
        hands[self.pitcher] |= mask_of(kitty)
        rec = F.DrawRecord([0] * n, [0] * n, [[] for _ in range(n)], robbed=list(kitty))
        self.draw = rec  # the views see the put-down so far
        order = [self.pitcher]
        if r.discard != "none":
            order = [(self.dealer + 1 + i) % n for i in range(n)]
        for seat in order:
            kitty_seat = r.kitty and seat == self.pitcher
            drawing = r.discard == "draw" and not kitty_seat  # 12.8.2
            self.putting_down = seat if drawing else None
            while hands[seat].bit_count() > F.HAND_TARGET or (
                drawing and F.may_put_down(hands[seat], self.trump, r, self.called, drawing)
            ):
                action = yield seat, self.view(seat)
                self.actions.append({"seat": seat, "action": action})
                if action == DRAW_ACTION:
                    break
                c = parse_cards(action[len(PUT_DOWN_ACTION) :], r.jokers)[0]
                hands[seat] &= ~(1 << c)
                chosen.setdefault(seat, []).append(c)
                if kitty_seat:
                    rec.put_down = chosen[seat]
                    rec.put_down_shown = F.shown_put_down(rec.put_down, self.trump, r)
                else:
                    rec.discarded[seat] |= 1 << c
            self.putting_down = None
            if drawing:  # 12.8.2: he draws back to 6 now, seen by the seats after him
                chosen.setdefault(seat, [])
                _, done = self._draw(
                    self.dealt, self.stock, self.pitcher, self.trump, self.called, chosen=chosen
                )
                rec.drawn[seat] = done.drawn[seat]
        self.draw = None
        return chosen

    def _rob_put_down(self):
        """The robber coming down to 6 after the rob (4.8.5, 11.8: the pitcher, under
        rob=dealer the dealer), one card a decision (the action ``"down:4D"``, 4.8.7):
        his non-trumps first, any of them, then any trumps but a called one.  The draw is
        made first with pitchsim's put-down (the kernels'); the views see his hand
        before it and the cards put down so far (face up as ``shown_put_down`` says),
        and the draw is made again with his, which nothing before depends on.  Not
        asked in a record of version 1 to 3 (``puts_down``)."""
        r, made = self.r, self.draw
        if not puts_down(r, self.version) or not made.put_down:
            return
        robber = r.robber(self.pitcher, self.dealer)
        hand = self.held[robber] | mask_of(made.put_down)
        self.draw = replace(made, put_down=[], put_down_shown=[])
        down: list[int] = []
        while hand.bit_count() > F.HAND_TARGET:
            action = yield robber, self.view(robber)
            c = parse_cards(action[len(PUT_DOWN_ACTION) :], r.jokers)[0]
            hand &= ~(1 << c)
            down.append(c)
            self.draw.put_down = list(down)
            self.draw.put_down_shown = F.shown_put_down(down, self.trump, r)
            self.actions.append({"seat": robber, "action": action})
        if down == made.put_down:  # pitchsim's own: the draw as made
            self.draw = made
            return
        self.held, self.draw = self._draw(
            self.dealt, self.stock, self.pitcher, self.trump, self.called, chosen={robber: down}
        )

    def _play(self):
        r, n = self.r, self.n
        hands = list(self.held)
        only = r.follow == "only"

        def next_with_trump(seat: int) -> int | None:
            for i in range(n):
                s = (seat + i) % n
                if F.trumps_in(hands[s], self.trump, r):
                    return s
            return None

        leader = next_with_trump(self.pitcher) if only else self.pitcher
        while leader is not None and hands[leader]:
            self.cur = (leader, [], [])
            for i in range(n):
                seat = (leader + i) % n
                if only and not F.trumps_in(hands[seat], self.trump, r):
                    continue  # 4.9: out of the hand
                action = yield seat, self.view(seat)
                c = parse_cards(action, r.jokers)[0]
                if self.trump < 0:
                    self.trump = suit_of(c)  # 6.3.5: the first card's printed suit
                hands[seat] &= ~(1 << c)
                self.cur[1].append(seat)
                self.cur[2].append(c)
                self.actions.append({"seat": seat, "action": action})
            seats, cards = self.cur[1], self.cur[2]
            winner = seats[F.trick_winner(cards, self.trump, r)]
            self.tricks.append((leader, seats, cards, winner))
            self.cur = None
            leader = next_with_trump(winner) if only else winner

    # -- the record

    def doc(self) -> dict:
        """The finished hand as the record writes it (docs/record.md, "Every preset")."""
        r, n = self.r, self.n
        doc = {
            "players": n,
            "dealer": self.dealer,
            "calls": [call_text(c, r) for c in self.calls],
            "pitcher": self.pitcher,
            "bid": self.bid if self.pitcher is not None else None,
            "shoot": self.shoot,
            "trump": SUITS[self.trump] if self.trump >= 0 else None,
            "hands": [_texts(cards_of(m)) for m in self.dealt],
        }
        doc |= self.draw_fields()
        if r.kitty or r.discard != "none":
            doc["held"] = [_texts(cards_of(m)) for m in self.held] if self.draw else None
        if self.pitcher is None:
            change = [0] * n
            if r.all_pass == "dealer-set":  # 3.4
                change = [
                    -F.DEALER_SET_PENALTY if r.team(s) == r.team(self.dealer) else 0
                    for s in range(n)
                ]
            doc |= {
                "tricks": [],
                "points": {},
                "game_points": [0] * n,
                "points_won": [0] * n,
                "made": None,
            }
        else:
            won = [0] * n
            for _, _, cards, w in self.tricks:
                for c in cards:
                    won[w] |= 1 << c
            sides = sides_of(n, self.pitcher, self.partner, r)  # 12.1.6
            score = F.score_hand(self.held, won, self.trump, r, sides)
            change = F.settle_hand(score.points, self.pitcher, self.bid, r, sides)
            doc |= {
                "tricks": [
                    {"leader": lead, "seats": list(seats), "cards": _texts(cards), "winner": w}
                    for lead, seats, cards, w in self.tricks
                ],
                "points": dict(score.awards),
                "game_points": score.game_counts,
                "points_won": score.points,
                "made": score.points[self.pitcher] >= self.bid,
            }
            if r.partner != "none":  # 12.1: the card called and its holder (null: alone)
                doc |= {"called": card_text(self.called), "partner": self.partner}
        doc |= {
            "round_points": change,
            "partnership": r.partnership,
            "scores_after": [s + c for s, c in zip(self.scores, change, strict=True)],
            "actions": self.actions,
            "rules": spec(r),
        }
        if r.hands_limit:  # 12.4: the hands counted so far, this one included
            doc["hands_counted"] = self.counted + F.counts(self.pitcher, r)
        return doc

    def draw_fields(self) -> dict:
        """The record's stock (when a step takes from it: 4.8, 12.2.1, 12.8.2), kitty
        (12.2) and draw (4.8, 12.8)."""
        r = self.r
        doc: dict = {}
        if F.takes_stock(r):
            doc["stock"] = _texts(self.stock)
        if r.kitty:  # 12.2: the kitty is the stock's last N cards (12.2.1)
            doc["kitty"] = self.kitty_record()
        if r.discard != "none":
            doc["draw"] = self.draw_doc()
        return doc

    def draw_doc(self) -> dict | None:
        rec = self.draw
        if rec is None:
            return None
        doc: dict = {
            "seats": [
                {
                    "discarded": _texts(cards_of(rec.discarded[s])),
                    "burnt": _texts(cards_of(rec.burnt[s])),
                    "drawn": _texts(rec.drawn[s]),
                }
                for s in range(self.n)
            ]
        }
        if self.r.rob:
            doc["robbed"] = _texts(rec.robbed)
            doc["put_down"] = _texts(rec.put_down)
        return doc

    def kitty_record(self) -> dict | None:
        """12.2.2 in the record: the kitty the pitcher took and what he put down (none
        before trump is named)."""
        rec = self.draw
        if rec is None:
            return None
        return {"taken": _texts(rec.robbed), "put_down": _texts(rec.put_down)}

    def partial(self) -> dict:
        """The hand a forfeit or a stop cut short: the deal, the draw made, the actions."""
        doc = {
            "players": self.n,
            "dealer": self.dealer,
            "hands": [_texts(cards_of(m)) for m in self.dealt],
        }
        doc |= self.draw_fields()
        return doc | {
            "incomplete": True,
            "scores_after": list(self.scores),
            "actions": self.actions,
        }


def winners_of(doc: dict, r: Rules) -> list[int]:
    """The sides that won after the hand ``doc`` (empty: play on)."""
    return F.winners(
        doc["scores_after"],
        doc["pitcher"],
        bool(doc["made"]),
        r,
        doc["shoot"],
        doc.get("hands_counted", 0),  # 12.4
        doc.get("partner"),  # 12.1.8
    )


def next_dealer(doc: dict, r: Rules) -> int:
    """0.1: the deal passes to the left, but the same dealer deals again after a hand
    everybody passed under all-pass=redeal (4.5)."""
    if doc["pitcher"] is None and r.all_pass == "redeal":
        return doc["dealer"]
    return (doc["dealer"] + 1) % doc["players"]


def _kernel_deal(r: Rules, n: int, dealer: int, key):
    """The family kernels' deal for the stream ``key`` (``kernels.deal``): the
    hands as masks, the stock top card first, and the kernels' discard and draw for
    this deal (4.8), so that the table plays the deals a family tournament plays."""
    from ..kernels.deal import cards_each, deal_cards
    from ..kernels.draw import discard_and_draw, take_kitty
    from ..kernels.presets import rules_array, rules_table

    fr, tab = rules_array(r), rules_table(r)
    deck = np.full(54, -1, dtype=np.int64)
    dealt = np.zeros(n, dtype=np.int64)
    size = int(deal_cards(key, n, dealer, fr, deck, dealt))
    top = n * int(cards_each(n, fr))
    # the whole undealt pack when a step takes from it (12.8.1's choice keeps it: [])
    stock = [int(c) for c in deck[top:size]] if F.takes_stock(r) else []

    def draw(held, stock_, pitcher, trump, called=-1, chosen=None):
        hands = np.array(held, dtype=np.int64)
        junk = np.full(54, -1, dtype=np.int64)
        keep = (
            np.int64(1) << called if called >= 0 else np.int64(0)
        )  # 12.1.3: rule X passes over it
        if r.kitty:  # 12.2.2, before the discard of 12.8
            take_kitty(hands, deck, size, pitcher, trump, fr, tab, keep)
        k = int(
            discard_and_draw(
                hands, n, deck, top, size, pitcher, dealer, trump, fr, tab, key, junk, keep
            )
        )
        out, rec = F.after_naming(held, stock_, pitcher, trump, r, _Drawn(junk[:k]), dealer, called)
        if [int(m) for m in hands] != list(out):
            raise RuntimeError("the reference engine's discard and draw differs from the kernels'")
        if chosen:  # the seats' own put-downs (12.2.2, 12.8): the kernels' draw from the
            # discards (``junk``) first, the rest of a pile they did not make shuffled
            order = _Drawn(junk[:k], random.Random(int(key)))
            out, rec = F.after_naming(
                held, stock_, pitcher, trump, r, order, dealer, called, chosen
            )
        return out, rec

    return [int(m) for m in dealt], stock, draw


def _play_table_game(seats, r: Rules, n: int, seed, board, names, on_hand) -> dict:
    record = _record_head(r, n, seed, board, names, preset=True)
    record["winners"] = []
    scores = [0] * n
    dealer = board % n
    counted = 0  # hands counted toward hands=N (12.4)
    try:
        for d in range(MAX_DEALS):
            key = np.uint64(deal_key(seed, board * MAX_DEALS + d))
            dealt, stock, draw = _kernel_deal(r, n, dealer, key)
            hand = TableDeal(r, n, dealer, dealt, stock, scores, draw, counted)
            walk = hand.run()
            try:
                seat, view = next(walk)
                while True:
                    seat, view = walk.send(_ask(seats, seat, view, key))
            except StopIteration as end:
                doc = end.value
            except Forfeit as f:
                record["hands"].append(hand.partial())
                record["forfeit"] = {"seat": f.seat, "strategy": names[f.seat], "reason": f.reason}
                break
            except StopGame as s:
                record["hands"].append(hand.partial())
                record["stopped"] = str(s) or "stopped"
                break
            record["hands"].append(doc)
            if on_hand is not None:
                on_hand(doc)
            _tell(seats, "hand_ended", seen_hand(doc))
            scores = doc["scores_after"]
            counted = doc.get("hands_counted", counted)
            won = winners_of(doc, r)
            if won:
                record["winners"] = won
                record["winner"] = won[0] if len(won) == 1 else None
                break
            dealer = next_dealer(doc, r)
    finally:
        for s in seats:
            if hasattr(s, "end_game"):
                s.end_game()
    record["final_scores"] = list(scores)
    _tell(seats, "game_ended", game_result(record))
    return record
