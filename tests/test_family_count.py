"""The family bidders' count (``kernels.bidding.calls.expected_take``): the points a
hand expects its side to take with a suit as trump, which the ``heuristic`` bidder
rounds, the ``odds`` bidder looks up in its table, and every preset's trump naming
picks the best of.  Recounted here in plain Python from its docstring's terms, card by
card (the trump order keys and capture values are the preset's own tables), on random
hands of every preset: the kernel must give the same number (to 1e-12: numba raises
to a whole power by multiplying, Python by ``pow``)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from pitchsim.game.rules import Rules
from pitchsim.kernels.bidding.calls import best_suit, expected_take
from pitchsim.kernels.deal import cards_each, pack_mask
from pitchsim.kernels.presets import (
    F_DISCARD,
    F_FOLLOW,
    F_GAME_TEN,
    F_LOW_DEALT,
    F_PARTNERSHIP,
    F_ROB,
    FOLLOW_ONLY,
    T_KEY,
    T_POINTS,
    T_RANKED,
    T_TRUMPS,
    T_VALUE,
    rules_array,
    rules_table,
)

SPECS = [
    ("auction-pitch", 4),
    ("auction-pitch", 7),
    ("smear", 3),
    ("setback", 4),
    ("ten-point", 4),
    ("ten-point,partnership=false", 5),
    ("five-point", 4),
    ("six-point,partnership=false", 3),
    ("seven-point", 4),
    ("cinch", 4),
    ("auction-pitch,jokers=2,jick=true,three=true,five=true,low=dealt", 6),
]


def bits(m: int) -> list[int]:
    return [c for c in range(54) if m >> c & 1]


def recount(hand: int, t: int, n: int, fr, tab) -> float:
    """``expected_take`` term by term: High and Low by the unseen ranked trumps above
    the top (below the bottom) ranked trump held, each in play with chance p_in (Low
    0.8 of it unless low=dealt); each point card: solo, held, by the guard above it the
    fewest unseen trumps can beat, not held, by the hand's length when a trump above
    it is held; in a partnership by the trumps above it held and unseen; Game by count
    from length, the ten, side aces and tens."""
    key = lambda c: int(tab[t, T_KEY + c])  # noqa: E731
    tm = int(tab[t, T_TRUMPS])
    ranked_all = int(tab[t, T_RANKED])
    pack = int(pack_mask(n, fr))
    each = int(cards_each(n, fr))
    trumps = hand & tm
    unseen = pack & ~hand
    partnership = fr[F_PARTNERSHIP] != 0
    if fr[F_DISCARD] == 0:
        p_in = each * (n - 1) / (bin(pack).count("1") - each)
    elif fr[F_ROB] != 0:
        p_in = 0.95
    else:
        p_in = 0.8
    q = 1.0 - p_in
    count = 0.0
    held_ranked = bits(trumps & ranked_all)
    if held_ranked:
        hi = max(key(c) for c in held_ranked)
        lo = min(key(c) for c in held_ranked)
        above = sum(key(c) > hi for c in bits(unseen & ranked_all))
        below = sum(key(c) < lo for c in bits(unseen & ranked_all))
        count += q**above
        low = q**below
        count += low if fr[F_LOW_DEALT] != 0 else 0.8 * low
    for c in bits(int(tab[t, T_POINTS]) & pack):
        value = int(tab[t, T_VALUE + c])
        guards = [d for d in bits(trumps) if d != c and key(d) > key(c)]
        unseen_trumps = [d for d in bits(unseen & tm) if d != c]
        unseen_above = sum(key(d) > key(c) for d in unseen_trumps)
        if hand >> c & 1:
            if unseen_above == 0:
                p = 1.0  # nothing left can take it
            elif partnership:
                p = 0.55 + 0.15 * len(guards) - 0.03 * unseen_above
                p += 0.1
                p = min(0.92, max(0.2, p))
            elif not guards:
                p = 0.5  # bare
            else:
                # the guard fewest unseen trumps can beat: 0-1 of them 0.9, 2 0.65, more 0.55
                beat = min(sum(key(d) > key(g) for d in unseen_trumps) for g in guards)
                p = 0.9 if beat <= 1 else 0.65 if beat == 2 else 0.55
        elif partnership:
            p = p_in * min(0.8, 0.08 + 0.12 * len(guards) + 0.2)
        else:
            length = len(bits(trumps))
            p = p_in * min(0.8, 0.2 + 0.1 * min(length, 4)) if guards and length >= 2 else 0.0
        count += value * p
    if fr[F_GAME_TEN] == 0:
        game = 0.12 * len(bits(trumps)) + 0.3 * ((trumps >> (t * 13 + 8)) & 1)
        if fr[F_DISCARD] == 0 and fr[F_FOLLOW] != FOLLOW_ONLY:
            side = hand & ((1 << 52) - 1) & ~tm
            aces = sum(side >> (s * 13 + 12) & 1 for s in range(4))
            tens = sum(side >> (s * 13 + 8) & 1 for s in range(4))
            game += 0.12 * aces + 0.05 * tens
        sides = 2 if partnership else n
        count += min(0.9, game * 4.0 / sides + 0.05)
    return count


@pytest.mark.parametrize(("spec", "n"), SPECS)
def test_the_count_is_its_plain_python_recount(spec, n):
    r = Rules.parse(spec)
    fr, tab = rules_array(r), rules_table(r)
    pack = bits(int(pack_mask(n, fr)))
    rng = random.Random(f"{spec}/{n}")
    for _ in range(300):
        hand = sum(1 << c for c in rng.sample(pack, r.cards_each(n)))
        counts = [recount(hand, t, n, fr, tab) for t in range(4)]
        for t in range(4):
            got = expected_take(np.int64(hand), t, n, fr, tab)
            assert got == pytest.approx(counts[t], rel=1e-12, abs=1e-12), (hand, t)
        count, suit = best_suit(np.int64(hand), n, fr, tab)
        assert count == pytest.approx(max(counts), rel=1e-12, abs=1e-12)
        assert counts[suit] == pytest.approx(max(counts), rel=1e-12, abs=1e-12)


def test_the_power_is_numbas_own_to_the_last_bit():
    """``power_of`` stands in for numba's ``q ** k`` in the count: the odds table was
    built with ``**`` and its buckets cut at half points, so the two must agree to the
    last bit (multiplied in another order they differ in it), for every count of
    trumps."""
    from numba import njit

    from pitchsim.kernels.bidding.calls import power_of

    @njit
    def numba_power(q, k):
        return q**k

    rng = random.Random(5)
    for q in [0.0, 1.0, 0.5, 1 / 3, *(rng.random() for _ in range(300))]:
        for k in range(32):
            assert power_of(q, np.int64(k)) == numba_power(q, np.int64(k)), (q, k)


@pytest.mark.parametrize(("spec", "n"), SPECS)
def test_the_holding_class_is_the_packs_top_and_bottom_ranked_trump(spec, n):
    """``holding_class``: 1 for holding the pack's highest ranked trump of the suit (by
    the preset's order keys), 2 for its lowest, recounted from the keys."""
    from pitchsim.kernels.bidding.calls import holding_class

    r = Rules.parse(spec)
    fr, tab = rules_array(r), rules_table(r)
    pack = int(pack_mask(n, fr))
    rng = random.Random(f"class {spec}/{n}")
    for _ in range(200):
        hand = sum(1 << c for c in rng.sample(bits(pack), r.cards_each(n)))
        for t in range(4):
            ranked = bits(int(tab[t, T_RANKED]) & pack)
            top = max(ranked, key=lambda c: int(tab[t, T_KEY + c]))
            bottom = min(ranked, key=lambda c: int(tab[t, T_KEY + c]))
            want = (hand >> top & 1) + 2 * (hand >> bottom & 1)
            assert holding_class(np.int64(hand), t, n, fr, tab) == want, (hand, t)
