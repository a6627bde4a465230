"""A game against pitchsim in the terminal: one seat a person's, the others pitchsim's
strategies, with the coach judging each of the person's decisions.

The person is one more seat at the table (``table.game``): a :class:`PersonSeat` has
``call(view)`` and ``play(view)`` like any bot, and reads its answers from a stream (the
terminal, or a script in the tests).  Quitting raises ``StopGame``: the table returns
the record so far, saved like a finished game's; ``resume`` replays the person's saved
actions into the same seed (the bots decide the same from the same views), then hands
the seat back to the person.
"""

from __future__ import annotations

import math
import os
import re
import shutil
import sys
import textwrap
from collections.abc import Callable
from dataclasses import dataclass, field

from ..game import reference as F
from ..game.cards import (
    SUIT_NAMES,
    SUIT_SYMBOLS,
    SUITS,
    CardError,
    cards_of,
    format_card,
    mask_of,
    parse_cards,
    parse_suit,
    sort_for_display,
)
from ..game.view import (
    CALL_ACTION,
    DRAW_ACTION,
    PUT_DOWN_ACTION,
    SHOOT,
    View,
    card_text,
    partner_call_text,
    put_down_text,
    trump_text,
)
from ..table.answers import StopGame, checked_action
from ..table.game import play_table_game
from ..util.errors import InputError, quoted
from .judge import (
    COACH_SAMPLES,
    COACH_TIME,
    COACH_WORLDS,
    DEFENDING_GAME_WORDS,
    GAME_UNIT,
    GAME_UNITS,
    NET_GAME_UNIT,
    UNIT_WORDS,
    UNITS,
    Judgement,
    card_unit,
    choice_note,
    describe,
    judge,
    judged,
    loss_text,
    pitchsims_choice,
    show_action,
)

PERSON = "you"


def bids_offered(rules, view: View | None = None) -> tuple[int, int] | None:
    """The lowest and highest bid the person may make: at his call (``view`` in the
    auction) those offered him (every bid above the high bid, a dealer's steal at it:
    no gaps), else the rules' own (min-bid to the maximum); None: only pass is left."""
    if view is not None and view.phase == "auction":
        bids = [int(a) for a in view.legal() if a.isdigit()]
        return (min(bids), max(bids)) if bids else None
    return rules.min_bid, rules.max_bid


def help_text(rules, view: View | None = None) -> str:
    """The ``?`` help: what the person types under these rules, and only that (the jokers
    with jokers, shoot with shoot, naming trump under trump=named, the draw with a
    discard, the kitty with one); asked at his call, the bids offered him now too."""
    r = rules
    jokers = {0: "", 1: " (the joker HJ)", 2: " (the jokers HJ, LJ)"}[r.jokers]
    shoot = ", or shoot (s)" if r.shoot else ""
    ten = "; 0 for 10" if r.max_bid >= 10 else ""
    now = bids_offered(rules, view)
    if view is None or view.phase != "auction" or now == (r.min_bid, r.max_bid):
        now_text = ""
    elif now is None:
        now_text = " (now only pass)"
    else:
        now_text = f" (now {now[0]}-{now[1]})" if now[0] < now[1] else f" (now {now[0]})"
    parts = [
        f"Type a card as KS, K♠, 10h or Th{jokers}, a call as pass (p) or a bid "
        f"({r.min_bid}-{r.max_bid}{ten}){now_text}{shoot}"
    ]
    if r.trump == "named":
        parts.append("trump as H, ♥, hearts or trump:H")
    if r.partner != "none":  # 12.1.2, 12.1.4: the pitcher's call
        what = "a trump" if r.partner == "called" else "any card"
        parts.append(f"pitching, your partner's card ({what}) as AS or call:AS")
    text = "; ".join(parts) + "; or the number shown before a choice."
    if r.discard == "non-trump":  # 4.8: nothing to choose, so nothing is asked
        text += "\nThe discard and draw are made for you: every non-trump down, drawn back to 6."
        if r.rob:  # 4.8.5, 4.8.7: the robber's come-down is his
            who = "Dealing" if r.rob == "dealer" else "Pitching"
            text += (
                f"\n{who}, you rob the stock and put down one card at a time to 6, "
                "non-trumps first, as AS or down:AS."
            )
    elif r.discard == "choice":  # 12.8.1: each seat's own choice
        text += "\nHolding more than 6, you put down one card at a time, as AS or down:AS."
    elif r.discard == "draw":  # 12.8.2: each seat's own choice, then the draw
        text += (
            "\nBefore the draw you put down one card at a time, as AS or down:AS (any "
            "non-trump, a trump only beyond 6, keeping 3), then type d (draw) to draw back "
            "to 6; holding more than 6, put down at least the cards beyond 6 first."
        )
    if r.discard in ("choice", "draw") and r.discards == "shown":  # 12.9
        text += "\nEvery card put down is face up: every player sees it."
    if r.kitty:  # 12.2.2
        up = " face up" if r.discards == "shown" else ""  # 12.9.1
        text += (
            f"\nPitching, you take the kitty of {r.kitty}; what goes back down (to 6) you "
            f"put down{up}, one card at a time."
        )
    return text + "\n?: this help.  q (or Ctrl-C): save and quit (continue with --resume)."


# What each phase asks the person for.
ASKED = {
    "auction": "call",
    "trump": "trump",
    "call": "partner's card",
    "put_down": "card to put down",
    "play": "card",
}
# The coach when the person's call of a partner's card or put-down is pitchsim's.
SAME_CHOICE = {
    "call": "coach: pitchsim calls the same card.",
    "put_down": "coach: pitchsim puts down the same.",
}


class PracticeError(InputError):
    """A practice game that cannot start or resume."""


def coach_seed(seed: int, hand: int, decision: int) -> int:
    """The coach's seed for one decision: the game's seed and the decision's place, so
    a replayed game is judged the same and ``hint``/``advise`` given this seed agree."""
    return (seed * 1_000_003 + hand * 1_009 + decision) % (1 << 62)


@dataclass
class PracticeState:
    """What a game in progress shows the person, kept across hands."""

    seat: int
    judgements: list[Judgement] = field(default_factory=list)
    hand_no: int = 1
    decision: int = 0  # decisions of the person's seat so far in this game
    # the coach's notes on the calls of a partner's card and the put-downs (not
    # judgements): {"hand", "decision": the seat's count, "action", "after": the
    # judgements before it, "text"}; saved, so a review need not value them again
    notes: list[dict] = field(default_factory=list)


def _colour(on: bool) -> Callable[[str, int], str]:
    def paint(text: str, suit: int) -> str:
        if not on or suit not in (1, 2):  # diamonds and hearts red
            return text
        return f"\x1b[31m{text}\x1b[0m"

    return paint


class PersonSeat:
    """A person at the table: shows the view, reads an answer, has the coach judge it."""

    name = PERSON

    def __init__(
        self,
        state: PracticeState,
        seed: int,
        read: Callable[[str], str],
        write: Callable[[str], None],
        coach: bool = True,
        colour: bool = False,
        scripted: list[str] | None = None,
        samples: int = COACH_SAMPLES,
        worlds: int = COACH_WORLDS,
        time: float | None = COACH_TIME,
    ):
        self.state = state
        self.time = time
        self.seed = seed
        self.read = read
        self.write = write
        self.coach = coach
        self.paint = _colour(colour)
        self.scripted = list(scripted or [])  # actions replayed on --resume
        self.samples = samples
        self.worlds = worlds
        self.last_dealt: tuple[int, ...] | None = None

    # --- the seat interface
    def call(self, view: View) -> str:
        return self._decide(view)

    def play(self, view: View) -> str:
        return self._decide(view)

    # ---
    def _decide(self, view: View) -> str:
        if view.hand != self.last_dealt:
            if self.last_dealt is not None:
                self.state.hand_no += 1
            self.last_dealt = view.hand
        if self.scripted:
            action = self.scripted.pop(0)
            self.state.decision += 1
            return action
        self.write(render_view(view, self.paint))
        legal = view.legal()
        if len(legal) == 1:
            # Nothing to choose, so nothing to ask or judge: the one legal action is taken.
            self.state.decision += 1
            what = ASKED[view.phase]
            self.write(f"your only {what}: {_action(what, legal[0], self.paint)}")
            return legal[0]
        action = self._ask(view)
        self.state.decision += 1
        if self.coach and view.phase in ("call", "put_down"):  # a note (``judged``)
            text = SAME_CHOICE[view.phase]
            if action != pitchsims_choice(view):
                self.write("coach: thinking ...")
                seed = coach_seed(self.seed, self.state.hand_no, self.state.decision)
                text = choice_note(view, action, seed, time=self.time)
            self.state.notes.append(
                {
                    "hand": self.state.hand_no,
                    "decision": self.state.decision,
                    "action": action,
                    "after": len(self.state.judgements),
                    "text": text,
                }
            )
            self.write(text)
        elif self.coach:
            self.write("coach: thinking ...")
            j = judge(
                view,
                action,
                self.state.hand_no,
                coach_seed(self.seed, self.state.hand_no, self.state.decision),
                self.samples,
                self.worlds,
                self.time,
            )
            self.state.judgements.append(j)
            self.write(render_values(j, self.paint))
            width = shutil.get_terminal_size((100, 24)).columns
            self.write(textwrap.fill(describe(j), width, subsequent_indent="    "))
        return action

    def _ask(self, view: View) -> str:
        legal = view.legal()
        while True:
            try:
                text = self.read(f"your {ASKED[view.phase]}> ")
            except (EOFError, OSError):  # the end of the input, or a terminal gone
                self.write("")  # end the prompt's line: Ctrl-D echoes no newline
                raise StopGame("input ended") from None
            except KeyboardInterrupt:  # Ctrl-C at the prompt: saved, as q is, not lost
                self.write("")
                raise StopGame("interrupted") from None
            text = text.strip()
            if not text:
                self.write("type a choice, or ? for help")
                continue
            if text == "?":
                self.write(help_text(view.preset, view))
                continue
            if text.lower() in ("q", "quit", "exit"):
                raise StopGame("quit")
            action = read_choice(text, view, legal)
            if isinstance(action, str) and action in legal:
                return action
            self.write(action.message if isinstance(action, Refusal) else "not a choice here")


@dataclass(frozen=True)
class Refusal:
    message: str


def shown_choices(view) -> list[str]:
    """The legal actions in the order the table lists (and numbers) them: cards in the
    hand's order (trumps first), suits to name in the one suit order, calls as offered."""
    legal = view.legal()
    if view.phase in ("play", "call", "put_down"):  # a card to play, call or put down
        cards = {parse_cards(_card_of(a), 2)[0]: a for a in legal if a != DRAW_ACTION}
        stop = [DRAW_ACTION] if DRAW_ACTION in legal else []  # 12.8.2: after the cards
        return [cards[c] for c in hand_order(cards, view.trump, view.rules)] + stop
    if view.phase == "trump":
        order = sort_for_display(13 * s + 12 for s in range(4))  # each suit's ace
        return [trump_text(c // 13) for c in order if trump_text(c // 13) in legal]
    return legal


def _card_of(action: str) -> str:
    """The card an action names: ``"call:AS"`` (12.1), ``"down:4D"`` (12.8.1), ``"AS"``."""
    return action.split(":", 1)[-1]


def read_choice(text: str, view: View, legal: list[str]) -> str | Refusal:
    """A typed choice as the action it names, or why it is not one (one line): calls up
    to the rules' maximum and ``shoot``, the suit to name, cards with the jokers."""
    shown = text if len(text) <= 20 else text[:17] + "..."
    numbered = shown_choices(view)
    if text == "0" and (len(numbered) >= 10 if view.phase == "play" else "10" in legal):
        text = "10"  # the web table's key for the tenth card and a bid of 10, typed here too
    for prefix in (CALL_ACTION, PUT_DOWN_ACTION):
        text = text[len(prefix) :] if text.lower().startswith(prefix) else text
    low = text.lower()
    if text.isdigit() and view.phase in ("play", "trump", "call", "put_down"):
        if 1 <= int(text) <= len(numbered):
            return numbered[int(text) - 1]
        return Refusal(f"there is no choice {shown}: the choices are 1 to {len(numbered)}")
    if view.phase == "auction":
        if low in ("p", "pass"):
            return "pass" if "pass" in legal else Refusal("you may not pass here")
        if low in ("s", SHOOT):
            if SHOOT in legal:
                return SHOOT
            why = "these rules have no shoot" if not view.preset.shoot else "you may not shoot now"
            return Refusal(why)
        if low.isdigit():
            if str(int(low)) in legal:
                return str(int(low))
            return Refusal(f"you cannot bid {low} now: your choices are {', '.join(legal)}")
        return Refusal(f"{shown!r} is not a call: type pass or a bid ({', '.join(legal)})")
    if view.phase == "put_down" and view.drawing and low in ("d", DRAW_ACTION):  # 12.8.2
        if DRAW_ACTION in legal:
            return DRAW_ACTION
        return Refusal("you hold more than 6: put down at least the cards beyond 6 first")
    if view.phase == "trump":
        try:
            suit = parse_suit(low.removeprefix("trump:"))
        except CardError:
            return Refusal(f"{shown!r} is not a suit: type C, D, H or S (or ♣ ♦ ♥ ♠, hearts)")
        return trump_text(suit)
    if low in ("hj", "lj") and not view.preset.jokers:
        return Refusal(f"{text.upper()} is a joker, and this pack has no jokers")
    try:
        cards = parse_cards(text, view.preset.jokers)
    except CardError:
        forms = "KS, K♠, 10h, Th or HJ" if view.preset.jokers else "KS, K♠, 10h or Th"
        return Refusal(f"{shown!r} is not a card (type it as {forms})")
    if len(cards) != 1:
        return Refusal("play one card")
    c = cards[0]
    name = card_text(c)
    if view.phase == "call":  # 12.1.2, 12.1.4: the card called, by its name
        if partner_call_text(c) in legal:
            return partner_call_text(c)
        what = "a trump" if view.preset.partner == "called" else "a card of the pack"
        return Refusal(f"{format_card(c)} may not be called: call {what} (12.1)")
    if view.phase == "put_down":  # 12.2.2, 12.8.1: any card held but a called trump
        if put_down_text(c) in legal:
            return put_down_text(c)
        if c == view.called:
            return Refusal(f"{format_card(c)} is the card called: it is never put down (12.1.3)")
        if view.drawing and c in view.kept:  # 12.8.2
            if len(view.kept) <= F.KEEP_AT_LEAST:
                return Refusal(f"you keep at least {F.KEEP_AT_LEAST} cards (12.8.2)")
            return Refusal(
                f"{format_card(c)} is a trump: a trump goes down only beyond 6 trumps (12.8.2)"
            )
        if c in view.kept:  # held, but after the rob the non-trumps go first (4.8.7)
            return Refusal(
                f"{format_card(c)} is a trump: you put down your non-trumps first (4.8.7)"
            )
        return Refusal(f"you do not hold {format_card(c)}")
    if name in legal:
        return name
    mine = mask_of(view.kept) if view.kept else mask_of(view.hand)
    if not mine >> c & 1:
        gone = view.discards + view.burnt + view.put_down
        if c in gone:
            return Refusal(f"you put {format_card(c)} down in the draw")
        return Refusal(f"you do not hold {format_card(c)}")
    if not view.held >> c & 1:
        return Refusal(f"you have played {format_card(c)} already")
    return Refusal(
        f"{format_card(c)} is not legal now: play "
        + " ".join(format_card(parse_cards(a, 2)[0]) for a in legal)
    )


# ------------------------------------------------------------------ what is shown


def _card(c: int, paint) -> str:
    return paint(format_card(c), c // 13)


def trick_cards(seats, cards: list[str], n: int, who: list[str]) -> str:
    """A trick's cards (shown), from the leader on.  Under ``follow=only`` a seat out
    of trump is passed over (4.9), so a card's place no longer says who played it:
    then each card after the lead names its player ("HJ, seat 2 5♠, seat 3 J♣")."""
    seats = list(seats or [])
    if not seats or seats == [(seats[0] + i) % n for i in range(len(seats))]:
        return " ".join(cards)
    return ", ".join(
        [cards[0], *(f"{who[s]} {c}" for s, c in zip(seats[1:], cards[1:], strict=True))]
    )


def _down_words(action: str, paint) -> str:
    """A put-down's choice as the table numbers it: its card, or ``draw`` (12.8.2)."""
    return "draw" if action == DRAW_ACTION else _card(parse_cards(_card_of(action), 2)[0], paint)


def _action(kind: str, text: str, paint) -> str:
    if kind == "card":
        return _card(parse_cards(text, 2)[0], paint)
    return show_action(kind, text)


def hand_order(cards, trump: int | None, rules) -> list[int]:
    """One suit order everywhere (``cards.sort_for_display``: jokers, then spades,
    hearts, clubs, diamonds, high to low), with the trumps first once trump is known:
    the whole trump suit, the jick and the jokers, highest first."""
    if trump is None or trump < 0:
        return sort_for_display(cards)
    order = F.trump_order(rules, trump)
    trumps = sorted(
        (c for c in cards if F.is_trump(c, trump, rules)), key=order.index, reverse=True
    )
    return trumps + sort_for_display(c for c in cards if c not in trumps)


def _hand_text(cards, trump: int | None, rules, paint) -> str:
    ordered = hand_order(cards, trump, rules)
    if trump is None or trump < 0:
        return " ".join(_card(c, paint) for c in ordered)
    trumps = [c for c in ordered if F.is_trump(c, trump, rules)]
    others = ordered[len(trumps) :]
    parts = [f"trumps {' '.join(_card(c, paint) for c in trumps) if trumps else '(none)'}"]
    if others:
        parts.append(" ".join(_card(c, paint) for c in others))
    return "  |  ".join(parts)


def _suit_words(s: int) -> str:
    return f"{SUIT_SYMBOLS[s]} {SUIT_NAMES[s]}"


def render_view(view: View, paint=lambda t, s: t) -> str:
    """The table as the person sees it before a decision: the calls (and shoot), the pitcher and the named
    trump, the draw as the seat saw it (its own discard and draw, how many each other
    seat drew, the trumps burnt face up), the seats out, the tricks, the hand with its
    trumps grouped (the jick and the jokers among them)."""
    n, r = view.players, view.preset
    who = [("you" if s == view.seat else f"seat {s}") for s in range(n)]
    lines = ["", "-" * 60, _scores_line(view, who), f"dealer: {who[view.dealer]}"]
    if view.calls:
        calls = [f"{who[view.caller(i)]} {view.call_words(i)}" for i in range(len(view.calls))]
        lines.append("calls: " + ", ".join(calls))
    trump = view.trump
    if view.pitcher is not None:
        shoots = "shoot" if view.pitcher == view.seat else "shoots"  # "you shoot"
        bid = f"{shoots} (all {r.max_bid})" if view.shoot else f"for {view.bid}"
        named = ""
        if trump is not None:
            how = "named" if r.trump == "named" else "led"
            named = f", trump {_suit_words(trump)} ({how})"
        lines.append(f"pitcher: {who[view.pitcher]} {bid}{named}")
    if view.called >= 0:  # 12.1: the call, heard by all; the partner as this seat knows him
        lines.append(f"called: {_card(view.called, paint)}, " + partner_words(view, who))
    if view.draws:
        lines.extend(_draw_lines(view, who, paint))
    if view.preset.kitty and view.phase in ("play", "over"):  # 12.2.2
        cards = lambda cs: " ".join(_card(c, paint) for c in cs)  # noqa: E731
        face = "face up" if view.preset.discards == "shown" else "face down"  # 12.9.1
        if view.seat == view.pitcher:
            lines.append(
                f"kitty: you took {cards(view.kitty)} and put down {cards(view.put_down)} {face}"
            )
        else:
            up = f" ({cards(view.put_down_shown)})" if view.put_down_shown else ""
            lines.append(
                f"kitty: {who[view.pitcher]} took {view.robbed_count} and put down "
                f"{view.put_down_count} {face}{up}"
            )
    if view.out:
        lines.append("out (no trump left): " + ", ".join(who[s] for s in view.out))
    for k, t in enumerate(view.tricks, 1):
        cards = trick_cards(t.seats, [_card(c, paint) for c in t.cards], n, who)
        done = _trick_over(view, t)
        if done and trump is not None:
            w = t.seats[F.trick_winner(t.cards, trump, r)]
            lines.append(f"trick {k}: {who[t.leader]} led  {cards}  -> {who[w]}")
        else:
            lines.append(f"this trick: {who[t.leader]} led  {cards}")
    if view.phase == "play" or view.after_draw:  # (the announced call: after the draw)
        held = cards_of(view.held)
    elif view.phase == "put_down":  # coming down to 6: what it holds now
        held = list(view.kept)
    else:
        held = list(view.hand)
    lines.append("your hand: " + _hand_text(held, trump, r, paint))
    legal = shown_choices(view)
    if view.phase == "auction":
        lines.append("your choices: " + ", ".join(view.choice_words(a) for a in legal))
    elif view.phase == "trump":
        lines.append(
            "name trump: "
            + "  ".join(f"{i}:{_suit_words(SUITS.index(a[-1]))}" for i, a in enumerate(legal, 1))
        )
    elif view.phase == "put_down":  # 12.2.2, 12.8.1: one card at a time, down to 6
        keep = "keep 6"
        if view.drawing:  # 12.8.2: as many as you like, then draw back to 6
            keep = f"keep {F.KEEP_AT_LEAST} to 6, then draw back to 6"
        lines.append(
            f"put down a card (you hold {len(view.kept)}, {keep}): "
            + "  ".join(f"{i}:{_down_words(c, paint)}" for i, c in enumerate(legal, 1))
        )
    elif view.phase == "call":  # 12.1: its holder is your partner
        lines.append(
            "call your partner's card (its holder is your partner): "
            + "  ".join(
                f"{i}:{_card(parse_cards(c[len(CALL_ACTION) :], 2)[0], paint)}"
                for i, c in enumerate(legal, 1)
            )
        )
    else:
        lines.append(
            "your choices: "
            + "  ".join(f"{i}:{_card(parse_cards(c, 2)[0], paint)}" for i, c in enumerate(legal, 1))
        )
    return "\n".join(lines)


def partner_words(view: View, who: list[str]) -> str:
    """The pitcher's partner as the person knows him (12.1.10), the terminal's words and
    the page's (``who``: each seat's name)."""
    p = view.partner
    if p is None and view.preset.partner == "called" and view.complete_tricks:
        # 12.1.3: its holder would have played it to trick 1
        return f"nobody played it to trick 1: {who[view.pitcher]} plays alone"
    if p is None:
        return "its holder is the pitcher's partner (not known yet: he plays it to trick 1)"
    if p == view.pitcher:
        return f"nobody else holds it: {who[p]} plays alone"
    return f"{who[p]} {'are' if p == view.seat else 'is'} the pitcher's partner"


def _trick_over(view: View, t) -> bool:
    from ..table.decide import trick_over

    return trick_over(view, t)


def _scores_line(view, who: list[str]) -> str:
    n = view.players
    left = getattr(view, "hands_left", None)
    goal = (
        f"  (hand {view.hands_played + 1} of {view.preset.hands_limit}, {left} left with this "
        "one; then the highest total wins)"
        if left is not None
        else f"  (to {view.target})"
    )
    if view.partnership:
        team = view.seat % 2
        return f"scores: your team {view.scores[team]}, them {view.scores[1 - team]}" + goal
    return "scores: " + ", ".join(f"{who[s]} {view.scores[s]}" for s in range(n)) + goal


def _draw_lines(view: View, who: list[str], paint) -> list[str]:
    """The discard and draw (VARIANTS 4.8) as the seat saw it."""
    me = view.seat
    cards = lambda cs: " ".join(_card(c, paint) for c in cs)  # noqa: E731
    mine = f"draw: you put down {len(view.discards)}"
    if view.discards:
        mine += f" ({cards(view.discards)})"
    mine += f" and drew {len(view.drawn)}"
    if view.drawn:
        mine += f" ({cards(view.drawn)})"
    lines = [mine]
    down = view.preset.discard != "non-trump"  # 12.8: what each put down is the count seen
    others = [
        f"{who[s]} drew {d.drawn}" + (f" (put down {d.discarded})" if down else "")
        for s, d in enumerate(view.draws)
        if s != me
    ]
    lines.append("      " + ", ".join(others))
    shown = [f"{who[s]} {cards(d.shown)}" for s, d in enumerate(view.draws) if s != me and d.shown]
    if shown:  # discards=shown (12.9)
        lines.append("      discarded face up: " + "; ".join(shown))
    burnt = [f"{who[s]} {cards(d.burnt)}" for s, d in enumerate(view.draws) if d.burnt]
    if burnt:
        lines.append("      burnt face up (trumps over six): " + "; ".join(burnt))
    robber = view.preset.robber(view.pitcher, view.dealer) if view.preset.rob else None
    if robber is not None and view.pitcher is not None:
        took = f"{who[robber]} robbed the stock ({view.robbed_count})"
        up = view.put_down_shown  # face up (12.7, 12.9)
        if view.put_down_count:
            took += f" and put down {view.put_down_count - len(up)} face down"
            if up:
                took += f" and {cards(up)} face up"
        elif view.phase == "put_down":  # his come-down has begun (4.8.7)
            took += ", nothing put down yet"
        if me == robber and view.robbed:
            took += f": took {cards(view.robbed)}"
            if view.put_down:
                took += f", put down {cards(view.put_down)}"
        lines.append("      " + took)
    return lines


def shown_values(j: Judgement) -> tuple[str, int]:
    """The words heading a judgement's values and the sign they are shown with (the
    terminal and the web page alike)."""
    if j.unit == "points" and j.defending:
        # A defender's value is minus the pitcher's points: shown as the pitcher's own.
        return "the pitcher's side's points: you defend, fewer is better", -1
    if j.unit == GAME_UNIT and j.defending:
        return DEFENDING_GAME_WORDS, 1
    return UNIT_WORDS[j.unit], 1


def render_values(j: Judgement, paint=lambda t, s: t) -> str:
    """Every legal action's value, best first."""
    unit, sign = shown_values(j)
    order = sorted(j.values, key=lambda a: -j.values[a])
    parts = []
    for a in order:
        v, h = j.values[a], j.half_widths[a]
        v = sign * v
        # (a card in its suit's colour; a call as offered, a dealer's steal marked)
        name = _action(j.kind, a, paint) if j.kind == "card" else j.words(a)
        mark = "*" if a == j.chosen else " "
        chance = j.unit in ("P(win)", *GAME_UNITS)
        value = f"{v:.1%}" if chance else f"{v:+.2f}"
        parts.append(
            f"{mark}{name} {value} ±{h * 100:.1f}" if chance else f"{mark}{name} {value} ±{h:.2f}"
        )
    head = f"coach ({unit}, {j.samples:,} {'worlds' if j.kind == 'card' else 'deals'}):"
    return _wrapped([head, *parts], shutil.get_terminal_size((100, 24)).columns)


_ANSI = re.compile(r"\x1b\[[0-9;]*m")


def _wrapped(parts: list[str], width: int) -> str:
    """Join ``parts`` with two spaces, breaking lines only between parts (never inside a
    card's value), measured without colour codes; continuation lines are indented."""
    lines, line, used = [], "", 0
    for part in parts:
        size = len(_ANSI.sub("", part))
        if line and used + 2 + size > width:
            lines.append(line)
            line, used = "    " + part, 4 + size
        else:
            line, used = (line + "  " + part, used + 2 + size) if line else (part, size)
    lines.append(line)
    return "\n".join(lines)


def hand_summary(
    judgements: list[Judgement], hand_no: int, doc: dict, seat: int, rules=None, coach=True
) -> str:
    """The end of a hand: its last trick, who took each point, the game scores, and what
    the person's decisions cost (with the coach on: off, nothing was judged)."""
    mine = [j for j in judgements if j.hand == hand_no]
    lines = hand_end(doc, rules, seat, f"hand {hand_no}")
    if coach:
        lines.append(loss_line(mine, f"your decisions in hand {hand_no}"))
    return "\n".join(lines)


AWARD_WORDS = {
    "high": "High",
    "low": "Low",
    "jack": "Jack",
    "jick": "Jick",
    "high-joker": "High joker",
    "low-joker": "Low joker",
    "ten": "Ten",
    "three": "Three",
    "five": "Five",
    "left-pedro": "Left pedro",  # five=pedro (12.6); "Five" is then the right pedro
    "game": "Game",
}


def award_values(rules) -> dict[str, int]:
    """Each point the rules award, in the order they are counted, and its worth
    (``kernels.score``: the Three is worth 3, the Five 5, every other 1)."""
    from ..kernels.score import AWARD_NAMES, AWARD_VALUES, award_names

    worth = dict(zip(AWARD_NAMES, (int(v) for v in AWARD_VALUES), strict=True))
    return {name: worth[name] for name in award_names(rules)}


def hand_end(doc: dict, rules, seat: int | None, title: str) -> list[str]:
    """A finished hand of a record (any preset), as lines: the pitcher and the contract,
    the last trick, each point and who took it, the points won, the change to the
    scores and the scores now.  ``seat``: the person's (None: --watch, no "you")."""
    n = doc["players"]
    who = [("you" if s == seat else f"seat {s}") for s in range(n)]
    if doc.get("pitcher") is None:
        change = doc.get("round_points") or [0] * n
        text = f"{title}: everybody passed; thrown in"
        if any(change):
            text += f" (the dealer's side scores {min(change)})"
        return [text, f"scores now: {_scores(doc['scores_after'], who, doc)}"]
    pitcher = doc["pitcher"]
    bid = "shot the moon" if doc.get("shoot") else f"bid {doc['bid']}"
    made = "made it" if doc["made"] else "were set" if pitcher == seat else "was set"
    lines = [f"{title}: {who[pitcher]} {bid} in {_suit(doc['trump'])} and {made}"]
    if doc.get("called") is not None:  # 12.1: the call and its holder (none: alone)
        partner = doc.get("partner")
        side = f"{who[partner]} partnered" if partner is not None else "nobody else held it"
        called = format_card(parse_cards(doc["called"], 2)[0])
        lines[0] += f", calling {called} ({side})"
    trick = doc["tricks"][-1] if doc.get("tricks") else None
    if trick is not None:
        shown = [format_card(parse_cards(c, 2)[0]) for c in trick["cards"]]
        cards = trick_cards(trick.get("seats"), shown, n, who)
        lines.append(
            f"last trick ({len(doc['tricks'])}): {who[trick['leader']]} led  {cards}"
            f"  -> {who[trick['winner']]}"
        )
    values = award_values(rules)
    taken = []
    for name, worth in values.items():
        by = doc["points"].get(name)
        shown = AWARD_WORDS[name] + (f" ({worth})" if worth != 1 else "")
        taken.append(f"{shown} {who[by] if by is not None else 'nobody'}")
    lines.append("points: " + ", ".join(taken))
    sides = _sides(doc, who)
    if "game" in values:  # partners pool their counts (0.8): a team's is the sum
        count = doc["game_points"]
        team = lambda s: count[s] + count[s + 2] if doc.get("partnership") else count[s]  # noqa: E731
        lines.append("game counts: " + ", ".join(f"{name} {team(s)}" for s, name in sides))
    won, change = doc["points_won"], doc["round_points"]
    lines.append(
        "points won: "
        + ", ".join(f"{name} {won[s]}" for s, name in sides)
        + "; this hand: "
        + ", ".join(f"{name} {change[s]:+d}" for s, name in sides)
    )
    lines.append(f"scores now: {_scores(doc['scores_after'], who, doc)}")
    return lines


def _sides(doc: dict, who: list[str]) -> list[tuple[int, str]]:
    """Each side as (a seat of it, its name): every seat, or in a partnership the two
    teams (seats 0 and 1 stand for them), named by both their seats: "you+seat 2"."""
    if doc.get("partnership"):
        return [(0, f"{who[0]}+{who[2]}"), (1, f"{who[1]}+{who[3]}")]
    return [(s, who[s]) for s in range(doc["players"])]


def _scores(scores: list[int], who: list[str], doc: dict) -> str:
    return ", ".join(f"{name} {scores[s]}" for s, name in _sides(doc, who))


def _suit(letter: str) -> str:
    """A record's trump letter as a player reads it: "♦ diamonds"."""
    s = "CDHS".index(letter)
    return f"{SUIT_SYMBOLS[s]} {SUIT_NAMES[s]}"


def _count(k: int, what: str) -> str:
    if k == 1:
        return f"{k} {what}"
    return f"{k} {what[:-1]}ies" if what.endswith("y") else f"{k} {what}s"


# The lines of a loss summary, in order: (kind of decision, unit) and the decision's noun.
LOSS_PARTS = (
    ("call", "P(win)", "call"),
    ("trump", "score", "naming of trump"),
    ("card", "points", "card"),
    ("card", "margin", "card"),
    ("card", GAME_UNIT, "card"),
    ("card", NET_GAME_UNIT, "card"),
)


def loss_line(js: list[Judgement], what: str) -> str:
    """What the decisions ``js`` cost, by kind and in each one's unit (a game is judged
    in one preset, so its units never mix within a kind), and their labels."""
    parts = []
    for kind, unit, noun in LOSS_PARTS:
        mine = [j for j in js if j.kind == kind and j.unit == unit]
        if mine or (unit in ("P(win)", "points") and not js):
            loss = sum(j.loss for j in mine)
            word = noun if len(mine) == 1 else noun.replace("naming", "namings") + "s"
            word = word.replace("namings of trumps", "namings of trump")
            parts.append(f"{len(mine)} {word} lost {loss_text(loss, unit)}")
    text = f"{what}: " + ", ".join(parts)
    labelled = [j for j in js if j.label]
    if labelled:
        counts = {
            k: sum(j.label == k for j in labelled) for k in ("blunder", "mistake", "inaccuracy")
        }
        text += "; " + ", ".join(_count(v, k) for k, v in counts.items() if v)
    else:
        text += "; nothing beyond its error"
    return text


def read_line(prompt: str) -> str:
    """``input()``, with a closed or missing stdin (``<&-``) read as the end of the input
    (:class:`EOFError`): the game is then saved unfinished, never forfeited by the person."""
    if sys.stdin is None or sys.stdin.closed:
        raise EOFError
    try:
        return input(prompt)
    except (OSError, ValueError, RuntimeError) as e:  # a stdin closed or lost while read
        raise EOFError from e


# ------------------------------------------------------------------ the game


def person_actions(record: dict, seat: int) -> list[str]:
    """The actions ``seat`` took in a record, in order."""
    return [a["action"] for h in record["hands"] for a in h.get("actions", []) if a["seat"] == seat]


PRACTICE_FIELDS = ("seat", "coach", "judgements")
# Written since the coach valued the call and the put-down; older saves lack it.
NOTE_FIELDS = {"hand": int, "decision": int, "action": str, "after": int, "text": str}
JUDGEMENT_FIELDS = (
    "hand",
    "seat",
    "kind",
    "chosen",
    "best",
    "values",
    "half_widths",
    "loss",
    "error",
    "label",
    "unit",
    "samples",
    "note",
)
# Written since the coach kept the recommendation apart from the best, and (``steal``,
# only where a call steals the bid) since steals were marked; older saves lack them.
JUDGEMENT_EXTRAS = ("recommended", "defending", "steal")


@dataclass(frozen=True)
class Saved:
    """An unfinished practice game read from its save, checked whole (:func:`read_save`)."""

    doc: dict
    rules: object
    players: int
    seed: int
    seat: int
    opponents: str


def read_save(doc: object, name: str) -> Saved:
    """A practice save checked before its game goes on: the record replayed against the
    rules (``table.record``: every field typed and in range, the dealers, every action),
    practice's own fields and the coach's judgements typed, and the game played again by
    the seed and the bots up to the stop, which must give the save exactly (an edited
    seed, deal or bot action is found here, not by a forfeit later).  Any fault is a
    :class:`PracticeError` of one line naming ``name`` and what is wrong."""
    from ..table.bidding import Strategy, StrategyError
    from ..table.game import RECORD_VERSION
    from ..table.record import (
        DealOrderError,
        RecordError,
        _decisions,
        _rules,
        _same,
        call_by_rule,
        put_down_by_rule,
        record_version,
        replay,
    )

    if not isinstance(doc, dict) or "practice" not in doc or "stopped" not in doc:
        raise PracticeError(f"{name} is not an unfinished practice game")
    try:
        replay(doc, strategies=False)
    except DealOrderError as e:  # another pitchsim's deals: not damaged
        raise PracticeError(f"{name}: {e}") from None
    except RecordError as e:
        raise PracticeError(f"{name} is damaged: {e}") from None
    rules = _rules(doc)
    n = doc["players"]

    def bad(what: str) -> PracticeError:
        return PracticeError(f"{name} is damaged: {what}")

    p = doc["practice"]
    for key in p:
        if key not in (*PRACTICE_FIELDS, "notes"):
            raise bad(f"practice: unknown field {quoted(key)}")
    _check_notes(p.get("notes", []), bad)
    for key in PRACTICE_FIELDS:
        if key not in p:
            raise bad(f"practice: {key} is missing")
    seat = p["seat"]
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
        raise bad(f"practice: seat must be a seat 0-{n - 1}, not {quoted(seat)}")
    if not isinstance(p["coach"], bool):
        raise bad(f"practice: coach must be true or false, not {quoted(p['coach'])}")
    seed = doc.get("seed")
    if seed is None:
        raise bad("seed is missing: the bots' decisions follow from it")
    if not _same(doc.get("board"), 0):
        raise bad(f"board is {quoted(doc.get('board'))}: a practice game is board 0")
    names = doc.get("strategies")
    if names is None:
        raise bad("strategies is missing")
    if names[seat] != PERSON:
        raise bad(f"seat {seat} is the person's ({PERSON!r}), not {quoted(names[seat])}")
    others = {s for i, s in enumerate(names) if i != seat}
    if len(others) != 1:
        raise bad(f"the other seats play {len(others)} strategies; practice seats one")
    opponents = others.pop()
    try:
        Strategy.parse(opponents)
    except StrategyError as e:
        raise bad(f"strategies: {e}") from None
    if call_by_rule(doc) and rules.partner != "none":  # version 1: the call by rule
        raise PracticeError(
            f"{name} was saved before the call of a partner's card was a decision "
            "(record version 1, 12.1): it replays (play --replay, review) but cannot "
            "go on"
        )
    if put_down_by_rule(doc, rules):  # an older version's put-downs, pitchsim's then
        clauses = "4.8.7" if rules.rob else "12.2.2, 12.8"
        raise PracticeError(
            f"{name} was saved before the put-down under its rules was a decision "
            f"(record version {doc['version']}, {clauses}): it replays "
            "(play --replay, review) but cannot go on"
        )
    if record_version(doc) != RECORD_VERSION:  # otherwise the game is this version's
        doc = doc | {"version": RECORD_VERSION}
    decisions = [  # the person's decisions with a choice: those the coach judges
        (k, v.phase, act)
        for k, _h, v, act, _scores, _state in _decisions(doc)
        if v is not None and v.seat == seat and judged(v)
    ]
    _check_judgements(p["judgements"], decisions, seat, bad, rules)
    again = _played_again(doc, rules, n, seat, seed, opponents)
    _check_same_game(doc, again, seed, opponents, name, bad)
    return Saved(doc, rules, n, seed, seat, opponents)


PHASES = {"call": "auction", "trump": "trump", "card": "play"}  # a judgement's view's phase


def _check_notes(notes, bad) -> None:
    """The coach's notes on calls and put-downs: a list of objects with exactly
    ``NOTE_FIELDS``, each typed (a note is words to show: its decision is checked
    against the record where it is read, ``stored_notes``)."""
    if not isinstance(notes, list):
        raise bad("practice: notes must be a list")
    for i, note in enumerate(notes, 1):
        if not isinstance(note, dict) or set(note) != set(NOTE_FIELDS):
            raise bad(f"practice: note {i} must have exactly {', '.join(NOTE_FIELDS)}")
        for key, kind in NOTE_FIELDS.items():
            if not isinstance(note[key], kind) or isinstance(note[key], bool):
                raise bad(f"practice: note {i}'s {key} must be {kind.__name__}")


def stored_notes(record: dict, seat: int) -> dict[tuple[int, str], str]:
    """The coach's notes on ``seat``'s calls and put-downs during the game, by (the
    seat's decision count, the action), if the record is a coached practice game of
    that seat's: a review shows them instead of valuing the decisions again."""
    p = record.get("practice")
    if not isinstance(p, dict) or p.get("seat") != seat or not p.get("coach"):
        return {}
    notes = p.get("notes")
    if not isinstance(notes, list):
        return {}
    return {
        (n["decision"], n["action"]): n["text"]
        for n in notes
        if isinstance(n, dict) and isinstance(n.get("decision"), int) and "action" in n
    }


def _check_judgements(js, decisions, seat: int, bad, rules) -> None:
    """The coach's judgements: each typed as ``Judgement`` writes it, and in order, each
    one of the person's decisions that had a choice (a game coached only in part has
    fewer judgements than decisions, never more or others); a card's unit ``rules``'
    preset's (``card_unit``) or one of the game on the hand's, under every preset."""
    if not isinstance(js, list):
        raise bad("practice: judgements must be a list")
    at = 0
    for i, j in enumerate(js, 1):
        where = f"practice: judgement {i}"
        if not isinstance(j, dict):
            raise bad(f"{where} must be an object")
        for key in j:
            if key not in JUDGEMENT_FIELDS + JUDGEMENT_EXTRAS:
                raise bad(f"{where}: unknown field {quoted(key)}")
        for key in JUDGEMENT_FIELDS:
            if key not in j:
                raise bad(f"{where}: {key} is missing")
        for key in ("hand", "seat", "samples"):
            if isinstance(j[key], bool) or not isinstance(j[key], int) or j[key] < 0:
                raise bad(f"{where}: {key} must be a whole number, not {quoted(j[key])}")
        if j["seat"] != seat:
            raise bad(f"{where}: seat {j['seat']} is not the person's seat {seat}")
        if j["kind"] not in ("call", "trump", "card"):
            raise bad(f"{where}: kind must be 'call', 'trump' or 'card', not {quoted(j['kind'])}")
        units = (card_unit(rules), *GAME_UNITS) if j["kind"] == "card" else (UNITS[j["kind"]],)
        if j["unit"] not in units:
            raise bad(f"{where}: unit {quoted(j['unit'])} is not a {j['kind']}'s here")
        for key in ("loss", "error"):
            if not _number(j[key], none=key == "error"):
                raise bad(f"{where}: {key} must be a number, not {quoted(j[key])}")
        for key in ("values", "half_widths"):
            d = j[key]
            if not isinstance(d, dict) or not d:
                raise bad(f"{where}: {key} must map the legal actions to numbers")
            for a, v in d.items():
                if not _number(v, none=key == "half_widths"):
                    raise bad(f"{where}: {key}[{quoted(a)}] is {quoted(v)}, not a number")
        if j["values"].keys() != j["half_widths"].keys():
            raise bad(f"{where}: values and half_widths name different actions")
        for key in ("chosen", "best"):
            if not isinstance(j[key], str) or j[key] not in j["values"]:
                raise bad(f"{where}: {key} {quoted(j[key])} is not one of the actions valued")
        if j["label"] not in (None, "blunder", "mistake", "inaccuracy"):
            raise bad(f"{where}: label {quoted(j['label'])} is not one of the coach's")
        if not isinstance(j["note"], str):
            raise bad(f"{where}: note must be a string, not {quoted(j['note'])}")
        if "recommended" in j and j["recommended"] not in j["values"]:
            raise bad(f"{where}: recommended {quoted(j['recommended'])} is not an action valued")
        if not isinstance(j.get("defending", False), bool) or (
            j.get("defending") and j["kind"] != "card"
        ):
            raise bad(f"{where}: defending must be true or false, and only for a card")
        if "steal" in j and (
            j["kind"] != "call" or not isinstance(j["steal"], str) or j["steal"] not in j["values"]
        ):
            raise bad(f"{where}: steal {quoted(j['steal'])} is not one of the calls valued")
        mine = (j["hand"], PHASES[j["kind"]], j["chosen"])
        while at < len(decisions) and decisions[at] != mine:
            at += 1
        if at == len(decisions):
            raise bad(
                f"{where} judges {j['chosen']} in hand {j['hand']}, which is not a decision "
                "of the person's in the game (or not in its order)"
            )
        at += 1


def judgement_of(j: dict) -> Judgement:
    """A judgement as a save holds it (checked by :func:`read_save`): an interval too
    few samples left undefined is written null, and read back as NaN, as it was made."""
    nan = float("nan")
    return Judgement(
        **{
            **j,
            "error": nan if j["error"] is None else j["error"],
            "half_widths": {a: nan if v is None else v for a, v in j["half_widths"].items()},
        }
    )


def _number(v, none: bool = False) -> bool:
    if v is None:
        return none
    return not isinstance(v, bool) and isinstance(v, int | float) and math.isfinite(v)


class _Replayed:
    """The person's saved actions, given back in order; at their end the person stops
    again, for the same reason."""

    name = PERSON

    def __init__(self, actions: list[str], reason: str):
        self.actions = list(actions)
        self.reason = reason

    def call(self, view: View) -> str:
        return self._next()

    def play(self, view: View) -> str:
        return self._next()

    def _next(self) -> str:
        if not self.actions:
            raise StopGame(self.reason)
        return self.actions.pop(0)


def _played_again(doc: dict, rules, n: int, seat: int, seed: int, opponents: str) -> dict:
    seats: list = [opponents] * n
    seats[seat] = _Replayed(person_actions(doc, seat), doc["stopped"])
    names = [opponents] * n
    names[seat] = PERSON
    return play_table_game(seats, rules, seed, 0, names)


def _check_same_game(doc: dict, again: dict, seed: int, opponents: str, name: str, bad) -> None:
    """The first place where the game the seed and the bots play differs from the save."""
    from ..table.record import DealOrderError, RecordError, _same, check_seed_deal

    for k, (mine, real) in enumerate(zip(doc["hands"], again["hands"], strict=False), 1):
        try:
            check_seed_deal(doc, k, mine, real, seed)
        except DealOrderError as e:  # another pitchsim's deals: not damaged
            raise PracticeError(f"{name}: {e}") from None
        except RecordError as e:
            raise bad(str(e)) from None
        for i, (a, b) in enumerate(zip(mine["actions"], real["actions"], strict=False), 1):
            if a != b:
                raise bad(
                    f"hand {k}: action {i} is {a['action']} by seat {a['seat']}, but with "
                    f"seed {seed} seat {b['seat']} ({opponents}) answers {b['action']}"
                )
        if len(mine["actions"]) != len(real["actions"]):
            raise bad(
                f"hand {k} has {len(mine['actions'])} actions, but the game seed {seed} "
                f"deals has {len(real['actions'])} there by the person's stop"
            )
    if len(doc["hands"]) != len(again["hands"]):
        raise bad(
            f"the save has {len(doc['hands'])} hands, but with seed {seed} the game "
            f"stops in hand {len(again['hands'])}"
        )
    mine = {k: v for k, v in doc.items() if k != "practice"}
    if "deal_order" not in mine:  # a save from before records named it, its deals checked
        again = {k: v for k, v in again.items() if k != "deal_order"}
    for key in mine.keys() | again.keys():
        if not _same(mine.get(key), again.get(key)):
            raise bad(
                f"{key} is {quoted(mine.get(key))}, but the game gives {quoted(again.get(key))}"
            )


def check_seat(seat: int, players: int) -> None:
    if not 0 <= seat < players:
        raise PracticeError(f"seat must be 0-{players - 1}, not {seat}")


def practice(
    players: int,
    seat: int,
    strategy: str,
    rules,
    seed: int,
    *,
    coach: bool = True,
    read: Callable[[str], str] = input,
    write: Callable[[str], None] = print,
    colour: bool = False,
    resume: dict | None = None,
    watch: bool = False,
    samples: int = COACH_SAMPLES,
    worlds: int = COACH_WORLDS,
    time: float | None = COACH_TIME,
) -> tuple[dict, list[Judgement]]:
    """Play one game; the record (finished, or stopped by the person) and the coach's
    judgements of the person's decisions."""
    check_seat(seat, players)
    state = PracticeState(seat)
    if resume is not None:  # the coach's judgements and notes before the stop
        state.judgements = [judgement_of(j) for j in resume["practice"]["judgements"]]
        state.notes = list(resume["practice"].get("notes", []))
    scripted = person_actions(resume, seat) if resume is not None else None
    if watch:
        seats = [strategy] * players
        names = [strategy] * players
    else:
        person = PersonSeat(
            state, seed, read, write, coach, colour, scripted, samples, worlds, time
        )
        seats = [strategy] * players
        seats[seat] = person
        names = [strategy] * players
        names[seat] = PERSON

    shown = {"hand": 0}

    def on_hand(doc: dict) -> None:
        shown["hand"] += 1
        if watch:
            write(render_hand(doc, rules))
        elif scripted is None or not person.scripted:
            write(hand_summary(state.judgements, shown["hand"], doc, seat, rules, coach))

    record = play_table_game(seats, rules, seed, 0, names, on_hand=on_hand)
    record["practice"] = {
        "seat": seat,
        "coach": coach,
        "judgements": [j.to_json() for j in state.judgements],
        "notes": state.notes,
    }
    return record, state.judgements


def render_hand(doc: dict, rules) -> str:
    """A hand bots played, for --watch: the deal, the calls, every trick, the end."""
    calls = doc.get("calls")
    if calls is None:  # the base record writes its calls as bids (null a pass)
        calls = ["pass" if b is None else str(b) for b in doc["bids"]]
    n = doc["players"]
    order = [(doc["dealer"] + 1 + i) % n for i in range(len(calls))]
    said = ", ".join(f"seat {s} {c}" for s, c in zip(order, calls, strict=True))
    lines = ["-" * 60, f"dealer seat {doc['dealer']}; calls: {said}"]
    trump = SUITS.index(doc["trump"]) if doc.get("trump") else None
    for s, h in enumerate(doc.get("held") or doc["hands"]):
        cards = hand_order([parse_cards(c, 2)[0] for c in h], trump, rules)
        lines.append(f"  seat {s}: {' '.join(format_card(c) for c in cards)}")
    if doc.get("kitty"):  # 12.2.2 (--watch: every card is shown)
        took, down = (
            " ".join(format_card(parse_cards(c, 2)[0]) for c in doc["kitty"][k])
            for k in ("taken", "put_down")
        )
        lines.append(f"  seat {doc['pitcher']} took the kitty {took}, put down {down}")
    seat_words = [f"seat {s}" for s in range(n)]
    for k, t in enumerate(doc["tricks"][:-1], 1):
        shown = [format_card(parse_cards(c, 2)[0]) for c in t["cards"]]
        cards = trick_cards(t.get("seats"), shown, n, seat_words)
        lines.append(f"  trick {k}: seat {t['leader']} led  {cards}  -> seat {t['winner']}")
    lines.extend(hand_end(doc, rules, None, "the hand"))
    return "\n".join(lines)


def use_colour(stream=sys.stdout) -> bool:
    return stream.isatty() and not os.environ.get("NO_COLOR")


__all__ = [
    "practice",
    "PersonSeat",
    "read_choice",
    "render_view",
    "hand_order",
    "checked_action",
]
