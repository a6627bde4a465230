"""Re-score every hand pysmear played (scripts/pysmear_match.py) by pitchsim's smear preset.

The match's JSON keeps each hand whole (every seat's six cards, the calls, trump, every
card in the order pysmear's engine took it, pysmear's score for the hand) and each game's
winners.  This replays them through pitchsim's reference rules
(pitchsim/game/reference/: the auction, the play with its legal cards, the
points, made and set, the end of the game) and counts every place the two engines
disagree, so the match's rules are checked on the hands actually played, not only read.

    .venv/bin/python scripts/pysmear_check.py /tmp/pysmear-match.json [--rules smear]
        [--baseline /tmp/pysmear-baseline.json]

With ``--baseline`` (the all-bots run on the same deal sets) it also pairs every hand
pitchsim played with the same hand (deal set, hand number: the same cards and dealer)
played by pysmear's bot in the same seat: the mean difference in the seat's score for
the hand, with a 95% interval over deal sets (the hands of one deal set are not
independent).  Hands exist in both only while both games last.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pitchsim.game.cards import mask_of, parse_card, parse_suit  # noqa: E402
from pitchsim.game.reference import (  # noqa: E402
    PASS,
    play_hand,
    run_auction,
    settle_hand,
    winners,
)
from pitchsim.game.rules import Rules, RulesError  # noqa: E402


def check_hand(hand: dict, scores: list[int], rules: Rules) -> tuple[list[int], str | None, dict]:
    """pitchsim's score for one pysmear hand, and what (if anything) disagrees."""
    players = len(hand["dealt"])
    calls = [bid for _, bid in hand["calls"]]
    seats = [seat for seat, _ in hand["calls"]]
    asked: list[int] = []

    def call(seat: int, made: list[int], legal: list[int]) -> int:
        asked.append(seat)
        return calls[len(asked) - 1]

    try:
        auction = run_auction(hand["dealer"], players, call, rules, scores)
    except ValueError as e:
        return [], f"auction: {e}", {}
    if asked != seats[: len(asked)] or any(b != PASS for b in calls[len(asked) :]):
        return [], f"auction: pitchsim asked {asked}, pysmear {seats} {calls}", {}
    if auction.pitcher is None:
        mine = [-2 if s == hand["dealer"] else 0 for s in range(players)]
        what = None if hand["thrown_in"] else "auction: pitchsim throws in, pysmear plays"
        return mine, what, {"pitcher": None, "made": False}
    if hand["thrown_in"] or (auction.pitcher, auction.bid) != (hand["pitcher"], hand["bid"]):
        got = (auction.pitcher, auction.bid)
        return [], f"auction: pitchsim {got}, pysmear {hand['pitcher'], hand['bid']}", {}
    held = [mask_of(parse_card(c) for c in cards) for cards in hand["dealt"]]
    plays = list(hand["plays"])

    def choose(view) -> int:
        seat, c = plays.pop(0)
        if seat != view.seat:
            raise ValueError(
                f"pysmear's seat {seat} played where pitchsim's seat {view.seat} was to"
            )
        return parse_card(c)

    try:
        record = play_hand(
            held, auction.pitcher, choose, rules, auction.bid, parse_suit(hand["trump"])
        )
    except ValueError as e:
        return [], f"play: {e}", {}
    mine = settle_hand(record.score.points, auction.pitcher, auction.bid, rules)
    made = record.score.points[auction.pitcher] >= auction.bid
    what = None
    if mine != hand["scores"]:
        nobody = [k for k in ("high", "low") if record.score.awards.get(k) is None]
        why = " (no trump in play: pysmear gives High and Low to seat 0)" if nobody else ""
        what = f"score: pitchsim {mine}, pysmear {hand['scores']}{why}"
    return mine, what, {"pitcher": auction.pitcher, "made": made, "awards": record.score.awards}


def check(doc: dict, rules: Rules) -> dict:
    out: Counter = Counter()
    examples: dict[str, str] = {}
    for game in doc["games"]:
        scores = [0] * len(game["scores"])
        ended = None
        for i, hand in enumerate(game["hands"]):
            out["hands"] += 1
            mine, what, info = check_hand(hand, scores, rules)
            if what:
                kind = what.split(":")[0]
                out[f"hands disagreeing ({kind})"] += 1
                examples.setdefault(kind, f"deal set {game['deal_set']}, hand {i + 1}: {what}")
                mine = hand["scores"]  # go on from pysmear's totals
            scores = [a + b for a, b in zip(scores, mine, strict=True)]
            if info and ended is None:
                won = winners(scores, info["pitcher"], info["made"], rules)
                if won:
                    ended = (i, won)
        out["games"] += 1
        if game["forfeit"]:
            out["games forfeited (not checked)"] += 1
            continue
        if scores != game["scores"]:
            out["games whose totals disagree"] += 1
        if ended is None or ended[0] != len(game["hands"]) - 1:
            out["games ending at another hand"] += 1
            examples.setdefault("end", f"deal set {game['deal_set']}: ended {ended}")
        elif ended[1] != game["winners"]:
            out["games with other winners"] += 1
            examples.setdefault(
                "winners",
                f"deal set {game['deal_set']}: pitchsim {ended[1]}, pysmear {game['winners']}",
            )
    return {"counts": dict(sorted(out.items())), "examples": examples}


def margin(scores: list[int], seat: int) -> float:
    others = [x for s, x in enumerate(scores) if s != seat]
    return scores[seat] - sum(others) / len(others)


def cluster_mean(groups: dict[int, list[float]]) -> list[float]:
    """The mean over groups of each group's mean, and its 95% interval (1.96 s.e.)."""
    means = [sum(v) / len(v) for v in groups.values()]
    n = len(means)
    m = sum(means) / n
    half = 1.96 * (sum((x - m) ** 2 for x in means) / (n - 1)) ** 0.5 / n**0.5
    return [m, m - half, m + half]


def awards(hand: dict, rules: Rules) -> dict:
    """Who took each point of a played hand, by pitchsim's scoring (none: thrown in)."""
    info = check_hand(hand, [0] * len(hand["dealt"]), rules)[2]
    return info.get("awards") or {}


def paired(match: dict, baseline: dict, rules: Rules) -> dict:
    """pitchsim's score for a hand less the bot's, same cards, same seat, same dealer."""
    bots = {g["deal_set"]: g for g in baseline["games"]}
    taken: Counter = Counter()  # point name -> pitchsim's less the bot's, summed
    per_set: dict[int, list[float]] = {}
    margins: dict[int, list[float]] = {}
    as_pitcher: list[float] = []
    bot_pitched: list[float] = []
    for game in match["games"]:
        other = bots.get(game["deal_set"])
        if other is None:
            continue
        seat = game["pitchsim_seat"]
        for mine, theirs in zip(game["hands"], other["hands"], strict=False):
            d = mine["scores"][seat] - theirs["scores"][seat]
            per_set.setdefault(game["deal_set"], []).append(d)
            # the seat's score less the others' mean: what a cutthroat game is won on
            lead = [margin(h["scores"], seat) for h in (mine, theirs)]
            margins.setdefault(game["deal_set"], []).append(lead[0] - lead[1])
            for h, sign in ((mine, 1), (theirs, -1)):
                for name, who in awards(h, rules).items():
                    taken[name] += sign * (who == seat)
            if mine["pitcher"] == seat:
                as_pitcher.append(d)
            if theirs["pitcher"] == seat:
                bot_pitched.append(d)
    if len(per_set) < 2:
        return {"deal_sets": len(per_set)}
    n_hands = sum(len(v) for v in per_set.values())
    return {
        "deal_sets": len(per_set),
        "hands": sum(len(v) for v in per_set.values()),
        "points_per_hand_vs_bot": cluster_mean(per_set),
        "margin_per_hand_vs_bot": cluster_mean(margins),
        "hands_pitchsim_pitched": len(as_pitcher),
        "mean_diff_when_pitchsim_pitched": sum(as_pitcher) / max(len(as_pitcher), 1),
        "hands_bot_pitched_in_that_seat": len(bot_pitched),
        "mean_diff_when_bot_pitched": sum(bot_pitched) / max(len(bot_pitched), 1),
        "points_taken_per_hand_vs_bot": {k: v / n_hands for k, v in sorted(taken.items())},
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("results", help="the JSON written by scripts/pysmear_match.py")
    ap.add_argument("--rules", default="smear")
    ap.add_argument("--baseline", help="the all-bots run on the same deal sets")
    args = ap.parse_args(argv)
    try:
        rules = Rules.parse(args.rules)
        doc = json.loads(Path(args.results).read_text())
        games = doc["games"]
        base = json.loads(Path(args.baseline).read_text()) if args.baseline else None
    except (OSError, ValueError, KeyError, RulesError) as e:
        print(f"pysmear_check: {args.results}: {e}", file=sys.stderr)
        return 2
    hands = [h for g in games for h in g["hands"]]
    if not hands or any("dealt" not in h for h in hands):
        print(f"pysmear_check: {args.results} keeps no whole hands", file=sys.stderr)
        return 2
    out = check(doc, rules)
    if base is not None:
        if doc.get("mode") != "match" or base.get("mode") != "baseline":
            print("pysmear_check: --baseline pairs a match with a baseline run", file=sys.stderr)
            return 2
        out["paired"] = paired(doc, base, rules)
    print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
