"""Compiled games: integer positions and a numba kernel that generates moves.

A compiled game runs at compiled speed without C: the search engine (:mod:`gamedp.solvers.compiled`) is built
around your kernel, so the whole search is one machine-code loop. You write two small functions:

- ``children(position, out) -> count``: write the positions one move away into ``out`` (an int64 array with
  room for ``max_children``) and return how many there are;
- optionally ``primitive(position) -> code``: 0 if the game goes on, else the mover's result by rule,
  ``PRIMITIVE_LOSE`` (1), ``PRIMITIVE_WIN`` (2) or ``PRIMITIVE_TIE`` (3). A primitive position must
  have no children;
- optionally, for an impartial game, ``split(position, out) -> count``: its independent parts (positions of the
  game whose sum it is) into ``out``, as :meth:`gamedp.game.Game.split` (the Grundy solver then stores parts).

The kernels may be ``@njit`` functions or plain Python functions that numba can compile (module-level
functions, or closures over a few constants, calling other plain functions of their module). With plain ones, the
pruned search (:func:`gamedp.solvers.alphabeta.value_of`) is compiled with them ahead of time, once per machine
and per source, and later runs load it without importing numba or numpy
(:mod:`gamedp.solvers.prebuilt_search`); the other engines make numba kernels of them (:func:`jit_kernel`).

Positions are non-negative integers (a bitboard, or a rank in an index); give ``num_positions`` when they
are below a known bound and the engine will refuse any child outside it that it looks at. (A search for
outcomes only stops reading a position's children at the first one known to be lost, so a bad child after it
goes unnoticed: it is never used. ``gamedp check`` looks at every child.)

Worked example, a subtraction game: take 1, 3 or 4 stones; who cannot move loses.

>>> from numba import njit
>>> @njit(nogil=True)          # in a module of your own, add cache=True
... def take_134(n, out):
...     count = 0
...     for k in (1, 3, 4):
...         if k <= n:
...             out[count] = n - k
...             count += 1
...     return count
>>> game = CompiledGame("take-1-3-4", start=100, children=take_134, max_children=3)
>>> from gamedp.solvers.compiled import solve_compiled
>>> solution = solve_compiled(game)
>>> [solution.value(n).outcome.name for n in range(8)]
['LOSE', 'WIN', 'LOSE', 'WIN', 'WIN', 'WIN', 'WIN', 'LOSE']
"""

from __future__ import annotations

from typing import Any, Callable

from gamedp.errors import GameDefinitionError, compile_failure
from gamedp.game import Game
from gamedp.values import LOSE, TIE, WIN, Outcome

PRIMITIVE_NONE, PRIMITIVE_LOSE, PRIMITIVE_WIN, PRIMITIVE_TIE = 0, 1, 2, 3
PRIMITIVE_OUTCOMES = {PRIMITIVE_LOSE: LOSE, PRIMITIVE_WIN: WIN, PRIMITIVE_TIE: TIE}


class CompiledGame:
    """A game given by numba kernels over integer positions.

    Text hooks may be passed as plain Python callables; the front ends use them: ``format_position(position)``,
    ``parse_position(text)``, and for moves, which are the children they lead to, ``format_move(position,
    child)`` and ``parse_move(position, text) -> child`` (by default the child whose ``format_move`` name
    matches, ignoring case and spaces; without ``format_move`` a move is named by its child's number).
    """

    def __init__(
        self,
        name: str,
        start: int,
        children: Callable,
        max_children: int,
        *,
        primitive: Callable | None = None,
        num_positions: int | None = None,
        misere: bool = False,
        format_position: Callable[[int], str] | None = None,
        parse_position: Callable[[str], int] | None = None,
        split: Callable | None = None,
        format_move: Callable[[int, int], str] | None = None,
        parse_move: Callable[[int, str], int] | None = None,
    ):
        if max_children < 1:
            raise GameDefinitionError(f"{name}: max_children must be at least 1, not {max_children}")
        if num_positions is not None and not 0 <= start < num_positions:
            raise GameDefinitionError(f"{name}: start position {start} is outside 0..{num_positions - 1}")
        self.name = name
        self._start = int(start)
        self.children_kernel = children
        self.primitive_kernel = primitive
        self.split_kernel = split
        self.max_children = int(max_children)
        self.num_positions = num_positions
        self.misere = misere
        self.scored = False
        self._format = format_position
        self._parse = parse_position
        self.format_move_hook, self.parse_move_hook = format_move, parse_move

    def start(self) -> int:
        return self._start

    def children(self, position: int) -> list[int]:
        """The children of one position, called from Python (slow path: analysis, checks)."""
        import numpy as np

        out = np.empty(self.max_children + 1, dtype=np.int64)
        n = int(self.children_kernel(np.int64(position), out))
        if n > self.max_children:
            raise GameDefinitionError(f"{self.name}: position {position} has {n} children, more than "
                                      f"max_children={self.max_children}")
        kids = [int(c) for c in out[:n]]
        for c in kids:
            self.check_position(c, f"child of position {position}")
        return kids

    def primitive(self, position: int) -> Outcome | None:
        if self.primitive_kernel is None:
            return None
        code = int(self.primitive_kernel(position))
        if code == PRIMITIVE_NONE:
            return None
        if code not in PRIMITIVE_OUTCOMES:
            raise GameDefinitionError(f"{self.name}: primitive({position}) returned {code}; expected 0-3")
        return PRIMITIVE_OUTCOMES[code]

    def check_position(self, position: int, what: str = "position") -> None:
        if position < 0 or (self.num_positions is not None and position >= self.num_positions):
            bound = "non-negative" if self.num_positions is None else f"in 0..{self.num_positions - 1}"
            raise GameDefinitionError(f"{self.name}: {what} is {position}, out of range: positions must be {bound}")

    def format_position(self, position: int) -> str:
        return self._format(position) if self._format else str(position)

    def parse_position(self, text: str) -> int:
        if self._parse:
            return self._parse(text)
        try:
            position = int(text)
        except ValueError:
            raise GameDefinitionError(f"{self.name}: a position is an integer here, not {text!r}") from None
        self.check_position(position)
        return position

    def as_python_game(self) -> Game:
        """The same game as a Python-defined one (kernels called per position): for checks and cycles."""
        return _KernelGame(self) if self.split_kernel is None else _SplitKernelGame(self)

    def __repr__(self) -> str:
        return f"<CompiledGame {self.name!r}>"


class _KernelGame(Game):
    def __init__(self, compiled: CompiledGame):
        self.compiled = compiled
        self.name = compiled.name
        self.misere = compiled.misere

    def start(self) -> Any:
        return self.compiled.start()

    def children(self, position: int) -> list[int]:
        return self.compiled.children(position)

    def primitive(self, position: int) -> Outcome | None:
        return self.compiled.primitive(position)

    def format_position(self, position: int) -> str:
        return self.compiled.format_position(position)

    def format_move(self, position: int, move: int) -> str:
        own = self.compiled.format_move_hook
        return own(position, move) if own else str(move)

    def parse_move(self, position: int, text: str) -> int:
        own = self.compiled.parse_move_hook
        return own(position, text) if own else super().parse_move(position, text)


class _SplitKernelGame(_KernelGame):
    def split(self, position: int) -> list[int]:
        import numpy as np

        out = np.empty(64, dtype=np.int64)
        n = int(self.compiled.split_kernel(np.int64(position), out))
        if not 0 <= n <= len(out):
            raise GameDefinitionError(f"{self.name}: split({position}) returned {n}; expected 0-{len(out)} parts")
        return [int(p) for p in out[:n]]


def jit_kernel(fn: Callable, signature: Any = None, cache: bool = True) -> Callable:
    """``fn`` as a numba kernel (compiled for ``signature`` when given), with the plain functions of its module
    that it calls compiled first (once each, cached on disk unless ``cache`` is False, as a kernel that takes
    other kernels as arguments must be: numba's index would name objects of this process): rules written as
    plain Python for lookups without numba become kernels when a solver needs them. Its :class:`~gamedp.words.Word`
    globals are given to numba as ``numpy.uint64`` (:func:`gamedp.words.kernel_value`)."""
    import types

    from numba import njit
    from numba.core.registry import CPUDispatcher

    key, kernel = (fn, cache), _jitted.get((fn, cache))
    if kernel is None:
        if isinstance(fn, CPUDispatcher):
            kernel = fn
        else:
            from gamedp.fingerprint import names_used
            from gamedp.words import has_words, kernel_value

            names = names_used(fn.__code__)  # a comprehension's or a lambda's names are the function's globals too
            helpers = {name: jit_kernel(g, cache=cache) for name in names
                       if isinstance(g := fn.__globals__.get(name), types.FunctionType) and g is not fn}
            helpers.update({name: kernel_value(g) for name in names if has_words(g := fn.__globals__.get(name))})
            closure = fn.__closure__ and tuple(_kernel_cell(cell) for cell in fn.__closure__)
            new_cells = closure and any(new is not old for new, old in zip(closure, fn.__closure__))
            if helpers or has_words(fn.__defaults__) or new_cells:
                fn = types.FunctionType(fn.__code__, {**fn.__globals__, **helpers}, fn.__name__,
                                        kernel_value(fn.__defaults__), closure)
            kernel = njit(cache=cache, nogil=True)(fn)
        _jitted[key] = kernel
    if signature is not None and signature.args not in kernel.overloads:
        try:
            kernel.compile(signature.args)
        except Exception as e:  # numba's whole message: where in the user's file, and which type failed
            raise compile_failure(f"the kernel {getattr(key[0], '__name__', key[0])}", signature, e) from None
    return kernel


_jitted: dict[tuple[Callable, bool], Callable] = {}


def _kernel_cell(cell: Any) -> Any:
    """A closure's cell as numba should see it: a new cell where it holds words (see gamedp.words.kernel_value)."""
    import types

    from gamedp.words import has_words, kernel_value

    try:
        held = cell.cell_contents
    except ValueError:  # not yet filled
        return cell
    return types.CellType(kernel_value(held)) if has_words(held) else cell
