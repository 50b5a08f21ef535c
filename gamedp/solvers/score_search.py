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
searched) and stops on Ctrl-C, keeping what its table learnt. Given a :class:`~gamedp.solvers.search_checkpoint.Keeping`
(``keeping``), a long search also keeps what it proved in a file now and then and when stopped, and goes on from it
when asked again (:mod:`gamedp.solvers.search_checkpoint`).

Both cores (or more), ``threads=N`` (``--threads N``): N searches share the table without locks, which is sound
because an entry is one 64-bit word (a thread never sees half of another's write) holding bounds that are
proven whoever found them. Queries from N threads at once each run in their own thread (``gamedp value
--threads N`` answers N lines at once); a long query with threads to spare gets them as helpers ("lazy SMP"):
they search the same position, each trying the second move first at the root, and fill the table with the
subtrees the main search will need next; whichever finishes first has the exact score. One thread is the
default: a second pays only where a core is free for it.
"""

from __future__ import annotations

import ctypes
import mmap
import queue
import sys
import threading
import time
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Iterator, Protocol

from gamedp.errors import GamedpError
from gamedp.values import Analysis, Value, analysis_of

if TYPE_CHECKING:  # a search is kept only where a front end asks for it
    from gamedp.solvers.search_checkpoint import Checkpoint, Keeping, Window
    from gamedp.solvers.shared_table import TableFile

#: Bytes per slot: one 64-bit word holds a key's tag and its two bounds.
SLOT_BYTES = 8
#: The fewest slots a table has (below this the tags would not identify a position whole).
MIN_SLOTS = 1 << 16
#: The slots a table starts with, unless the bound is lower.
FIRST_SLOTS = 1 << 18
#: A table doubles when the searches have explored this many positions per slot since it last grew (a game's
#: rules may say otherwise: ``grow_after``).
GROW_AFTER = 4
#: Positions a search explores before it shows progress and listens for Ctrl-C (in a thread of its own).
QUICK = 1 << 16
# as gamedp.kernels.null_window (which imports numba)
STOPPED = -(1 << 40)
WATCH_WORDS = 6
NODES, STOP, LOW, HIGH, LIMIT, SKEW = range(WATCH_WORDS)
MAX_PLIES, HISTORY_WORDS = 128, 512
UNBOUNDED = 1 << 20
POLL_SECONDS = 0.2
#: Plies near the root at which a helper thread tries its moves in another order than the main search.
HELPER_SKEW = 1
#: A checkpoint is written at most once per this many times the seconds the last one took to write (a big table
#: on a slow disk is not written over and over).
WRITE_SHARE = 10
#: How a kept search ended (see ScoreSearch._end_keeping), apart from the line statuses below.
KEPT_ANSWERED, KEPT_STOPPED, KEPT_FAILED = "answered", "stopped", "failed"
#: What a game's ``answer_lines`` kernel returns (see :meth:`ScoreSearch.answer_lines`).
ANSWERED, LEFT, PAUSED = range(3)


def signed(word: int) -> int:
    """A 64-bit word as the signed integer ctypes passes (a game's rules hand their positions over so)."""
    return word - (1 << 64) if word >> 63 else word


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

    # Optional, for ``gamedp value``'s lines: ``answer_lines(text, begin, end, outcomes_only, quick, table, slots,
    # searcher, out, done)``, the compiled answers to many lines in one call (see ScoreSearch.answer_lines).
    # Optional: ``grow_after``, the positions explored per slot before the table doubles (GROW_AFTER).
    # Optional, for ``gamedp value``: ``read_moves(text)``, a move string's position (the empty one: the start);
    # ``benchmark_scores``, True where the scores are the benchmark sets', with ``score_of(stones, value)``
    # (``--format pons``).
    # Optional, for an opening book (gamedp.solvers.opening_book): ``book_id`` (None: no book), ``variant``,
    # ``game``, ``book_game`` (its name on the command line), ``book_key(position)`` (one key for a position and
    # its symmetric images), ``line_key(position)`` (one key for a position alone, not its images: a best move
    # is kept under it), ``moves_made(position)`` and ``score_bound(position)`` (the largest score, either way,
    # that the position can have: what the book says is checked against it).


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


def searched(low: int, high: int) -> str:
    """What a query of the window [``low``, ``high``] finds, as its checkpoint names its search.

    >>> searched(-UNBOUNDED, UNBOUNDED), searched(-1, 1), searched(0, 5)
    ('value', 'outcome', 'value in [0, 5]')
    """
    return {(-UNBOUNDED, UNBOUNDED): "value", (-1, 1): "outcome"}.get((low, high), f"value in [{low}, {high}]")


class ScoreSearch:
    """Exact values of a game's positions by its compiled search, sharing one bounded table.

    ``memory`` bounds the table in bytes (it never grows past it; default: :func:`gamedp.memory.search_table`,
    1 GiB or half the memory available if that is less); ``outcomes_only`` makes :meth:`value` search the outcome alone; ``progress`` shows a
    progress line on a terminal for long searches; ``book`` is the opening book to answer from first (by
    default the game's, where ``gamedp book`` made one; False for none); ``threads`` is how many threads a long
    search runs in, sharing the table (see :meth:`score`); ``keeping`` keeps long searches in checkpoints (see
    :mod:`gamedp.solvers.search_checkpoint`); ``table`` is a table shared with other processes of this machine
    (:mod:`gamedp.solvers.shared_table`: it has its size from the start, and ``memory`` is not used).
    """

    def __init__(self, rules: ScoreRules, *, memory: int | None = None, outcomes_only: bool = False,
                 progress: bool = True, book: Any = None, threads: int = 1, keeping: Keeping | None = None,
                 table: TableFile | None = None):
        if threads < 1:
            raise ValueError(f"threads must be at least 1, not {threads}")
        self.rules = rules
        self.outcomes_only = outcomes_only
        if book is None:  # the game's opening book where one was made (gamedp book), else none
            from gamedp.solvers.opening_book import find_book

            book = find_book(rules)
        #: the opening book answered from first (:mod:`gamedp.solvers.opening_book`), or None
        self.book = book or None
        self.lib = rules.library()
        if memory is None and table is None:
            from gamedp.memory import search_table

            memory = search_table()
        self.max_slots = memory_slots(memory) if table is None else table.slots
        #: positions explored per slot before the table doubles: a game whose positions cost much more to search
        #: than a table's cache misses asks for fewer (a bigger table sooner)
        self.grow_after: int = getattr(rules, "grow_after", GROW_AFTER)
        self.progress = progress
        self._searchers = [Searcher(rules.max_moves, getattr(rules, "arena_words", 0)) for _ in range(threads)]
        self._free: queue.SimpleQueue[Searcher] = queue.SimpleQueue()  # the searchers no query uses now
        for searcher in self._searchers:
            self._free.put(searcher)
        self._local = threading.local()
        self._gate = threading.Condition()
        self._running: set[Searcher] = set()  # the searchers in the table now
        self._alone_now = False  # whether one thread has the table to itself (to grow it, or to keep it)
        self._stopping = False
        #: positions explored by finished queries since the table last grew: many queries of a few positions
        #: each (``analyze`` asks one per move) fill the table as one long one would
        self._unspent = 0
        self.keeping = keeping
        self._kept: list[Checkpoint] = []  # the checkpoints of the searches under way, written together
        self._kept_at = 0.0  # when they were last written (time.monotonic)
        self._keep_every = 0.0 if keeping is None or keeping.seconds is None else keeping.seconds
        self._analysis: Checkpoint | None = None  # that of the analysis under way, for its moves' queries
        #: the slots in use of a table shared with other processes (a word of theirs too), else None
        self._in_use: Any = None
        if table is None:
            self._reserve()
            self._grow(min(FIRST_SLOTS, self.max_slots))
        else:  # zeroed once, by its maker, and grown by whoever sharing it finds it due (see _grow)
            from gamedp.solvers.shared_table import map_table

            self._map = map_table(table)
            self._address = ctypes.addressof(ctypes.c_char.from_buffer(self._map))
            self.table = ctypes.cast(self._address, ctypes.POINTER(ctypes.c_uint64))
            self._in_use = ctypes.cast(self._address + self.max_slots * SLOT_BYTES, ctypes.POINTER(ctypes.c_uint64))
            if self._in_use[0] == 0:
                self._in_use[0] = min(FIRST_SLOTS, self.max_slots)
            self.slots = self._in_use[0]

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
        if self._in_use is not None:
            # Shared: the other processes take the new size at their next look, searching on meanwhile; their
            # writes never went past the size in use, so the upper half is zero.
            if self._in_use[0] < slots:
                self._in_use[0] = slots
                self.lib.grow(self.table, slots // 2)
            self.slots = slots
            return
        ctypes.memset(self._address + self.slots * SLOT_BYTES, 0, (slots - self.slots) * SLOT_BYTES)
        if self.slots:
            self.lib.grow(self.table, self.slots)
        self.slots = slots

    # -- queries -------------------------------------------------------------------------------------------
    def score(self, position: Any, low: int = -UNBOUNDED, high: int = UNBOUNDED) -> int:
        """The exact score of ``position`` if it lies in [low, high], else the nearer of the two.

        With ``threads`` above 1, up to that many threads may ask at once (each search then runs in one
        thread), and a long search takes the threads idle at the time as helpers: they search the same
        position on the same table, trying other moves first near the root, and the first to finish has the
        exact score (the table holds only proven bounds, whoever wrote them).
        """
        if self.book is not None and self.rules.moves_made(position) <= self.book.reach:
            kept = self.book.score(self.rules.book_key(position), self.rules.score_bound(position))
            if kept is not None:
                self._local.explored = 0
                return max(low, min(high, kept))
        args = self.rules.arguments(position)
        window = (args, low, high)
        # A long search is kept (:mod:`gamedp.solvers.search_checkpoint`) in the analysis' checkpoint where one is
        # under way, else in its own, begun once it proves long (quick ones never look for a file).
        keeping, own = self._analysis, None
        if keeping is not None and (kept := keeping.bounds(window)) is not None:
            low, high = max(low, kept[0]), min(high, kept[1])
            if low >= high:
                self._local.explored = 0
                return low
        main = self._free.get()
        watch = main.watch
        watch[NODES] = watch[SKEW] = 0
        self._local.explored = 0
        grown_at = -self._unspent  # positions explored when the table last grew (as this query counts them)
        explored = 0  # by helpers
        line = None
        ended = KEPT_FAILED
        try:
            while True:
                # A quick search runs here; a long one in a thread (ctypes lets go of the GIL), so that this
                # one can show progress and hear Ctrl-C. Each time it stops at its limit the table may grow.
                if self._in_use is not None and self._in_use[0] > self.slots:  # grown by another process
                    self.slots = self._in_use[0]
                    grown_at = watch[NODES]
                slots = self.slots
                grow = slots < self.max_slots
                watch[LIMIT] = QUICK if watch[NODES] == 0 else \
                    max(grown_at + self.grow_after * slots, watch[NODES] + QUICK) if grow else 1 << 62
                watch[LOW], watch[HIGH] = low, high
                watch[STOP] = 0
                if watch[NODES] == 0:
                    result = self._solve(main, args, low, high)
                else:
                    if line is None and self.progress and not getattr(self._local, "quiet", False):
                        from gamedp.progress import ProgressLine

                        line = ProgressLine(f"searching {self.rules.name}")
                    result, helped = self._solve_watched(main, args, low, high, line)
                    explored += helped
                if result != STOPPED:
                    ended = KEPT_ANSWERED
                    if keeping is not None:
                        keeping.proved[window] = (result, result)
                    return result
                if self._stopping:
                    raise KeyboardInterrupt
                low, high = max(low, watch[LOW]), min(high, watch[HIGH])  # what the searches had proved
                if self.keeping is not None:
                    if keeping is None:
                        keeping = own = self._begin_keeping(args, searched(*window[1:]), window)
                        kept = keeping.bounds(window)
                        if kept is not None:
                            low, high = max(low, kept[0]), min(high, kept[1])
                            if low >= high:
                                ended = KEPT_ANSWERED
                                return low
                    keeping.proved[window] = (low, high)
                    keeping.exploring[threading.get_ident()] = watch[NODES] + explored
                    self._keep_if_due()
                if grow and watch[NODES] - grown_at >= self.grow_after * slots:
                    self._grow_shared(slots * 2)
                    grown_at = watch[NODES]
        except KeyboardInterrupt:
            ended = KEPT_STOPPED
            raise
        finally:
            self._local.explored = watch[NODES] + explored
            with self._gate:
                self._unspent = watch[NODES] - grown_at
            self._free.put(main)
            if line is not None:
                line.close()
            if keeping is not None:
                keeping.exploring.pop(threading.get_ident(), None)
                keeping.explored_done += watch[NODES] + explored
            if own is not None:
                self._end_keeping(own, window, ended)

    @property
    def explored(self) -> int:
        """Positions explored by the last query of the calling thread (by its helpers too)."""
        return getattr(self._local, "explored", 0)

    def stop(self) -> None:
        """Stop every search running now (for good: their queries raise KeyboardInterrupt); the table stays
        whole."""
        self._stopping = True
        for searcher in self._searchers:
            searcher.watch[STOP] = 1

    def resume(self) -> None:
        """Take queries again after :meth:`stop`, once the stopped ones have returned (a board that left a
        position's search searches the next one with the table it filled)."""
        self._stopping = False

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
        """``position``'s value and every legal move's exact value, best first. With ``threads`` above 1, the
        moves are valued that many at once, one thread each (sharing the table)."""
        began = time.monotonic()
        if self.keeping is None or self._analysis is not None:
            return self._analyze(position, began)
        args = self.rules.arguments(position)
        window = (args, -1, 1) if self.outcomes_only else (args, -UNBOUNDED, UNBOUNDED)
        self._analysis = self._begin_keeping(args, "analyze outcomes" if self.outcomes_only else "analyze", window)
        ended = KEPT_FAILED
        try:
            analysis = self._analyze(position, began)
            ended = KEPT_ANSWERED
            return analysis
        except KeyboardInterrupt:
            ended = KEPT_STOPPED
            raise
        finally:
            checkpoint, self._analysis = self._analysis, None
            self._end_keeping(checkpoint, window, ended)

    def _analyze(self, position: Any, began: float) -> Analysis:
        value = self.value(position)
        children = self.rules.children(position)
        game = getattr(self.rules, "game", None)
        name = game.format_move if callable(getattr(game, "format_move", None)) else lambda _, move: str(move)
        known = self._values_at_once([child for _, child in children], f"{self.rules.name}: {value}", began,
                                     self.explored, {child: name(position, move) for move, child in children})
        return analysis_of(position, value, children, known.__getitem__)

    def _values_at_once(self, positions: list[Any], heading: str, began: float, explored: int,
                        names: dict[Any, str]) -> dict[Any, Value]:
        """The values of ``positions``, a query per thread at a time; one progress line for them all, under
        ``heading``, says how many are known and which (the moves ``names`` names, with their values for the
        player making them), and where it was shown, it ends saying how long the whole took since ``began`` and
        how many positions were explored (``explored`` before these)."""
        from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait

        def quiet_value(position: Any) -> tuple[Value, int]:
            self._local.quiet = True  # one line says how far they all are, not one per query
            found = self.value(position)
            return found, self.explored

        line = None
        if self.progress:
            from gamedp.progress import ProgressLine

            line = ProgressLine(heading)
        shown_after = time.monotonic() + 1  # quick answers show no line
        known: dict[Any, Value] = {}
        with ThreadPoolExecutor(len(self._searchers), thread_name_prefix="gamedp-move") as pool:
            running = {pool.submit(quiet_value, p): p for p in positions}
            try:
                while running:
                    finished, _ = wait(running, timeout=POLL_SECONDS, return_when=FIRST_COMPLETED)
                    for future in finished:
                        known[running.pop(future)], spent = future.result()
                        explored += spent
                    if line is not None and time.monotonic() > shown_after:
                        line.describe(f"{heading}, moves valued: {len(known)}/{len(positions)}"
                                      f"{best_so_far(known, names)}")
                        line.update(explored + sum(s.watch[NODES] for s in self._searchers if s in self._running))
            except BaseException:  # Ctrl-C: every search stops at its next report, keeping the table whole
                self.stop()
                if line is not None:
                    line.close()
                raise
        if line is not None:
            from gamedp.progress import duration

            line.close(f"{heading}, {len(positions)} moves valued in {duration(time.monotonic() - began)} "
                       f"({explored:,} positions)")
        return known

    def best_move(self, position: Any) -> Any:
        """A move that keeps the position's value (the quickest win, the slowest loss), or None at the end."""
        target = self.value(position)
        for move, child in self.rules.children(position):
            if self.value(child).for_parent() == target:
                return move
        return None

    def answer_lines(self, text: bytes, begin: int, end: int) -> tuple[int, int, str]:
        """Answer the lines of ``text[begin:end]`` (split at newlines) by the game's compiled ``answer_lines``
        (an optional hook of its rules: ``gamedp value``'s answers to many quick lines in one call), as far as
        it goes: returns :data:`ANSWERED`, :data:`LEFT` (the line at the offset returned is left to
        :meth:`value`: not a plain move string, or a long search) or :data:`PAUSED` (call again from the
        offset), with that offset and the answers' text."""
        out = ctypes.create_string_buffer(min(2 * (end - begin), 1 << 16) + 64)
        done = (ctypes.c_int64 * 2)()
        searcher = self._free.get()
        watch = searcher.watch
        watch[STOP] = watch[SKEW] = 0
        try:
            with self._searching(searcher) as (table, slots):
                status = PAUSED if table is None else self.rules.answer_lines(
                    text, begin, end, self.outcomes_only, QUICK, table, slots, searcher, out, done)
        finally:
            self._free.put(searcher)
        if self._stopping:
            raise KeyboardInterrupt
        return status, done[0], out.raw[:done[1]].decode("ascii")

    # -- running the compiled search -----------------------------------------------------------------------
    # Searches run in the table only while it keeps its size and no one reads it whole: growing it moves entries
    # to slots that a search still working with the old size would misread, and a checkpoint must be one state of
    # it. So each call of the compiled search is counted in and out under ``_gate``, and the table grows or is
    # kept only when no search is in: the thread that wants it alone asks the others to stop (they go on from
    # their proven bounds afterwards).
    def _solve(self, searcher: Searcher, args: tuple[int, ...], low: int, high: int) -> int:
        with self._searching(searcher) as (table, slots):
            if table is None:
                return STOPPED
            return self.lib.solve(*args, low, high, table, slots, int(self.rules.symmetric), searcher.frames,
                                  searcher.counters, searcher.watch)

    @contextmanager
    def _searching(self, searcher: Searcher) -> Iterator[tuple[Any, int]]:
        """The table and its slots while ``searcher`` is counted in (None after :meth:`stop`)."""
        with self._gate:
            while self._alone_now:
                self._gate.wait()
            if self._stopping:
                table, slots = None, 0
            else:
                self._running.add(searcher)
                table, slots = self.table, self.slots
        try:
            yield table, slots
        finally:
            with self._gate:
                self._running.discard(searcher)
                self._gate.notify_all()

    @contextmanager
    def _alone(self) -> Iterator[None]:
        """The table to this thread alone (no search in it) for the while: the searches in it now are stopped."""
        with self._gate:
            while self._alone_now:
                self._gate.wait()
            self._alone_now = True
        try:  # from here on, Ctrl-C while waiting must not leave the table held
            with self._gate:
                for searcher in self._running:
                    searcher.watch[STOP] = 1
                while self._running:
                    self._gate.wait()
            yield
        finally:
            with self._gate:
                self._alone_now = False
                self._gate.notify_all()

    def _grow_shared(self, slots: int) -> None:
        """Grow the table to ``slots`` once no search runs in it, unless another thread grew it meanwhile."""
        if self.slots < slots:
            with self._alone():
                if self.slots < slots:
                    self._grow(slots)

    # -- checkpoints ---------------------------------------------------------------------------------------
    def _begin_keeping(self, args: tuple[int, ...], search: str, window: Window) -> Checkpoint:
        """The checkpoint of the search ``search`` of the position of ``args`` (whose own query is ``window``),
        read back where a stopped run kept one: its table then replaces this one, and its bounds are known."""
        assert self.keeping is not None
        checkpoint = self.keeping.checkpoint(self.rules, args, search)
        kept = checkpoint.load()
        if kept is not None:
            with self._alone():
                self._restore(*kept)
            kept[1].release()
            print(f"gamedp: resuming from {checkpoint.path} ({checkpoint.summary(window)} before)", file=sys.stderr)
        with self._gate:
            if not self._kept:
                self._kept_at = time.monotonic()
            self._kept.append(checkpoint)
        return checkpoint

    def _end_keeping(self, checkpoint: Checkpoint, window: Window, ended: str) -> None:
        """The search of ``checkpoint`` is over: its file is removed if it was answered, written if it was
        stopped (Ctrl-C, SIGTERM), and where it is said; one that failed (a damaged book, say) leaves the file as
        it was."""
        with self._gate:
            self._kept.remove(checkpoint)
        if ended == KEPT_ANSWERED:
            checkpoint.remove()
            return
        if ended == KEPT_FAILED:
            return
        with self._alone():
            self._keep([checkpoint])
        if checkpoint.written:
            print(f"gamedp: stopped; what the search proved is kept in {checkpoint.path} ({checkpoint.summary(window)});"
                  f" run the same command again to go on from it", file=sys.stderr)

    def _keep_due(self) -> bool:
        return bool(self._kept) and self._keep_every > 0 and time.monotonic() >= self._kept_at + self._keep_every

    def _keep_if_due(self) -> None:
        """Write the checkpoints of the searches under way if it is time (they pause meanwhile)."""
        if self._keep_due():
            with self._alone():
                if self._keep_due():  # not written by another thread meanwhile
                    self._keep(list(self._kept))

    def _keep(self, checkpoints: list[Checkpoint]) -> None:
        """Write ``checkpoints`` with the table as it is (no search in it); a write that fails is said once, and
        the search goes on without."""
        began = time.monotonic()
        view = memoryview(self._map)[:self.slots * SLOT_BYTES]
        try:
            for checkpoint in checkpoints:
                checkpoint.save(view, self.slots)
        except GamedpError as e:
            print(f"gamedp: {e}; the search goes on without a checkpoint", file=sys.stderr)
            self._keep_every = 0.0
        finally:
            view.release()
        took = time.monotonic() - began
        self._kept_at = time.monotonic()
        if self._keep_every:
            self._keep_every = max(self._keep_every, WRITE_SHARE * took)

    def _restore(self, slots: int, entries: memoryview) -> None:
        """Make the table the ``slots`` ``entries`` kept (no search in it): as they are where the bound allows,
        else folded into the bound's slots (an entry's slot is the low bits of its hashed key, and it keeps the
        top 48, so it keeps its slot's low bits and is found whole; entries meeting in a slot keep one)."""
        if slots <= self.max_slots:
            self._map[:slots * SLOT_BYTES] = entries
            self.slots = slots
            return
        import numpy as np

        kept = np.frombuffer(entries, dtype=np.uint64)
        folded = np.zeros(self.max_slots, np.uint64)
        used = np.flatnonzero(kept)
        folded[used & (self.max_slots - 1)] = kept[used]
        self._map[:self.max_slots * SLOT_BYTES] = folded.tobytes()
        self.slots = self.max_slots

    def _solve_watched(self, main: Searcher, args: tuple[int, ...], low: int, high: int,
                       line: Any) -> tuple[int, int]:
        """The main search, run until it has the score or reaches its limit, beside helpers (the searchers
        idle now) until one of them has the score; returns the score (or STOPPED) and the helpers' positions
        explored."""
        searchers = [main]
        while True:
            try:
                helper = self._free.get_nowait()
            except queue.Empty:
                break
            helper.watch[NODES] = helper.watch[STOP] = 0
            helper.watch[SKEW] = HELPER_SKEW
            helper.watch[LIMIT] = 1 << 62
            helper.watch[LOW], helper.watch[HIGH] = low, high
            searchers.append(helper)
        done: dict[int, int] = {}

        def run(i: int) -> None:
            score = self._solve(searchers[i], args, low, high)
            if score != STOPPED:  # the others stop: the first to finish has the exact score
                done.setdefault(i, score)
                for other in searchers:
                    other.watch[STOP] = 1

        threads = [threading.Thread(target=run, args=(i,), name=f"gamedp-search-{i}", daemon=True)
                   for i in range(len(searchers))]
        for thread in threads:
            thread.start()
        try:
            while threads[0].is_alive():
                threads[0].join(POLL_SECONDS)
                if self._keep_due():  # the searches pause at their next report, and the table is kept
                    for searcher in searchers:
                        searcher.watch[STOP] = 1
                if line is not None:
                    line.describe(f"searching {self.rules.name}: score between "
                                  f"{max(s.watch[LOW] for s in searchers)} and {min(s.watch[HIGH] for s in searchers)}")
                    line.update(sum(s.watch[NODES] for s in searchers))
        except BaseException:  # Ctrl-C: the searches stop at their next report, keeping the table whole
            for searcher in searchers:
                searcher.watch[STOP] = 1
            raise
        finally:
            for searcher in searchers[1:]:  # the main search reached its limit, or the score is known
                searcher.watch[STOP] = 1
            for thread in threads:
                thread.join()
            for searcher in searchers[1:]:
                # what a helper proved before it stopped is proved for the main search too
                main.watch[LOW] = max(main.watch[LOW], searcher.watch[LOW])
                main.watch[HIGH] = min(main.watch[HIGH], searcher.watch[HIGH])
                self._free.put(searcher)
        return next(iter(done.values()), STOPPED), sum(s.watch[NODES] for s in searchers[1:])


def best_so_far(known: dict[Any, Value], names: dict[Any, str], most: int = 4) -> str:
    """The best of the moves valued so far (their positions' values ``known``), named (``names``) up to ``most``
    of them, for a progress line: `` (best so far WIN: b1-b2, e1-e2)``; empty while none is known.

    >>> from gamedp.values import LOSE, WIN
    >>> best_so_far({1: Value(LOSE, 3), 2: Value(WIN, 4), 3: Value(LOSE, 3)}, {1: "a", 2: "b", 3: "c"})
    ' (best so far WIN in 4: a, c)'
    """
    if not known:
        return ""
    values = {position: value.for_parent() for position, value in known.items()}
    top = max(values.values(), key=lambda value: value.rank())
    best = [names[position] for position, value in values.items() if value == top]
    more = f" and {len(best) - most} more" if len(best) > most else ""
    return f" (best so far {top}: {', '.join(best[:most])}{more})"


class Searcher:
    """What one thread of a search keeps for itself (the table is shared): its stack of positions and moves,
    the history of moves that refuted positions, and the ``watch`` words it reports to (and is stopped by)."""

    def __init__(self, width: int, arena: int = 0):
        # as gamedp.kernels.null_window.frame_words and counter_words say; then words a game's search keeps its
        # own positions in (see gamedp.kernels.domineering_big_search)
        self.frames = (ctypes.c_uint64 * ((MAX_PLIES + 1) * (3 + 3 * width) + arena))()
        self.counters = (ctypes.c_int64 * ((MAX_PLIES + 1) * (5 + width) + HISTORY_WORDS))()
        self.watch = (ctypes.c_int64 * WATCH_WORDS)()
