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

Every file is written atomically (:mod:`pitchsim.util.atomic`): a part goes to a temporary
name and is renamed when complete and on disk; the manifest records its rows, size,
SHA-256 and fast checksum (:mod:`pitchsim.study.checksum`) after the rename.  A run is written
by one process at a time (:mod:`pitchsim.study.runlock`).  ``resume`` redoes exactly the parts
that are not recorded as done or whose file no longer matches its record's SHA-256
(deleted, truncated, altered).  Readers (:func:`read_part`) check every part they use
against the manifest: its fast checksum (computed while the part is decoded; SHA-256
for a run written before there was one, or when asked for a full check), rows, player
count and deal range.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import dataclasses
import hashlib
import importlib.metadata
import itertools
import os
import re
import stat
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute  # noqa: F401  (pa.compute.min_max)
import pyarrow.parquet as pq
from numba import njit, prange

from ..game.features import ACE, HOLDING_GAME, RANK_MASKS, TEN
from ..game.rules import Rules
from ..games.policies import seat_policies
from ..kernels.bits import popcount
from ..kernels.deal import deck_without
from ..kernels.simulate import BLOCK, simulate_hands
from ..util.atomic import WriteError, remove_stale_temporaries, write_file
from ..util.direct_io import write_new_file
from ..util.errors import InputError, quoted
from ..util.jsonio import dumps_json, parse_json
from ..util.limits import MAX_DEALS, MAX_PART_SIZE, MAX_PARTS, MIN_PART_SIZE, check_count
from ..util.runtime import PART_SIZE, chunked, max_threads, pick_seed, use_threads
from . import parquet
from .checksum import checksum
from .runlock import LOCK, run_lock
from .verified import VerifiedParts

FORMAT = "pitchsim-run/2"  # parts record a fast checksum next to their SHA-256
SHA256_ONLY_FORMAT = "pitchsim-run/1"  # runs written before: still read, by SHA-256
MANIFEST = "manifest.json"
MAX_SEED = 1 << 59  # stream seeds seed * 8 + n must stay below 2**62
MAX_MANIFEST_BYTES = 32 << 20  # MAX_PARTS entries take ~24 MB (with their fast checksums)
BYTES_PER_DEAL = 16  # a part's size on disk, rounded up (measured ~15)
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
# What each small-integer column can hold: an unverified read (--no-verify) checks a
# damaged part's values against these, so that they cannot index past a table.
VALUE_RANGES = {"players": (2, 7), "trump": (0, 3), "trump_count": (1, 6),
                "trump_ranks": (1, (1 << 13) - 1), "off_aces": (0, 3), "off_tens": (0, 3),
                "game_held": (0, 80), "points": (0, 4), "trumps_dealt": (1, 13),
                "game_dealt": (0, 80)}  # fmt: skip
# Required (non-null) columns: cheaper to write and read than nullable ones.
SCHEMA = pa.schema([pa.field(name, typ, nullable=False) for name, typ, _ in COLUMNS])
# How each column is stored (pitchsim.study.parquet): small integers as deltas, bit-packed;
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
    :func:`pitchsim.game.features.hand_features`, which is the reference and is tested equal),
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
    # region (FRAME or a column) -> its fast checksum; None in a run written before
    fast_checksums: dict[str, str] | None = None

    def to_json(self, fast: bool = True) -> dict:
        doc = {**dataclasses.asdict(self.part), "file": self.part.file, "status": self.status,
               "rows": self.rows, "bytes": self.bytes, "sha256": self.sha256}  # fmt: skip
        if fast:
            doc["fast_checksums"] = self.fast_checksums
        return doc

    def forget(self) -> None:
        """Back to pending: the part is to be played again."""
        self.status, self.rows, self.bytes, self.sha256, self.fast_checksums = (
            "pending", None, None, None, None)  # fmt: skip


_MANIFEST_KEYS = {"format", "pitchsim_version", "deals_per_player_count", "players", "seed",
                  "stream_seeds", "policy", "rules", "part_size", "columns", "parts"}  # fmt: skip
# A part's entries in each format: the SHA-256-only one lacks the fast checksum.
_PART_KEYS = {
    SHA256_ONLY_FORMAT: {"index", "players", "start", "count", "file", "status", "rows",
                         "bytes", "sha256"},
    FORMAT: {"index", "players", "start", "count", "file", "status", "rows", "bytes", "sha256",
             "fast_checksums"},
}  # fmt: skip
_HEX = frozenset("0123456789abcdef")
FRAME = "frame"  # a part's bytes outside its column chunks: magic, footer, length, magic
_REGIONS = {FRAME, *(name for name, _, _ in COLUMNS)}  # what has a fast checksum


class _Corrupt(ValueError):
    """What is wrong with a manifest (turned into a RunError naming the file)."""


def _int(doc: dict, key: str, lo: int, hi: int, what: str = "") -> int:
    v = doc[key]
    if isinstance(v, bool) or not isinstance(v, int):
        raise _Corrupt(f"{what}{key} must be a whole number, not {v!r}")
    if not lo <= v <= hi:
        raise _Corrupt(f"{what}{key} must be {lo:,}-{hi:,}, not {v:,}")
    return v


def _exact_keys(doc, keys: set[str], what: str) -> None:
    if not isinstance(doc, dict):
        raise _Corrupt(f"{what} must be a JSON object, not {type(doc).__name__}")
    missing, extra = keys - doc.keys(), doc.keys() - keys
    if missing:
        raise _Corrupt(f"{what} lacks {', '.join(sorted(missing))}")
    if extra:
        raise _Corrupt(f"{what} has unknown entries {', '.join(sorted(extra))}")


def _check_part_count(deals: int, players: int, part_size: int) -> None:
    parts = -(-deals // part_size) * players
    if parts > MAX_PARTS:
        raise InputError(
            f"{deals:,} deals x {players} player counts in parts of {part_size:,} make "
            f"{parts:,} parts, more than a run may have ({MAX_PARTS:,}): raise --part-size"
        )


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

    def complete(self) -> bool:
        return all(r.status == "done" for r in self.parts)

    def has_fast_checksums(self) -> bool:
        """Every done part records a fast checksum: the manifest is written as
        :data:`FORMAT` (else as it was found, :data:`SHA256_ONLY_FORMAT`)."""
        return all(r.fast_checksums is not None for r in self.done())

    def to_json(self) -> dict:
        fast = self.has_fast_checksums()
        return {
            "format": FORMAT if fast else SHA256_ONLY_FORMAT,
            "pitchsim_version": self.version,
            "deals_per_player_count": self.deals,
            "players": self.players,
            "seed": self.params.seed,
            "stream_seeds": {str(n): self.params.stream_seed(n) for n in self.players},
            "policy": self.params.policy,
            "rules": self.params.rules,
            "part_size": self.part_size,
            "columns": _COLUMNS_JSON,
            "parts": [r.to_json(fast) for r in self.parts],
        }

    @classmethod
    def from_json(cls, doc: dict, where: str) -> Manifest:
        """A manifest checked as a whole: every entry present, of its type and in its
        range, and the parts exactly those its parameters plan (a :class:`RunError`
        naming the first problem otherwise)."""
        form = doc.get("format") if isinstance(doc, dict) else None
        if not isinstance(form, str) or form not in _PART_KEYS:
            raise RunError(f"{where} is not a {FORMAT} manifest (format {form!r})")
        try:
            return cls._checked(doc)
        except (_Corrupt, InputError) as e:
            raise RunError(f"{where} is corrupt: {e}") from None

    @classmethod
    def _checked(cls, doc: dict) -> Manifest:
        _exact_keys(doc, _MANIFEST_KEYS, "the manifest")
        deals = _int(doc, "deals_per_player_count", 1, MAX_DEALS)
        players = doc["players"]
        if (not isinstance(players, list) or not players
                or any(isinstance(n, bool) or not isinstance(n, int) or not 2 <= n <= 7
                       for n in players)
                or players != sorted(set(players))):  # fmt: skip
            raise _Corrupt(f"players must be a sorted list of counts 2-7, not {players!r}")
        seed = _int(doc, "seed", 0, MAX_SEED - 1)
        part_size = _int(doc, "part_size", MIN_PART_SIZE, MAX_PART_SIZE)
        _check_part_count(deals, len(players), part_size)
        if not isinstance(doc["policy"], str):
            raise _Corrupt(f"policy must be a name, not {doc['policy']!r}")
        for n in players:
            seat_policies(doc["policy"], n)
        rules = doc["rules"]
        if not isinstance(rules, dict) or set(rules) != set(Rules().describe()):
            raise _Corrupt(f"rules must list every rule option, not {quoted(rules)}")
        checked = Rules.parse(rules)
        for n in players:
            checked.check_players(n)
        params = RunParams(seed, doc["policy"], checked.describe())
        if doc["stream_seeds"] != {str(n): params.stream_seed(n) for n in players}:
            raise _Corrupt("stream_seeds do not follow from seed and players")
        if doc["columns"] != _COLUMNS_JSON:
            raise _Corrupt("its columns are not this pitchsim's")
        if not isinstance(doc["pitchsim_version"], str):
            raise _Corrupt("pitchsim_version must be a string")
        if not isinstance(doc["parts"], list):
            raise _Corrupt(f"parts must be a list, not {type(doc['parts']).__name__}")
        plan = plan_parts(deals, players, part_size)
        if len(doc["parts"]) != len(plan):
            raise _Corrupt(f"it lists {len(doc['parts']):,} parts; its deals make {len(plan):,}")
        keys = _PART_KEYS[doc["format"]]
        parts = [_part_record(p, part, keys) for p, part in zip(doc["parts"], plan, strict=True)]
        return cls(deals, players, params, part_size, doc["pitchsim_version"], parts)


def _part_record(p, part: Part, keys: set[str]) -> PartRecord:
    what = f"part {part.index}: "
    _exact_keys(p, keys, f"part entry {part.index}")
    fast = p.get("fast_checksums")
    recorded = Part(*(_int(p, k, 0, 1 << 62, what) for k in ("index", "players", "start", "count")))
    if recorded != part or p["file"] != part.file:
        raise _Corrupt(f"{what}it is not the part its parameters plan ({part})")
    status = p["status"]
    if status == "pending":
        if (p["rows"], p["bytes"], p["sha256"], fast) != (None, None, None, None):
            raise _Corrupt(f"{what}pending, yet it has rows, bytes or a checksum")
        return PartRecord(part)
    if status != "done":
        raise _Corrupt(f"{what}status must be 'pending' or 'done', not {status!r}")
    rows = _int(p, "rows", part.count, part.count, what)
    size = _int(p, "bytes", 1, 64 * part.count + (1 << 16), what)
    sha = p["sha256"]
    if not isinstance(sha, str) or len(sha) != 64 or not set(sha) <= _HEX:
        raise _Corrupt(f"{what}sha256 must be 64 hex digits, not {sha!r}")
    if "fast_checksums" in keys:
        _exact_keys(fast, _REGIONS, f"part entry {part.index}'s fast_checksums")
        for region, value in fast.items():
            if not isinstance(value, str) or len(value) != 32 or not set(value) <= _HEX:
                raise _Corrupt(f"{what}fast checksum of {region} must be 32 hex digits, not "
                               f"{value!r}")  # fmt: skip
    return PartRecord(part, "done", rows, size, sha, fast)


_COLUMNS_JSON = {name: {"type": str(typ), "meaning": doc} for name, typ, doc in COLUMNS}


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
    """The manifest of the run in directory ``run`` (:class:`RunError` when there is none
    or it is malformed)."""
    path = Path(run)
    if not path.exists():
        raise RunError(f"run directory {run} does not exist")
    if not path.is_dir():
        raise RunError(f"{run} is not a directory (a run is a directory with a {MANIFEST})")
    mpath = path / MANIFEST
    if not mpath.is_file():
        raise RunError(f"{run} is not a pitchsim run: it has no {MANIFEST}")
    try:
        with open(mpath, "rb") as f:
            raw = f.read(MAX_MANIFEST_BYTES + 1)
        if len(raw) > MAX_MANIFEST_BYTES:
            raise RunError(f"{mpath} is corrupt: over {MAX_MANIFEST_BYTES >> 20} MB")
        doc = parse_json(raw.decode("utf-8"), "the manifest")  # depth, digits, no NaN
    except (OSError, UnicodeDecodeError, RecursionError, ValueError) as e:
        reason = getattr(e, "strerror", None) or str(e).splitlines()[0][:200]
        raise RunError(f"{mpath} is corrupt: {reason}") from None
    if not isinstance(doc, dict):
        raise RunError(f"{mpath} is corrupt: not a JSON object")
    return Manifest.from_json(doc, str(mpath))


def _resume_hint(run: Path) -> str:
    return f"free some space (or fix the permission), then finish it with: pitchsim simulate --resume --out {run}"


def _write_manifest(run: Path, manifest: Manifest) -> None:
    write_file(run / MANIFEST, dumps_json(manifest.to_json(), indent=1) + "\n", _resume_hint(run))


# ---- running a run -------------------------------------------------------------------


def parse_players(spec: str | int | Iterable[int]) -> list[int]:
    """``"3,4,5"``, ``"3-7"``, ``4`` or ``[3, 4]`` -> a sorted list without repeats."""
    if isinstance(spec, bool):
        raise InputError(f"cannot read player counts {spec!r}: use e.g. 4 or 3,4,5 or 3-7")
    if isinstance(spec, int):
        return [spec]
    if not isinstance(spec, str):
        out = list(spec)
        if any(isinstance(n, bool) or not isinstance(n, int) for n in out):
            raise InputError(f"player counts must be whole numbers, not {spec!r}")
    else:
        out = []
        for item in spec.split(","):
            item = item.strip()
            try:
                if "-" in item[1:]:
                    lo, hi = (int(x) for x in item.split("-", 1))
                    if not (2 <= lo <= 7 and 2 <= hi <= 7):
                        raise InputError(f"players must be 2-7, not {item}")
                    out += list(range(lo, hi + 1))
                elif item:
                    if len(item) > 3:
                        raise ValueError
                    out.append(int(item))
                else:
                    raise ValueError
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
        seat_policies(policy, n)
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
                params = RunParams(seed, policy, rules.describe())
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


def _check_space(path: Path, deals: int) -> None:
    p = path
    while not p.exists():
        p = p.parent
    try:
        free = os.statvfs(p).f_bavail * os.statvfs(p).f_frsize
    except OSError:
        return
    need = deals * BYTES_PER_DEAL
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
            note(f"the fast checksums of {path}'s parts were not recorded ({e}); its reads "
                 "check SHA-256 instead")  # fmt: skip


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
    column chunk and the frame around them, which together are every byte of it (a
    ``ValueError`` if they are not: a file this pitchsim did not write)."""
    view = memoryview(data).cast("B")
    frame = _frame(view)
    if frame is None:
        raise ValueError("it does not end as a Parquet file")
    meta = pq.ParquetFile(pa.BufferReader(view)).metadata
    chunks = _chunks(meta)
    ends = sorted(chunks.values())
    if (
        set(chunks) != _REGIONS - {FRAME}
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
            raise RunError(f"{f} is truncated or altered ({st.st_size:,} bytes, the manifest "
                           f"recorded {rec.bytes:,})" + hint)  # fmt: skip
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
                    raise RunError(f"{f} is altered (its checksum differs from the manifest's)"
                                   + hint)  # fmt: skip
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
                raise RunError(f"{f}: column {name} holds {span['min']}-{span['max']}, "
                               f"outside {lo}-{hi}: the part is damaged" + hint)  # fmt: skip


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
    for name in wanted:
        typ = table.schema.field(name).type
        if typ != SCHEMA.field(name).type:
            raise RunError(
                f"{f}: column {name} has type {typ}, not {SCHEMA.field(name).type}" + hint
            )
    return table


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
