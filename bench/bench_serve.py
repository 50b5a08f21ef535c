"""The web board under use: how long a move takes to answer, alone and with 50 clients playing at once.

    python bench/bench_serve.py [--rounds 5] [--quick]

Starts ``gamedp serve`` (a whole process, as a person runs it) on a free loopback port, solves each built-in
game's start once (that first solve is reported on its own: it is the game's solve, not a move), then:

1. one client plays random games through ``/api/move`` on a kept-alive connection, each round in every game in
   turn (interleaved, so a noisy neighbour hurts all games alike); the figure is the median response time of a
   move per game over all rounds (the bar: under 50 ms for every built-in game);
2. 50 clients, each with its own connection, play whole games at once (tic-tac-toe, Nim, Connect-4 4x4):
   every answer must be a 200, and the median and 90th percentile response are reported.
"""

from __future__ import annotations

import argparse
import http.client
import json
import random
import statistics
import subprocess
import sys
import threading
import time
from urllib.parse import urlencode, urlsplit

GAMES = ["tictactoe", "connect4:4x4", "blockgame", "cram", "domineering", "nim", "kayles", "subtraction",
         "wythoff", "cards", "grid"]
CROWD_GAMES = ["tictactoe", "nim", "connect4:4x4"]
BAR_MS = 50.0


class Client:
    """One kept-alive connection to the board."""

    def __init__(self, url: str):
        parts = urlsplit(url)
        self.conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=600)

    def get(self, path: str, **params: str) -> tuple[int, dict, float]:
        began = time.perf_counter()
        self.conn.request("GET", f"{path}?{urlencode(params)}")
        response = self.conn.getresponse()
        body = json.loads(response.read())
        return response.status, body, time.perf_counter() - began


def play(client: Client, game: str, chooser: random.Random, times: list[float], max_moves: int = 40) -> int:
    """One random game from the start; each move's response time goes to ``times``; the errors are counted."""
    status, record, _ = client.get("/api/position", game=game)
    errors = status != 200
    moves = 0
    while status == 200 and record["moves"] and moves < max_moves:
        move = chooser.choice(record["moves"])["moveName"]
        status, record, seconds = client.get("/api/move", game=game, position=record["position"], move=move)
        errors += status != 200
        times.append(seconds)
        moves += 1
    return errors


def crowd(url: str, clients: int, games_each: int) -> tuple[list[float], int, float]:
    times: list[float] = []
    errors = [0]
    lock = threading.Lock()

    def one(i: int) -> None:
        client, mine, chooser = Client(url), [], random.Random(i)
        bad = sum(play(client, CROWD_GAMES[(i + g) % len(CROWD_GAMES)], chooser, mine) for g in range(games_each))
        with lock:
            times.extend(mine)
            errors[0] += bad

    began = time.perf_counter()
    threads = [threading.Thread(target=one, args=(i,)) for i in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return times, errors[0], time.perf_counter() - began


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="fewer rounds and games (a smoke test)")
    args = parser.parse_args()
    rounds = 2 if args.quick else args.rounds
    server = subprocess.Popen([sys.executable, "-m", "gamedp", "serve", "--time-limit", "300"],
                              stdout=subprocess.PIPE, text=True)
    try:
        url = server.stdout.readline().split()[3]
        client = Client(url)
        print(f"gamedp serve at {url}\n\nfirst request (starts the game's worker and solves its start):")
        for game in GAMES:
            status, _, seconds = client.get("/api/position", game=game)
            print(f"  {game:<14} {seconds:7.2f} s  (status {status})")
        times: dict[str, list[float]] = {game: [] for game in GAMES}
        errors = 0
        chooser = random.Random(14)
        for _ in range(rounds):
            for game in GAMES:
                errors += play(client, game, chooser, times[game])
        print(f"\none client, {rounds} rounds of a random game per game: median move response")
        for game in GAMES:
            median = statistics.median(times[game]) * 1000
            print(f"  {game:<14} {median:7.2f} ms  over {len(times[game])} moves  "
                  f"{'ok' if median < BAR_MS else 'OVER THE BAR'}")
        print(f"  errors: {errors}")
        clients = 50
        crowd_times, crowd_errors, wall = crowd(url, clients, 1 if args.quick else 3)
        crowd_times.sort()
        print(f"\n{clients} clients at once, {len(crowd_times)} moves in {wall:.1f} s: "
              f"median {statistics.median(crowd_times) * 1000:.1f} ms, "
              f"90th percentile {crowd_times[int(0.9 * len(crowd_times))] * 1000:.1f} ms, errors {crowd_errors}")
    finally:
        server.terminate()
        server.wait(30)


if __name__ == "__main__":
    main()
