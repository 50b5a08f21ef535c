"""k in a row on a board of W columns and H rows, with or without gravity (stones drop to the lowest free cell
of a column, as in Connect-Four), written from scratch: a plain gamedp Game for its moves and text, and its
exact-score search given as five plain Python functions (docs/howto/own-search.md explains every line).

    echo 'X..../X..../XO.../OO...' | gamedp value examples/k_in_a_row.py
    gamedp analyze examples/k_in_a_row.py

A position is two bitboards (a, b): the stones of the player to move, and every stone. Cell (row r from the
bottom, column c) is bit c * (H + 1) + r: each column has a spare bit above it, so that the key a + b tells every
position apart (a column's stones, bottom up, are a run of b; adding a to it leaves one bit above the run and the
mover's stones below). Without gravity a column's stones need not be a run, and the key is b and a side by side:
boards of at most 32 bits there. A win by a stone placed onto n stones scores (W * H + 1 - n) // 2, a loss the
negation, a tie 0: the winner hurries, the loser stalls.
"""

from gamedp import GamedpError, Game, SearchRules, Value, Word
from gamedp.values import LOSE, TIE, WIN

ONE = Word(1)
# what the hooks' parameters p hold, by position
CELLS, BOARD, BOTTOM, GRAVITY, LINES = range(5)


# -- the search's five hooks, and the plain functions they call ---------------------------------------------
def count(x):
    """The number of bits set in x."""
    n = 0
    while x != 0:
        x &= x - ONE
        n += 1
    return n


def win_score(p, stones):
    """The score of a win by a stone placed onto a board of ``stones`` stones."""
    return (p[CELLS] + 1 - stones) // 2


def has_line(stones, p):
    for line in p[LINES]:
        if stones & line == line:
            return True
    return False


def playable(b, p):
    """The cells a stone may go to."""
    if p[GRAVITY]:
        return (b + p[BOTTOM]) & p[BOARD]  # the lowest free cell of each column
    return p[BOARD] & ~b


def winning_cells(a, b, p):
    """The playable cells where the mover's stone completes a line."""
    found = Word(0)
    for line in p[LINES]:
        missing = line & ~a
        if missing & b == 0 and missing & (missing - ONE) == 0:  # one free cell short of the line
            found |= missing
    return found & playable(b, p)


def start(a, b, p):
    stones = count(b)
    if has_line(a ^ b, p):  # the last stone made a line: the mover has lost
        return True, -win_score(p, stones - 1), 0
    if b == p[BOARD]:
        return True, 0, 0
    if winning_cells(a, b, p) != 0:
        return True, win_score(p, stones), 0
    return False, -win_score(p, stones + 1), win_score(p, stones + 2)


def moves(a, b, p):
    stones = count(b)
    if winning_cells(a, b, p) != 0:  # a win now: no move to search
        score = win_score(p, stones)
        return Word(0), score, score
    if b == p[BOARD]:
        return Word(0), 0, 0
    # nobody wins at once now: the opponent's next stone at best, and the mover's one after
    return playable(b, p), -win_score(p, stones + 1), win_score(p, stones + 2)


def play(a, b, move, p):
    return a ^ b, b | move


def order(a, b, move, p):
    """The lines through the cell that the opponent has not blocked."""
    open_lines = 0
    for line in p[LINES]:
        if line & move != 0 and line & (a ^ b) == 0:
            open_lines += 1
    return open_lines


def key(a, b, p):
    if p[GRAVITY]:
        return a + b
    return (b << Word(32)) | a


# -- the game, for moves, text and values ----------------------------------------------------------------------
class KInARow(Game):
    """k in a row on a board of ``width`` x ``height``, with gravity or without."""

    primitive_first = True  # a line made ends the game: its moves are never asked

    def __init__(self, width=5, height=4, k=4, gravity=True):
        if width * (height + 1) > (64 if gravity else 32):
            raise ValueError(f"{width}x{height} is too big: width * (height + 1) is at most 64 with gravity, 32 "
                             "without")
        self.width, self.height, self.k, self.gravity = width, height, k, gravity
        self.name = f"{k}-in-a-row {width}x{height}" + (" with gravity" if gravity else "")
        self.cells = width * height
        board = sum(1 << self.bit(r, c) for r in range(height) for c in range(width))
        bottom = sum(1 << self.bit(0, c) for c in range(width))
        self.p = (self.cells, Word(board), Word(bottom), int(gravity), tuple(self.lines()))

    def bit(self, row, col):
        return col * (self.height + 1) + row

    def lines(self):
        """Every line of k cells, as a bitboard."""
        for r in range(self.height):
            for c in range(self.width):
                for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                    cells = [(r + i * dr, c + i * dc) for i in range(self.k)]
                    if all(0 <= rr < self.height and 0 <= cc < self.width for rr, cc in cells):
                        yield Word(sum(1 << self.bit(rr, cc) for rr, cc in cells))

    def start(self):
        return 0, 0

    def primitive(self, position):
        a, b = position
        if has_line(a ^ b, self.p):
            return LOSE
        return TIE if b == self.p[BOARD] else None

    def moves(self, position):
        free = int(playable(Word(position[1]), self.p))
        return [1 << i for i in range(64) if free >> i & 1]

    def do_move(self, position, move):
        a, b = position
        return a ^ b, b | move

    def score_search(self):
        return SearchRules(self, start=start, moves=moves, play=play, order=order, key=key, parameters=self.p,
                           value=self.value_of)

    def value_of(self, position, score):
        """What a score means: the outcome, and the plies to the end (the winner's last stone, or a full board)."""
        stones = position[1].bit_count()
        if score == 0:
            return Value(TIE, self.cells - stones)
        plies = self.cells + 2 - stones - 2 * abs(score)  # or one fewer: the one of the winner's parity
        if plies % 2 != (1 if score > 0 else 0):
            plies -= 1
        return Value(WIN if score > 0 else LOSE, plies)

    # -- text: rows top to bottom, / between them; X moves first ---------------------------------------------
    def format_position(self, position):
        a, b = position
        x = a if b.bit_count() % 2 == 0 else a ^ b
        return "/".join("".join("X" if x >> self.bit(r, c) & 1 else "O" if b >> self.bit(r, c) & 1 else "."
                                for c in range(self.width)) for r in reversed(range(self.height)))

    def parse_position(self, text):
        rows = text.strip().split("/")
        if len(rows) != self.height or any(len(row) != self.width for row in rows):
            raise GamedpError(f"write {self.height} rows of {self.width} cells (X, O or .), top row first, "
                             "with / between them")
        x = o = 0
        for r, row in zip(reversed(range(self.height)), rows):
            for c, cell in enumerate(row.upper()):
                if cell not in "XO.":
                    raise GamedpError(f"{cell!r} is not a cell: write X, O or .")
                x |= (cell == "X") << self.bit(r, c)
                o |= (cell == "O") << self.bit(r, c)
        if x.bit_count() - o.bit_count() not in (0, 1):
            raise GamedpError("X moves first: X has as many stones as O, or one more")
        b = x | o
        if self.gravity and (b + int(self.p[BOTTOM])) & b:
            raise GamedpError("a stone floats: with gravity, stones lie on the bottom row or on a stone")
        return (x if x.bit_count() == o.bit_count() else o), b

    def format_move(self, position, move):
        i = move.bit_length() - 1
        return "abcdefghijklmnopqrstuvwxyz"[i // (self.height + 1)] + str(i % (self.height + 1) + 1)


game = KInARow()
