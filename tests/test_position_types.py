"""Strict types in what pitchsim reads from JSON: positions (``solve``, ``hint``) and run
manifests.  Booleans are not numbers, floats are not whole numbers (not even 4.0),
strings are not numbers or booleans, numbers are not cards: every field, each wrong
type, is refused with the module's one-line error, never read as the value it
resembles.  Property tests (hypothesis) over every field and many values of each kind.
"""

from __future__ import annotations

import copy
import dataclasses
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_position import ROUND

from pitchsim.game.rules import Rules
from pitchsim.search.position import PositionError, parse_position, read_position
from pitchsim.study.manifest import (
    FORMAT,
    REGIONS,
    Manifest,
    PartRecord,
    RunError,
    RunParams,
    plan_parts,
)

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# ---- positions ----------------------------------------------------------------------------

# Whole-number fields of a position, as paths into the JSON document.
POSITION_INTS = [
    ("players",),
    ("pitcher",),
    ("bid",),
    ("tricks", 0, "leader"),
    ("tricks", 1, "leader"),
    ("tricks", 2, "leader"),
]
# Rule options in a ``rules`` object, with a legal value of their own type.
RULE_VALUES = {
    "target": 11,
    "min-bid": 2,
    "dealer-steal": False,
    "set-pitcher-wins": True,
    "partnership": False,
    "low": "dealt",
    "all-pass": "redeal",
    "follow": "trump",
}


def get(doc, path):
    for k in path:
        doc = doc[k]
    return doc


def put(doc, path, value):
    doc = copy.deepcopy(doc)
    target = doc
    for k in path[:-1]:
        target = target[k]
    target[path[-1]] = value
    return doc


def not_a_whole_number(v: int):
    """Values that look like the whole number ``v`` but are not one."""
    return st.one_of(
        st.just(float(v)),
        st.just(str(v)),
        st.just([v]),
        st.booleans(),
        st.floats(allow_nan=True),
        st.text(max_size=4),
        st.integers().map(str),
    )


def test_the_base_position_and_its_rules_objects_are_read():
    parse_position(ROUND)
    for key, value in RULE_VALUES.items():
        parse_position({**ROUND, "rules": {key: value}})


@SETTINGS
@given(data=st.data())
def test_whole_number_fields_take_only_whole_numbers(data):
    path = data.draw(st.sampled_from(POSITION_INTS))
    bad = data.draw(not_a_whole_number(get(ROUND, path)))
    with pytest.raises(PositionError, match="whole number"):
        parse_position(put(ROUND, path, bad))


@pytest.mark.parametrize("path", POSITION_INTS)
def test_true_is_not_one_in_any_whole_number_field(path):
    """``True == 1`` in Python: a seat 1 (or 0) that is really a boolean is refused."""
    doc = put(ROUND, path, get(ROUND, path))
    parse_position(doc)
    for b in (True, False):
        with pytest.raises(PositionError, match="whole number"):
            parse_position(put(ROUND, path, b))
    # The same through the JSON text a user writes.
    text = json.dumps(put(ROUND, path, True))
    with pytest.raises(PositionError):
        read_position(text)


@SETTINGS
@given(bad=st.one_of(st.integers(0, 1), st.floats(), st.sampled_from(["true", "false", "1", ""])))
def test_partnership_takes_only_true_or_false(bad):
    with pytest.raises(PositionError, match="partnership"):
        parse_position({**ROUND, "partnership": bad})


@SETTINGS
@given(data=st.data())
def test_rule_options_in_an_object_take_only_their_own_type(data):
    key = data.draw(st.sampled_from(sorted(RULE_VALUES)))
    good = RULE_VALUES[key]
    if isinstance(good, bool):
        bad = data.draw(
            st.one_of(st.integers(0, 1), st.sampled_from(["true", "false", "yes"]), st.floats())
        )
    elif isinstance(good, int):
        bad = data.draw(
            st.one_of(st.booleans(), st.just(float(good)), st.just(str(good)), st.floats())
        )
    else:
        bad = data.draw(st.one_of(st.booleans(), st.integers(), st.floats(), st.just([good])))
    with pytest.raises(PositionError, match="rules"):
        parse_position({**ROUND, "rules": {key: bad}})


@SETTINGS
@given(data=st.data())
def test_cards_are_names_not_numbers(data):
    seat = data.draw(st.integers(0, 3))
    i = data.draw(st.integers(0, 5))
    bad = data.draw(st.one_of(st.integers(0, 51), st.booleans(), st.floats(), st.none()))
    with pytest.raises(PositionError, match="list of cards"):
        parse_position(put(ROUND, ("hands", seat, i), bad))
    t = data.draw(st.integers(0, 2))
    with pytest.raises(PositionError, match="list of cards"):
        parse_position(put(ROUND, ("tricks", t, "cards", 0), bad))


@pytest.mark.parametrize("field", ["players", "pitcher", "hands", "tricks"])
def test_required_fields_are_not_null(field):
    with pytest.raises(PositionError):
        parse_position({**ROUND, field: None})


# ---- run manifests ------------------------------------------------------------------------


def manifest_doc():
    """A manifest of two player counts and two parts each, one pending (no file is read:
    ``Manifest.from_json`` checks the document alone)."""
    plan = plan_parts(2000, [3, 4], 1000)
    parts = [
        PartRecord(p, "done", p.count, 20_000, "a" * 64, {r: "b" * 32 for r in sorted(REGIONS)})
        for p in plan[:3]
    ] + [PartRecord(plan[3])]
    params = RunParams(12, "heuristic", Rules().describe_in_full())
    return Manifest(2000, [3, 4], params, 1000, "0.1.0", parts).to_json()


MANIFEST_INTS = (
    [("deals_per_player_count",), ("seed",), ("part_size",), ("players", 0), ("players", 1)]
    + [("parts", i, k) for i in range(4) for k in ("index", "players", "start", "count")]
    + [("parts", i, k) for i in range(3) for k in ("rows", "bytes")]
)


def test_the_base_manifest_is_read():
    m = Manifest.from_json(manifest_doc(), "m")
    assert [r.status for r in m.parts] == ["done"] * 3 + ["pending"]
    assert m.to_json()["format"] == FORMAT


@SETTINGS
@given(data=st.data())
def test_manifest_whole_numbers_take_only_whole_numbers(data):
    doc = manifest_doc()
    path = data.draw(st.sampled_from(MANIFEST_INTS))
    bad = data.draw(not_a_whole_number(get(doc, path)))
    with pytest.raises(RunError, match="corrupt"):
        Manifest.from_json(put(doc, path, bad), "m")


@pytest.mark.parametrize("path", MANIFEST_INTS)
def test_manifest_true_is_not_one(path):
    doc = manifest_doc()
    for bad in (True, False, float(get(doc, path)), str(get(doc, path))):
        with pytest.raises(RunError, match="corrupt"):
            Manifest.from_json(put(doc, path, bad), "m")


@pytest.mark.parametrize(
    "key, bad",
    [
        ("target", True),
        ("target", 7.0),
        ("target", "7"),
        ("min-bid", "1"),
        ("min-bid", True),
        ("dealer-steal", 1),
        ("dealer-steal", "true"),
        ("partnership", 0),
        ("low", 1),
    ],
)
def test_manifest_rules_take_only_their_own_type(key, bad):
    doc = manifest_doc()
    assert key in doc["rules"]
    with pytest.raises(RunError, match="corrupt"):
        Manifest.from_json(put(doc, ("rules", key), bad), "m")


@pytest.mark.parametrize(
    "path", [("parts", 3, "rows"), ("parts", 3, "bytes"), ("parts", 3, "sha256")]
)
@pytest.mark.parametrize("bad", [0, False, "", 0.0])
def test_a_pending_part_has_nothing_not_even_a_falsy_something(path, bad):
    with pytest.raises(RunError, match="pending"):
        Manifest.from_json(put(manifest_doc(), path, bad), "m")


def test_checksums_are_strings_of_hex():
    doc = manifest_doc()
    for path, bad in (
        (("parts", 0, "sha256"), int("a" * 15, 16)),
        (("parts", 0, "fast_checksums", "frame"), True),
        (("parts", 0, "fast_checksums", "frame"), ["b" * 32]),
    ):
        with pytest.raises(RunError, match="corrupt"):
            Manifest.from_json(put(doc, path, bad), "m")
    assert dataclasses.is_dataclass(Manifest)
