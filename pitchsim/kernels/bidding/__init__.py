"""Bidding policies: numba kernels that make one call in the auction from what their
player sees.

This package holds the policies and their ids; ``kernels.dispatch.choose_bid`` hands a
seat's call to its policy by id.

Every policy has the same signature (the bidder's *view*; never another hand)::

    policy(hand, seat, n, dealer, calls, n_calls, high, high_seat, lowest, can_pass,
           scores, rules, odds, params, key, counter) -> (call, trump)

- ``hand``: the bidder's six cards (mask); ``seat``, ``n``, ``dealer``: the table
- ``calls[:n_calls]``: the calls so far in calling order from the dealer's left (0 = pass)
- ``high``/``high_seat``: the high bid so far and who made it (0 / -1: none yet)
- the legal calls are pass (when ``can_pass``) and every bid from ``lowest`` to 4
- ``scores``: game scores before this hand, per seat (partners carry their team's)
- ``odds``/``params``: the make-probability table and its constants (``odds`` policies)
- ``key``, ``counter``: the counter-based random stream of this decision

A policy returns a legal call (0 = pass, 1-4) and the suit it means to lead if it
becomes the pitcher (-1: leave it to the play policy's opening lead).  A 4 is always
bid by pitching: the auction kernel asks the play policy for the card, in that suit.

The ``advisor`` id names the advisor bidder, which bids under the family kernels only
(``kernels.advisor``; ``kernels.dispatch.choose_bid`` raises on it).  It compiles only
into the family auctions that may need it: it plays thousands of hands a call, and it
runs auctions itself.  As with search play (``kernels.policies``), family
bidding-policy arrays that name it are of ``ADVISOR_DTYPE`` (int32;
``pitchsim.games.families.seat_ids`` makes them), others int64, and the id's integer
type picks at compile time whether ``families.bidding.seat_call`` has the advisor's
branch.

To add a policy: write its kernel in this folder, give it the next id below and one
branch in ``kernels.dispatch.choose_bid``; ``pitchsim.games.bidding`` lists it by name.
"""

import numpy as np

RANDOM = 0
HEURISTIC = 1
ODDS = 2
ODDS_GAME = 3  # odds, weighing the game situation
ADVISOR = 4  # simulates every call to the end of the game (pitchsim advise)
BIDDING_POLICY_IDS = {
    "random": RANDOM,
    "heuristic": HEURISTIC,
    "odds": ODDS,
    "odds-game": ODDS_GAME,
    "advisor": ADVISOR,
}
ADVISOR_DTYPE = np.int32  # family bidding-policy arrays that may name the advisor
PLAIN_DTYPE = np.int64  # and those that may not
