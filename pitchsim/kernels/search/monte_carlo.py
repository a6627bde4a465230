"""The search's choice and its solver budget, shared by the preset kernels' search play
(``kernels.search.rollout``: ``pimc`` and ``rollout`` under every preset, the base
game as the auction-pitch preset) and ``search.hint`` (``table.clock.side_choice`` is
the same rule in Python).

The choice values what the side needs: the pitcher's side ranks cards by the number of
worlds in which it reaches the bid, then by the points it takes; the defenders by the
number in which the bid is set, then by the fewest points for the pitcher's side.  With
no bid given (``bid`` 0: every level asked at once) reaching it is certain, so the
pitcher's side plays for the most points and the defenders for the fewest.  Ties (all
cards alike in every world drawn) go to the prior, the card ``heuristic`` would play.
pimc chooses so under every preset (the solver values the pitcher's side's points
only); the presets' ``rollout`` plays for the score difference instead
(``kernels.search.rollout``; ``scripts/compare_objectives.py``, docs/search.md).
"""

import numpy as np
from numba import njit

from ..bits import lowest_card, popcount

# The solver's transposition table for one decision (reused across its worlds): 2**12
# entries (~400 kB) cost little to make, and solve mid-hand positions as fast as
# bigger ones.  In the first two tricks (more than 4 cards a hand) whole deals are
# solved, every lead or reply exactly, and a small table thrashes: one 7-player world at
# the opening lead took 25 CPU-s with 2**12 entries, 3.0 with 2**16 (~7 MB, a few ms to
# make), 1.1 with 2**20 (issue 19's note).
DD_TABLE_BITS = 12
DD_EARLY_TABLE_BITS = 16
# Only at 5-7 players: at 2-4 the small table solves early decisions in about a
# millisecond, less than making the big one would cost.
EARLY_TABLE_PLAYERS = 5
# A pimc decision in play (play, tournament, study runs) stops solving worlds after this
# many solver nodes and decides on the worlds solved (none: ``heuristic``'s card).
# Counted in nodes, not seconds, so a game is the same on any machine and thread count.
# Few decisions come near it but at 6-7 players in the first tricks, where one world
# can take minutes (issue 19): about 2-3 s of search at 7 players on the reference
# machine (scripts/bench_solve.py: ~8-10 M nodes a second).
PLAY_NODES = 20_000_000


@njit(cache=True, inline="always")
def _score(out, j, kept, bid, big):
    """Card j's rank from ``out[j, :kept]``: the worlds reaching the bid, then points."""
    made = 0
    total = 0
    for w in range(kept):
        p = out[j, w]
        total += p
        made += p >= bid
    return made * big + total


@njit(cache=True)
def choose_by_outcomes(cards, out, kept, our_side, bid, prior):
    """The card the side wants most (see the module) from ``out[:, :kept]`` (the
    pitcher's side's points, 0 or more, under any preset); ``prior`` wins ties."""
    top = 0
    for j in range(cards.size):
        for w in range(kept):
            top = max(top, out[j, w])
    big = kept * top + 1  # more than any card's total: reaching the bid ranks first
    best = prior
    best_score = -(1 << 62)
    for j in range(cards.size):
        score = _score(out, j, kept, bid, big)
        if not our_side:
            score = -score
        if score > best_score or (score == best_score and cards[j] == prior):
            best_score = score
            best = cards[j]
    return best


@njit(cache=True, inline="always")
def ascending_cards(mask):
    """The cards of ``mask`` in ascending order (the order of ``out``'s rows)."""
    cards = np.empty(popcount(mask), dtype=np.int64)
    for j in range(cards.size):
        cards[j] = lowest_card(mask)
        mask &= mask - 1
    return cards
