"""Bidding policies and strategies by name.

A seat's *strategy* is a bidding policy and a play policy, written ``bidding+play``
(``odds+heuristic``).  A single name means that policy for both when it is both
(``heuristic``, ``random``), and a bidding policy with ``heuristic`` play otherwise
(``odds`` = ``odds+heuristic``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..kernels.advisor import DEFAULT_SAMPLES
from ..kernels.bidding import BIDDING_POLICY_IDS
from ..util.errors import InputError, quoted
from .policies import PLAY_POLICIES, PolicyError, by_name, play_policy

DEFAULT_PLAY = "heuristic"
# The strategy pitchsim plays as a player: the engine's default, and the opponents at
# practice and in the web table.  Rollout play won 54-65% of duplicate games against
# heuristic play under every preset and table measured (reports/search-play.md,
# "Whole games"), at a few milliseconds a card.
PLAYER_STRATEGY = "odds+rollout"
ADVISOR_SAMPLES = DEFAULT_SAMPLES  # the advisor bidder's deals per decision (table.boards)


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
