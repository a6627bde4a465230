"""The player's view (pitchsim.game.view): reading, checking, legal actions.

Expected values are worked out by hand from RULES.md; every error case is a view that
cannot have happened, and must be refused in one line naming what is wrong."""

import json
from pathlib import Path

import pytest

from pitchsim.game.view import View, ViewError, parse_view, read_view

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "views"
HAND = ["AH", "KH", "2H", "9C", "7D", "3S"]


def view(**kw):
    doc = {"players": 4, "seat": 1, "dealer": 3, "hand": HAND, "calls": []}
    doc.update(kw)
    return View.from_json(doc)


def test_examples_read_and_round_trip():
    for path in sorted(EXAMPLES.glob("*.json")):
        v = read_view(str(path))
        doc = json.loads(path.read_text())
        assert v.to_json() == doc, path.name  # the examples are written normalised
        assert View.from_json(v.to_json()) == v


def test_auction_legal_calls_by_hand():
    # Seat 0 (dealer's left) calls first; seat 1 after a pass may pass or bid 1-4.
    assert view(calls=["pass"]).legal() == ["pass", "1", "2", "3", "4"]
    # After a 2, a non-dealer must bid 3 or 4.
    assert view(calls=["2"]).legal() == ["pass", "3", "4"]
    # The dealer (seat 1 when dealer=1) after three passes is stuck: 2, 3, 4 only.
    assert view(dealer=1, calls=["pass", "pass", "pass"]).legal() == ["2", "3", "4"]
    # The dealer may steal at the high bid.
    assert view(dealer=1, calls=["2", "pass", "pass"]).legal() == ["pass", "2", "3", "4"]
    no_steal = "dealer-steal=false"
    assert view(dealer=1, calls=["2", "pass", "pass"], rules=no_steal).legal() == ["pass", "3", "4"]
    # Not seat 1's turn: nothing is legal for it, and the view says whose turn it is.
    v = view(calls=[])
    assert v.legal() == [] and v.to_move == 0 and v.phase == "auction"


def test_auction_result_and_play_by_hand():
    v = view(calls=["2", "3", "pass", "pass"])
    assert (v.pitcher, v.bid, v.trump, v.to_move, v.phase) == (1, 3, None, 1, "play")
    assert v.legal() == ["9C", "7D", "2H", "KH", "AH", "3S"]  # the opening lead: any card
    # A 4 ends the auction at once: seat 1 is the pitcher with two seats never asked.
    v = view(calls=["pass", "4"])
    assert (v.pitcher, v.bid, v.to_move) == (1, 4, 1)
    # Seat 2 leads clubs; seat 1 holds 9C: follow (9C) or trump (hearts).
    v = view(
        seat=0,
        hand=["9C", "7D", "2H", "KH", "AH", "3S"],
        calls=["pass", "pass", "3", "pass"],
        tricks=[{"leader": 2, "cards": ["4H", "QH"]}],
    )
    # Hearts (trump) led by seat 2: seat 0 holds 2H KH AH and must follow.
    assert v.trump == 2 and v.to_move == 0
    assert v.legal() == ["2H", "KH", "AH"]
    v = view(
        seat=0,
        hand=["9C", "7D", "2H", "KH", "AH", "3S"],
        calls=["pass", "pass", "3", "pass"],
        tricks=[
            {"leader": 2, "cards": ["QH", "5H", "AH", "6H"]},
            {"leader": 0, "cards": ["9C", "TC", "JC", "QC"]},
            {"leader": 3, "cards": ["5C"]},
        ],
    )
    # Trick 2: clubs led, no trump: QC (seat 3) wins and leads 5C; seat 0 is void of
    # clubs now, so any card is legal.
    assert v.to_move == 0 and v.winner(v.tricks[1]) == 3
    assert v.legal() == ["7D", "2H", "KH", "3S"]
    assert v.won[0] == (1 << 36) | (1 << 29) | (1 << 38) | (1 << 30)  # QH 5H AH 6H
    assert v.voids == 0  # seat 0 has not yet shown its club void


def test_follow_suit_variant():
    hand = ["9C", "7D", "2H", "KH", "AH", "3S"]
    calls = ["pass", "pass", "3", "pass"]
    tricks = [
        {"leader": 2, "cards": ["4H", "5H", "2H", "6H"]},
        {"leader": 1, "cards": ["QD", "5D", "6D"]},
    ]
    # Diamonds led, hearts trump: base rules let seat 0 follow (7D) or trump (KH, AH).
    assert view(seat=0, hand=hand, calls=calls, tricks=tricks).legal() == ["7D", "KH", "AH"]
    v = view(seat=0, hand=hand, calls=calls, tricks=tricks, rules="follow=suit")
    assert v.legal() == ["7D"]
    # Trump led: following suit means playing trump, under either rule.
    v2 = view(seat=0, hand=hand, calls=calls, tricks=[{"leader": 2, "cards": ["QD", "5D"]}])
    assert v2.trump == 1 and v2.legal() == ["7D"]


@pytest.mark.parametrize(
    "doc, words",
    [
        ({"hand": HAND[:5]}, "hand has 5 cards"),
        ({"hand": HAND[:5] + ["AH"]}, "AH is there twice"),
        ({"players": 8}, "players must be 2-7"),
        ({"seat": 4}, "seat 4 is not a seat"),
        ({"calls": ["2", "2"]}, "call 2: seat 1 may not call 2"),
        ({"calls": ["pass", "pass", "pass", "pass"]}, "call 4: seat 3 may not call pass"),
        ({"calls": ["4", "pass"]}, "comes after a 4"),
        ({"calls": ["5"]}, "call 1 must be"),
        ({"calls": ["pass"] * 5}, "5 calls"),
        ({"calls": ["2"], "tricks": [{"leader": 0, "cards": ["4C"]}]}, "no card can be played yet"),
        (
            {"calls": ["pass", "3", "pass", "pass"], "tricks": [{"leader": 0, "cards": ["4C"]}]},
            "trick 1 is led by seat 0, but the pitcher is seat 1",
        ),
        (
            {"calls": ["pass", "3", "pass", "pass"], "tricks": [{"leader": 1, "cards": ["4C"]}]},
            "seat 1 plays 4C in trick 1 but does not hold it",
        ),
        (
            {
                "calls": ["pass", "3", "pass", "pass"],
                "tricks": [{"leader": 1, "cards": ["9C", "AH"]}],
            },
            "seat 1 holds it",
        ),
        (
            {
                "calls": ["pass", "3", "pass", "pass"],
                "tricks": [
                    {"leader": 1, "cards": ["9C", "TC", "3C", "4C"]},
                    {"leader": 2, "cards": ["5D", "6D", "2D", "3S"]},
                ],
            },
            "seat 1's 3S in trick 2 is illegal: it holds diamonds, so it must follow suit or trump",
        ),
        (
            {
                "calls": ["pass", "3", "pass", "pass"],
                "tricks": [
                    {"leader": 1, "cards": ["9C", "2D", "3C", "4C"]},
                    {"leader": 1, "cards": ["3S", "6C"]},
                ],
            },
            "seat 2 plays 6C in trick 2 after showing it held no clubs",
        ),
        (
            {
                "calls": ["pass", "3", "pass", "pass"],
                "tricks": [
                    {"leader": 1, "cards": ["9C", "2C", "3C"]},
                    {"leader": 1, "cards": ["7D"]},
                ],
            },
            "trick 1 has 3 of 4 cards but is not the last",
        ),
        (
            {
                "calls": ["pass", "3", "pass", "pass"],
                "tricks": [
                    {"leader": 1, "cards": ["9C", "2C", "3C", "4C"]},
                    {"leader": 0, "cards": ["5C"]},
                ],
            },
            "trick 2 is led by seat 0, but the winner of trick 1 is seat 1",
        ),
        (
            {
                "calls": ["pass", "3", "pass", "pass"],
                "tricks": [
                    {"leader": 1, "cards": ["9C", "2C", "3C", "4C"]},
                    {"leader": 1, "cards": ["2C"]},
                ],
            },
            "2C is played twice",
        ),
        (
            {"calls": ["pass", "3", "pass", "pass"], "pitcher": 2},
            "pitcher is 2 but the calls make it 1",
        ),
        ({"calls": ["pass", "3", "pass", "pass"], "trump": "H"}, "opening lead has not been made"),
        ({"calls": ["pass"], "legal": ["pass", "1"]}, "legal lists pass 1"),
        ({"scores": [0, 0]}, "one per seat (4)"),
        ({"rules": "target=11", "target": 7}, "target is 7 but the rules say 11"),
        ({"partnership": True, "scores": [0, 0, 0, 0]}, "one per team (2)"),
        ([1, 2], "a view is a JSON object"),
    ],
)
def test_impossible_views_refused_in_one_line(doc, words):
    if isinstance(doc, dict):
        base = {"players": 4, "seat": 1, "dealer": 3, "hand": HAND, "calls": []}
        base.update(doc)
        doc = base
    with pytest.raises(ViewError) as e:
        View.from_json(doc)
    assert words in str(e.value) and "\n" not in str(e.value)


def test_text_errors():
    with pytest.raises(ViewError.__mro__[1]):  # InputError
        parse_view("{not json")
