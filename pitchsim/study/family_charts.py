"""Charts of a run under a rule family (``pitchsim chart`` of a run made with
``simulate --rules FAMILY``): the base chart kinds that carry over to a family.

- ``points``: the distribution of the pitcher's side's points, 0 to the family's total,
  per player count;
- ``bids``: the bid to go up to by key trumps dealt x trumps dealt, per player count.

``heatmap`` (P(make 2) and P(make 3) by the highest trump's rank) and ``players`` (P(make
k), k = 1-4, against player count for base-game holdings such as ``A-x-x``) are built on
the base game's hand features and four points: under a family they are refused
(:data:`REFUSED`).  Each chart is drawn from its data (:func:`family_chart_data`), one
row per cell, which the tests check against :func:`family_analysis.family_table`.
"""

from __future__ import annotations

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
from .charts import ChartData, _k  # noqa: E402
from .family_analysis import describe_run, family_rules, family_table  # noqa: E402

FAMILY_KINDS = ("points", "bids")
REFUSED = {
    "heatmap": "it is drawn by the base game's highest trump rank and P(make 2), P(make 3)",
    "players": "its holdings (A-x-x, K-J-x) are the base game's",
}
TOP_HOLDINGS = 24  # rows of the bids chart: the most frequent holdings


def check_family_kind(kind: str) -> None:
    if kind in REFUSED:
        raise InputError(
            f"--kind {kind} is not drawn for a run under a rule family ({REFUSED[kind]}): "
            f"use --kind {' or '.join(FAMILY_KINDS)}, or `pitchsim table`"
        )


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


def family_chart_data(run: Run, kind: str, min_count: int) -> ChartData:
    check_family_kind(kind)
    return points_data(run) if kind == "points" else bids_data(run, min_count)


def family_chart(run: Run, kind: str, min_count: int, data: ChartData | None = None) -> Figure:
    data = data or family_chart_data(run, kind, min_count)
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
