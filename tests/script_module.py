"""The one way the tests import a file of ``scripts/`` (not a package) as a module."""

from __future__ import annotations

import importlib.util
from pathlib import Path

SCRIPTS = Path(__file__).resolve().parent.parent / "scripts"


def script_module(name: str):
    """``scripts/NAME.py`` loaded as the module ``NAME``."""
    spec = importlib.util.spec_from_file_location(name, SCRIPTS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
