"""pitchsim engine (docs/protocol.md): each error reply's whole message and id, the
replies around the decisions (hello, ready, quit, blank lines, bytes), the engine's own
defaults and how a request's options override them, and serve()'s reading of lines --
the protocol behaviour test_engine.py checks only by code (issue 22's mutation run:
the survivors of table/engine.py were these).  Decisions use random+random or
heuristic play at most, so no search runs."""

import io
import json
from pathlib import Path

import pytest

from pitchsim.game.view import read_view
from pitchsim.table.engine import Engine, serve
from pitchsim.util.errors import InputError

ROOT = Path(__file__).resolve().parent.parent
LEAD = read_view(str(ROOT / "examples" / "views" / "lead.json")).to_json()  # seat 1 leads
MAX_SEED = (1 << 62) - 1  # docs/protocol.md's hello: 4611686018427387903


def reply(line, engine=None):
    text = (engine or Engine()).handle(line)
    return None if text is None else json.loads(text)


def decide(view=None, rid=1, **options):
    msg = {"type": "decide", "id": rid, "view": LEAD if view is None else view}
    if options:
        msg["options"] = options
    return json.dumps(msg)


@pytest.mark.parametrize(
    "line, rid, code, message",
    [
        ("[]", None, "bad-json", "a request is one JSON object with a type"),
        ('{"type": "decide", "id": 1}', 1, "bad-request", "a decide request needs a view"),
        (
            '{"type": "decide", "id": 1, "view": 3}',
            1,
            "bad-view",
            "a view is a JSON object with players, seat, dealer, hand and calls",
        ),
        (
            decide(seed=-1),
            1,
            "bad-option",
            f"seed must be a whole number 0-{MAX_SEED}, not -1",
        ),
        (decide(seed=True), 1, "bad-option", f"seed must be a whole number 0-{MAX_SEED}, not True"),
        (
            decide(seed=MAX_SEED + 1),
            1,
            "bad-option",
            f"seed must be a whole number 0-{MAX_SEED}, not {MAX_SEED + 1}",
        ),
        (decide(values="yes"), 1, "bad-option", "values must be true or false, not 'yes'"),
        (
            decide(strategy=3),
            1,
            "unknown-strategy",
            "strategy must be a name like odds+heuristic, not 3",
        ),
        (
            '{"type": "hello", "id": "h", "protocol": "pitch-engine/9"}',
            "h",
            "bad-protocol",
            "this engine speaks pitch-engine/1, not 'pitch-engine/9'",
        ),
        (decide(worlds=0), 1, "bad-option", "worlds must be a whole number 1-4,096, not 0"),
        (decide(worlds=4097), 1, "bad-option", "worlds must be a whole number 1-4,096, not 4097"),
        (
            decide(samples=True),
            1,
            "bad-option",
            "samples must be a whole number 1-100,000, not True",
        ),
        (
            decide(samples=100_001),
            1,
            "bad-option",
            "samples must be a whole number 1-100,000, not 100001",
        ),
        (decide(samples=1.0), 1, "bad-option", "samples must be a whole number 1-100,000, not 1.0"),
        (
            decide(strategy="odds+heuristic", worlds=8),
            1,
            "unknown-strategy",
            "worlds: the play policy 'heuristic' of odds+heuristic does not search",
        ),
        (
            '{"type": "decide", "id": [1], "view": {}}',
            None,
            "bad-request",
            "id must be a string, a number or null, not [1]",
        ),
        (
            '{"type": "decide", "id": {"a": 1}, "view": {}}',
            None,
            "bad-request",
            'id must be a string, a number or null, not {"a": 1}',
        ),
        (
            '{"id": 4}',
            4,
            "unknown-type",
            "unknown request type null (known: hello, ready, decide, quit)",
        ),
        (
            json.dumps({"type": "x" * 60, "id": "t"}),
            "t",
            "unknown-type",
            f'unknown request type "{"x" * 39} (known: hello, ready, decide, quit)',
        ),
        (
            json.dumps({"type": "decide", "id": 2, "view": LEAD, "options": [1]}),
            2,
            "bad-option",
            "options must be an object, not [1]",
        ),
        ("x" * ((1 << 20) + 1), None, "bad-json", "the line is over 1,048,576 bytes"),
    ],
)
def test_error_reply_whole(line, rid, code, message):
    assert reply(line) == {"type": "error", "id": rid, "code": code, "message": message}


def test_a_line_of_exactly_the_limit_is_read():
    line = '{"type": "ready", "id": 9}'
    line += " " * ((1 << 20) - len(line))
    assert reply(line) == {"type": "readyok", "id": 9}


def test_no_decision_for_a_hand_over_or_thrown_in():
    over = dict(LEAD)
    over["calls"] = ["pass"] * 4
    over["rules"] = LEAD["rules"].replace("all-pass=forced", "all-pass=redeal")
    over.update(pitcher=None, bid=None, legal=None)
    assert reply(decide(over)) == {
        "type": "error",
        "id": 1,
        "code": "not-to-act",
        "message": "seat 1 has no decision here: everybody passed: the hand is thrown in",
    }
    rows = [
        ["AH", "3H", "4H", "5H"],
        ["KH", "6H", "7H", "8H"],
        ["2H", "9H", "TH", "JH"],
        ["2C", "9C", "3C", "4C"],
        ["7D", "8D", "9D", "TD"],
        ["2S", "3S", "4S", "5S"],
    ]
    done = dict(LEAD, legal=None)
    done["tricks"] = [
        {"leader": leader, "cards": cards}
        for leader, cards in zip([1, 1, 1, 0, 1, 0], rows, strict=True)
    ]
    assert reply(decide(done))["message"] == "seat 1 has no decision here: the hand is over"


def test_replies_around_the_decisions():
    e = Engine()
    hello = reply('{"type": "hello"}', e)  # no protocol given: this one; no id: none back
    assert hello["type"] == "hello" and hello["protocol"] == "pitch-engine/1" and "id" not in hello
    assert hello["name"] == "pitchsim" and isinstance(hello["version"], str)
    assert reply('{"type": "hello", "id": 0}', e)["id"] == 0
    assert reply('{"type": "ready"}', e) == {"type": "readyok"}
    assert reply('{"type": "ready", "id": "r"}', e) == {"type": "readyok", "id": "r"}
    assert reply(b'{"type": "ready", "id": 3}\r\n', e) == {"type": "readyok", "id": 3}
    assert e.handle("") is None and e.handle("   \r\n") is None and e.handle(b"\n") is None
    assert not e.done
    assert e.handle('{"type": "quit"}') is None and e.done
    # One line, ", " and ": " between items: the transcript's form.
    assert Engine().handle('{"type": "ready", "id": 1}') == '{"type": "readyok", "id": 1}'


def test_the_engines_defaults_are_its_hello_and_its_answers():
    e = Engine("random+random", seed=5, values=False, samples=7)
    opts = {o["name"]: o for o in reply('{"type": "hello"}', e)["options"]}
    assert [o for o in opts] == ["strategy", "seed", "values", "worlds", "samples", "time"]
    assert opts["strategy"]["default"] == "random+random" and opts["strategy"]["type"] == "string"
    assert opts["seed"] == {"name": "seed", "type": "int", "default": 5, "min": 0, "max": MAX_SEED}
    assert opts["values"]["default"] is False and opts["values"]["type"] == "bool"
    assert (opts["worlds"]["default"], opts["worlds"]["min"], opts["worlds"]["max"]) == (
        None,
        1,
        4096,
    )
    assert (opts["samples"]["default"], opts["samples"]["min"], opts["samples"]["max"]) == (
        7,
        1,
        100_000,
    )
    # time: a search decision's clock in seconds, none by default (issue 19)
    assert (opts["time"]["default"], opts["time"]["type"], opts["time"]["min"]) == (
        None,
        "number",
        0,
    )
    d = Engine().hello()["options"]
    assert [o["default"] for o in d] == ["odds+rollout", 0, True, None, 32, None]
    # A request without options is answered as one naming the engine's defaults.
    plain = reply(decide(rid=2), e)
    assert plain == reply(decide(rid=2, strategy="random+random", seed=5), Engine())
    assert plain["type"] == "action" and plain["id"] == 2 and plain["action"] in LEAD["legal"]
    # A seed of its own, or null options, changes nothing else.
    assert reply(decide(rid=2, seed=6), e) == reply(decide(rid=2, seed=6, strategy="random+random"))
    assert reply(json.dumps({"type": "decide", "id": 2, "view": LEAD, "options": None}), e) == plain


@pytest.mark.parametrize(
    "kwargs, words",
    [
        ({"seed": -1}, "seed must be a whole number"),
        ({"seed": 1.5}, "seed must be a whole number"),
        ({"samples": 0}, "samples must be a whole number 1-100,000"),
        ({"strategy": 7}, "strategy must be a name"),
        ({"strategy": "heuristic+heuristic", "worlds": 4}, "does not search"),
        # --worlds 0 is the worlds' fault, as in a request, not an "unknown play policy"
        ({"worlds": 0}, "worlds must be a whole number 1-4,096, not 0"),
        ({"strategy": "odds+pimc:0"}, "worlds in 'pimc:0' must be 1-4096, not 0"),
    ],
)
def test_an_engine_with_bad_defaults_is_refused(kwargs, words):
    with pytest.raises(InputError) as e:
        Engine(**kwargs)
    assert words in str(e.value)


def test_worlds_replace_the_search_policys_own():
    view = dict(LEAD)
    a = reply(decide(view, strategy="heuristic+rollout:16", worlds=3, seed=4))
    b = reply(decide(view, strategy="heuristic+rollout:3", seed=4))
    assert a == b and set(a["values"]) == set(LEAD["legal"])
    assert "values" not in reply(decide(view, strategy="heuristic+rollout:3", seed=4, values=False))
    assert Engine("heuristic+rollout", worlds=3).strategy == "heuristic+rollout:3"


def test_a_bug_is_answered_not_raised(monkeypatch):
    def broken(self, msg, rid):
        raise ValueError("boom")

    monkeypatch.setattr(Engine, "decide", broken)
    assert reply(decide(rid="b")) == {
        "type": "error",
        "id": "b",
        "code": "internal",
        "message": "ValueError: boom",
    }


def test_serve_answers_line_by_line_and_skips_an_over_long_line():
    long = b'{"type": "ready", "id": 1' + b" " * (1 << 20) + b"}\n"
    lines = [b'{"type": "ready", "id": 0}\n', long, b"\n", b'{"type": "ready", "id": 2}\n']
    out = io.StringIO()
    e = Engine()
    serve(e, io.BytesIO(b"".join([*lines, b'{"type": "quit"}\n', b'{"type": "ready"}\n'])), out)
    got = [json.loads(x) for x in out.getvalue().splitlines()]
    assert got[0] == {"type": "readyok", "id": 0}
    assert got[1]["code"] == "bad-json" and got[1]["id"] is None
    assert got[1]["message"] == "the line is over 1,048,576 bytes"
    assert got[2] == {"type": "readyok", "id": 2}
    assert len(got) == 3 and e.done  # nothing answered after quit
    out = io.StringIO()
    serve(Engine(), io.BytesIO(b'{"type": "ready"}'), out)  # no newline at the end: answered
    assert out.getvalue() == '{"type": "readyok"}\n'


def test_hello_says_unknown_when_pitchsim_is_not_installed(monkeypatch):
    import importlib.metadata

    def missing(name):
        raise importlib.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(importlib.metadata, "version", missing)
    assert Engine().hello()["version"] == "unknown"


def test_serve_skips_all_of_a_line_several_limits_long():
    # Three times the limit: the rest of it is skipped in pieces, never read as lines.
    long = b'{"type": "ready", "id": 1' + b" " * (3 << 20) + b"}\n"
    out = io.StringIO()
    serve(Engine(), io.BytesIO(long + b'{"type": "ready", "id": 2}\n'), out)
    got = [json.loads(x) for x in out.getvalue().splitlines()]
    assert [r.get("code") for r in got] == ["bad-json", None] and got[1]["id"] == 2


def test_only_the_line_end_is_taken_off_a_line():
    assert reply('{"type": "ready"}X\r\n')["code"] == "bad-json"
    assert reply(b'{"type": "ready"}X\r\n')["code"] == "bad-json"


def test_a_dealers_steal_is_said_beside_the_call():
    """docs/protocol.md "Steals": a call reply carries ``"steal": true`` exactly when it
    is the dealer's bid at the high bid's own number (RULES "steal"): under
    auction-pitch's dealer-steal=true any bid (2.4), under setback's dealer-steal=max
    only a 4; the call itself is written as ever ("2"), and no other reply has it."""
    hand = ["AH", "KH", "QH", "JH", "TH", "9H"]
    tables = [  # (rules, scores, the calls before the dealer's, a steal is legal)
        ("auction-pitch", [0, 0, 0, 0], ["pass", "2", "pass"], True),
        ("auction-pitch", [0, 0, 0, 0], ["1", "3", "pass"], True),
        ("setback", [0, 0], ["pass", "4", "pass"], True),
        ("setback", [0, 0], ["pass", "3", "pass"], False),  # 2.4: the dealer must outbid a 3
    ]
    for rules, scores, calls, legal in tables:
        high = max(int(c) for c in calls if c != "pass")
        for seat in (3, 2):  # the dealer to call, and a seat that is not the dealer
            view = {"rules": rules, "players": 4, "seat": seat, "dealer": 3, "hand": hand}
            view |= {"calls": calls[:seat], "scores": scores}
            stolen = []
            for seed in range(12):
                got = reply(decide(view, strategy="random+random", seed=seed))
                assert got["type"] == "action", got
                stole = seat == 3 and got["action"] == str(high)
                assert got.get("steal", False) is stole, (rules, calls, seat, got)
                assert "steal" not in got or got["steal"] is True
                stolen.append(stole)
            assert any(stolen) is (legal and seat == 3), (rules, calls, seat)
            assert not all(stolen)
    assert "steal" not in reply(decide(strategy="random+random"))  # a card: never
