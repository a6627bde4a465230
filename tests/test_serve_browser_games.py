"""A whole game of every preset in a real browser (headless Chromium, Playwright), the
coach on, then reviewed in the page (issue 30, "Done when": a person plays a whole game
of any preset in the browser, coached, and reviews it there).

Each game is started through the form (the preset, the player count, a short target
typed in the rules), played to its end by a seeded random person (calls and trump by
their buttons, cards by click or by their numbered key), and every decision that had a
choice must get the coach's verdict on the page.  What the page did is checked against
the saved record (replayed by ``table.record.replay``): the person's actions in it are
the ones clicked, the coach's judgements are as many as the verdicts seen, the page's
final scores and end words are the record's; the review then steps through every
decision of the seat, one verdict per judged one.
"""

from __future__ import annotations

import random

import pytest
from browser import await_verdict, legal_actions, your_turn

from pitchsim.game.rules import Rules
from pitchsim.table.game import game_end_words
from pitchsim.table.record import replay, views_of
from pitchsim.util.jsonio import read_json

SECONDS = 600_000  # ms a step may take (kernels may compile on a cold cache; a busy machine)

# Every preset once (docs/rules.md), at a table it is played at: the partnership
# presets at 4, auction-pitch at 7 and smear at 5 (any count, 2-7).
GAMES = [
    ("", 7),  # auction-pitch
    ("setback", 4),
    ("smear", 5),
    ("ten-point", 4),
    ("five-point", 4),
    ("six-point", 4),
    ("seven-point", 4),
    ("cinch", 4),
]


def rob_named_right(page, preset: str) -> int:
    """1 when the table shows who robbed the stock (4.8 step 5), after checking that it
    names the right seat: the dealer under cinch (rob=dealer, 12.7), else the pitcher;
    the page named the pitcher under cinch too."""
    line = page.locator("#draw .line", has_text="robbed the stock")
    if not line.count():
        return 0
    v = page.evaluate("({d: game.view.dealer, p: game.view.pitcher, s: game.view.seat})")
    robber = v["d"] if preset == "cinch" else v["p"]
    text = line.inner_text()
    named = text[: text.index(" robbed")]  # "you", "seat 1", "partner (seat 2)"
    want = "you" if robber == v["s"] else f"seat {robber}"
    assert named.rstrip(")").endswith(want), (text, v)
    return 1


@pytest.mark.parametrize(("preset", "players"), GAMES)
def test_a_whole_coached_game_of_each_preset_then_its_review(
    browser_site, open_table, preset, players
):
    _, saves, _ = browser_site
    before_saves = {p.name for p in saves.iterdir()}
    page, errors = open_table(
        preset=preset, players=players, rules="target=4", samples=300, worlds=20, seed=3
    )
    rng = random.Random(f"{preset}{players}")
    chosen: list[str] = []
    judged = robs = 0
    for _ in range(400):
        before = your_turn(page, SECONDS, refused=True)  # a refused start shows its line
        if before is None:
            break
        robs += rob_named_right(page, preset)
        legal, buttons = legal_actions(page)
        phase = page.evaluate("game.view.phase")
        i = rng.randrange(len(legal))
        card = buttons.nth(i).get_attribute("data-key")
        if card and rng.random() < 0.5:  # a card by its numbered key ("0" the tenth)
            for key in card.split():
                page.keyboard.press(key)
        else:
            buttons.nth(i).click()
        chosen.append("down:" + legal[i] if phase == "put_down" else legal[i])
        if len(legal) > 1 and phase != "put_down":  # the coach judges every decision
            # that had a choice but the robber's come-down: said, not judged (4.8.7)
            judged += 1
            await_verdict(page, before, SECONDS)
    else:
        pytest.fail("the game did not end in 400 decisions")
    assert page.evaluate("document.body.dataset.status") == "over", (
        page.locator("#status").inner_text() or page.locator("#error").inner_text()
    )
    assert not errors, errors

    (name,) = {p.name for p in saves.iterdir() if p.suffix == ".json"} - before_saves
    record = replay(read_json(str(saves / name), "the saved game"), strategies=False)
    assert len(record["final_scores"]) == players
    mine = [(v, a) for v, a in views_of(record) if v.seat == 0]
    assert chosen == [a for v, a in mine if len(v.legal()) > 1]
    assert len(record["practice"]["judgements"]) == judged
    over = page.locator("#over")
    assert over.locator("h3").inner_text() == game_end_words(record, 0, record["partnership"])
    assert f"Final scores: {', '.join(map(str, record['final_scores']))}" in over.inner_text()
    shown = page.locator("#breakdown").inner_text()
    assert f"Hand {len(record['hands'])}" in shown
    # every point the preset awards, one line each (seven-point has no Game, cinch its
    # pedros), as the record scored the last hand
    awards = page.locator("#breakdown .awards li").all_inner_texts()
    assert len(awards) == len(record["hands"][-1]["points"]), (awards, record["hands"][-1])
    assert "High" in shown

    page.locator("#review-this").click()
    page.wait_for_selector("#review-out:not([hidden])", timeout=SECONDS)
    assert page.locator("#step-no").inner_text() == f"decision 1 of {len(mine)}"
    assert preset in page.locator("#review-summary").inner_text()  # the game's own rules
    verdicts = 0
    for _ in mine:
        verdicts += "coach:" in page.locator("#step").inner_text()
        page.keyboard.press("ArrowRight")
    # a put-down's step says pitchsim's card (4.8.7), unjudged
    assert verdicts == judged + sum(v.phase == "put_down" for v, _ in mine)
    assert not errors, errors


def test_a_table_the_rules_are_not_played_at_is_refused_and_the_page_goes_on(open_table):
    # a called partner needs 5 or 6 players (docs/rules.md 12.1, 6.3.7): the form offers
    # smear's counts 2-7 (the preset's), the rules typed narrow them, the server refuses
    # the start in one line (HTTP 400), shown; the same form, mended, starts the game and
    # the line goes
    page, errors = open_table(
        preset="smear", players=4, rules="partner=called", coach=False, seed=2
    )
    page.wait_for_selector("#error:not([hidden])", timeout=SECONDS)
    assert (
        page.locator("#error").inner_text().startswith("partner=called needs 5 or 6 players, not 4")
    )
    assert page.locator("#table").is_hidden()
    page.locator("#setup select[name=players]").select_option("5")
    page.locator("#setup #start").click()
    page.wait_for_function(
        "['your turn', 'over'].includes(document.body.dataset.status)", timeout=SECONDS
    )
    assert page.locator("#error").is_hidden()
    assert page.locator("#scores").inner_text().startswith("you 0")
    assert not errors, errors


def test_an_uploaded_record_is_reviewed_in_the_page(browser_site, open_table, tmp_path):
    # Review: "open a record (uploaded, or one of your saved games)": a bots' game of
    # smear (as `play --game --json` writes it), uploaded through the form and judged
    # for seat 1, one step per decision of that seat, each with the coach's verdict
    from pitchsim.game.rules import Rules
    from pitchsim.table.game import play_table_game
    from pitchsim.util.jsonio import dumps_json

    record = play_table_game(["heuristic"] * 3, Rules.parse("smear,target=3"), 4)
    path = tmp_path / "bots.json"
    path.write_text(dumps_json(record))
    mine = [(v, a) for v, a in views_of(replay(record, strategies=False)) if v.seat == 1]
    judged = sum(len(v.legal()) > 1 for v, _ in mine)

    # a saved game of another table beside it: the Saved game select picks the newest
    # save, and the upload was ignored for it (reviewed in its place, without a word)
    other = play_table_game(["heuristic"] * 4, Rules.parse("smear,target=3"), 5)
    (browser_site[1] / "game-20990101-000000-upload.json").write_text(dumps_json(other))

    page, errors = open_table("/#review")
    page.wait_for_selector(
        "#saves option[value='game-20990101-000000-upload.json']", state="attached"
    )
    form = page.locator("#review-form")
    form.locator("input[name=file]").set_input_files(str(path))
    form.locator("input[name=seat]").fill("1")
    form.locator("input[name=samples]").fill("300")
    form.locator("input[name=worlds]").fill("20")
    form.locator("#review-go").click()
    page.wait_for_selector("#review-out:not([hidden])", timeout=SECONDS)
    assert page.locator("#step-no").inner_text() == f"decision 1 of {len(mine)}"
    assert "smear" in page.locator("#review-summary").inner_text()
    verdicts = 0
    for _ in mine:
        verdicts += "coach:" in page.locator("#step").inner_text()
        page.keyboard.press("ArrowRight")
    assert verdicts == judged > 0
    assert not errors, errors


def test_the_table_names_the_dealer_who_robbed_under_cinch(open_table):
    # Under cinch the dealer robs the stock (rob=dealer, 12.7), not the pitcher (4.8
    # step 5 is rob=true's): a view of the pitcher whose partner dealt and robbed, drawn
    # by the page's own renderView, says the partner robbed (it said "you robbed").
    from pitchsim.table.game import play_table_game
    from pitchsim.web.sessions import view_json

    def the_view():
        for seed in range(1, 40):
            record = play_table_game(["heuristic"] * 4, Rules.parse("cinch"), seed)
            for view, _ in views_of(replay(record, strategies=False)):
                if view.phase == "play" and view.seat == view.pitcher == (view.dealer + 2) % 4:
                    return view
        pytest.fail("no hand where the dealer's partner pitched")

    view = the_view()
    page, errors = open_table()
    drawn = page.evaluate(
        "v => { renderView(v, table, null); return document.querySelector('#draw').textContent; }",
        view_json(view),
    )
    assert f"partner (seat {view.dealer}) robbed the stock" in drawn, drawn
    assert "you robbed" not in drawn
    assert not errors, errors
