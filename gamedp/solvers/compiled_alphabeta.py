"""One position's value of a compiled game, pruned: :mod:`gamedp.solvers.alphabeta` as one machine-code loop.

The search is negamax with alpha-beta over the same scores as the Python engine (outcomes -1, 0, 1; or, with
remoteness, WIN in r = TOP - r), a transposition table of bounds (an open-addressing hash over the positions,
doubling when half full, two 32-bit bounds an entry), enhanced transposition cut-offs, and move ordering: children
the table already rates first, then by a history of which child slots of the game's kernel caused cut-offs (the
kernel's own order breaks ties, so a kernel that lists likely-best moves first is searched best first).

Like :mod:`gamedp.solvers.compiled_table`, the kernel takes the game's kernels as first-class function values and
is cached on disk: nothing is compiled per game. Where the game's kernels are plain Python functions, the search
is compiled with them ahead of time instead, once, into a plain C library (:mod:`gamedp.solvers.prebuilt_search`):
a run then loads it without importing numba or numpy. A position met again on the search's own path is a cycle: the
question then goes to the full compiled engine, which finds DRAWs.

>>> from gamedp.games.connect4 import Connect4
>>> game = Connect4(4, 3).compiled()
>>> solution = CompiledPrunedSolution(game, remoteness=True)
>>> solution.value(game.start())
Value(outcome=Outcome.TIE, remoteness=12, score=None)
"""

from __future__ import annotations

from typing import Any

from gamedp.compiled import CompiledGame
from gamedp.solvers.search_status import score_value
from gamedp.values import Analysis, Value

#: With remoteness, a WIN in r moves scores TOP - r (bounds are stored in 32 bits).
TOP = 1 << 29


class CompiledPrunedSolution:
    """Values of a compiled game's positions by pruned searches sharing one table (see PrunedSolution)."""

    def __init__(self, game: CompiledGame, *, remoteness: bool = False):
        from gamedp.solvers.prebuilt_search import load_search

        self.game = game
        self.remoteness = remoteness
        self.top = TOP if remoteness else 1
        self._full = None
        self._ties = None  # the full engine, for the remoteness of TIEs
        #: the search and its table: built ahead of time (no numba, no numpy), else numba's
        self._search = load_search(game) or NumbaSearch(game)

    def __len__(self) -> int:
        return self._search.used if self._full is None else len(self._full)

    def value(self, position: int) -> Value:
        if self._full is None:
            self.game.check_position(position)
            score = self._exact(position)
            if score is not None:
                return self._value(position, score)
        v = self._full.value(position)
        return v if self.remoteness else Value(v.outcome)

    def analyze(self, position: int) -> Analysis:
        """Every move's exact value, best first (one pruned search per child, as value() answers them)."""
        from gamedp.solvers.compiled import CompiledSolution

        return CompiledSolution.analyze(self, position)  # type: ignore[arg-type]

    def best_move(self, position: int) -> Any:
        from gamedp.solvers.compiled import CompiledSolution

        return CompiledSolution.best_move(self, position)  # type: ignore[arg-type]

    def _exact(self, position: int) -> int | None:
        """The exact score of ``position``, or None once a cycle sent the game to the full engine."""
        from gamedp.solvers import search_status as k

        g = self.game
        limit = -1 if g.num_positions is None else g.num_positions
        try:
            status, pos, detail = k.watched(f"searching {g.name}", self._search.watch,
                                            lambda: self._search.run(position, limit, self.top, self.remoteness))
        except BaseException:  # positions on the path when it stopped are marked so: the table is no use
            self._search.clear()
            raise
        if status == k.OK:
            return detail
        if status == k.CYCLE:
            self._full = _full_engine(g, self.remoteness)
            return None
        raise k.problem(g, status, pos, detail)

    def _value(self, position: int, score: int) -> Value:
        if score == 0 and self.remoteness:
            # A TIE's remoteness follows the quickest tie below it: the full compiled engine finds it, from here.
            if self._ties is None:
                self._ties = _full_engine(self.game, True)
            return self._ties.value(position)
        return score_value(score, self.top)


class NumbaSearch:
    """The search of :mod:`gamedp.solvers.alphabeta_kernel` (cached by numba) with ``game``'s kernels, and its
    table in numpy arrays (as :class:`gamedp.solvers.prebuilt_search.NativeSearch` keeps it in ctypes arrays)."""

    def __init__(self, game: CompiledGame):
        import numpy as np

        from gamedp.solvers import compiled_table
        from gamedp.solvers.alphabeta_kernel import searcher
        from gamedp.solvers.compiled import _compiled_for

        self.game = game
        self.children = _compiled_for(game.children_kernel, compiled_table.CHILDREN_SIGNATURE, "children")
        self.primitive = (None if game.primitive_kernel is None else
                          _compiled_for(game.primitive_kernel, compiled_table.PRIMITIVE_SIGNATURE, "primitive"))
        self.search = searcher(self.primitive is not None)
        self.history = np.zeros(game.max_children, np.int64)
        self.watch = np.zeros(2, np.int64)
        self.clear()

    def clear(self) -> None:
        """Empty the table."""
        import numpy as np

        self.keys = np.full(1 << 16, -1, np.int64)
        self.vals = np.full(1 << 16, -1, np.int64)
        self.used = 0

    def run(self, root: int, limit: int, top: int, remote: bool) -> tuple[int, int, int]:
        """Search ``root``: (status, position, detail), as :func:`gamedp.solvers.alphabeta_kernel.search`."""
        self.watch[:] = 0
        self.keys, self.vals, self.used, status, pos, detail = self.search(
            self.children, self.primitive, root, self.keys, self.vals, self.used, self.history,
            self.game.max_children, limit, top, remote, self.game.misere, self.watch)
        return status, pos, detail


def _full_engine(game: CompiledGame, remoteness: bool) -> Any:
    from gamedp.solvers.compiled import CompiledSolution

    return CompiledSolution(game, outcomes_only=not remoteness)
