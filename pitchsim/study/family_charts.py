"""Charts of a run under a rule family (``pitchsim chart`` of a run made with
``simulate --rules FAMILY``): every chart kind of the base game.

- ``heatmap``: P(make k) for two levels k (the preset's two lowest bids unless
  ``levels`` says) by trumps dealt x the highest trump dealt, in the preset's trump order
  (the jick and the jokers have their rows), drawn by :func:`pitchsim.study.charts.heatmap`;
- ``players``: P(make k) against player count for key-trump holdings (``A-J-2``, ``K-Jk``;
  the most frequent holdings unless named), drawn by :func:`pitchsim.study.charts.by_players`;
- ``points``: the distribution of the pitcher's side's points, 0 to the family's total,
  per player count;
- ``bids``: the bid to go up to by key trumps dealt x trumps dealt, per player count.

Each chart is drawn from its data (:func:`family_chart_data`), one row per cell, which
the tests check against :func:`family_analysis.family_table`.
"""

from __future__ import annotations

from collections.abc import Sequence

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from matplotlib.colors import BoundaryNorm, ListedColormap  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.patches import Patch  # noqa: E402

from ..util.errors import InputError  # noqa: E402
from .analysis import Run  # noqa: E402
from .charts import ChartData, _k, _one_player_count, _pct, by_players, heatmap  # noqa: E402
from .family_analysis import (  # noqa: E402
    HIGH_LABELS,
    describe_run,
    family_rules,
    family_table,
)
from .manifest import KEY_NAMES  # noqa: E402

FAMILY_KINDS = ("heatmap", "players", "points", "bids")
TOP_HOLDINGS = 24  # rows of the bids chart: the most frequent holdings
DEFAULT_SHOWN = 6  # lines of the players chart when no holding is named


def check_family_kind(kind: str) -> None:
    if kind not in FAMILY_KINDS:
        raise InputError(f"unknown chart kind {kind!r} (known: {', '.join(FAMILY_KINDS)})")


def chart_levels(run: Run, levels: Sequence[int] | None, default: int) -> list[int]:
    """The levels k a chart shows: ``levels`` checked against the preset's bids, else its
    ``default`` lowest legal bids."""
    r = family_rules(run)
    if levels is None:
        return list(range(r.min_bid, min(r.max_bid, r.min_bid + default - 1) + 1))
    bad = [k for k in levels if not 1 <= k <= r.max_bid]
    if bad or not levels or len(set(levels)) != len(levels):
        raise InputError(
            f"--levels {','.join(map(str, levels))}: give distinct levels from 1 to "
            f"{r.max_bid}, the points of {describe_run(run).split(',')[0]}"
        )
    return sorted(levels)


def heatmap_data(
    run: Run, players: int | None, min_count: int, levels: Sequence[int] | None = None
) -> ChartData:
    """One row per (k, highest trump dealt, trumps dealt) shown, for two levels k."""
    n = _one_player_count(run, players)
    ks = chart_levels(run, levels, 2)
    if len(ks) != 2:
        raise InputError("--levels: the heatmap shows two levels, e.g. --levels 2,3")
    t = family_table(run, ["length", "high"], [n], min_count=1)
    t = t[t.high != "none"]
    shown = t[t.deals >= min_count]
    rows = []
    for k in ks:
        for r in shown.itertuples():
            p, lo, hi = getattr(r, f"p{k}"), getattr(r, f"p{k}_lo"), getattr(r, f"p{k}_hi")
            rows.append(
                {
                    "k": k,
                    "high": r.high,
                    "length": int(r.length),
                    "value": p,
                    "lo": lo,
                    "hi": hi,
                    "deals": r.deals,
                    "label": _pct(p),
                    "detail": f"±{100 * (hi - lo) / 2:.1f} n={_k(r.deals)}",
                }
            )
    present = set(t.high)
    lengths = sorted(int(x) for x in t.length.unique()) or [1]
    meta = {
        "players": n,
        "deals": int(t.deals.sum()),
        "min_count": min_count,
        "blank_cells": int((t.deals < min_count).sum()),
        "blank_deals": int(t[t.deals < min_count].deals.sum()),
        "levels": ks,
        "rows": [h for h in HIGH_LABELS if h in present],
        "lengths": list(range(1, max(lengths) + 1)),
        "describe": describe_run(run),
        "held": "dealt",
    }
    return ChartData("heatmap", pd.DataFrame(rows), meta)


def parse_holding(text: str, run: Run) -> str:
    """``A-J-2`` or ``A J 2`` -> the table's label ``A J 2`` (key trumps in the order of
    :data:`KEY_NAMES`); ``none`` for a hand with none of them."""
    names = [x for x in text.replace("-", " ").split() if x]
    if names == ["none"]:
        return "none"
    bad = [x for x in names if x not in KEY_NAMES]
    if bad or not names or len(set(names)) != len(names):
        raise InputError(
            f"holding {text!r}: name key trumps once each from {' '.join(KEY_NAMES)} "
            "(e.g. A-J-2), or none"
        )
    return " ".join(k for k in KEY_NAMES if k in names)


def players_data(
    run: Run,
    holdings: Sequence[str] | None,
    min_count: int,
    levels: Sequence[int] | None = None,
) -> ChartData:
    """One row per (k, key-trump holding, player count) shown."""
    ks = chart_levels(run, levels, 4)
    if len(ks) > 4:
        raise InputError("--levels: the players chart shows at most four levels")
    t = family_table(run, ["holding"], min_count=1)
    if holdings is None:
        freq = t.groupby("holding", sort=False).deals.sum().sort_values(ascending=False)
        wanted = list(freq.index[:DEFAULT_SHOWN])
    else:
        if not holdings:
            raise InputError("give at least one key-trump holding, e.g. --holdings A-J-2,K")
        wanted = [parse_holding(h, run) for h in holdings]
    found = t[t.holding.isin(wanted)]
    kept = found[found.deals >= min_count]
    if kept.empty:
        raise InputError(f"no holding named has {min_count:,} deals at any player count")
    rows = []
    for k in ks:
        for r in kept.itertuples():
            rows.append(
                {
                    "k": k,
                    "holding": r.holding.replace(" ", "-"),
                    "players": r.players,
                    "value": getattr(r, f"p{k}"),
                    "lo": getattr(r, f"p{k}_lo"),
                    "hi": getattr(r, f"p{k}_hi"),
                    "deals": r.deals,
                }
            )
    meta = {
        "min_count": min_count,
        "blank_cells": len(found) - len(kept),
        "levels": ks,
        "describe": describe_run(run),
        "legend": "key trumps dealt to the pitcher (exactly these of "
        + " ".join(KEY_NAMES)
        + "; other trumps any)",
    }
    return ChartData("players", pd.DataFrame(rows), meta)


def points_data(run: Run) -> ChartData:
    """One row per (player count, points won 0 .. the family's total)."""
    r = family_rules(run)
    t = family_table(run, [])
    rows = []
    for row in t.itertuples():
        counts = np.array([getattr(row, f"pts{p}") for p in range(r.max_bid + 1)])
        mean = float((np.arange(r.max_bid + 1) * counts).sum() / row.deals)
        for p in range(r.max_bid + 1):
            share = counts[p] / row.deals
            rows.append(
                {
                    "players": row.players,
                    "points": p,
                    "value": share,
                    "se": float(np.sqrt(share * (1 - share) / row.deals)),
                    "deals": row.deals,
                    "mean": mean,
                }
            )
    return ChartData("points", pd.DataFrame(rows), {"max": r.max_bid})


def bids_data(run: Run, min_count: int) -> ChartData:
    """One row per (player count, holding, length) shown: the bid to go up to
    (``value``, 0 = pass) and its label (``P``, ``3?``).  Rows: the most frequent
    holdings of each player count, the strongest (most points on average) first."""
    t = family_table(run, ["holding", "length"], min_count=1)
    rows, per = [], {}
    for n in run.players:
        sub = t[t.players == n]
        by_holding = sub.groupby("holding", sort=False)
        freq = by_holding.deals.sum().sort_values(ascending=False, kind="stable")
        pts = sub[[c for c in sub.columns if c.startswith("pts")]].to_numpy()
        points = pts @ np.arange(pts.shape[1])
        mean = pd.Series(points, index=sub.index).groupby(sub.holding).sum() / freq
        top = list(freq.index[:TOP_HOLDINGS])
        shown = sub[sub.holding.isin(top) & (sub.deals >= min_count)]
        # rows with a cell shown, the strongest (most points on average) at the top
        order = sorted(set(shown.holding), key=lambda h: (-mean[h], h))
        for c in shown.itertuples():
            rows.append(
                {
                    "players": n,
                    "holding": c.holding,
                    "row": order.index(c.holding),
                    "length": int(c.length),
                    "value": int(c.bid),
                    "sure": bool(c.bid_sure),
                    "label": ("P" if c.bid == 0 else str(c.bid)) + ("" if c.bid_sure else "?"),
                    "deals": int(c.deals),
                }
            )
        per[n] = {
            "deals": int(sub.deals.sum()),
            "rows": order,
            "blank_cells": int((sub.holding.isin(top) & (sub.deals < min_count)).sum()),
            "left_out": int(sub.deals.sum() - freq[top].sum()),
        }
    meta = {
        "min_count": min_count,
        "per_players": per,
        "blank_cells": sum(v["blank_cells"] for v in per.values()),
    }
    return ChartData("bids", pd.DataFrame(rows), meta)


def family_chart_data(
    run: Run,
    kind: str,
    min_count: int,
    players: int | None = None,
    holdings: Sequence[str] | None = None,
    levels: Sequence[int] | None = None,
) -> ChartData:
    check_family_kind(kind)
    if kind == "heatmap":
        return heatmap_data(run, players, min_count, levels)
    if kind == "players":
        return players_data(run, holdings, min_count, levels)
    return points_data(run) if kind == "points" else bids_data(run, min_count)


def family_chart(run: Run, kind: str, min_count: int, data: ChartData | None = None) -> Figure:
    data = data or family_chart_data(run, kind, min_count)
    if kind == "heatmap":
        return heatmap(run, data.meta["players"], min_count, data=data)
    if kind == "players":
        return by_players(run, (), min_count, data=data)
    return points(run, data) if kind == "points" else bids(run, data)


def points(run: Run, data: ChartData) -> Figure:
    r = family_rules(run)
    cells = data.cells
    counts = sorted(cells.players.unique())
    fig, ax = plt.subplots(
        figsize=(max(8.0, 0.75 * (r.max_bid + 1) + 3), 5.5), layout="constrained"
    )
    width = 0.8 / len(counts)
    colours = plt.get_cmap("viridis")
    for i, n in enumerate(counts):
        c = cells[cells.players == n].sort_values("points")
        x = c.points.to_numpy() + (i - (len(counts) - 1) / 2) * width
        first = c.iloc[0]
        ax.bar(
            x,
            c.value,
            width,
            yerr=1.96 * c.se,
            capsize=2,
            color=colours(i / max(1, len(counts) - 1)),
            label=f"{n} players (n = {int(first.deals):,}, mean {first['mean']:.2f})",
        )
    ax.set_xticks(range(r.max_bid + 1), [str(p) for p in range(r.max_bid + 1)])
    ax.set_xlabel(f"points won by the pitcher's side (0-{r.max_bid})")
    ax.set_ylabel("share of deals")
    ax.grid(axis="y", alpha=0.3)
    ax.legend(title="table (deals, mean points)", fontsize=9)
    ax.set_title(
        "Points won by the pitcher's side: a random hand, trump as the policy picks it\n"
        f"{describe_run(run)}; error bars: 95% intervals",
        fontsize=11,
    )
    return fig


def bids(run: Run, data: ChartData) -> Figure:
    r = family_rules(run)
    cells, per = data.cells, data.meta["per_players"]
    min_count = data.meta["min_count"]
    counts = run.players
    lengths = sorted(cells.length.unique()) if len(cells) else [1]
    lengths = list(range(min(lengths), max(lengths) + 1))
    cols = min(3, len(counts))
    nrows = -(-len(counts) // cols)
    height = max(1, *(len(v["rows"]) for v in per.values())) * 0.32 + 3.5
    fig, axes = plt.subplots(
        nrows,
        cols,
        figsize=(max(9.0, cols * (0.55 * len(lengths) + 3.2)), nrows * height + 1.8),
        squeeze=False,
        layout="constrained",
    )
    levels = [0, *range(r.min_bid, r.max_bid + 1)]
    colours = plt.get_cmap("YlOrRd", len(levels) + 1)(np.arange(1, len(levels) + 1))
    colours[0] = (0.74, 0.74, 0.74, 1.0)  # pass: grey
    cmap = ListedColormap(colours)
    norm = BoundaryNorm(np.arange(len(levels) + 1) - 0.5, cmap.N)
    for ax, n in zip(axes.flat, counts, strict=False):
        order = per[n]["rows"]
        grid = np.full((len(order), len(lengths)), np.nan)
        sub = cells[cells.players == n] if len(cells) else cells
        for c in sub.itertuples():
            grid[c.row, lengths.index(c.length)] = levels.index(c.value)
        ax.set_facecolor("white")
        ax.imshow(grid, cmap=cmap, norm=norm, aspect="auto")
        for c in sub.itertuples():
            ax.text(
                lengths.index(c.length),
                c.row,
                c.label,
                ha="center",
                va="center",
                fontsize=8,
                fontweight="bold" if c.sure else "normal",
            )
        ax.set_xticks(range(len(lengths)), [str(x) for x in lengths])
        ax.set_yticks(range(len(order)), order)
        ax.set_xlabel("trumps dealt to the pitcher")
        ax.set_ylabel("key trumps dealt (strongest on average first)")
        blank = per[n]["blank_cells"]
        ax.set_title(
            f"{n} players ({per[n]['deals']:,} deals; {_k(per[n]['left_out'])} in rarer "
            f"holdings not shown{f'; {blank} blank' if blank else ''})",
            fontsize=9,
        )
    for ax in list(axes.flat)[len(counts) :]:
        ax.axis("off")
    handles = [
        Patch(color=colours[i], label="pass" if v == 0 else f"bid {v}")
        for i, v in enumerate(levels)
    ]
    handles.append(
        Patch(facecolor="white", edgecolor="#999999", label=f"blank: < {min_count:,} deals")
    )
    fig.legend(
        handles=handles,
        loc="outside lower center",
        ncols=min(6, len(handles)),
        fontsize=8,
        title="Each cell: the highest legal bid with a positive expected score (P = pass); "
        "'?': an expected score it depends on is within 1.96 s.e. of zero.",
        title_fontsize=8.5,
    )
    fig.suptitle(
        f"Bidding chart: how high a pitcher can bid and still expect to gain\n{describe_run(run)}",
        fontsize=11,
    )
    return fig
