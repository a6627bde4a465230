"""Reading a run's parts back: every refusal as its whole line, the edges of a part's
frame worked out from the Parquet layout by hand, and what is remembered after a read.
The mutation run over study/parts.py found these unchecked (reports/mutation.md)."""

import dataclasses
import hashlib
import os
import shutil

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from pitchsim.study import parts
from pitchsim.study.batch import simulate
from pitchsim.study.checksum import checksum
from pitchsim.study.manifest import FRAME, SCHEMA, Part, RunError, read_manifest
from pitchsim.study.parts import _frame, fast_checksums, part_key, part_problem, read_part
from pitchsim.study.verified import VerifiedParts
from pitchsim.util.errors import InputError


@pytest.fixture(autouse=True)
def own_cache(tmp_path, monkeypatch):
    monkeypatch.setattr("pitchsim.study.verified.cache_folder", lambda: tmp_path / "verified")
    monkeypatch.setattr("pitchsim.study.verified.racy_seconds", lambda st: 0.0)


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    path = tmp_path_factory.mktemp("parts") / "run"
    simulate(path, 2000, [3], seed=5, part_size=1000)  # parts 0 (deals 0-999) and 1
    return path


@pytest.fixture
def run(made, tmp_path):
    return shutil.copytree(made, tmp_path / "run")


def hint(run):
    return f"; redo it with: pitchsim simulate --resume --out {run}"


def refusal(run, rec, columns=("points",), **kw):
    with pytest.raises(RunError) as e:
        read_part(run, rec, list(columns), **kw)
    return str(e.value)


# ---- part_problem: the writer's check before a resume ---------------------------------


def test_part_problem_names_each_problem(run):
    m = read_manifest(run)
    rec = m.parts[0]
    f = run / rec.part.file
    assert part_problem(run, rec) is None and part_problem(run, rec, True) is None
    pending = dataclasses.replace(rec, status="pending")
    assert part_problem(run, pending) == f"{f} is not finished"
    good = f.read_bytes()
    f.write_bytes(good[:-1])
    assert part_problem(run, rec) == (
        f"{f} is truncated or altered ({len(good) - 1:,} bytes, the manifest recorded "
        f"{len(good):,})"
    )
    f.write_bytes(good + b"\0")
    assert "is truncated or altered" in part_problem(run, rec)
    f.unlink()
    assert part_problem(run, rec) == f"{f} is missing"
    f.mkdir()
    assert part_problem(run, rec) == f"{f} is not a file"
    f.rmdir()
    altered = bytearray(good)
    altered[len(good) // 2] ^= 1
    f.write_bytes(bytes(altered))
    assert part_problem(run, rec) is None  # same size: only a checksum tells
    assert part_problem(run, rec, check_sum=True) == (
        f"{f} is altered (its checksum differs from the manifest's)"
    )
    # its SHA-256 right, its fast checksums not: a record edited, or another part's
    f.write_bytes(good)
    wrong = dataclasses.replace(rec, fast_checksums={**rec.fast_checksums, "points": "0" * 32})
    assert part_problem(run, wrong, True) == (
        f"{f} does not match the fast checksums its manifest records"
    )
    assert part_problem(run, wrong) is None  # without the hash, the size is all it checks


def test_part_problem_fills_in_the_fast_checksums_of_an_older_record(run):
    rec = read_manifest(run).parts[1]
    want = dict(rec.fast_checksums)
    rec.fast_checksums = None
    assert part_problem(run, rec) is None and rec.fast_checksums is None  # no hash, no fill
    assert part_problem(run, rec, check_sum=True) is None
    assert rec.fast_checksums == want


def test_part_problem_on_a_file_not_laid_out_by_pitchsim(run):
    rec = read_manifest(run).parts[0]
    f = run / rec.part.file
    junk = b"x" * rec.bytes  # the size recorded, and a SHA-256 to match it
    f.write_bytes(junk)
    rec.sha256 = hashlib.sha256(junk).hexdigest()
    assert part_problem(run, rec, True) == (
        f"{f} cannot be given fast checksums (it does not end as a Parquet file)"
    )


# ---- the frame: magic, footer length, magic -------------------------------------------


def test_the_frame_from_the_last_eight_bytes():
    def frame(body: bytes, footer_len: int):
        return _frame(memoryview(body + footer_len.to_bytes(4, "little") + b"PAR1"))

    assert frame(b"PAR1", 0) == (4, 12)  # the smallest: 12 bytes, an empty footer
    assert frame(b"PAR1" + b"f" * 5, 5) == (4, 17)
    assert frame(b"PAR1" + b"d" * 3 + b"f" * 5, 5) == (7, 20)
    assert frame(b"PAR1" + b"f" * 5, 6) is None  # the footer would start in the magic
    assert frame(b"PAR", 0) is None  # 11 bytes
    assert _frame(memoryview(b"PAR1" + bytes(4) + b"PAR2")) is None
    assert _frame(memoryview(b"PAR1" + bytes(4) + b"XAR1")) is None


def test_fast_checksums_by_hand_of_a_real_part(made):
    """Each region hashed by checksum() under the part's key, the regions found from
    pyarrow's metadata here, and together every byte of the file."""
    rec = read_manifest(made).parts[1]
    data = (made / rec.part.file).read_bytes()
    key = int(checksum(np.array([3, 1000, 1000], dtype="<i8"))[:16], 16)
    assert part_key(rec.part) == key
    meta = pq.ParquetFile(made / rec.part.file).metadata.row_group(0)
    want, covered = {}, 4
    for i in range(meta.num_columns):
        c = meta.column(i)
        a, b = c.data_page_offset, c.data_page_offset + c.total_compressed_size
        assert a == covered  # one after another, from byte 4
        want[c.path_in_schema] = checksum(memoryview(data)[a:b], key)
        covered = b
    want[FRAME] = checksum(data[:4] + data[covered:], key)
    assert fast_checksums(data, rec.part) == want == rec.fast_checksums
    # the key holds the player count, the first deal and the count, each
    for other in (Part(1, 4, 1000, 1000), Part(1, 3, 1001, 1000), Part(1, 3, 1000, 999)):
        assert part_key(other) != key
        assert fast_checksums(data, other)[FRAME] != want[FRAME]
    assert part_key(Part(9, 3, 1000, 1000)) == key  # not the index: a moved part's file
    with pytest.raises(ValueError, match="^it does not end as a Parquet file$"):
        fast_checksums(data[:-1], rec.part)


def test_fast_checksums_refuse_a_layout_with_a_gap(tmp_path):
    """pyarrow's own writer puts a dictionary page or a gap before the data pages: not a
    layout pitchsim writes."""
    table = pa.table({"deal": pa.array(np.arange(50), pa.int64())})
    pq.write_table(table, tmp_path / "p.parquet")
    with pytest.raises(ValueError, match="^its column chunks are not laid out one after another$"):
        fast_checksums((tmp_path / "p.parquet").read_bytes(), Part(0, 3, 0, 50))


# ---- read_part's refusals ------------------------------------------------------------


@pytest.mark.parametrize("verify", ["yes", 1, 0, None, "FULL"])
def test_verify_must_be_one_of_three(made, verify):
    rec = read_manifest(made).parts[0]
    with pytest.raises(InputError) as e:
        read_part(made, rec, ["points"], verify=verify)
    assert str(e.value) == f"verify must be True, False or 'full', not {verify!r}"


def test_read_part_refusals_whole(run):
    rec = read_manifest(run).parts[0]
    f = run / rec.part.file
    pending = dataclasses.replace(rec, status="pending")
    assert refusal(run, pending) == f"{f} is not finished" + hint(run)
    good = f.read_bytes()
    f.unlink()
    assert refusal(run, rec) == f"{f} is missing" + hint(run)
    os.mkfifo(f)  # opened without blocking, refused as not a file
    assert refusal(run, rec) == f"{f} is not a file" + hint(run)
    f.unlink()
    f.write_bytes(good[:-3])
    assert refusal(run, rec) == (
        f"{f} is truncated or altered ({len(good) - 3:,} bytes, the manifest recorded "
        f"{len(good):,})" + hint(run)
    )
    altered = bytearray(good)
    a, b = parts._chunks(pq.ParquetFile(pa.BufferReader(good)).metadata)["points"]
    altered[(a + b) // 2] ^= 2
    f.write_bytes(bytes(altered))
    altered_line = f"{f} is altered (its checksum differs from the manifest's)" + hint(run)
    for verify in (True, "full"):
        assert refusal(run, rec, verify=verify) == altered_line
    assert refusal(run, dataclasses.replace(rec, fast_checksums=None)) == altered_line
    # not read, not checked: another column of the same file passes
    assert read_part(run, rec, ["high"]).num_rows == 1000


def test_a_part_of_the_right_size_and_checksum_but_another_parts_deals(run):
    """Part 1's file in part 0's place, its record edited to match (a bookkeeping slip):
    the whole check reads the deals and player counts and says whose they are."""
    m = read_manifest(run)
    r0, r1 = m.parts
    (run / r0.part.file).write_bytes((run / r1.part.file).read_bytes())
    slipped = dataclasses.replace(r0, bytes=r1.bytes, sha256=r1.sha256, fast_checksums=None)
    assert refusal(run, slipped) == (
        f"{run / r0.part.file} holds deals 1,000-1,999 at 3-3 players, not part 0's deals "
        "0-999 at 3" + hint(run)
    )
    # by fast checksums the key (players, deals) already tells
    slipped = dataclasses.replace(r0, bytes=r1.bytes, fast_checksums=r1.fast_checksums)
    assert "is altered" in refusal(run, slipped)


def test_a_whole_check_returns_only_the_columns_asked_for(made):
    rec = read_manifest(made).parts[1]
    t = read_part(made, dataclasses.replace(rec, fast_checksums=None), ["points", "high"])
    assert t.column_names == ["points", "high"] and t.num_rows == 1000
    full = read_part(made, rec, ["deal"], verify="full")
    assert full.column("deal").to_pylist() == list(range(1000, 2000))


def test_the_row_count_and_types_are_checked(run):
    rec = read_manifest(run).parts[0]
    f = run / rec.part.file
    for verify in (False, "full"):  # read by pyarrow from the file, or from memory
        with pytest.raises(RunError) as e:
            read_part(run, dataclasses.replace(rec, rows=999), ["points"], verify=verify)
        assert str(e.value) == f"{f} holds 1,000 deals, not 999" + hint(run)
    # a file written by someone else, with points as int64: its type is named
    table = pq.read_table(f).set_column(
        SCHEMA.get_field_index("points"),
        "points",
        pa.array(np.zeros(1000, dtype=np.int64)),
    )
    pq.write_table(table, f)
    other = dataclasses.replace(rec, bytes=f.stat().st_size)
    with pytest.raises(RunError) as e:
        read_part(run, other, ["deal", "points"], verify=False)
    assert str(e.value) == f"{f}: column points has type int64, not uint8" + hint(run)


def test_an_unverified_read_checks_each_columns_range(run):
    """--no-verify: values a column cannot hold are refused, whatever the column read."""
    rec = read_manifest(run).parts[0]
    f = run / rec.part.file
    table = pq.read_table(f)
    i = SCHEMA.get_field_index("trump")
    trump = table.column("trump").to_numpy().copy()
    trump[500] = 4  # one value past spades
    pq.write_table(table.set_column(i, SCHEMA.field(i), pa.array(trump, pa.int8())), f)
    rec = dataclasses.replace(rec, bytes=f.stat().st_size)
    with pytest.raises(RunError) as e:
        read_part(run, rec, ["points", "trump"], verify=False)
    lo = int(trump.min())
    assert str(e.value) == (
        f"{f}: column trump holds {lo}-4, outside 0-3: the part is damaged" + hint(run)
    )
    # columns without a range (hand, high) are read as they are
    assert read_part(run, rec, ["points", "hand", "high"], verify=False).num_rows == 1000
    trump[500] = 0
    trump[0] = -1
    pq.write_table(table.set_column(i, SCHEMA.field(i), pa.array(trump, pa.int8())), f)
    rec = dataclasses.replace(rec, bytes=f.stat().st_size)
    assert "column trump holds -1-" in refusal(run, rec, ["trump"], verify=False)


def test_an_unverified_read_of_the_edges_of_each_range_passes(run):
    rec = read_manifest(run).parts[0]
    f = run / rec.part.file
    table = pq.read_table(f)
    from pitchsim.study.manifest import VALUE_RANGES

    for name, (lo, hi) in VALUE_RANGES.items():
        i = SCHEMA.get_field_index(name)
        values = table.column(name).to_numpy().copy()
        values[0], values[1] = lo, hi
        table = table.set_column(i, SCHEMA.field(i), pa.array(values, SCHEMA.field(i).type))
    pq.write_table(table, f)
    rec = dataclasses.replace(rec, bytes=f.stat().st_size)
    got = read_part(run, rec, list(VALUE_RANGES), verify=False)
    assert got.num_rows == 1000


def test_what_a_read_remembers(run):
    """A fast read remembers the columns it checked; a whole check the whole file; an
    unverified read nothing."""
    m = read_manifest(run)
    rec = m.parts[0]
    st = os.stat(run / rec.part.file)
    known = VerifiedParts(run)
    read_part(run, rec, ["points"], verify=False, known=known)
    assert not known.holds(st, rec, ["points"])
    read_part(run, rec, ["points", "high"], known=known)
    assert known.holds(st, rec, ["points"]) and known.holds(st, rec, ["high", "points"])
    assert not known.holds(st, rec, ["deal"]) and not known.holds(st, rec)
    known.save()
    read_part(run, rec, ["points"], known=known)  # known: nothing new to remember or save
    assert not known.changed
    read_part(run, rec, ["points"], verify="full", known=known)
    assert known.holds(st, rec) and known.holds(st, rec, ["deal"])
    old = dataclasses.replace(m.parts[1], fast_checksums=None)
    st1 = os.stat(run / old.part.file)
    read_part(run, old, ["points"], known=known)
    assert known.holds(st1, old)


def test_an_unverified_read_of_a_file_changed_meanwhile(run, monkeypatch):
    rec = read_manifest(run).parts[0]
    f = run / rec.part.file
    real = parts._decode

    def touched(*args):
        t = real(*args)
        os.utime(f, ns=(1, 1))
        return t

    monkeypatch.setattr(parts, "_decode", touched)
    assert refusal(run, rec, verify=False) == f"{f} changed while it was read: try again"


def test_fast_checksums_refuse_a_chunk_that_does_not_start_where_the_last_ended(made, tmp_path):
    """Every column there and the last chunk ending where the footer starts, but one
    chunk with a dictionary page ahead of its data: its first data byte is not where the
    chunk before it ended (the dictionary's bytes would have no checksum)."""
    rec = read_manifest(made).parts[0]
    p = tmp_path / "p.parquet"
    pq.write_table(
        pq.read_table(made / rec.part.file),
        p,
        use_dictionary=["trump"],
        compression="NONE",
        write_statistics=False,
        write_page_index=False,
        store_schema=False,
    )
    data = p.read_bytes()
    chunks = parts._chunks(pq.ParquetFile(p).metadata)
    assert max(b for _, b in chunks.values()) == _frame(memoryview(data))[0]  # as planned
    starts = sorted(a for a, _ in chunks.values())
    assert starts != [4] + sorted(b for _, b in chunks.values())[:-1]
    with pytest.raises(ValueError, match="^its column chunks are not laid out one after another$"):
        fast_checksums(data, rec.part)
