"""The command line the paired-policy scripts share (``call_policy.py``,
``put_down_policy.py``): their options and how their figures print.  The pairing itself
is the package's (``pitchsim.table.paired``); this is only the scripts' front.
"""

from __future__ import annotations

import argparse

from pitchsim.table.paired import MEASURES
from pitchsim.util.jsonio import dumps_json


def board_options(doc: str, rules: str, players: int) -> argparse.ArgumentParser:
    """A script's options for ``policy_versus`` (``doc``: its docstring)."""
    ap = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    ap.add_argument("--rules", default=rules)
    ap.add_argument("--players", type=int, default=players)
    ap.add_argument("--boards", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--strategy", default="heuristic+heuristic")
    ap.add_argument("--json", action="store_true")
    return ap


def print_summary(out: dict, as_json: bool, head: str, words: dict[str, str]) -> None:
    """``policy_versus``'s figures printed: as JSON, or ``head`` and a line each."""
    if as_json:
        print(dumps_json(out, indent=2))
    else:
        print("\n".join([head, *summary_lines(out, words)]))


def summary_lines(out: dict, words: dict[str, str] | None = None) -> list[str]:
    """``policy_versus``'s figures, a line each (``words``: other names for them)."""
    lines = []
    for name, said in MEASURES:
        o = out[name]
        lo, hi = o["ci95"]
        lines.append(
            f"  {(words or {}).get(name, said)}: pitchsim {o['pitchsim']:.3f}, "
            f"{out['other']} {o['other']:.3f}, difference {o['difference']:+.3f} (95% {lo:+.3f} to {hi:+.3f})"
        )
    return lines
