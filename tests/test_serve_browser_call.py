"""The pitcher's call of a partner's card in the page (docs/rules.md 12.1.2): after naming
trump at a called-partner table the person is asked for the call, one button a
callable card (as the trump-naming buttons), and the card clicked is the call every
later view carries; a key picks a card by its number as the terminal numbers them."""

from __future__ import annotations

import pytest
from browser import pitch, turn

from pitchsim.game.reference.partner import callable_cards
from pitchsim.game.rules import Rules
from pitchsim.game.view import partner_call_text

SECONDS = 600_000  # ms a step may take (kernels may compile on a cold cache)


@pytest.mark.parametrize("by_key", [False, True])
def test_12_1_2_the_person_calls_a_partners_card_by_its_button(open_table, by_key):
    r = Rules.parse("smear,partner=called")
    for seed in range(1, 12):
        page, errors = open_table(
            preset="smear", players=5, rules="partner=called", coach=False, seed=seed
        )
        if pitch(page, SECONDS) == "Call your partner's card":  # hearts (12.1.2)
            break
        page.close()
    else:
        pytest.fail("the person never pitched")
    assert page.evaluate("game.view.phase") == "call"
    assert "the numbers call your partner's card" in page.locator("#play .keys").inner_text()
    buttons = page.locator("#choices button.partner-call")
    offered = [buttons.nth(i).get_attribute("data-call") for i in range(buttons.count())]
    want = [partner_call_text(c) for c in callable_cards(2, r)]  # hearts (12.1.2)
    assert sorted(offered) == sorted(want)
    assert offered == page.evaluate("game.view.choices")  # numbered as the terminal does
    pick = offered[1]  # the second shown: the king of hearts, or below it
    if by_key:
        page.keyboard.press("2")
    else:
        buttons.nth(1).click()
    page.wait_for_function("!game.view || game.view.phase !== 'call'", timeout=60_000)
    assert turn(page, SECONDS) in ("your turn", "over")
    assert page.evaluate("game.view.called") == pick[len("call:") :]
    assert not errors, errors


def test_12_1_2_the_coachs_panel_shows_the_calls_note(open_table):
    """With the coach on, a call other than pitchsim's is valued in a note (not a
    judgement) that the coach's panel shows, not only the log."""
    from pitchsim.game.reference.partner import highest_missing_trump

    r = Rules.parse("smear,partner=called")
    for seed in range(1, 12):
        page, errors = open_table(
            preset="smear", players=5, rules="partner=called", coach=True, seed=seed,
            samples=200, worlds=8,
        )  # fmt: skip
        if pitch(page, SECONDS) == "Call your partner's card":  # hearts (12.1.2)
            break
        page.close()
    else:
        pytest.fail("the person never pitched")
    hand = page.evaluate("game.view.hand")
    from pitchsim.game.cards import mask_of, parse_cards

    want = partner_call_text(highest_missing_trump(mask_of(parse_cards(" ".join(hand))), 2, r))
    buttons = page.locator("#choices button.partner-call")
    offered = [buttons.nth(i).get_attribute("data-call") for i in range(buttons.count())]
    buttons.nth(next(i for i, c in enumerate(offered) if c != want)).click()
    page.wait_for_function("document.querySelector('#coach .call-note') !== null", timeout=SECONDS)
    said = page.locator("#coach .call-note").inner_text()
    assert said.startswith("coach: pitchsim calls") and "deals fitting your hand" in said
    assert not errors, errors
