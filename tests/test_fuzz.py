"""Property-based fuzzing (hypothesis) of every input pitchsim reads: card strings and
hands, rule strings and TOML files, manifests (random edits of a valid one), part files
(bit flips, truncations) and count options at and past their limits.

The property, for every input: a correct result, or exit code 2 with exactly one line
on stderr (``pitchsim: error: ...``) and no traceback, within TIME_BOUND seconds.  A
damaged part must never give a result at all.

Every test has a fixed budget of examples and is derandomized, so CI tries the same
cases each time (``pytest tests/test_fuzz.py --hypothesis-show-statistics`` counts
them).  CLI calls run in this process (``pitchsim.cli.main``) for speed.
"""

import functools
import json
import shutil
import string
import time
from pathlib import Path

import pytest
from clirun import cli as run_cli
from hypothesis import HealthCheck, given, settings  # the test extra installs it
from hypothesis import strategies as st

from pitchsim.game.cards import CardError, format_cards, parse_cards, parse_hand
from pitchsim.game.rules import FAMILIES, FAMILY_FIELDS, Rules, RulesError
from pitchsim.study import batch, parts
from pitchsim.study.batch import simulate
from pitchsim.study.manifest import MANIFEST
from pitchsim.util import limits

ENDGAME = str(Path(__file__).resolve().parent.parent / "examples" / "endgame.json")
TIME_BOUND = 10.0  # seconds for any one input (generous: CI machines are shared)
# The property: exit 0, or one error line with exit 2 (never "interrupted"), in time.
cli = functools.partial(run_cli, seconds=TIME_BOUND, interrupted=False)


def fuzz(examples: int):
    """A fixed, derandomized budget of examples; the time bound is checked by ``cli``."""
    return settings(
        max_examples=examples,
        derandomize=True,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    )


@pytest.fixture(autouse=True, scope="module")
def own_cache_and_warm_kernels(tmp_path_factory):
    """A memory of verified parts of our own; the kernels loaded (or compiled) before
    any time is measured."""
    folder = tmp_path_factory.mktemp("verified")
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr("pitchsim.study.verified.cache_folder", lambda: folder)
        for argv in (
            ["play", "--seed", "1", "--bid", "2"],
            ["play", "--seed", "1"],
            ["play", "--seed", "1", "--hand", "AH KH 2H 9C 7D 3S", "--bid", "2"],
        ):
            run_cli(*argv, one_line=False)
        yield


# ---- card strings and hands ------------------------------------------------------------

CARD_ALPHABET = "23456789TJQKAtjqka10CDHScdhs♣♦♥♠♧♢♡♤ ,;\t\n-x*é\x00"
card_text = st.one_of(
    st.text(alphabet=CARD_ALPHABET, max_size=40),
    st.lists(
        st.sampled_from([r + s for r in "23456789TJQKA" for s in "CDHS"] + ["10h"]), max_size=8
    ).map(" ".join),
    st.text(max_size=30),
)


@fuzz(400)
@given(card_text)
def test_card_strings_parse_or_are_refused(text):
    try:
        cards = parse_cards(text)
    except CardError as e:
        assert "\n" not in str(e)
        return
    assert len(set(cards)) == len(cards) and all(0 <= c < 52 for c in cards)
    assert parse_cards(format_cards(cards)) == cards  # what it read is what was typed
    assert parse_cards(format_cards(cards, symbols=False)) == cards
    try:
        assert parse_hand(text) == cards and len(cards) == 6
    except CardError:
        assert len(cards) != 6


@fuzz(120)
@given(card_text)
def test_play_with_any_hand_is_a_hand_or_one_line(text):
    code, out, _ = cli("play", "--seed", "1", "--hand", text, "--bid", "2")
    if code == 0:
        assert parse_hand(text) and "Seat 0 pitches for 2" in out


# ---- rule strings and TOML files -----------------------------------------------------------

KEYS = [
    "low",
    "min-bid",
    "min_bid",
    "all-pass",
    "dealer-steal",
    "follow",
    "target",
    "set-pitcher-wins",
    "partnership",
    "colour",
    "",
    " low",
    "LOW",
]
VALUES = [
    "dealt",
    "captured",
    "forced",
    "redeal",
    "trump",
    "suit",
    "true",
    "false",
    "yes",
    "off",
    "1",
    "2",
    "0",
    "-1",
    "7",
    "11",
    "100",
    "101",
    "9" * 25,
    "",
    "maybe",
    "True",
    "1.5",
    "²",
    "+3",
]
rule_item = st.one_of(
    st.tuples(st.sampled_from(KEYS), st.sampled_from(VALUES)).map("=".join),
    st.text(alphabet=string.ascii_letters + "=-_ ,", max_size=12),
)
rule_text = st.lists(rule_item, min_size=0, max_size=5).map(",".join)


# The rule families add a family name (first, bare) and options beyond the base ones
# (the presets' own names and every option word: game.rules.FAMILIES, FAMILY_FIELDS).
FAMILY_WORDS = {
    *FAMILIES,
    *(f.replace("_", "-") for f in FAMILY_FIELDS),
    "auction-pitch",
    "setback",
    "smear",
    "ten-point",
    "family",
    "jokers",
    "jick",
    "game",
    "three",
    "five",
    "deal",
    "discard",
    "rob",
    "trump",
    "lead-trump",
    "shoot",
    "win",
}


def _expected(pairs) -> Rules | None:
    """What a rule string of (name, value) pairs means, written out independently."""
    fields = {
        "low": ("captured", "dealt"),
        "min_bid": (1, 2),
        "all_pass": ("forced", "redeal"),
        "dealer_steal": (False, True),
        "follow": ("trump", "suit"),
        "target": tuple(range(1, 101)),
        "set_pitcher_wins": (False, True),
        "partnership": (False, True),
    }
    out = {}
    for k, v in pairs:
        k = k.strip().replace("-", "_")
        if k not in fields or k in out:
            return None
        allowed = fields[k]
        if isinstance(allowed[0], bool):
            if v.lower() in ("true", "yes", "on"):
                out[k] = True
            elif v.lower() in ("false", "no", "off"):
                out[k] = False
            else:
                return None
        elif isinstance(allowed[0], int):
            if not (v.isascii() and v.lstrip("+-").isdigit() and len(v) <= 20):
                return None
            if int(v) not in allowed:
                return None
            out[k] = int(v)
        elif v not in allowed:
            return None
        else:
            out[k] = v
    return Rules(**out)


@fuzz(400)
@given(rule_text)
def test_rule_strings_mean_what_they_say_or_are_refused(text):
    items = text.split(",")
    if any(i.split("=")[0].strip().replace("_", "-") in FAMILY_WORDS for i in items):
        return  # this oracle knows the base options; test_families_rules.py fuzzes families
    pairs = [tuple(s.strip() for s in i.split("=", 1)) for i in items if "=" in i]
    well_formed = text.strip() != "" and all("=" in i and i.strip() for i in items)
    want = _expected(pairs) if well_formed else None
    try:
        got = Rules.parse(text)
    except RulesError as e:
        assert want is None, (text, e)
        assert "\n" not in str(e)
        return
    assert got == want, text
    assert Rules.parse(got.describe()) == got  # and as a dict, the same rules


@fuzz(100)
@given(rule_text)
def test_any_rule_string_on_the_command_line(text):
    code, out, err = cli("play", "--seed", "2", "--rules", text, "--json")
    if code == 0:
        assert json.loads(out)["seed"] == 2


toml_value = st.one_of(
    st.booleans(),
    st.integers(min_value=-(2**63), max_value=2**63 - 1),
    st.sampled_from(VALUES),
    st.floats(allow_nan=False, allow_infinity=False),
    st.lists(st.integers(0, 3), max_size=2),
    st.dictionaries(st.sampled_from(["x", "low"]), st.integers(0, 3), max_size=1),
)


def _toml(doc: dict) -> str:
    """A tiny TOML writer for these documents (top-level values and one level of tables)."""

    def value(v):
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, (int, float)):
            return repr(v)
        if isinstance(v, str):
            return json.dumps(v)
        if isinstance(v, list):
            return "[" + ", ".join(value(x) for x in v) + "]"
        return "{" + ", ".join(f"{json.dumps(k)} = {value(x)}" for k, x in v.items()) + "}"

    return "".join(f"{json.dumps(k)} = {value(v)}\n" for k, v in doc.items())


toml_doc = st.dictionaries(st.sampled_from(KEYS[:-4] + ["colour"]), toml_value, max_size=4)


@fuzz(200)
@given(toml_doc, st.booleans(), st.sampled_from(["", "\xff\xfe", "garbage = = 1\n"]))
def test_rule_files_mean_what_they_say_or_are_refused(tmp_path_factory, doc, nested, junk):
    path = tmp_path_factory.getbasetemp() / "fuzz-rules.toml"
    text = _toml(doc)
    if nested:
        text = "[rules]\n" + text
    data = text.encode() + junk.encode("latin-1")
    path.write_bytes(data)
    keys = [k.replace("-", "_") for k in doc]
    ok_types = all(
        (
            isinstance(v, bool)
            if k in ("dealer_steal", "set_pitcher_wins", "partnership")
            else isinstance(v, int) and not isinstance(v, bool)
            if k in ("min_bid", "target")
            else isinstance(v, str)
        )
        for k, v in zip(keys, doc.values(), strict=True)
    )
    try:
        got = Rules.parse(str(path))
    except RulesError as e:
        assert "\n" not in str(e)
        if not junk and ok_types and len(set(keys)) == len(keys) and "colour" not in doc:
            # only a value out of its set or range may be the reason
            assert "must be" in str(e), (doc, e)
        return
    assert not junk and ok_types and len(set(keys)) == len(keys)
    assert got == Rules(**dict(zip(keys, doc.values(), strict=True)))
    code, _, _ = cli("play", "--seed", "1", "--rules", path)
    assert code in (0, 2)  # 2: e.g. partnership=true at the default 4 players is fine


# ---- manifests and part files ----------------------------------------------------------


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    path = tmp_path_factory.mktemp("fuzz") / "run"
    simulate(path, 2000, [3, 4], seed=5, part_size=1000)
    code, out, _ = cli("table", path, "--by", "length", "--min-count", "1")
    assert code == 0
    return path, out


def _paths(doc, prefix=()):
    """Every (path, value) inside a JSON document."""
    yield prefix, doc
    if isinstance(doc, dict):
        for k, v in doc.items():
            yield from _paths(v, (*prefix, k))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            yield from _paths(v, (*prefix, i))


json_value = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.sampled_from(
        [
            0,
            1,
            -1,
            999,
            1000,
            2000,
            10**12,
            2**59,
            2**63,
            2**64,
            "done",
            "pending",
            "heuristic",
            "random",
            "part-000000.parquet",
            "0" * 64,
            "",
        ]
    ),
    st.text(max_size=8),
    st.lists(st.integers(2, 7), max_size=3),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
)


@fuzz(250)
@given(st.data())
def test_edited_manifests_give_the_same_table_or_one_line(made, tmp_path_factory, data):
    run, want = made
    work = tmp_path_factory.getbasetemp() / "fuzz-manifest"
    if not work.exists():
        shutil.copytree(run, work)
    doc = json.loads((run / MANIFEST).read_text())
    for _ in range(data.draw(st.integers(1, 3))):
        paths = [p for p, _ in _paths(doc) if p]
        path = data.draw(st.sampled_from(paths))
        parent = doc
        for k in path[:-1]:
            parent = parent[k]
        how = data.draw(st.sampled_from(["replace", "delete", "add"]))
        if how == "delete":
            del parent[path[-1]]
        elif how == "add" and isinstance(parent, dict):
            parent[data.draw(st.text(max_size=5))] = data.draw(json_value)
        else:
            parent[path[-1]] = data.draw(json_value)
    (work / MANIFEST).write_text(json.dumps(doc))
    code, out, err = cli("table", work, "--by", "length", "--min-count", "1")
    if code == 0 and "incomplete" not in err:  # an edit that leaves the run as it was
        assert out.splitlines()[1:] == want.splitlines()[1:]  # the same numbers


def read_by_a_table_by_length(part, changed):
    """Whether a table by length reads any of the byte positions ``changed`` of
    ``part``: those of its frame (everything outside the column chunks) and of the
    columns it uses, whose fast checksums it checks."""
    import pyarrow.parquet as pq

    from pitchsim.game.features import FEATURES

    chunks = parts._chunks(pq.ParquetFile(part).metadata)
    used = {*FEATURES["length"].columns, "points"}
    unread = [chunks[c] for c in chunks if c not in used]
    return any(not any(a <= i < b for a, b in unread) for i in changed)


@fuzz(150)
@given(st.data())
def test_a_damaged_part_never_gives_a_wrong_table(made, tmp_path_factory, data):
    """A damage in the bytes a table reads stops it; one elsewhere (in a column it does
    not use) leaves its numbers as they were, and a read that uses it stops."""
    run, want = made
    work = tmp_path_factory.getbasetemp() / "fuzz-parts"
    if not work.exists():
        shutil.copytree(run, work)
    names = sorted(p.name for p in run.glob("part-*.parquet"))
    name = data.draw(st.sampled_from(names))
    good = (run / name).read_bytes()
    bad = bytearray(good)
    how = data.draw(st.sampled_from(["flip", "truncate", "extend", "zero"]))
    changed = None  # every byte counts: the size differs
    if how == "flip":
        changed = []
        for _ in range(data.draw(st.integers(1, 3))):
            i = data.draw(st.integers(0, len(bad) - 1))
            bad[i] ^= 1 << data.draw(st.integers(0, 7))
            changed.append(i)
    elif how == "truncate":
        bad = bad[: data.draw(st.integers(0, len(bad) - 1))]
    elif how == "extend":
        bad += data.draw(st.binary(min_size=1, max_size=64))
    else:
        i = data.draw(st.integers(0, len(bad) - 8))
        bad[i : i + 8] = bytes(8) if bad[i : i + 8] != bytes(8) else b"\xff" * 8
        changed = range(i, i + 8)
    if bytes(bad) == good:
        return
    try:
        (work / name).write_bytes(bytes(bad))
        code, out, err = cli("table", work, "--by", "length", "--min-count", "1")
        if changed is None or read_by_a_table_by_length(run / name, changed):
            assert code == 2 and name in err, err  # never a table from a damaged part
        else:
            # the damage is in bytes it never read: the same numbers
            assert code == 0 and out.splitlines()[1:] == want.splitlines()[1:], err
            code, _, err = cli("table", work, "--full-check", "--min-count", "1")
            assert code == 2 and name in err, err
        cli("table", work, "--by", "length", "--min-count", "1", "--no-verify")  # 0 or 1 line
    finally:
        (work / name).write_bytes(good)


# ---- count options at and past their limits ------------------------------------------------


class Reached(Exception):
    """The command's work was about to start: every option passed its checks."""


def _stop(*args, **kwargs):
    raise Reached


# (argv before the value, option, limit, lowest allowed, the function the work starts in)
COUNT_OPTIONS = [
    (
        ["bid-odds", "AH KH 2H 9C 7D 3S"],
        "--samples",
        limits.MAX_SAMPLES,
        1,
        "pitchsim.advice.odds.bid_odds",
    ),
    (
        ["play", "--seed", "1"],
        "--rounds",
        limits.MAX_ROUNDS,
        1,
        "pitchsim.table.boards.board_hand",
    ),
    (
        ["play", "--seed", "1", "--game"],
        "--board",
        limits.MAX_BOARD,
        0,
        "pitchsim.table.boards.board_game",
    ),
    (
        ["tournament", "-s", "odds,heuristic"],
        "--games",
        limits.MAX_GAMES,
        1,
        "pitchsim.table.tournament.tournament",
    ),
    (
        ["tournament", "-s", "odds,heuristic"],
        "--target",
        limits.MAX_TARGET,
        1,
        "pitchsim.table.tournament.tournament",
    ),
    (
        ["simulate", "--seed", "1", "--part-size", str(limits.MAX_PART_SIZE)],
        "--deals",
        limits.MAX_DEALS,
        1,
        "pitchsim.study.batch._run",
    ),
    (
        ["simulate", "--seed", "1", "--deals", "1000"],
        "--part-size",
        limits.MAX_PART_SIZE,
        limits.MIN_PART_SIZE,
        "pitchsim.study.batch._run",
    ),
    (["play"], "--seed", (1 << 62) - 1, 0, "pitchsim.table.boards.board_hand"),
    (
        ["advise", "AH KH 2H 9C 7D 3S", "--seat", "0", "--dealer", "3"],
        "--target",
        limits.MAX_TARGET,
        1,
        "pitchsim.advice.advise.advise",
    ),
    (
        ["advise", "AH KH 2H 9C 7D 3S", "--seat", "0", "--dealer", "3"],
        "--samples",
        limits.MAX_ADVISE_SAMPLES,
        1,
        "pitchsim.advice.advise.advise",
    ),
    (["play", "--seed", "1"], "--players", 7, 2, "pitchsim.table.boards.board_hand"),
    (["play", "--seed", "1"], "--bid", 4, 1, "pitchsim.table.boards.board_hand"),
    (["table", "no-run"], "--min-count", limits.MAX_MIN_COUNT, 1, "pitchsim.study.analysis.Run"),
    (
        ["chart", "no-run", "--kind", "bids", "--out", "x.png"],
        "--min-count",
        limits.MAX_MIN_COUNT,
        1,
        "pitchsim.study.analysis.Run",
    ),
]


def _near(limit: int, low: int):
    edges = [low - 1, low, limit, limit + 1, 2**63 - 1, 2**63, 2**64, 10**30, -(2**64)]
    return st.one_of(
        st.sampled_from(edges), st.integers(low - 5, limit + 5), st.integers(-(2**70), 2**70)
    )


@fuzz(300)
@given(st.data())
def test_counts_at_and_past_their_limits(tmp_path_factory, data):
    head, option, limit, low, work = data.draw(st.sampled_from(COUNT_OPTIONS))
    value = data.draw(_near(limit, low))
    out = tmp_path_factory.getbasetemp() / "fuzz-counts"
    shutil.rmtree(out, ignore_errors=True)
    argv = [*head, option, str(value)]
    if head[0] == "simulate":
        argv += ["--out", out, "--quiet"]
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(work, _stop)
        mp.setattr(batch, "_check_space", lambda *a: None)  # the limit, not this disk
        try:
            code, _, err = cli(*argv)
        except Reached:
            code = 0
    within = low <= value <= limit
    if option == "--deals":  # parts of the largest size: the part count stays in bounds
        within = within and -(-value // limits.MAX_PART_SIZE) <= limits.MAX_PARTS
    assert (code == 0) == within, (argv, err)
    shutil.rmtree(out, ignore_errors=True)


# ---- positions (solve, hint) and advise histories: issue 21 ------------------------------


@pytest.fixture(scope="module")
def late_round():
    """A logged round (play --json) cut after three tricks: quick to solve."""
    _, out, _ = run_cli("play", "--json", "--seed", "11", "--rules", "follow=suit,low=dealt")
    doc = json.loads(out)
    for argv in (["solve", ENDGAME], ["hint", ENDGAME, "--worlds", "8", "--policy", "rollout"]):
        run_cli(*argv, one_line=False)  # the search kernels loaded before any time is measured
    doc["tricks"] = doc["tricks"][:3] + [
        {**doc["tricks"][3], "cards": doc["tricks"][3]["cards"][:1]}
    ]
    return doc


json_leaf = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=12),
    st.sampled_from(["AH", "10S", "/etc/passwd", "yes", "low=dealt", "follow=suit,,x"]),
)
json_value = st.recursive(
    json_leaf,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
RULE_KEYS = [
    "low",
    "min-bid",
    "all-pass",
    "dealer-steal",
    "follow",
    "target",
    "set-pitcher-wins",
    "partnership",
    "colour",
]
rules_field = st.one_of(
    rule_text,
    st.dictionaries(
        st.sampled_from(RULE_KEYS),
        st.one_of(
            json_leaf,
            st.sampled_from(
                [
                    "dealt",
                    "captured",
                    "suit",
                    "trump",
                    "forced",
                    "redeal",
                    "true",
                    "dealt,follow=suit",
                ]
            ),
        ),
        max_size=4,
    ),
    json_value,
)


def _edit(doc, data):
    """One random edit of a position: a field dropped or replaced, a card or trick
    changed, the rules rewritten."""
    doc = json.loads(json.dumps(doc))
    kind = data.draw(
        st.sampled_from(["drop", "replace", "card", "trick", "rules", "rules", "none"])
    )
    keys = sorted(doc)
    if kind == "drop":
        del doc[data.draw(st.sampled_from(keys))]
    elif kind == "replace":
        doc[data.draw(st.sampled_from(keys))] = data.draw(json_value)
    elif kind == "card":
        seat = data.draw(st.integers(0, len(doc["dealt"]) - 1))
        i = data.draw(st.integers(0, 5))
        doc["dealt"][seat][i] = data.draw(st.sampled_from(["AH", "2C", "JD", "XX", "10S", ""]))
    elif kind == "trick":
        t = data.draw(st.integers(0, len(doc["tricks"]) - 1))
        doc["tricks"][t] = data.draw(
            st.one_of(
                json_value,
                st.fixed_dictionaries(
                    {
                        "leader": st.integers(-1, 8),
                        "cards": st.lists(
                            st.sampled_from(["AH", "2C", "JD", "9S", "KD", "4H"]), max_size=5
                        ),
                    }
                ),
            )
        )
    elif kind == "rules":
        doc["rules"] = data.draw(rules_field)
    return doc


@fuzz(150)
@given(st.data())
def test_positions_solve_or_are_refused(tmp_path_factory, late_round, data):
    """An edited position: solved (and then it parses to a legal position whose rules
    are what its rules field says) or one line; hint on the same file likewise."""
    from pitchsim.search.position import PositionError, parse_position

    doc = _edit(late_round, data)
    also_hint = data.draw(st.booleans())
    path = tmp_path_factory.getbasetemp() / "fuzz-position.json"
    path.write_text(json.dumps(doc))
    code, out, err = cli("solve", path, "--json")
    try:
        pos = parse_position(doc)
    except PositionError as e:
        assert code == 2 and str(e) in err, (doc, err)
        return
    assert code == 0, err
    assert json.loads(out)["to_play"] == pos.to_play
    if isinstance(doc.get("rules"), dict):
        for k, v in doc["rules"].items():  # strict: exactly the typed values, nothing coerced
            assert pos.rules.describe()[k] == v or k == "partnership" and "partnership" in doc
    if not pos.finished and also_hint:
        code, out, err = cli("hint", path, "--worlds", "8", "--policy", "rollout", "--json")
        assert code == 0, err
        assert json.loads(out, parse_constant=_no_constant)["recommended"]


def _no_constant(name):
    raise AssertionError(f"{name} in a JSON output")


@fuzz(150)
@given(st.binary(max_size=300), st.sampled_from(["solve", "hint"]))
def test_any_bytes_as_a_position_are_one_line(tmp_path_factory, raw, command):
    path = tmp_path_factory.getbasetemp() / "fuzz-bytes.json"
    path.write_bytes(raw)
    code, _, _ = cli(command, path)
    assert code == 2


call_token = st.sampled_from(
    [
        "pass",
        "p",
        "-",
        "PASS",
        " 2 ",
        "1",
        "2",
        "3",
        "4",
        "0",
        "5",
        "",
        "two",
        "1.0",
        "-1",
        "9" * 40,
        "pass pass",
    ]
)
score_token = st.one_of(
    st.integers(-(2**70), 2**70).map(str),
    st.sampled_from(["", "x", "1e3", "3.0", "-0", "9" * 5000, "+5"]),
)


@fuzz(120)
@given(st.data())
def test_advise_histories_are_advice_or_one_line(data):
    """Random calls, seats, dealers and scores: advice (every JSON number finite, the
    recommended call legal) or one line; never a traceback, a wrapped score or a hang."""
    from pitchsim.advice.advise import advise
    from pitchsim.util.errors import InputError
    from pitchsim.util.jsonio import dumps_json

    n = data.draw(st.integers(3, 5))
    calls = ",".join(data.draw(st.lists(call_token, max_size=n)))
    scores = ",".join(data.draw(st.lists(score_token, min_size=n, max_size=n)))
    seat, dealer = data.draw(st.integers(0, n - 1)), data.draw(st.integers(0, n - 1))
    start = time.monotonic()
    try:
        r = advise(
            "AH KH 2H 9C 7D 3S",
            players=n,
            seat=seat,
            dealer=dealer,
            calls=calls,
            scores=scores,
            model="heuristic",
            samples=data.draw(st.integers(1, 30)),
            seed=1,
            max_tries=5_000,
        )
    except InputError as e:
        assert "\n" not in str(e) and len(str(e)) < 400, str(e)
        return
    finally:
        assert time.monotonic() - start < TIME_BOUND
    assert all(-10_000 <= s <= 10_000 for s in r.scores)
    assert r.recommended_call in r.legal_calls
    json.loads(dumps_json(r.to_json()), parse_constant=_no_constant)


# ---- no JSON output can hold NaN or Infinity ----------------------------------------------


def test_every_json_document_is_written_by_dumps_json():
    """json.dump/json.dumps appear only in util/jsonio.py: every document pitchsim
    writes passes its NaN check."""
    import pathlib
    import re

    root = pathlib.Path(__file__).resolve().parent.parent / "pitchsim"
    offenders = [
        str(p.relative_to(root))
        for p in root.rglob("*.py")
        if p.name != "jsonio.py" and re.search(r"json\.dumps?\(", p.read_text())
    ]
    assert offenders == []


def test_dumps_json_refuses_non_finite_numbers_and_says_where():
    from pitchsim.util.jsonio import dumps_json

    for bad in (float("nan"), float("inf"), -float("inf")):
        with pytest.raises(ValueError, match=r"\$\.a\[1\]\.b"):
            dumps_json({"a": [0, {"b": bad}]})
    assert json.loads(dumps_json({"a": [1.5, None]})) == {"a": [1.5, None]}


@fuzz(24)
@given(st.integers(1, 12), st.sampled_from(["bid-odds", "advise", "hint", "tournament"]))
def test_json_outputs_from_a_handful_of_samples_are_finite(n, command):
    """Tiny samples (where a standard deviation is NaN or 0): every --json output is
    strict JSON, and an interval from fewer than FEW_SAMPLES is null, never a number."""
    from pitchsim.util.stats import FEW_SAMPLES

    argv = {
        "bid-odds": [
            "bid-odds",
            "AH KH 2H 9C 7D 3S",
            "--samples",
            n,
            "--compare-policy",
            "random",
            "--compare-samples",
            n,
        ],
        "advise": [
            "advise",
            "AH KH 2H 9C 7D 3S",
            "--seat",
            "0",
            "--dealer",
            "3",
            "--samples",
            n,
            "--model",
            "heuristic",
        ],
        "hint": ["hint", ENDGAME, "--worlds", n, "--policy", "rollout"],
        "tournament": ["tournament", "-s", "heuristic,random", "-g", n],
    }[command]
    # untimed: a first call may compile kernels
    code, out, err = run_cli(*argv, "--seed", "1", "--json")
    assert code == 0, err
    doc = json.loads(out, parse_constant=_no_constant)
    if n < FEW_SAMPLES:
        few = {
            "bid-odds": lambda d: d["compare"]["by_trump"]["H"]["2"]["difference_ci95"],
            "advise": lambda d: d["p_win_difference_ci95"],
            "hint": lambda d: d["cards"][0]["points_ci95"],
            "tournament": lambda d: d["results"][0]["ci95"],
        }[command](doc)
        assert few is None
