"""A record reviewed for the page: every decision of one seat, its view and the coach's
judgement, in order, to step through.

The judgements are ``coach.review``'s (each decision valued from the view it had, with
the seeds ``pitchsim practice`` and ``pitchsim review`` use), or, for a game played with
the coach on, the ones the coach gave during the game (stored in the record), unless
``again`` asks for them anew.
"""

from __future__ import annotations

from dataclasses import replace

from ..coach.judge import COACH_TIME, GAME_UNITS, Judgement, judged
from ..coach.practice import stored_notes
from ..coach.review import ReviewError, note_on, review
from ..game.rules import label
from ..table.record import _rules, replay, views_of
from .sessions import hand_ends, judgement_json, view_json


def stored_judgements(record: dict, seat: int) -> list[Judgement] | None:
    """The judgements the coach gave ``seat`` during the game, if the record has them."""
    p = record.get("practice")
    if not isinstance(p, dict) or p.get("seat") != seat or not p.get("coach"):
        return None
    try:
        return [Judgement(**j) for j in p.get("judgements", [])]
    except TypeError:
        raise ReviewError("the record's judgements cannot be read") from None


def review_record(
    record: object,
    seat: int | None,
    samples: int,
    worlds: int,
    again: bool = False,
    time: float | None = COACH_TIME,
) -> dict:
    if not isinstance(record, dict):
        raise ReviewError("a record is a JSON object (docs/record.md)")
    doc = replay(record, strategies=False)
    if seat is None:
        p = doc.get("practice")
        seat = p.get("seat", 0) if isinstance(p, dict) and isinstance(p.get("seat"), int) else 0
    seed = doc.get("seed") if isinstance(doc.get("seed"), int) else 0
    decisions = [(v, a) for v, a in views_of(doc) if v.seat == seat]
    hand_of = [k for k, h in enumerate(doc["hands"], 1) for a in h["actions"] if a["seat"] == seat]
    chosen = [judged(v) for v, _ in decisions]
    js = None if again else stored_judgements(doc, seat)
    # the coach's notes on calls and put-downs, by (the seat's decision count, action)
    notes = {} if again else stored_notes(doc, seat)
    source = "the coach during the game"
    if js is None or len(js) != sum(chosen):
        r = review(doc, seat, seed, samples, worlds, time=time, notes=notes)
        js = r.judgements
        for d in r.partner_calls + r.put_downs:
            notes[d["decision"], d.get("called", d.get("put_down"))] = d["note"]
        source = f"reviewed now: {samples:,} deals a call, {worlds:,} worlds a card"
    steps = []
    left = iter(js)
    for i, ((view, act), k, judging) in enumerate(zip(decisions, hand_of, chosen, strict=True), 1):
        j = next(left) if judging else None
        # the call of a partner's card (12.1) and a put-down (12.2.2, 12.8.1): a note
        noted = view.phase in ("call", "put_down")
        if j is not None and j.kind == "call" and j.steal is None:
            j = replace(j, steal=view.stealing_call())  # a save from before steals were marked
        steps.append(
            {
                "hand": k,
                "view": view_json(view),
                "action": act,
                "judgement": None if j is None else judgement_json(j),
            }
            | ({"note": note_on(notes, view, act, seed, k, i, time)} if noted else {})
        )
    return {
        "seat": seat,
        "players": doc["players"],
        "seed": seed,
        "source": source,
        "strategies": doc.get("strategies"),
        "winner": doc.get("winner"),
        "final_scores": doc.get("final_scores"),
        "partnership": doc.get("partnership"),
        "stopped": doc.get("stopped"),
        "hands": [h for h in doc["hands"] if not h.get("incomplete")],
        "ends": hand_ends(doc["hands"], _rules(doc), seat),
        "rules": label(_rules(doc)),
        "steps": steps,
        "call_loss": sum(j.loss for j in js if j.kind == "call"),
        "card_loss": sum(j.loss for j in js if j.kind == "card" and j.unit not in GAME_UNITS),
        "game_loss": sum(j.loss for j in js if j.unit in GAME_UNITS),
        "labelled": sum(j.label is not None for j in js),
    }
