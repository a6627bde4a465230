"""The coach's words agree with its numbers (issue: "best pass" under a higher bid, "the
best choice" under a lower value, "inside its error" for a loss beyond it, negative
"points of your side", "4 inaccuracys").  Judgements are built by hand or from a
stand-in advise/hint, so each expectation is worked out here, not read off the code."""

from __future__ import annotations

import math
import re
from types import SimpleNamespace

import pytest

from pitchsim.coach import judge
from pitchsim.coach.judge import Judgement, describe
from pitchsim.coach.practice import loss_line, render_values
from pitchsim.game.rules import Rules


def _j(values, chosen, loss, error, label=None, kind="call", defending=False, best=None):
    best = best or max(values, key=values.get)
    unit = "P(win)" if kind == "call" else "points"
    halves = {k: 0.01 for k in values}
    return Judgement(
        1,
        0,
        kind,
        chosen,
        best,
        values,
        halves,
        loss,
        error,
        label,
        unit,
        100,
        defending=defending,
    )


def test_a_loss_beyond_its_error_is_never_called_inside_it():
    j = _j({"2": 0.30, "pass": 0.26}, "pass", 0.04, 0.03)
    text = describe(j)
    # a chance lost in percentage points (docs/coach.md)
    assert "inside its error" not in text and "real loss" in text
    assert "4.0 percentage points of P(win)" in text


def test_a_loss_inside_its_error_is_fine():
    j = _j({"2": 0.30, "pass": 0.28}, "pass", 0.02, 0.03)
    assert "2.0 percentage points of P(win) behind, inside its error (±3.0): fine" in describe(j)


def test_the_best_choice_is_said_only_of_the_top_value():
    j = _j({"2": 0.30, "pass": 0.28}, "2", 0.0, 0.0)
    assert describe(j) == "coach: 2 is the best choice here"


def _advice(p_win: dict[int, float], recommended: int):
    est = lambda v: SimpleNamespace(value=v, half_width=0.02)  # noqa: E731
    return SimpleNamespace(
        by_call={c: SimpleNamespace(p_win_game=est(v)) for c, v in p_win.items()},
        recommended_call=recommended,
        notes=[],
        stopped=None,
        samples=1000,
    )


def test_a_call_above_advises_cautious_pass_is_not_told_pass_was_best(monkeypatch):
    import pitchsim.advice.advise as advise

    # advise recommends pass (0 = pass) though 2 estimates higher: *2 9.8%  pass 9.5%
    monkeypatch.setattr(advise, "advise_view", lambda view, **k: _advice({0: 0.095, 2: 0.098}, 0))
    view = SimpleNamespace(
        seat=1, rules=Rules(), stealing_call=lambda: None
    )  # the base game: the base advisor
    j = judge.judge_call(view, "2", 1, 1000, 1)
    assert j.best == "2" and j.loss == 0 and j.recommended == "pass"
    assert describe(j) == "coach: 2 is the best choice here"
    assert "advise recommends pass" in j.note
    # and choosing the cautious pass costs exactly the difference, within its error
    k = judge.judge_call(view, "pass", 1, 1000, 1)
    assert k.best == "2" and k.loss == pytest.approx(0.003)
    assert k.error == pytest.approx(math.hypot(0.02, 0.02)) and k.label is None


def _hint(points: dict[int, float], vs: dict[int, float], recommended: int, pitcher_side: bool):
    cards = [
        SimpleNamespace(card=c, points=v, points_ci95=(v - 0.1, v + 0.1), vs_best=(0.0, vs[c]))
        for c, v in points.items()
    ]
    return SimpleNamespace(
        cards=cards,
        recommended=recommended,
        pitcher_side=pitcher_side,
        objective=None,  # the pitcher's side's points (auction-pitch's hint default)
        auction=SimpleNamespace(model="odds", note="the worlds fit the calls"),
        stop=None,
        fallback=None,
        worlds=200,
    )


def test_a_card_under_a_higher_one_is_not_the_best_choice(monkeypatch):
    import pitchsim.search.hint as hint
    from pitchsim.game.cards import parse_cards

    ace_s, jack_c, two_c = parse_cards("AS JC 2C")
    # The policy plays A♠ (-2.02 for this defender) though J♣ is -1.98: J♣ is the best.
    # (Values are the defender's: minus the pitcher's side's 2.02 and 1.98 points.)
    monkeypatch.setattr(
        hint,
        "hint_view",
        lambda view, **k: _hint(
            {ace_s: 2.02, jack_c: 1.98, two_c: 2.50},
            {ace_s: 0.0, jack_c: 0.05, two_c: 0.07},
            ace_s,
            pitcher_side=False,
        ),
    )
    view = SimpleNamespace(seat=1, pitcher=None, bid=None)  # no game to end this hand
    j = judge.judge_card(view, "AS", 1, 200, 1)
    assert j.best == "JC" and j.recommended == "AS" and j.defending
    assert j.loss == pytest.approx(0.04)
    assert j.error == pytest.approx(0.05)  # J♣'s paired half-width against the policy's A♠
    assert "best choice" not in describe(j)
    # Between two cards neither of which is the policy's: the sum of their half-widths.
    k = judge.judge_card(view, "2C", 1, 200, 1)
    assert k.loss == pytest.approx(0.52) and k.error == pytest.approx(0.12)
    # Shown as the pitcher's points, positive, fewest first, and said so.
    text = render_values(j)
    assert "fewer is better" in text and "-" not in text.split(":", 1)[1].replace("±", "")
    assert text.index("J♣ +1.98") < text.index("A♠ +2.02") < text.index("2♣ +2.50")


def test_labels_are_counted_in_plain_english():
    js = [_j({"KS": 1.0, "2C": 0.8}, "2C", 0.2, 0.05, "inaccuracy", kind="card") for _ in range(4)]
    assert "4 inaccuracies" in loss_line(js, "game")


def test_review_progress_counts_each_decision_once(capsys, monkeypatch, tmp_path):
    """The bar's count ends at the number of decisions reviewed, not their running sum."""
    import json

    from pitchsim.cli import main
    from pitchsim.cli import progress as progress_module

    with pytest.raises(SystemExit):
        main(["play", "--game", "--players", "3", "--seed", "2", "--json", "-s", "odds+heuristic"])
    record = tmp_path / "rec.json"
    record.write_text(capsys.readouterr().out)
    bars = []
    real = progress_module.Progress

    class Counting(real):
        def __init__(self, *a, **k):
            super().__init__(*a, **k)
            bars.append(self)

    monkeypatch.setattr(progress_module, "Progress", Counting)
    argv = ["review", str(record), "--seat", "1", "--samples", "100", "--worlds", "4", "--json"]
    with pytest.raises(SystemExit) as e:
        main(argv)
    assert e.value.code == 0
    doc = json.loads(capsys.readouterr().out)
    judged = doc["decisions"]
    assert judged > 3 and bars[-1].done == bars[-1].total == judged + doc["forced"]


def test_a_set_pitcher_is_told_in_the_persons_grammar():
    """A set pitcher reads "you bid 5 ... and were set", another seat "seat 1 ... was
    set" (the page said "you ... was set"): a played hand whose pitcher was set."""
    from pitchsim.coach.practice import hand_end
    from pitchsim.game.rules import Rules
    from pitchsim.table.game import play_table_game

    rules = Rules.parse("smear")
    for seed in range(1, 40):
        record = play_table_game(["random+random"] * 3, rules, seed)
        hand = next((h for h in record["hands"] if h["made"] is False), None)
        if hand is not None:
            break
    p = hand["pitcher"]
    first = hand_end(hand, rules, p, "hand 1")[0]
    assert first.startswith("hand 1: you ") and first.endswith(" and were set")
    other = (p + 1) % 3
    first = hand_end(hand, rules, other, "hand 1")[0]
    assert first.startswith(f"hand 1: seat {p} ") and first.endswith(" and was set")


@pytest.mark.parametrize(
    "rules, calls, steal",
    [
        ("auction-pitch", ["pass", "2", "pass"], "2"),  # RULES "steal": any bid below 4
        ("setback", ["pass", "4", "pass"], "4"),  # 2.4: only the maximum
        ("setback", ["pass", "3", "pass"], None),  # 2.4: a 3 must be outbid
        ("smear", ["pass", "3", "pass"], None),  # 3.3: no steal
    ],
)
def test_a_dealers_steal_is_marked_in_the_coachs_values_and_words(
    monkeypatch, tmp_path, rules, calls, steal
):
    """The dealer's call at the high bid's number is shown as the calls offered show it,
    "2 (steal)" (View.choice_words): in practice's values, the coach's line (the
    review's costly lines too), the page's values and the review's step, and kept in a
    save; no other call is marked."""
    import pitchsim.advice.advise as advise
    from pitchsim.coach.practice import _check_judgements, judgement_of
    from pitchsim.game.view import View
    from pitchsim.web.sessions import judgement_json

    hand = ["AH", "KH", "QH", "JH", "TH", "9H"]
    view = View.from_json(
        {"rules": rules, "players": 4, "seat": 3, "dealer": 3} | {"calls": calls, "hand": hand}
    )
    legal = [int(a) if a != "pass" else 0 for a in view.legal()]
    worth = {c: 0.1 + 0.05 * k for k, c in enumerate(legal)}  # the last call the best
    monkeypatch.setattr(advise, "advise_view", lambda v, **k: _advice(worth, legal[0]))
    j = judge.judge_call(view, "pass", 1, 1000, 1)
    assert j.steal == steal
    shown = render_values(j)
    words = judgement_json(j)["choice_words"]
    for a in j.values:
        marked = f"{a} (steal)"
        assert (marked in shown) is (a == steal), shown
        assert words[a] == (marked if a == steal else a)
        assert words[a] == view.choice_words(a)  # as the calls offered say it
    best = j.words(j.best)
    assert re.search(rf"best (was )?{re.escape(best)},", describe(j)), describe(j)
    if steal is not None:  # the steal the best: the coach names it so
        monkeypatch.setattr(
            advise, "advise_view", lambda v, **k: _advice({0: 0.1, int(steal): 0.3}, 0)
        )
        k = judge.judge_call(view, "pass", 1, 1000, 1)
        assert f"best was {steal} (steal), you lost" in describe(k), describe(k)
        assert describe(judge.judge_call(view, steal, 1, 1000, 1)) == (
            f"coach: {steal} (steal) is the best choice here"
        )
    # Saved and read back as it was; an older save without it still reads.
    doc = j.to_json()
    assert ("steal" in doc) is (steal is not None)
    assert judgement_of(doc) == j
    bad = []
    _check_judgements([doc], [(1, "auction", "pass")], 3, bad.append, view.rules)
    assert not bad
    if steal is not None:
        with pytest.raises(Exception, match="steal 'KS' is not one of the calls valued"):
            _check_judgements(
                [doc | {"steal": "KS"}], [(1, "auction", "pass")], 3, ValueError, view.rules
            )
