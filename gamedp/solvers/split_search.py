"""One position's exact score by a search split over the workers of a Dask cluster.

A null-window search asks whether a position's score is above ``a``; by the rules of negamax the question splits:
the score of P is above ``a`` when one of its moves c leaves a score not above ``-a - 1``. So the question about P
is an OR, over P's moves, of the negated question about its children, each again an OR over theirs. This process
(the driver) asks it so down to ``plies`` plies and hands the questions about the positions there to the workers,
each a null-window search whose table is kept from one question to the next (:mod:`gamedp.solvers.worker_search`):
the workers of a local cluster share one (:mod:`gamedp.solvers.shared_table`), so that what one proved the others
do not prove again; those of another cluster, which may be on other machines, have one each:

- a node is seen as the compiled search sees it (the game library's ``expand``,
  :func:`gamedp.kernels.null_window.expand`): bounded by the game's ``start``, ``moves`` and ``bound`` hooks
  (a position they settle needs no question), its moves those the search would search (e.g. none that loses at
  once, no safe move of Domineering while there are others), in the search's order;
- an OR asks about its first move alone: where that one decides it, as it mostly does, nothing else is asked;
  where it does not, the node needs (almost) all its moves, and they are asked all at once, the first that
  decides stopping the others (the young brothers wait, as parallel alpha-beta searches share work);
- on the split's last ply, a worker is asked about a few moves in one task (it searches them in turn and stops at
  the first that decides the node): a task costs the driver, whose cores the workers share, milliseconds;
- while a worker would wait for the first move's answer with nothing to do, the others are asked at once too, in
  tasks the workers take after the first's (thrown away where the first decides: the waiting worker's time would
  have been lost anyway);
- a question asked before (a transposition, or the same one in the bisection's next round) is answered from
  what the driver kept;
- the score is narrowed from its bounds by such questions, bisecting as the search of one process does
  (:func:`gamedp.kernels.null_window.probe`).

Each question is answered by an exact search and they combine by the rules of negamax, so the score is exact. A
worker lost in the middle costs only the questions it held: Dask hands them to another worker.
"""

from __future__ import annotations

import ctypes
import queue
import sys
import threading
import time
import weakref
from typing import TYPE_CHECKING, Any, Callable

from gamedp.errors import GamedpError
from gamedp.kernels.null_window import probe
from gamedp.values import Analysis, Value

if TYPE_CHECKING:
    from gamedp.solvers.search_checkpoint import Checkpoint, Keeping, Window
    from gamedp.solvers.shared_table import TableFile

#: The most plies the driver splits to.
MOST_PLIES = 8
#: The driver splits deeper while the replies along the first moves hold fewer questions than this many a worker.
QUESTIONS_PER_WORKER = 3
#: Seconds between a worker's looks at whether the question it searches was cancelled.
POLL = 0.05
#: Tasks a worker gets of a node's moves on the split's last ply (each a few moves).
TASKS_PER_WORKER = 2
#: Seconds between the driver's looks at whether a checkpoint or the progress line is due.
WATCH = 0.25
#: Seconds a query stopped early waits for its questions to be given up.
ENDING = 10.0

#: A node as the compiled search sees it: bounds on its score, and its children in the search's order.
View = tuple[int, int, list[Any]]


class _Cancelled(Exception):
    """A question whose answer is no longer needed."""


class _Stop(threading.Event):
    """A signal that the questions under a node are no longer needed, which wakes those waiting on a worker: they
    sleep until an answer or a stop comes (thousands may wait at once in a deep split: none polls)."""

    def __init__(self) -> None:
        super().__init__()
        self._waking: set[threading.Event] = set()
        self._guard = threading.Lock()

    def set(self) -> None:
        super().set()
        with self._guard:
            waking = list(self._waking)
        for event in waking:
            event.set()

    def wake(self, event: threading.Event) -> None:
        """Set ``event`` when this is set (at once, if it is)."""
        with self._guard:
            self._waking.add(event)
        if self.is_set():
            event.set()

    def forget(self, event: threading.Event) -> None:
        with self._guard:
            self._waking.discard(event)


def refuse_unsplit(rules: Any, split: str) -> None:
    """A :class:`GamedpError` where ``rules``' search cannot be split (its positions are not whole in their words:
    rules whose ``splits`` is False), saying that ``split`` cannot be used."""
    if not getattr(rules, "splits", True):
        raise GamedpError(f"{split} cannot split the search of {rules.name}: its positions are too big to hand to "
                          f"workers; search it in one process, with --threads N to use N cores")


class SplitSearch:
    """Exact values of positions of ``rules``' game (known as ``name`` to the workers' searches) by the search
    split over ``executor``'s Dask cluster; each worker's table takes at most ``memory`` bytes. ``plies``: how
    deep the driver splits (default: deep enough that the replies along the first moves hold
    :data:`QUESTIONS_PER_WORKER` questions a worker). ``book``: the opening book whose positions the driver takes
    as settled (default: the game's, as :class:`~gamedp.solvers.score_search.ScoreSearch`'s; False for none).
    ``keeping``: where a search stopped keeps the driver's answers, and a search asked again goes on from them
    (:mod:`gamedp.solvers.search_checkpoint`, without a table); ``progress``: a progress line on a terminal for a
    search longer than a second."""

    def __init__(self, rules: Any, name: str, executor: Any, *, memory: int | None = None, plies: int | None = None,
                 outcomes_only: bool = False, book: Any = None, keeping: Keeping | None = None,
                 progress: bool = True):
        if plies is not None and plies < 1:
            raise GamedpError(f"the split goes at least one ply deep, not {plies}")
        refuse_unsplit(rules, "a cluster (--workers, --cluster, --scheduler-file)")
        self.rules, self.name, self.executor, self.memory = rules, name, executor, memory
        self.plies, self.outcomes_only, self.keeping, self.progress = plies, outcomes_only, keeping, progress
        self.explored = 0
        self.questions = 0
        self._stopped = _Stop()
        self._counting = threading.Lock()  # the counts are added to by the threads asking the questions
        self._views: dict[tuple[int, ...], View] = {}
        self._bare: dict[tuple[int, ...], tuple[int, int]] = {}  # bounds of positions not viewed whole
        self._known: dict[tuple[tuple[int, ...], int], bool] = {}
        self._base = rules.max_moves + 1
        self._table: TableFile | None = None
        if book is None:
            from gamedp.solvers.opening_book import find_book

            book = find_book(rules)
        #: the opening book whose positions need no search (:mod:`gamedp.solvers.opening_book`), or None
        self.book = book or None
        self._narrowed = (0, 0)  # the score's bounds so far, for the progress line
        self._busy = 0  # tasks of the last ply asked, or about to be, and not answered
        self._slots = 1

    def stop(self) -> None:
        """Stop the search (its query raises KeyboardInterrupt)."""
        self._stopped.set()

    def value(self, position: Any) -> Value:
        """The exact value of ``position`` (its outcome alone with ``outcomes_only``)."""
        if self.outcomes_only:
            return Value(self.rules.value(position, self.score(position, -1, 1)).outcome)
        return self.rules.value(position, self.score(position))

    def analyze(self, position: Any) -> Analysis:
        """``position``'s value and every legal move's exact value, best first: each move's position split over
        the workers in turn."""
        from gamedp.values import analysis_of

        value = self.value(position)  # first: the workers' tables then hold what the moves' searches need
        children = self.rules.children(position)
        known = {child: self.value(child) for _, child in children}
        return analysis_of(position, value, children, known.__getitem__)

    def score(self, position: Any, low: int = -(1 << 20), high: int = 1 << 20) -> int:
        """The exact score of ``position`` if it lies in [low, high], else the nearer of the two."""
        self.explored = self.questions = 0
        self._views.clear()
        self._bare.clear()
        self._known.clear()
        least, most, kids = self._view(position)
        if not kids:  # settled by the game's hooks: over, won at once, or bounded to one score
            return max(low, min(high, least))
        self.executor.start()  # once, here: the threads that ask the questions would each start a local cluster
        self._slots = self.executor.slots()
        if self._table is None and getattr(self.executor, "local", False):
            self._table = self._share_table()
        lo, hi = max(low, least), min(high, most)
        outcomes = self.outcomes_only or getattr(self.rules, "outcomes_only", False)
        if outcomes:
            lo, hi = max(lo, -1), min(hi, 1)
        ties = getattr(self.rules, "ties", True)
        plies = self.plies or self._plies(position)
        window = (tuple(self.rules.arguments(position)), low, high)
        checkpoint = None if self.keeping is None else self._begin_keeping(window, outcomes)
        if checkpoint is not None and (kept := checkpoint.bounds(window)) is not None:
            lo, hi = max(lo, kept[0]), min(hi, kept[1])
        done = threading.Event()
        self._narrowed = (lo, hi)
        keeper = threading.Thread(target=self._watch, args=(checkpoint, done), daemon=True)
        keeper.start()
        ended = _Stop()  # set when this query ends early: every question under it stops
        try:
            while lo < hi:
                middle = probe(lo, hi)
                try:
                    above = self._above(position, middle, plies, (self._stopped, ended), 1)
                except _Cancelled:
                    raise KeyboardInterrupt from None
                if above:
                    lo = middle + 1
                else:
                    hi = middle
                if not ties:  # no position of a game without ties scores 0
                    lo, hi = (1 if lo == 0 and hi > 0 else lo), (-1 if hi == 0 and lo < 0 else hi)
                if checkpoint is not None:
                    checkpoint.proved[window] = (lo, hi)
                self._narrowed = (lo, hi)
        except BaseException as e:  # stopped, or the cluster failed: what was answered is kept either way
            # Ctrl-C comes to this thread, not through stop(): the threads asking questions are stopped here, and
            # waited for, so that none asks or answers after the checkpoint (nor in the next query)
            ended.set()
            deadline = time.monotonic() + ENDING
            while self._busy and time.monotonic() < deadline:
                time.sleep(0.01)
            done.set()
            keeper.join()
            if checkpoint is not None and self._keep(checkpoint, stopping=True) and isinstance(e, KeyboardInterrupt):
                print(f"gamedp: stopped; what the search proved is kept in {checkpoint.path} "
                      f"({checkpoint.summary(window)}); run the same command again to go on from it", file=sys.stderr)
            raise
        done.set()
        keeper.join()
        if checkpoint is not None:
            checkpoint.remove()
        return lo

    # -- checkpoints ----------------------------------------------------------------------------------------
    def _begin_keeping(self, window: Window, outcomes: bool) -> Checkpoint:
        """The checkpoint of the search of ``window`` (the root's query; ``outcomes``: its outcome alone), its
        answers known where a stopped run kept one."""
        assert self.keeping is not None
        from gamedp.solvers.score_search import searched

        search = "outcome" if outcomes else searched(*window[1:])
        checkpoint = self.keeping.checkpoint(self.rules, window[0], f"{search} split", table=False)
        if checkpoint.load() is not None:
            for (args, a, b), (lower, upper) in checkpoint.proved.items():
                if b == a + 1 and lower == upper:
                    self._known[(args, a)] = lower > a
            print(f"gamedp: resuming from {checkpoint.path} ({checkpoint.summary(window)} before)", file=sys.stderr)
        return checkpoint

    def _watch(self, checkpoint: Checkpoint | None, done: threading.Event) -> None:
        """Until ``done``: ``checkpoint`` written every ``keeping.seconds`` (until a write fails), and after a
        second a progress line on a terminal (the score's bounds and the positions explored, within 80 columns)."""
        began = kept_at = time.monotonic()
        every = None if checkpoint is None else checkpoint.keeping.seconds
        line = None
        try:
            while not done.wait(WATCH):
                now = time.monotonic()
                if checkpoint is not None and every and now >= kept_at + every:
                    every = every if self._keep(checkpoint) else None
                    kept_at = time.monotonic()
                if self.progress and now >= began + 1:
                    if line is None:
                        from gamedp.progress import ProgressLine

                        line = ProgressLine(f"searching {self.name}")
                    lo, hi = self._narrowed
                    line.describe(f"searching {self.name}: score between {lo} and {hi}")  # as one process's
                    line.update(self.explored)
        finally:
            if line is not None:
                line.close()

    def _keep(self, checkpoint: Checkpoint, stopping: bool = False) -> bool:
        """Write the driver's answers in ``checkpoint``; whether it was written (a failure is said: the search goes
        on without, or, ``stopping``, ends without)."""
        for (args, a), above in dict(self._known).items():  # a copy: the driver's threads add to it
            checkpoint.proved[(args, a, a + 1)] = (a + 1, a + 1) if above else (a, a)
        checkpoint.explored_done = self.explored
        try:
            checkpoint.save(None, 0)
        except GamedpError as e:
            print(f"gamedp: {e}; " + ("what the search proved is not kept" if stopping else
                                      "the search goes on without a checkpoint"), file=sys.stderr)
            return False
        return True

    def _share_table(self) -> TableFile:
        """A table for the workers to share, of the size each would have had, removed with this search."""
        from gamedp.memory import search_table
        from gamedp.solvers.score_search import memory_slots
        from gamedp.solvers.shared_table import SharedTable

        shared = SharedTable(memory_slots(self.memory or search_table()))
        weakref.finalize(self, shared.close)
        return shared.file

    def _plies(self, position: Any) -> int:
        """The fewest plies (an even number: the first move's replies are where a won position's work spreads
        out) at which the replies along the first moves hold enough questions."""
        wanted = QUESTIONS_PER_WORKER * self.executor.slots()
        plies, line, questions = 2, position, 1
        while True:
            replies = self._view(self._view(line)[2][0])[2]
            questions *= max(1, len(replies))
            if questions >= wanted or plies >= MOST_PLIES or not replies or not self._view(replies[0])[2]:
                return plies
            plies, line = plies + 2, replies[0]

    def _view(self, position: Any) -> View:
        """``position`` as the compiled search sees it: bounds on its score, and its children in the search's
        order (none where the game's hooks settle it: the bounds are then its exact score). The search's
        children are its words; the game's own positions are found among ``rules.children`` by theirs."""
        words = tuple(self.rules.arguments(position))
        view = self._views.get(words)
        if view is None and (kept := self._booked(position)) is not None:
            view = self._views[words] = (kept, kept, [])
        if view is None:
            out, count = self._expand(words)
            kids = []
            if count:
                by_words = {tuple(self.rules.arguments(child)[:2]): child
                            for _, child in self.rules.children(position)}
                kids = [by_words[(out[3 + 3 * j], out[4 + 3 * j])] for j in range(count)]
            view = self._views[words] = (out[0], out[1], kids)
        return view

    def _bounds(self, position: Any) -> tuple[int, int]:
        """Bounds on ``position``'s score as the compiled search sees them: all a position asked of a worker
        needs (its children, in the game's own positions, cost the driver a millisecond)."""
        words = tuple(self.rules.arguments(position))
        view = self._views.get(words)
        if view is not None:
            return view[0], view[1]
        bounds = self._bare.get(words)
        if bounds is None and (kept := self._booked(position)) is not None:
            bounds = self._bare[words] = (kept, kept)
        if bounds is None:
            out, _ = self._expand(words)
            bounds = self._bare[words] = (out[0], out[1])
        return bounds

    def _booked(self, position: Any) -> int | None:
        """``position``'s score from the opening book, or None where the book does not hold it."""
        if self.book is None or self.rules.moves_made(position) > self.book.reach:
            return None
        return self.book.score(self.rules.book_key(position), self.rules.score_bound(position))

    def _expand(self, words: tuple[int, ...]) -> tuple[Any, int]:
        """The game library's ``expand`` of the position of ``words``: its bounds, then its children's."""
        out = (ctypes.c_int64 * (2 + 3 * self.rules.max_moves + getattr(self.rules, "arena_words", 0)))()
        count = self.rules.library().expand(*words, out)
        if words not in self._bare:
            with self._counting:
                self.explored += 1
        return out, count

    # -- the split questions ----------------------------------------------------------------------------------
    def _above(self, position: Any, a: int, plies: int, stops: tuple[_Stop, ...], path: int) -> bool:
        """Whether ``position``'s score is above ``a``: settled by its bounds, known, else split over its
        children (asked of the workers at ``plies`` 1). ``path``: the position's place in the split, from the root,
        a digit per ply (base: one more than a position's most moves), the move's rank there (1 the first)."""
        low, high, kids = self._view(position)
        if low > a or high <= a:
            return low > a
        known = (tuple(self.rules.arguments(position)), a)
        above = self._known.get(known)
        if above is None:
            if plies == 1:
                above = self._some_asked(kids, -a - 1, stops, path)
            else:
                above = self._some(kids, lambda rank, kid, stops:
                                   not self._above(kid, -a - 1, plies - 1, stops, path * self._base + rank), stops)
            self._known[known] = above
        return above

    def _some_asked(self, kids: list, b: int, stops: tuple[_Stop, ...], path: int) -> bool:
        """Whether one of ``kids`` (on the split's last ply, under the node at ``path``) scores at most ``b``: those
        their bounds or the driver's answers do not settle are asked of the workers, a few in a task."""
        asked = []
        for rank, kid in enumerate(kids, 1):
            low, high = self._bounds(kid)
            above = self._known.get((tuple(self.rules.arguments(kid)), b)) if high > b >= low else low > b
            if above is None:
                asked.append((rank, kid))
            elif not above:
                return True
        if not asked:
            return False
        with self._counting:  # decided and counted at once: the driver's threads come here together
            idle = self._busy < self._slots
            first = [] if idle else [[asked.pop(0)]]
            size = -(-len(asked) // (TASKS_PER_WORKER * self._slots)) if asked else 1
            tasks = first + [asked[i:i + size] for i in range(0, len(asked), size)]
            counted = len(tasks) if idle else 1
            self._busy += counted

        def test(rank: int, task: list, stops: tuple[_Stop, ...]) -> bool:
            if rank > counted:
                with self._counting:
                    self._busy += 1
            try:
                found = self._ask([kid for _, kid in task], b, stops, path * self._base + task[0][0])
                for j, (_, kid) in enumerate(task[:len(task) if found < 0 else found + 1]):
                    self._known[(tuple(self.rules.arguments(kid)), b)] = j != found
            finally:  # after the answers are known: a query that ends early waits for none busy
                with self._counting:
                    self._busy -= 1
            return found >= 0
        return self._some(tasks, test, stops, first_alone=not idle)

    def _some(self, items: list, test: Callable[[int, Any, tuple], bool], stops: tuple[_Stop, ...],
              first_alone: bool = True) -> bool:
        """Whether ``test`` (of an item's rank, 1 the first, and the item) holds for one of ``items``: the first
        alone (the most promising: where it decides, as it mostly does, nothing else is asked), then all the
        others at once, each in a thread of its own (it waits on a worker, or splits further); the first that
        holds stops the others. All at once from the start unless ``first_alone``."""
        if first_alone:
            if test(1, items[0], stops):
                return True
            if len(items) == 1:
                return False
            rest = list(enumerate(items[1:], 2))
        else:
            rest = list(enumerate(items, 1))
        stop = _Stop()
        answers: queue.SimpleQueue = queue.SimpleQueue()

        def ask(rank: int, item: Any) -> None:
            try:
                answers.put(test(rank, item, (*stops, stop)))
            except _Cancelled:
                answers.put(None)
            except BaseException as e:  # the cluster failed: the driver says so
                answers.put(e)

        threads = [threading.Thread(target=ask, args=(rank, item), daemon=True) for rank, item in rest]
        for thread in threads:
            thread.start()
        some = False
        failure = None
        for _ in threads:
            answer = answers.get()
            if isinstance(answer, BaseException):
                failure = failure or answer
                stop.set()
            elif answer is True:
                some = True
                stop.set()
        for thread in threads:
            thread.join()
        if failure is not None:
            raise failure
        if any(s.is_set() for s in stops):
            raise _Cancelled
        return some

    def _ask(self, positions: list, a: int, stops: tuple[_Stop, ...], path: int) -> int:
        """The index of the first of ``positions`` that scores at most ``a`` (-1 for none), by a worker's search.
        The workers take the questions leftmost in the split first (by ``path``, padded to the deepest split), as a
        search of one process would come to them: those are the likeliest to be needed, the others' answers the
        likeliest to be thrown away."""
        client = self.executor.client
        while path < self._base ** MOST_PLIES:
            path *= self._base
        found = None
        while found is None:  # None: the worker took its task for cancelled (not by the driver): asked again
            future = client.submit(search_some, self.name, self.rules.game, self.memory, positions, a,
                                   self._table, priority=-path, pure=False)
            answered = threading.Event()
            future.add_done_callback(lambda _, answered=answered: answered.set())
            for stop in stops:
                stop.wake(answered)
            try:
                # waited for in this thread, not through the client's event loop: the driver's threads wait on
                # many questions at once
                answered.wait()
                if any(s.is_set() for s in stops):
                    raise _Cancelled
                found, explored = future.result()
            except _Cancelled:
                future.cancel()
                raise
            except Exception as e:
                said = " ".join(str(e).split())[:200]
                raise GamedpError(f"a worker's search failed ({type(e).__name__}{': ' + said if said else ''}); "
                                  "run the same command again") from None
            finally:
                for stop in stops:
                    stop.forget(answered)
            with self._counting:
                self.explored += explored
        with self._counting:
            self.questions += 1
        return found


def search_some(name: str, game: Any, memory: int | None, positions: list, a: int,
                table: TableFile | None = None) -> tuple[int | None, int]:
    """The index of the first of ``positions`` that scores at most ``a`` (-1 for none), and the positions explored
    finding it (run on a worker, in ``table`` where the workers share one). A
    question the driver gave up (its task cancelled: another answer decided its node) stops its search, which a
    worker's thread would otherwise finish for no one, while the questions still needed wait: None."""
    from gamedp.solvers.worker_search import search_for

    search = search_for(name, game, memory, table)
    cancelled = _cancelled()
    with _ONE_AT_A_TIME:  # so that stopping this question's search stops no other
        done = threading.Event()

        def watch() -> None:
            while not done.wait(POLL):
                if cancelled():
                    search.stop()
                    return

        watcher = threading.Thread(target=watch, daemon=True)
        watcher.start()
        explored = 0
        try:
            for index, position in enumerate(positions):
                below = search.score(position, a, a + 1) <= a
                explored += search.explored
                if below:
                    return index, explored
            return -1, explored
        except KeyboardInterrupt:  # stopped by the watcher alone
            return None, explored + search.explored
        finally:
            done.set()
            watcher.join()
            search.resume()


#: A worker process searches one question at a time (its search has one thread).
_ONE_AT_A_TIME = threading.Lock()


def _cancelled() -> Callable[[], bool]:
    """Whether the Dask task running in this thread has been cancelled (never, outside a Dask worker)."""
    try:
        from distributed import get_worker

        worker = get_worker()
        key = worker.get_current_task()
    except (ImportError, ValueError, KeyError):
        return lambda: False

    def cancelled() -> bool:
        task = worker.state.tasks.get(key)
        return task is None or task.state in ("cancelled", "released", "forgotten")

    return cancelled

