"""pitchsim.study.parquet: every file it writes must read back exactly through pyarrow."""

import io

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from pitchsim.study.parquet import BLOCK, CREATED_BY, PAGE_ROWS, Column, Encoder, write_table

INT_TYPES = [pa.int8(), pa.uint8(), pa.int16(), pa.uint16(), pa.int32(), pa.uint32(), pa.int64()]


def read(data: bytes) -> pa.Table:
    return pq.read_table(pa.BufferReader(data))


def values_for(typ: pa.DataType, n: int, rng) -> np.ndarray:
    """Values whose deltas change size every miniblock (32 values), from 0 bits to the
    type's whole range, wrapping around: every bit width and the 64-bit wrap."""
    dtype = np.dtype(typ.to_pandas_dtype())
    info = np.iinfo(dtype)
    if typ.bit_width == 64:
        out = np.empty(n, dtype=np.int64)
        for a in range(0, n, 32):
            bits = (a // 32) % 64
            span = 1 << bits
            out[a : a + 32] = rng.integers(-span, span, size=min(32, n - a), dtype=np.int64)
        out[::97] = info.min
        out[1::89] = info.max
        return np.cumsum(out, dtype=np.int64)  # wraps around: huge deltas both ways
    out = np.empty(n, dtype=np.int64)
    for a in range(0, n, 32):
        bits = (a // 32) % (typ.bit_width + 1)
        lo = max(int(info.min), -(1 << bits))
        out[a : a + 32] = rng.integers(lo, min(int(info.max), (1 << bits) - 1) + 1, min(32, n - a))
    out[::101] = info.min
    out[2::103] = info.max
    return out.astype(dtype)


SIZES = [0, 1, 2, 31, 32, 33, 127, 128, 129, 130, 1000, PAGE_ROWS - 1, PAGE_ROWS, PAGE_ROWS + 129]


@pytest.mark.parametrize("n", SIZES)
def test_every_type_and_encoding_reads_back_exactly(n):
    rng = np.random.default_rng(n)
    columns, data = [], {}
    for typ in INT_TYPES:
        for encoding in ("delta", "plain"):
            name = f"{typ}_{encoding}"
            columns.append(Column(name, typ, encoding))
            data[name] = values_for(typ, n, rng)
    columns.append(Column("flag", pa.bool_()))
    data["flag"] = rng.random(n) < 0.3
    columns.append(Column("count_up", pa.int64()))
    data["count_up"] = np.arange(10**12, 10**12 + n, dtype=np.int64)
    table = read(write_table(columns, data))
    assert table.num_rows == n
    assert table.schema == pa.schema([pa.field(c.name, c.type, nullable=False) for c in columns])
    for c in columns:
        got = table.column(c.name).to_numpy()
        assert got.dtype == data[c.name].dtype
        np.testing.assert_array_equal(got, data[c.name], err_msg=c.name)


def test_file_metadata():
    n = 3 * PAGE_ROWS // 2
    cols = [
        Column("deal", pa.int64()),
        Column("hand", pa.int64(), "plain"),
        Column("won", pa.bool_()),
    ]
    data = {"deal": np.arange(n), "hand": np.arange(n) * 7919, "won": np.arange(n) % 3 == 0}
    f = pq.ParquetFile(pa.BufferReader(write_table(cols, data)))
    meta = f.metadata
    assert meta.num_rows == n and meta.num_row_groups == 1 and meta.num_columns == 3
    assert meta.created_by == CREATED_BY
    rg = meta.row_group(0)
    assert rg.num_rows == n
    expected = {"deal": "DELTA_BINARY_PACKED", "hand": "PLAIN", "won": "PLAIN"}
    for i in range(3):
        col = rg.column(i)
        assert col.compression == "UNCOMPRESSED"
        assert expected[col.path_in_schema] in col.encodings
        assert col.num_values == n
    # an arithmetic sequence costs a few bytes a block of 128, not 8 bytes a value
    assert rg.column(0).total_compressed_size < 8 * n / BLOCK + 200
    # pages: one per PAGE_ROWS rows, readable one by one
    assert [len(b) for b in f.iter_batches(batch_size=PAGE_ROWS)] == [PAGE_ROWS, n - PAGE_ROWS]


def test_pandas_reads_it_with_the_same_dtypes():
    cols = [
        Column("players", pa.uint8()),
        Column("trump", pa.int8()),
        Column("ranks", pa.uint16()),
        Column("high", pa.bool_()),
    ]
    data = {
        "players": np.full(500, 4, np.uint8),
        "trump": np.arange(500).astype(np.int8) % 4,
        "ranks": (np.arange(500) * 37 % 8192).astype(np.uint16),
        "high": np.arange(500) % 2 == 1,
    }
    df = pd.read_parquet(io.BytesIO(write_table(cols, data)))
    for name, values in data.items():
        assert df[name].dtype == values.dtype
        np.testing.assert_array_equal(df[name].to_numpy(), values)


def test_an_encoder_reused_writes_what_a_fresh_one_writes():
    rng = np.random.default_rng(5)
    cols = [Column("a", pa.uint16()), Column("b", pa.bool_())]
    big = {"a": rng.integers(0, 9000, 200_000).astype(np.uint16), "b": rng.random(200_000) < 0.5}
    small = {k: v[:777] for k, v in big.items()}
    enc = Encoder()
    first = bytes(enc.encode(cols, big))
    second = bytes(enc.encode(cols, small))  # shorter, into the same memory
    assert first == write_table(cols, big) and second == write_table(cols, small)
    assert read(second).column("a").to_numpy().tolist() == small["a"].tolist()


def test_what_it_cannot_write_is_refused():
    with pytest.raises(TypeError):
        write_table([Column("x", pa.float64())], {"x": np.zeros(3)})
    with pytest.raises(TypeError):
        write_table([Column("x", pa.uint64())], {"x": np.zeros(3, np.uint64)})
    with pytest.raises(ValueError, match="shape"):
        write_table(
            [Column("a", pa.int8()), Column("b", pa.int8())],
            {"a": np.zeros(3, np.int8), "b": np.zeros(4, np.int8)},
        )
    with pytest.raises(ValueError, match="encoding"):
        write_table([Column("a", pa.int8(), "zstd")], {"a": np.zeros(3, np.int8)})
