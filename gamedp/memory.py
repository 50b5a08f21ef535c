"""How much memory a solve may use: the guard that refuses work which would not fit, before it starts, and
stops a search that grows past what is left.

What is left is the machine's available memory, capped by the process's address-space limit (``ulimit -v``,
RLIMIT_AS) less what the process maps already. A test that runs gamedp as a process fixes the machine's figure
with ``GAMEDP_TEST_AVAILABLE_MEMORY`` (bytes), so that which refusal comes first does not depend on what else
the machine is doing.

>>> available_memory() > 0
True
>>> guard = MemoryGuard("searching nim")
>>> guard.check(65536)          # plenty left: nothing happens
"""

from __future__ import annotations

import os
import resource

from gamedp.errors import ResourceError

#: Test hook: the machine's available memory in bytes, in place of MemAvailable.
AVAILABLE_ENV = "GAMEDP_TEST_AVAILABLE_MEMORY"
#: A search stops when less than this is left: enough to report, and for the next positions' growth.
RESERVE = 128 << 20
#: A pruned search's table, unless ``--memory`` says otherwise, takes at most this, and at most half of
#: :func:`available_memory`.
SEARCH_TABLE = 1 << 30
#: :data:`SEARCH_TABLE` in words, as the help of ``--memory`` and docs/howto/big-games.md give it
SEARCH_TABLE_WORDS = f"{SEARCH_TABLE >> 30} GiB, or half the memory available if that is less"


def available_memory() -> int:
    """Bytes this process may still allocate: MemAvailable (or the free pages where /proc is missing), capped by
    the address-space limit less the address space the process already uses."""
    have = _meminfo_available()
    soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    if soft != resource.RLIM_INFINITY:
        have = min(have, soft - _statm()[0])
    return max(have, 0)


def search_table() -> int:
    """The bytes a pruned search's table may take unless told: :data:`SEARCH_TABLE`, at most half what is left."""
    return min(SEARCH_TABLE, available_memory() // 2)


def resident_memory() -> int:
    """Bytes of this process's memory that are resident now."""
    return _statm()[1]


def refuse_unless_fits(need: int, what: str) -> None:
    """Raise :class:`ResourceError` when ``need`` bytes are more than :func:`available_memory`."""
    have = available_memory()
    if need > have:
        raise ResourceError(f"{what} needs about {need:,} bytes of memory; {have:,} are available"
                            f"{limit_note()}")


class MemoryGuard:
    """Stops a growing search, with a clear message, before the memory left runs out (call :meth:`check`
    every so many new positions: it reads two small /proc files)."""

    def __init__(self, what: str):
        from gamedp.progress import ProgressLine

        self.what = what
        self.progress = ProgressLine(what)  # long searches show how far they are, on a terminal

    def check(self, positions: int) -> None:
        self.progress.update(positions)
        left = available_memory()
        if left < RESERVE:
            raise ResourceError(f"{self.what} stopped after {positions:,} positions: only {left:,} bytes of "
                                f"memory are left{limit_note()}; try a smaller position")


def limit_note() -> str:
    """`` (address space limited to N bytes by ulimit -v)`` when such a limit is set, else empty."""
    soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    return "" if soft == resource.RLIM_INFINITY else f" (address space limited to {soft:,} bytes by ulimit -v)"


def _meminfo_available() -> int:
    fixed = os.environ.get(AVAILABLE_ENV)
    if fixed:
        return int(fixed)
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")


def _statm() -> tuple[int, int]:
    """(address space, resident) of this process in bytes."""
    page = os.sysconf("SC_PAGE_SIZE")
    try:
        with open("/proc/self/statm") as f:
            size, resident = f.read().split()[:2]
        return int(size) * page, int(resident) * page
    except OSError:  # no /proc: the peak resident size is the best bound there is
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
        return peak, peak
