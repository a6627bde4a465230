"""The called partner (docs/rules.md 12.1), in plain Python: the cards the pitcher may
call, pitchsim's call, and who the partner is when play starts.  The sides this makes
for the points are ``score.sides_of``.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence

from pitchsim.game.cards import N_CARDS, N_CARDS_WITH_JOKERS, format_card, joker_cards
from pitchsim.game.reference.tricks import trump_order
from pitchsim.game.rules import Rules


def callable_cards(trump: int, rules: Rules) -> list[int]:
    """The cards the pitcher may call, lowest first.  partner=called (12.1.2): a trump,
    any of the trump order of the rules in force (the jick, the left pedro and the
    jokers where the rules have them), also one he holds or one the pack leaves out.
    partner=announced (12.1.4): any card, the rules' jokers included.  None without a
    called partner."""
    if rules.partner == "called":
        return trump_order(rules, trump)
    if rules.partner == "announced":
        return list(range(N_CARDS)) + joker_cards(rules.jokers)
    return []


def checked_call(c: object, trump: int, rules: Rules) -> int:
    """``c`` as a plain int card the pitcher may call (``callable_cards``), else
    ``ValueError`` naming the clause."""
    try:
        c = operator.index(c)  # accepts numpy integers from policies
    except TypeError:
        raise ValueError(f"the pitcher's call {c!r} is not a card") from None
    if c not in callable_cards(trump, rules):
        what = "a trump (12.1.2)" if rules.partner == "called" else "a card (12.1.4)"
        shown = format_card(c, symbols=False) if 0 <= c < N_CARDS_WITH_JOKERS else str(c)
        raise ValueError(f"the pitcher called {shown}, which is not {what}")
    return c


def highest_missing_trump(hand: int, trump: int, rules: Rules) -> int:
    """pitchsim's call, under called and announced alike (12.1.2, 12.1.4): the highest
    trump of the trump order that ``hand`` (a mask) does not hold, as Trickster's bot
    calls; a hand holding every trump calls the highest."""
    order = trump_order(rules, trump)
    missing = [c for c in order if not hand >> c & 1]
    return (missing or order)[-1]


def partner_of(held: Sequence[int], pitcher: int, called: int) -> int | None:
    """12.1.5: the seat holding the called card when play starts (``held``), or None
    when nobody but the pitcher does (his own, robbed or drawn by him, or out of play)
    or nothing was called (``called`` < 0)."""
    if called < 0:
        return None
    holder = next((s for s, m in enumerate(held) if m >> called & 1), None)
    return None if holder == pitcher else holder


def known_partner(
    rules: Rules,
    seat: int,
    pitcher: int,
    called: int,
    partner: int | None,
    pitcher_holds: bool,
    played: bool,
) -> int | None:
    """The pitcher's partner as ``seat`` knows him (12.1.2-12.1.5): None while unknown to
    ``seat``, else the partner's seat, or the pitcher's own when he is known to play
    alone.  ``partner`` is the holder when play starts (``partner_of``), ``pitcher_holds``
    whether the pitcher holds his own call then, ``played`` whether the called card has
    been played.  Under announced everybody knows at once (12.1.4); under called only the
    partner (and a pitcher holding his own call) know until the card is played (12.1.2,
    12.1.3)."""
    if called < 0:
        return None
    if rules.partner == "announced" or played:
        return pitcher if partner is None else partner
    if seat == partner or (seat == pitcher and pitcher_holds):
        return seat
    return None
