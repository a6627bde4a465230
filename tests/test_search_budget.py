"""A time budget that holds at 6-7 players: the solver's node budget (``table[0,
T_BUDGET]``), the worlds a budget stops (dropped, never counted), pimc's hint on a clock
at a slow 7-player position, and its fallback when no world is solved in time."""

import random
import sys
import time
from pathlib import Path

import numpy as np
import pytest

import pitchsim.table.clock as clock_mod
from pitchsim.game.reference import deal_hands
from pitchsim.game.rules import Rules
from pitchsim.kernels.search.solver import (
    T_ABORTED,
    T_BUDGET,
    T_NODES,
    card_values,
    new_table,
    solve_position,
)
from pitchsim.search import minimax as reference
from pitchsim.search.double_dummy import kernel_args
from pitchsim.search.hint import hint
from pitchsim.search.position import parse_position, start_position
from pitchsim.table.clock import CLOCK, Clock, Valuation, value_on_clock

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))
from bench_hint_clock import cut, played_hands  # noqa: E402


def random_position(rng, n, cards_played, bid=2):
    pos = start_position(deal_hands(rng, n), rng.randrange(n), Rules(), bid)
    for _ in range(cards_played):
        legal = [c for c in range(52) if pos.legal() >> c & 1]
        pos = pos.play(rng.choice(legal))
    return pos


def solved(pos, budget=0):
    """(value, out, nodes searched, calls stopped) of card_values with a node budget."""
    table = new_table(12)
    table[0, T_BUDGET] = budget
    out = np.empty(52, dtype=np.int64)
    v = card_values(*kernel_args(pos), table, out)
    return v, out, int(table[0, T_NODES]), int(table[0, T_ABORTED])


# ---- the solver's node budget -------------------------------------------------------


def test_a_budget_that_suffices_changes_no_value_and_a_short_one_stops():
    rng = random.Random(19)
    stopped = 0
    for n in (2, 3, 4, 5, 6, 7):
        for _ in range(4):
            pos = random_position(rng, n, rng.randrange(1, 5 * n))
            v, out, nodes, aborted = solved(pos)
            assert aborted == 0
            legal = [c for c in range(52) if pos.legal() >> c & 1]
            # one node more than the search needs: the same search, the same values
            v2, out2, nodes2, aborted2 = solved(pos, nodes + 1)
            assert (v2, aborted2, nodes2) == (v, 0, nodes)
            assert [out2[c] for c in legal] == [out[c] for c in legal]
            if nodes > 1:  # half the nodes it needs: stopped, said so, no value
                v3, _, nodes3, aborted3 = solved(pos, nodes // 2)
                assert (v3, aborted3) == (-1, 1) and nodes3 <= nodes // 2
                stopped += 1
    assert stopped >= 15


def test_budgeted_values_are_the_reference_minimax():
    # Independent of the kernel: the plain-Python minimax, on small endgames.
    rng = random.Random(7)
    for n in (3, 4, 5):
        for _ in range(3):
            pos = random_position(rng, n, 6 * n - 2 * n)
            _, _, nodes, _ = solved(pos)
            v, out, _, aborted = solved(pos, nodes + 1)
            expected = reference.card_values(pos)
            assert aborted == 0 and {c: int(out[c]) for c in expected} == expected


def test_a_whole_deal_race_stops_on_its_budget():
    # Before the opening lead the leads race (their own node limits); the budget still
    # holds over them, and one that suffices gives the same value.
    rng = random.Random(3)
    for n in (3, 5):
        pos = start_position(deal_hands(rng, n), 0, Rules(), None)
        args = kernel_args(pos)
        table = new_table()
        v = solve_position(*args, table)
        nodes = int(table[0, T_NODES])
        for budget, want in ((nodes + 1, v), (max(nodes // 3, 1), -1)):
            t = new_table()
            t[0, T_BUDGET] = budget
            assert solve_position(*args, t) == want
            assert t[0, T_NODES] <= budget


# ---- worlds a budget stops are dropped (pimc's own: tests/test_presets_pimc.py) -------


class FakeTime:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


def test_the_clock_never_counts_a_world_stopped_and_solves_it_again():
    # A stand-in for pimc: world w costs 100 nodes and 1 ms per node; a call stops at
    # its node budget, leaving the world under way undone.  The valued worlds must be
    # 0, 1, 2, ... in order (a world dropped is solved again, never skipped or counted
    # in part), and the stop by the clock said.
    fake = FakeTime()
    calls = []

    def value(lo, hi, nodes):
        calls.append((lo, hi, nodes))
        out = np.empty((2, hi - lo), dtype=np.int64)
        done = searched = 0
        for w in range(lo, hi):
            if nodes and searched + 100 > nodes:
                searched = nodes  # the budget spent inside world w: w is not done
                break
            searched += 100
            out[:, done] = (w, w)
            done += 1
        fake.now += searched * 1e-3
        return out[:, :done], searched

    old = clock_mod.time.perf_counter
    clock_mod.time.perf_counter = fake
    try:
        clock_mod._last_rate[0] = 1000.0  # the first guess (the true rate too)
        clock = Clock(1.0)
        acc = Valuation(np.empty((2, 50), dtype=np.int64))
        value_on_clock(value, 50, clock, acc, None, budgeted=True)
    finally:
        clock_mod.time.perf_counter = old
        clock_mod._last_rate[0] = clock_mod.NODES_PER_SECOND
    got = acc.outcomes()
    assert acc.stop == CLOCK and acc.dropped == 1
    assert list(got[0]) == list(range(acc.valued)) and acc.valued == 9
    # the first call measures the rate on CALIBRATE_SECONDS' nodes (50: world 0 is not
    # done), then world 0 is solved again, with at most twice as many nodes (of 950 left)
    assert calls[0] == (0, 1, 50) and (calls[1][0], calls[1][2]) == (0, 100)
    assert all(nodes <= 200 for _, _, nodes in calls[1:])
    assert fake.now <= 1.0 + 1e-9  # never past the budget when the rate is right


def test_a_budget_with_no_world_solved_stops_with_none():
    fake = FakeTime()

    def value(lo, hi, nodes):
        fake.now += 2.0
        return np.empty((1, 0), dtype=np.int64), nodes

    old = clock_mod.time.perf_counter
    clock_mod.time.perf_counter = fake
    try:
        acc = Valuation(np.empty((1, 5), dtype=np.int64))
        value_on_clock(value, 5, Clock(1.0), acc, None, budgeted=True)
    finally:
        clock_mod.time.perf_counter = old
        clock_mod._last_rate[0] = clock_mod.NODES_PER_SECOND
    assert acc.valued == 0 and acc.stop == CLOCK and acc.dropped == 1


# ---- hint at a slow 7-player position -----------------------------------------------


def slow_position():
    """7 players: the second hand ``scripts/bench_hint_clock.py`` plays, cut after the
    first card; pimc's first four worlds of seed 2 there take 7.1 CPU-s to solve, the
    first two 0.1 (measured, the one engine's hands: one of worlds 3-4 is slow; the
    budget below is a tenth of that, so only a solver stopped inside its world can
    keep it)."""
    return parse_position(cut(played_hands(7, 2, 1)[1], 1))


@pytest.mark.parametrize("budget", [0.6])
def test_pimc_hint_at_seven_players_keeps_its_budget(budget):
    pos = slow_position()
    hint(pos, "rollout", 2, seed=1)  # load the kernels
    t = time.perf_counter()
    h = hint(pos, "pimc", 200, seed=2, time=budget)
    wall = time.perf_counter() - t
    assert h.seconds < budget + 0.5 and wall < budget + 1.0
    if h.fallback is None:
        assert h.policy == "pimc" and h.worlds >= 1 and h.stop == CLOCK
        # the worlds counted are exactly those of an unclocked run of that many
        again = hint(pos, "pimc", h.asked, seed=2)
        assert [c.points for c in again.cards] == [c.points for c in h.cards]
    else:  # no world solved: rollout answered, and says so
        assert h.policy == "rollout" and h.dropped >= 1 and h.worlds >= 1
        assert "pimc solved no world" in h.fallback


# ---- a search play policy on a clock (the engine's decide, KernelSeat) ---------------


def test_pimc_seat_at_seven_players_keeps_its_budget():
    from pitchsim.table.game import play_table_game
    from pitchsim.table.seats import KernelSeat

    seen = []

    class Spy(KernelSeat):
        def decide(self, view, key, values=False, time=None):
            d = super().decide(view, key, values, time)
            if view.phase == "play" and len(view.tricks) == 1:  # the first trick: dearest
                seen.append((view, key))
            return d

    play_table_game([Spy("odds+heuristic") for _ in range(7)], Rules(), 4, 0)
    pimc = KernelSeat("odds+pimc:100")
    budget = 0.3
    heuristic = KernelSeat("odds+heuristic")
    view, key = seen[-1]
    pimc.decide(view, key, False, budget)  # load the kernels (off the clock in use)
    checked = 0
    walls = []
    for view, key in seen:
        legal = view.legal_cards()
        if legal & (legal - 1) == 0:
            continue  # one legal card: no search
        t, c = time.perf_counter(), time.process_time()
        d = pimc.decide(view, key, False, budget)
        walls.append(time.perf_counter() - t)
        # The process's own time never passes the budget; the wall clock can, by the time
        # the process waits for a core (the rate it budgets by is measured in wall time).
        assert time.process_time() - c < budget + 0.2
        s = d.search
        assert s["worlds_max"] == 100 and 0 <= s["worlds"] <= 100
        if s["worlds"] < 100:
            assert s["stop"] in (CLOCK, "separated")
        if s["worlds"] == 0:  # nothing solved in time: the prior, heuristic's card
            assert s["worlds_dropped"] == 1
            assert d.action == heuristic.decide(view, key).action
        checked += 1
    assert checked >= 3 and sorted(walls)[len(walls) // 2] < budget + 0.3
