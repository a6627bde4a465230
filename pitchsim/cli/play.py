"""``pitchsim play``: hands played out trick by trick, to see what the policies do."""

from __future__ import annotations

import secrets
import sys

import typer

from ..cards import SUITS, format_card, format_cards, parse_hand, parse_suit, sort_for_display
from ..errors import InputError
from ..policies import seat_policies
from ..rounds import Round, play_round
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
    print_json,
    suit_label,
)


@app.command("play")
def play_command(
    players: int = PlayersOpt,
    seed: int = SeedOpt,
    hand: str = typer.Option(None, "--hand", help="The pitcher's six cards (default: dealt)."),
    trump: str = typer.Option(None, "--trump", help="Make the pitcher lead this suit."),
    policy: str = PolicyOpt,
    bid: int = typer.Option(2, "--bid", help="The pitcher's bid (1-4), for made/set."),
    rounds: int = typer.Option(None, "--rounds", help="Play this many hands (JSON: a list)."),
    partnership: bool = PartnershipOpt,
    rules: str = RulesOpt,
    as_json: bool = JsonOpt,
) -> None:
    """Play hands out and show every trick, the points and the score."""
    positive("rounds", rounds)
    rule_set = make_rules(rules, partnership, players)
    if not 1 <= bid <= 4:
        raise InputError(f"bid must be 1-4, not {bid}")
    policies = seat_policies(policy, players)
    cards = parse_hand(hand) if hand else None
    t = -1
    if trump is not None:
        t = parse_suit(trump)
        if cards is not None and not any(c // 13 == t for c in cards):
            raise InputError(f"--trump {SUITS[t]}: the hand holds no card of that suit")
    if seed is None:
        seed = secrets.randbelow(2**31)
    if seed < 0:
        raise InputError(f"seed must be >= 0, not {seed}")
    played = []
    for r in range(rounds or 1):
        rnd = play_round(seed, r, players, policies, rule_set, hand=cards, trump=t, bid=bid)
        if t >= 0 and not any(c // 13 == t for c in rnd.hands[rnd.pitcher]):
            rnd = play_round(seed, r, players, policies, rule_set, hand=cards, bid=bid)
        played.append(rnd)
    if as_json:
        docs = [p.to_json() for p in played]
        for d in docs:
            d["seed"] = seed
        print_json(docs if rounds is not None else docs[0])
        return
    for i, rnd in enumerate(played):
        sys.stdout.write(render(rnd, seed, i, policy))


def render(r: Round, seed: int, deal: int, policy: str) -> str:
    out = [f"Deal {deal} of seed {seed}  ·  {r.players} players  ·  {policy} play"]
    team = r.rules.team
    for s, h in enumerate(r.hands):
        role = "pitcher" if s == r.pitcher else ("partner" if team(s) == team(r.pitcher) else "")
        out.append(f"  seat {s} {role:<8} {format_cards(sort_for_display(h))}")
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
