"""The put-down coming down to 6 in the page (docs/rules.md 12.8.1, 12.2.2): under
discard=choice with 9 dealt the person puts down 3 cards, one a decision, each card of
his hand a button drawn as the card (a key picks it by its number, as the terminal
numbers them); the status says how many more, the keys line says so, and the cards put
down are gone from his hand when play starts (the draw line lists them)."""

from __future__ import annotations

import pytest
from browser import pitch, turn

SECONDS = 600_000  # ms a step may take (kernels may compile on a cold cache)


@pytest.mark.parametrize("by_key", [False, True])
def test_12_8_1_the_person_puts_down_three_cards_by_their_buttons(open_table, by_key):
    page, errors = open_table(
        preset="smear", players=4, rules="deal=9,discard=choice", coach=False, seed=3
    )
    assert pitch(page, SECONDS) == "Put down a card (3 more)"  # the dealer, last
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
        pick = offered[1]
        if by_key:
            page.keyboard.press("2")
        else:
            buttons.nth(1).click()
        gone.append(pick[len("down:") :])
        page.wait_for_function(
            f"!game.view || game.view.held.length !== {6 + more}", timeout=60_000
        )
    assert turn(page, SECONDS) in ("your turn", "over")
    assert page.evaluate("game.view.phase") in ("play", "over")
    assert not set(page.evaluate("game.view.held")) & set(gone)
    assert sorted(page.evaluate("game.view.draw.mine.discarded")) == sorted(gone)
    assert "Draw: you put down 3" in page.locator("#play").inner_text()
    assert not errors, errors
