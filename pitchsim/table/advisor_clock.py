"""The ``advisor`` bidding policy on a clock: the call a seat's advisor makes, answered
within a time budget (``KernelSeat(time=...)``, the engine's ``options.time``), under
every preset.

Without a clock the advisor (``kernels.advisor.advisor_bid``) keeps ``samples``
deals that fit the calls heard, picks each bid's trump from them and plays every legal
call in each to the end of the game, all in one kernel call.  Here the same deals, in
the same order, are found and played by the advice kernels (``kernels.advice``'s family
functions, through ``PresetKernels``, which ``pitchsim advise`` asks too: deal i of the
decision's own seed is the same deal, played the same way) in rounds that end at
``rounds(samples)`` kept deals, as ``pitchsim advise --time`` does (``advice.advise``):
after each round but the last the call stops when the best call's lead in games won
over every other is more than ``stop_z`` standard errors of the paired difference
(Bonferroni over the looks and the other calls: a ``separated`` stop picks a call that
is not the best with chance at most ``STOP_ERROR``), and between kernel calls of about
``SLICE`` seconds the clock is read.  The bids' trumps come from the first round's
deals; when every deal is played and the trumps from all of them differ, the deals are
played again with those (time allowing), so a run that plays every deal makes exactly
the unclocked advisor's call.  The answer depends on the seed and the deals played
alone: the same seed and the same rounds give the same call.  With fewer than
``MIN_DEALS`` deals played in the time (or too few fitting the calls in the deals the
advisor may try) it calls as its model would, as the unclocked advisor does; the caller
makes that call (``TimedCall.call`` is None).
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass
from time import perf_counter

import numpy as np

from ..kernels import advice as engine
from ..kernels.advisor import DEFAULT_TRIES

FIRST_ROUND = 1_000  # kept deals in the first round; the bids' trump suits come from them
STOP_ERROR = 0.05  # the chance that a 'separated' stop picks a call that is not the best
SLICE = 0.1  # seconds a kernel call aims at on a clock: how often the clock is read
MIN_DEALS = 8  # fewer played in the time: the model's call (the advisor's own fallback)
FIND_CHUNK = 1 << 12  # deals tried per kernel call before the rate is known

SEPARATED = "separated"
ALL_DONE = "all deals done"
CLOCK = "stopped by the clock"


def rounds(samples: int, first: int = FIRST_ROUND) -> list[int]:
    """The kept-deal counts at which a run on a clock looks at its answer: doubling from
    ``first``, the last at ``samples``."""
    looks = []
    k = first
    while k < samples:
        looks.append(k)
        k *= 2
    return looks + [samples]


def stop_z(looks: int, calls: int) -> float:
    """The lead, in standard errors of the paired difference, that stops a run on a clock:
    one-sided, STOP_ERROR shared out over the looks that can stop it and the calls the
    best one is compared with (Bonferroni)."""
    return statistics.NormalDist().inv_cdf(1 - STOP_ERROR / (max(looks, 1) * max(calls - 1, 1)))


def wins_separated(wins: np.ndarray, best: int, z: float) -> bool:
    """Is call ``best`` ahead of every other in ``wins`` (deals x calls, 1 = game won) by
    more than ``z`` standard errors of the paired difference, deal by deal?"""
    count, k = wins.shape
    if k == 1:
        return True
    if count < 2:
        return False
    w = wins.astype(float)
    for c in range(k):
        if c == best:
            continue
        d = w[:, best] - w[:, c]
        if not d.mean() - z * d.std(ddof=1) / np.sqrt(count) > 0:
            return False
    return True


def advisor_pick(out: np.ndarray) -> int:
    """The candidate ``advisor_bid`` picks from the outcomes ``out`` (deals x
    calls x outcomes): the most games won, ties by the sum of the hand's margins, and of
    equals the later (higher) call.  Sums in deal order, as the kernel does."""
    kept = out.shape[0]
    best, best_wins, best_margin = 0, -1, -1e18
    for c in range(out.shape[1]):
        margin = float(np.cumsum(out[:, c, engine.O_MARGIN])[-1]) if kept else 0.0
        wins = int((out[:, c, engine.O_WON] > 0).sum())
        if wins > best_wins or (wins == best_wins and margin >= best_margin):
            best, best_wins, best_margin = c, wins, margin
    return best


@dataclass
class PresetKernels:
    """One question's arguments to the advice kernels of every preset (the family
    functions of ``kernels.advice``): find the deals that fit the calls heard
    (``accept``), each suit's points pitching them (``suits``), each candidate bid's
    trump (``trumps``) and every candidate call played out in them (``evaluate``).
    ``pitchsim advise`` and the advisor seat's clock ask the same questions of it."""

    seed: int
    n: int
    seat: int
    hand: np.int64
    dealer: int
    heard: np.ndarray
    scores: np.ndarray
    bidders: np.ndarray
    players: np.ndarray
    fr: np.ndarray
    tab: np.ndarray
    odds: np.ndarray
    defender: float
    candidates: np.ndarray
    suit_mask: int  # the suits the hand can make trump (``pitchable_suits``)
    max_bid: int
    tremble: float = 0.0  # a caller's chance to slip (``kernels.advice``'s tremble model)

    def accept(self, seed, start, count, fits) -> None:
        engine.accept_deals(
            seed, start, count, self.n, self.seat, self.hand, self.dealer, self.heard,
            self.scores, self.bidders, self.fr, self.tab, self.odds, self.defender,
            self.tremble, fits,
        )  # fmt: skip

    def suits(self, deals: np.ndarray) -> np.ndarray:
        """Points the seat's side takes pitching each deal with each suit (-1: not held)."""
        pts = np.empty((deals.size, 4), dtype=np.int64)
        engine.pitch_suits(
            self.seed, deals, self.n, self.seat, self.hand, self.dealer, self.suit_mask,
            self.players, self.fr, self.tab, pts,
        )  # fmt: skip
        return pts

    def trumps(self, suit_pts: np.ndarray) -> np.ndarray:
        """Each candidate bid's trump: the best expected score at that bid in these deals
        (named, or led in under first-lead)."""
        kept = suit_pts.shape[0]
        return np.array(
            [
                engine.bid_trump(suit_pts, kept, min(c, self.max_bid)) if c > 0 else -1
                for c in self.candidates  # a shoot is made at the maximum bid
            ],
            dtype=np.int64,
        )

    def evaluate(self, deals, trumps, out) -> None:
        engine.evaluate_calls(
            self.seed, deals, self.n, self.seat, self.hand, self.dealer, self.heard,
            self.candidates, trumps, self.scores, self.bidders, self.players, self.fr,
            self.tab, self.odds, self.defender, out,
        )  # fmt: skip

    def warm(self) -> None:
        """Compile (or load) every kernel a run calls, on no deals: done before a clock
        starts, so that the budget is the search's own."""
        none = np.empty(0, dtype=np.int64)
        self.accept(self.seed, 0, 0, np.empty(0, dtype=np.bool_))
        self.suits(none)
        self.trumps(np.zeros((1, 4), dtype=np.int64))
        self.evaluate(none, np.full(self.candidates.size, -1, dtype=np.int64), self._rows(0))

    def _rows(self, count: int) -> np.ndarray:
        return np.empty((count, self.candidates.size, engine.N_OUTCOMES))


@dataclass
class TimedCall:
    call: int | None  # None: too few deals, the caller calls as the model
    trump: int  # the bid's planned trump (-1: a pass, or none)
    search: dict  # {"deals", "deals_max", "tried", "stop", ...}: what the clock allowed


def timed_advisor_call(k: PresetKernels, samples: int, budget: float) -> TimedCall:
    """The advisor's call among ``k.candidates`` from ``samples`` deals at most, within
    ``budget`` seconds (see the module).  Reading the clock costs a kernel call's time
    at most (``SLICE``)."""
    tries = samples * DEFAULT_TRIES
    candidates = k.candidates
    # The kernels loaded (compiled, once per install) before the clock starts, as hint
    # does: a first call must not spend its budget compiling.
    k.warm()
    start = perf_counter()
    deadline = start + budget
    half = start + budget / 2

    looks = rounds(samples, FIRST_ROUND)
    z = stop_z(len(looks) - 1, candidates.size)
    deals = np.empty(0, dtype=np.int64)  # found (fit the calls), in deal order
    pts = np.empty((0, 4), dtype=np.int64)  # suit points of deals[:len(pts)]
    o = k._rows(0)  # the calls played out in deals[:len(o)]
    tried = 0
    trumps = None
    trump_deals = 0
    stop = ALL_DONE
    rate = {}  # seconds per deal, lately: "try", "pitch", "play"

    def size(what: str, left: int, first: int) -> int:
        n_ = first if what not in rate else int(SLICE / max(rate[what], 1e-9))
        return max(min(n_, left, 1 << 21), 1)

    def timed(what: str, count: int, step, *args):
        t = perf_counter()
        result = step(*args)
        rate[what] = (perf_counter() - t) / count
        return result

    def first_round_in() -> bool:  # the trumps can be picked from the deals pitched
        m = len(pts)
        return m > 0 and (
            m >= looks[0]
            or (tried >= tries and m == deals.size)
            or (m >= min(MIN_DEALS, samples) and perf_counter() >= half)
        )

    j = 0
    while True:
        look = looks[j]
        while deals.size < look and tried < tries and perf_counter() < deadline:
            if trumps is None and deals.size >= MIN_DEALS and perf_counter() >= half:
                break  # half the time gone finding the first round: play what was found
            count = size("try", tries - tried, FIND_CHUNK)
            fits = np.empty(count, dtype=np.bool_)
            timed("try", count, k.accept, k.seed, tried, count, fits)
            idx = np.flatnonzero(fits)[: look - deals.size] + tried
            # tried: up to the last deal kept when the round is full (as the kernel stops)
            tried = int(idx[-1]) + 1 if deals.size + idx.size == look else tried + count
            deals = np.concatenate([deals, idx])
        # Pitch (each suit's points: the trumps) and play out what was found, by slices.
        while len(o) < deals.size and perf_counter() < deadline:
            if len(pts) < deals.size and (trumps is None or len(pts) == len(o)):
                chunk = deals[len(pts) : len(pts) + size("pitch", deals.size - len(pts), 64)]
                pts = np.concatenate([pts, timed("pitch", chunk.size, k.suits, chunk)])
                if trumps is None and first_round_in():
                    trumps = k.trumps(pts)
                    trump_deals = len(pts)
                continue
            if trumps is None:
                break  # the first round is not all found: find on (or the clock stops it)
            chunk = deals[len(o) : len(o) + size("play", len(pts) - len(o), 16)]
            out = k._rows(chunk.size)
            timed("play", chunk.size, k.evaluate, chunk, trumps, out)
            o = np.concatenate([o, out])
        if len(o) < deals.size or (deals.size < look and tried < tries):
            if perf_counter() < deadline:
                continue  # found or played in part at half time: on with the same round
            stop = CLOCK
            break
        if deals.size < look or j == len(looks) - 1:  # the tries ran out, or all done
            break
        if wins_separated(o[:, :, engine.O_WON] > 0, advisor_pick(o), z):
            stop = SEPARATED
            break
        if perf_counter() >= deadline:
            stop = CLOCK
            break
        j += 1
    done = len(o)
    search = {"deals": done, "deals_max": samples, "tried": tried, "stop": stop}
    if done and stop == ALL_DONE and trump_deals < done:
        # Every deal played: the trumps from all of them, as the unclocked advisor picks
        # them, and the deals played again with those if any differs and time allows.
        again = k.trumps(pts)
        if not np.array_equal(again, trumps):
            if perf_counter() + rate["play"] * done <= deadline:
                trumps = again
                o = k._rows(done)
                k.evaluate(deals, trumps, o)
                trump_deals = done
            else:
                search["stop"] = CLOCK
        else:
            trump_deals = done  # the same trumps as all the deals give
    search["trump_deals"] = trump_deals
    too_few = (stop == ALL_DONE and done < max(1, samples // 4)) or done < min(MIN_DEALS, samples)
    search["seconds"] = round(perf_counter() - start, 4)
    if too_few:  # the model's call, as the kernel falls back to
        search["fallback"] = "model"
        return TimedCall(None, -1, search)
    best = advisor_pick(o)
    return TimedCall(int(candidates[best]), int(trumps[best]), search)
