"""Random one-hand games of the reference engine (``game.reference.play_game``): every
call, named trump and card drawn at random from the legal ones, for the tests that cut
views from them (tests/test_kitty_view.py, tests/test_partner_view.py,
tests/test_partner_worlds.py)."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

from pitchsim.game import reference as F
from pitchsim.game.cards import cards_of
from pitchsim.game.rules import Rules
from pitchsim.game.view import cut_hand


def random_hands(
    spec: str, n: int, count: int, seed: int, caller: Callable | None = None
) -> Iterator[tuple]:
    """(rules, hand, the reference's views at each card decision, in order) for each of
    ``count`` one-hand games of ``spec`` at ``n`` players that reached the play (a hand
    everybody passed has none).  Game g deals from ``seed * 1000 + g``; the choices come
    from one stream of ``seed``, so the same arguments give the same hands.  ``caller``:
    the pitcher's call of a partner's card (``play_game``'s; default pitchsim's)."""
    rules = Rules.parse(spec)
    pick = random.Random(seed)
    for g in range(count):
        seen: list = []

        def choose(view, seen=seen):
            seen.append(view)
            return pick.choice(cards_of(view.legal))

        game = F.play_game(
            n, rules, random.Random(seed * 1000 + g),
            lambda s, h, calls, legal, sc: pick.choice(legal),
            lambda seat, hand: pick.randrange(4), choose, max_hands=1, caller=caller,
        )  # fmt: skip
        for hand in game.hands:
            if hand.play is not None:
                yield rules, hand, seen


def card_views(rules, hand, n: int) -> Iterator[tuple]:
    """(seat, view document, card played) at each card decision of ``hand``, cut from it
    (``cut_hand``) at scores of zero."""
    for seat, doc, action in cut_hand(hand, n, rules, [0] * n):
        if "tricks" in doc and not action.startswith("call:"):  # (12.1.4's call, after the draw)
            yield seat, doc, action
