"""The put-down a player chooses (docs/rules.md 12.2.2, 12.8.1, 12.8.3), a decision at the
table (tests/test_put_down_table.py: records, practice, review, the page).  pitchsim's put-down, one card at a time
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


# ---- the put-down asked at the table, card by card (TableDeal's default; a record of
# version 1 or 2 is walked as its version, pitchsim's rule, no action)


def _walk(spec: str, n: int, g: int, by_rule: bool, answer=None):
    """One hand of ``spec`` dealt as the table deals board 0's deal ``g``, every seat
    pitchsim's (``KernelSeat``) unless ``answer(view)`` answers: (the hand's record,
    the views asked, in order)."""
    import numpy as np

    from pitchsim.kernels.rng import deal_key
    from pitchsim.table.game import RECORD_VERSION, TableDeal, _kernel_deal
    from pitchsim.table.seats import KernelSeat

    r = Rules.parse(spec)
    key = np.uint64(deal_key(11, g))
    dealt, stock, draw = _kernel_deal(r, n, g % n, key)
    version = 2 if by_rule else RECORD_VERSION
    deal = TableDeal(r, n, g % n, dealt, stock, [0] * n, draw, version=version)
    walk, views, seat_ = deal.run(), [], KernelSeat("heuristic+heuristic")
    try:
        seat, view = next(walk)
        while True:
            assert view.to_move == seat == view.seat
            views.append(view)
            action = (answer and answer(view)) or seat_.decide(view, key).action
            assert action in view.legal(), (action, view.legal())
            seat, view = walk.send(action)
    except StopIteration as end:
        return end.value, views


ASKED = [
    ("smear,kitty=3,partner=called", 5),
    ("smear,kitty=3", 4),
    ("auction-pitch,deal=9,discard=choice,trump=named", 4),
    ("smear,kitty=2,deal=9,discard=choice", 4),
]


# and under discard=draw (12.8.2) and discards=shown (12.9), asked from record version 4
SAME = ASKED + [
    ("auction-pitch,deal=9,discard=draw,trump=named", 4),
    ("smear,kitty=3,discard=draw,discards=shown", 4),
    ("smear,deal=9,discard=choice,discards=shown", 4),
]


@pytest.mark.parametrize("spec, n", SAME)
def test_12_8_3_pitchsims_seats_asked_the_put_down_play_the_same_game(spec, n):
    """Asked card by card, pitchsim's seats put down what the fixed rule put down: the
    same hands, tricks and scores; the record adds one ``"down:XX"`` action a card."""
    for g in range(6):
        fixed, _ = _walk(spec, n, g, True)
        asked, views = _walk(spec, n, g, False)
        downs = [a for a in asked["actions"] if a["action"].startswith("down:")]
        rest = [a for a in asked["actions"] if not a["action"].startswith("down:")]
        assert rest == fixed["actions"]
        assert {k: v for k, v in asked.items() if k != "actions"} == {
            k: v for k, v in fixed.items() if k != "actions"
        }
        assert len(downs) == sum(v.phase == "put_down" for v in views)


@pytest.mark.parametrize("spec, n", ASKED)
def test_12_2_2_and_12_8_1_the_put_down_is_asked_where_the_rules_put_it(spec, n):
    """The phase comes after trump is named and any call under partner=called (12.1.2),
    before the first card: the kitty's pitcher at once under discard=none (12.2.2), under
    choice every seat holding more than 6 in turn from the dealer's left, the dealer
    last (12.8.1), the kitty's pitcher in his; each seat asked until it holds 6, its
    legal actions every card it holds but a called trump (12.1.3), its own put-down so
    far in its view, every other seat's a count."""
    r = Rules.parse(spec)
    for g in range(6):
        doc, views = _walk(spec, n, g, False)
        if doc["pitcher"] is None:
            continue
        phases = [v.phase for v in views]
        first = phases.index("put_down")
        last = len(phases) - 1 - phases[::-1].index("put_down")
        assert set(phases[first : last + 1]) == {"put_down"}
        assert phases[first - 1] == ("call" if r.partner == "called" else "trump")
        assert phases[last + 1] in ("play", "call")
        seats = [v.seat for v in views[first : last + 1]]
        order = [doc["pitcher"]]
        if r.discard == "choice":
            order = [(doc["dealer"] + 1 + i) % n for i in range(n)]
        assert seats == sorted(seats, key=order.index)  # in turn
        for v in views[first : last + 1]:
            own = v.put_down if r.kitty and v.seat == doc["pitcher"] else v.discards
            start = set(v.hand) | set(v.kitty)  # (the kitty in the pitcher's view alone)
            assert set(v.kept) | set(own) == start and not set(v.kept) & set(own)
            assert len(v.kept) > F.HAND_TARGET
            legal = {a[len("down:") :] for a in v.legal()}
            assert legal == {card_text(c) for c in v.kept if c != v.called}
            assert all(a.startswith("down:") for a in v.legal())
            out = v.to_json()
            assert out["phase"] == "put_down" and out["held"] is None
            assert View.from_json(json.loads(json.dumps(out))).legal() == v.legal()
            if r.discard == "choice":
                before = order[: order.index(v.seat)]
                for s, d in enumerate(v.draws):
                    if s in before and s != (doc["pitcher"] if r.kitty else -1):
                        assert d.discarded == 9 - F.HAND_TARGET
                    elif s not in before and s != v.seat:
                        assert d.discarded == 0


def test_12_2_2_a_seat_may_put_down_any_card_but_a_called_trump():
    """A put-down other than pitchsim's is played out: the pitcher puts down his
    highest cards (a called trump never offered, 12.1.3), and his hand in play is
    what he kept."""

    def highest(view):
        if view.phase == "put_down":
            return max(view.legal(), key=lambda a: parse_cards(a[5:])[0])
        return None

    spec, n = "smear,kitty=3,partner=called", 5
    r, differs = Rules.parse(spec), 0
    for g in range(4):
        doc, views = _walk(spec, n, g, False, highest)
        if doc["pitcher"] is None:
            continue
        p = doc["pitcher"]
        downs = [parse_cards(a["action"][5:])[0] for a in doc["actions"] if "down:" in a["action"]]
        held = mask_of(parse_cards(" ".join(doc["held"][p])))
        with_kitty = mask_of(parse_cards(" ".join(doc["hands"][p] + doc["kitty"]["taken"])))
        assert held == with_kitty & ~mask_of(downs)
        assert doc["kitty"]["put_down"] == [card_text(c) for c in downs]
        called = parse_cards(doc["called"])[0]
        assert called not in downs
        if set(downs) != set(F.come_down(with_kitty, "CDHS".index(doc["trump"]), r, called)):
            differs += 1
    assert differs  # a put-down pitchsim would not make was played out


def test_12_2_2_the_engine_answers_the_put_down_and_names_it_for_another_seat():
    """``pitchsim engine``: a decide at a put-down answers pitchsim's card (the first
    of ``come_down``) whatever the strategy; another seat has no decision there."""
    from pitchsim.table.engine import Engine

    doc, views = _walk("smear,kitty=3", 4, 1, False)
    v = next(x for x in views if x.phase == "put_down")
    e = Engine()
    want = "down:" + card_text(F.pitchsims_put_down(mask_of(v.kept), v.trump, v.preset, -1))
    for strategy in ("heuristic+heuristic", "odds+rollout:8"):
        msg = {"type": "decide", "id": 1, "view": v.to_json(), "options": {"strategy": strategy}}
        assert e.answer(json.dumps(msg)) == {"type": "action", "id": 1, "action": want}
    other = (v.seat + 1) % 4
    hand = [card_text(c) for c in cards_of(mask_of(parse_cards(" ".join(doc["hands"][other]))))]
    odoc = dict(v.to_json(), seat=other, hand=hand, legal=[])
    odoc["kitty"] = {k: x for k, x in odoc["kitty"].items() if k != "mine"}
    reply = e.answer(json.dumps({"type": "decide", "id": 2, "view": odoc}))
    assert reply["type"] == "error" and reply["code"] == "not-to-act", reply
    assert "comes down to 6" in reply["message"]


def bot_put_downs(spec: str, n: int, games) -> tuple[list, list[str]]:
    """Hands of ``spec`` (``_walk``'s, one a deal number of ``games``) with every
    put-down answered by a ``cmd:`` seat, examples/bots/simple_bot.py, checked: the
    hands walked (record, views) and its answers."""
    import sys
    from pathlib import Path

    from pitchsim.table.answers import checked_action
    from pitchsim.table.outside import CommandSeat

    bot = Path(__file__).resolve().parents[1] / "examples" / "bots" / "simple_bot.py"
    seat = CommandSeat(f"{sys.executable} {bot}", decision_time=60)
    answered = []

    def outside(view):
        if view.phase != "put_down":
            return None
        action = checked_action(view, seat.call(view))
        answered.append(action)
        return action

    try:
        return [_walk(spec, n, g, False, outside) for g in games], answered
    finally:
        seat.close()


def test_12_2_2_an_outside_seat_answers_the_put_down_and_a_bad_one_is_refused():
    """A ``cmd:`` seat (examples/bots/simple_bot.py) is sent the view and answers a
    legal ``"down:XX"`` (in any case, as every action); an answer that is no card of its
    hand, or the called trump (12.1.3), is no legal action (the table's forfeit)."""
    from pitchsim.table.answers import checked_action

    [(doc, views)], answered = bot_put_downs("smear,kitty=3,partner=called", 5, [2])
    assert answered and all(a.startswith("down:") for a in answered)
    v = next(x for x in views if x.phase == "put_down")
    assert checked_action(v, v.legal()[0].upper().replace("DOWN:", "Down:")) == v.legal()[0]
    others = [c for c in F.pack(v.preset, 5) if c not in v.kept]
    for bad in ["down:" + card_text(others[0]), card_text(v.kept[0]), "down:"]:
        with pytest.raises(ValueError, match="not a legal action"):
            checked_action(v, bad)
    if v.called >= 0 and v.called in v.kept:
        with pytest.raises(ValueError, match="not a legal action"):
            checked_action(v, "down:" + card_text(v.called))


def test_12_8_1_practice_shows_numbers_and_reads_the_put_down_and_the_coach_says_pitchsims():
    """Practice's words for a put-down (tests/test_put_down_table.py: at its table): the cards held
    numbered as cards are, read by number or by name (a called trump refused, 12.1.3),
    and the coach saying pitchsim's card and its rule (12.8.3), a note, not a judgement."""
    from pitchsim.coach.judge import choice_note, judged, show_action
    from pitchsim.coach.practice import (
        Refusal,
        hand_order,
        read_choice,
        render_view,
        shown_choices,
    )
    from pitchsim.table.decide import pitchsims_put_down

    doc, views = _walk("smear,kitty=3,partner=called", 5, 2, False)
    v = next(x for x in views if x.phase == "put_down")
    legal = v.legal()
    numbered = shown_choices(v)
    # numbered as the hand is shown: trumps first, highest first
    mine = [c for c in v.kept if c != v.called]
    assert numbered == ["down:" + card_text(c) for c in hand_order(mine, v.trump, v.rules)]
    text = render_view(v)
    assert f"put down a card (you hold {len(v.kept)}, keep 6): 1:" in text
    assert read_choice("1", v, legal) == numbered[0]
    name = numbered[-1][len("down:") :]
    assert read_choice(name.lower(), v, legal) == numbered[-1]
    assert read_choice("down:" + name, v, legal) == numbered[-1]
    other = next(c for c in F.pack(v.preset, 5) if c not in v.kept)
    assert isinstance(read_choice(card_text(other), v, legal), Refusal)
    if v.called in v.kept:
        said = read_choice(card_text(v.called), v, legal)
        assert isinstance(said, Refusal) and "12.1.3" in said.message
    want = pitchsims_put_down(v)
    assert choice_note(v, want) is None
    worse = next(a for a in legal if a != want)
    assert choice_note(v, worse).startswith("coach: pitchsim puts down")
    assert not judged(v)
    assert show_action("card", want) == show_action("card", want[len("down:") :])
