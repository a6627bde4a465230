"""Every rule clause the code and the tests cite is on docs/rules.md.

Tests and comments cite the clauses of VARIANTS.md, the rule specification, which users
and CI do not have; docs/rules.md carries the clauses pitchsim plays, under the same
numbers (its opening says how).  A clause there is a paragraph starting ``**2.15.1**``,
a section a heading starting ``§2``, a base-game edge case a paragraph starting
``**Edge 7**``.  Citations are collected from:

- test names: ``test_2_15_1_...`` cites 2.15.1, ``..._and_6_3_6_...`` 6.3.6 as well, and
  ``test_edge_07_...`` the base game's edge case 7;
- text in the code, the scripts, the tests, README.md and the other docs: "VARIANTS 0.1",
  "VARIANTS.md 0.7, 0.8 and 4.10", "VARIANTS.md 2.3-2.6" (a range cites every clause in
  it), "VARIANTS.md sections 1-4, 6" (sections);
- the rule families' ``clause`` (their section, printed by ``pitchsim rules``);
- every clause-like number in the comments and docstrings of the modules that say their
  numbers are VARIANTS.md's (CLAUSE_MODULES).

Plain text only: no pitchsim import, so no numba.
"""

import io
import re
import tokenize
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "rules.md"
# Where citations are looked for: the code, the scripts, the tests (this file's own
# examples are not citations) and the other documents.
SOURCES = [
    p
    for p in sorted((ROOT / "pitchsim").rglob("*.py"))
    + sorted((ROOT / "scripts").glob("*.py"))
    + sorted((ROOT / "tests").glob("*.py"))
    + [ROOT / "README.md"]
    + sorted((ROOT / "docs").glob("*.md"))
    if p.resolve() not in (Path(__file__).resolve(), DOC)
]
# Modules whose comments cite clauses by bare number ("# 3.4", "(0.4, 3.6)"), as they
# say in their docstrings.
CLAUSE_MODULES = (
    *(
        f"pitchsim/game/reference/{part}.py"
        for part in ("tricks", "auction", "deal", "draw", "partner", "score", "hand", "game")
    ),
    "tests/test_view_presets.py",
)

CLAUSE_LINE = re.compile(r"^\*\*(\d+(?:\.\d+)+)\*\*", re.M)
SECTION_HEADING = re.compile(r"^#+ §(\d+)\b", re.M)
EDGE_LINE = re.compile(r"^\*\*Edge (\d+)\*\*", re.M)

TEST_NAME = re.compile(r"^\s*(?:async\s+)?def (test_\w+)", re.M)
NAME_CLAUSE = re.compile(r"^test_(\d+(?:_\d+)+)_")
NAME_AND_CLAUSE = re.compile(r"_and_(\d+(?:_\d+)+)_")
NAME_EDGE = re.compile(r"^test_edge_(\d+)_")
# A reference: 2.15.1, a range 2.3-2.6 or a section range 1-4.  A list of references is
# joined by commas or "and", and may run on over a line break inside a comment.
REF = r"\d+(?:\.\d+)*(?:\s*-\s*\d+(?:\.\d+)*)?"
GAP = r"(?:[ \t]|\n[ \t]*#?[ \t]*)+"
TEXT = re.compile(
    rf"\bVARIANTS(?:\.md)?{GAP}(?:sections?{GAP})?({REF}(?:\s*(?:,|\band\b){GAP}{REF})*)"
)
FAMILY_CLAUSE = re.compile(r'\bclause="(\d+)"')
BARE = re.compile(r"(?<![\w.])(\d+\.\d+(?:\.\d+)*)(?![\w.]*\d)")


def expand(ref: str) -> list[str]:
    """``2.3-2.6`` -> 2.3, 2.4, 2.5, 2.6; ``1-4`` -> 1, 2, 3, 4; else the reference."""
    if "-" not in ref:
        return [ref]
    lo, hi = (part.strip().split(".") for part in ref.split("-"))
    if lo[:-1] != hi[:-1] or int(lo[-1]) > int(hi[-1]):
        return [".".join(lo), ".".join(hi)]
    stem = lo[:-1]
    return [".".join([*stem, str(n)]) for n in range(int(lo[-1]), int(hi[-1]) + 1)]


def text_citations(text: str) -> list[str]:
    found = []
    for m in TEXT.finditer(text):
        for ref in re.split(r"\s*(?:,|\band\b)\s*#?\s*", m.group(1)):
            found += expand(ref.strip())
    return found


def bare_citations(source: str) -> list[str]:
    """Clause-like numbers in comments and docstrings (not in code or other strings)."""
    found = []
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        docstring = tok.type == tokenize.STRING and tok.string.lstrip("rbfuRBFU")[:3] in (
            '"""',
            "'''",
        )
        if tok.type == tokenize.COMMENT or docstring:
            found += BARE.findall(tok.string)
    return found


def citations() -> dict[str, set[str]]:
    """Each cited clause ("2.15.1", "§2" for a section, "Edge 7") -> where it is cited."""
    cited: dict[str, set[str]] = {}

    def add(clause: str, where: str) -> None:
        cited.setdefault(clause, set()).add(where)

    for path in SOURCES:
        rel = path.relative_to(ROOT).as_posix()
        text = path.read_text(encoding="utf-8")
        for ref in text_citations(text):
            add(ref if "." in ref else f"§{ref}", rel)
        if rel in CLAUSE_MODULES:
            for ref in bare_citations(text):
                add(ref, rel)
        for section in FAMILY_CLAUSE.findall(text):
            add(f"§{section}", rel)
        for name in TEST_NAME.findall(text) if rel.startswith("tests/") else ():
            if m := NAME_EDGE.match(name):
                add(f"Edge {int(m.group(1))}", f"{rel}::{name}")
                continue
            refs = NAME_CLAUSE.findall(name) + NAME_AND_CLAUSE.findall(name)
            for ref in refs:
                add(ref.replace("_", "."), f"{rel}::{name}")
    return cited


def clauses_in(doc: str) -> set[str]:
    return (
        set(CLAUSE_LINE.findall(doc))
        | {f"§{s}" for s in SECTION_HEADING.findall(doc)}
        | {f"Edge {n}" for n in EDGE_LINE.findall(doc)}
    )


def missing(cited: dict[str, set[str]], doc: str) -> dict[str, list[str]]:
    have = clauses_in(doc)
    return {c: sorted(where) for c, where in sorted(cited.items()) if c not in have}


CITED = citations()


def test_every_cited_clause_is_on_docs_rules():
    gaps = missing(CITED, DOC.read_text(encoding="utf-8"))
    assert not gaps, "cited but not in docs/rules.md: " + "; ".join(
        f"{c} ({', '.join(w)})" for c, w in gaps.items()
    )


def test_the_collector_reads_every_kind_of_citation():
    """Each way of citing is found in the repository (so the first test cannot pass by
    finding nothing): test names, "_and_" in a test name, edge cases, a family's
    section, text in the kernels, bare numbers in the reference engine."""
    where = {w for ws in CITED.values() for w in ws}

    def cited_by(clause: str, prefix: str) -> bool:
        return any(w.startswith(prefix) for w in CITED.get(clause, ()))

    assert cited_by("2.15.1", "tests/test_families_reference.py::test_2_15_1_")
    assert cited_by("6.3.6", "tests/test_families_reference.py::test_6_3_2_and_6_3_6_")
    assert cited_by("Edge 12", "tests/test_reference.py::test_edge_12_")
    assert cited_by("§3", "pitchsim/game/rules.py")
    assert any(w.startswith("pitchsim/kernels/") for w in where)
    assert any(w == CLAUSE_MODULES[0] for w in where)


@pytest.mark.parametrize(
    ("text", "refs"),
    [
        (
            "(VARIANTS.md 0.2, 1.4, 2.3-2.6, 3.3, 6.1 all-pass, 4.4)",
            ["0.2", "1.4", "2.3", "2.4", "2.5", "2.6", "3.3", "6.1"],
        ),
        ("VARIANTS.md 1.3, 2.14, 3.14 and 4.14, the", ["1.3", "2.14", "3.14", "4.14"]),
        ("# (VARIANTS.md 0.7, 0.8,\n    # 4.10).", ["0.7", "0.8", "4.10"]),
        ("VARIANTS.md sections 1-4, 6", ["1", "2", "3", "4", "6"]),
        ("VARIANTS[deal % len(VARIANTS)]; for v in VARIANTS:\n    1.5", []),
        ("AUCTION_VARIANTS 2.3", []),
    ],
)
def test_text_citations_are_read_as_clause_lists(text, refs):
    assert text_citations(text) == refs


def test_a_clause_missing_from_the_doc_is_reported():
    """Take one cited clause, one section and one edge case out of the page: each is
    reported, with where it is cited."""
    doc = DOC.read_text(encoding="utf-8")
    assert not missing(CITED, doc)
    cut = re.sub(r"^\*\*2\.15\.1\*\*", "2.15.1", doc, flags=re.M)
    cut = re.sub(r"^(#+ )§3\b", r"\1Section 3", cut, flags=re.M)
    cut = re.sub(r"^\*\*Edge 7\*\*", "Edge 7", cut, flags=re.M)
    gaps = missing(CITED, cut)
    assert set(gaps) == {"2.15.1", "§3", "Edge 7"}
    assert any("test_2_15_1_" in w for w in gaps["2.15.1"])
