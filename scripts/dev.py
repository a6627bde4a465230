#!/usr/bin/env python3
"""Set up pitchsim in ./.venv and run something: the two quick-start commands.

    python3 scripts/dev.py demo    # set up, then a real bid-odds example
    python3 scripts/dev.py test    # set up, then the whole test suite (what CI runs)

Needs only Python 3.11+: it creates the virtual environment and installs the package
with its test dependencies (idempotent: a second run installs nothing new), then runs
``pitchsim cache warm``: every kernel a player's commands run is compiled once, up front,
under one progress bar (minutes on a new machine; seconds when the cache is warm
already), so that no later command stops to compile; ``test`` then compiles the kernels
only the tests run (tests/warm_kernels.py) and runs the suite.  ``test`` with arguments
runs exactly what was asked, with no warm-up.
"""

from __future__ import annotations

import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")


def run(*cmd: str | Path) -> None:
    print("+", " ".join(str(c) for c in cmd), flush=True)
    subprocess.run([str(c) for c in cmd], cwd=ROOT, check=True)


def workers() -> str:
    return str(min(os.cpu_count() or 1, 4))


def setup(warm: bool = True) -> int:
    """Install; then, with ``warm``, compile every kernel once (``pitchsim cache warm``).
    Returns warm's exit status: a command that fails to warm is named there, and the
    caller still runs what was asked (its own errors say more) and fails at the end."""
    if sys.version_info < (3, 11):  # noqa: UP036  (runs under any python3)
        sys.exit(f"pitchsim needs Python 3.11+, this is {sys.version.split()[0]}")
    if not (BIN / "python").exists():
        print(f"+ creating {VENV}", flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
    run(
        BIN / "python",
        "-m",
        "pip",
        "install",
        "--quiet",
        "--disable-pip-version-check",
        "-e",
        ".[test]",
    )
    if not warm:
        return 0
    cmd = [BIN / "pitchsim", "cache", "warm", "--jobs", workers()]
    print("+", " ".join(str(c) for c in cmd), flush=True)
    return subprocess.run([str(c) for c in cmd], cwd=ROOT).returncode


def warm_test_kernels() -> None:
    """Compile the kernels only the tests run (tests/warm_kernels.py), once, so that
    the suite's workers load them rather than each compiling them.  A failure is left
    to the tests that run them to report."""
    cmd = [BIN / "python", ROOT / "tests" / "warm_kernels.py"]
    print("+", " ".join(str(c) for c in cmd), flush=True)
    subprocess.run([str(c) for c in cmd], cwd=ROOT)


def main() -> None:
    what = sys.argv[1] if len(sys.argv) > 1 else "test"
    extra = sys.argv[2:]
    if what not in ("demo", "test"):
        sys.exit(f"usage: {sys.argv[0]} demo|test [args...]")
    # test with arguments: exactly what was asked, no warm-up
    warmed = setup(warm=not (what == "test" and extra))
    try:
        if what == "demo":
            run(BIN / "pitchsim", "bid-odds", "AH KH 2H 9C 7D 3S", "--players", "5", *extra)
        elif extra:
            run(BIN / "python", "-m", "pytest", *extra)
        else:
            # The whole suite on every core, a test file to a worker (its module's
            # fixtures built once), the slowest files first (tests/conftest.py), after
            # set-up compiled the kernels once, side by side, and then the kernels only
            # the tests run (left to the tests, both workers compile the same kernels
            # at the start, and each test's subprocess its own).
            warm_test_kernels()
            spread = [
                "-n",
                workers(),
                "--dist",
                "loadfile",
                "--no-loadscope-reorder",
                "--durations=25",
            ]
            run(BIN / "python", "-m", "pytest", *spread)
    except subprocess.CalledProcessError as e:
        sys.exit(e.returncode)
    if warmed:  # a command failed to warm (named above): what ran passed, the run fails
        sys.exit(warmed)


if __name__ == "__main__":
    main()
