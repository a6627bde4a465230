"""The put-down a player chooses (docs/rules.md 12.2.2, 12.8.1, 12.8.3): groundwork for
making it a decision at the table.  pitchsim's put-down, one card at a time
(``reference.pitchsims_put_down``), comes down as ``come_down`` did; a put-down a
seat chose (``reference.put_down_by``) is checked and used; and a view carrying its
seat's own put-down (``kitty.mine.put_down``, under discard=choice ``draw.mine.discarded``)
reads it as that seat's choice, and refuses an impossible one in one line."""

from __future__ import annotations

import json
import random

import pytest
from random_hands import random_hands

from pitchsim.game import reference as F
from pitchsim.game.cards import cards_of, mask_of, parse_cards
from pitchsim.game.rules import Rules
from pitchsim.game.view import View, ViewError, card_text, cut_hand

SPECS = ["smear,kitty=3,partner=called", "auction-pitch,deal=9,discard=choice,trump=named"]
SPECS += ["smear,kitty=2,deal=9,discard=choice", "ten-point,rob=false,kitty=2,discard=choice"]


@pytest.mark.parametrize("spec", SPECS)
def test_12_8_3_pitchsims_put_down_one_card_at_a_time_is_come_down(spec):
    """Asked again until the hand holds 6, pitchsim's put-down of one card puts down
    exactly ``come_down``'s cards, in its order, never a called trump (12.1.3): so
    pitchsim's seats asked card by card play the game the fixed rule played."""
    r = Rules.parse(spec)
    rng = random.Random(7)
    pack = F.pack(r, 4)
    for _ in range(300):
        size = rng.randrange(7, 13)
        held = mask_of(rng.sample(pack, size))
        trump = rng.randrange(4)
        trumps = [c for c in cards_of(held) if F.is_trump(c, trump, r)]
        called = rng.choice(trumps) if trumps and rng.random() < 0.5 else -1
        want = F.come_down(held, trump, r, called)
        got, h = [], held
        while h.bit_count() > F.HAND_TARGET:
            c = F.pitchsims_put_down(h, trump, r, called)
            assert c in F.may_put_down(h, trump, r, called)
            got.append(c)
            h &= ~(1 << c)
        assert got == want
        assert called not in got


def test_12_8_1_a_chosen_put_down_is_checked():
    r = Rules.parse("smear,kitty=2,deal=9,discard=choice")
    held = mask_of(F.pack(r, 4)[:9])
    cards = cards_of(held)
    assert F.put_down_by(1, held, 0, r, -1, {1: cards[-3:]}) == cards[-3:]
    assert F.put_down_by(1, held, 0, r, -1, {2: cards[:3]}) == F.come_down(held, 0, r)
    for bad, called in (
        (cards[:2], -1),  # too few: he comes down to 6
        (cards[:4], -1),  # too many
        ([cards[0]] * 3, -1),  # one card thrice
        (cards[:2] + [F.pack(r, 4)[20]], -1),  # a card he does not hold
        (cards[:3], cards[0]),  # 12.1.3: never a called trump
    ):
        with pytest.raises(ValueError, match="comes down to 6"):
            F.put_down_by(1, held, 0, r, called, {1: bad})


def test_12_8_1_after_naming_takes_the_seats_choices():
    """Under choice every seat comes down to 6 from the dealer's left (12.8.1), each
    with its own choice where it made one, pitchsim's elsewhere; the kitty's pitcher
    puts down his chosen cards out of play (12.2.2)."""
    r = Rules.parse("smear,kitty=2,deal=9,discard=choice")
    rng = random.Random(3)
    deck = F.pack(r, 4)
    rng.shuffle(deck)
    dealt = [mask_of(deck[9 * s : 9 * s + 9]) for s in range(4)]
    stock = deck[36:]
    pitcher, trump = 1, 2
    base, rec0 = F.after_naming(dealt, stock, pitcher, trump, r, rng, dealer=0)
    with_kitty = dealt[pitcher] | mask_of(F.kitty_of(stock, r))
    chosen = {2: cards_of(dealt[2])[:3], pitcher: cards_of(with_kitty)[-5:]}
    held, rec = F.after_naming(dealt, stock, pitcher, trump, r, rng, dealer=0, chosen=chosen)
    assert held[2] == dealt[2] & ~mask_of(chosen[2])
    assert rec.discarded[2] == mask_of(chosen[2])
    assert rec.put_down == chosen[pitcher]
    assert held[pitcher] == with_kitty & ~mask_of(chosen[pitcher])
    for s in (0, 3):  # pitchsim's for the seats that chose nothing
        assert held[s] == base[s] and rec.discarded[s] == rec0.discarded[s]
    assert all(h.bit_count() == 6 for h in held)


def _first_view(spec, seat_of):
    """The first view of a random hand of ``spec`` at seat ``seat_of(hand)`` once play
    has started, before any card: (doc, hand)."""
    for rules, hand, _ in random_hands(spec, 4, 20, seed=5):
        want = seat_of(hand)
        for seat, doc, _ in cut_hand(hand, 4, rules, [0] * 4):
            if seat == want and doc.get("trump") and not doc.get("tricks"):
                return json.loads(json.dumps(doc)), hand
        # (the seat plays a later card in this hand: try the next)
    raise AssertionError("no such view")


def _other_choice(held: list[str], down: list[str], keep: str | None) -> list[str]:
    """Another legal put-down: the same number of cards, a different set."""
    cards = [c for c in held + down if c != keep]
    choice = sorted(cards, reverse=True)[: len(down)]
    assert set(choice) != set(down)
    return choice


def test_12_2_2_a_view_reads_the_kitty_pitchers_own_put_down():
    """The pitcher's view names the cards he put down from the kitty (12.2.2): read as
    his choice (his hand in play follows), checked: another number of cards, or a card
    he did not hold, is refused in one line."""
    doc, hand = _first_view("smear,kitty=3", lambda h: h.auction.pitcher)
    mine = doc["kitty"]["mine"]
    doc.pop("held", None)
    held = [card_text(c) for c in cards_of(hand.play.held[hand.auction.pitcher])]
    choice = _other_choice(held, mine["put_down"], None)
    v = View.from_json(doc | {"kitty": doc["kitty"] | {"mine": mine | {"put_down": choice}}})
    assert sorted(card_text(c) for c in v.put_down) == sorted(choice)
    assert sorted(card_text(c) for c in v.kept) == sorted(
        set(held + mine["put_down"]) - set(choice)
    )
    assert set(v.legal()) <= {card_text(c) for c in v.kept}
    p = hand.auction.pitcher
    theirs = card_text(cards_of(hand.dealt[(p + 1) % 4])[0])  # a card he never held
    for bad in (choice[:-1], [*choice[:-1], theirs]):
        with pytest.raises(ViewError, match="12.2.2") as e:
            View.from_json(doc | {"kitty": doc["kitty"] | {"mine": mine | {"put_down": bad}}})
        assert "\n" not in str(e.value)


def test_12_8_1_a_view_reads_the_seats_own_choice_put_down():
    """Under discard=choice a seat's view names its own put-down (12.8.1): read as its
    choice, checked; one given that does not leave 6 is refused in one line."""
    spec = "auction-pitch,deal=9,discard=choice,trump=named"
    doc, hand = _first_view(spec, lambda h: h.auction.pitcher)
    seat = hand.auction.pitcher
    mine = doc["draw"]["mine"]
    down = [card_text(c) for c in cards_of(hand.draw.discarded[seat])]
    v = View.from_json(doc | {"draw": doc["draw"] | {"mine": mine | {"discarded": down}}})
    assert sorted(card_text(c) for c in v.discards) == sorted(down)  # pitchsim's, given
    held = [card_text(c) for c in cards_of(hand.play.held[seat])]
    choice = _other_choice(held, down, None)
    v = View.from_json(doc | {"draw": doc["draw"] | {"mine": mine | {"discarded": choice}}})
    assert sorted(card_text(c) for c in v.discards) == sorted(choice)
    assert sorted(card_text(c) for c in v.kept) == sorted(set(doc["hand"]) - set(choice))
    with pytest.raises(ViewError, match="12.8.1") as e:
        View.from_json(doc | {"draw": doc["draw"] | {"mine": mine | {"discarded": choice[:-1]}}})
    assert "\n" not in str(e.value)


def test_12_2_5_the_search_knows_the_chosen_put_down_out_of_play():
    """The pitcher's chosen put-down is out of play to him (12.2.2, 12.2.5): the
    search's knowledge counts his choice out, not pitchsim's."""
    from pitchsim.table.decide import view_knowledge

    doc, hand = _first_view("smear,kitty=3", lambda h: h.auction.pitcher)
    mine = doc["kitty"]["mine"]
    held = [card_text(c) for c in cards_of(hand.play.held[hand.auction.pitcher])]
    choice = _other_choice(held, mine["put_down"], None)
    v = View.from_json(doc | {"kitty": doc["kitty"] | {"mine": mine | {"put_down": choice}}})
    k = view_knowledge(v)
    assert int(k.known_out) == mask_of(v.put_down) == mask_of(parse_cards(" ".join(choice)))
    assert int(k.counts[4]) == 0  # he knows what went down


@pytest.mark.parametrize(
    "spec", ["smear,kitty=3,discard=draw", "smear,kitty=2,deal=9,discard=choice"]
)
def test_12_8_1_the_tables_draw_takes_chosen_put_downs(spec):
    """The table's draw (the kernels' deal, checked against the reference) takes the
    seats' chosen put-downs: the kitty's pitcher's, and under choice any seat's; with
    none it is pitchsim's."""
    import numpy as np

    from pitchsim.kernels.rng import deal_key
    from pitchsim.table.game import _kernel_deal

    r = Rules.parse(spec)
    dealt, stock, draw = _kernel_deal(r, 4, 0, np.uint64(deal_key(5, 0)))
    pitcher, trump = 2, 1
    base, _ = draw(dealt, stock, pitcher, trump)
    kitty = mask_of(F.kitty_of(stock, r))
    mine = cards_of(dealt[pitcher] | kitty)
    chosen = {pitcher: mine[-(len(mine) - 6) :]}
    if r.discard == "choice":
        chosen[3] = cards_of(dealt[3])[:3]
    held, rec = draw(dealt, stock, pitcher, trump, chosen=chosen)
    assert held[pitcher] == (dealt[pitcher] | kitty) & ~mask_of(chosen[pitcher])
    assert sorted(rec.put_down) == sorted(chosen[pitcher])
    for s in range(4):
        if s in chosen:
            continue
        assert held[s] == base[s]
    if 3 in chosen:
        assert held[3] == dealt[3] & ~mask_of(chosen[3])
