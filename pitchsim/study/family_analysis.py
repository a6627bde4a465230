"""Aggregations over a run under a rule family (``pitchsim table`` and ``chart`` of a
run made with ``simulate --rules FAMILY``): P(the pitcher's side wins at least k
points) for every k from 1 to the family's point total, by the pitcher's hand.

As :mod:`pitchsim.study.analysis`, a run is read one part at a time, only the columns a
question needs, and each part reduced with ``numpy.bincount`` to counts of deals by
(group, points won); the probabilities, Wilson intervals, expected scores and the bid
come from those counts.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from ..game.cards import SUIT_NAMES
from ..game.rules import Rules, as_family, label
from ..util.errors import InputError
from ..util.stats import Z95, wilson
from .analysis import Run, open_run
from .manifest import FAMILY_AWARDS, KEY_NAMES


@dataclass(frozen=True)
class FamilyFeature:
    """A feature of the pitcher's hand a family table groups by: its column and the
    labels of its codes 0 .. size-1."""

    name: str
    column: str
    size: int
    meaning: str

    def label(self, code: int) -> str:
        if self.column in ("keys", "keys_held"):
            names = [k for i, k in enumerate(KEY_NAMES) if code >> i & 1]
            return " ".join(names) or "none"
        if self.column == "trump":
            return SUIT_NAMES[code]
        return str(code)


FAMILY_FEATURES = {
    f.name: f
    for f in (
        FamilyFeature("holding", "keys", 1 << len(KEY_NAMES), "key trumps dealt (A J Jk 2 ...)"),
        FamilyFeature("length", "trump_count", 11, "trumps dealt"),
        FamilyFeature(
            "holding_held", "keys_held", 1 << len(KEY_NAMES), "key trumps held when play starts"
        ),
        FamilyFeature("length_held", "trump_count_held", 11, "trumps held when play starts"),
        FamilyFeature("trump", "trump", 4, "the trump suit"),
    )
}
DEFAULT_BY = "holding"


def parse_family_features(spec: str | Sequence[str]) -> list[str]:
    """``"holding,length"`` -> the family features named, checked (none: by player count only)."""
    names = [s.strip() for s in spec.split(",")] if isinstance(spec, str) else list(spec)
    names = [n for n in names if n]
    for n in names:
        if n not in FAMILY_FEATURES:
            raise InputError(
                f"unknown feature {n!r} for a run under a rule family "
                f"(known: {', '.join(FAMILY_FEATURES)})"
            )
    if len(set(names)) != len(names):
        raise InputError(f"--by {','.join(names)} names a feature twice")
    return names


def family_rules(run: Run):
    return as_family(run.manifest.rules)


def family_counts(
    run: str | Path | Run, by: str | Sequence[str] = (), players: Iterable[int] | None = None
) -> pd.DataFrame:
    """Deals by player count, the ``by`` features and points won: one row per group
    that occurs, with ``players``, one column per feature (its label), ``deals`` and
    ``pts0`` .. ``pts{max}`` (deals in which the pitcher's side won exactly so many)."""
    run = open_run(run)
    if not run.manifest.family:
        raise InputError(f"{run.path} is a run of the base game, not of a rule family")
    names = parse_family_features(by)
    feats = [FAMILY_FEATURES[n] for n in names]
    top = family_rules(run).max_bid
    bins = top + 1
    columns = sorted({f.column for f in feats} | {"points"})
    acc: dict[int, dict[int, np.ndarray]] = {}
    for n, cols in run.scan(columns, players):
        code = np.zeros(len(cols["points"]), dtype=np.int64)
        for f in feats:
            code = code * f.size + cols[f.column].astype(np.int64)
        pts = cols["points"].astype(np.int64)
        if pts.size and pts.max() > top:
            raise InputError(f"{run.path}: a deal won {pts.max()} points, over {top}")
        key = code * bins + pts
        uniq, cnt = np.unique(key, return_counts=True)
        have = acc.setdefault(n, {})
        for k, c in zip(uniq.tolist(), cnt.tolist(), strict=True):
            g, p = divmod(k, bins)
            row = have.get(g)
            if row is None:
                row = have[g] = np.zeros(bins, dtype=np.int64)
            row[p] += c
    rows = []
    for n in sorted(acc):
        for g in sorted(acc[n]):
            row = {"players": n}
            rest = g
            labels = []
            for f in reversed(feats):
                rest, c = divmod(rest, f.size)
                labels.append((f.name, f.label(c)))
            row.update(dict(reversed(labels)))
            counts = acc[n][g]
            row["deals"] = int(counts.sum())
            row.update({f"pts{p}": int(counts[p]) for p in range(bins)})
            rows.append(row)
    cols = ["players", *names, "deals", *(f"pts{p}" for p in range(bins))]
    return pd.DataFrame(rows, columns=cols)


def family_summarize(counts: pd.DataFrame, rules, min_count: int = 1) -> pd.DataFrame:
    """Add to :func:`family_counts` output, for every k = 1 .. the family's point total,
    ``p{k}`` = P(points >= k) with Wilson 95% bounds ``p{k}_lo`` and ``p{k}_hi``; for
    every legal bid k, ``score{k}`` (the points won when made, -k when set) and its
    standard error; ``bid``, the highest legal bid with a positive expected score (0 =
    pass), and ``bid_sure``, whether every sign that decides it is clear of zero by
    1.96 standard errors.  Groups of fewer than ``min_count`` deals are left out."""
    top = rules.max_bid
    df = counts[counts["deals"] >= min_count].copy()
    n = df["deals"].to_numpy(dtype=float)
    pts = df[[f"pts{p}" for p in range(top + 1)]].to_numpy(dtype=float)
    at_least = np.cumsum(pts[:, ::-1], axis=1)[:, ::-1]
    for k in range(1, top + 1):
        lo, hi = wilson(at_least[:, k], n)
        df[f"p{k}"] = at_least[:, k] / n
        df[f"p{k}_lo"] = lo
        df[f"p{k}_hi"] = hi
    points = np.arange(top + 1)
    best = np.zeros(len(df), dtype=np.int64)
    sure = np.ones(len(df), dtype=bool)
    for k in range(rules.min_bid, top + 1):
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


def family_table(
    run: str | Path | Run,
    by: str | Sequence[str] = DEFAULT_BY,
    players: Iterable[int] | None = None,
    min_count: int = 1,
) -> pd.DataFrame:
    """P(make k) for k = 1 .. the family's point total by player count and ``by``
    (:data:`FAMILY_FEATURES`), with intervals, expected scores and the bid.  Grouped by
    a holding, the most frequent holdings come first within a player count."""
    if min_count < 1:
        raise InputError(f"min-count must be at least 1, not {min_count}")
    run = open_run(run)
    names = parse_family_features(by)
    df = family_summarize(family_counts(run, names, players), family_rules(run), min_count)
    if any(n.startswith("holding") for n in names) and len(df):
        df = df.sort_values(["players", "deals"], ascending=[True, False], kind="stable")
        df = df.reset_index(drop=True)
    return df


def family_awards(run: str | Path | Run, players: Iterable[int] | None = None) -> pd.DataFrame:
    """Per player count and award of the family: the share of deals in which the
    pitcher's side, the other side or nobody took it (the card not in play, Game tied)."""
    run = open_run(run)
    names = [a for a in FAMILY_AWARDS if a.replace("_", "-") in _award_names(family_rules(run))]
    acc: dict[int, np.ndarray] = {}
    for n, cols in run.scan(names, players):
        t = acc.setdefault(n, np.zeros((len(names), 4), dtype=np.int64))
        for i, a in enumerate(names):
            t[i] += np.bincount(cols[a].astype(np.int64), minlength=4)[:4]
    rows = []
    for n in sorted(acc):
        for i, a in enumerate(names):
            c = acc[n][i]
            m = int(c.sum())
            rows.append(
                {
                    "players": n,
                    "award": a,
                    "deals": m,
                    "pitcher": c[0] / m,
                    "other": c[1] / m,
                    "nobody": c[2] / m,
                }
            )
    return pd.DataFrame(rows)


def _award_names(rules) -> list[str]:
    from ..kernels.families.score import award_names

    return award_names(rules)


def describe_run(run: Run) -> str:
    """``smear,target=15, heuristic play, seed 3``: what a family run is, in a line."""
    m = run.manifest
    return f"{label(m.rules)}, {m.policy} play, seed {m.seed}"


def rules_match(run: Run, spec: str | None) -> None:
    """``--rules`` given to ``table`` or ``chart``: it must be the run's rules (the run
    records its rules in full; a table under other rules would be mislabelled)."""
    if spec is None:
        return
    given = Rules.parse(spec)
    if given.describe() != run.manifest.params.rules:
        raise InputError(
            f"{run.path} was played under --rules {label(run.manifest.rules)}, "
            f"not {label(given)}: leave out --rules, or give the run's"
        )
