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
- ``heuristic`` knows every point of the family through ``tab``: a card's *worth* is
  its capture value (jack, jick, jokers, the 10 under game=ten, the 3, the 5), plus 1
  for Low when Low goes to its captor and the card is surely Low (no lower trump
  unseen), plus a tenth of its Game count under game=count.  A card is *safe* when
  no unseen card can beat it.
  - Naming trump (``suit_value``): with 6 cards and no discard, the base game's
    fitted suit count for the printed suit plus the jick, the jokers and the capture
    points held; with a 9-card deal, whose non-trumps are all thrown away after
    naming (4.8), the trumps alone (with the ace and king and their capture values):
    that is its discard rule, the discard itself being automatic.
  - Leading: the pitcher's side pulls trumps with safe trumps (the highest) and
    opens with its highest trump that is worth nothing; once no trump is unseen it
    cashes its point cards.  Defenders lead a safe trump, a side card highest in its
    suit, else the cheapest card.  Point cards are never led unless safe.
  - Following: our side surely winning: give it the card of most worth (the 3, the
    jick, a joker, Low when it goes to its captor...).  Otherwise bank a safe winner
    that is itself worth something; take a trick holding worth with the cheapest
    safe winner; with worth on the table and no safe winner, the highest winner;
    else the cheapest card (least worth, then lowest key): point cards stay home.
"""

import numpy as np
from numba import njit

from ...game.trumps import TRUMP_BASE
from ..bits import highest_card, lowest_card, nth_card, popcount
from ..policies.heuristic import suit_value as base_suit_value
from ..rng import DECISION_COUNTER, below
from .deal import pack_mask
from .tables import (
    F_DISCARD,
    F_FOLLOW,
    F_LOW_DEALT,
    F_PARTNERSHIP,
    T_EFF,
    T_KEY,
    T_SUITS,
    T_TRUMPS,
    T_VALUE,
    T_WORTH,
    T_WORTHY,
)
from .trick import order_cards, trump_order

RANDOM = 0
HEURISTIC = 1
FAMILY_POLICY_IDS = {"random": RANDOM, "heuristic": HEURISTIC}
ALL_52 = np.int64((1 << 52) - 1)
SUIT_BITS = np.int64((1 << 13) - 1)

# The planned opening lead's draw (``lead_in_suit``): the opening lead's decision counter,
# which the play loop leaves undrawn when the lead is planned.
LEAD_PLAN_COUNTER = DECISION_COUNTER


@njit(cache=True, inline="always")
def random_card(legal, key, counter):
    return nth_card(legal, below(key, counter, popcount(legal)))


@njit(cache=True, inline="always")
def random_trump(hand, key, counter):
    plain = hand & ALL_52
    return nth_card(plain, below(key, counter, popcount(plain))) // 13


@njit(cache=True)
def suit_value(hand, t, n, fr, tab):
    """What ``hand`` is worth to the pitcher with ``t`` as trump (see the module).

    Six cards and no discard: the base game's fitted count (``kernels.policies.
    heuristic.suit_value``: High's chance, length, jack, deuce, ten, honours, side
    aces and kings) for the printed suit, plus each trump outside it (the jick, the
    jokers) and each capture point beyond the jack.  A 9-card deal with its discard: a
    count of the trumps alone (every non-trump is thrown away, 4.8), the ace and king,
    and the capture values held."""
    trumps = hand & tab[t, T_TRUMPS]
    if fr[F_DISCARD] == 0:
        plain = hand & ALL_52 & ~(tab[t, T_TRUMPS] & ~(SUIT_BITS << (13 * t)))
        v = base_suit_value(plain, t, n, fr[F_LOW_DEALT] != 0)
        if v < 0:
            v = 0.0 if trumps else -1.0
        extra = trumps & ~(SUIT_BITS << (13 * t))  # the jick, the jokers
        v += 0.45 * popcount(extra)
        m = trumps
        while m:
            c = lowest_card(m)
            m &= m - 1
            worth = tab[t, T_VALUE + c]
            if (c - 13 * t) == 9 and c < 52:
                worth -= 1  # the jack: already in the base count
            v += 0.5 * worth
        return v
    v = 0.0
    m = trumps
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
    best = 0
    best_v = -2.0
    for t in range(4):
        v = suit_value(hand, t, n, fr, tab)
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
def lead_in_suit(policy, suit_cards, key, counter):
    """The pitcher's first lead when he plans a trump suit under trump=first-lead
    (``suit_cards``: his cards of it): the highest (heuristic) or a random one, drawn at
    ``counter``: ``LEAD_PLAN_COUNTER``, the opening lead's own (never an auction's: a
    random lead drawn where the first caller's random call is drawn made the kept deals
    of advise depend on that call)."""
    if policy != RANDOM:  # heuristic, and a search policy outside a hand's play
        return highest_card(suit_cards)
    return random_card(suit_cards, key, counter)


@njit(cache=True, inline="always")
def _side(seat, pitcher, partnership):
    """0 for the pitcher's side, 1 for the defenders."""
    if partnership:
        return (seat ^ pitcher) & 1
    return np.int64(seat != pitcher)


@njit(cache=True, inline="always")
def _key_of(c, trump, led, tab):
    """The card's strength in a trick led in ``led``: its key if trump or led suit."""
    e = tab[trump, T_EFF + c]
    if e == trump or e == led:
        return tab[trump, T_KEY + c]
    return np.int64(-1)


@njit(cache=True, inline="always")
def _top_trump_key(m, trump):
    """The highest order key of the trumps ``m`` (-1: none), by ``trick.trump_order``."""
    return np.int64(-1) if m == 0 else TRUMP_BASE + highest_card(trump_order(m, trump))


@njit(cache=True, inline="always")
def _above(m, trump, k):
    """The trumps of ``m`` whose order key is above ``k`` (any key; below the trumps'
    all of them)."""
    ob = trump_order(m, trump)
    if k >= TRUMP_BASE:
        ob &= ~((np.int64(2) << (k - TRUMP_BASE)) - 1)
    return order_cards(ob, trump)


@njit(cache=True, inline="always")
def _rank_above(m, suit, rank):
    """The cards of ``m`` (one printed suit, ``suit``) ranked above ``rank`` (-1: all)."""
    return m & ~((np.int64(2) << (13 * suit + rank)) - 1) if rank >= 0 else m


@njit(cache=True, inline="always")
def _worth(c, trump, tab):
    """What card ``c`` carries to its captor, in tenths of a point: its capture value,
    Low (the 2 of trump when Low goes to its captor), a tenth of its Game count under
    game=count (``tables.T_WORTH``, worked out once per rules)."""
    return tab[trump, T_WORTH + c]


@njit(cache=True, inline="always")
def _pick(m, trump, tab, most):
    """The card of ``m`` with the least (``most``: the most) worth, ties the lowest key,
    then the lowest card (as selects: the comparisons are data-dependent)."""
    best = -1
    best_score = np.int64(1) << 40
    while m:
        c = lowest_card(m)
        m &= m - 1
        w = _worth(c, trump, tab)
        score = (-w if most else w) * 64 + tab[trump, T_KEY + c]
        better = score < best_score
        best = c if better else best
        best_score = score if better else best_score
    return best


@njit(cache=True, inline="always")
def heuristic_card(
    legal, hand, seat, n, pitcher, trump, trick_no, trick, tseats, count, played, fr, tab
):
    """The policy: forced plays, the first lead's suit and the trick so far (its
    best card, seat and worth) here; the decision, on those integers and ``tab``, in
    ``_decide``, a kernel of its own: inlined into every play loop it tripled the
    family kernels' cold compile (``scripts/compile_times.py``)."""
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
    led = np.int64(-1)
    best_k = np.int64(-1)
    best_trump = False
    winner = np.int64(-1)
    on_table = np.int64(0)
    if count > 0:
        # The trick's best card so far, its seat, and the worth on the table.
        led = tab[trump, T_EFF + trick[0]]
        best_i = 0
        best_k = _key_of(trick[0], trump, led, tab)
        for i in range(count):
            c = trick[i]
            in_trick |= np.int64(1) << c
            on_table += _worth(c, trump, tab)
            k = _key_of(c, trump, led, tab)
            if k > best_k:
                best_k = k
                best_i = i
        winner = tseats[best_i]
        best_trump = tab[trump, T_EFF + trick[best_i]] == trump
    i64 = np.int64  # (no literal types: one compiled _decide for every caller)
    return _decide(
        i64(legal), i64(hand), i64(seat), i64(n), i64(pitcher), i64(trump), i64(trick_no),
        i64(count), i64(played), i64(in_trick), i64(led), i64(best_k), best_trump,
        i64(winner), i64(on_table), fr[F_PARTNERSHIP] != 0, fr[F_FOLLOW] == 2,
        pack_mask(n, fr), tab,
    )  # fmt: skip


@njit(cache=True)
def _decide(
    legal, hand, seat, n, pitcher, trump, trick_no, count, played, in_trick, led, best_k,
    best_trump, winner, on_table, partnership, only, pack, tab,
):  # fmt: skip
    """``heuristic_card``'s choice among two or more legal cards, trump fixed;
    ``led``, ``best_k`` (the trick's best key), ``best_trump``, ``winner`` (its seat)
    and ``on_table`` (the worth in the trick) when following."""
    my_side = _side(seat, pitcher, partnership)
    tm = tab[trump, T_TRUMPS]
    unseen = pack & ~(played | hand | in_trick)
    unseen_trumps = unseen & tm
    top_unseen = _top_trump_key(unseen_trumps, trump)

    # A card's worth (``_worth``) counts Low to its captor on the 2 of trump, surely Low
    # when in play (any other trump may be, but nobody can be sure).
    if count == 0:
        my_trumps = legal & tm
        safe = _above(my_trumps, trump, top_unseen)
        if my_side == 0:
            if safe and unseen_trumps:
                return _pick(safe, trump, tab, False) if trick_no > 0 else _highest(safe, trump)
            if unseen_trumps == 0 and my_trumps:
                return _pick(my_trumps, trump, tab, True)  # all safe: cash points
            plain = my_trumps & ~tab[trump, T_WORTHY]
            if trick_no == 0 and plain:
                return _highest(plain, trump)
        elif safe and unseen_trumps:
            return _highest(safe, trump)
        # A side card highest in its suit: while trumps are out only for defenders and
        # partnerships (a solo pitcher's would be trumped).
        if not only and (unseen_trumps == 0 or my_side == 1 or partnership):
            side = legal & ~tm
            while side:
                c = _highest_rank(side)
                s_mask = SUIT_BITS << ((c // 13) * 13)
                if (
                    unseen & s_mask & ~((np.int64(2) << c) - 1) & ~tm == 0
                    and _worth(c, trump, tab) < 10
                ):
                    return c
                side &= ~s_mask
        return _pick(legal, trump, tab, False)

    ours = _side(winner, pitcher, partnership) == my_side
    # Is an opponent still to play?  (Under follow=only one may have no trump left.)
    opp_after = False
    s = seat
    for _ in range(1, n - count):
        s += 1
        if s == n:
            s = 0  # (no % in the loop: a division per seat)
        if _side(s, pitcher, partnership) != my_side:
            opp_after = True
    best_safe = best_trump and best_k > top_unseen
    if ours and ((not opp_after) or best_safe):
        c = _pick(legal, trump, tab, True)
        if _worth(c, trump, tab) > 0:
            return c
        return _pick(legal, trump, tab, False)
    # The cards that beat the trick's best (any trump above it; over a side card, the
    # led suit's higher cards too), and those of them nobody after can beat, as masks.
    my_trumps = legal & tm
    if best_trump:
        winners = _above(my_trumps, trump, best_k)
    else:
        winners = my_trumps | _rank_above(legal & tab[trump, T_SUITS + led] & ~tm, led, best_k)
    if not opp_after:
        sure = winners
    else:
        sure = _above(winners & tm, trump, top_unseen)
        side_winners = winners & ~tm  # (the led suit's cards, keyed by rank)
        if unseen_trumps == 0 and side_winners:
            rest = unseen & ~tm & (SUIT_BITS << (led * 13))
            top_led = highest_card(rest) - 13 * led if rest else np.int64(-1)
            sure |= _rank_above(side_winners, led, top_led)
    banks = sure & tab[trump, T_WORTHY]
    if banks:
        return _pick(banks, trump, tab, True)
    if ours:
        return _pick(legal, trump, tab, False)
    if sure and (on_table > 0 or sure & ~tm):
        # Take it: a side card if that wins (the lead, cheaply), else the cheapest trump.
        side_sure = sure & ~tm
        return _pick(side_sure if side_sure else sure, trump, tab, False)
    if winners and on_table >= 10:
        top = winners & tm
        return _highest(top, trump) if top else highest_card(winners)
    return _pick(legal, trump, tab, False)


@njit(cache=True, inline="always")
def _highest(m, trump):
    """The highest trump of the trumps ``m`` (``trick.trump_order``)."""
    return lowest_card(order_cards(np.int64(1) << highest_card(trump_order(m, trump)), trump))


@njit(cache=True, inline="always")
def _highest_rank(m):
    """A card of the highest rank in ``m`` (no jokers)."""
    ranks = (m | m >> 13 | m >> 26 | m >> 39) & SUIT_BITS
    r = 12
    while not (ranks >> r) & 1:
        r -= 1
    for s in range(4):
        if m & (np.int64(1) << (s * 13 + r)):
            return s * 13 + r
    return -1


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
