"""A user's Connect-Four on the score search (bench/connect4_hooks.py: five plain Python hooks) against the
built-in search (`gamedp value connect4`, its hooks in gamedp.kernels.connect4_search), on the 1000 Middle-Easy
positions of Pascal Pons' benchmark sets.

    python bench/bench_own_hooks.py              # 1000 Middle-Easy positions, 5 rounds
    python bench/bench_own_hooks.py --quick      # 100 of them, 3 rounds

Each round runs both on the positions and on empty input (their start-up), whole process; the table gives the
medians: whole process, start-up, and the difference (the positions' own time) per position, wall and CPU (user +
system), with the ratio of the user's to the built-in's. Both answer a block of move strings in one compiled call
(the user's game through its optional ``read`` and ``remoteness`` hooks). A second table times the searches
alone, through the API
(``ScoreSearch.score`` of each position read beforehand, a fresh table each round, CPU seconds in this
process). Every answer of the user's search must be the built-in's (the exit status is 1 otherwise). The issue's
bar is at most 1.5x on the positions' own time.
"""

from __future__ import annotations

import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from harness import BENCH, GAMEDP, arguments

POSITIONS = BENCH.parent / "tests" / "fixtures" / "connect4-positions" / "Test_L2_R1"
CONTENDERS = {"built-in (gamedp value connect4)": "connect4",
              "plain hooks (bench/connect4_hooks.py)": str(BENCH / "connect4_hooks.py")}
TARGET = 1.5


def run(game: str, lines: Path) -> tuple[float, float, bytes]:
    """Wall and CPU seconds of ``gamedp value GAME < lines``, and its output."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = time.perf_counter()
    with open(lines, "rb") as stdin:
        done = subprocess.run([*GAMEDP, "value", game], stdin=stdin, capture_output=True, check=True)
    wall = time.perf_counter() - began
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime, done.stdout


def api_seconds(moves: list[str], rounds: int) -> dict[str, list[float]]:
    """CPU seconds of ``ScoreSearch.score`` on every position, per round, for both searches (positions read first)."""
    sys.path.insert(0, str(BENCH))
    from connect4_hooks import game as own

    from gamedp.games.connect4 import Connect4
    from gamedp.solvers.score_search import ScoreSearch

    builtin = Connect4()
    games = {label: (game, [game.score_search().read_moves(m) if game is builtin else game.parse_position(m)
                            for m in moves]) for label, game in zip(CONTENDERS, (builtin, own))}
    seconds: dict[str, list[float]] = {label: [] for label in CONTENDERS}
    scores = {}
    for _ in range(rounds):
        for label, (game, positions) in games.items():
            search = ScoreSearch(game.score_search(), progress=False, book=False, memory=64 << 20)
            began = time.process_time()
            scores[label] = [search.score(p) for p in positions]
            seconds[label].append(time.process_time() - began)
    if len({tuple(s) for s in scores.values()}) != 1:
        raise SystemExit("the two searches' scores differ")
    return seconds


def main() -> int:
    args = arguments(__doc__.splitlines()[0])
    count, rounds = (100, min(args.rounds, 3)) if args.quick else (1000, args.rounds)
    with tempfile.TemporaryDirectory() as scratch:
        lines, empty = Path(scratch) / "positions", Path(scratch) / "empty"
        moves = [line.split()[0] for line in POSITIONS.read_text().splitlines()[:count]]
        lines.write_text("".join(m + "\n" for m in moves))
        empty.write_text("")
        outputs = {label: run(game, lines)[2] for label, game in CONTENDERS.items()}  # builds, and the answers
        times: dict[str, dict[str, list[float]]] = {label: {"wall": [], "cpu": [], "wall0": [], "cpu0": []}
                                                    for label in CONTENDERS}
        for _ in range(rounds):
            for label, game in CONTENDERS.items():
                wall, cpu, out = run(game, lines)
                wall0, cpu0, _ = run(game, empty)
                for key, value in (("wall", wall), ("cpu", cpu), ("wall0", wall0), ("cpu0", cpu0)):
                    times[label][key].append(value)
                if out != outputs[label]:
                    outputs[label] = b"differs between rounds"
    same = len(set(outputs.values())) == 1
    print(f"{count} Middle-Easy positions, {rounds} rounds, medians (whole process; start-up: empty input)")
    print(f"{'':40} {'wall s':>7} {'cpu s':>7} {'start wall':>10} {'start cpu':>9} {'us/pos wall':>11} "
          f"{'us/pos cpu':>10}")
    per_position = {}
    for label, t in times.items():
        m = {key: statistics.median(values) for key, values in t.items()}
        per_position[label] = ((m["wall"] - m["wall0"]) / count * 1e6, (m["cpu"] - m["cpu0"]) / count * 1e6)
        print(f"{label:40} {m['wall']:7.3f} {m['cpu']:7.3f} {m['wall0']:10.3f} {m['cpu0']:9.3f} "
              f"{per_position[label][0]:11.1f} {per_position[label][1]:10.1f}")
    (base_wall, base_cpu), (own_wall, own_cpu) = per_position.values()
    whole = [statistics.median(t["wall"]) for t in times.values()]
    print(f"ratio, plain hooks / built-in: per position wall {own_wall / base_wall:.2f}, cpu {own_cpu / base_cpu:.2f}"
          f" (bar: at most {TARGET}); whole process wall {whole[1] / whole[0]:.2f}")
    print("answers: " + ("every one the same" if same else "DIFFER"))
    api = {label: statistics.median(t) for label, t in api_seconds(moves, rounds).items()}
    print("searches alone (ScoreSearch.score, CPU): " + ", ".join(
        f"{label} {t / count * 1e6:.1f} us/pos" for label, t in api.items()) +
        f"; ratio {list(api.values())[1] / list(api.values())[0]:.2f}, every score the same")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
