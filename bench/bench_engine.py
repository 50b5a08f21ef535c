"""Engine benchmark (foundation issue): BLOCKGAME described as a plain Python game, solved by gamedp's memo
engine, and as a compiled game, against the hand-written CPython dict + recursion memo search.

    python bench/bench_engine.py [--rounds 3] [--quick]

Input: the empty 5x5 board (3.0M positions reached by a first-win search) unless --quick (a board with
eight cells filled). Every contender is a whole process; the first is the baseline.
"""

from __future__ import annotations

from pathlib import Path

from harness import BENCH, BUILD, PYTHON, Contender, arguments, compare


def main() -> None:
    args = arguments(__doc__.splitlines()[0])
    BUILD.mkdir(exist_ok=True)
    board = ["#.#..", ".....", "..#.#", "#....", "..##."] if args.quick else ["....."] * 5
    path = Path(BUILD / "engine.in")
    path.write_text("1\n" + "\n".join(board) + "\n")
    runner = str(BENCH / "engine" / "solve_boards.py")
    compare("Python-defined game vs hand-written memo (BLOCKGAME, first-win search)", [
        Contender("hand-written CPython dict memo", PYTHON + [str(BENCH / "engine" / "handwritten_memo.py")]),
        Contender("gamedp memo engine, Python game", PYTHON + [runner, "python"]),
        Contender("gamedp compiled engine, numba game", PYTHON + [runner, "compiled"]),
    ], stdin_path=path, rounds=args.rounds)


if __name__ == "__main__":
    main()
