"""The put-down under discard=draw (docs/rules.md 12.8.2) and discards=shown (12.9,
12.9.1) as a decision at the table: one card an action (``"down:4D"``); under draw
any non-trump, a trump only while more than 6 trumps are held, 3 cards kept, and
``"draw"`` (legal once 6 or fewer are held) ends the put-down and draws back to 6,
seen by the seats after; under discards=shown each card goes down face up, seen by
every seat at once.  pitchsim's seats put down by 12.8.3's rule and say ``"draw"``
never (the table stops a seat that may put down no more)."""

from __future__ import annotations

import json

import pytest
from test_put_down_choice import _walk

from pitchsim.game import reference as F
from pitchsim.game.cards import mask_of, parse_cards
from pitchsim.game.rules import Rules
from pitchsim.game.view import View, ViewError, card_text

DRAW = [
    ("auction-pitch,deal=9,discard=draw,trump=named", 4),
    ("smear,kitty=3,discard=draw", 4),
    ("smear,deal=9,discard=draw,discards=shown", 4),
]


class Chooser:
    """An outside seat: pitchsim's decisions, but under discard=draw it says ``draw`` as
    soon as it may (keeping up to 6) or, ``most``, puts down every card it may (12.8.2)."""

    def __init__(self, most: bool):
        from pitchsim.table.seats import KernelSeat

        self.most, self.seat = most, KernelSeat("heuristic+heuristic")

    def call(self, view):
        if view.phase == "put_down" and view.drawing:
            downs = [a for a in view.legal() if a != "draw"]
            return downs[0] if (self.most and downs) or "draw" not in view.legal() else "draw"
        return self.seat.call(view)

    def play(self, view):
        return self.seat.play(view)


def _card(action: str) -> int:
    return parse_cards(action[len("down:") :])[0]


def _rule_legal(v: View) -> set[str]:
    """12.8.2 worked out apart from the code under test: any non-trump and a trump only
    while more than 6 trumps are held, never below 3 cards; draw once 6 or fewer."""
    kept = list(v.kept)
    trumps = [c for c in kept if F.is_trump(c, v.trump, v.preset)]
    legal = set()
    if len(kept) > 3:
        legal = {
            "down:" + card_text(c)
            for c in kept
            if c != v.called and (len(trumps) > 6 or c not in trumps)
        }
    if len(kept) <= 6:
        legal.add("draw")
    return legal


@pytest.mark.parametrize("spec, n", DRAW)
def test_12_8_2_each_seat_puts_down_what_the_rule_allows_in_turn(spec, n):
    """Every drawing seat is asked in turn from the dealer's left, the dealer last, its
    legal actions 12.8.2's; the kitty's pitcher only comes down to 6 (no ``draw``,
    12.2.2); while a seat puts down, the seats before it have drawn (their counts seen
    by all), those after have put down nothing, and its view names it
    (``draw.putting_down``); each view reads back from its JSON."""
    r = Rules.parse(spec)
    asked = 0
    for g in range(5):
        doc, views = _walk(spec, n, g, False, lambda v: None)
        if doc["pitcher"] is None:
            continue
        order = [(doc["dealer"] + 1 + i) % n for i in range(n)]
        downs = [v for v in views if v.phase == "put_down"]
        assert [v.seat for v in downs] == sorted((v.seat for v in downs), key=order.index)
        for v in downs:
            asked += 1
            kitty = r.kitty and v.seat == doc["pitcher"]
            assert v.drawing == (not kitty)
            if kitty:
                assert "draw" not in v.legal() and len(v.kept) > 6
                continue
            assert set(v.legal()) == _rule_legal(v)
            out = json.loads(json.dumps(v.to_json()))
            assert out["draw"]["putting_down"] == v.seat
            back = View.from_json(out)
            assert back.legal() == v.legal() and back.kept == v.kept
            for s in order[: order.index(v.seat)]:
                if not (r.kitty and s == doc["pitcher"]):
                    d = v.draws[s]
                    assert d.drawn == 6 - (r.cards_each(n) - d.discarded)  # drawn back
            for s in order[order.index(v.seat) + 1 :]:
                assert v.draws[s].discarded == 0 and v.draws[s].drawn == 0
    assert asked


@pytest.mark.parametrize(
    "spec", ["auction-pitch,deal=9,discard=draw,trump=named", "smear,discard=draw"]
)
def test_12_8_2_a_seat_that_stops_early_or_puts_down_the_most_is_played_out(spec):
    """Two outside choices: every seat says ``draw`` as soon as it may (keeping up to
    6; with 6 dealt it puts down nothing), or puts down every card it may (down to 3,
    trumps beyond 6): the hands played out hold exactly what each kept and drew, and
    the record replays."""
    from pitchsim.table.game import play_table_game
    from pitchsim.table.record import replay

    r = Rules.parse(spec)
    each = r.cards_each(4)
    for most in (False, True):
        seats = [Chooser(most), Chooser(most), "heuristic+heuristic", "heuristic+heuristic"]
        doc = json.loads(json.dumps(play_table_game(seats, r, 5)))
        assert replay(doc, strategies=False) == doc
        for h in doc["hands"]:
            if h.get("draw") is None:
                continue
            trump = "CDHS".index(h["trump"])
            for s in (0, 1):
                d = h["draw"]["seats"][s]
                dealt = parse_cards(" ".join(h["hands"][s]))
                trumps = sum(F.is_trump(c, trump, r) for c in dealt)
                kept = each - len(d["discarded"])
                assert kept == (max(3, min(trumps, 6)) if most else 6)
                assert len(h["held"][s]) == 6
                assert set(h["held"][s]) == (set(h["hands"][s]) - set(d["discarded"])) | set(
                    d["drawn"]
                )


def _put_down_view(spec, n, pick):
    """A view of a drawing seat's put-down under way (``pick(views)``) and its JSON."""
    for g in range(8):
        _, views = _walk(spec, n, g, False)
        v = pick([x for x in views if x.phase == "put_down" and x.drawing])
        if v is not None:
            return v, json.loads(json.dumps(v.to_json()))
    raise AssertionError("no such view")


def test_12_8_2_a_view_refuses_an_impossible_put_down_in_one_line():
    """A view of a put-down under way is refused, in one line naming the rule, when its
    own cards put down so far hold a trump not beyond 6, leave fewer than 3, name a seat
    putting down under discard=choice, or show a later seat's put-down before its turn."""
    spec, n = "auction-pitch,deal=9,discard=draw,trump=named", 4
    v, doc = _put_down_view(spec, n, lambda vs: next((x for x in vs if x.discards), None))
    assert View.from_json(doc).legal() == v.legal()
    trump = next((c for c in v.kept if F.is_trump(c, v.trump, v.preset)), None)
    if trump is not None and sum(F.is_trump(c, v.trump, v.preset) for c in v.kept) <= 6:
        bad = json.loads(json.dumps(doc))
        bad["draw"]["mine"]["discarded"] = [card_text(trump)]
        with pytest.raises(ViewError, match=r"a trump only beyond 6.*12\.8\.2"):
            View.from_json(bad)
    bad = json.loads(json.dumps(doc))
    later = (v.seat + 1) % n if v.seat != v.dealer else None
    if later is not None:
        bad["draw"]["seats"][later]["discarded"] = 1
        with pytest.raises(ViewError, match=r"before seat \d drew \(12\.8\.2"):
            View.from_json(bad)
    bad = json.loads(json.dumps(doc))
    bad["rules"] = bad["rules"].replace("discard=draw", "discard=choice")
    with pytest.raises(ViewError, match="putting_down"):
        View.from_json(bad)
    bad = json.loads(json.dumps(doc))
    bad["draw"]["seats"][v.seat]["discarded"] = 7
    bad["draw"]["mine"]["discarded"] = [card_text(c) for c in v.hand[:7]]
    with pytest.raises(ViewError) as e:
        View.from_json(bad)
    assert "\n" not in str(e.value)
    from pitchsim.table.engine import Engine

    reply = Engine().answer(json.dumps({"type": "decide", "id": 3, "view": bad}))
    assert reply["type"] == "error" and reply["code"] == "bad-view", reply


def _every_view(spec: str, n: int, g: int):
    """One hand of pitchsim's seats at the table (board 11's deal ``g``): the record
    and, at each put-down, every seat's view then (the mover's and the others'), each
    read from its JSON: [(mover, views by seat)]."""
    import numpy as np

    from pitchsim.kernels.rng import deal_key
    from pitchsim.table.game import TableDeal, _kernel_deal
    from pitchsim.table.seats import KernelSeat

    r = Rules.parse(spec)
    key = np.uint64(deal_key(11, g))
    dealt, stock, draw = _kernel_deal(r, n, g % n, key)
    deal = TableDeal(r, n, g % n, dealt, stock, [0] * n, draw)
    walk, seat_, at = deal.run(), KernelSeat("heuristic+heuristic"), []
    try:
        seat, view = next(walk)
        while True:
            if view.phase == "put_down":
                docs = [json.loads(json.dumps(deal.view_doc(s))) for s in range(n)]
                at.append((seat, [View.from_json(d) for d in docs]))
            seat, view = walk.send(seat_.decide(view, key).action)
    except StopIteration as end:
        return end.value, at


def test_12_9_each_card_put_down_is_face_up_to_every_seat_as_it_goes_down():
    """Under discards=shown (12.9) a seat's put-down, trumps too, is face up as it makes
    it: at every later decision every seat's view lists each card it has put down so
    far as shown; under a kitty (12.9.1) the pitcher's put-down so far is the kitty's
    shown in every seat's view."""
    for spec, n in (
        ("smear,deal=9,discard=choice,discards=shown", 4),
        ("smear,deal=9,discard=draw,discards=shown", 4),
        ("smear,kitty=3,discards=shown", 4),
        ("smear,kitty=2,deal=9,discard=draw,discards=shown", 4),
    ):
        r = Rules.parse(spec)
        seen = 0
        for g in range(4):
            doc, at = _every_view(spec, n, g)
            if doc["pitcher"] is None:
                continue
            acts = [a for a in doc["actions"] if a["action"].startswith("down:")]
            for k, (mover, views) in enumerate(at):
                done = acts[:k]  # put down before this decision, in order
                for v in views:
                    assert v.to_move == mover and v.phase == "put_down"
                    for s in range(n):
                        mine = [_card(a["action"]) for a in done if a["seat"] == s]
                        if r.kitty and s == doc["pitcher"]:
                            assert sorted(v.put_down_shown) == sorted(mine)
                        elif r.discard != "none":
                            assert sorted(v.draws[s].shown) == sorted(mine)
                        seen += len(mine) * (s != v.seat)
        assert seen, spec


def test_12_8_2_a_seat_that_has_drawn_sees_its_draw_while_the_next_puts_down():
    """12.8.2: each seat draws back to 6 as soon as it stops, before the next seat puts
    down: in its own view then it holds the cards it drew (those the hand's record says
    it drew), and every seat sees how many."""
    spec, n = "auction-pitch,deal=9,discard=draw,trump=named", 4
    checked = 0
    for g in range(3):
        doc, at = _every_view(spec, n, g)
        if doc["pitcher"] is None:
            continue
        order = [(doc["dealer"] + 1 + i) % n for i in range(n)]
        for mover, views in at:
            for s in order[: order.index(mover)]:
                drawn = [card_text(c) for c in views[s].drawn]
                assert drawn == doc["draw"]["seats"][s]["drawn"]
                assert all(v.draws[s].drawn == len(drawn) for v in views)
                checked += 1
    assert checked


def test_12_9_another_seats_view_sees_the_put_down_face_up_and_has_no_decision():
    """A seat not putting down reads the mover's face-up cards from the view, and the
    engine answers it ``not-to-act`` naming the put-down; a shown list of the wrong
    length is refused in one line (12.9)."""
    from pitchsim.table.engine import Engine

    spec, n = "smear,deal=9,discard=draw,discards=shown", 4
    g = 0
    while True:
        doc, views = _walk(spec, n, g, False)
        downs = [v for v in views if v.phase == "put_down" and v.discards]
        if downs:
            break
        g += 1
    v = downs[0]
    other = (v.seat + 1) % n
    hand = doc["hands"][other]
    odoc = json.loads(json.dumps(v.to_json()))
    odoc |= {"seat": other, "hand": hand, "legal": []}
    odoc["draw"]["mine"] = {}
    seen = View.from_json(odoc)
    assert seen.to_move == v.seat and seen.legal() == []
    assert sorted(seen.draws[v.seat].shown) == sorted(v.discards)
    reply = Engine().answer(json.dumps({"type": "decide", "id": 2, "view": odoc}))
    assert reply["type"] == "error" and reply["code"] == "not-to-act", reply
    assert "puts down before drawing (12.8.2)" in reply["message"]
    odoc["draw"]["seats"][v.seat]["shown"] = odoc["draw"]["seats"][v.seat]["shown"][1:]
    with pytest.raises(ViewError, match=r"face up under discards=shown.*12\.9"):
        View.from_json(odoc)


def test_12_8_2_the_engine_and_an_outside_seat_answer_the_put_down():
    """``pitchsim engine`` answers pitchsim's card at a drawing put-down (the first of
    12.8.3's rule), and an action the rule forbids (a card not held, ``draw`` while more
    than 6 are held) is no legal action."""
    from pitchsim.table.answers import checked_action
    from pitchsim.table.engine import Engine

    spec, n = "auction-pitch,deal=9,discard=draw,trump=named", 4
    v, doc = _put_down_view(spec, n, lambda vs: vs[0] if vs else None)
    want = F.pitchsims_put_down(mask_of(v.kept), v.trump, v.preset, -1, True)
    msg = {"type": "decide", "id": 1, "view": doc, "options": {"strategy": "heuristic+heuristic"}}
    got = Engine().answer(json.dumps(msg))
    assert got == {"type": "action", "id": 1, "action": "down:" + card_text(want)}
    assert len(v.kept) > 6 and "draw" not in v.legal()
    with pytest.raises(ValueError, match="not a legal action"):
        checked_action(v, "draw")
    other = next(c for c in F.pack(v.preset, n) if c not in v.kept)
    with pytest.raises(ValueError, match="not a legal action"):
        checked_action(v, "down:" + card_text(other))
    assert checked_action(v, v.legal()[0].upper()) == v.legal()[0]


def test_12_8_2_practice_numbers_the_draw_last_reads_d_and_refuses_by_the_rule():
    """Practice under discard=draw: the cards numbered as the hand is shown and
    ``draw`` last, ``d`` read as it once 6 or fewer are held (refused before, 12.8.2),
    a trump not beyond 6 refused naming the rule, and the coach saying pitchsim's card
    or that it would draw now (12.8.3)."""
    from pitchsim.coach.judge import choice_note, show_action
    from pitchsim.coach.practice import Refusal, read_choice, render_view, shown_choices

    spec, n = "auction-pitch,deal=9,discard=draw,trump=named", 4

    def stopping(vs):
        return next((x for x in vs if "draw" in x.legal() and len(x.legal()) > 1), None)

    early = lambda v: "draw" if v.phase == "put_down" and "draw" in v.legal() else None  # noqa: E731
    for g in range(8):
        _, views = _walk(spec, n, g, False, None)
        v = stopping([x for x in views if x.phase == "put_down" and x.drawing])
        if v is not None:
            break
    legal, numbered = v.legal(), shown_choices(v)
    assert numbered[-1] == "draw" and sorted(numbered) == sorted(legal)
    assert read_choice("d", v, legal) == "draw" == read_choice(str(len(numbered)), v, legal)
    text = render_view(v)
    assert "keep 3 to 6, then draw back to 6): 1:" in text and f"{len(numbered)}:draw" in text
    assert show_action("put_down", "draw") == "draw"
    trumps = [c for c in v.kept if F.is_trump(c, v.trump, v.preset)]
    if 0 < len(trumps) <= 6 and len(v.kept) > 3:
        said = read_choice(card_text(trumps[0]), v, legal)
        assert isinstance(said, Refusal) and "12.8.2" in said.message
    said = choice_note(v, "draw", worlds=8, time=None)  # pitchsim would put down more here
    assert said.startswith("coach: pitchsim puts down ") and "deals fitting your hand" in said
    full = next(
        x for x in _walk(spec, n, 0, False, early)[1] if x.phase == "put_down" and x.drawing
    )
    assert len(full.kept) > 6
    said = read_choice("d", full, full.legal())
    assert isinstance(said, Refusal) and "more than 6" in said.message


def test_12_8_3_review_lists_the_persons_draw_beside_pitchsims_put_down(few_note_worlds):
    """``review`` (the terminal's and the page's) lists each put-down decision of the
    seat under discard=draw, its ``draw`` too, beside pitchsim's, unjudged."""
    from pitchsim.coach.review import review
    from pitchsim.table.decide import pitchsims_put_down
    from pitchsim.table.game import play_table_game
    from pitchsim.table.record import replay, views_of
    from pitchsim.web.review import review_record

    r = Rules.parse("auction-pitch,deal=9,discard=draw,trump=named")
    record = play_table_game([Chooser(most=False), *["heuristic+heuristic"] * 3], r, 7)
    record = json.loads(json.dumps(record))
    record["hands"] = record["hands"][:1]
    for key in ("winner", "winners", "final_scores"):
        record.pop(key, None)
    record = replay(record, strategies=False)
    views = [(v, a) for v, a in views_of(record) if v.seat == 0 and v.phase == "put_down"]
    assert views and views[-1][1] == "draw"
    rv = review(record, 0, 7, samples=40, worlds=4, time=None)
    assert [(d["put_down"], d["pitchsim"]) for d in rv.put_downs] == [
        (a, pitchsims_put_down(v)) for v, a in views
    ]
    assert rv.put_downs[-1]["note"]  # pitchsim would have put down more
    page = review_record(record, 0, 40, 4, time=None)
    steps = [s for s in page["steps"] if s["view"]["phase"] == "put_down"]
    assert [s["action"] for s in steps] == [a for _, a in views]


BAD_BOT = """
import json, sys
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "hello":
        print(json.dumps({"type": "hello", "protocol": "pitch-engine/1", "name": "bad",
                          "options": []}), flush=True)
    elif msg["type"] == "decide":
        legal = msg["view"]["legal"]
        act = "draw" if legal[0].startswith("down:") else legal[0]  # draw at once
        print(json.dumps({"type": "action", "id": msg["id"], "action": act}), flush=True)
    elif msg["type"] == "quit":
        break
"""


def test_12_8_2_a_cmd_seat_puts_down_and_draws_and_a_bad_draw_forfeits(tmp_path):
    """A ``cmd:`` seat (examples/bots/simple_bot.py: its lowest plain cards down to 6,
    then ``draw``) plays a discard=draw game through its views; one that answers
    ``draw`` while it holds more than 6 forfeits, the reason naming the legal actions,
    and nobody plays in its place."""
    import sys
    from pathlib import Path

    from pitchsim.table.game import play_table_game
    from pitchsim.table.outside import CommandSeat

    r = Rules.parse("auction-pitch,deal=9,discard=draw,trump=named")
    bot = Path(__file__).resolve().parents[1] / "examples" / "bots" / "simple_bot.py"
    seat = CommandSeat(f"{sys.executable} {bot}", decision_time=60)
    try:
        record = play_table_game([seat, *["heuristic+heuristic"] * 3], r, 3, 0)
    finally:
        seat.close()
    assert not record.get("forfeit") and record["winners"]
    mine = [a["action"] for h in record["hands"] for a in h["actions"] if a["seat"] == 0]
    assert "draw" in mine and any(a.startswith("down:") for a in mine)
    path = tmp_path / "bad.py"
    path.write_text(BAD_BOT)
    seat = CommandSeat(f"{sys.executable} {path}", decision_time=60)
    try:
        record = play_table_game([seat, *["heuristic+heuristic"] * 3], r, 3, 0)
    finally:
        seat.close()
    assert record["forfeit"]["seat"] == 0
    assert "draw" in record["forfeit"]["reason"] and "down:" in record["forfeit"]["reason"]
    last = record["hands"][-1]
    assert last["incomplete"] and last["actions"][-1]["seat"] != 0
    assert not [a for a in last["actions"] if a["action"] == "draw"]


@pytest.mark.parametrize(
    "spec, shown",
    [
        ("auction-pitch,deal=9,discard=draw,trump=named", False),
        ("smear,deal=9,discard=draw,discards=shown", True),
    ],
)
def test_12_8_4_and_12_9_the_search_knows_a_chosen_put_down_as_the_seat_saw_it(spec, shown):
    """Seat 0 keeps more than pitchsim would (it says ``draw`` at once): the search's
    knowledge at each seat's first card counts seat 0's chosen put-down out of play for
    seat 0, and for every other seat only under discards=shown (face up, 12.9); face
    down it is unseen to them (12.8.4).  Nobody draws from the discards here (the stock
    is enough), so none of it can be back in play."""
    from pitchsim.table.decide import view_knowledge
    from pitchsim.table.game import play_table_game
    from pitchsim.table.record import views_of

    r = Rules.parse(spec)
    record = json.loads(
        json.dumps(play_table_game([Chooser(most=False), *["heuristic+heuristic"] * 3], r, 7))
    )
    checked, first = 0, set()
    for v, _ in views_of(record):
        if v.phase != "play" or (v.hands_played, v.seat, v.dealer) in first:
            continue
        first.add((v.hands_played, v.seat, v.dealer))
        h = next(
            h
            for h in record["hands"]
            if h["dealer"] == v.dealer and h["hands"][v.seat] == [card_text(c) for c in v.hand]
        )
        down = mask_of(parse_cards(" ".join(h["draw"]["seats"][0]["discarded"])))
        assert down and not any(
            h["draw"]["seats"][s]["drawn"]
            and set(h["draw"]["seats"][s]["drawn"]) & set(h["draw"]["seats"][0]["discarded"])
            for s in range(4)
        )
        known = int(view_knowledge(v).known_out)
        assert known & down == (down if v.seat == 0 or shown else 0)
        checked += 1
    assert checked >= 4
