"""Memoised search for compiled games, as one machine-code loop built around the game's own kernel.

The engine is the same iterative depth-first search as :mod:`gamedp.solvers.memo`, compiled once (and cached)
in :mod:`gamedp.solvers.compiled_table`; it calls the game's ``children`` and ``primitive`` kernels through
function pointers, so no Python runs per position and no per-game compilation is needed beyond the game's own
kernels. The memo is a dense array when the game bounds its positions (``num_positions``) and the array fits,
else a hash table that grows. A search that meets a position still on its stack has found a cycle; the game
is then solved by :mod:`gamedp.solvers.retrograde` through the kernels (slower, but it finds the DRAWs).
"""

from __future__ import annotations

import numpy as np

from gamedp.compiled import CompiledGame
from gamedp.errors import GameDefinitionError, compile_failure
from gamedp.kernel_cache import CompilingNotice
from gamedp.solvers.memo import Solution
from gamedp.solvers.search_status import CYCLE, OK, problem, watched
from gamedp.values import LOSE, TIE, WIN, Analysis, Value, analysis_of

_OUTCOME = {1: LOSE, 2: WIN, 3: TIE}
#: Bound positions up to this many get a dense table (4 bytes each) instead of a hash.
DENSE_LIMIT = 1 << 27


def solve_compiled(game: CompiledGame, position: int | None = None, *, outcomes_only: bool = False
                   ) -> CompiledSolution:
    """Solve ``game`` from ``position`` (default: its start) at compiled speed."""
    solution = CompiledSolution(game, outcomes_only=outcomes_only)
    solution.value(game.start() if position is None else position)
    return solution


class CompiledSolution:
    """Values of the positions reached so far; other positions are searched when asked for."""

    def __init__(self, game: CompiledGame, *, outcomes_only: bool = False):
        from gamedp.solvers import compiled_table as kernels  # numba: only on the compiled path

        self.kernels = kernels
        self.game = game
        self.outcomes_only = outcomes_only
        self._empty_table()
        self._cyclic: Solution | None = None  # set once a cycle forces the retrograde path
        #: the positions searched from (the table holds every position reachable from them)
        self.roots: set[int] = set()
        self._children = _compiled_for(game.children_kernel, kernels.CHILDREN_SIGNATURE, "children")
        self._primitive = (None if game.primitive_kernel is None else
                           _compiled_for(game.primitive_kernel, kernels.PRIMITIVE_SIGNATURE, "primitive"))

    def _empty_table(self) -> None:
        from gamedp.memory import refuse_unless_fits

        game = self.game
        dense = game.num_positions is not None and game.num_positions <= DENSE_LIMIT
        if dense:  # the whole table at once: refused up front if it cannot fit (a hash grows under the guard)
            refuse_unless_fits(game.num_positions // 2 if self.outcomes_only else 4 * game.num_positions,
                               f"searching {game.name}")
        self.keys = np.empty(0, np.int64) if dense else np.full(1 << 16, -1, np.int64)
        if dense and self.outcomes_only:  # no remoteness to store: a nibble per position is enough
            self.vals = np.zeros((game.num_positions + 1) // 2, np.uint8)
        else:
            self.vals = np.full(game.num_positions if dense else 1 << 16, -1, np.int32)
        self.used = 0

    def __len__(self) -> int:
        return len(self._cyclic) if self._cyclic is not None else self.used

    @property
    def cyclic(self) -> Solution | None:
        """The Python engine's solution that values the game instead, once a search met a cycle (its DRAWs need
        retrograde analysis over the discovered graph); ``None`` until then."""
        return self._cyclic

    def full_search(self, start: int) -> CompiledSolution:
        """A solution whose table holds exactly the positions reachable from ``start``, with their remoteness:
        this one when its only search was that, else a new one searched from ``start`` (an outcomes-only search
        stops at a first winning move, and searches from other roots reach other positions)."""
        if self._cyclic is None and (self.outcomes_only or self.roots != {start}):
            solution = CompiledSolution(self.game)
            solution.value(start)
            return solution
        return self

    def table(self) -> tuple[np.ndarray, np.ndarray]:
        """The positions valued so far, sorted, and their values as the search encodes them (the outcome in the
        low 2 bits: 1 LOSE, 2 WIN, 3 TIE; the remoteness above)."""
        keys, vals = self.keys, self.vals
        if len(keys) == 0:
            positions = np.flatnonzero(vals > 0).astype(np.int64)
            return positions, vals[positions]
        used = keys != -1
        order = np.argsort(keys[used], kind="stable")
        return keys[used][order], vals[used][order]

    def value(self, position: int) -> Value:
        if self._cyclic is not None:
            return self._cyclic.value(position)
        self.game.check_position(position)
        code = self.kernels.read.py_func(self.keys, self.vals, np.int64(position))  # see read: no kernel to load
        if code <= 0:
            code = self._search(position)
            if self._cyclic is not None:
                return self._cyclic.value(position)
        outcome = _OUTCOME[code & 3]
        return Value(outcome) if self.outcomes_only else Value(outcome, int(code >> 2))

    def analyze(self, position: int) -> Analysis:
        return analysis_of(position, self.value(position), ((c, c) for c in self.game.children(position)), self.value)

    def best_move(self, position: int) -> int | None:
        best = self.analyze(position).best
        return None if best is None else best.move

    def save(self, path, start: int | None = None, **options) -> dict:
        """Save every position reachable from ``start`` with its value: as :meth:`gamedp.solvers.memo.Solution.save`."""
        from gamedp.saved_writer import save

        return save(self, path, start, **options)

    def _search(self, root: int) -> int:
        """Search from ``root``; its encoded value (0 when a cycle sends the game to the retrograde path)."""
        g, k = self.game, self.kernels
        self.roots.add(int(root))
        limit = -1 if g.num_positions is None else g.num_positions
        search = k.searcher(self.vals.dtype, self._primitive is not None)
        watch = np.zeros(2, np.int64)
        try:
            status, pos, detail = watched(f"searching {g.name}", watch, lambda: self._run(
                search, root, self.keys, self.vals, self.used, g.max_children, limit, watch))
        except BaseException:
            self._empty_table()  # positions under way when it stopped are marked so: the table is no use
            raise
        if status == OK:
            return detail
        if status == CYCLE:
            self._cyclic = Solution(g.as_python_game(), outcomes_only=self.outcomes_only)
            return 0
        raise problem(g, status, pos, detail)


    def _run(self, search, root, keys, vals, used, maxc, limit, watch) -> tuple[int, int, int]:
        self.keys, self.vals, self.used, status, pos, detail = search(
            self._children, self._primitive, root, keys, vals, used, maxc, limit, self.outcomes_only,
            self.game.misere, watch)
        return status, pos, detail


def _compiled_for(kernel, signature, role: str):
    """The kernel compiled for the signature the search calls it with (a no-op when it already is); a plain
    Python function is made a numba kernel first (see :func:`gamedp.compiled.jit_kernel`)."""
    import types

    from gamedp.compiled import jit_kernel

    if isinstance(kernel, types.FunctionType):
        kernel = jit_kernel(kernel)
    elif not hasattr(kernel, "overloads"):
        raise GameDefinitionError(f"the {role} kernel must be a function (plain or numba @njit), not {kernel!r}")
    if signature.args not in kernel.overloads:
        try:
            with CompilingNotice(f"the {role} kernel"):
                kernel.compile(signature.args)
        except Exception as e:  # numba's whole message: where in the user's file, and which type failed
            raise compile_failure(f"the {role} kernel", signature, e) from None
    return kernel
