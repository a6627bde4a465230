"""Chosen deals of a run played (again) on the preset kernels, or solved with every hand
open: the kernels of ``compare_policies.py`` and ``make_search_report.py``.

Deal ``d`` of ``seed`` is dealt from its own key (seed, d) by the preset kernels' dealer
(``simulate.study_play_fixed``; under auction-pitch the base game's hands:
tests/test_one_deal.py), seat 0 pitching, seat n-1 dealing.  So deals picked by index
from a first run (say those where the pitcher led an A-x-x trump holding) can be played
again under another play model, with the trump the first run's pitcher led, and only
the play differs (paired).  (These were ``kernels/replay.py`` on the base game's own
hand loop until issue 28 moved every preset onto ``kernels/``.)
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from pitchsim.game.rules import Rules
from pitchsim.kernels.bits import bit, suit_mask
from pitchsim.kernels.deal import deal_cards
from pitchsim.kernels.play import any_search
from pitchsim.kernels.presets import rules_array, rules_table
from pitchsim.kernels.rng import deal_key
from pitchsim.kernels.score import PLAIN_AWARDS, side_flags_of, side_of
from pitchsim.kernels.search.solver import new_table, solve_position
from pitchsim.kernels.simulate import hand_scratch, study_play_fixed
from pitchsim.table.boards import kernel_play_array

PITCHER = 0
BLOCK = 4096
SEARCH_BLOCK = 8  # a searching seat makes a deal cost 10**3-10**5 times a heuristic one
SOLVE_CHUNKS = 64  # deals are solved in this many chunks, one transposition table each


@njit(cache=True, parallel=True, nogil=True)
def play_deals(seed, deals, n, bid, policies, fr, tab, trumps, out_flags, out_trump, out_hand):
    """Play deal ``deals[i]`` of ``seed`` with seat 0 pitching (``trumps[i]`` >= 0: the
    pitcher leads that suit; -1: his policy's choice); the search seats aim at ``bid``
    (0: the most points).  ``out_flags[i]`` bit j = ``PLAIN_AWARDS[j]`` (High, Low, Jack,
    Game) went to the pitcher's side; ``out_trump[i]``; ``out_hand[i]`` the pitcher's
    hand (when its size > 0)."""
    no_log = np.empty(0, dtype=np.int64)
    m = deals.size
    block = SEARCH_BLOCK if any_search(policies, n) else BLOCK
    mine = side_of(PITCHER, fr)
    for b in prange((m + block - 1) // block):
        deck, dealt, held, hands, won, trick, tseats, _, _, junk = hand_scratch(n)
        for i in range(b * block, min(m, (b + 1) * block)):
            trump, _, _, _, _, _ = study_play_fixed(
                deal_key(seed, deals[i]), n, n - 1, PITCHER, bid, np.int64(0), trumps[i],
                policies, fr, tab, deck, dealt, held, hands, won, trick, tseats, no_log,
                no_log, junk,
            )  # fmt: skip
            flags = side_flags_of(held, won, n, trump, fr, tab, mine)
            f = np.int64(0)
            for j in range(4):
                f |= ((flags >> PLAIN_AWARDS[j]) & 1) << j
            out_flags[i] = f
            out_trump[i] = trump
            if out_hand.size > 0:
                out_hand[i] = dealt[PITCHER]


def preset_run(
    seed: int,
    deals: np.ndarray,
    n: int,
    rules: Rules,
    policies: np.ndarray,
    trumps: np.ndarray,
    bid: int = 0,
    with_hand: bool = False,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``play_deals`` for ``rules`` and the play-policy ids ``policies`` (as
    ``table.policies.seat_policies`` gives them): (flags, trump, pitcher's hand)."""
    fr, tab = rules_array(rules), rules_table(rules)
    pol = kernel_play_array([int(p) for p in policies])
    m = deals.size
    flags, trump = np.empty(m, np.int64), np.empty(m, np.int64)
    hand = np.empty(m if with_hand else 0, np.int64)
    play_deals(
        seed, np.ascontiguousarray(deals, np.int64), n, bid, pol, fr, tab,
        np.ascontiguousarray(trumps, np.int64), flags, trump, hand,
    )  # fmt: skip
    return flags, trump, hand


@njit(cache=True)
def solve_with_trump(dealt, n, trump, rules, table, hands, won, trick):
    """The double-dummy value (0-4) of a whole deal of the base game when the pitcher
    (seat 0) must open with a card of ``trump``: the best of those leads (any lead when
    he holds none)."""
    lead_from = dealt[PITCHER] & suit_mask(trump)
    if lead_from == 0:
        lead_from = dealt[PITCHER]
    best = -1
    for c in range(52):
        if not lead_from & bit(c):
            continue
        for s in range(n):
            hands[s] = dealt[s]
            won[s] = 0
        hands[PITCHER] &= ~bit(c)
        trick[0] = c
        v = solve_position(hands, won, dealt, n, PITCHER, trick, 1, c // 13, PITCHER, rules, table)
        if v > best:
            best = v
    return best


@njit(cache=True, parallel=True)
def solve_deals_with_trump(seed, deals, n, fr, trumps, rules, out_value):
    """``out_value[i]``: deal ``deals[i]`` (dealt under ``fr``: the same hands as ``play_deals``') solved
    double-dummy under the base game's options ``rules`` (``rules_array``), the pitcher opening with trump
    ``trumps[i]``.  Chunks, not threads, own the tables: the values do not depend on the
    thread count."""
    m = deals.size
    chunks = min(m, SOLVE_CHUNKS)
    for k in prange(chunks):
        table = new_table()
        dealt = np.empty(n, dtype=np.int64)
        hands = np.empty(n, dtype=np.int64)
        won = np.empty(n, dtype=np.int64)
        trick = np.empty(n, dtype=np.int64)
        deck = np.empty(0, dtype=np.int64)  # the hands alone
        for i in range(k * m // chunks, (k + 1) * m // chunks):
            deal_cards(deal_key(seed, deals[i]), n, n - 1, fr, deck, dealt)
            out_value[i] = solve_with_trump(dealt, n, trumps[i], rules, table, hands, won, trick)


def solve_run(seed: int, deals: np.ndarray, n: int, trumps: np.ndarray, rules: Rules):
    out = np.empty(deals.size, np.int64)
    solve_deals_with_trump(
        seed, np.ascontiguousarray(deals, np.int64), n, rules_array(rules),
        np.ascontiguousarray(trumps, np.int64), rules_array(rules), out,
    )  # fmt: skip
    return out
