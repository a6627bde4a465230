"""coach/practice.py where the mutation run (reports/mutation.md) found the tests silent:
the words that stop a game, the end of a hand's lines, and the loss summary over
decisions of more than one kind.  No coach search runs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pitchsim.coach.judge import Judgement
from pitchsim.coach.practice import PersonSeat, PracticeState, hand_end, loss_line
from pitchsim.game.rules import Rules
from pitchsim.game.view import View
from pitchsim.table.answers import StopGame
from pitchsim.table.game import play_table_game

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


@pytest.mark.parametrize("typed", ["q", "Q", "quit", "QUIT", "Quit", "exit", " EXIT "])
def test_each_word_that_stops_the_game_in_any_case(typed):
    view = View.from_json(json.loads((EXAMPLES / "views" / "lead.json").read_text()))
    assert len(view.legal()) > 1  # the person is asked
    typing = [typed]

    def read(prompt):
        if not typing:
            raise EOFError  # typed once only: a word not taken ends the input
        return typing.pop()

    said = []
    seat = PersonSeat(PracticeState(view.seat), 1, read, said.append, coach=False)
    with pytest.raises(StopGame, match="^quit$"):  # not "input ended"
        seat.play(view)


def test_ctrl_c_at_the_prompt_stops_the_game_to_be_saved():
    """Ctrl-C at a prompt is a stop, as q is (the game saved unfinished, resumable),
    never the whole program's interrupt that loses the game played so far."""
    view = View.from_json(json.loads((EXAMPLES / "views" / "lead.json").read_text()))
    assert len(view.legal()) > 1  # the person is asked

    def read(prompt):
        raise KeyboardInterrupt

    said = []
    seat = PersonSeat(PracticeState(view.seat), 1, read, said.append, coach=False)
    with pytest.raises(StopGame, match="^interrupted$"):
        seat.play(view)


def test_the_end_of_a_hand_in_lines():
    doc = play_table_game(["random"] * 3, Rules(), 5, 1)
    h = next(h for h in doc["hands"] if h["pitcher"] is not None)
    lines = hand_end(h, Rules(), 0, "hand 1")
    g, w, r, s = h["game_points"], h["points_won"], h["round_points"], h["scores_after"]
    assert f"game counts: you {g[0]}, seat 1 {g[1]}, seat 2 {g[2]}" in lines
    assert (
        f"points won: you {w[0]}, seat 1 {w[1]}, seat 2 {w[2]}; "
        f"this hand: you {r[0]:+d}, seat 1 {r[1]:+d}, seat 2 {r[2]:+d}"
    ) in lines
    assert lines[-1] == f"scores now: you {s[0]}, seat 1 {s[1]}, seat 2 {s[2]}"


def J(kind, unit, loss, label=None):
    return Judgement(1, 0, kind, "x", "y", {}, {}, loss, 0.0, label, unit, 100)


def test_a_loss_summary_counts_each_kind_in_its_own_unit():
    js = [
        J("card", "points", 0.25, "mistake"),
        J("call", "P(win)", 0.05, "inaccuracy"),
        J("card", "points", 0.5, "blunder"),
    ]
    assert loss_line(js, "this game") == (
        "this game: 1 call lost 5.0 percentage points of P(win), 2 cards lost 0.75 points; "
        "1 blunder, 1 mistake, 1 inaccuracy"
    )
    assert loss_line([], "hand 2") == (
        "hand 2: 0 calls lost 0.0 percentage points of P(win), 0 cards lost 0.00 points; "
        "nothing beyond its error"
    )


def saved_game():
    """A 3-player practice game stopped after the person's fifth answer (no coach)."""
    from pitchsim.coach.practice import practice

    answers = ["p", "1"] * 3

    def read(prompt):
        if not answers:
            raise EOFError
        return answers.pop(0)

    doc, _ = practice(3, 1, "odds+heuristic", Rules(), 21, coach=False, read=read,
                      write=lambda s: None)  # fmt: skip
    assert doc["stopped"] == "input ended"
    return json.loads(json.dumps(doc))


def test_a_save_is_refused_naming_a_seat_past_the_table_or_the_bots_edited_action():
    from pitchsim.coach.practice import PracticeError, read_save
    from pitchsim.table.record import views_of

    doc = saved_game()
    assert read_save(doc, "s.json").seat == 1
    past = json.loads(json.dumps(doc))
    past["practice"]["seat"] = 3  # three seats: 0-2
    with pytest.raises(PracticeError) as e:
        read_save(past, "s.json")
    assert str(e.value) == "s.json is damaged: practice: seat must be a seat 0-2, not 3"
    # the last action of the stopped hand is a bot's: another legal one in its place
    view, act = list(views_of(doc))[-1]
    assert view.seat != 1
    other = next(a for a in view.legal() if a != act)
    hands = doc["hands"]
    edited = json.loads(json.dumps(doc))
    edited["hands"][-1]["actions"][-1]["action"] = other
    with pytest.raises(PracticeError) as e:
        read_save(edited, "s.json")
    k, i = len(hands), len(hands[-1]["actions"])  # both counted from 1
    assert str(e.value) == (
        f"s.json is damaged: hand {k}: action {i} is {other} by seat {view.seat}, but with "
        f"seed 21 seat {view.seat} (odds+heuristic) answers {act}"
    )


def test_a_saves_judgements_are_refused_by_what_is_wrong():
    """A judgement written by hand for the person's first decision (hand 1, a call; and
    a card where the person played one): accepted as it is, refused with each fault."""
    from pitchsim.coach.practice import PracticeError, read_save
    from pitchsim.table.record import views_of

    doc = saved_game()
    mine = [(v, a) for v, a in views_of(doc) if v.seat == 1 and len(v.legal()) > 1]
    view, act = mine[0]
    assert view.phase == "auction"
    other = next(a for a in view.legal() if a != act)

    def judgement(what, chosen, other, unit, /, **edit):
        j = Judgement(1, 1, what, chosen, other, {chosen: 0.25, other: 0.5},
                      {chosen: 0.05, other: 0.05}, 0.25, 0.1, "blunder", unit, 100)  # fmt: skip
        return j.to_json() | edit

    def problem(*js):
        d = json.loads(json.dumps(doc))
        d["practice"]["judgements"] = list(js)
        try:
            read_save(d, "s.json")
        except PracticeError as e:
            return str(e).removeprefix("s.json is damaged: practice: judgement 1")
        return None

    assert problem(judgement("call", act, other, "P(win)")) is None
    assert problem(judgement("call", act, other, "P(win)", kind="bid")) == (
        ": kind must be 'call', 'trump' or 'card', not 'bid'"
    )
    assert problem(judgement("call", act, other, "P(win)", chosen="9")) == (
        ": chosen '9' is not one of the actions valued"
    )
    assert problem(judgement("call", act, other, "P(win)", defending=True)) == (
        ": defending must be true or false, and only for a card"
    )
    assert problem(judgement("call", other, act, "P(win)")) == (
        f" judges {other} in hand 1, which is not a decision of the person's in the game "
        "(or not in its order)"
    )
    # a defender's card may say so (the person's first card here, seed 21)
    v, a = next((v, a) for v, a in mine if v.phase == "play")
    b = next(x for x in v.legal() if x != a)
    card = judgement("card", a, b, "points", defending=True)
    assert problem(judgement("call", act, other, "P(win)"), card) is None


def test_a_hand_bots_played_as_watch_shows_it():
    """--watch's lines for a base hand: the calls from the seat after the dealer (as the
    record writes them), each trick but the last (hand_end shows that one) from its
    leader, then the hand's end."""
    from pitchsim.coach.practice import render_hand

    doc = play_table_game(["random"] * 3, Rules(), 5, 1)
    h = next(h for h in doc["hands"] if h["pitcher"] is not None)
    lines = render_hand(h, Rules()).split("\n")
    d = h["dealer"]
    said = ", ".join(f"seat {(d + 1 + i) % 3} {b}" for i, b in enumerate(h["calls"]))
    assert lines[1] == f"dealer seat {d}; calls: {said}"
    tricks = [x for x in lines if x.startswith("  trick ")]
    assert [x.split(":")[0] for x in tricks] == [f"  trick {k}" for k in range(1, 6)]
    t = h["tricks"][0]
    symbol = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}
    cards = " ".join(c[0] + symbol[c[1]] for c in t["cards"])  # "2S" -> "2♠"
    assert tricks[0] == f"  trick 1: seat {t['leader']} led  {cards}  -> seat {t['winner']}"
    assert lines[-6:] == hand_end(h, Rules(), None, "the hand")


def test_a_saved_judgement_reads_back_as_it_was_made():
    import math

    j = Judgement(2, 1, "card", "KS", "AS", {"AS": 1.0, "KS": 0.5}, {"AS": 0.1, "KS": math.nan},
                  0.5, 0.2, "blunder", "points", 50)  # fmt: skip
    from pitchsim.coach.practice import judgement_of

    back = judgement_of(json.loads(json.dumps(j.to_json())))
    assert back.error == 0.2 and back.half_widths["AS"] == 0.1
    assert math.isnan(back.half_widths["KS"])  # written null, read as NaN
    few = judgement_of(j.to_json() | {"error": None})
    assert math.isnan(few.error)


def test_a_presets_table_numbers_its_tricks_from_one():
    """examples/family_views/ten-point.json: two tricks played, shown as tricks 1 and 2
    (smear.json: one played and one under way, "this trick")."""
    from pitchsim.coach.practice import render_view

    def view(name):
        return View.from_json(json.loads((EXAMPLES / "family_views" / name).read_text()))

    ten = [x for x in render_view(view("ten-point.json")).split("\n") if "trick" in x]
    assert [x.split(":")[0] for x in ten] == ["trick 1", "trick 2"]
    smear = [x for x in render_view(view("smear.json")).split("\n") if "trick" in x]
    assert [x.split(":")[0] for x in smear] == ["trick 1", "this trick"]
