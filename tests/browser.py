"""The browser tests' page set-up (tests/conftest.py's ``open_table`` fixture uses it;
a test that looks at the game's form before starting calls :func:`start_game` itself)."""

import os

import pytest

DESKTOP = {"width": 1000, "height": 1000}
PHONE = {"width": 390, "height": 844}  # an iPhone 12-15's width in CSS pixels
SELECTS = ("preset", "players", "kitty")  # the game form's selects; "coach" a check box


def start_game(page, **game) -> None:
    """The game's form filled in the order given (``preset="smear"``, ``players=3``,
    ``rules``, ``opponents``, ``samples``, ``worlds``, ``seed``, ``kitty``,
    ``coach=False``), the rest left as the page has it, and the game started."""
    form = page.locator("#setup")
    for name, value in game.items():
        if name == "coach":
            form.locator("input[name=coach]").set_checked(value)
        elif name in SELECTS:
            form.locator(f"select[name={name}]").select_option(str(value))
        else:
            form.locator(f"input[name={name}]").fill(str(value))
    form.locator("#start").click()


def your_turn(page, timeout: int, refused: bool = False) -> int | None:
    """Wait (``timeout`` ms) until the person has a decision, the game is over or the
    page shows an error (``refused``: also the start form's refusal line).  The coach's
    verdict count (``await_verdict``'s ``before``) when it is the person's turn, else
    None."""
    done = "['your turn', 'over', 'error'].includes(document.body.dataset.status)"
    if refused:
        done += " || !document.querySelector('#error').hidden"
    page.wait_for_function(done, timeout=timeout)
    if page.evaluate("document.body.dataset.status") != "your turn":
        return None
    return int(page.locator("#coach").get_attribute("data-count") or 0)


def turn(page, timeout: int) -> str:
    """Wait (``timeout`` ms) as :func:`your_turn` does: the page's status then (``"your
    turn"``, ``"over"`` or ``"error"``)."""
    your_turn(page, timeout)
    return page.evaluate("document.body.dataset.status")


def pitch(page, timeout: int, suit: str = "H") -> str:
    """The person bids the most offered (never a shoot) and, where the rules ask it,
    names ``suit`` trump; the status line of his next decision (``"Your card"``, ...)."""
    for _ in range(3):
        assert turn(page, timeout) == "your turn"
        text = page.locator("#status").inner_text()
        buttons = page.locator("#choices button")
        offered = [buttons.nth(i).get_attribute("data-call") for i in range(buttons.count())]
        if text == "Your call":
            buttons.nth(len(offered) - 1 if offered[-1] != "shoot" else -2).click()
        elif text == "Name trump":
            buttons.nth(offered.index("trump:" + suit)).click()
        else:
            return text
    turn(page, timeout)
    return page.locator("#status").inner_text()


def legal_actions(page):
    """The person's legal actions now and their buttons: the calls (``data-call``) in
    the auction or naming trump, else the hand's legal cards (``data-card``)."""
    calls = page.locator("#choices button")
    if calls.count():
        return [calls.nth(i).get_attribute("data-call") for i in range(calls.count())], calls
    cards = page.locator("#hand button.legal")
    return [cards.nth(i).get_attribute("data-card") for i in range(cards.count())], cards


def await_verdict(page, before: int, timeout: int) -> None:
    """Wait (``timeout`` ms) until the coach has judged one more decision than
    ``before`` (the page counts its verdicts in ``#coach``'s ``data-count``), and check
    that the verdict reads as the coach's."""
    page.wait_for_function(
        f"Number(document.querySelector('#coach').dataset.count || 0) > {before}",
        timeout=timeout,
    )
    assert page.locator("#coach .verdict").inner_text().startswith("coach:")


def missing(what: str) -> None:
    """The browser tests cannot run here (``what`` is missing): skipped, saying so, on a
    developer's machine; failed in CI (``CI=true``, which .ci/run is run with), where
    .ci/run installs both, so that a browser test never passes CI by being skipped."""
    if os.environ.get("CI", "").lower() in ("true", "1"):
        pytest.fail(f"CI: the browser tests need {what} (.ci/run installs it)", pytrace=False)
    pytest.skip(f"no {what}")
