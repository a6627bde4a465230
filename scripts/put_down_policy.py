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

``--against`` puts another rule in random's place, to find a better one than pitchsim's
(each changes only which non-trump goes down; the trumps by rule X and the stop under
discard=draw stay pitchsim's):
- ``game-first``: the non-trump 10s, Kings, Queens and Jacks first, the most Game first
  (rule 3.5's counts), keeping the Aces and the low cards that follow suit cheaply;
- ``short-suit``: the non-trumps of the shortest plain suit first (to be void and trump
  in), its lowest first, the Aces last.
"""

from __future__ import annotations

from paired_boards import board_options, print_summary  # scripts/ is first on sys.path

from pitchsim.game import reference as F
from pitchsim.game.cards import RANKS, parse_card, rank_of, suit_of
from pitchsim.game.rules import Rules
from pitchsim.table.decide import pitchsims_put_down
from pitchsim.table.paired import policy_versus

GAME = {"T": 10, "A": 4, "K": 3, "Q": 2, "J": 1}  # a card's Game count (3.5)


def _game(c: int) -> int:
    return GAME.get(RANKS[rank_of(c)], 0)


def game_first(c: int, plain: list[int]) -> tuple:
    return (_game(c) == 0 or RANKS[rank_of(c)] == "A", -_game(c), rank_of(c))


def short_suit(c: int, plain: list[int]) -> tuple:
    length = sum(suit_of(x) == suit_of(c) for x in plain)
    return (RANKS[rank_of(c)] == "A", length, rank_of(c))


RULES = {"game-first": game_first, "short-suit": short_suit}


def by_rule(order):
    """The put-down by ``order`` (a key on a non-trump and the seat's non-trumps):
    pitchsim's own where its card is a trump or it stops to draw."""

    def pick(view, rng) -> str:
        mine = pitchsims_put_down(view)
        trump, r = view.trump, view.preset
        if mine == "draw" or F.is_trump(parse_card(mine[5:], r.jokers), trump, r):
            return mine
        downs = [parse_card(a[5:], r.jokers) for a in view.legal() if a.startswith("down:")]
        plain = [c for c in downs if not F.is_trump(c, trump, r)]
        held = [c for c in view.kept if not F.is_trump(c, trump, r)]
        best = min(plain, key=lambda c: order(c, held))
        return next(
            a for a in view.legal() if a.startswith("down:") and parse_card(a[5:], r.jokers) == best
        )

    return pick


def measured(seat: str, pitcher: int | None, n: int) -> int | None:
    """``--seat``'s seat when ``pitcher`` pitches (None: nobody bid)."""
    if pitcher is None:
        return None
    return pitcher if seat == "pitcher" else (pitcher + 1) % n


def main() -> None:
    ap = board_options(__doc__, "smear,kitty=3", 4)
    ap.add_argument("--seat", choices=("pitcher", "defender"), default="pitcher")
    ap.add_argument("--against", choices=("random", *RULES), default="random")
    a = ap.parse_args()
    r, n = Rules.parse(a.rules), a.players

    def decides(seat: int, view) -> bool:
        return view.phase == "put_down" and seat == measured(a.seat, view.pitcher, n)

    def seat_of(doc: dict) -> int | None:
        return measured(a.seat, doc["pitcher"], n)

    other = None if a.against == "random" else by_rule(RULES[a.against])
    out, kept = policy_versus(
        r, n, a.boards, a.seed, a.strategy, decides, seat_of, other, a.against
    )
    out |= {"rules": a.rules, "seat": a.seat}
    # boards where the random put-down was pitchsim's own: the same actions throughout
    out["same"] = sum(docs[0]["actions"] == docs[1]["actions"] for _, docs in kept) / out["hands"]
    head = (
        f"{a.rules}, {n} players, {a.strategy}, the {a.seat}'s put-down: {out['hands']} hands "
        f"bid of {a.boards} boards (seed {a.seed}), {out['cpu_seconds']:.1f} CPU s; the "
        f"{a.against} put-down was pitchsim's in {out['same']:.1%}"
    )
    made = "P(make)" if a.seat == "pitcher" else "P(the pitcher is set)"
    print_summary(out, a.json, head, {"made": made})


if __name__ == "__main__":
    main()
