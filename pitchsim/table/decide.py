"""A built-in strategy's decision at a view (``game.view``) under any preset,
auction-pitch included, asked of the kernels (``pitchsim.kernels``) for one seat.

A decision is made as the game kernel (``kernels.game``) makes it inside
a game, from what the seat knows, at the same random-stream position (the deal's key and
a counter): a call by the seat's bidding policy (``bidding.choose_call``, counter
``AUCTION_COUNTER`` + the calling position), the pitcher's trump by its bidding policy
(``bidding.name_suit``, ``AUCTION_COUNTER + NAME_COUNTER``), his partner's card
(12.1) by pitchsim's call, the highest trump he lacks, as the kernels call it (no
random draw), a card by its play policy
(``policies.choose_card``, or the search ``rollout.search_card``; counter
``DECISION_COUNTER`` + trick * players + the seat's place from the trick's leader).  So a
game of built-in seats asked decision by decision with the game's own keys is the game
the kernels play for that board; the engine, which has no game, passes a key from its
seed and the view (``seats.view_key``).

The seat's *knowledge* at a card (``view_knowledge``) is read off the view in the
form the world sampler takes (``kernels.search.worlds``): the cards it holds,
the cards it knows are out of play (its own discards and put-downs, every trump burnt
face up, the robber's put-down shown face up: 12.7, 12.9), who played what, the voids shown by effective suit (under follow=only: every
seat out holds no trump), each seat's hand size now and, for a seat other than the
robber, how many cards the robber put down face down.  ``search.hint``
reads the same knowledge (it sits above this layer and imports it from here).

A search card (``rollout:W``, ``pimc:W``) can also give every legal card's value, the
numbers it chose by: rollout's the mean over the search's own worlds of the seat's
side's score change on the hand less the mean change of the other sides, in points;
pimc's the mean double-dummy points of the pitcher's side (the base game's values: the
pitcher's side prefers them high, the defenders low, the chance of the bid first).  It
can be played on a clock (``table.clock``): the same worlds valued a few at a time
until the time is spent, all are valued (then it is the card without a clock), or the
recommended card is separated; pimc's worlds carry a node budget (``PLAY_NODES``
without a clock, as in a game), and with none solved the seat plays ``heuristic``'s
card, as the kernel does.  ``epimc:W`` gives pimc's kind of values, its worlds valued
together (the seat's next card shared by the worlds it cannot tell apart), so it reads
no clock: the game's node budget bounds it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from time import perf_counter

import numpy as np

from ..game import reference as F
from ..game.cards import format_card, mask_of, parse_cards
from ..game.rules import Rules, label
from ..game.view import (
    DRAW_ACTION,
    SHOOT,
    View,
    card_text,
    parse_call,
    partner_call_text,
    put_down_text,
    trump_text,
)
from ..kernels.advisor import (
    ADVISOR_PLAY,
    DEFAULT_SAMPLES,
    advisor_bid,
    advisor_model,
    pitchable_suits,
)
from ..kernels.bidding.calls import NAME_COUNTER, choose_call, legal_calls, name_suit
from ..kernels.policies.cards import choose_card, heuristic_card
from ..kernels.presets import F_MAX_BID, rest_of_game, rules_array, rules_table
from ..kernels.rng import AUCTION_COUNTER, DECISION_COUNTER, draw
from ..kernels.score import side_of
from ..kernels.search.epimc import epimc_outcomes
from ..kernels.search.play_fit import read_worlds
from ..kernels.search.rollout import (
    EPIMC,
    KIND_MASK,
    PIMC,
    PLAY_NODES,
    READ_SHIFT,
    ROLLOUT,
    WORLDS_MASK,
    WORLDS_SHIFT,
    pimc_outcomes,
    rollout_outcomes,
    search_card,
)
from ..kernels.search.worlds import (
    ATTEMPTS_PER_WORLD,
    partner_constraint,
    sample_worlds,
    world_constraint,
)
from ..util.errors import quoted
from .advisor_clock import PresetKernels, timed_advisor_call
from .bidding import Strategy, StrategyError
from .boards import (
    BIDDING_IDS,
    GAME_BIDDERS,
    PLAY_NAMES,
    SEARCH_PLAY,
    odds_for,
    strategy_for,
)
from .clock import ALL_DONE, Clock, Separation, Valuation, side_choice, value_on_clock
from .policies import play_policy, seen_arrays

MIN_LEFT = 1e-3  # seconds the card gets at the opening lead when the plan took them all


@dataclass(frozen=True)
class SeatKnowledge:
    """The kernel arguments of one seat's card decision (see the module)."""

    legal: int
    hand: int
    seat: int
    n: int
    pitcher: int
    bid: int
    trump: int  # -1: the first lead fixes it (trump=first-lead)
    trick_no: int
    trick: np.ndarray  # (n) the current trick's cards
    tseats: np.ndarray  # (n) who played them
    count: int
    played: int  # the cards of the complete tricks
    won: np.ndarray  # (n) cards won per seat
    pby: np.ndarray  # (n) cards played per seat (the current trick included)
    voids: int  # bit 4 * seat + effective suit
    counts: np.ndarray  # (n + 1) cards held now, then the pile put down unseen
    known_out: int
    drawn_back: np.ndarray  # (n) the discards seen that each seat may have drawn back
    fr: np.ndarray
    tab: np.ndarray
    # Under a called partner (12.1; ``worlds.partner_constraint``): the card called (-1:
    # none), the partner as the seat knows him (-1: unknown) and the seats that played
    # another card to trick 1.
    called: int = -1
    partner: int = -1
    trick1: int = 0
    # The play seen, as the kernels take it (``policies.seen_arrays``): each trick's cards
    # in order, their seats and how many (read by a search that reads the play).
    seen: tuple = ()

    def constraint(self) -> tuple[int, np.ndarray, int]:
        """(unseen, allowed, must) of the seat's worlds: ``worlds.world_constraint``,
        then what a called partner tells it (``partner_constraint``)."""
        allowed = np.empty(self.n + 1, dtype=np.int64)
        unseen, must = world_constraint(
            self.n, self.seat, np.int64(self.hand), np.int64(self.known_out),
            self.drawn_back, self.pby, np.int64(self.voids), self.counts, self.trump, self.fr,
            self.tab, allowed,
        )  # fmt: skip
        must = partner_constraint(
            self.n, self.pitcher, self.called, self.partner, np.int64(self.trick1), self.fr,
            unseen, allowed, must,
        )  # fmt: skip
        return int(unseen), allowed, int(must)

    @property
    def our_side(self) -> bool:
        """Whether the seat is on the pitcher's side: by ``side_of``, or under a called
        partner the pitcher and a partner who knows he is one (12.1.10: he holds the
        card or played it), the same in every world the seat imagines."""
        if self.called < 0:
            return bool(side_of(self.seat, self.fr) == side_of(self.pitcher, self.fr))
        return self.seat == self.pitcher or self.partner == self.seat

    @property
    def others(self) -> int:
        """Seats on other sides than the seat's: the scale of the rollout's values."""
        return sum(side_of(s, self.fr) != side_of(self.seat, self.fr) for s in range(self.n))


def _mask(cards) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def view_knowledge(view: View) -> SeatKnowledge:
    """The seat's knowledge (see the module) at its card decision, a called partner's
    evidence included (12.1.10: ``partner_evidence``)."""
    r, n, me = view.preset, view.players, view.seat
    trump = -1 if view.trump is None else view.trump
    complete = view.complete_tricks
    current = view.tricks[-1] if view.open_trick else None
    played = 0
    won = np.zeros(n, dtype=np.int64)
    for t in complete:
        taken = _mask(t.cards)
        played |= taken
        won[t.seats[F.trick_winner(t.cards, trump, r)]] |= taken
    pby = np.zeros(n, dtype=np.int64)
    plays = [0] * n
    for t in view.tricks:
        for s, c in zip(t.seats, t.cards, strict=True):
            pby[s] |= 1 << c
            plays[s] += 1
    trick = np.zeros(n, dtype=np.int64)
    tseats = np.zeros(n, dtype=np.int64)
    count = 0
    if current is not None:
        count = len(current.cards)
        trick[:count] = current.cards
        tseats[:count] = current.seats
    voids = view.voids
    if r.follow == "only" and trump >= 0:
        for s in view.out:  # 4.9: a seat out holds no trump
            voids |= 1 << (4 * s + trump)
    burnt = 0
    for d in view.draws:
        burnt |= _mask(d.burnt)
    mine = _mask(view.hand) | _mask(view.drawn) | _mask(view.robbed) | _mask(view.kitty)
    held = _mask(view.kept)
    shown_down = _mask(view.put_down_shown)  # the robber's put-down face up (12.7, 12.9)
    known_out = (mine & ~held & ~view.junk_lost) | burnt | view.shown_out | shown_down
    # The robber's put-down face down is a count to the others; the robber knows its cards.
    # (under kitty=N the pitcher took the kitty and put down face down, 12.2.2)
    robber = view.pitcher if r.kitty else r.robber(view.pitcher, view.dealer)
    down = view.put_down_count - len(view.put_down_shown) if me != robber else 0
    counts = np.array([view.sizes[s] - plays[s] for s in range(n)] + [down], dtype=np.int64)
    legal = _mask(parse_cards(" ".join(view.legal()), r.jokers))
    return SeatKnowledge(
        legal,
        view.held,
        me,
        n,
        view.pitcher,
        view.bid,
        trump,
        len(complete),
        trick,
        tseats,
        count,
        played,
        won,
        pby,
        voids,
        counts,
        known_out,
        np.array(view.drawn_back or (0,) * n, dtype=np.int64),
        rest_of_game(rules_array(r), view.hands_played),  # 12.4
        rules_table(r),
        *partner_evidence(view),
        seen_arrays([(t.cards, t.seats) for t in view.tricks], n),
    )


def partner_evidence(view: View) -> tuple[int, int, int]:
    """``SeatKnowledge``'s called-partner fields at ``view`` (12.1): the card called,
    the partner as the seat knows him (-1: unknown) and the seats that played another
    card to trick 1 (under called its holder plays it there, 12.1.3)."""
    r = view.preset
    if r.partner == "none" or view.called < 0:
        return -1, -1, 0
    trick1 = 0
    if r.partner == "called" and view.tricks:
        first = view.tricks[0]
        for s, c in zip(first.seats, first.cards, strict=True):
            if c != view.called:
                trick1 |= 1 << s
    partner = -1 if view.partner is None else view.partner
    return view.called, partner, trick1


def trick_over(view: View, t) -> bool:
    """The trick is over: every seat not out played to it.  Only the last may be open,
    and the view's replay says whether it is (under follow=only the seats out are
    skipped, so it is over unless the seat to move still plays to it)."""
    return not (view.open_trick and t is view.tricks[-1])


def heuristic_prior(k: SeatKnowledge) -> int:
    """The card ``heuristic`` plays: a search's tie-break and its answer with no world."""
    return int(
        heuristic_card(
            np.int64(k.legal), np.int64(k.hand), k.seat, k.n, k.pitcher, k.trump, k.trick_no,
            k.trick, k.tseats, k.count, np.int64(k.played), k.fr, k.tab,
        )
    )  # fmt: skip


def rollout_valuer(k: SeatKnowledge, worlds: np.ndarray, cards: np.ndarray):
    """``value(lo, hi, nodes)`` -> (``out[j, w]``, 0): card j in worlds lo..hi (scaled by
    ``others``), as :func:`~pitchsim.table.clock.value_on_clock` asks; a rollout searches
    no solver nodes, so ``nodes`` (a solver budget) is unused and every world is done."""

    def value(lo: int, hi: int, nodes: int = 0) -> tuple[np.ndarray, int]:
        out = np.empty((cards.size, hi - lo), dtype=np.int64)
        rollout_outcomes(
            worlds[lo:hi], np.int64(k.legal), k.seat, k.n, k.pitcher, k.bid, k.trump,
            k.trick_no, k.trick, k.tseats, k.count, np.int64(k.played), k.won, k.pby,
            k.fr, k.tab, out, k.called,
        )  # fmt: skip
        return out, 0

    return value


def shifted(value, shift: int):
    """``value`` with every outcome raised by ``shift`` (the separation rule wants >= 0)."""

    def raised(lo: int, hi: int, nodes: int = 0) -> tuple[np.ndarray, int]:
        out, searched = value(lo, hi, nodes)
        return out + shift, searched

    return raised


def value_span(k: SeatKnowledge, max_points: int) -> int:
    """A bound on the difference of two cards' scaled values in one world.  With M the
    points the family awards (its maximum bid), the seat's change less the others' mean
    lies in [-2M, M] on the pitcher's side (set: -bid less at most M won by the others;
    made: at most M in all) and in [-M, 2M] defending: an interval 3M wide, the same
    for every card of the decision."""
    return 3 * max_points * k.others


def value_shift(k: SeatKnowledge, max_points: int) -> int:
    """What raises every scaled value to at least 0 (the low end of ``value_span``'s
    interval is -2M)."""
    return 2 * max_points * k.others


# ---------------------------------------------------------------- the decisions


@dataclass(frozen=True)
class SeatDecision:
    action: str  # "pass", "5", "shoot", "trump:H", "KS", "HJ"
    values: dict[str, float] | None = None  # per legal card, a search's
    search: dict | None = None  # on a clock: {"worlds": valued, "worlds_max": W, "stop": why}
    plan: int = -1  # an advisor's call: the trump it plans (never shown to the table)


def checked_strategy(strategy: Strategy, rules: Rules) -> Strategy:
    """``strategy`` if the family kernels play it under ``rules``, else
    one line (``StrategyError``) saying what they play.  An ``odds`` bidder bids at
    every table: its rows are shipped or made at its first call (``odds_rows``)."""
    try:
        s = strategy_for(strategy, rules)
    except StrategyError:
        if rules.hands_limit and strategy.bidding in GAME_BIDDERS:
            raise  # its own reason: the game has no target under hands=N (12.4)
        play = ", ".join(p + ("[:W]" if p in SEARCH_PLAY else "") for p in PLAY_NAMES)
        raise StrategyError(
            f"strategy {quoted(strategy.name)} is not one of the built-in strategies under "
            f"{label(rules)}: there bidding is {', '.join(BIDDING_IDS)} and play is "
            f"{play}"
        ) from None
    return s


@lru_cache(maxsize=32)
def _odds(bidding: str, rules: Rules, players: int):
    return odds_for([Strategy(bidding, "heuristic")], rules, players)


@lru_cache(maxsize=32)
def _tables(rules: Rules) -> tuple[np.ndarray, np.ndarray]:
    return rules_array(rules), rules_table(rules)


def decide_at(
    strategy: Strategy,
    view: View,
    key: np.uint64,
    values: bool = False,
    time: float | None = None,
    samples: int | None = None,
) -> SeatDecision:
    """``strategy``'s decision at ``view`` (its seat's turn), drawing from stream
    ``key`` at the family game kernel's counters (see the module).  ``values``: a search
    card also gives every legal card's value; ``time``: seconds a search card or the
    advisor's call may take (``table.clock``, ``table.advisor_clock``); ``samples``: the
    advisor's deals per call (None: ``DEFAULT_SAMPLES``, the game kernel's)."""
    if view.to_move != view.seat:
        raise ValueError(f"it is not seat {view.seat}'s turn")
    s = checked_strategy(strategy, view.preset)
    ask = _Advisor(samples, time)
    if view.phase == "auction":
        return _call(s, view, key, ask)
    if view.phase == "trump":
        return _trump(s, view, key, ask)
    if view.phase == "call":  # 12.1: every strategy calls pitchsim's card
        return SeatDecision(pitchsims_call(view))
    if view.phase == "put_down":  # 12.2.2, 12.8.1: every strategy puts down pitchsim's
        return SeatDecision(pitchsims_put_down(view))
    return _card(s, view, key, values, time, ask)


def pitchsims_call(view: View) -> str:
    """pitchsim's call of a partner's card at ``view`` (12.1.2, 12.1.4), as the kernels
    call it: the highest trump the pitcher lacks, in his hand as it is at the call."""
    return partner_call_text(F.highest_missing_trump(view.held, view.trump, view.preset))


def pitchsims_put_down(view: View) -> str:
    """pitchsim's put-down of one card at ``view`` (12.2.2, 12.8.1, 12.8.3), as the
    kernels come down to 6: the first of ``come_down`` of the hand the seat holds now;
    putting down to draw (12.8.2), the first of ``draw_discard``, or ``"draw"`` once
    that rule puts down no more."""
    held, r = mask_of(view.kept), view.preset
    card = F.pitchsims_put_down(held, view.trump, r, view.called, view.drawing)
    return DRAW_ACTION if card is None else put_down_text(card)


@dataclass
class _Advisor:
    """How the advisor is asked at this decision: its deals, its clock, and what the
    clock allowed at the last ask (``search``)."""

    samples: int | None = None
    time: float | None = None
    search: dict | None = None


def _call(s: Strategy, view: View, key, ask: _Advisor) -> SeatDecision:
    r, n = view.preset, view.players
    plan = -1
    legal = _legal(view)
    if s.bidding == "advisor":
        call, plan = _advisor(view, key, len(view.calls), ask)
    else:
        fr, tab = _tables(r)
        odds, defender = _odds(s.bidding, r, n)
        high, high_seat = _high(view, len(view.calls))
        call = int(
            choose_call(
                BIDDING_IDS[s.bidding], np.int64(mask_of(view.hand)), view.seat, n,
                view.dealer, np.int64(high), high_seat, np.int64(legal),
                np.array(view.seat_scores(), dtype=np.int64), fr, tab, odds, defender,
                np.uint64(key), AUCTION_COUNTER + len(view.calls),
            )
        )  # fmt: skip
    if not legal >> call & 1:  # a kernel bug, never the table's problem to paper over
        raise RuntimeError(f"the bidding policy called {call}, not one of {view.legal()}")
    if call == F.PASS:
        return SeatDecision("pass", search=ask.search)
    action = SHOOT if call == F.shoot_call(r) else str(call)
    return SeatDecision(action, search=ask.search, plan=plan)


def _legal(view: View) -> int:
    legal = 0
    for a in view.legal():
        legal |= 1 << parse_call(a, "a legal call", view.preset)
    return legal


def _high(view: View, i: int) -> tuple[int, int]:
    """The high call among the first ``i`` calls heard and its seat (-1: none)."""
    high, high_seat = F.PASS, -1
    for j, c in enumerate(view.calls[:i]):
        if c != F.PASS:
            high, high_seat = max(high, c), view.caller(j)  # every bid beats or steals
    return high, high_seat


def _advisor(view: View, key, i: int, ask: _Advisor) -> tuple[int, int]:
    """The advisor's (call, planned trump) at the view's seat's call, number ``i`` from
    the dealer's left, as the family game kernel asks it (``advisor_bid``), with
    ``ask.samples`` deals; on a clock (``ask.time``) the same deals found and played a
    round at a time (``advisor_clock``), what the clock allowed kept in ``ask.search``."""
    r, n = view.preset, view.players
    fr, tab = _tables(r)
    fr = rest_of_game(fr, view.hands_played)  # 12.4: P(win) over the hands left
    odds, defender = _odds("advisor", r, n)
    high, high_seat = _high(view, i)
    scores = np.array(view.seat_scores(), dtype=np.int64)
    calls = np.array([*view.calls[:i], *[-1] * (n - i)], dtype=np.int64)
    legal = legal_calls(np.int64(high), view.seat == view.dealer, scores[view.seat] >= 0, fr)
    hand = np.int64(mask_of(view.hand))
    samples = DEFAULT_SAMPLES if ask.samples is None else ask.samples
    counter = AUCTION_COUNTER + i
    if ask.time is None:
        call, plan = advisor_bid(
            hand, view.seat, n, view.dealer, calls, i, np.int64(legal), scores, fr, tab, odds,
            defender, np.uint64(key), counter, samples,
        )  # fmt: skip
        return int(call), int(plan)
    model = int(advisor_model(defender))
    k = PresetKernels(
        seed=int(draw(np.uint64(key), counter) >> np.uint64(2)),  # as advisor_bid
        n=n,
        seat=view.seat,
        hand=hand,
        dealer=view.dealer,
        heard=np.array(view.calls[:i], dtype=np.int64),
        scores=scores,
        bidders=np.full(n, model, dtype=np.int64),
        players=np.full(n, ADVISOR_PLAY, dtype=np.int64),
        fr=fr,
        tab=tab,
        odds=odds,
        defender=defender,
        candidates=np.array([c for c in range(64) if legal >> c & 1], dtype=np.int64),
        suit_mask=int(pitchable_suits(hand, fr, tab)),
        max_bid=int(fr[F_MAX_BID]),
    )
    t = timed_advisor_call(k, samples, ask.time)
    ask.search = t.search
    if t.call is None:  # too few deals in the time: the model's call, as the kernel's
        call = choose_call(
            model, hand, view.seat, n, view.dealer, np.int64(high), high_seat, np.int64(legal),
            scores, fr, tab, odds, defender, np.uint64(key), counter,
        )  # fmt: skip
        return int(call), -1
    return t.call, t.trump


def _pitcher_plan(s: Strategy, view: View, key, ask: _Advisor) -> int:
    """The trump the view's seat, the pitcher, planned with its winning call: the
    advisor's (-1: none, or another bidder), asked again as it was then (on the clock
    of this decision: an unclocked ask could play many deals)."""
    if s.bidding != "advisor" or view.pitcher != view.seat:
        return -1
    i = max(j for j, c in enumerate(view.calls) if c != F.PASS)  # the pitcher's call
    call, plan = _advisor(view, key, i, ask)
    return plan if call == view.calls[i] else -1


def _trump(s: Strategy, view: View, key, ask: _Advisor) -> SeatDecision:
    plan = _pitcher_plan(s, view, key, ask)
    if plan >= 0:
        return SeatDecision(trump_text(plan), search=ask.search)
    fr, tab = _tables(view.preset)
    suit = int(
        name_suit(
            BIDDING_IDS[s.bidding], np.int64(mask_of(view.hand)), view.players, fr,
            tab, np.uint64(key), AUCTION_COUNTER + NAME_COUNTER,
        )
    )  # fmt: skip
    return SeatDecision(trump_text(suit), search=ask.search)


def card_counter(k: SeatKnowledge) -> int:
    """The kernel's counter of this card: the trick, then the seat's place from its leader
    (seats out under follow=only keep their places)."""
    place = (k.seat - k.tseats[0]) % k.n if k.count else 0
    return DECISION_COUNTER + k.trick_no * k.n + int(place)


def _card(s: Strategy, view: View, key, want_values: bool, time: float | None, ask: _Advisor):
    k = view_knowledge(view)
    policy = play_policy(s.play)
    if k.trump < 0 and k.trick_no == 0 and k.count == 0:  # trump=first-lead's first card
        start = perf_counter()
        plan = _pitcher_plan(s, view, key, ask)
        if time is not None:  # the plan was asked on this clock: the card gets what it left
            time = max(time - (perf_counter() - start), MIN_LEFT)
        suit = k.hand & (0x1FFF << (13 * plan)) if plan >= 0 else 0
        if suit:  # the advisor leads in the trump it planned (as the kernel, see the module):
            # its play policy's card among that suit's (``policies.opening_lead_in``)
            card = int(
                choose_card(
                    policy.id & KIND_MASK, np.int64(suit), np.int64(k.hand), k.seat, k.n,
                    k.pitcher, k.bid, np.int64(plan), k.trick_no, k.trick, k.tseats, k.count,
                    np.int64(k.played), k.won, k.fr, k.tab, np.uint64(key), card_counter(k),
                )
            )  # fmt: skip
            return SeatDecision(card_text(card))
    counter = card_counter(k)
    several = k.legal & (k.legal - 1) != 0
    kind = policy.id & KIND_MASK
    if kind >= ROLLOUT and several:
        worlds = policy.id >> WORLDS_SHIFT  # (with the bit that reads the play)
        if time is not None or want_values:
            max_points = view.preset.max_bid
            if kind == PIMC:
                return _pimc_card(k, key, counter, worlds, max_points, want_values, time)
            if kind == EPIMC:
                return _epimc_card(k, key, counter, worlds, want_values, time)
            return _valued_card(k, key, counter, worlds, max_points, want_values, time)
        card = kernel_search_card(k, kind, key, counter, worlds)
    else:
        card = int(
            choose_card(
                policy.id & KIND_MASK, np.int64(k.legal), np.int64(k.hand), k.seat, k.n,
                k.pitcher, k.bid, k.trump, k.trick_no, k.trick, k.tseats, k.count,
                np.int64(k.played), k.won, k.fr, k.tab, np.uint64(key), counter,
            )
        )  # fmt: skip
    if not k.legal >> card & 1:
        raise RuntimeError(f"the play policy played {format_card(card, False)}, not a legal card")
    return SeatDecision(card_text(card))


def kernel_search_card(k: SeatKnowledge, kind: int, key, counter: int, worlds: int) -> int:
    """The card of the search kernel (``rollout.search_card``: ``kind`` ``ROLLOUT`` or
    ``PIMC``, ``worlds`` worlds) at this decision, as the play loop's search seat plays it."""
    return int(
        search_card(
            kind, None if kind == ROLLOUT else True, np.int64(k.legal), np.int64(k.hand), k.seat,
            k.n, k.pitcher, k.bid, k.trump, k.trick_no, k.trick, k.tseats, k.count,
            np.int64(k.played), k.won, k.pby, np.int64(k.voids), k.counts, np.int64(k.known_out),
            k.drawn_back, k.fr, k.tab, np.uint64(key), counter, worlds, k.called, k.partner,
            *k.seen,
        )
    )  # fmt: skip


def search_worlds(k: SeatKnowledge, key, counter: int, worlds: int) -> np.ndarray:
    """The worlds ``search_card`` values for this decision (the same stream, the same
    attempts; ``worlds`` with the bit that reads the play, ``READ_SHIFT``):
    ``worlds[w, seat]`` every seat's cards now, ``[w, n]`` the pile."""
    unseen, allowed, must = k.constraint()
    reads = worlds >> READ_SHIFT & 1
    worlds &= WORLDS_MASK
    out = np.empty((worlds, k.n + 1), dtype=np.int64)
    stream = np.uint64(draw(np.uint64(key), counter))
    if reads:
        kept = read_worlds(
            stream, k.n, k.seat, np.int64(k.hand), np.int64(unseen), k.counts, allowed,
            np.int64(must), out, k.pby, *k.seen, k.trump, k.pitcher, k.called, k.fr, k.tab,
        )  # fmt: skip
    else:
        kept, _ = sample_worlds(
            stream, k.n, k.seat, np.int64(k.hand), np.int64(unseen), k.counts, allowed,
            np.int64(must), out, ATTEMPTS_PER_WORLD * worlds,
        )  # fmt: skip
    return out[:kept]


def _valued_card(k, key, counter, worlds, max_points, want_values, time) -> SeatDecision:
    """The rollout's card with its values, or on a clock (``time``): its own worlds
    valued a few at a time (``table.clock``) until the time is spent, all are valued (the
    card is then ``search_card``'s) or the recommended card is separated (the test of
    ``search.hint``: on the values, every one raised to at least 0)."""
    w = search_worlds(k, key, counter, worlds)
    cards = np.array([c for c in range(54) if k.legal >> c & 1], dtype=np.int64)
    prior = heuristic_prior(k)
    search = None
    if w.shape[0] == 0:
        if time is not None:
            search = {"worlds": 0, "worlds_max": worlds & WORLDS_MASK, "stop": ALL_DONE}
        return SeatDecision(card_text(prior), None, search)
    index = int(np.flatnonzero(cards == prior)[0])
    value = rollout_valuer(k, w, cards)
    if time is None:
        out, _ = value(0, w.shape[0])
    else:
        shift = value_shift(k, max_points)
        rule = Separation(cards.size, True, 0, value_span(k, max_points), index)
        acc = Valuation(np.empty((cards.size, w.shape[0]), dtype=np.int64))
        value_on_clock(shifted(value, shift), w.shape[0], Clock(time), acc, rule)
        out = acc.outcomes() - shift
        search = {
            "worlds": int(out.shape[1]),
            "worlds_max": worlds & WORLDS_MASK,
            "stop": acc.stop or ALL_DONE,
        }
    sums = out.sum(axis=1)
    top = sums.max()
    best = index if sums[index] == top else int(np.flatnonzero(sums == top)[0])
    card = int(cards[best])
    vals = None
    if want_values:
        vals = {card_text(int(c)): float(out[j].mean()) / k.others for j, c in enumerate(cards)}
    return SeatDecision(card_text(card), vals, search)


def pimc_valuer(k: SeatKnowledge, worlds: np.ndarray, cards: np.ndarray):
    """``value(lo, hi, nodes)`` -> (``out[j, w]``, card j's double-dummy points for the
    pitcher's side in worlds lo..lo + done; solver nodes searched), ``nodes`` a solver
    budget (0: none) that stops at the first world it does not finish (``table.clock``)."""

    def value(lo: int, hi: int, nodes: int = 0) -> tuple[np.ndarray, int]:
        out = np.empty((cards.size, hi - lo), dtype=np.int64)
        done, searched = pimc_outcomes(
            worlds[lo:hi], cards, k.seat, k.n, k.pitcher, k.trump, k.trick, k.tseats,
            k.count, k.won, k.pby, k.fr, k.tab, out, nodes, k.called,
        )  # fmt: skip
        return out[:, :done], int(searched)

    return value


def epimc_valuer(k: SeatKnowledge, worlds: np.ndarray, cards: np.ndarray):
    """``value(lo, hi, nodes)`` as ``pimc_valuer``'s, by epimc (``kernels.search.epimc``):
    worlds lo..hi are valued together (the seat's next card one for those of them it
    cannot tell apart), so a world's value depends on the worlds valued with it."""

    def value(lo: int, hi: int, nodes: int = 0) -> tuple[np.ndarray, int]:
        out = np.empty((cards.size, hi - lo), dtype=np.int64)
        done, searched = epimc_outcomes(
            worlds[lo:hi], cards, k.seat, k.n, k.pitcher, k.bid, k.our_side, k.trump,
            k.trick_no, k.trick, k.tseats, k.count, np.int64(k.played), k.won, k.pby, k.fr,
            k.tab, out, nodes, k.called, False,
        )  # fmt: skip
        return out[:, :done], int(searched)

    return value


def _epimc_card(k, key, counter, worlds, want_values, time) -> SeatDecision:
    """epimc's card with its values (the pitcher's side's mean points after each card,
    the seat's next card shared by the worlds it cannot tell apart).  Its worlds are
    valued together, not a few at a time, so a clock is not read: the game's node budget
    (``PLAY_NODES``) bounds it, and the card is ``search_card``'s."""
    w = search_worlds(k, key, counter, worlds)
    cards = np.array([c for c in range(54) if k.legal >> c & 1], dtype=np.int64)
    prior = heuristic_prior(k)
    index = int(np.flatnonzero(cards == prior)[0])
    out, _ = epimc_valuer(k, w, cards)(0, w.shape[0], PLAY_NODES)
    search = None
    if time is not None:
        search = {"worlds": int(out.shape[1]), "worlds_max": worlds & WORLDS_MASK, "stop": ALL_DONE}
    if out.shape[1] == 0:
        return SeatDecision(card_text(prior), None, search)
    card = int(cards[side_choice(out, k.our_side, k.bid, index)])
    vals = None
    if want_values:
        vals = {card_text(int(c)): float(out[j].mean()) for j, c in enumerate(cards)}
    return SeatDecision(card_text(card), vals, search)


def _pimc_card(k, key, counter, worlds, max_points, want_values, time) -> SeatDecision:
    """pimc's card with its values (the pitcher's side's mean points), or on a clock: the
    worlds of ``search_card`` solved a few at a time, each call on a node budget, until
    the time is spent, all are solved or the recommended card is separated.  Without a
    clock the budget is the game's (``PLAY_NODES``), so the card is ``search_card``'s."""
    w = search_worlds(k, key, counter, worlds)
    cards = np.array([c for c in range(54) if k.legal >> c & 1], dtype=np.int64)
    prior = heuristic_prior(k)
    index = int(np.flatnonzero(cards == prior)[0])
    our = k.our_side
    value = pimc_valuer(k, w, cards)
    search = None
    if time is None:
        out, _ = value(0, w.shape[0], PLAY_NODES)
    else:
        rule = Separation(cards.size, our, k.bid, max_points, index)
        acc = Valuation(np.empty((cards.size, w.shape[0]), dtype=np.int64))
        value_on_clock(value, w.shape[0], Clock(time), acc, rule, budgeted=True)
        out = acc.outcomes()
        search = {
            "worlds": int(out.shape[1]),
            "worlds_max": worlds & WORLDS_MASK,
            "stop": acc.stop or ALL_DONE,
        }
        if acc.dropped:
            search["worlds_dropped"] = acc.dropped
    if out.shape[1] == 0:  # no world drawn, or none solved in the budget
        return SeatDecision(card_text(prior), None, search)
    card = int(cards[side_choice(out, our, k.bid, index)])
    vals = None
    if want_values:
        vals = {card_text(int(c)): float(out[j].mean()) for j, c in enumerate(cards)}
    return SeatDecision(card_text(card), vals, search)
