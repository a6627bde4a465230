"""Every command that takes a player's view but hint and the engine still refuses a rule
family's view in one line, now that game/family_view.py reads them (docs/view.md):
advise, outside seats and the coach; the engine answers one; hint takes a family view file (search/hint.py) and
refuses the short form under a preset with a draw (4.8).  Each gets a view the
family reader accepts, so the refusal is the command's, not a bad view's."""

import json
from pathlib import Path

import pytest
from clirun import cli

from pitchsim.game.view import View
from pitchsim.table.engine import Engine

ROOT = Path(__file__).resolve().parent.parent
FAMILY_VIEWS = ["setback", "smear", "ten-point"]


def family_view(name: str) -> dict:
    doc = json.loads((ROOT / "examples" / "family_views" / f"{name}.json").read_text())
    View.from_json(doc)  # a good view of its family
    return doc


def one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("pitchsim: error: "), err
    return lines[0]


@pytest.mark.parametrize("name", FAMILY_VIEWS)
def test_hint_takes_a_family_view_file(capsys, tmp_path, name):
    """hint reads a family view (search/hint.py): a card decision is answered, a
    call is refused in one line pointing to advise."""
    path = tmp_path / "view.json"
    doc = family_view(name)
    path.write_text(json.dumps(doc))
    code, out, err = cli("hint", str(path), "--seed", "1", "--worlds", "20", "--json")
    if View.from_json(doc).phase == "play":
        assert code in (0, None), err
        assert json.loads(out)["recommended"] in View.from_json(doc).legal()
    else:
        assert code == 2 and out == ""
        assert "the auction is on" in one_line(err) and "pitchsim advise" in err


def test_hint_short_form_asks_for_the_draw_under_a_preset_with_one(capsys):
    """The short form's words for the discard and draw (rules.md 4.8): under ten-point
    once trump is named it asks for them, naming the rule (tests/test_short_view_draw.py:
    the words read back as the views)."""
    hand = "AH KH 2H 9C 7D 3S 4S 5S 6S"
    code, out, err = cli(
        "hint", "--hand", hand, "--dealer", "3", "--rules", "ten-point", "--calls",
        "6,pass,pass,pass", "--trump", "H",
    )  # fmt: skip
    assert code == 2 and out == ""
    assert "--discarded: trump is named" in one_line(err) and "(4.8, 12.8)" in err


@pytest.mark.parametrize("name", FAMILY_VIEWS)
def test_advise_reads_a_family_view_file_and_its_phase(capsys, tmp_path, name):
    """advise takes every preset's view: one of the auction is advised (its calls heard),
    one past the auction is refused in one line."""
    doc = family_view(name)
    path = tmp_path / "view.json"
    path.write_text(json.dumps(doc))
    view = View.from_json(doc)
    code, out, err = cli("advise", str(path), "--samples", "200", "--seed", "1", "--json")
    if view.phase == "auction" and view.to_move == view.seat:
        assert code == 0, err
        assert json.loads(out)["calls"] == [str(c) for c in doc["calls"]]
    else:
        assert code == 2 and out == ""
        assert "the auction is over" in one_line(err)


@pytest.mark.parametrize("name", FAMILY_VIEWS)
def test_the_engine_answers_a_family_view(name):
    """The engine takes family views (tests/test_engine_presets.py plays whole games)."""
    msg = {"type": "decide", "id": 7, "view": family_view(name)}
    reply = json.loads(Engine().handle(json.dumps(msg)))
    assert reply["type"] == "action" and reply["id"] == 7
    assert reply["action"] in View.from_json(family_view(name)).legal()


# Outside seats, practice and review under a preset: tests/test_table_presets.py and
# tests/test_practice_presets.py play them.


def test_review_refuses_a_base_record_relabelled_as_a_family(capsys, tmp_path):
    doc = json.loads((ROOT / "examples" / "records" / "game.json").read_text())
    doc["rules"] = "smear"
    doc.pop("target", None)  # the record's own, which smear's would contradict
    doc.pop("partnership", None)
    path = tmp_path / "record.json"
    path.write_text(json.dumps(doc))
    code, out, err = cli("review", str(path), "--seat", "0")
    assert code == 2 and out == ""
    # read as a smear record, the base game's hands (their "bids") are not one
    assert "hand 1: unknown field 'bids'" in one_line(err)


def test_a_view_built_in_code_is_replayed_by_its_own_rules():
    """The table and the record reader build views in code (``View(...).check()``): the
    one replay judges them by their rules, a smear view by smear's calls (rules.md 3.3:
    bids 2 to 5, no 1), never by the base game's."""
    from pitchsim.game.cards import parse_cards
    from pitchsim.game.rules import Rules
    from pitchsim.game.view import View, ViewError

    hand = tuple(parse_cards("AH KH 2H 9C 7D 3S"))
    v = View(Rules.parse("smear"), 4, 0, 3, hand, (), (), (0,) * 4).check()
    assert v.legal() == ["pass", "2", "3", "4", "5"]
    with pytest.raises(ViewError) as e:
        View(Rules.parse("smear"), 4, 1, 3, hand, (1,), (), (0,) * 4).check()
    assert (
        str(e.value)
        == "call 1: seat 0 may not call 1 (the minimum bid is 2) (legal: pass, 2, 3, 4, 5)"
    )
