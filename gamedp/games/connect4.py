"""Connect-N with gravity: players drop stones into the columns of a W x H board; K in a row wins.

``connect4`` is the classic 7 x 6 board with 4 to connect; ``connect4:WxH`` and ``connect4:WxH:K`` name other
boards (any W <= 9 with W * (H + 1) <= 64). A full board with no line is a TIE. X moves first.

A position is one integer, the *key* of a column-major bitboard with H + 1 bits per column: column c holds, from
its lowest bit, the stones of the player to move among its h stones, then a 1 at bit h marking the height. So the
empty board is one bit per column, and the key says both the stones and whose turn it is (the parity of the
stones). The spare bit at the top of each column keeps line tests from wrapping into the next column.

Positions are written as the columns played, ``4453`` (columns 1..W from the left; the empty text is the start),
or as the drawn board, top row first, ``X``/``O``/``.`` cells (spaces, ``/`` between rows, a trailing
column-number line and "X to move" are ignored). Moves are column numbers.

>>> game = Connect4(4, 4)
>>> p = game.parse_position("1213")
>>> print(game.format_position(p))
. . . .
. . . .
X . . .
X O O .
1 2 3 4
X to move
>>> [game.format_move(p, m) for m in game.moves(p)]
['1', '2', '3', '4']
>>> game.parse_position(game.format_position(p)) == p
True
>>> game.primitive(game.parse_position("121212")) is None              # X has three in column 1
True
>>> game.primitive(game.parse_position("1212121"))                    # X's fourth: O, to move, has lost
Outcome.LOSE
>>> game.parse_position("5")
Traceback (most recent call last):
...
gamedp.errors.GamedpError: connect4 4x4: column 5 at move 1 is not a column of this board (1..4)
"""

from __future__ import annotations

import math
import re
from typing import Any

from gamedp.errors import GamedpError
from gamedp.game import Game
from gamedp.games.connect4_board import (COMPILED_BITS, MAX_BITS, bottom_mask, children_into, drop, full_mask,
                                         has_line, mirror_key, primitive_code, split_key)
from gamedp.games.registry import GAMES
from gamedp.values import LOSE, TIE, Outcome

MAX_WIDTH = 9  # columns are named by one digit
EXAMPLE_BYTES = 4 << 20  # a search from the example position: about a second


# -- the rules on integer keys: plain functions that numba also compiles (see :meth:`Connect4.compiled`) --------
class Connect4(Game):
    """Connect-N with gravity on a ``width`` x ``height`` board, ``connect`` in a row to win."""

    primitive_first = True  # an ended board is never asked for its moves
    #: how a position is written, for messages
    notation = "the columns played, e.g. 4453, or the board drawn"

    def __init__(self, width: int = 7, height: int = 6, connect: int = 4, symmetry: bool = True):
        for label, value in (("width", width), ("height", height), ("connect", connect)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise GamedpError(f"connect4: {label} must be a whole number >= 1, not {value!r}")
        if width > MAX_WIDTH or width * (height + 1) > MAX_BITS:
            raise GamedpError(f"connect4: a {width}x{height} board is too big; width is at most {MAX_WIDTH} and "
                              f"width * (height + 1) at most {MAX_BITS} (7x6 is the classic board)")
        self.width, self.height, self.connect = width, height, connect
        self.symmetry = symmetry
        self.name = GAMES["connect4"].name_of({"width": width, "height": height, "connect": connect})
        self.stride = height + 1
        self.bottom = bottom_mask(width, height)
        self.full = full_mask(width, height)
        self._column_shifts = [c * self.stride for c in range(width)]
        self._column_bits = (1 << self.stride) - 1
        self._column_masks = [self._column_bits << shift for shift in self._column_shifts]
        self._top_row = self.bottom << height  # a marker here: the column is full
        self._centre_first = sorted(range(width), key=lambda c: (abs(2 * c - (width - 1)), c))
        self._line_shifts = [d for d in (1, self.stride - 1, self.stride, self.stride + 1) if 3 * d < MAX_BITS]
        self._evaluation: Any = None  # the horizon's estimate, made when a depth-limited search first asks

    @property
    def label(self) -> str:
        """The board in words, for messages: ``connect4 7x6`` (and the line length when not 4)."""
        return f"connect4 {self.width}x{self.height}" + ("" if self.connect == 4 else f" connect {self.connect}")

    # -- rules ---------------------------------------------------------------------------------------------------
    def start(self) -> int:
        return self.bottom

    def moves(self, key: int) -> list[int]:
        if self.primitive(key) is not None:
            return []
        return [c for c in range(self.width) if self.column_height(key, c) < self.height]

    def do_move(self, key: int, column: int) -> int:
        return drop(key, column, self.width, self.height)

    def primitive(self, key: int) -> Outcome | None:
        markers = self._markers(key)
        if self._has_line((key ^ markers) ^ (markers - self.bottom)):  # the stones of the player who just moved
            return LOSE
        return TIE if markers - self.bottom == self.full else None

    def children(self, key: int) -> list[int]:
        return self._children(key, range(self.width))

    def ordered_children(self, key: int) -> list[int]:
        """The children, centre columns first: the moves most often best, for the pruned search."""
        return self._children(key, self._centre_first)

    # The key is the mover's stones OR one marker bit per column (just above its stones): the marker is the
    # column's highest bit, and the markers less the bottom row are the occupied cells.
    def _markers(self, key: int) -> int:
        markers = 0
        for shift in self._column_shifts:
            markers |= 1 << (((key >> shift) & self._column_bits).bit_length() - 1 + shift)
        return markers

    def _children(self, key: int, columns: Any) -> list[int]:
        return [child for _, child in self._moves(key, columns)]

    def move_list(self, key: int, limit: int | None = None) -> list[tuple[int, int]]:
        # the game's rules ask each move's position of do_move, which splits the key each time: an opening book's
        # walk asks the moves of tens of thousands of positions
        moves = self._moves(key, range(self.width))
        return moves if limit is None else moves[:limit + 1]

    def _moves(self, key: int, columns: Any) -> list[tuple[int, int]]:
        """The open columns of ``columns`` with the positions a stone there makes (none once a line is made)."""
        markers = self._markers(key)
        mask = markers - self.bottom
        if self._has_line((key ^ markers) ^ mask):
            return []
        opponent = key ^ markers ^ mask
        top = self._top_row
        moves = []
        for c in columns:
            marker = markers & self._column_masks[c]
            if not marker & top:
                moves.append((c, opponent | (markers + marker)))
        return moves

    def _has_line(self, stones: int) -> bool:
        if self.connect != 4:
            return has_line(stones, self.height, self.connect)
        for shift in self._line_shifts:  # two in a row, then two such pairs: four
            pairs = stones & (stones >> shift)
            if pairs & (pairs >> (2 * shift)):
                return True
        return False

    def heuristic(self, key: int) -> float:
        """An estimate for the player to move, in -1..1, for depth-limited play: the threats each side can still
        complete, the lines open to it and the centre (:mod:`gamedp.games.connect4_eval`).

        >>> game = Connect4()
        >>> game.heuristic(game.start()), game.heuristic(game.parse_position("4")) < 0
        (0.0, True)
        """
        if self._evaluation is None:
            from gamedp.games.connect4_eval import Evaluation

            self._evaluation = Evaluation(self.width, self.height, self.connect)
        markers = self._markers(key)
        return self._evaluation(key ^ markers, markers - self.bottom)

    def memory_estimate(self, key: int) -> int:
        """Bytes the memo engine (analyze, play) may need to search from ``key``: at most every board whose columns
        are at least as high, the new stones shared out between the two players in turn (ended games and mirror
        images are not taken off: 201,755 boards for 4x4, where 161,029 are reachable).

        >>> from gamedp.solvers.memo import BYTES_PER_POSITION
        >>> Connect4(4, 4).memory_estimate(Connect4(4, 4).start()) // BYTES_PER_POSITION
        201755
        >>> Connect4().memory_estimate(Connect4().start()) > 10 ** 15   # the classic board: far too big
        True
        """
        from gamedp.solvers.memo import BYTES_PER_POSITION

        ways = [1]  # ways[k]: the ways to drop k more stones into the columns seen so far
        for c in range(self.width):
            free = self.height - self.column_height(key, c)
            new = [0] * (len(ways) + free)
            for k, count in enumerate(ways):
                for more in range(free + 1):
                    new[k + more] += count
            ways = new
        return sum(count * math.comb(k, k // 2) for k, count in enumerate(ways)) * BYTES_PER_POSITION

    def example(self) -> int:
        """A position to try the commands on: the start where a whole search from it is quick, else the board
        filled (without a line) until one is.

        >>> Connect4(4, 3).example() == Connect4(4, 3).start()
        True
        >>> Connect4().format_position_line(Connect4().example())
        '......./X..O..X/OXXXOOO/XOOOXXX/OXXXOOO/XOOOXXX'
        """
        key = self.start()
        for step in range(self.width * self.height):
            if self.memory_estimate(key) <= EXAMPLE_BYTES:
                break
            for shift in range(self.width):
                column = (3 * step + shift) % self.width
                if self.column_height(key, column) < self.height:
                    child = self.do_move(key, column)
                    if self.primitive(child) is None:
                        key = child
                        break
            else:
                break  # every move ends the game: this is as far as it goes
        return key

    def canonical(self, key: int) -> int:
        return min(key, mirror_key(key, self.width, self.height)) if self.symmetry else key

    def column_height(self, key: int, column: int) -> int:
        segment = (key >> (column * self.stride)) & ((1 << self.stride) - 1)
        return segment.bit_length() - 1

    def stones(self, key: int) -> int:
        return sum(self.column_height(key, c) for c in range(self.width))

    def cells(self, key: int) -> list[list[str]]:
        """The board as rows of ``X``/``O``/``.``, top row first."""
        mover, mask = split_key(key, self.width, self.height)
        mine, theirs = ("X", "O") if self.stones(key) % 2 == 0 else ("O", "X")
        rows = []
        for r in range(self.height - 1, -1, -1):
            row = []
            for c in range(self.width):
                bit = 1 << (c * self.stride + r)
                row.append(mine if mover & bit else theirs if mask & bit else ".")
            rows.append(row)
        return rows

    # -- text ----------------------------------------------------------------------------------------------------
    def format_position(self, key: int) -> str:
        rows = [" ".join(row) for row in self.cells(key)]
        rows.append(" ".join(str(c + 1) for c in range(self.width)))
        rows.append(f"{'X' if self.stones(key) % 2 == 0 else 'O'} to move")
        return "\n".join(rows)

    def format_position_line(self, key: int) -> str:
        """The board on one line, rows top first separated by ``/`` (what the JSON and ``--line`` show).

        >>> Connect4(4, 4).format_position_line(Connect4(4, 4).parse_position("12"))
        '..../..../..../XO..'
        """
        return "/".join("".join(row) for row in self.cells(key))

    def format_move(self, key: int, column: int) -> str:
        return str(column + 1)

    def parse_position(self, text: str) -> int:
        """A position from the columns played (``4453``) or from its drawing (rows of ``X``/``O``/``.``)."""
        compact = "".join(text.split())
        if re.fullmatch(r"[0-9]*", compact):
            return self._play(compact)
        return self._read_board(text)

    def _play(self, columns: str) -> int:
        key = self.start()
        for i, ch in enumerate(columns, 1):
            column = int(ch) - 1
            if not 0 <= column < self.width:
                raise GamedpError(f"{self.label}: column {ch} at move {i} is not a column of this board "
                                  f"(1..{self.width})")
            if self.primitive(key) is not None:
                raise GamedpError(f"{self.label}: the game is over before move {i} ({columns[:i - 1]} ends it)")
            if self.column_height(key, column) >= self.height:
                raise GamedpError(f"{self.label}: column {ch} at move {i} is full")
            key = self.do_move(key, column)
        return key

    def _read_board(self, text: str) -> int:
        compact = "".join(text.split()).replace("/", "").upper()
        compact = re.sub(r"[XO]TOMOVE$", "", compact)
        labels = "".join(str(c + 1) for c in range(self.width))
        if compact.endswith(labels):
            compact = compact[:-len(labels)]
        cells = self.width * self.height
        if len(compact) != cells or set(compact) - set("XO."):
            raise GamedpError(f"{self.label}: a position is the columns played (e.g. 4453) or the board drawn as "
                              f"{self.height} rows of {self.width} cells X, O or '.', top row first")
        x = o = mask = 0
        for i, ch in enumerate(compact):
            r, c = self.height - 1 - i // self.width, i % self.width
            bit = 1 << (c * self.stride + r)
            if ch != ".":
                mask |= bit
                if ch == "X":
                    x |= bit
                else:
                    o |= bit
        if mask & ~self.full or ((mask + self.bottom) & mask):  # a stone above an empty cell
            for c in range(self.width):
                column = (mask >> (c * self.stride)) & ((1 << self.height) - 1)
                if column & (column + 1):
                    raise GamedpError(f"{self.label}: column {c + 1} has a stone above an empty cell; stones fall "
                                      "to the bottom")
        nx, no = x.bit_count(), o.bit_count()
        if nx - no not in (0, 1):
            raise GamedpError(f"{self.label}: {nx} X and {no} O cannot happen: X moves first, so X has as many "
                              "stones as O or one more")
        mover, other = (x, o) if nx == no else (o, x)
        if has_line(mover, self.height, self.connect):
            raise GamedpError(f"{self.label}: the player to move already has {self.connect} in a row, so the game "
                              "ended before this position")
        if has_line(other, self.height, self.connect) and self._still_won_without_last(other, mask):
            raise GamedpError(f"{self.label}: {'X' if other is x else 'O'} has {self.connect} in a row without "
                              "their last stone, so the game ended before this position")
        return mover + mask + self.bottom

    def _still_won_without_last(self, stones: int, mask: int) -> bool:
        """Whether every top stone of ``stones`` could be removed and a line would remain (an ended game)."""
        for c in range(self.width):
            column = (mask >> (c * self.stride)) & ((1 << self.stride) - 1)
            if column:
                top = 1 << (c * self.stride + column.bit_length() - 1)
                if stones & top and not has_line(stones & ~top, self.height, self.connect):
                    return False
        return True

    def score_search(self) -> Any:
        """The exact-score search's rules for this board (:mod:`gamedp.games.connect4_scores`): any position of
        a board too big to solve whole gets its exact value from a bounded table. None unless four in a row."""
        if self.connect != 4:
            return None
        from gamedp.games.connect4_scores import Connect4Scores

        return Connect4Scores(self)

    def tiered(self) -> Any:
        """The same board as a tiered game (see :mod:`gamedp.games.connect4_tiers`), for the tier solver; found
        through the registry of indexed games, since the tiered form is built on this one."""
        from gamedp.games.indexed import table_spec

        return table_spec("connect4", width=self.width, height=self.height, connect=self.connect)

    def saved_solution(self, outcomes_only: bool = False) -> Any:
        """This board's values from its database, if ``gamedp solve connect4`` made one (else None: search)."""
        from gamedp.solvers.database_answers import saved_solution

        return saved_solution(self, self.tiered(), lambda key: key, outcomes_only=outcomes_only)

    # -- compiled ------------------------------------------------------------------------------------------------
    def compiled(self) -> Any:
        """The same rules as a :class:`~gamedp.compiled.CompiledGame`: kernels over the same keys, written as
        plain functions, so that the pruned search is built with them ahead of time and runs without numba or
        numpy (:mod:`gamedp.solvers.prebuilt_search`); the other compiled engines make numba kernels of them."""
        from gamedp.compiled import CompiledGame

        width, height, connect = self.width, self.height, self.connect
        if width * (height + 1) > COMPILED_BITS:
            raise GamedpError(f"{self.label}: the compiled engines take boards with width * (height + 1) at most "
                              f"{COMPILED_BITS}; this one is answered by the score search (four in a row only)")

        # Closures over the board's three numbers only (the rules are globals): each board's kernels have their
        # own fingerprint, and numba can cache them on disk, one entry per board.
        def kernel_children(key, out):
            return children_into(key, width, height, connect, out)

        def kernel_primitive(key):
            return primitive_code(key, width, height, connect)

        return CompiledGame(self.name, self.start(), kernel_children, self.width, primitive=kernel_primitive,
                            format_position=self.format_position, parse_position=self.parse_position)
