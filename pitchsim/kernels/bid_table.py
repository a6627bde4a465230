"""Building the family ``odds`` bidder's table: how many points a pitcher's side takes,
by the heuristic count of the pitcher's best suit (``bidding.expected_take``) and its
holding of that suit's top and bottom trumps (``bidding.odds_row``).

Deal ``d`` of ``seed`` gives seat 0 (left of the dealer, seat n-1) the pitch; under
trump=named it names its best counted suit (then pitchsim's call under a called
partner, 12.1, the discard and draw, 4.8, or the kitty, 12.2), under
first-lead its heuristic first lead fixes trump; everybody plays ``heuristic``.  Per
deal: the table row of seat 0's hand (``bidding.odds_row``), the points its side took,
and a defender's: seat 1's side's, or under a called partner (12.1.6: the pitcher's
side is his and the called card's holder's) seat 2's when seat 1 holds the call.  Deal
d uses the stream (seed, d): the same on any thread count.  ``scripts/make_bid_table.py`` turns these into
P(at least k | bucket).
"""

import numpy as np
from numba import njit, prange

from .bidding.calls import BID_HEURISTIC, NAME_COUNTER, name_suit, odds_row
from .deal import deal_cards
from .partner import after_naming, partner_of
from .play import play_hand
from .policies.cards import HEURISTIC
from .presets import F_TRUMP_NAMED
from .rng import AUCTION_COUNTER, deal_key
from .score import score_hand
from .simulate import hand_scratch

BLOCK = 2048


@njit(cache=True, parallel=True)
def simulate_counts(seed, count, n, fr, tab, out_bucket, out_points, out_defender):
    no_log = np.empty(0, dtype=np.int64)
    players = np.full(n, HEURISTIC, dtype=np.int64)
    blocks = (count + BLOCK - 1) // BLOCK
    for b in prange(blocks):
        deck, dealt, held, hands, won, trick, tseats, award, points, junk = hand_scratch(n)
        for d in range(b * BLOCK, min(count, (b + 1) * BLOCK)):
            key = deal_key(seed, d)
            size = deal_cards(key, n, n - 1, fr, deck, dealt)
            for s in range(n):
                held[s] = dealt[s]
            _, row = odds_row(dealt[0], n, fr, tab)
            trump = -1
            kitty = np.int64(0)
            called = np.int64(-1)
            if fr[F_TRUMP_NAMED] != 0:
                trump = name_suit(
                    np.int64(BID_HEURISTIC),
                    dealt[0],
                    n,
                    fr,
                    tab,
                    key,
                    AUCTION_COUNTER + NAME_COUNTER,
                )
                # the call (12.1.2), the discard and draw (4.8) or the kitty (12.2.2), and
                # an announced call (12.1.4), as a hand of the game goes
                _, kitty, called = after_naming(
                    held, n, deck, size, np.int64(0), n - 1, trump, fr, tab, key, junk
                )
            trump, _ = play_hand(
                held, dealt, kitty, n, np.int64(0), n - 1, np.int64(1), trump, np.int64(-1),
                called, players, fr, tab, key, hands, won, trick, tseats, no_log, no_log,
            )  # fmt: skip
            # 12.1.6: under a called partner the pitcher and the card's holder score as one
            # side, so seat 0's points are his side's; the defender is the first seat
            # after him not on that side (seat 1 may be the partner, scoring the side's)
            partner = partner_of(held, n, np.int64(0), called)
            score_hand(held, won, n, trump, fr, tab, award, points, np.int64(0), partner)
            out_bucket[d] = row
            out_points[d] = points[0]
            out_defender[d] = points[2] if partner == 1 else points[1]
