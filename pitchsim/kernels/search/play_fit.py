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
from ..trick import legal_cards


@njit(cache=True)
def play_misses(
    worlds, n, me, pby, cards, seats, sizes, trump, first_fixes, pitcher, called, fr, tab, out
):
    """``out[w]``: how many plays of the seats other than ``me`` differ from
    ``heuristic``'s card with world ``w``'s hands (``worlds[w, s]`` seat s's cards now;
    ``pby[s]`` the cards s has played).  The play seen: trick t's ``sizes[t]`` cards
    ``cards[t, i]`` played by ``seats[t, i]`` in order (seats out under follow=only
    are simply absent); ``first_fixes``: the first card led fixed ``trump``
    (trump=first-lead), so it is not a play policy's choice."""
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
