"""How a run's parts are checked on their first read: by the fast checksums its
manifest records (pitchsim-run/2) of the frame and of every column chunk read, by
SHA-256 for a run written before there were any (pitchsim-run/1) or when asked
(--full-check); both manifest formats validate, and nothing in between does."""

import hashlib
import json
import shutil

import numpy as np
import pytest
from test_reliability import cli, one_line_error

from pitchsim.study import manifest, parts
from pitchsim.study.analysis import Run, make_table
from pitchsim.study.batch import resume, simulate
from pitchsim.study.manifest import FRAME, MANIFEST, RunError, read_manifest
from pitchsim.study.parts import fast_checksums, read_part
from pitchsim.study.verified import VerifiedParts
from pitchsim.util.errors import InputError


@pytest.fixture(autouse=True)
def own_cache(tmp_path, monkeypatch):
    """A memory of verified parts of each test's own: every read starts as a first read."""
    monkeypatch.setattr("pitchsim.study.verified.cache_folder", lambda: tmp_path / "verified")
    monkeypatch.setattr("pitchsim.study.verified.racy_seconds", lambda st: 0.0)


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    path = tmp_path_factory.mktemp("sums") / "run"
    simulate(path, 3000, [3, 4], seed=8, part_size=1000)
    return path


def copy_run(run, to):
    shutil.copytree(run, to)
    return to


def written_the_old_way(run):
    """The manifest as pitchsim wrote it before fast checksums: format pitchsim-run/1,
    part entries without the key."""
    doc = json.loads((run / MANIFEST).read_text())
    doc["format"] = "pitchsim-run/1"
    for p in doc["parts"]:
        del p["fast_checksums"]
    (run / MANIFEST).write_text(json.dumps(doc, indent=1) + "\n")
    return doc


def count_hashes(monkeypatch):
    """Parts checked by SHA-256 and by fast checksums, as they are."""
    calls = {"sha256": 0, "fast": 0}
    sha, fast = parts._sha256, parts._read_fast_checked

    def counted_sha(data):
        calls["sha256"] += 1
        return sha(data)

    def counted_fast(*args):
        calls["fast"] += 1
        return fast(*args)

    monkeypatch.setattr(parts, "_sha256", counted_sha)
    monkeypatch.setattr(parts, "_read_fast_checked", counted_fast)
    return calls


def test_a_new_run_records_both_kinds_of_checksum_of_every_part(made):
    doc = json.loads((made / MANIFEST).read_text())
    assert doc["format"] == manifest.FORMAT == "pitchsim-run/2"
    m = read_manifest(made)
    for p, rec in zip(doc["parts"], m.parts, strict=True):
        data = (made / p["file"]).read_bytes()
        assert p["sha256"] == hashlib.sha256(data).hexdigest()
        assert p["fast_checksums"] == fast_checksums(data, rec.part)
        assert set(p["fast_checksums"]) == {FRAME, *manifest.SCHEMA.names}
    # keyed by the part: the same bytes in another part's place do not pass
    a, b = m.parts[0], m.parts[1]
    assert fast_checksums((made / a.part.file).read_bytes(), b.part) != a.fast_checksums


def test_reads_check_the_columns_they_read_and_remember_them(made, tmp_path, monkeypatch):
    run = copy_run(made, tmp_path / "run")
    rec = read_manifest(run).parts[2]
    calls = count_hashes(monkeypatch)
    known = VerifiedParts(run)
    read_part(run, rec, ["points"], known=known)
    read_part(run, rec, ["points"], known=known)
    assert calls["fast"] == 1
    read_part(run, rec, ["points", "high"], known=known)  # a column not checked yet
    read_part(run, rec, ["high"], known=known)
    assert calls["fast"] == 2
    assert calls["sha256"] == 0


def test_a_first_read_checks_the_fast_checksum_and_a_full_check_sha256(made, tmp_path, monkeypatch):
    run = copy_run(made, tmp_path / "run")
    calls = count_hashes(monkeypatch)
    make_table(Run(run), "length")
    assert calls == {"sha256": 0, "fast": 6}
    make_table(Run(run), "length")  # checked before, unchanged: nothing hashed
    assert calls == {"sha256": 0, "fast": 6}
    make_table(Run(run, verify="full"), "length")  # SHA-256 of every part, checked or not
    assert calls == {"sha256": 6, "fast": 6}
    assert cli("table", run, "--full-check", "--min-count", "1")[0] == 0
    assert calls == {"sha256": 12, "fast": 6}
    one_line_error(*cli("table", run, "--full-check", "--no-verify")[::2], "contradict")
    with pytest.raises(InputError, match="verify must be"):
        Run(run, verify="yes")


def test_an_old_run_reads_by_sha256_and_resume_records_its_fast_checksums(
    made, tmp_path, monkeypatch
):
    new_doc = json.loads((made / MANIFEST).read_text())
    old = copy_run(made, tmp_path / "old")
    written_the_old_way(old)
    m = read_manifest(old)
    assert not m.has_fast_checksums() and all(r.fast_checksums is None for r in m.parts)
    calls = count_hashes(monkeypatch)
    expected = make_table(Run(made), "length")
    calls.update(sha256=0, fast=0)
    assert make_table(Run(old), "length").equals(expected)
    assert calls == {"sha256": 6, "fast": 0}
    # damage is still caught, by SHA-256
    bad = copy_run(old, tmp_path / "bad")
    part = bad / "part-000002.parquet"
    data = bytearray(part.read_bytes())
    data[len(data) // 2] ^= 4
    part.write_bytes(bytes(data))
    with pytest.raises(RunError, match="part-000002.parquet is altered"):
        make_table(Run(bad), "length")
    # --resume checks every part by SHA-256 and writes the fast checksums in
    before = (old / MANIFEST).read_text()
    assert resume(old).parts_run == 0
    upgraded = json.loads((old / MANIFEST).read_text())
    assert upgraded != json.loads(before) and upgraded == new_doc
    calls.update(sha256=0, fast=0)
    make_table(Run(old), "length")  # checked now by the fast checksums just recorded
    assert calls == {"sha256": 0, "fast": 6}
    # ... and an old run with a damaged part gets it redone, the manifest in the new format
    damaged = []
    assert resume(bad, on_damaged=damaged.append).parts_run == 1 and len(damaged) == 1
    assert json.loads((bad / MANIFEST).read_text()) == new_doc


def test_resume_redoes_a_part_whose_fast_checksum_is_not_the_recorded_one(made, tmp_path):
    run = copy_run(made, tmp_path / "run")
    doc = json.loads((run / MANIFEST).read_text())
    good = doc["parts"][1]["fast_checksums"]["points"]
    doc["parts"][1]["fast_checksums"]["points"] = "0" * 32
    (run / MANIFEST).write_text(json.dumps(doc))
    with pytest.raises(RunError, match="part-000001.parquet is altered"):
        make_table(Run(run), "length")
    make_table(Run(run, verify="full"), "length")  # its SHA-256 is right
    damaged = []
    assert resume(run, on_damaged=damaged.append).parts_run == 1
    assert "fast checksum" in damaged[0]
    assert json.loads((run / MANIFEST).read_text())["parts"][1]["fast_checksums"]["points"] == good


def fast_of(d):
    return d["parts"][0]["fast_checksums"]


@pytest.mark.parametrize(
    "edit, words",
    [
        (lambda d: fast_of(d).update(points="z" * 32), "fast checksum of points must be 32 hex"),
        (lambda d: fast_of(d).update(frame=None), "fast checksum of frame must be 32 hex"),
        (lambda d: fast_of(d).update(deal="ab" * 15), "fast checksum of deal must be 32 hex"),
        (lambda d: fast_of(d).pop("hand"), "fast_checksums lacks hand"),
        (lambda d: fast_of(d).update(extra="ab" * 16), "unknown entries extra"),
        (lambda d: d["parts"][0].update(fast_checksums="ab" * 16), "must be a JSON object"),
        (lambda d: d["parts"][0].update(fast_checksums=None), "must be a JSON object"),
        (lambda d: d["parts"][0].pop("fast_checksums"), "lacks fast_checksums"),
        (lambda d: d["parts"][0].pop("sha256"), "lacks sha256"),
        (lambda d: d["parts"][0].update(sha256=None), "sha256 must be 64 hex"),
        (lambda d: d.update(format="pitchsim-run/3"), "not a pitchsim-run/2 manifest"),
        (lambda d: d.update(format="pitchsim-run/1"), "unknown entries fast_checksums"),
    ],
)
def test_a_new_manifest_with_a_wrong_checksum_entry_is_refused(made, tmp_path, edit, words):
    run = copy_run(made, tmp_path / "run")
    doc = json.loads((run / MANIFEST).read_text())
    edit(doc)
    (run / MANIFEST).write_text(json.dumps(doc))
    with pytest.raises(RunError, match=words):
        read_manifest(run)


@pytest.mark.parametrize(
    "edit, words",
    [
        (lambda d: d["parts"][0].update(fast_checksums={}), "unknown entries fast_checksums"),
        (lambda d: d["parts"][0].update(sha256=None), "sha256 must be 64 hex"),
        (lambda d: d["parts"][0].update(status="pending", rows=None, bytes=None), "pending, yet"),
    ],
)
def test_an_old_manifest_is_checked_as_strictly(made, tmp_path, edit, words):
    run = copy_run(made, tmp_path / "run")
    doc = written_the_old_way(run)
    read_manifest(run)
    edit(doc)
    (run / MANIFEST).write_text(json.dumps(doc))
    with pytest.raises(RunError, match=words):
        read_manifest(run)


def test_a_pending_part_may_have_no_checksums_in_either_format(made, tmp_path):
    run = copy_run(made, tmp_path / "run")
    doc = json.loads((run / MANIFEST).read_text())
    doc["parts"][5].update(status="pending", rows=None, bytes=None, sha256=None)
    (run / MANIFEST).write_text(json.dumps(doc))
    with pytest.raises(RunError, match="pending, yet"):
        read_manifest(run)  # the fast checksum is left
    doc["parts"][5]["fast_checksums"] = None
    (run / MANIFEST).write_text(json.dumps(doc))
    assert read_manifest(run).parts[5].status == "pending"


def test_any_one_changed_byte_of_a_part_is_caught_on_a_first_read(made, tmp_path):
    """Fuzzed positions across a part (its header, pages and footer), each byte changed
    in the way a copy goes wrong (one bit, all bits, zeroed), read afresh each time: a
    read of every column fails, and so does a read of just the column the byte is in
    (any column, for a byte of the frame)."""
    run = copy_run(made, tmp_path / "run")
    m = read_manifest(run)
    rng = np.random.default_rng(8)
    for rec in (m.parts[0], m.parts[4]):
        f = run / rec.part.file
        good = f.read_bytes()
        n = len(good)
        chunks = parts._chunks(parts.pq.ParquetFile(f).metadata)
        positions = {0, 1, 3, 4, n // 2, n - 9, n - 8, n - 5, n - 1}
        positions |= {a for a, _ in chunks.values()} | {b - 1 for _, b in chunks.values()}
        positions |= {int(i) for i in rng.integers(0, n, 60)}
        for i in sorted(positions):
            inside = [name for name, (a, b) in chunks.items() if a <= i < b]
            column = inside[0] if inside else str(rng.choice(manifest.SCHEMA.names))
            for new in {good[i] ^ (1 << int(rng.integers(0, 8))), good[i] ^ 0xFF, 0} - {good[i]}:
                bad = bytearray(good)
                bad[i] = new
                f.write_bytes(bytes(bad))
                for columns in (manifest.SCHEMA.names, [column]):
                    with pytest.raises(RunError, match="is altered"):
                        read_part(run, rec, columns, known=VerifiedParts(run))
        f.write_bytes(good)
        read_part(run, rec, manifest.SCHEMA.names, known=VerifiedParts(run))
