"""Which card now, under a rule family: every legal card of a seat's family view
(``game.family_view``) valued by the family rollout (``kernels.families.rollout``).

The seat's *knowledge* (``family_knowledge``) is read off the view in the form the family
world sampler takes (``kernels.families.worlds``): the cards it holds, the cards it knows
are out of play (its own discards and put-downs, every trump burnt face up), who played
what, the voids shown by effective suit (under follow=only: every seat out holds no
trump), each seat's hand size now and, for a seat other than the robbing pitcher, how
many cards the pitcher put down face down (its trumps among them are unseen: a hidden
trump may be in a hand or face down).  Worlds are dealt from it uniformly; in each, every
legal card is played and the hand finished by the family ``heuristic`` at every seat, on
the *same* worlds for every card, then scored and settled (``score``, ``settle``).

The value of a card: the seat's side's score change on the hand minus the mean change of
the other sides, in points (made: the pitcher's side scores its points; set: minus the
bid; every other side its own points) -- the family rollout's objective.  The
recommended card has the highest total over the worlds valued (ties to the card
``heuristic`` plays), as the rollout play policy chooses.

The worlds do not fit the calls heard (no family auction model for rejection yet): they
fit the play seen and the draw only.  The clock, the blocks of worlds and the stopping
rule are the base hint's (``search.hint``, ``games.clock``): block b of ``BLOCK`` worlds
from the stream (seed, b), so the answer depends only on the seed and the number of
worlds valued.  The stopping rule tests the values by betting with the bound below.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np

from ..game.cards import format_card
from ..game.family_view import FamilyView
from ..game.rules import label
from ..games.clock import (
    ALL_DONE,
    CLOCK,
    Clock,
    Separation,
    Valuation,
    check_time,
    value_on_clock,
    warmed,
)
from ..games.family_seat import (  # the seat's knowledge: shared with the built-in seat
    FamilyKnowledge,
    family_knowledge,
    trick_over,  # noqa: F401  (cli/hint.py reads it here)
)
from ..games.family_seat import heuristic_prior as _prior
from ..games.family_seat import rollout_valuer as _value
from ..games.family_seat import shifted as _shifted
from ..games.family_seat import value_span as _span
from ..kernels.families.rollout import rollout_points
from ..kernels.families.score import side_of
from ..kernels.families.solver import family_world_values, new_family_table
from ..kernels.families.worlds import (
    ATTEMPTS_PER_WORLD,
    family_constraint,
    sample_family_worlds,
)
from ..kernels.rng import deal_key
from ..util.errors import quoted
from ..util.runtime import pick_seed
from ..util.stats import mean_half_width, too_few
from .hint import (
    BLOCK,
    DEFAULT_WORLDS,
    MAX_WORLDS,
    AuctionFit,
    Decision,
    Hint,
    HintError,
    _search,
    _summarise,
)

POLICIES = ("rollout", "pimc")
OBJECTIVE = (
    "your side's score change on this hand minus the mean change of the other sides, "
    "in points (made: the pitcher's side scores its points; set: minus the bid)"
)


# ---------------------------------------------------------------- the answer


@dataclass(frozen=True)
class FamilyCardHint:
    card: int
    value: float  # the objective's mean (see the module), in points
    value_ci95: tuple[float, float] | None  # None: too few worlds for an interval
    vs_best: tuple[float, float | None]  # mean minus the recommended card's, 95% half-width


@dataclass(frozen=True)
class FamilyHint:
    rules: str  # the family and its options, as ``label`` writes them
    seat: int
    pitcher: int
    pitcher_side: bool
    bid: int
    shoot: bool
    trump: int  # -1: not fixed yet (the first lead fixes it)
    policy: str
    worlds: int
    attempts: int
    seed: int
    cards: list[FamilyCardHint]
    recommended: int
    stop: str
    asked: int
    ties: tuple[int, ...]
    seconds: float
    worlds_max: int
    time: float | None
    default_policy: bool
    warm: tuple[float, bool] = (0.0, False)

    @property
    def varies(self) -> bool:
        return self.stop == CLOCK

    @property
    def dropped(self) -> bool:
        """The base hint's "a world under way was left unsolved at the clock": never here,
        a rollout chunk is valued whole (cli/hint.py's stop line reads it)."""
        return False

    def to_json(self) -> dict:
        def card(c: FamilyCardHint) -> dict:
            return {
                "card": format_card(c.card, symbols=False),
                "value": c.value,
                "value_ci95": None if c.value_ci95 is None else list(c.value_ci95),
                "value_vs_recommended": list(c.vs_best),
            }

        return {
            "rules": self.rules,
            "to_play": self.seat,
            "pitcher": self.pitcher,
            "pitcher_side": self.pitcher_side,
            "bid": self.bid,
            "shoot": self.shoot,
            "trump": "CDHS"[self.trump] if self.trump >= 0 else None,
            "policy": self.policy,
            "objective": OBJECTIVE,
            "worlds": self.worlds,
            "worlds_max": self.worlds_max,
            "stop": self.stop,
            "same_answer_with_worlds": self.asked,
            "time_budget": self.time,
            "default_policy": self.default_policy,
            "ties": [format_card(c, symbols=False) for c in self.ties],
            "attempts": self.attempts,
            "seed": self.seed,
            "worlds_fit_calls": False,
            "recommended": format_card(self.recommended, symbols=False),
            "cards": [card(c) for c in self.cards],
        }


def check_family_policy(policy: str | None) -> str:
    """The play policy under a preset: rollout (the default) or pimc."""
    if policy is None:
        return "rollout"
    if policy not in POLICIES:
        raise HintError(f"--policy must be one of {', '.join(POLICIES)}, not {quoted(policy)}")
    return policy


def check_card_decision(view: FamilyView) -> None:
    """Refuse, in one line, a view whose seat has no card to play."""
    fam = view.rules.family
    if view.phase == "auction":
        raise HintError(
            f"the auction is on (seat {view.to_move} to call): hint values cards; for a "
            f"call ask `pitchsim bid-odds --rules {fam}` with the hand"
        )
    if view.phase == "trump":
        raise HintError(
            f"seat {view.pitcher} names trump: hint values cards; for the trump ask "
            f"`pitchsim bid-odds --rules {fam}` with the hand (its best suit)"
        )
    if view.phase == "over":
        raise HintError("the hand is over: nobody is to play")
    if view.phase == "thrown-in":
        raise HintError("everybody passed: the hand was thrown in")
    if view.to_move != view.seat:
        raise HintError(f"it is seat {view.to_move}'s turn to play, not seat {view.seat}'s")


class _Sampler:
    """Block b of the worlds (``BLOCK``, the last fewer) from stream (seed, b), drawn when
    first asked for: every seat's cards now, ``world[seat]`` the hand, then the pile put
    down face down (``kernels.families.worlds``)."""

    def __init__(self, k: FamilyKnowledge, seed: int, worlds: int):
        self.k = k
        self.seed = seed
        self.worlds = worlds
        self.sizes = [min(BLOCK, worlds - b * BLOCK) for b in range(math.ceil(worlds / BLOCK))]
        self.allowed = np.empty(k.n + 1, dtype=np.int64)
        self.unseen, self.must = family_constraint(
            k.n, k.seat, np.int64(k.hand), np.int64(k.known_out), k.pby, np.int64(k.voids),
            k.counts, k.trump, k.fr, k.tab, self.allowed,
        )  # fmt: skip
        self.drawn: dict[int, np.ndarray] = {}
        self.attempts = 0

    def draw(self, b: int, size: int) -> tuple[np.ndarray, int]:
        k = self.k
        worlds = np.empty((size, k.n + 1), dtype=np.int64)
        kept, tried = sample_family_worlds(
            np.uint64(deal_key(self.seed, b)), k.n, k.seat, np.int64(k.hand), self.unseen,
            k.counts, self.allowed, self.must, worlds, ATTEMPTS_PER_WORLD * size,
        )  # fmt: skip
        return worlds[:kept], tried

    def block(self, b: int) -> np.ndarray:
        if b not in self.drawn:
            worlds, tried = self.draw(b, self.sizes[b])
            self.attempts += tried
            self.drawn[b] = worlds
        return self.drawn[b]


def family_worlds(view: FamilyView, count: int, seed: int) -> np.ndarray:
    """The first ``count`` (<= ``BLOCK``) worlds ``family_hint`` values with ``seed``:
    ``worlds[w, seat]`` every seat's cards now, ``worlds[w, n]`` the cards the pitcher put
    down face down that the seat has not seen (0 when none must be placed).  For checking
    and for the curious."""
    k = family_knowledge(view)
    return _Sampler(k, seed, count).block(0)


def family_hint(
    view: FamilyView,
    policy: str | None = None,
    worlds: int = DEFAULT_WORLDS,
    seed: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    time: float | None = None,
    separate: bool = False,
) -> FamilyHint:
    """Value every legal card of the view's seat (see the module).  ``time``: a budget in
    seconds (None: no clock); ``separate``: stop once the recommended card is separated."""
    chosen = policy is None
    policy = check_family_policy(policy)
    if isinstance(worlds, bool) or not isinstance(worlds, int) or not 1 <= worlds <= MAX_WORLDS:
        raise HintError(f"worlds must be 1-{MAX_WORLDS:,}, not {quoted(worlds)}")
    time = check_time(time)
    check_card_decision(view)
    seed = pick_seed(seed)
    k = family_knowledge(view)
    cards = np.array([c for c in range(54) if k.legal >> c & 1], dtype=np.int64)
    sampler = _Sampler(k, seed, worlds)
    if policy == "pimc":
        return _pimc(view, k, cards, sampler, progress, time, separate, chosen)
    span = _span(k, view.rules.max_bid)

    def warm_up() -> None:
        _prior(k)
        w, _ = sampler.draw(0, 0)
        _value(k, w, cards)(0, 0)

    warm = warmed(warm_up)
    clock = Clock(time)
    prior = _prior(k)
    index = int(np.flatnonzero(cards == prior)[0]) if prior in cards else -1
    acc = Valuation(np.empty((cards.size, worlds), dtype=np.int64))
    rule = None
    if separate and cards.size > 1:
        # bid 0: one test, on the values; shifted to be >= 0 (Separation's "bid made" is
        # then every world, alike for every card)
        rule = Separation(cards.size, True, 0, span, index)
    shift = 2 * view.rules.max_bid * k.others
    total = sampler.worlds
    shown = 0

    def step(done: int) -> None:
        nonlocal shown
        if progress:
            progress(done - shown, total)
        shown = done

    asked = 0
    for b, size in enumerate(sampler.sizes):
        if acc.valued and clock.left() <= 0:
            acc.stop = CLOCK
            break
        w = sampler.block(b)
        before = acc.valued
        value = _value(k, w, cards)
        if rule is not None:
            value = _shifted(value, shift)
        value_on_clock(value, w.shape[0], clock, acc, rule, step)
        if acc.stop is not None:
            asked += acc.valued - before
            break
        asked += size
    out = acc.outcomes() - (0 if rule is None else shift)
    kept = out.shape[1]
    if kept == 0:
        raise HintError(
            f"no deal of the hidden cards fits what seat {view.seat} has seen "
            f"({sampler.attempts:,} tried)"
        )
    stop = acc.stop or ALL_DONE
    ties: tuple[int, ...] = ()
    if rule is not None and stop != CLOCK and acc.stop is not None:
        ties = tuple(int(cards[j]) for j in rule.ties(rule.best()))
    sums = out.sum(axis=1)
    top = sums.max()
    best_j = index if index >= 0 and sums[index] == top else int(np.flatnonzero(sums == top)[0])
    scale = k.others
    hints = []
    for j, c in enumerate(cards):
        v = out[j] / scale
        d = (out[j] - out[best_j]) / scale
        if too_few(kept):
            ci, dhalf = None, None
        else:
            mean, half = mean_half_width(v)
            ci = (mean - half, mean + half)
            dhalf = mean_half_width(d)[1]
        hints.append(FamilyCardHint(int(c), float(v.mean()), ci, (float(d.mean()), dhalf)))
    r = view.rules
    return FamilyHint(
        label(r),
        view.seat,
        view.pitcher,
        side_of(view.seat, k.fr) == side_of(view.pitcher, k.fr),
        view.bid,
        view.shoot,
        k.trump,
        policy,
        kept,
        sampler.attempts,
        seed,
        hints,
        int(cards[best_j]),
        stop,
        asked,
        ties,
        clock.spent(),
        worlds,
        time,
        chosen,
        warm,
    )


# ---------------------------------------------------------------- pimc


def pimc_decision(k: FamilyKnowledge, max_points: int, cards: np.ndarray, table) -> Decision:
    """The decision as the base game's search (``search.hint``) values it, under any
    preset: every legal card of ``cards`` in each world (a block of ``_Sampler``), by
    ``pimc`` the family double-dummy solver (``kernels.families.solver``, its
    transposition ``table`` kept across calls), by ``rollout`` the family heuristic
    playing on; either way the pitcher's side's points (0.9: made when they reach the
    bid)."""
    leader = int(k.tseats[0]) if k.count else k.seat

    def valuer(policy: str, worlds: np.ndarray):
        def value(lo: int, hi: int, nodes: int = 0) -> tuple[np.ndarray, int]:
            out = np.empty((cards.size, hi - lo), dtype=np.int64)
            if policy == "rollout":
                rollout_points(
                    worlds[lo:hi], cards, k.seat, k.n, k.pitcher, k.trump, k.trick_no,
                    k.trick, k.tseats, k.count, np.int64(k.played), k.won, k.pby, k.fr,
                    k.tab, out,
                )  # fmt: skip
                return out, 0
            done, searched = family_world_values(
                worlds[lo:hi], k.pby, k.n, k.pitcher, k.trump, leader, k.trick, k.count,
                k.won, k.fr, k.tab, table, cards, out, nodes,
            )  # fmt: skip
            return out[:, :done], int(searched)

        return value, worlds.shape[0]

    our = side_of(k.seat, k.fr) == side_of(k.pitcher, k.fr)
    return Decision(cards, _prior(k), bool(our), k.bid, max_points, valuer)


CALLS_NOT_FITTED = "the worlds fit the play and the draw seen, not the calls heard"


def _pimc(view, k, cards, sampler, progress, time, separate, chosen) -> Hint:
    """``family_hint`` by pimc: the base game's search and answer (``search.hint``: the
    clock, the node budget, the fallback to rollout, the stopping rule) on the family's
    worlds, solver and points."""
    r = view.rules
    d = pimc_decision(k, r.max_bid, cards, new_family_table())

    def warm_up() -> None:
        w, _ = sampler.draw(0, 0)
        for policy in POLICIES:
            d.valuer(policy, w)[0](0, 0)

    warm = warmed(warm_up)
    found = _search("pimc", sampler, d, Clock(time), separate, progress)
    fit = AuctionFit(None, False, 0, 0, CALLS_NOT_FITTED)
    h = _summarise(
        found, sampler.attempts, d, view.seat, view.pitcher, view.bid, k.trump, "pimc",
        sampler.seed, fit,
    )  # fmt: skip
    return replace(
        h,
        worlds_max=sampler.worlds,
        time=time,
        default_policy=chosen,
        warm=warm,
        rules=label(r),
        shoot=view.shoot,
    )
