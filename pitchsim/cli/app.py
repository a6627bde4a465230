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


def _print_version(asked: bool) -> None:
    if asked:
        from importlib.metadata import PackageNotFoundError, version

        try:
            number = version("pitchsim")
        except PackageNotFoundError:  # run from a source tree that was never installed
            number = "unknown (not installed)"
        print(f"pitchsim {number}")
        raise typer.Exit()


@app.callback()
def _root(
    show_version: bool = typer.Option(
        False,
        "--version",
        callback=_print_version,
        is_eager=True,
        help="Print pitchsim's version and exit.",
    ),
) -> None:
    """Strategy analyzer for Pitch (Auction Pitch / Setback): odds from simulated deals."""
