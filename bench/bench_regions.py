"""The region solver side by side with whole-board searches, on the same boards (compute alone, kernels loaded).

Contenders per board (empty 5 x 5 BLOCKGAME, empty 4 x 6 Cram; each round starts from nothing, rounds interleaved):
- region solver, outcome: win/lose by the Lemoine-Viennot search (``RegionSolver.wins``, no table on disk);
- region solver, nimber: by sums of canonical regions (``RegionSolver.nimber``, no table on disk);
- gamedp whole-board compiled search (``MemoSearch``, the judge's engine): the outcome only, with symmetry and
  dead cells;
- gamedp whole-board Grundy search (``Nimbers`` on the whole board, without ``split``: what ``nimber`` did before
  regions), Python; one round, with --python, on Cram only (~1 minute; 5 x 5 BLOCKGAME takes many);
- plain C++ whole-board memoised Grundy search (reference/placement_grundy.cpp, g++ -O2 here), a byte per board;
  one round (5 x 5 BLOCKGAME takes ~20 s).
Then the BLOCKGAME judge's 50 hard boards: the region solver's outcomes and nimbers against the judge's compiled
search. With --sweep, then the outcome alone against the whole-board compiled search on empty boards of 20 to 30
cells, the two taking turns: how the ratio moves with the board's size (a round there has no third contender to
push the short search's code and tables out of the caches, so its ratios come out a few percent lower than above).
Times are this thread's CPU seconds (every contender runs in it): on a shared 2-core machine a run of a few
milliseconds is often put aside for another process's time slice, which wall-clock time would count.

    python bench/bench_regions.py --rounds 5 [--python] [--sweep]
"""

from __future__ import annotations

import statistics
import subprocess
import time

from bench_blockgame import hard_boards
from harness import arguments, build_cpp


def timed(call, rounds: int) -> tuple[float, object]:
    times, answer = [], None
    for _ in range(rounds):
        t = time.thread_time()
        answer = call()
        times.append(time.thread_time() - t)
    return statistics.median(times), answer


def side_by_side(calls: dict, rounds: int) -> dict:
    """Median seconds and last answer of each call, the calls taking turns in every round (a noisy neighbour
    hurts them alike)."""
    times: dict = {label: [] for label in calls}
    answers: dict = {}
    for _ in range(rounds):
        for label, call in calls.items():
            t = time.thread_time()
            answers[label] = call()
            times[label].append(time.thread_time() - t)
    return {label: (statistics.median(times[label]), answers[label]) for label in calls}


def cpp_seconds(exe: str, family: str, rows: int, cols: int, rounds: int) -> tuple[float, int]:
    times, answer = [], None
    for _ in range(rounds):
        p = subprocess.run([exe, family, str(rows), str(cols)], capture_output=True, text=True, check=True)
        times.append(float(p.stderr.split()[1]))
        answer = int(p.stdout)
    return statistics.median(times), answer


#: the boards of --sweep: (family, rows, cols), by the number of cells
SWEEP = [("cram", 4, 5), ("blockgame", 4, 5), ("cram", 3, 8), ("cram", 4, 6), ("blockgame", 4, 6), ("cram", 5, 5),
         ("blockgame", 5, 5), ("cram", 4, 7), ("blockgame", 4, 7), ("cram", 5, 6)]


def sweep(rounds: int) -> None:
    """The outcome by regions against the whole-board compiled search, empty boards by size."""
    from gamedp.games.placement import Blockgame, Cram
    from gamedp.games.placement_search import MemoSearch
    from gamedp.solvers.regions import RegionSolver

    print(f"\n## Outcome of the empty board, by size  ({rounds} rounds interleaved, medians, CPU s)")
    print(f"{'board':<16} {'cells':>5} {'regions s':>10} {'whole-board s':>14} {'ratio':>7} {'faster':>7}  answer")
    for family, rows, cols in SWEEP:
        rules = (Cram if family == "cram" else Blockgame)(rows, cols).rules
        calls = {"regions": lambda: RegionSolver(rules, table=None).wins(0),
                 "whole": lambda: bool(MemoSearch(rules).wins([0])[0])}
        side_by_side(calls, 1)  # what each makes once per ruleset (tables of placements, symmetries), untimed
        got = side_by_side(calls, rounds)
        (t, won), (base, whole) = got["regions"], got["whole"]
        assert won == whole, f"{family} {rows} x {cols}: the two searches disagree"
        print(f"{family + f' {rows} x {cols}':<16} {rows * cols:5d} {t:10.5f} {base:14.5f} {t / base:7.3f} "
              f"{base / t:6.1f}x  {'WIN' if won else 'LOSE'}")


def main() -> None:
    args = arguments(__doc__.splitlines()[0], ("--python", "also the whole-board Grundy search in Python (Cram)"),
                     ("--sweep", "also the outcome on empty boards of 20 to 30 cells, by size"))
    python = args.python
    from gamedp.game import Game
    from gamedp.games.placement import Blockgame, Cram
    from gamedp.games.placement_search import MemoSearch
    from gamedp.solvers.grundy import Nimbers
    from gamedp.solvers.regions import RegionSolver

    exe = build_cpp("reference/placement_grundy.cpp")
    RegionSolver(Cram(2, 2).rules, table=None).wins(0)  # load the kernels before any timing
    MemoSearch(Cram(2, 2).rules).wins([0])
    for game in (Blockgame(5, 5), Cram(4, 6)):
        rules = game.rules
        won = {True: "WIN", False: "LOSE"}
        got = side_by_side({
            "region solver, outcome (Lemoine-Viennot)": lambda: won[RegionSolver(rules, table=None).wins(0)],
            "gamedp whole-board compiled search (outcome)": lambda: won[bool(MemoSearch(rules).wins([0])[0])],
            "region solver, nimber": lambda: RegionSolver(rules, table=None).nimber(0)}, args.rounds)
        rows = [(label, t, answer) for label, (t, answer) in got.items()]
        base = rows[1][1]
        cpp, g2 = cpp_seconds(exe, rules.name, rules.rows, rules.cols, 1)
        rows.append(("C++ whole-board memo Grundy (no symmetry)", cpp, g2))
        if python and rules.name == "cram":
            whole = type("WholeBoard", (type(game),), {"split": Game.split})(rules.rows, rules.cols)
            t, g3 = timed(lambda: Nimbers(whole)(0), 1)
            rows.append(("gamedp whole-board Grundy search (Python)", t, g3))
        print(f"\n## {rules.name} {rules.rows} x {rules.cols}, empty board  ({args.rounds} rounds, medians, CPU s)")
        print(f"{'program':<48} {'median s':>9} {'x whole-board':>14}  answer")
        for label, t, answer in rows:
            print(f"{label:<48} {t:9.4f} {t / base:14.3f}  {answer}")
    boards = hard_boards()
    rules = Blockgame(5, 5).rules
    got = side_by_side({
        "judge's compiled search (outcomes, one memo)": lambda: list(MemoSearch(rules).wins(boards)),
        "region solver, outcomes, one solver for the 50": lambda: (lambda s: [s.wins(b) for b in boards])(
            RegionSolver(rules, table=None)),
        "region solver, nimbers, one table for the 50": lambda: (lambda s: [s.nimber(b) != 0 for b in boards])(
            RegionSolver(rules, table=None))}, args.rounds)
    answers = {label: [bool(w) for w in answer] for label, (_, answer) in got.items()}
    assert len({tuple(a) for a in answers.values()}) == 1, "the contenders disagree"
    judge = got["judge's compiled search (outcomes, one memo)"][0]
    print(f"\n## BLOCKGAME judge's 50 hard boards  ({args.rounds} rounds interleaved, medians, CPU s)")
    print(f"{'program':<48} {'median s':>9} {'x judge':>9}")
    for label, (t, _) in got.items():
        print(f"{label:<48} {t:9.4f} {t / judge:9.2f}")
    if args.sweep:
        sweep(args.rounds)


if __name__ == "__main__":
    main()
