"""The family rollout (kernels/families/rollout.py): its play-out resumes a logged hand
at any card and finishes it exactly as the play loop did; rollout games are legal,
reproducible and named as strategies (pimc's: tests/test_presets_pimc.py)."""

from __future__ import annotations

import numpy as np
import pytest

from pitchsim.game.rules import Rules, as_family
from pitchsim.games.bidding import StrategyError
from pitchsim.games.families import family_board, family_strategy, family_tournament
from pitchsim.kernels.families.play import MAX_TRICKS
from pitchsim.kernels.families.rollout import play_on
from pitchsim.kernels.families.score import N_AWARDS, score_hand
from pitchsim.kernels.families.simulate import play_family_logged
from pitchsim.kernels.families.tables import family_array, family_tables

FAMILIES = ["setback", "smear", "ten-point", "ten-point,follow=trump", "smear,follow=suit"]


@pytest.mark.parametrize("spec", FAMILIES)
def test_play_on_finishes_a_logged_hand_as_played(spec):
    r = as_family(Rules.parse(spec))
    n = 4
    fr, tab = family_array(r), family_tables(r)
    count = 20
    width = MAX_TRICKS * (n + 2)
    dealt = np.zeros((count, n), np.int64)
    held = np.zeros((count, n), np.int64)
    trumps = np.zeros((count, 4), np.int64)
    log = np.zeros((count, width), np.int64)
    award = np.zeros((count, N_AWARDS), np.int64)
    points = np.zeros((count, n), np.int64)
    play_family_logged(
        3, 0, count, n, n - 1, 0, np.int64(0), -1, np.full(n, 1, np.int64), fr, tab,
        dealt, np.zeros((count, 54), np.int64), held, trumps, log,
        np.zeros((count, MAX_TRICKS * n), np.int64), np.zeros((count, 54), np.int64),
        award, points,
    )  # fmt: skip
    resumed = 0
    for d in range(count):
        trump, tricks = int(trumps[d, 0]), int(trumps[d, 1])
        hands = [int(h) for h in held[d]]
        won = [0] * n
        played = 0
        for t in range(tricks):
            row = log[d, t * (n + 2) : (t + 1) * (n + 2)]
            leader = int(row[0])
            trick, tseats = [], []
            for i in range(n):
                c = int(row[1 + i])
                if c < 0:
                    continue
                if not (t == 0 and not trick and r.trump == "first-lead"):
                    h2 = np.array(hands, np.int64)
                    w2 = np.array(won, np.int64)
                    tr = np.zeros(n, np.int64)
                    ts = np.zeros(n, np.int64)
                    tr[: len(trick)] = trick
                    ts[: len(tseats)] = tseats
                    got = play_on(
                        h2, w2, n, 0, trump, t, leader, i, tr, ts, len(trick),
                        np.int64(played), fr, tab,
                    )  # fmt: skip
                    assert got == tricks, (spec, d, t, i)
                    a = np.zeros(N_AWARDS, np.int64)
                    p = np.zeros(n, np.int64)
                    score_hand(held[d], w2, n, trump, fr, tab, a, p)
                    assert list(a) == list(award[d]) and list(p) == list(points[d]), (spec, d, t)
                    resumed += 1
                seat = (leader + i) % n
                trick.append(c)
                tseats.append(seat)
                hands[seat] &= ~(1 << c)
            winner = int(row[n + 1])
            for c in trick:
                won[winner] |= 1 << c
                played |= 1 << c
    assert resumed > 100


def test_rollout_is_a_family_strategy_and_an_unknown_bidder_is_refused():
    r = as_family(Rules.parse("smear"))
    assert family_strategy("heuristic+rollout:8", r).play == "rollout:8"
    assert family_strategy("heuristic+pimc:4", r).play == "pimc:4"  # tests/test_presets_pimc.py
    assert family_strategy("advisor+heuristic", r).bidding == "advisor"  # test_presets_advisor
    with pytest.raises(StrategyError, match="unknown bidding policy 'nosuch'"):
        family_strategy("nosuch+heuristic", r)


@pytest.mark.parametrize("spec", ["setback", "smear", "ten-point"])
def test_rollout_games_are_legal_and_reproducible(spec):
    """A whole game with rollout seats: the kernels' own legality (every card logged was
    legal: the reference engine's check is the cross-check of test_families_games) and
    the same game from the same seed."""
    seats = ["heuristic+rollout:4", "heuristic", "heuristic+rollout:4", "heuristic"]
    a = family_board(11, 0, seats, Rules.parse(spec))
    b = family_board(11, 0, seats, Rules.parse(spec))
    assert a.to_json() == b.to_json()
    assert a.hands and a.winners
    plain = family_board(11, 0, ["heuristic"] * 4, Rules.parse(spec))
    assert a.to_json()["strategies"] != plain.to_json()["strategies"]


def test_rollout_tournament_runs_and_repeats():
    r = as_family(Rules.parse("setback"))
    chosen = [family_strategy(s, r) for s in ("heuristic+rollout:2", "heuristic")]
    one = family_tournament(chosen, 4, 3, r, seed=5, threads=1)
    two = family_tournament(chosen, 4, 3, r, seed=5, threads=2)
    assert np.array_equal(one.wins, two.wins)
    assert one.wins.sum() + one.unfinished == pytest.approx(3 * 2)


@pytest.mark.parametrize("spec", ["setback", "smear", "ten-point"])
def test_rollout_values_are_the_side_objective_on_shared_worlds(spec):
    """``rollout_values`` against the objective recomputed here card by card on the same
    worlds: the seat's side's score change (made: its points; set: minus the bid) less
    the mean change of the other sides, settled by the rule in words."""
    from pitchsim.kernels.families.play import seat_knowledge
    from pitchsim.kernels.families.rollout import rollout_values
    from pitchsim.kernels.families.worlds import family_constraint, sample_family_worlds

    r = as_family(Rules.parse(spec))
    n = 4
    fr, tab = family_array(r), family_tables(r)
    count = 6
    width = MAX_TRICKS * (n + 2)
    dealt = np.zeros((count, n), np.int64)
    held = np.zeros((count, n), np.int64)
    trumps = np.zeros((count, 4), np.int64)
    log = np.zeros((count, width), np.int64)
    legal_log = np.zeros((count, MAX_TRICKS * n), np.int64)
    play_family_logged(
        9, 0, count, n, n - 1, 0, np.int64(0), -1, np.full(n, 1, np.int64), fr, tab,
        dealt, np.zeros((count, 54), np.int64), held, trumps, log, legal_log,
        np.zeros((count, 54), np.int64), np.zeros((count, N_AWARDS), np.int64),
        np.zeros((count, n), np.int64),
    )  # fmt: skip
    bid = 2 if r.max_bid < 10 else 6
    pitcher = 0
    checked = 0
    for d in range(count):
        trump = int(trumps[d, 0])
        known = np.zeros(n, np.int64)
        down = seat_knowledge(dealt[d], held[d], n, pitcher, trump, fr, tab, known)
        hands = [int(h) for h in held[d]]
        won = [0] * n
        pby = [0] * n
        played = 0
        t = 0
        row = log[d, 0 : n + 2]
        leader = int(row[0])
        trick, tseats = [], []
        for i in range(n):  # the first trick's decisions (the widest search)
            c = int(row[1 + i])
            seat = (leader + i) % n
            legal = int(legal_log[d, i])
            if c >= 0 and legal & (legal - 1) and not (not trick and r.trump == "first-lead"):
                allowed = np.zeros(n + 1, np.int64)
                pile = 0 if seat == pitcher else down  # the put-down it has not seen
                counts = np.array([bin(h).count("1") for h in hands] + [pile], np.int64)
                unseen, must = family_constraint(
                    n, seat, np.int64(hands[seat]), known[seat], np.array(pby, np.int64),
                    np.int64(0), counts, trump, fr, tab, allowed,
                )  # fmt: skip
                worlds = np.zeros((5, n + 1), np.int64)
                kept, _ = sample_family_worlds(
                    np.uint64(d + 1), n, seat, np.int64(hands[seat]), unseen, counts, allowed,
                    must, worlds, 1000,
                )  # fmt: skip
                assert kept == 5
                tr = np.zeros(n, np.int64)
                ts = np.zeros(n, np.int64)
                tr[: len(trick)] = trick
                ts[: len(tseats)] = tseats
                got = rollout_values(
                    worlds, kept, np.int64(legal), seat, n, pitcher, bid, trump, t, tr, ts,
                    len(trick), np.int64(played), np.array(won, np.int64),
                    np.array(pby, np.int64), fr, tab,
                )  # fmt: skip
                side = (lambda s: s % 2) if r.partnership else (lambda s: s)
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
                                tr2, ts2, len(trick) + 1, np.int64(played), fr, tab)  # fmt: skip
                        hw = np.array([int(worlds[w, s]) | pby[s] for s in range(n)], np.int64)
                        a = np.zeros(N_AWARDS, np.int64)
                        p = np.zeros(n, np.int64)
                        score_hand(hw, w2, n, trump, fr, tab, a, p)
                        made = p[pitcher] >= bid
                        change = [
                            -bid if side(s) == side(pitcher) and not made else int(p[s])
                            for s in range(n)
                        ]
                        total += change[seat] - sum(change[s] for s in others) / len(others)
                    assert got[j] == pytest.approx(total * len(others)), (spec, d, seat, card)
                checked += 1
            if c < 0:
                continue
            trick.append(c)
            tseats.append(seat)
            hands[seat] &= ~(1 << c)
            pby[seat] |= 1 << c
    assert checked >= 6
