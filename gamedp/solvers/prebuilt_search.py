"""A compiled game's pruned search built ahead of time, so that its runs wait neither for numba nor for numpy.

Importing numba and loading its cached kernels take ~0.5 s or more, and numpy ~0.1 s, while the search for, say,
Connect-4 4x4's start value takes milliseconds. So when a :class:`~gamedp.compiled.CompiledGame`'s kernels are
plain Python functions (module-level functions, or closures over a few constants, as :meth:`Connect4.compiled
<gamedp.games.connect4.Connect4.compiled>` makes), the search loop of :mod:`gamedp.solvers.alphabeta_kernel`
(which allocates nothing) is compiled with them into a plain C library (:func:`gamedp.native.build_library`),
once per machine and per source: the key is the SHA-256 of the kernels' fingerprints (:mod:`gamedp.fingerprint`:
their code, constants and the functions they call), gamedp's search kernels and
:func:`~gamedp.kernel_cache.machine_tag`. It lives in the user's trusted kernel cache, checksummed; later runs
load it with ctypes, its table and stack in ctypes arrays (:class:`NativeSearch`).

Kernels that are numba dispatchers already (a user who wrote ``@njit``) keep numba's path, and so does every
game when ``GAMEDP_JIT=1`` is set or a build failed (reported once, remembered): the answers are the same.
"""

from __future__ import annotations

import ctypes
import os
from typing import Any

from gamedp.compiled import CompiledGame
from gamedp.kernel_cache import kernel_folder
from gamedp.solvers.search_status import NEED_ROOM

_STEM = "libpruned_search"
#: gamedp's sources compiled into the library besides the game's kernels.
_SOURCES = ("alphabeta_kernel.py", "compiled_table.py", "search_status.py", "prebuilt_search.py")
# The search's state between calls, one int64 each (see NativeSearch.run).
POS, ALPHA, BETA, DEPTH, USED, DETAIL, TABLE, ROWS, MAXC, LIMIT, TOP, FLAGS = range(12)
STATE = 12
COLUMNS = 9  # alphabeta_kernel.COLUMNS, which this module must not import (numba)
FIRST_TABLE, FIRST_ROWS = 1 << 16, 64


def load_search(game: CompiledGame) -> NativeSearch | None:
    """The pruned search built for ``game``'s kernels, or None where the game takes numba's path."""
    tag = _tag(game)
    if tag is None:
        return None
    from gamedp.native import build_library, load_built

    folder = kernel_folder(tag)
    lib = load_built(os.path.join(folder, _STEM), lambda: build_library(_STEM, _entries(game), folder, False),
                     f"the search of {game.name}", "numba's path")
    return None if lib is None else NativeSearch(lib, game)


class NativeSearch:
    """The built search and what it keeps between calls: its table (an open-addressing hash, as
    :mod:`gamedp.solvers.compiled_table`'s), its stack and the history of cut-offs, in ctypes arrays."""

    def __init__(self, lib: ctypes.CDLL, game: CompiledGame):
        self.lib, self.game = lib, game
        maxc = game.max_children
        self.state = (ctypes.c_int64 * STATE)()
        self.history = (ctypes.c_int64 * maxc)()
        self.watch = (ctypes.c_int64 * 2)()
        self.work = [(ctypes.c_int64 * n)() for n in (maxc + 1, maxc, maxc)]  # a position's children, ordering
        self.rows = FIRST_ROWS
        self.frames, self.kids = _int64s(FIRST_ROWS * COLUMNS), _int64s(FIRST_ROWS * 2 * maxc)
        self.clear()

    def clear(self) -> None:
        """Empty the table."""
        self.size = FIRST_TABLE
        self.keys, self.vals = _empty_slots(self.size), _empty_slots(self.size)
        self.used = 0

    def run(self, root: int, limit: int, top: int, remote: bool) -> tuple[int, int, int]:
        """Search ``root``: (status, position, detail), as :func:`gamedp.solvers.alphabeta_kernel.search`."""
        st = self.state
        st[POS], st[ALPHA], st[BETA], st[DEPTH], st[USED] = root, -top, top, 0, self.used
        st[MAXC], st[LIMIT], st[TOP], st[FLAGS] = self.game.max_children, limit, top, remote | self.game.misere << 1
        self.watch[0] = self.watch[1] = 0
        while True:
            st[TABLE], st[ROWS] = self.size, self.rows
            status = self.lib.search(st, self.keys, self.vals, self.history, self.frames, self.kids, *self.work,
                                     self.watch)
            self.used = st[USED]
            if status != NEED_ROOM:
                return status, st[POS], st[DETAIL]
            if st[DEPTH] == self.rows:  # the stack is full: twice the rows
                self.frames, self.kids = _grown(self.frames), _grown(self.kids)
                self.rows *= 2
            else:  # the table is half full: twice the room
                keys, vals = _empty_slots(2 * self.size), _empty_slots(2 * self.size)
                self.lib.rehash(self.keys, self.vals, self.size, keys, vals, 2 * self.size)
                self.keys, self.vals, self.size = keys, vals, 2 * self.size


def _int64s(n: int) -> Any:
    return (ctypes.c_int64 * n)()


def _empty_slots(n: int) -> Any:
    """``n`` table slots, each -1 (no position)."""
    array = _int64s(n)
    ctypes.memset(array, 0xFF, ctypes.sizeof(array))  # every bit set: -1
    return array


def _grown(array: Any) -> Any:
    """``array`` with twice the room, its values first."""
    bigger = _int64s(2 * len(array))
    ctypes.memmove(bigger, array, ctypes.sizeof(array))
    return bigger


def _tag(game: CompiledGame) -> str | None:
    if os.environ.get("GAMEDP_JIT") == "1":
        return None
    from gamedp.fingerprint import build_tag

    here = os.path.dirname(__file__)
    # a numba dispatcher (or another callable) has no fingerprint: numba's path
    return build_tag((game.children_kernel, game.primitive_kernel), tuple(os.path.join(here, n) for n in _SOURCES))


def _entries(game: CompiledGame) -> dict[str, tuple[Any, Any]]:
    """The library's entry points: ``search`` (the walk of :mod:`gamedp.solvers.alphabeta_kernel`, specialised on
    ``game``'s kernels, which are compiled in) and ``rehash`` (a table into one twice the size)."""
    from numba import carray, njit, types as nt

    from gamedp.compiled import jit_kernel
    from gamedp.solvers import alphabeta_kernel
    from gamedp.solvers.compiled_table import rehash_into

    assert alphabeta_kernel.COLUMNS == COLUMNS
    children = jit_kernel(game.children_kernel)
    primitive = None if game.primitive_kernel is None else jit_kernel(game.primitive_kernel)
    # Not numba's cached walk: its index on disk would then list these kernels (pickled by reference), and
    # once one is renamed or gone, that index, and every search numba loads from it, would fail to load.
    walk = njit(nogil=True)(alphabeta_kernel.walk.py_func)

    def search(state, keys, vals, history, frames, kids, buf, rates, order, watch):
        st = carray(state, STATE)
        n, rows, maxc = st[TABLE], st[ROWS], st[MAXC]
        status, pos, detail, alpha, beta, depth, used = walk(
            children, primitive, st[POS], st[ALPHA], st[BETA], st[DEPTH], carray(frames, (rows, COLUMNS)),
            carray(kids, (rows, 2 * maxc)), carray(buf, maxc + 1), carray(rates, maxc), carray(order, maxc),
            carray(keys, n), carray(vals, n), st[USED], carray(history, maxc), maxc, st[LIMIT], st[TOP],
            (st[FLAGS] & 1) != 0, (st[FLAGS] & 2) != 0, carray(watch, 2))
        st[POS], st[DETAIL], st[ALPHA], st[BETA], st[DEPTH], st[USED] = pos, detail, alpha, beta, depth, used
        return status

    def rehash(keys, vals, n, new_keys, new_vals, new_n):
        rehash_into(carray(keys, n), carray(vals, n), carray(new_keys, new_n), carray(new_vals, new_n))
        return 0

    p = nt.CPointer(nt.int64)
    return {"search": (search, nt.int64(*[p] * 10)), "rehash": (rehash, nt.int64(p, p, nt.int64, p, p, nt.int64))}
