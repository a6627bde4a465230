"""``pitchsim engine`` under a called partner (VARIANTS.md 12.1), asked as an outside
program asks it (docs/protocol.md): a real engine subprocess, one JSON line each way.

The views are cut from whole games of the family game kernel (``test_seats_families.
decisions``), so every kind of decision of a called-partner hand is asked: calls, the
naming of trump, the partner's forced card in trick 1 and every other card.  The
engine's default strategy (``odds+rollout``) bids by an odds table: a called partner's
own rows (12.1.6: the pitcher's side is two seats), shipped, or with a kitty as well
(12.2) made on first use (``table.odds_rows``; test_engine_presets asks a call there);
naming trump and playing a card read no table.
"""

from __future__ import annotations

import json
from itertools import islice

import pytest
from test_engine_presets import EngineProcess
from test_seats_families import decisions

from pitchsim.game.view import View

ASKED = "heuristic+rollout"  # the same play policy as the default's, a bidder with no table


@pytest.fixture(scope="module")
def engine():
    e = EngineProcess("--seed", "7")  # the default strategy: odds+rollout
    yield e
    e.close()


def ask(engine: EngineProcess, doc: dict, strategy: str | None = None) -> dict:
    msg = {"type": "decide", "id": engine.asked, "view": doc}
    if strategy is not None:
        msg["options"] = {"strategy": strategy}
    reply = engine.ask(msg)
    assert reply["id"] == engine.asked - 1
    return reply


@pytest.mark.parametrize(
    ("spec", "n"),
    [("smear,partner=called", 5), ("auction-pitch,trump=named,partner=announced", 6)],
)
def test_12_1_2_and_12_1_3_the_engines_default_names_trump_and_plays_under_a_called_partner(
    engine, spec, n
):
    """With no strategy asked (the engine's default, ``odds+rollout``): every call (the
    odds bidder reads the called partner's own rows, 12.1.6), trump named and every card
    played, each legal at its view, the called card in trick 1 too (12.1.3); trump and
    cards by the default's own policies, the same answers (values included) as
    ``heuristic+rollout``, whose bidder is the only difference; asked with
    ``heuristic+rollout`` a call is legal too."""
    kinds: dict[str, int] = {}
    views = decisions(spec, n, ["heuristic+heuristic"], seed=3, board=0)
    for _, view, _, _ in islice(views, 90):
        doc = view.to_json()
        legal = View.from_json(json.loads(json.dumps(doc))).legal()
        default = ask(engine, doc)
        if view.phase == "auction":
            assert default["type"] == "action" and default["action"] in legal, default
            asked = ask(engine, doc, ASKED)
            assert asked["type"] == "action" and asked["action"] in legal, asked
            kinds["call"] = kinds.get("call", 0) + 1
            continue
        assert default["type"] == "action" and default["action"] in legal, default
        assert default == ask(engine, doc, ASKED) | {"id": default["id"]}
        kind = view.phase if len(legal) > 1 else "forced"
        first = view.phase == "play" and not view.complete_tricks  # trick 1
        if "called" in spec and first and view.called >= 0 and view.held >> view.called & 1:
            kind = "called card"  # the holder's duty (12.1.3): its only legal card
            assert legal == [default["action"]] == [doc["called"]], (doc, default)
        if kind == "play":
            assert set(default["values"]) == set(legal)  # rollout's, valued
        kinds[kind] = kinds.get(kind, 0) + 1
    assert all(kinds.get(k, 0) > 0 for k in ("call", "trump", "play")), kinds
    if "called" in spec:
        assert kinds.get("called card", 0) > 0, kinds
