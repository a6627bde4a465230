"""``pitchsim simulate``: a batch run of pitched hands, kept as Parquet parts."""

from __future__ import annotations

import contextlib
import sys
import time
from typing import TYPE_CHECKING

import typer

from ..game.rules import Rules, label
from ..util.errors import InputError, Interrupted
from ..util.limits import MAX_DEALS, MAX_PART_SIZE, MIN_PART_SIZE, check_count
from ..util.runtime import PART_SIZE, pick_seed
from .app import app
from .common import RulesOpt, SeedOpt, ThreadsOpt
from .progress import Progress

if TYPE_CHECKING:
    from ..study.batch import RunResult


@app.command("simulate")
def simulate_command(
    deals: int = typer.Option(
        None, "--deals", help=f"Deals for each player count (at most {MAX_DEALS:,})."
    ),
    players: str = typer.Option(
        None, "--players", "-n", help="Player counts: 4, 3,4,5 or 3-7 (default 4)."
    ),
    policy: str = typer.Option(
        None,
        "--policy",
        help="Play policy of every seat: heuristic (the default) or random.",
    ),
    seed: int = SeedOpt,
    rules: str = RulesOpt,
    out: str = typer.Option(None, "--out", help="Run directory (default runs/run-SEED)."),
    part_size: int = typer.Option(
        None,
        "--part-size",
        help=f"Deals per Parquet part, {MIN_PART_SIZE:,}-{MAX_PART_SIZE:,} (default {PART_SIZE:,}).",
    ),
    threads: int = ThreadsOpt,
    scheduler: str = typer.Option(
        None, "--scheduler", help="Run the parts on this Dask scheduler (tcp://host:8786)."
    ),
    resume_run: bool = typer.Option(
        False, "--resume", help="Finish the run in --out: redo missing or damaged parts."
    ),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar or notes on stderr."),
) -> None:
    """Play DEALS random pitched hands per player count and store them in a run directory
    (manifest.json + part-NNNNNN.parquet) for `pitchsim table` and `pitchsim chart`: the
    pitcher's cards dealt and held, his trumps, his side's points and who took each point."""
    check_count("--deals", deals, MAX_DEALS)
    check_count("--part-size", part_size, MAX_PART_SIZE, MIN_PART_SIZE)
    if resume_run and out is None:
        raise InputError("--resume needs --out DIR, the run to finish")
    if not resume_run and deals is None:
        raise InputError("--deals is needed to start a run (or --resume --out DIR)")
    from ..study.batch import resume, simulate  # numba and pyarrow load here
    from ..study.manifest import MAX_SEED, parse_players, read_manifest

    def note(message: str) -> None:
        if not quiet:
            print(f"pitchsim: {message}", file=sys.stderr)

    started = time.monotonic()
    if resume_run:
        _check_same(out, deals, players, policy, seed, rules, part_size)
        manifest = read_manifest(out)
        todo = sum(r.part.count for r in manifest.parts if r.status != "done")
        with Progress("deals", todo, enabled=not quiet) as bar, _keep_on_interrupt(out):
            result = resume(out, threads, scheduler, bar.update, on_damaged=note, note=note)
    else:
        counts = parse_players("4" if players is None else players)
        seed = pick_seed(seed, MAX_SEED)
        out = out or f"runs/run-{seed}"
        rule_set = Rules.parse(rules)
        with (
            Progress("deals", deals * len(counts), enabled=not quiet) as bar,
            _keep_on_interrupt(out),
        ):
            result = simulate(
                out,
                deals,
                counts,
                policy or "heuristic",
                seed,
                rule_set,
                part_size or PART_SIZE,
                threads,
                scheduler,
                bar.update,
                note,
            )
    sys.stdout.write(render(result, time.monotonic() - started, resume_run))


@contextlib.contextmanager
def _keep_on_interrupt(out: str):
    """Ctrl-C: say how much of the run is kept (every finished part) and how to finish it."""
    try:
        yield
    except KeyboardInterrupt:
        from ..study.manifest import RunError, read_manifest

        try:
            m = read_manifest(out)
        except RunError:
            raise Interrupted("nothing was written") from None
        done = len(m.done())
        raise Interrupted(
            f"{done} of {len(m.parts)} parts of {out} are done and kept; "
            f"`pitchsim simulate --resume --out {out}` finishes the run"
        ) from None


def _check_same(out, deals, players, policy, seed, rules, part_size) -> None:
    """With --resume the manifest has the parameters; given ones must agree with it."""
    from ..study.manifest import parse_players, read_manifest

    m = read_manifest(out)
    given = {
        "--deals": (deals, m.deals),
        "--players": (players and parse_players(players), m.players),
        "--policy": (policy, m.policy),
        "--seed": (seed, m.seed),
        "--rules": (rules and Rules.parse(rules).describe_in_full(), m.params.rules),
        "--part-size": (part_size, m.part_size),
    }
    for option, (value, recorded) in given.items():
        if value is not None and value != recorded and option == "--rules":
            raise InputError(
                f"--resume: {out} was started with --rules {label(Rules.parse(recorded))}, "
                f"not {label(Rules.parse(value))}"
            )
        if value is not None and value != recorded:
            raise InputError(
                f"--resume: {out} was started with {option} {_show(recorded)}, not {_show(value)}"
            )


def _show(value) -> str:
    if isinstance(value, list):
        return ",".join(map(str, value))
    if isinstance(value, dict):
        return ",".join(f"{k}={v}" for k, v in value.items())
    return str(value)


def _parts(k: int) -> str:
    return f"{k} part" if k == 1 else f"{k} parts"


def render(r: RunResult, seconds: float, resumed: bool) -> str:
    m = r.manifest
    counts = ",".join(map(str, m.players))
    head = (
        f"run {r.path}: {m.deals:,} deals x {counts} players in {_parts(len(m.parts))}  ·  "
        f"{m.policy} play  ·  seed {m.seed}  ·  {label(m.rules)}"
    )
    if resumed and r.parts_run == 0:
        return head + "\nnothing to do: every part is complete\n"
    rate = r.deals_run / seconds if seconds > 0 else 0.0
    verb = "resumed: played" if resumed else "played"
    return (
        head + f"\n{verb} {r.deals_run:,} deals ({_parts(r.parts_run)}) in {seconds:.1f} s  "
        f"({rate:,.0f} deals/s)\n"
    )
