"""Compile the kernels only the tests run, once, into the numba cache, before the suite:
no pitchsim command runs them, so ``pitchsim cache warm`` leaves them out, and each
pytest worker would compile them for itself, side by side (17.9, 12.4 and 7.1 CPU-s a
worker, session 69).  ``scripts/dev.py test`` runs this after the warm-up, then the
suite, whose workers load them.

    .venv/bin/python tests/warm_kernels.py                  # every group, side by side
    .venv/bin/python tests/warm_kernels.py play_logged      # these, in this process

Each kernel is called on a tiny input in the argument types the tests give it (numba
compiles a kernel once per types: other types would compile again in the tests).
"""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np

# A process each, side by side (two cores): about as long each
GROUPS = (("simulate_fixed",), ("play_logged", "solve_deals"))


def simulate_fixed() -> None:
    """As tests/test_families_kernels.py, test_odds.py and test_option_effects.py call
    it (through ``make_odds``, the library call that runs it)."""
    from pitchsim.game.rules import Rules
    from pitchsim.kernels.simulate import make_odds

    make_odds(Rules.parse("smear"), 4, 1)


def play_logged() -> None:
    """As tests/logged_hands.py calls it (and the tests that log hands themselves)."""
    from logged_hands import logged_hands

    logged_hands("smear", 4, 1, 1)


def solve_deals() -> None:
    """As tests/test_solver.py calls it: whole deals, int64, from the opening lead."""
    from pitchsim.game.cards import cards_of
    from pitchsim.game.rules import Rules
    from pitchsim.kernels.presets import rules_array
    from pitchsim.kernels.search.solver import solve_deals as kernel

    deal = [sum(1 << c for c in cards_of(0xFFFFFF)[6 * s : 6 * s + 6]) for s in range(4)]
    kernel(np.array([deal], np.int64), np.zeros(1, np.int64), rules_array(Rules()))


def main(names: list[str]) -> int:
    """``names`` compiled here; none: each group in a process of its own, at once.
    Returns how many processes failed."""
    if names:
        os.environ["PITCHSIM_COMPILE_NOTICE"] = "0"  # (dev.py says what runs)
        for name in names:
            globals()[name]()
        return 0
    runs = [subprocess.Popen([sys.executable, __file__, *group]) for group in GROUPS]
    return sum(p.wait() != 0 for p in runs)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
