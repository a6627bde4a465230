"""``pitchsim cache``: where the compiled kernels are kept, how big they are; clear them;
``pitchsim cache warm`` compiles them all at once."""

from __future__ import annotations

import contextlib
import datetime as dt
import io
import os
import sys
import tempfile
import time
from pathlib import Path

import typer

from ..util.jsonio import dumps_json
from .app import app

# What ``cache warm`` runs: the commands a player meets, each on a tiny input, under
# every preset, so that each compiles the kernels it runs and the cache keeps them.  A
# command run later on a real input loads them instead of compiling (15-60 s each).
WARM_PRESETS = {  # a hand of the preset's size for the commands that take one
    "auction-pitch": "AH KH 2H 9C 7D 3S",
    "setback": "AH KH 2H 9C 7D 3S",
    "smear": "AH 2H JD 9C 7D 3S",
    "ten-point": "AH KH 3H 9C 7D 3S HJ JD 2H",
}


# A player's view mid-hand under a preset (docs/view.md): the search a practice game's
# coach runs at a card (``hint``), and pimc's, compile once for every preset.
WARM_VIEW = {
    "rules": "smear", "players": 4, "seat": 3, "dealer": 3,
    "hand": ["5C", "TC", "KC", "QD", "JS", "KS"], "scores": [4, -5, -5, 2], "calls": ["5"],
    "trump": "S",
    "tricks": [{"leader": 0, "cards": ["AH", "JC", "2S", "TC"]}, {"leader": 1, "cards": ["KD", "5S"]}],
}  # fmt: skip


VIEW_FILE = "view.json"
WARM_SHORT_PACK = "smear,deck=9-A"  # (4 players: the tournament's default)
WARM_MADE_ROWS = ["tournament", "--rules", WARM_SHORT_PACK, "--seed", "1"]
WARM_MADE_ROWS += ["-s", "odds+heuristic,heuristic", "--boards", "2"]

# A base-game position a few cards from the end (``pitchsim solve``'s input, as ``play
# --json`` writes a round): ``solve``'s own path to the solver (``search.double_dummy``),
# which no play policy takes (search play solves through ``solver.preset_world_values``);
# this run keeps ``solve`` warm.  The search under it is the presets' (the same types),
# which the view's runs compile before it, in the same lane (``_lanes``).
WARM_POSITION = {
    "players": 4, "pitcher": 1, "bid": 2, "rules": {},
    "hands": [
        ["TC", "AC", "4D", "5H", "5S", "KS"], ["2D", "6D", "JD", "4S", "7S", "AS"],
        ["2C", "3C", "JH", "QH", "2S", "JS"], ["4C", "5C", "7C", "9D", "QD", "9H"],
    ],
    "tricks": [
        {"leader": 1, "cards": ["6D", "2C", "9D", "4D"]},
        {"leader": 3, "cards": ["4C", "AC", "4S", "3C"]},
        {"leader": 0, "cards": ["5H", "7S", "JH", "9H"]},
        {"leader": 2, "cards": ["2S"]},
    ],
}  # fmt: skip

POSITION_FILE = "position.json"


def warm_runs(out: Path) -> list[list[str]]:
    """The command lines ``cache warm`` runs (``out``: a folder for their files)."""
    runs = []
    for preset, hand in WARM_PRESETS.items():
        r = ["--rules", preset, "--seed", "1"]
        runs += [
            ["tournament", *r, "-s", "odds+heuristic,heuristic+rollout:8", "--boards", "2"],
            ["play", *r, "--game"],
            ["bid-odds", hand, *r, "--samples", "200"],
            ["advise", hand, *r, "--seat", "1", "--dealer", "0", "--samples", "200"],
            ["simulate", *r, "--deals", "300", "--out", str(out / preset), "--quiet"],
        ]
    # The base game (no --rules) where its path is not the presets': one hand of ``play``
    # (11 CPU-s of compiles of its own after the rest, session 65), and bid-odds'
    # ``--compare-policy`` (24 CPU-s), both README examples a new player runs
    hand = WARM_PRESETS["auction-pitch"]
    runs += [
        ["play", "--seed", "1"],
        ["bid-odds", hand, "--trump", "H", "--samples", "200", "--seed", "1"]
        + ["--compare-policy", "rollout:8", "--compare-samples", "20"],
    ]
    view = str(out / VIEW_FILE)  # (``warm`` writes it: WARM_VIEW, a view carries its rules)
    runs += [
        ["hint", view, "--seed", "1", "--worlds", "4"],
        ["hint", view, "--seed", "1", "--worlds", "4", "--policy", "pimc"],
        # (not epimc: opt-in, measured no stronger than pimc, docs/search.md; compiled
        # when first asked for)
        # worlds fitted to the calls heard (auction-pitch's default: ``worlds_fit_calls``)
        ["hint", view, "--seed", "1", "--worlds", "4", "--model", "odds"],
        # the coach's net P(game) (``rollout_game``), when more than the pitcher can go out
        ["hint", view, "--seed", "1", "--worlds", "4", "--game"],
        ["tournament", "--rules", "smear", "--seed", "1", "-s", "odds+pimc:2,heuristic"]
        + ["--boards", "1"],
        # plain seats under the base game's shape: the one tournament kernel with that
        # shape compiled in (``kernels.game.games_kernel``); the others share the presets'
        ["tournament", "--rules", "auction-pitch", "--seed", "1", "-s", "odds+heuristic,heuristic"]
        + ["--boards", "2"],
        # the advisor bidding in whole games (its own compile: ``bidding.ADVISOR_DTYPE``)
        ["tournament", "--rules", "smear", "--seed", "1", "-s", "advisor+heuristic,heuristic"]
        + ["--boards", "1"],
        ["solve", str(out / POSITION_FILE)],  # (``warm`` writes it: WARM_POSITION)
        # rules with no odds rows shipped (a short pack, 12.3): the count that makes them
        # (``table.odds_rows``: 77 CPU-s to compile, 0.5 to make, session 66), and the row
        WARM_MADE_ROWS,
    ]
    return runs


def _unmake_warm_rows() -> None:
    """Delete the odds rows WARM_MADE_ROWS made at an earlier warm-up, so that its run
    makes them again (0.5 CPU-s) and so compiles the count: the rows outlive a kernel
    edit (their file is not the kernels' version's), and read from that file they left
    the count to a player's first short pack (15 CPU-s after the rest of warm, session 69)."""
    from ..game.rules import Rules
    from ..table import odds_rows

    key = odds_rows.made_key(Rules.parse(WARM_SHORT_PACK), 4)
    odds_rows.made_file(key, odds_rows.MADE_DEALS, odds_rows.made_seed(key)).unlink(missing_ok=True)


def _warm_one(argv: list[str]) -> tuple[list[str], int, str, float]:
    """Run ``pitchsim ARGV`` here, its output kept: (argv, exit code, stderr, seconds)."""
    os.environ["PITCHSIM_COMPILE_NOTICE"] = "0"  # the caller reports progress itself
    from . import main

    start = time.monotonic()
    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        try:
            main(argv)
            code = 0
        except SystemExit as e:
            code = 0 if e.code is None else e.code
    return argv, code if isinstance(code, int) else 1, err.getvalue(), time.monotonic() - start


HANDS, GAMES, SEARCH = range(3)  # the sets of kernels ``_lanes`` keeps apart


def _kernel_set(argv: list[str]) -> int:
    """Which mostly separate set of kernels a run compiles: hands by the thousand (study
    runs, ``simulate``, and bid-odds' fixed hand, of every preset: the base game's study
    runs are its own kernels), whole games and the advisor (``tournament``, ``play``,
    ``advise``), or the presets' search (a run on WARM_VIEW, a preset's view, or a pimc
    seat: the worlds and the solver; and WARM_POSITION's solve, which loads that
    solver).  Each set compiles about as long as the others together (``warm``'s
    figures, session 57), so two lanes split them evenly."""
    if any(a.endswith((VIEW_FILE, POSITION_FILE)) for a in argv) or any("pimc" in a for a in argv):
        return SEARCH
    if argv[0] in ("simulate", "bid-odds"):
        return HANDS
    return GAMES


def _lanes(runs: list[list[str]], jobs: int) -> list[list[list[str]]]:
    """The runs split over at most ``jobs`` lanes, each run in one process after the other.
    Each set of kernels (``_kernel_set``) goes to lanes of its own first: two processes
    compiling the same kernels side by side compile them twice.  With fewer lanes than
    sets, the search's runs follow the hands', the shorter lane."""
    sets: dict[int, list[list[str]]] = {}
    for argv in runs:
        sets.setdefault(_kernel_set(argv), []).append(argv)
    groups = [sets[k] for k in sorted(sets)]
    per = max(1, jobs // len(groups)) if groups else 1
    lanes: list[list[list[str]]] = []
    for g in groups:  # a group's runs over its share of the lanes, round robin
        mine = [g[i::per] for i in range(min(per, len(g)))]
        lanes += mine
    while len(lanes) > jobs:  # fewer lanes than groups: fold the last into the first
        lanes[(len(lanes) - 1) % jobs] += lanes.pop()
    return lanes


def warm(jobs: int) -> int:
    """Compile the kernels of ``warm_runs`` in up to ``jobs`` processes side by side
    (``_lanes``), one progress bar on stderr counting the runs done; return how many runs
    failed (each named on stderr in a line of its own)."""
    import multiprocessing
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor
    from concurrent.futures import wait as wait_for

    from .progress import Progress

    start = time.monotonic()
    failed = 0
    # on a terminal the bar's clock moves every second; in a log it is drawn at each run
    tick = 1.0 if sys.stderr.isatty() else None
    with tempfile.TemporaryDirectory(prefix="pitchsim-warm-") as tmp:
        runs = warm_runs(Path(tmp))
        (Path(tmp) / VIEW_FILE).write_text(dumps_json(WARM_VIEW), encoding="utf-8")
        (Path(tmp) / POSITION_FILE).write_text(dumps_json(WARM_POSITION), encoding="utf-8")
        lanes = _lanes(runs, jobs)
        if WARM_MADE_ROWS in runs:
            _unmake_warm_rows()
        print(
            f"pitchsim: compiling the kernels of {len(runs)} commands, {len(lanes)} at a time "
            "(once; minutes on a cold cache, seconds on a warm one)",
            file=sys.stderr,
            flush=True,
        )
        # spawn: a fresh interpreter per worker (numba's threads do not survive a fork);
        # a pool of one per lane keeps a lane's runs in its process, one after the other
        ctx = multiprocessing.get_context("spawn")
        pools = [ProcessPoolExecutor(max_workers=1, mp_context=ctx) for _ in lanes]
        try:
            pending = {
                pool.submit(_warm_one, argv)
                for pool, lane in zip(pools, lanes, strict=True)
                for argv in lane
            }
            shape = "{desc}: {n}/{total} commands |{bar}| {elapsed} elapsed"
            with Progress("commands", len(runs), desc="compiling", bar_format=shape) as bar:
                while pending:
                    done, pending = wait_for(pending, timeout=tick, return_when=FIRST_COMPLETED)
                    for fut in done:
                        argv, code, err, _ = fut.result()
                        if code != 0:
                            failed += 1
                            what = " ".join(a if " " not in a else repr(a) for a in argv)
                            last = (err.strip().splitlines() or [""])[-1][-300:]
                            bar.write(f"pitchsim {what}  FAILED (exit {code}): {last}")
                        bar.update(1)
                    if not done:
                        bar.refresh()
        finally:
            for pool in pools:
                pool.shutdown(cancel_futures=True)
    note = f", {failed} of {len(runs)} commands failed" if failed else ""
    print(
        f"pitchsim: kernels compiled in {time.monotonic() - start:.0f} s{note}",
        file=sys.stderr,
        flush=True,
    )
    return failed


@app.command("cache")
def cache_command(
    action: str = typer.Argument(
        None, metavar="warm", help="warm: compile the kernels every command runs, now."
    ),
    clear: bool = typer.Option(
        False,
        "--clear",
        help="Delete the folders of other pitchsim versions (not this one's), and odds rows "
        "this version does not read.",
    ),
    all_: bool = typer.Option(
        False,
        "--all",
        help="With --clear: this version's folder and odds rows too (the next run "
        "recompiles and makes them again).",
    ),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON document on stdout."),
    jobs: int = typer.Option(
        None, "--jobs", "-j", help="With warm: processes compiling side by side (default: cores)."
    ),
) -> None:
    """Show or clear the cache of compiled kernels (one folder per kernel version) and of
    the odds rows made for rules with none shipped; `cache warm` compiles the kernels for
    every command and preset in one go."""
    from ..util.errors import InputError

    if action not in (None, "warm"):
        raise InputError(f"unknown action {action!r}: the one action is warm")
    if all_ and not clear:
        raise InputError("--all goes with --clear")
    if jobs is not None and action != "warm":
        raise InputError("--jobs goes with warm")
    if action == "warm":
        if clear or as_json:
            raise InputError("warm takes no --clear or --json")
        from .common import positive

        positive("--jobs", jobs, 64)
        if warm(jobs or os.cpu_count() or 1):
            sys.exit(1)
        return
    from .. import kernels  # loads numba, compiles nothing
    from ..table import odds_rows

    gone = kernels.prune_cache(0, keep_current=not all_) if clear else []
    gone += odds_rows.clear_made(every=all_) if clear else []
    folders = kernels.cache_folders()
    made = odds_rows.made_files()
    if as_json:
        doc = {
            "root": str(kernels.cache_root()),
            "current": str(kernels.CACHE_DIR),
            "own_cache": kernels.OWN_CACHE,
            "folders": [
                {
                    "path": str(d),
                    "bytes": size,
                    "last_used": used,
                    "current": d.name == kernels.DIGEST,
                }
                for d, size, used in folders
            ],
            "odds_rows": {
                "folder": str(odds_rows.cache_folder()),
                "files": [
                    {"path": str(f), "rows": what, "bytes": size, "current": read}
                    for f, what, size, read in made
                ],
            },
            "deleted": [str(d) for d in gone],
        }
        sys.stdout.write(dumps_json(doc) + "\n")
        return
    lines = []
    if not kernels.OWN_CACHE:
        lines.append(
            f"NUMBA_CACHE_DIR is set: kernels are cached in {kernels.CACHE_DIR}, "
            "which pitchsim leaves alone."
        )
    lines.append(f"Compiled kernels are cached in {kernels.cache_root()}, one folder per version")
    lines.append(f"of pitchsim's kernel source; this version's is {kernels.DIGEST}.")
    for d in gone:
        lines.append(f"deleted {d}")
    if not folders:
        lines.append(
            "The cache is empty: the next command that runs kernels compiles them (15-60 s)."
        )
    for d, size, used in folders:
        when = dt.datetime.fromtimestamp(used).strftime("%Y-%m-%d %H:%M")
        mark = "  (this version)" if d.name == kernels.DIGEST else ""
        lines.append(f"  {d.name}  {size / 1e6:6.1f} MB  last used {when}{mark}")
    others = [f for f in folders if f[0].name != kernels.DIGEST]
    if others:
        lines.append(
            f"Folders unused for {kernels.STALE_DAYS} days are deleted at the next "
            "compile; `pitchsim cache --clear` deletes the others now."
        )
    folder = odds_rows.cache_folder()
    if made:
        lines.append(f"Odds rows made for rules with none shipped are kept in {folder}:")
    else:
        lines.append(f"No odds rows made yet (rules with none shipped have them made in {folder}).")
    for f, what, size, read in made:
        mark = "" if read else "  (not read by this version)"
        lines.append(f"  {f.name}  {size / 1e3:6.1f} kB  {what}{mark}")
    sys.stdout.write("\n".join(lines) + "\n")
