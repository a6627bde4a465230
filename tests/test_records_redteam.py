"""Records and practice saves damaged on purpose, through the real command line (issue 29).

Every record and save here is made by the real commands (``play --game --json``,
``practice``); each test then damages one field of it (a wrong type, a bool for a whole
number, out of range, missing, an extra field, the dealer order, a malformed forfeit, an
incomplete flag that lies, an illegal card, an edited seed or player count) and asserts
what docs/record.md promises: exit 2, exactly one line on stderr naming the problem, no
traceback, and the save's bytes unchanged (``--resume X --save X`` never overwrites the
game it could not read).  Also: ``play --replay --json`` writes a record back byte for
byte; a practice game whose stdin is closed is saved unfinished and resumes; ``--save``
is checked before the game; and every command's ``--seed`` is read by one check
(docs/limits.md: 0 to 2^62 - 1).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from clirun import run

PITCHSIM = str(Path(sys.executable).with_name("pitchsim"))
MAX_SEED = 2**62 - 1  # docs/limits.md


def refused(r: subprocess.CompletedProcess, *words: str) -> str:
    """Exit 2, one line on stderr naming the problem (each of ``words``), no traceback."""
    assert "Traceback" not in r.stdout + r.stderr, r.stderr[-2000:]
    assert r.returncode == 2, (r.returncode, r.stdout[-500:], r.stderr[-500:])
    lines = r.stderr.splitlines()
    assert len(lines) == 1 and r.stderr.endswith("\n"), r.stderr
    assert lines[0].startswith("pitchsim: error: "), lines[0]
    for w in words:
        assert w in lines[0], (w, lines[0])
    return lines[0]


def made(r: subprocess.CompletedProcess) -> str:
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr[-2000:]
    return r.stdout


def answers(n: int = 400) -> str:
    """Pass (or bid the lowest when a pass is not allowed: the refusal asks again), play
    the first card listed."""
    return "p\n1\n" * n


# ------------------------------------------------------------------ records made by pitchsim


@pytest.fixture(scope="module")
def game() -> str:
    """A whole game of built-in seats at a table of 3, as ``play --game --json`` writes it."""
    return made(run("play", "--game", "-n", "3", "--seed", "5", "-s", "odds+heuristic", "--json"))


@pytest.fixture(scope="module")
def kernel_game() -> str:
    """The same, played by the kernels (``play --game`` without -s: another writer)."""
    return made(run("play", "--game", "-n", "3", "--seed", "2", "--json"))


@pytest.fixture(scope="module")
def redeal_game() -> str:
    """A game under all-pass=redeal with a hand thrown in before the last."""
    text = made(
        run(
            *("play", "--game", "--rules", "all-pass=redeal", "-n", "3"),
            *("-s", "random+random", "--seed", "6", "--json"),
        )
    )
    hands = json.loads(text)["hands"]
    assert any(h["pitcher"] is None for h in hands[:-1]), "seed 6 no longer throws a hand in"
    return text


BOT = """import json, sys
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "hello":
        reply = {"type": "hello", "protocol": "pitch-engine/1", "name": "zz", "options": []}
    else:
        reply = {"type": "action", "id": msg.get("id"), "action": "ZZ"}
    print(json.dumps(reply), flush=True)
"""


@pytest.fixture(scope="module")
def forfeit_game(tmp_path_factory) -> str:
    """A game an outside program forfeits (it answers "ZZ") at its first decision."""
    bot = tmp_path_factory.mktemp("bot") / "bot.py"
    bot.write_text(BOT)
    text = made(
        run(
            *("play", "--game", "-n", "3", "--seed", "3", "--json"),
            *("-s", f"cmd:{sys.executable} {bot},odds,heuristic"),
        )
    )
    doc = json.loads(text)
    assert doc["forfeit"]["seat"] == 0 and doc["hands"][-1]["incomplete"]
    return text


def damaged(text: str, change) -> dict:
    doc = json.loads(text)
    change(doc)
    return doc


def replayed(tmp_path, doc) -> subprocess.CompletedProcess:
    path = tmp_path / "record.json"
    data = json.dumps(doc)
    path.write_text(data)
    r = run("play", "--replay", path)
    assert path.read_text() == data
    return r


# ------------------------------------------------------------------ every field, every type


def wrong_types(v):
    """(what, value) of another JSON type than ``v``'s, a bool for a whole number first."""
    if isinstance(v, bool):
        return [("a number for a bool", int(v))]
    if isinstance(v, int):
        return [("a bool", v != 0), ("a float", float(v))]
    if v is None:
        return [("a number for null", 0)]
    if isinstance(v, str):
        return [("a list for a string", [v])]
    if isinstance(v, list):
        return [("an object for a list", {})]
    return [("a list for an object", list(v.values()))]


TOP_FIELDS = (
    "format",
    "version",
    "deal_order",
    "rules",
    "players",
    "seed",
    "board",
    "strategies",
    "target",
    "partnership",
    "winner",
    "final_scores",
    "forfeit",
    "hands",
)
HAND_FIELDS = (
    "players",
    "dealer",
    "calls",
    "pitcher",
    "bid",
    "shoot",
    "trump",
    "hands",
    "tricks",
    "points",
    "game_points",
    "points_won",
    "round_points",
    "made",
    "partnership",
    "scores_after",
    "actions",
    "rules",
)


@pytest.mark.parametrize("field", TOP_FIELDS)
def test_a_record_field_of_the_wrong_type_is_one_line(tmp_path, game, field):
    for what, value in wrong_types(json.loads(game)[field]):
        doc = damaged(game, lambda d, f=field, v=value: d.update({f: v}))
        line = refused(replayed(tmp_path, doc))
        assert field in line, (what, line)


@pytest.mark.parametrize("field", HAND_FIELDS)
def test_a_hand_field_of_the_wrong_type_is_one_line(tmp_path, game, field):
    for what, value in wrong_types(json.loads(game)["hands"][1][field]):
        doc = damaged(game, lambda d, f=field, v=value: d["hands"][1].update({f: v}))
        line = refused(replayed(tmp_path, doc), "hand 2")
        # a list of hands or actions of another type is named by what it must be
        assert field in line or field == "hands" and "hand" in line, (what, line)


@pytest.mark.parametrize(
    "change, words",
    [
        (lambda d: d.update(players=8), ["players must be 2-7"]),
        (lambda d: d.update(players=1), ["players must be 2-7"]),
        (lambda d: d.update(players=4), ["strategies must list the 4"]),
        (lambda d: d.update(seed=-1), ["seed must be 0-"]),
        (lambda d: d.update(seed=2**62), ["seed must be 0-"]),
        (lambda d: d.update(seed=10**22), ["seed must be 0-"]),
        (lambda d: d.update(board=-1), ["board must be 0-"]),
        (lambda d: d.update(board=2**53), ["board must be 0-"]),
        (lambda d: d.update(winner=3), ["winner must be 0-2"]),
        (lambda d: d.update(winner=(d["winner"] + 1) % 3), ["winner is", "the actions give"]),
        (lambda d: d["final_scores"].__setitem__(0, 10**6 + 1), ["final_scores"]),
        (lambda d: d["final_scores"].append(0), ["final_scores must list the 3"]),
        (lambda d: d["strategies"].__setitem__(1, ""), ["strategies: seat 1"]),
        (lambda d: d["hands"][0].update(dealer=3), ["hand 1: dealer must be 0-2"]),
        (lambda d: d["hands"][0].update(dealer=-1), ["hand 1: dealer must be 0-2"]),
        (lambda d: d["hands"][0]["actions"][0].update(seat=3), ["hand 1: action 1: seat"]),
        (lambda d: d["hands"][0]["actions"][0].update(seat=True), ["hand 1: action 1: seat"]),
        (lambda d: d["hands"][0]["actions"][0].update(action=4), ["hand 1: action 1"]),
        (lambda d: d["hands"][0]["hands"][0].pop(), ["hand 1: seat 0 was dealt 5 cards"]),
        (
            lambda d: d["hands"][0]["hands"][1].__setitem__(0, d["hands"][0]["hands"][0][0]),
            ["hand 1: seat 1 was dealt a card another seat holds"],
        ),
        (lambda d: d["hands"].append(d["hands"][-1]), ["won the game here, yet it goes on"]),
    ],
)
def test_a_record_field_out_of_range_is_one_line(tmp_path, game, change, words):
    refused(replayed(tmp_path, damaged(game, change)), *words)


@pytest.mark.parametrize(
    "change, words",
    [
        (lambda d: d.pop("rules"), ["needs its rules"]),
        (lambda d: d.pop("players"), ["players must be a whole number, not None"]),
        (lambda d: d.pop("hands"), ["needs hands"]),
        (lambda d: d["hands"][1].pop("dealer"), ["hand 2: dealer is missing"]),
        (lambda d: d["hands"][1].pop("hands"), ["hand 2: hands is missing"]),
        (lambda d: d["hands"][1].pop("actions"), ["hand 2: actions is missing"]),
        (lambda d: d["hands"][1]["actions"][0].pop("seat"), ["hand 2: action 1: seat is missing"]),
        (lambda d: d.update(extra=1), ["unknown field 'extra'"]),
        (lambda d: d["hands"][1].update(extra=1), ["hand 2: unknown field 'extra'"]),
        (lambda d: d["hands"][1]["actions"][0].update(extra=1), ["action 1: unknown field"]),
    ],
)
def test_a_field_missing_or_extra_is_one_line(tmp_path, game, change, words):
    refused(replayed(tmp_path, damaged(game, change)), *words)


def test_an_illegal_card_is_one_line(tmp_path, game):
    doc = json.loads(game)
    h = doc["hands"][0]
    first_card = next(i for i, a in enumerate(h["actions"]) if len(a["action"]) == 2)  # a card
    seat = h["actions"][first_card]["seat"]
    other = h["hands"][(seat + 1) % 3][0]  # a card another seat holds
    h["actions"][first_card]["action"] = other
    refused(replayed(tmp_path, doc), "hand 1", f"'{other}' is not a legal action")


# ------------------------------------------------------------------ the dealer order


def test_the_deal_passes_to_the_left(tmp_path, game):
    doc = json.loads(game)
    first = doc["hands"][0]["dealer"]
    assert doc["hands"][0]["pitcher"] is not None  # under all-pass=forced someone pitches
    doc["hands"][1]["dealer"] = first  # a dealer who stays
    refused(replayed(tmp_path, doc), "hand 2", "passes to the left", f"seat {(first + 1) % 3}")
    doc["hands"][1]["dealer"] = (first + 2) % 3  # a deal that skips a seat
    refused(replayed(tmp_path, doc), "hand 2", "passes to the left")


def test_a_games_first_dealer_is_its_board_mod_the_players(tmp_path, game):
    doc = json.loads(game)
    assert doc["board"] == 0 and doc["hands"][0]["dealer"] == 0
    doc["board"] = 1
    refused(replayed(tmp_path, doc), "hand 1: the dealer is seat 0", "dealt first by seat 1")


def test_after_a_hand_thrown_in_the_same_dealer_deals_again(tmp_path, redeal_game):
    doc = json.loads(redeal_game)
    k = next(i for i, h in enumerate(doc["hands"][:-1]) if h["pitcher"] is None)
    # The record as written follows the rule (VARIANTS 0.1, 4.5; docs/rules.md):
    assert doc["hands"][k + 1]["dealer"] == doc["hands"][k]["dealer"]
    made(replayed(tmp_path, doc))
    doc["hands"][k + 1]["dealer"] = (doc["hands"][k]["dealer"] + 1) % 3  # moves left
    refused(replayed(tmp_path, doc), f"hand {k + 2}", "thrown in", "deals again")


# ------------------------------------------------------------------ forfeits


@pytest.mark.parametrize(
    "change, words",
    [
        (lambda d: d.update(forfeit="seat 0"), ["forfeit must be null or an object"]),
        (lambda d: d.update(forfeit=[0]), ["forfeit must be null or an object"]),
        (lambda d: d["forfeit"].update(seat=9), ["forfeit: seat must be 0-2, not 9"]),
        (lambda d: d["forfeit"].update(seat=-1), ["forfeit: seat must be 0-2"]),
        (lambda d: d["forfeit"].update(seat="0"), ["forfeit: seat must be a whole number"]),
        (lambda d: d["forfeit"].update(seat=False), ["forfeit: seat must be a whole number"]),
        (
            lambda d: d["forfeit"].update(seat=1, strategy=d["strategies"][1]),
            ["forfeit names seat 1, but seat 0 was to act"],
        ),
        (lambda d: d["forfeit"].update(strategy="odds"), ["forfeit: seat 0's strategy"]),
        (lambda d: d["forfeit"].update(reason=5), ["forfeit: reason must be"]),
        (lambda d: d["forfeit"].update(reason=""), ["forfeit: reason must be"]),
        # shown as text by play --replay: an escape would clear the reader's screen
        (
            lambda d: d["forfeit"].update(reason="late\x1b[2J"),
            ["forfeit: reason holds a control character: 'late\\x1b[2J'"],
        ),
        (
            lambda d: d["strategies"].__setitem__(1, "odds\x07"),
            ["strategies: seat 1's strategy holds a control character"],
        ),
        (lambda d: d["forfeit"].pop("reason"), ["forfeit: reason is missing"]),
        (lambda d: d["forfeit"].pop("seat"), ["forfeit: seat is missing"]),
        (lambda d: d["forfeit"].update(extra=1), ["forfeit: unknown field"]),
        (lambda d: d.update(forfeit=None), ["incomplete but the record names no forfeit"]),
        (lambda d: d.update(stopped="quit"), ["a forfeit or a stop, not both"]),
    ],
)
def test_a_malformed_forfeit_is_one_line(tmp_path, forfeit_game, change, words):
    refused(replayed(tmp_path, damaged(forfeit_game, change)), *words)


def test_a_forfeit_in_a_complete_game_is_refused(tmp_path, game):
    doc = json.loads(game)
    doc["forfeit"] = {"seat": 0, "strategy": doc["strategies"][0], "reason": "late"}
    refused(replayed(tmp_path, doc), "forfeit but its last hand is complete")


# ------------------------------------------------------------------ the incomplete flag


PARTIAL = ("players", "dealer", "hands", "incomplete", "scores_after", "actions")


def test_only_the_last_hand_may_be_incomplete(tmp_path, game):
    doc = damaged(game, lambda d: d["hands"][0].update(incomplete=True))
    refused(replayed(tmp_path, doc), "hand 1 is incomplete but is not the last hand")


def test_a_complete_last_hand_marked_incomplete_is_refused_not_dropped(tmp_path, game):
    doc = json.loads(game)
    last = doc["hands"][-1]
    before = doc["hands"][-2]["scores_after"]
    last_seat = last["actions"][-1]["seat"]
    doc["hands"][-1] = {
        **{k: last[k] for k in PARTIAL if k in last},
        "incomplete": True,
        "scores_after": before,
    }
    doc["forfeit"] = {"seat": last_seat, "strategy": doc["strategies"][last_seat], "reason": "x"}
    doc["winner"], doc["final_scores"] = None, before
    refused(replayed(tmp_path, doc), f"hand {len(doc['hands'])}", "its actions finish it")


@pytest.mark.parametrize(
    "change, words",
    [
        (lambda d: d["hands"][-1].update(incomplete=1), ["incomplete must be true or false"]),
        (lambda d: d["hands"][-1].update(incomplete="yes"), ["incomplete must be true or false"]),
        (lambda d: d["hands"][-1].update(incomplete=False), ["stop before the hand is over"]),
        (lambda d: d["hands"][-1].pop("incomplete"), ["stop before the hand is over"]),
        (lambda d: d["hands"][-1].update(scores_after=[1, 0, 0]), ["scores_after"]),
        (lambda d: d["hands"][-1].update(made=True), ["marked incomplete, yet gives made"]),
    ],
)
def test_an_incomplete_flag_that_lies_is_one_line(tmp_path, forfeit_game, change, words):
    refused(replayed(tmp_path, damaged(forfeit_game, change)), *words)


# ------------------------------------------------------------------ byte for byte


@pytest.mark.parametrize("which", ["game", "kernel_game", "redeal_game", "forfeit_game"])
def test_play_replay_writes_back_the_records_own_bytes(tmp_path, which, request):
    text = request.getfixturevalue(which)
    path = tmp_path / "r.json"
    path.write_text(text)
    assert made(run("play", "--replay", path, "--json")) == text
    # and the text view of a forfeited game names the forfeit, with its seat
    if which == "forfeit_game":
        shown = made(run("play", "--replay", path))
        assert "Seat 0 (cmd:" in shown and "forfeits the game: " in shown


@pytest.mark.parametrize(
    "option",
    [
        ("--players", "5"),
        ("--players", "3"),  # the record's own count: still not what --replay reads
        ("--seed", "9"),
        ("--hand", "AHKH2H9C7D3S"),
        ("--bid", "2"),
        ("--policy", "heuristic"),  # the default's value, given
        ("--bidding", "random"),
        ("--dealer", "1"),
        ("--trump", "H"),
        ("--rounds", "2"),
        ("--seat-logs", "logs"),
        ("--decision-time", "5"),
    ],
    ids=lambda o: o[0],
)
def test_play_replay_refuses_an_option_that_would_change_the_game(tmp_path, game, option):
    """The record holds the whole game: an option it would ignore is refused, naming it
    (docs/record.md; never a replay that silently ignores --seed or --players)."""
    path = tmp_path / "r.json"
    path.write_text(game)
    refused(run("play", "--replay", path, *option), "--replay", f"leave out {option[0]}")
    assert made(run("play", "--replay", path, "--rules", "auction-pitch", "--json")) == game


def test_play_replay_names_a_record_that_is_not_json_once(tmp_path):
    path = tmp_path / "broken.json"
    path.write_text('{"format": "pitchsim-game", ')
    line = refused(run("play", "--replay", path), "the record ", "is not JSON")
    assert line.count("broken.json") == 1, line  # was: record PATH 'PATH' is not JSON
    line = refused(run("play", "--replay", "-", stdin="[}"), "the record on stdin is not JSON")


# ------------------------------------------------------------------ practice saves


def practice(*argv, stdin: str = "", **kw) -> subprocess.CompletedProcess:
    return run("practice", "--no-coach", *argv, stdin=stdin, **kw)


@pytest.fixture(scope="module")
def save(tmp_path_factory) -> str:
    """A practice game of 3 stopped by the person in hand 2, after a bot's call there."""
    path = tmp_path_factory.mktemp("save") / "s.json"
    out = made(
        practice("-n", "3", "--seed", "7", "--save", path, stdin="p\n1\n1\n1\n1\n1\np\n1\nq\n")
    )
    assert "saved the unfinished game" in out
    text = path.read_text()
    doc = json.loads(text)
    assert doc["stopped"] == "quit" and len(doc["hands"]) >= 2, doc["hands"]
    last = doc["hands"][-1]
    assert last["incomplete"] and any(a["seat"] != 0 for a in last["actions"]), last
    return text


def resumed(tmp_path, doc) -> subprocess.CompletedProcess:
    """``practice --resume X --save X`` of a damaged save; X must keep its bytes."""
    path = tmp_path / "damaged.json"
    data = json.dumps(doc, indent=1) + "\n"
    path.write_text(data)
    r = practice("--resume", path, "--save", path, stdin=answers())
    assert path.read_text() == data, "the damaged save was overwritten"
    return r


def other_call(doc: dict) -> tuple[int, str]:
    """A bot's call in the last hand and another call it could have made."""
    from pitchsim.table.record import views_of

    last = doc["hands"][-1]["actions"]
    start = sum(len(h["actions"]) for h in doc["hands"][:-1])
    views = list(views_of(doc))
    for i, a in enumerate(last):
        view, action = views[start + i]
        assert action == a["action"]
        if a["seat"] != doc["practice"]["seat"] and len(view.legal()) > 1:
            return i, next(x for x in view.legal() if x != action)
    raise AssertionError("no bot call with a choice in the last hand")


def person_card(doc: dict) -> tuple[int, int]:
    """(hand, action) of the person's first card in a complete hand."""
    seat = doc["practice"]["seat"]
    for k, h in enumerate(doc["hands"][:-1]):
        for i, a in enumerate(h["actions"]):
            if a["seat"] == seat and len(a["action"]) == 2:  # a card, not a call
                return k, i
    raise AssertionError("the person played no card")


def illegal_card(d):
    k, i = person_card(d)
    other = d["hands"][k]["hands"][(d["practice"]["seat"] + 1) % 3][0]
    d["hands"][k]["actions"][i]["action"] = other


def bot_changes_its_call(d):
    i, call = other_call(d)
    d["hands"][-1]["actions"][i]["action"] = call


def judgement(**change):
    j = {
        "hand": 1,
        "seat": 0,
        "kind": "call",
        "chosen": "pass",
        "best": "pass",
        "values": {"pass": 0.5, "2": 0.4},
        "half_widths": {"pass": 0.01, "2": 0.01},
        "loss": 0.0,
        "error": 0.01,
        "label": None,
        "unit": "P(win)",
        "samples": 100,
        "note": "",
        "defending": False,
    }
    j = {**j, **change}
    return {"recommended": j["best"], **j}  # as the coach writes it: its own choice apart


SAVE_DAMAGE = [
    ("edited seed", lambda d: d.update(seed=d["seed"] + 1), ["not the deal seed 8 gives"]),
    ("seed a string", lambda d: d.update(seed="7"), ["seed must be 0-"]),
    ("seed a bool", lambda d: d.update(seed=True), ["seed must be 0-"]),
    ("seed negative", lambda d: d.update(seed=-5), ["seed must be 0-"]),
    ("seed 2**62", lambda d: d.update(seed=2**62), ["seed must be 0-"]),
    ("seed missing", lambda d: d.pop("seed"), ["seed is missing"]),
    ("5 players", lambda d: d.update(players=5), ["strategies must list the 5"]),
    ("players a string", lambda d: d.update(players="3"), ["players must be a whole number"]),
    ("players a bool", lambda d: d.update(players=True), ["players must be a whole number"]),
    ("an illegal card", illegal_card, ["is not a legal action"]),
    ("a bot's call edited", bot_changes_its_call, ["seat", "(odds+rollout) answers"]),
    ("the dealer stays", lambda d: d["hands"][1].update(dealer=0), ["hand 2: the dealer is"]),
    ("a forfeit added", lambda d: d.update(forfeit={"seat": 0}), ["forfeit: strategy is missing"]),
    (
        "a forfeit of seat 9",
        lambda d: d.update(forfeit={"seat": 9, "strategy": "you", "reason": "x"}),
        ["forfeit: seat must be 0-2, not 9"],
    ),
    ("not stopped", lambda d: d.pop("stopped"), ["is not an unfinished practice game"]),
    ("stopped a number", lambda d: d.update(stopped=5), ["stopped must be a non-empty string"]),
    ("incomplete removed", lambda d: d["hands"][-1].pop("incomplete"), ["stop before"]),
    ("incomplete a string", lambda d: d["hands"][-1].update(incomplete="1"), ["incomplete must"]),
    ("board 1", lambda d: d.update(board=1), ["dealt first by seat 1"]),
    ("rules edited", lambda d: d.update(rules="target=11"), ["target is 7 but the rules say 11"]),
    ("extra field", lambda d: d.update(extra=1), ["unknown field 'extra'"]),
    ("practice missing", lambda d: d.pop("practice"), ["not an unfinished practice game"]),
    ("practice a list", lambda d: d.update(practice=[]), ["practice must be an object"]),
    ("practice seat 3", lambda d: d["practice"].update(seat=3), ["practice: seat must"]),
    ("practice seat bool", lambda d: d["practice"].update(seat=False), ["practice: seat must"]),
    ("practice seat moved", lambda d: d["practice"].update(seat=1), ["seat 1 is the person's"]),
    ("practice seat missing", lambda d: d["practice"].pop("seat"), ["practice: seat is missing"]),
    ("practice coach 1", lambda d: d["practice"].update(coach=1), ["coach must be true or false"]),
    ("practice extra", lambda d: d["practice"].update(x=1), ["practice: unknown field 'x'"]),
    ("judgements {}", lambda d: d["practice"].update(judgements={}), ["judgements must be a list"]),
    (
        "judgement missing a field",
        lambda d: d["practice"].update(judgements=[{"hand": 1}]),
        ["judgement 1: seat is missing"],
    ),
    (
        "judgement loss a string",
        lambda d: d["practice"].update(judgements=[judgement(loss="0")]),
        ["judgement 1: loss must be a number"],
    ),
    (
        "judgement hand a bool",
        lambda d: d["practice"].update(judgements=[judgement(hand=True)]),
        ["judgement 1: hand must be a whole number"],
    ),
    (
        "judgement of no decision",
        lambda d: d["practice"].update(judgements=[judgement(hand=9)]),
        ["judgement 1 judges pass in hand 9"],
    ),
    (
        "judgement extra",
        lambda d: d["practice"].update(judgements=[judgement(x=1)]),
        ["judgement 1: unknown field 'x'"],
    ),
    (
        "bots of another strategy",
        lambda d: d["strategies"].__setitem__(1, "random"),
        ["the other seats play 2 strategies"],
    ),
    (
        "bots of an unknown strategy",
        lambda d: d.update(strategies=["you", "nope", "nope"]),
        ["strategies:", "nope"],
    ),
    ("the person renamed", lambda d: d["strategies"].__setitem__(0, "me"), ["is the person's"]),
]


@pytest.mark.parametrize(
    "change, words", [c[1:] for c in SAVE_DAMAGE], ids=[c[0] for c in SAVE_DAMAGE]
)
def test_a_damaged_save_is_one_line_and_never_overwritten(tmp_path, save, change, words):
    r = resumed(tmp_path, damaged(save, change))
    refused(r, *words)
    assert "your call>" not in r.stdout and "your card>" not in r.stdout  # nothing played


def test_the_save_resumes_when_undamaged(tmp_path, save):
    path = tmp_path / "s.json"
    path.write_text(save)
    out = made(practice("--resume", path, "--save", path, stdin=answers()))
    assert "game over: " in out and "seat None" not in out
    done = json.loads(path.read_text())
    assert "stopped" not in done and done["forfeit"] is None
    saved = json.loads(save)
    for a, b in zip(saved["hands"][:-1], done["hands"], strict=False):
        assert a == b  # the game goes on from where it stopped, the same game
    made(run("play", "--replay", path))


def test_a_save_of_another_deal_order_is_told_so_not_called_damaged(tmp_path, save):
    """A save names how its seed was dealt (``deal_order``, docs/record.md): one written
    by a pitchsim that deals otherwise is refused naming both deal orders, and one from
    before saves named theirs whose deals the seed does not give here is told so; neither
    is "damaged" (it is another pitchsim's game, not an edited one)."""
    mine = json.loads(save)["deal_order"]  # this pitchsim's, as its own save names it
    assert isinstance(mine, int) and not isinstance(mine, bool)
    line = refused(resumed(tmp_path, damaged(save, lambda d: d.update(deal_order=mine + 1))))
    assert f"deal order {mine + 1}" in line and f"deal order {mine}:" in line, line
    assert "is damaged" not in line and "edited" not in line, line

    def older(d):  # a save from before deal_order, whose pitchsim dealt seed 7 otherwise
        d.pop("deal_order")
        d["seed"] += 1  # (what another deal order looks like from here: other deals)

    line = refused(resumed(tmp_path, damaged(save, older)), "hand 1", "seed 8")
    assert "names no deal_order" in line and f"deal order {mine})" in line, line
    assert "is damaged" not in line and "edited" not in line, line
    # ... and, the order named, the same edit is damage, as it always was
    refused(resumed(tmp_path, damaged(save, lambda d: d.update(seed=8))), "is damaged", "edited")
    # wrong types of the marker are named
    for bad in ("1", True, 0, None, 1.0):
        refused(
            resumed(tmp_path, damaged(save, lambda d, v=bad: d.update(deal_order=v))),
            "deal_order must be a whole number",
        )


def test_a_save_from_before_deal_order_whose_deals_are_the_seeds_resumes(tmp_path, save):
    # no marker, but the seed deals the same here: the same game, resumed, saved with it
    doc = json.loads(save)
    doc.pop("deal_order")
    path = tmp_path / "s.json"
    path.write_text(json.dumps(doc))
    out = made(practice("--resume", path, "--save", path, stdin="q\n"))
    assert "saved the unfinished game" in out
    again = json.loads(path.read_text())
    assert again["deal_order"] == json.loads(save)["deal_order"]
    assert again["hands"][:-1] == doc["hands"][:-1]


def test_a_record_of_another_deal_order_is_refused_by_replay_and_review(tmp_path, game):
    doc = json.loads(game)
    mine = doc["deal_order"]
    path = tmp_path / "r.json"
    path.write_text(json.dumps(dict(doc, deal_order=mine + 1)))
    for argv in (["play", "--replay", path], ["review", path, "--seat", "0"]):
        line = refused(run(*argv), f"deal order {mine + 1}", f"deal order {mine}:")
        assert "is damaged" not in line, line
    # a record from before deal_order replays from its actions, as it always did
    doc.pop("deal_order")
    path.write_text(json.dumps(doc))
    made(run("play", "--replay", path))


def test_a_preset_record_is_dealt_again_from_its_seed_and_told_apart(tmp_path):
    # play --replay asks a preset game's built-in seats again from the seed (docs/record.md,
    # "Replaying"): the deals are compared first, so a record from before deal_order whose
    # seed deals otherwise here is told so, and an edited seed is named as one (both were
    # "the strategies ... decide differently")
    text = made(run("play", "--game", "--rules", "smear,target=3", "-n", "3", "--seed", "4",
                    "-s", "heuristic", "--json"))  # fmt: skip
    doc = json.loads(text)
    assert doc["family"] == "smear" and len(doc["hands"]) >= 1
    path = tmp_path / "r.json"
    path.write_text(json.dumps(dict(doc, seed=5)))
    refused(run("play", "--replay", path), "hand 1 is not the deal seed 5 gives", "edited")
    old = dict(doc, seed=5)
    old.pop("deal_order")
    path.write_text(json.dumps(old))
    line = refused(run("play", "--replay", path), "hand 1", "names no deal_order")
    assert "decide differently" not in line and "edited" not in line, line
    old["seed"] = 4  # from before deal_order, but its seed deals the same here
    path.write_text(json.dumps(old))
    made(run("play", "--replay", path))


def test_a_judgement_with_too_few_samples_for_an_interval_resumes(tmp_path, save):
    """The coach writes an interval it could not make (fewer than 10 worlds) as null; a
    save holding one resumes, and is saved again with it, unchanged."""
    from pitchsim.table.record import views_of

    doc = json.loads(save)
    view, action = next((v, a) for v, a in views_of(doc) if v.seat == 0 and len(v.legal()) > 1)
    j = judgement(
        kind="call" if view.phase == "auction" else "card",
        unit="P(win)" if view.phase == "auction" else "points",
        chosen=action,
        best=action,
        values=dict.fromkeys(view.legal(), 0.0),
        half_widths=dict.fromkeys(view.legal()),
        error=None,
    )
    doc["practice"]["judgements"] = [j]
    path = tmp_path / "s.json"
    path.write_text(json.dumps(doc))
    out = made(practice("--resume", path, "--save", path, stdin="q\n"))
    assert "saved the unfinished game" in out
    assert json.loads(path.read_text())["practice"]["judgements"] == [j]


def test_options_that_would_change_a_resumed_game_are_refused(tmp_path, save):
    path = tmp_path / "s.json"
    path.write_text(save)
    for option in (["--opponents", "random"], ["--watch"], ["--players", "5"], ["--seed", "8"]):
        refused(practice("--resume", path, *option), "leave out", option[0])
    assert path.read_text() == save


# ------------------------------------------------------------------ --save and stdin


@pytest.mark.parametrize(
    "where, words",
    [
        (".", ["is a folder"]),
        ("/nonexistent-folder/g.json", ["/nonexistent-folder is not an existing folder"]),
        ("/proc/g.json", ["cannot write there"]),
        ("/dev/null", ["is not a regular file"]),
    ],
)
def test_save_is_checked_before_the_game(tmp_path, where, words):
    r = practice("-n", "3", "--seed", "7", "--save", where, stdin="p\n1\n", cwd=tmp_path)
    refused(r, "--save", *words)
    assert "your call>" not in r.stdout  # refused before any card was dealt


def test_a_closed_stdin_saves_an_unfinished_game_that_resumes(tmp_path):
    path = tmp_path / "c.json"
    r = subprocess.run(
        [PITCHSIM, "practice", "--no-coach", "-n", "3", "--seed", "7", "--save", str(path)],
        stdin=None,
        capture_output=True,
        text=True,
        timeout=600,
        preexec_fn=lambda: os.close(0),  # pitchsim's fd 0 closed, as `<&-` closes it
    )
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
    assert "saved the unfinished game" in r.stdout
    doc = json.loads(path.read_text())
    assert doc["stopped"] == "input ended" and doc["forfeit"] is None
    out = made(practice("--resume", path, "--save", path, stdin=answers()))
    assert "game over: " in out
    done = json.loads(path.read_text())
    assert done["winner"] is not None and "stopped" not in done
    assert (
        done["hands"][0]["actions"][: len(doc["hands"][0]["actions"])]
        == (doc["hands"][0]["actions"])
    )


# ------------------------------------------------------------------ seeds


def seed_commands() -> list[str]:
    """Every command whose help offers --seed, read from `pitchsim --help`."""
    top = made(run("--help"))
    names = []
    listing = top[top.index("Commands:") :].splitlines()[1:]
    for line in listing:
        parts = line.split()
        if parts and parts[0].replace("-", "").isalpha() and parts[0] == parts[0].lower():
            names.append(parts[0])
    return [c for c in names if "--seed" in made(run(c, "--help"))]


def test_every_command_that_takes_a_seed_refuses_one_out_of_range():
    commands = seed_commands()
    # the commands with a --seed today (a new one is checked the same way by SeedOpt)
    assert set(commands) >= {
        "advise",
        "bid-odds",
        "engine",
        "hint",
        "play",
        "practice",
        "review",
        "simulate",
        "tournament",
    }, commands
    for c in commands:
        for seed in ("-5", str(2**62), "12345678901234567890123"):
            refused(run(c, "--seed", seed, stdin=""), f"seed must be 0-{MAX_SEED}", seed)


def test_the_largest_seed_is_taken_and_review_refuses_minus_five(tmp_path, game):
    out = made(run("play", "--seed", str(MAX_SEED), "-n", "3", "--json"))
    assert json.loads(out)["seed"] == MAX_SEED
    path = tmp_path / "g.json"
    path.write_text(game)
    refused(run("review", path, "--seat", "0", "--seed", "-5"), "seed must be 0-", "-5")
    # simulate's own, lower limit (docs/limits.md) is still its own
    refused(run("simulate", "--deals", "10", "--seed", str(2**59), cwd=tmp_path), "seed must be 0-")


def test_an_unfinished_save_is_never_overwritten_by_another_game(tmp_path, save):
    """`practice` then `practice --watch` at the same --save: the second is refused
    before it deals, naming the way to continue, and the unfinished game is kept."""
    path = tmp_path / "s.json"
    path.write_text(save)
    r = practice("--watch", "-n", "3", "--seed", "9", "--save", path)
    assert r.returncode == 2 and r.stderr.count("\n") == 1, r.stderr
    assert "holds an unfinished game" in r.stderr and f"--resume {path}" in r.stderr
    assert path.read_text() == save
    # Its own --resume may write over it, and a finished game is no bar to a new one.
    out = made(practice("--resume", path, "--save", path, stdin=answers()))
    assert "game over" in out
    made(practice("--watch", "-n", "3", "--seed", "9", "--save", path))


def test_at_the_default_place_a_new_game_is_saved_beside_an_unfinished_one(tmp_path, save):
    """The issue's case: `printf 'pass\\nq\\n' | pitchsim practice --seed 5`, then
    `pitchsim practice --watch --seed 9`: the second game goes to the next free name,
    said on stderr, and the unfinished game stays as it was."""
    (tmp_path / "practice-game.json").write_text(save)
    (tmp_path / "practice-game-2.json").write_text("taken")
    r = practice("--watch", "-n", "3", "--seed", "9", cwd=tmp_path)
    made(r)
    assert "holds an unfinished game" in r.stderr and "practice-game-3.json" in r.stderr
    assert (tmp_path / "practice-game.json").read_text() == save
    assert (tmp_path / "practice-game-2.json").read_text() == "taken"
    assert json.loads((tmp_path / "practice-game-3.json").read_text())["winner"] is not None


@pytest.mark.parametrize(
    "bad, words",
    [(("-n", "1"), "players must be 2-7, not 1"), (("--seat", "9"), "seat must be 0-3, not 9")],
)
def test_a_refused_game_beside_an_unfinished_save_names_no_save_of_its_own(
    tmp_path, save, bad, words
):
    """A game refused for its own arguments is refused in one line: it never first says
    where it would have been saved beside the unfinished game."""
    (tmp_path / "practice-game.json").write_text(save)
    r = practice(*bad, "--seed", "9", cwd=tmp_path)
    refused(r, words)
    assert "unfinished" not in r.stderr, r.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["practice-game.json"]


def test_a_game_stopped_before_any_decision_of_the_person_may_be_written_over(tmp_path):
    path = tmp_path / "g.json"
    made(practice("-n", "3", "--seed", "7", "--save", path, stdin=""))
    doc = json.loads(path.read_text())
    seat = doc["practice"]["seat"]
    assert doc["stopped"] and not [
        a for h in doc["hands"] for a in h["actions"] if a["seat"] == seat
    ]
    made(practice("--watch", "-n", "3", "--seed", "9", "--save", path))
    assert json.loads(path.read_text())["winner"] is not None
