"""Exact values of single positions in games too big to solve whole: a game's compiled null-window search over a
transposition table of bounded size.

A strong solve needs the whole position space; this engine needs only its table, whose size the user bounds
(``--memory``). It starts small, so that easy positions cost little, and doubles while a search explores many
more positions than it has slots, up to the bound; past it, new positions replace old ones. One
:class:`ScoreSearch` keeps its table across queries, so later positions profit from earlier ones.

A game offers this engine with the optional hook ``score_search()``, which returns its :class:`ScoreRules`:
the compiled search (entry points ``solve`` and ``grow`` with the arguments of
:mod:`gamedp.kernels.connect4_search`: a game's rules as kernels over the search of
:mod:`gamedp.kernels.null_window`), how a position is handed to it, and what a score means (its value and
remoteness). Connect-Four gives one (:mod:`gamedp.games.connect4_scores`).

A search that takes a while shows progress on a terminal (the score's bounds so far and the positions
searched) and stops on Ctrl-C, keeping what its table learnt.
"""

from __future__ import annotations

import ctypes
import mmap
import threading
from typing import Any, Protocol

from gamedp.values import Analysis, Value, analysis_of

#: The table's default bound, in bytes (``--memory``).
DEFAULT_MEMORY = 1 << 30
#: Bytes per slot: one 64-bit word holds a key's tag and its two bounds.
SLOT_BYTES = 8
#: The fewest slots a table has (below this the tags would not identify a position whole).
MIN_SLOTS = 1 << 16
#: The slots a table starts with, unless the bound is lower.
FIRST_SLOTS = 1 << 18
#: A table doubles when a search has explored this many positions per slot since it last grew.
GROW_AFTER = 4
#: Positions a search explores before it shows progress and listens for Ctrl-C (in a thread of its own).
QUICK = 1 << 16
# as gamedp.kernels.null_window (which imports numba)
STOPPED = -(1 << 40)
NODES, STOP, LOW, HIGH, LIMIT = range(5)
MAX_PLIES, HISTORY_WORDS = 64, 128
UNBOUNDED = 1 << 20
POLL_SECONDS = 0.2


class ScoreRules(Protocol):
    """What a game gives the engine (its ``score_search()`` hook)."""

    #: The game's name, for messages.
    name: str
    #: Whether keys fold a position with its mirror image (the search's symmetry).
    symmetric: bool
    #: The most moves a position has (the width of the search's frames).
    max_moves: int

    def library(self) -> Any:
        """The compiled search: a ctypes library with ``solve`` and ``grow``."""

    def arguments(self, position: Any) -> tuple[int, ...]:
        """The position as ``solve``'s leading arguments (e.g. the bitboards and the board's size)."""

    def value(self, position: Any, score: int) -> Value:
        """The value and remoteness that ``score`` means at ``position``."""

    def children(self, position: Any) -> list[tuple[Any, Any]]:
        """Every legal move with the position it leads to."""

    # Optional, for an opening book (gamedp.solvers.opening_book): ``book_id`` (None: no book), ``variant``,
    # ``game``, ``book_game`` (its name on the command line), ``book_key(position)`` (one key for a position and
    # its symmetric images) and ``moves_made(position)``.


def score_rules(game: Any) -> ScoreRules | None:
    """The rules ``game`` gives this engine through its optional ``score_search()`` hook, or None."""
    offered = getattr(game, "score_search", None)
    return offered() if callable(offered) else None


def memory_slots(memory: int) -> int:
    """The slots of the largest table that fits in ``memory`` bytes (a power of 2, at least MIN_SLOTS).

    >>> memory_slots(1 << 30), memory_slots(100 << 20)
    (134217728, 8388608)
    """
    slots = MIN_SLOTS
    while slots * 2 * SLOT_BYTES <= memory:
        slots *= 2
    return slots


class ScoreSearch:
    """Exact values of a game's positions by its compiled search, sharing one bounded table.

    ``memory`` bounds the table in bytes (it never grows past it; default: 1 GiB, or half the memory available
    if that is less); ``outcomes_only`` makes :meth:`value` search the outcome alone; ``progress`` shows a
    progress line on a terminal for long searches; ``book`` is the opening book to answer from first (by
    default the game's, where ``gamedp book`` made one; False for none).
    """

    def __init__(self, rules: ScoreRules, *, memory: int | None = None, outcomes_only: bool = False,
                 progress: bool = True, book: Any = None):
        self.rules = rules
        self.outcomes_only = outcomes_only
        if book is None:  # the game's opening book where one was made (gamedp book), else none
            from gamedp.solvers.opening_book import find_book

            book = find_book(rules)
        #: the opening book answered from first (:mod:`gamedp.solvers.opening_book`), or None
        self.book = book or None
        self.lib = rules.library()
        if memory is None:
            from gamedp.memory import available_memory

            memory = min(DEFAULT_MEMORY, available_memory() // 2)
        self.max_slots = memory_slots(memory)
        self.progress = progress
        width = rules.max_moves  # frames as gamedp.kernels.null_window.frame_words and counter_words say
        self._frames = (ctypes.c_uint64 * ((MAX_PLIES + 1) * (3 + 3 * width)))()
        self._counters = (ctypes.c_int64 * ((MAX_PLIES + 1) * (4 + width) + HISTORY_WORDS))()
        self.watch = (ctypes.c_int64 * 5)()
        #: positions explored by the last query
        self.explored = 0
        self._reserve()
        self._grow(min(FIRST_SLOTS, self.max_slots))

    @property
    def table_bytes(self) -> int:
        return self.slots * SLOT_BYTES

    def _reserve(self) -> None:
        # One anonymous map of the bound's size: this process's alone, and only address space until used. The
        # table is its first ``slots`` slots, zeroed (so faulted in) as it grows, and it doubles in place: the
        # process never holds more than the bound, even while the table grows.
        size = self.max_slots * SLOT_BYTES
        try:
            self._map = mmap.mmap(-1, size, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
        except (OSError, MemoryError):
            from gamedp.errors import ResourceError

            raise ResourceError(f"cannot set aside {size:,} bytes for the search's table; give --memory less") \
                from None
        self._address = ctypes.addressof(ctypes.c_char.from_buffer(self._map))
        self.table = ctypes.cast(self._address, ctypes.POINTER(ctypes.c_uint64))
        self.slots = 0

    def _grow(self, slots: int) -> None:
        """Make the table ``slots`` slots (twice what it has, or the first size)."""
        ctypes.memset(self._address + self.slots * SLOT_BYTES, 0, (slots - self.slots) * SLOT_BYTES)
        if self.slots:
            self.lib.grow(self.table, self.slots)
        self.slots = slots

    # -- queries -------------------------------------------------------------------------------------------
    def score(self, position: Any, low: int = -UNBOUNDED, high: int = UNBOUNDED) -> int:
        """The exact score of ``position`` if it lies in [low, high], else the nearer of the two."""
        if self.book is not None:
            kept = self.book.score(self.rules.book_key(position))
            if kept is not None:
                self.explored = 0
                return max(low, min(high, kept))
        args = self.rules.arguments(position)
        watch = self.watch
        watch[NODES] = watch[STOP] = 0
        self.explored = 0
        grown_at = 0  # positions explored when the table last grew
        line = None
        try:
            while True:
                # A quick search runs here; a long one in a thread (ctypes lets go of the GIL), so that this
                # one can show progress and hear Ctrl-C. Each time it stops at its limit the table may grow.
                grow = self.slots < self.max_slots
                watch[LIMIT] = QUICK if watch[NODES] == 0 else \
                    watch[NODES] + (GROW_AFTER * self.slots if grow else 1 << 62)
                if watch[NODES] == 0:
                    result = self._solve(args, low, high)
                else:
                    if line is None and self.progress:
                        from gamedp.progress import ProgressLine

                        line = ProgressLine(f"searching {self.rules.name}")
                    result = self._solve_watched(args, low, high, line)
                if result != STOPPED:
                    return result
                low, high = max(low, watch[LOW]), min(high, watch[HIGH])  # what the search had proved
                if grow and watch[NODES] - grown_at >= GROW_AFTER * self.slots:
                    self._grow(self.slots * 2)
                    grown_at = watch[NODES]
        finally:
            self.explored = watch[NODES]
            if line is not None:
                line.close()

    def value(self, position: Any) -> Value:
        """The exact value and remoteness of ``position`` for the player to move (the outcome alone when the
        search was made ``outcomes_only``)."""
        if self.outcomes_only:
            return self.outcome(position)
        return self.rules.value(position, self.score(position))

    def outcome(self, position: Any) -> Value:
        """Only the outcome of ``position`` (WIN, LOSE or TIE): a search of the score's sign, far quicker."""
        score = self.score(position, -1, 1)
        return Value(self.rules.value(position, score).outcome)

    def analyze(self, position: Any) -> Analysis:
        """``position``'s value and every legal move's exact value, best first."""
        return analysis_of(position, self.value(position), self.rules.children(position), self.value)

    def best_move(self, position: Any) -> Any:
        """A move that keeps the position's value (the quickest win, the slowest loss), or None at the end."""
        target = self.value(position)
        for move, child in self.rules.children(position):
            if self.value(child).for_parent() == target:
                return move
        return None

    # -- running the compiled search -----------------------------------------------------------------------
    def _solve(self, args: tuple[int, ...], low: int, high: int) -> int:
        return self.lib.solve(*args, low, high, self.table, self.slots, int(self.rules.symmetric), self._frames,
                              self._counters, self.watch)

    def _solve_watched(self, args: tuple[int, ...], low: int, high: int, line: Any) -> int:
        done: dict[str, int] = {}
        thread = threading.Thread(target=lambda: done.setdefault("score", self._solve(args, low, high)),
                                  name="gamedp-search", daemon=True)
        thread.start()
        try:
            while thread.is_alive():
                thread.join(POLL_SECONDS)
                if line is not None:
                    line.describe(f"searching {self.rules.name}: score between {self.watch[LOW]} and "
                                  f"{self.watch[HIGH]}")
                    line.update(self.watch[NODES])
        except BaseException:  # Ctrl-C: the search stops at its next report, keeping its table whole
            self.watch[STOP] = 1
            thread.join()
            raise
        return done["score"]
