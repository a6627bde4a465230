"""The bidding policies' ids and the integer types of the arrays that name them.

The policies themselves are the preset kernels' (``kernels.bidding.calls``, every
preset, the base game as auction-pitch, ``BIDDING_IDS`` the same ids);
``pitchsim.table.bidding`` lists them by name, and ``odds.contract_value`` is the
valuation the ``odds`` bidders weigh a call by.

The ``advisor`` (``kernels.advisor``) compiles only into the family auctions that may
need it: it plays thousands of hands a call, and it runs auctions itself.  As with
search play (``kernels.policies``), family bidding-policy arrays that name it are of
``ADVISOR_DTYPE`` (int32; ``pitchsim.table.boards.seat_ids`` makes them), others
int64, and the id's integer type picks at compile time whether
``bidding.calls.seat_call`` has the advisor's branch.
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
