"""docs/rules.md 4.8.4, 12.8.2, 12.8.4 and 12.9 in the worlds a seat imagines, recounted
in plain Python on random reference hands where the stock runs out and later seats draw
from the discards.

From the hand's record alone (who put down which cards, in which turn, and who drew
from the discards), worked out here without the view's or the kernels' code: a discard
a seat saw go down (its own; under ``discards=shown`` every seat's) may be in another
seat's hand only if that seat drew from the discards in its turn at or after the turn
the card went down (4.8 step 4: "the rest from this hand's face-down discards"), and
it is never among the robber's cards put down face down (the pile: a seat that drew
from the discards holds 6 and puts down nothing after).  At every card decision of
every seat:

- the true deal keeps that rule (the recount's own check) and is a possible world
  (``view_knowledge(...).constraint()`` allows every other seat its true cards);
- every world sampled (``search.hint.worlds_at``) keeps it;
- and the rule bites: some seen discard is barred from some seat, and some world
  still deals a seen discard back to a seat that drew."""

from __future__ import annotations

import pytest
from random_hands import card_views, random_hands

from pitchsim.game.cards import cards_of, mask_of
from pitchsim.game.view import View
from pitchsim.search.hint import worlds_at
from pitchsim.table.decide import view_knowledge

SPECS = [
    # 12.8.2: 45 of 52 dealt, so the stock runs out at the third seat or so
    ("auction-pitch,deal=9,discard=draw,trump=named,discards=shown", 5),
    ("auction-pitch,deal=9,discard=draw,trump=named", 5),  # 12.8.4: own discards only
    ("auction-pitch,trump=named,discard=draw,discards=shown", 7),
    ("auction-pitch,trump=named,discard=draw", 7),
    # 4.8 with no stock at 6 (every draw from the discards), 12.7 the dealer robbing
    ("ten-point,partnership=false,follow=trump", 6),
    ("ten-point,partnership=false,follow=trump,rob=dealer,discards=shown", 6),
]


def turns(rules, n: int, pitcher: int, dealer: int) -> list[int]:
    """Each seat's turn in the discard and draw: from the pitcher's left under 4.8
    (the dealer's under rob=dealer, 12.7), from the dealer's left under 12.8."""
    last = dealer if rules.discard != "non-trump" or rules.rob == "dealer" else pitcher
    order = [(last + 1 + i) % n for i in range(n)]
    return [order.index(s) for s in range(n)]


def may_hold_rule(rules, hand, n: int):
    """(seen(me), may(card, seat)) from the record: the discards seat ``me`` saw go
    down, and whether ``seat`` may hold a discarded ``card``."""
    rec = hand.draw
    turn = turns(rules, n, hand.auction.pitcher, hand.dealer)
    every = 0
    owner = {}
    for s in range(n):
        every |= rec.discarded[s]
        for c in cards_of(rec.discarded[s]):
            owner[c] = s
    drew_back = [bool(mask_of(rec.drawn[s]) & every) for s in range(n)]

    def seen(me: int) -> int:
        return every if rules.discards == "shown" else rec.discarded[me]

    def may(card: int, seat: int) -> bool:
        return drew_back[seat] and turn[seat] >= turn[owner[card]]

    return seen, may


@pytest.mark.parametrize(("spec", "n"), SPECS)
def test_4_8_4_and_12_9_a_discard_seen_is_only_where_a_later_draw_can_have_taken_it(spec, n):
    views = barred = dealt_back = 0
    for rules, hand, _ in random_hands(spec, n, 12, seed=29):
        seen_by, may = may_hold_rule(rules, hand, n)
        for seat, doc, _ in card_views(rules, hand, n):
            v = View.from_json(doc)
            seen = seen_by(seat)
            true = [hand.play.held[s] & ~v.played_by[s] for s in range(n)]
            _, allowed, _ = view_knowledge(v).constraint()
            unseen_down = seen & ~true[seat]
            for s in range(n):
                if s == seat:
                    continue
                for c in cards_of(true[s] & seen):
                    assert may(c, s), (spec, seat, s, c)  # the recount's own rule holds
                assert true[s] & ~int(allowed[s]) == 0, (spec, v.to_json(), s)
                for c in cards_of(unseen_down):
                    if not any(v.played_by[x] >> c & 1 for x in range(n)):
                        barred += not may(c, s)
            for w in worlds_at(v, 12, seed=views):
                w = [int(x) for x in w]
                assert w[n] & seen == 0, (spec, v.to_json())
                for s in range(n):
                    if s == seat:
                        continue
                    for c in cards_of(w[s] & seen):
                        assert may(c, s), (spec, v.to_json(), s, c)
                        dealt_back += 1
            views += 1
    assert views > 100
    assert barred > 100  # a seen discard some seat cannot hold: the rule bites
    assert dealt_back > 100  # and the worlds still deal discards back where they may be
