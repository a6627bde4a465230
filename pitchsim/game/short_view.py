"""The short form of a view: what a person types at the table (``pitchsim hint``).

    pitchsim hint --hand "AH KH 2H 9C 7D 3S" --players 4 --dealer 3 \\
        --calls "pass,2,pass,3" --tricks "3: 6D 2C 9D 4D; 4C AC"

- ``--hand``: your six cards as dealt (cards you have played included);
- ``--calls``: every call from the dealer's left, comma-separated: ``pass`` (or ``p``,
  ``-``) or a bid ``1``-``4``;
- ``--tricks``: the tricks in order, separated by ``;`` (or ``|``), each one's cards in
  the order played from its leader, separated by spaces or commas; the last may be
  incomplete.  A trick may start with ``S:``, its leader's seat: it is checked (the
  pitcher leads the first trick, each trick's winner the next), never needed;
- ``--seat``: yours; by default the seat whose turn it is (the next caller in the
  auction, the next player in the play: a person at the table asks on his turn);
- ``--scores``: the game scores before this hand, per seat (``"3,5,0,6"``; in a
  partnership ``"5,3"``, per team); ``--players``, ``--dealer``, ``--rules``,
  ``--partnership`` and ``--target`` as in the JSON view.

Under a preset's rules (``--rules smear``, ...) the same, in the preset's words: the
hand as dealt (6 cards, jokers where the preset has them), the calls from ``pass`` up to
its maximum bid, and ``shoot`` where it is offered (6.1); ``--trump``, the suit the
pitcher named under trump=named; ``--kitty``, under kitty=N (12.2.2) and only for the
pitcher once trump is named, the kitty's cards he took.
Under ``partner=called|announced`` (12.1): ``--called``, the card the pitcher called,
heard by every seat once trump is named (12.1.2, 12.1.4); ``--partner``, the seat that
said "I play with you" under ``announced`` (the pitcher's own when nobody did: he plays
alone, 12.1.5), which under ``called`` is worked out from the hand and the play (12.1.3)
and only checked when given.
Under a discard and draw (4.8, 12.8), once trump is named, what the table saw of it:
``--discarded``, how many cards each seat put down, seat by seat, yours included (it is
checked), e.g. ``"3,5,0,2"``; ``--drawn``, the
cards you drew, in order (from the stock, then from the discards); ``--burnt``, the
trumps a seat burnt face up (4.8 step 2), and under discards=shown ``--shown``, the
cards each other seat put down face up (12.9), both seat by seat like ``"1: 3H 4H; 2:
5H"`` (your own are worked out); ``--robbed``, the robber's stock cards (4.8 step 5,
12.7), in his view only.  How many cards each other seat drew follows from the counts.
``--put-down``: the cards the seat chose to put down where the choice was its own (after
the rob, 4.8.7; after taking the kitty, 12.2.2; coming down to 6 under discard=choice or
draw, 12.8.1, 12.8.2); left out, pitchsim's own choice is assumed, as before the put-down
became a decision.

:func:`short_view` turns these into exactly the JSON view (``docs/view.md``) and reads
it with the view's own reader, so the short form is checked like a view; a piece that
cannot be read at all is refused in one line naming the option and the piece.
"""

from __future__ import annotations

import re

from . import reference as F
from .cards import CardError, format_card, parse_cards
from .rules import BASE_RULES, Rules, label, rules_text, spec
from .view import DRAW_MISSING, KITTY_MISSING, View, ViewError

_LEADER = re.compile(r"^\s*([^:]*):(.*)$", re.S)


def _calls(text: str | None, top: int = 4, shoot: bool = False) -> list[str]:
    """The calls typed: pass or a bid 1-``top`` (the most points a hand awards), or
    ``shoot`` where the rules offer it."""
    if text is None or not text.strip():
        return []
    out = []
    bids = {str(b) for b in range(1, top + 1)}
    for i, piece in enumerate(text.split(","), 1):
        t = piece.strip().lower()
        if t in ("pass", "p", "-", "0"):
            out.append("pass")
        elif t in bids or (shoot and t == "shoot"):
            out.append(t)
        else:
            what = f"{piece.strip()!r}" if t else "nothing"
            more = ", shoot" if shoot else ""
            raise ViewError(f"--calls: call {i} must be pass or a bid 1-{top}{more}, not {what}")
    return out


def _cards(text: str, what: str, jokers: int = 0) -> list[int]:
    try:
        return parse_cards(text, jokers)
    except CardError as e:
        raise ViewError(f"{what}: {e}") from None


def _tricks(text: str | None, jokers: int = 0) -> list[tuple[int | None, list[int]]]:
    """(stated leader or None, cards) per trick."""
    if text is None or not text.strip():
        return []
    pieces = re.split(r"[;|]", text)
    if not pieces[-1].strip():
        pieces = pieces[:-1]  # a trailing separator
    out = []
    for t, piece in enumerate(pieces, 1):
        leader = None
        m = _LEADER.match(piece)
        if m:
            head = m.group(1).strip()
            if not head.isdigit():
                raise ViewError(
                    f"--tricks: trick {t} starts with {head + ':'!r}: a leader is "
                    "a seat number, like 2:"
                )
            leader = int(head)
            piece = m.group(2)
        cards = _cards(piece, f"--tricks: trick {t}", jokers)
        if not cards:
            raise ViewError(f"--tricks: trick {t} has no cards")
        out.append((leader, cards))
    return out


def _turn(r: Rules, n: int, dealer: int, calls: list[str], tricks, named):
    """(whose turn it is, each trick's leader) worked out from the calls and cards; None
    where they cannot be (the view's checks then say what is wrong): one round of calls (0.2) that a bid of the maximum or a
    shoot may end at once (6.1), the pitcher the last bidder (every bid beats the high
    bid or steals it), who names trump under trump=named, leads the first trick and each
    trick's winner the next (0.5); under trump=first-lead the first card's printed suit
    is trump (6.3.5)."""
    made = [F.PASS if c == "pass" else F.shoot_call(r) if c == "shoot" else int(c) for c in calls]
    nxt = (dealer + 1 + len(made)) % n
    if len(made) < n and F.legal_calls(made, nxt == dealer, r):
        return nxt, [t[0] or 0 for t in tricks]
    bids = [i for i, c in enumerate(made) if c != F.PASS]
    if not bids:
        return None, [t[0] or 0 for t in tricks]
    leader = (dealer + 1 + bids[-1]) % n
    if r.trump == "named" and named is None:
        return leader, [t[0] or 0 for t in tricks]  # the pitcher names trump
    trump = named
    if trump is None and tricks and tricks[0][1][0] < 52:
        trump = tricks[0][1][0] // 13
    leaders = []
    for stated, cards in tricks:
        leaders.append(leader if stated is None else stated)
        start = leaders[-1]
        if len(cards) == n and trump is not None and max(cards) < 54:
            leader = (start + F.trick_winner(cards, trump, r)) % n
        else:
            return (start + len(cards)) % n, leaders
    return leader, leaders


def short_view(
    hand: str,
    players: int = 4,
    dealer: int = 0,
    calls: str | None = None,
    tricks: str | None = None,
    seat: int | None = None,
    scores: str | None = None,
    rules: Rules | None = None,
    trump: str | None = None,
    kitty: str | None = None,
    called: str | None = None,
    partner: int | None = None,
    draw: dict[str, str | None] | None = None,
):
    """The checked view the short form describes (see the module), holding ``rules``;
    ``draw`` the discard and draw's words by option (``--discarded``, ``--drawn``,
    ``--burnt``, ``--shown``, ``--robbed``)."""
    rules = rules or BASE_RULES
    r = rules
    preset = not rules.base_game  # the base game: its own words
    draw = {k: v for k, v in (draw or {}).items() if v is not None}
    if trump is not None and r.trump != "named":
        raise ViewError(
            f"--trump: under {label(rules) if preset else 'auction-pitch'} the first card "
            "led fixes trump (trump=first-lead, 6.3.5): leave --trump out"
        )
    named = None
    if trump is not None:
        t = trump.strip().upper()
        if len(t) != 1 or t not in "CDHS":
            raise ViewError(f"--trump must be a suit, C, D, H or S, not {trump!r}")
        named = "CDHS".index(t)
    cards = _cards(hand, "--hand", r.jokers)
    call_list = _calls(calls, r.max_bid, r.shoot)
    trick_list = _tricks(tricks, r.jokers)
    if not isinstance(players, int) or not 2 <= players <= 7:
        raise ViewError(f"--players must be 2-7, not {players}")
    if not 0 <= dealer < players:
        raise ViewError(
            f"--dealer {dealer} is not a seat of a {players}-player table (0-{players - 1})"
        )
    turn, leaders = _turn(r, players, dealer, call_list, trick_list, named)
    if seat is None:
        if turn is None:
            raise ViewError(
                "--seat: nobody is to act (the hand is over or thrown in): give your seat"
            )
        seat = turn
    score_list = None
    if scores is not None and scores.strip():
        score_list = []
        for i, x in enumerate(scores.split(","), 1):
            try:
                score_list.append(int(x.strip()))
            except ValueError:
                raise ViewError(
                    f"--scores: score {i} must be a whole number, not {x.strip()!r}"
                ) from None
    doc = {
        "rules": spec(rules) if preset else rules_text(rules),
        "players": players,
        "seat": seat,
        "dealer": dealer,
        "hand": [format_card(c, symbols=False) for c in cards],
        "calls": call_list,
        "tricks": [
            {"leader": lead, "cards": [format_card(c, symbols=False) for c in cs]}
            for lead, (_, cs) in zip(leaders, trick_list, strict=True)
        ],
    }
    if score_list is not None:
        doc["scores"] = score_list
    if named is not None:
        doc["trump"] = "CDHS"[named]
    if kitty is not None:
        if not r.kitty:
            raise ViewError(f"--kitty: {label(rules)} deals no kitty (12.2)")
        taken = _cards(kitty, "--kitty", r.jokers)
        doc["kitty"] = {"mine": {"taken": [format_card(c, symbols=False) for c in taken]}}
    elif r.kitty and named is not None:
        doc["kitty"] = {}  # taken once trump is named (12.2.2): the counts are the rules'
    for option, value in (("--called", called), ("--partner", partner)):
        if value is not None and r.partner == "none":
            raise ViewError(f"{option}: only under partner=called|announced (12.1), not {label(r)}")
        if value is not None and named is None:  # (a called partner needs trump named, 6.3.7)
            raise ViewError(
                f"{option}: no trump is named (--trump), so no partner is called yet "
                f"(12.1.2, 12.1.4): leave {option} out"
            )
    if called is not None:
        card = _cards(called, "--called", r.jokers)
        if len(card) != 1:
            raise ViewError(f"--called must be one card, like AS, not {called!r} (12.1.2)")
        doc["called"] = format_card(card[0], symbols=False)
    if partner is not None:
        doc["partner"] = partner
    put_down = draw.pop("--put-down", None)
    if draw:
        doc["draw"] = _draw_doc(draw, r, players, seat, cards, named, called)
    if put_down is not None:  # the seat's own choice, where the rules leave one
        down = [format_card(c, symbols=False) for c in _cards(put_down, "--put-down", r.jokers)]
        if kitty is not None:
            doc["kitty"]["mine"]["put_down"] = down  # 12.2.2
        elif "robbed" in doc.get("draw", {}).get("mine", {}):
            doc["draw"]["mine"]["put_down"] = down  # 4.8.7
        elif r.discard in ("choice", "draw") and "draw" in doc:
            doc["draw"]["mine"]["discarded"] = down  # 12.8.1, 12.8.2
        elif r.discard in ("choice", "draw") and named is not None:
            raise ViewError(_discarded_missing(players))
        else:
            raise ViewError(
                "--put-down: you chose no cards to put down: only after robbing (--robbed, "
                "4.8.7), after taking the kitty (--kitty, 12.2.2) or under "
                f"discard=choice|draw once trump is named (12.8.1, 12.8.2), not here ({label(r)})"
            )
    try:
        return View.from_json(doc, "hint --hand", rules)
    except ViewError as e:
        if kitty is None and str(e).startswith(KITTY_MISSING):
            raise ViewError(
                f"--kitty: you pitched, and took the kitty's {r.kitty} cards once trump was "
                "named (12.2.2): give them with --kitty"
            ) from None
        if not draw and str(e).endswith(DRAW_MISSING):
            raise ViewError(_discarded_missing(players)) from None
        raise ViewError(_partner_words(str(e), r)) from None


def _discarded_missing(n: int) -> str:
    return (
        "--discarded: trump is named, so every seat has put down its discards (4.8, "
        "12.8): give how many each seat put down, seat by seat, yours included, e.g. "
        f"--discarded {','.join(['3'] * n)}, and --drawn, the cards you drew"
    )


def _by_seat(text: str, what: str, n: int, jokers: int) -> dict[int, list[int]]:
    """Cards seat by seat, like ``"1: 3H 4H; 2: 5H"``."""
    out: dict[int, list[int]] = {}
    for piece in re.split(r"[;|]", text):
        if not piece.strip():
            continue
        m = _LEADER.match(piece)
        head = m.group(1).strip() if m else ""
        if not head.isdigit() or not 0 <= int(head) < n:
            raise ViewError(
                f"{what}: {piece.strip()!r} must start with a seat (0-{n - 1}), like 2: 3H 4H"
            )
        if int(head) in out:
            raise ViewError(f"{what}: seat {head} is given twice")
        out[int(head)] = _cards(m.group(2), what, jokers)
    return out


def _draw_doc(
    words: dict[str, str], r: Rules, n: int, seat: int, hand: list[int], named, called
) -> dict:
    """The view's ``draw`` (docs/view.md) from the short form's words (see the module):
    the seat's own burnt trumps are rule X's (4.8 step 6; the view checks the rest)."""
    if r.discard == "none":
        option = next(iter(words))
        raise ViewError(f"{option}: {label(r)} has no discard and draw (discard=none)")
    text = words.get("--discarded")
    if text is None:
        raise ViewError(_discarded_missing(n))
    counts = []
    for i, x in enumerate(text.split(","), 1):
        if not x.strip().isdigit():
            raise ViewError(f"--discarded: count {i} must be a whole number, not {x.strip()!r}")
        counts.append(int(x))
    if len(counts) != n:
        raise ViewError(f"--discarded: {len(counts)} counts given: one for each of the {n} seats")
    burnt = _by_seat(words.get("--burnt", ""), "--burnt", n, r.jokers)
    shown = _by_seat(words.get("--shown", ""), "--shown", n, r.jokers)
    if shown and r.discards != "shown":
        raise ViewError(f"--shown: under {label(r)} the discards are face down (12.9)")
    if seat not in burnt and r.discard == "non-trump" and named is not None:
        keep = -1  # a called card rule X passes over (12.1.3)
        if called is not None and r.partner == "called":
            keep = (_cards(called, "--called", r.jokers) or [-1])[0]
        trumps = [c for c in hand if F.is_trump(c, named, r)]
        burnt[seat] = F.excess_trumps(trumps, F.HAND_TARGET, named, r, keep)
    text_of = lambda cs: [format_card(c, symbols=False) for c in cs]  # noqa: E731
    mine = {"drawn": text_of(_cards(words.get("--drawn", ""), "--drawn", r.jokers))}
    if "--robbed" in words:
        mine["robbed"] = text_of(_cards(words["--robbed"], "--robbed", r.jokers))
    return {
        "seats": [
            {"discarded": counts[s], "burnt": text_of(burnt.get(s, []))}
            | ({"shown": text_of(shown[s])} if s in shown else {})
            for s in range(n)
        ],
        "mine": mine,
    }


def _partner_words(reason: str, r: Rules) -> str:
    """A view's refusal of its ``called`` or ``partner`` in the short form's words: the
    option that gives it (12.1)."""
    if reason.startswith("called is null or missing"):
        clause = "12.1.2" if r.partner == "called" else "12.1.4"
        return (
            f"--called: trump is named, so the pitcher called his partner's card ({clause}) "
            "and every seat heard it: give it with --called, e.g. --called AS"
        )
    if reason.startswith("partner is null or missing"):
        return (
            "--partner: under partner=announced the called card's holder says so at once "
            "(12.1.4): give his seat with --partner (the pitcher's own if nobody did: he "
            "plays alone, 12.1.5)"
        )
    for key in ("called", "partner"):
        if reason.startswith(f"{key}:"):
            return f"--{reason}"
        if reason.startswith(f"{key} "):
            return f"--{key}: {reason}"
    return reason
