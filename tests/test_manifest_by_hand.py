"""A run's manifest written out and read back by hand: no run is played, the documents
are built here field by field (the plan of parts counted by hand), and every refusal is
checked as its whole line.  The mutation run over study/manifest.py found these unchecked
(reports/mutation.md)."""

import json

import pytest

from pitchsim.game.rules import Rules
from pitchsim.study import manifest
from pitchsim.study.manifest import (
    FRAME,
    MANIFEST,
    SCHEMA,
    Manifest,
    Part,
    PartRecord,
    RunError,
    RunParams,
    parse_players,
    plan_parts,
    read_manifest,
)
from pitchsim.util.errors import InputError
from pitchsim.util.limits import MAX_PARTS

RULES = Rules().describe_in_full()  # a run names its preset in full
SHA = "0123456789abcdef" * 4  # 64 hex digits
FAST = {region: "89abcdef" * 4 for region in (FRAME, *SCHEMA.names)}  # 32 hex digits


def part_entry(index, players, start, count, status="done", fast=True):
    """A part's entry as the manifest's format says it is written (docs: run format)."""
    done = status == "done"
    doc = {
        "index": index,
        "players": players,
        "start": start,
        "count": count,
        "file": f"part-{index:06d}.parquet",
        "status": status,
        "rows": count if done else None,
        "bytes": 15 * count if done else None,
        "sha256": SHA if done else None,
    }
    if fast:
        doc["fast_checksums"] = dict(FAST) if done else None
    return doc


def by_hand(fast=True):
    """2,500 deals at 3 and 5 players in parts of 1,000: 1,000 + 1,000 + 500 each; the
    second part of 5 players still pending."""
    plan = [(0, 3, 0, 1000), (1, 3, 1000, 1000), (2, 3, 2000, 500)]
    plan += [(3, 5, 0, 1000), (4, 5, 1000, 1000), (5, 5, 2000, 500)]
    return {
        "format": "pitchsim-run/2" if fast else "pitchsim-run/1",
        "pitchsim_version": "9.9",
        "deals_per_player_count": 2500,
        "players": [3, 5],
        "seed": 12,
        "stream_seeds": {"3": 12 * 8 + 3, "5": 12 * 8 + 5},
        "policy": "heuristic",
        "rules": dict(RULES),
        "part_size": 1000,
        "columns": {
            name: {"type": str(typ), "meaning": meaning} for name, typ, meaning in manifest.COLUMNS
        },
        "parts": [
            part_entry(*p, status="pending" if p[0] == 4 else "done", fast=fast) for p in plan
        ],
    }


def write(tmp_path, doc):
    (tmp_path / MANIFEST).write_text(json.dumps(doc))
    return tmp_path


def test_a_manifest_by_hand_reads_and_writes_back_the_same():
    doc = by_hand()
    m = Manifest.from_json(json.loads(json.dumps(doc)), "m")
    assert (m.deals, m.players, m.seed, m.policy, m.part_size, m.version) == (
        2500,
        [3, 5],
        12,
        "heuristic",
        1000,
        "9.9",
    )
    assert m.params == RunParams(12, "heuristic", RULES) and m.rules == Rules()
    assert [r.part for r in m.parts] == [Part(*p[:4]) for p in _plan()]
    assert [r.status for r in m.parts] == ["done"] * 4 + ["pending", "done"]
    assert [r.part.index for r in m.done()] == [0, 1, 2, 3, 5] and not m.complete()
    assert m.parts[5].rows == 500 and m.parts[5].bytes == 7500 and m.parts[5].sha256 == SHA
    assert m.parts[5].fast_checksums == FAST and m.has_fast_checksums()
    assert m.to_json() == doc
    # the older format: no fast checksums, written back as it was found
    old = by_hand(fast=False)
    m = Manifest.from_json(old, "m")
    assert not m.has_fast_checksums() and m.to_json() == old
    # one done part with fast checksums among others without: still the older format
    m.parts[0].fast_checksums = dict(FAST)
    assert not m.has_fast_checksums() and m.to_json()["format"] == "pitchsim-run/1"
    for r in m.parts:
        if r.status == "done":
            r.fast_checksums = dict(FAST)
    assert m.has_fast_checksums() and m.to_json()["format"] == "pitchsim-run/2"


def _plan():
    return [(0, 3, 0, 1000), (1, 3, 1000, 1000), (2, 3, 2000, 500)] + [
        (3, 5, 0, 1000),
        (4, 5, 1000, 1000),
        (5, 5, 2000, 500),
    ]


def test_plan_parts_by_hand_and_part_records():
    assert plan_parts(2500, [3, 5], 1000) == [Part(*p) for p in _plan()]
    assert plan_parts(1000, [4], 1000) == [Part(0, 4, 0, 1000)]
    assert plan_parts(1, [2, 7], 1000) == [Part(0, 2, 0, 1), Part(1, 7, 0, 1)]
    assert Part(7, 3, 0, 1).file == "part-000007.parquet"
    assert Part(123456, 3, 0, 1).file == "part-123456.parquet"
    assert RunParams(5, "heuristic", {}).stream_seed(4) == 44
    rec = PartRecord(Part(0, 3, 0, 1000), "done", 1000, 15000, SHA, dict(FAST))
    assert rec.to_json(fast=False) == {
        k: v for k, v in part_entry(0, 3, 0, 1000).items() if k != "fast_checksums"
    }
    assert rec.to_json() == part_entry(0, 3, 0, 1000)  # with its fast checksums
    rec.forget()
    assert (rec.status, rec.rows, rec.bytes, rec.sha256, rec.fast_checksums) == (
        "pending",
        None,
        None,
        None,
        None,
    )
    assert PartRecord(Part(0, 3, 0, 1)).status == "pending"
    assert Manifest(1, [3], RunParams(0, "heuristic", RULES), 1000, "v").parts == []


def test_a_rules_spelling_with_dashes_is_the_rules_object():
    doc = by_hand()
    doc["rules"].update({"min-bid": 2, "set-pitcher-wins": True, "partnership": False})
    m = Manifest.from_json(doc, "m")
    assert m.rules == Rules(min_bid=2, set_pitcher_wins=True)


def corrupt(edit, fast=True):
    doc = by_hand(fast)
    edit(doc)
    with pytest.raises(RunError) as e:
        Manifest.from_json(doc, "/r/manifest.json")
    return str(e.value)


def C(words):
    return f"/r/manifest.json is corrupt: {words}"


def p0(d):
    return d["parts"][0]


@pytest.mark.parametrize(
    "edit, message",
    [
        (lambda d: d.pop("seed"), C("the manifest lacks seed")),
        (lambda d: [d.pop("seed"), d.pop("policy")], C("the manifest lacks policy, seed")),
        (lambda d: d.update(zz=1, aa=2), C("the manifest has unknown entries aa, zz")),
        (
            lambda d: d.update(deals_per_player_count=0),
            C("deals_per_player_count must be 1-1,000,000,000, not 0"),
        ),
        (
            lambda d: d.update(deals_per_player_count=10**9 + 1),
            C("deals_per_player_count must be 1-1,000,000,000, not 1,000,000,001"),
        ),
        (lambda d: d.update(seed=1 << 59), C(f"seed must be 0-{(1 << 59) - 1:,}, not {1 << 59:,}")),
        (lambda d: d.update(seed=-1), C(f"seed must be 0-{(1 << 59) - 1:,}, not -1")),
        (lambda d: d.update(seed=True), C("seed must be a whole number, not True")),
        (lambda d: d.update(seed=1.0), C("seed must be a whole number, not 1.0")),
        (lambda d: d.update(seed="1"), C("seed must be a whole number, not '1'")),
        (lambda d: d.update(part_size=999), C("part_size must be 1,000-16,777,216, not 999")),
        (
            lambda d: d.update(part_size=(1 << 24) + 1),
            C("part_size must be 1,000-16,777,216, not 16,777,217"),
        ),
        (lambda d: d.update(players=[]), C("players must be a sorted list of counts 2-7, not []")),
        (
            lambda d: d.update(players=[1]),
            C("players must be a sorted list of counts 2-7, not [1]"),
        ),
        (
            lambda d: d.update(players=[8]),
            C("players must be a sorted list of counts 2-7, not [8]"),
        ),
        (
            lambda d: d.update(players=[3, 3]),
            C("players must be a sorted list of counts 2-7, not [3, 3]"),
        ),
        (
            lambda d: d.update(players=[True]),
            C("players must be a sorted list of counts 2-7, not [True]"),
        ),
        (
            lambda d: d.update(players=[3.0]),
            C("players must be a sorted list of counts 2-7, not [3.0]"),
        ),
        (
            lambda d: d.update(players="3"),
            C("players must be a sorted list of counts 2-7, not '3'"),
        ),
        (lambda d: d.update(policy=3), C("policy must be a name, not 3")),
        (
            lambda d: d.update(policy="clever"),
            C("a run is played by the random or heuristic policy, not 'clever'"),
        ),
        (lambda d: d.update(rules=[]), C("rules must name the preset and list its every option")),
        (
            lambda d: d["rules"].pop("target"),
            C("rules must list every option of the preset, not {"),
        ),
        (
            lambda d: d["rules"].pop("family"),  # the base game's runs before the one engine
            "/r/manifest.json is a base game run in the columns pitchsim wrote before every "
            "preset shared one engine (pitchsim 9.9)",
        ),
        (lambda d: d.update(stream_seeds={"3": 100, "5": 101}), C("stream_seeds do not follow")),
        (lambda d: d.update(stream_seeds={"3": 99}), C("stream_seeds do not follow")),
        (lambda d: d["columns"].pop("deal"), C("its columns are not this pitchsim's")),
        (lambda d: d.update(pitchsim_version=1), C("pitchsim_version must be a string")),
        (lambda d: d.update(parts={}), C("parts must be a list, not dict")),
        (lambda d: d["parts"].pop(), C("it lists 5 parts; its deals make 6")),
        (lambda d: d.update(format=None), "/r/manifest.json is not a pitchsim-run/2 manifest"),
        (lambda d: d.update(format=2), "(format 2)"),
        (lambda d: d["parts"].__setitem__(0, 7), C("part entry 0 must be a JSON object, not int")),
        (lambda d: p0(d).update(start=1), C("part 0: it is not the part its parameters plan")),
        (lambda d: p0(d).update(count=999), C("part 0: it is not the part its parameters plan")),
        (lambda d: p0(d).update(players=4), C("part 0: it is not the part its parameters plan")),
        (lambda d: p0(d).update(index=1), C("part 0: it is not the part its parameters plan")),
        (
            lambda d: p0(d).update(file="part-000001.parquet"),
            C("part 0: it is not the part its parameters plan (Part(index=0, players=3,"),
        ),
        (lambda d: p0(d).update(start=-1), C("part 0: start must be 0-")),
        (lambda d: p0(d).update(index=1 << 62), C("part 0: it is not the part")),
        (lambda d: p0(d).update(index=(1 << 62) + 1), C("part 0: index must be 0-")),
        (lambda d: p0(d).update(status="Done"), C("part 0: status must be 'pending' or 'done'")),
        (lambda d: p0(d).update(rows=999), C("part 0: rows must be 1,000-1,000, not 999")),
        (lambda d: p0(d).update(rows=1001), C("part 0: rows must be 1,000-1,000, not 1,001")),
        (lambda d: p0(d).update(bytes=0), C("part 0: bytes must be 1-129,536, not 0")),
        (lambda d: p0(d).update(bytes=129_537), C("part 0: bytes must be 1-129,536, not")),
        (lambda d: p0(d).update(sha256=SHA[:-1]), C("part 0: sha256 must be 64 hex digits")),
        (lambda d: p0(d).update(sha256=SHA + "0"), C("part 0: sha256 must be 64 hex digits")),
        (lambda d: p0(d).update(sha256=SHA.upper()), C("part 0: sha256 must be 64 hex digits")),
        (lambda d: p0(d).update(sha256=1), C("part 0: sha256 must be 64 hex digits, not 1")),
        (
            lambda d: p0(d)["fast_checksums"].update(deal="89abcdef" * 4 + "0"),
            C("part 0: fast checksum of deal must be 32 hex digits"),
        ),
        (
            lambda d: p0(d)["fast_checksums"].update(deal="89ABCDEF" * 4),
            C("part 0: fast checksum of deal must be 32 hex digits"),
        ),
        (
            lambda d: p0(d)["fast_checksums"].update(deal=1),
            C("part 0: fast checksum of deal must be 32 hex digits, not 1"),
        ),
        (lambda d: d["parts"][4].update(rows=0), C("part 4: pending, yet it has rows")),
        (lambda d: d["parts"][4].update(bytes=1), C("part 4: pending, yet it has rows")),
        (lambda d: d["parts"][4].update(sha256=SHA), C("part 4: pending, yet it has rows")),
        (lambda d: d["parts"][4].update(fast_checksums={}), C("part 4: pending, yet it has")),
    ],
)
def test_every_refusal_of_a_manifest(edit, message):
    assert message in corrupt(edit)


def test_a_refusal_names_the_file_and_the_first_problem_only():
    assert corrupt(lambda d: d.update(seed=-1, part_size=0)) == C(
        f"seed must be 0-{(1 << 59) - 1:,}, not -1"
    )
    assert corrupt(lambda d: d.update(format="x")) == (
        "/r/manifest.json is not a pitchsim-run/2 manifest (format 'x')"
    )
    with pytest.raises(RunError, match=r"^m is not a pitchsim-run/2 manifest \(format None\)$"):
        Manifest.from_json([1], "m")


def test_the_edges_that_are_accepted():
    for edit in (
        lambda d: d.update(
            seed=(1 << 59) - 1, stream_seeds={"3": (1 << 62) - 5, "5": (1 << 62) - 3}
        ),
        lambda d: d.update(seed=0, stream_seeds={"3": 3, "5": 5}),
        lambda d: p0(d).update(bytes=129_536),
        lambda d: p0(d).update(bytes=1),
    ):
        doc = by_hand()
        edit(doc)
        Manifest.from_json(doc, "m")
    # the smallest and largest part sizes and deal counts
    for deals, size in ((1, 1000), (10**9, 1 << 24)):
        doc = by_hand()
        plan = plan_parts(deals, [3, 5], size)
        doc.update(deals_per_player_count=deals, part_size=size)
        doc["parts"] = [part_entry(p.index, p.players, p.start, p.count, "pending") for p in plan]
        assert len(Manifest.from_json(doc, "m").parts) == len(plan) == 2 * -(-deals // size)


def test_the_part_count_limit_at_its_edge():
    # 20,000 parts may be; 20,002 may not (two counts of 10,001 parts)
    doc = by_hand()
    doc.update(deals_per_player_count=10_000 * 1000, part_size=1000)
    doc["parts"] = []
    assert "it lists 0 parts; its deals make 20,000" in corrupt_doc(doc)
    doc.update(deals_per_player_count=10_000 * 1000 + 1)
    assert corrupt_doc(doc) == C(
        "10,000,001 deals x 2 player counts in parts of 1,000 make 20,002 parts, more than a "
        "run may have (20,000): raise --part-size"
    )
    assert MAX_PARTS == 20_000


def corrupt_doc(doc):
    with pytest.raises(RunError) as e:
        Manifest.from_json(doc, "/r/manifest.json")
    return str(e.value)


def test_the_older_format_refuses_the_fast_checksums_and_checks_the_rest():
    assert C("part entry 0 has unknown entries fast_checksums") in corrupt(
        lambda d: p0(d).update(fast_checksums=dict(FAST)), fast=False
    )
    assert C("part 0: sha256 must be 64 hex digits") in corrupt(
        lambda d: p0(d).update(sha256="x"), fast=False
    )
    assert C("part entry 0 lacks fast_checksums") in corrupt(
        lambda d: p0(d).pop("fast_checksums"), fast=True
    )


def test_read_manifest_refuses_what_is_not_a_run(tmp_path):
    with pytest.raises(RunError, match=f"^run directory {tmp_path / 'no'} does not exist$"):
        read_manifest(tmp_path / "no")
    (tmp_path / "f").write_text("x")
    with pytest.raises(
        RunError,
        match=f"^{tmp_path / 'f'} is not a directory \\(a run is a directory with a manifest.json\\)$",
    ):
        read_manifest(tmp_path / "f")
    with pytest.raises(
        RunError, match=f"^{tmp_path} is not a pitchsim run: it has no manifest.json$"
    ):
        read_manifest(tmp_path)
    (tmp_path / MANIFEST).mkdir()
    with pytest.raises(RunError, match="it has no manifest.json"):
        read_manifest(tmp_path)
    (tmp_path / MANIFEST).rmdir()
    mpath = tmp_path / MANIFEST
    mpath.write_bytes(b'{"a": "\xff"}')
    with pytest.raises(RunError, match=f"^{mpath} is corrupt: .*utf-8"):
        read_manifest(tmp_path)
    mpath.write_text("[1, 2]")
    with pytest.raises(RunError, match=f"^{mpath} is corrupt: not a JSON object$"):
        read_manifest(tmp_path)
    mpath.write_text(json.dumps(by_hand()))
    assert read_manifest(str(tmp_path)).to_json() == by_hand()
    mpath.write_text(json.dumps({**by_hand(), "seed": -1}))  # named by its path
    with pytest.raises(RunError, match=f"^{mpath} is corrupt: seed must be 0-"):
        read_manifest(tmp_path)


def test_a_manifest_over_32_mb_is_refused_unread_and_one_at_the_limit_is_read(tmp_path):
    mpath = tmp_path / MANIFEST
    text = json.dumps(by_hand())
    limit = 32 << 20
    mpath.write_text(text + " " * (limit - len(text)))  # exactly 32 MB: whitespace
    assert read_manifest(tmp_path).deals == 2500
    mpath.write_text(text + " " * (limit + 1 - len(text)))
    # said once (it was once wrapped again by the except ValueError: "corrupt" twice)
    with pytest.raises(RunError, match=f"^{mpath} is corrupt: over 32 MB$"):
        read_manifest(tmp_path)


def test_an_unreadable_manifest_is_corrupt_with_the_reason(tmp_path, monkeypatch):
    (tmp_path / MANIFEST).write_text(json.dumps(by_hand()))

    def refused(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr("builtins.open", refused)
    with pytest.raises(RunError, match=r"manifest.json is corrupt: Permission denied$"):
        read_manifest(tmp_path)


@pytest.mark.parametrize(
    "spec, counts",
    [
        ("3-7", [3, 4, 5, 6, 7]),
        ("2-2", [2]),
        ("7", [7]),
        (" 5 , 3 ", [3, 5]),
        ("2-3,7", [2, 3, 7]),
        (4, [4]),
        ([5, 3], [3, 5]),
        ((n for n in (6, 2)), [2, 6]),
        ("003", [3]),
    ],
)
def test_parse_players_reads(spec, counts):
    assert parse_players(spec) == counts


@pytest.mark.parametrize(
    "spec, message",
    [
        (True, "cannot read player counts True: use e.g. 4 or 3,4,5 or 3-7"),
        ([3, True], "player counts must be whole numbers, not [3, True]"),
        ([3.0], "player counts must be whole numbers, not [3.0]"),
        # a count outside 2-7 is named, however it was written
        ("1-3", "players must be 2-7, not 1 (in '1-3')"),
        ("3-8", "players must be 2-7, not 8 (in '3-8')"),
        ("9", "players must be 2-7, not 9 (in '9')"),
        ("-3", "players must be 2-7, not -3 (in '-3')"),
        (8, "players must be 2-7, not 8 (in 8)"),
        ([3, 1], "players must be 2-7, not 1 (in [3, 1])"),
        ("3-x", "cannot read player counts '3-x': use e.g. 4 or 3,4,5 or 3-7"),
        ("3,,4", "cannot read player counts '3,,4': use e.g. 4 or 3,4,5 or 3-7"),
        ("", "cannot read player counts '': use e.g. 4 or 3,4,5 or 3-7"),
        ("0004", "cannot read player counts '0004': use e.g. 4 or 3,4,5 or 3-7"),
        ("-", "cannot read player counts '-': use e.g. 4 or 3,4,5 or 3-7"),
        ("5-3", "no player counts in '5-3'"),
        ([], "no player counts in []"),
        ("3,4,3", "player counts '3,4,3' repeat a count"),
        ("3-5,4", "player counts '3-5,4' repeat a count"),
    ],
)
def test_parse_players_refuses(spec, message):
    with pytest.raises(InputError) as e:
        parse_players(spec)
    assert str(e.value) == message


def test_the_version_of_a_pitchsim_not_installed_is_unknown(monkeypatch):
    import importlib.metadata

    def not_installed(name):
        raise importlib.metadata.PackageNotFoundError(name)

    assert manifest._package_version() == importlib.metadata.version("pitchsim")
    monkeypatch.setattr(importlib.metadata, "version", not_installed)
    assert manifest._package_version() == "unknown"
