"""Reading and checking positions (pitchsim/search/position.py): every error is one line."""

from __future__ import annotations

import copy
import json
import random

import pytest

from pitchsim.cli import main
from pitchsim.game.cards import cards_of, mask_of, parse_cards
from pitchsim.game.reference.play import play_hand
from pitchsim.search.position import PositionError, parse_position, read_position, read_positions

ROUND = {  # pitchsim play --json --seed 3, shortened to three tricks
    "players": 4,
    "dealer": 3,
    "pitcher": 3,
    "bid": 1,
    "trump": "H",
    "hands": [["4C", "6C", "JD", "AH", "8S", "TS"], ["8D", "TD", "3H", "2S", "6S", "9S"],
              ["2C", "5D", "9D", "KD", "6H", "AS"], ["9C", "KC", "3D", "6D", "2H", "4H"]],
    "tricks": [{"leader": 3, "cards": ["4H", "AH", "3H", "6H"], "winner": 0},
               {"leader": 0, "cards": ["4C", "2S", "2C", "2H"], "winner": 3},
               {"leader": 3, "cards": ["3D", "JD"]}],
    "points": {"high": 0},
    "partnership": False,
}  # fmt: skip


def test_reads_a_logged_round():
    pos = parse_position(ROUND)
    assert (pos.players, pos.pitcher, pos.bid, pos.trump) == (4, 3, 1, 2)
    assert pos.leader == 3 and pos.trick == tuple(parse_cards("3D JD")) and pos.to_play == 1
    assert pos.won[0] == mask_of(parse_cards("4H AH 3H 6H"))
    assert pos.won[3] == mask_of(parse_cards("4C 2S 2C 2H"))
    assert pos.hands[1] == mask_of(parse_cards("8D TD 6S 9S"))
    assert pos.legal() == mask_of(parse_cards("8D TD"))  # no trump left: follow diamonds
    view = pos.view()
    assert view.seat == 1 and view.hand == pos.hands[1] and view.held == (3, 4, 4, 3)
    assert view.played_by[0] == mask_of(parse_cards("AH 4C JD"))
    assert not hasattr(view, "hands")  # the view never carries other hands


def test_whole_logged_rounds_round_trip():
    """Every round `play` can log reads back, and its points are the logged ones."""
    rng = random.Random(3)
    for _ in range(30):
        n = rng.randrange(2, 8)
        deck = list(range(52))
        rng.shuffle(deck)
        dealt = [mask_of(deck[6 * s : 6 * s + 6]) for s in range(n)]
        rec = play_hand(dealt, 1 % n, lambda v: rng.choice(cards_of(v.legal)), _rules())
        doc = {"players": n, "pitcher": 1 % n,
               "hands": [[_name(c) for c in cards_of(d)] for d in dealt],
               "tricks": [{"leader": lead, "cards": [_name(c) for c in cs], "winner": w}
                          for lead, cs, w in rec.tricks]}  # fmt: skip
        pos = parse_position(doc)
        assert pos.finished and pos.won == tuple(rec.won)
        assert pos.points() == rec.score.points[1 % n]
        assert parse_position(pos.to_json()) == pos


def _rules():
    from pitchsim.game.rules import Rules

    return Rules()


def _name(c: int) -> str:
    from pitchsim.game.cards import format_card

    return format_card(c, symbols=False)


def broken(**change):
    doc = copy.deepcopy(ROUND)
    for k, v in change.items():
        if v is None:
            del doc[k]
        else:
            doc[k] = v
    return doc


def with_trick(i: int, cards: list[str], leader: int | None = None):
    doc = copy.deepcopy(ROUND)
    doc["tricks"][i]["cards"] = cards
    if leader is not None:
        doc["tricks"][i]["leader"] = leader
    return doc


HANDS = ROUND["hands"]
BAD = [
    (broken(players=None), "no 'players'"),
    (broken(players="four"), "players must be a whole number"),
    (broken(players=8), "players must be 2-7"),
    (broken(pitcher=4), "pitcher 4 is not a seat"),
    (broken(pitcher=None), "no 'pitcher'"),
    ({**ROUND, "pitcher": None}, "everybody passed"),
    (broken(bid=5), "bid must be 1-4"),
    (broken(hands=HANDS[:3]), "4 seats, 3 hands"),
    (broken(hands=[HANDS[0][:5], *HANDS[1:]]), "seat 0 was dealt 5 cards, not 6"),
    (broken(hands=[HANDS[0], ["AH", *HANDS[1][1:]], *HANDS[2:]]), "AH is in two hands"),
    (broken(hands=[["XX", *HANDS[0][1:]], *HANDS[1:]]), "cannot read card 'XX'"),
    (broken(tricks="none"), "tricks must be a list"),
    (broken(tricks=ROUND["tricks"] * 3), "9 tricks: a hand has 6"),
    (
        with_trick(0, ["4H", "AH", "3H", "6H"], leader=0),
        "trick 1 is led by seat 0, but the pitcher",
    ),
    (with_trick(1, ["4C", "2S", "2C", "2H"], leader=1), "but the winner of trick 1 is seat 0"),
    (with_trick(0, ["4H", "AH", "3H", "6H", "9C"]), "trick 1 has 5 cards"),
    (with_trick(0, ["4H", "AH", "3H"]), "not the last trick"),
    (with_trick(0, ["4H", "8S", "3H", "6H"]), "seat 0's 8S in trick 1 is illegal"),
    (with_trick(0, ["4H", "KD", "3H", "6H"]), "seat 0 plays KD in trick 1 but was not dealt it"),
    (with_trick(1, ["4C", "2S", "2C", "4H"]), "seat 3 plays 4H in trick 2 a second time"),
    (broken(rules="follow=sometimes"), "rules: follow must be"),
    (broken(rules=7), "rules must be a string"),
    (broken(partnership=True, players=3), "partnership needs exactly 4 players"),
]


@pytest.mark.parametrize("doc, message", BAD, ids=[m for _, m in BAD])
def test_bad_positions_name_the_problem(doc, message):
    with pytest.raises(PositionError) as e:
        parse_position(doc)
    assert message in str(e.value) and "\n" not in str(e.value)


def test_follow_suit_rule_makes_trumping_in_illegal():
    doc = copy.deepcopy(ROUND)
    # Seat 3 trumps in with the 2H, holding the 3D and 6D.
    doc["tricks"][1:] = [{"leader": 0, "cards": ["JD", "8D", "5D", "2H"]}]
    assert parse_position(doc).won[3] == mask_of(parse_cards("JD 8D 5D 2H"))
    doc["rules"] = {"follow": "suit"}
    with pytest.raises(PositionError, match="must follow suit"):
        parse_position(doc)


def test_lists_and_json_errors():
    assert len(read_positions(json.dumps([ROUND, ROUND]))) == 2
    with pytest.raises(PositionError, match="position 1: bid must be 1-4"):
        read_positions(json.dumps([ROUND, broken(bid=0)]))
    with pytest.raises(PositionError, match="not JSON"):
        read_position("{")
    with pytest.raises(PositionError, match="empty list"):
        read_positions("[]")
    with pytest.raises(PositionError, match="a JSON object"):
        read_position("3")


def test_rules_and_partnership_fields():
    pos = parse_position({**ROUND, "rules": "low=dealt", "partnership": True})
    assert pos.rules.low == "dealt" and pos.rules.partnership
    assert pos.pitcher_side(1) and not pos.pitcher_side(0)
    with pytest.raises(PositionError, match="disagree"):
        parse_position({**ROUND, "rules": "partnership=false", "partnership": True})


def test_bad_position_on_the_command_line_is_one_line(capsys, tmp_path):
    path = tmp_path / "p.json"
    path.write_text(json.dumps(with_trick(0, ["4H", "8S", "3H", "6H"])))
    with pytest.raises(SystemExit) as e:
        main(["solve", str(path)])
    out, err = capsys.readouterr()
    assert e.value.code == 2 and out == "" and err.count("\n") == 1
    assert err.startswith("pitchsim: error: seat 0's 8S in trick 1 is illegal")
