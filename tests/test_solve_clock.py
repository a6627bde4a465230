"""``pitchsim solve --time`` and ``search.double_dummy.solve(time=)``: the exact solve on a
clock (issue 19).  A position the clock stops gets no value, one line saying what to do,
and exit status 1; a position solved within its budget gives exactly the unbudgeted
answer; a bad budget is refused in one line (exit 2) before anything is read."""

from __future__ import annotations

import json
from functools import partial
from pathlib import Path

import pytest
from clirun import cli as run_cli

from pitchsim.kernels.search import solver as kernel
from pitchsim.search import double_dummy as dd
from pitchsim.search.position import parse_position, read_position

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
# A whole 6-player deal from the opening lead (scripts/bench_solve.py --players 6 --deals
# 60 --save: the slowest of seed 1): every lead's value takes some 40 million nodes,
# seconds on any machine, so a budget of a fraction of a second always stops it.
HARD = {
    "players": 6,
    "pitcher": 0,
    "rules": {},
    "hands": [
        ["TD", "8H", "TH", "AH", "3S", "9S"],
        ["4C", "7D", "8D", "JD", "5H", "2S"],
        ["QC", "2D", "7S", "8S", "JS", "AS"],
        ["AC", "3D", "4D", "9D", "KD", "JH"],
        ["2C", "9C", "JC", "KC", "AD", "3H"],
        ["8C", "TC", "5D", "2H", "QH", "KH"],
    ],
    "tricks": [],
}
SHORT = 0.3  # seconds: far short of HARD's search

# `solve` ends with exit 1 when the clock stops it unsolved: a result, not an error
cli = partial(run_cli, one_line=False)


@pytest.fixture
def hard(tmp_path) -> Path:
    path = tmp_path / "hard.json"
    path.write_text(json.dumps(HARD))
    return path


def test_the_clock_stops_a_hard_deal_with_no_value_and_exit_1(hard):
    code, out, err = cli("solve", hard, "--time", SHORT)
    assert code == 1, err
    assert "Value" not in out and "Best" not in out and "Cards:" not in out
    stopped = [line for line in out.splitlines() if line.startswith("Not solved")]
    assert len(stopped) == 1
    assert stopped[0].startswith(f"Not solved within {SHORT:g} s (")
    assert "--time 0 waits for it" in stopped[0]
    code, out, err = cli("solve", hard, "--time", SHORT, "--json")
    doc = json.loads(out)
    assert code == 1
    assert doc["solved"] is False and doc["stop"] == "clock" and doc["time"] == SHORT
    assert "value" not in doc and "cards" not in doc
    assert doc["nodes"] > 0
    # The budget is kept within its error (the node rate measured as it goes): loose
    # here, for a loaded machine; scripts and the report measure it.
    assert 0 < doc["seconds"] < SHORT + 3


def test_a_stopped_search_leaves_the_shared_table_without_a_budget():
    pos = read_position(json.dumps(HARD))
    s = dd.solve(pos, time=SHORT)
    assert not s.solved and s.value is None and s.cards == {} and s.made is None
    assert dd._table(pos.players)[0, kernel.T_BUDGET] == 0
    assert dd.solve_value(pos, time=SHORT) is None
    assert dd._table(pos.players)[0, kernel.T_BUDGET] == 0


def test_the_search_is_announced_on_stderr_when_it_may_be_long(hard, monkeypatch):
    monkeypatch.setattr(dd, "ANNOUNCE_SECONDS", 0.0)
    code, _, err = cli("solve", hard, "--time", SHORT)
    assert code == 1
    assert err == f"pitchsim: searching every line of play, up to {SHORT:g} s (--time)\n"
    seen = []
    dd.solve(read_position(json.dumps(HARD)), time=SHORT, progress=seen.append)
    assert seen == [SHORT]


@pytest.mark.parametrize("name", ["endgame.json", "deal.json", "smear_endgame.json"])
def test_a_solved_position_prints_as_without_a_clock(name):
    path = EXAMPLES / name
    runs = [cli("solve", path, *t) for t in ([], ["--time", "0"], ["--time", "7.5"])]
    assert all(code == 0 for code, _, _ in runs)
    assert runs[0][1] == runs[1][1] == runs[2][1] and "Value: " in runs[0][1]
    docs = [json.loads(cli("solve", path, "--json", *t)[1]) for t in ([], ["--time", "0"])]
    assert docs[0] == docs[1] and docs[0]["solved"] is True


def cuts(doc: dict) -> list[dict]:
    """The position after each card of ``doc``'s tricks (from no card played on)."""
    out = []
    cards = [(t["leader"], c) for t in doc["tricks"] for c in t["cards"]]
    for k in range(len(cards) + 1):
        tricks = []
        for t in doc["tricks"]:
            take = min(len(t["cards"]), k - sum(len(x["cards"]) for x in tricks))
            if take <= 0:
                break
            tricks.append({"leader": t["leader"], "cards": t["cards"][:take]})
        out.append(dict(doc, tricks=tricks))
    return out


@pytest.mark.parametrize("calls", ["one", "many"])
def test_on_the_clock_the_values_are_exactly_the_unbudgeted_ones(calls, monkeypatch):
    """Every cut of the example endgame, and the example deal from its opening lead: on a
    clock long enough and with none, every card's value the same (a budget only stops).
    "many": a node rate guessed at 1,000 a second makes the first call 100 nodes, and
    the search goes through calls of 400, 1,600, ... nodes, each stopped, until one ends."""
    if calls == "many":
        monkeypatch.setitem(dd._last_rate, "base", 1000.0)
        monkeypatch.setattr(dd, "_RATE_NODES", 1 << 60)  # keep the guess for each first call
    docs = cuts(json.loads((EXAMPLES / "endgame.json").read_text()))
    docs.append(json.loads((EXAMPLES / "deal.json").read_text()))
    for doc in docs:
        p = parse_position(doc)
        free, timed = dd.solve(p), dd.solve(p, time=30.0)
        assert timed.solved and (timed.value, timed.cards) == (free.value, free.cards)
        assert dd.solve_value(p, time=30.0) == free.value
    assert len(docs) == 15


def test_a_list_gives_each_position_its_own_budget(hard):
    endgame = json.loads((EXAMPLES / "endgame.json").read_text())
    docs = [HARD, endgame]
    path = hard.parent / "two.json"
    path.write_text(json.dumps(docs))
    code, out, err = cli("solve", path, "--time", SHORT, "--json")
    stopped, solved = json.loads(out)
    assert code == 1
    assert stopped["solved"] is False and "value" not in stopped
    want = json.loads(cli("solve", EXAMPLES / "endgame.json", "--json")[1])
    assert solved == want
    code, out, _ = cli("solve", path, "--time", SHORT)
    assert code == 1
    first, second = out.split("Position 2 of 2")
    assert "Not solved within" in first and "Value" not in first
    assert "Value: " in second and "Not solved" not in second


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("-1", "--time must be 0 (no limit) or seconds above 0"),
        # not plain digits: refused as such, before the range (cli/common.py)
        ("nan", "--time must be a number in plain digits (like 2 or 0.5), not 'nan'"),
        ("inf", "--time must be a number in plain digits (like 2 or 0.5), not 'inf'"),
        ("1e9", "at most 86,400"),
        ("soon", "--time must be a number in plain digits (like 2 or 0.5), not 'soon'"),
    ],
)
def test_a_bad_time_is_refused_in_one_line_before_reading(value, message):
    code, out, err = cli("solve", "no-such-file.json", "--time", value)
    assert code == 2 and out == ""
    assert err.startswith("pitchsim: error: ") and err.count("\n") == 1, err
    assert message in err


def test_the_default_budget_is_stated_in_help():
    code, out, _ = cli("solve", "--help")
    text = " ".join(out.split())
    assert code == 0 and "default: 20.0" in text and "(0: no limit" in text
    assert "Exit status 1 when the clock (--time) stopped a position" in text


def test_a_family_deal_is_stopped_the_same_way(tmp_path):
    """Smear, 6 players, hearts named, from the opening lead: more nodes than a very
    short clock buys, in the one solver (every preset but follow=only's) and its table.
    (The one solver solves it in about a second: SHORT's 0.3 s bought about half of that
    and once, on a loaded machine, all of it.)"""
    path = tmp_path / "smear.json"
    path.write_text(json.dumps(dict(HARD, rules="smear", trump="H", bid=2)))
    code, out, err = cli("solve", path, "--time", "0.03", "--json")
    doc = json.loads(out)
    assert code == 1, err
    assert doc["solved"] is False and doc["stop"] == "clock" and doc["nodes"] > 0
    assert dd._table(6)[0, kernel.T_BUDGET] == 0
