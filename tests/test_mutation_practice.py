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
from pitchsim.games.answers import StopGame
from pitchsim.games.table import play_table_game

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
        "this game: 1 call lost 5.0% of P(win), 2 cards lost 0.75 points; "
        "1 blunder, 1 mistake, 1 inaccuracy"
    )
    assert loss_line([], "hand 2") == (
        "hand 2: 0 calls lost 0.0% of P(win), 0 cards lost 0.00 points; nothing beyond its error"
    )
