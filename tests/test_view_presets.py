"""A player's view under every preset (game/view.py, docs/view.md), auction-pitch included.

Views are cut from hands the reference engine plays (game/reference/) with
random calls, suits and cards, for every preset and player count.  Each view must
parse, give its seat exactly the legal actions the reference offered that seat at that
moment (recorded while the hand was played, from the true hands, not from the view),
and hold no card the seat could not have seen.  Then one refusal per rule a view can
break, each a single line; clause numbers are VARIANTS.md's.
"""

import json
import random
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pitchsim.game import reference as F
from pitchsim.game.cards import SUITS, cards_of, format_card, mask_of, parse_cards
from pitchsim.game.rules import Rules
from pitchsim.game.view import View, ViewError, cut_hand

ROOT = Path(__file__).resolve().parent.parent
GAMES = [
    ("auction-pitch", (3, 4)),
    ("setback", (4,)),
    ("smear", (2, 3, 4, 5, 6, 7)),
    ("smear,partnership=true", (4,)),
    ("ten-point", (4,)),
    ("ten-point,partnership=false", (4, 5, 6)),
    ("ten-point,follow=trump", (4,)),  # 4.9 choice: every card played, lead-trump
    ("ten-point,partnership=false,follow=trump", (5, 6)),  # 4.8 step 4: draws from discards
    ("ten-point,rob=false,jokers=1", (4,)),
    ("auction-pitch,jokers=2,jick=true,shoot=true", (4,)),  # 6.3.5, 6.1 shoot
    ("smear,shoot=true,dealer-steal=true", (3,)),
]
CASES = [(spec, n) for spec, ns in GAMES for n in ns]


def text(c: int) -> str:
    return format_card(c, symbols=False)


def played_game(spec: str, n: int, seed: int):
    """A reference game with random legal decisions; every decision's legal actions as
    the reference offered them, in order."""
    rules = Rules.parse(spec)
    rng, pick = random.Random(seed), random.Random(seed + 1)
    offered: list[tuple[int, list[str]]] = []

    def bidder(seat, hand, calls, legal, scores):
        offered.append((seat, sorted(call_name(c, rules) for c in legal)))
        return pick.choice(legal)

    def namer(seat, hand):
        offered.append((seat, [f"trump:{s}" for s in SUITS]))
        return pick.randrange(4)

    def chooser(view):
        offered.append((view.seat, sorted(text(c) for c in cards_of(view.legal))))
        return pick.choice(cards_of(view.legal))

    dealer = pick.randrange(n)
    game = F.play_game(n, rules, rng, bidder, namer, chooser, first_dealer=dealer, max_hands=12)
    return rules, game, offered


def call_name(c: int, rules) -> str:
    if c == 0:
        return "pass"
    return "shoot" if c == F.shoot_call(rules) else str(c)


def visible(hand, seat: int, upto_trick: int | None = None) -> int:
    """Every card ``seat`` may know of: its own dealt, drawn and robbed cards, the burnt
    trumps (face up, 4.8 step 2) and every card played in the hand."""
    m = hand.dealt[seat]
    if hand.draw is not None:
        m |= mask_of(hand.draw.drawn[seat])
        for b in hand.draw.burnt:
            m |= b
        if hand.auction.pitcher == seat:
            m |= mask_of(hand.draw.robbed)
    if hand.play is not None:
        for _, _, cards, _ in hand.play.tricks:
            m |= mask_of(cards)
    return m


def check_derived(v: View, hand, rules) -> None:
    """The facts the base game's callers read (``won``, ``played_by``, ``held``,
    ``legal_cards``, ``winner``, ``voids``) under this preset, against the reference's own
    record of the hand (the true hands, tricks and winners), not the view's replay: the
    jick and the jokers are trumps, and follow=only skips the seats out."""
    play = hand.play
    done = v.complete_tricks
    assert [v.winner(t) for t in done] == [w for *_, w in play.tricks[: len(done)]]
    won, by = [0] * v.players, [0] * v.players
    for _, _, cards, w in play.tricks[: len(done)]:
        won[w] |= mask_of(cards)
    for t, (leader, seats, cards, _) in zip(v.tricks, play.tricks, strict=False):
        assert t.leader == leader and list(t.seats) == seats[: len(t.cards)]
        for s, c in zip(seats[: len(t.cards)], cards, strict=False):
            by[s] |= 1 << c
    assert list(v.won) == won and list(v.played_by) == by
    now = [play.held[s] & ~by[s] for s in range(v.players)]
    assert v.held == now[v.seat]
    assert v.legal_cards() == mask_of(parse_cards(" ".join(v.legal()), rules.jokers))
    if v.trump is not None:
        for s in range(v.players):
            for suit in range(4):
                if v.voids >> (4 * s + suit) & 1:  # shown void: it truly holds none
                    assert not any(
                        F.effective_suit(c, v.trump, rules) == suit for c in cards_of(now[s])
                    ), (s, suit)


def check_game(spec: str, n: int, seed: int) -> int:
    rules, game, offered = played_game(spec, n, seed)
    before = [0] * n
    k = 0
    for hand in game.hands:
        for seat, doc, action in cut_hand(hand, n, rules, before):
            v = View.from_json(json.loads(json.dumps(doc)))
            assert v.to_move == seat
            assert v.legal() == sorted(v.legal(), key=v.legal().index)  # a list, no repeats
            assert len(set(v.legal())) == len(v.legal())
            ref_seat, ref_legal = offered[k]
            k += 1
            assert ref_seat == seat
            assert sorted(v.legal()) == ref_legal, (doc, action)
            assert action in v.legal()
            if v.phase == "play":
                check_derived(v, hand, rules)
            if v.phase == "auction":  # as ints: the shoot as its code, above the maximum bid
                assert sorted(call_name(c, rules) for c in v.legal_calls()) == ref_legal
            # Written and read back, the same view; and no hidden card in it.
            out = v.to_json()
            assert View.from_json(out).to_json() == out
            shown = json.dumps(out)
            for c in range(54):
                if f'"{text(c)}"' in shown:
                    assert visible(hand, seat) >> c & 1, f"{text(c)} is hidden from seat {seat}"
            for other in range(n):
                if other != seat:
                    hidden = hand.dealt[other] & ~visible(hand, seat)
                    for c in cards_of(hidden):
                        assert f'"{text(c)}"' not in shown
        before = list(hand.scores)
    assert k == len(offered)  # every decision of the game was cut, in order
    return k


@pytest.mark.parametrize("spec, n", CASES)
def test_views_cut_from_reference_games_parse_and_offer_the_reference_legal_actions(spec, n):
    assert sum(check_game(spec, n, seed) for seed in range(3)) > 0


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(case=st.sampled_from(CASES), seed=st.integers(0, 2**31))
def test_property_any_random_family_game(case, seed):
    check_game(*case, seed)


# ---- the docs' examples ------------------------------------------------------------------


def docs_examples() -> list[dict]:
    text = (ROOT / "docs" / "view.md").read_text()
    section = text.split("## Views under a rule family", 1)[1]
    return [json.loads(b) for b in re.findall(r"```json\n(.*?)```", section, re.S)]


@pytest.mark.parametrize("name", ["setback", "smear", "ten-point", "called-partner"])
def test_the_example_views_parse_with_the_legal_actions_they_state(name):
    doc = json.loads((ROOT / "examples" / "family_views" / f"{name}.json").read_text())
    v = View.from_json(doc)
    assert v.legal() == doc["legal"]
    assert doc in docs_examples()  # the docs show the same view


def test_every_docs_example_parses_with_its_legal_actions():
    docs = docs_examples()
    assert {d["rules"] for d in docs} == {"setback", "smear", "ten-point", "smear,partner=called"}
    for doc in docs:
        assert View.from_json(doc).legal() == doc["legal"]


def test_the_ten_point_example_works_out_the_rob_by_4_8_step_5():
    v = View.from_json(json.loads((ROOT / "examples/family_views/ten-point.json").read_text()))
    # Hearts trump.  Dealt 4H 7H HJ as trumps; robbed 11 cards, among them 8H: four
    # trumps, so the two highest non-trumps stay (AS, TC) and 9 go down, lowest first.
    assert sorted(map(text, v.kept)) == sorted(["4H", "7H", "8H", "HJ", "AS", "TC"])
    assert sorted(map(text, v.put_down)) == sorted(["2C", "2D", "3C", "3D", "4S", "5S", "7D", "9C"])
    assert v.put_down_count == 8 and v.robbed_count == 11
    assert v.draws[0].drawn == 0 and v.draws[0].burnt  # 4.8 step 2: kept 6 after burning


# ---- refusals, one line each -------------------------------------------------------------


def refused(doc: dict, *words: str) -> str:
    with pytest.raises(ViewError) as e:
        View.from_json(doc)
    msg = str(e.value)
    assert "\n" not in msg and msg
    for w in words:
        assert w in msg, msg
    return msg


def example(name: str) -> dict:
    return json.loads((ROOT / "examples" / "family_views" / f"{name}.json").read_text())


def smear_doc(**kw) -> dict:
    doc = {
        "rules": "smear",
        "players": 4,
        "seat": 1,
        "dealer": 3,
        "hand": ["AH", "KH", "2H", "9C", "7D", "3S"],
        "calls": [],
    }
    return doc | kw


def test_6_1_a_joker_in_a_family_without_jokers():
    refused(smear_doc(hand=["AH", "KH", "2H", "9C", "7D", "HJ"]), "HJ", "not in this deck")


def test_4_3_the_seat_is_dealt_the_familys_number_of_cards():
    refused(smear_doc(hand=["AH", "KH", "2H", "9C", "7D"]), "dealt 6")
    doc = example("ten-point")
    refused(doc | {"hand": doc["hand"][:6]}, "dealt 9")
    # 5 players, 9 to deal, two jokers: 10 cards each, from a pack without the 4s.
    five = {"rules": "ten-point,partnership=false", "players": 5, "seat": 0, "dealer": 4}
    refused(five | {"hand": ["4C"] + ["5C", "6C", "7C", "8C", "9C", "TC", "JC", "QC", "KC"]}, "4C")
    ok = five | {"hand": ["AC", "5C", "6C", "7C", "8C", "9C", "TC", "JC", "QC", "KC"]}
    assert View.from_json(ok).legal() == ["pass", *map(str, range(5, 11))]


@pytest.mark.parametrize(
    "rules, calls, bad, words",
    [
        ("smear", [], "1", "(legal: pass, 2, 3, 4, 5)"),  # 3.3 no 1
        ("smear", ["2", "3"], "3", "(legal: pass, 4, 5)"),  # 3.15.3
        ("smear", [], "6", 'a bid "1"-"5"'),  # 3.3 up to 5
        ("smear", [], "shoot", 'a bid "1"-"5"'),  # 3.13 no shoot
        ("setback", ["2", "3", "pass"], "3", "(legal: pass, 4)"),  # 2.4, 2.15.1
        ("setback", ["4", "4"], "4", "(legal: pass)"),  # 2.5: only the dealer may match
        ("smear", ["5"], "pass", "after a 5, which ends the auction"),  # 1.4 a 5 ends it
    ],
)
def test_calls_outside_the_familys_range(rules, calls, bad, words):
    refused(smear_doc(rules=rules, calls=[*calls, bad]), words)


def test_2_5_a_setback_4_leaves_the_dealer_to_match_it():
    v = View.from_json(smear_doc(rules="setback", seat=3, calls=["4", "pass", "pass"]))
    assert v.phase == "auction" and v.legal() == ["pass", "4"]


def test_6_1_shoot_only_where_offered_and_not_below_zero():
    doc = smear_doc(rules="smear,shoot=true", calls=[])
    assert "shoot" in View.from_json(doc | {"seat": 0}).legal()
    refused(doc | {"calls": ["shoot"], "scores": [-1, 0, 0, 0]}, "may not call shoot")
    v = View.from_json(doc | {"calls": ["2", "shoot"], "seat": 1})
    assert v.phase == "trump" and v.shoot and v.bid == 5 and v.pitcher == 1
    refused(doc | {"calls": ["2", "shoot", "pass"]}, "after a shoot, which ends the auction")


def test_3_5_the_pitcher_names_trump_and_nothing_comes_before():
    doc = smear_doc(seat=1, calls=["pass", "3", "pass", "pass"])
    v = View.from_json(doc)
    assert v.phase == "trump" and v.to_move == 1
    assert v.legal() == ["trump:C", "trump:D", "trump:H", "trump:S"]
    assert View.from_json(doc | {"legal": ["TRUMP:h", "trump:c", "trump:D", "trump:S"]})
    refused(doc | {"tricks": [{"leader": 1, "cards": ["AH"]}]}, "not named yet")
    refused(doc | {"trump": "X"}, "suit letter")
    # Named, any card leads (3.5): all six are legal.
    assert len(View.from_json(doc | {"trump": "C"}).legal()) == 6


def test_3_15_1_the_jick_does_not_follow_its_printed_suit():
    # Hearts trump; seat 1 holds JD (the jick) and 7D: 7D must follow a diamond lead (or
    # a trump may be played, follow=trump, 3.7); JD is a trump, not a diamond.
    doc = smear_doc(
        hand=["JD", "7D", "AS", "KS", "QS", "9C"],
        calls=["pass", "pass", "pass", "2"],
        trump="H",
        tricks=[{"leader": 3, "cards": ["KD", "3D"]}],
    )
    v = View.from_json(doc)
    assert sorted(v.legal()) == ["7D", "JD"]
    refused(doc | {"tricks": [{"leader": 3, "cards": ["KD", "3D", "AS"]}]}, "illegal", "diamonds")
    # A seat whose only diamond is the jick is void in diamonds (0.4).
    v = View.from_json(doc | {"hand": ["JD", "AS", "KS", "QS", "9C", "2C"]})
    assert len(v.legal()) == 6


def test_3_15_2_a_jick_led_is_a_trump_lead():
    doc = smear_doc(
        hand=["2H", "7D", "AS", "KS", "QS", "9C"],
        calls=["pass", "pass", "pass", "2"],
        trump="H",
        tricks=[{"leader": 3, "cards": ["JD", "5C"]}],
    )
    assert View.from_json(doc).legal() == ["2H"]


def test_0_4_a_card_of_a_suit_shown_void():
    # Clubs trump (JS is the jick).  Seat 2 plays JH to a diamond lead: not a trump, so
    # it holds no diamonds, and cannot play the 4D later.
    doc = smear_doc(
        seat=0,
        hand=["2H", "7D", "AS", "KS", "QS", "9C"],
        calls=["pass", "pass", "pass", "2"],
        trump="C",
        tricks=[
            {"leader": 3, "cards": ["KD", "7D", "2D", "JH"]},
            {"leader": 3, "cards": ["AD", "AS", "3D", "4D"]},
        ],
    )
    refused(doc, "seat 2 plays 4D in trick 2 after showing it held no diamonds")


def test_4_9_follow_only_plays_trumps_and_out_seats_stay_out():
    doc = example("ten-point")
    bad = json.loads(json.dumps(doc))
    bad["tricks"][1]["cards"][2] = "QC"
    bad.pop("legal")
    refused(bad, "seat 3 plays QC", "only trumps are played (4.9)")
    # Seat 1 is out (it was passed over): it cannot play in trick 3.
    later = json.loads(json.dumps(doc))
    later["tricks"][1:] = [
        {"leader": 1, "seats": [1, 2, 3, 0], "cards": ["AH", "8H", "9H", "LJ"]},
        {"leader": 2, "seats": [2, 3, 1], "cards": ["4H", "6H", "KH"]},
    ]
    later.pop("legal")
    refused(later, "seat 1 plays", "out")
    # out must name every seat passed over.
    skipped = json.loads(json.dumps(doc))
    skipped["out"] = []
    skipped["tricks"][1] = {"leader": 1, "seats": [1, 2, 0], "cards": ["AH", "8H", "LJ"]}
    skipped.pop("legal")
    refused(skipped, "out must list seat 3")
    # A seat holding trumps is never skipped: this one is known to hold 4H and HJ.
    own = json.loads(json.dumps(doc))
    own["tricks"][1] = {"leader": 1, "seats": [1, 3, 0], "cards": ["AH", "9H", "LJ"]}
    own.pop("legal")
    refused(own, "seat 2 is skipped but holds a trump")


def test_4_8_the_draw_counts_must_fit():
    doc = example("ten-point")
    short = json.loads(json.dumps(doc))
    short["draw"]["mine"]["robbed"] = short["draw"]["mine"]["robbed"][:-1]
    refused(short, "robbed 10 cards, but the stock held 11")
    wrong = json.loads(json.dumps(doc))
    wrong["draw"]["seats"][1]["drawn"] = 2
    refused(wrong, "seat 1 drew 2 cards", "after discarding 7 and burning 0 of 9 it draws 4")
    mine = json.loads(json.dumps(doc))
    mine["draw"]["seats"][2]["discarded"] = 5
    refused(mine, "holds 6 non-trumps", "4.8 step 1")
    kept = json.loads(json.dumps(doc))
    kept["draw"]["seats"][3]["discarded"] = 1
    refused(kept, "kept 8", "4.8 step 2")
    # A trump burnt face up must be a trump, and burnt only with six kept.
    burnt = json.loads(json.dumps(doc))
    burnt["draw"]["seats"][0]["burnt"] = ["5S"]
    refused(burnt, "5S, which is not a trump")
    two = json.loads(json.dumps(doc))
    two["draw"]["seats"][1]["burnt"] = ["6H"]
    refused(two, "burnt 1 trumps but kept 1")
    missing = json.loads(json.dumps(doc))
    missing.pop("draw")
    refused(missing, "give draw")
    smear = smear_doc(calls=["pass", "3", "pass", "pass"], trump="H")
    refused(smear | {"draw": {"seats": [{"discarded": 0}] * 4}}, "no discard and draw")


def test_4_8_step_6_rule_x():
    doc = example("ten-point")
    doc.pop("legal")
    # Seat 0 burnt 6H instead (a plain trump): it cannot have kept 5H, which rule X
    # burns first (no point, lower), so it cannot play it.
    low = json.loads(json.dumps(doc))
    low["draw"]["seats"][0]["burnt"] = ["6H"]
    low["tricks"][0]["cards"][2] = "5H"
    refused(low, "seat 0 plays 5H", "rule X would have burnt it before 6H (4.8 step 6)")
    # Kept above the burnt card is fine: 6H played after burning 5H.
    ok = json.loads(json.dumps(doc))
    ok["tricks"][0]["cards"][2] = "6H"
    View.from_json(ok)
    # This seat's own burn is rule X's: with three trumps it burns nothing.
    mine = json.loads(json.dumps(doc))
    mine["draw"]["seats"][2]["burnt"] = ["4H"]
    refused(mine, "seat 2 burnt 4H, but rule X burns nothing")


def test_6_3_5_a_joker_cannot_fix_trump_by_the_first_lead():
    doc = {
        "rules": "auction-pitch,jokers=2,jick=true",
        "players": 4,
        "seat": 1,
        "dealer": 0,
        "hand": ["HJ", "KH", "2H", "9C", "7D", "3S"],
        "calls": ["3", "pass", "pass", "pass"],
    }
    v = View.from_json(doc)
    assert "HJ" not in v.legal() and len(v.legal()) == 5
    refused(
        doc | {"seat": 2, "tricks": [{"leader": 1, "cards": ["LJ"]}]}, "joker may not fix trump"
    )
    refused(doc | {"tricks": [{"leader": 1, "cards": ["HJ"]}]}, "illegal", "6.3.5")


def test_lead_trump_the_pitcher_leads_a_trump_if_it_holds_one():
    # ten-point under follow=trump (4.9 choice): lead-trump holds.  54 - 36 = 18 in the
    # stock; seats 1-3 each keep 3 and draw 3, so the pitcher (seat 0) robs 9 and puts
    # down the six lowest non-trumps (4.8 step 5).
    doc = {
        "rules": "ten-point,follow=trump",
        "players": 4,
        "seat": 0,
        "dealer": 3,
        "hand": ["AH", "KH", "2H", "9S", "7D", "3S", "4S", "5S", "6S"],
        "calls": ["5", "pass", "pass", "pass"],
        "trump": "H",
        "draw": {
            "seats": [{"discarded": 6}] * 4,
            "mine": {"robbed": ["2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "TC"]},
        },
    }
    v = View.from_json(doc)
    assert sorted(v.legal()) == ["2H", "AH", "KH"]
    assert sorted(map(text, v.kept)) == ["2H", "8C", "9C", "AH", "KH", "TC"]
    assert v.robbed_count == 9 and v.put_down_count == 6
    refused(doc | {"tricks": [{"leader": 0, "cards": ["8C"]}]}, "illegal", "lead-trump")
    # Seen by seat 1: a pitcher leading a non-trump holds no trump, so it cannot play
    # one later.
    other = {
        **doc,
        "seat": 1,
        "hand": ["AS", "KS", "2S", "9D", "7D", "3D", "4D", "5D", "QH"],
        "draw": {
            "seats": [{"discarded": 6}, {"discarded": 8}, {"discarded": 6}, {"discarded": 6}],
            "mine": {"drawn": ["6C", "7C", "8C", "9C", "TC"]},
        },
        "tricks": [
            {"leader": 0, "cards": ["KC", "6C", "QC", "AC"]},
            {"leader": 3, "cards": ["8D", "JH"]},
        ],
    }
    refused(other, "seat 0 plays JH in trick 2 after showing it held no hearts trump")
    # Only the pitcher robs (4.8 step 5).
    robs = json.loads(json.dumps(other))
    robs["draw"]["mine"]["robbed"] = ["2C"]
    refused(robs, "only the pitcher robs (4.8 step 5)")


@pytest.mark.parametrize(
    "key, value, words",
    [
        ("players", True, "whole number"),
        ("seat", 1.0, "whole number"),
        ("scores", [0, 0, False, 0], "whole number"),
        ("calls", ["2.5"], "must be"),
        ("calls", [True], "must be"),
        ("hand", "AH KH", "list of cards"),
        ("out", [1], "only under follow=only"),
        ("partnership", True, "partnership is True but the rules say False"),
        ("rules", "smear,jick=false", "smear is played with jick=true"),
        ("rules", 5, "rule string"),
    ],
)
def test_strict_types_and_bad_fields(key, value, words):
    refused(smear_doc(**{key: value}), words)


def test_a_thrown_in_hand_has_nothing_after_it():
    doc = smear_doc(calls=["pass"] * 4)
    v = View.from_json(doc)
    assert v.phase == "thrown-in" and v.legal() == []  # 3.4 dealer-set
    refused(doc | {"trump": "H"}, "thrown in")
