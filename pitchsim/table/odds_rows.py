"""The odds bidder's rows: P(the pitcher's side takes at least k points), k = 1 .. the
maximum bid, by the heuristic count of the pitcher's best suit in half points and
whether it holds that suit's top and bottom ranked trumps (``kernels.bidding.calls.
odds_row``), and a defender's mean points; made from the deals the kernels play
(``kernels.bid_table.simulate_counts``), filled and fitted here (``count_rows``), the
one place that makes them.

The rows pitchsim ships (``pitchsim/data/family_bid_table.npz``, which
``scripts/make_bid_table.py`` writes from ``count_rows``) cover every preset at the
tables it plays, and the kitty and called-partner tables on record.  Rules that differ
from their family's preset read the preset's rows when they have its maximum bid, the
52-card pack, its deal, discard and rob, the same kitty and partner (``shipped_rows``).
Any other rules (a short pack, another maximum bid, a discard and draw the preset has
not, a kitty or partner at a table without rows, ...) have rows
made on first use for exactly those rules and players (``made_rows``: ``MADE_DEALS``
deals from a seed derived from the rules' key, so the same rows on any machine and
thread count), then kept in ``$XDG_CACHE_HOME/pitchsim/odds/``, one checked file per
key, written atomically; ``pitchsim cache`` lists and clears them.
"""

from __future__ import annotations

import hashlib
import sys
import threading
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from ..game.rules import FAMILIES, Rules, label
from ..kernels.bidding.calls import N_BUCKETS, N_CLASSES, N_ROWS
from ..util.atomic import WriteError, atomic_path
from ..util.errors import InputError
from ..util.runtime import user_cache

# (the game kernels and the strategies are imported where rows are read, not here:
# ``pitchsim cache`` lists the made rows without loading them, 0.2 s)

TABLE_FILE = "family_bid_table.npz"
MIN_CELL = 200  # deals a row needs before it stops borrowing from its neighbours
# How the rows are filled from the deals: a table written by another version is built
# again, row by row, never kept (2: ``rise``, a weighted isotonic fit within the noise).
FILL = 2
NOISE = 3.0  # standard errors of a difference that pooling may erase
# Deals per made row: 0.3-0.5 CPU-s warm, counting and filling (smear,deck=9-A at 4
# players, smear,partner=called,kitty=3 at 5, session 66); the shipped rows' 2,000,000
# take 4 CPU-s
MADE_DEALS = 200_000
# The options that shape the hands the rows count, with the library default a preset
# that does not name them keeps (``shipped_rows``)
DEALT = {k: getattr(Rules(), k) for k in ("deal", "discard", "rob")}
MADE_FORMAT = "pitchsim-odds-rows"
MADE_FIELDS = ("rules", "players", "deals", "seed", "fill")


@dataclass(frozen=True)
class OddsRows:
    """One table's rows: ``p_at_least[row, k - 1]`` (``N_ROWS`` x the maximum bid),
    the deals each row was counted from, and a defender's mean points."""

    p_at_least: np.ndarray
    cells: np.ndarray
    defender: float


# ---------------------------------------------------------------- making rows


def isotonic(y: np.ndarray, w: np.ndarray) -> np.ndarray:
    """``y`` (chances, each from ``w`` deals) made to rise where it falls by no more than
    ``NOISE`` standard errors of the difference: pool adjacent violators, each run that
    falls replaced by its weighted mean, a fall the deals show beyond their noise kept."""
    value, weight, size = [], [], []
    for v, u in zip(y.tolist(), w.tolist(), strict=True):
        value.append(v)
        weight.append(u)
        size.append(1)
        while len(value) > 1 and value[-2] > value[-1]:
            p = (value[-2] * weight[-2] + value[-1] * weight[-1]) / (weight[-2] + weight[-1])
            se = np.sqrt(p * (1 - p) * (1 / weight[-2] + 1 / weight[-1]))
            if value[-2] - value[-1] > NOISE * se:
                break
            u2, n2 = weight.pop(), size.pop()
            value.pop()
            weight[-1] += u2
            value[-1] = p
            size[-1] += n2
    return np.repeat(value, size)


def rise(at: np.ndarray, own: np.ndarray) -> None:
    """Make P(at least k) rise with the count within each holding (``at[bucket,
    holding, k]``, in place) wherever the deals allow, so that noise never makes a
    better hand read worse odds: each holding's cells are fitted rising, weighted by
    their own deals (``own``; ``isotonic``).  A cell no deal gave (its value borrowed
    from its neighbours) weighs almost nothing, so it takes its neighbours' value and
    moves none.  A fall the deals show beyond their noise is kept: ten-point's count
    (the jokers and both jacks are worth a point each) and a called partner carrying a
    weak hand (12.1) make some higher counts take less.  The running maximum used
    before lifted every cell to the best below it, raising well-filled cells by up to
    ten standard errors.  The fit keeps P(at least k) falling with k."""
    weight = np.maximum(own, 1e-6).astype(float)
    for h in range(at.shape[1]):
        for k in range(at.shape[2]):
            at[:, h, k] = isotonic(at[:, h, k], weight[:, h])
        # a pooled run ending at a kept fall can sit above the next k's: keep the order
        at[:, h, 1:] = np.minimum.accumulate(at[:, h], axis=1)[:, 1:]


def count_rows(rules: Rules, players: int, deals: int, seed: int) -> OddsRows:
    """The rows of ``rules`` at ``players`` from ``deals`` deals of ``seed`` (deal d: the
    stream (seed, d), so the same on any thread count).  Rows with fewer than
    ``MIN_CELL`` deals borrow from the next counts with the same holding, else from
    every holding of their count and then its neighbours, and P(at least k) is made to
    rise with the count within each holding where the deals allow (``rise``)."""
    from ..kernels.bid_table import simulate_counts
    from ..kernels.presets import rules_array, rules_table

    top = rules.max_bid
    row = np.empty(deals, np.int64)
    points = np.empty(deals, np.int64)
    other = np.empty(deals, np.int64)
    simulate_counts(
        seed, deals, players, rules_array(rules), rules_table(rules), row, points, other
    )
    cells = np.bincount(row, minlength=N_ROWS)
    bucket, cls = row // N_CLASSES, row % N_CLASSES
    # Two sides (partnership, or 2 players) stay keyed by the count alone: there
    # the holding rows lost (against heuristic, seed 17: setback 69.5% -> 67.8%,
    # smear partnership 52.0% -> 50.6%, smear 2 players 53.0% -> 51.8%).
    keyed = not rules.partnership and players > 2
    at = np.zeros((N_BUCKETS, N_CLASSES, top))
    for b in range(N_BUCKETS):
        for h in range(N_CLASSES):
            # Borrow from the neighbouring counts with the same holding (one
            # bucket each way at most), else from every holding of this count.
            pick = (bucket == b) & (cls == h) & keyed
            if pick.sum() < MIN_CELL and keyed:
                pick = (abs(bucket - b) <= 1) & (cls == h)
            if pick.sum() < MIN_CELL:
                lo, hi = b, b
                pick = bucket == b
                while pick.sum() < MIN_CELL and (lo > 0 or hi < N_BUCKETS - 1):
                    lo, hi = max(0, lo - 1), min(N_BUCKETS - 1, hi + 1)
                    pick = (bucket >= lo) & (bucket <= hi)
            taken = points[pick]
            for k in range(1, top + 1):
                at[b, h, k - 1] = (taken >= k).mean() if pick.any() else 0.0
    own = cells.reshape(N_BUCKETS, N_CLASSES)
    rise(at, own if keyed else np.repeat(own.sum(axis=1, keepdims=True), N_CLASSES, 1))
    return OddsRows(at.reshape(N_ROWS, top), cells, float(other.mean()))


# ---------------------------------------------------------------- the shipped rows


def load_data_table(name: str, what: str, make: str) -> dict:
    """The arrays of ``pitchsim/data/<name>``; a one-line error naming ``what`` is
    missing and the ``make`` command that writes it."""
    path = Path(__file__).resolve().parent.parent / "data" / name
    try:
        with np.load(path) as z:
            return {k: z[k] for k in z.files}
    except FileNotFoundError:
        raise InputError(f"the {what} {name} is missing: run {make}") from None


@lru_cache(maxsize=1)
def load_bid_table() -> dict:
    return load_data_table(TABLE_FILE, "family odds table", "scripts/make_bid_table.py")


def odds_table_key(rules: Rules, players: int) -> str:
    """The row of the family odds table for ``rules`` at ``players``: the family, the
    table size and the partnership, a kitty's size (12.2: the pitcher's N more cards
    change every make-probability, so a kitty reads only its own rows) and a called
    partner (12.1: the pitcher's side is two seats, so it reads only its own rows)."""
    kitty = f"/kitty={rules.kitty}" if rules.kitty else ""
    partner = f"/partner={rules.partner}" if rules.partner != "none" else ""
    return f"{rules.family}/{players}/{int(rules.partnership)}{kitty}{partner}"


def shipped_rows(rules: Rules, players: int) -> OddsRows | None:
    """The shipped rows ``rules`` read at ``players``: their family's preset's
    (``odds_table_key``) when they have its maximum bid, the 52-card pack (a short
    pack changes every make-probability, 12.3) and its deal, discard and rob (they
    change the hands every row counts: 4.8, 12.7, 12.8); None where it has none."""
    preset = FAMILIES[rules.family].preset
    dealt_as = all(getattr(rules, k) == preset.get(k, DEALT[k]) for k in DEALT)
    if rules.deck != "2-A" or not dealt_as:
        return None
    t = load_bid_table()
    keys = [str(k) for k in t["keys"]]
    want = odds_table_key(rules, players)
    if want not in keys or int(t["max_bid"][keys.index(want)]) != rules.max_bid:
        return None
    i = keys.index(want)
    return OddsRows(t["p_at_least"][i][:, : rules.max_bid], t["cells"][i], float(t["defender"][i]))


# ---------------------------------------------------------------- rows made on demand


def odds_rows(rules: Rules, players: int) -> OddsRows:
    """The rows the odds bidder reads under ``rules`` at ``players``: the shipped ones
    where they apply (``shipped_rows``), else rows made for exactly these rules
    (``made_rows``); refused in one line only where the rules refuse the table
    (``Rules.check_players``: no rows for a game not played)."""
    rules.check_players(players)
    return shipped_rows(rules, players) or made_rows(rules, players)


def made_key(rules: Rules, players: int) -> str:
    """What made rows are for: the whole rules, written canonically (``label``: equal
    rules give one text), and the players."""
    return f"{label(rules)}/{players}"


def made_seed(key: str) -> int:
    """The seed of ``key``'s deals: from its digest, a non-negative int64."""
    return int.from_bytes(hashlib.sha256(key.encode()).digest()[:8], "big") >> 1


def cache_folder() -> Path:
    return user_cache("odds")


def made_file(key: str, deals: int, seed: int) -> Path:
    """The cache file of ``key``'s rows from ``deals`` deals of ``seed``, filled by this
    ``FILL``: named by a digest of all of these (a rule text may be long)."""
    name = hashlib.sha256(f"{key}|{deals}|{seed}|{FILL}".encode()).hexdigest()[:24]
    return cache_folder() / f"{name}.npz"


class DamagedRows(ValueError):
    """A cache file that does not hold what its name promises."""


def _digest(meta: dict, rows: OddsRows) -> str:
    """A digest of a made file's whole content, checked on every read."""
    h = hashlib.sha256(repr([meta[k] for k in MADE_FIELDS]).encode())
    for a in (rows.p_at_least.astype(np.float64), rows.cells.astype(np.int64)):
        h.update(np.ascontiguousarray(a).tobytes())
    h.update(np.float64(rows.defender).tobytes())
    return h.hexdigest()


def write_made(path: Path, meta: dict, rows: OddsRows) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with atomic_path(path) as tmp, open(tmp, "wb") as f:
        np.savez(
            f,
            format=np.array(MADE_FORMAT),
            **{k: np.array(v) for k, v in meta.items()},
            p_at_least=rows.p_at_least.astype(np.float64),
            cells=rows.cells.astype(np.int64),
            defender=np.float64(rows.defender),
            digest=np.array(_digest(meta, rows)),
        )


def read_made(path: Path, meta: dict | None = None) -> tuple[dict, OddsRows]:
    """A made file's key (``MADE_FIELDS``) and rows, every part checked: its digest, its
    shapes and chances, and (``meta``) that it was made for what is asked; else
    ``DamagedRows`` saying what is wrong."""
    try:
        with open(path, "rb") as f:
            if f.read(4) != b"PK\x03\x04":  # (numpy would call anything else a pickle)
                raise DamagedRows("not an .npz archive")
        with np.load(path, allow_pickle=False) as z:
            doc = {k: z[k] for k in z.files}
    except DamagedRows:
        raise
    except Exception as e:  # a file cut short or overwritten: whatever numpy says of it
        said = (str(e).splitlines() or [""])[0][:60]
        raise DamagedRows(f"unreadable, {type(e).__name__}: {said}") from None
    missing = {"format", *MADE_FIELDS, "p_at_least", "cells", "defender", "digest"} - set(doc)
    if missing or str(doc["format"]) != MADE_FORMAT:
        raise DamagedRows(f"not odds rows (missing {', '.join(sorted(missing)) or 'format'})")
    got = {k: (str(doc[k]) if k == "rules" else int(doc[k])) for k in MADE_FIELDS}
    rows = OddsRows(doc["p_at_least"], doc["cells"], float(doc["defender"]))
    if str(doc["digest"]) != _digest(got, rows):
        raise DamagedRows("its digest does not match its content")
    if meta is not None and got != meta:
        raise DamagedRows(f"made for {got}, not {meta}")
    p = rows.p_at_least
    if p.ndim != 2 or p.shape[0] != N_ROWS or rows.cells.shape != (N_ROWS,):
        raise DamagedRows(f"rows of shape {p.shape}, not {N_ROWS} x the maximum bid")
    if not np.all((p >= 0) & (p <= 1)) or not np.isfinite(rows.defender):
        raise DamagedRows("chances outside 0-1")
    return got, rows


_made: dict[tuple[str, int], OddsRows] = {}
_making = threading.Lock()  # one maker at a time in a process; processes: atomic replace


def made_rows(rules: Rules, players: int, deals: int = MADE_DEALS) -> OddsRows:
    """The rows made for exactly ``rules`` at ``players`` from ``deals`` deals of
    ``made_seed``: read from the cache when a checked file holds them, else made
    (saying so on stderr, once) and cached.  A damaged or mismatched file is said in
    one line and made again; a cache that cannot be written leaves the rows made for
    this process alone."""
    from ..kernels import notice_enabled

    key = made_key(rules, players)
    seed = made_seed(key)
    with _making:
        if (key, deals) in _made:
            return _made[key, deals]
        meta = dict(zip(MADE_FIELDS, (label(rules), players, deals, seed, FILL), strict=True))
        path = made_file(key, deals, seed)
        rows = None
        if path.exists():
            try:
                _, rows = read_made(path, meta)
            except DamagedRows as e:
                print(f"pitchsim: {path} is damaged ({e}): made again", file=sys.stderr)
        if rows is None:
            if notice_enabled():
                print(
                    f"pitchsim: making the odds rows for {label(rules)} at {players} players "
                    f"(once; cached in {path.parent})",
                    file=sys.stderr,
                    flush=True,
                )
            rows = count_rows(rules, players, deals, seed)
            try:
                write_made(path, meta, rows)
            except (WriteError, OSError) as e:
                print(f"pitchsim: the odds rows are not cached: {e}", file=sys.stderr)
        _made[key, deals] = rows
        return rows


def made_files() -> list[tuple[Path, str, int, bool]]:
    """(file, what it holds or why it is damaged, bytes, whether this version reads it)
    for every file in the cache: a damaged file, or one made by another ``FILL`` or
    deal count, is never read again."""
    folder = cache_folder()
    out = []
    for path in sorted(folder.glob("*.npz")) if folder.is_dir() else []:
        try:
            got, _ = read_made(path)
            what = f"{got['rules']} at {got['players']} players ({got['deals']:,} deals)"
            key = f"{got['rules']}/{got['players']}"
            read = got["fill"] == FILL and path == made_file(key, got["deals"], got["seed"])
            read = read and got["deals"] == MADE_DEALS and got["seed"] == made_seed(key)
        except DamagedRows as e:
            what, read = f"damaged: {e}", False
        out.append((path, what, path.stat().st_size, read))
    return out


def clear_made(every: bool) -> list[Path]:
    """Delete the cached files this version never reads (``every``: all of them, so
    that the next use makes its rows again); the files deleted."""
    gone = []
    for path, _, _, read in made_files():
        if every or not read:
            path.unlink(missing_ok=True)
            gone.append(path)
    return gone
