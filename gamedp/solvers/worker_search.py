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
from gamedp.solvers.shared_table import TableFile

_searches: dict[tuple[str, int | None | TableFile], ScoreSearch] = {}


def search_for(name: str, game: Any, memory: int | None, table: TableFile | None = None) -> ScoreSearch:
    """This process's search of ``game`` (known as ``name``) with a table of at most ``memory`` bytes, or in
    ``table``, shared with the other processes of this machine that search the same position."""
    search = _searches.get((name, table or memory))
    if search is None:
        from gamedp.solvers.score_search import score_rules

        rules = score_rules(game)
        if rules is None:
            raise ValueError(f"{name} has no exact-score search")
        if table is not None:  # a table the driver made for this search alone: the last one's is gone
            for done in [k for k in _searches if isinstance(k[1], TableFile)]:
                del _searches[done]
        search = _searches[(name, table or memory)] = ScoreSearch(rules, memory=memory, progress=False, book=False,
                                                                   table=table)
    return search


@contextmanager
def lent(name: str, memory: int | None, search: ScoreSearch) -> Iterator[None]:
    """While in this block, the work for the game known as ``name`` run in this process uses ``search``."""
    _searches[(name, memory)] = search
    try:
        yield
    finally:
        _searches.pop((name, memory), None)
