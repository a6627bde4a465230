"""docs/rules.md 12.1, ``partner=none|called|announced``, clause by clause in the
reference engine (``pitchsim.game.reference``): the pitcher calls a card and its holder
is his partner for the hand; the two are one side for the points, the set and the Game
count, each keeping his own score.  And the combinations 6.3.7 allows, and the one-line
refusal of everything that does not play a called partner yet (the kernels, so every
command, and a player's view).

Expectations are worked by hand from the clauses."""

from __future__ import annotations

import json

import pytest
from clirun import cli, refused

from pitchsim.game.rules import Rules, RulesError
from pitchsim.game.view import View, ViewError
from pitchsim.games.engine import Engine

TEN5 = "ten-point,partnership=false,partner=called"
NAMED5 = "auction-pitch,trump=named,partner=called"


# ---- 6.3.7: what a called partner needs --------------------------------------------


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("auction-pitch,partner=called", "partner=called needs trump=named"),  # the pitch
        ("ten-point,partner=called", "partner=called needs partnership=false"),
        ("ten-point,partner=announced", "partner=announced needs partnership=false"),
        (
            "ten-point,partnership=false,follow=suit,partner=called",
            "partner=called needs follow=trump or only",
        ),
        ("five-point,partnership=false,partner=called", "five-point is played by 2-4"),
        ("seven-point,partnership=false,partner=called", "seven-point is played by 4"),
        ("smear,partner=ask", "partner must be 'none' or 'called' or 'announced'"),
    ],
)
def test_6_3_7_a_called_partner_needs_no_partnership_trump_named_and_a_followable_trump(
    spec, words
):
    with pytest.raises(RulesError, match=words) as e:
        Rules.parse(spec)
    assert "\n" not in str(e.value)
    if "partner=" in words:
        assert "VARIANTS.md 6.3.7" in str(e.value)


def test_6_3_7_announced_takes_any_follow_rule():
    # only `called` needs the called trump playable to the first trick (12.1.3)
    assert Rules.parse("smear,follow=suit,partner=announced").partner == "announced"


def test_6_3_7_and_12_1_1_five_or_six_players_only():
    rules = Rules.parse(TEN5)
    for n in (5, 6):
        rules.check_players(n)
    with pytest.raises(RulesError, match=r"partner=called needs 5 or 6 players, not 4"):
        rules.check_players(4)
    smear = Rules.parse("smear,partner=announced")
    for n in (2, 3, 4, 7):
        with pytest.raises(RulesError, match="needs 5 or 6 players"):
            smear.check_players(n)
    # 12.1.1: 5 players of a deal=9 jokers=2 game get 10 each of the pack without the 4s
    assert rules.cards_each(5) == 10 and rules.pack_size(5) == 50
    assert rules.cards_each(6) == 9 and rules.pack_size(6) == 54


def test_12_1_no_partner_is_the_preset_unchanged():
    assert Rules.parse("smear,partner=none") == Rules.parse("smear")
    assert Rules.parse("auction-pitch,partner=none") == Rules()  # still the plain base rules
    assert "partner" not in Rules.parse("smear").describe()
    rules = Rules.parse(NAMED5)
    assert rules.describe()["partner"] == "called"
    assert Rules.parse(rules.describe()) == rules


def test_12_1_pitchsim_rules_explains_the_called_partner():
    code, out, _ = cli("rules", "--rules", TEN5)
    assert code == 0
    assert "- Players: 5-6, each for himself, but with a called partner" in out
    assert "the pitcher calls one trump" in out and "must play it to the first trick" in out
    assert "plays alone against all the others" in out
    assert "* partner          = called" in out
    code, out, _ = cli("rules", "--rules", "smear,partner=announced", "--json")
    doc = json.loads(out)
    assert doc["rules"]["partner"] == "announced" and "partner" in doc["changed"]
    assert "says so at once" in doc["meaning"]["partner"]


# ---- not played yet outside the reference engine: one line -------------------------

HAND = "AH KH QH 2H 3C 4D"


@pytest.mark.parametrize(
    "argv",
    [
        ("bid-odds", "--rules", NAMED5, "--players", "5", HAND),
        ("simulate", "--rules", NAMED5, "--players", "5", "--deals", "10", "-q"),
        ("play", "--rules", NAMED5, "--players", "5", "--seed", "1"),
        ("play", "--game", "--rules", TEN5, "--players", "6", "--seed", "1"),
        ("advise", "--rules", NAMED5, "--players", "5", "--seat", "1", "--dealer", "0", HAND),
        (
            "hint",
            "--rules",
            NAMED5,
            "--players",
            "5",
            "--hand",
            HAND,
            "--dealer",
            "0",
            "--seat",
            "1",
            "--calls",
            "2,pass,pass,pass,pass",
            "--trump",
            "H",
        ),  # fmt: skip
        (
            "tournament",
            "--rules",
            NAMED5,
            "--players",
            "5",
            "--games",
            "2",
            "-s",
            "heuristic,random",
        ),
        ("practice", "--rules", NAMED5, "--players", "5", "--seed", "1"),
    ],
)
def test_12_1_every_command_refuses_a_called_partner_in_one_line(argv, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, _, line = cli(*argv, stdin="")  # one line on stderr, exit 2 (practice has
    assert code == 2  # printed its heading on stdout by then, as under a kitty)
    assert "partner=called" in line and "12.1" in line, line


@pytest.mark.parametrize("spec", ["auction-pitch,partner=called", "ten-point,partner=called"])
def test_6_3_7_every_command_names_the_rule_in_one_line(spec, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for argv in (("bid-odds", "--players", "5", HAND), ("play", "--players", "5")):
        assert "(VARIANTS.md 6.3.7)" in refused(*argv, "--rules", spec)


def test_12_1_a_view_under_a_called_partner_is_refused_in_one_line():
    doc = {
        "rules": NAMED5, "players": 5, "seat": 1, "dealer": 0,
        "hand": ["AH", "KH", "2H", "9C", "7D", "3S"], "calls": [],
    }  # fmt: skip
    with pytest.raises(ViewError, match="partner=called: a view does not carry a called") as e:
        View.from_json(doc)
    assert "\n" not in str(e.value)


def test_12_1_the_engine_replies_an_error_to_a_view_under_a_called_partner():
    doc = {
        "rules": "smear,partner=announced", "players": 5, "seat": 1, "dealer": 0,
        "hand": ["AH", "KH", "2H", "9C", "7D", "3S"], "calls": [],
    }  # fmt: skip
    reply = json.loads(Engine().handle(json.dumps({"type": "decide", "id": 7, "view": doc})))
    assert (reply["type"], reply["id"], reply["code"]) == ("error", 7, "bad-view")
    assert "partner=announced" in reply["message"]
