"""Treblecross, the game of the tutorial (docs/tutorial.md): one-dimensional tic-tac-toe where both play X.

Players take turns putting an X on an empty cell of a row; whoever makes three X in a row wins.

>>> from gamedp import solve
>>> game = Treblecross(7)
>>> str(solve(game).value(game.start()))
'WIN in 5'
"""

from gamedp import LOSE, Game, GamedpError


class Treblecross(Game):
    """Both players put an X on an empty cell; three X in a row wins. A position is the row: '..X....'."""

    name = "treblecross"
    primitive_first = True  # primitive() ends the game; moves() need not check for three in a row again

    def __init__(self, cells: int = 9):
        self.cells = cells

    # -- the rules -------------------------------------------------------------------------------------
    def start(self) -> str:
        return "." * self.cells

    def moves(self, row: str) -> list[int]:
        return [i for i, cell in enumerate(row) if cell == "."]

    def do_move(self, row: str, i: int) -> str:
        return row[:i] + "X" + row[i + 1:]

    def primitive(self, row: str):
        # Three in a row was made by the player who just moved: the player to move has lost.
        return LOSE if "XXX" in row else None

    def canonical(self, row: str) -> str:
        return min(row, row[::-1])  # a row and its mirror image have the same value

    # -- text: how positions and moves are written ------------------------------------------------------
    def format_position(self, row: str) -> str:
        return " ".join(row) + "\n" + " ".join(str(i + 1)[-1] for i in range(len(row)))

    def parse_position(self, text: str) -> str:
        row = text.strip().splitlines()[0].replace(" ", "") if text.strip() else ""
        if len(row) != self.cells or set(row) - set(".X"):
            raise GamedpError(f"a treblecross position is {self.cells} cells of '.' or 'X' "
                              f"(like {'..X'.ljust(self.cells, '.')!r}), not {text.strip()!r}")
        return row

    def format_move(self, row: str, i: int) -> str:
        return str(i + 1)  # cells are numbered from 1, as drawn

    # -- a picture for the web board and Jupyter ---------------------------------------------------------
    def draw_position(self, row: str) -> str:
        size = 40
        cells = "".join(
            f'<rect x="{i * size + 2}" y="2" width="{size - 4}" height="{size - 4}" fill="#fff" '
            f'data-fill="#fff" stroke="#555" data-cell="c{i + 1}"/>'
            f'<text x="{i * size + size / 2}" y="{size / 2 + 7}" font-size="20" text-anchor="middle" '
            f'pointer-events="none">{"X" if cell == "X" else ""}</text>'
            for i, cell in enumerate(row))
        return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {len(row) * size} {size}" '
                f'aria-label="treblecross row">{cells}</svg>')

    def move_cells(self, row: str, i: int) -> list[str]:
        return [f"c{i + 1}"]
