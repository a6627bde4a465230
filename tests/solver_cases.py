"""The double-dummy solver's test harness, shared by the solver tests that check the
kernel against the plain-Python minimax on tables kept across a deal
(tests/test_solver_key_through_search.py, tests/test_solver_relevance.py,
tests/test_solver_partition.py).

- ``Solver``: the kernel's entry points for one rules, called with the arguments the
  product gives them (``search.double_dummy.kernel_args``: the same types, so the same
  compiled signatures).
- ``check_deal``: a position and the trick-boundary positions of its minimax tree, each
  solved in turn on tables kept across the deal (``T_SAME``), against the minimax.
- ``dense_position``, ``preset_position``, ``line_of_play``: the positions the tests deal.
- ``first_position``: the first dealt position where a table counter moves (the solver
  skipped a move by relevance, a partition bound covered a position): a case that tests
  the feature, not a search that never uses it.
- ``on_and_off_along_lines``: every card's value with a solver feature on and off along
  lines of play, on a fresh table and on tables kept across the line.
"""

from __future__ import annotations

import random
from dataclasses import replace

import numpy as np
from test_family_solver import cut, random_hand
from test_solver_keys import dense_deal, family_position

from pitchsim.game.cards import cards_of
from pitchsim.game.rules import Rules
from pitchsim.kernels.presets import rules_array, rules_table
from pitchsim.kernels.search import solver as kernel
from pitchsim.search import minimax as fm
from pitchsim.search.position import start_position


class Solver:
    """The kernel's entry points for one rules: the base game's (``solve_position``,
    ``card_values``) or a preset's (``solve_preset``, ``preset_card_values``)."""

    def __init__(self, rules):
        self.base = rules.base_game
        self.arrays = (
            (rules_array(rules),) if self.base else (rules_array(rules), rules_table(rules))
        )

    def args(self, st, table):
        n = st.n
        trick = np.zeros(8, dtype=np.int64)
        trick[: len(st.trick)] = st.trick
        return (
            np.array(st.hands, dtype=np.int64),
            np.array(st.won, dtype=np.int64),
            np.array(st.held, dtype=np.int64),
            n,
            st.leader,
            trick,
            len(st.trick),
            st.trump,
            st.pitcher,
            *self.arrays,
            table,
        )

    def value(self, st, table):
        args = self.args(st, table)
        if self.base:
            return int(kernel.solve_position(*args))
        return int(kernel.solve_preset(*args, -1))  # (no card called: -1)

    def card_values(self, st, table):
        out = np.empty(kernel.N_CARDS if not self.base else 52, dtype=np.int64)
        args = self.args(st, table)
        if self.base:
            v = kernel.card_values(*args, out)
        else:
            v = kernel.preset_card_values(*args, out, -1)  # (no card called: -1)
        return int(v), {c: int(out[c]) for c in range(out.size) if out[c] >= 0}


def boundaries(st, memo, rng, most):
    """The trick-boundary positions of ``st``'s minimax tree (its memo), each with its
    value, in a random order, ``most`` of them at most."""
    keys = [key for key in memo if not key[2]]
    rng.shuffle(keys)
    nodes = []
    for key in keys[:most]:
        hands, won, _trick, _seats, leader, _offset, trump, first = key
        nodes.append((replace(st, hands=hands, won=won, leader=leader, trump=trump,
                              trick=(), seats=(), offset=0, first=first), memo[key]))  # fmt: skip
    return nodes


def check_deal(st, solver, tables, rng, most=1500):
    """``st`` and the boundary positions of its tree, solved in turn on each table kept
    across the deal, against the minimax."""
    memo: dict = {}
    want = fm.solve(st, memo)
    want_cards = {c: fm.solve(st.play(c), memo) for c in cards_of(st.legal())}
    for table in tables:
        got = solver.card_values(st, table)  # a fresh generation
        assert got == (want, want_cards), (st, table.shape)
    nodes = [(st, want), *boundaries(st, memo, rng, most)]
    for table in tables:
        for k, (pos, value) in enumerate(nodes):
            table[0, kernel.T_SAME] = k > 0  # keep the entries of this deal's calls
            assert solver.value(pos, table) == value, (st, pos, table.shape)
        table[0, kernel.T_SAME] = 1
        got = solver.card_values(st, table)  # the root again, on the full table
        assert got == (want, want_cards), (st, table.shape)
    return len(nodes)


def spec_id(spec):
    return spec or "auction-pitch"


def case_ids(cases, *columns):
    """Test ids of ``(rules, players, count, ...)`` cases: the rules, the players, then
    each later column's value with its name (``case_ids(cases, "left", "suits")``)."""
    return [
        f"{spec_id(c[0])}-{c[1]}p"
        + "".join(f"-{v}{k}" for k, v in zip(columns, c[3 : 3 + len(columns)], strict=True))
        for c in cases
    ]


def rules_of(spec):
    return Rules.parse(spec) if spec else Rules()


def preset_position(rules, n, rng, left):
    """A preset's position ``left`` tricks from the end (some inside a trick); under
    game=count one where Game is open and close."""
    pitcher, held, hands, won, leader, trick, trump = family_position(rules, n, rng, left)
    return fm.start_state(rules, pitcher, held, hands, won, trump, leader, trick)


def dense_position(rng, n, rules, suits, left):
    """A base position ``left`` tricks from the end (sometimes a card or two into the
    next trick), dealt from ``suits`` suits and played at random."""
    while True:
        pos = start_position(dense_deal(rng, n, suits), rng.randrange(n), rules)
        for _ in range(6 * n - left * n + rng.randrange(min(n, 3))):
            pos = pos.play(rng.choice(cards_of(pos.legal())))
        if not pos.finished:
            return pos.state


def line_of_play(rules, n, rng, suits):
    """The trick-boundary positions 5, 4 and 3 tricks from the end of one deal played
    at random (base rules: dealt from ``suits`` suits)."""
    if isinstance(rules, Rules):
        pos = start_position(dense_deal(rng, n, suits), rng.randrange(n), rules)
        out = []
        while not pos.finished:
            if not pos.state.trick and len(cards_of(pos.hands[0])) in (3, 4, 5):
                out.append(pos.state)
            pos = pos.play(rng.choice(cards_of(pos.legal())))
        return out
    held, trump, rec = random_hand(rules, n, rng)
    out = []
    for left in (5, 4, 3):
        hands, won, leader, trick, tr = cut(held, trump, rec, len(rec.tricks) - left, 0)
        out.append(fm.start_state(rules, rec.pitcher, held, hands, won, tr, leader, trick))
    return out


# Dense positions, where the solver's pruning acts most: (rules, players, positions,
# tricks left, suits dealt from): auction-pitch solo at 3-7 players, partnership,
# follow=suit, low=dealt; and the presets' (rules, players, positions, tricks left):
# smear (3, 5 players, pooled), setback, the jick with the 5 and low=dealt.
DENSE_CASES = [
    ("", 3, 3, 4, 1),
    ("follow=suit", 3, 2, 4, 2),
    ("low=dealt", 3, 2, 4, 1),
    ("", 4, 3, 3, 1),
    ("partnership=true", 4, 2, 3, 2),
    ("follow=suit,partnership=true", 4, 2, 3, 1),
    ("", 5, 2, 3, 2),
    ("", 6, 2, 3, 1),
    ("", 7, 2, 3, 1),
]
DENSE_PRESET_CASES = [
    ("smear", 3, 2, 4),
    ("smear", 5, 2, 3),
    ("smear,partnership=true", 4, 2, 3),
    ("setback", 4, 2, 3),
    ("jick=true,five=true,low=dealt", 4, 2, 3),
]


def first_position(make, solver, counter, table_flags=()):
    """The first position from ``make()`` whose every card's value, on a fresh table
    (with ``table_flags``, ``(column, value)`` pairs, set in its row 0), moves the
    table's ``counter`` (say ``T_SKIPPED`` or ``T_COVERED``)."""
    for _ in range(500):
        st = make()
        table = kernel.new_table(kernel.TABLE_BITS)
        for column, value in table_flags:
            table[0, column] = value
        solver.card_values(st, table)
        if table[0, counter] > 0:
            return st
    raise AssertionError(f"no position that moves table counter {counter}")


def check_dense_and_preset_cases(spec, n, count, left, suits, tables, seed, counter, flags=()):
    """``count`` positions (base rules: dealt from ``suits`` suits; a preset's when
    ``suits`` is None), each one that moves ``counter`` (``first_position``), checked
    with ``check_deal`` on ``tables``."""
    rules = rules_of(spec)
    rng = random.Random(seed)
    solver = Solver(rules)
    for _ in range(count):
        if suits is None:
            make = lambda: preset_position(rules, n, rng, (left, left))  # noqa: E731
        else:
            make = lambda: dense_position(rng, n, rules, suits, left)  # noqa: E731
        st = first_position(make, solver, counter, flags)
        check_deal(st, solver, tables, rng, most=400)


# A table of fewer than 2^10 rows searches a position of tens of millions of nodes for
# half a minute (one such position in the deep partition cases: 36M nodes, 30 CPU s on
# tables of 2 and 4 rows): such tables are checked on positions whose search without
# the feature took at most this many nodes.
TINY_TABLE_BITS = 10
TINY_TABLE_NODES = 1_000_000


def on_and_off_along_lines(spec, n, count, suits, seed, flag, on, off, counter, fresh, kept):
    """Every card's value with a solver feature on (``table[0, flag] = on``) and off,
    at the trick-boundary positions 5, 4 and 3 tricks from the end of ``count`` deals
    (``line_of_play``): on the ``fresh`` table, and on every ``kept`` table kept across
    a deal's positions (``T_SAME``; a tiny table only where the search without the
    feature took at most ``TINY_TABLE_NODES``).  Returns how many positions moved
    ``counter`` (the feature acted)."""
    rules = rules_of(spec)
    rng = random.Random(seed)
    solver = Solver(rules)

    def values(st, table, value):
        table[0, flag] = value
        try:
            return solver.card_values(st, table)
        finally:
            table[0, flag] = on

    acted = 0
    for _ in range(count):
        for k, st in enumerate(line_of_play(rules, n, rng, suits)):
            nodes = fresh[0, kernel.T_NODES]
            want = values(st, fresh, off)
            small = fresh[0, kernel.T_NODES] - nodes <= TINY_TABLE_NODES
            before = fresh[0, counter]
            assert values(st, fresh, on) == want, st
            acted += fresh[0, counter] > before
            for table in kept:
                table[0, kernel.T_SAME] = k > 0
                if small or table.shape[0] > 1 << TINY_TABLE_BITS:
                    assert values(st, table, on) == want, (st, table.shape)
    return acted
