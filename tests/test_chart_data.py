"""Charts are checked by what they draw: every cell's colour, printed value and label
are read back from the figure's artists and compared with ``analysis.make_table``'s
numbers for that cell (computed here, not by the chart code)."""

import re

import matplotlib.pyplot as plt
import numpy as np
import pytest

from pitchsim.study import charts
from pitchsim.study.analysis import make_table
from pitchsim.study.batch import simulate


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    path = tmp_path_factory.mktemp("chartdata") / "run"
    simulate(path, 30_000, [3, 5], seed=12)
    return path


def percent(p: float) -> str:
    """The documented cell label: one decimal below 10% and above 90%, else whole."""
    return f"{100 * p:.1f}%" if p < 0.1 or p > 0.9 else f"{100 * p:.0f}%"


def tick_labels(ax, axis):
    ticks = ax.get_yticklabels() if axis == "y" else ax.get_xticklabels()
    return {int(round(t.get_position()[1 if axis == "y" else 0])): t.get_text() for t in ticks}


def cell_texts(ax):
    """(row, col) -> the bold (main) label and the small detail label of each cell."""
    out = {}
    for t in ax.texts:
        x, y = t.get_position()
        key = (int(round(y)), int(round(x)))
        kind = "main" if t.get_fontweight() == "bold" or t.get_fontsize() >= 9 else "detail"
        out.setdefault(key, {})[kind] = t.get_text()
    return out


@pytest.mark.parametrize("levels", [None, (4, 1)])  # default: make 2 and make 3
def test_heatmap_cells_are_make_table_cells(run, levels):
    min_count = 300
    fig = charts.chart(run, "heatmap", players=5, min_count=min_count, levels=levels)
    table = make_table(run, ["length", "high"], 5)
    table = table[table.deals >= min_count].set_index(["high", "length"])
    panels = [ax for ax in fig.axes if ax.images]
    titles = [int(re.match(r"P\(make (\d)\)", ax.get_title()).group(1)) for ax in panels]
    assert titles == sorted(levels or (2, 3))
    for ax in panels:
        k = int(re.match(r"P\(make (\d)\)", ax.get_title()).group(1))
        rows, cols = tick_labels(ax, "y"), tick_labels(ax, "x")
        grid = ax.images[0].get_array()
        texts = cell_texts(ax)
        painted = 0
        for i in range(grid.shape[0]):
            for j in range(grid.shape[1]):
                key = (rows[i], cols[j])  # a run's labels are text
                if key not in table.index:
                    assert np.ma.is_masked(grid[i, j]) or np.isnan(grid[i, j])
                    assert (i, j) not in texts
                    continue
                r = table.loc[key]
                p = r[f"p{k}"]
                assert grid[i, j] == pytest.approx(p, abs=1e-12), (k, key)
                assert texts[(i, j)]["main"] == percent(p), (k, key)
                half = 100 * (r[f"p{k}_hi"] - r[f"p{k}_lo"]) / 2
                assert texts[(i, j)]["detail"].startswith(f"±{half:.1f} n="), (k, key)
                painted += 1
        assert painted == len(table)
    plt.close(fig)


def test_players_points_are_make_table_rows(run):
    holdings = ["A-J", "K", "J-2", "A"]  # key trumps dealt: exactly these of A K J 2
    min_count = 200
    fig = charts.by_players(run, holdings, min_count=min_count)
    t = make_table(run, ["holding"])
    rows = t[t.holding.isin([h.replace("-", " ") for h in holdings])]
    rows = rows.assign(label=rows.holding.str.replace(" ", "-"))
    rows = rows[rows.deals >= min_count]
    legend = [t.get_text().split(" (")[0] for t in fig.legends[0].get_texts()]
    for ax in fig.axes:
        k = int(re.match(r"P\(make (\d)\)", ax.get_title()).group(1))
        lines = [line for line in ax.lines if len(line.get_xdata()) and line.get_marker() != "None"]
        lines = [line for line in lines if line.get_linestyle() != "None"]
        assert len(lines) == len(legend)
        for label, line in zip(legend, lines, strict=True):
            want = rows[rows.label == label].sort_values("players")
            x = np.asarray(line.get_xdata(), dtype=float)
            assert np.array_equal(np.round(x), want.players.to_numpy())
            assert np.all(np.abs(x - np.round(x)) < 0.2)  # nudged, but by little
            assert np.allclose(line.get_ydata(), want[f"p{k}"].to_numpy(), atol=1e-12), (k, label)
    plt.close(fig)


def test_points_bars_are_point_shares(run):
    fig = charts.points(run)
    ax = fig.axes[0]
    t = make_table(run, [])
    bars = [p for p in ax.patches]
    assert len(bars) == 5 * len(t)
    for i, r in enumerate(t.itertuples()):
        heights = [b.get_height() for b in bars[5 * i : 5 * i + 5]]
        want = [getattr(r, f"pts{p}") / r.deals for p in range(5)]
        assert np.allclose(heights, want, atol=1e-12)
    plt.close(fig)


def test_bids_cells_are_make_table_bids(run):
    min_count = 250
    fig = charts.bids(run, min_count=min_count)
    table = make_table(run, ["holding", "length"])
    panels = [ax for ax in fig.axes if ax.images]
    assert len(panels) == 2
    for ax in panels:
        n = int(ax.get_title().split()[0])
        sub = table[(table.players == n) & (table.deals >= min_count)]
        sub = sub.set_index(["holding", "length"])
        rows, cols = tick_labels(ax, "y"), tick_labels(ax, "x")
        grid = ax.images[0].get_array()
        texts = {
            (int(round(t.get_position()[1])), int(round(t.get_position()[0]))): t.get_text()
            for t in ax.texts
        }
        for i in range(grid.shape[0]):
            for j in range(grid.shape[1]):
                key = (rows[i], cols[j])
                if key not in sub.index:
                    assert (i, j) not in texts
                    continue
                r = sub.loc[key]
                assert grid[i, j] == r.bid
                want = ("P" if r.bid == 0 else str(r.bid)) + ("" if r.bid_sure else "?")
                assert texts[(i, j)] == want, (n, key)
        blank = int(((table.players == n) & (table.deals < min_count)).sum())
        assert (f"; {blank} blank" in ax.get_title()) == (blank > 0)
    plt.close(fig)


def test_chart_data_matches_what_is_drawn(run):
    data = charts.chart_data(run, "heatmap", players=3, min_count=300)
    t = make_table(run, ["length", "high"], 3)
    assert data.blank_cells == int((t.deals < 300).sum())
    for c in data.cells.itertuples():
        row = t[(t.high == c.high) & (t.length == str(c.length))].iloc[0]
        assert c.value == row[f"p{c.k}"] and c.label == percent(c.value)


def test_labels_never_mix_zero_styles():
    assert [percent(p) for p in (0.0, 0.0004, 0.05, 0.5, 0.996, 1.0)] == [
        "0.0%",
        "0.0%",
        "5.0%",
        "50%",
        "99.6%",
        "100.0%",
    ]
    assert charts._pct(0.0) == "0.0%" and charts._pct(1.0) == "100.0%"
