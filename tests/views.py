"""A player's view (docs/view.md) as JSON, built in one line: the tests that hand-build a
position to ask the engine, the coach or the view about."""

from __future__ import annotations


def view_doc(
    rules: str,
    seat: int,
    dealer: int,
    hand: str,
    calls: str = "",
    tricks: tuple[tuple[int, str], ...] = (),
    players: int = 4,
    **more,
) -> dict:
    """The view's JSON: ``hand`` and each trick's cards as space-separated card names,
    ``calls`` as space-separated calls, ``tricks`` as (leader, cards) pairs; ``more``
    adds the other fields as they are (``scores``, ``trump``, ``hands_played`` ...)."""
    doc = {
        "rules": rules,
        "players": players,
        "seat": seat,
        "dealer": dealer,
        "hand": hand.split(),
        "calls": calls.split(),
    }
    if tricks:
        doc["tricks"] = [{"leader": lead, "cards": cards.split()} for lead, cards in tricks]
    return doc | more


def pitcher_and_defender(rules, players: int, seeds, need, least_legal: int = 2) -> dict:
    """A pitcher's and a defender's card decision, each with ``least_legal`` legal cards
    or more and trump known, from games of ``odds+heuristic`` seats under ``rules``, one
    game a seed: ``{"pitcher": (view, action, need), "defender": ...}``, the first
    decisions for which ``need(view)`` is not None."""
    from pitchsim.table.game import play_table_game
    from pitchsim.table.record import views_of

    found: dict = {}
    for seed in seeds:
        record = play_table_game(["odds+heuristic"] * players, rules, seed)
        for view, action in views_of(record):
            if view.phase != "play" or len(view.legal()) < least_legal or view.trump is None:
                continue
            n = need(view)
            if n is None:
                continue
            side = "pitcher" if view.seat == view.pitcher else "defender"
            found.setdefault(side, (view, action, n))
        if len(found) == 2:
            return found
    raise AssertionError(f"no such decisions in {len(seeds)} games: {sorted(found)}")
