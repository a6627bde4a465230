"""The coach judges a card in P(game) when the game can be decided on the hand (issue
30): the base game is won only by the pitcher's side, having made its bid, at or past
the target (docs/rules.md), so a hand decides it when the points that side needs,
max(bid, target - its score), are at most the hand's 4."""

from __future__ import annotations

import pytest
from views import pitcher_and_defender, view_doc

from pitchsim.coach.judge import COACH_POLICY, describe, game_need, judge
from pitchsim.coach.practice import render_values
from pitchsim.game.rules import Rules
from pitchsim.game.view import View
from pitchsim.games.record import views_of
from pitchsim.games.table import play_table_game
from pitchsim.search.hint import hint_view

WORLDS = 60


def view_at(scores, bid, partnership=False) -> View:
    """Seat 1 pitched ``bid`` in hearts and leads trick 2 (4 players, target 7)."""
    return View.from_json(
        view_doc(
            "partnership=true" if partnership else "auction-pitch", seat=1, dealer=3,
            hand="AH KH 2H 9C 7D 3S", calls=f"pass {bid}" + " pass pass" * (bid < 4),  # 4 ends
            tricks=((1, "AH 4H JH 3H"),), scores=scores,
        )
    )  # fmt: skip


@pytest.mark.parametrize(
    "scores, bid, need",
    [
        ([0, 5, 0, 0], 2, 2),  # making 2 reaches 7
        ([0, 4, 0, 0], 2, 3),  # 2 is not enough: 3 points reach 7
        ([0, 3, 0, 0], 3, 4),
        ([0, 2, 0, 0], 2, None),  # 5 points would be needed: the hand has 4
        ([6, 2, 6, 6], 2, None),  # the others are near, but only the pitcher's side wins
        ([5, 3, 0, 0], 4, 4),  # a bid of 4 made reaches 7
        ([0, -3, 0, 0], 4, None),  # 10 points would be needed
    ],
)
def test_the_points_the_pitchers_side_needs(scores, bid, need):
    assert game_need(view_at(scores, bid)) == need


def test_partners_carry_their_teams_score():
    assert game_need(view_at([1, 5], 2, partnership=True)) == 2  # team 1 (seats 1, 3) on 5


def worth_the_game(view):
    """The points the pitcher's side needs, where that is more than its bid (so the
    target counts); else None."""
    need = game_need(view)
    return need if need is not None and need > view.bid else None


@pytest.fixture(scope="module")
def decided():
    """A pitcher's and a defender's card decisions in played games whose hand can end the
    game with the pitcher's side needing more than its bid."""
    return pitcher_and_defender(Rules(), 3, range(1, 60), worth_the_game, least_legal=3)


@pytest.mark.parametrize("side", ["pitcher", "defender"])
def test_a_card_is_judged_in_p_game_when_the_hand_can_end_the_game(decided, side):
    view, action, need = decided[side]
    j = judge(view, action, 1, 5, worlds=WORLDS, time=None)
    h = hint_view(view, policy=COACH_POLICY, worlds=WORLDS, seed=5, time=None)
    p = {c.card: c.p_at_least[need - 1] for c in h.cards}
    from pitchsim.game.view import card_text

    want = {card_text(c): (v if side == "pitcher" else 1 - v) for c, v in p.items()}
    assert j.unit == "P(game)" and j.values == pytest.approx(want)
    assert j.best == max(j.values, key=lambda c: (j.values[c], c == action))
    assert j.loss == pytest.approx(j.values[j.best] - j.values[action])
    assert f"wins it by taking {need} points" in j.note
    words = render_values(j)
    head = "P(your side wins" if side == "pitcher" else "P(the pitcher's side does not win"
    assert words.startswith(f"coach ({head}") and "%" in words
    if j.best != action:
        assert "of P(game)" in describe(j)


def test_a_hand_that_cannot_end_the_game_is_judged_in_points():
    view = next(
        v
        for v, _ in views_of(play_table_game(["odds+heuristic"] * 3, Rules(), 1))
        if v.phase == "play" and len(v.legal()) > 1 and game_need(v) is None
    )
    j = judge(view, view.legal()[0], 1, 5, worlds=WORLDS, time=None)
    assert j.unit == "points"


def test_a_practice_game_to_three_is_judged_by_the_game_and_resumes(tmp_path):
    """To 3 points every hand can end the game: the coach's cards are in P(game), the
    terminal shows them in percent, and the unfinished save (those judgements in it)
    is read back for --resume (the save's check knows the unit)."""
    import json

    from pitchsim.coach.practice import practice, read_save

    class Script:
        def __init__(self, answers):
            self.answers = list(answers)

        def __call__(self, prompt):
            if not self.answers:
                raise EOFError
            return self.answers.pop(0)

    shown = []
    rec, js = practice(
        3,
        0,
        "odds+heuristic",
        Rules.parse("target=3"),
        11,
        read=Script(["3", "1", "1", "1"]),
        write=shown.append,
        samples=200,
        worlds=16,
        time=None,
    )
    cards = [j for j in js if j.kind == "card"]
    assert cards and all(j.unit == "P(game)" for j in cards)
    assert any("coach (P(" in line and "%" in line for line in shown if "your side wins" in line)
    saved = read_save(json.loads(json.dumps(rec)), "save.json")
    assert saved is not None
