"""An outside program that asks for them in its hello is told when a hand or a game
ends (docs/protocol.md, "hand-end" and "game-end"); one that does not ask (every bot
written to the protocol before them) is never sent one."""

import json
import sys
from pathlib import Path

import pytest

from pitchsim.game.rules import Rules
from pitchsim.table.game import play_table_game
from pitchsim.table.outside import CommandSeat, OutsideError

# Plays the first legal action; writes every message it gets to the file it is given.
BOT = r"""
import json, sys
out, notify = sys.argv[1], json.loads(sys.argv[2])
for line in sys.stdin:
    msg = json.loads(line)
    with open(out, "a") as f:
        f.write(json.dumps(msg) + "\n")
    if msg["type"] == "hello":
        hello = {"type": "hello", "protocol": "pitch-engine/1", "name": "first"}
        if notify is not None:
            hello["notify"] = notify
        print(json.dumps(hello), flush=True)
    elif msg["type"] == "decide":
        if sys.argv[3:] == ["crash"]:
            sys.exit(3)
        legal = msg["view"]["legal"]
        print(json.dumps({"type": "action", "id": msg["id"], "action": legal[0]}), flush=True)
"""


def bot(tmp_path: Path, name: str, notify, *extra: str) -> tuple[str, Path]:
    script = tmp_path / "bot.py"
    script.write_text(BOT)
    heard = tmp_path / f"{name}.jsonl"
    args = [sys.executable, str(script), str(heard), json.dumps(notify), *extra]
    return " ".join(f"'{a}'" for a in args), heard


def heard(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def seen(doc: dict) -> None:
    """What no seat saw whole is left out: the hands as dealt, the stock, the draw."""
    assert not {"hands", "stock", "draw", "held"} & set(doc)


@pytest.mark.parametrize("rules", ["auction-pitch", "smear"])
def test_hand_end_and_game_end_reach_a_program_that_asked(tmp_path, rules):
    cmd, path = bot(tmp_path, "asked", ["hand-end", "game-end"])
    r = Rules.parse(rules)
    seat = CommandSeat(cmd)
    try:
        # One program at seats 0 and 2: each seat is told.
        record = play_table_game([seat, "heuristic+heuristic", seat], r, 5, 0)
    finally:
        seat.close()
    msgs = heard(path)
    assert msgs[0]["type"] == "hello"
    hands = record["hands"]
    ends = [m for m in msgs if m["type"] == "hand-end"]
    assert [m["seat"] for m in ends] == [0, 2] * len(hands)
    for i, h in enumerate(hands):
        for m in ends[2 * i : 2 * i + 2]:
            got = m["hand"]
            seen(got)
            assert got["scores_after"] == h["scores_after"]
            assert got["points_won"] == h["points_won"] and got["points"] == h["points"]
            assert got["pitcher"] == h["pitcher"] and got["tricks"] == h["tricks"]
    # Each hand's end comes after its last decision and before the next hand's first.
    kinds = [m["type"] for m in msgs]
    k = 0
    for i, h in enumerate(hands):
        asked = sum(1 for a in h["actions"] if a["seat"] in (0, 2))
        for _ in range(asked):
            k = kinds.index("decide", k) + 1
        assert kinds[k : k + 2] == ["hand-end", "hand-end"], (i, kinds[k - 2 : k + 3])
        k += 2
    last = [m for m in msgs if m["type"] == "game-end"]
    assert [m["seat"] for m in last] == [0, 2] and kinds[-3:] == ["game-end", "game-end", "quit"]
    for m in last:
        assert m["final_scores"] == record["final_scores"] and m["winner"] == record["winner"]
        assert m["forfeit"] is None
    if rules == "smear":
        assert last[0]["winners"] == record["winners"]
    # The scores told at the last hand's end are the game's final ones.
    assert ends[-1]["hand"]["scores_after"] == record["final_scores"]


def test_a_program_that_does_not_ask_is_never_told(tmp_path):
    """The protocol's older bots: a hello without notify, or naming only types this
    pitchsim does not send, gets only hello and decide."""
    for name, notify in (("silent", None), ("other", ["trick-end"])):
        cmd, path = bot(tmp_path, name, notify)
        seat = CommandSeat(cmd)
        try:
            play_table_game([seat, "heuristic+heuristic"], Rules.parse("target=3"), 2, 0)
        finally:
            seat.close()
        assert {m["type"] for m in heard(path)} == {"hello", "decide", "quit"}


def test_the_other_program_is_told_of_a_forfeit(tmp_path):
    cmd, path = bot(tmp_path, "told", ["game-end"])
    crash, _ = bot(tmp_path, "crash", ["hand-end", "game-end"], "crash")
    a, b = CommandSeat(cmd), CommandSeat(crash)
    try:
        record = play_table_game([a, b], Rules(), 1, 0)
    finally:
        a.close()
        b.close()
    assert record["forfeit"]["seat"] == 1
    msgs = heard(path)
    assert "hand-end" not in {m["type"] for m in msgs}  # it asked for game-end only
    (end,) = [m for m in msgs if m["type"] == "game-end"]
    assert end["seat"] == 0 and end["forfeit"] == record["forfeit"] and end["winner"] is None
    assert "program exited (code 3)" in end["forfeit"]["reason"]


@pytest.mark.parametrize("notify", ['"hand-end"', "[1]", "{}"])
def test_a_notify_that_is_not_a_list_of_types_is_refused_at_hello(tmp_path, notify):
    cmd, _ = bot(tmp_path, "bad", None)
    cmd = cmd.replace("'null'", f"'{notify}'")
    seat = CommandSeat(cmd)
    with pytest.raises(OutsideError, match="notify .* not a list of message types"):
        seat.start()
