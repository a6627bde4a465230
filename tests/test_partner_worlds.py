"""docs/rules.md 12.1 in the world sampler (``kernels.search.worlds.partner_constraint``,
read off a view by ``table.decide.view_knowledge``): the pitcher called a card he
lacked (12.1.2, pitchsim's call), so no world gives it to him unless he may have taken
it since (a kitty or the draw after the call); its holder is unknown to every seat but
the holder until the card is played (12.1.2, 12.1.3), known to all under announced
(12.1.4); under called a seat that played another card to trick 1 does not hold it
(12.1.3), so after trick 1 it is with nobody but the pitcher.  Views are cut from
reference-engine hands; the true deal must always be a possible world."""

from __future__ import annotations

import pytest
from random_hands import card_views, random_hands

from pitchsim.game.cards import mask_of
from pitchsim.game.rules import Rules
from pitchsim.game.view import View
from pitchsim.search.hint import worlds_at
from pitchsim.table.decide import view_knowledge

SPECS = [
    ("smear,partner=called", 5),
    ("auction-pitch,trump=named,partner=called", 6),
    ("smear,partner=announced", 5),
    ("ten-point,partnership=false,partner=called", 5),  # the draw after the call
    ("smear,partner=called,kitty=3", 5),  # the kitty after the call
]


def decisions(spec: str, n: int, count: int, seed: int = 7):
    """(hand, view) at every card decision of ``count`` random reference hands."""
    for rules, hand, _ in random_hands(spec, n, count, seed):
        for _seat, doc, _ in card_views(rules, hand, n):
            yield hand, View.from_json(doc)


def true_hands(hand, v: View) -> list[int]:
    """Every seat's cards now, as dealt by the reference."""
    return [hand.play.held[s] & ~v.played_by[s] for s in range(v.players)]


@pytest.mark.parametrize("spec, n", SPECS)
def test_12_1_the_true_deal_is_always_a_possible_world(spec, n):
    views = 0
    for hand, v in decisions(spec, n, 20):
        k = view_knowledge(v)
        unseen, allowed, must = k.constraint()
        true = true_hands(hand, v)
        for s in range(n):
            if s != v.seat:
                assert true[s] & ~int(allowed[s]) == 0, (s, v.to_json())
        in_hands = 0
        for m in true:
            in_hands |= m
        pile = mask_of(hand.draw.put_down) if hand.draw is not None else 0
        assert must & ~in_hands & ~pile == 0
        views += 1
    assert views > 100


@pytest.mark.parametrize("spec, n", SPECS)
def test_12_1_2_no_world_gives_the_pitcher_the_call_unless_he_may_have_taken_it(spec, n):
    """Nor, under called, a seat that played another card to trick 1 (12.1.3); a partner
    the seat knows holds it in every world; one it does not know is not always the true
    one (the holder is hidden, 12.1.2)."""
    r = Rules.parse(spec)
    may_hold = r.partner == "called" and bool(r.kitty or r.discard != "none")
    elsewhere = worlds_seen = 0
    for i, (hand, v) in enumerate(decisions(spec, n, 12, seed=11)):
        called, p, me = v.called, v.pitcher, v.seat
        worlds = worlds_at(v, 24, seed=i)
        assert len(worlds) > 0
        for w in worlds:
            worlds_seen += 1
            down = any(m >> called & 1 for m in v.played_by)
            if v.partner is not None and v.partner not in (p, me) and not down:
                assert w[v.partner] >> called & 1  # known (12.1.4) and not yet played
            if me != p and not may_hold:
                assert not w[p] >> called & 1, v.to_json()
            if r.partner == "called" and v.tricks:
                for s, c in zip(v.tricks[0].seats, v.tricks[0].cards, strict=True):
                    if c != called and s not in (p, me):
                        assert not w[s] >> called & 1  # 12.1.3
            holder = next((s for s in range(n) if w[s] >> called & 1), None)
            if v.partner is None and holder is not None and holder != hand.play.partner:
                elsewhere += 1
    assert worlds_seen > 500
    if r.partner == "called":
        assert elsewhere > 0  # the holder is unknown: worlds put the call at other seats
