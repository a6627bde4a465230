"""Whose side a seat plays for (docs/rules.md 0.9, 0.10), in ``hint`` and in the preset
kernels' search (``search.rollout.search_card``, auction-pitch as a preset):
in a partnership the pitcher's partner plays for the pitcher's side (most worlds with
the bid made, then most points) and the defenders' partners for theirs (most worlds
with it set, then fewest points); in solo play only the pitcher is on his side.

Positions are random deals of 4 (partnership and solo) played part way; the checks
recompute each seat's objective from the per-card outcomes and require that, for each
role, enough positions have a different best card for the two sides -- so that a seat
given the other side's objective fails.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from pitchsim.game.reference import deal_hands
from pitchsim.game.rules import Rules
from pitchsim.kernels.policies import PIMC
from pitchsim.kernels.rng import deal_key
from pitchsim.search.hint import BLOCK, hint, position_knowledge
from pitchsim.search.position import start_position
from pitchsim.table.decide import (
    heuristic_prior,
    kernel_search_card,
    pimc_valuer,
    search_worlds,
)

WORLDS = BLOCK  # one block of worlds: hint's single kernel call


def wanted(cards, totals, made, our_side, prior):
    """The cards the side wants most by its objective (several on a tie; prior first)."""
    big = 4 * WORLDS + 1
    score = {c: made[c] * big + totals[c] for c in cards}
    if not our_side:
        score = {c: -s for c, s in score.items()}
    top = max(score.values())
    return {c for c in cards if score[c] == top}


def positions(partnership, count, seed):
    """Random deals, either seat parity pitching, played at random for 4-16 cards."""
    rules = Rules(partnership=partnership)
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        pos = start_position(deal_hands(rng, 4), rng.randrange(4), rules, rng.choice([2, 3]))
        for _ in range(rng.randrange(4, 17)):
            pos = pos.play(rng.choice([c for c in range(52) if pos.legal() >> c & 1]))
        if pos.legal().bit_count() >= 2:
            out.append(pos)
    return out


def on_pitchers_side(pos):
    seat, pitcher = pos.to_play, pos.pitcher
    return (seat - pitcher) % 2 == 0 if pos.rules.partnership else seat == pitcher


@pytest.mark.parametrize("partnership", [True, False], ids=["partnership", "solo"])
def test_hint_plays_for_the_side_of_the_seat_to_move(partnership):
    decisive = {}  # role -> positions whose best card differs by side
    for i, pos in enumerate(positions(partnership, 36, 5 + partnership)):
        h = hint(pos, "pimc", WORLDS, seed=i)
        assert h.worlds == WORLDS
        ours = on_pitchers_side(pos)
        assert h.pitcher_side == ours
        cards = [c.card for c in h.cards]
        totals = {c.card: round(c.points * WORLDS) for c in h.cards}
        made = {c.card: round(c.p_at_least[pos.bid - 1] * WORLDS) for c in h.cards}
        best = wanted(cards, totals, made, ours, None)
        other = wanted(cards, totals, made, not ours, None)
        assert h.recommended in best, (pos.to_play, pos.pitcher, h.recommended, best)
        if not best & other:
            role = "pitcher" if pos.to_play == pos.pitcher else "partner" if ours else "defender"
            decisive[role] = decisive.get(role, 0) + 1
    roles = {"pitcher", "partner", "defender"} if partnership else {"pitcher", "defender"}
    assert set(decisive) == roles, decisive  # every role met a position where it matters
    assert all(v >= 2 for v in decisive.values()), decisive


@pytest.mark.parametrize("partnership", [True, False], ids=["partnership", "solo"])
def test_the_search_kernel_plays_for_the_side_of_the_seat_to_move(partnership):
    """The preset kernels' ``search_card`` (the pimc play policy's card, auction-pitch as
    a preset) against the objective recomputed here from the same worlds' outcomes (the
    decision's own stream, ``search_worlds``; each card solved by ``pimc_outcomes``)."""
    decisive = {}
    for i, pos in enumerate(positions(partnership, 36, 15 + partnership)):
        k = position_knowledge(pos)
        key, counter = deal_key(77, i), 3
        chosen = kernel_search_card(k, PIMC, key, counter, WORLDS)
        worlds = search_worlds(k, key, counter, WORLDS)
        assert worlds.shape[0] == WORLDS
        cards = np.array([c for c in range(52) if k.legal >> c & 1], dtype=np.int64)
        out, _ = pimc_valuer(k, worlds, cards)(0, WORLDS)
        assert out.shape[1] == WORLDS
        cards = [int(c) for c in cards]
        totals = {c: int(out[j].sum()) for j, c in enumerate(cards)}
        made = {c: int((out[j] >= pos.bid).sum()) for j, c in enumerate(cards)}
        ours = on_pitchers_side(pos)
        best = wanted(cards, totals, made, ours, None)
        other = wanted(cards, totals, made, not ours, None)
        assert chosen in best, (pos.to_play, pos.pitcher, chosen, best)
        if len(best) > 1:  # a tie goes to the heuristic's card when it is among the best
            prior = heuristic_prior(k)
            if prior in best:
                assert chosen == prior
        if not best & other:
            role = "pitcher" if pos.to_play == pos.pitcher else "partner" if ours else "defender"
            decisive[role] = decisive.get(role, 0) + 1
    roles = {"pitcher", "partner", "defender"} if partnership else {"pitcher", "defender"}
    assert set(decisive) == roles, decisive
    assert all(v >= 2 for v in decisive.values()), decisive
