"""The web board's server against slow and many clients: uvicorn's HTTP protocol with a deadline per request and
a cap on connections.

uvicorn times out a connection only between requests (keep-alive), so a client that sends half a request, or a
header now and then, holds a connection (and a file descriptor) for ever; enough of them used up the open-files
limit, after which every accept failed with a traceback. Here a request must arrive whole within
:data:`REQUEST_TIMEOUT` seconds of the connection (or of the previous response), and the server holds at most
:func:`most_connections`, which keeps it below the open-files limit. Past that, a new connection closes the one
that has waited longest for its request: one client holding every slot with half-sent requests, reopened as each
times out, starved every other client when new connections were the ones refused (0 of 27 requests answered in
30 s); a client that sends its request at once is now answered. Only while every connection has a request under
way is a new one refused. Either is said once on stderr (the first time), not once per connection.
"""

from __future__ import annotations

import asyncio
import resource
import sys
import weakref
from typing import Any

import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

#: Seconds a client has to send a whole request (line and headers) once connected, or after a response.
REQUEST_TIMEOUT = 10.0
#: Open files kept for the server itself: its listening socket, the games' worker processes and their pipes.
FILES_RESERVE = 64


def most_connections() -> int:
    """How many connections are served at once: at most 512, fewer under a low open-files limit (``ulimit -n``):
    half of what it leaves, as as many more may be accepted at once before the excess is closed."""
    files, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    return max(4, min(512, (files - FILES_RESERVE) // 2 if files != resource.RLIM_INFINITY else 512))


class _Once:
    """One line on stderr, the first time there is something to say."""

    def __init__(self) -> None:
        self.said = False

    def say(self, line: str) -> None:
        if not self.said:
            self.said = True
            sys.stderr.write(f"gamedp serve: {line}\n")
            sys.stderr.flush()


_said = _Once()
#: per server (its uvicorn state), the connections waiting for a request, the longest waiting first
_waiting: weakref.WeakKeyDictionary[Any, dict[GuardedH11, None]] = weakref.WeakKeyDictionary()


class GuardedH11(H11Protocol):
    """uvicorn's h11 protocol, with the request deadline and the connection cap."""

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._deadline: asyncio.TimerHandle | None = None
        self._waiting = _waiting.setdefault(self.server_state, {})
        most = most_connections()
        if len(self.connections) > most:
            if not self._waiting:
                _said.say(f"more than {most} connections at once, each with a request under way; closing new "
                          "ones as they come until some end")
                transport.abort()
                return
            _said.say(f"more than {most} connections at once; closing those that have waited longest for a "
                      "request")
            oldest = next(iter(self._waiting))
            del self._waiting[oldest]
            oldest.transport.abort()
        self._await_request()

    def data_received(self, data: bytes) -> None:
        cycle = self.cycle
        super().data_received(data)
        if self.cycle is not cycle and self._deadline is not None:  # a whole request came: the app has it now
            self._deadline.cancel()
            self._deadline = None
            self._waiting.pop(self, None)

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._await_request()

    def connection_lost(self, exc: Exception | None) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
        self._waiting.pop(self, None)
        super().connection_lost(exc)

    def _await_request(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
        self._deadline = self.loop.call_later(REQUEST_TIMEOUT, self._too_slow)
        self._waiting.pop(self, None)  # to the end: it waits from now
        self._waiting[self] = None

    def _too_slow(self) -> None:
        self._deadline = None
        if not self.transport.is_closing():
            self.transport.abort()


def _quiet_accept_errors(loop: asyncio.AbstractEventLoop) -> None:
    """Have ``loop`` say a failed accept (out of file descriptors) once, not with a traceback each
    time (asyncio's default); anything else as asyncio would."""
    if getattr(loop, "_gamedp_quiet", False):
        return
    loop._gamedp_quiet = True  # type: ignore[attr-defined]

    def handle(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        if str(context.get("message", "")).startswith("socket.accept() out of system resource"):
            error = context.get("exception")
            _said.say(f"cannot accept connections: {getattr(error, 'strerror', None) or error}; refusing them "
                      "until some end (raise `ulimit -n` for more)")
        else:
            loop.default_exception_handler(context)

    loop.set_exception_handler(handle)


#: Connections waiting to be accepted, and so the most accepted in one go: uvicorn's 2048 ran out of descriptors
#: in one burst under a low limit (what runs out now is said once, and retried a second later).
BACKLOG = 128


def config(app: Any, **options: Any) -> uvicorn.Config:
    """A uvicorn configuration of ``app`` served with :class:`GuardedH11`."""
    return uvicorn.Config(app, http=GuardedH11, log_level="warning", backlog=BACKLOG, **options)


class Server(uvicorn.Server):
    """uvicorn's server, whose event loop says a failed accept once (see :func:`_quiet_accept_errors`)."""

    async def startup(self, sockets: list | None = None) -> None:
        _quiet_accept_errors(asyncio.get_running_loop())
        await super().startup(sockets)
