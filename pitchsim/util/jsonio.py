"""Reading JSON that a user or another program wrote: capped in size, one-line errors.

(Minimal version for the view and protocol work; the reliability work owns this module.)
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from .errors import InputError

MAX_JSON_BYTES = 64 << 20  # a game record of thousands of hands fits; more is a mistake


def parse_json(text: str | bytes, what: str) -> object:
    """The value of JSON ``text``; ``what`` names it in the one-line error."""
    if len(text) > MAX_JSON_BYTES:
        raise InputError(f"{what} is too large: {len(text):,} bytes, at most {MAX_JSON_BYTES:,}")
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise InputError(f"{what} is not UTF-8 text") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise InputError(
            f"{what} is not JSON: {e.msg} (line {e.lineno}, column {e.colno})"
        ) from None
    except RecursionError:
        raise InputError(f"{what} is not JSON we can read: nested too deeply") from None


def read_json(source: str | Path, what: str | None = None) -> object:
    """The JSON value in file ``source`` (``-``: stdin)."""
    name = what or ("stdin" if str(source) == "-" else str(source))
    try:
        if str(source) == "-":
            raw = sys.stdin.buffer.read(MAX_JSON_BYTES + 1)
        else:
            with open(source, "rb") as f:
                raw = f.read(MAX_JSON_BYTES + 1)
    except OSError as e:
        raise InputError(f"cannot read {source}: {e.strerror or e}") from None
    return parse_json(raw, name)
