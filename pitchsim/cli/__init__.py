"""The ``pitchsim`` command: parse and validate, call the library, render.

Each command lives in its own module and registers itself on ``app``
(:mod:`pitchsim.cli.app`).  Bad input raises :class:`pitchsim.util.errors.InputError`;
``main`` turns it (and click's usage errors) into one line on stderr and exit code 2.

A command module imports at its top only what its options and help need (typer, the
rules, the cards): the library behind it (numba kernels, numpy, pandas) loads inside
the command, so that ``--help``, ``rules`` and argument errors answer at once
(tests/test_cli_startup.py checks that they never load numba).
"""

from __future__ import annotations

import os
import re
import sys
from importlib import import_module

import typer

try:  # typer >= 0.26 vendors click; older versions use click itself
    from typer._click import exceptions as click_errors
except ImportError:  # pragma: no cover
    from click import exceptions as click_errors

from ..util.errors import InputError, Interrupted
from .app import app
from .common import command_line, plain_number_options, refuse_repeated_options, reject_empty

# Each command module registers its command on ``app`` when imported.
COMMANDS = (
    "advise",
    "bid_odds",
    "cache",
    "chart",
    "engine",
    "hint",
    "play",
    "practice",
    "rules",
    "serve",
    "simulate",
    "solve",
    "table",
    "tournament",
)
for _module in COMMANDS:
    import_module(f".{_module}", __name__)

for _command in app.registered_commands:  # an empty option value is an error, in every command
    plain_number_options(_command.callback)  # a number is plain digits, in every command
    _command.callback = reject_empty(_command.callback)


def fail(message: str) -> None:
    # The last guard behind util.errors.quoted: no echoed token of megabytes (an OS error
    # names a file whole), and one line.  A file's path (up to 300 characters) stays whole.
    message = re.sub(
        r"\S{301,}",
        lambda m: f"{m.group()[:60]}... ({len(m.group()):,} characters)",
        " ".join(str(message).split()),
    )
    print(f"pitchsim: error: {message}", file=sys.stderr)
    sys.exit(2)


def main(argv: list[str] | None = None) -> None:
    try:
        args = sys.argv[1:] if argv is None else argv
        command_line.set(tuple(args))  # so that an error names the flag typed
        refuse_repeated_options(app, args)
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
