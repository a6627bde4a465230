"""Records (table.record) where the mutation run (reports/mutation.md) found the tests
silent: refusals read in-process and checked as their whole line, for the base game and
a preset alike, and a game a person stopped (StopGame) replayed on both."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from pitchsim.game.rules import Rules
from pitchsim.table.answers import StopGame
from pitchsim.table.game import play_table_game
from pitchsim.table.record import RecordError, replay

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


class StopsAt:
    """Plays the first legal action; a person stopping at its ``k``-th decision."""

    name = "person"

    def __init__(self, k: int):
        self.k = k

    def call(self, view):
        return self.play(view)

    def play(self, view):
        self.k -= 1
        if self.k == 0:
            raise StopGame("the person quit")
        return view.legal()[0]


@pytest.fixture(scope="module")
def base():
    return play_table_game(["random", "random", "random"], Rules(), 4, 1)


@pytest.fixture(scope="module")
def smear():
    return play_table_game(["random", "random", "random"], Rules.parse("smear"), 5, 1)


def refused(doc) -> str:
    with pytest.raises(RecordError) as e:
        replay(doc)
    return str(e.value)


def edited(doc, **fields):
    out = copy.deepcopy(doc)
    out.update(fields)
    return out


@pytest.mark.parametrize("which", ["base", "smear"])
def test_fields_of_the_head_are_refused_by_name(request, which):
    doc = request.getfixturevalue(which)
    assert replay(doc) == doc and doc["players"] == 3
    fmt = doc["format"]
    assert refused(edited(doc, format=fmt + "x")) == f"format is {fmt + 'x'!r}, not {fmt!r}"
    # three seats: a winner is seat 0-2 (the actions' winner or not, 3 is no seat)
    assert refused(edited(doc, winner=3)) == "winner must be 0-2, not 3"
    assert refused(edited(doc, stopped=3)) == "stopped must be a non-empty string, not 3"
    forfeit = {"seat": 1, "strategy": "random", "reason": " "}
    assert (
        refused(edited(doc, forfeit=forfeit))
        == "forfeit: reason must be a non-empty string, not ' '"
    )


def test_a_partnerships_winner_is_a_team():
    doc = play_table_game(["random"] * 4, Rules(partnership=True), 4, 1)
    assert doc["winner"] in (0, 1) and replay(doc) == doc
    assert refused(edited(doc, winner=2)) == "winner must be 0-1, not 2"


def test_a_presets_winners_are_checked(smear):
    assert smear["winners"] == [smear["winner"]]
    assert (
        refused(edited(smear, winners=[0, 0]))
        == "winners must list the winning sides once each, not [0, 0]"
    )
    assert refused(edited(smear, winners=[3])) == "winners: a side must be 0-2, not 3"


def test_a_presets_deal_is_refused_by_what_is_wrong(smear):
    doc = copy.deepcopy(smear)
    doc["hands"][0]["hands"].pop()
    assert refused(doc) == "hand 1: hands must list the 3 hands as dealt"
    doc = copy.deepcopy(smear)
    first = doc["hands"][0]["hands"]
    first[1][0] = first[0][0]  # seat 1 holds one of seat 0's cards (six cards still)
    assert refused(doc) == "hand 1: seat 1 was dealt a card another seat holds"
    doc = copy.deepcopy(smear)
    doc["hands"][0]["players"] = 4
    assert refused(doc) == "hand 1: players is 4, not 3"


@pytest.mark.parametrize("rules", ["auction-pitch", "smear"])
def test_a_game_a_person_stopped_replays(rules):
    """A person quitting mid-hand: the record says "stopped", names no forfeit, and its
    last hand is incomplete; it replays as it is (to be resumed) and is refused when it
    says the last hand was complete."""
    doc = play_table_game([StopsAt(5), "random", "random"], Rules.parse(rules), 4, 1)
    assert doc["stopped"] == "the person quit" and doc["forfeit"] is None
    assert doc["hands"][-1]["incomplete"] is True
    assert replay(json.loads(json.dumps(doc))) == doc
    both = edited(doc, forfeit={"seat": 0, "strategy": "person", "reason": "late"})
    assert refused(both) == "a record names a forfeit or a stop, not both"
    neither = edited(doc)
    del neither["stopped"]
    assert refused(neither) == (
        "the last hand is incomplete but the record names no forfeit (nor a stop)"
    )


def test_a_base_hand_of_other_players_is_refused(base):
    doc = copy.deepcopy(base)
    doc["hands"][0]["players"] = 4
    assert refused(doc) == "hand 1: players is 4, not 3"


def test_a_hand_written_record_comes_back_with_each_actions_seat():
    """examples/records/by_hand.json writes its actions bare; the replay gives each its
    seat.  Dealer 1 of 2: seat 0 bids 4 (the top bid ends the auction) and leads AH;
    it wins every trick (hearts trump, then 2C and 3C with bob void in clubs), so it
    leads each and seat 1 follows."""
    doc = json.loads((EXAMPLES / "records" / "by_hand.json").read_text())
    full = replay(doc)
    seats = [0] + [0, 1] * 6
    actions = doc["hands"][0]["actions"]
    assert full["hands"][0]["actions"] == [
        {"seat": s, "action": a} for s, a in zip(seats, actions, strict=True)
    ]


def test_a_kernel_hand_the_table_plays_otherwise_is_named(smear):
    """record_of_preset_game walks each kernel hand at the table; one whose score comes
    out otherwise (a bug in either) is named by its number, counted from 1."""
    from dataclasses import replace

    from pitchsim.table.record import preset_game_of_record, record_of_preset_game

    game = preset_game_of_record(smear)
    assert record_of_preset_game(game) == smear
    k = len(game.hands)
    assert k > 2
    last = game.hands[-1]
    game.hands[-1] = replace(last, scores_after=[s + 1 for s in last.scores_after])
    with pytest.raises(RuntimeError) as e:
        record_of_preset_game(game)
    assert str(e.value) == f"hand {k} of the kernels' game differs at the table"
