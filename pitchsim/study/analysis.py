"""Aggregations over simulation runs of any preset: how often the pitcher's side wins
at least k points, k = 1 .. the preset's point total, by what the pitcher holds, as
pandas DataFrames.

A run is read one part at a time and only the columns a question needs, so memory
stays bounded by the part size whatever the run's length.  Each part is reduced with
``numpy.bincount`` to counts of deals by (group, points won); everything else (make
probabilities, Wilson intervals, expected scores, the best bid) is computed from those
counts.  The features a table groups by are the run's own (:data:`PRESET_FEATURES`)
and, where the trumps are the trump suit's 13 ranks, the trump-holding features of
:mod:`pitchsim.game.features` read from the pitcher's hand (:data:`FROM_HAND`).

>>> t = make_table("runs/demo", by=["length", "high"], players=4)  # doctest: +SKIP
>>> t.loc[(t.length == 3) & (t.high == "A"), ["deals", "p2", "p2_lo", "p2_hi"]]  # doctest: +SKIP
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from ..game.cards import SUIT_NAMES
from ..game.features import (
    ACE,
    FEATURES,
    HOLDING_GAME,
    RANK_MASKS,
    TEN,
    Feature,
    format_holding,
    format_pattern,
    parse_holding,
)
from ..game.rules import Rules, label
from ..util.errors import InputError
from ..util.stats import Z95, wilson
from .manifest import (
    KEY_NAMES,
    MANIFEST,
    RULES_KEY,
    Manifest,
    PartRecord,
    RunError,
    key_table,
    read_manifest,
)
from .parts import VERIFY, read_part
from .verified import VerifiedParts

DENSE_BINS = 1 << 22  # groups x points counted in one array; more -> sparse counting


# ---- reading a run --------------------------------------------------------------------


class Run:
    """A run directory opened for reading: its manifest and its finished parts, every
    part checked against the manifest as it is read (unless ``verify`` is False;
    ``verify="full"`` checks every part by its SHA-256, even one checked before)."""

    def __init__(self, path: str | Path, verify: bool | str = True):
        self.path = Path(path)
        self.manifest: Manifest = read_manifest(self.path)
        # Check every part read against the manifest (checksum, rows, players, deals):
        # a damaged run must not give a quiet answer.  verify=False checks sizes only.
        if verify not in VERIFY or not isinstance(verify, (bool, str)):
            raise InputError(f"verify must be True, False or 'full', not {verify!r}")
        self.verify = verify
        self.known = VerifiedParts(self.path) if verify else None
        self._check_rules()

    def _check_rules(self) -> None:
        """The parts were played under the manifest's rules: a part's footer names them
        (runs written before it did are read as they are)."""
        import pyarrow as pa
        import pyarrow.parquet as pq

        done = self.manifest.done()
        if not done:
            return
        f = self.path / done[0].part.file
        try:
            meta = pq.read_metadata(f).metadata or {}
        except (OSError, pa.ArrowException):
            return  # a damaged part is reported, with the way out, when it is read
        played = meta.get(RULES_KEY.encode(), b"").decode("utf-8", "replace")
        said = label(self.manifest.rules)
        if played and played != said:
            raise RunError(
                f"{f} was played under {played}, not {said} as {self.path / MANIFEST} "
                "says: the manifest is not its parts'"
            )

    @property
    def players(self) -> list[int]:
        return self.manifest.players

    @property
    def rules(self) -> Rules:
        """The run's rules as a preset (the base game as auction-pitch)."""
        return self.manifest.rules

    @property
    def bids(self) -> range:
        """The bids a table scores: the rules' minimum bid to the most there is
        (min-bid=2: a bid of 1 is no choice, 1.2)."""
        r = self.rules
        return range(r.min_bid, r.max_bid + 1)

    @property
    def missing_parts(self) -> int:
        return len(self.manifest.parts) - len(self.manifest.done())

    def parts(self, players: Iterable[int] | None = None) -> list[PartRecord]:
        """Finished parts, of the given player counts only (all when None)."""
        done = self.manifest.done()
        if players is not None:
            wanted = set(players)
            unknown = sorted(wanted - set(self.players))
            if unknown:
                have = ",".join(map(str, self.players))
                raise InputError(
                    f"the run at {self.path} has no {unknown[0]}-player deals (it has {have})"
                )
            done = [r for r in done if r.part.players in wanted]
        if not done:
            raise RunError(
                f"the run at {self.path} has no finished parts"
                + (" for those players" if players is not None else "")
                + f"; finish it with: pitchsim simulate --out {self.path} --resume"
            )
        return done

    def read(self, rec: PartRecord, columns: Sequence[str]) -> dict[str, np.ndarray]:
        """``columns`` of one part as numpy arrays, verified against the manifest (see
        :func:`pitchsim.study.parts.read_part`); a damaged part is a :class:`RunError`."""
        table = read_part(self.path, rec, columns, verify=self.verify, known=self.known)
        return {name: table.column(name).to_numpy() for name in columns}

    def scan(
        self, columns: Sequence[str], players: Iterable[int] | None = None
    ) -> Iterator[tuple[int, dict[str, np.ndarray]]]:
        """(players, columns) for every finished part, one part in memory at a time."""
        try:
            for rec in self.parts(players):
                yield rec.part.players, self.read(rec, columns)
        finally:
            if self.known is not None:
                self.known.save()  # the parts hashed this time need no hash next time


def open_run(run: str | Path | Run) -> Run:
    return run if isinstance(run, Run) else Run(run)


def describe_run(run: Run) -> str:
    """``smear,target=15, heuristic play, seed 3``: what a run is, in a line."""
    m = run.manifest
    return f"{label(m.rules)}, {m.policy} play, seed {m.seed}"


def rules_match(run: Run, spec: str | None) -> None:
    """``--rules`` given to ``table`` or ``chart``: it must be the run's rules (the run
    records its rules in full; a table under other rules would be mislabelled)."""
    if spec is None:
        return
    given = Rules.parse(spec)
    if given.describe_in_full() != run.manifest.params.rules:
        raise InputError(
            f"{run.path} was played under --rules {label(run.manifest.rules)}, "
            f"not {label(given)}: leave out --rules, or give the run's"
        )


# ---- what a table groups by ------------------------------------------------------------


@dataclass(frozen=True)
class PresetFeature:
    """A feature of the pitcher's hand in a preset run's columns: its column and the
    labels of its codes 0 .. size-1 (:meth:`feature` binds it to the run's rules)."""

    name: str
    column: str
    size: int
    meaning: str

    def codes(self, cols: dict, rules) -> np.ndarray:
        """The feature's code per deal, from the run's columns."""
        if self.name == "high":
            return highest_trump(cols["hand"], cols["trump"], rules)
        return cols[self.column].astype(np.int64)

    def columns(self) -> set[str]:
        return {"hand", "trump"} if self.name == "high" else {self.column}

    def label(self, code: int) -> str:
        if self.name == "high":
            return HIGH_LABELS[code]
        if self.column in ("keys", "keys_held"):
            names = [k for i, k in enumerate(KEY_NAMES) if code >> i & 1]
            return " ".join(names) or "none"
        if self.column == "trump":
            return SUIT_NAMES[code]
        return str(code)

    def feature(self, rules) -> Feature:
        """The feature as the counting reads it, under ``rules``."""
        return Feature(
            self.name,
            self.meaning,
            tuple(sorted(self.columns())),
            self.size,
            lambda cols: self.codes(cols, rules),
            self.label,
        )


# The highest trump dealt, in the preset's trump order (game/trumps.py keys: A 31 ...
# jick 27, high joker 26, low joker 25, 10 24 ... 2 16); code 31 - key, "none" past them.
HIGH_LABELS = ("A", "K", "Q", "J", "Jk", "HJ", "LJ", "10", "9", "8", "7", "6", "5", "4", "3", "2")
HIGH_LABELS = (*HIGH_LABELS, "none")


def highest_trump(hand: np.ndarray, trump: np.ndarray, rules) -> np.ndarray:
    """Per deal, the code (index in :data:`HIGH_LABELS`) of the highest trump in ``hand``
    when ``trump`` is trump, the jick and the jokers counted where the rules have them."""
    from ..game.trumps import trump_tables

    tt = trump_tables(rules.jokers, rules.jick)
    hand = hand.astype(np.int64)
    trump = trump.astype(np.int64)
    masks = tt.trump_mask[trump]
    best = np.full(hand.size, -1, dtype=np.int64)
    for c in range(tt.key.shape[1]):
        has = ((hand & masks) >> c) & 1
        best = np.where(has == 1, np.maximum(best, tt.key[trump, c]), best)
    return np.where(best < 0, len(HIGH_LABELS) - 1, 31 - best)


PRESET_FEATURES = {
    f.name: f
    for f in (
        PresetFeature("holding", "keys", 1 << len(KEY_NAMES), "key trumps dealt (A J Jk 2 ...)"),
        PresetFeature("length", "trump_count", 11, "trumps dealt"),
        PresetFeature(
            "holding_held", "keys_held", 1 << len(KEY_NAMES), "key trumps held when play starts"
        ),
        PresetFeature("length_held", "trump_count_held", 11, "trumps held when play starts"),
        PresetFeature("trump", "trump", 4, "the trump suit"),
        PresetFeature("high", "hand", len(HIGH_LABELS), "the highest trump dealt (A ... 2)"),
    )
}
DEFAULT_BY = "holding"  # a run's default --by
# Features whose codes have no order of their own: their groups come most frequent first.
BY_FREQUENCY = ("holding", "holding_held")


def parse_preset_features(spec: str | Sequence[str], rules=None) -> list[str]:
    """``"holding,length"`` -> the features named, checked (none: by player count
    only): the run's own (:data:`PRESET_FEATURES`) and, under ``rules`` whose trumps are
    the trump suit's 13 ranks, the trump-holding features its hand gives
    (:data:`FROM_HAND`; :func:`hand_features_reason`)."""
    names = [s.strip() for s in spec.split(",")] if isinstance(spec, str) else list(spec)
    names = [n for n in names if n]
    for n in names:
        if n in PRESET_FEATURES:
            continue
        if n.replace("-", "_") in FROM_HAND and rules is not None:
            reason = hand_features_reason(rules, n.replace("-", "_"))
            if reason:
                raise InputError(f"feature {n!r} reads the trump suit's ranks: {reason}")
            continue
        known = [*PRESET_FEATURES, *(() if rules is None else FROM_HAND)]
        raise InputError(f"unknown feature {n!r} for a run (known: {', '.join(known)})")
    if len(set(names)) != len(names):
        raise InputError(f"--by {','.join(names)} names a feature twice")
    return names


# The trump-holding features (game.features.FEATURES) a run gives from the pitcher's hand
# as dealt and trump, by the name a run's table knows them (``ranks``: the exact holding,
# A-J-2, which game.features calls ``holding``; a run's ``holding`` is its key trumps).
FROM_HAND = (
    "ranks",
    "low",
    "pattern",
    "keys",
    "ace",
    "king",
    "queen",
    "jack",
    "ten",
    "deuce",
    "off_aces",
    "off_tens",
    "game_held",
)


def hand_feature(name: str) -> Feature:
    """The trump-holding feature of :data:`FROM_HAND` named ``name`` (``-`` or ``_``)."""
    name = name.replace("-", "_")
    if name == "ranks":
        return dataclasses.replace(FEATURES["holding"], name="ranks")
    return FEATURES[name]


def hand_features_reason(rules, name: str = "") -> str:
    """Why the base game's feature ``name`` means nothing under ``rules`` ("" when it
    does): the trump-holding features read the trump suit's 13 ranks, which are every
    trump unless the jick or a joker is one too (docs/rules.md 0.4); game_held counts
    Game's points, which there are only under game=count (0.8, §6)."""
    r = rules
    extra = [w for w, on in (("the jick", r.jick), ("the jokers", r.jokers)) if on]
    if extra:
        return (
            f"under {label(r)} {' and '.join(extra)} are trumps outside the trump suit's "
            "ranks (docs/rules.md 0.4); group by the preset's holding (its key trumps) instead"
        )
    if name == "game_held" and r.game != "count":
        return (
            f"under {label(r)} (game={r.game}) there is no Game point to count (docs/rules.md §6)"
        )
    return ""


def hand_columns(cols: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """The base game's hand columns (:data:`pitchsim.study.manifest.COLUMNS`: trump_ranks,
    trump_count, off_aces, off_tens) from a run's ``hand`` (as dealt) and ``trump``, as
    ``batch._describe_deals`` computes them."""
    hand = cols["hand"].astype(np.int64)
    shift = cols["trump"].astype(np.int64) * 13
    ranks = (hand >> shift) & 0x1FFF
    off = hand & ~(np.int64(0x1FFF) << shift)
    return {
        "trump": cols["trump"],
        "trump_ranks": ranks,
        "trump_count": _popcount(ranks),
        "off_aces": _popcount(off & np.int64(RANK_MASKS[ACE])),
        "off_tens": _popcount(off & np.int64(RANK_MASKS[TEN])),
        # Game's count of the whole hand (docs/rules.md 0.8), suit by suit
        "game_held": sum(HOLDING_GAME[(hand >> (13 * suit)) & 0x1FFF] for suit in range(4)),
    }


def _popcount(a: np.ndarray) -> np.ndarray:
    return np.bitwise_count(a.astype(np.uint64)).astype(np.int64)


def _from_hand(f: Feature) -> Feature:
    """The base game's feature ``f`` read from a preset run's ``hand`` and ``trump``."""
    return dataclasses.replace(
        f, columns=("hand", "trump"), code=lambda cols: f.code(hand_columns(cols))
    )


def parse_by(run: Run, by: str | Sequence[str] | None) -> list[str]:
    """The features ``by`` names, checked against the run's rules (None: ``holding``)."""
    return parse_preset_features(DEFAULT_BY if by is None else by, run.rules)


def run_features(run: Run, names: Sequence[str]) -> list[Feature]:
    """The features ``names`` (checked by :func:`parse_by`) as the run's columns give them."""
    rules = run.rules
    return [
        PRESET_FEATURES[n].feature(rules) if n in PRESET_FEATURES else _from_hand(hand_feature(n))
        for n in names
    ]


# ---- counting -----------------------------------------------------------------------


def points_counts(
    run: str | Path | Run, by: str | Sequence[str] = (), players: int | Iterable[int] | None = None
) -> pd.DataFrame:
    """Deals by player count, the ``by`` features and points won.

    One row per group that occurs: ``players``, one column per feature (labels such as
    "A" or "A-J-2"), ``deals`` and ``pts0`` .. ``pts{top}`` (deals in which the
    pitcher's side won exactly that many points; top is the preset's point total).
    """
    run = open_run(run)
    names = parse_by(run, by)
    feats = run_features(run, names)
    wanted = None if players is None else ([players] if isinstance(players, int) else players)
    top = run.rules.max_bid
    bins = top + 1
    columns = sorted({c for f in feats for c in f.columns} | {"points"})
    sizes = [f.size for f in feats]
    groups = math.prod(sizes)
    dense = groups * bins <= DENSE_BINS
    acc: dict[int, object] = {}
    for n, cols in run.scan(columns, wanted):
        code = np.zeros(len(cols["points"]), dtype=np.int64)
        for f in feats:
            code *= f.size
            code += f.code(cols)
        pts = cols["points"].astype(np.int64)
        if pts.size and pts.max() > top:
            raise InputError(f"{run.path}: a deal won {pts.max()} points, over {top}")
        key = code * bins + pts
        if dense:
            add = np.bincount(key, minlength=groups * bins)
            acc[n] = add if n not in acc else acc[n] + add
        else:
            uniq, cnt = np.unique(key, return_counts=True)
            acc.setdefault(n, []).append((uniq, cnt))
            if len(acc[n]) >= 16:
                acc[n] = [_merge_sparse(acc[n])]
    frames = []
    for n in sorted(acc):
        if dense:
            table = acc[n].reshape(groups, bins)
            codes = np.flatnonzero(table.sum(axis=1))
            counts = table[codes]
        else:
            keys, cnt = _merge_sparse(acc[n])
            codes, inverse = np.unique(keys // bins, return_inverse=True)
            counts = np.zeros((codes.size, bins), dtype=np.int64)
            np.add.at(counts, (inverse, keys % bins), cnt)
        df = pd.DataFrame({"players": np.full(codes.size, n, dtype=np.int64)})
        rest = codes.copy()
        per_feature = []
        for f in reversed(feats):
            per_feature.append(rest % f.size)
            rest //= f.size
        per_feature.reverse()
        order_keys = [f.order(c) for f, c in zip(feats, per_feature, strict=True)]
        for f, c in zip(feats, per_feature, strict=True):
            labels = {int(u): f.label(int(u)) for u in np.unique(c)}
            df[f.name] = [labels[int(v)] for v in c]
        df["deals"] = counts.sum(axis=1)
        for p in range(bins):
            df[f"pts{p}"] = counts[:, p]
        if order_keys:
            df = df.iloc[np.lexsort(order_keys[::-1])]
        frames.append(df)
    return pd.concat(frames, ignore_index=True)


def _merge_sparse(pieces):
    keys = np.concatenate([k for k, _ in pieces])
    cnt = np.concatenate([c for _, c in pieces])
    uniq, inverse = np.unique(keys, return_inverse=True)
    return uniq, np.bincount(inverse, weights=cnt, minlength=uniq.size).astype(np.int64)


def summarize(
    counts: pd.DataFrame, min_count: int = 1, bids: Sequence[int] | None = None
) -> pd.DataFrame:
    """Add make-probabilities, intervals, expected scores and the best bid to
    :func:`points_counts` output, keeping groups of at least ``min_count`` deals.

    Columns added, for every k = 1 .. top (the last ``pts`` column): ``p{k}`` =
    P(points >= k) with Wilson 95% bounds ``p{k}_lo``, ``p{k}_hi``; for every bid k of
    ``bids`` (default 1 .. top), ``score{k}`` = the expected score of bidding k (the
    points won when made, -k when set) and its standard error ``score{k}_se``; ``bid``
    = the highest bid with a positive expected score (0 = pass), as ``pitchsim
    bid-odds`` recommends, and ``bid_sure`` = whether every expected score's sign that
    decides it is clear of zero by 1.96 standard errors.
    """
    bins = sum(1 for c in counts.columns if c.startswith("pts"))
    bids = range(1, bins) if bids is None else bids
    df = counts[counts["deals"] >= min_count].copy()
    n = df["deals"].to_numpy(dtype=float)
    pts = df[[f"pts{p}" for p in range(bins)]].to_numpy(dtype=float)
    at_least = np.cumsum(pts[:, ::-1], axis=1)[:, ::-1]  # at_least[:, k] = deals with >= k
    for k in range(1, bins):
        lo, hi = wilson(at_least[:, k], n)
        df[f"p{k}"] = at_least[:, k] / n
        df[f"p{k}_lo"] = lo
        df[f"p{k}_hi"] = hi
    points = np.arange(bins)
    best = np.zeros(len(df), dtype=np.int64)
    sure = np.ones(len(df), dtype=bool)
    for k in bids:
        score = np.where(points >= k, points, -k)
        mean = pts @ score / n
        var = pts @ (score**2) / n - mean**2
        se = np.sqrt(np.maximum(var, 0) / n)
        df[f"score{k}"] = mean
        df[f"score{k}_se"] = se
        best = np.where(mean > 0, k, best)
        sure &= np.abs(mean) > Z95 * se
    df["bid"] = best
    df["bid_sure"] = sure
    return df.reset_index(drop=True)


def make_table(
    run: str | Path | Run,
    by: str | Sequence[str] | None = None,
    players: int | Iterable[int] | None = None,
    min_count: int = 1,
) -> pd.DataFrame:
    """P(the pitcher's side wins >= k points), k = 1 .. the preset's point total, with
    95% intervals and counts, by player count and the ``by`` features (the run's: see
    :func:`parse_by`; default ``holding``).  Grouped by holding, the most frequent holdings come first
    within a player count.

    The columns are those of :func:`points_counts` and :func:`summarize`.
    """
    if min_count < 1:
        raise InputError(f"min-count must be at least 1, not {min_count}")
    run = open_run(run)
    names = parse_by(run, by)
    df = summarize(points_counts(run, names, players), min_count, run.bids)
    if any(n in BY_FREQUENCY for n in names) and len(df):
        df = df.sort_values(["players", "deals"], ascending=[True, False], kind="stable")
        df = df.reset_index(drop=True)
    return df


def holding_rows(table: pd.DataFrame, holdings: Sequence[str]) -> pd.DataFrame:
    """Rows of a table by ``ranks`` or ``pattern`` for trump holdings written like
    ``A-J-2`` or ``A-x-x`` (a ``ranks`` column is needed for holdings that name a 3-9,
    a ``pattern`` column for the others); a ``label`` column gives the spelling asked."""
    out = []
    for text in holdings:
        kind, code = parse_holding(text)
        label = format_holding(code) if kind == "holding" else format_pattern(code)
        column = "ranks" if kind == "holding" else kind
        if column not in table.columns:
            raise InputError(f"holding {text!r} needs a table by {column}")
        rows = table[table[column] == label].copy()
        rows["label"] = label
        out.append(rows)
    return pd.concat(out, ignore_index=True) if out else table.iloc[:0]


# ---- hands played outside a run (the report) -------------------------------------------


def holdings(s: dict) -> pd.DataFrame:
    """Per deal the pitcher's key trumps dealt (``holding``, e.g. ``A J Jk 2``, as a run's
    ``holding`` feature labels them), his trump length dealt and the points his side won."""
    mine = s["dealt"][:, 0]
    cards = key_table(s["rules"])[s["trump"]]  # per deal, each key's card (-1: none)
    keys = np.zeros(mine.size, dtype=np.int64)
    for i in range(cards.shape[1]):
        c = cards[:, i]
        keys |= np.where(c >= 0, (mine >> np.maximum(c, 0)) & 1, 0) << i
    codes, inverse = np.unique(keys, return_inverse=True)
    names = np.array([PRESET_FEATURES["holding"].label(int(k)) for k in codes], dtype=object)
    return pd.DataFrame(
        {
            "holding": names[inverse],
            "length": np.bitwise_count((mine & s["trump_mask"]).view(np.uint64)).astype(np.int64),
            "points": s["points"],
        }
    )


def make_by_holding(s: dict, by=("holding",), min_count: int = 2000) -> pd.DataFrame:
    """The table of :func:`make_table`'s columns (without the point counts and
    ``bid_sure``) for hands played by ``exact.sample_hands``, by ``by`` (``holding``
    and/or ``length`` of :func:`holdings`), groups of at least ``min_count`` deals, the
    most frequent first."""
    r = s["rules"]
    h = holdings(s)
    keys, bins = list(by), r.max_bid + 1
    pts = [f"pts{p}" for p in range(bins)]
    won = np.zeros((len(h), bins), dtype=np.int64)
    won[np.arange(len(h)), h.points.to_numpy()] = 1
    counts = pd.concat([h[keys], pd.DataFrame(won, columns=pts)], axis=1)
    counts = counts.groupby(keys, sort=False).sum().reset_index()
    counts.insert(len(keys), "deals", counts[pts].sum(axis=1))
    t = summarize(counts, min_count, range(r.min_bid, r.max_bid + 1))
    t = t.drop(columns=[*pts, "bid_sure"])
    return t.sort_values("deals", ascending=False, ignore_index=True) if len(t) else t
