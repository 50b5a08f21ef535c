"""Connect-Four's exact scores for :class:`~gamedp.solvers.score_search.ScoreSearch`: the compiled search of
:mod:`gamedp.kernels.connect4_search`, a position's bitboards for it, and what a score means.

A win with the winner's last stone placed onto a board of n stones scores ``(W*H + 1 - n) // 2``, a loss the
negation, a tie 0 (on 7x6: 22 minus the winner's stones at the end, the field's benchmark scores). So with n
stones on the board now, a WIN of score s ends after d plies, d odd, where ``(W*H + 2 - n - d) // 2 == s``; a
LOSE after an even d likewise; a TIE when the board is full, after ``W*H - n`` plies.

>>> from gamedp.games.connect4 import Connect4
>>> rules = Connect4Scores(Connect4())
>>> start = Connect4().start()
>>> rules.value(start, 1)                  # the published result: X wins with its 21st stone, ply 41
Value(outcome=Outcome.WIN, remoteness=41, score=None)
>>> rules.score_bound(start)               # a win with X's first stone would score 21 (an opening book's bound)
21
>>> rules.value(Connect4().parse_position("4444"), -3)
Value(outcome=Outcome.LOSE, remoteness=34, score=None)
"""

from __future__ import annotations

import ctypes
import threading
from typing import TYPE_CHECKING, Any

from gamedp.errors import GamedpError
from gamedp.games.connect4_board import split_key
from gamedp.solvers.score_search import signed
from gamedp.values import LOSE, TIE, WIN, Value

if TYPE_CHECKING:  # the game offers these rules (its score_search hook): imported for its type only
    from gamedp.games.connect4 import Connect4

_KERNELS = "gamedp.kernels.connect4_search"


def library() -> Any:
    """The compiled search (see :func:`gamedp.native.entry_points`)."""
    from gamedp.native import entry_points

    return entry_points(_KERNELS)


class Connect4Scores:
    """Connect-Four (four in a row, any board of at most 64 cells with their spare bits) for the score search."""

    def __init__(self, game: Connect4):
        if game.connect != 4:
            raise GamedpError(f"{game.label}: the score search knows four in a row only")
        self.game = game
        self.name = game.label
        self.symmetric = game.symmetry
        self.cells = game.width * game.height
        self.max_moves = game.width
        self._buffer = (ctypes.c_int64 * 2)()
        self._reading = threading.Lock()  # the buffer is one for all threads (gamedp value --threads)
        self._play = library().play
        #: the last position read or split, with its bitboards: each is asked for a few times in a row
        self._last: tuple[int, int, int] = (-1, 0, 0)

    #: the scores are the benchmark sets' and Pascal Pons' solver's (``gamedp value --format pons`` writes them,
    #: by :meth:`score_of`)
    benchmark_scores = True

    @property
    def book_id(self) -> str:
        return "connect4-book"

    @property
    def variant(self) -> dict[str, int]:
        return {"width": self.game.width, "height": self.game.height}

    @property
    def book_game(self) -> str:
        return f"connect4:{self.game.width}x{self.game.height}"

    def book_key(self, position: int) -> int:
        return self.game.canonical(position)

    def line_key(self, position: int) -> int:
        return position  # the key itself, unlike a mirror image's

    def moves_made(self, position: int) -> int:
        return self._boards(position)[1].bit_count()

    def score_bound(self, position: int) -> int:
        """The largest score of a position, either way: the mover's win with its next stone (the start's: 21)."""
        return (self.cells + 1 - self.moves_made(position)) // 2

    def library(self) -> Any:
        return library()

    def _boards(self, position: int) -> tuple[int, int]:
        key, mover, mask = self._last
        if key != position:
            mover, mask = split_key(position, self.game.width, self.game.height)
            self._last = (position, mover, mask)
        return mover, mask

    def arguments(self, position: int) -> tuple[int, ...]:
        mover, mask = self._boards(position)
        return signed(mover), signed(mask), self.game.width, self.game.height

    def value(self, position: int, score: int) -> Value:
        stones = self._boards(position)[1].bit_count()
        if score == 0:
            return Value(TIE, self.cells - stones)
        plies = self.cells + 2 - stones - 2 * abs(score)  # or one fewer: the one of the right parity
        if plies % 2 != (1 if score > 0 else 0):
            plies -= 1
        return Value(WIN if score > 0 else LOSE, plies)

    def score_of(self, stones: int, value: Value) -> int:
        """The score ``value`` means with ``stones`` stones on the board (:meth:`value` undone); its sign where
        the value has no remoteness (an outcome alone).

        >>> from gamedp.games.connect4 import Connect4
        >>> rules = Connect4Scores(Connect4())
        >>> rules.score_of(4, rules.value(Connect4().parse_position("4444"), -3)), rules.score_of(4, Value(WIN))
        (-3, 1)
        """
        if value.outcome is TIE:
            return 0
        sign = 1 if value.outcome is WIN else -1
        if value.remoteness is None:
            return sign
        return sign * ((self.cells + 2 - stones - value.remoteness) // 2)

    def children(self, position: int) -> list[tuple[Any, Any]]:
        return self.game.move_list(position)

    def answer_lines(self, text: bytes, begin: int, end: int, outcomes_only: bool, quick: int, table: Any,
                     slots: int, searcher: Any, out: Any, done: Any) -> int:
        """``gamedp value``'s answers to the move strings of ``text[begin:end]``, compiled (see
        :meth:`gamedp.solvers.score_search.ScoreSearch.answer_lines`)."""
        return library().answer_lines(text, begin, end, self.game.width, self.game.height, int(outcomes_only),
                                      quick, table, slots, int(self.symmetric), searcher.frames, searcher.counters,
                                      searcher.watch, out, len(out), done)

    def read_moves(self, text: str) -> int:
        """The position after the columns ``text`` (e.g. ``4453``; none, the empty board) from the empty board,
        checked by the compiled reader (a position that is not legal is read again by the game, which says why)."""
        data = text.encode("ascii", "replace")
        with self._reading:
            read = self._play(data, len(data), self.game.width, self.game.height, self._buffer) == 0
            mover, mask = self._buffer[0] % (1 << 64), self._buffer[1] % (1 << 64)
        if read:
            key = mover + mask + self.game.bottom
            self._last = (key, mover, mask)
            return key
        return self.game.parse_position(text)
