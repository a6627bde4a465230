"""The app on a real ASGI server (uvicorn): in the foreground for ``pitchsim serve``, or
in a thread for the tests (:class:`Running`), on 127.0.0.1 unless told otherwise."""

from __future__ import annotations

import socket
import threading
import time

import uvicorn

from ..util.errors import InputError

HOST = "127.0.0.1"


def config(app, host: str = HOST, port: int = 8000) -> uvicorn.Config:
    return uvicorn.Config(
        app, host=host, port=port, log_level="warning", lifespan="on", timeout_keep_alive=30
    )


def free_port(host: str = HOST) -> int:
    with socket.socket() as s:
        s.bind((host, 0))
        return s.getsockname()[1]


def check_bind(host: str, port: int) -> None:
    """Refuse in one line an address this server cannot listen on (in use, not here)."""
    try:
        with socket.socket() as s:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            s.bind((host, port))
    except OSError as e:
        raise InputError(f"cannot serve on {host}:{port}: {e.strerror or e}") from None


def serve(app, host: str = HOST, port: int = 8000) -> None:
    """Run until interrupted (Ctrl-C stops the games, saving them)."""
    server = uvicorn.Server(config(app, host, port))
    server.run()
    if not server.started:
        raise InputError(f"cannot serve on {host}:{port} (in use, or not this machine's)")


class Running:
    """The app served in a background thread: ``with Running(app) as url: ...``."""

    def __init__(self, app, host: str = HOST, port: int | None = None):
        self.server = uvicorn.Server(config(app, host, port or free_port(host)))
        self.server.install_signal_handlers = lambda: None  # not the main thread
        self.url = f"http://{host}:{self.server.config.port}"
        self.thread = threading.Thread(target=self.server.run, name="uvicorn", daemon=True)

    def __enter__(self) -> str:
        self.thread.start()
        end = time.monotonic() + 30
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > end:
                raise RuntimeError(f"the server did not start on {self.url}")
            time.sleep(0.02)
        return self.url

    def __exit__(self, *exc) -> None:
        self.server.should_exit = True
        self.thread.join(60)
