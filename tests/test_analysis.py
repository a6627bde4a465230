"""Aggregations: the counts equal a brute-force pandas groupby, exact values come out
within their intervals, and bad runs are clear errors."""

import json

import numpy as np
import pandas as pd
import pytest

from pitchsim.advice.odds import TrumpOdds
from pitchsim.game.features import format_holding, format_pattern, pattern_code
from pitchsim.study import analysis
from pitchsim.study.analysis import Run, holding_rows, make_table, points_counts
from pitchsim.study.batch import simulate
from pitchsim.study.exact import exact_checks
from pitchsim.study.manifest import MANIFEST, RunError
from pitchsim.util.errors import InputError


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    path = tmp_path_factory.mktemp("analysis") / "run"
    simulate(path, 40_000, [3, 6], seed=21, part_size=15_000)
    return path


@pytest.fixture(scope="module")
def frame(run):
    df = pd.concat([pd.read_parquet(f) for f in sorted(run.glob("part-*.parquet"))])
    df = df.astype({"players": np.int64, "hand": np.int64, "trump": np.int64})
    # the trump suit's ranks the pitcher was dealt, recounted here from his cards
    ranks = (df.hand.to_numpy() >> (13 * df.trump.to_numpy())) & 0x1FFF
    return df.assign(trump_ranks=ranks)


def brute(frame, key):
    g = frame.groupby(["players", key]).points
    return pd.DataFrame(
        {"deals": g.size(), **{f"pts{p}": g.apply(lambda s, p=p: (s == p).sum()) for p in range(5)}}
    )


@pytest.mark.parametrize("dense_bins", [analysis.DENSE_BINS, 1])
def test_counts_equal_a_pandas_groupby(run, frame, monkeypatch, dense_bins):
    monkeypatch.setattr(analysis, "DENSE_BINS", dense_bins)  # 1: the sparse path
    t = points_counts(run, ["ranks"])
    frame = frame.assign(ranks=[format_holding(int(h)) for h in frame.trump_ranks])
    expect = brute(frame, "ranks")
    got = t.set_index(["players", "ranks"]).sort_index()
    pd.testing.assert_frame_equal(got, expect.sort_index(), check_dtype=False)


def test_length_high_table_by_hand(run, frame):
    t = make_table(run, "length,high", players=6)
    assert set(t.players) == {6} and t.deals.sum() == 40_000
    sub = frame[(frame.players == 6) & (np.bitwise_count(frame.trump_ranks.to_numpy()) == 2)]
    ace = sub[(sub.trump_ranks.to_numpy() >> 12) == 1]
    row = t[(t.length == "2") & (t.high == "A")].iloc[0]  # a run's labels are text
    assert row.deals == len(ace)
    assert row.p2 == pytest.approx((ace.points >= 2).mean())
    assert row.p2_lo < row.p2 < row.p2_hi
    assert row.p1 == 1.0  # the ace of trump always wins High
    # Sorted: length ascending, then highest trump from the ace down.
    assert list(t[t.length == "2"].high[:3]) == ["A", "K", "Q"]


def test_best_bid_matches_bid_odds(run):
    t = make_table(run, "keys", min_count=500)
    for row in t.itertuples():
        pts = np.array([getattr(row, f"pts{p}") for p in range(5)])
        odds = TrumpOdds(0, row.deals, pts)
        assert row.bid == odds.best_bid()[0]
        for k in (1, 2, 3, 4):
            assert getattr(row, f"score{k}") == pytest.approx(odds.expected_score(k))
            assert getattr(row, f"score{k}_se") == pytest.approx(odds.expected_score_se(k))


def test_min_count_and_players_filter(run):
    everything = make_table(run, "holding")
    big = make_table(run, "holding", min_count=200)
    assert 0 < len(big) < len(everything) and (big.deals >= 200).all()
    assert set(make_table(run, "jack,deuce,ten", players=[3]).players) == {3}
    assert make_table(run, "jack").jack.dtype == bool


def test_pattern_and_holding_rows(run):
    t = pd.concat([make_table(run, "ranks"), make_table(run, "pattern")])
    rows = holding_rows(t, ["A-x-x", "A-7-2"])
    assert set(rows.label) == {"A-x-x", "A-7-2"}
    assert rows[rows.label == "A-x-x"].deals.sum() > rows[rows.label == "A-7-2"].deals.sum()
    assert format_pattern(int(pattern_code(0b1000001000100))) == "A-x-x"


def test_exact_values_within_their_intervals(run):
    """6/52 for a given card in the pitcher's hand, 6(n-1)/46 for a trump he lacks to be
    dealt, 1 - 6 (n-1)/46 for a king without the ace to win High (the ace not dealt), the
    ace of trump always High (docs/rules.md 0.7).  The run has a fixed seed; |z| < 4 is a
    check a correct simulator fails once in 16,000."""
    c = exact_checks(run)
    assert len(c) == 8 and set(c.players) == {3, 6}
    assert (c.z.abs() < 4).all(), c
    jack6 = c[(c.players == 6) & (c.check == "unseen jack of trump dealt")].iloc[0]
    assert jack6.exact == pytest.approx(30 / 46) and jack6.se < 0.003
    spade3 = c[(c.players == 3) & c.check.str.startswith("the ace of spades")].iloc[0]
    assert spade3.exact == pytest.approx(6 / 52) and spade3.deals == 40_000
    assert (c[c.check == "the ace of trump held wins High"].estimate == 1.0).all()
    king6 = c[(c.players == 6) & (c.check == "king of trump dealt without the ace wins High")]
    assert king6.iloc[0].exact == pytest.approx(16 / 46) and king6.iloc[0].deals > 1000


def test_unknown_feature_and_player_count(run):
    with pytest.raises(InputError, match="unknown feature 'colour'"):
        make_table(run, "length,colour")
    with pytest.raises(InputError, match="no 5-player deals"):
        make_table(run, "length", players=5)
    with pytest.raises(InputError, match="twice"):
        make_table(run, "length,length")


def copy_run(run, dst):
    dst.mkdir()
    for f in run.iterdir():
        (dst / f.name).write_bytes(f.read_bytes())
    return dst


def test_damaged_runs_are_clear_errors(run, tmp_path):
    bad = copy_run(run, tmp_path / "bad")
    part = bad / "part-000001.parquet"
    part.write_bytes(part.read_bytes()[:5000])
    with pytest.raises(RunError, match="truncated.*--resume"):
        make_table(bad, "length")
    part.unlink()
    with pytest.raises(RunError, match="missing"):
        make_table(bad, "length")
    # Same size, garbage inside: its checksum says so, on one line; unverified, the
    # reader's own error.
    (bad / "part-000001.parquet").write_bytes(b"\0" * (run / "part-000001.parquet").stat().st_size)
    with pytest.raises(RunError, match="altered.*--resume") as e:
        make_table(bad, "length")
    assert "\n" not in str(e.value)
    with pytest.raises(RunError, match="cannot be read") as e:
        make_table(Run(bad, verify=False), "length")
    assert "\n" not in str(e.value)
    doc = json.loads((bad / MANIFEST).read_text())
    doc["parts"][2]["players"] = 9
    (bad / MANIFEST).write_text(json.dumps(doc))
    with pytest.raises(RunError, match="corrupt"):
        Run(bad)


def test_incomplete_run_uses_finished_parts(run, tmp_path):
    part = copy_run(run, tmp_path / "part")
    doc = json.loads((part / MANIFEST).read_text())
    for p in doc["parts"][3:]:
        p.update(status="pending", rows=None, bytes=None, sha256=None, fast_checksums=None)
    (part / MANIFEST).write_text(json.dumps(doc))
    r = Run(part)
    assert r.missing_parts == 3
    assert set(make_table(r, "length").players) == {3}
    with pytest.raises(RunError, match="no finished parts"):
        make_table(r, "length", players=6)


def test_min_bid_2_tables_never_bid_1(tmp_path):
    """RULES.md 1.2 (docs/rules.md): under min-bid=2 a bid of 1 is no choice, so a
    base-game run's table recommends a pass or a bid of 2-4, never 1; the same deals
    under min-bid=1 do recommend 1 somewhere (the rows differ only there)."""
    one, two = tmp_path / "one", tmp_path / "two"
    simulate(one, 20_000, 4, seed=3, part_size=20_000)
    simulate(two, 20_000, 4, seed=3, part_size=20_000, rules="min-bid=2")
    a, b = make_table(one, "keys", min_count=200), make_table(two, "keys", min_count=200)
    assert (a.bid == 1).any() and not (b.bid == 1).any()
    assert set(b.bid) <= {0, 2, 3, 4}
    assert (b.bid[a.bid != 1].to_numpy() == a.bid[a.bid != 1].to_numpy()).all()
