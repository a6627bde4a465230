"""Seats that decide one decision from a view: built-in strategies (the kernels, asked
for a single seat) and anything with ``call(view)`` / ``play(view)``.

A built-in strategy decides from a :class:`~pitchsim.game.view.View` exactly as the game
kernel decides inside a game: the same policy kernel (``choose_bid``, ``choose_card``),
given the same view arrays, at the same random-stream position (a key and a counter).
The table (``games.table``) passes the game's own deal key, so a game of built-in seats
played decision by decision is the kernel's game; the engine (``pitchsim engine``),
which has no game, derives the key from its seed and the view (:func:`view_key`): the
same view gives the same answer.

A view under a preset's rules (smear, setback, ten-point, auction-pitch with a preset's
option: any but the plain base game, ``rules.base_game``) is decided by the family
kernels (``games.family_seat``),
the same way: the family game kernel's own policies at its own stream positions.  Its
decisions are the calls (``"shoot"`` included), the pitcher's naming of trump
(``"trump:H"``) and the cards.  As a seat object (:meth:`KernelSeat.call`,
:meth:`KernelSeat.play`) a built-in strategy draws each decision from its ``seed`` and
the view, as the engine does.

A bidding policy may plan the suit it will lead if it wins the auction (the kernels
keep it; it is never shown to the table).  The table remembers it for the seat; a
stateless caller recovers it by asking the same question again (:func:`planned_trump`).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from ..game.cards import format_card, suit_cards
from ..game.reference import PASS
from ..game.rules import R_PARTNERSHIP, Rules, label
from ..game.view import View, call_text, card_text
from ..kernels.dispatch import choose_bid, choose_card
from ..kernels.policies import HEURISTIC, KIND_MASK, ROLLOUT, WORLDS_SHIFT
from ..kernels.rng import AUCTION_COUNTER, DECISION_COUNTER, deal_key, draw
from ..kernels.search.monte_carlo import (
    DOUBLE_DUMMY,
    PLAY_NODES,
    card_outcomes,
    choose_by_outcomes,
    decision_stream,
    sample_view_worlds,
    value_worlds,
)
from ..kernels.search.monte_carlo import ROLLOUT as ROLLOUT_EVAL
from ..util.jsonio import dumps_json
from .advisor_clock import timed_advisor_call
from .bidding import SeatArrays, Strategy, advisor_params, seat_arrays
from .clock import ALL_DONE, POINTS, Clock, Separation, Valuation, value_on_clock
from .family_seat import family_decide
from .policies import seat_planes

KEY_BITS = 62


def view_key(seed: int, view: View) -> np.uint64:
    """The random stream of a decision the engine makes: a hash of the seed and the view
    (its history, not the ``legal`` list a table may add), so the same view and seed give
    the same answer, and different views independent ones.  A preset's view is hashed
    with its rules as ``label`` writes them (``smear``, ``smear,target=15``), not as the
    complete rule string it is written with: an option added to the complete rules
    leaves a preset's answers as they were."""
    doc = view.to_json()
    doc.pop("legal")
    if not view.rules.base_game:
        doc["rules"] = label(view.rules)
    text = dumps_json(doc, indent=None, separators=(",", ":"), sort_keys=True)
    h = int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "little")
    return np.uint64(deal_key(seed, h & ((1 << KEY_BITS) - 1)))


@lru_cache(maxsize=64)
def _arrays(strategy: Strategy, players: int, rules: Rules, samples: int | None = None):
    a = seat_arrays([strategy] * players, rules)
    if samples is not None and strategy.bidding == "advisor":
        a = SeatArrays(a.bidding, a.play, a.odds, advisor_params(a.params, samples=samples))
    return a


@dataclass(frozen=True)
class Decision:
    action: str  # "pass", "2", "KS"
    values: dict[str, float] | None = None  # per legal action, when the strategy has them
    plan: int = -1  # a call's planned trump suit (-1: none)
    # a search on a clock: {"worlds": valued, "worlds_max": wanted, "stop": why}
    search: dict | None = None


class KernelSeat:
    """A built-in strategy (``odds+heuristic``, ``advisor+rollout``, ...) as a seat, for
    a view of the base game or of any preset.  ``seed``: the
    seed of :meth:`call` and :meth:`play`'s streams (with the view, as the engine's)."""

    def __init__(
        self,
        strategy: str | Strategy,
        samples: int | None = None,
        time: float | None = None,
        seed: int = 0,
    ):
        self.strategy = strategy if isinstance(strategy, Strategy) else Strategy.parse(strategy)
        self.name = self.strategy.name
        self.samples = samples  # the advisor's deals per call (None: its default)
        self.time = time  # seconds a search play decision or advisor call may take (None: none)
        self.seed = seed

    def call(self, view: View) -> str:
        """The seat's call, or as the pitcher under trump=named the trump it names
        (``"trump:H"``), from the stream of ``seed`` and the view."""
        if view.phase not in ("auction", "trump"):
            raise ValueError(f"seat {view.seat} has no call to make: the phase is {view.phase}")
        return self._answer(view)

    def play(self, view: View) -> str:
        """The seat's card, from the stream of ``seed`` and the view."""
        if view.phase != "play":
            raise ValueError(f"seat {view.seat} has no card to play: the phase is {view.phase}")
        return self._answer(view)

    def _answer(self, view: View) -> str:
        def key_of(v):
            return view_key(self.seed, v)

        plan = -1
        base = view.rules.base_game  # the base kernels plan the lead
        if base and view.phase == "play" and view.trump is None:
            plan = planned_trump(self, view, key_of, self.time)
        return self.decide(view, key_of(view), plan).action

    def decide(
        self,
        view: View,
        key: np.uint64,
        plan: int = -1,
        values: bool = False,
        time: float | None = None,
    ) -> Decision:
        """The seat's decision at ``view`` (its turn), drawing from stream ``key``.
        ``plan`` is the suit its winning call planned (the opening lead only; a family
        view has none: its kernels plan no lead).  ``time`` (else the seat's own): the
        seconds a search play policy or the ``advisor`` bidding policy may take; it then
        values its worlds (``games.clock``) or plays its deals (``games.advisor_clock``)
        on a clock and may stop early, and says how (``Decision.search``).  Under a
        family a strategy the family kernels do not play is refused in one line
        (``StrategyError``)."""
        if view.to_move != view.seat:
            raise ValueError(f"it is not seat {view.seat}'s turn")
        budget = self.time if time is None else time
        if True:  # a preset's rules: the family kernels
            d = family_decide(self.strategy, view, key, values, budget)
            return Decision(d.action, d.values, -1, d.search)
        a = _arrays(self.strategy, view.players, view.rules, self.samples)
        if view.phase == "auction":
            if budget is not None and self.strategy.bidding == "advisor":
                return _timed_bid(a, view, key, budget)
            call, suit = _bid(a, view, key)
            return Decision(call_text(call), None, suit if call != PASS else -1)
        return _card(a, view, key, plan, values, budget)


def _bid_args(view: View) -> tuple:
    """``choose_bid``'s arguments after the policy, up to the stream: the seat's view."""
    n = view.players
    i = len(view.calls)
    calls = np.zeros(n, dtype=np.int64)
    calls[:i] = view.calls
    high = max(view.calls, default=PASS)
    high_seat = -1
    for j, b in enumerate(view.calls):
        if b != PASS:
            high_seat = view.caller(j)
    legal = view.legal_calls()
    bids = [b for b in legal if b != PASS]
    return (
        np.int64(view.hand_mask),
        view.seat,
        n,
        view.dealer,
        calls,
        i,
        high,
        high_seat,
        min(bids),
        PASS in legal,
        np.array(view.seat_scores(), dtype=np.int64),
        view.rules.to_array(),
    )


def _bid(a, view: View, key) -> tuple[int, int]:
    args = _bid_args(view)
    call, trump = choose_bid(
        a.bidding[view.seat], *args, a.odds, a.params, np.uint64(key), AUCTION_COUNTER + args[5]
    )
    call = int(call)
    legal = view.legal_calls()
    if call not in legal:  # a kernel bug, never the table's problem to paper over
        raise RuntimeError(f"the bidding policy called {call}, not one of {legal}")
    return call, int(trump)


def _timed_bid(a, view: View, key, budget: float) -> Decision:
    """The advisor's call within ``budget`` seconds (``games.advisor_clock``)."""
    args = _bid_args(view)
    t = timed_advisor_call(
        *args, a.odds, a.params, np.uint64(key), AUCTION_COUNTER + args[5], budget
    )
    if t.call not in view.legal_calls():
        raise RuntimeError(f"the advisor called {t.call}, not one of {view.legal_calls()}")
    return Decision(call_text(t.call), None, t.trump if t.call != PASS else -1, t.search)


def play_args(view: View, plan: int = -1):
    """The kernels' play-policy view (``kernels.policies``) of the seat to move, from the
    view alone; ``plan`` restricts the pitcher's opening lead to his planned suit."""
    n = view.players
    complete = view.complete_tricks
    cur = view.current_trick
    trick = np.zeros(8, dtype=np.int64)
    trick[: len(cur.cards)] = cur.cards
    played = 0
    for t in complete:
        for c in t.cards:
            played |= 1 << c
    won = np.zeros(8, dtype=np.int64)
    won[:n] = view.won
    legal = view.legal_cards()
    trump = view.trump if view.trump is not None else plan
    if view.trump is None and plan >= 0 and view.held & suit_cards(plan):
        legal &= suit_cards(plan)  # as kernels.hand.opening_lead_cards
    return (
        legal,
        view.held,
        view.seat,
        n,
        view.pitcher,
        view.bid,
        trump,
        len(complete),
        trick,
        len(cur.cards),
        cur.leader,
        played,
        won,
        seat_planes(view.played_by),
        view.voids,
        view.rules.to_array(),
    )


def _card(a, view: View, key, plan: int, want_values: bool, time: float | None = None) -> Decision:
    args = play_args(view, plan)
    # The plan narrows a pitcher's opening lead to its suit; values still cover every
    # legal card (the others valued as leads naming their own suit, in the same worlds).
    wide = play_args(view) if want_values and args[0] != view.legal_cards() else None
    policy = a.play[view.seat]
    counter = DECISION_COUNTER + args[7] * view.players + args[9]
    kind = int(policy) & KIND_MASK
    many = (wide or args)[0]
    if time is not None and kind >= ROLLOUT and many & (many - 1):
        worlds = int(policy) >> WORLDS_SHIFT
        return _timed_card(kind, worlds, args, key, counter, time, view, want_values, wide)
    card = int(choose_card(policy, *args, np.uint64(key), counter))
    if not args[0] >> card & 1:
        raise RuntimeError(f"the play policy played {format_card(card, False)}, not a legal card")
    values = None
    if want_values and kind >= ROLLOUT and many & (many - 1):
        worlds = int(policy) >> WORLDS_SHIFT
        values = {} if wide is None else _search_values(kind, worlds, wide, key, counter, -1)
        if args[0] & (args[0] - 1):  # the numbers the card was chosen on (the same)
            values.update(_search_values(kind, worlds, args, key, counter, card))
    return Decision(card_text(card), values)


def _search_values(kind, worlds, args, key, counter, card) -> dict[str, float]:
    """Per legal card, the pitcher's side's mean points over the search's own worlds: the
    numbers ``search_card`` ranks the cards by (the same worlds and evaluator).  ``card``
    (-1: none) is the card the search chose, checked against the values."""
    legal = args[0]
    out = np.empty((legal.bit_count(), worlds), dtype=np.int64)
    evaluator = ROLLOUT_EVAL if kind == ROLLOUT else DOUBLE_DUMMY
    # The key search_card draws (uint64: a Python int past 2**63 cannot be passed as is).
    stream = np.uint64(draw(np.uint64(key), counter))
    # The same solver budget as search_card's, so the same worlds are kept.
    cards, kept, _ = card_outcomes(evaluator, worlds, *args, stream, out, False, PLAY_NODES)
    if kept == 0:
        return {}
    if card >= 0:  # the values must be the ones the choice was made on
        prior = int(choose_card(HEURISTIC, *args, np.uint64(key), counter))
        seat, pitcher, rules = args[2], args[4], args[15]
        partnership = rules[R_PARTNERSHIP] != 0
        our_side = (seat ^ pitcher) & 1 == 0 if partnership else seat == pitcher
        if int(choose_by_outcomes(cards, out, kept, our_side, args[5], prior)) != card:
            raise RuntimeError("search values disagree with the search's card")
    return {card_text(int(c)): float(out[j, :kept].mean()) for j, c in enumerate(cards)}


class _Rows:
    """A stopping rule fed only some cards' rows (the plan's, of every legal card's)."""

    def __init__(self, rule: Separation, rows: np.ndarray):
        self.rule, self.rows = rule, rows

    def add(self, points) -> None:
        self.rule.add(np.asarray(points)[self.rows])

    def separated(self) -> bool:
        return self.rule.separated()


def _timed_card(
    kind, worlds, args, key, counter, time, view: View, want_values, wide=None
) -> Decision:
    """A search policy's card on a clock: the worlds ``search_card`` would value, valued a
    few at a time until ``time`` seconds are spent, all are valued, or the recommended card
    is separated (``games.clock``).  With all valued it is ``search_card``'s card.
    ``wide``: every legal card's arguments where the plan narrows ``args`` (the opening
    lead): all are valued in each world, the card chosen and the stop judged among the
    plan's."""
    clock = Clock(time)
    legal, hand, seat, n, pitcher, bid, trump = (wide or args)[:7]
    trick_no, trick, trick_len, leader, played, won, who, voids, rules = args[7:]
    cards = np.array([c for c in range(52) if legal >> c & 1], dtype=np.int64)
    rows = np.array([j for j, c in enumerate(cards) if args[0] >> int(c) & 1], dtype=np.int64)
    prior = int(choose_card(HEURISTIC, *args, np.uint64(key), counter))
    our_side = view.rules.team(seat) == view.rules.team(pitcher)
    worlds_arr = np.empty((worlds, n), dtype=np.int64)
    played_by = np.empty(n, dtype=np.int64)
    stream = np.uint64(decision_stream(np.uint64(key), counter))
    kept, _ = sample_view_worlds(
        stream,
        hand,
        seat,
        n,
        trick_no,
        trick,
        trick_len,
        leader,
        played,
        who,
        voids,
        worlds_arr,
        played_by,
    )
    if kept == 0:
        search = {"worlds": 0, "worlds_max": worlds, "stop": ALL_DONE}
        return Decision(card_text(prior), None, -1, search)
    evaluator = ROLLOUT_EVAL if kind == ROLLOUT else DOUBLE_DUMMY

    def value(lo: int, hi: int, nodes: int) -> tuple[np.ndarray, int]:
        out = np.empty((cards.size, hi - lo), dtype=np.int64)
        done, searched = value_worlds(
            evaluator,
            worlds_arr[lo:hi],
            played_by,
            n,
            pitcher,
            bid,
            trump,
            trick_no,
            trick,
            trick_len,
            leader,
            played,
            won,
            rules,
            cards,
            out,
            nodes,
        )
        return out[:, :done], int(searched)

    index = int(np.flatnonzero(cards[rows] == prior)[0]) if prior in cards[rows] else -1
    rule = Separation(rows.size, our_side, bid, POINTS, index)
    if rows.size == 1:  # the plan leaves one card: nothing to separate, the values go on
        rule = None
    elif rows.size < cards.size:
        rule = _Rows(rule, rows)
    acc = Valuation(np.empty((cards.size, kept), dtype=np.int64))
    # pimc's worlds carry a node budget: one the clock stops is dropped, and with none
    # solved in time the seat plays its prior (heuristic's card), as with no world at all.
    value_on_clock(value, kept, clock, acc, rule, budgeted=kind != ROLLOUT)
    out = acc.outcomes()
    search = {"worlds": int(out.shape[1]), "worlds_max": worlds, "stop": acc.stop or ALL_DONE}
    if acc.dropped:
        search["worlds_dropped"] = acc.dropped
    if out.shape[1] == 0:
        return Decision(card_text(prior), None, -1, search)
    card = int(choose_by_outcomes(cards[rows], out[rows], out.shape[1], our_side, bid, prior))
    values = None
    if want_values:
        values = {card_text(int(c)): float(out[j].mean()) for j, c in enumerate(cards)}
    return Decision(card_text(card), values, -1, search)


def planned_trump(seat: KernelSeat, view: View, key_of, time: float | None = None) -> int:
    """The suit ``seat``'s winning call planned, recovered by asking its bidding policy
    the same question again (``key_of(view)`` gives a view's stream; ``time``: the
    advisor's budget, as ``decide``'s).  -1 when the pitcher is not this strategy's call
    (the policy would now call otherwise: an advisor on a clock may, having played
    another number of deals).  The base game's alone, where the first card names trump:
    its cut back to the auction keeps a preset's later fields (a named trump, a kitty:
    12.2.2), which the view loader refuses there; no preset plans a lead."""
    i = max(j for j, c in enumerate(view.calls) if c != PASS)
    doc = view.to_json()
    doc["calls"] = doc["calls"][:i]
    doc.update(pitcher=None, bid=None, trump=None, tricks=[], legal=None)
    before = View.from_json(doc)
    d = seat.decide(before, key_of(before), time=time)
    return d.plan if d.action == call_text(view.calls[i]) else -1
