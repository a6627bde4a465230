"""The web table's ASGI app (Starlette): the page, and a small JSON API behind it.

Every answer of the API is JSON; a bad request is ``{"error": "one line"}`` with a 4xx
status, the library's own message where the library refused it.  The API calls the same
library functions as the command line: ``table.game`` plays (``sessions``),
``coach.review`` reviews, ``advice.odds`` and ``advice.advise`` give the odds.

    GET  /                         the page (and /app.js, /style.css)
    GET  /api/options              what the forms offer: presets, limits, defaults
    POST /api/games                a new game: its state
    GET  /api/games/ID?since=V     its state, once its version is past V (long poll)
    POST /api/games/ID/action      {"action": "KS"}: the person's call or card
    POST /api/games/ID/quit        stop the game (saved unfinished)
    GET  /api/saves                the saved games
    GET  /api/saves/NAME           one saved game's record
    POST /api/review               {"save": NAME | "record": {...}, "seat": N}
    POST /api/odds                 {"hand": "AH KH ...", "preset": "smear", "players": 4, ...}
    POST /api/odds/trumps          {"hand": ..., "preset": ..., "rules": ...}: the suits it may name
    POST /api/kitties              {"preset": ..., "players": 4, ...}: the kitty sizes offered

A request body holds only the fields its request takes (``FIELDS``, also given by
/api/options): any other is refused in one line naming it, never ignored.
"""

from __future__ import annotations

import asyncio
import contextlib
from importlib import resources
from pathlib import Path

import anyio
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from ..coach.judge import COACH_SAMPLES, COACH_TIME, COACH_WORLDS
from ..game.rules import FAMILIES, FAMILY_INTS, Rules, RulesError, family_of, rule_values
from ..table.bidding import PLAYER_STRATEGY, Strategy
from ..util.errors import InputError, quoted
from ..util.jsonio import dumps_json, parse_json
from ..util.runtime import pick_seed
from .saves import SaveError, Saves
from .sessions import Busy, GameError, Games

MAX_BODY = 4 << 20  # a request body over this is refused unread (a record is ~100 kB)
POLL = 25.0  # seconds a state request waits for a change
# The most a page may ask per decision or per odds request: a few seconds of work each.
MAX_COACH_SAMPLES = 20_000
MAX_COACH_WORLDS = 1_000
MAX_ODDS_SAMPLES = 50_000
STATIC = {
    "/": ("index.html", "text/html; charset=utf-8"),
    "/app.js": ("app.js", "text/javascript; charset=utf-8"),
    "/style.css": ("style.css", "text/css; charset=utf-8"),
}
# The fields each request's body may hold; any other is refused (``body``), never ignored.
TABLE_FIELDS = ("preset", "rules", "kitty", "partnership")  # what table_rules reads
FIELDS = {
    "/api/games": (
        "players", *TABLE_FIELDS, "seat", "opponents", "coach", "samples", "worlds", "seed"
    ),
    "/api/games/ID/action": ("action",),
    "/api/games/ID/quit": (),
    "/api/review": ("save", "record", "seat", "samples", "worlds", "again"),
    "/api/odds": (
        "hand", "players", *TABLE_FIELDS, "trump", "seat", "dealer", "calls", "scores",
        "samples", "seed",
    ),
    "/api/odds/trumps": ("hand", *TABLE_FIELDS),
    "/api/kitties": ("players", *TABLE_FIELDS, "opponents"),
}  # fmt: skip
HEADERS = {
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'",
    "Referrer-Policy": "no-referrer",
}


class RequestError(InputError):
    status = 400


def json_response(doc, status: int = 200) -> Response:
    return Response(
        dumps_json(doc, indent=None), status, headers=HEADERS, media_type="application/json"
    )


def error(message: str, status: int = 400) -> Response:
    return json_response({"error": " ".join(str(message).split())}, status)


async def body(request: Request, request_name: str) -> dict:
    """The request's JSON object, holding only the fields of ``FIELDS[request_name]``."""
    # JSON only: another site's page cannot send it without asking first (CORS), and
    # this server never answers that question, so it cannot drive a game from there.
    if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
        raise RequestError("send the request as application/json")
    size = 0
    chunks = []
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            raise RequestError(f"the request is over {MAX_BODY >> 20} MB")
        chunks.append(chunk)
    try:
        text = b"".join(chunks).decode("utf-8")
    except UnicodeDecodeError:
        raise RequestError("the request is not UTF-8") from None
    doc = parse_json(text or "{}", "the request")
    if not isinstance(doc, dict):
        raise RequestError("the request is a JSON object")
    known = FIELDS[request_name]
    for key in doc:
        if key not in known:
            takes = f"takes {', '.join(known)}" if known else "takes no fields"
            raise RequestError(f"unknown field {quoted(key)}: {request_name} {takes}")
    return doc


def whole(doc: dict, key: str, default: int | None, lo: int, hi: int) -> int | None:
    v = doc.get(key, default)
    if v is None:
        return None
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        raise RequestError(f"{key} must be a whole number {lo}-{hi}, not {v!r}")
    return v


def text(doc: dict, key: str, default: str = "", limit: int = 500) -> str:
    v = doc.get(key, default)
    if v is None:
        return default
    if not isinstance(v, str) or len(v) > limit:
        raise RequestError(f"{key} must be text of at most {limit} characters")
    return v.strip()


def flag(doc: dict, key: str, default: bool) -> bool:
    v = doc.get(key, default)
    if not isinstance(v, bool):
        raise RequestError(f"{key} must be true or false, not {v!r}")
    return v


def table_rules(doc: dict) -> Rules:
    """The preset (auction-pitch, setback, smear, ten-point, ...), the rule options on top,
    the kitty (the form's own choice: ``kitty=N``, 12.2; 0 none) and partnership: read as
    ``--rules`` reads them, never from a file (a kitty the preset cannot have, or one
    typed in the rules as well, is the rules' own one-line refusal).  The page plays
    every preset, as ``pitchsim practice`` does."""
    preset = text(doc, "preset", "", 40)
    kitty = whole(doc, "kitty", 0, *FAMILY_INTS["kitty"])
    spec = ",".join(p for p in (preset, text(doc, "rules"), kitty and f"kitty={kitty}") if p)
    return Rules.parse(
        rule_values(spec or None, files=False), partnership=flag(doc, "partnership", False)
    )


def preset_odds(name: str) -> dict:
    """What the Odds tab needs to ask about a hand under preset ``name``: the cards
    dealt each seat by player count, the levels (1 .. the maximum bid), the lowest bid,
    jokers, the jick, how trump is chosen and whether shoot is a call."""
    r = Rules.parse(name)
    lo, hi = FAMILIES[name].players
    return {
        "cards": {str(n): r.cards_each(n) for n in range(lo, hi + 1)},
        "max_bid": r.max_bid,
        "min_bid": r.min_bid,
        "jokers": r.jokers,
        "jick": r.jick,
        "trump": r.trump,
        "shoot": r.shoot,
        "kitty": kitty_sizes(name),
    }


def kitty_sizes(name: str) -> dict[str, int]:
    """The largest kitty the pack allows under preset ``name``, by player count (the
    form offers those of its sizes the opponents play: ``table_kitties``): up to a
    hand's worth (the pitcher discards back to his hand's size, 12.2.2), within what the
    pack leaves after the deal (12.2.3); none when the preset's rules cannot have one
    (6.3.8: a kitty needs trump=named, rob=false and discard=none).  Any other size is
    typed in the rules as kitty=N."""
    try:
        r = Rules.parse(f"{name},kitty=1")
    except RulesError:
        return {}
    lo, hi = FAMILIES[name].players
    sizes = {
        n: min(r.cards_each(n), r.pack_size(n) - n * r.cards_each(n)) for n in range(lo, hi + 1)
    }
    return {str(n): k for n, k in sizes.items() if k > 0}


def table_kitties(doc: dict) -> dict:
    """The kitty sizes the game form offers at this table (``preset``, ``players``,
    ``partnership``, ``rules`` as a new game reads them) against these ``opponents``:
    each of ``kitty_sizes``'s, up to ``most``, that a game would start with, checked as
    a game checks its table (``table.game.check_table``, the opponents at every seat;
    the odds bidder's rows for a kitty, 12.2, shipped or made when the game starts,
    ``table.odds_rows``).  ``refused``: the first
    size left out's refusal, in the table's own line (None: none left out).  A table
    refused without a kitty is refused as a new game would be."""
    from ..table.game import check_table

    players = whole(doc, "players", 4, 2, 7)
    opponents = text(doc, "opponents", PLAYER_STRATEGY, 100)
    Strategy.parse(opponents)  # a built-in strategy, as a new game reads it
    seats = [opponents] * players
    rules = table_rules(doc | {"kitty": 0})
    check_table(seats, rules, players)
    most = kitty_sizes(family_of(rules)).get(str(players), 0)
    sizes, refused = [], None
    for k in range(1, most + 1):
        try:
            check_table(seats, table_rules(doc | {"kitty": k}), players)
        except InputError as e:
            refused = refused or str(e)
            continue
        sizes.append(k)
    return {"most": most, "sizes": sizes, "refused": refused}


def create_app(
    saves: str | Path,
    max_games: int = 8,
    idle: float = 1800.0,
    coach_time: float | None = COACH_TIME,
    host: str = "127.0.0.1",
) -> Starlette:
    """The app: ``saves`` is the folder games are saved in and reviewed from;
    ``max_games`` games at once; a game unseen for ``idle`` seconds is stopped.  Only
    requests naming this machine (or ``host``) in their Host header are answered, so a
    page elsewhere cannot reach the server by a name that points here (DNS rebinding)."""
    store = Saves(saves)
    games = Games(store, max_games, idle)
    work = asyncio.Semaphore(1)  # odds and reviews, one at a time (a few cores at most)

    async def run(fn, *args):
        """A library call in a worker thread, one at a time."""
        async with work:
            return await anyio.to_thread.run_sync(fn, *args)

    async def page(request: Request) -> Response:
        name, kind = STATIC[request.url.path]
        data = resources.files("pitchsim.web").joinpath("static", name).read_bytes()
        return Response(data, headers=HEADERS, media_type=kind)

    async def options(request: Request) -> Response:
        return json_response(
            {
                "presets": [
                    {"name": f.name, "title": f.title, "players": list(f.players)}
                    | preset_odds(f.name)
                    for f in FAMILIES.values()
                ],
                "opponents": PLAYER_STRATEGY,
                "fields": FIELDS,
                "coach": {"samples": COACH_SAMPLES, "worlds": COACH_WORLDS},
                "limits": {
                    "samples": MAX_COACH_SAMPLES,
                    "worlds": MAX_COACH_WORLDS,
                    "odds_samples": MAX_ODDS_SAMPLES,
                    "games": max_games,
                },
            }
        )

    async def new_game(request: Request) -> Response:
        doc = await body(request, "/api/games")
        players = whole(doc, "players", 4, 2, 7)
        rules = table_rules(doc)
        opponents = text(doc, "opponents", PLAYER_STRATEGY, 100)
        Strategy.parse(opponents)
        options = {
            "players": players,
            "seat": whole(doc, "seat", 0, 0, players - 1),
            "opponents": opponents,
            "rules": rules,
            "seed": pick_seed(whole(doc, "seed", None, 0, (1 << 62) - 1)),
            "coach": flag(doc, "coach", True),
            "samples": whole(doc, "samples", COACH_SAMPLES, 1, MAX_COACH_SAMPLES),
            "worlds": whole(doc, "worlds", COACH_WORLDS, 1, MAX_COACH_WORLDS),
            "time_limit": coach_time,
        }
        game = await anyio.to_thread.run_sync(lambda: games.new(**options))
        return json_response(game.to_json(), 201)

    async def state(request: Request) -> Response:
        game = games.get(request.path_params["gid"])
        since = request.query_params.get("since", "-1")
        if not since.lstrip("-").isdigit() or len(since) > 18:
            raise RequestError("since is a version number")
        since = int(since)
        loop_end = anyio.current_time() + POLL
        while game.version <= since and anyio.current_time() < loop_end:
            if await request.is_disconnected():
                break
            await asyncio.sleep(0.05)
        games.get(game.id)  # seen: not idle
        return json_response(game.to_json())

    async def action(request: Request) -> Response:
        game = games.get(request.path_params["gid"])
        doc = await body(request, "/api/games/ID/action")
        if not isinstance(doc.get("action"), str):  # (a list was told "answered list")
            raise RequestError('send {"action": "KS"} (a card) or {"action": "pass"} (a call)')
        game.act(doc["action"])
        return json_response({"ok": True, "version": game.version})

    async def quit_game(request: Request) -> Response:
        game = games.get(request.path_params["gid"])
        await body(request, "/api/games/ID/quit")
        game.quit()
        await anyio.to_thread.run_sync(lambda: game.thread.join(30))
        return json_response(game.to_json())

    async def saves_list(request: Request) -> Response:
        return json_response({"saves": store.names()})

    async def saved(request: Request) -> Response:
        return json_response(store.read(request.path_params["name"]))

    async def review_request(request: Request) -> Response:
        from .review import review_record

        doc = await body(request, "/api/review")
        if "save" in doc:
            record = store.read(doc["save"])
        elif isinstance(doc.get("record"), dict):
            record = doc["record"]
        else:
            raise RequestError('send {"save": NAME} or {"record": {...}} and the seat')
        seat = whole(doc, "seat", None, 0, 6)
        samples = whole(doc, "samples", COACH_SAMPLES, 1, MAX_COACH_SAMPLES)
        worlds = whole(doc, "worlds", COACH_WORLDS, 1, MAX_COACH_WORLDS)
        again = flag(doc, "again", False)
        out = await run(review_record, record, seat, samples, worlds, again, coach_time)
        return json_response(out)

    async def odds(request: Request) -> Response:
        from .odds import odds_of

        doc = await body(request, "/api/odds")
        players = whole(doc, "players", 4, 2, 7)
        args = {
            "hand": text(doc, "hand", "", 100),
            "players": players,
            "rules": table_rules(doc),
            "samples": whole(doc, "samples", 4000, 100, MAX_ODDS_SAMPLES),
            "seat": whole(doc, "seat", 0, 0, players - 1),
            "dealer": whole(doc, "dealer", players - 1, 0, players - 1),
            "calls": text(doc, "calls", "", 100),
            "scores": text(doc, "scores", "", 200),
            "seed": whole(doc, "seed", None, 0, (1 << 62) - 1),
            "trump": text(doc, "trump", "", 10) or None,
        }
        return json_response(await run(lambda: odds_of(**args)))

    async def odds_trumps(request: Request) -> Response:
        from .odds import trumps_of

        doc = await body(request, "/api/odds/trumps")
        return json_response({"suits": trumps_of(text(doc, "hand", "", 100), table_rules(doc))})

    async def kitties(request: Request) -> Response:
        doc = await body(request, "/api/kitties")
        return json_response(await anyio.to_thread.run_sync(table_kitties, doc))

    async def reaper() -> None:
        while True:
            await asyncio.sleep(min(60.0, max(0.5, idle / 4)))
            games.reap()

    @contextlib.asynccontextmanager
    async def lifespan(app):
        task = asyncio.create_task(reaper())
        try:
            yield
        finally:
            task.cancel()
            await anyio.to_thread.run_sync(games.stop_all)

    hosts = {host, "127.0.0.1", "localhost"}

    def guarded(endpoint):
        async def call(request: Request) -> Response:
            name = request.headers.get("host", "").rsplit(":", 1)[0].strip("[]")
            if name not in hosts:
                return error(f"this server answers to {', '.join(sorted(hosts))} only", 421)
            try:
                return await endpoint(request)
            except Busy as e:
                return error(str(e), 503)
            except GameError as e:
                return error(str(e), 404 if str(e).startswith("no such") else 409)
            except SaveError as e:
                return error(str(e), 404)
            except InputError as e:  # the library's refusal, in its own words
                return error(str(e), 400)

        return call

    routes = [Route(path, guarded(page)) for path in STATIC]
    routes += [
        Route("/api/options", guarded(options)),
        Route("/api/games", guarded(new_game), methods=["POST"]),
        Route("/api/games/{gid}", guarded(state)),
        Route("/api/games/{gid}/action", guarded(action), methods=["POST"]),
        Route("/api/games/{gid}/quit", guarded(quit_game), methods=["POST"]),
        Route("/api/saves", guarded(saves_list)),
        Route("/api/saves/{name}", guarded(saved)),
        Route("/api/review", guarded(review_request), methods=["POST"]),
        Route("/api/odds", guarded(odds), methods=["POST"]),
        Route("/api/odds/trumps", guarded(odds_trumps), methods=["POST"]),
        Route("/api/kitties", guarded(kitties), methods=["POST"]),
    ]

    async def not_found(request, exc) -> Response:
        return error(getattr(exc, "detail", "not found"), getattr(exc, "status_code", 404))

    async def failed(request, exc) -> Response:
        return error(f"internal error: {type(exc).__name__}: {exc}", 500)

    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        exception_handlers={404: not_found, 405: not_found, Exception: failed},
    )
    app.state.games = games
    return app
