"""A seat's answer checked against the view (table/answers.py), as docs/protocol.md puts
it: the answer must be "one of the legal actions", written as the view's `legal` writes
them (a call "pass"/"3", a card "6H", "trump:H", a joker "HJ"); pitchsim never plays in
the seat's place, so anything else is refused with a reason a bot's author can act on.
Views from examples/ (no kernel is run)."""

import json
from pathlib import Path

import pytest

from pitchsim.game.view import View
from pitchsim.table.answers import Forfeit, checked_action

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def view(name: str) -> View:
    return View.from_json(json.loads((EXAMPLES / "views" / name).read_text()))


def family_view(name: str, drop=(), **edit) -> View:
    doc = json.loads((EXAMPLES / "family_views" / name).read_text())
    return View.from_json({k: v for k, v in {**doc, **edit}.items() if k not in drop})


def refused(v, answer) -> str:
    with pytest.raises(ValueError) as e:
        checked_action(v, answer)
    return str(e.value)


def test_a_legal_call_in_any_spelling_the_protocol_reads():
    call = view("call.json")  # legal: pass 1 2 3 4
    assert call.legal() == ["pass", "1", "2", "3", "4"]
    assert checked_action(call, "3") == "3"
    assert checked_action(call, " pass\n") == "pass"
    assert checked_action(call, "2 ") == "2"
    assert refused(call, "5") == "'5' is not a legal action (legal: pass 1 2 3 4)"
    assert refused(call, "bid") == "'bid' is not a legal action (legal: pass 1 2 3 4)"


def test_a_call_answer_is_read_as_a_views_call_is_read():
    """docs/view.md reads a view's calls as "pass", "1".."4" or numbers (0: pass); an
    answer's call is read by the same reader, so "03" is the call "3" and "0" a pass,
    and in the play a call is no answer at all."""
    call = view("call.json")
    doc = json.loads((EXAMPLES / "views" / "call.json").read_text())
    for spelling in ("03", "0", "00", "04"):
        as_view = View.from_json({**doc, "calls": [spelling], "legal": None})
        assert checked_action(call, spelling) == as_view.to_json()["calls"][0]
    assert refused(view("follow.json"), "0") == "'0' is not a legal action (legal: 6H)"


def test_a_card_is_one_card_in_any_case():
    follow = view("follow.json")  # must follow trump: only 6H
    assert checked_action(follow, "6H") == "6H"
    assert checked_action(follow, "6h") == "6H"
    assert checked_action(follow, " 6h ") == "6H"
    # a legal card written twice is two cards, not an answer
    assert refused(follow, "6H 6H") == "'6H 6H' is not a legal action (legal: 6H)"
    assert refused(follow, "4C") == "'4C' is not a legal action (legal: 6H)"
    assert refused(follow, "pass") == "'pass' is not a legal action (legal: 6H)"
    lead = view("lead.json")
    legal = lead.legal()
    assert len(legal) > 1 and checked_action(lead, legal[-1].lower()) == legal[-1]
    two = f"{legal[0]} {legal[1]}"  # two legal cards at once: refused
    assert refused(lead, two) == f"{two!r} is not a legal action (legal: {' '.join(legal)})"


def test_under_a_preset_cards_jokers_and_calls_in_any_case():
    smear = family_view("smear.json")  # legal: QD JS KS
    assert checked_action(smear, "qd") == "QD"
    assert checked_action(smear, " Ks ") == "KS"
    assert refused(smear, "5C") == "'5C' is not a legal action (legal: QD JS KS)"
    ten = family_view("ten-point.json")  # legal: 4H HJ (the high joker)
    assert checked_action(ten, "hj") == "HJ"
    assert refused(ten, "LJ") == "'LJ' is not a legal action (legal: 4H HJ)"
    # the auction of the same table: the seat after "9" under ten-point's calls
    auction = family_view(
        "ten-point.json", ("draw", "trump", "legal", "out"), calls=["9"], seat=0, tricks=[]
    )
    assert auction.phase == "auction" and "pass" in auction.legal()
    assert checked_action(auction, "PASS") == "pass"
    assert checked_action(auction, "10") == "10"


def test_the_answer_is_echoed_whole_up_to_20_characters_and_cut_after():
    call = view("call.json")
    legal = "(legal: pass 1 2 3 4)"
    twenty = "x" * 20
    assert refused(call, twenty) == f"{twenty!r} is not a legal action {legal}"
    long = "y" * 21
    assert refused(call, long) == f"{'y' * 17 + '...'!r} is not a legal action {legal}"
    assert refused(call, "z" * 5000) == f"{'z' * 17 + '...'!r} is not a legal action {legal}"


@pytest.mark.parametrize(
    "answer, kind", [(3, "int"), (None, "NoneType"), (["3"], "list"), ({"action": "3"}, "dict")]
)
def test_an_answer_that_is_not_a_string_names_its_type(answer, kind):
    assert refused(view("call.json"), answer) == f"answered {kind}, not an action string"
    assert refused(family_view("smear.json"), answer) == f"answered {kind}, not an action string"


def test_a_forfeit_names_its_seat_and_reason():
    f = Forfeit(2, "late: no answer within 1.0 s")
    assert str(f) == "seat 2: late: no answer within 1.0 s"
    assert (f.seat, f.reason) == (2, "late: no answer within 1.0 s")


def first_call(name: str, rules: str) -> View:
    """The auction's first call (the seat after the dealer) at the example's table."""
    doc = json.loads((EXAMPLES / "family_views" / name).read_text())
    return family_view(
        name,
        ("draw", "trump", "legal", "out"),
        calls=[],
        seat=(doc["dealer"] + 1) % doc["players"],
        tricks=[],
        rules=rules,
    )


def test_a_call_is_read_under_the_presets_own_calls():
    """docs/view.md reads a bid as one or two digits ("07" is 7) up to the rules' highest
    bid, and "shoot" where the rules offer it: ten-point bids 5-10, smear with
    shoot=true offers a shoot above 5.  The base game's reader (bids 1-4, no shoot)
    would refuse "07" and write the shoot as a number."""
    ten = first_call("ten-point.json", "ten-point")
    assert ten.legal() == ["pass", "5", "6", "7", "8", "9", "10"]
    for bid in range(5, 10):
        assert checked_action(ten, f"0{bid}") == str(bid)
    assert checked_action(ten, "10") == "10"
    assert refused(ten, "04") == "'04' is not a legal action (legal: pass 5 6 7 8 9 10)"
    shoot = first_call("smear.json", "smear,shoot=true")
    assert shoot.legal() == ["pass", "2", "3", "4", "5", "shoot"]
    for answer in ("shoot", "SHOOT", " Shoot\n"):
        assert checked_action(shoot, answer) == "shoot"
    assert checked_action(shoot, "05") == "5"
    plain = first_call("smear.json", "smear")  # no shoot offered: it is no call
    assert refused(plain, "shoot") == "'shoot' is not a legal action (legal: pass 2 3 4 5)"
