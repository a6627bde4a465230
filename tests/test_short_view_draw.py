"""The short form's words for the discard and draw (``pitchsim hint --hand``,
``game.short_view``; docs/rules.md 4.8, 12.7, 12.8, 12.9): the counts each seat put
down (``--discarded``), the cards this seat drew (``--drawn``), the trumps burnt face up
(``--burnt``, 4.8 step 2), the discards face up under discards=shown (``--shown``,
12.9) and the robber's stock (``--robbed``, 4.8 step 5, 12.7).  Every card decision of
reference games, typed in these words, reads back as the same view as its JSON."""

from __future__ import annotations

import json

import pytest
from clirun import cli
from random_hands import random_hands

from pitchsim.game.cards import format_card
from pitchsim.game.rules import Rules
from pitchsim.game.short_view import short_view
from pitchsim.game.view import View, ViewError, cut_hand

SPECS = [
    ("cinch", 4),  # 4.8 with rob=dealer (12.7) and discards=shown (12.9)
    ("ten-point", 4),  # rob=true (4.8 step 5); follow=only: the opening lead alone
    ("ten-point,follow=trump", 4),
    ("ten-point,partnership=false,follow=trump", 5),  # the stock runs out (4.8 step 4)
    ("auction-pitch,deal=9,discard=draw,trump=named,discards=shown", 5),  # 12.8.2, 12.9
    ("smear,kitty=3,deal=9,discard=choice", 4),  # 12.8.1 with a kitty (12.2.2)
]


def cards(cs) -> str:
    return " ".join(format_card(c, symbols=False) for c in cs)


def own_put_down(v: View) -> tuple[int, ...]:
    """The cards the seat chose to put down: after the rob or the kitty (4.8.7, 12.2.2),
    else its own discards under discard=choice|draw (12.8.1, 12.8.2)."""
    return v.put_down or (v.discards if v.rules.discard in ("choice", "draw") else ())


def typed(v: View) -> dict:
    """The short form's words for view ``v``, as a person at the table would type them."""
    r, me = v.rules, v.seat
    words = {
        "--discarded": ",".join(str(d.discarded) for d in v.draws) if v.draws else None,
        "--drawn": cards(v.drawn) or None,
        "--burnt": "; ".join(f"{s}: {cards(d.burnt)}" for s, d in enumerate(v.draws) if d.burnt and s != me) or None,
        "--shown": "; ".join(f"{s}: {cards(d.shown)}" for s, d in enumerate(v.draws) if d.shown and s != me) or None,
        "--robbed": cards(v.robbed) or None,
        "--put-down": cards(own_put_down(v)) or None,
    }  # fmt: skip
    tricks = "; ".join(f"{t.leader}: {cards(t.cards)}" for t in v.tricks)
    return dict(
        hand=cards(v.hand), players=v.players, dealer=v.dealer, seat=me, rules=r,
        calls=",".join(("pass" if c == 0 else str(c)) for c in v.calls), tricks=tricks or None,
        trump="CDHS"[v.named] if v.named is not None else None,
        kitty=cards(v.kitty) or None, draw=words,
    )  # fmt: skip


@pytest.mark.parametrize(("spec", "n"), SPECS)
def test_every_decision_typed_in_the_short_form_reads_back_as_its_view(spec, n):
    read = 0
    for rules, hand, _ in random_hands(spec, n, 8, seed=5):
        for _seat, doc, action in cut_hand(hand, n, rules, [0] * n):
            v = View.from_json(json.loads(json.dumps(doc)), rules=rules)
            if v.phase != "play" or (rules.follow == "only" and v.tricks):
                continue  # (the short form gives no trick's seats: follow=only needs them)
            got = short_view(**typed(v))
            assert got.kept == v.kept and got.draws == v.draws, (spec, doc)
            assert got.legal() == v.legal() and action in got.legal()
            assert got.shown_out == v.shown_out and got.junk_lost == v.junk_lost
            assert got.put_down == v.put_down and got.robbed_count == v.robbed_count
            read += 1
    assert read >= (5 if Rules.parse(spec).follow == "only" else 40)


OWN_CHOICE = [
    ("ten-point", 4),  # the robber's come-down (4.8.7)
    ("cinch", 4),  # the dealer robs (12.7)
    ("smear,kitty=3", 4),  # the kitty's pitcher (12.2.2)
    ("smear,deal=9,discard=choice", 4),  # 12.8.1
    ("auction-pitch,deal=9,discard=draw,trump=named", 5),  # 12.8.2
]


@pytest.mark.parametrize(("spec", "n"), OWN_CHOICE)
def test_a_put_down_of_the_seats_own_choice_is_typed_with_put_down(spec, n):
    """Seats that put down the last card offered (not pitchsim's choice, 4.8.7, 12.2.2,
    12.8.1, 12.8.2): each later card decision typed with ``--put-down`` reads back as its
    view; left out, the short form assumes pitchsim's choice and the hand differs."""
    from test_put_down_choice import _walk

    def last_down(v):
        downs = [a for a in v.legal() if a.startswith("down:")]
        return downs[-1] if v.phase == "put_down" and downs else None

    read = differs = 0
    for g in range(8):
        _, views = _walk(spec, n, g, by_rule=False, answer=last_down)
        for v in views:
            if v.phase != "play" or not own_put_down(v) or (v.rules.follow == "only" and v.tricks):
                continue
            w = typed(v)
            got = short_view(**w)
            assert got.kept == v.kept and got.put_down == v.put_down, (spec, g)
            assert got.discards == v.discards and got.legal() == v.legal()
            read += 1
            try:
                alone = short_view(**(w | {"draw": w["draw"] | {"--put-down": None}}))
                differs += alone.kept != v.kept
            except ViewError:
                differs += 1  # (its own put-down named in another field: refused)
    assert read >= 8 and differs >= 4, (read, differs)


def test_put_down_where_no_choice_is_the_seats_is_refused_in_one_line():
    """--put-down under rules with no put-down of the seat's own choice (smear: no draw)."""
    with pytest.raises(ViewError, match="--put-down: you chose no cards to put down") as e:
        short_view(
            "AS KS 2C 3D 4H 5H", 4, 0, "2,pass,pass,pass", None, 1, None,
            Rules.parse("smear"), "S", draw={"--put-down": "2C"},
        )  # fmt: skip
    assert "\n" not in str(e.value)


def cli_words(v: View) -> list[str]:
    w = typed(v)
    args = ["--hand", w["hand"], "--players", str(w["players"]), "--dealer", str(w["dealer"])]
    args += ["--seat", str(w["seat"]), "--rules", "cinch", "--calls", w["calls"]]
    args += ["--trump", w["trump"]] + (["--tricks", w["tricks"]] if w["tricks"] else [])
    for option, value in w["draw"].items():
        if value is not None:
            args += [option, value]
    return args


def test_a_cinch_player_asks_a_hint_by_typing(tmp_path):
    """Under cinch (4.8 with rob=dealer, 12.7, and discards=shown, 12.9) ``hint --hand``
    with the draw's words answers as the seat's view file does; the dealer gives the
    stock he robbed (--robbed)."""
    asked = set()
    for rules, hand, _ in random_hands("cinch", 4, 6, seed=7):
        for seat, doc, _ in cut_hand(hand, 4, rules, [0] * 4):
            v = View.from_json(json.loads(json.dumps(doc)), rules=rules)
            robber = seat == v.dealer
            if v.phase != "play" or v.to_move != seat or robber in asked or not v.tricks:
                continue
            asked.add(robber)
            path = tmp_path / "view.json"
            path.write_text(json.dumps(doc))
            run = ("--worlds", "20", "--seed", "3", "--json", "--policy", "rollout")
            code, out, err = cli("hint", *cli_words(v), *run)
            assert code == 0, err
            assert json.loads(out) == json.loads(cli("hint", path, *run)[1])
            if robber:
                assert v.robbed and "--robbed" in cli_words(v)
    assert asked == {True, False}


def test_the_draws_words_refused_in_one_line():
    (rules, hand, _), *_ = random_hands("cinch", 4, 1, seed=7)
    doc = next(d for s, d, _ in cut_hand(hand, 4, rules, [0] * 4) if d.get("tricks"))
    v = View.from_json(doc, rules=rules)
    w = typed(v)
    for option, text, words in [
        ("--discarded", "3,3", "--discarded: 2 counts given: one for each of the 4 seats"),
        ("--discarded", "3,x,3,3", "count 2 must be a whole number"),
        ("--shown", "9: 2C", r"must start with a seat \(0-3\)"),
        ("--burnt", "1: 2C; 1: 3C", "seat 1 is given twice"),
    ]:
        with pytest.raises(ViewError, match=words) as e:
            short_view(**(w | {"draw": w["draw"] | {option: text}}))
        assert "\n" not in str(e.value)
    hidden = Rules.parse("cinch,discards=hidden")
    with pytest.raises(ViewError, match="--shown: under cinch,discards=hidden the discards"):
        short_view(**(w | {"rules": hidden, "draw": w["draw"] | {"--shown": "1: 2C"}}))


def test_trumps_burnt_face_up_typed_and_worked_out():
    """4.8 step 2: a seat dealt more than 6 trumps burns the excess face up by rule X;
    the other seats type them (--burnt), the seat's own are worked out.  Deals stacked
    with eight hearts to one seat (tests/test_family_hidden.py)."""
    from test_family_hidden import card_views, played_hands

    own = others = 0
    for seed in range(3):
        spec = "ten-point,follow=trump"
        for rules, hand, before in played_hands(spec, 4, seed, hands=2, stacked=True):
            for v in card_views(rules, hand, 4, before):
                if not any(d.burnt for d in v.draws):
                    continue
                got = short_view(**typed(v))
                assert got.kept == v.kept and got.burnt == v.burnt and got.draws == v.draws
                own += bool(v.burnt)
                others += any(d.burnt for s, d in enumerate(v.draws) if s != v.seat)
    assert own > 0 and others > 0
