"""Every field of a view (docs/view.md), base and family, read at its own type: a
boolean is not a number (``"pitcher": true`` is not seat 1), a float is not a whole
number, ``0`` is not ``false``, a list is not an object and an object is not a list.

Each example view is written out in full (``to_json``: every field the reader takes,
the worked-out ones included), then every value in it is swapped, one at a time, for
its look-alike of the wrong type; each such view must be refused in one line.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from pitchsim.game.view import View, ViewError

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
VIEWS = sorted((EXAMPLES / "views").glob("*.json"))
FAMILY_VIEWS = sorted((EXAMPLES / "family_views").glob("*.json"))


def look_alikes(value):
    """The values of another type a careless reader would take for ``value``."""
    if isinstance(value, bool):
        return [int(value)]
    if isinstance(value, int):
        return [float(value)] + ([bool(value)] if value in (0, 1) else [])
    if isinstance(value, list):
        return [{str(i): x for i, x in enumerate(value)}]
    if isinstance(value, dict):
        return [list(value.items()), list(value.values())]
    if isinstance(value, str):
        return [[value]]
    return []


def swaps(doc, path=()):
    """(path, the doc with the value at path swapped) for every value in doc."""
    items = (
        doc.items() if isinstance(doc, dict) else enumerate(doc) if isinstance(doc, list) else ()
    )
    for key, value in items:
        here = (*path, key)
        for other in look_alikes(value):
            yield here, other
        yield from swaps(value, here)


def swapped(doc, path, value):
    out = copy.deepcopy(doc)
    node = out
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return out


@pytest.mark.parametrize("path", VIEWS + FAMILY_VIEWS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_field_is_read_at_its_own_type(path):
    reader = View.from_json  # one reader for the base game and every preset
    full = reader(json.loads(path.read_text())).to_json()
    assert reader(copy.deepcopy(full)).to_json() == full  # written out in full, read back
    taken = []
    count = 0
    for where, value in swaps(full):
        count += 1
        doc = swapped(full, where, value)
        try:
            reader(doc)
        except ViewError as e:
            assert "\n" not in str(e)
        else:
            taken.append((".".join(map(str, where)), json.dumps(value)[:40]))
    assert count > 20  # the walk reached the fields
    assert taken == []
