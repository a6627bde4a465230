"""``epimc``: pimc with the double-dummy leaf put off by one of the seat's own decisions
(EPIMC, Arjonilla, Saffidine and Cazenave 2024, "Perfect Information Monte Carlo with
Postponing Reasoning": depth 2; no code of theirs).

pimc (``rollout.pimc_outcomes``) values card c in world w by the solver with every
hand open, so the seat's later cards are chosen world by world, each as if it saw the
hidden cards (strategy fusion).  Here the seat's *next* decision is made once for all
the worlds it cannot tell apart then:

1. in each world w, after c, the other seats play on by the solver's best line (each
   the card best for its side in w; among equal ones the card ``heuristic`` would play
   if it is one of them, else the lowest) until the seat is to play again;
2. the worlds are grouped by what the seat has seen by then: the cards played in
   between and who played them (the seat's hand and legal cards are then the same in
   the group);
3. each group takes the one next card best for the seat's side over the group's worlds
   by pimc's rule (``monte_carlo.choose_by_outcomes``: the worlds reaching the bid, then
   points; the defenders the reverse; ties to the lowest card), and card c's value in
   each world of the group is the solver's value after that next card there.

A world in which the seat has no choice left (the hand over, one legal card, out of
the hand under follow=only) keeps pimc's value; so does a group of one world: the
solver's line is minimax, so the best next card there is worth the value after c
(with one world, or every world the same, epimc is pimc).  A group's next card is worth
at most what pimc credits in each of its worlds, never more: epimc's values are pimc's
or lower, lower where one next card cannot be right in every world the seat cannot
tell apart.

Cost: per world and candidate card, one solve a seat still to play before the seat's
next turn and one at that turn, on the world's transposition table (its entries kept
across the world's calls: one deal, one trump, so a sub-position's bounds hold for all
of them).  The node budget (``PLAY_NODES`` in play) is pimc's rule: the worlds left at
the first one it does not finish.
"""

import numpy as np
from numba import njit

from ..bits import popcount
from ..partner import hand_side, partner_of
from ..policies.cards import heuristic_card
from ..presets import F_FOLLOW, T_TRUMPS
from ..trick import FOLLOW_ONLY, close_trick
from .monte_carlo import DD_EARLY_TABLE_BITS, DD_TABLE_BITS, EARLY_TABLE_PLAYERS
from .solver import N_CARDS, T_BUDGET, T_NODES, T_SAME, new_table, position_values

NO_TARGET = np.int64(0)
# Measurement only (scripts/compare_policies.py --search epimc:W+coarse): this bit of
# an epimc seat's worlds count groups the worlds coarsely (``epimc_outcomes``' ``coarse``).
COARSE_SHIFT = 19
MAX_NEXT = 10  # the most cards in a hand: the seat's next legal cards


@njit(cache=True)
def _solve(hands, won, held, n, leader, trick, count, trump, pitcher, fr, tab, table, vals,
           called, same, nodes, start):  # fmt: skip
    """``position_values`` with each legal card's value in ``vals``, and the legal cards
    (the ones valued) as a mask; ``same``: the world's table entries are kept (a later
    call in the same world and trump).  A value of -1: the budget (``nodes`` from
    ``start``, 0: none) is spent."""
    if nodes > 0:
        left = nodes - (table[0, T_NODES] - start)
        if left <= 0:
            return np.int64(-1), np.int64(0)
        table[0, T_BUDGET] = left
    table[0, T_SAME] = 1 if same else 0
    v = position_values(
        hands, won, held, n, leader, trick, np.int64(count), trump, pitcher, fr, tab, table,
        vals, NO_TARGET, called,
    )  # fmt: skip
    table[0, T_BUDGET] = 0
    legal = np.int64(0)
    for x in range(N_CARDS):
        if vals[x] >= 0:
            legal |= np.int64(1) << x
    return v, legal


@njit(cache=True)
def _best_reply(vals, maximise, legal, prior):
    """The mover's card from the solver's ``vals``: the best for its side, ``prior``
    (heuristic's card) among equals, else the lowest."""
    best = np.int64(-1)
    best_v = np.int64(0)
    m = legal
    while m:
        c = np.int64(0)
        while not (m >> c) & 1:
            c += 1
        m &= m - 1
        v = vals[c]
        if best < 0 or (v > best_v if maximise else v < best_v):
            best = c
            best_v = v
    if prior >= 0 and vals[prior] == best_v and (legal >> prior) & 1:
        return prior
    return best


@njit(cache=True)
def epimc_outcomes(
    worlds, cards, seat, n, pitcher, bid, ours, trump, trick_no, trick, tseats, count, played,
    won, pby, fr, tab, out, nodes, called, coarse,
):  # fmt: skip
    """``out[j, w]``: card ``cards[j]``'s value in ``worlds[w]`` with the seat's next
    decision made once for the worlds it cannot tell apart (the module); ``ours``: the
    seat is on the pitcher's side (it wants the values high), ``bid`` its side's aim
    (0: points only).  The arguments are ``rollout.pimc_outcomes``' and the seat's
    knowledge (``trick_no``, ``played``: the cards of the completed tricks).  Returns
    (worlds done, nodes searched): a budget of ``nodes`` (0: none) stops at the first
    world it does not finish, left out, as pimc's.  ``coarse`` (measurement only,
    ``COARSE_SHIFT``): the worlds are grouped by the trick of the seat's next decision
    alone, the cards of the trick completed in between not told apart."""
    kw = worlds.shape[0]
    nc = cards.size
    leader0 = tseats[0] if count > 0 else seat
    bits = DD_TABLE_BITS
    if kw > 0 and n >= EARLY_TABLE_PLAYERS:
        left = 0
        for s in range(n):
            left += popcount(worlds[0, s])
        if left > 4 * n:
            bits = DD_EARLY_TABLE_BITS
    table = new_table(bits)
    start = table[0, T_NODES]
    only = fr[F_FOLLOW] == FOLLOW_ONLY
    hands = np.empty(n, dtype=np.int64)
    held = np.empty(n, dtype=np.int64)
    h2 = np.empty(n, dtype=np.int64)
    won2 = np.empty(n, dtype=np.int64)
    trick2 = np.empty(n, dtype=np.int64)
    ts2 = np.empty(n, dtype=np.int64)
    vals = np.empty(N_CARDS, dtype=np.int64)
    first = np.empty(N_CARDS, dtype=np.int64)
    # Per candidate and world: what the seat saw (card * 8 + seat, in order), how many,
    # and at its next decision its legal cards (0: no choice) and their values.
    seen = np.zeros((nc, kw, 2 * n), dtype=np.int64)
    seen_len = np.zeros((nc, kw), dtype=np.int64)
    cut = np.zeros((nc, kw), dtype=np.int64)  # where the next decision's trick starts
    next_legal = np.zeros((nc, kw), dtype=np.int64)
    next_vals = np.zeros((nc, kw, MAX_NEXT), dtype=np.int64)
    done = kw
    for w in range(kw):
        for s in range(n):
            hands[s] = worlds[w, s]
            held[s] = worlds[w, s] | pby[s]
        partner = partner_of(held, n, pitcher, called)
        pside = hand_side(pitcher, pitcher, partner, fr)
        v0, _ = _solve(hands, won, held, n, leader0, trick, count, trump, pitcher, fr, tab,
                       table, first, called, False, nodes, start)  # fmt: skip
        if v0 < 0:
            done = w
            break
        for j in range(nc):
            out[j, w] = first[cards[j]]
        stopped = False
        for j in range(nc):
            c = cards[j]
            for s in range(n):
                h2[s] = hands[s]
                won2[s] = won[s]
            for k in range(count):
                trick2[k] = trick[k]
                ts2[k] = tseats[k]
            t = trump if trump >= 0 else c // 13  # 6.3.5: the first card fixes trump
            tm = tab[t, T_TRUMPS]
            h2[seat] &= ~(np.int64(1) << c)
            if h2[seat] == 0 or (only and h2[seat] & tm == 0):
                continue  # the seat's last card, or out of the hand (4.9): pimc's value
            trick2[count] = c
            ts2[count] = seat
            cnt = count + 1
            leader = leader0
            tno = trick_no
            gone = played
            mover = seat
            over = False
            while True:
                # the next seat to play: after ``mover`` in this trick, or the next lead
                nxt = -1
                if cnt < n:
                    for i in range(1, n):
                        s = (mover + i) % n
                        if s == leader:
                            break  # round the table: the trick is complete
                        if only and h2[s] & tm == 0:
                            continue  # 4.9: out of the hand
                        nxt = s
                        break
                if nxt < 0:  # the trick is complete
                    taken, leader = close_trick(trick2, ts2, cnt, t, h2, won2, n, only, tm, tab)
                    gone |= taken
                    tno += 1
                    if leader < 0 or h2[leader] == 0:
                        over = True
                        break
                    cnt = 0
                    nxt = leader
                    cut[j, w] = seen_len[j, w]
                if nxt == seat:
                    break
                v, legal = _solve(h2, won2, held, n, leader, trick2, cnt, t, pitcher, fr,
                                  tab, table, vals, called, True, nodes, start)  # fmt: skip
                if v < 0:
                    stopped = True
                    break
                if legal & (legal - 1):
                    prior = heuristic_card(
                        legal, h2[nxt], nxt, n, pitcher, t, tno, trick2, ts2, cnt, gone, fr, tab
                    )
                    maximise = hand_side(nxt, pitcher, partner, fr) == pside
                    r = _best_reply(vals, maximise, legal, prior)
                else:
                    r = np.int64(0)
                    while not (legal >> r) & 1:
                        r += 1
                h2[nxt] &= ~(np.int64(1) << r)
                trick2[cnt] = r
                ts2[cnt] = nxt
                cnt += 1
                mover = nxt
                k = seen_len[j, w]
                seen[j, w, k] = r * 8 + nxt
                seen_len[j, w] = k + 1
            if stopped:
                break
            if over:
                continue  # no choice left: pimc's value
            v, legal = _solve(h2, won2, held, n, leader, trick2, cnt, t, pitcher, fr, tab,
                              table, vals, called, True, nodes, start)  # fmt: skip
            if v < 0:
                stopped = True
                break
            m = 0
            for x in range(N_CARDS):
                if vals[x] >= 0:
                    next_vals[j, w, m] = vals[x]
                    m += 1
            if m > 1:
                next_legal[j, w] = legal
        if stopped:
            done = w
            break
    # The seat's next card, one per group of worlds it cannot tell apart.
    label = np.empty(kw, dtype=np.int64)
    member = np.empty(kw, dtype=np.int64)
    for j in range(nc):
        if not coarse:
            cut[j, :] = 0
        groups = group_worlds(seen[j], seen_len[j], cut[j], next_legal[j], done, label)
        for grp in range(groups):
            g = 0
            for w in range(done):
                if label[w] == grp:
                    member[g] = w
                    g += 1
            m = popcount(next_legal[j, member[0]])
            top = np.int64(0)
            for i in range(g):
                for k in range(m):
                    top = max(top, next_vals[j, member[i], k])
            big = g * top + 1  # more than any card's total: reaching the bid ranks first
            best_k = 0
            best_score = np.int64(-(1 << 62))
            for k in range(m):
                made = np.int64(0)
                total = np.int64(0)
                for i in range(g):
                    p = next_vals[j, member[i], k]
                    total += p
                    made += p >= bid
                score = made * big + total
                if not ours:
                    score = -score
                if score > best_score:
                    best_score = score
                    best_k = k
            for i in range(g):
                out[j, member[i]] = next_vals[j, member[i], best_k]
    return done, table[0, T_NODES] - start


@njit(cache=True)
def group_worlds(seen, seen_len, cut, next_legal, done, label):
    """``label[w]`` for worlds 0..``done``: the same number for worlds the seat cannot
    tell apart at its next decision (the same cards played in between by the same seats,
    ``seen[w, cut[w]:seen_len[w]]``, and so the same legal cards ``next_legal[w]``), -1
    for a world with no choice there (``next_legal[w]`` 0).  ``cut`` 0: everything seen
    in between.  Returns the number of groups."""
    groups = 0
    for w in range(done):
        label[w] = -1
    for w in range(done):
        if label[w] >= 0 or next_legal[w] == 0:
            continue
        for u in range(w, done):
            if label[u] >= 0 or next_legal[u] != next_legal[w]:
                continue
            if seen_len[u] - cut[u] != seen_len[w] - cut[w]:
                continue
            same = True
            for k in range(seen_len[w] - cut[w]):
                if seen[u, cut[u] + k] != seen[w, cut[w] + k]:
                    same = False
                    break
            if same:
                label[u] = groups
        groups += 1
    return groups
