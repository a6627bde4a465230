"""pitchsim as an engine: one decision per request, JSON lines in and out
(``docs/protocol.md``, protocol ``pitch-engine/1``), under every preset: a
``game.view.View`` (calls, ``"shoot"``, ``"trump:H"``, ``"call:AS"``, cards; the base game's views in
its own words).

:class:`Engine` answers one request line with one reply line (or none, for ``quit``);
``pitchsim engine`` runs it over stdin/stdout.  It holds no game state: each ``decide``
carries the whole view, and the decision's random stream comes from the seed and the
view (``seats.view_key``), so the same request always gets the same answer.  Bad input
of any kind gets an ``error`` reply with a code; the engine never crashes on a request
and never answers with a default.
"""

from __future__ import annotations

import importlib.metadata
import sys

from ..game.rules import FAMILIES, RulesError, document_rules, label
from ..game.view import View, ViewError, put_down_clauses
from ..util.errors import InputError, quoted
from ..util.jsonio import dumps_json, parse_json
from ..util.limits import MAX_TARGET
from .bidding import ADVISOR_SAMPLES, PLAYER_STRATEGY, Strategy, StrategyError
from .clock import MAX_TIME, check_time
from .decide import checked_strategy
from .policies import MAX_WORLDS, play_policy, with_worlds
from .seats import KernelSeat, view_key

PROTOCOL = "pitch-engine/1"


def _version() -> str:
    """pitchsim's version as installed (the package's own ``__version__`` sits above
    this layer)."""
    try:
        return importlib.metadata.version("pitchsim")
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


NAME = "pitchsim"
DEFAULT_STRATEGY = PLAYER_STRATEGY
MAX_LINE = 1 << 20  # a view is a few kB; a megabyte line is a mistake or an attack
MAX_SEED = (1 << 62) - 1
MAX_SAMPLES = 100_000  # advisor deals per call: seconds a call at most

# Error codes (docs/protocol.md).
BAD_JSON = "bad-json"  # the line is not one JSON object
BAD_REQUEST = "bad-request"  # a field of the request is missing or of the wrong kind
BAD_VIEW = "bad-view"  # the view cannot have happened
NOT_TO_ACT = "not-to-act"  # the view's seat has no decision to make
UNKNOWN_STRATEGY = "unknown-strategy"
BAD_OPTION = "bad-option"
UNKNOWN_TYPE = "unknown-type"
BAD_PROTOCOL = "bad-protocol"
INTERNAL = "internal"  # a bug in pitchsim: the message says what


def option_list(
    strategy: str, seed: int, values: bool, samples: int, time: float | None = None
) -> list[dict]:
    return [
        {
            "name": "strategy",
            "type": "string",
            "default": strategy,
            "help": "bidding+play: bidding random, heuristic, odds, odds-game, advisor; "
            "play random, heuristic, rollout[:W][:read], pimc[:W][:read], epimc[:W][:read]",
        },
        {"name": "seed", "type": "int", "default": seed, "min": 0, "max": MAX_SEED},
        {
            "name": "values",
            "type": "bool",
            "default": values,
            "help": "search play (rollout, pimc, epimc) also gives every legal card's value",
        },
        {
            "name": "worlds",
            "type": "int",
            "default": None,
            "min": 1,
            "max": MAX_WORLDS,
            "help": "worlds a search play policy samples per card (null: the strategy's, "
            "rollout:W)",
        },
        {
            "name": "samples",
            "type": "int",
            "default": samples,
            "min": 1,
            "max": MAX_SAMPLES,
            "help": "deals the advisor bidding policy plays out per call",
        },
        {
            "name": "time",
            "type": "number",
            "default": time,
            "min": 0,
            "max": MAX_TIME,
            "help": "seconds a search play decision or an advisor call may take, above 0 "
            "(null: no clock); the reply then says how many worlds or deals were used and "
            "why the search stopped",
        },
    ]


class RequestError(Exception):
    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


class Engine:
    """Answers requests (see the module).  ``strategy``, ``seed`` and ``values`` are the
    defaults a ``decide`` request's ``options`` may override for itself."""

    def __init__(
        self,
        strategy: str = DEFAULT_STRATEGY,
        seed: int = 0,
        values: bool = True,
        samples: int = ADVISOR_SAMPLES,
        worlds: int | None = None,
        time: float | None = None,
    ):
        self.strategy = _strategy(strategy, worlds).name
        self.seed = _seed(seed)
        self.values = values
        self.samples = _count(samples, "samples", MAX_SAMPLES)
        self.time = check_time(time, "time")
        self.done = False
        self._seats: dict[str, KernelSeat] = {}

    def hello(self) -> dict:
        return {
            "type": "hello",
            "protocol": PROTOCOL,
            "name": NAME,
            "version": _version(),
            "options": option_list(self.strategy, self.seed, self.values, self.samples, self.time),
        }

    def handle(self, line: str | bytes) -> str | None:
        """The reply line (no newline) to one request line; None for ``quit``/blank."""
        reply = self.answer(line)
        return None if reply is None else dumps_json(reply, indent=None, separators=(", ", ": "))

    def answer(self, line: str | bytes) -> dict | None:
        rid = None
        try:
            line = _body(line)
            if len(line) > MAX_LINE:
                raise RequestError(BAD_JSON, f"the line is over {MAX_LINE:,} bytes")
            if isinstance(line, bytes):
                # The protocol is UTF-8: json.loads would guess UTF-16 or UTF-32 from bytes.
                try:
                    line = line.decode("utf-8")
                except UnicodeDecodeError as e:
                    raise RequestError(
                        BAD_JSON, f"the request is not UTF-8 text (byte {e.start:,})"
                    ) from None
            if not line.strip():
                return None
            try:
                msg = parse_json(line, "the request")
            except InputError as e:
                raise RequestError(BAD_JSON, str(e)) from None
            if not isinstance(msg, dict):
                raise RequestError(BAD_JSON, "a request is one JSON object with a type")
            rid = msg.get("id")
            if isinstance(rid, bool) or not isinstance(rid, str | int | float | None):
                rid = None  # never echoed: a client matching replies by id would misread it
                raise RequestError(
                    BAD_REQUEST,
                    f"id must be a string, a number or null, not {dumps_json(msg['id'], indent=None)[:40]}",
                )
            kind = msg.get("type")
            if kind == "hello":
                proto = msg.get("protocol", PROTOCOL)
                if proto != PROTOCOL:
                    raise RequestError(
                        BAD_PROTOCOL, f"this engine speaks {PROTOCOL}, not {quoted(proto)}"
                    )
                return {**self.hello(), **({"id": rid} if "id" in msg else {})}
            if kind == "ready":
                return {"type": "readyok", **({"id": rid} if "id" in msg else {})}
            if kind == "quit":
                self.done = True
                return None
            if kind == "decide":
                return self.decide(msg, rid)
            raise RequestError(
                UNKNOWN_TYPE,
                f"unknown request type {dumps_json(kind, indent=None)[:40]} (known: hello, ready, decide, quit)",
            )
        except RequestError as e:
            return {"type": "error", "id": rid, "code": e.code, "message": e.message}
        except Exception as e:  # a bug must still get an answer, not end the session
            return {
                "type": "error",
                "id": rid,
                "code": INTERNAL,
                "message": f"{type(e).__name__}: {e}",
            }

    def decide(self, msg: dict, rid) -> dict:
        opts = msg.get("options")
        if opts is None:
            opts = {}
        if not isinstance(opts, dict):  # [], "", 0, false: not an object, not "none given"
            raise RequestError(
                BAD_OPTION, f"options must be an object, not {dumps_json(opts, indent=None)[:40]}"
            )
        try:
            worlds = opts.get("worlds")
            if worlds is not None:
                _count(worlds, "worlds", MAX_WORLDS)
            strategy = _strategy(opts.get("strategy", self.strategy), worlds).name
            seed = _seed(opts.get("seed", self.seed))
            samples = _count(opts.get("samples", self.samples), "samples", MAX_SAMPLES)
            time = check_time(opts.get("time", self.time), "time")
        except InputError as e:
            code = UNKNOWN_STRATEGY if isinstance(e, StrategyError) else BAD_OPTION
            raise RequestError(code, str(e)) from None
        values = opts.get("values", self.values)
        if not isinstance(values, bool):
            raise RequestError(BAD_OPTION, f"values must be true or false, not {values!r}")
        if "view" not in msg:
            raise RequestError(BAD_REQUEST, "a decide request needs a view")
        try:
            view = View.from_json(msg["view"], "the engine")
        except ViewError as e:
            raise RequestError(BAD_VIEW, str(e) + _reads_as(msg["view"])) from None
        s = Strategy.parse(strategy)
        try:  # what the family kernels play, said in one line
            checked_strategy(s, view.rules)
        except StrategyError as e:
            raise RequestError(UNKNOWN_STRATEGY, str(e)) from None
        if view.to_move != view.seat:
            why = {
                "over": "the hand is over",
                "thrown-in": "everybody passed: the hand is thrown in",
                "trump": f"seat {view.to_move} names trump",
                "call": f"seat {view.to_move} calls his partner's card (12.1)",
                "put_down": f"seat {view.to_move} puts down before drawing (12.8.2)"
                if view.drawing
                else f"seat {view.to_move} comes down to 6 ({put_down_clauses(view.rules)})",
            }.get(view.phase, f"seat {view.to_move} is to act")
            raise RequestError(NOT_TO_ACT, f"seat {view.seat} has no decision here: {why}")
        which = (strategy, samples)
        seat = self._seats.get(which) or self._seats.setdefault(
            which, KernelSeat(strategy, samples)
        )
        # The seat plans its own opening lead, on the same clock (``decide``).
        return _reply(rid, seat.decide(view, view_key(seed, view), values, time), view)


def _reads_as(doc: object) -> str:
    """For a view refused under its rules: the presets under which it would have
    happened, named (a view of one preset sent under another's rules, the base game's
    auction-pitch among them: a smear view sent as auction-pitch), else nothing."""
    if not isinstance(doc, dict) or doc.get("kitty") is not None:
        return ""  # (no preset deals a kitty unless told to: 12.2)
    try:
        rules = doc.get("rules")
        given = label(document_rules({} if rules is None else rules))  # none: the base game's
    except (RulesError, TypeError, ValueError):
        return ""  # rules that do not parse: the refusal says so
    # Each preset states its own partnership and target: the view is tried without them,
    # when they are well formed (target=0 or partnership="yes" is no other preset's view).
    bare = {k: v for k, v in doc.items() if not _stated_setting(k, v)}
    fits = []
    for preset in FAMILIES:
        if preset == given:
            continue
        try:
            View.from_json(bare | {"rules": preset})
        except ViewError:
            continue
        fits.append(preset)
    if not fits:
        return ""
    return f" (under {given}; it is a view of {' or '.join(fits)}: are its rules right?)"


def _stated_setting(key: str, value: object) -> bool:
    """A view's ``partnership`` or ``target`` of a value some preset could state."""
    if key == "partnership":
        return isinstance(value, bool)
    if key == "target":
        return isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= MAX_TARGET
    return False


def _reply(rid, d, view: View) -> dict:
    reply = {"type": "action", "id": rid, "action": d.action}
    if view.phase == "auction" and view.is_steal(d.action):
        reply["steal"] = True  # a dealer's call at the high bid's number (docs/protocol.md)
    if d.values:
        reply["values"] = d.values
    if d.search is not None:
        reply["search"] = d.search
    return reply


def _body(line: str | bytes) -> str | bytes:
    """``line`` without its end, one ``\\n`` or ``\\r\\n`` (a line cut short by
    :func:`serve` has none, so it stays over the limit)."""
    nl, cr = ("\n", "\r") if isinstance(line, str) else (b"\n", b"\r")
    if line.endswith(nl):
        line = line[:-1]
        if line.endswith(cr):
            line = line[:-1]
    return line


def _strategy(name: object, worlds: int | None = None) -> Strategy:
    """The strategy ``name``; ``worlds`` replaces its search play policy's worlds."""
    if not isinstance(name, str):
        raise StrategyError(f"strategy must be a name like odds+heuristic, not {name!r}")
    s = Strategy.parse(name)
    if worlds is not None:
        _count(worlds, "worlds", MAX_WORLDS)  # as a request's own (--worlds 0 read as rollout:0)
        if not play_policy(s.play).worlds:
            raise StrategyError(f"worlds: the play policy {s.play!r} of {s.name} does not search")
        s = Strategy.parse(f"{s.bidding}+{with_worlds(s.play, worlds)}")
    return s


def _count(value: object, what: str, limit: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= limit:
        raise InputError(f"{what} must be a whole number 1-{limit:,}, not {value!r}")
    return value


def _seed(seed: object) -> int:
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise InputError(f"seed must be a whole number 0-{MAX_SEED}, not {seed!r}")
    return seed


def serve(engine: Engine, stdin=None, stdout=None) -> None:
    """Answer request lines from ``stdin`` until ``quit`` or end of input.  A reader
    that goes away (stdout closed: a broken pipe) ends the engine as the end of its
    input does, quietly; no stdin or stdout at all is one :class:`InputError` line."""
    stdin = stdin or _std(sys.stdin, "stdin", "nothing to read requests from")
    stdout = stdout or _std(sys.stdout, "stdout", "nowhere to write replies")
    while not engine.done:
        line = stdin.readline(MAX_LINE + 3)  # the limit, "\r\n" and one byte more
        if not line:
            break
        if not line.endswith(b"\n"):  # cut at the limit (or by the end of the input)
            while True:  # skip the rest of an over-long line, then refuse it
                rest = stdin.readline(MAX_LINE)
                if not rest or rest.endswith(b"\n"):
                    break
        reply = engine.handle(line)
        if reply is not None:
            try:
                stdout.write(reply + "\n")
                stdout.flush()
            except BrokenPipeError:  # the reader went away: nobody is left to answer
                return


def _std(stream, name: str, why: str):
    """sys.stdin's bytes or sys.stdout, or one line if the process was started without
    it (``pitchsim engine <&-``: Python then has None here)."""
    if stream is None or stream.closed:
        raise InputError(f"engine: {name} is closed: {why}")
    return stream.buffer if name == "stdin" else stream
