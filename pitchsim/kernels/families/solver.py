"""Double-dummy solver for the rule families: the points the pitcher's side holds at the
end of a family hand with every hand open (VARIANTS.md 0.5-0.8, 3.7, 4.9, 4.10).

Entry points (numba ``njit``, positional like every kernel)::

    table = new_family_table()     # transposition table: make once, reuse
    v = solve_family(hands, won, held, n, leader, trick, trick_len, trump, pitcher,
                     fr, tab, table)
    v = family_card_values(hands, won, held, n, leader, trick, trick_len, trump,
                           pitcher, fr, tab, table, out)   # out[54]: -1 where not legal
    table[0, T_BUDGET] = nodes     # optional: the next calls stop after that many nodes

- ``hands[s]``: the cards seat s still holds; ``won[s]``: the cards it captured in
  completed tricks; ``held[s]``: its hand when the first card was led (after any draw):
  the cards in play (0.6), Low's holder under low=dealt, and who played each card of
  the trick in progress (under follow=only seats that are out are skipped, 4.9).
- ``trick[:trick_len]``: the trick in progress from ``leader`` on.  ``trump`` -1 only
  before the opening lead under trump=first-lead: each lead is tried (never a joker,
  6.3.5), its printed suit becoming trump.
- ``fr``, ``tab``: ``tables.family_array`` / ``tables.family_tables`` of the rules.
- The value counts points already captured (and Low under low=dealt).  The pitcher's
  side maximises it, every other seat minimises it.  Every point is its captor's side's:
  High and Low (the highest and lowest non-joker trump in play by the order key; Low
  its holder's under low=dealt), the jack, jick, jokers, the 10 (game=ten), the 3 (3
  points), the 5 (5 points); Game (game=count) to the single highest count of a side,
  a tie to nobody.  Partners pool their points and counts (0.10).
- A node budget, as the base solver's (search on a clock: numba counts nodes, it cannot
  read a clock cheaply): ``table[0, T_BUDGET] = nodes`` makes a call stop once it has
  searched that many nodes and return -1 (``out`` then holds nothing to use), counting
  the stop in ``table[0, T_ABORTED]``; 0 (a new table's) is no budget.  Every call adds
  the nodes it searched to ``table[0, T_NODES]``.  A call that finishes within its
  budget gives exactly the value it gives without one (the budget only stops, it never
  steers the search).  ``table[0, T_SAME] = 1`` before a retry of the same position
  keeps the stopped call's entries, as in the base solver.

How: the value is the largest k the pitcher's side can force, found by binary search
over zero-window searches "can it finish with k?"; each is an alpha-beta search that
stops at the first child that settles it.  Positions at trick boundaries go in a
transposition table storing bounds on the points still to come, keyed by the cards
each seat holds, the leader, trump and the game counts per side (cleared when Game is
already decided either way).  Nothing else of the past matters for the rest of the
hand: under follow=only who is out follows from the hands (a seat without a trump),
and the points already captured are added outside the table.  Quick bounds first:
the points of the cards still held are the most the pitcher's side can add; Game is
settled when one count can no longer be caught.

The search keeps its own stack (numba's cache cannot hold recursive functions, numba
issue 6061).  Not shared with the base game's solver (``kernels/search/solver.py``),
which stays as fast as it is for four points.
"""

import numpy as np
from numba import njit

from ...game.cards import N_CARDS_WITH_JOKERS
from ..bits import game_count, highest_card, lowest_card
from ..search.solver import next_generation
from .play import FOLLOW_ONLY, legal_cards, next_with_trump, trick_winner
from .tables import (
    F_FOLLOW,
    F_GAME_TEN,
    F_LOW_DEALT,
    F_PARTNERSHIP,
    JOKERS,
    T_EFF,
    T_KEY,
    T_RANKED,
    T_SUITS,
    T_TRUMPS,
    T_VALUE,
)

TABLE_BITS = 18
MAX_TABLE_BITS = 28
MAX_SEATS = 7
_K_PACKED, _K_GEN, _K_LO, _K_HI = 7, 8, 9, 10
_COLS = 11
# Row 0 of a table, laid out as the base solver's (kernels/search/solver.py): the
# generation counter, the index mask, nodes searched over all calls, the node budget of
# a call (0: none), the calls stopped by it and T_SAME (1: the next call solves the last
# call's position again and keeps its entries).  (Column 3 unused: the base's searches
# given up.)
T_GEN, T_MASK, T_NODES, T_BUDGET, T_ABORTED, T_SAME = 0, 1, 2, 4, 5, 6
NO_LIMIT = 1 << 62
_MAX_DEPTH = 80  # 7 seats x 10 cards, and a trick already begun
UNKNOWN = 1 << 20

# The context of one solve (constants), one small array.
C_N = 0
C_PITCHER = 1
C_PSIDE = 2
C_PARTNER = 3
C_ONLY = 4
C_GAME = 5  # 1: Game by count is awarded
C_NSIDES = 6
C_GEN = 7
C_NODES = 8
C_FIRST = 9  # 1: the root is the opening lead
C_BASE = 10  # 4 entries: Low's point under low=dealt, per trump
C_ROOT_CARDS = 14  # the cards the root may try (card_values: one at a time)
C_PLAIN = 15  # 4 entries: per trump, the cards worth nothing (no point, no game count)
C_ABORT = 19  # the solve stops (returns -1) when C_NODES reaches this (a budget)
_CTX = 20
NOT_COUNTED = 127  # a side's count that can no longer matter, in the table's key

# One frame per card played.
S_SEAT, S_LEADER, S_J, S_COUNT, S_TRUMP, S_PTS, S_LEGAL, S_HAND = 0, 1, 2, 3, 4, 5, 6, 7
S_ROW, S_PACKED, S_RES, S_SLOT, S_GAIN, S_MAX, S_FIRST_CARD = 8, 9, 10, 11, 12, 13, 14
_FRAME = 15
_ENTER, _NEXT, _RETURN = 0, 1, 2


@njit(cache=True)
def new_family_table(bits=TABLE_BITS):
    """A transposition table of 2**bits rows; row 0 holds the generation counter, the
    index mask, the nodes searched and the node budget (``T_*``)."""
    if bits < 1 or bits > MAX_TABLE_BITS:
        raise ValueError("a transposition table needs 1 to 28 bits")
    t = np.zeros(((1 << bits) + 1, _COLS), dtype=np.int64)
    t[0, T_MASK] = (1 << bits) - 1
    return t


@njit(cache=True, inline="always")
def _side(seat, ctx):
    return seat % 2 if ctx[C_PARTNER] != 0 else seat


@njit(cache=True)
def _setup(ctx, val, hands, won, held, n, trick, trick_len, pitcher, fr, tab):
    """The constants, and ``val[t, c]``: the points card ``c`` brings its captor's side
    with ``t`` trump (High and Low by the cards in play, the capture values)."""
    ctx[:] = 0
    ctx[C_N] = n
    ctx[C_PITCHER] = pitcher
    ctx[C_PARTNER] = fr[F_PARTNERSHIP] != 0
    ctx[C_PSIDE] = _side(pitcher, ctx)
    ctx[C_ONLY] = fr[F_FOLLOW] == FOLLOW_ONLY
    ctx[C_GAME] = fr[F_GAME_TEN] == 0
    ctx[C_NSIDES] = 2 if ctx[C_PARTNER] != 0 else n
    in_play = np.int64(0)
    for s in range(n):
        in_play |= held[s]
    for t in range(4):
        for c in range(N_CARDS_WITH_JOKERS):
            val[t, c] = tab[t, T_VALUE + c]
        ranked = in_play & tab[t, T_RANKED]
        if ranked == 0:
            continue
        hi = lo = lowest_card(ranked)
        m = ranked & (ranked - 1)
        while m:
            c = lowest_card(m)
            m &= m - 1
            if tab[t, T_KEY + c] > tab[t, T_KEY + hi]:
                hi = c
            if tab[t, T_KEY + c] < tab[t, T_KEY + lo]:
                lo = c
        val[t, hi] += 1
        if fr[F_LOW_DEALT] != 0:
            for s in range(n):
                if held[s] >> lo & 1 and _side(s, ctx) == ctx[C_PSIDE]:
                    ctx[C_BASE + t] = 1
        else:
            val[t, lo] += 1
    for t in range(4):
        plain = np.int64(0)
        for c in range(N_CARDS_WITH_JOKERS):
            if val[t, c] == 0 and game_count((np.int64(1) << c) & ~JOKERS) == 0:
                plain |= np.int64(1) << c
        ctx[C_PLAIN + t] = plain


@njit(cache=True, inline="always")
def _game_point(counts, ctx):
    """1 when the pitcher's side has the single highest count (game=count)."""
    if ctx[C_GAME] == 0:
        return 0
    p = counts[ctx[C_PSIDE]]
    for side in range(ctx[C_NSIDES]):
        if side != ctx[C_PSIDE] and counts[side] >= p:
            return 0
    return 1


@njit(cache=True, inline="always")
def _game_state(counts, ctx, left):
    """1: Game is the pitcher's side's whatever happens; -1: out of its reach (or not
    awarded); 0: open.  ``left``: the count of the cards still to be captured."""
    if ctx[C_GAME] == 0:
        return -1
    p = counts[ctx[C_PSIDE]]
    o = -1
    for side in range(ctx[C_NSIDES]):
        if side != ctx[C_PSIDE] and counts[side] > o:
            o = counts[side]
    if p > o + left:
        return 1
    if p + left <= o:
        return -1
    return 0


@njit(cache=True)
def _distinct(legal, hand, alive, trump, ctx, tab):
    """``legal`` less the cards that are one move with a higher card of the same hand:
    both worth nothing (no point, no game count), of one effective suit, and no card
    still alive (held, or in the trick in progress) between them by the order key."""
    plain = ctx[C_PLAIN + trump]
    m = legal & plain
    out = legal
    while m:
        c = lowest_card(m)
        m &= m - 1
        kc = tab[trump, T_KEY + c]
        same = alive & tab[trump, T_SUITS + tab[trump, T_EFF + c]]
        nxt = -1
        kn = np.int64(1 << 30)
        while same:
            x = lowest_card(same)
            same &= same - 1
            k = tab[trump, T_KEY + x]
            if kc < k < kn:
                kn = k
                nxt = x
        if nxt >= 0 and (hand & plain) >> nxt & 1:
            out &= ~(np.int64(1) << c)
    return out


@njit(cache=True)
def _first_card(legal, seat, trick, seats, count, trump, ctx, val, tab):
    """The card to try first: leading, the highest; following, when the seat's side is
    winning the trick the card worth most to it (lowest among equals), else the lowest
    card that beats the trick, else the lowest card worth least."""
    tm = tab[trump, T_TRUMPS]
    if count == 0:
        return _top(legal, trump, tab)
    w = trick_winner(trick, count, trump, tab)
    wc = trick[w]
    led = tab[trump, T_EFF + trick[0]]
    wk = tab[trump, T_KEY + wc] + 64 * (tm >> wc & 1)
    ours = _side(seats[w], ctx) == _side(seat, ctx)
    best = -1
    best_score = np.int64(1 << 40)
    m = legal
    while m:
        c = lowest_card(m)
        m &= m - 1
        e = tab[trump, T_EFF + c]
        k = tab[trump, T_KEY + c] + 64 * (tm >> c & 1)
        beats = (e == trump or e == led) and k > wk
        if ours:
            score = -val[trump, c] * 256 + k
        elif beats:
            score = k
        else:
            score = 4096 + val[trump, c] * 256 + k
        if score < best_score:
            best_score = score
            best = c
    return best


@njit(cache=True, inline="always")
def _top(legal, trump, tab):
    """The highest card of ``legal`` by the order key, trumps above all others."""
    c = highest_card(legal)
    best = np.int64(-1)
    m = legal
    while m:
        x = lowest_card(m)
        m &= m - 1
        k = tab[trump, T_KEY + x] + 64 * (tab[trump, T_TRUMPS] >> x & 1)
        if k > best:
            best = k
            c = x
    return c


@njit(cache=True)
def _boundary_bounds(hands, n, trump, pts, ctx, val, tab):
    """(points sure, points possible) for the pitcher's side from the point cards still
    held, Game aside.  Every point card is a trump and every trump still held will be
    played (4.9 too), so a point card that no other side can beat with a trump it holds
    goes to its holder's side whatever happens (High always does)."""
    tm = tab[trump, T_TRUMPS]
    best_side = -1
    best = np.int64(-1)
    second = np.int64(-1)
    for side in range(ctx[C_NSIDES]):
        top = np.int64(-1)
        for s in range(n):
            if _side(s, ctx) == side:
                m = hands[s] & tm
                while m:
                    c = lowest_card(m)
                    m &= m - 1
                    if tab[trump, T_KEY + c] > top:
                        top = tab[trump, T_KEY + c]
        if top > best:
            second = best
            best = top
            best_side = side
        elif top > second:
            second = top
    lo = pts
    hi = pts
    for s in range(n):
        side = _side(s, ctx)
        others = second if side == best_side else best
        m = hands[s] & tm
        while m:
            c = lowest_card(m)
            m &= m - 1
            v = val[trump, c]
            if v == 0:
                continue
            if side == ctx[C_PSIDE]:
                hi += v
                if tab[trump, T_KEY + c] > others:
                    lo += v
            elif tab[trump, T_KEY + c] < others:
                hi += v  # else the card is surely the other side's
    return lo, hi


@njit(cache=True)
def _key(counts, ctx, leader, trump, rest, g):
    """The packed part of a trick-boundary position's table key (the hands, by name, are
    the rest): leader, trump and the game counts per side, cleared when Game is decided
    (``g``: ``_game_state``) or for a count that can never equal the pitcher side's."""
    if g != 0:
        packed = np.int64(1 + g)  # Game decided: counts do not matter
    else:
        packed = np.int64(3)
        pside = ctx[C_PSIDE]
        p = counts[pside]
        left = game_count(rest)
        for side in range(ctx[C_NSIDES]):
            k = counts[side]
            if side != pside and k + left < p:
                k = NOT_COUNTED  # never the pitcher's side's equal
            packed |= k << (2 + 7 * side)
    return packed | (leader << 58) | (trump << 55)


@njit(cache=True, inline="always")
def _index(hands, n, packed, mask):
    h = np.uint64(packed) * np.uint64(0x9E3779B97F4A7C15)
    for s in range(n):
        h = (h ^ np.uint64(hands[s])) * np.uint64(0xBF58476D1CE4E5B9)
    h ^= h >> np.uint64(31)
    return 1 + np.int64(h & np.uint64(mask))


@njit(cache=True)
def _search(hands, counts, ctx, val, table, fs, plays, pseats, held, fr, tab, root, target):
    """Can the pitcher's side finish with at least ``target`` points?  ``fs[0]`` holds
    the root frame (seat, leader, offset, count, trump, points so far; ``S_LEGAL`` the
    cards the root may try).  ``plays``/``pseats`` from index ``root`` hold the cards
    and seats of the trick the root plays into.  ``hands`` and ``counts`` are changed
    while searching and restored on return -- except on -1 (the node budget spent: the
    whole solve stops, and its copies of them are dropped)."""
    n = ctx[C_N]
    gen = ctx[C_GEN]
    only = ctx[C_ONLY] != 0
    pside = ctx[C_PSIDE]
    d = 0
    phase = _ENTER
    r = 0
    while True:
        if phase == _ENTER:
            ctx[C_NODES] += 1
            if ctx[C_NODES] > ctx[C_ABORT]:
                return -1
            seat = fs[d, S_SEAT]
            leader = fs[d, S_LEADER]
            count = fs[d, S_COUNT]
            trump = fs[d, S_TRUMP]
            pts = fs[d, S_PTS]
            fs[d, S_ROW] = -1
            status = -1
            if count == 0:
                if leader < 0 or hands[leader] == 0:
                    status = 1 if pts + _game_point(counts, ctx) >= target else 0
                elif trump >= 0:
                    rest = np.int64(0)
                    for s in range(n):
                        rest |= hands[s]
                    lo, hi = _boundary_bounds(hands, n, trump, pts, ctx, val, tab)
                    g = _game_state(counts, ctx, game_count(rest))
                    lo += g == 1
                    hi += g >= 0
                    if lo >= target:
                        status = 1
                    elif hi < target:
                        status = 0
                    elif d > 0:  # (the root may be limited to one card: no table)
                        packed = _key(counts, ctx, leader, trump, rest, g)
                        row = _index(hands, n, packed, table[0, T_MASK])
                        hit = table[row, _K_GEN] == gen and table[row, _K_PACKED] == packed
                        for s in range(n):
                            if table[row, s] != hands[s]:
                                hit = False
                        if hit:
                            if pts + table[row, _K_LO] >= target:
                                status = 1
                            elif pts + table[row, _K_HI] < target:
                                status = 0
                        if status < 0:
                            if not hit:
                                table[row, _K_GEN] = gen
                                table[row, _K_PACKED] = packed
                                for s in range(n):
                                    table[row, s] = hands[s]
                                table[row, _K_LO] = lo - pts
                                table[row, _K_HI] = hi - pts
                            fs[d, S_ROW] = row
                            fs[d, S_PACKED] = packed
            if status >= 0:
                r = status
                phase = _RETURN
                continue
            start = root + d - count
            hand = hands[seat]
            first = ctx[C_FIRST] != 0 and d == 0
            legal = legal_cards(hand, plays[start:], count, trump, first, fr, tab)
            if d == 0:
                legal &= ctx[C_ROOT_CARDS]
            fc = -1
            if trump >= 0:
                alive = np.int64(0)
                for s in range(n):
                    alive |= hands[s]
                for k in range(start, start + count):
                    alive |= np.int64(1) << plays[k]
                if d > 0:  # (the root's cards are each valued by card_values)
                    legal = _distinct(legal, hand, alive, trump, ctx, tab)
                if legal:
                    fc = _first_card(
                        legal, seat, plays[start:], pseats[start:], count, trump, ctx, val, tab
                    )
            fs[d, S_FIRST_CARD] = fc
            fs[d, S_LEGAL] = legal
            fs[d, S_HAND] = hand
            fs[d, S_MAX] = _side(seat, ctx) == pside
            fs[d, S_RES] = 0 if fs[d, S_MAX] != 0 else 1
            phase = _NEXT
        elif phase == _NEXT:
            legal = fs[d, S_LEGAL]
            if legal == 0:
                r = fs[d, S_RES]
                phase = _RETURN
                continue
            trump = fs[d, S_TRUMP]
            c = fs[d, S_FIRST_CARD]
            if c >= 0:
                fs[d, S_FIRST_CARD] = -1
            else:
                c = _top(legal, trump, tab) if trump >= 0 else highest_card(legal)
            fs[d, S_LEGAL] = legal & ~(np.int64(1) << c)
            seat = fs[d, S_SEAT]
            leader = fs[d, S_LEADER]
            count = fs[d, S_COUNT]
            pts = fs[d, S_PTS]
            if trump < 0:
                trump = c // 13  # 6.3.5: the first card's printed suit is trump
                pts += ctx[C_BASE + trump]
            hands[seat] = fs[d, S_HAND] & ~(np.int64(1) << c)
            w = root + d
            plays[w] = c
            pseats[w] = seat
            start = w - count
            tm = tab[trump, T_TRUMPS]
            j = fs[d, S_J] + 1
            if only:
                while j < n and hands[(leader + j) % n] & tm == 0:
                    j += 1
            fs[d, S_GAIN] = 0
            e = d + 1
            fs[e, S_TRUMP] = trump
            if j < n:  # the trick goes on
                fs[e, S_SEAT] = (leader + j) % n
                fs[e, S_LEADER] = leader
                fs[e, S_J] = j
                fs[e, S_COUNT] = count + 1
                fs[e, S_PTS] = pts
            else:
                win = pseats[start + trick_winner(plays[start:], count + 1, trump, tab)]
                taken = np.int64(0)
                gained = 0
                for k in range(start, w + 1):
                    taken |= np.int64(1) << plays[k]
                    gained += val[trump, plays[k]]
                slot = _side(win, ctx)
                gc = game_count(taken & ~JOKERS)
                counts[slot] += gc
                fs[d, S_SLOT] = slot
                fs[d, S_GAIN] = gc
                if slot == pside:
                    pts += gained
                nxt = next_with_trump(hands, n, win, tm) if only else win
                fs[e, S_SEAT] = nxt
                fs[e, S_LEADER] = nxt
                fs[e, S_J] = 0
                fs[e, S_COUNT] = 0
                fs[e, S_PTS] = pts
            d = e
            phase = _ENTER
        else:  # _RETURN: frame d settled with r
            row = fs[d, S_ROW]
            if row >= 0 and table[row, _K_GEN] == gen and table[row, _K_PACKED] == fs[d, S_PACKED]:
                same = True
                for s in range(n):
                    if table[row, s] != hands[s]:
                        same = False
                if same:
                    need = target - fs[d, S_PTS]
                    if r == 1:
                        if need > table[row, _K_LO]:
                            table[row, _K_LO] = need
                    elif need - 1 < table[row, _K_HI]:
                        table[row, _K_HI] = need - 1
            if d == 0:
                return r
            d -= 1
            hands[fs[d, S_SEAT]] = fs[d, S_HAND]
            if fs[d, S_GAIN] != 0:
                counts[fs[d, S_SLOT]] -= fs[d, S_GAIN]
            if r == fs[d, S_MAX]:  # a max node proven, or a min node refuted
                fs[d, S_LEGAL] = 0
                fs[d, S_RES] = r
            phase = _NEXT


@njit(cache=True)
def _root(hands, won, held, n, leader, trick, trick_len, trump, pitcher, fr, tab, ctx, val):
    """Prepare a solve: (frames, plays, seats, counts, root index, most points)."""
    _setup(ctx, val, hands, won, held, n, trick, trick_len, pitcher, fr, tab)
    fs = np.zeros((_MAX_DEPTH + 1, _FRAME), dtype=np.int64)
    plays = np.zeros(_MAX_DEPTH + MAX_SEATS + 1, dtype=np.int64)
    pseats = np.zeros(_MAX_DEPTH + MAX_SEATS + 1, dtype=np.int64)
    counts = np.zeros(MAX_SEATS, dtype=np.int64)
    played = np.int64(0)
    for s in range(n):
        played |= won[s]
    for i in range(trick_len):
        played |= np.int64(1) << trick[i]
    ctx[C_FIRST] = played == 0
    pts = 0
    for s in range(n):
        counts[_side(s, ctx)] += game_count(won[s] & ~JOKERS)
        if _side(s, ctx) == ctx[C_PSIDE] and trump >= 0:
            m = won[s]
            while m:
                c = lowest_card(m)
                m &= m - 1
                pts += val[trump, c]
    if trump >= 0:
        pts += ctx[C_BASE + trump]
    # The trick in progress: who played each card (from the hands when play began).
    j = -1
    for i in range(trick_len):
        c = trick[i]
        plays[i] = c
        for s in range(n):
            if held[s] >> c & 1:
                pseats[i] = s
        j = (pseats[i] - leader) % n
    seat = leader
    if trick_len > 0:
        j += 1
        if ctx[C_ONLY] != 0:
            tm = tab[trump, T_TRUMPS]
            while j < n and hands[(leader + j) % n] & tm == 0:
                j += 1
        seat = (leader + j) % n
    else:
        j = 0
    fs[0, S_SEAT] = seat
    fs[0, S_LEADER] = leader
    fs[0, S_J] = j
    fs[0, S_COUNT] = trick_len
    fs[0, S_TRUMP] = trump
    fs[0, S_PTS] = pts
    ctx[C_ROOT_CARDS] = -1
    most = pts + 1
    for t in range(4):
        extra = ctx[C_BASE + t] if trump < 0 else 0
        if trump >= 0 and t != trump:
            continue
        for s in range(n):
            m = hands[s]
            while m:
                c = lowest_card(m)
                m &= m - 1
                extra += val[t, c]
        for i in range(trick_len):
            extra += val[t, trick[i]]
        if pts + extra + 1 > most:
            most = pts + extra + 1
    return fs, plays, pseats, counts, trick_len, pts, most


@njit(cache=True)
def _value(hands, counts, ctx, val, table, fs, plays, pseats, held, fr, tab, root, lo, hi):
    """The largest k in [lo, hi] the pitcher's side can force (binary search); -1 when
    the node budget is spent."""
    while lo < hi:
        mid = (lo + hi + 1) // 2
        r = _search(hands, counts, ctx, val, table, fs, plays, pseats, held, fr, tab, root, mid)
        if r < 0:
            return -1
        if r == 1:
            lo = mid
        else:
            hi = mid - 1
    return lo


@njit(cache=True)
def _finished(hands, n, leader, trick_len, trump, ctx, tab):
    if trick_len > 0:
        return False
    if ctx[C_ONLY] != 0:
        return next_with_trump(hands, n, leader, tab[trump, T_TRUMPS]) < 0
    return hands[leader] == 0


@njit(cache=True)
def solve_family(hands, won, held, n, leader, trick, trick_len, trump, pitcher, fr, tab, table):
    """The points the pitcher's side holds at the end under best play by all."""
    out = np.empty(N_CARDS_WITH_JOKERS, dtype=np.int64)
    return _values(
        hands, won, held, n, leader, trick, trick_len, trump, pitcher, fr, tab, table, out, False
    )


@njit(cache=True)
def family_card_values(
    hands, won, held, n, leader, trick, trick_len, trump, pitcher, fr, tab, table, out
):
    """The position's value; ``out[c]`` the value after each legal card ``c`` of the
    player to move, -1 for every other card."""
    return _values(
        hands, won, held, n, leader, trick, trick_len, trump, pitcher, fr, tab, table, out, True
    )


@njit(cache=True)
def _values(
    hands, won, held, n, leader, trick, trick_len, trump, pitcher, fr, tab, table, out, each
):
    ctx = np.zeros(_CTX, dtype=np.int64)
    v = _solve(
        hands,
        won,
        held,
        n,
        leader,
        trick,
        trick_len,
        trump,
        pitcher,
        fr,
        tab,
        table,
        out,
        each,
        ctx,
    )
    table[0, T_NODES] += ctx[C_NODES]
    if v < 0:
        table[0, T_ABORTED] += 1
    return v


@njit(cache=True)
def _solve(
    hands, won, held, n, leader, trick, trick_len, trump, pitcher, fr, tab, table, out, each, ctx
):
    val = np.zeros((4, N_CARDS_WITH_JOKERS), dtype=np.int64)
    h = hands.copy()
    fs, plays, pseats, counts, root, pts, most = _root(
        h, won, held, n, leader, trick, trick_len, trump, pitcher, fr, tab, ctx, val
    )
    ctx[C_ABORT] = table[0, T_BUDGET] if table[0, T_BUDGET] > 0 else NO_LIMIT
    next_generation(table, T_GEN, T_SAME)  # a fresh one unless the same position again
    ctx[C_GEN] = table[0, T_GEN]
    out[:] = -1
    if trump >= 0 and _finished(h, n, leader, trick_len, trump, ctx, tab):
        return pts + _game_point(counts, ctx)
    if not each:
        return _value(h, counts, ctx, val, table, fs, plays, pseats, held, fr, tab, root, pts, most)
    seat = fs[0, S_SEAT]
    first = ctx[C_FIRST] != 0
    legal = legal_cards(h[seat], plays, trick_len, trump, first, fr, tab)
    best = -1
    worst = 1 << 30
    m = legal
    while m:
        c = lowest_card(m)
        m &= m - 1
        ctx[C_ROOT_CARDS] = np.int64(1) << c
        v = _value(h, counts, ctx, val, table, fs, plays, pseats, held, fr, tab, root, pts, most)
        if v < 0:
            out[:] = -1
            return -1  # out of budget
        out[c] = v
        best = max(best, v)
        worst = min(worst, v)
    return best if _side(seat, ctx) == ctx[C_PSIDE] else worst


@njit(cache=True)
def family_world_values(
    worlds, pby, n, pitcher, trump, leader, trick, trick_len, won, fr, tab, table, cards, out,
    nodes=0,
):  # fmt: skip
    """pimc's valuing: ``out[j, w]`` the double-dummy value (the pitcher's side's points)
    after ``cards[j]`` in world w.  ``worlds[w, :n]`` are the seats' cards now
    (``kernels.families.worlds``; ``worlds[w, n]``, cards put down face down, are out of
    play: in no hand, never in play); ``pby[s]`` the cards seat s has played.  Returns
    (worlds done, nodes searched): a budget of ``nodes`` (0: none) stops at the first
    world it does not finish, which is left out, as the base game's ``dd_outcomes``."""
    hands = np.empty(n, dtype=np.int64)
    held = np.empty(n, dtype=np.int64)
    values = np.empty(N_CARDS_WITH_JOKERS, dtype=np.int64)
    start = table[0, T_NODES]
    table[0, T_BUDGET] = 0
    for w in range(worlds.shape[0]):
        if nodes > 0:
            left = nodes - (table[0, T_NODES] - start)
            if left <= 0:
                return w, table[0, T_NODES] - start
            table[0, T_BUDGET] = left
        for s in range(n):
            hands[s] = worlds[w, s]
            held[s] = worlds[w, s] | pby[s]  # in play: the cards now and those played (0.6)
        v = family_card_values(
            hands, won, held, n, leader, trick, trick_len, trump, pitcher, fr, tab, table, values
        )
        if v < 0:
            table[0, T_BUDGET] = 0
            return w, table[0, T_NODES] - start  # out of budget: this world is not done
        for j in range(cards.size):
            out[j, w] = values[cards[j]]
    table[0, T_BUDGET] = 0
    return worlds.shape[0], table[0, T_NODES] - start
