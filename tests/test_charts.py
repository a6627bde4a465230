"""Charts: every kind draws with a title, axis labels, a legend or colour bar and its
sample sizes, and saves as PNG and SVG."""

import matplotlib.pyplot as plt
import pytest

from pitchsim.study import charts
from pitchsim.study.batch import simulate
from pitchsim.util.errors import InputError


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    path = tmp_path_factory.mktemp("charts") / "run"
    simulate(path, 20_000, [3, 4], seed=31)
    return path


def texts(fig):
    out = [fig._suptitle.get_text() if fig._suptitle else ""]
    for ax in fig.axes:
        out += [ax.get_title(), ax.get_xlabel(), ax.get_ylabel()]
        out += [t.get_text() for t in ax.texts]
        if ax.get_legend():
            out += [t.get_text() for t in ax.get_legend().get_texts()]
    for legend in fig.legends:
        out += [t.get_text() for t in legend.get_texts()]
    return " ".join(out)


@pytest.mark.parametrize("kind", list(charts.KINDS))
def test_every_chart_is_labelled_and_saves(run, tmp_path, kind):
    fig = charts.chart(run, kind, min_count=50)
    words = texts(fig)
    assert fig._suptitle is not None or fig.axes[0].get_title()
    colour_bars = [ax for ax in fig.axes if ax.get_label() == "<colorbar>"]
    plotted = [ax for ax in fig.axes if ax.has_data() and ax not in colour_bars]
    assert plotted and all(ax.get_ylabel() for ax in plotted)
    assert any(ax.get_xlabel() for ax in plotted)  # panels sharing x label the bottom row
    assert fig.legends or any(ax.get_legend() for ax in fig.axes) or colour_bars
    assert "deals" in words or "n = " in words
    assert "seed 31" in words
    for suffix in (".png", ".svg"):
        path = charts.save(
            fig if suffix == ".png" else charts.chart(run, kind, min_count=50),
            tmp_path / f"{kind}{suffix}",
        )
        head = path.read_bytes()[:8]
        assert head.startswith(b"\x89PNG") if suffix == ".png" else b"<?xml" in head
    plt.close("all")


def test_heatmap_shows_cell_sizes_and_drops_small_cells(run):
    fig = charts.heatmap(run, players=3, min_count=800)
    words = texts(fig)
    assert "3 players" in words and "fewer than 800 deals" in words and "n=" in words
    plt.close(fig)


def test_bad_requests(run, tmp_path):
    with pytest.raises(InputError, match="unknown chart kind"):
        charts.chart(run, "pie")
    with pytest.raises(InputError, match="pick one with --players"):
        charts.chart(_three_and_five(tmp_path), "heatmap")
    with pytest.raises(InputError, match=".png or .svg"):
        charts.save(plt.figure(), tmp_path / "chart.gif")
    with pytest.raises(InputError, match="name key trumps once each from A K J"):
        charts.by_players(run, ["A-Z"])


def _three_and_five(tmp_path):
    path = tmp_path / "r35"
    simulate(path, 200, [3, 5], seed=1)
    return path
