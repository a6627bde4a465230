"""RULES.md's edge cases, hand-built, through the kernels: the trick's masks of
``kernels.hand``, and hands played and scored by the preset kernels (``families.plain``,
``families.score``) under auction-pitch (the reference engine has its own)."""

import numpy as np
import pytest

from pitchsim.game.cards import mask_of, parse_card, parse_cards, parse_suit
from pitchsim.game.rules import BASE_RULES, Rules, as_family
from pitchsim.kernels.bits import suit_mask
from pitchsim.kernels.deal import deal_hands, deck_without
from pitchsim.kernels.families.plain import play_plain
from pitchsim.kernels.families.score import AWARD_NAMES, N_AWARDS
from pitchsim.kernels.families.score import score_hand as family_score
from pitchsim.kernels.families.simulate import family_policies
from pitchsim.kernels.families.tables import family_array, family_tables
from pitchsim.kernels.hand import (
    GAME,
    beats,
    follow_cards,
    legal_cards,
    opening_lead_cards,
    score_hand,
    strength,
    trumping_in,
    winning_card,
)
from pitchsim.kernels.rng import deal_key

H, C, S, D = (parse_suit(s) for s in "HCSD")
AWARD = {name: i for i, name in enumerate(AWARD_NAMES)}


def hands(*texts):
    return np.array([mask_of(parse_cards(t)) for t in texts], dtype=np.int64)


def kernel_play(dealt, rules=BASE_RULES, first_lead=-1, policy="random", seed=1):
    """Play a hand-built deal through the preset kernels' play loop (``plain.play_plain``)
    and score it (``score.score_hand``); seat 0 pitches, ``first_lead`` (-1: the policy's)
    leading and fixing trump.  Returns (trump, award, points, won): ``award`` by
    ``AWARD_NAMES`` (-1: nobody), ``points`` per seat."""
    n = len(dealt)
    r = as_family(rules)
    fr, tab = family_array(r), family_tables(r)
    won = np.empty(n, dtype=np.int64)
    scratch = [np.empty(n, dtype=np.int64) for _ in range(3)]
    no_log = np.empty(0, dtype=np.int64)
    trump, _ = play_plain(
        dealt.copy(), n, 0, -1, first_lead, -1, family_policies(policy, n), fr, tab,
        np.uint64(deal_key(seed, 0)), scratch[0], won, scratch[1], scratch[2], no_log, no_log,
    )  # fmt: skip
    award = np.empty(N_AWARDS, dtype=np.int64)
    points = np.empty(n, dtype=np.int64)
    family_score(dealt, won, n, trump, fr, tab, award, points, 0, -1)
    return int(trump), award, points, won


OTHERS = ["2C 3C 4C 5C 6C 7C", "8C 9C TC JC QC KC", "AC 2D 3D 4D 5D 6D"]


@pytest.mark.parametrize("seed", range(20))
def test_edge_05_only_trump_a_seven_gives_two_points(seed):
    dealt = hands("7H 2S 3S 4S 5S 6S", *OTHERS)
    trump, award, points, _ = kernel_play(dealt, first_lead=parse_card("7H"), seed=seed)
    assert trump == H
    assert award[AWARD["high"]] == award[AWARD["low"]] == 0 and award[AWARD["jack"]] == -1
    assert points[0] == 2 + (award[AWARD["game"]] == 0)


@pytest.mark.parametrize("seed", range(20))
def test_edge_05_only_trump_the_jack_gives_three(seed):
    dealt = hands("JH 2S 3S 4S 5S 6S", *OTHERS)
    _, award, _, _ = kernel_play(dealt, first_lead=parse_card("JH"), seed=seed)
    assert award[AWARD["high"]] == award[AWARD["low"]] == award[AWARD["jack"]] == 0


@pytest.mark.parametrize("low", ["captured", "dealt"])
def test_edge_06_jack_captured_by_queen(low):
    # Seat 0 leads the J of hearts; seat 1's only heart is the Q and trump was led.
    dealt = hands(
        "JH 2S 3S 4S 5S 6S", "QH 3C 4C 5C 6C 7C", "8C 9C TC JC QC KC", "AC 2D 3D 4D 5D 6D"
    )
    rules = Rules(low=low)
    for seed in range(10):
        _, award, _, won = kernel_play(dealt, rules=rules, first_lead=parse_card("JH"), seed=seed)
        assert won[1] >> parse_card("JH") & 1
        assert award[AWARD["high"]] == award[AWARD["jack"]] == 1
        assert award[AWARD["low"]] == (1 if low == "captured" else 0)


def test_edge_07_jack_not_dealt_at_most_three_points():
    dealt = hands("AH KH QH 2H 3H 4H", *OTHERS)
    for seed in range(20):
        trump, award, points, _ = kernel_play(dealt, seed=seed, policy="heuristic")
        assert trump == H and award[AWARD["jack"]] == -1
        assert points[0] <= 3


def test_edge_08_game_ties_give_nobody_the_point():
    r = Rules().to_array()
    award = np.empty(4, dtype=np.int64)
    dealt = hands("TC AC JC 2H 3H 4H", "TD AD JD 2S 3S 4S", "KC 5H 6H 7H 8H 9H")
    won = hands("TC AC JC 2H 3H 4H", "TD AD JD 2S 3S 4S", "KC 5H 6H 7H 8H 9H")  # 15, 15, 3
    score_hand(dealt, won, 3, H, r, award)
    assert award[GAME] == -1
    zero = hands("2C 3C 4C 2H 3H 4H", "2D 3D 4D 2S 3S 4S", "5C 5H 6H 7H 8H 9H")
    score_hand(zero, zero, 3, H, r, award)
    assert award[GAME] == -1
    won = hands("TC AC JC 2H 3H 4H", "TD AD 2D 2S 3S 4S", "KC 5H 6H 7H 8H 9H")  # 15, 14, 3
    score_hand(dealt, won, 3, H, r, award)
    assert award[GAME] == 0
    # The same three hands scored by the preset kernels (score.score_hand).
    fr, tab = family_array(as_family(Rules())), family_tables(as_family(Rules()))
    fam, points = np.empty(N_AWARDS, dtype=np.int64), np.empty(3, dtype=np.int64)
    tied = hands("TC AC JC 2H 3H 4H", "TD AD JD 2S 3S 4S", "KC 5H 6H 7H 8H 9H")
    for w, want in ((tied, -1), (zero, -1), (won, 0)):
        family_score(dealt if w is not zero else zero, w, 3, H, fr, tab, fam, points, 0, -1)
        assert fam[AWARD["game"]] == want


def test_edge_11_follow_suit_or_trump():
    hand = mask_of(parse_cards("2H 9H 3C KC 5D 6S"))
    tr = lambda t: mask_of(parse_cards(t))  # noqa: E731
    # Trump (hearts) led: must play trump.
    assert legal_cards(hand, H, H, False) == tr("2H 9H")
    # Clubs led: follow or trump.
    assert legal_cards(hand, C, H, False) == tr("3C KC 2H 9H")
    # Must-follow variant: clubs only.
    assert legal_cards(hand, C, H, True) == tr("3C KC")
    # Void in the led suit: anything.
    void = mask_of(parse_cards("2H 9H 5D 6S 7S 8S"))
    assert legal_cards(void, C, H, False) == void
    assert legal_cards(void, C, H, True) == void
    # Leading: anything.
    assert legal_cards(hand, -1, H, False) == hand


def test_edge_11_through_the_masks_play_hand_uses():
    """play_hand works the led suit's and the trump's masks out once a trick and calls
    follow_cards / trumping_in with them: the same answers as legal_cards."""
    hand = mask_of(parse_cards("2H 9H 3C KC 5D 6S"))
    tr = lambda t: mask_of(parse_cards(t))  # noqa: E731
    assert trumping_in(C, H, False) == suit_mask(H)
    assert trumping_in(H, H, False) == 0 and trumping_in(C, H, True) == 0
    assert follow_cards(hand, suit_mask(C), trumping_in(C, H, False)) == tr("3C KC 2H 9H")
    assert follow_cards(hand, suit_mask(C), trumping_in(C, H, True)) == tr("3C KC")
    assert follow_cards(hand, suit_mask(H), trumping_in(H, H, False)) == tr("2H 9H")
    assert follow_cards(hand, 0, 0) == hand  # leading
    void = tr("2H 9H 5D 6S 7S 8S")
    assert follow_cards(void, suit_mask(C), trumping_in(C, H, True)) == void
    # The opening lead: any card, or only the fixed trump suit when the pitcher holds it.
    assert opening_lead_cards(hand, -1) == hand
    assert opening_lead_cards(hand, H) == tr("2H 9H")
    assert opening_lead_cards(hand, S) == tr("6S")
    assert opening_lead_cards(void, C) == void  # no club: the rule cannot apply


def test_trick_winner_is_the_strongest_card_by_beats():
    """winning_card (the kernel's mask form) against beats/strength on 20,000 random
    tricks of 2-7 cards, every led suit and trump."""
    rng = np.random.default_rng(3)
    for _ in range(20_000):
        n = int(rng.integers(2, 8))
        cards = [int(c) for c in rng.choice(52, n, replace=False)]
        led, trump = cards[0] // 13, int(rng.integers(0, 4))
        best = cards[0]
        for c in cards[1:]:
            if beats(c, best, led, trump):
                best = c
        taken = mask_of(cards)
        assert winning_card(taken, suit_mask(led), suit_mask(trump)) == best, (cards, trump)
    # Hand-picked: a low trump over the led ace; a third suit never wins.
    assert winning_card(mask_of(parse_cards("AC 2H KC")), suit_mask(C), suit_mask(H)) == (
        parse_card("2H")
    )
    assert winning_card(mask_of(parse_cards("3C AS KD")), suit_mask(C), suit_mask(H)) == (
        parse_card("3C")
    )


def test_trick_order_any_trump_beats_the_led_suit_and_third_suits_never_win():
    st = lambda c, led, trump: strength(parse_card(c), led, trump)  # noqa: E731
    assert st("2H", C, H) > st("AC", C, H)
    assert st("3H", C, H) > st("2H", C, H)
    assert st("2C", C, H) > st("AS", C, H)
    assert st("AC", C, H) > st("KC", C, H)


@pytest.mark.parametrize("n, dealt_cards", [(7, 42), (2, 12), (4, 24)])
def test_edge_12_deal_sizes(n, dealt_cards):
    dealt = np.empty(n, dtype=np.int64)
    deck = np.empty(52, dtype=np.int64)
    for d in range(50):
        deal_hands(np.uint64(deal_key(3, d)), n, 0, 0, deck_without(0), deck, dealt)
        union = 0
        for m in dealt:
            assert int(m).bit_count() == 6
            assert union & int(m) == 0
            union |= int(m)
        assert union.bit_count() == dealt_cards


def test_pitched_card_leads_and_fixes_trump():
    dealt = hands("4S 2H 3H 5D 6D 7D", *OTHERS)
    trump, _, _, won = kernel_play(dealt, first_lead=parse_card("4S"), seed=3)
    assert trump == S and won.sum() and np.bitwise_or.reduce(won) & dealt[0] == dealt[0]


def test_search_outcomes_do_not_depend_on_the_keys_integer_type():
    """A key passed as a plain Python int (typed int64) once unified with uint64 into a
    float64 inside ``card_outcomes``, rounding it: other worlds than the compiled search's."""
    import json

    from base_search import view_arrays
    from clirun import cli

    from pitchsim.games.record import views_of
    from pitchsim.kernels.rng import draw
    from pitchsim.kernels.search.monte_carlo import ROLLOUT, card_outcomes

    code, out, _ = cli("play", "--game", "--players", "4", "--seed", "3", "--json")
    assert code == 0
    checked = 0
    for view, _ in views_of(json.loads(out)):
        if view.phase != "play" or view.legal_cards().bit_count() < 2:
            continue
        args = view_arrays(view)
        key = int(draw(np.uint64(12345), 7))
        assert key >= 2**53  # where a float64 cannot hold every integer
        rows = args[0].bit_count()
        a, b = np.empty((rows, 12), np.int64), np.empty((rows, 12), np.int64)
        _, ka, _ = card_outcomes(ROLLOUT, 12, *args, key, a, False, 0)
        _, kb, _ = card_outcomes(ROLLOUT, 12, *args, np.uint64(key), b, False, 0)
        assert ka == kb and (a[:, :ka] == b[:, :kb]).all()
        checked += 1
        if checked == 4:
            break
    assert checked == 4
