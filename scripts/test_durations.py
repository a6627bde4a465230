#!/usr/bin/env python3
"""Seconds per test file from a junit report of a whole run, slowest first.

    .venv/bin/python -m pytest -n 2 --dist loadfile --junitxml=/tmp/run.xml
    .venv/bin/python scripts/test_durations.py /tmp/run.xml          # the table
    .venv/bin/python scripts/test_durations.py /tmp/run.xml --top 30 --python
        # lines to paste into tests/conftest.py's SLOW_FILES

A test's time in the report is its setup, call and teardown, so a module fixture's cost
lands on the file's first test and is counted with its file.  The times of a cold run
include the kernels compiled on the way (see pitchsim/kernels/__init__.py).
"""

from __future__ import annotations

import argparse
import sys
import xml.etree.ElementTree as ET
from collections import defaultdict


def file_of(case: ET.Element) -> str:
    """The test file (or, for a doctest, the module's file) of a junit test case."""
    if case.get("file"):
        return case.get("file").replace("\\", "/")
    parts = case.get("classname", "").split(".")
    # tests.test_x[.TestClass] -> tests/test_x.py; a doctest's pitchsim.a.b -> pitchsim/a/b.py
    if parts[0] == "tests":
        parts = parts[: next((i + 1 for i, p in enumerate(parts) if p.startswith("test_")), 2)]
    return "/".join(parts) + ".py"


def per_file(xml_path: str) -> dict[str, tuple[float, int]]:
    seconds: dict[str, float] = defaultdict(float)
    count: dict[str, int] = defaultdict(int)
    for case in ET.parse(xml_path).getroot().iter("testcase"):
        f = file_of(case)
        seconds[f] += float(case.get("time") or 0)
        count[f] += 1
    return {f: (seconds[f], count[f]) for f in seconds}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("junit", help="a junit XML report (pytest --junitxml)")
    ap.add_argument("--top", type=int, default=0, help="only the slowest N files")
    ap.add_argument("--python", action="store_true", help="as lines of a Python dict")
    a = ap.parse_args()
    files = sorted(per_file(a.junit).items(), key=lambda kv: -kv[1][0])
    total = sum(s for s, _ in dict(files).values())
    if a.top:
        files = files[: a.top]
    for f, (s, n) in files:
        if a.python:
            print(f'    "{f}": {s:.0f},')
        else:
            print(f"{s:9.1f} s {n:5d} tests  {f}")
    if not a.python:
        print(f"{total:9.1f} s in all (the sum over workers, not the wall time)", file=sys.stderr)


if __name__ == "__main__":
    main()
