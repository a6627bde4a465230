"""Aggregations over a run under a rule family (``pitchsim table`` and ``chart`` of a
run made with ``simulate --rules FAMILY``): P(the pitcher's side wins at least k
points) for every k from 1 to the family's point total, by the pitcher's hand.

As :mod:`pitchsim.study.analysis`, a run is read one part at a time, only the columns a
question needs, and each part reduced with ``numpy.bincount`` to counts of deals by
(group, points won); the probabilities, Wilson intervals, expected scores and the bid
come from those counts.
"""

from __future__ import annotations

import math
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


# The highest trump dealt, in the preset's trump order (game/trumps.py keys: A 31 ...
# jick 27, high joker 26, low joker 25, 10 24 ... 2 16); code 31 - key, "none" past them.
HIGH_LABELS = ("A", "K", "Q", "J", "Jk", "HJ", "LJ", "10", "9", "8", "7", "6", "5", "4", "3", "2")
HIGH_LABELS = (*HIGH_LABELS, "none")


def highest_trump(hand: np.ndarray, trump: np.ndarray, rules) -> np.ndarray:
    """Per deal, the code (index in :data:`HIGH_LABELS`) of the highest trump in ``hand``
    when ``trump`` is trump, the jick and the jokers counted where the rules have them."""
    from ..game.trumps import trump_tables

    r = as_family(rules)
    tt = trump_tables(r.jokers, r.jick)
    hand = hand.astype(np.int64)
    trump = trump.astype(np.int64)
    masks = tt.trump_mask[trump]
    best = np.full(hand.size, -1, dtype=np.int64)
    for c in range(tt.key.shape[1]):
        has = ((hand & masks) >> c) & 1
        best = np.where(has == 1, np.maximum(best, tt.key[trump, c]), best)
    return np.where(best < 0, len(HIGH_LABELS) - 1, 31 - best)


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
        FamilyFeature("high", "hand", len(HIGH_LABELS), "the highest trump dealt (A ... 2)"),
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
    rules = family_rules(run)
    top = rules.max_bid
    bins = top + 1
    columns = sorted(set().union(*(f.columns() for f in feats)) | {"points"})
    acc: dict[int, dict[int, np.ndarray]] = {}
    for n, cols in run.scan(columns, players):
        code = np.zeros(len(cols["points"]), dtype=np.int64)
        for f in feats:
            code = code * f.size + f.codes(cols, rules)
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


# ---- exact values a run must reproduce --------------------------------------------------


def family_exact_checks(
    run: str | Path | Run, players: int | Iterable[int] | None = None
) -> pd.DataFrame:
    """Quantities with known exact values, estimated from a run under a rule family; the
    columns of :func:`pitchsim.study.analysis.exact_checks`.

    Seat 0 pitches every deal of a run whatever it holds (``study.family_parts``), so its
    hand as dealt is a uniform draw of ``each`` cards from the preset's pack:

    - a given card (the ace of spades; each joker the pack has) is in it with
      probability ``each / pack``;
    - the ace of trump held when play starts always wins High for the pitcher's side
      (nothing ranks above it, and its holder always plays it: VARIANTS 0.7);
    - without a discard and a rob the cards in play are the cards dealt (0.6), so a king
      of trump dealt without the ace wins High for the pitcher's side exactly when the
      ace is not dealt to an opponent: ``1 - opponents * each / (pack - each)``;
    - under ``low=dealt`` the 2 of trump held when play starts wins Low for its holder.
    """
    from ..game.cards import ACE, HIGH_JOKER, LOW_JOKER, N_RANKS
    from .analysis import _row

    run = open_run(run)
    if not run.manifest.family:
        raise InputError(f"{run.path} is a run of the base game: its checks are exact_checks")
    r = family_rules(run)
    wanted = None if players is None else ([players] if isinstance(players, int) else players)
    key = {name: 1 << i for i, name in enumerate(KEY_NAMES)}
    spade_ace = 3 * N_RANKS + ACE
    jokers = [("high joker", HIGH_JOKER), ("low joker", LOW_JOKER)][: r.jokers]
    cols = ["hand", "keys", "keys_held", "high", "low"]
    sums: dict[int, dict[str, list[int]]] = {}
    for n, c in run.scan(cols, wanted):
        hand = c["hand"].astype(np.int64)
        keys = c["keys"].astype(np.int64)
        held = c["keys_held"].astype(np.int64)
        mine = c["high"] == 0  # 0: the pitcher's side took it
        tally = {
            "ace of spades": (hand.size, int(((hand >> spade_ace) & 1).sum())),
            **{f"{name} in": (hand.size, int(((hand >> card) & 1).sum())) for name, card in jokers},
            "ace": (int((held & key["A"] > 0).sum()), int(((held & key["A"] > 0) & mine).sum())),
        }
        king = (keys & key["K"] > 0) & (keys & key["A"] == 0)
        tally["king"] = (int(king.sum()), int((king & mine).sum()))
        deuce = held & key["2"] > 0
        tally["deuce"] = (int(deuce.sum()), int((deuce & (c["low"] == 0)).sum()))
        have = sums.setdefault(n, {})
        for name, (m, k) in tally.items():
            old = have.get(name, [0, 0])
            have[name] = [old[0] + m, old[1] + k]
    rows = []
    for n in sorted(sums):
        each, pack = r.cards_each(n), r.pack_size(n)
        s = sums[n]

        def share(check: str, name: str, exact: float, s=s, n=n) -> None:
            m, k = s[name]
            if m == 0:
                return
            p = k / m
            se = math.sqrt(exact * (1 - exact) / m)
            lo, hi = wilson(k, m)
            rows.append(_row(n, check, m, p, se, exact, lo, hi))

        share("the ace of spades in the pitcher's hand as dealt", "ace of spades", each / pack)
        for name, _ in jokers:
            share(f"the {name} in the pitcher's hand as dealt", f"{name} in", each / pack)
        share("the ace of trump held wins High", "ace", 1.0)
        if r.discard == "none" and not r.rob:
            opponents = sum(1 for seat in range(1, n) if r.team(seat) != r.team(0))
            share(
                "king of trump dealt without the ace wins High",
                "king",
                1 - opponents * each / (pack - each),
            )
        if r.low == "dealt":
            share("the 2 of trump held wins Low", "deuce", 1.0)
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
