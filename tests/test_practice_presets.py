"""A person at the table under every preset (issue 28: "a person plays a whole Smear game
in `pitchsim practice`, coached, and reviews it"): the person's calls, shoot, naming of
trump and cards typed in; the table's rendering (named trump, the jick and the jokers
with the trumps, the draw, the end of each hand with its points); the coach's values
(the family search's and the family bid odds'); review of the saved game."""

from __future__ import annotations

import dataclasses
import json
import random
import re

import pytest
from clirun import cli

from pitchsim.coach.judge import card_unit, judge, judge_card
from pitchsim.coach.practice import (
    award_values,
    hand_end,
    hand_order,
    help_text,
    practice,
    read_choice,
    render_hand,
    render_values,
    render_view,
    shown_choices,
)
from pitchsim.coach.review import review
from pitchsim.game import reference as F
from pitchsim.game.cards import N_CARDS, SUITS, cards_of, format_card, mask_of, parse_cards
from pitchsim.game.rules import Rules
from pitchsim.game.view import View, cut_hand
from pitchsim.table.record import replay, views_of

PRESETS = ["smear", "setback", "ten-point"]

# A game each, short enough to coach whole on two shared cores (the preset otherwise).
GAMES = {"smear": "smear", "setback": "setback", "ten-point": "ten-point,target=11"}
SAMPLES, WORLDS = 300, 12  # the coach's deals and worlds a decision, kept small


class Bot:
    """A seat of seeded random cards that passes more often than it bids, bids the
    lowest it may (so that a game ends in a few hands) and names the suit it holds most
    trumps in."""

    name = "bot"

    def __init__(self, seed: int):
        self.rng = random.Random(seed)

    def call(self, view):
        legal = view.legal()
        if view.phase == "trump":
            r = view.rules
            held = mask_of(view.hand)
            return max(legal, key=lambda a: F.trumps_in(held, SUITS.index(a[-1]), r).bit_count())
        if "pass" in legal and self.rng.random() < 0.6:
            return "pass"
        return next(a for a in legal if a != "pass")  # the lowest bid

    def play(self, view):
        return self.rng.choice(view.legal())


class Person:
    """A scripted person: reads the last choices the table listed and types one of them
    (a number for a card or a suit, the call's own words for a call), sometimes after a
    wrong answer, which the table must refuse and ask again."""

    def __init__(self, seed: int):
        self.rng = random.Random(seed)
        self.out: list[str] = []
        self.wrong = 0

    def write(self, text: str) -> None:
        self.out.append(text)

    def read(self, prompt: str) -> str:
        shown = next(t for t in reversed(self.out) if "your hand:" in t)
        last = shown.splitlines()[-1]
        if (not self.wrong or self.rng.random() < 0.05) and not self.out[-1].startswith("'zz'"):
            self.wrong += 1
            return "zz"
        if prompt == "your call> ":
            calls = last.removeprefix("your choices: ").split(", ")
            if "pass" in calls and self.rng.random() < 0.5:
                return "p"
            return next(c for c in calls if c != "pass")  # the lowest bid
        numbers = re.findall(r"(\d+):", last)
        return self.rng.choice(numbers)


def coached_game(spec: str, seed: int):
    """A whole game of ``practice``: the scripted person in seat 0, coached, pitchsim's
    default opponents in the others."""
    rules = Rules.parse(spec)
    person = Person(seed)
    record, js = practice(
        4,
        0,
        "odds+heuristic",
        rules,
        seed,
        read=person.read,
        write=person.write,
        samples=SAMPLES,
        worlds=WORLDS,
        time=None,
    )
    return rules, record, js, person, record["hands"]


@pytest.fixture(scope="module", params=PRESETS)
def game(request):
    return request.param, *coached_game(GAMES[request.param], 7)


def person_decisions(record):
    """(hand number, view, action) of seat 0's decisions that had a choice."""
    out, hand_no, last = [], 0, None
    for v, a in views_of(record):
        if v.seat != 0:
            continue
        if v.hand != last:
            hand_no, last = hand_no + 1, v.hand
        if len(v.legal()) > 1:
            out.append((hand_no, v, a))
    return out


def test_the_person_plays_the_whole_game_coached(game):
    name, rules, record, js, person, ends = game
    assert "stopped" not in record and record.get("forfeit") is None
    assert record["winners"], "the game ended without a winner"
    assert person.wrong > 0  # a wrong answer was refused and asked again ...
    assert sum("is not a" in t for t in person.out) >= person.wrong  # ... in one line
    again = replay(json.loads(json.dumps(record)), strategies=False)
    assert again["final_scores"] == record["final_scores"]
    decisions = person_decisions(record)
    # Every decision of the person with a choice was judged, in order, as taken.
    assert [(j.hand, j.chosen) for j in js] == [(k, a) for k, _, a in decisions]
    kinds = {j.kind for j in js}
    assert {"call", "card"} <= kinds
    # Under trump=named, every hand the person won the auction in it named trump.
    pitched = sum(doc["pitcher"] == 0 for doc in record["hands"])
    named = [j for j in js if j.kind == "trump"]
    assert len(named) == (pitched if rules.trump == "named" else 0)


def test_the_coachs_best_is_the_top_value_shown(game):
    *_, js, person, _ends = game
    shown = [t for t in person.out if t.startswith("coach (")]
    assert len(shown) == len(js)
    for j, text in zip(js, shown, strict=True):
        assert j.values[j.best] == max(j.values.values())
        assert j.loss == pytest.approx(j.values[j.best] - j.values[j.chosen])
        # the values are shown best first, the chosen one starred
        shown_values = [float(v) for v in re.findall(r"([+-]?\d+\.\d+)%? ±", text)]
        assert shown_values == sorted(shown_values, reverse=True)
        top = max(j.values.values())
        if j.unit in ("P(win)", "P(game)", "net P(game)"):  # chances: a percentage
            assert shown_values[0] == pytest.approx(100 * top, abs=0.051)
        else:
            assert shown_values[0] == pytest.approx(top, abs=0.006)
        assert text.count("*") == 1


def test_the_end_of_each_hand_adds_up(game):
    """Each hand's breakdown, read back from the text, is the reference engine's scoring
    of the record's cards (held at the first lead, taken by the tricks' winners), and
    its points add up to the points won."""
    name, rules, record, _js, person, ends = game
    summaries = [t for t in person.out if re.match(r"hand \d+: ", t)]
    assert len(summaries) == len(ends) == len(record["hands"])
    values = award_values(rules)
    for doc, text in zip(record["hands"], summaries, strict=True):
        if doc["pitcher"] is None:
            assert "everybody passed" in text
            continue
        held = [mask_of(parse_cards(" ".join(h), 2)) for h in (doc.get("held") or doc["hands"])]
        won = [0] * 4
        for t in doc["tricks"]:
            won[t["winner"]] |= mask_of(parse_cards(" ".join(t["cards"]), 2))
        trump = SUITS.index(doc["trump"])
        score = F.score_hand(held, won, trump, rules)
        line = next(x for x in text.splitlines() if x.startswith("points: "))
        taken = dict(
            re.match(r"(.+?)(?: \(\d\))? (you|seat \d|nobody)$", part).groups()
            for part in line.removeprefix("points: ").split(", ")
        )
        words = {"High": "high", "Low": "low", "Jack": "jack", "Jick": "jick",
                 "High joker": "high-joker", "Low joker": "low-joker", "Ten": "ten",
                 "Three": "three", "Five": "five", "Game": "game"}  # fmt: skip
        assert {words[k] for k in taken} == set(values)
        seat_of = {"you": 0, "nobody": None} | {f"seat {s}": s for s in range(4)}
        for k, who in taken.items():
            assert score.awards[words[k]] == seat_of[who], (k, text)
        side = {}
        for k, who in taken.items():
            s = seat_of[who]
            if s is not None:
                side[rules.team(s)] = side.get(rules.team(s), 0) + values[words[k]]
        assert [side.get(rules.team(s), 0) for s in range(4)] == score.points
        assert score.points == doc["points_won"]
        last = doc["tricks"][-1]
        line = next(x for x in text.splitlines() if x.startswith("last trick ("))
        assert line.startswith(f"last trick ({len(doc['tricks'])}): ")
        assert all(format_card(parse_cards(c, 2)[0]) in line for c in last["cards"])
        if partnership := doc.get("partnership"):  # 0.10: a team's points, named as a team
            assert "points won: you+seat 2 " in text and ", seat 1+seat 3 " in text
        assert partnership or f"points won: you {doc['points_won'][0]}, seat 1 " in text
        assert f"in {format_card(13 * trump + 12)[-1]}" in text  # the trump named or led


def check_rendering(v: View) -> tuple[bool, bool]:
    """The table of one view: the named trump, the jick and the jokers with the trumps
    (and in the trump order), the draw's counts and burnt trumps, the choices numbered
    in the hand's order.  (jick held, draw shown)"""
    rules = v.rules
    text = render_view(v)
    hand_line = next(x for x in text.splitlines() if x.startswith("your hand:"))
    jick_seen = False
    if v.trump is not None and v.phase == "play":
        held = cards_of(v.held)
        trumps = [c for c in held if F.is_trump(c, v.trump, rules)]
        group = hand_line.split("|")[0]
        for c in held:  # the jick and the jokers sit with the trumps, the rest not
            assert (format_card(c) in group) == (c in trumps), (hand_line, format_card(c))
        jick = F.jick_of(v.trump)
        if rules.jick and jick in held:
            jick_seen = True
            order = hand_order(held, v.trump, rules)
            jack = 13 * v.trump + 9
            if jack in held:  # the jick right below the jack of trump (4.7)
                assert order.index(jick) == order.index(jack) + 1
        assert f"trump {format_card(13 * v.trump + 12)[-1]}" in text
    if v.draws:
        for s, d in enumerate(v.draws):
            if s != v.seat:
                assert f"seat {s} drew {d.drawn}" in text
            for c in d.burnt:
                assert format_card(c) in text
        # 12.9: every other seat's discards face up, in one line
        up = next((x for x in text.splitlines() if "discarded face up:" in x), "")
        for s, d in enumerate(v.draws):
            if s != v.seat and v.rules.discards == "shown":
                assert all(format_card(c) in up for c in d.shown), (s, up)
            assert len(d.shown) == (d.discarded if v.rules.discards == "shown" else 0)
        assert f"drew {len(v.drawn)}" in text
    if v.preset.kitty and v.phase == "play" and v.rules.discards == "shown":  # 12.9.1
        line = next(x for x in text.splitlines() if x.startswith("kitty:"))
        assert "face up" in line and all(format_card(c) in line for c in v.put_down_shown)
        assert len(v.put_down_shown) == v.put_down_count
    if v.phase == "play":  # the choices are numbered in the order the hand is shown
        assert read_choice("1", v, v.legal()) == shown_choices(v)[0]
    return jick_seen, bool(v.draws)


def test_the_table_of_the_whole_game(game):
    _name, _rules, record, _js, _person, _ends = game
    for _k, v, _a in person_decisions(record):
        check_rendering(v)


@pytest.mark.parametrize(
    "spec",
    PRESETS
    + ["auction-pitch,jokers=2,jick=true,shoot=true", "smear,kitty=3,discard=draw"]
    # 12.9 with 12.8 and 12.9.1: the discards and the kitty's put-down face up
    + ["cinch", "smear,kitty=3,discard=draw,discards=shown"]
    + ["auction-pitch,deal=9,discard=choice,trump=named,discards=shown"],
)
def test_the_table_shows_trump_jick_jokers_and_the_draw(spec):
    rules = Rules.parse(spec)
    seen = [check_rendering(v) for v, _ in cut_views(spec, 3, hands=8)]
    if rules.jick:
        assert any(j for j, _ in seen), "no view held the jick: pick another seed"
    if rules.discard in ("non-trump", "draw"):  # 4.8, 12.8.2
        assert any(d for _, d in seen)
    if rules.jokers:
        texts = [render_view(v) for v, _ in cut_views(spec, 3, hands=8)]
        assert any("HJ" in t.split("your hand:")[1].split("|")[0] for t in texts)


def test_review_of_the_saved_game_judges_every_decision_alike(game, tmp_path):
    name, rules, record, js, _person, _ends = game
    if name != "smear":
        pytest.skip("one review a module: the smear game (the issue's)")
    record["practice"] = {"seat": 0, "coach": True, "judgements": [j.to_json() for j in js]}
    doc = json.loads(json.dumps(record))
    r = review(doc, 0, 7, samples=SAMPLES, worlds=WORLDS, time=None)
    assert [(j.hand, j.kind, j.chosen) for j in r.judgements] == [
        (j.hand, j.kind, j.chosen) for j in js
    ]
    # The same seed, view and counts: the same numbers as the coach gave at the table.
    for a, b in zip(r.judgements, js, strict=True):
        assert a.values == pytest.approx(b.values) and a.best == b.best


# ---------------------------------------------------------------- one decision at a time


def test_a_trick_that_passes_over_a_seat_names_who_played_each_card():
    """Under follow=only a seat out of trump is passed over (4.9, 4.15.3): the trick's
    cards no longer go round in turn, so the table names each card's player, in the
    tricks shown before a decision, the last trick of a hand and --watch's tricks.  A
    partnership's points and Game counts at the end of a hand are its team's."""
    spec = "ten-point"
    rules = Rules.parse(spec)
    skipping = [
        (v, t)
        for v, _ in cut_views(spec, 3, hands=8)
        for t in v.tricks
        if len(t.seats) > 1 and t.seats != tuple((t.leader + i) % 4 for i in range(len(t.seats)))
    ]
    assert skipping, "no trick passed over a seat: pick another seed"
    for v, t in skipping:
        who = ["you" if s == v.seat else f"seat {s}" for s in range(4)]
        text = render_view(v)
        named = ", ".join(
            f"{who[s]} {format_card(c)}" for s, c in zip(t.seats[1:], t.cards[1:], strict=True)
        )
        assert f"{who[t.leader]} led  {format_card(t.cards[0])}, {named}" in text, text
    doc = {
        "players": 4, "partnership": True, "pitcher": 1, "bid": 5, "made": True,
        "trump": "S", "points": {}, "points_won": [3, 7, 3, 7],
        "round_points": [3, 7, 3, 7], "scores_after": [3, 7, 3, 7],
        "tricks": [{"leader": 1, "seats": [1, 3, 0], "cards": ["AS", "2S", "HJ"], "winner": 1}],
    }  # fmt: skip
    text = "\n".join(hand_end(doc, rules, 0, "hand 1"))
    assert "last trick (1): seat 1 led  A♠, seat 3 2♠, you HJ  -> seat 1" in text
    assert "points won: you+seat 2 3, seat 1+seat 3 7; this hand: you+seat 2 +3" in text
    assert "scores now: you+seat 2 3, seat 1+seat 3 7" in text
    # partners pool their Game counts (0.8, 0.10): the count shown is the team's
    setback = {**doc, "points": {"game": 0}, "game_points": [13, 19, 18, 0]}
    text = "\n".join(hand_end(setback, Rules.parse("setback"), 0, "hand 1"))
    assert "game counts: you+seat 2 31, seat 1+seat 3 19" in text, text
    assert "seat 1 led  A♠, seat 3 2♠, seat 0 HJ  -> seat 1" in render_hand(
        {**doc, "dealer": 0, "calls": ["5"], "hands": [[]] * 4, "tricks": doc["tricks"] * 2},
        rules,
    )


def test_a_shoot_is_said_in_the_seats_words():
    """The pitcher's line after a shoot (6.1: "shoot" ends the auction): "you shoot",
    "seat 0 shoots" (it said "you shoots")."""
    rules = Rules.parse("smear,shoot=true")
    mine = View.from_json(
        {"rules": "smear,shoot=true", "players": 4, "seat": 0, "dealer": 3,
         "hand": ["AS", "KS", "QS", "JS", "TS", "9S"], "calls": ["shoot"]},
        rules=rules,
    )  # fmt: skip
    assert mine.phase == "trump"
    assert "pitcher: you shoot (all 5)" in render_view(mine)
    theirs = View.from_json(
        {"rules": "smear,shoot=true", "players": 4, "seat": 1, "dealer": 3,
         "hand": ["AH", "KH", "QH", "JH", "TH", "9H"], "calls": ["shoot"], "trump": "S",
         "tricks": [{"leader": 0, "cards": ["2S"]}]},
        rules=rules,
    )  # fmt: skip
    assert "pitcher: seat 0 shoots (all 5), trump ♠ spades (named)" in render_view(theirs)


def cut_views(spec: str, seed: int, hands: int = 4):
    rules = Rules.parse(spec)
    pick = random.Random(seed + 1)
    g = F.play_game(
        4,
        rules,
        random.Random(seed),
        lambda seat, hand, calls, legal, scores: pick.choice(legal),
        lambda seat, hand: pick.randrange(4),
        lambda view: pick.choice(cards_of(view.legal)),
        max_hands=hands,
    )
    before = [0] * 4
    for hand in g.hands:
        for _seat, doc, action in cut_hand(hand, 4, rules, before):
            yield View.from_json(json.loads(json.dumps(doc)), rules=rules), action
        before = list(hand.scores)


@pytest.mark.parametrize("spec", PRESETS + ["auction-pitch,jokers=2,jick=true,shoot=true"])
def test_typed_choices_under_a_preset(spec):
    views = list(cut_views(spec, 3))
    for v, action in views:
        legal = v.legal()
        assert read_choice(action, v, legal) == action  # as the protocol writes it
        if v.phase == "trump":
            suit = action[-1]
            for typed in (suit, suit.lower(), format_card(SUITS.index(suit) * 13)[-1]):
                assert read_choice(typed, v, legal) == action
            name = ["clubs", "diamonds", "hearts", "spades"][SUITS.index(suit)]
            assert read_choice(name, v, legal) == action
            assert "is not a suit" in read_choice("X", v, legal).message
        if v.phase == "auction":
            assert "is not a call" in read_choice("KS", v, legal).message
            top = v.rules.max_bid
            if str(top + 1) not in legal:
                assert "cannot bid" in read_choice(str(top + 1), v, legal).message
            if not v.rules.shoot:
                assert "no shoot" in read_choice("shoot", v, legal).message
            elif "shoot" in legal:
                assert read_choice("shoot", v, legal) == "shoot"
            # 0 bids 10 where 10 is a bid (ten-point's 5-10, 4.5): the web table's key
            if "10" in legal:
                assert read_choice("0", v, legal) == "10"
            else:
                assert "cannot bid 0" in read_choice("0", v, legal).message
        if v.phase == "play":
            jokers = [c for c in range(N_CARDS, N_CARDS + v.rules.jokers)]
            for c in jokers:
                if format_card(c) in legal:
                    assert read_choice(format_card(c).lower(), v, legal) == format_card(c)
            unheld = next(c for c in range(52) if c not in v.hand and c not in v.drawn)
            msg = read_choice(format_card(unheld), v, legal)
            assert "do not hold" in msg.message or "put" in msg.message
            for c in v.discards:
                assert "in the draw" in read_choice(format_card(c), v, legal).message
            if not v.rules.jokers:  # smear, setback: a joker typed is told there is none
                assert "this pack has no jokers" in read_choice("LJ", v, legal).message
            n = len(legal)
            assert (
                f"no choice {n + 1}: the choices are 1 to {n}"
                in read_choice(str(n + 1), v, legal).message
            )
        if v.phase == "trump":
            assert "no choice 5: the choices are 1 to 4" in read_choice("5", v, legal).message
    assert any(v.phase == "play" for v, _ in views)
    if spec == "ten-point":
        assert any(v.phase == "auction" and "10" in v.legal() for v, _ in views)


@pytest.mark.parametrize("spec", PRESETS + ["auction-pitch,jokers=2,jick=true,shoot=true"])
def test_the_coachs_numbers_are_the_family_search_and_odds(spec):
    from pitchsim.advice.advise import advise
    from pitchsim.game.view import call_text as call_name
    from pitchsim.search.hint import hint_view

    views = [(v, a) for v, a in cut_views(spec, 5, hands=2) if len(v.legal()) > 1]
    call = next((v, a) for v, a in views if v.phase == "auction")
    rules = Rules.parse(spec)
    # a card of the pitcher's side and a defender's: the values are hint's under the
    # preset's defaults: the seat's own side's margin either way, never negated; but
    # under auction-pitch (with jokers, a jick and a shoot too) the pitcher's side's
    # points, negated for a defender, as the base game's
    points = card_unit(rules) == "points"
    assert points == spec.startswith("auction-pitch")
    for pitching in (True, False):
        card = next(
            (v, a)
            for v, a in views
            if v.phase == "play" and (rules.team(v.seat) == rules.team(v.pitcher)) == pitching
        )
        j = judge(*card, 1, 11, SAMPLES, WORLDS, None)
        h = hint_view(card[0], "rollout", WORLDS, 11)
        sign = -1 if points and not pitching else 1
        assert j.values == {format_card(c.card, False): sign * c.points for c in h.cards}
        assert j.unit == card_unit(rules) and j.kind == "card"
        assert j.defending == (points and not pitching)
        assert j == judge_card(*card, 1, WORLDS, 11, time=None)
    # a call: advise under the preset, in P(win the game)
    j = judge(*call, 1, 11, SAMPLES, WORLDS, None)
    v = call[0]
    # advise's default model, odds: auction-pitch with jokers reads rows made for it
    # (table.odds_rows), never the heuristic fallback (test_judge_words)
    a = advise(
        list(v.hand),
        model="odds",
        players=4,
        seat=v.seat,
        dealer=v.dealer,
        calls=list(v.calls),
        scores=[v.seat_score(s) for s in range(4)],
        rules=v.rules,
        samples=SAMPLES,
        seed=11,
        time=None,
    )
    assert j.values == {call_name(c, v.rules): x.p_win_game.value for c, x in a.by_call.items()}
    assert "no odds table" not in j.note
    assert set(j.values) == set(v.legal())
    assert j.unit == "P(win)" and j.kind == "call"


def test_a_named_trump_is_judged_by_the_suits_odds():
    views = [(v, a) for v, a in cut_views("ten-point", 5, hands=3) if v.phase == "trump"]
    v, action = views[0]
    j = judge(v, action, 1, 3, SAMPLES, WORLDS, None)
    assert j.kind == "trump" and set(j.values) == set(v.legal())
    # Hand-checked direction: the suit the hand holds the most trumps of is never valued
    # below a suit it holds none of, by more than the error.
    held = mask_of(v.hand)
    counts = {a: F.trumps_in(held, SUITS.index(a[-1]), v.rules).bit_count() for a in v.legal()}
    most = max(counts, key=counts.get)
    for a, c in counts.items():
        if c == 0:
            assert j.values[most] >= j.values[a] - j.half_widths[a] - j.half_widths[most]
    assert "coach (your side's expected score on this hand" in render_values(j)
    # counts a player reads in seconds: 4,000 deals, not 4000
    assert ", 4,000 deals):" in render_values(dataclasses.replace(j, samples=4000))


# ---------------------------------------------------------------- the command


def answers(n: int = 3000) -> str:
    """Typed answers that make progress at any prompt of any preset: a refusal just
    asks again, and the next answer is tried (pass, or the lowest bid of smear and
    setback, or ten-point's 5; the second suit; card 2, else card 1)."""
    return "p\n5\n2\n1\n" * n


def test_practice_command_plays_a_whole_smear_game_coached_and_reviews_it(tmp_path):
    save = tmp_path / "smear.json"
    args = ["practice", "--rules", "smear", "--seed", "5", "--save", str(save)]
    coach = ["--samples", "300", "--worlds", "12"]
    # Stopped in the first hand, resumed to the end: the game is the same as if played
    # straight through (the seed and the person's answers decide it).
    code, first, err = cli(*args, *coach, stdin="p\n5\n2\nq\n")
    assert code == 0, err
    stopped = json.loads(save.read_text())
    assert stopped["stopped"] == "quit" and stopped["practice"]["judgements"]
    code, out, err = cli("practice", "--resume", save, "--save", save, *coach, stdin=answers())
    assert code == 0, err
    assert "Traceback" not in out
    assert "game over:" in out
    doc = json.loads(save.read_text())
    assert "stopped" not in doc and doc["winners"]
    assert "smear" in first.splitlines()[0]
    # the table said what a Smear player needs
    for shown in ("pitcher: ", "trump ", "points: High ", "Jick ", "last trick (6)"):
        assert shown in out, shown
    code, out, err = cli("review", save, "--seat", "0", "--json", *coach)
    assert code == 0, err
    rv = json.loads(out)
    judged = [(j["hand"], j["kind"], j["chosen"]) for j in rv["judgements"]]
    saved = [(j["hand"], j["kind"], j["chosen"]) for j in doc["practice"]["judgements"]]
    assert judged == saved  # every decision of the person's, and only those
    assert {"call", "card"} <= {k for _, k, _ in judged}
    # a card whose hand more than the pitcher's side can end: net P(game) (coach.md)
    units = {"P(win)", "score", "margin", "P(game)", "net P(game)"}
    assert {j["unit"] for j in rv["judgements"]} <= units
    code, text, err = cli("review", save, *coach)  # a practice save names the seat: 0
    assert code == 0 and "lost margin" in text, err
    assert text.startswith("review of seat 0 ")


def test_a_preset_save_with_an_edited_judgement_is_refused(tmp_path):
    from pitchsim.coach.practice import PracticeError, read_save

    rules = Rules.parse("ten-point")
    person = iter(["p", "1", "1", "1", "1", "q"])
    rec, js = practice(
        4,
        0,
        "odds+heuristic",
        rules,
        2,
        read=lambda p: next(person),
        write=lambda t: None,
        samples=SAMPLES,
        worlds=WORLDS,
        time=None,
    )
    assert rec["stopped"] == "quit" and js
    doc = json.loads(json.dumps(rec))
    assert read_save(doc, "g.json").rules == rules
    bad = json.loads(json.dumps(rec))
    bad["practice"]["judgements"][0]["unit"] = "points"  # no unit of a preset's call
    with pytest.raises(PracticeError, match="unit"):
        read_save(bad, "g.json")
    bad = json.loads(json.dumps(rec))
    bad["practice"]["judgements"][0]["kind"] = "trump"
    with pytest.raises(PracticeError, match="judgement 1"):
        read_save(bad, "g.json")


def test_calls_no_deal_fits_are_still_judged():
    """Random calls (ten-point's 8 after passes, say) that advise's model never makes:
    no early deal fits them, and the coach judges them with each call the model would
    not make read as a slip (advise's tremble), saying so, rather than stopping the
    game."""
    from pitchsim.advice.advise import advise_view

    for v, action in cut_views("ten-point", 1, hands=3):
        if v.phase != "auction" or len(v.legal()) < 2 or not v.calls:
            continue
        a = advise_view(v, samples=SAMPLES, seed=1, time=1.0)
        if a.tremble:
            j = judge(v, action, 1, 1, SAMPLES, WORLDS, 1.0)
            assert "slip" in j.note, j.note
            assert set(j.values) == set(v.legal()) and j.unit == "P(win)"
            return
    pytest.fail("no view with calls advise's model never makes: pick another seed")


def test_calls_even_slips_do_not_explain_are_judged_with_random_callers(monkeypatch):
    """When advise gives up on the calls heard under its model (UnlikelyCalls: even the
    slips left no deal in the clock's time), the coach judges with the others taken to
    bid at random, under which every legal call fits, and says so."""
    from pitchsim.advice import advise as advise_module
    from pitchsim.advice.advise import UnlikelyCalls

    real = advise_module.advise_view
    models = []

    def fussy(view, **options):
        models.append(options.get("model"))
        if "model" not in options:
            raise UnlikelyCalls("no deal fit the calls heard")
        return real(view, **options)

    monkeypatch.setattr(advise_module, "advise_view", fussy)
    for v, action in cut_views("ten-point", 1, hands=3):
        if v.phase == "auction" and len(v.legal()) >= 2:
            j = judge(v, action, 1, 1, SAMPLES, WORLDS, 1.0)
            assert models == [None, "random"]
            assert "no deal fit the calls heard" in j.note and "random" in j.note
            assert set(j.values) == set(v.legal()) and j.unit == "P(win)"
            return
    pytest.fail("no auction view")


@pytest.mark.parametrize(
    "spec, has, lacks",
    [
        # the base game (2.2, 2.4): no jokers, no shoot, trump led, no draw
        ("auction-pitch", ["pass (p) or a bid (1-4)"], ["HJ", "shoot", "trump:H", "draw", "kitty"]),
        ("auction-pitch,shoot=true,jokers=1", ["the joker HJ", "shoot (s)"], ["LJ", "trump:H"]),
        # smear (3.3, 3.4): trump named, bids 2-5, no jokers, no shoot
        ("smear", ["(2-5)", "trump as H"], ["HJ", "shoot", "draw", "kitty"]),
        # 12.2.2: a kitty's pitcher puts down himself
        ("smear,kitty=3", ["the kitty of 3", "you put down, one card"], ["draw", "for you"]),
        # 12.8.2: under draw the person puts down, then stops with d (draw)
        (
            "smear,kitty=3,discard=draw",
            ["the kitty of 3", "put down one card at a time", "keeping 3", "d (draw)"],
            ["made for you", "face up"],
        ),
        # 12.8.1: under choice the person puts down; 12.9, 12.9.1: face up under shown
        (
            "auction-pitch,deal=9,discard=choice,trump=named",
            ["put down one card"],
            ["kitty", "made for you", "face up"],
        ),
        (
            "auction-pitch,deal=9,discard=choice,discards=shown,trump=named",
            ["put down one card", "face up: every player sees it"],
            ["made for you", "d (draw)"],
        ),
        ("smear,kitty=3,discards=shown", ["you put down face up, one card"], ["for you"]),
        # ten-point (4.2, 4.5, 4.8): two jokers, bids 5-10, trump named, the draw
        ("ten-point", ["the jokers HJ, LJ", "(5-10; 0 for 10)", "trump as H", "draw"], ["shoot"]),
        # 4.8.7: the robber puts down himself, the pitcher (4.8.5) or the dealer (12.7)
        ("ten-point", ["Pitching, you rob the stock and put down one card"], ["Dealing"]),
        ("cinch", ["Dealing, you rob the stock and put down one card"], ["Pitching, you rob"]),
        ("smear", ["(2-5)"], ["rob"]),
    ],
)
def test_the_help_lists_what_the_rules_have(spec, has, lacks, tmp_path):
    # (heuristic bidders: the odds bidder would first make rows for options with none shipped)
    argv = ["practice", "--no-coach", "--rules", spec, "--opponents", "heuristic+heuristic"]
    code, out, err = cli(*argv, "--seed", 4, "--save", tmp_path / "g.json", stdin="?\nq\n")
    assert code == 0, err
    helped = out[out.index("Type a card") : out.index("?: this help")]
    for words in has:
        assert words in helped, (words, helped)
    for words in lacks:
        assert words not in helped, (words, helped)


@pytest.mark.parametrize("spec", ["auction-pitch", "setback", "smear"])
def test_a_dealers_steal_is_marked_in_the_calls_and_the_choices(spec):
    """The dealer may take the bid at the same number (RULES "steal"; setback's only at
    the maximum, 2.4; smear none, 3.3): the calls line and the choices offered say
    "(steal)" there, and nowhere else."""
    r = Rules.parse(spec)
    marked = offered = 0
    for seed in range(12):
        for v, _ in cut_views(spec, seed, hands=3):
            shown = render_view(v)
            calls = next((x for x in shown.splitlines() if x.startswith("calls: ")), "")
            said = calls.removeprefix("calls: ").split(", ") if calls else []
            for i, c in enumerate(v.calls):
                high = max(v.calls[:i], default=F.PASS)
                stole = v.caller(i) == v.dealer and c > F.PASS and c == high
                assert said[i].endswith(" (steal)") == stole, (said, v.calls)
                marked += stole
            if v.phase == "auction":
                (choices,) = [x for x in shown.splitlines() if x.startswith("your choices: ")]
                high = max(v.calls, default=F.PASS)
                for a in choices.removeprefix("your choices: ").split(", "):
                    stole = a.endswith(" (steal)")
                    call = a.removesuffix(" (steal)")
                    assert stole == (v.seat == v.dealer and call == str(high) != "0"), choices
                    offered += stole
    if r.dealer_steal is False:
        assert marked == offered == 0
    else:
        assert marked and offered


@pytest.mark.parametrize(
    "spec, calls, now",
    [
        ("auction-pitch", [], ""),  # the first call: every bid, as the rules say
        ("auction-pitch", ["1"], " (now 2-4)"),  # a 1 bid: 2-4 left (2.2)
        ("auction-pitch", ["1", "pass", "3"], " (now 3-4)"),  # the dealer may steal the 3
        ("setback", ["pass", "3", "pass"], " (now 4)"),  # 2.4: the dealer must outbid a 3
        ("setback", ["2", "4"], " (now only pass)"),  # the maximum bid: nothing above it
    ],
)
def test_the_help_at_a_call_names_the_bids_offered(spec, calls, now):
    """The ``?`` help asked at the person's call says the bids offered him beside the
    rules' range (the web table's keys line says the same: web.sessions.keys_json)."""
    seat = len(calls)  # the dealer is seat 3: the calls begin at seat 0
    doc = {"rules": spec, "players": 4, "seat": seat, "dealer": 3, "calls": calls}
    view = View.from_json(doc | {"hand": ["AH", "KH", "QH", "JH", "TH", "9H"]})
    r = view.rules
    helped = help_text(view.preset, view)
    assert f"a bid ({r.min_bid}-{r.max_bid}){now}" in helped, helped
    assert f"a bid ({r.min_bid}-{r.max_bid});" in help_text(view.preset)  # not at a call
