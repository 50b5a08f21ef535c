"""Nimbers (Grundy values) of impartial games, sums of games, and misère play.

Under normal play (no move = lose) every position of an impartial game behaves like a Nim heap of its *nimber*:
the mex (least excluded value) of its children's nimbers. A sum of games -- a move is a move in one
component -- has the XOR of the parts' nimbers, and a winning move sits in a component whose nimber drops to
``its nimber XOR the total``. Misère play (no move = win) has no such rule in general: :func:`misere_outcome`
searches the sum itself, except for Nim heaps, where the misère Nim rule holds (:func:`misere_nim_wins`).

A game that ends when no stones are left: take 1 or 2.

>>> from gamedp.game import Game
>>> class Take12(Game):
...     def start(self): return 7
...     def children(self, n): return [n - k for k in (1, 2) if k <= n]
>>> nimbers = Nimbers(Take12())
>>> [nimbers(n) for n in range(7)]
[0, 1, 2, 0, 1, 2, 0]
>>> sum_nimber([(Take12(), 4), (Take12(), 5)])       # 1 XOR 2
3
>>> sum_winning_moves([(Take12(), 4), (Take12(), 5)])  # (component, move, new position): make it 0 again
[(0, 2, 2), (1, 4, 4)]
>>> misere_outcome([(Take12(), 1)] * 3).name   # misère: the one to take the last stone loses
'LOSE'
>>> misere_nim_wins([1, 1, 1]), misere_nim_wins([2, 2])
(False, False)
"""

from __future__ import annotations

from typing import Any, Hashable, Iterable, Sequence

from gamedp.compiled import PRIMITIVE_LOSE, CompiledGame
from gamedp.errors import GameDefinitionError
from gamedp.game import Game, Move, Position, overrides
from gamedp.values import LOSE, Outcome, nim_sum

_IN_PROGRESS = -1

#: One component of a sum: a game and a position of it.
Component = tuple[Any, Position]


def mex(values: Iterable[int]) -> int:
    """The least non-negative integer not among ``values``.

    >>> mex([0, 1, 3]), mex([]), mex([2])
    (2, 0, 0)
    """
    seen = set(values)
    v = 0
    while v in seen:
        v += 1
    return v


class Nimbers:
    """Nimbers of one game's positions, found by mex over an iterative depth-first search and kept.

    Works for Python-defined games (``canonical`` and ``key`` are honoured) and for compiled games; a compiled
    game that declares ``num_positions`` is solved by a machine-code search over a dense table.
    """

    def __init__(self, game: Game | CompiledGame):
        if game.misere or getattr(game, "scored", False):
            raise GameDefinitionError(f"{game.name}: nimbers are for impartial games under normal play; "
                                      "use misere_outcome() for misère play")
        self.game = game
        self.table: dict[Hashable, int] = {}
        self._dense = None
        if isinstance(game, CompiledGame):
            self._python = game.as_python_game()
            self.keyf = None
        else:
            self._python = game
            canon = game.canonical if overrides(game, "canonical") else None
            key = game.key if overrides(game, "key") else None
            self.keyf = (lambda p: key(canon(p))) if canon and key else canon or key
        self._primitive = self._python.primitive if overrides(self._python, "primitive") else None
        self._split = self._python.split if overrides(self._python, "split") else None

    def __call__(self, position: Position) -> int:
        """The nimber of ``position``: with a ``split`` hook, the XOR of its parts' nimbers."""
        if isinstance(self.game, CompiledGame) and self.game.num_positions is not None:
            return self._dense_nimber(int(position))
        if self._split is not None:
            return nim_sum(self._part(p) for p in self._split(position))
        return self._part(position)

    def key(self, position: Position) -> Hashable:
        """What the table stores ``position`` under."""
        return position if self.keyf is None else self.keyf(position)

    def known(self, position: Position) -> int | None:
        """The nimber of ``position`` if the table has it (a part, when the game splits), else None."""
        v = self.table.get(self.key(position))
        return None if v is None or v < 0 else v

    def _part(self, position: Position) -> int:
        k = self.key(position)
        v = self.table.get(k)
        if v is None:
            self._search(position, k)
            v = self.table[k]
        return v

    def winning_moves(self, position: Position) -> list[tuple[Move, Position]]:
        """The moves (with the positions they lead to) to a child of nimber 0: the winning moves."""
        return [(m, c) for m, c in self._python.move_list(position) if self(c) == 0]

    def _options(self, position: Position) -> list[list[tuple[Position, Hashable]]]:
        """Each move as the parts it leaves, with their keys (one part, the child, when the game does not split)."""
        kids = list(self._python.children(position))
        if self._primitive is not None:
            p = self._primitive(position)
            if p is not None:
                if p is not LOSE:
                    raise GameDefinitionError(f"{self.game.name}: primitive({position!r}) is {p}; under normal "
                                              "play an ended game is lost by the player to move")
                if kids:
                    raise GameDefinitionError(f"{self.game.name}: position {position!r} is primitive but has moves")
        key, split = self.key, self._split
        if split is None:
            return [[(c, key(c))] for c in kids]
        return [[(p, key(p)) for p in split(c)] for c in kids]

    def _search(self, root: Position, root_key: Hashable) -> None:
        table = self.table
        table[root_key] = _IN_PROGRESS
        stack = [(root_key, self._options(root), 0)]
        while stack:
            k, options, i = stack[-1]
            pushed = False
            while i < len(options):
                for c, ck in options[i]:
                    v = table.get(ck)
                    if v is None:
                        stack[-1] = (k, options, i)
                        table[ck] = _IN_PROGRESS
                        stack.append((ck, self._options(c), 0))
                        pushed = True
                        break
                    if v == _IN_PROGRESS:
                        raise GameDefinitionError(f"{self.game.name}: position {c!r} can be reached from itself; "
                                                  "nimbers need a game in which play always ends")
                if pushed:
                    break
                i += 1
            if not pushed:
                stack.pop()
                table[k] = mex(nim_sum(table[ck] for _, ck in parts) for parts in options)

    def _dense_nimber(self, position: int) -> int:
        game = self.game
        game.check_position(position)
        if self._dense is None:
            import numpy as np

            self._dense = np.full(game.num_positions, -1, dtype=np.int32)
        if self._dense[position] < 0:
            kernel, no_primitive = _dense_kernel()
            primitive = game.primitive_kernel
            status = kernel(game.children_kernel, primitive is not None, primitive or no_primitive,
                            game.max_children, position, self._dense)
            if status >= 0:
                raise GameDefinitionError(_dense_problem(game, status))
        return int(self._dense[position])


def _dense_kernel() -> tuple:
    """The compiled depth-first mex search (numba is imported here, only when a compiled game is solved)."""
    global _dense_jit, np
    if _dense_jit is None:
        import numpy as np  # a global of the kernel below: bound only now, to keep this module's import light
        from numba import njit

        # Not cached on disk: it is specialised for each game's kernel, which numba cannot key a cache on.
        _dense_jit = (njit(nogil=True)(_dense_nimbers), njit(cache=True)(_no_primitive))
    return _dense_jit


_dense_jit: tuple | None = None
np: Any = None


def _no_primitive(position):  # stands in for a compiled game without a primitive kernel
    return 0


def _dense_nimbers(children, has_primitive, primitive, max_children, root, table):
    """Fill ``table`` (-1 = unknown) for every position reachable from ``root``; -1 if fine, else a bad position.

    A position is expanded when first on top of the stack (marked -2) and finished when it comes back to the
    top, by generating its children again: no per-frame child buffers, and a -2 child is an ancestor (a cycle).
    """
    kids = np.empty(max_children + 1, np.int64)
    seen = np.zeros(max_children + 2, np.int64)
    stamp = 0
    size = table.shape[0]
    stack = np.empty(1024, np.int64)
    stack[0] = root
    top = 1
    while top > 0:
        p = stack[top - 1]
        if table[p] >= 0:
            top -= 1
            continue
        n = children(p, kids)
        if n > max_children:
            return p
        if has_primitive and primitive(p) != 0 and (n > 0 or primitive(p) != 1):
            return p
        if table[p] == -1:
            table[p] = -2
            for i in range(n):
                c = kids[i]
                if c < 0 or c >= size or table[c] == -2:
                    return p
                if table[c] == -1:
                    if top == stack.shape[0]:
                        bigger = np.empty(2 * top, np.int64)
                        bigger[:top] = stack
                        stack = bigger
                    stack[top] = c
                    top += 1
            continue
        stamp += 1
        for i in range(n):
            v = table[kids[i]]
            if v <= max_children:
                seen[v] = stamp
        v = 0
        while seen[v] == stamp:
            v += 1
        table[p] = v
        top -= 1
    return -1


def _dense_problem(game: CompiledGame, position: int) -> str:
    kids = game.children(position)  # raises itself for out-of-range children and too many children
    if game.primitive_kernel is not None and int(game.primitive_kernel(position)) not in (0, PRIMITIVE_LOSE):
        return f"{game.name}: position {position} is primitive but not lost by the player to move"
    if game.primitive_kernel is not None and int(game.primitive_kernel(position)) and kids:
        return f"{game.name}: position {position} is primitive but has moves"
    return (f"{game.name}: position {position} can be reached from itself; nimbers need a game in which "
            "play always ends")


def nimber(game: Game | CompiledGame, position: Position | None = None) -> int:
    """The nimber of ``position`` (default: the start) of an impartial game under normal play."""
    return Nimbers(game)(game.start() if position is None else position)


def _nimbers_of(components: Sequence[Component]) -> list[tuple[Nimbers, int]]:
    solvers: dict[int, Nimbers] = {}
    out = []
    for game, position in components:
        solver = solvers.get(id(game))
        if solver is None:
            solver = solvers[id(game)] = Nimbers(game)
        out.append((solver, solver(position)))
    return out


def sum_nimber(components: Sequence[Component]) -> int:
    """The nimber of a sum of games: the XOR of the components' nimbers."""
    return nim_sum(g for _, g in _nimbers_of(components))


def sum_winning_moves(components: Sequence[Component]) -> list[tuple[int, Move, Position]]:
    """Every winning move of a sum as (component index, move, the component's new position).

    A component of nimber ``g`` must move to a position of nimber ``g XOR total``: always possible when that
    is below ``g``, and possible above ``g`` too in games other than Nim, so every component is searched.
    """
    solved = _nimbers_of(components)
    total = nim_sum(g for _, g in solved)
    moves = []
    if total == 0:
        return moves
    for i, ((_, position), (solver, g)) in enumerate(zip(components, solved)):
        target = g ^ total
        moves += [(i, m, c) for m, c in solver._python.move_list(position) if solver(c) == target]
    return moves


class SumGame(Game):
    """The disjoint sum of games as one game: a position is a tuple of component positions.

    Components may be Python-defined or compiled. With ``misere=True`` the player with no move in any
    component wins. Components of the same game are sorted in the canonical form, so equal multisets meet
    in the memo table.
    """

    def __init__(self, games: Sequence[Any], misere: bool = False):
        self.games = [g.as_python_game() if isinstance(g, CompiledGame) else g for g in games]
        self.name = " + ".join(g.name for g in self.games)
        self.misere = misere
        self._same = len({id(g) for g in self.games}) <= 1

    def start(self) -> tuple:
        return tuple(g.start() for g in self.games)

    def moves(self, position: tuple) -> list[tuple[int, Move]]:
        # A component without moves() names its moves by the positions they lead to (see Game.move_list).
        return [(i, m) for i, g in enumerate(self.games) for m, _ in g.move_list(position[i])]

    def do_move(self, position: tuple, move: tuple[int, Move]) -> tuple:
        i, m = move
        g = self.games[i]
        child = g.do_move(position[i], m) if overrides(g, "moves") else m
        return position[:i] + (child,) + position[i + 1:]

    def children(self, position: tuple) -> list[tuple]:
        return [position[:i] + (c,) + position[i + 1:] for i, g in enumerate(self.games)
                for c in g.children(position[i])]

    def canonical(self, position: tuple) -> tuple:
        if not self._same:
            return position
        g = self.games[0]
        parts = position if not overrides(g, "canonical") else tuple(g.canonical(p) for p in position)
        try:
            return tuple(sorted(parts))
        except TypeError:
            return parts

    def format_position(self, position: tuple) -> str:
        return " + ".join(g.format_position(p) for g, p in zip(self.games, position))


def misere_nim_wins(heaps: Iterable[int]) -> bool:
    """Whether the player to move wins misère Nim (who takes the last stone loses).

    Bouton's rule, except when no heap has more than one stone: then the mover wins with an even number
    of single stones.
    """
    heaps = [h for h in heaps if h]
    if all(h == 1 for h in heaps):
        return len(heaps) % 2 == 0
    return nim_sum(heaps) != 0


def misere_outcome(components: Sequence[Component]) -> Outcome:
    """The misère outcome of a sum of games, by direct search of the sum (no general theory applies)."""
    from gamedp.solvers.memo import Solution

    game = SumGame([g for g, _ in components], misere=True)
    return Solution(game, outcomes_only=True).value(tuple(p for _, p in components)).outcome


def misere_winning_moves(components: Sequence[Component]) -> list[tuple[int, Move, Position]]:
    """Every winning misère move of a sum as (component index, move, the component's new position)."""
    from gamedp.solvers.memo import Solution

    game = SumGame([g for g, _ in components], misere=True)
    solution = Solution(game, outcomes_only=True)
    position = tuple(p for _, p in components)
    return [(i, m, c[i]) for (i, m), c in game.move_list(position) if solution.value(c).outcome is LOSE]

