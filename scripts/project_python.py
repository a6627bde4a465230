"""Run a script of scripts/ under the project's Python: from a Python without pitchsim
importable, the script starts again with the project's .venv (or says how to make it).

    import project_python  # scripts/ is first on sys.path when a script runs

    project_python.require(__file__)
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def require(script: str) -> None:
    """Return if pitchsim (with pandas) imports here; else re-run ``script`` with the
    project's .venv, or exit with what to do."""
    try:
        import pandas  # noqa: F401

        import pitchsim  # noqa: F401

        return
    except ModuleNotFoundError:
        pass
    venv = ROOT / ".venv" / ("Scripts" if os.name == "nt" else "bin") / "python"
    if venv.exists() and Path(sys.executable).resolve() != venv.resolve():
        os.execv(venv, [str(venv), script, *sys.argv[1:]])
    sys.exit(
        f"{Path(script).name} needs pitchsim installed: run `python3 scripts/dev.py test` "
        "once (it creates .venv), or `pip install -e .`"
    )
