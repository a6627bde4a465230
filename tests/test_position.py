"""Reading and checking positions (pitchsim/search/position.py): every error is one line."""

from __future__ import annotations

import copy
import json
import random

import pytest

from pitchsim.cli import main
from pitchsim.game.cards import cards_of, mask_of, parse_cards
from pitchsim.game.reference import play_hand
from pitchsim.search.position import PositionError, parse_position, read_position, read_positions

ROUND = {  # pitchsim play --json --seed 3, shortened to three tricks
    "players": 4,
    "dealer": 3,
    "pitcher": 3,
    "bid": 1,
    "trump": "H",
    "hands": [
        ["4C", "6C", "JD", "AH", "8S", "TS"],
        ["8D", "TD", "3H", "2S", "6S", "9S"],
        ["2C", "5D", "9D", "KD", "6H", "AS"],
        ["9C", "KC", "3D", "6D", "2H", "4H"],
    ],
    "tricks": [
        {"leader": 3, "cards": ["4H", "AH", "3H", "6H"], "winner": 0},
        {"leader": 0, "cards": ["4C", "2S", "2C", "2H"], "winner": 3},
        {"leader": 3, "cards": ["3D", "JD"]},
    ],
    "points": {"high": 0},
    "partnership": False,
    "rules": "low=captured,follow=trump",
}


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
        doc = {
            "players": n,
            "pitcher": 1 % n,
            "rules": {},
            "hands": [[_name(c) for c in cards_of(d)] for d in dealt],
            "tricks": [
                {"leader": lead, "cards": [_name(c) for c in cs], "winner": w}
                for lead, _, cs, w in rec.tricks
            ],
        }
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


# ---- the rules a position is read under (issue 21) -------------------------------------


@pytest.mark.parametrize(
    "spec, message",
    [
        ({"low": "dealt,follow=suit"}, "low must be 'captured' or 'dealt'"),  # no smuggling
        ({"dealer-steal": "yes"}, "dealer-steal takes true or false (or max), not 'yes'"),
        ({"target": True}, "target takes a whole number, not True"),
        ({"target": 11.0}, "target takes a whole number"),
        ({"partnership": 1}, "partnership takes true or false"),
        ({"follow": ["suit"]}, "follow takes a single value"),
        ("follow=suit,,low=dealt", "empty rule option"),
        ([], "rules must be a string"),
    ],
)
def test_rules_fields_are_as_strict_as_the_rules_option(spec, message):
    with pytest.raises(PositionError) as e:
        parse_position({**ROUND, "rules": spec})
    assert message in str(e.value)


def test_a_rules_field_is_never_a_file(tmp_path, monkeypatch):
    toml = tmp_path / "follow.toml"
    toml.write_text('follow = "suit"\n')
    for spec in (str(toml), "follow.toml"):
        monkeypatch.chdir(tmp_path)
        with pytest.raises(
            PositionError, match="names a file: a document.s rules are a rule string or an object"
        ):
            parse_position({**ROUND, "rules": spec})


def test_a_position_without_rules_needs_them_stated():
    from pitchsim.game.rules import Rules

    bare = broken(rules=None)
    with pytest.raises(PositionError, match="does not say its rules"):
        parse_position(bare)
    assert parse_position(bare, Rules(low="dealt")).rules == Rules(low="dealt")
    assert parse_position(ROUND, Rules()).rules == Rules()  # the same rules twice: fine
    with pytest.raises(PositionError, match="low=captured, --rules low=dealt: give one"):
        parse_position(ROUND, Rules(low="dealt"))
    with pytest.raises(PositionError, match="partnership=false and --rules partnership=true"):
        parse_position(bare, Rules(partnership=True))
    doc = {**bare, "partnership": True, "rules": "low=dealt"}
    assert parse_position(doc, Rules(low="dealt", partnership=True)).rules.partnership


def test_duplicate_keys_deep_nesting_and_long_numbers_are_one_line():
    text = json.dumps(ROUND)
    cases = [
        (text[:-1] + ', "bid": 2}', "the key 'bid' is given twice"),
        ("[" * 5000 + "]" * 5000, "nested too deeply"),
        ("[" * 40 + "]" * 40, "nested too deeply"),
        (text.replace('"bid": 1', '"bid": 1' + "0" * 5000), "a number of 5,001 digits"),
        (text.replace('"bid": 1', '"bid": NaN'), "NaN is not a JSON number"),
        (text.replace('"bid": 1', '"bid": 1e999'), "too large"),
    ]
    for doc, message in cases:
        with pytest.raises(PositionError) as e:
            read_positions(doc)
        assert message in str(e.value) and "\n" not in str(e.value) and len(str(e.value)) < 200


# ---- a logged round carries its rules: play, then solve every cut of it ---------------

PLAYED_UNDER = [
    "low=captured",  # the base rules, stated
    "low=dealt",
    "follow=suit",
    "partnership=true",
    "low=dealt,follow=suit,partnership=true",
    "min-bid=2",
    "all-pass=redeal",
    "dealer-steal=false",
    "target=11",
    "set-pitcher-wins=true",
]


def _cli_json(capsys, monkeypatch, *argv, stdin=None):
    import io

    if stdin is not None:
        monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(stdin.encode())))
    with pytest.raises(SystemExit) as e:
        main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert e.value.code == 0, err
    return json.loads(out)


def _cuts(round_doc: dict) -> list[dict]:
    """The round cut before every card played, and after the last."""
    plays = [(t["leader"], c) for t in round_doc["tricks"] for c in t["cards"]]
    cuts = []
    for k in range(len(plays) + 1):
        tricks, left = [], k
        for t in round_doc["tricks"]:
            if left <= 0:
                break
            tricks.append({"leader": t["leader"], "cards": t["cards"][:left]})
            left -= len(t["cards"])
        cuts.append({**round_doc, "tricks": tricks})
    return cuts, [c for _, c in plays]


@pytest.mark.parametrize("spec", PLAYED_UNDER)
def test_a_logged_round_solves_to_what_it_was_played_for(capsys, monkeypatch, spec):
    """``play --json`` then ``solve``: the round reads back under the rules it was played
    under (every option), each cut's value after the card played is the next cut's value
    (the solver's own recursion), and the last cut holds the points the round logged."""
    from pitchsim.game.rules import Rules

    rules = Rules.parse(spec)
    rounds = _cli_json(
        capsys, monkeypatch, "play", "--json", "--seed", 7, "--rounds", 2, "--rules", spec
    )
    played = [r for r in rounds if r["pitcher"] is not None]
    assert played
    for r in played:
        assert parse_position(r).rules == rules
        cuts, cards = _cuts(r)
        solved = _cli_json(capsys, monkeypatch, "solve", "-", "--json", stdin=json.dumps(cuts))
        assert len(solved) == len(cuts) == 6 * r["players"] + 1
        for k, card in enumerate(cards):
            assert solved[k]["cards"][card] == solved[k + 1]["value"], (spec, k)
        assert solved[-1]["value"] == r["points_won"][r["pitcher"]]
        assert solved[-1]["made"] == r["made"]
