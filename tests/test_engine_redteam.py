"""``pitchsim engine`` attacked through its real stdin and stdout (docs/protocol.md).

The engine runs as a subprocess and is sent raw bytes: lines that are not UTF-8 (UTF-16
and UTF-32 with their byte order marks, a UTF-8 BOM, a lone continuation byte, an
encoded surrogate), ids that are not a string, a number or null, options that are not
an object, view fields of the wrong type (a boolean where a number is meant, a list
where an object is, and the reverse), lines past the 1 MB limit and at it, a line cut
by the end of the input, and a reader that closes the engine's stdout.  Every expected
reply is read off docs/protocol.md and docs/view.md: each bad line gets one ``error``
reply with the documented code and id, the engine then answers the next good request,
and stderr never holds a traceback.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ENGINE = [sys.executable, "-m", "pitchsim", "engine"]
LIMIT = 1 << 20  # docs/protocol.md: a line of more than 1,048,576 bytes is refused
LEAD = json.loads((ROOT / "examples" / "views" / "lead.json").read_text())  # seat 1 leads
FOLLOW = json.loads((ROOT / "examples" / "views" / "follow.json").read_text())  # has tricks


def line(obj) -> bytes:
    return json.dumps(obj).encode() + b"\n"


def decide(rid, view=None, **fields) -> dict:
    return {"type": "decide", "id": rid, "view": LEAD if view is None else view, **fields}


def view(base=None, **fields) -> dict:
    return {**(LEAD if base is None else base), **fields}


def run(data: bytes, timeout: float = 600, **kw) -> subprocess.CompletedProcess:
    return subprocess.run(ENGINE, input=data, capture_output=True, timeout=timeout, cwd=ROOT, **kw)


def quiet(stderr: bytes) -> None:
    """stderr holds pitchsim's own lines only: no traceback, no "Exception ignored"."""
    text = stderr.decode("utf-8", "replace")
    assert "Traceback" not in text and "Exception" not in text, text
    assert all(x.startswith("pitchsim") for x in text.splitlines()), text


READY = b'{"type": "ready", "id": 5}'
# (what is sent, without its "\n"; the reply's type, code and id per docs/protocol.md)
CASES = [
    # Not UTF-8: bad-json, id null.
    ("a lone 0xff", b"\xff\xfe{", ("error", "bad-json", None)),
    ("UTF-16 with BOM", READY.decode().encode("utf-16"), ("error", "bad-json", None)),
    ("UTF-16-BE, no BOM", READY.decode().encode("utf-16-be"), ("error", "bad-json", None)),
    ("UTF-32 with BOM", READY.decode().encode("utf-32"), ("error", "bad-json", None)),
    ("UTF-8 BOM", b"\xef\xbb\xbf" + READY, ("error", "bad-json", None)),
    ("bad byte in a string", b'{"type": "ready", "id": "\xc3("}', ("error", "bad-json", None)),
    ("encoded surrogate", b'{"type": "ready", "id": "\xed\xa0\x80"}', ("error", "bad-json", None)),
    ("Latin-1 text", '{"type": "ready", "id": "é"}'.encode("latin-1"), ("error", "bad-json", None)),
    # id: a string, a number or null; anything else is bad-request with id null.
    ("id true", b'{"type": "ready", "id": true}', ("error", "bad-request", None)),
    ("id false", b'{"type": "ready", "id": false}', ("error", "bad-request", None)),
    ("id [1]", b'{"type": "ready", "id": [1]}', ("error", "bad-request", None)),
    ("id {}", b'{"type": "ready", "id": {}}', ("error", "bad-request", None)),
    ("decide id true", line(decide(True))[:-1], ("error", "bad-request", None)),
    ("id null", b'{"type": "ready", "id": null}', ("readyok", None, None)),
    ("id 1.5", b'{"type": "ready", "id": 1.5}', ("readyok", None, 1.5)),
    ("id text", '{"type": "ready", "id": "é"}'.encode(), ("readyok", None, "é")),
    # options: an object (null: none); booleans are never numbers.
    ("options []", line(decide(7, options=[]))[:-1], ("error", "bad-option", 7)),
    ("options {} as []", line(decide(7, options=[["seed", 1]]))[:-1], ("error", "bad-option", 7)),
    ('options ""', line(decide(7, options=""))[:-1], ("error", "bad-option", 7)),
    ("options 0", line(decide(7, options=0))[:-1], ("error", "bad-option", 7)),
    ("options false", line(decide(7, options=False))[:-1], ("error", "bad-option", 7)),
    ("options null", line(decide(7, options=None))[:-1], ("action", None, 7)),
    ("seed true", line(decide(7, options={"seed": True}))[:-1], ("error", "bad-option", 7)),
    ("samples true", line(decide(7, options={"samples": True}))[:-1], ("error", "bad-option", 7)),
    ("worlds true", line(decide(7, options={"worlds": True}))[:-1], ("error", "bad-option", 7)),
    ("time true", line(decide(7, options={"time": True}))[:-1], ("error", "bad-option", 7)),
    ("values 1", line(decide(7, options={"values": 1}))[:-1], ("error", "bad-option", 7)),
    # View fields (docs/view.md): a boolean is not a number, a list is not an object.
    ("pitcher true", line(decide(8, view(pitcher=True)))[:-1], ("error", "bad-view", 8)),
    ("pitcher 1.0", line(decide(8, view(pitcher=1.0)))[:-1], ("error", "bad-view", 8)),
    ("bid 3.0", line(decide(8, view(bid=3.0)))[:-1], ("error", "bad-view", 8)),
    ("seat true", line(decide(8, view(seat=True)))[:-1], ("error", "bad-view", 8)),
    ("dealer true", line(decide(8, view(dealer=True)))[:-1], ("error", "bad-view", 8)),
    ("players true", line(decide(8, view(players=True)))[:-1], ("error", "bad-view", 8)),
    ("target true", line(decide(8, view(target=True)))[:-1], ("error", "bad-view", 8)),
    ("target 7.0", line(decide(8, view(target=7.0)))[:-1], ("error", "bad-view", 8)),
    ("partnership 0", line(decide(8, view(partnership=0)))[:-1], ("error", "bad-view", 8)),
    ("score false", line(decide(8, view(scores=[2, False, 3, -1])))[:-1], ("error", "bad-view", 8)),
    ("scores {}", line(decide(8, view(scores={"0": 2})))[:-1], ("error", "bad-view", 8)),
    (
        "call true",
        line(decide(8, view(calls=["pass", True, "pass", "pass"])))[:-1],
        ("error", "bad-view", 8),
    ),
    ("calls {}", line(decide(8, view(calls={"0": "pass"})))[:-1], ("error", "bad-view", 8)),
    ("hand {}", line(decide(8, view(hand={"0": "AH"})))[:-1], ("error", "bad-view", 8)),
    ("trump true", line(decide(8, view(trump=True)))[:-1], ("error", "bad-view", 8)),
    ("legal {}", line(decide(8, view(legal={"0": "AH"})))[:-1], ("error", "bad-view", 8)),
    ("rules []", line(decide(8, view(rules=["low=captured"])))[:-1], ("error", "bad-view", 8)),
    (
        "rules target true",
        line(decide(8, view(rules={"target": True})))[:-1],
        ("error", "bad-view", 8),
    ),
    ("view []", line(decide(8, [LEAD]))[:-1], ("error", "bad-view", 8)),
    ("tricks {}", line(decide(8, view(FOLLOW, tricks={})))[:-1], ("error", "bad-view", 8)),
    (
        "a trick as a list",
        line(
            decide(8, view(FOLLOW, tricks=[[1, ["AH", "4H", "JH", "3C"]], *FOLLOW["tricks"][1:]]))
        )[:-1],
        ("error", "bad-view", 8),
    ),
    (
        "leader true",
        line(
            decide(
                8,
                view(
                    FOLLOW, tricks=[{**FOLLOW["tricks"][0], "leader": True}, *FOLLOW["tricks"][1:]]
                ),
            )
        )[:-1],
        ("error", "bad-view", 8),
    ),
    ("rules file", line(decide(8, view(rules="house.toml")))[:-1], ("error", "bad-view", 8)),
    # Lines past the limit and at it (the limit counts the line without its "\n").
    (
        "2 MB line",
        b'{"type": "ready", "id": 1' + b" " * (2 * LIMIT) + b"}",
        ("error", "bad-json", None),
    ),
    (
        "limit + 1",
        b'{"type": "ready", "id": 2' + b" " * (LIMIT - 25) + b"}",
        ("error", "bad-json", None),
    ),
    (
        "at the limit",
        b'{"type": "ready", "id": 3' + b" " * (LIMIT - 26) + b"}",
        ("readyok", None, 3),
    ),
    (
        "at the limit, CRLF",
        b'{"type": "ready", "id": 4' + b" " * (LIMIT - 26) + b"}\r",
        ("readyok", None, 4),
    ),
    ("not an object", b"[1]", ("error", "bad-json", None)),
    ("type a list", b'{"type": ["ready"], "id": 6}', ("error", "unknown-type", 6)),
]


def test_the_lengths_of_the_limit_lines_are_right():
    # The cases above are what they claim (the test of the test).
    sizes = {name: len(sent) for name, sent, _ in CASES}
    assert sizes["limit + 1"] == LIMIT + 1 and sizes["at the limit"] == LIMIT
    assert sizes["at the limit, CRLF"] == LIMIT + 1  # "\r" + "\n" end it: LIMIT inside


def test_every_bad_line_is_answered_and_the_engine_goes_on():
    sent = b"".join(
        sent + b"\n" + line({"type": "ready", "id": f"after {i}"})
        for i, (_, sent, _) in enumerate(CASES)
    )
    # A good decision last, then a line cut by the end of the input.
    sent += line(decide("last")) + b'{"type": "ready", "id": "cut'
    p = run(sent)
    quiet(p.stderr)
    assert p.returncode == 0
    replies = [json.loads(x) for x in p.stdout.decode("utf-8").splitlines()]
    assert len(replies) == 2 * len(CASES) + 2, [r.get("message") for r in replies]
    wrong = []  # every case that went wrong, named, not just the first
    for i, (name, _, (kind, code, rid)) in enumerate(CASES):
        got, after = replies[2 * i], replies[2 * i + 1]
        if (got["type"], got.get("code"), got.get("id")) != (kind, code, rid):
            wrong.append((name, got))
        elif kind == "error" and not (isinstance(got["message"], str) and got["message"]):
            wrong.append((name, got))
        if after != {"type": "readyok", "id": f"after {i}"}:
            wrong.append((f"the request after {name}", after))
    assert wrong == []
    last, cut = replies[-2:]
    assert last["type"] == "action" and last["id"] == "last" and last["action"] in LEAD["legal"]
    assert (cut["type"], cut["code"], cut["id"]) == ("error", "bad-json", None)


def test_the_last_line_may_lack_its_newline():
    p = run(b'{"type": "ready", "id": 1}\n{"type": "ready", "id": 2}')
    quiet(p.stderr)
    assert p.returncode == 0
    assert p.stdout == b'{"type": "readyok", "id": 1}\n{"type": "readyok", "id": 2}\n'


def test_a_reader_that_closes_stdout_ends_the_engine_quietly():
    p = subprocess.Popen(
        ENGINE, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT
    )
    try:
        p.stdin.write(b'{"type": "ready", "id": 1}\n')
        p.stdin.flush()
        assert p.stdout.readline() == b'{"type": "readyok", "id": 1}\n'
        p.stdout.close()  # the reader goes away
        try:
            for k in range(2, 50):  # answered into a closed pipe: the engine must stop
                p.stdin.write(b'{"type": "ready", "id": %d}\n' % k)
                p.stdin.flush()
            p.stdin.close()
        except BrokenPipeError:
            pass  # the engine has already gone
        rc = p.wait(timeout=120)
        err = p.stderr.read()
    finally:
        if p.poll() is None:
            p.kill()
    quiet(err)
    assert rc == 0, err


@pytest.mark.parametrize("fd, name", [(1, "stdout"), (0, "stdin")])
def test_an_engine_started_without_stdin_or_stdout_says_so_in_one_line(fd, name):
    p = subprocess.run(
        ENGINE,
        input=None if fd == 0 else b'{"type": "ready"}\n',
        stdout=None if fd == 1 else subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=lambda: os.close(fd),  # as `pitchsim engine >&-` / `<&-`
        cwd=ROOT,
        timeout=120,
    )
    quiet(p.stderr)
    errors = [x for x in p.stderr.decode().splitlines() if x.startswith("pitchsim: error:")]
    assert p.returncode == 2 and len(errors) == 1, p.stderr
    assert f"{name} is closed" in errors[0]
