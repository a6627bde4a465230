"""The base game's own kernels as the tests and scripts reach them: the ``odds`` table of
the base bidders, the per-seat arrays of ``kernels.dispatch`` and ``kernels.auction``,
and ``KernelDecisions``, which lets the plain-Python reference engine ask those
kernels for every deal and call (its cards are the preset kernels': ``kernel_chooser``).

No command reaches these: every command plays on the preset kernels
(``kernels.families``; the auction-pitch preset is the base game), whose games the
tests compare with the reference engine's in tests/test_families_games.py, and whose
cards ``games.policies.kernel_chooser`` hands to the reference engine.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from ..game.reference import PASS, Bid, BidView, GameRecord, play_game
from ..game.rules import Rules
from ..kernels.auction import pitched_card
from ..kernels.bidding import PLAIN_DTYPE
from ..kernels.bidding.odds import N_PARAMS, P_DEFENDER, P_MADE, P_OVERCALL
from ..kernels.contract import MAX_DEALS
from ..kernels.deal import deal_hands
from ..kernels.dispatch import choose_bid
from ..kernels.rng import AUCTION_COUNTER, deal_key
from ..util.errors import InputError
from .bidding import Strategy, StrategyError, bidding_policy
from .families import load_data_table
from .policies import kernel_chooser, play_array, play_policy

TABLE_FILE = "bid_table.npz"
USES_TABLE = {"odds", "odds-game"}  # of the base kernels' policies (the advisor is not one)


# ---------------------------------------------------------------- the odds table


@lru_cache(maxsize=1)
def load_table() -> dict:
    """The shipped make-probability table (see ``scripts/make_bid_table.py``)."""
    return load_data_table(TABLE_FILE, "odds table", "scripts/make_bid_table.py")


@lru_cache(maxsize=32)
def odds_table(players: int, rules: Rules) -> tuple[np.ndarray, np.ndarray]:
    """(P(side takes >= k points) as float32[holding, side class, k - 1], constants) for
    ``players`` under ``rules``: the table for its partnership and low-award options
    (the other rule options change the make-probabilities little and share it)."""
    t = load_table()
    configs = [tuple(int(x) for x in c) + (0,) * (3 - len(c)) for c in t["configs"]]
    wanted = (players, int(rules.partnership), int(rules.low == "dealt"))
    if wanted not in configs:
        wanted = wanted[:2] + (0,)  # an older table without low=dealt
    try:
        i = configs.index(wanted)
    except ValueError:
        raise InputError(f"the odds table has no {players}-player table") from None
    odds = np.ascontiguousarray(t["p_at_least"][i], dtype=np.float32) / np.float32(255)
    params = np.zeros(N_PARAMS)
    params[P_DEFENDER] = t["defender"][i]
    params[P_OVERCALL : P_OVERCALL + 6] = t["overcall"][i]
    params[P_MADE : P_MADE + 5] = t["made"][i]
    return odds, params


def no_odds() -> tuple[np.ndarray, np.ndarray]:
    """Placeholder table for runs where no seat bids by the odds."""
    return np.zeros((1, 1, 4), dtype=np.float32), np.zeros(N_PARAMS)


@dataclass
class SeatArrays:
    """What the game kernels take: per-seat policy ids and the odds table."""

    bidding: np.ndarray
    play: np.ndarray
    odds: np.ndarray
    params: np.ndarray


def seat_arrays(seats: Sequence[Strategy], rules: Rules) -> SeatArrays:
    """The base kernels' arrays for ``seats``; the advisor bids under the family kernels
    only (``games.families``), so a seat of it is refused."""
    n = len(seats)
    rules.check_players(n)
    if any(s.bidding == "advisor" for s in seats):
        raise StrategyError(
            "the advisor bids under the family kernels only (pitchsim.games.families), "
            "not the base kernels"
        )
    bidding = np.array([bidding_policy(s.bidding).id for s in seats], dtype=PLAIN_DTYPE)
    play = play_array([play_policy(s.play).id for s in seats])
    if any(s.bidding in USES_TABLE for s in seats):
        odds, params = odds_table(n, rules)
    else:
        odds, params = no_odds()
    return SeatArrays(bidding, play, odds, params)


# ---------------------------------------------------------------- reference bridge


class KernelDecisions:
    """Deals, calls and cards for the reference engine's ``play_game``, taken from the
    kernels at the same random-stream positions, so both engines play identical games.

    >>> from pitchsim.game.rules import Rules
    >>> from pitchsim.games.bidding import parse_strategies
    >>> k = KernelDecisions(seed=1, game=0, seats=parse_strategies("heuristic,random"),
    ...                     rules=Rules.parse("auction-pitch"))
    >>> k.play().winners in ([], [0], [1])
    True
    """

    def __init__(self, seed: int, game: int, seats: Sequence[Strategy], rules: Rules):
        self.seed, self.game, self.rules = seed, game, rules
        self.n = len(seats)
        self.arrays = seat_arrays(seats, rules)
        self.rule_array = rules.to_array()
        self.deal_index = game * MAX_DEALS
        self.key = np.uint64(0)
        self.chooser = kernel_chooser(self.arrays.play, seed, self.deal_index)

    def deal(self, deal_no: int) -> list[int]:
        self.deal_index = self.game * MAX_DEALS + deal_no
        self.key = np.uint64(deal_key(self.seed, self.deal_index))
        self.chooser = kernel_chooser(self.arrays.play, self.seed, self.deal_index)
        dealt = np.empty(self.n, dtype=np.int64)
        deal_hands(
            self.key,
            self.n,
            0,
            0,
            np.arange(52, dtype=np.int64),
            np.empty(52, dtype=np.int64),
            dealt,
        )
        return [int(m) for m in dealt]

    def bid(self, view: BidView) -> Bid:
        n, a = self.n, self.arrays
        calls = np.zeros(n, dtype=np.int64)
        calls[: len(view.bids)] = view.bids
        high = max(view.bids, default=PASS)
        high_seat = -1
        for i, b in enumerate(view.bids):
            if b != PASS:
                high_seat = (view.dealer + 1 + i) % n
        bids = [b for b in view.legal if b != PASS]
        call, trump = choose_bid(
            a.bidding[view.seat],
            np.int64(view.hand),
            view.seat,
            n,
            view.dealer,
            calls,
            len(view.bids),
            high,
            high_seat,
            min(bids),
            PASS in view.legal,
            np.array(view.scores, dtype=np.int64),
            self.rule_array,
            a.odds,
            a.params,
            self.key,
            AUCTION_COUNTER + len(view.bids),
        )
        if call == 4:
            dealt = np.zeros(n, dtype=np.int64)
            dealt[view.seat] = view.hand
            card = pitched_card(
                dealt,
                n,
                view.seat,
                trump,
                a.play,
                self.rule_array,
                self.key,
                np.zeros(n, dtype=np.int64),
                np.zeros(n, dtype=np.int64),
            )
            return Bid(4, pitch=int(card))
        return Bid(int(call), trump=int(trump) if call else -1)

    def choose(self, view) -> int:
        return self.chooser(view)

    def play(self) -> GameRecord:
        """The whole game through the reference engine."""
        dealer = self.game % self.n

        def deal(deal_no: int, now: int) -> tuple[list[int], list[int]]:
            nonlocal dealer
            dealer = now
            return self.deal(deal_no), []  # the base game has no stock to draw from

        def bid(seat: int, hand: int, calls: list[int], legal: list[int], scores: list[int]):
            view = BidView(
                seat, hand, dealer, self.n, tuple(calls), tuple(legal), tuple(scores), self.rules
            )
            return self.bid(view)

        return play_game(
            self.n,
            self.rules,
            None,
            bid,
            None,
            self.choose,
            first_dealer=self.game % self.n,
            max_hands=MAX_DEALS,
            deals=deal,
        )
