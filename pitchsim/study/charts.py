"""Strategy charts from a run of any preset: what a Pitch player looks up before bidding.

Every chart is a function of a run that returns a matplotlib ``Figure`` (Agg backend, no
display needed) with a title, axis labels, a legend or colour bar and the sample sizes
behind it; :func:`save` writes it as PNG or SVG.

- :func:`heatmap`: P(make k) for two levels k by trump length x highest trump (the
  preset's trump order: the jick and the jokers have their rows)
- :func:`by_players`: P(make k) against player count for a few trump holdings
- :func:`points`: the distribution of the pitcher's side's points, per player count
- :func:`bids`: a bidding chart (the bid to go up to) by key trumps x length, per player count

A base-game run's columns name holdings such as ``A-x-x`` and its key trumps (top
trump, J, 2); a preset run's, its key trumps dealt (``A-J-Jk-2``).  The ``*_data``
functions read the run's layout; the drawing is one for every preset.

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

from ..game.rules import label as rules_label  # noqa: E402
from ..util.atomic import atomic_path  # noqa: E402
from ..util.errors import InputError  # noqa: E402
from ..util.stats import Z95  # noqa: E402
from .analysis import (  # noqa: E402
    HIGH_LABELS,
    Run,
    describe_run,
    holdings,
    make_by_holding,
    make_table,
    open_run,
)
from .chart_kinds import DEFAULT_MIN_COUNT, DEFAULT_SHOWN, KINDS  # noqa: E402,F401
from .manifest import KEY_NAMES  # noqa: E402

plt.rcParams.update({"svg.hashsalt": "pitchsim", "figure.dpi": 100})


TOP_HOLDINGS = 24  # rows of a preset run's bids chart: the most frequent holdings


def chart_levels(
    run: Run, levels: Sequence[int] | None, default: int, lowest: int = 1
) -> list[int]:
    """The levels k a chart shows: ``levels`` checked against the preset's points, else
    its ``default`` lowest legal bids of at least ``lowest``."""
    r = run.rules
    if levels is None:
        first = max(r.min_bid, lowest)
        return list(range(first, min(r.max_bid, first + default - 1) + 1))
    bad = [k for k in levels if not 1 <= k <= r.max_bid]
    if bad or not levels or len(set(levels)) != len(levels):
        raise InputError(
            f"--levels {','.join(map(str, levels))}: give distinct levels from 1 to "
            f"{r.max_bid}, the points of {rules_label(r).split(',')[0]}"
        )
    return sorted(levels)


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


def heatmap_data(
    run,
    players: int | None = None,
    min_count: int = DEFAULT_MIN_COUNT,
    levels: Sequence[int] | None = None,
) -> ChartData:
    """Cells of :func:`heatmap`: one row per (k, highest trump, length) shown, for two
    levels k (unless ``levels``, the two lowest bids of at least 2: P(make 1) is near
    certain for the hands a pitcher leads trump from)."""
    run = open_run(run)
    n = _one_player_count(run, players)
    ks = chart_levels(run, levels, 2, lowest=2)
    if len(ks) != 2:
        raise InputError("--levels: the heatmap shows two levels, e.g. --levels 2,3")
    t = make_table(run, ["length", "high"], [n], min_count=1)
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
    # the preset's trumps that occur, the lengths up to the longest
    present = set(t.high)
    high_rows = [h for h in HIGH_LABELS if h in present]
    lengths = list(range(1, max([int(x) for x in t.length.unique()] or [1]) + 1))
    meta = {
        "players": n,
        "deals": int(t.deals.sum()),
        "min_count": min_count,
        "blank_cells": int((t.deals < min_count).sum()),
        "blank_deals": int(t[t.deals < min_count].deals.sum()),
        "levels": ks,
        "rows": high_rows,
        "lengths": lengths,
        "describe": describe_run(run),
        "held": "dealt",
    }
    return ChartData("heatmap", pd.DataFrame(rows), meta)


def parse_key_holding(text: str) -> str:
    """``A-J-2`` or ``A J 2`` -> a preset run's holding label ``A J 2`` (key trumps in the
    order of :data:`KEY_NAMES`); ``none`` for a hand with none of them."""
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


def _holding_rows(run: Run, holdings: Sequence[str] | None) -> tuple[pd.DataFrame, dict]:
    """The table rows of the holdings named (a ``label`` column names each as asked),
    from the run's key trumps dealt (the most frequent when none are named); and the
    words the chart uses for them."""
    t = make_table(run, ["holding"], min_count=1)
    if holdings is None:
        freq = t.groupby("holding", sort=False).deals.sum().sort_values(ascending=False)
        wanted = list(freq.index[:DEFAULT_SHOWN])
    else:
        if not holdings:
            raise InputError("give at least one key-trump holding, e.g. --holdings A-J-2,K")
        wanted = [parse_key_holding(h) for h in holdings]
    found = t[t.holding.isin(wanted)].copy()
    found["label"] = found.holding.str.replace(" ", "-")
    words = {
        "none": "no holding named has",
        "legend": "key trumps dealt to the pitcher (exactly these of "
        + " ".join(KEY_NAMES)
        + "; other trumps any)",
    }
    return found, words


def players_data(
    run,
    holdings: Sequence[str] | None = None,
    min_count: int = DEFAULT_MIN_COUNT,
    levels: Sequence[int] | None = None,
) -> ChartData:
    """Points of :func:`by_players`: one row per (k, holding, player count) shown, for up
    to four levels k (the preset's lowest bids unless ``levels``)."""
    run = open_run(run)
    ks = chart_levels(run, levels, 4)
    if len(ks) > 4:
        raise InputError("--levels: the players chart shows at most four levels")
    found, words = _holding_rows(run, holdings)
    kept = found[found.deals >= min_count]
    if kept.empty:
        raise InputError(f"{words['none']} {min_count:,} deals at any player count")
    rows = []
    for k in ks:
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
    meta = {
        "min_count": min_count,
        "blank_cells": len(found) - len(kept),
        "levels": ks,
        "describe": describe_run(run),
        "legend": words["legend"],
    }
    return ChartData("players", pd.DataFrame(rows), meta)


def points_data(run) -> ChartData:
    """Bars of :func:`points`: one row per (player count, points won 0 .. the preset's
    total)."""
    run = open_run(run)
    top = run.rules.max_bid
    t = make_table(run, [])
    rows = []
    for r in t.itertuples():
        counts = np.array([getattr(r, f"pts{p}") for p in range(top + 1)])
        mean = float((np.arange(top + 1) * counts).sum() / r.deals)
        for p in range(top + 1):
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
    meta = {
        "max": top,
        "describe": describe_run(run),
        "points": f"0-{top}",
        "side": "the pitcher's side",
        "width": max(8.0, 0.75 * top + 3.75),
    }
    return ChartData("points", pd.DataFrame(rows), meta)


def bids_data(run, min_count: int = DEFAULT_MIN_COUNT) -> ChartData:
    """Cells of :func:`bids`: one row per (player count, key trumps, length) shown, with
    the highest bid worth making (``value``, 0 = pass), its label (``P``, ``3?``) and the
    panel's ``row``.  The rows are the most frequent key-trump holdings of each player
    count, the strongest (most points on average) first."""
    run = open_run(run)
    keys = "holding"
    t = make_table(run, [keys, "length"], min_count=1)
    rows, per = [], {}
    for n in run.players:
        sub = t[t.players == n]
        freq = sub.groupby(keys, sort=False).deals.sum().sort_values(ascending=False, kind="stable")
        pts = sub[[c for c in sub.columns if c.startswith("pts")]].to_numpy()
        points = pts @ np.arange(pts.shape[1])
        mean = pd.Series(points, index=sub.index).groupby(sub[keys]).sum() / freq
        top = list(freq.index[:TOP_HOLDINGS])
        shown = sub[sub[keys].isin(top) & (sub.deals >= min_count)]
        # rows with a cell shown, the strongest (most points on average) at the top
        order = sorted(set(shown[keys]), key=lambda h: (-mean[h], h))
        blank = int((sub[keys].isin(top) & (sub.deals < min_count)).sum())
        left_out = int(sub.deals.sum() - freq[top].sum())
        for c in shown.itertuples():
            rows.append(
                {
                    "players": n,
                    keys: getattr(c, keys),
                    "row": order.index(getattr(c, keys)),
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
            "blank_cells": blank,
            "left_out": left_out,
        }
    meta = {
        "min_count": min_count,
        "per_players": per,
        "blank_cells": sum(v["blank_cells"] for v in per.values()),
        "levels": [0, *run.bids],
        "describe": describe_run(run),
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
    """P(make k) for two levels k by trump length (columns) and highest trump (rows)."""
    run = open_run(run)
    data = data or heatmap_data(run, players, min_count)
    m = data.meta
    levels, rows, lengths, held = m["levels"], m["rows"], m["lengths"], m["held"]
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
        f"{m['deals']:,} deals ({m['describe']}); grey: fewer than "
        f"{min_count:,} deals "
        f"({m['blank_deals']:,} deals in such cells)",
        fontsize=11,
    )
    _footnote(fig, SELECTION_NOTE.format(what="cell"))
    return fig


MARKERS = "osD^vP*Xh<>"


def by_players(
    run,
    holdings: Sequence[str] | None = None,
    min_count: int = DEFAULT_MIN_COUNT,
    data: ChartData | None = None,
) -> Figure:
    """P(make k) against player count, one line per trump holding (``A-J-2``, ``A-x-x``;
    in a preset run, key trumps dealt such as ``A-Jk-2``)."""
    run = open_run(run)
    data = data or players_data(run, holdings, min_count)
    cells = data.cells
    levels = data.meta["levels"]
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
    what = data.meta["legend"]
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
        f"{data.meta['describe']}; error bars: 95% Wilson intervals; "
        "points of fewer than "
        f"{min_count:,} deals left out",
        fontsize=11,
    )
    return fig


def points(run, data: ChartData | None = None) -> Figure:
    """Share of deals in which the pitcher's side wins 0, 1, ... the preset's total points."""
    run = open_run(run)
    data = data or points_data(run)
    cells, m = data.cells, data.meta
    top = m["max"]
    counts = sorted(cells.players.unique())
    fig, ax = plt.subplots(figsize=(m["width"], 5.5), layout="constrained")
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
            label=f"{n} players (n = {int(first.deals):,}, mean {first['mean']:.2f})",
        )
    ax.set_xticks(range(top + 1), [str(p) for p in range(top + 1)])
    ax.set_xlabel(f"points won by the pitcher's side ({m['points']})")
    ax.set_ylabel("share of deals")
    ax.grid(axis="y", alpha=0.3)
    ax.legend(title="table (deals, mean points)", fontsize=9)
    ax.set_title(
        f"Points won by {m['side']}: a random hand, trump as the policy picks it\n"
        f"{m['describe']}; error bars: 95% intervals",
        fontsize=11,
    )
    return fig


def _bids_look(data: ChartData, counts: list[int]) -> dict:
    """How :func:`bids` lays out its panels: the rows of each player count, its lengths
    and a colour per legal bid."""
    m, cells = data.meta, data.cells
    levels = m["levels"]
    cols = min(3, len(counts))
    nrows = -(-len(counts) // cols)
    lengths = sorted(cells.length.unique()) if len(cells) else [1]
    lengths = list(range(min(lengths), max(lengths) + 1))
    height = max(1, *(len(v["rows"]) for v in m["per_players"].values())) * 0.32 + 3.5
    colours = plt.get_cmap("YlOrRd", len(levels) + 1)(np.arange(1, len(levels) + 1))
    colours[0] = (0.74, 0.74, 0.74, 1.0)  # pass: grey
    return {
        "lengths": lengths,
        "colours": colours,
        "size": (max(9.0, cols * (0.55 * len(lengths) + 3.2)), nrows * height + 1.8),
        "font": 8,
        "xlabel": "trumps dealt to the pitcher",
        "ylabel": "key trumps dealt (strongest on average first)",
        "title": "{n} players ({deals:,} deals; {left_out} in rarer holdings not shown{blank})",
        "blank": f"blank: < {m['min_count']:,} deals",
        "ncols": min(6, len(levels) + 1),
        "note": "Each cell: the highest legal bid with a positive expected score (P = pass); "
        "'?': an expected score it depends on is within 1.96 s.e. of zero.",
    }


def bids(run, min_count: int = DEFAULT_MIN_COUNT, data: ChartData | None = None) -> Figure:
    """Per player count: the highest bid with a positive expected score, by key trumps
    dealt and trump length."""
    run = open_run(run)
    data = data or bids_data(run, min_count)
    cells, per, levels = data.cells, data.meta["per_players"], data.meta["levels"]
    counts = run.players
    look = _bids_look(data, counts)
    lengths = look["lengths"]
    cols = min(3, len(counts))
    nrows = -(-len(counts) // cols)
    fig, axes = plt.subplots(nrows, cols, figsize=look["size"], squeeze=False, layout="constrained")
    cmap = ListedColormap(look["colours"])
    norm = BoundaryNorm(np.arange(len(levels) + 1) - 0.5, cmap.N)
    unsure = 0
    for ax, n in zip(axes.flat, counts, strict=False):
        order = per[n]["rows"]
        grid = np.full((len(order), len(lengths)), np.nan)
        sub = cells[cells.players == n] if len(cells) else cells
        ax.set_facecolor("white")
        for c in sub.itertuples():
            grid[c.row, lengths.index(c.length)] = levels.index(c.value)
        ax.imshow(grid, cmap=cmap, norm=norm, aspect="auto")
        for c in sub.itertuples():
            unsure += not c.sure
            ax.text(
                lengths.index(c.length),
                c.row,
                c.label,
                ha="center",
                va="center",
                fontsize=look["font"],
                fontweight="bold" if c.sure else "normal",
            )
        ax.set_xticks(range(len(lengths)), [str(x) for x in lengths])
        ax.set_yticks(range(len(order)), order)
        ax.set_xlabel(look["xlabel"])
        ax.set_ylabel(look["ylabel"])
        blank = per[n]["blank_cells"]
        ax.set_title(
            look["title"].format(
                n=n,
                deals=per[n]["deals"],
                left_out=_k(per[n]["left_out"]),
                blank=f"; {blank} blank" if blank else "",
            ),
            fontsize=10 if look["font"] == 9 else 9,
        )
    for ax in list(axes.flat)[len(counts) :]:
        ax.axis("off")
    handles = [
        Patch(color=look["colours"][i], label="pass" if v == 0 else f"bid {v}")
        for i, v in enumerate(levels)
    ]
    handles.append(Patch(facecolor="white", edgecolor="#999999", label=look["blank"]))
    fig.legend(
        handles=handles,
        loc="outside lower center",
        ncols=look["ncols"],
        fontsize=look["font"],
        title=look["note"].format(unsure=unsure),
        title_fontsize=8.5,
    )
    fig.suptitle(
        f"Bidding chart: how high a pitcher can bid and still expect to gain\n"
        f"{data.meta['describe']}",
        fontsize=11,
    )
    return fig


def chart_data(
    run,
    kind: str,
    players: int | None = None,
    holdings: Sequence[str] | None = None,
    min_count: int = DEFAULT_MIN_COUNT,
    levels: Sequence[int] | None = None,
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
        return heatmap_data(run, players, min_count, levels)
    if kind == "players":
        return players_data(run, holdings or None, min_count, levels)
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
    levels: Sequence[int] | None = None,
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
    levels : list of int, optional
        heatmap (two) and players (up to four): the levels k of P(make k) (default the
        base game's 2, 3 and 1-4; a preset's lowest bids).
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
    data = data or chart_data(run, kind, players, holdings, min_count, levels)
    if kind == "heatmap":
        return heatmap(run, players, min_count, data=data)
    if kind == "players":
        return by_players(run, holdings or None, min_count, data=data)
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


def sample_bids(s: dict, min_count: int = 500, top: int = 20):
    """The report's bidding chart of hands played by ``exact.sample_hands``: the bid to
    go up to by key holding (rows, the ``top`` most frequent) and trump
    length (columns): the highest legal bid whose expected score is positive, ``P`` to
    pass (rows by average points, strongest first), grey where fewer than ``min_count`` deals; a ``?`` where that bid's expected
    score or the next one's is within 1.96 standard errors of zero."""
    r, n = s["rules"], s["players"]
    table = make_by_holding(s, ("holding", "length"), min_count=1)
    h = holdings(s)
    freq = h.holding.value_counts()
    strength = h.groupby("holding").points.mean()
    # the most frequent holdings, the strongest (most points on average) at the top
    rows = sorted(freq.index[:top], key=lambda x: -strength[x])
    shown = table[table.holding.isin(rows) & (table.deals >= min_count)]
    rows = [x for x in rows if x in set(shown.holding)]  # rows and columns with a cell shown
    lengths = sorted(int(x) for x in shown.length.unique())
    grid = np.full((len(rows), len(lengths)), np.nan)
    text = [["" for _ in lengths] for _ in rows]
    for t in table.itertuples():
        if t.holding not in rows or t.deals < min_count:
            continue
        i, j = rows.index(t.holding), lengths.index(int(t.length))
        grid[i, j] = t.bid
        doubt = any(
            abs(getattr(t, f"score{k}")) < Z95 * getattr(t, f"score{k}_se")
            for k in (t.bid, t.bid + 1)
            if r.min_bid <= k <= r.max_bid
        )
        text[i][j] = ("P" if t.bid == 0 else str(t.bid)) + ("?" if doubt else "")
    levels = list(range(0, r.max_bid + 1))
    cmap = ListedColormap(plt.get_cmap("viridis", len(levels))(np.arange(len(levels))))
    cmap.set_bad("#dddddd")
    fig, ax = plt.subplots(figsize=(1.0 + 0.62 * len(lengths) + 2.2, 0.9 + 0.36 * len(rows)))
    ax.imshow(np.ma.masked_invalid(grid), cmap=cmap, vmin=-0.5, vmax=r.max_bid + 0.5, aspect="auto")
    for i in range(len(rows)):
        for j in range(len(lengths)):
            if text[i][j]:
                v = grid[i, j]
                colour = "white" if v < 0.55 * r.max_bid else "black"
                ax.text(j, i, text[i][j], ha="center", va="center", fontsize=9, color=colour)
    ax.set_xticks(range(len(lengths)), [str(x) for x in lengths])
    ax.set_yticks(range(len(rows)), rows)
    ax.set_xlabel("trumps dealt to the pitcher")
    ax.set_ylabel("key trumps dealt")
    table_kind = "partnership" if r.partnership else "solo"
    ax.set_title(
        f"{rules_label(r)}, {n} players {table_kind}: bid up to (P = pass)\n"
        f"{s['deals']:,} deals, heuristic play; grey: < {min_count:,} deals; ?: close call",
        fontsize=9,
    )
    fig.tight_layout()
    return fig
