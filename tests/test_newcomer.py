"""A newcomer's path: tic-tac-toe says whose turn it is and numbers its cells; query labels its answers."""

from __future__ import annotations

import subprocess
import sys

from gamedp.games.tictactoe import TicTacToe


def test_tictactoe_draws_the_turn_and_the_cell_numbers_and_reads_it_back():
    game = TicTacToe()
    assert game.format_position("XX.OO....") == "X X 3\nO O 6\n7 8 9\nX to move"
    assert game.format_position("XX.OO...X").endswith("O to move")
    assert game.format_position("XXXOO....").endswith("game over")
    for board in ("XX.OO....", ".........", "XXXOO....", "XOXXOOOXX"):
        assert game.parse_position(game.format_position(board)) == board


def test_query_labels_each_answer_with_its_position(tmp_path):
    db = str(tmp_path / "t.gdb")
    run = [sys.executable, "-m", "gamedp"]
    subprocess.run([*run, "solve", "tictactoe", "--db", db], capture_output=True, check=True, timeout=300)
    out = subprocess.run([*run, "query", "tictactoe", "--db", db, "XX.OO....", "X X 3\nO O 6\n7 8 9"],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == ["XX.OO....: WIN", "X X 3 O O 6 7 8 9: WIN"]
