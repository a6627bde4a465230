"""The put-down switched on (docs/rules.md 12.2.2, 12.8.1, 12.8.2, 12.8.3, 12.9): the open
table asks it of every seat kind, records of version 4 carry each card as an action
(``{"seat": s, "action": "down:4D"}``, and under discard=draw a stop, ``"draw"``) and
replay it, records of versions 1 and 2 (the put-down pitchsim's rule, no action) and of
version 3 under discard=draw or discards=shown still replay, a practice save of such a
version replays but cannot go on, the kernels' games are written as the table plays
them, and review lists the person's put-downs beside pitchsim's."""

from __future__ import annotations

import json

import pytest

from pitchsim.game.rules import Rules
from pitchsim.game.view import View, card_text
from pitchsim.table.game import RECORD_VERSION, play_table_game, puts_down
from pitchsim.table.record import RecordError, replay, views_of
from pitchsim.table.seats import KernelSeat

SEATS = "heuristic+heuristic"
ASKED = [
    ("smear,kitty=3,partner=called", 5),
    ("smear,deal=9,discard=choice", 4),
    ("smear,kitty=2,deal=9,discard=choice", 4),
    ("smear,kitty=3,discard=draw", 4),
    ("auction-pitch,deal=9,discard=draw,trump=named", 4),
    ("smear,deal=9,discard=choice,discards=shown", 4),
]
# Rules whose put-downs a record of version 3 made by rule (no action then)
NEW_IN_4 = ("discard=draw", "discards=shown")


def _downs(hand: dict) -> list[dict]:
    return [a for a in hand["actions"] if a["action"].startswith(("down:", "draw"))]


def _by_rule(record: dict, version: int) -> dict:
    """``record`` as a record of ``version`` (1 to 3) writes it: no put-down actions,
    and in version 1 no call of a partner's card (12.1) either."""
    old = json.loads(json.dumps(record)) | {"version": version}
    gone = ("down:", "draw", "call:") if version == 1 else ("down:", "draw")
    for h in old["hands"]:
        h["actions"] = [a for a in h["actions"] if not a["action"].startswith(gone)]
    return old


@pytest.mark.parametrize("spec, n", ASKED)
def test_12_8_1_a_game_records_each_put_down_and_replays_it(spec, n):
    """A game of pitchsim's seats at the open table: version 4, one ``down:`` action a
    card put down (the kitty's pitcher, under choice every seat beyond 6, under draw
    every seat's discard, 12.8.2), which replays as written and whose views are the
    put-down phase; without them, as version 4, it is refused; as version 2 or 1
    (pitchsim's rule, no action), and as version 3 under draw or discards=shown, it
    replays to the same hands."""
    r = Rules.parse(spec)
    assert puts_down(r)
    record = play_table_game([SEATS] * n, r, 7)
    assert record["version"] == RECORD_VERSION == 4
    pitched = [h for h in record["hands"] if h["pitcher"] is not None]
    assert pitched
    for h in pitched:
        downs = _downs(h)
        seats = (h.get("draw") or {}).get("seats", [])
        want = sum(len(d["discarded"]) for d in seats)  # 12.8: each seat's put-down
        want += len(h["kitty"]["put_down"]) if r.kitty else 0  # (the kitty's, 12.2.2)
        assert len(downs) == want
        if r.kitty:
            mine = [a["action"][5:] for a in downs if a["seat"] == h["pitcher"]]
            assert mine[: len(h["kitty"]["put_down"])] == h["kitty"]["put_down"]
    doc = json.loads(json.dumps(record))
    assert replay(doc, strategies=True) == doc
    taken = [(v.seat, act) for v, act in views_of(doc) if v.phase == "put_down"]
    assert taken == [(a["seat"], a["action"]) for h in doc["hands"] for a in _downs(h)]
    missing = r"is not a legal action \(legal: down:|but seat \d is to act"
    with pytest.raises(RecordError, match=missing):
        replay(_by_rule(record, RECORD_VERSION), strategies=False)
    for version in (1, 2, 3):
        old = _by_rule(record, version)
        if version == 3 and not any(k in spec for k in NEW_IN_4):
            with pytest.raises(RecordError, match=missing):
                replay(old, strategies=False)  # version 3 asked these put-downs too
            continue
        assert replay(old, strategies=True) == old
        assert not [v for v, _ in views_of(old) if v.phase == "put_down"]


def test_12_8_2_and_12_9_a_version_3_record_puts_down_by_rule():
    """discard=draw (12.8.2) and discards=shown (12.9) put down by pitchsim's rule in a
    record of version 3 (no ``down:``) and are asked from version 4 on."""
    for spec in ("smear,kitty=2,discard=draw", "smear,deal=9,discard=choice,discards=shown"):
        r = Rules.parse(spec)
        assert puts_down(r) and not puts_down(r, 3) and not puts_down(r, 2)
    assert puts_down(Rules.parse("smear,kitty=2"), 3)


def test_12_8_3_the_kernels_games_are_written_with_pitchsims_put_downs():
    """``record_of_preset_game``: the kernels' game (they put down by rule) is written
    with pitchsim's ``down:`` actions, the record the open table writes for the same
    seats."""
    from pitchsim.table.boards import board_game
    from pitchsim.table.record import record_of_preset_game

    for spec, n in ASKED:
        r = Rules.parse(spec)
        written = record_of_preset_game(board_game(7, 0, [SEATS] * n, r))
        assert written == play_table_game([SEATS] * n, r, 7)
        assert any(_downs(h) for h in written["hands"])


class Downer:
    """An outside seat: pitchsim's decisions, but it puts down its highest card first
    (any card but a called trump, 12.1.3)."""

    def __init__(self):
        self.seat = KernelSeat(SEATS)

    def call(self, view: View) -> str:
        if view.phase == "put_down":
            return view.legal()[-1]
        return self.seat.call(view)

    def play(self, view: View) -> str:
        return self.seat.play(view)


def test_12_8_1_an_outside_seats_put_down_is_played_and_replays():
    """A put-down not pitchsim's is played out and replays as written; as a version-2
    record (the rule's put-down assumed) it does not agree with its own draw."""
    r = Rules.parse("smear,deal=9,discard=choice")
    record = play_table_game([Downer(), *[SEATS] * 3], r, 7)
    doc = json.loads(json.dumps(record))
    assert replay(doc, strategies=False) == doc
    h = next(h for h in doc["hands"] if h["pitcher"] is not None)
    mine = [a["action"][5:] for a in _downs(h) if a["seat"] == 0]
    assert len(mine) == 3 and not set(mine) & set(h["held"][0])
    with pytest.raises(RecordError):
        replay(_by_rule(record, 2), strategies=False)


def test_a_practice_save_of_an_older_version_goes_on_unless_its_rules_put_down():
    """A practice save written before the put-down was a decision (record version 2; 3
    under discard=draw or discards=shown) goes on where nobody chooses a put-down;
    where its rules put down now it replays but is refused going on, in one line."""
    from pitchsim.coach.practice import PracticeError, practice, read_save

    cases = (
        ("smear", 4, 2),
        ("smear,kitty=3", 4, 2),
        ("smear,deal=9,discard=choice", 4, 2),
        ("smear,kitty=3", 4, 3),
        ("smear,kitty=3,discard=draw", 4, 3),
        ("smear,deal=9,discard=choice,discards=shown", 4, 3),
    )
    for spec, n, version in cases:
        record, _ = practice(
            n, 0, SEATS, Rules.parse(spec), 3, read=lambda p: "q",
            write=lambda t: None, coach=False,
        )  # fmt: skip
        assert record["stopped"] and record["version"] == RECORD_VERSION
        assert read_save(json.loads(json.dumps(record)), "new.json").seat == 0
        old = _by_rule(record, version)
        assert replay(old, strategies=False)
        if spec == "smear" or (version == 3 and not any(k in spec for k in NEW_IN_4)):
            assert read_save(old, "old.json").doc["version"] == RECORD_VERSION
        else:
            with pytest.raises(PracticeError, match="old.json was saved before the put-down"):
                read_save(old, "old.json")


def test_12_8_3_review_lists_the_persons_put_downs_beside_pitchsims(few_note_worlds):
    """``review`` (the terminal's and the page's): each card the seat put down with
    pitchsim's card and the coach's note (valued, not judged)."""
    from pitchsim.coach.review import review
    from pitchsim.table.decide import pitchsims_put_down
    from pitchsim.web.review import review_record

    r = Rules.parse("smear,deal=9,discard=choice")
    record = play_table_game([Downer(), *[SEATS] * 3], r, 7)
    record = json.loads(json.dumps(record))
    record["hands"] = record["hands"][:1]  # one hand is enough to review
    for key in ("winner", "winners", "final_scores"):
        record.pop(key, None)
    record = replay(record, strategies=False)
    views = [(v, a) for v, a in views_of(record) if v.seat == 0 and v.phase == "put_down"]
    assert len(views) == 3
    rv = review(record, 0, 7, samples=40, worlds=4, time=None)
    want = [
        {"hand": 1, "put_down": a, "pitchsim": pitchsims_put_down(v), "note": None}
        for v, a in views
    ]
    for row, w in zip(rv.put_downs, want, strict=True):
        assert row | {"note": None, "decision": None} == w | {"decision": None}
        assert (row["note"] is None) == (row["put_down"] == row["pitchsim"])
    assert any(row["note"] for row in rv.put_downs)  # the highest first: not pitchsim's
    assert all(j.kind != "put_down" and not j.chosen.startswith("down:") for j in rv.judgements)
    assert rv.to_json()["put_downs"] == rv.put_downs
    # the seat's decision count of each (its calls before them, one a card put down)
    counts = [row["decision"] for row in rv.put_downs]
    assert counts == list(range(counts[0], counts[0] + 3)) and counts[0] > 1
    page = review_record(record, 0, 40, 4, time=None)
    steps = [s for s in page["steps"] if s["view"]["phase"] == "put_down"]
    assert [s["action"] for s in steps] == [a for _, a in views]
    assert [s["note"] for s in steps] == [row["note"] for row in rv.put_downs]
    assert all(s["judgement"] is None for s in steps)


def test_12_1_3_practice_refuses_a_called_trump_put_down():
    """12.1.2 lets the pitcher call a trump he holds; coming down to 6 (12.2.2) he may
    not put it down (12.1.3): practice refuses it by name, naming the clause."""
    import numpy as np

    from pitchsim.coach.practice import Refusal, read_choice
    from pitchsim.game.cards import mask_of, parse_cards
    from pitchsim.kernels.rng import deal_key
    from pitchsim.table.game import TableDeal, _kernel_deal

    r, n, seat = Rules.parse("smear,kitty=3,partner=called"), 5, KernelSeat(SEATS)
    for g in range(20):
        key = np.uint64(deal_key(11, g))
        dealt, stock, draw = _kernel_deal(r, n, g % n, key)
        walk = TableDeal(r, n, g % n, dealt, stock, [0] * n, draw).run()
        _, v = next(walk)
        while v.phase in ("auction", "trump"):
            _, v = walk.send(seat.decide(v, key).action)
        if v.phase != "call":
            continue
        own = [a for a in v.legal() if mask_of(parse_cards(a[5:], 2)) & v.hand_mask]
        if not own:
            continue
        _, v = walk.send(own[-1])  # he calls a trump he holds (12.1.2)
        assert v.phase == "put_down" and v.called in v.kept
        said = read_choice(card_text(v.called), v, v.legal())
        assert isinstance(said, Refusal)
        assert "is the card called: it is never put down (12.1.3)" in said.message
        return
    pytest.fail("no pitcher held a trump to call")
