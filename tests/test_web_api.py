"""The web board's HTTP API (gamedp serve): records as `analyze --json` gives them, and every kind of bad input
answered with a JSON error and a 4xx status while the server stays up."""

from __future__ import annotations

import io
import json
import shutil
import signal
import subprocess
import sys
import threading
import time
from contextlib import redirect_stdout
from pathlib import Path

import pytest
from command import gamedp
from starlette.testclient import TestClient

from gamedp.web.app import MAX_BODY, MAX_TEXT, builtin_games, create_app

EXAMPLE = str(Path(__file__).resolve().parent.parent / "examples" / "my_game.py")
#: a 7x6 position past the opening book gamedp ships, where a search 2 moves deep proves none of the moves
ESTIMATED = "12345"
GAMES = ["tictactoe", "nim", "cards", "grid", "wythoff", "domineering", "connect4:4x3:3", EXAMPLE, "toads-and-frogs"]

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
    ("toads-and-frogs", "T.TFF"),
])
def test_position_is_what_analyze_json_prints(client, game, position):
    params = {"game": game} | ({"position": position} if position is not None else {})
    response = client.get("/api/position", params=params)
    assert response.status_code == 200, response.text
    record = response.json()
    assert gamesman_part(record) == analyze_json(game, position)
    assert record["game"] == game  # as /api/games lists it (a file's game by its file, not by its own name)
    assert record["text"] and (record["board"] is None or record["board"].startswith("<svg"))


def test_a_partizan_position_carries_its_value_and_who_is_left(client):
    from gamedp.cgt.values import parse

    record = client.get("/api/position", params={"game": "toads-and-frogs", "position": "TF.TF"}).json()
    assert (record["partizanValue"], record["partizanLeft"]) == ("0", "Toads")  # Winning Ways: TF.TF = 0
    record = client.get("/api/position", params={"game": "toads-and-frogs", "position": "T.TFF"}).json()
    assert parse(record["partizanValue"]) == parse("{0|*}")  # T.TFF = ↑
    record = client.get("/api/position", params={"game": "nim", "position": "1 2"}).json()
    assert "partizanValue" not in record and "partizanLeft" not in record  # impartial: its nimber says it


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


def test_an_idle_worker_ends_and_gives_its_memory_back(monkeypatch):
    """A worker kept its finished search's tables for as long as the server ran (one idle worker held 813 MB); now
    it ends after IDLE_SECONDS without a request, and the next request starts a fresh one."""
    from gamedp.web import worker

    monkeypatch.setattr(worker, "IDLE_SECONDS", 1.0)
    game = worker.GameWorker("tictactoe", time_limit=60)
    try:
        assert game.ask({"position": "XX.OO....", "move": None})["positionValue"] == "win"
        first = game._process
        time.sleep(0.5)
        game.ask({"position": None, "move": None})  # a request puts the end off
        assert first.is_alive()
        deadline = time.monotonic() + 10
        while first.is_alive() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not first.is_alive() and game._process is None
        assert game.ask({"position": "XX.OO....", "move": None})["positionValue"] == "win"
        assert game._process is not first and game._process.is_alive()
    finally:
        game.close()


@pytest.mark.slow
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
        return gamedp("serve", *args, timeout=60)

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


# -- saved solves and --depth ----------------------------------------------------------------------------------
def served(url: str, path: str, **params: str) -> dict:
    import urllib.error
    import urllib.parse
    import urllib.request

    try:
        return json.loads(urllib.request.urlopen(f"{url}{path}?{urllib.parse.urlencode(params)}", timeout=60).read())
    except urllib.error.HTTPError as e:
        return {"status": e.code, **json.loads(e.read())}


def start_server(*args: str, env: dict | None = None) -> tuple[subprocess.Popen, str]:
    server = subprocess.Popen([sys.executable, "-m", "gamedp", "serve", *args], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True, env=env)
    line = server.stdout.readline()
    assert line.startswith("gamedp board at "), server.stderr.read()
    return server, line.split()[3]


def stop_server(server: subprocess.Popen) -> str:
    server.send_signal(signal.SIGINT)
    assert server.wait(30) in (0, 130)
    return server.stderr.read()


@pytest.mark.slow
def test_the_board_answers_from_the_save_where_it_holds_the_position(tmp_path):
    """The real server on a loopback port, nim's save restated (remoteness 40: no search says that), once in the
    default place (every game served reads its own) and once named by --db."""
    import os

    from test_play import saved_nim

    path = saved_nim(tmp_path, "2", "3")
    env = {**os.environ, "GAMEDP_DB_DIR": str(tmp_path)}
    for args in (["nim", "2 3"], ["tictactoe"], ["nim", "--db", str(path)]):  # nim as GAME, as a built-in
        server, url = start_server(*args, env=env)
        try:
            record = served(url, "api/position", game="nim", position="2 3")
            assert (record["positionValue"], record["remoteness"]) == ("win", 40), record
            assert {(m["moveValue"], m["remoteness"]) for m in record["moves"]} == {("win", 40), ("lose", 40)}
            child = served(url, "api/move", game="nim", position="2 3", move=record["moves"][0]["moveName"])
            assert child["position"] == "2 2" and child["remoteness"] == 40
            searched = served(url, "api/position", game="nim", position="3 3")  # not in the save: searched
            if "--db" in args:  # the file alone answers
                assert searched["status"] == 400 and "'3 3' is not in the saved solve" in searched["error"]
            else:
                assert (searched["positionValue"], searched["remoteness"]) == ("lose", 6)
        finally:
            assert "Traceback" not in stop_server(server)


@pytest.mark.slow
def test_serve_refuses_a_damaged_or_foreign_save_at_start_up(tmp_path):
    from test_database import one_clear_error
    from test_play import saved_nim

    path = saved_nim(tmp_path, "2", "3")
    foreign = tmp_path / "misere.gdb"
    assert gamedp("solve", "misere-nim", "2 3", "--db", str(foreign), db_dir=tmp_path).returncode == 0
    one_clear_error(gamedp("serve", "nim", "--db", str(foreign), db_dir=tmp_path),
                    "is the saved solve of misere-nim")
    one_clear_error(gamedp("serve", "nim", "--db", str(tmp_path / "none.gdb"), db_dir=tmp_path),
                    "no saved solve of nim", "gamedp solve nim --db")
    one_clear_error(gamedp("serve", "--db", str(path), db_dir=tmp_path), "--db is for the game named")
    one_clear_error(gamedp("serve", "cards", "--depth", "3", db_dir=tmp_path), "win/lose/tie games")


def test_serve_depth_shows_estimates_where_the_search_proves_nothing():
    """Connect-4 7x6 past its opening book, a search 2 moves deep: every move an estimate, as analyze --depth sees
    it."""
    from gamedp.cli.main import main

    with TestClient(create_app(["connect4"], options={"connect4": {"depth": 2}})) as c:
        record = c.get("/api/position", params={"game": "connect4", "position": ESTIMATED}).json()
        assert record["depth"] == 2 and record["positionValue"] is None and record["remoteness"] == -100
        out = io.StringIO()
        with redirect_stdout(out):
            main(["analyze", "connect4", ESTIMATED, "--depth", "2", "--json"])
        judged = json.loads(out.getvalue())
        assert [(m["moveName"], m["moveValue"], m["moveEstimate"]) for m in record["moves"]] == \
            [(m["move"], m["value"], m["estimate"]) for m in judged["moves"]]
        assert record["estimate"] == judged["moves"][0]["estimate"]
        assert all(m["cells"] for m in record["moves"]) and record["board"].startswith("<svg")
        child = c.get("/api/move", params={"game": "connect4", "move": record["moves"][0]["moveName"],
                                            "position": record["position"]}).json()
        assert child["position"] == record["moves"][0]["position"] and child["depth"] == 2


def test_serve_depth_deep_enough_is_exact_as_the_full_analysis():
    """Tic-tac-toe searched 9 deep reaches every end: values (not remoteness of ties) as analyze --json gives."""
    with TestClient(create_app(["tictactoe"], options={"tictactoe": {"depth": 9}})) as c:
        for position in ("XX.OO....", "X...O....", "XO.X.O..."):
            record = c.get("/api/position", params={"game": "tictactoe", "position": position}).json()
            exact = analyze_json("tictactoe", position)
            assert record["positionValue"] == exact["positionValue"] and record["estimate"] is None
            assert sorted((m["moveName"], m["moveValue"]) for m in record["moves"]) == \
                sorted((m["moveName"], m["moveValue"]) for m in exact["moves"])
            assert all(m["moveEstimate"] is None for m in record["moves"])


def test_a_search_too_big_is_refused_with_the_way_serve_offers():
    with TestClient(create_app(["wythoff"])) as c:
        response = c.get("/api/position", params={"game": "wythoff", "position": "100000 100000"})
    assert response.status_code == 400
    assert "gamedp serve wythoff --depth D serves it by a search D moves deep" in response.json()["error"]
    assert "analyze" not in response.json()["error"] and "play" not in response.json()["error"]


# The page's own script run by node on a stand-in for the few DOM calls it makes: each record drawn, then what
# the status line, the mode menu, the move list and the chart show.
PAGE_HARNESS = r"""
const fs = require("fs"), vm = require("vm");
const [script, recordsFile] = process.argv.slice(2);
class El {
  constructor() { this.children = []; this.dataset = {}; this.style = {}; this.textContent = ""; this.html = "";
    this.options = [{}, {}]; this.classList = { toggle() {} }; this.value = "human-first"; this.checked = true; }
  set innerHTML(html) { this.html = html; this.children = []; }
  get innerHTML() { return this.html; }
  append(...items) { this.children.push(...items); }
  appendChild(item) { this.children.push(item); }
  addEventListener() {}
  querySelectorAll() { return []; }
  setAttribute() {}
}
const text = (el) => typeof el === "string" ? el : el.textContent + el.children.map(text).join("");
const elements = {};
const document = { body: new El(), createElement: () => new El(),
  getElementById: (id) => (elements[id] = elements[id] || new El()) };
const context = vm.createContext({ document, fetch: () => new Promise(() => {}), setTimeout, URLSearchParams });
vm.runInContext(fs.readFileSync(script, "utf8"), context);
const shown = [];
for (const record of JSON.parse(fs.readFileSync(recordsFile, "utf8"))) {
  context.record = record;
  vm.runInContext("state.history = [record]; state.index = 0; render();", context);
  shown.push({ status: elements.status.textContent, value: elements.status.dataset.value,
    mode: elements.mode.options.map((o) => o.textContent),
    moves: elements.moves.children.map((b) => ({ text: text(b), value: b.dataset.value, color: b.dataset.color })),
    chart: elements.chart.innerHTML });
}
console.log(JSON.stringify(shown));
"""


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node to run the page's script")
def test_the_page_draws_estimates_and_proven_values(tmp_path):
    from gamedp.solvers.lookahead import SCALE, score_text

    with TestClient(create_app(["connect4", "tictactoe"], options={"connect4": {"depth": 2}})) as c:
        records = [c.get("/api/position", params={"game": "connect4", "position": ESTIMATED}).json(),
                   c.get("/api/position", params={"game": "tictactoe", "position": "XX.OO...."}).json()]
    (tmp_path / "records.json").write_text(json.dumps(records))
    (tmp_path / "harness.js").write_text(PAGE_HARNESS)
    script = Path(__file__).resolve().parents[1] / "gamedp" / "web" / "static" / "app.js"
    done = subprocess.run(["node", str(tmp_path / "harness.js"), str(script), str(tmp_path / "records.json")],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    judged, exact = json.loads(done.stdout)
    def words(estimate: float) -> str:  # as the command line writes it
        return score_text(round(estimate * SCALE))

    assert judged["status"] == f"You to move: {words(records[0]['estimate'])} (a search 2 moves deep)"
    assert judged["value"] == "estimate" and judged["mode"][0] == "against a search 2 moves deep, you first"
    assert [m["text"] for m in judged["moves"]] == \
        [f"{m['moveName']} {words(m['moveEstimate'])}" for m in records[0]["moves"]]
    assert all(m["value"] == "estimate" and m["color"].endswith(", 66%)") for m in judged["moves"])
    assert 'data-value="estimate"' in judged["chart"]
    assert exact["status"] == "You to move: WIN in 1"
    assert exact["mode"][0] == "against the perfect opponent, you first"
    assert exact["moves"][0] == {"text": "3 WIN in 1", "value": "win", "color": "hsl(130, 65%, 27.5%)"}


@pytest.mark.slow
def test_a_foreign_save_in_the_default_place_is_one_warning_and_the_game_is_searched(tmp_path):
    import os

    from test_play import saved_nim

    path = saved_nim(tmp_path, "2", "3")
    assert gamedp("solve", "misere-nim", "2 3", "--db", str(tmp_path / "m.gdb"), db_dir=tmp_path).returncode == 0
    path.write_bytes((tmp_path / "m.gdb").read_bytes())
    for args in (["nim"], ["tictactoe"]):  # nim as GAME (checked at start-up), as a built-in (by its worker)
        server, url = start_server(*args, env={**os.environ, "GAMEDP_DB_DIR": str(tmp_path)})
        try:
            record = served(url, "api/position", game="nim", position="2 3")
            assert (record["positionValue"], record["remoteness"]) == ("win", 5)  # searched
        finally:
            errors = stop_server(server)
        assert errors.startswith(f"gamedp: not answering from {path}: ") and errors.count("not answering") == 1
        assert "is the saved solve of misere-nim" in errors
