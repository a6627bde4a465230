"""Building the base game's ``odds`` table (``scripts/make_bid_table.py``): how often
each trump holding makes each bid, the hands played by the preset kernels under
auction-pitch (``families.simulate.family_hand_base``; until issue 28 this was
``pitchsim/kernels/odds_table.py`` on the base game's own hand loop, which dealt and
played the same hands for the same keys: tests/test_one_deal.py).

A *cell* is a trump holding (rank mask) and a side-card class (side aces 0/1/2+ x side
tens 0/1/2+).  Each sample deals the pitcher a uniformly random hand of that cell (trump
suit cycling through all four), deals the others from the rest, and plays the hand out
with the pitcher (seat 0) leading its trump suit.  Sample i of cell c uses the random
stream (seed, c * samples + i), so the table is the same on any thread count.
"""

import numpy as np
from numba import njit, prange

from pitchsim.game.rules import Rules, as_family
from pitchsim.kernels.bidding.odds import hand_outlook, holding
from pitchsim.kernels.families.deal import deal_family_fixed
from pitchsim.kernels.families.score import side_of
from pitchsim.kernels.families.simulate import family_hand_base, hand_scratch, plain_flags
from pitchsim.kernels.families.tables import F_PARTNERSHIP, family_array
from pitchsim.kernels.rng import AUCTION_COUNTER, below, deal_key

PITCHER = 0
BASE_FR = family_array(as_family(Rules()))  # the base game's pack: a hand of six of the 52


@njit(cache=True, nogil=True)  # (not inlined: numba's parfor passes fail on the hand inside prange)
def _play(
    key, n, fixed_hand, fixed_trump, policies, fr, tab, deck, dealt, held, hands, won, trick,
    tseats, award, no_log,
):  # fmt: skip
    """Deal ``key``'s hands (seat 0 pitches holding ``fixed_hand`` when non-zero; seat
    n-1 deals), play them out (``fixed_trump`` >= 0: the pitcher leads that suit) and
    score them into ``award``."""
    family_hand_base(
        key, n, n - 1, PITCHER, fixed_hand, fixed_trump, policies, fr, tab, deck, dealt, held,
        hands, won, trick, tseats, award, no_log, no_log,
    )  # fmt: skip


@njit(cache=True, inline="always")
def _points(award, seat, fr):
    """Points (each worth 1) the side of ``seat`` took."""
    flags = plain_flags(award, side_of(seat, fr), fr[F_PARTNERSHIP] != 0)
    p = 0
    while flags:
        flags &= flags - 1
        p += 1
    return p


# Side cards: the 39 cards of the other suits are 3 aces, 3 tens and 33 others.


@njit(cache=True, inline="always")
def _choose(n, k):
    if k < 0 or k > n:
        return 0
    r = 1
    for i in range(k):
        r = r * (n - i) // (i + 1)
    return r


@njit(cache=True, inline="always")
def _exact_counts(cls):
    """(lo, hi) of side aces and of side tens in class ``cls`` (2 means 2 or 3)."""
    a = cls // 3
    t = cls % 3
    return a, (3 if a == 2 else a), t, (3 if t == 2 else t)


@njit(cache=True, inline="always")
def _side_cards(trumps):
    """Cards of the other suits in a six-card hand holding the trump ranks ``trumps``."""
    length = 0
    m = trumps
    while m:
        m &= m - 1
        length += 1
    return 6 - length


@njit(cache=True, inline="always")
def _mix_weight(side, a, t):
    """Number of ways ``side`` side cards hold exactly a aces and t tens."""
    return _choose(3, a) * _choose(3, t) * _choose(33, side - a - t)


@njit(cache=True)
def cell_weight(trumps, cls):
    """Number of hands in a cell (0: no hand has it)."""
    side = _side_cards(trumps)
    a_lo, a_hi, t_lo, t_hi = _exact_counts(cls)
    w = 0
    for a in range(a_lo, a_hi + 1):
        for t in range(t_lo, t_hi + 1):
            w += _mix_weight(side, a, t)
    return w


@njit(cache=True, inline="always")
def _pick(key, counter, pool, k, hand):
    """Add ``k`` cards drawn without replacement from ``pool`` (which is shuffled)."""
    m = pool.size
    for i in range(k):
        j = i + below(key, counter + i, m - i)
        c = pool[j]
        pool[j] = pool[i]
        pool[i] = c
        hand |= np.int64(1) << c
    return hand


@njit(cache=True)
def random_cell_hand(key, trumps, cls, suit, aces, tens, others):
    """A uniformly random hand of the cell, with ``suit`` as the trump suit.

    ``aces``/``tens``/``others`` list the side cards of that suit choice (scratch: shuffled).
    """
    side = _side_cards(trumps)
    a_lo, a_hi, t_lo, t_hi = _exact_counts(cls)
    total = cell_weight(trumps, cls)
    r = below(key, AUCTION_COUNTER, total)
    na = a_lo
    nt = t_lo
    for a in range(a_lo, a_hi + 1):
        for t in range(t_lo, t_hi + 1):
            w = _mix_weight(side, a, t)
            if 0 <= r < w:
                na = a
                nt = t
            r -= w
    hand = np.int64(trumps) << (suit * 13)
    hand = _pick(key, AUCTION_COUNTER + 1, aces, na, hand)
    hand = _pick(key, AUCTION_COUNTER + 4, tens, nt, hand)
    hand = _pick(key, AUCTION_COUNTER + 7, others, side - na - nt, hand)
    return hand


@njit(cache=True, parallel=True)
def simulate_cells(seed, n, cell_trumps, cell_class, samples, policies, fr, tab, out_points):
    """``out_points[c, j]``: samples of cell c in which the pitcher's side took j points."""
    no_log = np.empty(0, dtype=np.int64)
    for c in prange(cell_trumps.size):
        deck, dealt, held, hands, won, trick, tseats, award, _, _ = hand_scratch(n)
        aces = np.empty(3, dtype=np.int64)
        tens = np.empty(3, dtype=np.int64)
        others = np.empty(33, dtype=np.int64)
        for j in range(5):
            out_points[c, j] = 0
        for s in range(samples):
            key = deal_key(seed, c * samples + s)
            suit = s % 4
            na = nt = no = 0
            for card in range(52):
                if card // 13 == suit:
                    continue
                if card % 13 == 12:
                    aces[na] = card
                    na += 1
                elif card % 13 == 8:
                    tens[nt] = card
                    nt += 1
                else:
                    others[no] = card
                    no += 1
            hand = random_cell_hand(key, cell_trumps[c], cell_class[c], suit, aces, tens, others)
            _play(
                key, n, hand, suit, policies, fr, tab, deck, dealt, held, hands, won, trick,
                tseats, award, no_log,
            )  # fmt: skip
            out_points[c, _points(award, PITCHER, fr)] += 1


@njit(cache=True, parallel=True)
def defender_points(seed, n, count, policies, fr, tab):
    """Mean points a non-pitcher's side takes per hand (random hands, pitcher's own trump)."""
    no_log = np.empty(0, dtype=np.int64)
    blocks = 64
    totals = np.zeros(blocks)
    for b in prange(blocks):
        deck, dealt, held, hands, won, trick, tseats, award, _, _ = hand_scratch(n)
        for d in range(b * count // blocks, (b + 1) * count // blocks):
            _play(
                deal_key(seed, d), n, np.int64(0), -1, policies, fr, tab, deck, dealt, held,
                hands, won, trick, tseats, award, no_log,
            )  # fmt: skip
            for s in range(1, n):
                totals[b] += _points(award, s, fr)
    return totals.sum() / (count * (n - 1))


@njit(cache=True, parallel=True)
def outlook_constants(seed, n, count, odds, defend, out_overcall, out_made):
    """From ``count`` random hands: the share that would bid at least k (an expected
    score above a defender's, as if the bid stood) and the mean make chance of such bids.
    """
    blocks = 64
    would = np.zeros((blocks, 6))
    make = np.zeros((blocks, 5))
    for b in prange(blocks):
        dealt = np.empty(1, dtype=np.int64)
        deck = np.empty(0, dtype=np.int64)  # the hand alone
        value = np.empty(5)
        for d in range(b * count // blocks, (b + 1) * count // blocks):
            key = deal_key(seed, d)
            deal_family_fixed(key, 1, 0, -1, np.int64(0), BASE_FR, deck, dealt)
            hand = dealt[0]
            hand_outlook(hand, odds, value)
            would[b, 0] += 1
            for k in range(1, 5):
                if value[k] > defend:
                    would[b, k] += 1
                    make[b, k] += _make_chance(hand, odds, k)
    totals = would.sum(axis=0)
    for k in range(6):
        out_overcall[k] = totals[k] / count if k < 5 else 0.0
    for k in range(5):
        out_made[k] = make[:, k].sum() / totals[k] if k > 0 and totals[k] > 0 else 1.0


@njit(cache=True)
def _make_chance(hand, odds, k):
    """The best chance over the suits held of taking at least k points."""
    best = 0.0
    for suit in range(4):
        if hand >> (suit * 13) & 0x1FFF == 0:
            continue
        trumps, side = holding(hand, suit)
        best = max(best, np.float64(odds[trumps, side, k - 1]))
    return best
