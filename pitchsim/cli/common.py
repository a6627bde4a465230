"""Options and rendering shared by several commands."""

from __future__ import annotations

import contextvars
import functools
import inspect
import re
import sys
import types
import typing

import typer

try:  # typer >= 0.26 vendors click; older versions use click itself
    from typer._click.core import ParameterSource
    from typer._click.exceptions import UsageError
    from typer._click.globals import get_current_context
except ImportError:  # pragma: no cover
    from click.core import ParameterSource
    from click.exceptions import UsageError
    from click.globals import get_current_context

from ..game.cards import SUIT_NAMES, SUIT_SYMBOLS
from ..game.rules import Rules, rule_values
from ..game.variants import rules_help
from ..util.conflicts import settle, shown
from ..util.errors import InputError, quoted
from ..util.jsonio import dumps_json
from ..util.limits import MAX_TARGET, check_count
from ..util.runtime import check_seed

PlayersOpt = typer.Option(4, "--players", "-n", help="Players at the table (2-7).")


def _checked_seed(value: int | None) -> int | None:
    return None if value is None else check_seed(value)


def seed_option(
    default: int | None = None, help: str = "Random seed (default: a new one, printed)."
):
    """``--seed``, checked as it is read (0 to 2^62 - 1, docs/limits.md): the one reader
    of every command's seed, so that -5 or a 23-digit seed is refused the same way by
    all of them, before any work."""
    return typer.Option(default, "--seed", help=help, callback=_checked_seed)


SeedOpt = seed_option()
PolicyOpt = typer.Option(
    "heuristic",
    "--policy",
    help="Play policy: random, heuristic, rollout[:W][:read], pimc[:W][:read] or epimc[:W][:read] (W worlds a decision; read: the worlds read the play); or one per "
    "seat, comma-separated.",
)
PartnershipOpt = typer.Option(
    False, "--partnership", help="Two teams of two (seats 0+2 vs 1+3); 4 players only."
)
RulesOpt = typer.Option(None, "--rules", help=rules_help())
RunRulesOpt = typer.Option(
    None,
    "--rules",
    help="The run's rules, checked: a run played under other rules is refused (default: "
    "the run's own, from its manifest).",
)
ThreadsOpt = typer.Option(None, "--threads", help="Threads to run on (default: all cores).")
JsonOpt = typer.Option(False, "--json", help="Print one JSON document on stdout.")
NoVerifyOpt = typer.Option(
    False,
    "--no-verify",
    help="Check parts only by size and rows, not by checksum, players and deals (faster, "
    "trusts the disk).",
)
FullCheckOpt = typer.Option(
    False,
    "--full-check",
    help="Check every part by its SHA-256, even parts checked before (slower: reads are "
    "otherwise checked by a fast checksum, once).",
)


def run_verify(no_verify: bool, full_check: bool) -> bool | str:
    """What --no-verify and --full-check ask of pitchsim.study.analysis.Run(verify=...)."""
    if no_verify and full_check:
        raise InputError("--no-verify and --full-check contradict each other: give one")
    return "full" if full_check else not no_verify


def make_rules(
    spec: str | None, partnership: bool, players: int | None, target: int | None = None
) -> Rules:
    """The --rules, with --partnership and --target (where a command has it) on top; an
    option given both ways with different values is refused (util.conflicts), not
    silently resolved."""
    given = rule_values(spec)
    if target is not None:
        check_count("--target", target, MAX_TARGET)
    given["target"] = settle(
        [
            ("--target " + shown(target), target),
            ("--rules target=" + shown(given.get("target")), given.get("target")),
        ]
    )
    given["partnership"] = settle(
        [
            ("--partnership", True if partnership else None),
            ("--rules partnership=" + shown(given.get("partnership")), given.get("partnership")),
        ]
    )
    rules = Rules.parse({k: v for k, v in given.items() if v is not None})
    if players is not None:
        rules.check_players(players)
    return rules


def positive(name: str, value: int | None, limit: int | None = None) -> None:
    """A count option: None (not given) or 1 to ``limit`` (docs/limits.md)."""
    check_count(name, value, limit if limit is not None else 1 << 62)


def given_flags(*names: str) -> list[str]:
    """The options among the parameters ``names`` that the command line gave, each by its
    long flag (``--players``), in the command's order; a default value is not given, even
    when it equals the value (``--players 4`` is).  Outside a command line: none."""
    ctx = get_current_context(silent=True)
    if ctx is None:
        return []
    return [
        next((o for o in p.opts if o.startswith("--")), p.opts[0])
        for p in ctx.command.params
        if p.name in names and ctx.get_parameter_source(p.name) == ParameterSource.COMMANDLINE
    ]


def _flag(name: str, info) -> str:
    """How an error names the parameter ``name`` (typer's ``info``): its long flag
    (``--players``), else the argument's name in capitals."""
    decls = getattr(info, "param_decls", None) or ()
    return next((d for d in decls if d.startswith("--")), name.upper())


def reject_empty(command):
    """Wrap a command so that an empty string given to any of its options or arguments
    (``--hand ""``, ``-n ""``) is an error naming it, never taken for "not given"."""
    params = inspect.signature(command).parameters

    @functools.wraps(command)
    def checked(**kwargs):
        for name, value in kwargs.items():
            if isinstance(value, str) and not value.strip():
                info = params[name].default
                opts = [d for d in getattr(info, "param_decls", None) or () if d.startswith("-")]
                raise InputError(f"{typed_flag(opts, value, _flag(name, info))} is empty")
        return command(**kwargs)

    return checked


_WHOLE = re.compile(r"-?[0-9]+")
_DECIMAL = re.compile(r"-?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][-+]?[0-9]+)?")

# The command line being read (main sets it), so that an error names the flag the user
# typed (``-g``, ``--games``), not the parameter's first long flag.
command_line: contextvars.ContextVar[tuple[str, ...]] = contextvars.ContextVar(
    "command_line", default=()
)


def typed_flag(opts, value: str | None, fallback: str) -> str:
    """Which of the flags ``opts`` the command line gave ``value`` to (``-g 5``,
    ``--games=5``, ``-g5``; ``value`` None: any value): the first such, else
    ``fallback``."""
    argv = command_line.get()
    for i, token in enumerate(argv):
        if token == "--":
            break
        for opt in opts:
            after = argv[i + 1] if i + 1 < len(argv) else None
            if token == opt and after is not None and value in (None, after):
                return opt
            name, eq, given = token.partition("=")
            if opt.startswith("--") and name == opt and eq and value in (None, given):
                return opt
            if not opt.startswith("--") and token.startswith(opt) and len(token) > len(opt):
                if value in (None, token[len(opt) :]):
                    return opt
    return fallback


def _plain_number(flag: str, kind: type, opts=()):
    """The reader of an ``int`` or ``float`` option ``flag``: plain decimal digits (a
    float may have a point and an exponent), a minus sign allowed (the option's own
    range check then says what it takes), nothing else.  typer would take ``4.0``,
    ``+4``, `` 4`` and ``1_000`` for an integer and ``1_0`` or `` 2`` for seconds
    (Python's ``int``/``float`` and pydantic's lax numbers); a mistyped number must
    not run as another one.  An error names the flag of ``opts`` that was typed."""
    pattern, like = (_WHOLE, "a whole number in plain digits (like 4)") if kind is int else (
        _DECIMAL, "a number in plain digits (like 2 or 0.5)"
    )  # fmt: skip

    def read(value):
        if isinstance(value, kind | int) and not isinstance(value, bool):
            return kind(value)  # the option's default
        if isinstance(value, str) and pattern.fullmatch(value):
            if len(value) > 100:  # past any option's range, and past what int() reads
                raise UsageError(
                    f"{typed_flag(opts, value, flag)} is out of range: {quoted(value)}"
                )
            return kind(value)
        if isinstance(value, str) and not value.strip():  # as reject_empty says it
            raise UsageError(f"{typed_flag(opts, value, flag)} is empty")
        # not a ValueError: typer's reader would wrap that in words of its own
        raise UsageError(f"{typed_flag(opts, value, flag)} must be {like}, not {quoted(value)}")

    return read


_NUMBER_KINDS = {int: int, float: float}


def number_kind(annotation) -> type | None:
    """``int`` or ``float`` for a parameter annotated so, also as ``int | None``,
    ``Optional[float]`` or the string of either (``from __future__ import
    annotations``); else None."""
    if isinstance(annotation, str):
        names = {
            t.strip() for t in re.sub(r"^Optional\[(.*)\]$", r"\1", annotation.strip()).split("|")
        }
        names.discard("None")
        kinds = {{"int": int, "float": float}.get(n) for n in names}
    else:
        args = typing.get_args(annotation) if typing.get_origin(annotation) in (
            typing.Union, types.UnionType
        ) else (annotation,)  # fmt: skip
        kinds = {_NUMBER_KINDS.get(a) for a in args if a is not type(None)}
    return kinds.pop() if len(kinds) == 1 else None


def plain_number_options(command) -> None:
    """Every ``int`` and ``float`` option and argument of ``command`` (``| None`` too)
    read by :func:`_plain_number`: one reader of numbers for the whole command line."""
    for name, p in inspect.signature(command).parameters.items():
        info = p.default
        kind = number_kind(p.annotation)
        if kind is None or not hasattr(info, "parser"):
            continue
        if info.parser is None:
            opts = tuple(d for d in (getattr(info, "param_decls", None) or ()) if d.startswith("-"))
            info.parser = _plain_number(_flag(name, info), kind, opts)


def signed(x: float) -> str:
    """``+0.75``, ``-2.58``; a value that rounds to zero is ``0.00``, never ``-0.00``."""
    text = f"{x:+.2f}"
    return "0.00" if text in ("+0.00", "-0.00") else text


def suit_label(suit: int) -> str:
    return f"{SUIT_SYMBOLS[suit]} {SUIT_NAMES[suit]}"


def print_json(doc) -> None:
    sys.stdout.write(dumps_json(doc) + "\n")  # NaN or Infinity is a bug, never printed


def show(result, as_json: bool, render) -> None:
    """A command's result on stdout: its ``to_json()`` with --json, else ``render(result)``."""
    if as_json:
        print_json(result.to_json())
    else:
        sys.stdout.write(render(result))


def refuse_repeated_options(app, argv: list[str]) -> None:
    """An option given twice with different values (``-n 3 ... --players 4``) is refused
    naming both (util.conflicts), where click would silently keep the last."""
    if not argv:
        return
    import typer.main

    group = typer.main.get_command(app)
    command = getattr(group, "commands", {}).get(argv[0])
    if command is None:
        return
    by_opt = {}
    for p in command.params:
        if getattr(p, "multiple", False) or not hasattr(p, "is_flag"):
            continue  # arguments, and options meant to repeat
        for opt in (*p.opts, *getattr(p, "secondary_opts", ())):
            by_opt[opt] = p
    seen: dict[str, list[tuple[str, object]]] = {}
    tokens = iter(argv[1:])
    for token in tokens:
        if token == "--":
            break
        opt, eq, value = token.partition("=")
        p = by_opt.get(opt) if token.startswith("-") else None
        if p is None:
            continue
        if p.is_flag:
            value = opt not in getattr(p, "secondary_opts", ())
        elif not eq:
            value = next(tokens, None)
        seen.setdefault(p.name, []).append((f"{opt} {value}" if not p.is_flag else opt, value))
    for sides in seen.values():
        if len(sides) > 1:
            settle((f"{how[:60]}", v) for how, v in sides)
