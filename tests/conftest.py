"""Suite-wide settings.

The cold-cache compile notice goes to stderr by default; many tests check that stderr
is empty or holds exactly one error line, so the suite silences it (subprocesses
inherit this).  tests/test_readme.py turns it on where it checks the notice itself.
"""

import os
import time

import pytest

os.environ["PITCHSIM_COMPILE_NOTICE"] = "0"

# ``PITCHSIM_COMPILE_LOG=FILE``: a line per kernel compiled in this process (not loaded
# from the cache), tab-separated: the test running, the kernel, its CPU seconds (its
# callees' compiles included, those logged on lines of their own too, nesting depth
# first), its argument types.  Run a file against a cache holding what ``pitchsim cache
# warm`` compiles: the lines are what the tests compile that no command does.
_COMPILE_LOG = os.environ.get("PITCHSIM_COMPILE_LOG")
_running = ["(collection)"]

if _COMPILE_LOG:
    from numba.core import event

    class _CompileLog(event.Listener):
        def __init__(self):
            self.stack = []

        def on_start(self, ev):
            self.stack.append(time.process_time())

        def on_end(self, ev):
            cpu = time.process_time() - self.stack.pop()
            d = (ev.data or {}).get("dispatcher")
            name = f"{d.py_func.__module__}.{d.py_func.__qualname__}" if d else "?"
            args = ", ".join(str(a) for a in (ev.data or {}).get("args", ()))
            with open(_COMPILE_LOG, "a", encoding="utf-8") as f:
                row = (_running[0], f"{len(self.stack)}", name, f"{cpu:.2f}", args)
                f.write("\t".join(row) + "\n")

    event.register("numba:compile", _CompileLog())


def pytest_runtest_setup(item):
    _running[0] = item.nodeid


# Seconds of the slowest test files in a whole run (the sum of their tests' setup, call
# and teardown).  CI runs the suite as ``pytest -n 2 --dist loadfile
# --no-loadscope-reorder`` (scripts/dev.py), a file to a worker in collection order;
# these go first, longest first, so that the files left at the end are short and both
# workers finish together.  A stale figure only costs time.  Source (7 Dec, at a4dccfc;
# test_serve_browser_presets.py's without one test's 600 s timeout, fixed since): the 25
# slowest files a whole CI run printed at its end (``pytest_terminal_summary`` below),
# on an idle machine after ``cache warm``.  Refresh them from a later run's lines, or
# from a junit report with scripts/test_durations.py --python.
SLOW_FILES: dict[str, float] = {
    "tests/test_outside_redteam.py": 89,
    "tests/test_readme.py": 67,
    "tests/test_families_games.py": 61,
    "tests/test_fuzz.py": 53,
    "tests/test_serve_browser_games.py": 49,
    "tests/test_families_kernels.py": 43,
    "tests/test_search_targets.py": 37,
    "tests/test_one_deal.py": 33,
    "tests/test_view_presets.py": 31,
    "tests/test_solver_partition.py": 29,
    "tests/test_solver_order.py": 25,
    "tests/test_table_presets.py": 24,
    "tests/test_advisor_clock.py": 24,
    "tests/test_presets_advisor.py": 22,
    "tests/test_serve_browser_presets.py": 21,
    "tests/test_put_down_table.py": 20,  # (34 before few_note_worlds, session 69)
    "tests/test_solver_relevance.py": 19,
    "tests/test_solver.py": 17,
    "tests/test_put_down_draw.py": 16,  # (33 before few_note_worlds)
    "tests/test_record_checks.py": 16,
    "tests/test_solver_keys.py": 16,
    "tests/test_solver_suit_relevance.py": 15,  # (an estimate: 30 s wall at load 10, session 70)
    "tests/test_families_cli.py": 15,
    "tests/test_cli_startup.py": 15,
    "tests/test_records_redteam.py": 15,
    "tests/test_serve.py": 14,
}


def pytest_collection_modifyitems(config, items):
    first = {}
    for i, item in enumerate(items):
        path = item.nodeid.split("::")[0]
        first.setdefault(path, (-SLOW_FILES.get(path, 0.0), i))
    items.sort(key=lambda item: first[item.nodeid.split("::")[0]])


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    """A whole run's slowest test files (setup, call and teardown summed, as SLOW_FILES
    counts them), so that every CI log carries the figures to refresh it by."""
    seconds: dict[str, float] = {}
    for reports in terminalreporter.stats.values():
        for r in reports:
            if getattr(r, "when", None) in ("setup", "call", "teardown"):
                path = r.nodeid.split("::")[0]
                seconds[path] = seconds.get(path, 0.0) + r.duration
    if len(seconds) < 40:  # a few files asked for: nothing to plan by
        return
    terminalreporter.write_sep("=", "slowest 25 test files (seconds, for SLOW_FILES)")
    for path, secs in sorted(seconds.items(), key=lambda kv: -kv[1])[:25]:
        terminalreporter.write_line(f'    "{path}": {secs:.0f},')


@pytest.fixture
def few_note_worlds(monkeypatch):
    """The coach's notes on calls and put-downs (``judge.choice_note``) valued on 8 worlds
    in a review, not the coach's HAND_WORLDS (100): for tests of which decisions get a
    note, not of its numbers.  A hand with three put-downs reviewed twice cost 15-20
    CPU-s at 100 (session 69), each world a hand played by the Python table."""
    import functools

    from pitchsim.coach import judge, review

    # (the page's review values its notes through ``review.note_on`` too)
    monkeypatch.setattr(review, "choice_note", functools.partial(judge.choice_note, worlds=8))


# ---------------------------------------------------------------- the browser tests
# tests/test_serve_browser*.py drive the web table in headless Chromium (the system's
# package) through Playwright; CI installs both (.ci/run).  A machine without either
# skips those tests, saying so; CI (CI=true) fails them instead (browser.missing).


@pytest.fixture(scope="module")
def browser_site(tmp_path_factory):
    """The web table served from a saves folder of its own, and a browser: (url, saves,
    browser), one for each test file (its saves are its own)."""
    import importlib.util
    import shutil

    from browser import missing

    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        missing("chromium on PATH: `apt-get install -y chromium`")
    if importlib.util.find_spec("playwright") is None:
        missing("pip package playwright")
    from playwright import sync_api

    from pitchsim.web.app import create_app
    from pitchsim.web.server import Running

    saves = tmp_path_factory.mktemp("saves")
    with Running(create_app(saves)) as url:
        with sync_api.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
            try:
                yield url, saves, browser
            finally:
                browser.close()


@pytest.fixture
def open_table(browser_site):
    """``open_table(where="/", viewport=DESKTOP, **game)``: a fresh page of the site at
    ``where`` ("/": the Play tab, "/#odds": Odds) once its forms hold the presets
    (filled from /api/options in one task, the Odds form's deal line and the game's
    kitty choice with them), and the list its page errors go to.  With ``game`` the
    game is started so (``browser.start_game``; the test waits for its first
    decision).  Every page it opened is closed after the test."""
    from browser import DESKTOP, start_game

    url, _, browser = browser_site
    pages = []

    def open_(where: str = "/", viewport: dict = DESKTOP, **game):
        # bypass_csp: Playwright's wait_for_function evaluates its text, which the
        # page's own policy (no eval) rightly forbids
        page = browser.new_page(viewport=viewport, bypass_csp=True)
        pages.append(page)
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(url + where)
        page.wait_for_selector("#odds-presets option[value=smear]", state="attached")
        if game:
            start_game(page, **game)
        return page, errors

    yield open_
    for page in pages:
        page.close()
