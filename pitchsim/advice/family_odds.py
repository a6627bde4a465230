"""Bid odds under a rule family: how often a hand makes each level k = 1 .. the
family's point total, per trump suit, from simulated deals (``pitchsim bid-odds
--rules FAMILY``).

The same idea as :mod:`pitchsim.advice.odds` for the base game: the hand sits in seat
0, pitches with each trump suit it could make trump (and once with the suit its play
policy picks), the other hands are dealt at random from the rest of the family's
pack, and the hand is played out by the family kernels' policies; the same hand is
also played as a defender (the value of passing).  The hand is the whole deal of the
seat: 6 cards, or 9 (10 with 5 players in ten-point) under deal=9, where the answer is
P(make k | those cards dealt): the policy names trump, then the discard and draw of
VARIANTS.md 4.8 happen as the rules say.

Every level k from 1 to the maximum is estimated (``p_at_least``); ``levels`` only
chooses which the tables show.  Under shoot=true the shoot call is made exactly when
the side wins every point the rules can award, P(make the maximum), and it wins the
game at once (VARIANTS.md 6.1): it is reported as that probability, with no expected
score.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..game.cards import SUITS, Suit, format_card, format_cards, mask_of, parse_cards, parse_suit
from ..game.rules import FamilyRules, Rules, as_family, label
from ..game.trumps import jick_card
from ..games.policies import play_array, play_policy, searches
from ..util.errors import InputError, quoted
from ..util.limits import MAX_SAMPLES, check_count
from ..util.runtime import CHUNK, chunked, pick_seed, use_threads
from ..util.stats import wilson
from .odds import (
    DEFAULT_COMPARE_SAMPLES,
    SEARCH_CHUNK,
    CompareOdds,
    SuitDict,
    _mean_se,
    _paired,
    _seats_text,
    play_policy_names,
)

DEFAULT_SAMPLES = 40_000  # as the base game's bid-odds: about +/-0.5% at 95%
TRUMP_CHOICE_SAMPLES = 4_000


def parse_levels(text: str | list[int] | None, max_bid: int) -> list[int]:
    """``"2,5,8,10"`` (or a list) as sorted distinct levels in 1..``max_bid``; None:
    every level."""
    if text is None:
        return list(range(1, max_bid + 1))
    items = text.split(",") if isinstance(text, str) else list(text)
    levels = []
    for item in items:
        s = str(item).strip()
        if not s.isdigit() or not 1 <= int(s) <= max_bid:
            raise InputError(
                f"--levels: {quoted(s)} is not a level 1-{max_bid} (the points these rules "
                f"can award)"
            )
        levels.append(int(s))
    return sorted(set(levels))


@dataclass(repr=False)
class FamilyTrumpOdds:
    """Outcomes with one trump suit: deals by points won by the pitcher's side,
    0..max_bid, and ``joint[p, q]`` by (points won, points the other sides won)."""

    suit: Suit
    samples: int
    points: np.ndarray
    joint: np.ndarray
    opponents: int

    def __repr__(self) -> str:
        return f"FamilyTrumpOdds(trump={self.suit!r}, samples={self.samples:,})"

    @property
    def max_bid(self) -> int:
        return self.points.size - 1

    def at_least(self, k: int) -> int:
        return int(self.points[k:].sum())

    def p_at_least(self, k: int) -> float:
        """P(the pitcher's side wins at least ``k`` points): the chance to make bid k."""
        return self.at_least(k) / self.samples

    def ci95(self, k: int) -> tuple[float, float]:
        lo, hi = wilson(self.at_least(k), self.samples)
        return float(lo), float(hi)

    def se(self, k: int) -> float:
        p = self.p_at_least(k)
        return float(np.sqrt(p * (1 - p) / self.samples))

    def _score(self, bid: int) -> np.ndarray:
        pts = np.arange(self.points.size)
        return np.where(pts >= bid, pts, -bid)

    def expected_score(self, bid: int) -> float:
        """Mean score of bidding ``bid``: points won when made, -bid when set (0.9)."""
        return _mean_se(self._score(bid), self.points)[0]

    def expected_score_se(self, bid: int) -> float:
        return _mean_se(self._score(bid), self.points)[1]

    def _margins(self, bid: int) -> tuple[float, float]:
        pts = np.arange(self.points.size)
        margin = self._score(bid)[:, None] - pts[None, :] / self.opponents
        return _mean_se(margin.ravel(), self.joint.ravel())

    def expected_margin(self, bid: int) -> float:
        """Mean of (the bid's score - what an opponent wins: the other team, or the
        average other player)."""
        return self._margins(bid)[0]

    def expected_margin_se(self, bid: int) -> float:
        return self._margins(bid)[1]

    def best_bid(self, min_bid: int) -> tuple[int, float]:
        """The highest legal bid (``min_bid`` .. max) with a positive expected score, or
        (0, 0.0) to pass."""
        for k in range(self.max_bid, min_bid - 1, -1):
            e = self.expected_score(k)
            if e > 0:
                return k, e
        return 0, 0.0


@dataclass(repr=False)
class FamilyBidOdds:
    """What :func:`family_bid_odds` found; ``by_trump[suit]`` is a
    :class:`FamilyTrumpOdds`, ``passing`` the points of the hand's side as a defender
    (counts by points), ``levels`` the levels the tables show."""

    hand: list[int]
    players: int
    samples: int
    seed: int
    policy: str
    rules: FamilyRules
    levels: list[int]
    by_trump: dict
    chosen_trump: Suit | None
    chosen_trump_share: dict = field(default_factory=dict)
    passing: np.ndarray | None = None
    trump_fixed: bool = False
    seconds: float = 0.0
    compare: CompareOdds | None = None  # the first deals again under ``compare_policy``

    def __repr__(self) -> str:
        return (
            f"FamilyBidOdds(rules={label(self.rules)!r}, hand={self.hand_text!r}, "
            f"players={self.players}, samples={self.samples:,}, seed={self.seed})"
        )

    @property
    def hand_text(self) -> str:
        return format_cards(self.hand, symbols=False)

    @property
    def max_bid(self) -> int:
        return self.rules.max_bid

    @property
    def deals_played(self) -> int:
        choice = 0 if self.trump_fixed else min(self.samples, TRUMP_CHOICE_SAMPLES)
        return self.samples * (len(self.by_trump) + 1) + choice

    @property
    def passing_points(self) -> tuple[float, float]:
        """Mean points of the hand's side as a defender, and its standard error."""
        return _mean_se(np.arange(self.passing.size), self.passing)

    @property
    def recommendation(self) -> tuple[int, Suit | None, float]:
        """(bid, trump, expected score): the highest legal bid with a positive expected
        score over the trump suits (ties: the larger expected score); bid 0 = pass."""
        best = (0, None, 0.0)
        for suit, odds in self.by_trump.items():
            bid, e = odds.best_bid(self.rules.min_bid)
            if (bid, e) > (best[0], best[2]):
                best = (bid, suit, e)
        return best

    def to_json(self) -> dict:
        bid, trump, e = self.recommendation
        every = range(1, self.max_bid + 1)
        mean, se = self.passing_points
        doc = {
            "rules": label(self.rules),
            "rules_in_full": self.rules.describe(),
            "hand": [format_card(c, symbols=False) for c in self.hand],
            "players": self.players,
            "samples": self.samples,
            "deals_played": self.deals_played,
            "seed": self.seed,
            "policy": self.policy,
            "partnership": self.rules.partnership,
            "max_bid": self.max_bid,
            "min_bid": self.rules.min_bid,
            "levels": self.levels,
            "by_trump": {
                SUITS[s]: {
                    "p_at_least": {str(k): o.p_at_least(k) for k in every},
                    "se": {str(k): o.se(k) for k in every},
                    "ci95": {str(k): list(o.ci95(k)) for k in every},
                    "expected_score": {str(k): o.expected_score(k) for k in every},
                    "expected_score_se": {str(k): o.expected_score_se(k) for k in every},
                    "expected_margin": {str(k): o.expected_margin(k) for k in every},
                    "expected_margin_se": {str(k): o.expected_margin_se(k) for k in every},
                    "points_distribution": {str(p): int(c) for p, c in enumerate(o.points)},
                    "shoot": {
                        "p_made": o.p_at_least(self.max_bid),
                        "ci95": list(o.ci95(self.max_bid)),
                    }
                    if self.rules.shoot
                    else None,
                }
                for s, o in self.by_trump.items()
            },
            "passing": {
                "samples": self.samples,
                "expected_points": mean,
                "expected_points_se": se,
                "points_distribution": {str(p): int(c) for p, c in enumerate(self.passing)},
            },
            "chosen_trump": None if self.chosen_trump is None else SUITS[self.chosen_trump],
            "chosen_trump_share": {SUITS[s]: p for s, p in self.chosen_trump_share.items()},
            "recommended_bid": bid,
            "recommended_trump": SUITS[trump] if trump is not None else None,
            "recommended_expected_score": e,
        }
        c = self.compare
        if c is not None:
            doc["compare"] = {
                "policy": c.policy,
                "seats": c.seats,
                "samples": c.samples,
                "by_trump": {
                    SUITS[s]: {
                        str(k): {
                            "base": m.base,
                            "compare": m.compare,
                            "difference": m.difference,
                            "difference_ci95": list(m.difference_ci95()),
                        }
                        for k, m in by_level.items()
                    }
                    for s, by_level in c.by_trump.items()
                },
            }
        return doc


def trump_suits(cards: list[int], rules: FamilyRules) -> list[int]:
    """The suits the hand could make trump: under trump=first-lead the printed suits it
    holds (its first card fixes trump); under trump=named every suit in which it holds
    a trump other than a joker (the suit's own cards or its jick)."""
    plain = [c for c in cards if c < 52]
    suits = {c // 13 for c in plain}
    if rules.trump == "named" and rules.jick:
        suits |= {t for t in range(4) if jick_card(t) in plain}
    return sorted(suits)


def family_bid_odds(
    hand: str | list[int],
    rules: Rules | str,
    players: int = 4,
    samples: int | None = None,
    seed: int | None = None,
    policy: str = "heuristic",
    trump: str | int | None = None,
    levels: str | list[int] | None = None,
    threads: int | None = None,
    progress=None,
    compare_policy: str | None = None,
    compare_samples: int | None = None,
) -> FamilyBidOdds:
    """How often ``hand`` makes each level 1 .. the maximum bid as pitcher under a rule
    family, per trump suit, with the value of passing.

    ``hand``: the seat's whole deal (6 cards, 9 or 10 under deal=9) in the family's
    deck (jokers ``HJ``/``LJ`` where it has them).  ``policy``: ``heuristic`` or
    ``random``, or one per seat comma-separated (the family kernels' policies).
    ``trump``: only that suit.  ``levels``: the levels the tables show (all are
    estimated).  Deal ``i`` uses the stream (seed, i): the same seed gives the same
    numbers on any thread count.

    ``compare_policy``: the first ``compare_samples`` deals of each trump suit played
    again under that play model (a family policy or ``rollout[:W]``, one for every
    seat or one per seat), paired deal by deal with the first run (``CompareOdds``).
    The family policies play the same cards whatever the bid, so one run per suit
    serves every level.
    """
    import time

    from ..kernels.families.fixed_hand import AS_DEFENDER, PITCHER, play_family_fixed
    from ..kernels.families.policies import FAMILY_POLICY_IDS
    from ..kernels.families.tables import family_array, family_tables

    r = as_family(Rules.parse(rules))
    r.check_players(players)
    each = r.cards_each(players)
    cards = parse_cards(hand, jokers=r.jokers) if isinstance(hand, str) else list(hand)
    if len(cards) != len(set(cards)):
        raise InputError("a hand has no card twice")
    if len(cards) != each:
        raise InputError(
            f"{label(r)} with {players} players deals {each} cards: the hand has {len(cards)}"
        )
    if r.no_fours(players):
        fours = [c for c in cards if c < 52 and c % 13 == 2]
        if fours:
            raise InputError(
                f"{format_card(fours[0], symbols=False)} is not in this deck (with 5 players "
                f"{label(r)} deals from the pack without the four 4s)"
            )
    samples = DEFAULT_SAMPLES if samples is None else samples
    check_count("samples", samples, MAX_SAMPLES)
    seed = pick_seed(seed)
    if compare_samples is not None and compare_policy is not None:
        check_count("compare samples", compare_samples, MAX_SAMPLES)
        if compare_samples > samples:
            raise InputError(
                f"compare samples ({compare_samples:,}) must be at most samples "
                f"({samples:,}): the compare run plays the first deals again"
            )
    names = [p.strip() for p in policy.split(",")]
    if len(names) not in (1, players):
        raise InputError(f"--policy takes one policy or one per seat ({players}), not {len(names)}")
    for p in names:
        if p not in FAMILY_POLICY_IDS:
            known = ", ".join(FAMILY_POLICY_IDS)
            raise InputError(f"{label(r)} is played by the family policies ({known}), not {p!r}")
    ids = [FAMILY_POLICY_IDS[p] for p in names] * (players if len(names) == 1 else 1)
    policies = np.array(ids, dtype=np.int64)
    if compare_policy is None:
        if compare_samples is not None:
            raise InputError("compare samples need a compare policy (--compare-policy)")
    else:
        compare_policies = _compare_policies(compare_policy, players, r)
        if compare_samples is None:
            compare_samples = min(DEFAULT_COMPARE_SAMPLES, samples or DEFAULT_SAMPLES)
        check_count("compare samples", compare_samples, MAX_SAMPLES)
    held = trump_suits(cards, r)
    if trump is not None:
        t = parse_suit(trump) if isinstance(trump, str) else trump
        if isinstance(t, bool) or not isinstance(t, int | np.integer) or not 0 <= t < 4:
            raise InputError(f"trump must be a suit (C, D, H, S or 0-3), not {quoted(trump)}")
        t = int(t)
        if t not in held:
            what = "no card of that suit" if r.trump == "first-lead" else "no trump in that suit"
            raise InputError(f"--trump {SUITS[t]}: the hand holds {what}")
        suits = [t]
    else:
        suits = held
    levels = parse_levels(levels, r.max_bid)
    fr, tab = family_array(r), family_tables(r)
    hand_mask = np.int64(mask_of(cards))
    opponents = 1 if r.partnership else players - 1
    size = r.max_bid + 1

    choice = 0 if trump is not None else min(samples, TRUMP_CHOICE_SAMPLES)
    total = samples * (len(suits) + 1) + choice
    if compare_policy is not None:
        total += compare_samples * len(suits)

    def run(seat: int, fixed_trump: int, count: int, pols: np.ndarray = policies):
        """Deals by (points of the hand's side, points of the others), and by trump:
        counted chunk by chunk, so memory stays a chunk's whatever ``count``."""
        joint = np.zeros(size * size, np.int64)
        picked = np.zeros(4, np.int64)
        chunk = SEARCH_CHUNK if pols.dtype == np.int32 else CHUNK  # int32: a seat searches
        width = min(count, chunk)
        ours, every, trumps = (np.empty(width, np.int64) for _ in range(3))
        firsts = []  # the points of the hand's side deal by deal, for a paired compare
        for a, b in chunked(count, chunk):
            m = b - a
            play_family_fixed(
                seed,
                a,
                m,
                players,
                seat,
                hand_mask,
                fixed_trump,
                pols,
                fr,
                tab,
                ours[:m],
                every[:m],
                trumps[:m],
            )
            theirs = every[:m] - ours[:m]
            joint += np.bincount(ours[:m] * size + theirs, minlength=size * size)[: size * size]
            picked += np.bincount(trumps[:m], minlength=4)[:4]
            if a < (compare_samples or 0):
                firsts.append(ours[:m].copy())
            if progress:
                progress(m, total)
        first = np.concatenate(firsts)[: compare_samples or 0] if firsts else ours[:0]
        return joint.reshape(size, size), picked, first

    started = time.perf_counter()
    by_trump = SuitDict()
    paired = SuitDict()
    with use_threads(threads):
        for s in suits:
            joint, _, first = run(PITCHER, s, samples)
            by_trump[Suit(s)] = FamilyTrumpOdds(s, samples, joint.sum(axis=1), joint, opponents)
            if compare_policy is not None:  # the first deals again under the compare play
                again = run(PITCHER, s, compare_samples, compare_policies)[2]
                paired[Suit(s)] = {k: _paired(k, first, again) for k in range(1, r.max_bid + 1)}
        if choice:
            _, picked, _ = run(PITCHER, -1, choice)
            share = picked / picked.sum()
        else:
            share = np.bincount([suits[0]], minlength=4).astype(float)
        joint, _, _ = run(AS_DEFENDER, -1, samples)
        passing = joint.sum(axis=1)
    chosen = SuitDict({Suit(s): float(share[s]) for s in range(4) if share[s] > 0})
    return FamilyBidOdds(
        hand=cards,
        players=players,
        samples=samples,
        seed=seed,
        policy=policy,
        rules=r,
        levels=levels,
        by_trump=by_trump,
        chosen_trump=Suit(int(np.argmax(share))),
        chosen_trump_share=chosen,
        passing=passing,
        trump_fixed=trump is not None,
        seconds=time.perf_counter() - started,
        compare=None
        if compare_policy is None
        else CompareOdds(
            play_policy_names(compare_policy),
            compare_samples,
            _seats_text(compare_policy),
            paired,
            searches(compare_policies),
        ),
    )


def _compare_policies(spec: str, players: int, rules: FamilyRules) -> np.ndarray:
    """The compare run's play policies: one for every seat or one per seat, each a family
    play policy or ``rollout[:W]`` (``games.families.FAMILY_PLAY``); int32 when a seat
    searches (``play_array``)."""
    from ..games.families import FAMILY_PLAY

    names = [p.strip() for p in spec.split(",")]
    if len(names) not in (1, players):
        raise InputError(
            f"--compare-policy takes one policy or one per seat ({players}), not {len(names)}"
        )
    ids = []
    for p in names:
        policy = play_policy(p)
        if policy.name.partition(":")[0] not in FAMILY_PLAY:
            raise InputError(
                f"--compare-policy {quoted(p)}: {label(rules)} is played by "
                f"{', '.join(FAMILY_PLAY)} (rollout:W for W worlds)"
            )
        ids.append(policy.id)
    return play_array(ids * (players if len(names) == 1 else 1))
