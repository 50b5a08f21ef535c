"""The web board in a real browser: headless Chromium (Debian's `chromium`, installed by .ci/run) driven by
Playwright. Nothing here downloads a browser: Playwright is pointed at /usr/bin/chromium."""

from __future__ import annotations

import os
import random
import re
import threading
from pathlib import Path

import playwright.sync_api as playwright_api
import pytest
import uvicorn

from gamedp.analysis import Analyst
from gamedp.cli.serve import listen
from gamedp.loader import load_game
from gamedp.web.app import create_app

CHROMIUM = Path("/usr/bin/chromium")
# A developer without the browser may skip these; CI (which .ci/run gives chromium) must run them, so a missing
# browser there fails instead of passing silently.
# A real browser takes seconds to start and to draw: none of these is in the quick loop.
pytestmark = [pytest.mark.skipif(not CHROMIUM.exists() and not os.environ.get("CI"),
                                 reason="needs Debian's chromium at /usr/bin/chromium (apt-get install chromium; "
                                        ".ci/run installs it)"),
              pytest.mark.slow]

GAMES = ["tictactoe", "connect4:4x4", "cram", "nim", "toads-and-frogs"]
BROKEN_GAME = """
from gamedp import Game

class Broken(Game):
    name = "broken"
    def start(self): return 0
    def moves(self, n):
        if n > 2:
            raise KeyError("no moves written yet")
        return [1] if n < 2 else []
    def do_move(self, n, k): return n + k
    def parse_position(self, text): return int(text)
"""
HUE = {"win": 130, "tie": 48, "lose": 0, "draw": 210}
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]


@pytest.fixture(scope="module")
def broken_game(tmp_path_factory) -> str:
    path = tmp_path_factory.mktemp("games") / "broken.py"
    path.write_text(BROKEN_GAME)
    return str(path)


def served(app):
    """The real server on a loopback port, serving ``app``: yields its address, then stops it."""
    socket = listen("127.0.0.1", 0)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [socket]}, daemon=True)
    thread.start()
    host, port = socket.getsockname()[:2]
    yield f"http://{host}:{port}/"
    server.should_exit = True
    thread.join(20)


@pytest.fixture(scope="module")
def server_url(broken_game):
    yield from served(create_app(GAMES + [broken_game], time_limit=60))


@pytest.fixture(scope="module", autouse=True)
def connect4_analyst(server_url):
    """Connect-4 4x4 takes seconds to solve: the server's worker and this test's own analyst (two processes)
    solve it in the background while the other tests run."""
    import urllib.request
    from concurrent.futures import ThreadPoolExecutor

    def solve_here() -> Analyst:
        analyst = Analyst(load_game("connect4:4x4"))
        analyst.analyze(analyst.start())
        return analyst

    def warm_server() -> None:
        urllib.request.urlopen(server_url + "api/position?game=connect4:4x4", timeout=120).read()

    with ThreadPoolExecutor(2) as pool:
        warmed = pool.submit(warm_server)
        yield pool.submit(solve_here)
        warmed.result()


@pytest.fixture(scope="module")
def browser():
    with playwright_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def page(browser, server_url):
    context = browser.new_context(viewport={"width": 1100, "height": 760})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.route(re.compile(r"^(?!http://127\.0\.0\.1).*"), lambda route: route.abort())  # no network but ours
    page.goto(server_url)
    settle(page)
    yield page
    context.close()
    assert errors == []


def settle(page, timeout: float = 60_000) -> None:
    """Wait until no request is in flight, the values are in and the computer is not about to move."""
    page.wait_for_function("document.body.dataset.busy === '0' && document.body.dataset.searching === '0' && "
                           "document.body.dataset.thinking !== '1'", timeout=timeout)


def pick(page, game: str, mode: str = "two") -> None:
    page.select_option("#mode", mode)
    page.select_option("#game", game)
    page.wait_for_function(f"document.querySelector('#game').value === {game!r}")
    settle(page)
    page.wait_for_function("document.querySelector('#moves button') !== null")


def shown_position(page) -> str:
    return page.get_attribute("#board", "data-position")


def check_colours(page, analyst: Analyst) -> None:
    """Every move on the page has the value `analyze` gives it, in its value's colour, on the list and the board."""
    position = analyst.read_position(shown_position(page))
    analysis = analyst.analyze(position)
    expected = {analyst.move_name(position, mv.move): mv.value for mv in analysis.moves}
    buttons = page.eval_on_selector_all("#moves button", "bs => bs.map(b => [b.dataset.move, b.dataset.value, "
                                                         "+b.dataset.remoteness, b.dataset.color])")
    assert {name for name, *_ in buttons} == set(expected)
    for name, value, remoteness, colour in buttons:
        assert (value, remoteness) == (expected[name].outcome.value, expected[name].remoteness)
        hue, lightness = re.fullmatch(r"hsl\((\d+), \d+%, ([\d.]+)%\)", colour).groups()
        assert int(hue) == HUE[value] and float(lightness) == pytest.approx(24 + min(remoteness, 12) * 3.5)
    fills = page.eval_on_selector_all("#board [data-cell]", "els => els.map(e => [e.dataset.cell, "
                                                            "e.getAttribute('fill')])")
    colour_of = {name: colour for name, _, _, colour in buttons}
    for cell, fill in fills:
        if cell in colour_of:  # single-cell moves: the cell is the move
            assert fill == colour_of[cell]


def test_the_page_loads_and_a_game_can_be_picked(page):
    assert page.inner_text("header h1") == "gamedp"
    assert page.eval_on_selector_all("#game option", "os => os.map(o => o.value)")[:len(GAMES)] == GAMES
    assert page.locator("#board svg [data-cell]").count() == 9
    pick(page, "nim")
    assert shown_position(page) == "3 4 5"
    assert page.locator("#board svg circle[data-cell]").count() == 12
    assert "WIN" in page.inner_text("#status")


def test_a_whole_game_of_tictactoe_against_the_perfect_opponent(page):
    analyst = Analyst(load_game("tictactoe"))
    pick(page, "tictactoe", "human-first")
    chooser = random.Random(14)
    moves = 0
    while page.locator("#moves button").count() > 0:
        check_colours(page, analyst)
        cell = chooser.choice(page.eval_on_selector_all("#moves button", "bs => bs.map(b => b.dataset.move)"))
        before = shown_position(page)
        page.click(f"#board [data-cell='{cell}']")
        settle(page)
        page.wait_for_function(f"document.querySelector('#board').dataset.position !== {before!r}")
        settle(page)
        moves += 1
    final = analyst.read_position(shown_position(page))
    assert analyst.analyze(final).moves == ()
    assert page.inner_text("#status").startswith("Game over: ")
    assert "you win" not in page.inner_text("#status")  # the perfect opponent never loses tic-tac-toe
    assert page.locator("#chart circle.point").count() == final.count("X") + final.count("O") + 1


def test_a_whole_game_of_connect_n_clicking_columns(page, connect4_analyst):
    analyst = connect4_analyst.result(timeout=120)
    pick(page, "connect4:4x4", "two")
    plies = 0
    while page.locator("#moves button").count() > 0:
        if plies % 3 == 0:
            check_colours(page, analyst)
        best = page.get_attribute("#moves button", "data-move")
        before = shown_position(page)
        page.click(f"#board rect[data-cell='c{best}']")
        page.wait_for_function(f"document.querySelector('#board').dataset.position !== {before!r}")
        settle(page)
        plies += 1
    end = analyst.read_position(shown_position(page))
    assert analyst.analyze(end).moves == () and analyst.rules.stones(end) == plies
    assert page.inner_text("#status").startswith("Game over: ")


def test_a_domino_of_cram_is_placed_by_clicking_its_two_cells(page):
    pick(page, "cram", "two")
    page.click("#board [data-cell='a1']")
    assert page.locator("#board .cell.selected").count() == 1
    page.click("#board [data-cell='b1']")
    settle(page)
    assert Analyst(load_game("cram")).read_position(shown_position(page)) == 0b11  # a1 and b1 filled
    assert page.input_value("#position-input") == shown_position(page)  # a drawing of several lines
    page.click("#start-here")  # reads back as the same position
    settle(page)
    assert Analyst(load_game("cram")).read_position(shown_position(page)) == 0b11 and page.is_hidden("#message")


def test_undo_and_redo(page):
    pick(page, "tictactoe", "two")
    for cell in ("5", "1"):
        page.click(f"#board [data-cell='{cell}']")
        settle(page)
    assert shown_position(page) == "O...X...."
    page.click("#undo")
    assert shown_position(page) == "....X...."
    page.click("#undo")
    assert shown_position(page) == "........." and page.is_disabled("#undo")
    page.click("#redo")
    page.click("#redo")
    assert shown_position(page) == "O...X...." and page.is_disabled("#redo")
    page.select_option("#mode", "human-first")  # against the computer, undo takes back its reply too
    page.click("#undo")
    assert shown_position(page) == "........."


def test_values_can_be_hidden(page):
    pick(page, "tictactoe", "two")
    page.uncheck("#show-values")
    fills = page.eval_on_selector_all("#board [data-cell]", "els => els.map(e => e.getAttribute('fill'))")
    assert set(fills) == {"#fdfdf8"}
    page.check("#show-values")
    fills = page.eval_on_selector_all("#board [data-cell]", "els => els.map(e => e.getAttribute('fill'))")
    assert all(f.startswith("hsl(48") for f in fills)  # every first move of tic-tac-toe ties


def test_a_partizan_game_shows_its_value(page):
    pick(page, "toads-and-frogs", "two")
    page.fill("#position-input", "T.TFF")
    page.click("#start-here")
    settle(page)
    assert page.inner_text("#partizan") == "Value: ↑ (Left: Toads)"
    page.uncheck("#show-values")
    assert page.is_hidden("#partizan")
    page.check("#show-values")
    assert page.is_visible("#partizan")
    pick(page, "nim", "two")
    assert page.is_hidden("#partizan")


def test_a_typed_position_and_a_bad_one(page):
    pick(page, "tictactoe", "two")
    page.fill("#position-input", "XXXX")
    page.click("#start-here")
    settle(page)
    assert page.is_visible("#message")
    assert "9 cells of X, O or '.'" in page.inner_text("#message")
    assert shown_position(page) == "........."
    page.fill("#position-input", "XX. OO. ...")
    page.click("#start-here")
    settle(page)
    assert shown_position(page) == "XX.OO...." and page.is_hidden("#message")
    assert page.inner_text("#status") == "Player 1 to move: WIN in 1"
    assert page.get_attribute("#board [data-cell='3']", "data-value") == "win"


def test_a_game_without_a_drawing_shows_its_text_and_one_that_raises_its_message(page, broken_game):
    pick(page, broken_game, "two")
    assert page.inner_text("#board pre") == "0" and page.locator("#board svg").count() == 0
    page.click("#moves button[data-move='1']")
    settle(page)
    assert page.inner_text("#board pre") == "1"
    page.fill("#position-input", "5")
    page.click("#start-here")
    settle(page)
    page.wait_for_selector("#message:not([hidden])")
    assert page.inner_text("#message") == "the game's own code failed: KeyError: 'no moves written yet'"
    assert page.inner_text("#board pre") == "1"  # the board stays as it was
    pick(page, "nim")
    assert shown_position(page) == "3 4 5" and page.is_hidden("#message")


@pytest.fixture(scope="module")
def depth_server_url():
    """Connect-4 7x6 served by a search 2 moves deep (gamedp serve connect4 --depth 2)."""
    yield from served(create_app(["connect4"], options={"connect4": {"depth": 2}}, time_limit=60))


def test_a_depth_limited_board_shows_estimates_and_plays_its_best_judged_move(browser, depth_server_url):
    context = browser.new_context(viewport={"width": 1100, "height": 760})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(depth_server_url + "?game=connect4&position=12345")  # past the opening book: estimates
    settle(page)
    assert re.fullmatch(r"You to move: estimate [+-]?\d\.\d\d \(a search 2 moves deep\)",
                        page.inner_text("#status"))
    assert page.eval_on_selector("#mode", "m => m.options[0].textContent") == \
        "against a search 2 moves deep, you first"
    buttons = page.eval_on_selector_all("#moves button", "bs => bs.map(b => [b.dataset.value, b.textContent])")
    assert len(buttons) == 7 and all(v == "estimate" and " estimate " in t for v, t in buttons)
    page.click("#moves button[data-move='4']")
    settle(page)  # the computer's reply: the first move of the record it was shown
    assert len(page.eval_on_selector_all("#chart circle", "cs => cs.map(c => c.dataset.value)")) == 3
    assert page.get_attribute("#board", "data-position").count("X") + \
        page.get_attribute("#board", "data-position").count("O") == 7
    context.close()
    assert errors == []


# -- the address, the window, the status line, contrast ------------------------------------------------------------
def shown_in_address(page) -> dict[str, str]:
    from urllib.parse import parse_qs, urlsplit

    return {k: v[0] for k, v in parse_qs(urlsplit(page.url).query).items()}


def test_the_game_and_position_are_in_the_address_and_back_goes_back(page, browser, server_url):
    pick(page, "nim", "two")
    pick(page, "tictactoe", "two")
    assert shown_in_address(page) == {"game": "tictactoe", "position": "........."}
    for cell in ("5", "1"):
        page.click(f"#board [data-cell='{cell}']")
        settle(page)
    assert shown_in_address(page) == {"game": "tictactoe", "position": "O...X...."}
    page.go_back()
    page.wait_for_function("document.querySelector('#board').dataset.position === '....X....'")
    assert shown_in_address(page)["position"] == "....X...." and not page.is_disabled("#redo")
    page.go_back()
    page.wait_for_function("document.querySelector('#board').dataset.position === '.........'")
    page.go_back()  # the game picked before tic-tac-toe
    page.wait_for_function("document.querySelector('#game').value === 'nim'")
    settle(page)
    assert shown_position(page) == "3 4 5"
    page.go_forward()
    page.wait_for_function("document.querySelector('#board').dataset.position === '.........'")
    assert page.input_value("#game") == "tictactoe"
    bookmark = server_url + "?game=nim&position=1+2+4"  # a bookmark opens on its game and position
    other = browser.new_context(viewport={"width": 800, "height": 600}).new_page()
    other.goto(bookmark)
    settle(other)
    assert other.input_value("#game") == "nim" and shown_position(other) == "1 2 4"
    other.context.close()


@pytest.mark.parametrize("width, height", [(1400, 900), (420, 760)])
def test_the_board_fits_the_window(browser, server_url, width, height):
    page = browser.new_context(viewport={"width": width, "height": height}).new_page()
    page.goto(server_url + "?game=tictactoe")
    settle(page)
    box = page.locator("#board svg").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= width  # inside the window
    assert box["width"] >= min(width, height) * 0.5  # and using it, not a stamp in a corner
    page.context.close()


def test_the_status_says_the_value_once(page):
    pick(page, "tictactoe", "human-first")
    status = page.inner_text("#status")
    assert status.startswith("You to move: TIE") and "for the player to move" not in status, status


CONTRAST = """els => els.map(el => {
  const lum = (css) => { const [r, g, b] = css.match(/[\\d.]+/g).slice(0, 3).map((v) => {
      const c = v / 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
  const style = getComputedStyle(el), a = lum(style.color), b = lum(style.backgroundColor);
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
})"""


def test_the_coloured_moves_are_readable(page):
    for game in ("nim", "tictactoe"):
        pick(page, game, "two")
        ratios = page.eval_on_selector_all("#moves button", CONTRAST)
        assert ratios and min(ratios) >= 4.5, ratios  # WCAG's AA for text


# -- values as they are proved ---------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def big_board():
    """Connect-4 7x6 served by its exact search (seconds to minutes a position): the app and its address."""
    app = create_app(["connect4"], time_limit=60)
    for url in served(app):
        yield app, url


def test_the_board_and_its_moves_come_at_once_and_the_values_fill_in(browser, big_board):
    """4444443's six moves take seconds to value: the board and the moves are there first, the values come in
    one by one, the moves can be played meanwhile; closing the page stops the search it left."""
    from test_web_values import MINUTES, SECONDS, searching, stops_searching, worker_of

    app, url = big_board
    context = browser.new_context(viewport={"width": 1100, "height": 760})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{url}?game=connect4&position={SECONDS}")
    page.wait_for_function("document.querySelectorAll('#moves button').length === 6", timeout=30_000)
    assert page.locator("#board svg [data-cell]").count() > 0
    seen = []
    while page.evaluate("document.body.dataset.searching") == "1":
        seen.append((page.is_visible("#searching"),
                     page.eval_on_selector_all("#moves button", "bs => bs.map(b => b.dataset.value)")))
        page.wait_for_timeout(50)
    assert seen and all(visible for visible, _ in seen)
    assert any("unknown" in values and set(values) != {"unknown"} for _, values in seen), seen  # some, not all
    assert page.inner_text("#status").startswith("You to move: ") and not page.is_visible("#searching")
    values = page.eval_on_selector_all("#moves button", "bs => bs.map(b => b.dataset.value)")
    assert "unknown" not in values and len(values) == 6

    page.select_option("#mode", "two")  # two moves in a row while the values are searched: each board at once
    for move in ("1", "7"):
        before = shown_position(page)
        page.click(f"#moves button[data-move='{move}']")
        page.wait_for_function(f"document.querySelector('#board').dataset.position !== {before!r}")
    settle(page, timeout=120_000)
    assert "unknown" not in page.eval_on_selector_all("#moves button", "bs => bs.map(b => b.dataset.value)")

    page.goto(f"{url}?game=connect4&position={MINUTES}")  # minutes of search; the page leaves it
    page.wait_for_function("document.body.dataset.searching === '1'")
    worker = worker_of(app, "connect4")
    assert searching(worker.pid, 2)
    context.close()
    stops_searching(worker.pid, "after the page closed")
    assert errors == []
