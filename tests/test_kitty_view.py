"""docs/rules.md 12.2.2 in a player's view (``pitchsim.game.view``, docs/protocol.md): the
pitcher knows the kitty he took and what he put down; every other seat knows only that
N cards went to him and N went down face down.  Views are cut from reference-engine
games (``cut_hand``), replayed and checked; the search's knowledge of a view
(``view_knowledge``) holds the put-down out of play for the pitcher alone."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from random_hands import random_hands

from pitchsim.game.cards import cards_of, mask_of, parse_cards
from pitchsim.game.rules import Rules
from pitchsim.game.view import View, ViewError, card_text, cut_hand
from pitchsim.table.decide import view_knowledge

SPECS = [("auction-pitch,trump=named,kitty=3", 4), ("five-point,kitty=3", 4), ("smear,kitty=4", 3)]
# and the kitty under discard=choice and draw (12.8.1, 12.8.2: he comes down in his turn)
SPECS += [("smear,kitty=3,discard=draw", 4), ("smear,kitty=2,deal=9,discard=choice", 4)]


@pytest.mark.parametrize("spec, n", SPECS)
def test_12_2_5_views_replay_and_only_the_pitcher_sees_the_kitty(spec, n):
    """Every decision's view of random hands reads back (checked), gives the action
    taken as legal, holds the pitcher's hand in play as ``held``, and: the pitcher's
    ``kitty.mine`` names the kitty and his put-down; another seat's document names no
    card of the kitty or of the put-down that it did not see played."""
    views = 0
    for rules, hand, _ in random_hands(spec, n, 25, seed=2):
        p = hand.auction.pitcher
        kitty, put_down = hand.draw.robbed, hand.draw.put_down
        for seat, doc, action in cut_hand(hand, n, rules, [0] * n):
            v = View.from_json(json.loads(json.dumps(doc)))
            assert action in v.legal()
            out = v.to_json()
            if v.phase != "play":
                assert out["kitty"] is None
                continue
            assert out["kitty"]["taken"] == len(kitty)
            assert out["kitty"]["put_down"] == len(put_down)
            assert mask_of(parse_cards(" ".join(out["held"]))) == hand.play.held[seat]
            if seat == p:
                assert out["kitty"]["mine"]["taken"] == doc["kitty"]["mine"]["taken"]
                assert sorted(v.put_down) == sorted(put_down)
            else:
                assert "mine" not in out["kitty"] and "mine" not in doc["kitty"]
                played = {c for t in v.tricks for c in t.cards}
                text = json.dumps(doc)
                for c in (set(kitty) | set(put_down)) - played - set(v.hand):
                    assert f'"{card_text(c)}"' not in text, (seat, card_text(c))
            views += 1
    assert views > 100


@pytest.mark.parametrize("spec, n", SPECS[:2])
def test_12_2_5_the_search_knows_the_put_down_out_of_play_for_the_pitcher_alone(spec, n):
    for rules, hand, _ in random_hands(spec, n, 15, seed=4):
        p = hand.auction.pitcher
        put_down = mask_of(hand.draw.put_down)
        for seat, doc, _ in cut_hand(hand, n, rules, [0] * n):
            v = View.from_json(doc)
            if v.phase != "play" or v.to_move != seat:
                continue
            k = view_knowledge(v)
            if seat == p:
                assert int(k.known_out) == put_down
                assert int(k.counts[n]) == 0  # he knows what went down
            else:
                assert int(k.known_out) == 0  # a defender knows no card out of play
                assert int(k.counts[n]) == len(hand.draw.put_down)


def _pitcher_view(spec="five-point,kitty=3"):
    for rules, hand, _ in random_hands(spec, 4, 10, seed=9):
        p = hand.auction.pitcher
        for seat, doc, _ in cut_hand(hand, 4, rules, [0] * 4):
            if seat == p and doc.get("tricks"):
                return doc, hand
    raise AssertionError("no pitcher view")


def test_12_2_2_a_view_with_a_wrong_kitty_is_refused_in_one_line():
    doc, hand = _pitcher_view()
    bad = json.loads(json.dumps(doc))
    bad["kitty"]["mine"]["taken"] = bad["kitty"]["mine"]["taken"][:-1]
    with pytest.raises(ViewError, match="12.2.2") as e:
        View.from_json(bad)
    assert "\n" not in str(e.value)
    bad = json.loads(json.dumps(doc))
    # the put-down is his choice (tests/test_put_down_choice.py), of the cards he held
    theirs = card_text(cards_of(hand.dealt[(hand.auction.pitcher + 1) % 4])[0])
    bad["kitty"]["mine"]["put_down"] = [*bad["kitty"]["mine"]["put_down"][:2], theirs]
    with pytest.raises(ViewError, match="12.2.2"):
        View.from_json(bad)
    bad = json.loads(json.dumps(doc))
    bad["kitty"]["put_down"] = 2
    with pytest.raises(ViewError, match="kitty: put_down is 2"):
        View.from_json(bad)
    bad = json.loads(json.dumps(doc))
    bad["kitty"]["mine"]["taken"] = [bad["hand"][0], *bad["kitty"]["mine"]["taken"][1:]]
    with pytest.raises(ViewError, match="already in its own hand"):
        View.from_json(bad)


def test_12_2_2_another_seat_given_kitty_cards_is_refused():
    doc, hand = _pitcher_view()
    other = (hand.auction.pitcher + 1) % 4
    bad = json.loads(json.dumps(doc))
    bad["seat"] = other
    bad["hand"] = [card_text(c) for c in cards_of(hand.dealt[other])]
    with pytest.raises(ViewError, match="only the pitcher takes it"):
        View.from_json(bad)


def test_12_2_a_kitty_given_without_one_is_refused():
    doc = {
        "rules": "five-point", "players": 4, "seat": 1, "dealer": 0,
        "hand": ["AH", "KH", "2H", "9C", "7D", "3S"], "calls": [],
        "kitty": {"taken": 3, "put_down": 3},
    }  # fmt: skip
    with pytest.raises(ViewError, match="deals no kitty"):
        View.from_json(doc)
    # The base game's view too (docs/view.md: refused, never silently dropped).
    for rules in ("auction-pitch", "low=dealt"):
        with pytest.raises(ViewError, match=r"kitty: auction-pitch\S* deals no kitty"):
            View.from_json(doc | {"rules": rules})
        assert View.from_json(doc | {"rules": rules, "kitty": None}).players == 4


def test_12_2_no_kitty_writes_no_kitty_field():
    doc = {
        "rules": "five-point", "players": 4, "seat": 1, "dealer": 0,
        "hand": ["AH", "KH", "2H", "9C", "7D", "3S"], "calls": [],
    }  # fmt: skip
    assert "kitty" not in View.from_json(doc).to_json()


def _seat_views(spec="smear,kitty=3", n=4):
    """A defender's view once the play began, and one of the auction before trump."""
    play = auction = None
    for rules, hand, _ in random_hands(spec, n, 10, seed=9):
        p = hand.auction.pitcher
        for seat, doc, _ in cut_hand(hand, n, rules, [0] * n):
            if seat != p and doc.get("tricks") and play is None:
                play = doc
            if not doc.get("trump") and auction is None:
                auction = doc
        if play is not None and auction is not None:
            return play, auction
    raise AssertionError("no defender's view")


def test_12_2_2_a_view_without_the_kitty_once_trump_is_named_is_refused():
    """Every seat saw the pitcher take the kitty once trump was named: each view then
    carries ``kitty`` (docs/view.md); a defender's view leaving it out, or giving null,
    is refused in one line saying what it holds.  Before trump is named a view needs
    none, and the counts stay optional (checked when given)."""
    play, auction = _seat_views()
    for bad, said in (
        ({k: v for k, v in play.items() if k != "kitty"}, "kitty is missing"),
        (play | {"kitty": None}, "kitty is null"),
    ):
        with pytest.raises(ViewError, match="12.2.2") as e:
            View.from_json(json.loads(json.dumps(bad)))
        message = str(e.value)
        assert message.startswith(said) and "\n" not in message, message
        assert '"kitty": {"taken": 3, "put_down": 3}' in message
    View.from_json(play | {"kitty": {}})
    View.from_json(play)
    assert "kitty" not in auction or auction["kitty"] is None
    View.from_json({k: v for k, v in auction.items() if k != "kitty"})
    # the pitcher's own view without it: his kitty's cards are missing (12.2.2)
    doc, _ = _pitcher_view("smear,kitty=3")
    with pytest.raises(ViewError, match="12.2.2"):
        View.from_json({k: v for k, v in doc.items() if k != "kitty"})


def test_12_2_2_the_engine_answers_a_view_without_the_kitty_with_bad_view():
    """``pitchsim engine`` (docs/protocol.md), as a process: one error reply, code
    bad-view, the view loader's line; the same view with its kitty is decided."""
    play, _ = _seat_views()
    bad = {k: v for k, v in play.items() if k != "kitty"}
    cheap = {"strategy": "heuristic+heuristic"}
    lines = "".join(
        json.dumps({"type": "decide", "id": i, "view": v, "options": cheap}) + "\n"
        for i, v in ((1, bad), (2, play))
    )
    done = subprocess.run(
        [sys.executable, "-m", "pitchsim", "engine"],
        input=lines, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    first, second = (json.loads(line) for line in done.stdout.splitlines())
    assert first["type"] == "error" and first["id"] == 1 and first["code"] == "bad-view"
    assert first["message"].startswith("kitty is missing, but trump is named"), first
    assert "\n" not in first["message"]
    assert second["type"] == "action" and second["id"] == 2, second


def test_12_2_2_the_short_form_gives_a_defender_the_kitty_once_trump_is_named():
    """``hint --hand``'s short form (``game.short_view``) has no words for the kitty's
    counts: a defender's view it writes carries the kitty as the rules make it, and the
    pitcher's needs --kitty, its cards (12.2.2)."""
    from pitchsim.game.short_view import short_view

    rules = Rules.parse("smear,kitty=3")
    defender, _ = _seat_views()
    pitcher, _ = _pitcher_view("smear,kitty=3")
    for doc in (defender, pitcher):
        words = dict(
            players=4, dealer=doc["dealer"], calls=",".join(doc["calls"]), seat=doc["seat"],
            tricks="; ".join(" ".join(t["cards"]) for t in doc["tricks"]),
            rules=rules, trump=doc["trump"],
        )  # fmt: skip
        if doc is defender:
            v = short_view(" ".join(doc["hand"]), **words)
            assert v.to_json()["kitty"] == {"taken": 3, "put_down": 3}
        else:
            with pytest.raises(ViewError, match="--kitty: you pitched"):
                short_view(" ".join(doc["hand"]), **words)
            taken = " ".join(doc["kitty"]["mine"]["taken"])
            v = short_view(" ".join(doc["hand"]), kitty=taken, **words)
            assert v.to_json()["kitty"]["mine"]["taken"] == doc["kitty"]["mine"]["taken"]


def test_12_2_2_the_advisor_decides_every_view_of_a_kitty_game():
    """The advisor's calls and naming of trump, and its search's cards, asked at a table
    and at the engine under smear,kitty=3, every view carrying the kitty as 12.2.2 has it
    (null in the auction, counts once trump is named).  The advisor asks its call again
    for the trump it planned from the view it is given (``table.decide``), never
    from a view cut back to the auction, which would have to leave the kitty out."""
    from pitchsim.table.engine import Engine
    from pitchsim.table.game import play_table_game
    from pitchsim.table.record import views_of

    seats = ["advisor+heuristic", "heuristic", "odds+heuristic", "heuristic"]
    doc = play_table_game(seats, Rules.parse("smear,kitty=3"), 5, 1)
    engine = Engine("advisor+heuristic", samples=64)
    phases = set()
    for i, (view, _) in enumerate(views_of(doc)):
        j = view.to_json()
        phases.add((view.phase, j["kitty"] is not None))
        reply = engine.answer(json.dumps({"type": "decide", "id": i, "view": j}))
        assert reply["type"] == "action" and reply["action"] in view.legal(), reply
    assert phases == {("auction", False), ("trump", False), ("put_down", True), ("play", True)}


SHOWN_SPECS = [
    ("smear,kitty=3,discards=shown", 4),
    ("smear,kitty=3,discard=draw,discards=shown", 4),
]


@pytest.mark.parametrize("spec, n", SHOWN_SPECS)
def test_12_9_1_under_discards_shown_every_seat_sees_the_kitty_put_down(spec, n):
    """12.9.1: the pitcher's put-down is a discard of the hand, face up under
    discards=shown: every seat's ``kitty.shown`` is the put-down, and the search holds
    it out of play for every seat, with no face-down pile; the kitty's cards he keeps
    stay unseen by the others."""
    views = 0
    for rules, hand, _ in random_hands(spec, n, 15, seed=4):
        p = hand.auction.pitcher
        put_down = mask_of(hand.draw.put_down)
        kept = set(hand.draw.robbed) - set(hand.draw.put_down)
        for seat, doc, _ in cut_hand(hand, n, rules, [0] * n):
            v = View.from_json(json.loads(json.dumps(doc)))
            if v.phase != "play" or v.to_move != seat:
                continue
            out = v.to_json()
            assert mask_of(parse_cards(" ".join(out["kitty"]["shown"]))) == put_down
            k = view_knowledge(v)
            assert int(k.known_out) & put_down == put_down
            assert int(k.counts[n]) == 0  # nothing put down unseen
            if seat != p:
                played = {c for t in v.tricks for c in t.cards}
                text = json.dumps(doc)
                for c in kept - played:
                    assert f'"{card_text(c)}"' not in text, (seat, card_text(c))
            views += 1
    assert views > 30


def test_12_9_1_a_kitty_shown_wrongly_is_refused_in_one_line():
    for rules, hand, _ in random_hands("smear,kitty=3,discards=shown", 4, 10, seed=9):
        p = hand.auction.pitcher
        docs = [d for s, d, _ in cut_hand(hand, 4, rules, [0] * 4) if s != p and d.get("tricks")]
        if docs:
            break
    doc = docs[0]
    bad = json.loads(json.dumps(doc))
    bad["kitty"]["shown"] = bad["kitty"]["shown"][:-1]  # part of the put-down
    with pytest.raises(ViewError, match="12.9.1") as e:
        View.from_json(bad)
    assert "\n" not in str(e.value)
    bad = json.loads(json.dumps(doc))
    bad["kitty"]["shown"] = [bad["hand"][0], *bad["kitty"]["shown"][1:]]  # an own card
    with pytest.raises(ViewError, match="already in its own hand"):
        View.from_json(bad)
    bad = json.loads(json.dumps(doc))
    bad["rules"] = bad["rules"].replace("discards=shown", "discards=hidden")
    with pytest.raises(ViewError, match="discards=hidden"):
        View.from_json(bad)
