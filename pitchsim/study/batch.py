"""Simulation runs: millions of pitched hands kept as a dataset of Parquet parts.

A run is a directory::

    manifest.json          parameters, seed, policy, rules, version, per-part status
    part-000000.parquet    one part: ``part_size`` consecutive deals of one player count
    part-000001.parquet
    ...

Each deal is one random hand for the pitcher (seat 0, who leads), under the run's preset:
trump as his play policy chooses it (or names it), the other hands dealt at random, any
discard and draw, and everything played out by the preset kernels.  A row records the
deal, the pitcher's cards dealt and held and their trumps, and who took each point (see
:data:`pitchsim.study.manifest.COLUMNS`).

Deal ``i`` at ``n`` players is the kernel's deal ``i`` under the stream seed
``seed * 8 + n``: every player count has its own independent deals, and the data of a
player count does not depend on which other counts share the run.  A part's content is
a function of (seed, player count, deal range) only, and its bytes are produced by one
function wherever it runs, so a run is byte-identical on 1 thread, 2 threads, resumed
after an interruption, or computed on a Dask cluster.

Every file is written atomically (:mod:`pitchsim.util.atomic`): a part goes to a temporary
name and is renamed when complete and on disk; the manifest records its rows, size,
SHA-256 and fast checksum (:mod:`pitchsim.study.checksum`) after the rename.  A run is written
by one process at a time (:mod:`pitchsim.study.runlock`).  ``resume`` redoes exactly the parts
that are not recorded as done or whose file no longer matches its record's SHA-256
(deleted, truncated, altered).  Readers
(:func:`pitchsim.study.parts.read_part`) check every part they use against the manifest.

This module plays a run; what a run is (its manifest, its columns) is
:mod:`pitchsim.study.manifest`, and reading its parts back :mod:`pitchsim.study.parts`.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import itertools
import os
import re
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from ..game.rules import Rules
from ..kernels.score import N_AWARDS
from ..util.atomic import WriteError, remove_stale_temporaries, write_file
from ..util.direct_io import write_new_file
from ..util.errors import InputError
from ..util.limits import MAX_DEALS, MAX_PART_SIZE, MIN_PART_SIZE, check_count
from ..util.runtime import CHUNK, PART_SIZE, chunked, max_threads, pick_seed, use_threads
from . import parquet
from .manifest import (
    AWARDS,
    COLUMNS,
    MANIFEST,
    MAX_SEED,
    SCHEMA,
    Manifest,
    Part,
    PartRecord,
    RunError,
    RunParams,
    _check_part_count,
    _package_version,
    _resume_hint,
    _write_manifest,
    check_policy,
    key_table,
    parse_players,
    part_metadata,
    plan_parts,
    read_manifest,
)
from .parts import _check_deals, _sha256, fast_checksums, part_problem
from .runlock import LOCK, run_lock
from .verified import VerifiedParts

BYTES_PER_DEAL = 26  # a part's size on disk, rounded up (measured ~23 under smear)
CONNECT_TIMEOUT = "10s"  # to reach a Dask scheduler


# How each column is stored (pitchsim.study.parquet): the card masks plain, the small
# integers as deltas, bit-packed.  A part's bytes depend on its data alone.
PARQUET_COLUMNS = [
    parquet.Column(name, typ, "plain" if name in ("hand", "held") else "delta")
    for name, typ, _ in COLUMNS
]
# One kernel call at a time per process: concurrent Dask tasks in one worker would
# otherwise oversubscribe its cores (every call already uses all of them).
_KERNEL_LOCK = threading.Lock()


def part_buffers(size: int) -> dict[str, np.ndarray]:
    """Arrays for every column of a part of up to ``size`` deals.

    Reusing them from part to part spares the allocation and first touch of ~30 MB per
    million deals; a table built on them is only valid until they are reused."""
    return {name: np.empty(size, dtype=typ.to_pandas_dtype()) for name, typ, _ in COLUMNS}


# ---- a part ---------------------------------------------------------------------------
# Deal ``i`` at ``n`` players is ``kernels.sample.record_columns``' deal ``i`` under the
# stream seed ``seed * 8 + n``, which is ``make_odds``' deal ``i`` under that seed: seat 0
# pitches, the dealer is seat n-1, every seat plays the run's policy.  A part's content
# is a function of (seed, player count, deal range, rules, policy) only, on any thread
# count or chunking.


def play_deals(
    rules: Rules,
    n: int,
    seed: int,
    start: int,
    count: int,
    policies: np.ndarray,
    threads: int | None = None,
    *,
    seats: bool = False,
    buffers: dict[str, np.ndarray] | None = None,
    progress=None,
    kernel=None,
) -> dict[str, np.ndarray]:
    """Deals ``start .. start+count-1`` of the stream ``seed`` at ``n`` players (seat 0
    pitches, the dealer is seat n-1, seat s plays ``policies[s]``: ``policy_row`` or
    mixed), played by the kernel ``pitchsim simulate`` runs
    (``kernels.sample.columns_kernel``): every column of :data:`COLUMNS` by name (views
    of ``buffers``, from :func:`part_buffers` when given, valid until they are reused).
    With ``seats`` also ``all_dealt`` and ``all_held`` (count x n: every seat's cards as
    dealt and when play starts) and ``all_award`` (count x N_AWARDS: the seat credited
    with each award, ``kernels.score``), what the report's exact checks read.
    ``kernel``: another kernel of the same arguments (a test plays the base game's
    shape on the kernel of any rules, ``any_rules(record_columns)``)."""
    from ..kernels.presets import rules_array, rules_table
    from ..kernels.sample import columns_kernel

    if buffers is None or buffers["deal"].size < count:
        buffers = part_buffers(count)
    fr, tab = rules_array(rules), rules_table(rules)
    kernel = columns_kernel(fr) if kernel is None else kernel
    keycards = key_table(rules)
    col = {name: a[:count] for name, a in buffers.items()}
    col["deal"][:] = np.arange(start, start + count)
    col["players"][:] = n
    sides = np.empty((N_AWARDS, min(count, CHUNK)), np.uint8)
    rows = count if seats else 0  # (0 rows: not kept, the same kernel)
    every = {
        "all_dealt": np.empty((rows, n), np.int64),
        "all_held": np.empty((rows, n), np.int64),
        "all_award": np.empty((rows, N_AWARDS), np.int64),
    }
    with _KERNEL_LOCK, use_threads(threads):
        for a, b in chunked(count):
            m = b - a
            # a whole C-ordered array (a short last chunk's slice would be 'A' layout,
            # another signature compiled in the middle of a run)
            out = sides if m == sides.shape[1] else np.empty((N_AWARDS, m), np.uint8)
            kept = [x[a:b] if seats else x for x in every.values()]
            kernel(
                seed, start + a, m, n, policies, fr, tab, keycards,
                col["hand"][a:b], col["held"][a:b], col["trump"][a:b], col["trump_count"][a:b],
                col["trump_count_held"][a:b], col["keys"][a:b], col["keys_held"][a:b],
                col["points"][a:b], out, *kept,
            )  # fmt: skip
            for i, name in enumerate(AWARDS):
                col[name][a:b] = out[i]
            if progress is not None:
                progress(m)
    return {name: col[name] for name in SCHEMA.names} | (every if seats else {})


def simulate_part(
    part: Part,
    params: RunParams,
    threads: int | None = None,
    progress=None,
    buffers: dict[str, np.ndarray] | None = None,
) -> dict[str, np.ndarray]:
    """Play the deals of ``part`` under the run's preset (:func:`play_deals`): its
    columns in the order of :data:`COLUMNS`, views of ``buffers`` (from
    :func:`part_buffers` when given, valid until they are reused)."""
    from ..kernels.simulate import policy_row

    n = part.players
    return play_deals(
        Rules.parse(params.rules), n, params.stream_seed(n), part.start, part.count,
        policy_row(params.policy, n), threads, buffers=buffers, progress=progress,
    )  # fmt: skip


def part_table(columns: dict[str, np.ndarray]) -> pa.Table:
    """A part's columns as an Arrow table in the runs' schema."""
    return pa.Table.from_arrays([columns[name] for name in SCHEMA.names], schema=SCHEMA)


_worker = threading.local()  # per worker thread: column buffers and encoder, reused


def part_bytes(part: Part, params: RunParams, threads: int | None = None) -> bytes:
    """A part from scratch: what a Dask worker runs (reusing its thread's memory from
    part to part, as a local run does)."""
    buffers = getattr(_worker, "buffers", None)
    if buffers is None or buffers["deal"].size < part.count:
        _worker.buffers, _worker.encoder = part_buffers(part.count), parquet.Encoder()
    columns = simulate_part(part, params, threads, buffers=_worker.buffers)
    return bytes(_worker.encoder.encode(PARQUET_COLUMNS, columns, part_metadata(params)))


# ---- running a run -------------------------------------------------------------------


@dataclass
class RunResult:
    path: Path
    manifest: Manifest
    parts_run: int
    deals_run: int


def check_threads(threads: int | None) -> None:
    if threads is not None and (
        isinstance(threads, bool)
        or not isinstance(threads, int)
        or not 1 <= threads <= max_threads()
    ):
        raise InputError(f"threads must be 1-{max_threads()}, not {threads}")


def simulate(
    out: str | Path,
    deals: int,
    players: str | int | Iterable[int] = 4,
    policy: str = "heuristic",
    seed: int | None = None,
    rules: Rules | str | dict | None = None,
    part_size: int = PART_SIZE,
    threads: int | None = None,
    scheduler: str | None = None,
    progress: Callable[[int], None] | None = None,
    note: Callable[[str], None] | None = None,
) -> RunResult:
    """Start a run in the new or empty directory ``out`` and play all of it.

    ``deals`` deals for every player count in ``players``.  ``scheduler`` is the address
    of a Dask scheduler to run the parts on; otherwise they run here on ``threads``
    threads.  ``progress(deals_done)`` is called as deals finish, ``note(message)`` for
    things worth telling (a stale lock taken over).  Every option is checked, and the
    scheduler reached, before anything is written: a start that fails leaves no folder
    behind.  If interrupted, :func:`resume` finishes the run.

    >>> r = simulate("/tmp/pitchsim-doctest-run", 2000, players=[3, 5], seed=1)  # doctest: +SKIP
    >>> r.manifest.done()[0].rows  # doctest: +SKIP
    2000
    """
    rules = Rules.parse(rules)
    counts = parse_players(players)
    check_count("deals", deals, MAX_DEALS)
    if (
        isinstance(part_size, bool)
        or not isinstance(part_size, int)
        or not (MIN_PART_SIZE <= part_size <= MAX_PART_SIZE)
    ):
        raise InputError(
            f"part size must be {MIN_PART_SIZE:,}-{MAX_PART_SIZE:,} deals, not {part_size}"
        )
    _check_part_count(deals, len(counts), part_size)
    seed = pick_seed(seed, MAX_SEED)
    for n in counts:
        rules.check_players(n)
    check_policy(policy)
    check_threads(threads)
    path = Path(out)
    if str(out).strip() == "":
        raise InputError("the run directory is empty")
    if (path / MANIFEST).exists():
        raise RunError(f"{out} already holds a run: use --resume to finish it, or another --out")
    if path.exists() and (not path.is_dir() or any(p.name != LOCK for p in path.iterdir())):
        raise RunError(f"{out} exists and is not an empty directory; choose another --out")
    _check_space(path, deals * len(counts))
    with _scheduler(scheduler) as client:  # reached before the folder is made
        created = _make_folder(path)
        try:
            with run_lock(path, note):
                if (path / MANIFEST).exists():  # another process started it meanwhile
                    raise RunError(f"{out} already holds a run: use --resume to finish it")
                params = RunParams(seed, policy, rules.describe_in_full())
                parts = [PartRecord(p) for p in plan_parts(deals, counts, part_size)]
                manifest = Manifest(deals, counts, params, part_size, _package_version(), parts)
                _write_manifest(path, manifest)
                return _run(path, manifest, threads, client, progress)
        except BaseException:  # a bad start, Ctrl-C before the manifest: leave nothing
            if not (path / MANIFEST).exists():
                _remove_new_folder(path, created)
            raise


def _make_folder(path: Path) -> list[Path]:
    """Create ``path`` and its missing parents; the ones created, outermost first."""
    created = []
    p = path
    while not p.exists():
        created.append(p)
        p = p.parent
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise WriteError(f"cannot create {path}: {e.strerror or e}") from None
    return created[::-1]


def _remove_new_folder(path: Path, created: list[Path]) -> None:
    """Undo a start that failed before its manifest was written."""
    with contextlib.suppress(OSError):
        remove_stale_temporaries(path)
        for p in reversed(created):
            p.rmdir()


def _check_space(path: Path, deals: int, per_deal: int = BYTES_PER_DEAL) -> None:
    p = path
    while not p.exists():
        p = p.parent
    try:
        free = os.statvfs(p).f_bavail * os.statvfs(p).f_frsize
    except OSError:
        return
    need = deals * per_deal
    if need > free:
        raise InputError(
            f"{deals:,} deals need about {need / 1e9:,.1f} GB on disk and {p} has "
            f"{free / 1e9:,.1f} GB free: free some space or ask for fewer deals"
        )


def resume(
    out: str | Path,
    threads: int | None = None,
    scheduler: str | None = None,
    progress: Callable[[int], None] | None = None,
    on_damaged: Callable[[str], None] | None = None,
    note: Callable[[str], None] | None = None,
) -> RunResult:
    """Finish the run in ``out``: redo every part not recorded as done, or whose file is
    missing, truncated or altered.  ``on_damaged(message)`` hears about the latter.

    A run that is complete and intact is only read (it may sit on a read-only disk),
    except that one written before parts had fast checksums gets them recorded where it
    can be written; otherwise the run is locked while it is finished."""
    path = Path(out)
    check_threads(threads)
    manifest = read_manifest(path)
    sha256_only = not manifest.has_fast_checksums()  # part_problem fills them in
    if manifest.complete() and not any(part_problem(path, r, True) for r in manifest.parts):
        if sha256_only:
            _record_fast_checksums(path, manifest, note)
        return RunResult(path, manifest, 0, 0)
    with _scheduler(scheduler) as client, run_lock(path, note):
        manifest = read_manifest(path)  # as it is now that nobody else writes it
        remove_stale_temporaries(path)
        for rec in manifest.done():
            problem = part_problem(path, rec, check_sum=True)
            if problem:
                if on_damaged:
                    on_damaged(f"{problem}: redoing it")
                rec.forget()
        _check_same_simulator(path, manifest)
        _write_manifest(path, manifest)
        return _run(path, manifest, threads, client, progress)


def _record_fast_checksums(path: Path, manifest: Manifest, note) -> None:
    """Write the fast checksums of an intact run (:func:`part_problem` filled them in
    while it checked every part's SHA-256) into its manifest, so that its reads need not
    hash by SHA-256.  Left as it is, with a note, when the run cannot be written."""
    try:
        with run_lock(path, note):
            now = read_manifest(path)
            if [r.sha256 for r in now.parts] == [r.sha256 for r in manifest.parts]:
                _write_manifest(path, manifest)
    except (InputError, OSError) as e:  # a read-only disk, a lock held by another
        if note is not None:
            note(
                f"the fast checksums of {path}'s parts were not recorded ({e}); its reads "
                "check SHA-256 instead"
            )


SAMPLE_DEALS = 1000  # replayed on resume to check the simulator has not changed


def _check_same_simulator(path: Path, manifest: Manifest) -> None:
    """Replay the first deals of a finished part: a resumed run must not mix parts from
    two versions of the simulator (the kernels change; the version number may not)."""
    done = manifest.done()
    if not done or manifest.complete():
        return
    rec = done[0]
    sample = Part(
        rec.part.index, rec.part.players, rec.part.start, min(rec.part.count, SAMPLE_DEALS)
    )
    again = part_table(simulate_part(sample, manifest.params))
    stored = pq.read_table(path / rec.part.file).slice(0, sample.count)
    if not again.equals(stored.cast(SCHEMA)):
        raise RunError(
            f"this pitchsim ({_package_version()}) plays {rec.part.file}'s deals differently "
            f"from the one that started {path} ({manifest.version}): finishing the run would "
            "mix two simulators; start a new run instead"
        )


def _store(run: Path, rec: PartRecord, data: bytes | memoryview) -> None:
    """Write a finished part atomically (temporary name, fsync, rename)."""
    # The bytes are this part's (a bookkeeping slip would record another's under its
    # name): reads checked by fast checksums trust the deals to the key they are under.
    deals = pq.read_table(pa.BufferReader(data), columns=["deal", "players"])
    _check_deals(run / rec.part.file, deals, rec, "")
    write_file(run / rec.part.file, data, _resume_hint(run), writer=write_new_file)
    rec.status, rec.rows, rec.bytes = "done", rec.part.count, len(data)
    rec.sha256, rec.fast_checksums = _sha256(data), fast_checksums(data, rec.part)


def _run(path, manifest, threads, client, progress) -> RunResult:
    todo = [r for r in manifest.parts if r.status != "done"]
    if client is not None:
        _run_dask(path, manifest, todo, client, threads, progress)
    else:
        _run_local(path, manifest, todo, threads, progress)
    # This process hashed what it wrote: readers need not hash those files again (all
    # but the last few, written too recently to be told apart from a later change).
    known = VerifiedParts(path)
    for rec in todo:
        with contextlib.suppress(OSError):
            known.add(os.stat(path / rec.part.file), rec)
    known.save()
    return RunResult(path, manifest, len(todo), sum(r.part.count for r in todo))


def _run_local(path, manifest, todo, threads, progress) -> None:
    """Parts one after another, each on all kernel threads; while the kernel plays a
    part, a writer thread encodes and stores the previous one (the kernels and the
    encoder release the GIL), so the disk side costs little of the kernel's time."""

    encoder = parquet.Encoder()  # the writer's: one part at a time, its memory reused
    metadata = part_metadata(manifest.params)

    def encode_and_store(rec, columns):
        _store(path, rec, encoder.encode(PARQUET_COLUMNS, columns, metadata))

    pending: tuple[PartRecord, concurrent.futures.Future] | None = None

    def finish_pending():
        nonlocal pending
        if pending is not None:
            rec, fut = pending
            pending = None
            fut.result()
            _write_manifest(path, manifest)

    # Two sets of buffers: the kernel fills one while the writer encodes the other.
    size = max((r.part.count for r in todo), default=0)
    buffers = [part_buffers(size), part_buffers(size)] if todo else []
    with concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="pitchsim-writer") as writer:
        try:
            for i, rec in enumerate(todo):
                columns = simulate_part(
                    rec.part, manifest.params, threads, progress, buffers[i % 2]
                )
                finish_pending()  # at most one part waits for the disk: memory stays bounded
                pending = (rec, writer.submit(encode_and_store, rec, columns))
                del columns
            finish_pending()
        finally:
            # Interrupted: keep the part already being written, if it completes.
            with contextlib.suppress(Exception):
                finish_pending()


_ADDRESS = re.compile(
    r"(?:(?:tcp|tls|ws|wss|ucx|inproc)://)?(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_.-]+)(?::(\d{1,5}))?(?:/\S*)?"
)


def _is_address(address: object) -> bool:
    """A Dask scheduler address: [scheme://]host[:port][/path], port 1-65535."""
    m = _ADDRESS.fullmatch(address) if isinstance(address, str) else None
    return bool(m) and (m.group(1) is None or 1 <= int(m.group(1)) <= 65535)


@contextlib.contextmanager
def _scheduler(address: str | None):
    """A Dask client for ``address`` (None: none), connected within CONNECT_TIMEOUT or a
    one-line :class:`InputError`; closed quietly when the run ends."""
    if address is None:
        yield None
        return
    if not _is_address(address):
        raise InputError(f"--scheduler {address!r} is not an address: use e.g. tcp://host:8786")
    try:
        from distributed import Client
    except ImportError:
        raise InputError("--scheduler needs Dask: pip install 'pitchsim[dask]'") from None
    import logging

    # distributed logs (and at exit prints) the failed connection itself: keep it quiet,
    # our one line says it all.
    quiet = [logging.getLogger(n) for n in ("distributed", "distributed.client", "tornado")]
    levels = [q.level for q in quiet]
    for q in quiet:
        q.setLevel(logging.CRITICAL)

    class QuietClient(Client):
        """A client that, when it fails to connect, closes at once and quietly: Dask's
        own clean-up would wait 20 s and print "Exception ignored ... TimeoutError"."""

        def start(self, **kwargs):
            try:
                return super().start(**kwargs)
            except BaseException:
                self.failed = True
                with contextlib.suppress(BaseException):
                    self.close(timeout=0.5)
                self.status = "closed"
                raise

        def __del__(self):
            if not getattr(self, "failed", False):
                super().__del__()

    try:
        try:
            client = QuietClient(address, timeout=CONNECT_TIMEOUT, set_as_default=False)
        except Exception as e:  # OSError, TimeoutError, a garbled reply (MemoryError) ...
            reason = str(e).splitlines()[0][:200] if str(e) else type(e).__name__
            if isinstance(e, MemoryError):  # it answered, with bytes that are not Dask's
                reason = "what answers there is not a Dask scheduler"
            raise InputError(f"cannot reach the Dask scheduler at {address}: {reason}") from None
    finally:
        for q, level in zip(quiet, levels, strict=True):
            q.setLevel(level)
    try:
        yield client
    finally:
        with contextlib.suppress(Exception):
            client.close()


def _run_dask(path, manifest, todo, client, threads, progress) -> None:
    """Parts as tasks on a Dask cluster; workers return Parquet bytes, which this
    process writes (no shared filesystem needed).  At most a few parts per worker
    thread are in flight, so memory stays bounded here too."""
    from distributed import as_completed

    slots = max(2, 2 * sum(client.nthreads().values()))
    queue = iter(todo)
    by_key = {}

    def submit(rec):
        fut = client.submit(part_bytes, rec.part, manifest.params, threads, pure=False)
        by_key[fut.key] = rec
        return fut

    running = as_completed([submit(r) for r in itertools.islice(queue, slots)], loop=client.loop)
    for fut in running:
        rec = by_key.pop(fut.key)
        data = fut.result()
        fut.release()
        _store(path, rec, data)
        _write_manifest(path, manifest)
        if progress is not None:
            progress(rec.part.count)
        nxt = next(queue, None)
        if nxt is not None:
            running.add(submit(nxt))
