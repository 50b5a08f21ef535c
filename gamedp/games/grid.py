"""The grid game family (Baekjoon 28218 and relatives): tokens walking down and right on a board.

A board has N x M cells, open (``.``) or blocked (``#``), and a longest diagonal jump K. A move takes one
token down one cell, right one cell, or diagonally down-right by 1..K cells; only the landing cell must be open
(diagonal moves fly over ``#``), and it must be on the board. Tokens never block each other: several tokens are
a *sum* of games, and a move moves one of them.

- Normal play (a player with no move loses) or misere play (a player with no move wins).
- Every open cell is a position, whether or not it can reach (N, M): a cell with no move is an ordinary end
  of the game (the mover loses in normal play, wins in misere play). The bottom-right cell need not be open.
- :meth:`GridBoard.losing` solves win/lose for every cell in O(N*M), whatever K; :meth:`GridBoard.grundy`
  gives every cell's nimber (see :mod:`gamedp.kernels.grid` for its cost), so sums of tokens, on one board or
  on several, are solved by XOR under normal play, with the token to move (:func:`sum_moves`).
  Under misere play nimbers do not add; :class:`GridGame` then solves a sum by search over the joint positions.

Cells are 0-based ``(row, column)`` pairs in the API and 1-based ``row,column`` in text, as in the judge.

>>> board = GridBoard(["....", ".#..", "...."], k=2)        # the third official sample, but K = 2
>>> board.moves((0, 0))                                   # down, right, and jumps over '#'
[(1, 0), (0, 1), (2, 2)]

Solving runs compiled kernels (built on first use, so these lines are not run as doctests; tests/test_grid.py
checks the same against a brute force):

>>> board.outcome((2, 1)), board.outcome((2, 1), misere=True)       # doctest: +SKIP
(Outcome.LOSE, Outcome.WIN)
>>> game = GridGame(board, tokens=[(0, 2), (2, 1)])                # two tokens: a sum
>>> game.nimber(game.start())                                       # doctest: +SKIP
3
>>> [game.format_move(game.start(), mv) for mv in game.winning_moves(game.start())]  # doctest: +SKIP
['1,3-1,4']
"""

from __future__ import annotations

import re
from functools import cached_property
from typing import Iterable, Sequence

import numpy as np

from gamedp.errors import GamedpError, InputError, parse_count, require_text
from gamedp.game import Game
from gamedp.values import LOSE, WIN, Outcome

Cell = tuple[int, int]
BLOCKED, OPEN = ord("#"), ord(".")
#: Token marks in a drawing: ``o`` one token, a digit 2-9 that many on one cell.
TOKEN = "o"


def _kernels():
    from gamedp.aot import load_kernels

    return load_kernels("gamedp.kernels.grid")


class GridBoard:
    """An N x M board of open and blocked cells with the longest diagonal jump K, solved on demand.

    ``rows`` are strings of ``.`` and ``#`` (or a uint8 array of those characters).

    >>> b = GridBoard(["..", ".."], k=1)
    >>> b.losing().astype(int).tolist()     # doctest: +SKIP
    [[0, 0], [0, 1]]
    >>> b.grundy().tolist()                 # doctest: +SKIP
    [[2, 1], [1, 0]]
    """

    def __init__(self, rows: Sequence[str] | np.ndarray, k: int):
        if isinstance(rows, np.ndarray):
            cells = np.ascontiguousarray(rows, dtype=np.uint8)
        else:
            rows = list(rows)
            if not rows or not rows[0]:
                raise GamedpError("a grid board needs at least one row and one column")
            width = len(rows[0])
            for i, row in enumerate(rows, 1):
                if len(row) != width:
                    raise GamedpError(f"grid row {i} has {len(row)} cells; row 1 has {width}")
            try:
                cells = np.frombuffer("".join(rows).encode("ascii"), dtype=np.uint8).reshape(len(rows), width)
            except UnicodeEncodeError:
                raise GamedpError("grid rows may hold only '.' (open) and '#' (blocked)") from None
        if cells.ndim != 2 or cells.size == 0:
            raise GamedpError("a grid board needs at least one row and one column")
        bad = (cells != OPEN) & (cells != BLOCKED)
        if bad.any():
            r, c = map(int, np.argwhere(bad)[0])
            raise GamedpError(f"grid cell {r + 1},{c + 1} is {chr(cells[r, c])!r}; cells are '.' (open) or '#'")
        if not isinstance(k, (int, np.integer)) or isinstance(k, bool) or k < 0:
            raise GamedpError(f"the longest diagonal jump K must be a non-negative integer, not {k!r}")
        self._buf = cells.reshape(-1)  # row r at r * m: the kernels' (offset, stride) are (0, m)
        self.n, self.m, self.k = int(cells.shape[0]), int(cells.shape[1]), int(k)
        self._losing: dict[bool, np.ndarray] = {}

    # -- the board -------------------------------------------------------------------------------------
    @cached_property
    def cells(self) -> np.ndarray:
        """The N x M uint8 array of cell characters (a read-only view of the board's buffer)."""
        cells = self._buf.reshape(self.n, self.m).view()
        cells.flags.writeable = False
        return cells

    @property
    def rows(self) -> list[str]:
        return [row.tobytes().decode("ascii", "replace") for row in self.cells]

    def is_open(self, cell: Cell) -> bool:
        r, c = cell
        return 0 <= r < self.n and 0 <= c < self.m and self._buf[r * self.m + c] != BLOCKED

    def moves(self, cell: Cell) -> list[Cell]:
        """The cells one move away from ``cell``: down, right, then the diagonal jumps, shortest first."""
        r, c = cell
        longest = min(self.k, self.n - 1 - r, self.m - 1 - c)
        targets = [(r + 1, c), (r, c + 1)] + [(r + j, c + j) for j in range(1, longest + 1)]
        return [t for t in targets if self.is_open(t)]

    def __str__(self) -> str:
        return f"{self.n} {self.m} {self.k}\n" + "\n".join(self.rows)

    def __repr__(self) -> str:
        return f"<GridBoard {self.n}x{self.m} K={self.k}>"

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, GridBoard) and (self.n, self.m, self.k) == (other.n, other.m, other.k)
                and bool(((self.cells == BLOCKED) == (other.cells == BLOCKED)).all()))

    __hash__ = None  # boards are compared by content, and are large: not table keys

    @classmethod
    def parse(cls, text: str, source: str = "board", k_within_board: bool = False) -> GridBoard:
        """A board in the judge's layout: a line ``N M K``, then N rows of ``.``/``#`` (later lines are left).

        With ``k_within_board``, K must be at most min(N-1, M-1), as the judge says. Errors name the line.

        >>> GridBoard.parse("2 2 1\\n..\\n.#").rows
        ['..', '.#']
        >>> GridBoard.parse("2 2 1\\n..\\n.x")
        Traceback (most recent call last):
        ...
        gamedp.errors.InputError: board, line 3, column 2: 'x' is not a cell: cells are '.' (open) or '#' (blocked)
        """
        lines = text.split("\n")  # only "\n" ends a line, as in the judge's fast reader; "\r" is trailing space
        require_text(text, "'N M K' on the first line", source)
        head = list(re.finditer(r"\S+", lines[0]))
        if len(head) != 3:
            raise InputError(f"expected 'N M K' (three non-negative integers), found {lines[0].strip()[:60]!r}", 1,
                             source=source)
        n, m, k = (parse_count(t.group(), name, 1, t.start() + 1, source) for t, name in zip(head, "NMK"))
        if n < 1 or m < 1:
            raise InputError(f"N and M must be at least 1, not N = {n}, M = {m}", 1, source=source)
        if k_within_board and k > min(n - 1, m - 1):
            raise InputError(f"K = {k} is out of range: 0 <= K <= min(N-1, M-1) = {min(n - 1, m - 1)}", 1,
                             head[2].start() + 1, source=source)
        rows = []
        for i in range(1, n + 1):
            if i >= len(lines) or i == len(lines) - 1 and not lines[i].strip():
                raise InputError(f"the input ended before row {i} of the {n} board rows", i + 1, source=source)
            row = lines[i].rstrip()
            bad = re.search(r"[^.#]", row)
            if bad:
                raise InputError(f"{bad.group()!r} is not a cell: cells are '.' (open) or '#' (blocked)", i + 1,
                                 bad.start() + 1, source=source)
            if len(row) != m:
                raise InputError(f"row {i} has {len(row)} cells; expected M = {m}", i + 1, source=source)
            rows.append(row)
        return cls(rows, k)

    # -- solving ---------------------------------------------------------------------------------------
    def losing_flat(self, misere: bool = False) -> np.ndarray:
        """``losing`` as a flat array indexed ``r * M + c`` (computed once per play convention)."""
        lose = self._losing.get(misere)
        if lose is None:
            lose = np.empty(self.n * self.m, dtype=np.uint8)
            kernels = _kernels()
            kernels.solve_outcomes(self._kernel_input(kernels), 0, self.m, self.n, self.m, self._jump, bool(misere),
                                   lose)
            self._losing[misere] = lose
        return lose

    def losing(self, misere: bool = False) -> np.ndarray:
        """N x M booleans: True where the player to move from that open cell loses (False on ``#``). O(N*M)."""
        return self.losing_flat(misere).reshape(self.n, self.m).view(bool)

    @property
    def _jump(self) -> int:
        # Jumps longer than the board change nothing; clamped, K never overflows the kernels' int64 arithmetic.
        return min(self.k, max(self.n, self.m))

    def _kernel_input(self, kernels) -> np.ndarray:
        # Ahead-of-time kernels read a read-only buffer (the rows' text, seen by np.frombuffer) in place; numba's
        # JIT fallback insists on a writable array.
        if kernels.compiled == "aot" or self._buf.flags.writeable:
            return self._buf
        self._buf = self._buf.copy()
        return self._buf

    def outcome(self, cell: Cell, misere: bool = False) -> Outcome:
        """WIN or LOSE for the player to move a single token from ``cell``."""
        self._check_cell(cell)
        return LOSE if self.losing_flat(misere)[cell[0] * self.m + cell[1]] else WIN

    @cached_property
    def _grundy(self) -> np.ndarray:
        g = np.empty(self.n * self.m, dtype=np.int32)
        kernels = _kernels()
        kernels.grundy(self._kernel_input(kernels), 0, self.m, self.n, self.m, self._jump, g)
        return g.reshape(self.n, self.m)

    def grundy(self) -> np.ndarray:
        """N x M int32 nimbers (normal play) of every open cell, -1 on ``#``."""
        return self._grundy

    def nimber(self, cell: Cell) -> int:
        self._check_cell(cell)
        return int(self._grundy[cell])

    def _check_cell(self, cell: Cell) -> None:
        r, c = cell
        if not (0 <= r < self.n and 0 <= c < self.m):
            raise GamedpError(f"cell {r + 1},{c + 1} is off the {self.n}x{self.m} board")
        if not self.is_open(cell):
            raise GamedpError(f"cell {r + 1},{c + 1} is '#'; a token stands on an open cell")


def sum_moves(parts: Sequence[tuple[GridBoard, Cell]]) -> list[tuple[int, Cell]]:
    """The winning moves of a sum of tokens under normal play, as (part index, destination) pairs.

    Each part is one token on a board (the same board or different ones). The sum is lost for the mover iff
    the XOR of the tokens' nimbers is 0; otherwise exactly the moves of a token of nimber g to a cell of
    nimber g ^ xor win.
    An empty list means the mover loses.

    >>> b = GridBoard(["...", "..."], k=1)
    >>> sum_moves([(b, (0, 0)), (b, (0, 0))])       # doctest: +SKIP
    []
    >>> sum_moves([(b, (0, 0)), (b, (1, 1))])       # doctest: +SKIP
    [(0, (1, 1))]
    """
    total = 0
    for board, cell in parts:
        total ^= board.nimber(cell)
    if total == 0:
        return []
    winning = []
    for i, (board, cell) in enumerate(parts):
        # A child of nimber g ^ total exists whenever that is below g (mex), and may exist above g too.
        target = board.nimber(cell) ^ total
        winning += [(i, to) for to in board.moves(cell) if board._grundy[to] == target]
    return winning


#: The built-in example: a board with walls, diagonal jumps up to 2, two tokens.
DEFAULT_ROWS = ("......", ".#..#.", "...#..", "#.....", "..#...")
DEFAULT_TOKENS = ((0, 0), (1, 2))


class GridGame(Game):
    """Tokens on a grid board as one game; a position is the sorted tuple of the tokens' cells.

    Text: a position is drawn as the board with ``o`` on a token's cell (a digit for several tokens on one cell),
    and may be typed that way or as a list of 1-based cells (``1,1 2,3``). A move is ``from-to``, e.g.
    ``1,1-2,2``; with a single token its destination alone (``2,2``) will do.

    >>> game = GridGame()
    >>> print(game.format_position(game.start()))
    o.....
    .#o.#.
    ...#..
    #.....
    ..#...
    >>> game.parse_position("2,3 1,1") == game.start()
    True
    """

    name = "grid"

    def __init__(self, board: GridBoard | None = None, tokens: Iterable[Cell] | None = None, misere: bool = False):
        self.board = board if board is not None else GridBoard(DEFAULT_ROWS, k=2)
        if tokens is None:  # the built-in example's tokens, or one token in the top-left corner
            tokens = DEFAULT_TOKENS if board is None else [(0, 0)]
        self._start = self._position(tokens)
        self.misere = misere
        if misere:
            self.name = "grid-misere"

    def _position(self, cells: Iterable[Cell]) -> tuple[Cell, ...]:
        position = tuple(sorted((int(r), int(c)) for r, c in cells))
        if not position:
            raise GamedpError("a grid position needs at least one token")
        for cell in position:
            self.board._check_cell(cell)
        return position

    # -- rules -----------------------------------------------------------------------------------------
    def start(self) -> tuple[Cell, ...]:
        return self._start

    def moves(self, position: tuple[Cell, ...]) -> list[tuple[Cell, Cell]]:
        seen: set[Cell] = set()
        result = []
        for cell in position:
            if cell not in seen:  # tokens on one cell are interchangeable
                seen.add(cell)
                result += [(cell, to) for to in self.board.moves(cell)]
        return result

    def do_move(self, position: tuple[Cell, ...], move: tuple[Cell, Cell]) -> tuple[Cell, ...]:
        src, dst = move
        tokens = list(position)
        tokens.remove(src)
        tokens.append(dst)
        return tuple(sorted(tokens))

    # -- fast answers from the tables ----------------------------------------------------------------
    def nimber(self, position: tuple[Cell, ...]) -> int:
        """The nimber of the sum of tokens (normal play)."""
        total = 0
        for cell in position:
            total ^= self.board.nimber(cell)
        return total

    def outcome(self, position: tuple[Cell, ...]) -> Outcome:
        """WIN or LOSE for the mover: from the tables for one token, or for any number under normal play.

        A misere sum of several tokens is solved by search over joint positions (exact, but exponential in
        the number of tokens), as nimbers do not add under misere play.
        """
        if len(position) == 1:
            return self.board.outcome(position[0], self.misere)
        if not self.misere:
            return WIN if self.nimber(position) else LOSE
        from gamedp.solvers.memo import solve

        return solve(self, position, outcomes_only=True).value(position).outcome

    def winning_moves(self, position: tuple[Cell, ...]) -> list[tuple[Cell, Cell]]:
        """Every winning move (``(from, to)``); empty when the mover loses, or has no move (a misere win)."""
        if self.misere:
            from gamedp.solvers.memo import Solution

            solution = Solution(self, outcomes_only=True)
            return [mv for mv in self.moves(position)
                    if solution.value(self.do_move(position, mv)).outcome is LOSE]
        if len(position) == 1:
            lose = self.board.losing()
            return [(position[0], to) for to in self.board.moves(position[0]) if lose[to]]
        found = sum_moves([(self.board, cell) for cell in position])
        return list(dict.fromkeys((position[i], to) for i, to in found))

    # -- text ------------------------------------------------------------------------------------------
    def format_position(self, position: tuple[Cell, ...]) -> str:
        rows = [list(row) for row in self.board.rows]
        for cell in set(position):
            count = position.count(cell)
            rows[cell[0]][cell[1]] = TOKEN if count == 1 else str(count) if count < 10 else "*"
        return "\n".join("".join(row) for row in rows)

    def parse_position(self, text: str) -> tuple[Cell, ...]:
        lines = [line.strip() for line in text.strip().splitlines()]
        if lines and all(re.fullmatch(r"[.#o2-9]+", line) for line in lines) and ("." in text or "#" in text):
            return self._parse_drawing(lines)
        numbers = re.findall(r"-?\d+", text)
        junk = re.sub(r"[-\d\s,;()]", "", text)
        if junk or not numbers or len(numbers) % 2:
            raise GamedpError(f"a grid position is a drawing of the board with 'o' on tokens, or 1-based cells "
                              f"'row,column' separated by spaces (e.g. '1,1 2,3'), not {text.strip()!r}")
        values = [int(x) for x in numbers]
        return self._position((values[i] - 1, values[i + 1] - 1) for i in range(0, len(values), 2))

    def _parse_drawing(self, lines: list[str]) -> tuple[Cell, ...]:
        if len(lines) != self.board.n or any(len(line) != self.board.m for line in lines):
            raise GamedpError(f"the drawing is not {self.board.n} rows of {self.board.m} cells, as this board is")
        tokens: list[Cell] = []
        for r, (line, row) in enumerate(zip(lines, self.board.rows)):
            for c, (ch, wall) in enumerate(zip(line, row)):
                if (ch == "#") != (wall == "#"):
                    raise GamedpError(f"cell {r + 1},{c + 1} is {ch!r} in the drawing but {wall!r} on this board")
                if ch not in ".#":
                    tokens += [(r, c)] * (1 if ch == TOKEN else int(ch))
        return self._position(tokens)

    def format_move(self, position: tuple[Cell, ...], move: tuple[Cell, Cell]) -> str:
        (r, c), (r2, c2) = move
        return f"{r + 1},{c + 1}-{r2 + 1},{c2 + 1}"

    def parse_move(self, position: tuple[Cell, ...], text: str) -> tuple[Cell, Cell]:
        numbers = re.findall(r"\d+", text)
        if len(numbers) == 2 and len(set(position)) == 1 and not re.search(r"[^\d\s,()]", text):
            text = f"{position[0][0] + 1},{position[0][1] + 1}-{numbers[0]},{numbers[1]}"
        return super().parse_move(position, text)
