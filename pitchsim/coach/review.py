"""Review a recorded game for one seat: every decision it made, valued from the view it
had (as the coach values them during ``practice``), the costly ones, the total loss and
a table by hand.

Any game record serves (``docs/record.md``): ``practice``'s, ``play --game --json``'s,
a tournament's ``--record``, games with outside programs, or one typed in by hand.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from ..table.decide import pitchsims_call, pitchsims_put_down
from ..table.record import _decisions
from ..util.errors import InputError
from .judge import (
    COACH_SAMPLES,
    COACH_TIME,
    COACH_WORLDS,
    GAME_UNITS,
    Judgement,
    choice_note,
    judge,
)
from .practice import coach_seed


class ReviewError(InputError):
    """A review that cannot be made."""


@dataclass
class Review:
    seat: int
    players: int
    seed: int
    samples: int
    worlds: int
    judgements: list[Judgement]
    forced: int = 0  # decisions with one legal action: taken, not judged
    # the pitcher's calls of a partner's card (12.1): {"hand", "called", "pitchsim", "note"}
    partner_calls: list[dict] = field(default_factory=list)
    # the cards it put down coming down to 6 (12.2.2, 12.8.1), one a decision:
    # {"hand", "put_down", "pitchsim", "note"}, shown as the calls are, not judged
    put_downs: list[dict] = field(default_factory=list)

    @property
    def costly(self) -> list[Judgement]:
        return [j for j in self.judgements if j.label is not None]

    def by_hand(self) -> list[dict]:
        rows = []
        for h in sorted({j.hand for j in self.judgements}):
            js = [j for j in self.judgements if j.hand == h]
            rows.append(
                {
                    "hand": h,
                    "calls": sum(j.kind == "call" for j in js),
                    "call_loss": sum(j.loss for j in js if j.kind == "call"),
                    "trumps": sum(j.kind == "trump" for j in js),  # named (trump=named)
                    "trump_loss": sum(j.loss for j in js if j.kind == "trump"),
                    "cards": sum(_in_points(j) for j in js),
                    "card_loss": sum(j.loss for j in js if _in_points(j)),
                    # cards judged in P(game) or net P(game): the hand could end the game
                    # (coach/judge.py; a loss in either is a loss of the seat's chance)
                    "game_cards": sum(j.unit in GAME_UNITS for j in js),
                    "game_loss": sum(j.loss for j in js if j.unit in GAME_UNITS),
                    "labelled": sum(j.label is not None for j in js),
                }
            )
        return rows

    def to_json(self) -> dict:
        return {
            "seat": self.seat,
            "players": self.players,
            "seed": self.seed,
            "samples": self.samples,
            "worlds": self.worlds,
            "decisions": len(self.judgements),
            "forced": self.forced,
            "call_loss": sum(j.loss for j in self.judgements if j.kind == "call"),
            "trump_loss": sum(j.loss for j in self.judgements if j.kind == "trump"),
            "card_loss": sum(j.loss for j in self.judgements if _in_points(j)),
            "game_loss": sum(j.loss for j in self.judgements if j.unit in GAME_UNITS),
            "by_hand": self.by_hand(),
            "costly": [j.to_json() for j in self.costly],
            "judgements": [j.to_json() for j in self.judgements],
            "partner_calls": self.partner_calls,
            "put_downs": self.put_downs,
        }


def _in_points(j: Judgement) -> bool:
    """A card judged in points (the base game's) or margin (a preset's), not by the game
    on the hand (P(game), net P(game))."""
    return j.kind == "card" and j.unit not in GAME_UNITS


def note_on(
    notes: dict, view, act: str, seed: int, hand: int, decision: int, time: float | None
) -> str | None:
    """The coach's note on a call of a partner's card or a put-down: the one made
    already (``notes``, by (the seat's decision count, the action):
    ``practice.stored_notes``), else made now on the decision's seed (``coach_seed``)."""
    if (decision, act) in notes:
        return notes[decision, act]
    return choice_note(view, act, coach_seed(seed, hand, decision), time=time)


def review(
    record: dict,
    seat: int,
    seed: int = 0,
    samples: int = COACH_SAMPLES,
    worlds: int = COACH_WORLDS,
    progress: Callable[[int, int], None] | None = None,
    time: float | None = COACH_TIME,
    notes: dict[tuple[int, str], str | None] | None = None,
) -> Review:
    """Every decision of ``seat`` in ``record`` judged from its own view. The decision's
    seed is :func:`~pitchsim.coach.practice.coach_seed` of ``seed``, the hand and the
    seat's decision count, so a practice game reviewed with its own seed gets the
    coach's numbers again (unless a judgement was stopped by the ``time`` clock: its
    note says so).  ``notes``: the coach's notes on calls and put-downs already made,
    by (the seat's decision count, the action) (``practice.stored_notes``), shown
    instead of valuing those decisions again."""
    known = notes or {}
    decisions = [
        (k, view, act) for k, _h, view, act, _s, _st in _decisions(record) if view is not None
    ]
    n = record["players"]
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < n:
        raise ReviewError(f"seat must be 0-{n - 1}, not {seat}")
    mine = [(k, v, a) for k, v, a in decisions if v.seat == seat]
    if not mine:
        raise ReviewError(f"seat {seat} made no decision in this record")
    out = []
    forced = 0
    calls, downs = [], []
    for i, (k, view, act) in enumerate(mine, 1):
        if view.phase == "call":  # 12.1: beside pitchsim's, valued in a note (``judged``)
            calls.append(
                {
                    "hand": k,
                    "decision": i,
                    "called": act,
                    "pitchsim": pitchsims_call(view),
                    "note": note_on(known, view, act, seed, k, i, time),
                }
            )
        elif view.phase == "put_down":  # 12.2.2, 12.8.1: as the call
            downs.append(
                {
                    "hand": k,
                    "decision": i,
                    "put_down": act,
                    "pitchsim": pitchsims_put_down(view),
                    "note": note_on(known, view, act, seed, k, i, time),
                }
            )
        elif len(view.legal()) == 1:
            forced += 1  # no choice, nothing to judge (the practice coach skips it too)
        else:
            out.append(judge(view, act, k, coach_seed(seed, k, i), samples, worlds, time))
        if progress is not None:
            progress(i, len(mine))  # decisions done so far, forced ones included
    return Review(seat, n, seed, samples, worlds, out, forced, calls, downs)
