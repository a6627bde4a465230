"""The base game's search kernels' arguments (``kernels.search.monte_carlo``, which the
base play policies ``pimc`` and ``rollout`` still call through ``kernels.dispatch``),
made from a position or a view: the harness of the tests of those kernels, once
``search.hint``'s own (hint now runs on the preset kernels)."""

import numpy as np

from pitchsim.game.reference import shows_void
from pitchsim.games.policies import seat_planes
from pitchsim.kernels.rng import deal_key
from pitchsim.kernels.search.monte_carlo import ATTEMPTS_PER_WORLD, value_cards
from pitchsim.kernels.search.worlds import sample_worlds, view_constraint


def position_arrays(pos):
    """The kernel view of the player to move, from ``Position.view()`` alone."""
    v = pos.view()
    n = v.players
    complete = [t for t in v.tricks if t.winner is not None]
    current = v.tricks[-1] if v.tricks and v.tricks[-1].winner is None else None
    trick = list(current.cards) if current else []
    if current:
        leader = current.leader
    else:
        leader = complete[-1].winner if complete else v.pitcher
    played = 0
    for t in complete:
        for c in t.cards:
            played |= 1 << c
    voids = 0
    trump = v.trump
    for t in v.tricks:
        led = t.cards[0] // 13
        for i, c in enumerate(t.cards[1:], 1):
            if shows_void(c, led, trump, v.rules):
                voids |= 1 << (4 * ((t.leader + i) % n) + led)
    trick_arr = np.zeros(8, dtype=np.int64)
    trick_arr[: len(trick)] = trick
    won = np.zeros(8, dtype=np.int64)
    won[:n] = v.won
    return v, len(complete), trick_arr, len(trick), leader, played, won, voids


def kernel_args(pos) -> tuple:
    """The play policy's arguments (``kernels.policies``) of the player to move's view:
    legal, hand held, seat, n, pitcher, bid, trump, trick_no, trick, trick_len, leader,
    played, won, who, voids, rules."""
    v, trick_no, trick, trick_len, leader, played, won, voids = position_arrays(pos)
    return (
        v.legal, v.hand, v.seat, v.players, v.pitcher, v.bid or 0, v.trump, trick_no, trick,
        trick_len, leader, played, won, seat_planes(v.played_by), voids, v.rules.to_array(),
    )  # fmt: skip


def sample_view_worlds(
    stream, hand, seat, n, trick_no, trick, trick_len, leader, played, who, voids, worlds, played_by
):
    """The worlds ``card_outcomes`` values, drawn as it draws them (stream ``stream``, up
    to ``worlds.shape[0]``): fills ``worlds[:kept]`` and ``played_by`` (the cards each
    seat has played); returns (kept, attempts).  The kernels' own steps, from Python."""
    counts = np.empty(n, dtype=np.int64)
    allowed = np.empty(n, dtype=np.int64)
    unseen = view_constraint(
        n, seat, hand, trick_no, trick_len, leader, played, trick, who, voids, counts,
        allowed, played_by,
    )  # fmt: skip
    return sample_worlds(
        stream, n, seat, hand, unseen, counts, allowed, worlds,
        ATTEMPTS_PER_WORLD * worlds.shape[0],
    )  # fmt: skip


def value_worlds(
    evaluator, worlds, played_by, n, pitcher, bid, trump, trick_no, trick, trick_len, leader,
    played, won, rules, cards, out, nodes=0, opts=0,
):  # fmt: skip
    """``out[j, w]``: ``cards[j]`` valued in every world of ``worlds`` by ``evaluator``, as
    ``card_outcomes`` values them (``monte_carlo.value_cards``, called from Python);
    returns (worlds done, solver nodes searched): a budget of ``nodes`` (0: none) stops
    at the first world it does not finish."""
    return value_cards(
        evaluator, worlds, worlds.shape[0], played_by, n, pitcher, bid, trump, trick_no, trick,
        trick_len, leader, played, won, rules, cards, out, nodes, opts,
    )  # fmt: skip


def base_worlds(args, seed: int, count: int, block: int = 0):
    """Worlds of the view ``args`` as the base search draws them (stream (seed, block)):
    (worlds, played_by)."""
    _, hand, seat, n, _, _, _, trick_no, trick, trick_len, leader, played, _, who, voids, _ = args
    worlds = np.empty((count, n), dtype=np.int64)
    played_by = np.empty(n, dtype=np.int64)
    kept, _ = sample_view_worlds(
        np.uint64(deal_key(seed, block)), hand, seat, n, trick_no, trick, trick_len, leader,
        played, who, voids, worlds, played_by,
    )  # fmt: skip
    return worlds[:kept], played_by


def view_arrays(view) -> tuple:
    """The kernel arguments of a play policy's view (``kernels.policies``) from a
    player's view: legal, hand held, seat, n, pitcher, bid, trump, trick_no, trick,
    trick_len, leader, played, won, who, voids, rules."""
    n = view.players
    complete = view.complete_tricks
    current = view.current_trick
    played = 0
    for t in complete:
        for c in t.cards:
            played |= 1 << c
    trick = np.zeros(8, dtype=np.int64)
    trick[: len(current.cards)] = current.cards
    won = np.zeros(8, dtype=np.int64)
    won[:n] = view.won
    return (
        view.legal_cards(),
        view.held,
        view.seat,
        n,
        view.pitcher,
        view.bid,
        -1 if view.trump is None else view.trump,
        len(complete),
        trick,
        len(current.cards),
        current.leader,
        played,
        won,
        seat_planes(view.played_by),
        view.voids,
        view.rules.to_array(),
    )
