"""A hand of the base game bid and played out by the base kernels, for showing
(``pitchsim play``'s single hands, ``games.rounds``).  Whole games of every preset, the
base game's too, are the family kernels' (``kernels/families/game.py``).

Deal d of a seed draws everything (cards, random calls, random cards) from the stream
(seed, d).
"""

from numba import njit

from . import advisor  # noqa: F401  (supplies choose_bid's advisor branch)
from .auction import run_auction
from .contract import play_contract
from .deal import deal_hands
from .hand import hand_scratch
from .rng import deal_key


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
