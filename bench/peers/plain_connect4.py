"""Connect-4 on a W x H board written plainly as a gamedp ``Game``, the way a user would: a tuple of columns."""

from gamedp import LOSE, TIE, Game


class PlainConnect4(Game):
    def __init__(self, width: int, height: int):
        self.width, self.height = width, height
        self.name = f"plain-connect4-{width}x{height}"
        # every line of four cells, as (column, row) pairs
        self.lines = [[(c + k * dc, r + k * dr) for k in range(4)]
                      for c in range(width) for r in range(height) for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1))
                      if 0 <= c + 3 * dc < width and 0 <= r + 3 * dr < height]

    def start(self):
        return tuple(() for _ in range(self.width))  # columns of stones, bottom first; X = 1, O = 2

    def _cell(self, board, c, r):
        return board[c][r] if r < len(board[c]) else 0

    def primitive(self, board):
        last = 2 if sum(map(len, board)) % 2 == 0 else 1  # the player who just moved
        for line in self.lines:
            if all(self._cell(board, c, r) == last for c, r in line):
                return LOSE
        return TIE if all(len(col) == self.height for col in board) else None

    def moves(self, board):
        if self.primitive(board) is not None:
            return []
        return [c for c in range(self.width) if len(board[c]) < self.height]

    def do_move(self, board, c):
        stone = 1 if sum(map(len, board)) % 2 == 0 else 2
        return board[:c] + (board[c] + (stone,),) + board[c + 1:]


class PlainConnect4Once(PlainConnect4):
    """The same, with the end test given once: ``primitive_first``, so moves() need not test for the end."""

    primitive_first = True

    def moves(self, board):
        return [c for c in range(self.width) if len(board[c]) < self.height]
