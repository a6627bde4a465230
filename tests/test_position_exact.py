"""Positions (search/position.py), the details the mutation run found unchecked: the
boundaries of every range (seat 0, bid 4, an empty first trick), the tricks and view a
position keeps as it is played (hint reads them), the JSON it writes, and the exact
words of its errors (a user reads them; each names the field and the value)."""

from __future__ import annotations

import copy
import json

import pytest
from test_position import ROUND

from pitchsim.game.cards import mask_of, parse_cards
from pitchsim.game.rules import Rules
from pitchsim.search.position import (
    PositionError,
    Trick,
    parse_position,
    read_position,
    read_source,
    start_position,
)
from pitchsim.util.errors import InputError


def cards(text):
    return tuple(parse_cards(text))


def error(doc) -> str:
    with pytest.raises(PositionError) as e:
        parse_position(doc)
    return str(e.value)


def test_range_boundaries_are_accepted():
    first = {**ROUND, "tricks": []}
    for pitcher in range(4):
        assert parse_position({**first, "pitcher": pitcher}).to_play == pitcher
    for bid in (1, 4):
        assert parse_position({**ROUND, "bid": bid}).bid == bid
    for bad in (0, 5):
        assert error({**ROUND, "bid": bad}) == f"bid must be 1-4, not {bad}"
    for bad in (-1, 4):
        assert (
            error({**ROUND, "pitcher": bad})
            == f"pitcher {bad} is not a seat of a 4-player table (0-3)"
        )


def test_an_empty_first_trick_is_the_opening_lead_and_a_later_one_is_refused():
    doc = {**ROUND, "tricks": [{"leader": 3, "cards": []}]}
    pos = parse_position(doc)
    assert pos.to_play == 3 and pos.trump == -1 and pos.trick == ()
    doc = copy.deepcopy(ROUND)
    doc["tricks"] = doc["tricks"][:2] + [{"leader": 3, "cards": []}]
    assert error(doc) == "trick 3 has no cards: leave it out"


def test_a_trick_lacking_leader_or_cards():
    for trick in ({"leader": 3}, {"cards": ["4H"]}, ["4H"], {}):
        doc = {**ROUND, "tricks": [trick]}
        assert error(doc) == "trick 1 must be an object with leader and cards"


def test_the_position_before_the_opening_lead():
    dealt = [mask_of(parse_cards(" ".join(h))) for h in ROUND["hands"]]
    pos = start_position(dealt, 2, Rules(), 3)
    assert (pos.trump, pos.leader, pos.to_play, pos.tricks, pos.trick) == (-1, 2, 2, (), ())
    assert pos.view().trump == -1 and pos.legal() == dealt[2]


def test_playing_keeps_the_tricks_their_leader_and_winner():
    pos = parse_position({**ROUND, "tricks": []})
    for c in cards("4H AH"):
        pos = pos.play(c)
    assert pos.tricks == (Trick(3, cards("4H AH"), None),) and pos.trump == 2
    for c in cards("3H 6H"):
        pos = pos.play(c)
    assert pos.tricks == (Trick(3, cards("4H AH 3H 6H"), 0),)
    assert pos.trick == () and pos.leader == 0 and pos.to_play == 0 and pos.trump == 2
    pos = pos.play(cards("4C")[0])
    assert pos.tricks[-1] == Trick(0, cards("4C"), None)
    assert pos.view().tricks == pos.tricks


def test_an_illegal_or_unheld_card_is_refused_by_name():
    pos = parse_position(ROUND)  # seat 1 to play, must follow diamonds: 8D or TD
    assert pos.legal() == mask_of(parse_cards("8D TD"))
    for bad in ("6S", "AS", "9S"):
        with pytest.raises(PositionError) as e:
            pos.play(parse_cards(bad)[0])
        assert str(e.value) == f"{bad} is not a legal play here"


def test_a_finished_hand():
    rounds = copy.deepcopy(ROUND)
    pos = parse_position({**rounds, "tricks": rounds["tricks"][:2]})
    while not pos.finished:
        pos = pos.play(min(c for c in range(52) if pos.legal() >> c & 1))
    assert pos.legal() == 0 and pos.to_play is None
    with pytest.raises(PositionError) as e:
        pos.view()
    assert str(e.value) == "the hand is over: nobody is to play"
    with pytest.raises(ValueError, match="^the hand is not over$"):
        parse_position(ROUND).points()


def test_the_view_carries_the_position_as_the_player_to_move_sees_it():
    pos = parse_position(ROUND)
    v = pos.view()
    assert (v.seat, v.players, v.pitcher, v.bid, v.trump) == (1, 4, 3, 1, 2)
    assert v.legal == pos.legal() and v.hand == pos.hands[1]
    assert v.tricks == pos.tricks and v.won == pos.won and v.rules == pos.rules
    assert v.played_by == pos.played_by and v.held == (3, 4, 4, 3)


def test_to_json_writes_what_it_read():
    pos = parse_position({**ROUND, "rules": "low=dealt", "partnership": True})
    doc = pos.to_json()
    assert set(doc) == {"players", "pitcher", "bid", "hands", "tricks", "partnership", "rules"}
    assert doc["bid"] == 1 and doc["partnership"] is True and doc["pitcher"] == 3
    assert doc["hands"][0] == ["4C", "6C", "JD", "AH", "8S", "TS"]
    assert doc["tricks"][0] == {"leader": 3, "cards": ["4H", "AH", "3H", "6H"]}
    assert "low=dealt" in doc["rules"] and "partnership=true" in doc["rules"]
    assert parse_position(json.loads(json.dumps(doc))) == pos


def test_the_words_of_the_errors():
    hands = ROUND["hands"]
    assert error({**ROUND, "players": "4"}) == "players must be a whole number, not '4'"
    assert error({**ROUND, "pitcher": 1.5}) == "pitcher must be a whole number, not 1.5"
    assert error({**ROUND, "bid": True}) == "bid must be a whole number, not True"
    assert error({**ROUND, "partnership": 1}) == "partnership must be true or false, not 1"
    assert (
        error({**ROUND, "hands": "x"})
        == "hands must list one hand per seat: 4 seats, no list of hands"
    )
    assert error({**ROUND, "hands": [hands[0], [1, 2], *hands[2:]]}) == (
        'seat 1\'s hand must be a list of cards like ["AH", "10S"]'
    )
    assert error({**ROUND, "tricks": [{"leader": "3", "cards": []}]}) == (
        "trick 1's leader must be a whole number, not '3'"
    )
    assert error({**ROUND, "tricks": [{"leader": 3, "cards": 5}]}) == (
        'trick 1 must be a list of cards like ["AH", "10S"]'
    )
    assert (
        error({**ROUND, "rules": 7})
        == 'rules must be a string like "low=dealt,follow=suit" or an object, not 7'
    )
    assert error({**ROUND, "tricks": {}}) == 'tricks must be a list of {"leader", "cards"} objects'
    assert error([]) == "a position is a JSON object with players, pitcher, hands and tricks"
    assert (
        error({**ROUND, "pitcher": None})
        == "pitcher is null: everybody passed, so no hand was played"
    )
    assert error({**ROUND, "rules": "partnership=false", "partnership": True}) == (
        "the position's partnership=true and its rules (partnership=false) disagree: give one"
    )
    doc = copy.deepcopy(ROUND)
    doc["tricks"][0]["cards"] = ["4H", "KD", "3H", "6H"]
    assert error(doc) == "seat 0 plays KD in trick 1 but was not dealt it (seat 2 was)"
    doc["tricks"][0]["cards"] = ["4H", "KS", "3H", "6H"]
    assert error(doc) == "seat 0 plays KS in trick 1 but was not dealt it"
    doc["tricks"][0]["cards"] = ["4H", "8S", "3H", "6H"]
    assert (
        error(doc)
        == "seat 0's 8S in trick 1 is illegal: it holds hearts, so it must follow suit or trump"
    )
    doc = copy.deepcopy(ROUND)
    doc["tricks"][1:] = [{"leader": 0, "cards": ["JD", "8D", "5D", "2H"]}]
    doc["rules"] = {"follow": "suit"}
    assert (
        error(doc) == "seat 3's 2H in trick 2 is illegal: it holds diamonds, so it must follow suit"
    )
    doc = copy.deepcopy(ROUND)
    doc["hands"][1] = ["AH", *doc["hands"][1][1:]]
    assert error(doc) == "AH is in two hands: seat 0 and seat 1"


def test_reading_one_position_from_a_list_and_sources(tmp_path, monkeypatch):
    with pytest.raises(PositionError) as e:
        read_position(json.dumps([ROUND]), "p.json")
    assert str(e.value) == "p.json holds a list of positions; give one"
    f = tmp_path / "p.json"
    f.write_text(json.dumps(ROUND))
    text, name = read_source(str(f))
    assert text == json.dumps(ROUND) and f.name in name  # the name quoted, its end kept
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO("{}"))
    assert read_source("-") == ("{}", "stdin")
    with pytest.raises(InputError) as e:
        read_source(str(tmp_path / "none.json"))
    assert str(e.value).startswith("cannot read the position ")
    assert str(e.value).endswith("none.json': No such file or directory")
    (tmp_path / "bad.json").write_bytes(b"\xff\xfe{")
    with pytest.raises(InputError) as e:
        read_source(str(tmp_path / "bad.json"))
    assert str(e.value).endswith("bad.json' is not UTF-8 text (byte 0)")


def test_a_hand_or_trick_may_be_one_string_of_cards():
    doc = copy.deepcopy(ROUND)
    doc["hands"] = [" ".join(h) for h in doc["hands"]]
    doc["tricks"][0]["cards"] = "4H AH 3H 6H"
    assert parse_position(doc) == parse_position(ROUND)


def test_an_empty_second_trick_and_the_source_named_in_errors():
    doc = copy.deepcopy(ROUND)
    doc["tricks"] = doc["tricks"][:1] + [{"leader": 0, "cards": []}]
    assert error(doc) == "trick 2 has no cards: leave it out"
    with pytest.raises(PositionError) as e:
        read_position("{", "p.json")
    assert str(e.value).startswith("p.json is not JSON: ")
    with pytest.raises(PositionError) as e:
        read_position("[]", "p.json")
    assert str(e.value) == "p.json is an empty list: no positions"
