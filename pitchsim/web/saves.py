"""The saves folder: the one place on disk the web table reads and writes.

Every game played through the page is saved here when it ends (finished, quit or
stopped idle), written atomically (``util/atomic.py``).  The page may list the folder's
records and open one by its name; a name is a plain file name ending in ``.json``
(no folder, no dot first), so no request reaches a file outside the folder.
"""

from __future__ import annotations

import re
import secrets
import time
from pathlib import Path

from ..util.atomic import write_file
from ..util.errors import InputError
from ..util.jsonio import dumps_json, read_json

NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,80}\.json")


class SaveError(InputError):
    """A saved game that cannot be opened."""


class Saves:
    def __init__(self, folder: str | Path):
        self.folder = Path(folder)
        self.check()

    def check(self) -> None:
        """Refuse, before any game is played, a folder no game could be saved in: a file,
        or a place under a file (the folder itself is made at the first save)."""
        f = self.folder
        if f.exists() and not f.is_dir():
            raise SaveError(f"--saves {f} is not a folder")
        above = f
        while not above.exists() and above != above.parent:
            above = above.parent
        if not above.is_dir():
            raise SaveError(f"--saves {f}: {above} is not a folder")

    def save(self, record: dict) -> str:
        """Write ``record`` under a new name; the name."""
        self.folder.mkdir(parents=True, exist_ok=True)
        stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
        name = f"game-{stamp}-{secrets.token_hex(3)}.json"
        write_file(self.folder / name, dumps_json(record, indent=1) + "\n")
        return name

    def names(self) -> list[dict]:
        """The saved games, newest first: name, size, players, finished or not."""
        if not self.folder.is_dir():
            return []
        out = []
        for p in self.folder.iterdir():
            if NAME.fullmatch(p.name) and p.is_file() and not p.is_symlink():
                out.append({"name": p.name, "bytes": p.stat().st_size, "mtime": p.stat().st_mtime})
        return sorted(out, key=lambda d: (-d["mtime"], d["name"]))

    def path(self, name: object) -> Path:
        if not isinstance(name, str) or not NAME.fullmatch(name):
            raise SaveError("a saved game is named like game-20260101-120000-ab12cd.json")
        p = self.folder / name
        if p.is_symlink() or not p.is_file():
            raise SaveError(f"no saved game {name}")
        return p

    def read(self, name: object) -> object:
        return read_json(str(self.path(name)), "the saved game")
