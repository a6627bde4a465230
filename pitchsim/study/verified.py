"""Remembering which part files have been hashed, so a run is not hashed on every read.

Reading a run verifies every part against the fast checksum its manifest records
(:mod:`pitchsim.study.checksum`; the SHA-256 for a run written before there was one).  Even
the fast checksum reads every byte of a part, while an aggregation decodes only the
columns it needs; and SHA-256 (~1 GB/s here) is slower than an aggregation reads a run
(~1.5 GB/s of part files, ~100M deals/s).  So a part that passed a check (its fast
checksums: of the columns read; SHA-256: all of it, with players and deal range) is
remembered by the identity of its file, (device, inode, size, mtime, ctime), with what
it was checked against and which columns; the next read of those columns checks only
that identity and the part's rows.  Any write to a file, a rename of another file
into its place or a copy changes that identity (ctime cannot be set back by a user), so
the next read hashes it again.  As in git's index, an identity recorded too soon after
the file last changed is not trusted (:func:`racy_seconds`: 0.25 s where file times have
fractions of a second, else 2 s): a write in the same clock tick would leave it
unchanged.  The writer of a run records the parts it wrote, so even the first read
after ``simulate`` hashes only the last part or two.  ``pitchsim simulate --resume`` always re-hashes
every part.

The memory lives outside the run (``$XDG_CACHE_HOME/pitchsim/verified/``, one small
JSON file per run folder), so reading a run never writes to it; when the cache cannot be
written, parts are simply hashed again next time.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from pathlib import Path
from typing import TYPE_CHECKING

from ..util.atomic import write_file
from ..util.jsonio import dumps_json
from ..util.runtime import user_cache

if TYPE_CHECKING:
    from .manifest import PartRecord

ALL = "all"  # every byte of a part checked (by SHA-256, or the writer's own hashing)
RACY_SECONDS = 2.0  # for a file whose times are whole seconds (a coarse clock)
FINE_RACY_SECONDS = 0.25  # for a file whose times show fractions of a second


def racy_seconds(st: os.stat_result) -> float:
    """How long after a file's last change its status may still miss a change."""
    return FINE_RACY_SECONDS if st.st_ctime_ns % 1_000_000_000 else RACY_SECONDS


def cache_folder() -> Path:
    return user_cache("verified")


def _identity(st: os.stat_result, rec: PartRecord) -> list:
    """The file's identity and everything a full check compared it with."""
    p = rec.part
    return [
        st.st_dev,
        st.st_ino,
        st.st_size,
        st.st_mtime_ns,
        st.st_ctime_ns,
        rec.sha256,
        rec.fast_checksums,
        p.players,
        p.start,
        p.count,
    ]


class VerifiedParts:
    """The parts of one run folder whose current files are known to hash as recorded."""

    def __init__(self, run: Path):
        key = hashlib.sha256(str(run.resolve()).encode("utf-8", "surrogateescape")).hexdigest()
        self.file = cache_folder() / f"{key[:32]}.json"
        self.entries: dict[str, list] = {}
        self.changed = False
        try:
            doc = json.loads(self.file.read_bytes())
            if isinstance(doc, dict) and isinstance(doc.get("parts"), dict):
                self.entries = {k: v for k, v in doc["parts"].items() if isinstance(v, list)}
        except (OSError, ValueError, RecursionError):
            pass  # no memory yet, or an unreadable one: every part gets hashed

    def holds(self, st: os.stat_result, rec: PartRecord, columns=None) -> bool:
        """Whether ``rec``'s file, with status ``st``, passed a check against ``rec`` of
        ``columns`` (None: of all of it) and has not changed since."""
        entry = self.entries.get(rec.part.file)
        if not entry or entry[:-1] != _identity(st, rec):
            return False
        return entry[-1] == ALL or (columns is not None and set(columns) <= set(entry[-1]))

    def add(self, st: os.stat_result, rec: PartRecord, columns=None) -> None:
        """Remember that ``columns`` of ``rec``'s file (None: all of it; status ``st``)
        passed a check just now, unless the file changed too recently for its status to
        tell a later change apart."""
        if time.time() - st.st_ctime_ns / 1e9 < racy_seconds(st):
            self.entries.pop(rec.part.file, None)
            return
        checked = ALL
        if columns is not None:
            entry = self.entries.get(rec.part.file)
            before = entry[-1] if entry and entry[:-1] == _identity(st, rec) else []
            checked = ALL if before == ALL else sorted(set(before) | set(columns))
        self.entries[rec.part.file] = [*_identity(st, rec), checked]
        self.changed = True

    def save(self) -> None:
        if not self.changed:
            return
        try:
            self.file.parent.mkdir(parents=True, exist_ok=True)
            write_file(self.file, dumps_json({"parts": self.entries}, indent=None))
            self.changed = False
        except (OSError, ValueError):
            pass  # a read-only home: the parts are hashed again next time
