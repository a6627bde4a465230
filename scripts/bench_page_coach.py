#!/usr/bin/env python3
"""Whole games played through the web table by a person's hands (headless Chromium,
Playwright), the coach on, then each reviewed on the page; the coach's wait per
decision measured as the page sees it.

    .venv/bin/python scripts/bench_page_coach.py --game smear:4 --game auction-pitch:7

Each ``--game PRESET:PLAYERS[:RULES]`` starts ``pitchsim serve`` (a process of its own,
port ``--port``, saves in a fresh folder), opens the page, starts the game with the
coach at its defaults (practice's counts) against the default opponents, and plays it
to the end: a random legal choice (seeded), calls by key, cards by click.  For every
decision that had a choice it times, from the click to the coach's verdict on the page,
the wall clock and the server process's CPU seconds (/proc/PID/stat, every thread),
and reads the server's own clock of it (``coach_seconds``: from the action's arrival to
the verdict).
The first hand's decisions are reported apart (the kernels may compile there; run
``pitchsim cache warm`` first).  At the end the page must say the game is over and show
the last hand's breakdown; the review of the save must step through every decision of
the seat with one verdict per judged decision.  ``--shots DIR`` saves a screenshot of a
hand in progress (the coach's verdict beside it), of the end of a hand and of the review.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

from pitchsim.table.record import replay, views_of

TICK = os.sysconf("SC_CLK_TCK")
WAIT = 180_000  # ms a step may take before the page is dumped and the run fails


def cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK  # utime + stime, every thread


def serve(port: int, saves: str) -> subprocess.Popen:
    proc = subprocess.Popen(
        [sys.executable, "-m", "pitchsim", "serve", "--port", str(port), "--saves", saves],
        stdout=subprocess.DEVNULL,
        stderr=open(os.path.join(saves, "server.log"), "w"),  # noqa: SIM115  (a pipe fills)
    )
    end = time.monotonic() + 60
    while time.monotonic() < end:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/options", timeout=2)
            return proc
        except OSError:
            if proc.poll() is not None:
                raise RuntimeError(open(os.path.join(saves, "server.log")).read()) from None
            time.sleep(0.3)
    raise RuntimeError("the server did not start")


def play(page, url, saves, preset, players, rules, seed, shots):
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url)
    page.wait_for_selector("#presets option[value=smear]", state="attached")
    form = page.locator("#setup")
    form.locator("select[name=preset]").select_option(preset)
    form.locator("select[name=players]").select_option(str(players))
    if rules:
        form.locator("input[name=rules]").fill(rules)
    form.locator("input[name=seed]").fill(str(seed))
    form.locator("#start").click()
    rng = random.Random(seed)
    timed = []  # (hand, kind, wall, cpu)
    chosen: list[str] = []
    judged = 0
    shot_taken = set()
    hands_seen = 0
    for _ in range(2000):
        page.wait_for_function(
            "['your turn', 'over', 'error'].includes(document.body.dataset.status)"
            " || !document.querySelector('#error').hidden",  # a start refused
            timeout=WAIT,
        )
        status = page.evaluate("document.body.dataset.status")
        hands = int(page.locator("#breakdown").get_attribute("data-hands") or 0)
        if shots and hands > hands_seen and "hand" not in shot_taken:
            page.locator("#breakdown").screenshot(path=f"{shots}/{preset}-{players}p-hand.png")
            shot_taken.add("hand")
        hands_seen = hands
        if status != "your turn":
            break
        before = int(page.locator("#coach").get_attribute("data-count") or 0)
        calls = page.locator("#choices button")
        if calls.count():
            legal = [calls.nth(i).get_attribute("data-call") for i in range(calls.count())]
            kind = "trump" if legal[0].startswith("trump:") else "call"
            i = rng.randrange(len(legal))
            t0, c0 = time.perf_counter(), cpu_seconds(pid)
            calls.nth(i).click()
        else:
            cards = page.locator("#hand button.legal")
            legal = [cards.nth(i).get_attribute("data-card") for i in range(cards.count())]
            kind = "card"
            i = rng.randrange(len(legal))
            t0, c0 = time.perf_counter(), cpu_seconds(pid)
            key = cards.nth(i).get_attribute("data-key")
            if rng.random() < 0.5:  # the numbered card by its key(s): "0" the tenth
                for k in key.split():
                    page.keyboard.press(k)
            else:
                cards.nth(i).click()
        chosen.append(legal[i])
        if len(legal) > 1:
            page.wait_for_function(
                f"Number(document.querySelector('#coach').dataset.count || 0) > {before}",
                timeout=WAIT,
            )
            wall, cpu = time.perf_counter() - t0, cpu_seconds(pid) - c0
            judged += 1
            inside = page.evaluate("game.coach_seconds[0] ?? null")  # the server's own clock
            timed.append((hands_seen + 1, kind, wall, cpu, inside))
            verdict = page.locator("#coach .verdict").inner_text()
            assert verdict.startswith("coach:"), verdict
            tricks = page.locator("#tricks .past").count()
            if shots and kind == "card" and tricks >= 2 and "play" not in shot_taken:
                page.screenshot(path=f"{shots}/{preset}-{players}p-play.png", full_page=True)
                shot_taken.add("play")
    assert status == "over", (
        page.locator("#status").inner_text() or page.locator("#error").inner_text()
    )
    over = page.locator("#over").inner_text()
    breakdown = page.locator("#breakdown").inner_text()
    assert "High" in breakdown, breakdown  # seven-point has no Game point (rules.md 10)
    if shots:
        page.screenshot(path=f"{shots}/{preset}-{players}p-over.png", full_page=True)
    page.locator("#review-this").click()
    page.wait_for_selector("#review-out:not([hidden])", timeout=600_000)
    steps = int(page.locator("#step-no").inner_text().split()[-1])
    verdicts = 0
    for k in range(steps):
        text = page.locator("#step").inner_text()
        verdicts += "coach:" in text
        if shots and k == steps // 2:
            page.screenshot(path=f"{shots}/{preset}-{players}p-review.png", full_page=True)
        page.keyboard.press("ArrowRight")
    # the page's choices are the person's actions in the save, in order (a forced move
    # is taken without asking, and reviewed too)
    (name,) = [n for n in os.listdir(saves) if n.endswith(".json")]
    with open(os.path.join(saves, name)) as f:
        record = replay(json.load(f), strategies=False)
    mine = [(v, a) for v, a in views_of(record) if v.seat == 0]
    assert chosen == [a for v, a in mine if len(v.legal()) > 1], "the save is not what was clicked"
    assert steps == len(mine), (steps, len(mine))
    assert verdicts == judged == len(record["practice"]["judgements"]), (verdicts, judged)
    assert not errors, errors
    return {
        "preset": preset,
        "players": players,
        "rules": rules,
        "seed": seed,
        "hands": hands_seen,
        "decisions": len(mine),
        "chosen": len(chosen),
        "judged": judged,
        "over": over.splitlines()[0],
        "timed": timed,
    }


def summary(timed):
    out = {}
    warm = [t for t in timed if t[0] > 1]
    for kind in ("call", "trump", "card"):
        xs = [t for t in warm if t[1] == kind]
        if xs:
            walls, cpus = [t[2] for t in xs], [t[3] for t in xs]
            out[kind] = {
                "n": len(xs),
                "wall_median": round(statistics.median(walls), 2),
                "wall_max": round(max(walls), 2),
                "cpu_median": round(statistics.median(cpus), 2),
                "cpu_max": round(max(cpus), 2),
                "server_median": round(statistics.median(t[4] or 0 for t in xs), 2),
            }
    first = [t for t in timed if t[0] == 1]
    if first:
        out["first_hand"] = {"n": len(first), "wall_max": round(max(t[2] for t in first), 2)}
    return out


def main() -> None:
    global pid
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", action="append", required=True, help="PRESET:PLAYERS[:RULES]")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--port", type=int, default=8731)
    ap.add_argument("--shots", default=None, help="a folder for screenshots")
    ap.add_argument("--json", default=None, help="write the results here too")
    a = ap.parse_args()
    from playwright.sync_api import sync_playwright

    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    results = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        for spec in a.game:
            preset, players, *rest = spec.split(":", 2)
            saves = tempfile.mkdtemp(prefix="page-coach-")
            proc = serve(a.port, saves)
            pid = proc.pid
            page = browser.new_page(viewport={"width": 1100, "height": 1000}, bypass_csp=True)
            t = time.perf_counter()
            try:
                r = play(page, f"http://127.0.0.1:{a.port}/", saves, preset, int(players),
                         rest[0] if rest else "", a.seed, a.shots)  # fmt: skip
                r["seconds"] = round(time.perf_counter() - t, 1)
                r["summary"] = summary(r["timed"])
                r["saves"] = saves
                results.append(r)
                print(json.dumps({k: v for k, v in r.items() if k != "timed"}), flush=True)
            except Exception as e:  # the page as it was, and the next game
                dump = os.path.join(saves, "failed.png")
                page.screenshot(path=dump, full_page=True)
                state = page.evaluate("JSON.stringify({s: document.body.dataset.status, "
                                      "g: typeof game === 'undefined' ? null : game})")  # fmt: skip
                with open(os.path.join(saves, "failed.json"), "w") as f:
                    f.write(state)
                print(json.dumps({"game": spec, "failed": str(e)[:300], "dump": dump}), flush=True)
            finally:
                page.close()
                proc.send_signal(signal.SIGINT)
                try:
                    proc.wait(20)
                except subprocess.TimeoutExpired:
                    proc.kill()
        browser.close()
    if a.json:
        with open(a.json, "w") as f:
            json.dump(results, f, indent=1)


pid = 0

if __name__ == "__main__":
    main()
