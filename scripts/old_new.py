"""Alternating an old tree and this one, a fresh process each, for the ``*_old_new.py``
benchmarks: the base game must not slow down as the engine generalises, and the two
trees must see the same load, so they take turns, round by round.

``alternate(old, code, args, rounds, label, show)`` runs ``python -c code *args`` under
each tree (``PYTHONPATH``, this venv, one numba thread, a cache folder per tree and run
of the benchmark: numba checks only a kernel's own file, so a cache kept from an older
tree could serve stale kernels), the order of the two flipped every other round, and
returns each tree's results, the JSON of the last line its process printed.
``median_ratio`` sums a figure up.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent


def alternate(
    old: Path,
    code: str,
    args: Sequence[str],
    rounds: int,
    label: str,
    show: Callable[[dict], object] = lambda d: d,
) -> dict[str, list[dict]]:
    trees = {"old": str(old.resolve()), "new": str(HERE)}
    res: dict[str, list[dict]] = {k: [] for k in trees}
    for rnd in range(rounds):
        order = list(trees.items()) if rnd % 2 == 0 else list(trees.items())[::-1]
        for name, path in order:
            env = dict(
                os.environ,
                PYTHONPATH=path,
                NUMBA_CACHE_DIR=f"/tmp/bench-{label}-cache-{name}-{os.getpid()}",
                NUMBA_NUM_THREADS="1",
                PITCHSIM_COMPILE_NOTICE="0",
            )
            cmd = [sys.executable, "-c", code, *args]
            r = subprocess.run(cmd, env=env, capture_output=True, text=True, cwd=path)
            if r.returncode != 0:
                sys.exit(f"{name} tree failed: {r.stderr.strip().splitlines()[-1]}")
            d = json.loads(r.stdout.strip().splitlines()[-1])
            res[name].append(d)
            print(rnd, name, show(d), flush=True)
    return res


def median_ratio(res: dict[str, list[dict]], figure: Callable[[dict], float]) -> tuple:
    """(old's median, new's median, new/old) of ``figure`` over the rounds."""
    o = sorted(figure(x) for x in res["old"])
    n = sorted(figure(x) for x in res["new"])
    mo, mn = o[len(o) // 2], n[len(n) // 2]
    return mo, mn, mn / mo
