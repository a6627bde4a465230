"""A hand, trump or bid fixed by the player (``pitchsim play --hand --trump --bid``,
``table.boards.board_hand``), checked against the rules in one line naming the
rule.  Light: the command line asks it before any kernel loads."""

from __future__ import annotations

from ..game.cards import SUITS, format_card, suit_cards
from ..game.rules import Rules, label
from ..util.errors import InputError


def check_fixed(rules: Rules, n: int, hand: int, trump: int, bid: int | None) -> None:
    """Refuse seat 0's fixed ``hand`` (a mask; 0: dealt), ``trump`` (-1: none) or ``bid``
    (None: an auction) where the preset's rules do not allow them."""
    each = rules.cards_each(n)
    if hand:
        if hand.bit_count() != each:
            raise InputError(
                f"--hand: {label(rules)} deals {each} cards each at {n} players, not "
                f"{hand.bit_count()}"
            )
        pack = sum(1 << c for c in rules.pack(n))
        if hand & ~pack:
            bad = format_card((hand & ~pack).bit_length() - 1, symbols=False)
            raise InputError(f"--hand: {bad} is not in the pack of {label(rules)} at {n} players")
    if bid is not None and not rules.min_bid <= bid <= rules.max_bid:
        raise InputError(
            f"--bid must be {rules.min_bid}-{rules.max_bid} under {label(rules)} (its "
            f"minimum bid to its maximum), not {bid}"
        )
    if trump >= 0 and hand and rules.trump == "first-lead" and not hand & suit_cards(trump):
        # The first card led fixes trump (6.3.5): seat 0 could never lead it in, so the
        # option would only ever do nothing.
        raise InputError(
            f"--trump {SUITS[trump]}: under {label(rules)} the first card led fixes trump "
            "(6.3.5), and the hand holds no card of that suit"
        )
