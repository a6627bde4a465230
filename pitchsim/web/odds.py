"""The odds for the page: ``bid-odds`` and ``advise`` for one hand at one table, as
the commands compute them (``advice.odds.bid_odds``, ``advice.advise.advise``), under
the base game or any preset: the hand is the seat's whole deal (6 cards, 9 or 10 under
ten-point's deal), the levels 1 .. the preset's maximum bid."""

from __future__ import annotations

from ..game.cards import SUITS, parse_cards
from ..game.rules import Rules
from ..util.errors import InputError


def trumps_of(hand: str, rules: Rules) -> list[str]:
    """The suits the Odds form may name as trump for ``hand``: those ``bid_odds``
    accepts (``advice.odds.trump_suits``: under trump=named a suit in which the hand
    holds a trump, its jick counted; else a suit it holds)."""
    from ..advice.odds import trump_suits

    return [SUITS[t] for t in trump_suits(parse_cards(hand, jokers=rules.jokers), rules)]


def odds_of(
    hand: str,
    players: int,
    rules: Rules,
    samples: int,
    seat: int,
    dealer: int,
    calls: str,
    scores: str,
    seed: int | None,
    trump: str | None = None,
) -> dict:
    """Both answers as their commands' ``--json``; advise's refusal (a rule family it
    does not play, calls that cannot have happened) is its error, beside bid-odds."""
    from ..advice.advise import advise
    from ..advice.odds import bid_odds
    from ..util.runtime import pick_seed

    if not hand:
        r = rules
        jokers = (
            " (HJ and LJ the jokers)" if r.jokers == 2 else " (HJ the joker)" if r.jokers else ""
        )
        each = r.cards_each(players)
        example = ", e.g. AH KH 2H 9C 7D 3S" if each == 6 else ""
        raise InputError(f"type a hand of {each} cards{jokers}{example}")
    seed = pick_seed(seed)
    odds = bid_odds(
        hand, players, samples, seed, trump=trump, rules=rules, partnership=rules.partnership
    )
    out = {"bid_odds": odds.to_json(), "advise": None, "advise_error": None}
    try:
        a = advise(
            hand,
            players=players,
            seat=seat,
            dealer=dealer,
            calls=calls or None,
            scores=scores or None,
            rules=rules,
            samples=samples,
            seed=seed,
        )
        out["advise"] = a.to_json()
    except InputError as e:
        out["advise_error"] = str(e)
    return out
