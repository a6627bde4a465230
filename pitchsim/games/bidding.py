"""Bidding policies and strategies by name, the ``odds`` table, and a bridge that lets
the plain-Python reference engine ask the kernels for calls and cards.

A seat's *strategy* is a bidding policy and a play policy, written ``bidding+play``
(``odds+heuristic``).  A single name means that policy for both when it is both
(``heuristic``, ``random``), and a bidding policy with ``heuristic`` play otherwise
(``odds`` = ``odds+heuristic``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from ..game.reference import PASS, Bid, BidView, GameRecord, play_game
from ..game.rules import Rules
from ..kernels.advisor import DEFAULT_SAMPLES
from ..kernels.auction import pitched_card
from ..kernels.bidding import BIDDING_POLICY_IDS, PLAIN_DTYPE
from ..kernels.bidding.odds import N_PARAMS, P_DEFENDER, P_MADE, P_OVERCALL
from ..kernels.contract import MAX_DEALS
from ..kernels.deal import deal_hands
from ..kernels.dispatch import choose_bid
from ..kernels.rng import AUCTION_COUNTER, deal_key
from ..util.errors import InputError, quoted
from .policies import PLAY_POLICIES, PolicyError, by_name, kernel_chooser, play_array, play_policy

TABLE_FILE = "bid_table.npz"
DEFAULT_PLAY = "heuristic"
# The strategy pitchsim plays as a player: the engine's default, and the opponents at
# practice and in the web table.  Rollout play won 54-65% of duplicate games against
# heuristic play under every preset and table measured (reports/search-play.md,
# "Whole games"), at a few milliseconds a card.
PLAYER_STRATEGY = "odds+rollout"
ADVISOR_SAMPLES = DEFAULT_SAMPLES  # the advisor bidder's deals per decision (games.families)


class StrategyError(InputError):
    """An unknown bidding policy or a strategy that cannot be read."""


@dataclass(frozen=True)
class BiddingPolicy:
    name: str
    id: int
    description: str


BIDDING_POLICIES = {
    "random": BiddingPolicy(
        "random", BIDDING_POLICY_IDS["random"], "a legal call uniformly at random"
    ),
    "heuristic": BiddingPolicy(
        "heuristic",
        BIDDING_POLICY_IDS["heuristic"],
        "a club player's count: likely High, Low, Jack and Game in the best suit, bid that many",
    ),
    "odds": BiddingPolicy(
        "odds",
        BIDDING_POLICY_IDS["odds"],
        "the call with the best expected score from simulated make-probabilities",
    ),
    "odds-game": BiddingPolicy(
        "odds-game",
        BIDDING_POLICY_IDS["odds-game"],
        "odds, plus the game situation: a bid that wins the game is worth more than its points",
    ),
    "advisor": BiddingPolicy(
        "advisor",
        BIDDING_POLICY_IDS["advisor"],
        "pitchsim advise at the table: deals that fit the calls heard (odds model), every "
        "call played out to the end of the game, the best chance of winning it",
    ),
}
assert set(BIDDING_POLICIES) == set(BIDDING_POLICY_IDS)
USES_TABLE = {"odds", "odds-game"}  # of the base kernels' policies (the advisor is not one)


def bidding_policy(name: str) -> BiddingPolicy:
    return by_name(BIDDING_POLICIES, name, "bidding policy", StrategyError)


@dataclass(frozen=True)
class Strategy:
    """What one seat does: how it bids and how it plays."""

    bidding: str
    play: str

    @property
    def name(self) -> str:
        return f"{self.bidding}+{self.play}"

    @classmethod
    def parse(cls, text: str) -> Strategy:
        """``"odds+heuristic"``, ``"odds"`` (heuristic play) or ``"random"`` (both)."""
        parts = [p.strip().lower() for p in text.split("+")]
        if len(parts) > 2 or not all(parts):
            raise StrategyError(
                f"cannot read strategy {quoted(text)}: write bidding+play, e.g. odds+heuristic"
            )
        if len(parts) == 1:
            bid = parts[0]
            play = bid if bid in PLAY_POLICIES else DEFAULT_PLAY
            parts = [bid, play]
        bidding_policy(parts[0])
        try:
            play_policy(parts[1])
        except PolicyError as e:
            if parts[1].partition(":")[0] in PLAY_POLICIES:  # known, its ':W' is what is wrong
                raise StrategyError(f"{e} (in strategy {quoted(text)})") from None
            known = ", ".join(PLAY_POLICIES)
            raise StrategyError(
                f"unknown play policy {quoted(parts[1])} in strategy {quoted(text)} (known: {known})"
            ) from None
        return cls(parts[0], parts[1])


def parse_strategies(spec: str | Sequence[str]) -> list[Strategy]:
    names = spec.split(",") if isinstance(spec, str) else list(spec)
    if not names or not all(
        isinstance(n, Strategy) or (isinstance(n, str) and n.strip()) for n in names
    ):
        raise StrategyError(
            f"cannot read strategies {quoted(spec)}: give names separated by commas"
        )
    return [s if isinstance(s, Strategy) else Strategy.parse(s) for s in names]


# ---------------------------------------------------------------- the odds table


@lru_cache(maxsize=1)
def load_table() -> dict:
    """The shipped make-probability table (see ``scripts/make_bid_table.py``)."""
    path = Path(__file__).resolve().parent.parent / "data" / TABLE_FILE
    try:
        with np.load(path) as z:
            return {k: z[k] for k in z.files}
    except FileNotFoundError:
        raise InputError(
            f"the odds table {TABLE_FILE} is missing: run scripts/make_bid_table.py"
        ) from None


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


def seat_strategies(
    bidding: str | Sequence[str], play: str | Sequence[str], players: int
) -> list[Strategy]:
    """Per-seat strategies from bidding and play policy names, each one name for every
    seat or one per seat (``"odds"``, ``"odds,heuristic,odds,heuristic"``)."""

    def per_seat(spec, what):
        names = spec.split(",") if isinstance(spec, str) else list(spec)
        if len(names) == 1:
            names = names * players
        if len(names) != players:
            raise StrategyError(
                f"give one {what} policy for every seat or one per seat ({players}), not {len(names)}"
            )
        return [x.strip().lower() for x in names]

    bids = [bidding_policy(b).name for b in per_seat(bidding, "bidding")]
    plays = [play_policy(p).name for p in per_seat(play, "play")]
    return [Strategy(b, p) for b, p in zip(bids, plays, strict=True)]
