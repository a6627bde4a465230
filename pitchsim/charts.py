"""Strategy charts from a run: what a Pitch player looks up before bidding.

Every chart is a function of a run that returns a matplotlib ``Figure`` (Agg backend, no
display needed) with a title, axis labels, a legend or colour bar and the sample sizes
behind it; :func:`save` writes it as PNG or SVG.

- :func:`heatmap`: P(make 2) and P(make 3) by trump length x highest trump
- :func:`by_players`: P(make k) against player count for a few trump holdings
- :func:`points`: the distribution of the pitcher's points, per player count
- :func:`bids`: a bidding chart (the bid to go up to) by key trumps x length, per player count
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from matplotlib.colors import BoundaryNorm, ListedColormap  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.patches import Patch  # noqa: E402

from .analysis import BIDS, Run, holding_rows, make_table, open_run  # noqa: E402
from .atomic import atomic_path  # noqa: E402
from .chart_kinds import DEFAULT_HOLDINGS, DEFAULT_MIN_COUNT, KINDS  # noqa: E402,F401
from .errors import InputError  # noqa: E402
from .features import TOPS, format_key_trumps, key_trumps_possible, rank_label  # noqa: E402
from .options import Rules  # noqa: E402

LENGTHS = range(1, 7)

plt.rcParams.update({"svg.hashsalt": "pitchsim", "figure.dpi": 100})


def _describe(run: Run) -> str:
    m = run.manifest
    base = Rules().describe()
    variants = [f"{k}={v}" for k, v in m.rules.describe().items() if base[k] != v]
    where = f"{m.policy} play" + (f", rules {', '.join(variants)}" if variants else "")
    return f"{where}; run seed {m.seed}"


def _one_player_count(run: Run, players: int | None) -> int:
    if players is None:
        if 4 in run.players:
            return 4
        if len(run.players) == 1:
            return run.players[0]
        raise InputError(
            f"this run has {','.join(map(str, run.players))} players: pick one with --players"
        )
    return players


def _k(n: int) -> str:
    """12,345 -> "12k", 1,234,567 -> "1.2M"."""
    if n >= 1_000_000:
        return f"{n / 1e6:.1f}M"
    if n >= 10_000:
        return f"{n / 1e3:.0f}k"
    return f"{n:,}"


def _pct(p: float) -> str:
    return f"{100 * p:.1f}%" if 0 < p < 0.1 else f"{100 * p:.0f}%"


def _range(lo: int, hi: int) -> str:
    return _k(lo) if _k(lo) == _k(hi) else f"{_k(lo)}-{_k(hi)}"


def heatmap(run, players: int | None = None, min_count: int = DEFAULT_MIN_COUNT) -> Figure:
    """P(make 2) and P(make 3) by trump length (columns) and highest trump (rows)."""
    run = open_run(run)
    n = _one_player_count(run, players)
    t = make_table(run, ["length", "high"], n, min_count=1)
    shown = t[t.deals >= min_count]
    ranks = [rank_label(r) for r in range(12, -1, -1)]
    fig, axes = plt.subplots(1, 2, figsize=(13, 7.6), layout="constrained")
    for ax, k in zip(axes, (2, 3), strict=True):
        grid = np.full((len(ranks), len(LENGTHS)), np.nan)
        for row in shown.itertuples():
            grid[ranks.index(row.high), row.length - 1] = getattr(row, f"p{k}")
        im = ax.imshow(grid, cmap="viridis", vmin=0, vmax=1, aspect="auto")
        ax.set_facecolor("#e6e6e6")
        for row in shown.itertuples():
            i, j = ranks.index(row.high), row.length - 1
            p = getattr(row, f"p{k}")
            half = (getattr(row, f"p{k}_hi") - getattr(row, f"p{k}_lo")) / 2
            colour = "black" if p > 0.6 else "white"
            ax.text(j, i - 0.1, _pct(p), ha="center", va="center", fontsize=9,
                    color=colour, fontweight="bold")  # fmt: skip
            ax.text(j, i + 0.28, f"±{100 * half:.1f} n={_k(row.deals)}", ha="center",
                    va="center", fontsize=6, color=colour)  # fmt: skip
        ax.set_xticks(range(len(LENGTHS)), [str(x) for x in LENGTHS])
        ax.set_yticks(range(len(ranks)), ranks)
        ax.set_xlabel("trumps held (trump length)")
        ax.set_ylabel("highest trump held")
        ax.set_title(f"P(make {k}): the pitcher's side wins {k} or more points")
    fig.colorbar(
        im, ax=axes, shrink=0.8, label="probability (cell: estimate, ±95% half-width, deals)"
    )
    total = int(t.deals.sum())
    dropped = int(t[t.deals < min_count].deals.sum())
    fig.suptitle(
        f"Making 2 and 3 by trump length and highest trump: {n} players\n"
        f"{total:,} deals ({_describe(run)}); grey: fewer than {min_count:,} deals "
        f"({dropped:,} deals in such cells)",
        fontsize=11,
    )
    return fig


def by_players(
    run, holdings: Sequence[str] = DEFAULT_HOLDINGS, min_count: int = DEFAULT_MIN_COUNT
) -> Figure:
    """P(make k) against player count, one line per trump holding (``A-J-2``, ``A-x-x``)."""
    run = open_run(run)
    if not holdings:
        raise InputError("give at least one trump holding, e.g. --holdings A-J-2,A-x-x")
    table = pd.concat([make_table(run, ["holding"]), make_table(run, ["pattern"])])
    rows = holding_rows(table, holdings)
    rows = rows[rows.deals >= min_count]
    if rows.empty:
        raise InputError(f"no holding has {min_count:,} deals at any player count in this run")
    fig, axes = plt.subplots(2, 2, figsize=(12, 8.5), sharex=True, layout="constrained")
    colours = plt.get_cmap("tab10")
    labels = list(dict.fromkeys(rows.label))
    for ax, k in zip(axes.flat, BIDS, strict=True):
        for i, label in enumerate(labels):
            r = rows[rows.label == label].sort_values("players")
            p = r[f"p{k}"].to_numpy()
            # Wilson bounds contain the estimate; clip rounding at p = 0 or 1.
            err = np.maximum(np.vstack([p - r[f"p{k}_lo"], r[f"p{k}_hi"] - p]), 0)
            lo, hi = r.deals.min(), r.deals.max()
            ax.errorbar(r.players, p, yerr=err, marker="o", ms=4, capsize=3, color=colours(i),
                        label=f"{label} (n = {_range(lo, hi)} per point)")  # fmt: skip
        ax.set_title(f"P(make {k})")
        ax.set_ylim(-0.02, 1.02)
        ax.set_ylabel(f"P(the pitcher's side wins ≥ {k})")
        ax.grid(alpha=0.3)
    for ax in axes[1]:
        ax.set_xlabel("players at the table")
        ax.set_xticks(sorted(rows.players.unique()))
    fig.legend(*axes[0, 0].get_legend_handles_labels(), loc="outside lower center", ncols=4,
               fontsize=8, title="trump holding (x = any card 3-9)", title_fontsize=8)  # fmt: skip
    fig.suptitle(
        f"Make probabilities against player count, by trump holding\n"
        f"{_describe(run)}; error bars: 95% Wilson intervals; points with fewer than "
        f"{min_count:,} deals left out",
        fontsize=11,
    )
    return fig


def points(run) -> Figure:
    """Share of deals in which the pitcher's side wins 0, 1, 2, 3, 4 points."""
    run = open_run(run)
    t = make_table(run, [])
    fig, ax = plt.subplots(figsize=(10, 5.5), layout="constrained")
    width = 0.8 / len(t)
    colours = plt.get_cmap("viridis")
    for i, row in enumerate(t.itertuples()):
        counts = np.array([getattr(row, f"pts{p}") for p in range(5)])
        share = counts / row.deals
        se = np.sqrt(share * (1 - share) / row.deals)
        mean = (np.arange(5) * counts).sum() / row.deals
        x = np.arange(5) + (i - (len(t) - 1) / 2) * width
        ax.bar(x, share, width, yerr=1.96 * se, capsize=2, color=colours(i / max(1, len(t) - 1)),
               label=f"{row.players} players (n = {row.deals:,}, mean {mean:.2f})")  # fmt: skip
    ax.set_xticks(range(5), ["0", "1", "2", "3", "4"])
    ax.set_xlabel("points won by the pitcher's side (High, Low, Jack, Game)")
    ax.set_ylabel("share of deals")
    ax.grid(axis="y", alpha=0.3)
    ax.legend(title="table (deals, mean points)", fontsize=9)
    ax.set_title(
        "Points won by the pitcher: a random hand, trump as the policy picks it\n"
        f"{_describe(run)}; error bars: 95% intervals",
        fontsize=11,
    )
    return fig


BID_COLOURS = ["#bdbdbd", "#fde0c5", "#facba6", "#f59e72", "#e05c5c"]  # pass, 1, 2, 3, 4


def bids(run, min_count: int = DEFAULT_MIN_COUNT) -> Figure:
    """Per player count: the highest bid with a positive expected score, by key trumps
    (highest trump, jack, deuce) and trump length."""
    run = open_run(run)
    t = make_table(run, ["keys", "length"], min_count=1)
    codes = [c for c in range(20) if key_trumps_possible(c)]
    codes.sort(key=lambda c: (c // 4, 3 - c % 4))
    rows = [format_key_trumps(c) for c in codes]
    counts = run.players
    cols = min(3, len(counts))
    nrows = -(-len(counts) // cols)
    width = max(11.0, 4.6 * cols + 0.4)  # room for the title and legend with one panel
    fig, axes = plt.subplots(nrows, cols, figsize=(width, 6.3 * nrows + 1.0),
                             squeeze=False, layout="constrained")  # fmt: skip
    cmap = ListedColormap(BID_COLOURS)
    norm = BoundaryNorm(np.arange(-0.5, 5.5), cmap.N)
    unsure_cells = 0
    for ax, n in zip(axes.flat, counts, strict=False):
        sub = t[(t.players == n) & (t.deals >= min_count)]
        grid = np.full((len(rows), len(LENGTHS)), np.nan)
        ax.set_facecolor("white")
        for row in sub.itertuples():
            i, j = rows.index(row.keys), row.length - 1
            grid[i, j] = row.bid
        ax.imshow(grid, cmap=cmap, norm=norm, aspect="auto")
        for row in sub.itertuples():
            i, j = rows.index(row.keys), row.length - 1
            text = "P" if row.bid == 0 else str(row.bid)
            if not row.bid_sure:
                text += "?"
                unsure_cells += 1
            ax.text(j, i, text, ha="center", va="center", fontsize=9,
                    fontweight="bold" if row.bid_sure else "normal")  # fmt: skip
        ax.set_xticks(range(len(LENGTHS)), [str(x) for x in LENGTHS])
        ax.set_yticks(range(len(rows)), rows)
        ax.set_xlabel("trumps held")
        ax.set_ylabel("key trumps held (top trump, J, 2)")
        deals = int(t[t.players == n].deals.sum())
        ax.set_title(f"{n} players ({deals:,} deals)", fontsize=10)
    for ax in list(axes.flat)[len(counts) :]:
        ax.axis("off")
    handles = [Patch(color=c, label=lab) for c, lab in
               zip(BID_COLOURS, ["pass", "bid 1", "bid 2", "bid 3", "bid 4"], strict=True)]  # fmt: skip
    handles.append(Patch(color="white", label="blank: too few deals"))
    fig.legend(handles=handles, loc="outside lower center", ncols=3 if cols == 1 else 6,
               fontsize=9)  # fmt: skip
    fig.suptitle(
        "Bidding chart: how high to bid as pitcher\n"
        "(the highest bid with a positive expected score)\n"
        f"{_describe(run)}; cells with fewer than {min_count:,} deals blank\n"
        f"'?': an expected score it depends on is within 1.96 s.e. of zero ({unsure_cells} cells); "
        f"rows: the highest trump ({', '.join(TOPS)}), then J and 2 when held",
        fontsize=11,
    )
    return fig


def chart(run, kind: str, players: int | None = None, holdings: Sequence[str] | None = None,
          min_count: int = DEFAULT_MIN_COUNT) -> Figure:  # fmt: skip
    """The chart ``kind`` (one of :data:`KINDS`) of ``run``."""
    if kind not in KINDS:
        raise InputError(f"unknown chart kind {kind!r} (known: {', '.join(KINDS)})")
    if min_count < 1:
        raise InputError(f"min-count must be at least 1, not {min_count}")
    if kind == "heatmap":
        return heatmap(run, players, min_count)
    if kind == "players":
        return by_players(run, holdings or DEFAULT_HOLDINGS, min_count)
    if kind == "points":
        return points(run)
    return bids(run, min_count)


def save(fig: Figure, out: str | Path) -> Path:
    """Write ``fig`` as PNG or SVG (by the file's suffix), without a timestamp, and close it."""
    path = Path(out)
    suffix = path.suffix.lower()
    if suffix not in (".png", ".svg"):
        raise InputError(f"chart file {out} must end in .png or .svg")
    if not path.parent.exists():
        raise InputError(f"directory {path.parent} does not exist")
    metadata = {"Software": None} if suffix == ".png" else {"Date": None, "Creator": None}
    try:
        with atomic_path(path) as tmp:  # a full disk leaves the old chart, not half of one
            fig.savefig(tmp, format=suffix[1:], dpi=130 if suffix == ".png" else None,
                        metadata=metadata)  # fmt: skip
    finally:
        plt.close(fig)
    return path
