"""The base game's trump-holding features (--by keys, pattern, jack, low, ...) under every
preset whose trumps are the trump suit's 13 ranks, read from a preset run's hand and
trump; refused, with the clause, where the jick or a joker is a trump too (docs/rules.md
0.4).  A base game's run is written in the same columns as every preset's; a run of the
base game's old columns is refused with the command that plays it again."""

import json

import numpy as np
import pyarrow.parquet as pq
import pytest
from clirun import cli

from pitchsim.game.features import FEATURES, hand_features
from pitchsim.game.rules import Rules
from pitchsim.study.analysis import (
    FROM_HAND,
    hand_columns,
    hand_feature,
    make_table,
    points_counts,
)
from pitchsim.study.batch import simulate
from pitchsim.study.manifest import COLUMNS_JSON, MANIFEST, RunError, read_manifest

SEED = 11


def columns(run) -> dict[str, np.ndarray]:
    m = read_manifest(run)
    tables = [pq.read_table(run / r.part.file) for r in m.parts]
    return {
        n: np.concatenate([t.column(n).to_numpy() for t in tables]) for n in tables[0].column_names
    }


@pytest.fixture(
    scope="module", params=["auction-pitch", "setback", "auction-pitch,trump=named", "cinch"]
)
def preset_run(request, tmp_path_factory):
    path = tmp_path_factory.mktemp("preset") / "run"
    simulate(path, 2000, players=[4], seed=SEED, rules=request.param, part_size=1000, threads=1)
    return path


@pytest.fixture(scope="module")
def base_run(tmp_path_factory):
    path = tmp_path_factory.mktemp("base") / "run"
    simulate(path, 2000, players=[3, 4], seed=SEED, part_size=1000, threads=1)
    return path


def test_a_base_run_names_auction_pitch_in_full_and_the_columns_of_every_preset(base_run):
    # the base game is the auction-pitch preset (docs/rules.md 1.3)
    assert Rules().describe_in_full() == read_manifest(base_run).params.rules
    doc = json_of(base_run / MANIFEST)
    assert doc["rules"]["family"] == "auction-pitch" and doc["columns"] == COLUMNS_JSON
    assert doc["rules"] == Rules.parse("auction-pitch").describe_in_full()


def test_hand_columns_are_the_reference_features(base_run):
    """The base game's hand columns a run's hand and trump give (``hand_columns``) are
    the reference's (``game.features.hand_features``, plain numpy)."""
    c = columns(base_run)
    got = hand_columns(c)
    ref = hand_features(c["hand"], c["trump"])
    for name in ("trump_ranks", "trump_count", "off_aces", "off_tens", "game_held"):
        assert np.array_equal(got[name], ref[name].astype(np.int64)), name


def test_a_run_of_the_old_base_columns_is_refused_with_the_command_to_play_it_again(
    base_run, tmp_path
):
    """A base game's run written before the one engine (its rules the base options alone,
    no preset named) is never read as if it were today's: one line, and the command."""
    doc = json_of(base_run / MANIFEST)
    doc["rules"] = {k: v for k, v in Rules().describe().items()}
    doc["rules"]["min-bid"] = 2
    doc["pitchsim_version"] = "0.9.0"
    old = tmp_path / "old"
    old.mkdir()
    (old / MANIFEST).write_text(json.dumps(doc))
    with pytest.raises(RunError) as e:
        read_manifest(old)
    msg = str(e.value)
    assert "pitchsim 0.9.0" in msg and "\n" not in msg
    assert "--deals 2000 --seed 11 --players 3,4 --policy heuristic" in msg
    assert "--rules auction-pitch," in msg and "min-bid=2" in msg
    code, out, err = cli("table", old)
    assert code == 2 and err.count("\n") == 1 and "play it again with pitchsim simulate" in err


def json_of(path):
    return json.loads(path.read_text())


def test_a_preset_run_groups_by_the_base_games_holding_features(preset_run):
    m = read_manifest(preset_run)
    c = columns(preset_run)
    ref = hand_features(c["hand"], c["trump"])  # the reference, in plain numpy
    ref_cols = {k: ref[k] for k in ("trump_ranks", "off_aces", "game_held")}
    names = ("ranks", "pattern", "keys", "jack", "low", "off_aces")
    if m.rules.game == "count":  # Game's count (docs/rules.md 0.8)
        names += ("game_held",)
    for name in names:
        t = points_counts(preset_run, name)
        f = hand_feature(name)
        codes = f.code(ref_cols)
        want = {}
        for code, pts in zip(codes, c["points"], strict=True):
            n, k = want.get(f.label(int(code)), (0, 0))
            want[f.label(int(code))] = (n + 1, k + int(pts >= 2))
        got = {
            row[name]: (
                row.deals,
                sum(getattr(row, f"pts{k}") for k in range(2, 19) if hasattr(row, f"pts{k}")),
            )
            for _, row in t.iterrows()
        }
        assert got == want, name


def test_the_table_command_reads_them(preset_run):
    code, out, err = cli("table", preset_run, "--by", "pattern", "--min-count", "1")
    assert code == 0, err
    assert "A" in out


def test_no_game_held_without_a_game_point(tmp_path):
    """cinch plays game=ten: no Game point, so no count of it held (docs/rules.md §6)."""
    path = tmp_path / "run"
    simulate(path, 1000, players=[4], seed=SEED, rules="cinch", part_size=1000, threads=1)
    make_table(path, "pattern")  # its trumps are the suit's ranks
    with pytest.raises(Exception, match=r"game=ten\) there is no Game point"):
        make_table(path, "game_held")


@pytest.mark.parametrize("preset", ["smear", "ten-point", "six-point"])
def test_refused_where_the_jick_or_a_joker_is_a_trump(preset, tmp_path):
    path = tmp_path / "run"
    simulate(path, 1000, players=[4], seed=SEED, rules=preset, part_size=1000, threads=1)
    for name in ("pattern", "jack"):
        with pytest.raises(
            Exception, match=r"trumps outside the trump suit's ranks \(docs/rules.md 0.4\)"
        ):
            make_table(path, name)
    code, _, err = cli("table", path, "--by", "keys")
    assert code == 2 and "0.4" in err and err.count("\n") == 1


def test_every_name_from_hand_is_a_base_feature():
    for name in FROM_HAND:
        f = hand_feature(name)
        assert f.name == name and f.code is FEATURES["holding" if name == "ranks" else name].code


def test_the_table_help_names_them():
    from pitchsim.cli.table import FROM_HAND_NAMES

    assert FROM_HAND_NAMES == FROM_HAND
