"""The one way the tests run ``pitchsim ARGV`` in this process.

``cli(*argv)`` gives ``(exit code, stdout, stderr)`` and checks what every command owes
its user whatever the arguments: no traceback, and a failure is exactly one line
``pitchsim: error: ...`` with exit code 2, or ``pitchsim: interrupted...`` with
130 after Ctrl-C (docs/architecture.md, util/errors.py).  ``refused(*argv)`` is the
failure alone, returned as that line; ``run(*argv)`` is ``cli`` as a finished process
(``.returncode``, ``.stdout``, ``.stderr``), in a folder of the test's choosing, for tests
that check the outcome themselves.  (Tests that need the program as a separate process,
for a closed stdin, a terminal, signals or the installed entry point, use
``subprocess``: each such run pays Python's and numba's start, a second or two.)
"""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
import sys
import time

from pitchsim.cli import main


def cli(
    *argv,
    stdin: str | None = None,
    one_line: bool = True,
    seconds: float | None = None,
    interrupted: bool = True,
) -> tuple[int, str, str]:
    """``pitchsim ARGV`` in this process: (exit code, stdout, stderr).  With
    ``one_line`` (the default) a failure must be one error line and exit code 2 (or,
    ``interrupted`` allowed, 130 after Ctrl-C); ``seconds``: the run must take less."""
    out, err = io.StringIO(), io.StringIO()
    old_stdin = sys.stdin
    if stdin is not None:
        sys.stdin = io.StringIO(stdin)
    start = time.monotonic()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                main([str(a) for a in argv])
            except SystemExit as e:
                code = 0 if e.code is None else e.code
            else:
                raise AssertionError(f"{argv}: main returned without exiting")  # it always exits
    finally:
        sys.stdin = old_stdin
    took = time.monotonic() - start
    assert seconds is None or took < seconds, f"{argv} took {took:.1f} s"
    e = err.getvalue()
    assert "Traceback" not in e and "Exception ignored" not in e, e
    if one_line and code != 0:
        # bad input: exit 2; stopped by Ctrl-C: exit 130 (util/errors.py); one line each
        start = {2: "pitchsim: error: ", 130: "pitchsim: interrupted"}
        if not interrupted:
            del start[130]
        assert code in start, (argv, code, e)
        assert e.startswith(start[code]) and e.count("\n") == 1, (argv, e)
    return code, out.getvalue(), e


def refused(*argv, words: str | None = None) -> str:
    """The one error line of ``pitchsim ARGV``, which must fail (exit 2) and print
    nothing on stdout; ``words`` must be in it."""
    code, out, err = cli(*argv)
    assert code == 2, (argv, out, err)
    assert out == "", (argv, out)
    if words is not None:
        assert words in err, (argv, err)
    return err.strip()


def run(*argv, stdin: str | None = None, cwd=None) -> subprocess.CompletedProcess:
    """``pitchsim ARGV`` in this process, run from folder ``cwd`` (default: here), as a
    finished process; no traceback, whatever the exit code."""
    with contextlib.chdir(cwd or os.getcwd()):
        code, out, err = cli(*argv, stdin=stdin, one_line=False)
    return subprocess.CompletedProcess([str(a) for a in argv], code, out, err)
