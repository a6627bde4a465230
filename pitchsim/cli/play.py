"""``pitchsim play``: hands bid and played out trick by trick, to see what the policies do."""

from __future__ import annotations

import sys
import textwrap
from typing import TYPE_CHECKING

import typer

from ..game.cards import SUITS, format_card, format_cards, parse_hand, parse_suit, sort_for_display
from ..util.errors import InputError
from ..util.jsonio import dumps_json
from ..util.limits import MAX_BOARD, MAX_ROUNDS, check_count
from ..util.runtime import pick_seed
from .app import app
from .common import (
    JsonOpt,
    PartnershipOpt,
    PlayersOpt,
    PolicyOpt,
    RulesOpt,
    SeedOpt,
    make_rules,
    positive,
    print_json,
    suit_label,
)

if TYPE_CHECKING:
    from ..games.rounds import Game, Round


@app.command("play")
def play_command(
    players: int = PlayersOpt,
    seed: int = SeedOpt,
    hand: str = typer.Option(None, "--hand", help="Seat 0's six cards (default: dealt)."),
    trump: str = typer.Option(None, "--trump", help="Make the pitcher lead this suit."),
    policy: str = PolicyOpt,
    bidding: str = typer.Option(
        "heuristic",
        "--bidding",
        help="Bidding policy (random, heuristic, odds, odds-game), or one per seat.",
    ),
    bid: int = typer.Option(
        None, "--bid", help="Skip the auction: seat 0 pitches at this bid (1-4)."
    ),
    dealer: int = typer.Option(
        None, "--dealer", help="The first hand's dealer (default: the last seat)."
    ),
    rounds: int = typer.Option(
        None, "--rounds", help="Play this many hands, the deal passing to the left (JSON: a list)."
    ),
    game: bool = typer.Option(
        False, "--game", help="Play a whole game, hand by hand, until someone wins."
    ),
    board: int = typer.Option(
        None,
        "--board",
        help="With --game: which game of the seed (default 0); a tournament "
        "with the same seed and seating plays the same deals as its game BOARD.",
    ),
    strategies: str = typer.Option(
        None,
        "--strategies",
        "-s",
        help="With --game: each seat's strategy, bidding+play (one for all or one per seat), "
        "or an outside program speaking docs/protocol.md: cmd:COMMAND.",
    ),
    replay: str = typer.Option(
        None,
        "--replay",
        help="Play a game record (docs/record.md; `-`: stdin) again, checking every action "
        "and result; show it as --game does.",
    ),
    decision_time: float = typer.Option(
        None, "--decision-time", help="Seconds an outside seat may take per decision (10)."
    ),
    game_time: float = typer.Option(
        None, "--game-time", help="Seconds an outside seat may take per game in all (600)."
    ),
    seat_logs: str = typer.Option(
        None, "--seat-logs", help="A directory for each outside seat's log of messages."
    ),
    partnership: bool = PartnershipOpt,
    rules: str = RulesOpt,
    as_json: bool = JsonOpt,
) -> None:
    """Bid and play hands out; show the auction, every trick, the points and the score."""
    if replay is not None:
        _replay(replay, as_json, game, strategies, board)
        return
    outside = {"--decision-time": decision_time, "--game-time": game_time, "--seat-logs": seat_logs}
    if strategies is None and any(v is not None for v in outside.values()):
        given = ", ".join(k for k, v in outside.items() if v is not None)
        raise InputError(f"{given}: for outside seats, given with --strategies cmd:COMMAND")
    if strategies is not None and not game:
        raise InputError("--strategies seats players for a whole game: add --game")
    positive("--rounds", rounds, MAX_ROUNDS)
    if board is not None and not game:
        raise InputError("--board needs --game")
    if board is not None and board < 0:
        raise InputError(f"board must be >= 0, not {board}")
    check_count("--board", board, MAX_BOARD, low=0)
    fixed = {"--hand": hand, "--trump": trump, "--bid": bid, "--dealer": dealer, "--rounds": rounds}
    if game and any(v is not None for v in fixed.values()):
        given = ", ".join(k for k, v in fixed.items() if v is not None)
        raise InputError(f"--game plays a board's own deals and auctions: leave out {given}")
    rule_set = make_rules(rules, partnership, players)
    if bid is not None and not 1 <= bid <= 4:
        raise InputError(f"bid must be 1-4, not {bid}")
    if dealer is not None and not 0 <= dealer < players:
        raise InputError(f"dealer must be a seat, 0-{players - 1}, not {dealer}")
    if bid is not None and dealer is not None:
        raise InputError("--bid seats the dealer last (seat 0 pitches): leave out --dealer")
    if strategies is not None:
        _table_game(
            strategies,
            players,
            rule_set,
            pick_seed(seed),
            board or 0,
            as_json,
            decision_time,
            game_time,
            seat_logs,
        )
        return
    from ..games.bidding import seat_strategies  # the kernels load here
    from ..games.rounds import auction_round, play_board

    seats = seat_strategies(bidding, policy, players)
    cards = parse_hand(hand) if hand else None
    t = -1
    if trump is not None:
        t = parse_suit(trump)
        if cards is not None and not any(c // 13 == t for c in cards):
            raise InputError(f"--trump {SUITS[t]}: the hand holds no card of that suit")
    seed = pick_seed(seed)
    if game:
        played_game = play_board(seed, board or 0, seats, rule_set)
        if as_json:
            from ..games.record import record_of_game

            print_json(record_of_game(played_game))
        else:
            sys.stdout.write(render_game(played_game))
        return
    first_dealer = players - 1 if dealer is None else dealer
    # One hand at a time, shown as soon as it is played: --rounds can be any size.
    played = (
        auction_round(
            seed,
            r,
            seats,
            rule_set,
            hand=cards,
            trump=t,
            bid=bid,
            dealer=None if bid is not None else (first_dealer + r) % players,
        )
        for r in range(rounds or 1)
    )
    # One strategy for all, or each seat's in seat order (the order --bidding gave them).
    same = len({s.name for s in seats}) == 1
    names = seats[0].name if same else ", ".join(f"seat {i} {s.name}" for i, s in enumerate(seats))
    for i, rnd in enumerate(played):
        if as_json:
            d = rnd.to_json()
            d["seed"] = seed
            d["strategies"] = [s.name for s in seats]
            text = dumps_json(d)
            if rounds is not None:  # a JSON list, laid out as dumps_json lays out a list
                text = ("[\n" if i == 0 else ",\n") + textwrap.indent(text, "  ")
            sys.stdout.write(text + ("\n" if rounds is None else ""))
        else:
            sys.stdout.write(
                render(rnd, f"Deal {i} of seed {seed}  ·  {players} players  ·  {names}")
            )
        if (
            t >= 0
            and rnd.pitcher is not None
            and not any(c // 13 == t for c in rnd.hands[rnd.pitcher])
        ):
            print(
                f"pitchsim: note: deal {i}: the pitcher (seat {rnd.pitcher}) holds no "
                f"{SUITS[t]}, so --trump {SUITS[t]} did nothing there",
                file=sys.stderr,
            )
    if as_json and rounds is not None:
        sys.stdout.write("\n]\n")


def _table_game(
    spec, players, rules, seed, board, as_json, decision_time, game_time, seat_logs
) -> None:
    """A whole game with the seats ``spec`` names, outside programs among them."""
    from pathlib import Path

    from ..games.outside import DECISION_TIME, GAME_TIME, CommandSeat
    from ..games.table import as_seat, play_table_game
    from ..games.tournament import prepare_record_dir, split_seats

    names = split_seats(spec)
    if len(names) == 1:
        names *= players
    if len(names) != players or not all(names):
        raise InputError(
            f"--strategies: give one strategy for every seat or one per seat "
            f"({players}), not {len(names)}"
        )
    if seat_logs is not None:
        prepare_record_dir(seat_logs)
    seats = []
    for i, name in enumerate(names):
        if name.startswith("cmd:"):
            log = Path(seat_logs) / f"seat-{i}.log" if seat_logs is not None else None
            seats.append(
                CommandSeat(name[4:], decision_time or DECISION_TIME, game_time or GAME_TIME, log)
            )
        else:
            seats.append(as_seat(name))
    if not any(isinstance(s, CommandSeat) for s in seats) and (decision_time or game_time):
        raise InputError("--decision-time and --game-time are for seats written cmd:COMMAND")
    try:
        doc = play_table_game(seats, rules, seed, board)
    finally:
        for s in seats:
            if isinstance(s, CommandSeat):
                s.close()
    _show_record(doc, as_json)


def _replay(source, as_json, game, strategies, board) -> None:
    from ..games.record import RecordError, replay
    from ..util.jsonio import read_json

    if game or strategies is not None or board is not None:
        raise InputError(
            "--replay plays the record's own game: leave out --game, --strategies and --board"
        )
    doc = read_json(source, "stdin" if source == "-" else f"record {source}")
    if not isinstance(doc, dict):
        raise RecordError("a record is a JSON object (docs/record.md)")
    _show_record(replay(doc), as_json)


def _show_record(doc: dict, as_json: bool) -> None:
    from ..games.record import game_of_record

    if as_json:
        print_json(doc)
        return
    text = render_game(game_of_record(doc))
    f = doc.get("forfeit")
    if f:
        text = text.replace("Nobody won", "Nobody won (forfeit)", 1)
        text += f"Seat {f['seat']} ({f['strategy']}) forfeits the game: {f['reason']}\n"
    sys.stdout.write(text)


def _call(c: int | None) -> str:
    return "pass" if c is None else str(c)


def render(r: Round, title: str) -> str:
    out = [title]
    team = r.rules.team
    for s, h in enumerate(r.hands):
        role = ""
        if r.pitcher is not None:
            role = (
                "pitcher" if s == r.pitcher else ("partner" if team(s) == team(r.pitcher) else "")
            )
        dealer = "dealer" if s == r.dealer else ""
        out.append(f"  seat {s} {role:<8}{dealer:<7} {format_cards(sort_for_display(h))}")
    calls = []
    for seat, c in zip(r.calling_order, r.calls, strict=True):
        calls.append(f"seat {seat} {_call(c)}")
        if c == 4:
            break  # a 4 ends the auction
    out.append("Auction: " + ", ".join(calls))
    if r.pitcher is None:
        out.append("Everybody passed: the hand is thrown in and dealt again.")
        return "\n".join(out) + "\n\n"
    if r.pitched is not None:
        out.append(
            f"Seat {r.pitcher} bid 4 by pitching {format_card(r.pitched)}; "
            f"trump {suit_label(r.trump)}"
        )
    else:
        out.append(f"Seat {r.pitcher} pitches for {r.bid}; trump {suit_label(r.trump)}")
    for i, (leader, cards, winner) in enumerate(r.tricks):
        plays = "  ".join(
            f"{(leader + j) % r.players}:{format_card(c)}" for j, c in enumerate(cards)
        )
        out.append(f"  trick {i + 1}: {plays:<{8 * r.players}}  -> seat {winner}")
    pts = ", ".join(f"{k} {'-' if v is None else 'seat ' + str(v)}" for k, v in r.points.items())
    out.append(f"Points: {pts}  (game counts {r.game_points})")
    verdict = "makes" if r.made else "is set"
    out.append(f"Pitcher {verdict}: round scores {r.round_points}")
    return "\n".join(out) + "\n\n"


def render_game(g: Game) -> str:
    n = len(g.strategies)
    seats = ", ".join(f"{s} {name}" for s, name in enumerate(g.strategies))
    rules = g.rules
    where = f"Game {g.board} of seed {g.seed}" if g.seed is not None else "A recorded game"
    out = [
        f"{where}  ·  {n} players{', partnership' if rules.partnership else ''}"
        f"  ·  to {rules.target}  ·  seats: {seats}\n\n"
    ]
    for i, (rnd, after) in enumerate(zip(g.rounds, g.scores, strict=True)):
        text = render(rnd, f"Hand {i + 1}")
        scores = "  ".join(f"seat {s}: {v:+d}" for s, v in enumerate(after))
        out.append(text.rstrip("\n") + f"\nScores: {scores}\n\n")
    hands = f"{len(g.rounds)} hand{'s' if len(g.rounds) != 1 else ''}"
    final = g.scores[-1] if g.scores else [0] * n
    if g.winner is None:
        out.append(f"Nobody won in {hands}: the game was abandoned.\n")
    elif rules.partnership:
        out.append(
            f"Team {g.winner} (seats {g.winner} and {g.winner + 2}) wins with "
            f"{final[g.winner]} after {hands}.\n"
        )
    else:
        out.append(
            f"Seat {g.winner} ({g.strategies[g.winner]}) wins with {final[g.winner]} "
            f"after {hands}.\n"
        )
    return "".join(out)
