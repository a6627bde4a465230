"""``pitchsim play --hand/--trump/--bid`` under every preset (issue 28): seat 0 holds
the hand given, the pitcher names (trump=named) or leads (trump=first-lead) the suit
given, and seat 0 pitches at the bid given; each hand is replayed by the reference
engine (every card legal, every trick's winner, every point and the settlement its
own).  The family deal kernel takes the fixed hand, trump and bid itself
(``kernels.game.play_deal_fixed``)."""

from __future__ import annotations

import json

import pytest
from clirun import cli, refused

import pitchsim.game.reference as F
from pitchsim.game.cards import format_card, mask_of, parse_cards
from pitchsim.game.rules import Rules

# A hand of the deal's size per preset (ten-point deals 9 at 4 players), its trump and a bid.
FIXED = {
    "auction-pitch": ("AH KH 2H 9C 4D JS", "H", "2"),
    "setback": ("AH KH 2H 9C 4D JS", "H", "3"),
    "smear": ("AH KH 2H 9C 4D JS", "S", "2"),
    "ten-point": ("AH KH 2H 9C 4D JS 3H HJ TH", "H", "6"),
}


def _replayed(doc: dict, r) -> None:
    """The hand of ``play --json`` replayed by the reference engine: each card legal,
    each trick's winner, every point, the points won and the settlement."""
    n = len(doc["dealt"])
    held = doc["held"] if doc["held"] is not None else doc["dealt"]
    held = [mask_of(parse_cards(" ".join(h), r.jokers)) for h in held]
    cards = iter(c for t in doc["tricks"] for c in parse_cards(" ".join(t["cards"]), r.jokers))
    trump = "CDHS".index(doc["trump"]) if r.trump == "named" else -1
    rec = F.play_hand(held, doc["pitcher"], lambda view: next(cards), r, doc["bid"], trump)
    assert next(cards, None) is None
    assert [w for *_, w in rec.tricks] == [t["winner"] for t in doc["tricks"]]
    assert "CDHS"[rec.trump] == doc["trump"]
    assert rec.score.awards == doc["points"] and rec.score.points == doc["points_won"]
    assert doc["change"] == F.settle_hand(doc["points_won"], doc["pitcher"], doc["bid"], r)
    assert doc["made"] == (doc["points_won"][doc["pitcher"]] >= doc["bid"]) and n == 4


@pytest.mark.parametrize("preset", ["setback", "smear", "ten-point"])
def test_hand_trump_and_bid_are_the_hand_played(preset):
    hand, suit, bid = FIXED[preset]
    r = Rules.parse(preset)
    code, out, err = cli(
        "play", "--rules", preset, "--seed", "3", "--hand", hand, "--trump", suit,
        "--bid", bid, "--json", "--rounds", "2",
    )  # fmt: skip
    assert code == 0, err
    for doc in json.loads(out):
        assert sorted(doc["dealt"][0]) == sorted(hand.split())
        assert doc["pitcher"] == 0 and doc["bid"] == int(bid) and doc["dealer"] == 3
        assert doc["calls"] == [{"seat": 0, "call": bid}] + [
            {"seat": s, "call": "pass"} for s in (1, 2, 3)
        ]
        assert doc["trump"] == suit
        if r.trump == "first-lead":  # 6.3.5: the pitcher leads his highest card of it
            mine = [c for c in parse_cards(hand) if c // 13 == "CDHS".index(suit)]
            assert doc["tricks"][0]["cards"][0] == format_card(max(mine), symbols=False)
        _replayed(doc, r)


@pytest.mark.parametrize("preset", ["setback", "smear", "ten-point"])
def test_a_hand_alone_is_seat_0s_in_a_real_auction(preset):
    hand = FIXED[preset][0]
    r = Rules.parse(preset)
    code, out, err = cli(
        "play", "--rules", preset, "--seed", "5", "--hand", hand, "--json", "--rounds", "4"
    )
    assert code == 0, err
    docs = json.loads(out)
    for d in docs:
        assert sorted(d["dealt"][0]) == sorted(hand.split())
        # the auction runs from the dealer's left, as without --hand
        assert [c["seat"] for c in d["calls"]][0] == (d["dealer"] + 1) % 4
        if d["pitcher"] is not None:
            _replayed(d, r)
    # the other seats' cards are the deal's, not seat 0's: no card twice
    for d in docs:
        every = [c for h in d["dealt"] for c in h]
        assert len(every) == len(set(every)) == 4 * r.cards_each(4)


def test_a_named_trump_alone_is_the_pitchers_whoever_pitches():
    code, out, err = cli("play", "--rules", "smear", "--seed", "2", "--trump", "D", "--json",
                         "--rounds", "6")  # fmt: skip
    assert code == 0, err
    played = [d for d in json.loads(out) if d["pitcher"] is not None]
    assert played and all(d["trump"] == "D" for d in played)
    assert {d["pitcher"] for d in played} != {0}  # not only seat 0 pitches


def test_nothing_fixed_deals_as_before():
    """No --hand, --trump or --bid: the deal kernel's own hand (the same as a --trump
    the pitcher leads anyway would give)."""
    a = cli("play", "--rules", "setback", "--seed", "9", "--json")[1]
    b = json.loads(cli("play", "--rules", "setback", "--seed", "9", "--json", "--trump",
                       json.loads(a)["trump"])[1])  # fmt: skip
    a = json.loads(a)
    assert a["dealt"] == b["dealt"] and a["calls"] == b["calls"] and a["pitcher"] == b["pitcher"]


def test_a_first_lead_trump_the_pitcher_lacks_is_said():
    code, out, err = cli("play", "--rules", "setback", "--seed", "1", "--trump", "C",
                         "--rounds", "8", "--json")  # fmt: skip
    assert code == 0
    lacks = {
        r
        for r, d in enumerate(json.loads(out))
        if d["pitcher"] is not None and not any(c.endswith("C") for c in d["dealt"][d["pitcher"]])
    }
    said = {
        int(line.split("deal ")[1].split(":")[0])
        for line in err.splitlines()
        if "so --trump C did nothing there" in line
    }
    assert lacks and said == lacks
    for r, d in enumerate(json.loads(out)):
        if d["pitcher"] is not None and r not in lacks:
            assert d["trump"] == "C"


@pytest.mark.parametrize(
    "argv, words",
    [
        (["--rules", "ten-point", "--hand", "AH KH 2H 9C 7D 3S"],
         "--hand: ten-point deals 9 cards each at 4 players, not 6"),
        (["--rules", "smear", "--hand", "AH KH 2H 9C 7D 3S 4S"],
         "--hand: smear deals 6 cards each at 4 players, not 7"),
        (["--rules", "smear", "--hand", "AH KH 2H 9C 7D HJ"], "--hand"),
        (["--rules", "ten-point,partnership=false", "-n", "5", "--hand", "AH KH 2H 9C 7D 3S 4S 5S 6S TS"],
         "4S is not in the pack of ten-point,partnership=false at 5 players"),
        (["--rules", "smear", "--bid", "1"], "--bid must be 2-5 under smear"),
        (["--rules", "ten-point", "--bid", "11"], "--bid must be 5-10 under ten-point"),
        (["--rules", "setback", "--bid", "3", "--dealer", "1"], "leave out --dealer"),
        (["--rules", "setback", "--bid", "3", "--hand", "AH KH 2H 9C 4D 5D", "--trump", "S"],
         "under setback the first card led fixes trump (6.3.5)"),
        (["--rules", "smear", "--trump", "X"], "--trump"),
    ],
)  # fmt: skip
def test_what_the_rules_forbid_is_refused_naming_the_rule(argv, words):
    refused("play", *argv, words=words)


def test_a_planned_first_lead_is_the_play_policys_card_of_the_suit_as_the_base_game():
    """docs/rules.md ("bid-odds and simulate"): with the trump given under trump=first-lead
    the pitcher's opening lead is of that suit, his play policy choosing among those
    cards, as the base game's kernels do.  Holding J and 9 of spades, the heuristic keeps
    the jack back: the family game's first trick (``play_deal_fixed``'s planned lead,
    ``policies.opening_lead_in``) is the base game's, card for card.  (The planned lead
    was the suit's highest card, the jack, before.)"""
    hand = "JS 9S TH 5H 7D 4C"
    given = ("--seed", "1", "--hand", hand, "--trump", "S", "--bid", "2", "--json")
    code, out, err = cli("play", *given)
    assert code == 0, err
    base = json.loads(out)["tricks"][0]
    code, out, err = cli("play", "--rules", "auction-pitch,shoot=true", *given)
    assert code == 0, err
    family = json.loads(out)["tricks"][0]
    assert base["cards"][0] == family["cards"][0] == "9S"
    assert base["cards"] == family["cards"] and base["leader"] == family["leader"] == 0
