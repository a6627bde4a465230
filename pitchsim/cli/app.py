"""The typer ``app`` every command registers itself on.

It lives apart from :mod:`pitchsim.cli` (which imports every command module and runs
``main``) so that a command module imports this, not the package that imports it.
"""

from __future__ import annotations

import typer

app = typer.Typer(
    name="pitchsim",
    help="Strategy analyzer for Pitch (Auction Pitch / Setback): odds from simulated deals.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)
