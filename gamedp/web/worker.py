"""Each game the web board serves is solved in a process of its own, with a time limit.

A solve can take long (a big board) or never finish; it must not hold up the other games, and a game's own
code may raise or crash. So every game gets a worker process (started on its first request, spawned afresh
rather than forked from the threaded server) that loads the game once, keeps its solution between requests,
and answers one request at a time over a pipe. A request that takes longer than the time limit ends the worker
(and the memory it held) and is answered with a clear message; the next request starts a fresh one. So does a
worker left idle for :data:`IDLE_SECONDS`: a finished search keeps its tables (one held 813 MB for as long as the
server ran), and the memory is given back once no one is asking.
"""

from __future__ import annotations

import functools
import multiprocessing
import threading
import time
from typing import Any

#: the errors the worker reports: GamedpError (what a person typed) -> 400; the game's own code failing -> 422
BAD_INPUT, GAME_FAILED = 400, 422
#: seconds a worker is kept with no request before it ends, and its memory with it
IDLE_SECONDS = 120.0


class ServeError(Exception):
    """A request the board cannot answer: an HTTP status and a message a person can act on."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status, self.message = status, message


def answer(analyst: Any, request: dict) -> dict:
    """One request for a loaded game: ``{"position": text or None, "move": name or None}`` -> the record of the
    position (after the move, if one is given).

    >>> from gamedp.analysis import Analyst
    >>> from gamedp.games.tictactoe import TicTacToe
    >>> answer(Analyst(TicTacToe()), {"position": "XX.OO....", "move": "3"})["position"]
    'XXXOO....'
    """
    from gamedp.web.record import position_record

    text = request.get("position")
    position = analyst.start() if text is None else analyst.read_position(text)
    name = request.get("move")
    if name is not None:
        # The move by its name (else as typed), without valuing the position it is made from: only the
        # position it leads to is shown.
        moves = analyst.rules.move_list(position)
        named = [move for move, _ in moves if analyst.move_name(position, move) == name]
        move = named[0] if named else analyst.read_move(position, name)
        position = next(child for m, child in moves if m == move)
    return position_record(analyst, position)


def serve_game(spec: str, conn: Any, options: dict) -> None:
    """The worker process: load ``spec`` as :func:`gamedp.analysis.load_analyst` does for ``gamedp serve``
    (``options``: its ``db``, ``depth`` and ``warn``), say so, then answer requests until the pipe closes."""
    from gamedp.analysis import load_analyst
    from gamedp.errors import GamedpError

    def reply(work: Any) -> tuple:
        try:
            return ("ok", work())
        except GamedpError as e:
            return ("error", BAD_INPUT, str(e))
        except Exception as e:  # the game's own code failed: say where, and keep serving
            return ("error", GAME_FAILED, f"the game's own code failed: {type(e).__name__}: {e}")

    status = reply(lambda: load_analyst(spec, "serve", **options))
    conn.send(status if status[0] == "error" else ("ok", status[1].name))
    if status[0] == "error":
        return
    analyst = status[1]
    while True:
        try:
            request = conn.recv()
        except (EOFError, OSError):
            return
        conn.send(reply(functools.partial(answer, analyst, request)))


class GameWorker:
    """The worker process of one game; :meth:`ask` is called from one thread at a time (the caller's lock)."""

    def __init__(self, spec: str, time_limit: float, options: dict | None = None):
        self.spec, self.time_limit, self.options = spec, time_limit, options or {}
        self._process: Any = None
        self._conn: Any = None
        self._guard = threading.Lock()  # close() may come from another thread than ask()
        self._busy = threading.Lock()  # held while a request is under way: the idle timer leaves it alone
        self._asked = 0  # requests so far: the idle timer ends the worker only if none came since it was set
        self._idle: threading.Timer | None = None

    def ask(self, request: dict) -> dict:
        """The worker's answer to ``request``; :class:`ServeError` for bad input, a failing game or the time limit."""
        with self._busy:
            self._asked += 1
            try:
                started = time.monotonic()
                if self._process is None or not self._process.is_alive():
                    self._start()
                    self._receive(started)  # the game loaded, or why not
                self._conn.send(request)
                return self._receive(started)
            finally:
                if self._idle is not None:
                    self._idle.cancel()
                if self._process is not None:
                    self._idle = threading.Timer(IDLE_SECONDS, self._end_if_idle, args=(self._asked,))
                    self._idle.daemon = True
                    self._idle.start()

    def _end_if_idle(self, asked: int) -> None:
        if self._busy.acquire(blocking=False):  # else a request is under way: it sets the timer again
            try:
                if asked == self._asked:
                    self.close()
            finally:
                self._busy.release()

    def _start(self) -> None:
        context = multiprocessing.get_context("spawn")
        parent, child = context.Pipe()
        process = context.Process(target=serve_game, args=(self.spec, child, self.options), daemon=True,
                                  name=f"gamedp serve {self.spec}")
        process.start()
        child.close()
        with self._guard:
            self._process, self._conn = process, parent

    def _receive(self, started: float) -> Any:
        left = self.time_limit - (time.monotonic() - started)
        try:
            ready = left > 0 and self._conn.poll(left)
            reply = self._conn.recv() if ready else None
        except (EOFError, OSError):
            self.close()
            raise ServeError(GAME_FAILED, f"the worker solving {self.spec} stopped unexpectedly (the game's code "
                                          "may have crashed it); the next request starts a fresh one") from None
        if reply is None:
            self.close()
            raise ServeError(503, f"{self.spec} took longer than the time limit ({self.time_limit:g} s) to answer "
                                  "and was stopped; try a smaller game or position, or a larger --time-limit")
        if reply[0] == "error":
            raise ServeError(reply[1], reply[2])
        return reply[1]

    def close(self) -> None:
        """End the worker process (its solution and memory with it)."""
        if self._idle is not None:
            self._idle.cancel()
        with self._guard:
            process, conn, self._process, self._conn = self._process, self._conn, None, None
        if process is not None:
            process.kill()
            process.join(5)
            conn.close()
