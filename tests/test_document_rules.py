"""One rule for documents (docs/limits.md, "JSON input"): a view, a position, a record,
a saved game or an engine request names its rules as a rule string or an object, never
a file.  A document may come from another program, so naming a TOML file in its
``"rules"`` must never make pitchsim open it; only the command line's ``--rules`` reads
TOML files.

Every kind of document is fed with ``"rules"`` naming an existing TOML file (by its
absolute path, by a relative ``.toml`` name, and by a bare name that is a file in the
working directory), with the TOML reader replaced by one that records the call and
fails: each must be refused (one line, exit 2; an ``error`` reply in the engine) and
the reader never called.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from clirun import refused

from pitchsim.cli import main
from pitchsim.game import rules as rules_module
from pitchsim.game.rules import Rules, RulesError, document_rule_values, document_rules
from pitchsim.table.engine import Engine

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"


@pytest.fixture
def reads(monkeypatch, tmp_path):
    """The TOML reader replaced: every call is recorded, then fails loudly (a path that
    reaches it with a document's rules fails the test even if the error is swallowed)."""
    calls = []
    real = rules_module._read_toml

    def refuse(path):
        calls.append(str(path))
        raise AssertionError(f"a document made pitchsim read the rules file {path}")

    monkeypatch.setattr(rules_module, "_read_toml", refuse)
    (tmp_path / "house.toml").write_text('low = "dealt"\n')
    (tmp_path / "house").write_text('low = "dealt"\n')
    (tmp_path / "family.toml").write_text('family = "smear"\n')
    monkeypatch.chdir(tmp_path)
    assert real(tmp_path / "house.toml") == {"low": "dealt"}  # the files are good TOML
    return calls


def specs(tmp_path: Path, name: str = "house") -> list[tuple[str, str]]:
    """The ways a document may name an existing rules file, and the words its refusal
    must carry."""
    return [
        (str(tmp_path / f"{name}.toml"), "never a file"),
        (f"{name}.toml", "never a file"),
        (f"./{name}.toml", "never a file"),
        ("house", "unknown rule family 'house'"),  # a bare name: a file here, never opened
    ]


def example(path: str) -> dict:
    return json.loads((EXAMPLES / path).read_text())


def write(tmp_path: Path, name: str, doc: dict) -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(doc))
    return path


def a_saved_practice_game() -> dict:
    """A practice game stopped after one answer, saved as ``practice --save`` saves it."""
    from pitchsim.coach.practice import practice

    answers = iter(["p"])

    def read(prompt):
        try:
            return next(answers)
        except StopIteration:
            raise EOFError from None

    record, _ = practice(
        3, 1, "odds+heuristic", Rules.parse(None), 21, coach=False, read=read, write=lambda s: None
    )
    assert record["stopped"] and "practice" in record
    return json.loads(json.dumps(record))


def test_a_request_to_the_engine_never_opens_a_rules_file(reads, tmp_path):
    view = example("views/lead.json")
    for spec, words in specs(tmp_path):
        line = json.dumps({"type": "decide", "id": 1, "view": dict(view, rules=spec)})
        reply = json.loads(Engine().handle(line))
        assert (reply["type"], reply["id"], reply["code"]) == ("error", 1, "bad-view"), reply
        assert words in reply["message"]
    assert reads == []


@pytest.mark.parametrize(
    "kind",
    [
        "hint view",
        "hint family view",
        "advise view",
        "play --replay record",
        "review record",
        "solve position",
        "hint position",
        "practice --resume save",
    ],
)
def test_a_document_on_the_command_line_never_opens_a_rules_file(kind, reads, tmp_path, capsys):
    doc, argv = {
        "hint view": (example("views/lead.json"), ["hint", "{}"]),
        "hint family view": (example("family_views/smear.json"), ["hint", "{}"]),
        "advise view": (example("views/call.json"), ["advise", "{}"]),
        "play --replay record": (example("records/game.json"), ["play", "--replay", "{}"]),
        "review record": (example("records/game.json"), ["review", "{}", "--seat", "0"]),
        "solve position": (example("endgame.json"), ["solve", "{}"]),
        "hint position": (example("endgame.json"), ["hint", "{}"]),
        "practice --resume save": (
            a_saved_practice_game() if kind.startswith("practice") else None,
            ["practice", "--resume", "{}"],
        ),
    }[kind]
    name = "family" if "family" in kind else "house"
    for i, (spec, words) in enumerate(specs(tmp_path, name)):
        path = write(tmp_path, f"doc{i}.json", dict(doc, rules=spec))
        refused_argv([str(path) if a == "{}" else a for a in argv], words)
    assert reads == []


def test_the_library_readers_of_documents_never_open_a_rules_file(reads, tmp_path):
    from pitchsim.game.view import View, ViewError
    from pitchsim.search.position import PositionError, parse_position
    from pitchsim.table.record import RecordError, replay

    readers = [
        (View.from_json, example("views/lead.json"), ViewError, "house"),
        (View.from_json, example("family_views/smear.json"), ViewError, "family"),
        (replay, example("records/game.json"), RecordError, "house"),
        (parse_position, example("endgame.json"), PositionError, "house"),
    ]
    for read, doc, error, name in readers:
        for spec, words in specs(tmp_path, name):
            with pytest.raises(error, match=words):
                read(dict(doc, rules=spec))
    assert reads == []


def test_the_command_lines_rules_file_is_still_read(reads, tmp_path, capsys):
    # The reader the documents never reach is the one --rules FILE uses: the test
    # above is not passing because it patched something unused.
    with pytest.raises(AssertionError, match="read the rules file"):
        main(["rules", "--rules", str(tmp_path / "house.toml")])
    assert reads == [str(tmp_path / "house.toml")]


def test_the_command_lines_rules_file_is_read_for_real(tmp_path, capsys):
    toml = tmp_path / "house.toml"
    toml.write_text('low = "dealt"\ntarget = 11\n')
    with pytest.raises(SystemExit) as e:
        main(["rules", "--rules", str(toml), "--json"])
    out, err = capsys.readouterr()
    assert e.value.code == 0, err
    assert json.loads(out)["rules"] | {"low": "dealt", "target": 11} == json.loads(out)["rules"]


@pytest.mark.parametrize(
    "text, words",
    [
        ('rules = "other.toml"\n', "rules is a [rules] table of options, not 'other.toml'"),
        ("rules = 5\n", "rules is a [rules] table of options, not '5'"),
        ('target = 9\n[rules]\nlow = "dealt"\n', "at the top level or all of them under one"),
    ],
)
def test_a_rules_file_whose_rules_is_not_the_one_table_says_so(tmp_path, capsys, text, words):
    """``rules = "other.toml"`` is refused as what it is (it was told "not both": there
    was only the one key), and never read as another file's name."""
    toml = tmp_path / "house.toml"
    toml.write_text(text)
    with pytest.raises(SystemExit) as e:
        main(["rules", "--rules", str(toml)])
    _, err = capsys.readouterr()
    assert e.value.code == 2 and err.count("\n") == 1 and words in err, err


@pytest.mark.parametrize(
    "spec, words",
    [
        ("house.toml", "'house.toml' names a file"),
        ("HOUSE.TOML", "names a file"),
        (" rules/house ", "'rules/house' names a file"),
        ("C:\\rules\\house", "names a file"),
        (7, "give a rule string"),
        (["low=dealt"], "give a rule string"),
        (None, "give a rule string"),
        (True, "give a rule string"),
        ("house", "unknown rule family 'house'"),
    ],
)
def test_the_document_reader_refuses_anything_but_options(spec, words, reads):
    with pytest.raises(RulesError, match=words.replace("\\", "\\\\")):
        document_rules(spec)
    assert reads == []


def test_the_document_reader_reads_rule_strings_and_objects():
    # Written out independently of the reader: the base rules with two options changed.
    want = Rules(low="dealt", min_bid=1, follow="suit")
    assert document_rules("low=dealt,follow=suit") == want
    assert document_rules({"low": "dealt", "follow": "suit"}) == want
    assert document_rules({}) == Rules()
    assert document_rule_values("min-bid=2,target=11") == {"min_bid": 2, "target": 11}
    assert document_rules("smear").family == "smear"
    # A value that merely contains a slash or ends in .toml is an option's, not a file.
    with pytest.raises(RulesError, match="low"):
        document_rules("low=a/b.toml")


def refused_argv(argv: list[str], words: str) -> None:
    refused(*argv, words=words)
