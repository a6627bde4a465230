"""The table under every preset (table.game ``TableDeal``), its records and outside seats.

A whole game at the table with seeded random legal seats is checked against the
reference engine's own game loop (``game/reference/game.play_game``, the
specification, a separate implementation of the deal, auction, naming, draw, play,
scoring and game end): given the record's deals and actions it must play the same hands
to the same scores and winners.  Records replay byte for byte, ``views_of`` gives views
``View`` accepts, an illegal answer forfeits, and a program speaking
docs/protocol.md plays whole games and tournaments as ``cmd:`` under each preset.
"""

import json
import os
import random
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from clirun import cli

from pitchsim.game import reference as F
from pitchsim.game.cards import parse_cards
from pitchsim.game.rules import Rules
from pitchsim.game.view import View
from pitchsim.kernels.contract import MAX_DEALS
from pitchsim.table.decide import pitchsims_put_down
from pitchsim.table.game import play_table_game
from pitchsim.table.record import RecordError, record_of_preset_game, replay, views_of
from pitchsim.table.tournament import tournament
from pitchsim.util.jsonio import dumps_json

PRESETS = ["smear", "setback", "ten-point"]
# a ten-point game at 5 players: 10 cards each, no stock, so seats draw from the
# discards (4.8 step 4, not under follow=only)
DRAWS = "ten-point,partnership=false,follow=trump"
# discard=choice and draw (12.8), a kitty with the draw, and 5 players dealt 9 under
# draw (a stock of 7: draws from the discards, 4.8 step 4)
CHOICE_DRAW = [
    "auction-pitch,deal=9,discard=choice,trump=named",
    "smear,kitty=3,discard=draw",
    "auction-pitch,deal=9,discard=draw,trump=named",
    # and every discard face up (12.9), the kitty's put-down too (12.9.1)
    "auction-pitch,deal=9,discard=draw,trump=named,discards=shown",
    "smear,kitty=3,deal=9,discard=choice,discards=shown",
]
# seed per preset: a game the seats below finish in a few seconds
SEEDS = {"smear": 2, "setback": 1, "ten-point": 2, "auction-pitch": 2, DRAWS: 2}
SEEDS |= dict.fromkeys(CHOICE_DRAW, 2)
PLAYERS = {DRAWS: 5, CHOICE_DRAW[2]: 5, CHOICE_DRAW[3]: 5}


def preset_rules(name: str):
    # auction-pitch given as the preset: the base game, whose table writes the base
    # game's record however its rules are written
    return Rules() if name == "auction-pitch" else Rules.parse(name)


class RandomSeat:
    """Seeded random legal answers; passes often enough that games end; names its
    longest suit as trump; puts down pitchsim's card."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.name = f"random-{seed}"

    def call(self, view):
        legal = view.legal()
        if legal[0].startswith("trump:"):
            suits = [c // 13 for c in view.hand if c < 52]
            return "trump:" + "CDHS"[max(range(4), key=suits.count)]
        if view.phase == "put_down":  # the reference engine's play_game puts down by
            return pitchsims_put_down(view)  # pitchsim's rule (12.8.3): so does this seat
        if "pass" in legal and self.rng.random() < 0.7:
            return "pass"
        return next(a for a in legal if a != "pass")  # the lowest bid

    def play(self, view):
        return self.rng.choice(view.legal())


def random_game(preset: str, seed: int | None = None, seats=None):
    r = preset_rules(preset)
    seed = SEEDS[preset] if seed is None else seed
    seats = seats or [RandomSeat(seed * 10 + i) for i in range(PLAYERS.get(preset, 4))]
    return r, play_table_game(seats, r, seed, 0)


_GAMES: dict = {}


def game_of(preset: str):
    if preset not in _GAMES:
        _GAMES[preset] = random_game(preset)
    return _GAMES[preset]


class RecordedRng:
    """The ``rng`` of the reference engine's ``play_game``: its shuffle of the pack lays
    out the record's deal (each seat's run from the dealer's left, then the stock), its
    shuffle of the discards puts first the cards the record says were drawn from them."""

    def __init__(self, doc: dict, r) -> None:
        self.hands = iter(doc["hands"])
        self.r = r
        self.n = doc["players"]
        self.pack = F.pack(r, self.n)
        self.actions: list[str] = []
        self.junk: list[int] = []
        self.downs: dict[int, list[int]] = {}  # the hand's put-downs, seat -> cards

    def cards(self, texts) -> list[int]:
        return parse_cards(" ".join(texts), self.r.jokers)

    def shuffle(self, cards: list[int]) -> None:
        if len(cards) != len(self.pack):  # the discards (4.8 step 4)
            first = [c for c in self.junk if c in cards]
            cards[:] = first + [c for c in cards if c not in first]
            return
        h = next(self.hands)
        n, dealer = self.n, h["dealer"]
        runs = [c for i in range(n) for c in self.cards(h["hands"][(dealer + 1 + i) % n])]
        stock = self.cards(h.get("stock", []))
        cards[:] = runs + stock + [c for c in cards if c not in runs and c not in stock]
        # the put-downs the seats chose (12.2.2, 12.8.1, 4.8.7), given to the reference
        # engine as chosen (``downs``), not as actions
        self.actions = [a["action"] for a in h["actions"] if not a["action"].startswith("down:")]
        self.downs = {}
        for a in h["actions"]:
            if a["action"].startswith("down:"):
                self.downs.setdefault(a["seat"], []).extend(self.cards([a["action"][5:]]))
        self.junk = []
        if h.get("draw"):
            stocked = set(stock)
            drawn = [self.cards(d["drawn"]) for d in h["draw"]["seats"]]
            last = F.last_to_discard(h["pitcher"], dealer, self.r)  # 4.8, 12.7, 12.8
            order = [(last + 1 + i) % n for i in range(n)]
            self.junk = [c for s in order for c in drawn[s] if c not in stocked]

    def next_action(self) -> str:
        return self.actions.pop(0)


def reference_game(doc: dict, r):
    """The record's game played by the reference engine's ``play_game`` from the record's
    deals and actions."""
    rng = RecordedRng(doc, r)
    top, shoot = r.max_bid, F.shoot_call(r)

    def bidder(seat, hand, calls, legal, scores):
        a = rng.next_action()
        return F.PASS if a == "pass" else shoot if a == "shoot" else int(a)

    def namer(seat, hand):
        return "CDHS".index(rng.next_action().removeprefix("trump:"))

    def chooser(view):
        return rng.cards([rng.next_action()])[0]

    assert top >= 4
    n = doc["players"]
    game = F.play_game(
        n, r, rng, bidder, namer, chooser, doc["board"] % n, MAX_DEALS,
        put_downs=lambda: rng.downs,
    )  # fmt: skip
    assert not rng.actions  # every action of the last hand was used
    return game


# ---------------------------------------------------------------- whole games


@pytest.mark.parametrize("preset", [*PRESETS, "auction-pitch", DRAWS, *CHOICE_DRAW])
def test_a_whole_game_is_the_reference_engines_game(preset):
    r, doc = game_of(preset)
    assert doc["forfeit"] is None and doc.get("family", "auction-pitch") == r.family
    ref = reference_game(doc, r)
    assert len(ref.hands) == len(doc["hands"])
    for h, mine in zip(ref.hands, doc["hands"], strict=True):
        assert h.scores == mine["scores_after"]
        assert h.dealer == mine["dealer"]
        assert h.made == mine["made"] and h.change == mine["round_points"]
        if h.play is not None:
            assert [t[3] for t in h.play.tricks] == [t["winner"] for t in mine["tricks"]]
            assert h.play.score.awards == mine["points"]
    # the preset's game end (6.1 win): somebody won, by the reference's rule
    assert ref.winners and (doc.get("winners") or [doc["winner"]]) == ref.winners
    assert doc["final_scores"] == ref.scores
    side = ref.winners[0]
    best = max(ref.scores)
    assert (
        ref.scores[side if not r.partnership else side] >= r.target or ref.hands[-1].auction.shoot
    )
    if r.win == "highest":
        assert ref.scores[side] == best and ref.scores.count(best) == (2 if r.partnership else 1)


@pytest.mark.parametrize("preset", [*PRESETS, "auction-pitch", DRAWS, *CHOICE_DRAW])
def test_the_record_replays_byte_for_byte_and_gives_views(preset, tmp_path):
    r, doc = game_of(preset)
    text = dumps_json(doc)
    assert dumps_json(replay(doc)) == text
    f = tmp_path / "game.json"
    f.write_text(text + "\n")
    code, out, err = cli("play", "--replay", f, "--json")
    assert code == 0 and out == text + "\n", err
    code, shown, err = cli("play", "--replay", f)
    assert code == 0 and "wins with" in shown, err
    actions = [(a["seat"], a["action"]) for h in doc["hands"] for a in h["actions"]]
    views = list(views_of(doc))
    assert len(views) == len(actions)
    for (view, act), (seat, want) in zip(views, actions, strict=True):
        again = View.from_json(view.to_json(), rules=view.rules)
        assert again.seat == seat == again.to_move and act == want
        assert act in again.legal()
    kinds = {act.split(":")[0] if ":" in act else "card" for _, act in actions}
    if r.trump == "named":
        assert "trump" in kinds


@pytest.mark.parametrize("preset", ["ten-point", DRAWS])
def test_a_ten_point_record_carries_the_draw_each_seat_saw(preset):
    r, doc = game_of(preset)
    drawn = [h for h in doc["hands"] if h.get("draw")]
    assert drawn
    from_discards = [
        c for h in drawn for d in h["draw"]["seats"] for c in d["drawn"] if c not in h["stock"]
    ]
    assert bool(from_discards) == (r.follow != "only")  # 4.8 step 4
    for h in drawn:
        assert len(h["hands"][0]) == r.cards_each(doc["players"]) and all(
            len(x) <= 6 for x in h["held"]
        )
        dealt = [set(x) for x in h["hands"]]
        stock = h["stock"]
        d = h["draw"]
        # conservation: a seat's hand in play is what it kept, drew, or (the pitcher) robbed
        for s, seat in enumerate(d["seats"]):
            kept = dealt[s] - set(seat["discarded"]) - set(seat["burnt"])
            extra = set(d["robbed"]) - set(d["put_down"]) if s == h["pitcher"] else set()
            assert set(h["held"][s]) == (kept | set(seat["drawn"]) | extra) - set(
                d["put_down"] if s == h["pitcher"] else []
            )
        assert set(d["robbed"]) <= set(stock)
    # each view shows the seat its own draw, and others' only as counts and burnt trumps
    for view, _ in views_of(doc):
        if view.draws:
            mine = set(view.drawn)
            assert all(isinstance(x.discarded, int) for x in view.draws)
            assert mine <= set(view.kept) | set(view.put_down)


# ---------------------------------------------------------------- forfeits


class Illegal(RandomSeat):
    def __init__(self, seed, when, answer):
        super().__init__(seed)
        self.when, self.answer = when, answer

    def call(self, view):
        if self.when == view.phase:
            return self.answer(view)
        return super().call(view)

    def play(self, view):
        if self.when == "play":
            return self.answer(view)
        return super().play(view)


def not_held(view):
    held = {c for c in view.hand}
    return next(
        f"{r}{s}" for s in "CDHS" for r in "23456789" if parse_cards(f"{r}{s}")[0] not in held
    )


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize(
    "when, answer, says",
    [
        ("play", not_held, "is not a legal action"),
        ("auction", lambda v: "13", "is not a legal action"),
        ("trump", lambda v: "trump:X", "is not a legal action"),
        ("play", lambda v: 7, "not an action string"),
    ],
)
def test_an_illegal_answer_forfeits_with_the_reason(preset, when, answer, says):
    r = preset_rules(preset)
    if when == "trump" and r.trump != "named":
        pytest.skip(f"{preset} fixes trump by the first lead: no naming")
    seats = [RandomSeat(i) for i in range(4)]
    # the bad seat is asked first in the auction (the dealer's left) and always bids
    seats[1] = Illegal(1, when, answer)
    seats[1].rng = random.Random(99)
    seats[1].rng.random = lambda: 1.0  # never passes: it pitches and names trump
    doc = play_table_game(seats, r, SEEDS[preset], 0)
    f = doc["forfeit"]
    assert f is not None and f["seat"] == 1 and says in f["reason"], doc["forfeit"]
    assert doc["winner"] is None and doc["winners"] == []
    last = doc["hands"][-1]
    assert last["incomplete"] is True
    # nobody played in its place: the replay checks that seat 1 was the seat to act
    # after the last action recorded (the forfeited decision is not in the record)
    assert replay(doc) == doc
    # the views of a forfeited record end at the decision the seat spoiled
    assert sum(1 for _ in views_of(doc)) == sum(len(h["actions"]) for h in doc["hands"])


# ---------------------------------------------------------------- records refused


def test_a_record_under_another_presets_rules_is_refused_naming_both(tmp_path):
    r, doc = game_of("smear")
    other = dict(doc, rules=doc["rules"].replace("smear", "setback", 1))
    with pytest.raises(RecordError, match="smear") as e:
        replay(other)
    assert "setback" in str(e.value)
    f = tmp_path / "smear.json"
    f.write_text(dumps_json(doc))
    code, _, err = cli("play", "--replay", f, "--rules", "setback")  # one line, exit 2
    assert code == 2 and "smear" in err and "setback" in err
    code, same, err = cli("play", "--replay", f, "--rules", "smear", "--json")
    assert code == 0 and same == dumps_json(doc) + "\n", err


def _edited(doc, k, key, value):
    out = json.loads(json.dumps(doc))
    out["hands"][k][key] = value
    return out


@pytest.mark.parametrize("preset", [*PRESETS, DRAWS])
def test_a_record_that_did_not_happen_is_refused(preset):
    r, doc = game_of(preset)
    k = next(i for i, h in enumerate(doc["hands"]) if h["pitcher"] is not None)
    h = doc["hands"][k]
    with pytest.raises(RecordError, match="points_won"):
        replay(_edited(doc, k, "points_won", [p + 1 for p in h["points_won"]]))
    with pytest.raises(RecordError, match="not a legal action|is by seat"):
        bad = _edited(doc, k, "actions", list(reversed(h["actions"])))
        replay(bad)
    if r.discard == "non-trump":
        d = json.loads(json.dumps(h["draw"]))
        s = next(i for i, x in enumerate(d["seats"]) if x["drawn"])
        d["seats"][s]["drawn"] = d["seats"][s]["drawn"][::-1] + ["AC"]
        with pytest.raises(RecordError):
            replay(_edited(doc, k, "draw", d))
        junk = [
            (i, c)
            for i, x in enumerate(h["draw"]["seats"])
            for c in x["drawn"]
            if c not in h["stock"]
        ]
        if len(junk) > 1:  # two cards drawn from the discards, swapped between seats
            d = json.loads(json.dumps(h["draw"]))
            (i, a), (j, b) = junk[0], junk[-1]
            d["seats"][i]["drawn"] = [b if c == a else c for c in d["seats"][i]["drawn"]]
            d["seats"][j]["drawn"] = [a if c == b else c for c in d["seats"][j]["drawn"]]
            if i != j:
                with pytest.raises(RecordError):
                    replay(_edited(doc, k, "draw", d))
        if len(h["stock"]) > 1:  # another stock order: another draw
            stock = h["stock"][1:] + h["stock"][:1]
            with pytest.raises(RecordError):
                replay(_edited(doc, k, "stock", stock))


def test_a_hand_written_smear_record_is_filled_in():
    r, doc = game_of("smear")
    sparse = {
        "rules": "smear",
        "players": 4,
        "hands": [
            {
                "dealer": h["dealer"],
                "hands": h["hands"],
                "actions": [a["action"] for a in h["actions"]],
            }
            for h in doc["hands"]
        ],
    }
    full = replay(sparse)
    assert full["winners"] == doc["winners"] and full["final_scores"] == doc["final_scores"]
    assert [h["scores_after"] for h in full["hands"]] == [h["scores_after"] for h in doc["hands"]]


# ---------------------------------------------------------------- outside programs

BOT = r"""
import json, sys, time
mode, at = sys.argv[1], int(sys.argv[2])
RANKS = "23456789TJQKA"
answered = 0
for line in sys.stdin:
    m = json.loads(line)
    if m["type"] == "hello":
        print(json.dumps({"type": "hello", "protocol": "pitch-engine/1", "name": mode}), flush=True)
        continue
    if m["type"] == "quit":
        break
    view = m["view"]
    legal = view["legal"]
    hand = [c for c in view["hand"] if c not in ("HJ", "LJ")]
    suits = {s: [c for c in hand if c[-1] == s] for s in "CDHS"}
    if legal[0].startswith("trump:"):  # name the longest suit
        act = "trump:" + max("CDHS", key=lambda s: len(suits[s]))
    elif view["phase"] == "auction":  # the lowest bid with 3 of a suit and its A or K
        strong = any(len(cs) >= 3 and any(c[0] in "AK" for c in cs) for cs in suits.values())
        bids = [a for a in legal if a not in ("pass", "shoot")]
        act = bids[0] if bids and (strong or "pass" not in legal) else legal[0]
    else:  # the lowest legal card (a joker counts high)
        act = min(legal, key=lambda c: RANKS.find(c[0]) if c not in ("HJ", "LJ") else 13)
    if answered == at:
        if mode == "hang":
            time.sleep(600)
        if mode == "dies":
            sys.stderr.write("bot: giving up\n")
            sys.exit(4)
    print(json.dumps({"type": "action", "id": m["id"], "action": act}), flush=True)
    answered += 1
"""


def bot(tmp_path: Path, mode: str = "plays", at: int = -1) -> str:
    p = tmp_path / "bot.py"
    p.write_text(BOT)
    return "cmd:" + shlex.join([sys.executable, str(p), mode, str(at)])


@pytest.mark.parametrize("preset", PRESETS)
def test_an_outside_program_plays_a_whole_game(preset, tmp_path):
    cmd = bot(tmp_path)
    code, out, err = cli("play", "--game", "--rules", preset, "-s", cmd, "--seed", "2", "--json")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["forfeit"] is None and doc["winners"], doc["final_scores"]
    assert doc["strategies"] == [cmd] * 4
    assert dumps_json(replay(doc)) == out.rstrip("\n")
    reference_game(doc, preset_rules(preset))  # the reference engine plays it the same
    code, text, err = cli("play", "--game", "--rules", preset, "-s", cmd, "--seed", "2")
    assert code == 0 and "wins" in text, err


@pytest.mark.parametrize("preset", ["smear", "ten-point"])
def test_an_outside_program_sits_in_a_tournament(preset, tmp_path):
    cmd = bot(tmp_path)
    other = bot(tmp_path, "other")
    result = tournament(
        [cmd, other],
        players=4,
        boards=2,
        rules=preset,
        seed=3,
        record=str(tmp_path / "records"),
        seat_logs=str(tmp_path / "logs"),
        decision_time=10,
    )
    assert result.games == 4 and sum(result.forfeits.values()) == 0
    files = sorted((tmp_path / "records").glob("board-*.json"))
    assert len(files) == 4
    wins = 0.0
    for f in files:
        doc = json.loads(f.read_text())
        assert doc["family"] == preset and dumps_json(replay(doc)) == dumps_json(doc)
        wins += bool(doc["winners"])
    assert sum(s.wins for s in result.results) == pytest.approx(wins, abs=1)
    assert max(result.results[0].pitched) == Rules.parse(preset).max_bid
    log = (tmp_path / "logs" / "strategy-0.log").read_text()
    assert '"type":"decide"' in log and '"phase"' in log


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    stat = Path(f"/proc/{pid}/stat").read_bytes()
    return stat[stat.rfind(b")") + 2 :].split()[0] != b"Z"


@pytest.mark.parametrize("preset", ["smear", "setback"])
@pytest.mark.parametrize(
    "mode, reason", [("hang", "no answer within 1 s"), ("dies", "exited (code 4)")]
)
def test_a_bot_that_hangs_or_dies_forfeits_and_the_tournament_goes_on(
    preset, mode, reason, tmp_path
):
    bad = bot(tmp_path, mode, 5)
    good = bot(tmp_path, "plays")
    code, out, err = cli(
        "tournament", "-s", f"{bad},{good}", "-g", "2", "--rules", preset, "--seed", "4",
        "--decision-time", "1", "--json",
    )  # fmt: skip
    assert code == 0, err
    doc = json.loads(out)
    assert doc["games"] == 4
    assert doc["forfeits"][bad] == 4 and doc["forfeits"][good] == 0
    assert all(reason in f["reason"] for f in doc["forfeited_games"])
    if mode == "dies":
        assert all("bot: giving up" in f["reason"] for f in doc["forfeited_games"])
    left = subprocess.run(["pgrep", "-f", str(tmp_path / "bot.py")], capture_output=True, text=True)
    assert not [p for p in left.stdout.split() if _alive(int(p))]


# ---------------------------------------------------------------- built-in seats

BUILT_IN = {
    "smear": ["odds+heuristic", "heuristic+random", "random+heuristic", "heuristic"],
    "setback": ["odds+heuristic", "heuristic"] * 2,
    "ten-point": ["heuristic", "odds+random"] * 2,
}


@pytest.mark.parametrize("preset", PRESETS)
def test_built_in_seats_at_the_table_play_the_family_tournaments_game(preset):
    from pitchsim.table.boards import board_game

    r = Rules.parse(preset)
    names = BUILT_IN[preset]
    doc = play_table_game(names, r, 5, 3)
    game = board_game(5, 3, names, r)  # the family game kernel: the tournament's board
    kernel = [h.to_json(r) for h in game.hands]
    assert len(kernel) == len(doc["hands"])
    for k, mine in zip(kernel, doc["hands"], strict=True):
        assert k["dealt"] == mine["hands"]
        assert [c["call"] for c in k["calls"]] == mine["calls"]
        assert [t["cards"] for t in k["tricks"]] == [t["cards"] for t in mine["tricks"]]
        assert k["held"] == mine.get("held")  # the kernels' draw
        assert k["scores_after"] == mine["scores_after"]
    assert doc["winners"] == game.winners
    # the kernels' game as a record (play --game --json) is the table's record
    assert dumps_json(record_of_preset_game(game)) == dumps_json(doc)
    # and the strategies, asked again, decide as the record says
    assert replay(doc) == doc


def test_a_smear_tournament_with_a_program_and_a_built_in_seat(tmp_path):
    cmd = bot(tmp_path)
    result = tournament(
        [cmd, "odds+heuristic"], boards=2, rules="smear", seed=2, record=str(tmp_path / "rec")
    )
    assert result.games == 4 and result.forfeits[cmd] == 0
    docs = [json.loads(f.read_text()) for f in sorted((tmp_path / "rec").glob("*.json"))]
    assert len(docs) == 4 and all(replay(d) == d for d in docs)
    won = [0.0, 0.0]
    for rot, d in zip([0, 1, 0, 1], docs, strict=True):
        for side in d["winners"]:
            won[(side + rot) % 2] += 1 / len(d["winners"])
    assert [s.wins for s in result.results] == [round(w) for w in won]


def test_a_family_tournaments_records_are_its_games(tmp_path):
    result = tournament(
        "heuristic,random", players=3, boards=2, rules="smear", seed=8, record=str(tmp_path)
    )
    docs = [json.loads(f.read_text()) for f in sorted(tmp_path.glob("*.json"))]
    assert len(docs) == 4
    wins = {"heuristic+heuristic": 0.0, "random+heuristic": 0.0}
    for d in docs:
        assert replay(d) == d  # the built-in strategies, asked again, agree
        for side in d["winners"]:
            wins[d["strategies"][side]] += 1 / len(d["winners"])
    assert [s.wins for s in result.results] == [round(w) for w in wins.values()]


def test_a_cinch_tournament_of_searching_seats_runs_and_its_records_replay(tmp_path):
    """Cinch (11.8: the dealer robs, 12.7; every discard face up, 12.9) with rollout
    seats in the kernels' games: each record replays, every decision of the searching
    seats asked again from its view (``replay``: ``table.decide``) and agreeing
    with the kernel's, whose search reads the draw by ``play.seat_knowledge``."""
    seats = "odds+rollout:8,odds+heuristic"
    result = tournament(seats, boards=2, rules="cinch", seed=3, record=str(tmp_path))
    docs = [json.loads(f.read_text()) for f in sorted(tmp_path.glob("*.json"))]
    assert len(docs) == 4 and result.games == 4
    wins = {"odds+rollout:8": 0.0, "odds+heuristic": 0.0}
    robbed = 0
    for d in docs:
        assert replay(d) == d
        robbed += sum(h["dealer"] != h["pitcher"] for h in d["hands"] if h.get("draw"))
        for side in d["winners"]:
            wins[d["strategies"][side]] += 1 / len(d["winners"])
    assert [s.wins for s in result.results] == [round(w) for w in wins.values()]
    assert robbed > 0  # hands where the dealer robbed and another seat pitched


def test_play_game_seats_a_program_beside_built_in_seats_under_smear(tmp_path):
    cmd = bot(tmp_path)
    seats = f"{cmd},odds+heuristic,{cmd},heuristic"
    argv = ["play", "--game", "--rules", "smear", "-s", seats, "--seed", "3"]
    code, out, err = cli(*argv, "--json", "--seat-logs", tmp_path / "logs")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["strategies"] == [cmd, "odds+heuristic", cmd, "heuristic+heuristic"]
    assert doc["forfeit"] is None and doc["winners"]
    assert replay(doc) == doc
    assert '"type":"decide"' in (tmp_path / "logs" / "seat-0.log").read_text()
    code, _, err = cli(*argv[:4], "-s", f"heuristic,nosuch,{cmd},heuristic")  # one line, exit 2
    assert code == 2 and "nosuch" in err and err.count("\n") == 1
