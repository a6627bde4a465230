"""The coach judges a card in P(game) when the game can be decided on the hand (issue
30): the base game is won only by the pitcher's side, having made its bid, at or past
the target (docs/rules.md, Winning; edge case 10), so a hand decides it when the points
that side needs, max(bid, target - its score), are at most the hand's 4.  The one
``game_need`` of every preset (0.9, 6.1 win) answers so under auction-pitch; under
set-pitcher-wins (6.3.6) a set pitcher can go out too, and the card is judged in net
P(game) (``game_open``), as under any preset."""

from __future__ import annotations

import pytest
from views import pitcher_and_defender, view_doc

from pitchsim.coach.judge import (
    COACH_POLICY,
    NET_GAME_UNIT,
    describe,
    game_need,
    game_open,
    judge,
    judge_card,
)
from pitchsim.coach.practice import render_values
from pitchsim.game.rules import Rules
from pitchsim.game.view import View
from pitchsim.search.hint import hint_view
from pitchsim.table.game import play_table_game
from pitchsim.table.record import views_of

WORLDS = 60


def view_at(scores, bid, partnership=False, rules="auction-pitch") -> View:
    """Seat 1 pitched ``bid`` in hearts and leads trick 2 (4 players, target 7)."""
    return View.from_json(
        view_doc(
            "partnership=true" if partnership else rules, seat=1, dealer=3,
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
        # one point would reach 7, but set the pitcher scores minus its bid (0.9): 3
        ([0, 6, 0, 0], 3, 3),
        # past the target already: making the bid is all it takes (edge case 10)
        ([0, 9, 0, 0], 2, 2),
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


def test_set_pitcher_wins_is_not_won_by_making_the_bid_alone():
    """set-pitcher-wins (the Variants table; 6.3.6): a pitcher at or past the target at
    the end of the hand wins even set.  Hand-worked: seat 1 on 10 of 7 bids 2; made it
    ends on 12 or more, set on 10 - 2 = 8: at or past 7 either way, so it wins the game
    on this hand whatever is played.  Winning is then not "taking 2 points" (what the
    base game's own need once said: P(game) = P(at least 2)): the one ``game_need``
    leaves it to ``game_open``, and the coach judges in net P(game), every card 1 (your
    side wins in every world), none better than another.  On 5 of 7 a bid of 2 made
    reaches 7 and set leaves 3: open by making its bid; on 2 no hand's 4 points reach 7."""
    rules = "set-pitcher-wins=true"
    v = view_at([0, 10, 0, 0], 2, rules=rules)
    assert game_need(view_at([0, 10, 0, 0], 2)) == 2  # without the option: make the bid
    assert game_need(v) is None and "can go out even set" in game_open(v)
    assert "can go out by making its bid" in game_open(view_at([0, 5, 0, 0], 2, rules=rules))
    assert game_open(view_at([0, 2, 0, 0], 2, rules=rules)) is None  # 2 + 4 < 7
    j = judge_card(v, v.legal()[0], 1, WORLDS, 5, time=None)
    assert j.unit == NET_GAME_UNIT and not j.defending
    assert j.values == {c: 1.0 for c in v.legal()} and j.loss == 0.0
    assert "can go out even set" in j.note


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
