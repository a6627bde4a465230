"""The ``pitchsim`` command: parse and validate, call the library, render.

Each command lives in its own module and registers itself on ``app``.  Bad input
raises :class:`pitchsim.util.errors.InputError`; ``main`` turns it (and click's usage
errors) into one line on stderr and exit code 2.
"""

from __future__ import annotations

import os
import sys

import typer

try:  # typer >= 0.26 vendors click; older versions use click itself
    from typer._click import exceptions as click_errors
except ImportError:  # pragma: no cover
    from click import exceptions as click_errors

from ..util.errors import InputError, Interrupted

app = typer.Typer(
    name="pitchsim",
    help="Strategy analyzer for Pitch (Auction Pitch / Setback): odds from simulated deals.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)

from . import advise, bid_odds, cache, chart, hint, play, practice, rules, simulate, solve, table, tournament  # noqa: E402,F401  (commands register on import)
from .common import reject_empty  # noqa: E402
from .engine import engine_command  # noqa: E402,F401  (registers pitchsim engine)

for _command in app.registered_commands:  # an empty option value is an error, in every command
    _command.callback = reject_empty(_command.callback)


def fail(message: str) -> None:
    print(f"pitchsim: error: {message}", file=sys.stderr)
    sys.exit(2)


def main(argv: list[str] | None = None) -> None:
    try:
        rc = app(args=argv, standalone_mode=False)
    except InputError as e:
        fail(str(e))
    except Interrupted as e:
        print(f"pitchsim: interrupted: {e}", file=sys.stderr)
        sys.exit(130)
    except click_errors.NoArgsIsHelpError as e:
        print(e.ctx.get_help() if e.ctx else str(e), file=sys.stderr)
        sys.exit(2)
    except click_errors.UsageError as e:
        fail(e.format_message().replace("\n", " "))
    except (typer.Abort, KeyboardInterrupt):
        print("pitchsim: interrupted", file=sys.stderr)
        sys.exit(130)
    except BrokenPipeError:
        # The reader (``| head``) went away: not an error worth a traceback.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(1)
    except OSError as e:  # an output path that cannot be written, a full disk ...
        fail(f"{e.strerror or e}: {e.filename}" if e.filename else str(e))
    if rc == 130:  # typer turns Ctrl-C into this exit code
        print("pitchsim: interrupted", file=sys.stderr)
    sys.exit(rc if isinstance(rc, int) else 0)
