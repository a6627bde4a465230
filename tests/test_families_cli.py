"""``pitchsim play`` and ``pitchsim tournament`` under ``--rules FAMILY`` (table/boards.py):
what they show follows the rules (scores add up, the winners are the reference's), a
tournament is duplicate (every rotation of a board gets the same deals), and what the
families do not offer yet is refused in one line."""

from __future__ import annotations

import json

import numpy as np
import pytest
from test_families_rules import cli

from pitchsim.game import reference as F
from pitchsim.game.rules import Rules
from pitchsim.kernels.bidding.calls import MADE_ROW, N_CLASSES, N_ROWS
from pitchsim.table.boards import board_game, board_hand, odds_bidder_table
from pitchsim.table.tournament import tournament


@pytest.mark.parametrize("family", ["smear", "setback", "ten-point", "ten-point,partnership=false"])
def test_play_a_hand_text_and_json(family):
    code, out, _ = cli("play", "--rules", family, "--seed", "4")
    assert code == 0 and "Auction:" in out and family.split(",")[0] in out
    code, out, _ = cli("play", "--rules", family, "--seed", "4", "--json", "--rounds", "3")
    docs = json.loads(out)
    assert len(docs) == 3 and all(Rules.parse(d["rules"]) == Rules.parse(family) for d in docs)
    for d in docs:
        if d["pitcher"] is not None:
            # 0.9: made, every side scores its points; set, the pitcher's side -bid.
            r = Rules.parse(family)
            want = F.settle_hand(d["points_won"], d["pitcher"], d["bid"], r)
            assert d["change"] == want and d["made"] == (d["points_won"][d["pitcher"]] >= d["bid"])


@pytest.mark.parametrize("family, n", [("smear", 3), ("setback", 4), ("ten-point", 4)])
def test_play_a_game_adds_up_and_ends_as_the_reference_says(family, n):
    code, out, _ = cli("play", "--rules", family, "--game", "--json", "--seed", "6", "-n", n)
    assert code == 0
    doc = json.loads(out)
    r = Rules.parse(doc["rules"])
    assert doc["family"] == r.family == family
    scores = [0] * n
    for i, h in enumerate(doc["hands"]):
        scores = [s + c for s, c in zip(scores, h["round_points"], strict=True)]
        assert h["scores_after"] == scores
        won = F.winners(scores, h["pitcher"], bool(h["made"]), r, h["shoot"])
        last = i == len(doc["hands"]) - 1
        assert bool(won) == last, (i, scores)  # the game ends at the first hand with a winner
        if last:
            assert doc["winners"] == won
        if h.get("held") is not None:  # 4.8: six cards or fewer in play, all from the deal or stock
            assert all(len(cards) <= 6 for cards in h["held"])
    code, text, _ = cli("play", "--rules", family, "--game", "--seed", "6", "-n", n)
    assert code == 0 and ("wins" in text or "win," in text)


def test_a_family_game_record_replays(tmp_path):
    code, out, _ = cli("play", "--rules", "smear", "--game", "--json", "--seed", "1")
    path = tmp_path / "g.json"
    path.write_text(out)
    code, again, err = cli("play", "--replay", path, "--json")
    assert code == 0 and again == out, err


@pytest.mark.parametrize(
    "argv, words",
    [
        (["play", "-n", "8"], "players"),
    ],
)
def test_what_families_do_not_offer_is_refused_in_one_line(argv, words):
    code, out, err = cli(*argv, "--rules", "smear")
    assert code == 2 and words in err and out == "", err


def test_the_odds_table_of_rules_without_shipped_rows_is_made_for_them():
    """6.2: the 5 of trump worth 5 makes smear's maximum bid 10, so smear's shipped rows
    (bids to 5) are not read: rows made for smear,five=true bid to 10."""
    five, _ = odds_bidder_table(Rules.parse("smear,five=true"), 4)
    plain, _ = odds_bidder_table(Rules.parse("smear"), 4)
    assert five[:N_ROWS, 9].any() and not plain[:N_ROWS, 5:].any()
    odds, defender = odds_bidder_table(Rules.parse("ten-point"), 4)
    # P(at least k) falls with k and rises with the count (the builder's running max).
    table = odds[:N_ROWS, :10]
    assert np.all(np.diff(table, axis=1) <= 1e-6)
    assert np.all(np.diff(table, axis=0) >= -1e-6) and 0 < defender < 10
    # Row N_ROWS: the share of hands worth a bid of k or more, falling with k.
    assert np.all(np.diff(odds[N_ROWS, 1:11]) <= 1e-9) and 0 < odds[N_ROWS, 5] <= 1
    # MADE_ROW (odds-game): how often a bid of k is made, a chance, for every bid.
    assert np.all((odds[MADE_ROW, 5:11] > 0) & (odds[MADE_ROW, 5:11] <= 1))


def test_a_family_tournament_is_duplicate_and_counts_every_game():
    rules = Rules.parse("smear")
    r = tournament("heuristic,random", 3, 40, rules, seed=8)
    assert r.games == 80 and r.rotations == 2
    shares = sum(s.win_rate for s in r.results) * r.rotations
    assert abs(shares - (1 - r.unfinished / r.games) * r.rotations) < 1e-9
    assert sorted(r.results[0].pitched) == [1, 2, 3, 4, 5]
    # Board 5's first deal is the same cards in both rotations (only the seats turn).
    a = board_game(8, 5, ["heuristic", "random", "heuristic"], rules)
    b = board_game(8, 5, ["random", "heuristic", "random"], rules)
    assert a.hands[0].dealt == b.hands[0].dealt
    code, out, _ = cli(
        "tournament",
        "--rules",
        "smear",
        "-s",
        "heuristic,random",
        "-g",
        "40",
        "-n",
        "3",
        "--seed",
        "8",
        "--json",
    )
    doc = json.loads(out)
    assert [x["wins"] for x in doc["results"]] == [s.wins for s in r.results]
    assert set(doc["results"][0]["by_bid"]) == {"1", "2", "3", "4", "5"}


def test_a_single_hand_is_the_first_deal_of_nothing_else():
    """``play`` without --game plays deal r of the seed from scores of zero: the same
    hand twice, and the heuristic bidders' calls are legal (the legal mask holds them)."""
    rules = Rules.parse("ten-point")
    h1 = board_hand(3, 0, ["heuristic"] * 4, rules, 3)
    h2 = board_hand(3, 0, ["heuristic"] * 4, rules, 3)
    assert h1 == h2
    r = rules
    for i, c in enumerate(h1.calls):
        if c is not None:
            calls = [int(x) if x.isdigit() else 0 for x in h1.calls[:i] if x is not None]
            seat = (h1.dealer + 1 + i) % 4
            legal = F.legal_calls(calls, seat == h1.dealer, r)
            assert (0 if c == "pass" else int(c)) in legal


@pytest.mark.parametrize(
    ("spec", "n"),
    [
        ("auction-pitch", 4),
        ("auction-pitch,partnership=true", 4),
        ("smear,kitty=3", 4),
        ("five-point,kitty=3", 4),
        ("auction-pitch,trump=named,kitty=3", 4),
        ("smear,kitty=5", 4),
        ("smear,partner=called", 5),
        ("auction-pitch,trump=named,partner=announced", 6),
        ("ten-point,partnership=false,partner=called", 5),
        ("ten-point,partnership=false", 5),
    ],
)
def test_the_odds_rows_are_what_their_deals_give(spec, n):
    """The rows of the family table the base game (auction-pitch at 2-7 players and in
    partnership) and a kitty (12.2: rows of their own) read, recounted on fresh deals
    of another seed: every well-filled row's P(the pitcher's side takes at least k)
    within 5 standard errors of the table's.  A table built from another game (or
    none, as before; or a kitty read from the rows without one) fails here."""
    from pitchsim.kernels.bid_table import simulate_counts
    from pitchsim.kernels.presets import rules_array, rules_table

    r = Rules.parse(spec)
    odds, _ = odds_bidder_table(r, n)
    deals = 60_000
    row, points, other = (np.empty(deals, np.int64) for _ in range(3))
    simulate_counts(991, deals, n, rules_array(r), rules_table(r), row, points, other)
    # two sides (partnership) are keyed by the count alone: every holding of a count
    # reads the count's row (scripts/make_bid_table.py)
    if r.partnership:
        row = row - row % N_CLASSES
    checked, _ = rows_within(odds, row, points, r.max_bid, 5)
    assert checked >= 12


def rows_within(odds, row, points, max_bid: int, sigmas: float) -> tuple[int, int]:
    """Every row of 3,000 deals or more: its P(the pitcher's side takes at least k), k = 1
    .. ``max_bid``, in ``odds`` within ``sigmas`` standard errors of the deals' (``row``,
    ``points``); how many were checked and how many are the deals' exactly."""
    checked = exact = 0
    for b in np.unique(row):
        got = points[row == b]
        if len(got) < 3000:
            continue
        for k in range(1, max_bid + 1):
            p = (got >= k).mean()
            se = max(np.sqrt(p * (1 - p) / len(got)), 1e-3)
            assert abs(odds[b, k - 1] - p) <= sigmas * se, (b, k, odds[b, k - 1], p)
            checked += 1
            exact += odds[b, k - 1] == p
    return checked, exact


@pytest.mark.parametrize("solo", ["smear", "ten-point,partnership=false"])
def test_12_1_6_the_table_kernel_counts_a_called_partners_points_to_the_side(solo):
    """12.1.6: under a called partner the pitcher's side is two seats, the pitcher and
    the called card's holder, and both score the side's points; with the call made (the
    highest trump he lacks, 12.1.2) the side takes more than the pitcher alone does.  The
    odds table's kernel (``simulate_counts``) on the same deals: P(the pitcher's side
    takes at least k), for every k a bid of 1 to 3 asks, is above the solo game's by
    more than 0.05 (about 15 standard errors of 20,000 deals) under the called and the
    announced partner alike; the partner left out of the points reads about as solo."""
    from pitchsim.kernels.bid_table import simulate_counts
    from pitchsim.kernels.presets import rules_array, rules_table

    def made(spec):
        r = Rules.parse(spec)
        deals = 20_000
        row, points, other = (np.empty(deals, np.int64) for _ in range(3))
        simulate_counts(5, deals, 5, rules_array(r), rules_table(r), row, points, other)
        return np.array([(points >= k).mean() for k in (1, 2, 3)])

    alone = made(solo)
    for partner in ("called", "announced"):
        assert (made(f"{solo},partner={partner}") > alone + 0.05).all(), (partner, alone)


@pytest.mark.parametrize("n", [5, 6])
def test_12_1_7_the_table_kernels_defender_is_on_the_other_side(n):
    """Under a called partner there are two sides (12.1.6, 12.1.7: the others pool their
    points), so the pitcher's side's points and a defender's never add up to more than
    the hand awards, and under solo ten-point, where each of its 10 points goes to a
    side, to exactly 10.  A defender read from seat 1 whatever its side (it holds the
    call in about a quarter of the deals, scoring the pitcher's side's points) fails."""
    from pitchsim.kernels.bid_table import simulate_counts
    from pitchsim.kernels.presets import rules_array, rules_table

    for spec in ("smear,partner=called", "ten-point,partnership=false,partner=announced"):
        r = Rules.parse(spec)
        deals = 20_000
        row, points, other = (np.empty(deals, np.int64) for _ in range(3))
        simulate_counts(4, deals, n, rules_array(r), rules_table(r), row, points, other)
        assert (points + other <= r.max_bid).all(), spec
        if r.family == "ten-point":
            assert (points + other == 10).all()


def test_a_kitty_without_rows_of_its_own_has_rows_made_for_it():
    """A kitty changes every make-probability (12.2): kitty=7 has no rows shipped, so
    the odds bidder reads rows made for it, never the rows without one (nor kitty=6's):
    the pitcher's 7 more cards take more.  kitty=3's shipped rows differ from smear's."""
    plain, _ = odds_bidder_table(Rules.parse("smear"), 4)
    six, _ = odds_bidder_table(Rules.parse("smear,kitty=6"), 4)
    seven, _ = odds_bidder_table(Rules.parse("smear,kitty=7"), 4)
    assert not np.array_equal(seven, six)
    rows = [b * N_CLASSES for b in range(2, 9)]  # counts 1-4, holding neither
    assert (seven[rows, 2] > plain[rows, 2]).sum() >= 5, (seven[rows, 2], plain[rows, 2])
    odds, _ = odds_bidder_table(Rules.parse("smear,kitty=3"), 4)
    assert not np.array_equal(odds, plain)
