"""``pitchsim hint``'s short form under a called partner (VARIANTS.md 12.1): the hand,
the calls, the trump named and the tricks typed as options, with ``--called`` (the card
every seat heard the pitcher call, 12.1.2, 12.1.4) and, under ``announced``,
``--partner`` (the seat that said so, 12.1.4).  Under ``called`` the partner as the seat
knows him is worked out from its hand and the play (12.1.3); given, it is checked.

The views are cut from whole games of the family game kernel (``test_seats_families.
decisions``): the short form of every card decision reads as that very view.
"""

from __future__ import annotations

import json

import pytest
from clirun import cli, refused
from test_seats_families import decisions

from pitchsim.game.rules import Rules
from pitchsim.game.short_view import short_view
from pitchsim.game.view import ViewError

CALLED, ANNOUNCED = "smear,partner=called", "auction-pitch,trump=named,partner=announced"


def short_form(doc: dict) -> dict:
    """The view's short form as a person types it: no leaders, whose turn worked out."""
    return {
        "hand": " ".join(doc["hand"]),
        "players": doc["players"],
        "dealer": doc["dealer"],
        "calls": ",".join(doc["calls"]),
        "tricks": "; ".join(" ".join(t["cards"]) for t in doc["tricks"]),
        "scores": ",".join(str(x) for x in doc["scores"]),
        "trump": doc["trump"],
        "called": doc["called"],
    }


@pytest.mark.parametrize(("spec", "n"), [(CALLED, 5), (ANNOUNCED, 6)])
def test_12_1_2_and_12_1_4_the_short_form_with_the_call_is_the_view(spec, n):
    """Every card decision of a kernel game: the short form with ``--called`` (and under
    announced ``--partner``, 12.1.4) reads as the very view, the partner as the seat
    knows him included (under called: the holder, a pitcher holding his own call, and
    every seat once the card is down, 12.1.3; null for the others till then).  Under
    called a partner the seat knows may be given too, and one it cannot know yet is
    refused, naming --partner."""
    rules = Rules.parse(spec)
    kinds: dict[str, int] = {}
    for _, view, _, _ in decisions(spec, n, ["heuristic+heuristic"], seed=2, board=0):
        if view.phase != "play":
            continue
        doc = view.to_json()
        words = short_form(doc)
        given = doc["partner"] if spec == ANNOUNCED else None
        got = short_view(**words, rules=rules, partner=given)
        assert got.to_json() == doc, (spec, words)
        if spec == CALLED and doc["partner"] is not None:
            assert short_view(**words, rules=rules, partner=doc["partner"]).to_json() == doc
            kinds["known"] = kinds.get("known", 0) + 1
        elif spec == CALLED:
            other = (doc["pitcher"] + 1) % n
            with pytest.raises(ViewError, match="^--partner: partner is .* cannot know"):
                short_view(**words, rules=rules, partner=other)
            kinds["unknown"] = kinds.get("unknown", 0) + 1
        kinds["cards"] = kinds.get("cards", 0) + 1
    assert kinds["cards"] > 30, kinds
    if spec == CALLED:
        assert kinds.get("known", 0) > 0 and kinds.get("unknown", 0) > 0, kinds


HAND = "AH KH QH 2H 3C 4D"
SHORT = ("hint", "--players", "5", "--hand", HAND, "--dealer", "0", "--calls", "2,pass,pass,pass,pass")  # fmt: skip


def test_12_1_2_hint_answers_the_short_form_as_the_view_file(tmp_path):
    """``hint --hand ... --called JH`` under smear,partner=called answers as the seat's
    view file does (the same worlds, the same values, rollout and pimc)."""
    doc = {
        "rules": CALLED, "players": 5, "seat": 1, "dealer": 0, "hand": HAND.split(),
        "calls": ["2", "pass", "pass", "pass", "pass"], "trump": "H", "called": "JH",
    }  # fmt: skip
    path = tmp_path / "view.json"
    path.write_text(json.dumps(doc))
    asked = ("--worlds", "30", "--seed", "4", "--json", "--time", "60")
    short = (*SHORT, "--rules", CALLED, "--trump", "H", "--called", "JH")
    for policy in ("rollout", "pimc"):
        code, out, err = cli(*short, *asked, "--policy", policy)
        assert code == 0, err
        want = cli("hint", path, *asked, "--policy", policy)
        assert json.loads(out) == json.loads(want[1])


def test_12_1_2_trump_named_and_no_call_given_is_the_pitchers_call_which_hint_does_not_value():
    """Trump named, nothing played and no --called: the pitcher is to call his
    partner's card (12.1.2), a decision hint does not value; one line says so, and how
    to give a call already heard."""
    line = refused(*SHORT, "--rules", CALLED, "--trump", "H")
    assert "seat 1 calls his partner's card: hint values cards" in line
    assert "--called in the short form" in line


@pytest.mark.parametrize(
    ("rules", "more", "words"),
    [
        # a card played, no call given: every seat heard it (12.1.2)
        (CALLED, ("--trump", "H", "--tricks", "AH"), "--called: trump is named, so the pitcher called"),
        (CALLED, ("--trump", "H", "--called", "JS"), "--called: the pitcher called JS, which is not a trump (12.1.2)"),
        (CALLED, ("--trump", "H", "--called", "JH TH"), "--called must be one card"),
        # under announced the holder said so at once (12.1.4)
        ("smear,partner=announced", ("--trump", "H", "--called", "JH"), "--partner: under partner=announced"),
        ("smear,partner=announced", ("--trump", "H", "--called", "JH", "--partner", "7"), "--partner: 7 is not a seat"),
        # no call before trump is named (12.1.2)
        (CALLED, ("--called", "JH"), "--called: no trump is named (--trump), so no partner is called yet"),
        ("smear", ("--trump", "H", "--called", "JH"), "--called: only under partner=called|announced (12.1)"),
    ],
)  # fmt: skip
def test_12_1_2_and_12_1_4_the_short_forms_call_refused_in_one_line(rules, more, words):
    """One line naming the option to mend (and, for the rule, its clause)."""
    line = refused(*SHORT, "--rules", rules, *more, words=words)
    assert line.startswith(("pitchsim: error: --called", "pitchsim: error: --partner"))
    assert "12.1" in line or "is not a seat" in line
