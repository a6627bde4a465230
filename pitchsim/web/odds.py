"""The odds for the page: ``bid-odds`` and ``advise`` for one hand at one table, as
the commands compute them (``advice.odds.bid_odds``, ``advice.advise.advise``)."""

from __future__ import annotations

from ..game.rules import Rules
from ..util.errors import InputError


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
) -> dict:
    """Both answers as their commands' ``--json``; advise's refusal (a rule family it
    does not play, calls that cannot have happened) is its error, beside bid-odds."""
    from ..advice.advise import advise
    from ..advice.odds import bid_odds
    from ..util.runtime import pick_seed

    if not hand:
        raise InputError("type a hand of six cards, e.g. AH KH 2H 9C 7D 3S")
    seed = pick_seed(seed)
    odds = bid_odds(hand, players, samples, seed, rules=rules, partnership=rules.partnership)
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
