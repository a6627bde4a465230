"""Double-dummy value of a position by exhaustive minimax, in plain Python: the
specification the numba solver (:mod:`pitchsim.kernels.search.solver`) is tested against,
under every preset.

Every hand is open; the pitcher's side plays to maximise, every other seat to minimise,
the points the pitcher's side holds when the hand is scored.  Play and scoring are the
family reference engine's own (:mod:`pitchsim.game.reference`: ``legal_cards``,
``trick_winner``, ``trumps_in`` and ``score_hand``), stepped the way its ``play_hand``
steps a hand: under follow=only a seat holding no trump is out of the trick and the
winner hands the lead on to the next seat holding one (4.9); before the opening lead
under trump=first-lead each lead is tried, its printed suit becoming trump (6.3.5).  The
base game is auction-pitch, a preset like the others: a base :class:`Position` is
solved as that preset's state (its ``state``); the two engines' reference rules agree
on it (checked on 3,800 random base positions, every table size and rule option, when
the base game's own minimax was folded in here).  Under a called partner (12.1) the
pitcher's side is he and the holder of the call when play started (12.1.5, 12.1.6,
``partner_of``), who under partner=called must play it to the first trick (12.1.3), as
the reference's ``play_hand`` has it.  No pruning; a memo of the trick-boundary
positions already solved (keyed by everything that decides the rest of the hand) only
saves time, and so do the caches of the reference engine's pure functions (``_Tree``:
each value the function's own on the same arguments).  One function steps a hand
(``_Tree.step``): ``solve`` on a state's fields, without building a ``PlayState`` a node
(a sixth of the time: the same values, and the same trick-boundary entries of the memo
in the same order, on 636 random positions of every preset, scripts/minimax_agreement.py
--per 16 --seed 11), and ``PlayState.play`` on a state.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..game import reference as ref
from ..game.cards import cards_of, suit_of
from ..game.reference.partner import partner_of
from ..game.reference.score import sides_of
from ..game.rules import Rules


@dataclass(frozen=True)
class PlayState:
    """A family hand cut at one card, every hand open.  ``held``: the hands when the
    first card was led (after any draw); ``trick``/``seats``: the trick in progress and
    who played each card; ``offset``: how far round from ``leader`` the next seat to be
    considered sits; ``leader`` None once the hand is over."""

    rules: Rules
    pitcher: int
    held: tuple[int, ...]
    hands: tuple[int, ...]
    won: tuple[int, ...]
    trump: int
    leader: int | None
    trick: tuple[int, ...] = ()
    seats: tuple[int, ...] = ()
    offset: int = 0
    first: bool = False  # the opening lead is still to be made
    called: int = -1  # the card the pitcher called (12.1), -1: none

    @property
    def partner(self) -> int | None:
        return partner_of(self.held, self.pitcher, self.called)

    @property
    def n(self) -> int:
        return len(self.hands)

    @property
    def only(self) -> bool:
        return self.rules.follow == "only"

    def to_play(self) -> int | None:
        if self.leader is None:
            return None
        return _tree(self).to_play(self.hands, self.leader, self.offset, self.trump)

    def legal(self) -> int:
        if self.leader is None:
            return 0
        _, cards = _tree(self).moves(
            self.hands, self.won, self.trick, self.leader, self.offset, self.trump, self.first
        )
        return sum(1 << c for c in cards)

    def play(self, c: int) -> PlayState:
        seat = self.to_play()
        hands, won, trick, seats, leader, offset, trump = _tree(self).step(
            self.hands, self.won, self.trick, self.seats, self.leader, self.trump, seat, c
        )
        return PlayState(
            self.rules, self.pitcher, self.held, hands, won, trump, leader, trick, seats, offset,
            False, self.called,
        )  # fmt: skip

    def points(self) -> int:
        """The pitcher's side's points of the finished hand (``score_hand``)."""
        sides = sides_of(self.n, self.pitcher, self.partner, self.rules)
        score = ref.score_hand(self.held, self.won, self.trump, self.rules, sides)
        return score.points[self.pitcher]

    def pitcher_side(self, seat: int) -> bool:
        if self.called >= 0:
            return seat in (self.pitcher, self.partner)  # 12.1.6
        return self.rules.team(seat) == self.rules.team(self.pitcher)


def start_state(
    rules,
    pitcher: int,
    held,
    hands,
    won,
    trump: int,
    leader: int,
    trick=(),
    called: int = -1,
) -> PlayState:
    """A state from masks; the trick's seats are read from ``held`` (each card's holder),
    the opening lead from nothing having been played; ``called`` the card a pitcher
    called (12.1)."""
    n = len(hands)
    seats = tuple(next(s for s in range(n) if held[s] >> c & 1) for c in trick)
    offset = (seats[-1] - leader) % n + 1 if trick else 0
    first = not trick and not any(won)
    st = PlayState(
        rules,
        pitcher,
        tuple(int(m) for m in held),
        tuple(int(m) for m in hands),
        tuple(int(m) for m in won),
        trump,
        leader,
        tuple(trick),
        seats,
        offset,
        first,
        called,
    )
    if not trick and (not hands[leader] if not st.only else st.to_play() is None):
        st = replace(st, leader=None)  # the hand is over
    return st


class _Tree:
    """What one hand's minimax needs besides the position: the hand's constants and
    caches of the reference engine's pure functions, keyed by every argument they take
    but the rules (``trumps_in``, ``legal_cards`` with the cards it lists,
    ``trick_winner``, the pitcher's side's points of ``score_hand`` by captures and
    trump).  A cache only saves calls: each value is the function's own on the same
    arguments."""

    def __init__(self, st: PlayState) -> None:
        self.rules = st.rules
        self.n = st.n
        self.pitcher = st.pitcher
        self.held = st.held
        self.called = st.called
        self.only = st.only
        self.partner = st.partner
        self.must_call = st.rules.partner == "called"  # 12.1.3
        self.maximiser = tuple(st.pitcher_side(s) for s in range(self.n))
        self.sides = sides_of(self.n, st.pitcher, self.partner, st.rules)
        self._trumps: dict = {}
        self._legal: dict = {}
        self._winner: dict = {}
        self._points: dict = {}

    def trumps(self, mask: int, trump: int) -> int:
        key = (mask, trump)
        t = self._trumps.get(key)
        if t is None:
            t = self._trumps[key] = ref.trumps_in(mask, trump, self.rules)
        return t

    def to_play(self, hands, leader, offset, trump) -> int | None:
        """``PlayState.to_play``."""
        n = self.n
        if not self.only:
            return (leader + offset) % n if offset < n else None
        for i in range(offset, n):
            seat = (leader + i) % n
            if not self.trumps(hands[seat], trump):
                continue  # 4.9: out of the hand
            return seat
        return None

    def legal(self, hand: int, trick: tuple, trump: int, first: bool) -> list[int]:
        """``cards_of(legal_cards(...))``."""
        key = (hand, trick, trump, first)
        cs = self._legal.get(key)
        if cs is None:
            legal = ref.legal_cards(hand, list(trick), trump, self.rules, first)
            cs = self._legal[key] = cards_of(legal)
        return cs

    def winner(self, trick: tuple, trump: int) -> int:
        key = (trick, trump)
        w = self._winner.get(key)
        if w is None:
            w = self._winner[key] = ref.trick_winner(list(trick), trump, self.rules)
        return w

    def points(self, won: tuple, trump: int) -> int:
        """``PlayState.points``."""
        key = (won, trump)
        p = self._points.get(key)
        if p is None:
            score = ref.score_hand(self.held, won, trump, self.rules, self.sides)
            p = self._points[key] = score.points[self.pitcher]
        return p

    def moves(self, hands, won, trick, leader, offset, trump, first) -> tuple:
        """The seat to move and its legal cards (under partner=called the call on trick
        1, 12.1.3); (None, []) when nobody is left to play to the trick."""
        seat = self.to_play(hands, leader, offset, trump)
        if seat is None:
            return None, []
        if self.must_call and seat == self.partner and not any(won):
            return seat, [self.called]  # 12.1.3: trick 1 (no trick taken yet)
        return seat, self.legal(hands[seat], trick, trump, first and not trick)

    def step(self, hands, won, trick, seats, leader, trump, seat, c) -> tuple:
        """The fields (hands, won, trick, seats, leader, offset, trump) after ``seat``
        plays ``c``: the trick goes on to the next seat, or is taken by its winner, who
        leads next (under follow=only the first seat from him holding a trump, 4.9;
        None: the hand is over)."""
        n = self.n
        next_hands = (*hands[:seat], hands[seat] & ~(1 << c), *hands[seat + 1 :])
        next_trump = suit_of(c) if trump < 0 else trump
        next_trick = (*trick, c)
        next_seats = (*seats, seat)
        next_offset = (seat - leader) % n + 1
        if (
            next_offset < n
            if not self.only
            else self.to_play(next_hands, leader, next_offset, next_trump) is not None
        ):
            return next_hands, won, next_trick, next_seats, leader, next_offset, next_trump
        winner = next_seats[self.winner(next_trick, next_trump)]
        taken = 0
        for x in next_trick:
            taken |= 1 << x
        next_won = (*won[:winner], won[winner] | taken, *won[winner + 1 :])
        next_leader: int | None = winner
        if self.only:
            next_leader = next(
                (
                    (winner + i) % n
                    for i in range(n)
                    if self.trumps(next_hands[(winner + i) % n], next_trump)
                ),
                None,
            )
        if next_leader is not None and not next_hands[next_leader]:
            next_leader = None
        return next_hands, next_won, (), (), next_leader, 0, next_trump

    def value(self, hands, won, trick, seats, leader, offset, trump, first, memo) -> int:
        """The value of the state of these fields: the seat to move, each of its legal
        cards played (``step``), the mover's best."""
        if leader is None:
            return self.points(won, trump)
        # Only trick boundaries are kept: a state inside a trick is met again only
        # through its trick's first state, which is kept.  (``called`` and ``held`` are
        # one hand's: a memo serves one state's descendants.)
        key = None
        if not trick:
            key = (hands, won, trick, seats, leader, offset, trump, first)
            value = memo.get(key)
            if value is not None:
                return value
        seat, cards = self.moves(hands, won, trick, leader, offset, trump, first)
        maximiser = self.maximiser[seat] if cards else False
        best = None
        for c in cards:
            v = self.value(
                *self.step(hands, won, trick, seats, leader, trump, seat, c), False, memo
            )
            if best is None or (v > best if maximiser else v < best):
                best = v
        if best is None:
            raise ValueError("no card to play")  # (as max() of no values)
        if key is not None:
            memo[key] = best
        return best


_last_tree: list = [None, None]  # (the hand's constants, its _Tree): one hand at a time


def _tree(st: PlayState) -> _Tree:
    hand = (st.rules, st.pitcher, st.held, st.called)
    if _last_tree[0] != hand:
        _last_tree[:] = [hand, _Tree(st)]
    return _last_tree[1]


def solve(st, memo: dict | None = None) -> int:
    """The points the pitcher's side holds at the end under best play by all: ``st`` a
    :class:`PlayState` or a position (base or family: its ``state``).  ``memo``: the
    values of the trick-boundary states already solved, by (hands, won, trick, seats,
    leader, offset, trump, first), in the order their searches finished; to share
    between states of one hand."""
    if not isinstance(st, PlayState):
        st = st.state
    memo = {} if memo is None else memo
    return _tree(st).value(
        st.hands, st.won, st.trick, st.seats, st.leader, st.offset, st.trump, st.first, memo
    )


def card_values(st, memo: dict | None = None) -> dict[int, int]:
    """Every legal card of the player to move -> the value after it (``st`` and
    ``memo`` as for :func:`solve`)."""
    if not isinstance(st, PlayState):
        st = st.state
    memo = {} if memo is None else memo
    return {c: solve(st.play(c), memo) for c in cards_of(st.legal())}
