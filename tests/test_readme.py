"""The README stays true: its shell examples run as written, its worked example prints
exactly what the tool prints, its Python session runs as a doctest, and its links stay
inside the repository.  Also what it promises about the rules and the kernel cache."""

from __future__ import annotations

import doctest
import os
import re
import shlex
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from pitchsim.game.rules import BASE_FIELDS, Rules
from pitchsim.game.variants import BY_KEY, VARIANTS, rules_help

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()
BIN = Path(sys.executable).parent  # where this environment's `pitchsim` lives

# Lines of the README's ```sh blocks that are not run here, and why.
NOT_RUN = {
    "python3 scripts/dev.py": "the set-up itself: this suite is what it runs",
    "source .venv/bin/activate": "changes the shell; the tests put the venv's bin on PATH instead",
    ".venv/bin/ruff": "style, not behaviour (CI's lint step runs it)",
}


def blocks(text: str, lang: str) -> list[str]:
    return re.findall(rf"^```{lang}\n(.*?)^```", text, flags=re.M | re.S)


def commands(text: str) -> list[str]:
    out = []
    for block in blocks(text, "sh"):
        for line in block.splitlines():
            line = re.sub(r"\s+#\s.*$", "", line).strip()  # a trailing "# comment"
            if line and not line.startswith("#"):
                out.append(line)
    return out


def env() -> dict:
    e = dict(os.environ)
    e["PATH"] = f"{BIN}{os.pathsep}{e.get('PATH', '')}"
    e["PITCHSIM_COMPILE_NOTICE"] = "0"
    return e


def _run_in_order(cmds: list[str], cwd: Path) -> list[str]:
    """Run ``cmds`` one after another; the failures, each with its stderr."""
    failed = []
    for cmd in cmds:
        assert "cache --clear" not in cmd  # would delete other checkouts' caches here
        p = subprocess.run(
            ["bash", "-c", cmd], cwd=cwd, env=env(), capture_output=True, text=True, timeout=300
        )
        if p.returncode != 0 or "Traceback" in p.stderr:
            failed.append(f"{cmd}\n{p.stderr}")
    return failed


def test_every_shell_example_runs_as_written(tmp_path):
    cmds = [c for c in commands(README) if not any(c.startswith(p) for p in NOT_RUN)]
    assert len(cmds) >= 15 and any(c.startswith("pitchsim simulate") for c in cmds)
    # Two queues side by side (two cores): the study run and what reads it, in README
    # order, and every other example.
    study = [c for c in cmds if "runs/study" in c]
    others = [c for c in cmds if c not in study]
    with ThreadPoolExecutor(2) as pool:
        failed = sum(pool.map(_run_in_order, [study, others], [tmp_path, tmp_path]), [])
    assert not failed, "\n\n".join(failed)
    assert (tmp_path / "heat5.png").read_bytes()[:4] == b"\x89PNG"
    assert (tmp_path / "holdings.csv").read_text().startswith("players,ranks")
    assert (tmp_path / "odds.json").read_text().lstrip().startswith("{")


def test_worked_example_is_what_the_tool_prints():
    example = next(b for b in blocks(README, "text") if b.startswith("$ pitchsim bid-odds"))
    first, expected = example.split("\n", 1)
    argv = shlex.split(first[2:])
    p = subprocess.run(
        [str(BIN / "pitchsim"), *argv[1:]], env=env(), capture_output=True, text=True, timeout=300
    )
    assert p.returncode == 0, p.stderr
    assert p.stdout == expected  # byte for byte


def test_python_session_runs():
    (session,) = blocks(README, "pycon")
    test = doctest.DocTestParser().get_doctest(session, {}, "README", "README.md", 0)
    runner = doctest.DocTestRunner()
    runner.run(test, out=lambda s: pytest.fail(s))
    assert runner.summarize(verbose=False).attempted >= 10


@pytest.mark.parametrize("doc", ["README.md", "docs/rules.md"])
def test_links_stay_in_the_repository(doc):
    text = (ROOT / doc).read_text()
    assert "../shared" not in text and "RULES.md" not in text
    for target in re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", text):
        if re.match(r"[a-z]+://", target):
            continue
        path = (ROOT / doc).parent / target
        assert path.resolve().is_relative_to(ROOT), target
        assert path.exists(), target
    for anchor in re.findall(r"\]\(#([^)]+)\)", text):
        headings = {
            re.sub(r"[^a-z0-9 -]", "", h.lower()).replace(" ", "-")
            for h in re.findall(r"^#+ (.*)$", text, flags=re.M)
        }
        assert anchor in headings, anchor


def test_make_reports_runs_outside_the_venv():
    base = getattr(sys, "_base_executable", None)
    venv_python = ROOT / ".venv" / "bin" / "python"
    if (
        not base
        or not venv_python.exists()
        or Path(base).resolve() == Path(sys.executable).resolve()
    ):
        pytest.skip("needs the project's .venv and a Python outside it")
    clean = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}
    p = subprocess.run(
        [base, str(ROOT / "scripts" / "make_reports.py"), "--help"],
        env=clean,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert p.returncode == 0, p.stderr
    assert "deals per player count" in p.stdout and "1.5 GB" in p.stdout


# ---- the rules, as README and docs/rules.md describe them ------------------------------


def test_every_rule_option_is_described_everywhere():
    fields = {f.replace("_", "-") for f in BASE_FIELDS}  # RULES.md's own options
    assert {v.key for v in VARIANTS} == fields
    doc = (ROOT / "docs" / "rules.md").read_text()
    help_text = rules_help()
    for v in VARIANTS:
        assert f"| `{v.key}` | `{v.values[0]}` |" in doc, v.key
        assert f"{v.key}={'|'.join(v.values)}" in help_text
        assert f"`{v.key}`" in doc
        # the base value listed first is the default, and every value listed is accepted
        base = Rules().describe()[v.key]
        assert str(base).lower() == v.values[0]
        for value in v.values:
            if value != "N":
                assert str(Rules.parse(f"{v.key}={value}").describe()[v.key]).lower() == value
        assert set(v.meaning) == set(v.values)


def test_rules_command_prints_the_rules_in_force():
    import json

    p = subprocess.run(
        [str(BIN / "pitchsim"), "rules", "--rules", "low=dealt,target=11"],
        env=env(),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert p.returncode == 0
    assert re.search(r"^\* low\s+= dealt\s+Low goes to the player who was dealt", p.stdout, re.M)
    assert re.search(r"^\* target\s+= 11\s+played to 11 points", p.stdout, re.M)
    assert re.search(r"^  follow\s+= trump", p.stdout, re.M)
    p = subprocess.run(
        [str(BIN / "pitchsim"), "rules", "--partnership", "--json"],
        env=env(),
        capture_output=True,
        text=True,
        timeout=60,
    )
    doc = json.loads(p.stdout)
    assert doc["rules"]["partnership"] is True and doc["changed"] == ["partnership"]
    assert doc["meaning"]["partnership"] == BY_KEY["partnership"].meaning["true"]
    p = subprocess.run(
        [str(BIN / "pitchsim"), "rules", "--rules", "low=nobody"],
        env=env(),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert p.returncode == 2 and p.stderr.startswith("pitchsim: error: ")


# ---- the kernel cache ------------------------------------------------------------------


def _tiny_kernel(
    cache_home: Path, code="from pitchsim.kernels.rng import deal_key; deal_key(1, 2)"
):
    """Call one small cached kernel in a fresh process whose cache is under cache_home."""
    e = env()
    e.pop("NUMBA_CACHE_DIR", None)
    e["XDG_CACHE_HOME"] = str(cache_home)
    e["PITCHSIM_COMPILE_NOTICE"] = "1"
    return subprocess.run(
        [sys.executable, "-c", code], env=e, capture_output=True, text=True, timeout=300
    )


def test_compile_notice_once_when_cold_and_stale_folders_pruned(tmp_path):
    root = tmp_path / "pitchsim" / "numba"
    old, recent = root / "0000000000000000", root / "1111111111111111"
    for d in (old, recent):
        d.mkdir(parents=True)
        (d / "x.nbi").write_bytes(b"x" * 100)
    week_ago = time.time() - 7 * 86400
    os.utime(old, (week_ago, week_ago))
    cold = _tiny_kernel(tmp_path)
    assert cold.returncode == 0, cold.stderr
    assert cold.stderr.count("compiling pitchsim's kernels, once") == 1
    assert not old.exists() and recent.exists()  # unused for 7 days: pruned; in use: kept
    current = [d for d in root.iterdir() if d != recent]
    assert len(current) == 1 and any(current[0].iterdir())
    warm = _tiny_kernel(tmp_path)
    assert warm.returncode == 0 and warm.stderr == ""  # quiet when warm
    other = "import pitchsim.kernels, numba; numba.njit(lambda x: x + 1)(1)"
    theirs = _tiny_kernel(tmp_path, other)  # a compile of someone else's numba code
    assert theirs.returncode == 0 and theirs.stderr == ""

    e = env()
    e.pop("NUMBA_CACHE_DIR", None)
    e["XDG_CACHE_HOME"] = str(tmp_path)
    shown = subprocess.run(
        [str(BIN / "pitchsim"), "cache"], env=e, capture_output=True, text=True, timeout=60
    )
    assert (
        shown.returncode == 0 and "(this version)" in shown.stdout and recent.name in shown.stdout
    )
    cleared = subprocess.run(
        [str(BIN / "pitchsim"), "cache", "--clear"],
        env=e,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert cleared.returncode == 0 and f"deleted {recent}" in cleared.stdout
    assert not recent.exists() and current[0].exists()
