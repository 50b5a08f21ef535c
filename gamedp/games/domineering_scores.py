"""Domineering for :class:`~gamedp.solvers.score_search.ScoreSearch`: who wins any board of up to 8 x 8 cells,
by the compiled search of :mod:`gamedp.kernels.domineering_search`, boards past it (up to 127 cells, 30 rows or
columns) by that of :mod:`gamedp.kernels.domineering_wide_search` (:class:`WideDomineeringScores`), and boards of
128 to 256 cells by that of :mod:`gamedp.kernels.domineering_big_search` (:class:`BigDomineeringScores`).

The search answers the outcome alone (its score is +1 for a win of the player to move, -1 for a loss): the
remoteness of a board this size is out of reach, and a game with no ties needs nothing else to be played well.

>>> from gamedp.games.placement import Domineering
>>> game = Domineering(3, 3)
>>> rules = DomineeringScores(game)
>>> f"{rules.frame(game.start()):016x}"    # the 3 x 3 board in the top-left corner of the 8 x 8 frame
'fffffffffff8f8f8'
>>> rules.value(game.start(), 1)
Value(outcome=Outcome.WIN, remoteness=None, score=None)
"""

from __future__ import annotations

from typing import Any

from gamedp.errors import GamedpError
from gamedp.solvers.score_search import MAX_PLIES, signed
from gamedp.values import LOSE, WIN, Value

_KERNELS = "gamedp.kernels.domineering_search"
_WIDE_KERNELS = "gamedp.kernels.domineering_wide_search"
_BIG_KERNELS = "gamedp.kernels.domineering_big_search"
#: The frame's side: boards up to this many rows and columns.
FRAME = 8
#: Boards past the frame: at most this many cells (the last of 128 bits says who moves) ...
WIDE_CELLS = 127
#: ... and this many rows or columns.
WIDE_SIDE = 30
#: Boards past 128 bits: at most this many cells (and WIDE_SIDE rows or columns).
BIG_CELLS = 256


def library(kernels: str = _KERNELS) -> Any:
    """The compiled search (see :func:`gamedp.native.entry_points`)."""
    from gamedp.native import entry_points

    return entry_points(kernels)


def transpose(frame: int) -> int:
    """The 8 x 8 frame flipped about its main diagonal (cell (r, c) to (c, r))."""
    out = 0
    for r in range(FRAME):
        for c in range(FRAME):
            if frame >> (FRAME * r + c) & 1:
                out |= 1 << (FRAME * c + r)
    return out


class DomineeringScores:
    """Domineering on a board of at most 8 rows and 8 columns, for the score search (outcomes only); larger
    boards take :class:`WideDomineeringScores`."""

    symmetric = True
    max_moves = 56  # the vertical dominoes of the 8 x 8 frame
    #: The search gives the outcome alone.
    outcomes_only = True
    #: Every game ends in a win (the player with no move loses): no score is 0.
    ties = False
    #: The table doubles at every position explored per slot, not four: a position's bounds cost far more than
    #: the cache misses of a bigger table (7x8: 29.6 million positions to 21.3 million, 30 to 22 CPU seconds).
    grow_after = 1

    def __init__(self, game: Any):
        rows, cols = game.rules.rows, game.rules.cols
        if rows > FRAME or cols > FRAME:
            raise GamedpError(f"{game.name} {rows}x{cols}: the search takes Domineering boards of at most "
                              f"{FRAME} rows and {FRAME} columns")
        self.game = game
        self.name = game.name if ":" in game.name else f"{game.name} {rows}x{cols}"

    def library(self) -> Any:
        return library()

    def frame(self, position: int) -> int:
        """``position`` as the search's frame, with Vertical to move (transposed if Horizontal is)."""
        rules = self.game.rules
        frame = (1 << FRAME * FRAME) - 1
        for r in range(rules.rows):
            for c in range(rules.cols):
                if not position >> (r * rules.cols + c) & 1:
                    frame &= ~(1 << (FRAME * r + c))
        return transpose(frame) if self.game.player(position) else frame

    def arguments(self, position: int) -> tuple[int, ...]:
        frame = self.frame(position)
        rows, cols = self.game.rules.rows, self.game.rules.cols
        shape = cols << 4 | rows if self.game.player(position) else rows << 4 | cols  # as the frame holds the board
        return signed(frame), shape

    def value(self, position: int, score: int) -> Value:
        return Value(WIN if score > 0 else LOSE)

    def children(self, position: int) -> list[tuple[Any, Any]]:
        return self.game.move_list(position)


class WideDomineeringScores(DomineeringScores):
    """Domineering on a board of up to :data:`WIDE_CELLS` cells and :data:`WIDE_SIDE` rows and columns, for the
    score search (outcomes only): the board in 128 bits, who moves in the last (see
    :mod:`gamedp.kernels.domineering_wide_search`). Boards that fit the 8 x 8 frame take :class:`DomineeringScores`
    (faster there); this one takes them too, which the tests use to check it against known answers.

    >>> from gamedp.games.placement import Domineering
    >>> game = Domineering(9, 9)
    >>> rules = WideDomineeringScores(game)
    >>> rules.arguments(game.parse_position("." * 81 + " H")) == (0, -(1 << 63), 9 << 8 | 9)
    True
    """

    max_moves = 126  # a bound on any board's (6 x 21 has 120)
    #: Words the search needs after its frames: a board's lines and their areas (as
    #: gamedp.kernels.domineering_wide_search.SCRATCH_WORDS, which imports numba).
    arena_words = 64
    #: The most cells of a board it takes, and a board to suggest past them.
    most_cells, example = WIDE_CELLS, "domineering:11x11"

    def __init__(self, game: Any):
        rows, cols = game.rules.rows, game.rules.cols
        if rows * cols > self.most_cells or max(rows, cols) > WIDE_SIDE:
            raise GamedpError(f"{game.name}: the search takes Domineering boards of at most {self.most_cells} cells "
                              f"and {WIDE_SIDE} rows or columns; try a smaller board, e.g. {self.example}")
        self.game = game
        self.name = game.name if ":" in game.name else f"{game.name} {rows}x{cols}"

    def library(self) -> Any:
        return library(_WIDE_KERNELS)

    def arguments(self, position: int) -> tuple[int, ...]:
        rules = self.game.rules
        board = position & rules.full
        high = board >> 64 | self.game.player(position) << 63
        return signed(board & (1 << 64) - 1), signed(high), rules.rows << 8 | rules.cols


class BigDomineeringScores(WideDomineeringScores):
    """Domineering on a board of :data:`WIDE_CELLS` + 1 to :data:`BIG_CELLS` cells (at most :data:`WIDE_SIDE` rows
    and columns: 12 x 12, 16 x 16, ...), for the score search (outcomes only), by
    :mod:`gamedp.kernels.domineering_big_search`: the board in four words and who moves beside them; the search
    keeps its boards in words of its own (:attr:`arena_words`). Smaller boards take the wide search; this one takes
    them too, which the tests use to check it against the wide one.

    >>> from gamedp.games.placement import Domineering
    >>> game = Domineering(16, 16)
    >>> BigDomineeringScores(game).arguments(game.parse_position("#" + "." * 255 + " H"))
    (1, 0, 0, 0, 69648)
    """

    max_moves = 256  # 16 x 16 has 240
    #: The search's words name boards kept in its own arena, not the boards: it is not split over workers.
    splits = False
    #: Words the search needs after its frames: the boards of its plies (as
    #: gamedp.kernels.domineering_big_search.ARENA_WORDS, which imports numba).
    arena_words = (MAX_PLIES + 2) * 64 + 40
    most_cells, example = BIG_CELLS, "domineering:16x16"

    def library(self) -> Any:
        return library(_BIG_KERNELS)

    def arguments(self, position: int) -> tuple[int, ...]:
        rules = self.game.rules
        board = position & rules.full
        words = [signed(board >> (64 * i) & (1 << 64) - 1) for i in range(4)]
        return (*words, self.game.player(position) << 16 | rules.rows << 8 | rules.cols)
