"""The family world sampler (kernels/search/worlds.py, the one sampler of search play
and hint) against a plain-Python reference: every consistent world enumerated (the other
hands and the pile put down face down), the samples checked world by world and their
distribution against the uniform one (chi-square), on random constraints and on
hand-made ones where seats compete for the cards they may hold (up to 7 seats); the
knowledge of real hands (who played what, voids by effective suit rebuilt in plain
Python from the kernels' logs; what each seat saw of the draw from
``play.seat_knowledge``): the constraint is exactly the one rebuilt, the true deal, the
pitcher's put-down as the pile, always meets it, and so does every world drawn."""

from __future__ import annotations

import itertools
import math
import random

import numpy as np
import pytest
from logged_hands import logged_arrays

from pitchsim.game import reference as F
from pitchsim.game.rules import Rules
from pitchsim.game.trumps import trump_tables
from pitchsim.kernels.play import seat_knowledge, shown_void
from pitchsim.kernels.presets import rules_array, rules_table
from pitchsim.kernels.search.worlds import (
    SWITCH_AFTER,
    draw_must_world,
    sample_worlds,
    world_constraint,
)
from pitchsim.kernels.simulate import play_logged

# ---------------------------------------------------------------- the reference


def bits(m: int) -> list[int]:
    return [c for c in range(64) if m >> c & 1]


def enumerate_worlds(n, me, unseen, counts, allowed, must):
    """Every world (a tuple of the other seats' masks, seat order, then the pile's)
    consistent with the constraint, by brute force."""
    others = [s for s in range(n + 1) if s != me]
    out = []

    def rec(k, free, chosen):
        if k == len(others):
            dealt = 0
            for m in chosen:
                dealt |= m
            if must & ~dealt == 0:
                out.append(tuple(chosen))
            return
        s = others[k]
        for combo in itertools.combinations(bits(allowed[s] & free), counts[s]):
            m = sum(1 << c for c in combo)
            rec(k + 1, free & ~m, [*chosen, m])

    rec(0, unseen, [])
    return out


def chi2_upper(df: int, z: float = 4.75) -> float:
    """An upper quantile of chi-square(df) (Wilson-Hilferty; z = 4.75: about 1e-6)."""
    h = 2.0 / (9 * df)
    return df * (1 - h + z * math.sqrt(h)) ** 3


def random_case(rng: random.Random, must_on: bool):
    n = rng.choice([3, 4])
    me = rng.randrange(n)
    size = rng.randint(5, 8)
    cards = rng.sample(range(54), size)
    unseen = sum(1 << c for c in cards)
    counts = [0] * (n + 1)  # the seats, then the pile (dealt only when must is not empty)
    room = size
    for s in range(n + 1 if must_on else n):
        if s != me:
            counts[s] = rng.randint(0, min(2, room))
            room -= counts[s]
    allowed = [0] * (n + 1)
    for s in range(n + 1):
        m = unseen
        for c in cards:
            if rng.random() < 0.2:
                m &= ~(1 << c)  # a "void": any card-by-card restriction fits the mask
        allowed[s] = m
    must = 0
    if must_on:
        for c in cards:
            if rng.random() < 0.35:
                must |= 1 << c
    return n, me, unseen, counts, allowed, must


def kernel_sample(key, n, me, unseen, counts, allowed, must, count):
    worlds = np.zeros((count, n + 1), dtype=np.int64)
    kept, attempts = sample_worlds(
        np.uint64(key),
        n,
        me,
        np.int64(0),
        np.int64(unseen),
        np.array(counts, dtype=np.int64),
        np.array(allowed, dtype=np.int64),
        np.int64(must),
        worlds,
        200 * count,
    )
    return worlds[:kept], attempts


@pytest.mark.parametrize("must_on", [False, True])
def test_worlds_uniform_over_the_consistent_ones(must_on):
    rng = random.Random(17 + must_on)
    cases = 0
    while cases < 6:
        n, me, unseen, counts, allowed, must = random_case(rng, must_on)
        if must_on and must == 0:
            continue
        every = enumerate_worlds(n, me, unseen, counts, allowed, must)
        if not 3 <= len(every) <= 300:
            continue
        cases += 1
        per = 150
        worlds, _ = kernel_sample(
            1000 + cases, n, me, unseen, counts, allowed, must, per * len(every)
        )
        assert len(worlds) == per * len(every), "the sampler gave up on a possible constraint"
        index = {w: i for i, w in enumerate(every)}
        tally = np.zeros(len(every))
        others = [s for s in range(n + 1) if s != me]
        for row in worlds:
            w = tuple(int(row[s]) for s in others)
            assert w in index, (
                f"an inconsistent world {w} (constraint {unseen, counts, allowed, must})"
            )
            tally[index[w]] += 1
        expected = per
        stat = float(((tally - expected) ** 2 / expected).sum())
        assert stat < chi2_upper(len(every) - 1), (stat, len(every), tally)


def _suit(s: int) -> int:
    return 0x1FFF << (13 * s)


def _mask(*cards: int) -> int:
    return sum(1 << c for c in cards)


CLUBS, DIAMONDS, HEARTS, SPADES = (_suit(s) for s in range(4))
# (n, me, unseen, counts, void suits per seat): seats compete for the cards they may hold
CASES = [
    # no voids: a plain uniform deal of 7 cards into 2 + 2 + 1 (+ 2 out of play)
    (4, 0, _mask(0, 1, 2, 13, 14, 26, 27), [0, 2, 2, 1], [0, 0, 0, 0]),
    # seat 1 void in hearts, seat 2 in clubs: both want the diamonds
    (4, 0, _mask(0, 1, 2, 13, 14, 26, 27), [0, 2, 2, 1], [0, HEARTS, CLUBS, 0]),
    # three seats each void in two suits, nothing out of play spare for them
    (
        4,
        1,
        _mask(0, 1, 13, 14, 26, 27, 39),
        [2, 0, 2, 2],
        [HEARTS | SPADES, 0, CLUBS | SPADES, DIAMONDS],
    ),
    # a seven-seat table in the last trick, three seats still to play, two void in clubs
    (7, 3, _mask(0, 1, 13, 26, 27, 39), [1, 1, 0, 0, 1, 0, 0], [CLUBS, CLUBS, 0, 0, HEARTS, 0, 0]),
]


@pytest.mark.parametrize("case", range(len(CASES)))
def test_worlds_uniform_over_hand_made_constraints(case):
    n, me, unseen, counts, voids = CASES[case]
    counts = [*counts, 0]  # no pile
    allowed = [unseen & ~v for v in voids] + [0]
    every = enumerate_worlds(n, me, unseen, counts, allowed, 0)
    assert len(every) >= 6
    per = 150
    worlds, _ = kernel_sample(50 + case, n, me, unseen, counts, allowed, 0, per * len(every))
    assert_uniform(worlds, every, n, me, per)


def assert_uniform(worlds, every, n: int, me: int, per: int) -> None:
    """``per`` of each world of ``every`` were drawn, by chi-square."""
    assert len(worlds) == per * len(every)
    index = {w: i for i, w in enumerate(every)}
    tally = np.zeros(len(every))
    for row in worlds:
        tally[index[tuple(int(row[s]) for s in range(n + 1) if s != me)]] += 1
    stat = float(((tally - per) ** 2 / per).sum())
    assert stat < chi2_upper(len(every) - 1), (stat, len(every))


# docs/rules.md 12.9 with 4.8 step 4: discards seen that only a seat which drew from the
# discards may hold (``worlds.world_constraint``'s ``drawn_back``), by the mask alone.
BACK = _mask(0, 1, 2, 3, 4, 5)  # seen going down; seat 3 drew from the discards after
REST = _mask(13, 26)


def _back_case(must: int):
    """Seat 0 views; seats 1 and 2 may hold none of ``BACK``, seat 3 any card, the
    pile none of ``BACK`` either; with ``must`` the pile (1 card) is dealt."""
    unseen = BACK | REST | must
    allowed = [0, unseen & ~BACK, unseen & ~BACK, unseen, unseen & ~BACK if must else 0]
    counts = [0, 2, 1, 2, 1] if must else [0, 1, 1, 2, 0]
    return 4, 0, unseen, counts, allowed, must


@pytest.mark.parametrize("must", [0, _mask(39, 40)], ids=["no-must", "must"])
def test_worlds_uniform_when_only_the_seat_that_drew_may_hold_the_discards(must):
    """Uniform over every consistent world, counted by brute force.  Without ``must``
    ``draw_world``'s bound knows seat 3 is allowed every card seats 1 and 2 are, so it
    keeps nearly every attempt; with ``must`` (two trumps to place, a rob's, 4.8) the
    slot sampler keeps fewer than one attempt in ``SWITCH_AFTER`` here, so
    ``sample_worlds`` tries its others and most worlds come from dealing every place
    (``must_world``), still uniform."""
    n, me, unseen, counts, allowed, must = _back_case(must)
    every = enumerate_worlds(n, me, unseen, counts, allowed, must)
    assert 20 <= len(every) <= 200
    c, a = np.array(counts, np.int64), np.array(allowed, np.int64)
    w = np.zeros(n + 1, np.int64)
    if must:
        slots = sum(
            draw_must_world(np.uint64(9), t, n, me, 0, unseen, c, a, must, w) for t in range(640)
        )
        assert slots * SWITCH_AFTER < 640  # the slots alone would hardly ever be kept
    per = 60
    worlds, attempts = kernel_sample(77, n, me, unseen, counts, allowed, must, per * len(every))
    assert attempts < 4 * len(worlds)
    assert_uniform(worlds, every, n, me, per)


def test_no_world_when_must_cannot_fit():
    # Two cards must be dealt, one seat with one slot may hold them: no world.
    worlds, attempts = kernel_sample(
        5, 3, 0, 0b111, [0, 1, 0, 0], [0, 0b111, 0b111, 0b111], 0b011, 4
    )
    assert len(worlds) == 0 and attempts == 800
    # No card must be placed, but two seats each need two clubs of the three unseen.
    unseen = 0b111 | 0b11 << 13
    clubs = [0, 0b111, 0b111, unseen, 0]
    worlds, attempts = kernel_sample(1, 4, 0, unseen, [0, 2, 2, 1, 0], clubs, 0, 4)
    assert len(worlds) == 0 and attempts == 800


def test_a_planted_bias_is_caught():
    """The check above rejects a sampler that is not uniform: here the worlds of one
    seat's first card are drawn twice as often (the tally a biased sampler would give)."""
    n, me, unseen, counts, allowed, must = 3, 0, 0b1111, [0, 1, 2, 0], [0, 0b1111, 0b1111, 0], 0
    every = enumerate_worlds(n, me, unseen, counts, allowed, must)
    per = 150
    tally = np.full(len(every), float(per))
    tally[0] *= 2
    tally *= per * len(every) / tally.sum()
    stat = float(((tally - per) ** 2 / per).sum())
    assert stat > chi2_upper(len(every) - 1)


# ---------------------------------------------------------------- knowledge of real hands

FAMILIES = [
    ("auction-pitch", 7),
    ("auction-pitch,follow=suit,partnership=true", 4),
    ("setback", 4),
    ("smear", 4),
    ("ten-point", 4),
    ("smear,follow=suit", 4),
    ("ten-point,follow=trump", 4),
    ("ten-point,follow=trump,rob=false", 4),
]


def _eff(trump_tab, trump, c):
    return int(trump_tab.eff_suit[trump][c])


@pytest.mark.parametrize(("spec", "n"), FAMILIES)
def test_knowledge_of_logged_hands_admits_the_true_deal(spec, n):
    """At every decision of logged heuristic hands, the knowledge rebuilt in plain Python
    (the tricks as logged; voids by the follow rule in words) with what each seat saw of
    the draw (``seat_knowledge``) gives a constraint the true hands meet, the pitcher's
    put-down (found here in plain Python: out of play, neither discarded nor burnt face
    up) the pile, and every sampled world meets it too."""
    rules = Rules.parse(spec)

    r = rules
    fr, tab = rules_array(r), rules_table(r)
    tt = trump_tables(r.jokers, r.jick)
    count = 12
    out = logged_arrays(count, n)
    play_logged(
        7, 0, count, n, n - 1, 0, np.int64(0), -1, np.full(n, 1, np.int64), fr, tab,
        *out.values(),
    )  # fmt: skip
    pack = sum(1 << c for c in range(52)) | ((1 << (52 + r.jokers)) - (1 << 52))
    checked = 0
    for d in range(count):
        trump = int(out["trump"][d, 0])
        tricks = int(out["trump"][d, 1])
        held = [int(x) for x in out["held"][d]]
        dealt = [int(x) for x in out["dealt"][d]]
        tm = int(tab[trump, 0])
        known = np.zeros(n, np.int64)
        drawn_back = np.zeros((n, n), np.int64)
        pitcher = 0
        down = seat_knowledge(
            out["dealt"][d], out["held"][d], n, pitcher, n - 1, trump, fr, tab, known,
            drawn_back, 0,
        )  # fmt: skip
        put_down = 0
        if r.discard == "non-trump" and r.rob:
            put_down = pack
            for h in held:
                put_down &= ~h
            for x in range(n):
                put_down &= ~(dealt[x] & ~tm)  # the face-down discards (4.8 step 1)
                dealt_trumps = [c for c in range(54) if (dealt[x] & tm) >> c & 1]
                for c in F.excess_trumps(dealt_trumps, 6, trump, r):  # burnt face up
                    put_down &= ~(1 << c)
        assert down == put_down.bit_count(), (spec, d)
        hands = list(held)
        pby = [0] * n
        voids = 0
        start = 0  # the pitcher (seat 0) leads first, then each trick's winner
        for t in range(tricks):
            row = out["log"][d, t * (n + 2) : (t + 1) * (n + 2)]
            leader = int(row[0])
            s = start
            while s != leader:  # follow=only: the lead passed over seats with no trump
                voids |= 1 << (4 * s + trump)
                s = (s + 1) % n
            start = int(row[n + 1])
            trick_cards = []
            for i in range(n):
                seat = (leader + i) % n
                c = int(row[1 + i])
                if c < 0:  # out under follow=only: no trump left
                    voids |= 1 << (4 * seat + trump)
                    continue
                # The decision of `seat` before it plays c: check the constraint.
                me = seat
                known_out = int(known[me])
                assert known_out & put_down == (put_down if me == pitcher else 0)
                pile = put_down if me != pitcher else 0
                counts = np.array([bin(h).count("1") for h in hands] + [pile.bit_count()], np.int64)
                allowed = np.zeros(n + 1, np.int64)
                unseen, must = world_constraint(
                    n, me, np.int64(hands[me]), np.int64(known_out), drawn_back[me],
                    np.array(pby, np.int64), np.int64(voids), counts, trump, fr, tab, allowed,
                )  # fmt: skip
                unseen, must = int(unseen), int(must)
                # exactly the constraint rebuilt here: the pack less what the seat saw,
                # less the effective suits each seat showed void in, less the discards
                # seen that only other seats may have drawn back (4.8 step 4)
                seen_here = hands[me] | known_out
                for s in range(n):
                    seen_here |= pby[s]
                assert unseen == pack & ~seen_here, (spec, d, t)
                back = [int(drawn_back[me, s]) & unseen for s in range(n)]
                for s in range(n):
                    if s != me:
                        void = sum(
                            1 << c for c in bits(pack) if voids >> (4 * s + _eff(tt, trump, c)) & 1
                        )
                        barred = 0
                        for x in range(n):
                            if x not in (me, s):
                                barred |= back[x] & ~back[s]
                        assert int(allowed[s]) == unseen & ~void & ~barred, (spec, d, t, s)
                true_union = 0
                for s in range(n):
                    if s == me:
                        continue
                    assert hands[s] & ~int(allowed[s]) == 0, (spec, d, t, s)
                    true_union |= hands[s]
                assert must & ~(true_union | pile) == 0
                assert pile & ~int(allowed[n]) == 0
                assert unseen & hands[me] == 0 and unseen & known_out == 0
                for s in range(n):
                    assert unseen & pby[s] == 0
                worlds, _ = kernel_sample(d * 100 + t, n, me, unseen, counts, allowed, must, 8)
                assert len(worlds) == 8
                for w in worlds:
                    assert int(w[me]) == 0  # the hand given was 0: the seat's own slot
                    seen = 0
                    for s in range(n + 1):
                        if s == me:
                            continue
                        m = int(w[s])
                        assert m.bit_count() == (counts[s] if s < n or must else 0)
                        assert m & ~int(allowed[s]) == 0
                        assert m & (hands[me] | known_out | seen) == 0
                        assert all(m & pby[x] == 0 for x in range(n))
                        seen |= m
                    assert must & ~seen == 0
                checked += 1
                # Play it; a void shown by the rule in words, and by the kernel's.
                expect = -1
                if trick_cards:
                    led = _eff(tt, trump, trick_cards[0])
                    e = _eff(tt, trump, c)
                    follows = e == led or (r.follow == "trump" and e == trump)
                    if r.follow != "only" and not follows:
                        expect = led
                elif t == 0 and r.lead_trump and r.follow != "only" and _eff(tt, trump, c) != trump:
                    expect = trump
                tc = np.zeros(n, np.int64)
                tc[: len(trick_cards)] = trick_cards
                got = shown_void(c, tc, len(trick_cards), trump, t == 0, fr, tab)
                assert got == expect, (spec, d, t, seat, c, trick_cards)
                if expect >= 0:
                    voids |= 1 << (4 * seat + expect)
                trick_cards.append(c)
                hands[seat] &= ~(1 << c)
                pby[seat] |= 1 << c
    assert checked > 100
