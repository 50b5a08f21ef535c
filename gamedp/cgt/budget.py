"""The memory valuing games may take (``gamedp cgt --memory``), looked at now and then as the tables grow.

Canonical forms, their comparisons and sums are kept for good, and a search holds every position on its line with
all of its options: any of them can fill the machine (a sum of 30 switches keeps millions of comparisons). So
each valuation looks at what the process holds from time to time, and stops with one line past :data:`bound`, or
before the machine runs out.
"""

from __future__ import annotations

import time

from gamedp.cgt import canonical
from gamedp.errors import ResourceError

#: the most bytes this process may hold while values are worked out (``--memory``); None: until the machine's
#: available memory (or ``ulimit -v``) runs low
bound: int | None = None
#: seconds between two looks at the memory held, for :func:`due` (a look reads two small /proc files)
EVERY = 0.05
_next = 0.0


def due() -> bool:
    """Whether :data:`EVERY` seconds have passed since the last time this said so: time for a :func:`check`."""
    global _next
    now = time.monotonic()
    if now < _next:
        return False
    _next = now + EVERY
    return True


def check(what: str, smaller: str) -> None:
    """Stop with a :class:`ResourceError` (``what`` first: what stopped, after how much) when the process holds more
    than :data:`bound`, or when less than :data:`gamedp.memory.RESERVE` is left; ``smaller``: what to make smaller."""
    from gamedp.memory import RESERVE, available_memory, limit_note, resident_memory

    held = resident_memory()
    if bound is not None and held > bound:
        raise ResourceError(f"{what}: this process holds {held >> 20:,} MiB, more than --memory {bound >> 20:,}M "
                            f"allows; give more memory or a smaller {smaller}")
    left = available_memory()
    if left < RESERVE:
        raise ResourceError(f"{what}: only {left >> 20:,} MiB of memory are left{limit_note()}; try a smaller "
                            f"{smaller}")


# The forms' tables grow inside the algebra, below this service: it asks the budget through this hook.
canonical.memory_check = check
