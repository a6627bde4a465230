"""The memory of verified parts (pitchsim/study/verified.py): every way a part file can
change, and every change to the manifest's record of the part, makes it forget the
part, so the next read hashes it again.  One test per way, each checked both in the
memory that remembered the part and in a fresh one read back from its JSON file; and
two of them end to end, where a read that trusted a stale memory would return
altered data."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import shutil
import types

import pytest

from pitchsim.study import verified
from pitchsim.study.batch import simulate
from pitchsim.study.manifest import MANIFEST, SCHEMA, Part, PartRecord, RunError, read_manifest
from pitchsim.study.parts import read_part
from pitchsim.study.verified import VerifiedParts

SIZE = 4096
COLUMNS = list(SCHEMA.names)  # every column: a flipped byte anywhere is read


@pytest.fixture
def memory(tmp_path, monkeypatch):
    """A memory of this test's own, trusting a file as soon as it is written (the racy
    window is tested on its own below)."""
    monkeypatch.setattr(verified, "cache_folder", lambda: tmp_path / "cache")
    monkeypatch.setattr(verified, "racy_seconds", lambda st: 0.0)
    return tmp_path / "cache"


def make_part(run, index, fill):
    run.mkdir(exist_ok=True)
    data = bytes((fill + 7 * i) % 256 for i in range(SIZE))
    part = Part(index, 4, 1000 * index, 1000)
    (run / part.file).write_bytes(data)
    rec = PartRecord(
        part,
        "done",
        1000,
        SIZE,
        hashlib.sha256(data).hexdigest(),
        {"frame": f"f{index}", "points": f"p{index}", "high": f"h{index}"},
    )
    return run / part.file, rec


def remember(run, f, rec, columns=None):
    known = VerifiedParts(run)
    known.add(os.stat(f), rec, columns)
    known.save()
    assert known.holds(os.stat(f), rec, columns)
    assert VerifiedParts(run).holds(os.stat(f), rec, columns)  # read back from its file
    return known


def forgotten(run, f, rec, known, columns=None):
    st = os.stat(f)
    return not known.holds(st, rec, columns) and not VerifiedParts(run).holds(st, rec, columns)


def set_times(f, st):
    os.utime(f, ns=(st.st_atime_ns, st.st_mtime_ns))


@pytest.fixture
def part(tmp_path, memory):
    run = tmp_path / "run"
    f, rec = make_part(run, 0, 1)
    other, other_rec = make_part(run, 1, 2)
    return types.SimpleNamespace(run=run, f=f, rec=rec, other=other, other_rec=other_rec)


def test_an_unchanged_part_stays_known(part):
    known = remember(part.run, part.f, part.rec)
    os.stat(part.f)
    part.f.read_bytes()  # reading it changes nothing
    assert known.holds(os.stat(part.f), part.rec)
    assert VerifiedParts(part.run).holds(os.stat(part.f), part.rec)


def test_rewritten_with_the_same_size(part):
    known = remember(part.run, part.f, part.rec)
    with open(part.f, "r+b") as fh:
        fh.seek(100)
        fh.write(b"\x00\x01\x02\x03")
    assert os.stat(part.f).st_size == SIZE
    assert forgotten(part.run, part.f, part.rec, known)


def test_rewritten_with_the_same_size_and_its_time_touched_back(part):
    known = remember(part.run, part.f, part.rec)
    before = os.stat(part.f)
    with open(part.f, "r+b") as fh:
        fh.seek(100)
        fh.write(b"\x00\x01\x02\x03")
    set_times(part.f, before)
    after = os.stat(part.f)
    assert (after.st_size, after.st_mtime_ns, after.st_ino) == (
        before.st_size,
        before.st_mtime_ns,
        before.st_ino,
    )
    assert forgotten(part.run, part.f, part.rec, known)  # the status change time tells


def test_only_its_time_touched_back(part):
    known = remember(part.run, part.f, part.rec)
    st = os.stat(part.f)
    os.utime(part.f, ns=(st.st_atime_ns, st.st_mtime_ns - 10**9))
    assert forgotten(part.run, part.f, part.rec, known)


def test_truncated_and_extended_back(part):
    known = remember(part.run, part.f, part.rec)
    before = os.stat(part.f)
    os.truncate(part.f, 0)
    os.truncate(part.f, SIZE)
    set_times(part.f, before)
    assert os.stat(part.f).st_size == SIZE
    assert forgotten(part.run, part.f, part.rec, known)


@pytest.mark.parametrize("copy", [shutil.copyfile, shutil.copy2])
def test_another_part_copied_over_it(part, copy):
    known = remember(part.run, part.f, part.rec)
    before = os.stat(part.f)
    copy(part.other, part.f)  # copy2 brings the other part's times along
    assert os.stat(part.f).st_size == SIZE and os.stat(part.f).st_ino == before.st_ino
    assert forgotten(part.run, part.f, part.rec, known)
    set_times(part.f, before)
    assert forgotten(part.run, part.f, part.rec, known)


def test_another_file_renamed_over_it(part):
    known = remember(part.run, part.f, part.rec)
    before = os.stat(part.f)
    tmp = part.run / "incoming"
    shutil.copyfile(part.f, tmp)  # the very same bytes, and the same times
    set_times(tmp, before)
    os.replace(tmp, part.f)
    assert os.stat(part.f).st_ino != before.st_ino
    assert forgotten(part.run, part.f, part.rec, known)


def test_another_part_renamed_over_it(part):
    known = remember(part.run, part.f, part.rec)
    remember(part.run, part.other, part.other_rec)
    os.replace(part.other, part.f)
    assert forgotten(part.run, part.f, part.rec, known)


IDENTITY = ("st_dev", "st_ino", "st_size", "st_mtime_ns", "st_ctime_ns")


@pytest.mark.parametrize("field", IDENTITY)
def test_each_part_of_the_files_identity_counts(part, field):
    """A file system where only this one field tells the change (e.g. another file with
    the same times on another device, or a clock too coarse to move): it must."""
    st = os.stat(part.f)
    same = types.SimpleNamespace(**{k: getattr(st, k) for k in IDENTITY})
    known = VerifiedParts(part.run)
    known.add(same, part.rec)
    known.save()
    assert known.holds(same, part.rec) and VerifiedParts(part.run).holds(same, part.rec)
    moved = types.SimpleNamespace(**{**vars(same), field: getattr(st, field) + 1})
    assert not known.holds(moved, part.rec)
    assert not VerifiedParts(part.run).holds(moved, part.rec)


@pytest.mark.parametrize(
    "change",
    [
        lambda r: dataclasses.replace(r, sha256="0" * 64),
        lambda r: dataclasses.replace(r, fast_checksums={**r.fast_checksums, "points": "other"}),
        lambda r: dataclasses.replace(r, fast_checksums=None),
        lambda r: dataclasses.replace(r, part=dataclasses.replace(r.part, players=5)),
        lambda r: dataclasses.replace(r, part=dataclasses.replace(r.part, start=1)),
        lambda r: dataclasses.replace(r, part=dataclasses.replace(r.part, count=999)),
    ],
    ids=["sha256", "a-fast-checksum", "no-fast-checksums", "players", "start", "count"],
)
def test_a_change_to_the_manifests_record_of_the_part(part, change):
    known = remember(part.run, part.f, part.rec)
    new = change(part.rec)
    assert new.part.file == part.rec.part.file
    assert forgotten(part.run, part.f, new, known)
    assert not known.holds(os.stat(part.f), new, ["points"])


def test_columns_are_remembered_as_checked_and_no_more(part):
    known = remember(part.run, part.f, part.rec, ["points"])
    st = os.stat(part.f)
    assert known.holds(st, part.rec, ["points"])
    assert not known.holds(st, part.rec, ["points", "high"])
    assert not known.holds(st, part.rec, None)  # a whole check is more than one column
    known.add(st, part.rec, ["high"])
    assert known.holds(st, part.rec, ["points", "high"]) and known.holds(st, part.rec, [])
    # After a change, the columns checked before do not carry over to the new file.
    with open(part.f, "r+b") as fh:
        fh.write(b"changed")
    st = os.stat(part.f)
    known.add(st, part.rec, ["frame"])
    assert known.holds(st, part.rec, ["frame"])
    assert not known.holds(st, part.rec, ["points"]) and not known.holds(st, part.rec, ["high"])
    known.add(st, part.rec, None)
    assert known.holds(st, part.rec, ["points", "high", "deal"]) and known.holds(st, part.rec)


def test_a_part_of_one_run_is_not_known_in_another(part, tmp_path):
    remember(part.run, part.f, part.rec)
    moved = tmp_path / "moved"
    shutil.copytree(part.run, moved, copy_function=shutil.copy2)
    assert not VerifiedParts(moved).holds(os.stat(moved / part.rec.part.file), part.rec)


def test_a_file_changed_within_the_racy_window_is_not_remembered(tmp_path, monkeypatch):
    monkeypatch.setattr(verified, "cache_folder", lambda: tmp_path / "cache")
    run = tmp_path / "run"
    f, rec = make_part(run, 0, 1)
    st = os.stat(f)
    window = verified.racy_seconds(st)
    ctime = st.st_ctime_ns / 1e9
    for after, kept in ((0.0, False), (window * 0.99, False), (window * 1.01, True)):
        monkeypatch.setattr(verified.time, "time", lambda after=after: ctime + after)
        known = VerifiedParts(run)
        known.add(st, rec)
        assert known.holds(st, rec) is kept, after


def test_the_racy_window_follows_the_clocks_grain():
    fine = types.SimpleNamespace(st_ctime_ns=1_700_000_000_000_000_001)
    coarse = types.SimpleNamespace(st_ctime_ns=1_700_000_000_000_000_000)
    assert verified.racy_seconds(fine) == verified.FINE_RACY_SECONDS == 0.25
    assert verified.racy_seconds(coarse) == verified.RACY_SECONDS == 2.0


def test_an_unreadable_memory_is_no_memory(part):
    remember(part.run, part.f, part.rec)
    known = VerifiedParts(part.run)
    known.file.write_text("{not json")
    assert not VerifiedParts(part.run).holds(os.stat(part.f), part.rec)
    known.file.write_text(json.dumps({"parts": {part.rec.part.file: "not a list"}}))
    assert not VerifiedParts(part.run).holds(os.stat(part.f), part.rec)


# ---- end to end: a read never trusts a stale memory -------------------------------------


@pytest.fixture(scope="module")
def small_run(tmp_path_factory):
    path = tmp_path_factory.mktemp("verified_run") / "run"
    simulate(path, 2000, [4], seed=5, part_size=1000)
    return path


def test_read_after_a_same_size_rewrite_touched_back_fails(small_run, tmp_path, memory):
    run = tmp_path / "run"
    shutil.copytree(small_run, run)
    rec = read_manifest(run).parts[0]
    known = VerifiedParts(run)
    read_part(run, rec, COLUMNS, known=known)
    known.save()
    assert VerifiedParts(run).holds(os.stat(run / rec.part.file), rec, COLUMNS)
    f = run / rec.part.file
    before = os.stat(f)
    data = bytearray(f.read_bytes())
    data[len(data) // 2] ^= 0xFF
    f.write_bytes(bytes(data))
    set_times(f, before)
    with pytest.raises(RunError, match="altered|checksum|cannot be read"):
        read_part(run, rec, COLUMNS, known=VerifiedParts(run))


def test_read_after_the_manifest_record_changes_checks_again(small_run, tmp_path, memory):
    run = tmp_path / "run"
    shutil.copytree(small_run, run)
    rec = read_manifest(run).parts[1]
    known = VerifiedParts(run)
    read_part(run, rec, ["points"], known=known)
    known.save()
    doc = json.loads((run / MANIFEST).read_text())
    entry = next(p for p in doc["parts"] if p["file"] == rec.part.file)
    entry["fast_checksums"]["points"] = "0" * len(entry["fast_checksums"]["points"])
    (run / MANIFEST).write_text(json.dumps(doc))
    changed = next(r for r in read_manifest(run).parts if r.part.file == rec.part.file)
    with pytest.raises(RunError):
        read_part(run, changed, ["points"], known=VerifiedParts(run))


def test_the_memory_lives_in_the_users_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert verified.cache_folder() == tmp_path / "xdg" / "pitchsim" / "verified"
    monkeypatch.setenv("XDG_CACHE_HOME", "")  # empty: as if unset
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert verified.cache_folder() == tmp_path / "home" / ".cache" / "pitchsim" / "verified"


def test_one_small_file_per_run_folder_and_nothing_written_unchanged(part, memory):
    known = remember(part.run, part.f, part.rec)
    files = list(memory.iterdir())
    assert files == [known.file] and known.file.suffix == ".json"
    doc = json.loads(known.file.read_text())
    assert list(doc["parts"]) == [part.rec.part.file]
    mtime = known.file.stat().st_mtime_ns
    again = VerifiedParts(part.run)
    again.save()  # nothing new: not written
    assert known.file.stat().st_mtime_ns == mtime and not again.changed


def test_an_unwritable_cache_means_hashing_again_not_an_error(part, tmp_path, monkeypatch):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    monkeypatch.setattr(verified, "cache_folder", lambda: blocker / "verified")
    known = VerifiedParts(part.run)
    known.add(os.stat(part.f), part.rec)
    known.save()  # cannot write: silently forgotten
    assert not VerifiedParts(part.run).holds(os.stat(part.f), part.rec)


def test_runs_keep_memories_of_their_own(tmp_path, memory):
    """Two run folders with parts of the same name: remembering one forgets nothing of
    the other."""
    a, b = tmp_path / "a" / "run", tmp_path / "b" / "run"
    a.parent.mkdir()
    b.parent.mkdir()
    fa, ra = make_part(a, 0, 1)
    fb, rb = make_part(b, 0, 2)
    remember(a, fa, ra)
    remember(b, fb, rb)
    assert VerifiedParts(a).holds(os.stat(fa), ra) and VerifiedParts(b).holds(os.stat(fb), rb)
    assert VerifiedParts(a).file != VerifiedParts(b).file


def test_a_run_folder_whose_name_is_not_utf8(tmp_path, memory):
    run = tmp_path / "run-\udcff"  # a byte that is not UTF-8, as os.fsdecode gives it
    f, rec = make_part(run, 0, 1)
    remember(run, f, rec)


def test_a_memory_file_of_the_wrong_shape_is_no_memory(part):
    remember(part.run, part.f, part.rec)
    known = VerifiedParts(part.run)
    for doc in ({"parts": [1, 2]}, [1, 2], {"parts": None}, "text"):
        known.file.write_text(json.dumps(doc))
        assert not VerifiedParts(part.run).holds(os.stat(part.f), part.rec)


def test_a_whole_check_is_not_narrowed_by_a_later_column_check(part):
    known = remember(part.run, part.f, part.rec)  # all of it
    known.add(os.stat(part.f), part.rec, ["points"])
    assert known.holds(os.stat(part.f), part.rec)  # still all of it
    assert known.holds(os.stat(part.f), part.rec, ["deal", "high"])


def test_the_cache_folder_is_made_with_its_parents(part, tmp_path, monkeypatch):
    monkeypatch.setattr(verified, "cache_folder", lambda: tmp_path / "x" / "y" / "verified")
    remember(part.run, part.f, part.rec)
    assert (tmp_path / "x" / "y" / "verified").is_dir()


def test_saving_twice_writes_once(part):
    known = remember(part.run, part.f, part.rec)
    assert not known.changed
    before = known.file.stat().st_mtime_ns
    os.utime(known.file, ns=(before - 10**9, before - 10**9))
    known.save()
    assert known.file.stat().st_mtime_ns == before - 10**9
