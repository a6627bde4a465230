#!/usr/bin/env python3
"""A new user's first session, timed: the README's commands one after another, from a
fresh clone and an empty kernel cache (issue 30, item 4: "total wait").

    python3 scripts/bench_first_session.py TREE [--warm-first] [--json OUT] [--keep]

TREE is a pitchsim checkout (a folder, or anything ``git clone`` takes): it is cloned
into a fresh folder under /tmp (its committed tree only, as a new user gets it), and
every command runs there, as ``python -m pitchsim``, with a fresh, empty
``NUMBA_CACHE_DIR`` of its own.  Python: the clone's ``.venv`` does not exist, so this
Python runs it with ``PYTHONPATH=CLONE`` (its packages: numba, typer, ... must be
installed here; /work/main/.venv/bin/python has them).

- without ``--warm-first`` ("before"): each command compiles its kernels on first use;
- with ``--warm-first`` ("after"): ``pitchsim cache warm`` runs first (what
  ``scripts/dev.py demo`` and ``test`` now run at set-up), its time counted.

Per command and in total: wall seconds and CPU seconds (user + sys of the child and of
everything it waited for: ``getrusage(RUSAGE_CHILDREN)`` deltas, so ``cache warm``'s
worker processes are counted).  On a shared machine the wall time is only as good as
the load was quiet (the load average is printed before and after); CPU seconds hold.
A command's time includes its real work (a 20,000-board tournament is not all compile):
run twice, the second run's figures are the floor, and the difference is the wait for
compiles.  Not a test: it takes minutes (the cold compile of everything is 10+ CPU-min).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# What a piped `practice` types: a call ("pass"; a stuck dealer refuses it, then "1",
# then takes "2"), a card by its number ("1", then "2" at the next decision), and so on
# for a few hands; then "q" saves and quits.  A refused line costs a new prompt, nothing.
PRACTICE_INPUT = "pass\n1\n2\n" * 40 + "q\n"

# The README's commands, in its order, as a new player meets them: the quick start's
# demo and --help, the worked example and the bid-odds variants, the rules, advise, the
# study runs, play and tournaments of the base game and the presets, practice, review,
# solve and hint.  (name, argv, stdin)
SESSION: list[tuple[str, list[str], str | None]] = [
    ("demo: bid-odds 5p", ["bid-odds", "AH KH 2H 9C 7D 3S", "--players", "5"], None),
    ("--help", ["--help"], None),
    ("bid-odds worked example", ["bid-odds", "AH KH 2H 9C 7D 3S", "--players", "5", "--seed", "42"], None),
    ("bid-odds partnership", ["bid-odds", "AS JS 4S KD 9C 3H", "--partnership", "--trump", "S", "--seed", "1"], None),
    ("bid-odds ten-point", ["bid-odds", "AH KH 3H 9C 7D 3S HJ JD 2H", "--rules", "ten-point", "--levels", "5,7,9,10", "--samples", "5000", "--seed", "1"], None),
    ("bid-odds smear 3p", ["bid-odds", "AH 2H JD 9C 7D 3S", "--rules", "smear", "--players", "3", "--samples", "5000", "--seed", "1", "--json"], None),
    ("bid-odds --compare-policy", ["bid-odds", "AH KH 2H 9C 7D 3S", "--trump", "H", "--samples", "4000", "--seed", "1", "--compare-policy", "rollout:8", "--compare-samples", "500"], None),
    ("rules", ["rules"], None),
    ("advise", ["advise", "KH QH 5H 9C 7D 3S", "--players", "4", "--seat", "3", "--dealer", "3", "--calls", "pass,2,pass", "--scores", "0,6,0,0", "--seed", "42"], None),
    ("simulate 200k", ["simulate", "--deals", "200000", "--players", "3-7", "--seed", "7", "--out", "runs/study"], None),
    ("table", ["table", "runs/study", "--by", "length,high", "--players", "4"], None),
    ("simulate smear", ["simulate", "--rules", "smear", "--deals", "20000", "--seed", "3", "--out", "runs/smear", "--quiet"], None),
    ("play", ["play", "--players", "4", "--seed", "3"], None),
    ("play --game odds", ["play", "--game", "--seed", "1", "--board", "12", "--bidding", "odds"], None),
    ("tournament 20000", ["tournament", "-s", "odds+heuristic,heuristic", "--boards", "20000", "--seed", "1"], None),
    ("tournament partnership", ["tournament", "-s", "odds,heuristic", "--partnership", "--rules", "low=dealt", "--target", "11", "--seed", "2"], None),
    ("play smear", ["play", "--rules", "smear", "--seed", "3"], None),
    ("play ten-point game", ["play", "--rules", "ten-point", "--game", "--json", "--seed", "1"], None),
    ("tournament setback", ["tournament", "--rules", "setback", "-s", "odds,heuristic", "--boards", "5000", "--seed", "1"], None),
    ("tournament smear rollout", ["tournament", "--rules", "smear", "-s", "heuristic+rollout:16,heuristic", "--boards", "1000", "--seed", "17"], None),
    ("practice (piped)", ["practice", "--seed", "5"], PRACTICE_INPUT),
    ("practice --watch", ["practice", "--watch", "--seed", "3", "--save", "watched-game.json"], None),
    ("review", ["review", "practice-game.json", "--seat", "0"], None),
    ("solve", ["solve", "examples/endgame.json"], None),
    ("hint", ["hint", "--hand", "9S 5S KD 4C 8H 3D", "--players", "4", "--dealer", "0", "--calls", "2,pass,pass,pass", "--tricks", "AS", "--seed", "42"], None),
    ("hint smear view", ["hint", "examples/family_views/smear.json", "--seed", "7"], None),
]  # fmt: skip


def _cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def timed(cmd: list[str], cwd: Path, env: dict, stdin: str | None) -> tuple[float, float, int, str]:
    """Run CMD: (wall s, CPU s, exit code, the tail of its stderr)."""
    c0, t0 = _cpu(), time.monotonic()
    p = subprocess.run(
        cmd, cwd=cwd, env=env, input=stdin, text=True, capture_output=True, check=False
    )
    return time.monotonic() - t0, _cpu() - c0, p.returncode, p.stderr.strip()[-300:]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("tree", help="a pitchsim checkout to clone (committed tree)")
    ap.add_argument("--warm-first", action="store_true", help="run `pitchsim cache warm` first")
    ap.add_argument("--jobs", type=int, default=None, help="cache warm --jobs (default: cores)")
    ap.add_argument("--json", type=Path, help="also write the figures here")
    ap.add_argument("--keep", action="store_true", help="keep the clone and cache folders")
    ap.add_argument("--only", help="run only the commands whose name contains this")
    args = ap.parse_args()

    work = Path(tempfile.mkdtemp(prefix="pitchsim-first-"))
    clone, cache = work / "clone", work / "numba-cache"
    subprocess.run(["git", "clone", "--quiet", str(args.tree), str(clone)], check=True)
    if Path(args.tree).exists():  # a worktree's clone checks out the repository's HEAD
        rev = subprocess.run(
            ["git", "-C", str(args.tree), "rev-parse", "HEAD"],
            capture_output=True, text=True, check=True,
        ).stdout.strip()  # fmt: skip
        subprocess.run(["git", "-C", str(clone), "checkout", "--quiet", rev], check=True)
    head = subprocess.run(
        ["git", "-C", str(clone), "rev-parse", "--short", "HEAD"],
        capture_output=True, text=True, check=True,
    ).stdout.strip()  # fmt: skip
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache), PYTHONPATH=str(clone))
    env.pop("PITCHSIM_COMPILE_NOTICE", None)
    py = [sys.executable, "-m", "pitchsim"]

    steps = [(n, a, s) for n, a, s in SESSION if not args.only or args.only in n]
    if args.warm_first:
        warm = ["cache", "warm"] + (["--jobs", str(args.jobs)] if args.jobs else [])
        steps.insert(0, ("cache warm", warm, None))
    load0 = os.getloadavg()
    print(f"tree {args.tree} at {head}, cloned to {clone}; NUMBA_CACHE_DIR={cache}")
    print(f"load average before: {load0[0]:.2f} {load0[1]:.2f} {load0[2]:.2f}", flush=True)
    print(f"{'command':28s} {'wall s':>8s} {'CPU s':>8s}")
    rows = []
    for name, argv, stdin in steps:
        wall, cpu, code, err = timed(py + argv, clone, env, stdin)
        note = "" if code == 0 else f"  exit {code}: {err.splitlines()[-1] if err else ''}"
        print(f"{name:28s} {wall:8.1f} {cpu:8.1f}{note}", flush=True)
        rows.append({"command": name, "argv": argv, "wall": wall, "cpu": cpu, "exit": code})
    load1 = os.getloadavg()
    wall = sum(r["wall"] for r in rows)
    cpu = sum(r["cpu"] for r in rows)
    print(f"{'total':28s} {wall:8.1f} {cpu:8.1f}")
    print(f"load average after: {load1[0]:.2f} {load1[1]:.2f} {load1[2]:.2f}")
    if args.json:
        doc = {
            "tree": str(args.tree), "commit": head, "warm_first": args.warm_first,
            "load_before": load0, "load_after": load1, "rows": rows,
            "total_wall": wall, "total_cpu": cpu,
        }  # fmt: skip
        args.json.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if any(r["exit"] for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
