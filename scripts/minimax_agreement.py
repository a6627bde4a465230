#!/usr/bin/env python3
"""The plain-Python minimax (pitchsim/search/minimax.py) against another version of
itself, by default main's (``git show main:pitchsim/search/minimax.py``): random
positions of the kinds the solver tests deal, each solved by both, the value, every
card's value, and the memo's trick-boundary entries (their keys, values and order: the
tests draw trick-boundary positions from them) compared.  CPU seconds of each side are
reported.

    PYTHONPATH=. .venv/bin/python scripts/minimax_agreement.py --per 8 --seed 7

Positions: every preset case of tests/test_family_solver.py (2-4 tricks back, half
inside a trick) and auction-pitch solo, partnership, follow=suit and low=dealt at 3-7
players, ``--per`` each; the called and announced partner cases of
tests/test_partner_search.py (trick 1), twice ``--per``; and the deep base positions of
tests/test_solver_keys.py (Game close, Low or the Jack out), a third of ``--per``.
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from test_family_solver import CASES as FAMILY_CASES  # noqa: E402
from test_family_solver import random_position  # noqa: E402
from test_partner_search import SOLVER_SPECS, small_position  # noqa: E402
from test_solver_keys import CASES as KEY_CASES  # noqa: E402
from test_solver_keys import keyed_position  # noqa: E402

from pitchsim.game.rules import Rules  # noqa: E402

BASE = [
    ("", 3),
    ("partnership=true", 4),
    ("follow=suit,partnership=true", 4),
    ("low=dealt", 5),
    ("follow=suit", 6),
    ("", 7),
]


def load(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(f"pitchsim.search.{name}", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def positions(per: int, rng: random.Random):
    """(rules, pitcher, held, hands, won, trump, leader, trick, called) of each position."""
    out = []
    for spec, n, _count, back in FAMILY_CASES + [(s, n, 0, (2, 3)) for s, n in BASE]:
        rules = Rules.parse(spec) if spec else Rules()
        for _ in range(per):
            back = (2, 2) if n >= 6 else back
            pitcher, held, hands, won, leader, trick, trump = random_position(rules, n, rng, back)
            out.append((rules, pitcher, held, hands, won, trump, leader, trick, -1))
    for spec, n in SOLVER_SPECS:
        rules = Rules.parse(spec)
        for _ in range(2 * per):
            pitcher, held, hands, leader, trick, trump, called = small_position(rules, n, rng)
            out.append((rules, pitcher, held, hands, [0] * n, trump, leader, trick, called))
    for n, rules, _count, left in KEY_CASES:
        for _ in range(max(1, per // 3)):
            st = keyed_position(rng, n, rules, min(left, 3 if n < 5 else 2)).state
            out.append((rules, st.pitcher, st.held, st.hands, st.won, st.trump, st.leader,
                        st.trick, st.called))  # fmt: skip
    return out


def solve_all(fm, cases):
    """Each position's (value, card values, the memo's trick-boundary items), and the CPU
    seconds taken."""
    results = []
    t = time.process_time()
    for rules, pitcher, held, hands, won, trump, leader, trick, called in cases:
        st = fm.start_state(rules, pitcher, held, hands, won, trump, leader, trick, called)
        memo: dict = {}
        value = fm.solve(st, memo)
        cards = fm.card_values(st) if st.leader is not None else {}
        results.append((value, cards, [kv for kv in memo.items() if not kv[0][2]]))
    return results, time.process_time() - t


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--old", help="the other minimax.py (default: main's)")
    ap.add_argument("--per", type=int, default=8, help="positions a case")
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()
    if args.old:
        old_path = Path(args.old)
    else:
        text = subprocess.run(
            ["git", "-C", str(ROOT), "show", "main:pitchsim/search/minimax.py"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        tmp = tempfile.NamedTemporaryFile("w", suffix=".py", delete=False)
        tmp.write(text)
        tmp.close()
        old_path = Path(tmp.name)
    old = load("_minimax_old", old_path)
    new = load("_minimax_new", ROOT / "pitchsim" / "search" / "minimax.py")
    cases = positions(args.per, random.Random(args.seed))
    a, t_old = solve_all(old, cases)
    b, t_new = solve_all(new, cases)
    values = sum(x[:2] == y[:2] for x, y in zip(a, b, strict=True))
    memos = sum(x[2] == y[2] for x, y in zip(a, b, strict=True))
    print(
        f"{len(cases)} positions: {values} same value and card values, {memos} same memo boundaries"
    )
    print(f"CPU s: old {t_old:.1f}, new {t_new:.1f}")
    sys.exit(0 if values == memos == len(cases) else 1)


if __name__ == "__main__":
    main()
