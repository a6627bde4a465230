"""Outside programs as seats (``cmd:COMMAND``): pitchsim is the table, the program the
engine, speaking ``docs/protocol.md`` from the other side.

The program is started once and kept for every game it sits in (it is asked nothing
between decisions: each ``decide`` carries the whole view).  Every read has a time
limit: ``decision_time`` seconds per decision and ``game_time`` seconds per game (the
time it took to answer, summed).  A late, malformed or illegal answer, an ``error``
reply, a closed stdout or a program that exits raises
:class:`~pitchsim.table.answers.Forfeit` with a short reason (for an exit, the end of its
stderr); the table ends that game, and never plays in the program's place.

A forfeit ends the program (its whole process group: a child it forked too) and the next
game starts it afresh: each run of the program (:class:`_Run`) has its own process group,
reader threads and reply queue, so nothing a run said late can be read as the next
run's answer.  ``close()``, and failing that the interpreter's exit, ends the last run
(once a program is started, a SIGTERM or SIGHUP left to its default action exits through
Python's ``finally`` blocks and atexit instead, so that it ends the runs too).
A program whose hello reply asks for them (``"notify": ["hand-end", "game-end"]``) is
told when a hand or a game ends, with the result; they want no reply, and a program
that does not ask is never sent one.
Every message both ways goes to the seat's log (``log``, and the file ``log_path`` when
given); the program's stderr too, up to :data:`STDERR_LOGGED` bytes a run.
"""

from __future__ import annotations

import atexit
import os
import queue
import shlex
import signal
import subprocess
import threading
import time
from pathlib import Path

from ..game.view import View
from ..util.errors import InputError, printable
from ..util.jsonio import JSONError, dumps_json, parse_json
from .answers import Forfeit, checked_action
from .engine import PROTOCOL

DECISION_TIME = 10.0  # seconds a decision may take (search engines need some)
GAME_TIME = 600.0  # seconds a game's decisions may take in all
MAX_TIME = 86_400.0  # a limit above a day is a typo
START_TIME = 30.0  # seconds to start and answer hello
EXIT_TIME = 0.5  # seconds from the end of its stdout to the program's exit (else: closed)
QUIT_TIME = 2.0  # seconds a program has to exit after quit
KILL_TIME = 1.0  # seconds a process group has between SIGTERM and SIGKILL
STDERR_TAIL = 4096  # bytes of the end of the program's stderr kept for a forfeit's reason
QUOTED_STDERR = 300  # characters of that tail the reason quotes
STDERR_LOGGED = 1 << 20  # bytes of stderr per run written to the log (the rest counted)
LOG_LINE = 4096  # characters of one message or stderr line the log keeps
MAX_REPLY = 1 << 20  # bytes in one reply line
QUEUED = 64  # reply lines read ahead; then the program waits to write (nobody asked)
CHUNK = 1 << 16
NOTICES = ("hand-end", "game-end")  # what a program may ask to be told (its hello's notify)
GROUPS = hasattr(os, "killpg")  # POSIX: a run is a process group; elsewhere its process


class OutsideError(InputError):
    """A program that cannot be started or does not speak the protocol."""


def check_time(name: str, value: float | None, default: float) -> float:
    """A time limit in seconds: ``None`` is the default; anything but 0 < value <= a day
    is refused (0 would forfeit every game; no value quietly becomes the default)."""
    if value is None:
        return default
    if not 0 < value <= MAX_TIME:  # NaN fails too
        raise OutsideError(
            f"{name} must be above 0 and at most {MAX_TIME:,.0f} seconds, not {value}"
        )
    return float(value)


# ---- one run of the program ------------------------------------------------------------

_runs: set[_Run] = set()  # runs not ended yet: ended at the interpreter's exit


def _end_runs() -> None:
    for run in list(_runs):
        run.end(polite=False)


atexit.register(_end_runs)


def _exit_on_term(signum, frame):
    # SIGTERM or SIGHUP ends pitchsim as the default action would, but through its
    # ``finally`` blocks and atexit, which end the programs' process groups.
    raise SystemExit(128 + signum)


def _handle_termination() -> None:
    if threading.current_thread() is not threading.main_thread():
        return
    for name in ("SIGTERM", "SIGHUP"):
        sig = getattr(signal, name, None)
        if sig is not None and signal.getsignal(sig) is signal.SIG_DFL:
            signal.signal(sig, _exit_on_term)


def _group_alive(pgid: int) -> bool:
    """Whether the process group has a member that is not a zombie (a zombie is dead;
    where nobody reaps orphans, ``killpg(pgid, 0)`` alone would see it forever)."""
    if not GROUPS:
        return False
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return False  # not ours any more
    try:
        names = os.listdir("/proc")
    except OSError:
        return True
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as f:
                stat = f.read()
        except OSError:
            continue
        fields = stat[stat.rfind(b")") + 2 :].split()
        if len(fields) > 2 and int(fields[2]) == pgid and fields[0] != b"Z":
            return True
    return False


class _Run:
    """One run of the program: its process, leader of a process group of its own, the
    threads that read its stdout and stderr and write its stdin, and its queue of reply
    lines.  A restart is a new run; nothing of an ended run is read again."""

    def __init__(self, argv: list[str], note):
        self._note = note
        self.proc = subprocess.Popen(
            argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,  # its own process group: ended whole, children too
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        _handle_termination()
        _runs.add(self)
        self.pgid = self.proc.pid
        self.replies: queue.Queue[bytes] = queue.Queue(maxsize=QUEUED)
        self.outbox: queue.Queue[bytes | None] = queue.Queue()
        self.stopped = threading.Event()
        self.eof = False
        self._tail = bytearray()
        self._tail_lock = threading.Lock()
        self._err = threading.Thread(target=self._read_err, daemon=True)
        for t in (
            threading.Thread(target=self._read_out, daemon=True),
            self._err,
            threading.Thread(target=self._write, daemon=True),
        ):
            t.start()

    # The threads: each owns its pipe and closes it when done.

    def _read_out(self) -> None:
        out = self.proc.stdout
        try:
            while True:
                try:
                    # the limit and its "\r\n" (buffered: a read per 8 KB or line)
                    line = out.readline(MAX_REPLY + 2)
                except (OSError, ValueError):
                    line = b""
                while not self.stopped.is_set():
                    try:
                        self.replies.put(line, timeout=0.1)
                        break
                    except queue.Full:
                        continue
                if not line or self.stopped.is_set():
                    return
        finally:
            out.close()

    def _read_err(self) -> None:
        err = self.proc.stderr
        logged = skipped = 0
        partial = b""
        try:
            while True:
                try:
                    chunk = err.read1(CHUNK)
                except (OSError, ValueError):
                    chunk = b""
                if not chunk:
                    break
                with self._tail_lock:
                    self._tail += chunk
                    del self._tail[:-STDERR_TAIL]
                if logged >= STDERR_LOGGED:
                    skipped += len(chunk)
                    continue
                logged += len(chunk)
                *lines, partial = (partial + chunk).split(b"\n")
                if len(partial) > LOG_LINE:  # a line without end: logged in pieces
                    lines.append(partial)
                    partial = b""
                for line in lines:
                    self._note("stderr", line.decode("utf-8", "replace"))
            if partial:
                self._note("stderr", partial.decode("utf-8", "replace"))
            if skipped:
                self._note("stderr", f"[{skipped:,} more bytes of stderr, not logged]")
        finally:
            err.close()

    def _write(self) -> None:
        inp = self.proc.stdin
        try:
            while (data := self.outbox.get()) is not None:
                inp.write(data)
                inp.flush()
        except (OSError, ValueError):
            pass  # gone: the read that follows reports it
        finally:
            try:
                inp.close()
            except (OSError, ValueError):
                pass

    # The table's side.

    def send(self, data: bytes) -> None:
        """Queued for the writer thread: a program that does not read its stdin blocks
        that thread, never the table (the read that follows has its time limit)."""
        self.outbox.put(data)

    def receive(self, limit: float) -> bytes | None:
        """The next reply line within ``limit`` seconds (``b""``: its stdout ended), or
        None."""
        if self.eof:
            return b""
        try:
            line = self.replies.get(timeout=max(limit, 0.0))
        except queue.Empty:
            return None
        self.eof = not line
        return line

    def ended_how(self) -> str:
        """Why its stdout ended: an exit (its code) or a program that closed it and runs
        on; with the end of its stderr."""
        try:
            code = self.proc.wait(timeout=EXIT_TIME)
        except subprocess.TimeoutExpired:
            code = None
        self._err.join(timeout=EXIT_TIME if code is not None else 0.05)  # its last words
        if code is None:
            what = "the program closed its stdout (still running)"
        elif code < 0:
            try:
                what = f"the program was ended by signal {signal.Signals(-code).name}"
            except ValueError:
                what = f"the program was ended by signal {-code}"
        else:
            what = f"the program exited (code {code})"
        return f"{what}; its stderr ends: {self.stderr_tail()}"

    def stderr_tail(self) -> str:
        with self._tail_lock:
            text = bytes(self._tail).decode("utf-8", "replace")
        text = printable(" | ".join(x.strip() for x in text.splitlines() if x.strip()))
        if len(text) > QUOTED_STDERR:
            text = "..." + text[-QUOTED_STDERR:]
        return text or "(nothing on stderr)"

    def end(self, polite: bool) -> None:
        """Ends the run: ``polite``, a ``quit`` and :data:`QUIT_TIME` to exit; then its
        process group gets SIGTERM, :data:`KILL_TIME` to go, and SIGKILL."""
        if self not in _runs:
            return
        if polite and self.proc.poll() is None:
            self.send(dumps_json({"type": "quit"}, indent=None).encode() + b"\n")
            self.outbox.put(None)  # then its stdin closes
            try:
                self.proc.wait(timeout=QUIT_TIME)
            except subprocess.TimeoutExpired:
                pass
        else:
            self.outbox.put(None)
        self.stopped.set()
        self._end_group()
        _runs.discard(self)  # last: a SIGTERM midway leaves it to the exit to end

    def _kill(self, hard: bool) -> None:
        try:
            if GROUPS:
                os.killpg(self.pgid, signal.SIGKILL if hard else signal.SIGTERM)
            elif self.proc.poll() is None:
                self.proc.kill() if hard else self.proc.terminate()
        except (ProcessLookupError, PermissionError):
            pass

    def _end_group(self) -> None:
        if self.proc.poll() is not None and not _group_alive(self.pgid):
            return  # exited, with every child it forked
        self._kill(hard=False)
        deadline = time.monotonic() + KILL_TIME
        while time.monotonic() < deadline:
            if self.proc.poll() is not None and not _group_alive(self.pgid):
                return
            time.sleep(0.01)
        self._kill(hard=True)
        self.proc.wait()


# ---- the seat ------------------------------------------------------------------------


class CommandSeat:
    """A seat played by the program ``command`` (see the module).  ``decision_time`` and
    ``game_time`` default (None) to :data:`DECISION_TIME` and :data:`GAME_TIME`."""

    def __init__(
        self,
        command: str,
        decision_time: float | None = None,
        game_time: float | None = None,
        log_path: str | Path | None = None,
        seat: int | None = None,
    ):
        if not command.strip():
            raise OutsideError("cmd: needs a command, e.g. cmd:python3 bot.py")
        try:
            self.argv = shlex.split(command)
        except ValueError as e:
            raise OutsideError(f"cannot read command {command!r}: {e}") from None
        self.command = command
        self.name = f"cmd:{command}"
        self.start_time = START_TIME
        self.decision_time = check_time("--decision-time", decision_time, DECISION_TIME)
        self.game_time = check_time("--game-time", game_time, GAME_TIME)
        self.log_path = Path(log_path) if log_path else None
        self.log: list[str] = []
        self._log_lock = threading.Lock()
        self.seat = seat
        self.run: _Run | None = None
        self.runs = 0  # runs started (a restart after each forfeit)
        self.used = 0.0
        self.decisions = 0
        self._id = 0
        self.hello: dict | None = None
        self.notify: set[str] = set()  # the NOTICES this run's hello asked for

    @property
    def proc(self) -> subprocess.Popen | None:
        """The running program's process (None between a forfeit and the next game)."""
        return self.run.proc if self.run is not None else None

    def _note(self, direction: str, text: str) -> None:
        if len(text) > LOG_LINE:
            text = f"{text[:LOG_LINE]} [... {len(text) - LOG_LINE:,} more characters]"
        line = f"{time.strftime('%H:%M:%S')} {direction} {text}"
        with self._log_lock:  # the stderr thread notes too
            self.log.append(line)
            if len(self.log) > 10_000:
                del self.log[:5_000]
            if self.log_path:
                with open(self.log_path, "a", encoding="utf-8") as f:
                    f.write(line + "\n")

    def start(self) -> None:
        """Starts the program and checks its hello; :class:`OutsideError` if it cannot."""
        why = self._start()
        if why:
            raise OutsideError(f"{self.name} {why}")

    def _start(self) -> str:
        """Starts a run; "" or why it failed (the run ended)."""
        self.runs += 1
        try:
            run = _Run(self.argv, self._note)
        except OSError as e:
            return f"cannot start: {e.strerror or e}"
        self.run = run
        self._send({"type": "hello", "protocol": PROTOCOL})
        reply, why = self._receive(self.start_time)
        if reply is not None and (
            reply.get("type") != "hello" or reply.get("protocol") != PROTOCOL
        ):
            why = (
                f"answered hello with {dumps_json(reply, indent=None)[:80]}, not a {PROTOCOL} hello"
            )
        elif reply is None:
            why = f"did not answer hello: {why}"
        notify = reply.get("notify", []) if reply is not None else []
        if not why and not (isinstance(notify, list) and all(isinstance(x, str) for x in notify)):
            why = f"answered hello with notify {dumps_json(notify, indent=None)[:80]}, not a list of message types"
        if why:
            self._end(polite=False)
            return why
        self.hello = reply
        self.notify = set(notify) & set(NOTICES)  # a type this pitchsim does not send: never sent
        return ""

    def _end(self, polite: bool) -> None:
        if self.run is not None:
            run, self.run = self.run, None
            run.end(polite)

    def _send(self, msg: dict) -> None:
        text = dumps_json(msg, indent=None, separators=(",", ":"))
        self._note(">", text)
        self.run.send(text.encode() + b"\n")

    def _receive(self, limit: float) -> tuple[dict | None, str]:
        """(the reply object, "") or (None, why not) within ``limit`` seconds; why not
        starts "no answer" when the time ran out."""
        line = self.run.receive(limit)
        if line is None:
            return None, f"no answer within {limit:.3g} s"
        if not line:
            return None, self.run.ended_how()
        if len(line.rstrip(b"\r\n")) > MAX_REPLY:  # the engine's limit: without the line end
            self._note("<", line.decode("utf-8", "replace"))
            return None, f"a reply line over {MAX_REPLY:,} bytes"
        text = line.decode("utf-8", "replace").rstrip("\r\n")
        self._note("<", text)
        # The engine's reader (docs/protocol.md): no NaN, no key given twice, no deep
        # nesting or endless digits; each refused with its reason.
        try:
            msg = parse_json(text, "the reply")
        except JSONError as e:
            return None, f"a reply that is not JSON ({e.reason[:120]}): {text[:60]!r}"
        if not isinstance(msg, dict):
            return None, f"a reply that is not a JSON object: {text[:60]!r}"
        return msg, ""

    def close(self) -> None:
        """Ends the program: ``quit``, then its process group (see :meth:`_Run.end`)."""
        self._end(polite=True)

    def __del__(self):
        try:
            self._end(polite=False)
        except Exception:
            pass

    def start_game(self) -> None:
        """The first game starts the program (:class:`OutsideError` if it cannot: the
        command is wrong); after a forfeit, the next decision starts it again."""
        if self.run is None and self.runs == 0:
            self.start()
        self.used = 0.0

    def end_game(self) -> None:
        pass

    def hand_ended(self, seat: int, hand: dict) -> None:
        """Tells the program that ``seat``'s hand ended (``table.game.seen_hand``)."""
        self._tell("hand-end", {"seat": seat, "hand": hand})

    def game_ended(self, seat: int, result: dict) -> None:
        """Tells the program that ``seat``'s game ended (``table.game.game_result``)."""
        self._tell("game-end", {"seat": seat} | result)

    def _tell(self, kind: str, fields: dict) -> None:
        # A run a forfeit ended is not told (the next game starts a new one).
        if self.run is not None and kind in self.notify:
            self._send({"type": kind} | fields)

    def _decide(self, view: View) -> str:
        try:
            return self._ask(view)
        except Exception:  # a forfeit (or the table names the error as one)
            self._end(polite=False)  # a fresh run for the next game
            raise

    def _ask(self, view: View) -> str:
        seat = view.seat
        if self.run is None:
            why = self._start()
            if why:
                raise Forfeit(seat, f"started again after a forfeit, it {why}")
        self._id += 1
        rid = self._id
        left = self.game_time - self.used
        limit = min(self.decision_time, left)
        self._send(
            {
                "type": "decide",
                "id": rid,
                "view": view.to_json(),
                "time_left": {"decision": round(limit, 3), "game": round(left, 3)},
            }
        )
        start = time.monotonic()
        reply, why = self._receive(limit)
        if reply is None:
            if why.startswith("no answer"):
                why = (
                    f"no answer within the game's {self.game_time:g} s"
                    if limit >= left
                    else f"no answer within {self.decision_time:g} s"
                )
                code = self.run.proc.poll()
                if code is not None:  # its stdout never ends: a child it forked holds it
                    why += (
                        f"; the program exited (code {code}), leaving a process it started "
                        "holding its stdout"
                    )
            raise Forfeit(seat, why)
        self.used += time.monotonic() - start
        self.decisions += 1
        if reply.get("type") == "error":
            raise Forfeit(
                seat,
                f"answered an error: {printable(str(reply.get('code'))[:40])}: "
                f"{printable(str(reply.get('message'))[:200])}",
            )
        if reply.get("type") != "action" or reply.get("id") != rid:
            raise Forfeit(
                seat,
                f"answered {dumps_json(reply, indent=None)[:80]}, not an action for request {rid}",
            )
        try:
            return checked_action(view, reply.get("action"))
        except ValueError as e:
            raise Forfeit(seat, str(e)) from None

    def call(self, view: View) -> str:
        return self._decide(view)

    def play(self, view: View) -> str:
        return self._decide(view)
