"""The one JSON reader and writer at pitchsim's edge (util/jsonio.py), held to
docs/limits.md ("JSON input"): a regular file or stdin only, at most 32 MB read in
pieces, 32 levels, integers of at most 100 digits, no NaN/Infinity, no key twice, not
UTF-8 or not JSON in one line naming the place; and every JSON written refuses a
non-finite number, naming where it is.  No kernel is run: these take milliseconds."""

import io
import json
import os
import sys
import types

import pytest

from pitchsim.util.errors import InputError
from pitchsim.util.jsonio import dumps_json, parse_json, read_json, read_text


def refusal(fn, *args, **kw) -> str:
    with pytest.raises(InputError) as e:
        fn(*args, **kw)
    line = str(e.value)
    assert "\n" not in line
    return line


def nested(depth: int, leaf="1") -> str:
    """``depth`` levels of lists and objects, alternating, around ``leaf``."""
    text = leaf
    for d in range(depth):
        text = f"[{text}]" if d % 2 else f'{{"k": {text}}}'
    return text


# ---- reading a file ---------------------------------------------------------------------


@pytest.fixture
def here(tmp_path, monkeypatch):
    """Files named short, as a user names them: relative to the working folder."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_a_regular_file_is_read_and_named_in_its_errors(here):
    (here / "pos.json").write_text('{"bid": 2, "hand": ["AS", "KS"]}')
    assert read_json("pos.json", "the position") == {"bid": 2, "hand": ["AS", "KS"]}
    (here / "pos.json").write_text('{"bid": }')
    assert refusal(read_json, "pos.json", "the position") == (
        "the position 'pos.json' is not JSON: Expecting value (line 1, column 9)"
    )


def test_a_long_path_is_named_by_its_end(tmp_path):
    deep = tmp_path / ("d" * 80)
    deep.mkdir()
    f = deep / "last.json"
    f.write_text("[")
    line = refusal(read_json, str(f), "the view")
    # quoted(tail=True): the last 55 characters, the file name's end says most
    assert line.startswith(f"the view ...{str(f)[-55:]!r} is not JSON: ")


def test_what_is_not_a_regular_file_is_refused_at_once(here):
    os.mkfifo("pipe")  # no writer: reading it would wait forever
    hint = "not a regular file (to pipe it in, give - and use stdin)"
    assert refusal(read_json, "pipe", "the view") == (
        f"cannot read the view 'pipe': it is a FIFO (pipe), {hint}"
    )
    (here / "views").mkdir()
    assert refusal(read_json, "views", "the view") == (
        f"cannot read the view 'views': it is a directory, {hint}"
    )
    assert refusal(read_text, "/dev/null", "the save") == (
        f"cannot read the save '/dev/null': it is a device or other non-file, {hint}"
    )


def test_a_file_that_cannot_be_opened_is_one_line_with_the_reason(here):
    assert refusal(read_json, "gone.json", "the record") == (
        "cannot read the record 'gone.json': No such file or directory"
    )
    assert refusal(read_json, "a\0b", "the record") == (
        "cannot read the record 'a\\x00b': embedded null byte"
    )


def test_the_size_cap_reads_the_limit_and_refuses_one_byte_more(here):
    limit = 2 << 20  # many 64 KiB pieces
    body = "[" + " " * (limit - 2) + "]"
    (here / "big.json").write_text(body)
    assert read_text("big.json", "the log", limit=limit) == body
    (here / "big.json").write_text(body + " ")
    assert refusal(read_text, "big.json", "the log", limit=limit) == (
        "the log 'big.json' is over 2 MB: refused unread (docs/limits.md)"
    )


def test_the_default_cap_is_32_mb(here):
    with open("huge.json", "wb") as out:  # sparse: 32 MB + 1 of zeros, nothing written
        out.truncate((32 << 20) + 1)
    assert refusal(read_json, "huge.json", "the position") == (
        "the position 'huge.json' is over 32 MB: refused unread (docs/limits.md)"
    )


def test_utf8_with_or_without_a_bom_and_nothing_else(here):
    (here / "v.json").write_bytes(b'\xef\xbb\xbf{"who": "Zo\xc3\xab"}')
    assert read_json("v.json", "the view") == {"who": "Zoë"}
    (here / "v.json").write_bytes(b'{"w\xe9": 1}')  # Latin-1: byte 3 is not UTF-8
    assert (
        refusal(read_json, "v.json", "the view") == "the view 'v.json' is not UTF-8 text (byte 3)"
    )


# ---- reading stdin ----------------------------------------------------------------------


class Endless:
    """The bytes under a stdin that never ends (``yes |``): counts what was taken."""

    def __init__(self):
        self.given = 0

    def read(self, n):
        self.given += n
        return b" " * n


def test_stdin_is_read_as_dash(monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"[1, 2]\n")))
    assert read_json("-", "the view") == [1, 2]
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"[1,")))
    assert refusal(read_json, "-", "the view").startswith("the view on stdin is not JSON: ")
    monkeypatch.setattr(sys, "stdin", io.StringIO('{"a": 1}'))  # no buffer: read as text
    assert read_json("-", "the view") == {"a": 1}


@pytest.mark.parametrize("limit", [1 << 20, 1_100_000, 10])
def test_an_endless_stdin_is_refused_reading_at_most_one_byte_past_the_limit(monkeypatch, limit):
    endless = Endless()
    monkeypatch.setattr(sys, "stdin", types.SimpleNamespace(buffer=endless, closed=False))
    assert refusal(read_text, "-", "the save", limit=limit) == (
        f"the save on stdin is over {limit >> 20} MB: refused unread (docs/limits.md)"
    )
    assert endless.given == limit + 1  # the one byte that says it is over


def test_stdin_bytes_are_utf8_with_or_without_a_bom(monkeypatch):
    """stdin is read as bytes (its buffer) and decoded as a file is, whatever the
    locale's text encoding."""
    stdin = io.TextIOWrapper(io.BytesIO(b'\xef\xbb\xbf["Zo\xc3\xab"]'), encoding="latin-1")
    monkeypatch.setattr(sys, "stdin", stdin)
    assert read_json("-", "the view") == ["Zoë"]
    stdin = io.TextIOWrapper(io.BytesIO(b'["w\xe9"]'), encoding="latin-1")
    monkeypatch.setattr(sys, "stdin", stdin)
    assert refusal(read_json, "-", "the view") == "the view on stdin is not UTF-8 text (byte 3)"


def test_a_long_text_stdin_without_bytes_is_read_whole(monkeypatch):
    doc = ["x" * 100] * 2_000  # over 200 KB: several pieces
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(doc)))
    assert read_json("-", "the view") == doc


def open_fds() -> set[str]:
    return set(os.listdir("/proc/self/fd"))


def test_no_file_is_left_open_read_or_refused(here):
    (here / "v.json").write_text("[1]")
    (here / "views").mkdir()
    before = open_fds()
    for _ in range(3):
        assert read_json("v.json", "the view") == [1]
        refusal(read_json, "views", "the view")
    assert open_fds() == before


def test_with_fd_0_closed_a_refused_file_is_closed_too(here):
    """A program started with stdin closed (``<&-``): the file opened is fd 0."""
    (here / "views").mkdir()
    saved = os.dup(0)
    try:
        os.close(0)
        refusal(read_json, "views", "the view")
        with pytest.raises(OSError):
            os.fstat(0)  # closed again: not held by the refusal
    finally:
        os.dup2(saved, 0)
        os.close(saved)


def test_a_file_that_fails_while_read_is_one_line():
    # a regular file to stat, but reading its first byte fails (nothing mapped at 0)
    assert refusal(read_text, "/proc/self/mem", "the save") == (
        "cannot read the save '/proc/self/mem': Input/output error"
    )


def test_a_closed_or_failing_stdin_is_one_line(monkeypatch):
    monkeypatch.setattr(sys, "stdin", None)
    assert refusal(read_json, "-", "the save") == (
        "cannot read the save from stdin: stdin is closed"
    )
    closed = io.TextIOWrapper(io.BytesIO(b"[]"))
    closed.close()
    monkeypatch.setattr(sys, "stdin", closed)
    assert refusal(read_json, "-", "the save") == (
        "cannot read the save from stdin: stdin is closed"
    )

    class Broken(io.RawIOBase):
        def readable(self):
            return True

        def readinto(self, b):
            raise OSError(9, "Bad file descriptor")

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BufferedReader(Broken())))
    assert refusal(read_json, "-", "the save") == (
        "cannot read the save from stdin: Bad file descriptor"
    )

    class Captured(io.StringIO):  # pytest's capture: reading it is a ValueError
        def read(self, n=-1):
            raise ValueError("reading from stdin while output is captured!\n  Consider ...")

    monkeypatch.setattr(sys, "stdin", Captured())
    assert refusal(read_json, "-", "the save") == (
        "cannot read the save from stdin: reading from stdin while output is captured!"
    )


# ---- decoding ---------------------------------------------------------------------------


def test_integers_of_up_to_100_digits():
    assert parse_json("9" * 100, "it") == int("9" * 100)
    assert parse_json("-" + "9" * 100, "it") == -int("9" * 100)
    line = refusal(parse_json, "[" + "1" * 101 + "]", "the view")
    assert line == (
        f"the view: a number of 101 digits (at most 100 are read): {'1' * 55!r}... (101 characters)"
    )


def test_no_nan_no_infinity_no_overflowing_float():
    assert parse_json("[1.5, -2e3]", "it") == [1.5, -2000.0]
    for word in ("NaN", "Infinity", "-Infinity"):
        assert refusal(parse_json, f"[{word}]", "the view") == (
            f"the view: {word} is not a JSON number"
        )
    assert refusal(parse_json, "[1e999]", "the view") == "the view: the number '1e999' is too large"
    assert refusal(parse_json, "[-1e999]", "the view") == (
        "the view: the number '-1e999' is too large"
    )


def test_a_key_given_twice_is_refused_at_any_depth():
    assert parse_json('{"a": 1, "b": {"a": 2}}', "it") == {"a": 1, "b": {"a": 2}}
    assert refusal(parse_json, '{"a": 1, "b": 2, "a": 3}', "the record") == (
        "the record: the key 'a' is given twice in one object"
    )
    assert refusal(parse_json, '[{"x": {"b": 1, "c": 2, "c": 2}}]', "the record") == (
        "the record: the key 'c' is given twice in one object"
    )


def test_32_levels_and_not_33():
    too_deep = "the view is nested too deeply (at most 32 levels)"
    assert parse_json(nested(32), "the view") is not None
    assert refusal(parse_json, nested(33), "the view") == too_deep
    assert refusal(parse_json, nested(33, leaf="[]"), "the view") == too_deep
    # a deep branch after shallow ones, in an object's values and a list's items
    assert refusal(parse_json, '{"a": 1, "b": [2, ' + nested(32) + "]}", "the view") == too_deep
    assert parse_json('[1, {"b": ' + nested(30) + "}]", "the view") is not None
    # deeper than Python's recursion: the same line
    assert refusal(parse_json, "[" * 100_000 + "]" * 100_000, "the view") == too_deep


def test_not_json_names_line_and_column():
    assert refusal(parse_json, '{\n  "a": 1,\n  "b" 2\n}', "request") == (
        "request is not JSON: Expecting ':' delimiter (line 3, column 7)"
    )


# ---- writing ----------------------------------------------------------------------------


def test_dumps_is_json_with_its_options():
    doc = {"b": [1, 2.5], "a": None}
    assert dumps_json(doc) == json.dumps(doc, indent=2)
    assert dumps_json(doc, indent=None, separators=(",", ":"), sort_keys=True) == (
        '{"a":null,"b":[1,2.5]}'
    )
    assert dumps_json(doc, indent=None) == '{"b": [1, 2.5], "a": null}'


@pytest.mark.parametrize(
    "doc, where",
    [
        (float("nan"), "$ (nan)"),
        ({"a": 1.0, "b": [0.5, float("inf")]}, "$.b[1] (inf)"),
        ([{"x": 0.0}, (1.0, {"y": -float("inf")})], "$[1][1].y (-inf)"),
    ],
)
def test_a_non_finite_number_is_never_written(doc, where):
    with pytest.raises(ValueError) as e:
        dumps_json(doc)
    assert str(e.value) == f"a non-finite number at {where} of a JSON output: a bug"
