"""Table-side advice: which call to make from this seat, after these calls, at this score.

``advise`` deals the unseen cards to the other seats, keeps the deals in which every
earlier caller, bidding by the model strategy, makes the call he made (rejection
sampling in ``pitchsim.kernels.advice``), and plays each of the seat's legal calls in
every kept deal to the end of the game: the later seats call by the model, the hand is
played by the play policy and settled, and the rest of the game is played out by the
model's strategies from the new scores.  It recommends the call that wins the game most
often and says whether its lead over the next call is bigger than the error.  On a
clock (``time=``) it plays the deals out in rounds and stops as soon as that lead is
clear (a sequential rule, see ``stop_z``), or when the time is up.

>>> r = advise("AH KH QH JH TH 9H", players=4, seat=1, dealer=0, samples=200, seed=1)
>>> r.recommended_call
4
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, field
from time import perf_counter

import numpy as np

from ..game.cards import SUITS, format_card, mask_of, parse_cards
from ..game.reference import MAX_BID, PASS, legal_calls
from ..game.rules import BASE_RULES, BIDS, Rules, label
from ..game.view import STEAL, call_text, steals
from ..kernels import advice as engine
from ..kernels.presets import rest_of_game, rules_array, rules_table

# The rounds and the stopping z are the advisor seat's clock's too (``table.advisor_clock``).
from ..table.advisor_clock import FIRST_ROUND as FIRST_ROUND
from ..table.advisor_clock import STOP_ERROR as STOP_ERROR
from ..table.advisor_clock import PresetKernels, rounds, stop_z
from ..table.bidding import Strategy
from ..table.boards import odds_for, seat_ids
from ..table.game import check_table
from ..table.policies import play_array, play_policy, searches
from ..util.conflicts import settle
from ..util.errors import InputError, quoted
from ..util.limits import (
    MAX_ADVISE_SAMPLES,
    MAX_ADVISE_TIME,
    MAX_SCORE,
    MAX_TARGET,
    check_count,
    check_seconds,
)
from ..util.runtime import chunked, pick_seed, use_threads
from ..util.stats import Z95, too_few, wilson
from .defence import Correction, correction_for, shifted, weights
from .odds import trump_suits

DEFAULT_MODEL = "odds"  # the strongest bidder in pitchsim's tournaments (see README)
DEFAULT_SAMPLES = 6_000  # kept deals: P(win) to about +/-1.3% (the differences: tighter)
MAX_TRIES = 1 << 22  # deals tried at most before giving up on a history
MIN_KEPT = 200  # fewer kept deals than this: the model (almost) never makes these calls
TREMBLE = 0.05  # then a caller's chance to slip, making the call heard whatever he holds
PROBE = 1 << 16  # on a clock, deals looked at first: none fitting calls for the slips
EVALUATE_CHUNK = 4096  # kept deals per kernel call: progress and Ctrl-C land between

# On a clock (``time=``): the kept deals are played out in rounds that end at these
# counts (doubling from FIRST_ROUND, the last at ``samples``), and after each round but
# the last the run stops if the best call is ahead of every other by more than
# STOP_Z(looks, calls) standard errors of the paired difference (``separated``).
SLICE = 0.25  # seconds per kernel call at most on a clock, so that it stops near its end
FIND_SHARE = 0.5  # of the time left for finding deals, before any were found and played

SEPARATED = "separated"
ALL_DONE = "all deals done"
CLOCK = "stopped by the clock"


class AuctionError(InputError):
    """Calls that are not a legal auction, or not the ones before this seat."""


class UnlikelyCalls(InputError):
    """A history of calls the model (almost) never makes with the cards left."""


def _calls_known(rules: Rules | None) -> tuple[int, str]:
    """The highest call code of the rules and the calls in words, for the messages."""
    r = rules or BASE_RULES
    top = r.max_bid + 1 if r.shoot else r.max_bid
    return top, f"pass or a bid 1-{r.max_bid}" + (" or shoot" if r.shoot else "")


def parse_call(text: str, rules: Rules | None = None) -> int:
    top, known = _calls_known(rules)
    t = text.strip().lower()
    if t in ("pass", "p", "-"):
        return PASS
    if t == "shoot" and top > (rules or BASE_RULES).max_bid:
        return top
    if t.isdigit() and len(t) <= 2 and 1 <= int(t) <= (rules or BASE_RULES).max_bid:
        return int(t)
    raise AuctionError(f"cannot read call {quoted(text)}: a call is {known}")


def parse_calls(calls: str | Sequence[int | str] | None, rules: Rules | None = None) -> list[int]:
    """The calls heard, as call codes (0 pass, the bids, the shoot one above the top)."""
    top, known = _calls_known(rules)
    if calls is None:
        return []
    if isinstance(calls, str):
        if not calls.strip():
            return []
        calls = calls.split(",")
        if any(not c.strip() for c in calls):  # "pass,,2": a call left out, not skipped
            raise AuctionError(f"empty call in {quoted(','.join(calls))}: give {known} each")
    out = []
    for c in calls:
        if isinstance(c, str):
            out.append(parse_call(c, rules))
        elif isinstance(c, bool) or not isinstance(c, (int, np.integer)) or not 0 <= c <= top:
            raise AuctionError(f"cannot read call {quoted(c)}: a call is {known} (pass is 0)")
        else:
            out.append(int(c))
    return out


def parse_scores(scores: str | Sequence[int] | None, players: int, rules: Rules) -> list[int]:
    """Per-seat game scores from ``"3,5,0,-2"`` (in a partnership also one per team,
    ``"5,3"`` = seats 0+2 on 5, 1+3 on 3); all 0 when None."""
    if scores is None:
        return [0] * players
    items = scores.split(",") if isinstance(scores, str) else list(scores)
    values = []
    for x in items:
        try:
            if isinstance(x, str) and len(x.strip()) > 20:  # int() of 4,300+ digits fails
                raise ValueError(x)
            v = int(x.strip()) if isinstance(x, str) else operator_index(x)
        except (TypeError, ValueError, OverflowError):
            shown = quoted(x.strip() if isinstance(x, str) else x)
            raise InputError(f"scores are whole numbers, not {shown}") from None
        if not -MAX_SCORE <= v <= MAX_SCORE:  # the kernels count in int64: never near it
            raise InputError(
                f"a game score must be {-MAX_SCORE:,} to {MAX_SCORE:,} (docs/limits.md), not {v:,}"
            )
        values.append(v)
    if rules.partnership and len(values) == 2:
        values = [values[s % 2] for s in range(players)]
    if len(values) != players:
        teams = " (or 2, one per team)" if rules.partnership else ""
        raise InputError(f"give one score per seat: {players}{teams}, not {len(values)}")
    if rules.partnership and (values[0] != values[2] or values[1] != values[3]):
        raise InputError("partners share one score: seats 0 and 2, 1 and 3 must be equal")
    return values


def operator_index(x) -> int:
    if isinstance(x, bool):
        raise ValueError(x)
    if isinstance(x, (int, np.integer)):
        return int(x)
    if not float(x).is_integer():  # 3.0 is 3; inf and NaN are refused (OverflowError/ValueError)
        raise ValueError(x)
    return int(x)


def check_auction(
    calls: list[int],
    players: int,
    seat: int,
    dealer: int,
    rules: Rules,
    scores: Sequence[int] | None = None,
) -> list[int]:
    """Check the calls heard before ``seat`` are a legal auction from the dealer's left
    up to the seat before it; return the seat's legal calls (the reference auction of
    every preset, ``game.reference.legal_calls``: a seat below zero may not
    shoot, so the ``scores`` count where the rules have a shoot)."""
    n = players
    for name, s in (("seat", seat), ("dealer", dealer)):
        if not 0 <= s < n:
            raise InputError(f"{name} {s} is not a seat of a {n}-player table (0-{n - 1})")
    before = (seat - dealer - 1) % n  # callers from the dealer's left up to the seat
    if len(calls) != before:
        first = (dealer + 1) % n
        who = (
            ""
            if before == 0
            else f" (seats {', '.join(str((first + i) % n) for i in range(before))})"
        )
        raise AuctionError(
            f"seat {seat} is caller {before + 1} after dealer {dealer}: give the {before} "
            f"call{'s' if before != 1 else ''} before it{who}, not {len(calls)}"
        )

    def name(c: int) -> str:
        return call_text(c, rules)

    def ended(heard: list[int]) -> str:
        last = max(heard)
        return "a shoot" if name(last) == "shoot" else f"a {last}"

    def legal_now(heard: list[int], caller: int) -> list[int]:
        may_shoot = scores is None or scores[caller] >= 0
        return legal_calls(heard, caller == dealer, rules, may_shoot=may_shoot)

    heard: list[int] = []
    for i, c in enumerate(calls):
        caller = (dealer + 1 + i) % n
        legal = legal_now(heard, caller)
        if not legal:
            raise AuctionError(f"seat {caller} cannot call: {ended(heard)} ended the auction")
        if c not in legal:
            raise AuctionError(
                f"seat {caller} cannot call {name(c)} after "
                f"{', '.join(map(name, heard)) or 'nothing'} "
                f"(legal: {', '.join(map(name, legal))})"
            )
        heard.append(c)
    legal = legal_now(heard, seat)
    if not legal:
        raise AuctionError(f"seat {seat} has no call: {ended(heard)} ended the auction")
    return legal


@dataclass
class Estimate:
    """A Monte Carlo estimate and its 95% interval."""

    value: float
    ci95: tuple[float, float]

    @classmethod
    def proportion(cls, hits: int, trials: int) -> Estimate:
        if trials == 0:
            return cls(float("nan"), (float("nan"), float("nan")))
        lo, hi = wilson(hits, trials)
        return cls(hits / trials, (float(lo), float(hi)))

    @classmethod
    def mean(cls, x: np.ndarray) -> Estimate:
        m = float(x.mean())
        # NaN, never printed or written: too_few() holds below two deals
        half = Z95 * float(x.std(ddof=1)) / np.sqrt(x.size) if x.size > 1 else float("nan")
        return cls(m, (m - half, m + half))

    @property
    def half_width(self) -> float:
        return (self.ci95[1] - self.ci95[0]) / 2


def _number(x: float) -> float | None:
    """A float for JSON: None where there is no estimate (made, when never pitching)."""
    return None if x != x else float(x)


@dataclass
class CallAdvice:
    """What one call of the seat led to over the kept deals."""

    call: int
    label: str  # "pass", "2", "2 (steal)"
    p_pitcher: Estimate  # the seat or its partner became the pitcher
    p_made: Estimate  # made the bid, given the seat's side pitched
    expected_score: Estimate  # the seat's score for the hand
    expected_margin: Estimate  # minus the average opponent's (the other team's)
    p_win_game: Estimate
    trump: int | None  # the suit the seat leads when it pitches at this bid
    trump_share: dict[int, float]  # trump when the seat's side pitched -> share
    unfinished: int  # games that hit the deal limit (counted as not won)
    samples: int = 0  # kept deals these estimates are from

    def to_json(self) -> dict:
        names = ("p_pitcher", "p_made", "expected_score", "expected_margin", "p_win_game")
        doc: dict = {"call": self.label.removesuffix(STEAL), "label": self.label}
        doc |= {k: _number(getattr(self, k).value) for k in names}
        doc["ci95"] = (
            None
            if too_few(self.samples)
            else {  # no interval from a handful
                k: [_number(x) for x in getattr(self, k).ci95] for k in names
            }
        )
        doc["trump"] = SUITS[self.trump] if self.trump is not None else None
        doc["trump_when_pitching"] = {SUITS[s]: p for s, p in self.trump_share.items()}
        doc["unfinished_games"] = self.unfinished
        return doc


@dataclass
class SuitAdvice:
    """The seat pitching with one trump suit in the kept deals: P(make k), k = 1 .. the
    rules' maximum bid."""

    suit: int
    points: np.ndarray  # kept deals by points the seat's side took, 0 .. the maximum bid

    @property
    def samples(self) -> int:
        return int(self.points.sum())

    def p_make(self, k: int) -> Estimate:
        return Estimate.proportion(int(self.points[k:].sum()), self.samples)

    def expected_score(self, k: int) -> float:
        pts = np.arange(self.points.size)
        return float((np.where(pts >= k, pts, -k) * self.points).sum() / self.samples)


@dataclass
class Advice:
    hand: list[int]
    players: int
    seat: int
    dealer: int
    calls: list[int]
    scores: list[int]
    rules: Rules
    model: str
    play: str
    seed: int
    samples: int  # deals kept
    tried: int  # deals dealt to keep them
    legal_calls: list[int]
    by_call: dict[int, CallAdvice]
    by_suit: dict[int, SuitAdvice]
    recommended_call: int
    runner_up: int | None
    difference: Estimate | None  # P(win): recommended minus runner-up, paired per deal
    notes: list[str] = field(default_factory=list)
    # The recommended call is not clearly behind the runner-up or ahead of it (inside the
    # error, or too few deals): the cautious one of them was chosen; either is fine.
    either_is_fine: bool = False
    # Why the sampling stopped: SEPARATED, ALL_DONE (every deal asked for, or every one
    # that fit in the deals tried) or CLOCK.  Only a run on a clock stops otherwise.
    stopped: str = ALL_DONE
    time_budget: float | None = None  # seconds given (``time=``); None: no clock
    seconds: float | None = None  # on a clock: the seconds used (kernels compiled before)
    trump_deals: int | None = None  # kept deals the bids' trump suits were picked from
    hands_played: int = 0  # under hands=N (12.4): the hands counted before this one
    # The chance a caller slips (``kernels.advice``'s tremble model): above 0 when the
    # model itself keeps too few deals for the calls heard.
    tremble: float = 0.0
    # P(make) corrected for defenders who search (``advice.defence``), where measured.
    correction: Correction | None = None

    @property
    def too_few_deals(self) -> bool:
        return too_few(self.samples)

    @property
    def target(self) -> int:
        return self.rules.target

    @property
    def levels(self) -> range:
        """The bids 1 .. the rules' maximum (the points they can award)."""
        return range(1, self.rules.max_bid + 1)

    def call_name(self, call: int) -> str:
        return call_text(call, self.rules)

    @property
    def hands_left(self) -> int | None:
        """Under hands=N (12.4) the hands the game has left, this one included."""
        n = self.rules.hands_limit
        return n - self.hands_played if n else None

    @property
    def acceptance_rate(self) -> float:
        return self.samples / self.tried

    @property
    def difference_inside_error(self) -> bool | None:
        """None: one legal call, or too few deals to give an error at all."""
        if self.difference is None or self.too_few_deals:
            return None
        lo, hi = self.difference.ci95
        return bool(lo <= 0 <= hi and lo < hi)

    def to_json(self) -> dict:
        d = self.difference
        return {
            "hand": [format_card(c, symbols=False) for c in self.hand],
            "players": self.players,
            "seat": self.seat,
            "dealer": self.dealer,
            "calls": [self.call_name(c) for c in self.calls],
            "scores": self.scores,
            "target": self.target,
            "partnership": self.rules.partnership,
            "rules": self.rules.describe(),
            "preset": label(self.rules),
            "model": self.model,
            "play": self.play,
            "seed": self.seed,
            "samples": self.samples,
            "tried": self.tried,
            "acceptance_rate": self.acceptance_rate,
            "legal_calls": [self.call_name(c) for c in self.legal_calls],
            "by_call": {self.call_name(c): a.to_json() for c, a in self.by_call.items()},
            "by_suit": {
                SUITS[s]: {
                    "p_make": {str(k): o.p_make(k).value for k in self.levels},
                    "ci95": {
                        str(k): None if self.too_few_deals else list(o.p_make(k).ci95)
                        for k in self.levels
                    },
                    "expected_score": {str(k): o.expected_score(k) for k in self.levels},
                }
                for s, o in self.by_suit.items()
            },
            "recommended_call": self.call_name(self.recommended_call),
            "runner_up": self.call_name(self.runner_up) if self.runner_up is not None else None,
            "p_win_difference": d.value if d else None,
            "p_win_difference_ci95": list(d.ci95) if d and not self.too_few_deals else None,
            "difference_inside_error": self.difference_inside_error,
            "either_is_fine": self.either_is_fine,
            "too_few_deals": self.too_few_deals,
            "stopped": self.stopped,
            "time": None
            if self.time_budget is None
            else {
                "budget": self.time_budget,
                "seconds": self.seconds,
                "trump_deals": self.trump_deals,
            },
            "tremble": self.tremble,
            "search_correction": None
            if self.correction is None
            else {"logit_shift": self.correction.shift, "source": self.correction.source},
            "notes": self.notes,
            **(
                {"hands_played": self.hands_played, "hands_left": self.hands_left}
                if self.hands_left is not None
                else {}
            ),
        }

    def to_frame(self):
        """One row per legal call (a pandas DataFrame)."""
        import pandas as pd

        rows = []
        for c, a in self.by_call.items():
            row = {"call": self.call_name(c), "label": a.label}
            for k in ("p_win_game", "p_pitcher", "p_made", "expected_score", "expected_margin"):
                e = getattr(a, k)
                row[k], row[f"{k}_lo"], row[f"{k}_hi"] = e.value, *e.ci95
            row["trump"] = SUITS[a.trump] if a.trump is not None else None
            row["recommended"] = c == self.recommended_call
            rows.append(row)
        return pd.DataFrame(rows)


def keep_deals(
    seed,
    samples,
    max_tries,
    accept,
    start: int = 0,
    deadline: float | None = None,
) -> tuple[np.ndarray, int]:
    """The first ``samples`` deal numbers from ``start`` on that fit the calls (fewer if
    the deals up to ``max_tries`` give fewer, or the clock reaches ``deadline``) and the
    deals tried up to the last one kept (all those looked at, when short): the same
    for any chunking.  ``accept(seed, start, count, fits)`` marks the deals that fit
    (``PresetKernels.accept``)."""
    kept: list[np.ndarray] = []
    found = 0
    tried = start
    chunk = 1 << 14
    while found < samples and tried < max_tries:
        if deadline is not None and kept and perf_counter() >= deadline:
            break  # (one kernel call at least: a tiny budget still looks at some deals)
        count = min(chunk, max_tries - tried)
        fits = np.empty(count, dtype=np.bool_)
        began = perf_counter()
        accept(seed, tried, count, fits)
        took = perf_counter() - began
        idx = np.flatnonzero(fits) + tried
        kept.append(idx)
        found += idx.size
        tried += count
        rate = max(found, 1) / (tried - start)
        chunk = int(min(1 << 21, max(1 << 14, 1.2 * (samples - found) / rate)))
        if deadline is not None:  # a kernel call of SLICE seconds at most, and none past it
            per_second = count / max(took, 1e-6)
            left = min(SLICE, deadline - perf_counter())
            chunk = int(min(chunk, max(BLOCK_OF_DEALS, per_second * left)))
    deals = np.concatenate(kept)[:samples] if kept else np.empty(0, dtype=np.int64)
    if deals.size == samples and samples > 0:
        tried = int(deals[-1]) + 1
    return deals.astype(np.int64), tried


BLOCK_OF_DEALS = 1024  # the smallest kernel call on a clock


def weighed(out: np.ndarray, shift: float | None) -> tuple[np.ndarray, np.ndarray]:
    """Games won (1/0) and the hand's margins, deals x calls, each weighed by the deal's
    weight under the search correction's ``shift`` (``defence.weights``; None: none)."""
    wins = (out[:, :, engine.O_WON] > 0).astype(float)
    margin = out[:, :, engine.O_MARGIN]
    if shift is None:
        return wins, margin
    w = weights(out, shift)
    return wins * w, margin * w


def ranking(out: np.ndarray, legal: list[int], shift: float | None = None) -> list[int]:
    """Candidates best first: highest P(win); ties by the hand's margin, then the higher
    call (the same outcome, and nobody can outbid a 4)."""
    won, margins = weighed(out, shift)
    wins, margin = won.sum(axis=0), margins.mean(axis=0)
    return sorted(range(len(legal)), key=lambda i: (wins[i], margin[i], legal[i]), reverse=True)


def separated(out: np.ndarray, legal: list[int], z: float, shift: float | None = None) -> bool:
    """Is the best call ahead of every other by more than ``z`` standard errors of the
    paired difference of wins (deal by deal)?  One legal call: nothing to separate."""
    if len(legal) == 1:
        return True
    count = out.shape[0]
    if count < 2:
        return False
    wins = weighed(out, shift)[0]
    best, *others = ranking(out, legal, shift)
    for i in others:
        d = wins[:, best] - wins[:, i]
        if not d.mean() - z * d.std(ddof=1) / np.sqrt(count) > 0:
            return False
    return True


@dataclass
class _Sampled:
    deals: np.ndarray  # kept deal numbers, in order, every one played out
    tried: int
    suit_pts: np.ndarray
    trumps: np.ndarray
    out: np.ndarray
    stopped: str = ALL_DONE
    seconds: float | None = None
    trump_deals: int | None = None
    short: bool = False  # the deals tried ran out before the samples were kept


def _all_at_once(k: PresetKernels, samples: int, max_tries: int, progress) -> _Sampled:
    """No clock: keep ``samples`` deals, pick the bids' trumps from them, play them out."""
    deals, tried = keep_deals(k.seed, samples, max_tries, k.accept)
    kept = deals.size
    suit_pts = k.suits(deals)
    trumps = k.trumps(suit_pts) if kept else np.full(k.candidates.size, -1, dtype=np.int64)
    out = k._rows(kept)
    for start, stop in chunked(kept, EVALUATE_CHUNK):  # each deal alone: any chunking
        k.evaluate(deals[start:stop], trumps, out[start:stop])
        if progress:
            progress(stop - start, kept)
    return _Sampled(deals, tried, suit_pts, trumps, out, short=kept < samples)


def _on_clock(
    k: PresetKernels, samples: int, max_tries: int, budget: float, progress, shift: float | None
) -> _Sampled:
    """Keep and play out deals in rounds (``rounds``) until the best call is separated
    from the others (``separated``), every deal is done or ``budget`` seconds are spent.
    The deals are the same as without a clock, in the same order: only the count used
    depends on the clock (the bids' trumps come from the first round's deals)."""
    k.warm()
    start = perf_counter()
    deadline = start + budget
    looks = rounds(samples)
    z = stop_z(len(looks) - 1, k.candidates.size)
    deals, pts, outs = [], [], []
    kept = tried = 0
    trumps = None
    trump_deals = None
    stopped = ALL_DONE
    short = False
    j = 0
    find_seconds = play_seconds = 0.0
    found_all = 0
    while True:
        look = looks[j]
        # Finding deals leaves time to play them: the share of what is left that the
        # rates so far give the finding (FIND_SHARE until some were found and played).
        now = perf_counter()
        share = FIND_SHARE
        if found_all and kept:
            find_cost, play_cost = find_seconds / found_all, play_seconds / kept
            share = find_cost / (find_cost + play_cost)
        find_by = now + share * (deadline - now)
        new, tried = keep_deals(k.seed, look - kept, max_tries, k.accept, tried, find_by)
        found = new.size
        found_all += found
        find_seconds += perf_counter() - now
        if found:
            playing = perf_counter()
            suit_pts = k.suits(new)
            if trumps is None:
                trumps = k.trumps(suit_pts)
                trump_deals = found
            out = k._rows(found)
            done = 0
            chunk = 64
            while done < found:
                # Play at least a few deals: with none there is no answer.
                if perf_counter() >= deadline and kept + done >= min(found, 32):
                    break
                stop = min(found, done + chunk)
                began = perf_counter()
                k.evaluate(new[done:stop], trumps, out[done:stop])
                per_second = (stop - done) / max(perf_counter() - began, 1e-6)
                if progress:
                    progress(stop - done, samples)
                done = stop
                left = min(SLICE, deadline - perf_counter())
                chunk = int(min(EVALUATE_CHUNK, max(16, per_second * left)))
            play_seconds += perf_counter() - playing
            deals.append(new[:done])
            pts.append(suit_pts[:done])
            outs.append(out[:done])
            kept += done
            if done < found:
                stopped = CLOCK
                break
        whole = kept >= looks[0] or tried >= max_tries  # the first round is all in
        if trump_deals is not None and trump_deals < min(kept, looks[0]) and whole:
            # The first round came in parts (its finding met its share of the clock):
            # with all of it in, the trumps from all of it, as when it comes at once,
            # and its deals played again if that changes any.
            trump_deals = kept
            again = k.trumps(np.concatenate(pts))
            if not np.array_equal(again, trumps):
                trumps = again
                every = np.concatenate(deals)
                outs = [k._rows(every.size)]
                for a, b in chunked(every.size, EVALUATE_CHUNK):
                    k.evaluate(every[a:b], trumps, outs[0][a:b])
        if kept < look:
            if tried >= max_tries:  # every deal tried: as many as fit
                short = True
                break
            if perf_counter() >= deadline:
                stopped = CLOCK
                break
            continue  # the finding's share of the clock ran out: find the rest
        if j == len(looks) - 1:
            break
        if separated(np.concatenate(outs), list(k.candidates), z, shift):
            stopped = SEPARATED
            break
        if perf_counter() >= deadline:
            stopped = CLOCK
            break
        j += 1
    seconds = perf_counter() - start
    if stopped == CLOCK and kept:  # the deals dealt up to the last one used
        tried = int(np.concatenate(deals)[-1]) + 1
    if trumps is None:
        trumps = np.full(k.candidates.size, -1, dtype=np.int64)
    return _Sampled(
        np.concatenate(deals) if deals else np.empty(0, dtype=np.int64),
        tried,
        np.concatenate(pts) if pts else np.empty((0, 4), dtype=np.int64),
        trumps,
        np.concatenate(outs) if outs else k._rows(0),
        stopped,
        seconds,
        trump_deals,
        short,
    )


def _preset_target(rules: Rules) -> int:
    """The target of the rules' preset as it stands (7 for the base game)."""
    return Rules.parse(rules.family).target


def preset_hand(hand: str | Sequence[int], rules: Rules, players: int) -> list[int]:
    """The seat's whole deal under ``rules``: 6 cards, or 9 (10) under deal=9, from the
    preset's pack (its jokers ``HJ``/``LJ``; no 4s where 4.3 takes them out; the short
    packs of VARIANTS.md 12.3)."""
    each = rules.cards_each(players)
    cards = parse_cards(hand, jokers=rules.jokers) if isinstance(hand, str) else list(hand)
    pack = set(rules.pack(players))
    if (
        len(cards) != each
        or len(set(cards)) != each
        or not all(isinstance(c, int | np.integer) and c in pack for c in cards)
    ):
        raise InputError(
            f"a hand under {label(rules)} with {players} players has exactly {each} different "
            f"cards of its {len(pack)}-card pack"
        )
    return [int(c) for c in cards]


def advise(
    hand: str | Sequence[int],
    players: int = 4,
    seat: int = 0,
    dealer: int = 3,
    calls: str | Sequence[int | str] | None = None,
    scores: str | Sequence[int] | None = None,
    target: int | None = None,
    partnership: bool = False,
    rules: Rules | None = None,
    model: str = DEFAULT_MODEL,
    play: str | None = None,
    samples: int | None = None,
    seed: int | None = None,
    threads: int | None = None,
    max_tries: int = MAX_TRIES,
    progress=None,
    time: float | None = None,
    hands_played: int | None = None,
    search_correction: bool = True,
) -> Advice:
    """Advise ``seat``, holding ``hand``, on its call after ``calls`` (the calls made from
    the dealer's left up to the seat before it), at game ``scores`` (per seat; default
    all 0) to ``target`` (default: the rules').

    ``model`` is the strategy (``bidding+play``) every other seat is taken to follow,
    and the seat itself after this call; ``play`` replaces its play policy.  ``samples``
    deals consistent with the calls are kept (default 6,000); deal i of ``seed`` is the
    same on any thread count, so the answer is too.  ``progress(deals_done, total)``
    is called as the kept deals are played out.

    ``time``: seconds to answer in (None: no clock, every deal asked for is played).
    The kernels are compiled (or loaded) first, then the clock starts; the kept deals
    are played out in rounds (1,000, 2,000, 4,000, ... up to ``samples``), and the run
    stops when the best call's lead over every other is bigger than its error by a
    sequential rule (``Advice.stopped``: ``"separated"``), when every deal is done, or
    when the time is up (``"stopped by the clock"``; the one thing that varies from run
    to run).

    ``hands_played``: under hands=N (VARIANTS.md 12.4), the hands counted before this
    one (default 0); the game then lasts the hands left, and P(win game) is the chance
    of the highest total after the last of them.

    ``search_correction``: where defenders who search were measured to set the model's
    bids more often than its own defenders (``advice.defence``: auction-pitch at 5
    players), P(make) and what follows from it are corrected for them (False: the
    model's figures as they are).
    """
    # Every preset, the base game's included, by the one engine's advice kernels.
    rules = rules or BASE_RULES
    if partnership and not rules.partnership:
        rules = dataclasses.replace(rules, partnership=True)
    if target is not None:
        check_count("target", target, MAX_TARGET)
        # A Rules object cannot say whether its target was chosen: one off its preset's
        # is taken as chosen, and a different target= is a conflict.
        chosen = rules.target if rules.target != _preset_target(rules) else None
        settle([(f"target={target}", target), (f"the rules' target={chosen}", chosen)])
        rules = dataclasses.replace(rules, target=target)
    strategy = Strategy.parse(model)
    play_name = play_policy(play).name if play is not None else strategy.play
    # The others' seats as the table sees them: refused as play, tournament and
    # practice refuse them, in the same line (the players, the rules, the strategy).
    model_seat = Strategy(strategy.bidding, play_name)
    check_table([model_seat], rules, players)
    n = players
    preset = rules
    limit = preset.hands_limit
    if hands_played is not None:
        if not limit:
            raise InputError(
                "hands played are counted only under hands=N (VARIANTS.md 12.4): the game "
                "ends at its target"
            )
        if isinstance(hands_played, bool) or not isinstance(hands_played, int):
            raise InputError(f"hands played must be a whole number, not {hands_played!r}")
        preset.check_hands_played(hands_played)
    hands_played = hands_played or 0
    cards = preset_hand(hand, preset, n)
    heard = parse_calls(calls, rules)
    legal = check_auction(heard, n, seat, dealer, rules)
    score_list = parse_scores(scores, n, rules)
    if preset.shoot:  # a seat below zero may not shoot (6.1)
        legal = check_auction(heard, n, seat, dealer, rules, score_list)
    if strategy.bidding == "advisor":
        raise InputError("the model cannot be the advisor itself: use odds, heuristic, ...")
    if play is not None and "+" in model:  # the model names its play: given twice
        settle(
            [
                (f"--model {quoted(model.strip())}", strategy.play),
                (f"--play {quoted(play.strip())}", play_policy(play).name),
            ]
        )
    if searches(play_array([play_policy(play_name).id])):
        # docs/search.md: thousands of deals, each a whole game of search decisions,
        # would take hours; the advisor's simulations play heuristic or random.
        raise InputError(
            f"advise cannot play {play_name} (search play): its simulations play heuristic "
            "or random (docs/search.md); give --play heuristic or a model such as odds"
        )
    samples = DEFAULT_SAMPLES if samples is None else samples
    check_count("samples", samples, MAX_ADVISE_SAMPLES)
    check_seconds("time", time, MAX_ADVISE_TIME)
    if max_tries < samples:
        raise InputError(f"max_tries must be at least the samples ({samples}), not {max_tries}")
    seed = pick_seed(seed)
    pitchable = trump_suits(cards, preset)
    correction = correction_for(preset, n) if search_correction else None
    shift = None if correction is None else correction.shift

    model_seats = [model_seat] * n
    bidders, players_ids = seat_ids(model_seats)
    odds, defender = odds_for(model_seats, preset, n)
    kernels = PresetKernels(
        seed=seed,
        n=n,
        seat=seat,
        hand=np.int64(mask_of(cards)),
        dealer=dealer,
        heard=np.array(heard, dtype=np.int64),
        scores=np.array(score_list, dtype=np.int64),
        bidders=bidders,
        players=players_ids,
        fr=rest_of_game(rules_array(preset), hands_played),
        tab=rules_table(preset),
        odds=odds,
        defender=defender,
        candidates=np.array(legal, dtype=np.int64),
        suit_mask=sum(1 << t for t in pitchable),
        max_bid=preset.max_bid,
    )

    def sample(k: PresetKernels, budget: float | None) -> _Sampled:
        if budget is None:
            return _all_at_once(k, samples, max_tries, progress)
        return _on_clock(k, samples, max_tries, budget, progress, shift)

    heard_text = ", ".join(call_text(c, rules) for c in heard)
    exact = None  # (deals kept, tried) by the plain model, when it kept too few
    with use_threads(threads):
        budget = None if time is None else float(time)
        probed = 0.0
        if budget is not None and heard:
            # On a clock there is no time to try every deal first: no fit among the
            # first PROBE deals (a rate under about 1 in 21,000, as 200 of MAX_TRIES)
            # calls for the slips at once.
            kernels.warm()
            began = perf_counter()
            fits = np.empty(min(PROBE, max_tries), dtype=np.bool_)
            kernels.accept(kernels.seed, 0, fits.size, fits)
            probed = perf_counter() - began
            budget -= probed
            if not fits.any():
                exact = (0, fits.size)
                kernels = dataclasses.replace(kernels, tremble=TREMBLE)
        run = sample(kernels, budget)
        if budget is not None and run.seconds is not None:
            run.seconds += probed
        if exact is None and run.short and run.deals.size < min(MIN_KEPT, samples):
            # The model (almost) never makes these calls with the cards unseen: a
            # player's slip explains them (``kernels.advice``'s tremble model).
            exact = (run.deals.size, run.tried)
            left = None if budget is None else budget - (run.seconds or 0.0)
            if left is None or left > 0:
                spent = run.seconds
                run = sample(dataclasses.replace(kernels, tremble=TREMBLE), left)
                if spent is not None:
                    run.seconds = spent + (run.seconds or 0.0)
    deals, tried, suit_pts, out = run.deals, run.tried, run.suit_pts, run.out
    cand_trump = run.trumps
    kept = deals.size
    if kept == 0 and not run.short:  # the clock ran out before any deal fit
        raise UnlikelyCalls(
            f"no deal fit the calls {heard_text} in the {tried:,} "
            f"deals tried in {time:g} s: give more time, or check the calls"
        )
    if run.short and kept < min(MIN_KEPT, samples):
        slips = f", even letting each caller slip with chance {TREMBLE:.0%}" if exact else ""
        raise UnlikelyCalls(
            f"the {strategy.bidding} model almost never makes the calls "
            f"{heard_text} with the cards you do not hold: "
            f"{kept} of {tried:,} deals fit{slips}; try another --model or check the calls"
        )

    high = max(heard, default=PASS)
    by_call = {}
    # Each deal's weight under each call: all 1 but where the search correction applies.
    w = np.ones(out.shape[:2]) if shift is None else weights(out, shift)
    for i, c in enumerate(legal):
        o = out[:, i]
        side = o[:, engine.O_SIDE_PITCHED] > 0
        won = o[:, engine.O_WON]
        trumps = o[side, engine.O_TRUMP].astype(int)
        share = np.bincount(trumps, minlength=4) / max(trumps.size, 1)
        trump = int(cand_trump[i]) if c > 0 and cand_trump[i] >= 0 else None
        label = call_text(c, rules) + (STEAL if steals(c, high, seat == dealer) else "")
        p_made = Estimate.proportion(int((side & (o[:, engine.O_MADE] > 0)).sum()), int(side.sum()))
        p_win = Estimate.proportion(int((won > 0).sum()), kept)
        if shift is not None:  # the model's interval, moved with its value
            p_made = Estimate(
                float(shifted(p_made.value, shift)),
                tuple(float(x) for x in shifted(np.array(p_made.ci95), shift)),
            )
            p_win = Estimate.mean((won > 0) * w[:, i])
        by_call[c] = CallAdvice(
            call=c,
            label=label,
            p_pitcher=Estimate.proportion(int(side.sum()), kept),
            p_made=p_made,
            expected_score=Estimate.mean(o[:, engine.O_SCORE] * w[:, i]),
            expected_margin=Estimate.mean(o[:, engine.O_MARGIN] * w[:, i]),
            p_win_game=p_win,
            trump=trump,
            trump_share={s: float(share[s]) for s in range(4) if share[s] > 0},
            unfinished=int((won < 0).sum()),
            samples=kept,
        )
    levels = preset.max_bid + 1
    by_suit = {s: SuitAdvice(s, np.bincount(suit_pts[:, s], minlength=levels)) for s in pitchable}

    wins = weighed(out, shift)[0]
    order = ranking(out, legal, shift)
    best = order[0]
    runner_up = difference = None
    cautious = False
    if len(order) > 1:
        # The calls the best is not clearly ahead of (its lead is inside the error, or
        # too few deals to tell): of those, the cautious one, pass or the lowest bid.
        def lead(i: int) -> Estimate:
            return Estimate.mean(wins[:, order[0]] - wins[:, i])

        def inside(e: Estimate) -> bool:  # an exact tie in every deal is no error: margin decides
            return bool(e.ci95[0] <= 0 <= e.ci95[1] and e.ci95[0] < e.ci95[1])

        close = [i for i in order[1:] if too_few(kept) or inside(lead(i))]
        if close and min(legal[i] for i in close) < legal[best]:
            best = min(close, key=lambda i: legal[i])
            cautious = True
        second = order[0] if best != order[0] else order[1]
        runner_up = legal[second]
        difference = Estimate.mean(wins[:, best] - wins[:, second])
        cautious = bool(cautious or too_few(kept) or inside(difference))
    notes = []
    if exact is not None:
        notes.append(
            f"the {strategy.bidding} model makes the calls {heard_text} in only {exact[0]:,} "
            f"of {exact[1]:,} deals; these deals let each call it would not make stand with "
            f"chance {TREMBLE:.0%}, a player's slip"
        )
    if run.short:
        notes.append(f"only {kept:,} of {tried:,} deals fit the calls (wanted {samples:,})")
    if correction is not None:
        notes.append(
            f"P(make) is corrected against defenders who search: at {n} players they set "
            f"the model's bids {-correction.gap[0]:.1f} points in 100 more often than its own "
            "(reports/advisor_calibration.md); P(win game) and the scores follow "
            "(--model-figures, or search_correction=False: the model's own figures)"
        )
    return Advice(
        hand=cards,
        players=n,
        seat=seat,
        dealer=dealer,
        calls=heard,
        scores=score_list,
        rules=rules,
        model=strategy.name if play is None else f"{strategy.bidding}+{play_name}",
        play=play_name,
        seed=seed,
        samples=kept,
        tried=tried,
        legal_calls=legal,
        by_call=by_call,
        by_suit=by_suit,
        recommended_call=legal[best],
        runner_up=runner_up,
        difference=difference,
        notes=notes,
        either_is_fine=cautious,
        stopped=run.stopped,
        time_budget=None if time is None else float(time),
        seconds=run.seconds,
        trump_deals=run.trump_deals,
        hands_played=hands_played,
        tremble=TREMBLE if exact is not None else 0.0,
        correction=correction,
    )


def advise_view(view, **options) -> Advice:
    """``advise`` for a player's view of the auction (``pitchsim.game.view.View``, under
    any preset): its seat's hand, the table, the calls so
    far, the scores and the rules come from the view; ``options`` are ``advise``'s
    others (model, play, samples, seed, ...)."""
    if view.phase != "auction":
        done = {
            "trump": "the auction is over: the pitcher names trump",
            "call": "the auction is over: the pitcher calls his partner's card (12.1)",
            "put_down": "the auction is over: a seat puts down "
            f"({'4.8.7' if view.rules.rob else '12.2.2, 12.8.1, 12.8.2'})",
            "play": "the auction is over: ask `pitchsim hint` for the card to play",
            "over": "the hand is over",
            "thrown-in": "everybody passed: the hand was thrown in",
        }
        raise AuctionError(done[view.phase])
    if view.to_move != view.seat:
        raise AuctionError(f"it is seat {view.to_move}'s call, not seat {view.seat}'s")
    return advise(
        list(view.hand),
        players=view.players,
        seat=view.seat,
        dealer=view.dealer,
        calls=list(view.calls),
        scores=list(view.seat_scores()),
        rules=view.rules,
        **({"hands_played": view.hands_played} if view.preset.hands_limit else {}),
        **options,
    )


assert MAX_BID == max(BIDS)
