"""simulate, table and chart under a rule family (--rules smear, ten-point, setback):
the parts checksummed and reproducible, resume, the table recounted in plain Python from
the Parquet, P(make k) equal to the family kernels' own on the same deals, and every
refusal one line and exit 2."""

import json

import pyarrow.parquet as pq
import pytest
from clirun import cli

from pitchsim.game.rules import Rules
from pitchsim.kernels.policies.cards import any_rules
from pitchsim.kernels.sample import record_columns
from pitchsim.kernels.simulate import make_odds, policy_row
from pitchsim.study.analysis import make_table
from pitchsim.study.batch import play_deals, simulate
from pitchsim.study.exact import exact_checks
from pitchsim.study.manifest import AWARDS, MANIFEST, read_manifest

DEALS, PART, SEED = 6000, 2500, 7  # 3 parts per player count, the last one short


def frame(run):
    """Every part of a run, in deal order, as one dict of plain Python lists."""
    m = read_manifest(run)
    tables = [pq.read_table(run / r.part.file) for r in m.parts]
    return {
        name: sum((t.column(name).to_pylist() for t in tables), [])
        for name in tables[0].column_names
    }


@pytest.fixture(scope="module")
def smear(tmp_path_factory):
    path = tmp_path_factory.mktemp("smear") / "run"
    simulate(path, DEALS, players=[3, 4], seed=SEED, rules="smear", part_size=PART, threads=2)
    return path


@pytest.fixture(scope="module")
def ten_point(tmp_path_factory):
    path = tmp_path_factory.mktemp("ten") / "run"
    simulate(path, 4000, players=[4], seed=SEED, rules="ten-point", part_size=2000, threads=2)
    return path


@pytest.fixture(scope="module")
def base_game(tmp_path_factory):
    """The base game itself, played on the kernels compiled for its shape."""
    path = tmp_path_factory.mktemp("base") / "run"
    simulate(path, 4000, players=[4, 5], seed=SEED, part_size=2000, threads=2)
    return path


@pytest.fixture(scope="module")
def auction_pitch(tmp_path_factory):
    """Auction-pitch with trump named, not led: the preset's kernels for any rules."""
    path = tmp_path_factory.mktemp("ap") / "run"
    rules = "auction-pitch,trump=named"
    simulate(path, 4000, players=[4], seed=SEED, rules=rules, part_size=2000, threads=2)
    return path


def test_the_manifest_records_the_family_and_every_part_is_checksummed(smear):
    doc = json.loads((smear / MANIFEST).read_text())
    assert doc["rules"] == Rules.parse("smear").describe() and doc["rules"]["family"] == "smear"
    for p in doc["parts"]:
        assert p["status"] == "done" and len(p["sha256"]) == 64
        assert set(p["fast_checksums"]) == {"frame", *doc["columns"]}
    assert "keys_held" in doc["columns"] and "jick" in doc["columns"]


def test_same_seed_same_bytes_on_any_thread_count_and_part_size(smear, tmp_path):
    one = tmp_path / "one"
    simulate(one, DEALS, players=[3, 4], seed=SEED, rules="smear", part_size=PART, threads=1)
    for a, b in zip(read_manifest(smear).parts, read_manifest(one).parts, strict=True):
        assert (smear / a.part.file).read_bytes() == (one / b.part.file).read_bytes()
    other = tmp_path / "other"  # another cut into parts: the same deals, row for row
    simulate(other, DEALS, players=[3, 4], seed=SEED, rules="smear", part_size=4000, threads=1)
    assert frame(other) == frame(smear)


def test_p_make_equals_the_family_kernels_on_the_same_deals(smear):
    rules = Rules.parse("smear")
    t = make_table(smear, [])
    for n in (3, 4):
        odds = make_odds(rules, n, DEALS, "heuristic", seed=SEED * 8 + n)
        row = t[t.players == n].iloc[0]
        assert row.deals == DEALS
        assert [row[f"p{k}"] for k in range(1, 6)] == odds["p_make"]  # exactly: the same deals


@pytest.mark.parametrize(
    "which, rules, n",
    [
        ("ten_point", "ten-point", 4),
        ("smear", "smear", 3),  # Game by count (0.8), each seat for himself
        ("base_game", "auction-pitch", 4),
        ("base_game", None, 5),
    ],
)
def test_columns_equal_record_family_hands_on_the_same_seed(request, which, rules, n):
    """A run's columns recounted from every seat's cards and awards played by the
    kernel for any rules (``record_columns``; the base game's run is played by the
    kernel compiled for its shape: the same deals).  A run keeps no seat's awards, so
    its sides are read off the cards (``score.side_awards_of``), these off every
    seat's scoring (``score_hand``): the two must agree."""
    r = Rules.parse(rules)
    m = 4000
    pols = policy_row("heuristic", n)
    c = play_deals(r, n, SEED * 8 + n, 0, m, pols, seats=True, kernel=any_rules(record_columns))
    dealt, held, trump, pts, award = (
        c["all_dealt"], c["all_held"], c["trump"], c["points"], c["all_award"]
    )  # fmt: skip
    f = frame(request.getfixturevalue(which))
    f = {k: v[(m if n == 5 else 0) :][:m] for k, v in f.items()}  # this player count's rows
    assert f["deal"] == list(range(m)) and set(f["players"]) == {n}
    assert f["hand"] == dealt[:, 0].tolist() and f["held"] == held[:, 0].tolist()
    assert f["trump"] == trump.tolist() and f["points"] == pts.tolist()
    # each award's side, recounted from the seat the kernel credited (partnership: seats
    # 0+2 under ten-point; every seat for himself in the base game)
    partners = r.partnership
    for i, name in enumerate(AWARDS):
        want = [
            3 if a == -2 else 2 if a == -1 else 0 if (a % 2 == 0 if partners else a == 0) else 1
            for a in award[:, i]
        ]
        assert f[name] == want, name


VALUES = {"three": 3, "five": 5}  # every other point is worth 1 (VARIANTS.md 6.2)


@pytest.mark.parametrize("which", ["smear", "ten_point", "auction_pitch", "base_game"])
def test_points_are_the_awards_the_pitchers_side_took(request, which):
    f = frame(request.getfixturevalue(which))
    for d in range(len(f["deal"])):
        took = sum(VALUES.get(a, 1) for a in AWARDS if f[a][d] == 0)
        assert took == f["points"][d]


def test_ten_point_hands_are_nine_cards_dealt_and_six_held(ten_point):
    f = frame(ten_point)
    assert {h.bit_count() for h in f["hand"]} == {9}
    assert {h.bit_count() for h in f["held"]} == {6}
    assert any(a != b for a, b in zip(f["hand"], f["held"], strict=True))  # the draw happened
    assert set(f["high_joker"]) <= {0, 1, 2} and set(f["five"]) == {3}  # no five in ten-point


# ---- the table, recounted in plain Python from the Parquet ---------------------------------------

KEYS = ("A", "K", "J", "Jk", "HJ", "LJ", "10", "5", "3", "2")


def smear_holding(hand: int, trump: int) -> str:
    """The key trumps of a smear hand, from its cards (A K J, the jick, the 2 of trump)."""
    cards = {"A": trump * 13 + 12, "K": trump * 13 + 11, "J": trump * 13 + 9}
    cards["Jk"] = (3 - trump) * 13 + 9  # the jack of the other suit of trump's colour
    cards["2"] = trump * 13
    return " ".join(k for k in KEYS if k in cards and hand >> cards[k] & 1) or "none"


def test_table_is_a_plain_recount_of_the_parquet(smear):
    f = frame(smear)
    groups = {}
    for n, hand, trump, pts in zip(f["players"], f["hand"], f["trump"], f["points"], strict=True):
        groups.setdefault((n, smear_holding(hand, trump)), []).append(pts)
    code, out, _ = cli("table", smear, "--min-count", "1", "--format", "json")
    assert code == 0
    rows = json.loads(out)
    assert len(rows) == len(groups)
    t = make_table(smear, "holding")
    for row in t.itertuples():
        pts = groups[(row.players, row.holding)]
        assert row.deals == len(pts)
        for k in range(1, 6):
            assert getattr(row, f"p{k}") == sum(p >= k for p in pts) / len(pts)
        best = max([0] + [k for k in range(2, 6) if sum(p if p >= k else -k for p in pts) > 0])
        assert row.bid == best
    by_length = make_table(smear, "length,trump")
    for row in by_length.itertuples():
        suit = "clubs diamonds hearts spades".split().index(row.trump)
        hands = [
            p
            for n, h, t, p, c in zip(
                f["players"], f["hand"], f["trump"], f["points"], f["trump_count"], strict=True
            )
            if n == row.players and t == suit and c == int(row.length)
        ]
        assert row.deals == len(hands) and row.p3 == sum(p >= 3 for p in hands) / len(hands)


def test_trump_count_counts_the_jick(smear):
    f = frame(smear)
    for hand, trump, count in zip(f["hand"], f["trump"], f["trump_count"], strict=True):
        suit = sum(1 for r in range(13) if hand >> (trump * 13 + r) & 1)
        assert count == suit + (hand >> ((3 - trump) * 13 + 9) & 1)


def test_table_text_shows_every_level(smear):
    code, out, _ = cli("table", smear, "--by", "length", "-n", "4", "--rules", "smear")
    assert code == 0 and "k=5" in out and "smear, heuristic play, seed 7" in out
    assert "k=6" not in out


def test_levels_choose_the_text_tables_columns(ten_point, tmp_path):
    code, out, _ = cli(
        "table", ten_point, "--by", "length", "--levels", "10,5,7", "--min-count", "1"
    )
    header = next(line for line in out.splitlines() if "deals" in line and "k=" in line)
    assert header.split()[-4:] == ["k=5", "k=7", "k=10", "bid"]
    t = make_table(ten_point, "length")
    first = out.splitlines()[4].split()
    row = t.iloc[0]
    assert first[1] == row.length and f"{100 * row.p7:4.1f}" in first[4]
    for argv, message in (
        (["--levels", "11"], "'11' is not a level 1-10"),
        (["--levels", "5", "--format", "csv"], "--format csv has every level"),
    ):
        code, _, err = cli("table", ten_point, *argv)
        assert code == 2 and message in err, err
    base = tmp_path / "base"  # the base game's table: the same cells, its own levels
    simulate(base, 1000, players=[4], seed=1, part_size=1000)
    code, out, _ = cli("table", base, "--levels", "3,2", "--by", "length", "--min-count", "1")
    header = next(line for line in out.splitlines() if "deals" in line and "k=" in line)
    assert code == 0 and header.split()[-3:] == ["k=2", "k=3", "bid"]
    row = make_table(base, "length").iloc[0]
    half = 100 * max(row.p2 - row.p2_lo, row.p2_hi - row.p2)
    assert f"{100 * row.p2:4.1f}±{half:.1f}" in out
    code, _, err = cli("table", base, "--levels", "5")
    assert code == 2 and "'5' is not a level 1-4" in err, err


def test_charts_points_and_bids(smear, tmp_path):
    for kind, extra in (("points", []), ("bids", ["--min-count", "50"])):
        code, out, _ = cli(
            "chart", smear, "--kind", kind, "--out", tmp_path / f"{kind}.png", *extra
        )
        assert code == 0 and (tmp_path / f"{kind}.png").stat().st_size > 10_000


# ---- exact checks, heatmap and players under a family ----------------------------------------

# The preset's trump order written out by hand (VARIANTS 4.7), apart from game/trumps.py:
# A K Q J, the jick, the high and low jokers, then 10 down to 2.
ORDER = ["A", "K", "Q", "J", "Jk", "HJ", "LJ", "10", "9", "8", "7", "6", "5", "4", "3", "2"]


def highest_by_hand(hand: int, trump: int, jick: bool, jokers: int) -> str:
    names = {trump * 13 + r: "23456789TJQKA"[r].replace("T", "10") for r in range(13)}
    if jick:
        names[(3 - trump) * 13 + 9] = "Jk"
    for j, name in ((52, "HJ"), (53, "LJ"))[:jokers]:
        names[j] = name
    held = [names[c] for c in names if hand >> c & 1]
    return min(held, key=ORDER.index) if held else "none"


@pytest.mark.parametrize("which", ["smear", "ten_point", "auction_pitch"])
def test_the_high_feature_is_the_highest_trump_dealt_recounted(request, which):
    run = request.getfixturevalue(which)
    r = read_manifest(run).rules
    f = frame(run)
    counts: dict = {}
    for n, hand, trump, c in zip(
        f["players"], f["hand"], f["trump"], f["trump_count"], strict=True
    ):
        key = (n, str(c), highest_by_hand(hand, trump, r.jick, r.jokers))
        counts[key] = counts.get(key, 0) + 1
    t = make_table(run, "length,high")
    got = {(row.players, row.length, row.high): row.deals for row in t.itertuples()}
    assert got == counts


def test_family_checks_have_the_hand_worked_exact_values(smear, ten_point, auction_pitch, tmp_path):
    sm = exact_checks(smear)
    exact = {(r.players, r.check): r.exact for r in sm.itertuples()}
    # 6 cards of 52; a king without the ace loses High to an ace dealt to one of the
    # n - 1 others: each of the 46 unseen cards is dealt with probability 6(n-1)/46.
    assert exact[(4, "the ace of spades in the pitcher's hand as dealt")] == pytest.approx(6 / 52)
    assert exact[(3, "king of trump dealt without the ace wins High")] == pytest.approx(34 / 46)
    assert exact[(4, "king of trump dealt without the ace wins High")] == pytest.approx(28 / 46)
    assert exact[(4, "the 2 of trump held wins Low")] == 1.0  # smear: low=dealt
    tp = exact_checks(ten_point)
    checks = set(tp.check)
    assert "the low joker in the pitcher's hand as dealt" in checks  # two jokers, 54 cards
    assert tp[tp.check.str.startswith("the high joker")].exact.iloc[0] == pytest.approx(9 / 54)
    assert not any(c.startswith("king") for c in checks)  # the rob and the draw: no such value
    setback = tmp_path / "setback"
    simulate(setback, 3000, players=[4], seed=SEED, rules="setback", part_size=3000, threads=2)
    sb = exact_checks(setback)
    king = sb[sb.check.str.startswith("king")].iloc[0]
    assert king.exact == pytest.approx(1 - 2 * 6 / 46)  # the partner's ace is the side's
    assert "the 2 of trump held wins Low" not in set(sb.check)  # setback: low=captured
    ap = exact_checks(auction_pitch)  # solo: the king loses High to an ace of any of 3 others
    king = ap[ap.check.str.startswith("king")].iloc[0]
    assert king.exact == pytest.approx(1 - 3 * 6 / 46) and king.deals > 0
    assert "the 2 of trump held wins Low" not in set(ap.check)  # low=captured
    for df in (sm, tp, sb, ap):
        sure = df[df.exact == 1.0]
        assert (sure.estimate == 1.0).all() and sure.inside.all()


def test_family_checks_recount_the_parquet(smear):
    f = frame(smear)
    df = exact_checks(smear, 4)
    ace = 3 * 13 + 12
    hands = [h for n, h in zip(f["players"], f["hand"], strict=True) if n == 4]
    row = df[df.check.str.startswith("the ace of spades")].iloc[0]
    assert row.deals == len(hands) and row.estimate == sum(h >> ace & 1 for h in hands) / len(hands)
    kings = [
        hi
        for n, keys, hi in zip(f["players"], f["keys"], f["high"], strict=True)
        if n == 4 and keys & 2 and not keys & 1  # K dealt, A not (manifest.KEY_NAMES)
    ]
    row = df[df.check.str.startswith("king")].iloc[0]
    assert row.deals == len(kings) and row.estimate == kings.count(0) / len(kings)


def test_table_checks_of_a_family_run(smear):
    code, out, _ = cli("table", smear, "--checks")
    assert code == 0 and "king of trump dealt without the ace wins High" in out
    code, out, _ = cli("table", smear, "--checks", "--format", "csv")
    assert code == 0 and out.splitlines()[0].startswith("players,check,deals,estimate")


def test_heatmap_cells_are_the_tables(smear, tmp_path):
    from pitchsim.study.charts import heatmap_data

    data = heatmap_data(open_run(smear), 4, 50)
    assert data.meta["levels"] == [2, 3] and data.meta["rows"][0] == "A"
    assert "Jk" in data.meta["rows"]  # smear's jick has its row
    t = make_table(smear, "length,high", [4], min_count=50)
    assert len(data.cells) == 2 * len(t[t.high != "none"])
    for c in data.cells.itertuples():
        row = t[(t.length == str(c.length)) & (t.high == c.high)].iloc[0]
        assert c.value == getattr(row, f"p{c.k}") and c.deals == row.deals
    code, _, _ = cli(
        "chart", smear, "--kind", "heatmap", "--out", tmp_path / "h.png", "-n", "3",
        "--levels", "3,4", "--min-count", "50",
    )  # fmt: skip
    assert code == 0 and (tmp_path / "h.png").stat().st_size > 10_000


def test_players_chart_points_are_the_tables(smear, tmp_path):
    from pitchsim.study.charts import players_data

    data = players_data(open_run(smear), ["A-J", "K"], 50)
    assert data.meta["levels"] == [2, 3, 4, 5]
    t = make_table(smear, "holding", min_count=50)
    assert set(data.cells.holding) == {"A-J", "K"}
    for c in data.cells.itertuples():
        row = t[(t.players == c.players) & (t.holding == c.holding.replace("-", " "))].iloc[0]
        assert c.value == getattr(row, f"p{c.k}") and c.deals == row.deals
    default = players_data(open_run(smear), None, 50)  # the most frequent holdings
    freq = make_table(smear, "holding").groupby("holding").deals.sum()
    top = set(freq.sort_values(ascending=False).index[:6])
    assert {h.replace("-", " ") for h in default.cells.holding} <= top
    code, _, _ = cli(
        "chart", smear, "--kind", "players", "--out", tmp_path / "p.png", "--min-count", "50"
    )
    assert code == 0 and (tmp_path / "p.png").stat().st_size > 10_000


@pytest.mark.parametrize("which", ["smear", "auction_pitch"])
def test_bids_chart_cells_are_the_tables(request, which):
    from pitchsim.study.charts import bids_data

    run = request.getfixturevalue(which)
    data = bids_data(open_run(run), 50)
    assert len(data.cells)
    t = make_table(run, "holding,length", min_count=50)
    for c in data.cells.itertuples():
        row = t[(t.players == c.players) & (t.holding == c.holding) & (t.length == str(c.length))]
        assert (
            len(row) == 1 and int(row.bid.iloc[0]) == c.value and int(row.deals.iloc[0]) == c.deals
        )


def open_run(path):
    from pitchsim.study.analysis import Run

    return Run(path)


# ---- resume ---------------------------------------------------------------------------------------


def test_resume_redoes_a_damaged_and_a_pending_part_to_the_same_bytes(smear, tmp_path):
    import shutil

    run = tmp_path / "run"
    shutil.copytree(smear, run)
    want = {r.part.file: (run / r.part.file).read_bytes() for r in read_manifest(run).parts}
    (run / "part-000001.parquet").write_bytes(b"damaged")
    doc = json.loads((run / MANIFEST).read_text())
    doc["parts"][4].update(
        status="pending", rows=None, bytes=None, sha256=None, fast_checksums=None
    )
    (run / MANIFEST).write_text(json.dumps(doc))
    (run / "part-000004.parquet").unlink()
    code, out, err = cli("simulate", "--resume", "--out", run, "--quiet")
    assert code == 0 and "resumed: played 5,000 deals (2 parts)" in out
    assert {f: (run / f).read_bytes() for f in want} == want


def test_resume_under_other_rules_is_refused(smear):
    code, _, err = cli("simulate", "--resume", "--out", smear, "--rules", "ten-point")
    assert code == 2 and "was started with --rules smear, not ten-point" in err


# ---- refusals: one line, exit 2 -------------------------------------------------------------------


@pytest.mark.parametrize(
    "argv, message",
    [
        (["table", "{run}", "--rules", "ten-point"], "played under --rules smear, not ten-point"),
        (["table", "{run}", "--rules", "smear,target=15"], "not smear,target=15"),
        (
            ["chart", "{run}", "--kind", "bids", "--out", "{tmp}/c.png", "--rules", "setback"],
            "not setback",
        ),
        (["table", "{run}", "--checks", "--levels", "2"], "leave out --by, --min-count and"),
        (  # the base game's trump pattern: no meaning where the jick is a trump (rules 0.4)
            ["table", "{run}", "--by", "pattern"],
            "feature 'pattern' reads the trump suit's ranks: under smear the jick",
        ),
        (["table", "{run}", "--by", "jack_dealt"], "unknown feature 'jack_dealt' for a run"),
        (
            ["chart", "{run}", "--kind", "heatmap", "--out", "{tmp}/c.png", "--levels", "2,9"],
            "give distinct levels from 1 to 5",
        ),
        (
            ["chart", "{run}", "--kind", "heatmap", "--out", "{tmp}/c.png", "--levels", "2,3,4"],
            "the heatmap shows two levels",
        ),
        (
            ["chart", "{run}", "--kind", "heatmap", "--out", "{tmp}/c.png", "--levels", "x"],
            "give whole numbers",
        ),
        (
            ["chart", "{run}", "--kind", "players", "--out", "{tmp}/c.png", "--holdings", "A-Z"],
            "holding 'A-Z': name key trumps once each",
        ),
        (
            ["chart", "{run}", "--kind", "points", "--out", "{tmp}/c.png", "--levels", "2"],
            "--levels does nothing for --kind points",
        ),
        (["chart", "{run}", "--kind", "nope", "--out", "{tmp}/c.png"], "unknown chart kind"),
        (
            [
                "simulate",
                "--rules",
                "smear",
                "--deals",
                "10",
                "--policy",
                "rollout",
                "--out",
                "{tmp}/r",
            ],
            "random or heuristic",
        ),
        (
            ["simulate", "--rules", "setback", "--deals", "10", "-n", "3", "--out", "{tmp}/r"],
            "setback is played by 4 players",
        ),
        (["simulate", "--rules", "smear,jokers=5", "--deals", "10", "--out", "{tmp}/r"], "jokers"),
    ],
)
def test_refusals_are_one_line(smear, tmp_path, argv, message):
    argv = [a.replace("{run}", str(smear)).replace("{tmp}", str(tmp_path)) for a in argv]
    code, out, err = cli(*argv)
    assert code == 2 and message in err, err
    assert not (tmp_path / "r").exists()


def test_a_base_run_refuses_family_rules(tmp_path):
    run = tmp_path / "base"
    simulate(run, 2000, players=[4], seed=1, part_size=1000)
    code, _, err = cli("table", run, "--rules", "smear")
    assert code == 2 and "played under --rules auction-pitch, not smear" in err


def test_the_one_table_checks_and_charts_read_a_preset_run_by_its_own_columns(smear):
    """make_table, exact_checks and chart_data take a preset run as they take a base
    run: grouped by the preset's default (holding), points 0 .. the preset's total."""
    from pitchsim.study.charts import chart_data

    assert make_table(smear).equals(make_table(smear, "holding"))
    assert "pts4" in make_table(smear).columns and "p4" in make_table(smear).columns
    assert "the ace of trump held wins High" in set(exact_checks(smear).check)
    points = chart_data(smear, "points").cells
    assert sorted(points.points.unique()) == list(range(Rules.parse("smear").max_bid + 1))


def test_a_family_run_on_dask_workers_gives_the_local_bytes(smear, tmp_path):
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None, silence_logs=50
    ) as c:
        run = tmp_path / "dask"
        simulate(
            run, DEALS, players=[3, 4], seed=SEED, rules="smear", part_size=PART,
            scheduler=c.scheduler_address,
        )  # fmt: skip
    for a, b in zip(read_manifest(smear).parts, read_manifest(run).parts, strict=True):
        assert (smear / a.part.file).read_bytes() == (run / b.part.file).read_bytes()


def test_the_table_help_names_the_family_features():
    from pitchsim.cli.table import PRESET_BY, PRESET_FEATURE_NAMES
    from pitchsim.study.analysis import DEFAULT_BY, PRESET_FEATURES

    assert PRESET_FEATURE_NAMES == tuple(PRESET_FEATURES) and PRESET_BY == DEFAULT_BY


def test_the_reports_holding_table_is_a_plain_recount_of_the_sampled_hands():
    """make_by_holding (the report's table of hands played outside a run) goes through
    the one summarize: P(make k) and the bid, recounted from the points of each holding
    (smear: bids 2-5, so a bid of 1 is never the answer)."""
    from pitchsim.study.analysis import holdings, make_by_holding
    from pitchsim.study.exact import sample_hands

    s = sample_hands("smear", 4, 3000, seed=5)
    h = holdings(s)
    t = make_by_holding(s, min_count=40)
    assert len(t) and list(t.deals) == sorted(t.deals, reverse=True)
    assert "score1" not in t.columns and "p1" in t.columns
    for row in t.itertuples():
        pts = h.points[h.holding == row.holding].tolist()
        assert row.deals == len(pts) >= 40
        for k in range(1, 6):
            assert getattr(row, f"p{k}") == sum(p >= k for p in pts) / len(pts)
        best = max([0] + [k for k in range(2, 6) if sum(p if p >= k else -k for p in pts) > 0])
        assert row.bid == best
