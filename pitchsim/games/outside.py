"""Outside programs as seats (``cmd:COMMAND``): pitchsim is the table, the program the
engine, speaking ``docs/protocol.md`` from the other side.

The program is started once and kept for every game it sits in (it is asked nothing
between decisions: each ``decide`` carries the whole view).  Every read has a time
limit: ``decision_time`` seconds per decision and ``game_time`` seconds per game (the
time it took to answer, summed).  A late, malformed or illegal answer, an ``error``
reply, or a program that exits raises :class:`~pitchsim.games.table.Forfeit` with the
reason (and the tail of its stderr); the table ends that game, and never plays in the
program's place.  Every message both ways goes to the seat's log (``log``, and the file
``log_path`` when given).
"""

from __future__ import annotations

import json
import os
import queue
import shlex
import subprocess
import threading
import time
from collections import deque
from pathlib import Path

from ..game.view import View
from ..util.errors import InputError
from .engine import PROTOCOL
from .table import Forfeit, checked_action

DECISION_TIME = 10.0  # seconds a decision may take (search engines need some)
GAME_TIME = 600.0  # seconds a game's decisions may take in all
START_TIME = 30.0  # seconds to start and answer hello
STDERR_TAIL = 20  # lines of the program's stderr kept for a report
MAX_REPLY = 1 << 20


class OutsideError(InputError):
    """A program that cannot be started or does not speak the protocol."""


class CommandSeat:
    """A seat played by the program ``command`` (see the module)."""

    def __init__(
        self,
        command: str,
        decision_time: float = DECISION_TIME,
        game_time: float = GAME_TIME,
        log_path: str | Path | None = None,
        seat: int | None = None,
    ):
        if not command.strip():
            raise OutsideError("cmd: needs a command, e.g. cmd:python3 bot.py")
        for name, v in (("decision time", decision_time), ("game time", game_time)):
            if not 0 < v <= 86400:
                raise OutsideError(f"the {name} must be 0-86,400 seconds, not {v}")
        self.command = command
        self.name = f"cmd:{command}"
        self.decision_time = decision_time
        self.game_time = game_time
        self.log_path = Path(log_path) if log_path else None
        self.log: list[str] = []
        self.seat = seat
        self.proc: subprocess.Popen | None = None
        self.used = 0.0
        self.decisions = 0
        self._id = 0
        self._lines: queue.Queue = queue.Queue()
        self._stderr: deque[str] = deque(maxlen=STDERR_TAIL)
        self.hello: dict | None = None

    # ---- the process ---------------------------------------------------------------

    def _note(self, direction: str, text: str) -> None:
        line = f"{time.strftime('%H:%M:%S')} {direction} {text}"
        self.log.append(line)
        if len(self.log) > 10_000:
            del self.log[:5_000]
        if self.log_path:
            with open(self.log_path, "a", encoding="utf-8") as f:
                f.write(line + "\n")

    def start(self) -> None:
        try:
            argv = shlex.split(self.command)
        except ValueError as e:
            raise OutsideError(f"cannot read command {self.command!r}: {e}") from None
        try:
            self.proc = subprocess.Popen(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                bufsize=0,
                env={**os.environ, "PYTHONUNBUFFERED": "1"},
            )
        except OSError as e:
            raise OutsideError(f"cannot start {self.command!r}: {e.strerror or e}") from None
        threading.Thread(target=self._read_out, daemon=True).start()
        self._err_thread = threading.Thread(target=self._read_err, daemon=True)
        self._err_thread.start()
        self._send({"type": "hello", "protocol": PROTOCOL})
        reply, why = self._receive(START_TIME)
        if reply is None:
            self.close()
            raise OutsideError(f"{self.name} did not answer hello: {why}")
        if reply.get("type") != "hello" or reply.get("protocol") != PROTOCOL:
            self.close()
            raise OutsideError(
                f"{self.name} answered hello with {json.dumps(reply)[:80]}, not a {PROTOCOL} hello"
            )
        self.hello = reply

    def _read_out(self) -> None:
        out = self.proc.stdout
        while True:
            line = out.readline(MAX_REPLY + 1)
            self._lines.put(line)
            if not line:
                return

    def _read_err(self) -> None:
        for raw in self.proc.stderr:
            text = raw.decode("utf-8", "replace").rstrip("\n")
            self._stderr.append(text)
            self._note("stderr", text)

    def _send(self, msg: dict) -> None:
        text = json.dumps(msg, separators=(",", ":"))
        self._note(">", text)
        try:
            self.proc.stdin.write(text.encode() + b"\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            pass  # the read that follows reports the exit

    def _receive(self, limit: float) -> tuple[dict | None, str]:
        """(the reply object, "") or (None, why not) within ``limit`` seconds."""
        try:
            line = self._lines.get(timeout=max(limit, 0.0))
        except queue.Empty:
            return None, f"no answer within {limit:.3g} s"
        if not line:
            self._lines.put(line)  # stays at end of input for any later read
            code = self.proc.wait(timeout=5) if self.proc else None
            self._err_thread.join(timeout=2)  # its last words, before quoting them
            tail = " | ".join(self._stderr) or "(nothing on stderr)"
            return None, f"the program exited (code {code}); its stderr ends: {tail}"
        text = line.decode("utf-8", "replace").rstrip("\n")
        self._note("<", text)
        if len(line) > MAX_REPLY:
            return None, f"a reply line over {MAX_REPLY:,} bytes"
        try:
            msg = json.loads(text)
        except json.JSONDecodeError as e:
            return None, f"a reply that is not JSON ({e.msg}): {text[:60]!r}"
        if not isinstance(msg, dict):
            return None, f"a reply that is not a JSON object: {text[:60]!r}"
        return msg, ""

    def close(self) -> None:
        if self.proc is None:
            return
        if self.proc.poll() is None:
            self._send({"type": "quit"})
            try:
                self.proc.stdin.close()
            except OSError:
                pass
            try:
                self.proc.wait(timeout=2)
            except subprocess.TimeoutExpired:
                self.proc.terminate()
                try:
                    self.proc.wait(timeout=2)
                except subprocess.TimeoutExpired:
                    self.proc.kill()
                    self.proc.wait()
        self.proc = None

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass

    # ---- the seat --------------------------------------------------------------------

    def start_game(self) -> None:
        if self.proc is None:
            self.start()
        self.used = 0.0

    def end_game(self) -> None:
        pass

    def _decide(self, view: View) -> str:
        seat = view.seat
        if self.proc is None:
            self.start()
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
                over = limit >= left
                why = (
                    f"no answer within the game's {self.game_time:g} s"
                    if over
                    else f"no answer within {self.decision_time:g} s"
                )
            # A program that is late or gone is started afresh for the next game (a late
            # answer would otherwise be read as the next one's).
            self.close()
            raise Forfeit(seat, why)
        self.used += time.monotonic() - start
        self.decisions += 1
        if reply.get("type") == "error":
            raise Forfeit(
                seat,
                f"answered an error: {reply.get('code')}: {str(reply.get('message'))[:200]}",
            )
        if reply.get("type") != "action" or reply.get("id") != rid:
            raise Forfeit(
                seat,
                f"{self.name} answered {json.dumps(reply)[:80]}, not an action for request {rid}",
            )
        try:
            return checked_action(view, reply.get("action"))
        except ValueError as e:
            raise Forfeit(seat, str(e)) from None

    def call(self, view: View) -> str:
        return self._decide(view)

    def play(self, view: View) -> str:
        return self._decide(view)
