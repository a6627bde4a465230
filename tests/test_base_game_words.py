"""The base game is told by what its rules are: one rules type serves every preset.

docs/rules.md, "Rule families" and §1.1: ``auction-pitch`` is the base game, and
``--rules auction-pitch,low=dealt`` is the same game as ``--rules low=dealt``.  However
the rules are written (``Rules(...)``, a rule string with or without the preset's name),
the base game's documents keep the base game's words (docs/view.md, docs/record.md:
read by outside programs, docs/protocol.md): the same views, records and tournaments."""

import dataclasses
import itertools
import json
import random

import pytest

from pitchsim.game import reference as F
from pitchsim.game.cards import cards_of
from pitchsim.game.rules import FAMILIES, FAMILY_FIELDS, Rules, RulesError, label, rules_text
from pitchsim.game.view import View, cut_hand
from pitchsim.table.game import play_table_game
from pitchsim.table.tournament import tournament

BASE = [
    Rules(),
    Rules(target=11, all_pass="redeal"),
    Rules(partnership=True, set_pitcher_wins=True),
    Rules(low="dealt", min_bid=2, follow="suit", dealer_steal=False),
]
# RULES.md's eight options, in the order the base game's rules were always written.
BASE_WORDS = [
    "low",
    "min-bid",
    "all-pass",
    "dealer-steal",
    "follow",
    "target",
    "set-pitcher-wins",
    "partnership",
]


@pytest.mark.parametrize("rules", BASE, ids=rules_text)
def test_the_base_game_is_the_auction_pitch_preset(rules):
    assert rules.base_game and rules.family == "auction-pitch"
    assert Rules.parse(f"auction-pitch,{rules_text(rules)}") == rules  # rules.md
    assert Rules.parse(rules_text(rules)) == rules
    assert list(rules.describe()) == BASE_WORDS  # the base game's words alone


def test_every_other_preset_and_option_is_not_the_base_game():
    for name in FAMILIES:
        if name != "auction-pitch":
            assert not Rules.parse(name).base_game, name
    start = Rules()
    for key in FAMILY_FIELDS:  # any preset-only option off its default (VARIANTS.md 6.1)
        if key == "family":
            continue
        default = getattr(start, key)
        for value in (True, 1, 2, 9, "named", "non-trump", "pitcher-first", "called", "5-A"):
            if type(value) is not type(default) or value == default:
                continue
            try:
                changed = dataclasses.replace(start, **{key: value})
            except Exception:  # not a value of this option
                continue
            assert not changed.base_game, (key, value)
            assert changed.describe()["family"] == "auction-pitch", (key, value)  # in full
            break
    assert not Rules.parse("dealer-steal=max").base_game  # a family-only base value


def _served(rules) -> dict:
    """What the callers read of rules: its words, its players, its hash."""
    out = {"describe": list(rules.describe().items()), "text": rules_text(rules)}
    out["label"], out["hash"], out["base"] = label(rules), hash(rules), rules.base_game
    for n in range(1, 9):
        try:
            rules.check_players(n)
            out[n] = "ok"
        except RulesError as e:
            out[n] = str(e)
    return out


BASE_OPTIONS = {
    "low": ("captured", "dealt"),
    "min-bid": (1, 2),
    "all-pass": ("forced", "redeal"),
    "dealer-steal": ("true", "false"),
    "follow": ("trump", "suit"),
    "target": (7, 11),
    "set-pitcher-wins": ("false", "true"),
    "partnership": ("false", "true"),
}


def test_every_base_rule_string_reads_alike_with_and_without_the_preset():
    """1.1, 1.3: every rule string of the base game (each of RULES.md's options at each
    of its values, with and without ``auction-pitch`` first) is the same rules as the
    constructor's: the same words, players and hash."""
    count = 0
    for values in itertools.product(*BASE_OPTIONS.values()):
        words = ",".join(f"{k}={v}" for k, v in zip(BASE_OPTIONS, values, strict=True))
        made = Rules(
            **{
                k.replace("-", "_"): {"true": True, "false": False}.get(v, v)
                for k, v in zip(BASE_OPTIONS, values, strict=True)
            }
        )
        for text in (words, f"auction-pitch,{words}"):
            preset = Rules.parse(text)
            assert preset.base_game and preset == made, text
            assert _served(preset) == _served(made), text
            assert dict(zip(BASE_WORDS, map(str, values), strict=True)) == {
                k: str(v).lower() for k, v in preset.describe().items()
            }, text
            count += 1
    assert count == 2 * 2**8


@pytest.mark.parametrize("rules", BASE, ids=rules_text)
def test_a_table_of_the_base_game_as_a_preset_writes_one_record(rules):
    # One engine: the base game's table writes the preset record (``family``), its
    # rules in base words.
    n = 4
    names = ["odds+heuristic", "heuristic", "random", "heuristic+random"]
    plain_record = play_table_game(names, rules, 3, 1)
    preset_record = play_table_game(names, rules, 3, 1)
    assert preset_record == plain_record
    assert preset_record["rules"] == rules_text(rules)
    assert preset_record["family"] == "auction-pitch"
    assert len(preset_record["hands"][0]["hands"]) == n


@pytest.mark.parametrize("rules", BASE, ids=rules_text)
def test_a_base_view_read_under_the_preset_type_is_written_in_base_words(rules):
    n = 4
    pick = random.Random(7)
    game = F.play_game(
        n,
        rules,
        random.Random(5),
        lambda seat, hand, calls, legal, scores: pick.choice(legal),
        lambda seat, hand: pick.randrange(4),
        lambda view: pick.choice(cards_of(view.legal)),
        first_dealer=1,
        max_hands=3,
    )
    count = 0
    before = [0] * n
    for hand in game.hands:
        for _seat, doc, _action in cut_hand(hand, n, rules, before):
            doc = json.loads(json.dumps(doc))
            mine = View.from_json(doc)
            table = View.from_json(doc, "the table", rules)
            assert table == mine and table.rules == rules and table.rules.base_game
            written = table.to_json()
            assert written["rules"] == rules_text(rules)
            assert "draw" not in written and "phase" not in written  # no preset field
            assert all(set(t) == {"leader", "cards"} for t in written["tricks"])
            count += 1
        before = list(hand.scores)
    assert count > 10


def test_a_tournament_of_the_base_game_as_a_preset_is_the_base_tournament():
    a = tournament("heuristic,random", players=3, boards=20, rules=Rules(target=5), seed=2)
    b = tournament("heuristic,random", players=3, boards=20, rules=Rules(target=5), seed=2)
    assert [r.to_json() for r in a.results] == [r.to_json() for r in b.results]
    assert b.to_json()["rules"] == a.to_json()["rules"]


def test_a_presets_hands_are_written_one_at_a_time_as_one_list():
    """``play --rounds N --json`` under a preset writes each hand as it is played (the
    base game's way: --rounds may be large), the whole a JSON list laid out as one."""
    from clirun import cli

    from pitchsim.util.jsonio import dumps_json

    code, out, _ = cli("play", "--rules", "smear", "--seed", "4", "--rounds", "3", "--json")
    assert code == 0
    docs = json.loads(out)
    assert [d["deal"] for d in docs] == [0, 1, 2]
    assert out == dumps_json(docs) + "\n"
    code, one, _ = cli("play", "--rules", "smear", "--seed", "4", "--json")
    assert code == 0 and json.loads(one) == docs[0] and one == dumps_json(docs[0]) + "\n"


def test_a_preset_record_of_the_base_game_still_reads_back():
    """A record the preset path wrote of the base game (``family`` auction-pitch, the
    complete rules) replays through the preset reader, its actions checked by the rules
    (built-in seats now decide the base game by the base kernels, so they are not asked
    again), and is written again as it was."""
    from pitchsim.game.rules import spec
    from pitchsim.table.bidding import Strategy
    from pitchsim.table.boards import board_game
    from pitchsim.table.record import preset_game_of_record, record_of_preset_game, replay

    seats = [Strategy.parse("heuristic"), Strategy.parse("random")] * 2
    doc = record_of_preset_game(board_game(3, 0, seats, Rules()))
    assert doc["family"] == "auction-pitch" and doc["rules"] == spec(Rules())
    assert replay(doc) == doc
    assert record_of_preset_game(preset_game_of_record(doc)) == doc
