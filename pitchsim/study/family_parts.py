"""A part of a run under a rule family (``pitchsim simulate --rules smear``): its deals
played by the family kernels and turned into the per-deal columns of
:data:`pitchsim.study.manifest.FAMILY_COLUMNS`.

Deal ``i`` at ``n`` players is ``kernels.families.sample.record_family_hands``' deal
``i`` under the stream seed ``seed * 8 + n``, which is ``simulate_family_hands``' and
``family_make_odds``' deal ``i`` under that seed: seat 0 pitches, the dealer is seat
n-1, every seat plays the run's policy.  A part's content is a function of (seed,
player count, deal range, rules, policy) only, on any thread count or chunking.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from ..game.rules import Rules, as_family
from ..kernels.bits import popcount
from ..kernels.families.sample import record_family_hands
from ..kernels.families.score import N_AWARDS, NOT_PLAYED, side_of
from ..kernels.families.simulate import PITCHER, family_policies
from ..kernels.families.tables import T_TRUMPS, family_array, family_tables
from ..util.runtime import CHUNK, chunked, use_threads
from .family_report import key_cards
from .manifest import FAMILY, FAMILY_AWARDS, KEY_NAMES, Part, RunParams

BLOCK = 4096
PITCHER_SIDE, OTHER_SIDE, NOBODY_SIDE, NO_SUCH_POINT = 0, 1, 2, 3


def key_table(rules) -> np.ndarray:
    """Per trump suit, the card of each key of :data:`KEY_NAMES` (-1: a key these rules
    do not count), from ``family_report.key_cards``."""
    r = as_family(rules)
    out = np.full((4, len(KEY_NAMES)), -1, dtype=np.int64)
    for t in range(4):
        for card, name in key_cards(r, t):
            out[t, KEY_NAMES.index(name)] = card
    return out


@njit(cache=True, parallel=True, nogil=True)
def describe_family_deals(
    start,
    n,
    dealt,
    held,
    trump_in,
    points_in,
    award_in,
    trump_masks,
    keycards,
    fr,
    deal,
    players,
    hand,
    held_out,
    trump,
    trump_count,
    trump_count_held,
    keys,
    keys_held,
    points,
    sides,
):
    """The per-deal columns from what ``record_family_hands`` kept: the pitcher's cards
    dealt and held, their trumps and key trumps, his side's points, and per award
    (``sides[i, d]``) the side that took it."""
    count = trump_in.size
    mine = side_of(PITCHER, fr)
    blocks = (count + BLOCK - 1) // BLOCK
    for b in prange(blocks):
        for d in range(b * BLOCK, min(count, (b + 1) * BLOCK)):
            t = trump_in[d]
            h = dealt[d, PITCHER]
            hh = held[d, PITCHER]
            tm = trump_masks[t]
            deal[d] = start + d
            players[d] = n
            hand[d] = h
            held_out[d] = hh
            trump[d] = t
            trump_count[d] = popcount(h & tm)
            trump_count_held[d] = popcount(hh & tm)
            k = 0
            kh = 0
            for i in range(keycards.shape[1]):
                c = keycards[t, i]
                if c >= 0:
                    k |= ((h >> c) & 1) << i
                    kh |= ((hh >> c) & 1) << i
            keys[d] = k
            keys_held[d] = kh
            points[d] = points_in[d]
            for i in range(award_in.shape[1]):
                a = award_in[d, i]
                if a == NOT_PLAYED:
                    sides[i, d] = 3
                elif a < 0:
                    sides[i, d] = 2
                elif side_of(a, fr) == mine:
                    sides[i, d] = 0
                else:
                    sides[i, d] = 1


def simulate_family_part(
    part: Part,
    params: RunParams,
    buffers: dict[str, np.ndarray],
    lock,
    threads: int | None = None,
    progress=None,
) -> dict[str, np.ndarray]:
    """Play the deals of ``part`` under the run's family: its columns in the order of
    :data:`FAMILY_COLUMNS`, views of ``buffers`` (``batch.part_buffers(size, FAMILY)``,
    valid until they are reused); the kernels run holding ``lock`` (``batch``'s: one
    kernel call at a time per process)."""
    n, count = part.players, part.count
    rules = as_family(Rules.parse(params.rules))
    fr, tab = family_array(rules), family_tables(rules)
    trump_masks = np.ascontiguousarray(tab[:, T_TRUMPS])
    keycards = key_table(rules)
    policies = family_policies(params.policy, n)
    seed = params.stream_seed(n)
    col = {name: a[:count] for name, a in buffers.items()}
    size = min(count, CHUNK)
    dealt = np.empty((size, n), np.int64)
    held = np.empty((size, n), np.int64)
    trump = np.empty(size, np.int64)
    pts = np.empty(size, np.int64)
    award = np.empty((size, N_AWARDS), np.int64)
    sides = np.empty((N_AWARDS, size), np.uint8)
    with lock, use_threads(threads):
        for a, b in chunked(count):
            m = b - a
            record_family_hands(
                seed, part.start + a, m, n, policies, fr, tab,
                dealt[:m], held[:m], trump[:m], pts[:m], award[:m],
            )  # fmt: skip
            describe_family_deals(
                part.start + a, n, dealt[:m], held[:m], trump[:m], pts[:m], award[:m],
                trump_masks, keycards, fr,
                col["deal"][a:b], col["players"][a:b], col["hand"][a:b], col["held"][a:b],
                col["trump"][a:b], col["trump_count"][a:b], col["trump_count_held"][a:b],
                col["keys"][a:b], col["keys_held"][a:b], col["points"][a:b], sides[:, :m],
            )  # fmt: skip
            for i, name in enumerate(FAMILY_AWARDS):
                col[name][a:b] = sides[i, :m]
            if progress is not None:
                progress(m)
    return {name: col[name] for name in FAMILY.schema.names}
