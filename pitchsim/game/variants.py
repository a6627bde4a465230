"""What each rule option means, in a player's words: for ``--rules`` help, ``pitchsim
rules`` and docs/rules.md (a test checks every :class:`pitchsim.game.rules.Rules` field is
described here and every value listed is accepted)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Variant:
    key: str  # as typed in --rules
    values: tuple[str, ...]  # the base value first
    meaning: dict[str, str]  # value -> what it does ("N" for any whole number)


VARIANTS = (
    Variant(
        "low",
        ("captured", "dealt"),
        {
            "captured": "Low goes to whoever wins the lowest trump in a trick",
            "dealt": "Low goes to the player who was dealt the lowest trump",
        },
    ),
    Variant(
        "min-bid",
        ("1", "2"),
        {
            "1": "the lowest bid is 1",
            "2": "the lowest bid is 2",
        },
    ),
    Variant(
        "all-pass",
        ("forced", "redeal"),
        {
            "forced": "when everyone else passes, the dealer must bid 2, 3 or 4",
            "redeal": "the dealer may pass too; then the same dealer deals again",
        },
    ),
    Variant(
        "dealer-steal",
        ("true", "false"),
        {
            "true": "the dealer takes a bid of 1-3 by bidding the same number",
            "false": "the dealer must bid higher, like everyone else",
        },
    ),
    Variant(
        "follow",
        ("trump", "suit"),
        {
            "trump": "follow suit or play a trump, even when able to follow",
            "suit": "follow suit when able; trump only when void",
        },
    ),
    Variant(
        "target",
        ("7", "N"),
        {
            "7": "a game is played to 7 points",
            "N": "played to N points (any of 1-100; 11, 15 and 21 are common)",
        },
    ),
    Variant(
        "set-pitcher-wins",
        ("false", "true"),
        {
            "false": "a set pitcher does not win, even with the target reached",
            "true": "a pitcher at or past the target at the end of a hand wins even when set",
        },
    ),
    Variant(
        "partnership",
        ("false", "true"),
        {
            "false": "every player for himself",
            "true": "4 players in two teams, partners opposite (seats 0+2 vs 1+3)",
        },
    ),
)
BY_KEY = {v.key: v for v in VARIANTS}


def rules_help() -> str:
    """One line for ``--rules`` help: every key with its values, the base value first."""
    from .rules import FAMILIES  # rules.py needs nothing of this module: no circle

    keys = ", ".join(f"{v.key}={'|'.join(v.values)}" for v in VARIANTS)
    return (
        f"A preset ({', '.join(FAMILIES)}; auction-pitch when none is named), then "
        f"options, comma-separated: smear,target=15. Base game options (base value "
        f"first): {keys}; or a TOML file. `pitchsim rules --rules PRESET` explains a "
        "preset and its own options."
    )
