"""``pitchsim engine`` under every preset (docs/protocol.md, docs/view.md).

A program that knows only the protocol hosts whole games itself, the reference engine
(``pitchsim.game.reference``) keeping the rules: it deals, runs the auction,
the naming of trump, the discard and draw, the tricks, the scores and the end of the
game, and at every decision writes the seat's view by docs/view.md (its own card
names, its own ``out`` and ``draw``) and asks a real ``pitchsim engine`` subprocess, one
JSON line each way.  Every answer must be legal by the reference engine.  Then the
errors a family view gets, and the documented smear session replayed byte for byte.
"""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from pitchsim.game import reference as F
from pitchsim.game.rules import Rules
from pitchsim.table.engine import Engine

ROOT = Path(__file__).resolve().parent.parent
PITCHSIM = str(Path(sys.executable).with_name("pitchsim"))

# The bot's own card names (docs/view.md): rank then suit; the jokers HJ and LJ.
RANKS, SUITS = "23456789TJQKA", "CDHS"


def name(c: int) -> str:
    return {52: "HJ", 53: "LJ"}.get(c) or RANKS[c % 13] + SUITS[c // 13]


def names(mask: int) -> list[str]:
    return [name(c) for c in range(54) if mask >> c & 1]


class EngineProcess:
    """``pitchsim engine`` as a subprocess: one request line, one reply line."""

    def __init__(self, *args: str):
        self.p = subprocess.Popen(
            [PITCHSIM, "engine", *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        self.asked = 0

    def ask(self, msg: dict) -> dict:
        self.p.stdin.write(json.dumps(msg) + "\n")
        self.p.stdin.flush()
        self.asked += 1
        return json.loads(self.p.stdout.readline())

    def close(self) -> None:
        self.p.stdin.write('{"type": "quit"}\n')
        self.p.stdin.close()
        assert self.p.wait(timeout=60) == 0


@pytest.fixture(scope="module")
def engine():
    e = EngineProcess("--seed", "3")
    hello = e.ask({"type": "hello", "protocol": "pitch-engine/1"})
    assert hello["protocol"] == "pitch-engine/1"
    yield e
    e.close()


def call_name(c: int, top: int) -> str:
    return "pass" if c == 0 else "shoot" if c == top + 1 else str(c)


class Host:
    """One game hosted by the bot (see the module).  ``strategies[seat]`` is sent in each
    request's options; ``kinds`` counts the answers by decision."""

    def __init__(self, spec: str, n: int, engine: EngineProcess, strategies, seed: int):
        self.spec, self.n, self.engine = spec, n, engine
        self.r = Rules.parse(spec)  # the reference engine's reading of the rules
        self.strategies = strategies
        self.rng = random.Random(seed)
        self.kinds: dict[str, int] = {}
        self.searched = 0

    def ask(self, seat: int, view: dict, legal: list[str]) -> str:
        view = view | {"rules": self.spec, "players": self.n, "seat": seat, "legal": legal}
        opts = {"strategy": self.strategies[seat % len(self.strategies)]}
        reply = self.engine.ask(
            {"type": "decide", "id": self.engine.asked, "view": view, "options": opts}
        )
        assert reply["type"] == "action", (reply, view)
        assert reply["id"] == self.engine.asked - 1
        assert reply["action"] in legal, (reply, legal)  # legal by the reference engine
        if "values" in reply:
            # every legal card (the opening lead's too, where the base game's pitcher
            # leads only his planned suit)
            assert reply["action"] in reply["values"] and set(reply["values"]) == set(legal)
            self.searched += 1
        return reply["action"]

    def game(self, max_hands: int = 300) -> list[int]:
        r, n = self.r, self.n
        scores = [0] * n
        dealer = 0
        for _ in range(max_hands):
            before = list(scores)
            change, pitcher, made, shoot = self.hand(dealer, before)
            scores = [s + c for s, c in zip(scores, change, strict=True)]
            won = F.winners(scores, pitcher, made, r, shoot)
            if won:
                return won
            if pitcher is not None or r.all_pass != "redeal":
                dealer = (dealer + 1) % n
        raise AssertionError(f"no side won in {max_hands} hands")

    def hand(self, dealer: int, before: list[int]):
        """One hand: (score change, pitcher or None, made, shoot)."""
        r, n = self.r, self.n
        top = r.max_bid
        dealt, stock = F.deal(self.rng, r, n, dealer)
        scores = [before[0], before[1]] if r.partnership else list(before)
        base = {"dealer": dealer, "scores": scores}
        calls: list[str] = []

        def mine(seat: int) -> dict:
            return base | {"hand": names(dealt[seat])}

        def call(seat: int, made: list[int], legal: list[int]) -> int:
            texts = [call_name(c, top) for c in legal]
            action = self.ask(seat, mine(seat) | {"calls": list(calls)}, texts)
            self.count("call")
            calls.append(action)
            return legal[texts.index(action)]

        auction = F.run_auction(dealer, n, call, r, before)
        if auction.pitcher is None:
            change = [0] * n
            if r.all_pass == "dealer-set":  # 3.4
                change = [-2 if r.team(s) == r.team(dealer) else 0 for s in range(n)]
            return change, None, False, False
        pitcher, bid = auction.pitcher, auction.bid
        after: dict = {"calls": calls}
        trump = -1
        held, draw = dealt, None
        if r.trump == "named":
            action = self.ask(pitcher, mine(pitcher) | after, [f"trump:{s}" for s in SUITS])
            self.count("trump")
            trump = SUITS.index(action.removeprefix("trump:"))
            after["trump"] = SUITS[trump]
            if r.discard == "non-trump":
                held, draw = F.discard_and_draw(dealt, stock, pitcher, trump, r, self.rng, dealer)
        tricks: list[dict] = []

        def choose(v) -> int:
            if not v.trick:
                tricks.append({"leader": v.leader, "seats": [], "cards": []})
            doc = mine(v.seat) | after | {"tricks": [dict(t) for t in tricks]}
            if r.follow == "only":
                doc["out"] = self.out(tricks, pitcher, v.seat, trump)
            if draw is not None:
                me = {"drawn": [name(c) for c in draw.drawn[v.seat]]}
                if v.seat == r.robber(pitcher, dealer):  # rob=dealer: the dealer (12.7)
                    me["robbed"] = [name(c) for c in draw.robbed]
                seats = [
                    {"discarded": draw.discarded[s].bit_count(), "burnt": names(draw.burnt[s])}
                    for s in range(n)
                ]
                if r.discards == "shown":  # 12.9: face up, every seat's
                    for s in range(n):
                        seats[s]["shown"] = names(draw.discarded[s])
                doc["draw"] = {"seats": seats, "mine": me}
            legal = [c for c in range(54) if v.legal >> c & 1]
            action = self.ask(v.seat, doc, [name(c) for c in legal])
            self.count("card")
            t = tricks[-1]
            tricks[-1] = t | {"seats": [*t["seats"], v.seat], "cards": [*t["cards"], action]}
            return legal[[name(c) for c in legal].index(action)]

        play = F.play_hand(held, pitcher, choose, r, bid=bid, trump=trump)
        points = play.score.points
        made = points[pitcher] >= bid
        return F.settle_hand(points, pitcher, bid, r), pitcher, made, auction.shoot

    def out(self, tricks: list[dict], pitcher: int, seat: int, trump: int) -> list[int]:
        """Under follow=only, every seat shown to hold no trump (docs/view.md): passed over
        as leader, skipped in a trick, or missing from a complete trick."""
        n = self.n
        out: set[int] = set()
        start = pitcher
        for t in tricks:
            s = start
            while s != t["leader"]:
                out.add(s)
                s = (s + 1) % n
            seats = t["seats"]
            if t is tricks[-1]:
                if not seats:
                    break  # the seat to move leads it
                for a, b in zip(seats, [*seats[1:], seat], strict=True):
                    k = (a + 1) % n
                    while k != b:  # skipped in the trick under way
                        out.add(k)
                        k = (k + 1) % n
            else:
                out |= set(range(n)) - set(seats)
                cards = [card_of(c) for c in t["cards"]]
                start = seats[F.trick_winner(cards, trump, self.r)]
        return sorted(out)

    def count(self, kind: str) -> None:
        self.kinds[kind] = self.kinds.get(kind, 0) + 1


def card_of(text: str) -> int:
    if text in ("HJ", "LJ"):
        return 52 if text == "HJ" else 53
    return SUITS.index(text[1]) * 13 + RANKS.index(text[0])


def test_the_bots_card_names_are_the_documented_ones():
    from pitchsim.game.cards import format_card

    assert [name(c) for c in range(54)] == [format_card(c, symbols=False) for c in range(54)]
    assert all(card_of(name(c)) == c for c in range(54))


# (rules as the bot writes them, players, the strategies it asks for, seat by seat)
GAMES = [
    ("smear", 4, ["odds+heuristic", "heuristic+rollout:8", "random+random", "odds+heuristic"]),
    ("smear", 3, ["heuristic+heuristic", "odds+rollout:6", "random+heuristic"]),
    ("ten-point", 4, ["odds+heuristic", "heuristic+rollout:8"]),
    ("setback", 4, ["odds+rollout:8", "heuristic+heuristic"]),
    ("auction-pitch,shoot=true", 4, ["heuristic+rollout:8", "random+heuristic"]),
    ("auction-pitch", 4, ["odds+rollout:8", "heuristic+heuristic"]),
    # rob=dealer (12.7): a searching seat reads the draw off its view, the dealer robbing
    ("cinch", 4, ["odds+rollout:8", "odds+heuristic"]),
]


@pytest.mark.parametrize(("spec", "n", "strategies"), GAMES)
def test_whole_games_hosted_by_a_protocol_bot(engine, spec, n, strategies):
    """Whole games to the target, every decision of every seat answered by the engine;
    each answer legal by the reference engine, every kind of decision asked (calls, the
    naming of trump where the preset names it, cards), search values for the rollout's
    cards.  Plain auction-pitch's views go the base game's way (game/view.py)."""
    for seed in (1, 2):
        host = Host(spec, n, engine, strategies, seed)
        won = host.game()
        assert won
        named = Rules.parse(spec).trump == "named"
        assert host.kinds["call"] > 0 and host.kinds["card"] > 0
        assert ("trump" in host.kinds) == named
        assert host.searched > 0


def decide(view: dict, **options) -> dict:
    msg = {"type": "decide", "id": 1, "view": view}
    if options:
        msg["options"] = options
    return json.loads(Engine().handle(json.dumps(msg)))


def example(name_: str) -> dict:
    return json.loads((ROOT / "examples" / "family_views" / f"{name_}.json").read_text())


@pytest.mark.parametrize(
    ("change", "words"),
    [
        # a joker in a pack without jokers
        ({"hand": ["5C", "TC", "KC", "QD", "JS", "HJ"]}, "HJ"),
        # seat 3 holds QD, so nobody else played it
        (
            {
                "tricks": [
                    {"leader": 0, "cards": ["AH", "JC", "2S", "TC"]},
                    {"leader": 1, "cards": ["QD", "5S"]},
                ]
            },
            "QD",
        ),
        # a call above smear's maximum bid of 5
        ({"calls": ["6"]}, "6"),
        # a legal list that leaves out a card the seat may play
        ({"legal": ["JS", "KS"]}, "legal"),
        # the smear view under ten-point's rules, and under setback's: refused, naming both
        ({"rules": "ten-point"}, "(under ten-point; it is a view of smear: are its rules right?)"),
        ({"rules": "setback"}, "(under setback; it is a view of smear: are its rules right?)"),
    ],
)
def test_impossible_smear_views_are_bad_views(change, words):
    view = example("smear") | change
    reply = decide(view)
    assert reply["code"] == "bad-view", reply
    assert words in reply["message"]


def test_a_ten_point_view_under_smear_rules_is_a_bad_view():
    reply = decide(example("ten-point") | {"rules": "smear"})
    assert reply["code"] == "bad-view"
    assert reply["message"].endswith(
        "(under smear; it is a view of ten-point: are its rules right?)"
    )


@pytest.mark.parametrize("name_", ["smear", "setback", "ten-point"])
@pytest.mark.parametrize("as_", ["auction-pitch", "auction-pitch,low=dealt"])
def test_a_preset_view_under_the_base_games_rules_names_both(name_, as_):
    """auction-pitch is a preset too (docs/protocol.md, "Under every preset"): a smear
    view sent as auction-pitch is refused naming the preset it fits."""
    reply = decide(example(name_) | {"rules": as_})
    assert reply["code"] == "bad-view", reply
    assert reply["message"].endswith(
        f"(under {as_}; it is a view of {name_}: are its rules right?)"
    )


@pytest.mark.parametrize("change", [{"target": 0}, {"partnership": "yes"}, {"target": True}])
def test_a_malformed_partnership_or_target_names_no_other_preset(change):
    """Every preset states its own target and partnership, so the presets a refused view
    fits are tried without them; a value no preset could state is no clue to another."""
    base = json.loads((ROOT / "examples" / "views" / "call.json").read_text())
    for view in (base, example("smear")):
        reply = decide(view | change)
        assert reply["code"] == "bad-view", reply
        assert "it is a view of" not in reply["message"], reply


def test_family_refusals_and_no_decision():
    smear = example("smear")
    # every built-in strategy plays under every preset (the advisor and pimc too)
    reply = decide(smear, strategy="nosuch+pimc")
    assert reply["code"] == "unknown-strategy"
    assert "nosuch" in reply["message"] and "advisor" in reply["message"]
    # smear at 4 players has an odds table shipped; auction-pitch with a joker (bids to
    # 5) one made for it, and smear with both pedros, the 3 and two jokers (bids to the
    # largest maximum bid, 20, 6.2) too
    ap = {"rules": "auction-pitch,jokers=1,shoot=true", "players": 4, "seat": 1, "dealer": 0,
          "hand": ["AH", "KH", "2H", "9C", "7D", "3S"], "calls": []}  # fmt: skip
    assert decide(ap, strategy="odds+heuristic")["type"] == "action"
    wide = ap | {"rules": "smear,jokers=2,three=true,five=pedro", "seat": 2, "calls": ["19"]}
    reply = decide(wide, strategy="odds+heuristic")
    assert reply["type"] == "action" and reply["action"] in ("pass", "20"), reply
    assert decide(ap, strategy="heuristic+heuristic")["type"] == "action"
    # a called partner with a kitty (12.1, 12.2): rows made for it, the default bids
    kitty = ap | {"rules": "smear,partner=called,kitty=3", "players": 5, "calls": []}
    reply = decide(kitty)
    assert reply["type"] == "action" and reply["action"] in ("pass", "2", "3", "4", "5"), reply
    # seat 0 bid smear's 5, which ends the auction: it names trump, seat 1 has nothing
    trump = {"rules": "smear", "players": 4, "seat": 0, "dealer": 3,
             "hand": ["5C", "TC", "KC", "QD", "JS", "KS"], "calls": ["5"]}  # fmt: skip
    reply = decide(trump | {"seat": 1})
    assert reply["code"] == "not-to-act"
    assert reply["message"] == "seat 1 has no decision here: seat 0 names trump"
    reply = decide(trump | {"calls": ["pass", "pass", "pass", "pass"]})
    assert reply["code"] == "not-to-act" and "thrown in" in reply["message"]
    reply = decide(smear, strategy="heuristic+rollout:8", time=0)
    assert reply["code"] == "bad-option"


def test_the_pitcher_names_trump_with_an_action_of_the_naming():
    view = {"rules": "smear", "players": 4, "seat": 0, "dealer": 3,
            "hand": ["5C", "TC", "KC", "QD", "JS", "KS"], "calls": ["5"]}  # fmt: skip
    for strategy in ("odds+heuristic", "heuristic+rollout", "random+random"):
        for seed in range(4):
            reply = decide(view, strategy=strategy, seed=seed)
            assert re.fullmatch(r"trump:[CDHS]", reply["action"]), reply


def test_search_values_and_the_clock_under_smear():
    smear = example("smear")
    plain = decide(smear, strategy="heuristic+rollout:16", seed=7)
    timed = decide(smear, strategy="heuristic+rollout:16", seed=7, time=60)
    assert set(plain["values"]) == set(smear["legal"])
    assert plain["values"][plain["action"]] == max(plain["values"].values())
    assert timed["action"] == plain["action"] and timed["values"] == plain["values"]
    assert timed["search"] == {"worlds": 16, "worlds_max": 16, "stop": "all worlds done"}
    quiet = decide(smear, strategy="heuristic+rollout:16", seed=7, values=False)
    assert "values" not in quiet and quiet["action"] == plain["action"]
    assert "values" not in decide(smear, strategy="odds+heuristic")


def transcript():
    text = (ROOT / "docs" / "protocol.md").read_text()
    block = re.search(r"```transcript-smear\n(.*?)```", text, re.S).group(1)
    sent, got = [], []
    for line in block.splitlines():
        (sent if line.startswith("> ") else got).append(line[2:])
    return sent, got


def test_the_smear_session_replays_byte_for_byte():
    sent, got = transcript()
    p = subprocess.run(
        [PITCHSIM, "engine"], input="\n".join(sent) + "\n", text=True, capture_output=True,
        timeout=600,
    )  # fmt: skip
    assert p.returncode == 0
    assert p.stdout == "".join(line + "\n" for line in got)


def test_a_searching_seat_under_rob_dealer_is_played_in_kernel_games_too():
    """Under rob=dealer (12.7) a searching seat reads the draw the dealer robbed, from
    its view (the engine) and in a kernel game (``play.seat_knowledge`` takes the
    dealer): no strategy is refused for it."""
    from pitchsim.table.boards import strategy_for

    cinch = Rules.parse("cinch")
    for name in ("odds+rollout", "odds+pimc:4", "heuristic+rollout:8"):
        assert strategy_for(name, cinch).name == name
