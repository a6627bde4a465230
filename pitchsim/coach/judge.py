"""The coach's judgement of one decision: every legal action valued from the seat's view
(``advise`` for a call, ``hint`` for a card), the chosen action's loss against the best,
with its 95% half-width, and a label only when the loss is larger than its own error.

Units, under every preset (the base game is the auction-pitch preset):

- a call is judged in **P(win the game)** by ``advise`` (its column), under the preset's
  target, win rule, shoot and dealer-steal variants: the only measure that weighs a
  bid's score against the game's position;
- a card is judged by one search (``judge_card``: ``search.hint``, the coach's policy
  ``COACH_POLICY``, every other option the preset's hint defaults, ``HintDefaults``).
  Where the defaults value points (auction-pitch) in the **points** of the pitcher's
  side, negated for a defender, on worlds fitting the calls heard (its odds model);
  else (the other presets) in the **margin**, the seat's side's score change on the
  hand minus the mean change of the other sides, on worlds fitting the play and the
  draw.  Except when the hand can decide the game:

  - in **P(game)** when only the pitcher's side can go out on it (``game_need``): it
    wins on this hand exactly when it makes its bid at or past the target (0.9; the base
    game's Winning, edge case 10), so it needs ``max(bid, target - score)``, at most the
    preset's most points a hand; P(game) is hint's P(pitcher's side takes at least that
    many) for the pitcher's side, and one minus it for a defender (the chance of
    stopping it: setting the pitcher, or holding its side under the target);
  - in **net P(game)** when another side could go out on this hand too (win=pitcher-first,
    win=highest), or the pitcher shot, or under set-pitcher-wins (``game_open``):
    P(the seat's side wins the game on this hand) minus P(another side wins it on this
    hand), each world's hand played on by the heuristic, scored, settled and its
    winners found by the game kernels' own code (``rollout_game``); when no world ends
    the game for any card, in the preset's card unit again;
- the naming of trump is judged by the bid odds' deal-out under a preset (``advice.odds``
  plays the pitcher's whole deal with the suit named, the discard and draw as the rules
  make them) in the **score** of the hand for the pitcher's side: the expected score of
  the bid won with that suit trump (its points when made, minus the bid when set).  Those
  deals fit the hand held, not the calls heard, as the note says.

Steps, after lichess's win-chance judgements (a drop of .1/.2/.3 on its [-1, 1] scale is
.05/.10/.15 of P(win)): a call losing at least 0.05 / 0.10 / 0.15 of P(win) is an
inaccuracy / mistake / blunder; a card losing at least 0.10 / 0.25 / 0.50 of a point is
one (a hand has four points, so a quarter of a point is a sixteenth of all there is).
A loss inside its own interval gets no label, however large it looks.  A naming of
trump, in the hand's expected score, losing at least 0.25 / 0.50 / 1.00 of a point is
one (it settles the whole hand's contract: twice a card's steps).

The best action is the one with the highest value in the unit the coach states, so the
words always agree with the numbers shown.  advise's recommendation (which prefers the
cautious call among calls inside each other's error) and the search policy's own card
(which weighs making the bid before points) are kept as ``recommended``, and named in
the note where they differ from the best.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..game import reference as F
from ..game.cards import format_card, parse_cards
from ..game.view import (
    CALL_ACTION,
    DRAW_ACTION,
    PUT_DOWN_ACTION,
    STEAL,
    View,
    call_text,
    card_text,
)
from ..table.decide import pitchsims_call, pitchsims_put_down

CALL_STEPS = ((0.15, "blunder"), (0.10, "mistake"), (0.05, "inaccuracy"))  # P(win game)
CARD_STEPS = ((0.50, "blunder"), (0.25, "mistake"), (0.10, "inaccuracy"))  # side's points
SCORE_STEPS = ((1.00, "blunder"), (0.50, "mistake"), (0.25, "inaccuracy"))  # hand's score
# The unit of a call's and a naming of trump's judgement; a card's is its preset's
# (``card_unit``), or one of the game's on this hand (see the module).
UNITS = {"call": "P(win)", "trump": "score"}
# A card's unit when the game can be decided on the hand by the pitcher's side alone.
GAME_UNIT = "P(game)"
# A card's when more than the pitcher's side can end the game on the hand (the module).
NET_GAME_UNIT = "net P(game)"
GAME_UNITS = (GAME_UNIT, NET_GAME_UNIT)  # a card judged by the game on this hand
STEPS = {"P(win)": CALL_STEPS, "points": CARD_STEPS, "score": SCORE_STEPS, "margin": CARD_STEPS}
STEPS[GAME_UNIT] = CALL_STEPS  # a chance of the game, as a call's
STEPS[NET_GAME_UNIT] = CALL_STEPS  # a difference of two chances of the game
# Words for each unit, as the coach's value line heads them.
UNIT_WORDS = {
    "P(win)": "P(win game)",
    "points": "your side's points",
    "score": "your side's expected score on this hand",
    "margin": "your side's score change on the hand minus the others' mean",
    GAME_UNIT: "P(your side wins the game on this hand)",
    NET_GAME_UNIT: "P(your side wins the game on this hand) minus P(another side does)",
}
# How a preset's worlds are dealt, said beside each of its cards' judgements.
WORLDS_NOTE = "the worlds fit the play seen and the draw, not the calls heard"
# A defender's P(game): the pitcher's side stopped from winning on this hand.
DEFENDING_GAME_WORDS = "P(the pitcher's side does not win the game on this hand)"

# Defaults chosen for a prompt game on a 2-core machine (measured: docs/coach.md).
COACH_SAMPLES = 4_000  # advise's kept deals per call judged (P(win) to about ±1.5%)
COACH_WORLDS = 200  # hint's worlds per card judged (hint's own default count)
# Deals per call of a partner's card or put-down valued against pitchsim's (two hands
# played out at the table a deal, 20-50 ms each: ``coach.hand_worlds``)
HAND_WORLDS = 100
# hint's policy for the coach's cards under every preset (not hint's default: pimc at
# 5-7 players takes seconds a world); the game on this hand is rollout's measure alone
COACH_POLICY = GAME_POLICY = "rollout"
UNLIKELY_MODEL = "random"  # advise's model where no deal fits the calls under its default
# Seconds the coach's advise or hint may take per decision judged (None: no clock).  Far
# more than the defaults above need on this machine, so a stop by the clock is rare; a
# judgement it stopped says so in its note (only then can a replay judge otherwise).
COACH_TIME = 10.0


@dataclass(frozen=True)
class Judgement:
    hand: int  # hand number in the game, from 1
    seat: int
    kind: str  # "call" | "trump" (naming it, under a family) | "card"
    chosen: str  # as the protocol writes it: "pass", "2", "shoot", "trump:H", "KS", "HJ"
    best: str  # the highest value in ``unit``
    values: dict[str, float]  # every legal action -> its value in ``unit``
    half_widths: dict[str, float]  # their 95% half-widths
    loss: float  # best's value minus chosen's, never below 0
    error: float  # the loss's 95% half-width
    label: str | None  # None: no loss beyond its own error
    unit: str  # "P(win)" | "score" (UNITS) | "points" | "margin" (card_unit) | GAME_UNITS
    samples: int  # deals kept (calls, trump) or worlds valued (cards)
    note: str = ""  # how the worlds used the calls (cards), or advise's notes
    recommended: str = ""  # advise's call or the search policy's card ("": ``best``)
    defending: bool = False  # a card judged for a defender: values are minus the pitcher's
    # the call that steals the bid here (a dealer's, RULES "steal"), as the protocol
    # writes it: shown marked "2 (steal)" (game.view.steals); None: no call steals
    steal: str | None = None

    def to_json(self) -> dict:
        return {
            "hand": self.hand,
            "seat": self.seat,
            "kind": self.kind,
            "chosen": self.chosen,
            "best": self.best,
            "values": self.values,
            "half_widths": {k: _finite(v) for k, v in self.half_widths.items()},
            "loss": self.loss,
            "error": _finite(self.error),  # None: too few samples for an interval
            "label": self.label,
            "unit": self.unit,
            "samples": self.samples,
            "note": self.note,
            "recommended": self.recommended or self.best,
            "defending": self.defending,
        } | ({"steal": self.steal} if self.steal is not None else {})

    def words(self, action: str) -> str:
        """One of the actions valued as the table shows it (``show_action``), a steal
        marked as the calls offered are (``View.choice_words``)."""
        return show_action(self.kind, action) + (STEAL if action == self.steal else "")


def _finite(x: float) -> float | None:
    return x if math.isfinite(x) else None


def label(loss: float, error: float, steps) -> str | None:
    """The step ``loss`` reaches, or None when it is inside its own error (or NaN)."""
    if not loss > error:  # NaN error (too few samples): no label either
        return None
    for threshold, name in steps:
        if loss >= threshold:
            return name
    return None


def judge_call(
    view: View,
    chosen: str,
    hand: int,
    samples: int,
    seed: int,
    model: str | None = None,
    time: float | None = COACH_TIME,
) -> Judgement:
    """``advise`` at the view (on a ``time`` clock), a base view or a family view (every
    call played to the end of the game under the preset's target and win rule); the
    chosen call against its recommendation."""
    from ..advice.advise import CLOCK, advise_view

    options = {"samples": samples, "seed": seed, "time": time}
    if model is not None:
        options["model"] = model
    from ..advice.advise import UnlikelyCalls

    fallback = ""

    def run(**more):
        return advise_view(view, **(options | more))

    name = lambda c: call_text(c, view.rules)  # noqa: E731
    try:
        a = run()
    except UnlikelyCalls:
        if model is not None:
            raise
        # The calls heard are ones the model's bidders (almost) never make: no deal fits
        # them.  A coach must still judge: the others are taken to bid at random, under
        # which every legal call fits some deals (without a clock: a few seconds).
        a = run(model=UNLIKELY_MODEL, time=None)
        fallback = (
            f"no deal fit the calls heard under advise's model: the others taken to bid "
            f"{UNLIKELY_MODEL}"
        )
    values, halves = {}, {}
    for c, ca in a.by_call.items():
        values[name(c)] = ca.p_win_game.value
        halves[name(c)] = ca.p_win_game.half_width
    best = _top(values, chosen)
    loss = values[best] - values[chosen]
    # Two estimates on the same kept deals: the unpaired half-width is the larger
    # (positively correlated outcomes only narrow a paired one), so it never labels
    # a loss a paired interval would call noise.
    error = 0.0 if chosen == best else math.hypot(halves[best], halves[chosen])
    recommended = name(a.recommended_call)
    notes = list(a.notes) + ([fallback] if fallback else [])
    if recommended != best:
        notes.append(f"advise recommends {recommended}, the cautious call inside the error")
    if a.stopped == CLOCK:
        notes.append(_clock_note(time, a.samples, "deals"))
    return Judgement(
        hand,
        view.seat,
        "call",
        chosen,
        best,
        values,
        halves,
        loss,
        error,
        label(loss, error, CALL_STEPS),
        "P(win)",
        a.samples,
        "; ".join(notes),
        recommended,
        steal=view.stealing_call(),
    )


def _top(values: dict[str, float], chosen: str) -> str:
    """The action of the highest value; the chosen one where it ties the top."""
    top = max(values.values())
    return chosen if values[chosen] >= top else max(values, key=values.__getitem__)


def _clock_note(time: float | None, count: int, what: str) -> str:
    return f"stopped by the clock ({time:g} s) after {count:,} {what}"


def judge_card(
    view: View,
    chosen: str,
    hand: int,
    worlds: int,
    seed: int,
    policy: str | None = None,
    time: float | None = COACH_TIME,
) -> Judgement:
    """``hint`` at the view, under any preset (on a ``time`` clock; ``policy`` None: the
    coach's, ``COACH_POLICY``), the chosen card against the best, in the measure the
    module gives: P(game) when the hand can decide the game by the pitcher's side
    alone (``game_need``); net P(game) when more than that side can end it
    (``game_open``) and some world ends it; else the preset's own card measure
    (``card_unit``: auction-pitch's points of the pitcher's side, turned round for a
    defender; the others' margin).  The worlds fit the calls heard where the preset's
    hint defaults name a bidding model (auction-pitch's odds), else the play and the
    draw alone."""
    policy = policy or COACH_POLICY
    need = game_need(view)
    if need is not None:
        h = _card_hint(view, policy, worlds, seed, time, points=True)
        return _judge_card_game(view, chosen, hand, h, need, policy, time)
    why, ended = game_open(view), None
    if why is not None:  # the game on this hand is rollout's measure alone
        h = _card_hint(view, GAME_POLICY, worlds, seed, time, game=True)
        if not _no_world_ends_it(h):
            return _judge_card_net(view, chosen, hand, h, why, time)
        ended = h.worlds
    h = _card_hint(view, policy, worlds, seed, time)
    values, halves, versus = _card_means(h)
    if _turned(h):  # a defender's: minus the pitcher's side's points
        values = {name: -v for name, v in values.items()}
    best = _top(values, chosen)
    error = _paired_error(chosen, best, card_text(h.recommended), versus)
    unit = "points" if h.objective is None else "margin"
    first = []
    if ended is not None:
        first.append(
            f"the game could end on this hand ({why}), but it ends in none of the "
            f"{ended} worlds whatever you play: the cards are judged in the {unit}"
        )
    return _card_judgement(
        view, hand, chosen, best, values, halves, error, unit, h, policy, time, first
    )


def card_unit(rules) -> str:
    """A card's unit under ``rules`` when the game cannot end on the hand: what the
    preset's hint values by default (``search.hint.hint_defaults``): auction-pitch the
    pitcher's side's points, the other presets the margin (``OBJECTIVE``)."""
    from ..search.hint import hint_defaults

    return "points" if hint_defaults(rules).points else "margin"


def _card_hint(view: View, policy: str, worlds: int, seed: int, time, **measure):
    """``hint_view`` as the coach asks it, every other option the preset's hint default
    (the calls fitted only where it names a bidding model); ``measure``: ``points`` or
    ``game`` (``search.hint.hint_view``), none for the preset's own."""
    from ..search.hint import hint_view

    return hint_view(view, policy=policy, worlds=worlds, seed=seed, time=time, **measure)


def _turned(h) -> bool:
    """The values are turned round for the seat: the pitcher's side's points (no
    objective), the seat a defender; a margin or a net P(game) is already the seat's."""
    return h.objective is None and not h.pitcher_side


def _worlds_note(h) -> str:
    """How the worlds used the calls: hint's own words where a bidding model was taken,
    else ``WORLDS_NOTE``."""
    return h.auction.note if h.auction.model is not None else WORLDS_NOTE


def _card_judgement(
    view, hand, chosen, best, values, halves, error, unit, h, policy, time, first=()
):
    """A card's ``Judgement`` in ``unit`` from hint's answer ``h``, with its notes: any
    ``first``, the auction's fit, the policy's own card, the clock, a fallback."""
    from ..table.clock import CLOCK

    recommended = card_text(h.recommended)
    loss = values[best] - values[chosen]
    notes = [*first, _worlds_note(h)]
    if recommended != best and h.objective is None:  # (an objective's best is its own)
        notes.append(f"the {policy} policy plays {recommended} (it weighs making the bid first)")
    if h.stop == CLOCK:
        notes.append(_clock_note(time, h.worlds, "worlds"))
    if h.fallback:
        notes.append(h.fallback)
    return Judgement(
        hand,
        view.seat,
        "card",
        chosen,
        best,
        values,
        halves,
        loss,
        error,
        label(loss, error, STEPS[unit]),
        unit,
        h.worlds,
        "; ".join(notes),
        recommended,
        defending=_turned(h),
    )


def game_need(view: View) -> int | None:
    """Under a preset: the points the pitcher's side needs on this hand to win the game,
    when this hand can decide the game only that way; else None.  The pitcher's side
    wins on this hand exactly when it makes its bid at or past the target (0.9, 6.1 win:
    made, its score rises by its points; under win=pitcher-first it wins even when
    another side gets there too), so it needs ``max(bid, target - score)``, at most the
    preset's most points a hand.  Under pitcher-first and highest another side can also
    go out on this hand; the hand is then not judged in P(game) unless no other side
    can reach the target with every point of the hand (win=pitcher: no other side ever
    goes out on the pitcher's hand).  A shoot, set-pitcher-wins, and a set that scores
    other than minus the bid are left to the margin."""
    if view.pitcher is None or view.bid is None or view.shoot:
        return None
    r = view.preset
    if r.set_pitcher_wins or r.hands_limit:  # hands=N: no target to go out at (12.4)
        return None
    if getattr(r, "set", "minus") != "minus":
        return None
    scores = view.seat_scores()
    most = r.max_bid
    ours = r.team(view.pitcher)
    if r.win != "pitcher" and any(
        scores[s] + most >= r.target for s in range(view.players) if r.team(s) != ours
    ):
        return None
    need = max(view.bid, r.target - scores[view.pitcher])
    return need if need <= most else None


def game_open(view: View) -> str | None:
    """Under a preset, when this hand can end the game otherwise than by the pitcher's
    side alone going out (``game_need``): why, in words; else None.  A side's
    score rises by at most the preset's most points a hand, so it can go out on this
    hand only when that takes it to the target: the pitcher's side by making its bid
    (0.9, 6.1 win), another side under win=pitcher-first (3.11: any side at the target
    ends the game) and win=highest (2.11: the single highest total at the target).  A
    made shoot wins the game at once (6.1 shoot), and under set-pitcher-wins (6.3.6) the
    pitcher's side goes out made or, at the target, set.  Under set=to-others (12.11) a
    set pitcher hands the others its bid as well: left to the margin, None.  Under
    hands=N (12.4) no target counts: the game ends on its last hand, whatever it does,
    or earlier on a made shoot."""
    if view.pitcher is None or view.bid is None:
        return None
    r = view.preset
    if r.hands_limit:
        if view.hands_left == 1:
            return "it is the game's last hand: the highest total after it wins (12.4)"
        return "the pitcher shot: made, its side wins the game at once" if view.shoot else None
    if r.set != "minus":
        return None
    scores = view.seat_scores()
    ours = r.team(view.pitcher)
    mine = scores[view.pitcher]
    most = r.max_bid
    if view.shoot:
        return "the pitcher shot: made, its side wins the game at once"
    if r.set_pitcher_wins and mine + most >= r.target:  # (left out by game_need)
        how = "even set" if mine - view.bid >= r.target else "by making its bid"
        return (
            f"the pitcher's side ({mine} of {r.target}, bid {view.bid}) can go out {how}, "
            "under set-pitcher-wins"
        )
    others = [s for s in range(view.players) if r.team(s) != ours and scores[s] + most >= r.target]
    if r.win != "pitcher" and others:
        s = others[0]
        who = "your side" if r.team(s) == r.team(view.seat) else f"seat {s}'s side"
        mine_too = (
            f"the pitcher's side ({mine} of {r.target}, bid {view.bid}) and "
            if mine + most >= r.target
            else ""
        )
        return (
            f"{mine_too}{who} ({scores[s]} of {r.target}) can reach the target with the "
            f"hand's {most} points"
        )
    return None


def _judge_card_game(view: View, chosen: str, hand: int, h, need: int, policy, time):
    """A card judged in P(game) (see the module): hint's P(pitcher's side takes at
    least ``need``) per card, turned round for a defender.  The chances are not paired
    across cards, so the error of a difference is bounded by the sum of the two 95%
    half-widths (a difference's standard deviation is at most the sum of the two)."""
    values, halves = {}, {}
    for c in h.cards:
        name = card_text(c.card)
        p = c.p_at_least[need - 1]
        values[name] = 1.0 - p if _turned(h) else p
        ci = c.p_ci95[need - 1] if c.p_ci95 else None
        halves[name] = math.nan if ci is None else (ci[1] - ci[0]) / 2
    best = _top(values, chosen)
    error = 0.0 if chosen == best else halves[best] + halves[chosen]
    pitcher = "your side" if h.pitcher_side else f"seat {view.pitcher}'s side"
    score = view.seat_scores()[view.pitcher]
    why = (
        f"the game can end on this hand: {pitcher} ({score} of {view.target}, bid "
        f"{view.bid}) wins it by taking {need} points, so the cards are judged by that chance"
    )
    return _card_judgement(
        view, hand, chosen, best, values, halves, error, GAME_UNIT, h, policy, time, [why]
    )


def judged(view: View) -> bool:
    """Whether the coach judges the decision at ``view`` as a :class:`Judgement`: one
    with a choice, but not the pitcher's call of a partner's card (12.1) nor a put-down
    (12.2.2, 12.8.1), on which he says what pitchsim chooses and why, and what the
    person's other choice costs (``choice_note``)."""
    return len(view.legal()) > 1 and view.phase not in ("call", "put_down")


def pitchsims_choice(view: View) -> str:
    """pitchsim's call of a partner's card or put-down at ``view`` (table.decide)."""
    return pitchsims_call(view) if view.phase == "call" else pitchsims_put_down(view)


def choice_note(
    view: View,
    action: str,
    seed: int = 0,
    worlds: int = HAND_WORLDS,
    time: float | None = COACH_TIME,
) -> str | None:
    """The coach on the pitcher's call of a partner's card (12.1) or a card put down
    coming down to 6 (12.2.2, 12.8.1): nothing when it is pitchsim's choice; else
    pitchsim's and why (``_call_words``, ``_put_down_words``), and the two valued on the
    same worlds of ``seed`` (``value_note``)."""
    want = pitchsims_choice(view)
    if action == want:
        return None
    words = _call_words if view.phase == "call" else _put_down_words
    return words(view, action, want) + value_note(view, action, want, seed, worlds, time)


def _call_words(view: View, action: str, want: str) -> str:
    """pitchsim's call ``want`` (12.1.2, 12.1.4) and why, against the pitcher's."""
    r = view.preset
    mine, chosen = (parse_cards(a.split(":", 1)[1], r.jokers)[0] for a in (want, action))
    shown = format_card(mine)
    if view.held >> mine & 1:  # he holds every trump: nobody can join him
        return f"coach: you hold every trump: pitchsim calls {shown}, and plays alone (12.1.5)."
    duty = " and must play it to trick 1 (12.1.3)" if r.partner == "called" else " at once"
    head = (
        f"coach: pitchsim calls {shown}, the highest trump you lack (12.1.2, 12.1.4): its "
        f"holder is your partner{duty}, so that trump plays for your side, not against it"
    )
    name = format_card(chosen)
    if view.held >> chosen & 1:
        why = f"you hold {name} yourself, so you play alone against all the others (12.1.5)"
    elif not F.is_trump(chosen, view.trump, r):
        why = f"{name} is no trump: its holder joins you, but {shown} stays against you"
    else:
        why = f"{name} is lower: {shown} stays against you"
    return f"{head}; {why}."


def _put_down_words(view: View, action: str, want: str) -> str:
    """pitchsim's put-down ``want`` and its rule (12.8.3; the robber's after the rob,
    4.8.7), or under draw its stop (12.8.2)."""
    if view.drawing:  # 12.8.2: pitchsim's rule under draw
        rule = (
            "every non-trump but the highest needed to keep 3 cards, the lowest first, "
            "then its trumps beyond 6 by rule X (12.8.3)"
        )
        if want == DRAW_ACTION:
            return f"coach: pitchsim puts down no more here and draws: {rule}."
    else:
        clause = "4.8.7" if view.preset.rob else "12.8.3"
        rule = f"its non-trumps, the lowest first, then its trumps by rule X ({clause})"
    shown = format_card(parse_cards(want[len(PUT_DOWN_ACTION) :], view.preset.jokers)[0])
    return f"coach: pitchsim puts down {shown} first: {rule}."


def value_note(
    view: View, chosen: str, want: str, seed: int, worlds: int, time: float | None
) -> str:
    """The person's call or put-down ``chosen`` against pitchsim's ``want``, valued on
    the same worlds (``coach.hand_worlds``) in the naming of trump's unit, the side's
    expected score on the hand: what it costs, when it costs more than the paired
    estimate's own 95% half-width (a slip inside the noise is not called one), labelled
    by the naming of trump's steps (``SCORE_STEPS``)."""
    from .hand_worlds import value_choice, values_here

    if not values_here(view):
        what = (
            "the draw and the rob" if view.rules.rob else "the draw made before an announced call"
        )
        return f" (Not valued: the worlds do not deal {what}.)"
    v = value_choice(view, chosen, want, worlds, seed, time)
    mine, theirs = show_action("", chosen), show_action("", want)
    r = view.rules
    pitching = view.pitcher is not None and r.team(view.seat) == r.team(view.pitcher)
    aim = "P(make)" if pitching else "P(set)"
    kitty = " and the kitty" if view.kitty and view.seat == view.pitcher else ""
    head = (
        f" On {v.worlds} deals fitting your hand{kitty}, played out by heuristic seats, "
        f"your side's expected score on this hand is {v.score[0]:+.2f} with {mine} "
        f"({aim} {v.made[0]:.0%}) and {v.score[1]:+.2f} with pitchsim's {theirs} "
        f"({v.made[1]:.0%})"
    )
    err = f"±{v.error:.2f}"
    step = label(v.loss, v.error, SCORE_STEPS)
    if not math.isfinite(v.error):
        tail = ": too few deals to judge"
    elif step is not None:
        tail = f": {mine} — {step.upper()}, it costs {loss_text(v.loss, 'score')} ({err})"
    elif v.loss > v.error:
        least = SCORE_STEPS[-1]
        tail = (
            f": {mine} costs {loss_text(v.loss, 'score')} ({err}), a real loss but under "
            f"{loss_text(least[0], 'score')}, too small to call an {least[1]}"
        )
    elif -v.loss > v.error:
        tail = f": {mine} does better here, by {loss_text(-v.loss, 'score')} ({err})"
    else:
        tail = f": the difference, {v.loss:+.2f} ({err}), is inside its noise: no slip"
    clock = f"; {_clock_note(time, v.worlds, 'deals')}" if v.stopped else ""
    return f"{head}{tail}{clock}."


def judge(
    view,
    action: str,
    hand: int,
    seed: int,
    samples: int = COACH_SAMPLES,
    worlds: int = COACH_WORLDS,
    time: float | None = COACH_TIME,
) -> Judgement:
    """The one door to the coach: ``view`` (a :class:`View` under any preset) and the
    action taken there, judged by the measure of its kind."""

    if view.phase == "trump":
        return judge_trump(view, action, hand, samples, seed)
    if view.phase == "auction":
        return judge_call(view, action, hand, samples, seed, time=time)
    return judge_card(view, action, hand, worlds, seed, time=time)


def _half(se: float) -> float:
    return 1.96 * se


def _no_world_ends_it(h) -> bool:
    """Every card's net P(game) is 0 in every world valued (its mean 0 and its interval
    empty): the game ends on this hand in none of them."""
    return all(c.points == 0 and c.points_ci95 == (0.0, 0.0) for c in h.cards)


def _judge_card_net(view, chosen: str, hand: int, h, why: str, time) -> Judgement:
    """A preset's card judged in net P(game) (see the module) from hint's answer ``h``
    valued by the game (``hint_view(..., game=True)``): each card's mean over the worlds
    of 1 (the seat's side wins the game on this hand, no other side does), -1 (another
    side does, the seat's does not) or 0.  The worlds are the same for every card: the
    error of a difference is the paired one, as the margin's."""
    values, halves, versus = _card_means(h)
    recommended = card_text(h.recommended)
    best = _top(values, chosen)
    error = _paired_error(chosen, best, recommended, versus)
    where = (
        f"the game ends on this hand ({why})"
        if view.hands_left == 1
        else f"the game can end on this hand for more than the pitcher's side ({why})"
    )
    head = (
        f"{where}, so the cards are judged by P(your side wins it on this hand) minus "
        "P(another side does)"
    )
    return _card_judgement(
        view, hand, chosen, best, values, halves, error, NET_GAME_UNIT, h, GAME_POLICY, time,
        [head],
    )  # fmt: skip


def _card_means(h) -> tuple[dict, dict, dict]:
    """Per card (as the protocol writes it): hint's mean, its 95% half-width and its
    difference's from the recommended card (NaN: too few worlds for an interval)."""
    values, halves, versus = {}, {}, {}
    for c in h.cards:
        name = card_text(c.card)
        values[name] = c.points
        ci = c.points_ci95
        halves[name] = math.nan if ci is None else (ci[1] - ci[0]) / 2
        versus[name] = math.nan if c.vs_best[1] is None else c.vs_best[1]
    return values, halves, versus


def _paired_error(chosen: str, best: str, recommended: str, versus: dict) -> float:
    """The 95% half-width of best's value minus chosen's, paired on the same worlds: each
    card's difference from the recommended card has its own; between two other cards
    the sum of theirs bounds it (a difference's standard deviation never exceeds the
    sum of the two)."""
    if chosen == best:
        return 0.0
    if recommended in (best, chosen):
        return versus[chosen if recommended == best else best]
    return versus[best] + versus[chosen]


def judge_trump(view, chosen: str, hand: int, samples: int, seed: int) -> Judgement:
    """The naming of trump (trump=named), valued by the family bid odds' deal-out of the
    pitcher's whole deal with each suit named: the expected score of the bid won (see
    the module)."""
    from ..game.view import trump_text

    bid = view.preset.max_bid if view.shoot else view.bid
    values, halves = {}, {}
    for suit, (mean, se) in _named_suit_scores(view, bid, samples, seed).items():
        values[trump_text(suit)], halves[trump_text(suit)] = mean, _half(se)
    best = _top(values, chosen)
    loss = values[best] - values[chosen]
    # The suits are played on the same deals, positively correlated: the unpaired
    # half-width is the larger, never too narrow.
    error = 0.0 if chosen == best else math.hypot(halves[best], halves[chosen])
    return Judgement(
        hand,
        view.seat,
        "trump",
        chosen,
        best,
        values,
        halves,
        loss,
        error,
        label(loss, error, SCORE_STEPS),
        "score",
        samples,
        f"deals fit your hand, not the calls heard; the bid of {bid} played in each suit",
    )


def _named_suit_scores(view, bid: int, samples: int, seed: int) -> dict[int, tuple[float, float]]:
    """Per suit, the expected score (and its standard error) of ``bid`` with that suit
    named trump: the family bid odds' own deal-out (``play_fixed``, the hand in
    the pitcher's seat, the discard and draw by the rules), for every suit, a suit the
    hand holds no trump in too (``bid_odds`` offers only the others)."""
    import numpy as np

    from ..game.cards import mask_of
    from ..kernels.fixed_hand import PITCHER, play_fixed
    from ..kernels.policies.cards import PLAIN_POLICY_IDS
    from ..kernels.presets import rules_array, rules_table

    r = view.rules
    fr, tab = rules_array(r), rules_table(r)
    policies = np.full(view.players, PLAIN_POLICY_IDS["heuristic"], dtype=np.int64)
    ours, every, trumps = (np.empty(samples, np.int64) for _ in range(3))
    out = {}
    for suit in range(4):
        play_fixed(
            seed,
            0,
            samples,
            view.players,
            PITCHER,
            np.int64(mask_of(list(view.hand))),
            suit,
            bid,
            policies,
            fr,
            tab,
            ours,
            every,
            trumps,
            None,
        )
        score = np.where(ours >= bid, ours, -bid).astype(float)
        out[suit] = (float(score.mean()), float(score.std(ddof=1) / math.sqrt(samples)))
    return out


# ------------------------------------------------------------------ words


def show_action(kind: str, text: str) -> str:
    """An action as a player reads it: a call as typed, ``trump:H`` as "♥ hearts", a
    card as ``K♠`` (jokers ``HJ``/``LJ``)."""
    from ..game.cards import SUIT_NAMES, SUIT_SYMBOLS, SUITS

    if text.startswith(CALL_ACTION):  # a partner's card called (12.1)
        return format_card(_card(text[len(CALL_ACTION) :]))
    if text.startswith(PUT_DOWN_ACTION):  # a card put down (12.2.2, 12.8.1)
        return format_card(_card(text[len(PUT_DOWN_ACTION) :]))
    if text == DRAW_ACTION:  # no more put down: drawn back to 6 (12.8.2)
        return "draw"
    if kind == "call":
        return text
    if kind == "trump":
        s = SUITS.index(text.split(":", 1)[1])
        return f"{SUIT_SYMBOLS[s]} {SUIT_NAMES[s]}"
    return format_card(_card(text))


CHANCE_UNITS = ("P(win)", GAME_UNIT, NET_GAME_UNIT)  # losses in chances, not points
# A loss's words after its number, by unit.
LOSS_WORDS = {
    "P(win)": "of P(win)",
    GAME_UNIT: "of P(game)",
    NET_GAME_UNIT: "of net P(game)",
    "points": "points",
    "margin": "points of margin",
    "score": "points of expected score",
}


def amount(x: float, unit: str) -> str:
    """A loss, an error or a sum of losses as a bare number in its unit's scale: a
    chance in percentage points, never as a percentage (summed over a game's decisions
    it can pass 100, and a net P(game) runs from -1 to 1), points as points."""
    return f"{100 * x:.1f}" if unit in CHANCE_UNITS else f"{x:.2f}"


def loss_text(x: float, unit: str) -> str:
    """``amount`` with its unit: "12.0 percentage points of P(win)", "0.75 points"."""
    scale = "percentage points " if unit in CHANCE_UNITS else ""
    return f"{amount(x, unit)} {scale}{LOSS_WORDS.get(unit, 'points')}"


def describe(j: Judgement) -> str:
    """One line for the player: the loss, its error and the label, in words that agree
    with the values shown (the best is the highest value)."""
    best = j.words(j.best)
    if j.chosen == j.best:
        return f"coach: {_show(j)} is the best choice here"
    err = f"±{amount(j.error, j.unit)}"  # beside its loss, in the loss's scale
    behind = f"{_show(j)} — best {best}, {loss_text(j.loss, j.unit)} behind"
    if j.label is None and not math.isfinite(j.error):
        return f"coach: {behind}: too few samples to judge"
    if j.label is None and j.loss <= j.error:
        return f"coach: {behind}, inside its error ({err}): fine"
    if j.label is None:
        steps = STEPS[j.unit]
        return (
            f"coach: {behind} ({err}): a real loss, but under "
            f"{loss_text(steps[-1][0], j.unit)}, too small to call an {steps[-1][1]}"
        )
    return (
        f"coach: {_show(j)} — {j.label.upper()}: best was {best}, you lost "
        f"{loss_text(j.loss, j.unit)} ({err})"
    )


def _card(text: str) -> int:
    from ..game.cards import parse_cards

    return parse_cards(text, jokers=2)[0]


def _show(j: Judgement) -> str:
    return j.words(j.chosen)
