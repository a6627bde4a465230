"""The world resampler: exactly uniform over the deals consistent with a player's view.

Small constraints are enumerated exhaustively (plain Python, obviously right) and the
sampler's worlds checked against the uniform distribution over them by chi-square;
worlds drawn inside real play are checked for consistency with the true history.
"""

import itertools
import math
import random

import numpy as np
import pytest

from pitchsim.game.cards import suit_cards
from pitchsim.game.reference import deal_hands, play_hand
from pitchsim.game.rules import Rules
from pitchsim.games.policies import seat_planes
from pitchsim.kernels.rng import deal_key
from pitchsim.kernels.search.worlds import (
    draw_world,
    evidence_draw,
    sample_worlds,
    view_constraint,
)


def chi2_limit(df, z=3.09):
    """The 99.9% point of chi-square with ``df`` degrees (Wilson-Hilferty)."""
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


def all_worlds(n, me, unseen, counts, allowed):
    """Every consistent world, as a tuple of the other seats' masks (seat order)."""
    seats = [s for s in range(n) if s != me]
    out = []

    def deal(k, free, hands):
        if k == len(seats):
            out.append(tuple(hands))
            return
        s = seats[k]
        pool = [c for c in range(52) if (free & allowed[s]) >> c & 1]
        for cards in itertools.combinations(pool, counts[s]):
            m = sum(1 << c for c in cards)
            deal(k + 1, free & ~m, [*hands, m])

    deal(0, unseen, [])
    return out


def mask(*cards):
    return sum(1 << c for c in cards)


CLUBS, DIAMONDS, HEARTS, SPADES = (suit_cards(s) for s in range(4))
# (n, me, unseen, counts, void suits per seat): seats compete for the cards they may hold
CASES = [
    # no voids: a plain uniform deal of 7 cards into 2 + 2 + 1 (+ 2 out of play)
    (4, 0, mask(0, 1, 2, 13, 14, 26, 27), [0, 2, 2, 1], [0, 0, 0, 0]),
    # seat 1 void in hearts, seat 2 in clubs: both want the diamonds
    (4, 0, mask(0, 1, 2, 13, 14, 26, 27), [0, 2, 2, 1], [0, HEARTS, CLUBS, 0]),
    # three seats each void in two suits, nothing out of play spare for them
    (
        4,
        1,
        mask(0, 1, 13, 14, 26, 27, 39),
        [2, 0, 2, 2],
        [HEARTS | SPADES, 0, CLUBS | SPADES, DIAMONDS],
    ),
    # a seven-seat table in the last trick, three seats still to play, two void in clubs
    (
        7,
        3,
        mask(0, 1, 13, 26, 27, 39),
        [1, 1, 0, 0, 1, 0, 0],
        [CLUBS, CLUBS, 0, 0, HEARTS, 0, 0],
    ),
]


@pytest.mark.parametrize("case", range(len(CASES)))
def test_worlds_are_uniform_over_every_consistent_deal(case):
    n, me, unseen, counts, voids = CASES[case]
    allowed = [unseen & ~v for v in voids]
    worlds = all_worlds(n, me, unseen, counts, allowed)
    assert len(worlds) >= 6
    draws = 200 * len(worlds)
    out = np.zeros((draws, n), dtype=np.int64)
    hand = mask(51)
    kept, attempts = sample_worlds(
        np.uint64(deal_key(5, case)),
        n,
        me,
        hand,
        unseen,
        np.array(counts),
        np.array(allowed),
        out,
        100 * draws,
    )
    assert kept == draws and attempts >= draws
    seen = {}
    for row in out:
        assert row[me] == hand
        key = tuple(int(row[s]) for s in range(n) if s != me)
        seen[key] = seen.get(key, 0) + 1
    assert set(seen) <= set(worlds)  # every world drawn is consistent
    expected = draws / len(worlds)
    chi2 = sum((seen.get(w, 0) - expected) ** 2 / expected for w in worlds)
    assert chi2 < chi2_limit(len(worlds) - 1), (chi2, len(worlds))


def test_no_world_when_the_constraint_admits_none():
    # Two seats each need two clubs; only three are unseen.
    unseen = mask(0, 1, 2, 13, 14)
    allowed = np.array([0, CLUBS, CLUBS, 0]) & unseen
    out = np.zeros((4, 4), dtype=np.int64)
    kept, attempts = sample_worlds(
        np.uint64(1), 4, 0, 0, unseen, np.array([0, 2, 2, 1]), allowed, out, 500
    )
    assert (kept, attempts) == (0, 500)


def test_evidence_draw_is_uniform_and_apart_from_the_world_draws():
    key = np.uint64(deal_key(3, 4))
    u = np.array([evidence_draw(key, a) for a in range(20000)])
    assert 0 <= u.min() and u.max() < 1
    assert abs(u.mean() - 0.5) < 4 * math.sqrt(1 / 12 / u.size)
    # An accept hook must not change the worlds its attempts draw.
    unseen = mask(0, 1, 2, 13, 14, 26, 27)
    w1 = np.zeros(4, dtype=np.int64)
    w2 = np.zeros(4, dtype=np.int64)
    args = (4, 0, 0, unseen, np.array([0, 2, 2, 1]), np.array([0, unseen, unseen, unseen]))
    for a in range(50):
        draw_world(key, a, *args, w1)
        evidence_draw(key, a)
        draw_world(key, a, *args, w2)
        assert (w1 == w2).all()


@pytest.mark.parametrize("rules", [Rules(), Rules(follow="suit"), Rules(partnership=True)])
def test_worlds_in_play_respect_what_the_view_shows(rules):
    """Mid-hand views of real deals: every sampled world gives each seat its number of
    cards, none it has shown void in, none seen, and a hand as dealt that adds up."""
    rng = random.Random(9)
    checked = 0
    for deal in range(150):
        n = 4 if rules.partnership else rng.randrange(3, 8)
        dealt = deal_hands(rng, n)
        views = []

        def choose(view, views=views):
            views.append(view)
            return rng.choice([c for c in range(52) if view.legal >> c & 1])

        play_hand(dealt, 0, choose, rules)
        for view in rng.sample(views, 4):
            counts, allowed, played_by = (np.zeros(n, dtype=np.int64) for _ in range(3))
            trick = np.zeros(8, dtype=np.int64)
            trick[: len(view.trick)] = view.trick
            unseen = view_constraint(
                n,
                view.seat,
                view.hand,
                view.trick_no,
                len(view.trick),
                view.leader,
                view.played,
                trick,
                seat_planes(view.played_by),
                view.voids,
                counts,
                allowed,
                played_by,
            )
            assert list(played_by) == list(view.played_by)
            truth = [dealt[s] & ~view.played_by[s] for s in range(n)]
            assert all(truth[s].bit_count() == counts[s] for s in range(n) if s != view.seat)
            assert all(truth[s] & ~allowed[s] == 0 for s in range(n) if s != view.seat)
            out = np.zeros((8, n), dtype=np.int64)
            kept, _ = sample_worlds(
                np.uint64(deal), n, view.seat, view.hand, unseen, counts, allowed, out, 10_000
            )
            assert kept == 8
            for w in out:
                given = 0
                for s in range(n):
                    if s == view.seat:
                        assert w[s] == view.hand
                        continue
                    assert int(w[s]).bit_count() == counts[s]
                    assert w[s] & ~unseen == 0 and w[s] & given == 0
                    for suit in range(4):
                        if view.void(s, suit):
                            assert w[s] & suit_cards(suit) == 0
                    given |= int(w[s])
                checked += 1
    assert checked == 150 * 4 * 8
