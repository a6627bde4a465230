"""docs/rules.md 12.2, ``kitty=N``, in the family kernels (``pitchsim/kernels``): the
deal sets the kitty aside (12.2.1), the pitcher takes it and comes down (12.2.2), what
each seat knows of it (``play.seat_knowledge``) and the worlds a searching seat samples
(``worlds``).  The kernels' hands equal the reference engine's deal by deal in
tests/test_families_kernels.py (its kitty presets); here the kitty's own facts, and
planted bugs each test must catch.
"""

from __future__ import annotations

import numpy as np
import pytest
from logged_hands import logged_arrays
from test_families_kernels import CrossCheckError, crosscheck

from pitchsim.game import reference as F
from pitchsim.game.cards import cards_of, mask_of, parse_cards
from pitchsim.game.rules import Rules
from pitchsim.kernels.play import seat_knowledge
from pitchsim.kernels.presets import F_KITTY, rules_array, rules_table
from pitchsim.kernels.rng import deal_key
from pitchsim.kernels.search.worlds import sample_worlds, world_constraint
from pitchsim.kernels.simulate import play_logged

KITTY = "auction-pitch,trump=named,kitty=3"


def logged(spec: str, n: int, count: int, seed: int = 3, policy: int = 1, pitcher: int = 0):
    r = Rules.parse(spec)
    fr, tab = rules_array(r), rules_table(r)
    out = logged_arrays(count, n)
    play_logged(
        seed, 0, count, n, n - 1, pitcher, np.int64(0), -1, np.full(n, policy, np.int64), fr,
        tab, *out.values(),
    )  # fmt: skip
    return r, fr, tab, out


def knowledge_of(r, fr, tab, out: dict, n: int, d: int):
    """Hand ``d`` of a kitty hand's log (seat 0 pitching, seat n - 1 dealing) as
    ``seat_knowledge`` reads it: the stock, trump, each seat's known-out cards, and how
    many cards the pitcher put down."""
    size = int(out["trump"][d, 2])
    stock = [int(c) for c in out["deck"][d, n * r.cards_each(n) : size]]
    kitty = mask_of(F.kitty_of(stock, r))
    trump = int(out["trump"][d, 0])
    known = np.zeros(n, np.int64)
    down = seat_knowledge(
        out["dealt"][d], out["held"][d], n, 0, n - 1, trump, fr, tab, known,
        np.zeros((n, n), np.int64), np.int64(kitty),
    )  # fmt: skip
    return stock, trump, known, down


def test_12_2_the_rules_array_carries_the_kitty():
    assert rules_array(Rules.parse(KITTY))[F_KITTY] == 3
    assert rules_array(Rules.parse("five-point,kitty=2"))[F_KITTY] == 2
    assert rules_array(Rules.parse("five-point"))[F_KITTY] == 0
    assert rules_array(Rules.parse("auction-pitch"))[F_KITTY] == 0


@pytest.mark.parametrize("spec, n", [(KITTY, 4), ("five-point,kitty=3", 4), ("smear,kitty=4", 3)])
def test_12_2_1_and_12_2_2_the_kitty_is_the_stocks_last_n_cards_and_the_pitcher_comes_down(spec, n):
    """The kernel's deck holds the whole pack (the stock drawn in order under a kitty);
    the pitcher's hand in play is his dealt 6 and the stock's LAST N cards, come down to
    6 as the reference's ``take_kitty`` does; no other seat's hand changes."""
    r, fr, tab, out = logged(spec, n, 200, pitcher=1)
    k = r.kitty
    each = r.cards_each(n)
    took_from_kitty = 0
    for d in range(200):
        size = int(out["trump"][d, 2])
        assert size == len(F.pack(r, n))
        deck = [int(c) for c in out["deck"][d, :size]]
        assert sorted(deck) == sorted(F.pack(r, n))
        stock = deck[n * each :]
        dealt = [int(m) for m in out["dealt"][d]]
        held = [int(m) for m in out["held"][d]]
        kitty = mask_of(stock[-k:])
        assert F.kitty_of(stock, r) == stock[-k:]
        assert held[1] & ~(dealt[1] | kitty) == 0 and held[1].bit_count() == 6
        for s in (0, 2, *range(3, n)):
            assert held[s] == dealt[s]
        trump = int(out["trump"][d, 0])
        want, rec = F.take_kitty(dealt, stock, 1, trump, r)
        assert held == want
        took_from_kitty += (held[1] & kitty).bit_count()
    assert took_from_kitty > 100  # the kitty's cards are kept, not only put down


@pytest.mark.parametrize("spec, n", [(KITTY, 4), ("five-point,kitty=3", 4)])
def test_12_2_5_the_pitcher_knows_what_he_put_down_the_others_only_the_count(spec, n):
    """``seat_knowledge``: the pitcher's known-out cards are exactly what he put down of
    his hand and the kitty (out of play, face down); every other seat knows no card
    out of play, only that N went down."""
    r, fr, tab, out = logged(spec, n, 60)
    for d in range(60):
        stock, trump, known, down = knowledge_of(r, fr, tab, out, n, d)
        _, rec = F.take_kitty([int(m) for m in out["dealt"][d]], stock, 0, trump, r)
        assert int(known[0]) == mask_of(rec.put_down)
        assert down == r.kitty == len(rec.put_down)
        assert all(int(known[s]) == 0 for s in range(1, n))


def test_12_2_5_a_world_never_gives_the_pitcher_his_put_down_cards_back():
    """The pitcher's worlds deal his put-down cards to no seat (they are out of play,
    and he knows them); a defender's worlds admit the true deal (the pitcher's hand in
    play drawn from every card the defender has not seen)."""
    n = 4
    r, fr, tab, out = logged(KITTY, n, 20)
    for d in range(20):
        _, trump, known, down = knowledge_of(r, fr, tab, out, n, d)
        held = out["held"][d]
        for me in range(n):
            counts = np.array([6] * n + [0 if me == 0 else down], np.int64)
            allowed = np.zeros(n + 1, np.int64)
            unseen, must = world_constraint(
                n, me, held[me], known[me], np.zeros(n, np.int64), np.zeros(n, np.int64),
                np.int64(0), counts, trump, fr, tab, allowed,
            )  # fmt: skip
            for s in range(n):  # the true deal meets the constraint
                if s != me:
                    assert int(held[s]) & ~int(allowed[s]) == 0
            worlds = np.zeros((50, n + 1), np.int64)
            kept, _ = sample_worlds(
                np.uint64(deal_key(11, d)), n, me, held[me], unseen, counts, allowed, must,
                worlds, 10_000,
            )  # fmt: skip
            assert kept == 50
            if me == 0:
                put = int(known[0])
                assert put and all(
                    int(worlds[w, s]) & put == 0 for w in range(50) for s in range(n)
                )


def test_12_2_a_planted_bug_the_kernel_taking_no_kitty_is_caught():
    """The kernels told there is no kitty (its field zeroed) deal and play the pitcher's
    dealt 6: the deal-by-deal check against the reference engine fails."""
    rules = Rules.parse(KITTY)
    fr = rules_array(rules)
    fr[F_KITTY] = 0
    with pytest.raises(CrossCheckError):
        crosscheck(rules, 4, 100, seed=1, fr=fr)
    crosscheck(rules, 4, 100, seed=1)  # and the true rules pass


def test_12_2_a_planted_bug_a_kitty_of_one_card_too_few_is_caught():
    """The kernels taking N - 1 cards (the pitcher's hand in play a card short of the
    reference's, or another card): caught deal by deal."""
    rules = Rules.parse(KITTY)
    fr = rules_array(rules)
    fr[F_KITTY] = 2
    with pytest.raises(CrossCheckError):
        crosscheck(rules, 4, 100, seed=1, fr=fr)


def test_12_2_2_cards_of_the_kitty_logged_hands_hold_no_put_down_card_in_play():
    """What the pitcher put down is out of play: no trick holds it."""
    n = 4
    r, fr, tab, out = logged(KITTY, n, 100, policy=0)
    each = r.cards_each(n)
    for d in range(100):
        size = int(out["trump"][d, 2])
        stock = [int(c) for c in out["deck"][d, n * each : size]]
        trump = int(out["trump"][d, 0])
        _, rec = F.take_kitty([int(m) for m in out["dealt"][d]], stock, 0, trump, r)
        tricks = int(out["trump"][d, 1])
        log = out["log"][d, : tricks * (n + 2)]
        cards = {int(log[t * (n + 2) + 1 + i]) for t in range(tricks) for i in range(n)}
        assert len(cards) == 24 and len(rec.put_down) == 3
        assert not cards & set(rec.put_down), (d, cards_of(mask_of(rec.put_down)))


@pytest.mark.parametrize("trump", [-1, 2])
def test_12_2_bid_odds_kernel_plays_the_cross_checked_hands_of_a_known_hand(trump):
    """bid-odds' kernel (``fixed_hand.play_fixed``: the pitcher's known 6, the
    kitty's N cards dealt from the rest of the pack, 12.2.2) plays, deal for deal, the
    hands of ``simulate_fixed``, the kernel tests/test_families_kernels.py checks
    against the reference engine with a fixed hand; told no kitty it does not."""
    from pitchsim.kernels.fixed_hand import PITCHER, fixed_kernel, play_fixed
    from pitchsim.kernels.simulate import policy_row, simulate_fixed

    n, deals = 4, 3000
    r = Rules.parse("five-point,kitty=3")
    fr, tab = rules_array(r), rules_table(r)
    assert fixed_kernel(fr, policy_row("heuristic", n)).kernel is play_fixed
    hand = np.int64(mask_of(parse_cards("AH KH QH 2H 3C 4D")))
    for policy in ("random", "heuristic"):
        pol = policy_row(policy, n)
        fixed = [np.empty(deals, np.int64) for _ in range(3)]
        play_fixed(5, 0, deals, n, PITCHER, hand, trump, 0, pol, fr, tab, *fixed, None)
        sim = [np.empty(deals, np.int64) for _ in range(3)]
        simulate_fixed(5, 0, deals, n, hand, trump, pol, fr, tab, *sim)
        assert np.array_equal(fixed[2], sim[2])
        assert np.array_equal(fixed[0], sim[0])
        fr0 = fr.copy()  # a planted bug: the kitty left out of the known hand's deals
        fr0[F_KITTY] = 0
        play_fixed(5, 0, deals, n, PITCHER, hand, trump, 0, pol, fr0, tab, *fixed, None)
        assert not np.array_equal(fixed[0], sim[0])
