"""Family hands recorded card by card, in parallel: what the exact checks and the
family sections of the report read (``pitchsim.study.families``).

Deal d is exactly ``simulate.simulate_family_hands``' deal d (seat 0 pitches, the
dealer is seat n-1, the key is (seed, d)), so the points recorded here are the ones
``family_make_odds`` counts; this kernel also keeps every seat's cards as dealt and
as held when play starts, trump and every award.
"""

import numpy as np
from numba import literally, njit, prange

from ..rng import deal_key
from .policies import base_shape
from .score import N_AWARDS, flags_points, side_of
from .simulate import PITCHER, family_hand, family_hand_base, hand_scratch, plain_flags
from .tables import F_PARTNERSHIP

BLOCK = 2048


@njit(cache=True, parallel=True, nogil=True)
def record_family_hands(
    seed,
    start,
    count,
    n,
    policies,
    fr,
    tab,
    out_dealt,
    out_held,
    out_trump,
    out_points,
    out_award,
    base=None,
):
    """Play deals ``start .. start+count-1``; row ``d`` of ``out_dealt`` / ``out_held``
    (count x n) gets every seat's cards dealt / held when play starts, ``out_trump[d]``
    trump, ``out_points[d]`` the points the pitcher's side won and ``out_award[d]``
    (count x ``score.N_AWARDS``) the seat credited with each award (``score``).

    ``base`` True: the rules are the base game's shape (``policies.base_shape``, else a
    ValueError), compiled in as constants (``simulate.family_hand_base``, the same
    deals and cards); None: any rules.  From Python, ``record_kernel(fr)`` picks it."""
    if base is not None:
        literally(base)
        if not base_shape(fr):
            raise ValueError("base=True with rules that are not the base game's shape")
    blocks = (count + BLOCK - 1) // BLOCK
    for b in prange(blocks):
        _record_block(
            seed, start, count, b, n, policies, fr, tab, out_dealt, out_held, out_trump,
            out_points, out_award, base,
        )  # fmt: skip


@njit(cache=True, nogil=True)
def record_base_hands(
    seed, start, count, n, policies, fr, tab, out_dealt, out_held, out_trump, out_points,
    out_award,
):  # fmt: skip
    """``record_family_hands`` with ``base=True``, for callers in Python (a Python call
    with a literal types its arguments again each time)."""
    record_family_hands(
        seed, start, count, n, policies, fr, tab, out_dealt, out_held, out_trump, out_points,
        out_award, True,
    )  # fmt: skip


def record_kernel(fr):
    """The kernel of ``record_family_hands``' arguments (without ``base``) for the rules
    ``fr``: ``record_base_hands`` under the base game's shape, else ``record_family_hands``."""
    return record_base_hands if base_shape(fr) else record_family_hands


@njit(cache=True, nogil=True)
def _record_block(
    seed, start, count, b, n, policies, fr, tab, out_dealt, out_held, out_trump, out_points,
    out_award, base,
):  # fmt: skip
    # A function of its own, not inlined into the parallel kernel: numba's parallel
    # passes over a body holding the hand's play cost tens of CPU seconds of compile.
    no_log = np.empty(0, dtype=np.int64)
    deck, dealt, held, hands, won, trick, tseats, award, points, junk = hand_scratch(n)
    mine = side_of(PITCHER, fr)
    partners = fr[F_PARTNERSHIP] != 0
    for d in range(b * BLOCK, min(count, (b + 1) * BLOCK)):
        key = deal_key(seed, start + d)
        if base is None:
            trump, _, _, _, _, _ = family_hand(
                key, n, n - 1, PITCHER, 0, policies, fr, tab, deck, dealt, held, hands, won,
                trick, tseats, award, points, no_log, no_log, junk,
            )  # fmt: skip
            out_points[d] = points[PITCHER]
        else:  # the base game's shape: no discard (held = dealt), each point worth 1
            trump = family_hand_base(
                key, n, n - 1, PITCHER, np.int64(0), -1, policies, fr, tab, deck, dealt, held,
                hands, won, trick, tseats, award, no_log, no_log,
            )  # fmt: skip
            out_points[d] = flags_points(plain_flags(award, mine, partners))
        for s in range(n):
            out_dealt[d, s] = dealt[s]
            out_held[d, s] = held[s]
        out_trump[d] = trump
        for i in range(N_AWARDS):
            out_award[d, i] = award[i]
