"""``heuristic``: a club player's card play, for the pitcher's side and the defenders.

Sides: the pitcher (and partner) against everyone else; in a solo game the defenders
all want the pitcher set, so they play as one side.  A card is *safe* when nobody
still to play can beat it: a trump above every unseen trump, or (no unseen trump
left) a side card above every unseen card of its suit; playing last, any winning card
is safe.  The *low trump* is the lowest trump held, on the table or played; while not
yet captured it counts as a point if it is at least even money to be Low (few lower
trumps unseen, given how many unseen cards are still in other hands).

- Trump (the pitcher's opening lead when trump is open): the suit with the most
  expected points (``suit_value``): High's chance from the top trump, length, the jack
  (more when guarded), the deuce, the ten, the A-K-Q and side aces and kings, with
  weights fitted to the points this policy takes (about +0.02-0.03 points a hand over
  a hand-tuned count).
- Leading, pitcher's side.  Opening lead: the top trump if it is safe, else the
  highest trump that is not the jack, the low trump or the ten (those stay back).
  Later: a safe trump while trumps are unseen (pull them); once none is, the jack and
  low trump (safe now), then a side card that is highest of its suit (in a
  partnership such a card is led even while trumps are out); else the cheapest card,
  not a ten.
- Leading, defenders: a safe trump while trumps are unseen, else a side card that is
  highest of its suit (cash an ace while it can still take a trick), else
  the cheapest card, not a ten.
- Following when our side surely wins the trick (our card is best and no opponent
  is still to play, or it is a safe trump): give it points -- a side ten, the jack or
  low trump, side aces, kings, queens and jacks -- keeping safe trumps.
- Following otherwise: a safe winner that is the jack or low trump banks a point.  An
  opponent winning: take the trick with a safe winner if it holds any points or a
  side card does it (side card first, else the lowest safe trump); with a ten, the
  jack or low on the table and no safe winner, play the highest winner and hope.
  Partner winning but an opponent still to play: overtake with a safe winner only
  for a ten, jack or low.  Else the card we least want to keep: a low side card, then
  side jacks and queens, kings, low trumps that are not points, side aces; a ten,
  the jack or the low trump only when nothing else is left.

Every preset plays by this one policy (``kernels.policies.cards`` hands it the
preset's masks): the trumps are the preset's (the jick and jokers too, ranked by
``kernels.trump_order``), the points are every card worth something to its captor (the
jack, the jick, the jokers, the 10 under game=ten, the 3 and the 5, weighted by their
values) besides the low trump, and Game's count weighs only under game=count.  Under a
plain trump suit (no jick, no jokers) each trump step is the card order itself, so the
base game takes the short way and is played exactly as before.

Everything is bit-mask arithmetic on the view (the only loops: the trick so far and,
rarely, the side suits), so a decision costs tens of nanoseconds.
"""

import numpy as np
from numba import njit

from ..bits import (
    HONOURS,
    JACK,
    N_RANKS,
    SUIT_BITS,
    bit,
    game_count,
    highest_card,
    lowest_card,
    popcount,
    suit_mask,
)
from ..trump_order import ABOVE, BELOW, highest_trump, lowest_trump

ACE, KING, QUEEN, TEN = 12, 11, 10, 8
ALL_CARDS = np.int64((1 << 52) - 1)
JOKERS = np.int64(3 << 52)
# One bit per suit at rank 0; shifted left by a rank it selects that rank in every suit.
RANK_ROW = np.int64(1 | 1 << 13 | 1 << 26 | 1 << 39)
TENS = RANK_ROW << TEN
ACES = RANK_ROW << ACE
KINGS = RANK_ROW << KING
QUEENS = RANK_ROW << QUEEN
JACKS = RANK_ROW << JACK


@njit(cache=True, inline="always")
def _suit(card):
    return (card * 5042) >> 16  # card // 13 for 0..51


@njit(cache=True, inline="always")
def _ranks(m):
    """The ranks present in any suit of ``m``, as a 13-bit mask."""
    return (m | m >> 13 | m >> 26 | m >> 39) & SUIT_BITS


@njit(cache=True, inline="always")
def lowest_rank(m):
    """The lowest-ranked card of non-empty ``m`` (ties: the lowest suit)."""
    return lowest_card(m & (RANK_ROW << lowest_card(_ranks(m))))


@njit(cache=True, inline="always")
def highest_rank(m):
    """The highest-ranked card of non-empty ``m`` (ties: the lowest suit)."""
    return lowest_card(m & (RANK_ROW << highest_card(_ranks(m))))


@njit(cache=True, inline="always")
def _above(card):
    """Cards numbered above ``card`` (with a suit mask: the higher ranks of its suit)."""
    return ~((bit(card) << 1) - 1)


@njit(cache=True, inline="always")
def _above_all(m):
    """Cards numbered above every card of ``m`` (all cards when ``m`` is empty)."""
    return ~((np.int64(2) << highest_card(m)) - 1) if m else np.int64(-1)


@njit(cache=True, inline="always")
def _side(seat, pitcher, partnership):
    """0 for the pitcher's side, 1 for the defenders."""
    if partnership:
        return (seat ^ pitcher) & 1
    return np.int64(seat != pitcher)


@njit(cache=True, inline="always")
def _top_trump(m, trump, plain):
    """The highest trump of the trumps ``m`` (non-empty), in trump order."""
    if plain:
        return highest_card(m)
    return highest_trump(m, trump)


@njit(cache=True, inline="always")
def _bottom_trump(m, trump, plain):
    """The lowest trump of the trumps ``m`` (non-empty), in trump order."""
    if plain:
        return lowest_card(m)
    return lowest_trump(m, trump)


@njit(cache=True, inline="always")
def _trumps_above(card, tmask, trump, plain):
    """The trumps of ``tmask`` above the trump ``card`` in trump order."""
    if plain:
        return tmask & _above(card)
    return tmask & ABOVE[trump, card]


@njit(cache=True, inline="always")
def _trumps_above_all(m, tmask, trump, plain):
    """The trumps of ``tmask`` above every trump of ``m`` (all of them when ``m`` is empty)."""
    if plain:
        return tmask & _above_all(m)
    return _trumps_above(_top_trump(m, trump, plain), tmask, trump, plain) if m else tmask


@njit(cache=True, inline="always")
def _low_card(m, trump, plain):
    """``lowest_rank`` of non-empty ``m``; a joker (no rank) only when ``m`` holds nothing
    else, then the lowest of them."""
    if plain:
        return lowest_rank(m)
    ranked = m & ALL_CARDS
    return lowest_rank(ranked) if ranked else _bottom_trump(m, trump, plain)


def _suit_weights(n):
    """Per table size: High's worth with k trumps above ours (k = 0..12), then the
    weights of trump length and of the A, K and Q of trump."""
    q = 1.0 - 6.0 * (n - 1) / (52.0 - 6.0)  # one unseen card is not in another hand
    high = [1.35 * q ** (1.3 * k) for k in range(13)]
    return high + [0.077 + 0.37 * q, 0.6 * (1.0 - q)]


_SUIT_WEIGHTS = np.array([_suit_weights(max(n, 2)) for n in range(8)])


@njit(cache=True)
def suit_value(hand, suit, n, low_dealt):
    """Points the pitcher can expect with ``suit`` as trump (-1: he holds none).

    The form is a club player's count; the weights were fitted (least squares) to the
    points this policy actually takes with each suit as trump, over simulated deals
    at 2-6 players: the top trump is High unless a higher one was dealt
    (probability ``q`` per card above it; ``_SUIT_WEIGHTS`` holds these per table
    size), each trump wins tricks and catches points,
    the jack counts (more with a higher trump to guard it), and so do the deuce, the
    ten of trump, the A-K-Q (more at big tables) and side aces and kings.
    """
    tmask = suit_mask(suit)
    trumps = hand & tmask
    if trumps == 0:
        return -1.0
    top = highest_card(trumps) - suit * N_RANKS
    bottom = lowest_card(trumps) - suit * N_RANKS
    w = _SUIT_WEIGHTS[n]
    v = w[ACE - top] + w[13] * popcount(trumps) + w[14] * popcount(trumps & (ACES | KINGS | QUEENS))
    if bottom == 0 and (low_dealt or trumps != bit(suit * N_RANKS)):
        v += 0.23  # but a lone deuce, led, is simply captured (unless Low goes as dealt)
    elif bottom == 1:
        v += 0.05
    if trumps & JACKS:
        v += 0.47 + (0.22 if top > JACK else 0.0)
    if trumps & TENS:
        v += 0.19
    side = hand & ~tmask
    return v + 0.086 * popcount(side & ACES) + 0.057 * popcount(side & KINGS)


@njit(cache=True)
def choose_trump(hand, n, low_dealt):
    """The suit ``suit_value`` likes best."""
    best = 0
    best_v = -2.0
    for s in range(4):
        v = suit_value(hand, s, n, low_dealt)
        if v > best_v:
            best_v = v
            best = s
    return best


@njit(cache=True, inline="always")
def _first(a, b, c, d):
    """The first non-empty of four masks (0 when all are)."""
    return a if a else (b if b else (c if c else d))


@njit(cache=True, inline="always")
def _cheapest(legal, tmask, points, heavy, trump, plain):
    """The card we least want to keep: a low side card before anything that counts, a
    point of 1 before the 3 and the 5 (``heavy``)."""
    side = legal & ~tmask
    low_side = side & ~HONOURS
    m = _first(low_side, side & (JACKS | QUEENS), side & KINGS, legal & tmask & ~points)
    if m:
        return _low_card(m, trump, plain)
    m = _first(side & ACES, side, legal & ~points, legal & ~heavy)
    return _low_card(m if m else legal, trump, plain)


@njit(cache=True, inline="always")
def _richest(p, heavy, trump, plain):
    """The point card of ``p`` worth most (the 5, then the 3: ``heavy``, highest first),
    else its lowest trump."""
    h = p & heavy
    return highest_card(h) if h else _bottom_trump(p, trump, plain)


@njit(cache=True, inline="always")
def _give(legal, tmask, points, heavy, safe_trumps, tens, trump, plain):
    """The card worth most on a trick our side is sure to win."""
    side = legal & ~tmask
    if side & tens:
        return lowest_card(side & tens)
    p = legal & points
    if p:
        return _richest(p, heavy, trump, plain)
    m = _first(side & ACES, side & KINGS, side & (QUEENS | JACKS), np.int64(0))
    if m:
        return lowest_card(m)
    m = side if side else legal & ~safe_trumps
    return _low_card(m if m else legal, trump, plain)


@njit(cache=True)
def decide(
    legal,
    hand,
    seat,
    n,
    pitcher,
    trump,
    trick_no,
    trick_len,
    leader,
    played,
    in_trick,
    led_mask,
    winner,
    partnership,
    low_to_holder,
    tmask=-1,
    point_cards=-1,
    three=0,
    five=0,
    count_game=True,
    pack=ALL_CARDS,
    plain=True,
):
    """The choice among two or more legal cards, trump fixed, for every preset.

    Called without the preset's masks (the last seven arguments), it plays the base
    game's trumps and points: the trump suit alone, its jack the one card worth a point
    to its captor, Game by count, the pack of 52 (auction-pitch and setback).  Numba
    compiles that call apart with the defaults as constants, which fold away every
    branch on the preset: a fifth of a heuristic hand's time.

    ``led_mask``: the led card's effective suit (when following); ``winner``: who holds
    the trick so far; ``low_to_holder``: Low is its holder's (low=dealt), no point to
    capture; ``tmask`` the trumps; ``point_cards`` the trumps worth a point to
    their captor (the jack; the jick, the jokers, the 10 under game=ten, the 3 and the
    5 where the rules have them), ``three`` and ``five`` those worth 3 and 5;
    ``count_game``: Game's count is a point (game=count); ``pack``: the cards in play
    or unseen; ``plain``: no trump outside the suit (the card order is trump order)."""
    if tmask == -1:  # the base game's masks (no mask of trumps is every bit)
        tmask = suit_mask(trump)
        point_cards = bit(trump * N_RANKS + JACK)
    my_side = _side(seat, pitcher, partnership)
    unseen = pack & ~(played | hand | in_trick)
    unseen_trumps = unseen & tmask
    # The low trump: the lowest trump known to be in play.  It counts as a point while
    # not yet captured and at least even money to be Low (no lower one was dealt), when
    # Low goes to its captor.
    ranked = tmask & ~JOKERS  # (Low is never a joker)
    known = (played | hand | in_trick) & ranked
    if low_to_holder:  # no Low to capture (low=dealt): the low trump is no point
        low = np.int64(0)
        lower = 0
    elif plain:
        low = known & -known
        lower = popcount(unseen_trumps & (low - 1))
    elif known:
        low_card = lowest_trump(known, trump)
        low = bit(low_card)
        lower = popcount(unseen_trumps & ranked & BELOW[trump, low_card])
    else:
        low = np.int64(0)
        lower = popcount(unseen_trumps & ranked)
    others = (n - 1) * (6 - trick_no) - trick_len  # cards in the other hands
    cnt = popcount(unseen)
    # (Bitwise & and | on the conditions, here and below: no branches to mispredict.)
    even_money = (
        (lower == 0)
        | ((lower == 1) & (2 * others <= cnt))
        | ((lower == 2) & (7 * others <= 2 * cnt))
    )
    low = low if even_money & (not low_to_holder) else 0
    points = (point_cards | low) & ~played
    tens = TENS if count_game else np.int64(0)

    if trick_len == 0:
        return _lead(
            legal,
            hand,
            my_side,
            tmask,
            unseen,
            unseen_trumps,
            points,
            trick_no,
            partnership,
            tens,
            three | five,
            trump,
            plain,
        )

    # The trick's best card so far (the caller found who played it: ``winner``).
    top = in_trick & tmask
    best = _top_trump(top, trump, plain) if top else highest_card(in_trick & led_mask)
    ours = _side(winner, pitcher, partnership) == my_side
    # Is an opponent still to play?  Partners sit opposite: the next seat is always
    # an opponent.  Solo: a defender fears only the pitcher.  (Positions from the
    # leader: under follow=only a seat without trumps is passed over.)
    me = seat - leader
    me = me + n if me < 0 else me
    pos = pitcher - leader
    pos = pos + n if pos < 0 else pos
    opp_after = (me < n - 1) if (partnership | (my_side == 0)) else (pos > me)
    if bit(best) & tmask:
        beats_best = _trumps_above(best, tmask, trump, plain)
    else:
        beats_best = tmask | (led_mask & _above(best))
    # Cards that nobody can beat: trumps above every unseen trump; with no unseen trump,
    # side cards above every unseen card of their suit.
    safe_trumps = _trumps_above_all(unseen_trumps, tmask, trump, plain)
    value = 15 * popcount(in_trick & points) + 30 * popcount(in_trick & three)
    value += 60 * popcount(in_trick & five)
    if count_game:
        value += game_count(in_trick)

    if ours & ((not opp_after) | ((bit(best) & safe_trumps) != 0)):
        return _give(legal, tmask, points, three | five, safe_trumps, tens, trump, plain)

    winners = legal & beats_best
    if winners == 0:
        return _cheapest(legal, tmask, points, three | five, trump, plain)
    if not opp_after:
        sure = winners
    else:
        sure = winners & safe_trumps
        if unseen_trumps == 0:
            # Nobody can trump: a led-suit card above every unseen one is safe too.
            lm = led_mask & ~tmask
            top_unseen = unseen & lm
            if top_unseen:
                sure |= winners & lm & _above_all(top_unseen)
            else:
                sure |= winners & lm
    banks = sure & points
    if banks:
        return _richest(banks, three | five, trump, plain)  # a point, safely home
    if ours:
        # Partner wins for now but an opponent is still to play.
        if value >= 10 and sure:
            return _low_card(sure, trump, plain)
        return _cheapest(legal, tmask, points, three | five, trump, plain)
    if sure and (value > 0 or (sure & ~tmask) != 0):
        # Take it: a side card if that wins, else the lowest sure trump.
        side_sure = sure & ~tmask
        return lowest_rank(side_sure) if side_sure else _bottom_trump(sure, trump, plain)
    if value >= 10:
        trumps = winners & tmask
        return _top_trump(trumps, trump, plain) if trumps else highest_card(winners)
    return _cheapest(legal, tmask, points, three | five, trump, plain)


@njit(cache=True, inline="always")
def _lead(
    legal,
    hand,
    my_side,
    tmask,
    unseen,
    unseen_trumps,
    points,
    trick_no,
    partnership,
    tens,
    heavy,
    trump,
    plain,
):
    my_trumps = legal & tmask
    safe = my_trumps & _trumps_above_all(unseen_trumps, tmask, trump, plain)
    if my_side == 0:
        if trick_no == 0 and my_trumps:
            if safe:
                return _top_trump(safe, trump, plain)
            # No master: keep the points and the low back, lead the best of the rest.
            rest = my_trumps & ~points
            rest = rest & ~tens if rest & ~tens else rest
            return _top_trump(rest if rest else my_trumps, trump, plain)
        if unseen_trumps and safe:
            return _top_trump(safe, trump, plain)  # pull trumps
        if unseen_trumps == 0 and my_trumps & points:
            return _bottom_trump(my_trumps & points, trump, plain)  # points, now safe
    elif safe and unseen_trumps:
        return _top_trump(safe, trump, plain)
    if unseen_trumps == 0 or my_side == 1 or partnership:
        # A side card that is highest in its suit (sure when no trump can fall on it).
        side = legal & ~tmask
        m = side
        while m:
            c = highest_card(m)
            s_mask = suit_mask(_suit(c))
            if unseen & s_mask & ~tmask & _above(c) == 0:
                return c
            m &= ~s_mask
    return _cheapest(legal & ~tens if legal & ~tens else legal, tmask, points, heavy, trump, plain)
