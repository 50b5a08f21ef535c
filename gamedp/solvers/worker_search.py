"""The score search a process keeps for the work an executor hands it (:mod:`gamedp.executors`): the parts of an
opening book, the subtrees of a search split over a cluster. A Dask worker gets the game with the work (a game
pickles small: its rules, not its tables), makes its search once, and keeps it, and so its table, from one piece
of work to the next; a piece run in the process that hands the work out uses that process's own search
(:func:`lent`).
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Iterator

from gamedp.solvers.score_search import ScoreSearch

_searches: dict[tuple[str, int | None], ScoreSearch] = {}


def search_for(name: str, game: Any, memory: int | None) -> ScoreSearch:
    """This process's search of ``game`` (known as ``name``) with a table of at most ``memory`` bytes."""
    search = _searches.get((name, memory))
    if search is None:
        from gamedp.solvers.score_search import score_rules

        rules = score_rules(game)
        if rules is None:
            raise ValueError(f"{name} has no exact-score search")
        search = _searches[(name, memory)] = ScoreSearch(rules, memory=memory, progress=False, book=False)
    return search


@contextmanager
def lent(name: str, memory: int | None, search: ScoreSearch) -> Iterator[None]:
    """While in this block, the work for the game known as ``name`` run in this process uses ``search``."""
    _searches[(name, memory)] = search
    try:
        yield
    finally:
        _searches.pop((name, memory), None)
