"""The discard and draw after trump is named (VARIANTS.md 4.8), in a kernel.

Each player from the pitcher's left (rob=dealer: the dealer's, 12.7), the pitcher last: discard every non-trump face
down (1), burn trumps beyond 6 by rule X (2: the ``T_BURN`` order), draw from the stock
to 6 (3) or, when it runs out and play is not follow=only, from this hand's face-down
discards at random (4).  Under rob=true the pitcher skips 3, takes the rest of the
stock, fills by 4 if short, and comes down to 6: non-trumps lowest rank first (ties in
suit order), then excess trumps by rule X (5).  Mirrors the reference engine's
``discard_and_draw``; the cards drawn from the discards go to ``junk_log`` in order.

Under discard=choice and draw (12.8) each player from the dealer's left, the dealer
last: under choice comes down to 6 (``come_down``), no draw; under draw puts down
``draw_down`` (every non-trump but the highest-ranking needed to keep 3, then trumps
beyond 6 by rule X), face down, and draws as in steps 3 and 4.

Under kitty=N (12.2.2, with discard=none, choice or draw) ``take_kitty`` first: the
pitcher adds the kitty (the stock's last N cards, 12.2.1, never drawn) to his hand
and comes down to 6 as a robbing pitcher does (``come_down``), the reference engine's
``take_kitty``.  Under choice and draw the rules have him come down in his turn; at
once gives the same hands, since no other seat's discard depends on his and his
discards are out of play, never drawn from (12.2.2), so ``discard_and_draw`` then
passes over him.

A card called under partner=called (12.1.3) is never discarded: ``keep`` (its bit, 0:
none) is passed over by rule X and the come-down.
"""

import numpy as np
from numba import njit

from .bits import gather, lowest_card, nth_bit, popcount, scatter
from .deal import pack_mask
from .presets import (
    DISCARD_CHOICE,
    DISCARD_NON_TRUMP,
    F_DISCARD,
    F_DISCARDS_SHOWN,
    F_FOLLOW,
    F_KITTY,
    F_ROB,
    ROB_DEALER,
    T_BURN,
    T_TRUMPS,
)
from .rng import below

HAND_TARGET = 6
KEEP_AT_LEAST = 3  # 12.8.2: under discard=draw a player keeps at least 3 cards
JUNK_COUNTER = 64  # after the deal's draws (at most 54) in the deal's stream
SUIT_BITS = np.int64((1 << 13) - 1)
FOLLOW_ONLY = 2
# Bit 4 * rank of a 52-bit word: the cards in rank-major order (bit 4 * rank + suit),
# where the lowest-ranking cards, ties in suit order, are the lowest bits.
RANK_MAJOR = np.int64(sum(1 << (4 * r) for r in range(13)))


@njit(cache=True, inline="always")
def lowest_ranking_k(m, k):
    """The ``k`` lowest-ranking cards of ``m`` (no jokers), ties in suit order (all of
    ``m`` when it holds no more), as a mask: the lowest ``k`` bits of ``m`` in
    rank-major order (``RANK_MAJOR``), one bit scatter and gather per suit, instead of
    a card at a time."""
    rm = np.int64(0)
    for s in range(4):
        rm |= scatter((m >> (13 * s)) & SUIT_BITS, RANK_MAJOR << s)
    rm = scatter((np.int64(1) << k) - 1, rm)  # (all of ``rm`` when it holds k or fewer)
    out = np.int64(0)
    for s in range(4):
        out |= gather(rm, RANK_MAJOR << s) << (13 * s)
    return out


@njit(cache=True, inline="always")
def first_to_burn(trumps, trump, tab):
    """The trump rule X gives up first."""
    best = -1
    best_k = np.int64(1 << 40)
    m = trumps
    while m:
        c = lowest_card(m)
        m &= m - 1
        k = tab[trump, T_BURN + c]
        if k < best_k:
            best_k = k
            best = c
    return best


@njit(cache=True, inline="always")
def robber_of(pitcher, dealer, fr):
    """The seat that robs the stock and draws last (4.8 step 5): the pitcher, or under
    rob=dealer the dealer (12.7, 11.8).  Without a rob, the pitcher: still the last to
    draw."""
    return dealer if fr[F_ROB] == ROB_DEALER else pitcher


@njit(cache=True, inline="always")
def shown_down(down, tm, fr):
    """The cards of the robber's put-down ``down`` (step 5) that are face up, seen by
    all: under rob=dealer its trumps (12.7, 11.8), under rob=true with discards=shown
    all of it (12.9), else none (the reference's ``shown_put_down``)."""
    if fr[F_ROB] == ROB_DEALER:
        return down & tm
    if fr[F_ROB] != 0 and fr[F_DISCARDS_SHOWN] != 0:
        return down
    return np.int64(0)


@njit(cache=True, inline="always")
def stock_cards(deck, top, size, k):
    """The stock's next ``k`` cards, ``deck[top : top + k]`` (0 <= k <= 6, top + k <=
    size), as a mask: six loads, each kept or not by its place, with no branch (a loop
    of ``k`` steps mispredicts its exit at every seat: ``k`` is the deal's)."""
    m = np.int64(0)
    for j in range(HAND_TARGET):
        m |= np.int64(j < k) << deck[min(top + j, size - 1)]
    return m


@njit(cache=True, inline="always")
def _fill(h, deck, top, size, junk, junk_log, drawn, only, key):
    """Steps 3 and 4 for hand ``h``; returns (h, top, junk, drawn)."""
    k = max(0, min(HAND_TARGET - popcount(h), size - top))  # (none when full)
    h |= stock_cards(deck, top, size, k)
    top += k
    if not only:
        while popcount(h) < HAND_TARGET and junk:
            b = nth_bit(junk, below(key, JUNK_COUNTER + drawn, popcount(junk)))
            junk ^= b
            h |= b
            junk_log[drawn] = lowest_card(b)
            drawn += 1
    return h, top, junk, drawn


# A call of its own, not inlined into the hand: inlined, a ten-point hand ran about 5%
# faster, but the run kernel's cold compile took about 5 CPU-s more (issue 28: no
# command's compile may grow).
@njit(cache=True)
def discard_and_draw(
    hands, n, deck, top, size, pitcher, dealer, trump, fr, tab, key, junk_log, keep
):
    """Do 4.8 on ``hands[0:n]`` in place; the stock is ``deck[top:size]``.  Returns how
    many cards were drawn from the discards (written to ``junk_log``).  Under rob=dealer
    (12.7, 11.8) the dealer takes the pitcher's place: the draw runs from the dealer's
    left, the dealer last, and he robs.  Under discard=choice and draw (12.8) the same
    order, from the dealer's left, each player coming down (choice) or discarding and
    drawing (draw) as the module says; the stock is ``deck[top:size - N]`` under
    kitty=N, whose pitcher ``take_kitty`` has come down already.  ``keep``: the called
    card's bit (12.1.3), or 0."""
    tm = tab[trump, T_TRUMPS]
    only = fr[F_FOLLOW] == FOLLOW_ONLY
    mode = fr[F_DISCARD]
    rob = fr[F_ROB] != 0
    kitty = fr[F_KITTY] != 0
    last = dealer if mode >= DISCARD_CHOICE else robber_of(pitcher, dealer, fr)
    size -= fr[F_KITTY]  # 12.2.1: the kitty is the stock's last N cards, never drawn
    # Under a rob (never with a kitty, 6.3.8) the robber, the last in turn, takes the
    # pack less every card dealt or drawn before him: the rest of the stock (step 5).
    seen = np.int64(0)
    junk = np.int64(0)
    drawn = 0
    seat = last
    for _ in range(n):
        seat = seat + 1 if seat + 1 < n else 0  # (from the last's left; no division)
        h = hands[seat]
        seen |= h
        robs = rob and seat == last
        draws = True
        if mode == DISCARD_NON_TRUMP:
            junk |= h & ~tm  # 1
            h &= tm
            while popcount(h) > HAND_TARGET:  # 2, passing over a called card (12.1.3)
                h &= ~(np.int64(1) << first_to_burn(h & ~keep, trump, tab))
            if robs:  # 5: he skips step 3
                h |= pack_mask(n, fr) & ~seen
                top = size
        elif mode == DISCARD_CHOICE:  # 12.8.1: comes down, no draw
            draws = False
        elif kitty and seat == pitcher:  # 12.2.2: came down already, no draw
            draws = False
        else:  # 12.8.2
            down = draw_down(h, tm, trump, tab, keep)
            junk |= down
            h &= ~down
        if draws:
            h, top, junk, drawn = _fill(h, deck, top, size, junk, junk_log, drawn, only, key)
        if robs or mode == DISCARD_CHOICE:
            h = come_down(h, tm, trump, tab, keep)
        hands[seat] = h
        seen |= h
    return drawn


@njit(cache=True, inline="always")
def draw_down(h, tm, trump, tab, keep):
    """What hand ``h`` puts down under discard=draw (12.8.2, the reference's
    ``draw_discard``): every non-trump but the highest-ranking ones needed to keep 3
    cards (ties in suit order), and the trumps beyond 6 by rule X, passing over
    ``keep`` (a called trump's bit, 12.1.3; 0: none)."""
    trumps = h & tm
    non = h & ~tm
    kept = max(0, KEEP_AT_LEAST - min(popcount(trumps), HAND_TARGET))
    down = lowest_ranking_k(non, max(0, popcount(non) - kept))
    while popcount(trumps) > HAND_TARGET:
        b = np.int64(1) << first_to_burn(trumps & ~keep, trump, tab)
        trumps &= ~b
        down |= b
    return down


@njit(cache=True, inline="always")
def come_down(h, tm, trump, tab, keep):
    """Hand ``h`` come down to 6 (4.8 step 5, the reference's ``come_down``): the
    non-trumps lowest rank first (ties in suit order), then excess trumps by rule X,
    passing over ``keep`` (a called trump's bit, 12.1.3; 0: none)."""
    excess = popcount(h) - HAND_TARGET
    gone = lowest_ranking_k(h & ~tm, max(excess, 0))  # (no branch: it mispredicts)
    h &= ~gone
    excess -= popcount(gone)
    while excess > 0:
        h &= ~(np.int64(1) << first_to_burn(h & tm & ~keep, trump, tab))
        excess -= 1
    return h


@njit(cache=True)
def take_kitty(hands, deck, size, pitcher, trump, fr, tab, keep):
    """12.2.2 on ``hands[0:n]`` in place: the pitcher adds the kitty, ``deck[size - N :
    size]`` (12.2.1: the stock's last N cards, drawn by the deal), and puts down face
    down, out of play, until he holds 6 (``come_down``; under choice and draw at once
    too, the module says why); he draws nothing.  Returns
    the kitty as a mask (what he took; what he put down is the kitty and his dealt
    hand less what he holds).  ``keep``: a called trump's bit, never put down (12.1.3)."""
    kitty = np.int64(0)
    for i in range(size - fr[F_KITTY], size):
        kitty |= np.int64(1) << deck[i]
    hands[pitcher] = come_down(hands[pitcher] | kitty, tab[trump, T_TRUMPS], trump, tab, keep)
    return kitty
