"""Domineering values by the compiled kernels of :mod:`gamedp.kernels.domineering_values`, handed back as forms of
:mod:`gamedp.cgt.canonical`.

The kernels keep their forms and memo tables in one int64 arena, kept for the life of the process (a board
valued later reuses every region met before). A section that fills up stops the kernels; the arena is then laid
out again larger (the full section four times, the others twice), within the memory this process may use, and
the valuation starts over. The kernels run as a native library built once per machine (:mod:`gamedp.native`),
so a run loads neither numpy nor numba; where none can be built, as numba's compiled functions. The build takes
a minute or less, once: :mod:`gamedp.cgt.domineering` asks for it only for a board Python would take seconds on.
"""

from __future__ import annotations

import _thread
import ctypes

from gamedp.cgt import canonical
from gamedp.cgt.numbers import Dyadic
from gamedp.errors import ResourceError

_KERNELS = "gamedp.kernels.domineering_values"
#: the sections' first capacities: forms, pool words, form hash, numbers, comparisons, sums, positions, scratch
FIRST = (1 << 12, 1 << 14, 1 << 13, 1 << 10, 1 << 14, 1 << 12, 1 << 13, 1 << 16)
#: a board's cells at most (the kernels' MOST_CELLS, read here without importing them)
MOST_CELLS = 62
#: new regions valued between two returns to Python (where Ctrl-C is seen)
CHUNK = 50_000


class _Arena:
    """The kernels' state and arena, and which kernel form is which form of :mod:`gamedp.cgt.canonical`."""

    def __init__(self, capacities: tuple[int, ...], kernels):
        from gamedp.kernels.canonical_forms import SECTIONS, SLOT_WORDS, STATE_WORDS

        self.capacities = capacities
        self.state = (ctypes.c_int64 * STATE_WORDS)()
        offset = 0
        for s, (cap, width) in enumerate(zip(capacities, SLOT_WORDS)):
            self.state[SECTIONS + 3 * s], self.state[SECTIONS + 3 * s + 1] = offset, cap
            offset += cap * width
        self.words = offset
        self.arena = (ctypes.c_int64 * offset)()
        self.kernels = kernels
        if kernels.setup(self.state, self.arena, offset) < 0:
            raise AssertionError("the first capacities hold the number 0")
        self.forms: dict[int, int] = {}  # kernel form -> canonical's id


_arena: _Arena | None = None
#: one valuation at a time: the kernels run without the GIL, on the one arena (threading's own import costs more)
_lock = _thread.allocate_lock()


def form(h: int, w: int, cells: int, most: int | None = None, memory_bound: int | None = None,
         build: bool = True) -> int | None:
    """The canonical form (a :mod:`gamedp.cgt.canonical` id) of the board, or None where the kernels cannot
    value it (more than MOST_CELLS cells, numbers past their range), or are not built and ``build`` is False.
    ``most``: a :class:`ResourceError` once more than that many regions not met before would be valued."""
    if h * w > MOST_CELLS:
        return None
    with _lock:
        return _form(h, w, cells, most, memory_bound, build)


def _form(h: int, w: int, cells: int, most: int | None, memory_bound: int | None, build: bool) -> int | None:
    global _arena
    from gamedp.kernels import canonical_forms as cf

    if _arena is None:
        from gamedp.native import entry_points, load_if_built

        kernels = entry_points(_KERNELS) if build else load_if_built(_KERNELS)
        if kernels is None:
            return None
        _arena = _Arena(FIRST, kernels)
    made, limit_slot = cf.CALLER, cf.CALLER + 1  # the kernels' REGIONS_MADE, REGION_LIMIT (their module imports numba)
    stop = None if most is None else _arena.state[made] + most
    progress = None  # a line on a terminal once the work takes more than a chunk
    try:
        while True:
            a = _arena
            a.state[limit_slot] = a.state[made] + CHUNK if stop is None else min(stop, a.state[made] + CHUNK)
            g = a.kernels.value(a.state, a.arena, a.words, h, w, cells)
            if g >= 0:
                return _export(a, g)
            status = a.state[cf.STATUS]
            if status == cf.LIMIT:
                if stop is not None and a.state[made] >= stop:
                    raise ResourceError(f"valuing this board takes more than {most:,} new regions")
                if progress is None:
                    from gamedp.progress import ProgressLine

                    progress = ProgressLine(f"Domineering {h}x{w}, regions")
                progress.update(a.state[made])
                continue  # a chunk done: go on (Ctrl-C is seen between chunks)
            if status == cf.OUT_OF_RANGE:
                return None
            full, kernels, regions = a.state[cf.FULL_SECTION], a.kernels, a.state[made]
            grown = tuple(c * (4 if s == full else 2) for s, c in enumerate(a.capacities))
            _arena = a = None  # the old arena goes before the new one comes
            _check_memory(grown, memory_bound, regions)
            _arena = _Arena(grown, kernels)
            if stop is not None:
                stop = most
            if progress is not None:
                progress.describe(f"Domineering {h}x{w}, regions again in larger tables")
    finally:
        if progress is not None:
            progress.close()


def _check_memory(capacities: tuple[int, ...], memory_bound: int | None, regions: int) -> None:
    """A :class:`ResourceError` when an arena of these capacities would take this process past ``memory_bound``
    or the machine below :data:`gamedp.memory.RESERVE`."""
    from gamedp.kernels.canonical_forms import SLOT_WORDS
    from gamedp.memory import RESERVE, available_memory, limit_note, resident_memory

    need = 8 * sum(c * w for c, w in zip(capacities, SLOT_WORDS))
    stopped = f"valuing the board's regions stopped after {regions:,} regions"
    if memory_bound is not None and resident_memory() + need > memory_bound:
        raise ResourceError(f"{stopped}: this process would hold {(resident_memory() + need) >> 20:,} MiB, more "
                            f"than --memory {memory_bound >> 20:,}M allows; give more memory or a smaller board")
    left = available_memory()
    if left - need < RESERVE:
        raise ResourceError(f"{stopped}: it needs {need >> 20:,} MiB more, and only {left >> 20:,} MiB of memory "
                            f"are left{limit_note()}; try a smaller board")


def _export(a: _Arena, root: int) -> int:
    """The kernels' form ``root`` as a form of :mod:`gamedp.cgt.canonical` (options first, without recursion)."""
    from gamedp.kernels.canonical_forms import K, LEFT_AT, LEFT_COUNT, M, RIGHT_AT, RIGHT_COUNT, WIDTH

    A, known = a.arena, a.forms
    todo = [root]
    while todo:
        g = todo[-1]
        if g in known:
            todo.pop()
            continue
        f = WIDTH * g
        lefts = A[A[f + LEFT_AT]:A[f + LEFT_AT] + A[f + LEFT_COUNT]]
        rights = A[A[f + RIGHT_AT]:A[f + RIGHT_AT] + A[f + RIGHT_COUNT]]
        missing = [o for o in lefts + rights if o not in known]
        if missing:
            todo.extend(missing)
            continue
        todo.pop()
        if A[f + K] >= 0:
            known[g] = canonical.number(Dyadic(A[f + M], A[f + K]))
        else:
            known[g] = canonical.adopt(tuple(sorted(known[o] for o in lefts)),
                                       tuple(sorted(known[o] for o in rights)))
    return known[root]
