"""One deal for every preset: the family kernels' deal (``deal``) is a uniform
deal of the preset's pack (VARIANTS.md 4.3, 6.1).

- Under auction-pitch (52 cards, six each) ``deal_cards_fixed`` gives exactly the hands
  of the documented draw, recounted here in plain Python (seat by seat, six uniform draws
  split from one hash of (key, seat) among the cards left), with or without a known
  hand; the hand kernel ``pitchsim simulate`` runs, compiled for the base game's shape
  (``sample.record_base_columns``), plays the hands of the kernel for any rules, card
  for card and point for point.
- Under every preset the deal is a deal: the hands are disjoint runs of the pack of the
  right size, seat ``dealer + 1 + i`` holds the ``i``-th run of ``deck``, the stock is the
  rest of the pack, and a known hand sits in its seat.
- Uniform: how often a card lands in a seat's hand and on top of the stock is
  ``cards each / pack`` and ``1 / pack``, within 4.5 standard errors of the count (a
  known hand's cards never dealt again); two seats' hands have the exact joint law of
  draws without replacement from one pack.
"""

from __future__ import annotations

import math
from functools import cache

import numpy as np
import pytest

from pitchsim.game.rules import Rules
from pitchsim.kernels.deal import deal_cards_fixed
from pitchsim.kernels.policies.cards import any_rules
from pitchsim.kernels.presets import rules_array, rules_table
from pitchsim.kernels.rng import DEAL_COUNTER, deal_key, draw
from pitchsim.kernels.sample import columns_kernel, record_base_columns, record_columns
from pitchsim.kernels.score import AWARD_NAMES, N_AWARDS, NOT_PLAYED
from pitchsim.kernels.simulate import policy_row
from pitchsim.study.batch import play_deals
from pitchsim.study.manifest import AWARDS

CARDS = np.arange(54)  # bit c of a hand: card c
BASE_AWARDS = [AWARD_NAMES.index(a) for a in ("high", "low", "jack", "game")]
PRESETS = [
    ("auction-pitch", 4),
    ("auction-pitch", 7),
    ("setback", 4),
    ("smear", 3),
    ("ten-point", 4),
    ("ten-point", 5),  # 10 cards each from a pack without the 4s (4.3)
    ("seven-point", 4),
    ("auction-pitch,jokers=1,discard=non-trump,trump=named", 3),
]


@cache
def _fr(spec: str) -> np.ndarray:
    return rules_array(Rules.parse(spec))


def _family_deal(spec: str, n: int, key, dealer: int, seat: int = -1, hand: int = 0):
    fr = _fr(spec)
    deck = np.full(54, -1, dtype=np.int64)
    dealt = np.empty(n, dtype=np.int64)
    size = deal_cards_fixed(np.uint64(key), n, dealer, seat, np.int64(hand), fr, deck, dealt)
    return int(size), [int(c) for c in deck], [int(h) for h in dealt]


def recounted_deal(key: int, n: int, fixed_seat: int, fixed: int) -> list[int]:
    """The base game's deal in plain Python: seat by seat from seat 0, each seat's six
    cards drawn uniformly among the cards left, the k-th card left taken for a draw k
    split off one 64-bit hash ``draw(key, DEAL_COUNTER + seat)`` (the high half of the
    hash times the cards left is the draw, the low half the rest of the hash)."""
    rest = [c for c in range(52) if not fixed >> c & 1]
    hands = []
    for seat in range(n):
        if fixed and seat == fixed_seat:
            hands.append(fixed)
            continue
        r, h = int(draw(np.uint64(key), DEAL_COUNTER + seat)), 0
        for _ in range(6):
            k, r = divmod(r * len(rest), 1 << 64)
            h |= 1 << rest.pop(k)
        hands.append(h)
    return hands


@pytest.mark.parametrize("n", [2, 4, 7])
def test_auction_pitch_deals_the_recounted_hands(n):
    rng = np.random.default_rng(n)
    for d in range(150):
        key = deal_key(5, d)
        fixed = 0
        if d % 2:  # a known hand in seat 0, as bid odds deal it
            fixed = sum(1 << int(c) for c in rng.choice(52, 6, replace=False))
        _, _, fam = _family_deal("auction-pitch", n, key, d % n, 0 if fixed else -1, fixed)
        assert fam == recounted_deal(key, n, 0, fixed), (n, d)


@pytest.mark.parametrize("spec,n", PRESETS)
def test_every_preset_deals_runs_of_its_pack(spec, n):
    r = Rules.parse(spec)
    each, pack = r.cards_each(n), r.pack_size(n)
    cards = {c for c in range(52) if not (r.no_fours(n) and c % 13 == 2)}
    cards |= set(range(52, 52 + r.jokers))
    assert len(cards) == pack
    rng = np.random.default_rng(1)
    for d in range(200):
        dealer = d % n
        seat, hand = -1, 0
        if d % 3 == 0:
            seat = int(rng.integers(n))
            hand = sum(1 << c for c in rng.choice(sorted(cards), each, replace=False).tolist())
        size, deck, dealt = _family_deal(spec, n, deal_key(3, d), dealer, seat, hand)
        assert size == pack
        seen = set()
        for i in range(n):
            s = (dealer + 1 + i) % n
            run = deck[i * each : (i + 1) * each]
            assert sum(1 << c for c in run) == dealt[s] and len(set(run)) == each
            seen |= set(run)
        if seat >= 0:
            assert dealt[seat] == hand
        assert seen <= cards and len(seen) == n * each
        stock = deck[n * each : size]
        if r.discard == "non-trump":  # the stock is the rest of the pack, each card once
            assert sorted(stock) == sorted(cards - seen)
        else:  # never drawn: left as it was
            assert stock == [-1] * (size - n * each)


@pytest.mark.parametrize("spec,n", [("ten-point", 4), ("smear", 3), ("ten-point", 5)])
def test_the_deal_is_uniform(spec, n):
    r = Rules.parse(spec)
    each, pack = r.cards_each(n), r.pack_size(n)
    deals = 6000
    in_seat = np.zeros((n, 54), dtype=np.int64)
    on_top = np.zeros(54, dtype=np.int64)
    for d in range(deals):
        size, deck, dealt = _family_deal(spec, n, deal_key(11, d), n - 1)
        in_seat += np.array(dealt, np.int64)[:, None] >> CARDS & 1
        if size > n * each:
            on_top[deck[n * each]] += 1
    held = [c for c in range(54) if in_seat[:, c].sum() > 0]
    assert len(held) == pack
    p = each / pack
    sd = math.sqrt(deals * p * (1 - p))
    for s in range(n):
        for c in held:
            assert abs(in_seat[s, c] - deals * p) < 4.5 * sd, (s, c, in_seat[s, c])
    if r.discard == "non-trump" and pack > n * each:  # (5 players: no stock)
        q = 1 / pack
        sd = math.sqrt(deals * q * (1 - q))
        for c in held:
            assert abs(on_top[c] - deals * q) < 4.5 * sd, (c, on_top[c])


def test_a_known_hand_is_kept_and_the_rest_dealt_uniformly():
    """Seat 0 holds a known hand (bid odds' deal): never dealt again, and each other card
    goes to one of the six other seats with probability 36/46."""
    n, deals = 7, 6000
    fixed = (1 << 0) | (1 << 13) | (1 << 26) | (1 << 39) | (1 << 51) | (1 << 12)
    counts = np.zeros(52)
    for d in range(deals):
        _, _, dealt = _family_deal("auction-pitch", n, deal_key(7, d), 6, 0, fixed)
        assert dealt[0] == fixed
        counts += (np.array(dealt[1:], np.int64)[:, None] >> CARDS[:52] & 1).sum(axis=0)
    p = 36 / 46
    unseen = [c for c in range(52) if not fixed >> c & 1]
    se = np.sqrt(p * (1 - p) / deals)
    assert np.all(np.abs(counts[unseen] / deals - p) < 4.5 * se)
    assert np.all(counts[[c for c in range(52) if fixed >> c & 1]] == 0)


@pytest.mark.parametrize("n", [2, 4, 7])
def test_the_deal_has_the_exact_joint_law_of_a_shuffled_deck(n):
    """Two seats' hands are not independent: the spades of seat a and seat b have
    correlation exactly -6/46 (two draws without replacement from one deck).  Dealing
    every seat from one hash would make neighbouring seats' hands alike, which no
    cross-check of two engines can see, since both play the hands the kernel dealt."""
    deals = 20_000
    r = Rules()
    dealt = play_deals(r, n, 23, 0, deals, policy_row("random", n), seats=True)["all_dealt"]
    spades = np.bitwise_count(dealt >> 39 & 0x1FFF).astype(float)
    # Each seat: hypergeometric mean 6 x 13/52 = 1.5, variance 6 x 1/4 x 3/4 x 46/51.
    mean_se = np.sqrt(6 * 0.25 * 0.75 * 46 / 51 / deals)
    assert np.all(np.abs(spades.mean(axis=0) - 1.5) < 4.5 * mean_se)
    for a in range(n):
        for b in range(a + 1, n):
            c = np.corrcoef(spades[:, a], spades[:, b])[0, 1]
            assert abs(c + 6 / 46) < 4.5 / np.sqrt(deals), (a, b, c)


@pytest.mark.parametrize(
    "policy, n, spec",
    [
        ("random", 3, {}),
        ("random", 4, {}),
        ("random", 6, {}),
        ("heuristic", 3, {}),
        ("heuristic", 4, {}),
        ("heuristic", 6, {}),
        ("heuristic", 4, {"partnership": True}),
        ("heuristic", 5, {"low": "dealt"}),
    ],
)
def test_the_base_shape_kernel_plays_the_recorded_hands(policy, n, spec):
    """The same deals and the same choices (random: one random stream per decision;
    heuristic: one policy): the kernel ``pitchsim simulate`` runs for the base game's
    shape (``record_base_columns``: the deal, play and points compiled in as constants)
    and the same kernel for any rules (``record_columns``) deal the same cards, give
    every point to the same seat and the same trump, deal by deal, under the base rules
    and their partnership and Low-to-its-holder options.  (Before issue 28 this also
    played the base game's own kernels; they are gone.)"""
    deals = 20_000
    r = Rules.parse(spec)
    assert columns_kernel(rules_array(r)) is record_base_columns
    pols = policy_row(policy, n)
    base = play_deals(r, n, 9, 0, deals, pols, seats=True)
    play = play_deals(r, n, 9, 0, deals, pols, seats=True, kernel=any_rules(record_columns))
    assert base.keys() == play.keys()
    for name, column in play.items():
        assert np.array_equal(base[name], column), name
    # The awards the pitcher's side (seat 0's) took: High, Low, Jack, Game (a seat
    # credited with none: -1); every point worth 1, and the sides' columns say so.
    award = play["all_award"]
    side = (lambda s: s % 2) if r.partnership else (lambda s: s)
    ours = (award >= 0) & (side(award) == side(0))
    assert np.array_equal(play["points"], ours.sum(axis=1))
    assert (award[:, [i for i in range(N_AWARDS) if i not in BASE_AWARDS]] == NOT_PLAYED).all()
    for i, name in enumerate(AWARDS):
        assert np.array_equal(play[name] == 0, ours[:, i]), name
    assert (play["all_dealt"] == play["all_held"]).all()  # no discard (0.6)
    assert (play["points"] > 0).any() and (ours[:, AWARD_NAMES.index("low")]).any()


def test_the_base_shape_hand_kernel_refuses_other_rules():
    """``record_base_columns`` compiles the base game's shape in (trump by the first
    lead, its four points): ``columns_kernel`` gives it auction-pitch and setback, and
    the general kernel to a preset of another shape, which the base one refuses."""
    for spec in ("auction-pitch", "setback", "auction-pitch,partnership=true"):
        assert columns_kernel(rules_array(Rules.parse(spec))) is record_base_columns
    for spec in ("smear", "ten-point", "auction-pitch,jokers=1", "auction-pitch,deck=9-A"):
        smear = Rules.parse(spec)
        assert columns_kernel(rules_array(smear)).kernel is record_columns
    with pytest.raises(ValueError, match="base game's shape"):
        play_deals(smear, 4, 7, 0, 10, policy_row("random", 4), kernel=record_base_columns)


@pytest.mark.parametrize(
    "spec, n, policy",
    [
        ("smear", 3, "random"),
        ("smear", 4, "heuristic"),  # low=dealt: Low to the side that held it
        ("six-point", 4, "random"),  # partners, a joker, joker-game=half (12.10)
        ("ten-point", 4, "heuristic"),  # game=ten, the 3, two jokers, the draw
        ("cinch,discards=hidden", 4, "random"),  # five=pedro: the two pedros (12.6)
        ("smear,low=captured,partnership=true", 4, "random"),
        ("ten-point,partnership=false,partner=called", 5, "random"),  # 12.1.6
    ],
)
def test_the_hand_kernel_scores_the_awards_it_records(spec, n, policy):
    """``make_odds``' kernel (``simulate_fixed``, no hand fixed) reads its points and
    flags off the cards each side took (``score.side_flags_of``, ``flags_points``: no
    seat for each award) where no partner is called: deal by deal the same as the
    seat-by-seat score (``score.score_hand``) that the kernel ``pitchsim simulate``
    runs records for the same deals (``play_deals``: the seat credited with each
    award, and the sides' columns), its flags the awards of the pitcher's side (seat
    0's), its points their values."""
    from pitchsim.kernels.score import AWARD_VALUES
    from pitchsim.kernels.simulate import simulate_fixed

    deals = 3000
    r = Rules.parse(spec)
    fr, tab, pol = rules_array(r), rules_table(r), policy_row(policy, n)
    assert columns_kernel(fr).kernel is record_columns
    c = play_deals(r, n, 3, 0, deals, pol, seats=True)
    out = [np.empty(deals, np.int64) for _ in range(3)]
    simulate_fixed(3, 0, deals, n, np.int64(0), -1, pol, fr, tab, *out)
    assert np.array_equal(out[2], c["trump"])
    assert np.array_equal(out[0], c["points"])
    # the awards a run has a column for (the left pedro has none: its points count)
    sides = np.stack([c[name] for name in AWARDS], axis=1)
    flags = ((sides == 0).astype(np.int64) << np.arange(len(AWARDS))).sum(axis=1)
    assert np.array_equal(out[1] & ((1 << len(AWARDS)) - 1), flags)
    if r.partner != "none":
        return  # the sides are the hand's: the kernel scores by ``score_hand`` there
    award = c["all_award"]
    side = (lambda s: s % 2) if r.partnership else (lambda s: s)
    ours = (award >= 0) & (side(award) == side(0))
    assert np.array_equal(out[1], (ours.astype(np.int64) << np.arange(N_AWARDS)).sum(axis=1))
    assert np.array_equal(out[0], (ours * AWARD_VALUES).sum(axis=1))
    assert (out[0] > 0).any() and (out[1] >> AWARD_NAMES.index("low") & 1).any()
