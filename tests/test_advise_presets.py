"""``advise`` under every preset (auction-pitch, setback, smear, ten-point):
the family kernels' half of ``kernels.advice``.

Known values are derived from the rules in docs/rules.md, not from the code: a hand
whose trumps cannot be captured (every trump above them is its own, or burned) takes
those points with probability 1, and a made bid that brings the seat's side to the
target wins the game under the preset's win rule.  Under the ``random`` model every
call is uniform among the legal ones whatever the cards, so the share of deals that fit
the calls heard is exactly a product of 1 / (number of legal calls).
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from pitchsim.advice.advise import AuctionError, advise, check_auction, parse_calls
from pitchsim.game.rules import Rules
from pitchsim.util.errors import InputError

PRESETS = {
    "auction-pitch": Rules(),
    "setback": Rules.parse("setback"),
    "smear": Rules.parse("smear"),
    "ten-point": Rules.parse("ten-point"),
}

# A hand whose points cannot be lost, the points it surely takes with hearts as trump
# (docs/rules.md), and the smallest bid it surely makes.
#  - auction-pitch, setback (trump by the first lead, low captured): six hearts, so any
#    first lead makes hearts trump; A K Q J: High and the Jack are never captured (2).
#  - smear (named, low dealt): A K Q J and the jick JD are the five top trumps (High,
#    Jack, Jick), and the 2 is Low to its holder (4).
#  - ten-point (named, 9 dealt, the pitcher robs the stock and comes down to six): A K Q
#    J, JD, HJ, LJ, T and 3 of hearts.  Every trump above the A, J, JD, HJ, LJ and T is
#    the seat's own or burned, so those it keeps are never captured; it burns K and Q
#    first and at most one point card more, so it keeps at least five of those six,
#    or all six when the 3 goes: at least 5 points (High goes to its top trump kept).
SURE = {
    "auction-pitch": ("AH KH QH JH 4H 3H", 2),
    "setback": ("AH KH QH JH 4H 3H", 2),
    "smear": ("AH KH QH JH JD 2H", 4),
    "ten-point": ("AH KH QH JH JD HJ LJ TH 3H", 5),
}
# The model: random where any first lead of six hearts makes hearts trump (three passes
# are rare under the heuristic with bids from 1); heuristic where trump is named (it
# names its best suit, hearts; random would name a suit of a random card).
SURE_MODEL = {"auction-pitch": "random", "setback": "random"}
HEARTS = 2


@pytest.mark.parametrize("name", list(PRESETS))
def test_a_hand_that_cannot_lose_its_points_makes_them_and_wins_at_the_target(name):
    """Seat 3 deals, the others passed: its bid stands.  Its side stands ``sure`` short
    of the target; every bid up to ``sure`` is made in every deal and wins the game."""
    rules = PRESETS[name]
    hand, sure = SURE[name]
    team = rules.partnership
    need = rules.target - sure
    scores = f"0,{need}" if team else f"0,0,0,{need}"
    a = advise(
        hand,
        players=4,
        seat=3,
        dealer=3,
        calls="pass,pass,pass",
        scores=scores,
        rules=rules,
        model=SURE_MODEL.get(name, "heuristic"),
        samples=300,
        seed=2,
    )
    assert a.samples == 300
    for k in range(1, sure + 1):
        assert a.by_suit[HEARTS].p_make(k).value == 1.0
    bids = [c for c in a.legal_calls if 0 < c <= sure]
    assert bids  # the preset's minimum bid is within the sure points
    for c in bids:
        o = a.by_call[c]
        assert o.p_pitcher.value == 1.0 and o.p_made.value == 1.0, (c, o)
        assert o.p_win_game.value == 1.0 and o.trump == HEARTS
        assert o.expected_score.value >= sure
    assert a.by_call[a.recommended_call].p_win_game.value == 1.0


# The calls heard and the number of legal calls each caller had (docs/rules.md: pass or
# a bid from the minimum to the maximum, higher than the last).
HEARD = {
    "auction-pitch": ("pass,1", [5, 5]),  # pass, 1-4; then pass, 1-4
    "setback": ("pass,2", [4, 4]),  # pass, 2-4
    "smear": ("pass,2", [5, 5]),  # pass, 2-5
    "ten-point": ("pass,5", [7, 7]),  # pass, 5-10
}


@pytest.mark.parametrize("name", list(PRESETS))
def test_under_the_random_model_the_calls_fit_at_their_exact_rate(name):
    rules = PRESETS[name]
    calls, counts = HEARD[name]
    p = 1.0 / math.prod(counts)
    hand = SURE[name][0]
    a = advise(
        hand,
        players=4,
        seat=2,
        dealer=3,
        calls=calls,
        rules=rules,
        model="random",
        samples=400,
        seed=5,
    )
    # ``tried`` ends at the last deal kept: the kept count is binomial in the deals tried.
    se = math.sqrt(a.tried * p * (1 - p))
    assert abs(a.samples - p * a.tried) < 4 * se, (a.samples, a.tried, p)


def test_a_shoot_is_a_call_and_wins_the_game_when_made():
    """smear,shoot=true: the shoot is the call one above the maximum (VARIANTS 6.1);
    made, it wins the game at once, whatever the scores."""
    rules = Rules.parse("smear,shoot=true")
    assert parse_calls("pass,shoot", rules) == [0, 6]
    a = advise(
        "AH KH QH JH JD 2H", players=3, seat=2, dealer=2, calls="pass,pass",
        rules=rules, model="heuristic", samples=300, seed=3,
    )  # fmt: skip
    assert 6 in a.legal_calls and a.by_call[6].label == "shoot"
    o = a.by_call[6]
    assert o.p_pitcher.value == 1.0
    made = o.p_made.value
    # Made, it wins; set, the seat is at -5 and the game goes on (won later, or not).
    assert o.p_win_game.value >= made > 0
    doc = a.to_json()
    assert "shoot" in doc["by_call"] and doc["legal_calls"][-1] == "shoot"


def test_a_seat_below_zero_may_not_shoot():
    rules = Rules.parse("smear,shoot=true")
    legal = check_auction([0], 3, 2, 0, rules, [0, 0, -1])
    assert 6 not in legal
    assert 6 in check_auction([0], 3, 2, 0, rules, [0, 0, 0])


def test_dealer_steal_variants_decide_the_dealers_calls():
    """setback: dealer-steal=max (the dealer may match only a 4, 2.5); smear: no steal."""
    setback, smear = PRESETS["setback"], PRESETS["smear"]
    assert check_auction([2, 0, 0], 4, 3, 3, setback) == [0, 3, 4]
    assert check_auction([4, 0, 0], 4, 3, 3, setback) == [0, 4]
    assert check_auction([2, 0, 0], 4, 3, 3, smear) == [0, 3, 4, 5]
    a = advise(
        "AH KH QH JH 4H 3H", players=4, seat=3, dealer=3, calls="4,pass,pass",
        rules=setback, model="heuristic", samples=200, seed=1,
    )  # fmt: skip
    assert a.by_call[4].label == "4 (steal)"


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(rules=PRESETS["ten-point"], hand="AH KH QH JH 4H 3H"), "exactly 9 different"),
        (dict(rules=PRESETS["smear"], hand="AH KH QH JH 4H HJ"), "not in this deck"),
        (dict(rules=PRESETS["smear"], calls="6"), "a bid 1-5"),  # smear tops at 5
        (dict(rules=PRESETS["smear"], calls="shoot"), "cannot read call"),  # no shoot
        (dict(rules=PRESETS["smear"], calls="1"), "cannot call 1"),  # min-bid 2
        (dict(rules=PRESETS["smear"], model="pimc"), "pimc"),
        (dict(rules=PRESETS["setback"], players=3), "4 players"),
    ],
)
def test_bad_input_is_one_clear_error(kwargs, message):
    args = dict(hand="AH KH QH JH 4H 3H", players=4, seat=1, dealer=3, calls="pass", samples=50)
    with pytest.raises(InputError, match=message):
        advise(**(args | kwargs))


def test_the_auction_is_checked_under_the_presets_rules():
    with pytest.raises(AuctionError, match="a 10 ended the auction"):
        check_auction([10], 4, 1, 3, PRESETS["ten-point"])


def test_cli_under_a_preset_table_json_time_and_errors(capsys):
    from pitchsim.cli import main

    args = ["advise", "AH KH QH JH JD 2H", "--seat", "1", "--dealer", "3", "--rules", "smear"]
    args += ["--calls", "pass", "--model", "heuristic", "--seed", "4"]
    with pytest.raises(SystemExit) as e:
        main([*args, "--samples", "200"])
    assert e.value.code == 0
    out = capsys.readouterr().out
    assert "Rules smear" in out and "k = 5" in out and "Recommended:" in out
    with pytest.raises(SystemExit) as e:
        main([*args, "--samples", "200", "--json"])
    doc = json.loads(capsys.readouterr().out)
    assert doc["preset"] == "smear" and doc["target"] == 11
    assert doc["legal_calls"] == ["pass", "2", "3", "4", "5"] and doc["time"] is None
    assert set(doc["by_suit"]["H"]["p_make"]) == {"1", "2", "3", "4", "5"}
    with pytest.raises(SystemExit) as e:
        main([*args, "--samples", "4000", "--time", "30", "--json"])
    doc = json.loads(capsys.readouterr().out)
    assert doc["time"]["budget"] == 30 and doc["stopped"] in ("separated", "all deals done")
    for bad in (["--calls", "pass,6"], ["--rules", "ten-point"]):
        with pytest.raises(SystemExit) as e:
            main([*args, *bad])
        assert e.value.code == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and err[0].startswith("pitchsim: error: "), err


def test_same_seed_same_answer_on_one_and_two_threads():
    q = dict(
        hand="AH KH QH JH JD 2H", players=4, seat=1, dealer=3, calls="pass",
        rules=PRESETS["smear"], model="heuristic", samples=300, seed=8,
    )  # fmt: skip
    a, b = advise(**q, threads=1), advise(**q, threads=2)
    assert a.to_json() == b.to_json()
    c = advise(**(q | {"seed": 9}))
    assert not np.isclose(a.by_call[0].expected_margin.value, c.by_call[0].expected_margin.value)


def test_a_presets_view_of_the_auction_is_advised(tmp_path, capsys):
    """A family view (docs/view.md) gives the table, the calls and the scores."""
    from pitchsim.cli import main

    doc = {
        "rules": "smear", "players": 4, "seat": 1, "dealer": 3,
        "hand": ["AH", "KH", "QH", "JH", "JD", "2H"], "calls": ["pass"],
        "scores": [0, 9, 0, 0],
    }  # fmt: skip
    path = tmp_path / "view.json"
    path.write_text(json.dumps(doc))
    argv = ["advise", str(path), "--model", "heuristic", "--samples", "200", "--seed", "1"]
    with pytest.raises(SystemExit) as e:
        main([*argv, "--json"])
    assert e.value.code == 0
    out = json.loads(capsys.readouterr().out)
    assert out["preset"] == "smear" and out["scores"] == [0, 9, 0, 0]
    assert out["calls"] == ["pass"] and out["legal_calls"] == ["pass", "2", "3", "4", "5"]
    # A seat on 9 of 11 with four sure points wins the game with any bid it makes.
    assert out["by_call"]["2"]["p_win_game"] > out["by_call"]["pass"]["p_win_game"]
    with pytest.raises(SystemExit) as e:
        main([*argv, "--rules", "smear"])
    assert e.value.code == 2


# ---------------------------------------------------------------- the tremble model


def _fits(spec: str, model: str, heard: list[int], tremble: float, count: int) -> np.ndarray:
    """``accept_deals``' verdicts on deals 0 .. count-1: seat 2 holds a fixed
    hand, seat 3 deals, and the callers before seat 2 bid by ``model`` (heuristic play)."""
    from pitchsim.advice.advise import odds_for
    from pitchsim.game.cards import mask_of, parse_cards
    from pitchsim.kernels import advice as engine
    from pitchsim.kernels.presets import rules_array, rules_table
    from pitchsim.table.boards import seat_ids, strategy_for

    rules = Rules.parse(spec)
    n = 4
    seats = [strategy_for(f"{model}+heuristic", rules)] * n
    bidders, _ = seat_ids(seats)
    odds, defender = odds_for(seats, rules, n)
    fits = np.empty(count, dtype=np.bool_)
    engine.accept_deals(
        5, 0, count, n, 2, np.int64(mask_of(parse_cards("AH KH 9H 4C 7D 3S"))), 3,
        np.array(heard, dtype=np.int64), np.zeros(n, dtype=np.int64), bidders,
        rules_array(rules), rules_table(rules), odds, defender, tremble, fits,
    )  # fmt: skip
    return fits


@pytest.mark.parametrize("spec, model", [("setback", "heuristic"), ("smear", "odds")])
def test_a_slip_keeps_each_deal_that_does_not_fit_with_the_tremble_s_chance(spec, model):
    """Under the tremble model a deal is kept when the model makes the calls heard, or
    else with chance tremble per call it would not make: the kept deals are a superset
    of the plain model's; with one call heard, the share of the others kept is the
    tremble (binomial, 4 standard errors); with two calls heard that neither fits (the
    deals the plain model rejects at either call), tremble ** 2 of those that miss both
    at most, and tremble 1 keeps every deal."""
    count, t = 60_000, 0.2
    for heard in ([2], [0, 2]):
        plain = _fits(spec, model, heard, 0.0, count)
        slips = _fits(spec, model, heard, t, count)
        assert (slips | ~plain).all()  # every deal the model fits is kept
        assert 0 < plain.sum() < count
        other = ~plain
        share = slips[other].mean()
        if len(heard) == 1:
            se = math.sqrt(t * (1 - t) / other.sum())
            assert abs(share - t) < 4 * se, (share, t, se)
        else:  # each miss is one draw: between t ** 2 (both missed) and t (one missed)
            assert t * t - 0.01 < share < t + 0.01, share
        assert _fits(spec, model, heard, 1.0, count).all()
    # The slip's draw is its own: under the random model (a call blind to the cards)
    # the share kept is p + (1 - p) t, p the plain share (1 / the legal calls heard).
    plain = _fits(spec, "random", [2], 0.0, count).mean()
    kept = _fits(spec, "random", [2], t, count).mean()
    want = plain + (1 - plain) * t
    assert abs(kept - want) < 4 * math.sqrt(want * (1 - want) / count), (kept, want)


def test_calls_the_model_never_makes_are_advised_with_slips_and_say_so():
    """In partnership auction-pitch (bids from 1, 1.2) the odds model never passes as
    the first caller (a bid of 1 with the partner's help is worth more to it than a
    defender's points): no deal fits a first caller's pass.  The advice then lets each
    call slip with chance 5% and says so, in the notes and the JSON's ``tremble``;
    without slips it would stop at UnlikelyCalls."""
    a = advise(
        "KH QH 5H 9C 7D 3S",
        players=4,
        seat=1,
        dealer=3,
        calls="pass",
        rules=Rules.parse("auction-pitch,partnership=yes"),
        samples=300,
        seed=3,
        max_tries=20_000,
    )
    assert a.tremble == 0.05 and a.samples == 300
    assert a.to_json()["tremble"] == 0.05
    assert "in only 0 of 20,000 deals" in a.notes[0] and "slip" in a.notes[0]
    # The kept share is the slip's: 5% of the deals tried, within 4 standard errors.
    se = math.sqrt(0.05 * 0.95 / a.tried)
    assert abs(a.acceptance_rate - 0.05) < 4 * se + 300 / a.tried**2
    # A history the model makes keeps the plain model: no slips.
    b = advise("KH QH 5H 9C 7D 3S", players=4, seat=1, dealer=3, calls="2",
               rules=Rules.parse("auction-pitch,partnership=yes"), samples=300, seed=3)  # fmt: skip
    assert b.tremble == 0.0 and not any("slip" in n for n in b.notes)


def test_on_a_clock_calls_no_early_deal_fits_are_advised_with_slips_at_once():
    """On a clock there is no time to try millions of deals first: when none of the
    first 65,536 fits the calls heard (partnership auction-pitch's first-caller pass
    under the odds model), the slips are let in from the start, and the note says so;
    a history the model makes keeps the plain model on a clock too."""
    r = Rules.parse("auction-pitch,partnership=yes")
    a = advise("KH QH 5H 9C 7D 3S", players=4, seat=1, dealer=3, calls="pass", rules=r,
               samples=300, seed=3, time=2.0)  # fmt: skip
    assert a.tremble == 0.05 and a.samples > 0
    assert "in only 0 of 65,536 deals" in a.notes[0]
    b = advise("KH QH 5H 9C 7D 3S", players=4, seat=1, dealer=3, calls="2", rules=r,
               samples=300, seed=3, time=2.0)  # fmt: skip
    assert b.tremble == 0.0 and not any("slip" in n for n in b.notes)
