"""``pitchsim play``: hands bid and played out trick by trick, to see what the policies do."""

from __future__ import annotations

import sys
import textwrap
from typing import TYPE_CHECKING

import typer

from ..game.cards import (
    SUITS,
    CardError,
    cards_of,
    format_card,
    format_cards,
    mask_of,
    parse_cards,
    parse_suit,
    sort_for_display,
)
from ..game.rules import label
from ..game.rules import spec as spec_of
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
    given_flags,
    make_rules,
    positive,
    print_json,
    suit_label,
)

if TYPE_CHECKING:
    from ..table.rounds import Game, Round


@app.command("play")
def play_command(
    players: int = PlayersOpt,
    seed: int = SeedOpt,
    hand: str = typer.Option(
        None,
        "--hand",
        help="Seat 0's cards as dealt: six (a preset's deal: nine under ten-point); default dealt.",
    ),
    trump: str = typer.Option(
        None,
        "--trump",
        help="Make the pitcher lead this suit (under a preset that names trump: name it).",
    ),
    policy: str = PolicyOpt,
    bidding: str = typer.Option(
        "heuristic",
        "--bidding",
        help="Bidding policy (random, heuristic, odds, odds-game), or one per seat.",
    ),
    bid: int = typer.Option(
        None,
        "--bid",
        help="Skip the auction: seat 0 pitches at this bid (1-4; a preset's minimum to maximum).",
    ),
    dealer: int = typer.Option(
        None, "--dealer", help="The first hand's dealer (default: the last seat)."
    ),
    rounds: int = typer.Option(
        None,
        "--rounds",
        help="Play this many hands, the deal passing to the left (under all-pass=redeal a hand everyone passed is dealt again by the same dealer; JSON: a list).",
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
        "or an outside program speaking docs/protocol.md: cmd:COMMAND.  Every comma "
        "outside quotes ends a seat; a comma inside a command is quoted: cmd:bot.py 'a,b'.",
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
        given_rules = None
        if rules is not None or partnership:
            given_rules = make_rules(rules, partnership, players)
        _replay(replay, as_json, given_rules)
        return
    outside = {"--decision-time": decision_time, "--game-time": game_time, "--seat-logs": seat_logs}
    if strategies is None and any(v is not None for v in outside.values()):
        given = ", ".join(k for k, v in outside.items() if v is not None)
        raise InputError(f"{given}: for outside seats, given with --strategies cmd:COMMAND")
    if strategies is not None and not game:
        raise InputError("--strategies seats players for a whole game: add --game")
    if strategies is not None and (both := given_flags("policy", "bidding")):
        raise InputError(
            f"--strategies names each seat's bidding and play: leave out {', '.join(both)}"
        )
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
    play_preset(
        rule_set,
        players,
        seed,
        bidding,
        policy,
        dealer,
        rounds,
        game,
        board,
        strategies,
        as_json,
        {"--hand": hand, "--trump": trump, "--bid": bid, **outside},
    )


def _json_item(doc: dict, i: int, listed: bool) -> str:
    """Hand ``i``'s document as written while the hands are played: alone, or as an item
    of a JSON list laid out as ``dumps_json`` lays out a list (closed by the caller)."""
    text = dumps_json(doc)
    if not listed:
        return text + "\n"
    return ("[\n" if i == 0 else ",\n") + textwrap.indent(text, "  ")


def _hands_in_turn(deal_hand, count: int, first_dealer: int, players: int, rules):
    """``count`` hands, ``deal_hand(deal_no, dealer)`` each, the deal passing to the
    left, except that under ``all-pass=redeal`` a hand everyone passed is dealt again
    by the same dealer (docs/rules.md; VARIANTS 0.1, 4.5), as in a whole game."""
    dealer = first_dealer
    for r in range(count):
        hand = deal_hand(r, dealer)
        yield hand
        if not (hand.pitcher is None and rules.all_pass == "redeal"):
            dealer = (dealer + 1) % players


def _table_game(
    spec, players, rules, seed, board, as_json, decision_time, game_time, seat_logs
) -> None:
    """A whole game with the seats ``spec`` names, outside programs among them."""
    from pathlib import Path

    from ..table.game import as_seat, built_in_strategies, check_table, play_table_game
    from ..table.outside import CommandSeat
    from ..table.tournament import prepare_record_dir, split_seats

    names = split_seats(spec)
    built_in_strategies(names)  # a misspelt seat named before the count is
    if len(names) == 1:
        names *= players
    if len(names) != players or not all(names):
        raise InputError(
            f"--strategies: give one strategy for every seat or one per seat "
            f"({players}), not {len(names)}"
        )
    timed = decision_time is not None or game_time is not None
    if not any(name.startswith("cmd:") for name in names) and timed:
        raise InputError("--decision-time and --game-time are for seats written cmd:COMMAND")
    check_table(names, rules, players)  # before a program starts or a log is written
    if seat_logs is not None:
        prepare_record_dir(seat_logs, "--seat-logs")
    seats = []
    for i, name in enumerate(names):
        if name.startswith("cmd:"):
            log = Path(seat_logs) / f"seat-{i}.log" if seat_logs is not None else None
            seats.append(CommandSeat(name[4:], decision_time, game_time, log))
        else:
            seats.append(as_seat(name))
    try:
        doc = play_table_game(seats, rules, seed, board)
    finally:
        for s in seats:
            if isinstance(s, CommandSeat):
                s.close()
    _show_record(doc, as_json)


def _replay(source, as_json, rules=None) -> None:
    from ..table.record import RecordError, check_record_rules, replay
    from ..util.jsonio import read_json

    # The record holds the game whole: an option that would change it is refused, never
    # ignored (--rules and --partnership are checked against the record's, --json shows it).
    played = given_flags(
        "players", "seed", "hand", "trump", "policy", "bidding", "bid", "dealer", "rounds",
        "game", "board", "strategies", "decision_time", "game_time", "seat_logs",
    )  # fmt: skip
    if played:
        raise InputError(f"--replay plays the record's own game: leave out {', '.join(played)}")
    doc = read_json(source, "the record")
    if not isinstance(doc, dict):
        raise RecordError("a record is a JSON object (docs/record.md)")
    if doc.get("format") == "pitchsim-family-game":
        raise RecordError(
            "this is the rule families' old game log (format pitchsim-family-game), not a "
            "record: `play --game --json` writes a game's record now"
        )
    if rules is not None:
        check_record_rules(doc, rules)
    _show_record(replay(doc), as_json)


def play_preset(
    rules, players, seed, bidding, policy, dealer, rounds, game, board, strategies, as_json, fixed
) -> None:
    """``play`` under a rule family: hands or a whole game by the family kernels; a
    game with an outside seat (``cmd:COMMAND``) at the table (``table.game``)."""
    outside = {k: fixed.pop(k) for k in ("--decision-time", "--game-time", "--seat-logs")}
    if dealer is not None and not 0 <= dealer < players:
        raise InputError(f"dealer must be a seat, 0-{players - 1}, not {dealer}")
    bid = fixed["--bid"]
    if bid is not None and dealer is not None:
        raise InputError("--bid seats the dealer last (seat 0 pitches): leave out --dealer")
    cards = 0
    if fixed["--hand"] is not None:
        try:
            cards = mask_of(parse_cards(fixed["--hand"], rules.jokers))
        except CardError as e:
            raise InputError(f"--hand: {e}") from None
    suit = -1
    if fixed["--trump"] is not None:
        try:
            suit = parse_suit(fixed["--trump"])
        except CardError as e:
            raise InputError(f"--trump: {e}") from None
    if strategies is not None:
        from ..table.tournament import split_seats

        if any(x.startswith("cmd:") for x in split_seats(strategies)):
            _table_game(
                strategies,
                players,
                rules,
                pick_seed(seed),
                board or 0,
                as_json,
                *outside.values(),
            )
            return
    if any(v is not None for v in outside.values()):
        raise InputError("--decision-time, --game-time and --seat-logs are for cmd:COMMAND seats")
    if cards or suit >= 0 or bid is not None:
        from ..table.fixed import check_fixed

        check_fixed(rules, players, cards, suit, bid)  # before the kernels load
    from ..table.bidding import seat_strategies
    from ..table.boards import board_game, board_hand
    from ..table.game import built_in_strategies, check_table

    if strategies is not None:
        seats = built_in_strategies(split_seats(strategies))  # each read before the count
        if len(seats) == 1:
            seats *= players
        if len(seats) != players:
            raise InputError(
                f"--strategies: give one strategy for every seat or one per seat "
                f"({players}), not {len(seats)}"
            )
    else:
        seats = seat_strategies(bidding, policy, players)
    check_table(seats, rules, players)  # practice's and tournament's refusal, word for word
    seed = pick_seed(seed)
    if game:
        g = board_game(seed, board or 0, seats, rules)
        if as_json:  # the game's record (docs/record.md)
            from ..table.record import record_of_preset_game

            print_json(record_of_preset_game(g))
        else:
            sys.stdout.write(render_board_game(g))
        return
    same = len({s.name for s in seats}) == 1
    names = seats[0].name if same else ", ".join(f"seat {i} {s.name}" for i, s in enumerate(seats))
    hands = _hands_in_turn(
        lambda r, d: board_hand(seed, r, seats, rules, d, cards, suit, bid),
        rounds or 1,
        players - 1 if dealer is None else dealer,
        players,
        rules,
    )
    for r, h in enumerate(hands):
        if suit >= 0 and rules.trump == "first-lead" and h.pitcher is not None and h.trump != suit:
            print(
                f"pitchsim: note: deal {r}: the pitcher (seat {h.pitcher}) holds no "
                f"{SUITS[suit]}, so --trump {SUITS[suit]} did nothing there",
                file=sys.stderr,
            )
        if as_json:
            d = h.to_json(rules) | {
                "players": players,
                "rules": spec_of(rules),
                "seed": seed,
                "deal": r,
                "strategies": [s.name for s in seats],
            }
            # One hand at a time, as the base game's: --rounds can be any size.
            sys.stdout.write(_json_item(d, r, rounds is not None))
        else:
            title = f"Deal {r} of seed {seed}  ·  {label(rules)}  ·  {players} players  ·  {names}"
            sys.stdout.write(render_board_hand(h, rules, title))
    if as_json and rounds is not None:
        sys.stdout.write("\n]\n")


def render_board_hand(h, rules, title: str) -> str:
    n = len(h.dealt)
    out = [title]
    discard = rules.discard != "none"
    for s in range(n):
        role = ""
        if h.pitcher is not None:
            role = (
                "pitcher"
                if s == h.pitcher
                else ("partner" if rules.team(s) == rules.team(h.pitcher) or s == h.partner else "")
            )
        dealer = "dealer" if s == h.dealer else ""
        cards = format_cards(sort_for_display(cards_of(h.dealt[s])))
        out.append(f"  seat {s} {role:<8}{dealer:<7} {cards}")
    calls = [f"seat {(h.dealer + 1 + i) % n} {c}" for i, c in enumerate(h.calls) if c is not None]
    out.append("Auction: " + ", ".join(calls))
    if h.pitcher is None:
        if rules.all_pass == "dealer-set":
            what = "the dealer's side scores -2 (3.4) and the deal passes to the left"
        elif rules.all_pass == "redeal":
            what = "the same dealer deals again (4.5)"
        else:
            what = "nobody scores and the deal passes to the left (2.6)"
        out.append(f"Everybody passed: {what}.")
        return "\n".join(out) + "\n\n"
    call = "shoots the moon" if h.shoot else f"pitches for {h.bid}"
    how = "names" if rules.trump == "named" else "leads"
    out.append(f"Seat {h.pitcher} {call}; {how} trump {suit_label(h.trump)}")
    if h.kitty:  # 12.2.2
        out.append(
            f"Seat {h.pitcher} takes the kitty {format_cards(sort_for_display(cards_of(h.kitty)))}"
            f" and puts down {format_cards(sort_for_display(cards_of(h.put_down)))} face down"
        )
    if discard:
        step = {"non-trump": "the discard and draw (4.8)", "choice": "the discard (12.8.1)"}
        out.append(f"After {step.get(rules.discard, 'the discard and draw (12.8.2)')}, in play:")
        for s in range(n):
            out.append(f"  seat {s} {format_cards(sort_for_display(cards_of(h.held[s])))}")
    if h.called is not None:  # 12.1.2, 12.1.4, 12.1.5
        who = (
            f"seat {h.partner} holds it: his partner for the hand"
            if h.partner is not None
            else "nobody else holds it: he plays alone"
        )
        out.append(f"Seat {h.pitcher} calls {format_card(h.called)} (12.1); {who}")
    for i, (_leader, seats, cards, winner) in enumerate(h.tricks):
        plays = "  ".join(f"{s}:{format_card(c)}" for s, c in zip(seats, cards, strict=True))
        out.append(f"  trick {i + 1}: {plays:<{8 * n}}  -> seat {winner}")
    pts = ", ".join(f"{k} {'-' if v is None else 'seat ' + str(v)}" for k, v in h.awards.items())
    # The counts for Game, as played: a kitty's cards put down are not in them (12.2.2).
    counts = f"  (game counts {h.game_counts})" if rules.game == "count" and not rules.kitty else ""
    out.append(f"Points: {pts}{counts}")
    verdict = "makes" if h.made else "is set"
    who = "Pitcher's side" if h.partner is not None else "Pitcher"  # 12.1.6
    out.append(f"{who} {verdict}: points won {h.points_won}, scores change {h.change}")
    return "\n".join(out) + "\n\n"


def render_board_game(g) -> str:
    n = len(g.strategies)
    rules = g.rules
    seats = ", ".join(f"{s} {name}" for s, name in enumerate(g.strategies))
    where = f"Game {g.board} of seed {g.seed}" if g.seed is not None else "A recorded game"
    out = [
        f"{where}  ·  {label(rules)}  ·  {n} players"
        f"{', partnership' if rules.partnership else ''}  ·  to {rules.target}  ·  "
        f"seats: {seats}\n\n"
    ]
    for i, h in enumerate(g.hands):
        text = render_board_hand(h, rules, f"Hand {i + 1}")
        scores = "  ".join(f"seat {s}: {v:+d}" for s, v in enumerate(h.scores_after))
        out.append(text.rstrip("\n") + f"\nScores: {scores}\n\n")
    hands = f"{len(g.hands)} hand{'s' if len(g.hands) != 1 else ''}"
    final = g.hands[-1].scores_after if g.hands else [0] * n
    if not g.winners:
        out.append(f"Nobody won in {hands}: the game was abandoned.\n")
    else:
        if rules.partnership:
            who = [f"team {t} (seats {t} and {t + 2})" for t in g.winners]
        else:
            who = [f"seat {s} ({g.strategies[s]})" for s in g.winners]
        side = g.winners[0]
        verb = "win, sharing the win," if len(who) > 1 else "wins"
        sentence = f"{' and '.join(who)} {verb} with {final[side]} after {hands}.\n"
        out.append(sentence[0].upper() + sentence[1:])
    return "".join(out)


def _show_record(doc: dict, as_json: bool) -> None:
    from ..table.record import game_of_record, is_preset_record, preset_game_of_record

    if as_json:
        print_json(doc)
        return
    if is_preset_record(doc):
        text = render_board_game(preset_game_of_record(doc))
    else:
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
