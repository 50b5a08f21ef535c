"""The web board's HTTP API (gamedp serve): records as `analyze --json` gives them, and every kind of bad input
answered with a JSON error and a 4xx status while the server stays up."""

from __future__ import annotations

import io
import json
import signal
import subprocess
import sys
import threading
import time
from contextlib import redirect_stdout
from pathlib import Path

import pytest

pytest.importorskip("starlette")
from starlette.testclient import TestClient  # noqa: E402

from gamedp.web.app import MAX_BODY, MAX_TEXT, builtin_games, create_app  # noqa: E402

EXAMPLE = str(Path(__file__).resolve().parent.parent / "examples" / "my_game.py")
GAMES = ["tictactoe", "nim", "cards", "grid", "wythoff", "domineering", "connect4:4x3:3", EXAMPLE]

BAD_GAMES = '''
import os, time
from gamedp import Game

class Chain(Game):
    """0 -> 1 -> ... -> 5; what happens at 2 is the subclass's."""
    def start(self): return 0
    def moves(self, n):
        if n == 2:
            self.at_two()
        return [1] if n < 5 else []
    def do_move(self, n, k): return n + k
    def parse_position(self, text): return int(text)

class Raises(Chain):
    def at_two(self): raise ZeroDivisionError("boom at 2")

class Crashes(Chain):
    def at_two(self): os._exit(3)

class Slow(Chain):
    def at_two(self): time.sleep(60)
'''


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(GAMES)) as c:
        yield c


@pytest.fixture(scope="module")
def bad_client(tmp_path_factory):
    path = tmp_path_factory.mktemp("games") / "bad.py"
    path.write_text(BAD_GAMES)
    specs = [f"{path}:{name}" for name in ("Raises", "Crashes", "Slow")]
    with TestClient(create_app(specs + ["tictactoe"], time_limit=3)) as c:
        yield c, specs


def analyze_json(game: str, position: str | None) -> dict:
    from gamedp.cli.main import main

    out = io.StringIO()
    with redirect_stdout(out):
        main(["analyze", "--json", game] + ([position] if position is not None else []))
    return json.loads(out.getvalue())


def gamesman_part(record: dict) -> dict:
    """The record without the fields added for drawing: what `analyze --json` prints."""
    drawn = {k: v for k, v in record.items() if k not in ("game", "board", "text")}
    drawn["moves"] = [{k: v for k, v in m.items() if k != "cells"} for m in record["moves"]]
    return drawn


def test_games_lists_the_builtins_and_the_command_line_game():
    with TestClient(create_app(["tictactoe"] + builtin_games(), start=("tictactoe", "X........"))) as c:
        listing = c.get("/api/games").json()
    assert listing["games"][0] == "tictactoe" and "blockgame" in listing["games"] and "connect4:4x4" in listing["games"]
    assert len(listing["games"]) == len(set(listing["games"]))
    assert listing["start"] == {"game": "tictactoe", "position": "X........"}


@pytest.mark.parametrize("game, position", [
    ("tictactoe", None), ("tictactoe", "XX.OO...."), ("nim", "1 2 3"), ("cards", "3 1 4 1 5"),
    ("grid", None), ("wythoff", "3 5"), ("domineering", None), ("connect4:4x3:3", "21"), (EXAMPLE, "TT.F.F:F"),
])
def test_position_is_what_analyze_json_prints(client, game, position):
    params = {"game": game} | ({"position": position} if position is not None else {})
    response = client.get("/api/position", params=params)
    assert response.status_code == 200, response.text
    record = response.json()
    assert gamesman_part(record) == analyze_json(game, position)
    assert record["text"] and (record["board"] is None or record["board"].startswith("<svg"))


def test_every_move_leads_to_the_position_its_record_names(client):
    start = client.get("/api/position", params={"game": "tictactoe", "position": "XO.X.O..."}).json()
    for move in start["moves"]:
        child = client.get("/api/move", params={"game": "tictactoe", "position": start["position"],
                                                "move": move["moveName"]}).json()
        assert child["position"] == move["position"]
        assert (child["positionValue"], child["remoteness"]) == (move["positionValue"], move["remoteness"])


def test_clickable_cells_of_each_move_are_drawn_on_the_board(client):
    for game in ("tictactoe", "nim", "grid", "domineering", "connect4:4x3:3", "cards", "wythoff", EXAMPLE):
        record = client.get("/api/position", params={"game": game}).json()
        cells = {m for move in record["moves"] for m in move["cells"]}
        assert cells, game
        assert all(f'data-cell="{c}"' in record["board"] for c in cells), game


def test_the_users_drawing_hook_draws_the_example(client):
    record = client.get("/api/position", params={"game": EXAMPLE, "position": "TT.F.F:F"}).json()
    assert 'aria-label="Toads and Frogs' in record["board"]
    assert {m["moveName"]: m["cells"] for m in record["moves"]} == {"4": ["s4"], "6": ["s6"]}


@pytest.mark.parametrize("path, params, status, words", [
    ("/api/position", {"game": "chess"}, 404, "unknown game 'chess'"),
    ("/api/position", {"game": "gamedp.games.tictactoe:TicTacToe"}, 404, "unknown game"),
    ("/api/position", {"game": "examples/my_game.py"}, 404, "unknown game"),
    ("/api/position", {}, 400, "missing 'game'"),
    ("/api/position", {"game": "tictactoe", "position": "XXXX"}, 400, "9 cells of X, O"),
    ("/api/position", {"game": "tictactoe", "position": "XXX......"}, 400, "cannot happen"),
    ("/api/move", {"game": "tictactoe", "position": "........."}, 400, "missing 'move'"),
    ("/api/move", {"game": "tictactoe", "position": "X........", "move": "1"}, 400, "not a legal move here"),
    ("/api/move", {"game": "tictactoe", "position": "XXXOO....", "move": "6"}, 400, "legal moves: none"),
    ("/api/move", {"game": "nim", "position": "3", "move": "take all"}, 400, "not a legal move"),
    ("/api/position", {"game": "tictactoe", "position": "." * (MAX_TEXT + 1)}, 413, "at most"),
    ("/nowhere", {}, 404, "no such page"),
])
def test_bad_requests_get_a_json_error(client, path, params, status, words):
    response = client.get(path, params=params)
    assert response.status_code == status
    assert words in response.json()["error"]
    assert client.get("/api/position", params={"game": "tictactoe"}).status_code == 200  # still up


def test_oversized_and_wrong_method_requests(client):
    response = client.post("/api/position", content=b"x" * (MAX_BODY + 1))
    assert response.status_code == 413 and "too large" in response.json()["error"]
    response = client.post("/api/position", content=b"{}")
    assert response.status_code == 405 and "use GET" in response.json()["error"]
    response = client.get("/api/position", params={"game": "tictactoe", "x": "y" * 4 * MAX_TEXT})
    assert response.status_code == 413


def test_the_page_and_its_assets_are_served_without_any_network(client):
    page = client.get("/").text
    assert "/static/app.js" in page and "http" not in page.replace("http-equiv", "")
    for asset in ("app.js", "style.css"):
        response = client.get(f"/static/{asset}")
        assert response.status_code == 200 and "http://" not in response.text.replace("http://www.w3.org", "")


def test_a_game_that_raises_is_a_422_and_the_server_stays_up(bad_client):
    client, (raises, crashes, slow) = bad_client
    response = client.get("/api/position", params={"game": raises, "position": "2"})
    assert response.status_code == 422
    assert response.json()["error"] == "the game's own code failed: ZeroDivisionError: boom at 2"
    assert client.get("/api/position", params={"game": raises, "position": "3"}).json()["remoteness"] == 2


def test_a_game_that_kills_its_worker_gets_a_fresh_one(bad_client):
    client, (raises, crashes, slow) = bad_client
    response = client.get("/api/position", params={"game": crashes, "position": "1"})
    assert response.status_code == 422 and "stopped unexpectedly" in response.json()["error"]
    assert client.get("/api/position", params={"game": crashes, "position": "4"}).status_code == 200


def test_a_long_solve_is_stopped_at_the_time_limit_and_blocks_no_one(bad_client):
    client, (raises, crashes, slow) = bad_client
    client.get("/api/position", params={"game": "tictactoe"})  # its worker is up
    slow_answer = {}

    def ask_slow():
        slow_answer["response"] = client.get("/api/position", params={"game": slow, "position": "1"})
        slow_answer["at"] = time.monotonic()

    began = time.monotonic()
    thread = threading.Thread(target=ask_slow)
    thread.start()
    time.sleep(0.5)
    fast = client.get("/api/move", params={"game": "tictactoe", "position": ".........", "move": "5"})
    fast_at = time.monotonic()
    thread.join(30)
    assert fast.status_code == 200 and fast_at < slow_answer["at"]
    response = slow_answer["response"]
    assert response.status_code == 503 and "time limit (3 s)" in response.json()["error"]
    assert slow_answer["at"] - began < 15
    assert client.get("/api/position", params={"game": slow, "position": "3"}).status_code == 200


def test_fifty_clients_play_at_once_without_an_error(client):
    """A bounded load test: 50 clients each play a whole game of tic-tac-toe (perfect play) at the same time."""
    errors: list[str] = []
    ends: list[str] = []

    def play_one(seed: int):
        record = client.get("/api/position", params={"game": "tictactoe"}).json()
        moves = 0
        while record.get("moves"):
            move = record["moves"][(seed + moves) % len(record["moves"])] if moves == 0 else record["moves"][0]
            response = client.get("/api/move", params={"game": "tictactoe", "position": record["position"],
                                                       "move": move["moveName"]})
            if response.status_code != 200:
                errors.append(response.text)
                return
            record, moves = response.json(), moves + 1
        ends.append(record["positionValue"])

    threads = [threading.Thread(target=play_one, args=(i,)) for i in range(50)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert errors == [] and len(ends) == 50
    assert set(ends) == {"tie"}  # perfect play after any first move ends level


def test_serve_command_errors_are_one_line(tmp_path):
    def run(*args):
        return subprocess.run([sys.executable, "-m", "gamedp", "serve", *args], capture_output=True, text=True,
                              timeout=60)

    done = run("no-such-game")
    assert done.returncode == 2 and done.stderr.startswith("gamedp: error: unknown game 'no-such-game'")
    done = run("tictactoe", "XXXX")
    assert done.returncode == 2 and "9 cells of X, O" in done.stderr and "Traceback" not in done.stderr
    done = run("--host", "no.such.host.invalid")
    assert done.returncode == 2 and "--host 'no.such.host.invalid'" in done.stderr
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        done = run("--port", str(taken.getsockname()[1]))
    assert done.returncode == 2 and "Address already in use; pick another --port" in done.stderr


def test_help_does_not_import_the_web_stack():
    code = ("import sys\nfrom gamedp.cli.main import main\ntry:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('starlette', 'uvicorn', 'anyio')))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.stdout.strip().splitlines()[-1] == "[]"


def test_serve_prints_its_url_and_serves_the_game_named():
    import urllib.request

    server = subprocess.Popen([sys.executable, "-m", "gamedp", "serve", "tictactoe", "X........"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = server.stdout.readline()
        url = line.split()[3]
        assert url.startswith("http://127.0.0.1:") and url.endswith("/")
        listing = json.loads(urllib.request.urlopen(url + "api/games", timeout=30).read())
        assert listing["start"] == {"game": "tictactoe", "position": "X........"}
        record = json.loads(urllib.request.urlopen(url + "api/position?game=tictactoe&position=X........",
                                                   timeout=60).read())
        assert record["position"] == "X........" and record["positionValue"] == "tie"
    finally:
        server.send_signal(signal.SIGINT)  # Ctrl-C
        assert server.wait(30) in (0, 130)
    assert "Traceback" not in server.stderr.read()
