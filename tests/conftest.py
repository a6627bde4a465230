"""Suite-wide settings.

The cold-cache compile notice goes to stderr by default; many tests check that stderr
is empty or holds exactly one error line, so the suite silences it (subprocesses
inherit this).  tests/test_readme.py turns it on where it checks the notice itself.
"""

import os

os.environ["PITCHSIM_COMPILE_NOTICE"] = "0"


# Seconds of the slowest test files in a whole run (scripts/test_durations.py on a junit
# report; the sum of their tests' setup, call and teardown).  CI runs the suite as
# ``pytest -n 2 --dist loadfile --no-loadscope-reorder`` (scripts/dev.py), a file to a
# worker in collection order; these go first, longest first, so that the files left at
# the end are short and both workers finish together.  A stale figure only costs time.
SLOW_FILES: dict[str, float] = {}


def pytest_collection_modifyitems(config, items):
    first = {}
    for i, item in enumerate(items):
        path = item.nodeid.split("::")[0]
        first.setdefault(path, (-SLOW_FILES.get(path, 0.0), i))
    items.sort(key=lambda item: first[item.nodeid.split("::")[0]])
