"""Tournaments: duplicate seating, the numbers reported, reproducibility and bad input."""

from __future__ import annotations

import pytest

from pitchsim.game.rules import Rules
from pitchsim.table.bidding import StrategyError, parse_strategies
from pitchsim.table.boards import seating
from pitchsim.table.tournament import tournament
from pitchsim.util.errors import InputError


def test_seating_rotates_every_strategy_through_every_seat():
    a, b, c = parse_strategies("odds,heuristic,random")
    assert seating([a, b, c], 4) == [[a, b, c, a], [b, c, a, b], [c, a, b, c]]
    assert seating([a, b], 4) == [[a, b, a, b], [b, a, b, a]]


def test_a_mirror_match_is_exactly_even():
    """Same strategy on both sides: each board's two games are the same game with the
    seats' labels swapped, so every board gives one win to each side -- duplicate
    cancels all the seat and card luck."""
    r = tournament("heuristic,heuristic", players=4, games=300, seed=4)
    assert [x.wins for x in r.results] == [300, 300]
    assert [x.win_rate for x in r.results] == [0.5, 0.5]
    assert r.results[0].ci95[0] < 0.5 < r.results[0].ci95[1]
    assert r.results[0].pitched == r.results[1].pitched
    p = tournament("odds,odds", players=4, games=200, seed=4, rules=Rules(partnership=True))
    assert [x.wins for x in p.results] == [200, 200]


def test_numbers_add_up():
    r = tournament("heuristic,random,odds-game", players=5, games=150, seed=2, target=11)
    assert r.games == 450 and r.rotations == 3 and r.fair_share == pytest.approx(1 / 3)
    assert sum(x.wins for x in r.results) + r.unfinished == r.games
    assert r.rules.target == 11
    for x in r.results:
        assert x.games == 450
        lo, hi = x.ci95
        assert 0 <= lo <= x.win_rate <= hi <= 1
        assert all(x.made[k] <= x.pitched[k] for k in (1, 2, 3, 4))
        assert x.hands_set == x.hands_pitched - x.hands_made
    heuristic, random, _ = r.results
    assert heuristic.win_rate > random.win_rate
    doc = r.to_json()
    assert doc["duplicate"] is True and doc["games"] == 450 and len(doc["seating"]) == 3
    assert set(doc["results"][0]["by_bid"]) == {"1", "2", "3", "4"}
    frame = r.frame()
    assert list(frame["strategy"]) == r.strategies and frame["wins"].sum() == 450 - r.unfinished


def test_same_seed_same_result_on_any_thread_count():
    one = tournament("odds,heuristic", games=200, seed=9, threads=1)
    two = tournament("odds,heuristic", games=200, seed=9, threads=2)
    assert one.to_json() == two.to_json()
    assert tournament("odds,heuristic", games=200, seed=10).to_json() != one.to_json()


def test_progress_is_reported():
    seen = []
    tournament(
        "heuristic,random", games=20, seed=1, progress=lambda k, total: seen.append((k, total))
    )
    assert sum(k for k, _ in seen) == 40 and seen[0][1] == 40


@pytest.mark.parametrize(
    "kwargs, error, message",
    [
        ({"strategies": "heuristic,bogus"}, StrategyError, "unknown bidding policy 'bogus'"),
        ({"strategies": "odds+cheat,heuristic"}, StrategyError, "unknown play policy 'cheat'"),
        # a known policy with bad worlds is told so, not called unknown
        (
            {"strategies": "odds+rollout:0,heuristic"},
            StrategyError,
            r"^worlds in 'rollout:0' must be 1-4096, not 0 \(in strategy 'odds\+rollout:0'\)$",
        ),
        (
            {"strategies": "odds+heuristic:3,heuristic"},
            StrategyError,
            "^policy 'heuristic' samples no worlds: write it without ':'",
        ),
        ({"strategies": "heuristic"}, InputError, "at least two strategies"),
        ({"strategies": "heuristic,random,odds", "players": 2}, InputError, "do not fit"),
        (
            {"strategies": "heuristic,random,odds", "rules": Rules(partnership=True)},
            InputError,
            "exactly two",
        ),
        ({"strategies": "heuristic,random", "games": 0}, InputError, "games must be positive"),
        ({"strategies": "heuristic,random", "players": 8}, InputError, "players must be 2-7"),
        ({"strategies": "heuristic,random", "target": 0}, InputError, "target must be"),
        ({"strategies": "heuristic,random", "seed": -3}, InputError, "seed must be"),
    ],
)
def test_bad_input(kwargs, error, message):
    with pytest.raises(error, match=message):
        tournament(**kwargs)


def test_search_play_tournament_is_the_same_on_any_thread_count():
    """A searching seat's games are the same on any thread count."""
    spec = "odds+rollout:2,odds+heuristic"
    one = tournament(spec, players=3, games=5, seed=4, threads=1)
    two = tournament(spec, players=3, games=5, seed=4, threads=2)
    assert one.to_json() == two.to_json()


def test_strategies_given_as_objects_play_as_their_names():
    """The library takes Strategy objects as its docs say (they crashed on .strip())."""
    import pitchsim
    from pitchsim.table.bidding import Strategy

    objects = [Strategy.parse("odds+heuristic"), Strategy.parse("heuristic")]
    a = pitchsim.tournament(objects, boards=6, seed=1)
    b = pitchsim.tournament(["odds+heuristic", "heuristic"], boards=6, seed=1)
    assert [r.wins for r in a.results] == [r.wins for r in b.results]
    assert [r.name for r in a.results] == [r.name for r in b.results]


def test_the_table_lines_up_whatever_the_names_and_shows_only_bids_that_can_be_pitched():
    """An outside seat is named by its whole command, longer than the name column was:
    its row and the header must still line up (they did not: the columns slid right
    under the long name).  Under smear (bids 2-5, 3.3) no column for a bid of 1."""
    import dataclasses
    import re

    from pitchsim.cli.tournament import render

    r = tournament("heuristic,random", players=4, games=4, seed=3, rules=Rules.parse("smear"))
    long = "cmd:python3 /some/where/far/away/examples/bots/simple_bot.py"
    r = dataclasses.replace(
        r, results=[dataclasses.replace(r.results[0], name=long)] + r.results[1:]
    )
    text = render(r)
    lines = text.splitlines()
    head = next(i for i, x in enumerate(lines) if x.startswith("strategy") and "wins" in x)
    ends = lambda line, word: line.index(word) + len(word)  # noqa: E731
    for row, x in zip(lines[head + 1 : head + 3], r.results, strict=True):
        assert row.startswith(x.name + " ")
        wins = re.match(re.escape(x.name) + r"\s+\d+", row).end()
        assert wins == ends(lines[head], "wins"), (lines[head], row)
    bids = next(x for x in lines if x.startswith("strategy") and "bid" in x)
    assert "bid 1 " not in bids + " " and "bid 2" in bids and "bid 5" in bids
    by_bid = [x for x in lines[lines.index(bids) + 1 :] if x.startswith(long)][0]
    assert len(by_bid) == len(bids)  # every cell right-aligned under its heading
