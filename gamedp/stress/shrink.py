"""Reduce a failing input to a small one that still fails the same way.

Simplifications come in *passes*: a pass is a function from an input to the simpler inputs next to it, bigger
steps first (remove half the cases, then quarters, ..., then one at a time). The shrinker keeps the first
candidate that still fails and continues the same pass from where it was (the candidates before it were
just tried), and repeats all passes until none helps or the time is up. Cost: roughly one run per candidate
tried, so a pass over N items takes about N runs once the big steps have been taken.

>>> drop_one = lambda v: (v[:i] + v[i + 1:] for i in range(len(v)))
>>> shrink([5, 3, 8, 1, 9], [drop_one], lambda v: sum(v) >= 10).value
[1, 9]
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable, Generic, Iterable, Iterator, Sequence, TypeVar

T = TypeVar("T")

Pass = Callable[[T], Iterable[T]]


@dataclass
class Shrunk(Generic[T]):
    value: T
    #: candidates tried (runs of the program, when ``fails`` runs it)
    tries: int
    #: simplifications kept
    steps: int
    #: stopped by the time budget rather than at a point where no pass helps
    out_of_time: bool


def shrink(value: T, passes: Sequence[Pass], fails: Callable[[T], bool], budget: float = 60.0) -> Shrunk[T]:
    """The simplest input reachable from ``value`` by the ``passes``' steps on which ``fails`` stays true."""
    deadline = time.monotonic() + budget
    tries = steps = 0
    changed = True
    while changed:
        changed = False
        for step in passes:
            skip = 0
            while True:
                found = None
                for index, candidate in enumerate(step(value)):
                    if index < skip:
                        continue
                    if time.monotonic() > deadline:
                        return Shrunk(value, tries, steps, True)
                    tries += 1
                    if fails(candidate):
                        found = index
                        value = candidate
                        break
                if found is None:
                    break
                skip, changed, steps = found, True, steps + 1
    return Shrunk(value, tries, steps, False)


def chunk_removals(items: Sequence[T], keep_one: bool = True) -> Iterator[list[T]]:
    """``items`` without one chunk: halves first, then quarters, ..., then single items.

    >>> [''.join(c) for c in chunk_removals("abcd")]
    ['cd', 'ab', 'bcd', 'acd', 'abd', 'abc']
    """
    n = len(items)
    size = n // 2
    sizes = []
    while size >= 1:
        sizes.append(size)
        size //= 2
    for size in sizes:
        for start in range(0, n, size):
            rest = list(items[:start]) + list(items[start + size:])
            if rest or not keep_one:
                yield rest


def smaller_numbers(value: int, low: int = 1) -> Iterator[int]:
    """Simpler values for ``value`` (down to ``low``): the smallest first, then halfway, then one less.

    >>> list(smaller_numbers(10)), list(smaller_numbers(2)), list(smaller_numbers(1))
    ([1, 5, 9], [1], [])
    """
    seen = set()
    for v in (low, (value + low) // 2, value - 1):
        if low <= v < value and v not in seen:
            seen.add(v)
            yield v
