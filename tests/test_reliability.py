"""Issue 8's classes, one case each: a damaged run is never a quiet answer, nothing is
half-written, every input is checked strictly.  (tests/test_fuzz.py tries many more.)"""

import errno
import json
import os
import shutil
import subprocess
import sys
import time

import pyarrow.parquet as pq
import pytest
from clirun import cli

from pitchsim.game.rules import Rules, RulesError
from pitchsim.study import batch, manifest, parts
from pitchsim.study.batch import simulate
from pitchsim.study.manifest import MANIFEST, RunError, read_manifest
from pitchsim.study.runlock import LOCK, run_lock
from pitchsim.util import atomic


def one_line_error(code, err, *words):
    assert code == 2, err
    assert err.startswith("pitchsim: error: ") and err.count("\n") == 1, err
    assert "Traceback" not in err
    for w in words:
        assert w in err, err


@pytest.fixture(autouse=True)
def own_cache(tmp_path_factory, monkeypatch):
    """The memory of verified parts in a folder of these tests' own."""
    folder = tmp_path_factory.getbasetemp() / "verified"
    monkeypatch.setattr("pitchsim.study.verified.cache_folder", lambda: folder)


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    path = tmp_path_factory.mktemp("rel") / "run"
    simulate(path, 3000, [3, 4], seed=8, part_size=1000)
    return path


def copy_run(run, to):
    shutil.copytree(run, to)
    return to


def table(run, *more):
    return cli("table", run, "--by", "length", "--min-count", "1", *more)


# ---- 1. a damaged run never gives a quiet answer ---------------------------------------


def flip_a_bit_in(part, column):
    """Flip a bit in the middle of ``column``'s chunk: the file still decodes."""
    a, b = parts._chunks(pq.ParquetFile(part).metadata)[column]
    data = bytearray(part.read_bytes())
    data[(a + b) // 2] ^= 0x10
    part.write_bytes(bytes(data))


def test_a_flipped_bit_is_caught_and_no_verify_skips_the_hash(made, tmp_path):
    bad = copy_run(made, tmp_path / "bad")
    flip_a_bit_in(bad / "part-000001.parquet", "points")
    code, out, err = table(bad)
    one_line_error(code, err, "part-000001.parquet is altered", "--resume")
    assert out == ""
    code, _, err = table(bad, "--no-verify")  # the documented escape: no hash
    assert code in (0, 2) and "Traceback" not in err


def test_a_flipped_bit_in_a_column_not_read_is_caught_when_it_is_read(made, tmp_path):
    """A read checks the bytes it reads: the key trumps do not make a table by length,
    so it is right; a read that uses them, and --full-check, stop at the damage."""
    bad = copy_run(made, tmp_path / "bad")
    flip_a_bit_in(bad / "part-000001.parquet", "keys")
    assert table(bad)[0] == 0
    one_line_error(*cli("table", bad, "--by", "holding", "--min-count", "1")[::2], "altered")
    one_line_error(*table(bad, "--full-check")[::2], "part-000001.parquet is altered")


def test_swapped_or_foreign_parts_are_caught(made, tmp_path):
    swapped = copy_run(made, tmp_path / "swapped")
    a, b = swapped / "part-000000.parquet", swapped / "part-000001.parquet"
    a.rename(tmp_path / "x")
    b.rename(a)
    (tmp_path / "x").rename(b)
    one_line_error(*table(swapped)[::2], "altered")
    # ... and with the manifest edited to match the swap: the fast checksums are keyed
    # by the part's deals, and in a run checked by SHA-256 the deal range gives it away
    doc = json.loads((swapped / MANIFEST).read_text())
    p0, p1 = doc["parts"][0], doc["parts"][1]
    for k in ("bytes", "sha256", "fast_checksums"):
        p0[k], p1[k] = p1[k], p0[k]
    (swapped / MANIFEST).write_text(json.dumps(doc))
    one_line_error(*table(swapped)[::2], "part-000000.parquet is altered")
    one_line_error(
        *table(swapped, "--full-check")[::2], "holds deals 1,000-1,999", "not part 0's deals 0-999"
    )
    # a part of another run (another seed), same name and layout
    other = tmp_path / "other"
    simulate(other, 3000, [3, 4], seed=9, part_size=1000)
    foreign = copy_run(made, tmp_path / "foreign")
    shutil.copy(other / "part-000002.parquet", foreign / "part-000002.parquet")
    code, out, err = table(foreign)
    assert code == 2 and ("altered" in err or "truncated" in err)


def test_a_part_checked_once_is_not_hashed_again_until_it_changes(made, tmp_path, monkeypatch):
    run = copy_run(made, tmp_path / "run")
    hashed = []
    real = parts._read_fast_checked
    monkeypatch.setattr(parts, "_read_fast_checked", lambda *a: hashed.append(1) or real(*a))
    monkeypatch.setattr("pitchsim.study.verified.racy_seconds", lambda st: 0.0)
    assert table(run)[0] == 0 and len(hashed) == 6
    assert table(run)[0] == 0 and len(hashed) == 6  # unchanged files: no hash
    time.sleep(0.01)
    part = run / "part-000004.parquet"
    part.write_bytes(part.read_bytes())  # same bytes, but written: hashed again
    assert table(run)[0] == 0 and len(hashed) == 7
    data = bytearray(part.read_bytes())
    data[-100] ^= 1
    part.write_bytes(bytes(data))
    assert table(run)[0] == 2


def test_the_writer_remembers_the_parts_it_wrote(tmp_path, monkeypatch):
    hashed = []
    real = parts._read_fast_checked
    monkeypatch.setattr(parts, "_read_fast_checked", lambda *a: hashed.append(1) or real(*a))
    monkeypatch.setattr("pitchsim.study.verified.racy_seconds", lambda st: 0.0)
    simulate(tmp_path / "r", 3000, [3], seed=8, part_size=1000)
    assert table(tmp_path / "r")[0] == 0 and hashed == []  # nothing left to hash
    monkeypatch.setattr("pitchsim.study.verified.racy_seconds", lambda st: 3600.0)
    simulate(tmp_path / "s", 3000, [3], seed=8, part_size=1000)
    assert table(tmp_path / "s")[0] == 0 and len(hashed) == 3  # all too recent to trust


@pytest.mark.parametrize(
    "edit, words",
    [
        (lambda d: d.update(deals_per_player_count=10**12), "deals_per_player_count must be"),
        (lambda d: d.update(part_size=1), "part_size must be"),
        (lambda d: d.update(seed=2**64), "seed must be"),
        (lambda d: d.update(parts={"0": 1}), "parts must be a list"),
        (lambda d: d.update(part_size=True), "whole number"),
        (lambda d: d["rules"].update(target=10**30), "target must be"),
        (lambda d: d["parts"][3].update(rows=999), "rows must be"),
        (lambda d: d["parts"][3].update(sha256="00"), "sha256"),
        (lambda d: d.pop("columns"), "lacks columns"),
        (lambda d: d.update(extra=1), "unknown entries extra"),
        (lambda d: d.update(players=[4, 3]), "players must be"),
    ],
)
def test_a_malformed_manifest_is_one_line_at_once(made, tmp_path, edit, words):
    run = copy_run(made, tmp_path / "run")
    doc = json.loads((run / MANIFEST).read_text())
    edit(doc)
    (run / MANIFEST).write_text(json.dumps(doc))
    start = time.monotonic()
    one_line_error(*table(run)[::2], "corrupt", words)
    assert time.monotonic() - start < 5


# ---- 2. nothing is ever half-written -----------------------------------------------------


def test_write_file_keeps_the_old_file_when_writing_fails(tmp_path):
    f = tmp_path / "out.csv"
    f.write_text("old\n")

    def full_disk(path, data):
        path.write_bytes(data[:3])
        raise OSError(errno.ENOSPC, "No space left on device")

    with pytest.raises(atomic.WriteError, match=f"cannot write {f}: No space left on device"):
        atomic.write_file(f, "new content\n", writer=full_disk)
    assert f.read_text() == "old\n" and [p.name for p in tmp_path.iterdir()] == ["out.csv"]
    atomic.write_file(f, "new\n")
    assert f.read_text() == "new\n"


def test_a_chart_on_a_full_disk_leaves_the_old_chart(made, tmp_path, monkeypatch):
    from matplotlib.figure import Figure

    out = tmp_path / "c.png"
    assert cli("chart", made, "--kind", "points", "--out", out)[0] == 0
    before = out.read_bytes()

    def full(self, fname, **kwargs):
        open(fname, "wb").write(b"\x89PNG half")
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(Figure, "savefig", full)
    code, _, err = cli("chart", made, "--kind", "points", "--out", out)
    one_line_error(code, err, str(out), "No space left")
    assert out.read_bytes() == before and sorted(p.name for p in tmp_path.iterdir()) == ["c.png"]


def test_a_full_disk_mid_run_names_the_part_and_resume_finishes(made, tmp_path, monkeypatch):
    real, calls = batch.write_new_file, []

    def fills_up(path, data):
        calls.append(path)
        if len(calls) == 3:
            raise OSError(errno.ENOSPC, "No space left on device")
        real(path, data)

    monkeypatch.setattr(batch, "write_new_file", fills_up)
    out = tmp_path / "r"
    code, _, err = cli(
        "simulate",
        "--deals",
        3000,
        "-n",
        "3,4",
        "--seed",
        8,
        "--part-size",
        1000,
        "--out",
        out,
        "--quiet",
    )
    one_line_error(code, err, "part-000002.parquet", "No space left", "--resume --out")
    assert not list(out.glob(".*.tmp"))  # no half-written part left
    monkeypatch.setattr(batch, "write_new_file", real)
    assert cli("simulate", "--resume", "--out", out, "--quiet")[0] == 0
    for f in made.glob("part-*"):
        assert (out / f.name).read_bytes() == f.read_bytes()


@pytest.mark.parametrize(
    "bad",
    [
        ["--threads", "99"],
        ["--scheduler", "not an address"],
        ["--rules", "low=x"],
        ["--part-size", "10"],
        ["--policy", "clever"],
        ["--deals", str(10**12)],
    ],
)
def test_a_failed_start_leaves_nothing_behind(tmp_path, bad):
    out = tmp_path / "new" / "run"
    argv = ["simulate", "--deals", "1000", "--seed", "1", "--out", out, "--quiet"]
    code, _, err = cli(*argv, *bad)
    one_line_error(code, err)
    assert not (tmp_path / "new").exists()
    assert cli(*argv)[0] == 0  # the same folder, the option fixed


def test_a_start_whose_manifest_cannot_be_written_leaves_nothing(tmp_path, monkeypatch):
    def no_space(*args, **kwargs):
        raise atomic.WriteError("cannot write manifest.json: No space left on device")

    monkeypatch.setattr(batch, "_write_manifest", no_space)
    code, _, err = cli("simulate", "--deals", "100", "--out", tmp_path / "r", "--quiet")
    one_line_error(code, err, "No space left")
    assert not (tmp_path / "r").exists()


def test_a_locked_run_is_refused_and_a_stale_lock_taken_over(made, tmp_path):
    run = copy_run(made, tmp_path / "run")
    os.remove(run / "part-000005.parquet")
    with run_lock(run):
        code, _, err = cli("simulate", "--resume", "--out", run, "--quiet")
        one_line_error(code, err, "is being written by process", "wait for it")
    # a lock file left by a killed process: no flock is held on it any more
    (run / LOCK).write_text("999999 otherhost\n")
    code, out, err = cli("simulate", "--resume", "--out", run)
    assert code == 0 and "(1 part)" in out
    assert "took over the lock" in err and "process 999999 on otherhost" in err
    assert not (run / LOCK).exists()


def test_a_complete_run_is_resumed_and_read_without_a_write(made, tmp_path, monkeypatch):
    run = copy_run(made, tmp_path / "run")
    table(run)  # remember the parts as checked
    before = {p.name: p.stat().st_mtime_ns for p in run.iterdir()}

    def no_writes(*args, **kwargs):
        raise AssertionError("wrote to a complete run")

    monkeypatch.setattr(batch, "write_file", no_writes)
    monkeypatch.setattr(manifest, "write_file", no_writes)
    monkeypatch.setattr(batch, "run_lock", no_writes)
    monkeypatch.setattr(batch, "remove_stale_temporaries", no_writes)
    code, out, _ = cli("simulate", "--resume", "--out", run)
    assert code == 0 and "nothing to do" in out
    assert table(run)[0] == 0
    assert {p.name: p.stat().st_mtime_ns for p in run.iterdir()} == before


# ---- 3. every input is checked strictly ------------------------------------------------


@pytest.mark.parametrize(
    "spec, words",
    [
        ("low=dealt,low=captured", "given twice"),
        ("low=dealt,low_=x", "unknown rule option"),
        ("target=" + "9" * 30, "target must be 1-100"),
        ("target=0", "target must be 1-100"),
        ("dealer-steal=7", "dealer-steal takes true or false"),
        ("min-bid=2,min_bid=2", "given twice"),
        ("low=dealt,,follow=suit", "empty rule option"),
        ("follow", "needs name=value"),
    ],
)
def test_rule_strings_are_strict(spec, words):
    with pytest.raises(RulesError, match=words):
        Rules.parse(spec)
    one_line_error(*cli("play", "--seed", "1", "--rules", spec)[::2], words)


@pytest.mark.parametrize(
    "text, words",
    [
        (b"target = true\n", "target takes a whole number"),
        (b"dealer-steal = 7\n", "dealer-steal takes true or false"),
        (b"target = 18446744073709551617\n", "target must be 1-100"),
        (b'low = ["dealt"]\n', "low takes a single value, not a list"),
        (b"[low]\nx = 1\n", "low takes a single value, not a table"),
        (b'low = "dealt"\n[rules]\nfollow = "suit"\n', "not both"),
        (b'rules = "low=dealt"\n', "table of options, not 'low=dealt'"),
        (b"min-bid = 2\nmin_bid = 2\n", "given twice"),
        (b'low = "d\xe9alt"\n', "not UTF-8"),
        (b"low = \n", "not valid TOML"),
        (b"target = 11.0\n", "target takes a whole number"),
    ],
)
def test_rule_files_are_strict(tmp_path, text, words):
    f = tmp_path / "rules.toml"
    f.write_bytes(text)
    with pytest.raises(RulesError, match=words):
        Rules.parse(str(f))
    one_line_error(*cli("play", "--seed", "1", "--rules", f)[::2], words)


def test_rules_from_a_string_a_dict_a_file_or_rules_alike(tmp_path):
    # compared as presets: the base game is the auction-pitch preset however it is stated
    want = Rules(low="dealt", target=11, partnership=True)
    f = tmp_path / "club.toml"
    f.write_text('[rules]\nlow = "dealt"\ntarget = 11\npartnership = true\n')
    assert Rules.parse("low=dealt,target=11,partnership=yes") == want
    assert Rules.parse({"low": "dealt", "target": 11, "partnership": True}) == want
    assert Rules.parse(str(f)) == want == Rules.parse(f)
    assert Rules.parse(want) == want
    assert Rules.parse("low=dealt,target=11", partnership=True) == want
    assert Rules.parse(None) == Rules()
    with pytest.raises(RulesError, match="target takes a whole number"):
        Rules(target=True)


@pytest.mark.parametrize(
    "argv, words",
    [
        (["bid-odds", "AH KH 2H 9C 7D 3S", "--samples", str(10**15)], "--samples must be at most"),
        (["play", "--rounds", str(10**9 + 1)], "--rounds must be at most"),
        (["play", "--game", "--board", str(2**64)], "--board must be at most"),
        (["tournament", "-s", "odds,heuristic", "--target", "101"], "--target must be at most"),
        (["tournament", "-s", "odds,heuristic", "--games", str(10**8)], "--games must be at most"),
        (["simulate", "--deals", str(10**12)], "--deals must be at most"),
        (["simulate", "--deals", "10", "--part-size", "1"], "--part-size must be at least 1,000"),
        (["simulate", "--deals", str(10**9), "--part-size", "1000"], "raise --part-size"),
        (["play", "--seed", str(2**64)], "seed must be"),
        (["table", "x", "--min-count", str(10**30)], "--min-count must be at most"),
    ],
)
def test_counts_past_their_limit_are_refused_at_once(argv, words):
    start = time.monotonic()
    one_line_error(*cli(*argv)[::2], words)
    assert time.monotonic() - start < 5


@pytest.mark.parametrize(
    "argv, words",
    [
        (["play", "--hand", ""], "--hand is empty"),
        (["play", "-n", ""], "-n is empty"),  # the flag typed
        (["simulate", "--deals", "10", "--out", ""], "--out is empty"),
        (["simulate", "--deals", "10", "-n", " "], "-n is empty"),
        (["bid-odds", "AH KH 2H 9C 7D 3S", "--rules", ""], "--rules is empty"),
        (["table", ""], "RUN is empty"),
    ],
)
def test_empty_strings_are_errors(argv, words):
    one_line_error(*cli(*argv)[::2], words)


def test_options_that_would_do_nothing_are_refused_or_noted(made, tmp_path):
    png = tmp_path / "x.png"
    one_line_error(
        *cli("chart", made, "--kind", "points", "--holdings", "A-x", "--out", png)[::2],
        "--holdings does nothing for --kind points",
    )
    one_line_error(
        *cli("chart", made, "--kind", "bids", "--players", "4", "--out", png)[::2],
        "--players does nothing for --kind bids",
    )
    one_line_error(*cli("table", made, "--checks", "--by", "length")[::2], "--checks")
    one_line_error(
        *cli("tournament", "-s", "odds,heuristic", "--rules", "target=11", "--target", "15")[::2],
        "--target 15 and --rules target=11 disagree",
    )
    one_line_error(
        *cli("tournament", "-s", "odds,heuristic", "--partnership", "--rules", "partnership=false")[
            ::2
        ],
        "disagree",
    )
    code, out, err = cli(
        "tournament",
        "-s",
        "odds,heuristic",
        "-g",
        "5",
        "--seed",
        "1",
        "--rules",
        "target=11",
        "--target",
        "11",
        "--json",
    )
    assert code == 0 and json.loads(out)["target"] == 11
    # --trump S when the pitcher holds no spade: said, not silently ignored
    code, out, err = cli("play", "--seed", "3", "--rounds", "6", "--trump", "S")
    assert code == 0 and "holds no S, so --trump S did nothing" in err


def test_play_rounds_streams():
    # The first hands are out before the last is played; memory does not grow with them.
    proc = subprocess.Popen(
        [sys.executable, "-m", "pitchsim", "play", "--seed", "1", "--rounds", str(10**9)],
        stdout=subprocess.PIPE,
    )
    try:
        first = proc.stdout.read(2000)
        assert b"Deal 0 of seed 1" in first
    finally:
        proc.kill()
        proc.wait()


def test_a_bad_scheduler_is_one_line_and_no_noise_at_exit(tmp_path):
    code = (
        "import sys; from pitchsim.study import batch; batch.CONNECT_TIMEOUT = '1s'; "
        "from pitchsim.cli import main; main(sys.argv[1:])"
    )
    for address in ("tcp://127.0.0.1:9", "tcp://no-such-host.invalid:8786"):
        start = time.monotonic()
        r = subprocess.run(
            [
                sys.executable,
                "-c",
                code,
                "simulate",
                "--deals",
                "100",
                "--out",
                str(tmp_path / "r"),
                "--scheduler",
                address,
                "--quiet",
            ],
            capture_output=True,
            text=True,
            timeout=60,
        )
        one_line_error(r.returncode, r.stderr)
        assert time.monotonic() - start < 20 and not (tmp_path / "r").exists()


def test_read_manifest_refuses_a_huge_file(tmp_path):
    (tmp_path / MANIFEST).write_bytes(b" " * (manifest.MAX_MANIFEST_BYTES + 1))
    with pytest.raises(RunError, match="over 32 MB"):
        read_manifest(tmp_path)


def test_real_processes_give_one_line_too(made, tmp_path):
    """The in-process checks hold for a real process, exit status and stderr alike."""
    bad = copy_run(made, tmp_path / "bad")
    flip_a_bit_in(bad / "part-000003.parquet", "points")
    rules = tmp_path / "r.toml"
    rules.write_bytes(b"target = true\n")
    for argv, words in [
        (["table", str(bad)], "part-000003.parquet is altered"),
        (["play", "--rules", str(rules)], "target takes a whole number"),
        (["bid-odds", "AH KH 2H 9C 7D 3S", "--samples", str(10**15)], "--samples"),
    ]:
        r = subprocess.run(
            [sys.executable, "-m", "pitchsim", *argv], capture_output=True, text=True, timeout=120
        )
        one_line_error(r.returncode, r.stderr, words)
        assert r.stdout == ""


def test_library_calls_have_the_cli_limits():
    """pitchsim.bid_odds and pitchsim.tournament refuse what the CLI refuses, before any
    memory is allocated (a 10**15-sample bid-odds once asked for 909 TiB)."""
    import pitchsim
    from pitchsim.util.errors import InputError

    with pytest.raises(InputError, match="samples must be at most 100,000,000"):
        pitchsim.bid_odds("AH KH 2H 9C 7D 3S", samples=10**15)
    with pytest.raises(InputError, match="samples must be a whole number"):
        pitchsim.bid_odds("AH KH 2H 9C 7D 3S", samples=2.5)
    with pytest.raises(InputError, match="games must be at most 10,000,000"):
        pitchsim.tournament(["odds", "heuristic"], games=10**12)
    with pytest.raises(InputError, match="boards must be at most 10,000,000"):
        pitchsim.tournament(["odds", "heuristic"], boards=10**12)
