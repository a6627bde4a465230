"""One known hand under a rule family, many deals: as pitcher or as a defender
(``pitchsim bid-odds --rules FAMILY``), the family's ``kernels.fixed_hand``.

The known hand is the whole deal of its seat: 6 cards, or 9 (10) under deal=9, so
with a draw step the odds are P(make k | these cards dealt), the discard and draw
made by the rules (4.8) after the pitcher's policy names trump.  The other cards of
the pack are dealt around it by ``deal.deal_cards_fixed`` (the dealer is seat n-1,
so seat s gets the s-th run and the stock follows the runs).

A fixed trump: under trump=named the pitcher names it; under trump=first-lead the
pitcher's policy chooses its opening lead among the cards of that printed suit
(``policies.opening_lead_in``, as the base game's fixed trump does), which then fixes
trump as any first lead does.  Under a called partner (12.1) the pitcher calls
pitchsim's card and the sides are the hand's (``partner.after_naming``); the known
hand's points are its side's.
Deal d draws from its own key (seed, d): the same numbers on any thread count.
"""

import numpy as np
from numba import literally, njit, prange

from .bits import popcount
from .borrow import borrowed, keep_alive
from .deal import deal_cards_fixed, takes_stock
from .partner import after_naming, partner_of
from .play import play_hand, play_hand_base
from .policies.cards import (
    any_rules,
    base_shape,
    name_trump,
    opening_lead_base,
    opening_lead_in,
    refuse_unless_base_shape,
)
from .presets import F_PARTNERSHIP, F_TRUMP_NAMED
from .rng import AUCTION_COUNTER, deal_key
from .score import AWARD_VALUES, N_AWARDS, PLAIN_AWARDS, score_hand, score_plain, side_of
from .simulate import borrowed_scratch, plain_flags

PITCHER = 0
AS_DEFENDER = -1  # ``hand_seat``: a defender's seat, taken in turn deal by deal
BLOCK = 2048


@njit(cache=True, inline="always")
def defender_seat(d, n, partnership):
    """The seat holding the hand in deal ``d`` when it defends: every opponent of the
    pitcher (seat 0) in turn, as in the base game's ``kernels.fixed_hand``."""
    if partnership:
        return 1 + 2 * (d % 2)
    return 1 + d % (n - 1)


@njit(cache=True, parallel=True, nogil=True)
def play_fixed(
    seed,
    start,
    count,
    n,
    hand_seat,
    fixed_hand,
    fixed_trump,
    bid,
    policies,
    fr,
    tab,
    out_ours,
    out_all,
    out_trump,
    base,
):
    """Play deals ``start .. start+count-1``: seat 0 pitches (``fixed_trump`` >= 0:
    that suit, else its policy's choice), ``fixed_hand`` sits in ``hand_seat``
    (``AS_DEFENDER``: see :func:`defender_seat`); seat 0's bid is ``bid`` (what the
    search policies aim at: make it or set it; 0, no bid: the most points; heuristic
    and random ignore it).  Per deal: ``out_ours`` the points
    the hand's side won, ``out_all`` every point awarded to anyone, ``out_trump``.

    ``base`` True: the rules are the base game's shape (``policies.base_shape``, else a
    ValueError), compiled in as constants (a kernel of their own: the preset's
    dispatch at compile time, ``plain.play_plain``); None: any rules."""
    if base is not None:
        literally(base)
        refuse_unless_base_shape(fr)
    blocks = (count + BLOCK - 1) // BLOCK
    for b in prange(blocks):
        _play_block(
            seed, start, min(count, (b + 1) * BLOCK), b * BLOCK, n, hand_seat, fixed_hand,
            fixed_trump, bid, policies, fr, tab, out_ours, out_all, out_trump, base,
        )  # fmt: skip


@njit(cache=True, nogil=True)
def play_base_fixed(
    seed, start, count, n, hand_seat, fixed_hand, fixed_trump, bid, policies, fr, tab, out_ours,
    out_all, out_trump,
):  # fmt: skip
    """``play_fixed`` with ``base=True``, for callers in Python: there a call
    with ``base=True`` types its arguments again each time (``literally``), milliseconds
    a call; this passes the literal from compiled code."""
    play_fixed(
        seed, start, count, n, hand_seat, fixed_hand, fixed_trump, bid, policies, fr, tab,
        out_ours, out_all, out_trump, True,
    )  # fmt: skip


def fixed_kernel(fr, policies):
    """The kernel of ``play_fixed``'s arguments (without ``base``) for the rules ``fr``
    and the seats' play ids ``policies``: ``play_base_fixed`` under the base game's
    shape (``policies.base_shape``) when no seat searches (an int64 array), else
    ``play_fixed``: a search takes the time there, and the shape compiled in again for
    it cost a second compile of the search (as ``game.games_kernel``)."""
    plain = policies.dtype == np.int64
    return play_base_fixed if plain and base_shape(fr) else any_rules(play_fixed)


@njit(cache=True, nogil=True)
def _play_block(
    seed, start, stop, first_deal, n, hand_seat, fixed_hand, fixed_trump, bid, policies, fr, tab,
    out_ours, out_all, out_trump, base,
):  # fmt: skip
    """``play_fixed``'s deals ``first_deal .. stop-1``, one block: a function of
    its own, not inlined into the parallel kernel (numba's parallel passes over a body
    holding the hand cost tens of CPU seconds of compile)."""
    # Borrowed views (``borrow``): no reference counting in the loop, nor at the calls
    # that take them; the scratch is kept alive past it.
    policies, fr, tab = borrowed(policies), borrowed(fr), borrowed(tab)
    owned, views = borrowed_scratch(n)
    deck, dealt, held, hands, won, trick, tseats, award, points, junk = views
    no_log = junk[:0]
    partnership = fr[F_PARTNERSHIP] != 0
    # The deck's order matters only to a draw from the stock: without one the deal
    # writes the hands alone (``deal_cards_fixed``).
    deck = deck if takes_stock(fr) else deck[:0]
    for d in range(first_deal, stop):
        deal = start + d
        seat = hand_seat if hand_seat >= 0 else defender_seat(deal, n, partnership)
        key = deal_key(seed, deal)
        size = deal_cards_fixed(key, n, n - 1, seat, fixed_hand, fr, deck, dealt)
        for s in range(n):
            held[s] = dealt[s]
            won[s] = 0
        trump = np.int64(-1)
        first = np.int64(-1)
        kitty = np.int64(0)
        called = np.int64(-1)
        if base is None and fr[F_TRUMP_NAMED] != 0:
            trump = fixed_trump
            if trump < 0:
                trump = name_trump(
                    policies[PITCHER], dealt[PITCHER], n, fr, tab, key, np.int64(AUCTION_COUNTER)
                )
            # the draw (4.8) or the pitcher's kitty (12.2.2, unknown to the odds), and
            # the call of a called partner (12.1.2, 12.1.4)
            _, kitty, called = after_naming(
                held, n, deck, size, np.int64(PITCHER), n - 1, trump, fr, tab, key, junk
            )
        elif fixed_trump >= 0:
            trump = fixed_trump
            if base is None:
                first = opening_lead_in(
                    policies[PITCHER], held[PITCHER], trump, n, np.int64(PITCHER), fr, tab, key, won,
                    trick, tseats,
                )  # fmt: skip
            else:
                first = opening_lead_base(
                    policies[PITCHER], held[PITCHER], trump, n, np.int64(PITCHER), fr, key
                )
        if base is None:
            trump, _ = play_hand(
                held, dealt, kitty, n, np.int64(PITCHER), n - 1, bid, trump, first, called, policies,
                fr, tab, key, hands, won, trick, tseats, no_log, no_log,
            )  # fmt: skip
            partner = partner_of(held, n, np.int64(PITCHER), called)  # 12.1.5
            score_hand(held, won, n, trump, fr, tab, award, points, np.int64(PITCHER), partner)
            total = 0
            for i in range(N_AWARDS):
                if award[i] >= 0:
                    total += AWARD_VALUES[i]
            out_ours[d] = points[seat]
            out_all[d] = total
        else:  # the base game's four points, each worth 1 (``score.score_plain``)
            trump, _ = play_hand_base(
                held, dealt, kitty, n, np.int64(PITCHER), n - 1, bid, trump, first, policies, fr, tab, key,
                hands, won, trick, tseats, no_log, no_log,
            )  # fmt: skip
            score_plain(held, won, n, trump, fr, award)
            out_ours[d] = popcount(plain_flags(award, side_of(seat, fr), partnership))
            total = 0
            for i in PLAIN_AWARDS:
                total += award[i] >= 0
            out_all[d] = total
        out_trump[d] = trump
    keep_alive(owned)
