#!/usr/bin/env python3
"""CPU seconds per test and per test file (the process's own and its children's), to
tell a file's compile time from its work: run the suite twice on one numba cache and
read the second run, where every kernel loads from the cache.

    PYTHONPATH=scripts .venv/bin/python -m pytest -p test_cpu -p no:cacheprovider -q
    .venv/bin/python scripts/test_cpu.py /tmp/test-cpu.json --top 30

As a pytest plugin (``-p test_cpu``) it writes one row per test, ``[test id, wall s,
own CPU s, children's CPU s]``, to ``$TEST_CPU_OUT`` (default ``/tmp/test-cpu.json``)
when the session ends; under ``-n`` each worker to its own file (``test-cpu.gw0.json``,
...), and the summary reads them all (``scripts/test_cpu.py /tmp/test-cpu.gw*.json``).  Own CPU counts every thread
of the process (numba's parallel kernels too); children's counts the subprocesses a
test waited for (``pitchsim`` runs, outside programs).  On a shared machine read CPU,
not wall: wall minus CPU there is mostly the other processes' share.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import time
from collections import defaultdict

OUT = os.environ.get("TEST_CPU_OUT", "/tmp/test-cpu.json")
if os.environ.get("PYTEST_XDIST_WORKER"):  # an xdist worker: a file of its own
    OUT = OUT.removesuffix(".json") + f".{os.environ['PYTEST_XDIST_WORKER']}.json"
_rows: list[tuple[str, float, float, float]] = []


def _cpu() -> tuple[float, float]:
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime, kids.ru_utime + kids.ru_stime


try:
    import pytest
except ImportError:  # (the summary below needs no pytest)
    pytest = None

if pytest is not None:

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_protocol(item, nextitem):
        w0, (s0, c0) = time.monotonic(), _cpu()
        yield
        s1, c1 = _cpu()
        _rows.append((item.nodeid, time.monotonic() - w0, s1 - s0, c1 - c0))

    def pytest_sessionfinish(session, exitstatus):
        tmp = OUT + ".tmp"
        with open(tmp, "w") as f:
            json.dump(_rows, f)
        os.replace(tmp, OUT)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("rows", nargs="*", default=[OUT], help="the plugin's JSON (one a worker)")
    ap.add_argument("--top", type=int, default=25)
    args = ap.parse_args()
    rows = []
    for path in args.rows:
        with open(path) as f:
            rows += json.load(f)
    wall = sum(r[1] for r in rows)
    own = sum(r[2] for r in rows)
    kids = sum(r[3] for r in rows)
    print(f"{len(rows)} tests: wall {wall:,.0f} s, CPU {own:,.0f} s own + {kids:,.0f} s children")
    files: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0])
    for test, w, s, c in rows:
        f = files[test.split("::")[0]]
        f[0] += w
        f[1] += s
        f[2] += c
    print(f"\n{'file':<48} {'wall':>7} {'CPU':>7} {'child':>7}")
    for name, (w, s, c) in sorted(files.items(), key=lambda kv: -(kv[1][1] + kv[1][2]))[: args.top]:
        print(f"{name:<48} {w:7.1f} {s:7.1f} {c:7.1f}")
    print(f"\n{'CPU s':>7}  test")
    for test, _, s, c in sorted(rows, key=lambda r: -(r[2] + r[3]))[: args.top]:
        print(f"{s + c:7.1f}  {test}")


if __name__ == "__main__":
    main()
