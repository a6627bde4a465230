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

:func:`short_view` turns these into exactly the JSON view (``docs/view.md``) and reads
it with :meth:`View.from_json`, so the short form is checked like a view; a piece that
cannot be read at all is refused in one line naming the option and the piece.
"""

from __future__ import annotations

import re

from .cards import CardError, format_card, parse_cards
from .reference.auction import PASS
from .reference.play import trick_winner
from .rules import Rules, rules_text
from .view import View, ViewError, call_text

_LEADER = re.compile(r"^\s*([^:]*):(.*)$", re.S)


def _calls(text: str | None) -> list[str]:
    if text is None or not text.strip():
        return []
    out = []
    for i, piece in enumerate(text.split(","), 1):
        t = piece.strip().lower()
        if t in ("pass", "p", "-", "0"):
            out.append("pass")
        elif t in ("1", "2", "3", "4"):
            out.append(t)
        else:
            what = f"{piece.strip()!r}" if t else "nothing"
            raise ViewError(f"--calls: call {i} must be pass or a bid 1-4, not {what}")
    return out


def _cards(text: str, what: str) -> list[int]:
    try:
        return parse_cards(text)
    except CardError as e:
        raise ViewError(f"{what}: {e}") from None


def _tricks(text: str | None) -> list[tuple[int | None, list[int]]]:
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
        cards = _cards(piece, f"--tricks: trick {t}")
        if not cards:
            raise ViewError(f"--tricks: trick {t} has no cards")
        out.append((leader, cards))
    return out


def _turn(n: int, dealer: int, calls: list[str], tricks) -> tuple[int | None, list[int]]:
    """(whose turn it is, each trick's leader) worked out from the calls and cards; None
    where they cannot be (the view's checks then say what is wrong)."""
    bids = [0 if c == "pass" else int(c) for c in calls]
    over = len(bids) == n or 4 in bids
    if not over:
        return (dealer + 1 + len(bids)) % n, [t[0] or 0 for t in tricks]
    if not any(bids):
        return None, [t[0] or 0 for t in tricks]
    last = max(i for i, b in enumerate(bids) if b != PASS)
    leader = (dealer + 1 + last) % n
    trump = tricks[0][1][0] // 13 if tricks else None
    leaders = []
    for stated, cards in tricks:
        leaders.append(leader if stated is None else stated)
        start = leaders[-1]
        if len(cards) == n:
            leader = (start + trick_winner(cards, trump)) % n
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
) -> View:
    """The checked :class:`View` the short form describes (see the module)."""
    rules = rules or Rules()
    cards = _cards(hand, "--hand")
    call_list = _calls(calls)
    trick_list = _tricks(tricks)
    if not isinstance(players, int) or not 2 <= players <= 7:
        raise ViewError(f"--players must be 2-7, not {players}")
    if not 0 <= dealer < players:
        raise ViewError(
            f"--dealer {dealer} is not a seat of a {players}-player table (0-{players - 1})"
        )
    turn, leaders = _turn(players, dealer, call_list, trick_list)
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
        "rules": rules_text(rules),
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
    return View.from_json(doc, "hint --hand")


assert call_text(PASS) == "pass"
