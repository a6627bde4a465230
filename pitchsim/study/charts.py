"""Strategy charts from a run: what a Pitch player looks up before bidding.

Every chart is a function of a run that returns a matplotlib ``Figure`` (Agg backend, no
display needed) with a title, axis labels, a legend or colour bar and the sample sizes
behind it; :func:`save` writes it as PNG or SVG.

- :func:`heatmap`: P(make 2) and P(make 3) by trump length x highest trump
- :func:`by_players`: P(make k) against player count for a few trump holdings
- :func:`points`: the distribution of the pitcher's points, per player count
- :func:`bids`: a bidding chart (the bid to go up to) by key trumps x length, per player count

Each chart is drawn from its data, which :func:`chart_data` (or ``heatmap_data`` and so
on) returns on its own: one row per plotted cell with its value and printed label.  The
tests read the drawn figures back and check every cell against
:func:`pitchsim.study.analysis.make_table`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from matplotlib.colors import BoundaryNorm, ListedColormap  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.patches import Patch  # noqa: E402

from ..game.features import TOPS, format_key_trumps, key_trumps_possible, rank_label  # noqa: E402
from ..game.rules import Rules  # noqa: E402
from ..util.atomic import atomic_path  # noqa: E402
from ..util.errors import InputError  # noqa: E402
from .analysis import BIDS, Run, holding_rows, make_table, open_run  # noqa: E402,F401
from .chart_kinds import DEFAULT_HOLDINGS, DEFAULT_MIN_COUNT, KINDS  # noqa: E402,F401

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
    """A cell's probability: one decimal near 0 and 1 (where "0%" and "0.4%" differ
    a lot to a bidder), whole percents between; the same rule in every cell."""
    return f"{100 * p:.1f}%" if p < 0.1 or p > 0.9 else f"{100 * p:.0f}%"


def _range(lo: int, hi: int) -> str:
    return _k(lo) if _k(lo) == _k(hi) else f"{_k(lo)}-{_k(hi)}"


SELECTION_NOTE = (
    "Trump is the suit the pitcher's play policy chose to lead, so a {what} counts only the "
    "hands from which that suit was led: a short suit is led mostly from hands strong "
    "elsewhere\n(a lone J makes 3 more often than J-x for that reason). Read a cell as "
    '"when this is the suit you lead", not as "whenever you hold it".'
)


@dataclass
class ChartData:
    """What a chart shows, before any drawing: ``cells`` has one row per plotted cell,
    point or bar, with its ``value`` and the ``label`` printed on it (if any); ``meta``
    holds what the titles say (player count, deals, cells left out)."""

    kind: str
    cells: pd.DataFrame
    meta: dict = field(default_factory=dict)

    @property
    def blank_cells(self) -> int:
        """Cells left out (blank or grey) for having fewer than ``min_count`` deals."""
        return int(self.meta.get("blank_cells", 0))


# ---- the data under each chart ---------------------------------------------------------

RANK_ROWS = [rank_label(r) for r in range(12, -1, -1)]  # heatmap rows: A at the top


def heatmap_data(run, players: int | None = None, min_count: int = DEFAULT_MIN_COUNT) -> ChartData:
    """Cells of :func:`heatmap`: one row per (k, highest trump, length) shown, k = 2, 3."""
    run = open_run(run)
    n = _one_player_count(run, players)
    t = make_table(run, ["length", "high"], n, min_count=1)
    shown = t[t.deals >= min_count]
    rows = []
    for k in (2, 3):
        for r in shown.itertuples():
            p, lo, hi = getattr(r, f"p{k}"), getattr(r, f"p{k}_lo"), getattr(r, f"p{k}_hi")
            rows.append(
                {
                    "k": k,
                    "high": r.high,
                    "length": r.length,
                    "value": p,
                    "lo": lo,
                    "hi": hi,
                    "deals": r.deals,
                    "label": _pct(p),
                    "detail": f"±{100 * (hi - lo) / 2:.1f} n={_k(r.deals)}",
                }
            )
    meta = {
        "players": n,
        "deals": int(t.deals.sum()),
        "min_count": min_count,
        "blank_cells": int((t.deals < min_count).sum()),
        "blank_deals": int(t[t.deals < min_count].deals.sum()),
    }
    return ChartData("heatmap", pd.DataFrame(rows), meta)


def players_data(
    run, holdings: Sequence[str] = DEFAULT_HOLDINGS, min_count: int = DEFAULT_MIN_COUNT
) -> ChartData:
    """Points of :func:`by_players`: one row per (k, holding, player count) shown."""
    run = open_run(run)
    if not holdings:
        raise InputError("give at least one trump holding, e.g. --holdings A-J-2,A-x-x")
    table = pd.concat([make_table(run, ["holding"]), make_table(run, ["pattern"])])
    found = holding_rows(table, holdings)
    kept = found[found.deals >= min_count]
    if kept.empty:
        raise InputError(f"no holding has {min_count:,} deals at any player count in this run")
    rows = []
    for k in BIDS:
        for r in kept.itertuples():
            rows.append(
                {
                    "k": k,
                    "holding": r.label,
                    "players": r.players,
                    "value": getattr(r, f"p{k}"),
                    "lo": getattr(r, f"p{k}_lo"),
                    "hi": getattr(r, f"p{k}_hi"),
                    "deals": r.deals,
                }
            )
    meta = {"min_count": min_count, "blank_cells": len(found) - len(kept)}
    return ChartData("players", pd.DataFrame(rows), meta)


def points_data(run) -> ChartData:
    """Bars of :func:`points`: one row per (player count, points won 0-4)."""
    run = open_run(run)
    t = make_table(run, [])
    rows = []
    for r in t.itertuples():
        counts = np.array([getattr(r, f"pts{p}") for p in range(5)])
        mean = float((np.arange(5) * counts).sum() / r.deals)
        for p in range(5):
            share = counts[p] / r.deals
            rows.append(
                {
                    "players": r.players,
                    "points": p,
                    "value": share,
                    "se": float(np.sqrt(share * (1 - share) / r.deals)),
                    "deals": r.deals,
                    "mean": mean,
                }
            )
    return ChartData("points", pd.DataFrame(rows), {})


KEY_ROWS = [
    format_key_trumps(c)
    for c in sorted(
        (c for c in range(20) if key_trumps_possible(c)), key=lambda c: (c // 4, 3 - c % 4)
    )
]


def bids_data(run, min_count: int = DEFAULT_MIN_COUNT) -> ChartData:
    """Cells of :func:`bids`: one row per (player count, key trumps, length) shown, with
    the highest bid worth making (``value``, 0 = pass) and its label (``P``, ``3?``)."""
    run = open_run(run)
    t = make_table(run, ["keys", "length"], min_count=1)
    shown = t[t.deals >= min_count]
    rows = []
    for r in shown.itertuples():
        label = ("P" if r.bid == 0 else str(r.bid)) + ("" if r.bid_sure else "?")
        rows.append(
            {
                "players": r.players,
                "keys": r.keys,
                "length": r.length,
                "value": int(r.bid),
                "sure": bool(r.bid_sure),
                "label": label,
                "deals": r.deals,
            }
        )
    per = {
        n: {
            "deals": int(t[t.players == n].deals.sum()),
            "blank_cells": int(((t.players == n) & (t.deals < min_count)).sum()),
        }
        for n in run.players
    }
    meta = {
        "min_count": min_count,
        "per_players": per,
        "blank_cells": sum(v["blank_cells"] for v in per.values()),
    }
    return ChartData("bids", pd.DataFrame(rows), meta)


# ---- drawing ---------------------------------------------------------------------------


def _footnote(fig: Figure, text: str) -> None:
    # supxlabel, unlike fig.text, gets room from the constrained layout
    fig.supxlabel(text, fontsize=8.5, color="#333333")


def heatmap(
    run,
    players: int | None = None,
    min_count: int = DEFAULT_MIN_COUNT,
    data: ChartData | None = None,
) -> Figure:
    """P(make 2) and P(make 3) by trump length (columns) and highest trump (rows); a run
    under a rule family gives its own levels, rows and lengths in ``data.meta``."""
    run = open_run(run)
    data = data or heatmap_data(run, players, min_count)
    m = data.meta
    levels = m.get("levels", (2, 3))
    rows = m.get("rows", RANK_ROWS)
    lengths = m.get("lengths", LENGTHS)
    held = m.get("held", "held")
    fig, axes = plt.subplots(
        1, 2, figsize=(13, max(8.2, 0.5 * len(rows) + 2)), layout="constrained"
    )
    for ax, k in zip(axes, levels, strict=True):
        cells = data.cells[data.cells.k == k] if len(data.cells) else data.cells
        grid = np.full((len(rows), len(lengths)), np.nan)
        for c in cells.itertuples():
            grid[rows.index(c.high), c.length - 1] = c.value
        im = ax.imshow(grid, cmap="viridis", vmin=0, vmax=1, aspect="auto")
        ax.set_facecolor("#e6e6e6")
        for c in cells.itertuples():
            i, j = rows.index(c.high), c.length - 1
            colour = "black" if c.value > 0.6 else "white"
            ax.text(
                j,
                i - 0.1,
                c.label,
                ha="center",
                va="center",
                fontsize=9,
                color=colour,
                fontweight="bold",
            )
            ax.text(j, i + 0.28, c.detail, ha="center", va="center", fontsize=6, color=colour)
        ax.set_xticks(range(len(lengths)), [str(x) for x in lengths])
        ax.set_yticks(range(len(rows)), rows)
        ax.set_xlabel(f"trumps {held} (trump length)")
        ax.set_ylabel(f"highest trump {held}")
        ax.set_title(f"P(make {k}): the pitcher's side wins {k} or more points")
    fig.colorbar(
        im, ax=axes, shrink=0.8, label="probability (cell: estimate, ±95% half-width, deals)"
    )
    fig.suptitle(
        f"Making {levels[0]} and {levels[1]} by trump length and highest trump: "
        f"{m['players']} players\n"
        f"{m['deals']:,} deals ({m.get('describe') or _describe(run)}); grey: fewer than "
        f"{min_count:,} deals "
        f"({m['blank_deals']:,} deals in such cells)",
        fontsize=11,
    )
    _footnote(fig, SELECTION_NOTE.format(what="cell"))
    return fig


MARKERS = "osD^vP*Xh<>"


def by_players(
    run,
    holdings: Sequence[str] = DEFAULT_HOLDINGS,
    min_count: int = DEFAULT_MIN_COUNT,
    data: ChartData | None = None,
) -> Figure:
    """P(make k) against player count, one line per trump holding (``A-J-2``, ``A-x-x``)."""
    run = open_run(run)
    data = data or players_data(run, holdings, min_count)
    cells = data.cells
    levels = data.meta.get("levels", BIDS)
    shape = (2, 2) if len(levels) > 2 else (1, len(levels))
    fig, axes = plt.subplots(
        *shape,
        figsize=(12, 9 if shape[0] == 2 else 5.5),
        sharex=True,
        layout="constrained",
        squeeze=False,
    )
    colours = plt.get_cmap("tab10")
    labels = list(dict.fromkeys(cells.holding))
    # Lines at the same value (several holdings at 100% make 1) would hide each other:
    # each holding's points are nudged sideways by its own small step.
    step = min(0.06, 0.5 / max(1, len(labels)))
    for ax, k in zip(axes.flat, levels, strict=False):
        for i, label in enumerate(labels):
            r = cells[(cells.k == k) & (cells.holding == label)].sort_values("players")
            p = r.value.to_numpy()
            # Wilson bounds contain the estimate; clip rounding at p = 0 or 1.
            err = np.maximum(np.vstack([p - r.lo, r.hi - p]), 0)
            lo, hi = r.deals.min(), r.deals.max()
            x = r.players.to_numpy() + (i - (len(labels) - 1) / 2) * step
            ax.errorbar(
                x,
                p,
                yerr=err,
                marker=MARKERS[i % len(MARKERS)],
                ms=4.5,
                capsize=3,
                color=colours(i % 10),
                lw=1.4,
                label=f"{label} (n = {_range(lo, hi)} per point)",
            )
        ax.set_title(f"P(make {k})")
        ax.set_ylim(-0.02, 1.04)
        ax.set_ylabel(f"P(the pitcher's side wins ≥ {k})")
        ax.grid(alpha=0.3)
    for ax in list(axes.flat)[len(levels) :]:
        ax.axis("off")
    for ax in axes[-1]:
        ax.set_xlabel("players at the table")
        ax.set_xticks(sorted(cells.players.unique()))
    # The notes go in the legend's title: a figure-level footnote would collide with it.
    what = data.meta.get("legend", "trump holding (x = any card 3-9)")
    title = (
        f"{what}; each holding's points are nudged sideways so that equal values "
        "(100% make 1) stay visible\n\n" + SELECTION_NOTE.format(what="point")
    )
    fig.legend(
        *axes[0, 0].get_legend_handles_labels(),
        loc="outside lower center",
        ncols=4,
        fontsize=8,
        title=title,
        title_fontsize=8,
    )
    fig.suptitle(
        f"Make probabilities against player count, by trump holding\n"
        f"{data.meta.get('describe') or _describe(run)}; error bars: 95% Wilson intervals; "
        "points of fewer than "
        f"{min_count:,} deals left out",
        fontsize=11,
    )
    return fig


def points(run, data: ChartData | None = None) -> Figure:
    """Share of deals in which the pitcher's side wins 0, 1, 2, 3, 4 points."""
    run = open_run(run)
    cells = (data or points_data(run)).cells
    counts = sorted(cells.players.unique())
    fig, ax = plt.subplots(figsize=(10, 5.5), layout="constrained")
    width = 0.8 / len(counts)
    colours = plt.get_cmap("viridis")
    for i, n in enumerate(counts):
        r = cells[cells.players == n].sort_values("points")
        x = r.points.to_numpy() + (i - (len(counts) - 1) / 2) * width
        first = r.iloc[0]
        ax.bar(
            x,
            r.value,
            width,
            yerr=1.96 * r.se,
            capsize=2,
            color=colours(i / max(1, len(counts) - 1)),
            label=f"{n} players (n = {first.deals:,}, mean {first['mean']:.2f})",
        )
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


def bids(run, min_count: int = DEFAULT_MIN_COUNT, data: ChartData | None = None) -> Figure:
    """Per player count: the highest bid with a positive expected score, by key trumps
    (highest trump, jack, deuce) and trump length."""
    run = open_run(run)
    data = data or bids_data(run, min_count)
    cells, per = data.cells, data.meta["per_players"]
    counts = run.players
    cols = min(3, len(counts))
    nrows = -(-len(counts) // cols)
    width = max(11.0, 4.6 * cols + 0.4)  # room for the title and legend with one panel
    fig, axes = plt.subplots(
        nrows, cols, figsize=(width, 6.3 * nrows + 1.6), squeeze=False, layout="constrained"
    )
    cmap = ListedColormap(BID_COLOURS)
    norm = BoundaryNorm(np.arange(-0.5, 5.5), cmap.N)
    unsure = 0
    for ax, n in zip(axes.flat, counts, strict=False):
        sub = cells[cells.players == n] if len(cells) else cells
        grid = np.full((len(KEY_ROWS), len(LENGTHS)), np.nan)
        ax.set_facecolor("white")
        for c in sub.itertuples():
            grid[KEY_ROWS.index(c.keys), c.length - 1] = c.value
        ax.imshow(grid, cmap=cmap, norm=norm, aspect="auto")
        for c in sub.itertuples():
            unsure += not c.sure
            ax.text(
                c.length - 1,
                KEY_ROWS.index(c.keys),
                c.label,
                ha="center",
                va="center",
                fontsize=9,
                fontweight="bold" if c.sure else "normal",
            )
        ax.set_xticks(range(len(LENGTHS)), [str(x) for x in LENGTHS])
        ax.set_yticks(range(len(KEY_ROWS)), KEY_ROWS)
        ax.set_xlabel("trumps held")
        ax.set_ylabel("key trumps held (top trump, J, 2)")
        blank = per[n]["blank_cells"]
        note = f"; {blank} blank" if blank else ""
        ax.set_title(f"{n} players ({per[n]['deals']:,} deals{note})", fontsize=10)
    for ax in list(axes.flat)[len(counts) :]:
        ax.axis("off")
    handles = [
        Patch(color=c, label=lab)
        for c, lab in zip(BID_COLOURS, ["pass", "bid 1", "bid 2", "bid 3", "bid 4"], strict=True)
    ]
    handles.append(
        Patch(
            facecolor="white",
            edgecolor="#999999",
            label=f"blank: fewer than {min_count:,} deals (--min-count)",
        )
    )
    note = (
        "Each cell: the highest bid with a positive expected score (P = pass). Bidding more "
        "than needed never scores more.\n"
        f"'?': an expected score it depends on is within 1.96 s.e. of zero ({unsure} cells). "
        f"Rows: the highest trump ({', '.join(TOPS)}), then J and 2 when held.\n\n"
        + SELECTION_NOTE.format(what="cell")
    )
    if cols == 1:
        note = note.replace(". B", ".\nB").replace(". R", ".\nR")
    fig.legend(
        handles=handles,
        loc="outside lower center",
        ncols=3 if cols == 1 else 6,
        fontsize=9,
        title=note,
        title_fontsize=8.5,
    )
    fig.suptitle(
        f"Bidding chart: how high a pitcher can bid and still expect to gain\n{_describe(run)}",
        fontsize=11,
    )
    return fig


def chart_data(
    run,
    kind: str,
    players: int | None = None,
    holdings: Sequence[str] | None = None,
    min_count: int = DEFAULT_MIN_COUNT,
) -> ChartData:
    """The data the chart ``kind`` plots (see :class:`ChartData`): the same arguments
    as :func:`chart`.

    >>> import tempfile
    >>> from pitchsim import simulate
    >>> run = simulate(tempfile.mkdtemp() + "/run", 20_000, players=[4], seed=1).path
    >>> data = chart_data(run, "heatmap", min_count=500)
    >>> c = data.cells.iloc[0]
    >>> int(c.k), c.high, int(c.length), c.label, c.detail
    (2, 'A', 1, '63%', '±2.7 n=1,187')
    """
    _check_kind(kind, min_count)
    if kind == "heatmap":
        return heatmap_data(run, players, min_count)
    if kind == "players":
        return players_data(run, holdings or DEFAULT_HOLDINGS, min_count)
    if kind == "points":
        return points_data(run)
    return bids_data(run, min_count)


def _check_kind(kind: str, min_count: int) -> None:
    if kind not in KINDS:
        raise InputError(f"unknown chart kind {kind!r} (known: {', '.join(KINDS)})")
    if min_count < 1:
        raise InputError(f"min-count must be at least 1, not {min_count}")


def chart(
    run,
    kind: str,
    players: int | None = None,
    holdings: Sequence[str] | None = None,
    min_count: int = DEFAULT_MIN_COUNT,
    data: ChartData | None = None,
) -> Figure:
    """The chart ``kind`` (one of :data:`KINDS`) of ``run``, as a matplotlib Figure.

    Parameters
    ----------
    run : str, Path or Run
        A run directory written by ``pitchsim simulate`` (or :func:`pitchsim.simulate`).
    kind : str
        ``heatmap``, ``players``, ``points`` or ``bids`` (see :data:`KINDS`).
    players : int, optional
        heatmap: the player count (default 4, or the run's only one).
    holdings : list of str, optional
        players: trump holdings such as ``A-J-2`` or ``K-x-x`` (x = any card 3-9).
    min_count : int
        Cells with fewer deals are left out (blank or grey).
    data : ChartData, optional
        What :func:`chart_data` returned for the same arguments (saves computing it twice).

    Examples
    --------
    >>> import tempfile
    >>> from pitchsim import simulate
    >>> run = simulate(tempfile.mkdtemp() + "/run", 20_000, players=[5], seed=1).path
    >>> fig = chart(run, "heatmap", players=5, min_count=500)
    >>> fig.axes[0].get_title()
    "P(make 2): the pitcher's side wins 2 or more points"
    >>> save(fig, tempfile.mkdtemp() + "/heat5.png").suffix
    '.png'
    """
    _check_kind(kind, min_count)
    run = open_run(run)
    data = data or chart_data(run, kind, players, holdings, min_count)
    if kind == "heatmap":
        return heatmap(run, players, min_count, data=data)
    if kind == "players":
        return by_players(run, holdings or DEFAULT_HOLDINGS, min_count, data=data)
    if kind == "points":
        return points(run, data=data)
    return bids(run, min_count, data=data)


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
            fig.savefig(
                tmp, format=suffix[1:], dpi=130 if suffix == ".png" else None, metadata=metadata
            )
    finally:
        plt.close(fig)
    return path
