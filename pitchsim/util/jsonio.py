"""The one reader and writer of JSON that crosses pitchsim's edge (docs/limits.md).

Reading: :func:`read_json` takes a path or ``-`` (stdin) and streams it with a size
cap, so an endless file (``/dev/zero``) is never read whole; FIFOs, devices and
directories are refused at once (a FIFO with no writer would wait forever), and a
closed stdin is one line.  :func:`parse_json` decodes text with a depth limit, an
integer-length limit (``int()`` of thousands of digits is slow and useless), no
NaN/Infinity, no duplicate keys (the second would silently win), and turns every
problem into one :class:`~pitchsim.util.errors.InputError` line.

Writing: :func:`dumps_json` is where every JSON document pitchsim prints or writes is
made, and it refuses NaN and +-Infinity (not JSON): a non-finite number there is a bug
at its source, named by its place in the document.
"""

from __future__ import annotations

import json
import math
import os
import stat
import sys

from .errors import InputError, quoted
from .limits import MAX_JSON_BYTES, MAX_JSON_DEPTH, MAX_JSON_DIGITS

_CHUNK = 1 << 16


class _Refused(Exception):
    """Raised inside the decoder's hooks; carries the one-line reason."""


def read_json(source: str, what: str) -> object:
    """The decoded JSON of file ``source`` (``-``: stdin); ``what`` names it in errors
    (``"the position"``)."""
    return parse_json(read_text(source, what), f"{what} {_name(source)}")


def _name(source: str) -> str:
    return "on stdin" if source == "-" else quoted(source, tail=True)


def read_text(source: str, what: str, limit: int = MAX_JSON_BYTES) -> str:
    """The UTF-8 text of file ``source`` (``-``: stdin), at most ``limit`` bytes."""
    where = _name(source)
    if source == "-":
        stream = sys.stdin
        if stream is None or stream.closed:
            raise InputError(f"cannot read {what} from stdin: stdin is closed")
        try:
            raw = _read_capped(getattr(stream, "buffer", stream), limit, what, where)
        except (OSError, ValueError) as e:  # fd 0 closed, or captured (pytest)
            if isinstance(e, InputError):
                raise
            raise InputError(f"cannot read {what} from stdin: {_reason(e)}") from None
    else:
        try:
            fd = os.open(source, os.O_RDONLY | os.O_NONBLOCK)  # never waits on a FIFO
        except (OSError, ValueError) as e:  # ValueError: a NUL in the path
            raise InputError(f"cannot read {what} {where}: {_reason(e)}") from None
        try:
            mode = os.fstat(fd).st_mode
            if not stat.S_ISREG(mode):
                kind = (
                    "a directory"
                    if stat.S_ISDIR(mode)
                    else "a FIFO (pipe)"
                    if stat.S_ISFIFO(mode)
                    else "a device or other non-file"
                )
                raise InputError(
                    f"cannot read {what} {where}: it is {kind}, not a regular file "
                    "(to pipe it in, give - and use stdin)"
                )
            os.set_blocking(fd, True)
            with os.fdopen(fd, "rb", closefd=True) as f:
                fd = -1
                raw = _read_capped(f, limit, what, where)
        except OSError as e:
            raise InputError(f"cannot read {what} {where}: {_reason(e)}") from None
        finally:
            if fd >= 0:
                os.close(fd)
    if isinstance(raw, str):  # a text stream without a buffer (a test's StringIO)
        return raw
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise InputError(f"{what} {where} is not UTF-8 text (byte {e.start:,})") from None


def _read_capped(f, limit: int, what: str, where: str):
    parts, size = [], 0
    while True:
        chunk = f.read(min(_CHUNK, limit + 1 - size))
        if not chunk:
            break
        parts.append(chunk)
        size += len(chunk)
        if size > limit:
            raise InputError(
                f"{what} {where} is over {limit // (1 << 20)} MB: refused unread (docs/limits.md)"
            )
    if parts and isinstance(parts[0], str):
        return "".join(parts)
    return b"".join(parts)


def _reason(e: Exception) -> str:
    return (e.strerror if isinstance(e, OSError) and e.strerror else str(e)).splitlines()[0]


def _int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_JSON_DIGITS:
        raise _Refused(
            f"a number of {len(text):,} digits (at most {MAX_JSON_DIGITS} are read): {quoted(text)}"
        )
    return int(text)


def _float(text: str) -> float:
    x = float(text)
    if not math.isfinite(x):
        raise _Refused(f"the number {quoted(text)} is too large")
    return x


def _constant(text: str):
    raise _Refused(f"{text} is not a JSON number")


def _object(pairs: list) -> dict:
    doc = dict(pairs)
    if len(doc) != len(pairs):
        seen = set()
        for k, _ in pairs:
            if k in seen:
                raise _Refused(f"the key {quoted(k)} is given twice in one object")
            seen.add(k)
    return doc


class JSONError(InputError):
    """Text that :func:`parse_json` refused: the line names ``what``; ``reason`` is the
    why alone (``NaN is not a JSON number``), for a caller that words the line itself."""

    def __init__(self, line: str, reason: str):
        super().__init__(line)
        self.reason = reason


def parse_json(text: str, what: str) -> object:
    """``text`` decoded as JSON, or one :class:`JSONError` line saying why not."""
    deep = f"nested too deeply (at most {MAX_JSON_DEPTH} levels)"
    try:
        doc = json.loads(
            text,
            parse_int=_int,
            parse_float=_float,
            parse_constant=_constant,
            object_pairs_hook=_object,
        )
    except json.JSONDecodeError as e:
        reason = f"{e.msg} (line {e.lineno}, column {e.colno})"
        raise JSONError(f"{what} is not JSON: {reason}", reason) from None
    except _Refused as e:
        raise JSONError(f"{what}: {e}", str(e)) from None
    except RecursionError:
        raise JSONError(f"{what} is {deep}", deep) from None
    if _depth(doc) > MAX_JSON_DEPTH:
        raise JSONError(f"{what} is {deep}", deep)
    return doc


def _depth(doc: object) -> int:
    """Nesting depth of lists and objects, without recursion; stops past the limit."""
    deepest = 0
    stack = [(doc, 1)]
    while stack:
        node, d = stack.pop()
        if isinstance(node, dict):
            children = node.values()
        elif isinstance(node, list):
            children = node
        else:
            continue
        deepest = max(deepest, d)
        if deepest > MAX_JSON_DEPTH:
            return deepest
        stack.extend((c, d + 1) for c in children if isinstance(c, (dict, list)))
    return deepest


def dumps_json(obj, indent: int | None = 2, separators=None, sort_keys: bool = False) -> str:
    """``obj`` as JSON text; a NaN or +-Infinity anywhere in it is a bug (ValueError
    naming where), never written."""
    try:
        return json.dumps(
            obj, indent=indent, separators=separators, sort_keys=sort_keys, allow_nan=False
        )
    except ValueError:
        where = _non_finite(obj, "$")
        raise ValueError(f"a non-finite number at {where} of a JSON output: a bug") from None


def _non_finite(node, path: str) -> str | None:
    if isinstance(node, float) and not math.isfinite(node):
        return f"{path} ({node})"
    if isinstance(node, dict):
        items = ((f"{path}.{k}", v) for k, v in node.items())
    elif isinstance(node, (list, tuple)):
        items = ((f"{path}[{i}]", v) for i, v in enumerate(node))
    else:
        return None
    for p, v in items:
        found = _non_finite(v, p)
        if found:
            return found
    return None
