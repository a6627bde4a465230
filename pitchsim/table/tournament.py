"""Tournaments: strategies play whole games against each other, duplicate style.

Every *board* (a game's sequence of deals, fixed by the seed and the board number) is
played once per rotation of the strategies around the table: with K strategies, in
rotation r seat s plays strategy ``(s + r) % K``.  Each seat's cards are thus played by
every strategy in turn, which cancels most of the seat and card luck (the duplicate
bridge idea).  With K strategies each one's fair share of the wins is 1/K.

The 95% interval of a win rate is taken over boards (the K games of a board are not
independent): the mean of the per-board win shares +/- 1.96 standard errors.
"""

from __future__ import annotations

import dataclasses
import sys
import types
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from ..game.rules import Rules
from ..util.atomic import write_file as atomic_write_text
from ..util.errors import InputError, quoted
from ..util.jsonio import dumps_json
from ..util.limits import MAX_GAMES, check_count
from ..util.runtime import pick_seed
from ..util.stats import Z95, too_few, wilson
from .bidding import Strategy, parse_strategies


@dataclass
class StrategyResult:
    """How one strategy did over all its games."""

    name: str
    games: int  # games it played (every game of the tournament)
    wins: int
    win_rate: float
    ci95: tuple[float, float]
    mean_final_score: float  # per seat it held (partners: the team's score)
    pitched: dict[int, int]  # bid -> hands it won the auction at that bid
    made: dict[int, int]  # bid -> of those, hands made

    @property
    def hands_pitched(self) -> int:
        return sum(self.pitched.values())

    @property
    def hands_made(self) -> int:
        return sum(self.made.values())

    @property
    def hands_set(self) -> int:
        return self.hands_pitched - self.hands_made

    def make_rate(self, bid: int) -> float | None:
        return self.made[bid] / self.pitched[bid] if self.pitched[bid] else None

    def to_json(self) -> dict:
        return {
            "strategy": self.name,
            "games": self.games,
            "wins": self.wins,
            "win_rate": self.win_rate,
            "ci95": list(self.ci95),
            "mean_final_score": self.mean_final_score,
            "bids_made": self.hands_made,
            "bids_set": self.hands_set,
            "by_bid": {
                str(k): {
                    "pitched": self.pitched[k],
                    "made": self.made[k],
                    "make_rate": self.make_rate(k),
                }
                for k in self.pitched
            },
        }


@dataclass
class TournamentResult:
    strategies: list[str]
    players: int
    boards: int
    rotations: int
    seed: int
    rules: Rules
    results: list[StrategyResult]
    unfinished: int  # games nobody won within the deal limit (forfeits not counted)
    mean_deals: float  # deals per game, redeals included
    seating: list[list[str]] = field(default_factory=list)  # rotation -> strategy per seat
    forfeits: dict[str, int] = field(default_factory=dict)  # strategy -> games it forfeited
    # each forfeited game: board, rotation, seat, strategy and reason
    forfeited: list[dict] = field(default_factory=list)
    seconds: float | None = None  # wall time of a tournament with outside seats

    @property
    def games(self) -> int:
        return self.boards * self.rotations

    @property
    def fair_share(self) -> float:
        return 1 / self.rotations

    def to_json(self) -> dict:
        return {
            "players": self.players,
            "strategies": self.strategies,
            "duplicate": True,
            "boards": self.boards,
            "rotations": self.rotations,
            "games": self.games,
            "seating": self.seating,
            "fair_share": self.fair_share,
            "seed": self.seed,
            "target": self.rules.target,
            "partnership": self.rules.partnership,
            "rules": self.rules.describe(),
            "unfinished_games": self.unfinished,
            "mean_deals_per_game": self.mean_deals,
            "results": [
                r.to_json() | ({"ci95": None} if too_few(self.boards) else {}) for r in self.results
            ],
            "too_few_boards": too_few(self.boards),  # no interval from a handful of boards
            # Only tournaments with outside seats can have forfeits (and say so).
            **({"forfeits": self.forfeits} if self.forfeits else {}),
            **({"forfeited_games": self.forfeited} if self.forfeits else {}),
        }

    def frame(self):
        """One row per strategy (a pandas DataFrame): the same as ``to_frame()``."""
        return self.to_frame()

    def to_frame(self, by: str = "strategy"):
        """The results as a tidy pandas DataFrame.

        ``by="strategy"``: one row per strategy (``games``, ``wins``, ``win_rate`` with
        its 95% interval ``ci_low`` / ``ci_high``, ``mean_final_score``, ``bids_made``,
        ``bids_set``, and ``pitched_k`` / ``made_k`` per bid).  ``by="bid"``: one row
        per strategy and bid: ``pitched``, ``made``, ``make_rate``.
        """
        import pandas as pd

        if by not in ("strategy", "bid"):
            raise InputError(f"to_frame by 'strategy' or 'bid', not {by!r}")
        rows = []
        for r in self.results:
            if by == "bid":
                rows += [
                    {
                        "strategy": r.name,
                        "bid": k,
                        "pitched": r.pitched[k],
                        "made": r.made[k],
                        "make_rate": r.make_rate(k),
                    }
                    for k in r.pitched
                ]
                continue
            row = {
                "strategy": r.name,
                "games": r.games,
                "wins": r.wins,
                "win_rate": r.win_rate,
                "ci_low": r.ci95[0],
                "ci_high": r.ci95[1],
                "mean_final_score": r.mean_final_score,
                "bids_made": r.hands_made,
                "bids_set": r.hands_set,
            }
            for k in r.pitched:
                row[f"pitched_{k}"] = r.pitched[k]
                row[f"made_{k}"] = r.made[k]
            rows.append(row)
        return pd.DataFrame(rows)

    def __repr__(self) -> str:
        wins = ", ".join(f"{r.name} {100 * r.win_rate:.1f}%" for r in self.results)
        return (
            f"TournamentResult({self.players} players, {self.boards:,} boards x "
            f"{self.rotations} rotations = {self.games:,} games, seed {self.seed}; "
            f"win rates: {wins})"
        )


def board_interval(shares: np.ndarray) -> tuple[float, float]:
    """95% interval of a mean win share over independent boards.

    Forty boards, a quarter won twice, half split, a quarter lost: mean 1/2, half width
    1.96 x sqrt(5/39) / sqrt(40).

    >>> [round(float(x), 4) for x in board_interval(np.array([1.0] * 10 + [0.5] * 20 + [0.0] * 10))]
    [0.389, 0.611]
    """
    g = shares.size
    mean = float(shares.mean())
    if g < 30 or shares.std() == 0:
        lo, hi = wilson(mean * g, g)  # too few boards for the normal approximation
        return float(lo), float(hi)
    half = Z95 * float(shares.std(ddof=1)) / np.sqrt(g)
    return max(0.0, mean - half), min(1.0, mean + half)


def tournament(
    strategies: str | Sequence[str | Strategy],
    players: int = 4,
    boards: int | None = None,
    rules: Rules | str | dict | None = None,
    target: int | None = None,
    seed: int | None = None,
    threads: int | None = None,
    progress=None,
    games: int | None = None,
    record: str | None = None,
    decision_time: float | None = None,
    game_time: float | None = None,
    seat_logs: str | None = None,
) -> TournamentResult:
    """Play ``boards`` boards, each once per rotation of ``strategies`` around the table.

    Parameters
    ----------
    strategies : str or list
        Two or more ``bidding+play`` strategies, comma-separated or as a list
        (``"odds+heuristic,heuristic"``; bidding: random, heuristic, odds, odds-game,
        advisor; play: random, heuristic, rollout[:W][:read], pimc[:W][:read], epimc[:W][:read]; a bare name is bidding
        with heuristic play).  At most
        one per seat, exactly two in a partnership (one per team).
    players : int
        Players at the table, 2-7.
    boards : int
        Boards (a game's sequence of deals) to play, default 1,000.  Each is played once
        per rotation, so the tournament plays ``boards x len(strategies)`` games.
    rules : Rules or str, optional
        Rule variants, as :class:`~pitchsim.game.rules.Rules` or a ``--rules`` string such
        as ``"low=dealt,target=11"``.  Default: the base rules.
    target : int, optional
        Points to win; overrides the rules' target (7).
    seed : int, optional
        Board b's deals come from (seed, b): the same seed plays the same games on any
        thread count.  Default: a fresh seed, stored in the result.
    threads : int, optional
        Threads to run on (default: all cores).
    progress : callable, optional
        ``progress(games_done, total_games)``, called as chunks finish.
    games : int, optional
        The old name of ``boards`` (it always counted boards).
    record : str, optional
        A directory to write every game's record to (``docs/record.md``), one file a game.
    decision_time, game_time, seat_logs :
        For outside seats (``cmd:COMMAND``): seconds per decision and per game, and a
        directory for each program's log of messages.

    Seats may be outside players: ``"cmd:python3 bot.py"`` (a program speaking
    ``docs/protocol.md``) or any object with ``call(view)`` and ``play(view)`` methods.
    Such a tournament is played decision by decision (``table.game``): the same games
    the kernels play, with the outside seats asked at their turns.  A seat whose answer
    is late, malformed or illegal forfeits that game (``forfeits`` counts them per
    strategy, ``forfeited`` gives each one's board, seat and reason; nobody wins it).

    Returns
    -------
    TournamentResult
        ``results`` (one :class:`StrategyResult` per strategy), ``to_frame()``.

    Examples
    --------
    >>> r = tournament("heuristic,random", boards=50, seed=1)
    >>> r.games
    100
    >>> r.results[0].wins > r.results[1].wins
    True
    """
    if boards is not None and games is not None and boards != games:
        raise InputError("give boards or games (its old name), not both")
    boards = boards if boards is not None else games if games is not None else 1000
    rules = Rules.parse(rules)  # a Rules, a --rules string, a TOML path or a dict
    if target is not None:
        rules = dataclasses.replace(rules, target=target)
    entries = split_seats(strategies) if isinstance(strategies, str) else list(strategies)
    outside = any(_outside(e) for e in entries)
    chosen = None if outside else parse_strategies(strategies)  # its words for a blank name
    from .game import check_table  # the table's refusals, as play and practice say them

    check_table(entries, rules, players)  # before a program starts or a record is written
    if outside:
        what = "games" if games is not None else "boards"
        return table_tournament(
            entries,
            players,
            boards,
            rules,
            pick_seed(seed),
            progress,
            record,
            decision_time,
            game_time,
            seat_logs,
            what,
        )
    if decision_time is not None or game_time is not None or seat_logs is not None:
        raise InputError("time limits and seat logs are for outside seats (cmd:COMMAND)")
    k = len(chosen)
    if k < 2:
        raise InputError("a tournament needs at least two strategies (the same one twice is fine)")
    if k > players:
        raise InputError(f"{k} strategies do not fit at a {players}-player table")
    if rules.partnership and k != 2:
        raise InputError(f"a partnership tournament takes exactly two strategies, not {k}")
    check_count("games" if games is not None else "boards", boards, MAX_GAMES)
    from .boards import board_tournament  # the kernels load here

    tally = board_tournament(chosen, players, boards, rules, seed, threads, progress)
    if record is not None:
        write_records(record, tally.seed, boards, tally.tables, rules)
    return _tally_result(tally, players, rules)


def _tally_result(tally, players: int, rules: Rules) -> TournamentResult:
    """The result of a family tournament's games (``table.boards.board_tournament``);
    bids run from 1 to the family's maximum bid."""
    k = tally.k
    bids = range(1, tally.max_bid + 1)
    results = []
    for i, strat in enumerate(tally.strategies):
        shares = tally.wins[:, i] / k
        results.append(
            StrategyResult(
                name=strat.name,
                games=tally.boards * k,
                wins=int(round(tally.wins[:, i].sum())),
                win_rate=float(shares.mean()),
                ci95=board_interval(shares),
                mean_final_score=float(tally.score_sum[i] / tally.seat_games[i]),
                pitched={b: int(tally.pitched[i, b - 1]) for b in bids},
                made={b: int(tally.made[i, b - 1]) for b in bids},
            )
        )
    return TournamentResult(
        strategies=[s.name for s in tally.strategies],
        players=players,
        boards=tally.boards,
        rotations=k,
        seed=tally.seed,
        rules=rules,
        results=results,
        unfinished=tally.unfinished,
        mean_deals=tally.deals / (tally.boards * k),
        seating=[[s.name for s in t] for t in tally.tables],
    )


def _outside(entry) -> bool:
    """An outside seat: a ``cmd:`` string, or a seat object (not a Strategy)."""
    if isinstance(entry, str):
        return entry.strip().startswith("cmd:")
    return not isinstance(entry, Strategy)


def record_path(directory, board: int, rotation: int):
    from pathlib import Path

    return Path(directory) / f"board-{board:06d}-rotation-{rotation}.json"


def prepare_record_dir(directory, option: str = "--record") -> None:
    """The folder ``option`` names (``--record``, ``--seat-logs``), made if need be; one
    line naming the option when it cannot be."""
    from pathlib import Path

    d = Path(directory)
    if d.exists() and not d.is_dir():
        raise InputError(f"{option} {d}: not a directory")
    try:
        d.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise InputError(f"{option} {d}: cannot make the folder: {e.strerror or e}") from None


def write_records(directory, seed: int, boards: int, tables, rules: Rules) -> None:
    """Every game of a kernel tournament as a record: the kernels play each board again
    with its log on (the same games: a board's deals and decisions depend on nothing
    else; ``record_of_preset_game``)."""
    from .boards import board_game
    from .record import record_of_preset_game

    prepare_record_dir(directory)
    for b in range(boards):
        for r, seats in enumerate(tables):
            doc = record_of_preset_game(board_game(seed, b, seats, rules))
            atomic_write_text(record_path(directory, b, r), dumps_json(doc, indent=None) + "\n")


# ---------------------------------------------------------------- tournaments with outside seats


def table_tournament(
    entries,
    players: int,
    boards: int,
    rules: Rules,
    seed: int,
    progress=None,
    record=None,
    decision_time=None,
    game_time=None,
    seat_logs=None,
    what: str = "boards",
):
    """A duplicate tournament with outside seats, played decision by decision: the
    games, seating and results of ``table.tournament.tournament`` (which calls this)."""
    import time
    from pathlib import Path

    from ..util.errors import InputError
    from ..util.limits import MAX_GAMES, check_count
    from .bidding import Strategy
    from .game import as_seat, play_table_game, seat_name
    from .outside import CommandSeat

    k = len(entries)
    if k < 2:
        raise InputError("a tournament needs at least two strategies (the same one twice is fine)")
    if k > players:
        raise InputError(f"{k} strategies do not fit at a {players}-player table")
    if rules.partnership and k != 2:
        raise InputError(f"a partnership tournament takes exactly two strategies, not {k}")
    check_count(what, boards, MAX_GAMES)
    if seat_logs is not None:
        prepare_record_dir(seat_logs, "--seat-logs")
    if record is not None:
        prepare_record_dir(record)
    seats, names = [], []
    for i, e in enumerate(entries):
        if isinstance(e, Strategy):
            e = e.name
        if isinstance(e, str) and e.strip().startswith("cmd:"):
            log = Path(seat_logs) / f"strategy-{i}.log" if seat_logs is not None else None
            seat = CommandSeat(e.strip()[4:], decision_time, game_time, log)
        else:  # checked by the tournament (table.game.check_table)
            seat = as_seat(e.strip() if isinstance(e, str) else e)
        seats.append(seat)
        names.append(seat_name(seat))
    if decision_time is not None or game_time is not None:
        if not any(isinstance(s, CommandSeat) for s in seats):
            raise InputError("time limits are for programs seated with cmd:COMMAND")
    top = rules.max_bid  # a shoot: the top
    wins = np.zeros((boards, k))
    score_sum = np.zeros(k)
    seat_games = np.zeros(k, dtype=np.int64)
    pitched = np.zeros((k, top), dtype=np.int64)
    made = np.zeros((k, top), dtype=np.int64)
    forfeits = dict.fromkeys(names, 0)
    forfeited = []
    unfinished = deals = 0
    start = time.monotonic()
    try:
        for b in range(boards):
            for r in range(k):
                of_seat = [(s + r) % k for s in range(players)]
                doc = play_table_game(
                    [seats[i] for i in of_seat], rules, seed, b, [names[i] for i in of_seat]
                )
                if record is not None:
                    atomic_write_text(
                        record_path(record, b, r), dumps_json(doc, indent=None) + "\n"
                    )
                deals += len(doc["hands"])
                f = doc["forfeit"]
                if f is not None:
                    forfeits[names[of_seat[f["seat"]]]] += 1
                    forfeited.append(
                        {"board": b, "rotation": r, "seat": f["seat"]}
                        | {"strategy": f["strategy"], "reason": f["reason"]}
                    )
                else:
                    # under a preset every winning side (a shared win splits the game, 3.11)
                    won = doc.get("winners", [] if doc["winner"] is None else [doc["winner"]])
                    for side in won:
                        wins[b, of_seat[side]] += 1 / len(won)
                    unfinished += not won
                for s in range(players):
                    score_sum[of_seat[s]] += doc["final_scores"][s]
                    seat_games[of_seat[s]] += 1
                for h in doc["hands"]:
                    if h.get("pitcher") is not None:
                        i = of_seat[h["pitcher"]]
                        pitched[i, h["bid"] - 1] += 1
                        made[i, h["bid"] - 1] += bool(h["made"])
                if progress:
                    progress(1, boards * k)
    finally:
        for s in seats:
            if hasattr(s, "close"):
                s.close()
    seconds = time.monotonic() - start
    results = []
    for i, name in enumerate(names):
        shares = wins[:, i] / k
        results.append(
            StrategyResult(
                name=name,
                games=boards * k,
                wins=int(round(wins[:, i].sum())),
                win_rate=float(shares.mean()),
                ci95=board_interval(shares),
                mean_final_score=float(score_sum[i] / seat_games[i]),
                pitched={x: int(pitched[i, x - 1]) for x in range(1, top + 1)},
                made={x: int(made[i, x - 1]) for x in range(1, top + 1)},
            )
        )
    return TournamentResult(
        strategies=names,
        players=players,
        boards=boards,
        rotations=k,
        seed=seed,
        rules=rules,
        results=results,
        unfinished=unfinished,
        mean_deals=deals / (boards * k),
        seating=[[names[(s + r) % k] for s in range(players)] for r in range(k)],
        forfeits=forfeits,
        forfeited=forfeited,
        seconds=seconds,
    )


def split_seats(spec: str) -> list[str]:
    """The seats of ``-s``: comma-separated strategies and outside programs
    (``cmd:COMMAND``).  Every comma outside quotes ends a seat, after a command too: a
    command that needs a comma quotes it as the shell would (``cmd:bot.py 'a,b'`` or
    ``cmd:bot.py a\\,b``; the command is then read as the shell reads it, ``shlex``), so
    ``cmd:bot.py,odds+bogus`` is a program and a misspelt strategy, never one command.
    A quote left open is refused in one line."""
    out: list[str] = []
    piece: list[str] = []
    quote = ""  # the quote the text is inside ("": none)
    escaped = False
    for ch in spec:
        if escaped:
            escaped = False
        elif ch == "\\" and quote != "'":  # as shlex: no escape inside single quotes
            escaped = True
        elif quote:
            quote = "" if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch == ",":
            out.append("".join(piece).strip())
            piece = []
            continue
        piece.append(ch)
    if quote:
        raise InputError(
            f"the quote {quote} in {quoted(spec)} is not closed (a comma inside a "
            f"command is quoted: cmd:bot.py 'a,b')"
        )
    out.append("".join(piece).strip())
    return out


class _CallableModule(types.ModuleType):
    """``pitchsim.table.tournament(...)`` is the function even once this module is imported
    (importing ``pitchsim.table.tournament`` binds the module to that name on the package)."""

    def __call__(self, *args, **kwargs) -> TournamentResult:
        return tournament(*args, **kwargs)


sys.modules[__name__].__class__ = _CallableModule
