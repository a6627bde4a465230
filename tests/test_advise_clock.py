"""advise on a clock (``time=``, ``--time``): the rounds, the sequential stopping rule,
the reasons it stops, bad budgets, and reproducibility on any thread count; and a
history the model seldom makes, still advised."""

from __future__ import annotations

import itertools
import math
from statistics import NormalDist

import numpy as np
import pytest

from pitchsim.advice import advise as advise_module
from pitchsim.advice.advise import (
    ALL_DONE,
    CLOCK,
    FIRST_ROUND,
    SEPARATED,
    advise,
    rounds,
    separated,
    stop_z,
)
from pitchsim.kernels import advice as engine
from pitchsim.util.errors import InputError

# ---------------------------------------------------------------- a rare history


def test_the_rare_histories_are_rare_and_still_kept():
    # The odds model seldom lets three callers pass: still the deals are found.
    r = advise(
        "QS 9S 4S KD 8C 3H", players=4, seat=3, dealer=3, calls="pass,pass,pass", samples=30, seed=3
    )
    assert r.acceptance_rate < 0.003 and r.samples == 30


# ---------------------------------------------------------------- the stopping rule


def test_rounds_double_from_the_first_and_end_at_the_samples():
    assert rounds(6_000) == [1_000, 2_000, 4_000, 6_000]
    assert rounds(4_000) == [1_000, 2_000, 4_000]
    assert rounds(300) == [300]
    assert rounds(FIRST_ROUND) == [FIRST_ROUND]


def test_the_stopping_lead_shares_the_error_over_looks_and_calls():
    # 5% over 3 looks that can stop and 4 other calls: one-sided 0.05 / 12.
    assert stop_z(3, 5) == pytest.approx(2.6383, abs=1e-4)
    assert stop_z(1, 2) == pytest.approx(1.6449, abs=1e-4)  # one look, one other call
    assert stop_z(3, 5) == pytest.approx(NormalDist().inv_cdf(1 - 0.05 / 12))


def outcomes(wins: list[list[int]]) -> np.ndarray:
    """A ``evaluate_calls`` output from win flags per call (rows: deals)."""
    w = np.array(wins, dtype=float).T
    out = np.zeros((w.shape[0], w.shape[1], engine.N_OUTCOMES))
    out[:, :, engine.O_WON] = w
    return out


def test_separated_needs_the_lead_beyond_z_standard_errors_over_every_call():
    count = 1_000
    # The best call wins x more deals than the second (otherwise the same); a third
    # call never wins.  d = 1 on x deals, 0 elsewhere: mean x/K, sd sqrt(p(1-p)K/(K-1)).
    for x in (5, 8, 12, 20):
        p = x / count
        se = math.sqrt(p * (1 - p) * count / (count - 1)) / math.sqrt(count)
        best = [1] * 300 + [0] * (count - 300)
        second = [1] * (300 - x) + [0] * (count - 300 + x)
        out = outcomes([best, second, [0] * count])
        for z in (2.0, 2.64, 3.5):
            assert separated(out, [0, 1, 2], z) == (p - z * se > 0), (x, z)
    # Every call counts, not only the runner-up: the second (280 wins, inside the best's
    # 300) is far behind in the pairing, the third (279 wins, on other deals) is not.
    best = [1] * 300 + [0] * 700
    second = [1] * 280 + [0] * 720
    third = [0] * 300 + [1] * 279 + [0] * 421
    assert separated(outcomes([best, second]), [0, 1], 2.64)
    assert not separated(outcomes([best, second, third]), [0, 1, 2], 2.64)
    # A call that ties in every deal is not separated from (its lead is 0).
    same = [1] * 500 + [0] * 500
    assert not separated(outcomes([same, same]), [0, 1], 2.0)
    assert separated(outcomes([same]), [0], 2.0)  # one legal call: nothing to separate


def test_the_stated_error_rate_holds_at_a_tie():
    """The worst case for a 'separated' stop on the wrong call: two calls as good as each
    other (the limit of one being a little worse).  Simulated runs of 6,000 deals with
    independent wins (p = 0.3 each) look at 1,000, 2,000 and 4,000: the runs that stop
    on call 0 must be at most STOP_ERROR (5%) of them."""
    rng = np.random.default_rng(12)
    looks = rounds(6_000)
    z = stop_z(len(looks) - 1, 2)
    runs, wrong = 1_500, 0
    for _ in range(runs):
        wins = rng.random((looks[-2], 2)) < 0.3
        for look in looks[:-1]:
            out = outcomes(wins[:look].T.tolist())
            if separated(out, [0, 1], z):
                wrong += wins[:look, 0].sum() > wins[:look, 1].sum()
                break
    assert wrong / runs <= 0.05
    assert wrong > 0  # (the rule does stop: a rule that never stops would pass above)


def run(time=60.0, **kw):
    args = dict(players=4, seat=0, dealer=3, seed=5, threads=1, time=time) | kw
    return advise("AH KH QH JH TH 9H", **args)


def test_a_clear_case_stops_separated_at_the_first_look():
    r = run()
    assert r.stopped == SEPARATED and r.samples == FIRST_ROUND
    assert r.recommended_call == 4 and not r.either_is_fine
    assert 0 < r.seconds < 60 and r.time_budget == 60.0
    doc = r.to_json()
    assert doc["stopped"] == SEPARATED and doc["time"]["budget"] == 60.0
    assert doc["time"]["trump_deals"] == FIRST_ROUND


def even_outcomes(monkeypatch, lead_at=None):
    """Made-up outcomes by deal number: calls 0 and 1 win alternate deals (an even
    race), the others never; with ``lead_at``, call 0 also wins deals past it."""

    def evaluate_calls(*args):
        deals, out = args[1], args[-1]
        out[:] = 0
        for j, d in enumerate(deals):
            out[j, 0, engine.O_WON] = d % 2 == 0 or (lead_at is not None and d >= lead_at)
            out[j, 1, engine.O_WON] = d % 2 == 1

    monkeypatch.setattr(engine, "evaluate_calls", evaluate_calls)


def test_an_even_race_runs_on_to_the_last_deal(monkeypatch):
    even_outcomes(monkeypatch)
    r = run(samples=2_500)
    assert r.stopped == ALL_DONE and r.samples == 2_500
    assert r.either_is_fine  # and the verdict says so


def test_a_lead_that_appears_later_stops_at_a_later_look(monkeypatch):
    # Call 0 pulls ahead from the deal numbered 1,500 on (every deal fits: first to
    # call), so the first look (1,000 deals) is even and the second separates.
    even_outcomes(monkeypatch, lead_at=1_500)
    r = run(samples=6_000)
    assert r.stopped == SEPARATED and r.samples == 2_000


class FakeClock:
    """perf_counter for advise: ``step`` seconds pass at every reading."""

    def __init__(self, step):
        self.now, self.step = 0.0, step

    def __call__(self):
        self.now += self.step
        return self.now


def test_the_clock_stops_a_run_and_says_so(monkeypatch):
    even_outcomes(monkeypatch)  # never separated
    monkeypatch.setattr(advise_module, "perf_counter", FakeClock(0.05))
    r = run(time=1.0, samples=50_000)
    assert r.stopped == CLOCK and 32 <= r.samples < 50_000
    assert 1.0 <= r.seconds <= 1.0 + 4 * 0.05  # the readings after the last check
    # The deals used are the first that fit, in order: as many as without a clock.
    plain = advise("AH KH QH JH TH 9H", players=4, seat=0, dealer=3, seed=5, samples=r.samples)
    assert plain.tried == r.tried


def test_a_tiny_budget_still_answers_from_a_few_deals():
    r = run(time=1e-4)
    assert r.stopped == CLOCK and 32 <= r.samples < FIRST_ROUND
    assert r.recommended_call in r.legal_calls


def test_on_a_clock_the_same_seed_gives_the_same_numbers_on_any_thread_count(monkeypatch):
    args = dict(players=5, seat=1, dealer=4, calls="2", scores="3,5,0,6,1", seed=8)
    docs = []
    for threads, step in itertools.product((1, 2), (None, 0.05)):
        if step is not None:  # a clock that stops it at the same reading each time
            monkeypatch.setattr(advise_module, "perf_counter", FakeClock(step))
        r = advise("KH QH 5H 9C 7D 3S", threads=threads, time=1.0, samples=1_500, **args)
        monkeypatch.undo()
        doc = r.to_json()
        doc["time"]["seconds"] = None  # the one number that varies
        docs.append((step, doc))
    for step in (None, 0.05):
        one, two = [d for s, d in docs if s == step]
        assert one == two
    assert {d["stopped"] for _, d in docs} <= {SEPARATED, ALL_DONE, CLOCK}


def test_a_first_round_found_in_parts_gives_the_same_answer(monkeypatch):
    # About 3% of deals fit: the first kernel call (16,384 deals) finds about 475, and
    # with no share of the clock for finding, the run plays those (trumps from them)
    # before it finds the rest.  Once the round is in, its trumps are picked again
    # from all of it: the answer is the one found in one go.
    kw = dict(players=4, seat=3, dealer=3, calls="3,pass,pass", samples=2_000, seed=3)
    kw |= dict(threads=1, time=600.0)
    whole = advise("AS JS 2S 3C 5D 7H", **kw).to_json()
    monkeypatch.setattr(advise_module, "FIND_SHARE", 1e-12)
    parts = advise("AS JS 2S 3C 5D 7H", **kw).to_json()
    for doc in (whole, parts):
        assert doc["time"].pop("seconds") > 0
        assert doc["time"]["trump_deals"] == FIRST_ROUND
    assert parts == whole


def test_a_run_within_the_first_round_is_the_run_without_a_clock():
    # Up to FIRST_ROUND deals the clock changes nothing but the fields it adds.
    kw = dict(players=4, seat=2, dealer=3, calls="2,pass", samples=600, seed=1, threads=1)
    plain = advise("AH KH 2H 9C 7D 3S", **kw).to_json()
    timed = advise("AH KH 2H 9C 7D 3S", time=600.0, **kw).to_json()
    assert timed.pop("stopped") == ALL_DONE and plain.pop("stopped") == ALL_DONE
    assert timed.pop("time")["trump_deals"] == 600 and plain.pop("time") is None
    assert plain == timed


# ---------------------------------------------------------------- bad budgets


@pytest.mark.parametrize("bad", [0, -1.0, float("nan"), float("inf"), 1e9, "5", True])
def test_a_bad_budget_is_refused(bad):
    with pytest.raises(InputError, match="time"):
        run(time=bad)


@pytest.mark.parametrize("bad", ["0", "-2", "nan", "soon", "inf"])
def test_a_bad_time_option_is_one_line_and_exit_2(bad, capsys):
    from pitchsim.cli import main

    argv = ["advise", "AH KH 2H 9C 7D 3S", "--seat", "2", "--dealer", "3", "--calls", "2,pass"]
    with pytest.raises(SystemExit) as e:
        main([*argv, "--time", bad])
    assert e.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("pitchsim: error: ") and "--time" in err[0]


def test_the_cli_reports_the_clock(capsys):
    from pitchsim.cli import main

    argv = ["advise", "AH KH QH JH TH 9H", "--seat", "0", "--dealer", "3", "--seed", "5"]
    with pytest.raises(SystemExit) as e:
        main([*argv, "--time", "60"])
    assert e.value.code == 0
    out = capsys.readouterr().out
    assert "Clock: 60 s (kernels compiled before it started)" in out
    assert "1,000 deals, separated" in out
