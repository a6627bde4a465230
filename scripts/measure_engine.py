"""Engine decisions per second (warm) per strategy, and tournament games per second with
one outside seat (examples/bots/simple_bot.py).  CPU (process) time is measured along
with wall time: the machine may be shared.

    .venv/bin/python scripts/measure_engine.py [--strategies odds+heuristic,advisor+rollout]
        [--games 20] [--boards 20]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pitchsim.game.rules import Rules  # noqa: E402
from pitchsim.table.engine import Engine  # noqa: E402
from pitchsim.table.game import play_table_game  # noqa: E402
from pitchsim.table.record import views_of  # noqa: E402
from pitchsim.table.tournament import tournament  # noqa: E402


def requests(games: int) -> list[str]:
    """Every decision of ``games`` games (4 players, base rules) as decide requests."""
    out = []
    for b in range(games):
        doc = play_table_game(["odds+heuristic"] * 4, Rules(), 1, b)
        out += [
            json.dumps({"type": "decide", "id": i, "view": v.to_json()})
            for i, (v, _) in enumerate(views_of(doc))
        ]
    return out


def timed(fn):
    w, c = time.perf_counter(), time.process_time()
    fn()
    return time.perf_counter() - w, time.process_time() - c


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--strategies", default="odds+heuristic,advisor+rollout")
    ap.add_argument("--games", type=int, default=3, help="games whose decisions are asked")
    ap.add_argument("--limit", type=int, default=0, help="at most this many decisions")
    ap.add_argument("--boards", type=int, default=20)
    a = ap.parse_args()
    print(f"load average {os.getloadavg()}")
    reqs = requests(a.games)
    if a.limit:
        reqs = reqs[: a.limit]
    for s in a.strategies.split(","):
        engine = Engine(s)
        engine.handle(reqs[0])  # warm: compile or load the kernels first
        engine.handle(reqs[len(reqs) // 2])
        replies: list[str] = []

        def ask(engine=engine, replies=replies):
            replies.extend(engine.handle(r) for r in reqs)

        wall, cpu = timed(ask)
        errors = sum(json.loads(r)["type"] != "action" for r in replies)
        print(
            f"engine {s}: {len(reqs)} decisions, {len(reqs) / wall:,.1f}/s wall, "
            f"{len(reqs) / cpu:,.1f}/s CPU ({errors} errors)"
        )
    bot = f"cmd:{sys.executable} {ROOT / 'examples' / 'bots' / 'simple_bot.py'}"
    result = {}
    wall, cpu = timed(
        lambda: result.setdefault("r", tournament([bot, "odds+heuristic"], boards=a.boards, seed=1))
    )
    r = result["r"]
    print(
        f"tournament, one outside seat (simple_bot) + odds+heuristic, {r.games} games: "
        f"{r.games / wall:,.1f} games/s wall ({r.games / cpu:,.1f}/s pitchsim's own CPU; "
        f"forfeits {r.forfeits})"
    )


if __name__ == "__main__":
    main()
