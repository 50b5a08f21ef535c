"""The web board as an ASGI app (Starlette): the page, its assets, and the JSON API under ``/api/``.

The browser names games only by the ids the server lists (``GET /api/games``), so it can never make the
server load code: the games are the built-in ones and those named on the command line. Each game is solved
in its own worker process (:mod:`gamedp.web.worker`); waiting for it never holds a thread.

API (every answer JSON; errors are ``{"error": message}`` with a 4xx status, or 503 past the time limit):

- ``GET /api/games``: the games served, and the one the page starts with;
- ``GET /api/position?game=ID[&position=TEXT]``: the position's record (the start without ``position``):
  GamesmanUni's ``analyze --json`` shape plus ``board`` (SVG), ``text`` and each move's ``cells`` (a game served
  with a search depth: :func:`gamedp.web.record.judgement_json`'s, estimates where nothing is proven);
- ``GET /api/move?game=ID&position=TEXT&move=NAME``: the record of the position the move leads to;
- ``GET /api/board?game=ID[&position=TEXT][&move=NAME]``: the position's record without values (the board, the
  text, each move's name, cells and position), at once: no search;
- ``GET /api/values?game=ID[&position=TEXT]``: the values as they are proved, as server-sent events
  (``text/event-stream``): ``move`` (a move's entry, as in the record but ``deltaRemoteness``) as each is
  found, then ``done`` (the whole record, as ``/api/position`` gives it) or ``stopped`` (a later request for
  this game's values took its place) or ``failed`` (``{"error": message, "status": code}``); a comment line
  every second meanwhile. No time limit: the search stops when the client closes the stream (the page went
  elsewhere or was closed). A request of values or a record of the game stops the search under way.

>>> from starlette.testclient import TestClient
>>> with TestClient(create_app(["tictactoe"])) as client:
...     record = client.get("/api/position", params={"game": "tictactoe", "position": "XX.OO...."}).json()
...     print(client.get("/api/position", params={"game": "chess"}).json()["error"])
unknown game 'chess': this server has tictactoe (see /api/games)
>>> record["positionValue"], record["moves"][0]["moveName"]
('win', '3')
"""

from __future__ import annotations

import json
from contextlib import asynccontextmanager
from importlib.resources import files
from typing import Any, AsyncIterator, Awaitable, Callable, Mapping, Sequence

import anyio
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from gamedp.web.worker import GameWorker, ServeError, Stream

#: the longest position or move text a request may carry, and the largest request body (none is needed)
MAX_TEXT = 4096
MAX_BODY = 64 * 1024
#: the games a server offers besides those on its command line (the big Connect-4 board needs hours; 4x4 not)
EXTRA_GAMES = ("connect4:4x4",)
#: seconds between the comment lines of a stream of values (a closed page is noticed by them at the latest)
HEARTBEAT_SECONDS = 1.0


def builtin_games() -> list[str]:
    """Every built-in game the board offers, by the name the command line knows it."""
    from gamedp.games.registry import GAMES

    return list(GAMES) + list(EXTRA_GAMES)


class Games:
    """The games served, by id, each with its worker process and a lock that queues its requests."""

    def __init__(self, specs: Sequence[str], time_limit: float, options: Mapping[str, dict] | None = None):
        self.specs = list(dict.fromkeys(specs))
        self.time_limit = time_limit
        options = options or {}
        self._workers = {spec: GameWorker(spec, time_limit, options.get(spec)) for spec in self.specs}
        self._locks: dict[str, anyio.Lock] = {}

    async def ask(self, spec: str, request: dict) -> dict:
        record = await self._call(spec, "ask", request)
        # The game as this server lists it (a file's game by its file), not as the game calls itself.
        return {**record, "game": spec}

    async def watch(self, spec: str, request: dict) -> Stream:
        """The stream of the values of the position ``request`` names (see :meth:`GameWorker.watch`)."""
        return await self._call(spec, "watch", request)

    async def unwatch(self, spec: str, stream: Stream) -> None:
        """Stop ``stream``'s search, if it is still under way: its page is gone, so a failure has no one to tell
        (a worker that failed to stop is ended; the game's next request starts a fresh one)."""
        try:
            await self._call(spec, "unwatch", stream)
        except ServeError:
            pass

    async def _call(self, spec: str, method: str, argument: Any) -> Any:
        """``method`` of ``spec``'s worker on ``argument``, in a thread, after the requests queued before it."""
        worker = self._workers.get(spec)
        if worker is None:
            raise ServeError(404, f"unknown game {spec!r}: this server has {', '.join(self.specs)} (see /api/games)")
        lock = self._locks.setdefault(spec, anyio.Lock())
        try:
            with anyio.fail_after(self.time_limit):
                await lock.acquire()
        except TimeoutError:
            raise ServeError(503, f"{spec} is busy with a long solve; try again in a moment, or another game") \
                from None
        try:
            return await anyio.to_thread.run_sync(getattr(worker, method), argument)
        finally:
            lock.release()

    def close(self) -> None:
        for worker in self._workers.values():
            worker.close()


def create_app(games: Sequence[str], *, start: tuple[str, str | None] | None = None,
               time_limit: float = 20.0, options: Mapping[str, dict] | None = None) -> LimitBody:
    """The web board serving ``games`` (ids the loader knows); the page opens ``start`` (game, position).
    ``options`` gives a game's ``db`` (its saved solve) and ``depth`` (a depth-limited search), by id, as
    :func:`gamedp.analysis.load_analyst` takes them.

    Worker processes end when the app shuts down.
    """
    served = Games(games, time_limit, options)
    first_game, first_position = start or (served.specs[0], None)
    static = files("gamedp.web") / "static"

    async def index(request: Request) -> FileResponse:
        return FileResponse(str(static / "index.html"), headers={"Cache-Control": "no-cache"})

    async def list_games(request: Request) -> JSONResponse:
        return JSONResponse({"games": served.specs, "start": {"game": first_game, "position": first_position},
                             "timeLimit": time_limit})

    async def position(request: Request) -> JSONResponse:
        game, request_fields = _read_query(request, required=())
        return JSONResponse(await served.ask(game, request_fields))

    async def move(request: Request) -> JSONResponse:
        game, request_fields = _read_query(request, required=("position", "move"))
        return JSONResponse(await served.ask(game, request_fields))

    async def board(request: Request) -> JSONResponse:
        game, request_fields = _read_query(request, required=())
        return JSONResponse(await served.ask(game, {**request_fields, "kind": "board"}))

    async def values(request: Request) -> StreamingResponse:
        game, request_fields = _read_query(request, required=())
        stream = await served.watch(game, {"position": request_fields["position"]})
        return EventStream(_events(game, stream), lambda: served.unwatch(game, stream))

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        served.close()

    app = Starlette(
        routes=[
            Route("/", index),
            Route("/api/games", list_games),
            Route("/api/position", position),
            Route("/api/move", move),
            Route("/api/board", board),
            Route("/api/values", values),
            Mount("/static", StaticFiles(directory=str(static)), name="static"),
        ],
        exception_handlers={ServeError: _serve_error, HTTPException: _http_error, Exception: _server_error},
        lifespan=lifespan,
    )
    app.state.games = served
    return LimitBody(app)


async def _events(game: str, stream: Stream) -> AsyncIterator[str]:
    """A stream's events as server-sent events, until its last (see the API above)."""
    while True:
        event = await anyio.to_thread.run_sync(stream.next, HEARTBEAT_SECONDS)
        if event is None:
            yield ": searching\n\n"
            continue
        kind, *rest = event
        if kind == "error":
            kind, data = "failed", {"status": rest[0], "error": rest[1]}
        else:  # a move's entry, the whole record (of the game as this server lists it), or nothing
            data = {**rest[0], "game": game} if kind == "done" else rest[0] if rest else {}
        yield f"event: {kind}\ndata: {json.dumps(data)}\n\n"
        if kind != "move":
            return


class EventStream(StreamingResponse):
    """Server-sent events that call ``closed`` once the response ends, however it ends (the client gone too)."""

    def __init__(self, events: AsyncIterator[str], closed: Callable[[], Awaitable[None]]):
        super().__init__(events, media_type="text/event-stream",
                         headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
        self.closed = closed

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            with anyio.CancelScope(shield=True):  # the client going away cancels the response, not this
                await self.closed()


def _read_query(request: Request, required: Sequence[str]) -> tuple[str, dict]:
    """The game and the worker request from the query string, with a clear 4xx for what is missing or too big."""
    query = request.query_params
    for name in ("game", *required):
        if not query.get(name, "").strip():
            raise ServeError(400, f"missing '{name}': {request.url.path} takes "
                                  f"game{''.join(f', {r}' for r in required)} as query parameters")
    fields = {name: query.get(name) for name in ("position", "move")}
    for name, value in fields.items():
        if value is not None and len(value) > MAX_TEXT:
            raise ServeError(413, f"'{name}' is {len(value)} characters; at most {MAX_TEXT} are accepted")
    return query["game"], fields


async def _serve_error(request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, ServeError)
    return JSONResponse({"error": error.message}, status_code=error.status)


async def _http_error(request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, HTTPException)
    messages = {404: f"no such page: {request.url.path} (the API is /api/games, /api/position, /api/move, "
                     "/api/board, /api/values)",
                405: f"{request.method} is not allowed on {request.url.path}; use GET"}
    return JSONResponse({"error": messages.get(error.status_code, error.detail)}, status_code=error.status_code)


async def _server_error(request: Request, error: Exception) -> JSONResponse:
    return JSONResponse({"error": f"the server failed: {type(error).__name__}: {error}"}, status_code=500)


class LimitBody:
    """ASGI middleware: a request that announces more than :data:`MAX_BODY` bytes of body (the API reads none),
    or a query string too long to hold a position and a move, gets a 413."""

    def __init__(self, app: Starlette):
        self.app = app
        self.state = app.state

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            length = dict(scope["headers"]).get(b"content-length", b"0")
            too_big = not length.isdigit() or int(length) > MAX_BODY
            if too_big or len(scope.get("query_string", b"")) > 3 * MAX_TEXT:
                response = JSONResponse({"error": f"the request is too large: the board takes at most {MAX_TEXT} "
                                                  "characters of position and move"}, status_code=413)
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)
