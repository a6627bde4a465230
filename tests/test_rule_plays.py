"""The rule-specific plays players ask about (issue 31 item 5), each a hand-built position
whose right card is worked out here, checked for the strategy pitchsim plays as a player
(the engine's default, ``odds+rollout``) and for the studies' play model
(``odds+heuristic``), as an outside program would ask for it: one ``decide`` to the
engine (docs/protocol.md).  Where the right card is worth a clear margin, the search
(``rollout``, its values the seat's own objective: docs/protocol.md) must agree too.

- Low to its captor (docs/rules.md 0.7, RULES 2): last to a trick nobody trumped, void
  in the led suit, holding the deuce of trump as the only trump: ruff with the deuce.
  The trick is won (no trump can follow it) and Low goes to its captor, this seat; kept,
  the deuce falls to a higher trump when trump is led.
- Low to its holder (``low=dealt``, 0.7): the same position, but Low is this seat's
  whatever happens to the deuce, and the trick holds nothing: the deuce is kept (a trump
  to ruff a trick worth something later), not spent.
- Partners (0.10): under the partner's trump Ace, the deuce: the Ace wins, Low goes to
  the Ace's captor, the side.  Under the partner's plain Ace (a winning card, led), no
  trump: the side takes the trick either way, and a trump spent is a trump lost.
- The trump Ace, last to a trick that holds nothing (0.7): kept, not spent on it.
- The jick (smear, 3.6, 0.4): led, it is a trump lead; last to play, holding the Jack
  and the Ace of trump, take it with the Jack: Jack and Jick both to this seat, and the
  Ace kept.
"""

from __future__ import annotations

import json

import pytest
from views import view_doc

from pitchsim.table.engine import Engine

SEARCH = "odds+rollout:200"
# The engine's default (None: no options sent) and the studies' heuristic play.
PLAYERS = pytest.mark.parametrize("strategy", [None, "odds+heuristic"])
# Known: in one position (partners, under the partner's plain Ace) the default plays the
# wrong card: its rollout's cards differ by less than 0.1 of a point, so a world or two of
# its 32 decides.  The heuristic, and the rollout elsewhere here, play the right card.
# strict: a fix shows (the other position once known, the deuce kept under low=dealt,
# was fixed when the base game moved to the one engine's rollout).
NOISY = pytest.mark.xfail(
    strict=True, reason="the rollout's 32 worlds decide between near-equal cards"
)


def decide(view: dict, strategy: str | None = None) -> dict:
    request = {"type": "decide", "id": 1, "view": view}
    if strategy is not None:
        request["options"] = {"strategy": strategy}
    reply = json.loads(Engine().handle(json.dumps(request)))
    assert reply["type"] == "action", reply
    return reply


# Seat 0 pitched 2 and drew trump (hearts) with its Ace; it leads a low club, seat 1 and
# seat 2 follow low; seat 3, last, has no club and only the deuce of trump left.
DEUCE_LAST = view_doc(
    "auction-pitch", seat=3, dealer=3, hand="7H 2H KS 8S 5D 9D", calls="2 pass pass pass",
    tricks=((0, "AH 5H 6H 7H"), (0, "9C 4C 3C")),
)  # fmt: skip


@pytest.mark.parametrize(
    "rules, scores",
    [("auction-pitch", [0, 0, 0, 0]), ("setback", [0, 0])],  # setback: partners, low=captured
)
@PLAYERS
def test_low_to_its_captor_the_deuce_ruffs_when_last_and_void(rules, scores, strategy):
    view = DEUCE_LAST | {"rules": rules, "scores": scores}
    assert decide(view, strategy)["action"] == "2H"


def test_the_search_agrees_the_deuce_takes_low():
    values = decide(DEUCE_LAST, SEARCH)["values"]  # the seat's own objective
    others = [v for c, v in values.items() if c != "2H"]
    assert values["2H"] > max(others) + 0.05


@PLAYERS
def test_low_to_its_holder_the_deuce_is_kept(strategy):
    view = DEUCE_LAST | {"rules": "auction-pitch,low=dealt"}
    assert decide(view, strategy)["action"] != "2H"


# Partners 1+3 against 0+2: seat 1 pitched 2 and leads the trump Ace; seat 2 followed.
UNDER_THE_ACE = view_doc(
    "auction-pitch,partnership=true", seat=3, dealer=0, hand="9H 2H KS 8S 5D 9D",
    calls="2 pass pass pass", tricks=((1, "AH 5H"),), scores=[0, 0],
)  # fmt: skip


@PLAYERS
def test_the_lowest_trump_under_a_partners_ace(strategy):
    assert decide(UNDER_THE_ACE, strategy)["action"] == "2H"
    values = decide(UNDER_THE_ACE, SEARCH)["values"]  # seat 3 is on the pitcher's side
    assert values["2H"] > values["9H"] + 0.1


# Seat 1 (the pitcher, seat 3's partner) drew a round of trumps, then leads the club Ace;
# seat 3 has no club and holds trumps.
PARTNERS_PLAIN_ACE = view_doc(
    "auction-pitch,partnership=true", seat=3, dealer=0, hand="9H QH KS 8S 5D 9D",
    calls="2 pass pass pass", tricks=((1, "AH 5H 9H 3H"), (1, "AC 4C")), scores=[0, 0],
)  # fmt: skip


@pytest.mark.parametrize(
    "rules, strategy",
    [
        pytest.param("auction-pitch,partnership=true", None, marks=NOISY),
        ("auction-pitch,partnership=true", "odds+heuristic"),
        ("setback", None),
        ("setback", "odds+heuristic"),
    ],
)
def test_a_partners_plain_ace_is_not_trumped(rules, strategy):
    action = decide(PARTNERS_PLAIN_ACE | {"rules": rules}, strategy)["action"]
    assert action[1] != "H", action  # any card but a trump


def test_the_search_keeps_the_trump_under_the_partners_ace():
    values = decide(PARTNERS_PLAIN_ACE, SEARCH)["values"]  # on the pitcher's side
    assert max(values[c] for c in ("5D", "9D", "8S")) > values["QH"] + 0.05


# Smear, spades named trump by seat 0, who leads the jick (the jack of clubs).
JICK_LED = view_doc(
    "smear", seat=3, dealer=3, hand="JS AS 4H 8D 9D 7C", calls="2 pass pass pass",
    tricks=((0, "JC 3S 5S"),), trump="S", scores=[0, 0, 0, 0],
)  # fmt: skip


@PLAYERS
def test_the_jick_led_is_a_trump_lead_taken_with_the_jack(strategy):
    reply = decide(JICK_LED | {"legal": ["JS", "AS"]}, strategy)  # a trump lead: trumps only
    assert reply["action"] == "JS"
    values = decide(JICK_LED, SEARCH)["values"]  # the seat's own objective
    assert values["JS"] > values["AS"] + 0.2


# Seat 0 pitched 2 in hearts and drew a round of trumps with the King (seat 3 followed
# with the 8); now it leads a low club and seats 1 and 2 follow low.  Seat 3, last, has no
# club and holds the trump Ace.  The trick holds nothing (no point, no count for Game),
# and the Ace is High wherever it falls (0.7): taking the trick with it gains only the
# lead and spends the one card that can still capture the Jack or the ten of trump.
ACE_LAST_NOTHING = view_doc(
    "auction-pitch", seat=3, dealer=3, hand="8H AH 9S 8S 5D 9D", calls="2 pass pass pass",
    tricks=((0, "KH 5H 6H 8H"), (0, "4C 3C 6C")), scores=[0, 0, 0, 0],
)  # fmt: skip


@PLAYERS
def test_the_ace_is_kept_when_last_with_nothing_to_capture(strategy):
    assert decide(ACE_LAST_NOTHING, strategy)["action"] != "AH"


def test_the_search_keeps_the_ace_too():
    values = decide(ACE_LAST_NOTHING, SEARCH)["values"]  # the seat's own objective
    assert values["AH"] < min(v for c, v in values.items() if c != "AH")
