#!/usr/bin/env python3
"""How fast the command line starts, and what each command costs to compile.

    python3 scripts/bench_startup.py TREE [--repeat 5] [--cold]
    python3 scripts/bench_startup.py --compare OLD NEW [--repeat 5] [--cold]

TREE is a pitchsim checkout: its own ``.venv`` runs it when it has one (``python3
scripts/dev.py demo`` makes it), else this Python with ``PYTHONPATH=TREE``.  Every figure
is a fresh process, as a user starts it:

- ``--help``: wall time of ``pitchsim --help`` (median of ``--repeat``);
- warm floor: ``bid-odds "AH KH 2H 9C 7D 3S" --samples 1000`` and the README's ``advise``
  with ``--samples 200``, kernels already compiled and cached (one run first to make
  sure), wall time (median of ``--repeat``) and CPU time (user + sys of the child);
- ``--cold``: each command once with an empty ``NUMBA_CACHE_DIR`` of its own, CPU
  seconds of the child (``getrusage(RUSAGE_CHILDREN)``: user + sys, every thread):
  compile plus a run kept small, then the same again warm; compile = cold - warm.  This
  is CPU-heavy (15-60 CPU-s a command).

``--compare`` alternates the two trees run by run, so that a change in the machine's
load falls on both.  The load average is printed before and after: on a shared machine
the wall times are only as good as the load was quiet, the CPU times hold up better.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HAND = "AH KH 2H 9C 7D 3S"
ADVISE = [
    "advise",
    "KH QH 5H 9C 7D 3S",
    "--players",
    "4",
    "--seat",
    "3",
    "--dealer",
    "3",
    "--calls",
    "pass,2,pass",
    "--scores",
    "0,6,0,0",
    "--seed",
    "42",
]
WARM = {
    "bid-odds --samples 1000": ["bid-odds", HAND, "--samples", "1000", "--seed", "1"],
    "advise --samples 200": [*ADVISE, "--samples", "200"],
}
# (name, argv): every command that compiles kernels of its own; {out} is a scratch folder
COLD = [
    ("bid-odds", ["bid-odds", HAND, "--samples", "1000", "--seed", "1"]),
    ("simulate", ["simulate", "--deals", "2000", "--seed", "1", "--out", "{out}/run", "--quiet"]),
    (
        "tournament",
        ["tournament", "-s", "odds+heuristic,heuristic", "--boards", "20", "--seed", "1"],
    ),
    ("advise", [*ADVISE, "--samples", "200"]),
    ("search play", ["bid-odds", HAND, "--policy", "rollout:4", "--samples", "200", "--seed", "1"]),
    ("solve", ["solve", "examples/endgame.json"]),
    ("hint", ["hint", "examples/endgame.json", "--worlds", "20", "--seed", "1"]),
]


class Failed(Exception):
    """A run of the CLI that did not succeed (its stderr says why)."""


class Tree:
    def __init__(self, path: str):
        self.path = Path(path).resolve()
        if not (self.path / "pitchsim" / "__init__.py").is_file():
            sys.exit(f"{path} is not a pitchsim tree (no pitchsim/__init__.py)")
        venv = self.path / ".venv" / "bin"
        self.env = dict(os.environ)
        if (venv / "pitchsim").exists():
            self.cmd = [str(venv / "pitchsim")]
            self.how = ".venv/bin/pitchsim"
        else:
            self.cmd = [sys.executable, "-m", "pitchsim"]
            self.env["PYTHONPATH"] = str(self.path)
            self.how = f"{Path(sys.executable).name} -m pitchsim, PYTHONPATH={self.path}"
        self.env["PITCHSIM_COMPILE_NOTICE"] = "0"

    def run(self, argv: list[str], env: dict | None = None) -> tuple[float, float]:
        """Wall and CPU (user + sys, all threads) seconds of one run of the CLI."""
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = time.perf_counter()
        done = subprocess.run(
            [*self.cmd, *argv],
            cwd=self.path,
            env=env or self.env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        wall = time.perf_counter() - t
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if done.returncode != 0:
            raise Failed(f"{self.path}: pitchsim {' '.join(argv)} failed:\n{done.stderr.decode()}")
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        return wall, cpu


def load() -> str:
    return "/".join(f"{x:.2f}" for x in os.getloadavg())


def alternate(trees: list[Tree], argv: list[str], repeat: int) -> list[dict]:
    """Median wall and CPU of ``repeat`` runs per tree, the trees taking turns."""
    runs: list[list[tuple[float, float]]] = [[] for _ in trees]
    for _ in range(repeat):
        for i, tree in enumerate(trees):
            runs[i].append(tree.run(argv))
    return [
        {
            "wall_s": statistics.median(w for w, _ in r),
            "cpu_s": statistics.median(c for _, c in r),
            "walls": [round(w, 3) for w, _ in r],
        }
        for r in runs
    ]


def cold(trees: list[Tree], argv: list[str]) -> list[dict]:
    """CPU seconds with an empty kernel cache, then warm on that cache; per tree in turn."""
    out = []
    for tree in trees:
        with tempfile.TemporaryDirectory(prefix="pitchsim-bench-") as scratch:
            cache = Path(scratch) / "numba"
            env = {**tree.env, "NUMBA_CACHE_DIR": str(cache)}
            args = [a.replace("{out}", scratch) for a in argv]
            first_wall, first_cpu = tree.run(args, env)
            if "simulate" in args:  # a second run needs a new folder
                shutil.rmtree(Path(scratch) / "run")
            _, warm_cpu = tree.run(args, env)
            out.append(
                {
                    "cold_cpu_s": first_cpu,
                    "warm_cpu_s": warm_cpu,
                    "compile_cpu_s": first_cpu - warm_cpu,
                    "cold_wall_s": first_wall,
                }
            )
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("tree", nargs="?", help="a pitchsim checkout")
    ap.add_argument("--compare", nargs=2, metavar=("OLD", "NEW"), help="two checkouts, alternated")
    ap.add_argument("--repeat", type=int, default=5, help="runs per figure (median), default 5")
    ap.add_argument("--cold", action="store_true", help="also the cold compile of every command")
    ap.add_argument("--only-cold", action="store_true", help="the cold compile figures alone")
    ap.add_argument("--json", help="also write the figures to this file")
    args = ap.parse_args()
    if args.only_cold:
        args.cold = True
    if bool(args.tree) == bool(args.compare):
        ap.error("give one TREE, or --compare OLD NEW")
    trees = [Tree(p) for p in (args.compare or [args.tree])]
    names = ["old", "new"] if args.compare else ["tree"]
    for name, tree in zip(names, trees, strict=True):
        print(f"{name}: {tree.path} ({tree.how})")
    print(f"load average before: {load()}  ·  {os.cpu_count()} CPUs")
    figures: dict = {"trees": [str(t.path) for t in trees], "load_before": os.getloadavg()}

    def row(label: str, results: list[dict], keys: list[str]) -> None:
        cells = "   ".join(
            f"{name} " + " ".join(f"{r[k]:7.3f}" for k in keys)
            for name, r in zip(names, results, strict=True)
        )
        print(f"  {label:<26}{cells}")

    if not args.only_cold:
        print(f"\nstart-up, median of {args.repeat} (wall s, CPU s)")
        figures["help"] = alternate(trees, ["--help"], args.repeat)
        row("pitchsim --help", figures["help"], ["wall_s", "cpu_s"])
        for tree in trees:  # compile or load the kernels once, outside the figures
            for argv in WARM.values():
                tree.run(argv)
        figures["warm"] = {}
        for label, argv in WARM.items():
            figures["warm"][label] = alternate(trees, argv, args.repeat)
            row(label, figures["warm"][label], ["wall_s", "cpu_s"])
    if args.cold:
        print("\ncold compile, empty NUMBA_CACHE_DIR each (CPU s: cold run, warm run, compile)")
        figures["cold"] = {}
        for label, argv in COLD:
            try:
                figures["cold"][label] = cold(trees, argv)
            except Failed as e:  # one command failing leaves the others' figures
                print(f"  {label:<26}failed: {e}")
                continue
            row(label, figures["cold"][label], ["cold_cpu_s", "warm_cpu_s", "compile_cpu_s"])
    print(f"\nload average after: {load()}")
    figures["load_after"] = os.getloadavg()
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=1) + "\n")


if __name__ == "__main__":
    try:
        main()
    except Failed as e:
        sys.exit(str(e))
