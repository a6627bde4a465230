"""The coach values a call of a partner's card (12.1.2) and a put-down coming down to 6
(12.2.2, 12.8.3) against pitchsim's, on the same deals fitting the seat's hand and the
kitty it took (``coach.hand_worlds``): hand-built positions where the right choice is
clear cost, and a choice worth pitchsim's draws no slip."""

from __future__ import annotations

import re

import pytest

from pitchsim.coach import hand_worlds, judge
from pitchsim.coach.judge import choice_note, pitchsims_choice
from pitchsim.game.cards import mask_of, parse_cards
from pitchsim.game.rules import Rules
from pitchsim.game.view import card_text
from pitchsim.table.game import TableDeal

WORLDS = 60


def view_at(spec: str, dealt: list[str], kitty: str, actions: list[str], phase: str):
    """The view of the first decision in ``phase`` of a hand dealt by hand (the dealer
    the last seat; the stock the rest of the pack, ``kitty`` its last cards, 12.2.1),
    after ``actions``."""
    r, n = Rules.parse(spec), len(dealt)
    hands = [parse_cards(t) for t in dealt]
    last = parse_cards(kitty)
    used = {c for h in hands for c in h} | set(last)
    stock = [c for c in r.pack(n) if c not in used] + last
    walk = TableDeal(r, n, n - 1, [mask_of(h) for h in hands], stock, [0] * n, None).run()
    _, view = next(walk)
    it = iter(actions)
    while view.phase != phase:
        _, view = walk.send(next(it))
    return view


# Smear with a kitty (12.2.2): seat 0 bids 4 in spades holding the only jack of trump;
# the kitty brings him 2♥ 3♣ 4♠.
KITTY = ("smear,kitty=3", ["AS KS JS 9S 5D 7C", "QS TS 8S 4D 6D 8D",
         "AH KH QH JH TH 9H", "AD KD QD JD TD 9D"], "2H 3C 4S",
         ["4", "pass", "pass", "pass", "trump:S"])  # fmt: skip


def test_12_2_2_putting_down_the_only_jack_of_trump_costs_and_the_note_says_so():
    """The kitty's pitcher puts down J♠, his side's only sure point beside High (12.2.2:
    what he puts down is out of play), where pitchsim puts down its lowest non-trump
    (12.8.3): the coach labels it with its cost in expected score, beyond its error."""
    v = view_at(*KITTY, "put_down")
    assert pitchsims_choice(v) == "down:2H"
    note = choice_note(v, "down:JS", seed=5, worlds=WORLDS, time=None)
    assert note.startswith("coach: pitchsim puts down 2♥ first")
    m = re.search(r"J♠ — (\w+), it costs ([\d.]+) points of expected score \(±([\d.]+)\)", note)
    assert m, note
    assert m[1] in ("MISTAKE", "BLUNDER") and float(m[2]) > float(m[3])
    assert f"On {WORLDS} deals fitting your hand and the kitty" in note


def test_12_8_3_a_put_down_worth_pitchsims_draws_no_slip():
    """3♣ first instead of pitchsim's 2♥: the rest by pitchsim's rule puts down the same
    three cards (12.8.3), so every deal scores the same: no slip.  pitchsim's own card
    draws no note at all."""
    v = view_at(*KITTY, "put_down")
    note = choice_note(v, "down:3C", seed=5, worlds=WORLDS, time=None)
    assert "the difference, +0.00 (±0.00), is inside its noise: no slip" in note, note
    assert choice_note(v, "down:2H", seed=5, worlds=WORLDS, time=None) is None


def test_12_1_2_calling_a_low_trump_instead_of_the_ace_costs():
    """Smear with a called partner at 5 (12.1.2): the pitcher lacks A♠ and 2♠ (the 2
    left out of the deal here, which he cannot know); calling 2♠ leaves A♠ against him,
    where pitchsim calls A♠, so that High plays for his side."""
    dealt = ["KS QS JS TS 9S 2H", "3H 4H 5H 6H 7H 8H", "3D 4D 5D 6D 7D 8D",
             "AS 3C 4C 5C 6C 7C", "9H TH JH QH KH AH"]  # fmt: skip
    v = view_at("smear,partner=called", dealt, "", ["4", "pass", "pass", "pass", "pass",
                "trump:S"], "call")  # fmt: skip
    assert pitchsims_choice(v) == "call:AS"
    note = choice_note(v, "call:2S", seed=3, worlds=WORLDS, time=None)
    assert note.startswith("coach: pitchsim calls A♠, the highest trump you lack")
    m = re.search(r"2♠ — (\w+), it costs ([\d.]+) points of expected score \(±([\d.]+)\)", note)
    assert m, note
    assert float(m[2]) > float(m[3])
    assert choice_note(v, "call:AS", seed=3, worlds=WORLDS, time=None) is None


@pytest.mark.parametrize(
    "loss, error, said",
    [
        (0.40, 0.50, "inside its noise: no slip"),  # a slip inside the noise is none
        (0.20, 0.10, "a real loss but under 0.25 points of expected score"),
        (0.60, 0.10, "MISTAKE, it costs 0.60"),
        (-0.60, 0.10, "does better here, by 0.60"),
    ],
)
def test_the_cost_is_said_only_beyond_the_estimates_own_noise(monkeypatch, loss, error, said):
    """The note's verdict from the paired difference and its 95% half-width, on the
    naming of trump's steps (``SCORE_STEPS``: 0.25 / 0.50 / 1.00): a loss inside its
    error is no slip, however large it looks."""
    v = view_at(*KITTY, "put_down")
    valued = hand_worlds.Valued(WORLDS, (1.0 - loss, 1.0), (0.5, 0.5), loss, error, False)
    monkeypatch.setattr(hand_worlds, "value_choice", lambda *a: valued)
    note = judge.value_note(v, "down:5D", "down:2H", 1, WORLDS, None)
    assert said in note, note
    if loss < 0.25:
        assert not re.search("MISTAKE|BLUNDER|INACCURACY", note)


def test_the_worlds_keep_the_seats_hand_and_the_kitty_and_deal_the_rest():
    """Every world deals the seat its own hand and puts the kitty it took at the stock's
    end (12.2.1, 12.2.5); the other seats get the rest of the pack."""
    import random

    from pitchsim.game import reference as F

    v = view_at(*KITTY, "put_down")
    r = v.rules
    for i in range(20):
        dealt, stock = hand_worlds.world(v, random.Random(i))
        assert dealt[0] == v.hand_mask
        assert F.kitty_of(stock, r) == list(v.kitty)
        cards = [c for m in dealt for c in range(54) if m >> c & 1] + stock
        assert sorted(cards) == sorted(r.pack(4)) and len(set(cards)) == len(cards)
    assert [card_text(c) for c in v.kitty] == ["2H", "3C", "4S"]
