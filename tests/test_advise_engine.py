"""The advice kernels (``kernels/advice.py``: the engine of ``pitchsim advise`` and of the
``advisor`` bidder under every preset, the base game included) against the plain-Python
reference engine (``game/reference/``), deal by deal, on random questions: presets and
auction variants, 2-7 players, the ``random``, ``heuristic`` and ``odds`` models,
scores near the target, the seat anywhere in the auction.

- ``accept_deals`` keeps exactly the deals in which every earlier caller, asked
  by his bidding policy with the legal calls of the reference auction (0.2, the
  preset's minimum bid, dealer-steal and all-pass variants, 6.1 shoot), makes the call
  heard.
- ``pitch_suits``: the points the seat takes pitching each suit it can make
  trump are the reference hand's (trump named, 3.5; or led, under first-lead).
- ``evaluate_calls``: every candidate call played out in every kept deal is the
  reference game's: the seat makes the call (the calls before it the ones heard), the
  later seats call by the model, trump is named or led (the seat's planned trump when it
  pitches), the hand is played, scored and settled (0.9), and the game is played on from
  the new scores, deal by deal, until a side wins (the preset's win rule); the row is the
  seat's side pitched, made, its score and margin, won the game and trump.

The kernels' decisions are asked at the same random-stream places (a call at the deal's
key and its caller's counter, trump named at the naming counter; heuristic play needs
no stream), and the deals are the kernels' (``deal_cards_fixed``: its uniformity and
runs are tests/test_one_deal.py's).  What the reference decides by itself must agree:
who pitches at what bid, trump, the tricks and points, the settling, the dealer of the
next deal, the end of the game and its winners.  The presets here have no discard and
draw, kitty or called partner (the reference would need the kernels' draw order).
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from logged_hands import heuristic_chooser
from test_presets_advisor import has_table

from pitchsim.advice.advise import odds_for
from pitchsim.game import reference as F
from pitchsim.game.rules import Rules, RulesError
from pitchsim.kernels import advice as engine
from pitchsim.kernels.advisor import pitchable_suits
from pitchsim.kernels.bidding.calls import NAME_COUNTER, choose_call, name_suit
from pitchsim.kernels.contract import MAX_DEALS
from pitchsim.kernels.deal import deal_cards_fixed
from pitchsim.kernels.policies.cards import heuristic_card
from pitchsim.kernels.presets import rules_array, rules_table
from pitchsim.kernels.rng import AUCTION_COUNTER, deal_key
from pitchsim.table.boards import seat_ids, strategy_for

# Presets and auction variants without a discard and draw (4.8), kitty or partner.
SPECS = [
    "auction-pitch",
    "auction-pitch,min-bid=2,all-pass=redeal,dealer-steal=false",
    "auction-pitch,partnership=true",
    "auction-pitch,shoot=true,low=dealt,target=5",
    "setback",
    "smear",
    "smear,partnership=true,target=7",
    "smear,win=highest,all-pass=next-dealer,shoot=true",
]
MODELS = ["random", "heuristic", "odds"]


class Question:
    """One advice question and the kernels' arrays for it (heuristic play)."""

    def __init__(self, spec, n, seat, dealer, heard, scores, hand, model):
        self.r = Rules.parse(spec)
        self.spec, self.n, self.seat, self.dealer = spec, n, seat, dealer
        self.heard, self.scores, self.hand, self.model = list(heard), list(scores), hand, model
        seats = [strategy_for(f"{model}+heuristic", self.r)] * n
        self.bidders, self.players = seat_ids(seats)
        self.odds, self.defender = odds_for(seats, self.r, n)
        self.fr, self.tab = rules_array(self.r), rules_table(self.r)
        self.suits = int(pitchable_suits(np.int64(hand), self.fr, self.tab))

    def __repr__(self):
        return (
            f"Question({self.spec!r}, n={self.n}, seat={self.seat}, dealer={self.dealer}, "
            f"heard={self.heard}, scores={self.scores}, model={self.model!r})"
        )

    def args(self):
        """The arguments every advice kernel takes after (seed, deals)."""
        return (self.n, self.seat, np.int64(self.hand), self.dealer)

    def dealt(self, key, dealer, fixed=True):
        """The kernels' deal for ``key``: (hands, stock); the seat's hand fixed."""
        deck = np.full(54, -1, dtype=np.int64)
        dealt = np.empty(self.n, dtype=np.int64)
        seat, hand = (self.seat, self.hand) if fixed else (-1, 0)
        size = deal_cards_fixed(
            np.uint64(key), self.n, dealer, seat, np.int64(hand), self.fr, deck, dealt
        )
        each = self.r.cards_each(self.n)
        return [int(h) for h in dealt], [int(c) for c in deck[self.n * each : size]]

    def call_of(self, key, seat, hand, dealer, calls, legal, scores):
        """The model's call for ``seat`` holding ``hand`` after ``calls`` (the kernel's
        policy, at the caller's counter), the legal calls the reference auction's."""
        high, high_seat = 0, -1
        for i, c in enumerate(calls):
            if c:
                high, high_seat = c, (dealer + 1 + i) % self.n
        return int(
            choose_call(
                self.bidders[seat], np.int64(hand), seat, self.n, dealer,
                np.int64(high), high_seat, np.int64(sum(1 << c for c in legal)),
                np.array(scores, dtype=np.int64), self.fr, self.tab, self.odds, self.defender,
                np.uint64(key), AUCTION_COUNTER + len(calls),
            )
        )  # fmt: skip

    # ---------------------------------------------------------------- the reference

    def reference_fits(self, seed, d):
        """Does deal ``d`` fit the calls heard?  (A plain loop over the callers.)"""
        key = deal_key(seed, d)
        hands, _ = self.dealt(key, self.dealer)
        made: list[int] = []
        for i, heard in enumerate(self.heard):
            s = (self.dealer + 1 + i) % self.n
            legal = F.legal_calls(made, s == self.dealer, self.r, self.scores[s] >= 0)
            if self.call_of(key, s, hands[s], self.dealer, made, legal, self.scores) != heard:
                return False
            made.append(heard)
        return True

    def chooser(self, planned):
        """The family heuristic as the reference's card chooser; ``planned(view)`` is
        the suit the pitcher must lead first (-1: none), which the kernel's heuristic is
        told is trump (``policies.opening_lead_in``)."""
        n, fr, tab = self.n, self.fr, self.tab
        plain = heuristic_chooser(n, fr, tab, [])

        def choose(v) -> int:
            suit = planned(v)
            if suit < 0 or v.trick_no or v.trick or v.seat != v.pitcher:
                return plain(v)
            z = np.zeros(n, np.int64)
            return int(
                heuristic_card(
                    np.int64(v.legal), np.int64(v.hand), v.seat, n, v.pitcher, suit, 0, z, z,
                    0, np.int64(0), fr, tab,
                )
            )  # fmt: skip

        return choose

    def reference_suit(self, seed, sample, suit):
        """The seat's points pitching deal ``sample`` with ``suit`` as trump."""
        if not self.suits >> suit & 1:
            return -1
        held, _ = self.dealt(deal_key(seed, sample), self.dealer)
        named = self.r.trump == "named"
        hand = F.play_hand(
            held,
            self.seat,
            self.chooser(lambda v: -1 if named else suit),
            self.r,
            trump=suit if named else -1,
            lead_suit=-1 if named else suit,
        )
        return hand.score.points[self.seat]

    def reference_row(self, seed, sample, call, plan):
        """The seat makes ``call`` (its planned trump ``plan``) in deal ``sample``: the
        reference game from there.  Returns the kernel's row (the O_ constants)."""
        r, n, seat, m = self.r, self.n, self.seat, len(self.heard)
        named = r.trump == "named"
        at = {"deal": -1, "key": 0, "dealer": self.dealer}

        def deals(deal_no, dealer):
            at["deal"], at["dealer"] = deal_no, dealer
            if deal_no == 0:
                at["key"] = deal_key(seed, sample)
                hands, stock = self.dealt(at["key"], dealer)
            else:  # the rest of the game: the same continuation for every call
                at["key"] = deal_key(seed, engine.CONTINUATION + sample * MAX_DEALS + deal_no - 1)
                hands, stock = self.dealt(at["key"], dealer, fixed=False)
            return hands, stock

        def bidder(s, hand, calls, legal, scores):
            i = len(calls)
            if at["deal"] == 0 and i < m:
                return self.heard[i]
            if at["deal"] == 0 and i == m:
                return F.Bid(call, trump=plan if call and not named else -1)
            return self.call_of(at["key"], s, hand, at["dealer"], calls, legal, scores)

        def namer(s, hand):
            if at["deal"] == 0 and s == seat and plan >= 0:
                return plan
            return int(
                name_suit(
                    self.bidders[s], np.int64(hand), n, self.fr, self.tab, np.uint64(at["key"]),
                    AUCTION_COUNTER + NAME_COUNTER,
                )
            )  # fmt: skip

        def planned(v):  # the seat pitches at its call: it leads its planned suit
            return plan if at["deal"] == 0 and not named and v.pitcher == seat else -1

        chooser = self.chooser(planned)
        game = F.play_game(
            n, r, None, bidder, namer, chooser, first_dealer=self.dealer,
            max_hands=MAX_DEALS + 1, deals=deals, start_scores=self.scores,
        )  # fmt: skip
        h = game.hands[0]
        side = r.team(seat)
        change = h.change
        if r.partnership:
            theirs = change[(seat + 1) % n]
        else:
            theirs = sum(c for s, c in enumerate(change) if s != seat) / (n - 1)
        p = h.auction.pitcher
        won = -1 if not game.winners else int(side in game.winners)
        return [
            int(p is not None and h.auction.bid > 0 and r.team(p) == side),
            int(bool(h.made)),
            change[seat],
            change[seat] - theirs,
            won,
            -1 if p is None else h.trump,
        ]

    # ---------------------------------------------------------------- the kernels

    def kernel_fits(self, seed, count):
        fits = np.empty(count, dtype=np.bool_)
        engine.accept_deals(
            seed, 0, count, *self.args(), np.array(self.heard, dtype=np.int64),
            np.array(self.scores, dtype=np.int64), self.bidders, self.fr, self.tab, self.odds,
            self.defender, 0.0, fits,
        )  # fmt: skip
        return fits

    def kernel_suits(self, seed, deals):
        out = np.empty((len(deals), 4), dtype=np.int64)
        engine.pitch_suits(
            seed, np.array(deals, dtype=np.int64), *self.args(), self.suits, self.players,
            self.fr, self.tab, out,
        )  # fmt: skip
        return out

    def kernel_rows(self, seed, deals, calls, plans):
        out = np.empty((len(deals), len(calls), engine.N_OUTCOMES))
        engine.evaluate_calls(
            seed, np.array(deals, dtype=np.int64), *self.args(),
            np.array(self.heard, dtype=np.int64), np.array(calls, dtype=np.int64),
            np.array(plans, dtype=np.int64), np.array(self.scores, dtype=np.int64),
            self.bidders, self.players, self.fr, self.tab, self.odds, self.defender, out,
        )  # fmt: skip
        return out

    def legal(self):
        return F.legal_calls(
            self.heard, self.seat == self.dealer, self.r, self.scores[self.seat] >= 0
        )


def questions(count: int, rng: random.Random) -> list[Question]:
    """Random questions: a legal history before the seat, with calls left to it."""
    out = []
    while len(out) < count:
        spec = rng.choice(SPECS)
        r = Rules.parse(spec)
        n = 4 if r.partnership else rng.randint(2, 7)
        try:
            r.check_players(n)
        except RulesError:  # a preset played by fewer players
            continue
        models = [m for m in MODELS if m != "odds" or has_table(r, n)]
        dealer, seat = rng.randrange(n), rng.randrange(n)
        team = [rng.randint(-3, r.target - 1) for _ in range(n)]
        scores = [team[s % 2] for s in range(n)] if r.partnership else team
        heard: list[int] = []
        for i in range((seat - dealer - 1) % n):
            s = (dealer + 1 + i) % n
            legal = F.legal_calls(heard, s == dealer, r, scores[s] >= 0)
            if not legal:
                break
            heard.append(rng.choice([c for c in legal if c < r.max_bid] or legal))
        if len(heard) < (seat - dealer - 1) % n:
            continue
        if not F.legal_calls(heard, seat == dealer, r, scores[seat] >= 0):
            continue
        hand = sum(1 << c for c in rng.sample(F.pack(r, n), r.cards_each(n)))
        out.append(Question(spec, n, seat, dealer, heard, scores, hand, rng.choice(models)))
    return out


def test_the_kept_deals_are_those_whose_calls_the_model_makes():
    rng = random.Random(3)
    kept = rejected = 0
    for q in questions(14, rng):
        fits = q.kernel_fits(seed=5, count=200)
        want = [q.reference_fits(5, d) for d in range(200)]
        assert [bool(f) for f in fits] == want, q
        kept += sum(want)
        rejected += len(want) - sum(want)
    assert kept > 100 and rejected > 100  # the check saw both kinds of deal


def test_pitching_each_suit_is_the_reference_hand():
    rng = random.Random(5)
    held = 0
    for q in questions(8, rng):
        got = q.kernel_suits(2, range(12))
        for j in range(12):
            assert [int(x) for x in got[j]] == [q.reference_suit(2, j, s) for s in range(4)], q
        held += bin(q.suits).count("1")
    assert held > 8


def test_every_call_played_out_is_the_reference_game():
    rng = random.Random(4)
    checked = pitched = won = 0
    for q in questions(12, rng):
        deals = [int(d) for d in np.flatnonzero(q.kernel_fits(seed=9, count=300))[:3]]
        legal = q.legal()
        plans = [rng.choice([-1, 0, 1, 2, 3]) if c else -1 for c in legal]
        plans = [t if t < 0 or q.suits >> t & 1 else -1 for t in plans]
        out = q.kernel_rows(9, deals, legal, plans)
        for j, d in enumerate(deals):
            for c, (call, plan) in enumerate(zip(legal, plans, strict=True)):
                want = q.reference_row(9, d, call, plan)
                got = out[j, c]
                where = (q, d, call, plan)
                assert [int(x) for x in got[[0, 1, 2, 4, 5]]] == [
                    want[i] for i in (0, 1, 2, 4, 5)
                ], where
                assert got[engine.O_MARGIN] == pytest.approx(want[3]), where
                checked += 1
                pitched += want[0]
                won += want[4] == 1
    assert checked > 80 and pitched > 10 and 5 <= won <= checked - 5
