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
from .presets import F_PARTNER, T_TRUMPS
from .rng import deal_key
from .score import N_AWARDS, NOT_PLAYED, flags_points, score_hand, side_awards_of, side_of
from .simulate import PITCHER, borrowed_scratch, study_hand_base, study_play_fixed

BLOCK = 2048


@njit(cache=True, inline="always")
def pitched_hand(key, n, policies, fr, tab, scratch):
    """Deal ``key`` played with seat 0 pitching, any rules (``simulate.study_play_fixed``;
    ``scratch``: ``borrowed_scratch``'s views, filled in, its deck empty unless the deal
    draws a stock, ``_columns_block``), not scored: (trump, his called partner)."""
    deck, dealt, held, hands, won, trick, tseats, award, points, junk = scratch
    no_log = junk[:0]
    trump, _, _, _, _, partner = study_play_fixed(
        key, n, n - 1, np.int64(PITCHER), np.int64(0), np.int64(0), np.int64(-1), policies, fr,
        tab, deck, dealt, held, hands, won, trick, tseats, no_log, no_log, junk,
    )  # fmt: skip
    return trump, partner


@njit(cache=True, inline="always")
def award_flags(award, partner, fr):
    """``score.side_awards_of``'s three flag sets read off the seat credited with each
    award (``score_hand``): the pitcher's side took it (under a called partner he and
    the holder of his call, 12.1.6), anybody took it, the rules score it."""
    side = hand_side(np.int64(PITCHER), np.int64(PITCHER), partner, fr)
    ours = taken = scored = np.int64(0)
    for i in range(N_AWARDS):
        a = award[i]
        scored |= np.int64(a != NOT_PLAYED) << i
        taken |= np.int64(a >= 0) << i
        if a >= 0 and hand_side(a, np.int64(PITCHER), partner, fr) == side:
            ours |= np.int64(1) << i
    return ours, taken, scored


@njit(cache=True, inline="always")
def pitched_base_hand(key, n, policies, fr, tab, scratch):
    """``pitched_hand`` under the base game's shape, compiled in as constants
    (``simulate.study_hand_base``): no discard (held = dealt), no partner called, each
    point 1; scored (``score.score_plain``'s ``award``).  Returns trump.  The block
    kernels pick one or the other by a branch on ``base`` in their own body: numba
    prunes a branch on an argument only there, and the hand of any rules left in an
    inlined function beside the base game's costs ~15 CPU s of compile."""
    deck, dealt, held, hands, won, trick, tseats, award, points, junk = scratch
    no_log = junk[:0]
    trump = study_hand_base(
        key, n, n - 1, np.int64(PITCHER), np.int64(0), np.int64(-1), policies, fr, tab, deck, dealt, held, hands,
        won, trick, tseats, award, no_log, no_log,
    )  # fmt: skip
    return trump


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
    # The deck's order matters only to a draw from the stock: without one the deal
    # writes the hands alone (``deal.deal_cards_fixed``).  (Sliced once a block, not a
    # deal.)
    if not takes_stock(fr):
        scratch = (scratch[0][:0],) + scratch[1:]
    dealt, held, won, award, pts_all = scratch[1], scratch[2], scratch[4], scratch[7], scratch[8]
    mine = side_of(np.int64(PITCHER), fr)
    # Every seat scored (``score_hand``) only when a seat's awards are kept or a called
    # partner pools the sides (12.1.6); else the pitcher's side's flags off the cards
    # (``score.side_awards_of``): the same columns, a fifth of the scoring's work.
    per_seat = (all_award.shape[0] > 0) | (fr[F_PARTNER] != 0)
    for d in range(b * BLOCK, min(count, (b + 1) * BLOCK)):
        key = deal_key(seed, start + d)
        if base is None:
            t, partner = pitched_hand(key, n, policies, fr, tab, scratch)
            if per_seat:
                score_hand(held, won, n, t, fr, tab, award, pts_all, np.int64(PITCHER), partner)
                ours, taken, scored = award_flags(award, partner, fr)
            else:
                ours, taken, scored = side_awards_of(held, won, n, t, fr, tab, mine)
        else:
            t = pitched_base_hand(key, n, policies, fr, tab, scratch)
            ours, taken, scored = award_flags(award, np.int64(-1), fr)
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
        points[d] = flags_points(ours)  # (under a called partner too: ``ours`` pools)
        for i in range(N_AWARDS):  # 3 not scored, 2 nobody, 1 the others, 0 his side
            sides[i, d] = 3 - ((scored >> i) & 1) - ((taken >> i) & 1) - ((ours >> i) & 1)
        if all_dealt.shape[0] > 0:  # every seat's cards and awards, when asked for
            for s in range(n):
                all_dealt[d, s] = dealt[s]
                all_held[d, s] = held[s]
            for i in range(N_AWARDS):
                all_award[d, i] = award[i]
    keep_alive(owned)
