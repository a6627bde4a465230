"""The ``advisor`` bidding policy on a clock: the call a seat's advisor makes, answered
within a time budget (``KernelSeat(time=...)``, the engine's ``options.time``).

Without a clock the advisor (``kernels.advisor``) keeps ``samples`` deals that
fit the calls heard, picks each bid's trump from them and plays every legal call in
each to the end of the game, all in one kernel call.  Here the same deals, in the same
order, are found and played by the advice kernels (``kernels.advice``: deal i of the
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
advisor may try) it calls as its model would, as the unclocked advisor does.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass
from time import perf_counter

import numpy as np

from ..kernels import advice as engine
from ..kernels.advisor import (
    A_MODEL,
    A_OBJECTIVE,
    A_PLAY,
    A_SAMPLES,
    A_TRIES,
    DEFAULT_SAMPLES,
    DEFAULT_TRIES,
    MARGIN,
    N_ADVISOR_PARAMS,
)
from ..kernels.bidding.odds import MAX_BID, N_PARAMS
from ..kernels.dispatch import choose_bid
from ..kernels.rng import draw

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


def advisor_pick(out: np.ndarray, by_margin: bool) -> int:
    """The candidate ``kernels.advisor`` picks from the outcomes ``out`` (deals x
    calls x outcomes): the most games won, ties by the hand's margin (``by_margin``: the
    margin alone); the first of equals.  Sums in deal order, as the kernel does."""
    kept = out.shape[0]
    best, best_value = 0, -1e18
    for c in range(out.shape[1]):
        margin = float(np.cumsum(out[:, c, engine.O_MARGIN])[-1]) if kept else 0.0
        wins = float((out[:, c, engine.O_WON] > 0).sum())
        v = margin if by_margin else wins + margin / (16.0 * kept + 1.0)
        if v > best_value:
            best_value, best = v, c
    return best


@dataclass
class TimedCall:
    call: int
    trump: int  # the bid's planned trump (-1: a pass)
    search: dict  # {"deals", "deals_max", "tried", "stop", ...}: what the clock allowed


def timed_advisor_call(
    hand: int,
    seat: int,
    n: int,
    dealer: int,
    calls: np.ndarray,
    n_calls: int,
    high: int,
    high_seat: int,
    lowest: int,
    can_pass: bool,
    scores: np.ndarray,
    rules: np.ndarray,
    odds: np.ndarray,
    params: np.ndarray,
    key: np.uint64,
    counter: int,
    budget: float,
) -> TimedCall:
    """The advisor's call (``advisor_bid``'s arguments) within ``budget`` seconds (see the
    module).  Reading the clock costs a kernel call's time at most (``SLICE``)."""
    if params.size < N_PARAMS + N_ADVISOR_PARAMS:
        samples, model, play_id, by_margin, tries = DEFAULT_SAMPLES, 2, 1, False, DEFAULT_TRIES
    else:
        samples = int(params[A_SAMPLES])
        model = int(params[A_MODEL])
        play_id = int(params[A_PLAY])
        by_margin = int(params[A_OBJECTIVE]) == MARGIN
        tries = int(params[A_TRIES])
    tries *= samples
    bidding = np.full(n, model, dtype=np.int64)
    play = np.full(n, play_id, dtype=np.int64)
    heard = np.ascontiguousarray(calls[:n_calls], dtype=np.int64)
    candidates = np.array(
        ([0] if can_pass else []) + list(range(lowest, MAX_BID + 1)), dtype=np.int64
    )
    seed = np.int64(draw(np.uint64(key), counter) >> np.uint64(2))  # as advisor_bid
    hand64 = np.int64(hand)
    tables = engine.no_tables(n_calls)
    # The kernels loaded (compiled, once per install) before the clock starts, as hint
    # does: a first call must not spend its budget compiling.
    _warm(seed, n, seat, hand64, dealer, heard, candidates, scores, bidding, play, rules,
          odds, params, tables)  # fmt: skip
    start = perf_counter()
    deadline = start + budget
    half = start + budget / 2

    looks = rounds(samples, FIRST_ROUND)
    z = stop_z(len(looks) - 1, candidates.size)
    deals = np.empty(0, dtype=np.int64)  # found (fit the calls), in deal order
    pts = np.empty((0, 4), dtype=np.int64)  # pitch_suits of deals[:len(pts)]
    o = np.empty((0, candidates.size, engine.N_OUTCOMES))  # evaluate_calls of deals[:len(o)]
    tried = 0
    trumps = None
    trump_deals = 0
    stop = ALL_DONE
    rate = {}  # seconds per deal, lately: "try", "pitch", "play"

    def size(what: str, left: int, first: int) -> int:
        n_ = first if what not in rate else int(SLICE / max(rate[what], 1e-9))
        return max(min(n_, left, 1 << 21), 1)

    def timed(what: str, count: int, kernel, *args) -> None:
        t = perf_counter()
        kernel(*args)
        rate[what] = (perf_counter() - t) / count

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
            timed("try", count, engine.accept_deals,
                seed, tried, count, n, seat, hand64, dealer, heard, scores, bidding,
                rules, odds, params, *tables, fits,
            )  # fmt: skip
            idx = np.flatnonzero(fits)[: look - deals.size] + tried
            # tried: up to the last deal kept when the round is full (as advisor_bid stops)
            tried = int(idx[-1]) + 1 if deals.size + idx.size == look else tried + count
            deals = np.concatenate([deals, idx])
        # Pitch (each suit's points: the trumps) and play out what was found, by slices.
        while len(o) < deals.size and perf_counter() < deadline:
            if len(pts) < deals.size and (trumps is None or len(pts) == len(o)):
                chunk = deals[len(pts) : len(pts) + size("pitch", deals.size - len(pts), 64)]
                p = np.empty((chunk.size, 4), dtype=np.int64)
                timed("pitch", chunk.size, engine.pitch_suits,
                    seed, chunk, n, seat, hand64, play, rules, p
                )  # fmt: skip
                pts = np.concatenate([pts, p])
                if trumps is None and first_round_in():
                    trumps = _trumps(pts, candidates)
                    trump_deals = len(pts)
                continue
            if trumps is None:
                break  # the first round is not all found: find on (or the clock stops it)
            chunk = deals[len(o) : len(o) + size("play", len(pts) - len(o), 16)]
            out = np.empty((chunk.size, candidates.size, engine.N_OUTCOMES))
            timed("play", chunk.size, engine.evaluate_calls,
                seed, chunk, n, seat, hand64, dealer, heard, candidates, trumps, scores,
                bidding, play, rules, odds, params, out,
            )  # fmt: skip
            o = np.concatenate([o, out])
        if len(o) < deals.size or (deals.size < look and tried < tries):
            if perf_counter() < deadline:
                continue  # found or played in part at half time: on with the same round
            stop = CLOCK
            break
        if deals.size < look or j == len(looks) - 1:  # the tries ran out, or all done
            break
        if not by_margin and wins_separated(
            o[:, :, engine.O_WON] > 0, advisor_pick(o, by_margin), z
        ):
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
        again = _trumps(pts, candidates)
        if not np.array_equal(again, trumps):
            if perf_counter() + rate["play"] * done <= deadline:
                trumps = again
                o = np.empty((done, candidates.size, engine.N_OUTCOMES))
                engine.evaluate_calls(
                    seed, deals, n, seat, hand64, dealer, heard, candidates, trumps,
                    scores, bidding, play, rules, odds, params, o,
                )  # fmt: skip
                trump_deals = done
            else:
                search["stop"] = CLOCK
        else:
            trump_deals = done  # the same trumps as all the deals give
    search["trump_deals"] = trump_deals
    too_few = (stop == ALL_DONE and done < max(1, samples // 4)) or done < min(MIN_DEALS, samples)
    if too_few:  # the model's call, as advisor_bid falls back to
        call, suit = choose_bid(
            np.int64(model), hand64, seat, n, dealer, calls, n_calls, high, high_seat,
            lowest, can_pass, scores, rules, odds, params, np.uint64(key), counter,
        )  # fmt: skip
        search["fallback"] = "model"
        search["seconds"] = round(perf_counter() - start, 4)
        return TimedCall(int(call), int(suit), search)
    best = advisor_pick(o, by_margin)
    search["seconds"] = round(perf_counter() - start, 4)
    return TimedCall(int(candidates[best]), int(trumps[best]), search)


def _warm(seed, n, seat, hand64, dealer, heard, candidates, scores, bidding, play, rules,
          odds, params, tables) -> None:  # fmt: skip
    """Every kernel of the timed call run on no deals, with the argument types it is then
    called with (so nothing compiles again under the clock)."""
    none = np.empty(0, dtype=np.int64)
    engine.accept_deals(seed, 0, 0, n, seat, hand64, dealer, heard, scores, bidding,
                        rules, odds, params, *tables, np.empty(0, dtype=np.bool_))  # fmt: skip
    engine.pitch_suits(seed, none, n, seat, hand64, play, rules, np.empty((0, 4), np.int64))
    _trumps(np.full((1, 4), -1, dtype=np.int64), candidates)  # no suit held: no deal read
    engine.evaluate_calls(seed, none, n, seat, hand64, dealer, heard, candidates,
                          np.full(candidates.size, -1, dtype=np.int64), scores, bidding, play,
                          rules, odds, params,
                          np.empty((0, candidates.size, engine.N_OUTCOMES)))  # fmt: skip


def _trumps(suit_pts: np.ndarray, candidates: np.ndarray) -> np.ndarray:
    kept = suit_pts.shape[0]
    return np.array(
        [engine.bid_trump(suit_pts, kept, c) if c > 0 else -1 for c in candidates],
        dtype=np.int64,
    )
