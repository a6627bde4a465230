"""What a run is: its manifest (parameters, seed, policy, rules, version, per-part
status) and the columns its parts hold.

A run is a directory::

    manifest.json          parameters, seed, policy, rules, version, per-part status
    part-000000.parquet    one part: ``part_size`` consecutive deals of one player count
    part-000001.parquet
    ...

:func:`read_manifest` checks a manifest as a whole before anything uses it, written in
today's format (:data:`FORMAT`) or the one before (:data:`SHA256_ONLY_FORMAT`, still
read).  Playing a run is :mod:`pitchsim.study.batch`; reading its parts back,
:mod:`pitchsim.study.parts`.
"""

from __future__ import annotations

import contextlib
import dataclasses
import importlib.metadata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pyarrow as pa

from ..game.rules import Rules, label
from ..util.atomic import write_file
from ..util.errors import InputError, quoted
from ..util.jsonio import dumps_json, parse_json
from ..util.limits import MAX_DEALS, MAX_PART_SIZE, MAX_PARTS, MIN_PART_SIZE
from ..util.runtime import chunked

FORMAT = "pitchsim-run/2"  # parts record a fast checksum next to their SHA-256
SHA256_ONLY_FORMAT = "pitchsim-run/1"  # runs written before: still read, by SHA-256
MANIFEST = "manifest.json"
MAX_SEED = 1 << 59  # stream seeds seed * 8 + n must stay below 2**62
MAX_MANIFEST_BYTES = 32 << 20  # MAX_PARTS entries take ~24 MB (with their fast checksums)

# ---- the columns of a run (every preset: VARIANTS.md) -------------------------------------

# The key trumps a family run records, bit i of ``keys`` / ``keys_held``: the family's point
# cards and top trumps, as :func:`key_cards` names them.  A key the family does not count
# (the jick in setback, the jokers in smear) is never set.
KEY_NAMES = ("A", "K", "J", "Jk", "HJ", "LJ", "10", "5", "3", "2")


def key_cards(r: Rules, trump: int) -> list[tuple[int, str]]:
    """The trumps that name a holding under the preset ``r`` when ``trump`` is trump, in
    trump order: the point cards of the family (the ace and the king as the top trumps)."""
    from ..game.cards import ACE, HIGH_JOKER, JACK, KING, LOW_JOKER, TEN
    from ..game.trumps import jick_card

    base = trump * 13
    out = [(base + ACE, "A"), (base + KING, "K"), (base + JACK, "J")]
    if r.jick:
        out.append((jick_card(trump), "Jk"))
    if r.jokers >= 1:
        out.append((HIGH_JOKER, "HJ"))
    if r.jokers == 2:
        out.append((LOW_JOKER, "LJ"))
    if r.game == "ten":
        out.append((base + TEN, "10"))
    if r.five:
        out.append((base + 3, "5"))  # ranks 2 3 4 5 ...: the 5 is rank 3
    if r.three:
        out.append((base + 1, "3"))
    out.append((base + 0, "2"))
    return out


def key_table(rules) -> np.ndarray:
    """Per trump suit, the card of each key of :data:`KEY_NAMES` (-1: a key these rules
    do not count), from :func:`key_cards`."""
    out = np.full((4, len(KEY_NAMES)), -1, dtype=np.int64)
    for t in range(4):
        for card, name in key_cards(rules, t):
            out[t, KEY_NAMES.index(name)] = card
    return out


# Each award's column: who took that point.
AWARD_SIDES = ("pitcher", "other", "nobody", "none")  # 3: not a point of these rules
AWARDS = (
    "high",
    "low",
    "jack",
    "jick",
    "high_joker",
    "low_joker",
    "ten",
    "three",
    "five",
    "game",
)  # pitchsim.kernels.score.AWARD_NAMES, as column names
# name, Arrow type, meaning.  The order is the order of the columns in every part.
COLUMNS = (
    (
        "deal",
        pa.int64(),
        "deal index (the family kernel's deal number in the stream of seed * 8 + players)",
    ),
    ("players", pa.uint8(), "players at the table"),
    (
        "hand",
        pa.int64(),
        "the pitcher's cards as dealt: bit suit*13+rank (rank 0 = deuce), 52/53 the jokers",
    ),
    ("held", pa.int64(), "the pitcher's cards when play starts (after any discard and draw)"),
    ("trump", pa.int8(), "trump: 0-3 = C D H S (led first, or named by the pitcher)"),
    ("trump_count", pa.uint8(), "trumps dealt to the pitcher (the jick and jokers included)"),
    ("trump_count_held", pa.uint8(), "trumps the pitcher held when play started"),
    ("keys", pa.uint16(), "key trumps dealt to the pitcher: bit i = " + " ".join(KEY_NAMES)),
    ("keys_held", pa.uint16(), "key trumps the pitcher held when play started (bits as keys)"),
    ("points", pa.uint8(), "points won by the pitcher's side"),
    *(
        (
            name,
            pa.uint8(),
            f"who took {name.replace('_', ' ')}: 0 the pitcher's side, 1 the other side, "
            "2 nobody, 3 not a point of these rules",
        )
        for name in AWARDS
    ),
)
# What each small-integer column can hold: an unverified read (--no-verify) checks a
# damaged part's values against these, so that they cannot index past a table.
VALUE_RANGES = {
    "players": (2, 7),
    "trump": (0, 3),
    "trump_count": (0, 10),
    "trump_count_held": (0, 10),
    "keys": (0, (1 << len(KEY_NAMES)) - 1),
    "keys_held": (0, (1 << len(KEY_NAMES)) - 1),
    "points": (0, 18),
    **{name: (0, 3) for name in AWARDS},
}


# Required (non-null) columns: cheaper to write and read than nullable ones.
SCHEMA = pa.schema([pa.field(n, t, nullable=False) for n, t, _ in COLUMNS])
REGIONS = frozenset({"frame", *(n for n, _, _ in COLUMNS)})  # what has a fast checksum
COLUMNS_JSON = {n: {"type": str(t), "meaning": doc} for n, t, doc in COLUMNS}


# A part's footer names the rules it was played under (key-value metadata), so that a
# manifest naming other rules over its parts is caught (every preset has the same columns).
RULES_KEY = "pitchsim.rules"


def part_metadata(params: RunParams) -> dict[str, str]:
    """The key-value metadata of a part's footer: its rules, as :func:`label` writes them."""
    return {RULES_KEY: label(Rules.parse(params.rules))}


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
    rules: dict  # Rules.describe_in_full(): the preset and its every option

    def stream_seed(self, players: int) -> int:
        return self.seed * 8 + players


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
        doc = {
            **dataclasses.asdict(self.part),
            "file": self.part.file,
            "status": self.status,
            "rows": self.rows,
            "bytes": self.bytes,
            "sha256": self.sha256,
        }
        if fast:
            doc["fast_checksums"] = self.fast_checksums
        return doc

    def forget(self) -> None:
        """Back to pending: the part is to be played again."""
        self.status, self.rows, self.bytes, self.sha256, self.fast_checksums = (
            "pending",
            None,
            None,
            None,
            None,
        )


_MANIFEST_KEYS = {
    "format",
    "pitchsim_version",
    "deals_per_player_count",
    "players",
    "seed",
    "stream_seeds",
    "policy",
    "rules",
    "part_size",
    "columns",
    "parts",
}
# A part's entries in each format: the SHA-256-only one lacks the fast checksum.
_PART_KEYS = {
    SHA256_ONLY_FORMAT: {
        "index",
        "players",
        "start",
        "count",
        "file",
        "status",
        "rows",
        "bytes",
        "sha256",
    },
    FORMAT: {
        "index",
        "players",
        "start",
        "count",
        "file",
        "status",
        "rows",
        "bytes",
        "sha256",
        "fast_checksums",
    },
}
_HEX = frozenset("0123456789abcdef")
FRAME = "frame"  # a part's bytes outside its column chunks: magic, footer, length, magic


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
        return Rules.parse(self.params.rules)

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
            "columns": COLUMNS_JSON,
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
        old_base = doc.get("rules")
        if isinstance(old_base, dict) and old_base and "family" not in old_base:
            raise RunError(_old_base_run(doc, where))
        try:
            return cls._checked(doc)
        except (_Corrupt, InputError) as e:
            raise RunError(f"{where} is corrupt: {e}") from None

    @classmethod
    def _checked(cls, doc: dict) -> Manifest:
        _exact_keys(doc, _MANIFEST_KEYS, "the manifest")
        deals = _int(doc, "deals_per_player_count", 1, MAX_DEALS)
        players = doc["players"]
        if (
            not isinstance(players, list)
            or not players
            or any(
                isinstance(n, bool) or not isinstance(n, int) or not 2 <= n <= 7 for n in players
            )
            or players != sorted(set(players))
        ):
            raise _Corrupt(f"players must be a sorted list of counts 2-7, not {players!r}")
        seed = _int(doc, "seed", 0, MAX_SEED - 1)
        part_size = _int(doc, "part_size", MIN_PART_SIZE, MAX_PART_SIZE)
        _check_part_count(deals, len(players), part_size)
        if not isinstance(doc["policy"], str):
            raise _Corrupt(f"policy must be a name, not {doc['policy']!r}")
        rules = doc["rules"]
        if not isinstance(rules, dict) or "family" not in rules:
            raise _Corrupt(
                f"rules must name the preset and list its every option, not {quoted(rules)}"
            )
        checked = Rules.parse(rules)
        if checked.describe_in_full() != rules:
            raise _Corrupt(f"rules must list every option of the preset, not {quoted(rules)}")
        for n in players:
            checked.check_players(n)
            check_policy(doc["policy"])
        params = RunParams(seed, doc["policy"], rules)
        if doc["stream_seeds"] != {str(n): params.stream_seed(n) for n in players}:
            raise _Corrupt("stream_seeds do not follow from seed and players")
        if doc["columns"] != COLUMNS_JSON:
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


def _old_base_run(doc: dict, where: str) -> str:
    """Why a base game's run of the columns written before the one engine is not read, and
    the command that plays it again in today's columns (the same seed: the same deals)."""
    again = "pitchsim simulate --out NEW_DIR"
    whole = lambda v: isinstance(v, int) and not isinstance(v, bool)  # noqa: E731
    for flag, key in (("--deals", "deals_per_player_count"), ("--seed", "seed")):
        if whole(doc.get(key)):
            again += f" {flag} {doc[key]}"
    players = doc.get("players")
    if isinstance(players, list) and players and all(whole(n) for n in players):
        again += " --players " + ",".join(str(n) for n in players)
    if isinstance(doc.get("policy"), str):
        again += f" --policy {doc['policy']}"
    with contextlib.suppress(InputError, TypeError, ValueError):
        again += f" --rules {label(Rules.parse(doc['rules']))}"
    version = doc.get("pitchsim_version")
    return (
        f"{where} is a base game run in the columns pitchsim wrote before every preset shared "
        f"one engine (pitchsim {version}); this pitchsim reads the preset columns only: "
        f"play it again with {again}"
    )


def check_policy(policy: str) -> None:
    """The play policy of every seat of a run: one the preset kernels play by the
    million (random or heuristic)."""
    from ..kernels.policies.cards import PLAIN_POLICY_IDS

    if policy not in PLAIN_POLICY_IDS:
        raise InputError(
            f"a run is played by the {' or '.join(PLAIN_POLICY_IDS)} policy, not {policy!r}"
        )


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
        _exact_keys(fast, set(REGIONS), f"part entry {part.index}'s fast_checksums")
        for region, value in fast.items():
            if not isinstance(value, str) or len(value) != 32 or not set(value) <= _HEX:
                raise _Corrupt(
                    f"{what}fast checksum of {region} must be 32 hex digits, not {value!r}"
                )
    return PartRecord(part, "done", rows, size, sha, fast)


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
    except OSError as e:
        raise RunError(f"{mpath} is corrupt: {e.strerror or e}") from None
    # Outside the try: a RunError is a ValueError, and caught it would read "corrupt" twice.
    if len(raw) > MAX_MANIFEST_BYTES:
        raise RunError(f"{mpath} is corrupt: over {MAX_MANIFEST_BYTES >> 20} MB")
    try:
        doc = parse_json(raw.decode("utf-8"), "the manifest")  # depth, digits, no NaN
    except (UnicodeDecodeError, RecursionError, ValueError) as e:
        reason = str(e).splitlines()[0][:200]
        raise RunError(f"{mpath} is corrupt: {reason}") from None
    if not isinstance(doc, dict):
        raise RunError(f"{mpath} is corrupt: not a JSON object")
    return Manifest.from_json(doc, str(mpath))


def _resume_hint(run: Path) -> str:
    return f"free some space (or fix the permission), then finish it with: pitchsim simulate --resume --out {run}"


def _write_manifest(run: Path, manifest: Manifest) -> None:
    write_file(run / MANIFEST, dumps_json(manifest.to_json(), indent=1) + "\n", _resume_hint(run))


# ---- the player counts of a run -------------------------------------------------------


def parse_players(spec: str | int | Iterable[int]) -> list[int]:
    """``"3,4,5"``, ``"3-7"``, ``4`` or ``[3, 4]`` -> a sorted list without repeats."""
    if isinstance(spec, bool):
        raise InputError(f"cannot read player counts {spec!r}: use e.g. 4 or 3,4,5 or 3-7")
    if isinstance(spec, int):
        out = [spec]
    elif not isinstance(spec, str):
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
                    counts = list(range(lo, hi + 1))
                elif item:
                    if len(item) > 3:
                        raise ValueError
                    counts = [int(item)]
                else:
                    raise ValueError
            except ValueError:
                raise InputError(
                    f"cannot read player counts {spec!r}: use e.g. 4 or 3,4,5 or 3-7"
                ) from None
            out += counts
    # Every count checked here, whichever way it was written (a list, "9", "1-3").
    bad = [n for n in out if not 2 <= n <= 7]
    if bad:
        raise InputError(f"players must be 2-7, not {bad[0]} (in {spec!r})")
    if not out:
        raise InputError(f"no player counts in {spec!r}")
    if len(set(out)) != len(out):
        raise InputError(f"player counts {spec!r} repeat a count")
    return sorted(out)
