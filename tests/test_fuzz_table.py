"""Fuzzing (hypothesis, in the style of test_fuzz.py) of what the open table reads:
views, engine requests and game records.  The property: a result, or the one-line
error of its kind (ViewError / an ``error`` reply / RecordError), never another
exception; a view that is accepted survives its own JSON."""

import json
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pitchsim.game.rules import Rules
from pitchsim.game.view import View, ViewError
from pitchsim.table.engine import Engine
from pitchsim.table.game import play_table_game
from pitchsim.table.record import RecordError, replay

ROOT = Path(__file__).resolve().parent.parent
VIEWS = [json.loads(p.read_text()) for p in sorted((ROOT / "examples" / "views").glob("*.json"))]
RECORD = play_table_game(["heuristic", "random", "odds"], Rules(), 4, 0)


def fuzz(examples: int):
    return settings(
        max_examples=examples,
        derandomize=True,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow],
    )


leaf = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-10, 60),
    st.integers(),
    st.text(max_size=6),
    st.sampled_from(["AH", "TS", "pass", "4", "H", "10c"]),
)
value = st.recursive(
    leaf,
    lambda c: st.lists(c, max_size=4) | st.dictionaries(st.text(max_size=5), c, max_size=3),
    max_leaves=8,
)


def paths(doc, prefix=()):
    yield prefix
    if isinstance(doc, dict):
        for k, v in doc.items():
            yield from paths(v, prefix + (k,))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            yield from paths(v, prefix + (i,))


@st.composite
def mutated(draw, docs):
    doc = json.loads(json.dumps(draw(st.sampled_from(docs))))
    for _ in range(draw(st.integers(1, 3))):
        # Shallow places as often as deep ones: a record has thousands of leaves.
        depth = draw(st.integers(1, 5))
        places = [p for p in paths(doc) if 0 < len(p) <= depth]
        if not places:
            break
        where = draw(st.sampled_from(places))
        parent = doc
        for k in where[:-1]:
            parent = parent[k]
        action = draw(st.sampled_from(["set", "delete", "swap"]))
        if action == "delete":
            if isinstance(parent, dict):
                parent.pop(where[-1], None)
            else:
                parent.pop(where[-1])
        elif action == "swap" and isinstance(parent, list) and len(parent) > 1:
            i = draw(st.integers(0, len(parent) - 1))
            parent[i], parent[where[-1]] = parent[where[-1]], parent[i]
        else:
            parent[where[-1]] = draw(value)
    return doc


@fuzz(400)
@given(mutated(VIEWS))
def test_views(doc):
    try:
        v = View.from_json(doc)
    except ViewError as e:
        assert str(e) and "\n" not in str(e)
        return
    assert View.from_json(json.loads(json.dumps(v.to_json()))) == v
    assert set(v.legal()) <= set(v.to_json()["legal"])


@fuzz(300)
@given(
    mutated(
        [{"type": "decide", "id": 1, "view": v} for v in VIEWS]
        + [{"type": "hello", "protocol": "pitch-engine/1"}]
    )
)
def test_engine_requests(doc):
    reply = json.loads(Engine().handle(json.dumps(doc)))
    assert reply["type"] in ("action", "error", "hello", "readyok"), reply
    if reply["type"] == "error":
        assert reply["code"] != "internal", reply
        assert reply["message"] and "\n" not in reply["message"]


@fuzz(200)
@given(st.text(max_size=80) | st.binary(max_size=80))
def test_engine_lines(line):
    reply = Engine().handle(line)
    if reply is not None:
        assert json.loads(reply)["type"] in ("error", "hello", "readyok", "action")


@fuzz(150)
@given(mutated([RECORD]))
def test_records(doc):
    try:
        replay(doc, strategies=False)
    except RecordError as e:
        assert str(e) and "\n" not in str(e)
