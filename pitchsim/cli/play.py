"""``pitchsim play``: hands bid and played out trick by trick, to see what the policies do."""

from __future__ import annotations

import sys
import textwrap

import typer

from ..game.cards import SUITS, format_card, format_cards, parse_hand, parse_suit, sort_for_display
from ..games.bidding import seat_strategies
from ..games.rounds import Game, Round, auction_round, play_board
from ..util.errors import InputError
from ..util.jsonio import dumps_json
from ..util.limits import MAX_BOARD, MAX_ROUNDS, check_count
from ..util.runtime import pick_seed
from . import app
from .common import (
    JsonOpt,
    PartnershipOpt,
    PlayersOpt,
    PolicyOpt,
    RulesOpt,
    SeedOpt,
    make_rules,
    positive,
    show,
    suit_label,
)


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
    ),  # fmt: skip
    bid: int = typer.Option(
        None, "--bid", help="Skip the auction: seat 0 pitches at this bid (1-4)."
    ),
    dealer: int = typer.Option(
        None, "--dealer", help="The first hand's dealer (default: the last seat)."
    ),
    rounds: int = typer.Option(
        None, "--rounds", help="Play this many hands, the deal passing to the left (JSON: a list)."
    ),  # fmt: skip
    game: bool = typer.Option(
        False, "--game", help="Play a whole game, hand by hand, until someone wins."
    ),
    board: int = typer.Option(
        None,
        "--board",
        help="With --game: which game of the seed (default 0); a tournament "
        "with the same seed and seating plays the same deals as its game BOARD.",
    ),  # fmt: skip
    partnership: bool = PartnershipOpt,
    rules: str = RulesOpt,
    as_json: bool = JsonOpt,
) -> None:
    """Bid and play hands out; show the auction, every trick, the points and the score."""
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
    seats = seat_strategies(bidding, policy, players)
    cards = parse_hand(hand) if hand else None
    t = -1
    if trump is not None:
        t = parse_suit(trump)
        if cards is not None and not any(c // 13 == t for c in cards):
            raise InputError(f"--trump {SUITS[t]}: the hand holds no card of that suit")
    seed = pick_seed(seed)
    if game:
        show(play_board(seed, board or 0, seats, rule_set), as_json, render_game)
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
        )  # fmt: skip
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
            print(f"pitchsim: note: deal {i}: the pitcher (seat {rnd.pitcher}) holds no "
                  f"{SUITS[t]}, so --trump {SUITS[t]} did nothing there", file=sys.stderr)  # fmt: skip
    if as_json and rounds is not None:
        sys.stdout.write("\n]\n")


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
        out.append(f"Seat {r.pitcher} bid 4 by pitching {format_card(r.pitched)}; "
                   f"trump {suit_label(r.trump)}")  # fmt: skip
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
    out = [f"Game {g.board} of seed {g.seed}  ·  {n} players{', partnership' if rules.partnership else ''}"
           f"  ·  to {rules.target}  ·  seats: {seats}\n\n"]  # fmt: skip
    for i, (rnd, after) in enumerate(zip(g.rounds, g.scores, strict=True)):
        text = render(rnd, f"Hand {i + 1}")
        scores = "  ".join(f"seat {s}: {v:+d}" for s, v in enumerate(after))
        out.append(text.rstrip("\n") + f"\nScores: {scores}\n\n")
    hands = f"{len(g.rounds)} hand{'s' if len(g.rounds) != 1 else ''}"
    final = g.scores[-1] if g.scores else [0] * n
    if g.winner is None:
        out.append(f"Nobody won in {hands}: the game was abandoned.\n")
    elif rules.partnership:
        out.append(f"Team {g.winner} (seats {g.winner} and {g.winner + 2}) wins with "
                   f"{final[g.winner]} after {hands}.\n")  # fmt: skip
    else:
        out.append(f"Seat {g.winner} ({g.strategies[g.winner]}) wins with {final[g.winner]} "
                   f"after {hands}.\n")  # fmt: skip
    return "".join(out)
