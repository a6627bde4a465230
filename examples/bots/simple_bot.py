#!/usr/bin/env python3
"""A small Pitch bot speaking pitch-engine/1 (docs/protocol.md): standard library only.

It reads one JSON request per line on stdin and answers on stdout:
  hello  -> its name and (no) options
  decide -> an action from the view's "legal" list
  quit   -> exits
Its play is simple on purpose: it bids 2 (or the lowest bid offered where 2 is not, as
in ten-point's 5-10) with an ace or king and a third card in that suit, names (under a preset that names trump) the suit it holds most of, leads its
highest trump, follows with its lowest card; under a called partner it calls the
highest card of the trump suit it lacks.  It plays every preset: it reads only the
"legal" actions the view lists.  Logs go to stderr.
"""

import json
import sys

RANKS = "23456789TJQKA"


def rank(card):
    return RANKS.find(card[0])  # a joker ("HJ", "LJ") ranks below every card


def choose(view):
    legal = view["legal"]
    if not legal:
        raise ValueError("nothing is legal: not my turn")
    if legal[0].startswith("trump:"):  # naming trump: the suit held most
        return max(legal, key=lambda a: sum(c[1] == a[-1] for c in view["hand"]))
    if legal[0].startswith("call:"):  # a partner's card (12.1): the highest trump lacked
        held = view.get("held") or view["hand"]
        lacked = [a for a in legal if a[5:] not in held and a[-1] == view["trump"]]
        return (lacked or legal)[-1]
    if legal[0].startswith("down:"):  # coming down to 6 (12.2.2, 12.8.1): the lowest plain card
        if "draw" in legal:  # under discard=draw (12.8.2): down to 6, then it draws
            return "draw"
        plain = [a for a in legal if a[6:] != view["trump"]]
        return min(plain or legal, key=lambda a: rank(a[5:]))
    if legal[0] == "pass" or legal[0].isdigit():  # the auction (never a shoot)
        bids = [a for a in legal if a.isdigit()]
        hand = view["hand"]
        strong = any(
            sum(c[1] == suit for c in hand) >= 3
            and any(c[1] == suit and c[0] in "AK" for c in hand)
            for suit in "CDHS"
        )
        if "pass" not in legal:
            return bids[0]  # a stuck dealer takes the lowest bid
        if strong and bids:  # 2, or where the bids start higher the lowest of them
            return "2" if "2" in bids else bids[0]
        return "pass"
    trick = view["tricks"][-1]["cards"] if view["tricks"] else []
    if view["tricks"] and len(trick) == view["players"]:
        trick = []  # the last trick is complete: I lead
    trump = view["trump"]
    if not trick:  # leading: the highest trump, else the highest card
        trumps = [c for c in legal if trump and c[1] == trump]
        return max(trumps or legal, key=rank)
    return min(legal, key=rank)


def main():
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        try:
            msg = json.loads(line)
        except ValueError:
            print(
                json.dumps(
                    {"type": "error", "id": None, "code": "bad-json", "message": "not JSON"}
                ),
                flush=True,
            )
            continue
        kind = msg.get("type")
        if kind == "hello":
            print(
                json.dumps(
                    {
                        "type": "hello",
                        "protocol": "pitch-engine/1",
                        "name": "simple_bot",
                        "options": [],
                    }
                ),
                flush=True,
            )
        elif kind == "decide":
            try:
                action = choose(msg["view"])
                reply = {"type": "action", "id": msg.get("id"), "action": action}
            except (KeyError, ValueError, TypeError, IndexError) as e:
                reply = {
                    "type": "error",
                    "id": msg.get("id"),
                    "code": "bad-view",
                    "message": str(e),
                }
            print(json.dumps(reply), flush=True)
        elif kind == "quit":
            return
        else:
            print(
                json.dumps(
                    {
                        "type": "error",
                        "id": msg.get("id"),
                        "code": "unknown-type",
                        "message": f"unknown request type {kind!r}",
                    }
                ),
                flush=True,
            )


if __name__ == "__main__":
    main()
