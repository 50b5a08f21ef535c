"""The worked examples: BLOCKGAME as a Python game and as a compiled game, against a plain brute force."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest
from command import gamedp

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples"))

from blockgame_as_game import PLACEMENTS, BlockGame, format_board, parse_board

from gamedp import Outcome, Solution, check_game


def brute_force_wins(board: int) -> bool:
    """From the rules: the mover wins if some placement leaves the opponent without a win. No memo."""
    return any(not board & m and not brute_force_wins(board | m) for m in PLACEMENTS)


def random_boards(count: int, seed: int) -> list[int]:
    rng = random.Random(seed)
    boards = []
    for _ in range(count):
        filled = rng.randint(14, 25)  # the brute force has no memo: sparser boards take minutes
        boards.append(sum(1 << c for c in rng.sample(range(25), filled)))
    return boards


@pytest.mark.parametrize("outcomes_only", [False, True])
def test_python_game_matches_brute_force(outcomes_only):
    solution = Solution(BlockGame(), outcomes_only=outcomes_only)  # searched only from the boards asked
    for board in random_boards(1000, 1):
        expected = Outcome.WIN if brute_force_wins(board) else Outcome.LOSE
        assert solution.value(board).outcome is expected, format_board(board)


def test_compiled_game_matches_brute_force_and_python_game():
    from blockgame_compiled import game

    from gamedp.solvers.compiled import solve_compiled

    compiled = solve_compiled(game, (1 << 25) - 1)
    python = Solution(BlockGame())
    for board in random_boards(1000, 2):
        expected = Outcome.WIN if brute_force_wins(board) else Outcome.LOSE
        assert compiled.value(board).outcome is expected, format_board(board)
        assert compiled.value(board) == python.value(board)


def test_example_passes_the_self_check_and_reads_back():
    board = parse_board("#.#..\n.....\n..#.#\n#....\n..##.")
    assert parse_board(format_board(board)) == board
    assert check_game(BlockGame((1 << 25) - 1 - 0b1111), max_positions=1000).ok


@pytest.mark.slow
def test_the_command_line_takes_the_example_files_as_they_are(tmp_path):
    """Each example file, named by its path from anywhere: it may import the modules beside it, and the game
    instance it defines is found (an instance's __module__ is its class's, which lives in gamedp)."""

    examples = Path(__file__).resolve().parents[1] / "examples"
    for name, expected in [("blockgame_compiled.py", "blockgame-compiled: ok"), ("my_game.py", "toads-and-frogs: ok")]:
        done = gamedp("check", str(examples / name), cwd=tmp_path, timeout=600)
        assert done.returncode == 0 and done.stdout.startswith(expected), done.stderr
