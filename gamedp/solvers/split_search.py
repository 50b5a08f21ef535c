"""One position's exact score by a search split over the workers of a Dask cluster.

A null-window search asks whether a position's score is above ``a``; by the rules of negamax the question splits:
the score of P is above ``a`` when one of its moves c leaves a score not above ``-a - 1``, that is, when every
reply g to c leaves a score above ``a`` again. So the question about P is an OR, over P's moves, of ANDs of the
same question about its grandchildren. This process (the driver) asks it so down to ``plies`` plies (an even
number) and hands the questions about the positions there to the workers, each a null-window search with a
table of its own, kept from one question to the next (:mod:`gamedp.solvers.worker_search`):

- an OR (or an AND) asks about its most promising move first, alone (moves are ordered by the game's
  ``heuristic`` where it has one, else by the fewest replies): where that one decides it, as it mostly does,
  nothing else is asked; where it does not, the node needs (almost) all its moves, and they are asked all at
  once, the first that decides stopping the others (the young brothers wait, as parallel alpha-beta searches
  share work);
- the score is narrowed from its bounds by such questions, bisecting with a pull towards 0, as the search of one
  process does (:func:`gamedp.kernels.null_window.solve`).

Each question is answered by an exact search and they combine by the rules of negamax, so the score is exact. A
worker lost in the middle costs only the questions it held: Dask hands them to another worker.
"""

from __future__ import annotations

import contextlib
import itertools
import queue
import threading
from typing import Any, Callable

from gamedp.errors import GamedpError
from gamedp.values import Value

#: The most plies the driver splits to (each two multiply the questions by a position's moves twice over).
MOST_PLIES = 8
#: The driver splits deeper while the first AND holds fewer questions than this many per worker.
QUESTIONS_PER_WORKER = 4
#: Seconds between looks at a question's stop signal while it waits for a worker.
POLL = 0.1
#: Scores are at most this either way (a bound is kept in a byte: :mod:`gamedp.kernels.null_window`).
MOST_SCORE = 63


class _Cancelled(Exception):
    """A question whose answer is no longer needed."""


class SplitSearch:
    """Exact values of positions of ``rules``' game (named ``game`` for the workers, as :func:`gamedp.loader.
    load_game` takes it) by the search split over ``executor``'s Dask cluster; each worker's table takes at most
    ``memory`` bytes. ``plies``: how deep the driver splits (default: deep enough that the first AND holds
    :data:`QUESTIONS_PER_WORKER` questions a worker)."""

    book = None

    def __init__(self, rules: Any, game: str, executor: Any, *, memory: int | None = None, plies: int | None = None,
                 outcomes_only: bool = False):
        from gamedp.solvers.score_search import ScoreSearch

        if plies is not None and (plies < 2 or plies % 2):
            raise GamedpError(f"the split goes an even number of plies deep (2, 4, ...), not {plies}")
        self.rules, self.game, self.executor, self.memory = rules, game, executor, memory
        self.plies, self.outcomes_only = plies, outcomes_only
        #: this process's own search, for the positions settled at once (a game over, a win at once)
        self.here = ScoreSearch(rules, memory=1 << 24, progress=False, book=False)
        self.explored = 0
        self.questions = 0
        self._order = itertools.count()
        self._stopped = threading.Event()

    def stop(self) -> None:
        """Stop the search (its query raises KeyboardInterrupt)."""
        self._stopped.set()

    def value(self, position: Any) -> Value:
        """The exact value of ``position`` (its outcome alone with ``outcomes_only``)."""
        if self.outcomes_only:
            return Value(self.rules.value(position, self.score(position, -1, 1)).outcome)
        return self.rules.value(position, self.score(position))

    def score(self, position: Any, low: int = -MOST_SCORE, high: int = MOST_SCORE) -> int:
        """The exact score of ``position`` if it lies in [low, high], else the nearer of the two."""
        self.explored = self.questions = 0
        kids = self.rules.children(position)
        if not kids or not all(self.rules.children(child) for _, child in kids):
            return self.here.score(position, low, high)  # over, or settled by a move that ends it: at once
        self.executor.start()  # once, here: the threads that ask the questions would each start a local cluster
        most = getattr(self.rules, "score_bound", lambda _: MOST_SCORE)(position)
        if self.outcomes_only or getattr(self.rules, "outcomes_only", False):
            most = 1
        lo, hi = max(low, -most), min(high, most)
        ties = getattr(self.rules, "ties", True)
        plies = self.plies or self._plies(position)
        while lo < hi:
            middle = lo + (hi - lo) // 2
            if middle <= 0 and _half(lo) < middle:
                middle = _half(lo)
            elif middle >= 0 and _half(hi) > middle:
                middle = _half(hi)
            try:
                above = self._above(position, middle, plies, (self._stopped,))
            except _Cancelled:
                raise KeyboardInterrupt from None
            if above:
                lo = middle + 1
            else:
                hi = middle
            if not ties:  # no position of a game without ties scores 0
                lo, hi = (1 if lo == 0 and hi > 0 else lo), (-1 if hi == 0 and lo < 0 else hi)
        return lo

    def _plies(self, position: Any) -> int:
        """The fewest plies at which the first AND, along the most promising moves, holds enough questions."""
        wanted = QUESTIONS_PER_WORKER * self.executor.slots()
        plies, line, questions = 2, position, 1
        while True:
            replies = self.rules.children(self._moves(line)[0][1])
            questions *= max(1, len(replies))
            if questions >= wanted or plies == MOST_PLIES or not replies or not self.rules.children(replies[0][1]):
                return plies
            plies, line = plies + 2, replies[0][1]

    def _moves(self, position: Any) -> list[tuple[Any, Any]]:
        """``position``'s moves, the most promising first: the game's ``heuristic`` of the position each leaves
        (an estimate for the other player: the lower the better), else the fewest replies."""
        kids = self.rules.children(position)
        judge: Callable[[Any], float] | None = getattr(self.rules.game, "heuristic", None)
        if judge is not None:
            return sorted(kids, key=lambda kid: judge(kid[1]))
        return sorted(kids, key=lambda kid: len(self.rules.children(kid[1])))

    # -- the split questions ----------------------------------------------------------------------------------
    def _above(self, position: Any, a: int, plies: int, stops: tuple[threading.Event, ...]) -> bool:
        """Whether ``position``'s score is above ``a``: asked of a worker at ``plies`` 0, else split."""
        kids = self._moves(position) if plies else []
        if not kids:
            return self._ask(position, a, stops)

        def holds(kid: tuple[Any, Any], stops: tuple[threading.Event, ...]) -> bool:
            replies = self.rules.children(kid[1])
            if not replies:  # the move ends the game: its score is settled here at once
                return self.here.score(kid[1]) < -a
            return not self._some(replies, lambda reply, stops: not self._above(reply[1], a, plies - 2, stops),
                                  stops)

        return self._some(kids, holds, stops)

    def _some(self, items: list, test: Callable[[Any, tuple], bool], stops: tuple[threading.Event, ...]) -> bool:
        """Whether ``test`` holds for one of ``items``: the first alone (the most promising: where it decides,
        as it mostly does, nothing else is asked), then all the others at once, each in a thread of its own (it
        waits on a worker, or splits further); the first that holds stops the others."""
        if test(items[0], stops):
            return True
        if len(items) == 1:
            return False
        stop = threading.Event()
        answers: queue.SimpleQueue = queue.SimpleQueue()

        def ask(item: Any) -> None:
            try:
                answers.put(test(item, (*stops, stop)))
            except _Cancelled:
                answers.put(None)
            except BaseException as e:  # the cluster failed: the driver says so
                answers.put(e)

        threads = [threading.Thread(target=ask, args=(item,), daemon=True) for item in items[1:]]
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

    def _ask(self, position: Any, a: int, stops: tuple[threading.Event, ...]) -> bool:
        """Whether ``position``'s score is above ``a``, by a worker's search."""
        if not self.rules.children(position):
            return self.here.score(position) > a
        from distributed import wait

        client = self.executor.client
        future = client.submit(search_above, self.game, self.memory, position, a, priority=-next(self._order),
                               pure=False)
        try:
            while not future.done():
                if any(s.is_set() for s in stops):
                    raise _Cancelled
                with contextlib.suppress(TimeoutError):
                    wait([future], timeout=POLL)
            above, explored = future.result()
        except _Cancelled:
            future.cancel()
            raise
        except Exception as e:
            said = " ".join(str(e).split())[:200]
            raise GamedpError(f"a worker's search failed ({type(e).__name__}{': ' + said if said else ''}); run "
                              "the same command again") from None
        self.explored += explored
        self.questions += 1
        return above


def search_above(game: str, memory: int | None, position: Any, a: int) -> tuple[bool, int]:
    """Whether ``position``'s score is above ``a``, and the positions explored finding it (run on a worker)."""
    from gamedp.solvers.worker_search import search_for

    search = search_for(game, memory)
    above = search.score(position, a, a + 1) > a
    return above, search.explored


def _half(x: int) -> int:
    """``x / 2`` rounded towards 0."""
    return x // 2 if x >= 0 else -((-x) // 2)
