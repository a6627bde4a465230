"""The advisor's table recounted in plain Python from the per-deal outcomes its engine
kept (``kernels.advice.evaluate_calls``' rows, and ``pitch_suits``' points
per trump):
every number of every call -- P(you pitch), P(made | you pitch) over the hands pitched,
hand score, margin, P(win game), the unfinished games, trump -- the recommendation and
its tie-breaks, and the paired difference with its interval; solo and partnership,
every seat.  The engine's rows themselves are checked against the reference engine in
test_advise_engine.py; here it is what ``advise`` makes of them.

The rows are caught by wrapping the engine's functions (advise calls them through the
module), so nothing in the advisor had to change to expose them.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from pitchsim.advice import advise as advise_module
from pitchsim.advice.advise import advise
from pitchsim.game.reference import PASS
from pitchsim.kernels import advice as engine

Z = 1.959963984540054


def wilson(k, n):
    if n == 0:
        return (math.nan, math.nan)
    p = k / n
    denom = 1 + Z * Z / n
    centre = (p + Z * Z / (2 * n)) / denom
    half = Z * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n)) / denom
    return (0.0 if k == 0 else max(0.0, centre - half), 1.0 if k == n else min(1.0, centre + half))


def mean_ci(xs):
    n = len(xs)
    m = sum(xs) / n
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1))
    return m, (m - Z * sd / math.sqrt(n), m + Z * sd / math.sqrt(n))


class Caught:
    """The engine's per-deal outputs, as advise receives them."""

    def __init__(self, monkeypatch, fake=None):
        self.rows = []
        self.suits = None
        self.trumps = []
        real_eval, real_suits, real_trump = (
            engine.evaluate_calls,
            engine.pitch_suits,
            engine.bid_trump,
        )

        def evaluate_calls(*args):
            out = args[-1]
            if fake is None:
                real_eval(*args)
            else:
                fake(args, out)
            self.rows.append(out.copy())

        def pitch_suits(*args):
            real_suits(*args)
            self.suits = args[-1].copy()

        def bid_trump(points, kept, k):
            t = real_trump(points, kept, k)
            self.trumps.append((k, int(t)))
            return t

        monkeypatch.setattr(engine, "evaluate_calls", evaluate_calls)
        monkeypatch.setattr(engine, "pitch_suits", pitch_suits)
        monkeypatch.setattr(engine, "bid_trump", bid_trump)

    @property
    def out(self):
        return np.concatenate(self.rows, axis=0)


def best_trump(points, k):
    """The held suit with the best expected score bidding k (first on a tie)."""
    best, best_v = None, None
    for s in range(4):
        if points[0][s] < 0:
            continue
        v = sum(p if p >= k else -k for p in (row[s] for row in points))
        if best_v is None or v > best_v:
            best, best_v = s, v
    return best


def moved(p, shift):
    """``p`` with its log-odds moved by ``shift`` (0 and 1 stay)."""
    if p <= 0 or p >= 1:
        return p
    odds = p / (1 - p) * math.exp(shift)
    return odds / (1 + odds)


def deal_weights(side, made, shift):
    """Under the search correction (README "Against defenders who search"): a deal the
    seat's side made weighs p'/p, one it was set in (1 - p')/(1 - p), any other 1, p
    being P(make) over the hands pitched and p' it moved by ``shift``."""
    if shift is None or not any(side):
        return [1.0] * len(side)
    p = sum(made) / sum(side)
    q = moved(p, shift)
    up = q / p if p > 0 else 1.0
    down = (1 - q) / (1 - p) if p < 1 else 1.0
    return [up if m else down if s else 1.0 for s, m in zip(side, made, strict=True)]


def recount(a, out, suit_pts):
    """Check every number of Advice ``a`` against plain-Python counts of the rows (each
    deal weighed where the search correction applies)."""
    kept = out.shape[0]
    assert a.samples == kept
    rows = out.tolist()
    points = suit_pts.tolist()
    high = max(a.calls, default=PASS)
    shift = None if a.correction is None else a.correction.shift
    weight = []
    for i, c in enumerate(a.legal_calls):
        r = [row[i] for row in rows]
        side = [x[engine.O_SIDE_PITCHED] > 0 for x in r]
        made = [s and x[engine.O_MADE] > 0 for s, x in zip(side, r, strict=True)]
        won = [x[engine.O_WON] for x in r]
        w = deal_weights(side, made, shift)
        weight.append(w)
        ca = a.by_call[c]
        assert ca.call == c
        pitched = sum(side)
        assert ca.p_pitcher.value == pytest.approx(pitched / kept)
        assert ca.p_pitcher.ci95 == pytest.approx(wilson(pitched, kept))
        if pitched:  # over the hands the seat's side pitched, not over every deal
            p = sum(made) / pitched
            lo, hi = wilson(sum(made), pitched)
            if shift is not None:  # the model's interval moved with its value
                p, lo, hi = moved(p, shift), moved(lo, shift), moved(hi, shift)
            assert ca.p_made.value == pytest.approx(p)
            assert ca.p_made.ci95 == pytest.approx((lo, hi))
        else:
            assert math.isnan(ca.p_made.value)
        m, ci = mean_ci([x[engine.O_SCORE] * v for x, v in zip(r, w, strict=True)])
        assert ca.expected_score.value == pytest.approx(m)
        assert ca.expected_score.ci95 == pytest.approx(ci)
        m, ci = mean_ci([x[engine.O_MARGIN] * v for x, v in zip(r, w, strict=True)])
        assert ca.expected_margin.value == pytest.approx(m)
        assert ca.expected_margin.ci95 == pytest.approx(ci)
        wins = sum(x > 0 for x in won)
        if shift is None:
            assert ca.p_win_game.value == pytest.approx(wins / kept)
            assert ca.p_win_game.ci95 == pytest.approx(wilson(wins, kept))
        else:
            m, ci = mean_ci([(x > 0) * v for x, v in zip(won, w, strict=True)])
            assert ca.p_win_game.value == pytest.approx(m)
            assert ca.p_win_game.ci95 == pytest.approx(ci)
        assert ca.unfinished == sum(w < 0 for w in won)
        trumps = [int(x[engine.O_TRUMP]) for s, x in zip(side, r, strict=True) if s]
        share = {t: trumps.count(t) / len(trumps) for t in sorted(set(trumps))}
        assert ca.trump_share == pytest.approx(share)
        assert ca.trump == (best_trump(points, c) if c > 0 else None)
        steal = a.seat == a.dealer and c == high and c > PASS
        assert ca.label == str(c if c > 0 else "pass") + (" (steal)" if steal else "")
    # by_suit: the points per held suit, counted
    held = sorted({card // 13 for card in a.hand})
    assert sorted(a.by_suit) == held
    for s in held:
        counts = [sum(1 for row in points if row[s] == p) for p in range(5)]
        assert a.by_suit[s].points.tolist() == counts
        for k in (1, 2, 3, 4):
            made = sum(counts[k:])
            assert a.by_suit[s].p_make(k).value == pytest.approx(made / kept)
            score = sum(p * counts[p] for p in range(k, 5)) - k * sum(counts[:k])
            assert a.by_suit[s].expected_score(k) == pytest.approx(score / kept)

    # the recommendation: most wins, then the better mean margin, then the higher call;
    # then (issue 21) the cautious call among those the leader is not clearly ahead of:
    # the leader's paired lead over it has an interval around 0 (an exact tie in every
    # deal is no error), or there are too few deals (under 10) to tell.
    def won(i, j):  # deal j's game won under call i, weighed
        return (rows[j][i][engine.O_WON] > 0) * weight[i][j]

    def rank(i):
        wins = sum(won(i, j) for j in range(kept))
        margin = sum(rows[j][i][engine.O_MARGIN] * weight[i][j] for j in range(kept)) / kept
        return (wins, margin, a.legal_calls[i])

    def paired(i, j):
        diff = [won(i, k) - won(j, k) for k in range(kept)]
        return mean_ci(diff) if any(diff) else (0.0, (0.0, 0.0))

    def around_zero(ci):
        return ci[0] <= 0 <= ci[1] and ci[0] < ci[1]

    order = sorted(range(len(a.legal_calls)), key=rank, reverse=True)
    if len(order) == 1:
        assert a.recommended_call == a.legal_calls[order[0]]
        assert a.runner_up is None and a.difference is None
        return
    leader = best = order[0]
    close = [i for i in order[1:] if kept < 10 or around_zero(paired(leader, i)[1])]
    if close and min(a.legal_calls[i] for i in close) < a.legal_calls[leader]:
        best = min(close, key=lambda i: a.legal_calls[i])
    assert a.recommended_call == a.legal_calls[best]
    second = leader if best != leader else order[1]
    assert a.runner_up == a.legal_calls[second]
    m, ci = paired(best, second)
    assert a.difference.value == pytest.approx(m)
    assert a.difference.ci95 == pytest.approx(ci, nan_ok=True)
    if kept >= 10:
        assert a.difference_inside_error == around_zero(a.difference.ci95)
        assert a.either_is_fine == (best != leader or around_zero(ci))


# ---- the real engine: solo and partnership, every seat ------------------------------------

HAND = "AS KS 4S JD 9D 2C"
CASES = [
    # (players, partnership, seat, dealer, calls, scores)
    *[(4, False, s, 3, ["pass"] * ((s - 3 - 1) % 4), "5,3,6,2") for s in range(4)],
    *[(4, True, s, 1, ["2"] + ["pass"] * ((s - 1 - 1) % 4 - 1), "4,5") for s in (0, 3)],
    *[(4, True, s, 3, ["pass"] * ((s - 3 - 1) % 4), "6,5") for s in range(4)],
    (3, False, 2, 2, ["1", "2"], "2,6,4"),  # the dealer, who may steal
    (5, False, 0, 3, ["pass"], None),
]


@pytest.mark.parametrize(
    "case", CASES, ids=lambda c: f"{c[0]}p-{'team' if c[1] else 'solo'}-seat{c[2]}-{len(c[4])}calls"
)
def test_every_number_of_the_table_recounted(case, monkeypatch):
    n, partnership, seat, dealer, calls, scores = case
    caught = Caught(monkeypatch)
    a = advise(
        HAND,
        players=n,
        seat=seat,
        dealer=dealer,
        calls=calls,
        scores=scores,
        partnership=partnership,
        # (the odds model's first callers never pass at partners' min-bid 1: random calls)
        model="random+heuristic" if partnership else "odds+heuristic",
        samples=60,
        seed=11,
        threads=1,
    )
    assert a.rules.partnership == partnership and a.seat == seat
    assert (a.correction is not None) == (n == 5)  # auction-pitch at 5: weighed deals
    out = caught.out
    assert out.shape == (60, len(a.legal_calls), engine.N_OUTCOMES)
    recount(a, out, caught.suits)
    # the JSON says the same
    doc = a.to_json()
    assert doc["recommended_call"] == (
        "pass" if a.recommended_call == PASS else str(a.recommended_call)
    )
    for c, ca in a.by_call.items():
        j = doc["by_call"]["pass" if c == PASS else str(c)]
        assert j["p_win_game"] == pytest.approx(ca.p_win_game.value)


def test_the_table_is_the_same_on_any_chunking(monkeypatch):
    """Kept deals go to the engine in chunks; the table must not depend on where."""
    caught = Caught(monkeypatch)
    a = advise(HAND, players=4, seat=0, dealer=3, scores="5,3,6,2", samples=70, seed=4, threads=1)
    monkeypatch.setattr(advise_module, "EVALUATE_CHUNK", 16)
    b = advise(HAND, players=4, seat=0, dealer=3, scores="5,3,6,2", samples=70, seed=4, threads=1)
    assert a.to_json() == b.to_json()
    assert len(caught.rows) == 1 + math.ceil(70 / 16)


# ---- made-up outcomes: the recommendation's tie-breaks and the paired difference ------------


def fake_rows(table):
    """An ``evaluate_calls`` that writes ``table(call index, deal index) -> row``."""

    def fill(args, out):
        for j in range(out.shape[0]):
            for i in range(out.shape[1]):
                out[j, i] = table(i, j)

    return fill


def row(side=0, made=0, score=0, margin=0.0, won=0, trump=-1):
    return [side, made, score, margin, won, trump]


def advise_with(monkeypatch, table, samples=40, **kw):
    caught = Caught(monkeypatch, fake_rows(table))
    args = dict(players=4, seat=0, dealer=3, samples=samples, seed=2, threads=1) | kw
    a = advise(HAND, **args)
    recount(a, caught.out, caught.suits)
    return a


def test_equal_wins_go_to_the_better_margin(monkeypatch):
    # Every call wins the same 10 of 40 games; call index 1 has the best margin.
    def table(i, j):
        return row(won=int(j < 10), margin=1.0 if i == 1 else 0.5 - 0.1 * i)

    a = advise_with(monkeypatch, table)
    assert a.recommended_call == a.legal_calls[1]
    assert a.difference.value == 0


def test_equal_wins_and_margins_go_to_the_higher_call(monkeypatch):
    a = advise_with(monkeypatch, lambda i, j: row(won=int(j % 4 == 0), margin=0.25))
    assert a.recommended_call == max(a.legal_calls)
    assert a.runner_up == sorted(a.legal_calls)[-2]


def test_one_more_win_beats_any_margin(monkeypatch):
    # Call index 0 wins one game more than the others (the boundary: a single game).
    def table(i, j):
        return row(won=int(j < 10 + (i == 0)), margin=-3.0 if i == 0 else 2.0)

    a = advise_with(monkeypatch, table)
    assert a.recommended_call == a.legal_calls[0]
    assert a.difference.value == pytest.approx(1 / 40)
    assert a.difference_inside_error  # one game in 40 is inside the error


def test_unfinished_games_are_not_wins(monkeypatch):
    def table(i, j):
        return row(won=-1 if j < 30 else int(i == 2), margin=0.0)

    a = advise_with(monkeypatch, table)
    for ca in a.by_call.values():
        assert ca.unfinished == 30
    assert a.recommended_call == a.legal_calls[2]
    assert a.by_call[a.legal_calls[2]].p_win_game.value == pytest.approx(10 / 40)


def test_made_is_over_the_hands_pitched_and_nan_without_any(monkeypatch):
    # Call index 1: the side pitched on 8 deals, made 6; call 0 never pitched.
    def table(i, j):
        if i == 1 and j < 8:
            return row(side=1, made=int(j < 6), score=2, trump=j % 2)
        return row()

    a = advise_with(monkeypatch, table)
    c0, c1 = a.legal_calls[:2]
    assert a.by_call[c1].p_pitcher.value == pytest.approx(8 / 40)
    assert a.by_call[c1].p_made.value == pytest.approx(6 / 8)
    assert a.by_call[c1].trump_share == {0: 0.5, 1: 0.5}
    assert math.isnan(a.by_call[c0].p_made.value)
    assert a.by_call[c0].trump_share == {}


def test_a_clear_difference_is_outside_the_error(monkeypatch):
    a = advise_with(monkeypatch, lambda i, j: row(won=int(i == 0 and j < 30)))
    assert a.recommended_call == a.legal_calls[0]
    assert a.difference.value == pytest.approx(30 / 40)
    assert not a.difference_inside_error


def test_the_paired_difference_is_best_minus_runner_up_deal_by_deal(monkeypatch):
    # Best wins deals 0-19, runner-up deals 10-27: the pairing matters (unpaired, the
    # intervals would be far wider), and so does the order (best - runner-up > 0).
    def table(i, j):
        if i == 0:
            return row(won=int(j < 20))
        if i == 1:
            return row(won=int(10 <= j < 28))
        return row()

    a = advise_with(monkeypatch, table)
    assert (a.recommended_call, a.runner_up) == tuple(a.legal_calls[:2])
    assert a.difference.value == pytest.approx((20 - 18) / 40)
