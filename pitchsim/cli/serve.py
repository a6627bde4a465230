"""``pitchsim serve``: the local web table (play against pitchsim with the coach, review
a game, the odds of a hand) in the browser, on 127.0.0.1."""

from __future__ import annotations

import typer

from .app import app


@app.command("serve")
def serve_command(
    host: str = typer.Option(
        "127.0.0.1", "--host", help="Address to listen on (default: this machine only)."
    ),
    port: int = typer.Option(8000, "--port", help="Port to listen on (0: any free port)."),
    saves: str = typer.Option(
        "pitchsim-saves",
        "--saves",
        help="Folder the games are saved in and reviewed from (nothing is written elsewhere).",
    ),
    max_games: int = typer.Option(8, "--max-games", help="Games in progress at once."),
    idle: float = typer.Option(
        1800.0, "--idle", help="Seconds a game may go unseen before it is saved and stopped."
    ),
    time: float = typer.Option(
        None, "--time", help="Seconds the coach may take per decision judged (default 10)."
    ),
    open_browser: bool = typer.Option(False, "--open", help="Open the page in a browser."),
) -> None:
    """A table in the browser: play a game against pitchsim with the coach beside each
    decision, step through a saved game's judgements, and see a hand's bid odds and
    advice as tables and charts. Games are saved to --saves."""
    from ..coach.judge import COACH_TIME
    from ..table.clock import check_time
    from ..util.errors import InputError
    from ..util.limits import check_count

    if not 0 <= port <= 65535:
        raise InputError(f"--port must be 0-65535, not {port}")
    check_count("--max-games", max_games, 64)
    if not 1 <= idle <= 7 * 86400:
        raise InputError(f"--idle must be 1-604800 seconds, not {idle:g}")
    time = COACH_TIME if time is None else check_time(time)
    from ..web.app import create_app
    from ..web.server import check_bind, free_port, serve

    app = create_app(saves, max_games, idle, time, host)  # a --saves no game fits: refused now
    port = port or free_port(host)
    check_bind(host, port)
    url = f"http://{host}:{port}/"
    print(f"pitchsim serve: {url}  (games saved to {saves}; Ctrl-C stops)", flush=True)
    if open_browser:
        import webbrowser

        webbrowser.open(url)
    serve(app, host, port)
