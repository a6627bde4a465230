"""The put-down under discard=draw in the page (docs/rules.md 12.8.2): with 9 dealt the
person puts down cards of his hand one a decision (non-trumps, a trump only beyond 6,
keeping 3), each a button drawn as the card; once he holds 6 or fewer a "draw" button
(numbered last, and the key d) stops and draws him back to 6. The status and the keys
line say so, and the draw line lists what he put down and drew."""

from __future__ import annotations

import pytest
from browser import pitch, turn

SECONDS = 600_000  # ms a step may take (kernels may compile on a cold cache)


@pytest.mark.parametrize("by_key", [False, True])
def test_12_8_2_the_person_puts_down_then_draws_by_the_draw_button(open_table, by_key):
    page, errors = open_table(
        preset="smear", players=4, rules="deal=9,discard=draw", coach=False, seed=3
    )
    assert pitch(page, SECONDS) == "Put down a card, or draw"  # the dealer, last
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
        pick = offered[0]
        if by_key:
            page.keyboard.press("1")
        else:
            buttons.nth(0).click()
        gone.append(pick[len("down:") :])
        page.wait_for_function(
            f"!game.view || game.view.held.length !== {len(held)}", timeout=60_000
        )
    assert stopped_at is not None
    assert page.evaluate("game.view.phase") == "play"
    mine = page.evaluate("game.view.draw.mine")
    assert sorted(mine["discarded"]) == sorted(gone)
    assert len(mine["drawn"]) == 6 - stopped_at
    assert f"Draw: you put down {len(gone)}" in page.locator("#play").inner_text()
    assert not errors, errors
