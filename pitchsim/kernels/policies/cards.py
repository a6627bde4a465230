"""Play and trump-naming policies for the rule families, and their dispatch.

Policy ids as the base game's (``kernels.policies``): ``RANDOM`` 0, ``HEURISTIC`` 1.
Every card policy takes what its player sees, positionally::

    (legal, hand, seat, n, pitcher, bid, trump, trick_no, trick, tseats, count,
     played, won, fr, tab, key, counter) -> card

``trick[:count]`` are the cards of this trick in play order and ``tseats[:count]``
who played them (under follow=only players with no trump are skipped); ``trump`` is
-1 while the pitcher's first card is still to fix it (trump=first-lead).

- ``random``: a legal card uniformly; names the suit of a random card of its hand
  (what a random first lead does under trump=first-lead).
- ``heuristic``: the base game's card play (``kernels.policies.heuristic.decide``), one
  policy for every preset, given this preset's masks from ``tab``: its trumps (jick and
  jokers in trump order), the cards worth points to their captor, Game's count only
  under game=count.  Under auction-pitch it plays the base kernels' cards exactly.
  - Naming trump (``suit_value``): with 6 cards and no discard, the base game's
    fitted suit count for the printed suit plus the jick, the jokers and the capture
    points held; with a 9-card deal, whose non-trumps are all thrown away after
    naming (4.8), the trumps alone (with the ace and king and their capture values):
    that is its discard rule, the discard itself being automatic.
  - The opening lead under trump=first-lead: the suit ``suit_value`` likes best.
"""

import numpy as np
from numba import njit

from ..bits import highest_card, lowest_card, nth_card, popcount
from ..deal import pack_mask
from ..presets import (
    F_DISCARD,
    F_FIVE,
    F_FOLLOW,
    F_GAME_TEN,
    F_JICK,
    F_JOKERS,
    F_LOW_DEALT,
    F_OUT,
    F_PARTNERSHIP,
    F_THREE,
    F_TRUMP_NAMED,
    FIVE_PEDRO,
    FOLLOW_ONLY,
    T_EFF,
    T_KEY,
    T_POINTS,
    T_SUITS,
    T_TRUMPS,
    T_VALUE,
)
from ..rng import DECISION_COUNTER, below
from ..trump_order import highest_trump
from .heuristic import choose_trump, decide
from .heuristic import suit_value as base_suit_value

RANDOM = 0
HEURISTIC = 1
PLAIN_POLICY_IDS = {"random": RANDOM, "heuristic": HEURISTIC}
ALL_52 = np.int64((1 << 52) - 1)
SUIT_BITS = np.int64((1 << 13) - 1)

MAX_TRICK = 8  # cards in a trick: one a seat


@njit(cache=True, inline="always")
def random_card(legal, key, counter):
    return nth_card(legal, below(key, counter, popcount(legal)))


@njit(cache=True, inline="always")
def random_trump(hand, key, counter):
    plain = hand & ALL_52
    return nth_card(plain, below(key, counter, popcount(plain))) // 13


@njit(cache=True, inline="always")
def suit_value(hand, t, n, fr, tab):
    """What ``hand`` is worth to the pitcher with ``t`` as trump (see the module).

    Six cards and no discard: the base game's fitted count (``kernels.policies.
    heuristic.suit_value``: High's chance, length, jack, deuce, ten, honours, side
    aces and kings) for the printed suit, plus each trump outside it (the jick, the
    jokers) and each capture point beyond the jack.  A 9-card deal with its discard: a
    count of the trumps alone (every non-trump is thrown away, 4.8), the ace and king,
    and the capture values held."""
    if fr[F_DISCARD] == 0:
        return _count_value(hand, t, n, fr, tab)
    return _discard_value(hand, t, fr, tab)


@njit(cache=True, inline="always")
def _count_value(hand, t, n, fr, tab):
    """``suit_value`` without a discard."""
    trumps = hand & tab[t, T_TRUMPS]
    extra = trumps & ~(SUIT_BITS << (13 * t))  # the jick, the jokers
    v = base_suit_value(hand & ALL_52 & ~extra, t, n, fr[F_LOW_DEALT] != 0)
    if v < 0:
        v = 0.0 if trumps else -1.0
    if extra:
        v += 0.45 * popcount(extra)
    # Each capture point beyond the jack's (already in the base count): none in
    # the base game, so no loop there (this runs for each suit of every first lead).
    m = trumps & tab[t, T_POINTS] & ~(np.int64(1) << (13 * t + 9))
    while m:
        c = lowest_card(m)
        m &= m - 1
        v += 0.5 * tab[t, T_VALUE + c]
    return v


@njit(cache=True, inline="always")
def _discard_value(hand, t, fr, tab):
    """``suit_value`` under a discard (4.8): the trumps alone."""
    v = 0.0
    m = hand & tab[t, T_TRUMPS]
    while m:
        c = lowest_card(m)
        m &= m - 1
        k = tab[t, T_KEY + c]
        v += 1.0 + 0.6 * tab[t, T_VALUE + c]
        if k == 31:
            v += 1.2  # the ace: High, and a card that takes tricks
        elif k == 30:
            v += 0.5
    if fr[F_LOW_DEALT] != 0 and hand & (np.int64(1) << (t * 13)):
        v += 0.6
    return v


@njit(cache=True)
def heuristic_trump(hand, n, fr, tab):
    """The suit ``suit_value`` likes best (ties: the lowest).  The preset's form is
    chosen once, outside the loop over the suits: a test inside it held both forms in
    the loop, twice as slow (56 against 30 ns under smear)."""
    if fr[F_DISCARD] == 0:
        return _best_suit(hand, n, fr, tab, False)
    return _best_suit(hand, n, fr, tab, True)


@njit(cache=True, inline="always")
def _best_suit(hand, n, fr, tab, discard):
    best = 0
    best_v = -2.0
    for t in range(4):
        v = _discard_value(hand, t, fr, tab) if discard else _count_value(hand, t, n, fr, tab)
        if v > best_v:
            best_v = v
            best = t
    return best


@njit(cache=True, inline="always")
def name_trump(policy, hand, n, fr, tab, key, counter):
    """The suit the pitcher names (trump=named)."""
    if policy != RANDOM:  # heuristic, and a search policy outside a hand's play
        return heuristic_trump(hand, n, fr, tab)
    return random_trump(hand, key, counter)


@njit(cache=True, inline="always")
def opening_lead_in(policy, hand, suit, n, pitcher, fr, tab, key, won, trick, tseats):
    """The pitcher's first card when his trump is fixed to ``suit`` before play under
    trump=first-lead (``bid-odds --trump``, a hand studied with its trump, the advisor's
    planned trump in a game and its seat, ``table.decide``): his play policy's
    choice among his cards of that printed suit, as the reference engine's planned lead
    (``legal_cards``' ``lead_suit``); -1 when he holds none (no lead forced).  Drawn
    at the opening lead's own counter, never an auction's.  ``won``, ``trick``,
    ``tseats``: scratch of size n (an empty trick; not read)."""
    legal = hand & (SUIT_BITS << (suit * 13))
    if legal == 0:
        return -1
    return choose_card(
        policy, legal, hand, pitcher, n, pitcher, np.int64(0), suit, np.int64(0), trick, tseats, np.int64(0), np.int64(0),
        won, fr, tab, key, np.int64(DECISION_COUNTER),
    )  # fmt: skip


@njit(cache=True, inline="always")
def opening_lead_base(policy, hand, suit, n, pitcher, fr, key):
    """``opening_lead_in`` under the base game's shape (``base_shape``): there
    ``decide``'s base-game call plays the same card as ``heuristic_card``'s with the
    preset's masks (as ``opening_lead_plain``), and a kernel compiles one ``decide``."""
    legal = hand & (SUIT_BITS << (suit * 13))
    if legal == 0:
        return -1
    if policy == RANDOM:
        return random_card(legal, key, np.int64(DECISION_COUNTER))
    if legal & (legal - 1) == 0:
        return lowest_card(legal)
    partnership, low_dealt, _, _, _ = heuristic_preset(n, fr)
    i64 = np.int64
    return decide(
        i64(legal), i64(hand), i64(pitcher), i64(n), pitcher, i64(suit), i64(0), i64(0),
        i64(pitcher), i64(0), i64(0), i64(0), i64(-1), partnership, low_dealt,
    )  # fmt: skip


@njit(cache=True, inline="always")
def heuristic_card(
    legal, hand, seat, n, pitcher, trump, trick_no, trick, tseats, count, played, fr, tab
):
    """The policy: forced plays, the first lead's suit and the trick so far (its led
    suit, best card and seat) here; the decision in ``policies.heuristic.decide``, the
    base game's, on this preset's masks (a kernel of its own: inlined into every play
    loop it tripled the family kernels' cold compile)."""
    if legal & (legal - 1) == 0:
        return lowest_card(legal)
    if trump < 0:
        # The opening lead fixes trump by its printed suit: lead in our best suit.
        trump = heuristic_trump(hand, n, fr, tab)
        printed = legal & (SUIT_BITS << (trump * 13))
        if printed:
            legal = printed
        if legal & (legal - 1) == 0:
            return lowest_card(legal)
    in_trick = np.int64(0)
    led_mask = np.int64(0)
    winner = np.int64(-1)
    leader = seat
    if count > 0:
        # The trick's best card so far (``plain._winning_bit``: the highest trump in
        # trump order, else the highest card of the led suit) and who played it.
        for i in range(MAX_TRICK):
            if i == count:  # (an early exit: no vector code for a handful of cards)
                break
            in_trick |= np.int64(1) << trick[i]
        tm = tab[trump, T_TRUMPS]
        led_mask = tab[trump, T_SUITS + tab[trump, T_EFF + trick[0]]]
        top = in_trick & tm
        if plain_trumps(fr):  # (the suit's order is the trumps' order)
            best = highest_card(top if top else in_trick & led_mask)
        elif top:
            best = highest_trump(top, trump)
        else:
            best = highest_card(in_trick & led_mask)
        for i in range(count):
            if trick[i] == best:
                winner = tseats[i]
                break
        leader = tseats[0]
    partnership, low_dealt, count_game, pack, plain = heuristic_preset(n, fr)
    tm, pts, three, five = heuristic_trump_masks(trump, fr, tab)
    i64 = np.int64  # (no literal types: one compiled ``decide`` for every caller)
    return decide(
        i64(legal), i64(hand), i64(seat), i64(n), i64(pitcher), i64(trump), i64(trick_no),
        i64(count), i64(leader), i64(played), in_trick, led_mask, i64(winner), partnership,
        low_dealt, tm, pts, three, five, count_game, pack, plain,
    )  # fmt: skip


@njit(cache=True, inline="always")
def opening_lead_plain(legal, hand, seat, n, pitcher, played, partnership, low_dealt):
    """``heuristic_card``'s opening lead that fixes trump, under the base game's trumps
    and points (``plain_trumps``): there ``suit_value`` is the base game's count, so
    its suit is ``choose_trump``'s, and the card ``decide``'s base-game call's (the same card,
    with the preset's masks folded to constants).  ``pitcher`` goes to ``decide`` as
    typed: a constant where the caller's is (bid-odds' seat 0: ``plain.plain_base``)."""
    trump = choose_trump(hand, n, low_dealt)
    printed = legal & (SUIT_BITS << (trump * 13))
    if printed:
        legal = printed
    if legal & (legal - 1) == 0:
        return lowest_card(legal)
    i64 = np.int64
    return decide(
        i64(legal), i64(hand), i64(seat), i64(n), pitcher, i64(trump), i64(0), i64(0),
        i64(seat), i64(played), i64(0), i64(0), i64(-1), partnership, low_dealt,
    )  # fmt: skip


@njit(cache=True, inline="always")
def heuristic_preset(n, fr):
    """What ``decide`` reads of the preset, the same all hand: partnership, Low to the
    holder of the lowest trump dealt, Game by count, the pack, the base game's trumps."""
    plain = (fr[F_JICK] == 0) & (fr[F_JOKERS] == 0) & (fr[F_FIVE] != FIVE_PEDRO)
    return (
        fr[F_PARTNERSHIP] != 0, fr[F_LOW_DEALT] != 0, fr[F_GAME_TEN] == 0, pack_mask(n, fr),
        plain,
    )  # fmt: skip


@njit(cache=True, inline="always")
def heuristic_trump_masks(trump, fr, tab):
    """What ``decide`` reads of trump ``trump`` (>= 0): the trumps, the point cards, and
    the 3 and the 5 of trump when the preset scores them (none otherwise); under
    five=pedro both pedros as the cards worth 5 (12.6)."""
    base = 13 * trump
    i64 = np.int64
    return (
        tab[trump, T_TRUMPS], tab[trump, T_POINTS],
        (i64(1) << (base + 1)) & -i64(fr[F_THREE] != 0),
        (i64(1) << (base + 3)) & -i64(fr[F_FIVE] != 0)
        | (i64(1) << ((3 - trump) * 13 + 3)) & -i64(fr[F_FIVE] == FIVE_PEDRO),
    )  # fmt: skip


@njit(cache=True, inline="always")
def plain_trumps(fr):
    """The base game's trumps, points and pack: one printed suit (no jick, no jokers),
    its jack the only card worth a point to its captor, Game by count, the whole pack
    of 52 (no short pack, 12.3: ``decide``'s base-game call reasons about the 52)."""
    return (
        (fr[F_JICK] == 0)
        & (fr[F_JOKERS] == 0)
        & (fr[F_OUT] == 0)
        & (fr[F_THREE] == 0)
        & (fr[F_FIVE] == 0)
        & (fr[F_GAME_TEN] == 0)
    )


def any_rules(kernel):
    """``kernel`` (a kernel ending in ``base``) for any rules, called from Python: its
    ``base`` passed as None.  Never left to a default: numba types an omitted argument
    apart from a passed None and compiles the whole kernel again for it (minutes of
    compile per signature)."""

    def call(*args):
        return kernel(*args, None)

    call.kernel = kernel
    return call


@njit(cache=True)
def base_shape(fr):
    """The base game's shape (auction-pitch): its trumps and points (``plain_trumps``),
    trump fixed by the first lead, no discard, no follow=only: what the kernels compile
    in as constants when told ``base`` (``fixed_hand.play_fixed``)."""
    return (
        plain_trumps(fr)
        & (fr[F_TRUMP_NAMED] == 0)
        & (fr[F_DISCARD] == 0)
        & (fr[F_FOLLOW] != FOLLOW_ONLY)
    )


@njit(cache=True, inline="always")
def refuse_unless_base_shape(fr):
    """What a kernel told ``base`` True checks first: its rules are the base game's
    shape (``base_shape``), else a ValueError (constants compiled in for other rules
    would play another game)."""
    if not base_shape(fr):
        raise ValueError("base=True with rules that are not the base game's shape")


@njit(cache=True, inline="always")
def choose_card(
    policy,
    legal,
    hand,
    seat,
    n,
    pitcher,
    bid,
    trump,
    trick_no,
    trick,
    tseats,
    count,
    played,
    won,
    fr,
    tab,
    key,
    counter,
):
    """Dispatch one seat's card to its policy by id."""
    if policy != RANDOM:  # heuristic, and a search policy outside a hand's play
        return heuristic_card(
            legal, hand, seat, n, pitcher, trump, trick_no, trick, tseats, count, played, fr, tab
        )
    return random_card(legal, key, counter)
