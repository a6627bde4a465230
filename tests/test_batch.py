"""Batch runs: Parquet parts + manifest, reproducible on any thread count, through Dask,
and after an interruption; features computed from the masks."""

import json
import tracemalloc

import numpy as np
import pyarrow.parquet as pq
import pytest

from pitchsim.game.cards import mask_of, parse_cards
from pitchsim.game.features import (
    format_holding,
    format_key_trumps,
    format_pattern,
    game_points,
    hand_features,
    in_play_features,
    key_trumps_code,
    key_trumps_possible,
    parse_holding,
    pattern_code,
)
from pitchsim.study import batch, manifest, parts
from pitchsim.study.batch import resume, simulate
from pitchsim.study.manifest import MANIFEST, RunError, parse_players, read_manifest
from pitchsim.util.errors import InputError

DEALS, PART = 6000, 2500  # 3 parts per player count, the last one short


def part_bytes(run):
    m = read_manifest(run)
    return [(run / r.part.file).read_bytes() for r in m.parts]


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """An uninterrupted run on 2 threads: what every other way of running must equal."""
    path = tmp_path_factory.mktemp("ref") / "run"
    simulate(path, DEALS, [3, 5], seed=11, part_size=PART, threads=2)
    return path


def test_run_layout_and_manifest(reference):
    names = sorted(p.name for p in reference.iterdir())
    assert names == [MANIFEST] + [f"part-{i:06d}.parquet" for i in range(6)]
    doc = json.loads((reference / MANIFEST).read_text())
    assert doc["format"] == "pitchsim-run/2" and doc["pitchsim_version"]
    assert doc["seed"] == 11 and doc["policy"] == "heuristic" and doc["players"] == [3, 5]
    assert doc["rules"]["low"] == "captured" and doc["deals_per_player_count"] == DEALS
    assert [p["status"] for p in doc["parts"]] == ["done"] * 6
    assert [(p["players"], p["start"], p["count"]) for p in doc["parts"]] == [
        (3, 0, 2500),
        (3, 2500, 2500),
        (3, 5000, 1000),
        (5, 0, 2500),
        (5, 2500, 2500),
        (5, 5000, 1000),
    ]
    assert all(len(p["sha256"]) == 64 and p["bytes"] > 0 for p in doc["parts"])
    for p, rec in zip(doc["parts"], read_manifest(reference).parts, strict=True):
        data = (reference / p["file"]).read_bytes()  # the fast checksums of its bytes
        assert p["fast_checksums"] == parts.fast_checksums(data, rec.part)
    assert set(doc["columns"]) == set(manifest.SCHEMA.names)


def test_rows_are_consistent(reference):
    """Invariants of the base game's rows, recounted from the pitcher's cards
    (docs/rules.md 0.7: the ace of trump always wins High; 0.4: trump is the suit led)."""
    df = pq.read_table(reference / "part-000003.parquet").to_pandas()
    assert len(df) == 2500 and (df.players == 5).all()
    assert (df.deal == np.arange(2500)).all()
    assert str(df.hand.dtype) == "int64" and str(df["keys"].dtype) == "uint16"
    hand = df.hand.to_numpy()
    assert (np.bitwise_count(hand) == 6).all() and (df.held == df.hand).all()  # no discard
    plain = ["high", "low", "jack", "game"]
    sides = df[list(manifest.AWARDS)]
    assert (sides[plain] <= 2).all().all()  # each of the four a point of the base game
    assert (sides.drop(columns=plain) == 3).all().all()  # and nothing else is
    assert (df.points == (sides[plain] == 0).sum(axis=1)).all()  # each point worth 1
    trump = df.trump.to_numpy().astype(np.int64)
    ranks = (hand >> (13 * trump)) & 0x1FFF
    assert (df.trump_count == np.bitwise_count(ranks)).all() and (df.trump_count >= 1).all()
    holds_ace = (ranks >> 12) & 1 == 1
    assert ((df["keys"] & 1) == holds_ace).all()  # bit 0 of keys: the ace (KEY_NAMES)
    assert (df.high[holds_ace] == 0).all()
    holds_jack = (ranks >> 9) & 1 == 1
    assert (df.jack[holds_jack] != 2).all()  # the jack held is in play: somebody takes it
    assert (df.high != 2).all() and (df.low != 2).all()  # a trump was led: in play


def test_same_bytes_on_one_thread_and_other_part_sizes(tmp_path, reference):
    one = tmp_path / "one"
    simulate(one, DEALS, [3, 5], seed=11, part_size=PART, threads=1)
    assert part_bytes(one) == part_bytes(reference)
    # The data (not the cut into parts) is the same whatever the part size.
    big = tmp_path / "big"
    simulate(big, DEALS, [5], seed=11, part_size=4000)
    a = pq.read_table([big / "part-000000.parquet", big / "part-000001.parquet"])
    b = pq.read_table([reference / f"part-00000{i}.parquet" for i in (3, 4, 5)])
    assert a.equals(b)


def test_player_counts_have_their_own_deals(tmp_path, reference):
    solo = tmp_path / "solo"
    simulate(solo, DEALS, [5], seed=11, part_size=PART)
    assert part_bytes(solo) == part_bytes(reference)[3:]
    three = pq.read_table(reference / "part-000000.parquet").column("hand").to_numpy()
    five = pq.read_table(reference / "part-000003.parquet").column("hand").to_numpy()
    assert (three != five).mean() > 0.99


def test_dask_local_cluster_gives_the_same_bytes(tmp_path, reference):
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None
    ) as cluster:
        done = []
        simulate(
            tmp_path / "dask",
            DEALS,
            [3, 5],
            seed=11,
            part_size=PART,
            scheduler=cluster.scheduler_address,
            progress=done.append,
        )
    assert part_bytes(tmp_path / "dask") == part_bytes(reference)
    assert sum(done) == 2 * DEALS


def test_unreachable_scheduler_is_an_input_error(tmp_path, monkeypatch):
    monkeypatch.setattr(batch, "CONNECT_TIMEOUT", "0.5s")
    with pytest.raises(InputError, match="cannot reach the Dask scheduler"):
        simulate(tmp_path / "x", 100, 3, seed=1, scheduler="tcp://127.0.0.1:9")


class Stop(Exception):
    pass


def test_interrupted_run_resumes_to_identical_bytes(tmp_path, reference):
    run = tmp_path / "run"
    seen = []

    def interrupt_in_part_three(k):
        seen.append(k)
        if sum(seen) > 2 * PART + 500:
            raise Stop

    with pytest.raises(Stop):
        simulate(run, DEALS, [3, 5], seed=11, part_size=PART, progress=interrupt_in_part_three)
    m = read_manifest(run)
    assert [r.status for r in m.parts] == ["done", "done"] + ["pending"] * 4
    assert not (run / "part-000002.parquet").exists()
    (run / ".part-000002.parquet.tmp").write_bytes(b"half a part")  # as if killed mid-write
    result = resume(run)
    assert result.parts_run == 4 and result.deals_run == 1000 + 2500 + 2500 + 1000
    assert part_bytes(run) == part_bytes(reference)
    assert not list(run.glob(".*.tmp"))
    assert resume(run).parts_run == 0


def test_resume_redoes_damaged_parts(tmp_path, reference):
    run = tmp_path / "run"
    simulate(run, DEALS, [3, 5], seed=11, part_size=PART)
    f1, f4 = run / "part-000001.parquet", run / "part-000004.parquet"
    f1.write_bytes(f1.read_bytes()[:1000])  # truncated by a crash
    f4.unlink()
    data = bytearray((run / "part-000005.parquet").read_bytes())
    data[100] ^= 0xFF  # same size, altered
    (run / "part-000005.parquet").write_bytes(bytes(data))
    heard = []
    result = resume(run, on_damaged=heard.append)
    assert result.parts_run == 3 and len(heard) == 3
    assert any("truncated" in h for h in heard) and any("missing" in h for h in heard)
    assert part_bytes(run) == part_bytes(reference)


def test_refuses_to_overwrite(tmp_path, reference):
    with pytest.raises(RunError, match="already holds a run"):
        simulate(reference, 10, 3, seed=1)
    (tmp_path / "junk.txt").write_text("x")
    with pytest.raises(RunError, match="not an empty directory"):
        simulate(tmp_path, 10, 3, seed=1)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(deals=0), "deals must be"),
        (dict(players="3,x"), "cannot read player counts"),
        (dict(players="8"), "players must be 2-7"),
        (dict(players="3,3"), "repeat"),
        (dict(policy="clever"), "played by the random or heuristic policy, not 'clever'"),
        (dict(seed=-1), "seed must be"),
        (dict(part_size=0), "part size"),
    ],
)
def test_bad_parameters(tmp_path, kwargs, message):
    args = dict(deals=10, players=3, seed=1) | kwargs
    with pytest.raises(InputError, match=message):
        simulate(tmp_path / "r", **args)


def test_corrupt_or_missing_manifest(tmp_path):
    with pytest.raises(RunError, match="does not exist"):
        read_manifest(tmp_path / "nothing")
    with pytest.raises(RunError, match="no manifest.json"):
        read_manifest(tmp_path)
    (tmp_path / MANIFEST).write_text("{ not json")
    with pytest.raises(RunError, match="corrupt"):
        read_manifest(tmp_path)
    (tmp_path / MANIFEST).write_text(json.dumps({"format": "pitchsim-run/1", "seed": 1}))
    with pytest.raises(RunError, match="corrupt"):
        read_manifest(tmp_path)


def test_memory_stays_bounded_by_the_part_size(tmp_path):
    simulate(tmp_path / "warm", 2000, 3, seed=2, part_size=1000)
    tracemalloc.start()
    simulate(tmp_path / "run", 200_000, 3, seed=2, part_size=2500)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    # Holding every deal would take ~26 bytes x 200,000 = 5.2 MB; a part's columns (two
    # sets) and the kernels' scratch for its deals (every seat's cards, each award) ~0.6 MB.
    assert peak < 1_500_000


def test_parse_players():
    assert parse_players("3-7") == [3, 4, 5, 6, 7]
    assert parse_players("5,3") == [3, 5] and parse_players(4) == [4]


# ---- features ------------------------------------------------------------------------


def hands(*texts):
    return np.array([mask_of(parse_cards(t)) for t in texts], dtype=np.int64)


def test_hand_features_by_hand():
    h = hands("AH JH 2H TC 9D 3S", "TS 9S 8S 7S AS KS", "2C 3D 4H 5S 6C 7D")
    f = hand_features(h, np.array([2, 3, 0]))
    assert f["trump_count"].tolist() == [3, 6, 2]
    assert [format_holding(int(x)) for x in f["trump_ranks"]] == ["A-J-2", "A-K-10-9-8-7", "6-2"]
    assert f["high_trump"].tolist() == [12, 12, 4] and f["low_trump"].tolist() == [0, 5, 0]
    assert f["off_aces"].tolist() == [0, 0, 0] and f["off_tens"].tolist() == [1, 0, 0]
    assert f["game_held"].tolist() == [4 + 1 + 10, 10 + 4 + 3, 0]
    assert f["trump_ranks"].dtype == np.uint16 and f["game_held"].dtype == np.uint8


def test_game_points_of_the_deck_and_in_play():
    assert game_points(np.array([(1 << 52) - 1]))[0] == 80
    everything = np.array([(1 << 52) - 1], dtype=np.int64)
    f = in_play_features(everything, np.array([1]))
    assert f["jack_dealt"][0] and f["trumps_dealt"][0] == 13 and f["game_dealt"][0] == 80


def test_holdings_patterns_and_key_trumps():
    assert parse_holding("A-J-2") == parse_holding("aj2") == ("pattern", (1 << 12) | (1 << 9) | 1)
    kind, code = parse_holding("A-7-2")
    assert kind == "holding" and format_holding(code) == "A-7-2"
    kind, code = parse_holding("A-x-x")
    assert kind == "pattern" and format_pattern(code) == "A-x-x"
    assert format_pattern(int(pattern_code((1 << 12) | (1 << 5) | (1 << 8) | 1))) == "A-10-x-2"
    assert parse_holding("A-10-x")[0] == "pattern" and parse_holding("10-x")[1] > 0
    for bad in ("", "A-A", "A-Z", "x-x-x-x-x-x-x"):
        with pytest.raises(InputError):
            parse_holding(bad)
    codes = key_trumps_code(np.array([(1 << 12) | (1 << 9) | 1, 1 << 11, (1 << 9) | 1, 1 << 3]))
    assert [format_key_trumps(int(c)) for c in codes] == ["A J 2", "K", "J 2", "≤10"]
    assert sum(key_trumps_possible(c) for c in range(20)) == 16


def test_resume_refuses_a_changed_simulator(tmp_path, reference, monkeypatch):
    run = tmp_path / "run"
    run.mkdir()
    for f in reference.iterdir():
        (run / f.name).write_bytes(f.read_bytes())
    (run / "part-000005.parquet").unlink()  # one part to finish
    real = batch.simulate_part

    def changed(part, params, *args, **kwargs):  # a kernel that now deals differently
        columns = real(part, params, *args, **kwargs)
        return {**columns, "hand": columns["hand"] ^ 1}

    monkeypatch.setattr(batch, "simulate_part", changed)
    with pytest.raises(RunError, match="plays part-000000.parquet's deals differently"):
        resume(run)
    monkeypatch.setattr(batch, "simulate_part", real)
    assert resume(run).parts_run == 1
    assert part_bytes(run) == part_bytes(reference)
