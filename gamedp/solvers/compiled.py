"""Memoised search for compiled games, as one machine-code loop built around the game's own kernel.

The engine is the same iterative depth-first search as :mod:`gamedp.solvers.memo`, specialised on the game's
``children`` (and ``primitive``) kernel: numba inlines them into the search, so no Python runs per position.
The memo is an open-addressing hash table in two numpy arrays (positions, encoded values) that doubles when
half full. A search that meets a position still on its stack has found a cycle; the game is then solved by
:mod:`gamedp.solvers.retrograde` through the kernels (slower, but it finds the DRAWs).

Values are encoded in one int64: outcome code in the low 2 bits (1 LOSE, 2 WIN, 3 TIE), remoteness above;
0 marks a position whose search is under way.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from gamedp.compiled import CompiledGame
from gamedp.errors import GameDefinitionError
from gamedp.solvers.memo import Solution
from gamedp.values import LOSE, TIE, WIN, Analysis, MoveValue, Value

_OUTCOME = {1: LOSE, 2: WIN, 3: TIE}
OK, CYCLE, OUT_OF_RANGE, PRIMITIVE_WITH_MOVES, TOO_MANY_CHILDREN, BAD_PRIMITIVE = range(6)
_engines: dict[tuple[int, int], Any] = {}


def solve_compiled(game: CompiledGame, position: int | None = None, *, outcomes_only: bool = False
                   ) -> CompiledSolution:
    """Solve ``game`` from ``position`` (default: its start) at compiled speed."""
    solution = CompiledSolution(game, outcomes_only=outcomes_only)
    solution.value(game.start() if position is None else position)
    return solution


class CompiledSolution:
    """Values of the positions reached so far; other positions are searched when asked for."""

    def __init__(self, game: CompiledGame, *, outcomes_only: bool = False, initial_capacity: int = 1 << 16):
        self.game = game
        self.outcomes_only = outcomes_only
        self.keys = np.full(initial_capacity, -1, dtype=np.int64)
        self.vals = np.zeros(initial_capacity, dtype=np.int64)
        self.used = 0
        self._cyclic: Solution | None = None  # set once a cycle forces the retrograde path

    def __len__(self) -> int:
        return len(self._cyclic) if self._cyclic is not None else self.used

    def value(self, position: int) -> Value:
        if self._cyclic is not None:
            return self._cyclic.value(position)
        self.game.check_position(position)
        kernels = _kernels()
        code = kernels.lookup(self.keys, self.vals, np.int64(position))
        if code <= 0:
            self._search(position)
            if self._cyclic is not None:
                return self._cyclic.value(position)
            code = kernels.lookup(self.keys, self.vals, np.int64(position))
        outcome = _OUTCOME[code & 3]
        return Value(outcome) if self.outcomes_only else Value(outcome, int(code >> 2))

    def analyze(self, position: int) -> Analysis:
        moves = [MoveValue(c, c, self.value(c).for_parent()) for c in self.game.children(position)]
        moves.sort(key=lambda mv: mv.value.rank(), reverse=True)
        return Analysis(position, self.value(position), tuple(moves))

    def best_move(self, position: int) -> int | None:
        best = self.analyze(position).best
        return None if best is None else best.move

    def _search(self, root: int) -> None:
        g = self.game
        search = _engine(g)
        limit = -1 if g.num_positions is None else g.num_positions
        self.keys, self.vals, self.used, status, pos, child = search(
            np.int64(root), self.keys, self.vals, self.used, g.max_children, limit, self.outcomes_only, g.misere)
        if status == OK:
            return
        if status == CYCLE:
            self._cyclic = Solution(g.as_python_game(), outcomes_only=self.outcomes_only)
            return
        problem = {
            OUT_OF_RANGE: f"position {pos} has a child {child} out of range (positions must be non-negative"
                          + ("" if limit < 0 else f" and below num_positions={limit}") + ")",
            PRIMITIVE_WITH_MOVES: f"position {pos} is primitive but has {child} moves; "
                                  "a position that ends the game must have none",
            TOO_MANY_CHILDREN: f"position {pos} has {child} children, more than max_children={g.max_children}",
            BAD_PRIMITIVE: f"primitive({pos}) returned {child}; expected 0 (none), 1 (lose), 2 (win) or 3 (tie)",
        }[status]
        raise GameDefinitionError(f"{g.name}: {problem}")


def _kernels():
    from gamedp.solvers import compiled_table  # imports numba: only on the compiled path

    return compiled_table


def _engine(game: CompiledGame):
    key = (id(game.children_kernel), id(game.primitive_kernel))
    engine = _engines.get(key)
    if engine is None:
        engine = _engines[key] = _build_engine(game.children_kernel, game.primitive_kernel)
    return engine


def _build_engine(children, primitive):
    """Specialise the search on the game's kernels (a closure numba compiles as one function)."""
    from numba import njit

    from gamedp.solvers.compiled_table import RANK_BASE, encode_rank, find_slot, grown, rank_of_child, store

    has_primitive = primitive is not None
    if not has_primitive:
        primitive = _no_primitive()

    @njit(nogil=True)
    def search(root, keys, vals, used, maxc, limit, outcomes_only, misere):
        cap = 64
        st_pos = np.empty(cap, np.int64)  # frame: position, child count, next child, best rank so far
        st_n = np.empty(cap, np.int64)
        st_i = np.empty(cap, np.int64)
        st_best = np.empty(cap, np.int64)
        kids = np.empty(cap * maxc, np.int64)
        buf = np.empty(maxc + 1, np.int64)
        depth = 0
        pos = root
        while True:
            # Expand `pos`: a terminal value, or a new frame on the stack.
            n = children(pos, buf)
            if n > maxc:
                return keys, vals, used, TOO_MANY_CHILDREN, pos, n
            code = primitive(pos) if has_primitive else 0
            if code < 0 or code > 3:
                return keys, vals, used, BAD_PRIMITIVE, pos, code
            if code != 0 and n > 0:
                return keys, vals, used, PRIMITIVE_WITH_MOVES, pos, n
            if code == 0 and n == 0:
                code = 2 if misere else 1
            if code != 0:
                keys, vals, used = store(keys, vals, used, pos, code)
                if depth == 0:
                    return keys, vals, used, OK, pos, 0
                st_best[depth - 1] = max(st_best[depth - 1], rank_of_child(code, outcomes_only))
                st_i[depth - 1] += 1
            else:
                if depth == cap:
                    cap *= 2
                    st_pos, st_n = grown(st_pos, cap), grown(st_n, cap)
                    st_i, st_best = grown(st_i, cap), grown(st_best, cap)
                    kids = grown(kids, cap * maxc)
                base = depth * maxc
                for j in range(n):
                    c = buf[j]
                    if c < 0 or (limit >= 0 and c >= limit):
                        return keys, vals, used, OUT_OF_RANGE, pos, c
                    kids[base + j] = c
                st_pos[depth], st_n[depth], st_i[depth], st_best[depth] = pos, n, 0, -1
                keys, vals, used = store(keys, vals, used, pos, 0)
                depth += 1
            # Scan the top frame's children; finish frames until one needs a child expanded.
            while True:
                f = depth - 1
                best, i, base = st_best[f], st_i[f], f * maxc
                descend = False
                while i < st_n[f] and not (outcomes_only and best > 2 * RANK_BASE):
                    c = kids[base + i]
                    s = find_slot(keys, c)
                    if keys[s] != c:
                        descend = True
                        break
                    if vals[s] == 0:
                        return keys, vals, used, CYCLE, st_pos[f], c
                    best = max(best, rank_of_child(vals[s], outcomes_only))
                    i += 1
                st_best[f], st_i[f] = best, i
                if descend:
                    pos = c
                    break
                enc = encode_rank(best)
                keys, vals, used = store(keys, vals, used, st_pos[f], enc)
                depth -= 1
                if depth == 0:
                    return keys, vals, used, OK, root, 0
                st_best[depth - 1] = max(st_best[depth - 1], rank_of_child(enc, outcomes_only))
                st_i[depth - 1] += 1

    return search


def _no_primitive():
    from numba import njit

    @njit(nogil=True)
    def none(pos):
        return 0

    return none
