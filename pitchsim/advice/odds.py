"""Bid odds: how often a hand makes each bid, per trump suit, from simulated deals.

The pitcher (seat 0) holds the hand and leads; the other hands are dealt at random
from the 46 unseen cards and everything is played out by the chosen play policy.  The
same hand is also played as a defender (another seat pitches), which is what passing
is worth.

``compare_policy`` plays the first deals again under another play model (a search
policy at every seat, say) and reports, per trump suit and bid, both chances, their
paired difference and its 95% interval: how far the odds move with stronger play.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

from ..game.cards import (
    SUITS,
    Suit,
    format_card,
    format_cards,
    mask_of,
    parse_hand,
    parse_suit,
    suit_of,
)
from ..game.rules import BIDS, Rules
from ..games.policies import play_policy, searches, seat_policies
from ..kernels.deal import deck_without
from ..kernels.fixed_hand import AS_DEFENDER, play_fixed_hand
from ..util.errors import InputError, quoted
from ..util.limits import MAX_SAMPLES, check_count
from ..util.runtime import CHUNK, chunked, pick_seed, use_threads
from ..util.stats import paired_difference, samples_for_half_width, too_few, wilson

DEFAULT_SAMPLES = 40_000  # about +/-0.5% at 95% for any probability
assert samples_for_half_width(0.005) <= DEFAULT_SAMPLES
TRUMP_CHOICE_SAMPLES = 4_000
# The compare run (``compare_policy``): a search policy costs milliseconds a deal, so it
# plays fewer deals, once per bid level.  2,000 paired deals put a 95% interval of
# about +/-1-2 points on the difference.
DEFAULT_COMPARE_SAMPLES = 2_000
SEARCH_CHUNK = 256  # deals per kernel call under search play: progress stays live
POINTS = np.arange(5)  # a side wins 0..4 points


def _mean_se(values: np.ndarray, counts: np.ndarray) -> tuple[float, float]:
    """Mean and standard error of ``values`` observed ``counts`` times each."""
    n = counts.sum()
    mean = (values * counts).sum() / n
    var = ((values - mean) ** 2 * counts).sum() / n
    return float(mean), float(np.sqrt(var / n))


class SuitDict(dict):
    """A dict keyed by :class:`~pitchsim.game.cards.Suit` that also takes ``2``, ``"H"``,
    ``"hearts"`` or ``"♥"`` as a key."""

    def __missing__(self, key):
        if isinstance(key, str):
            suit = Suit(parse_suit(key))
            if dict.__contains__(self, suit):
                return self[suit]
        raise KeyError(key)

    def __contains__(self, key) -> bool:
        try:
            self[key]
        except (KeyError, InputError):
            return False
        return True


@dataclass(repr=False)
class TrumpOdds:
    """Outcomes with one trump suit: deals by points won by the pitcher's side, 0..4.

    ``joint[p, q]`` (when known) counts deals in which the pitcher's side won p points
    and the other players together q; ``opponents`` is what an opponent's share is
    taken over for margins (the n - 1 other players, or 1 team in a partnership).
    """

    suit: Suit
    samples: int
    points: np.ndarray  # counts of deals by points won, index 0..4
    joint: np.ndarray | None = None
    opponents: int = 1

    def __post_init__(self) -> None:
        self.suit = Suit(self.suit)

    def __repr__(self) -> str:
        ps = ", ".join(f"{k}: {self.p_at_least(k):.3f}" for k in BIDS)
        return f"TrumpOdds(trump={self.suit!r}, samples={self.samples:,}, p_at_least={{{ps}}})"

    def at_least(self, k: int) -> int:
        return int(self.points[k:].sum())

    def p_at_least(self, k: int) -> float:
        """P(the pitcher's side wins at least ``k`` points): the chance to make bid k."""
        return self.at_least(k) / self.samples

    def ci95(self, k: int) -> tuple[float, float]:
        """Wilson 95% interval of :meth:`p_at_least`."""
        lo, hi = wilson(self.at_least(k), self.samples)
        return float(lo), float(hi)

    def expected_score(self, bid: int) -> float:
        """Mean score of bidding ``bid``: points won when made, -bid when set."""
        return _mean_se(np.where(POINTS >= bid, POINTS, -bid), self.points)[0]

    def expected_score_se(self, bid: int) -> float:
        return _mean_se(np.where(POINTS >= bid, POINTS, -bid), self.points)[1]

    def _margins(self, bid: int) -> tuple[float, float]:
        if self.joint is None:
            raise ValueError("margins need the joint distribution of points (bid_odds fills it)")
        score = np.where(POINTS >= bid, POINTS, -bid)
        margin = score[:, None] - POINTS[None, :] / self.opponents
        return _mean_se(margin.ravel(), self.joint.ravel())

    def expected_margin(self, bid: int) -> float:
        """Mean of (the bid's score - the points an opponent wins): in a partnership the
        other team's points, at a solo table the average over the other players."""
        return self._margins(bid)[0]

    def expected_margin_se(self, bid: int) -> float:
        return self._margins(bid)[1]

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


@dataclass(repr=False)
class DefenceOdds:
    """The hand as a defender: deals by points its side won while another seat pitched
    (a random hand, leading the trump its play policy picks)."""

    samples: int
    points: np.ndarray  # counts of deals by points won, index 0..4

    def __repr__(self) -> str:
        return f"DefenceOdds(samples={self.samples:,}, expected_points={self.expected_points:.3f})"

    @property
    def expected_points(self) -> float:
        """What passing is worth: the points this hand's side wins on average."""
        return _mean_se(POINTS, self.points)[0]

    @property
    def expected_points_se(self) -> float:
        return _mean_se(POINTS, self.points)[1]


class Recommendation(NamedTuple):
    """How high the hand is worth bidding: ``bid`` 0 means pass (``trump`` None)."""

    bid: int
    trump: Suit | None
    expected_score: float

    def __str__(self) -> str:
        if self.bid == 0:
            return "pass (no bid has a positive expected score)"
        return f"worth bidding up to {self.bid} with {self.trump} as trump ({self.expected_score:+.2f})"


class PairedMake(NamedTuple):
    """P(make ``bid``) on the same ``samples`` deals under two play models: ``base`` (the
    run's policy) and ``compare``; ``only_base`` / ``only_compare`` count the deals made
    under one of them alone (the rest agree, and cancel in the difference)."""

    bid: int
    samples: int
    base_made: int
    compare_made: int
    only_base: int
    only_compare: int

    @property
    def base(self) -> float:
        return self.base_made / self.samples

    @property
    def compare(self) -> float:
        return self.compare_made / self.samples

    @property
    def difference(self) -> float:
        """compare - base: how far P(make bid) moves under the compare play model."""
        return self.compare - self.base

    def difference_ci95(self) -> tuple[float, float]:
        """95% interval of the paired difference."""
        _, lo, hi = paired_difference(self.only_compare, self.only_base, self.samples)
        return lo, hi


@dataclass(repr=False)
class CompareOdds:
    """The first ``samples`` deals of every trump suit played again under ``policy``
    (``seats``: which seats play it), once per bid level: the search pitcher's side
    aims at that level and the defenders at setting it.  ``by_trump[suit][k]`` is a
    :class:`PairedMake`."""

    policy: str
    samples: int
    seats: str
    by_trump: dict[Suit, dict[int, PairedMake]]
    searches: bool = True  # some seat plays a search policy (the others ignore the bid)

    AIM = (
        "each bid level k is a run of its own on the same deals, in which the pitcher's "
        "side plays to make k and the defenders to set it"
    )

    def __repr__(self) -> str:
        return (
            f"CompareOdds(policy={self.policy!r}, samples={self.samples:,}, seats={self.seats!r})"
        )

    @property
    def deals_played(self) -> int:
        return self.samples * len(BIDS) * len(self.by_trump)


@dataclass(repr=False)
class BidOdds:
    """What :func:`bid_odds` found: per trump suit a :class:`TrumpOdds` in ``by_trump``
    (keyed by :class:`~pitchsim.game.cards.Suit`; ``"H"`` or ``2`` work as keys too), the
    value of passing in ``passing``, and :attr:`recommendation`."""

    hand: list[int]
    players: int
    samples: int
    seed: int
    policy: str
    rules: Rules
    by_trump: dict[Suit, TrumpOdds]
    chosen_trump: Suit
    chosen_trump_share: dict[Suit, float] = field(default_factory=dict)
    passing: DefenceOdds | None = None
    trump_fixed: bool = False  # only the suit asked for (``trump=``) was played
    compare: CompareOdds | None = None  # the same deals under ``compare_policy``

    def __repr__(self) -> str:
        return (
            f"BidOdds(hand={self.hand_text!r}, players={self.players}, "
            f"samples={self.samples:,}, seed={self.seed}, policy={self.policy!r}, "
            f"trumps={''.join(s.letter for s in self.by_trump)!r}, "
            f"recommendation={str(self.recommendation)!r})"
        )

    @property
    def hand_text(self) -> str:
        """The hand as typed cards, ``"AH KH 2H 9C 7D 3S"``."""
        return format_cards(self.hand, symbols=False)

    @property
    def deals_played(self) -> int:
        """Every deal simulated: per trump suit, for the trump choice, as a defender."""
        choice = 0 if self.trump_fixed else min(self.samples, TRUMP_CHOICE_SAMPLES)
        defence = self.passing.samples if self.passing else 0
        compare = self.compare.deals_played if self.compare else 0
        return self.samples * len(self.by_trump) + choice + defence + compare

    @property
    def recommendation(self) -> Recommendation:
        """The highest bid with a positive expected score over the trump suits (ties:
        the larger expected score), e.g. ``Recommendation(bid=3, trump=Suit.HEARTS,
        expected_score=0.75)``; bid 0 = pass.  Bidding more than needed never scores
        more: this is how far the hand is worth going in the auction."""
        best = Recommendation(0, None, 0.0)
        for suit, odds in self.by_trump.items():
            bid, e = odds.best_bid()
            if (bid, e) > (best.bid, best.expected_score):
                best = Recommendation(bid, suit, e)
        return best

    def to_frame(self):
        """One row per trump suit and bid (a tidy pandas DataFrame): ``trump`` (letter),
        ``bid``, ``p_make`` with its 95% bounds ``p_make_lo`` / ``p_make_hi``,
        ``expected_score``, ``expected_score_se``, ``expected_margin``,
        ``expected_margin_se``; with ``compare_policy`` also ``compare_samples``,
        ``p_make_paired`` (this policy on the compared deals), ``p_make_compare``,
        ``compare_diff`` and its 95% bounds ``compare_diff_lo`` / ``compare_diff_hi``."""
        import pandas as pd

        rows = []
        for s, o in self.by_trump.items():
            for k in BIDS:
                lo, hi = o.ci95(k)
                row = {
                    "trump": s.letter,
                    "bid": k,
                    "p_make": o.p_at_least(k),
                    "p_make_lo": lo,
                    "p_make_hi": hi,
                    "expected_score": o.expected_score(k),
                    "expected_score_se": o.expected_score_se(k),
                    "expected_margin": o.expected_margin(k) if o.joint is not None else np.nan,
                    "expected_margin_se": o.expected_margin_se(k)
                    if o.joint is not None
                    else np.nan,
                }
                if self.compare is not None:
                    m = self.compare.by_trump[s][k]
                    d_lo, d_hi = m.difference_ci95()
                    row.update(
                        compare_samples=m.samples,
                        p_make_paired=m.base,
                        p_make_compare=m.compare,
                        compare_diff=m.difference,
                        compare_diff_lo=d_lo,
                        compare_diff_hi=d_hi,
                    )
                rows.append(row)
        return pd.DataFrame(rows)

    def to_json(self) -> dict:
        bid, trump, e = self.recommendation
        return {
            "hand": [format_card(c, symbols=False) for c in self.hand],
            "players": self.players,
            "samples": self.samples,
            "deals_played": self.deals_played,
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
                    "expected_margin": None
                    if o.joint is None
                    else {str(k): o.expected_margin(k) for k in BIDS},
                    "expected_margin_se": None
                    if o.joint is None
                    else {str(k): o.expected_margin_se(k) for k in BIDS},
                    "points_distribution": {str(p): int(c) for p, c in enumerate(o.points)},
                }
                for s, o in self.by_trump.items()
            },
            "passing": None
            if self.passing is None
            else {
                "samples": self.passing.samples,
                "expected_points": self.passing.expected_points,
                "expected_points_se": self.passing.expected_points_se,
                "points_distribution": {str(p): int(c) for p, c in enumerate(self.passing.points)},
            },
            "chosen_trump": SUITS[self.chosen_trump],
            "chosen_trump_share": {SUITS[s]: p for s, p in self.chosen_trump_share.items()},
            "recommended_bid": bid,
            "recommended_trump": SUITS[trump] if trump is not None else None,
            "recommended_expected_score": e,
            "compare": None if self.compare is None else _compare_json(self.compare),
        }


def _compare_json(c: CompareOdds) -> dict:
    def level(m: PairedMake) -> dict:
        ci = None if too_few(m.samples) else list(m.difference_ci95())  # a handful: no interval
        return {
            "base": m.base,
            "compare": m.compare,
            "difference": m.difference,
            "difference_ci95": ci,
        }

    return {
        "policy": c.policy,
        "samples": c.samples,
        "seats": c.seats,
        "aim": c.AIM if c.searches else "none: heuristic and random play ignore the bid",
        "by_trump": {
            SUITS[s]: {str(k): level(m) for k, m in by.items()} for s, by in c.by_trump.items()
        },
    }


def _seats_text(spec: str) -> str:
    names = [play_policy(name).name for name in spec.split(",")]
    if len(set(names)) == 1:
        return "every seat"
    return "seat by seat from the pitcher, seat 0: " + ", ".join(names)


def bid_odds(
    hand: str | list[int],
    players: int = 4,
    samples: int | None = None,
    seed: int | None = None,
    policy: str = "heuristic",
    trump: str | int | None = None,
    partnership: bool = False,
    threads: int | None = None,
    rules: Rules | str | dict | None = None,
    progress=None,
    compare_policy: str | None = None,
    compare_samples: int | None = None,
) -> BidOdds:
    """How often ``hand`` makes each bid 1-4 as pitcher, per trump suit it holds.

    Parameters
    ----------
    hand : str or list of int
        Six cards, typed as on the command line (``"AH KH 2H 9C 7D 3S"``, ``"AhKh2h..."``,
        ``10h`` or ``Th``, suit symbols) or as card numbers (``suit * 13 + rank``).
    players : int
        Players at the table, 2-7.  The hand sits in seat 0, pitches and leads.
    samples : int, optional
        Deals played per trump suit (default 40,000: about +/-0.5% on any probability).
        As many again are played with the hand as a defender (the value of passing).
    seed : int, optional
        Deal ``i`` uses the random stream (seed, i): the same seed gives the same
        numbers on any thread count.  Default: a fresh seed, stored in the result.
    policy : str
        Play policy of every seat, ``"heuristic"`` or ``"random"`` (or one per seat,
        comma-separated).
    trump : str or int, optional
        Only this trump suit (``"H"``, ``"hearts"``, ``"♥"`` or 2); it must be in the
        hand.  Default: every suit the hand holds.
    partnership : bool
        Four players in two teams (seats 0+2 vs 1+3); points are the team's.
    threads : int, optional
        Threads to run on (default: all cores); the numbers do not depend on it.
    rules : Rules, str or dict, optional
        Rule variants as :class:`~pitchsim.game.rules.Rules`, as ``--rules`` takes them
        (``"low=dealt,follow=suit"`` or a TOML file's path) or as a dict
        (``{"low": "dealt"}``).  Default: the base rules.
    progress : callable, optional
        ``progress(deals_done, total_deals)``, called as chunks of deals finish.
    compare_policy : str, optional
        Another play model (``"rollout"``, ``"pimc:8"``, any policy or one per seat):
        the first ``compare_samples`` deals of each trump suit are played again under
        it, once per bid level k with the search policies aiming at k (the pitcher's
        side to make it, the defenders to set it), and ``compare`` holds both chances
        of making k on those same deals, the difference and its 95% interval.
    compare_samples : int, optional
        Deals in the compare run, at most ``samples`` (default 2,000, or ``samples``
        when smaller).

    Returns
    -------
    BidOdds
        ``by_trump[suit]`` holds P(make k), intervals, expected scores and margins;
        ``passing`` the hand's points as a defender; ``recommendation`` how high the
        hand is worth bidding; ``to_frame()`` and ``to_json()`` give it all as data.

    Examples
    --------
    >>> r = bid_odds("AH KH QH JH TH 9H", samples=1000, seed=1, rules="follow=suit")
    >>> r.by_trump["H"].p_at_least(4)
    1.0
    >>> r.recommendation
    Recommendation(bid=4, trump=Suit.HEARTS, expected_score=4.0)
    """
    cards = parse_hand(hand) if isinstance(hand, str) else list(hand)
    if len(cards) != 6 or len(set(cards)) != 6:
        raise InputError("a hand has exactly 6 different cards")
    rules = Rules.parse(rules)  # a Rules, a --rules string, a TOML path or a dict
    if partnership:
        rules = Rules(**{**rules.__dict__, "partnership": True})
    rules.check_players(players)
    samples = DEFAULT_SAMPLES if samples is None else samples
    check_count("samples", samples, MAX_SAMPLES)  # the library has the CLI's limits
    seed = pick_seed(seed)
    policies = seat_policies(policy, players)  # one for all seats or one per seat
    if compare_policy is None:
        if compare_samples is not None:
            raise InputError("compare samples need a compare policy (--compare-policy)")
    else:
        compare_policies = seat_policies(compare_policy, players)
        if compare_samples is None:
            compare_samples = min(DEFAULT_COMPARE_SAMPLES, samples)
        check_count("compare samples", compare_samples, MAX_SAMPLES)
        if compare_samples > samples:
            raise InputError(
                f"compare samples ({compare_samples:,}) must be at most samples "
                f"({samples:,}): the compare run plays the first deals again"
            )
    suits_held = sorted({suit_of(c) for c in cards})
    if trump is not None:
        t = parse_suit(trump) if isinstance(trump, str) else trump
        if isinstance(t, bool) or not isinstance(t, int | np.integer) or not 0 <= t < 4:
            raise InputError(f"trump must be a suit (C, D, H, S or 0-3), not {quoted(trump)}")
        t = int(t)
        if t not in suits_held:
            raise InputError(f"--trump {SUITS[t]}: the hand holds no card of that suit")
        suits = [t]
    else:
        suits = suits_held

    hand_mask = mask_of(cards)
    template = deck_without(hand_mask)
    rule_array = rules.to_array()
    opponents = 1 if rules.partnership else players - 1

    def run(seat: int, fixed_trump: int, count: int, bid: int = 0, pols: np.ndarray = policies):
        mine = np.empty(count, dtype=np.int8)
        awarded = np.empty(count, dtype=np.int8)
        trumps = np.empty(count, dtype=np.int8)
        for start, stop in chunked(count, SEARCH_CHUNK if searches(pols) else CHUNK):
            play_fixed_hand(
                seed,
                start,
                stop - start,
                players,
                seat,
                hand_mask,
                template,
                fixed_trump,
                bid,
                pols,
                rule_array,
                mine[start:stop],
                awarded[start:stop],
                trumps[start:stop],
            )
            if progress:
                progress(stop - start, total)
        ours = np.bitwise_count(mine.view(np.uint8)).astype(np.int64)
        theirs = np.bitwise_count(awarded.view(np.uint8)).astype(np.int64) - ours
        return ours, theirs, trumps

    choice = 0 if trump is not None else min(samples, TRUMP_CHOICE_SAMPLES)
    total = samples * len(suits) + choice + samples
    if compare_policy is not None:
        total += compare_samples * len(BIDS) * len(suits)
    by_trump = SuitDict()
    paired = SuitDict()
    with use_threads(threads):
        for s in suits:
            ours, theirs, _ = run(0, s, samples)
            joint = np.bincount(ours * 5 + theirs, minlength=25).reshape(5, 5)
            by_trump[Suit(s)] = TrumpOdds(s, samples, joint.sum(axis=1), joint, opponents)
            if compare_policy is not None:  # the first deals again, one run per level
                base = ours[:compare_samples]
                paired[Suit(s)] = {
                    k: _paired(k, base, run(0, s, compare_samples, k, compare_policies)[0])
                    for k in BIDS
                }
        if choice:  # which suit the policy picks when trump is left to it (its opening lead)
            _, _, picked = run(0, -1, choice)
            share = np.bincount(picked, minlength=4) / picked.size
        else:
            share = np.bincount([suits[0]], minlength=4).astype(float)
        ours, _, _ = run(AS_DEFENDER, -1, samples)
        passing = DefenceOdds(samples, np.bincount(ours, minlength=5))
    chosen = SuitDict({Suit(s): float(share[s]) for s in range(4) if share[s] > 0})
    return BidOdds(
        hand=cards,
        players=players,
        samples=samples,
        seed=seed,
        policy=policy,
        rules=rules,
        by_trump=by_trump,
        chosen_trump=Suit(int(np.argmax(share))),
        chosen_trump_share=chosen,
        passing=passing,
        trump_fixed=trump is not None,
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


def play_policy_names(spec: str) -> str:
    """A policy spec as the policies name themselves (``"ROLLOUT:32"`` -> ``"rollout"``)."""
    return ",".join(play_policy(name).name for name in spec.split(","))


def _paired(bid: int, base: np.ndarray, compare: np.ndarray) -> PairedMake:
    """P(make ``bid``) from two plays of the same deals (points won, deal by deal)."""
    a, b = base >= bid, compare >= bid
    return PairedMake(
        bid, base.size, int(a.sum()), int(b.sum()), int((a & ~b).sum()), int((b & ~a).sum())
    )
