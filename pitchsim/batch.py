"""Simulation runs: millions of pitched hands kept as a dataset of Parquet parts.

A run is a directory::

    manifest.json          parameters, seed, policy, rules, version, per-part status
    part-000000.parquet    one part: ``part_size`` consecutive deals of one player count
    part-000001.parquet
    ...

Each deal is one random hand for the pitcher (seat 0, who leads), trump as his play
policy chooses it, the other hands dealt at random and everything played out by the
kernel.  A row records the deal, the pitcher's hand and its features, and the outcome
(see :data:`COLUMNS`).

Deal ``i`` at ``n`` players is the kernel's deal ``i`` under the stream seed
``seed * 8 + n``: every player count has its own independent deals, and the data of a
player count does not depend on which other counts share the run.  A part's content is
a function of (seed, player count, deal range) only, and its bytes are produced by one
function wherever it runs, so a run is byte-identical on 1 thread, 2 threads, resumed
after an interruption, or computed on a Dask cluster.

A part is written to a temporary name and renamed when complete; the manifest records
its size and SHA-256 after the rename.  ``resume`` redoes exactly the parts that are not
recorded as done or whose file no longer matches its record (deleted, truncated).
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import dataclasses
import hashlib
import importlib.metadata
import itertools
import json
import os
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
from numba import njit, prange

from . import parquet
from .direct_io import write_new_file
from .errors import InputError
from .features import ACE, HOLDING_GAME, RANK_MASKS, TEN
from .kernels.bits import popcount
from .kernels.deal import deck_without
from .kernels.simulate import BLOCK, simulate_hands
from .options import Rules
from .policies import seat_policies
from .runtime import PART_SIZE, check_threads, chunked, pick_seed, use_threads

FORMAT = "pitchsim-run/1"
MANIFEST = "manifest.json"
MAX_SEED = 1 << 59  # stream seeds seed * 8 + n must stay below 2**62
MAX_DEALS = 10**12
CONNECT_TIMEOUT = "10s"  # to reach a Dask scheduler

# name, Arrow type, meaning.  The order is the order of the columns in every part.
COLUMNS = (
    ("deal", pa.int64(), "deal index (the kernel's deal number in the stream of seed * 8 + players)"),
    ("players", pa.uint8(), "players at the table"),
    ("hand", pa.int64(), "the pitcher's hand: bit suit*13+rank per card (rank 0 = deuce, suits C D H S)"),
    ("trump", pa.int8(), "trump suit chosen by the pitcher's policy: 0-3 = C D H S"),
    ("trump_count", pa.uint8(), "trumps in the pitcher's hand"),
    ("trump_ranks", pa.uint16(), "trump ranks held: bit r = rank r (0 = deuce ... 12 = ace)"),
    ("off_aces", pa.uint8(), "aces held outside trump"),
    ("off_tens", pa.uint8(), "tens held outside trump"),
    ("game_held", pa.uint8(), "game points in the pitcher's hand (ten 10, ace 4, king 3, queen 2, jack 1)"),
    ("high", pa.bool_(), "the pitcher's side won High"),
    ("low", pa.bool_(), "the pitcher's side won Low"),
    ("jack", pa.bool_(), "the pitcher's side won Jack"),
    ("game", pa.bool_(), "the pitcher's side won Game"),
    ("points", pa.uint8(), "points won by the pitcher's side, 0-4"),
    ("jack_dealt", pa.bool_(), "the jack of trump was in play (dealt to anyone)"),
    ("trumps_dealt", pa.uint8(), "trumps in play, all hands"),
    ("game_dealt", pa.uint8(), "game points in play, all hands"),
)  # fmt: skip
# Required (non-null) columns: cheaper to write and read than nullable ones.
SCHEMA = pa.schema([pa.field(name, typ, nullable=False) for name, typ, _ in COLUMNS])
# How each column is stored (pitchsim.parquet): small integers as deltas, bit-packed;
# booleans bit-packed; the hand mask plain.  About 15 bytes a deal, and a part's bytes
# depend on its data alone.
_PARQUET_COLUMNS = [
    parquet.Column(name, typ, "plain" if name == "hand" else "delta") for name, typ, _ in COLUMNS
]


class RunError(InputError):
    """A run directory that cannot be used as asked; the message says why and what to do."""


# ---- the data of one part ------------------------------------------------------------


@dataclass(frozen=True)
class Part:
    """Deals ``start .. start+count-1`` at ``players`` players, stored in ``file``."""

    index: int
    players: int
    start: int
    count: int

    @property
    def file(self) -> str:
        return f"part-{self.index:06d}.parquet"


@dataclass(frozen=True)
class RunParams:
    """Everything a part's content depends on besides its deal range."""

    seed: int
    policy: str
    rules: dict  # Rules.describe()

    def stream_seed(self, players: int) -> int:
        return self.seed * 8 + players


@njit(cache=True, parallel=True, nogil=True)
def _describe_deals(start, n, flags, in_play, game_table, deal, players, hand, trump,
                    trump_count, trump_ranks, off_aces, off_tens, game_held, high, low, jack,
                    game, points, jack_dealt, trumps_dealt, game_dealt):  # fmt: skip
    """The per-deal columns after the kernel has played: the pitcher's hand features (as
    :func:`pitchsim.features.hand_features`, which is the reference and is tested equal),
    the outcome from ``flags`` and what was in play from ``in_play`` (every card dealt)."""
    blocks = (flags.size + BLOCK - 1) // BLOCK  # blocks, as every parallel kernel (runtime.py)
    for b in prange(blocks):
        for d in range(b * BLOCK, min(flags.size, (b + 1) * BLOCK)):
            deal[d] = start + d
            players[d] = n
            h = hand[d]
            dealt = in_play[d]
            t = np.int64(trump[d])
            shift = t * 13
            held = (h >> shift) & 0x1FFF
            off = h & ~(np.int64(0x1FFF) << shift)
            trump_count[d] = popcount(held)
            trump_ranks[d] = held
            off_aces[d] = popcount(off & _ACES)
            off_tens[d] = popcount(off & _TENS)
            g_hand = 0
            g_play = 0
            for suit in range(4):
                g_hand += game_table[(h >> (suit * 13)) & 0x1FFF]
                g_play += game_table[(dealt >> (suit * 13)) & 0x1FFF]
            game_held[d] = g_hand
            game_dealt[d] = g_play
            f = np.int64(flags[d]) & 15
            high[d] = (f & 1) != 0
            low[d] = (f & 2) != 0
            jack[d] = (f & 4) != 0
            game[d] = (f & 8) != 0
            points[d] = popcount(f)
            jack_dealt[d] = ((dealt >> (shift + 9)) & 1) != 0
            trumps_dealt[d] = popcount((dealt >> shift) & 0x1FFF)


_RANDOM_HAND = deck_without(0)
_ACES = np.int64(RANK_MASKS[ACE])
_TENS = np.int64(RANK_MASKS[TEN])
# One kernel call at a time per process: concurrent Dask tasks in one worker would
# otherwise oversubscribe its cores (every call already uses all of them).
_KERNEL_LOCK = threading.Lock()


def part_buffers(size: int) -> dict[str, np.ndarray]:
    """Arrays for every column of a part of up to ``size`` deals, plus the kernel's flags
    and in-play masks.

    Reusing them from part to part spares the allocation and first touch of ~30 MB per
    million deals; a table built on them is only valid until they are reused."""
    out = {name: np.empty(size, dtype=typ.to_pandas_dtype()) for name, typ, _ in COLUMNS}
    out["flags"] = np.empty(size, dtype=np.int8)
    out["in_play"] = np.empty(size, dtype=np.int64)
    return out


def simulate_part(
    part: Part,
    params: RunParams,
    threads: int | None = None,
    progress=None,
    buffers: dict[str, np.ndarray] | None = None,
) -> dict[str, np.ndarray]:
    """Play the deals of ``part``: its columns, in :data:`SCHEMA` order (views of
    ``buffers`` from :func:`part_buffers` when given, valid until they are reused)."""
    n, count = part.players, part.count
    rules = Rules(**{k.replace("-", "_"): v for k, v in params.rules.items()})
    policies = seat_policies(params.policy, n)
    rule_array = rules.to_array()
    seed = params.stream_seed(n)
    if buffers is None or buffers["flags"].size < count:
        buffers = part_buffers(count)
    col = {name: a[:count] for name, a in buffers.items()}
    flags, trump, hand, in_play = col["flags"], col["trump"], col["hand"], col["in_play"]
    with _KERNEL_LOCK, use_threads(threads):
        for a, b in chunked(count):
            simulate_hands(seed, part.start + a, b - a, n, 0, _RANDOM_HAND, -1, policies,
                           rule_array, flags[a:b], trump[a:b], hand[a:b], in_play[a:b])  # fmt: skip
            if progress is not None:
                progress(b - a)
        # every column in SCHEMA order (hand and trump already filled in by the kernel)
        _describe_deals(part.start, n, flags, in_play, HOLDING_GAME,
                        *(col[name] for name in SCHEMA.names))  # fmt: skip
    return {name: col[name] for name in SCHEMA.names}


def part_table(columns: dict[str, np.ndarray]) -> pa.Table:
    """A part's columns as an Arrow table in :data:`SCHEMA`."""
    return pa.Table.from_arrays([columns[name] for name in SCHEMA.names], schema=SCHEMA)


_worker = threading.local()  # per worker thread: column buffers and encoder, reused


def part_bytes(part: Part, params: RunParams, threads: int | None = None) -> bytes:
    """A part from scratch: what a Dask worker runs (reusing its thread's memory from
    part to part, as a local run does)."""
    if getattr(_worker, "buffers", None) is None or _worker.buffers["flags"].size < part.count:
        _worker.buffers, _worker.encoder = part_buffers(part.count), parquet.Encoder()
    columns = simulate_part(part, params, threads, buffers=_worker.buffers)
    return bytes(_worker.encoder.encode(_PARQUET_COLUMNS, columns))


# ---- the manifest --------------------------------------------------------------------


@dataclass
class PartRecord:
    part: Part
    status: str = "pending"  # "pending" | "done"
    rows: int | None = None
    bytes: int | None = None
    sha256: str | None = None

    def to_json(self) -> dict:
        return {**dataclasses.asdict(self.part), "file": self.part.file, "status": self.status,
                "rows": self.rows, "bytes": self.bytes, "sha256": self.sha256}  # fmt: skip


@dataclass
class Manifest:
    """What a run is (its parameters) and how far it got (its parts)."""

    deals: int
    players: list[int]
    params: RunParams
    part_size: int
    version: str
    parts: list[PartRecord] = field(default_factory=list)

    @property
    def seed(self) -> int:
        return self.params.seed

    @property
    def policy(self) -> str:
        return self.params.policy

    @property
    def rules(self) -> Rules:
        return Rules(**{k.replace("-", "_"): v for k, v in self.params.rules.items()})

    def done(self) -> list[PartRecord]:
        return [r for r in self.parts if r.status == "done"]

    def to_json(self) -> dict:
        return {
            "format": FORMAT,
            "pitchsim_version": self.version,
            "deals_per_player_count": self.deals,
            "players": self.players,
            "seed": self.params.seed,
            "stream_seeds": {str(n): self.params.stream_seed(n) for n in self.players},
            "policy": self.params.policy,
            "rules": self.params.rules,
            "part_size": self.part_size,
            "columns": {name: {"type": str(typ), "meaning": doc} for name, typ, doc in COLUMNS},
            "parts": [r.to_json() for r in self.parts],
        }

    @classmethod
    def from_json(cls, doc: dict, where: str) -> Manifest:
        try:
            if doc.get("format") != FORMAT:
                raise RunError(f"{where} is not a {FORMAT} manifest (format {doc.get('format')!r})")
            params = RunParams(int(doc["seed"]), str(doc["policy"]), dict(doc["rules"]))
            parts = []
            for i, p in enumerate(doc["parts"]):
                part = Part(int(p["index"]), int(p["players"]), int(p["start"]), int(p["count"]))
                if part.index != i or p["status"] not in ("pending", "done"):
                    raise ValueError(f"part entry {i} is inconsistent")
                rec = PartRecord(part, p["status"], p.get("rows"), p.get("bytes"), p.get("sha256"))
                if rec.status == "done" and not (
                    rec.rows == part.count and rec.bytes and rec.sha256
                ):
                    raise ValueError(f"part {i} is marked done without its size and checksum")
                parts.append(rec)
            m = cls(int(doc["deals_per_player_count"]), [int(n) for n in doc["players"]], params,
                    int(doc["part_size"]), str(doc.get("pitchsim_version", "unknown")), parts)  # fmt: skip
            m.rules  # noqa: B018  (validates the rule options)
        except RunError:
            raise
        except (KeyError, TypeError, ValueError, InputError) as e:
            raise RunError(f"{where} is corrupt: {e}") from None
        if [r.part for r in parts] != plan_parts(m.deals, m.players, m.part_size):
            raise RunError(f"{where} is corrupt: its parts do not cover the deals it lists")
        return m


def plan_parts(deals: int, players: Sequence[int], part_size: int) -> list[Part]:
    """Parts in order: every player count's deals 0..deals-1 cut into ``part_size``."""
    parts = []
    for n in players:
        for start, stop in chunked(deals, part_size):
            parts.append(Part(len(parts), n, start, stop - start))
    return parts


def _package_version() -> str:
    try:
        return importlib.metadata.version("pitchsim")
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


def read_manifest(run: str | Path) -> Manifest:
    """The manifest of the run in directory ``run`` (:class:`RunError` when there is none)."""
    path = Path(run)
    if not path.exists():
        raise RunError(f"run directory {run} does not exist")
    if not path.is_dir():
        raise RunError(f"{run} is not a directory (a run is a directory with a {MANIFEST})")
    mpath = path / MANIFEST
    if not mpath.is_file():
        raise RunError(f"{run} is not a pitchsim run: it has no {MANIFEST}")
    try:
        doc = json.loads(mpath.read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise RunError(f"{mpath} is corrupt: {e}") from None
    if not isinstance(doc, dict):
        raise RunError(f"{mpath} is corrupt: not a JSON object")
    return Manifest.from_json(doc, str(mpath))


def _write_manifest(run: Path, manifest: Manifest) -> None:
    tmp = run / f".{MANIFEST}.tmp"
    tmp.write_text(json.dumps(manifest.to_json(), indent=1) + "\n")
    os.replace(tmp, run / MANIFEST)


# ---- running a run -------------------------------------------------------------------


def parse_players(spec: str | int | Iterable[int]) -> list[int]:
    """``"3,4,5"``, ``"3-7"``, ``4`` or ``[3, 4]`` -> a sorted list without repeats."""
    if isinstance(spec, int):
        return [spec]
    if not isinstance(spec, str):
        out = [int(n) for n in spec]
    else:
        out = []
        for item in spec.split(","):
            item = item.strip()
            try:
                if "-" in item:
                    lo, hi = (int(x) for x in item.split("-", 1))
                    out += list(range(lo, hi + 1))
                elif item:
                    out.append(int(item))
            except ValueError:
                raise InputError(
                    f"cannot read player counts {spec!r}: use e.g. 4 or 3,4,5 or 3-7"
                ) from None
    if not out:
        raise InputError(f"no player counts in {spec!r}")
    if len(set(out)) != len(out):
        raise InputError(f"player counts {spec!r} repeat a count")
    return sorted(out)


@dataclass
class RunResult:
    path: Path
    manifest: Manifest
    parts_run: int
    deals_run: int


def simulate(
    out: str | Path,
    deals: int,
    players: str | int | Iterable[int] = 4,
    policy: str = "heuristic",
    seed: int | None = None,
    rules: Rules | None = None,
    part_size: int = PART_SIZE,
    threads: int | None = None,
    scheduler: str | None = None,
    progress: Callable[[int], None] | None = None,
) -> RunResult:
    """Start a run in the new or empty directory ``out`` and play all of it.

    ``deals`` deals for every player count in ``players``.  ``scheduler`` is the address
    of a Dask scheduler to run the parts on; otherwise they run here on ``threads``
    threads.  ``progress(deals_done)`` is called as deals finish.  If interrupted,
    :func:`resume` finishes the run.

    >>> r = simulate("/tmp/pitchsim-doctest-run", 2000, players=[3, 5], seed=1)  # doctest: +SKIP
    >>> r.manifest.done()[0].rows  # doctest: +SKIP
    2000
    """
    rules = rules or Rules()
    counts = parse_players(players)
    if not 0 < deals <= MAX_DEALS:
        raise InputError(f"deals must be 1-{MAX_DEALS:,}, not {deals}")
    if not 0 < part_size <= 1 << 24:
        raise InputError(f"part size must be 1-{1 << 24:,} deals, not {part_size}")
    seed = pick_seed(seed, MAX_SEED)
    for n in counts:
        rules.check_players(n)
        seat_policies(policy, n)
    if scheduler is None:  # (a cluster's workers may have more cores than this machine)
        check_threads(threads)  # before anything is written
    path = Path(out)
    if (path / MANIFEST).exists():
        raise RunError(f"{out} already holds a run: use --resume to finish it, or another --out")
    if path.exists() and (not path.is_dir() or any(path.iterdir())):
        raise RunError(f"{out} exists and is not an empty directory; choose another --out")
    path.mkdir(parents=True, exist_ok=True)
    params = RunParams(seed, policy, rules.describe())
    parts = [PartRecord(p) for p in plan_parts(deals, counts, part_size)]
    manifest = Manifest(deals, counts, params, part_size, _package_version(), parts)
    _write_manifest(path, manifest)
    return _run(path, manifest, threads, scheduler, progress)


def resume(
    out: str | Path,
    threads: int | None = None,
    scheduler: str | None = None,
    progress: Callable[[int], None] | None = None,
    on_damaged: Callable[[str], None] | None = None,
) -> RunResult:
    """Finish the run in ``out``: redo every part not recorded as done, or whose file is
    missing, truncated or altered.  ``on_damaged(message)`` hears about the latter."""
    path = Path(out)
    manifest = read_manifest(path)
    if scheduler is None:
        check_threads(threads)
    for tmp in path.glob(".part-*.tmp"):
        tmp.unlink()
    for rec in manifest.done():
        problem = part_problem(path, rec, check_sum=True)
        if problem:
            if on_damaged:
                on_damaged(f"{problem}: redoing it")
            rec.status, rec.rows, rec.bytes, rec.sha256 = "pending", None, None, None
    _check_same_simulator(path, manifest)
    _write_manifest(path, manifest)
    return _run(path, manifest, threads, scheduler, progress)


SAMPLE_DEALS = 1000  # replayed on resume to check the simulator has not changed


def _check_same_simulator(path: Path, manifest: Manifest) -> None:
    """Replay the first deals of a finished part: a resumed run must not mix parts from
    two versions of the simulator (the kernels change; the version number may not)."""
    done = manifest.done()
    if not done or all(r.status == "done" for r in manifest.parts):
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


def part_problem(run: Path, rec: PartRecord, check_sum: bool = False) -> str | None:
    """Why a done part's file cannot be trusted, or None when it matches its record."""
    f = run / rec.part.file
    if not f.is_file():
        return f"{f} is missing"
    size = f.stat().st_size
    if size != rec.bytes:
        return f"{f} is truncated or altered ({size:,} bytes, the manifest recorded {rec.bytes:,})"
    if check_sum and _sha256(f.read_bytes()) != rec.sha256:
        return f"{f} is altered (its checksum differs from the manifest's)"
    return None


def _sha256(data) -> str:
    return hashlib.sha256(data).hexdigest()


def _store(run: Path, rec: PartRecord, data: bytes | memoryview) -> None:
    """Write a finished part under a temporary name, then rename it into place."""
    tmp = run / f".{rec.part.file}.tmp"
    write_new_file(tmp, data)
    os.replace(tmp, run / rec.part.file)
    rec.status, rec.rows, rec.bytes, rec.sha256 = "done", rec.part.count, len(data), _sha256(data)


def _run(path, manifest, threads, scheduler, progress) -> RunResult:
    todo = [r for r in manifest.parts if r.status != "done"]
    if scheduler:
        _run_dask(path, manifest, todo, scheduler, threads, progress)
    else:
        _run_local(path, manifest, todo, threads, progress)
    return RunResult(path, manifest, len(todo), sum(r.part.count for r in todo))


def _run_local(path, manifest, todo, threads, progress) -> None:
    """Parts one after another, each on all kernel threads; while the kernel plays a
    part, a writer thread encodes and stores the previous one (the kernels and the
    encoder release the GIL), so the disk side costs little of the kernel's time."""

    encoder = parquet.Encoder()  # the writer's: one part at a time, its memory reused

    def encode_and_store(rec, columns):
        _store(path, rec, encoder.encode(_PARQUET_COLUMNS, columns))

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


def _run_dask(path, manifest, todo, address, threads, progress) -> None:
    """Parts as tasks on a Dask cluster; workers return Parquet bytes, which this
    process writes (no shared filesystem needed).  At most a few parts per worker
    thread are in flight, so memory stays bounded here too."""
    try:
        from distributed import Client, as_completed
    except ImportError:
        raise InputError("--scheduler needs Dask: pip install 'pitchsim[dask]'") from None
    try:
        client = Client(address, timeout=CONNECT_TIMEOUT, set_as_default=False)
    except (OSError, TimeoutError, ValueError) as e:
        raise InputError(f"cannot reach the Dask scheduler at {address}: {e}") from None
    with client:
        slots = max(2, 2 * sum(client.nthreads().values()))
        queue = iter(todo)
        by_key = {}

        def submit(rec):
            fut = client.submit(part_bytes, rec.part, manifest.params, threads, pure=False)
            by_key[fut.key] = rec
            return fut

        running = as_completed(
            [submit(r) for r in itertools.islice(queue, slots)], loop=client.loop
        )
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
