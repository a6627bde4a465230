"""Playing a run: every refusal of simulate and resume as its whole line, the folders a
start makes and unmakes, the disk-space arithmetic by hand, scheduler addresses, and a
resume's replay of the first deals.  The mutation run over study/batch.py found these
unchecked (reports/mutation.md)."""

import hashlib
import json
import os
import shutil
from types import SimpleNamespace

import pyarrow.parquet as pq
import pytest

from pitchsim.study import batch
from pitchsim.study.batch import (
    _check_space,
    _is_address,
    _make_folder,
    _scheduler,
    check_threads,
    part_buffers,
    part_bytes,
    part_table,
    resume,
    simulate,
    simulate_part,
)
from pitchsim.study.manifest import COLUMNS, MANIFEST, SCHEMA, Part, RunError, read_manifest
from pitchsim.study.runlock import LOCK
from pitchsim.util.atomic import WriteError
from pitchsim.util.errors import InputError
from pitchsim.util.runtime import max_threads


@pytest.fixture(autouse=True)
def own_cache(tmp_path, monkeypatch):
    monkeypatch.setattr("pitchsim.study.verified.cache_folder", lambda: tmp_path / "verified")


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    path = tmp_path_factory.mktemp("batch") / "run"
    simulate(path, 2500, [3], seed=7, part_size=1000)  # parts of 1,000, 1,000 and 500
    return path


def copy_run(run, to):
    return shutil.copytree(run, to)


@pytest.mark.parametrize("threads", [0, -1, True, 1.0, "1", 10**6])
def test_threads_refused(threads):
    with pytest.raises(InputError) as e:
        check_threads(threads)
    assert str(e.value) == f"threads must be 1-{max_threads()}, not {threads}"


def test_threads_accepted_at_the_edges():
    for threads in (None, 1, max_threads()):
        check_threads(threads)
    with pytest.raises(InputError):
        check_threads(max_threads() + 1)


@pytest.mark.parametrize("size", [999, (1 << 24) + 1, True, 1000.0, "1000"])
def test_part_size_refused_whole(tmp_path, size):
    with pytest.raises(InputError) as e:
        simulate(tmp_path / "r", 10, 3, seed=1, part_size=size)
    assert str(e.value) == f"part size must be 1,000-16,777,216 deals, not {size}"
    assert not (tmp_path / "r").exists()


def test_the_run_directory_refusals(tmp_path, made):
    for empty in ("", "  "):
        with pytest.raises(InputError) as e:
            simulate(empty, 10, 3, seed=1)
        assert str(e.value) == "the run directory is empty"
    with pytest.raises(RunError) as e:
        simulate(made, 10, 3, seed=1)
    assert str(e.value) == (
        f"{made} already holds a run: use --resume to finish it, or another --out"
    )
    (tmp_path / "file").write_text("x")
    with pytest.raises(RunError) as e:
        simulate(tmp_path / "file", 10, 3, seed=1)
    assert str(e.value) == (
        f"{tmp_path / 'file'} exists and is not an empty directory; choose another --out"
    )
    # a folder holding only a lock file (a start that was interrupted) is taken
    (tmp_path / "locked").mkdir()
    (tmp_path / "locked" / LOCK).write_text("")
    simulate(tmp_path / "locked", 1000, 3, seed=1, part_size=1000)
    assert read_manifest(tmp_path / "locked").complete()
    (tmp_path / "empty").mkdir()
    simulate(str(tmp_path / "empty"), 1000, 3, seed=1, part_size=1000)


def test_a_start_makes_its_missing_parents_and_a_failed_start_removes_only_them(tmp_path):
    (tmp_path / "a").mkdir()
    created = _make_folder(tmp_path / "a" / "b" / "c" / "d")
    assert created == [tmp_path / "a" / "b", tmp_path / "a" / "b" / "c", tmp_path / "a/b/c/d"]
    assert (tmp_path / "a/b/c/d").is_dir()
    assert _make_folder(tmp_path / "a") == []
    (tmp_path / "f").write_text("x")
    with pytest.raises(WriteError, match=f"^cannot create {tmp_path / 'f' / 'r'}: "):
        _make_folder(tmp_path / "f" / "r")
    # a lock that cannot be taken once the folders are made: the new ones go, the old
    # one stays
    (tmp_path / "old").mkdir()
    out = tmp_path / "old" / "new" / "run"

    def no_lock(path, note):
        raise RunError("locked")

    real = batch.run_lock
    batch.run_lock = no_lock
    try:
        with pytest.raises(RunError, match="^locked$"):
            simulate(out, 10, 3, seed=1)
    finally:
        batch.run_lock = real
    assert (tmp_path / "old").is_dir() and not (tmp_path / "old" / "new").exists()


def test_disk_space_by_hand(tmp_path, monkeypatch):
    """26 bytes a deal: 10**8 deals need 2.6 GB."""

    def statvfs(blocks, size):
        return lambda p: SimpleNamespace(f_bavail=blocks, f_frsize=size)

    monkeypatch.setattr(batch.os, "statvfs", statvfs(1_000, 1_000_000))  # 1.0 GB free
    with pytest.raises(InputError) as e:
        _check_space(tmp_path / "x" / "y", 10**8)
    assert str(e.value) == (
        f"100,000,000 deals need about 2.6 GB on disk and {tmp_path} has 1.0 GB free: "
        "free some space or ask for fewer deals"
    )
    _check_space(tmp_path, 38_461_538)  # 26 bytes short of 1.0 GB: enough
    with pytest.raises(InputError):
        _check_space(tmp_path, 38_461_539)  # 14 bytes over
    monkeypatch.setattr(batch.os, "statvfs", statvfs(2_600, 1_000_000))
    _check_space(tmp_path, 10**8)

    def unknown(p):
        raise OSError("no statvfs here")

    monkeypatch.setattr(batch.os, "statvfs", unknown)
    _check_space(tmp_path, 10**9)  # cannot tell: not refused
    # simulate checks it for every player count's deals before making the folder
    monkeypatch.setattr(batch.os, "statvfs", statvfs(26 * 6000 - 1, 1))
    with pytest.raises(InputError, match="^6,000 deals need about 0.0 GB"):
        simulate(tmp_path / "r", 3000, [3, 4], seed=1)
    assert not (tmp_path / "r").exists()


@pytest.mark.parametrize(
    "address",
    [
        "tcp://127.0.0.1:8786",
        "127.0.0.1:8786",
        "scheduler",
        "host.example.org",
        "tls://host:1",
        "ws://host:65535",
        "[::1]:8786",
        "tcp://[fe80::1]:8786",
        "inproc://h/path",
        "my_host-2:80/x",
    ],
)
def test_scheduler_addresses_accepted(address):
    assert _is_address(address)


@pytest.mark.parametrize(
    "address",
    ["", "host:0", "host:65536", "host:99999", "host:", "a b", "http://host:80", "h:1:2", 8786],
)
def test_scheduler_addresses_refused(address):
    assert not _is_address(address)


def test_a_bad_scheduler_address_is_one_line_before_dask_is_touched():
    with pytest.raises(InputError) as e:
        with _scheduler("a b"):
            pass
    assert str(e.value) == "--scheduler 'a b' is not an address: use e.g. tcp://host:8786"
    with _scheduler(None) as client:
        assert client is None


def test_part_buffers_and_tables():
    b = part_buffers(10)
    assert list(b) == [name for name, _, _ in COLUMNS]
    assert all(a.size == 10 for a in b.values())
    for name, typ, _ in COLUMNS:
        assert b[name].dtype == typ.to_pandas_dtype()


def test_a_part_played_alone_equals_the_stored_one_whatever_the_buffers(made):
    m = read_manifest(made)
    rec = m.parts[1]
    stored = pq.read_table(made / rec.part.file)
    small = part_buffers(10)  # too small for the part: new ones are made
    columns = simulate_part(rec.part, m.params, buffers=small)
    assert list(columns) == SCHEMA.names and part_table(columns).equals(stored)
    assert part_table(simulate_part(rec.part, m.params, threads=1)).equals(stored)
    heard = []
    simulate_part(Part(0, 3, 1000, 1000), m.params, progress=heard.append)
    assert sum(heard) == 1000
    # a Dask worker's bytes are the stored file's, reusing its memory part to part
    assert part_bytes(rec.part, m.params) == (made / rec.part.file).read_bytes()
    last = m.parts[2]
    assert part_bytes(last.part, m.params) == (made / last.part.file).read_bytes()
    first = m.parts[0]
    assert part_bytes(first.part, m.params) == (made / first.part.file).read_bytes()


def test_a_run_is_counted_and_its_progress_heard(tmp_path):
    heard = []
    r = simulate(tmp_path / "r", 2500, [3, 4], seed=7, part_size=1000, progress=heard.append)
    assert (r.parts_run, r.deals_run) == (6, 5000) and sum(heard) == 5000
    assert r.path == tmp_path / "r" and r.manifest.complete()
    assert [p.rows for p in r.manifest.parts] == [1000, 1000, 500] * 2


def test_resume_of_a_complete_run_writes_nothing(made, tmp_path):
    run = copy_run(made, tmp_path / "run")
    before = {p.name: p.stat().st_mtime_ns for p in run.iterdir()}
    r = resume(run)
    assert (r.parts_run, r.deals_run) == (0, 0) and r.manifest.complete()
    assert {p.name: p.stat().st_mtime_ns for p in run.iterdir()} == before


def test_resume_of_an_older_run_records_its_fast_checksums_or_says_why_not(made, tmp_path):
    new = json.loads((made / MANIFEST).read_text())

    def old_run(name):
        run = copy_run(made, tmp_path / name)
        doc = json.loads((run / MANIFEST).read_text())
        doc["format"] = "pitchsim-run/1"
        for p in doc["parts"]:
            del p["fast_checksums"]
        (run / MANIFEST).write_text(json.dumps(doc))
        return run

    run = old_run("a")
    assert resume(run).parts_run == 0
    assert json.loads((run / MANIFEST).read_text()) == new
    # a run that cannot be written: left as it is, with a note
    run = old_run("b")
    before = (run / MANIFEST).read_text()
    notes = []

    def locked(path, note):
        raise RunError(f"{path} is being written by process 1")

    real = batch.run_lock
    batch.run_lock = locked
    try:
        assert resume(run, note=notes.append).parts_run == 0
    finally:
        batch.run_lock = real
    assert (run / MANIFEST).read_text() == before
    assert notes == [
        f"the fast checksums of {run}'s parts were not recorded ({run} is being written by "
        "process 1); its reads check SHA-256 instead"
    ]
    # without a note to tell, still no exception
    batch.run_lock = locked
    try:
        assert resume(old_run("c")).parts_run == 0
    finally:
        batch.run_lock = real


def test_resume_replays_the_first_thousand_deals_of_the_first_done_part(made, tmp_path):
    run = copy_run(made, tmp_path / "run")
    os.remove(run / "part-000002.parquet")
    replayed = []
    real = batch.simulate_part

    def seen(part, params, *args, **kwargs):
        replayed.append(part)
        return real(part, params, *args, **kwargs)

    batch.simulate_part = seen
    try:
        heard = []
        r = resume(run, on_damaged=heard.append)
    finally:
        batch.simulate_part = real
    # the replay: part 0's first 1,000 deals (SAMPLE_DEALS); then part 2 played again
    assert replayed == [Part(0, 3, 0, 1000), Part(2, 3, 2000, 500)]
    assert (r.parts_run, r.deals_run) == (1, 500)
    assert heard == [f"{run / 'part-000002.parquet'} is missing: redoing it"]
    assert (run / "part-000002.parquet").read_bytes() == (made / "part-000002.parquet").read_bytes()


def test_a_changed_simulator_is_refused_in_one_line(made, tmp_path, monkeypatch):
    run = copy_run(made, tmp_path / "run")
    os.remove(run / "part-000001.parquet")
    real = batch.simulate_part

    def changed(part, params, *args, **kwargs):
        columns = real(part, params, *args, **kwargs)
        points = columns["points"].copy()
        points[-1] ^= 1  # the last of the 1,000 deals replayed differs
        return {**columns, "points": points}

    monkeypatch.setattr(batch, "simulate_part", changed)
    with pytest.raises(RunError) as e:
        resume(run)
    version = read_manifest(run).version
    assert str(e.value) == (
        f"this pitchsim ({batch._package_version()}) plays part-000000.parquet's deals "
        f"differently from the one that started {run} ({version}): finishing the run would "
        "mix two simulators; start a new run instead"
    )


def test_storing_another_parts_bytes_under_a_parts_name_is_refused(made, tmp_path):
    run = copy_run(made, tmp_path / "run")
    m = read_manifest(run)
    rec = m.parts[0]
    with pytest.raises(RunError) as e:
        batch._store(run, rec, (made / "part-000001.parquet").read_bytes())
    assert str(e.value) == (
        f"{run / 'part-000000.parquet'} holds deals 1,000-1,999 at 3-3 players, not part 0's "
        "deals 0-999 at 3"
    )
    data = (made / "part-000000.parquet").read_bytes()
    recorded = read_manifest(made).parts[0]
    rec.forget()
    batch._store(run, rec, data)
    assert (rec.status, rec.rows, rec.bytes) == ("done", 1000, len(data))
    assert rec.sha256 == hashlib.sha256(data).hexdigest()
    assert rec.fast_checksums == recorded.fast_checksums
    assert (run / "part-000000.parquet").read_bytes() == data


def test_a_part_longer_than_a_kernel_chunk_reports_each_chunk(made):
    """Progress is told per kernel call: a chunk's deals, not where it ends."""
    from pitchsim.util.runtime import CHUNK

    params = read_manifest(made).params
    heard = []
    simulate_part(Part(0, 3, 0, CHUNK + 10), params, progress=heard.append)
    assert heard == [CHUNK, 10]


def test_a_run_with_a_scheduler_plays_its_parts_there(tmp_path, monkeypatch):
    distributed = pytest.importorskip("distributed")

    def not_here(*args):
        raise AssertionError("played locally although a scheduler was given")

    monkeypatch.setattr(batch, "_run_local", not_here)
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None
    ) as cluster:
        r = simulate(
            tmp_path / "d", 1000, 3, seed=7, part_size=1000, scheduler=cluster.scheduler_address
        )
    assert r.parts_run == 1 and read_manifest(tmp_path / "d").complete()
