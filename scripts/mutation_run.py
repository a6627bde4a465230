"""A systematic mutation run over pitchsim's pure-Python modules, with mutmut 3.

Not part of the test suite or of CI: it costs minutes to hours.  ``scripts/mutate.py``
keeps its curated mutants for the numba kernels (each mutant there costs a compile);
this script lets mutmut make every mutant it can of one plain-Python module at a time
and runs a fast selection of tests against each (mutmut runs, of those, only the tests
that call the mutated function).

    .venv/bin/pip install 'mutmut>=3'                      # into the dev venv only
    .venv/bin/python scripts/mutation_run.py stats verified position
    .venv/bin/python scripts/mutation_run.py --list
    .venv/bin/python scripts/mutation_run.py --survivors stats   # the diffs, to read

Each module is mutated in a copy of the tree of its own (``--work``, default
``/tmp/pitchsim-mutation/<module>``): mutmut writes ``mutants/`` there, never in the
repository; a second run of the same module resumes from what that copy has done
(``--fresh``: starts over, e.g. after the tests changed).  The
first run of a module whose tests call kernels compiles them once for the copy.

The score printed per module is killed / (mutants - no tests), with the survivors
listed by name; ``--survivors`` prints each surviving mutant's diff.  Read every
survivor: kill it with a test, or say why it is equivalent.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# module -> (file, fast tests).  Tests are pytest arguments relative to the tree.
MODULES: dict[str, tuple[str, list[str]]] = {
    "stats": (
        "pitchsim/util/stats.py",
        ["tests/test_intervals_by_hand.py", "tests/test_replay.py::test_paired_difference"],
    ),
    "verified": ("pitchsim/study/verified.py", ["tests/test_verified_memory.py"]),
    "position": (
        "pitchsim/search/position.py",
        ["tests/test_position.py", "tests/test_position_types.py", "tests/test_position_exact.py"],
    ),
    "hint": (
        "pitchsim/search/hint.py",
        [
            "tests/test_hint.py",
            "tests/test_hint_sides.py",
            "tests/test_hint_view.py",
            "tests/test_hint_output.py",
        ],
    ),
    "advise": (
        "pitchsim/advice/advise.py",
        ["tests/test_advise_recount.py", "tests/test_advise.py", "tests/test_advise_output.py"],
    ),
    "odds": (
        "pitchsim/advice/odds.py",
        [
            "tests/test_odds.py",
            "tests/test_intervals_by_hand.py",
            "tests/test_compare_odds.py",
            "tests/test_odds_inputs.py",
            "tests/test_odds_api.py",
            "tests/test_odds_output.py",
        ],
    ),
    "checksum": (
        "pitchsim/study/checksum.py",
        ["tests/test_checksum.py", "tests/test_checksum_keys.py"],
    ),
    "batch": (
        "pitchsim/study/batch.py",
        ["tests/test_batch.py", "tests/test_run_checksums.py", "tests/test_batch_by_hand.py"],
    ),
    "analysis": (
        "pitchsim/study/analysis.py",
        ["tests/test_analysis.py", "tests/test_analysis_by_hand.py"],
    ),
    "view": (
        "pitchsim/game/view.py",
        ["tests/test_view.py", "tests/test_view_refusals.py", "tests/test_view_presets.py"],
    ),
    "engine": (
        "pitchsim/table/engine.py",
        [
            "tests/test_engine.py",
            "tests/test_engine_replies.py",
            "tests/test_engine_redteam.py",
            # issue 28: every preset's view (the only callers of _reads_as)
            "tests/test_engine_presets.py",
            "tests/test_mutation_engine.py",
        ],
    ),
    # issue 29: the engine, outside seats, records and saves
    "answers": (
        "pitchsim/table/answers.py",
        [
            "tests/test_table.py::test_a_bad_answer_forfeits_and_nobody_plays_for_it",
            "tests/test_table_presets.py::test_an_illegal_answer_forfeits_with_the_reason",
            "tests/test_answers.py",
        ],
    ),
    "jsonio": (
        "pitchsim/util/jsonio.py",
        [
            "tests/test_position.py::test_lists_and_json_errors",
            "tests/test_position.py::test_duplicate_keys_deep_nesting_and_long_numbers_are_one_line",
            "tests/test_view_refusals.py",
            "tests/test_jsonio.py",
        ],
    ),
    "outside": (
        "pitchsim/table/outside.py",
        [
            # in-process only: the rest of test_outside_redteam.py runs the CLI, which
            # imports the installed pitchsim, not the mutant
            "tests/test_outside_redteam.py::test_time_limits_outside_a_day_are_refused",
            "tests/test_outside_redteam.py::test_time_limits_default_only_when_not_given",
            "tests/test_outside_redteam.py::test_a_restart_that_fails_hello_forfeits_only_its_game",
            "tests/test_outside_redteam.py::test_the_game_clock_starts_afresh_each_game",
            "tests/test_table.py::test_outside_program_plays_games_and_tournaments",
            "tests/test_table.py::test_outside_program_failures_forfeit_with_the_reason",
            "tests/test_table.py::test_game_time_limit",
            "tests/test_outside_notices.py",
            "tests/test_mutation_outside.py",
        ],
    ),
    "record": (
        "pitchsim/table/record.py",
        [
            # in-process only: test_records_redteam.py runs the CLI throughout
            "tests/test_table.py::test_records_replay_and_refuse_what_did_not_happen",
            "tests/test_table.py::test_hand_written_record",
            "tests/test_table_presets.py::test_the_record_replays_byte_for_byte_and_gives_views",
            "tests/test_table_presets.py::test_a_record_that_did_not_happen_is_refused",
            "tests/test_table_presets.py::test_a_hand_written_smear_record_is_filled_in",
            "tests/test_table_presets.py::test_a_record_under_another_presets_rules_is_refused_naming_both",
            "tests/test_record_checks.py",
            "tests/test_mutation_record.py",
        ],
    ),
    "judge": (
        "pitchsim/coach/judge.py",
        [
            "tests/test_coach_words.py",
            "tests/test_practice.py",
            "tests/test_judge_words.py",
            "tests/test_coach_game.py",
            # the only callers of _named_suit_scores and of a preset's calls no deal fits
            "tests/test_practice_presets.py::test_a_named_trump_is_judged_by_the_suits_odds",
            "tests/test_practice_presets.py::test_calls_no_deal_fits_are_still_judged",
        ],
    ),
    "practice": (
        "pitchsim/coach/practice.py",
        [
            "tests/test_practice.py",
            "tests/test_practice_presets.py",
            "tests/test_coach_words.py",
            "tests/test_coach_game.py",
            "tests/test_mutation_practice.py",
        ],
    ),
    "manifest": (
        "pitchsim/study/manifest.py",
        ["tests/test_batch.py", "tests/test_run_checksums.py", "tests/test_manifest_by_hand.py"],
    ),
    "parts": (
        "pitchsim/study/parts.py",
        ["tests/test_batch.py", "tests/test_run_checksums.py", "tests/test_parts_by_hand.py"],
    ),
}


# Tests left out of a module's run: they need more than the one thread a mutant has.
LEAVE_OUT = {"advise": "not one_and_two_threads", "odds": "not any_thread_count"}
# ... and the tests of practice that run the CLI (a subprocess imports the installed
# pitchsim, never the mutant: minutes of stats run for nothing)
_CLI_PRACTICE = (
    "not (bad_card_is_told or real_terminal or whole_game_to_the_end or bad_input_at_a_call"
    " or option_errors or practice_command or through_the_command or review_of_a_play_game"
    " or review_refuses or watch_plays)"
)
LEAVE_OUT |= {"judge": _CLI_PRACTICE, "practice": _CLI_PRACTICE}

# Kernel threads a mutant's tests may use (default 1): the run fixtures of test_batch.py
# play on 2 threads (simulate(threads=2)), which one thread refuses ("threads must be
# 1-1"), so mutmut's first step (the stats run) failed with "runner returned 1".
THREADS = {"batch": 2, "manifest": 2, "parts": 2}

# Modules whose tests run no parallel kernel: mutmut's fork server may import the tests
# once (collect) and fork each mutant from there, about 10x faster than a fresh
# interpreter per mutant.
WARM = {
    *("view", "engine", "checksum", "manifest", "parts", "batch", "advise", "hint", "odds"),
    *("answers", "jsonio", "outside", "record", "judge", "practice"),
}


def work_copy(name: str, work: Path) -> Path:
    """A copy of the tree with mutmut configured for ``name``; kept between runs."""
    file, tests = MODULES[name]
    work.mkdir(parents=True, exist_ok=True)
    for folder in ("pitchsim", "tests", "examples", "docs"):  # tests read views, transcripts
        dst = work / folder
        if dst.exists():
            shutil.rmtree(dst)
        shutil.copytree(ROOT / folder, dst, ignore=shutil.ignore_patterns("__pycache__"))
    config = (ROOT / "pyproject.toml").read_text()
    # Only the selected tests: no doctests of the whole package, no collection of
    # pitchsim/ (mutmut adds the test selection itself).
    config = config.replace('testpaths = ["tests", "pitchsim"]', 'testpaths = ["tests"]')
    config = config.replace('addopts = "-ra --doctest-modules"', 'addopts = "-q"')
    config += (
        "\n[tool.mutmut]\n"
        'source_paths = ["pitchsim"]\n'
        # Without them a test that globs examples/ passes having checked nothing.
        'also_copy = ["examples", "docs"]\n'
        f"only_mutate = [{json.dumps(file)}]\n"
        f"pytest_add_cli_args_test_selection = {json.dumps(tests)}\n"
        f"pytest_add_cli_args = {json.dumps(['-p', 'no:cacheprovider', *(['-k', LEAVE_OUT[name]] if name in LEAVE_OUT else [])])}\n"
        "use_git_change_detection = false\n"
        # MUTATION_DEBUG=1: mutmut prints every pytest command and its output
        + ("debug = true\n" if os.environ.get("MUTATION_DEBUG") else "")
        +
        # A mutant's limit in CPU seconds: 2 x multiplier x (its tests' time + the
        # constant).  mutmut's 15 let a mutant that loops hold a shared core for half
        # an hour; the constant allows for what its estimate leaves out (a module
        # fixture, loading the cached kernels).  On two kernel threads (THREADS) numba's
        # idle workers spend CPU too: with 20 s, mutants whose tests pass were stopped
        # as "timeout" (counted as killed), e.g. a default argument no caller uses.
        "timeout_multiplier = 2.0\n"
        f"timeout_constant = {120.0 if name in THREADS else 20.0}\n"
        # Each mutant in a fresh process: forked from a process that ran numba's thread
        # pool and the hashing thread, a mutant's tests died of SIGTERM (mutmut's
        # "suspicious") instead of passing or failing.
        'process_isolation = "forkserver"\n'
        f'forkserver_warmup = "{"collect" if name in WARM else "none"}"\n'
    )
    (work / "pyproject.toml").write_text(config)
    return work


def mutmut(work: Path, *args: str, capture: bool = False) -> subprocess.CompletedProcess:
    exe = Path(sys.executable).with_name("mutmut")
    return subprocess.run([str(exe), *args], cwd=work, text=True, capture_output=capture)


def results(work: Path, file: str) -> dict[str, int]:
    """Mutant name -> exit code, from mutmut's record of the module."""
    meta = work / "mutants" / (file + ".meta")
    doc = json.loads(meta.read_text())
    return {k: v for k, v in doc["exit_code_by_key"].items()}


def mutant_names(work: Path, file: str) -> list[str]:
    """Every mutant of the module, generating them (and mutmut's record of which tests
    call which function) when the copy has none yet; a run that matches no mutant stops
    after that."""
    meta = work / "mutants" / (file + ".meta")
    if not meta.exists():
        with open(work / "mutmut.log", "w") as log:
            subprocess.run(
                [str(Path(sys.executable).with_name("mutmut")), "run", "no-such-mutant"],
                cwd=work,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
    return sorted(results(work, file))


def sample_of(work: Path, file: str, size: int, seed: int) -> list[str]:
    """A fixed random sample of the module's mutants (all of them when ``size`` is 0)."""
    import random

    every = mutant_names(work, file)
    if not size:
        return every
    return sorted(random.Random(seed).sample(every, min(size, len(every))))


def recheck(
    name: str, work: Path, only: set[str] | None = None, tests: list[str] | None = None
) -> None:
    """Each survivor (and each mutant no test of the run called) against the current
    tests (copied in), by pytest in the mutated tree with mutmut's switch set.  The
    results go to ``recheck.json`` beside mutmut's record (which a run still going
    rewrites), and override it in the score; a mutant already killed there is skipped.
    Mutants mutmut stopped as "timeout" are judged again too, by the whole selection."""
    file, selection = MODULES[name]
    # The run has run the rest of the selection against these mutants already: only the
    # tests added since (``--recheck-with``) can change a survivor's fate.
    tests = tests or selection
    codes = results(work, file)
    done_path = work / "recheck.json"
    done = json.loads(done_path.read_text()) if done_path.exists() else {}
    shutil.rmtree(work / "mutants" / "tests")
    shutil.copytree(
        ROOT / "tests", work / "mutants" / "tests", ignore=shutil.ignore_patterns("__pycache__")
    )
    from mutmut.stats import status_by_exit_code

    for key, code in codes.items():
        # A "timeout" is mutmut's wall-clock limit (half its CPU limit), which a loaded
        # machine overruns with tests that pass: judged again here, with no limit, by
        # the whole selection (the run's tests never finished against it).
        timed_out = status_by_exit_code[code] == "timeout"
        if code not in (0, 33) and not timed_out:  # survived, or no test called it
            continue
        if (only is not None and key not in only) or done.get(key) == 1:
            continue
        env = dict(os.environ, MUTANT_UNDER_TEST=key)
        r = subprocess.run(
            [
                sys.executable,
                "-m",
                "pytest",
                "-x",
                "-q",
                "-p",
                "no:cacheprovider",
                "-p",
                "no:randomly",
                *(["-k", LEAVE_OUT[name]] if name in LEAVE_OUT else []),
                *reversed(selection if timed_out else tests),  # the newest first: -x
            ],
            cwd=work / "mutants",
            env=env,
            capture_output=True,
            text=True,
        )
        # 2: pytest stopped at collecting (the same tests collect unmutated): the mutant
        # breaks the import itself, e.g. in code run at import time.  A kill.
        done[key] = 1 if r.returncode == 2 else r.returncode
        done_path.write_text(json.dumps(done, indent=1))  # kept as it goes
        print(f"  {key}: {'killed' if r.returncode == 1 else r.returncode}", flush=True)


def score(name: str, work: Path, only: set[str] | None = None) -> dict:
    file, _ = MODULES[name]
    from mutmut.stats import status_by_exit_code  # mutmut's own reading of its exit codes

    codes = {k: c for k, c in results(work, file).items() if only is None or k in only}
    done_path = work / "recheck.json"
    if done_path.exists():  # --recheck's results replace the run's
        codes |= {k: c for k, c in json.loads(done_path.read_text()).items() if k in codes}
    status = {k: status_by_exit_code[c] for k, c in codes.items()}
    killed = [k for k, s in status.items() if s == "killed"]
    survived = [k for k, s in status.items() if s == "survived"]
    timeout = [k for k, s in status.items() if s == "timeout"]
    untested = [k for k, s in status.items() if s == "no tests"]
    other = [k for k in codes if k not in {*killed, *survived, *timeout, *untested}]
    judged = len(killed) + len(timeout) + len(survived)  # a sample: only the mutants run
    return {
        "module": name,
        "mutants": len(codes),
        "judged": judged,
        "killed": len(killed) + len(timeout),
        "survived": survived,
        "no_tests": untested,
        "not_run": other,
        "score": (len(killed) + len(timeout)) / judged if judged else float("nan"),
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("modules", nargs="*", help=f"any of: {', '.join(MODULES)}")
    ap.add_argument("--work", type=Path, default=Path("/tmp/pitchsim-mutation"))
    ap.add_argument("--children", type=int, default=1, help="mutants tested at once")
    ap.add_argument("--list", action="store_true", help="the modules and their tests")
    ap.add_argument("--survivors", action="store_true", help="print the survivors' diffs")
    ap.add_argument(
        "--recheck",
        action="store_true",
        help="run the current tests against the survivors again (pytest per mutant)",
    )
    ap.add_argument(
        "--recheck-with",
        nargs="+",
        metavar="TEST",
        help="--recheck with these tests only (the ones added since the run)",
    )
    ap.add_argument(
        "--rerun",
        action="store_true",
        help="run the survivors again by mutmut itself against the tests as they are now "
        "(its warm fork server: far faster than --recheck's pytest per mutant)",
    )
    ap.add_argument("--fresh", action="store_true", help="forget earlier results")
    ap.add_argument(
        "--sample",
        type=int,
        default=0,
        help="run only this many mutants, drawn at random (--sample-seed) from all of them",
    )
    ap.add_argument("--sample-seed", type=int, default=22)
    ap.add_argument("--score-only", action="store_true", help="no run: the scores so far")
    a = ap.parse_args()
    if a.list or not a.modules:
        for name, (file, tests) in MODULES.items():
            print(f"{name:10} {file:32} {' '.join(tests)}")
        return 0
    unknown = [m for m in a.modules if m not in MODULES]
    if unknown:
        print(f"mutation_run: unknown module {unknown[0]!r}", file=sys.stderr)
        return 2
    threads = os.environ.get("NUMBA_NUM_THREADS")
    for name in a.modules:
        # one core per mutant, unless its tests need two (THREADS)
        os.environ["NUMBA_NUM_THREADS"] = threads or str(THREADS.get(name, 1))
        work = a.work / name
        file = MODULES[name][0]
        if a.fresh and not a.recheck and (work / "mutants").exists():
            shutil.rmtree(work / "mutants")
            # the verdicts of an earlier run's mutants: after a change to the module
            # their numbers name other mutants
            (work / "recheck.json").unlink(missing_ok=True)
        if not (work / "mutants").exists():
            work_copy(name, work)
        only = None
        if a.sample:
            chosen = sample_of(work, file, a.sample, a.sample_seed)
            only = set(chosen)
            print(f"{name}: a sample of {len(chosen)} mutants, seed {a.sample_seed}")
        if a.recheck:
            recheck(name, work, only, a.recheck_with)
        elif a.rerun:
            s = score(name, work, only)
            again = sorted([*s["survived"], *s["no_tests"]])
            if again:
                work_copy(name, work)  # the tests as they are now; mutmut copies them in
                with open(work / "mutmut.log", "a") as log:
                    subprocess.run(
                        [str(Path(sys.executable).with_name("mutmut")), "run", *again],
                        cwd=work,
                        stdout=log,
                        stderr=subprocess.STDOUT,
                    )
        elif not a.score_only and not a.survivors:
            # mutmut runs every mutant it is given by name again: a sample resumes with
            # the ones not yet run (without names, mutmut itself skips those done)
            todo = []
            if only is not None:
                todo = sorted(k for k, c in results(work, file).items() if k in only and c is None)
            work_copy(name, work)
            if only is not None and not todo:
                print(f"{name}: every sampled mutant has been run")
            else:
                with open(work / "mutmut.log", "a") as log:  # its progress spinner, kept apart
                    subprocess.run(
                        [
                            str(Path(sys.executable).with_name("mutmut")),
                            "run",
                            "--max-children",
                            str(a.children),
                            *todo,
                        ],
                        cwd=work,
                        stdout=log,
                        stderr=subprocess.STDOUT,
                    )
        s = score(name, work, only)
        print(
            f"{name}: {s['killed']} of {s['judged']} killed ({100 * s['score']:.1f}%), "
            f"{len(s['survived'])} survived; of {s['mutants']} mutants "
            f"{len(s['no_tests'])} without tests, {len(s['not_run'])} not run",
            flush=True,
        )
        for k in s["survived"]:
            print(f"  survived: {k}")
            if a.survivors:
                print(mutmut(work, "show", k, capture=True).stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
