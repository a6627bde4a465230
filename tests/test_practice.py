"""A person at the table: `pitchsim practice` (scripted stdin and a real pseudo-terminal),
the coach's judgements, and `pitchsim review` of recorded games (issue 18)."""

from __future__ import annotations

import json
import math
import os
import pty
import re
import select
import sys
import time

import pytest
from clirun import refused, run

from pitchsim.coach.judge import CALL_STEPS, CARD_STEPS, judge_call, judge_card, label
from pitchsim.coach.practice import coach_seed, practice, read_choice, shown_choices
from pitchsim.coach.review import review
from pitchsim.game.rules import Rules
from pitchsim.table.game import game_end_words
from pitchsim.table.record import views_of

CLI = [sys.executable, "-m", "pitchsim"]  # the terminal test's own process


def first_choice_answers(n=400):
    """Pass every call (or bid the lowest when passing is not allowed), play the first
    listed card."""
    return "".join("p\n1\n" for _ in range(n))


class Script:
    """Answers for ``practice``'s read(): a list, then EOF; the prompts it was shown."""

    def __init__(self, answers):
        self.answers = list(answers)
        self.prompts = []

    def __call__(self, prompt):
        self.prompts.append(prompt)
        if not self.answers:
            raise EOFError
        return self.answers.pop(0)


# ---------------------------------------------------------------- judgements


def test_labels_need_a_loss_beyond_its_error_and_follow_the_steps():
    # Hand-worked: each step's threshold reached, and the same losses inside their error.
    assert label(0.16, 0.01, CALL_STEPS) == "blunder"
    assert label(0.15, 0.01, CALL_STEPS) == "blunder"
    assert label(0.149, 0.01, CALL_STEPS) == "mistake"
    assert label(0.05, 0.01, CALL_STEPS) == "inaccuracy"
    assert label(0.049, 0.01, CALL_STEPS) is None
    assert label(0.30, 0.31, CALL_STEPS) is None  # inside its error: no label
    assert label(0.30, 0.30, CALL_STEPS) is None  # equal is not larger
    assert label(0.30, math.nan, CALL_STEPS) is None  # no error known: no label
    assert label(0.5, 0.1, CARD_STEPS) == "blunder"
    assert label(0.26, 0.1, CARD_STEPS) == "mistake"
    assert label(0.11, 0.1, CARD_STEPS) == "inaccuracy"


def bot_views(seed, players=4, seat=0):
    """Every view ``seat`` decided from in a game of bots."""
    from pitchsim.table.game import play_table_game

    rec = play_table_game(["odds+heuristic"] * players, Rules.parse(None), seed)
    return [v for v, _ in views_of(rec) if v.seat == seat]


def test_typed_choices_are_read_or_refused_in_one_line():
    from pitchsim.game.view import card_text

    views = bot_views(11)
    auction = next(v for v in views if v.phase == "auction")
    legal = auction.legal()
    assert read_choice("p", auction, legal) == "pass"
    assert read_choice("PASS", auction, legal) == "pass"
    assert "not a call" in read_choice("KS", auction, legal).message
    top = legal[-1]
    assert read_choice(top, auction, legal) == top
    assert "cannot bid 9" in read_choice("9", auction, legal).message
    play = next(v for v in views if v.phase == "play")
    legal = play.legal()
    said = read_choice("XX", play, legal).message
    assert "is not a card" in said and "HJ" not in said  # no jokers to type here
    unheld = next(c for c in range(52) if not play.hand_mask >> c & 1)
    assert "you do not hold" in read_choice(card_text(unheld), play, legal).message
    # numbered as the table lists them: in the hand's order, trumps first once known
    assert read_choice("1", play, legal) == shown_choices(play)[0]
    assert read_choice(str(len(legal)), play, legal) == shown_choices(play)[-1]
    assert sorted(shown_choices(play)) == sorted(legal)
    too_far = read_choice(str(len(legal) + 1), play, legal).message
    assert too_far == f"there is no choice {len(legal) + 1}: the choices are 1 to {len(legal)}"
    assert "this pack has no jokers" in read_choice("HJ", play, legal).message  # none in this pack
    # a card written another way: 10h / T♥ / th are one card
    assert read_choice(legal[0].lower(), play, legal) == legal[0]
    for v in views:
        if v.phase != "play":
            continue
        held = [c for c in v.hand if v.held >> c & 1]
        illegal = [card_text(c) for c in held if card_text(c) not in v.legal()]
        played = [c for c in v.hand if not v.held >> c & 1]
        if illegal:
            assert "is not legal now" in read_choice(illegal[0], v, v.legal()).message
        if played:
            assert "played" in read_choice(card_text(played[0]), v, v.legal()).message


# ---------------------------------------------------------------- practice


def test_a_whole_game_to_the_end_from_scripted_stdin(tmp_path):
    save = tmp_path / "g.json"
    r = run(
        *["practice", "--no-coach", "--players", "3", "--seed", "3", "--save", save],
        stdin=first_choice_answers(),
    )
    assert r.returncode == 0, r.stderr
    assert "Traceback" not in r.stdout + r.stderr
    doc = json.loads(save.read_text())
    assert doc["winner"] is not None and "stopped" not in doc
    assert game_over_line(doc, 0, False) in r.stdout.splitlines()
    assert doc["strategies"][0] == "you"
    # The record replays (the person's actions are in it) and holds every decision shown.
    again = run("play", "--replay", str(save), "--json", stdin="")
    assert again.returncode == 0, again.stderr
    prompts = r.stdout.count("your call>") + r.stdout.count("your card>")
    forced = r.stdout.count("your only ")  # one legal action: shown, not asked
    made = sum(a["seat"] == 0 for h in doc["hands"] for a in h["actions"])
    assert forced and prompts + forced >= made  # a refused answer asks again


@pytest.mark.parametrize(
    "bad, message",
    [
        ("ZZ", "is not a call"),  # unknown in the auction
        ("", "type a choice"),  # empty line
        ("0", "you cannot bid 0"),  # below the range
    ],
)
def test_bad_input_at_a_call_is_told_and_asked_again(tmp_path, bad, message):
    r = run(
        "practice", "--no-coach", "--seed", "4", "--save", tmp_path / "g.json", stdin=f"{bad}\nq\n"
    )
    assert r.returncode == 0, r.stderr
    assert message in r.stdout
    assert r.stdout.count("your call>") == 2  # asked again after the refusal
    assert "Traceback" not in r.stdout + r.stderr


def test_a_bad_card_is_told_and_asked_again(tmp_path):
    # Seat 0 passes, then answers the first card decision with junk, then a number.
    r = run(
        *["practice", "--no-coach", "--seed", "4", "--save", tmp_path / "g.json"],
        stdin="p\nXX\n1\nq\n",
    )
    assert r.returncode == 0, r.stderr
    assert "'XX' is not" in r.stdout
    assert "Traceback" not in r.stdout + r.stderr


def test_quit_and_resume_is_the_game_played_straight_through(tmp_path):
    answers = ["p", "1"] * 300
    rules = Rules.parse(None)
    whole, _ = practice(
        3, 1, "odds+heuristic", rules, 21, coach=False, read=Script(answers), write=lambda s: None
    )
    assert "stopped" not in whole
    # Stop after 5 answers (EOF), then resume with the rest.
    first, _ = practice(
        3,
        1,
        "odds+heuristic",
        rules,
        21,
        coach=False,
        read=Script(answers[:5]),
        write=lambda s: None,
    )
    assert first["stopped"] == "input ended"
    assert first["hands"][-1]["incomplete"]
    saved = json.loads(json.dumps(first))
    # The person's answers the first part used (refusals aside) are in the record.
    used = [a["action"] for h in first["hands"] for a in h["actions"] if a["seat"] == 1]
    script = Script(answers[5:])
    rest, _ = practice(
        3,
        1,
        "odds+heuristic",
        rules,
        21,
        coach=False,
        read=script,
        write=lambda s: None,
        resume=saved,
    )
    assert [h["actions"] for h in rest["hands"]] == [h["actions"] for h in whole["hands"]]
    assert rest["final_scores"] == whole["final_scores"]
    assert used  # the stop came after some decisions


def test_quit_and_resume_through_the_command(tmp_path):
    save = tmp_path / "g.json"
    r = run("practice", "--no-coach", "--seed", "9", "--save", save, stdin="p\nq\n")
    assert r.returncode == 0, r.stderr
    assert "--resume" in r.stdout
    doc = json.loads(save.read_text())
    assert doc["stopped"] == "quit"
    stopped = tmp_path / "stopped.json"
    stopped.write_text(save.read_text())
    looked = run("review", str(stopped), "--samples", "200", stdin="")  # says it is unfinished
    assert looked.returncode == 0 and looked.stdout.splitlines()[0].endswith(" · unfinished game")
    again = run(
        *["practice", "--resume", save, "--save", save, "--no-coach"], stdin=first_choice_answers()
    )
    assert again.returncode == 0, again.stderr
    assert "game over:" in again.stdout
    # the coach off judged nothing: no hand's "your decisions ... lost 0.0" line
    assert "hand 1: " in again.stdout and "your decisions in hand" not in again.stdout
    assert "stopped" not in json.loads(save.read_text())
    done = run("practice", "--resume", str(save), stdin="")
    assert done.returncode == 2 and "not an unfinished practice game" in done.stderr
    bad = run("practice", "--resume", str(stopped), "--players", "5", stdin="")
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1
    assert "leave out --players" in bad.stderr
    # given at all, even at the default's value: the save's seat, count and opponents
    # hold (a silently ignored --seat 0 would read as "I play seat 0 now")
    for option in (["--seat", "0"], ["--players", "4"], ["--opponents", "odds+rollout"]):
        elsewhere = str(tmp_path / "elsewhere.json")  # were it played on: not in the cwd
        bad = run("practice", "--resume", str(stopped), *option, "--save", elsewhere, stdin="")
        assert bad.returncode == 2 and f"leave out {option[0]}" in bad.stderr, bad.stderr


def test_option_errors_are_one_line():
    for args, words in [
        (["--players", "9"], "players"),
        (["--opponents", "nonsense"], "nonsense"),
        (["--seat", "7"], "seat"),
        (["--resume", "/nonexistent/x.json"], "x.json"),
    ]:
        r = run("practice", "--no-coach", *args, stdin="")
        assert r.returncode == 2, (args, r.stdout, r.stderr)
        assert r.stderr.count("\n") == 1 and words in r.stderr, (args, r.stderr)


def test_the_coachs_settings_where_nobody_is_coached_are_refused(tmp_path):
    """Never silently dropped: --samples, --worlds, --time with --no-coach or --watch."""
    for args, words in [
        (["--no-coach", "--samples", "100"], "--no-coach judges nothing: leave out --samples"),
        (["--no-coach", "--worlds", "9", "--time", "3"], "leave out --worlds, --time"),
        (["--watch", "--time", "3"], "--watch seats bots only, coached by none: leave out --time"),
        (["--watch", "--coach"], "leave out --coach"),
    ]:
        r = run("practice", *args, "--save", str(tmp_path / "g.json"), stdin="")
        assert r.returncode == 2 and words in r.stderr, (args, r.stdout, r.stderr)


def test_watch_plays_every_seat_by_bots(tmp_path):
    r = run(
        "practice",
        "--watch",
        "--players",
        "3",
        "--seed",
        "2",  # a game seat 0 wins: once said "you won the game"
        "--save",
        str(tmp_path / "w.json"),
        stdin="",
    )
    assert r.returncode == 0, r.stderr
    assert "your call>" not in r.stdout and "game over:" in r.stdout
    assert "trick 1:" in r.stdout
    # nobody at the table is "you": not in the heading, not in the game's end
    head, over = (
        r.stdout.splitlines()[0],
        next(x for x in r.stdout.splitlines() if "game over" in x),
    )
    assert "every seat a bot" in head and "you" not in head, head
    assert "you" not in over and re.match(r"game over: (seat \d|tied on top)", over), over


def game_over_line(doc, seat, partnership):
    """practice's last word on a game: ``table.game.game_end_words`` (the web table's
    words too), then the final scores."""
    words = game_end_words(doc, seat, partnership)
    return f"game over: {words[:1].lower()}{words[1:]}; final scores {doc['final_scores']}"


def test_a_partnership_game_ends_in_the_tables_words(tmp_path):
    save = tmp_path / "w.json"
    args = ["--watch", "--partnership", "--seat", "1", "--seed", "2", "--save", save]
    r = run("practice", *args, stdin="")
    assert r.returncode == 0, r.stderr
    doc = json.loads(save.read_text())
    assert doc["winner"] == 0, doc["winner"]  # the other team: named by its seats
    assert game_over_line(doc, 1, True) in r.stdout.splitlines()
    assert "game over: seats 0 and 2 won the game; final scores" in r.stdout


@pytest.mark.parametrize("stop, stopped", [(b"q\n", "quit"), (b"\x04", "input ended")])
def test_a_real_terminal(tmp_path, stop, stopped):
    """practice in a pseudo-terminal: the prompt comes, a choice is read, q (or Ctrl-D,
    which echoes no newline) saves, said on a line of its own."""
    pid, fd = pty.fork()
    if pid == 0:  # the child: pitchsim on the terminal
        os.execv(
            sys.executable,
            [
                sys.executable,
                "-m",
                "pitchsim",
                "practice",
                "--no-coach",
                "--seed",
                "2",
                "--save",
                str(tmp_path / "t.json"),
            ],
        )
    out = b""

    def read_until(text: bytes, seconds: float = 300) -> None:
        nonlocal out
        end = time.monotonic() + seconds
        while text not in out:
            left = end - time.monotonic()
            assert left > 0, f"no {text!r} within {seconds} s: {out[-500:]!r}"
            ready, _, _ = select.select([fd], [], [], left)
            if ready:
                try:
                    chunk = os.read(fd, 4096)
                except OSError:
                    break
                if not chunk:
                    break
                out += chunk

    try:
        read_until(b"your call>")
        assert b"\x1b[31m" in out or b"\xe2\x99" in out  # suit symbols (red on a terminal)
        os.write(fd, b"?\n")
        read_until(b"save and quit")
        os.write(fd, stop)
        read_until(b"saved the unfinished game")
    finally:
        _, status = os.waitpid(pid, 0)
        os.close(fd)
    assert os.waitstatus_to_exitcode(status) == 0
    assert json.loads((tmp_path / "t.json").read_text())["stopped"] == stopped
    if stop == b"\x04":  # (a typed q is echoed, with its newline, wherever it lands)
        assert b"> saved the unfinished game" not in out, out[-200:]


# ---------------------------------------------------------------- the coach


def test_the_coachs_numbers_are_hint_and_advise_on_the_same_view_and_seed():
    from pitchsim.advice.advise import advise_view
    from pitchsim.search.hint import hint_view

    rules = Rules.parse(None)
    seed = 17
    answers = ["p", "1", "1", "1", "q"]
    rec, js = practice(
        4,
        0,
        "odds+heuristic",
        rules,
        seed,
        coach=True,
        read=Script(answers),
        write=lambda s: None,
        samples=300,
        worlds=16,
    )
    assert js, "the coach judged nothing"
    # Every decision counts in the coach's seed; a forced one (one legal action) is not judged.
    views = [(i, v, a) for i, (v, a) in enumerate((x for x in views_of(rec) if x[0].seat == 0), 1)]
    views = [(i, v, a) for i, v, a in views if len(v.legal()) > 1]
    assert len(views) == len(js)
    for (i, view, action), j in zip(views, js, strict=True):
        assert j.chosen == action
        s = coach_seed(seed, j.hand, i)
        if j.kind == "call":
            a = advise_view(view, samples=300, seed=s)
            from pitchsim.game.view import call_text

            assert j.values == {call_text(c): ca.p_win_game.value for c, ca in a.by_call.items()}
            assert j.recommended == call_text(a.recommended_call)
            assert j.values[j.best] == max(j.values.values())
        else:
            h = hint_view(view, policy="rollout", worlds=16, seed=s)
            sign = 1 if h.pitcher_side else -1
            from pitchsim.game.view import card_text

            assert j.values == {card_text(c.card): sign * c.points for c in h.cards}
            assert j.recommended == card_text(h.recommended)
            assert j.values[j.best] == max(j.values.values())
    # review of the same record with the game's seed judges the same
    r = review(rec, 0, seed, samples=300, worlds=16)
    assert [(x.kind, x.chosen, x.values, x.loss) for x in r.judgements] == [
        (x.kind, x.chosen, x.values, x.loss) for x in js
    ]


def test_a_loss_is_the_best_value_minus_the_chosen_one():
    rules = Rules.parse(None)
    rec, js = practice(
        4,
        0,
        "odds+heuristic",
        rules,
        5,
        coach=True,
        read=Script(["p", "1", "1", "q"]),
        write=lambda s: None,
        samples=300,
        worlds=16,
    )
    for j in js:
        if j.chosen == j.best:
            assert j.loss == 0
            continue
        if j.kind == "call":
            assert j.loss == pytest.approx(max(0.0, j.values[j.best] - j.values[j.chosen]))
        # cards: the paired difference; never negative, and no label inside its error
        assert j.loss >= 0
        if j.loss <= j.error:
            assert j.label is None


def test_judging_a_defender_counts_the_pitchers_points_against_him():
    # Seat 0 passes: in hands where another seat pitches, seat 0's card values are the
    # pitcher's side's points negated.
    from pitchsim.search.hint import hint_view

    view = next(
        v
        for seed in range(1, 40)
        for v in bot_views(seed, 3)
        if v.phase == "play" and v.pitcher != 0 and len(v.legal()) > 1
    )
    j = judge_card(view, view.legal()[0], 1, 16, 1)
    h = hint_view(view, policy="rollout", worlds=16, seed=1)
    from pitchsim.game.view import card_text

    sign = -1  # seat 0 defends
    assert not h.pitcher_side
    assert j.values == {card_text(c.card): sign * c.points for c in h.cards}


def test_a_call_judged_is_advises_recommendation_when_chosen():
    view = next(v for v in bot_views(3, 3) if v.phase == "auction")
    best = judge_call(view, "pass", 1, 300, 2)
    again = judge_call(view, best.best, 1, 300, 2)
    assert again.loss == 0 and again.label is None


# ---------------------------------------------------------------- review


def test_review_of_a_play_game_record_lists_the_records_decisions(tmp_path):
    r = run(
        "play",
        "--game",
        "--players",
        "3",
        "--seed",
        "2",
        "--json",
        "-s",
        "odds+heuristic",
        stdin="",
    )
    assert r.returncode == 0, r.stderr
    path = tmp_path / "rec.json"
    path.write_text(r.stdout)
    doc = json.loads(r.stdout)
    seat = 1
    mine = [(v, a) for v, a in views_of(doc) if v.seat == seat]
    expected = [a for v, a in mine if len(v.legal()) > 1]  # a forced action is not judged
    # Hand-checked floor: each hand's last card is forced (one card left).
    assert len(mine) - len(expected) >= sum(1 for h in doc["hands"] if h.get("pitcher") is not None)
    out = run(
        "review",
        str(path),
        "--seat",
        str(seat),
        "--json",
        "--samples",
        "200",
        "--worlds",
        "8",
        stdin="",
    )
    assert out.returncode == 0, out.stderr
    rv = json.loads(out.stdout)
    assert [j["chosen"] for j in rv["judgements"]] == expected
    assert rv["decisions"] == len(expected)
    assert rv["forced"] == len(mine) - len(expected)
    # cards in points, and cards whose hand could end the game in P(game), apart
    counted = sum(row["calls"] + row["cards"] + row["game_cards"] for row in rv["by_hand"])
    assert counted == len(expected)
    assert rv["call_loss"] == pytest.approx(
        sum(j["loss"] for j in rv["judgements"] if j["kind"] == "call")
    )
    text = run(
        "review", str(path), "--seat", str(seat), "--samples", "200", "--worlds", "8", stdin=""
    )
    assert text.returncode == 0 and "hand  calls" in text.stdout
    # A play record names no person's seat (a practice save does): --seat is asked for.
    ask = run("review", str(path), stdin="")
    assert ask.returncode == 2 and ask.stderr.count("\n") == 1 and "--seat" in ask.stderr


def test_review_refuses_bad_input_in_one_line(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "pitchsim-game", "hands": []}')
    for args in (["review", str(bad), "--seat", "0"], ["review", "/nonexistent", "--seat", "0"]):
        r = run(*args, stdin="")
        assert r.returncode == 2 and r.stderr.count("\n") == 1, r.stderr


def test_a_single_legal_action_is_taken_without_asking(tmp_path):
    # The last trick leaves each seat one card: the person is never asked for it.
    shown = []
    script = Script(["p", "1"] * 300)
    doc, _ = practice(
        3, 0, "odds+heuristic", Rules.parse(None), 21, coach=False, read=script, write=shown.append
    )
    text = "\n".join(shown)
    played = [h for h in doc["hands"] if len(h.get("tricks") or []) == 6]
    assert played
    assert text.count("your only card:") >= len(played)
    assert len([p for p in script.prompts if p.startswith("your card")]) <= 5 * len(played) + 5


def test_the_coachs_value_line_wraps_between_cards_not_inside_one():
    from pitchsim.coach.practice import _wrapped

    parts = ["coach (your side's points, 200 worlds):"] + [
        f"{'*' if i == 0 else ' '}{c} {v:+.2f} ±0.10"
        for i, (c, v) in enumerate(
            zip(
                ["A♠", "10♥", "\x1b[31mK♦\x1b[0m", "2♣", "J♠"],
                [1.5, 1.2, 0.9, -0.1, -1.25],
                strict=True,
            )
        )
    ]
    text = _wrapped(parts, 40)
    for p in parts:
        assert any(p in line for line in text.split("\n"))  # every entry whole on one line
    # Visible width (colour codes aside) within 40 wherever a line holds more than one entry.
    import re

    for line in text.split("\n"):
        if line.strip() not in parts and line.strip() != parts[0]:
            assert len(re.sub(r"\x1b\[[0-9;]*m", "", line)) <= 40


@pytest.mark.parametrize(
    "args, words",
    [
        # a strategy the preset's kernels do not play under hands=N (12.4)
        (["--rules", "smear,hands=3", "--opponents", "odds-game+heuristic"], "hands=3"),
        # a partnership (6.3.1) at a table of 5
        (["--rules", "smear,partnership=true", "--players", "5"], "4 players"),
    ],
)
def test_a_game_the_table_refuses_is_refused_before_the_heading(tmp_path, args, words):
    """Nothing on stdout (the heading once came first), one line on stderr, exit 2, and
    no save written."""
    save = tmp_path / "g.json"
    refused("practice", *args, "--save", save, words=words)
    assert not save.exists()
