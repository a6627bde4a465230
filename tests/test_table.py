"""The table loop (table.game), outside seats (table.outside), records (table.record).

The table loop asks each seat per decision; with built-in seats it must play the very
game the kernels play for the same seed and board (the kernel game is the reference
here: an independent implementation of the same rules and streams)."""

import json
import sys
import time
from pathlib import Path

import pytest
from clirun import cli, refused

from pitchsim.game.rules import Rules
from pitchsim.table.bidding import Strategy
from pitchsim.table.boards import board_game
from pitchsim.table.game import game_end_words, game_result, play_table_game
from pitchsim.table.outside import CommandSeat
from pitchsim.table.record import RecordError, record_of_preset_game, replay, views_of
from pitchsim.table.tournament import split_seats, table_tournament, tournament
from pitchsim.util.errors import InputError

ROOT = Path(__file__).resolve().parent.parent
BOT = f"{sys.executable} {ROOT / 'examples' / 'bots' / 'simple_bot.py'}"


@pytest.mark.parametrize(
    "seed, board, names, rules",
    [
        (9, 4, ["odds+heuristic", "heuristic+heuristic", "random+heuristic"], Rules(target=11)),
        (4, 0, ["odds+heuristic"] * 4, Rules(partnership=True)),
        (
            2,
            5,
            ["heuristic+random", "odds-game+heuristic", "heuristic", "random+random", "odds"],
            Rules(low="dealt", all_pass="redeal", min_bid=2),
        ),
        (7, 1, ["random", "heuristic"], Rules(follow="suit", dealer_steal=False, target=5)),
    ],
)
def test_table_game_is_the_kernel_game(seed, board, names, rules):
    table = play_table_game(names, rules, seed, board)
    kernel = record_of_preset_game(
        board_game(seed, board, [Strategy.parse(s) for s in names], rules)
    )
    assert table == kernel
    assert replay(table) == table


def test_table_tournament_is_the_kernel_tournament():
    a = tournament("heuristic,random,odds", players=3, boards=6, seed=5)
    b = table_tournament(["heuristic", "random", "odds"], 3, 6, Rules(), 5)
    assert [r.to_json() for r in a.results] == [r.to_json() for r in b.results]
    assert a.unfinished == b.unfinished and a.mean_deals == b.mean_deals


class FirstLegal:
    name = "first-legal"

    def call(self, view):
        return "pass" if "pass" in view.legal() else view.legal()[0]

    def play(self, view):
        assert view.to_move == view.seat and view.legal()
        return view.legal()[0]


def test_python_objects_are_seats():
    r = tournament([FirstLegal(), "odds+heuristic"], boards=5, seed=2)
    assert r.games == 10 and sum(x.wins for x in r.results) + r.unfinished == 10
    assert r.forfeits == {"first-legal": 0, "odds+heuristic": 0}


class Cheat(FirstLegal):
    name = "cheat"

    def __init__(self, answer):
        self.answer = answer

    def play(self, view):
        if callable(self.answer):
            return self.answer(view)
        return self.answer


@pytest.mark.parametrize(
    "answer, reason",
    [
        ("2C", "is not a legal action"),
        (7, "answered int, not an action string"),
        (lambda v: 1 / 0, "ZeroDivisionError"),
        (lambda v: "pass", "'pass' is not a legal action"),
    ],
)
def test_a_bad_answer_forfeits_and_nobody_plays_for_it(answer, reason):
    doc = play_table_game([Cheat(answer), "odds+heuristic", "heuristic"], Rules(), 1, 0)
    f = doc["forfeit"]
    assert f["seat"] == 0 and f["strategy"] == "cheat" and reason in f["reason"]
    assert doc["winner"] is None and doc["hands"][-1]["incomplete"]
    last = doc["hands"][-1]["actions"]
    assert all(a["seat"] != 0 or a["action"] in ("pass",) or len(a["action"]) == 2 for a in last)
    assert replay(doc) == doc  # a forfeited record replays too


def test_outside_program_plays_games_and_tournaments(tmp_path):
    r = tournament(
        [f"cmd:{BOT}", "odds+heuristic"],
        boards=4,
        seed=3,
        record=str(tmp_path),
        seat_logs=str(tmp_path / "logs"),
    )
    assert r.games == 8 and r.forfeits[f"cmd:{BOT}"] == 0
    files = sorted(tmp_path.glob("board-*.json"))
    assert len(files) == 8
    for f in files:
        doc = json.loads(f.read_text())
        assert replay(doc) == doc
    log = (tmp_path / "logs" / "strategy-0.log").read_text()
    assert '"type":"hello"' in log and '"type": "action"' in log


@pytest.mark.parametrize("preset", ["smear", "ten-point"])
def test_the_example_bot_plays_a_presets_tournament(preset):
    # It names trump ("trump:S"), never shoots, and ranks a joker low: no forfeit.
    r = tournament([f"cmd:{BOT}", "odds+heuristic"], boards=2, seed=2, rules=Rules.parse(preset))
    assert r.games == 4 and r.forfeits[f"cmd:{BOT}"] == 0
    # it bids under every preset (ten-point's bids are 5-10: it once only ever bid 2),
    # so a table of it alone finishes its games (all pass: the same dealer deals again)
    assert r.results[0].hands_pitched > 0
    alone = tournament(
        [f"cmd:{BOT}", f"cmd:{BOT} --again"], boards=1, seed=2, rules=Rules.parse(preset)
    )
    assert alone.unfinished == 0 and alone.mean_deals < 100, alone.mean_deals


def script(tmp_path, body):
    p = tmp_path / "bot.py"
    p.write_text(
        "import json, sys, time\n"
        "print(json.dumps({'type': 'hello', 'protocol': 'pitch-engine/1'}), flush=True)\n"
        "sys.stdin.readline()\n" + body
    )
    return CommandSeat(f"{sys.executable} {p}", decision_time=1.0, game_time=5.0)


@pytest.mark.parametrize(
    "body, reason",
    [
        ("for line in sys.stdin:\n    time.sleep(3)\n", "no answer within 1 s"),
        (
            "sys.stdin.readline()\nsys.stderr.write('cannot go on\\n')\nsys.exit(4)\n",
            "exited (code 4); its stderr ends: cannot go on",
        ),
        ("for line in sys.stdin:\n    print('{oops', flush=True)\n", "not JSON"),
        (
            "import os, signal\nsys.stdin.readline()\nos.kill(os.getpid(), signal.SIGKILL)\n",
            "the program was ended by signal SIGKILL",
        ),
        (
            "sys.stdout.close()\nimport os\nos.close(1)\ntime.sleep(30)\n",
            "the program closed its stdout (still running); its stderr ends: (nothing",
        ),
        (
            "for line in sys.stdin:\n    print(json.dumps({'type': 'action', 'id': 99,"
            " 'action': 'pass'}), flush=True)\n",
            "not an action for request",
        ),
        (
            "for line in sys.stdin:\n    print(json.dumps({'type': 'error', 'id':"
            " json.loads(line)['id'], 'code': 'x', 'message': 'no'}), flush=True)\n",
            "answered an error: x: no",
        ),
    ],
)
def test_outside_program_failures_forfeit_with_the_reason(tmp_path, body, reason):
    seat = script(tmp_path, body)
    start = time.monotonic()
    try:
        doc = play_table_game([seat, "heuristic"], Rules(), 1, 0)
        took = time.monotonic() - start
        assert seat.proc is None  # ended at the forfeit, to start afresh next game
    finally:
        seat.close()
    assert doc["forfeit"] is not None and reason in doc["forfeit"]["reason"], doc["forfeit"]
    assert doc["winner"] is None
    assert took < 4  # at once (the 1 s limit for the late one), never a 5 s wait


def test_game_time_limit(tmp_path):
    seat = script(
        tmp_path,
        "for line in sys.stdin:\n    time.sleep(0.3)\n"
        "    m = json.loads(line)\n    print(json.dumps({'type': 'action', 'id': m['id'],"
        " 'action': m['view']['legal'][0]}), flush=True)\n",
    )
    seat.game_time = 1.0
    try:
        doc = play_table_game([seat, "heuristic"], Rules(), 1, 0)
    finally:
        seat.close()
    assert "game's 1 s" in doc["forfeit"]["reason"]


def test_records_replay_and_refuse_what_did_not_happen():
    doc = play_table_game(["odds+heuristic", "heuristic", "random"], Rules(), 8, 2)
    assert replay(json.loads(json.dumps(doc))) == doc
    decisions = list(views_of(doc))
    assert len(decisions) == sum(len(h["actions"]) for h in doc["hands"])
    for view, action in decisions:
        assert action in view.legal()
    bad = json.loads(json.dumps(doc))
    bad["hands"][0]["actions"][-1]["action"] = bad["hands"][0]["actions"][-2]["action"]
    with pytest.raises(RecordError, match="hand 1: action"):
        replay(bad)
    bad = json.loads(json.dumps(doc))
    bad["hands"][0]["round_points"][0] += 1
    with pytest.raises(RecordError, match="round_points"):
        replay(bad)
    bad = json.loads(json.dumps(doc))
    bad["final_scores"][1] -= 1
    with pytest.raises(RecordError, match="final_scores"):
        replay(bad)
    bad = json.loads(json.dumps(doc))
    bad["hands"][0]["actions"].pop()
    with pytest.raises(RecordError, match="stop before the hand is over"):
        replay(bad)
    bad = json.loads(json.dumps(doc))
    bad["strategies"][1] = "random"
    with pytest.raises(RecordError, match="decide differently"):
        replay(bad)


def test_hand_written_record():
    doc = json.loads((ROOT / "examples" / "records" / "by_hand.json").read_text())
    full = replay(doc)
    assert full["winner"] == 0 and full["final_scores"] == [4, 0]
    h = full["hands"][0]
    # AH KH JH TH captured by seat 0: High, Low (TH), Jack, and Game (4+3+1+10 = 18 to 0).
    assert h["points"] == {"high": 0, "low": 0, "jack": 0, "game": 0}
    assert h["game_points"] == [18, 0] and h["pitched"] == "AH" and h["made"]


def test_split_seats_ends_a_seat_at_every_comma_outside_quotes():
    assert split_seats("cmd:a b,c,odds,cmd:x") == ["cmd:a b", "c", "odds", "cmd:x"]
    assert split_seats("cmd:a 'b,c',odds") == ["cmd:a 'b,c'", "odds"]
    assert split_seats('cmd:a "b\\",c",odds') == ['cmd:a "b\\",c"', "odds"]
    assert split_seats("cmd:a b\\,c,odds") == ["cmd:a b\\,c", "odds"]
    assert split_seats("odds+heuristic, random") == ["odds+heuristic", "random"]
    # a quoted comma reaches the program as the shell would pass it
    assert CommandSeat(split_seats("cmd:bot 'b,c' d\\,e,odds")[0][4:]).argv == [
        "bot",
        "b,c",
        "d,e",
    ]
    with pytest.raises(InputError, match="the quote ' in .* is not closed"):
        split_seats("cmd:a 'b,odds")


@pytest.mark.parametrize("command", ["play --game", "tournament -g 2", "play --game --rules smear"])
@pytest.mark.parametrize(
    "spec, players, bad",
    [
        ("cmd:{bot},odds+bogus", 2, "unknown play policy 'bogus' in strategy 'odds+bogus'"),
        # named before the seats are counted (two for four players)
        ("cmd:{bot},odds+bogus", 4, "unknown play policy 'bogus' in strategy 'odds+bogus'"),
        ("odds,cmd:{bot},bogus", 3, "unknown bidding policy 'bogus'"),
        ("cmd:{bot} 'x,odds", 2, "is not closed"),
    ],
)
def test_a_bad_seat_after_a_command_is_refused_before_anything_starts(
    tmp_path, command, spec, players, bad
):
    """A misspelt strategy after a program is a seat of its own, refused in one line
    naming it and how a comma stays in a command: the program is never started (it
    would leave its mark) and no log directory is made."""
    mark = tmp_path / "started"
    bot = f"{sys.executable} -c \"open('{mark}', 'w')\""
    logs = tmp_path / "logs"
    argv = [*command.split(), "--players", players, "-s", spec.format(bot=bot), "--seat-logs", logs]
    line = refused(*argv, words=bad)
    assert "a comma inside a" in line and "cmd:bot.py 'a,b'" in line
    assert not mark.exists() and not logs.exists()


def test_cli_game_record_replays_byte_for_byte(tmp_path):
    code, out, _ = cli(
        "play", "--game", "--seed", "3", "-s", f"cmd:{BOT},odds,heuristic", "-n", "3", "--json"
    )
    assert code == 0
    f = tmp_path / "g.json"
    f.write_text(out)
    code, again, _ = cli("play", "--replay", str(f), "--json")
    assert code == 0 and again == out
    code, text, _ = cli("play", "--replay", str(f))
    assert code == 0 and "Hand 1" in text


@pytest.mark.parametrize(
    "argv, stdin, words",
    [
        (["play", "--replay", "-"], "{", "is not JSON"),
        (["play", "--replay", "-"], "[]", "a record is a JSON object"),
        (
            ["play", "--replay", "-"],
            '{"rules": "target=3", "players": 9, "hands": []}',
            "players must be 2-7",
        ),
        (["play", "--game", "-s", "cmd:"], None, "cmd: needs a command"),
        (["play", "-s", "odds"], None, "add --game"),
        (["play", "--game", "-s", "cmd:/nonexistent/bot"], None, "cannot start"),
        (["play", "--decision-time", "3"], None, "for outside seats"),
        (["tournament", "-s", "odds,random", "--decision-time", "3"], None, "outside seats"),
        (["engine", "-s", "nope"], None, "unknown bidding policy"),
    ],
)
def test_cli_bad_input_one_line(argv, stdin, words):
    code, out, err = cli(*argv, stdin=stdin)
    assert code == 2 and err.startswith("pitchsim: error: ") and err.count("\n") == 1, err
    assert words in err


def test_how_a_game_ended_in_words():
    """One wording of a game's end, from a seat's side (the terminal's practice and the
    web table both show it): sides tied on top share the win (3.11; a preset's record has
    ``winners`` and no single ``winner``), teams named by their seats, a forfeit, a stop,
    no winner; a watcher (no seat) is never "you"."""
    tied = {"winners": [2, 3], "winner": None, "final_scores": [1, 2, 7, 7]}
    assert game_end_words(tied, 0, False) == "Tied on top: seat 2, seat 3 share the win"
    assert game_end_words(tied, 3, False) == "Tied on top: seat 2, you share the win"
    teams = {"winners": [0, 1], "winner": None}
    assert game_end_words(teams, 3, True) == "Tied on top: seats 0 and 2, you share the win"
    won = {"winner": 1}
    assert game_end_words(won, 0, True) == "Seats 1 and 3 won the game"
    assert game_end_words(won, 3, True) == "You won the game"
    assert game_end_words({"winner": 3}, 1, True) == "You won the game"  # a team by a seat
    assert game_end_words(won, 0, False) == "Seat 1 won the game"
    assert game_end_words(won, None, False) == "Seat 1 won the game"
    assert game_end_words({"winners": [4], "winner": 4}, 4, False) == "You won the game"
    nobody = {"winners": [], "winner": None}
    assert game_end_words(nobody, 0, False) == "Nobody won within the deals a game may last"
    forfeit = {"forfeit": {"seat": 2, "strategy": "cmd:x", "reason": "it said ZZ"}}
    assert game_end_words(forfeit, 0, False) == "Seat 2 forfeits: it said ZZ"
    assert game_end_words({"stopped": "quit"}, 0, False) == "Game saved unfinished"
    # a whole game's result, as the seats are told it
    rec = play_table_game(["odds+heuristic"] * 4, Rules(partnership=True), 2)
    assert rec["winner"] == 0 and game_result(rec)["winner"] == 0
    assert game_end_words(game_result(rec), 2, True) == "You won the game"
    assert game_end_words(game_result(rec), 1, True) == "Seats 0 and 2 won the game"


@pytest.mark.parametrize(
    "rules, players, strategy, words",
    [
        # a partnership needs 4 players (6.3.1), whatever the strategy
        ("smear,partnership=true", 5, "odds+heuristic", "partnership needs exactly 4 players"),
        # a called partner needs 5 or 6 (6.3.7)
        ("smear,partner=called,kitty=3", 4, "odds", "partner=called"),
        # the game bidder has no target to weigh under hands=N (12.4)
        ("smear,hands=5", 4, "odds-game", "not played under hands=5"),
    ],
)
def test_play_tournament_practice_and_advise_refuse_a_table_alike(
    tmp_path, rules, players, strategy, words
):
    """table.game.check_table is the one check: play (hands, a game, a game with an
    outside seat), tournament (kernels, an outside seat), practice and advise (its model
    at every other seat) refuse the same bad table in the same line, exit 2, nothing on
    stdout, before an outside program starts (its command would leave a file) or a
    record, log or save is written."""
    started = tmp_path / "started"
    bot = f"cmd:touch {started}"
    table = ["--rules", rules, "-n", players]
    logs, record, save = tmp_path / "logs", tmp_path / "record", tmp_path / "save.json"
    others = ",".join([strategy] * (players - 1))
    lines = {
        refused("practice", *table, "--opponents", strategy, "--save", save),
        refused("play", "--game", "-s", strategy, *table),
        refused("play", "--game", "-s", f"{bot},{others}", "--seat-logs", logs, *table),
        refused("tournament", "-s", f"{strategy},heuristic", "-g", 1, *table),
        refused("tournament", "-s", f"{bot},{strategy}", "-g", 1, "--record", record, *table),
    }
    hand = ("AH KH 2H 9C 7D 3S", "--seat", 0, "--dealer", players - 1)
    lines.add(refused("advise", *hand, "--model", strategy, *table))
    if strategy.startswith("odds"):
        lines.add(refused("play", "--bidding", strategy.partition("+")[0], *table))
    assert len(lines) == 1 and words in lines.pop()
    assert not any(p.exists() for p in (started, logs, record, save))
