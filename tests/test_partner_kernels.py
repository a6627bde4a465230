"""docs/rules.md 12.1, the called partner, in the family kernels (``pitchsim/kernels``):
the call (12.1.2, 12.1.4), rule X passing over the called card (12.1.3), the partner's
duty to play it to the first trick (12.1.3), the pitcher alone (12.1.5), two sides a
hand for the points (12.1.6), the settling (12.1.7) and the winners (12.1.8).

The kernels' hands equal the reference engine's deal by deal in
tests/test_families_kernels.py (its partner presets, random play at 5 and 6 players)
and their whole games in tests/test_families_games.py; here heuristic play, the facts
the cross-check must reach, and planted bugs each test must catch.
"""

from __future__ import annotations

import json
import random

import numpy as np
import pytest
from logged_hands import logged_arrays
from test_families_kernels import CrossCheckError, crosscheck

from pitchsim.game import reference as F
from pitchsim.game.rules import Rules, RulesError
from pitchsim.kernels.partner import highest_missing_trump
from pitchsim.kernels.presets import (
    F_PARTNER,
    PARTNER_ANNOUNCED,
    PARTNER_CALLED,
    PARTNER_NONE,
    rules_array,
    rules_table,
)
from pitchsim.kernels.settle import settle_hand, winners

NAMED = "auction-pitch,trump=named,partner=called"
TEN = "ten-point,partnership=false,partner=called"
SPECS = [
    NAMED,
    TEN,
    "auction-pitch,trump=named,partner=announced",
    "ten-point,partnership=false,partner=announced",
]


def test_12_1_the_rules_array_carries_the_partner_and_refuses_it_where_asked(tmp_path):
    """The kernels' rules array carries partner=none|called|announced; only a caller
    that does not carry it yet asks for the refusal, and gets it in one line naming
    itself and what to use instead: ``hint`` on a position (which gives no call to its
    search)."""
    from clirun import cli, refused

    assert rules_array(Rules.parse(NAMED))[F_PARTNER] == PARTNER_CALLED
    spec = "smear,partner=announced"
    assert rules_array(Rules.parse(spec))[F_PARTNER] == PARTNER_ANNOUNCED
    assert rules_array(Rules.parse("smear"), "refused")[F_PARTNER] == PARTNER_NONE
    with pytest.raises(RulesError, match="^partner=called \\(VARIANTS.md 12.1\\): it is") as e:
        rules_array(Rules.parse(NAMED), "it is refused here")
    assert "\n" not in str(e.value)
    code, out, _ = cli(
        "play", "--rules", NAMED, "--players", "5", "--bidding", "heuristic", "--seed", "3",
        "--json",
    )  # fmt: skip
    assert code == 0
    position = json.loads(out)
    position["tricks"] = position["tricks"][:1]  # the winner of trick 1 to lead
    path = tmp_path / "position.json"
    path.write_text(json.dumps(position))
    line = refused("hint", path, "--worlds", "5", words="hint on a position does not carry it")
    assert "partner=called (VARIANTS.md 12.1)" in line and "view" in line


@pytest.mark.parametrize("spec", [NAMED, TEN, "smear,partner=called", "cinch,partnership=false"])
def test_12_1_2_the_call_is_the_highest_trump_the_hand_lacks(spec):
    """``partner.highest_missing_trump`` (kernel) and the reference's, on random hands
    of every trump (the jick, the jokers, the left pedro where the rules have them),
    hands holding every trump among them."""
    r = Rules.parse(spec)
    tab = rules_table(r)
    rng = random.Random(spec)
    for _ in range(3000):
        trump = rng.randrange(4)
        trumps = F.trump_order(r, trump)
        held = rng.sample(trumps, rng.randint(0, len(trumps)))
        hand = sum(1 << c for c in held) | (rng.getrandbits(54) & ~int(tab[trump, 0]))
        hand &= (1 << 54) - 1
        want = F.highest_missing_trump(hand, trump, r)
        assert highest_missing_trump(np.int64(hand), trump, tab) == want, (trump, held)


@pytest.mark.parametrize("spec", SPECS)
@pytest.mark.parametrize("n", [5, 6])
def test_12_1_heuristic_hands_equal_the_reference_deal_by_deal(spec, n):
    """Heuristic play (its cards replayed in the reference, which checks every legal
    set, the call, the partner, every trick and award and the sides' points).  With
    6 of 52 cards dealt each the called card is often undealt: the pitcher alone
    (12.1.5) is met too; ten-point deals nearly every card."""
    counts = crosscheck(Rules.parse(spec), n, 240, seed=n * 31 + len(spec), policy="heuristic")
    assert counts["deals"] == 240
    assert counts["partnered"] > 0
    if spec.startswith("auction-pitch"):
        assert counts["partnered"] < 240


def test_12_1_3_the_duty_binds_a_partner_who_had_other_cards_to_play():
    """The cross-check reaches the duty: under auction-pitch with trump named and
    follow=trump, a partner who is not the first to play trick 1 could often play
    another card; the kernel's legal set for him is the called card alone."""
    from pitchsim.kernels.simulate import play_logged

    r = Rules.parse(NAMED)
    fr, tab = rules_array(r), rules_table(r)
    n, d = 5, 300
    out = logged_arrays(d, n)
    policies = np.zeros(n, np.int64)
    play_logged(5, 0, d, n, 4, 0, np.int64(0), -1, policies, fr, tab, *out.values())
    bound = 0
    for i in range(d):
        trump, called, partner = (int(out["trump"][i, k]) for k in (0, 4, 5))
        if partner < 0:
            continue
        pos = (partner - 0) % n  # the pitcher (seat 0) leads trick 1
        assert int(out["legal"][i, pos]) == 1 << called
        assert int(out["log"][i, 1 + pos]) == called
        hand = int(out["held"][i, partner])
        led = int(out["log"][i, 1])
        free = F.legal_cards(hand, [led], trump, r) if pos else hand
        bound += free != 1 << called
    assert bound > 50


def test_12_1_3_a_planted_bug_the_called_card_not_forced_to_trick_1_is_caught():
    """The kernels told announced (same call without a draw, no duty) where the rules
    say called: the partner's trick-1 legal set differs from the reference's."""
    rules = Rules.parse(NAMED)
    fr = rules_array(rules)
    fr[F_PARTNER] = PARTNER_ANNOUNCED
    with pytest.raises(CrossCheckError, match="legal cards, trick 0"):
        crosscheck(rules, 5, 100, seed=1, fr=fr)
    crosscheck(rules, 5, 100, seed=1)  # and the true rules pass


def test_12_1_a_planted_bug_no_called_partner_is_caught():
    """The kernels told partner=none: each plays alone, no call, the points not pooled."""
    rules = Rules.parse(TEN)
    fr = rules_array(rules)
    fr[F_PARTNER] = PARTNER_NONE
    with pytest.raises(CrossCheckError):
        crosscheck(rules, 5, 60, seed=1, fr=fr)


@pytest.mark.parametrize(
    "spec",
    [NAMED, TEN, "smear,partner=announced,set=to-others", "smear,partner=called,win=pitcher"],
)
def test_12_1_7_and_12_1_8_settling_and_winners_equal_the_reference(spec):
    """The kernel's ``settle_hand`` and ``winners`` against the reference's with the
    sides ``sides_of`` makes, on random points, scores, pitchers and partners (None:
    the pitcher alone), shoots and bids made and set."""
    r = Rules.parse(spec)
    fr = rules_array(r)
    rng = random.Random(spec)
    change = np.empty(6, np.int64)
    for _ in range(4000):
        n = rng.choice((5, 6))
        pitcher = rng.randrange(n)
        partner = rng.choice([None, *(s for s in range(n) if s != pitcher)])
        sides = F.sides_of(n, pitcher, partner, r)
        ours, theirs = rng.randrange(r.max_bid + 1), rng.randrange(r.max_bid + 1)
        points = [ours if sides[s] == pitcher else theirs for s in range(n)]
        bid = rng.randint(1, r.max_bid)
        p = -1 if partner is None else partner
        made = settle_hand(np.array(points, np.int64), n, pitcher, bid, fr, change[:n], p)
        assert list(change[:n]) == F.settle_hand(points, pitcher, bid, r, sides)
        scores = [rng.randint(-5, r.target + 3) for _ in range(n)]
        who = rng.choice([None, pitcher])
        shoot = rng.random() < 0.1
        want = F.winners(scores, who, made, r, shoot, partner=partner if who is not None else None)
        got = winners(
            np.array(scores, np.int64), n, -1 if who is None else who, made, shoot, fr,
            p if who is not None else -1,
        )  # fmt: skip
        assert sorted(s for s in range(n) if got >> s & 1) == sorted(want), (scores, who, p)


def test_12_1_7_a_planted_bug_the_partner_settled_with_the_defenders_is_caught():
    """12.1.9's hand, set: the pitcher (seat 0) and seat 3 take 6 on a bid of 7 in a
    ten-point game, the three others 4: both lose 7 (12.1.7).  Settled without the
    partner, seat 3 would score his 6 as a defender."""
    r = Rules.parse(TEN)
    fr = rules_array(r)
    points = [6, 4, 4, 6, 4]
    change = np.empty(5, np.int64)
    sides = F.sides_of(5, 0, 3, r)
    settle_hand(np.array(points, np.int64), 5, 0, 7, fr, change, 3)
    assert list(change) == F.settle_hand(points, 0, 7, r, sides) == [-7, 4, 4, -7, 4]
    settle_hand(np.array(points, np.int64), 5, 0, 7, fr, change, -1)
    assert list(change) != F.settle_hand(points, 0, 7, r, sides)


def test_12_1_8_whole_games_reach_the_pitcher_and_partner_winning_together():
    """Kernel games equal the reference's (tests/test_families_games.py's cross-check)
    and reach games the pitcher and his partner win together (12.1.8), under
    win=pitcher and pitcher-first."""
    from test_families_games import crosscheck as game_crosscheck

    for spec in ("smear,partner=called,win=pitcher,target=7", "smear,partner=called,target=7"):
        counts = game_crosscheck(spec, 5, 30, "heuristic", seed=3)
        assert counts["games"] == 30 and counts["shared"] > 0, counts


def test_12_1_the_odds_bidder_reads_rows_of_its_own_under_a_called_partner():
    """The odds bidder's tables hold the pitcher's side: under a called partner that is
    two seats (12.1.6), so the partner reads rows of its own, never the 5-player table
    of the same preset without one; the side takes more, so at every count from 0.5 to
    3 at the best suit (holding neither top nor bottom trump) P(at least 3) is above the
    pitcher's alone by more than 0.1.  A partner with a kitty has no rows shipped: they
    are made for it (``table.odds_rows``), the kitty's 3 more cards (12.2) lifting P(at
    least 3) above the partner's rows without one at most counts."""
    from pitchsim.kernels.bidding.calls import N_CLASSES
    from pitchsim.table.boards import odds_bidder_table
    from pitchsim.table.odds_rows import odds_table_key

    r = Rules.parse(NAMED)
    assert odds_table_key(r, 5) == "auction-pitch/5/0/partner=called"
    alone, _ = odds_bidder_table(Rules.parse("auction-pitch,trump=named"), 5)
    for spec in (NAMED, "auction-pitch,trump=named,partner=announced"):
        side, _ = odds_bidder_table(Rules.parse(spec), 5)
        for bucket in range(1, 7):
            row = bucket * N_CLASSES  # holding neither
            assert side[row, 2] > alone[row, 2] + 0.1, (spec, bucket)
    plain, _ = odds_bidder_table(r, 5)
    kitty, _ = odds_bidder_table(Rules.parse(NAMED + ",kitty=3"), 5)
    rows = [b * N_CLASSES for b in range(2, 9)]
    assert (kitty[rows, 2] > plain[rows, 2]).sum() >= 5, (kitty[rows, 2], plain[rows, 2])
