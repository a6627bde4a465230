"""How well a world explains the play seen: each other seat's cards replayed against the
card ``heuristic`` would have played with that world's hand (issue 31 item 3: worlds
that read the play, not only the calls; Rebstock, Solinas, Buro and Sturtevant 2019
weight each world by the probability that a model's policy makes the actions seen).

The model: every other seat plays ``heuristic``'s card, except that it deviates now and
then; a world in which a seat's plays differ ``m`` times from what ``heuristic`` plays
with that world's hand is ``rho ** m`` times as likely as one it explains (``rho`` in
(0, 1]: 1 reads nothing, small trusts the model).  ``play_misses`` counts ``m`` per
world; the sampler keeps each world with probability ``rho ** m`` (rejection: the kept
worlds are distributed as the prior, uniform among those fitting what the seat saw,
times that likelihood).

Only real choices count: a play with one legal card, the called card owed to trick 1
(12.1.3, by the seat holding it in the world), a first lead that fixes trump under trump=first-lead (the pitcher's plan,
chosen with his call, not by the play policy) and the seat's own plays are skipped.
A seat's hand at each of its plays is the world's cards now and those it has played
since (no discard after the play starts).
"""

import numpy as np
from numba import njit

from ..bits import popcount
from ..partner import duty_seat
from ..policies.cards import heuristic_card
from ..presets import F_TRUMP_NAMED
from ..rng import draw
from ..trick import legal_cards
from .resample import unit
from .worlds import ATTEMPTS_PER_WORLD, sample_worlds

# The table's search seats that read the play (``rollout:W:read``): each world kept with
# chance READ_RHO ** misses; at most READ_TRIES worlds drawn a world wanted, in batches
# of READ_BATCH worlds wanted; fewer than READ_ENOUGH of the worlds wanted kept: the
# play is too unlikely under the model for rejection, and the worlds do not read it.
READ_RHO = 0.2
READ_TRIES = 16
READ_BATCH = 2
READ_ENOUGH = 4  # (a quarter)


@njit(cache=True)
def play_misses(worlds, n, me, pby, cards, seats, sizes, trump, pitcher, called, fr, tab, out):
    """``out[w]``: how many plays of the seats other than ``me`` differ from
    ``heuristic``'s card with world ``w``'s hands (``worlds[w, s]`` seat s's cards now;
    ``pby[s]`` the cards s has played).  The play seen: trick t's ``sizes[t]`` cards
    ``cards[t, i]`` played by ``seats[t, i]`` in order (seats out under follow=only
    are simply absent).  Under trump=first-lead the first card led fixed ``trump``: the
    pitcher's plan, not a play policy's choice."""
    first_fixes = fr[F_TRUMP_NAMED] == 0
    trick = np.empty(n, dtype=np.int64)
    tseats = np.empty(n, dtype=np.int64)
    hands = np.empty(n, dtype=np.int64)
    for w in range(worlds.shape[0]):
        for s in range(n):
            hands[s] = worlds[w, s] | pby[s]
        duty = duty_seat(hands, n, pitcher, called, fr)  # owes the call to trick 1 (12.1.3)
        played = np.int64(0)
        misses = 0
        for t in range(sizes.shape[0]):
            count = sizes[t]
            taken = np.int64(0)
            for i in range(count):
                card = cards[t, i]
                seat = seats[t, i]
                b = np.int64(1) << card
                first = t == 0 and i == 0
                if seat != me and not (first and first_fixes) and not (t == 0 and seat == duty):
                    legal = legal_cards(hands[seat], trick, i, trump, first, fr, tab)
                    if popcount(legal) > 1:
                        h = heuristic_card(
                            legal, hands[seat], seat, n, pitcher, trump, t, trick, tseats, i,
                            played, fr, tab,
                        )  # fmt: skip
                        if h != card:
                            misses += 1
                hands[seat] &= ~b
                trick[i] = card
                tseats[i] = seat
                taken |= b
            played |= taken  # (the seats' order is given: no winner needed)
        out[w] = misses


@njit(cache=True)
def keep_read(misses, rho, key, keep):
    """``keep[w]``: world w kept, with chance ``rho ** misses[w]`` (position w of the
    stream ``key``)."""
    for w in range(misses.shape[0]):
        keep[w] = unit(key, w) < rho ** misses[w]


@njit(cache=True)
def read_worlds(
    key, n, me, hand, unseen, counts, allowed, must, worlds, pby, cards, seats, sizes, trump,
    pitcher, called, fr, tab,
):  # fmt: skip
    """Up to ``worlds.shape[0]`` worlds (as ``worlds.sample_worlds``) that read the play
    (see the module; ``cards``, ``seats``, ``sizes`` the tricks seen, as ``play_misses``
    takes them), from the stream ``key``: batch j of ``READ_BATCH`` x the worlds wanted
    drawn from ``draw(key, 2 j)`` and kept by ``draw(key, 2 j + 1)``, until enough
    are kept or ``READ_TRIES`` x the worlds wanted were drawn.  Returns how many worlds
    are in ``worlds``: those kept or, when fewer than a ``READ_ENOUGH``-th of those
    wanted, the worlds of ``sample_worlds`` from ``key`` instead (the play not read)."""
    wanted = worlds.shape[0]
    size = READ_BATCH * wanted
    batch = np.empty((size, n + 1), dtype=np.int64)
    misses = np.empty(size, dtype=np.int64)
    keep = np.empty(size, dtype=np.bool_)
    kept = 0
    drawn = 0
    j = 0
    while kept < wanted and drawn < READ_TRIES * wanted:
        m, _ = sample_worlds(
            draw(key, 2 * j), n, me, hand, unseen, counts, allowed, must, batch,
            ATTEMPTS_PER_WORLD * size,
        )  # fmt: skip
        if m == 0:
            break
        play_misses(
            batch[:m], n, me, pby, cards, seats, sizes, trump, pitcher, called, fr, tab,
            misses,
        )  # fmt: skip
        keep_read(misses[:m], READ_RHO, draw(key, 2 * j + 1), keep)
        for w in range(m):
            if keep[w] and kept < wanted:
                worlds[kept] = batch[w]
                kept += 1
        drawn += m
        j += 1
    if kept * READ_ENOUGH >= wanted and kept > 0:
        return kept
    plain, _ = sample_worlds(
        key, n, me, hand, unseen, counts, allowed, must, worlds, ATTEMPTS_PER_WORLD * wanted
    )
    return plain
