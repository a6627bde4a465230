#!/usr/bin/env python3
"""pitchsim's put-down coming down to 6 (docs/rules.md 12.8.3: the non-trumps, the
lowest first, then the trumps by rule X) against a uniformly random legal put-down,
paired on the same deals.

    PYTHONPATH=. .venv/bin/python scripts/put_down_policy.py --rules smear,kitty=3 --players 4
    PYTHONPATH=. .venv/bin/python scripts/put_down_policy.py \\
        --rules auction-pitch,deal=9,discard=choice,trump=named --players 4 --seat defender

Each board is one hand at the open table, played twice by built-in seats
(``--strategy``), as ``scripts/call_policy.py`` plays the call (``pitchsim.table.paired``):
once with pitchsim's put-down for every seat, once with the put-down of one seat made
card by card uniformly at random from the put-down's legal actions (any held card but a
called trump, 12.1.3).  The seat is the pitcher (``--seat pitcher``: the kitty's pitcher,
12.2.2, or under discard=choice the pitcher among the seats coming down, 12.8.1) or the
first seat after the pitcher (``--seat defender``: a defender where the pitcher has no
partner yet, as under discard=choice).  Everything else is the same in both: the deal,
the auction, the naming of trump, the call, the other seats' put-downs and every
decision after, by the same seats from the same random streams.  Hands nobody bid are
left out.

For the seat's side it prints the mean per hand of its points taken, P(make) (a
defender: P(the pitcher is set)) and the seat's score change, for both put-downs and as
the paired difference (pitchsim's minus random) with a 95% interval, how often the random
put-down was pitchsim's own, and the CPU seconds.
"""

from __future__ import annotations

from paired_boards import board_options, print_summary  # scripts/ is first on sys.path

from pitchsim.game.rules import Rules
from pitchsim.table.paired import policy_versus_random


def measured(seat: str, pitcher: int | None, n: int) -> int | None:
    """``--seat``'s seat when ``pitcher`` pitches (None: nobody bid)."""
    if pitcher is None:
        return None
    return pitcher if seat == "pitcher" else (pitcher + 1) % n


def main() -> None:
    ap = board_options(__doc__, "smear,kitty=3", 4)
    ap.add_argument("--seat", choices=("pitcher", "defender"), default="pitcher")
    a = ap.parse_args()
    r, n = Rules.parse(a.rules), a.players

    def decides(seat: int, view) -> bool:
        return view.phase == "put_down" and seat == measured(a.seat, view.pitcher, n)

    def seat_of(doc: dict) -> int | None:
        return measured(a.seat, doc["pitcher"], n)

    out, kept = policy_versus_random(r, n, a.boards, a.seed, a.strategy, decides, seat_of)
    out |= {"rules": a.rules, "seat": a.seat}
    # boards where the random put-down was pitchsim's own: the same actions throughout
    out["same"] = sum(docs[0]["actions"] == docs[1]["actions"] for _, docs in kept) / out["hands"]
    head = (
        f"{a.rules}, {n} players, {a.strategy}, the {a.seat}'s put-down: {out['hands']} hands "
        f"bid of {a.boards} boards (seed {a.seed}), {out['cpu_seconds']:.1f} CPU s; the random "
        f"put-down was pitchsim's in {out['same']:.1%}"
    )
    made = "P(make)" if a.seat == "pitcher" else "P(the pitcher is set)"
    print_summary(out, a.json, head, {"made": made})


if __name__ == "__main__":
    main()
