"""The robber's put-down shown face up (docs/rules.md 4.8.5, 11.8, 12.7, 12.9) in a
player's view: the reference engine records it (``DrawRecord.put_down_shown``), the view
carries it (``draw.put_down_shown``, docs/protocol.md), every seat counts it out of play
and no world deals it; a document that gets it wrong is refused in one line.  And 4.8.4
with 12.9: a seat that draws from the face-up discards knows what it took and that the
rest stay down."""

from __future__ import annotations

import copy
import json

import pytest
from test_family_hidden import check_knowledge, mask, played_hands

from pitchsim.game import reference as F
from pitchsim.game.cards import format_card
from pitchsim.game.view import View, ViewError, cut_hand
from pitchsim.search.hint import worlds_at
from pitchsim.table.decide import view_knowledge

# Random Cinch games (seed, hands) in which the dealer robbed more than 6 trumps, found
# by a search of seeds 100-300; the test checks that each does.
CINCH_BURNS = [(138, 2), (150, 2), (184, 2)]


def text(c: int) -> str:
    return format_card(c, symbols=False)


def first_docs(spec: str, n: int, seed: int, hands: int):
    """(rules, hand, {seat: its first card decision's view document}) per hand."""
    for rules, hand, before in played_hands(spec, n, seed, hands=hands):
        docs: dict[int, dict] = {}
        for seat, doc, _ in cut_hand(hand, n, rules, before):
            if seat not in docs and doc.get("tricks") is not None:
                docs[seat] = json.loads(json.dumps(doc))
        yield rules, hand, docs


def burning_hand():
    for seed, hands in CINCH_BURNS:
        for rules, hand, docs in first_docs("cinch", 4, seed, hands):
            if hand.draw.put_down_shown:
                return rules, hand, docs
    raise AssertionError("no Cinch hand with the dealer's excess trumps: the seeds moved")


def refused(rules, doc: dict, *words: str) -> str:
    with pytest.raises(ViewError) as e:
        View.from_json(doc, rules=rules)
    msg = str(e.value)
    assert "\n" not in msg and all(w in msg for w in words), msg
    return msg


def test_12_7_every_seat_sees_the_dealers_excess_trumps_and_no_world_deals_them():
    rules, hand, docs = burning_hand()
    shown = hand.draw.put_down_shown
    robber = hand.dealer
    for seat, doc in docs.items():
        v = View.from_json(doc, rules=rules)
        assert sorted(v.put_down_shown) == sorted(shown)
        assert View.from_json(v.to_json(), rules=rules) == v  # round trip
        k = view_knowledge(v)
        assert k.known_out & mask(shown) == mask(shown)
        n = v.players
        if seat != robber:
            assert doc["draw"]["put_down_shown"] == [text(c) for c in shown]
            assert int(k.counts[n]) == v.put_down_count - len(shown)
            trumps = F.trumps_in(mask(range(52)), v.trump, rules)
            for w in worlds_at(v, 20, seed=seat):
                assert all(int(x) & mask(shown) == 0 for x in w)
                assert int(w[n]) & trumps == 0  # the face-down pile holds no trump (12.7)
                assert int(w[n]).bit_count() == int(k.counts[n])


def test_12_7_an_older_document_without_the_field_still_reads():
    rules, hand, docs = burning_hand()
    seat = next(s for s in docs if s != hand.dealer)
    doc = copy.deepcopy(docs[seat])
    del doc["draw"]["put_down_shown"]
    v = View.from_json(doc, rules=rules)
    assert v.put_down_shown == ()  # read as none shown
    # the dealer's own view works it out from what he put down
    mine = copy.deepcopy(docs[hand.dealer])
    mine["draw"].pop("put_down_shown", None)
    v = View.from_json(mine, rules=rules)
    assert sorted(v.put_down_shown) == sorted(hand.draw.put_down_shown)


def test_12_7_a_wrong_put_down_shown_is_refused_in_one_line():
    rules, hand, docs = burning_hand()
    seat = next(s for s in docs if s != hand.dealer)
    doc = docs[seat]
    shown = doc["draw"]["put_down_shown"]
    trump = doc["trump"]

    def bad(cards, *words):
        d = copy.deepcopy(doc)
        d["draw"]["put_down_shown"] = cards
        return refused(rules, d, *words)

    non_trump = next(
        c for c in ("2", "3", "4", "6", "7", "8", "9") for c in [c + "C", c + "D", c + "H", c + "S"]
        if c[1] != trump and c not in doc["hand"] and c not in json.dumps(doc["draw"])
    )  # fmt: skip
    bad([*shown, non_trump], "not a trump")
    bad([*shown, doc["hand"][0]], "already in")  # a card of its own hand
    bad(shown + shown, "twice")
    for not_a_list in (0, "", None, False):  # never read as "none shown"
        bad(not_a_list, "must be a list")
    mine = copy.deepcopy(docs[hand.dealer])
    mine["draw"]["put_down_shown"] = []
    View.from_json(mine, rules=rules)  # none given: worked out
    mine["draw"]["put_down_shown"] = [non_trump]
    refused(rules, mine, "the robber shows")


def test_4_8_5_and_12_9_a_ten_point_pitchers_put_down_is_face_down():
    """rob=true with discards=hidden: the pitcher's put-down is a count, never shown."""
    for seed in range(20):
        for rules, hand, docs in first_docs("ten-point", 4, seed, 2):
            if hand.draw.put_down and any(s != hand.auction.pitcher for s in docs):
                seat = next(s for s in docs if s != hand.auction.pitcher)
                assert hand.draw.put_down_shown == []
                doc = copy.deepcopy(docs[seat])
                assert "put_down_shown" not in doc["draw"]
                doc["draw"]["put_down_shown"] = [text(hand.draw.put_down[0])]
                refused(rules, doc, "face down (12.9)")
                return
    raise AssertionError("no ten-point hand with a put-down")


def test_4_8_5_too_many_shown_and_no_rob_refused():
    for seed in range(20):
        for rules, hand, docs in first_docs("ten-point,discards=shown", 4, seed, 2):
            pitcher = hand.auction.pitcher
            if len(hand.draw.put_down) > 0 and any(s != pitcher for s in docs):
                seat = next(s for s in docs if s != pitcher)
                doc = docs[seat]
                assert doc["draw"]["put_down_shown"] == [text(c) for c in hand.draw.put_down]
                View.from_json(doc, rules=rules)
                if len(hand.draw.put_down) > 1:
                    d = copy.deepcopy(doc)
                    d["draw"]["put_down_shown"] = d["draw"]["put_down_shown"][1:]
                    refused(rules, d, "every one is face up")
                d = copy.deepcopy(doc)
                d["draw"]["put_down_shown"] += [doc["hand"][0]]
                refused(rules, d, "cards shown, but the robber put down")
                return
    raise AssertionError("no ten-point,discards=shown hand with a put-down")


def test_4_8_4_the_seat_drawing_from_the_face_up_discards_knows_the_rest_stay():
    """6 players, no stock: every draw is from the discards, face up (12.9).  A seat
    knows every other seat's face-up discard is still down unless another seat drew
    from the discards after it went down; what it drew itself it knows (4.8.4).  The
    kernel agrees, seat by seat (``check_knowledge``)."""
    spec = "ten-point,partnership=false,follow=trump,rob=dealer,discards=shown"
    knew = 0
    for seed in range(4):
        for rules, hand, docs in first_docs(spec, 6, seed, 2):
            r = rules
            robber = r.robber(hand.auction.pitcher, hand.dealer)
            order = [(robber + 1 + i) % 6 for i in range(6)]
            d = hand.draw
            for x, doc in docs.items():
                v = View.from_json(doc, rules=r)
                others = [i for i, s in enumerate(order) if s != x and d.drawn[s]]
                since = others[-1] + 1 if others else 0
                want = 0
                for s in order[since:]:
                    if s != x:
                        want |= d.discarded[s]
                want &= ~mask(d.drawn[x])
                assert v.shown_out == want, (seed, x, doc)
                mine = order.index(x)
                before_me = 0
                for s in order[since:mine]:
                    before_me |= d.discarded[s]
                knew += bool(d.drawn[x] and before_me & want)
    assert knew > 0  # a seat that drew from the discards still knows some stay down
    check_knowledge(spec, 6, [(0, False), (1, False)])


def test_12_7_the_practice_table_says_which_put_down_cards_are_face_up():
    from pitchsim.coach.practice import _draw_lines

    rules, hand, docs = burning_hand()
    seat = next(s for s in docs if s != hand.dealer)
    v = View.from_json(docs[seat], rules=rules)
    who = [f"seat {s}" for s in range(v.players)]
    line = next(x for x in _draw_lines(v, who, lambda t, s: t) if "robbed the stock" in x)
    down = v.put_down_count - len(v.put_down_shown)
    assert f"put down {down} face down and " in line and line.endswith("face up"), line
