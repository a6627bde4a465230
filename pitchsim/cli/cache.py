"""``pitchsim cache``: where the compiled kernels are kept, how big they are; clear them."""

from __future__ import annotations

import datetime as dt
import sys

import typer

from ..util.jsonio import dumps_json
from .app import app


@app.command("cache")
def cache_command(
    clear: bool = typer.Option(
        False, "--clear", help="Delete the folders of other pitchsim versions (not this one's)."
    ),
    all_: bool = typer.Option(
        False, "--all", help="With --clear: this version's folder too (the next run recompiles)."
    ),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON document on stdout."),
) -> None:
    """Show or clear the cache of compiled kernels (one folder per kernel version)."""
    if all_ and not clear:
        from ..util.errors import InputError

        raise InputError("--all goes with --clear")
    from .. import kernels  # loads numba, compiles nothing

    gone = kernels.prune_cache(0, keep_current=not all_) if clear else []
    folders = kernels.cache_folders()
    if as_json:
        doc = {
            "root": str(kernels.cache_root()),
            "current": str(kernels.CACHE_DIR),
            "own_cache": kernels.OWN_CACHE,
            "folders": [
                {
                    "path": str(d),
                    "bytes": size,
                    "last_used": used,
                    "current": d.name == kernels.DIGEST,
                }
                for d, size, used in folders
            ],
            "deleted": [str(d) for d in gone],
        }
        sys.stdout.write(dumps_json(doc) + "\n")
        return
    lines = []
    if not kernels.OWN_CACHE:
        lines.append(
            f"NUMBA_CACHE_DIR is set: kernels are cached in {kernels.CACHE_DIR}, "
            "which pitchsim leaves alone."
        )
    lines.append(f"Compiled kernels are cached in {kernels.cache_root()}, one folder per version")
    lines.append(f"of pitchsim's kernel source; this version's is {kernels.DIGEST}.")
    for d in gone:
        lines.append(f"deleted {d}")
    if not folders:
        lines.append(
            "The cache is empty: the next command that runs kernels compiles them (15-60 s)."
        )
    for d, size, used in folders:
        when = dt.datetime.fromtimestamp(used).strftime("%Y-%m-%d %H:%M")
        mark = "  (this version)" if d.name == kernels.DIGEST else ""
        lines.append(f"  {d.name}  {size / 1e6:6.1f} MB  last used {when}{mark}")
    others = [f for f in folders if f[0].name != kernels.DIGEST]
    if others:
        lines.append(
            f"Folders unused for {kernels.STALE_DAYS} days are deleted at the next "
            "compile; `pitchsim cache --clear` deletes the others now."
        )
    sys.stdout.write("\n".join(lines) + "\n")
