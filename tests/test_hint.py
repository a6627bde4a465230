"""``pitchsim hint``: only the player to move's view counts, and its estimates are right."""

import itertools
import json
import random

import numpy as np
import pytest
from clirun import cli

from pitchsim.game.reference import deal_hands, shows_void
from pitchsim.game.rules import Rules
from pitchsim.kernels.search.resample import draw_world
from pitchsim.search.hint import HintError, hint
from pitchsim.search.position import PositionError, parse_position, start_position


def random_position(rng, n, rules, cards_played, bid=2):
    """A deal played at random up to ``cards_played`` cards (seat 0 pitches)."""
    pos = start_position(deal_hands(rng, n), 0, rules, bid)
    for _ in range(cards_played):
        legal = [c for c in range(52) if pos.legal() >> c & 1]
        pos = pos.play(rng.choice(legal))
    return pos


def voids_of(pos):
    n = pos.players
    voids = 0
    for t in pos.tricks:
        led = t.cards[0] // 13
        for i, c in enumerate(t.cards[1:], 1):
            if shows_void(c, led, pos.trump, pos.rules):
                voids |= 1 << (4 * ((t.leader + i) % n) + led)
    return voids


def reshuffled(pos, key):
    """The same position with the cards the player to move cannot see dealt afresh,
    consistent with everything he saw (voids included)."""
    n, me = pos.players, pos.to_play
    seen = pos.hands[me]
    for d, h in zip(pos.dealt, pos.hands, strict=True):
        seen |= d & ~h
    unseen = ((1 << 52) - 1) & ~seen
    voids = voids_of(pos)
    counts = np.array([h.bit_count() for h in pos.hands])
    allowed = np.array(
        [
            unseen & ~sum(0x1FFF << (13 * s) for s in range(4) if voids >> (4 * seat + s) & 1)
            for seat in range(n)
        ]
    )
    world = np.zeros(n, dtype=np.int64)
    for attempt in itertools.count():
        if draw_world(
            np.uint64(key), attempt, n, me, pos.hands[me], unseen, counts, allowed, world
        ):
            break
    doc = pos.to_json()
    played = pos.played_by
    doc["hands"] = [
        [
            f"{'23456789TJQKA'[c % 13]}{'CDHS'[c // 13]}"
            for c in range(52)
            if (int(world[s]) | played[s]) >> c & 1
        ]
        for s in range(n)
    ]
    return parse_position(doc)


@pytest.mark.parametrize("policy", ["rollout", "pimc"])
def test_hidden_hands_do_not_change_the_answer(policy):
    rng = random.Random(4)
    for i in range(8 if policy == "rollout" else 3):
        rules = [Rules(), Rules(partnership=True), Rules(follow="suit")][i % 3]
        n = 4 if rules.partnership else rng.randrange(3, 6)
        pos = random_position(rng, n, rules, rng.randrange(n, 4 * n))
        other = reshuffled(pos, i)
        assert other.dealt != pos.dealt or n * 6 == 52  # the hidden cards did move
        a = hint(pos, policy, 50, seed=7).to_json()
        b = hint(other, policy, 50, seed=7).to_json()
        assert a == b


def test_hint_values_every_legal_card_and_recommends_one():
    rng = random.Random(2)
    pos = random_position(rng, 4, Rules(), 5)
    h = hint(pos, "rollout", 100, seed=1)
    legal = pos.legal()
    assert sorted(c.card for c in h.cards) == [c for c in range(52) if legal >> c & 1]
    assert legal >> h.recommended & 1
    assert h.worlds == 100 and h.attempts >= 100
    for c in h.cards:
        assert 0 <= c.points <= 4
        assert all(0 <= p <= 1 for p in c.p_at_least)
        assert list(c.p_at_least) == sorted(c.p_at_least, reverse=True)


def name(card):
    return f"{'23456789TJQKA'[card % 13]}{'CDHS'[card // 13]}"


def held_names(pos, seat):
    return {name(c) for c in range(52) if pos.hands[seat] >> c & 1}


def exact_last_trick(pos):
    """Exact mean points and P(make) for the pitcher's side, over every deal of the
    unseen cards to the seats still to play in the last trick (uniform worlds)."""
    n, me = pos.players, pos.to_play
    seen = pos.hands[me]
    for d, h in zip(pos.dealt, pos.hands, strict=True):
        seen |= d & ~h
    unseen = [c for c in range(52) if not seen >> c & 1]
    voids = voids_of(pos)
    after = [(me + k) % n for k in range(1, n) if pos.hands[(me + k) % n]]
    mine = next(c for c in range(52) if pos.hands[me] >> c & 1)
    doc = pos.to_json()
    total = made = count = 0
    for cards in itertools.permutations(unseen, len(after)):
        if any(voids >> (4 * s + c // 13) & 1 for s, c in zip(after, cards, strict=True)):
            continue
        # This world: each seat still to play was dealt the hidden card given here (and
        # the cards it has played); the rest of the unseen cards are out of play.
        hands = [list(h) for h in doc["hands"]]
        for s, c in zip(after, cards, strict=True):
            hands[s] = [x for x in hands[s] if x not in held_names(pos, s)] + [name(c)]
        p = parse_position({**doc, "hands": hands}).play(mine)
        for c in cards:
            p = p.play(c)
        pts = p.points()
        total += pts
        made += pts >= pos.bid
        count += 1
    return total / count, made / count


@pytest.mark.parametrize("policy", ["rollout", "pimc"])
def test_hint_estimates_match_exact_values_in_the_last_trick(policy):
    """The last trick, two seats still to play: every world can be enumerated."""
    rng = random.Random(6)
    checked = 0
    while checked < 3:
        pos = random_position(rng, 4, Rules(), 5 * 4 + 1, bid=2)
        mean, p_make = exact_last_trick(pos)
        if not 0 < p_make < 1:
            continue
        h = hint(pos, policy, 2000, seed=checked)
        (c,) = h.cards
        se = np.sqrt(max(mean * (4 - mean), 0.01) / 2000)  # points lie in 0..4
        assert abs(c.points - mean) < 4 * se, (c.points, mean)
        se_p = np.sqrt(p_make * (1 - p_make) / 2000)
        assert abs(c.p_at_least[1] - p_make) < 4 * se_p, (c.p_at_least[1], p_make)
        checked += 1


def test_cli_text_and_json(tmp_path):
    rng = random.Random(3)
    pos = random_position(rng, 4, Rules(), 6)
    f = tmp_path / "pos.json"
    f.write_text(json.dumps(pos.to_json()))
    code, out, err = cli(
        "hint",
        str(f),
        "--policy",
        "rollout",
        "--worlds",
        "60",
        "--seed",
        "2",
        "--all-worlds",
        "--json",
    )
    assert code == 0 and err == ""
    doc = json.loads(out)
    assert doc["to_play"] == pos.to_play and doc["worlds"] == 60 and doc["seed"] == 2
    assert doc["recommended"] in [c["card"] for c in doc["cards"]]
    code, text, _ = cli("hint", str(f), "--policy", "rollout", "--worlds", "60", "--seed", "2")
    assert code == 0
    assert f"Seat {pos.to_play} to play" in text and "Play " in text


@pytest.mark.parametrize(
    "args, message",
    [
        (["--policy", "heuristic"], "--policy must be one of pimc, rollout"),
        (["--worlds", "0"], "worlds must be"),
    ],
)
def test_cli_bad_options(tmp_path, args, message):
    pos = random_position(random.Random(1), 4, Rules(), 2)
    f = tmp_path / "pos.json"
    f.write_text(json.dumps(pos.to_json()))
    code, _, err = cli("hint", str(f), *args)
    assert code == 2 and err.startswith("pitchsim: error: ") and message in err


def test_cli_bad_positions(tmp_path):
    done = random_position(random.Random(1), 3, Rules(), 18)
    f = tmp_path / "done.json"
    f.write_text(json.dumps(done.to_json()))
    code, _, err = cli("hint", str(f))
    assert code == 2 and "nobody is to play" in err
    code, _, err = cli("hint", str(tmp_path / "missing.json"))
    assert code == 2 and "cannot read" in err
    with pytest.raises((HintError, PositionError)):
        hint(done)
