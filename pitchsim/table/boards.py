"""Boards played by the kernels: hands, whole games and duplicate tournaments played by
the one kernel engine (``pitchsim.kernels``), for ``pitchsim play`` and ``pitchsim
tournament`` under every preset, auction-pitch included.

A board is a game's sequence of deals, fixed by the seed and the board number; the
table's game (``table.game``) plays the same board decision by decision.  Strategies
are written ``bidding+play``, from the policies the kernels have:
bidding ``random``, ``heuristic``, ``odds``, ``odds-game`` (the presets' table,
``pitchsim/data/family_bid_table.npz``; ``odds-game`` also weighs the scores against
the preset's target and win rule) or ``advisor`` (every legal call played out over
sampled deals to the end of the game, ``pitchsim advise``'s engine:
``kernels.advisor.advisor_bid``), play ``random``, ``heuristic``, ``rollout[:W]``
or ``pimc[:W]`` (search in W worlds sampled from what the seat knows,
``kernels.search.rollout``: each legal card played out by the heuristic, or
solved double-dummy; default 32 and 16 worlds).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from ..game.cards import N_CARDS, SUITS, cards_of, format_card, game_points
from ..game.rules import Rules, label, spec
from ..kernels import advisor  # noqa: F401  (importing it plugs the advisor into seat_call)
from ..kernels.bidding import ADVISOR_DTYPE, PLAIN_DTYPE
from ..kernels.bidding.calls import (
    BID_ADVISOR,
    BIDDING_IDS,
    MADE_ROW,
    N_ODDS_ROWS,
    N_ROWS,
    ODDS_BIDDERS,
    odds_worth,
)
from ..kernels.contract import MAX_DEALS
from ..kernels.game import (
    G_BID,
    G_DEALER,
    G_MADE,
    G_PITCHER,
    G_SHOOT,
    G_SIZE,
    G_TRICKS,
    G_TRUMP,
    MAX_CALL,
    games_kernel,
    log_layout,
    play_deal_logged,
    whole_game,
)
from ..kernels.partner import call_and_partner
from ..kernels.policies import KIND_MASK, PIMC, ROLLOUT_DTYPE
from ..kernels.policies.cards import PLAIN_POLICY_IDS, any_rules
from ..kernels.presets import (
    rules_array,
    rules_table,
)
from ..kernels.rng import deal_key
from ..kernels.score import AWARD_NAMES, NOT_PLAYED
from ..util.errors import quoted
from ..util.runtime import chunked, pick_seed, use_threads
from .bidding import Strategy, StrategyError
from .fixed import check_fixed
from .odds_rows import odds_rows
from .policies import play_array, play_policy, searches

BOARDS_PER_CALL = 1 << 12


# Bidders that weigh the game by its target: not under hands=N, which has none (12.4).
# (The advisor plays the game out, the hands left included, and is played there.)
GAME_BIDDERS = ("odds-game",)
PLAY_NAMES = (*PLAIN_POLICY_IDS, "rollout", "pimc", "epimc")  # [:W]: kernels.search.rollout
SEARCH_PLAY = ("rollout", "pimc", "epimc")


def strategy_for(text: str | Strategy, rules: Rules) -> Strategy:
    """A strategy the family kernels play, or one line saying what they play (every
    policy of the base game's, since the advisor and pimc bid and play under presets)."""
    s = text if isinstance(text, Strategy) else Strategy.parse(text)
    if rules.hands_limit and s.bidding in GAME_BIDDERS:
        raise StrategyError(
            f"strategy {quoted(s.name)} is not played under hands={rules.hands_limit}: the "
            f"{s.bidding} bidder weighs P(win game) by the scores' distance to the target, "
            "which hands=N has not (VARIANTS.md 12.4); bid odds, advisor, heuristic or "
            "random there"
        )
    play = play_policy(s.play).name.partition(":")[0]
    if s.bidding not in BIDDING_IDS or play not in PLAY_NAMES:
        raise StrategyError(
            f"strategy {quoted(s.name)} is not played under {label(rules)}: there "
            f"bidding is {', '.join(BIDDING_IDS)} and play is "
            f"{', '.join(PLAY_NAMES)} (rollout:W, pimc:W, epimc:W for W worlds)"
        )
    return s


def seat_ids(seats: Sequence[Strategy]) -> tuple[np.ndarray, np.ndarray]:
    """Bidding and play ids per seat; bidding ids int32 (``ADVISOR_DTYPE``) when a seat
    is the advisor, so that only those auctions compile it in (``kernels.bidding.calls.
    seat_call``); play ids int32 when a seat plays pimc, uint32
    (``ROLLOUT_DTYPE``) when seats search by rollout alone, so that only the kernels
    that need it compile the search in, and only pimc's the solver (``play_array``)."""
    ids = [BIDDING_IDS[s.bidding] for s in seats]
    dtype = ADVISOR_DTYPE if BID_ADVISOR in ids else PLAIN_DTYPE
    bidders = np.array(ids, dtype=dtype)
    return bidders, kernel_play_array([play_policy(s.play).id for s in seats])


def kernel_play_array(ids: Sequence[int]) -> np.ndarray:
    """Play-policy ids as the family kernels take them: ``play_array``'s, but uint32
    (``ROLLOUT_DTYPE``) when the only search is rollout, so that no solver is compiled in."""
    players = play_array(ids)
    if searches(players) and not np.any(players & KIND_MASK >= PIMC):  # pimc, epimc: the solver
        players = players.astype(ROLLOUT_DTYPE)
    return players


# ---------------------------------------------------------------- the odds table


def odds_bidder_table(rules: Rules, players: int) -> tuple[np.ndarray, float]:
    """The ``odds`` bidder's table for ``rules`` at ``players``: P(the pitcher's side
    takes at least k) by the heuristic count's bucket and trump holding (``odds_row``),
    and a defender's mean points, from the shipped rows where they apply, else from rows
    made for these rules on first use (``odds_rows.odds_rows``)."""
    rows = odds_rows(rules, players)
    odds = np.zeros((N_ODDS_ROWS, MAX_CALL))
    odds[:N_ROWS, : rules.max_bid] = rows.p_at_least[:, : rules.max_bid]
    defender = rows.defender
    # Last row: Q(k), the share of random hands (the table's row histogram) for which
    # a bid of k beats passing: how often a caller still to come outbids k.
    share = rows.cells / max(1, int(rows.cells.sum()))
    # And M(k), how often a bid of k is made, over the hands worth k or more (share
    # weighted): what odds-game reads of an opponent's high bid; a bid no hand of the
    # table is worth takes the rate of the bid below it.
    fr = rules_array(rules)
    made = np.zeros(MAX_CALL)
    for b in range(N_ROWS):
        worth = odds_worth(b, players, fr, odds, defender)
        odds[N_ROWS, 1 : worth + 1] += share[b]
        made[1 : worth + 1] += share[b] * odds[b, :worth]
    for k in range(1, MAX_CALL):
        worth_it = odds[N_ROWS, k] > 0
        odds[MADE_ROW, k] = made[k] / odds[N_ROWS, k] if worth_it else odds[MADE_ROW, k - 1]
    return odds, defender


def no_odds() -> tuple[np.ndarray, float]:
    return np.zeros((N_ODDS_ROWS, MAX_CALL)), 0.0


def odds_for(seats: Sequence[Strategy], rules: Rules, n: int):
    """The odds table the seats need (``odds_bidder_table``: shipped or made, at every
    table): the ``odds`` and ``odds-game`` bidders bid by it and the ``advisor`` models
    the others by it; none for the rest."""
    if any(s.bidding in ODDS_BIDDERS or s.bidding == "advisor" for s in seats):
        return odds_bidder_table(rules, n)
    return no_odds()


# ---------------------------------------------------------------- hands and games


def _call_text(c: int, rules: Rules) -> str | None:
    if c < 0:
        return None  # never asked: the auction had ended
    if c == 0:
        return "pass"
    return "shoot" if c == rules.max_bid + 1 else str(c)


def _fmt(mask: int) -> list[str]:
    return [format_card(c, symbols=False) for c in cards_of(mask)]


@dataclass
class BoardHand:
    """One hand as the kernels played it (a log row, decoded)."""

    dealer: int
    calls: list[str | None]  # per calling position from the dealer's left
    pitcher: int | None
    bid: int
    shoot: bool
    trump: int | None
    dealt: list[int]  # masks
    held: list[int]  # masks when play starts (after any discard and draw)
    tricks: list[tuple[int, list[int], list[int], int]]  # leader, seats, cards, winner
    awards: dict[str, int | None]  # point -> seat credited (None: nobody)
    points_won: list[int]
    made: bool | None
    change: list[int]
    scores_after: list[int]
    kitty: int = 0  # under kitty=N (12.2): the cards the pitcher took (mask), else 0
    called: int | None = None  # under partner=called|announced (12.1): the card called
    partner: int | None = None  # its holder when play starts; None: the pitcher alone (12.1.5)

    @property
    def game_counts(self) -> list[int]:
        """Each seat's count for Game (0.8) in the tricks it took, jokers 0."""
        counts = [0] * len(self.dealt)
        for _, _, cards, winner in self.tricks:
            counts[winner] += sum(game_points(c) for c in cards if c < N_CARDS)
        return counts

    @property
    def put_down(self) -> int:
        """What the pitcher put down after taking the kitty (12.2.2; a mask, 0 without)."""
        if not self.kitty or self.pitcher is None:
            return 0
        return (self.dealt[self.pitcher] | self.kitty) & ~self.held[self.pitcher]

    def to_json(self, rules: Rules) -> dict:
        n = len(self.dealt)
        kitty = {}
        if rules.kitty:  # 12.2.2
            kitty = {
                "kitty": {"taken": _fmt(self.kitty), "put_down": _fmt(self.put_down)}
                if self.kitty
                else None
            }
        return {
            "dealer": self.dealer,
            "calls": [
                {"seat": (self.dealer + 1 + i) % n, "call": c}
                for i, c in enumerate(self.calls)
                if c is not None
            ],
            "pitcher": self.pitcher,
            "bid": self.bid if self.pitcher is not None else None,
            "shoot": self.shoot,
            "trump": SUITS[self.trump] if self.trump is not None else None,
            "dealt": [_fmt(m) for m in self.dealt],
            "held": [_fmt(m) for m in self.held]
            if rules.discard != "none" or rules.kitty
            else None,
            **kitty,
            **(
                {
                    "called": None
                    if self.called is None
                    else format_card(self.called, symbols=False),
                    "partner": self.partner,
                }
                if rules.partner != "none"
                else {}
            ),
            "tricks": [
                {
                    "leader": lead,
                    "seats": seats,
                    "cards": [format_card(c, symbols=False) for c in cs],
                    "winner": w,
                }
                for lead, seats, cs, w in self.tricks
            ],
            "points": self.awards,
            **({"game_counts": self.game_counts} if rules.game == "count" else {}),
            "points_won": self.points_won,
            "made": self.made,
            "change": self.change,
            "scores_after": self.scores_after,
        }


def _hand_of(row: np.ndarray, at: dict, n: int, rules: Rules) -> BoardHand:
    def seats_of(name):
        return [int(x) for x in row[at[name] : at[name] + n]]

    pitcher = int(row[G_PITCHER])
    tricks = []
    for t in range(int(row[G_TRICKS])):
        base = at["tricks"] + t * (n + 2)
        leader, winner = int(row[base]), int(row[base + n + 1])
        seats, cards = [], []
        for i in range(n):
            c = int(row[base + 1 + i])
            if c >= 0:
                seats.append((leader + i) % n)
                cards.append(c)
        tricks.append((leader, seats, cards, winner))
    awards = {}
    for i, name in enumerate(AWARD_NAMES):
        a = int(row[at["award"] + i])
        if a != NOT_PLAYED:
            awards[name] = a if a >= 0 else None
    kitty = 0
    if rules.kitty and pitcher >= 0 and rules.trump == "named":  # 12.2.1: the stock's last N
        size = int(row[G_SIZE])
        for c in row[at["deck"] + size - rules.kitty : at["deck"] + size]:
            kitty |= 1 << int(c)
    called = partner = None
    if rules.partner != "none" and pitcher >= 0 and rules.trump == "named":
        called, partner = _call_of(row, at, n, pitcher, rules)
    return BoardHand(
        dealer=int(row[G_DEALER]),
        calls=[_call_text(c, rules) for c in seats_of("calls")],
        pitcher=pitcher if pitcher >= 0 else None,
        bid=int(row[G_BID]),
        shoot=bool(row[G_SHOOT]),
        trump=int(row[G_TRUMP]) if pitcher >= 0 else None,
        dealt=seats_of("dealt"),
        held=seats_of("held"),
        tricks=tricks,
        awards=awards,
        points_won=seats_of("points"),
        made=bool(row[G_MADE]) if pitcher >= 0 else None,
        change=seats_of("change"),
        scores_after=seats_of("scores"),
        kitty=kitty,
        called=called,
        partner=partner,
    )


def _call_of(row: np.ndarray, at: dict, n: int, pitcher: int, rules: Rules):
    """The card the kernel called and its holder (12.1), which the log leaves out: the
    kernel's own call on the pitcher's hand as dealt (12.1.2, before any discard or
    kitty) or as held when play starts (12.1.4), and the seat holding it then (12.1.5)."""
    dealt = np.array(row[at["dealt"] : at["dealt"] + n], dtype=np.int64)
    held = np.array(row[at["held"] : at["held"] + n], dtype=np.int64)
    fr, tab = rules_array(rules), rules_table(rules)
    called, partner = (
        int(x) for x in call_and_partner(dealt, held, n, pitcher, int(row[G_TRUMP]), fr, tab)
    )
    return called, (partner if partner >= 0 else None)


@dataclass
class BoardGame:
    """Board ``board`` of ``seed`` played to the end under a rule family."""

    seed: int | None
    board: int
    strategies: list[str]
    rules: Rules
    hands: list[BoardHand]
    winners: list[int]  # sides (seats, or teams 0/1 in a partnership); empty: unfinished

    def to_json(self) -> dict:
        return {
            "format": "pitchsim-family-game",
            "version": 1,
            "rules": spec(self.rules),
            "family": self.rules.family,
            "players": len(self.strategies),
            "seed": self.seed,
            "board": self.board,
            "strategies": self.strategies,
            "target": self.rules.target,
            "partnership": self.rules.partnership,
            "winners": self.winners,
            "final_scores": self.hands[-1].scores_after if self.hands else [],
            "hands": [h.to_json(self.rules) for h in self.hands],
        }


def _prepared(seats: Sequence[Strategy | str], rules: Rules):
    """The kernels' arguments for a game of ``seats``, which the caller has checked at
    this table (``table.game.check_table``: the one place for the table's refusals)."""
    chosen = [s if isinstance(s, Strategy) else Strategy.parse(s) for s in seats]
    n = len(chosen)
    bidders, players = seat_ids(chosen)
    odds, defender = odds_for(chosen, rules, n)
    return rules, chosen, n, bidders, players, odds, defender


def board_game(seed: int, board: int, seats: Sequence[Strategy | str], rules: Rules) -> BoardGame:
    """Board ``board`` of ``seed`` as a whole game (dealer: seat ``board`` mod n): the
    game a family tournament with these seats plays as that board."""
    r, chosen, n, bidders, players, odds, defender = _prepared(seats, rules)
    at = log_layout(n)
    log = np.zeros(MAX_DEALS * at["width"], dtype=np.int64)
    scores = np.zeros(n, dtype=np.int64)
    stats = np.zeros((n, MAX_CALL, 2), dtype=np.int64)
    fr = rules_array(r)
    won_by, deals = any_rules(whole_game)(  # (one game: the general kernel, kernels/game.py)
        seed,
        board,
        n,
        bidders,
        players,
        fr,
        rules_table(r),
        odds,
        defender,
        scores,
        stats,
        log,
    )
    rows = log.reshape(MAX_DEALS, at["width"])[: int(deals)]
    hands = [_hand_of(row, at, n, r) for row in rows]
    winners = [s for s in range(n) if int(won_by) >> s & 1]
    return BoardGame(seed, board, [s.name for s in chosen], r, hands, winners)


def board_hand(
    seed: int,
    deal: int,
    seats: Sequence[Strategy | str],
    rules: Rules,
    dealer: int,
    hand: int = 0,
    trump: int = -1,
    bid: int | None = None,
) -> BoardHand:
    """Deal ``deal`` of ``seed`` bid and played from scores of zero.  ``hand`` (a mask;
    0: dealt) is seat 0's cards as dealt; ``trump`` (-1: none) the suit the pitcher names
    under trump=named, or leads first under trump=first-lead when he holds it; ``bid``
    skips the auction: seat 0, left of the dealer (then the last seat), bids it and
    every other seat passes (``table.fixed.check_fixed`` checks them)."""
    r, chosen, n, bidders, players, odds, defender = _prepared(seats, rules)
    at = log_layout(n)
    row = np.zeros(at["width"], dtype=np.int64)
    fr, tab = rules_array(r), rules_table(r)
    key = np.uint64(deal_key(seed, deal))
    if hand or trump >= 0 or bid is not None:
        check_fixed(r, n, hand, trump, bid)  # (the command line checked them already)
    play_deal_logged(
        key, n, n - 1 if bid is not None else dealer, np.zeros(n, dtype=np.int64), bidders,
        players, fr, tab, odds, defender, row, np.int64(hand), trump, 0 if bid is None else bid,
    )  # fmt: skip
    return _hand_of(row, at, n, r)


# ---------------------------------------------------------------- tournaments


@dataclass
class BoardTally:
    """A family tournament's games, per strategy: wins per board (a shared win split),
    score sums, hands pitched and made per bid; the seed, seating, unfinished games and
    deals dealt."""

    k: int
    boards: int
    max_bid: int
    wins: np.ndarray = field(init=False)
    score_sum: np.ndarray = field(init=False)
    seat_games: np.ndarray = field(init=False)
    pitched: np.ndarray = field(init=False)
    made: np.ndarray = field(init=False)

    seed: int = 0
    strategies: list = field(default_factory=list)
    tables: list = field(default_factory=list)  # rotation -> strategy per seat
    unfinished: int = 0  # games nobody won within the deal limit
    deals: int = 0

    def __post_init__(self) -> None:
        self.wins = np.zeros((self.boards, self.k))
        self.score_sum = np.zeros(self.k)
        self.seat_games = np.zeros(self.k, dtype=np.int64)
        self.pitched = np.zeros((self.k, MAX_CALL), dtype=np.int64)
        self.made = np.zeros((self.k, MAX_CALL), dtype=np.int64)


def seating(strategies: Sequence[Strategy], players: int) -> list[list[Strategy]]:
    """Strategy per seat in each rotation: seat s plays ``(s + r) % K`` in rotation r."""
    k = len(strategies)
    return [[strategies[(s + r) % k] for s in range(players)] for r in range(k)]


def board_tournament(
    chosen: Sequence[Strategy],
    players: int,
    boards: int,
    rules: Rules,
    seed: int | None,
    threads: int | None = None,
    progress=None,
) -> BoardTally:
    """The games of ``table.tournament.tournament`` (which turns this tally into its
    result) under a rule family: board b is played once per rotation of the strategies
    (seat s plays strategy ``(s + r) % K`` in rotation r), with the same deals each
    time.  A shared win (3.11) gives each winning side an equal part of the game.  The
    caller has checked the strategies at this table (``table.game.check_table``) and
    their number and the boards (``table.tournament.tournament``)."""
    k = len(chosen)
    n = players
    tally = BoardTally(k, boards, rules.max_bid)
    tally.seed = pick_seed(seed)
    tally.strategies = chosen
    tally.tables = seating(chosen, n)
    fr, tab = rules_array(rules), rules_table(rules)
    # One kernel for every rotation: each rotation's ids in the dtypes of all the
    # strategies together (a rotation without the advisor or a search seat would
    # otherwise compile the game again for its own dtypes)
    every = seat_ids(chosen)
    bid_dtype, play_dtype = (ids.dtype for ids in every)
    play_games = games_kernel(fr, *every)  # (the base shape, when it pays)
    odds, defender = odds_for(chosen, rules, n)
    total = boards * k
    with use_threads(threads):
        for start, stop in chunked(boards, BOARDS_PER_CALL):
            m = stop - start
            won_by = np.empty(m, dtype=np.int64)
            scores = np.empty((m, n), dtype=np.int64)
            dealt = np.empty(m, dtype=np.int64)
            stats = np.empty((m, n, MAX_CALL, 2), dtype=np.int64)
            for rot in range(k):
                bidders, plays = seat_ids(tally.tables[rot])
                bidders, plays = bidders.astype(bid_dtype), plays.astype(play_dtype)
                play_games(
                    tally.seed,
                    start,
                    m,
                    n,
                    bidders,
                    plays,
                    fr,
                    tab,
                    odds,
                    defender,
                    won_by,
                    scores,
                    dealt,
                    stats,
                )
                strat_of_seat = [(s + rot) % k for s in range(n)]
                tally.deals += int(dealt.sum())
                for g in range(m):
                    sides = [s for s in range(n) if int(won_by[g]) >> s & 1]
                    if not sides:
                        tally.unfinished += 1
                    for side in sides:
                        tally.wins[start + g, strat_of_seat[side]] += 1 / len(sides)
                per_seat = stats.sum(axis=0)
                for s in range(n):
                    i = strat_of_seat[s]
                    tally.score_sum[i] += float(scores[:, s].sum())
                    tally.seat_games[i] += m
                    tally.pitched[i] += per_seat[s, :, 0]
                    tally.made[i] += per_seat[s, :, 1]
                if progress:
                    progress(m, total)
    return tally
