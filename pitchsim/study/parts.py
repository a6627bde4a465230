"""Reading a run's parts back, every byte checked, and telling whether a part's file
can still be trusted.

Readers (:func:`read_part`) check every part they use against the manifest
(:mod:`pitchsim.study.manifest`): its fast checksum (:mod:`pitchsim.study.checksum`,
computed while the part is decoded; SHA-256 for a run written before there was one, or
when asked for a full check), rows, player count and deal range.  Parts checked before
are remembered outside the run (:mod:`pitchsim.study.verified`).  :func:`part_problem`
is the writer's check of a whole file, before a run is resumed.
"""

from __future__ import annotations

import concurrent.futures
import hashlib
import os
import stat
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute  # noqa: F401  (pa.compute.min_max)
import pyarrow.parquet as pq

from ..util.errors import InputError
from . import parquet
from .checksum import checksum
from .manifest import FRAME, REGIONS, SCHEMA, VALUE_RANGES, Part, PartRecord, RunError
from .verified import VerifiedParts


def part_problem(run: Path, rec: PartRecord, check_sum: bool = False) -> str | None:
    """Why a done part's file cannot be trusted, or None when it matches its record.

    ``check_sum`` hashes the file: its SHA-256 must be the recorded one, and so must its
    fast checksum; a record without one (a run written before) gets it filled in."""
    f = run / rec.part.file
    if rec.status != "done":
        return f"{f} is not finished"
    try:
        size = f.stat().st_size
    except OSError:
        return f"{f} is missing"
    if not f.is_file():
        return f"{f} is not a file"
    if size != rec.bytes:
        return f"{f} is truncated or altered ({size:,} bytes, the manifest recorded {rec.bytes:,})"
    if check_sum:
        try:
            with open(f, "rb") as fh:
                data = fh.read()
        except OSError as e:
            return f"{f} cannot be read ({e.strerror or e})"
        if _sha256(data) != rec.sha256:
            return f"{f} is altered (its checksum differs from the manifest's)"
        try:
            fast = fast_checksums(data, rec.part)
        except ValueError as e:  # a file this pitchsim did not lay out
            return f"{f} cannot be given fast checksums ({e})"
        if rec.fast_checksums is None:
            rec.fast_checksums = fast
        elif fast != rec.fast_checksums:
            return f"{f} does not match the fast checksums its manifest records"
    return None


def _sha256(data) -> str:
    return hashlib.sha256(data).hexdigest()


# ---- fast checksums of a part's regions ----------------------------------------------


def part_key(part: Part) -> int:
    """The key of a part's fast checksums (:mod:`pitchsim.study.checksum`): its player count
    and deals, so that a part's file in another part's place fails them."""
    return int(checksum(np.array([part.players, part.start, part.count], dtype="<i8"))[:16], 16)


def _frame(view: memoryview) -> tuple[int, int] | None:
    """Where a part's footer starts, and its whole size, from its last 8 bytes (the
    footer's length and the magic); None when they cannot be a footer's."""
    n = len(view)
    if n < 12 or bytes(view[n - 4 :]) != parquet.MAGIC:
        return None
    start = n - 8 - int.from_bytes(view[n - 8 : n - 4], "little")
    return (start, n) if start >= 4 else None


def _frame_bytes(view: memoryview, footer: int) -> bytes:
    """The frame: the leading magic and everything from the footer on."""
    return bytes(view[:4]) + bytes(view[footer:])


def _chunks(meta: pq.FileMetaData) -> dict[str, tuple[int, int]]:
    """column -> (first byte, end) of its chunk in the file."""
    rg = meta.row_group(0)
    out = {}
    for i in range(rg.num_columns):
        c = rg.column(i)
        out[c.path_in_schema] = (c.data_page_offset, c.data_page_offset + c.total_compressed_size)
    return out


def fast_checksums(data, part: Part) -> dict[str, str]:
    """The fast checksum, under :func:`part_key`, of every region of a part's file: each
    column chunk of :data:`~pitchsim.study.manifest.COLUMNS` and the frame around them, which together are every byte
    of it (a ``ValueError`` if they are not: a file this pitchsim did not write)."""
    view = memoryview(data).cast("B")
    frame = _frame(view)
    if frame is None:
        raise ValueError("it does not end as a Parquet file")
    meta = pq.ParquetFile(pa.BufferReader(view)).metadata
    chunks = _chunks(meta)
    ends = sorted(chunks.values())
    if (
        set(chunks) != REGIONS - {FRAME}
        or [a for a, _ in ends] != [4] + [b for _, b in ends[:-1]]
        or ends[-1][1] != frame[0]
    ):
        raise ValueError("its column chunks are not laid out one after another")
    key = part_key(part)
    sums = {name: checksum(view[a:b], key) for name, (a, b) in chunks.items()}
    sums[FRAME] = checksum(_frame_bytes(view, frame[0]), key)
    return sums


# ---- reading a part, verified ---------------------------------------------------------

_hasher: concurrent.futures.ThreadPoolExecutor | None = None


def _hash_in_background(data: bytes) -> concurrent.futures.Future:
    """SHA-256 of ``data`` on a helper thread (hashlib releases the GIL), so that it
    costs no time while the part is being decoded."""
    global _hasher
    if _hasher is None:
        _hasher = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="pitchsim-hash")
    return _hasher.submit(_sha256, data)


def _read_fast_checked(fh, f: Path, rec: PartRecord, wanted: list[str], hint: str) -> pa.Table:
    """The ``wanted`` columns of a part, every byte read checked by its fast checksum
    before anything decodes it: the frame (so the footer's layout can be trusted), then
    the chunk of each column wanted -- and nothing else is read."""
    n = rec.bytes
    buf = np.zeros(n, dtype=np.uint8)  # the OS's zero pages: only what is read is touched
    view = memoryview(buf)
    fd = fh.fileno()
    key = part_key(rec.part)
    altered = f"{f} is altered (its checksum differs from the manifest's)" + hint

    def read(a: int, b: int) -> None:
        while a < b:
            got = os.preadv(fd, [view[a:b]], a)
            if got <= 0:  # the file shrank since it was opened: it cannot match
                raise RunError(altered)
            a += got

    read(max(0, n - 8), n)
    frame = _frame(view)
    if frame is None:
        raise RunError(altered)
    read(0, 4)
    read(frame[0], n - 8)
    if checksum(_frame_bytes(view, frame[0]), key) != rec.fast_checksums[FRAME]:
        raise RunError(altered)
    pf = pq.ParquetFile(pa.BufferReader(buf))  # its footer is known to be as written
    chunks = _chunks(pf.metadata)
    for name in wanted:
        if name not in chunks:
            continue  # not a column of a part: decoding says so
        a, b = chunks[name]
        read(a, b)
        if checksum(view[a:b], key) != rec.fast_checksums[name]:
            raise RunError(altered)
    return _decode(f, pf, rec, wanted, None, hint)


VERIFY = (True, False, "full")  # read_part's choices


def read_part(
    run: Path,
    rec: PartRecord,
    columns: Sequence[str],
    verify: bool | str = True,
    known: VerifiedParts | None = None,
) -> pa.Table:
    """``columns`` of a done part as an Arrow table, checked against its record.

    With ``verify`` (the default) every byte read is checked: the frame and the column
    chunks read, by their fast checksums (keyed by the part's players and deals, so that
    they also tell that the file is this part's), and the rows.  A run written before
    fast checksums were recorded is checked whole instead: its SHA-256 (computed on a
    second thread while the columns decode), rows, player count and deal range, as is
    every part with ``verify="full"``, whether checked before or not.  ``known``
    remembers the files, and the columns of them, already checked (see
    :mod:`pitchsim.study.verified`): they are not hashed again while unchanged.  Without
    ``verify`` only the size and rows are checked.  A part that fails is a
    :class:`RunError` naming it and how to redo it."""
    if verify not in VERIFY or not isinstance(verify, (bool, str)):
        raise InputError(f"verify must be True, False or 'full', not {verify!r}")
    f = run / rec.part.file
    hint = f"; redo it with: pitchsim simulate --resume --out {run}"
    if rec.status != "done":
        raise RunError(f"{f} is not finished" + hint)
    try:  # non-blocking: a FIFO put in a part's place must not hang the reader
        fh = os.fdopen(os.open(f, os.O_RDONLY | os.O_NONBLOCK), "rb")
    except FileNotFoundError:
        raise RunError(f"{f} is missing" + hint) from None
    except OSError as e:
        raise RunError(f"{f} cannot be read ({e.strerror or e})" + hint) from None
    with fh:
        st = os.fstat(fh.fileno())
        if not stat.S_ISREG(st.st_mode):
            raise RunError(f"{f} is not a file" + hint)
        if st.st_size != rec.bytes:
            raise RunError(
                f"{f} is truncated or altered ({st.st_size:,} bytes, the manifest "
                f"recorded {rec.bytes:,})" + hint
            )
        wanted = list(columns)
        if verify == "full" or (verify and rec.fast_checksums is None):
            how = "sha256"  # the whole file, unless it passed a whole check unchanged
            if verify != "full" and known is not None and known.holds(st, rec):
                how = "known"
        elif verify:
            how = "fast"  # the columns read, unless they passed unchanged
            if known is not None and known.holds(st, rec, wanted):
                how = "known"
        else:
            how = "unverified"
        try:
            if how == "fast":
                table = _read_fast_checked(fh, f, rec, wanted, hint)
            elif how == "sha256":  # the whole file in memory once: hashed and decoded there
                wanted += [c for c in ("deal", "players") if c not in wanted]
                data = fh.read()
                digest = _hash_in_background(data)
                matches = lambda: digest.result() == rec.sha256  # noqa: E731
                table = _decode(f, pa.BufferReader(data), rec, wanted, matches, hint)
                if not matches():
                    raise RunError(
                        f"{f} is altered (its checksum differs from the manifest's)" + hint
                    )
                _check_deals(f, table, rec, hint)
                table = table.select(list(columns))
            else:  # only the columns asked for are read, by pyarrow's own file reader
                table = _decode(f, str(f), rec, wanted, None, hint)
                if _identity_of(os.stat(f)) != _identity_of(st):
                    raise RunError(f"{f} changed while it was read: try again")
        except OSError as e:
            raise RunError(f"{f} cannot be read ({e.strerror or e})" + hint) from None
    if how == "unverified":
        _check_values(f, table, hint)
    elif known is not None and how != "known":
        known.add(st, rec, None if how == "sha256" else wanted)
    return table


def _check_values(f: Path, table: pa.Table, hint: str) -> None:
    """Every value of every column read within what the column can hold."""
    for name in table.column_names:
        if name in VALUE_RANGES and table.num_rows:
            lo, hi = VALUE_RANGES[name]
            span = pa.compute.min_max(table.column(name)).as_py()
            if span["min"] < lo or span["max"] > hi:
                raise RunError(
                    f"{f}: column {name} holds {span['min']}-{span['max']}, "
                    f"outside {lo}-{hi}: the part is damaged" + hint
                )


def _check_deals(f: Path, table: pa.Table, rec: PartRecord, hint: str) -> None:
    """The part holds the deals and player count its record says (not another part's)."""
    deal, players = table.column("deal"), table.column("players")
    first, last = deal[0].as_py(), deal[-1].as_py()
    span = pa.compute.min_max(players).as_py()
    p = rec.part
    if (first, last) != (p.start, p.start + p.count - 1) or span != {
        "min": p.players,
        "max": p.players,
    }:
        raise RunError(
            f"{f} holds deals {first:,}-{last:,} at {span['min']}-{span['max']} players, "
            f"not part {p.index}'s deals {p.start:,}-{p.start + p.count - 1:,} at {p.players}"
            + hint
        )


def _identity_of(st: os.stat_result) -> tuple:
    return st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns


def _decode(f, source, rec, wanted, matches, hint) -> pa.Table:
    """The ``wanted`` columns of a part, its rows and column types checked.  When the
    bytes do not decode and their checksum is being computed (``matches``), the checksum
    speaks: an altered file is the likelier cause than a reader's bug."""
    try:
        pf = source if isinstance(source, pq.ParquetFile) else pq.ParquetFile(source)
        rows = pf.metadata.num_rows
        if rows != rec.rows:
            raise RunError(f"{f} holds {rows:,} deals, not {rec.rows:,}" + hint)
        table = pf.read(columns=wanted, use_threads=True)
    except (OSError, pa.ArrowException, ValueError, IndexError, KeyError, RunError) as e:
        if matches is not None and not matches():
            raise RunError(
                f"{f} is altered (its checksum differs from the manifest's)" + hint
            ) from None
        if isinstance(e, RunError):
            raise
        raise RunError(f"{f} cannot be read ({str(e).splitlines()[0][:200]})" + hint) from None
    if table.num_rows != rec.rows or any(len(c) != rec.rows for c in table.columns):
        raise RunError(f"{f} decodes to columns of the wrong length" + hint)
    schema = SCHEMA
    for name in wanted:
        typ = table.schema.field(name).type
        if schema.get_field_index(name) < 0:
            raise RunError(f"{f}: column {name} is not a column of this run" + hint)
        if typ != schema.field(name).type:
            raise RunError(
                f"{f}: column {name} has type {typ}, not {schema.field(name).type}" + hint
            )
    return table
