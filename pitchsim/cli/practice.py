"""``pitchsim practice``: a game against pitchsim in the terminal, with a coach; and
``pitchsim review RECORD --seat N``: every decision of a recorded game judged."""

from __future__ import annotations

import sys

import typer

from .app import app
from .common import JsonOpt, PartnershipOpt, PlayersOpt, RulesOpt, SeedOpt, seed_option

DEFAULT_SAVE = "practice-game.json"
# pitchsim.table.bidding.PLAYER_STRATEGY (tests/test_cli_startup.py keeps them equal)
DEFAULT_OPPONENTS = "odds+rollout"


@app.command("practice")
def practice_command(
    players: int = PlayersOpt,
    partnership: bool = PartnershipOpt,
    rules: str = RulesOpt,
    target: int = typer.Option(None, "--target", help="Points to win the game."),
    seed: int = SeedOpt,
    seat: int = typer.Option(0, "--seat", help="Your seat (0 = left of the first dealer)."),
    opponents: str = typer.Option(
        DEFAULT_OPPONENTS, "--opponents", help="The other seats' strategy, bidding+play."
    ),
    coach: bool = typer.Option(True, "--coach/--no-coach", help="Judge each decision."),
    watch: bool = typer.Option(False, "--watch", help="Every seat a bot: watch pitchsim play."),
    save: str = typer.Option(
        DEFAULT_SAVE, "--save", help="Where the game record is written (finished or not)."
    ),
    resume: str = typer.Option(
        None, "--resume", help="Continue the unfinished game saved in this record."
    ),
    samples: int = typer.Option(
        None, "--samples", help="The coach's deals per call judged (default 4000)."
    ),
    worlds: int = typer.Option(
        None, "--worlds", help="The coach's worlds per card judged (default 200)."
    ),
    time: float = typer.Option(
        None, "--time", help="Seconds the coach may take per decision judged (default 10)."
    ),
) -> None:
    """Play a whole game in the terminal against pitchsim's strategies. The coach values
    every legal choice after each of yours (advise for calls, hint for cards) and says
    what yours cost, with its error; the game is saved as a record for `pitchsim review`."""
    from ..coach.judge import COACH_SAMPLES, COACH_TIME, COACH_WORLDS
    from ..coach.practice import (
        PracticeError,
        check_seat,
        loss_line,
        practice,
        read_line,
        read_save,
        use_colour,
    )
    from ..game.rules import document_rule_values, label
    from ..table.bidding import Strategy
    from ..table.game import check_table, game_end_words
    from ..util.atomic import check_writable, write_file
    from ..util.jsonio import dumps_json, read_json
    from ..util.limits import check_count
    from ..util.runtime import pick_seed
    from .common import given_flags, make_rules

    check_count("--samples", samples, 1_000_000)
    check_count("--worlds", worlds, 100_000)
    # The coach's settings when nobody is coached would be silently ignored: refused.
    # (--watch --seat S is not: the save names S as the seat `review` looks at.)
    idle = given_flags("samples", "worlds", "time")
    if watch and (idle or (coach and given_flags("coach"))):
        raise PracticeError(
            f"--watch seats bots only, coached by none: leave out {', '.join(idle or ['--coach'])}"
        )
    if not coach and idle:
        raise PracticeError(f"--no-coach judges nothing: leave out {', '.join(idle)}")
    from ..table.clock import check_time

    time = check_time(time)
    # A folder or a place no file can be written is refused now, not after the game.
    check_writable(save, "--save")
    doc = None
    if resume is not None:
        # Given at all, not only when unlike the default: --seat 0 is not the save's seat 2.
        clash = given_flags(
            "players", "seed", "rules", "partnership", "target", "seat", "opponents", "watch"
        )
        if clash:
            raise PracticeError(
                f"--resume continues the saved game as it was: leave out {', '.join(clash)}"
            )
        saved = read_save(read_json(resume, "the saved game"), resume)
        doc = saved.doc
        players, seed, seat, opponents = saved.players, saved.seed, saved.seat, saved.opponents
        r = make_rules(document_rule_values(doc["rules"]), False, players)  # never a file
    else:
        r = make_rules(rules, partnership, players, target)
        seed = pick_seed(seed)
    Strategy.parse(opponents)  # one line for an unknown strategy, before any game
    check_seat(seat, players)
    # what the table would refuse at its first deal or decision, refused before the heading
    check_table([opponents] * players, r, players)
    # (after every check: a refused game names no save of its own)
    save = _save_beside_unfinished(save, resume)
    write = lambda text: print(text, flush=True)  # noqa: E731
    mine = "every seat a bot" if watch else f"you are seat {seat}"  # --watch: nobody is "you"
    write(
        f"pitchsim practice · {label(r)} · {players} players · seed {seed} · {mine} · "
        f"opponents {opponents} · coach {'on' if coach and not watch else 'off'}"
    )
    record, judgements = practice(
        players,
        seat,
        opponents,
        r,
        seed,
        coach=coach and not watch,
        read=read_line,
        write=write,
        colour=use_colour(),
        resume=doc,
        watch=watch,
        samples=samples or COACH_SAMPLES,
        worlds=worlds or COACH_WORLDS,
        time=COACH_TIME if time is None else time,
    )
    write_file(save, dumps_json(record, indent=1) + "\n")
    if "stopped" in record:
        write(
            f"saved the unfinished game to {save}: continue with "
            f"`pitchsim practice --resume {save} --save {save}`"
        )
        return
    words = game_end_words(record, None if watch else seat, r.partnership)
    write(f"game over: {words[:1].lower()}{words[1:]}; final scores {record['final_scores']}")
    if not watch and coach:
        from ..coach.practice import judgement_of

        all_js = [judgement_of(j) for j in record["practice"]["judgements"]]
        write(loss_line(all_js, "your game"))
    write(f"record saved to {save}: `pitchsim review {save} --seat {seat}` goes over it")
    del judgements


@app.command("review")
def review_command(
    record: str = typer.Argument(..., help="A game record (docs/record.md; `-`: stdin)."),
    seat: int = typer.Option(
        None, "--seat", help="The seat whose decisions to review (a practice save: yours)."
    ),
    seed: int = seed_option(None, "The coach's seed (default: the record's, as practice used)."),
    samples: int = typer.Option(None, "--samples", help="Deals per call judged (4000)."),
    worlds: int = typer.Option(None, "--worlds", help="Worlds per card judged (200)."),
    time: float = typer.Option(
        None, "--time", help="Seconds the coach may take per decision judged (10)."
    ),
    as_json: bool = JsonOpt,
) -> None:
    """Every decision of one seat in a recorded game, valued from the view it had: the
    costly ones, the total loss, and a table by hand."""
    from ..coach.judge import (
        COACH_SAMPLES,
        COACH_TIME,
        COACH_WORLDS,
        GAME_UNIT,
        GAME_UNITS,
        describe,
        loss_text,
        show_action,
    )
    from ..coach.review import review
    from ..table.clock import check_time
    from ..table.record import replay
    from ..util.errors import InputError
    from ..util.jsonio import dumps_json, read_json
    from ..util.limits import check_count
    from .progress import Progress

    check_count("--samples", samples, 1_000_000)
    check_count("--worlds", worlds, 100_000)
    time = COACH_TIME if time is None else check_time(time)
    raw = read_json(record, "the record")
    doc = replay(raw, strategies=False)
    if seat is None:  # a practice save names the person's seat; any other record cannot
        saved = raw.get("practice") if isinstance(raw, dict) else None
        seat = saved.get("seat") if isinstance(saved, dict) else None
        if not isinstance(seat, int) or isinstance(seat, bool):
            raise InputError(
                "--seat: give the seat whose decisions to review (only a practice save names one)"
            )
    if seed is None:
        seed = doc.get("seed") if isinstance(doc.get("seed"), int) else 0
    with Progress("decisions") as bar:
        r = review(
            doc,
            seat,
            seed,
            samples or COACH_SAMPLES,
            worlds or COACH_WORLDS,
            progress=lambda done, total: bar.update(done - bar.done, total),
            time=time,
        )
    if as_json:
        print(dumps_json(r.to_json()))
        return
    out = [
        f"review of seat {seat} · {len(r.judgements)} decisions judged "
        f"({r.forced} forced, not judged) · seed {seed} · "
        f"{_used(r, 'call', 'deals')} a call, {_used(r, 'card', 'worlds')} a card"
        + (" · unfinished game" if doc.get("stopped") else "")  # as the web's review says
    ]
    # Units (coach/judge.py): calls in P(win); cards in points (the base game) or in
    # margin points (a preset's); a named trump in points of expected score.
    preset = any(j.unit == "margin" for j in r.judgements)
    card_unit = "margin" if preset else "points"
    # A card whose hand could end the game is judged in P(game) (or net P(game)), apart.
    game = any(j.unit in GAME_UNITS for j in r.judgements)
    more = "  cards  lost P(game)" if game else ""
    out.append(f"hand  calls  lost P(win)  cards  lost {card_unit:<6}{more}  labelled")
    for row in r.by_hand():
        more = f"  {row['game_cards']:>5}  {100 * row['game_loss']:>11.1f}" if game else ""
        out.append(
            f"{row['hand']:>4}  {row['calls']:>5}  {100 * row['call_loss']:>11.1f}  "
            f"{row['cards']:>5}  {row['card_loss']:>11.2f}{more}  {row['labelled']:>8}"
        )
    out.append("(chances lost in percentage points: they add over decisions, past 100 at times)")
    total = r.to_json()
    text = f"total: calls lost {loss_text(total['call_loss'], 'P(win)')}, cards "
    text += loss_text(total["card_loss"], card_unit)
    if game:
        text += f", cards that could end the game {loss_text(total['game_loss'], GAME_UNIT)}"
    named = sum(row["trumps"] for row in r.by_hand())
    if named:
        text += f", naming trump ({named}) {loss_text(total['trump_loss'], 'score')}"
    out.append(text)
    for c in r.partner_calls:  # 12.1: valued in a note against pitchsim's, not judged
        said = c["note"].removeprefix("coach: ") if c["note"] else "pitchsim's call"
        out.append(f"hand {c['hand']}: called {show_action('call', c['called'])}: {said}")
    for d in r.put_downs:  # 12.2.2, 12.8.1: as the call
        said = d["note"].removeprefix("coach: ") if d["note"] else "pitchsim's put-down"
        out.append(f"hand {d['hand']}: put down {show_action('call', d['put_down'])}: {said}")
    if r.costly:
        out.append("costly decisions:")
        for j in r.costly:
            out.append(f"  hand {j.hand}: " + describe(j).removeprefix("coach: "))
    else:
        out.append("no decision lost more than its own error")
    print("\n".join(out))
    sys.stdout.flush()


def _used(r, kind: str, what: str) -> str:
    """The deals or worlds the judgements of ``kind`` were made on (a clock or a short
    supply can use fewer than asked): one number, or the range."""
    used = sorted({j.samples for j in r.judgements if j.kind == kind})
    asked = r.samples if kind == "call" else r.worlds
    if not used or used == [asked]:
        return f"{asked:,} {what}"
    span = f"{used[0]:,}" if len(used) == 1 else f"{used[0]:,}-{used[-1]:,}"
    return f"{span} {what} (of {asked:,} asked)"


def _save_beside_unfinished(save: str, resume: str | None) -> str:
    """Where this game is saved: never over an unfinished game another game saved (only
    its own ``--resume`` writes over it).  At the default place the game is saved under
    the next free name, and said so; a ``--save`` named on purpose is refused."""
    from pathlib import Path

    from ..coach.practice import PracticeError

    if not _holds_unfinished(save) or (
        resume is not None and Path(save).resolve() == Path(resume).resolve()
    ):
        return save
    if save != DEFAULT_SAVE:
        raise PracticeError(
            f"--save {save} holds an unfinished game: continue it with `pitchsim practice "
            f"--resume {save} --save {save}`, or give another --save"
        )
    stem, suffix = Path(save).stem, Path(save).suffix
    k = 2
    while Path(f"{stem}-{k}{suffix}").exists():
        k += 1
    free = f"{stem}-{k}{suffix}"
    print(
        f"pitchsim: {save} holds an unfinished game (`pitchsim practice --resume {save} "
        f"--save {save}` continues it): this game is saved to {free}",
        file=sys.stderr,
    )
    return free


def _holds_unfinished(save: str) -> bool:
    from pathlib import Path

    from ..util.errors import InputError
    from ..util.jsonio import read_json

    if not Path(save).is_file():
        return False
    try:
        doc = read_json(save, "--save")
    except InputError:
        return False  # not a game record: nothing of a game to lose
    if not (isinstance(doc, dict) and doc.get("format") == "pitchsim-game" and doc.get("stopped")):
        return False
    # A game stopped before the person's first decision holds nothing of theirs to lose.
    practice = doc.get("practice")
    seat = practice.get("seat") if isinstance(practice, dict) else None
    hands = doc.get("hands") if isinstance(doc.get("hands"), list) else []
    return any(
        isinstance(a, dict) and a.get("seat") == seat
        for h in hands
        if isinstance(h, dict) and isinstance(h.get("actions"), list)
        for a in h["actions"]
    )
