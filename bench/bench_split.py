"""One position's search split over a local Dask cluster (gamedp.solvers.split_search) against the search of one
process: Domineering's empty boards and Connect-Four 7x6 positions, positions explored, wall time and CPU.

    python bench/bench_split.py --rounds 3
    python bench/bench_split.py --workers 2 --cases domineering:8x8 connect4:7x6:444444

Each round runs every case in one process (a ScoreSearch of its own per case, no opening book), then on a local
cluster of --workers processes started once for the round (not timed), each case with a SplitSearch of its own
(the workers keep their tables from case to case, as they would from line to line of one `gamedp value`). The
CPU of a split is the workers' and this process's. Medians of the rounds; the answers must agree (exit status 1
otherwise). The load is printed with each round: the machine's other work moves these times.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

CASES = ["domineering:6x7", "domineering:7x6", "domineering:7x7", "domineering:8x8", "connect4:7x6:4444443",
         "connect4:7x6:33444", "connect4:7x6:1234567", "connect4:7x6:444444"]
MEMORY = 1 << 26


def position(case: str) -> tuple[str, object, object]:
    """The game's name, its score rules and the position of ``case`` (GAME:BOARD[:MOVES])."""
    from gamedp.loader import load_game
    from gamedp.solvers.score_search import score_rules

    name, board, *moves = case.split(":")
    rules = score_rules(load_game(f"{name}:{board}"))
    at = rules.read_moves(moves[0]) if moves else rules.game.start()
    return f"{name}:{board}", rules, at


def one_process(case: str) -> dict:
    from gamedp.solvers.score_search import ScoreSearch

    _, rules, at = position(case)
    search = ScoreSearch(rules, memory=MEMORY, progress=False, book=False)
    cpu, wall = time.process_time(), time.perf_counter()
    value = search.value(at)
    return {"value": str(value), "explored": search.explored, "wall": time.perf_counter() - wall,
            "cpu": time.process_time() - cpu}


def split(case: str, executor) -> dict:
    from gamedp.solvers.split_search import SplitSearch

    name, rules, at = position(case)
    search = SplitSearch(rules, name, executor, memory=MEMORY, book=False)
    workers_cpu = sum(executor.client.run(time.process_time).values())
    cpu, wall = time.process_time(), time.perf_counter()
    value = search.value(at)
    wall = time.perf_counter() - wall
    cpu = time.process_time() - cpu + sum(executor.client.run(time.process_time).values()) - workers_cpu
    return {"value": str(value), "explored": search.explored, "wall": wall, "cpu": cpu,
            "questions": search.questions}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--cases", nargs="+", default=CASES)
    args = parser.parse_args()
    from gamedp.executors import DaskExecutor

    runs: dict[tuple[str, str], list[dict]] = {}
    for r in range(args.rounds):
        print(f"round {r + 1}: load {os.getloadavg()[0]:.1f}", file=sys.stderr)
        for case in args.cases:
            runs.setdefault((case, "one"), []).append(one_process(case))
        with DaskExecutor(workers=args.workers) as executor:
            executor.start()
            for case in args.cases:
                runs.setdefault((case, "split"), []).append(split(case, executor))
    print("| case | value | one process: explored, wall, CPU | split: tasks, explored, wall, CPU | "
          "explored x | wall x |")
    print("|---|---|---|---|---|---|")
    wrong = False
    for case in args.cases:
        one, two = runs[(case, "one")], runs[(case, "split")]
        values = {run["value"] for run in one + two}
        wrong |= len(values) > 1

        def median(rs: list[dict], key: str) -> float:
            return statistics.median(run[key] for run in rs)

        print(f"| {case} | {'/'.join(sorted(values))} | {median(one, 'explored'):,.0f}, {median(one, 'wall'):.2f} s, "
              f"{median(one, 'cpu'):.2f} s | {median(two, 'questions'):.0f}, {median(two, 'explored'):,.0f}, "
              f"{median(two, 'wall'):.2f} s, {median(two, 'cpu'):.2f} s | "
              f"{median(two, 'explored') / max(1, median(one, 'explored')):.2f} | "
              f"{median(two, 'wall') / max(1e-9, median(one, 'wall')):.2f} |")
    print(f"load at the end {os.getloadavg()[0]:.1f}", file=sys.stderr)
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
