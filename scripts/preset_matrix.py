"""Every command and option under every preset: does it run, and its wall time (warm).

    python scripts/preset_matrix.py [--presets auction-pitch,smear] [--only bid-odds]
        [--timeout 600] [--markdown]

Each case runs ``pitchsim`` in a subprocess on a small input; a case passes when it
exits 0 (the engine case: when every reply to its requests is a decision, no error).
Run it twice and read the second run for warm times (the first compiles).  Output:
a line per case, and with --markdown a table of presets x cases for the note.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PRESETS = ("auction-pitch", "setback", "smear", "ten-point")
HERE = Path(__file__).resolve().parent.parent
EXE = [sys.executable, "-m", "pitchsim"]
BOT = HERE / "examples" / "bots" / "simple_bot.py"


def cases(p: str, work: Path) -> list[tuple[str, list[str], str | None]]:
    """(name, argv after ``pitchsim``, stdin) per case; ``work`` holds files they share."""
    r = ["--rules", p]
    rec = work / f"{p}-game.json"
    run = work / f"{p}-run"
    bot = f"cmd:{sys.executable} {BOT}"
    return [
        ("rules", ["rules", *r], None),
        ("bid-odds", ["bid-odds", "AH KH 2H 9C 4D JS", *r, "--samples", "2000", "--seed", "1"], None),
        ("bid-odds --compare-policy", ["bid-odds", "AH KH 2H 9C 4D JS", *r, "--samples", "2000",
         "--seed", "1", "--policy", "heuristic", "--compare-policy", "random",
         "--compare-samples", "500"], None),
        ("advise", ["advise", "AH KH 2H 9C 4D JS", *r, "--seat", "1", "--dealer", "0",
         "--samples", "300", "--seed", "1"], None),
        ("play", ["play", *r, "--seed", "1"], None),
        ("play --rounds", ["play", *r, "--seed", "1", "--rounds", "3"], None),
        ("play --game --json", ["play", *r, "--seed", "1", "--game", "--json"], None),
        ("play --hand --trump --bid", ["play", *r, "--seed", "1", "--hand", "AH KH 2H 9C 4D JS",
         "--trump", "H", "--bid", "2"], None),
        ("play --replay", ["play", "--replay", str(rec)], None),
        ("play cmd: seat", ["play", *r, "--seed", "1", "--game", "-s",
         f"heuristic+heuristic,{bot},heuristic+heuristic,heuristic+heuristic"], None),
        ("tournament", ["tournament", *r, "-s", "heuristic+heuristic,odds+heuristic",
         "--games", "8", "--seed", "1"], None),
        ("tournament --record", ["tournament", *r, "-s", "heuristic+heuristic,odds+heuristic",
         "--games", "4", "--seed", "1", "--record", str(work / f"{p}-records")], None),
        ("tournament cmd:", ["tournament", *r, "-s", f"heuristic+heuristic,{bot}",
         "--games", "2", "--seed", "1", "--decision-time", "5"], None),
        ("tournament rollout", ["tournament", *r, "-s", "heuristic+heuristic,heuristic+rollout:8",
         "--games", "2", "--seed", "1"], None),
        ("tournament odds-game", ["tournament", *r, "-s", "heuristic+heuristic,odds-game+heuristic",
         "--games", "2", "--seed", "1"], None),
        ("tournament advisor", ["tournament", *r, "-s", "heuristic+heuristic,advisor+heuristic",
         "--games", "1", "--seed", "1"], None),
        ("tournament pimc", ["tournament", *r, "-s", "heuristic+heuristic,heuristic+pimc:4",
         "--games", "1", "--seed", "1"], None),
        ("simulate", ["simulate", *r, "--deals", "20000", "-n", "4", "--seed", "1",
         "--out", str(run), "-q"], None),
        ("table", ["table", str(run), *r], None),
        ("table --checks", ["table", str(run), *r, "--checks"], None),
        ("chart heatmap", ["chart", str(run), "--kind", "heatmap", "--out",
         str(work / f"{p}-h.png"), "--min-count", "1"], None),
        ("chart players", ["chart", str(run), "--kind", "players", "--out",
         str(work / f"{p}-p.png"), "--min-count", "1"], None),
        ("chart points", ["chart", str(run), "--kind", "points", "--out",
         str(work / f"{p}-pt.png")], None),
        ("chart bids", ["chart", str(run), "--kind", "bids", "--out",
         str(work / f"{p}-b.png"), "--min-count", "1"], None),
        ("hint short form", ["hint", "--hand", "AH KH 2H 9C 4D JS", *r, "--calls",
         "pass,pass,pass,2", "--dealer", "3", "--trump", "H", "--worlds", "20", "--seed",
         "1"], None),
        ("hint --model", ["hint", "--hand", "AH KH 2H 9C 4D JS", *r, "--calls",
         "pass,pass,pass,2", "--dealer", "3", "--trump", "H", "--worlds", "20", "--seed",
         "1", "--model", "heuristic+heuristic"], None),
        ("hint --policy pimc", ["hint", "--hand", "AH KH 2H 9C 4D JS", *r, "--calls",
         "pass,pass,pass,2", "--dealer", "3", "--trump", "H", "--worlds", "20", "--seed",
         "1", "--policy", "pimc"], None),
        ("review", ["review", str(rec), "--seat", "0", "--samples", "200", "--worlds", "10",
         "--time", "2"], None),
        ("practice --watch", ["practice", *r, "--watch", "--seed", "1", "--no-coach",
         "--save", str(work / f"{p}-watch.json")], None),
    ]


def run_case(argv, stdin, timeout):
    t = time.perf_counter()
    try:
        cp = subprocess.run(
            EXE + argv, input=stdin, capture_output=True, text=True, timeout=timeout,
            cwd=HERE,
        )
    except subprocess.TimeoutExpired:
        return "timeout", time.perf_counter() - t, ""
    wall = time.perf_counter() - t
    err = (cp.stderr.strip().splitlines() or [""])[-1]
    return ("ok" if cp.returncode == 0 else f"exit {cp.returncode}"), wall, err


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--presets", default=",".join(PRESETS))
    ap.add_argument("--only", default=None, help="case names starting with this")
    ap.add_argument("--timeout", type=float, default=600)
    ap.add_argument("--markdown", action="store_true")
    a = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="preset-matrix-"))
    results: dict[tuple[str, str], tuple[str, float]] = {}
    names: list[str] = []
    try:
        for p in a.presets.split(","):
            for name, argv, stdin in cases(p, work):
                if a.only and not name.startswith(a.only):
                    continue
                if name == "play --replay" and not (work / f"{p}-game.json").exists():
                    out = subprocess.run(
                        EXE + ["play", "--rules", p, "--seed", "1", "--game", "--json"],
                        capture_output=True, text=True, cwd=HERE,
                    )
                    (work / f"{p}-game.json").write_text(out.stdout)
                if name == "review" and not (work / f"{p}-game.json").exists():
                    continue
                status, wall, err = run_case(argv, stdin, a.timeout)
                results[(p, name)] = (status, wall)
                if name not in names:
                    names.append(name)
                tail = "" if status == "ok" else f"  {err[:160]}"
                print(f"{p:14} {name:28} {status:8} {wall:7.1f} s{tail}", flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if a.markdown:
        ps = a.presets.split(",")
        print("\n| case | " + " | ".join(ps) + " |")
        print("|---|" + "---:|" * len(ps))
        for n in names:
            cells = []
            for p in ps:
                s, w = results.get((p, n), ("-", 0.0))
                cells.append(f"{w:.1f} s" if s == "ok" else s)
            print(f"| {n} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    main()
