"""The docstring examples run as doctests (``--doctest-modules`` in pyproject.toml, with
the package among the test paths); collecting them imports every module, which must
work without the optional Dask extra."""

import subprocess
import sys

IMPORT_ALL_WITHOUT_DASK = """
import importlib, pkgutil, sys

class NoDask:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("dask", "distributed"):
            raise ImportError(f"{name} is not installed (blocked for this test)")

sys.meta_path.insert(0, NoDask())
import pitchsim
names = [m.name for m in pkgutil.walk_packages(pitchsim.__path__, "pitchsim.")
         if m.name != "pitchsim.__main__"]
for name in names:
    importlib.import_module(name)
import pitchsim.__main__  # guarded: importing it must not run the CLI
print(len(names))
"""


def test_every_module_imports_without_the_dask_extra():
    p = subprocess.run(
        [sys.executable, "-c", IMPORT_ALL_WITHOUT_DASK], capture_output=True, text=True, timeout=300
    )
    assert p.returncode == 0, p.stderr
    assert int(p.stdout.split()[-1]) > 30


def test_the_doctests_are_collected(pytestconfig):
    assert pytestconfig.getoption("doctestmodules")
    assert "pitchsim" in pytestconfig.getini("testpaths")
