"""pitchsim's Smear seat against pysmear's own bots, in pysmear's own engine (issue 31, item 1).

pysmear (github.com/mkokotovich/pysmear, with its pydealer submodule) is not part of
pitchsim and is not vendored: check it out anywhere and pass its path.  This script runs
under pysmear's Python 2.7 (it is also valid Python 3, so ruff reads it):

    PYENV_VERSION=2.7.18 python2.7 scripts/pysmear_match.py --pysmear /tmp/pysmear \\
        --games 60 --out /tmp/pysmear-match.json
    PYENV_VERSION=2.7.18 python2.7 scripts/pysmear_match.py --pysmear /tmp/pysmear \\
        --baseline --games 2000 --out /tmp/pysmear-baseline.json

pysmear's SmearGameManager deals, runs the auction, scores every hand and decides the
game; pitchsim only fills one seat.  That seat is a pysmear ``Player`` whose three hooks
(``declare_bid``, ``get_trump``, ``play_card``) each send one ``decide`` request to
``pitchsim engine`` (docs/protocol.md) with the seat's view under the ``smear`` preset:
its own six cards as dealt, the dealer, the calls, the trump named, the tricks played
and the scores before the hand.  Nothing else of pysmear's state reaches pitchsim.

The other three seats are pysmear's computer player as its engine API seats it
(smear_engine_api.py: ``CautiousTaker`` play, ``BetterBidding`` bids).

Duplicate deals: deal set ``g`` fixes the cards of every hand by hand number (seeded), and
its game is played four times, pitchsim in seat 0, 1, 2 and 3 in turn.  pitchsim's
result on deal set ``g`` is its mean win share over the four games, so the interval is
taken over deal sets (the four games of a set are not independent).  A game won by k
players together (pysmear's ties) gives each a share of 1/k, so the fair share is exactly
1/4.  A bad answer from the engine (an error reply, an action that is not legal, a late
or missing reply) forfeits the game: pitchsim's share is 0 and nobody's move is replaced.

``--baseline`` seats pysmear's bot in all four seats on the same deal sets (the bots are
deterministic, so the four rotations are one game): each seat's share checks the harness.
"""

# Python 2.7 (pysmear's) as well as 3: no `raise ... from`, IOError is not OSError there.
# ruff: noqa: B904, UP004, UP008, UP010, UP015, UP024, UP025, UP031, UP032

from __future__ import division, print_function

import argparse
import json
import math
import os
import random
import select
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

VALUES = {
    "Ace": "A",
    "King": "K",
    "Queen": "Q",
    "Jack": "J",
    "10": "T",
    "9": "9",
    "8": "8",
    "7": "7",
    "6": "6",
    "5": "5",
    "4": "4",
    "3": "3",
    "2": "2",
}
SUITS = {"Clubs": "C", "Diamonds": "D", "Hearts": "H", "Spades": "S"}
SUIT_NAMES = dict((v, k) for k, v in SUITS.items())
PLAYERS = 4
TARGET = 11
MAX_BID = 5


WARM_VIEWS = [
    {
        "rules": "smear",
        "players": 4,
        "dealer": 2,
        "scores": [4, -5, -5, 2],
        "seat": 1,
        "hand": ["AS", "KS", "9S", "4D", "7C", "3H"],
        "calls": ["pass", "3"],
    },
    {
        "rules": "smear",
        "players": 4,
        "seat": 3,
        "dealer": 3,
        "hand": ["5C", "TC", "KC", "QD", "JS", "KS"],
        "scores": [4, -5, -5, 2],
        "calls": ["5"],
        "trump": "S",
        "tricks": [
            {"leader": 0, "cards": ["AH", "JC", "2S", "TC"]},
            {"leader": 1, "cards": ["KD", "5S"]},
        ],
    },
]


def code(card):
    """A pydealer card in the protocol's spelling: ``AH``, ``TC``."""
    return VALUES[card.value] + SUITS[card.suit]


class Forfeit(Exception):
    """pitchsim's seat gave no usable answer: the game ends, nobody wins it."""


class EngineClient(object):
    """``pitchsim engine`` as a subprocess, one JSON line each way per request."""

    def __init__(self, argv, timeout, log):
        self.argv = argv
        self.timeout = timeout
        self.log = log
        self.next_id = 0
        self.buf = b""
        self.proc = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log, close_fds=True
        )
        try:
            hello = self.request({"type": "hello", "protocol": "pitch-engine/1"}, 600.0)
        except Forfeit as e:
            raise SystemExit("pysmear_match: %s did not start: %s" % (" ".join(argv), e))
        if hello.get("type") != "hello" or hello.get("protocol") != "pitch-engine/1":
            raise SystemExit("pysmear_match: the engine answered hello with %r" % (hello,))
        self.hello = hello
        # A call and a card at fixed smear views, answered before any clock runs: the
        # engine's first decisions compile its kernels (up to a minute on a loaded
        # machine), which no game should pay for with a forfeit.
        for view in WARM_VIEWS:
            try:
                self.decide(view, 600.0)
            except Forfeit as e:
                raise SystemExit("pysmear_match: the engine's warm-up failed: %s" % e)

    def readline(self, limit):
        deadline = time.time() + limit
        while b"\n" not in self.buf:
            left = deadline - time.time()
            if left <= 0:
                raise Forfeit("no reply within %g s" % limit)
            ready, _, _ = select.select([self.proc.stdout], [], [], left)
            if not ready:
                continue
            chunk = os.read(self.proc.stdout.fileno(), 65536)
            if not chunk:
                raise Forfeit("the engine closed its output (exit %r)" % self.proc.poll())
            self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        return line

    def request(self, message, limit=None):
        self.proc.stdin.write((json.dumps(message) + "\n").encode("utf-8"))
        self.proc.stdin.flush()
        line = self.readline(self.timeout if limit is None else limit)
        try:
            reply = json.loads(line.decode("utf-8"))
        except ValueError:
            raise Forfeit("a reply that is not JSON: %r" % line[:200])
        if not isinstance(reply, dict):
            raise Forfeit("a reply that is not an object: %r" % line[:200])
        return reply

    def decide(self, view, limit=None):
        self.next_id += 1
        reply = self.request({"type": "decide", "id": self.next_id, "view": view}, limit)
        if reply.get("type") != "action" or reply.get("id") != self.next_id:
            raise Forfeit(
                "%s: %s" % (reply.get("code", reply.get("type")), reply.get("message", reply))
            )
        return reply.get("action")

    def close(self):
        try:
            self.proc.stdin.write(b'{"type": "quit"}\n')
            self.proc.stdin.close()
        except (IOError, OSError):
            pass
        self.proc.wait()


def load_pysmear(path):
    """Import pysmear's modules from a checkout (its pydealer submodule in ``pydealer``)."""
    for sub in ("pysmear", os.path.join("pydealer", "pydealer")):
        if not os.path.isdir(os.path.join(path, sub)):
            raise SystemExit("pysmear_match: %s has no %s/ (a pysmear checkout?)" % (path, sub))
    sys.path.insert(0, os.path.join(path, "pydealer"))
    sys.path.insert(0, os.path.join(path, "pysmear"))
    import bidding_logic
    import game_manager
    import hand
    import player
    import playing_logic
    import pydealer
    import smear_utils
    from pydealer.const import POKER_RANKS

    return dict(
        Player=player.Player,
        SmearGameManager=game_manager.SmearGameManager,
        SmearHandManager=hand.SmearHandManager,
        SmearHand=hand.SmearHand,
        CautiousTaker=playing_logic.CautiousTaker,
        BetterBidding=bidding_logic.BetterBidding,
        utils=smear_utils.SmearUtils,
        pydealer=pydealer,
        POKER_RANKS=POKER_RANKS,
    )


class Harness(object):
    """The deal source and the counters, hooked into pysmear's hand manager."""

    def __init__(self, ps):
        self.ps = ps
        self.deal_seed = None
        self.hand_number = 0
        self.events = {"no_trump_in_play": 0, "bot_illegal_cards": 0, "calls_after_5": 0}
        self.hands = []  # per hand of the current game: what the auction and scoring gave
        harness = self
        manager = ps["SmearHandManager"]
        original_scores = manager.get_scores
        original_add_card = ps["SmearHand"].add_card
        self.dealt, self.plays = [], []

        def deal_new_deck(self):
            # The same cards for the same (deal set, hand number), whoever sits where.
            deck = ps["pydealer"].Deck(ranks=ps["POKER_RANKS"])
            cards = sorted(deck.cards, key=code)
            random.Random(harness.deal_seed * 1000 + harness.hand_number).shuffle(cards)
            harness.hand_number += 1
            self.deck = ps["pydealer"].Stack(cards=cards)
            harness.dealt = [[] for _ in range(self.num_players)]
            harness.plays = []
            for _ in range(self.cards_to_deal):
                for i in range(self.num_players):
                    dealt = self.deck.deal(1)
                    harness.dealt[i] += [code(c) for c in dealt]
                    self.players[i].receive_dealt_card(dealt)

        def add_card(self, player_id, card):
            # every card as pysmear's engine takes it, for scripts/pysmear_check.py
            if card is not None:
                harness.plays.append([player_id, code(card)])
            original_add_card(self, player_id, card)

        def get_scores(self, dealer_id):
            # pysmear gives High and Low to seat 0 when no trump is played (rules.md 3.12)
            if not self.forced_two_set and self.current_low is None:
                harness.events["no_trump_in_play"] += 1
            scores = original_scores(self, dealer_id)
            harness.hands.append(
                {
                    "dealer": dealer_id,
                    "thrown_in": bool(self.forced_two_set),
                    "pitcher": None if self.forced_two_set else self.current_hand.bidder,
                    "bid": 0 if self.forced_two_set else self.current_hand.bid,
                    "set": bool(self.hand_results.get("bidder_set", False)),
                    "scores": [scores[i] for i in range(self.num_players)],
                    # the whole hand, for the re-scoring check (never shown to a seat)
                    "dealt": harness.dealt,
                    "calls": [[e["username"], e["bid"]] for e in self.current_hand.get_all_bids()],
                    "trump": SUITS.get(self.current_hand.trump),
                    "plays": harness.plays,
                }
            )
            return scores

        manager.deal_new_deck = deal_new_deck
        manager.get_scores = get_scores
        ps["SmearHand"].add_card = add_card

    def start_game(self, deal_seed):
        self.deal_seed = deal_seed
        self.hand_number = 0
        self.hands = []


def make_bot(ps, name, harness):
    """pysmear's computer player as smear_engine_api.py seats it, its cards checked."""
    utils = ps["utils"]

    class CheckedBot(ps["Player"]):
        def play_card(self, current_hand, card_counting_info, teams):
            trick = current_hand.current_trick
            if trick.cards:
                legal = utils.get_legal_play_indices(trick.lead_suit, current_hand.trump, self.hand)
                legal = set(code(self.hand[i]) for i in legal)
            else:
                legal = None
            card = super(CheckedBot, self).play_card(current_hand, card_counting_info, teams)
            if legal is not None and code(card) not in legal:
                harness.events["bot_illegal_cards"] += 1
            return card

    return CheckedBot(
        name,
        playing_logic=ps["CautiousTaker"](),
        bidding_logic=ps["BetterBidding"](),
    )


def make_pitchsim_seat(ps, engine, table):
    """A pysmear Player whose decisions are ``pitchsim engine``'s, from the seat's view."""
    utils = ps["utils"]

    class PitchsimSeat(ps["Player"]):
        def reset(self):
            super(PitchsimSeat, self).reset()
            self.dealt = []
            self.tricks = []

        def receive_dealt_card(self, dealt_card):
            super(PitchsimSeat, self).receive_dealt_card(dealt_card)
            self.dealt += [code(c) for c in dealt_card]

        def save_results_of_trick(self, winner_id, cards_played):
            super(PitchsimSeat, self).save_results_of_trick(winner_id, cards_played)
            self.tricks.append(played(cards_played))

        def view(self, current_hand):
            """What this seat may see: its cards, the table, the calls, the play, the scores."""
            gm = table["game"]
            calls = []
            for entry in current_hand.get_all_bids():
                calls.append("pass" if entry["bid"] == 0 else str(entry["bid"]))
                if entry["bid"] == MAX_BID:
                    break  # a 5 ends the auction (rules.md 6.3.4); pysmear asks on
            doc = {
                "rules": "smear",
                "players": PLAYERS,
                "seat": self.player_id,
                "dealer": gm.dealer,
                "hand": list(self.dealt),
                "scores": [gm.scores.get(i, 0) for i in range(PLAYERS)],
                "calls": calls,
            }
            if current_hand.trump:
                doc["trump"] = SUITS[current_hand.trump]
                tricks = list(self.tricks)
                now = played(current_hand.current_trick.cards_played)
                if now:
                    tricks.append(now)
                doc["tricks"] = [{"leader": t[0][0], "cards": [c for _, c in t]} for t in tricks]
            return doc

        def declare_bid(self, current_hand, force_two=False):
            if any(e["bid"] == MAX_BID for e in current_hand.get_all_bids()):
                # Under pitchsim's rules the auction ended at the 5: no decision to make.
                table["harness"].events["calls_after_5"] += 1
                self.bid = 0
                return 0
            action = engine.decide(self.view(current_hand))
            high = current_hand.bid
            legal = ["pass"] + [str(b) for b in range(max(2, high + 1), MAX_BID + 1)]
            if action not in legal:
                raise Forfeit("call %r is not one of %s" % (action, legal))
            self.bid = 0 if action == "pass" else int(action)
            return self.bid

        def get_trump(self):
            self.is_bidder = True
            hand = table["game"].hand_manager.current_hand
            action = engine.decide(self.view(hand))
            if action not in ["trump:" + s for s in "CDHS"]:
                raise Forfeit("trump %r is not trump:C/D/H/S" % (action,))
            self.bid_trump = SUIT_NAMES[action[-1]]
            return self.bid_trump

        def play_card(self, current_hand, card_counting_info, teams):
            action = engine.decide(self.view(current_hand))
            held = [code(c) for c in self.hand]
            trick = current_hand.current_trick
            if trick.cards:
                legal = utils.get_legal_play_indices(trick.lead_suit, current_hand.trump, self.hand)
                legal = [held[i] for i in legal]
            else:
                legal = held
            if action not in legal:
                raise Forfeit("card %r is not legal here (legal: %s)" % (action, legal))
            i = held.index(action)
            card = self.hand[i]
            del self.hand[i]
            return card

    return PitchsimSeat


def played(cards_played):
    """pysmear's trick record as ``[(seat, card), ...]`` from the leader on."""
    return [
        (e["username"], VALUES[e["card"]["value"]] + SUITS[e["card"]["suit"]]) for e in cards_played
    ]


def play_game(ps, harness, seats, deal_seed, table):
    """One game to 11 in pysmear's engine; ``seats`` are its four players, seat 0 first."""
    gm = ps["SmearGameManager"](cards_to_deal=6, score_to_play_to=TARGET, num_teams=0)
    for s in seats:
        gm.add_player(s)
    harness.start_game(deal_seed)
    table["game"] = gm
    forfeit = None
    try:
        gm.start_game()
        while not gm.is_game_over():
            gm.play_game_async()
    except Forfeit as e:
        forfeit = str(e)
    names = [s.name for s in seats]
    winners = [] if forfeit else sorted(names.index(w) for w in gm.get_winners())
    last = harness.hands[-1] if harness.hands else None
    # pysmear: a pitcher at the target wins "with his score", and everyone on that score
    # wins with him; pitchsim (rules.md 3.11) gives the win to the pitcher alone.
    pitcher_tie = bool(not forfeit and last and len(winners) > 1 and last["pitcher"] in winners)
    return {
        "deal_set": deal_seed,
        "winners": winners,
        "scores": [gm.scores.get(i, 0) for i in range(PLAYERS)],
        "hands": list(harness.hands),
        "forfeit": forfeit,
        "pitcher_tie": pitcher_tie,
    }


def share(game, seat):
    w = game["winners"]
    return 1.0 / len(w) if seat in w else 0.0


def mean_interval(xs):
    """Mean and its normal 95% interval (1.96 standard errors)."""
    n = len(xs)
    m = sum(xs) / n
    if n < 2:
        return m, None, None
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1))
    half = 1.96 * sd / math.sqrt(n)
    return m, m - half, m + half


def wilson(k, n):
    """Wilson's 95% interval for k successes in n."""
    z = 1.96
    p = k / n
    mid = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return mid - half, mid + half


def pitch_stats(games, seat_of):
    """How one seat's pitches went: how many, made, the mean bid; dealer's throw-ins."""
    pitches = made = bid_sum = thrown = hands = 0
    for g in games:
        seat = seat_of(g)
        for h in g["hands"]:
            hands += 1
            if h["thrown_in"] and h["dealer"] == seat:
                thrown += 1
            if h["pitcher"] == seat:
                pitches += 1
                bid_sum += h["bid"]
                made += 0 if h["set"] else 1
    return {
        "hands": hands,
        "pitches": pitches,
        "made": made,
        "mean_bid": bid_sum / pitches if pitches else None,
        "thrown_in_as_dealer": thrown,
        "points_per_hand": sum(h["scores"][seat_of(g)] for g in games for h in g["hands"])
        / max(hands, 1),
    }


def write_atomic(path, doc):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(doc, f, indent=1, sort_keys=True)
        f.flush()
        os.fsync(f.fileno())
    os.rename(tmp, path)


def progress(label, done, total, games, value, start):
    forfeits = sum(1 for x in games if x["forfeit"])
    sys.stderr.write(
        "%s: deal set %d/%d, %d games, %s, forfeits %d, %.0f s\n"
        % (label, done, total, len(games), value, forfeits, time.time() - start)
    )
    sys.stderr.flush()


def engine_argv(args):
    argv = [args.pitchsim, "engine", "--seed", str(args.seed)]
    return argv + (["--strategy", args.strategy] if args.strategy else [])


def run_match(args, ps, harness, save):
    """pitchsim in seat 0, 1, 2, 3 in turn on every deal set; pysmear's bots elsewhere."""
    log = open(args.engine_log, "a") if args.engine_log else None  # None: our stderr
    argv = engine_argv(args)
    engine = EngineClient(argv, args.decision_time, log)
    hello = engine.hello
    table = {"harness": harness}
    games = []
    start = time.time()
    try:
        for g in range(args.games):
            for rot in range(PLAYERS):
                seat_class = make_pitchsim_seat(ps, engine, table)
                seats = [
                    seat_class("pitchsim") if i == rot else make_bot(ps, "bot%d" % i, harness)
                    for i in range(PLAYERS)
                ]
                game = play_game(ps, harness, seats, args.seed * 100000 + g, table)
                game["pitchsim_seat"] = rot
                games.append(game)
                if game["forfeit"]:
                    # a fresh engine for the next game, as pitchsim's own tables do
                    engine.close()
                    engine = EngineClient(argv, args.decision_time, log)
            shares = [share(x, x["pitchsim_seat"]) for x in games]
            value = "pitchsim share %.3f" % (sum(shares) / len(shares))
            progress("match", g + 1, args.games, games, value, start)
            if (g + 1) % 25 == 0:
                save(games, engine.hello)
    finally:
        engine.close()
        if log is not None:
            log.close()
    return games, hello


def run_baseline(args, ps, harness):
    """pysmear's bot in all four seats on the same deal sets (one game each: deterministic)."""
    table = {"harness": harness}
    games = []
    start = time.time()
    for g in range(args.games):
        seats = [make_bot(ps, "bot%d" % i, harness) for i in range(PLAYERS)]
        games.append(play_game(ps, harness, seats, args.seed * 100000 + g, table))
        if (g + 1) % 100 == 0 or g + 1 == args.games:
            wins = [sum(share(x, s) for x in games) / len(games) for s in range(PLAYERS)]
            value = "seat shares " + " ".join("%.3f" % w for w in wins)
            progress("baseline", g + 1, args.games, games, value, start)
    return games


def summarise_match(games):
    by_set = {}
    for x in games:
        by_set.setdefault(x["deal_set"], []).append(share(x, x["pitchsim_seat"]))
    per_set = [sum(v) / len(v) for v in by_set.values()]
    m, lo, hi = mean_interval(per_set)
    n = len(games)
    sole = sum(1 for x in games if x["winners"] == [x["pitchsim_seat"]])
    shared = sum(1 for x in games if len(x["winners"]) > 1 and x["pitchsim_seat"] in x["winners"])
    forfeits = [x["forfeit"] for x in games if x["forfeit"]]
    by_seat = {}
    for x in games:
        by_seat.setdefault(x["pitchsim_seat"], []).append(share(x, x["pitchsim_seat"]))
    bots = pitch_stats(games, lambda x: (x["pitchsim_seat"] + 1) % PLAYERS)
    return {
        "deal_sets": len(per_set),
        "games": n,
        "pitchsim_share": m,
        "pitchsim_share_95": [lo, hi],
        "pitchsim_sole_wins": sole,
        "pitchsim_sole_win_rate_95_wilson": list(wilson(sole, n)),
        "pitchsim_shared_wins": shared,
        "shared_games": sum(1 for x in games if len(x["winners"]) > 1),
        "forfeits": len(forfeits),
        "forfeit_reasons": sorted(set(forfeits)),
        "pitchsim_share_by_seat": dict(
            (str(k), sum(v) / len(v)) for k, v in sorted(by_seat.items())
        ),
        "pitchsim_pitches": pitch_stats(games, lambda x: x["pitchsim_seat"]),
        "bot_after_pitchsim_pitches": bots,
        "pitcher_tie_games": sum(1 for x in games if x["pitcher_tie"]),
        "hands_per_game": sum(len(x["hands"]) for x in games) / n,
    }


def summarise_baseline(games):
    n = len(games)
    seats = {}
    for s in range(PLAYERS):
        xs = [share(x, s) for x in games]
        m, lo, hi = mean_interval(xs)
        seats[str(s)] = {
            "share": m,
            "share_95": [lo, hi],
            "pitches": pitch_stats(games, lambda x, s=s: s),
        }
    return {
        "games": n,
        "seats": seats,
        "shared_games": sum(1 for x in games if len(x["winners"]) > 1),
        "pitcher_tie_games": sum(1 for x in games if x["pitcher_tie"]),
        "hands_per_game": sum(len(x["hands"]) for x in games) / n,
    }


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pysmear", required=True, help="a pysmear checkout (pydealer in it)")
    ap.add_argument("--pitchsim", default=os.path.join(ROOT, ".venv", "bin", "pitchsim"))
    ap.add_argument("--strategy", default=None, help="engine strategy (default: the engine's)")
    ap.add_argument("--games", type=int, default=50, help="deal sets (x4 games in a match)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--decision-time", type=float, default=30.0, help="seconds per answer")
    ap.add_argument("--engine-log", default=None, help="append the engine's stderr here")
    ap.add_argument("--baseline", action="store_true", help="pysmear's bot in all 4 seats")
    ap.add_argument("--out", required=True, help="results (JSON), written atomically")
    args = ap.parse_args(argv)
    if args.games < 1 or args.decision_time <= 0 or args.seed < 0:
        ap.error("--games must be 1 or more, --decision-time above 0, --seed 0 or more")
    if not args.baseline and not os.path.exists(args.pitchsim):
        ap.error("no pitchsim at %s (--pitchsim)" % args.pitchsim)
    ps = load_pysmear(os.path.abspath(args.pysmear))
    harness = Harness(ps)
    command = " ".join(sys.argv)

    def save(games, hello=None):
        # written whole every 25 deal sets, so a run cut short keeps what it played
        if args.baseline:
            doc = {"mode": "baseline", "summary": summarise_baseline(games)}
        else:
            doc = {"mode": "match", "summary": summarise_match(games)}
            doc["engine"] = engine_argv(args)
            doc["engine_hello"] = {"name": hello.get("name"), "version": hello.get("version")}
        doc.update(events=harness.events, command=command, seed=args.seed, games=games)
        write_atomic(args.out, doc)
        return doc

    if args.baseline:
        doc = save(run_baseline(args, ps, harness))
    else:
        doc = save(*run_match(args, ps, harness, save))
    print(json.dumps(doc["summary"], indent=1, sort_keys=True))
    print("events: %s" % json.dumps(harness.events, sort_keys=True))


if __name__ == "__main__":
    main()
