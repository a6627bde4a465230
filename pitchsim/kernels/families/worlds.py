"""Worlds for one seat of a family hand: the cards it has not seen dealt to the other
seats, uniformly among the deals consistent with what it knows.

What the seat ``me`` knows (its *knowledge*; the view ``play.play_hand`` keeps):

- its own hand, and ``known_out``: cards it knows are out of play: the cards it was
  dealt and discarded (4.8), and, under discard=non-trump with rob=true, every trump
  burned face up (all trumps of the pack not held when play starts: the stock is gone
  and the face-down discards are non-trumps);
- every card played and who played it (``pby[s]``: the cards seat s has played,
  this trick included);
- the voids shown, by effective suit (bit ``4 * seat + suit`` of ``voids``): under
  follow=trump a card neither of the led effective suit nor trump, under follow=suit
  a card not of the led effective suit, a first lead that is not a trump under
  lead-trump, and a player out under follow=only (no trump left);
- every other seat's hand size now (``counts``; public: hands are counted when drawn).

The *constraint* (``family_constraint``): ``unseen`` = the pack less the hand, the cards
seen played and ``known_out``; ``allowed[s]`` = ``unseen`` less the effective suits s
has shown void in; ``must`` = the unseen cards that are surely in some hand: under
discard=non-trump with rob=true, every unseen trump (the discards face down are
non-trumps and the stock is empty), else none.  A *world* gives every seat s != me
``counts[s]`` cards of ``allowed[s]``, no card twice, every card of ``must`` to
somebody; the other unseen cards are out of play (the undealt stock, others'
discards).  ``world[me]`` is the hand.

Not used (the seat would know it at a real table): how many cards each player drew,
which tells how many trumps they kept (4.8); the stock cards a robbing pitcher threw
back.  Under follow=trump with a discard, a player's own discards can be drawn back by
another from the junk pile when the stock runs out (4.8 step 4); the knowledge above
says they are out of play, which such a (rare) deal contradicts.

Sampling (exact: every consistent world equally likely):

- ``must`` empty: ``kernels.search.worlds.draw_world``, the base game's resampler (seats
  dealt most constrained first, kept with the probability that makes every world equally
  likely);
- ``must`` not empty (``draw_must_world``): each card of ``must`` goes to a uniformly
  random free *slot* among the seats that may hold it (seat s has ``counts[s]`` slots),
  then each seat's other slots are filled with a uniform subset of the unseen cards not
  in ``must``.  A world with ``t_s`` cards of ``must`` at seat s comes out with
  probability ``prod_s counts[s]! / (counts[s] - t_s)!`` / (the slot draws) times
  ``prod_s (counts[s] - t_s)!`` x const (the fills), the same for every world; worlds
  that break a void of another suit are rejected, which keeps the rest uniform.
"""

import numpy as np
from numba import njit

from ..bits import nth_bit, popcount
from ..rng import below
from ..search.worlds import draw_world
from .deal import pack_mask
from .tables import F_DISCARD, F_ROB, T_SUITS, T_TRUMPS

MUST_STRIDE = 64  # counters per attempt of draw_must_world: one per card dealt (<= 54)
ATTEMPTS_PER_WORLD = 200


@njit(cache=True, inline="always")
def void_mask(voids, seat, trump, tab):
    """The cards of the effective suits ``seat`` has shown void in (no trump: none)."""
    if trump < 0:
        return np.int64(0)
    m = np.int64(0)
    v = voids >> (4 * seat)
    for e in range(4):
        if v >> e & 1:
            m |= tab[trump, T_SUITS + e]
    return m


@njit(cache=True)
def family_constraint(n, me, hand, known_out, pby, voids, counts, trump, fr, tab, allowed):
    """Fill ``allowed`` (n) from the knowledge (see the module); return (unseen, must).
    ``counts`` are the other seats' hand sizes (read only)."""
    seen = hand | known_out
    for s in range(n):
        seen |= pby[s]
    unseen = pack_mask(n, fr) & ~seen
    for s in range(n):
        allowed[s] = unseen & ~void_mask(voids, s, trump, tab)
    must = np.int64(0)
    if trump >= 0 and fr[F_DISCARD] != 0 and fr[F_ROB] != 0:
        must = unseen & tab[trump, T_TRUMPS]
    return unseen, must


@njit(cache=True)
def draw_must_world(key, attempt, n, me, hand, unseen, counts, allowed, must, world):
    """One attempt at a world in which every card of ``must`` is dealt; True when kept."""
    base = attempt * MUST_STRIDE
    j = 0
    world[me] = hand
    free = np.zeros(n, dtype=np.int64)
    slots = 0
    for s in range(n):
        if s == me:
            continue
        world[s] = 0
        if allowed[s] & must:
            free[s] = counts[s]
            slots += counts[s]
    m = must
    if popcount(m) > slots:
        return False
    while m:
        b = m & -m
        m ^= b
        r = below(key, base + j, slots)
        j += 1
        s = 0
        while s == me or r >= free[s]:
            if s != me:
                r -= free[s]
            s += 1
        world[s] |= b
        free[s] -= 1
        slots -= 1
    pool = unseen & ~must
    left = popcount(pool)
    for s in range(n):
        if s == me:
            continue
        need = counts[s] - popcount(world[s])
        if need > left:
            return False
        for _ in range(need):
            b = nth_bit(pool, below(key, base + j, left))
            j += 1
            pool ^= b
            left -= 1
            world[s] |= b
    for s in range(n):
        if s != me and world[s] & ~allowed[s]:
            return False
    return True


@njit(cache=True)
def sample_family_worlds(key, n, me, hand, unseen, counts, allowed, must, worlds, max_attempts):
    """Up to ``worlds.shape[0]`` independent uniform worlds in ``worlds[w, :n]`` from the
    stream ``key``; returns (kept, attempts).  Fewer than wanted: ``max_attempts`` ran
    out (a constraint hardly any world meets; the true deal always meets it)."""
    kept = 0
    attempt = 0
    while kept < worlds.shape[0] and attempt < max_attempts:
        if must == 0:
            ok = draw_world(key, attempt, n, me, hand, unseen, counts, allowed, worlds[kept])
        else:
            ok = draw_must_world(
                key, attempt, n, me, hand, unseen, counts, allowed, must, worlds[kept]
            )
        if ok:
            kept += 1
        attempt += 1
    return kept, attempt
