"""bid-odds as a library and as a table: the hand as a defender (checked against the
reference engine), margins on a hand-computed distribution, the API's words and frames,
and what the rendered table says."""

import numpy as np
import pytest

import pitchsim
from pitchsim.advice.odds import BidOdds, DefenceOdds, TrumpOdds, bid_odds
from pitchsim.cli.bid_odds import render
from pitchsim.cli.common import signed
from pitchsim.game.cards import Suit, mask_of, parse_hand
from pitchsim.game.reference import play_hand
from pitchsim.game.rules import Rules
from pitchsim.kernels.deal import deal_cards_fixed
from pitchsim.kernels.fixed_hand import AS_DEFENDER, defender_seat, fixed_kernel
from pitchsim.kernels.presets import rules_array, rules_table
from pitchsim.kernels.rng import deal_key
from pitchsim.table.boards import kernel_play_array
from pitchsim.table.policies import kernel_chooser, seat_policies


def _fixed(seed, count, n, seat, hand, rules, policies, fixed_trump=-1):
    """bid-odds' kernel (the one engine's ``fixed_hand``): per deal the points of the
    hand's side, every point awarded, and trump."""
    fr, tab = rules_array(rules), rules_table(rules)
    ours, every, trumps = (np.empty(count, np.int64) for _ in range(3))
    ids = kernel_play_array([int(i) for i in policies])
    fixed_kernel(fr, ids)(
        seed, 0, count, n, seat, np.int64(hand), fixed_trump, 0, ids, fr, tab, ours, every, trumps,
    )  # fmt: skip
    return ours, every, trumps


@pytest.mark.parametrize(
    "rules", [Rules(), Rules(low="dealt", follow="suit"), Rules(partnership=True)]
)
def test_defender_kernel_matches_the_reference_engine(rules):
    """The hand in a defender's seat: the points of its side and the points anyone won
    equal the reference engine's on the same deal and decisions."""
    rng = np.random.default_rng(7)
    fr = rules_array(rules)
    for trial in range(60):
        n = 4 if rules.partnership else int(rng.integers(2, 8))
        cards = [int(c) for c in rng.choice(52, 6, replace=False)]
        hand = mask_of(cards)
        policies = seat_policies(["heuristic", "random"][trial % 2], n)
        seed = int(rng.integers(0, 2**40))
        ours, every, trumps = _fixed(seed, 8, n, AS_DEFENDER, hand, rules, policies)
        for d in range(8):
            seat = defender_seat(d, n, rules.partnership)
            assert seat != 0 and (not rules.partnership or seat % 2 == 1)
            dealt = np.empty(n, dtype=np.int64)
            deal_cards_fixed(
                np.uint64(deal_key(seed, d)), n, n - 1, seat, np.int64(hand), fr,
                np.empty(0, np.int64), dealt,
            )  # fmt: skip
            assert dealt[seat] == hand
            ref = play_hand([int(m) for m in dealt], 0, kernel_chooser(policies, seed, d), rules)
            s = ref.score
            assert ours[d] == s.points[seat]
            assert every[d] == sum(p is not None for p in (s.high, s.low, s.jack, s.game))
            assert trumps[d] == ref.trump


def test_defender_seats_take_turns():
    assert [defender_seat(d, 5, False) for d in range(8)] == [1, 2, 3, 4, 1, 2, 3, 4]
    assert [defender_seat(d, 4, True) for d in range(4)] == [1, 3, 1, 3]


def test_margin_on_a_hand_computed_distribution():
    """Joint counts of (our points, their points) over 10 deals at a 3-player table (2
    opponents): margin of bid 2 = mean of (score - their points / 2), by hand."""
    joint = np.zeros((5, 5), dtype=np.int64)
    joint[3, 1] = 4  # made: +3, opponents 1 point -> 3 - 0.5
    joint[2, 2] = 3  # made: +2, opponents 2 -> 2 - 1
    joint[1, 3] = 3  # set: -2, opponents 3 -> -2 - 1.5
    o = TrumpOdds(Suit.HEARTS, 10, joint.sum(axis=1), joint, opponents=2)
    want = [4 * 2.5, 3 * 1.0, 3 * -3.5]
    assert o.expected_margin(2) == pytest.approx(sum(want) / 10)
    values = np.array([2.5] * 4 + [1.0] * 3 + [-3.5] * 3)
    assert o.expected_margin_se(2) == pytest.approx(values.std() / np.sqrt(10))
    assert o.expected_score(2) == pytest.approx((4 * 3 + 3 * 2 - 3 * 2) / 10)
    d = DefenceOdds(4, np.array([1, 2, 1, 0, 0]))
    assert d.expected_points == pytest.approx(1.0)
    assert d.expected_points_se == pytest.approx(np.sqrt(0.5 / 4))


@pytest.fixture(scope="module")
def hearts():
    return bid_odds("AH KH 2H 9C 7D 3S", players=5, samples=3000, seed=42, rules="low=dealt")


def test_library_takes_what_the_cli_takes(hearts):
    assert hearts.rules == Rules(low="dealt")
    same = bid_odds("AH KH 2H 9C 7D 3S", players=5, samples=3000, seed=42, rules=Rules(low="dealt"))
    assert same.to_json() == hearts.to_json()
    base = bid_odds("AH KH 2H 9C 7D 3S", players=5, samples=3000, seed=42)
    # low=dealt gives the pitcher holding the 2 of trump Low every time
    assert hearts.by_trump["H"].p_at_least(2) > base.by_trump["H"].p_at_least(2)
    with pytest.raises(pitchsim.InputError):
        bid_odds("AH KH 2H 9C 7D 3S", samples=10, rules="low=nobody")
    for bad in (7, -1, 2.0, True):
        with pytest.raises(pitchsim.InputError, match="trump must be a suit"):
            bid_odds("AH KH 2H 9C 7D 3S", samples=10, trump=bad)
    assert bid_odds("AH KH 2H 9C 7D 3S", samples=10, seed=1, trump=Suit.HEARTS).trump_fixed


def test_results_speak_the_games_language(hearts):
    h = hearts.by_trump["H"]
    assert hearts.by_trump[2] is h and hearts.by_trump["hearts"] is h and hearts.by_trump["♥"] is h
    assert "S" in hearts.by_trump and "X" not in hearts.by_trump
    rec = hearts.recommendation
    assert rec.trump is Suit.HEARTS and rec.trump.letter == "H" and str(rec.trump) == "hearts"
    bid, trump, e = rec  # still unpacks
    assert repr(rec).startswith(f"Recommendation(bid={bid}, trump=Suit.HEARTS, expected_score=")
    assert "hand='AH KH 2H 9C 7D 3S'" in repr(hearts)
    assert "trump=Suit.HEARTS" in repr(h) and "p_at_least={1: 1.000" in repr(h)


def test_to_frame_is_tidy_and_equals_the_result(hearts):
    df = hearts.to_frame()
    assert list(df.columns[:3]) == ["trump", "bid", "p_make"]
    assert len(df) == 4 * len(hearts.by_trump)
    for row in df.itertuples():
        o = hearts.by_trump[row.trump]
        assert row.p_make == o.p_at_least(row.bid)
        assert (row.p_make_lo, row.p_make_hi) == o.ci95(row.bid)
        assert row.expected_score == o.expected_score(row.bid)
        assert row.expected_margin == o.expected_margin(row.bid)
    t = pitchsim.tournament("heuristic,random", boards=30, seed=1, rules="target=5")
    assert t.rules.target == 5
    by_bid = t.to_frame(by="bid")
    assert len(by_bid) == 8 and set(by_bid.strategy) == {r.name for r in t.results}
    per = t.to_frame()
    assert per.wins.sum() == sum(r.wins for r in t.results)
    assert per.set_index("strategy").loc[t.results[1].name, "pitched_2"] == t.results[1].pitched[2]


def test_public_api_is_listed():
    for name in ("bid_odds", "tournament", "simulate", "make_table", "chart", "Rules", "Suit"):
        assert name in pitchsim.__all__ and name in dir(pitchsim)
        assert getattr(pitchsim, name) is not None


def test_passing_is_what_a_defender_wins():
    """A hand of four low cards in a suit and nothing high: as a defender it wins
    little; the lone trumps never capture High.  Deterministic check of the plumbing:
    the defence distribution counts every deal and matches its kernel."""
    r = bid_odds("2C 3C 4C 5C 6D 7D", players=4, samples=2000, seed=3)
    p = r.passing
    assert p.samples == 2000 and p.points.sum() == 2000
    policies = seat_policies("heuristic", 4)
    hand = mask_of(parse_hand("2C 3C 4C 5C 6D 7D"))
    ours, _, _ = _fixed(3, 2000, 4, AS_DEFENDER, hand, Rules(), policies)
    counts = np.bincount(ours, minlength=5)
    assert np.array_equal(p.points, counts)
    assert r.deals_played == 2000 * 2 + 2000 + 2000


def test_table_says_what_it_is(hearts):
    text = render(hearts)
    words = " ".join(text.split())
    assert "-0.00" not in text
    assert f"({hearts.deals_played:,} in all)" in text
    assert "Passing instead: as a defender this hand wins" in words
    assert "Expected margin" in text
    bid, _, _ = hearts.recommendation
    assert f"worth bidding up to {bid}" in words and "never scores more" in words
    fixed = bid_odds("AH KH 2H 9C 7D 3S", players=5, samples=500, seed=42, trump="H")
    assert "Left to choose" not in render(fixed)
    assert fixed.deals_played == 500 + 500  # no trump-choice deals under --trump
    assert signed(-0.001) == "0.00" and signed(0.004) == "0.00" and signed(-0.3) == "-0.30"


def test_progress_total_is_the_deals_played():
    seen = []
    r = bid_odds(
        "AH KH 2H 9C 7D 3S", samples=1000, seed=1, progress=lambda k, t: seen.append((k, t))
    )
    assert sum(k for k, _ in seen) == r.deals_played == seen[-1][1]


def test_bid_odds_result_type():
    assert isinstance(bid_odds("AS JS 4S KD 9C 3H", samples=500, seed=1, partnership=True), BidOdds)


def test_simulate_takes_a_rules_string(tmp_path):
    r = pitchsim.simulate(tmp_path / "r", 500, players=4, seed=1, rules="low=dealt")
    assert r.manifest.params.rules["low"] == "dealt"


def test_min_bid_2_never_offers_a_bid_of_1():
    """RULES.md 1.2 (docs/rules.md): under min-bid=2 a bid of 1 is no choice.  A hand
    whose only positive bid is 1 (at min-bid=1) is a pass at min-bid=2, and neither
    the recommendation nor the table's words name bid 1."""
    hand = "KS 9C 7D 3H 5H 4D"
    one = bid_odds(hand, samples=2000, seed=1)
    two = bid_odds(hand, samples=2000, seed=1, rules=Rules.parse("min-bid=2"))
    spades = one.by_trump[Suit.SPADES]
    assert one.recommendation.bid == 1  # bid 1 the only positive one, worked out here:
    assert spades.expected_score(1) > 0 >= max(spades.expected_score(k) for k in (2, 3, 4))
    assert two.recommendation.bid == 0
    text = render(two)
    assert "bid 1" not in text and "bid 2" in text
    for suit, odds in two.by_trump.items():  # the same deals: the same make odds
        assert odds.p_at_least(2) == one.by_trump[suit].p_at_least(2)
