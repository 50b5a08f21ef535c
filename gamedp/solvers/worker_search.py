"""The score search a process keeps for the work an executor hands it (:mod:`gamedp.executors`): the parts of an
opening book, the subtrees of a search split over a cluster. A Dask worker loads the game by the name the command
line gave it, once, and keeps its search, and so its table, from one piece of work to the next; a piece run in
the process that hands the work out uses that process's own search (:func:`lent`).
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator

from gamedp.solvers.score_search import ScoreSearch

_searches: dict[tuple[str, int | None], ScoreSearch] = {}


def search_for(game: str, memory: int | None) -> ScoreSearch:
    """This process's search of ``game`` (a name :func:`gamedp.loader.load_game` takes) with a table of at most
    ``memory`` bytes."""
    search = _searches.get((game, memory))
    if search is None:
        from gamedp.loader import load_game
        from gamedp.solvers.score_search import score_rules

        rules = score_rules(load_game(game))
        if rules is None:
            raise ValueError(f"{game} has no exact-score search")
        search = _searches[(game, memory)] = ScoreSearch(rules, memory=memory, progress=False, book=False)
    return search


@contextmanager
def lent(game: str, memory: int | None, search: ScoreSearch) -> Iterator[None]:
    """While in this block, the work for ``game`` run in this process uses ``search``."""
    _searches[(game, memory)] = search
    try:
        yield
    finally:
        _searches.pop((game, memory), None)
