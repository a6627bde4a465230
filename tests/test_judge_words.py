"""The coach's judgement (coach/judge.py) worked out by hand: the steps of its module
docstring at their exact thresholds, every line ``describe`` says, the JSON a save holds,
and each kind of decision (call, card, a family's card and trump) from stand-in numbers,
so the loss, its error and the label are computed here, not read off the code.  No
kernel runs."""

from __future__ import annotations

import math
from types import SimpleNamespace

import pytest

from pitchsim.coach import judge
from pitchsim.coach.judge import (
    CALL_STEPS,
    CARD_STEPS,
    SCORE_STEPS,
    Judgement,
    describe,
    label,
    show_action,
)
from pitchsim.game.cards import parse_cards
from pitchsim.game.rules import Rules

BASE = Rules()  # a fake view's rules: the base game's (auction-pitch's hint defaults)
SMEAR = Rules.parse("smear")  # a preset whose hint defaults value the margin


def no_game(seat: int, rules=BASE):
    """A fake card view with no pitcher: no game to end on this hand."""
    return SimpleNamespace(seat=seat, pitcher=None, bid=None, rules=rules)


def J(kind="card", chosen="KS", best="AS", loss=0.3, error=0.1, lab="mistake", unit="points"):
    return Judgement(
        2, 1, kind, chosen, best, {best: 1.0, chosen: 1.0 - loss}, {best: 0.05, chosen: 0.05},
        loss, error, lab, unit, 200,
    )  # fmt: skip


# ---- the steps (module docstring) -------------------------------------------------------


@pytest.mark.parametrize(
    "steps, edges",
    [
        (CALL_STEPS, [(0.05, "inaccuracy"), (0.10, "mistake"), (0.15, "blunder")]),
        (CARD_STEPS, [(0.10, "inaccuracy"), (0.25, "mistake"), (0.50, "blunder")]),
        (SCORE_STEPS, [(0.25, "inaccuracy"), (0.50, "mistake"), (1.00, "blunder")]),
    ],
)
def test_each_step_starts_at_its_threshold(steps, edges):
    below = None
    for at, name in edges:
        assert label(at, 0.0, steps) == name  # "at least"
        assert label(at - 1e-9, 0.0, steps) == below
        below = name
    assert label(100.0, 0.0, steps) == "blunder"
    assert label(0.0, -1.0, steps) is None  # no loss: no step reached


def test_a_loss_inside_its_error_or_without_one_gets_no_label():
    assert label(0.5, 0.5, CARD_STEPS) is None  # not beyond its error
    assert label(0.5, 0.49, CARD_STEPS) == "blunder"
    assert label(0.5, math.nan, CARD_STEPS) is None  # too few samples


# ---- the words --------------------------------------------------------------------------


def test_what_describe_says_in_each_case():
    assert describe(J(chosen="AS", best="AS", loss=0.0, error=0.0, lab=None)) == (
        "coach: A♠ is the best choice here"
    )
    assert describe(J()) == "coach: K♠ — MISTAKE: best was A♠, you lost 0.30 points (±0.10)"
    assert describe(J(kind="call", chosen="pass", best="2", loss=0.12, error=0.03,
                      unit="P(win)")) == (
        "coach: pass — MISTAKE: best was 2, you lost 12.0 percentage points of P(win) (±3.0)"
    )  # fmt: skip
    assert describe(J(loss=0.3, error=math.nan, lab=None)) == (
        "coach: K♠ — best A♠, 0.30 points behind: too few samples to judge"
    )
    assert describe(J(loss=0.3, error=0.3, lab=None)) == (
        "coach: K♠ — best A♠, 0.30 points behind, inside its error (±0.30): fine"
    )
    assert describe(J(loss=0.08, error=0.02, lab=None)) == (
        "coach: K♠ — best A♠, 0.08 points behind (±0.02): a real loss, but under "
        "0.10 points, too small to call an inaccuracy"
    )
    assert describe(J(kind="call", chosen="pass", best="3", loss=0.04, error=0.01,
                      lab=None, unit="P(win)")) == (
        "coach: pass — best 3, 4.0 percentage points of P(win) behind (±1.0): a real loss, "
        "but under 5.0 percentage points of P(win), too small to call an inaccuracy"
    )  # fmt: skip
    assert describe(J(kind="trump", chosen="trump:D", best="trump:H", loss=0.2, error=0.1,
                      lab=None, unit="score")) == (
        "coach: ♦ diamonds — best ♥ hearts, 0.20 points of expected score behind (±0.10): a "
        "real loss, but under 0.25 points of expected score, too small to call an inaccuracy"
    )  # fmt: skip


def test_actions_as_a_player_reads_them():
    assert show_action("call", "shoot") == "shoot"
    assert [show_action("trump", f"trump:{s}") for s in "CDHS"] == [
        "♣ clubs", "♦ diamonds", "♥ hearts", "♠ spades",
    ]  # fmt: skip
    assert show_action("card", "TD") == "10♦"
    assert show_action("card", "HJ") == "HJ" and show_action("card", "LJ") == "LJ"
    assert show_action("card", "2c") == "2♣"


def test_the_json_a_save_holds():
    j = J(error=math.inf)
    j = Judgement(**{**j.__dict__, "half_widths": {"AS": math.nan, "KS": 0.05}})
    doc = j.to_json()
    assert doc == {
        "hand": 2, "seat": 1, "kind": "card", "chosen": "KS", "best": "AS",
        "values": {"AS": 1.0, "KS": 0.7}, "half_widths": {"AS": None, "KS": 0.05},
        "loss": 0.3, "error": None, "label": "mistake", "unit": "points", "samples": 200,
        "note": "", "recommended": "AS", "defending": False,
    }  # fmt: skip
    k = Judgement(**{**j.__dict__, "recommended": "QS", "defending": True, "note": "n"})
    assert k.to_json()["recommended"] == "QS" and k.to_json()["defending"] is True


# ---- each kind of decision, from stand-in numbers ---------------------------------------


def est(v, hw=0.02):
    return SimpleNamespace(value=v, half_width=hw)


def advice(p_win, recommended, notes=(), stopped=None, samples=1000):
    return SimpleNamespace(
        by_call={c: SimpleNamespace(p_win_game=est(v)) for c, v in p_win.items()},
        recommended_call=recommended, notes=list(notes), stopped=stopped, samples=samples,
    )  # fmt: skip


def test_a_call_a_tie_and_the_clock(monkeypatch):
    import pitchsim.advice.advise as advise

    seen = {}

    def fake(view, **options):
        seen.clear()
        seen.update(options)
        stopped = advise.CLOCK if options["time"] is not None else None  # no clock, no stop
        return advice({0: 0.40, 2: 0.40, 3: 0.31}, 0, ["n1"], stopped, 850)

    monkeypatch.setattr(advise, "advise_view", fake)
    view = SimpleNamespace(seat=2, rules=BASE, stealing_call=lambda: None)
    j = judge.judge_call(view, "2", 3, 4000, 9, time=7.5)
    assert seen == {"samples": 4000, "seed": 9, "time": 7.5}
    # 2 ties pass at the top: the chosen one is the best, no loss, no error
    assert (j.best, j.loss, j.error, j.label, j.hand, j.seat) == ("2", 0.0, 0.0, None, 3, 2)
    assert j.note == (
        "n1; advise recommends pass, the cautious call inside the error; "
        "stopped by the clock (7.5 s) after 850 deals"
    )
    k = judge.judge_call(view, "3", 3, 4000, 9, model="heuristic", time=None)
    assert seen["model"] == "heuristic"
    assert k.best in ("pass", "2") and k.loss == pytest.approx(0.09)
    assert k.error == pytest.approx(math.hypot(0.02, 0.02)) and k.label == "inaccuracy"
    assert k.unit == "P(win)" and k.samples == 850 and k.kind == "call"
    assert k.note == "n1" + ("; advise recommends pass, the cautious call inside the error"
                             if k.best == "2" else "")  # fmt: skip


def test_a_call_advise_cannot_judge_by_its_model_falls_back_and_says_so(monkeypatch):
    """No deal fits the calls heard under advise's model: the others are taken to bid
    at random, without a clock, and the note says so; a model asked for is not
    replaced."""
    import pitchsim.advice.advise as advise

    models = []

    def fake(view, **options):
        models.append((options.get("model"), options["time"]))
        if options.get("model") in (None, "odds"):
            raise advise.UnlikelyCalls("no")
        return advice({0: 0.5, 1: 0.45}, 0)

    monkeypatch.setattr(advise, "advise_view", fake)
    j = judge.judge_call(
        SimpleNamespace(seat=0, rules=BASE, stealing_call=lambda: None), "1", 1, 100, 1, time=5.0
    )
    assert models == [(None, 5.0), ("random", None)]  # without a clock
    assert j.note == (
        "no deal fit the calls heard under advise's model: the others taken to bid random"
    )
    assert j.loss == pytest.approx(0.05)
    with pytest.raises(advise.UnlikelyCalls):  # a model asked for is not replaced
        judge.judge_call(
            SimpleNamespace(seat=0, rules=BASE, stealing_call=lambda: None),
            "1",
            1,
            100,
            1,
            model="odds",
        )


def test_a_pitchers_card_with_notes(monkeypatch):
    import pitchsim.search.hint as hint
    from pitchsim.table.clock import CLOCK

    a, k, q = parse_cards("AS KS QS")
    cards = [
        # vs_best: each card against the policy's KS, paired on the same worlds
        SimpleNamespace(card=a, points=2.0, points_ci95=(1.8, 2.2), vs_best=(0.5, 0.15)),
        SimpleNamespace(card=k, points=1.5, points_ci95=None, vs_best=(0.0, 0.0)),
        SimpleNamespace(card=q, points=1.0, points_ci95=(0.9, 1.1), vs_best=(-0.5, 0.1)),
    ]
    h = SimpleNamespace(
        cards=cards, recommended=k, pitcher_side=True, worlds=37, stop=CLOCK, objective=None,
        auction=SimpleNamespace(model="odds", note="worlds fit the calls"), fallback="fell back",
    )  # fmt: skip
    monkeypatch.setattr(hint, "hint_view", lambda view, **o: h)
    j = judge.judge_card(no_game(1), "QS", 4, 200, 3, time=2.0)
    assert j.values == {"AS": 2.0, "KS": 1.5, "QS": 1.0} and not j.defending
    assert j.half_widths["AS"] == pytest.approx(0.2) and math.isnan(j.half_widths["KS"])
    # neither AS (best) nor QS (chosen) is the policy's KS: the sum of their half-widths
    assert j.loss == 1.0 and j.error == pytest.approx(0.25) and j.label == "blunder"
    assert j.note == (
        "worlds fit the calls; the rollout policy plays KS (it weighs making the bid first); "
        "stopped by the clock (2 s) after 37 worlds; fell back"
    )
    # the policy's card chosen: the best's own paired half-width
    m = judge.judge_card(no_game(1), "KS", 4, 200, 3)
    assert m.loss == 0.5 and m.error == pytest.approx(0.15) and m.label == "blunder"
    # a defender's values are minus the pitcher's side's points
    h.pitcher_side = False
    d = judge.judge_card(no_game(1), "KS", 4, 200, 3)
    assert d.values == {"AS": -2.0, "KS": -1.5, "QS": -1.0} and d.defending
    assert d.best == "QS" and d.loss == 0.5 and d.error == pytest.approx(0.1)


def test_a_family_card_in_margin_points(monkeypatch):
    import pitchsim.search.hint as hint

    a, k, q = parse_cards("AH KH QH")
    cards = [
        SimpleNamespace(card=a, points=-0.5, points_ci95=(-0.7, -0.3), vs_best=(0.0, 0.0)),
        SimpleNamespace(card=k, points=0.25, points_ci95=(0.0, 0.5), vs_best=(0.75, 0.2)),
        SimpleNamespace(card=q, points=-1.0, points_ci95=None, vs_best=(-0.5, None)),
    ]
    # a smear answer: the margin (an objective), the calls not fitted (no model)
    h = SimpleNamespace(
        cards=cards, recommended=a, worlds=64, stop=None, objective="margin", fallback=None,
        pitcher_side=False, auction=SimpleNamespace(model=None, note="not the calls"),
    )  # fmt: skip
    monkeypatch.setattr(hint, "hint_view", lambda view, **o: h)
    j = judge.judge_card(no_game(3, SMEAR), "AH", 1, 64, 5)
    # not negated, a defender's though: a margin is already the seat's; KH is the best,
    # AH the policy's (not named: an objective's best is the policy's measure itself)
    assert not j.defending and j.best == "KH" and j.loss == 0.75 and j.error == pytest.approx(0.2)
    assert j.label == "blunder" and j.unit == "margin" and j.recommended == "AH"
    assert j.half_widths["KH"] == pytest.approx(0.25) and math.isnan(j.half_widths["QH"])
    assert j.note == "the worlds fit the play seen and the draw, not the calls heard"
    q_ = judge.judge_card(no_game(3, SMEAR), "QH", 1, 64, 5)
    assert q_.loss == 1.25 and math.isnan(q_.error) and q_.label is None


@pytest.mark.parametrize("rules", [SMEAR, BASE])
def test_a_card_on_the_clock_asks_hint_for_the_presets_defaults(monkeypatch, rules):
    """The coach's clock reaches the search under every preset, and a stop by it is said
    in the note (docs/coach.md); hint is asked for the coach's policy alone, every other
    option the preset's default (auction-pitch's: the calls fitted, points; smear's: the
    margin, on worlds fitting the play)."""
    import pitchsim.search.hint as hint
    from pitchsim.table.clock import CLOCK

    a, k = parse_cards("AH KH")
    cards = [
        SimpleNamespace(card=a, points=0.5, points_ci95=(0.3, 0.7), vs_best=(0.0, 0.0)),
        SimpleNamespace(card=k, points=0.25, points_ci95=(0.0, 0.5), vs_best=(-0.25, 0.2)),
    ]
    asked = []

    def fake(view, **options):
        asked.append(options)
        return SimpleNamespace(
            cards=cards, recommended=a, worlds=23, stop=CLOCK, pitcher_side=True,
            objective=None if rules is BASE else "margin", fallback=None,
            auction=SimpleNamespace(model="odds" if rules is BASE else None, note="fit"),
        )  # fmt: skip

    monkeypatch.setattr(hint, "hint_view", fake)
    j = judge.judge_card(no_game(0, rules), "KH", 2, 64, 9, time=1.5)
    assert asked == [{"policy": "rollout", "worlds": 64, "seed": 9, "time": 1.5}]
    worlds = (
        "fit" if rules is BASE else "the worlds fit the play seen and the draw, not the calls heard"
    )
    assert j.note == f"{worlds}; stopped by the clock (1.5 s) after 23 worlds"
    assert j.unit == ("points" if rules is BASE else "margin")
    assert j.samples == 23 and j.loss == 0.25 and j.error == pytest.approx(0.2)


def test_naming_trump_in_the_hands_expected_score(monkeypatch):
    # per suit (C, D, H, S): mean score and its standard error
    scores = {0: (-1.0, 0.1), 1: (0.5, 0.05), 2: (2.0, 0.2), 3: (2.0, 0.1)}
    asked = []

    def fake(view, bid, samples, seed):
        asked.append((bid, samples, seed))
        return scores

    monkeypatch.setattr(judge, "_named_suit_scores", fake)
    rules = SimpleNamespace(max_bid=10)
    view = SimpleNamespace(seat=0, shoot=False, bid=6, rules=rules, preset=rules)
    j = judge.judge_trump(view, "trump:D", 2, 500, 8)
    assert asked == [(6, 500, 8)]
    assert j.best == "trump:H" and j.loss == 1.5  # the first of the tied top suits
    assert j.half_widths["trump:H"] == pytest.approx(1.96 * 0.2)
    assert j.error == pytest.approx(math.hypot(1.96 * 0.2, 1.96 * 0.05))
    assert j.label == "blunder" and j.unit == "score" and j.samples == 500
    assert j.note == "deals fit your hand, not the calls heard; the bid of 6 played in each suit"
    shot = judge.judge_trump(
        SimpleNamespace(**{**view.__dict__, "shoot": True}), "trump:S", 2, 5, 1
    )
    assert asked[-1][0] == 10 and shot.best == "trump:S" and shot.loss == 0.0
    assert shot.error == 0.0 and shot.note.endswith("the bid of 10 played in each suit")


def test_the_one_door_sends_each_kind_to_its_judge(monkeypatch):
    from pitchsim.game.view import View

    called = []
    for name in ("judge_trump", "judge_call", "judge_card"):
        monkeypatch.setattr(judge, name, lambda *a, _n=name, **k: called.append((_n, a, k)))

    class Family(View):
        def __init__(self, phase):
            object.__setattr__(self, "phase", phase)
            object.__setattr__(self, "rules", Rules.parse("smear"))

    judge.judge(Family("play"), "AH", 1, 7, samples=10, worlds=20, time=3.0)
    judge.judge(Family("trump"), "trump:H", 1, 7, samples=10, worlds=20)
    judge.judge(Family("auction"), "5", 1, 7, samples=10, worlds=20, time=3.0)
    judge.judge(
        SimpleNamespace(phase="auction", rules=BASE), "2", 1, 7, samples=10, worlds=20, time=3.0
    )
    judge.judge(
        SimpleNamespace(phase="play", rules=BASE), "AS", 1, 7, samples=10, worlds=20, time=3.0
    )
    names = [c[0] for c in called]
    # a card goes to the one card judge under every preset, the base game's too
    assert names == ["judge_card", "judge_trump", "judge_call", "judge_call", "judge_card"]
    assert called[0][1][1:] == ("AH", 1, 20, 7) and called[0][2] == {"time": 3.0}
    assert called[1][1][1:] == ("trump:H", 1, 10, 7)
    assert called[2][1][1:] == ("5", 1, 10, 7) and called[2][2] == {"time": 3.0}
    assert called[4][1][1:] == ("AS", 1, 20, 7) and called[4][2] == {"time": 3.0}
