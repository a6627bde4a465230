"""docs/rules.md 12.1.2 and 12.1.4 as a decision: the pitcher's call of his partner's card
is an action (``"call:AS"``) at the open table (``table.game.TableDeal``), asked when the
rules put it (under called once trump is named, before any discard or kitty; under
announced after the draw and any kitty), its legal actions exactly ``callable_cards``;
pitchsim's seats call the highest trump they lack, an outside seat calls what it will
(its own trump too: it then plays alone, 12.1.5), a bad call forfeits its game, the
engine answers the call, and records carry the call as an action (version 2) while a
record of version 1, where the call was pitchsim's and no action, still replays."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest

from pitchsim.game.cards import format_card, mask_of, parse_cards
from pitchsim.game.reference.partner import callable_cards, highest_missing_trump
from pitchsim.game.rules import Rules
from pitchsim.game.view import View, ViewError, partner_call_text
from pitchsim.table.engine import Engine
from pitchsim.table.game import RECORD_VERSION, play_table_game
from pitchsim.table.record import RecordError, replay, views_of
from pitchsim.table.seats import KernelSeat

SEATS = "heuristic+heuristic"


class Caller:
    """An outside seat (a Python object): pitchsim's decisions, but its call of a
    partner's card is ``pick(view)``; it keeps every view it is asked at."""

    def __init__(self, pick=None, log: list | None = None):
        self.seat = KernelSeat(SEATS)
        self.pick = pick
        self.views: list[View] = []
        self.log = log if log is not None else []  # every seat's views, in order

    def call(self, view: View) -> str:
        self.views.append(view)
        self.log.append(view)
        if view.phase == "call" and self.pick is not None:
            return self.pick(view)
        return self.seat.call(view)

    def play(self, view: View) -> str:
        self.views.append(view)
        self.log.append(view)
        return self.seat.play(view)


def game(spec: str, n: int, seed: int, pick=None) -> tuple[dict, list[Caller]]:
    log: list[View] = []
    seats = [Caller(pick, log) for _ in range(n)]
    return play_table_game(seats, Rules.parse(spec), seed), seats


def asked(seats: list[Caller]) -> list[View]:
    """The views of the calls, in the order they were asked."""
    return [v for v in seats[0].log if v.phase == "call"]


def calls_of_hands(spec: str, n: int, seed: int) -> list[tuple[View, dict]]:
    """A game of pitchsim's seats: each call's view with its hand's record, checked as
    every call is: one for each hand bid, the pitcher's, trump named and nothing
    called, its legal actions exactly ``callable_cards`` (12.1.2, 12.1.4)."""
    r = Rules.parse(spec)
    record, seats = game(spec, n, seed)
    views = asked(seats)
    pitched = [h for h in record["hands"] if h["pitcher"] is not None]
    assert pitched and len(views) == len(pitched)
    for v, h in zip(views, pitched, strict=True):
        assert v.seat == v.to_move == h["pitcher"] and v.phase == "call"
        assert v.trump == "CDHS".index(h["trump"]) and v.called == -1
        assert v.legal() == [partner_call_text(c) for c in callable_cards(v.trump, r)]
    return list(zip(views, pitched, strict=True))


def call_actions(record: dict) -> list[dict]:
    return [a for h in record["hands"] for a in h["actions"] if a["action"].startswith("call:")]


@pytest.mark.parametrize(
    ("spec", "n"),
    [
        ("ten-point,partnership=false,partner=called", 5),  # a discard and draw follows
        ("smear,partner=called,kitty=3", 5),  # a kitty follows
    ],
)
def test_12_1_2_the_call_is_asked_once_trump_is_named_before_any_discard_or_kitty(spec, n):
    """12.1.2: the pitcher is asked for the call right after naming trump, from his hand
    as dealt: his view has trump named, nothing drawn, no kitty taken, no call; its
    legal actions are exactly ``callable_cards`` (any trump of the order, 12.1.2);
    pitchsim's seats call the highest trump the hand lacks, and the record holds the
    call as the action right after the naming of trump."""
    r = Rules.parse(spec)
    for v, h in calls_of_hands(spec, n, seed=5):
        assert v.draws == () and v.kitty == () and v.tricks == ()
        assert v.held == v.hand_mask  # the hand as dealt
        mine = highest_missing_trump(v.hand_mask, v.trump, r)
        acts = [a["action"] for a in h["actions"]]
        k = acts.index("trump:" + h["trump"])
        assert acts[k + 1] == partner_call_text(mine) and h["called"] == acts[k + 1][5:]
        # the call's view read back from its JSON: the same decision
        again = View.from_json(json.loads(json.dumps(v.to_json())))
        assert again.phase == "call" and again.legal() == v.legal()


@pytest.mark.parametrize(
    ("spec", "n"),
    [
        ("ten-point,partnership=false,partner=announced", 5),  # after the discard and draw
        ("smear,partner=announced,kitty=3", 6),  # after the kitty
    ],
)
def test_12_1_4_the_announced_call_is_asked_after_the_draw_and_the_kitty(spec, n):
    """12.1.4: under announced the pitcher calls after the discard and draw and any
    kitty: his view carries them and his hand then (``held``); legal is any card of
    the pack (``callable_cards``); pitchsim calls the highest trump that hand lacks."""
    r = Rules.parse(spec)
    for v, h in calls_of_hands(spec, n, seed=2):
        assert v.draws or v.kitty  # made before the call
        assert not v.tricks
        held = mask_of(parse_cards(" ".join(h["held"][v.seat]), r.jokers))
        assert v.held == held
        assert h["called"] == partner_call_text(highest_missing_trump(held, v.trump, r))[5:]
        doc = v.to_json()
        assert doc["held"] == h["held"][v.seat] and doc["called"] is None
        View.from_json(json.loads(json.dumps(doc)))


def test_12_1_5_an_outside_seat_calling_its_own_trump_plays_alone_and_the_record_replays():
    """12.1.2 lets the pitcher call a trump he holds; then nobody else holds it and he
    plays alone (12.1.5).  An outside seat that calls its highest held trump: the record
    carries its call as an action and ``partner`` null; it replays as written, and
    ``views_of`` gives the call's view with the call taken."""
    spec = "smear,partner=called"

    def own_highest(v: View) -> str:
        mine = [a for a in v.legal() if mask_of(parse_cards(a[5:], 2)) & v.hand_mask]
        return mine[-1].lower()  # in any case, as every action

    record, _ = game(spec, 5, seed=11, pick=own_highest)
    assert record["version"] == RECORD_VERSION == 4
    pitched = [h for h in record["hands"] if h["pitcher"] is not None]
    assert pitched
    for h in pitched:
        (call,) = [a for a in h["actions"] if a["action"].startswith("call:")]
        assert call["seat"] == h["pitcher"]
        assert h["called"] in h["hands"][h["pitcher"]]  # his own
        assert h["partner"] is None  # 12.1.5: alone
        assert call["action"] == "call:" + h["called"]
    doc = json.loads(json.dumps(record))
    assert replay(doc, strategies=False) == doc
    taken = [(v.seat, act) for v, act in views_of(doc) if v.phase == "call"]
    assert taken == [(a["seat"], a["action"]) for a in call_actions(doc)]


def test_a_record_of_version_1_without_the_call_still_replays():
    """docs/record.md: a record written before the call was an action (version 1) has
    no call among its actions; the table made pitchsim's call, which its ``called``
    carries.  It replays as written; the same record as version 2 (the call missing) is
    refused naming the call, and a version-1 record whose ``called`` is not pitchsim's
    is refused."""
    record, _ = game("smear,partner=called", 5, seed=5)
    assert call_actions(record)
    old = json.loads(json.dumps(record))
    old["version"] = 1
    for h in old["hands"]:
        h["actions"] = [a for a in h["actions"] if not a["action"].startswith("call:")]
    assert replay(old, strategies=False) == old
    assert [v.phase for v, _ in views_of(old)].count("call") == 0
    new = dict(old, version=2)
    with pytest.raises(RecordError, match=r"is not a legal action \(legal: call:"):
        replay(new, strategies=False)
    edited = json.loads(json.dumps(old))
    h = next(h for h in edited["hands"] if h.get("called"))
    h["called"] = "2" + h["trump"] if h["called"][0] != "2" else "3" + h["trump"]
    with pytest.raises(RecordError, match="called is"):
        replay(edited, strategies=False)
    with pytest.raises(RecordError, match="this pitchsim reads 1, 2, 3 and 4"):
        replay(dict(record, version=5), strategies=False)


def test_12_1_2_a_call_outside_legal_forfeits_the_game_with_its_reason():
    """An outside seat's call that is not legal (a card not of the trump order under
    called, 12.1.2; not a card at all) forfeits its game, the reason in the record; the
    table never calls in its place."""
    for bad in ("call:2X", "AS", "call:"):

        def wrong(v: View, bad=bad) -> str:
            if bad == "call:2X":  # a card of another suit than trump
                suit = "CDHS"[(v.trump + 1) % 4]
                return f"call:2{suit}"
            return bad

        record, _ = game("smear,partner=called", 5, seed=5, pick=wrong)
        f = record["forfeit"]
        assert f is not None and "is not a legal action (legal: call:" in f["reason"]
        last = record["hands"][-1]
        assert last["incomplete"] and last["actions"][-1]["action"].startswith("trump:")
        assert f["seat"] == last["actions"][-1]["seat"]  # the pitcher, at his call
        assert replay(json.loads(json.dumps(record)), strategies=False)["forfeit"] == f


BOT = """
import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m["type"] == "hello":
        print(json.dumps({"type": "hello", "protocol": "pitch-engine/1", "name": "bot"}), flush=True)
        continue
    if m["type"] == "quit":
        break
    legal = m["view"]["legal"]
    act = legal[0]
    if m["view"]["phase"] == "auction":  # the highest bid, so that it pitches
        bids = [a for a in legal if a.isdigit()]
        act = bids[-1] if bids else legal[0]
    if m["view"]["phase"] == "call":
        act = "call:" + ("2C" if m["view"]["trump"] != "C" else "2D")  # not a trump
    print(json.dumps({"type": "action", "id": m["id"], "action": act}), flush=True)
"""


def test_12_1_2_a_cmd_seat_is_asked_for_the_call_and_a_bad_one_forfeits(tmp_path: Path):
    """A ``cmd:`` seat (docs/protocol.md) is asked for the call like any decision (the
    view's phase ``call``, its legal ``call:XX``); a call outside them forfeits its game,
    the reason named."""
    p = tmp_path / "bot.py"
    p.write_text(BOT)
    cmd = "cmd:" + shlex.join([sys.executable, str(p)])
    record = play_table_game([cmd] * 5, Rules.parse("smear,partner=called"), 3)
    f = record["forfeit"]
    assert f is not None and "'call:2" in f["reason"] and "legal: call:" in f["reason"]
    assert record["hands"][-1]["actions"][-1]["action"].startswith("trump:")


def test_12_1_2_the_engine_answers_the_call_and_refuses_a_bad_one():
    """``pitchsim engine`` (docs/protocol.md): a decide at the call answers pitchsim's
    call, the highest trump the pitcher lacks, whatever the strategy; the same moment
    for another seat is no decision of its own (``not-to-act``); a view whose call is
    no trump (12.1.2) is an ``error`` reply, never a crash."""
    r = Rules.parse("smear,partner=called")
    record, seats = game("smear,partner=called", 5, seed=5)
    v = asked(seats)[0]
    doc = json.loads(json.dumps(v.to_json()))
    e = Engine()
    for strategy in ("heuristic+heuristic", "odds+rollout:8"):
        msg = {"type": "decide", "id": 1, "view": doc, "options": {"strategy": strategy}}
        reply = e.answer(json.dumps(msg))
        want = partner_call_text(highest_missing_trump(v.hand_mask, v.trump, r))
        assert reply == {"type": "action", "id": 1, "action": want}
    other = dict(doc, seat=(v.seat + 1) % 5, hand=[], legal=[])
    other["hand"] = next(
        h["hands"][other["seat"]] for h in record["hands"] if h["pitcher"] == v.seat
    )
    reply = e.answer(json.dumps({"type": "decide", "id": 2, "view": other}))
    assert reply["type"] == "error" and reply["code"] == "not-to-act"
    assert "calls his partner's card" in reply["message"]
    # A view after the call whose call is not a trump: refused, in one line.
    play = next(x for x in seats[v.seat].views if x.phase == "play")
    bad = json.loads(json.dumps(play.to_json()))
    bad["called"] = "2" + "CDHS"[(play.trump + 1) % 4]
    bad.pop("pitcher_side", None)
    reply = e.answer(json.dumps({"type": "decide", "id": 3, "view": bad}))
    assert reply["type"] == "error" and reply["code"] == "bad-view"
    assert "which is not a trump (12.1.2)" in reply["message"]


def test_12_1_2_a_view_refuses_a_call_out_of_its_place():
    """The view (docs/view.md): a call given before trump is named, a partner given
    before the call, and no call once the discard and draw is made, are refused."""
    r = Rules.parse("ten-point,partnership=false,partner=called")
    record, seats = game("ten-point,partnership=false,partner=called", 5, seed=5)
    v = asked(seats)[0]
    doc = json.loads(json.dumps(v.to_json()))
    with pytest.raises(ViewError, match="partner is 2, but the pitcher has not called"):
        View.from_json(dict(doc, partner=2))
    named = next(x for x in seats[v.seat].views if x.phase == "trump")
    early = json.loads(json.dumps(named.to_json())) | {"called": doc["legal"][-1][5:]}
    with pytest.raises(ViewError, match="no partner is called"):
        View.from_json(early)
    play = next(x for x in seats[v.seat].views if x.phase == "play")
    late = json.loads(json.dumps(play.to_json())) | {"called": None, "partner": None}
    late.pop("pitcher_side", None)
    with pytest.raises(ViewError, match="is made, so the pitcher called his partner's card"):
        View.from_json(late)
    assert r.partner == "called"


def test_12_1_2_practice_asks_the_person_for_the_call_and_the_coach_names_pitchsims():
    """A person who pitches at a called-partner table is asked for the call, the legal
    cards shown and numbered; a call other than pitchsim's gets the coach's words on
    what pitchsim calls and why, and what the call costs against it (a note, not a
    judgement: the save's judgements hold none)."""
    from pitchsim.coach.practice import practice

    r = Rules.parse("smear,partner=called")
    for seed in range(1, 12):
        out: list[str] = []
        asked_call: list[str] = []

        def read(prompt: str, asked_call=asked_call) -> str:
            if "partner's card" in prompt:
                asked_call.append(prompt)
                return "2s"  # by name: the lowest spade, not pitchsim's call
            if "trump>" in prompt:
                return "1"  # the first suit shown: spades
            if "call>" in prompt:
                return "5"
            return "q"  # the first card: stop there

        record, js = practice(
            5, 0, "heuristic+heuristic", r, seed, read=read, write=out.append,
            samples=40, worlds=4, time=None,
        )  # fmt: skip
        if asked_call:
            break
    assert asked_call, "the person never pitched"
    text = "\n".join(out)
    assert "call your partner's card (its holder is your partner): 1:" in text
    (call,) = call_actions(record)
    assert call["seat"] == 0 and call["action"].startswith("call:")
    v = next(v for v, a in views_of(record) if v.phase == "call")
    assert call["action"] == "call:2S" and v.trump == 3
    want = highest_missing_trump(v.hand_mask, v.trump, r)
    assert f"coach: pitchsim calls {format_card(want)}, the highest trump you lack" in text
    assert ("you hold 2♠ yourself" if v.hand_mask >> 3 * 13 & 1 else "2♠ is lower") in text
    assert all(not j.chosen.startswith("call:") for j in js)  # said, not judged
    # review shows the call with pitchsim's and the coach's words, and judges the rest
    from pitchsim.coach.review import review

    rv = review(record, 0, seed, samples=40, worlds=4, time=None)
    assert rv.partner_calls == [
        {
            "hand": 1,
            "decision": rv.partner_calls[0]["decision"],
            "called": "call:2S",
            "pitchsim": partner_call_text(want),
            "note": rv.partner_calls[0]["note"],
        }
    ]
    assert rv.partner_calls[0]["note"].startswith("coach: pitchsim calls")
    # the call valued against pitchsim's on the same deals, in practice and in review
    # alike (the coach's seed of the decision)
    (said,) = [line for line in out if line.startswith("coach: pitchsim calls")]
    assert "deals fitting your hand" in said and said == rv.partner_calls[0]["note"]
    assert [j.kind for j in rv.judgements] == [j.kind for j in js]
    # the save keeps the note, by the seat's decision count and action
    (kept,) = record["practice"]["notes"]
    assert kept["action"] == "call:2S" and kept["text"] == said
    assert kept["decision"] == rv.partner_calls[0]["decision"]


def test_a_saved_note_is_shown_by_the_pages_review_not_valued_again(monkeypatch):
    """The coach's notes on a call or put-down are in the save (``practice.notes``):
    the page's review shows them instead of valuing the decisions again (a note takes
    seconds), a review with ``again`` values them anew, and a save whose notes are
    not typed as written is refused as damaged, in one line."""
    import pitchsim.coach.review as coach_review
    import pitchsim.web.review as web_review
    from pitchsim.coach.practice import PracticeError, practice, read_save

    r = Rules.parse("smear,partner=called")
    for seed in range(1, 12):
        said: list[str] = []

        def read(prompt: str, said=said) -> str:
            if "partner's card" in prompt:
                said.append(prompt)
                return "2s"
            return {"trump>": "1", "call>": "5"}.get(prompt.split()[-1], "q")

        record, _ = practice(
            5, 0, "heuristic+heuristic", r, seed, read=read, write=lambda _t: None,
            samples=40, worlds=4, time=None,
        )  # fmt: skip
        if said:
            break
    assert said, "the person never pitched"
    record = json.loads(json.dumps(record))
    (kept,) = record["practice"]["notes"]
    kept["text"] = "coach: the note as saved."  # (so a note valued again would differ)

    def no_valuing(*_a, **_k):
        raise AssertionError("a saved note valued again")

    monkeypatch.setattr(coach_review, "choice_note", no_valuing)  # (the page's too: note_on)
    page = web_review.review_record(record, 0, 40, 4, time=None)
    (step,) = [s for s in page["steps"] if s["view"]["phase"] == "call"]
    assert step["note"] == "coach: the note as saved."
    with pytest.raises(AssertionError, match="valued again"):
        web_review.review_record(record, 0, 40, 4, again=True, time=None)
    read_save(record, "g.json")  # the note as written reads back
    for bad in ({**kept, "decision": "3"}, {"text": "x"}):
        damaged = json.loads(json.dumps(record))
        damaged["practice"]["notes"] = [bad]
        with pytest.raises(PracticeError, match="g.json is damaged: practice: note 1") as e:
            read_save(damaged, "g.json")
        assert "\n" not in str(e.value)


def test_a_practice_save_of_version_1_goes_on_unless_a_partner_was_called():
    """A practice save written before the call was an action (record version 1) is
    the same game as version 2's without a called partner, and goes on; under a called
    partner (12.1) it replays but is refused going on, in one line."""
    from pitchsim.coach.practice import PracticeError, practice, read_save

    for spec, n in (("smear", 4), ("smear,partner=called", 5)):
        record, _ = practice(
            n, 0, "heuristic+heuristic", Rules.parse(spec), 3, read=lambda p: "q",
            write=lambda t: None, coach=False,
        )  # fmt: skip
        assert record["stopped"] and record["version"] == RECORD_VERSION
        old = json.loads(json.dumps(record)) | {"version": 1}
        assert read_save(json.loads(json.dumps(record)), "new.json").seat == 0
        if spec == "smear":
            assert read_save(old, "old.json").doc["version"] == RECORD_VERSION
        else:
            with pytest.raises(PracticeError, match="old.json was saved before the call"):
                read_save(old, "old.json")


def test_12_1_2_hint_and_advise_say_in_one_line_that_a_call_view_is_the_partners_card(tmp_path):
    """``hint`` values cards and ``advise`` calls in the auction: given the view of the
    pitcher's call of a partner's card each says what the decision is, in one line."""
    from clirun import refused

    _, seats = game("smear,partner=called", 5, seed=5)
    path = tmp_path / "call.json"
    path.write_text(json.dumps(asked(seats)[0].to_json()))
    assert "calls his partner's card: hint values cards" in refused("hint", str(path))
    assert "the pitcher calls his partner's card (12.1)" in refused("advise", str(path))


@pytest.mark.parametrize(
    ("spec", "n"),
    [
        ("smear,partner=called", 5),
        ("ten-point,partnership=false,partner=announced", 5),
        ("smear,partner=announced,kitty=3", 6),
    ],
)
def test_cut_hand_cuts_the_call_where_the_rules_put_it(spec, n):
    """``cut_hand`` (a reference-engine hand's views, decision by decision) cuts the
    pitcher's call: right after the naming of trump under called (12.1.2), after the
    draw or the kitty and before the first card under announced (12.1.4); each reads
    back as the call's view, its legal actions ``callable_cards``, pitchsim's call
    the one taken."""
    from random_hands import random_hands

    from pitchsim.game.view import cut_hand

    r = Rules.parse(spec)
    cut = 0
    for rules, hand, _ in random_hands(spec, n, 12, 7):
        decisions = list(cut_hand(hand, n, rules, [0] * n))
        actions = [a for _, _, a in decisions]
        calls = [i for i, a in enumerate(actions) if a.startswith("call:")]
        if hand.play.tricks[0][0] != hand.auction.pitcher and r.partner == "announced":
            assert r.follow == "only" and not calls  # passed over: not cut (cut_hand)
            continue
        (i,) = calls
        seat, doc, action = decisions[i]
        v = View.from_json(json.loads(json.dumps(doc)))
        assert v.phase == "call" and seat == v.to_move == v.pitcher
        assert v.legal() == [partner_call_text(c) for c in callable_cards(v.trump, r)]
        assert action == partner_call_text(highest_missing_trump(v.held, v.trump, r))
        assert actions[i - 1].startswith("trump:") and not actions[i + 1].startswith("trump:")
        assert bool(v.draws or v.kitty) == (r.partner == "announced")
        cut += 1
    assert cut
