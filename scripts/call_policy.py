#!/usr/bin/env python3
"""pitchsim's call of a partner's card (docs/rules.md 12.1.2: the highest trump the
pitcher lacks) against a uniformly random callable card, paired on the same deals.

    PYTHONPATH=. .venv/bin/python scripts/call_policy.py --boards 2000
    PYTHONPATH=. .venv/bin/python scripts/call_policy.py --rules smear,partner=announced --players 6

Each board is one hand at the open table (``table.game.TableDeal``: the deal and the
draw the family kernels give board ``b`` of ``--seed``, scores 0, the dealer seat
``b`` mod players), played twice by built-in seats (``--strategy``): once with
pitchsim's call, once with a card drawn uniformly from the call's legal actions
(``callable_cards``: any trump under called, also one the pitcher holds, then he plays
alone, 12.1.5).  Everything before the call (the deal, the auction, the naming of
trump) is the same in both; every decision after it is made by the same seats from the
same random streams, so the two differ only by the call and what follows from it.
Hands nobody bid are left out.

For the pitcher's side (12.1.6: the pitcher and the holder of the call) it prints the
mean per hand of its points taken, P(make) and its score change (the pitcher's
``round_points``), each for both calls and as the paired difference (pitchsim's minus
random) with a 95% interval (1.96 paired standard errors), and the CPU seconds.
The pairing is ``pitchsim.table.paired``'s, shared with ``scripts/put_down_policy.py``.
"""

from __future__ import annotations

from paired_boards import board_options, print_summary  # scripts/ is first on sys.path

from pitchsim.game.rules import Rules
from pitchsim.table.paired import policy_versus


def main() -> None:
    a = board_options(__doc__, "smear,partner=called", 5).parse_args()
    r, n = Rules.parse(a.rules), a.players
    out, kept = policy_versus(
        r,
        n,
        a.boards,
        a.seed,
        a.strategy,
        lambda seat, view: view.phase == "call",
        lambda doc: doc["pitcher"],
    )
    out["rules"] = a.rules
    hands = out["hands"]
    out["alone"] = {
        arm: sum(docs[i]["partner"] is None for _, docs in kept) / hands
        for i, arm in enumerate(("pitchsim", "random"))
    }
    head = (
        f"{a.rules}, {n} players, {a.strategy}: {hands} hands bid of {a.boards} boards "
        f"(seed {a.seed}), {out['cpu_seconds']:.1f} CPU s; the pitcher alone: pitchsim's call "
        f"{out['alone']['pitchsim']:.1%}, random {out['alone']['random']:.1%}"
    )
    words = {"points": "the pitcher's side's points", "score": "the pitcher's score change"}
    print_summary(out, a.json, head, words)


if __name__ == "__main__":
    main()
