"""Issue 29's figure: tournaments against outside programs that fail, one kind each.

Each kind of failing bot (a standard-library script written to a temporary folder) sits
in its own ``pitchsim tournament`` (the real CLI, a ``cmd:`` seat against
``random+random`` at a 4-player table: the bot holds seats 0 and 2 in one rotation, 1
and 3 in the other), under the base game and under ``--rules smear``.  A bot plays the
first legal action it likes and misbehaves at a random answer of each run (below
``--within``; the kinds that fail at once say so), so its games mix forfeits with
games played to the end, and every restart after a forfeit is exercised over many
games.  Printed per tournament: the wall time, the games, the forfeits with their
reasons (most frequent first), the exit code, whether stderr held a traceback, and the
processes left afterwards: every process whose command line names the bots' folder
(the bots and the children they fork), found by a scan of /proc; there must be none.

    .venv/bin/python scripts/failing_bots.py                    # 100 games a kind, both
    .venv/bin/python scripts/failing_bots.py --games 10 --kinds silent,exits --rules base

Exits 1 if a tournament failed (an exit code other than 0, a traceback, a forfeit with
a reason over 400 characters, a forfeit by the built-in seats) or a process was left.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

PITCHSIM = str(Path(sys.executable).with_name("pitchsim"))

BOT = r"""
import json, os, signal, sys, time

kind, pids, within, decision = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
runs = len(open(pids).read().split()) if os.path.exists(pids) else 0
with open(pids, "a") as f:
    f.write(f"{os.getpid()}\n")
at_once = kind in ("hangs-after-hello",)
fail_at = 0 if at_once else int.from_bytes(os.urandom(4), "big") % within
if kind in ("hangs-after-hello", "late"):  # only SIGKILL ends them
    signal.signal(signal.SIGTERM, signal.SIG_IGN)


def say(msg):
    sys.stdout.write(json.dumps(msg) + "\n")
    sys.stdout.flush()


answered = 0
for line in sys.stdin:
    m = json.loads(line)
    if m["type"] == "hello":
        if kind == "hello-once" and runs:  # a restart that never says hello
            time.sleep(600)
        say({"type": "hello", "protocol": "pitch-engine/1", "name": kind})
        continue
    if m["type"] == "quit":
        break
    if m["type"] != "decide":
        continue
    legal = m["view"]["legal"]
    act = {"type": "action", "id": m["id"], "action": legal[answered % len(legal)]}
    if kind == "floods-stderr" and answered == 0:  # 16 MB of log lines: not a failure
        chunk = ("y" * 99 + "\n") * 10_000
        for _ in range(16):
            sys.stderr.write(chunk)
        sys.stderr.flush()
    if answered == fail_at:
        if kind in ("silent", "hangs-after-hello"):
            time.sleep(600)
        elif kind in ("garbage", "hello-once"):
            print("{oops, not json", flush=True)
        elif kind == "exits":
            sys.stderr.write("giving up now\n")
            sys.exit(3)
        elif kind == "killed":
            os.kill(os.getpid(), signal.SIGKILL)
        elif kind == "floods-stderr":  # one 3 MB line, then gone
            sys.stderr.write("z" * 3_000_000 + "\n")
            sys.stderr.flush()
            sys.exit(5)
        elif kind == "closes-stdout":
            sys.stdout.close()
            os.close(1)
            time.sleep(600)
        elif kind == "forks-child":  # a child holding the pipes lives on; the bot exits
            if os.fork() == 0:
                with open(pids, "a") as f:
                    f.write(f"{os.getpid()}\n")
                time.sleep(600)
                os._exit(0)
            os._exit(0)
        elif kind == "late":  # the answer comes after the limit, while a new run starts
            time.sleep(decision + 0.3)
            say(act)
        elif kind == "illegal":
            cards = (r + s for s in "CDHS" for r in "23456789TJQKA")  # one it may not play
            say(act | {"action": next(c for c in cards if c not in legal)})
        elif kind == "wrong-id":
            say(act | {"id": m["id"] + 1})
        elif kind == "error-reply":
            say({"type": "error", "id": m["id"], "code": "internal", "message": "lost my way"})
        continue
    say(act)
    answered += 1
"""

KINDS = [
    "silent",
    "garbage",
    "exits",
    "killed",
    "hangs-after-hello",
    "closes-stdout",
    "floods-stderr",
    "forks-child",
    "late",
    "illegal",
    "wrong-id",
    "error-reply",
    "hello-once",
]
# A restart that never says hello costs START_TIME (30 s) a game: not in the default run
# of 100 games (50 minutes of waiting); run it with --kinds hello-once --games 10.
DEFAULT = [k for k in KINDS if k != "hello-once"]


def left_running(folder: str) -> list[str]:
    """Processes (not zombies) whose command line names ``folder``: "pid cmdline"."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            cmd = Path(f"/proc/{entry}/cmdline").read_bytes()
            stat = Path(f"/proc/{entry}/stat").read_bytes()
        except OSError:
            continue
        if folder.encode() in cmd and stat[stat.rfind(b")") + 2 :].split()[0] != b"Z":
            shown = cmd.replace(b"\0", b" ").decode(errors="replace")[:120]
            found.append(f"{entry} {shown}")
    return found


def one(folder: Path, kind: str, rules: str, a) -> dict:
    bot = folder / "bot.py"
    pids = folder / f"{kind}-{rules}.pids"
    cmd = shlex.join(
        [sys.executable, str(bot), kind, str(pids), str(a.within), str(a.decision_time)]
    )
    argv = [PITCHSIM, "tournament", "-s", f"cmd:{cmd},random+random", "-g", str(a.games // 2)]
    argv += ["--seed", str(a.seed), "--decision-time", str(a.decision_time), "--json"]
    if rules != "base":
        argv += ["--rules", rules]
    start = time.monotonic()
    p = subprocess.run(argv, capture_output=True, text=True, timeout=3600)
    took = time.monotonic() - start
    time.sleep(0.2)  # a killed group's last members are being reaped
    left = left_running(str(folder))
    runs = len(pids.read_text().split()) if pids.exists() else 0
    out = {"kind": kind, "rules": rules, "seconds": took, "exit": p.returncode, "runs": runs}
    out["traceback"] = "Traceback" in p.stderr
    out["left"] = left
    out["stderr"] = p.stderr[-300:]
    if p.returncode == 0:
        r = json.loads(p.stdout)
        out["games"] = r["games"]
        out["forfeits"] = r["forfeits"]
        out["reasons"] = Counter(f["reason"] for f in r["forfeited_games"]).most_common()
        out["unfinished"] = r["unfinished_games"]
        out["longest_reason"] = max((len(f["reason"]) for f in r["forfeited_games"]), default=0)
        out["others_forfeited"] = sum(
            v for k, v in r["forfeits"].items() if not k.startswith("cmd:")
        )
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100, help="games per kind and rules (even)")
    ap.add_argument("--kinds", default=",".join(DEFAULT), help=f"any of {','.join(KINDS)}")
    ap.add_argument("--rules", default="base,smear", help="base and/or presets, comma-separated")
    ap.add_argument("--decision-time", type=float, default=1.0)
    ap.add_argument("--within", type=int, default=150, help="a bot fails at an answer below this")
    ap.add_argument("--seed", type=int, default=4)
    ap.add_argument("--json", type=Path, help="also write every result to this file")
    a = ap.parse_args()
    kinds = a.kinds.split(",")
    if unknown := [k for k in kinds if k not in KINDS]:
        ap.error(f"unknown kind {unknown[0]!r} (kinds: {', '.join(KINDS)})")
    bad = 0
    results = []
    with tempfile.TemporaryDirectory(prefix="pitchsim-failing-bots-") as tmp:
        folder = Path(tmp)
        (folder / "bot.py").write_text(BOT)
        start = time.monotonic()
        for rules in a.rules.split(","):
            for kind in kinds:
                r = one(folder, kind, rules, a)
                results.append(r)
                ok = (
                    r["exit"] == 0
                    and not r["traceback"]
                    and not r["left"]
                    and r.get("longest_reason", 0) < 400
                    and r.get("others_forfeited", 0) == 0
                )
                bad += not ok
                print(
                    f"== {kind} under {rules}: {r['seconds']:.1f} s, exit {r['exit']}, "
                    f"{r.get('games', '?')} games, {r['runs']} runs of the bot, "
                    f"forfeits {r.get('forfeits')}, unfinished {r.get('unfinished')}, "
                    f"traceback {'yes' if r['traceback'] else 'no'}, "
                    f"processes left {len(r['left'])}{'' if ok else '  <-- FAILED'}",
                    flush=True,
                )
                for reason, n in r.get("reasons", []):
                    print(f"   {n:4d} x {reason}")
                for line in r["left"]:
                    print(f"   left: {line}")
                if r["exit"] != 0:
                    print(f"   stderr: {r['stderr']!r}")
        total = time.monotonic() - start
        left = left_running(str(folder))
    games = sum(r.get("games", 0) for r in results)
    forfeits = sum(sum(r.get("forfeits", {}).values()) for r in results)
    print(
        f"== in all: {len(results)} tournaments, {games} games, {forfeits} forfeits, "
        f"{total:.0f} s; processes left at the end: {len(left)}; "
        f"tournaments failed: {bad}"
    )
    if a.json:
        a.json.write_text(json.dumps(results, indent=1, default=list))
    return 1 if bad or left else 0


if __name__ == "__main__":
    sys.exit(main())
