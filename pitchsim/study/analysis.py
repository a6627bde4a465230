"""Aggregations over simulation runs: how often the pitcher makes each bid, by what he
can see in his hand, as pandas DataFrames.

A run is read one part at a time and only the columns a question needs, so memory
stays bounded by the part size whatever the run's length.  Each part is reduced with
``numpy.bincount`` to counts of deals by (group, points won); everything else (make
probabilities, Wilson intervals, expected scores, the best bid) is computed from those
counts.

>>> t = make_table("runs/demo", by=["length", "high"], players=4)  # doctest: +SKIP
>>> t.loc[(t.length == 3) & (t.high == "A"), ["deals", "p2", "p2_lo", "p2_hi"]]  # doctest: +SKIP
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from ..game.features import (
    ACE,
    FEATURES,
    JACK,
    KING,
    format_holding,
    format_pattern,
    parse_features,
    parse_holding,
)
from ..game.rules import BIDS
from ..util.errors import InputError
from ..util.stats import Z95, wilson
from .manifest import Manifest, PartRecord, RunError, read_manifest
from .parts import VERIFY, read_part
from .verified import VerifiedParts

POINTS = 5  # a pitcher's side wins 0..4 points
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

    @property
    def players(self) -> list[int]:
        return self.manifest.players

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


def base_run(run: str | Path | Run) -> Run:
    """``run``, opened, when it is a base game's: a run under a rule family has other
    columns and its own table and charts (refused here in one line)."""
    run = open_run(run)
    if run.manifest.family:
        from ..game.rules import label

        raise InputError(
            f"{run.path} is a run under {label(run.manifest.rules)}: its table is "
            "pitchsim.study.family_analysis.family_table, its charts "
            "pitchsim.study.family_charts.family_chart (`pitchsim table` and `chart` choose)"
        )
    return run


# ---- counting -----------------------------------------------------------------------


def points_counts(
    run: str | Path | Run, by: str | Sequence[str] = (), players: int | Iterable[int] | None = None
) -> pd.DataFrame:
    """Deals by player count, the ``by`` features and points won.

    One row per group that occurs: ``players``, one column per feature (labels such as
    "A" or "A-J-2"), ``deals`` and ``pts0`` .. ``pts4`` (deals in which the pitcher's
    side won exactly that many points).
    """
    run = base_run(run)
    names = parse_features(by)
    feats = [FEATURES[n] for n in names]
    wanted = None if players is None else ([players] if isinstance(players, int) else players)
    columns = sorted({c for f in feats for c in f.columns} | {"points"})
    sizes = [f.size for f in feats]
    groups = math.prod(sizes)
    dense = groups * POINTS <= DENSE_BINS
    acc: dict[int, object] = {}
    for n, cols in run.scan(columns, wanted):
        code = np.zeros(len(cols["points"]), dtype=np.int64)
        for f in feats:
            code *= f.size
            code += f.code(cols)
        key = code * POINTS + cols["points"]
        if dense:
            add = np.bincount(key, minlength=groups * POINTS)
            acc[n] = add if n not in acc else acc[n] + add
        else:
            uniq, cnt = np.unique(key, return_counts=True)
            acc.setdefault(n, []).append((uniq, cnt))
            if len(acc[n]) >= 16:
                acc[n] = [_merge_sparse(acc[n])]
    frames = []
    for n in sorted(acc):
        if dense:
            table = acc[n].reshape(groups, POINTS)
            codes = np.flatnonzero(table.sum(axis=1))
            counts = table[codes]
        else:
            keys, cnt = _merge_sparse(acc[n])
            codes, inverse = np.unique(keys // POINTS, return_inverse=True)
            counts = np.zeros((codes.size, POINTS), dtype=np.int64)
            np.add.at(counts, (inverse, keys % POINTS), cnt)
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
        for p in range(POINTS):
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


def summarize(counts: pd.DataFrame, min_count: int = 1) -> pd.DataFrame:
    """Add make-probabilities, intervals, expected scores and the best bid to
    :func:`points_counts` output, keeping groups of at least ``min_count`` deals.

    Columns added, for k = 1..4: ``p{k}`` = P(points >= k) with Wilson 95% bounds
    ``p{k}_lo``, ``p{k}_hi``; ``score{k}`` = the expected score of bidding k (the points
    won when made, -k when set) and its standard error ``score{k}_se``; ``bid`` = the
    highest bid with a positive expected score (0 = pass), as ``pitchsim bid-odds``
    recommends, and ``bid_sure`` = whether every expected score's sign that decides it
    is clear of zero by 1.96 standard errors.
    """
    df = counts[counts["deals"] >= min_count].copy()
    n = df["deals"].to_numpy(dtype=float)
    pts = df[[f"pts{p}" for p in range(POINTS)]].to_numpy(dtype=float)
    at_least = np.cumsum(pts[:, ::-1], axis=1)[:, ::-1]  # at_least[:, k] = deals with >= k
    for k in BIDS:
        lo, hi = wilson(at_least[:, k], n)
        df[f"p{k}"] = at_least[:, k] / n
        df[f"p{k}_lo"] = lo
        df[f"p{k}_hi"] = hi
    points = np.arange(POINTS)
    best = np.zeros(len(df), dtype=np.int64)
    sure = np.ones(len(df), dtype=bool)
    for k in BIDS:
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
    by: str | Sequence[str] = ("length", "high"),
    players: int | Iterable[int] | None = None,
    min_count: int = 1,
) -> pd.DataFrame:
    """P(the pitcher's side wins >= k points), k = 1..4, with 95% intervals and counts,
    by player count and the ``by`` features (see :data:`FEATURES`).

    The columns are those of :func:`points_counts` and :func:`summarize`.
    """
    if min_count < 1:
        raise InputError(f"min-count must be at least 1, not {min_count}")
    return summarize(points_counts(run, by, players), min_count)


def holding_rows(table: pd.DataFrame, holdings: Sequence[str]) -> pd.DataFrame:
    """Rows of a table by ``holding`` or ``pattern`` for trump holdings written like
    ``A-J-2`` or ``A-x-x`` (a ``holding`` column is needed for holdings that name a 3-9,
    a ``pattern`` column for the others); a ``label`` column gives the spelling asked."""
    out = []
    for text in holdings:
        kind, code = parse_holding(text)
        label = format_holding(code) if kind == "holding" else format_pattern(code)
        if kind not in table.columns:
            raise InputError(f"holding {text!r} needs a table by {kind}")
        rows = table[table[kind] == label].copy()
        rows["label"] = label
        out.append(rows)
    return pd.concat(out, ignore_index=True) if out else table.iloc[:0]


# ---- exact values a run must reproduce --------------------------------------------------


def exact_checks(run: str | Path | Run, players: int | Iterable[int] | None = None) -> pd.DataFrame:
    """Quantities with known exact values, estimated from the run.

    - A card the pitcher does not hold is dealt with probability 6(n-1)/46: measured on
      the jack of trump (``jack_dealt`` when the pitcher lacks it) and on all the trumps
      he lacks (``trumps_dealt``).
    - Game points in play average 80 * 6n / 52.
    - The ace of trump always wins High; a king of trump without the ace wins it exactly
      when the ace was not dealt, with probability 1 - 6(n-1)/46 (the highest trump in
      play always wins its trick, whoever plays it and however).

    One row per player count and check: ``deals``, ``estimate``, its standard error
    ``se``, the 95% interval ``lo``..``hi``, the ``exact`` value, ``z`` = (estimate -
    exact) / se and ``inside`` (exact within the interval; 1 in 20 correct checks falls
    outside by chance).
    """
    run = base_run(run)
    wanted = None if players is None else ([players] if isinstance(players, int) else players)
    cols = ("trump_ranks", "trump_count", "jack_dealt", "trumps_dealt", "game_dealt", "high")
    sums: dict[int, np.ndarray] = {}
    for n, c in run.scan(cols, wanted):
        ranks = c["trump_ranks"].astype(np.int64)
        lacks_jack = ((ranks >> JACK) & 1) == 0
        unseen = 13 - c["trump_count"].astype(np.int64)
        frac = (c["trumps_dealt"].astype(np.int64) - c["trump_count"]) / unseen
        game = c["game_dealt"].astype(np.float64)
        ace = ((ranks >> ACE) & 1) == 1
        king_top = (((ranks >> KING) & 1) == 1) & ~ace
        s = np.array(
            [
                lacks_jack.sum(),
                (lacks_jack & c["jack_dealt"]).sum(),
                frac.size,
                frac.sum(),
                (frac * frac).sum(),
                game.size,
                game.sum(),
                (game * game).sum(),
                ace.sum(),
                (ace & c["high"]).sum(),
                king_top.sum(),
                (king_top & c["high"]).sum(),
            ],
            dtype=np.float64,
        )
        sums[n] = s if n not in sums else sums[n] + s
    rows = []
    for n in sorted(sums):
        s = sums[n]
        p_unseen = 6 * (n - 1) / 46
        k, m = s[1], s[0]
        lo, hi = wilson(k, m)
        rows.append(
            _row(
                n,
                "unseen jack of trump dealt",
                m,
                k / m,
                math.sqrt(p_unseen * (1 - p_unseen) / m),
                p_unseen,
                lo,
                hi,
            )
        )
        rows.append(_mean_row(n, "share of unseen trumps dealt", s[2], s[3], s[4], p_unseen))
        rows.append(_mean_row(n, "game points in play", s[5], s[6], s[7], 80 * 6 * n / 52))
        lo, hi = wilson(s[9], s[8])
        rows.append(_row(n, "ace of trump wins High", s[8], s[9] / s[8], 0.0, 1.0, lo, hi))
        lo, hi = wilson(s[11], s[10])
        p_king = 1 - p_unseen
        rows.append(
            _row(
                n,
                "king of trump without the ace wins High",
                s[10],
                s[11] / s[10],
                math.sqrt(p_king * (1 - p_king) / s[10]),
                p_king,
                lo,
                hi,
            )
        )
    return pd.DataFrame(rows)


def _row(n, check, deals, estimate, se, exact, lo, hi):
    z = (estimate - exact) / se if se > 0 else (0.0 if estimate == exact else math.inf)
    inside = bool(lo <= exact <= hi) if se > 0 else estimate == exact
    return {
        "players": n,
        "check": check,
        "deals": int(deals),
        "estimate": estimate,
        "se": se,
        "lo": float(lo),
        "hi": float(hi),
        "exact": exact,
        "z": z,
        "inside": inside,
    }


def _mean_row(n, check, count, total, squares, exact):
    mean = total / count
    se = math.sqrt(max(squares / count - mean * mean, 0.0) / count)
    return _row(n, check, count, mean, se, exact, mean - Z95 * se, mean + Z95 * se)
