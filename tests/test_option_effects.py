"""Every option shows its effect: a run, an estimate or a tournament with an option set
differs from the default where the option matters, and equals a direct call of the
engine with that option (so an option that is read but not passed on cannot pass)."""

from __future__ import annotations

import json

import numpy as np
import pyarrow.parquet as pq
import pytest
from clirun import cli

from pitchsim.cli import main
from pitchsim.game.cards import mask_of, parse_hand, parse_suit
from pitchsim.game.rules import Rules
from pitchsim.kernels.presets import rules_array, rules_table
from pitchsim.kernels.score import AWARD_NAMES
from pitchsim.kernels.simulate import policy_row, simulate_fixed
from pitchsim.table.bidding import parse_strategies
from pitchsim.table.boards import board_game
from pitchsim.table.tournament import tournament


def run(capsys, *argv):
    code, out, err = cli(*argv)
    assert code == 0, err
    return out


def kernel_flags(seed, count, n, policy, rules, hand=0, trump=-1):
    """The preset kernel for any rules called directly (not the base game's shape
    compiled in, which simulate and bid-odds use): per deal, the pitcher's side's
    High/Low/Jack/Game bits."""
    fr, tab = rules_array(rules), rules_table(rules)
    points, flags, trumps = (np.empty(count, np.int64) for _ in range(3))
    pols = policy_row(policy, n)
    simulate_fixed(seed, 0, count, n, hand, trump, pols, fr, tab, points, flags, trumps)
    game = AWARD_NAMES.index("game")  # bits 0-2: High, Low, Jack (score.AWARD_NAMES)
    return ((flags & 0b111) | ((flags >> game) & 1) << 3).astype(np.uint8)


# ---- simulate -----------------------------------------------------------------------

DEALS, SEED = 3000, 17


def simulated(out, *options) -> tuple[np.ndarray, dict]:
    """``pitchsim simulate`` into ``out``: per deal the High/Low/Jack/Game bits read back
    from the part, and the manifest."""
    import contextlib
    import io

    argv = [
        "simulate",
        "--deals",
        DEALS,
        "--players",
        4,
        "--seed",
        SEED,
        "--out",
        out,
        "--quiet",
        *options,
    ]
    with pytest.raises(SystemExit) as e, contextlib.redirect_stdout(io.StringIO()):
        main([str(a) for a in argv])
    assert e.value.code == 0
    df = pq.read_table(out / "part-000000.parquet").to_pandas()
    flags = (  # 0: the pitcher's side took the point
        (df.high.to_numpy() == 0).astype(np.uint8)
        | (df.low.to_numpy() == 0).astype(np.uint8) << 1
        | (df.jack.to_numpy() == 0).astype(np.uint8) << 2
        | (df.game.to_numpy() == 0).astype(np.uint8) << 3
    )
    return flags, json.loads((out / "manifest.json").read_text())


def simulated_flags(capsys, tmp_path, *options) -> tuple[np.ndarray, dict]:
    return simulated(tmp_path / f"run{len(list(tmp_path.iterdir()))}", *options)


@pytest.fixture(scope="module")
def base_flags(tmp_path_factory):
    return simulated(tmp_path_factory.mktemp("base") / "run")[0]


def test_simulate_base_run_is_the_kernel_with_base_rules(base_flags):
    stream = SEED * 8 + 4  # batch.py: deal i at n players is the kernel's deal i of seed*8+n
    np.testing.assert_array_equal(base_flags, kernel_flags(stream, DEALS, 4, "heuristic", Rules()))


@pytest.mark.parametrize(
    "spec, rules, changed_bits",
    [
        # Low to its holder is no point to capture, so the heuristic plays it otherwise
        # (it no longer shields the low trump): every point can move.
        ("low=dealt", Rules(low="dealt"), 0b1111),
        ("follow=suit", Rules(follow="suit"), 0b1111),
        ("partnership=true", Rules(partnership=True), 0b1111),
    ],
)
def test_simulate_rules_change_the_run_and_reach_the_kernel(
    capsys, tmp_path, base_flags, spec, rules, changed_bits
):
    flags, manifest = simulated_flags(capsys, tmp_path, "--rules", spec)
    assert manifest["rules"] == rules.describe_in_full()
    np.testing.assert_array_equal(flags, kernel_flags(SEED * 8 + 4, DEALS, 4, "heuristic", rules))
    differ = flags != base_flags
    assert differ.mean() > 0.02  # where the rule matters, the outcome moves
    assert ((flags ^ base_flags) & (0xF ^ changed_bits)).sum() == 0


def test_low_dealt_changes_only_who_gets_low_when_play_ignores_it():
    """Random play does not read the rules beyond the legal cards, which low=dealt leaves
    alone: the same cards are played, and only the Low point can change hands."""
    plain = kernel_flags(SEED, DEALS, 4, "random", Rules())
    dealt = kernel_flags(SEED, DEALS, 4, "random", Rules(low="dealt"))
    assert (plain != dealt).mean() > 0.02
    assert ((plain ^ dealt) & (0xF ^ 0b0010)).sum() == 0


def test_simulate_rules_from_a_toml_file_are_the_same_rules(capsys, tmp_path):
    path = tmp_path / "club.toml"
    path.write_text('[rules]\nlow = "dealt"\nfollow = "suit"\n')
    from_file, _ = simulated_flags(capsys, tmp_path, "--rules", str(path))
    inline, _ = simulated_flags(capsys, tmp_path, "--rules", "low=dealt,follow=suit")
    np.testing.assert_array_equal(from_file, inline)
    np.testing.assert_array_equal(
        inline, kernel_flags(SEED * 8 + 4, DEALS, 4, "heuristic", Rules(low="dealt", follow="suit"))
    )


def test_simulate_policy_reaches_the_kernel(capsys, tmp_path, base_flags):
    flags, manifest = simulated_flags(capsys, tmp_path, "--policy", "random")
    assert manifest["policy"] == "random"
    np.testing.assert_array_equal(flags, kernel_flags(SEED * 8 + 4, DEALS, 4, "random", Rules()))
    assert (flags != base_flags).mean() > 0.1


def test_simulate_rules_that_need_an_auction_leave_the_deals_alone(capsys, tmp_path, base_flags):
    """A run has no auction and no game: min-bid, all-pass, dealer-steal, target and
    set-pitcher-wins are recorded but cannot change a deal."""
    spec = "min-bid=2,all-pass=redeal,dealer-steal=false,target=11,set-pitcher-wins=true"
    flags, manifest = simulated_flags(capsys, tmp_path, "--rules", spec)
    assert manifest["rules"]["target"] == 11 and manifest["rules"]["min-bid"] == 2
    np.testing.assert_array_equal(flags, base_flags)


# ---- bid-odds -----------------------------------------------------------------------

HAND = "AH KH 2H 9C 7D 3S"


def points_distribution(doc, suit="H"):
    return [doc["by_trump"][suit]["points_distribution"][str(p)] for p in range(5)]


def kernel_distribution(seed, samples, n, policy, rules, suit="H"):
    """bid-odds' deals, played by the kernel directly: counts of deals by points won."""
    fixed = mask_of(parse_hand(HAND))
    flags = kernel_flags(seed, samples, n, policy, rules, hand=fixed, trump=parse_suit(suit))
    return np.bincount(np.bitwise_count(flags), minlength=5).tolist()


@pytest.mark.parametrize(
    "options, n, policy, rules",
    [
        ([], 4, "heuristic", Rules()),
        (["--rules", "low=dealt"], 4, "heuristic", Rules(low="dealt")),
        (["--rules", "follow=suit"], 4, "heuristic", Rules(follow="suit")),
        (["--partnership"], 4, "heuristic", Rules(partnership=True)),
        (["--rules", "partnership=true"], 4, "heuristic", Rules(partnership=True)),
        (["--policy", "random"], 4, "random", Rules()),
        (["--players", "6"], 6, "heuristic", Rules()),
    ],
)
def test_bid_odds_options_reach_the_kernel(capsys, options, n, policy, rules):
    samples, seed = 4000, 21
    doc = json.loads(
        run(
            capsys,
            "bid-odds",
            HAND,
            "--samples",
            samples,
            "--seed",
            seed,
            "--trump",
            "H",
            "--json",
            *options,
        )
    )
    assert doc["players"] == n and doc["policy"] == policy
    assert doc["rules_in_full"] == rules.describe() and doc["partnership"] == rules.partnership
    got = points_distribution(doc)
    assert got == kernel_distribution(seed, samples, n, policy, rules)
    if options:  # and none of these options leaves the numbers as they were
        assert got != kernel_distribution(seed, samples, 4, "heuristic", Rules())


def test_bid_odds_toml_rules_are_the_inline_rules(capsys, tmp_path):
    path = tmp_path / "rules.toml"
    path.write_text('low = "dealt"\nfollow = "suit"\n')
    args = ["bid-odds", HAND, "--samples", 3000, "--seed", 4, "--json"]
    a = json.loads(run(capsys, *args, "--rules", path))
    b = json.loads(run(capsys, *args, "--rules", "low=dealt,follow=suit"))
    assert a == b and a["rules"] == "auction-pitch,low=dealt,follow=suit"
    assert a["rules_in_full"]["low"] == "dealt" and a["rules_in_full"]["follow"] == "suit"
    assert points_distribution(a) == kernel_distribution(
        4, 3000, 4, "heuristic", Rules(low="dealt", follow="suit")
    )


def test_bid_odds_recommendation_is_the_highest_positive_expected_score(capsys):
    doc = json.loads(
        run(capsys, "bid-odds", HAND, "--players", 5, "--samples", 4000, "--seed", 8, "--json")
    )
    best = (0, None, 0.0)
    for suit, o in doc["by_trump"].items():
        dist = [o["points_distribution"][str(p)] for p in range(5)]
        for k in (1, 2, 3, 4):
            e = sum(c * (p if p >= k else -k) for p, c in enumerate(dist)) / doc["samples"]
            assert o["expected_score"][str(k)] == pytest.approx(e)
            if e > 0 and (k, e) > (best[0], best[2]):
                best = (k, suit, e)
    assert doc["recommended_bid"] == best[0] == 3  # A-K-2 of hearts at five players
    assert doc["recommended_trump"] == best[1] == "H"
    assert doc["recommended_expected_score"] == pytest.approx(best[2])


# ---- tournaments: the result equals what its seats won -------------------------------


def recount(strategies, players, games, seed, rules):
    """Per strategy: wins, hands pitched and made per bid, summed final score, seat-games;
    from every game as it was played (``families.board_game``, hand by hand), the
    seating worked out here."""
    chosen = parse_strategies(strategies)
    k = len(chosen)
    wins = np.zeros(k)
    pitched = np.zeros((k, 4), dtype=np.int64)
    made = np.zeros((k, 4), dtype=np.int64)
    score = np.zeros(k)
    seat_games = np.zeros(k)
    for r in range(k):
        owner = [(s + r) % k for s in range(players)]  # rotation r: seat s plays (s + r) % k
        seats = [chosen[i] for i in owner]
        for board in range(games):
            g = board_game(seed, board, seats, rules)
            for side in g.winners:  # a seat, or in a partnership a team named by its seat 0/1
                wins[owner[side]] += 1 / len(g.winners)
            for h in g.hands:
                if h.pitcher is not None:
                    pitched[owner[h.pitcher], h.bid - 1] += 1
                    made[owner[h.pitcher], h.bid - 1] += bool(h.made)
            for s in range(players):
                score[owner[s]] += g.hands[-1].scores_after[s]
                seat_games[owner[s]] += 1
    return wins, pitched, made, score / seat_games


@pytest.mark.parametrize(
    "strategies, players, rules",
    [
        ("heuristic,random,odds", 4, Rules()),
        ("odds,heuristic+random,random+heuristic,odds-game", 4, Rules(target=11)),
        ("random,odds-game,heuristic", 5, Rules(low="dealt", all_pass="redeal")),
        ("odds,heuristic", 4, Rules(partnership=True)),
    ],
)
def test_tournament_result_is_what_its_seats_won(strategies, players, rules):
    games, seed = 40, 6
    t = tournament(strategies, players=players, games=games, seed=seed, rules=rules)
    k = len(t.results)
    assert t.seating == [[t.strategies[(s + r) % k] for s in range(players)] for r in range(k)]
    wins, pitched, made, mean_score = recount(strategies, players, games, seed, rules)
    assert [x.wins for x in t.results] == wins.tolist()
    for i, x in enumerate(t.results):
        assert [x.pitched[b] for b in (1, 2, 3, 4)] == pitched[i].tolist()
        assert [x.made[b] for b in (1, 2, 3, 4)] == made[i].tolist()
        assert x.mean_final_score == pytest.approx(mean_score[i])
        assert x.win_rate == pytest.approx(wins[i] / (games * k))
    assert len(set(wins.tolist())) > 1  # the strategies are told apart


def test_tournament_rules_and_target_change_the_games():
    base = tournament("odds,heuristic,random", games=60, seed=2)
    for changed in (
        tournament("odds,heuristic,random", games=60, seed=2, target=11),
        tournament("odds,heuristic,random", games=60, seed=2, rules=Rules(min_bid=2)),
        tournament("odds,heuristic,random", games=60, seed=2, rules=Rules(dealer_steal=False)),
        tournament("odds,heuristic,random", games=60, seed=2, rules=Rules(set_pitcher_wins=True)),
    ):
        assert changed.to_json()["results"] != base.to_json()["results"]
    assert tournament("odds,heuristic,random", games=60, seed=2, target=11).mean_deals > (
        base.mean_deals
    )


# odds-game against odds where the score decides, under every preset (the base game as
# auction-pitch too): tests/test_presets_bidders.py
