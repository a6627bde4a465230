"""docs/rules.md 12.1 in a player's view (``pitchsim.game.view``, docs/view.md): the card
called is heard by all once called (12.1.2: under called once trump is named; 12.1.4:
under announced after the draw, so from the first card on either way); who the partner
is, only the partner himself knows (and a pitcher holding his own call) until the card
is played under called (12.1.2, 12.1.3), everybody at once under announced (12.1.4); the
pitcher's side for the points follows (12.1.6).  Views are cut from reference-engine
hands (``cut_hand``), read back, and compared decision by decision with the view the
reference engine gave the chooser (its ``legal`` and ``partner``)."""

from __future__ import annotations

import json

import pytest
from random_hands import card_views, random_hands

from pitchsim.game import reference as F
from pitchsim.game.cards import cards_of, parse_card
from pitchsim.game.view import View, ViewError, card_text

SPECS = [
    ("auction-pitch,trump=named,partner=called", 5),
    ("smear,partner=called", 6),
    ("smear,partner=announced", 5),
    ("ten-point,partnership=false,partner=called", 5),  # the draw: rule X passes over it
    ("ten-point,partnership=false,partner=announced", 5),
    ("smear,partner=called,kitty=3", 5),  # the pitcher may take his own call (12.1.5)
    ("auction-pitch,trump=named,partner=called,follow=only", 5),
]


@pytest.mark.parametrize("spec, n", SPECS)
def test_12_1_views_carry_the_call_and_the_partner_as_the_reference_gives_them(spec, n):
    """Every card decision's view reads back with the reference engine's legal cards and
    partner (12.1.3: the partner's trick-1 card is the call), and writes itself back."""
    views = 0
    for rules, hand, ref in random_hands(spec, n, 20, 3):
        cut = list(card_views(rules, hand, n))
        assert len(cut) == len(ref)
        for (seat, doc, action), rv in zip(cut, ref, strict=True):
            v = View.from_json(json.loads(json.dumps(doc)))
            assert v.seat == rv.seat == seat and action in v.legal()
            assert v.legal_cards() == rv.legal, (seat, doc)
            assert v.called == rv.called == hand.play.called >= 0
            assert v.partner == rv.partner, (seat, doc)
            out = v.to_json()
            assert out["called"] == card_text(hand.play.called)
            assert View.from_json(out).to_json() == out
            views += 1
    assert views > 100


@pytest.mark.parametrize("spec, n", [s for s in SPECS if "called" in s[0]])
def test_12_1_2_and_12_1_3_nobody_but_the_holder_sees_the_partner_before_the_card(spec, n):
    """Under called a view names the partner only (a) once the called card is down, or
    (b) in the partner's own view (he holds it), or (c) in the pitcher's view when he
    holds his own call and so plays alone; every other view has partner and
    pitcher_side null.  Once known, the pitcher's side is the pitcher and his partner
    (12.1.6)."""
    hidden = 0
    for rules, hand, _ in random_hands(spec, n, 25, 5):
        p, called, partner = hand.auction.pitcher, hand.play.called, hand.play.partner
        for seat, doc, _ in card_views(rules, hand, n):
            out = View.from_json(doc).to_json()
            down = any(card_text(called) in t["cards"] for t in doc["tricks"])
            holds = bool(hand.play.held[seat] >> called & 1)
            if not down and not holds:
                assert out["partner"] is None and out["pitcher_side"] is None, (seat, doc)
                hidden += 1
            else:
                want = p if partner is None else partner
                assert out["partner"] == want
                assert out["pitcher_side"] == sorted({p, want})
    assert hidden > 20


def test_12_1_4_under_announced_every_seat_knows_the_partner_from_the_first_card():
    for rules, hand, _ in random_hands("smear,partner=announced", 6, 10, 3):
        p, partner = hand.auction.pitcher, hand.play.partner
        for _seat, doc, _ in card_views(rules, hand, 6):
            assert View.from_json(doc).partner == (p if partner is None else partner)


# ---- refusals: one line each ------------------------------------------------------


def first_views(spec="smear,partner=called", n=5, seed=3):
    """(hand, the first card decision's document of a seat that neither is the pitcher
    nor holds the call, and one of the partner's) from the first fitting hand."""
    for rules, hand, _ in random_hands(spec, n, 30, seed):
        p, partner, called = hand.auction.pitcher, hand.play.partner, hand.play.called
        if partner is None:
            continue
        docs = {}
        for seat, doc, _ in card_views(rules, hand, n):
            down = any(card_text(called) in t["cards"] for t in doc["tricks"])
            if seat not in (p, partner) and not down and "other" not in docs:
                docs["other"] = doc
            if seat == partner and "partner" not in docs:
                docs["partner"] = doc
        if len(docs) == 2:
            return hand, docs["other"], docs["partner"]
    raise AssertionError("no hand with a partner")


def refused(doc: dict, match: str) -> None:
    with pytest.raises(ViewError, match=match) as e:
        View.from_json(doc)
    assert "\n" not in str(e.value)


def test_12_1_3_a_view_claiming_the_partner_before_the_card_is_played_is_refused():
    hand, other, _ = first_views()
    refused(
        other | {"partner": hand.play.partner},
        r"cannot know the partner before the called card .* is played \(12.1.2, 12.1.3\)",
    )
    refused(other | {"pitcher_side": [0, 1]}, r"pitcher_side is \[0, 1\], but seat .* \(12.1.6\)")


def test_12_1_2_the_call_is_heard_once_trump_is_named_and_is_a_trump():
    _, other, _ = first_views()
    refused(
        {k: v for k, v in other.items() if k != "called"}, r"called is null or missing.*\(12.1.2\)"
    )
    trump = other["trump"]
    plain = next(s for s in "CDHS" if s != trump and s != {"C": "S", "S": "C"}.get(trump))
    refused(other | {"called": "Q" + plain}, r"called: the pitcher called .* not a trump")
    early = {k: other[k] for k in ("rules", "players", "seat", "dealer", "hand", "calls")}
    refused(early | {"called": other["called"]}, r"no partner is called \(12.1.2, 12.1.4\)")
    refused(
        other | {"rules": "smear", "players": 5}, r"called: only under partner=called\|announced"
    )


@pytest.mark.parametrize("rules", ["auction-pitch", "low=dealt", "smear"])
@pytest.mark.parametrize(
    "field, value", [("called", "AS"), ("partner", 2), ("pitcher_side", [0, 2])]
)
def test_12_1_the_partner_fields_are_refused_under_rules_without_a_called_partner(
    rules, field, value
):
    """docs/view.md: no view of other rules has called, partner or pitcher_side; given
    there they are refused, the base game's view included (never silently dropped)."""
    doc = {
        "rules": rules, "players": 4, "seat": 1, "dealer": 3,
        "hand": ["AH", "KH", "2H", "9C", "7D", "3S"], "calls": ["pass"],
    }  # fmt: skip
    View.from_json(doc | {field: None})  # null: none, as the writers leave it
    refused(doc | {field: value}, rf"{field}: only under partner=called\|announced \(12.1\)")


@pytest.mark.parametrize("seed", [3, 4, 5])
def test_12_1_3_the_partner_must_play_the_call_to_trick_1(seed):
    """The partner's first decision is in trick 1: his one legal card is the call, and
    a view in which he played another card there is refused."""
    _, _, doc = first_views(seed=seed)
    v = View.from_json(doc)
    called = card_text(v.called)
    assert v.to_move == v.seat and len(v.tricks) <= 1
    assert v.legal() == [called]  # 12.1.3
    trick = doc["tricks"][0] if doc["tricks"] else {"leader": v.seat, "seats": [], "cards": []}
    led = [parse_card(x) for x in trick["cards"]]
    free = F.legal_cards(v.hand_mask, led, v.trump, v.preset) & ~(1 << v.called)
    if not free:
        pytest.skip("he holds no other card he could play there")
    other = card_text(cards_of(free)[0])
    played = dict(trick, seats=[*trick.get("seats", []), v.seat], cards=[*trick["cards"], other])
    refused(doc | {"tricks": [played]}, rf"plays {other} to trick 1, but .* \(12.1.3\)")


def test_12_1_4_under_announced_the_partner_is_required_and_checked():
    hand, other, mine = first_views("smear,partner=announced", 5)
    refused({k: v for k, v in other.items() if k != "partner"}, r"partner is null or missing")
    me = mine["seat"]
    wrong = next(s for s in range(5) if s not in (me, hand.auction.pitcher))
    refused(mine | {"partner": wrong}, r"but .* was called and seat .* holds it \(12.1.4\)")


# ---- hint and the engine decide from such a view ------------------------------------


@pytest.mark.parametrize("who", ["other", "partner"])
def test_12_1_hint_and_the_engine_decide_from_the_view(tmp_path, who):
    """``pitchsim hint VIEW.json`` recommends one of the view's legal cards, by rollout
    and by pimc, to a seat that does not know the partner and to the partner (12.1.10);
    the engine decides with a search strategy too, and with its default ``odds+rollout``
    (whose bidder reads the called partner's own rows; a card reads none).  (The
    short form's call: test_partner_hint.)"""
    from clirun import cli

    from pitchsim.table.engine import Engine

    _, other, partner = first_views()
    doc = other if who == "other" else partner
    view = View.from_json(doc)
    path = tmp_path / "view.json"
    path.write_text(json.dumps(doc))
    for policy in ("rollout", "pimc"):
        code, out, _ = cli("hint", path, "--policy", policy, "--worlds", "24", "--json")
        assert code == 0
        assert json.loads(out)["recommended"] in view.legal()
    engine = Engine()
    for strategy in ("heuristic+rollout:16", "random+pimc:8"):
        msg = {"type": "decide", "id": 1, "view": doc, "options": {"strategy": strategy}}
        reply = json.loads(engine.handle(json.dumps(msg)))
        assert (reply["type"], reply["action"] in view.legal()) == ("action", True), reply
    # The default, odds+rollout, plays the card: only a call reads the odds table.
    reply = json.loads(engine.handle(json.dumps({"type": "decide", "id": 2, "view": doc})))
    assert (reply["type"], reply["action"] in view.legal()) == ("action", True), reply


def test_12_1_3_the_documented_example_reads():
    """examples/family_views/called-partner.json (docs/view.md): the partner, and only
    the call is legal in trick 1; the same trick seen by seat 2 names no partner."""
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "examples" / "family_views" / "called-partner.json"
    doc = json.loads(path.read_text())
    out = View.from_json(doc).to_json()
    assert (out["partner"], out["pitcher_side"], out["legal"]) == (0, [0, 1], ["AS"])
    seat2 = doc | {"seat": 2, "hand": ["6C", "7C", "9C", "3H", "4S", "QS"], "legal": None}
    seat2["tricks"] = [{"leader": 1, "seats": [1], "cards": ["9H"]}]
    assert View.from_json(seat2).to_json()["partner"] is None
    refused(seat2 | {"partner": 0}, "cannot know the partner before the called card AS")
