"""RULES.md's edge cases, hand-built, through the preset kernels under auction-pitch: the
legal cards and the trick's winner (``trick``), hands played and scored
(``plain``, ``score``); the reference engine has its own."""

import numpy as np
import pytest

from pitchsim.game.cards import mask_of, parse_card, parse_cards, parse_suit
from pitchsim.game.rules import BASE_RULES, Rules
from pitchsim.kernels.plain import play_plain
from pitchsim.kernels.presets import rules_array, rules_table
from pitchsim.kernels.rng import deal_key
from pitchsim.kernels.score import AWARD_NAMES, N_AWARDS
from pitchsim.kernels.score import score_hand as family_score
from pitchsim.kernels.simulate import policy_row
from pitchsim.kernels.trick import legal_cards, trick_winner

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
    fr, tab = rules_array(rules), rules_table(rules)
    won = np.empty(n, dtype=np.int64)
    scratch = [np.empty(n, dtype=np.int64) for _ in range(3)]
    no_log = np.empty(0, dtype=np.int64)
    trump, _ = play_plain(
        dealt.copy(), n, 0, -1, first_lead, -1, policy_row(policy, n), fr, tab,
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
    # The three hands scored by the preset kernels (score.score_hand).
    dealt = hands("TC AC JC 2H 3H 4H", "TD AD JD 2S 3S 4S", "KC 5H 6H 7H 8H 9H")
    tied = hands("TC AC JC 2H 3H 4H", "TD AD JD 2S 3S 4S", "KC 5H 6H 7H 8H 9H")  # 15, 15, 3
    zero = hands("2C 3C 4C 2H 3H 4H", "2D 3D 4D 2S 3S 4S", "5C 5H 6H 7H 8H 9H")
    won = hands("TC AC JC 2H 3H 4H", "TD AD 2D 2S 3S 4S", "KC 5H 6H 7H 8H 9H")  # 15, 14, 3
    fr, tab = rules_array(Rules()), rules_table(Rules())
    fam, points = np.empty(N_AWARDS, dtype=np.int64), np.empty(3, dtype=np.int64)
    for w, want in ((tied, -1), (zero, -1), (won, 0)):
        family_score(dealt if w is not zero else zero, w, 3, H, fr, tab, fam, points, 0, -1)
        assert fam[AWARD["game"]] == want


def legal(hand, trick, trump=H, rules=BASE_RULES, first=False):
    """The preset kernels' legal cards of ``hand`` (text) to ``trick`` (text)."""
    cards = parse_cards(trick) if trick else []
    tr = np.zeros(8, dtype=np.int64)
    tr[: len(cards)] = cards
    m = legal_cards(np.int64(mask_of(parse_cards(hand))), tr, len(cards), trump, first,
                    rules_array(rules), rules_table(rules))  # fmt: skip
    return int(m)


def test_edge_11_follow_suit_or_trump():
    hand = "2H 9H 3C KC 5D 6S"
    tr = lambda t: mask_of(parse_cards(t))  # noqa: E731
    suit = Rules(follow="suit")
    # Trump (hearts) led: must play trump.
    assert legal(hand, "5H") == tr("2H 9H")
    # Clubs led: follow or trump.
    assert legal(hand, "4C") == tr("3C KC 2H 9H")
    # Must-follow variant: clubs only.
    assert legal(hand, "4C", rules=suit) == tr("3C KC")
    # Void in the led suit: anything.
    void = "2H 9H 5D 6S 7S 8S"
    assert legal(void, "4C") == tr(void)
    assert legal(void, "4C", rules=suit) == tr(void)
    # Leading: anything; the opening lead too, trump still open (it fixes it).
    assert legal(hand, "") == tr(hand)
    assert legal(hand, "", trump=-1, first=True) == tr(hand)


def test_trick_winner_is_the_strongest_card():
    """``trick_winner`` against the rule in words (0.5: the highest trump, else the
    highest card of the suit led; a third suit never wins) on 5,000 random tricks of
    2-7 cards, every led suit and trump."""
    rng = np.random.default_rng(3)
    tab = rules_table(Rules())
    tr = np.zeros(8, dtype=np.int64)
    for _ in range(5_000):
        n = int(rng.integers(2, 8))
        cards = [int(c) for c in rng.choice(52, n, replace=False)]
        led, trump = cards[0] // 13, int(rng.integers(0, 4))
        trumps = [c for c in cards if c // 13 == trump]
        best = max(trumps or [c for c in cards if c // 13 == led], key=lambda c: c % 13)
        tr[:n] = cards
        assert cards[trick_winner(tr, n, trump, tab)] == best, (cards, trump)
    # Hand-picked: a low trump over the led ace; a third suit never wins.
    for trick, want in (("AC 2H KC", "2H"), ("3C AS KD", "3C")):
        cards = parse_cards(trick)
        tr[:3] = cards
        assert cards[trick_winner(tr, 3, H, tab)] == parse_card(want)


def test_pitched_card_leads_and_fixes_trump():
    dealt = hands("4S 2H 3H 5D 6D 7D", *OTHERS)
    trump, _, _, won = kernel_play(dealt, first_lead=parse_card("4S"), seed=3)
    assert trump == S and won.sum() and np.bitwise_or.reduce(won) & dealt[0] == dealt[0]
