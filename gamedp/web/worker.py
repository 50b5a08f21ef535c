"""Each game the web board serves is solved in a process of its own, with a time limit.

A solve can take long (a big board) or never finish; it must not hold up the other games, and a game's own
code may raise or crash. So every game gets a worker process (started on its first request, spawned afresh
rather than forked from the threaded server) that loads the game once, keeps its solution between requests,
and answers one request at a time over a pipe. A request that takes longer than the time limit ends the worker
(and the memory it held) and is answered with a clear message; the next request starts a fresh one. So does a
worker left idle for :data:`IDLE_SECONDS`: a finished search keeps its tables (one held 813 MB for as long as the
server ran), and the memory is given back once no one is asking.

A board watches a position's values come in instead (:meth:`GameWorker.watch`): the worker searches them in a
thread of its own and sends each move's value over a second pipe as it is found, with no time limit, while it
answers quick requests (a position's board and moves) meanwhile. One search runs at a time: the next request for
values, or the page leaving (:meth:`GameWorker.unwatch`), stops it, by the engine's own stop where it has one
(the exact-score search's, which keeps its table for the next position), else by ending the worker if the
search has not finished within :data:`STOP_SECONDS` (a search in Python cannot be stopped from outside).
"""

from __future__ import annotations

import functools
import itertools
import multiprocessing
import queue
import threading
import time
from contextlib import contextmanager
from typing import Any, Iterator

#: the errors the worker reports: GamedpError (what a person typed) -> 400; the game's own code failing -> 422
BAD_INPUT, GAME_FAILED = 400, 422
#: seconds a worker is kept with no request before it ends, and its memory with it
IDLE_SECONDS = 120.0
#: seconds a search left behind has to stop before its worker is ended instead
STOP_SECONDS = 2.0


class ServeError(Exception):
    """A request the board cannot answer: an HTTP status and a message a person can act on."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status, self.message = status, message


def answer(analyst: Any, request: dict) -> dict:
    """One request for a loaded game: ``{"position": text or None, "move": name or None}`` -> the record of the
    position (after the move, if one is given); with ``"kind": "board"``, its record without values
    (:func:`gamedp.web.record.board_record`: no search).

    >>> from gamedp.analysis import Analyst
    >>> from gamedp.games.tictactoe import TicTacToe
    >>> answer(Analyst(TicTacToe()), {"position": "XX.OO....", "move": "3"})["position"]
    'XXXOO....'
    """
    from gamedp.web.record import board_record, position_record

    position = requested_position(analyst, request)
    return (board_record if request.get("kind") == "board" else position_record)(analyst, position)


def requested_position(analyst: Any, request: dict) -> Any:
    """The position a request names: its ``position`` (the start if None), after its ``move`` if it has one."""
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
    return position


def _reply(work: Any) -> tuple:
    """``("ok", work())``, or ``("error", status, message)``: what a person typed wrong, or the game's code."""
    from gamedp.errors import GamedpError

    try:
        return ("ok", work())
    except GamedpError as e:
        return ("error", BAD_INPUT, str(e))
    except Exception as e:  # the game's own code failed: say where, and keep serving
        return ("error", GAME_FAILED, f"the game's own code failed: {type(e).__name__}: {e}")


class Search:
    """The one search for values a worker runs, in a thread, sending on ``events`` each move's value as it is
    found (``("move", stream, entry)``), then ``("done", stream, record)``; or ``("stopped", stream)``, or
    ``("error", stream, status, message)``."""

    def __init__(self, analyst: Any, events: Any):
        self.analyst, self.events = analyst, events
        self._thread: threading.Thread | None = None

    def start(self, stream: int, position: Any) -> None:
        self._thread = threading.Thread(target=self._run, args=(stream, position), daemon=True,
                                        name=f"gamedp values {stream}")
        self._thread.start()

    def _run(self, stream: int, position: Any) -> None:
        from gamedp.web.record import move_entry, position_record

        analyst = self.analyst

        def search() -> dict:
            found = {}
            for move, child, value in analyst.values_as_proved(position):
                found[child] = value
                self.events.send(("move", stream, move_entry(analyst, position, move, child, value)))
            return position_record(analyst, position, analyst.analyze_from(position, found) if found else None)

        try:
            status = _reply(search)
        except KeyboardInterrupt:  # stopped: the page went elsewhere
            self.events.send(("stopped", stream))
            return
        self.events.send(("done", stream, status[1]) if status[0] == "ok" else (status[0], stream, *status[1:]))

    def stop(self) -> bool:
        """Stop the search under way, if any: whether it stopped (else the worker must end)."""
        if self._thread is None or not self._thread.is_alive():
            return True
        self.analyst.stop()
        self._thread.join(STOP_SECONDS)
        if self._thread.is_alive():
            return False
        self.analyst.resume()
        return True


def serve_game(spec: str, conn: Any, events: Any, options: dict) -> None:
    """The worker process: load ``spec`` as :func:`gamedp.analysis.load_analyst` does for ``gamedp serve``
    (``options``: its ``db``, ``depth`` and ``warn``), say so, then answer requests until the pipe closes:
    a position's record (``kind`` ``record``, the default) or board (``board``), ``values`` (start a
    :class:`Search` whose ``events`` are numbered ``stream``) and ``stop`` (it)."""
    from gamedp.analysis import load_analyst

    status = _reply(lambda: load_analyst(spec, "serve", **options))
    conn.send(status if status[0] == "error" else ("ok", status[1].name))
    if status[0] == "error":
        return
    analyst = status[1]
    search = Search(analyst, events)
    while True:
        try:
            request = conn.recv()
        except (EOFError, OSError):
            return
        kind = request.get("kind")
        if kind == "stop":
            conn.send(("ok", search.stop()))
        elif kind == "values":
            status = _reply(functools.partial(requested_position, analyst, request))
            if status[0] == "ok":
                search.start(request["stream"], status[1])
                status = ("ok", None)
            conn.send(status)
        else:
            conn.send(_reply(functools.partial(answer, analyst, request)))


class Stream:
    """The events of one search a board watches, as the worker sends them but for the stream's number:
    ``("move", entry)``, ``("done", record)``, ``("stopped",)``, ``("error", status, message)``."""

    def __init__(self, number: int):
        self.number = number
        self._events: queue.SimpleQueue[tuple] = queue.SimpleQueue()

    def put(self, event: tuple) -> None:
        self._events.put(event)

    def next(self, timeout: float) -> tuple | None:
        """The next event, or None if none came within ``timeout`` seconds."""
        try:
            return self._events.get(timeout=timeout)
        except queue.Empty:
            return None


class GameWorker:
    """The worker process of one game; :meth:`ask` is called from one thread at a time (the caller's lock)."""

    def __init__(self, spec: str, time_limit: float, options: dict | None = None):
        self.spec, self.time_limit, self.options = spec, time_limit, options or {}
        self._process: Any = None
        self._conn: Any = None
        self._guard = threading.Lock()  # close() may come from another thread than ask(); so do stream events
        self._busy = threading.Lock()  # held while a request is under way: the idle timer leaves it alone
        self._asked = 0  # requests so far: the idle timer ends the worker only if none came since it was set
        self._idle: threading.Timer | None = None
        self._numbers = itertools.count(1)
        #: the streams of the worker's search under way, by number (a search whose events are not all in)
        self._streams: dict[int, Stream] = {}

    def ask(self, request: dict) -> dict:
        """The worker's answer to ``request``; :class:`ServeError` for bad input, a failing game or the time limit.
        Any request but a board's (``"kind": "board"``) stops the search watched now first."""
        with self._turn() as started:
            if request.get("kind") != "board":
                self._stop_search(started)
            return self._exchange(request, started)

    def watch(self, request: dict) -> Stream:
        """Start searching the values of the position ``request`` names (stopping the search under way): the
        stream its events come on, with no time limit."""
        with self._turn() as started:
            self._stop_search(started)
            stream = Stream(next(self._numbers))
            self._exchange({"kind": "values", "position": None, **request, "stream": stream.number}, started,
                           stream)
            return stream

    def unwatch(self, stream: Stream) -> None:
        """Stop ``stream``'s search if it is still under way: no one watches it any more."""
        with self._turn(start=False) as started:
            if stream.number in self._streams:
                self._stop_search(started)

    @contextmanager
    def _turn(self, start: bool = True) -> Iterator[float]:
        """This thread's turn with the worker (started, unless not to ``start``); yields when the turn began."""
        with self._busy:
            self._asked += 1
            try:
                started = time.monotonic()
                if start and (self._process is None or not self._process.is_alive()):
                    self._start()
                    self._receive(started)  # the game loaded, or why not
                yield started
            finally:
                self._arm_idle()

    def _arm_idle(self) -> None:
        if self._idle is not None:
            self._idle.cancel()
        if self._process is not None:
            self._idle = threading.Timer(IDLE_SECONDS, self._end_if_idle, args=(self._asked,))
            self._idle.daemon = True
            self._idle.start()

    def _end_if_idle(self, asked: int) -> None:
        if self._busy.acquire(blocking=False):  # else a request is under way: it sets the timer again
            try:
                if self._streams:  # a search someone watches is not idle
                    self._arm_idle()
                elif asked == self._asked:
                    self.close()
            finally:
                self._busy.release()

    def _exchange(self, request: dict, started: float, stream: Stream | None = None) -> Any:
        if self._process is None:  # ended by a search that would not stop
            self._start()
            self._receive(started)
        if stream is not None:
            with self._guard:
                self._streams[stream.number] = stream
        try:
            try:
                self._conn.send(request)
            except OSError:  # it ended since it was last asked
                self.close()
                raise ServeError(GAME_FAILED, self._crashed()) from None
            return self._receive(started)
        except BaseException:
            if stream is not None:
                with self._guard:
                    self._streams.pop(stream.number, None)
            raise

    def _stop_search(self, started: float) -> None:
        """Stop the search under way, if there is one (its stream ends ``stopped``); a worker whose search does
        not stop in :data:`STOP_SECONDS` is ended (the next request starts a fresh one)."""
        if not self._streams:
            return
        stopped = self._exchange({"kind": "stop"}, started)
        with self._guard:
            streams = list(self._streams.values())
            self._streams.clear()
        for stream in streams:
            stream.put(("stopped",))
        if not stopped:
            self.close()

    def _start(self) -> None:
        context = multiprocessing.get_context("spawn")
        parent, child = context.Pipe()
        events, sent = context.Pipe(duplex=False)
        process = context.Process(target=serve_game, args=(self.spec, child, sent, self.options), daemon=True,
                                  name=f"gamedp serve {self.spec}")
        process.start()
        child.close()
        sent.close()
        streams: dict[int, Stream] = {}
        threading.Thread(target=self._pass_events, args=(events, streams), daemon=True,
                         name=f"gamedp events {self.spec}").start()
        with self._guard:
            self._process, self._conn, self._streams = process, parent, streams

    def _pass_events(self, events: Any, streams: dict[int, Stream]) -> None:
        """Hand each event of one worker process to its stream, until the process ends (its ``streams`` then
        end with an error)."""
        while True:
            try:
                kind, number, *rest = events.recv()
            except (EOFError, OSError):
                break
            with self._guard:
                stream = streams.get(number) if kind == "move" else streams.pop(number, None)
            if stream is not None:
                stream.put((kind, *rest))
        events.close()
        with self._guard:
            left = list(streams.values())
            streams.clear()
        for stream in left:
            stream.put(("error", GAME_FAILED, self._crashed()))

    def _crashed(self) -> str:
        return (f"the worker solving {self.spec} stopped unexpectedly (the game's code may have crashed it); the "
                "next request starts a fresh one")

    def _receive(self, started: float) -> Any:
        left = self.time_limit - (time.monotonic() - started)
        try:
            ready = left > 0 and self._conn.poll(left)
            reply = self._conn.recv() if ready else None
        except (EOFError, OSError):
            self.close()
            raise ServeError(GAME_FAILED, self._crashed()) from None
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
        with self._guard:  # the streams of its search end as its events' pipe does
            process, conn, self._process, self._conn, self._streams = self._process, self._conn, None, None, {}
        if process is not None:
            process.kill()
            process.join(5)
            conn.close()
