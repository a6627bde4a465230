"""pimc's target queries and per-world node budgets (issue 33, item 2;
``solver.card_targets``, ``monte_carlo.TARGET_QUERY``, ``WORLD_NODES``).

- A target query's answer per card is the exact value's at the target: against
  ``card_values`` on random positions at 3-7 players (solo, partnership, follow=suit,
  low=dealt), on fresh tables and on tables kept across a deal's positions, and against
  the plain-Python minimax on endgames.
- pimc with target queries values each world as the exact valuing does at the bid, and
  its card makes the bid in as many worlds as the exact valuing's best card.
- A world over its own node budget is dropped and the next solved: the worlds kept are
  exactly those whose search fits the budget, each with its exact values.
- With ``ROLLOUT_TIES`` the cards tied on the worlds made are ranked as ``rollout``
  ranks them on the same worlds, then the prior.
"""

import random

import numpy as np
import pytest
from base_search import position_arrays as _view_arrays
from base_search import sample_view_worlds, value_worlds
from solver_cases import Solver, line_of_play

from pitchsim.game.cards import cards_of
from pitchsim.game.rules import R_PARTNERSHIP, Rules
from pitchsim.games.policies import seat_planes
from pitchsim.kernels.search import solver as kernel
from pitchsim.kernels.search.monte_carlo import (
    DOUBLE_DUMMY,
    PLAY_NODES,
    ROLLOUT,
    ROLLOUT_TIES,
    TARGET_QUERY,
    WORLD_NODES_SHIFT,
    choose_by_outcomes,
    decision_stream,
    search_card,
)
from pitchsim.search import minimax as reference
from pitchsim.search.double_dummy import kernel_args
from pitchsim.search.position import start_position

VARIANTS = [Rules(), Rules(partnership=True), Rules(follow="suit"), Rules(low="dealt")]


def at_target(values, target):
    """The target query's answer from exact values: target when made, else target - 1."""
    return {c: target if v >= target else target - 1 for c, v in values.items()}


def targets(args, table, target):
    out = np.empty(52, dtype=np.int64)
    v = kernel.card_targets(*args, table, out, target)
    return int(v), {c: int(out[c]) for c in range(52) if out[c] >= 0}


def exact(args, table):
    out = np.empty(52, dtype=np.int64)
    v = kernel.card_values(*args, table, out)
    return int(v), {c: int(out[c]) for c in range(52) if out[c] >= 0}


def varied_position(rng, n, rules, cards_played, bid=2):
    """A random deal under ``rules``, the pitcher's bid ``bid``, played at random."""
    pos = start_position(_deal(rng, n), rng.randrange(n), rules, bid)
    for _ in range(cards_played):
        pos = pos.play(rng.choice(cards_of(pos.legal())))
    return pos


def _deal(rng, n):
    deck = list(range(52))
    rng.shuffle(deck)
    return [sum(1 << c for c in deck[6 * s : 6 * s + 6]) for s in range(n)]


@pytest.mark.parametrize("rules", VARIANTS, ids=["solo", "partnership", "follow=suit", "low=dealt"])
def test_target_queries_answer_as_the_exact_values(rules):
    rng = random.Random(33)
    checked = 0
    for n in (4,) if rules.partnership else (3, 4, 5, 6, 7):
        for _ in range(12 if rules.partnership else 6):
            pos = varied_position(rng, n, rules, rng.randrange(1, 4 * n))
            if pos.finished:
                continue
            args = kernel_args(pos)
            _, values = exact(args, kernel.new_table(12))
            for target in (1, 2, 3, 4, 5):
                v, got = targets(args, kernel.new_table(12), target)
                want = at_target(values, target)
                assert got == want, (pos.to_json(), target)
                mover = pos.pitcher_side(pos.to_play)
                assert v == (max if mover else min)(want.values())
                checked += 1
    assert checked >= 60


def test_target_queries_are_the_reference_minimax():
    # Independent of the kernel's exact valuing: the plain-Python minimax on endgames.
    rng = random.Random(8)
    for n in (3, 4, 5):
        for rules in (Rules(), Rules(follow="suit")):
            for _ in range(3):
                pos = varied_position(rng, n, rules, 6 * n - 2 * n)
                want = reference.card_values(pos)
                for target in (1, 2, 3, 4):
                    _, got = targets(kernel_args(pos), kernel.new_table(12), target)
                    assert got == at_target(want, target), (pos.to_json(), target)


@pytest.mark.parametrize("n", [4, 5, 6, 7])
def test_target_queries_on_tables_kept_across_a_deal(n):
    """Along lines of play (5, 4, 3 tricks from the end), every card's target query at
    each target on tables of 1, 2, 10 and 16 bits kept across the deal (``T_SAME``):
    a target query's entries are bounds another target reads."""
    rng = random.Random(100 + n)
    rules = Rules()
    solver = Solver(rules)
    kept = [kernel.new_table(b) for b in (1, 2, 10, 16)]
    for _ in range(4):
        for k, st in enumerate(line_of_play(rules, n, rng, 2)):
            _, values = solver.card_values(st, kernel.new_table(16))
            for target in (1, 2, 3, 4):
                for table in kept:
                    table[0, kernel.T_SAME] = k > 0 or target > 1
                    out = np.empty(52, dtype=np.int64)
                    kernel.card_targets(*solver.args(st, table), out, target)
                    got = {c: int(out[c]) for c in range(52) if out[c] >= 0}
                    assert got == at_target(values, target), (st, target, table.shape)


def view_worlds(pos, worlds_wanted, seed):
    """The decision's worlds as pimc draws them, and ``value_worlds``' other arguments."""
    view, trick_no, trick, trick_len, leader, played, won, voids = _view_arrays(pos)
    n = view.players
    worlds = np.empty((worlds_wanted, n), dtype=np.int64)
    played_by = np.empty(n, dtype=np.int64)
    kept, _ = sample_view_worlds(
        np.uint64(decision_stream(np.uint64(seed), 1)), view.hand, view.seat, n, trick_no,
        trick, trick_len, leader, played, seat_planes(view.played_by), voids, worlds,
        played_by,
    )  # fmt: skip
    cards = np.array(cards_of(view.legal), dtype=np.int64)
    rest = (n, view.pitcher, view.bid or 0, view.trump, trick_no, trick, trick_len, leader)
    rest += (played, won, view.rules.to_array(), cards)
    return view, worlds[:kept], played_by, rest


def valued(worlds, played_by, rest, opts=0, nodes=0, evaluator=DOUBLE_DUMMY):
    cards = rest[-1]
    out = np.full((cards.size, worlds.shape[0]), -7, dtype=np.int64)
    done, searched = value_worlds(evaluator, worlds, played_by, *rest[:-1], cards, out, nodes, opts)
    return out, int(done), int(searched)


def test_pimc_with_target_queries_picks_a_card_making_the_bid_as_often():
    rng = random.Random(5)
    positions = 0
    for n in (4, 5, 6):
        for rules in (Rules(), Rules(partnership=True)) if n == 4 else (Rules(),):
            for _ in range(4):
                bid = rng.choice((2, 3))
                pos = varied_position(rng, n, rules, rng.randrange(n, 4 * n), bid)
                if pos.finished or pos.legal() & (pos.legal() - 1) == 0:
                    continue
                view, worlds, played_by, rest = view_worlds(pos, 12, rng.randrange(1000))
                full, done, _ = valued(worlds, played_by, rest)
                part, done_t, _ = valued(worlds, played_by, rest, TARGET_QUERY)
                bid = view.bid
                assert done == done_t == worlds.shape[0]
                assert (part == np.where(full >= bid, bid, bid - 1)).all()
                cards = rest[-1]
                arr = rules.to_array()
                ours = (
                    (view.seat ^ view.pitcher) & 1 == 0
                    if arr[R_PARTNERSHIP]
                    else view.seat == view.pitcher
                )
                made = (full >= bid).sum(axis=1)
                best = made.max() if ours else made.min()
                card = choose_by_outcomes(cards, part, done, ours, bid, cards[0])
                assert made[list(cards).index(card)] == best
                positions += 1
    assert positions >= 10


def test_a_world_over_its_own_budget_is_dropped_and_the_next_solved():
    rng = random.Random(21)
    dropped = 0
    for n in (5, 6, 7):
        pos = varied_position(rng, n, Rules(), rng.randrange(1, n))
        _, worlds, played_by, rest = view_worlds(pos, 10, 3)
        full, done, _ = valued(worlds, played_by, rest)
        assert done == worlds.shape[0]
        # each world's nodes alone (a fresh generation each: no world reads another's)
        nodes = [valued(worlds[w : w + 1], played_by, rest)[2] for w in range(done)]
        k = int(np.log2(max(np.median(nodes), 2)))
        fits = [w for w in range(done) if nodes[w] < 1 << k]
        part, kept, _ = valued(worlds, played_by, rest, k << WORLD_NODES_SHIFT)
        assert kept == len(fits)
        assert (part[:, :kept] == full[:, fits]).all()
        dropped += done - kept
    assert dropped > 0


def rank(out, bid):
    """Each card's rank on ``out`` as pimc and rollout rank it: worlds made, then points."""
    return (out >= bid).sum(axis=1) * (out.size * max(out.max(), 0) + 1) + out.sum(axis=1)


def test_rollout_ranks_the_cards_target_queries_tie():
    """``TARGET_QUERY | ROLLOUT_TIES``: the card has the most worlds made by the target
    queries (the fewest for a defender), among those the best rank by heuristic
    playouts of the same worlds, among those the prior (``heuristic``'s card)."""
    rng = random.Random(8)
    positions = changed = 0
    W = 10
    for n in (4, 5, 6, 7):
        for rules in (Rules(), Rules(partnership=True)) if n == 4 else (Rules(),):
            for _ in range(6):
                pos = varied_position(rng, n, rules, rng.randrange(2, 3 * n), rng.choice((2, 3)))
                if pos.finished or pos.legal() & (pos.legal() - 1) == 0:
                    continue
                seed = rng.randrange(1000)
                view, worlds, played_by, rest = view_worlds(pos, W, seed)
                assert worlds.shape[0] == W
                bid, cards = view.bid, rest[-1]
                target, done, _ = valued(worlds, played_by, rest, TARGET_QUERY, PLAY_NODES)
                playouts, _, _ = valued(worlds, played_by, rest, evaluator=ROLLOUT)
                _, trick_no, trick, trick_len, leader, played, won, voids = _view_arrays(pos)
                args = (view.legal, view.hand, view.seat, n, view.pitcher, bid, view.trump)
                args += (trick_no, trick, trick_len, leader, played, won)
                args += (seat_planes(view.played_by), voids, rules.to_array(), np.uint64(seed), 1)

                def card(worlds_arg, args=args):
                    return int(search_card(DOUBLE_DUMMY, worlds_arg, *args))

                prior = card(0)  # no worlds: the prior
                ours = rules.team(view.seat) == rules.team(view.pitcher)
                sign = 1 if ours else -1
                first = sign * (target[:, :done] >= bid).sum(axis=1)
                tied = first == first.max()
                second = sign * rank(playouts[:, :done], bid)
                best = tied & (second == second[tied].max())
                got = card(W | TARGET_QUERY | ROLLOUT_TIES)
                j = list(cards).index(got)
                assert best[j]
                assert got == prior or not best[list(cards).index(prior)]
                changed += got != card(W | TARGET_QUERY)
                positions += 1
    assert positions >= 20
    assert changed > 0  # the playouts decided some ties that went to the prior
