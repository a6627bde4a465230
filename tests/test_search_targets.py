"""The solver's target queries (issue 33, item 2; ``solver.card_targets``): a target
query's answer per card is the exact value's at the target: against ``card_values`` on
random positions at 3-7 players (solo, partnership, follow=suit, low=dealt), on fresh
tables and on tables kept across a deal's positions, and against the plain-Python
minimax on endgames.
"""

import random

import numpy as np
import pytest
from solver_cases import Solver, line_of_play

from pitchsim.game.cards import cards_of
from pitchsim.game.rules import Rules
from pitchsim.kernels.search import solver as kernel
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
