"""gamedp's side of the engine benchmark: BLOCKGAME judge input on stdin, solved through the game API.

    python bench/engine/solve_boards.py python   < input   # the Python-defined game, gamedp's memo engine
    python bench/engine/solve_boards.py compiled < input   # the same rules as a numba kernel
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "examples"))

from blockgame_as_game import BlockGame, parse_board

from gamedp import Outcome, solve


def main() -> None:
    lines = sys.stdin.read().split()
    boards = [parse_board("".join(lines[1 + 5 * i: 6 + 5 * i])) for i in range(int(lines[0]))]
    if sys.argv[1] == "python":
        solution = solve(BlockGame(boards[0]), outcomes_only=True)
    else:
        from blockgame_compiled import game

        from gamedp.solvers.compiled import solve_compiled

        solution = solve_compiled(game, boards[0], outcomes_only=True)
    out = ["WINNING" if solution.value(b).outcome is Outcome.WIN else "LOSING" for b in boards]
    print("\n".join(out))


if __name__ == "__main__":
    main()
