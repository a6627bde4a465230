"""The advisor's written output and its edges (issue 22's mutation run over
advice/advise.py: its survivors were these): every JSON field under its name, the
frame's columns, which deals ``keep_deals`` keeps (against a fake acceptance rule
counted by hand), the short forms of a call, scores given as numbers, and
``advise_view``'s refusals.  The numbers themselves are recounted in
test_advise_recount.py; here it is where they are written."""

import json
import math

import numpy as np
import pytest

from pitchsim.advice import advise as advise_module
from pitchsim.advice.advise import (
    AuctionError,
    advise,
    advise_view,
    check_auction,
    keep_deals,
    parse_call,
    parse_calls,
    parse_scores,
)
from pitchsim.game.reference import PASS
from pitchsim.game.rules import Rules
from pitchsim.game.view import View
from pitchsim.kernels import advice as engine
from pitchsim.util.errors import InputError

SUITS = "CDHS"


@pytest.fixture(scope="module")
def advice():
    # dealer left out: seat 3 deals by default
    return advise("AH KH 2H 9C 7D 3S", players=4, seat=2, calls="2,pass", samples=300, seed=1)


def name(c):
    return "pass" if c == 0 else str(c)


def test_every_json_field_under_its_name(advice):
    a = advice
    doc = json.loads(json.dumps(a.to_json()))
    keys = ("p_pitcher", "p_made", "expected_score", "expected_margin", "p_win_game")
    assert set(doc) == {
        "hand",
        "players",
        "seat",
        "dealer",
        "calls",
        "scores",
        "target",
        "partnership",
        "rules",
        "preset",  # the preset and what differs from it: "auction-pitch", "smear,shoot=true"
        "model",
        "play",
        "seed",
        "samples",
        "tried",
        "acceptance_rate",
        "legal_calls",
        "by_call",
        "by_suit",
        "recommended_call",
        "runner_up",
        "p_win_difference",
        "p_win_difference_ci95",
        "difference_inside_error",
        "either_is_fine",
        "too_few_deals",
        "notes",
        "tremble",  # a caller's chance to slip: 0 when the model fits the calls
        "search_correction",  # null: no correction for searching defenders (4 players)
        "stopped",  # the clock's stop (issue 19): "all deals done" without a clock
        "time",  # the clock's budget and use, null without one
    }
    assert doc["hand"] == ["AH", "KH", "2H", "9C", "7D", "3S"]
    assert doc["preset"] == "auction-pitch"
    assert (doc["players"], doc["seat"], doc["dealer"]) == (4, 2, 3)
    assert doc["calls"] == ["2", "pass"] and doc["scores"] == [0, 0, 0, 0]
    assert doc["partnership"] is False and doc["rules"] == Rules().describe()
    assert (doc["samples"], doc["tried"]) == (300, a.tried) and a.tried >= 300
    assert doc["acceptance_rate"] == pytest.approx(300 / a.tried)
    assert doc["recommended_call"] == name(a.recommended_call)
    assert doc["runner_up"] == name(a.runner_up)
    assert doc["p_win_difference"] == a.difference.value
    assert doc["p_win_difference_ci95"] == list(a.difference.ci95)
    assert doc["too_few_deals"] is False and doc["notes"] == [] and doc["tremble"] == 0.0
    assert (doc["seed"], doc["model"], doc["play"]) == (1, "odds+heuristic", "heuristic")
    assert doc["target"] == Rules().target
    for c in a.legal_calls:
        ca = a.by_call[c]
        entry = doc["by_call"][name(c)]
        assert set(entry) == {
            "call",
            "label",
            *keys,
            "ci95",
            "trump",
            "trump_when_pitching",
            "unfinished_games",
        }
        assert entry["call"] == name(c) and entry["label"] == ca.label
        for k in keys:
            v = getattr(ca, k)
            assert entry[k] == (None if math.isnan(v.value) else v.value)
            assert entry["ci95"][k] == [None if math.isnan(x) else x for x in v.ci95]
        assert entry["trump"] == (None if ca.trump is None else SUITS[ca.trump])
        assert entry["trump_when_pitching"] == {SUITS[s]: p for s, p in ca.trump_share.items()}
        assert entry["unfinished_games"] == ca.unfinished
    held = {0: "C", 1: "D", 2: "H", 3: "S"}
    assert set(doc["by_suit"]) == {"C", "D", "H", "S"}  # a card of every suit held
    for s, letter in held.items():
        o = a.by_suit[s]
        entry = doc["by_suit"][letter]
        made = [int(o.points[k:].sum()) for k in range(5)]
        assert entry["p_make"] == {str(k): made[k] / 300 for k in (1, 2, 3, 4)}
        assert set(entry["ci95"]) == {"1", "2", "3", "4"}
        assert all(lo <= made[int(k)] / 300 <= hi for k, (lo, hi) in entry["ci95"].items())
        assert set(entry["expected_score"]) == {"1", "2", "3", "4"}


def test_the_frame_has_a_row_per_call_and_named_columns(advice):
    a = advice
    f = a.to_frame()
    assert list(f["call"]) == [name(c) for c in a.legal_calls]
    assert list(f["label"]) == [a.by_call[c].label for c in a.legal_calls]
    # pandas writes a missing trump (pass) as NaN
    assert [None if isinstance(t, float) and math.isnan(t) else t for t in f["trump"]] == [
        None if a.by_call[c].trump is None else SUITS[a.by_call[c].trump] for c in a.legal_calls
    ]
    assert list(f["recommended"]) == [c == a.recommended_call for c in a.legal_calls]
    for k in ("p_win_game", "p_pitcher", "p_made", "expected_score", "expected_margin"):
        for row, c in zip(f.itertuples(), a.legal_calls, strict=True):
            e = getattr(a.by_call[c], k)
            assert [getattr(row, k), getattr(row, f"{k}_lo"), getattr(row, f"{k}_hi")] == (
                pytest.approx([e.value, *e.ci95], nan_ok=True)
            )


def every_thousandth(seed, start, count, fits):
    """A fake acceptance rule: deal i fits when i % 1000 == 0."""
    fits[:] = (np.arange(start, start + count) % 1000) == 0


def test_keep_deals_keeps_the_first_that_fit_and_stops_at_max_tries():
    deals, tried = keep_deals(1, 5, 1 << 22, every_thousandth)
    assert deals.tolist() == [0, 1000, 2000, 3000, 4000] and tried == 4001
    # Fewer fit than wanted: every deal up to max_tries is tried, no more.
    deals, tried = keep_deals(1, 100, 20_000, every_thousandth)
    assert deals.tolist() == list(range(0, 20_000, 1000)) and tried == 20_000
    deals, tried = keep_deals(1, 1, 1 << 22, every_thousandth)
    assert deals.tolist() == [0] and tried == 1


def test_a_hand_of_cards_outside_the_deck_is_refused():
    for hand in ([0, 1, 2, 3, 4, 52], [0, 1, 2, 3, 4, -1], [0, 1, 2, 3, 4, 4], [0, 1, 2, 3, 4]):
        with pytest.raises(InputError, match="has exactly 6 different cards of its 52-card pack"):
            advise(hand, samples=200, seed=1)


def test_the_short_forms_of_a_call():
    assert [parse_call(t) for t in ("pass", "P", " - ", "1", "4 ")] == [PASS, PASS, PASS, 1, 4]
    with pytest.raises(AuctionError):
        parse_call("5")
    assert parse_calls([0, 2, np.int64(3)]) == [PASS, 2, 3]  # 0 is pass, as the docs say
    for bad in ([True], [5], [-1], [2.0]):
        with pytest.raises(AuctionError):
            parse_calls(bad)


def test_a_wrong_number_of_scores_says_how_many():
    with pytest.raises(InputError) as e:
        parse_scores("1,2,3", 4, Rules(partnership=True))
    assert str(e.value) == "give one score per seat: 4 (or 2, one per team), not 3"
    with pytest.raises(InputError) as e:
        parse_scores("1,2", 3, Rules())
    assert str(e.value) == "give one score per seat: 3, not 2"


def test_scores_given_as_numbers():
    assert parse_scores([3, np.int64(-2), 4.0, 0], 4, Rules()) == [3, -2, 4, 0]
    for bad in ([True, 0, 0, 0], [1.5, 0, 0, 0], [float("inf"), 0, 0, 0], [None, 0, 0, 0]):
        with pytest.raises(InputError, match="scores are whole numbers"):
            parse_scores(bad, 4, Rules())


# Seat 1 pitches at 3 and the six tricks are played out (worked out in test_view_refusals).
FULL_HAND = [
    {"leader": leader, "cards": cards.split()}
    for leader, cards in [
        (1, "AH 3H 4H 5H"),
        (1, "KH 6H 7H 8H"),
        (1, "2H 9H TH JH"),
        (0, "2C 9C 3C 4C"),
        (1, "7D 8D 9D TD"),
        (0, "2S 3S 4S 5S"),
    ]
]


def test_advise_from_a_view_refuses_outside_its_turn_to_call():
    def v(**kw):
        d = {"players": 4, "seat": 1, "dealer": 3, "hand": ["AH", "KH", "2H", "9C", "7D", "3S"]}
        d.update(kw)
        return View.from_json(d)

    cases = [
        (v(calls=["pass", "3", "pass", "pass"]), "the auction is over: ask `pitchsim hint`"),
        (
            v(calls=["pass"] * 4, rules="all-pass=redeal"),
            "everybody passed: the hand was thrown in",
        ),
        (v(calls=[]), "it is seat 0's call, not seat 1's"),
        (v(calls=["pass", "3", "pass", "pass"], tricks=FULL_HAND), "the hand is over"),
    ]
    for view, words in cases:
        with pytest.raises(AuctionError) as e:
            advise_view(view, samples=200, seed=1)
        assert str(e.value).startswith(words)


def test_advise_from_a_view_is_advise_from_its_parts(monkeypatch):
    seen = {}

    def fake(hand, **kw):
        seen.update(kw, hand=hand)
        return "advice"

    monkeypatch.setattr(advise_module, "advise", fake)
    view = View.from_json(
        {
            "players": 4,
            "seat": 1,
            "dealer": 3,
            "partnership": True,
            "hand": ["AH", "KH", "2H", "9C", "7D", "3S"],
            "calls": ["2"],
            "scores": [3, 5],
        }
    )
    assert advise_view(view, samples=9, seed=4) == "advice"
    assert seen == {
        "hand": list(view.hand),
        "players": 4,
        "seat": 1,
        "dealer": 3,
        "calls": [2],
        "scores": [3, 5, 3, 5],
        "rules": view.rules,
        "samples": 9,
        "seed": 4,
    }


@pytest.mark.parametrize(
    "kwargs, line",
    [
        (
            {"play": "pimc"},
            "advise cannot play pimc (search play): its simulations play heuristic or random "
            "(docs/search.md); give --play heuristic or a model such as odds",
        ),
        (
            {"model": "odds+heuristic", "play": " random "},
            "--model 'odds+heuristic' and --play 'random' disagree: give one",
        ),
        (
            {"rules": Rules(target=11), "target": 7},
            "target=7 and the rules' target=11 disagree: give one",
        ),
    ],
)
def test_options_that_cannot_go_together_are_refused_whole(kwargs, line):
    with pytest.raises(InputError) as e:
        advise("AH KH 2H 9C 7D 3S", samples=200, seed=1, **kwargs)
    assert str(e.value) == line


def every_other(seed, start, count, *args):
    args[-1][:] = (np.arange(start, start + count) % 2) == 0


def test_fewer_deals_fitting_than_wanted_is_noted(monkeypatch):
    monkeypatch.setattr(engine, "accept_deals", every_other)
    a = advise("AH KH 2H 9C 7D 3S", seat=1, calls="pass", samples=400, max_tries=600, seed=1)
    assert (a.samples, a.tried) == (300, 600)
    assert a.notes == ["only 300 of 600 deals fit the calls (wanted 400)"]


@pytest.mark.parametrize(
    "calls, seat, dealer, line",
    [
        ([], 4, 3, "seat 4 is not a seat of a 4-player table (0-3)"),
        ([], 0, 5, "dealer 5 is not a seat of a 4-player table (0-3)"),
        (
            [],
            2,
            3,
            "seat 2 is caller 3 after dealer 3: give the 2 calls before it (seats 0, 1), not 0",
        ),
        ([0], 1, 0, "seat 1 is caller 1 after dealer 0: give the 0 calls before it, not 1"),
        ([], 1, 3, "seat 1 is caller 2 after dealer 3: give the 1 call before it (seats 0), not 0"),
        ([2, 2], 2, 3, "seat 1 cannot call 2 after 2 (legal: pass, 3, 4)"),
        ([4, 0], 2, 3, "seat 1 cannot call: a 4 ended the auction"),
        ([0, 0, 4], 3, 3, "seat 3 has no call: a 4 ended the auction"),
    ],
)
def test_auction_refusals_name_the_seats(calls, seat, dealer, line):
    with pytest.raises(InputError) as e:
        check_auction(calls, 4, seat, dealer, Rules())
    assert str(e.value) == line
