"""Issue 29's hostile pass, re-checked under a preset (smear), through the real CLI.

The base game's cases are tested in test_engine_redteam.py, test_outside_redteam.py,
test_records_redteam.py and test_document_rules.py (reports/reliability.md maps each
bullet of the issue to its test).  Since the one engine plays every preset, the same
surfaces take smear's documents too: a smear view sent to the engine, a smear record
given to ``play --replay``, a smear practice save given to ``--resume``.  Each case
here must end as the issue's "Bad input" asks: one line and exit 2 on the command line,
an ``error`` reply from the engine, never a traceback, and a save never overwritten.

And item 1's rule, checked where it lives: no document, base or preset, reaches the
rules parser with files allowed (``rule_values(spec, files=True)`` for a string).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from clirun import run

from pitchsim.game import rules as rules_module

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
PITCHSIM = str(Path(sys.executable).with_name("pitchsim"))
SMEAR_VIEW = json.loads((EXAMPLES / "family_views" / "smear.json").read_text())


def refused(r: subprocess.CompletedProcess, *words: str) -> str:
    """Exit 2, one line on stderr naming the problem, no traceback."""
    assert "Traceback" not in r.stdout + r.stderr, r.stderr[-2000:]
    assert r.returncode == 2, (r.returncode, r.stdout[-500:], r.stderr[-500:])
    lines = r.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("pitchsim: error: "), r.stderr
    for w in words:
        assert w in lines[0], (w, lines[0])
    return lines[0]


def made(r: subprocess.CompletedProcess) -> str:
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr[-2000:]
    return r.stdout


def engine(lines: list[bytes], cwd: Path = ROOT) -> list[dict]:
    """The engine's replies to ``lines``, through its real stdin and stdout."""
    p = subprocess.run(
        [PITCHSIM, "engine"],
        input=b"".join(x + b"\n" for x in lines),
        capture_output=True,
        timeout=600,
        cwd=cwd,
    )
    err = p.stderr.decode("utf-8", "replace")
    assert p.returncode == 0 and "Traceback" not in err and "Exception" not in err, err
    return [json.loads(x) for x in p.stdout.decode().splitlines()]


def decide(rid, view) -> bytes:
    return json.dumps({"type": "decide", "id": rid, "view": view}).encode()


# ------------------------------------------------------------------ documents and files


@pytest.fixture
def rules_files(tmp_path):
    """Rules files a document might name: good TOML that would change the game."""
    (tmp_path / "smear.toml").write_text('family = "smear"\ntarget = 15\n')
    (tmp_path / "house.toml").write_text('target = 11\nlow = "dealt"\n')
    return tmp_path


def test_a_smear_view_sent_to_the_engine_never_opens_a_rules_file(rules_files):
    names = [str(rules_files / "smear.toml"), "smear.toml", "./smear.toml", "sub/x"]
    replies = engine(
        [decide(i, SMEAR_VIEW | {"rules": n}) for i, n in enumerate(names)], rules_files
    )
    assert len(replies) == len(names)
    for i, r in enumerate(replies):
        assert (r["type"], r["id"], r["code"]) == ("error", i, "bad-view"), r
        assert "never a file" in r["message"], r
    # the same view with its rules as a string or an object is answered
    good = engine([decide(9, SMEAR_VIEW), decide(10, SMEAR_VIEW | {"rules": {"family": "smear"}})])
    assert [(r["type"], r["id"]) for r in good] == [("action", 9), ("action", 10)], good


@pytest.fixture(scope="module")
def smear_game() -> str:
    """A whole smear game of built-in seats at a table of 3 (``play --game --json``)."""
    text = made(
        run(
            *("play", "--game", "--rules", "smear", "-n", "3", "--seed", "5"),
            *("-s", "heuristic+heuristic", "--json"),
        )
    )
    assert len(json.loads(text)["hands"]) >= 3
    return text


ANSWERS = "p\n1\n" * 400  # pass (or the lowest call when a pass is refused), first card


def practice(*argv, stdin: str = "", cwd=None) -> subprocess.CompletedProcess:
    return run("practice", "--no-coach", *argv, stdin=stdin, cwd=cwd)


@pytest.fixture(scope="module")
def smear_save(tmp_path_factory) -> str:
    """A smear practice game of 3 stopped by the person in hand 2."""
    path = tmp_path_factory.mktemp("save") / "s.json"
    stdin = "p\n1\n1\n1\n1\n1\n1\np\n1\nq\n"
    out = made(practice("--rules", "smear", "-n", "3", "--seed", "7", "--save", path, stdin=stdin))
    assert "saved the unfinished game" in out
    doc = json.loads(path.read_text())
    assert doc["stopped"] == "quit" and len(doc["hands"]) == 2 and doc["hands"][-1]["incomplete"]
    assert doc["family"] == "smear"
    return path.read_text()


def test_a_smear_record_or_save_naming_a_rules_file_is_refused(rules_files, smear_game, smear_save):
    for i, name in enumerate([str(rules_files / "smear.toml"), "smear.toml"]):
        rec = rules_files / f"r{i}.json"
        rec.write_text(json.dumps(json.loads(smear_game) | {"rules": name}))
        refused(run("play", "--replay", rec, cwd=rules_files), "never a file")
        save = rules_files / f"s{i}.json"
        data = json.dumps(json.loads(smear_save) | {"rules": name})
        save.write_text(data)
        r = practice("--resume", save, "--save", save, stdin=ANSWERS, cwd=rules_files)
        refused(r, "never a file")
        assert save.read_text() == data


def test_no_document_reaches_the_rules_parser_with_files_allowed(
    monkeypatch, rules_files, smear_game, smear_save
):
    """Item 1: every call of the rules reader made while reading documents (views to the
    engine and to hint and advise, records to play --replay and review, saves to
    --resume, positions to solve; base and smear) is recorded; a string that reached it
    with files allowed would be opened if it named a file, so none may."""
    calls = []
    real = rules_module.rule_values

    def spy(spec, files=True):
        calls.append((spec, files))
        return real(spec, files)

    monkeypatch.setattr(rules_module, "rule_values", spy)
    # a document's rule string is read once a process (``stated_rules``): read each here
    monkeypatch.setattr(rules_module, "_stated_text", rules_module._stated_text.__wrapped__)
    rec = rules_files / "smear-record.json"
    rec.write_text(smear_game)
    save = rules_files / "smear-save.json"
    save.write_text(smear_save)
    base_views = [
        json.loads((EXAMPLES / "views" / n).read_text()) for n in ("lead.json", "call.json")
    ]
    from pitchsim.table.engine import Engine

    e = Engine()
    for i, view in enumerate([*base_views, SMEAR_VIEW]):
        assert json.loads(e.handle(decide(i, view).decode()))["type"] == "action"
    for argv in (
        ("hint", EXAMPLES / "views" / "lead.json"),
        ("hint", EXAMPLES / "family_views" / "smear.json"),
        ("advise", EXAMPLES / "views" / "call.json", "--samples", "200", "--threads", "1"),
        ("play", "--replay", EXAMPLES / "records" / "game.json"),
        ("play", "--replay", rec),
        (
            "review",
            EXAMPLES / "records" / "game.json",
            "--seat",
            "0",
            "--samples",
            "20",
            "--worlds",
            "10",
        ),
        ("solve", EXAMPLES / "endgame.json"),
    ):
        made(run(*argv, cwd=rules_files))
    made(practice("--resume", save, "--save", rules_files / "out.json", stdin="q\n"))
    assert len(calls) >= 10, calls  # the spy is where the readers call
    opened = [spec for spec, files in calls if files and isinstance(spec, (str, Path))]
    assert opened == []


# ------------------------------------------------------------------ the engine, smear views


def test_smear_views_of_the_wrong_types_are_error_replies():
    v = SMEAR_VIEW
    cases = [
        # (what is sent, the reply's code and id)
        (b"\xff" + decide(1, v), "bad-json", None),
        (decide(2, v).decode().encode("utf-16"), "bad-json", None),
        (json.dumps({"type": "decide", "id": True, "view": v}).encode(), "bad-request", None),
        (
            json.dumps({"type": "decide", "id": 4, "view": v, "options": []}).encode(),
            "bad-option",
            4,
        ),
        (decide(5, v | {"pitcher": True}), "bad-view", 5),
        (decide(6, v | {"seat": True}), "bad-view", 6),
        (decide(7, v | {"bid": 3.0}), "bad-view", 7),
        (decide(8, v | {"trump": True}), "bad-view", 8),
        (decide(9, v | {"hand": {"0": v["hand"][0]}}), "bad-view", 9),
        (decide(10, v | {"rules": ["smear"]}), "bad-view", 10),
        (decide(11, v | {"rules": {"family": "smear", "target": True}}), "bad-view", 11),
        (decide(12, v | {"scores": [True, 0, 0, 0]}), "bad-view", 12),
        (decide(13, [v]), "bad-view", 13),
    ]
    replies = engine([sent for sent, _, _ in cases] + [decide("last", v)])
    assert len(replies) == len(cases) + 1
    got = [(r["type"], r.get("code"), r.get("id")) for r in replies[:-1]]
    assert got == [("error", code, rid) for _, code, rid in cases]
    assert all(isinstance(r["message"], str) and r["message"] for r in replies[:-1])
    last = replies[-1]
    assert (last["type"], last["id"]) == ("action", "last") and last["action"] in v["legal"]


# ------------------------------------------------------------------ smear records


BOT = """import json, sys
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "hello":
        reply = {"type": "hello", "protocol": "pitch-engine/1"}
    else:
        reply = {"type": "action", "id": msg.get("id"), "action": "ZZ"}
    print(json.dumps(reply), flush=True)
"""


@pytest.fixture(scope="module")
def smear_forfeit(tmp_path_factory) -> str:
    """A smear game an outside program forfeits at its first decision."""
    bot = tmp_path_factory.mktemp("bot") / "bot.py"
    bot.write_text(BOT)
    text = made(
        run(
            *("play", "--game", "--rules", "smear", "-n", "3", "--seed", "3", "--json"),
            *("-s", f"cmd:{sys.executable} {bot},heuristic,heuristic"),
        )
    )
    doc = json.loads(text)
    assert doc["forfeit"]["seat"] == 0 and doc["hands"][-1]["incomplete"], doc["forfeit"]
    assert "'ZZ' is not a legal action" in doc["forfeit"]["reason"]
    return text


def replayed(tmp_path, doc) -> subprocess.CompletedProcess:
    path = tmp_path / "record.json"
    data = json.dumps(doc)
    path.write_text(data)
    r = run("play", "--replay", path)
    assert path.read_text() == data
    return r


def damaged(text, change) -> dict:
    doc = json.loads(text)
    change(doc)
    return doc


@pytest.mark.parametrize("which", ["smear_game", "smear_forfeit"])
def test_a_smear_record_replays_to_its_own_bytes(tmp_path, which, request):
    text = request.getfixturevalue(which)
    path = tmp_path / "r.json"
    path.write_text(text)
    assert made(run("play", "--replay", path, "--json")) == text


def test_a_smear_records_dealer_order_is_checked(tmp_path, smear_game):
    doc = json.loads(smear_game)
    first = doc["hands"][0]["dealer"]
    doc["hands"][1]["dealer"] = first  # a dealer who stays
    refused(replayed(tmp_path, doc), "hand 2", "passes to the left")
    doc["hands"][1]["dealer"] = (first + 2) % 3  # a deal that skips a seat
    refused(replayed(tmp_path, doc), "hand 2", "passes to the left")


@pytest.mark.parametrize(
    "change, words",
    [
        (lambda d: d["forfeit"].update(seat=9), ["forfeit: seat must be 0-2, not 9"]),
        (lambda d: d["forfeit"].update(seat="0"), ["forfeit: seat must be a whole number"]),
        (lambda d: d["forfeit"].pop("reason"), ["forfeit: reason is missing"]),
        (lambda d: d.update(forfeit=[0]), ["forfeit must be null or an object"]),
        (lambda d: d.update(forfeit=None), ["incomplete but the record names no forfeit"]),
        (lambda d: d["hands"][-1].update(incomplete="yes"), ["incomplete must be true or false"]),
        (lambda d: d["hands"][-1].pop("incomplete"), ["stop before the hand is over"]),
        (lambda d: d.update(winners=[1]), ["winners"]),
    ],
)
def test_a_damaged_smear_forfeit_is_one_line(tmp_path, smear_forfeit, change, words):
    refused(replayed(tmp_path, damaged(smear_forfeit, change)), *words)


def test_a_complete_smear_hand_marked_incomplete_is_refused_not_dropped(tmp_path, smear_game):
    doc = json.loads(smear_game)
    last = doc["hands"][-1]
    before = doc["hands"][-2]["scores_after"]
    seat = last["actions"][-1]["seat"]
    keep = ("players", "dealer", "hands", "scores_after", "actions")
    doc["hands"][-1] = {k: last[k] for k in keep} | {"incomplete": True, "scores_after": before}
    doc["forfeit"] = {"seat": seat, "strategy": doc["strategies"][seat], "reason": "x"}
    doc["winner"], doc["winners"], doc["final_scores"] = None, [], before
    refused(replayed(tmp_path, doc), f"hand {len(doc['hands'])}", "its actions finish it")


# ------------------------------------------------------------------ smear practice saves


def illegal_card(d):
    seat = d["practice"]["seat"]
    h = d["hands"][0]
    i = next(i for i, a in enumerate(h["actions"]) if a["seat"] == seat and len(a["action"]) == 2)
    h["actions"][i]["action"] = h["hands"][(seat + 1) % 3][0]  # a card another seat holds


SAVE_DAMAGE = [
    ("edited seed", lambda d: d.update(seed=d["seed"] + 1), ["not the deal seed 8 gives"]),
    ("seed a bool", lambda d: d.update(seed=True), ["seed must be 0-"]),
    ("5 players", lambda d: d.update(players=5), ["strategies must list the 5"]),
    ("an illegal card", illegal_card, ["is not a legal action"]),
    ("the dealer stays", lambda d: d["hands"][1].update(dealer=0), ["hand 2: the dealer is"]),
    (
        "a forfeit of seat 9",
        lambda d: d.update(forfeit={"seat": 9, "strategy": "you", "reason": "x"}),
        ["forfeit: seat must be 0-2, not 9"],
    ),
    ("another preset", lambda d: d.update(rules="ten-point"), ["ten-point"]),
    ("practice seat 3", lambda d: d["practice"].update(seat=3), ["practice: seat must"]),
    ("not stopped", lambda d: d.pop("stopped"), ["is not an unfinished practice game"]),
    ("incomplete a string", lambda d: d["hands"][-1].update(incomplete="1"), ["incomplete must"]),
]


@pytest.mark.parametrize(
    "change, words", [c[1:] for c in SAVE_DAMAGE], ids=[c[0] for c in SAVE_DAMAGE]
)
def test_a_damaged_smear_save_is_one_line_and_never_overwritten(
    tmp_path, smear_save, change, words
):
    path = tmp_path / "damaged.json"
    data = json.dumps(damaged(smear_save, change), indent=1) + "\n"
    path.write_text(data)
    r = practice("--resume", path, "--save", path, stdin=ANSWERS)
    refused(r, *words)
    assert "your call>" not in r.stdout and "your card>" not in r.stdout  # nothing played
    assert path.read_text() == data, "the damaged save was overwritten"


def test_the_smear_save_resumes_when_undamaged(tmp_path, smear_save):
    path = tmp_path / "s.json"
    path.write_text(smear_save)
    out = made(practice("--resume", path, "--save", path, stdin=ANSWERS))
    assert "game over: " in out and "seat None" not in out
    done = json.loads(path.read_text())
    assert "stopped" not in done and done["forfeit"] is None and done["winners"]
    assert done["hands"][0] == json.loads(smear_save)["hands"][0]  # the same game
    made(run("play", "--replay", path))


def test_a_smear_practice_with_stdin_closed_saves_a_game_that_resumes(tmp_path):
    path = tmp_path / "c.json"
    r = subprocess.run(
        [PITCHSIM, "practice", "--no-coach", "--rules", "smear", "-n", "3", "--seed", "7"]
        + ["--save", str(path)],
        stdin=None,
        capture_output=True,
        text=True,
        timeout=600,
        preexec_fn=lambda: os.close(0),  # as `<&-`
    )
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
    doc = json.loads(path.read_text())
    assert doc["stopped"] == "input ended" and doc["forfeit"] is None, doc.get("stopped")
    out = made(practice("--resume", path, "--save", path, stdin=ANSWERS))
    assert "game over: " in out and json.loads(path.read_text())["winners"]


def test_a_smear_practice_save_to_a_folder_is_refused_before_the_game(tmp_path):
    r = practice("--rules", "smear", "-n", "3", "--seed", "7", "--save", tmp_path, stdin=ANSWERS)
    refused(r, "--save", "is a folder")
    assert "your call>" not in r.stdout


@pytest.mark.parametrize("seed", ["-5", "12345678901234567890123"])
def test_seeds_under_a_preset_are_range_checked(seed):
    for argv in (("practice", "--no-coach"), ("tournament", "-s", "heuristic,heuristic")):
        refused(run(*argv, "--rules", "smear", "--seed", seed, stdin=""), "seed must be 0-", seed)
