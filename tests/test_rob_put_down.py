"""The robber's come-down after the rob as his decision (docs/rules.md 4.8.7; 4.8.5 for
ten-point's pitcher, 11.8 and 12.7 for Cinch's dealer): one card a decision, the
action ``"down:4D"`` in the phase ``"put_down"``, his non-trumps first, then any trump
but a called one; face up as 4.8.5 and 12.7 say (all under discards=shown with rob=true, the trumps
under rob=dealer, none under discards=hidden with rob=true); pitchsim's seats put down by
4.8.5's order, so their games are the same; records of version 4 carry the cards,
versions 1 to 3 are read with pitchsim's come-down; every door: the view, the engine,
outside seats, practice, the coach, review and the search's worlds."""

from __future__ import annotations

import json

import numpy as np
import pytest
from test_put_down_choice import _walk, bot_put_downs

from pitchsim.game import reference as F
from pitchsim.game.cards import cards_of, format_card, mask_of, parse_cards, rank_of
from pitchsim.game.rules import Rules
from pitchsim.game.view import View, ViewError, card_text
from pitchsim.table.game import RECORD_VERSION, play_table_game, puts_down
from pitchsim.table.record import RecordError, replay, views_of
from pitchsim.table.seats import KernelSeat

SEATS = "heuristic+heuristic"
ROBS = [("ten-point", 4), ("cinch", 4), ("seven-point", 4)]  # (5-6 players: no stock)


def _highest(view):
    """A put-down pitchsim would not make: the highest legal card first."""
    if view.phase == "put_down":
        return max(view.legal(), key=lambda a: rank_of(parse_cards(a[5:], 2)[0]))
    return None


def _robber(doc: dict, r: Rules) -> int:
    return r.robber(doc["pitcher"], doc["dealer"])


def _downs(actions: list[dict]) -> list[dict]:
    return [a for a in actions if a["action"].startswith("down:")]


@pytest.mark.parametrize("spec, n", ROBS)
def test_4_8_7_the_robber_comes_down_one_card_a_decision_non_trumps_first(spec, n):
    """After every other seat has drawn and he has robbed (the pitcher; under rob=dealer
    the dealer), the robber is asked one card at a time until he holds 6: while he holds
    a non-trump only his non-trumps are legal, then every trump but a called one
    (12.1.3); the hand in play is what he kept, and his put-down the draw's."""
    r = Rules.parse(spec)
    assert puts_down(r)
    asked = differs = 0
    for g in range(8):
        doc, views = _walk(spec, n, g, False, _highest)
        if doc["pitcher"] is None:
            continue
        robber = _robber(doc, r)
        downs = [parse_cards(a["action"][5:], 2)[0] for a in _downs(doc["actions"])]
        assert all(a["seat"] == robber for a in _downs(doc["actions"]))
        mine = [v for v in views if v.phase == "put_down"]
        assert len(mine) == len(downs) == len(doc["draw"]["put_down"])
        assert doc["draw"]["put_down"] == [card_text(c) for c in downs]
        phases = [v.phase for v in views]
        if mine:
            first = phases.index("put_down")
            assert phases[first - 1] in ("trump", "call") and phases[first + len(mine)] == "play"
        for v in mine:
            asked += 1
            assert v.seat == v.to_move == robber and len(v.kept) > F.HAND_TARGET
            non = [c for c in v.kept if not F.is_trump(c, v.trump, r)]
            want = non or [c for c in v.kept if c != v.called]
            assert sorted(a[5:] for a in v.legal()) == sorted(card_text(c) for c in want)
        held = mask_of(parse_cards(" ".join(doc["held"][robber]), 2))
        if mine:
            assert held == mask_of(mine[0].kept) & ~mask_of(downs)
            trump = "CDHS".index(doc["trump"])
            called = parse_cards(doc["called"], 2)[0] if doc.get("called") else -1
            differs += downs != F.come_down(mask_of(mine[0].kept), trump, r, called)
    assert asked and differs  # asked, and a come-down pitchsim would not make played out


@pytest.mark.parametrize("spec, n", ROBS)
def test_4_8_7_pitchsims_seats_asked_come_down_as_the_rule_did(spec, n):
    """Asked card by card, pitchsim's seats put down 4.8.5's order (come_down): the
    hand is the one the fixed rule played, with one ``down:`` action a card."""
    for g in range(6):
        fixed, _ = _walk(spec, n, g, True)
        asked, views = _walk(spec, n, g, False)
        assert [a for a in asked["actions"] if a not in _downs(asked["actions"])] == (
            fixed["actions"]
        )
        assert {k: v for k, v in asked.items() if k != "actions"} == {
            k: v for k, v in fixed.items() if k != "actions"
        }
        assert len(_downs(asked["actions"])) == sum(v.phase == "put_down" for v in views)


def _come_down_views(spec: str, n: int, games: int = 8):
    """Every seat's view at each of the robber's put-downs (the robber answering
    ``_highest``), with the cards he had put down before it."""
    from pitchsim.kernels.rng import deal_key
    from pitchsim.table.game import TableDeal, _kernel_deal

    r, seat_ = Rules.parse(spec), KernelSeat(SEATS)
    for g in range(games):
        key = np.uint64(deal_key(11, g))
        dealt, stock, draw = _kernel_deal(r, n, g % n, key)
        deal = TableDeal(r, n, g % n, dealt, stock, [0] * n, draw)
        walk, before = deal.run(), []
        try:
            seat, view = next(walk)
            while True:
                if view.phase == "put_down":
                    seen = [View.from_json(deal.view_doc(s), "the table", r) for s in range(n)]
                    yield seen, list(before)
                action = _highest(view) or seat_.decide(view, key).action
                if view.phase == "put_down":
                    before.append(parse_cards(action[5:], 2)[0])
                seat, view = walk.send(action)
        except StopIteration:
            pass


@pytest.mark.parametrize(
    "spec, shown",
    [
        ("ten-point", "none"),  # 4.8.5: face down under discards=hidden
        ("ten-point,discards=shown", "all"),  # 12.9: every card face up as it goes down
        ("cinch", "trumps"),  # 12.7: the dealer's trumps face up, the stock's rest
        ("cinch,discards=hidden", "trumps"),  # face down under discards=shown too
    ],
)
def test_4_8_5_the_others_see_the_come_down_face_up_as_the_rules_say(spec, shown):
    """Every other seat at the robber's put-down: phase put_down, the robber to move,
    no legal action, the count put down so far and of it what is face up: all of it
    under discards=shown, its trumps under rob=dealer, none under discards=hidden with
    rob=true (the stock's non-trumps the dealer leaves stay face down under discards=shown
    too, 12.7).  The robber's own view lists his cards put down so far."""
    r, seen = Rules.parse(spec), 0
    for views, before in _come_down_views(spec, 4):
        robber = views[0].to_move
        up = {"none": [], "all": before}.get(shown)
        if up is None:
            up = [c for c in before if F.is_trump(c, views[0].trump, r)]
        for v in views:
            assert v.phase == "put_down" and v.to_move == robber
            assert v.put_down_count == len(before) and sorted(v.put_down_shown) == sorted(up)
            again = View.from_json(json.loads(json.dumps(v.to_json())))
            assert again.legal() == v.legal() and again.put_down_count == len(before)
            if v.seat == robber:
                assert list(v.put_down) == before and v.legal()
            else:
                assert v.legal() == [] and not set(v.kept) & set(before)
                seen += 1
    assert seen


def _robber_view(spec="ten-point", n=4):
    """The robber's first put-down view with a non-trump to put down and a trump held."""
    for views, before in _come_down_views(spec, n):
        v = views[views[0].to_move]
        trumps = [c for c in v.kept if F.is_trump(c, v.trump, v.rules)]
        if not before and trumps and len(v.legal()) > 1:
            return v, trumps
    pytest.fail("no robber came down")


def test_4_8_7_a_view_refuses_a_trump_put_down_while_a_non_trump_is_held():
    """A view whose robber put a trump down while he held a non-trump cannot have
    happened: refused in one line naming 4.8.7, under way and complete alike; his own
    legal choice, complete, is read as his (``put_down``)."""
    v, trumps = _robber_view()
    doc = v.to_json()
    mine = doc["draw"]["mine"]
    bad = dict(doc, legal=None, phase=None, to_move=None)
    bad["draw"] = doc["draw"] | {"put_down": 1, "mine": mine | {"put_down": [card_text(trumps[0])]}}
    with pytest.raises(ViewError, match=r"non-trumps first after the rob \(4\.8\.7\)") as e:
        View.from_json(bad)
    assert "\n" not in str(e.value)
    need = len(v.kept) - F.HAND_TARGET
    non = [c for c in v.kept if not F.is_trump(c, v.trump, v.rules)]
    if len(non) >= need:  # every non-trump goes but a trump instead of one
        wrong = [card_text(c) for c in non[: need - 1]] + [card_text(trumps[0])]
        bad["draw"] = doc["draw"] | {"put_down": need, "mine": mine | {"put_down": wrong}}
        with pytest.raises(ViewError, match=r"4\.8\.7"):
            View.from_json(bad)
    for views, _ in _come_down_views("ten-point", 4):  # another seat names no put-down
        other = next(x for x in views if x.seat != x.to_move).to_json()
        theirs = other["draw"]["mine"] | {"put_down": [mine["robbed"][0]]}
        with pytest.raises(ViewError, match=r"only the robber, seat \d, comes down \(4\.8\.7\)"):
            View.from_json(dict(other, draw=other["draw"] | {"mine": theirs}, legal=None))
        break
    ok = [card_text(c) for c in F.come_down(mask_of(v.kept), v.trump, v.rules)][::-1]
    good = dict(bad, draw=doc["draw"] | {"put_down": need, "mine": mine | {"put_down": ok}})
    read = View.from_json(good)
    assert read.phase != "put_down" and [card_text(c) for c in read.put_down] == ok


def test_4_8_7_the_engine_answers_the_robbers_put_down_and_no_other_seat():
    """``pitchsim engine``: the robber's put-down view answers pitchsim's card (the
    first of come_down); another seat's has no decision (``not-to-act`` naming 4.8.7);
    a view with an illegal put-down is an ``error`` reply (``bad-view``)."""
    from pitchsim.table.engine import Engine

    v, trumps = _robber_view()
    e = Engine()
    want = "down:" + card_text(F.pitchsims_put_down(mask_of(v.kept), v.trump, v.preset, -1))
    for strategy in ("heuristic+heuristic", "odds+rollout:8"):
        msg = {"type": "decide", "id": 1, "view": v.to_json(), "options": {"strategy": strategy}}
        assert e.answer(json.dumps(msg)) == {"type": "action", "id": 1, "action": want}
    for views, _ in _come_down_views("ten-point", 4):
        other = next(x for x in views if x.seat != x.to_move)
        reply = e.answer(json.dumps({"type": "decide", "id": 2, "view": other.to_json()}))
        assert reply["type"] == "error" and reply["code"] == "not-to-act", reply
        assert "comes down to 6 (4.8.7)" in reply["message"]
        break
    doc = v.to_json()
    doc["draw"] = doc["draw"] | {
        "put_down": 1,
        "mine": doc["draw"]["mine"] | {"put_down": [card_text(trumps[0])]},
    }
    reply = e.answer(json.dumps({"type": "decide", "id": 3, "view": doc | {"legal": None}}))
    assert reply["type"] == "error" and reply["code"] == "bad-view" and "4.8.7" in reply["message"]


class TrumpFirst:
    """A Python seat, pitchsim's but for the come-down: it puts a trump down while it
    still holds a non-trump, which no rule allows (4.8.7)."""

    def __init__(self):
        self.seat = KernelSeat(SEATS)

    def call(self, view):
        if view.phase == "put_down":
            trumps = [c for c in view.kept if F.is_trump(c, view.trump, view.rules)]
            if trumps and len(trumps) < len(view.kept):
                return "down:" + card_text(trumps[0])
        return self.seat.call(view)

    def play(self, view):
        return self.seat.play(view)


def test_4_8_7_an_outside_seats_come_down_is_played_and_a_bad_one_forfeits():
    """A ``cmd:`` seat (examples/bots/simple_bot.py) is sent the robber's view and its
    answer is played; a seat putting a trump down before its non-trumps forfeits the
    game, the reason in the record (pitchsim never puts down in its place)."""
    _, answered = bot_put_downs("ten-point", 4, range(6))
    assert answered and all(a.startswith("down:") for a in answered)
    record = play_table_game([TrumpFirst() for _ in range(4)], Rules.parse("ten-point"), 7)
    forfeit = record["forfeit"]
    assert forfeit and "is not a legal action (legal: down:" in forfeit["reason"]
    last = record["hands"][-1]
    assert last["incomplete"] and last["actions"][-1]["action"].startswith(
        ("trump:", "call:", "down:")
    )
    doc = json.loads(json.dumps(record))
    assert replay(doc, strategies=False) == doc


def _as_version(record: dict, version: int) -> dict:
    """``record`` as a record of ``version`` writes it: no ``down:`` (the rob's, under a
    rob every put-down is the robber's)."""
    old = json.loads(json.dumps(record)) | {"version": version}
    for h in old["hands"]:
        h["actions"] = [a for a in h["actions"] if not a["action"].startswith("down:")]
    return old


@pytest.mark.parametrize("spec", ["ten-point", "cinch"])
def test_4_8_7_records_of_version_4_carry_the_come_down_and_versions_1_to_3_replay_by_rule(spec):
    """A game of pitchsim's seats: version 4, one ``down:`` a card the robber put down,
    replayed as written (the strategies asked again); without them as version 4 it is
    refused; as version 3, 2 or 1 it replays to the same hands, the come-down
    pitchsim's; the kernels' game is written as the table plays it."""
    from pitchsim.table.boards import board_game
    from pitchsim.table.record import record_of_preset_game

    r = Rules.parse(spec)
    record = play_table_game([SEATS] * 4, r, 7)
    assert record["version"] == RECORD_VERSION == 4
    robbed = [h for h in record["hands"] if h["pitcher"] is not None]
    for h in robbed:
        assert len(_downs(h["actions"])) == len(h["draw"]["put_down"])
        assert {a["seat"] for a in _downs(h["actions"])} <= {_robber(h, r)}
    assert any(_downs(h["actions"]) for h in robbed)
    doc = json.loads(json.dumps(record))
    assert replay(doc, strategies=True) == doc
    taken = [(v.seat, act) for v, act in views_of(doc) if v.phase == "put_down"]
    assert taken == [(a["seat"], a["action"]) for h in doc["hands"] for a in _downs(h["actions"])]
    with pytest.raises(RecordError, match=r"\(legal: down:|but seat \d is to act"):
        replay(_as_version(record, RECORD_VERSION), strategies=False)
    for version in (1, 2, 3):
        old = _as_version(record, version)
        assert replay(old, strategies=True) == old
        assert not [v for v, _ in views_of(old) if v.phase == "put_down"]
    assert record_of_preset_game(board_game(7, 0, [SEATS] * 4, r)) == record


def test_4_8_7_a_practice_save_of_version_3_under_a_rob_replays_but_cannot_go_on():
    """A practice save written before the come-down was a decision (record version 3)
    under a rob is refused going on in one line; a version-3 save with a kitty (its
    put-down already a decision there) goes on."""
    from pitchsim.coach.practice import PracticeError, practice, read_save

    for spec in ("ten-point", "cinch", "smear,kitty=3"):
        record, _ = practice(
            4, 0, SEATS, Rules.parse(spec), 3, read=lambda p: "q",
            write=lambda t: None, coach=False,
        )  # fmt: skip
        assert record["stopped"] and record["version"] == RECORD_VERSION
        old = _as_version(record, 3)
        assert replay(old, strategies=False)
        if spec == "smear,kitty=3":
            assert read_save(old, "old.json").doc["version"] == RECORD_VERSION
            continue
        with pytest.raises(PracticeError, match=r"old.json was saved before the put-down") as e:
            read_save(old, "old.json")
        assert "(record version 3, 4.8.7)" in str(e.value) and "\n" not in str(e.value)


def test_4_8_7_practice_asks_the_person_numbered_and_the_coach_names_pitchsims_card():
    """Practice's words at the come-down: the cards he may put down numbered as the hand
    is shown, read by number or name, a trump refused while a non-trump is held
    (4.8.7), and the coach naming pitchsim's card and its rule, unjudged and (the worlds
    dealing no rob) not valued."""
    from pitchsim.coach.judge import choice_note, judged
    from pitchsim.coach.practice import Refusal, read_choice, render_view, shown_choices
    from pitchsim.table.decide import pitchsims_put_down

    v, trumps = _robber_view()
    legal, numbered = v.legal(), shown_choices(v)
    assert sorted(numbered) == sorted(legal)
    text = render_view(v)
    assert f"put down a card (you hold {len(v.kept)}, keep 6): 1:" in text
    assert "robbed the stock" in text
    assert read_choice("1", v, legal) == numbered[0]
    assert read_choice(numbered[-1][5:].lower(), v, legal) == numbered[-1]
    said = read_choice(card_text(trumps[0]), v, legal)
    assert isinstance(said, Refusal) and "non-trumps first (4.8.7)" in said.message
    want = pitchsims_put_down(v)
    assert choice_note(v, want) is None
    worse = next(a for a in legal if a != want)
    note = choice_note(v, worse)
    assert note.startswith(f"coach: pitchsim puts down {format_card(parse_cards(want[5:], 2)[0])}")
    assert "(4.8.7)" in note and not judged(v)
    # the worlds do not deal the others' draws and the stock he robbed: said, not valued
    assert note.endswith("(Not valued: the worlds do not deal the draw and the rob.)")


def test_4_8_7_review_lists_the_robbers_come_down_beside_pitchsims():
    """``review`` (the terminal's and the page's) lists each card the robber put down
    with pitchsim's and the coach's note, unjudged."""
    from pitchsim.coach.review import review
    from pitchsim.table.decide import pitchsims_put_down
    from pitchsim.web.review import review_record

    class Highest:
        def __init__(self):
            self.seat = KernelSeat(SEATS)

        def call(self, view):
            return _highest(view) or self.seat.call(view)

        def play(self, view):
            return self.seat.play(view)

    r = Rules.parse("ten-point")
    for seed in range(3, 12):
        record = json.loads(json.dumps(play_table_game([Highest(), *[SEATS] * 3], r, seed)))
        k = next((i for i, h in enumerate(record["hands"]) if any(
            a["seat"] == 0 for a in _downs(h["actions"]))), None)  # fmt: skip
        if k is not None:
            break
    else:
        pytest.fail("seat 0 never robbed")
    record["hands"] = record["hands"][: k + 1]
    for key in ("winner", "winners", "final_scores"):
        record.pop(key, None)
    record = replay(record, strategies=False)
    views = [(v, a) for v, a in views_of(record) if v.seat == 0 and v.phase == "put_down"]
    assert views
    rv = review(record, 0, 7, samples=40, worlds=4, time=None)
    got = [row for row in rv.put_downs if row["hand"] == k + 1]
    assert [(row["put_down"], row["pitchsim"]) for row in got] == [
        (a, pitchsims_put_down(v)) for v, a in views
    ]
    assert any(row["note"] and "(4.8.7)" in row["note"] for row in got)
    page = review_record(record, 0, 40, 4, time=None)
    steps = [s for s in page["steps"] if s["view"]["phase"] == "put_down"]
    assert [s["action"] for s in steps][-len(views) :] == [a for _, a in views]


def test_4_8_5_the_search_knows_a_face_down_come_down_out_only_to_the_robber():
    """Under discards=hidden the robber's come-down is face down (4.8.5): his own
    search counts it out of play (no world gives any of it to a seat or the pile: he
    knows where it is), another seat's only as a count in the pile, its cards unseen."""
    from pitchsim.table.decide import search_worlds, view_knowledge

    r, n, checked = Rules.parse("ten-point,follow=trump"), 4, 0
    for g in range(10):
        doc, views = _walk("ten-point,follow=trump", n, g, False, _highest)
        if doc["pitcher"] is None or not doc["draw"]["put_down"]:
            continue
        robber = _robber(doc, r)
        down = mask_of(parse_cards(" ".join(doc["draw"]["put_down"]), 2))
        plays = [v for v in views if v.phase == "play"]
        mine = next(v for v in plays if v.seat == robber)
        other = next(v for v in plays if v.seat != robber)
        k = view_knowledge(mine)
        assert int(k.known_out) & down == down and int(k.counts[n]) == 0
        worlds = search_worlds(k, np.uint64(5), 0, 40)
        assert len(worlds) and not any(int(x) & down for w in worlds for x in w)
        k = view_knowledge(other)
        assert int(k.known_out) & down == 0
        assert int(k.counts[n]) == other.put_down_count == len(doc["draw"]["put_down"])
        assert other.put_down_shown == ()
        checked += 1
    assert checked


def test_4_8_7_the_robber_never_puts_down_a_called_trump():
    """12.1.3 over 4.8.7: a called trump is never legal at the come-down, and
    ``put_down_by`` refuses a come-down holding it."""
    r = Rules.parse("ten-point,partnership=false,partner=called")
    trump = 2  # hearts
    held = mask_of(parse_cards("AH KH QH JH JD HJ LJ TH", 2))  # 8 trumps, no non-trump
    called = parse_cards("AH", 2)[0]
    legal = F.may_put_down(held, trump, r, called, robbing=True)
    assert called not in legal and len(legal) == 7
    with pytest.raises(ValueError, match="4.8.7"):
        F.put_down_by(
            0, held, trump, r, called, {0: [called, parse_cards("KH", 2)[0]]}, robbing=True
        )
    non = held | mask_of(parse_cards("2C", 2))
    assert F.may_put_down(non, trump, r, called, robbing=True) == parse_cards("2C", 2)
    assert F.puts_down_legally(non, trump, r, called, parse_cards("KH 2C", 2), robbing=True)
    assert not F.puts_down_legally(non, trump, r, called, parse_cards("KH", 2), robbing=True)
    assert cards_of(held)  # (the hand as built)
