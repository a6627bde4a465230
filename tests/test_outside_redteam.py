"""Misbehaving outside programs (``cmd:COMMAND`` seats) through the real CLI.

Each bot below is a small standard-library script that answers hello and plays the first
legal action, and misbehaves in one way at a fixed decision of every run.  A tournament
of several games per bot must: exit 0, forfeit each game the bot spoils (and only the
bot's own), name each forfeit's short reason, print no traceback, start the bot afresh
for the next game, and leave no process behind (each run, and any child it forks,
writes its pid to a file; afterwards none may be alive).  ``docs/protocol.md`` is the
contract: a late, malformed or illegal answer, an ``error`` reply, a closed stdout or an
exit forfeits the game; pitchsim never plays in the program's place.
"""

import json
import os
import shlex
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pitchsim.table.outside import CommandSeat, OutsideError, check_time
from pitchsim.table.tournament import tournament as tournament_api

PITCHSIM = str(Path(sys.executable).with_name("pitchsim"))
DECISION = 1.0  # --decision-time where a bot is to be late: far above its milliseconds
CALM = 10.0  # --decision-time where it is not (whatever the machine's load)
BOARDS = 2  # x 2 rotations: 4 games, each a fresh run after the last one's forfeit

BOT = r"""
import json, os, signal, sys, time

mode, pids, misbehave_at = sys.argv[1], sys.argv[2], int(sys.argv[3])
if misbehave_at < 0:  # at a random answer of each run, below -misbehave_at
    misbehave_at = int.from_bytes(os.urandom(4), "big") % -misbehave_at


def note_pid():
    with open(pids, "a") as f:
        f.write(f"{os.getpid()}\n")


runs = len(open(pids).read().split()) if os.path.exists(pids) else 0
note_pid()
if mode == "fork-exits":  # a child holding stdout, stdin and stderr, lingering
    if os.fork() == 0:
        note_pid()
        time.sleep(600)
        os._exit(0)
    while len(open(pids).read().split()) < runs + 2:  # its child's pid is written
        time.sleep(0.01)
if mode in ("late", "hang"):  # ends only by SIGKILL
    signal.signal(signal.SIGTERM, signal.SIG_IGN)


def say(msg):
    sys.stdout.write(json.dumps(msg) + "\n")
    sys.stdout.flush()


answered = 0
for line in sys.stdin:
    m = json.loads(line)
    if m["type"] == "hello":
        if mode == "hello-once" and runs:
            time.sleep(600)
        say({"type": "hello", "protocol": "pitch-engine/1", "name": mode})
        continue
    if m["type"] == "quit":
        break
    legal = m["view"]["legal"]
    # Bid 2 when it may, play its highest card: games of a few hands.
    best = max(legal, key=lambda c: "p2".find(c) if len(c) < 2 else "23456789TJQKA".find(c[0]))
    act = {"type": "action", "id": m["id"], "action": best}
    if mode == "flood" and answered == 0:  # 13 MB of log lines: must not make it late
        chunk = ("y" * 99 + "\n") * 10_000
        for _ in range(13):
            sys.stderr.write(chunk)
        sys.stderr.flush()
    if answered == misbehave_at:
        if mode in ("silent", "hang"):
            time.sleep(600)
        elif mode in ("garbage", "hello-once"):
            print("{oops, not json", flush=True)
        elif mode == "exits":
            sys.stderr.write("giving up now\n")
            sys.exit(3)
        elif mode == "exits-escaping":  # terminal controls: clear screen, title, bell
            sys.stderr.write("giving up\x1b[2J\x1b]0;pwned\x07 now\n")
            sys.exit(3)
        elif mode == "flood":  # one 3 MB line, then gone
            sys.stderr.write("z" * 3_000_000 + "\n")
            sys.stderr.flush()
            sys.exit(5)
        elif mode == "closes-stdout":
            sys.stdout.close()
            os.close(1)
            time.sleep(600)
        elif mode == "fork-exits":
            os._exit(0)
        elif mode == "illegal":
            say(act | {"action": next(c for c in ("2C", "3C") if c not in legal)})
        elif mode == "two-actions":  # "action" twice: an illegal card, then a legal one
            bad = next(c for c in ("2C", "3C") if c not in legal)
            head = json.dumps({"type": "action", "id": m["id"], "action": bad})[:-1]
            print(head + ', "action": ' + json.dumps(best) + "}", flush=True)
        elif mode == "nan":  # a legal action, and a field no JSON has
            print(json.dumps(act)[:-1] + ', "weight": NaN}', flush=True)
        elif mode == "nested":  # a legal action, and a field nested 40 deep
            print(json.dumps(act | {"x": json.loads("[" * 40 + "]" * 40)}), flush=True)
        elif mode == "late":  # just late: the answer comes while the next run starts
            time.sleep(DECISION + 0.3)
            say(act)
        continue
    say(act)
    answered += 1
""".replace("DECISION", repr(DECISION))


def write_bot(tmp_path: Path) -> Path:
    p = tmp_path / "bot.py"
    p.write_text(BOT)
    return p


def gone(pid: int) -> bool:
    """The process has ended (a zombie has: only its exit status waits to be reaped,
    and where no init reaps orphans it waits forever)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    try:
        stat = Path(f"/proc/{pid}/stat").read_bytes()
    except OSError:
        return True
    return stat[stat.rfind(b")") + 2 :].split()[0] == b"Z"


def tournament(tmp_path, mode, misbehave_at, *extra, decision=CALM, boards=BOARDS):
    bot = write_bot(tmp_path)
    pids = tmp_path / f"{mode}.pids"
    cmd = shlex.join([sys.executable, str(bot), mode, str(pids), str(misbehave_at)])
    argv = [PITCHSIM, "tournament", "-s", f"cmd:{cmd},random+random", "-g", str(boards)]
    argv += ["--seed", "4", "--decision-time", str(decision), "--seat-logs", str(tmp_path)]
    start = time.monotonic()
    p = subprocess.run([*argv, *extra], capture_output=True, text=True, timeout=300)
    took = time.monotonic() - start
    runs = [int(x) for x in pids.read_text().split()] if pids.exists() else []
    return p, runs, took, f"cmd:{cmd}"


LATE = f"no answer within {DECISION:g} s"
CASES = [
    # mode, misbehaves at answer, each game's forfeit reason, processes a run, time limit
    ("silent", 0, LATE, 1, DECISION),
    ("garbage", 3, "a reply that is not JSON", 1, CALM),
    ("exits", 3, "the program exited (code 3); its stderr ends: giving up now", 1, CALM),
    # its words are shown, never obeyed: each control character as its escape
    (
        "exits-escaping",
        3,
        "the program exited (code 3); its stderr ends: giving up\\x1b[2J\\x1b]0;pwned\\x07 now",
        1,
        CALM,
    ),
    ("hang", 3, LATE, 1, DECISION),  # and ignores SIGTERM
    ("closes-stdout", 3, "the program closed its stdout (still running)", 1, CALM),
    # its child holds stdout open: the end of stdout never comes, the exit is named
    (
        "fork-exits",
        3,
        LATE + "; the program exited (code 0), leaving a process it started holding its stdout",
        2,
        DECISION,
    ),
    # 13 MB of stderr lines in under 3 s (read a byte a call: 9 s), then a 3 MB line
    ("flood", 3, "the program exited (code 5); its stderr ends: ...zzzz", 1, 3.0),
    ("illegal", 3, "is not a legal action", 1, CALM),
    # read as the engine reads a request (docs/protocol.md): never the last key's value
    ("two-actions", 3, "not JSON (the key 'action' is given twice in one object)", 1, CALM),
    ("nan", 3, "not JSON (NaN is not a JSON number)", 1, CALM),
    ("nested", 3, "not JSON (nested too deeply (at most 32 levels))", 1, CALM),
    ("late", 3, LATE, 1, DECISION),  # and ignores SIGTERM
]


@pytest.mark.parametrize("mode, at, reason, per_run, decision", CASES, ids=[c[0] for c in CASES])
def test_a_misbehaving_bot_forfeits_each_game_and_leaves_nothing(
    tmp_path, mode, at, reason, per_run, decision
):
    forfeits_each_game(tmp_path, mode, at, reason, per_run, decision)


# Under a preset the table, the views and the calls are the family's (the one engine):
# the ways a restart could read a stale run, a child or a closed stdout, under smear.
SMEAR = ("late", "fork-exits", "closes-stdout", "flood")


@pytest.mark.parametrize(
    "mode, at, reason, per_run, decision",
    [c for c in CASES if c[0] in SMEAR],
    ids=[c[0] for c in CASES if c[0] in SMEAR],
)
def test_a_misbehaving_bot_under_smear_forfeits_each_game_and_leaves_nothing(
    tmp_path, mode, at, reason, per_run, decision
):
    forfeits_each_game(tmp_path, mode, at, reason, per_run, decision, "--rules", "smear")


def forfeits_each_game(tmp_path, mode, at, reason, per_run, decision, *rules):
    p, pids, took, name = tournament(tmp_path, mode, at, "--json", *rules, decision=decision)
    assert p.returncode == 0, p.stderr
    assert "Traceback" not in p.stderr and "Error" not in p.stderr, p.stderr
    r = json.loads(p.stdout)
    games = r["games"]
    assert games == 2 * BOARDS
    # Every game spoilt, by the bot alone, each with its reason; nobody won them, and
    # they are not counted as games that ran out of deals.
    assert r["forfeits"] == {name: games, "random+random": 0}, r["forfeits"]
    assert len(r["forfeited_games"]) == games
    for f in r["forfeited_games"]:
        assert f["strategy"] == name and reason in f["reason"], f
        assert len(f["reason"]) < 400, len(f["reason"])
    assert [(f["board"], f["rotation"]) for f in r["forfeited_games"]] == [
        (b, k) for b in range(BOARDS) for k in range(2)
    ]
    assert r["unfinished_games"] == 0
    assert sum(x["wins"] for x in r["results"]) == 0
    # A fresh run for every game (the old one ended, with its children), none left.
    assert len(pids) == games * per_run, pids
    assert [pid for pid in pids if not gone(pid)] == []
    # Its log keeps a megabyte of stderr a run (16 MB were written), and says so.
    log = (tmp_path / "strategy-0.log").read_text()
    assert len(log) < games * 1.5e6 and log.count('"type":"hello"') == games
    assert ("more bytes of stderr, not logged" in log) == (mode == "flood")


def test_the_text_report_names_each_forfeits_reason(tmp_path):
    p, pids, _, name = tournament(tmp_path, "illegal", 3)
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()
    i = lines.index(f"{name} forfeited 4 games (nobody won those):")
    # Reasons, most frequent first, one line each: the card asked for is 2C or 3C.
    shown = lines[i + 1 : i + 3]
    assert all("x '2C' is not a legal action" in s or "x '3C'" in s for s in shown), shown
    assert sum(int(s.split("x")[0]) for s in lines[i + 1 :] if " x " in s) == 4
    assert "deal limit" not in p.stdout
    assert all(gone(pid) for pid in pids)


def test_a_well_behaved_bot_keeps_one_run_for_all_its_games(tmp_path):
    p, pids, _, name = tournament(tmp_path, "illegal", 10_000, "--json")
    assert p.returncode == 0, p.stderr
    r = json.loads(p.stdout)
    assert r["forfeits"] == {name: 0, "random+random": 0} and r["forfeited_games"] == []
    assert sum(x["wins"] for x in r["results"]) + r["unfinished_games"] == r["games"]
    assert len(pids) == 1 and gone(pids[0])  # ended by quit at the tournament's end


@pytest.mark.parametrize(
    "argv",
    [["tournament", "-g", "2", "--decision-time"], ["play", "--game", "-n", "2", "--game-time"]],
)
def test_a_time_limit_of_zero_is_refused_not_replaced(tmp_path, argv):
    bot = write_bot(tmp_path)
    seat = f"cmd:{sys.executable} {bot} silent {tmp_path / 'pids'} 0"
    argv = [argv[0], "-s", f"{seat},random", *argv[1:], "0"]
    p = subprocess.run([PITCHSIM, *argv], capture_output=True, text=True, timeout=120)
    assert p.returncode == 2, (p.stdout, p.stderr)
    assert p.stderr.count("\n") == 1 and p.stderr.startswith("pitchsim: error: "), p.stderr
    assert f"{argv[-2]} must be above 0 and at most 86,400 seconds, not 0.0" in p.stderr
    assert not (tmp_path / "pids").exists()  # refused before any program started


@pytest.mark.parametrize(
    "argv", [["tournament", "-g", "2"], ["play", "--game", "-n", "2"]], ids=["tournament", "play"]
)
@pytest.mark.parametrize("where", ["a-file", "a-file/below"])
def test_a_seat_logs_folder_that_cannot_be_made_is_named_as_seat_logs(tmp_path, argv, where):
    """One line naming --seat-logs (not --record), before any program starts."""
    (tmp_path / "a-file").write_text("")
    bot = write_bot(tmp_path)
    seat = f"cmd:{sys.executable} {bot} silent {tmp_path / 'pids'} 0"
    logs = tmp_path / where
    argv = [argv[0], "-s", f"{seat},random", *argv[1:], "--seat-logs", str(logs)]
    p = subprocess.run([PITCHSIM, *argv], capture_output=True, text=True, timeout=120)
    assert p.returncode == 2, (p.stdout, p.stderr)
    assert p.stderr.count("\n") == 1 and "Traceback" not in p.stderr, p.stderr
    assert p.stderr.startswith(f"pitchsim: error: --seat-logs {logs}: "), p.stderr
    assert not (tmp_path / "pids").exists()  # refused before any program started


@pytest.mark.parametrize("value", [0, -1.0, float("nan"), float("inf"), 86_400.5])
def test_time_limits_outside_a_day_are_refused(value):
    with pytest.raises(OutsideError, match="--game-time must be above 0"):
        check_time("--game-time", value, 600.0)


def test_time_limits_default_only_when_not_given():
    assert check_time("--game-time", None, 600.0) == 600.0
    assert check_time("--game-time", 0.25, 600.0) == 0.25
    assert check_time("--game-time", 86_400, 600.0) == 86_400.0


def test_sigterm_to_pitchsim_ends_the_bot_and_its_child(tmp_path):
    bot = write_bot(tmp_path)
    pids = tmp_path / "pids"
    seat = shlex.join([sys.executable, str(bot), "fork-exits", str(pids), "0"])
    argv = [PITCHSIM, "tournament", "-s", f"cmd:{seat},random", "-g", "2"]
    p = subprocess.Popen(
        [*argv, "--decision-time", "300"], stderr=subprocess.PIPE, stdout=subprocess.PIPE
    )
    try:
        deadline = time.monotonic() + 120
        while len(pids.read_text().split() if pids.exists() else []) < 2:
            assert time.monotonic() < deadline and p.poll() is None
            time.sleep(0.1)
        time.sleep(0.5)  # the bot has exited; its child holds stdout: pitchsim waits
        p.terminate()
        _, err = p.communicate(timeout=30)
    finally:
        p.kill()
    assert p.returncode == 128 + 15 and b"Traceback" not in err, err
    assert all(gone(int(pid)) for pid in pids.read_text().split())


def test_a_program_left_running_is_ended_at_exit(tmp_path):
    bot = write_bot(tmp_path)
    pids = tmp_path / "pids"
    seat = shlex.join([sys.executable, str(bot), "fork-exits", str(pids), "0"])
    code = (
        "from pitchsim.table.outside import CommandSeat\n"
        f"seat = CommandSeat({seat!r})\n"
        "seat.start()\n"
        "raise SystemExit(3)\n"  # no close(): the seat is still referenced
    )
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert p.returncode == 3 and p.stderr == "", p.stderr
    found = [int(x) for x in pids.read_text().split()]
    assert len(found) == 2 and all(gone(pid) for pid in found)


def test_a_restart_that_fails_hello_forfeits_only_its_game(tmp_path):
    bot = write_bot(tmp_path)
    pids = tmp_path / "pids"
    seat = CommandSeat(shlex.join([sys.executable, str(bot), "hello-once", str(pids), "3"]))
    seat.start_time = 0.5
    r = tournament_api([seat, "random+random"], boards=2, seed=4)
    reasons = [f["reason"] for f in r.forfeited]
    assert len(reasons) == 4 and "not JSON" in reasons[0], reasons
    assert set(reasons[1:]) == {
        "started again after a forfeit, it did not answer hello: no answer within 0.5 s"
    }
    found = [int(x) for x in pids.read_text().split()]
    assert len(found) == 4 and all(gone(pid) for pid in found)


SLOW_FIRST = r"""
import json, sys, time

first = True
for line in sys.stdin:
    m = json.loads(line)
    if m["type"] == "hello":  # told when each game ends
        print(json.dumps({"type": "hello", "protocol": "pitch-engine/1", "notify": ["game-end"]}))
    elif m["type"] == "game-end":
        first = True
        continue
    elif m["type"] == "quit":
        break
    else:
        if first:  # the first decision of each game takes 0.6 s, the rest none
            time.sleep(0.6)
            first = False
        print(json.dumps({"type": "action", "id": m["id"], "action": m["view"]["legal"][0]}))
    sys.stdout.flush()
"""


def test_the_game_clock_starts_afresh_each_game(tmp_path):
    """--game-time is per game (docs/protocol.md): six games of 0.6 s each (and a few
    milliseconds a decision) in one run of the program, under a 2 s game limit, forfeit
    nothing; a clock that ran on across games (issue 29's planted bug) forfeits from
    the fourth game on."""
    bot = tmp_path / "slow_first.py"
    bot.write_text(SLOW_FIRST)
    seat = CommandSeat(shlex.join([sys.executable, str(bot)]), game_time=2.0)
    r = tournament_api([seat, "random+random"], players=2, boards=3, seed=4)
    assert r.games == 6 and seat.runs == 1
    assert r.forfeited == [], r.forfeited
