"""`six-point` (§9), Trickster's five-point game with one joker, and its option
`joker-game` (§12.10), as values of the one engine: clause by clause in the reference
engine (docs/rules.md) and the kernels' Game count on the doubled scale; and `go-out`,
the alias of `win` (§12.5, 6.3.14).  Random whole games, the family kernels deal by deal
and the commands: tests/test_presets_trickster.py; the solver: tests/test_family_solver.py.

Expectations are worked by hand from the clauses, not read off the code.
"""

import random

import numpy as np
import pytest
from clirun import cli, refused
from test_presets_trickster import c, m  # cards as the trickster tests write them

from pitchsim.game import reference as F
from pitchsim.game.cards import HIGH_JOKER, cards_of, format_card
from pitchsim.game.rules import Rules, RulesError

C, D, H, S = range(4)
SIX = Rules.parse("six-point")
# 9.7.4's second case needs two jokers: the same game with both (a generic build)
TWO_HALVES = Rules.parse(
    "auction-pitch,partnership=true,jokers=2,jick=true,trump=named,joker-game=half"
)


# ---- §9 six-point --------------------------------------------------------------------------


def test_9_1_five_point_with_a_joker_four_in_partnerships_or_two_to_four_alone():
    SIX.check_players(4)
    alone = Rules.parse("six-point,partnership=false")
    for n in (2, 3, 4):
        alone.check_players(n)
    with pytest.raises(ValueError, match="six-point is played by 2-4 players"):
        alone.check_players(5)
    five = Rules.parse("five-point").describe()
    six = SIX.describe()
    differ = {k for k in six if six[k] != five[k]}
    assert differ == {"family", "jokers", "joker-game"}


def test_9_2_a_pack_of_53_six_each():
    for n in (2, 3, 4):
        r = SIX if n == 4 else Rules.parse("six-point,partnership=false")
        hands, rest = F.deal(random.Random(n), r, n, 0)
        assert [h.bit_count() for h in hands] == [6] * n
        everything = set(rest)
        for h in hands:
            everything |= set(cards_of(h))
        assert everything == set(range(52)) | {HIGH_JOKER}
    assert SIX.discard == "none" and not SIX.rob


def test_9_3_and_9_7_1_the_joker_below_the_jick_above_the_ten():
    order = [format_card(x, symbols=False) for x in reversed(F.trump_order(SIX, D))]
    assert order == "AD KD QD JD JH HJ TD 9D 8D 7D 6D 5D 4D 3D 2D".split()
    # the joker led is a trump lead: a player holding a trump must play one
    assert F.legal_cards(m("2D 9C KH"), [c("HJ")], D, SIX) == m("2D")
    assert F.legal_cards(m("JH 9C KH"), [c("HJ")], D, SIX) == m("JH")  # the jick is trump
    assert F.legal_cards(m("9C KH"), [c("HJ")], D, SIX) == m("9C KH")  # no trump: any
    # the joker wins over the 10 and loses to the jick
    assert F.trick_winner([c("TD"), c("HJ"), c("5D")], D, SIX) == 1
    assert F.trick_winner([c("HJ"), c("JH")], D, SIX) == 1


def test_9_4_six_points_and_9_7_2_the_joker_is_never_high_or_low():
    assert SIX.max_bid == 6
    # 9.7.2: the joker and 4♦ the only trumps; seat 1 holds the 4♦, seat 0 takes both
    held = [m("HJ 9C"), m("4D 5H"), m("8C 8S"), m("2C 3C")]
    won = [m("HJ 4D 9C 5H"), 0, m("8C 8S 2C 3C"), 0]
    s = F.score_hand(held, won, D, SIX)
    assert s.awards["high"] == 0 and s.awards["low"] == 1  # 4♦ both; Low to its holder
    assert s.awards["high-joker"] == 0 and s.values["high-joker"] == 1
    assert set(s.values) == {"high", "low", "jack", "jick", "high-joker", "game"}


def test_9_7_3_the_joker_the_only_trump_nobody_has_high_or_low():
    held = [m("HJ 9C"), m("8H 5H"), m("8C 8S"), m("2C 3C")]
    won = [m("HJ 8H"), m("9C 5H 8C 8S 2C 3C"), 0, 0]
    s = F.score_hand(held, won, D, SIX)
    assert s.awards["high"] is None and s.awards["low"] is None
    assert s.awards["high-joker"] == 0
    # and with every count 0, the joker's half alone takes Game: ½ against 0
    assert s.awards["game"] == 0 and s.points == [2, 0, 2, 0]
    assert F.score_hand(held, won, D, Rules.parse("six-point,joker-game=0")).points == [1, 0, 1, 0]


def test_9_5_and_9_7_4_a_joker_counts_a_half_toward_game():
    # seats 0+2 take 10♣ Q♣ and the joker (12½), seats 1+3 take 10♠ Q♠ (12)
    held = [m("TC QC"), m("TS QS"), m("HJ 4H"), m("5H 6H")]
    won = [m("TC QC HJ 4H"), m("TS QS 5H 6H"), 0, 0]
    s = F.score_hand(held, won, D, SIX)
    assert s.awards["game"] == 0
    plain = Rules.parse("six-point,joker-game=0")  # the choice: the joker counts 0
    assert F.score_hand(held, won, D, plain).awards["game"] is None  # 12 against 12
    assert s.game_counts == [12, 12, 0, 0]  # the counts as dealt stay whole
    # 12½ against 12½ (two jokers): nobody
    held2 = [m("TC QC"), m("TS QS"), m("HJ 4H"), m("LJ 6H")]
    won2 = [m("TC QC HJ 4H"), m("TS QS LJ 6H"), 0, 0]
    assert F.score_hand(held2, won2, D, TWO_HALVES).awards["game"] is None
    # a half decides only a tie of the whole counts: 13 beats 12 and a joker
    won3 = [m("TC QC HJ 4H"), m("TS QS 5H 6H"), 0, 0]
    held3 = [m("TC QC"), m("TS QS"), m("HJ 4H"), m("5H 6H")]
    won3[1] |= m("JS")
    held3[1] |= m("JS")
    won3[0] |= m("9S")
    held3[0] |= m("9S")
    assert F.score_hand(held3, won3, D, SIX).awards["game"] == 1


def test_9_5_joker_game_changes_nothing_without_a_game_count_6_3_11():
    r = Rules.parse("seven-point,joker-game=half")  # game=ten: no Game point at all
    assert r.joker_game == "half" and r.max_bid == 7
    held = [m("TH HJ"), m("LJ 2H"), m("5C 6C"), m("7C 8C")]
    won = [m("TH HJ LJ 2H"), m("5C 6C 7C 8C"), 0, 0]
    assert F.score_hand(held, won, H, r).awards == F.score_hand(held, won, H, SEVEN).awards


SEVEN = Rules.parse("seven-point")


def test_9_6_the_generic_form():
    spec = (
        "auction-pitch,partnership=true,jokers=1,jick=true,trump=named,lead-trump=true,"
        "min-bid=2,dealer-steal=false,all-pass=redeal,low=dealt,joker-game=half,target=11,"
        "win=pitcher-first"
    )
    assert Rules.parse(spec).describe() | {"family": "six-point"} == (SIX.describe())
    with pytest.raises(RulesError, match="six-point is played with jokers=1"):
        Rules.parse("six-point,jokers=2")


# ---- §12.5 go-out, an alias of win ---------------------------------------------------------


def test_12_5_go_out_bid_is_win_pitcher_and_any_is_pitcher_first():
    assert Rules.parse("smear,go-out=bid").win == "pitcher"
    assert Rules.parse("smear,go-out=any") == Rules.parse("smear")
    assert Rules.parse("go-out=bid") == Rules()  # the base game's own win
    assert Rules.parse({"family": "setback", "go-out": "any"}).win == "pitcher-first"
    assert Rules.parse("smear,win=pitcher,go-out=bid").win == "pitcher"  # agreeing: fine
    assert "go-out" not in Rules.parse("smear,go-out=bid").describe()  # never kept


@pytest.mark.parametrize(
    "text, message",
    [
        ("smear,go-out=bid,win=highest", "go-out=bid means win=pitcher, not win=highest"),
        ("smear,win=pitcher-first,go-out=bid", "go-out=bid means win=pitcher"),
        ("go-out=any,win=pitcher", "go-out=any means win=pitcher-first, not win=pitcher"),
        ("smear,go-out=first", "go-out must be 'bid' or 'any'"),
        ("smear,go-out=bid,go-out=bid", "go-out is given twice"),
    ],
)
def test_6_3_14_go_out_with_another_win_is_an_error(text, message):
    with pytest.raises(RulesError, match=message):
        Rules.parse(text)


def test_6_3_14_go_out_refused_in_one_line_on_the_command_line():
    refused("rules", "--rules", "smear,go-out=bid,win=highest", words="6.3.14")


# ---- the kernels' Game count (the whole games, the kernels deal by deal, the solver and
# the commands: tests/test_presets_trickster.py and tests/test_family_solver.py) -------------


def _random_captures(rng, rules, n):
    """Every card of a random deal of ``rules`` taken by a random seat (follow=trump: the
    cards taken are the cards in play), weighted to tie the plain counts often."""
    hands, _ = F.deal(rng, rules, n, 0)
    won = [0] * n
    for h in hands:
        for x in cards_of(h):
            won[rng.randrange(n)] |= 1 << x
    return hands, won


@pytest.mark.parametrize("spec", ["six-point", "six-point,partnership=false", "TWO"])
def test_the_kernel_scores_game_on_the_doubled_scale_as_the_reference(spec):
    from pitchsim.kernels.presets import rules_array, rules_table
    from pitchsim.kernels.score import AWARD_NAMES, N_AWARDS, score_hand

    rules = TWO_HALVES if spec == "TWO" else Rules.parse(spec)
    r = rules
    fr, tab = rules_array(r), rules_table(r)
    rng = random.Random(spec)
    award = np.zeros(N_AWARDS, np.int64)
    points = np.zeros(7, np.int64)
    decided_by_jokers = 0
    for _ in range(3000):
        n = 4 if r.partnership else rng.choice([2, 3, 4])
        held, won = _random_captures(rng, rules, n)
        trump = rng.randrange(4)
        want = F.score_hand(held, won, trump, r)
        score_hand(np.array(held, np.int64), np.array(won, np.int64), n, trump, fr, tab, award,
                   points, 0, -1)  # fmt: skip
        got = {AWARD_NAMES[i]: int(award[i]) for i in range(N_AWARDS) if award[i] != -2}
        assert got["game"] == (-1 if want.game is None else r.team(want.game)), (held, won)
        assert list(points[:n]) == want.points
        sides = {r.team(s) for s in range(n)}
        whole = {t: sum(want.game_counts[s] for s in range(n) if r.team(s) == t) for t in sides}
        top = max(whole.values())
        decided_by_jokers += sum(v == top for v in whole.values()) > 1 and want.game is not None
    assert decided_by_jokers > 10  # ties of the whole counts a joker broke were met


def test_a_planted_bug_the_kernel_ignoring_the_half_is_caught():
    """The kernel's rules array without joker-game=half scores a six-point hand whose
    whole counts tie differently from the reference."""
    from pitchsim.kernels.presets import F_JOKER_GAME, rules_array, rules_table
    from pitchsim.kernels.score import GAME, N_AWARDS, score_hand

    r = SIX
    fr, tab = rules_array(r), rules_table(r)
    fr[F_JOKER_GAME] = 0
    held = [m("TC QC"), m("TS QS"), m("HJ 4H"), m("5H 6H")]
    won = [m("TC QC HJ 4H"), m("TS QS 5H 6H"), 0, 0]
    award = np.zeros(N_AWARDS, np.int64)
    score_hand(np.array(held, np.int64), np.array(won, np.int64), 4, D, fr, tab, award,
               np.zeros(4, np.int64), 0, -1)  # fmt: skip
    assert award[GAME] != F.score_hand(held, won, D, SIX).awards["game"]


def test_pitchsim_rules_explains_the_half():
    code, out, _ = cli("rules", "--rules", "six-point")
    assert code == 0 and "six-point:" in out and "each joker counts 1/2" in out
    assert "A♥ K♥ Q♥ J♥ J♦ HJ 10♥" in out and "joker-game       = half" in out
