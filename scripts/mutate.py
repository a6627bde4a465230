#!/usr/bin/env python3
"""Mutation testing: plant realistic bugs one at a time and see whether the tests fail.

    .venv/bin/python scripts/mutate.py                # every mutant (tens of minutes)
    .venv/bin/python scripts/mutate.py --list         # the mutants, without running them
    .venv/bin/python scripts/mutate.py --only wilson-z164,deal-one-hash
    .venv/bin/python scripts/mutate.py --json out.json

Each mutant is one text substitution in one file (the old text must occur exactly
once, else the mutant is reported "n/a": the code moved).  It is planted in a copy of
the working tree in a temporary folder (and taken out again before the next one); the
test files that cover that code run there with ``pytest -x``.  A mutant the subset does not kill is run again against
the whole suite before it is called a survivor.  A mutant whose tests run past
``--timeout`` counts as killed (a hang is a failure too).

The numba cache lives in a folder of its own (``--cache``): pitchsim names its cache
folder by a digest of its numba source, so a kernel mutant compiles afresh (and that
folder is deleted afterwards) while Python-level mutants reuse the base compile.

The list is curated, not generated: bugs of the kinds people write (an off-by-one, a
wrong constant, a rule read but not passed on, a swapped index), over the modules that
compute the numbers a user sees: stats, odds, the hand and its scoring, dealing, the
auction and the bidding policies, games, batch runs, analysis, tournaments, charts'
data and the CLI that passes options on.  The 13 bugs of issue 12's audit are among
them (marked "audit").
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Test files by the code they cover, the sharpest first (pytest -x stops at the first
# failure, so a mutant is usually killed in seconds).
OPT = "tests/test_option_effects.py"
T_STATS = [
    "tests/test_known_values.py",
    "pitchsim/util/stats.py",
    "tests/test_odds.py",
    "tests/test_tournament.py",
    "tests/test_analysis.py",
    "tests/test_cli.py",
]
T_ODDS = [
    "tests/test_known_values.py",
    "tests/test_odds.py",
    "pitchsim/advice/odds.py",
    "tests/test_cli.py",
    OPT,
    "tests/test_policies.py",
]
T_PLAY = [
    "tests/test_kernel_edges.py",
    "tests/test_one_deal.py",
    "tests/test_kernels.py",
    "tests/test_known_values.py",
    "tests/test_odds.py",
    "tests/test_policies.py",
    "tests/test_games.py",
]
T_AUCTION = [
    "tests/test_auction.py",
    "tests/test_presets_bidders.py",
    "tests/test_families_games.py",
    "tests/test_games.py",
    "tests/test_cli_games.py",
]
T_GAMES = ["tests/test_games.py", "tests/test_tournament.py", "tests/test_cli_games.py"]
T_BATCH = [OPT, "tests/test_batch.py", "tests/test_cli_batch.py", "tests/test_analysis.py"]
T_ANALYSIS = ["tests/test_known_values.py", "tests/test_analysis.py", "tests/test_cli_batch.py"]
T_TOURNAMENT = [
    "tests/test_known_values.py",
    f"{OPT}::test_tournament_result_is_what_its_seats_won",
    "tests/test_tournament.py",
    "tests/test_cli_games.py",
]
T_CHARTS = ["tests/test_chart_data.py", "tests/test_charts.py", "tests/test_cli_batch.py"]
T_CLI = ["tests/test_cli.py", OPT, "tests/test_cli_batch.py", "tests/test_bad_input.py"]
T_CHECKSUM = ["tests/test_checksum.py", "tests/test_run_checksums.py", "tests/test_reliability.py"]


@dataclass(frozen=True)
class Mutant:
    name: str
    path: str
    old: str
    new: str
    tests: list[str]
    what: str
    audit: bool = False


M = Mutant
MUTANTS = [
    # ---- stats: the intervals printed everywhere
    M(
        "wilson-z164",
        "pitchsim/util/stats.py",
        "Z95 = 1.959963984540054",
        "Z95 = 1.6448536269514722",
        T_STATS,
        "every '95%' interval is a 90% one",
        audit=True,
    ),
    M(
        "wilson-centre",
        "pitchsim/util/stats.py",
        "centre = (p + z * z / (2 * n)) / denom",
        "centre = p",
        T_STATS,
        "Wilson interval centred on p (no shrinkage)",
    ),
    M(
        "wilson-half",
        "pitchsim/util/stats.py",
        "z * z / (4 * n * n)",
        "z * z / (2 * n * n)",
        T_STATS,
        "Wilson half width off by a factor inside the root",
    ),
    M(
        "samples-rule",
        "pitchsim/util/stats.py",
        "(z / half_width) ** 2 / 4",
        "(z / half_width) ** 2 / 2",
        T_STATS,
        "sample-size rule doubled",
    ),
    # ---- odds.py: bid-odds' numbers
    M(
        "render-z164",
        "pitchsim/cli/bid_odds.py",
        "±{Z95 * se:.2f}, margin",
        "±{1.64 * se:.2f}, margin",
        T_CLI,
        "the recommendation's ± is a 90% one",
        audit=True,
    ),
    M(
        "odds-made-strict",
        "pitchsim/advice/odds.py",
        "return _mean_se(np.where(POINTS >= bid, POINTS, -bid), self.points)[0]",
        "return _mean_se(np.where(POINTS > bid, POINTS, -bid), self.points)[0]",
        T_ODDS,
        "a bid made with exactly its points counted as set",
    ),
    M(
        "odds-se-n-1",
        "pitchsim/advice/odds.py",
        "return float(mean), float(np.sqrt(var / n))",
        "return float(mean), float(np.sqrt(var / (n - 1)))",
        T_ODDS,
        "standard error over n - 1",
    ),
    M(
        "odds-se-no-root",
        "pitchsim/advice/odds.py",
        "return float(mean), float(np.sqrt(var / n))",
        "return float(mean), float(var / n)",
        T_ODDS,
        "standard error is the variance of the mean",
    ),
    M(
        "odds-at-least-off-by-one",
        "pitchsim/advice/odds.py",
        "return int(self.points[k:].sum())",
        "return int(self.points[k + 1 :].sum())",
        T_ODDS,
        "P(>= k) reports P(>= k+1)",
    ),
    M(
        "odds-best-bid-zero",
        "pitchsim/advice/odds.py",
        "            if e > 0:\n                return k, e",
        "            if e >= 0:\n                return k, e",
        T_ODDS,
        "a bid of expected score 0 recommended",
    ),
    M(
        "odds-best-bid-lowest",
        "pitchsim/advice/odds.py",
        "for k in reversed(BIDS):",
        "for k in BIDS:",
        T_ODDS,
        "recommends the lowest positive bid, not the highest",
    ),
    M(
        "odds-tie-break",
        "pitchsim/advice/odds.py",
        "if (bid, e) > (best.bid, best.expected_score):",
        "if bid > best.bid:",
        T_ODDS,
        "trump ties between suits go to the first suit",
    ),
    M(
        "odds-ignores-policy",
        "pitchsim/advice/odds.py",
        "policies = seat_policies(policy, players)",
        'policies = seat_policies("heuristic", players)',
        T_ODDS,
        "--policy ignored",
    ),
    M(
        "odds-ignores-partnership",
        "pitchsim/advice/odds.py",
        'rules = Rules(**{**rules.__dict__, "partnership": True})',
        "pass",
        T_ODDS,
        "partnership=True of the library call ignored",
    ),
    M(
        "odds-chosen-trump",
        "pitchsim/advice/odds.py",
        "chosen_trump=Suit(int(np.argmax(share))),",
        "chosen_trump=Suit(int(np.argmin(share))),",
        T_ODDS,
        "chosen trump the least chosen",
    ),
    # ---- the hand: legality, trick winner, scoring (the preset kernels, auction-pitch)
    M(
        "legal-no-trumping-in",
        "pitchsim/kernels/trick.py",
        "    return have | (hand & tab[trump, T_TRUMPS])",
        "    return have",
        T_PLAY,
        "trumping in forbidden",
        audit=True,
    ),
    M(
        "legal-must-follow-ignored",
        "pitchsim/kernels/trick.py",
        "    if follow == FOLLOW_SUIT:\n        return have",
        "    if False:\n        return have",
        T_PLAY,
        "follow=suit ignored",
    ),
    M(
        "winner-led-suit-first",
        "pitchsim/kernels/trick.py",
        "k = tab[trump, T_KEY + c] if (e == trump or e == led) else np.int64(-1)",
        "k = tab[trump, T_KEY + c] if e == led else np.int64(-1)",
        T_PLAY,
        "a trump never beats the led suit",
        audit=True,
    ),
    M(
        "score-high-is-lowest",
        "pitchsim/kernels/score.py",
        "award[HIGH] = _seat_of(captors, highest_card(trumps))",
        "award[HIGH] = _seat_of(captors, lowest_card(trumps))",
        T_PLAY,
        "High credited for the lowest trump",
        audit=True,
    ),
    M(
        "score-low-dealt-ignored",
        "pitchsim/kernels/score.py",
        "dealt_low = fr[F_LOW_DEALT] != 0",
        "dealt_low = False",
        T_PLAY,
        "low=dealt ignored",
        audit=True,
    ),
    M(
        "score-game-tie",
        "pitchsim/kernels/score.py",
        "return NOBODY if tied else best_side",
        "return best_side",
        T_PLAY,
        "a tie for Game gives the point",
        audit=True,
    ),
    M(
        "score-partner-game",
        "pitchsim/kernels/score.py",
        "count += game_tally(won[side + 2], half)",
        "count += 0",
        T_PLAY,
        "partners do not pool game counts",
    ),
    M(
        "points-flags-seat",
        "pitchsim/kernels/contract.py",
        "if award[i] >= 0 and side_of(award[i], rules) == side:",
        "if award[i] >= 0 and award[i] == seat:",
        T_GAMES,
        "a partner's points not counted for the side",
    ),
    M(
        "game-count-ace",
        "pitchsim/kernels/bits.py",
        "+ 4 * popcount(mask & _ACES)",
        "+ 3 * popcount(mask & _ACES)",
        T_PLAY,
        "an ace counts 3 for Game",
    ),
    # ---- dealing
    M(
        "deal-one-hash",
        "pitchsim/kernels/deal.py",
        "r = draw(key, DEAL_COUNTER + seat)",
        "r = draw(key, DEAL_COUNTER)",
        T_PLAY,
        "every seat's cards from one hash",
        audit=True,
    ),
    M(
        "deal-key-ignores-seed",
        "pitchsim/kernels/rng.py",
        "return mix64(mix64(np.uint64(seed) ^ _GOLDEN) + np.uint64(deal) * _GOLDEN)",
        "return mix64(np.uint64(deal) * _GOLDEN)",
        T_PLAY,
        "every seed deals the same",
    ),
    # ---- the auction and bidding policies
    M(
        "auction-steal-ignored",
        "pitchsim/kernels/bidding/calls.py",
        "lowest = high if fr[F_DEALER_STEAL] == STEAL_YES else high + 1",
        "lowest = high + 1",
        T_AUCTION,
        "the dealer cannot steal",
        audit=True,
    ),
    M(
        "auction-equal-bid",
        "pitchsim/kernels/bidding/calls.py",
        "return pass_bit | _span(max(high + 1, fr[F_MIN_BID]), top) | shoots",
        "return pass_bit | _span(max(high, fr[F_MIN_BID]), top) | shoots",
        T_AUCTION,
        "a non-dealer may equal the high bid",
    ),
    M(
        "auction-order",
        "pitchsim/kernels/game.py",
        "seat = (dealer + 1 + i) % n",
        "seat = (dealer + i) % n",
        T_AUCTION,
        "the dealer calls first",
    ),
    M(
        "auction-stuck-dealer-passes",
        "pitchsim/kernels/bidding/calls.py",
        "return _span(max(FORCED_DEALER_MIN, fr[F_MIN_BID]), top) | shoots",
        "return pass_bit | _span(max(FORCED_DEALER_MIN, fr[F_MIN_BID]), top) | shoots",
        T_AUCTION,
        "a stuck dealer may pass",
    ),
    M(
        "odds-game-is-odds",
        "pitchsim/kernels/bidding/calls.py",
        "policy == BID_ODDS_GAME,",
        "False,",
        T_AUCTION,
        "odds-game behaves exactly like odds",
        audit=True,
    ),
    M(
        "odds-game-no-block",
        "pitchsim/kernels/bidding/calls.py",
        "return -loss * odds[MADE_ROW, high]",
        "return 0.0 * odds[MADE_ROW, high]",
        T_AUCTION,
        "odds-game never blocks an opponent's winning bid",
    ),
    M(
        "odds-game-win-strict",
        "pitchsim/kernels/bidding/odds.py",
        "out = (won or set_wins) and mine >= target",
        "out = (won or set_wins) and mine > target",
        T_AUCTION,
        "reaching the target exactly does not count as a win",
    ),
    # ---- games and settlement
    M(
        "settle-made-strict",
        "pitchsim/kernels/contract.py",
        "made = points_won(award, pitcher, rules) >= bid",
        "made = points_won(award, pitcher, rules) > bid",
        T_GAMES,
        "exactly the bid counts as set",
    ),
    M(
        "settle-any-winner",
        "pitchsim/kernels/contract.py",
        "if scores[pitcher] >= rules[F_TARGET] and (made or rules[F_SET_PITCHER_WINS] != 0):",
        "if scores[pitcher] >= rules[F_TARGET]:",
        T_GAMES,
        "a set pitcher at the target wins",
    ),
    M(
        "game-dealer-stays",
        "pitchsim/kernels/game.py",
        "            dealer = (dealer + 1) % n\n",
        "            dealer = dealer\n",
        T_GAMES,
        "the deal does not pass",
    ),
    # ---- tournaments
    M(
        "tournament-credit-rotation",
        "pitchsim/table/tournament.py",
        "strat_of_seat = np.array([(s + r) % k for s in range(n)])",
        "strat_of_seat = np.array([(s - r) % k for s in range(n)])",
        T_TOURNAMENT,
        "wins credited to the wrong strategy with 3+ strategies",
        audit=True,
    ),
    M(
        "tournament-pitched-is-made",
        "pitchsim/table/tournament.py",
        "pitched[i] += per_seat[s, :, 0]",
        "pitched[i] += per_seat[s, :, 1]",
        T_TOURNAMENT,
        "hands pitched reported as made",
    ),
    M(
        "tournament-share",
        "pitchsim/table/tournament.py",
        "shares = wins[:, i] / k",
        "shares = wins[:, i] / 2",
        T_TOURNAMENT,
        "win share over 2 games a board, whatever K",
    ),
    M(
        "board-interval-z",
        "pitchsim/table/tournament.py",
        "half = Z95 * float(shares.std(ddof=1)) / np.sqrt(g)",
        "half = 1.64 * float(shares.std(ddof=1)) / np.sqrt(g)",
        T_TOURNAMENT,
        "the tournament's 95% interval is a 90% one",
        audit=True,
    ),
    M(
        "board-interval-ddof",
        "pitchsim/table/tournament.py",
        "float(shares.std(ddof=1))",
        "float(shares.std())",
        T_TOURNAMENT,
        "population sd for the board interval",
    ),
    M(
        "tournament-score-by-seat",
        "pitchsim/table/tournament.py",
        "score_sum[i] += float(scores[:, s].sum(dtype=np.int64))",
        "score_sum[i] += float(scores[:, i].sum(dtype=np.int64))",
        T_TOURNAMENT,
        "mean score read from the wrong seat",
    ),
    # ---- batch runs
    M(
        "simulate-ignores-rules",
        "pitchsim/study/batch.py",
        'rules = Rules(**{k.replace("-", "_"): v for k, v in params.rules.items()})\n    policies',
        "rules = Rules()\n    policies",
        T_BATCH,
        "simulate ignores the run's --rules",
        audit=True,
    ),
    M(
        "cli-simulate-ignores-rules",
        "pitchsim/cli/simulate.py",
        "rule_set = Rules.parse(rules)",
        "rule_set = Rules.parse(None)",
        T_CLI,
        "the CLI drops --rules on the way to simulate",
        audit=True,
    ),
    M(
        "batch-award-side",
        "pitchsim/study/batch.py",
        "elif hand_side(a, PITCHER, partner, fr) == mine:",
        "elif hand_side(a, PITCHER, partner, fr) != mine:",
        T_BATCH,
        "each point taken is credited to the other side",
    ),
    M(
        "batch-stream-seed",
        "pitchsim/study/manifest.py",
        "return self.seed * 8 + players",
        "return self.seed * 8",
        T_BATCH,
        "every player count shares one stream",
    ),
    M(
        "batch-keys-held",
        "pitchsim/study/batch.py",
        "kh |= ((hh >> c) & 1) << i",
        "kh |= ((h >> c) & 1) << i",
        T_BATCH,
        "keys_held reads the hand as dealt",
    ),
    M(
        "batch-policy",
        "pitchsim/study/batch.py",
        "policies = policy_row(params.policy, n)",
        'policies = policy_row("heuristic", n)',
        T_BATCH,
        "simulate ignores --policy",
    ),
    # ---- checking a run's parts
    M(
        "checksum-no-rotation",
        "pitchsim/study/checksum.py",
        "raw[j] = ((a << _ROT) | (a >> _ROT_BACK)) + w",
        "raw[j] = a + w",
        T_CHECKSUM,
        "the checksum kernel's raw lanes do not rotate (its reference does)",
    ),
    M(
        "checksum-drops-the-tail",
        "pitchsim/study/checksum.py",
        "    if whole < n:\n        tail",
        "    if False:\n        tail",
        T_CHECKSUM,
        "the bytes after the last whole stripe are not hashed",
    ),
    M(
        "first-read-trusts-the-columns",
        "pitchsim/study/parts.py",
        "if checksum(view[a:b], key) != rec.fast_checksums[name]:",
        "if checksum(view[a:b], key) == '':",
        T_CHECKSUM,
        "a first read hashes the column chunks it reads but does not compare them",
    ),
    M(
        "first-read-trusts-the-footer",
        "pitchsim/study/parts.py",
        "if checksum(_frame_bytes(view, frame[0]), key) != rec.fast_checksums[FRAME]:",
        "if checksum(_frame_bytes(view, frame[0]), key) == '':",
        T_CHECKSUM,
        "a first read does not compare the frame's (footer's) fast checksum",
    ),
    M(
        "fast-checksums-not-keyed",
        "pitchsim/study/parts.py",
        "[part.players, part.start, part.count], dtype",
        "[0, 0, 0], dtype",
        T_CHECKSUM,
        "every part's fast checksums have one key: a part's file passes in another's place",
    ),
    M(
        "old-manifests-refused",
        "pitchsim/study/manifest.py",
        'keys = _PART_KEYS[doc["format"]]',
        "keys = _PART_KEYS[FORMAT]",
        T_CHECKSUM,
        "a run written before fast checksums no longer reads",
    ),
    M(
        "resume-keeps-old-manifests",
        "pitchsim/study/batch.py",
        "        if sha256_only:\n",
        "        if False:\n",
        T_CHECKSUM,
        "resume does not record the fast checksums of an intact old run",
    ),
    # ---- analysis
    M(
        "summary-k-off-by-one",
        "pitchsim/study/analysis.py",
        'df[f"p{k}"] = at_least[:, k] / n',
        'df[f"p{k}"] = at_least[:, k - 1] / n',
        T_ANALYSIS,
        "table's p_k is P(>= k-1)",
    ),
    M(
        "summary-best-bid-zero",
        "pitchsim/study/analysis.py",
        "best = np.where(mean > 0, k, best)",
        "best = np.where(mean >= 0, k, best)",
        T_ANALYSIS,
        "bid of expected score 0 chosen",
    ),
    M(
        "summary-se-variance",
        "pitchsim/study/analysis.py",
        "var = pts @ (score**2) / n - mean**2",
        "var = pts @ (score**2) / n",
        T_ANALYSIS,
        "score variance without the mean",
    ),
    M(
        "summary-sure",
        "pitchsim/study/analysis.py",
        "sure &= np.abs(mean) > Z95 * se",
        "sure &= np.abs(mean) > se",
        T_ANALYSIS,
        "'sure' at one standard error",
    ),
    M(
        "counts-feature-order",
        "pitchsim/study/analysis.py",
        "            code *= f.size\n            code += f.code(cols)",
        "            code += f.code(cols)\n            code *= f.size",
        T_ANALYSIS,
        "group codes mixed between features",
    ),
    M(
        "exact-check-p-unseen",
        "pitchsim/study/analysis.py",
        "p_unseen = 6 * (n - 1) / 46",
        "p_unseen = 6 * n / 46",
        T_ANALYSIS,
        "exact check compares against the wrong value",
    ),
    # ---- charts' data
    M(
        "heatmap-k-off-by-one",
        "pitchsim/study/charts.py",
        'p, lo, hi = getattr(r, f"p{k}"), getattr(r, f"p{k}_lo")',
        'p, lo, hi = getattr(r, f"p{k - 1}"), getattr(r, f"p{k}_lo")',
        T_CHARTS,
        "heatmap colours P(make k-1) under a P(make k) title",
        audit=True,
    ),
    M(
        "heatmap-length-column",
        "pitchsim/study/charts.py",
        "grid[RANK_ROWS.index(c.high), c.length - 1] = c.value",
        "grid[RANK_ROWS.index(c.high), c.length % 6] = c.value",
        T_CHARTS,
        "heatmap cells one column right",
    ),
    M(
        "bids-chart-bid",
        "pitchsim/study/charts.py",
        '"value": int(r.bid), "sure"',
        '"value": min(int(r.bid) + 1, 4), "sure"',
        T_CHARTS,
        "bidding chart one bid high",
    ),
    # ---- options passed on by the CLI
    M(
        "cli-bid-odds-trump",
        "pitchsim/cli/bid_odds.py",
        "trump=trump, threads=threads",
        "trump=None, threads=threads",
        T_CLI,
        "bid-odds --trump ignored",
    ),
]


def copy_tree(dest: Path) -> None:
    """The working tree as it is (tracked and untracked, not ignored files)."""
    files = subprocess.run(
        ["git", "ls-files", "-co", "--exclude-standard", "-z"],
        cwd=ROOT,
        check=True,
        capture_output=True,
    ).stdout.split(b"\0")
    for name in files:
        if not name:
            continue
        src = ROOT / name.decode()
        if src.is_file():
            target = dest / name.decode()
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, target)


def pytest(tree: Path, tests: list[str], env: dict, timeout: float) -> tuple[str, str, float]:
    """('pass' | 'fail' | 'timeout', first failing test, seconds)."""
    start = time.monotonic()
    cmd = [
        sys.executable,
        "-m",
        "pytest",
        "-x",
        "-q",
        "-p",
        "no:cacheprovider",
        "-o",
        "addopts=--doctest-modules",
        *tests,
    ]
    try:
        p = subprocess.run(cmd, cwd=tree, env=env, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return "timeout", "", time.monotonic() - start
    seconds = time.monotonic() - start
    if p.returncode == 0:
        return "pass", "", seconds
    failed = [
        line.split()[1] for line in p.stdout.splitlines() if line.startswith(("FAILED", "ERROR"))
    ]
    return "fail", failed[0] if failed else p.stdout.strip().splitlines()[-1], seconds


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--only", help="comma-separated mutant names")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--timeout", type=float, default=900, help="seconds per test run")
    ap.add_argument("--cache", default=str(Path(tempfile.gettempdir()) / "pitchsim-mutate-cache"))
    ap.add_argument(
        "--no-full", action="store_true", help="do not rerun survivors on the whole suite"
    )
    ap.add_argument("--json", help="write the results here")
    a = ap.parse_args()
    chosen = MUTANTS
    if a.only:
        names = a.only.split(",")
        chosen = [m for m in MUTANTS if m.name in names]
        missing = set(names) - {m.name for m in chosen}
        if missing:
            sys.exit(f"unknown mutants: {', '.join(sorted(missing))}")
    if a.list:
        for m in chosen:
            print(f"{m.name:<28} {m.path:<36} {'audit ' if m.audit else ''}{m.what}")
        return

    env = dict(os.environ, XDG_CACHE_HOME=a.cache, PYTHONDONTWRITEBYTECODE="1")
    env.pop("NUMBA_CACHE_DIR", None)
    numba_cache = Path(a.cache) / "pitchsim" / "numba"
    results = []
    print(f"{len(chosen)} mutants; load average {os.getloadavg()[0]:.2f}", flush=True)
    with tempfile.TemporaryDirectory(prefix="pitchsim-mutant-") as tmp:
        base = Path(tmp) / "tree"
        copy_tree(base)
        # The unmutated tree must pass every subset used, or a "kill" means nothing.
        subsets = sorted({t for m in chosen for t in m.tests})
        status, failed, seconds = pytest(base, subsets, env, a.timeout * 3)
        print(
            f"baseline ({len(subsets)} test files): {status} in {seconds:.0f} s {failed}",
            flush=True,
        )
        if status != "pass":
            sys.exit("the unmutated tree fails its tests: fix that first")
        keep = set(numba_cache.iterdir()) if numba_cache.exists() else set()
        # Every mutant is planted in the same tree and the file put back afterwards with
        # its timestamp: numba's cache entries name the source file's path and check its
        # time, so the unmutated kernels stay cached from mutant to mutant.
        pristine = Path(tmp) / "pristine"
        shutil.copytree(base, pristine)
        for m in chosen:
            f = base / m.path
            text = f.read_text() if f.exists() else ""
            if text.count(m.old) != 1:
                row = {"name": m.name, "result": "n/a", "detail": "text not found once"}
            else:
                f.write_text(text.replace(m.old, m.new))
                try:
                    status, failed, seconds = pytest(base, m.tests, env, a.timeout)
                    scope = "subset"
                    if status == "pass" and not a.no_full:
                        status, failed, more = pytest(
                            base, ["tests", "pitchsim"], env, a.timeout * 3
                        )
                        seconds += more
                        scope = "full suite"
                finally:
                    shutil.copy2(pristine / m.path, f)
                result = {"pass": "SURVIVED", "fail": "killed", "timeout": "killed (timeout)"}
                row = {
                    "name": m.name,
                    "result": result[status],
                    "by": failed,
                    "scope": scope,
                    "seconds": round(seconds, 1),
                }
            row |= {"path": m.path, "what": m.what, "audit": m.audit}
            results.append(row)
            print(
                f"{m.name:<28} {row['result']:<16} {row.get('seconds', 0):>6.0f} s  "
                f"{row.get('by', '') or row.get('detail', '')}",
                flush=True,
            )
            if numba_cache.exists():  # a kernel mutant's own compile: not needed again
                for d in set(numba_cache.iterdir()) - keep:
                    shutil.rmtree(d, ignore_errors=True)
    tried = [r for r in results if r["result"] != "n/a"]
    killed = [r for r in tried if r["result"].startswith("killed")]
    survived = [r for r in tried if r["result"] == "SURVIVED"]
    audit = [r for r in tried if r["audit"]]
    print(
        f"\nmutants tried {len(tried)}, killed {len(killed)}, survived {len(survived)}, "
        f"not applicable {len(results) - len(tried)}; audit bugs killed "
        f"{sum(r['result'].startswith('killed') for r in audit)} of {len(audit)}; "
        f"load average {os.getloadavg()[0]:.2f}"
    )
    for r in survived:
        print(f"  survived: {r['name']} ({r['path']}): {r['what']}")
    if a.json:
        Path(a.json).write_text(json.dumps(results, indent=1) + "\n")


if __name__ == "__main__":
    main()
