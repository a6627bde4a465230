"""Games in progress for the web table: one game a worker thread, the person's seat a
queue the browser fills.

The game loop is the table's own (:func:`~pitchsim.table.game.play_table_game`), with
the person's seat a :class:`~pitchsim.coach.practice.PersonSeat` whose answer comes from
the browser instead of the terminal: it publishes its view, blocks on a queue until the
page posts an action (checked against the view's legal actions before it is queued),
and the coach judges it as in ``pitchsim practice`` (same seeds, same numbers).  The
page reads the game's state: a version number that grows with every change, so that a
reader can wait for the next one.

Games are kept in a :class:`Games` registry under unguessable ids, at most
``max_games`` at once; a game nobody has looked at for ``idle`` seconds is stopped (its
record saved as an unfinished game, like a person's quit).
"""

from __future__ import annotations

import queue
import secrets
import threading
import time
from collections.abc import Callable

from ..coach.judge import COACH_SAMPLES, COACH_TIME, COACH_WORLDS, Judgement, describe
from ..coach.practice import (
    AWARD_WORDS,
    PERSON,
    PersonSeat,
    PracticeState,
    award_values,
    bids_offered,
    hand_end,
    hand_order,
    partner_words,
    shown_choices,
    shown_values,
)
from ..game import reference as F
from ..game.cards import cards_of
from ..game.rules import label
from ..game.view import View, card_text
from ..table.answers import StopGame, checked_action
from ..table.game import game_end_words, play_table_game, puts_down
from ..util.errors import InputError
from .saves import Saves

QUIT = object()  # put on a seat's queue: the person stops the game


class GameError(InputError):
    """A request a game cannot take (no such game, not your turn, an illegal action)."""


class Busy(GameError):
    """Too many games at once."""


class CannotStart(InputError):
    """A game the library refused to start (its own message: a rule family the table
    does not play yet, a strategy it does not know)."""


class WebSeat(PersonSeat):
    """The person's seat, answered from the browser (see the module)."""

    def __init__(self, game: Game, **coach):
        super().__init__(game.state, game.seed, _no_terminal, game.log, **coach)
        self.game = game
        self.answers: queue.Queue = queue.Queue()

    def _ask(self, view: View) -> str:
        self.game.publish(pending=view)
        answer = self.answers.get()
        self.game.publish(pending=None, thinking=self.coach)
        if answer is QUIT:
            raise StopGame("quit")
        return answer


def _no_terminal(prompt: str) -> str:  # pragma: no cover  (WebSeat answers from its queue)
    raise StopGame("no terminal")


class Game:
    """One game: its thread, its state, the person's seat."""

    def __init__(
        self,
        gid: str,
        players: int,
        seat: int,
        opponents: str,
        rules,
        seed: int,
        coach: bool,
        samples: int = COACH_SAMPLES,
        worlds: int = COACH_WORLDS,
        time_limit: float | None = COACH_TIME,
        on_end: Callable[[dict], str] | None = None,
    ):
        self.id = gid
        self.players = players
        self.seat = seat
        self.opponents = opponents
        self.rules = rules
        self.seed = seed
        self.coach = coach
        self.state = PracticeState(seat)
        self.lines: list[str] = []
        self.hands: list[dict] = []
        self.pending: View | None = None
        self.thinking = False
        self.record: dict | None = None
        self.error: str | None = None
        self.saved_as: str | None = None
        self.version = 0
        self.acted_at = 0.0
        self.coach_seconds: list[float] = []  # from the person's action to the verdict
        self.touched = time.monotonic()
        self.changed = threading.Condition()
        self.on_end = on_end
        self.person = WebSeat(self, coach=coach, samples=samples, worlds=worlds, time=time_limit)
        self.thread = threading.Thread(target=self._run, name=f"game-{gid[:6]}", daemon=True)

    # --- the worker thread
    def _run(self) -> None:
        seats: list = [self.opponents] * self.players
        seats[self.seat] = self.person
        names = [self.opponents] * self.players
        names[self.seat] = PERSON
        record, saved, error = None, None, None
        try:
            record = play_table_game(seats, self.rules, self.seed, 0, names, on_hand=self._on_hand)
            record["practice"] = {  # as ``pitchsim practice`` writes it
                "seat": self.seat,
                "coach": self.coach,
                "judgements": [j.to_json() for j in self.state.judgements],
                "notes": self.state.notes,
            }
            if self.on_end is not None:
                saved = self.on_end(record)
        except InputError as e:  # the library's own refusal (a rule family, a strategy)
            error = str(e)
        except Exception as e:  # noqa: BLE001  (shown on the page, the server goes on)
            error = f"{type(e).__name__}: {e}"
        # the record and its save's name together: a reader never sees one without the other
        self.publish(record=record, saved_as=saved, error=error, pending=None, thinking=False)

    def _on_hand(self, doc: dict) -> None:
        self.hands.append(doc)
        self.publish()

    def log(self, text: str) -> None:
        """The seat's own lines (what the terminal would show): its verdicts and forced
        moves kept for the page's log; the coach's time per judgement measured."""
        if text.startswith("coach: thinking"):
            return
        if text.startswith("coach:"):
            self.coach_seconds.append(time.monotonic() - self.acted_at)
        if text.startswith("coach:") or text.startswith("your only"):
            self.lines.append(text)
            # a verdict ends the coach's turn: the page shows the others playing again
            self.publish(thinking=self.thinking and not text.startswith("coach:"))

    def publish(self, **changes) -> None:
        with self.changed:
            for k, v in changes.items():
                setattr(self, k, v)
            self.version += 1
            self.changed.notify_all()

    def _last_note(self) -> dict | None:
        """The coach's last note on a call of a partner's card or a put-down, when no
        judgement came after it: the coach's panel shows it (else the last judgement)."""
        notes = self.state.notes
        if notes and notes[-1]["after"] == len(self.state.judgements):
            return notes[-1]
        return None

    # --- what the page asks
    def start(self, wait: float = 60.0) -> None:
        """Start the game and wait until the person is asked, or the game has ended."""
        self.thread.start()
        self.wait_change(-1, wait, until=lambda: self.pending is not None or self.over)

    @property
    def over(self) -> bool:
        return self.record is not None or self.error is not None

    def wait_change(self, since: int, timeout: float, until=None) -> None:
        """Wait up to ``timeout`` seconds for a version past ``since`` (and ``until()``)."""
        end = time.monotonic() + timeout
        with self.changed:
            while True:
                if self.version > since and (until is None or until()):
                    return
                left = end - time.monotonic()
                if left <= 0 or (self.over and until is not None):
                    return
                self.changed.wait(left)

    def act(self, action: object) -> None:
        """The person's action, checked against the view before the seat gets it."""
        with self.changed:
            view = self.pending
            if view is None:
                raise GameError("it is not your turn" if not self.over else "the game is over")
            try:
                text = checked_action(view, action)
            except ValueError as e:
                raise GameError(str(e)) from None
            self.pending = None  # one answer per question, however fast the clicks
            self.acted_at = time.monotonic()
        self.person.answers.put(text)

    def quit(self) -> None:
        if not self.over:
            self.person.answers.put(QUIT)

    def to_json(self) -> dict:
        with self.changed:
            view = self.pending
            out = {
                "id": self.id,
                "version": self.version,
                "players": self.players,
                "seat": self.seat,
                "seed": self.seed,
                "opponents": self.opponents,
                "coach": self.coach,
                "rules": label(self.rules),
                "target": self.rules.target,
                "partnership": self.rules.partnership,
                "status": "error"
                if self.error
                else "over"
                if self.record is not None
                else "your turn"
                if view is not None
                else "coach"
                if self.thinking
                else "playing",
                "view": None if view is None else view_json(view),
                "keys": keys_json(self.rules, self.players, view),
                "judgements": [judgement_json(j) for j in self.state.judgements],
                "note": self._last_note(),
                "hands": list(self.hands),
                "ends": hand_ends(self.hands, self.rules, self.seat),
                "log": self.lines[-50:],
                "error": self.error,
                "winner": None if self.record is None else self.record.get("winner"),
                # sides tied on top share the win (under a preset): their seats or teams
                "winners": None if self.record is None else self.record.get("winners") or [],
                "forfeit": None if self.record is None else self.record.get("forfeit"),
                "final_scores": None if self.record is None else self.record["final_scores"],
                "stopped": None if self.record is None else self.record.get("stopped"),
                # how the game ended, in the terminal's words (the page shows them as given)
                "result_words": None
                if self.record is None
                else game_end_words(self.record, self.seat, self.rules.partnership),
                "saved_as": self.saved_as,
                "coach_seconds": self.coach_seconds[-1:],
            }
        return out


def keys_json(rules, players: int, view: View | None = None) -> dict:
    """What the page's keys line names, from the rules themselves: the cards a hand is
    dealt (numbered keys), the bids (at the person's call, ``view``, those offered him,
    as the terminal's help says them: ``practice.bids_offered``; null: only pass), and
    whether there is a shoot, a trump to name, a partner's card to call, cards to put
    down, a jick, jokers."""
    bids = bids_offered(rules, view)
    return {
        "cards": rules.cards_each(players),
        "bids": None if bids is None else list(bids),
        "shoot": rules.shoot,
        "named_trump": rules.trump == "named",
        "partner_call": rules.partner != "none",  # 12.1: the pitcher calls a card
        "put_down": puts_down(rules),  # 12.2.2, 12.8.1: a card put down coming down to 6
        "draw": rules.discard == "draw",  # 12.8.2: then "draw" (the key d) stops and draws
        "jick": rules.jick,
        "jokers": rules.jokers,
    }


def judgement_json(j: Judgement) -> dict:
    """A judgement as the record writes it, with the coach's line to the person and its
    values as the terminal shows them (``practice.shown_values``: a defender's card in
    the pitcher's points)."""
    unit, sign = shown_values(j)
    out = j.to_json() | {"text": describe(j), "unit_words": unit, "sign": sign}
    if j.kind == "call":  # the calls as offered, a dealer's steal marked ("2 (steal)")
        out["choice_words"] = {a: j.words(a) for a in j.values}
    return out


def view_json(view: View) -> dict:
    """The view as the protocol writes it (any preset), with what the page shows beside
    it, worked out by the terminal table's own code so the two agree: ``held`` the cards
    still in hand in the table's order (trumps first, the jick and jokers among them),
    ``choices`` the legal actions in the order the table numbers them, ``trumps`` every
    trump of the named suit high to low (0.4), and each finished trick's winner."""
    doc = view.to_json()
    doc["phase"] = view.phase
    doc["to_move"] = view.to_move
    rules = view.rules
    trump = view.trump
    # coming down to 6 (12.2.2, 12.8.1): what it holds now, the kitty's cards too
    cards = list(view.kept) if view.phase == "put_down" else cards_of(view.held)
    winners = [view.winner(t) for t in view.complete_tricks]
    doc["held"] = [card_text(c) for c in hand_order(cards, trump, view.rules)]
    doc["choices"] = shown_choices(view)
    if view.phase == "put_down":  # the cards still to put down, this one included
        doc["to_put_down"] = max(0, len(cards) - F.HAND_TARGET)  # (under draw: at least)
        doc["drawing"] = view.drawing  # 12.8.2: may put down more, then draws
    # the calls as the table shows them, a dealer's steal marked ("2 (steal)"), and so
    # the calls offered
    doc["call_words"] = [view.call_words(i) for i in range(len(view.calls))]
    if view.called >= 0:  # 12.1: the card called, and the partner as this seat knows him
        who = [("you" if s == view.seat else f"seat {s}") for s in range(view.players)]
        doc["called_words"] = partner_words(view, who)
    if view.phase == "auction":
        doc["choice_words"] = [view.choice_words(a) for a in doc["choices"]]
    doc["trick_winners"] = winners
    if doc.get("draw") and doc["draw"].get("robbed") is not None:
        # who robbed the stock: the pitcher under rob=true, the dealer under rob=dealer
        # (cinch, 12.7), as the terminal's table says it (practice.draw_lines)
        doc["draw"]["robber"] = view.preset.robber(view.pitcher, view.dealer)
    doc["trumps"] = (
        [] if trump is None else [card_text(c) for c in reversed(F.trump_order(rules, trump))]
    )
    return doc


def hand_ends(hands: list[dict], rules, seat: int) -> list[dict]:
    """Each finished hand's end as the terminal shows it (``practice.hand_end``'s lines)
    and each point the rules award: its name, its worth and who took it (None: nobody)."""
    worth = award_values(rules)
    out = []
    for k, h in enumerate(hands, 1):
        if h.get("incomplete"):
            continue
        out.append(
            {
                "lines": hand_end(h, rules, seat, f"hand {k}"),
                "awards": [
                    {"name": AWARD_WORDS[a], "worth": v, "by": (h.get("points") or {}).get(a)}
                    for a, v in worth.items()
                ]
                if h.get("pitcher") is not None
                else [],
            }
        )
    return out


class Games:
    """Every game in progress, by id (see the module)."""

    def __init__(self, saves: Saves, max_games: int = 8, idle: float = 1800.0):
        self.saves = saves
        self.max_games = max_games
        self.idle = idle
        self.games: dict[str, Game] = {}
        self.lock = threading.Lock()

    def new(self, **options) -> Game:
        self.reap()
        with self.lock:
            live = sum(not g.over for g in self.games.values())
            if live >= self.max_games:
                raise Busy(f"{live} games are in progress, the most this server runs at once")
            gid = secrets.token_urlsafe(18)
            game = Game(gid, on_end=self._save, **options)
            self.games[gid] = game
        game.start()
        if game.error is not None:
            with self.lock:
                self.games.pop(gid, None)
            raise CannotStart(game.error)
        return game

    def get(self, gid: str) -> Game:
        with self.lock:
            game = self.games.get(gid) if isinstance(gid, str) else None
        if game is None:
            raise GameError("no such game (it ended long ago, or the id is wrong)")
        game.touched = time.monotonic()
        return game

    def reap(self) -> None:
        """Stop games idle too long; forget ended games idle too long."""
        now = time.monotonic()
        with self.lock:
            stale = [g for g in self.games.values() if now - g.touched > self.idle]
            for g in stale:
                if g.over:
                    del self.games[g.id]
        for g in stale:
            g.quit()

    def stop_all(self) -> None:
        with self.lock:
            games = list(self.games.values())
        for g in games:
            g.quit()
        for g in games:
            g.thread.join(timeout=30)

    def _save(self, record: dict) -> str:
        return self.saves.save(record)
