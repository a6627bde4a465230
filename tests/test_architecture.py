"""The house plan holds: no import circles, and no arrow running back up the layers.

The import graph is read from the source with ``ast`` (nothing is imported): every
module under pitchsim/, every ``import`` and ``from ... import`` in it, relative or
absolute, at the top or inside a function or an ``if TYPE_CHECKING:`` block (a circle
that only the type checker sees is still a circle in the design).  Importing a
submodule also runs its package's ``__init__``; that implicit arrow is not counted.

Layers, low to high (docs/architecture.md says why):

    util < game < kernels < table < search, advice, study < coach < web < cli

A module may import its own layer and the layers below it.  search, advice and study
are peers: they may import each other, but the cycle check keeps that from becoming a
circle.  The package's own ``__init__`` (which imports lazily, by name) and
``__main__`` stand above cli.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent / "pitchsim"

ORDER = [
    "util",
    "game",
    "kernels",
    "table",
    "search advice study",
    "coach",
    "web",
    "cli",
]  # low to high
LAYERS = {room: i for i, rooms in enumerate(ORDER) for room in rooms.split()}
TOP = max(LAYERS.values()) + 1  # pitchsim/__init__.py and __main__.py


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def import_graph(root: Path = ROOT) -> dict[str, dict[str, int]]:
    """module -> {module it imports: the line of the first such import}."""
    files = {module_name(p, root): p for p in sorted(root.rglob("*.py"))}
    top = root.name

    def known(name: str) -> str | None:
        """The module ``name`` is, or the nearest package it is an attribute of."""
        while name and name not in files:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, dict[str, int]] = {}
    for mod, path in files.items():
        package = mod if path.name == "__init__.py" else mod.rpartition(".")[0]
        arrows = graph.setdefault(mod, {})
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            targets = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")
                    base = base[: len(base) - (node.level - 1)]
                    origin = ".".join(base + ([node.module] if node.module else []))
                else:
                    origin = node.module or ""
                # ``from . import x``: x may be a submodule or a name in the package
                targets = [f"{origin}.{a.name}" for a in node.names]
            for t in targets:
                if t == top or t.startswith(top + "."):
                    target = known(t)
                    if target is not None and target != mod:
                        arrows.setdefault(target, node.lineno)
    return graph


def strongly_connected(graph: dict[str, dict[str, int]]) -> list[list[str]]:
    """Tarjan's algorithm: every set of modules that import each other round a circle."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph.get(v, {}):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def one_cycle(graph: dict[str, dict[str, int]], members: list[str]) -> list[str]:
    """A shortest circle through the first of ``members``, to print: a -> b -> ... -> a."""
    inside = set(members)
    start = members[0]
    paths = {start: [start]}
    queue = [start]
    while queue:
        v = queue.pop(0)
        for w in sorted(graph[v]):
            if w == start:
                return paths[v] + [start]
            if w in inside and w not in paths:
                paths[w] = paths[v] + [w]
                queue.append(w)
    raise AssertionError("not a circle")  # pragma: no cover


def describe(graph, members) -> str:
    cycle = one_cycle(graph, members)
    steps = [f"{a} (line {graph[a][b]}) -> {b}" for a, b in zip(cycle, cycle[1:], strict=False)]
    return "circle: " + ";  ".join(steps)


def layer(mod: str) -> int:
    parts = mod.split(".")
    return LAYERS[parts[1]] if len(parts) > 1 and parts[1] in LAYERS else TOP


def arrows_up(graph) -> list[str]:
    return [
        f"{a} (line {line}) imports {b}: layer {layer(a)} -> {layer(b)}"
        for a, targets in sorted(graph.items())
        for b, line in sorted(targets.items())
        if layer(b) > layer(a)
    ]


@pytest.fixture(scope="module")
def graph():
    return import_graph()


def test_every_module_is_in_a_layer(graph):
    """A new room at the top of the package must be given its place in LAYERS."""
    loose = [m for m in graph if layer(m) == TOP and m not in ("pitchsim", "pitchsim.__main__")]
    assert not loose, f"modules outside every layer: {loose}"


def test_no_import_circles(graph):
    cycles = list(strongly_connected(graph))
    assert not cycles, "\n".join(describe(graph, c) for c in cycles)


def test_no_arrow_runs_back_up(graph):
    up = arrows_up(graph)
    assert not up, "\n".join(up)


# ---- inside kernels/: its rooms are layers too ------------------------------------------

# A room of kernels/ is a subpackage (``search``, ``policies``...) or a module at its top
# (``contract``, ``advice``...).  Low to high; docs/architecture.md says why.  ``search``
# holds the solver and what the preset kernels' search borrows; the advisor bidder sits
# above the auction it runs.
KERNEL_ORDER = [
    "bits rng presets borrow contract",
    "trump_order deal draw trick settle",
    "policies bidding score",
    "partner",
    "plain search",
    "play",
    "simulate",
    "fixed_hand sample bid_table game",
    "advice",
    "advisor",
]
KERNEL_LAYERS = {room: i for i, rooms in enumerate(KERNEL_ORDER) for room in rooms.split()}


def kernel_room(mod: str) -> str | None:
    parts = mod.split(".")
    return parts[2] if len(parts) > 2 and parts[1] == "kernels" else None


def kernel_rooms(graph) -> dict[str, dict[str, str]]:
    """room -> {room it imports: the first such import, to print}."""
    rooms: dict[str, dict[str, str]] = {}
    for a, targets in sorted(graph.items()):
        ra = kernel_room(a)
        if ra is None:
            continue
        rooms.setdefault(ra, {})
        for b, line in sorted(targets.items()):
            rb = kernel_room(b)
            if rb is not None and rb != ra:
                rooms[ra].setdefault(rb, f"{a} (line {line}) imports {b}")
    return rooms


def kernel_arrows_up(graph) -> list[str]:
    return [
        f"{why}: kernel layer {KERNEL_LAYERS[a]} -> {KERNEL_LAYERS[b]}"
        for a, targets in kernel_rooms(graph).items()
        for b, why in targets.items()
        if KERNEL_LAYERS.get(b, -1) > KERNEL_LAYERS.get(a, len(KERNEL_ORDER))
    ]


def test_every_kernel_room_is_in_a_layer(graph):
    loose = sorted(set(kernel_rooms(graph)) - set(KERNEL_LAYERS))
    assert not loose, f"rooms of kernels/ outside KERNEL_ORDER: {loose}"


def test_no_kernel_room_circles(graph):
    rooms = {a: dict.fromkeys(t, 0) for a, t in kernel_rooms(graph).items()}
    assert strongly_connected(rooms) == []


def test_no_kernel_arrow_runs_back_up(graph):
    up = kernel_arrows_up(graph)
    assert not up, "\n".join(up)


# ---- the checks themselves, on a small package written here ----------------------------


def _package(tmp_path: Path, files: dict[str, str]) -> Path:
    root = tmp_path / "pitchsim"
    for name, text in {"__init__.py": "", **files}.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


def test_a_planted_circle_is_found_and_named(tmp_path):
    root = _package(
        tmp_path,
        {
            "util/__init__.py": "",
            "util/a.py": "from . import b\n",
            "util/b.py": "def f():\n    from pitchsim.util.c import x\n",  # inside a function
            "util/c.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .a import y\n",
            "util/d.py": "from .a import y\n",  # leads into the circle, is not in it
        },
    )
    g = import_graph(root)
    (cycle,) = strongly_connected(g)
    assert cycle == ["pitchsim.util.a", "pitchsim.util.b", "pitchsim.util.c"]
    assert describe(g, cycle) == (
        "circle: pitchsim.util.a (line 1) -> pitchsim.util.b;  pitchsim.util.b (line 2) -> "
        "pitchsim.util.c;  pitchsim.util.c (line 3) -> pitchsim.util.a"
    )


def test_a_planted_arrow_up_is_found(tmp_path):
    root = _package(
        tmp_path,
        {
            "game/__init__.py": "",
            "game/cards.py": "import pitchsim.cli.common as c\n",
            "cli/__init__.py": "from ..game import cards\n",  # down: allowed
            "cli/common.py": "",
        },
    )
    assert arrows_up(import_graph(root)) == [
        "pitchsim.game.cards (line 1) imports pitchsim.cli.common: layer 1 -> 7"
    ]


# ---- the map matches the house ------------------------------------------------------------

DOCS = ROOT.parent


def readme_tree() -> dict[str, str]:
    """Room -> its lines in the README's "How it works" tree."""
    text = (DOCS / "README.md").read_text()
    tree = text.split("## How it works", 1)[1].split("```", 2)[1]
    rooms: dict[str, str] = {}
    room = None
    for line in tree.splitlines():
        if line.startswith("  ") and not line.startswith("   "):
            room = line.split()[0].rstrip("/")
            rooms[room] = ""
        if room is not None and line.startswith("  "):
            rooms[room] += line + "\n"
    return rooms


def words(text: str) -> set[str]:
    return set(re.findall(r"[a-z_]+", text))


def test_the_readme_tree_names_every_room_and_its_modules():
    """Every room (a package under pitchsim/) has its line in the README's tree, and every
    module of the rooms listed module by module is named there (the kernels and the
    commands are listed by kind, in docs/architecture.md in full)."""
    rooms = readme_tree()
    packages = sorted(p.name for p in ROOT.iterdir() if (p / "__init__.py").is_file())
    assert sorted(set(packages) - set(rooms)) == []
    for room in ("util", "game", "table", "search", "advice", "study"):
        modules = {p.stem for p in (ROOT / room).glob("*.py")} - {"__init__"}
        missing = sorted(modules - words(rooms[room]))
        assert not missing, f"README tree, {room}/: {missing} not named"


def test_the_architecture_page_names_every_module():
    text = (DOCS / "docs" / "architecture.md").read_text()
    named = words(text)
    missing = sorted(
        str(p.relative_to(ROOT))
        for p in ROOT.rglob("*.py")
        if p.stem not in named and p.stem != "__init__"
    )
    assert not missing, f"docs/architecture.md does not name {missing}"
    for room in LAYERS:
        assert f"**`{room}/`**" in text


def test_a_planted_kernel_arrow_up_is_found(tmp_path):
    root = _package(
        tmp_path,
        {
            "kernels/__init__.py": "",
            "kernels/game.py": "from .policies import heuristic\n",  # down: allowed
            "kernels/policies/__init__.py": "",
            "kernels/policies/heuristic.py": "",
            "kernels/search/__init__.py": "",
            "kernels/search/solver.py": "from .. import game\n",
        },
    )
    g = import_graph(root)
    assert kernel_arrows_up(g) == [
        "pitchsim.kernels.search.solver (line 1) imports pitchsim.kernels.game: kernel layer "
        f"{KERNEL_LAYERS['search']} -> {KERNEL_LAYERS['game']}"
    ]
    assert strongly_connected({a: dict.fromkeys(t, 0) for a, t in kernel_rooms(g).items()}) == []
