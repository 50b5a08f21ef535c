"""The web board's values as they are proved (gamedp serve): the board and its moves at once, each move's value as
its search finds it, and a search no one watches any more stopped. The real server on a loopback port."""

from __future__ import annotations

import http.client
import json
import threading
import time
import urllib.parse
import urllib.request
from multiprocessing.connection import wait
from pathlib import Path

import pytest
import uvicorn

from gamedp.cli.serve import listen
from gamedp.web.app import create_app

#: a 7x6 position whose moves take about a second each to value (seconds in all), and one searched in minutes
#: (five stones off the lines of the opening book gamedp ships)
SECONDS = "4444443"
MINUTES = "12121"
SLOW_GAME = '''
import time
from gamedp import Game

class Slow(Game):
    """0 -> 1 -> ... -> 5; valuing 2's moves takes a minute (a search in Python, which nothing stops)."""
    def start(self): return 0
    def moves(self, n):
        if n == 2:
            time.sleep(60)
        return [1] if n < 5 else []
    def do_move(self, n, k): return n + k
    def parse_position(self, text): return int(text)
'''


@pytest.fixture(scope="module")
def slow_game(tmp_path_factory) -> str:
    path = tmp_path_factory.mktemp("games") / "slow.py"
    path.write_text(SLOW_GAME)
    return f"{path}:Slow"


@pytest.fixture(scope="module")
def server(slow_game):
    """The real server (connect4 7x6, tic-tac-toe, the slow game) on a loopback port: yields its address and its
    app."""
    app = create_app(["connect4", "tictactoe", slow_game], time_limit=60)
    socket = listen("127.0.0.1", 0)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [socket]}, daemon=True)
    thread.start()
    host, port = socket.getsockname()[:2]
    yield (host, port), app
    server.should_exit = True
    thread.join(20)


def get(address, path: str, **params) -> dict:
    query = urllib.parse.urlencode(params)
    with urllib.request.urlopen(f"http://{address[0]}:{address[1]}{path}?{query}", timeout=120) as response:
        return json.loads(response.read())


class Events:
    """A stream of server-sent events from ``/api/values``: each (seconds since it was opened, event, data)."""

    def __init__(self, address, **params):
        self.connection = http.client.HTTPConnection(*address, timeout=120)
        self.opened = time.monotonic()
        self.connection.request("GET", "/api/values?" + urllib.parse.urlencode(params))
        self.response = self.connection.getresponse()
        assert self.response.status == 200 and self.response.headers["content-type"].startswith("text/event-stream")

    def __iter__(self):
        kind = None
        for raw in self.response:
            line = raw.decode().rstrip("\n")
            if line.startswith("event: "):
                kind = line[len("event: "):]
            elif line.startswith("data: "):
                yield time.monotonic() - self.opened, kind, json.loads(line[len("data: "):])

    def close(self) -> None:
        self.connection.close()


def worker_of(app, game: str):
    return app.state.games._workers[game]._process


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / 100  # utime, stime in clock ticks


def searching(pid: int, seconds: float) -> bool:
    """Whether process ``pid`` used the processor in the next ``seconds``: a search has at least a share of a core,
    even on a loaded machine (0.5 s in 2 s at a load of 8 on 2 cores); an idle worker none."""
    before = cpu_seconds(pid)
    time.sleep(seconds)
    return cpu_seconds(pid) - before > 0.025 * seconds


def stops_searching(pid: int, what: str) -> None:
    """Wait (15 s at most) until process ``pid`` searches no more."""
    deadline = time.monotonic() + 15
    while searching(pid, 2):
        assert time.monotonic() < deadline, f"the search went on {what}"


def test_each_moves_value_and_then_the_record_as_the_position_request_gives_it(server):
    address, app = server
    events = list(Events(address, game="tictactoe", position="X...O...."))
    record = get(address, "/api/position", game="tictactoe", position="X...O....")
    assert [kind for _, kind, _ in events] == ["move"] * 7 + ["done"] and events[-1][2] == record
    entries = {m["moveName"]: m for m in record["moves"]}
    assert [entry["moveName"] for _, _, entry in events[:-1]] == ["2", "3", "4", "6", "7", "8", "9"]  # as found
    for _, _, entry in events[:-1]:
        assert entry == {k: v for k, v in entries[entry["moveName"]].items() if k not in ("deltaRemoteness", "cells")}
    board = get(address, "/api/board", game="tictactoe", position="X...O....", move="9")
    assert board["position"] == "X...O...X" and "positionValue" not in board


@pytest.mark.slow
def test_the_board_comes_at_once_and_each_moves_value_as_it_is_proved(server):
    address, app = server
    board = get(address, "/api/board", game="connect4", position=SECONDS)
    names = [m["moveName"] for m in board["moves"]]
    assert names == ["1", "2", "3", "5", "6", "7"] and board["board"].startswith("<svg")
    assert "positionValue" not in board and all(set(m) == {"move", "moveName", "position", "cells"}
                                                for m in board["moves"])
    stream = Events(address, game="connect4", position=SECONDS)
    events, played = [], None
    for at, kind, data in stream:
        events.append((at, kind, data))
        if played is None:  # the position is still playable meanwhile: another board answers at once
            child = get(address, "/api/board", game="connect4", position=SECONDS, move="1")
            played = time.monotonic() - stream.opened
            assert child["position"] == board["moves"][0]["position"]
    stream.close()
    kinds = [kind for _, kind, _ in events]
    assert kinds == ["move"] * len(names) + ["done"], kinds
    done_at, record = events[-1][0], events[-1][2]
    assert played < done_at and events[0][0] < done_at - 0.5  # values came in while the search went on
    assert record == get(address, "/api/position", game="connect4", position=SECONDS)
    entries = {m["moveName"]: m for m in record["moves"]}
    for _, _, entry in events[:-1]:
        whole = entries[entry["moveName"]]
        assert entry == {k: v for k, v in whole.items() if k not in ("deltaRemoteness", "cells")}


@pytest.mark.slow
def test_a_search_left_behind_is_stopped_and_the_next_one_has_the_cores(server):
    """The page closed (its stream with it): the worker's search stops within a second or two, the worker and the
    table it filled are kept; a request for another position's values stops the search under way too."""
    address, app = server
    get(address, "/api/board", game="connect4")  # the worker is up
    stream = Events(address, game="connect4", position=MINUTES)
    worker = worker_of(app, "connect4")
    assert searching(worker.pid, 2)
    stream.close()
    stops_searching(worker.pid, "with no one watching")
    assert worker.is_alive() and worker_of(app, "connect4") is worker

    first = Events(address, game="connect4", position=MINUTES)
    time.sleep(1)
    second = Events(address, game="connect4", position="44444455")
    try:
        kinds = [kind for _, kind, _ in first]  # a move or two may be in (the table has the first search's work)
        assert kinds[-1] == "stopped" and set(kinds[:-1]) <= {"move"}, kinds
        assert [kind for _, kind, _ in second][-1] == "done"
    finally:
        first.close()
        second.close()
    assert worker_of(app, "connect4") is worker


@pytest.mark.slow
def test_a_search_in_python_left_behind_ends_its_worker(server, slow_game):
    address, app = server
    stream = Events(address, game=slow_game, position="1")
    time.sleep(1)
    game = app.state.games._workers[slow_game]
    worker = game._process
    assert worker.is_alive() and list(game._streams) != []  # its search is under way
    stream.close()
    # Its end seen on its sentinel: the server reaps it in close(), and a join here racing that one can miss it.
    assert wait([worker.sentinel], 30), f"the worker went on: {list(game._streams)}"
    record = get(address, "/api/position", game=slow_game, position="3")  # a fresh worker
    assert (record["positionValue"], record["remoteness"]) == ("lose", 2)
