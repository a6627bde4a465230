"""Rule families as data: parsing, normalising, conflicts, joker cards, the `rules`
command, fuzzed rule strings of every family, and every command playing them (or
refusing them in one line)."""

import json
from pathlib import Path

import pytest
from clirun import cli
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pitchsim.game.cards import (
    HIGH_JOKER,
    LOW_JOKER,
    CardError,
    format_cards,
    parse_card,
    parse_cards,
    parse_hand,
)
from pitchsim.game.presets import FAMILIES, family_text, label, spec
from pitchsim.game.rules import BASE_RULES, Rules, RulesError

# VARIANTS.md 1.3, 2.14, 3.14 and 4.14, the generic forms, copied as written.
GENERIC_FORMS = {
    "auction-pitch": "jokers=0 jick=false game=count three=false five=false deal=6 discard=none "
    "rob=false trump=first-lead min-bid=1 dealer-steal=true all-pass=forced low=captured "
    "follow=trump shoot=false target=7 win=pitcher set-pitcher-wins=false partnership=false",
    "setback": "partnership=true jokers=0 jick=false game=count three=false five=false deal=6 "
    "discard=none rob=false trump=first-lead min-bid=2 dealer-steal=max all-pass=next-dealer "
    "low=captured follow=trump shoot=false target=11 win=highest",
    "smear": "partnership=false jokers=0 jick=true game=count three=false five=false deal=6 "
    "discard=none rob=false trump=named lead-trump=false min-bid=2 dealer-steal=false "
    "all-pass=dealer-set low=dealt follow=trump shoot=false target=11 win=pitcher-first",
    "ten-point": "partnership=true jokers=2 jick=true game=ten three=true five=false deal=9 "
    "discard=non-trump rob=true trump=named lead-trump=true min-bid=5 dealer-steal=false "
    "all-pass=redeal low=dealt follow=only shoot=false target=32 win=pitcher-first",
    # VARIANTS.md 8.13 and 10.8 without the options of §12 pitchsim does not play yet
    # (partner=none deck=2-A kitty=0 discards=hidden set=minus hands=off: their defaults)
    "five-point": "partnership=true jokers=0 jick=true game=count three=false five=false "
    "deal=6 discard=none rob=false trump=named lead-trump=true min-bid=2 dealer-steal=false "
    "all-pass=redeal low=dealt follow=trump shoot=false target=11 win=pitcher-first",
    # VARIANTS.md 9.6: 8.13 with jokers=1 joker-game=half
    "six-point": "partnership=true jokers=1 jick=true game=count three=false five=false "
    "deal=6 discard=none rob=false trump=named lead-trump=true min-bid=2 dealer-steal=false "
    "all-pass=redeal low=dealt follow=trump shoot=false joker-game=half target=11 "
    "win=pitcher-first",
    "seven-point": "partnership=true jokers=2 jick=true game=ten three=false five=false "
    "deal=9 discard=non-trump rob=true trump=named lead-trump=true min-bid=3 "
    "dealer-steal=false all-pass=redeal low=dealt follow=trump shoot=false target=21 "
    "win=pitcher-first",
    # VARIANTS.md 11.14 (partner=none deck=2-A kitty=0 hands=off: their defaults)
    "cinch": "partnership=true jokers=0 jick=false game=ten three=false five=pedro deal=9 "
    "discard=non-trump discards=shown rob=dealer trump=named lead-trump=false min-bid=1 "
    "dealer-steal=false all-pass=dealer-free low=captured follow=trump shoot=false set=minus "
    "target=51 win=pitcher-first",
}
MAX_BIDS = {"auction-pitch": 4, "setback": 4, "smear": 5, "ten-point": 10}  # VARIANTS.md 6.4
MAX_BIDS |= {"five-point": 5, "six-point": 6, "seven-point": 7}  # VARIANTS.md 8.9, 9.4, 10.4
MAX_BIDS |= {"cinch": 14}  # VARIANTS.md 11.10


@pytest.mark.parametrize("family", list(GENERIC_FORMS))
def test_each_preset_is_its_generic_form(family):
    got = Rules.parse(family)
    written = Rules.parse(GENERIC_FORMS[family].replace(" ", ","))
    assert got.describe() | {"family": "x"} == written.describe() | {"family": "x"} or (
        family == "auction-pitch" and got == written == BASE_RULES
    )
    assert getattr(got, "max_bid", 4) == MAX_BIDS[family]


def test_the_base_game_is_the_auction_pitch_preset():
    # One rules type: a rule string gives the auction-pitch preset, equal to (and
    # hashing as) the base game's Rules, and says it is the base game's shape.
    parsed = Rules.parse("auction-pitch")
    assert type(parsed) is type(Rules.parse("smear")) is type(Rules.parse("low=dealt"))
    assert parsed == BASE_RULES and hash(parsed) == hash(BASE_RULES) and parsed.base_game
    assert Rules.parse("auction-pitch,low=dealt,target=11") == Rules(low="dealt", target=11)
    assert Rules.parse("low=dealt") != BASE_RULES
    # any option beyond the base game's (VARIANTS.md 6.1) leaves its shape
    for text in ("auction-pitch,jokers=1", "dealer-steal=max", "follow=only,trump=named"):
        assert not Rules.parse(text).base_game, text
        assert Rules.parse(text) != BASE_RULES, text
    # the base game keeps min-bid 1 or 2 (1.2); a preset's bids go higher (6.1)
    with pytest.raises(RulesError, match="min-bid must be 1 or 2, not 3"):
        Rules.parse("min-bid=3")
    assert Rules.parse("auction-pitch,jokers=1,min-bid=3").min_bid == 3
    assert Rules.parse("low=dealt").describe() == Rules(low="dealt").describe()
    assert list(Rules().describe()) == [
        "low",
        "min-bid",
        "all-pass",
        "dealer-steal",
        "follow",
        "target",
        "set-pitcher-wins",
        "partnership",
    ]


@pytest.mark.parametrize(
    "text",
    [
        "smear",
        "smear,target=15",
        "ten-point,jokers=1",
        "ten-point,follow=trump,low=captured",
        "setback,target=21",
        "jokers=2,trump=named",
        "dealer-steal=max",
        "shoot=true",
    ],
)
def test_family_rules_name_the_complete_rules_and_read_back(text):
    rules = Rules.parse(text)
    doc = rules.describe()
    assert list(doc)[0] == "family" and len(doc) == 26  # family, every option
    assert Rules.parse(doc) == rules
    assert Rules.parse(spec(rules)) == rules
    assert Rules.parse(label(rules)) == rules


def test_options_after_a_family_change_only_themselves():
    r = Rules.parse("smear,target=15")
    assert r.target == 15 and r.jick and r.min_bid == 2 and label(r) == "smear,target=15"
    assert Rules.parse("ten-point", partnership=True) == Rules.parse("ten-point")
    assert Rules.parse({"family": "smear", "target": 15}) == r


@pytest.mark.parametrize(
    "text, message",
    [
        ("ten-point,jokers=0", "ten-point,jokers=0: ten-point is played with jokers=2 (or 1)"),
        ("smear,jick=false", "smear,jick=false: smear is played with jick=true"),
        ("ten-point,three=false", "ten-point is played with three=true"),
        (
            "smeer",
            "unknown rule family 'smeer' (families: auction-pitch, setback, smear, ten-point",
        ),
        ("target=11,smear", "the rule family smear comes first"),
        ("smear,setback", "the rule family setback comes first"),
        ("family=bridge", "unknown rule family 'bridge'"),
        ("smear,family=setback", "given twice"),
        ("ten-point,min-bid=11", "min-bid must be 1-10 with a maximum bid of 10, not 11"),
        ("smear,min-bid=0", "min-bid must be 1-5 with a maximum bid of 5, not 0"),
        ("smear,dealer-steal=maybe", "dealer-steal takes true or false (or max)"),
        ("smear,follow=never", "follow must be 'trump' or 'suit' or 'only'"),
        ("smear,deal=7", "deal must be 6 or 9"),
        ("jokers=3", "jokers must be 0-2"),
        ("setback,follow=only", "follow=only needs trump=named"),
    ],
)
def test_bad_family_rules_are_one_line_naming_the_conflict(text, message):
    with pytest.raises(RulesError) as e:
        Rules.parse(text)
    assert message in str(e.value) and "\n" not in str(e.value)


def test_player_counts_of_each_family():
    assert [n for n in range(2, 8) if _plays(Rules.parse("ten-point,partnership=false"), n)] == [
        4,
        5,
        6,
    ]
    assert [n for n in range(2, 8) if _plays(Rules.parse("setback"), n)] == [4]
    assert [n for n in range(2, 8) if _plays(Rules.parse("smear"), n)] == [2, 3, 4, 5, 6, 7]
    # ten-point in teams at 5: the refusal says how 5 play it (4.1), smear's asks for none
    with pytest.raises(RulesError) as e:
        Rules.parse("ten-point").check_players(5)
    assert str(e.value) == (
        "partnership needs exactly 4 players, not 5 (ten-point,partnership=false: each for himself)"
    )
    with pytest.raises(RulesError) as e:
        Rules.parse("smear,partnership=true").check_players(5)
    assert str(e.value) == "partnership needs exactly 4 players, not 5"


def _plays(rules, n) -> bool:
    try:
        rules.check_players(n)
    except RulesError:
        return False
    return True


# ---- jokers as cards ---------------------------------------------------------------------------


def test_jokers_are_named_hj_and_lj_and_exist_only_in_a_deck_with_them():
    assert parse_cards("AH HJ lj", jokers=2) == [parse_card("AH"), HIGH_JOKER, LOW_JOKER]
    assert parse_cards("AhHJ2h", jokers=1) == [parse_card("AH"), HIGH_JOKER, parse_card("2H")]
    assert format_cards([HIGH_JOKER, LOW_JOKER]) == "HJ LJ"
    assert parse_card("JH") != HIGH_JOKER  # the jack of hearts
    with pytest.raises(CardError, match=r"^HJ is not in this deck \(no jokers\)$"):
        parse_cards("AH HJ")
    with pytest.raises(CardError, match=r"^LJ is not in this deck \(one joker, HJ\)$"):
        parse_card("LJ", jokers=1)
    with pytest.raises(CardError, match="duplicate card HJ"):
        parse_cards("HJ 2C HJ", jokers=2)
    assert len(parse_hand("HJ LJ AH KH QH JH", jokers=2)) == 6


def test_a_joker_in_a_four_point_command_is_one_line(capsys):
    code, _, err = cli("bid-odds", "HJ KH 2H 9C 7D 3S")
    assert code == 2 and "HJ is not in this deck (no jokers)" in err


# ---- the rules command -------------------------------------------------------------------------


@pytest.mark.parametrize("family", list(FAMILIES))
def test_rules_prints_the_family_in_full(family):
    code, out, _ = cli("rules", "--rules", f"{family},target=15")
    assert code == 0
    if family == "auction-pitch":
        assert "Options in force (* = not the base rule)" in out  # the base game, as ever
        return
    assert out.startswith(f"{family},target=15: ") and "* target" in out
    assert "Points (" in out and "Trump order with hearts trump" in out
    code, out, _ = cli("rules", "--rules", family, "--json")
    doc = json.loads(out)
    assert doc["rules"]["family"] == family and doc["changed"] == []
    assert doc["max_bid"] == MAX_BIDS[family] == sum(p["value"] for p in doc["points"])
    assert Rules.parse(doc["spec"]) == Rules.parse(family)


def test_rules_prints_the_ten_point_trump_order_and_points():
    _, out, _ = cli("rules", "--rules", "ten-point")
    assert "A♥ K♥ Q♥ J♥ J♦ HJ LJ 10♥ 9♥ 8♥ 7♥ 6♥ 5♥ 4♥ 3♥ 2♥ (16 cards)" in out
    assert "the 3 of trump: 3 to its captor" in out
    assert "Low, the lowest trump in play (never a joker): 1 to its holder" in out


@pytest.mark.parametrize("shown", ["hidden", "shown"])
def test_rules_prints_whether_the_discards_in_turn_are_face_up(shown):
    # 12.8.4 face down, 12.9 face up under discards=shown, the kitty's put-down too (12.9.1)
    _, out, _ = cli("rules", "--rules", f"smear,deal=9,kitty=3,discard=draw,discards={shown}")
    face = "face up (seen by all)" if shown == "shown" else "face down"
    kitty = next(x for x in out.splitlines() if x.startswith("- Kitty:"))
    draw = next(x for x in out.splitlines() if x.startswith("- After trump is named"))
    assert f"comes down to 6 {face}" in kitty and f"discards {face} every non-trump" in draw
    _, out, _ = cli(
        "rules", "--rules", f"auction-pitch,deal=9,discard=choice,trump=named,discards={shown}"
    )
    assert f"more than 6 discards {face} to 6" in out


def test_docs_have_a_section_per_family_saying_what_rules_prints():
    doc = (Path(__file__).parent.parent / "docs" / "rules.md").read_text()
    for name in FAMILIES:
        if name == "auction-pitch":
            continue
        section = doc.split(f"### `{name}`")[1].split("```sh")[0]
        for line in family_text(Rules.parse(name)).splitlines()[1:]:
            assert line.strip().lstrip("- ") in section, (name, line)


# ---- every other command refuses a family, naming it --------------------------------------------


# bid-odds, play, tournament, simulate, table, chart and advise play the families
# (tests/test_families_odds.py, tests/test_families_cli.py, tests/test_family_study.py,
# tests/test_advise_presets.py).


@pytest.fixture(scope="module")
def position(tmp_path_factory):
    """A position of a played round, as `play --json` writes it."""
    code, out, _ = cli("play", "--seed", "1", "--json")
    assert code == 0
    doc = json.loads(out)
    doc["tricks"] = doc["tricks"][:2]
    return doc


@pytest.mark.parametrize("command", ["hint", "solve"])  # both take a preset's position
def test_a_base_round_relabelled_as_a_preset_is_read_by_its_rules(tmp_path, position, command):
    path = tmp_path / "pos.json"
    path.write_text(json.dumps(position | {"rules": "smear"}))
    code, _, err = cli(
        command, path, *(["--worlds", "5", "--seed", "1"] if command == "hint" else [])
    )
    assert code == 2 and "is not a legal play under smear" in err, err  # smear's follow rule


@pytest.mark.parametrize("command", ["table", "chart"])
def test_table_and_chart_refuse_a_base_run_relabelled_as_a_family(tmp_path, command):
    """A manifest that says ten-point over a base game's parts: refused (each part's
    footer names the rules it was played under), never read under the wrong rules."""
    run = tmp_path / "run"
    code, _, _ = cli("simulate", "--deals", "20", "--seed", "3", "--out", run, "--quiet")
    assert code == 0
    manifest = json.loads((run / "manifest.json").read_text())
    manifest["rules"] = Rules.parse("ten-point").describe()
    (run / "manifest.json").write_text(json.dumps(manifest))
    extra = ["--kind", "bid-curve", "--out", tmp_path / "c.png"] if command == "chart" else []
    code, _, err = cli(command, run, *extra)
    assert code == 2 and err.count("\n") == 1, err
    assert "was played under auction-pitch, not ten-point" in err, err


# ---- fuzzed rule strings of every family ---------------------------------------------------------

OPTIONS = {  # every option with good and bad values (VARIANTS.md 6.1)
    "partnership": ["true", "false", "maybe"],
    "jokers": ["0", "1", "2", "3", "-1", "x"],
    "jick": ["true", "false", "on", "7"],
    "game": ["count", "ten", "none"],
    "three": ["true", "false"],
    "five": ["true", "false"],
    "deal": ["6", "9", "7", ""],
    "discard": ["none", "non-trump", "all"],
    "rob": ["true", "false"],
    "trump": ["first-lead", "named", "led"],
    "lead-trump": ["true", "false"],
    "min-bid": ["1", "2", "4", "5", "9", "11", "0", "+3", "9" * 30],
    "dealer-steal": ["true", "false", "max", "MAX", "min"],
    "all-pass": ["forced", "redeal", "next-dealer", "dealer-set", "never"],
    "low": ["captured", "dealt", "held"],
    "follow": ["trump", "suit", "only", "none"],
    "shoot": ["true", "false"],
    "target": ["1", "7", "32", "100", "101", "0"],
    "win": ["pitcher", "pitcher-first", "highest", "lowest"],
    "set-pitcher-wins": ["true", "false"],
    "colour": ["red"],
    "family": ["smear", "bridge"],
}
item = st.sampled_from(sorted(OPTIONS)).flatmap(
    lambda k: st.sampled_from(OPTIONS[k]).map(lambda v: f"{k}={v}")
)
head = st.sampled_from([*FAMILIES, "smeer", ""])
family_rule_text = st.tuples(head, st.lists(item, max_size=4)).map(
    lambda t: ",".join(([t[0]] if t[0] else []) + t[1])
)


@settings(
    max_examples=600,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(family_rule_text)
def test_family_rule_strings_mean_what_they_say_or_are_refused(text):
    try:
        rules = Rules.parse(text)
    except RulesError as e:
        assert "\n" not in str(e) and str(e)
        return
    items = text.split(",")
    given_ = dict(i.split("=", 1) for i in items if "=" in i)
    family = items[0] if items[0] in FAMILIES else given_.get("family", "auction-pitch")
    doc = rules.describe()
    assert doc.get("family", "auction-pitch") == family or (
        family == "auction-pitch" and rules.base_game
    )
    # every option given has the value given; every other one the family's (6.4)
    preset = dict(i.split("=", 1) for i in GENERIC_FORMS[family].split())
    full = {
        k: _text(v)
        for k, v in Rules(
            **{k.replace("-", "_"): v for k, v in rules.describe().items()}
            | ({} if "family" in doc else {"family": "auction-pitch"})
        )
        .describe_in_full()
        .items()
    }
    for k in OPTIONS:
        if k in ("colour", "family"):
            continue
        want = given_.get(
            k, preset.get(k, {"lead-trump": "false", "set-pitcher-wins": "false"}.get(k))
        )
        if k == "min-bid":
            want = str(int(want))
        if k == "dealer-steal":
            want = want.lower()
        if k in ("jick",) and want == "on":
            want = "true"
        assert full[k] == want, (text, k)
    assert Rules.parse(doc) == rules and Rules.parse(spec(rules)) == rules
    # the combinations of 6.3 hold in whatever was accepted
    r = Rules(**{k.replace("-", "_"): v for k, v in full_typed(rules).items()})
    assert r.deal == 6 or r.discard == "non-trump"
    assert not (r.rob or r.follow == "only" or r.lead_trump or r.discard != "none") or (
        r.trump == "named"
    )
    assert 1 <= r.min_bid <= r.max_bid


def full_typed(rules) -> dict:
    doc = rules.describe()
    return doc if "family" in doc else doc | {"family": "auction-pitch"}


def _text(v) -> str:
    return str(v).lower() if isinstance(v, bool) else str(v)


@settings(
    max_examples=80,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(family_rule_text)
def test_any_family_rule_string_on_the_command_line(text):
    code, out, err = cli("rules", "--rules", text)
    if code == 0:
        assert out
    try:
        rules = Rules.parse(text)
    except RulesError:
        rules = None
    code, out, err = cli("play", "--seed", "2", "--rules", text, "--json")
    if rules is not None:  # played by the kernels, or one line (cli)
        if code == 0:
            doc = json.loads(out)
            assert doc["seed"] == 2 and Rules.parse(doc["rules"]) == rules
    else:
        assert code != 0  # rules that cannot be read are never played
