"""A seat's answer, checked: a legal action as the protocol writes it, or the reason the
seat forfeits its game (the table never plays in a seat's place)."""

from __future__ import annotations

from ..game.view import View, ViewError, call_text, normal_action, parse_call


class StopGame(BaseException):  # noqa: N818  (not an error: a person chose to stop)
    """Raised by a seat to stop the game where it stands (a person quitting): the table
    returns the record so far, its last hand marked incomplete, to be resumed later."""


class Forfeit(Exception):
    """A seat's answer that ends the game: late, malformed, illegal, or no answer."""

    def __init__(self, seat: int, reason: str):
        super().__init__(f"seat {seat}: {reason}")
        self.seat = seat
        self.reason = reason


def checked_action(view: View, answer: object) -> str:
    """The answer as the protocol writes it, if legal; else :class:`ValueError`.  Under
    every preset: a call (``"pass"``, ``"6"``, ``"shoot"``; a bid also as ``"04"``, a pass
    as ``"0"``, docs/view.md), the naming of trump (``"trump:H"``) or a card (``"6h"``,
    ``"HJ"`` a joker), in any case."""
    legal = view.legal()
    if isinstance(answer, str):
        text = normal_action(answer, view.rules)
        if view.phase == "auction":
            try:
                text = call_text(parse_call(text, "the call", view.rules), view.rules)
            except ViewError:
                pass
        if text in legal:
            return text
        shown = answer if len(answer) <= 20 else answer[:17] + "..."
        raise ValueError(f"{shown!r} is not a legal action (legal: {' '.join(legal)})")
    raise ValueError(f"answered {type(answer).__name__}, not an action string")
