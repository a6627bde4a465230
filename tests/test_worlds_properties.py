"""Properties of the world resampler (kernels/search/worlds.py) over random views
(hypothesis), against a constraint worked out here from the play itself -- not from the
view's own void bits or the kernel's ``view_constraint``:

- no world gives another seat a card the player holds or has seen played (in a
  completed trick or the current one);
- every world respects every void shown and every hand size;
- the kernel's constraint is exactly the one worked out here (own cards and every
  played card out of the unseen, voids by the rules' follow option);
- on a real end-of-hand view small enough to enumerate, the worlds are uniform over
  every consistent deal (test_worlds.py does this on hand-made constraints).
"""

from __future__ import annotations

import itertools
import math
import random

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_worlds import chi2_limit

from pitchsim.game.reference import deal_hands, play_hand
from pitchsim.game.rules import Rules
from pitchsim.games.policies import seat_planes
from pitchsim.kernels.rng import deal_key
from pitchsim.kernels.search.worlds import sample_worlds, view_constraint

ALL = (1 << 52) - 1
RULES = [
    Rules(),
    Rules(follow="suit"),
    Rules(partnership=True),
    Rules(partnership=True, follow="suit"),
    Rules(low="dealt"),
]
SETTINGS = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def suit_cards(s):
    return 0x1FFF << (13 * s)


def play_to(seed, n, rules, stop):
    """Play a random deal; return the truth, the view at decision ``stop`` and the log
    of every card played before it as (seat, card, led suit, trump)."""
    rng = random.Random(seed)
    dealt = deal_hands(rng, n)
    log, caught = [], []

    def choose(view):
        c = rng.choice([x for x in range(52) if view.legal >> x & 1])
        if len(caught) == 0 and len(log) == stop:
            caught.append(view)
        led = view.trick[0] // 13 if view.trick else c // 13
        trump = view.trump if view.trump >= 0 else led  # the opening lead fixes trump
        if not caught:
            log.append((view.seat, c, led, trump))
        return c

    play_hand(dealt, rng.randrange(n), choose, rules)
    return dealt, caught[0], log


def constraint_from_the_play(view, log, n, rules):
    """(unseen, counts, allowed) worked out from the cards played, by the rules."""
    me = view.seat
    seen = view.hand
    played_by = [0] * n
    voids = [0] * n
    for seat, c, led, trump in log:
        seen |= 1 << c
        played_by[seat] |= 1 << c
        if c // 13 != led and (c // 13 != trump or rules.follow == "suit"):
            voids[seat] |= suit_cards(led)
    unseen = ALL & ~seen
    counts = [6 - played_by[s].bit_count() for s in range(n)]
    allowed = [unseen & ~voids[s] for s in range(n)]
    assert played_by[me] | view.hand == played_by[me] ^ view.hand  # own cards apart
    return unseen, counts, allowed, played_by


def kernel_constraint(view, n):
    counts, allowed, played_by = (np.zeros(n, dtype=np.int64) for _ in range(3))
    trick = np.zeros(8, dtype=np.int64)
    trick[: len(view.trick)] = view.trick
    unseen = view_constraint(
        n,
        view.seat,
        view.hand,
        view.trick_no,
        len(view.trick),
        view.leader,
        view.played,
        trick,
        seat_planes(view.played_by),
        view.voids,
        counts,
        allowed,
        played_by,
    )
    return int(unseen), [int(x) for x in counts], [int(x) for x in allowed], played_by


views = st.builds(
    lambda seed, rules, n, frac: (seed, rules, 4 if rules.partnership else n, frac),
    st.integers(0, 2**32),
    st.sampled_from(RULES),
    st.integers(2, 7),
    st.floats(0, 1, exclude_max=True),
)


@SETTINGS
@given(case=views)
def test_every_world_keeps_to_what_the_player_has_seen(case):
    seed, rules, n, frac = case
    stop = int(frac * 6 * n)
    dealt, view, log = play_to(seed, n, rules, stop)
    me = view.seat
    unseen, counts, allowed, played_by = constraint_from_the_play(view, log, n, rules)
    # the truth fits the constraint (so the voids worked out here are right)
    for s in range(n):
        if s != me:
            held = dealt[s] & ~played_by[s]
            assert held.bit_count() == counts[s] and held & ~allowed[s] == 0
    # the kernel's constraint is this one, seat for seat
    k_unseen, k_counts, k_allowed, k_played_by = kernel_constraint(view, n)
    assert k_unseen == unseen, "the unseen cards differ"
    others = [s for s in range(n) if s != me]
    assert [k_counts[s] for s in others] == [counts[s] for s in others]
    assert [k_allowed[s] & unseen for s in others] == [allowed[s] for s in others]
    assert list(k_played_by) == played_by
    # and its worlds keep to it
    worlds = np.zeros((12, n), dtype=np.int64)
    kept, _ = sample_worlds(
        np.uint64(deal_key(seed % 2**62, stop)),
        n,
        me,
        view.hand,
        np.int64(k_unseen),
        np.array(k_counts),
        np.array(k_allowed),
        worlds,
        100_000,
    )
    assert kept == 12
    seen = view.hand
    for _, c, _, _ in log:
        seen |= 1 << c
    for w in worlds.tolist():
        assert w[me] == view.hand
        given_out = 0
        for s in others:
            assert w[s] & seen == 0, "a seen card given to another seat"
            assert w[s] & ~allowed[s] == 0, "a card of a suit the seat showed void in"
            assert w[s].bit_count() == counts[s], "a hand of the wrong size"
            assert w[s] & given_out == 0, "a card given twice"
            given_out |= w[s]


def find_small_view():
    """A real view late in the last trick: few seats still to play, some void."""
    for seed in itertools.count():
        dealt, view, log = play_to(seed, 7, Rules(follow="suit"), 6 * 7 - 3)
        unseen, counts, allowed, _ = constraint_from_the_play(view, log, 7, Rules(follow="suit"))
        others = [s for s in range(7) if s != view.seat and counts[s]]
        if len(others) == 2 and any(allowed[s] != unseen for s in others):
            return view, log, unseen, counts, allowed


def test_worlds_of_a_real_end_of_hand_view_are_uniform():
    view, log, unseen, counts, allowed = find_small_view()
    me, n = view.seat, 7
    seats = [s for s in range(n) if s != me and counts[s]]
    pools = [[c for c in range(52) if allowed[s] >> c & 1] for s in seats]
    every = [(a, b) for a in pools[0] for b in pools[1] if a != b]  # one card each
    assert 50 <= len(every) <= 400
    k_unseen, k_counts, k_allowed, _ = kernel_constraint(view, n)
    draws = 60 * len(every)
    worlds = np.zeros((draws, n), dtype=np.int64)
    kept, _ = sample_worlds(
        np.uint64(deal_key(3, 3)),
        n,
        me,
        view.hand,
        np.int64(k_unseen),
        np.array(k_counts),
        np.array(k_allowed),
        worlds,
        50 * draws,
    )
    assert kept == draws
    tally = {}
    for w in worlds.tolist():
        a, b = (w[s].bit_length() - 1 for s in seats)
        assert all(w[s] == 0 for s in range(n) if s not in seats and s != me)
        tally[(a, b)] = tally.get((a, b), 0) + 1
    assert set(tally) <= set(every)
    expected = draws / len(every)
    chi2 = sum((tally.get(w, 0) - expected) ** 2 / expected for w in every)
    assert chi2 < chi2_limit(len(every) - 1), (chi2, len(every))
    assert math.isfinite(chi2)
