"""Memoised search for Python-defined games: depth-first, iterative, with a dict memo.

The search keeps its own stack, so a chain of a million moves is no problem for Python's recursion limit.
When it meets a position that is still on its stack the game has a cycle; it then hands the discovered graph
to :mod:`gamedp.solvers.retrograde`, which finds the DRAWs. Values found before that are kept: they are final.

Two modes:

- full (default): outcome, remoteness and (in scored games) score for every position reached;
- ``outcomes_only=True``: win/lose/tie only, stopping at a position's first winning move, the way a
  hand-written memo search does. Far fewer positions are visited.

>>> from gamedp.games.tictactoe import TicTacToe
>>> solve(TicTacToe()).value(TicTacToe().start())
Value(outcome=Outcome.TIE, remoteness=9, score=None)
"""

from __future__ import annotations

from typing import Any, Callable, Hashable, Iterator

from gamedp.errors import GameDefinitionError
from gamedp.game import Game, Move, Position, no_move_value, overrides, terminal_value
from gamedp.values import DRAW, LOSE, TIE, WIN, Analysis, Outcome, Value, analysis_of

#: Marks a position whose search is under way: meeting it again means the game has a cycle.
IN_PROGRESS = object()
_MISSING = object()
#: The search asks the memory guard every 64k new positions (a mask): often enough, and costs nothing.
CHECK_EVERY = (1 << 16) - 1
#: Memory one position takes in this engine's table (its tuple key, value and dict slot), in bytes: measured
#: by tests/test_memory_guard.py against the peak of real searches. Games' ``memory_estimate`` counts in it.
BYTES_PER_POSITION = 170
#: Steps this engine may take on one question (a game's ``work_estimate``: about a move looked at each): a couple
#: of minutes at the speed measured a step (docs/performance.md).
WORK_LIMIT = 2 * 10**7


class _CycleFound(Exception):
    pass


def solve(game: Game, position: Position | None = None, *, outcomes_only: bool = False) -> Solution:
    """Solve ``game`` from ``position`` (default: its start) and return the :class:`Solution`."""
    solution = Solution(game, outcomes_only=outcomes_only)
    solution.value(game.start() if position is None else position)
    return solution


class Solution:
    """The values of the positions a search has reached, growing on demand as other positions are asked."""

    def __init__(self, game: Game, *, outcomes_only: bool = False):
        if outcomes_only and game.scored:
            outcomes_only = False  # a score is the point of a scored game
        self.game = game
        self.outcomes_only = outcomes_only
        #: key(canonical(position)) -> Value (full mode) or Outcome (outcomes_only)
        self.table: dict[Hashable, Any] = {}
        canon = game.canonical if overrides(game, "canonical") else None
        key = game.key if overrides(game, "key") else None
        if canon and key:
            self.keyf: Callable | None = lambda p: key(canon(p))
        else:
            self.keyf = canon or key
        self._primitive = game.primitive if overrides(game, "primitive") else None
        #: the keys of the positions searched from (the table holds every position reachable from them)
        self.roots: set[Hashable] = set()

    # -- queries -------------------------------------------------------------------------------------------
    def value(self, position: Position) -> Value:
        """The value of ``position`` for the player to move (searching from it if it was not reached yet)."""
        k = self._key(position)
        v = self.table.get(k)
        if v is None:
            self._search(position, k)
            v = self.table[k]
        return Value(v) if self.outcomes_only else v

    def analyze(self, position: Position) -> Analysis:
        """The position's value and every legal move with its value, best first."""
        return analysis_of(position, self.value(position), self.game.move_list(position), self.value)

    def best_move(self, position: Position) -> Move | None:
        """A best move for the player to move, or ``None`` where the game is over."""
        best = self.analyze(position).best
        return None if best is None else best.move

    def line(self, position: Position, max_moves: int = 1000) -> list[tuple[Move, Position]]:
        """A perfect line of play from ``position``: (move, resulting position) pairs to the end.

        A DRAW line stops when a position repeats, or after ``max_moves``.
        """
        seen = {self._key(position)}
        line: list[tuple[Move, Position]] = []
        while len(line) < max_moves:
            best = self.analyze(position).best
            if best is None:
                break
            position = best.child
            line.append((best.move, position))
            k = self._key(position)
            if k in seen:
                break
            seen.add(k)
        return line

    def save(self, path: Any, start: Position | None = None, **options: Any) -> dict:
        """Save every position reachable from ``start`` (default: the game's start) with its value, to be answered
        from later without solving: see :mod:`gamedp.saved_solution`. Returns the statistics saved."""
        from gamedp.saved_writer import save

        return save(self, path, start, **options)

    def __len__(self) -> int:
        return len(self.table)

    # -- search --------------------------------------------------------------------------------------------
    def _key(self, position: Position) -> Hashable:
        try:
            k = position if self.keyf is None else self.keyf(position)
            hash(k)
        except TypeError as e:
            raise self._unhashable(position, e) from None
        return k

    def _open(self, position: Position) -> Any:
        """A new position's terminal value, or its iterable of children."""
        if self._primitive is not None and getattr(self.game, "primitive_first", False):
            p = self._primitive(position)
            if p is None:
                return self.game.children(position)
            v = terminal_value(self.game, p, position)
            return v.outcome if self.outcomes_only else v
        kids = self.game.children(position)
        if self._primitive is not None:
            p = self._primitive(position)
            if p is not None:
                if next(iter(kids), _MISSING) is not _MISSING:
                    raise GameDefinitionError(
                        f"{self.game.name}: position {position!r} is primitive ({p!r}) but has moves; "
                        "a position that ends the game must have none")
                v = terminal_value(self.game, p, position)
                return v.outcome if self.outcomes_only else v
        return kids

    def _search(self, root: Position, root_key: Hashable) -> None:
        from gamedp.memory import MemoryGuard

        self._guard = MemoryGuard(f"searching {self.game.name}")
        self.roots.add(root_key)
        try:
            self._search_from(root, root_key)
        finally:
            self._guard.progress.close()

    def _search_from(self, root: Position, root_key: Hashable) -> None:
        try:
            if self.outcomes_only:
                self._search_outcomes(root, root_key)
            else:
                self._search_values(root, root_key)
        except _CycleFound:
            for k in [k for k, v in self.table.items() if v is IN_PROGRESS]:
                del self.table[k]
            from gamedp.solvers.retrograde import retrograde

            values = retrograde(self.game, root, self.table, self.keyf, outcomes_only=self.outcomes_only)
            self.table.update(values)

    def _unhashable(self, position: Position, error: TypeError) -> GameDefinitionError:
        return GameDefinitionError(f"{self.game.name}: position {position!r} cannot be a table key ({error}); "
                                   "make positions hashable (tuples, frozensets, ints) or define key()")

    def _search_outcomes(self, root: Position, k: Hashable) -> None:
        # The hot loop: locals only, one frame = (key, children iterator, outcome so far).
        table, keyf, children, nomove = self.table, self.keyf, self.game.children, None
        opened = self._open(root)
        if isinstance(opened, Outcome):
            table[k] = opened
            return
        nomove = no_move_value(self.game, root).outcome
        stack: list[tuple[Hashable, Iterator, Outcome | None]] = []
        # state: None (no child yet), LOSE (all children WIN), DRAW (a DRAW child), TIE (a TIE child)
        it, state = iter(opened), None
        table[k] = IN_PROGRESS
        prim, guard, fresh = self._primitive, self._guard, 0
        c = root
        try:
            while True:
                for c in it:
                    ck = c if keyf is None else keyf(c)
                    v = table.get(ck)
                    if v is None:
                        fresh += 1
                        if not fresh & CHECK_EVERY:
                            guard.check(len(table))
                        if prim is None:
                            stack.append((k, it, state))
                            k, it, state = ck, iter(children(c)), None
                            table[k] = IN_PROGRESS
                            value = None
                            break
                        opened = self._open(c)
                        if not isinstance(opened, Outcome):
                            stack.append((k, it, state))
                            k, it, state = ck, iter(opened), None
                            table[k] = IN_PROGRESS
                            value = None
                            break
                        v = table[ck] = opened
                    if v is LOSE:
                        value = WIN
                        break
                    if v is IN_PROGRESS:
                        raise _CycleFound
                    if v is TIE:
                        state = TIE
                    elif v is DRAW:  # known from an earlier retrograde pass
                        if state is not TIE:
                            state = DRAW
                    elif state is None:
                        state = LOSE
                else:
                    value = nomove if state is None else state
                if value is None:
                    continue
                while True:  # finish this frame, then fold its value into the parents
                    table[k] = value
                    if not stack:
                        return
                    k, it, state = stack.pop()
                    if value is LOSE:
                        value = WIN
                        continue
                    if value is TIE:
                        state = TIE
                    elif value is DRAW:
                        if state is not TIE:
                            state = DRAW
                    elif state is None:
                        state = LOSE
                    break
        except TypeError as e:
            if "unhashable" in str(e):
                raise self._unhashable(c, e) from None
            raise

    def _search_values(self, root: Position, k: Hashable) -> None:
        table, keyf = self.table, self.keyf
        opened = self._open(root)
        if isinstance(opened, Value):
            table[k] = opened
            return
        # frame: [key, position, children iterator, best value for the mover so far]
        stack: list[list] = []
        frame: list = [k, root, iter(opened), None]
        table[k] = IN_PROGRESS
        c, guard, fresh = root, self._guard, 0
        try:
            while True:
                best = frame[3]
                for c in frame[2]:
                    ck = c if keyf is None else keyf(c)
                    v = table.get(ck)
                    if v is None:
                        fresh += 1
                        if not fresh & CHECK_EVERY:
                            guard.check(len(table))
                        opened = self._open(c)
                        if not isinstance(opened, Value):
                            frame[3] = best
                            stack.append(frame)
                            frame = [ck, c, iter(opened), None]
                            table[ck] = IN_PROGRESS
                            break
                        v = table[ck] = opened
                    elif v is IN_PROGRESS:
                        raise _CycleFound
                    v = v.for_parent()
                    if best is None or v.rank() > best.rank():
                        best = v
                else:
                    value = no_move_value(self.game, frame[1]) if best is None else best
                    table[frame[0]] = value
                    if not stack:
                        return
                    frame = stack.pop()
                    v = value.for_parent()
                    if frame[3] is None or v.rank() > frame[3].rank():
                        frame[3] = v
        except TypeError as e:
            if "unhashable" in str(e):
                raise self._unhashable(c, e) from None
            raise
