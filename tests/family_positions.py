"""Random family positions for the solver tests: a hand dealt, trump fixed, drawn and
played at random by the reference engine (game/reference/families.py), then cut."""

from __future__ import annotations

import random

from pitchsim.game.reference import families as ref
from pitchsim.game.rules import as_family


def random_hand(rules, n: int, rng: random.Random, pitcher: int | None = None):
    """(held, record) of one hand played at random from the first lead."""
    r = as_family(rules)
    dealt, stock = ref.deal(rng, r, n, rng.randrange(n))
    pitcher = rng.randrange(n) if pitcher is None else pitcher
    trump = -1
    held = dealt
    if r.trump == "named":
        trump = rng.randrange(4)
        if r.discard == "non-trump":
            held, _ = ref.discard_and_draw(dealt, stock, pitcher, trump, r, rng)
    choose = lambda view: rng.choice([c for c in range(54) if view.legal >> c & 1])  # noqa: E731
    rec = ref.play_hand(held, pitcher, choose, r, trump=trump)
    return held, trump, rec


def cut(held, trump, rec, tricks_done: int, cards: int):
    """The position after ``tricks_done`` whole tricks and ``cards`` of the next:
    (hands, won, leader, trick, trump); trump -1 at the opening lead under first-lead."""
    n = len(held)
    hands = list(held)
    won = [0] * n
    for _leader, seats, cs, winner in rec.tricks[:tricks_done]:
        for s, c in zip(seats, cs, strict=True):
            hands[s] &= ~(1 << c)
            won[winner] |= 1 << c
    if tricks_done < len(rec.tricks):
        leader, seats, cs, _ = rec.tricks[tricks_done]
        trick = list(cs[:cards])
        for s, c in zip(seats[:cards], trick, strict=True):
            hands[s] &= ~(1 << c)
    else:
        leader, trick = rec.tricks[-1][3], []
    if trump < 0 and (tricks_done > 0 or cards > 0):
        trump = rec.trump
    return hands, won, leader, trick, trump


def random_position(rules, n: int, rng: random.Random, back=(2, 4), mid: bool = True):
    """A random position ``back`` tricks (a range) before the end; some mid-trick."""
    held, trump, rec = random_hand(rules, n, rng)
    t = len(rec.tricks)
    k = max(0, t - rng.randint(*back))
    cards = rng.randrange(len(rec.tricks[k][2])) if (mid and rng.random() < 0.5) else 0
    hands, won, leader, trick, trump = cut(held, trump, rec, k, cards)
    return rec.pitcher, held, hands, won, leader, trick, trump
