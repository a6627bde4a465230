"""The per-trump tables the kernels will use (pitchsim/game/trumps.py) agree with the
reference engine's clause-by-clause trump, effective suit, legality and trick winner,
on thousands of random tricks of every family (ANCHORS.md 1, VARIANTS.md 0.4, 0.5)."""

import random

import numpy as np
import pytest

from pitchsim.game import reference as F
from pitchsim.game.cards import HIGH_JOKER, LOW_JOKER, N_CARDS, cards_of, mask_of
from pitchsim.game.rules import Rules
from pitchsim.game.trumps import (
    FOLLOW_ONLY,
    FOLLOW_SUIT,
    FOLLOW_TRUMP,
    TRUMP_BASE,
    capture_values,
    jick_card,
    legal_mask,
    score_by_tables,
    trick_winner_by_key,
    trump_tables,
)

SPECS = [
    "auction-pitch",
    "follow=suit",
    "setback",
    "smear",
    "smear,follow=suit",
    "ten-point",
    "ten-point,follow=trump",
    "ten-point,jokers=1,follow=suit",
    "jokers=2,trump=named",
    "jokers=1,trump=named",
    "jick=true,trump=named",
    "cinch,discards=hidden",  # docs/rules.md 11.3, 12.6: the left pedro
    "smear,five=pedro",  # 6.3.12: the jick and the left pedro both trumps
]
FOLLOW = {"trump": FOLLOW_TRUMP, "suit": FOLLOW_SUIT, "only": FOLLOW_ONLY}
TRICKS = 3000


def players_of(rules) -> list[int]:
    ok = []
    for n in range(2, 8):
        try:
            rules.check_players(n)
        except Exception:
            continue
        ok.append(n)
    return ok


@pytest.mark.parametrize("spec", SPECS)
def test_tables_match_the_reference_on_random_tricks(spec):
    rules = Rules.parse(spec)
    r = rules
    tables = trump_tables(r.jokers, r.jick, r.five == "pedro")
    rng = random.Random(spec)
    counts = players_of(r)
    for _ in range(TRICKS):
        n = rng.choice(counts)
        trump = rng.randrange(4)
        cards = F.pack(r, n)
        rng.shuffle(cards)
        size = rng.randint(1, n)
        trick = cards[:size]
        hand = mask_of(cards[size : size + rng.randint(1, 9)])
        winner = trick_winner_by_key(tables, trick, trump)
        assert winner == F.trick_winner(trick, trump, r), (trick, trump)
        got = legal_mask(tables, hand, trick, trump, FOLLOW[r.follow])
        assert got == F.legal_cards(hand, trick, trump, r), (cards_of(hand), trick, trump)


@pytest.mark.parametrize("spec", SPECS)
def test_masks_effective_suits_and_keys_follow_the_trump_order(spec):
    r = Rules.parse(spec)
    t = trump_tables(r.jokers, r.jick, r.five == "pedro")
    assert t.trump_mask.dtype == np.int64 and t.key.shape == (4, 54)
    pack = F.pack(r, 4)
    for trump in range(4):
        assert int(t.trump_mask[trump]) == mask_of(x for x in pack if F.is_trump(x, trump, r))
        for s in range(4):
            want = mask_of(x for x in pack if F.effective_suit(x, trump, r) == s)
            assert int(t.suit_masks[trump, s]) == want
        for x in pack:
            assert t.eff_suit[trump, x] == F.effective_suit(x, trump, r)
        order = F.trump_order(r, trump)
        assert sorted(order, key=lambda x: t.key[trump, x]) == order  # the same order
        base = TRUMP_BASE - (r.five == "pedro")  # 11.3: the left pedro below the 5
        assert min(t.key[trump, x] for x in order) >= base
        assert max(t.key[trump, x] for x in pack if x not in order) < base
    if r.jokers:
        assert int(t.trump_mask[0]) >> HIGH_JOKER & 1
        assert bool(int(t.trump_mask[0]) >> LOW_JOKER & 1) == (r.jokers == 2)
    if r.jick:
        assert int(t.trump_mask[2]) >> jick_card(2) & 1 and jick_card(2) < N_CARDS


GAME_SPECS = [
    ("auction-pitch", 4),
    ("low=dealt,partnership=true", 4),
    ("setback", 4),
    ("smear", 3),
    ("smear,low=captured", 5),
    ("ten-point", 4),
    ("ten-point,partnership=false", 5),
    ("ten-point,follow=trump,game=count", 4),
    ("ten-point,jokers=1,partnership=false", 5),
    ("jick=true,five=true,trump=named,jokers=1", 3),
    ("cinch,discards=hidden", 4),  # docs/rules.md 11.10: both pedros, the 10, no Game
    ("smear,five=pedro,low=captured", 4),  # 6.3.12: the jick and the left pedro
]


@pytest.mark.parametrize("spec, n", GAME_SPECS)
def test_scoring_by_tables_matches_the_reference_hand_by_hand(spec, n):
    """Random whole games of the reference engine; every played hand scored again from
    the tables (order keys for High and Low, capture values, Game counts)."""
    r = Rules.parse(spec)
    tables = trump_tables(r.jokers, r.jick, r.five == "pedro")
    values = capture_values(r.jokers, r.jick, r.game == "ten", r.three, r.five)
    rng = random.Random(spec)
    team = [r.team(s) for s in range(n)]
    hands = 0
    while hands < 300:
        g = F.play_game(
            n,
            r,
            rng,
            lambda s, h, c, legal, sc: rng.choice(legal),
            lambda s, h: rng.randrange(4),
            lambda v: rng.choice(cards_of(v.legal)),
            max_hands=30,
        )
        for hand in g.hands:
            if hand.play is None:
                continue
            p = hand.play
            got = score_by_tables(
                tables, values, p.held, p.won, p.trump, r.low == "dealt", r.game == "count", team
            )
            assert got == p.score.points, (spec, hand.deal_no)
            hands += 1


@pytest.mark.parametrize("spec", SPECS)
def test_the_kernels_order_tables_rank_each_presets_trumps_as_the_reference(spec):
    """``kernels.trump_order``'s tables (one for every preset: a preset's trumps are a
    subset of their positions) against the reference's trump order (VARIANTS.md 0.4,
    4.7, 11.3): the highest and lowest trump of random sets of the preset's trumps,
    and each trump's trumps above and below it."""
    from pitchsim.kernels.trump_order import ABOVE, BELOW, highest_trump, lowest_trump

    r = Rules.parse(spec)
    rng = random.Random(spec)
    for trump in range(4):
        order = F.trump_order(r, trump)  # lowest first
        tmask = mask_of(order)
        for i, card in enumerate(order):
            assert int(ABOVE[trump, card]) & tmask == mask_of(order[i + 1 :]), (trump, card)
            assert int(BELOW[trump, card]) & tmask == mask_of(order[:i]), (trump, card)
        for _ in range(200):
            some = rng.sample(order, rng.randint(1, len(order)))
            m = np.int64(mask_of(some))
            ranks = sorted(order.index(x) for x in some)
            assert highest_trump(m, trump) == order[ranks[-1]]
            assert lowest_trump(m, trump) == order[ranks[0]]
