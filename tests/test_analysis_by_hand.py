"""The study tables' numbers worked out by hand or recounted in plain Python from a small
run's rows, and their refusals whole (the mutation run's survivors in analysis.py)."""

from __future__ import annotations

import json
import math
import statistics

import numpy as np
import pandas as pd
import pytest

from pitchsim.study.analysis import (
    Run,
    holding_rows,
    make_table,
    summarize,
)
from pitchsim.study.batch import simulate
from pitchsim.study.exact import exact_checks
from pitchsim.study.manifest import MANIFEST, RunError
from pitchsim.util.errors import InputError

Z = 1.959963984540054


def wilson_by_hand(k: int, n: int) -> tuple[float, float]:
    p = k / n
    centre = (p + Z * Z / (2 * n)) / (1 + Z * Z / n)
    half = Z * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n)) / (1 + Z * Z / n)
    return centre - half, centre + half


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    path = tmp_path_factory.mktemp("analysis_by_hand") / "run"
    simulate(path, 3_000, [3, 5], seed=5, part_size=1_000)
    return path


@pytest.fixture(scope="module")
def rows(run):
    df = pd.concat([pd.read_parquet(f) for f in sorted(run.glob("part-*.parquet"))])
    df = df[df.players == 3]  # the checks below recount the 3-player deals
    df = df.astype({"hand": np.int64, "trump": np.int64, "trump_count": np.int64})
    # the trump suit's ranks the pitcher was dealt, recounted from his cards
    ranks = (df.hand.to_numpy() >> (13 * df.trump.to_numpy())) & 0x1FFF
    return df.assign(trump_ranks=ranks)


def _points(pts):
    return [p for p, c in enumerate(pts) for _ in range(c)]


def test_summarize_by_hand():
    # group a: points 0, 2, 2, 3; group b: points 4, 4, 4 (always made); group c: one deal
    counts = pd.DataFrame(
        {
            "players": [4, 4, 4],
            "g": ["a", "b", "c"],
            "deals": [4, 3, 1],
            **{
                f"pts{p}": [a, b, c]
                for p, (a, b, c) in enumerate(
                    zip([1, 0, 2, 1, 0], [0, 0, 0, 0, 3], [1, 0, 0, 0, 0], strict=True)
                )
            },
        }
    )
    t = summarize(counts, min_count=3)
    assert list(t.g) == ["a", "b"]  # c has fewer than 3 deals; a group of exactly 3 stays
    for i, pts in enumerate(([1, 0, 2, 1, 0], [0, 0, 0, 0, 3])):
        points = _points(pts)
        n = len(points)
        row = t.iloc[i]
        signs_clear = True
        best = 0
        for k in (1, 2, 3, 4):
            made = sum(p >= k for p in points)
            assert row[f"p{k}"] == pytest.approx(made / n)
            lo, hi = wilson_by_hand(made, n)
            assert row[f"p{k}_lo"] == pytest.approx(lo) and row[f"p{k}_hi"] == pytest.approx(hi)
            scores = [p if p >= k else -k for p in points]
            mean = statistics.fmean(scores)
            se = statistics.pstdev(scores) / math.sqrt(n)
            assert row[f"score{k}"] == pytest.approx(mean)
            assert row[f"score{k}_se"] == pytest.approx(se, abs=1e-12)
            best = k if mean > 0 else best
            signs_clear &= abs(mean) > Z * se
        assert row.bid == best and bool(row.bid_sure) is signs_clear
    # a: bid 2 (+1.25), its signs not clear on four deals; b: bid 4, certain (se 0)
    assert list(t.bid) == [2, 4] and list(t.bid_sure) == [False, True]
    assert t.index.tolist() == [0, 1]
    assert list(summarize(counts).g) == ["a", "b", "c"]  # by default every group


def test_exact_checks_recounted(run, rows):
    """Each check of a base game's run recounted from its rows (docs/rules.md 0.7: the
    ace of trump always wins High; a card the pitcher lacks is one of the 46 others,
    12 of them dealt at 3 players)."""
    assert set(exact_checks(run).players) == {3, 5} and len(exact_checks(run)) == 8
    assert set(exact_checks(run, players=5).players) == {5}
    c = exact_checks(run, players=[3]).set_index("check")
    assert set(c.players) == {3} and len(c) == 4
    assert exact_checks(run, players=3).set_index("check").equals(c)
    ranks = rows.trump_ranks.to_numpy()
    p_unseen = 12 / 46
    lacks = rows[((ranks >> 9) & 1) == 0]  # the jack is rank 9 (2..A = 0..12)
    jack = c.loc["unseen jack of trump dealt"]
    k = int((lacks.jack != 2).sum())  # 2: nobody took Jack, as nobody was dealt it
    assert jack.deals == len(lacks) and jack.estimate == pytest.approx(k / len(lacks))
    assert jack.se == pytest.approx(math.sqrt(p_unseen * (1 - p_unseen) / len(lacks)))
    assert (jack.lo, jack.hi) == pytest.approx(wilson_by_hand(k, len(lacks)))
    assert jack.exact == pytest.approx(p_unseen)
    assert jack.z == pytest.approx((k / len(lacks) - p_unseen) / jack.se)
    assert jack.inside == (jack.lo <= p_unseen <= jack.hi)

    spade = c.loc["the ace of spades in the pitcher's hand as dealt"]
    k = int(((rows.hand.to_numpy() >> (3 * 13 + 12)) & 1).sum())
    assert spade.deals == 3_000 and spade.estimate == pytest.approx(k / 3_000)
    assert spade.exact == pytest.approx(6 / 52)

    ace = rows[((ranks >> 12) & 1) == 1]
    row = c.loc["the ace of trump held wins High"]
    assert row.deals == len(ace) and row.estimate == 1.0 and row.se == 0.0
    assert row.z == 0.0 and bool(row.inside) is True  # se 0: inside when exactly right
    assert (row.lo, row.hi) == pytest.approx(wilson_by_hand(len(ace), len(ace)))
    king = rows[(((ranks >> 11) & 1) == 1) & (((ranks >> 12) & 1) == 0)]
    row = c.loc["king of trump dealt without the ace wins High"]
    won = int((king.high == 0).sum())
    assert row.deals == len(king) and row.estimate == pytest.approx(won / len(king))
    assert row.se == pytest.approx(math.sqrt((1 - p_unseen) * p_unseen / len(king)))
    assert row.exact == pytest.approx(1 - p_unseen)
    assert (row.lo, row.hi) == pytest.approx(wilson_by_hand(won, len(king)))


def test_refusals_whole(run, tmp_path):
    with pytest.raises(InputError) as e:
        make_table(run, "length", min_count=0)
    assert str(e.value) == "min-count must be at least 1, not 0"
    with pytest.raises(InputError) as e:
        Run(run, verify="half")
    assert str(e.value) == "verify must be True, False or 'full', not 'half'"
    with pytest.raises(InputError) as e:
        make_table(run, "length", players=[3, 6])
    assert str(e.value) == f"the run at {run} has no 6-player deals (it has 3,5)"
    t = make_table(run, "length")
    with pytest.raises(InputError) as e:
        holding_rows(t, ["A-x-x"])
    assert str(e.value) == "holding 'A-x-x' needs a table by pattern"
    with pytest.raises(InputError) as e:
        holding_rows(t, ["A-7-2"])
    assert str(e.value) == "holding 'A-7-2' needs a table by ranks"
    empty = holding_rows(t, [])
    assert len(empty) == 0 and list(empty.columns) == list(t.columns)
    # no part finished at all
    bare = tmp_path / "bare"
    bare.mkdir()
    doc = json.loads((run / MANIFEST).read_text())
    for p in doc["parts"]:
        p.update(status="pending", rows=None, bytes=None, sha256=None, fast_checksums=None)
    (bare / MANIFEST).write_text(json.dumps(doc))
    with pytest.raises(RunError) as e:
        make_table(bare, "length")
    assert str(e.value) == (
        f"the run at {bare} has no finished parts; finish it with: "
        f"pitchsim simulate --out {bare} --resume"
    )
    with pytest.raises(RunError) as e:
        make_table(bare, "length", players=3)
    assert str(e.value) == (
        f"the run at {bare} has no finished parts for those players; finish it with: "
        f"pitchsim simulate --out {bare} --resume"
    )


class _AceLosesOnce(Run):
    """The run as read, but one deal where the ace of trump lost High: what a broken
    simulator would write, which the check is there to catch."""

    def scan(self, columns, players=None):
        flipped = False
        for n, cols in super().scan(columns, players):
            if not flipped:
                ace = np.flatnonzero(cols["keys_held"].astype(np.int64) & 1)  # bit 0: A
                cols["high"] = cols["high"].copy()
                cols["high"][ace[0]] = 1  # the other side took it
                flipped = True
            yield n, cols


def test_the_ace_check_sees_a_lost_high(run, rows):
    ranks = rows.trump_ranks.to_numpy()
    aces = int((((ranks >> 12) & 1) == 1).sum())
    row = (
        exact_checks(_AceLosesOnce(run), players=3)
        .set_index("check")
        .loc["the ace of trump held wins High"]
    )
    assert row.deals == aces and row.estimate == pytest.approx((aces - 1) / aces)
    assert (row.lo, row.hi) == pytest.approx(wilson_by_hand(aces - 1, aces))
    assert row.z == math.inf and not row.inside  # se 0 and not exactly right: outside
