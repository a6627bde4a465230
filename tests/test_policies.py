"""Play policies: legal choices, only their own view, and what each is meant to do.

Most tests ask the preset kernels' policies directly (``policies.cards.choose_card``,
auction-pitch as a preset) about a hand-built view: the player's hand, the trick so far
and who played it, the cards already played, trump, who pitched.
"""

import math
import random
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from pitchsim.advice.odds import bid_odds
from pitchsim.game.cards import (
    SUITS,
    cards_of,
    mask_of,
    parse_cards,
    parse_hand,
    suit_cards,
    suit_of,
)
from pitchsim.game.reference import legal_cards, play_hand
from pitchsim.game.rules import Rules
from pitchsim.kernels.fixed_hand import fixed_kernel
from pitchsim.kernels.policies import PLAY_POLICY_IDS
from pitchsim.kernels.policies.cards import choose_card
from pitchsim.kernels.policies.heuristic import choose_trump
from pitchsim.kernels.presets import rules_array, rules_table
from pitchsim.kernels.rng import DECISION_COUNTER
from pitchsim.table.policies import kernel_chooser, seat_policies

SOLO, PARTNERS = Rules(), Rules(partnership=True)
_TABLES = {}


def tables(rules):
    """The preset's (rules_array, rules_table) of ``rules`` (auction-pitch's options)."""
    if rules not in _TABLES:
        r = rules
        _TABLES[rules] = (rules_array(r), rules_table(r))
    return _TABLES[rules]


def kernel_card(policy, legal, hand, seat, n, pitcher, trump, trick_no, trick, leader, played,
                rules, key, counter, scratch=0):  # fmt: skip
    """The card the preset kernels' ``choose_card`` plays, typed as ``kernel_chooser``
    calls it; ``scratch`` fills the unused parts of the trick, seat and won arrays, which
    a policy must never read."""
    fr, tab = tables(rules)
    trick_arr = np.full(8, scratch, dtype=np.int64)
    trick_arr[: len(trick)] = trick
    tseats = np.full(8, scratch % 8, dtype=np.int64)
    tseats[: len(trick)] = [(leader + i) % n for i in range(len(trick))]
    won = np.full(8, 1 << scratch, dtype=np.int64)
    won[:n] = 0
    i64 = np.int64
    return int(
        choose_card(
            PLAY_POLICY_IDS[policy], i64(legal), i64(hand), i64(seat), i64(n), i64(pitcher),
            i64(0), i64(trump), trick_no, trick_arr, tseats, len(trick), i64(played), won, fr,
            tab, np.uint64(key), counter,
        )
    )  # fmt: skip


def ask(
    policy,
    hand,
    trick="",
    leader=0,
    seat=None,
    trump="H",
    played="",
    n=4,
    pitcher=0,
    trick_no=1,
    rules=SOLO,
    key=1,
    counter=DECISION_COUNTER,
):
    """The card ``policy`` plays from a hand-built view (cards as text, e.g. "AH 2C").

    ``seat`` defaults to the next seat after the trick so far.
    """
    h = mask_of(parse_cards(hand))
    cards = parse_cards(trick) if trick else []
    seat = (leader + len(cards)) % n if seat is None else seat
    t = "CDHS".index(trump) if trump else -1
    legal = legal_cards(h, cards, t, rules)
    p = mask_of(parse_cards(played)) if played else 0
    c = kernel_card(policy, legal, h, seat, n, pitcher, t, trick_no, cards, leader, p, rules,
                    key, counter)  # fmt: skip
    assert legal >> c & 1, "an illegal card"
    return "23456789TJQKA"[c % 13] + SUITS[c // 13]


def recording(choose, log):
    def wrapped(view):
        c = choose(view)
        assert view.legal >> c & 1, "a policy chose an illegal card"
        log[view] = c
        return c

    return wrapped


@pytest.mark.parametrize("policy", ["heuristic", "random", "rollout:8", "pimc:3"])
@pytest.mark.parametrize("partnership", [False, True])
def test_choices_depend_on_the_view_only(policy, partnership):
    """Re-deal the hidden hands: wherever a player's view is the same, so is his card."""
    rng = random.Random(5)
    rules = Rules(partnership=partnership)
    n = 4
    same_views = 0
    deals = {"heuristic": 300, "random": 300, "rollout:8": 100}.get(policy, 6)
    for deal in range(deals):
        deck = list(range(52))
        rng.shuffle(deck)
        hands = [mask_of(deck[6 * s : 6 * s + 6]) for s in range(n)]
        # Seats 0 and 1 keep their cards; seats 2 and 3 swap a random share of theirs.
        hidden = cards_of(hands[2] | hands[3])
        rng.shuffle(hidden)
        other = hands[:2] + [mask_of(hidden[:6]), mask_of(hidden[6:])]
        policies = seat_policies(policy, n)
        first, second = {}, {}
        play_hand(hands, 0, recording(kernel_chooser(policies, 9, deal), first), rules)
        play_hand(other, 0, recording(kernel_chooser(policies, 9, deal), second), rules)
        for view, card in second.items():
            if view in first:
                same_views += 1
                assert first[view] == card
    assert same_views >= deals * 2  # at least the two opening decisions of seats 0 and 1


def first_leads(spec, seed, deals, hand, trump, policy):
    """The pitcher's (seat 0's) opening lead in ``deals`` hands of the preset kernels
    (``play_logged``), holding ``hand``; ``trump`` a suit (-1: his own choice)."""
    from logged_hands import logged_arrays

    from pitchsim.kernels.simulate import play_logged, policy_row

    r = Rules.parse(spec)
    out = logged_arrays(deals, 4)
    play_logged(
        seed, 0, deals, 4, 3, 0, np.int64(hand), trump, policy_row(policy, 4),
        rules_array(r), rules_table(r), *out.values(),
    )  # fmt: skip
    assert (out["log"][:, 0] == 0).all()  # seat 0 led the first trick
    return out["log"][:, 1]


@pytest.mark.parametrize("spec", ["auction-pitch", "smear"])
def test_heuristic_pitcher_leads_the_same_card_whatever_the_others_hold(spec):
    hand = mask_of(parse_hand("AH KH 2H 9C 7D 3S"))
    leads = set(first_leads(spec, 3, 500, hand, -1, "heuristic").tolist())
    assert len(leads) == 1 and suit_of(leads.pop()) == 2


@pytest.mark.parametrize(
    "hand, suit",
    [("AH KH QH 2C 5D 7S", "H"), ("AS JS 2S 3S 9H 8D", "S"), ("KD QD JD TD 2C 3H", "D")],
)
def test_heuristic_picks_the_obvious_trump(hand, suit):
    """Left to choose, the heuristic leads the long strong suit on every deal; that suit
    is the one most likely to make a bid, and with its ace it always makes 1 (the ace of
    trump wins High)."""
    s = "CDHS".index(suit)
    r = bid_odds(hand, samples=500, seed=1, trump=suit)
    left_to_choose = bid_odds(hand, samples=500, seed=1)
    assert left_to_choose.chosen_trump == s and left_to_choose.chosen_trump_share == {s: 1.0}
    p1 = {t: o.p_at_least(1) for t, o in left_to_choose.by_trump.items()}
    assert max(p1, key=p1.get) == s and all(p < 0.3 for t, p in p1.items() if t != s)
    assert r.by_trump[s].points.tolist() == left_to_choose.by_trump[s].points.tolist()
    if hand.startswith("A"):
        assert r.by_trump[s].p_at_least(1) == 1.0


def test_heuristic_beats_random_on_the_same_deals():
    """A heuristic pitcher makes 2 far more often than a random one against the same
    (heuristic) defenders, and heuristic defenders set a heuristic pitcher more often
    than random defenders do; the margins are many standard errors wide (auction-pitch
    on the kernel ``pitchsim simulate`` runs, ``study.batch.play_deals``)."""
    from pitchsim.kernels.policies.cards import PLAIN_POLICY_IDS
    from pitchsim.study.batch import play_deals
    from pitchsim.study.manifest import AWARDS

    hand_free = 40_000
    r = Rules()

    def make2(pitcher, defenders):
        pol = np.array([PLAIN_POLICY_IDS[p] for p in [pitcher] + [defenders] * 3], np.int64)
        c = play_deals(r, 4, 4, 0, hand_free, pol)
        pts = c["points"].astype(np.int64)
        took = sum((c[name] == 0).astype(np.int64) for name in AWARDS)
        assert (pts == took).all()  # each of the four points worth 1
        return float((pts >= 2).mean())

    se = math.sqrt(0.25 / hand_free) * math.sqrt(2)
    assert make2("heuristic", "heuristic") - make2("random", "heuristic") > 10 * se
    assert make2("heuristic", "random") - make2("heuristic", "heuristic") > 10 * se


def random_view(rng, n, rules):
    """A consistent mid-hand view for a random seat: cards dealt, some tricks played."""
    deck = list(range(52))
    rng.shuffle(deck)
    hands = [deck[6 * s : 6 * s + 6] for s in range(n)]
    trick_no = rng.randrange(6)
    trump = rng.randrange(4)
    played = 0
    for s in range(n):
        for c in hands[s][:trick_no]:
            played |= 1 << c
    leader = rng.randrange(n)
    trick_len = rng.randrange(n)
    trick = [hands[(leader + i) % n][trick_no] for i in range(trick_len)]
    seat = (leader + trick_len) % n
    hand = mask_of(hands[seat][trick_no:])
    if trick_no == 0 and trick_len == 0 and rng.random() < 0.5:
        trump = -1  # the pitcher's opening lead, trump still open
        leader = seat
    if trick_no == 0 and trick_len > 0:
        trump = suit_of(trick[0])
    return hand, trick, played, trump, trick_no, leader, seat


@pytest.mark.parametrize("policy", ["random", "heuristic"])
def test_policies_choose_only_legal_cards(policy):
    """Thousands of random views at every table size, solo and partnership.  (The search
    policies: every card of whole games replayed by the reference engine,
    tests/test_presets_pimc.py and test_family_rollout.py.)"""
    rng = random.Random(11)
    for i in range(3000):
        n = rng.randrange(2, 8)
        rules = Rules(partnership=n == 4 and i % 2 == 0, follow="suit" if i % 3 == 0 else "trump")
        hand, trick, played, trump, trick_no, leader, seat = random_view(rng, n, rules)
        legal = legal_cards(hand, trick, trump, rules)
        c = kernel_card(policy, legal, hand, seat, n, leader, trump, trick_no, trick, leader,
                        played, rules, i, DECISION_COUNTER)  # fmt: skip
        assert legal >> c & 1, (i, n, cards_of(hand), trick, trump)


def test_choice_ignores_everything_outside_the_view():
    """Stale cards and seats past the end of the trick, won masks of seats past the
    table, and (for the heuristic, which does not use randomness) the random stream:
    none of them may change a card.  (The search policies: the view-reading seat plays
    every card of the play loop's, whose arrays hold stale entries,
    tests/test_presets_pimc.py and test_seats_families.py.)"""
    rng = random.Random(3)
    for i in range(1500):
        n = rng.randrange(2, 8)
        hand, trick, played, trump, trick_no, leader, seat = random_view(rng, n, SOLO)
        legal = legal_cards(hand, trick, trump, SOLO)
        picks = {}
        for policy in ("random", "heuristic"):
            for scratch, key in ((0, 5), (51, 5), (17, 5), (0, 99)):
                c = kernel_card(policy, legal, hand, seat, n, 0, trump, trick_no, trick, leader,
                                played, SOLO, key, DECISION_COUNTER + 3, scratch)  # fmt: skip
                picks.setdefault((policy, key if policy != "heuristic" else 0), set()).add(c)
        assert all(len(v) == 1 for v in picks.values()), (i, picks)


def test_random_follows_uniformly_among_legal_cards():
    """Chi-square over many random streams: no legal card is favoured."""
    hand, trick = "AS 9S 4S 2H KC 3D", "7S"
    legal = ["AS", "9S", "4S", "2H"]  # spades, or trump in (trump hearts)
    counts = dict.fromkeys(legal, 0)
    draws = 8000
    for k in range(draws):
        counts[ask("random", hand, trick, leader=1, trump="H", key=k)] += 1
    expected = draws / len(legal)
    chi2 = sum((c - expected) ** 2 / expected for c in counts.values())
    assert chi2 < 16.3  # 99.9% point of chi-square with 3 degrees of freedom


@pytest.mark.parametrize("spec", ["auction-pitch", "setback"])
def test_random_opening_lead_chi_square_over_the_fixed_trump(spec):
    """With trump given (bid-odds' ``--trump``) under trump=first-lead, a random pitcher
    leads one of the trump suit's cards he holds, each as often: chi-square over 6,000
    hands."""
    hand = mask_of(parse_hand("AH 7H 2H 9C 7D 3S"))
    hearts = suit_cards(2) & hand
    deals = 6000
    leads = first_leads(spec, 21, deals, hand, 2, "random").tolist()
    assert set(leads) == set(cards_of(hearts))
    counts = {c: leads.count(c) for c in cards_of(hearts)}
    expected = deals / 3
    chi2 = sum((c - expected) ** 2 / expected for c in counts.values())
    assert chi2 < 13.8  # 99.9% point of chi-square with 2 degrees of freedom


# --- heuristic: what a club player would do -------------------------------------------


@pytest.mark.parametrize(
    "hand, suit",
    [
        ("AH KH QH 2C 5D 7S", "H"),
        ("AS JS 2S 3S 9H 8D", "S"),
        ("KD QD JD TD 2C 3H", "D"),
        ("AC 2C 9H 8H 7H 6H", "C"),  # ace and deuce beat four low cards
        ("AH KH JH 2D 3C 4S", "H"),
    ],
)
def test_heuristic_trump_is_the_obvious_suit(hand, suit):
    for n in (3, 4, 5):
        for low_dealt in (False, True):
            assert SUITS[choose_trump(mask_of(parse_hand(hand)), n, low_dealt)] == suit


@pytest.mark.parametrize("hand", ["6C 9C 6D 8D 7H 2S", "3C 9C 6D 2H 6S 7S"])
def test_heuristic_leads_a_lone_deuce_only_when_low_goes_as_dealt(hand):
    # Led alone the deuce is captured (base rules); dealt, it is a sure point for Low.
    deuce_suit = next(c // 13 for c in parse_hand(hand) if c % 13 == 0)
    assert choose_trump(mask_of(parse_hand(hand)), 7, False) != deuce_suit
    assert choose_trump(mask_of(parse_hand(hand)), 7, True) == deuce_suit


def test_heuristic_opening_leads():
    # The master trump pulls trumps.
    assert ask("heuristic", "AH KH 2H 9C 7D 3S", trick_no=0) == "AH"
    # Trump still open: the pitcher's best suit, led from the top.
    assert ask("heuristic", "AH KH 2H 9C 7D 3S", trick_no=0, trump=None) == "AH"
    # No master: the jack and the ten stay back.
    assert ask("heuristic", "JH 9H 4H 9C 7D 3S", trick_no=0) == "9H"
    assert ask("heuristic", "TH 6H 4H 9C 7D 3S", trick_no=0) == "6H"


def test_heuristic_takes_the_jack_with_a_master_trump():
    # Partners: the pitcher's partner trumped in with the jack, the pitcher still to
    # play; the king of trump is master (the ace is gone), so the defender takes it.
    assert (
        ask("heuristic", "KH 6H 4H 8C 9S", "5D JH", leader=1, played="AH 2C 3C 4C", rules=PARTNERS)
        == "KH"
    )
    # Solo: the pitcher trumped with the jack; the last defender overtakes.
    assert ask("heuristic", "AH 3H 8C 9S 7D", "5D JH", leader=3, played="KH 2C 3C 4C") == "AH"


def test_heuristic_keeps_tens_off_the_opponents_tricks():
    # The pitcher's ace of spades wins: follow with the four, not the ten.
    assert ask("heuristic", "TS 4S KC 8D 7D", "AS 3S", played="KH 2H 3C 4C") == "4S"
    # Void in spades: throw a low club, not the ten of diamonds.
    assert ask("heuristic", "TD 5C 9C 8D 7D", "AS 3S", played="KH 2H 3C 4C") == "5C"


def test_heuristic_gives_points_to_its_own_side():
    # Partner's king of spades wins and nobody is left to play: the ten goes on it.
    assert (
        ask(
            "heuristic",
            "TD 5C 9C 8D 7H",
            "4S KS 5S",
            leader=1,
            played="AH 2H 3H 4H",
            rules=PARTNERS,
        )
        == "TD"
    )


def test_heuristic_trumps_a_ten_when_playing_last():
    # A defender led the ten of clubs and the pitcher is last: trump it cheaply.
    assert (
        ask("heuristic", "5H QH 8D 9S 2S", "TC 3C 4C", leader=1, seat=0, played="AH KH 2D 3D")
        == "5H"
    )


def test_plain_play_loops_leave_the_search_out():
    """Play-policy arrays that name a search policy are int32, others int64; a play loop
    compiled for int64 ids has no search in it (that cost a minute of compile time per
    kernel), and a search id smuggled into an int64 array raises instead of playing."""
    assert seat_policies("heuristic,random,heuristic", 3).dtype == np.int64
    assert seat_policies("heuristic,rollout:8,random", 3).dtype == np.int32
    assert seat_policies("pimc", 2).dtype == np.int32

    # A fresh process: other tests compile the search.  A loop compiled for int64 ids
    # never even types the search kernel (its dispatcher stays empty), and raises on a
    # search id.
    probe = textwrap.dedent("""
        import numba, numpy as np
        from pitchsim.game.rules import Rules
        from pitchsim.kernels.search import rollout
        from pitchsim.kernels.presets import rules_array, rules_table

        r = Rules()
        fr, tab = rules_array(r), rules_table(r)

        @numba.njit
        def plain_loop(policy, legal, hand, fr, tab):
            z, a = np.int64(0), np.zeros(4, np.int64)
            return rollout.seat_search_card(
                policy, legal, hand, 1, 4, 0, 2, 2, 1, a, a, 0, z, a, a, z,
                np.zeros(5, np.int64), z, a, fr, tab, np.uint64(1), 7, -1, -1,
                np.zeros((1, 4), np.int64), np.zeros((1, 4), np.int64), np.zeros(1, np.int64))

        print(plain_loop(np.int64(-1), np.int64(7), np.int64(7), fr, tab),
              len(rollout.search_card.signatures))
        try:
            plain_loop(np.int64(2 | 4 << 8), np.int64(7), np.int64(7), fr, tab)
        except ValueError as e:
            print("refused", "seat_ids" in str(e))
    """)
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["-1", "0", "refused", "True"], out.stdout

    # Inside a parallel kernel (bid-odds') numba wraps it (SystemError), the message
    # still chained.
    hand = mask_of(parse_cards("AS KS QS JS TS 9S"))
    policies = seat_policies("rollout:4", 4).astype(np.int64)  # the wrong dtype
    fr, tab = tables(SOLO)
    out = [np.zeros(8, np.int64) for _ in range(3)]
    with pytest.raises((ValueError, SystemError)) as raised:
        fixed_kernel(fr, policies)(1, 0, 8, 4, 0, np.int64(hand), -1, 0, policies, fr, tab, *out)
    assert "seat_ids" in f"{raised.value} {raised.value.__context__}"
