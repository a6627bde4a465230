"""A small, fast Parquet writer for flat tables of required integer and boolean columns.

Why not pyarrow's writer: a run's parts must be encoded while the kernel plays the next
one, on the same two cores, and pyarrow spends ~77 ns a deal on our 17 small columns
(about 4 ns a value whatever the encoding), a fifth of what the kernel needs to play a
deal at three players.  The encodings used here are simple enough to write directly
from the numpy columns: ~19 ns a deal, same file sizes (``scripts/bench_pipeline.py
encode``).  The tests read every column back through pyarrow and pandas; DuckDB 2.0 and
Polars 2.1 were seen to read the parts identically.

What is written (Apache Parquet format 2, https://parquet.apache.org/docs/file-format/):

- one row group, every column REQUIRED and UNCOMPRESSED, cut into data pages (v1) of
  :data:`PAGE_ROWS` rows;
- booleans PLAIN (bit-packed, least significant bit first);
- integers DELTA_BINARY_PACKED (blocks of 128 deltas, 4 miniblocks of 32), or PLAIN when
  asked (64-bit values without order, such as card masks, do not shrink by deltas);
- the footer (FileMetaData) in the Thrift compact protocol, without statistics.

The bytes depend only on the columns and :data:`CREATED_BY`, never on library versions.
"""

from __future__ import annotations

import struct
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pyarrow as pa
from numba import njit

from .. import kernels as _kernels  # noqa: F401  (sets numba's cache folder first)

MAGIC = b"PAR1"
PAGE_ROWS = 1 << 16
CREATED_BY = "pitchsim parquet writer 1"
BLOCK = 128  # deltas per block
MINIBLOCKS = 4  # miniblocks per block, 32 deltas each

# Parquet's enums (parquet.thrift)
_BOOLEAN, _INT32, _INT64 = 0, 1, 2
_PLAIN, _RLE, _DELTA = 0, 3, 5
_REQUIRED = 0
_DATA_PAGE = 0
_CONVERTED = {
    (8, False): 11,
    (16, False): 12,
    (32, False): 13,
    (64, False): 14,
    (8, True): 15,
    (16, True): 16,
    (32, True): 17,
    (64, True): 18,
}


# ---- Thrift compact protocol: just what Parquet's metadata needs ---------------------


class _I8(int): ...


class _I16(int): ...


class _I32(int): ...


class _I64(int): ...


@dataclass(frozen=True)
class _List:
    kind: type  # element type: _I32 or _Struct (or bytes)
    items: Sequence


@dataclass(frozen=True)
class _Struct:
    fields: Sequence[tuple[int, object]]  # (field id, value) in rising field id


_TYPE = {bool: 1, _I8: 3, _I16: 4, _I32: 5, _I64: 6, bytes: 8, _List: 9, _Struct: 12}


def _varint(out: bytearray, v: int) -> None:
    while v >= 0x80:
        out.append(v & 0x7F | 0x80)
        v >>= 7
    out.append(v)


def _zigzag(v: int) -> int:
    return (v << 1) ^ (v >> 63)


def _value(out: bytearray, v) -> None:
    if isinstance(v, _I8):
        out.append(v & 0xFF)
    elif isinstance(v, (_I16, _I32, _I64)):
        _varint(out, _zigzag(int(v)))
    elif isinstance(v, bytes):
        _varint(out, len(v))
        out += v
    elif isinstance(v, _List):
        etype = 1 if v.kind is bool else _TYPE[v.kind]
        if len(v.items) < 15:
            out.append(len(v.items) << 4 | etype)
        else:
            out.append(0xF0 | etype)
            _varint(out, len(v.items))
        for item in v.items:
            _value(out, item)
    elif isinstance(v, _Struct):
        last = 0
        for fid, fv in v.fields:
            ftype = (1 if fv else 2) if isinstance(fv, bool) else _TYPE[type(fv)]
            if 0 < fid - last <= 15:
                out.append((fid - last) << 4 | ftype)
            else:
                out.append(ftype)
                _varint(out, _zigzag(fid))
            last = fid
            if not isinstance(fv, bool):  # a bool field's value is in its type nibble
                _value(out, fv)
        out.append(0)  # stop
    else:
        raise TypeError(f"no Thrift encoding for {type(v).__name__}")


def thrift(s: _Struct) -> bytes:
    out = bytearray()
    _value(out, s)
    return bytes(out)


# ---- encodings (numba) ---------------------------------------------------------------


@njit(cache=True, nogil=True)
def _put_varint(out, pos, v):
    v = np.uint64(v)
    while v >= np.uint64(0x80):
        out[pos] = np.uint8((v & np.uint64(0x7F)) | np.uint64(0x80))
        v >>= np.uint64(7)
        pos += 1
    out[pos] = np.uint8(v)
    return pos + 1


@njit(cache=True, nogil=True)
def _bit_width(v):
    w = 0
    while v != np.uint64(0):
        v >>= np.uint64(1)
        w += 1
    return w


@njit(cache=True, nogil=True)
def _pack(values, start, w, out, pos):
    """Bit-pack the 32 values from ``values[start]`` (a miniblock) at ``w`` bits each,
    least significant bit first, into 4w bytes; returns the new ``pos``."""
    if w <= 8:  # eight values make w bytes: built in one word, without branches
        for g in range(start, start + 32, 8):
            x = np.uint64(0)
            for i in range(8):
                x |= values[g + i] << np.uint64(i * w)
            for j in range(w):
                out[pos + j] = np.uint8((x >> np.uint64(8 * j)) & np.uint64(0xFF))
            pos += w
        return pos
    if w <= 16:  # eight values make w bytes: the low four in x0, the high four in x1
        half = np.uint64(4 * w)
        for g in range(start, start + 32, 8):
            x0 = np.uint64(0)
            x1 = np.uint64(0)
            for i in range(4):
                x0 |= values[g + i] << np.uint64(i * w)
                x1 |= values[g + 4 + i] << np.uint64(i * w)
            lo = x0 | (x1 << half) if w < 16 else x0
            hi = x1 >> (np.uint64(64) - half) if w < 16 else x1
            for j in range(8):
                out[pos + j] = np.uint8((lo >> np.uint64(8 * j)) & np.uint64(0xFF))
            for j in range(w - 8):
                out[pos + 8 + j] = np.uint8((hi >> np.uint64(8 * j)) & np.uint64(0xFF))
            pos += w
        return pos
    acc = np.uint64(0)  # wider: a byte at a time, adding 32 bits at most at once
    bits = 0
    for i in range(start, start + 32):
        v = values[i]
        left = w
        while left > 0:
            take = min(left, 32)
            acc |= (v & ((np.uint64(1) << np.uint64(take)) - np.uint64(1))) << np.uint64(bits)
            v >>= np.uint64(take)
            bits += take
            left -= take
            while bits >= 8:
                out[pos] = np.uint8(acc & np.uint64(0xFF))
                acc >>= np.uint64(8)
                bits -= 8
                pos += 1
    return pos


@njit(cache=True, nogil=True, inline="always")
def _wrap(x, narrow):
    """``x`` as the int32 it wraps around to when ``narrow``."""
    return ((x + 0x80000000) & 0xFFFFFFFF) - 0x80000000 if narrow else x


@njit(cache=True, nogil=True)
def _delta_encode(values, narrow, out):
    """DELTA_BINARY_PACKED ``values`` (any integer type) into ``out``; returns the bytes
    written.  Values and deltas wrap around in the column's physical type, as readers
    expect: 32 bits when ``narrow`` (INT32 columns), else 64."""
    n = values.size
    pos = _put_varint(out, 0, BLOCK)
    pos = _put_varint(out, pos, MINIBLOCKS)
    pos = _put_varint(out, pos, n)
    first = np.uint64(_wrap(np.int64(values[0]), narrow)) if n > 0 else np.uint64(0)
    pos = _put_varint(out, pos, (first << np.uint64(1)) ^ np.uint64(np.int64(first) >> 63))
    deltas = np.empty(BLOCK, dtype=np.int64)
    packed = np.empty(BLOCK, dtype=np.uint64)
    per_mini = BLOCK // MINIBLOCKS
    for b in range(1, n, BLOCK):
        m = min(BLOCK, n - b)
        lo = np.int64(0x7FFFFFFFFFFFFFFF)
        if m == BLOCK:  # a fixed trip count: LLVM vectorises it (3x faster)
            src = values[b - 1 : b + BLOCK]
            for i in range(BLOCK):
                d = _wrap(np.int64(src[i + 1]) - np.int64(src[i]), narrow)
                deltas[i] = d
                lo = min(lo, d)
        else:
            for i in range(m):
                d = _wrap(np.int64(values[b + i]) - np.int64(values[b + i - 1]), narrow)
                deltas[i] = d
                lo = min(lo, d)
            deltas[m:] = lo  # padding: packed as zeros
        ulo = np.uint64(lo)
        for i in range(BLOCK):
            packed[i] = np.uint64(deltas[i]) - ulo
        pos = _put_varint(out, pos, (ulo << np.uint64(1)) ^ np.uint64(lo >> 63))
        widths = pos
        pos += MINIBLOCKS
        for k in range(MINIBLOCKS):
            out[widths + k] = 0
            if k * per_mini >= m:
                continue  # an unneeded miniblock: width byte only
            top = np.uint64(0)
            for i in range(k * per_mini, (k + 1) * per_mini):
                top |= packed[i]
            w = _bit_width(top)
            out[widths + k] = w
            pos = _pack(packed, k * per_mini, w, out, pos)
    return pos


# ---- files ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Column:
    """How one column is stored: its Arrow type (bool or an integer) and, for integers,
    ``delta`` (DELTA_BINARY_PACKED) or ``plain``."""

    name: str
    type: pa.DataType
    encoding: str = "delta"


def _physical(typ: pa.DataType) -> tuple[int, _Struct | None, int | None]:
    """Parquet physical type, logical type and converted type of an Arrow type."""
    if pa.types.is_boolean(typ):
        return _BOOLEAN, None, None
    if not pa.types.is_integer(typ) or typ.bit_width == 64 and not pa.types.is_signed_integer(typ):
        raise TypeError(f"no Parquet mapping here for {typ}")
    width, signed = typ.bit_width, pa.types.is_signed_integer(typ)
    logical = _Struct([(10, _Struct([(1, _I8(width)), (2, signed)]))])  # INTEGER(width, signed)
    return (_INT64 if width == 64 else _INT32), logical, _CONVERTED.get((width, signed))


def _max_page_bytes(rows: int) -> int:
    # delta: a 40-byte header, then per block a 10-byte min delta, 4 widths and up to 8
    # bytes a delta; plain: 8 bytes a value
    return 40 + (rows // BLOCK + 1) * (14 + 8 * BLOCK)


class Encoder:
    """Encodes tables into one buffer that it keeps: on the virtual machines we run on,
    memory fresh from the OS costs ~3 us a page when first touched (as much as encoding
    what goes in it), so a run encodes every part into the same memory."""

    def __init__(self) -> None:
        self._out = np.empty(0, dtype=np.uint8)
        self._pos = 0
        self._page = np.empty(0, dtype=np.uint8)  # a page's encoded data

    def _put(self, data) -> None:
        b = np.frombuffer(data, dtype=np.uint8) if isinstance(data, bytes) else data
        end = self._pos + b.size
        if end > self._out.size:
            grown = np.empty(max(end, 2 * self._out.size), dtype=np.uint8)
            grown[: self._pos] = self._out[: self._pos]
            self._out = grown
        self._out[self._pos : end] = b
        self._pos = end

    def _page_data(self, col: Column, values: np.ndarray) -> tuple[np.ndarray, int]:
        if pa.types.is_boolean(col.type):
            return np.packbits(values.astype(bool, copy=False), bitorder="little"), _PLAIN
        if col.encoding == "plain":
            dtype = "<i8" if col.type.bit_width == 64 else "<i4"
            return values.astype(dtype, copy=False).view(np.uint8), _PLAIN
        if col.encoding == "delta":
            if self._page.size < _max_page_bytes(values.size):
                self._page = np.empty(_max_page_bytes(values.size), dtype=np.uint8)
            narrow = col.type.bit_width < 64
            size = _delta_encode(np.ascontiguousarray(values), narrow, self._page)
            return self._page[:size], _DELTA
        raise ValueError(f"unknown encoding {col.encoding!r} for column {col.name}")

    def encode(
        self,
        columns: Sequence[Column],
        data: Mapping[str, np.ndarray],
        metadata: Mapping[str, str] | None = None,
    ) -> memoryview:
        """The Parquet file holding ``data[c.name]`` for every column ``c``, in that
        order, and ``metadata`` as the footer's key-value pairs; a view of the encoder's
        buffer, valid until its next ``encode``."""
        rows = len(data[columns[0].name]) if columns else 0
        self._pos = 0
        self._put(MAGIC)
        chunks = []
        for col in columns:
            values = np.asarray(data[col.name])
            if values.shape != (rows,):
                raise ValueError(f"column {col.name} has shape {values.shape}, not ({rows},)")
            start, encodings = self._pos, set()
            for a in range(0, rows, PAGE_ROWS):
                page, encoding = self._page_data(col, values[a : a + PAGE_ROWS])
                encodings.add(encoding)
                n = min(PAGE_ROWS, rows - a)
                self._put(
                    thrift(
                        _Struct(
                            [
                                (1, _I32(_DATA_PAGE)),
                                (2, _I32(page.size)),
                                (3, _I32(page.size)),
                                (
                                    5,
                                    _Struct(
                                        [
                                            (1, _I32(n)),
                                            (2, _I32(encoding)),
                                            (3, _I32(_RLE)),
                                            (4, _I32(_RLE)),
                                        ]
                                    ),
                                ),
                            ]
                        )
                    )
                )
                self._put(page)
            physical, _, _ = _physical(col.type)
            size = self._pos - start
            meta = _Struct(
                [
                    (1, _I32(physical)),
                    (2, _List(_I32, [_I32(e) for e in sorted(encodings)])),
                    (3, _List(bytes, [col.name.encode()])),
                    (4, _I32(0)),
                    (5, _I64(rows)),
                    (6, _I64(size)),
                    (7, _I64(size)),
                    (9, _I64(start)),
                ]
            )
            chunks.append((size, _Struct([(2, _I64(start)), (3, meta)])))
        footer = thrift(_footer(columns, rows, chunks, metadata or {}))
        self._put(footer)
        self._put(struct.pack("<I", len(footer)) + MAGIC)
        return memoryview(self._out[: self._pos])


def _footer(
    columns: Sequence[Column], rows: int, chunks: list, metadata: Mapping[str, str]
) -> _Struct:
    """FileMetaData: the schema, the one row group's column chunks and the key-value
    metadata."""
    schema = [_Struct([(4, b"schema"), (5, _I32(len(columns)))])]
    for col in columns:
        physical, logical, converted = _physical(col.type)
        fields = [(1, _I32(physical)), (3, _I32(_REQUIRED)), (4, col.name.encode())]
        if converted is not None:
            fields.append((6, _I32(converted)))
        if logical is not None:
            fields.append((10, logical))
        schema.append(_Struct(fields))
    total = sum(size for size, _ in chunks)
    row_group = _Struct(
        [
            (1, _List(_Struct, [c for _, c in chunks])),
            (2, _I64(total)),
            (3, _I64(rows)),
            (5, _I64(len(MAGIC))),
            (6, _I64(total)),
            (7, _I16(0)),
        ]
    )
    return _Struct(
        [
            (1, _I32(2)),
            (2, _List(_Struct, schema)),
            (3, _I64(rows)),
            (4, _List(_Struct, [row_group])),
            *(
                [
                    (
                        5,
                        _List(
                            _Struct,
                            [
                                _Struct([(1, k.encode()), (2, v.encode())])
                                for k, v in metadata.items()
                            ],
                        ),
                    )
                ]
                if metadata
                else []
            ),
            (6, CREATED_BY.encode()),
        ]
    )


def write_table(columns: Sequence[Column], data: Mapping[str, np.ndarray]) -> bytes:
    """The Parquet file holding ``data[c.name]`` for every column ``c``, in that order."""
    return bytes(Encoder().encode(columns, data))
