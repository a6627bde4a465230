"""Bid odds: how often a hand makes each bid, per trump suit, from simulated deals.

The pitcher (seat 0) holds the hand and leads; the other hands are dealt at random
from the 46 unseen cards and everything is played out by the chosen play policy.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .cards import SUITS, format_card, mask_of, parse_hand, parse_suit, suit_of
from .errors import InputError
from .kernels.deal import deck_without
from .kernels.simulate import simulate_hands
from .options import BIDS, Rules
from .policies import seat_policies
from .runtime import chunked, pick_seed, use_threads
from .stats import samples_for_half_width, wilson

DEFAULT_SAMPLES = 40_000  # about +/-0.5% at 95% for any probability
assert samples_for_half_width(0.005) <= DEFAULT_SAMPLES
TRUMP_CHOICE_SAMPLES = 4_000


@dataclass
class TrumpOdds:
    """Outcomes with one trump suit: points won by the pitcher's side, 0..4."""

    suit: int
    samples: int
    points: np.ndarray  # counts of deals by points won, index 0..4

    def at_least(self, k: int) -> int:
        return int(self.points[k:].sum())

    def p_at_least(self, k: int) -> float:
        return self.at_least(k) / self.samples

    def ci95(self, k: int) -> tuple[float, float]:
        lo, hi = wilson(self.at_least(k), self.samples)
        return float(lo), float(hi)

    def expected_score(self, bid: int) -> float:
        """Mean score of bidding ``bid``: points won when made, -bid when set."""
        pts = np.arange(5)
        score = np.where(pts >= bid, pts, -bid)
        return float((score * self.points).sum() / self.samples)

    def expected_score_se(self, bid: int) -> float:
        pts = np.arange(5)
        score = np.where(pts >= bid, pts, -bid)
        mean = (score * self.points).sum() / self.samples
        var = ((score - mean) ** 2 * self.points).sum() / self.samples
        return float(np.sqrt(var / self.samples))

    def best_bid(self) -> tuple[int, float]:
        """The highest bid with a positive expected score, or (0, 0.0) to pass.

        A made bid scores the points won whatever the bid, so expected score only falls
        as the bid rises: the useful answer is how high one can go and still expect to
        gain, which is what a player needs to know in the auction.
        """
        for k in reversed(BIDS):
            e = self.expected_score(k)
            if e > 0:
                return k, e
        return 0, 0.0


@dataclass
class BidOdds:
    hand: list[int]
    players: int
    samples: int
    seed: int
    policy: str
    rules: Rules
    by_trump: dict[int, TrumpOdds]
    chosen_trump: int
    chosen_trump_share: dict[int, float] = field(default_factory=dict)

    @property
    def recommendation(self) -> tuple[int, int | None, float]:
        """(bid, trump, expected score): the highest bid with a positive expected score
        over the trump suits (ties: the larger expected score); bid 0 = pass."""
        best = (0, None, 0.0)
        for suit, odds in self.by_trump.items():
            bid, e = odds.best_bid()
            if (bid, e) > (best[0], best[2]):
                best = (bid, suit, e)
        return best

    def to_json(self) -> dict:
        bid, trump, e = self.recommendation
        return {
            "hand": [format_card(c, symbols=False) for c in self.hand],
            "players": self.players,
            "samples": self.samples,
            "seed": self.seed,
            "policy": self.policy,
            "partnership": self.rules.partnership,
            "rules": self.rules.describe(),
            "by_trump": {
                SUITS[s]: {
                    "p_at_least": {str(k): o.p_at_least(k) for k in BIDS},
                    "ci95": {str(k): list(o.ci95(k)) for k in BIDS},
                    "expected_score": {str(k): o.expected_score(k) for k in BIDS},
                    "expected_score_se": {str(k): o.expected_score_se(k) for k in BIDS},
                    "points_distribution": {str(p): int(c) for p, c in enumerate(o.points)},
                }
                for s, o in self.by_trump.items()
            },
            "chosen_trump": SUITS[self.chosen_trump],
            "chosen_trump_share": {SUITS[s]: p for s, p in self.chosen_trump_share.items()},
            "recommended_bid": bid,
            "recommended_trump": SUITS[trump] if trump is not None else None,
            "recommended_expected_score": e,
        }


def bid_odds(
    hand: str | list[int],
    players: int = 4,
    samples: int | None = None,
    seed: int | None = None,
    policy: str = "heuristic",
    trump: str | int | None = None,
    partnership: bool = False,
    threads: int | None = None,
    rules: Rules | None = None,
    progress=None,
) -> BidOdds:
    """Estimate P(pitcher's side wins >= k points), k = 1..4, for each trump suit held.

    ``samples`` deals are played per trump suit (default 40,000: about +/-0.5%).
    Deal i uses the random stream (seed, i), so the same seed gives the same numbers
    on any thread count.  ``progress(deals_done, total_deals)`` is called as chunks finish.

    >>> r = bid_odds("AH KH QH JH TH 9H", samples=1000, seed=1)
    >>> r.by_trump[2].p_at_least(4)
    1.0
    """
    cards = parse_hand(hand) if isinstance(hand, str) else list(hand)
    if len(cards) != 6 or len(set(cards)) != 6:
        raise InputError("a hand has exactly 6 different cards")
    rules = rules or Rules()
    if partnership:
        rules = Rules(**{**rules.__dict__, "partnership": True})
    rules.check_players(players)
    samples = DEFAULT_SAMPLES if samples is None else samples
    if samples <= 0:
        raise InputError(f"samples must be positive, not {samples}")
    seed = pick_seed(seed)
    policies = seat_policies(policy, players)  # one for all seats or one per seat
    suits_held = sorted({suit_of(c) for c in cards})
    if trump is not None:
        t = parse_suit(trump) if isinstance(trump, str) else int(trump)
        if t not in suits_held:
            raise InputError(f"--trump {SUITS[t]}: the hand holds no card of that suit")
        suits = [t]
    else:
        suits = suits_held

    hand_mask = mask_of(cards)
    template = deck_without(hand_mask)
    rule_array = rules.to_array()

    def run(fixed_trump: int, count: int):
        flags = np.empty(count, dtype=np.int8)
        trumps = np.empty(count, dtype=np.int8)
        no_hands = np.empty(0, dtype=np.int64)
        for start, stop in chunked(count):
            simulate_hands(seed, start, stop - start, players, hand_mask, template, fixed_trump,
                           policies, rule_array, flags[start:stop], trumps[start:stop], no_hands, no_hands)  # fmt: skip
            if progress:
                progress(stop - start, total)
        return flags, trumps

    total = samples * len(suits) + min(samples, TRUMP_CHOICE_SAMPLES)
    by_trump = {}
    with use_threads(threads):
        for s in suits:
            flags, _ = run(s, samples)
            pts = np.bitwise_count(flags.view(np.uint8)).astype(np.int64)
            by_trump[s] = TrumpOdds(s, samples, np.bincount(pts, minlength=5))
        # Which suit the policy picks when trump is left to it (its opening lead).
        _, picked = run(-1, min(samples, TRUMP_CHOICE_SAMPLES))
    share = np.bincount(picked, minlength=4) / picked.size
    chosen = {s: float(share[s]) for s in range(4) if share[s] > 0}
    return BidOdds(
        hand=cards,
        players=players,
        samples=samples,
        seed=seed,
        policy=policy,
        rules=rules,
        by_trump=by_trump,
        chosen_trump=int(np.argmax(share)),
        chosen_trump_share=chosen,
    )
