"""Game records (``docs/record.md``): written by ``play --game --json`` and tournaments
on request, replayed exactly by ``play --replay``, and cut into views at any decision.

A record holds the rules, the seats' strategies, every deal as dealt and every action in
order (``hands[i].actions``), and the results that follow from them.  :func:`replay`
plays the actions again through the rules (the reference engine's), refusing in one
line an action that was not legal or a result that does not follow; when every seat is
a built-in strategy and the record has its seed, it also asks the strategies again and
checks that they make the same decisions.  :func:`views_of` yields (view, action) for
every decision of a record.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..game.cards import CardError, mask_of, parse_cards
from ..game.reference.auction import MAX_BID
from ..game.reference.game import game_winner
from ..game.rules import FamilyRules, Rules, RulesError, document_rules, label, rules_text
from ..game.view import Trick, View, ViewError, parse_call
from ..util.errors import InputError
from .answers import checked_action
from .rounds import Game
from .table import RECORD_FORMAT, RECORD_VERSION, _Hand, _ordered, _view, hand_doc


class RecordError(InputError):
    """A record that cannot be read or did not happen as it says."""


def record_of_game(game: Game) -> dict:
    """The record of a game the kernels played (``rounds.play_board``)."""
    doc = game.to_json()
    n = len(game.strategies)
    head = {
        "format": RECORD_FORMAT,
        "version": RECORD_VERSION,
        "rules": rules_text(game.rules),
        "players": n,
    }
    for h in doc["hands"]:
        actions = []
        for i, c in enumerate(h["bids"]):
            actions.append(
                {"seat": (h["dealer"] + 1 + i) % n, "action": "pass" if c is None else str(c)}
            )
            if c == MAX_BID:
                break
        for t in h["tricks"]:
            for j, c in enumerate(t["cards"]):
                actions.append({"seat": (t["leader"] + j) % n, "action": c})
        h["actions"] = actions
    out = {
        **head,
        "seed": doc["seed"],
        "board": doc["board"],
        "strategies": doc["strategies"],
        "target": doc["target"],
        "partnership": doc["partnership"],
        "winner": doc["winner"],
        "final_scores": doc["final_scores"],
        "forfeit": None,
        "hands": doc["hands"],
    }
    return out


def _rules(doc: dict) -> Rules:
    spec = doc.get("rules")
    if not isinstance(spec, str | dict):
        raise RecordError('a record needs its rules: a rule string like "target=11"')
    try:
        rules = document_rules(spec)  # a string or an object, never a file
    except RulesError as e:
        raise RecordError(f"rules: {e}") from None
    if isinstance(rules, FamilyRules):
        # Its calls and cards would be replayed by the base game's rules (a smear 5
        # judged against bids 1-4): refused whole, as the views of the families are.
        raise RecordError(
            f"rules: {label(rules)}: a record of a rule family cannot be read yet (the "
            "record format, docs/record.md, carries the base game only)"
        )
    for key in ("partnership", "target"):
        if key in doc and doc[key] != getattr(rules, key):
            raise RecordError(f"{key} is {doc[key]!r} but the rules say {getattr(rules, key)!r}")
    return rules


def _int(v, what) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise RecordError(f"{what} must be a whole number, not {v!r}")
    return v


def _hand_masks(h: dict, n: int, where: str) -> list[int]:
    hands = h.get("hands")
    if not isinstance(hands, list) or len(hands) != n:
        raise RecordError(f"{where}: hands must list the {n} hands as dealt")
    masks = []
    seen = 0
    for s, cs in enumerate(hands):
        if not isinstance(cs, list) or not all(isinstance(c, str) for c in cs):
            raise RecordError(f"{where}: seat {s}'s hand must be a list of cards")
        try:
            cards = parse_cards(" ".join(cs))
        except CardError as e:
            raise RecordError(f"{where}: seat {s}'s hand: {e}") from None
        m = mask_of(cards)
        if len(cards) != 6:
            raise RecordError(f"{where}: seat {s} was dealt {len(cards)} cards, not 6")
        if m & seen:
            raise RecordError(f"{where}: seat {s} was dealt a card another seat holds")
        seen |= m
        masks.append(m)
    return masks


def _decisions(doc: dict) -> Iterator[tuple[int, dict, View, str, list[int], dict]]:
    """Every decision of the record: (hand number, hand, view, action, scores, state)."""
    if not isinstance(doc, dict):
        raise RecordError("a record is a JSON object (docs/record.md)")
    if doc.get("format", RECORD_FORMAT) != RECORD_FORMAT:
        raise RecordError(f"format is {doc.get('format')!r}, not {RECORD_FORMAT!r}")
    if doc.get("version", RECORD_VERSION) != RECORD_VERSION:
        raise RecordError(
            f"record version {doc.get('version')!r}: this pitchsim reads {RECORD_VERSION}"
        )
    rules = _rules(doc)
    n = _int(doc.get("players"), "players")
    try:
        rules.check_players(n)
    except RulesError as e:
        raise RecordError(str(e)) from None
    hands = doc.get("hands")
    if not isinstance(hands, list) or not hands:
        raise RecordError("a record needs hands: a list of deals with their actions")
    scores = [0] * n
    for k, h in enumerate(hands, 1):
        where = f"hand {k}"
        if not isinstance(h, dict):
            raise RecordError(f"{where} must be an object")
        dealer = _int(h.get("dealer"), f"{where}: dealer")
        if not 0 <= dealer < n:
            raise RecordError(f"{where}: dealer {dealer} is not a seat")
        dealt = _hand_masks(h, n, where)
        actions = h.get("actions")
        if not isinstance(actions, list):
            raise RecordError(f"{where}: actions must be a list")
        state = _Hand(dealer, dealt, [], [], [])
        cards: list[int] = []
        leader = None
        trump = -1
        for a_no, a in enumerate(actions, 1):
            if isinstance(a, dict):
                seat, action = a.get("seat"), a.get("action")
            else:
                seat, action = None, a
            if state.tricks and len(state.tricks) == 6 and not cards:
                raise RecordError(f"{where}: action {a_no} comes after the sixth trick")
            view_hand = _Hand(
                dealer,
                dealt,
                state.actions,
                state.calls,
                state.tricks + ([Trick(leader, tuple(cards))] if cards else []),
            )
            try:
                probe = _view(rules, n, dealer, view_hand, scores)  # whose turn, from anyone's seat
            except ViewError as e:
                raise RecordError(f"{where}: {e}") from None
            if probe.to_move is None:
                raise RecordError(f"{where}: action {a_no} comes after the hand is over")
            to_move = probe.to_move
            if seat is not None and seat != to_move:
                raise RecordError(
                    f"{where}: action {a_no} is by seat {seat!r}, but seat {to_move} is to act"
                )
            view = _view(rules, n, to_move, view_hand, scores)
            try:
                act = checked_action(view, action)
            except ValueError as e:
                raise RecordError(f"{where}: action {a_no} (seat {to_move}): {e}") from None
            yield k, h, view, act, scores, state
            state.actions.append({"seat": to_move, "action": act})
            if view.phase == "auction":
                state.calls.append(parse_call(act, "call"))
                continue
            c = parse_cards(act)[0]
            if not cards:
                leader = to_move
            cards.append(c)
            if trump < 0:
                trump = c // 13
            if len(cards) == n:
                state.tricks.append(Trick(leader, tuple(cards)))
                cards = []
        done = _Hand(dealer, dealt, state.actions, state.calls, state.tricks)
        last = _view(rules, n, dealer, done, scores) if not cards else None
        if h.get("incomplete"):
            if k != len(hands):
                raise RecordError(f"{where} is incomplete but is not the last hand")
            return
        if last is None or last.phase not in ("over", "thrown-in"):
            raise RecordError(f"{where}: the actions stop before the hand is over")
        full = hand_doc(done, n, rules, scores)
        yield k, h, None, "", scores, full  # the hand's results, for replay to compare
        scores = full["scores_after"]
        if full["pitcher"] is not None:
            won = game_winner(scores, full["pitcher"], full["made"], rules)
            if won is not None and k != len(hands):
                raise RecordError(f"{where}: seat {won} won the game here, yet it goes on")


def views_of(doc: dict) -> Iterator[tuple[View, str]]:
    """(view, action) for every decision of a record, in order: the view the seat to act
    had, and the action it took."""
    for _, _, view, act, _, _ in _decisions(doc):
        if view is not None:
            yield view, act


RESULT_FIELDS = ("winner", "final_scores")


def replay(doc: dict, strategies: bool = True) -> dict:
    """The record ``doc`` played again from its actions; checked, and returned complete
    (results filled in where a hand-written record left them out).  Any difference from
    what ``doc`` says is a :class:`RecordError` naming it.  With ``strategies`` and a
    record of built-in seats with a seed, the strategies are asked again too."""
    hands_out = []
    scores = None
    winner = None
    for k, h, view, _act, _sc, full in _decisions(doc):
        if view is not None:
            continue
        for key, value in full.items():
            if key in ("hands", "actions"):
                continue  # read and checked above, in any order or notation
            if key in h and h[key] != value:
                raise RecordError(f"hand {k}: {key} is {h[key]!r}, but the actions give {value!r}")
        hands_out.append(_ordered({**full, **{x: h[x] for x in h if x not in full}}))
        scores = full["scores_after"]
        if full["pitcher"] is not None:
            rules = document_rules(doc["rules"])
            won = game_winner(scores, full["pitcher"], full["made"], rules)
            winner = won if won is not None else winner
    n = doc["players"]
    forfeit = doc.get("forfeit")
    last = doc["hands"][-1]
    if last.get("incomplete"):
        if not (forfeit or doc.get("stopped")):
            raise RecordError(
                "the last hand is incomplete but the record names no forfeit (nor a stop)"
            )
        hands_out.append(last)
    elif forfeit:
        raise RecordError("the record names a forfeit but its last hand is complete")
    final = scores if scores is not None else [0] * n
    out = dict(doc)
    for key, value in (("winner", winner), ("final_scores", final)):
        if key in doc and doc[key] != value:
            raise RecordError(f"{key} is {doc[key]!r}, but the actions give {value!r}")
        out[key] = value
    out.setdefault("forfeit", None)
    out["hands"] = hands_out
    if strategies:
        _recheck_strategies(out)
    return out


def _recheck_strategies(doc: dict) -> None:
    from .bidding import Strategy, StrategyError
    from .table import play_table_game

    names = doc.get("strategies")
    seed, board = doc.get("seed"), doc.get("board", 0)
    if not isinstance(names, list) or not isinstance(seed, int) or doc.get("forfeit"):
        return
    try:
        [Strategy.parse(s) for s in names if isinstance(s, str)]
    except StrategyError:
        return  # people or outside programs: the actions alone are the game
    if not all(isinstance(s, str) and not s.startswith("cmd:") for s in names):
        return
    again = play_table_game(names, document_rules(doc["rules"]), seed, board)
    for k, (a, b) in enumerate(zip(again["hands"], doc["hands"], strict=False), 1):
        if a["actions"] != b["actions"]:
            raise RecordError(
                f"hand {k}: the strategies {', '.join(names)} with seed {seed} "
                "decide differently from the record"
            )
    if len(again["hands"]) != len(doc["hands"]):
        raise RecordError(
            f"the strategies with seed {seed} play {len(again['hands'])} hands, "
            f"the record {len(doc['hands'])}"
        )


def game_of_record(doc: dict) -> Game:
    """A checked record (:func:`replay`'s) as a :class:`~pitchsim.games.rounds.Game`, for
    showing; a hand a forfeit cut short is left out."""
    from ..game.cards import SUITS
    from .rounds import Round

    rules = document_rules(doc["rules"])
    rounds, after = [], []
    for h in doc["hands"]:
        if h.get("incomplete"):
            continue
        n = h["players"]
        rounds.append(
            Round(
                players=n,
                dealer=h["dealer"],
                calls=list(h["bids"]),
                pitcher=h["pitcher"],
                bid=h["bid"],
                pitched=parse_cards(h["pitched"])[0] if h["pitched"] else None,
                trump=SUITS.index(h["trump"]) if h["trump"] else None,
                hands=[parse_cards(" ".join(cs)) for cs in h["hands"]],
                tricks=[
                    (t["leader"], parse_cards(" ".join(t["cards"])), t["winner"])
                    for t in h["tricks"]
                ],
                points=h["points"],
                game_points=h["game_points"],
                points_won=h["points_won"],
                round_points=h["round_points"],
                made=h["made"],
                rules=rules,
            )
        )
        after.append(h["scores_after"])
    return Game(
        doc.get("seed"),
        doc.get("board", 0),
        list(doc.get("strategies") or []),
        rules,
        rounds,
        after,
        doc["winner"],
    )
