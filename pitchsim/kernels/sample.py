"""Pitched hands of any preset played in parallel: the columns of a study run
(``record_columns``: ``pitchsim simulate``), and on request every seat's cards and the
seat credited with each award (what the exact checks and the family sections of the
report read, ``study.exact.sample_hands``), from one kernel: the same deals, the same
machine code, whoever asks.

Deal d is exactly ``simulate.make_odds``' deal d with no hand fixed (seat 0 pitches,
the dealer is seat n-1, the key is (seed, d)), so the points recorded here are the ones
``make_odds`` counts.  Under the base game's shape (``policies.base_shape``)
``record_columns`` takes ``base`` to compile it in as constants
(``simulate.study_hand_base``: the same deals and cards; ``columns_kernel`` picks the
kernel from Python): a study run's millions of hands.
"""

import numpy as np
from numba import literally, njit, prange

from .bits import popcount
from .borrow import borrowed, keep_alive
from .deal import takes_stock
from .partner import hand_side
from .policies.cards import any_rules, base_shape, refuse_unless_base_shape
from .presets import F_PARTNERSHIP, T_TRUMPS
from .rng import deal_key
from .score import N_AWARDS, NOT_PLAYED, flags_points, side_of
from .simulate import PITCHER, borrowed_scratch, plain_flags, study_hand, study_hand_base

BLOCK = 2048


@njit(cache=True, inline="always")
def pitched_hand(key, n, policies, fr, tab, scratch):
    """Deal ``key`` played with seat 0 pitching, any rules (``simulate.study_hand``;
    ``scratch``: ``borrowed_scratch``'s views, filled in): (trump, the points the
    pitcher's side won, his called partner)."""
    deck, dealt, held, hands, won, trick, tseats, award, points, junk = scratch
    no_log = junk[:0]
    # The deck's order matters only to a draw from the stock: without one the deal
    # writes the hands alone (``deal.deal_cards_fixed``).
    deck = deck if takes_stock(fr) else deck[:0]
    trump, _, _, _, _, partner = study_hand(
        key, n, n - 1, np.int64(PITCHER), np.int64(0), policies, fr, tab, deck, dealt, held, hands, won, trick,
        tseats, award, points, no_log, no_log, junk,
    )  # fmt: skip
    return trump, points[PITCHER], partner


@njit(cache=True, inline="always")
def pitched_base_hand(key, n, policies, fr, tab, scratch, mine, partners):
    """``pitched_hand`` under the base game's shape, compiled in as constants
    (``simulate.study_hand_base``): no discard (held = dealt), no partner called, each
    point 1.  The block kernels pick one or the other by a branch on ``base`` in their
    own body: numba prunes a branch on an argument only there, and the hand of any
    rules left in an inlined function beside the base game's costs ~15 CPU s of compile."""
    deck, dealt, held, hands, won, trick, tseats, award, points, junk = scratch
    no_log = junk[:0]
    deck = deck if takes_stock(fr) else deck[:0]
    trump = study_hand_base(
        key, n, n - 1, np.int64(PITCHER), np.int64(0), np.int64(-1), policies, fr, tab, deck, dealt, held, hands,
        won, trick, tseats, award, no_log, no_log,
    )  # fmt: skip
    return trump, flags_points(plain_flags(award, mine, partners)), np.int64(-1)


@njit(cache=True, parallel=True, nogil=True)
def record_columns(
    seed, start, count, n, policies, fr, tab, keycards, hand, held, trump, trump_count,
    trump_count_held, keys, keys_held, points, sides, all_dealt, all_held, all_award, base,
):  # fmt: skip
    """Play deals ``start .. start+count-1`` and write the columns of a study run
    (``study.manifest.COLUMNS``) for deal ``d`` at index ``d``:
    the pitcher's cards dealt (``hand``) and held when play starts, trump, his trumps
    and his key trumps (bit i: he holds ``keycards[trump, i]``; -1: none) dealt and held,
    the points his side won, and per award ``sides[i, d]``: 0 his side took it (under a
    called partner he and the holder of his call, 12.1.6), 1 the other side, 2 nobody
    (not in play), 3 not a point of these rules.  ``all_dealt`` / ``all_held`` (count x
    n) get every seat's cards dealt / held when play starts and ``all_award`` (count x
    ``score.N_AWARDS``) the seat credited with each award (``score``) when they have rows
    (a study run passes 0 rows: not kept; the same signature, one compile).  ``base``
    True: the rules are the base game's shape (``policies.base_shape``, else a
    ValueError), compiled in as constants; None: any rules."""
    if base is not None:
        literally(base)
        refuse_unless_base_shape(fr)
    blocks = (count + BLOCK - 1) // BLOCK
    for b in prange(blocks):
        _columns_block(
            seed, start, count, np.int64(b), n, policies, fr, tab, keycards, hand, held, trump,
            trump_count, trump_count_held, keys, keys_held, points, sides, all_dealt, all_held,
            all_award, base,
        )  # fmt: skip


@njit(cache=True, nogil=True)
def record_base_columns(
    seed, start, count, n, policies, fr, tab, keycards, hand, held, trump, trump_count,
    trump_count_held, keys, keys_held, points, sides, all_dealt, all_held, all_award,
):  # fmt: skip
    """``record_columns`` with ``base=True``, for callers in Python."""
    record_columns(
        seed, start, count, n, policies, fr, tab, keycards, hand, held, trump, trump_count,
        trump_count_held, keys, keys_held, points, sides, all_dealt, all_held, all_award, True,
    )  # fmt: skip


def columns_kernel(fr):
    """``record_base_columns`` under the base game's shape, else ``record_columns``."""
    return record_base_columns if base_shape(fr) else any_rules(record_columns)


@njit(cache=True, nogil=True)
def _columns_block(
    seed, start, count, b, n, policies, fr, tab, keycards, hand, held_out, trump_out,
    trump_count, trump_count_held, keys, keys_held, points, sides, all_dealt, all_held, all_award,
    base,
):  # fmt: skip
    policies, fr, tab = borrowed(policies), borrowed(fr), borrowed(tab)
    owned, scratch = borrowed_scratch(n)
    dealt, held, award = scratch[1], scratch[2], scratch[7]
    mine = side_of(np.int64(PITCHER), fr)
    partners = fr[F_PARTNERSHIP] != 0
    for d in range(b * BLOCK, min(count, (b + 1) * BLOCK)):
        key = deal_key(seed, start + d)
        if base is None:
            t, pts, partner = pitched_hand(key, n, policies, fr, tab, scratch)
        else:
            t, pts, partner = pitched_base_hand(key, n, policies, fr, tab, scratch, mine, partners)
        h, hh, tm = dealt[PITCHER], held[PITCHER], tab[t, T_TRUMPS]
        hand[d] = h
        held_out[d] = hh
        trump_out[d] = t
        trump_count[d] = popcount(h & tm)
        trump_count_held[d] = popcount(hh & tm)
        k = np.int64(0)
        kh = np.int64(0)
        for i in range(keycards.shape[1]):
            c = keycards[t, i]
            if c >= 0:
                k |= ((h >> c) & 1) << i
                kh |= ((hh >> c) & 1) << i
        keys[d] = k
        keys_held[d] = kh
        points[d] = pts
        side = hand_side(np.int64(PITCHER), np.int64(PITCHER), partner, fr)  # 12.1.6
        for i in range(N_AWARDS):
            a = award[i]
            if a == NOT_PLAYED:
                sides[i, d] = 3
            elif a < 0:
                sides[i, d] = 2
            elif hand_side(a, np.int64(PITCHER), partner, fr) == side:
                sides[i, d] = 0
            else:
                sides[i, d] = 1
        if all_dealt.shape[0] > 0:  # every seat's cards and awards, when asked for
            for s in range(n):
                all_dealt[d, s] = dealt[s]
                all_held[d, s] = held[s]
            for i in range(N_AWARDS):
                all_award[d, i] = award[i]
    keep_alive(owned)
