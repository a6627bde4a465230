"""The odds bidder's rows made on first use (``pitchsim.table.odds_rows``): for rules the
shipped table has no rows for (a short pack, 12.3; another maximum bid, 6.2; a kitty or
a called partner at a table without rows, 12.2, 12.1), rows made for exactly those
rules and players, equal to what their own deals give, the same on any thread count,
cached on disk, reused, and never read back damaged.  The rows shipped are still read
where they apply, and are what ``count_rows`` makes (``scripts/make_bid_table.py``)."""

from __future__ import annotations

import numpy as np
import pytest
from test_families_cli import rows_within

import pitchsim
from pitchsim.game.rules import Rules, label
from pitchsim.kernels.bidding.calls import N_CLASSES, N_ROWS
from pitchsim.table import odds_rows as O
from pitchsim.table.boards import odds_bidder_table
from pitchsim.util.errors import InputError
from pitchsim.util.runtime import use_threads

SHORT = Rules.parse("smear,deck=9-A")  # 12.3: no shipped rows


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """An empty cache folder of the test's own, and nothing made in this process."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(O, "_made", {})
    return tmp_path / "pitchsim" / "odds"


def test_a_made_row_is_what_its_own_deals_give(cache):
    """12.3: the rows made for smear,deck=9-A at 4 players, recounted plainly on their
    own deals (``made_seed``'s, ``MADE_DEALS`` of them): each row's deals and the
    defender's mean exactly, and every row with 3,000 deals or more P(the pitcher's side
    takes at least k) within the fit's noise (``NOISE`` standard errors) of the deals'
    own.  Rows made from another seed, the rows of another table, or a fill that reads
    the wrong deals fail here."""
    from pitchsim.kernels.bid_table import simulate_counts
    from pitchsim.kernels.presets import rules_array, rules_table

    rows = O.made_rows(SHORT, 4)
    deals = O.MADE_DEALS
    row, points, other = (np.empty(deals, np.int64) for _ in range(3))
    seed = O.made_seed(O.made_key(SHORT, 4))
    simulate_counts(seed, deals, 4, rules_array(SHORT), rules_table(SHORT), row, points, other)
    assert np.array_equal(rows.cells, np.bincount(row, minlength=N_ROWS))
    assert rows.defender == other.mean()
    assert rows.p_at_least.shape == (N_ROWS, SHORT.max_bid)
    checked, exact = rows_within(rows.p_at_least, row, points, SHORT.max_bid, O.NOISE)
    assert checked >= 12 and exact >= checked // 2, (checked, exact)
    # and the odds bidder reads them: no refusal, its table the made rows
    odds, defender = odds_bidder_table(SHORT, 4)
    assert np.array_equal(odds[:N_ROWS, : SHORT.max_bid], rows.p_at_least)
    assert defender == rows.defender


def test_made_rows_are_the_same_on_any_thread_count():
    """Deal d of a row's deals is the stream (seed, d): one thread or all give the same
    rows (a called partner with a kitty at 5 players, 12.1 and 12.2, no shipped rows)."""
    r = Rules.parse("smear,partner=called,kitty=3")
    seed = O.made_seed(O.made_key(r, 5))
    with use_threads(1):
        one = O.count_rows(r, 5, 50_000, seed)
    every = O.count_rows(r, 5, 50_000, seed)
    assert np.array_equal(one.p_at_least, every.p_at_least)
    assert np.array_equal(one.cells, every.cells) and one.defender == every.defender


def test_the_key_names_the_whole_rules_and_the_players():
    """Equal rules written two ways make one key; rules that differ anywhere, or another
    table size, make another (and another seed)."""
    a = O.made_key(Rules.parse("smear,deck=9-A,target=11"), 4)
    assert a == O.made_key(Rules.parse("smear,target=11,deck=9-A"), 4) == "smear,deck=9-A/4"
    others = [
        O.made_key(Rules.parse("smear,deck=9-A,target=15"), 4),
        O.made_key(SHORT, 3),
        O.made_key(Rules.parse("smear,deck=5-A"), 4),
    ]
    assert len({a, *others}) == 4
    assert len({O.made_seed(k) for k in (a, *others)}) == 4


def test_made_rows_are_cached_and_reused(cache, monkeypatch, capfd):
    """The first use makes the rows, says so on stderr (once; where they are kept) and
    writes one file; a later process (the memory cleared) reads that file and makes
    nothing; `pitchsim cache`'s list names it."""
    monkeypatch.setenv("PITCHSIM_COMPILE_NOTICE", "1")
    made = O.made_rows(SHORT, 4)
    err = capfd.readouterr().err
    assert err == (
        f"pitchsim: making the odds rows for smear,deck=9-A at 4 players (once; cached in "
        f"{cache})\n"
    )
    files = list(cache.glob("*.npz"))
    assert len(files) == 1
    monkeypatch.setattr(O, "_made", {})

    def no_making(*args):
        raise AssertionError("made again")

    monkeypatch.setattr(O, "count_rows", no_making)
    again = O.made_rows(SHORT, 4)
    assert np.array_equal(again.p_at_least, made.p_at_least)
    assert np.array_equal(again.cells, made.cells) and again.defender == made.defender
    assert capfd.readouterr().err == ""
    assert O.made_files() == [
        (files[0], "smear,deck=9-A at 4 players (200,000 deals)", files[0].stat().st_size, True)
    ]


def _damage(path, how):
    data = bytearray(path.read_bytes())
    if how == "cut":
        data = data[: len(data) // 2]
    elif how == "overwritten":
        data = bytearray(b"something else")
    elif how == "flipped":  # a byte of the chances changed: the zip's own CRC or the digest
        at = data.index(b"p_at_least.npy")
        data[at + 400] ^= 0x10
    path.write_bytes(bytes(data))


@pytest.mark.parametrize("how", ["cut", "flipped", "overwritten", "rewritten", "another key"])
def test_a_damaged_cache_file_is_detected_and_made_again(cache, capfd, how):
    """A cache file cut short, with a byte changed, overwritten, rewritten with other
    chances under its old digest, or holding another key's rows under this key's name,
    is never read quietly: one line on stderr names it and what is wrong, and the rows
    are made again, the same as before, and the file mended."""
    made = O.made_rows(SHORT, 4)
    path = O.made_file(O.made_key(SHORT, 4), O.MADE_DEALS, O.made_seed(O.made_key(SHORT, 4)))
    if how == "rewritten":
        with np.load(path) as z:
            doc = {k: z[k] for k in z.files}
        doc["p_at_least"] = doc["p_at_least"] * 0.9
        with open(path, "wb") as f:
            np.savez(f, **doc)
    elif how == "another key":
        other = Rules.parse("smear,deck=5-A")
        O.made_rows(other, 4)
        key = O.made_key(other, 4)
        path.write_bytes(O.made_file(key, O.MADE_DEALS, O.made_seed(key)).read_bytes())
    else:
        _damage(path, how)
    capfd.readouterr()
    O._made.clear()
    again = O.made_rows(SHORT, 4)
    err = capfd.readouterr().err.splitlines()
    assert len(err) == 1 and err[0].startswith(f"pitchsim: {path} is damaged ("), err
    if how == "overwritten":  # (numpy's own word for it: a pickle it will not load)
        assert err[0].endswith("(not an .npz archive): made again"), err
    assert np.array_equal(again.p_at_least, made.p_at_least)
    O.read_made(path)  # mended: reads clean
    # and `pitchsim cache` says which file is damaged, before it is mended
    _damage(path, "cut")
    [(f, what, _, read)] = [m for m in O.made_files() if m[0] == path]
    assert what.startswith("damaged: ") and not read


def test_the_shipped_rows_are_still_read_where_they_apply(cache):
    """Rules that differ from their preset read the preset's shipped rows when they have
    its maximum bid, pack, kitty and partner (smear,target=15 reads smear's, kitty=3 its
    own, 12.2): nothing is made or cached for them."""
    for spec, n in (("smear,target=15", 4), ("smear,kitty=3", 4), ("smear,partner=called", 5)):
        r = Rules.parse(spec)
        shipped = O.shipped_rows(r, n)
        assert shipped is not None
        got = O.odds_rows(r, n)
        assert np.array_equal(got.p_at_least, shipped.p_at_least), spec
    assert O.shipped_rows(Rules.parse("smear,target=15"), 4).defender == (
        O.shipped_rows(Rules.parse("smear"), 4).defender
    )
    assert not cache.exists()


@pytest.mark.parametrize(
    "spec",
    [
        "smear,kitty=3,discard=draw",  # 12.8.2: everybody discards and draws
        "smear,kitty=3,discard=choice",  # 12.8.1: the pitcher in his turn, the same hands
        "auction-pitch,deal=9,discard=choice,trump=named",  # 12.8.1: 9 dealt, 3 put down
        "auction-pitch,trump=named,discard=non-trump",  # 4.8 under a preset without it
    ],
)
def test_a_discard_the_preset_has_not_reads_no_shipped_rows(spec):
    """4.8, 12.8: a discard and draw changes the hands every row counts, so rules whose
    deal, discard or rob differ from their preset's never read its shipped rows (the
    preset has the same maximum bid, kitty and partner, which is all the key names)."""
    r = Rules.parse(spec)
    assert O.odds_table_key(r, 4) in [str(k) for k in O.load_bid_table()["keys"]]
    assert O.shipped_rows(r, 4) is None


def test_the_largest_maximum_bid_has_rows_and_games_are_tallied_to_it(cache):
    """6.2: the maximum bid is what the options award, 20 at the most (two jokers, the
    jick, the 3 and both pedros: 4 + 1 + 2 + 3 + 10).  Its rows are made, and whole
    games under it are played and tallied at every bid up to 20 (the kernels' calls
    once ended at 15, and a tournament there stopped with an IndexError)."""
    top = "smear,jokers=2,jick=true,three=true,five=pedro"
    r = Rules.parse(top)
    assert r.max_bid == 20
    rows = O.odds_rows(r, 4)
    assert rows.p_at_least.shape == (N_ROWS, 20)
    assert rows.p_at_least[:, 0].max() > 0.9  # some counts nearly always take a point
    out = pitchsim.tournament(
        [f"{s}+heuristic" for s in ("odds", "heuristic")], rules=top, boards=4, seed=1
    )
    assert [sorted(s.pitched) for s in out.results] == [list(range(1, 21))] * 2
    # and a table the rules refuse has no rows: their own line (ten-point: 4-6 players)
    with pytest.raises(InputError, match="ten-point is played by 4-6 players, not 7"):
        O.odds_rows(Rules.parse("ten-point"), 7)


def test_the_script_writes_the_rows_count_rows_makes():
    """``scripts/make_bid_table.py`` writes the shipped rows from ``count_rows``, the one
    place rows are made: setback at 4 players (its first table, seed * 100 + 0), rebuilt
    at the shipped deals and seed, is the shipped row bit for bit."""
    t = O.load_bid_table()
    r = Rules.parse("setback")
    assert str(t["keys"][0]) == O.odds_table_key(r, 4)
    rows = O.count_rows(r, 4, int(t["deals"]), int(t["seed"]) * 100)
    shipped = t["p_at_least"][0]
    assert rows.p_at_least.astype(np.float32).tobytes() == shipped[:, : r.max_bid].tobytes()
    assert not shipped[:, r.max_bid :].any()
    assert np.array_equal(rows.cells, t["cells"][0]) and rows.defender == t["defender"][0]
    # (two sides: keyed by the count alone, every holding of a count one row)
    at = rows.p_at_least.reshape(-1, N_CLASSES, r.max_bid)
    assert (at == at[:, :1]).all()


def test_first_uses_at_once_make_one_sound_file(cache, monkeypatch):
    """Threads asking for the same rows at once: made once (the others wait and share
    them); two processes at once: each writes its own temporary and renames it into place
    (``util.atomic``), so the file left reads clean, the rows of either."""
    import subprocess
    import sys
    import threading

    made = []
    count = O.count_rows
    monkeypatch.setattr(O, "count_rows", lambda *a: made.append(a) or count(*a))
    got = []
    threads = [threading.Thread(target=lambda: got.append(O.made_rows(SHORT, 3))) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(made) == 1 and len(got) == 4 and all(g is got[0] for g in got)
    code = "from pitchsim.game.rules import Rules; from pitchsim.table.odds_rows import made_rows\n"
    code += "made_rows(Rules.parse('smear,deck=5-A'), 3)"
    runs = [subprocess.Popen([sys.executable, "-c", code]) for _ in range(2)]
    assert [r.wait(timeout=600) for r in runs] == [0, 0]
    files = sorted(cache.glob("*.npz"))
    assert len(files) == 2 and not list(cache.glob(".*.tmp"))
    key = O.made_key(Rules.parse("smear,deck=5-A"), 3)
    meta, rows = O.read_made(O.made_file(key, O.MADE_DEALS, O.made_seed(key)))
    assert meta["rules"] == "smear,deck=5-A" and rows.p_at_least.shape == (N_ROWS, 5)


def test_pitchsim_cache_lists_and_clears_the_made_rows(cache):
    """``pitchsim cache`` lists the made rows (what each holds, whether this version reads
    it); ``--clear`` deletes those it does not read (another fill, or damaged), ``--clear
    --all`` every one, so the next use makes them again."""
    import json

    from clirun import cli

    made = O.made_rows(SHORT, 4)
    key = O.made_key(SHORT, 4)
    meta = dict(rules=label(SHORT), players=4, deals=O.MADE_DEALS, seed=O.made_seed(key))
    O.write_made(cache / "old.npz", meta | {"fill": O.FILL - 1}, made)  # another fill's
    (cache / "junk.npz").write_bytes(b"junk")
    code, out, _ = cli("cache")
    assert code == 0 and "smear,deck=9-A at 4 players (200,000 deals)" in out
    assert "junk.npz" in out and "damaged: not an .npz archive  (not read by" in out
    code, out, _ = cli("cache", "--clear", "--json")
    doc = json.loads(out)
    assert code == 0 and sorted(doc["deleted"]) == [str(cache / "junk.npz"), str(cache / "old.npz")]
    assert [f["current"] for f in doc["odds_rows"]["files"]] == [True]
    code, out, _ = cli("cache", "--clear", "--all", "--json")
    assert code == 0 and json.loads(out)["odds_rows"]["files"] == [] and not any(cache.iterdir())
