"""The base solver's transposition table when the Game counts leave the key.

Once Game is decided (one side's count out of every other's reach) or a count can no
longer matter, ``_key`` clears the counts, and the hands alone (in relative ranks) tell
positions apart: which seat still holds the Jack, Low or High, or a card that can
still take them.  Then an entry compared on fewer than every seat's hand is shared by
positions of different value.  The positions here are late (2-4 tricks left at 3-4
players, solo and partnership), played at random from dense deals (two or three
suits: plain neighbours, so different earlier play reaches the same relative hands),
kept where Game is decided and a point card is still held; each is valued card by card
through tables of one bucket, two buckets and the shipped size, each reused for every
position, against the plain-Python minimax.

Planted and reverted (each fails here; ``test_solver_transpositions.py`` and
``test_solver_keys.py``, whose positions keep Game open, pass with it): the entry
compared on every hand but the last seat's (``_same_entry``'s ``range(n - 1)``).
"""

from __future__ import annotations

import random

import pytest

from pitchsim.game.cards import cards_of, game_points, mask_of, suit_of
from pitchsim.game.rules import Rules
from pitchsim.kernels.search import solver as kernel
from pitchsim.search import minimax as reference
from pitchsim.search.double_dummy import kernel_args, solve
from pitchsim.search.position import start_position


def dense_deal(rng, n, suits):
    """6 cards a seat from ``suits`` suits (more when they do not hold enough)."""
    order = rng.sample(range(4), 4)
    deck = []
    for k, s in enumerate(order):
        deck += [13 * s + r for r in range(13)]
        if k + 1 >= suits and len(deck) >= 6 * n + 2:
            break
    rng.shuffle(deck)
    return [mask_of(deck[6 * s : 6 * s + 6]) for s in range(n)]


def game_decided(pos):
    """One side's Game count is out of every other side's reach (reckoned here from the
    cards' Game points, apart from the solver's ``_key``)."""
    n = pos.players
    sides = [pos.rules.team(s) if pos.rules.partnership else s for s in range(n)]
    count = {side: 0 for side in sides}
    for s in range(n):
        count[sides[s]] += sum(game_points(c) for c in cards_of(pos.won[s]))
    held = mask_of(pos.trick)
    for h in pos.hands:
        held |= h
    left = sum(game_points(c) for c in cards_of(held))
    best = max(count.values())
    leaders = [side for side, c in count.items() if c == best]
    return len(leaders) == 1 and best > max(
        (c + left for side, c in count.items() if side != leaders[0]), default=-1
    )


def trump_point_held(pos):
    """A trump still held that may score (the Jack, or a 2-4 that may be Low)."""
    held = 0
    for h in pos.hands:
        held |= h
    return any(suit_of(c) == pos.trump and c % 13 in (0, 1, 2, 9) for c in cards_of(held))


def late_position(rng, n, rules, tricks_left):
    for _ in range(5000):
        pos = start_position(dense_deal(rng, n, rng.choice((2, 3))), rng.randrange(n), rules)
        cut = 6 * n - tricks_left * n + rng.randrange(n)
        for _ in range(cut):
            pos = pos.play(rng.choice(cards_of(pos.legal())))
        if not pos.finished and game_decided(pos) and trump_point_held(pos):
            return pos
    raise AssertionError("no position found")


@pytest.fixture(scope="module")
def tables():
    """One bucket (every entry checked against every key), two, and the shipped size."""
    return [kernel.new_table(1), kernel.new_table(2), kernel.new_table(kernel.TABLE_BITS)]


CASES = [  # (players, rules, positions, tricks left)
    (3, Rules(), 150, 3),
    (3, Rules(), 40, 4),
    (3, Rules(follow="suit"), 80, 3),
    (3, Rules(low="dealt"), 80, 3),
    (4, Rules(), 120, 2),
    (4, Rules(), 30, 3),
    (4, Rules(partnership=True), 120, 2),
    (4, Rules(partnership=True, follow="suit"), 30, 3),
]


def case_id(n, r, left):
    return f"{n}p-{'team' if r.partnership else 'solo'}-{r.follow}-{r.low}-{left}left"


@pytest.mark.parametrize(
    "n, rules, count, left",
    CASES,
    ids=[case_id(n, r, left) for n, r, _, left in CASES],
)
def test_positions_with_game_decided_against_the_minimax(n, rules, count, left, tables):
    rng = random.Random(f"table/{case_id(n, rules, left)}")
    for _ in range(count):
        pos = late_position(rng, n, rules, left)
        expected = reference.card_values(pos)
        mover = pos.pitcher_side(pos.to_play)
        want = max(expected.values()) if mover else min(expected.values())
        for table in tables:
            got = solve(pos, table)
            assert (got.value, got.cards) == (want, expected), (pos.to_json(), table.shape)
            assert kernel.solve_position(*kernel_args(pos), table) == want
