"""The family rollout (kernels/search/rollout.py): its play-out resumes a logged hand
at any card and finishes it exactly as the play loop did; rollout games are legal,
reproducible and named as strategies (pimc's: tests/test_presets_pimc.py)."""

from __future__ import annotations

import numpy as np
import pytest
from logged_hands import cards_of_hand, heuristic_chooser, logged_hands

from pitchsim.game.rules import Rules
from pitchsim.kernels.score import N_AWARDS, score_hand
from pitchsim.kernels.search.rollout import GAME_MINE, GAME_OTHER, play_on
from pitchsim.table.bidding import StrategyError
from pitchsim.table.boards import board_game, board_tournament, strategy_for

# (auction-pitch with partners and Low to its holder: the base game's play-out, once
# checked by the base kernels' own tests)
FAMILIES = [
    "auction-pitch,partnership=true,low=dealt",
    "setback",
    "smear",
    "ten-point",
    "ten-point,follow=trump",
    "smear,follow=suit",
]


@pytest.mark.parametrize("spec", FAMILIES)
def test_play_on_finishes_a_logged_hand_as_played(spec):
    n = 4
    lg = logged_hands(spec, n, 20, seed=3)
    resumed = 0
    for d in range(20):
        tricks = int(lg.trumps[d, 1])
        for at in cards_of_hand(lg, d):
            if at.t == 0 and not at.trick and lg.r.trump == "first-lead":
                continue  # the first lead fixes trump: nothing to resume before it
            h2 = np.array(at.hands, np.int64)
            w2 = np.array(at.won, np.int64)
            tr, ts = at.trick_arrays(n)
            got = play_on(
                h2, w2, n, 0, at.trump, at.t, at.leader, at.i, tr, ts, len(at.trick),
                np.int64(at.played), lg.fr, lg.tab, -1, -1,
            )  # fmt: skip
            assert got == tricks, (spec, d, at.t, at.i)
            a = np.zeros(N_AWARDS, np.int64)
            p = np.zeros(n, np.int64)
            score_hand(lg.held[d], w2, n, at.trump, lg.fr, lg.tab, a, p, 0, -1)
            assert list(a) == list(lg.award[d]) and list(p) == list(lg.points[d]), (spec, d)
            resumed += 1
    assert resumed > 100


def test_rollout_is_a_family_strategy_and_an_unknown_bidder_is_refused():
    r = Rules.parse("smear")
    assert strategy_for("heuristic+rollout:8", r).play == "rollout:8"
    assert strategy_for("heuristic+pimc:4", r).play == "pimc:4"  # tests/test_presets_pimc.py
    assert strategy_for("advisor+heuristic", r).bidding == "advisor"  # test_presets_advisor
    with pytest.raises(StrategyError, match="unknown bidding policy 'nosuch'"):
        strategy_for("nosuch+heuristic", r)


@pytest.mark.parametrize("spec", ["setback", "smear", "ten-point"])
def test_rollout_games_are_legal_and_reproducible(spec):
    """A whole game with rollout seats: the kernels' own legality (every card logged was
    legal: the reference engine's check is the cross-check of test_families_games) and
    the same game from the same seed."""
    seats = ["heuristic+rollout:4", "heuristic", "heuristic+rollout:4", "heuristic"]
    a = board_game(11, 0, seats, Rules.parse(spec))
    b = board_game(11, 0, seats, Rules.parse(spec))
    assert a.to_json() == b.to_json()
    assert a.hands and a.winners
    plain = board_game(11, 0, ["heuristic"] * 4, Rules.parse(spec))
    assert a.to_json()["strategies"] != plain.to_json()["strategies"]


def test_rollout_tournament_runs_and_repeats():
    r = Rules.parse("setback")
    chosen = [strategy_for(s, r) for s in ("heuristic+rollout:2", "heuristic")]
    one = board_tournament(chosen, 4, 3, r, seed=5, threads=1)
    two = board_tournament(chosen, 4, 3, r, seed=5, threads=2)
    assert np.array_equal(one.wins, two.wins)
    assert one.wins.sum() + one.unfinished == pytest.approx(3 * 2)


@pytest.mark.parametrize("objective", [0, 1, 2])
@pytest.mark.parametrize("spec", ["setback", "smear", "ten-point"])
def test_rollout_values_are_the_side_objective_on_shared_worlds(spec, objective):
    """``rollout_values`` against the objective recomputed here card by card on the same
    worlds: the seat's side's score change (made: its points; set: minus the bid) less
    the mean change of the other sides, settled by the rule in words.  The measurement
    objectives (``scripts/compare_objectives.py``) likewise: 1, worlds the seat's side
    gets its way (the pitcher's: made; a defender's: set) first, then the pitcher's
    side's points (a defender: fewest); 2, those worlds first, then the score change."""
    from pitchsim.kernels.play import seat_knowledge
    from pitchsim.kernels.search.rollout import MADE_WEIGHT, rollout_values
    from pitchsim.kernels.search.worlds import sample_worlds, world_constraint

    n = 4
    count = 6
    lg = logged_hands(spec, n, count, seed=9)
    r, fr, tab, dealt, held = lg.r, lg.fr, lg.tab, lg.dealt, lg.held
    bid = 2 if r.max_bid < 10 else 6
    pitcher = 0
    checked = 0
    for d in range(count):
        trump = int(lg.trumps[d, 0])
        known = np.zeros(n, np.int64)
        back = np.zeros((n, n), np.int64)
        down = seat_knowledge(dealt[d], held[d], n, pitcher, n - 1, trump, fr, tab, known, back, 0)
        for at in cards_of_hand(lg, d):  # the first trick's decisions (the widest search)
            if at.t > 0:
                break
            seat, legal, hands, trick, i = at.seat, at.legal, at.hands, at.trick, at.i
            if legal & (legal - 1) and not (not trick and r.trump == "first-lead"):
                allowed = np.zeros(n + 1, np.int64)
                pile = 0 if seat == pitcher else down  # the put-down it has not seen
                counts = np.array([bin(h).count("1") for h in hands] + [pile], np.int64)
                unseen, must = world_constraint(
                    n, seat, np.int64(hands[seat]), known[seat], back[seat],
                    np.array(at.pby, np.int64), np.int64(0), counts, trump, fr, tab, allowed,
                )  # fmt: skip
                worlds = np.zeros((5, n + 1), np.int64)
                kept, _ = sample_worlds(
                    np.uint64(d + 1), n, seat, np.int64(hands[seat]), unseen, counts, allowed,
                    must, worlds, 1000,
                )  # fmt: skip
                assert kept == 5
                tr, ts = at.trick_arrays(n)
                won, pby, played, t, leader = at.won, at.pby, at.played, at.t, at.leader
                got = rollout_values(
                    worlds, kept, np.int64(legal), seat, n, pitcher, bid, trump, t, tr, ts,
                    len(trick), np.int64(played), np.array(won, np.int64),
                    np.array(pby, np.int64), fr, tab, objective, -1,
                )  # fmt: skip
                side = (lambda s: s % 2) if r.partnership else (lambda s: s)
                ours = side(seat) == side(pitcher)
                others = [s for s in range(n) if side(s) != side(seat)]
                cards = [x for x in range(54) if legal >> x & 1]
                for j, card in enumerate(cards):
                    total = 0.0
                    for w in range(kept):
                        h2 = worlds[w].copy()
                        h2[seat] &= ~(1 << card)
                        tr2, ts2 = tr.copy(), ts.copy()
                        tr2[len(trick)] = card
                        ts2[len(trick)] = seat
                        w2 = np.array(won, np.int64)
                        play_on(h2, w2, n, pitcher, trump, t, leader if trick else seat, i + 1,
                                tr2, ts2, len(trick) + 1, np.int64(played), fr, tab, -1, -1)  # fmt: skip
                        hw = np.array([int(worlds[w, s]) | pby[s] for s in range(n)], np.int64)
                        a = np.zeros(N_AWARDS, np.int64)
                        p = np.zeros(n, np.int64)
                        score_hand(hw, w2, n, trump, fr, tab, a, p, pitcher, -1)
                        made = p[pitcher] >= bid
                        change = [
                            -bid if side(s) == side(pitcher) and not made else int(p[s])
                            for s in range(n)
                        ]
                        v = change[seat] * len(others) - sum(change[s] for s in others)
                        if objective == 1:
                            v = int(p[pitcher]) if ours else -int(p[pitcher])
                        if objective != 0 and made == ours:
                            v += int(MADE_WEIGHT)
                        total += v
                    assert got[j] == total, (spec, objective, d, seat, card)
                checked += 1
    assert checked >= 6


# ---------------------------------------------------------------- rollout_game


def reference_rollout_game(r, held, pitcher, bid, shoot, trump, script, seat, scores, fr, tab):
    """Plain Python: who wins the game on this hand (``rollout_game``'s code) when the
    hand is played from its first lead by the reference engine (``reference.hand.
    play_hand``, which checks every card legal): the cards of ``script`` in play order
    (the play so far, then the card valued), then every seat's ``heuristic`` card (the
    rollout's policy, asked from the reference's view); scored by the reference, settled
    by it from ``scores`` (docs/rules.md 0.9) and its winners found (2.11, 3.11, the win
    rule, a made shoot); ``trump`` the suit named (-1: the first card fixes it)."""
    from pitchsim.game.reference import hand as ref_hand
    from pitchsim.game.reference import score as ref_score

    choose = heuristic_chooser(len(held), fr, tab, script)
    rec = ref_hand.play_hand([int(h) for h in held], pitcher, choose, r, bid, trump)
    points = rec.score.points
    change = ref_score.settle_hand(points, pitcher, bid, r)
    after = [s + c for s, c in zip(scores, change, strict=True)]
    made = ref_score.pitcher_made(points, pitcher, bid)
    sides = ref_score.winners(after, pitcher, made, r, shoot)
    mine = r.team(seat)
    return (mine in sides) * GAME_MINE | any(s != mine for s in sides) * GAME_OTHER


GAME_SPECS = [
    ("setback", 4),  # win=highest, partners
    ("smear", 4),  # pitcher-first, four sides
    ("smear", 3),
    ("ten-point", 4),  # pitcher-first, partners, follow=only, named trump, the draw
    ("five-point", 4),
    ("smear,win=pitcher", 5),
    ("auction-pitch,set-pitcher-wins=true", 4),  # win=pitcher, a set pitcher may win
    ("smear,shoot=true", 4),
]


@pytest.mark.parametrize(("spec", "n"), GAME_SPECS)
def test_rollout_game_is_the_reference_engines_game_on_random_positions(spec, n):
    """``rollout_game`` against the plain-Python reference on random positions of logged
    hands (every card decision with a choice, the first lead too, in a few deals), each
    with random scores near the target, a random bid (a shoot where the rules have it):
    per legal card, the same winners of the game on this hand."""
    from pitchsim.kernels.search.rollout import rollout_game

    rng = np.random.default_rng(sum(map(ord, spec)) + n)
    count = 12
    pitcher = 0
    lg = logged_hands(spec, n, count, seed=5, pitcher=pitcher)
    r, fr, tab = lg.r, lg.fr, lg.tab
    seen = {0: 0, GAME_MINE: 0, GAME_OTHER: 0, GAME_MINE | GAME_OTHER: 0}
    checked = 0
    for d in range(count):
        trump = int(lg.trumps[d, 0])
        for at in cards_of_hand(lg, d):
            legal, t, trick = at.legal, at.t, at.trick
            if not (legal & (legal - 1) and rng.random() < 0.35):
                continue
            sides = sorted({r.team(s) for s in range(n)})
            top = r.max_bid
            side_score = {
                s: int(r.target - rng.integers(0, top + 2)) for s in sides
            }  # near the target: most hands can end the game
            scores = np.array([side_score[r.team(s)] for s in range(n)], np.int64)
            shoot = bool(r.shoot and rng.random() < 0.5)
            bid = top if shoot else int(rng.integers(r.min_bid, top + 1))
            worlds = np.array([[*at.hands, 0]], np.int64)
            cards = np.array([x for x in range(54) if legal >> x & 1], np.int64)
            tr, ts = at.trick_arrays(n)
            known = -1 if (t == 0 and not trick and r.trump == "first-lead") else trump
            out = np.full((cards.size, 1), -1, np.int64)
            rollout_game(
                worlds, cards, at.seat, n, pitcher, bid, shoot, known, t, tr, ts,
                len(trick), np.int64(at.played), np.array(at.won, np.int64),
                np.array(at.pby, np.int64), scores, fr, tab, out, -1,
            )  # fmt: skip
            for j, card in enumerate(cards):
                want = reference_rollout_game(
                    r, lg.held[d], pitcher, bid, shoot,
                    -1 if r.trump == "first-lead" else trump, [*at.script, int(card)],
                    at.seat, [int(x) for x in scores], fr, tab,
                )  # fmt: skip
                assert out[j, 0] == want, (spec, d, t, at.i, int(card), list(scores), bid)
                seen[want] += 1
            checked += 1
    assert checked >= 20, checked
    # the positions reach each outcome: the game goes on, the seat's side wins, another
    assert seen[0] and seen[GAME_MINE] and seen[GAME_OTHER], seen
