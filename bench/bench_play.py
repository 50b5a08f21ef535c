"""`gamedp play` against a scripted opponent that plays random legal moves: how long the computer takes for each
of its moves, and whether it ever loses.

    python bench/bench_play.py --games 20 [--game connect4] [--plies 8] [--seed 1]

Plays ``--games`` games with the computer first, then as many with it second, each a whole ``gamedp play``
process (as a person runs it) with its input and output on pipes. A computer move's time runs from the moment
the opponent's move is sent (the first move of a game with the computer first: from the process's start, its
start-up included) to the line that names the computer's move. Prints the slowest and the median computer move
in the first ``--plies`` plies, the slowest later, and each game's result; exit status 1 if the computer lost a
game or a move in the first plies took more than ``--bar`` seconds.

Each game runs with ``GAMEDP_DB_DIR`` pointed at an empty folder of its own, so that only what gamedp ships (its
opening book) answers, as on a fresh machine.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import select
import statistics
import subprocess
import sys
import tempfile
import time

COMPUTER = re.compile(r"The computer plays (\S+?)\.")
YOUR_MOVES = re.compile(r"Your moves: (.*)")
OVER = re.compile(r"Game over\. (.*)")


class Game:
    """One `gamedp play` process and what it has printed."""

    def __init__(self, game: str, first: str, folder: str):
        self.began = time.perf_counter()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "gamedp", "play", game, "--first", first], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env={**os.environ, "GAMEDP_DB_DIR": folder})
        assert self.process.stdin is not None and self.process.stdout is not None
        self.stdin, self.stdout = self.process.stdin, self.process.stdout
        self.text = ""

    def until(self, *patterns: re.Pattern, timeout: float) -> tuple[re.Pattern, re.Match]:
        """Read until one of ``patterns`` matches a whole line of what is new; which one and its match."""
        deadline = time.monotonic() + timeout
        fd = self.stdout.fileno()
        while True:
            lines = self.text.split("\n")
            for at, line in enumerate(lines[:-1]):
                for pattern in patterns:
                    found = pattern.search(line)
                    if found:
                        self.text = "\n".join(lines[at + 1:])
                        return pattern, found
            self.text = lines[-1] if len(lines) > 1 else self.text
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                raise TimeoutError(f"no answer from gamedp play in {timeout:g} s")
            chunk = os.read(fd, 65536).decode()
            if not chunk:
                raise EOFError("gamedp play ended without saying the game was over")
            self.text += chunk

    def send(self, move: str) -> None:
        self.stdin.write(f"{move}\n".encode())
        self.stdin.flush()

    def close(self) -> None:
        self.process.kill()
        self.process.wait()


def one_game(game: str, computer_first: bool, chooser: random.Random, timeout: float) -> dict:
    """Play one game; the computer's moves as (ply, seconds) and the result line."""
    with tempfile.TemporaryDirectory() as folder:
        play = Game(game, "computer" if computer_first else "human", folder)
        moves: list[tuple[int, float]] = []
        sent = play.began
        ply = 0
        try:
            while True:
                pattern, found = play.until(COMPUTER, YOUR_MOVES, OVER, timeout=timeout)
                if pattern is OVER:
                    return {"computer_first": computer_first, "moves": moves, "result": found.group(1)}
                if pattern is COMPUTER:
                    moves.append((ply, time.perf_counter() - sent))
                    ply += 1
                    continue
                move = chooser.choice([m.strip() for m in found.group(1).split(",")])
                sent = time.perf_counter()
                play.send(move)
                ply += 1
        finally:
            play.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", default="connect4")
    parser.add_argument("--games", type=int, default=20, help="games with the computer first (as many second)")
    parser.add_argument("--plies", type=int, default=8, help="the opening plies the bar holds for")
    parser.add_argument("--bar", type=float, default=2.0, help="seconds a computer move in the opening may take")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=3600, help="seconds to wait for one computer move")
    parser.add_argument("--json", action="store_true", help="every game's moves and result as JSON")
    args = parser.parse_args()
    chooser = random.Random(args.seed)
    games = []
    for computer_first in (True, False):
        for n in range(args.games):
            games.append(one_game(args.game, computer_first, chooser, args.timeout))
            record = games[-1]
            opening = [s for p, s in record["moves"] if p < args.plies]
            print(f"computer {'first' if computer_first else 'second'}, game {n + 1}: {record['result']} "
                  f"(opening moves: slowest {max(opening):.2f} s; later: slowest "
                  f"{max([s for p, s in record['moves'] if p >= args.plies], default=0):.1f} s)",
                  file=sys.stderr, flush=True)
    opening = [s for g in games for p, s in g["moves"] if p < args.plies]
    later = [s for g in games for p, s in g["moves"] if p >= args.plies]
    lost = [g for g in games if g["result"].startswith("You win")]  # the opponent's result is printed
    first_won = all(g["result"].startswith("You lose") for g in games if g["computer_first"])
    summary = {"game": args.game, "games": len(games), "opening_moves": len(opening),
               "opening_slowest": round(max(opening), 3), "opening_median": round(statistics.median(opening), 3),
               "later_moves": len(later), "later_slowest": round(max(later, default=0), 3),
               "later_median": round(statistics.median(later), 3) if later else 0,
               "computer_lost": len(lost), "won_every_game_it_began": first_won}
    if args.json:
        print(json.dumps({**summary, "records": games}))
    else:
        for key, value in summary.items():
            print(f"{key}: {value}")
    return 1 if lost or not first_won or max(opening) > args.bar else 0


if __name__ == "__main__":
    sys.exit(main())
