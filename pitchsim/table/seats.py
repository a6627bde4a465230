"""Seats that decide one decision from a view: built-in strategies (the kernels, asked
for a single seat) and anything with ``call(view)`` / ``play(view)``.

A built-in strategy decides from a :class:`~pitchsim.game.view.View` exactly as the game
kernel (``kernels.game``) decides inside a game, under every preset, the base
game's included (``table.decide``): the same policy, given what the seat knows, at
the same random-stream position (a key and a counter).  The table (``table.game``)
passes the game's own deal key, so a game of built-in seats played decision by decision
is the kernel's game; the engine (``pitchsim engine``), which has no game, derives the
key from its seed and the view (:func:`view_key`): the same view gives the same answer.
Its decisions are the calls (``"shoot"`` included), the pitcher's naming of trump
(``"trump:H"``), his call of a partner's card (``"call:AS"``, 12.1) and the cards.  As a seat object (:meth:`KernelSeat.call`,
:meth:`KernelSeat.play`) a built-in strategy draws each decision from its ``seed`` and
the view, as the engine does.

An advisor that wins the auction plans its trump; where the first card names trump the
pitcher leads in it.  Nothing remembers the plan: the seat asks its call again, from
the same stream (``decide``), on the same clock.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

import numpy as np

from ..game.rules import label
from ..game.view import View
from ..kernels.rng import deal_key
from ..util.jsonio import dumps_json
from .bidding import Strategy
from .decide import decide_at

KEY_BITS = 62


def view_key(seed: int, view: View) -> np.uint64:
    """The random stream of a decision the engine makes: a hash of the seed and the view
    (its history, not the ``legal`` list a table may add), so the same view and seed give
    the same answer, and different views independent ones.  A preset's view is hashed
    with its rules as ``label`` writes them (``smear``, ``smear,target=15``), not as the
    complete rule string it is written with: an option added to the complete rules
    leaves a preset's answers as they were."""
    doc = view.to_json()
    doc.pop("legal")
    if not view.rules.base_game:
        doc["rules"] = label(view.rules)
    text = dumps_json(doc, indent=None, separators=(",", ":"), sort_keys=True)
    h = int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "little")
    return np.uint64(deal_key(seed, h & ((1 << KEY_BITS) - 1)))


@dataclass(frozen=True)
class Decision:
    action: str  # "pass", "2", "KS"
    values: dict[str, float] | None = None  # per legal action, when the strategy has them
    plan: int = -1  # an advisor's call: the trump it plans (never shown to the table)
    # a search on a clock: {"worlds": valued, "worlds_max": wanted, "stop": why}
    search: dict | None = None


class KernelSeat:
    """A built-in strategy (``odds+heuristic``, ``advisor+rollout``, ...) as a seat, for
    a view of the base game or of any preset.  ``seed``: the
    seed of :meth:`call` and :meth:`play`'s streams (with the view, as the engine's)."""

    def __init__(
        self,
        strategy: str | Strategy,
        samples: int | None = None,
        time: float | None = None,
        seed: int = 0,
    ):
        self.strategy = strategy if isinstance(strategy, Strategy) else Strategy.parse(strategy)
        self.name = self.strategy.name
        self.samples = samples  # the advisor's deals per call (None: its default)
        self.time = time  # seconds a search play decision or advisor call may take (None: none)
        self.seed = seed

    def call(self, view: View) -> str:
        """The seat's call, or as the pitcher under trump=named the trump it names
        (``"trump:H"``) and under a called partner the card it calls (``"call:AS"``),
        from the stream of ``seed`` and the view."""
        if view.phase not in ("auction", "trump", "call", "put_down"):
            raise ValueError(f"seat {view.seat} has no call to make: the phase is {view.phase}")
        return self._answer(view)

    def play(self, view: View) -> str:
        """The seat's card, from the stream of ``seed`` and the view."""
        if view.phase != "play":
            raise ValueError(f"seat {view.seat} has no card to play: the phase is {view.phase}")
        return self._answer(view)

    def _answer(self, view: View) -> str:
        return self.decide(view, view_key(self.seed, view)).action

    def decide(
        self,
        view: View,
        key: np.uint64,
        values: bool = False,
        time: float | None = None,
    ) -> Decision:
        """The seat's decision at ``view`` (its turn), drawing from stream ``key``.
        ``time`` (else the seat's own): the seconds a search play policy or the ``advisor``
        bidding policy may take; it then values its worlds (``table.clock``) or plays its
        deals (``table.advisor_clock``) on a clock and may stop early, and says how
        (``Decision.search``).  A strategy the kernels
        do not play under the view's rules is refused in one line (``StrategyError``)."""
        if view.to_move != view.seat:
            raise ValueError(f"it is not seat {view.seat}'s turn")
        budget = self.time if time is None else time
        d = decide_at(self.strategy, view, key, values, budget, self.samples)
        return Decision(d.action, d.values, d.plan, d.search)
