"""How much memory a solve may use: the guard that refuses work which would not fit, before it starts."""

from __future__ import annotations

import os


def available_memory() -> int:
    """Bytes of memory available now (MemAvailable), or the free physical pages where /proc is missing."""
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
