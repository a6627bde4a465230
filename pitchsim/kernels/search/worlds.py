"""Worlds for one seat of a family hand: the cards it has not seen dealt to the other
seats and to the face-down pile, uniformly among the deals consistent with what it knows.

What the seat ``me`` knows (its *knowledge*; the view ``play.play_hand`` keeps, and
``search.hint`` reads off a family view):

- its own hand, and ``known_out``: cards it knows are out of play: the cards it was
  dealt and discarded (4.8; not those a later seat may have drawn back from the
  discards, step 4), the cards it put down itself after robbing (step 5), every
  trump burnt face up by any seat (step 2), the robber's put-down shown face up
  (under rob=dealer its trumps, 12.7; under rob=true with discards=shown all of it,
  12.9) and, under discards=shown, every seat's discards no other seat drew from
  since (``play.seat_knowledge``);
- ``drawn_back[s]``: the discards it saw go down (its own; under discards=shown
  every seat's) that seat s may have drawn back: those gone down before s drew from
  the discards (4.8 step 4, 12.8.2, 12.9).  Such a card is in the hand of a seat that
  drew after it went down, or out of play: in no other hand, never in the pile (a
  seat drawing from the discards draws to 6 and puts down nothing after; the kitty's
  put-down is its own cards, 12.2.2).  The seat's own entry is not read;
- every card played and who played it (``pby[s]``: the cards seat s has played,
  this trick included);
- the voids shown, by effective suit (bit ``4 * seat + suit`` of ``voids``): under
  follow=trump a card neither of the led effective suit nor trump, under follow=suit
  a card not of the led effective suit, a first lead that is not a trump under
  lead-trump, and a player out under follow=only (no trump left);
- every other seat's hand size now (``counts[s]``; public: hands are counted when
  drawn), and ``counts[n]``: how many cards the robber (the pitcher; under rob=dealer
  the dealer, 12.7) put down face down that this seat has not seen (public as a count;
  0 for the robber, who knows them, and without a rob; the cards shown face up are
  not in it).

The *constraint* (``world_constraint``): ``unseen`` = the pack less the hand, the cards
seen played and ``known_out``; ``allowed[s]`` = ``unseen`` less the effective suits s
has shown void in and less the discards seen that only other seats may have drawn
back (``drawn_back``); ``allowed[n]`` = ``unseen`` when there is a pile to deal, less
the trumps under rob=dealer (the dealer's put-down face down holds none, 12.7) and
every discard seen;
``must`` = the unseen cards that are surely in a hand or the pile: under
discard=non-trump with a rob (rob=true or rob=dealer), every unseen trump (step 1 puts
down non-trumps only, step 2 burns face up, the stock is empty after the rob), else
none.  A *world* gives
every seat s != me ``counts[s]`` cards of ``allowed[s]`` and the pile ``counts[n]``
cards of ``allowed[n]``, no card twice, every card of ``must`` to a hand or the
pile.  The other unseen cards are out of play (the others' face-down discards, the
undealt stock under rob=false).  ``world[me]`` is the hand; ``world[n]`` the pile.

Not used (the seat would know it at a real table): how many cards each player drew,
which tells how many trumps it kept (4.8); what the pitcher's coming down to 6 says
(step 5: non-trumps first, so a trump put down means a pitcher keeping no non-trump;
then rule X, so every trump put down ranks below every trump kept; the non-trumps put
down rank below those kept).  As a rejection step these would keep a handful of draws
in a thousand when the pitcher put down several cards (most draws give the pitcher a
non-trump); they want a sampler that deals the pile's cases directly.  Nor how many
cards a seat drew from the discards (4.8 step 4): it holds at most that many of the
discards seen (under discards=shown exactly that many, less those played), where
``drawn_back`` lets it hold any number.  Leaving knowledge out admits more worlds; it
never rules out the true deal.

Sampling (exact: every consistent world equally likely):

- ``must`` empty: ``kernels.search.resample.draw_world``, the base game's resampler (seats
  dealt most constrained first, kept with the probability that makes every world equally
  likely); the pile is not dealt (``world[n]`` = 0): with no card that must be
  placed, which unseen cards it holds does not change which hands are likely;
- ``must`` not empty (``draw_must_world``): each card of ``must`` goes to a uniformly
  random free *slot* among the hands and the pile (place p has ``counts[p]`` slots),
  then each place's other slots are filled with a uniform subset of the unseen cards
  not in ``must``.  A world with ``t_p`` cards of ``must`` at place p comes out with
  probability ``prod_p counts[p]! / (counts[p] - t_p)!`` / (the slot draws) times
  ``prod_p (counts[p] - t_p)!`` x const (the fills), the same for every world; worlds
  that break a void of another suit are rejected, which keeps the rest uniform.  So a
  hidden trump is in a hand or face down in proportion to the slots: the hand sizes
  and the cards put down.  The fills ignore ``allowed``, so where it bars many cards
  from most places (discards only the seats that drew from them may hold, 12.9) hardly
  any attempt is kept.  So when the first ``SWITCH_AFTER`` attempts keep fewer than 2,
  two more exact samplers (``must_world``) join it, and each attempt uses the one
  whose share of attempts kept so far (one kept and one not added to each) is the
  highest: every place dealt by ``draw_world`` (exact over the places' ``allowed``),
  the pile too, kept when every card of ``must`` is placed; or the same with the cards
  out of play as one more place, which may hold any unseen card but those of ``must``
  (a world is exactly such a deal).  Each attempt's randomness is its own, and which
  sampler it uses depends only on the attempts before, so every world kept is uniform
  and independent of the others.
"""

import numpy as np
from numba import njit

from ..bits import nth_bit, popcount
from ..deal import pack_mask
from ..presets import (
    F_DISCARD,
    F_PARTNER,
    F_ROB,
    PARTNER_CALLED,
    ROB_DEALER,
    T_SUITS,
    T_TRUMPS,
)
from ..rng import below
from .resample import STRIDE, draw_world

MUST_STRIDE = 64  # counters per attempt of draw_must_world: one per card dealt (<= 54)
SPREAD = MUST_STRIDE // STRIDE  # draw_world's attempts kept to its own counters
# attempts allowed per world wanted: spent only where few are kept (a discard only the
# seats that drew from the discards may hold, 12.9, with many trumps to place: up to
# about 560 per world kept, seen in tests/test_family_hidden.py's views)
ATTEMPTS_PER_WORLD = 1000
# the attempts after which other samplers of ``must`` worlds may be tried
SWITCH_AFTER = 32


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
def world_constraint(
    n, me, hand, known_out, drawn_back, pby, voids, counts, trump, fr, tab, allowed
):  # fmt: skip
    """Fill ``allowed`` (n + 1: the seats, then the pile) from the knowledge (see the
    module); return (unseen, must).  ``counts`` (n + 1) and ``drawn_back`` (n) are read
    only."""
    if allowed.shape[0] != n + 1 or counts.shape[0] != n + 1 or drawn_back.shape[0] != n:
        raise ValueError(
            "world_constraint: counts and allowed need n + 1 entries (the pile), drawn_back n"
        )
    seen = hand | known_out
    back = np.int64(0)  # the discards seen that some other seat may have drawn back
    for s in range(n):
        seen |= pby[s]
        if s != me:
            back |= drawn_back[s]
    unseen = pack_mask(n, fr) & ~seen
    back &= unseen
    for s in range(n):
        allowed[s] = unseen & ~void_mask(voids, s, trump, tab) & ~(back & ~drawn_back[s])
    allowed[n] = unseen & ~back if counts[n] > 0 else np.int64(0)
    if trump >= 0 and fr[F_ROB] == ROB_DEALER:  # 12.7: the dealer shows his trumps put down
        allowed[n] &= ~tab[trump, T_TRUMPS]
    must = np.int64(0)
    if trump >= 0 and fr[F_DISCARD] != 0 and fr[F_ROB] != 0:
        must = unseen & tab[trump, T_TRUMPS]
    return unseen, must


@njit(cache=True)
def partner_constraint(n, pitcher, called, partner, trick1, fr, unseen, allowed, must):
    """What a called partner (12.1) tells a seat about the called card, on ``allowed``
    (n + 1, from ``world_constraint``) in place; returns ``must`` with the card added
    when it is surely in a hand.  ``called``: the card (-1: none); ``partner``: the
    partner as the seat knows him (-1 unknown, the pitcher's seat: he plays alone);
    ``trick1``: bit s for each seat that played to trick 1 a card other than the call.

    The pitcher may call a card he holds himself (12.1.2; pitchsim's players call one
    they lack, a person need not), and nobody else learns so until it is played
    (12.1.10), so to the others he may hold it, as any seat may that has not shown
    otherwise; to himself his hand says.  A partner the seat knows holds it (12.1.4,
    or the seat's own hand); one known to play alone means nobody else does (12.1.5).
    Under called its holder must play it to trick 1 (12.1.3), so a seat that played
    another card there is not the holder: after trick 1 it is the pitcher's or out of
    play; and it is never put down (12.1.3), so it is not in the pile."""
    if called < 0:
        return must
    b = np.int64(1) << called
    if not unseen & b:  # the seat's own, played, or known out of play
        return must
    if partner >= 0 and partner != pitcher:
        for p in range(n + 1):
            if p != partner:
                allowed[p] &= ~b
        return must | b
    for s in range(n):
        if s != pitcher and (trick1 >> s & 1 or partner == pitcher):
            allowed[s] &= ~b
    if fr[F_PARTNER] == PARTNER_CALLED:
        allowed[n] &= ~b
    return must


@njit(cache=True)
def draw_must_world(key, attempt, n, me, hand, unseen, counts, allowed, must, world):
    """One attempt at a world (n + 1 places: the seats, then the pile) in which every
    card of ``must`` is placed; True when it is kept (every ``allowed`` met)."""
    base = attempt * MUST_STRIDE
    j = 0
    world[me] = hand
    free = np.zeros(n + 1, dtype=np.int64)
    slots = 0
    for s in range(n + 1):
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
    for s in range(n + 1):
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
    for s in range(n + 1):
        if s != me and world[s] & ~allowed[s]:
            return False
    return True


@njit(cache=True)
def must_world(way, key, attempt, n, me, hand, unseen, counts, allowed, must, world, out, places):
    """One attempt at a world placing every card of ``must`` by sampler ``way`` (the
    module): 0 the slots (``draw_must_world``); 1 every place dealt by ``draw_world``,
    kept when ``must`` is placed; 2 the same with the cards out of play one more place
    (``out``: its count and what it may hold; ``places`` n + 2 scratch).  True when
    kept.  1 and 2 use ``draw_world``'s counters inside this attempt's block of 0's."""
    if way == 0:
        return draw_must_world(key, attempt, n, me, hand, unseen, counts, allowed, must, world)
    if way == 1:
        ok = draw_world(key, attempt * SPREAD, n + 1, me, hand, unseen, counts, allowed, world)
        placed = np.int64(0)
        for p in range(n + 1):
            if p != me:
                placed |= world[p]
        return ok and must & ~placed == 0
    for p in range(n + 1):
        out[0, p] = counts[p]
        out[1, p] = allowed[p]
    if out[0, n + 1] < 0:
        return False
    ok = draw_world(key, attempt * SPREAD, n + 2, me, hand, unseen, out[0], out[1], places)
    for p in range(n + 1):
        world[p] = places[p]
    return ok


@njit(cache=True)
def sample_worlds(key, n, me, hand, unseen, counts, allowed, must, worlds, max_attempts):
    """Up to ``worlds.shape[0]`` independent uniform worlds in ``worlds[w, :n + 1]`` (the
    hands, then the pile) from the stream ``key``; returns (kept, attempts).  Fewer than
    wanted: ``max_attempts`` ran out (a constraint hardly any world meets; the true deal
    always meets it)."""
    kept = 0
    attempt = np.int64(0)
    # ``must`` placed: the slots, unless they keep fewer than 2 of the first SWITCH_AFTER
    # attempts; then each attempt the sampler (``must_world``) whose share kept so far,
    # one kept and one not added, is the highest
    adapt = False
    tries = np.zeros(3, dtype=np.int64)
    keeps = np.zeros(3, dtype=np.int64)
    out = np.empty((2, n + 2), dtype=np.int64)  # the places with the cards out of play
    places = np.empty(n + 2, dtype=np.int64)
    out[0, n + 1] = popcount(unseen)
    for p in range(n + 1):
        if p != me:
            out[0, n + 1] -= counts[p]
    out[1, n + 1] = unseen & ~must
    while kept < worlds.shape[0] and attempt < max_attempts:
        w = worlds[kept]
        if must == 0:
            w[n] = 0
            ok = draw_world(key, attempt, n, me, hand, unseen, counts, allowed, w)
        else:
            way = 0
            if adapt:
                for k in range(1, 3):  # (keeps + 1) / (tries + 2), the highest
                    if (keeps[k] + 1) * (tries[way] + 2) > (keeps[way] + 1) * (tries[k] + 2):
                        way = k
            ok = must_world(
                way, key, attempt, n, me, hand, unseen, counts, allowed, must, w, out, places
            )
            tries[way] += 1
            keeps[way] += ok
            if attempt + 1 == SWITCH_AFTER:
                adapt = keeps[0] < 2
        if ok:
            kept += 1
        attempt += 1
    return kept, attempt
