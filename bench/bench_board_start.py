"""The web board of a full-size game opened at its start, in a real browser: how soon the board and its moves are
on screen, and how soon the winning move is marked.

    python bench/bench_board_start.py [--game connect4] [--rounds 5] [--winning 4]

Each round starts ``gamedp serve GAME`` afresh (a whole process, as a person runs it, with ``GAMEDP_DB_DIR`` an
empty folder of its own: only what gamedp ships answers) and opens its page in headless Chromium (Debian's
``/usr/bin/chromium``, driven by Playwright, started once and not timed). Times from the page being asked for:
the board drawn with every legal move's button, then the move ``--winning`` marked winning (``--expect`` another
value, for a game whose start is not won). Prints each round and the medians; exit status 1 if a median is over
its bar (``--board-bar``, 2 s; ``--value-bar``, 5 s).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]


def one_round(browser: Any, game: str, winning: str, expect: str, timeout: float) -> tuple[float, float, int]:
    """Seconds to the board with its moves, to ``winning`` marked ``expect``; how many moves were shown."""
    with tempfile.TemporaryDirectory() as folder:
        server = subprocess.Popen([sys.executable, "-m", "gamedp", "serve", game, "--time-limit", "300"],
                                  stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                                  env={**os.environ, "GAMEDP_DB_DIR": folder})
        try:
            assert server.stdout is not None
            url = server.stdout.readline().split()[3]
            page = browser.new_page()
            asked = time.perf_counter()
            page.goto(url)
            page.wait_for_function("document.querySelector('#board svg [data-cell]') !== null && "
                                   "document.querySelectorAll('#moves button').length > 0",
                                   timeout=timeout * 1000)
            board = time.perf_counter() - asked
            moves = page.locator("#moves button").count()
            page.wait_for_function(f"document.querySelector(\"#moves button[data-move='{winning}']\")"
                                   f"?.dataset.value === '{expect}'", timeout=timeout * 1000)
            value = time.perf_counter() - asked
            page.close()
            return board, value, moves
        finally:
            server.terminate()
            server.wait(30)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", default="connect4")
    parser.add_argument("--winning", default="4", help="the start's winning move, as the board names it")
    parser.add_argument("--expect", default="win", help="the value the move is to be marked with")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--board-bar", type=float, default=2.0)
    parser.add_argument("--value-bar", type=float, default=5.0)
    parser.add_argument("--timeout", type=float, default=600)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    boards, values = [], []
    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            for r in range(args.rounds):
                board, value, moves = one_round(browser, args.game, args.winning, args.expect, args.timeout)
                boards.append(board)
                values.append(value)
                print(f"round {r + 1} (load {os.getloadavg()[0]:.1f}): the board and its {moves} moves in "
                      f"{board:.2f} s, move {args.winning} marked {args.expect} in {value:.2f} s", flush=True)
        finally:
            browser.close()
    board, value = statistics.median(boards), statistics.median(values)
    print(f"median: the board in {board:.2f} s (bar {args.board_bar:g} s), move {args.winning} {args.expect} in "
          f"{value:.2f} s (bar {args.value_bar:g} s)")
    return 0 if board <= args.board_bar and value <= args.value_bar else 1


if __name__ == "__main__":
    sys.exit(main())
