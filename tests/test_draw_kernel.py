"""The kernels' discard and draw (pitchsim/kernels/draw.py) by its parts, and whole
against the reference engine for the presets that rob (docs/rules.md 4.8): the stock's
next cards taken as a mask with no loop of the deal's length (``stock_cards``), the
robber's rest of the stock as the pack less every card dealt or drawn before him, and
the come-down's lowest-ranking cards by one scatter whether or not the hand holds more
of them (``lowest_ranking_k``).  ``tests/test_families_kernels.py`` checks the same
deal by deal through the play; these fail closer to the cause.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from pitchsim.game.cards import N_RANKS
from pitchsim.game.rules import Rules
from pitchsim.kernels.draw import lowest_ranking_k, stock_cards
from pitchsim.kernels.rng import deal_key
from pitchsim.table.game import _kernel_deal


def test_4_8_3_the_stocks_next_k_cards_are_the_deck_from_its_top():
    rng = random.Random(3)
    for _ in range(40):
        deck = np.array(rng.sample(range(54), 54), dtype=np.int64)
        size = rng.randint(30, 54)
        for top in range(size - 12, size + 1):
            for k in range(0, min(6, size - top) + 1):
                want = sum(1 << int(c) for c in deck[top : top + k])
                assert stock_cards(deck, top, size, k) == want, (top, size, k)


def _lowest(m: int, k: int) -> int:
    """The ``k`` lowest-ranking cards of ``m``, ties in suit order (4.8.5), by sorting."""
    cards = sorted((c for c in range(52) if m >> c & 1), key=lambda c: (c % N_RANKS, c // N_RANKS))
    return sum(1 << c for c in cards[:k])


def test_4_8_5_the_come_downs_lowest_ranking_cards_ties_in_suit_order():
    rng = random.Random(5)
    for _ in range(300):
        m = sum(1 << c for c in rng.sample(range(52), rng.randint(0, 14)))
        for k in range(0, bin(m).count("1") + 3):  # (more than it holds: all of it)
            assert lowest_ranking_k(np.int64(m), k) == _lowest(m, k), (hex(m), k)


@pytest.mark.parametrize(
    "spec, n",
    [
        ("ten-point", 4),  # follow=only: short hands keep short (4.8.4)
        ("ten-point", 5),
        ("ten-point", 6),  # the stock runs out: the robber's rest is empty
        ("seven-point", 4),
        ("cinch", 4),  # rob=dealer (12.7)
        ("ten-point,follow=trump,partnership=false", 5),  # step 4 from the discards
    ],
)
def test_4_8_the_kernels_draw_is_the_reference_engines_where_the_pitcher_robs(spec, n):
    """``table.game``'s deal runs the kernels' draw and the reference's on the same
    stock and raises where the hands differ; the robber's share (4.8.5) included."""
    r = Rules.parse(spec)
    rng = random.Random(7)
    for d in range(150):
        dealer = d % n
        dealt, stock, draw = _kernel_deal(r, n, dealer, np.uint64(deal_key(11, d)))
        pitcher = rng.randrange(n)
        held, _ = draw(dealt, stock, pitcher, rng.randrange(4))
        assert sum(bin(h).count("1") for h in held) <= 6 * n
