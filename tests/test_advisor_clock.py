"""The ``advisor`` bidding policy on a clock (``table.advisor_clock``): a seat's advisor
call answered within its time budget (``KernelSeat(time=)``, the engine's options.time).

The reference is the unclocked advisor, the kernel (``kernels.advisor``: one
numba call over all its deals): with time enough the clocked call must be its call;
with little time the call must come within the budget; with no time nothing changes
(a table game of advisor seats is still the kernel's game)."""

import json
import time

import pytest

from pitchsim.game.rules import Rules
from pitchsim.table import advisor_clock
from pitchsim.table.advisor_clock import ALL_DONE, CLOCK, SEPARATED, rounds
from pitchsim.table.bidding import Strategy
from pitchsim.table.boards import board_game
from pitchsim.table.engine import Engine
from pitchsim.table.game import play_table_game
from pitchsim.table.record import record_of_preset_game, views_of
from pitchsim.table.seats import KernelSeat
from pitchsim.util.runtime import use_threads


def auction_views(players: int, games: int = 1, seed: int = 4):
    """(view, key) of every call in the first hands of table games of odds seats."""
    seen = []

    class Spy(KernelSeat):
        def decide(self, view, key, values=False, time=None):
            if view.phase == "auction":
                seen.append((view, key))
            return super().decide(view, key, values, time)

    for board in range(games):
        play_table_game([Spy("odds+heuristic") for _ in range(players)], Rules(), seed, board)
    return seen


@pytest.mark.parametrize("players, samples, games", [(4, 32, 2), (7, 32, 1), (7, 3000, 1)])
def test_with_time_enough_the_call_is_the_unclocked_advisors(players, samples, games):
    seat = KernelSeat("advisor+heuristic", samples=samples)
    stops = set()
    for view, key in auction_views(players, games)[:28]:
        plain = seat.decide(view, key)
        timed = seat.decide(view, key, time=600)
        assert (timed.action, timed.plan) == (plain.action, plain.plan), view.calls
        s = timed.search
        assert s["deals_max"] == samples and 0 < s["deals"] <= samples
        assert s["stop"] in (ALL_DONE, SEPARATED)
        if s["stop"] == SEPARATED:  # a separated stop comes at a round's end
            assert s["deals"] in rounds(samples)[:-1]
        stops.add(s["stop"])
        again = seat.decide(view, key, time=600)  # the same seed and rounds: the same call
        assert {k: v for k, v in again.search.items() if k != "seconds"} == {
            k: v for k, v in s.items() if k != "seconds"
        }
        assert (again.action, again.plan) == (timed.action, timed.plan)
    assert ALL_DONE in stops


def test_with_every_deal_done_the_trumps_are_all_the_deals(monkeypatch):
    # Rounds from 4 deals: the first round's trumps often differ from all 32 deals'; a
    # run that plays every deal must still make the unclocked call (trumps from all).
    monkeypatch.setattr(advisor_clock, "FIRST_ROUND", 4)
    seat = KernelSeat("advisor+heuristic", samples=32)
    done = 0
    for view, key in auction_views(4, 2):
        timed = seat.decide(view, key, time=600)
        if timed.search["stop"] == ALL_DONE:
            plain = seat.decide(view, key)
            assert (timed.action, timed.plan) == (plain.action, plain.plan), view.calls
            assert timed.search["trump_deals"] == timed.search["deals"]
            done += 1
    assert done >= 5


@pytest.mark.parametrize("players", [6, 7])
def test_an_advisor_seat_keeps_its_budget(players):
    # 100,000 deals a call: some 15 s at 7 players unclocked (docs/search.md).
    seat = KernelSeat("advisor+heuristic", samples=100_000)
    views = auction_views(players)[: 2 * players]  # the first two hands' calls
    budget = 0.3
    with use_threads(1):  # CPU time is wall time on one thread, whatever the load
        seat.decide(*views[0], time=budget)  # the kernels loaded, off the clocks below
        for view, key in views:
            c = time.process_time()
            d = seat.decide(view, key, time=budget)
            cpu = time.process_time() - c
            # a kernel call aims at SLICE (0.1 s): the clock is read between them
            assert cpu < budget + 0.25, (cpu, d.search)
            s = d.search
            assert s["deals"] < 100_000 and s["stop"] in (CLOCK, SEPARATED)
            assert d.action in [str(c) if c else "pass" for c in view.legal_calls()]


class FakeClock:
    """perf_counter that moves ``step`` seconds at every reading."""

    def __init__(self, step: float):
        self.now = 0.0
        self.step = step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def test_with_no_deal_in_time_the_advisor_calls_as_its_model(monkeypatch):
    views = auction_views(7)
    advisor = KernelSeat("advisor+heuristic", samples=1000)
    odds = KernelSeat("odds+heuristic")
    monkeypatch.setattr(advisor_clock, "perf_counter", FakeClock(10.0))
    for view, key in views:
        d = advisor.decide(view, key, time=1.0)
        assert d.search["fallback"] == "model" and d.search["stop"] == CLOCK
        assert d.search["deals"] < advisor_clock.MIN_DEALS
        m = odds.decide(view, key)  # the same stream: the odds policy's own call
        assert (d.action, d.plan) == (m.action, m.plan)


@pytest.mark.parametrize(
    "names",
    [
        ["advisor+heuristic", "odds+heuristic", "heuristic+heuristic", "advisor+random"],
        ["advisor+heuristic"] + ["odds+heuristic"] * 6,
    ],
)
def test_with_no_time_a_table_of_advisors_is_the_kernel_game(names):
    table = play_table_game(names, Rules(), 3, 1)
    kernel = record_of_preset_game(board_game(3, 1, [Strategy.parse(s) for s in names], Rules()))
    assert table == kernel


def test_the_engine_reports_the_advisors_stop():
    view, key = auction_views(7)[3]
    engine = Engine(strategy="advisor+heuristic", seed=5)
    request = {"type": "decide", "id": 1, "view": view.to_json()}
    plain = json.loads(engine.handle(json.dumps(request)))
    assert plain["type"] == "action" and "search" not in plain
    request["options"] = {"samples": 100_000, "time": 0.3}
    t = time.perf_counter()
    timed = json.loads(engine.handle(json.dumps(request)))
    took = time.perf_counter() - t
    assert timed["type"] == "action", timed
    s = timed["search"]
    assert s["deals_max"] == 100_000 and 0 <= s["deals"] < 100_000
    assert s["stop"] in (CLOCK, SEPARATED) and took < 5  # unclocked: some 15 s
    request["options"] = {"time": 600}  # 32 deals: all done, the unclocked call
    full = json.loads(engine.handle(json.dumps(request)))
    assert full["action"] == plain["action"] and full["search"]["stop"] == ALL_DONE
    assert full["search"]["deals"] == 32


def test_the_opening_lead_asks_the_advisors_plan_on_the_clock(monkeypatch):
    # The engine recovers a pitcher's planned trump by asking his call again: on a clock
    # that ask must be timed too (an unclocked one would play 100,000 deals).
    asked = []
    real = advisor_clock.timed_advisor_call

    def spy(*args):
        asked.append(args[-1])
        return real(*args)

    monkeypatch.setattr("pitchsim.table.decide.timed_advisor_call", spy)
    names = ["advisor+heuristic"] * 4
    record = play_table_game(names, Rules(), 2, 0)
    engine = Engine(strategy="advisor+heuristic", seed=0)
    lead = next(v for v, _ in views_of(record) if v.phase == "play" and v.trump is None)
    request = {
        "type": "decide",
        "view": lead.to_json(),
        "options": {"samples": 100_000, "time": 0.5},
    }
    t = time.perf_counter()
    reply = json.loads(engine.handle(json.dumps(request)))
    assert reply["type"] == "action", reply
    assert asked and asked[0] == pytest.approx(0.5) and time.perf_counter() - t < 5
