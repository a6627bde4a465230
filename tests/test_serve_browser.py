"""The web table in a real browser (headless Chromium from the system's packages, driven
by Playwright): a whole game played through the page, keys for the calls and clicks for
the cards, with the coach on; then the same game reviewed step by step.

What the page did is checked against what the library says happened: the saved record
(replayed and checked by ``table.record.replay``) holds exactly the actions the test
chose, and the page showed the record's final scores and one coach's verdict per
decision that had a choice.
"""

from __future__ import annotations

import pytest
from browser import await_verdict, legal_actions, your_turn

from pitchsim.table.game import game_end_words
from pitchsim.table.record import replay, views_of
from pitchsim.util.jsonio import read_json

SECONDS = 120_000  # ms a step may take (the kernels may compile on a cold cache)


def test_a_whole_game_through_the_page_then_its_review(browser_site, open_table):
    _, saves, _ = browser_site
    page, errors = open_table(
        "/",
        {"width": 1100, "height": 900},
        players=2,
        rules="target=2",
        samples=400,
        worlds=30,
        seed=11,
    )

    chosen: list[str] = []
    judged = 0
    for _ in range(200):
        before = your_turn(page, SECONDS)
        if before is None:
            break
        legal, buttons = legal_actions(page)
        if page.locator("#choices button").count():  # the auction: by keyboard
            action = legal[-1] if len(chosen) % 2 == 0 else legal[0]  # the highest, or pass
            page.keyboard.press("p" if action == "pass" else action)
        else:  # the play: click the last legal card
            action = legal[-1]
            buttons.nth(len(legal) - 1).click()
        chosen.append(action)
        if len(legal) > 1:  # the coach judges every decision that had a choice
            judged += 1
            await_verdict(page, before, SECONDS)
    else:
        pytest.fail("the game did not end in 200 decisions")
    assert page.evaluate("document.body.dataset.status") == "over", page.locator(
        "#status"
    ).inner_text()
    over = page.locator("#over").inner_text()
    assert not errors, errors

    (name,) = [p.name for p in saves.iterdir() if p.suffix == ".json"]
    record = replay(read_json(str(saves / name), "the saved game"), strategies=False)
    # The test's choices are the person's actions in the record, in order: the seat
    # asks the page only when there is a choice (a forced move it takes itself).
    mine = [(v, a) for v, a in views_of(record) if v.seat == 0]
    assert chosen == [a for v, a in mine if len(v.legal()) > 1]
    assert judged == len(chosen)
    assert f"Final scores: {', '.join(map(str, record['final_scores']))}" in over
    # The score pills above the table show the final scores too, not the scores before
    # the last hand (the last view the person was asked about).
    pills = [t.split()[-1] for t in page.locator("#scores .score").all_inner_texts()]
    final = record["final_scores"]
    seat = 0
    want = [final[seat % 2], final[1 - seat % 2]] if record.get("partnership") else final
    assert pills == [str(x) for x in want], (pills, final)
    # How the game ended, in the words the server sends (table.game.game_end_words,
    # the terminal's too), shown as given: the page words nothing itself.
    words = page.locator("#over h3").inner_text()
    assert words == game_end_words(record, 0, False), words
    assert words in ("You won the game", "Seat 1 won the game")
    # whatever the words (a tie the page once misnamed "Seat null won the game")
    shown = page.evaluate(
        """(w) => { game = { ...game, result_words: w }; renderGame();
                    return document.querySelector('#over h3').textContent; }""",
        "Tied on top: seat 1, you share the win",
    )
    assert shown == "Tied on top: seat 1, you share the win"
    assert len(record["practice"]["judgements"]) == judged
    # The end of the last hand, broken down as the record scores it.
    last = record["hands"][-1]
    shown = page.locator("#breakdown").inner_text()
    for k in ("High", "Low", "Jack", "Game"):
        assert k in shown
    assert f"bid {last['bid']}" in shown

    # Review: the game's own judgements, one step per decision of the seat.
    page.locator("#review-this").click()
    page.wait_for_selector("#review-out:not([hidden])", timeout=SECONDS)
    assert "the coach during the game" in page.locator("#review-summary").inner_text()
    steps = len(mine)
    assert page.locator("#step-no").inner_text() == f"decision 1 of {steps}"
    verdicts = 0
    for i in range(steps):
        text = page.locator("#step").inner_text()
        assert card_text_of(mine[i][1]) in text.splitlines()[0]
        verdicts += "coach:" in text
        page.keyboard.press("ArrowRight")
    assert verdicts == judged
    assert page.locator("#step-no").inner_text() == f"decision {steps} of {steps}"
    assert not errors, errors


def card_text_of(action: str) -> str:
    """An action as the page writes it in a step's heading: a card as rank and suit
    symbol, a ten as 10."""
    if action == "pass" or action.isdigit():
        return action
    rank, suit = action[:-1], action[-1]
    return ("10" if rank == "T" else rank) + dict(C="♣", D="♦", H="♥", S="♠")[suit]


def test_a_missing_browser_skips_here_and_fails_in_ci(monkeypatch):
    # Done when "the browser test passes in CI": a CI run without chromium or
    # playwright must not pass by skipping every browser test.
    from browser import missing

    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match="no chromium"):
        missing("chromium")
    for ci in ("true", "1"):
        monkeypatch.setenv("CI", ci)
        with pytest.raises(pytest.fail.Exception, match="CI: the browser tests need chromium"):
            missing("chromium")
