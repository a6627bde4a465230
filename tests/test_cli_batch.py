"""`pitchsim simulate`, `table` and `chart`: output, progress on stderr, and bad input as
one line + exit 2, never a traceback."""

import json

import pytest
from clirun import cli

from pitchsim.cli import main, progress


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    path = tmp_path_factory.mktemp("cli") / "run"
    with pytest.raises(SystemExit) as e:
        main(
            [
                "simulate",
                "--deals",
                "12000",
                "--players",
                "3,4",
                "--seed",
                "41",
                "--out",
                str(path),
                "--part-size",
                "5000",
                "--quiet",
            ]
        )
    assert e.value.code == 0
    return path


def test_simulate_prints_a_summary_and_progress(capsys, tmp_path, monkeypatch):
    monkeypatch.setattr(progress, "SHOW_AFTER", 0.0)
    code, out, err = cli(
        "simulate",
        "--deals",
        "3000",
        "-n",
        "3-4",
        "--seed",
        "5",
        "--out",
        tmp_path / "r",
        "--part-size",
        "1000",
    )
    assert code == 0
    assert "3,000 deals x 3,4 players in 6 parts" in out and "seed 5" in out
    assert "deals/s" in out and "deals" in err  # the tqdm bar
    code, out, err = cli("simulate", "--out", tmp_path / "r", "--resume")
    assert code == 0 and "nothing to do" in out


def test_quiet_silences_stderr(capsys, tmp_path, monkeypatch):
    monkeypatch.setattr(progress, "SHOW_AFTER", 0.0)
    code, out, err = cli(
        "simulate", "--deals", "2000", "--seed", "5", "--out", tmp_path / "q", "--quiet"
    )
    assert code == 0 and err == "" and "2,000 deals x 4 players" in out


def test_resume_finishes_a_damaged_cli(made, tmp_path):
    copy = tmp_path / "copy"
    copy.mkdir()
    for f in made.iterdir():
        (copy / f.name).write_bytes(f.read_bytes())
    (copy / "part-000001.parquet").write_bytes(b"PAR1")
    code, out, err = cli("simulate", "--out", copy, "--resume")
    assert code == 0 and "(1 part)" in out and "truncated" in err
    assert (copy / "part-000001.parquet").read_bytes() == (
        made / "part-000001.parquet"
    ).read_bytes()


def test_table_text(capsys, made):
    code, out, err = cli("table", made, "-n", "4", "--by", "length,high", "--min-count", "300")
    assert code == 0 and err == ""
    assert "by players, length, high" in out and "k=4" in out
    line = next(s for s in out.splitlines() if s.split()[:3] == ["4", "2", "A"])
    assert line.split()[4].startswith("100.0±")  # the ace of trump always wins High (0.7)
    code, out, err = cli("table", made, "-n", "4", "--min-count", "300")
    assert code == 0 and "by players, holding" in out  # the default: key trumps dealt


def test_table_csv_json_and_checks(capsys, made):
    code, out, _ = cli("table", made, "--by", "jack,deuce,ten", "--format", "csv")
    assert code == 0
    header = out.splitlines()[0].split(",")
    assert header[:4] == ["players", "jack", "deuce", "ten"] and "p3_hi" in header
    code, out, _ = cli("table", made, "--by", "holding", "--format", "json", "--min-count", "50")
    rows = json.loads(out)
    assert rows and {"players", "holding", "deals", "p1", "p1_lo", "bid"} <= set(rows[0])
    code, out, _ = cli("table", made, "--checks")
    assert code == 0 and "unseen jack of trump dealt" in out and "ace of spades" in out
    code, out, _ = cli("table", made, "--checks", "--format", "json")
    assert len(json.loads(out)) == 8  # 4 checks x 2 player counts


def test_chart(capsys, made, tmp_path):
    out_file = tmp_path / "points.png"
    code, out, _ = cli("chart", made, "--kind", "points", "--out", out_file)
    assert code == 0 and out_file.read_bytes()[:4] == b"\x89PNG" and "wrote" in out
    code, out, _ = cli(
        "chart",
        made,
        "--kind",
        "players",
        "--holdings",
        "A-J,K",
        "--min-count",
        "20",
        "--out",
        tmp_path / "p.svg",
    )
    assert code == 0


def test_unreachable_scheduler(capsys, tmp_path, monkeypatch):
    from pitchsim.study import batch

    monkeypatch.setattr(batch, "CONNECT_TIMEOUT", "0.5s")
    code, _, err = cli(
        "simulate",
        "--deals",
        "100",
        "--out",
        tmp_path / "r",
        "--scheduler",
        "tcp://127.0.0.1:9",
        "--quiet",
    )
    assert code == 2 and "cannot reach the Dask scheduler" in err and err.count("\n") == 1


def corrupt(made, tmp_path, how):
    bad = tmp_path / how
    bad.mkdir()
    for f in made.iterdir():
        (bad / f.name).write_bytes(f.read_bytes())
    part = bad / "part-000002.parquet"
    if how == "truncated":
        part.write_bytes(part.read_bytes()[: part.stat().st_size // 2])
    elif how == "manifest":
        (bad / "manifest.json").write_text('{"format": "pitchsim-run/1", "parts": [')
    return bad


@pytest.mark.parametrize(
    "args, message",
    [
        (["table", "{missing}"], "does not exist"),
        (["table", "{empty}"], "no manifest.json"),
        (["table", "{manifest}"], "corrupt"),
        (["table", "{truncated}"], "truncated"),
        (["table", "{made}", "--by", "length,colour"], "unknown feature 'colour'"),
        (["table", "{made}", "--format", "xml"], "--format"),
        (["table", "{made}", "-n", "7"], "no 7-player deals"),
        (["chart", "{made}", "--kind", "pie", "--out", "{tmp}/x.png"], "unknown chart kind"),
        (["chart", "{made}", "--kind", "points", "--out", "{tmp}/x.jpg"], ".png or .svg"),
        (["chart", "{truncated}", "--kind", "bids", "--out", "{tmp}/x.png"], "truncated"),
        (["simulate", "--out", "{made}", "--resume", "--seed", "1"], "started with --seed 41"),
        (["simulate", "--resume"], "--resume needs --out"),
        (["simulate", "--out", "{empty}", "--resume"], "no manifest.json"),
        (["simulate", "--deals", "10", "--out", "{made}"], "already holds a run"),
        (["simulate", "--deals", "10", "--players", "3,9", "--out", "{tmp}/n"], "players must be"),
        (["simulate", "--players", "4"], "--deals is needed"),
        (["simulate", "--deals", "-5"], "deals must be positive"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(capsys, made, tmp_path, args, message):
    (tmp_path / "empty").mkdir()
    places = {
        "missing": tmp_path / "nope",
        "empty": tmp_path / "empty",
        "made": made,
        "tmp": tmp_path,
    }
    for how in ("manifest", "truncated"):
        if any("{" + how + "}" in a for a in args):
            places[how] = corrupt(made, tmp_path, how)
    code, out, err = cli(*[a.format(**places) for a in args])
    assert code == 2, err
    assert message in err and "Traceback" not in err
    assert err.startswith("pitchsim: error:") and err.count("\n") == 1


def test_ctrl_c_keeps_the_finished_parts_and_says_how_to_resume(capsys, tmp_path, monkeypatch):
    from pitchsim.study import batch

    real, calls = batch.simulate_part, []

    def stopped_in_part_three(*args, **kwargs):
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(batch, "simulate_part", stopped_in_part_three)
    out_dir = tmp_path / "r"
    code, out, err = cli(
        "simulate",
        "--deals",
        "5000",
        "--seed",
        "5",
        "--out",
        out_dir,
        "--part-size",
        "1000",
        "--quiet",
    )
    assert code == 130 and out == ""
    assert err == (
        f"pitchsim: interrupted: 2 of 5 parts of {out_dir} are done and kept; "
        f"`pitchsim simulate --resume --out {out_dir}` finishes the run\n"
    )
    monkeypatch.setattr(batch, "simulate_part", real)
    code, out, _ = cli("simulate", "--resume", "--out", out_dir, "--quiet")
    assert code == 0 and "3 parts" in out


def test_ctrl_c_elsewhere_is_one_line_and_exit_130(capsys, monkeypatch):
    from pitchsim.advice import odds  # what the command calls

    def stopped(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(odds, "bid_odds", stopped)
    code, out, err = cli("bid-odds", "AH KH 2H 9C 7D 3S")
    assert code == 130 and out == "" and err == "pitchsim: interrupted\n"


def test_unwritable_output_is_one_line_not_a_traceback(capsys, tmp_path, made):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    for argv in (
        ["simulate", "--deals", "100", "--seed", "1", "--out", blocker / "run", "--quiet"],
        ["chart", made, "--kind", "points", "--out", blocker / "chart.png"],
    ):
        code, out, err = cli(*argv)
        assert code == 2 and out == ""
        assert err.startswith("pitchsim: error:") and err.count("\n") == 1
        assert str(blocker) in err
