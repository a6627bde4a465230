"""Bid odds under every preset: how often a hand makes each level k = 1 .. the maximum bid,
per trump suit it could make trump, from simulated deals (``pitchsim bid-odds``).

The pitcher (seat 0) holds the hand and leads; the other hands are dealt at random from
the rest of the pack and everything is played out by the chosen play policy.  The same
hand is also played as a defender (another seat pitches), which is what passing is
worth.  Under a preset the hand is the seat's whole deal: 6 cards, or 9 (10 with 5
players in ten-point) under deal=9, where the answer is P(make k | those cards dealt):
the policy names trump, then the discard and draw of VARIANTS.md 4.8 happen as the rules
say.  Every level k from 1 to the maximum is estimated; ``levels`` only chooses which
the tables show.  Under shoot=true the shoot call is made exactly when the side wins
every point the rules can award, P(make the maximum), and it wins the game at once
(VARIANTS.md 6.1).

``compare_policy`` plays the first deals again under another play model (a search
policy at every seat, say) and reports, per trump suit and level, both chances, their
paired difference and its 95% interval: how far the odds move with stronger play.

Every preset, the base game (auction-pitch) included, is played by the one engine's
kernel (``kernels.fixed_hand``), whose search policies are told the bid: the
compare run is one run per level.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

from ..game.cards import SUITS, Suit, format_card, format_cards, mask_of, parse_cards, parse_suit
from ..game.rules import Rules, label
from ..game.trumps import jick_card
from ..kernels.fixed_hand import AS_DEFENDER, PITCHER, fixed_kernel
from ..kernels.presets import rules_array, rules_table
from ..table.boards import kernel_play_array
from ..table.policies import play_policy, searches, seat_policies
from ..util.errors import InputError, quoted
from ..util.limits import MAX_SAMPLES, check_count
from ..util.runtime import CHUNK, chunked, pick_seed, use_threads
from ..util.stats import paired_difference, samples_for_half_width, too_few, wilson

DEFAULT_SAMPLES = 40_000  # about +/-0.5% at 95% for any probability
assert samples_for_half_width(0.005) <= DEFAULT_SAMPLES
TRUMP_CHOICE_SAMPLES = 4_000
# The compare run (``compare_policy``): a search policy costs milliseconds a deal, so it
# plays fewer deals.  2,000 paired deals put a 95% interval of about +/-1-2 points on
# the difference.
DEFAULT_COMPARE_SAMPLES = 2_000
SEARCH_CHUNK = 256  # deals per kernel call under search play: progress stays live


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


def trump_suits(cards: list[int], rules: Rules) -> list[int]:
    """The suits the hand could make trump: under trump=first-lead (the base game's) the
    printed suits it holds (its first card fixes trump); under trump=named every suit in
    which it holds a trump other than a joker (the suit's own cards or its jick)."""
    plain = [c for c in cards if c < 52]
    suits = {c // 13 for c in plain}
    if rules.trump == "named" and rules.jick:
        suits |= {t for t in range(4) if jick_card(t) in plain}
    return sorted(suits)


@dataclass(repr=False)
class TrumpOdds:
    """Outcomes with one trump suit: deals by points won by the pitcher's side, 0 .. the
    maximum bid (``points.size - 1``: 4 in the base game).

    ``joint[p, q]`` (when known) counts deals in which the pitcher's side won p points
    and the other players together q; ``opponents`` is what an opponent's share is
    taken over for margins (the n - 1 other players, or 1 team in a partnership).
    """

    suit: Suit
    samples: int
    points: np.ndarray  # counts of deals by points won, index 0 .. max_bid
    joint: np.ndarray | None = None
    opponents: int = 1

    def __post_init__(self) -> None:
        self.suit = Suit(self.suit)

    def __repr__(self) -> str:
        ps = ", ".join(f"{k}: {self.p_at_least(k):.3f}" for k in range(1, self.max_bid + 1))
        return f"TrumpOdds(trump={self.suit!r}, samples={self.samples:,}, p_at_least={{{ps}}})"

    @property
    def max_bid(self) -> int:
        return self.points.size - 1

    def at_least(self, k: int) -> int:
        return int(self.points[k:].sum())

    def p_at_least(self, k: int) -> float:
        """P(the pitcher's side wins at least ``k`` points): the chance to make bid k."""
        return self.at_least(k) / self.samples

    def ci95(self, k: int) -> tuple[float, float]:
        """Wilson 95% interval of :meth:`p_at_least`."""
        lo, hi = wilson(self.at_least(k), self.samples)
        return float(lo), float(hi)

    def se(self, k: int) -> float:
        """Standard error of :meth:`p_at_least`."""
        p = self.p_at_least(k)
        return float(np.sqrt(p * (1 - p) / self.samples))

    def _score(self, bid: int) -> np.ndarray:
        points = np.arange(self.points.size)
        return np.where(points >= bid, points, -bid)

    def expected_score(self, bid: int) -> float:
        """Mean score of bidding ``bid``: points won when made, -bid when set."""
        return _mean_se(self._score(bid), self.points)[0]

    def expected_score_se(self, bid: int) -> float:
        return _mean_se(self._score(bid), self.points)[1]

    def _margins(self, bid: int) -> tuple[float, float]:
        if self.joint is None:
            raise ValueError("margins need the joint distribution of points (bid_odds fills it)")
        points = np.arange(self.points.size)
        margin = self._score(bid)[:, None] - points[None, :] / self.opponents
        return _mean_se(margin.ravel(), self.joint.ravel())

    def expected_margin(self, bid: int) -> float:
        """Mean of (the bid's score - the points an opponent wins): in a partnership the
        other team's points, at a solo table the average over the other players."""
        return self._margins(bid)[0]

    def expected_margin_se(self, bid: int) -> float:
        return self._margins(bid)[1]

    def best_bid(self, min_bid: int = 1) -> tuple[int, float]:
        """The highest bid ``min_bid`` .. max with a positive expected score, or (0, 0.0)
        to pass.

        A made bid scores the points won whatever the bid, so expected score only falls
        as the bid rises: the useful answer is how high one can go and still expect to
        gain, which is what a player needs to know in the auction.
        """
        for k in range(self.max_bid, min_bid - 1, -1):
            e = self.expected_score(k)
            if e > 0:
                return k, e
        return 0, 0.0


@dataclass(repr=False)
class DefenceOdds:
    """The hand as a defender: deals by points its side won while another seat pitched
    (a random hand, leading the trump its play policy picks)."""

    samples: int
    points: np.ndarray  # counts of deals by points won, index 0 .. max_bid

    def __repr__(self) -> str:
        return f"DefenceOdds(samples={self.samples:,}, expected_points={self.expected_points:.3f})"

    @property
    def expected_points(self) -> float:
        """What passing is worth: the points this hand's side wins on average."""
        return _mean_se(np.arange(self.points.size), self.points)[0]

    @property
    def expected_points_se(self) -> float:
        return _mean_se(np.arange(self.points.size), self.points)[1]


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
    (``seats``: which seats play it); ``by_trump[suit][k]`` is a :class:`PairedMake`.

    Each level is a run of its own, in which the search pitcher's side aims at that
    level and the defenders at setting it."""

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
    def aim(self) -> str:
        if not self.searches:
            return "none: heuristic and random play ignore the bid"
        return self.AIM

    @property
    def deals_played(self) -> int:
        runs = len(next(iter(self.by_trump.values()), ()))
        return self.samples * runs * len(self.by_trump)


@dataclass(repr=False)
class BidOdds:
    """What :func:`bid_odds` found: per trump suit a :class:`TrumpOdds` in ``by_trump``
    (keyed by :class:`~pitchsim.game.cards.Suit`; ``"H"`` or ``2`` work as keys too), the
    value of passing in ``passing``, and :attr:`recommendation`; ``levels`` the levels
    the tables show (default every one, 1 .. the maximum bid)."""

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
    levels: list[int] | None = None

    def __post_init__(self) -> None:
        if self.levels is None:
            self.levels = list(range(1, self.max_bid + 1))

    def __repr__(self) -> str:
        return (
            f"BidOdds(hand={self.hand_text!r}, players={self.players}, "
            f"samples={self.samples:,}, seed={self.seed}, policy={self.policy!r}, "
            f"trumps={''.join(s.letter for s in self.by_trump)!r}, "
            f"recommendation={str(self.recommendation)!r})"
        )

    @property
    def preset(self) -> bool:
        """The rules are not the base game's (``Rules.base_game``): named in the output,
        with the levels down the page; the base game keeps the output it always had (the
        levels across, BIDS as bids)."""
        return not self.rules.base_game

    @property
    def hand_text(self) -> str:
        """The hand as typed cards, ``"AH KH 2H 9C 7D 3S"``."""
        return format_cards(self.hand, symbols=False)

    @property
    def max_bid(self) -> int:
        return self.rules.max_bid

    @property
    def lowest_bid(self) -> int:
        """The lowest bid the tables and the recommendation take: the rules' minimum
        bid (min-bid=2: a bid of 1 is no choice, 1.2)."""
        return self.rules.min_bid

    @property
    def deals_played(self) -> int:
        """Every deal simulated: per trump suit, for the trump choice, as a defender,
        and in the compare run."""
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
            bid, e = odds.best_bid(self.lowest_bid)
            if (bid, e) > (best.bid, best.expected_score):
                best = Recommendation(bid, suit, e)
        return best

    def to_frame(self):
        """One row per trump suit and level (a tidy pandas DataFrame): ``trump``
        (letter), ``bid``, ``p_make`` with its 95% bounds ``p_make_lo`` / ``p_make_hi``,
        ``expected_score``, ``expected_score_se``, ``expected_margin``,
        ``expected_margin_se``; with ``compare_policy`` also ``compare_samples``,
        ``p_make_paired`` (this policy on the compared deals), ``p_make_compare``,
        ``compare_diff`` and its 95% bounds ``compare_diff_lo`` / ``compare_diff_hi``."""
        import pandas as pd

        rows = []
        for s, o in self.by_trump.items():
            for k in range(1, self.max_bid + 1):
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
        every = range(1, self.max_bid + 1)
        rules = self.rules

        def by_level(value) -> dict:
            return {str(k): value(k) for k in every}

        return {  # one shape under every preset, the base game's included
            "rules": label(self.rules),
            "rules_in_full": self.rules.describe(),
            "hand": [format_card(c, symbols=False) for c in self.hand],
            "players": self.players,
            "samples": self.samples,
            "deals_played": self.deals_played,
            "seed": self.seed,
            "policy": self.policy,
            "partnership": self.rules.partnership,
            # 12.1.6: under a called partner the points (p_at_least, the scores) are the
            # pitcher's side's: this hand's and the called card's holder's (null: the
            # pitcher's own, his team's in a partnership)
            "points_of": "the pitcher's side" if rules.partner != "none" else None,
            "max_bid": self.max_bid,
            "min_bid": self.rules.min_bid,
            "levels": self.levels,
            "by_trump": {
                SUITS[s]: {
                    "p_at_least": by_level(o.p_at_least),
                    "se": by_level(o.se),
                    "ci95": by_level(lambda k: list(o.ci95(k))),  # noqa: B023 (used at once)
                    "expected_score": by_level(o.expected_score),
                    "expected_score_se": by_level(o.expected_score_se),
                    "expected_margin": None if o.joint is None else by_level(o.expected_margin),
                    "expected_margin_se": None
                    if o.joint is None
                    else by_level(o.expected_margin_se),
                    "points_distribution": {str(p): int(c) for p, c in enumerate(o.points)},
                    "shoot": {
                        "p_made": o.p_at_least(self.max_bid),
                        "ci95": list(o.ci95(self.max_bid)),
                    }
                    if rules.shoot
                    else None,
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
            "chosen_trump": None if self.chosen_trump is None else SUITS[self.chosen_trump],
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
        "aim": c.aim,
        "by_trump": {
            SUITS[s]: {str(k): level(m) for k, m in by.items()} for s, by in c.by_trump.items()
        },
    }


def _seats_text(spec: str) -> str:
    names = [play_policy(name).name for name in spec.split(",")]
    if len(set(names)) == 1:
        return "every seat"
    return "seat by seat from the pitcher, seat 0: " + ", ".join(names)


def _seat_policies(spec: str, players: int) -> np.ndarray:
    """Play-policy ids per seat from one policy for every seat or one per seat, as the
    kernel takes them (``kernel_play_array``: no solver compiled in for rollout alone)."""
    return kernel_play_array([int(i) for i in seat_policies(spec, players)])


def _play(seed: int, players: int, cards: list[int], rules: Rules):
    """What plays the deals: ``play(seat, trump, bid, policies, first, count)`` gives per
    deal the points of the hand's side, of the others and the trump (the hand in
    ``seat``: ``PITCHER`` or ``AS_DEFENDER``; ``bid``: what the search policies aim at).
    Under a called partner (12.1) the pitcher calls pitchsim's card and the hand's
    points are its side's: the pitcher's and the call's holder's (12.1.6)."""
    fr, tab = rules_array(rules), rules_table(rules)
    hand_mask = np.int64(mask_of(cards))

    def play(seat, trump, bid, policies, first, count):
        ours, every, trumps = (np.empty(count, np.int64) for _ in range(3))
        fixed_kernel(fr, policies)(  # (the base game's shape compiled in, when it pays)
            seed, first, count, players, seat, hand_mask, trump, bid, policies, fr, tab,
            ours, every, trumps,
        )  # fmt: skip
        return ours, every - ours, trumps

    return play


def _check_hand(cards: list[int], rules: Rules, players: int, preset: bool) -> None:
    """The seat's whole deal: as many different cards as the rules deal it, each in the
    pack they deal from (``preset``: the rules are named in the message)."""
    r = rules
    each = r.cards_each(players)
    if len(cards) != len(set(cards)):
        raise InputError("a hand has no card twice")
    if len(cards) != each:
        raise InputError(
            f"{label(r)} with {players} players deals {each} cards: the hand has {len(cards)}"
            if preset
            else f"a hand has exactly {each} cards, got {len(cards)}"  # the base game's words
        )
    if r.no_fours(players):
        fours = [c for c in cards if c < 52 and c % 13 == 2]
        if fours:
            raise InputError(
                f"{format_card(fours[0], symbols=False)} is not in this deck (with 5 players "
                f"{label(r)} deals from the pack without the four 4s)"
            )
    out = [c for c in cards if c not in r.pack(players)]
    if out:
        raise InputError(
            f"{format_card(out[0], symbols=False)} is not in this deck ({label(r)} deals "
            f"from the {r.pack_size(players)}-card pack of deck={r.deck}, VARIANTS.md 12.3)"
        )


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
    levels: str | list[int] | None = None,
) -> BidOdds:
    """How often ``hand`` makes each level 1 .. the maximum bid as pitcher, per trump
    suit it could make trump, under the base game or any preset.

    Parameters
    ----------
    hand : str or list of int
        The seat's whole deal, typed as on the command line (``"AH KH 2H 9C 7D 3S"``,
        ``"AhKh2h..."``, ``10h`` or ``Th``, suit symbols; ``HJ``/``LJ`` the jokers where
        the deck has them) or as card numbers (``suit * 13 + rank``): 6 cards, or 9 (10
        with 5 players in ten-point) under deal=9.
    players : int
        Players at the table, 2-7 (the preset's range).  The hand sits in seat 0,
        pitches and leads.
    samples : int, optional
        Deals played per trump suit (default 40,000: about +/-0.5% on any probability).
        As many again are played with the hand as a defender (the value of passing).
    seed : int, optional
        Deal ``i`` uses the random stream (seed, i): the same seed gives the same
        numbers on any thread count.  Default: a fresh seed, stored in the result.
    policy : str
        Play policy of every seat, ``"heuristic"`` or ``"random"`` (or one per seat,
        comma-separated), or a search policy (``"rollout"``, ``"pimc:8"``: aiming at no
        bid, the most points; thousands of times slower).
    trump : str or int, optional
        Only this trump suit (``"H"``, ``"hearts"``, ``"♥"`` or 2); the hand must hold a
        trump in it.  Default: every suit the hand could make trump.
    partnership : bool
        Four players in two teams (seats 0+2 vs 1+3); points are the team's.
    threads : int, optional
        Threads to run on (default: all cores); the numbers do not depend on it.
    rules : Rules, str or dict, optional
        The base game's rule variants or a preset, as :class:`~pitchsim.game.rules.Rules`,
        as ``--rules`` takes them (``"low=dealt,follow=suit"``, ``"smear"`` or a TOML
        file's path) or as a dict (``{"low": "dealt"}``).  Default: the base rules.
    progress : callable, optional
        ``progress(deals_done, total_deals)``, called as chunks of deals finish.
    compare_policy : str, optional
        Another play model (``"rollout"``, ``"pimc:8"``, any policy or one per seat):
        the first ``compare_samples`` deals of each trump suit are played again under
        it, and ``compare`` holds both chances of making each level on those same
        deals, the difference and its 95% interval.  Each level k is a run of its own
        with the search policies aiming at k (the pitcher's side to make it, the
        defenders to set it).
    compare_samples : int, optional
        Deals in the compare run, at most ``samples`` (default 2,000, or ``samples``
        when smaller).
    levels : str or list of int, optional
        The levels the tables show, ``"2,5"`` (default every one; all are estimated).

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
    rules = Rules.parse(rules)  # a Rules, a --rules string, a TOML path or a dict
    if partnership and not rules.partnership:
        rules = dataclasses.replace(rules, partnership=True)
    family = rules
    jokers = family.jokers
    cards = parse_cards(hand, jokers=jokers) if isinstance(hand, str) else list(hand)
    preset = not rules.base_game  # the family kernels play it
    _check_hand(cards, rules, players, preset)
    family.check_players(players)
    samples = DEFAULT_SAMPLES if samples is None else samples
    check_count("samples", samples, MAX_SAMPLES)  # the library has the CLI's limits
    seed = pick_seed(seed)
    play = _play(seed, players, cards, family)
    policies = _seat_policies(policy, players)
    if compare_policy is None:
        if compare_samples is not None:
            raise InputError("compare samples need a compare policy (--compare-policy)")
    else:
        compare_policies = _seat_policies(compare_policy, players)
        if compare_samples is None:
            compare_samples = min(DEFAULT_COMPARE_SAMPLES, samples)
        check_count("compare samples", compare_samples, MAX_SAMPLES)
        if compare_samples > samples:
            raise InputError(
                f"compare samples ({compare_samples:,}) must be at most samples "
                f"({samples:,}): the compare run plays the first deals again"
            )
    held = trump_suits(cards, rules)
    if trump is not None:
        t = parse_suit(trump) if isinstance(trump, str) else trump
        if isinstance(t, bool) or not isinstance(t, int | np.integer) or not 0 <= t < 4:
            raise InputError(f"trump must be a suit (C, D, H, S or 0-3), not {quoted(trump)}")
        t = int(t)
        if t not in held:
            what = (
                "no card of that suit" if family.trump == "first-lead" else "no trump in that suit"
            )
            raise InputError(f"--trump {SUITS[t]}: the hand holds {what}")
        suits = [t]
    else:
        suits = held
    levels = parse_levels(levels, family.max_bid)
    every = range(1, family.max_bid + 1)
    size = family.max_bid + 1
    # An opponent's points: the other team's, or under a called partner the others'
    # pooled points, which each of them scores (12.1.7); else a solo player's share.
    opponents = 1 if rules.partnership or family.partner != "none" else players - 1

    def run(seat: int, fixed_trump: int, count: int, bid: int = 0, pols=policies, keep=0):
        """Deals by (points of the hand's side, points of the others), by trump, and
        the points of the hand's side on the first ``keep`` deals (for a paired
        compare): counted chunk by chunk."""
        joint = np.zeros(size * size, np.int64)
        picked = np.zeros(4, np.int64)
        firsts = []
        for a, b in chunked(count, SEARCH_CHUNK if searches(pols) else CHUNK):
            ours, theirs, trumps = play(seat, fixed_trump, bid, pols, a, b - a)
            joint += np.bincount(ours * size + theirs, minlength=size * size)
            picked += np.bincount(trumps, minlength=4)[:4]
            if a < keep:
                firsts.append(ours[: keep - a])
            if progress:
                progress(b - a, total)
        first = np.concatenate(firsts) if firsts else np.zeros(0, np.int64)
        return joint.reshape(size, size), picked, first

    choice = 0 if trump is not None else min(samples, TRUMP_CHOICE_SAMPLES)
    runs = len(every)  # compare runs per trump suit: one per level
    total = samples * len(suits) + choice + samples
    if compare_policy is not None:
        total += compare_samples * runs * len(suits)
    by_trump = SuitDict()
    paired = SuitDict()
    with use_threads(threads):
        for s in suits:
            keep = 0 if compare_policy is None else compare_samples
            joint, _, first = run(PITCHER, s, samples, keep=keep)
            by_trump[Suit(s)] = TrumpOdds(s, samples, joint.sum(axis=1), joint, opponents)
            if compare_policy is not None:  # the first deals again, once per level
                again = {}
                for k in every:
                    pts = run(PITCHER, s, compare_samples, k, compare_policies, keep)[2]
                    again[k] = _paired(k, first, pts)
                paired[Suit(s)] = again
        if choice:  # which suit the policy picks when trump is left to it
            _, picked, _ = run(PITCHER, -1, choice)
            share = picked / picked.sum()
        else:
            share = np.bincount([suits[0]], minlength=4).astype(float)
        joint, _, _ = run(AS_DEFENDER, -1, samples)
        passing = DefenceOdds(samples, joint.sum(axis=1))
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
        levels=levels,
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
