"""Every command and option under every preset: does it run, and its wall time (warm).

    python scripts/preset_matrix.py [--presets auction-pitch,smear] [--only bid-odds]
        [--timeout 600] [--markdown]

Each case runs ``pitchsim`` in a subprocess on a small input that is a fair request
under that preset (its deal size, bid range and trump rule: ``HANDS``, ``BIDS``; a view
and a position cut from the preset's own game); a case passes when it exits 0 (the
engine case: when every reply to its requests is a decision, no error).  A case the
preset's rules forbid is marked with the words its refusal must say (``RULE``) and
passes as ``rule`` when refused with them: the table then names the rule.  Run it twice
and read the second run for warm times (the first compiles).  Output: a line per case,
and with --markdown a table of presets x cases for the note.
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


# A hand of the preset's deal (ten-point deals 9 at 4 players), its trump, a bid in its
# range and an auction of calls that fits them (seat 3, the dealer, pitches last).
HANDS = {
    "ten-point": "AH KH 2H 9C 4D JS 3H HJ TH",
    "seven-point": "AH KH 2H 9C 4D JS 3H HJ TH",
    "cinch": "AH KH 5H 9C 4D JS 3H 5D TH",
}
BIDS = {
    "auction-pitch": "2",
    "setback": "2",
    "smear": "2",
    "ten-point": "5",
    "five-point": "3",
    "six-point": "3",
    "seven-point": "4",
    "cinch": "7",
}
# Refusals a preset's rules call for (case -> words of the rule the refusal must state).
# (The presets that discard and draw (4.8): a hand alone does not say what was drawn.)
RULE = {
    (p, case): "(4.8)"
    for p in ("ten-point", "seven-point", "cinch")
    for case in (
        "hint short form",
        "hint short form --model",
        "hint short form --policy pimc",
        "hint VIEW.json --model",
    )
}


def named(p: str) -> bool:
    return p not in ("auction-pitch", "setback")  # the presets whose pitcher names trump


def cases(p: str, work: Path) -> list[tuple[str, list[str], str | None]]:
    """(name, argv after ``pitchsim``, stdin) per case; ``work`` holds files they share."""
    r = ["--rules", p]
    rec = work / f"{p}-game.json"
    run = work / f"{p}-run"
    view = work / f"{p}-view.json"
    pos = work / f"{p}-position.json"
    bot = f"cmd:{sys.executable} {BOT}"
    hand = HANDS.get(p, "AH KH 2H 9C 4D JS")
    bid = BIDS[p]
    trump = ["--trump", "H"] if named(p) else []  # first-lead: the first card fixes it
    short = ["hint", "--hand", hand, *r, "--calls", f"pass,pass,pass,{bid}", "--dealer",
             "3", *trump, "--worlds", "20", "--seed", "1"]  # fmt: skip
    # fmt: off
    return [
        ("rules", ["rules", *r], None),
        ("bid-odds", ["bid-odds", hand, *r, "--samples", "2000", "--seed", "1"], None),
        ("bid-odds --compare-policy", ["bid-odds", hand, *r, "--samples", "2000",
         "--seed", "1", "--policy", "heuristic", "--compare-policy", "random",
         "--compare-samples", "500"], None),
        ("advise", ["advise", hand, *r, "--seat", "1", "--dealer", "0",
         "--samples", "300", "--seed", "1"], None),
        ("play", ["play", *r, "--seed", "1"], None),
        ("play --rounds", ["play", *r, "--seed", "1", "--rounds", "3"], None),
        ("play --game --json", ["play", *r, "--seed", "1", "--game", "--json"], None),
        ("play --hand --trump --bid", ["play", *r, "--seed", "1", "--hand", hand,
         "--trump", "H", "--bid", bid], None),
        ("play --hand (auction)", ["play", *r, "--seed", "1", "--hand", hand], None),
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
        ("hint short form", short, None),
        ("hint short form --model", [*short, "--model", "heuristic"], None),
        ("hint short form --policy pimc", [*short, "--policy", "pimc"], None),
        ("hint VIEW.json", ["hint", str(view), "--worlds", "20", "--seed", "1"], None),
        ("hint VIEW.json --model", ["hint", str(view), "--worlds", "20", "--seed", "1",
         "--model", "heuristic"], None),
        ("hint POSITION.json", ["hint", str(pos), "--worlds", "20", "--seed", "1"], None),
        ("hint POSITION.json --policy pimc", ["hint", str(pos), "--worlds", "20", "--seed",
         "1", "--policy", "pimc"], None),
        ("solve POSITION.json", ["solve", str(pos)], None),
        ("engine", ["engine", "--seed", "1"], "@engine"),
        ("review", ["review", str(rec), "--seat", "0", "--samples", "200", "--worlds", "10",
         "--time", "2"], None),
        ("practice --watch", ["practice", *r, "--watch", "--seed", "1", "--no-coach",
         "--save", str(work / f"{p}-watch.json")], None),
    ]
    # fmt: on


def _record(p: str, work: Path) -> Path:
    """The preset's game record (``play --game --json``), written once."""
    rec = work / f"{p}-game.json"
    if not rec.exists():
        out = subprocess.run(
            EXE + ["play", "--rules", p, "--seed", "1", "--game", "--json"],
            capture_output=True,
            text=True,
            cwd=HERE,
        )
        rec.write_text(out.stdout)
    return rec


def _is_card(action: str) -> bool:
    return action not in ("pass", "shoot") and not action.isdigit() and ":" not in action


def prepare(p: str, work: Path) -> None:
    """The view, the position and the engine's requests the cases read: cut from the
    preset's own game (the first card decision with a choice; the first hand played,
    cut after one trick and a card)."""
    from pitchsim.table.record import views_of

    doc = json.loads(_record(p, work).read_text())
    picked = None
    requests = []
    for i, (v, act) in enumerate(views_of(doc)):
        d = v.to_json()
        if len(requests) < 8:
            requests.append({"type": "decide", "id": i, "view": d})
        if picked is None and _is_card(act) and len(d.get("legal") or []) > 1:
            picked = d
    (work / f"{p}-view.json").write_text(json.dumps(picked))
    requests.append({"type": "quit"})
    (work / f"{p}-engine.jsonl").write_text("".join(json.dumps(q) + "\n" for q in requests))
    for seed in range(1, 40):  # a hand somebody pitched
        out = subprocess.run(
            EXE + ["play", "--rules", p, "--seed", str(seed), "--json"],
            capture_output=True,
            text=True,
            cwd=HERE,
        )
        h = json.loads(out.stdout)
        if h.get("pitcher") is not None:
            break
    tricks = h["tricks"]
    cut = [{"leader": t["leader"], "cards": t["cards"]} for t in tricks[:1]]
    cut.append({"leader": tricks[1]["leader"], "cards": tricks[1]["cards"][:1]})
    pos = {"players": h.get("players", 4), "pitcher": h["pitcher"], "bid": h["bid"],
           "rules": h["rules"], "tricks": cut,
           "hands": h.get("hands") or h.get("held") or h["dealt"]}  # fmt: skip
    if named(p):
        pos["trump"] = h["trump"]
    (work / f"{p}-position.json").write_text(json.dumps(pos))


def run_case(argv, stdin, timeout, rule=None):
    t = time.perf_counter()
    try:
        cp = subprocess.run(
            EXE + argv,
            input=stdin,
            capture_output=True,
            text=True,
            timeout=timeout,
            cwd=HERE,
        )
    except subprocess.TimeoutExpired:
        return "timeout", time.perf_counter() - t, ""
    wall = time.perf_counter() - t
    err = (cp.stderr.strip().splitlines() or [""])[-1]
    if argv[0] == "engine":  # every reply a decision
        replies = [json.loads(x) for x in cp.stdout.splitlines() if x.strip()]
        bad = [x for x in replies if x.get("type") != "action"]
        if cp.returncode == 0 and bad:
            return "error", wall, str(bad[0].get("message", bad[0]))[:160]
    if cp.returncode == 2 and rule is not None and rule in err:
        return "rule", wall, err
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
            prepared = False
            for name, argv, stdin in cases(p, work):
                if a.only and not name.startswith(a.only):
                    continue
                if not prepared and name.startswith(
                    ("play --replay", "review", "hint VIEW", "hint POSITION", "solve", "engine")
                ):
                    prepare(p, work)
                    prepared = True
                if stdin == "@engine":
                    stdin = (work / f"{p}-engine.jsonl").read_text()
                rule = RULE.get((p, name))
                status, wall, err = run_case(argv, stdin, a.timeout, rule)
                results[(p, name)] = (status, wall)
                if name not in names:
                    names.append(name)
                tail = "" if status == "ok" else f"  {err[:160]}"
                print(f"{p:14} {name:32} {status:8} {wall:7.1f} s{tail}", flush=True)
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
                if s == "rule":
                    cells[-1] = (
                        "refused: 4.8 discard and draw"
                        if (p, n) in RULE
                        else "refused: base game's kernels only"
                    )
            print(f"| {n} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    main()
