"""What a search reports: a status code, the error it means, its progress (:func:`watched` runs a compiled
search in a thread and looks at it), and the value its score means (:func:`score_value`).

Numba-free and numpy-free, so that a search built ahead of time (:mod:`gamedp.solvers.prebuilt_search`) runs
without them.
"""

from __future__ import annotations

import threading
from typing import Any, Callable

from gamedp.errors import GameDefinitionError, ResourceError
from gamedp.values import LOSE, TIE, WIN, Value

OK, CYCLE, OUT_OF_RANGE, PRIMITIVE_WITH_MOVES, TOO_MANY_CHILDREN, BAD_PRIMITIVE, NEED_ROOM, STOPPED = range(8)
#: Every this many positions (a mask) the search writes its count to ``watch[0]`` and stops if ``watch[1]`` is set:
#: a Python thread polls them for the progress line and the memory guard while the search runs without the GIL.
REPORT_EVERY = (1 << 16) - 1
#: How often the progress line and the memory guard look at a running search, in seconds.
POLL_SECONDS = 0.2


def watched(what: str, watch: Any, run: Callable[[], Any]) -> Any:
    """``run()`` (a compiled search that releases the GIL) in a thread, while this one polls its ``watch`` (two
    integers, see :data:`REPORT_EVERY`) for the progress line and the memory guard; when the guard refuses, the
    search is told to stop and the guard's error is raised once it has."""
    from gamedp.memory import MemoryGuard

    guard = MemoryGuard(what)
    outcome: dict[str, Any] = {}

    def work() -> None:
        try:
            outcome["value"] = run()
        except BaseException as e:  # handed to the caller's thread
            outcome["error"] = e

    thread = threading.Thread(target=work, name="gamedp-search", daemon=True)
    thread.start()
    stopped: ResourceError | None = None
    try:
        while thread.is_alive():
            thread.join(POLL_SECONDS)
            if stopped is None and watch[0]:
                try:
                    guard.check(int(watch[0]))
                except ResourceError as e:
                    stopped, watch[1] = e, 1
    except BaseException:  # Ctrl-C: stop the search too, not only this thread
        watch[1] = 1
        raise
    finally:
        guard.progress.close()
    if "error" in outcome:
        if isinstance(outcome["error"], MemoryError):  # a table doubling past what is left
            raise ResourceError(f"{what} ran out of memory growing its table; try a smaller position") from None
        raise outcome["error"]
    if stopped is not None:
        raise stopped
    return outcome["value"]


def problem(game: Any, status: int, pos: int, detail: int) -> GameDefinitionError:
    """The error a compiled search's ``status`` (other than OK and CYCLE) reports for ``game``, a CompiledGame."""
    limit = -1 if game.num_positions is None else game.num_positions
    text = {
        OUT_OF_RANGE: f"position {pos} has a child {detail} out of range (positions must be non-negative"
                      + ("" if limit < 0 else f" and below num_positions={limit}") + ")",
        PRIMITIVE_WITH_MOVES: f"position {pos} is primitive but has {detail} moves; "
                              "a position that ends the game must have none",
        TOO_MANY_CHILDREN: f"position {pos} has {detail} children, more than max_children={game.max_children}",
        BAD_PRIMITIVE: f"primitive({pos}) returned {detail}; expected 0 (none), 1 (lose), 2 (win) or 3 (tie)",
    }[status]
    return GameDefinitionError(f"{game.name}: {text}")


def score_value(score: int, top: int) -> Value:
    """The value a search's score means: its sign is the outcome; with remoteness (``top`` > 1) a WIN in r
    scores top - r and a LOSE its negation (a TIE's remoteness is not in its score).

    >>> score_value(-1, 1), score_value(2**40 - 3, 2**40)
    (Value(outcome=Outcome.LOSE, remoteness=None, score=None), Value(outcome=Outcome.WIN, remoteness=3, score=None))
    """
    outcome = WIN if score > 0 else LOSE if score < 0 else TIE
    return Value(outcome) if top == 1 or score == 0 else Value(outcome, top - abs(score))
