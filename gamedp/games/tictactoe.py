"""Tic-tac-toe: the classic game with ties, as a Python-defined game.

A position is a 9-character string read row by row: ``X``, ``O`` or ``.``. X moves first, so the player to
move follows from the counts. Moves are cells numbered 1-9 in reading order.

>>> from gamedp.solvers.memo import solve
>>> game = TicTacToe()
>>> solution = solve(game)
>>> solution.value(game.start()).outcome
Outcome.TIE
>>> solution.value("XX.OO....")          # X to move completes the top row
Value(outcome=Outcome.WIN, remoteness=1, score=None)
>>> game.format_move("XX.OO....", solution.best_move("XX.OO...."))
'3'
"""

from __future__ import annotations

from gamedp.errors import GamedpError
from gamedp.game import Game
from gamedp.values import LOSE, TIE, Outcome

LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
# Each symmetry of the square as a permutation: new[i] = old[perm[i]].
SYMMETRIES = (
    (0, 1, 2, 3, 4, 5, 6, 7, 8),
    (6, 3, 0, 7, 4, 1, 8, 5, 2),  # rotate 90
    (8, 7, 6, 5, 4, 3, 2, 1, 0),  # rotate 180
    (2, 5, 8, 1, 4, 7, 0, 3, 6),  # rotate 270
    (2, 1, 0, 5, 4, 3, 8, 7, 6),  # mirror left-right
    (6, 7, 8, 3, 4, 5, 0, 1, 2),  # mirror top-bottom
    (0, 3, 6, 1, 4, 7, 2, 5, 8),  # main diagonal
    (8, 5, 2, 7, 4, 1, 6, 3, 0),  # anti-diagonal
)


class TicTacToe(Game):
    """Three in a row wins; a full board with no line is a tie."""

    name = "tictactoe"

    def __init__(self, symmetry: bool = True):
        self.symmetry = symmetry

    def tiered(self):
        """All 3^9 boards as a tiered game (see :mod:`gamedp.games.tictactoe_tiers`), for ``gamedp solve``; found
        through the registry of indexed games, since the tiered form is built on this one."""
        from gamedp.games.indexed import table_spec

        return table_spec("tictactoe")

    def start(self) -> str:
        return "." * 9

    def to_move(self, board: str) -> str:
        return "X" if board.count("X") == board.count("O") else "O"

    def moves(self, board: str) -> list[int]:
        return [] if self.primitive(board) is not None else [i for i in range(9) if board[i] == "."]

    def do_move(self, board: str, cell: int) -> str:
        return board[:cell] + self.to_move(board) + board[cell + 1:]

    def primitive(self, board: str) -> Outcome | None:
        for a, b, c in LINES:
            if board[a] != "." and board[a] == board[b] == board[c]:
                return LOSE  # the player who just moved made a line
        return TIE if "." not in board else None

    def canonical(self, board: str) -> str:
        if not self.symmetry:
            return board
        return min("".join(board[i] for i in perm) for perm in SYMMETRIES)

    def format_position(self, board: str) -> str:
        """The board with each empty cell's number (the move that fills it), then whose turn it is.

        >>> print(TicTacToe().format_position("XX.OO...."))
        X X 3
        O O 6
        7 8 9
        X to move
        """
        cells = [c if c != "." else str(i + 1) for i, c in enumerate(board)]
        mover = "XO"[board.count("O") < board.count("X")]
        turn = "game over" if self.primitive(board) is not None else f"{mover} to move"
        return "\n".join(" ".join(cells[r * 3:r * 3 + 3]) for r in range(3)) + "\n" + turn

    def parse_position(self, text: str) -> str:
        """Nine cells of X, O or '.', row by row; a cell's number stands for an empty cell, and a last line
        saying whose turn it is (as the drawing has) is skipped: the counts of X and O tell.

        >>> TicTacToe().parse_position("X X 3\\nO O 6\\n7 8 9\\nX to move")
        'XX.OO....'
        """
        lines = text.strip().splitlines()
        if lines and lines[-1].strip().lower() in ("x to move", "o to move", "game over"):
            lines.pop()
        board = "".join("".join(lines).split()).upper()
        board = "".join("." if ch.isdigit() and ch == str(i + 1) else ch for i, ch in enumerate(board))
        if len(board) != 9 or set(board) - set("XO."):
            raise GamedpError("a tic-tac-toe position is 9 cells of X, O or '.', row by row (e.g. 'X.O......')")
        x, o = board.count("X"), board.count("O")
        if x - o not in (0, 1):
            raise GamedpError(f"{x} X and {o} O cannot happen: X moves first, so X has as many as O or one more")
        return board

    def format_move(self, board: str, cell: int) -> str:
        return str(cell + 1)
