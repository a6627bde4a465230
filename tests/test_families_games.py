"""Whole family games in the kernels (pitchsim/kernels/game.py) equal the
reference engine's ``play_game`` (pitchsim/game/reference/), game by game
and deal by deal.

The kernel plays a game with its log on: every deal and stock, every call with the
calls that were legal, trump, the discard and draw, every card with its legal set,
the awards, the change of score and the winners.  The reference engine then plays
the same game: its deal is the kernel's (``deal`` replaced by the logged cards, the
dealer checked), its calls, named trump and cards are the kernel's (the bidder checks
the reference's legal calls equal the kernel's, the chooser the legal cards), its draw
from the discards takes the kernel's cards.  What the reference then decides by itself
must agree: who pitches at what bid (0.2, 1.4, 2.4-2.6, 3.3, 4.4, 6.1 shoot), the
all-pass rule (2.6 next-dealer, 3.4 dealer-set, 4.5 redeal, 6.1 forced), who deals
next (0.1), the tricks and points (0.5-0.8, 4.8-4.10), made or set (0.9), the scores
and the end of the game with its winners (2.11 highest, 3.11 pitcher-first, 6.1
pitcher and shoot, set-pitcher-wins).

``PITCHSIM_FAMILY_GAMES`` sets the games per rules, player count and policy mix
(default 3).  Planted bugs (the kernel told another all-pass rule or win rule than the
reference) must be caught.
"""

from __future__ import annotations

import os
import re

import numpy as np
import pytest

from pitchsim.game import reference as F
from pitchsim.game.cards import mask_of
from pitchsim.game.rules import Rules
from pitchsim.kernels.bidding.calls import (
    BID_HEURISTIC,
    BID_ODDS,
    BID_ODDS_GAME,
    BID_RANDOM,
    N_ROWS,
)
from pitchsim.kernels.contract import MAX_DEALS
from pitchsim.kernels.game import (
    G_BID,
    G_DEALER,
    G_JUNK,
    G_MADE,
    G_PITCHER,
    G_SHOOT,
    G_SIZE,
    G_TRICKS,
    G_TRUMP,
    G_WINNERS,
    MAX_CALL,
    games_kernel,
    log_layout,
    play_base_games,
    whole_game,
    whole_games,
)
from pitchsim.kernels.play import MAX_TRICKS
from pitchsim.kernels.policies.cards import HEURISTIC, RANDOM, any_rules
from pitchsim.kernels.presets import (
    ALL_PASS_NEXT_DEALER,
    F_ALL_PASS,
    F_DEALER_STEAL,
    F_WIN,
    STEAL_NO,
    WIN_HIGHEST,
    rules_array,
    rules_table,
)
from pitchsim.kernels.score import AWARD_NAMES, NOT_PLAYED
from pitchsim.table.boards import odds_bidder_table
from pitchsim.util.errors import InputError

GAMES = int(os.environ.get("PITCHSIM_FAMILY_GAMES", "3"))

# The presets and the choices of VARIANTS.md 2-4 and 6.1 that change the auction or the
# end of the game (the hand-level variants are crossed in test_families_kernels.py).
GAME_CONFIGS = [
    "auction-pitch",
    "auction-pitch,shoot=true",
    "auction-pitch,all-pass=redeal,dealer-steal=false,set-pitcher-wins=true",
    "setback",
    "setback,dealer-steal=true,all-pass=forced",
    "smear",
    "smear,partnership=true",
    "smear,all-pass=forced,dealer-steal=true",
    "smear,win=pitcher,set-pitcher-wins=true",
    "smear,win=highest,all-pass=next-dealer",
    "smear,shoot=true,target=15",
    "ten-point",
    "ten-point,partnership=false",
    "ten-point,all-pass=forced,dealer-steal=true,min-bid=4",
    "ten-point,follow=trump,shoot=true,target=21",
    "jick=true,jokers=2,min-bid=2,dealer-steal=max,win=highest",
    # docs/rules.md 11 (cinch), 12.12 dealer-free and 12.11 set=to-others in whole games
    "cinch,discards=hidden",
    "cinch,discards=hidden,set=to-others,target=21",
    "setback,all-pass=dealer-free",
    # docs/rules.md 12.1: a called partner a hand, two sides for the points and the
    # settling, the pitcher and his partner winning together (12.1.6-12.1.8)
    "auction-pitch,trump=named,partner=called",
    "ten-point,partnership=false,partner=called",
    "smear,partner=announced",
    "smear,partner=called,win=pitcher,target=7",
]
MIXES = {
    "random": (BID_RANDOM, RANDOM, BID_RANDOM, RANDOM),
    "heuristic": (BID_HEURISTIC, HEURISTIC, BID_HEURISTIC, HEURISTIC),
    "mixed": (BID_HEURISTIC, HEURISTIC, BID_RANDOM, RANDOM),
    "odds": (BID_ODDS, HEURISTIC, BID_HEURISTIC, RANDOM),
}
# odds-game (it weighs the scores, which whole games take near the target) against odds:
# only in AUCTION_CASES below
ODDS_GAME = {"odds-game": (BID_ODDS_GAME, HEURISTIC, BID_ODDS, RANDOM)}


def has_odds_table(rules, n) -> bool:
    try:
        odds_bidder_table(rules, n)
    except InputError:
        return False
    return True


class CrossCheckError(AssertionError):
    pass


def _fail(what, got, want):
    raise CrossCheckError(f"{what}: kernel {got!r}, reference {want!r}")


def player_counts(rules) -> list[int]:
    out = []
    for n in range(2, 8):
        try:
            rules.check_players(n)
        except Exception:
            continue
        out.append(n)
    return out


def seat_ids(mix: str, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Per seat (bidding, play) ids: a mix alternates its two strategies by seat."""
    b1, p1, b2, p2 = (MIXES | ODDS_GAME)[mix]
    bidders = np.array([b1 if s % 2 == 0 else b2 for s in range(n)], np.int64)
    players = np.array([p1 if s % 2 == 0 else p2 for s in range(n)], np.int64)
    return bidders, players


def kernel_game(rules, n, seed, game, mix, fr=None):
    """One game logged by the kernel ``play --game`` and a tournament's records run
    (``whole_game``, the general kernel under every rules)."""
    fr = rules_array(rules) if fr is None else fr
    tab = rules_table(rules)
    at = log_layout(n)
    log = np.zeros(MAX_DEALS * at["width"], np.int64)
    scores = np.zeros(n, np.int64)
    stats = np.zeros((n, MAX_CALL, 2), np.int64)
    bidders, players = seat_ids(mix, n)
    tabled = mix in ("odds", "odds-game")
    odds, defender = (
        odds_bidder_table(rules, n) if tabled else (np.zeros((N_ROWS + 1, MAX_CALL)), 0.0)
    )
    won_by, deals = any_rules(whole_game)(
        seed, game, n, bidders, players, fr, tab, odds, defender, scores, stats, log
    )
    rows = log.reshape(MAX_DEALS, at["width"])[: int(deals)]
    return int(won_by), int(deals), rows, at, scores, stats


class _Replay:
    """The kernel's deals and decisions, handed to the reference's ``play_game``."""

    def __init__(self, rules, n, rows, at, counts):
        self.r, self.n, self.rows, self.at, self.counts = rules, n, rows, at, counts
        self.d = -1

    def field(self, name, i=0):
        return int(self.rows[self.d][self.at[name] + i])

    # the deal (play_game's ``deals``) and the rng of the discard draw
    def deal(self, deal_no, dealer):
        self.d += 1
        if self.d >= len(self.rows):
            _fail("deals", len(self.rows), f"more than {len(self.rows)}")
        row = self.rows[self.d]
        if int(row[G_DEALER]) != dealer:
            _fail(f"deal {self.d}: dealer", int(row[G_DEALER]), dealer)
        n = self.n
        each = self.r.cards_each(n)
        deck = [self.field("deck", i) for i in range(int(row[G_SIZE]))]
        pack = F.pack(self.r, n)
        # Without a draw step the kernel draws only the dealt cards (kernels/deal.py):
        # the stock is never looked at, so only the dealt run is checked then.
        shown = deck if self.r.discard != "none" else deck[: n * each]
        if len(set(shown)) != len(shown) or not set(shown) <= set(pack):
            _fail(f"deal {self.d}: pack", sorted(shown), pack)
        if self.r.discard != "none" and sorted(deck) != sorted(pack):
            _fail(f"deal {self.d}: pack", sorted(deck), pack)
        deck = shown
        dealt = [self.field("dealt", s) for s in range(n)]
        for i in range(n):
            seat = (dealer + 1 + i) % n
            if dealt[seat] != mask_of(deck[i * each : (i + 1) * each]):
                _fail(f"deal {self.d}: seat {seat}'s cards", dealt[seat], "its run of the pack")
        self.counts["deals"] += 1
        return dealt, deck[n * each :]

    def shuffle(self, cards):
        drawn = [self.field("junk", i) for i in range(int(self.rows[self.d][G_JUNK]))]
        rank = {c: i for i, c in enumerate(drawn)}
        cards.sort(key=lambda c: rank.get(c, 99))

    def bidder(self, seat, hand, calls, legal, scores):
        i = len(calls)
        dealer = int(self.rows[self.d][G_DEALER])
        if seat != (dealer + 1 + i) % self.n:
            _fail(f"deal {self.d}: caller {i}", (dealer + 1 + i) % self.n, seat)
        got = self.field("call_legal", i)
        want = sum(1 << c for c in legal)
        if got != want:
            _fail(f"deal {self.d}: legal calls of seat {seat}", got, want)
        self.counts["calls"] += 1
        call = self.field("calls", i)
        self.counts["steals"] += seat == dealer and call != 0 and call == max(calls, default=0)
        return call

    def namer(self, seat, hand):
        if seat != int(self.rows[self.d][G_PITCHER]):
            _fail(f"deal {self.d}: pitcher naming trump", int(self.rows[self.d][G_PITCHER]), seat)
        return int(self.rows[self.d][G_TRUMP])

    def chooser(self, view):
        n = self.n
        t, i = view.trick_no, (view.seat - view.leader) % n
        legal = self.field("legal", t * n + i)
        if legal != view.legal:
            _fail(f"deal {self.d}: legal cards, trick {t} seat {view.seat}", legal, view.legal)
        self.counts["cards"] += 1
        return self.field("tricks", t * (n + 2) + 1 + i)


def crosscheck_game(rules, n, seed, game, mix, fr=None, counts=None) -> dict:
    """One game in the kernel and in the reference; raise :class:`CrossCheckError` at
    the first difference.  Returns counts of what was compared."""
    counts = counts if counts is not None else {}
    for k in ("games", "deals", "calls", "cards", "all_pass", "made", "set", "shared", "free",
              "steals"):  # fmt: skip
        counts.setdefault(k, 0)
    won_by, deals, rows, at, scores, stats = kernel_game(rules, n, seed, game, mix, fr)
    rep = _Replay(rules, n, rows, at, counts)
    ref = F.play_game(
        n,
        rules,
        rep,
        rep.bidder,
        rep.namer,
        rep.chooser,
        first_dealer=game % n,
        max_hands=MAX_DEALS,
        deals=rep.deal,
    )
    if len(ref.hands) != deals:
        _fail("deals in the game", deals, len(ref.hands))
    for d, (h, row) in enumerate(zip(ref.hands, rows, strict=True)):
        rep.d = d
        pitcher = -1 if h.auction.pitcher is None else h.auction.pitcher
        if int(row[G_PITCHER]) != pitcher:
            _fail(f"deal {d}: pitcher", int(row[G_PITCHER]), pitcher)
        change = [rep.field("change", s) for s in range(n)]
        if change != h.change:
            _fail(f"deal {d}: change of score", change, h.change)
        after = [rep.field("scores", s) for s in range(n)]
        if after != h.scores:
            _fail(f"deal {d}: scores", after, h.scores)
        if pitcher < 0:
            counts["all_pass"] += 1
            continue
        if (int(row[G_BID]), bool(row[G_SHOOT])) != (h.auction.bid, h.auction.shoot):
            _fail(f"deal {d}: bid", (int(row[G_BID]), bool(row[G_SHOOT])), h.auction.bid)
        if int(row[G_TRUMP]) != h.trump:
            _fail(f"deal {d}: trump", int(row[G_TRUMP]), h.trump)
        held = [rep.field("held", s) for s in range(n)]
        if held != [int(m) for m in h.play.held]:
            _fail(f"deal {d}: hands in play (4.8)", held, h.play.held)
        if int(row[G_TRICKS]) != len(h.play.tricks):
            _fail(f"deal {d}: tricks", int(row[G_TRICKS]), len(h.play.tricks))
        for t, (leader, _, _, winner) in enumerate(h.play.tricks):
            base = t * (n + 2)
            got = (rep.field("tricks", base), rep.field("tricks", base + n + 1))
            if got != (leader, winner):
                _fail(f"deal {d}: trick {t} leader and winner", got, (leader, winner))
        for i, name in enumerate(AWARD_NAMES):
            got = rep.field("award", i)
            want = h.play.score.awards.get(name, "absent")
            want = NOT_PLAYED if want == "absent" else (-1 if want is None else want)
            if got != want:
                _fail(f"deal {d}: {name}", got, want)
        if bool(row[G_MADE]) != h.made:
            _fail(f"deal {d}: made", bool(row[G_MADE]), h.made)
        counts["made" if h.made else "set"] += 1
        counts["free"] += h.auction.bid == 0  # 12.12: the dealer pitched at 0
    if list(scores) != ref.scores:
        _fail("final scores", list(scores), ref.scores)
    want = sum(1 << side for side in ref.winners)
    if won_by != want:
        _fail("winners", won_by, ref.winners)
    if int(rows[-1][G_WINNERS]) != want:
        _fail("winners in the log", int(rows[-1][G_WINNERS]), want)
    counts["shared"] += len(ref.winners) > 1
    counts["games"] += 1
    return counts


def crosscheck(spec, n, games, mix, seed=11, fr=None) -> dict:
    counts: dict = {}
    rules = Rules.parse(spec)
    for g in range(games):
        crosscheck_game(rules, n, seed, g, mix, fr, counts)
    return counts


CASES = [
    (spec, n, mix)
    for spec in GAME_CONFIGS
    for n in player_counts(Rules.parse(spec))
    for mix in MIXES
    if mix != "odds" or has_odds_table(Rules.parse(spec), n)
]


@pytest.mark.parametrize("spec, n, mix", CASES, ids=[f"{s}-{n}p-{m}" for s, n, m in CASES])
def test_kernel_games_equal_the_reference_game_by_game(spec, n, mix):
    counts = crosscheck(spec, n, GAMES, mix, seed=len(spec) * 7 + n)
    assert counts["games"] == GAMES
    assert counts["deals"] >= GAMES and counts["cards"] > 0


# The base game's auction options (docs/rules.md "Variants": min-bid=2, all-pass=redeal
# with the dealer's steal on, 6.1) under every bidder, and odds-game, whose calls weigh the
# scores against the preset's target and win rule (Winning, 3.11 pitcher-first).
AUCTION_CASES = [
    ("auction-pitch,min-bid=2", 3, "odds-game"),
    ("auction-pitch,min-bid=2", 5, "heuristic"),
    ("auction-pitch,all-pass=redeal", 5, "heuristic"),
    ("auction-pitch,all-pass=redeal,min-bid=2", 6, "odds"),
    ("auction-pitch", 4, "odds-game"),
    ("auction-pitch,partnership=true", 4, "odds-game"),
    ("smear", 4, "odds-game"),
    ("ten-point,partnership=false", 5, "odds-game"),
]


@pytest.mark.parametrize(
    "spec, n, mix", AUCTION_CASES, ids=[f"{s}-{n}p-{m}" for s, n, m in AUCTION_CASES]
)
def test_the_auction_options_and_odds_game_equal_the_reference(spec, n, mix):
    counts = crosscheck(spec, n, GAMES, mix, seed=len(spec) * 7 + n)
    assert counts["games"] == GAMES and counts["calls"] > 0


def test_redeal_with_the_steal_on_is_reached_and_a_planted_no_steal_is_caught():
    """all-pass=redeal (4.5) keeps the base game's dealer steal: the cross-check reaches
    hands all passed and steals, and a kernel told dealer-steal=false is caught."""
    spec = "auction-pitch,all-pass=redeal"
    counts = crosscheck(spec, 3, 2, "random", seed=3)
    assert counts["all_pass"] > 0 and counts["steals"] > 0
    fr = rules_array(Rules.parse(spec))
    fr[F_DEALER_STEAL] = STEAL_NO
    with pytest.raises(CrossCheckError, match="legal calls"):
        crosscheck(spec, 3, 2, "random", seed=3, fr=fr)


# The base game's shape (auction-pitch and its own options): the kernel the tournaments
# run there (``games_kernel``: ``play_base_games``, the shape compiled in) plays the very
# games the general kernel plays (the one the log cross-check above holds to the
# reference engine): game for game the same winners, deals, final scores and bids
# pitched and made per seat.  One slip in a deal's play or score changes a game's
# scores from that deal on.
BASE_SHAPES = [
    ("auction-pitch", 4),
    ("auction-pitch", 2),
    ("auction-pitch,low=dealt,min-bid=2", 3),
    ("auction-pitch,partnership=true", 4),
    ("auction-pitch,all-pass=redeal,dealer-steal=false,set-pitcher-wins=true", 5),
    ("auction-pitch,shoot=true,all-pass=dealer-set,target=11", 6),
    ("auction-pitch,follow=suit,win=highest", 7),
    ("setback,hands=3,set=to-others", 4),  # 12.4, 12.11
    ("auction-pitch,all-pass=dealer-free", 3),  # 12.12
]


def tournament_games(rules, n, seed, games, mix, kernel):
    """Games 0 .. games-1 of ``seed`` by a tournaments' kernel: winners, final scores,
    deals dealt and bids pitched and made per seat."""
    fr, tab = rules_array(rules), rules_table(rules)
    bidders, players = seat_ids(mix, n)
    tabled = mix in ("odds", "odds-game")
    odds, defender = (
        odds_bidder_table(rules, n) if tabled else (np.zeros((N_ROWS + 1, MAX_CALL)), 0.0)
    )
    out = (
        np.empty(games, np.int64),
        np.empty((games, n), np.int64),
        np.empty(games, np.int64),
        np.empty((games, n, MAX_CALL, 2), np.int64),
    )
    kernel(seed, 0, games, n, bidders, players, fr, tab, odds, defender, *out)
    return out


@pytest.mark.parametrize("mix", list(MIXES))
@pytest.mark.parametrize("spec, n", BASE_SHAPES, ids=[f"{s}-{n}p" for s, n in BASE_SHAPES])
def test_the_base_shape_kernel_plays_the_general_kernels_games(spec, n, mix):
    rules = Rules.parse(spec)
    if mix == "odds" and not has_odds_table(rules, n):
        pytest.skip(f"no odds table for {spec} at {n} players")
    assert games_kernel(rules_array(rules), *seat_ids(mix, n)) is play_base_games
    base = tournament_games(rules, n, 3, 24, mix, play_base_games)
    general = tournament_games(rules, n, 3, 24, mix, any_rules(whole_games))
    for what, a, b in zip(("winners", "scores", "deals", "stats"), base, general, strict=True):
        np.testing.assert_array_equal(a, b, err_msg=what)
    assert base[2].sum() > 24  # games of several deals each


def test_seats_that_search_or_bid_by_the_advisor_get_the_general_kernel():
    """The base shape is compiled in for plain seats only (``games_kernel``): an int32
    bidding array (the advisor) or a play array of searches plays by ``whole_games``."""
    fr = rules_array(Rules())
    plain = np.zeros(4, np.int64)
    assert games_kernel(fr, plain, plain) is play_base_games
    assert games_kernel(rules_array(Rules.parse("smear")), plain, plain) is not play_base_games
    for bidders, players in (
        (plain.astype(np.int32), plain),  # the advisor (bidding.ADVISOR_DTYPE)
        (plain, plain.astype(np.uint32)),  # rollout (policies.ROLLOUT_DTYPE)
        (plain, plain.astype(np.int32)),  # pimc
    ):
        assert games_kernel(fr, bidders, players) is not play_base_games


def test_the_all_pass_rules_and_both_verdicts_are_reached():
    """The cross-check reaches the clauses it is about: hands everybody passed under
    each all-pass rule (2.6, 3.4, 4.5), bids made and bids set (0.9).  (Shared wins,
    3.11, are rare in play; settle.winners is compared with the reference's on random
    scores in test_families_kernels.py.)"""
    for spec, n in (("setback", 4), ("smear", 3), ("ten-point", 4)):
        counts = crosscheck(spec, n, 4, "random", seed=5)
        assert counts["all_pass"] > 0, spec
        assert counts["made"] > 0 and counts["set"] > 0, spec


def test_12_12_dealer_free_the_dealer_pitches_at_0_and_always_makes_it():
    """docs/rules.md 12.12 (and 11.6, 11.15.3): all pass, the dealer is the pitcher at 0,
    names trump, and the hand is never set; the cross-check reaches such hands."""
    counts = crosscheck("setback,all-pass=dealer-free", 4, 6, "random", seed=5)
    assert counts["free"] > 0 and counts["all_pass"] == 0
    rules = Rules.parse("setback,all-pass=dealer-free")
    for game in range(6):
        _, _, rows, at, _, _ = kernel_game(rules, 4, 5, game, "random")
        for row in rows:
            if row[G_BID] == 0:
                assert row[G_PITCHER] == row[G_DEALER] and row[G_MADE] == 1
                assert min(row[at["change"] : at["change"] + 4]) >= 0


def test_a_planted_bug_dealer_free_read_as_next_dealer_is_caught():
    """The kernel told next-dealer where the rules say dealer-free (12.12)."""
    spec = "setback,all-pass=dealer-free"
    fr = rules_array(Rules.parse(spec))
    fr[F_ALL_PASS] = ALL_PASS_NEXT_DEALER
    with pytest.raises(CrossCheckError):
        crosscheck(spec, 4, 6, "random", seed=5, fr=fr)


def test_smear_dealer_set_scores_minus_two_when_all_pass():
    """3.4, worked by hand: a smear hand all pass leaves the dealer's side at -2 and
    nobody else changed, and the next hand is dealt by the next seat (0.1)."""
    rules = Rules.parse("smear")
    for game in range(20):
        won_by, deals, rows, at, _, _ = kernel_game(rules, 3, 9, game, "random")
        for d, row in enumerate(rows):
            if row[G_PITCHER] >= 0:
                continue
            dealer = int(row[G_DEALER])
            change = [int(x) for x in row[at["change"] : at["change"] + 3]]
            assert change == [-2 if s == dealer else 0 for s in range(3)]
            if d + 1 < len(rows):
                assert rows[d + 1][G_DEALER] == (dealer + 1) % 3
            return
    raise AssertionError("no all-pass hand in 20 random smear games")


def test_ten_point_redeal_keeps_the_dealer():
    """4.5: all pass under redeal: no score changes and the same dealer deals again."""
    rules = Rules.parse("ten-point")
    for game in range(20):
        _, _, rows, at, _, _ = kernel_game(rules, 4, 3, game, "random")
        for d, row in enumerate(rows[:-1]):
            if row[G_PITCHER] < 0:
                assert list(row[at["change"] : at["change"] + 4]) == [0] * 4
                assert rows[d + 1][G_DEALER] == row[G_DEALER]
                return
    raise AssertionError("no all-pass hand in 20 random ten-point games")


def test_a_planted_bug_another_all_pass_rule_is_caught():
    """The kernel told next-dealer where smear says dealer-set (3.4)."""
    rules = Rules.parse("smear")
    fr = rules_array(rules)
    fr[F_ALL_PASS] = ALL_PASS_NEXT_DEALER
    with pytest.raises(CrossCheckError):
        crosscheck("smear", 3, 10, "random", seed=5, fr=fr)


def test_a_planted_bug_another_win_rule_is_caught():
    """The kernel told win=highest where smear says pitcher-first (3.11)."""
    rules = Rules.parse("smear")
    fr = rules_array(rules)
    fr[F_WIN] = WIN_HIGHEST
    # The two rules differ only when a side other than the pitcher's reaches the target
    # first, or several do: rare enough that a fixed 30 games may hold none (a change of
    # the deal's stream once made it so).  Within 300 games it shows.
    for seed in range(5, 15):
        try:
            crosscheck("smear", 3, 30, "mixed", seed=seed, fr=fr)
        except CrossCheckError as e:
            assert re.search("deals in the game|winners", str(e)), e
            return
    pytest.fail("a kernel playing win=highest was not caught in 300 games of smear")


def test_the_log_is_wide_enough():
    at = log_layout(6)
    assert at["width"] == at["legal"] + MAX_TRICKS * 6
