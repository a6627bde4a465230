"""One rules type serves every preset (issue 28, item 1; docs/rules.md "Rule families").

``auction-pitch`` is a preset like the others (1.1): ``Rules()`` is it at its defaults,
a rule string names the whole rules, and the base game keeps its own words, the eight
options of RULES.md (1.3), so that records, views and manifests written by older
versions read back to equal rules."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

import pitchsim.game.rules as rules_module
from pitchsim.game.rules import FAMILIES, Rules, RulesError, rules_text, spec
from pitchsim.search.position import Position, PresetPosition, parse_position

ROOT = Path(__file__).resolve().parent.parent

# RULES.md's base game as every version wrote it: its eight options, in this order, at
# their defaults (typed out here, not read from the code).
BASE_WORDS = {
    "low": "captured",
    "min-bid": 1,
    "all-pass": "forced",
    "dealer-steal": True,
    "follow": "trump",
    "target": 7,
    "set-pitcher-wins": False,
    "partnership": False,
}
OLD_BASE_TEXT = (
    "low=captured,min-bid=1,all-pass=forced,dealer-steal=true,follow=trump,target=7,"
    "set-pitcher-wins=false,partnership=false"
)


@pytest.mark.parametrize("name", list(FAMILIES))
def test_every_preset_is_the_one_rules_type_and_reads_back(name):
    rules = Rules.parse(name)
    assert type(rules) is Rules
    assert rules.family == name
    again = Rules.parse(spec(rules))
    assert type(again) is Rules and again == rules and hash(again) == hash(rules)
    assert Rules.parse(rules.describe()) == rules
    # a changed option stays the same type, checked again (VARIANTS.md 6.3)
    changed = dataclasses.replace(rules, target=rules.target + 4)
    assert type(changed) is Rules and changed != rules
    assert Rules.parse(spec(changed)) == changed


def test_the_base_game_is_rules_at_their_defaults():
    assert Rules() == Rules.parse("auction-pitch") == Rules.parse(None) == Rules.parse({})
    assert hash(Rules()) == hash(Rules.parse("auction-pitch"))
    assert Rules().base_game and Rules().family == "auction-pitch"
    assert Rules().describe() == BASE_WORDS
    assert list(Rules().describe()) == list(BASE_WORDS)  # the order the words go in
    assert rules_text(Rules()) == OLD_BASE_TEXT
    assert Rules.parse(OLD_BASE_TEXT) == Rules()
    assert Rules(target=11) == Rules.parse("target=11") == Rules.parse("auction-pitch,target=11")
    assert Rules(target=11).describe() == BASE_WORDS | {"target": 11}


def test_a_preset_describes_itself_in_full_and_the_base_game_does_not():
    smear = Rules.parse("smear,target=15")
    doc = smear.describe()
    assert doc["family"] == "smear" and doc["target"] == 15 and doc["jick"] is True
    assert len(doc) == 26  # the family and every option (VARIANTS.md 6.1)
    assert Rules.parse(doc) == smear
    # an option only a preset has, on auction-pitch: no longer the base game's words
    shoot = Rules(shoot=True)
    assert not shoot.base_game and shoot.describe()["family"] == "auction-pitch"
    assert Rules.parse(spec(shoot)) == shoot


def test_the_constructor_checks_as_parse_does():
    # the base game keeps min-bid 1 or 2 (1.2); a preset's bids go higher (6.1)
    with pytest.raises(RulesError, match="^min-bid must be 1 or 2, not 3$"):
        Rules(min_bid=3)
    assert Rules(min_bid=3, jokers=1).min_bid == 3
    with pytest.raises(RulesError, match=r"^follow=only needs trump=named \(VARIANTS.md 6.3\)$"):
        Rules(follow="only")
    with pytest.raises(RulesError, match="smear is played with jick=true"):
        dataclasses.replace(Rules.parse("smear"), jick=False)


def test_no_second_rules_type_is_left():
    for gone in ("FamilyRules", "as_family", "plain", "FamilyNotPlayed"):
        assert not hasattr(rules_module, gone), gone
    for gone in ("to_array", "require_kernels"):
        assert not hasattr(Rules(), gone), gone


def test_a_position_is_read_under_any_preset_by_the_one_reader():
    """A preset's position needs no flag: smear's endgame is a preset position, the base
    game's a base one, from the same reader."""
    smear = parse_position(json.loads((ROOT / "examples" / "smear_endgame.json").read_text()))
    assert isinstance(smear, PresetPosition) and smear.rules.family == "smear"
    base = parse_position(json.loads((ROOT / "examples" / "endgame.json").read_text()))
    assert isinstance(base, Position) and base.rules.base_game
