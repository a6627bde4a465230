"""The ``advisor`` bidder under every preset (kernels/advisor.py ``advisor_bid``,
plugged into the family auction's ``seat_call``, kernels/bidding/calls.py).

- In whole family games (kernels/game.py) every call of an advisor seat is the
  one the advisor's evaluation gives when recomputed here, independently of the game's
  dispatch, through kernels/advice.py's family entry points (the ones ``pitchsim advise
  --rules PRESET`` runs): the same hand, scores before the hand, dealer and calls heard
  (docs/rules.md 0.2: one round from the dealer's left), the decision's own seed
  (drawn from the deal's stream at the call's counter), the first 32 of 2,048 deals
  that fit the calls, each bid's trump planned from them, every legal call played out
  to the end of the game, and advise's ranking (most games won, then the best mean
  margin, then the higher call).  The trump the advisor planned is the trump of the
  hand it pitches: named under smear (3.5) and ten-point (4.6), or the suit of its
  first lead under auction-pitch (trump=first-lead, 1.x).
- ``advise()`` itself (the library call of ``pitchsim advise``) ranks that call first
  for the same question and seed.
- An int64 family bidding array naming the advisor raises; the seat at a view
  (table/decide.py) makes every decision the kernel made in whole games with
  advisor seats (calls, the advisor's trump, its first lead).
"""

from __future__ import annotations

import numpy as np
import pytest
from clirun import cli
from preset_path import AP_PRESET
from test_seats_families import decisions, kernel_game

from pitchsim.advice.advise import advise, ranking
from pitchsim.advice.odds import trump_suits
from pitchsim.game.cards import Suit, cards_of, mask_of, parse_cards
from pitchsim.game.rules import Rules
from pitchsim.kernels import advice as engine
from pitchsim.kernels.bidding.calls import (
    BID_ADVISOR,
    BID_HEURISTIC,
    BID_ODDS,
    N_ROWS,
    choose_call,
)
from pitchsim.kernels.contract import MAX_DEALS
from pitchsim.kernels.game import (
    G_DEALER,
    G_PITCHER,
    G_TRUMP,
    MAX_CALL,
    log_layout,
    whole_game,
)
from pitchsim.kernels.policies.cards import HEURISTIC
from pitchsim.kernels.presets import rest_of_game, rules_array, rules_table
from pitchsim.kernels.rng import AUCTION_COUNTER, deal_key, draw
from pitchsim.table.bidding import StrategyError
from pitchsim.table.boards import odds_bidder_table, odds_for, seat_ids, strategy_for
from pitchsim.table.seats import KernelSeat

SAMPLES, TRIES = 32, 64  # the advisor bidder's deals kept per call, tried per deal kept
SEED = 3
NAMES = ["advisor+heuristic", "odds+heuristic"]
# five-point,hands=3 against heuristic opponents: the advisor models the others by
# odds (its preset's table) all the same
NAMES_OF = {
    "five-point,hands=3": ["advisor+heuristic", "heuristic+heuristic"],
}
# hands=3 (12.4): the advisor weighs the hands the game has left, not its first three
PRESETS = ["smear", "ten-point", AP_PRESET, "five-point,hands=3"]


def has_table(r, n: int) -> bool:
    try:
        odds_bidder_table(r, n)
    except StrategyError:
        return False
    return True


def recomputed(
    r, n, seat, hand, dealer, heard, scores, legal, key, counter, odds, defender, played=0
):
    """The advisor's (call, planned trump) by kernels/advice.py's entry points: the
    decision's seed, the first SAMPLES deals of it that fit the calls heard (by the
    model, odds+heuristic, at every seat), each bid's trump, every legal call played
    out, advise's ranking.  (call, -1) when fewer than a quarter fit: the model's call.
    ``played``: under hands=N the hands counted before this one (12.4)."""
    seed = int(draw(np.uint64(key), counter) >> np.uint64(2))
    fr, tab = rest_of_game(rules_array(r), played), rules_table(r)
    model = BID_ODDS if has_table(r, n) else BID_HEURISTIC
    bidders = np.full(n, model, dtype=np.int64)
    players = np.full(n, HEURISTIC, dtype=np.int64)
    heard = np.array(heard, dtype=np.int64)
    scores = np.array(scores, dtype=np.int64)
    fits = np.empty(SAMPLES * TRIES, dtype=np.bool_)
    engine.accept_deals(
        seed, 0, fits.size, n, seat, np.int64(hand), dealer, heard, scores, bidders, fr, tab,
        odds, defender, 0.0, fits,
    )  # fmt: skip
    deals = np.flatnonzero(fits)[:SAMPLES].astype(np.int64)
    cand = [c for c in range(MAX_CALL) if legal >> c & 1]
    if deals.size < SAMPLES // 4:
        high, high_seat = 0, -1
        for i, c in enumerate(heard):
            if c:
                high, high_seat = max(high, int(c)), (dealer + 1 + i) % n
        call = choose_call(
            model, np.int64(hand), seat, n, dealer, np.int64(high), high_seat,
            np.int64(legal), scores, fr, tab, odds, defender, np.uint64(key), counter,
        )  # fmt: skip
        return int(call), -1
    suits = sum(1 << t for t in trump_suits(cards_of(hand), r))
    pts = np.empty((deals.size, 4), dtype=np.int64)
    engine.pitch_suits(seed, deals, n, seat, np.int64(hand), dealer, suits, players, fr,
                              tab, pts)  # fmt: skip
    trumps = np.array(
        [engine.bid_trump(pts, deals.size, min(c, r.max_bid)) if c else -1 for c in cand],
        dtype=np.int64,
    )
    out = np.empty((deals.size, len(cand), engine.N_OUTCOMES))
    engine.evaluate_calls(
        seed, deals, n, seat, np.int64(hand), dealer, heard, np.array(cand, dtype=np.int64),
        trumps, scores, bidders, players, fr, tab, odds, defender, out,
    )  # fmt: skip
    best = ranking(out, cand)[0]
    return cand[best], int(trumps[best])


def advisor_calls(spec: str, n: int, board: int):
    """Every advisor call of the kernel's game of ``board``: (row, at, position, seat,
    hand, dealer, heard, scores before, legal, key, the hands counted before (12.4))
    and the kernel's call."""
    r, seats, at, rows = kernel_game(spec, n, NAMES_OF.get(spec, NAMES), SEED, board)
    before = [0] * n
    counted = 0
    for d, row in enumerate(rows):
        key = deal_key(SEED, board * MAX_DEALS + d)
        dealer = int(row[G_DEALER])
        calls = [int(row[at["calls"] + i]) for i in range(n)]
        for i in range(n):
            seat = (dealer + 1 + i) % n
            if calls[i] < 0:
                break
            if seats[seat].bidding == "advisor":
                legal = int(row[at["call_legal"] + i])
                hand = int(row[at["dealt"] + seat])
                yield (
                    r, row, seat, hand, dealer, calls[:i], list(before), legal, key, i,
                    counted, calls[i],
                )  # fmt: skip
        before = [int(row[at["scores"] + s]) for s in range(n)]
        counted += int(row[G_PITCHER]) >= 0 or r.all_pass != "redeal"  # 12.4


@pytest.mark.parametrize("spec", PRESETS)
def test_the_game_kernels_advisor_calls_are_the_advisors_evaluation(spec):
    """Whole games of advisor+heuristic against odds+heuristic (4 players): every
    advisor call, and the trump of every hand it pitched, recomputed (see the module)."""
    n = 4
    r0 = Rules.parse(spec)
    odds, defender = odds_for([strategy_for(s, r0) for s in NAMES_OF.get(spec, NAMES)], r0, n)
    asked = pitched = bids = scored = 0
    for board in range(2):
        for r, row, seat, hand, dealer, heard, scores, legal, key, i, played, got in advisor_calls(
            spec, n, board
        ):
            want, plan = recomputed(
                r, n, seat, hand, dealer, heard, scores, legal, key, AUCTION_COUNTER + i, odds,
                defender, played,
            )  # fmt: skip
            assert got == want, (board, seat, heard, scores)
            asked += 1
            bids += got > 0
            scored += any(scores)
            if int(row[G_PITCHER]) == seat and plan >= 0:
                assert int(row[G_TRUMP]) == plan
                pitched += 1
    assert asked > 4 and bids > 0 and pitched > 0 and scored > 0, (asked, bids, pitched)


def test_advise_ranks_the_advisors_call_first():
    """``advise`` (pitchsim advise --rules smear) with 32 samples, 2,048 tries, its
    default model and the decision's seed: its best call by P(win), then mean margin,
    then the higher call, is the game's advisor call, with the same planned trump.
    (Its recommendation may then fall back to the lowest call inside the error.)"""
    seen = 0
    for r, _, seat, hand, dealer, heard, scores, legal, key, i, _, got in advisor_calls(
        "smear", 4, 0
    ):
        seed = int(draw(np.uint64(key), AUCTION_COUNTER + i) >> np.uint64(2))
        a = advise(
            cards_of(hand), players=4, seat=seat, dealer=dealer, calls=heard, scores=scores,
            rules=r, samples=SAMPLES, seed=seed, max_tries=SAMPLES * TRIES, threads=1,
        )  # fmt: skip
        assert a.legal_calls == [c for c in range(MAX_CALL) if legal >> c & 1]
        top = max(
            a.legal_calls,
            key=lambda c: (a.by_call[c].p_win_game.value, a.by_call[c].expected_margin.value, c),
        )
        assert top == got, (heard, scores)
        seen += 1
        if seen == 4:
            break
    assert seen == 4


# The advised seat's hand: spades its policies' suit, one low heart, no club.
PLANNED_HAND = "AS KS QS JS TS 2H"


@pytest.mark.parametrize(("spec", "planned"), [("smear", Suit.CLUBS), (AP_PRESET, Suit.HEARTS)])
def test_the_advisor_plays_a_call_with_the_seats_planned_trump(spec, planned):
    """The advisor's games (``engine.evaluate_calls``) play a call the seat
    pitches with the trump it planned for it: named though it holds none (smear, 3.5:
    clubs), or the suit of its first lead (auction-pitch's trump=first-lead, RULES.md:
    the 2 of hearts), where its bidding and play policies would make spades trump, as
    they do with no plan (-1).  The first caller bids the maximum: it pitches but for a
    steal."""
    r = Rules.parse(spec)
    n, dealer, seat = 4, 3, 0
    fr, tab = rules_array(r), rules_table(r)
    bidders = np.full(n, BID_HEURISTIC, dtype=np.int64)
    players = np.full(n, HEURISTIC, dtype=np.int64)
    hand = np.int64(mask_of(parse_cards(PLANNED_HAND)))
    deals = np.arange(40, dtype=np.int64)
    calls = np.array([r.max_bid, r.max_bid], dtype=np.int64)
    out = np.empty((deals.size, 2, engine.N_OUTCOMES))
    odds = np.zeros((N_ROWS + 1, MAX_CALL))
    engine.evaluate_calls(
        SEED, deals, n, seat, hand, dealer, np.zeros(0, dtype=np.int64), calls,
        np.array([planned, -1], dtype=np.int64), np.zeros(n, dtype=np.int64), bidders,
        players, fr, tab, odds, 0.0, out,
    )  # fmt: skip
    pitched = out[:, :, engine.O_SIDE_PITCHED] > 0
    trump = out[:, :, engine.O_TRUMP]
    assert pitched[:, 0].sum() >= 30 and pitched[:, 1].sum() >= 30
    assert (trump[pitched[:, 0], 0] == planned).all()
    assert (trump[pitched[:, 1], 1] == Suit.SPADES).all()


def test_an_int64_family_bidding_array_naming_the_advisor_raises():
    """Only an int32 family bidding array (``seat_ids``) compiles the advisor in; one of
    int64 refuses rather than play some other call, as does ``choose_call`` (it has no
    calls heard)."""
    r = Rules.parse("smear")
    n = 4
    seats = [strategy_for(s, r) for s in NAMES * 2]
    bidders, players = seat_ids(seats)
    assert bidders.dtype == np.int32
    assert seat_ids([strategy_for("odds", r)] * n)[0].dtype == np.int64
    odds, defender = odds_for(seats, r, n)
    at = log_layout(n)
    with pytest.raises(ValueError, match="advisor"):
        whole_game(
            SEED, 0, n, bidders.astype(np.int64), players, rules_array(r), rules_table(r),
            odds, defender, np.zeros(n, dtype=np.int64), np.zeros((n, MAX_CALL, 2), np.int64),
            np.zeros(at["width"], dtype=np.int64), None,
        )  # fmt: skip
    with pytest.raises(ValueError, match="advisor"):
        choose_call(
            BID_ADVISOR, np.int64(0xFF), 1, n, 0, np.int64(0), -1, np.int64(0b111101), np.zeros(
                n, dtype=np.int64), rules_array(r), rules_table(r), odds, defender,
            np.uint64(1), 0,
        )  # fmt: skip


@pytest.mark.parametrize("spec", PRESETS)
def test_the_seat_makes_every_decision_the_kernel_made(spec):
    """The seat at each view of a whole kernel game (table/decide.py): every call,
    the advisor pitcher's trump (named) and its first lead (first-lead) as the kernel's."""
    kinds: dict[str, int] = {}
    for strategy, view, key, action in decisions(
        spec, 4, NAMES_OF.get(spec, NAMES), seed=SEED, board=0
    ):
        got = KernelSeat(strategy).decide(view, key).action
        assert got == action, (strategy.name, view.to_json(), got, action)
        if strategy.bidding == "advisor":
            kind = view.phase
            first = not any(t.cards for t in view.tricks)
            if view.phase == "play" and view.pitcher == view.seat and first:
                kind = "first lead" if view.trump is None else "lead"
            kinds[kind] = kinds.get(kind, 0) + 1
    assert kinds.get("auction", 0) > 0
    if Rules.parse(spec).trump == "named":
        assert kinds.get("trump", 0) > 0, kinds
    else:
        assert kinds.get("first lead", 0) > 0, kinds


def test_the_advisor_plays_in_a_smear_tournament_and_at_the_table():
    code, out, err = cli(
        "tournament", "--rules", "smear", "-s", "advisor,odds", "-g", "2", "--seed", "3"
    )
    assert code == 0, err
    assert "advisor+heuristic" in out and "odds+heuristic" in out
    code, out, err = cli("play", "--rules", "smear", "--bidding", "advisor", "--seed", "3")
    assert code == 0, err
