"""The robber's come-down in the page (docs/rules.md 4.8.7, 4.8.5): pitching at
ten-point, the person robs the stock and puts down one card a decision until he holds
6, his non-trumps first: only the cards he may put down are buttons (numbered as the
terminal numbers them, a key picks one), the trumps he must keep are not; the status
says how many more, and when play starts the draw line says what he took and put down."""

from __future__ import annotations

import pytest
from browser import pitch, turn

SECONDS = 600_000  # ms a step may take (kernels may compile on a cold cache)


@pytest.mark.parametrize("by_key", [False, True])
def test_4_8_7_the_robber_puts_down_by_the_buttons_non_trumps_first(open_table, by_key):
    page, errors = open_table(preset="ten-point", players=4, coach=False, seed=4)
    status = pitch(page, SECONDS)
    assert status.startswith("Put down a card ("), status
    assert "coming down to 6 the numbers put down" in page.locator("#play .keys").inner_text()
    gone = []
    while page.evaluate("game.view && game.view.phase") == "put_down":
        held = page.evaluate("game.view.held")
        more = len(held) - 6
        assert page.locator("#status").inner_text() == f"Put down a card ({more} more)"
        trumps = set(page.evaluate("game.view.trumps"))
        buttons = page.locator("#hand button.put-down")
        offered = [buttons.nth(i).get_attribute("data-call") for i in range(buttons.count())]
        assert offered == page.evaluate("game.view.choices")  # numbered as the terminal does
        non = [c for c in held if c not in trumps]
        # 4.8.7: while he holds a non-trump only they are buttons, then every trump
        assert sorted(a[len("down:") :] for a in offered) == sorted(non or held)
        pick = offered[-1]
        if by_key:
            page.keyboard.press(str(len(offered)) if len(offered) < 10 else "0")
        else:
            buttons.nth(len(offered) - 1).click()
        gone.append(pick[len("down:") :])
        page.wait_for_function(
            f"!game.view || game.view.held.length !== {len(held)}", timeout=60_000
        )
        turn(page, SECONDS)
    assert gone and page.evaluate("game.view.phase") in ("play", "over")
    assert not set(page.evaluate("game.view.held")) & set(gone)
    assert page.evaluate("game.view.draw.mine.put_down") == gone
    line = page.locator("#draw .line", has_text="robbed the stock").inner_text()
    assert line.startswith("you robbed the stock") and "put down" in line
    assert not errors, errors
