"""Whole games in kernels: deal, auction, play and settle until a pitcher wins.

Mirrors ``pitchsim.game.reference.game``.  Game g of a seed starts with seat ``g % n``
dealing, and its deal d draws everything (cards, random calls, random cards) from the
stream (seed, g * MAX_DEALS + d): a game is the same on any thread count, and the same
deals come round again when a tournament replays the game with the strategies rotated.
"""

import numpy as np
from numba import njit, prange

from . import advisor  # noqa: F401  (supplies choose_bid's advisor branch)
from .auction import MAX_BID, run_auction
from .contract import MAX_DEALS, play_contract
from .deal import deal_hands
from .hand import hand_scratch
from .rng import deal_key
from .simulate import any_search

BLOCK = 64  # games per parallel block

# One row of a game log: the deal, the auction, the play and the scores after it.
L_DEALER, L_PITCHER, L_BID, L_TRUMP, L_PITCHED, L_MADE = 0, 1, 2, 3, 4, 5
L_CALLS = 6  # n calls, from the dealer's left (0 pass, -1 never asked)


def log_layout(n: int) -> dict[str, int]:
    """Offsets of a game-log row's fields for an n-player table, and its width."""
    at = {"calls": L_CALLS, "dealt": L_CALLS + n, "award": L_CALLS + 2 * n}
    at["scores"] = at["award"] + 4
    at["tricks"] = at["scores"] + n
    at["width"] = at["tricks"] + 6 * (n + 2)
    return at


@njit(cache=True, inline="always")
def play_deal(
    key,
    n,
    dealer,
    scores,
    bidding,
    play,
    rules,
    odds,
    params,
    dealt,
    hands,
    won,
    trick,
    award,
    calls,
    tricks_log,
):
    """Auction, play and settlement of the hands in ``dealt``; ``scores`` are updated.

    Returns (pitcher, bid, trump, pitched card, made, winner): pitcher -1 when all
    passed under the redeal variant; winner -1 while the game goes on.
    """
    pitcher, bid, trump = run_auction(
        dealt, n, dealer, scores, bidding, rules, odds, params, key, calls
    )
    if pitcher < 0:
        return -1, 0, -1, -1, False, -1
    trump, first, made, winner = play_contract(
        key,
        n,
        pitcher,
        bid,
        trump,
        -1,
        dealt,
        scores,
        play,
        rules,
        hands,
        won,
        trick,
        award,
        tricks_log,
    )
    return pitcher, bid, trump, first, made, winner


@njit(cache=True)
def deal_logged(
    seed,
    deal,
    n,
    dealer,
    fixed_hand,
    template,
    force_trump,
    forced_bid,
    bidding,
    play,
    rules,
    odds,
    params,
    scores,
    dealt,
    calls,
    award,
    tricks_log,
):
    """One deal of ``seed`` (seat 0 gets ``fixed_hand`` when non-zero), auction and play,
    for showing: the tricks go to ``tricks_log``.  ``forced_bid`` > 0 replaces the
    auction: the dealer's left bids it and everyone else passes.
    Returns (pitcher, bid, trump, pitched card, made).
    """
    key = deal_key(seed, deal)
    _, hands, won, trick, deck, _ = hand_scratch(n)  # the caller's dealt and award instead
    deal_hands(key, n, 0, fixed_hand, template, deck, dealt)
    if forced_bid > 0:
        calls[:n] = 0
        calls[0] = forced_bid
        pitcher, bid, trump = (dealer + 1) % n, forced_bid, -1
    else:
        pitcher, bid, trump = run_auction(
            dealt, n, dealer, scores, bidding, rules, odds, params, key, calls
        )
        if pitcher < 0:
            return -1, 0, -1, -1, False
    trump, first, made, _ = play_contract(
        key,
        n,
        pitcher,
        bid,
        trump,
        force_trump,
        dealt,
        scores,
        play,
        rules,
        hands,
        won,
        trick,
        award,
        tricks_log,
    )
    return pitcher, bid, trump, first, made


@njit(cache=True)
def play_game(seed, game, n, bidding, play, rules, odds, params, scores, stats, log):
    """Play game ``game`` of ``seed``; return (winner, deals dealt).

    ``winner`` is the winning pitcher's seat, or in a partnership its team (0: seats 0+2,
    1: seats 1+3); -1 if nobody won within MAX_DEALS deals.  ``scores[:n]`` receives the
    final scores; ``stats[seat, bid - 1, 0]`` counts the hands ``seat`` pitched at that
    bid and ``stats[seat, bid - 1, 1]`` those it made.  When ``log.size`` > 0 each deal
    writes a row (see ``log_layout``) while rows remain.
    """
    dealt, hands, won, trick, deck, award = hand_scratch(n)
    template = np.arange(52, dtype=np.int64)
    calls = np.empty(n, dtype=np.int64)
    logging = log.size > 0
    tricks_log = np.empty(6 * (n + 2) if logging else 0, dtype=np.int64)
    width = L_CALLS + 3 * n + 4 + 6 * (n + 2)
    rows = log.size // width if logging else 0
    scores[:n] = 0
    stats[:] = 0
    dealer = game % n
    for d in range(MAX_DEALS):
        key = deal_key(seed, game * MAX_DEALS + d)
        deal_hands(key, n, 0, 0, template, deck, dealt)
        pitcher, bid, trump, first, made, winner = play_deal(
            key,
            n,
            dealer,
            scores,
            bidding,
            play,
            rules,
            odds,
            params,
            dealt,
            hands,
            won,
            trick,
            award,
            calls,
            tricks_log,
        )
        if d < rows:
            _log_row(
                log[d * width : (d + 1) * width],
                n,
                dealer,
                pitcher,
                bid,
                trump,
                first,
                made,
                calls,
                dealt,
                award,
                scores,
                tricks_log,
            )
        if pitcher < 0:
            continue  # thrown in: the same dealer deals again
        stats[pitcher, bid - 1, 0] += 1
        if made:
            stats[pitcher, bid - 1, 1] += 1
        if winner >= 0:
            return winner, d + 1
        dealer = (dealer + 1) % n
    return -1, MAX_DEALS


@njit(cache=True, inline="always")
def _log_row(
    row, n, dealer, pitcher, bid, trump, first, made, calls, dealt, award, scores, tricks_log
):
    row[:] = -1
    row[L_DEALER] = dealer
    row[L_PITCHER] = pitcher
    row[L_BID] = bid
    row[L_TRUMP] = trump
    row[L_PITCHED] = first
    row[L_MADE] = made
    at = L_CALLS
    for i in range(n):
        row[at + i] = calls[i]
        row[at + n + i] = dealt[i]
        row[at + 2 * n + 4 + i] = scores[i]
    if pitcher >= 0:
        for i in range(4):
            row[at + 2 * n + i] = award[i]
        at = L_CALLS + 3 * n + 4
        for i in range(tricks_log.size):
            row[at + i] = tricks_log[i]


@njit(cache=True, parallel=True)
def play_games(
    seed,
    start,
    count,
    n,
    bidding,
    play,
    rules,
    odds,
    params,
    out_winner,
    out_scores,
    out_deals,
    out_stats,
):
    """Games ``start .. start+count-1`` of ``seed``, in parallel blocks.

    Per game: ``out_winner`` (see ``play_game``), ``out_scores[g, :n]`` final scores,
    ``out_deals`` deals dealt (redeals included), ``out_stats[g]`` hands pitched and
    made per seat and bid.  Identical on any thread count.
    """
    no_log = np.empty(0, dtype=np.int64)
    # A game with a searching seat takes seconds: one a block, so both threads have work.
    block = 1 if any_search(play) else BLOCK
    blocks = (count + block - 1) // block
    for b in prange(blocks):
        scores = np.empty(n, dtype=np.int64)
        stats = np.empty((n, MAX_BID, 2), dtype=np.int64)
        for g in range(b * block, min(count, (b + 1) * block)):
            winner, deals = play_game(
                seed, start + g, n, bidding, play, rules, odds, params, scores, stats, no_log
            )
            out_winner[g] = winner
            out_deals[g] = deals
            for s in range(n):
                out_scores[g, s] = scores[s]
                for k in range(MAX_BID):
                    out_stats[g, s, k, 0] = stats[s, k, 0]
                    out_stats[g, s, k, 1] = stats[s, k, 1]
