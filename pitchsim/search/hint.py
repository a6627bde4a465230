"""Which card now?  Every legal card of the player to move, valued by search play, under
every preset (auction-pitch, the base game, among them) on the one engine's kernels.

``hint_view(view, ...)`` looks at a player's view only (``pitchsim.game.view``: what one
seat knows at the table).  The seat's *knowledge* (``table.decide``) is read off
the view and worlds are dealt from it uniformly (``kernels.search.worlds``): they fit
the play and the draw seen, and the cards put down face down are in no hand.  With a
bidding model (``model``: random, heuristic, odds or odds-game, the preset kernels'
bidders) they also fit the calls heard, by rejection (``_FittedSampler``: every
other caller's hand as dealt, its cards now and those it played, makes his call, and
another pitcher names the trump named, or under trump=first-lead counted the suit he
led); under a discard and draw (4.8) the worlds deal the hands in play, not the hands
the calls were made from, so a model named there is refused.  When the calls are too
unlikely under the model for rejection (fewer than ``MIN_FITTED`` of the worlds wanted
fit in ``ATTEMPTS_PER_WORLD`` attempts per world), the worlds ignore the auction
instead and the answer says so (``Hint.auction``); no world the calls rule out is ever
mixed into fitted ones.

Each legal card is valued in every world, the same worlds for every card: by ``pimc``
the pitcher's side's points by the double-dummy solver (its fallback: the rollout's
points), by ``epimc`` the same with the seat's next card one for all the worlds of a
block (``BLOCK``) it cannot tell apart then (``kernels.search.epimc``: a block is valued
whole, so the clock is read between blocks, and a world's value depends on its block), by ``rollout`` the heuristic playing on at every seat, valuing either the
pitcher's side's points or the seat's side's score change on the hand minus the mean
change of the other sides (``OBJECTIVE``, ``Hint.objective``).  Per card: the mean (95%
interval), with points the chance of reaching the bid (or, with no bid, at least 1-4
points), and the difference from the recommended card on the same worlds; the
recommended card is the one the policy plays.

What hint does when not told is a value per preset (``HintDefaults``): auction-pitch
keeps the base game's (pimc at 2-4 players and rollout at 5-7, the calls fitted by
``DEFAULT_MODEL``, points valued), the other presets rollout valuing ``OBJECTIVE`` with
the calls fitted only when a model is named.

Worlds come in fixed blocks of ``BLOCK``, block b from the stream (seed, b), so the
answer depends only on the seed and the number of worlds valued.  They are valued a few
at a time on a clock (``table.clock``): with ``time`` the search stops when the budget is
spent, and with ``separate`` once the recommended card is separated from every other
(a test by betting at a 5% error rate); ``Hint.stop`` says which, ``Hint.asked`` the
worlds that give the same answer again.  The kernels are loaded (or compiled) before the
clock starts.

``hint(position, ...)`` answers for a position (``search.position``, every hand open,
the base game's ``Position`` or a preset's ``PresetPosition``) as its player to move's
view is answered: his knowledge is read off the position (``position_knowledge``: his
own cards, the tricks, the voids shown), then the same sampler and decision; a
position carries no calls.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property, partial

import numpy as np

from ..game.cards import cards_of, format_card, mask_of
from ..game.reference import effective_suit, is_trump, pack, trumps_in
from ..game.rules import label
from ..game.view import View
from ..kernels.bidding.calls import (
    BIDDING_IDS,
    ODDS_BIDDERS,
    worlds_fit_calls,
)
from ..kernels.presets import rules_array, rules_table
from ..kernels.rng import deal_key
from ..kernels.rng import draw as rng_draw
from ..kernels.search.play_fit import keep_read, play_misses
from ..kernels.search.rollout import GAME_MINE, GAME_OTHER, rollout_game, rollout_points
from ..kernels.search.solver import new_table, preset_world_values
from ..kernels.search.worlds import ATTEMPTS_PER_WORLD, sample_worlds
from ..table.boards import no_odds, odds_bidder_table
from ..table.clock import (
    ALL_DONE,
    CLOCK,
    POINTS,
    Clock,
    Separation,
    Valuation,
    check_time,
    side_choice,
    value_on_clock,
    warmed,
)
from ..table.decide import (  # the seat's knowledge: shared with the built-in seat
    SeatKnowledge,
    epimc_valuer,
    heuristic_prior,
    rollout_valuer,
    value_shift,
    value_span,
    view_knowledge,
)
from ..table.policies import seen_arrays
from ..util.errors import InputError, quoted
from ..util.runtime import pick_seed
from ..util.stats import mean_half_width, too_few, wilson
from .position import Position, PositionError, PresetPosition

POLICIES = ("pimc", "rollout", "epimc")
# The policy when none is asked for, by table size: pimc solves each world, which at 5-7
# players costs too much for an answer in seconds (scripts/bench_hint_clock.py), and with
# target queries, which fit the clock, it plays no stronger than rollout there (paired
# on the same deals at 5 and 7 players: docs/search.md, issue 33 item 3).
DEFAULT_POLICY = {2: "pimc", 3: "pimc", 4: "pimc", 5: "rollout", 6: "rollout", 7: "rollout"}
# The other presets: rollout at every size; it values the game's score (OBJECTIVE), and
# the old family solver's first trick was slow (scripts/bench_family_hint.py --pimc: 9 a
# second; not measured again since every preset is the one solver's).
ROLLOUT_POLICY = dict.fromkeys(range(2, 8), "rollout")
DEFAULT_MODEL = "odds"  # the bidding model the callers are taken to follow (as advise's)


@dataclass(frozen=True)
class HintDefaults:
    """What hint does when not told, per preset: values, read by one code path.

    ``policy`` by table size; ``model`` the bidding policy the other callers are taken
    to follow, so that the worlds fit the calls heard (None: only when a model is named);
    ``points``: ``rollout`` values the pitcher's side's points (P(bid made) first, then
    points, as pimc always does), not the seat's side's score change (``OBJECTIVE``)."""

    policy: dict[int, str]
    model: str | None
    points: bool


# auction-pitch keeps the base game's defaults (the base kernels answered it so until
# the one engine): pimc up to 4 players, the calls fitted by the odds model, points
# valued (the make-the-bid-first order its users and the coach's points read).  The
# other presets keep theirs: not measured otherwise (docs/search.md).
PRESET_HINT_DEFAULTS = {"auction-pitch": HintDefaults(DEFAULT_POLICY, DEFAULT_MODEL, True)}
OTHER_HINT_DEFAULTS = HintDefaults(ROLLOUT_POLICY, None, False)
OBJECTIVE = (
    "your side's score change on this hand minus the mean change of the other sides, "
    "in points (made: the pitcher's side scores its points; set: minus the bid)"
)
# A preset's rollout valued by the game (``game``, the coach's measure when more than the
# pitcher's side can go out on this hand: ``coach.judge``).
GAME_OBJECTIVE = (
    "P(your side wins the game on this hand) minus P(another side wins it on this hand), "
    "the heuristic playing on at every seat (a shared win counts for both)"
)
CALLS_NOT_FITTED = "the worlds fit the play and the draw seen, not the calls heard"
DEFAULT_TIME = 4.0  # seconds: the command's budget when none is given (the library's: none)
DEFAULT_WORLDS = 200
MAX_WORLDS = 100_000
BLOCK = 25  # worlds per kernel call: a progress step, and the unit of the random stream
MIN_FITTED = 20  # fewer worlds fitting the calls than this (or than wanted): ignore them
# pimc on a clock keeps this share of the budget (at most FALLBACK_SECONDS) unspent until
# it has solved one world; if none is solved by then, rollout answers in that time.
FALLBACK_SHARE = 0.1
FALLBACK_SECONDS = 0.5


class HintError(InputError):
    """A position or option ``hint`` cannot answer."""


@dataclass(frozen=True)
class CardHint:
    card: int
    # The mean after this card, in points: the pitcher's side's points, or with an
    # objective (``Hint.objective``) that objective's value
    points: float
    points_ci95: tuple[float, float] | None  # None: too few worlds for an interval
    # P(pitcher's side >= k points), k = 1..max_points; () with an objective
    p_at_least: tuple[float, ...]
    p_ci95: tuple[tuple[float, float], ...] | None
    vs_best: tuple[float, float | None]  # mean minus the recommended card's, 95% half-width


@dataclass(frozen=True)
class AuctionFit:
    """How a view's worlds used the calls heard."""

    model: str  # the bidding policy every other caller is taken to follow
    fitted: bool  # True: every world valued fits the calls; False: they ignore them
    kept: int  # worlds found that fit the calls
    attempts: int  # deals of the hidden cards drawn (and checked) to find them
    note: str  # one line for the reader

    @property
    def acceptance_rate(self) -> float:
        return self.kept / self.attempts if self.attempts else 0.0

    def to_json(self) -> dict:
        return {
            "model": self.model,
            "fitted": self.fitted,
            "fitting_worlds": self.kept,
            "attempts": self.attempts,
            "acceptance_rate": self.acceptance_rate,
            "note": self.note,
        }


@dataclass(frozen=True)
class PlayRead:
    """How a view's worlds read the play seen (``hint_view``'s ``read_play``)."""

    rho: float  # a world's weight per play it explains otherwise than the heuristic
    read: bool  # True: every world valued read the play; False: too few fit, they do not
    kept: int  # worlds kept by the reading
    attempts: int  # worlds drawn (and checked) to find them
    note: str  # one line for the reader

    def to_json(self) -> dict:
        return {
            "model": "heuristic",
            "rho": self.rho,
            "read": self.read,
            "kept": self.kept,
            "attempts": self.attempts,
            "note": self.note,
        }


@dataclass(frozen=True)
class Hint:
    seat: int
    pitcher: int
    pitcher_side: bool  # is the player to move on the pitcher's side?
    bid: int | None
    trump: int
    policy: str
    worlds: int  # worlds valued
    attempts: int  # worlds drawn (rejection: some are drawn and thrown back)
    seed: int
    cards: list[CardHint]
    recommended: int
    auction: AuctionFit | None = None  # None: a position (every hand given, no calls)
    stop: str = ALL_DONE  # why the search stopped: table.clock's SEPARATED, ALL_DONE, CLOCK
    asked: int = 0  # the --worlds that gives this same answer with the same seed
    ties: tuple[int, ...] = ()  # cards separated from the recommended one only as ties
    seconds: float = 0.0  # the search's time (the kernels' loading or compiling not counted)
    worlds_max: int = 0  # the worlds wanted: the most the search would value
    time: float | None = None  # the time budget in seconds (None: no clock)
    default_policy: bool = False  # True: the policy is the table size's default
    warm: tuple[float, bool] = (0.0, False)  # seconds loading the kernels; compiled?
    dropped: int = 0  # worlds the clock stopped unfinished (never counted in the answer)
    fallback: str | None = None  # why the policy is not the one asked for (None: it is)
    rules: str | None = None  # the preset's rules, as ``label`` writes them
    max_points: int = POINTS  # the most points a hand awards: p_at_least runs 1 to it
    shoot: bool = False  # the pitcher shot (a preset's shoot call: its bid is max_points)
    # None: the values are the pitcher's side's points; else what they are, in words (a
    # preset's rollout: the seat's side's score change less the others', OBJECTIVE)
    objective: str | None = None
    # how the worlds read the play (``hint_view``'s ``read_play``; None: not asked)
    play: PlayRead | None = None

    @property
    def varies(self) -> bool:
        """Whether another run could answer otherwise: only a stop by the clock."""
        return self.stop == CLOCK

    def p_make(self, c: CardHint) -> float | None:
        return None if self.bid is None else c.p_at_least[self.bid - 1]

    def to_json(self) -> dict:
        unit = "points" if self.objective is None else "value"  # what a card's mean is

        def card(c: CardHint) -> dict:
            d = {
                "card": format_card(c.card, symbols=False),
                unit: c.points,
                f"{unit}_ci95": _list(c.points_ci95),
            }
            if self.objective is None:
                d["p_at_least"] = {str(k + 1): p for k, p in enumerate(c.p_at_least)}
                d["p_at_least_ci95"] = {
                    str(k + 1): _list(c.p_ci95 and c.p_ci95[k]) for k in range(self.max_points)
                }
            d[f"{unit}_vs_recommended"] = list(c.vs_best)
            if self.bid is not None and self.objective is None:
                d["p_make"] = c.p_at_least[self.bid - 1]
                d["p_make_ci95"] = _list(c.p_ci95 and c.p_ci95[self.bid - 1])
            return d

        doc = {
            "to_play": self.seat,
            "pitcher": self.pitcher,
            "pitcher_side": self.pitcher_side,
            "bid": self.bid,
            "trump": "CDHS"[self.trump] if self.trump >= 0 else None,
            "policy": self.policy,
            **({} if self.objective is None else {"objective": self.objective}),
            "worlds": self.worlds,
            "worlds_max": self.worlds_max,
            "stop": self.stop,
            "same_answer_with_worlds": self.asked,
            "time_budget": self.time,
            "default_policy": self.default_policy,
            "ties": [format_card(c, symbols=False) for c in self.ties],
            "worlds_dropped": self.dropped,
            "fallback": self.fallback,
            "attempts": self.attempts,
            "seed": self.seed,
            "recommended": format_card(self.recommended, symbols=False),
            "cards": [card(c) for c in self.cards],
        }
        if self.auction is not None:
            doc["auction"] = self.auction.to_json()
        if self.play is not None:
            doc["play_read"] = self.play.to_json()
        if self.rules is not None:
            doc = {"rules": self.rules, "shoot": self.shoot, **doc}
        return doc


def _list(ci) -> list | None:
    return None if ci is None else list(ci)


def check_hint_options(policy: str, worlds: int, time: float | None = None) -> float | None:
    """Refuse a policy, worlds count or time budget hint cannot use; the budget, checked."""
    if policy not in POLICIES:
        raise HintError(f"--policy must be one of {', '.join(POLICIES)}, not {quoted(policy)}")
    if isinstance(worlds, bool) or not isinstance(worlds, int) or not 1 <= worlds <= MAX_WORLDS:
        raise HintError(f"worlds must be 1-{MAX_WORLDS:,}, not {quoted(worlds)}")
    return check_time(time)


def hint_defaults(rules) -> HintDefaults:
    """The defaults of hint under ``rules``' preset (``PRESET_HINT_DEFAULTS``)."""
    return PRESET_HINT_DEFAULTS.get(rules.family, OTHER_HINT_DEFAULTS)


def default_policy(players: int, rules) -> str:
    """The policy hint uses at ``players`` under ``rules`` when none is asked for."""
    return hint_defaults(rules).policy[players]


def _no_card(view: View) -> str | None:
    """Why the view's seat has no card to play, in one line (None: it has one)."""
    if view.phase == "auction":
        return f"the auction is on: ask `pitchsim advise` for seat {view.to_move}'s call"
    if view.phase == "trump":  # a preset that names trump (4.3)
        return (
            f"seat {view.pitcher} names trump: hint values cards; for the trump ask "
            f"`pitchsim bid-odds --rules {view.preset.family}` with the hand (its best suit)"
        )
    if view.phase == "call":  # 12.1.2, 12.1.4
        return (
            f"seat {view.pitcher} calls his partner's card: hint values cards; pitchsim "
            "calls the highest trump he lacks (once he has called, give the card: the "
            'view\'s "called", or --called in the short form)'
        )
    if view.phase == "put_down" and view.drawing:  # 12.8.2
        return (
            f"seat {view.to_move} puts down before drawing: hint values cards to play; "
            "pitchsim puts down every non-trump but the highest needed to keep 3 cards, "
            "then trumps beyond 6 by rule X, and draws (12.8.3)"
        )
    if view.phase == "put_down":  # 12.2.2, 12.8.1, 4.8.7
        rule = "4.8.7" if view.rules.rob else "12.8.3"
        return (
            f"seat {view.to_move} comes down to 6: hint values cards to play; pitchsim "
            f"puts down non-trumps lowest first, then trumps by rule X ({rule})"
        )
    if view.phase == "over":
        return "the hand is over: nobody is to play"
    if view.phase == "thrown-in":
        return "everybody passed: the hand was thrown in"
    if view.to_move != view.seat:
        return f"it is seat {view.to_move}'s turn to play, not seat {view.seat}'s"
    return None


class _Blocks:
    """The worlds wanted, block b (``BLOCK`` worlds, the last fewer) drawn from stream
    (seed, b) when first asked for: the one interface the search reads (``sizes``,
    ``block(b)``, ``attempts``, ``kept``).  ``draw(b, size)`` -> (the block, worlds kept,
    deals tried) is the engine's own; ``draw(0, 0)``, no world, loads its kernels."""

    def __init__(self, seed: int, worlds: int):
        self.seed = seed
        self.worlds = worlds
        self.sizes = [min(BLOCK, worlds - b * BLOCK) for b in range(math.ceil(worlds / BLOCK))]
        self.drawn: dict[int, object] = {}
        self.attempts = 0
        self.kept = 0

    def draw(self, b: int, size: int) -> tuple[object, int, int]:
        raise NotImplementedError

    def block(self, b: int):
        if b not in self.drawn:
            block, kept, tried = self.draw(b, self.sizes[b])
            self.attempts += tried
            self.kept += kept
            self.drawn[b] = block
        return self.drawn[b]


class _Sampler(_Blocks):
    """A preset's worlds (``kernels.search.worlds``): a block is ``worlds[w, seat]``
    every seat's cards now, then ``worlds[w, n]`` the pile put down face down."""

    fits: tuple = ()  # what its worlds fit beyond the play and the draw (none)

    def __init__(self, k: SeatKnowledge, seed: int, worlds: int):
        super().__init__(seed, worlds)
        self.k = k
        unseen, self.allowed, must = k.constraint()
        self.unseen, self.must = np.int64(unseen), np.int64(must)

    def draw(self, b: int, size: int):
        k = self.k
        worlds = np.empty((size, k.n + 1), dtype=np.int64)
        kept, tried = sample_worlds(
            np.uint64(deal_key(self.seed, b)), k.n, k.seat, np.int64(k.hand), self.unseen,
            k.counts, self.allowed, self.must, worlds, ATTEMPTS_PER_WORLD * size,
        )  # fmt: skip
        return worlds[:kept], kept, tried


@dataclass
class _CallFit:
    """The calls heard at a view, and the bidding policy (``model``, a preset kernels'
    id) every other caller is taken to follow."""

    view: View
    model: int
    odds: np.ndarray
    defender: float

    def fits(self, worlds: np.ndarray, k: SeatKnowledge, key=None) -> np.ndarray:
        """Per world (``worlds[w, seat]`` every seat's cards now): whether every other
        caller holding his cards now and those he played makes the call he made
        (``kernels.bidding.calls.worlds_fit_calls``, clause for clause as the game
        kernel's auction calls it), and another pitcher names the trump named, or under
        trump=first-lead counted the suit he led (``name_suit``: the base game's pitcher
        planned the trump he led).  A random caller fits every deal alike (its call
        does not depend on the hand), so it rejects none."""
        v = self.view
        fits = np.empty(worlds.shape[0], dtype=np.bool_)
        calls, solvent, scores = self.arrays
        trump = -1 if v.trump is None else v.trump
        worlds_fit_calls(
            worlds, k.pby, v.players, v.seat, v.dealer, calls, solvent, scores, self.model,
            k.fr, k.tab, self.odds, self.defender, v.pitcher, trump, fits,
        )  # fmt: skip
        return fits

    @cached_property
    def arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The calls heard, whether each seat may shoot (a score not below 0), the scores."""
        v = self.view
        calls = np.array(v.calls, dtype=np.int64)
        solvent = np.array([v.seat_score(s) >= 0 for s in range(v.players)], dtype=np.int64)
        return calls, solvent, np.array(v.seat_scores(), dtype=np.int64)


@dataclass
class _PlayFit:
    """The play seen at a view, read as every other seat playing ``heuristic``'s card
    but for a deviation now and then (``kernels.search.play_fit``): a world is kept with
    probability ``rho ** m``, ``m`` the plays in it that differ from ``heuristic``'s
    with that world's hands (issue 31 item 3; the table's ``rollout:read`` seats keep
    theirs the same way, with ``play_fit.READ_RHO``)."""

    rho: float

    def misses(self, worlds: np.ndarray, k: SeatKnowledge) -> np.ndarray:
        """Per world, the plays of the other seats the heuristic would not have made."""
        out = np.empty(worlds.shape[0], dtype=np.int64)
        play_misses(
            worlds, k.n, k.seat, k.pby, *k.seen, k.trump, k.pitcher, k.called, k.fr, k.tab,
            out,
        )  # fmt: skip
        return out

    def fits(self, worlds: np.ndarray, k: SeatKnowledge, key=None) -> np.ndarray:
        """Per world, kept or not (chance ``rho ** misses``, from the stream ``key``;
        None when warming, on no world)."""
        keep = np.empty(worlds.shape[0], dtype=np.bool_)
        keep_read(self.misses(worlds, k), self.rho, np.uint64(0 if key is None else key), keep)
        return keep


class _FittedSampler(_Sampler):
    """Worlds that also fit the calls heard (``_CallFit``) or read the play
    (``_PlayFit``), by rejection: the worlds of ``_Sampler`` (uniform among those the
    play admits) drawn in batches from stream (seed, b), batch j > 0 from a hash of it,
    each kept when every fit keeps it (a call fit: every other caller's hand as dealt,
    its cards now and those it played, no discard under these rules, makes his call by
    the model; a play fit: with its probability, drawn from the batch's stream); at
    most ``ATTEMPTS_PER_WORLD`` worlds drawn per world wanted.  Kept worlds are uniform
    among those fitting the play and the calls (the model's calls are a function of the
    hand), weighted by the play fit's likelihood."""

    def __init__(self, k: SeatKnowledge, seed: int, worlds: int, *fits):
        super().__init__(k, seed, worlds)
        self.fits = fits

    def draw(self, b: int, size: int):
        k = self.k
        if size == 0:  # (warming: the fits' kernels compile here, off the clock)
            for fit in self.fits:
                fit.fits(np.zeros((0, k.n + 1), dtype=np.int64), k)
        kept = np.empty((size, k.n + 1), dtype=np.int64)
        got = drawn = 0  # drawn: worlds fitting the play checked against the fits
        base = np.uint64(deal_key(self.seed, b))
        j = 0
        while got < size and drawn < ATTEMPTS_PER_WORLD * size:
            key = base if j == 0 else np.uint64(rng_draw(base, j))
            # a batch of a block's size whatever the worlds wanted of it: a block cut
            # short is the first worlds of the whole block (``Hint.asked`` repeats it)
            batch = np.empty((4 * BLOCK, k.n + 1), dtype=np.int64)
            m, _ = sample_worlds(
                key, k.n, k.seat, np.int64(k.hand), self.unseen, k.counts, self.allowed,
                self.must, batch, ATTEMPTS_PER_WORLD * 4 * BLOCK,
            )  # fmt: skip
            if m == 0:
                break
            ok = np.ones(m, dtype=np.bool_)
            for i, fit in enumerate(self.fits):
                ok &= fit.fits(batch[:m], k, np.uint64(rng_draw(key, 1 + i)))
            take = np.flatnonzero(ok)[: size - got]
            kept[got : got + take.size] = batch[take]
            got += take.size
            drawn += int(take[-1]) + 1 if got == size else m  # checked up to the last kept
            j += 1
        return kept[:got], got, drawn


def worlds_at(
    view: View, count: int, seed: int, model: str | None = None, read_play: float | None = None
) -> np.ndarray:
    """The ``count`` worlds ``hint_view`` values first at a view with ``seed`` (fewer
    when few fit): ``worlds[w, seat]`` every seat's cards now, ``worlds[w, n]`` the
    cards the pitcher put down face down that the seat has not seen (0 when none must
    be placed); with ``model`` those that also fit the calls heard as that bidding
    policy makes them.  For checking and for the curious (under a called partner they
    fit what the seat knows of him, 12.1.10); with ``read_play`` (a rho) they also read
    the play (``_PlayFit``)."""
    return view_worlds(view, count, seed, model, read_play)[0]


def view_worlds(
    view: View, count: int, seed: int, model: str | None = None, read_play: float | None = None
) -> tuple[np.ndarray, int]:
    """:func:`worlds_at` and the worlds drawn to find them (those fitting the play;
    with ``model``, each checked against the calls; with ``read_play``, each kept by
    the play fit's chance)."""
    k = view_knowledge(view)
    read_play = check_read_play(read_play)
    reads = () if read_play is None else (_PlayFit(read_play),)
    if model is None:
        sampler = _FittedSampler(k, seed, count, *reads) if reads else _Sampler(k, seed, count)
    else:
        model = check_model(model)
        r = view.preset
        odds, defender = odds_bidder_table(r, view.players) if model in ODDS_BIDDERS else no_odds()
        fit = _CallFit(view, BIDDING_IDS[model], odds, defender)
        sampler = _FittedSampler(k, seed, count, fit, *reads)
    blocks = [sampler.block(b) for b in range(len(sampler.sizes))]
    worlds = np.concatenate(blocks) if blocks else np.empty((0, k.n + 1), dtype=np.int64)
    return worlds, sampler.attempts


@dataclass
class _Search:
    """What one search found: the cards, their outcomes, why it stopped."""

    cards: np.ndarray
    out: np.ndarray
    stop: str
    asked: int  # the --worlds that gives this same answer (with the same seed)
    ties: tuple[int, ...]
    seconds: float
    dropped: int = 0
    fallback: str | None = None
    policy: str = ""


@dataclass(frozen=True)
class Decision:
    """What a search values, under any preset: the legal cards (ascending), the card
    ``heuristic`` plays (the tie-break), whether the seat is on the pitcher's side, the
    bid to make (0: none given), the most points a hand awards (``p_at_least``'s range)
    and ``valuer(policy, block)``: (``value(lo, hi, nodes)`` as
    ``table.clock.value_on_clock`` asks, the worlds in the block) for a sampler's block.

    The outcomes are the pitcher's side's points, or with ``objective`` (its words) a
    value the seat maximises, ``scale`` outcomes a point, every outcome raised by
    ``shift`` to at least 0 and at most ``span`` (the stopping rule's range) above it."""

    cards: np.ndarray
    prior: int
    our_side: bool
    bid: int
    points: int
    valuer: Callable
    objective: str | None = None
    span: int = 0  # 0: ``points``
    shift: int = 0
    scale: int = 1

    @property
    def ours(self) -> bool:
        """Whether the seat wants the outcomes high: its own objective's, or its side's
        points when it is on the pitcher's side."""
        return self.objective is not None or self.our_side

    @property
    def aim(self) -> int:
        """The outcome that makes (0.9): the bid; an objective has none (0: every world)."""
        return 0 if self.objective is not None else self.bid

    def index(self, card: int) -> int:
        return int(np.flatnonzero(self.cards == card)[0]) if card in self.cards else -1


def decision_at(
    k: SeatKnowledge,
    max_points: int,
    policy: str,
    points: bool = False,
    game: tuple[np.ndarray, bool] | None = None,
) -> Decision:
    """A preset's decision (``k``, the seat's knowledge): every legal card in each world
    of a ``_Sampler`` block.  By ``pimc`` the pitcher's side's points (0.9: made
    when they reach the bid) by the double-dummy solver (its transposition table
    kept across calls), its fallback ``rollout`` the family heuristic playing on; by
    ``rollout`` the family rollout's ``OBJECTIVE`` (``table.decide.rollout_valuer``,
    ``others`` outcomes a point), or with ``points`` the pitcher's side's points as the
    heuristic plays on (the coach's P(game): ``coach.judge``).  With ``game`` (the
    scores per seat before the hand, and whether the pitcher shot) ``rollout`` values
    each card by ``GAME_OBJECTIVE`` in each world (``rollout_game``): 1 the seat's side
    wins the game on this hand and no other side does, -1 another side does and the
    seat's does not, 0 else; raised by 1 (``shift``)."""
    cards = np.array([c for c in range(54) if k.legal >> c & 1], dtype=np.int64)
    our = k.our_side
    prior = heuristic_prior(k)
    if game is not None:
        scores, shoot = game
        bid = max_points if shoot else k.bid

        def chances(policy: str, worlds: np.ndarray):
            def value(lo: int, hi: int, nodes: int = 0) -> tuple[np.ndarray, int]:
                out = np.empty((cards.size, hi - lo), dtype=np.int64)
                rollout_game(
                    worlds[lo:hi], cards, k.seat, k.n, k.pitcher, bid, shoot, k.trump,
                    k.trick_no, k.trick, k.tseats, k.count, np.int64(k.played), k.won, k.pby,
                    scores, k.fr, k.tab, out, k.called,
                )  # fmt: skip
                mine = (out & GAME_MINE) != 0
                other = (out & GAME_OTHER) != 0
                return mine.astype(np.int64) - other + 1, 0

            return value, worlds.shape[0]

        return Decision(cards, prior, our, k.bid, max_points, chances, GAME_OBJECTIVE, 2, 1)
    if policy == "rollout" and not points:
        shift = value_shift(k, max_points)

        def objective(policy: str, worlds: np.ndarray):
            value = rollout_valuer(k, worlds, cards)

            def raised(lo: int, hi: int, nodes: int = 0) -> tuple[np.ndarray, int]:
                out, searched = value(lo, hi, nodes)
                return out + shift, searched

            return raised, worlds.shape[0]

        span = value_span(k, max_points)
        return Decision(
            cards, prior, our, k.bid, max_points, objective, OBJECTIVE, span, shift, k.others
        )
    leader = int(k.tseats[0]) if k.count else k.seat
    table = new_table()

    def points(policy: str, worlds: np.ndarray):
        if policy == "epimc":  # a block's worlds valued together, once (see the module)
            whole: list = []

            def joint(lo: int, hi: int, nodes: int = 0) -> tuple[np.ndarray, int]:
                searched = 0
                if not whole:
                    out, searched = epimc_valuer(k, worlds, cards)(0, worlds.shape[0])
                    whole.append(out)
                return whole[0][:, lo:hi], searched

            return joint, worlds.shape[0]

        def value(lo: int, hi: int, nodes: int = 0) -> tuple[np.ndarray, int]:
            out = np.empty((cards.size, hi - lo), dtype=np.int64)
            if policy == "rollout":
                rollout_points(
                    worlds[lo:hi], cards, k.seat, k.n, k.pitcher, k.trump, k.trick_no,
                    k.trick, k.tseats, k.count, np.int64(k.played), k.won, k.pby, k.fr,
                    k.tab, out, k.called,
                )  # fmt: skip
                return out, 0
            done, searched = preset_world_values(
                worlds[lo:hi], k.pby, k.n, k.pitcher, k.trump, leader, k.trick, k.count,
                k.won, k.fr, k.tab, table, cards, out, nodes, k.called,
            )  # fmt: skip
            return out[:, :done], int(searched)

        return value, worlds.shape[0]

    return Decision(cards, prior, our, k.bid, max_points, points)


def _policies(policy: str, time: float | None) -> tuple[str, ...]:
    """The policies a search may value with: pimc on a clock falls back to rollout."""
    return (policy, "rollout") if policy == "pimc" and time is not None else (policy,)


def _warm(make: Callable[[], Decision], samplers, policies) -> None:
    """Every kernel the search calls, called on no worlds (see ``table.clock.warmed``):
    the tie-break's (``make`` builds the decision), each sampler's and each policy's."""
    d = make()
    for sampler in samplers:
        block = sampler.draw(0, 0)[0]
        for policy in policies:
            d.valuer(policy, block)[0](0, 0)


def _search(
    policy: str,
    sampler,
    decision: Decision,
    clock: Clock,
    separate: bool,
    progress: Callable[[int, int], None] | None,
) -> _Search:
    """Value the sampler's worlds block by block until all are valued, the clock runs out
    or (with ``separate``) the recommended card is separated (``table.clock``).  pimc's
    worlds carry a node budget (a world the clock stops is dropped); when it solves none
    in the budget, rollout values the worlds in the time kept back for it."""
    budgeted = policy == "pimc" and clock.budget is not None
    reserve = min(FALLBACK_SHARE * clock.budget, FALLBACK_SECONDS) if budgeted else 0.0
    found = _search_with(policy, sampler, decision, clock, separate, progress, reserve)
    if found.out.shape[1] == 0 and budgeted:
        dropped = found.dropped
        found = _search_with("rollout", sampler, decision, clock, separate, progress, 0.0)
        found.dropped = dropped
        found.fallback = (
            f"pimc solved no world within {clock.budget:g} s (a world at this table can take "
            "seconds): these values are rollout's, in the time kept back for it"
        )
    return found


def _search_with(
    policy: str,
    sampler,
    d: Decision,
    clock: Clock,
    separate: bool,
    progress: Callable[[int, int], None] | None,
    reserve: float,
) -> _Search:
    cards = d.cards
    budgeted = policy == "pimc" and clock.budget is not None
    acc = Valuation(np.empty((cards.size, sampler.worlds), dtype=np.int64))
    rule = None
    if separate and cards.size > 1:  # one legal card: nothing to separate
        rule = Separation(cards.size, d.ours, d.aim, d.span or d.points, d.index(d.prior))
    asked = 0
    total = sampler.worlds

    def step(done: int) -> None:
        nonlocal shown
        if progress:
            progress(done - shown, total)
        shown = done

    shown = 0
    for b, size in enumerate(sampler.sizes):
        if acc.valued and clock.left() <= 0:
            acc.stop = CLOCK
            break
        value, count = d.valuer(policy, sampler.block(b))
        before = acc.valued
        value_on_clock(value, count, clock, acc, rule, lambda v: step(v), budgeted, reserve)
        if acc.stop is not None:
            asked += acc.valued - before
            break
        asked += size
    ties: tuple[int, ...] = ()
    if rule is not None and acc.stop is not None and acc.stop != CLOCK:
        b = rule.best()
        ties = tuple(int(cards[j]) for j in rule.ties(b))
    found = _Search(cards, acc.outcomes(), acc.stop or ALL_DONE, asked, ties, clock.spent())
    found.dropped = acc.dropped
    found.policy = policy
    return found


def _summarise(found: _Search, sampler: _Blocks, d: Decision, auction, **who) -> Hint:
    """The answer: each card's mean, interval and P(>= k) (points only), its difference
    from the recommended card on the same worlds (the policy's choice: ``side_choice``);
    ``who``: the ``Hint``'s seat, pitcher, bid and trump (a preset's rules and shoot)."""
    cards, out = found.cards, found.out
    kept = out.shape[1]
    if kept == 0:
        raise HintError(
            f"no deal of the hidden cards fits what seat {who['seat']} has seen "
            f"({sampler.attempts:,} tried)"
        )
    j_best = side_choice(out, d.ours, d.aim, d.index(d.prior))
    raw = out - d.shift
    hints = []
    for j, c in enumerate(cards):
        pts = raw[j] / d.scale
        diff = (raw[j] - raw[j_best]) / d.scale
        hits = [] if d.objective else [(out[j] >= k).sum() for k in range(1, d.points + 1)]
        if too_few(kept):  # no interval from a handful of worlds: None, "too few deals"
            ci, cis, dhalf = None, None, None
        else:
            mean, half = mean_half_width(pts)
            ci = (mean - half, mean + half)
            cis = tuple(tuple(float(x) for x in wilson(h, kept)) for h in hits)
            dhalf = mean_half_width(diff)[1]
        hints.append(
            CardHint(
                int(c),
                float(pts.mean()),
                ci,
                tuple(float(h / kept) for h in hits),
                cis,
                (float(diff.mean()), dhalf),
            )
        )
    return Hint(
        pitcher_side=d.our_side,
        policy=found.policy,
        worlds=kept,
        attempts=sampler.attempts,
        seed=sampler.seed,
        cards=hints,
        recommended=int(cards[j_best]),
        auction=auction,
        stop=found.stop,
        asked=found.asked,
        ties=found.ties,
        seconds=found.seconds,
        dropped=found.dropped,
        fallback=found.fallback,
        max_points=d.points,
        objective=d.objective,
        **who,
    )


def hint(
    pos: Position | PresetPosition,
    policy: str | None = None,
    worlds: int = DEFAULT_WORLDS,
    seed: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    time: float | None = None,
    separate: bool = False,
) -> Hint:
    """Value every legal card of the player to move (see the module).  ``policy`` None:
    the preset's default at the table size (``hint_defaults``); ``time``: a budget in
    seconds (None: no clock); ``separate``: stop once the recommended card is separated
    (``table.clock``).  The position is valued as its player to move's view is, from his
    knowledge (:func:`position_knowledge`), under every preset the base game's too."""
    if pos.finished:
        raise PositionError("the hand is over: nobody is to play")
    r = pos.rules
    defaults = hint_defaults(r)
    chosen = policy is None
    policy = defaults.policy[pos.players] if chosen else policy
    time = check_hint_options(policy, worlds, time)
    seed = pick_seed(seed)
    k = position_knowledge(pos)
    who = _who(k, r, pos.bid, False)
    sampler = _Sampler(k, seed, worlds)
    make = partial(decision_at, k, r.max_bid, policy, defaults.points)
    warm = warmed(lambda: _warm(make, [sampler], _policies(policy, time)))
    d = make()
    found = _search(policy, sampler, d, Clock(time), separate, progress)
    return _summarise(
        found, sampler, d, None, **who, worlds_max=worlds, time=time,
        default_policy=chosen, warm=warm,
    )  # fmt: skip


def check_read_play(rho: float | None) -> float | None:
    """A play fit's rho: a number in (0, 1] (None: the play is not read)."""
    if rho is None:
        return None
    if isinstance(rho, bool) or not isinstance(rho, int | float) or not 0 < rho <= 1:
        raise HintError(f"--read-play must be a number above 0 and at most 1, not {quoted(rho)}")
    return float(rho)


def check_model(model: str) -> str:
    """A bidding model the callers can be taken to follow (the preset kernels' bidders
    but the advisor, whose call needs the calls heard), its name; else a ``HintError``."""
    name = model.strip().lower()
    if name == "advisor":
        raise HintError("the model cannot be the advisor: use odds, odds-game, heuristic or random")
    if name not in BIDDING_IDS:
        known = ", ".join(m for m in BIDDING_IDS if m != "advisor")
        raise HintError(f"--model must be one of {known}, not {quoted(model)}")
    return name


def _setup_at(
    view: View,
    seed: int,
    worlds: int,
    model: str | None,
    named: bool,
    policy: str,
    fit_calls: bool,
    points: bool = False,
    game: bool = False,
):
    """The sampler (its worlds fit the play and the draw), with ``model`` (a bidding
    policy; None: the calls are not fitted) one whose worlds also fit the calls heard
    (``_FittedSampler``), the decision's maker (``points`` as
    :func:`decision_at` takes it; ``game``: valued by the game on this hand, from
    the view's scores), who the answer is about and the note when the calls are not
    fitted.  A model the user ``named`` that cannot fit the calls here is refused; the
    preset's default model then leaves them unfitted and the note says why."""
    k = view_knowledge(view)
    r = view.preset
    who = _who(k, r, view.bid, view.shoot)
    at = (np.array(view.seat_scores(), dtype=np.int64), bool(view.shoot)) if game else None
    make = partial(decision_at, k, r.max_bid, policy, points, at)
    plain = _Sampler(k, seed, worlds)

    def unfitted(why: str):
        return plain, None, make, who, AuctionFit(model, False, 0, 0, why)

    if model is None or not fit_calls:
        why = CALLS_NOT_FITTED + ("" if fit_calls else " (as asked)")
        if fit_calls:
            why += f" (name a --model, e.g. {DEFAULT_MODEL}, to fit them)"
        return unfitted(why)
    if r.discard != "none":
        if not named:
            return unfitted(f"{CALLS_NOT_FITTED} (each seat discarded and drew, 4.8, 12.8)")
        raise HintError(
            f"--model: under {label(r)} each seat discards before the play (4.8, 12.8), "
            "so the worlds deal the hands in play, not the hands the calls were made from; "
            "leave --model out (the worlds fit the play and the draw seen)"
        )
    odds, defender = odds_bidder_table(r, view.players) if model in ODDS_BIDDERS else no_odds()
    fit = _CallFit(view, BIDDING_IDS[model], odds, defender)
    ignored = AuctionFit(model, False, 0, 0, "the worlds ignore the auction (as asked)")
    return plain, _FittedSampler(k, seed, worlds, fit), make, who, ignored


def _who(k: SeatKnowledge, rules, bid: int | None, shoot: bool) -> dict:
    """Who a preset's answer is about: the seat, the pitcher, the bid and trump."""
    return {
        "seat": k.seat,
        "pitcher": k.pitcher,
        "bid": bid,
        "trump": k.trump,
        "rules": label(rules),
        "shoot": shoot,
    }


# (12.1: the call is not read into a position's knowledge yet, as it is off a view)
NO_CALL = "hint on a position does not carry it yet: give the seat's view (docs/view.md)"


def position_knowledge(pos: Position | PresetPosition) -> SeatKnowledge:
    """What the player to move of a position (under any preset) knows (``SeatKnowledge``, as
    ``table.decide.view_knowledge`` reads it off a view): his own cards, the
    tricks and who played each card, the voids they showed (by effective suit; under
    follow=only every seat passed over holds no trump, 4.9) and each seat's hand size.
    A position gives the hands when the first card was led, not the discard and draw:
    so the seat knows none of its own discards, and under rob=true (where every trump
    dealt is held, burnt face up or put down by the pitcher, 4.8) a trump in no hand
    counts as out of play and seen, as a burnt one is."""
    r, n, st = pos.rules, pos.players, pos.state
    me = st.to_play()
    trump = st.trump
    holder = {c: s for s in range(n) for c in cards_of(pos.held[s])}
    only = r.follow == "only"
    voids, out = 0, set()
    start = pos.pitcher  # the first seat considered for the next lead (4.9)
    played = 0
    won = np.array(st.won, dtype=np.int64)
    for t_no, t in enumerate(pos.tricks):
        seats = [holder[c] for c in t.cards]
        order = [*seats, t.leader] if t.winner is not None else [*seats, me]
        s = start
        while only and s != seats[0]:  # passed over as leader
            out.add(s)
            s = (s + 1) % n
        for a, b in zip(order, order[1:], strict=False):  # skipped in the trick (out, 4.9)
            s = (a + 1) % n
            while only and s != b and s != t.leader:
                out.add(s)
                s = (s + 1) % n
        led = effective_suit(t.cards[0], trump, r)
        for i, (s, c) in enumerate(zip(seats, t.cards, strict=True)):
            if t_no == 0 and i == 0 and r.lead_trump and not only and not is_trump(c, trump, r):
                voids |= 1 << (4 * s + trump)  # 6.1 lead-trump: it held none
            mine = effective_suit(c, trump, r)
            if i and not only and mine != led and (mine != trump or r.follow == "suit"):
                voids |= 1 << (4 * s + led)
        if t.winner is not None:
            played |= mask_of(t.cards)
            start = t.winner
    if only and (not pos.tricks or pos.tricks[-1].winner is not None):
        s = start
        while s != me:  # passed over on the way to the seat to lead
            out.add(s)
            s = (s + 1) % n
    for s in out:
        voids |= 1 << (4 * s + trump)
    current = pos.tricks[-1] if pos.tricks and pos.tricks[-1].winner is None else None
    trick = np.zeros(n, dtype=np.int64)
    tseats = np.zeros(n, dtype=np.int64)
    count = 0
    if current is not None:
        count = len(current.cards)
        trick[:count] = current.cards
        tseats[:count] = [holder[c] for c in current.cards]
    known_out = 0
    if r.discard == "non-trump" and r.rob and trump >= 0:
        in_play = 0
        for h in pos.held:
            in_play |= h
        full = mask_of(pack(r, n))
        known_out = full & ~in_play & trumps_in(full, trump, r)
    pby = np.array([pos.held[s] & ~st.hands[s] for s in range(n)], dtype=np.int64)
    counts = np.array([h.bit_count() for h in st.hands] + [0], dtype=np.int64)
    return SeatKnowledge(
        st.legal(), st.hands[me], me, n, pos.pitcher, pos.bid or 0, trump,
        sum(t.winner is not None for t in pos.tricks), trick, tseats, count, played, won,
        pby, voids, counts, known_out, np.zeros(n, dtype=np.int64), rules_array(r, NO_CALL),
        rules_table(r),
        seen=seen_arrays([(t.cards, [holder[c] for c in t.cards]) for t in pos.tricks], n),
    )  # fmt: skip


def hint_view(
    view: View,
    policy: str | None = None,
    worlds: int = DEFAULT_WORLDS,
    seed: int | None = None,
    model: str | None = None,
    fit_calls: bool = True,
    progress: Callable[[int, int], None] | None = None,
    time: float | None = None,
    separate: bool = False,
    points: bool | None = None,
    game: bool = False,
    read_play: float | None = None,
) -> Hint:
    """Value every legal card of the view's seat from the view alone (see the module):
    the worlds fit the play and the draw seen and, with ``fit_calls``, the calls heard
    as ``model`` makes them (None: the preset's default model, ``hint_defaults``; with
    none, the calls are fitted only when a model is named).  ``policy``, ``time`` and
    ``separate`` as for :func:`hint`; ``points``: ``rollout`` values the pitcher's
    side's points (with their P(at least k)), not ``OBJECTIVE`` (None: the preset's
    default); ``game``: ``rollout`` (the policy then, when none is asked for) values
    each card by the game on this hand (``GAME_OBJECTIVE``: who goes out, from the
    view's scores); ``read_play`` (rho in (0, 1], None: off): the worlds also read the
    play seen, each other seat taken to play ``heuristic``'s card, a world kept with
    probability rho to the power of the plays it explains otherwise (``_PlayFit``)."""
    defaults = hint_defaults(view.rules)
    read_play = check_read_play(read_play)
    chosen = policy is None
    if chosen:  # the game on this hand is rollout's measure alone
        policy = "rollout" if game else defaults.policy[view.players]
    time = check_hint_options(policy, worlds, time)
    if game and policy != "rollout":
        raise HintError(
            "the game on this hand is valued by rollout (the heuristic playing on at every "
            f"seat), not by {policy}"
        )
    why = _no_card(view)
    if why is not None:
        raise HintError(why)
    points = defaults.points if points is None else points
    named = model is not None
    model = check_model(model) if named else defaults.model
    seed = pick_seed(seed)
    plain, fitted, make, who, unfitted = _setup_at(
        view, seed, worlds, model, named, policy, fit_calls, points, game
    )
    play_fit = None if read_play is None else _PlayFit(read_play)
    samplers = [plain] if fitted is None else [plain, fitted]
    if play_fit is not None:  # (its kernel compiles off the clock, as the others')
        samplers.append(_FittedSampler(plain.k, seed, worlds, play_fit))
    warm = warmed(lambda: _warm(make, samplers, _policies(policy, time)))
    clock = Clock(time)
    d = make()

    def answer(found: _Search, sampler: _Blocks, fit: AuctionFit, play) -> Hint:
        return _summarise(
            found, sampler, d, fit, **who, worlds_max=worlds, time=time, default_policy=chosen,
            warm=warm, play=play,
        )  # fmt: skip

    need = min(worlds, MIN_FITTED)
    if fitted is None:
        sampler, play = _read_or_not(plain, play_fit, need, clock)
        found = _search(policy, sampler, d, clock, separate, progress)
        return answer(found, sampler, unfitted, _play_read(play, sampler))
    # Draw worlds that fit the calls (and read the play) until there are enough to go
    # on (or none are left to draw): the same test, on the same worlds, as drawing all
    # of them first.
    sampler, play = _read_or_not(fitted, play_fit, need, clock)
    ok, timed_out = _enough(sampler, need, clock)
    kept, attempts = sampler.kept, sampler.attempts
    rate = kept / attempts if attempts else 0.0
    if ok or (timed_out and kept > 0):
        found = _search(policy, sampler, d, clock, separate, progress)
        kept, attempts = sampler.kept, sampler.attempts
        rate = kept / attempts if attempts else 0.0
        wanted = sum(sampler.sizes[b] for b in sampler.drawn)
        short = "" if kept == wanted else f" (of {wanted:,} wanted)"
        if timed_out:
            short = f" (the clock ran out before {need} were found)"
        note = (
            f"every world fits the calls: each other caller's {model} model "
            f"makes his call; {kept:,} worlds{short}, acceptance "
            f"{100 * rate:.2g}%"
        )
        fit = AuctionFit(model, True, kept, attempts, note)
        return answer(found, sampler, fit, _play_read(play, sampler))
    if timed_out:
        why = (
            f"no deal fitting the calls was found before the clock ran out ({attempts:,} "
            "drawn): these worlds ignore the auction"
        )
    else:
        why = (
            f"the calls are too unlikely under the {model} model for rejection "
            f"({kept:,} of {attempts:,} deals of the hidden cards fit, acceptance "
            f"{100 * rate:.2g}%): these worlds ignore the auction"
        )
    fit = AuctionFit(model, False, kept, attempts, why)
    sampler, play = _read_or_not(plain, play_fit, need, clock)
    found = _search(policy, sampler, d, clock, separate, progress)
    return answer(found, sampler, fit, _play_read(play, sampler))


def _enough(sampler: _Blocks, need: int, clock: Clock) -> tuple[bool, bool]:
    """Draw ``sampler``'s blocks until it holds ``need`` worlds: (it does, the clock ran
    out first).  The first block is drawn whatever the clock."""
    for b in range(len(sampler.sizes)):
        if sampler.kept >= need:
            break
        if b > 0 and clock.left() <= 0:
            return False, True
        sampler.block(b)
    return sampler.kept >= need, False


def _read_or_not(sampler, play_fit, need: int, clock: Clock):
    """``sampler``'s worlds also reading the play (``play_fit``; None: not asked) when
    ``need`` of them are found on the clock, else ``sampler`` itself; and what became of
    the reading: None (not asked), or (read or not, the reading sampler)."""
    if play_fit is None:
        return sampler, None
    reading = _FittedSampler(sampler.k, sampler.seed, sampler.worlds, *sampler.fits, play_fit)
    ok, _ = _enough(reading, need, clock)
    return (reading, (True, reading)) if ok else (sampler, (False, reading))


def _play_read(play, used: _Blocks) -> PlayRead | None:
    """The answer's account of the play reading (``_read_or_not``'s)."""
    if play is None:
        return None
    read, reading = play
    rho = reading.fits[-1].rho
    rate = reading.kept / reading.attempts if reading.attempts else 0.0
    if read:
        note = (
            f"the worlds read the play: each other seat taken to play the heuristic's "
            f"card, a world kept with chance {rho:g} to the power of the plays it explains "
            f"otherwise; acceptance {100 * rate:.2g}%"
        )
    else:
        note = (
            f"the play is too unlikely under the heuristic model for rejection "
            f"({reading.kept:,} of {reading.attempts:,} worlds kept, rho {rho:g}): these "
            "worlds do not read it"
        )
    return PlayRead(rho, read, reading.kept, reading.attempts, note)
