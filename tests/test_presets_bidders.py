"""The ``odds-game`` bidder under every preset (kernels/bidding/calls.py): the family
``odds`` bidder with the game situation of the base game's ``odds-game``, read from the
preset's target and win rule (docs/rules.md, "Winning" and the generic option ``win``;
§2.11 highest, §3.11 pitcher-first, §4.12).

- Hand-worked calls, on a made-up table (every hand the same P(at least k), no caller
  still to come who outbids, so each value is a few lines of arithmetic written out
  here, not read from the code): a seat that needs just the minimum bid to win bids it
  where ``odds`` passes; under win=pitcher a seat outbids an opponent whose bid would
  win him the game; under pitcher-first a seat whose rival needs one point bids to go
  out first, a call the rival's threat alone decides.
- Far from the target ``odds-game`` calls exactly as ``odds`` (as the base game's does:
  its situation terms count only bids that reach the target).
- Whole games: the seat at a view (table/decide.py) makes the kernel game's every
  ``odds-game`` call (the view's scores reach the bidder); a tournament is the same
  from the same seed; ``pitchsim tournament --rules smear -s odds-game,odds`` runs.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from clirun import cli
from test_seats_families import decisions

from pitchsim.game.cards import mask_of, parse_cards
from pitchsim.game.rules import Rules
from pitchsim.kernels.bidding.calls import (
    BID_ODDS,
    BID_ODDS_GAME,
    MADE_ROW,
    N_ODDS_ROWS,
    N_ROWS,
    PASS,
    choose_call,
    legal_calls,
)
from pitchsim.kernels.game import MAX_CALL
from pitchsim.kernels.presets import rules_array, rules_table
from pitchsim.table.boards import board_tournament, odds_bidder_table, strategy_for
from pitchsim.table.seats import KernelSeat

PRESETS = ["auction-pitch", "setback", "smear", "ten-point", "five-point", "seven-point"]
N = 4
DEALER = 0
WEAK = mask_of(parse_cards("2C 3D 4H 6S 7C 8D"))  # never a shoot


def rules_of(spec: str):
    return Rules.parse(spec)


def table(p_at_least: list[float], made: float = 0.0) -> np.ndarray:
    """A made-up odds table: every row P(at least k) = ``p_at_least[k - 1]``, nobody
    later outbids (the share row 0), a bid is made with chance ``made``."""
    odds = np.zeros((N_ODDS_ROWS, MAX_CALL))
    odds[:N_ROWS, : len(p_at_least)] = p_at_least
    odds[MADE_ROW, 1:] = made
    return odds


def call(policy, r, seat, high, high_seat, scores, odds, defender):
    fr, tab = rules_array(r), rules_table(r)
    legal = legal_calls(high, seat == DEALER, True, fr)
    return int(
        choose_call(
            policy, np.int64(WEAK), seat, N, DEALER, high, high_seat, legal,
            np.array(scores, dtype=np.int64), fr, tab, odds, defender, np.uint64(1), 0,
        )
    )  # fmt: skip


def sides(r) -> int:
    return 2 if r.partnership else N


def keep(r) -> float:
    """A solo pitcher's set counts the points he took against his rivals, 1/(n-1) each."""
    return 0.0 if r.partnership else 1.0 / (N - 1)


def set_score(j: int, k: int, w: float) -> float:
    return (w * j - k) / (1 + w)


def scores_for(r, mine: int, theirs: int, seat: int) -> list[int]:
    """Per seat: ``mine`` for ``seat``'s side (its partner too), ``theirs`` for the rest."""
    same = [(s % 2 == seat % 2) if r.partnership else s == seat for s in range(N)]
    return [mine if m else theirs for m in same]


@pytest.mark.parametrize("spec", PRESETS)
def test_a_seat_that_needs_the_minimum_bid_to_win_bids_it(spec):
    """The seat (dealer's left, nobody has called) takes m - 1 or m points, half and
    half, m the minimum bid; a defender averages 0.5.  ``odds``: a bid of m is worth
    m/2 made and half a set (0 with two sides, m/4 - 1/8 solo: the set pitcher's m - 1
    points counted against 3 rivals), below 0.5: pass.  At target - m the made bid wins
    the game (Winning: the pitcher who makes the bid at the target wins; pitcher-first:
    his side first; highest: his total above the others' 0 and the few points they
    took), worth target (1 - 1/sides) more, while as a defender the seat takes at most
    1 < m: no win.  So ``odds-game`` bids m."""
    r = rules_of(spec)
    m = r.min_bid
    p = [1.0] * (m - 1) + [0.5]
    w = keep(r)
    plain = 0.5 * m + 0.5 * set_score(m - 1, m, w)
    assert plain < 0.5
    bonus = r.target * (1 - 1 / sides(r))
    assert plain + 0.5 * bonus > 0.5
    odds = table(p)
    near = scores_for(r, r.target - m, 0, 1)
    assert call(BID_ODDS, r, 1, PASS, -1, near, odds, 0.5) == PASS
    assert call(BID_ODDS_GAME, r, 1, PASS, -1, near, odds, 0.5) == m
    far = scores_for(r, 0, 0, 1)
    assert call(BID_ODDS_GAME, r, 1, PASS, -1, far, odds, 0.5) == PASS


@pytest.mark.parametrize("spec", ["auction-pitch", "smear,win=pitcher", "setback,win=pitcher"])
def test_under_win_pitcher_a_seat_outbids_a_bid_that_would_win_the_game(spec):
    """Seat 1 bid h (the minimum bid) at target - h: made, it wins (Winning: only the
    pitcher who makes the bid goes out).  Seat 2 takes h or h + 1 points, half and
    half; a defender averages h.  A bid of h + 1 is worth (h + 1)/2 plus half a set
    with h points: 0 with two sides, (2h + 1)/8 solo; below h, so ``odds`` passes.
    ``odds-game``: passing lets seat 1 win when his bid is made (chance 1 here), an
    even share target / sides lost: h - target / sides, below the bid's value."""
    r = rules_of(spec)
    h = r.min_bid
    w = keep(r)
    outbid = 0.5 * (h + 1) + 0.5 * set_score(h, h + 1, w)
    assert outbid < h
    assert h - r.target / sides(r) < outbid
    odds = table([1.0] * h + [0.5], made=1.0)
    scores = [0] * N
    scores[1] = scores[3] = r.target - h  # seat 1's side (seat 3, his partner, too)
    assert call(BID_ODDS, r, 2, h, 1, scores, odds, float(h)) == PASS
    assert call(BID_ODDS_GAME, r, 2, h, 1, scores, odds, float(h)) == h + 1
    # the same bid by a seat far from the target: nothing to stop
    assert call(BID_ODDS_GAME, r, 2, h, 1, [0] * N, odds, float(h)) == PASS


def hand_points(r) -> int:
    """docs/rules.md "The points": High, Low, Jack, Game or the 10 of trump (1 each),
    the jick, each joker (1), the 3 (3)."""
    return 4 + r.jick + r.jokers + 3 * r.three + 5 * r.five


def rival_takes_one(r, j: int) -> float:
    """P(the rival side takes at least one of the points our side left, when we took
    j): with two sides it takes them all; solo each goes to it with chance 1/(n-1)."""
    left = hand_points(r) - j
    return 1.0 if left > 0 and sides(r) == 2 else 1.0 - (1 - 1 / (N - 1)) ** left


def rival_case(r):
    """(p, the bid's value, passing's value): the seat makes the minimum bid m (taking
    m points) with chance p, else takes m - 1; p chosen so that the rival's threat
    decides the call (see the test)."""
    m, w = r.min_bid, keep(r)
    bonus, loss = r.target * (1 - 1 / sides(r)), r.target / sides(r)
    for p in np.arange(0.005, 0.5, 0.005):
        plain = p * m + (1 - p) * set_score(m - 1, m, w)
        bid = plain + p * bonus - (1 - p) * loss * rival_takes_one(r, m - 1)
        pass_ = 1.0 - loss * rival_takes_one(r, 1)
        if plain + p * bonus < 1.0 - 0.01 and bid > pass_ + 0.01:
            return float(p), bid, pass_
    raise AssertionError("no such p")


@pytest.mark.parametrize("spec", ["smear", "ten-point", "five-point", "seven-point"])
def test_under_pitcher_first_a_rival_one_point_short_makes_a_long_shot_worth_bidding(spec):
    """pitcher-first (docs/rules.md §3.11): the seat's side is at target - m, its rival
    at target - 1, who wins on any point it takes unless we go out first.  Passing, the
    seat takes 1 point (a defender's mean) and stays short: pass = 1 - loss R(1), R(j)
    the chance the rival takes a point of those we left having taken j.  Bidding m:
    made (chance p), the seat's side goes out first and wins (+bonus); set, with m - 1
    points: plain + p bonus - (1 - p) loss R(m - 1).  p is chosen where the bid is
    better only because passing loses too (plain + p bonus < 1): ``odds-game`` bids m;
    with the rival far it passes, as ``odds`` does."""
    r = rules_of(spec)
    m = r.min_bid
    p, bid, pass_ = rival_case(r)
    assert bid > pass_
    odds = table([1.0] * (m - 1) + [p])
    near = scores_for(r, r.target - m, r.target - 1, 1)
    assert call(BID_ODDS, r, 1, PASS, -1, near, odds, 1.0) == PASS
    assert call(BID_ODDS_GAME, r, 1, PASS, -1, near, odds, 1.0) == m
    alone = scores_for(r, r.target - m, 0, 1)
    assert call(BID_ODDS_GAME, r, 1, PASS, -1, alone, odds, 1.0) == PASS


# presets and player counts with a family odds table
TABLED = [("setback", 4), ("smear", 4), ("smear", 3), ("ten-point", 4), ("five-point", 4),
          ("seven-point", 4), ("ten-point,partnership=false", 5)]  # fmt: skip


@pytest.mark.parametrize(("spec", "n"), TABLED)
def test_far_from_the_target_odds_game_calls_as_odds(spec, n):
    """The base game's odds-game weighs only bids (and passes) that reach the target;
    with every score 0 and no bid reaching it, the family's calls are ``odds``'s, for
    random hands at every position of the auction."""
    r = rules_of(spec)
    fr, tab = rules_array(r), rules_table(r)
    odds, defender = odds_bidder_table(r, n)
    rng = random.Random(7)
    pack = list(range(52 + r.jokers))
    scores = np.zeros(n, dtype=np.int64)
    same = 0
    for _ in range(400):
        hand = sum(1 << c for c in rng.sample(pack, r.cards_each(n)))
        seat = rng.randrange(n)
        high = rng.choice([PASS, *range(r.min_bid, r.max_bid)])
        high_seat = -1 if high == PASS else (seat - 1) % n
        legal = legal_calls(high, seat == DEALER, True, fr)
        got = [
            choose_call(
                policy,
                np.int64(hand),
                seat,
                n,
                DEALER,
                high,
                high_seat,
                legal,
                scores,
                fr,
                tab,
                odds,
                defender,
                np.uint64(1),
                0,
            )  # fmt: skip
            for policy in (BID_ODDS, BID_ODDS_GAME)
        ]
        assert got[0] == got[1], (hand, seat, high)
        same += got[0] != PASS
    assert same > 0


SEAT_TABLES = [
    ("smear", 4, ["odds-game+heuristic", "odds+heuristic"]),
    ("setback", 4, ["odds-game+heuristic", "heuristic+heuristic"]),
    ("ten-point", 4, ["odds-game+heuristic", "odds+heuristic"]),
    ("five-point", 4, ["odds-game+heuristic", "odds+random"]),
]


@pytest.mark.parametrize(("spec", "n", "names"), SEAT_TABLES)
def test_the_seat_makes_the_kernels_odds_game_calls(spec, n, names):
    """Whole games by the kernel (kernels/game.py), every odds-game call asked
    again of the seat at its view (table/decide.py): the same call every time,
    the view's scores included (the games end at the target, so scores near it are
    asked)."""
    asked = 0
    for board in range(3):
        for strategy, view, key, action in decisions(spec, n, names, seed=21, board=board):
            if view.phase != "auction" or strategy.bidding != "odds-game":
                continue
            assert KernelSeat(strategy).decide(view, key).action == action, view.to_json()
            asked += 1
    assert asked > 0


@pytest.mark.parametrize("spec", ["smear", "ten-point"])
def test_an_odds_game_tournament_is_the_same_from_the_same_seed(spec):
    r = rules_of(spec)
    seats = [strategy_for(s, r) for s in ("odds-game", "odds")]
    a, b = (board_tournament(seats, 4, 12, r, seed=5) for _ in range(2))
    for name in ("wins", "score_sum", "pitched", "made"):
        assert np.array_equal(getattr(a, name), getattr(b, name)), name
    assert a.deals == b.deals and a.pitched[0].sum() > 0


def test_the_odds_game_tournament_under_smear_runs():
    code, out, err = cli(
        "tournament", "--rules", "smear", "-s", "odds-game,odds", "-g", "4", "--seed", "3"
    )
    assert code == 0, err
    assert "odds-game+heuristic" in out and "odds+heuristic" in out
