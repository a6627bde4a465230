"""docs/rules.md 12.1 in the world sampler (``kernels.search.worlds.partner_constraint``,
read off a view by ``table.decide.view_knowledge``): the pitcher may call a card he
holds himself (12.1.2), and nobody else learns so until it is played (12.1.10), so to
the others he may hold it, and the true deal is a possible world whether he does or
not; he himself knows.  Its holder is unknown to every seat but the holder until the
card is played (12.1.2, 12.1.3), known to all under announced (12.1.4); under called a
seat that played another card to trick 1 does not hold it (12.1.3), so after trick 1
it is with nobody but the pitcher, and it is never put down (12.1.3), so never in the
pile.  Views are cut from reference-engine hands, with pitchsim's call (the highest
trump the pitcher lacks) and with a call of any callable card, often his own."""

from __future__ import annotations

import random

import pytest
from random_hands import card_views, random_hands

from pitchsim.game import reference as F
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
    # the stock lasts to the robbing pitcher, who puts down face down: a pile dealt
    ("ten-point,partnership=false,partner=called,deal=6", 5),
]


def own_caller(seed: int):
    """A pitcher calling any card he may (12.1.2, 12.1.4), his own half the time."""
    pick = random.Random(seed)

    def call(seat: int, hand: int, trump: int) -> int:
        rules = call.rules
        cards = F.callable_cards(trump, rules)
        mine = [c for c in cards if hand >> c & 1]
        return pick.choice(mine if mine and pick.random() < 0.5 else cards)

    return call


def decisions(spec: str, n: int, count: int, seed: int = 7, own: bool = False):
    """(hand, view) at every card decision of ``count`` random reference hands; ``own``:
    the pitcher calls any callable card (``own_caller``), else pitchsim's call."""
    caller = None
    if own:
        caller = own_caller(seed)
        caller.rules = Rules.parse(spec)
    for rules, hand, _ in random_hands(spec, n, count, seed, caller):
        for _seat, doc, _ in card_views(rules, hand, n):
            yield hand, View.from_json(doc)


def true_hands(hand, v: View) -> list[int]:
    """Every seat's cards now, as dealt by the reference."""
    return [hand.play.held[s] & ~v.played_by[s] for s in range(v.players)]


@pytest.mark.parametrize("own", [False, True], ids=["pitchsims-call", "any-call"])
@pytest.mark.parametrize("spec, n", SPECS)
def test_12_1_the_true_deal_is_always_a_possible_world(spec, n, own):
    """Whatever the pitcher called, his own card too (12.1.2): every other seat's cards
    now are allowed to it, and every card that must be placed is in a hand or the pile."""
    views = pitcher_holds = 0
    for hand, v in decisions(spec, n, 20, own=own):
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
        p = v.pitcher
        pitcher_holds += v.seat != p and bool(true[p] >> v.called & 1)
    assert views > 100
    if own:  # the case 12.1.10 is about: others' views of a pitcher holding his call
        assert pitcher_holds > 20


@pytest.mark.parametrize("spec, n", SPECS)
def test_12_1_10_to_the_others_the_pitcher_may_hold_his_call_until_it_is_played(spec, n):
    """From another seat, while the call is unseen and no other seat is known to hold
    it, some worlds give it to the pitcher (12.1.2: he may call his own; 12.1.10; under
    announced a pitcher known to play alone holds it or nobody does); a partner the seat
    knows holds it in every world; under called no seat that played another card to
    trick 1 holds it (12.1.3), the pile never does (12.1.3: never put down), and the
    holder is not always the true one (hidden, 12.1.2)."""
    r = Rules.parse(spec)
    elsewhere = worlds_seen = with_pitcher = piles = 0
    for i, (hand, v) in enumerate(decisions(spec, n, 12, seed=11)):
        called, p, me = v.called, v.pitcher, v.seat
        worlds = worlds_at(v, 24, seed=i)
        assert len(worlds) > 0
        down = any(m >> called & 1 for m in v.played_by)
        unseen = not down and not v.held >> called & 1
        for w in worlds:
            piles += unseen and w[n] != 0
            worlds_seen += 1
            if v.partner is not None and v.partner not in (p, me) and not down:
                assert w[v.partner] >> called & 1  # known (12.1.4) and not yet played
            if r.partner == "called":
                assert not w[n] >> called & 1  # 12.1.3: never put down
                if v.tricks:
                    for s, c in zip(v.tricks[0].seats, v.tricks[0].cards, strict=True):
                        if c != called and s not in (p, me):
                            assert not w[s] >> called & 1  # 12.1.3
            holder = next((s for s in range(n) if w[s] >> called & 1), None)
            if v.partner is None and holder is not None and holder != hand.play.partner:
                elsewhere += 1
            with_pitcher += me != p and v.partner in (None, p) and holder == p
    assert worlds_seen > 500
    assert with_pitcher > 0  # the pitcher may hold it, to every other seat
    if r.partner == "called":
        assert elsewhere > 0  # the holder is unknown: worlds put the call at other seats
    if r.rob and r.cards_each(n) == 6:  # (with 9 dealt to 5 the stock runs out first)
        assert piles > 50  # worlds dealing a pile while the call is unseen


def test_12_1_10_a_pitcher_holding_his_own_call_by_hand():
    """Smear at 5, hearts trump: seat 0 pitches holding A♥ and calls it (12.1.2).  He
    knows he plays alone (12.1.5): no world of his gives A♥ to anybody.  Seat 2, before
    any card is played, knows only the call: its worlds give A♥ to the pitcher in some
    and to each of the other three seats in some (12.1.10), about in proportion to the
    cards each may hold, as nothing says otherwise; the true deal is one of them."""
    spec, n = "smear,partner=called", 5
    rules = Rules.parse(spec)
    hands = [
        "AH 3C 4C 5C 6C 7C",
        "2D 3D 4D 5D 6D 7D",
        "8D 9D TD JD QD KD",
        "8C 9C TC JC QC KC",
        "2S 3S 4S 5S 6S 7S",
    ]
    from pitchsim.game.cards import parse_cards

    dealt = [mask_of(parse_cards(h)) for h in hands]
    ah = parse_cards("AH")[0]

    def view(seat: int) -> View:
        return View.from_json(
            {
                "rules": spec,
                "players": n,
                "seat": seat,
                "dealer": 4,
                "hand": hands[seat].split(),
                "calls": ["2", "pass", "pass", "pass", "pass"],
                "trump": "H",
                "called": "AH",
                "tricks": [],
                "scores": [0] * n,
            },
            rules=rules,
        )

    mine = view(0)
    assert mine.partner == 0  # 12.1.10: a pitcher holding his own call knows he is alone
    for w in worlds_at(mine, 60, seed=3):
        assert all(not int(w[s]) >> ah & 1 for s in range(1, n + 1))
    theirs = view(2)
    assert theirs.partner is None
    k = view_knowledge(theirs)
    _, allowed, _ = k.constraint()
    for s in (0, 1, 3, 4):
        assert int(allowed[s]) >> ah & 1  # anybody may hold it, the pitcher too
        assert dealt[s] & ~int(allowed[s]) == 0  # the true deal is a possible world
    holders = [0] * n
    worlds = worlds_at(theirs, 400, seed=5)
    for w in worlds:
        for s in range(n):
            holders[s] += int(w[s]) >> ah & 1
    assert holders[2] == 0
    # 46 unseen cards, 6 in each of 4 hands: A♥ is in a hand 24/46 of the time, each
    # seat's share 6/46 (no void shown, nothing else known): about 52 of 400 each
    for s in (0, 1, 3, 4):
        assert 25 < holders[s] < 85, holders
