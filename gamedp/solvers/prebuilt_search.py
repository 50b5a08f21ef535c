"""A compiled game's pruned search built ahead of time, so that its runs do not wait for numba.

Importing numba and loading its cached kernels take ~0.5 s or more, while the search for, say, Connect-4 4x4's
start value takes milliseconds. So when a :class:`~gamedp.compiled.CompiledGame`'s kernels are plain Python
functions (module-level functions, or closures over a few constants, as :meth:`Connect4.compiled
<gamedp.games.connect4.Connect4.compiled>` makes), the search of :mod:`gamedp.solvers.alphabeta_kernel` is
compiled with them into one extension module, once per machine and per source: the key is the SHA-256 of the
kernels' fingerprints (:mod:`gamedp.fingerprint`: their code, constants and the functions they call), gamedp's
search kernels and :func:`~gamedp.kernel_cache.machine_tag`. The build goes through :func:`gamedp.aot.load_built`
(numba.pycc, into the user's trusted kernel cache, checksummed); later runs import the extension with numpy only.

Kernels that are numba dispatchers already (a user who wrote ``@njit``) keep numba's path, and so does every
game when ``GAMEDP_JIT=1`` is set or a build failed (reported once, remembered): the answers are the same.
"""

from __future__ import annotations

import hashlib
import os
import types
from typing import Any, Callable

from gamedp.compiled import CompiledGame
from gamedp.kernel_cache import machine_tag

_EXT = "_pruned_search"
#: gamedp's sources compiled into the extension besides the game's kernels.
_SOURCES = ("alphabeta_kernel.py", "compiled_table.py", "search_status.py", "prebuilt_search.py")


def load_search(game: CompiledGame) -> Callable | None:
    """The pruned search built for ``game``'s kernels: ``search(root, keys, vals, used, history, maxc, limit,
    top, remote, misere, watch)`` as :func:`gamedp.solvers.alphabeta_kernel.search` takes after the kernels;
    or None where the game takes numba's path."""
    tag = _tag(game)
    if tag is None:
        return None
    from gamedp.aot import load_built

    ext = load_built(_EXT, tag, lambda cc: _export(cc, game), f"the search of {game.name}")
    return None if ext is None else ext.search


def _tag(game: CompiledGame) -> str | None:
    if os.environ.get("GAMEDP_JIT") == "1":
        return None
    from gamedp.fingerprint import fingerprint

    digest = hashlib.sha256(machine_tag().encode())
    for kernel in (game.children_kernel, game.primitive_kernel):
        if kernel is None:
            digest.update(b"none;")
            continue
        if not isinstance(kernel, types.FunctionType):
            return None  # a numba dispatcher (or another callable): numba's path
        key = fingerprint(kernel)
        if key is None:
            return None
        digest.update(key.encode())
    here = os.path.dirname(__file__)
    for name in _SOURCES:
        with open(os.path.join(here, name), "rb") as f:
            digest.update(f.read())
    return digest.hexdigest()[:16]


def _export(cc: Any, game: CompiledGame) -> None:
    """Name the search, specialised on ``game``'s kernels (compiled in, not called through pointers), on ``cc``."""
    from numba import njit

    from gamedp.compiled import jit_kernel
    from gamedp.solvers import alphabeta_kernel

    children = jit_kernel(game.children_kernel)
    primitive = None if game.primitive_kernel is None else jit_kernel(game.primitive_kernel)
    # Not numba's cached search: its index on disk would then list these kernels (pickled by reference), and
    # once one is renamed or gone, that index, and every search numba loads from it, would fail to load.
    walk = njit(nogil=True)(alphabeta_kernel.walk.py_func)
    search = njit(nogil=True)(types.FunctionType(alphabeta_kernel.search.__code__,
                                                 {**vars(alphabeta_kernel), "walk": walk}))

    def specialised(root, keys, vals, used, history, maxc, limit, top, remote, misere, watch):
        return search(children, primitive, root, keys, vals, used, history, maxc, limit, top, remote, misere, watch)

    cc.export("search", alphabeta_kernel.RESULT(*alphabeta_kernel.AFTER_KERNELS))(specialised)
