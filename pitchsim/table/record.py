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

import numbers
from collections.abc import Iterator

from ..game import reference as F
from ..game.cards import CardError, format_card, mask_of, parse_cards
from ..game.reference import MAX_BID, winners
from ..game.rules import Rules, RulesError, document_rules, label, rules_text
from ..game.view import (
    CALL_ACTION,
    DRAW_ACTION,
    PUT_DOWN_ACTION,
    TRUMP_ACTION,
    Trick,
    View,
    ViewError,
    parse_call,
    partner_call_text,
)
from ..kernels.contract import MAX_DEALS
from ..util.errors import InputError, quoted
from ..util.limits import MAX_BOARD, MAX_SCORE
from ..util.runtime import check_seed
from .answers import checked_action
from .game import (
    CALL_BY_RULE_VERSION,
    DEAL_ORDER,
    KEY_ORDER,
    READ_VERSIONS,
    RECORD_FORMAT,
    RECORD_VERSION,
    _Hand,
    _ordered,
    _view,
    hand_doc,
    puts_down,
    record_stamp,
)
from .rounds import Game


class RecordError(InputError):
    """A record that cannot be read or did not happen as it says."""


class DealOrderError(RecordError):
    """A record written by a pitchsim that dealt its seed otherwise (``deal_order``):
    not damaged, but not this pitchsim's game to deal again."""


def check_deal_order(doc: dict) -> None:
    """A record naming another ``deal_order`` than this pitchsim's is refused, both
    named: its seed gives other deals here."""
    if "deal_order" not in doc:
        return  # written before records named it, or by hand: see check_seed_deal
    order = doc["deal_order"]
    if isinstance(order, bool) or not isinstance(order, int) or order < 1:
        raise RecordError(f"deal_order must be a whole number from 1, not {quoted(order)}")
    if order != DEAL_ORDER:
        raise DealOrderError(
            f"the record was written by a pitchsim with deal order {order}, and this "
            f"pitchsim deals by deal order {DEAL_ORDER}: its seed gives other deals here, "
            "so it is not read as this pitchsim's game"
        )


def check_seed_deal(doc: dict, k: int, mine: dict, real: dict, seed: int) -> None:
    """Hand ``k`` of the record ``doc`` (``mine``) is the deal its seed gives here
    (``real``, the game dealt again): the same dealer, hands and stock.  Otherwise a
    record that names this pitchsim's ``deal_order`` was edited (its seed or a deal); one
    that names none was written before records named theirs, by a pitchsim that may
    have dealt the seed otherwise, and is told so, not called damaged."""
    if (
        _same(mine.get("hands"), real["hands"])
        and _same(mine.get("dealer"), real["dealer"])
        and ("stock" not in mine or _same(mine["stock"], real.get("stock")))
    ):
        return
    if "deal_order" not in doc:
        raise DealOrderError(
            f"hand {k} is not the deal seed {seed} gives here: the record names no "
            "deal_order, so it was written by a pitchsim from before records named their "
            f"deal order, which dealt otherwise (this pitchsim deals by deal order "
            f"{DEAL_ORDER}); it cannot be played again from its seed"
        )
    raise RecordError(f"hand {k} is not the deal seed {seed} gives (an edited seed or deal)")


def record_of_game(game: Game) -> dict:
    """The record of a game the kernels played (``rounds.play_board``)."""
    doc = game.to_json()
    n = len(game.strategies)
    head = {
        **record_stamp(),
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
    """The record's rules, checked against its ``family``, ``partnership`` and
    ``target`` when it states them."""
    spec_ = doc.get("rules")
    if not isinstance(spec_, str | dict):
        raise RecordError('a record needs its rules: a rule string like "target=11"')
    try:
        # a string or an object, never a file
        rules = document_rules(spec_)
    except RulesError as e:
        raise RecordError(f"rules: {e}") from None
    family = doc.get("family")
    if family is not None:
        if not isinstance(family, str):
            raise RecordError(f"family must be a preset's name, not {quoted(family)}")
        if family != rules.family:
            raise RecordError(
                f"family is {quoted(family)} but the rules are {label(rules)}: a record of "
                f"one preset is not read under another's rules"
            )
    for key in ("partnership", "target"):
        if key in doc and not _same(doc[key], getattr(rules, key)):
            raise RecordError(
                f"{key} is {quoted(doc[key])} but the rules say {getattr(rules, key)!r}"
            )
    return rules


def preset_path(doc: dict, rules: Rules) -> bool:
    """Whether the record ``doc`` of ``rules`` (``_rules(doc)``) is played by the preset
    path (``TableDeal``): its rules are not the base game's, or it names its ``family``
    (auction-pitch played by the preset path)."""
    return not rules.base_game or doc.get("family") is not None


def is_preset_record(doc: dict) -> bool:
    """A record played by the preset path (``preset_path``)."""
    return preset_path(doc, _rules(doc))


def check_record_rules(doc: dict, rules: Rules) -> None:
    """Refuses a record given under other rules than its own, naming both."""
    mine = _rules(doc)
    if mine != rules:
        raise RecordError(
            f"the record is a game of {label(mine)}, not of {label(rules)}: a record "
            "replays under its own rules only"
        )


# The fields a record may have (docs/record.md); any other is refused, not ignored.
RECORD_FIELDS = (
    "format",
    "version",
    "deal_order",  # how the seed was dealt (table.game.DEAL_ORDER); absent in older records
    "rules",
    "players",
    "seed",
    "board",
    "strategies",
    "target",
    "partnership",
    "winner",
    "final_scores",
    "forfeit",
    "family",  # the preset, for a record played by the preset path (TableDeal)
    "winners",  # under a preset: every winning side (a shared win, 3.11)
    "stopped",  # a person's stop (practice): the game can be resumed
    "practice",  # practice's own part of its save, checked by coach.practice
    "hands",
)
HAND_FIELDS = (*KEY_ORDER, "rules", "incomplete")
# A hand a forfeit or a stop cut short holds the deal, the actions and the scores so far.
PARTIAL_FIELDS = ("players", "dealer", "hands", "incomplete", "scores_after", "actions")
# Under a preset: the calls (shoot included), the stock and the draw (4.8), the hands in
# play after it, and every point of the preset (docs/record.md, "Every preset").
PRESET_HAND_FIELDS = (
    "hands_counted",  # under hands=N (12.4)
    "players",
    "dealer",
    "calls",
    "pitcher",
    "bid",
    "shoot",
    "trump",
    "hands",
    "stock",
    "draw",
    "kitty",  # under kitty=N (12.2)
    "held",
    "tricks",
    "points",
    "game_points",
    "points_won",
    "made",
    "called",  # under partner=called|announced (12.1)
    "partner",
    "round_points",
    "partnership",
    "scores_after",
    "actions",
    "rules",
    "incomplete",
)
PRESET_PARTIAL_FIELDS = (*PARTIAL_FIELDS, "stock", "draw", "kitty")
FORFEIT_FIELDS = ("seat", "strategy", "reason")


def _same(a, b) -> bool:
    """Equal as JSON values: ``true`` is not ``1`` and ``1.0`` is not ``1`` (Python's
    ``==`` would let either pass)."""
    if isinstance(a, dict) or isinstance(b, dict):
        return (
            isinstance(a, dict)
            and isinstance(b, dict)
            and a.keys() == b.keys()
            and all(_same(a[k], b[k]) for k in a)
        )
    if isinstance(a, list | tuple) or isinstance(b, list | tuple):
        return (
            isinstance(a, list | tuple)
            and isinstance(b, list | tuple)
            and len(a) == len(b)
            and all(_same(x, y) for x, y in zip(a, b, strict=True))
        )
    return _kind(a) == _kind(b) and a == b


def _kind(v) -> str:
    if isinstance(v, bool) or v is None:
        return repr(v)
    if isinstance(v, numbers.Integral):
        return "int"
    return type(v).__name__


def _int(v, what, low: int | None = None, high: int | None = None) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise RecordError(f"{what} must be a whole number, not {quoted(v)}")
    if (low is not None and v < low) or (high is not None and v > high):
        raise RecordError(f"{what} must be {low}-{high}, not {quoted(v)}")
    return v


def _text(v, what) -> str:
    if not isinstance(v, str) or not v.strip():
        raise RecordError(f"{what} must be a non-empty string, not {quoted(v)}")
    if not v.isprintable():  # shown as text: a control character would drive the terminal
        raise RecordError(f"{what} holds a control character: {quoted(v)}")
    return v


def _only(d: dict, allowed, where: str) -> None:
    for key in d:
        if key not in allowed:
            raise RecordError(f"{where}: unknown field {quoted(key)} (docs/record.md)")


def _need(d: dict, keys, where: str) -> None:
    for key in keys:
        if key not in d:
            raise RecordError(f"{where}: {key} is missing")


def _head(doc) -> tuple[Rules, int]:
    """The record's fields other than its hands, each typed and in range."""
    if not isinstance(doc, dict):
        raise RecordError("a record is a JSON object (docs/record.md)")
    _only(doc, RECORD_FIELDS, "the record")
    if "format" in doc and not _same(doc["format"], RECORD_FORMAT):
        raise RecordError(f"format is {quoted(doc['format'])}, not {RECORD_FORMAT!r}")
    read = READ_VERSIONS
    if "version" in doc and not any(_same(doc["version"], v) for v in read):
        raise RecordError(
            f"record version {quoted(doc['version'])}: this pitchsim reads "
            f"{', '.join(map(str, read[:-1]))} and {read[-1]}"
        )
    check_deal_order(doc)
    rules = _rules(doc)
    n = _int(doc.get("players"), "players")
    try:
        rules.check_players(n)
    except RulesError as e:
        raise RecordError(str(e)) from None
    if doc.get("seed") is not None:
        try:
            check_seed(doc["seed"])
        except InputError as e:
            raise RecordError(str(e)) from None
    if doc.get("board") is not None:
        _int(doc["board"], "board", 0, MAX_BOARD)
    names = doc.get("strategies")
    if names is not None:
        if not isinstance(names, list) or len(names) != n:
            raise RecordError(f"strategies must list the {n} seats' strategies")
        for s, name in enumerate(names):
            _text(name, f"strategies: seat {s}'s strategy")
    if doc.get("winner") is not None:
        _int(doc["winner"], "winner", 0, 1 if rules.partnership else n - 1)
    if "final_scores" in doc:
        scores = doc["final_scores"]
        if not isinstance(scores, list) or len(scores) != n:
            raise RecordError(f"final_scores must list the {n} seats' scores")
        for s, v in enumerate(scores):
            _int(v, f"final_scores: seat {s}'s score", -MAX_SCORE, MAX_SCORE)
    f = doc.get("forfeit")
    if f is not None:
        if not isinstance(f, dict):
            raise RecordError(f"forfeit must be null or an object, not {quoted(f)}")
        _only(f, FORFEIT_FIELDS, "forfeit")
        _need(f, FORFEIT_FIELDS, "forfeit")
        seat = _int(f["seat"], "forfeit: seat", 0, n - 1)
        _text(f["strategy"], "forfeit: strategy")
        _text(f["reason"], "forfeit: reason")
        if names is not None and f["strategy"] != names[seat]:
            raise RecordError(
                f"forfeit: seat {seat}'s strategy is {quoted(names[seat])}, "
                f"not {quoted(f['strategy'])}"
            )
    if "stopped" in doc:
        _text(doc["stopped"], "stopped")
        if f is not None:
            raise RecordError("a record names a forfeit or a stop, not both")
    if doc.get("winners") is not None:
        won = doc["winners"]
        if not isinstance(won, list) or len(set(map(repr, won))) != len(won):
            raise RecordError(f"winners must list the winning sides once each, not {quoted(won)}")
        for w in won:
            _int(w, "winners: a side", 0, 1 if rules.partnership else n - 1)
    if "practice" in doc and not isinstance(doc["practice"], dict):
        raise RecordError(f"practice must be an object, not {quoted(doc['practice'])}")
    hands = doc.get("hands")
    if not isinstance(hands, list) or not hands:
        raise RecordError("a record needs hands: a list of deals with their actions")
    if len(hands) > MAX_DEALS:
        raise RecordError(f"a game has at most {MAX_DEALS:,} hands, not {len(hands):,}")
    return rules, n


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


def _check_dealer(doc: dict, k: int, dealer: int, before: dict | None, n: int, rules) -> None:
    """The deal passes one seat to the left after every hand, but after a hand thrown
    in (everybody passed, ``all-pass=redeal``) the same dealer deals again (docs/rules.md;
    VARIANTS 0.1, 4.5).  The first dealer of game ``board`` is seat ``board`` mod n."""
    where = f"hand {k}: the dealer is seat {dealer}"
    if before is None:
        board = doc.get("board")
        if isinstance(board, int) and dealer != board % n:
            raise RecordError(
                f"{where}, but game {board} is dealt first by seat {board % n} "
                "(its board number mod the players)"
            )
        return
    if before["pitcher"] is None and rules.all_pass == "redeal":
        if dealer != before["dealer"]:
            raise RecordError(
                f"{where}, but hand {k - 1} was thrown in, so seat {before['dealer']} deals "
                "again (all-pass=redeal, docs/rules.md)"
            )
    elif dealer != (before["dealer"] + 1) % n:
        raise RecordError(
            f"{where}, but the deal passes to the left: seat {(before['dealer'] + 1) % n} "
            f"deals after hand {k - 1}"
        )


def _decisions(doc: dict) -> Iterator[tuple[int, dict, View | None, str, list[int], dict]]:
    """Every decision of the record: (hand number, hand, view, action, scores, state);
    after each complete hand (hand number, hand, None, "", scores, its results).  The
    whole record is checked on the way (the generator returns the winner and the final
    scores): its fields, the dealers, every action against the rules, every result."""
    rules, n = _head(doc)
    if preset_path(doc, rules):
        return (yield from _preset_decisions(doc, rules, n))
    hands = doc["hands"]
    scores = [0] * n
    before: dict | None = None  # the previous hand's results
    winner = None
    to_move = None  # the seat to act when an incomplete hand stopped
    for k, h in enumerate(hands, 1):
        where = f"hand {k}"
        if not isinstance(h, dict):
            raise RecordError(f"{where} must be an object")
        incomplete = h.get("incomplete", False)
        if not isinstance(incomplete, bool):
            raise RecordError(
                f"{where}: incomplete must be true or false, not {quoted(incomplete)}"
            )
        if incomplete and k != len(hands):
            raise RecordError(f"{where} is incomplete but is not the last hand")
        if incomplete:
            for key in h:
                if key not in PARTIAL_FIELDS and key in HAND_FIELDS:
                    raise RecordError(
                        f"{where} is marked incomplete, yet gives {key}: an incomplete hand "
                        "holds only the deal, the actions and the scores before it"
                    )
        _only(h, PARTIAL_FIELDS if incomplete else HAND_FIELDS, where)
        _need(h, ("dealer", "hands", "actions"), where)
        if "players" in h and not _same(h["players"], n):
            raise RecordError(f"{where}: players is {quoted(h['players'])}, not {n}")
        dealer = _int(h["dealer"], f"{where}: dealer", 0, n - 1)
        _check_dealer(doc, k, dealer, before, n, rules)
        dealt = _hand_masks(h, n, where)
        actions = h["actions"]
        if not isinstance(actions, list):
            raise RecordError(f"{where}: actions must be a list")
        state = _Hand(dealer, dealt, [], [], [])
        cards: list[int] = []
        leader = None
        trump = -1
        for a_no, a in enumerate(actions, 1):
            if isinstance(a, dict):
                _only(a, ("seat", "action"), f"{where}: action {a_no}")
                _need(a, ("seat", "action"), f"{where}: action {a_no}")
                seat = _int(a["seat"], f"{where}: action {a_no}: seat", 0, n - 1)
                action = a["action"]
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
                    f"{where}: action {a_no} is by seat {seat}, but seat {to_move} is to act"
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
        partial = _Hand(
            dealer,
            dealt,
            state.actions,
            state.calls,
            state.tricks + ([Trick(leader, tuple(cards))] if cards else []),
        )
        last = _view(rules, n, dealer, partial, scores)
        over = last.to_move is None
        if incomplete:
            if over:
                raise RecordError(
                    f"{where} is marked incomplete, but its actions finish it (its result "
                    "would be dropped)"
                )
            to_move = last.to_move
            if "scores_after" in h and not _same(h["scores_after"], scores):
                raise RecordError(
                    f"{where}: scores_after is {quoted(h['scores_after'])}, but the scores "
                    f"before it are {scores}"
                )
            break
        if not over:
            raise RecordError(f"{where}: the actions stop before the hand is over")
        full = hand_doc(done, n, rules, scores)
        for key, value in full.items():
            if key in ("hands", "actions"):
                continue  # read and checked above, in any order or notation
            if key in h and not _same(h[key], value):
                raise RecordError(
                    f"{where}: {key} is {quoted(h[key])}, but the actions give {value!r}"
                )
        yield k, h, None, "", scores, full  # the hand's results
        scores = full["scores_after"]
        before = full
        if full["pitcher"] is not None:
            won = next(iter(winners(scores, full["pitcher"], full["made"], rules)), None)
            if won is not None:
                if k != len(hands):
                    raise RecordError(f"{where}: seat {won} won the game here, yet it goes on")
                winner = won
    _check_end(doc, hands[-1].get("incomplete") is True, to_move, winner, scores)
    return winner, scores


def _preset_cards(value, what: str, r: Rules) -> list[int]:
    if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
        raise RecordError(f"{what} must be a list of cards")
    try:
        cards = parse_cards(" ".join(value), r.jokers)
    except CardError as e:
        raise RecordError(f"{what}: {e}") from None
    if len(cards) != len(value):
        raise RecordError(f"{what}: each entry must be one card")
    return cards


def _preset_deal(h: dict, n: int, where: str, r: Rules) -> tuple[list[int], list[int]]:
    """A hand's deal under a preset: every seat's cards (6, 9 or 10, 6.1, 4.3) from the
    preset's pack, and under a draw (4.8) the stock, top card first: the rest of it."""
    hands = h.get("hands")
    if not isinstance(hands, list) or len(hands) != n:
        raise RecordError(f"{where}: hands must list the {n} hands as dealt")
    pack = mask_of(F.pack(r, n))
    each = r.cards_each(n)
    seen = 0
    masks = []
    for s, cs in enumerate(hands):
        cards = _preset_cards(cs, f"{where}: seat {s}'s hand", r)
        m = mask_of(cards)
        if len(cards) != each:
            raise RecordError(f"{where}: seat {s} was dealt {len(cards)} cards, not {each}")
        if m & ~pack:
            out = [c for c in cards if not pack >> c & 1]
            raise RecordError(
                f"{where}: seat {s} was dealt {format_card(out[0], symbols=False)}, which is not "
                f"in the pack of {label(r)} at {n} players"
            )
        if m & seen:
            raise RecordError(f"{where}: seat {s} was dealt a card another seat holds")
        seen |= m
        masks.append(m)
    stock: list[int] = []
    if F.takes_stock(r):
        if "stock" not in h:
            why = "deals its kitty from it (12.2.1)" if r.kitty else "draws from it (4.8, 12.8.2)"
            raise RecordError(f"{where}: stock is missing: {label(r)} {why}")
        stock = _preset_cards(h["stock"], f"{where}: stock", r)
        if mask_of(stock) & seen or seen | mask_of(stock) != pack:
            raise RecordError(f"{where}: stock must be the rest of the pack, the undealt cards")
    elif "stock" in h:
        raise RecordError(f"{where}: stock is given, but {label(r)} has no draw")
    return masks, stock


def _preset_draw(h: dict, where: str, r: Rules, n: int, dealer: int):
    """The discard and draw (4.8) as the record says the discards were drawn: the
    reference engine's, drawing from the discards the cards the record names, in order
    (checked with the rest of the hand's results)."""
    from .game import _Drawn

    order: list[int] = []
    given = h.get("draw")
    if given is not None:
        seats = given.get("seats") if isinstance(given, dict) else None
        if (
            not isinstance(seats, list)
            or len(seats) != n
            or not all(isinstance(d, dict) for d in seats)
        ):
            raise RecordError(f"{where}: draw must be an object with seats: one object a seat")
        drawn = [_preset_cards(d.get("drawn", []), f"{where}: draw", r) for d in seats]

    def draw(held, stock, pitcher, trump, called=-1, chosen=None):
        if given is not None:
            at_stock = set(stock)
            last = F.last_to_discard(pitcher, dealer, r)  # who draws last (12.7, 12.8)
            order[:] = [c for i in range(n) for c in drawn[(last + 1 + i) % n] if c not in at_stock]
        out, rec = F.after_naming(
            held, stock, pitcher, trump, r, _Drawn(order), dealer, called, chosen
        )
        if given is None and any(c not in stock for d in rec.drawn for c in d):
            raise RecordError(
                f"{where}: draw is missing: a seat drew from the discards (4.8 step 4), and "
                "only the record can say which cards"
            )
        return out, rec

    return draw


def call_by_rule(doc: dict) -> bool:
    """A record of version 1: under partner=called|announced the table made pitchsim's
    call (12.1), which is no action there (``table.game.CALL_BY_RULE_VERSION``)."""
    return _same(doc.get("version"), CALL_BY_RULE_VERSION)


def _by_rule(doc: dict, rules: Rules) -> tuple[str, ...]:
    """The actions (by their prefix) a record of an older version does not hold, the
    table having made pitchsim's: the call of a partner's card in version 1 (12.1), the
    put-downs in versions 1 to 3 where ``put_down_by_rule`` says so (12.2.2, 12.8)."""
    call = (CALL_ACTION,) if call_by_rule(doc) else ()
    return call + ((PUT_DOWN_ACTION, DRAW_ACTION) if put_down_by_rule(doc, rules) else ())


def record_version(doc: dict) -> int:
    """The record's version (one without is read as this pitchsim's)."""
    v = doc.get("version")
    return v if isinstance(v, int) and not isinstance(v, bool) else RECORD_VERSION


def put_down_by_rule(doc: dict, rules: Rules) -> bool:
    """A record of an older version whose put-downs under ``rules`` were pitchsim's
    (12.8.3), no actions, where this pitchsim asks them (``table.game.puts_down``:
    versions 1 and 2 anywhere, version 3 under discard=draw and discards=shown and the
    robber's come-down, 4.8.7)."""
    return puts_down(rules) and not puts_down(rules, record_version(doc))


def _preset_decisions(doc: dict, r: Rules, n: int):
    """``_decisions`` under a preset: each hand walked by the table's own
    :class:`~pitchsim.table.game.TableDeal` with the record's actions."""
    from .game import TableDeal, winners_of

    hands = doc["hands"]
    scores = [0] * n
    counted = 0  # hands counted toward hands=N (12.4)
    before: dict | None = None
    winners: list[int] = []
    to_move = None
    for k, h in enumerate(hands, 1):
        where = f"hand {k}"
        if not isinstance(h, dict):
            raise RecordError(f"{where} must be an object")
        incomplete = h.get("incomplete", False)
        if not isinstance(incomplete, bool):
            raise RecordError(
                f"{where}: incomplete must be true or false, not {quoted(incomplete)}"
            )
        if incomplete and k != len(hands):
            raise RecordError(f"{where} is incomplete but is not the last hand")
        allowed = PRESET_PARTIAL_FIELDS if incomplete else PRESET_HAND_FIELDS
        if incomplete:
            for key in h:
                if key not in allowed and key in PRESET_HAND_FIELDS:
                    raise RecordError(
                        f"{where} is marked incomplete, yet gives {key}: an incomplete hand "
                        "holds only the deal, the draw, the actions and the scores before it"
                    )
        _only(h, allowed, where)
        _need(h, ("dealer", "hands", "actions"), where)
        if "players" in h and not _same(h["players"], n):
            raise RecordError(f"{where}: players is {quoted(h['players'])}, not {n}")
        if "rules" in h:
            try:
                check_record_rules({"rules": h["rules"], "family": r.family}, r)
            except RecordError as e:
                raise RecordError(f"{where}: {e}") from None
        dealer = _int(h["dealer"], f"{where}: dealer", 0, n - 1)
        _check_dealer(doc, k, dealer, before, n, r)
        dealt, stock = _preset_deal(h, n, where, r)
        actions = h["actions"]
        if not isinstance(actions, list):
            raise RecordError(f"{where}: actions must be a list")
        hand = TableDeal(
            r, n, dealer, dealt, stock, scores, _preset_draw(h, where, r, n, dealer), counted,
            call_by_rule=call_by_rule(doc), version=record_version(doc),
        )  # fmt: skip
        walk = hand.run()
        full = None
        try:
            to_move, view = next(walk)
            for a_no, a in enumerate(actions, 1):
                if isinstance(a, dict):
                    _only(a, ("seat", "action"), f"{where}: action {a_no}")
                    _need(a, ("seat", "action"), f"{where}: action {a_no}")
                    seat = _int(a["seat"], f"{where}: action {a_no}: seat", 0, n - 1)
                    action = a["action"]
                else:
                    seat, action = None, a
                if full is not None:
                    raise RecordError(f"{where}: action {a_no} comes after the hand is over")
                if seat is not None and seat != to_move:
                    raise RecordError(
                        f"{where}: action {a_no} is by seat {seat}, but seat {to_move} is to act"
                    )
                try:
                    act = checked_action(view, action)
                except ValueError as e:
                    raise RecordError(f"{where}: action {a_no} (seat {to_move}): {e}") from None
                yield k, h, view, act, scores, hand
                try:
                    to_move, view = walk.send(act)
                except StopIteration as end:
                    full = end.value
        except ViewError as e:
            raise RecordError(f"{where}: {e}") from None
        if incomplete:
            if full is not None:
                raise RecordError(
                    f"{where} is marked incomplete, but its actions finish it (its result "
                    "would be dropped)"
                )
            if "scores_after" in h and not _same(h["scores_after"], scores):
                raise RecordError(
                    f"{where}: scores_after is {quoted(h['scores_after'])}, but the scores "
                    f"before it are {scores}"
                )
            if "draw" in h and not _same(h["draw"], hand.draw_doc()):
                raise RecordError(
                    f"{where}: draw is {quoted(h['draw'])}, but the rules give {hand.draw_doc()!r}"
                )
            if "kitty" in h and not _same(h["kitty"], hand.kitty_record()):
                raise RecordError(
                    f"{where}: kitty is {quoted(h['kitty'])}, but the rules give "
                    f"{hand.kitty_record()!r} (12.2.2)"
                )
            break
        if full is None:
            raise RecordError(f"{where}: the actions stop before the hand is over")
        for key, value in full.items():
            if key in ("hands", "actions", "stock", "rules"):
                continue  # read and checked above
            if key in h and not _same(h[key], value):
                raise RecordError(
                    f"{where}: {key} is {quoted(h[key])}, but the actions give {value!r}"
                )
        yield k, h, None, "", scores, full
        scores = full["scores_after"]
        counted = full.get("hands_counted", counted)
        before = full
        won = winners_of(full, r)
        if won:
            if k != len(hands):
                raise RecordError(f"{where}: side {won[0]} won the game here, yet it goes on")
            winners = won
    winner = winners[0] if len(winners) == 1 else None
    _check_end(doc, hands[-1].get("incomplete") is True, to_move, winner, scores)
    if "winners" in doc and not _same(doc["winners"], winners):
        raise RecordError(f"winners is {quoted(doc['winners'])}, but the actions give {winners!r}")
    return winner, scores


def _check_end(doc: dict, incomplete: bool, to_move, winner, scores: list[int]) -> None:
    """A forfeit or a stop, the incomplete last hand, the winner and the final scores
    agree with one another and with the actions."""
    forfeit = doc.get("forfeit")
    if incomplete:
        if forfeit is None and "stopped" not in doc:
            raise RecordError(
                "the last hand is incomplete but the record names no forfeit (nor a stop)"
            )
        if forfeit is not None and forfeit["seat"] != to_move:
            raise RecordError(
                f"forfeit names seat {forfeit['seat']}, but seat {to_move} was to act when "
                "the game ended"
            )
    elif forfeit is not None:
        raise RecordError("the record names a forfeit but its last hand is complete")
    elif "stopped" in doc:
        raise RecordError("the record says it was stopped but its last hand is complete")
    for key, value in (("winner", winner), ("final_scores", scores)):
        if key in doc and not _same(doc[key], value):
            raise RecordError(f"{key} is {quoted(doc[key])}, but the actions give {value!r}")


def views_of(doc: dict) -> Iterator[tuple[View, str]]:
    """(view, action) for every decision of a record, in order: the view the seat to act
    had, and the action it took."""
    for _, _, view, act, _, _ in _decisions(doc):
        if view is not None:
            yield view, act


RESULT_FIELDS = ("winner", "final_scores")


def replay(doc: dict, strategies: bool = True) -> dict:
    """The record ``doc`` played again from its actions; checked, and returned complete
    (results filled in where a hand-written record left them out; a complete record
    comes back as it was, key for key, so that it is written back byte for byte).  Any
    difference from what ``doc`` says is a :class:`RecordError` naming it.  With
    ``strategies`` and a record of built-in seats with a seed, the strategies are asked
    again too."""
    hands_out = []
    walk = _decisions(doc)
    preset = is_preset_record(doc)
    won: list[int] = []
    while True:
        try:
            _k, h, view, _act, _sc, full = next(walk)
        except StopIteration as end:
            winner, final = end.value
            break
        if view is None:
            if preset:
                from .game import winners_of

                won = winners_of(full, _rules(doc))
            if all(key in h for key in full):
                hands_out.append(dict(h))  # every result given, and checked: as written
            elif preset:  # the table's own order of fields
                hands_out.append({**full, **{x: h[x] for x in h if x not in full}})
            else:
                hands_out.append(_ordered({**full, **{x: h[x] for x in h if x not in full}}))
    last = doc["hands"][-1]
    if last.get("incomplete"):
        hands_out.append(last)
    out = dict(doc)
    out["winner"] = winner
    if preset:
        out["winners"] = won if not last.get("incomplete") else []
    out["final_scores"] = final
    out.setdefault("forfeit", None)
    out["hands"] = hands_out
    if strategies:
        _recheck_strategies(out)
    return out


def _recheck_strategies(doc: dict) -> None:
    from .bidding import Strategy, StrategyError
    from .game import play_table_game

    names = doc.get("strategies")
    seed, board = doc.get("seed"), doc.get("board") or 0
    if not isinstance(names, list) or not isinstance(seed, int) or doc.get("forfeit"):
        return
    if "stopped" in doc:  # a person's seat: coach.practice checks a save's bots on resume
        return
    try:
        [Strategy.parse(s) for s in names if isinstance(s, str)]
    except StrategyError:
        return  # people or outside programs: the actions alone are the game
    if not all(isinstance(s, str) and not s.startswith("cmd:") for s in names):
        return
    rules = _rules(doc)
    if not is_preset_record(doc):
        # A base-game record in the base engine's own form, written before built-in
        # seats decided the base game by the one game kernel (the family kernels, as
        # every preset): its seats are not asked again; its actions are checked by the
        # rules.
        return
    again = play_table_game(names, rules, seed, board)
    gone = _by_rule(doc, rules)  # an older record's: no actions there, pitchsim's rule made them
    for k, (a, b) in enumerate(zip(again["hands"], doc["hands"], strict=False), 1):
        check_seed_deal(doc, k, b, a, seed)
        if [x for x in a["actions"] if not x["action"].startswith(gone)] != b["actions"]:
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
    """A checked record (:func:`replay`'s) as a :class:`~pitchsim.table.rounds.Game`, for
    showing; a hand a forfeit cut short is left out."""
    from ..game.cards import SUITS
    from .rounds import Round

    rules = _rules(doc)
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


def preset_game_of_record(doc: dict):
    """A checked record of a preset's game (:func:`replay`'s) as a
    :class:`~pitchsim.table.boards.BoardGame`, for showing; a hand a forfeit or a
    stop cut short is left out."""
    from ..game.cards import SUITS
    from .boards import BoardGame, BoardHand

    r = _rules(doc)
    hands = []
    for h in doc["hands"]:
        if h.get("incomplete"):
            continue
        dealt = [mask_of(_preset_cards(cs, "hand", r)) for cs in h["hands"]]
        held = h.get("held")
        hands.append(
            BoardHand(
                dealer=h["dealer"],
                calls=list(h["calls"]),
                pitcher=h["pitcher"],
                bid=h["bid"] or 0,
                shoot=h["shoot"],
                trump=SUITS.index(h["trump"]) if h["trump"] else None,
                dealt=dealt,
                held=[mask_of(_preset_cards(cs, "held", r)) for cs in held] if held else dealt,
                tricks=[
                    (t["leader"], t["seats"], _preset_cards(t["cards"], "trick", r), t["winner"])
                    for t in h["tricks"]
                ],
                awards=h["points"],
                points_won=h["points_won"],
                made=h["made"],
                change=h["round_points"],
                scores_after=h["scores_after"],
                called=_preset_cards([h["called"]], "called", r)[0] if h.get("called") else None,
                partner=h.get("partner"),  # 12.1
            )
        )
    return BoardGame(
        doc.get("seed"),
        doc.get("board") or 0,
        list(doc.get("strategies") or [f"seat {s}" for s in range(doc["players"])]),
        r,
        hands,
        list(doc.get("winners") or []),
    )


def record_of_preset_game(game) -> dict:
    """The record of a game the family kernels played (``boards.board_game``), as
    :func:`record_of_game` is for the base game: each deal dealt again from its stream
    (``game._kernel_deal``: the same cards and draw) and walked by the table's
    :class:`~pitchsim.table.game.TableDeal` with the kernels' actions (and pitchsim's
    put-downs, which the kernels make by rule, 12.8.3), so that it is
    the record ``play_table_game`` writes for the same seats (a hand that comes out
    otherwise is a bug, raised)."""
    import numpy as np

    from ..game.cards import SUITS
    from ..kernels.rng import deal_key
    from .decide import pitchsims_put_down
    from .game import TableDeal, _kernel_deal, _record_head, winners_of

    r = game.rules
    n = len(game.strategies)
    record = _record_head(r, n, game.seed, game.board, game.strategies, preset=True)
    record["winners"] = []
    scores = [0] * n
    counted = 0  # hands counted toward hands=N (12.4)
    for d, fh in enumerate(game.hands):
        key = np.uint64(deal_key(game.seed, game.board * MAX_DEALS + d))
        dealt, stock, draw = _kernel_deal(r, n, fh.dealer, key)
        actions = [c for c in fh.calls if c is not None]
        if fh.pitcher is not None:
            if r.trump == "named":
                actions.append(TRUMP_ACTION + SUITS[fh.trump])
            if fh.called is not None:  # 12.1: the kernels' call, pitchsim's
                actions.append(partner_call_text(fh.called))
            actions += [format_card(c, symbols=False) for t in fh.tricks for c in t[2]]
        walk = TableDeal(r, n, fh.dealer, dealt, stock, scores, draw, counted).run()
        _, view = next(walk)
        doc = None
        for a in actions:
            while view.phase == "put_down":  # the kernels came down to 6 by pitchsim's rule
                _, view = walk.send(pitchsims_put_down(view))  # (12.8.3), as its seats do
            try:
                _, view = walk.send(a)
            except StopIteration as end:
                doc = end.value
        if doc is None or doc["scores_after"] != fh.scores_after:
            raise RuntimeError(f"hand {d + 1} of the kernels' game differs at the table")
        record["hands"].append(doc)
        scores = doc["scores_after"]
        counted = doc.get("hands_counted", counted)
        won = winners_of(doc, r)
        if won:
            record["winners"] = won
            record["winner"] = won[0] if len(won) == 1 else None
    record["final_scores"] = list(scores)
    return record
