"""``pitchsim tournament``: strategies play whole games against each other, duplicate style."""

from __future__ import annotations

from typing import TYPE_CHECKING

import typer

from ..game.rules import BASE_RULES, BIDS, label
from ..util.limits import MAX_GAMES, MAX_TARGET
from ..util.stats import too_few
from .app import app
from .common import (
    JsonOpt,
    PartnershipOpt,
    PlayersOpt,
    RulesOpt,
    SeedOpt,
    ThreadsOpt,
    make_rules,
    positive,
    show,
    signed,
    typed_flag,
)
from .progress import Progress

if TYPE_CHECKING:
    from ..table.tournament import TournamentResult


@app.command("tournament")
def tournament_command(
    strategies: str = typer.Option(
        ...,
        "--strategies",
        "-s",
        help="Two or more strategies, bidding+play, e.g. odds+heuristic,heuristic "
        "(bidding: random, heuristic, odds, odds-game, advisor; "
        "play: random, heuristic, rollout[:W][:read], pimc[:W][:read], epimc[:W][:read]), or an outside program "
        "speaking docs/protocol.md: cmd:COMMAND.  Every comma outside quotes ends a "
        "seat; a comma inside a command is quoted: cmd:bot.py 'a,b'.",
    ),
    players: int = PlayersOpt,
    boards: int = typer.Option(
        1000,
        "--boards",
        "--games",
        "-g",
        help=f"Boards (a game's deal sequence), at most {MAX_GAMES:,}; each is played once "
        "per rotation of the strategies: boards x strategies games in all.  --games is "
        "its old name.",
    ),
    target: int = typer.Option(
        None, "--target", help=f"Points to win, 1-{MAX_TARGET} (default: the rules' target, 7)."
    ),
    partnership: bool = PartnershipOpt,
    rules: str = RulesOpt,
    seed: int = SeedOpt,
    threads: int = ThreadsOpt,
    record: str = typer.Option(
        None, "--record", help="A directory to write every game's record to (docs/record.md)."
    ),
    decision_time: float = typer.Option(
        None,
        "--decision-time",
        help="Seconds an outside seat (cmd:COMMAND) may take per decision (10).",
    ),
    game_time: float = typer.Option(
        None, "--game-time", help="Seconds an outside seat may take per game in all (600)."
    ),
    seat_logs: str = typer.Option(
        None, "--seat-logs", help="A directory for each outside program's log of messages."
    ),
    as_json: bool = JsonOpt,
) -> None:
    """Play whole games between strategies and compare win rates, scores and bids."""
    # one option, three names: the one typed
    positive(typed_flag(("--boards", "--games", "-g"), None, "--boards"), boards, MAX_GAMES)
    rule_set = make_rules(rules, partnership, players, target)  # --target: rules' target
    from ..table.tournament import tournament  # the kernels load here

    with Progress("games") as bar:
        result = tournament(
            strategies,
            players=players,
            boards=boards,
            rules=rule_set,
            seed=seed,
            threads=threads,
            progress=bar.update,
            record=record,
            decision_time=decision_time,
            game_time=game_time,
            seat_logs=seat_logs,
        )
    show(result, as_json, render)


def _rules_note(r: TournamentResult) -> str:
    if not r.rules.base_game:
        return label(r.rules)
    base = BASE_RULES.describe()
    changed = [
        f"{k}={v}"
        for k, v in r.rules.describe().items()
        if base[k] != v and k not in ("target", "partnership")
    ]
    return ", ".join(changed) if changed else "base rules"


SHOWN_REASONS = 5  # per strategy; --json lists every forfeited game


def _forfeit_lines(r: TournamentResult) -> list[str]:
    """Each strategy's forfeits with their reasons, the most frequent first."""
    from collections import Counter

    lines = []
    for name, count in r.forfeits.items():
        if not count:
            continue
        lines.append(
            f"{name} forfeited {count:,} game{'s' if count != 1 else ''} (nobody won those):"
        )
        reasons = Counter(f["reason"] for f in r.forfeited if f["strategy"] == name)
        for reason, n in reasons.most_common(SHOWN_REASONS):
            lines.append(f"  {n:>5,} x {reason}")
        if len(reasons) > SHOWN_REASONS:
            rest = sum(n for _, n in reasons.most_common()[SHOWN_REASONS:])
            lines.append(
                f"  {rest:>5,} x {len(reasons) - SHOWN_REASONS:,} other reasons (--json lists all)"
            )
    return lines


def render(r: TournamentResult) -> str:
    table = "partnership (seats 0+2 vs 1+3)" if r.rules.partnership else "solo"
    lines = [
        f"Tournament  ·  {r.players} players, {table}  ·  target {r.rules.target}  ·  "
        f"{_rules_note(r)}  ·  seed {r.seed}",
        f"Duplicate: each of {r.boards:,} boards (a game's deals) was played once per rotation "
        f"of the strategies around the table: {r.games:,} games.",
    ]
    for i, seats in enumerate(r.seating):
        lines.append(
            f"  rotation {i + 1}: " + ", ".join(f"seat {s} {n}" for s, n in enumerate(seats))
        )
    # the name column fits the longest name (an outside seat's is its whole command)
    w = max([26, *(len(s.name) + 2 for s in r.results)])
    lines += [
        f"Fair share of the wins: {100 * r.fair_share:.1f}%.  Interval: 95%, over boards.",
        "",
        f"{'strategy':<{w}}{'wins':>9}{'win rate':>10}  {'95% interval':<15}{'final score':>12}"
        f"{'pitched':>12}{'made':>11}{'set':>10}",
    ]
    for s in r.results:
        lo, hi = s.ci95
        ci = "too few boards" if too_few(r.boards) else f"{100 * lo:.1f}-{100 * hi:.1f}%"
        lines.append(
            f"{s.name:<{w}}{s.wins:>9,}{100 * s.win_rate:>9.1f}%  "
            f"{ci:<15}{signed(s.mean_final_score):>12}"
            f"{s.hands_pitched:>12,}{s.hands_made:>11,}{s.hands_set:>10,}"
        )
    bids = list(r.results[0].pitched) if r.results else list(BIDS)
    bids = [k for k in bids if k >= r.rules.min_bid]  # none is ever pitched below it
    lines += [
        "",
        "Hands pitched at each bid (and how often made)",
        f"{'strategy':<{w}}" + "".join(f"{'bid ' + str(k):>18}" for k in bids),
    ]
    for s in r.results:
        cells = []
        for k in bids:
            rate = s.make_rate(k)
            cells.append(
                f"{s.pitched[k]:,}" + (f" ({100 * rate:.0f}%)" if rate is not None else "")
            )
        lines.append(f"{s.name:<{w}}" + "".join(f"{c:>18}" for c in cells))
    lines.append("")
    lines.append(f"Deals per game: {r.mean_deals:.1f} on average (redeals included).")
    lines += _forfeit_lines(r)
    if r.seconds is not None:
        lines.append(f"Played decision by decision: {r.games / r.seconds:,.1f} games a second.")
    if r.unfinished:
        lines.append(f"{r.unfinished:,} games reached the deal limit with no winner.")
    return "\n".join(lines) + "\n"
