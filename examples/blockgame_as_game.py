"""BLOCKGAME described to gamedp as a plain Python game (its compiled twin: blockgame_compiled.py).

This is the worked example of the game API (and the engine benchmark's subject). The built-in, faster
BLOCKGAME lives in gamedp.games.placement; this file shows what a user writes for a game of their own.

A board is a 25-bit integer, bit r*5+c set where the cell is filled. A move fills an L-tromino (3 cells of a
2x2 square) or a domino; a player who cannot move loses.

    gamedp check examples/blockgame_as_game.py:python_game
"""

from __future__ import annotations

from gamedp import Game


def _placements() -> list[int]:
    def cell(r: int, c: int) -> int:
        return 1 << (r * 5 + c)

    masks = []
    for r in range(5):
        for c in range(5):
            if c < 4:
                masks.append(cell(r, c) | cell(r, c + 1))
            if r < 4:
                masks.append(cell(r, c) | cell(r + 1, c))
            if r < 4 and c < 4:
                square = [cell(r, c), cell(r, c + 1), cell(r + 1, c), cell(r + 1, c + 1)]
                masks.extend(sum(square) - left_out for left_out in square)
    return masks


PLACEMENTS = tuple(_placements())  # 40 dominoes + 64 L-trominoes


def parse_board(text: str) -> int:
    cells = "".join(text.split())
    if len(cells) != 25 or set(cells) - set(".#"):
        raise ValueError("a board is 25 cells of '.' and '#'")
    return sum(1 << i for i, ch in enumerate(cells) if ch == "#")


def format_placement(board: int, child: int) -> str:
    """A move named by the cells it fills, columns a-e and rows 1-5 (``"a1 b1"``); the front ends read it back."""
    filled = child & ~board
    return " ".join(f"{'abcde'[i % 5]}{i // 5 + 1}" for i in range(25) if filled >> i & 1)


def format_board(board: int) -> str:
    return "\n".join("".join("#" if board >> (r * 5 + c) & 1 else "." for c in range(5)) for r in range(5))


class BlockGame(Game):
    """The plain Python description: a generator of children lets the solver stop at the first win."""

    name = "blockgame-python"

    def __init__(self, board: int = 0):
        self.board = board

    def start(self) -> int:
        return self.board

    def children(self, board: int):
        for m in PLACEMENTS:
            if not board & m:
                yield board | m

    def format_position(self, board: int) -> str:
        return format_board(board)

    def parse_position(self, text: str) -> int:
        return parse_board(text)

    def format_move(self, board: int, child: int) -> str:
        return format_placement(board, child)


python_game = BlockGame()
