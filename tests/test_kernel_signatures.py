"""The kernels compile once per signature a command needs, not once per way of calling.

Numba compiles a jitted function again for every tuple of argument types it is called
with, and some of those tuples differ only in how the call was written:
- an argument left to its default is typed ``omitted(default=...)``, apart from the
  same value passed (``none``, ``int64``);
- a bare constant (``0``, ``-1``, a module constant such as ``PITCHER``) passed from
  compiled code is typed ``Literal[int](0)``, apart from an ``int64`` variable.

Each such twin costs the whole compile again (36 CPU-s for a game kernel), in every
fresh process and in CI.  These checks read the source: no kernel of
``pitchsim/kernels`` has a default argument, and compiled code passes no bare integer
constant to a kernel (``np.int64(...)`` instead; an inlined kernel passes it on).  A kernel that
must see a literal (``base=True``, read by ``numba.literally``) passes ``True``.
``scripts/compile_times.py`` lists the kernels one command compiled more than once.
"""

from __future__ import annotations

import ast
from pathlib import Path

KERNELS = Path(__file__).resolve().parent.parent / "pitchsim" / "kernels"

# Defaults kept: ``decide`` takes the preset's options as defaults for the base game's
# shape (its callers pass them all or none: two signatures by design); ``new_table``
# is small and called from Python.
DEFAULTS_KEPT = {"decide", "new_table"}


def _jitted(tree: ast.AST):
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef):
            decorators = [ast.unparse(d) for d in node.decorator_list]
            if any("njit" in d for d in decorators):
                yield node, any("inline" in d for d in decorators)


def _trees() -> dict[Path, ast.AST]:
    return {p: ast.parse(p.read_text()) for p in sorted(KERNELS.rglob("*.py"))}


def test_no_kernel_has_a_default_argument():
    found = [
        f"{p.relative_to(KERNELS)}:{f.lineno} {f.name}"
        for p, tree in _trees().items()
        for f, _ in _jitted(tree)
        if f.args.defaults and f.name not in DEFAULTS_KEPT
    ]
    assert not found, f"kernels with a default argument (pass it at every call): {found}"


def _int_constants(trees) -> set[str]:
    """The module-level names of the kernels bound to an integer (``PITCHER = 0``,
    ``AUCTION_COUNTER = 1 << 20``): compiled code reads them as their literal value."""
    names: set[str] = set()
    for tree in trees.values():
        for node in tree.body:
            if isinstance(node, ast.Assign) and len(node.targets) == 1:
                target = node.targets[0]
                try:
                    value = eval(compile(ast.Expression(node.value), "", "eval"), {})  # noqa: S307
                except Exception:  # noqa: BLE001  (names, calls: not a plain integer)
                    continue
                if isinstance(target, ast.Name) and type(value) is int:
                    names.add(target.id)
    return names


def _is_int_constant(arg: ast.expr, constants: set[str]) -> bool:
    if isinstance(arg, ast.UnaryOp):
        arg = arg.operand
    if isinstance(arg, ast.Constant):
        return type(arg.value) is int
    return isinstance(arg, ast.Name) and arg.id in constants


def test_compiled_code_passes_no_bare_integer_constant():
    trees = _trees()
    # to an inlined kernel too: its body passes the constant on to the kernels it calls
    own = {f.name for tree in trees.values() for f, _ in _jitted(tree)}
    constants = _int_constants(trees)
    found = []
    for p, tree in trees.items():
        for f, _ in _jitted(tree):
            for call in ast.walk(f):
                if not isinstance(call, ast.Call):
                    continue
                name = getattr(call.func, "attr", None) or getattr(call.func, "id", None)
                if name in own:
                    found += [
                        f"{p.relative_to(KERNELS)}:{a.lineno} {f.name} -> {name}: {ast.unparse(a)}"
                        for a in call.args
                        if _is_int_constant(a, constants)
                    ]
    assert not found, f"bare constants passed to kernels (wrap in np.int64): {found}"


def test_the_checks_see_a_planted_twin(tmp_path, monkeypatch):
    """The checks fail on the two kinds of twin they exist for."""
    bad = tmp_path / "kernels"
    bad.mkdir()
    (bad / "k.py").write_text(
        "from numba import njit\n"
        "PITCHER = 0\n"
        "@njit\ndef inner(a, b=-1):\n    return a + b\n"
        "@njit\ndef outer(a):\n    return inner(a, PITCHER) + inner(a, 0)\n"
    )
    monkeypatch.setattr(__import__(__name__), "KERNELS", bad)
    import pytest

    with pytest.raises(AssertionError, match="inner"):
        test_no_kernel_has_a_default_argument()
    with pytest.raises(AssertionError, match="PITCHER"):
        test_compiled_code_passes_no_bare_integer_constant()
