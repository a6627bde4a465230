"""table/engine.py where its mutation run after issues 28/29 (reports/mutation.md) found
the tests silent: the clock of a preset's decision and of the opening lead's planned
trump, the limits taken at exactly their value, and the name of a bad default.

In process (mutmut runs these against each mutant); the expected values are read off
docs/protocol.md ("Options", "Time")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pitchsim.table.engine import Engine
from pitchsim.util.errors import InputError

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
LEAD = json.loads((EXAMPLES / "views" / "lead.json").read_text())  # the opening lead
SMEAR = json.loads((EXAMPLES / "family_views" / "smear.json").read_text())


def reply(engine: Engine, view: dict, **options) -> dict:
    msg = {"type": "decide", "id": 1, "view": view, "options": options}
    return json.loads(engine.handle(json.dumps(msg)))


def test_the_limits_themselves_are_taken():
    # docs/protocol.md: samples 1-100,000, worlds 1-4,096 (a limit is allowed)
    assert Engine(samples=100_000).samples == 100_000
    with pytest.raises(InputError, match="samples must be a whole number 1-100,000, not 100001"):
        Engine(samples=100_001)
    r = reply(Engine(), LEAD, strategy="heuristic+rollout", worlds=4096, samples=100_000, time=0.2)
    assert r["type"] == "action" and r["search"]["worlds_max"] == 4096, r


def test_a_bad_default_time_is_named_time():
    with pytest.raises(InputError) as e:
        Engine(time=-1)
    assert str(e.value) == "time must be seconds above 0 and at most 86,400, not -1"


def test_a_presets_decision_is_searched_on_the_requests_clock():
    # Under smear (the family kernels), "time" makes a search policy answer on a clock,
    # and the reply says how its search stopped (docs/protocol.md, "Time").
    r = reply(Engine(), SMEAR, strategy="heuristic+rollout:8", time=30.0, seed=3)
    assert r["type"] == "action" and r["action"] in SMEAR["legal"], r
    assert r["search"]["worlds_max"] == 8 and r["search"]["stop"] in (
        "separated",
        "all worlds done",
    ), r
    assert "search" not in reply(Engine(), SMEAR, strategy="heuristic+rollout:8", seed=3)


def test_the_opening_leads_planned_trump_is_asked_on_the_same_clock(monkeypatch):
    # An advisor pitcher's opening lead asks its call again for the trump it planned:
    # on the request's clock (or the engine's), never unclocked when a time is given.
    from pitchsim.table import decide

    asked = []
    real = decide.timed_advisor_call

    def planner(k, samples, budget):
        asked.append(budget)
        return real(k, samples, budget)

    monkeypatch.setattr(decide, "timed_advisor_call", planner)
    advisor = "advisor+heuristic"
    assert reply(Engine(), LEAD, strategy=advisor, time=7.5)["type"] == "action"
    assert reply(Engine(time=2.5), LEAD, strategy=advisor)["type"] == "action"
    assert reply(Engine(), LEAD, strategy=advisor)["type"] == "action"  # no clock: the kernel
    assert asked == [7.5, 2.5]


@pytest.mark.parametrize(
    "name, change, under, of",
    [
        # a ten-point view (a joker in hand) sent under smear, saying partnership false as
        # smear does: ten-point states partnership true, yet the view fits ten-point
        ("ten-point", {"rules": "smear", "partnership": False}, "smear", "ten-point"),
        # a smear view sent under setback with smear's target: setback states 11
        ("smear", {"rules": "setback", "target": 21}, "setback", "smear"),
    ],
)
def test_the_preset_a_refused_view_fits_is_named_whatever_its_partnership_and_target(
    name, change, under, of
):
    # The view's partnership and target are what its rules state, so the presets it
    # might be a view of are tried without them (table/engine.py _reads_as).
    view = json.loads((EXAMPLES / "family_views" / f"{name}.json").read_text()) | change
    r = reply(Engine(), view)
    assert r["code"] == "bad-view", r
    assert r["message"].endswith(f"(under {under}; it is a view of {of}: are its rules right?)")
