"""`deck` (docs/rules.md 12.3): the short packs `5-A`, `9-A` and `2,9-A`, as values of the
one engine: the rule string and its combinations (6.3.3, 6.3.9), the reference engine's
pack and deal clause by clause, the family kernels deal by deal against the reference
(``test_families_kernels.crosscheck``), the worlds sampler's unseen cards, exact checks
of the deal, and the commands.

Expectations are worked by hand from the clauses, not read off the code.
"""

from __future__ import annotations

import json
import math
import random

import numpy as np
import pytest
from clirun import cli, refused
from test_families_kernels import CrossCheckError, crosscheck, zlib_seed
from test_presets_trickster import m

from pitchsim.game import reference as F
from pitchsim.game.cards import cards_of, format_card, game_points
from pitchsim.game.rules import Rules, RulesError, spec
from pitchsim.kernels.deal import deal_cards, pack_mask
from pitchsim.kernels.presets import F_OUT, rules_array, rules_table
from pitchsim.kernels.search.worlds import world_constraint

C, D, H, S = range(4)
RANKS = "23456789TJQKA"


def pack_ranks(rules, n=4) -> set[str]:
    return {RANKS[c % 13] for c in F.pack(rules, n) if c < 52}


# ---- 12.3 the packs ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "deck, size, ranks",
    [
        ("2-A", 52, "23456789TJQKA"),
        ("5-A", 40, "56789TJQKA"),
        ("9-A", 24, "9TJQKA"),
        ("2,9-A", 28, "29TJQKA"),
    ],
)
def test_12_3_the_four_packs(deck, size, ranks):
    r = Rules.parse(f"auction-pitch,deck={deck}")
    assert len(F.pack(r, 4)) == size and pack_ranks(r) == set(ranks)
    # every suit alike: size / 4 of each
    assert [sum(1 for c in F.pack(r, 4) if c // 13 == s) for s in range(4)] == [size // 4] * 4
    # the kernels' pack is the reference's
    assert pack_mask(4, rules_array(r)) == sum(1 << c for c in F.pack(r, 4))


def test_12_3_jokers_join_the_short_pack_and_nothing_else_changes():
    r = Rules.parse("six-point,deck=5-A")  # six-point's one joker
    assert len(F.pack(r, 4)) == 41 and 52 in F.pack(r, 4)
    # ranks, trump order, points and the maximum bid unchanged (6.2)
    full = Rules.parse("six-point")
    assert r.max_bid == full.max_bid == 6
    assert F.trump_order(r, H) == F.trump_order(full, H)
    # every 10 and court card stays: the pack's Game count is the full 80 (0.8)
    assert sum(game_points(c) for c in F.pack(r, 4) if c < 52) == 80


def test_12_3_the_rule_string_keeps_the_comma_of_2_9_a():
    for text in ("five-point,deck=2,9-A", "five-point deck=2,9-A", "five-point,deck=2,9-a"):
        r = Rules.parse(text)
        assert r.deck == "2,9-A" and r.family == "five-point", text
    r = Rules.parse("five-point,deck=2,9-A,target=15")
    assert r.target == 15 and Rules.parse(spec(r)) == r
    assert Rules.parse(r.describe()) == r
    assert "deck=2,9-A" in spec(r)
    # auction-pitch with the whole pack is the base game
    assert Rules.parse("auction-pitch,deck=2-A").base_game
    assert not Rules.parse("auction-pitch,deck=9-A").base_game


@pytest.mark.parametrize("bad", ["3-A", "2", "2-9", "9A", ""])
def test_12_3_other_packs_are_refused(bad):
    with pytest.raises(RulesError, match="deck must be"):
        Rules.parse(f"auction-pitch,deck={bad}")


# ---- 6.3.9 and 6.3.3: what a short pack goes with ------------------------------------------------


@pytest.mark.parametrize(
    "text, words",
    [
        ("ten-point,deck=5-A", "deck=5-A needs deal=6 (VARIANTS.md 6.3.9)"),
        ("auction-pitch,jokers=2,deck=9-A", "deck=9-A needs at most one joker (VARIANTS.md 6.3.9)"),
        ("auction-pitch,three=true,deck=5-A", "three=true needs deck=2-A"),
        ("auction-pitch,five=true,deck=9-A", "five=true needs deck=2-A or 5-A"),
        ("auction-pitch,five=true,deck=2,9-A", "five=true needs deck=2-A or 5-A"),
    ],
)
def test_6_3_9_a_short_pack_needs_six_dealt_one_joker_at_most_and_its_point_cards(text, words):
    with pytest.raises(RulesError, match=words.replace("(", r"\(").replace(")", r"\)")):
        Rules.parse(text)
    refused("rules", "--rules", text, words=words)


def test_6_3_9_the_five_is_worth_five_in_the_5_a_pack():
    r = Rules.parse("auction-pitch,five=true,deck=5-A")
    assert r.max_bid == 9 and 3 in r.ranks  # rank 3 is the 5


@pytest.mark.parametrize(
    "deck, most",
    [("5-A", 6), ("9-A", 4), ("2,9-A", 4)],
)
def test_6_3_3_the_players_must_fit_the_short_pack(deck, most):
    r = Rules.parse(f"auction-pitch,deck={deck}")
    for n in range(2, most + 1):
        r.check_players(n)
    with pytest.raises(RulesError, match=r"more than the \d+-card pack of deck=.*6\.3\.3"):
        r.check_players(most + 1)
    refused("play", "--rules", f"auction-pitch,deck={deck}", "-n", most + 1, words="6.3.3")


# ---- 12.3 the deal and the points in the reference engine ------------------------------------


@pytest.mark.parametrize("deck", ["5-A", "9-A", "2,9-A"])
def test_12_3_the_deal_draws_only_the_short_packs_cards(deck):
    r = Rules.parse(f"five-point,deck={deck}")
    pack = set(F.pack(r, 4))
    rng = random.Random(deck)
    for _ in range(50):
        hands, stock = F.deal(rng, r, 4, rng.randrange(4))
        dealt = set()
        for h in hands:
            assert h.bit_count() == 6
            dealt |= set(cards_of(h))
        assert dealt | set(stock) == pack and not dealt & set(stock)


def test_12_3_nine_to_ace_with_four_players_every_card_is_in_play():
    """24 cards for 4 x 6: all dealt, so the ace of trump is always High and the 9 of
    trump always Low, whoever holds them (12.3)."""
    r = Rules.parse("auction-pitch,deck=9-A")
    rng = random.Random(93)
    for _ in range(40):
        hands, stock = F.deal(rng, r, 4, 0)
        assert stock == [] and sum(h.bit_count() for h in hands) == 24
        trump = rng.randrange(4)
        played = F.play_hand(
            hands, 1, lambda v: rng.choice(cards_of(v.legal)), r, bid=1, trump=-1,
            first_lead=rng.choice([c for c in cards_of(hands[1]) if c // 13 == trump] or [-1]),
        )  # fmt: skip
        t = played.trump
        holder = {c: s for s, h in enumerate(hands) for c in cards_of(h)}
        captor = {c: s for s, w in enumerate(played.won) for c in cards_of(w)}
        assert played.score.awards["high"] == holder[t * 13 + 12]  # the ace wins its trick
        assert played.score.awards["low"] == captor[t * 13 + 7]  # the 9: low=captured


def test_12_3_low_is_the_lowest_trump_in_play_whatever_its_rank():
    r = Rules.parse("five-point,deck=5-A")  # low=dealt: to its holder
    held = [m("QH 9C"), m("5H 7S"), m("8C 8S"), m("6C 7C")]
    won = [m("QH 5H 9C 7S"), m("8C 8S 6C 7C"), 0, 0]
    s = F.score_hand(held, won, H, r)
    assert s.awards["high"] == 0 and s.awards["low"] == 1  # 5♥, the pack's lowest heart
    r = Rules.parse("five-point,deck=2,9-A")
    held = [m("2H 9C"), m("9H TS"), m("8C 8S"), m("AC 7C")]
    won = [m("2H 9H 9C TS"), m("AC 7C 8C 8S"), 0, 0]
    assert F.score_hand(held, won, H, r).awards["low"] == 0  # the deuce below the 9


# ---- the kernels, deal by deal against the reference --------------------------------------------

TABLES = [
    ("auction-pitch,deck=9-A", 2),
    ("auction-pitch,deck=9-A", 4),
    ("auction-pitch,deck=2,9-A", 3),
    ("auction-pitch,deck=5-A,five=true", 6),
    ("five-point,deck=2,9-A", 4),
    ("five-point,deck=9-A,partnership=false", 3),
    ("six-point,deck=5-A", 4),
    ("smear,deck=5-A", 5),
]


@pytest.mark.parametrize("text, n", TABLES)
def test_12_3_the_kernels_play_the_reference_hand_deal_by_deal(text, n):
    for policy in ("random", "heuristic"):
        counts = crosscheck(Rules.parse(text), n, 120, seed=zlib_seed(text, n), policy=policy)
        assert counts["deals"] == 120 and counts["tricks"] > 0


def test_a_planted_bug_the_kernels_dealing_the_whole_pack_is_caught(monkeypatch):
    import test_families_kernels as harness

    r = Rules.parse("five-point,deck=2,9-A")
    fr = rules_array(r)
    fr[F_OUT] = 0  # planted: the kernels forget the short pack
    monkeypatch.setattr(harness, "rules_array", lambda _r, **_: fr)
    with pytest.raises(CrossCheckError, match="pack"):
        crosscheck(r, 4, 40, seed=3)


# ---- exact checks of the deal (the kernels' deal) -------------------------------------------------


@pytest.mark.parametrize("text, n", [("auction-pitch,deck=5-A", 3), ("five-point,deck=2,9-A", 4)])
def test_12_3_a_card_is_dealt_with_probability_dealt_over_pack(text, n):
    """Each card of the pack is dealt with probability n * 6 / pack (all alike); no card
    outside the pack ever is.  The kernels' deal, 20,000 deals of a fixed seed, each
    card's frequency within 4 standard errors of the exact value (a bound every card of
    a correct deal meets but for about 1 in 16,000 per card)."""
    r = Rules.parse(text)
    fr = rules_array(r)
    pack = F.pack(r, n)
    deals = 20_000
    counts = np.zeros(54, np.int64)
    deck = np.zeros(54, np.int64)
    dealt = np.zeros(n, np.int64)
    from pitchsim.kernels.rng import deal_key

    for d in range(deals):
        deal_cards(np.uint64(deal_key(7, d)), n, d % n, fr, deck, dealt)
        everything = int(np.bitwise_or.reduce(dealt))
        assert everything.bit_count() == 6 * n
        for c in cards_of(everything):
            counts[c] += 1
    p = n * 6 / len(pack)
    half = 4 * math.sqrt(p * (1 - p) / deals)
    for c in range(54):
        if c in pack:
            assert abs(counts[c] / deals - p) < half, (format_card(c), counts[c] / deals, p)
        else:
            assert counts[c] == 0, format_card(c)


def test_12_3_the_worlds_sampler_places_only_unseen_cards_of_the_short_pack():
    r = Rules.parse("auction-pitch,deck=9-A")
    fr, tab = rules_array(r), rules_table(r)
    hand = m("9H TH JH QH KH AH")
    allowed = np.zeros(5, np.int64)
    unseen, _ = world_constraint(
        4, 0, hand, np.int64(0), np.zeros(4, np.int64), np.zeros(4, np.int64), np.int64(0),
        np.array([6, 6, 6, 6, 0], np.int64), -1, fr, tab, allowed,
    )  # fmt: skip
    assert unseen == sum(1 << c for c in F.pack(r, 4)) & ~hand
    assert int(unseen).bit_count() == 18


# ---- the commands -------------------------------------------------------------------------------


def test_rules_explains_a_short_pack():
    _, out, _ = cli("rules", "--rules", "auction-pitch deck=9-A")
    assert "a 24-card pack, 9 to ace in each suit (deck=9-A)" in out
    assert "A♥ K♥ Q♥ J♥ 10♥ 9♥ (6 cards)" in out
    assert "- Players: 2-4, each for himself." in out
    _, out, _ = cli("rules", "--rules", "five-point,deck=2,9-A", "--json")
    doc = json.loads(out)
    assert doc["rules"]["deck"] == "2,9-A" and Rules.parse(doc["spec"]).deck == "2,9-A"


def test_bid_odds_takes_a_short_pack_and_refuses_a_card_outside_it():
    code, out, _ = cli(
        "bid-odds", "AH KH JD 9H 9C TD", "--rules", "five-point,deck=2,9-A",
        "--samples", "2000", "--seed", "1",
    )  # fmt: skip
    assert code == 0 and "Recommended" in out
    refused(
        "bid-odds", "AH KH JD 5H 9C TD", "--rules", "five-point,deck=2,9-A",
        "--samples", "200", words="not in this deck",
    )  # fmt: skip


def test_the_odds_bidder_bids_a_short_pack_from_rows_made_for_it():
    """12.3: a short pack changes every make-probability, so the odds bidder reads no
    shipped row there but rows made for the pack on first use (``table.odds_rows``)."""
    code, out, err = cli(
        "play", "--rules", "auction-pitch,deck=5-A", "--seed", "1", "--game", "--json",
        "-s", "odds+heuristic",
    )  # fmt: skip
    assert code == 0 and err == "", err
    calls = [c for h in json.loads(out)["hands"] for c in h["calls"]]
    assert any(c not in ("pass", None) for c in calls), calls


@pytest.mark.parametrize("text", ["auction-pitch,deck=5-A", "five-point,deck=2,9-A"])
def test_simulate_play_and_tournament_play_a_short_pack(text, tmp_path):
    code, _, _ = cli("simulate", "--rules", text, "--deals", "2000", "--out", tmp_path / "r", "-q")
    assert code == 0
    pack = {format_card(c, symbols=False) for c in F.pack(Rules.parse(text), 4)}
    code, out, _ = cli(
        "play", "--rules", text, "--seed", "3", "--game", "--json",
        "-s", "heuristic+heuristic",
    )  # fmt: skip
    assert code == 0
    doc = json.loads(out)
    assert Rules.parse(doc["rules"]).deck == Rules.parse(text).deck
    seen = {c for h in doc["hands"] for hand in h["hands"] for c in hand}
    assert seen and seen <= pack
    code, out, _ = cli(
        "tournament", "--rules", text, "--games", "4", "--seed", "2", "--threads", "1",
        "-s", "heuristic+heuristic,random+random",
    )  # fmt: skip
    assert code == 0, out


def test_practice_a_short_pack_against_the_default_and_heuristic_bots(tmp_path):
    answers = "p\n5\n2\n1\n" * 3000  # progress at any prompt (test_practice_presets.answers)
    code, out, err = cli(
        "practice", "--rules", "five-point,deck=2,9-A", "--seed", "5", "--no-coach",
        "--save", tmp_path / "odds.json", stdin=answers,
    )  # fmt: skip
    assert code == 0 and "game over:" in out, err  # the default opponents: odds, rows made
    code, out, err = cli(
        "practice", "--rules", "five-point,deck=2,9-A", "--opponents", "heuristic+heuristic",
        "--seed", "5", "--no-coach", "--save", tmp_path / "g.json", stdin=answers,
    )  # fmt: skip
    assert code == 0, err
    assert "game over:" in out and "5♥" not in out and "8♣" not in out  # not in 2,9-A


def test_12_3_table_checks_hold_the_short_packs_exact_values(tmp_path):
    """``table --checks`` under deck=9-A, worked by hand: the ace of spades is in the
    pitcher's 6 of 24 with probability 6/24 = 0.25; a king of trump without the ace wins
    High when the ace is not dealt: never with 4 players (all 24 dealt, 12.3), with 3
    players 1 - 12/18 = 1/3 (12 of the 18 unseen cards dealt)."""
    run = tmp_path / "r"
    code, _, err = cli(
        "simulate", "--rules", "auction-pitch,deck=9-A", "--deals", "3000", "-n", "3,4",
        "--out", run, "--seed", "2", "-q",
    )  # fmt: skip
    assert code == 0, err
    code, out, _ = cli("table", run, "--checks", "--format", "json")
    assert code == 0
    rows = {(r["players"], r["check"]): r for r in json.loads(out)}
    ace = "the ace of spades in the pitcher's hand as dealt"
    king = "king of trump dealt without the ace wins High"
    assert rows[(3, ace)]["exact"] == rows[(4, ace)]["exact"] == 0.25
    assert rows[(4, king)]["exact"] == 0 and rows[(4, king)]["estimate"] == 0
    assert abs(rows[(3, king)]["exact"] - 1 / 3) < 1e-5  # (written to 6 digits)
    assert all(r["inside"] for r in rows.values())
