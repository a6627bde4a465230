"""`hands` (docs/rules.md 12.4, 6.3.10): a game of N hands, the highest total winning, as
values of the one engine: the rule string, the reference engine's game loop clause by
clause, the family kernels' whole games against the reference game by game
(``test_families_games.crosscheck``), the table's game and its records, the view (hands
played and left), the engine, and the commands that refuse what they cannot weigh.

Expectations are worked by hand from the clauses, not read off the code.
"""

from __future__ import annotations

import json
import random

import pytest
from clirun import cli, refused
from test_families_games import CrossCheckError
from test_families_games import crosscheck as games_crosscheck
from views import view_doc

from pitchsim.game import reference as F
from pitchsim.game.cards import cards_of
from pitchsim.game.rules import Rules, RulesError, spec
from pitchsim.game.view import View, ViewError
from pitchsim.kernels.presets import F_HANDS, rules_array
from pitchsim.table.engine import Engine
from pitchsim.table.record import RecordError, replay

# ---- 12.4 the option -----------------------------------------------------------------------------


def test_12_4_off_by_default_or_a_number_of_hands_1_to_100():
    assert Rules.parse("five-point").hands == "off"
    for n in (1, 7, 100):
        r = Rules.parse(f"five-point,hands={n}")
        assert r.hands == n and r.hands_limit == n and Rules.parse(spec(r)) == r
    assert Rules.parse({"family": "smear", "hands": 5}).hands_limit == 5
    for bad in ("0", "101", "-1", "x", "1.5"):
        with pytest.raises(RulesError, match="hands takes off or a number of hands 1-100"):
            Rules.parse(f"smear,hands={bad}")
    refused("rules", "--rules", "smear,hands=0", words="hands takes off")


def test_12_4_and_6_3_10_target_win_and_set_pitcher_wins_may_be_given_and_change_nothing():
    r = Rules.parse("auction-pitch,hands=3,target=1,set-pitcher-wins=true")
    assert r.hands_limit == 3
    # made at the target after one hand: under hands=3 nobody has won yet
    assert F.winners([5, 0, 0], 0, True, r, counted=1) == []
    assert F.winners([5, 0, 0], 0, True, Rules.parse("auction-pitch,target=1")) == [0]


def test_12_4_after_the_nth_hand_the_highest_total_wins_a_tie_shared():
    r = Rules.parse("auction-pitch,hands=4")
    assert F.winners([3, 5, 1], 0, True, r, counted=3) == []
    assert F.winners([3, 5, 1], 0, True, r, counted=4) == [1]
    assert F.winners([5, 5, 1], 2, False, r, counted=4) == [0, 1]  # shared (3.11)
    assert F.winners([-2, -3, -4], None, False, r, counted=4) == [0]  # below zero too
    team = Rules.parse("five-point,hands=2")
    assert F.winners([4, 4, 4, 4], 1, True, team, counted=2) == [0, 1]


def test_12_4_a_redealt_all_pass_hand_does_not_count_another_all_pass_does():
    assert not F.counts(None, Rules.parse("five-point,hands=3"))  # all-pass=redeal
    assert F.counts(None, Rules.parse("setback,hands=3"))  # next-dealer: counts
    assert F.counts(None, Rules.parse("smear,hands=3"))  # dealer-set: counts
    assert F.counts(2, Rules.parse("five-point,hands=3"))


def test_12_4_a_made_shoot_still_wins_at_once():
    r = Rules.parse("auction-pitch,shoot=true,hands=10")
    assert F.winners([4, 0, 0], 0, True, r, shoot=True, counted=1) == [0]


def _all_pass_sometimes(rng):
    def bid(seat, hand, calls, legal, scores):
        if rng.random() < 0.3 and 0 in legal:
            return 0
        return rng.choice(legal)

    return bid


@pytest.mark.parametrize(
    "text, n", [("five-point,hands=3", 4), ("setback,hands=2", 4), ("auction-pitch,hands=5", 3)]
)
def test_12_4_the_reference_game_lasts_n_hands_that_count(text, n):
    rules = Rules.parse(text)
    r = rules
    rng = random.Random(text)
    redealt = 0
    for _ in range(6):
        g = F.play_game(
            n, rules, rng, _all_pass_sometimes(rng), lambda s, h: rng.randrange(4),
            lambda view: rng.choice(cards_of(view.legal)), first_dealer=rng.randrange(n),
        )  # fmt: skip
        counted = [h for h in g.hands if h.auction.pitcher is not None or r.all_pass != "redeal"]
        redealt += len(g.hands) - len(counted)
        assert len(counted) == r.hands_limit
        assert g.hands[-1] is counted[-1]  # the game ends on the N-th counted hand
        sides = {r.team(s): sc for s, sc in enumerate(g.scores)}
        best = max(sides.values())
        assert g.winners == [t for t, sc in sides.items() if sc == best]
    if r.all_pass == "redeal":
        assert redealt > 0  # the redeals were met, and not counted


# ---- the kernels' whole games against the reference, game by game ---------------------------------

GAMES = [
    ("five-point,hands=3", 4, "random"),
    ("five-point,hands=3", 4, "heuristic"),
    ("auction-pitch,hands=5,all-pass=redeal,dealer-steal=false", 3, "mixed"),
    ("smear,hands=4", 4, "random"),
    ("setback,hands=2", 4, "heuristic"),
    ("ten-point,hands=2", 4, "random"),
]


@pytest.mark.parametrize("text, n, mix", GAMES)
def test_12_4_the_kernels_play_the_reference_game_game_by_game(text, n, mix):
    counts = games_crosscheck(text, n, 6, mix, seed=len(text) + n)
    assert counts["games"] == 6 and counts["deals"] >= 6 * Rules.parse(text).hands_limit


@pytest.mark.parametrize(
    "text, n, hands, words",
    [
        ("five-point,hands=3", 4, 4, "deals in the game|winners"),  # a hand more
        ("auction-pitch,hands=40,target=3", 3, 0, "deals"),  # the target still ends it
    ],
    ids=["one-hand-too-many", "the-target-still-ending-the-game"],
)
def test_a_planted_bug_in_the_kernels_hands_is_caught(text, n, hands, words):
    fr = rules_array(Rules.parse(text))
    fr[F_HANDS] = hands  # planted
    with pytest.raises(CrossCheckError, match=words):
        games_crosscheck(text, n, 3, "random", seed=5, fr=fr)


# ---- the view, the table, the engine and the commands ---------------------------------------------


# seat 1 to call, two hands of three played
VIEW = view_doc(
    "five-point,hands=3", seat=1, dealer=0, hand="AH KH JD 2H 9C 7D", scores=[2, 5], hands_played=2
)


def test_12_4_the_view_says_hands_played_and_left():
    doc = VIEW
    v = View.from_json(doc)
    assert v.hands_played == 2 and v.hands_left == 1
    out = v.to_json()
    assert out["hands_played"] == 2 and out["hands_left"] == 1
    assert View.from_json(out).hands_left == 1
    with pytest.raises(ViewError, match="hands_played must be 0-2 under hands=3"):
        View.from_json(doc | {"hands_played": 3})
    with pytest.raises(ViewError, match="hands_left is 2"):
        View.from_json(doc | {"hands_left": 2})
    with pytest.raises(ViewError, match=r"only under hands=N \(VARIANTS.md 12.4\)"):
        View.from_json(doc | {"rules": "five-point"})
    assert (
        "hands_left"
        not in View.from_json(doc | {"rules": "five-point", "hands_played": 0}).to_json()
    )


def test_12_4_the_engine_decides_on_a_view_with_hands_left():
    view = VIEW | {"hands_played": 1}
    msg = {"type": "decide", "id": 1, "view": view, "options": {"strategy": "heuristic+heuristic"}}
    reply = json.loads(Engine().handle(json.dumps(msg)))
    assert reply["type"] == "action" and reply["action"] in ("pass", "2", "3", "4", "5"), reply
    # the advisor plays the hands left out (below); odds-game weighs the target, none here
    msg["options"] = {"strategy": "advisor+heuristic"}
    reply = json.loads(Engine().handle(json.dumps(msg)))
    assert reply["type"] == "action" and reply["action"] in ("pass", "2", "3", "4", "5"), reply
    msg["options"] = {"strategy": "odds-game+heuristic"}
    reply = json.loads(Engine().handle(json.dumps(msg)))
    assert reply["type"] == "error" and "hands=3" in reply["message"], reply


def test_12_4_play_a_game_of_n_hands_and_read_its_record_back():
    code, out, _ = cli(
        "play", "--rules", "five-point,hands=3", "--seed", "4", "--game", "--json",
        "-s", "heuristic+heuristic",
    )  # fmt: skip
    assert code == 0
    doc = json.loads(out)
    hands = doc["hands"]
    assert [h["hands_counted"] for h in hands][-1] == 3
    final = doc["final_scores"]
    assert doc["winners"] == sorted({s % 2 for s in range(4) if final[s] == max(final)})
    # the record reads back: every hand replayed, the count and the winners checked
    again = replay(doc)
    assert again["winners"] == doc["winners"] and again["final_scores"] == final
    cut = dict(doc, hands=hands[:2])  # a record that ends before the 3rd hand: refused
    with pytest.raises(RecordError):
        replay(cut | {"final_scores": hands[1]["scores_after"]})


def test_12_4_tournament_plays_n_hands_and_refuses_the_target_bidder():
    code, out, _ = cli(
        "tournament", "--rules", "five-point,hands=2", "--games", "4", "--seed", "2",
        "--threads", "1", "-s", "heuristic+heuristic,random+random",
    )  # fmt: skip
    assert code == 0, out
    err = refused(
        "tournament", "--rules", "five-point,hands=2", "--games", "2", "--seed", "2",
        "-s", "odds-game+heuristic,random+random",
    )  # fmt: skip
    assert "12.4" in err


# ---- advise under hands=N: P(win game) over the hands left -------------------------------------

ADVISE = dict(players=4, seat=1, dealer=0, samples=300, seed=3, threads=1)
HAND = "AH KH JD 2H 9C 7D"


def test_12_4_advise_on_the_last_hand_a_top_bid_wins_exactly_when_made():
    """Seat 1's side leads 5 to 2 on the last of 3 hands (two played).  five-point's
    top bid is 5 (High, Low, Jack, Game, the jick; 8.x), which nobody can outbid: made,
    the side has 10 or more against at most 2 + 0; set, it has 0 against 2 or more.  So
    the game is won exactly when the bid is made (O_WON = O_MADE deal by deal), and
    every kept deal's game ends after this hand, the last to count."""
    from pitchsim.advice.advise import advise

    r = Rules.parse("five-point,hands=3")
    a = advise(HAND, calls=[], scores=[2, 5, 2, 5], rules=r, hands_played=2, **ADVISE)
    assert a.hands_left == 1 and a.to_json()["hands_left"] == 1
    top = a.by_call[5]
    assert top.p_pitcher.value == 1.0
    assert top.p_win_game.value == top.p_made.value
    assert all(c.unfinished == 0 for c in a.by_call.values())
    # 12 behind with one hand left: 5 points at most for the side, and the others keep 7
    # or more even when set at 5, so no call wins
    behind = advise(HAND, calls=[], scores=[12, 0, 12, 0], rules=r, hands_played=2, **ADVISE)
    assert all(c.p_win_game.value == 0.0 for c in behind.by_call.values())


def test_12_4_advise_plays_every_hand_left_to_the_end():
    """With 3 hands left (none played) each kept deal's game is played to the end of
    its 3rd counted hand: none is unfinished (the kernels' hands count reaches N), and
    the answers differ from the last hand's."""
    from pitchsim.advice.advise import advise

    r = Rules.parse("five-point,hands=3")
    first = advise(HAND, calls=[], scores=[2, 5, 2, 5], rules=r, hands_played=0, **ADVISE)
    last = advise(HAND, calls=[], scores=[2, 5, 2, 5], rules=r, hands_played=2, **ADVISE)
    assert first.hands_left == 3
    assert all(c.unfinished == 0 for c in first.by_call.values())
    assert first.by_call[5].p_win_game.value > last.by_call[5].p_win_game.value  # 2 to come


def test_12_4_advise_hands_played_is_checked():
    refused(
        "advise", HAND, "--seat", "1", "--dealer", "0", "--rules", "five-point,hands=2",
        "--hands-played", "2", words="hands played must be 0-1 under hands=2",
    )  # fmt: skip
    refused(
        "advise", HAND, "--seat", "1", "--dealer", "0", "--rules", "five-point",
        "--hands-played", "0", words="only under hands=N",
    )  # fmt: skip
    code, out, err = cli(
        "advise", HAND, "--seat", "1", "--dealer", "0", "--rules", "five-point,hands=3",
        "--hands-played", "2", "--scores", "2,5,2,5", "--samples", "200", "--seed", "1",
    )  # fmt: skip
    assert code == 0, err
    assert "1 of the game's hands left" in out and "the highest total after the last" in out


def test_12_4_practice_shows_the_hands_left_and_coaches_the_cards(tmp_path):
    answers = "p\n5\n2\n1\n" * 3000  # progress at any prompt (test_practice_presets.answers)
    code, out, err = cli(
        "practice", "--rules", "five-point,hands=2", "--opponents", "heuristic+heuristic",
        "--seed", "5", "--samples", "200", "--worlds", "4", "--save", tmp_path / "g.json",
        stdin=answers,
    )  # fmt: skip
    assert code == 0, err
    assert "(hand 1 of 2, 2 left with this one; then the highest total wins)" in out
    assert "(hand 2 of 2, 1 left with this one;" in out and "hand 3 of" not in out
    assert "calls are not judged" not in out and "game over:" in out
    assert "P(win game)" in out  # the calls are judged, over the hands left
