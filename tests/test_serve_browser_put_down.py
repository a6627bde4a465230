"""The put-down coming down to 6 in the page (docs/rules.md 12.8.1, 12.2.2): under
discard=choice with 9 dealt the person puts down 3 cards, one a decision, each card of
his hand a button drawn as the card (a key picks it by its number, as the terminal
numbers them); the status says how many more, the keys line says so, and the cards put
down are gone from his hand when play starts (the draw line lists them).  Under
discard=draw (12.8.2) he puts down cards of his hand one a decision (non-trumps, a
trump only beyond 6, keeping 3); once he holds 6 or fewer a "draw" button (numbered
last, and the key d) stops and draws him back to 6."""

from __future__ import annotations

import pytest
from browser import pitch, turn

SECONDS = 600_000  # ms a step may take (kernels may compile on a cold cache)


def _pitched(open_table, discard: str):
    """smear at 4 players, 9 dealt, ``discard=...``, seed 3, the person the dealer (so
    the last to put down): the page, its errors and the status once he has pitched."""
    page, errors = open_table(
        preset="smear", players=4, rules=f"deal=9,discard={discard}", coach=False, seed=3
    )
    return page, errors, pitch(page, SECONDS)


def _put_down(page, buttons, k: int, by_key: bool, held: int) -> str:
    """The person puts down the offered card ``k`` (from 0) by its button or its number
    key; its card, once his hand of ``held`` cards is one card shorter."""
    pick = buttons.nth(k).get_attribute("data-call")
    if by_key:
        page.keyboard.press(str(k + 1))
    else:
        buttons.nth(k).click()
    page.wait_for_function(f"!game.view || game.view.held.length !== {held}", timeout=60_000)
    return pick[len("down:") :]


@pytest.mark.parametrize("by_key", [False, True])
def test_12_8_1_the_person_puts_down_three_cards_by_their_buttons(open_table, by_key):
    page, errors, status = _pitched(open_table, "choice")
    assert status == "Put down a card (3 more)"
    assert "coming down to 6 the numbers put down" in page.locator("#play .keys").inner_text()
    gone = []
    for more in (3, 2, 1):
        assert turn(page, SECONDS) == "your turn"
        assert page.evaluate("game.view.phase") == "put_down"
        assert page.locator("#status").inner_text() == f"Put down a card ({more} more)"
        held = page.evaluate("game.view.held")
        assert len(held) == 6 + more and not set(held) & set(gone)
        buttons = page.locator("#hand button.put-down")
        offered = [buttons.nth(i).get_attribute("data-call") for i in range(buttons.count())]
        assert offered == page.evaluate("game.view.choices")  # numbered as the terminal does
        assert offered == ["down:" + c for c in held]  # every card held (no called trump)
        gone.append(_put_down(page, buttons, 1, by_key, 6 + more))
    assert turn(page, SECONDS) in ("your turn", "over")
    assert page.evaluate("game.view.phase") in ("play", "over")
    assert not set(page.evaluate("game.view.held")) & set(gone)
    assert sorted(page.evaluate("game.view.draw.mine.discarded")) == sorted(gone)
    assert "Draw: you put down 3" in page.locator("#play").inner_text()
    assert not errors, errors


@pytest.mark.parametrize("by_key", [False, True])
def test_12_8_2_the_person_puts_down_then_draws_by_the_draw_button(open_table, by_key):
    page, errors, status = _pitched(open_table, "draw")
    assert status == "Put down a card, or draw"
    assert "d draws back to 6" in page.locator("#play .keys").inner_text()
    gone, stopped_at = [], None
    while True:
        assert turn(page, SECONDS) == "your turn"
        if page.evaluate("game.view.phase") != "put_down":
            break
        held = page.evaluate("game.view.held")
        choices = page.evaluate("game.view.choices")
        buttons = page.locator("#hand button.put-down")
        offered = [buttons.nth(i).get_attribute("data-call") for i in range(buttons.count())]
        assert offered == [a for a in choices if a != "draw"]  # numbered as the terminal
        draw = page.locator("#choices button.draw")
        assert draw.count() == (1 if len(held) <= 6 else 0)  # 12.8.2: at least the excess
        if len(held) <= 5 or not offered:  # stop: draw back to 6
            assert choices[-1] == "draw"
            stopped_at = len(held)
            if by_key:
                page.keyboard.press("d")
            else:
                draw.click()
            page.wait_for_function("!game.view || game.view.phase !== 'put_down'", timeout=60_000)
            continue
        gone.append(_put_down(page, buttons, 0, by_key, len(held)))
    assert stopped_at is not None
    assert page.evaluate("game.view.phase") == "play"
    mine = page.evaluate("game.view.draw.mine")
    assert sorted(mine["discarded"]) == sorted(gone)
    assert len(mine["drawn"]) == 6 - stopped_at
    assert f"Draw: you put down {len(gone)}" in page.locator("#play").inner_text()
    assert not errors, errors
