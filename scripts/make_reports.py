#!/usr/bin/env python3
"""Regenerate everything under reports/ from scratch: the run, the tables, the charts and
reports/report.md.

    python3 scripts/make_reports.py                         # the committed reports
    python3 scripts/make_reports.py --deals 200000 --run /tmp/try-run --out /tmp/try

``--deals`` counts deals per player count: the default, 20,000,000 for each of 3-7
players, is 100 million deals, about 1.5 GB in runs/reports (ignored by git; about 15
bytes a deal) and a few minutes on two cores.  The run is played again from scratch
unless ``--reuse-run`` is given and runs/reports already holds a complete run with the
same parameters (handy while working on the charts).  Run from any Python: without
pitchsim importable, it runs itself again with the project's .venv.

The rule families (setback, smear, ten-point) get their own page, reports/families.md,
with P(make k) by key holding, a bidding chart per family and their exact checks
(appended to exact_checks.csv after the base game's rows), from ``--family-deals``
hands per table played by the family kernels.  ``--families`` makes only that part and
leaves the base game's files as they are (report.md gains its link to families.md):

    python3 scripts/make_reports.py --families
"""

from __future__ import annotations

import argparse
import os
import platform
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
import project_python  # noqa: E402  (scripts/ is first on sys.path)

project_python.require(__file__)

import pandas as pd  # noqa: E402

from pitchsim.cli.progress import Progress  # noqa: E402
from pitchsim.study import charts  # noqa: E402
from pitchsim.study.analysis import Run, holding_rows, make_table  # noqa: E402
from pitchsim.study.batch import resume, simulate  # noqa: E402
from pitchsim.study.charts import DEFAULT_MIN_COUNT  # noqa: E402
from pitchsim.study.exact import exact_checks  # noqa: E402
from pitchsim.study.manifest import RunError, parse_players, read_manifest  # noqa: E402
from pitchsim.util.atomic import write_file  # noqa: E402

GENERATED = ("report.md", "*.png", "*.csv")
FAMILY_LINK = "## Rule families"
OTHERS = ("search-play.csv",)  # scripts/make_search_report.py writes it (and search-play.md)
REPORT_HOLDINGS = (
    "A-K-Q",
    "A-K-x",
    "A-J-2",
    "A-J-x",
    "A-x-2",
    "A-x-x",
    "A-x",
    "A",
    "K-Q-J",
    "K-J-x",
    "K-x-x",
    "K-x",
    "Q-J-x",
    "Q-x-x",
    "J-x-x",
    "J-x",
    "10-x-x",
    "x-x-x",
)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--deals",
        type=int,
        default=20_000_000,
        help="deals per player count (default 20,000,000: 100M deals, ~1.5 GB)",
    )
    ap.add_argument("--players", default="3-7")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--run", default=str(ROOT / "runs" / "reports"), help="run directory")
    ap.add_argument("--out", default=str(ROOT / "reports"))
    ap.add_argument("--reuse-run", action="store_true", help="keep a complete matching run")
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument(
        "--families", action="store_true", help="only the rule families' page and checks"
    )
    ap.add_argument(
        "--family-deals",
        type=int,
        default=FAMILY_DEALS,
        help=f"hands per family table (default {FAMILY_DEALS:,})",
    )
    args = ap.parse_args()
    # The command that makes this content: options that change nothing in it are left out.
    shown = [a for a in sys.argv[1:] if a != "--reuse-run"]
    if "--threads" in shown:
        i = shown.index("--threads")
        del shown[i : i + 2]
    command = " ".join(["scripts/make_reports.py", *map(shlex.quote, shown)])
    players = parse_players(args.players)
    run_dir, out = Path(args.run), Path(args.out)
    if args.families:
        out.mkdir(parents=True, exist_ok=True)
        make_families(out, args.family_deals, args.seed, args.threads, command)
        return

    total = args.deals * len(players)
    print(
        f"{total:,} deals ({args.deals:,} for each of {len(players)} player counts): "
        f"about {15 * total / 1e9:.2g} GB in {run_dir}; tables and charts follow",
        file=sys.stderr,
        flush=True,
    )
    started = time.monotonic()
    seconds = _make_run(run_dir, args, players)
    run = Run(run_dir)
    out.mkdir(parents=True, exist_ok=True)
    for pattern in GENERATED:
        for f in out.glob(pattern):
            if f.name not in OTHERS:
                f.unlink()

    print("tables ...", file=sys.stderr, flush=True)
    by_length = make_table(run, ["length", "high"])
    write_file(out / "make_by_length_high.csv", by_length.to_csv(index=False, float_format="%.5g"))
    by_holding = make_table(run, ["ranks"], min_count=DEFAULT_MIN_COUNT)
    write_file(out / "bids_by_holding.csv", by_holding.to_csv(index=False, float_format="%.5g"))
    by_pattern = make_table(run, ["pattern"], min_count=100)
    write_file(out / "make_by_pattern.csv", by_pattern.to_csv(index=False, float_format="%.5g"))
    checks = exact_checks(run)
    write_file(out / "exact_checks.csv", checks.to_csv(index=False, float_format="%.5g"))

    print("charts ...", file=sys.stderr, flush=True)
    pictures = {}
    for n in players:
        pictures[f"heatmap-{n}p.png"] = charts.heatmap(run, n)
    pictures["players.png"] = charts.by_players(run)
    pictures["points.png"] = charts.points(run)
    pictures["bids.png"] = charts.bids(run)
    for name, fig in pictures.items():
        charts.save(fig, out / name)

    typical = holding_rows(pd.concat([by_holding, by_pattern]), REPORT_HOLDINGS)
    text = render(run, command, seconds, by_length, typical, checks, players)
    write_file(out / "report.md", text)
    make_families(out, args.family_deals, args.seed, args.threads, command)
    took = time.monotonic() - started
    print(
        f"wrote {out}/report.md, {len(pictures)} charts and 4 tables in {took:.0f} s",
        file=sys.stderr,
    )


def _make_run(run_dir: Path, args, players) -> float | None:
    """Play the run (seconds taken), or reuse a complete one with the same parameters."""
    if args.reuse_run and run_dir.exists():
        try:
            m = read_manifest(run_dir)
        except RunError:
            m = None
        if m and (m.deals, m.players, m.seed) == (args.deals, players, args.seed):
            if len(m.done()) < len(m.parts):
                todo = sum(r.part.count for r in m.parts if r.status != "done")
                with Progress("deals", todo) as bar:
                    resume(run_dir, threads=args.threads, progress=bar.update)
            print(f"reusing the run in {run_dir}", file=sys.stderr)
            return None
    if run_dir.exists():
        shutil.rmtree(run_dir)
    start = time.monotonic()
    with Progress("deals", args.deals * len(players)) as bar:
        simulate(
            run_dir, args.deals, players, seed=args.seed, threads=args.threads, progress=bar.update
        )
    return time.monotonic() - start


def _git_commit() -> str:
    try:
        rev = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            cwd=ROOT,
            check=True,
            capture_output=True,
            text=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return rev


def _pct(p: float, lo: float, hi: float) -> str:
    """``59.6% ±0.5``; a half-width below 0.05 points is ``±<0.1``, never dropped."""
    half = 100 * max(hi - p, p - lo)
    return f"{100 * p:.1f}% ±{half:.1f}" if half >= 0.05 else f"{100 * p:.1f}% ±<0.1"


def render(run: Run, command, seconds, by_length, typical, checks, players) -> str:
    m = run.manifest
    total = sum(r.rows for r in m.done())
    n_cells = by_length[by_length.deals >= DEFAULT_MIN_COUNT]
    worst = (
        n_cells[["p2_hi", "p3_hi"]].to_numpy() - n_cells[["p2_lo", "p3_lo"]].to_numpy()
    ).max() / 2
    speed = f" in {seconds / 60:.1f} minutes ({total / seconds:,.0f} deals/s)" if seconds else ""
    lines = [
        "# Pitch strategy report",
        "",
        "How often does the pitcher make his bid, with what trumps, at how many players? "
        "Every number here comes from simulated deals: a random six-card hand for the "
        "pitcher, trump chosen by his play policy (its opening lead), the other hands dealt "
        "at random, and all six tricks played out by pitchsim's `heuristic` policy (a "
        "club player's play, for the pitcher and the defenders alike).",
        "",
        "## The run behind it",
        "",
        f"- {m.deals:,} deals for each of {', '.join(map(str, m.players))} players: "
        f"**{total:,} deals** in {len(m.parts)} Parquet parts (seed {m.seed}, "
        f"`{m.policy}` play, base rules: capture-based High/Low/Jack/Game, follow suit or "
        f"trump){speed}.",
        f"- Regenerate everything in this folder with `.venv/bin/python {command.strip()}` "
        f"(pitchsim {m.version}, commit {_git_commit()}, Python {platform.python_version()}).",
        f"- Charts leave out cells with fewer than {DEFAULT_MIN_COUNT:,} deals; in the "
        f"heatmaps the widest 95% interval shown is ±{100 * worst:.1f} points of percentage.",
        "- Tables: `make_by_length_high.csv` (every trump length x highest trump), "
        f"`bids_by_holding.csv` (every exact trump holding with at least {DEFAULT_MIN_COUNT:,} "
        "deals), `make_by_pattern.csv` (holdings with 3s-9s as x, at least 100 deals), `exact_checks.csv`. "
        "Columns: `p1`..`p4` = P(points >= k) with Wilson 95% bounds `pK_lo`, `pK_hi`; "
        "`scoreK` = expected score of bidding k with standard error `scoreK_se`; `bid` = "
        "the highest bid with a positive expected score (0 = pass).",
        "",
        "Everything is a probability for the **pitcher's side** to win at least k of the "
        "four points (High, Low, Jack, Game). A bid of k is *made* when that happens; "
        "the pitcher then scores every point won, otherwise he loses k.",
        "",
        "## How to use the charts",
        "",
        "1. Count your trumps in the suit you would lead and note the highest one.",
        "2. Read P(make 2) and P(make 3) in the heatmap for your table size.",
        "3. Check the bidding chart: it shows how high you can bid and still expect to "
        "gain, for your highest trump, whether you hold the jack and the deuce, and your "
        "length.",
        "",
    ]
    for n in players:
        lines += [
            f"### {n} players: making 2 and 3",
            "",
            f"![P(make 2) and P(make 3) by trump length and highest trump, {n} players]"
            f"(heatmap-{n}p.png)",
            "",
        ]
    lines += [
        "Rows are the highest trump held, columns the number of trumps. Each cell shows the "
        "chance, its 95% half-width and the number of deals behind it. Grey cells had too "
        "few deals: rare holdings such as six trumps, and holdings the policy seldom "
        "leads, such as a lone 2-10: it prefers a longer suit, and under capture-based "
        "scoring a deuce led alone is simply captured (with `--rules low=dealt` it is a "
        "sure point, and the policy does lead it).",
        "",
        "Trump is the suit the pitcher's policy chose to lead, so every cell counts only the "
        "hands from which that suit was led. A short suit is led mostly from hands that are "
        'strong elsewhere: that is why a lone jack "makes 3" more often than J-x at some '
        "tables, not because the lone jack is the better holding. The charts carry this "
        "note too.",
        "",
        "## The bidding chart",
        "",
        "![Bidding chart](bids.png)",
        "",
        "A made bid scores the points won, whatever the bid; a failed one loses the bid. So "
        "the expected score always falls as the bid rises, and *the bid with the best "
        "expected score* would never be more than 1. The useful question in the auction is how far "
        "to go, so each cell shows **the highest bid whose expected score is still "
        "positive** (P = pass: even 1 loses on average) -- the same rule as `pitchsim "
        "bid-odds`. A `?` marks cells where an expected score that decides the answer is "
        "within 1.96 standard errors of zero: the neighbouring bid is about as good.",
        "",
        "Rows group holdings by their key trumps: the highest trump, then J and 2 when "
        "held. Other trumps count only in the length, so `A J` at length 3 covers A-K-J, "
        "A-J-10, A-J-5 and so on; exact holdings are in `bids_by_holding.csv`. The chart "
        "ignores the auction: outbidding others, the score, and the value of the points "
        "a non-pitcher wins.",
        "",
        "## Typical holdings against player count",
        "",
        "![P(make k) against player count](players.png)",
        "",
        "More players means more of the deck in play: more trumps out against you, the "
        "jack and low trumps dealt more often. Bare high trumps lose value fast; holdings "
        "with the top trumps (A-K-Q) gain, because with more cards out there is more to "
        "capture (the jack, Game).",
        "",
        "P(make 2) / P(make 3) with 95% half-widths (x = any card 3-9):",
        "",
    ]
    lines += _holding_table(typical, players)
    lines += [
        "",
        "## Points won by the pitcher",
        "",
        "![Distribution of the pitcher's points](points.png)",
        "",
        "A random hand with the trump its policy picks: this is what an average deal is "
        "worth to the player who leads, before anybody bids.",
        "",
        "## Checks: exact values the run reproduces",
        "",
        "A given card is in the pitcher's six with probability 6/52; the jack of trump he "
        "does not hold is dealt to someone with probability 6(n-1)/46; the ace of trump always "
        "wins High, and a king of trump without the ace wins it exactly when the ace was "
        "not dealt, 1 - 6(n-1)/46 of the time (the highest trump in play always wins its "
        "trick). `z` is (estimate - exact) / standard error; about 1 correct check in 20 "
        "lands outside its 95% interval by chance.",
        "",
        "| players | check | deals | estimate | 95% interval | exact | z |",
        "| ---: | --- | ---: | ---: | --- | ---: | ---: |",
    ]
    for r in checks.itertuples():
        lines.append(
            f"| {r.players} | {r.check} | {r.deals:,} | {r.estimate:.5f} | "
            f"{r.lo:.5f} - {r.hi:.5f} | {r.exact:.5f} | {r.z:+.2f} |"
        )
    lines += [
        "",
        "## Caveats",
        "",
        "- The numbers are for the `heuristic` play policy on every seat. Better (or worse) "
        "defenders change them; rerun with `--policy` to compare. How far P(make 2) and "
        "P(make 3) move under search play and with every hand open, on the same deals: "
        "[search-play.md](search-play.md).",
        "- Trump is what the pitcher's policy leads. Statistics by trump holding therefore "
        "describe the hands in which that suit was chosen, and the policy's choice is not "
        "always the best one.",
        "- The pitcher is seat 0 and leads; who dealt and the state of the game are not modelled.",
        "",
        *_family_link(),
    ]
    return "\n".join(lines)


def _holding_table(rows: pd.DataFrame, players) -> list[str]:
    head = "| holding | " + " | ".join(f"{n} players" for n in players) + " |"
    out = [head, "| --- |" + " ---: |" * len(players)]
    for label in dict.fromkeys(rows.label):
        cells = []
        for n in players:
            r = rows[(rows.label == label) & (rows.players == n)]
            if r.empty or r.deals.iloc[0] < DEFAULT_MIN_COUNT:
                cells.append("-")
                continue
            r = r.iloc[0]
            cells.append(f"{_pct(r.p2, r.p2_lo, r.p2_hi)} / {_pct(r.p3, r.p3_lo, r.p3_hi)}")
        out.append(f"| {label} | " + " | ".join(cells) + " |")
    return out


# ---- the rule families ------------------------------------------------------------------------

FAMILY_DEALS = 500_000
FAMILY_LEVELS = {"setback": [2, 3, 4], "smear": [2, 3, 4, 5], "ten-point": [5, 6, 7, 8, 9, 10]}


def _family_link() -> list[str]:
    return [
        FAMILY_LINK,
        "",
        "Setback, Smear, ten-point, five-, six- and seven-point Pitch and Cinch "
        "(VARIANTS.md): P(make k) by key holding, a bidding chart per preset and their "
        "exact checks are in [families.md](families.md).",
        "",
    ]


# the presets reported, each at its usual table (VARIANTS.md 2-4 and 8-11)
REPORT_TABLES = (
    ("setback", 4),
    ("smear", 4),
    ("ten-point", 4),
    ("five-point", 4),
    ("six-point", 4),
    ("seven-point", 4),
    ("cinch", 4),
)


def make_families(out: Path, deals: int, seed: int, threads, command: str) -> None:
    """reports/families.md, one bidding chart and a holdings table per family, and the
    families' rows of exact_checks.csv (the base game's rows kept as they are)."""
    from pitchsim.game.rules import label
    from pitchsim.study.analysis import make_by_holding
    from pitchsim.study.exact import exact_check_table, sample_hands, sample_run

    print(f"families: {deals:,} hands per table ...", file=sys.stderr, flush=True)
    started = time.monotonic()
    checks, runs = exact_check_table(deals, seed=seed, threads=threads)
    _append_checks(out / "exact_checks.csv", checks)
    sections, tables = [], []
    for spec, n in REPORT_TABLES:
        s = sample_hands(spec, n, deals, seed=seed, threads=threads)
        name = label(s["rules"])
        by = make_by_holding(s, min_count=2000)
        by.insert(0, "players", n)
        by.insert(0, "rules", name)
        tables.append(by)
        chart = f"family-{name}-bids.png"
        charts.save(charts.sample_bids(s), out / chart)
        sections.append((s, name, by, chart))
        runs.append(sample_run(spec, s))
    all_tables = pd.concat(tables, ignore_index=True)
    write_file(
        out / "family_make_by_holding.csv", all_tables.to_csv(index=False, float_format="%.5g")
    )
    took = time.monotonic() - started
    write_file(out / "families.md", _render_families(sections, checks, runs, took, command))
    report = out / "report.md"
    if report.exists() and FAMILY_LINK not in report.read_text():
        write_file(report, report.read_text().rstrip("\n") + "\n\n" + "\n".join(_family_link()))
    print(f"wrote {out}/families.md in {took:.0f} s", file=sys.stderr)


def _load() -> str:
    try:
        return f"{os.getloadavg()[0]:.1f}"
    except OSError:
        return "unknown"


def _append_checks(path: Path, checks: pd.DataFrame) -> None:
    from pitchsim.study.exact import merge_checks

    write_file(path, merge_checks(path.read_text() if path.exists() else "", checks))


def holding_table_markdown(t: pd.DataFrame, r, levels: list[int], top: int = 14) -> list[str]:
    """The most frequent holdings as a markdown table: P(make k) at ``levels``."""
    head = (
        "| key trumps dealt | deals | "
        + " | ".join(f"P(make {k})" for k in levels)
        + " | bid up to |"
    )
    out = [head, "| --- | ---: |" + " ---: |" * len(levels) + " ---: |"]
    for row in t.head(top).itertuples():
        cells = []
        for k in levels:
            p, lo, hi = getattr(row, f"p{k}"), getattr(row, f"p{k}_lo"), getattr(row, f"p{k}_hi")
            half = 100 * max(hi - p, p - lo)
            cells.append(f"{100 * p:.1f}% ±{half:.1f}" if half >= 0.05 else f"{100 * p:.1f}% ±<0.1")
        bid = "pass" if row.bid == 0 else str(row.bid)
        out.append(f"| {row.holding} | {row.deals:,} | " + " | ".join(cells) + f" | {bid} |")
    return out


def _render_families(sections, checks, runs, took, command) -> str:
    deals = sum(r["deals"] for r in runs)
    cpu = sum(r["cpu_s"] for r in runs)
    wall = sum(r["wall_s"] for r in runs)
    lines = [
        "# The presets: Setback, Smear, ten-point, five-, six-, seven-point and Cinch",
        "",
        "The presets of VARIANTS.md played hand by hand by the family kernels "
        "(`pitchsim/kernels/`): seat 0 pitches, names trump (or leads it, in "
        "setback) by the `heuristic` policy, every seat plays `heuristic`; under "
        "ten-point and seven-point every player then discards non-trumps and draws, the "
        "pitcher robs the stock (in Cinch the dealer robs the pack, 11.8); under a called "
        "partner the pitcher calls the highest trump he lacks (12.1.2). A single hand, "
        "with no auction: who would have bid is not modelled.",
        "",
        "## The run behind it",
        "",
        f"- {deals:,} hands in all: {runs[0]['deals']:,} per table, "
        + ", ".join(f"{r['rules']} at {r['players']}" for r in runs)
        + f" (the first {len(runs) - len(sections)} for the exact checks, the last "
        f"{len(sections)} for the tables and charts).",
        f"- Kernel time {wall:.1f} s wall, {cpu:.1f} s CPU ({deals / max(cpu, 1e-9):,.0f} "
        f"hands per CPU-s, recording every hand's cards); the whole page took {took:.0f} s "
        f"on 2 shared cores (load average {_load()}).",
        f"- Regenerate with `.venv/bin/python {command.strip()}` (commit {_git_commit()}; "
        "`--families` leaves the base game's files alone).",
        "- `family_make_by_holding.csv`: every key holding with at least 2,000 hands, per "
        "family: `p1`..`pK` = P(points >= k) with Wilson 95% bounds, `scoreK` the expected "
        "score of bidding k (legal bids only) with its standard error, `bid` the highest "
        "bid with a positive expected score (0 = pass).",
        "",
        "A holding is named by the pitcher's key trumps **as dealt** (what he knows when he "
        "bids): A, K, J, `Jk` the jick, `HJ`/`LJ` the jokers, 10 (game=ten), 3, 2, in "
        "trump order (in Cinch `5` is the five of trump; the left pedro counts in the "
        "length); the other trumps count only in the length. Under ten-point, "
        "seven-point and Cinch the hand is the 9 cards dealt and the odds include the "
        "discard, the draw and the rob.",
        "",
        "For one hand of your own, every level 1 to the family's point total with its "
        'interval: `pitchsim bid-odds "AH KH 3H 9C 7D 3S HJ JD 2H" --rules ten-point` '
        "(README, bid-odds under a rule family).",
        "",
    ]
    for s, name, by, chart in sections:
        r = s["rules"]
        fam_name = r.family
        levels = FAMILY_LEVELS.get(fam_name, list(range(r.min_bid, r.max_bid + 1)))
        table = "partnership" if r.partnership else "solo"
        lines += [
            f"## {name}: {s['players']} players, {table}",
            "",
            f"Points: {r.max_bid} in all, bids {r.min_bid}-{r.max_bid}. "
            f"{s['deals']:,} hands, {s['cpu_s']:.1f} s CPU.",
            "",
            f"![Bidding chart, {name}]({chart})",
            "",
            "Each cell: the highest bid whose expected score is still positive (P = pass), "
            "by key trumps dealt (rows, the most frequent first) and trump length dealt; "
            "grey: fewer than 500 hands; `?`: that bid's (or the next one's) expected score "
            "is within 1.96 standard errors of zero.",
            "",
            "P(make k) by key holding (the most frequent), with 95% half-widths:",
            "",
        ]
        lines += holding_table_markdown(by, r, levels)
        lines.append("")
    lines += [
        "## Exact checks",
        "",
        "Values counted in plain Python (`pitchsim/study/exact.py`: fractions and "
        "binomial coefficients), estimated from the hands the family kernels dealt and "
        "played. The 95% interval is the estimate ± 1.96 of its own standard error; a "
        "check with no chance in it (every card dealt, a rule) has a standard error of 0 "
        "and must match exactly. About 1 correct check in 20 lands outside by chance. "
        "The rows are also in `exact_checks.csv`, after the base game's.",
        "",
        "| players | check | deals | estimate | 95% interval | exact | z |",
        "| ---: | --- | ---: | ---: | --- | ---: | ---: |",
    ]
    for r in checks.itertuples():
        lines.append(
            f"| {r.players} | {r.check} | {r.deals:,} | {r.estimate:.5f} | "
            f"{r.lo:.5f} - {r.hi:.5f} | {r.exact:.5f} | {r.z:+.2f} |"
        )
    outside = int((~checks.inside).sum())
    lines += [
        "",
        f"{len(checks)} checks, {outside} outside their 95% interval.",
        "",
        "## Caveats",
        "",
        "- The family heuristic plays every seat; stronger play moves these numbers.",
        "- Trump is the suit the pitcher's policy names (leads, in setback): a holding's "
        "row counts only the hands in which that suit was chosen.",
        "- No auction: a pitcher who had to outbid others holds a stronger hand than these "
        "random ones.",
        "",
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    main()
