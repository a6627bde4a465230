"""Heuristic hands played and logged by the family kernels (``play_logged``),
walked card by card, and the family heuristic as the reference engine's card chooser:
shared by the tests that check the rollout, pimc and the hint against the reference
engine (tests/test_family_rollout.py, tests/test_presets_pimc.py,
tests/test_family_hint.py); and the kernel's out arrays (``logged_arrays``) for the tests
that log hands themselves."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from pitchsim.game.rules import Rules
from pitchsim.kernels.play import MAX_TRICKS
from pitchsim.kernels.policies.cards import HEURISTIC
from pitchsim.kernels.presets import rules_array, rules_table
from pitchsim.kernels.score import N_AWARDS
from pitchsim.kernels.simulate import play_logged
from pitchsim.table.policies import kernel_chooser


@dataclass
class Logged:
    """``count`` hands at ``n`` players, seat ``pitcher`` pitching, every seat playing
    the heuristic; per hand the cards dealt and held, trump and the tricks played
    (``trumps[d, 0]``, ``[d, 1]``), the tricks' log (a trick: leader, the ``n`` cards
    in play order, -1 for a seat out of the hand, winner), each card's legal cards, the
    awards and each seat's points."""

    r: object
    fr: np.ndarray
    tab: tuple
    n: int
    pitcher: int
    dealt: np.ndarray
    held: np.ndarray
    trumps: np.ndarray
    log: np.ndarray
    legal_log: np.ndarray
    award: np.ndarray
    points: np.ndarray


def logged_arrays(count: int, n: int) -> dict[str, np.ndarray]:
    """``play_logged``'s out arrays for ``count`` hands at ``n`` players, zeroed,
    by name in the order it takes them (pass ``*out.values()``): the cards dealt, the
    deck, the hands in play, trump (trump, tricks, pack size, cards drawn, and under
    a called partner the card called and its holder, 12.1), the tricks' log, the legal
    cards, the discards, the awards and each seat's points."""
    return dict(
        dealt=np.zeros((count, n), np.int64),
        deck=np.zeros((count, 54), np.int64),
        held=np.zeros((count, n), np.int64),
        trump=np.zeros((count, 6), np.int64),
        log=np.zeros((count, MAX_TRICKS * (n + 2)), np.int64),
        legal=np.zeros((count, MAX_TRICKS * n), np.int64),
        junk=np.zeros((count, 54), np.int64),
        award=np.zeros((count, N_AWARDS), np.int64),
        points=np.zeros((count, n), np.int64),
    )


def logged_hands(spec: str, n: int, count: int, seed: int, pitcher: int = 0) -> Logged:
    r = Rules.parse(spec)
    fr, tab = rules_array(r), rules_table(r)
    out = logged_arrays(count, n)
    play_logged(
        seed, 0, count, n, n - 1, pitcher, np.int64(0), -1, np.full(n, 1, np.int64), fr, tab,
        *out.values(),
    )  # fmt: skip
    return Logged(
        r, fr, tab, n, pitcher, out["dealt"], out["held"], out["trump"], out["log"],
        out["legal"], out["award"], out["points"],
    )  # fmt: skip


@dataclass
class Card:
    """A card of a logged hand, with the hand as it stood before it was played (copies:
    the caller may keep them)."""

    d: int  # the hand
    t: int  # the trick
    i: int  # its place in the trick's log row
    seat: int
    card: int
    legal: int  # the seat's legal cards
    leader: int
    trump: int
    hands: list[int]  # what each seat still holds
    won: list[int]  # each seat's captures
    pby: list[int]  # each seat's cards played so far
    played: int  # the cards of the tricks finished
    trick: list[int]  # the trick so far, and who played each card
    tseats: list[int]
    script: list[int]  # every card played so far, in order

    def trick_arrays(self, n: int) -> tuple[np.ndarray, np.ndarray]:
        """The trick so far and its seats as the kernels take them (``n`` long)."""
        tr = np.zeros(n, np.int64)
        ts = np.zeros(n, np.int64)
        tr[: len(self.trick)] = self.trick
        ts[: len(self.tseats)] = self.tseats
        return tr, ts


def cards_of_hand(lg: Logged, d: int) -> Iterator[Card]:
    """Every card of logged hand ``d`` in play order (seats out of the hand left out:
    4.9), each with the hand before it."""
    n = lg.n
    trump, tricks = int(lg.trumps[d, 0]), int(lg.trumps[d, 1])
    hands = [int(h) for h in lg.held[d]]
    won = [0] * n
    pby = [0] * n
    played = 0
    script: list[int] = []
    for t in range(tricks):
        row = lg.log[d, t * (n + 2) : (t + 1) * (n + 2)]
        leader = int(row[0])
        trick: list[int] = []
        tseats: list[int] = []
        for i in range(n):
            c = int(row[1 + i])
            if c < 0:
                continue
            seat = (leader + i) % n
            legal = int(lg.legal_log[d, t * n + i])
            yield Card(
                d, t, i, seat, c, legal, leader, trump, list(hands), list(won), list(pby),
                played, list(trick), list(tseats), list(script),
            )  # fmt: skip
            trick.append(c)
            tseats.append(seat)
            script.append(c)
            hands[seat] &= ~(1 << c)
            pby[seat] |= 1 << c
        winner = int(row[n + 1])
        for c in trick:
            won[winner] |= 1 << c
            played |= 1 << c


def heuristic_chooser(n: int, fr, tab, script):
    """A card chooser for the reference engine's ``play_hand``: the cards of ``script``
    in play order, then every seat's family heuristic card, asked from the reference's
    view (``table.policies.kernel_chooser`` on the preset's ``fr``, ``tab``)."""
    k = iter(list(script))
    heuristic = kernel_chooser(np.full(n, HEURISTIC, np.int64), 0, 0, (fr, tab))

    def choose(v) -> int:
        c = next(k, None)
        return heuristic(v) if c is None else c

    return choose
