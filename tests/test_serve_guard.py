"""gamedp serve under slow and many clients: idle and partial requests are timed out, connections past a cap are
closed at once (said once, not a traceback each), and the server answers again when the flood is gone."""

from __future__ import annotations

import asyncio
import resource
import socket
import subprocess
import sys
import threading
import time

import pytest

from gamedp.web import guard

TIMEOUT = 1.0


async def hello(scope, receive, send):
    if scope["type"] != "http":
        return
    if scope["path"] == "/slow":  # a request under way for a while
        await asyncio.sleep(2)
    await send({"type": "http.response.start", "status": 200, "headers": [(b"content-length", b"2")]})
    await send({"type": "http.response.body", "body": b"hi"})


@pytest.fixture
def server(monkeypatch, capfd):
    """A guarded uvicorn server of a tiny app in a thread: its port."""
    monkeypatch.setattr(guard, "REQUEST_TIMEOUT", TIMEOUT)
    monkeypatch.setattr(guard, "most_connections", lambda: 5)
    monkeypatch.setattr(guard, "_said", guard._Once())
    listener = socket.create_server(("127.0.0.1", 0))
    srv = guard.Server(guard.config(hello))
    thread = threading.Thread(target=srv.run, kwargs={"sockets": [listener]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not srv.started:
        assert time.monotonic() < deadline
        time.sleep(0.01)
    yield listener.getsockname()[1]
    srv.should_exit = True
    thread.join(10)


def closed_within(conn: socket.socket, seconds: float) -> bool:
    """Whether the server closes ``conn`` within ``seconds`` (reading what it sends meanwhile)."""
    conn.settimeout(seconds)
    try:
        while conn.recv(4096):
            pass
        return True
    except TimeoutError:
        return False
    except ConnectionResetError:
        return True


def get(port: int) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=5) as conn:
        conn.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        data = b""
        while chunk := conn.recv(4096):
            data += chunk
        return data


def test_a_whole_request_is_answered(server):
    assert get(server).endswith(b"hi")


def test_a_connection_that_says_nothing_is_closed(server):
    with socket.create_connection(("127.0.0.1", server)) as conn:
        assert closed_within(conn, TIMEOUT + 2)


def test_a_request_that_never_ends_is_closed_though_it_trickles(server):
    with socket.create_connection(("127.0.0.1", server)) as conn:
        conn.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
        clock = time.monotonic()
        closed = False
        while time.monotonic() - clock < TIMEOUT + 2 and not closed:
            try:
                conn.sendall(b"X-a: b\r\n")  # a header now and then: each would reset an idle timer
            except (BrokenPipeError, ConnectionResetError):
                closed = True
                break
            closed = closed_within(conn, 0.2)
        assert closed


def test_past_the_cap_the_connections_waiting_longest_are_closed_and_said_once(server, capfd):
    held = [socket.create_connection(("127.0.0.1", server)) for _ in range(5)]
    time.sleep(0.1)
    extra = [socket.create_connection(("127.0.0.1", server)) for _ in range(5)]
    assert [closed_within(conn, 0.5) for conn in held] == [True] * 5
    assert [closed_within(conn, 0.1) for conn in extra] == [False] * 5
    assert get(server).endswith(b"hi")  # it closes the first of the extra ones
    for conn in held + extra:
        conn.close()
    err = capfd.readouterr().err
    assert err.count("gamedp serve: ") == 1 and "Traceback" not in err


def test_while_every_connection_has_a_request_under_way_new_ones_are_closed(server):
    busy = [socket.create_connection(("127.0.0.1", server)) for _ in range(5)]
    for conn in busy:
        conn.sendall(b"GET /slow HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    time.sleep(0.3)
    with socket.create_connection(("127.0.0.1", server)) as extra:
        assert closed_within(extra, 0.5)
    assert [closed_within(conn, 5) for conn in busy] == [True] * 5  # each answered, then closed
    for conn in busy:
        conn.close()


def test_one_client_holding_every_connection_half_open_starves_no_one(server):
    """Slow-loris: half-sent requests on every connection, the next opened as soon as one closes. Refusing the new
    connections answered none of the others' requests; closing the one that waited longest answers them all."""
    flood: list[socket.socket] = []
    stop = threading.Event()

    def hold() -> None:
        while not stop.is_set():
            for conn in [c for c in flood if closed_within(c, 0.001)]:
                flood.remove(conn)
                conn.close()
            while len(flood) < 8:
                conn = socket.create_connection(("127.0.0.1", server))
                conn.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
                flood.append(conn)
            time.sleep(0.01)

    holder = threading.Thread(target=hold, daemon=True)
    holder.start()
    try:
        time.sleep(0.3)
        answered = 0
        for _ in range(10):
            try:
                answered += get(server).endswith(b"hi")
            except OSError:
                pass
            time.sleep(0.05)
    finally:
        stop.set()
        holder.join(5)
        for conn in flood:
            conn.close()
    assert answered == 10


def test_a_flood_under_a_low_open_files_limit_is_survived_quietly(tmp_path):
    """The real command under ulimit -n 128, 400 connections that say nothing: no flood of tracebacks, and it
    answers again once they are gone."""
    import test_web_api

    def low_limit() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (128, 128))

    server = subprocess.Popen([sys.executable, "-m", "gamedp", "serve", "tictactoe"], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True, preexec_fn=low_limit)
    try:
        url = server.stdout.readline().split()[3]
        port = int(url.rsplit(":", 1)[1].strip("/"))
        flood = []
        for _ in range(400):
            try:
                flood.append(socket.create_connection(("127.0.0.1", port), timeout=2))
            except OSError:
                break
        time.sleep(1.5)
        for conn in flood:
            conn.close()
        time.sleep(0.5)
        assert test_web_api.served(url, "api/games")["games"]
    finally:
        err = test_web_api.stop_server(server)
    assert "Traceback" not in err and len([line for line in err.splitlines() if line]) <= 2, err[-2000:]
