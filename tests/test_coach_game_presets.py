"""Under a preset the coach judges a card in P(game) when the hand can decide the game,
and only by the pitcher's side going out (issue 30, "a coach that judges in P(win game)
whenever the game can be decided this hand"): that side wins on this hand exactly when
it makes its bid at or past the target (docs/rules.md 0.9, 6.1 win), so it needs
max(bid, target - its score), at most the preset's most points a hand.  Under
win=pitcher-first and win=highest another side could go out on the same hand; the coach
then judges in net P(game), P(its side wins the game on this hand) minus P(another side
does), each world's hand played on by the heuristic and settled by the game kernels'
own code (``rollout_game``, tested against the reference engine in
tests/test_family_rollout.py); so too under a shoot (docs/rules.md 6.1: made, the
shooter's side wins at once) and set-pitcher-wins (6.3.6).  A hand that can end the game
for nobody stays in the margin."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from views import pitcher_and_defender

from pitchsim.coach.judge import (
    NET_GAME_UNIT,
    describe,
    game_need,
    game_open,
    judge,
    judge_card,
)
from pitchsim.game.rules import Rules
from pitchsim.game.view import View, card_text
from pitchsim.search.hint import hint_view
from pitchsim.table.game import play_table_game
from pitchsim.table.record import views_of

WORLDS = 60


def a_play_view(spec: str, players: int, seed: int = 3):
    """A card decision with a choice, seat 1 pitching, from a game played under ``spec``."""
    for s in range(seed, seed + 40):
        record = play_table_game(["odds+heuristic"] * players, Rules.parse(spec), s)
        for view, _ in views_of(record):
            if view.phase == "play" and len(view.legal()) > 1 and not view.shoot:
                return view
    raise AssertionError(f"no card decision under {spec}")


@pytest.fixture(scope="module")
def smear_view():
    return a_play_view("smear", 4)


def at(view, scores, bid, **rules):
    """``view`` with the pitcher's bid, the scores (per seat) and rule options changed."""
    r = dataclasses.replace(view.rules, **rules) if rules else view.rules
    return dataclasses.replace(view, scores=tuple(scores), bid=bid, rules=r)


def test_smears_need_hand_worked(smear_view):
    """Smear: 4 sides, target 11, 5 points a hand (a bid of 2-5), pitcher-first."""
    v, p = smear_view, smear_view.pitcher
    others = [s for s in range(4) if s != p]

    def scores(mine, theirs):
        out = [0] * 4
        out[p] = mine
        for s in others:
            out[s] = theirs
        return out

    assert game_need(at(v, scores(9, 0), 2)) == 2  # making 2 reaches 11
    assert game_need(at(v, scores(8, 0), 2)) == 3  # 3 points reach 11
    assert game_need(at(v, scores(8, 0), 4)) == 4
    assert game_need(at(v, scores(5, 0), 3)) is None  # 6 needed: a hand has 5
    # another side on 6 could take all 5 and reach 11 first: the margin decides
    assert game_need(at(v, scores(9, 6), 2)) is None
    assert game_need(at(v, scores(9, 5), 2)) == 2  # 5 + 5 = 10 < 11
    # under win=pitcher only the pitcher's side goes out on its hand
    assert game_need(at(v, scores(9, 10), 2, win="pitcher")) == 2
    # set-pitcher-wins (with win=pitcher) and a shoot are left to the margin
    sp = at(v, scores(9, 0), 2, win="pitcher", set_pitcher_wins=True)
    assert game_need(sp) is None
    assert game_need(dataclasses.replace(at(v, scores(9, 0), 2), shoot=True)) is None


def test_partners_carry_their_teams_score():
    """Ten-point, partnership: target 32, 10 points a hand; a seat's score is its team's."""
    v = a_play_view("ten-point", 4)
    p = v.pitcher
    team = [p % 2 == s % 2 for s in range(4)]
    scores = [25 if t else 10 for t in team]
    assert game_need(at(v, [scores[0], scores[1]], max(v.bid, 5))) == max(v.bid, 7)
    scores = [25 if t else 22 for t in team]  # 22 + 10 = 32: the others can go out too
    assert game_need(at(v, [scores[0], scores[1]], v.bid)) is None


@pytest.fixture(scope="module")
def decided():
    # win=pitcher and a low target: most hands can end the game, by the pitcher only
    return pitcher_and_defender(
        Rules.parse("smear,win=pitcher,target=5"), 4, range(1, 80), game_need
    )


@pytest.mark.parametrize("side", ["pitcher", "defender"])
def test_a_card_is_judged_in_p_game_when_the_hand_can_end_the_game(decided, side):
    view, action, need = decided[side]
    j = judge(view, action, 1, 5, worlds=WORLDS, time=None)
    h = hint_view(view, worlds=WORLDS, seed=5, time=None, points=True)
    p = {card_text(c.card): c.p_at_least[need - 1] for c in h.cards}
    want = {c: (v if side == "pitcher" else 1 - v) for c, v in p.items()}
    assert j.unit == "P(game)" and j.values == pytest.approx(want)
    assert j.defending == (side == "defender")
    assert j.best == max(j.values, key=lambda c: (j.values[c], c == action))
    assert j.loss == pytest.approx(j.values[j.best] - j.values[action])
    assert f"wins it by taking {need} points" in j.note
    assert "the worlds fit the play seen and the draw" in j.note
    assert j.note.count("not the calls heard") == 1  # said once (it was twice)
    if j.best != action:
        assert "of P(game)" in describe(j)


def test_the_chances_are_the_pitchers_side_reaching_the_need(decided):
    """Recounted apart from the coach: in the pitcher's case, each card's P(game) is the
    share of the hint's worlds whose points reach ``need``, and it can only fall as the
    need rises (P(at least k) is a survival function of the points)."""
    view, action, need = decided["pitcher"]
    h = hint_view(view, worlds=WORLDS, seed=5, time=None, points=True)
    for c in h.cards:
        ps = list(c.p_at_least)
        assert all(a >= b for a, b in zip(ps, ps[1:], strict=False))
        assert 0.0 <= ps[need - 1] <= 1.0
    j = judge(view, action, 1, 5, worlds=WORLDS, time=None)
    assert set(j.values) == {card_text(c.card) for c in h.cards} == set(view.legal())


def test_a_hand_that_cannot_end_the_game_keeps_the_margin(smear_view):
    v = at(smear_view, [0, 0, 0, 0], smear_view.bid)
    assert game_need(v) is None
    j = judge(v, v.legal()[0], 1, 5, worlds=WORLDS, time=None)
    assert j.unit == "margin"


def test_which_hands_are_open_to_more_than_the_pitcher(smear_view):
    """``game_open``: smear, target 11, 5 points a hand, win=pitcher-first (3.11:
    any side at the target ends the game); setback's win=highest (2.11) alike."""
    v, p = smear_view, smear_view.pitcher
    scores = [0] * 4
    scores[p] = 9
    other = (p + 1) % 4
    assert game_open(at(v, scores, 2)) is None  # only the pitcher: P(game)
    scores[other] = 6  # 6 + 5 = 11: another side can go out too
    why = game_open(at(v, scores, 2))
    assert why is not None and "(6 of 11)" in why and "(9 of 11, bid 2)" in why
    assert game_need(at(v, scores, 2)) is None
    # the pitcher far from the target, a defender near it: still open (the missing case)
    scores[p] = 0
    assert game_open(at(v, scores, 2)) is not None
    # win=pitcher: no other side goes out on the pitcher's hand
    assert game_open(at(v, scores, 2, win="pitcher")) is None
    # nobody within the hand's 5 points of 11: the margin
    assert game_open(at(v, [5, 5, 5, 5], 2)) is None
    # a shoot (6.1): made, the shooter's side wins at once, whatever the scores
    shot = dataclasses.replace(at(v, [0, 0, 0, 0], v.preset.max_bid), shoot=True)
    assert "shot" in game_open(shot)
    # set-pitcher-wins (6.3.6, win=pitcher): a pitcher already past the target wins set
    sp = at(v, [0] * p + [13] + [0] * (3 - p), 2, win="pitcher", set_pitcher_wins=True)
    assert "can go out even set" in game_open(sp)
    sp = at(v, [0] * p + [9] + [0] * (3 - p), 2, win="pitcher", set_pitcher_wins=True)
    assert "can go out by making its bid" in game_open(sp)
    sp = at(v, [0] * p + [5] + [0] * (3 - p), 2, win="pitcher", set_pitcher_wins=True)
    assert game_open(sp) is None  # 5 + 5 < 11


# Hand-worked (docs/rules.md 0.7, 0.8, 0.9, 3.11): smear, 3 players, spades named trump.
# Seat 0 pitched 2 and stands on 6 of 11, seat 1 on 10, you (seat 2) on 5.  Seat 0 has
# captured High (AS, trick 4); you hold Low (2S, Low to its holder under low=dealt).
# Game counts so far: seat 0 18, seat 1 20, you 5.  Trick 5: seat 0 leads the Jack (JS),
# seat 1 must follow with the Jick (JC, its only trump); you play last, QS or 2S; the last
# trick is seat 0's 3H, seat 1's 4D and your other card.
#  QS takes the Jack and the Jick (you 3 points: Low, Jack, Jick); you lead 2S to the
#     last trick and take it; counts 18, 20, 9: Game to seat 1.  Seat 0 (High, 1 point)
#     is set, 6 - 2 = 4; seat 1 reaches 10 + 1 = 11 and wins the game.  Your margin: 3
#     minus the mean of -2 and +1, +3.5; net P(game) -1.
#  2S lets seat 0 take the Jack and the Jick (3 points, made: 9); your QS takes the last
#     trick; counts 20, 20, 7: a tie, Game to nobody; seat 1 stays on 10, you 6.  Nobody
#     is at 11: the game goes on.  Your margin 1 minus the mean of 3 and 0, -0.5; net 0.
# The margin plays QS, the game 2S.
HAND_WORKED = {
    "rules": "smear", "players": 3, "seat": 2, "dealer": 2,
    "hand": ["3D", "7H", "KH", "AC", "QS", "2S"], "scores": [6, 10, 5],
    "calls": ["2", "pass", "pass"], "trump": "S",
    "tricks": [
        {"leader": 0, "cards": ["5D", "TD", "3D"]},
        {"leader": 1, "cards": ["TH", "7H", "6H"]},
        {"leader": 1, "cards": ["9H", "KH", "QH"]},
        {"leader": 2, "cards": ["AC", "AS", "TC"]},
        {"leader": 0, "cards": ["JS", "JC"]},
    ],
}  # fmt: skip


def _mask(text: str) -> int:
    from pitchsim.game.cards import parse_cards

    return sum(1 << c for c in parse_cards(text, jokers=0))


def _true_world_game(v):
    """``rollout_game`` of 2S and QS (rows) in the hand's one true world (the last two
    cards of seats 0 and 1 as hand-worked): the knowledge, the world and the codes."""
    from pitchsim.kernels.search.rollout import rollout_game
    from pitchsim.table.decide import view_knowledge

    k = view_knowledge(v)
    worlds = np.array([[_mask("3H"), _mask("4D"), _mask("QS 2S"), 0]], np.int64)
    cards = np.array([_mask("2S").bit_length() - 1, _mask("QS").bit_length() - 1])
    out = np.zeros((2, 1), np.int64)
    rollout_game(
        worlds, cards, k.seat, k.n, k.pitcher, v.bid, False, k.trump, k.trick_no, k.trick,
        k.tseats, k.count, np.int64(k.played), k.won, k.pby,
        np.array(v.seat_scores(), np.int64), k.fr, k.tab, out, -1,
    )  # fmt: skip
    return k, worlds, out


def test_hand_worked_the_game_and_the_margin_choose_different_cards():
    """The hand above in its one true world: ``rollout_game`` and the margin's
    ``rollout_values`` give what the hand-working gives, card by card."""
    from pitchsim.kernels.search.rollout import GAME_OTHER, rollout_values

    v = View.from_json(HAND_WORKED, "test")
    assert v.legal() == ["2S", "QS"] and game_need(v) is None
    assert "seat 1's side (10 of 11)" in game_open(v)
    k, worlds, out = _true_world_game(v)
    assert list(out[:, 0]) == [0, GAME_OTHER]  # 2S: the game goes on; QS: seat 1 wins
    margin = rollout_values(
        worlds, 1, np.int64(k.legal), k.seat, k.n, k.pitcher, v.bid, k.trump, k.trick_no,
        k.trick, k.tseats, k.count, np.int64(k.played), k.won, k.pby, k.fr, k.tab, 0, -1,
    )  # fmt: skip
    assert list(margin) == [2 * -0.5, 2 * 3.5]  # scaled by the 2 seats on other sides


def test_hand_worked_the_coach_judges_it_in_net_p_game():
    """At the table the last two cards of seats 0 and 1 are unseen, so the worlds deal
    them; the hand-working above holds in nearly all (a K of spades or two tens among
    them can change the last trick): the coach judges in net P(game) and calls QS, the
    margin's card, a blunder; the margin (today's measure for this hand) prefers QS."""
    v = View.from_json(HAND_WORKED, "test")
    j = judge(v, "QS", 5, 1, worlds=WORLDS, time=None)
    assert j.unit == NET_GAME_UNIT and j.best == "2S" and j.label == "blunder"
    assert j.values["QS"] < -0.8 and j.values["2S"] > -0.1
    assert not j.defending
    assert "more than the pitcher's side" in j.note and "seat 1's side (10 of 11)" in j.note
    assert j.note.endswith("; the worlds fit the play seen and the draw, not the calls heard")
    assert "of net P(game)" in describe(j)
    margin = hint_view(v, worlds=WORLDS, seed=1, time=None)
    best = max(margin.cards, key=lambda c: c.points)
    assert card_text(best.card) == "QS"
    # the values are hint's, valued by the game on this hand
    h = hint_view(v, worlds=WORLDS, seed=1, time=None, game=True)
    assert j.values == pytest.approx({card_text(c.card): c.points for c in h.cards})


# Hand-worked (12.4): the same hand as the last of a hands=3 game (two played), every seat
# on 0, so the highest total after it wins, whatever the target:
#  QS: seat 0 set (High only, bid 2): -2; seat 1 Game +1; you Low, Jack, Jick +3:
#      [-2, 1, 3], you win.
#  2S: seat 0 High, Jack, Jick, made: +3; seat 1 nothing (Game tied); you Low +1:
#      [3, 0, 1], seat 0 wins.
# With a hand still to come nobody wins on it.
LAST_HAND = dict(HAND_WORKED, rules="smear,hands=3", scores=[0, 0, 0], hands_played=2)


@pytest.mark.parametrize("played, want", [(2, "last"), (1, None)])
def test_hand_worked_the_last_hand_of_n_is_valued_by_the_game(played, want):
    from pitchsim.kernels.search.rollout import GAME_MINE, GAME_OTHER

    v = View.from_json(dict(LAST_HAND, hands_played=played), "test")
    assert game_need(v) is None
    why = game_open(v)
    assert (why is None) if want is None else ("game's last hand" in why)
    _, _, out = _true_world_game(v)
    assert list(out[:, 0]) == ([GAME_OTHER, GAME_MINE] if want else [0, 0])


def test_the_coach_judges_the_last_hand_of_n_in_net_p_game():
    v = View.from_json(LAST_HAND, "test")
    j = judge(v, "2S", 5, 1, worlds=WORLDS, time=None)
    assert j.unit == NET_GAME_UNIT and j.best == "QS" and j.label == "blunder", j
    assert "game's last hand" in j.note and "the game ends on this hand" in j.note


def test_a_hand_no_world_ends_stays_in_the_margin():
    """The same hand with seat 1 on 6 (6 + 5 = 11: it could go out with every point)
    and seat 0 on 0: seat 0 holds High already, so nobody can reach 11 on it; every
    card's net P(game) is 0 in every world, and the coach judges in the margin, saying
    why."""
    doc = dict(HAND_WORKED, scores=[0, 6, 5])
    v = View.from_json(doc, "test")
    assert game_open(v) is not None
    j = judge_card(v, "QS", 5, WORLDS, 1, time=None)
    assert j.unit == "margin" and j.best == "QS"
    assert "it ends in none of the" in j.note


def test_a_saved_game_may_hold_cards_judged_by_the_game_under_every_preset():
    """A practice save holds cards judged in P(game) and net P(game) under every preset
    (the record check once took only the margin under a preset, and only P(game) in the
    base game, whose set-pitcher-wins is judged in net P(game) now); else a card is in
    its preset's own unit, auction-pitch's points and the others' margin."""
    from pitchsim.coach.practice import PracticeError, _check_judgements

    v = View.from_json(HAND_WORKED, "test")
    j = judge(v, "QS", 5, 1, worlds=WORLDS, time=None).to_json()

    def bad(what):
        return PracticeError(what)

    decisions = [(5, "play", "QS")]
    for rules, own, other in ((Rules.parse("smear"), "margin", "points"),
                              (Rules(), "points", "margin")):  # fmt: skip
        for unit in ("P(game)", NET_GAME_UNIT, own):
            _check_judgements([dict(j, unit=unit)], decisions, 2, bad, rules)
        with pytest.raises(PracticeError, match="is not a card's here"):
            _check_judgements([dict(j, unit=other)], decisions, 2, bad, rules)


def test_hint_game_values_the_hand_worked_cards_by_the_game(tmp_path):
    """``pitchsim hint --game``: the coach's net P(game) on the command line (and what
    ``pitchsim cache warm`` runs to compile ``rollout_game``)."""
    from clirun import cli

    from pitchsim.util.jsonio import dumps_json

    path = tmp_path / "view.json"
    path.write_text(dumps_json(HAND_WORKED), encoding="utf-8")
    code, out, err = cli("hint", str(path), "--game", "--worlds", "50", "--seed", "1")
    assert code == 0, err
    assert "Value: P(your side wins the game on this hand) minus P(another side" in out
    assert "Play 2♠ (the highest value" in out


def test_hint_game_is_refused_outside_rollout(tmp_path):
    from clirun import refused

    from pitchsim.util.jsonio import dumps_json

    path = tmp_path / "view.json"
    path.write_text(dumps_json(HAND_WORKED), encoding="utf-8")
    words = "by rollout (the heuristic playing on at every seat), not by pimc"
    refused("hint", str(path), "--policy", "pimc", "--game", "--worlds", "10", words=words)


def test_hint_game_under_the_base_game():
    """auction-pitch is a preset like the others: --game values the game on this hand
    there too (by rollout, whatever the table size's default policy)."""
    from clirun import cli

    argv = ["--hand", "AH KH 2H 9C 7D 3S", "--dealer", "0", "--calls", "2,pass,pass,pass"]
    code, out, err = cli("hint", *argv, "--game", "--worlds", "10", "--seed", "1")
    assert code == 0, err
    assert "rollout (every seat plays on" in out
    assert "Value: P(your side wins the game on this hand) minus P(another side" in out
