"""How many threads a run may use: one for each core the process may run on. Threads beyond the cores only take
turns on them (a Connect-Four search in 64 threads on 2 cores took 7 times as long as in 2)."""

from __future__ import annotations

import os
import sys


def usable_threads(asked: int) -> int:
    """``asked`` threads, at most one for each core this process may run on; when that is fewer, a note on
    stderr says so."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    if asked <= cores:
        return asked
    if sys.stderr is not None:
        plural = "s" if cores > 1 else ""
        sys.stderr.write(f"gamedp: --threads {asked} is more than the {cores} core{plural} this process may use; "
                         f"searching in {cores} thread{plural}\n")
    return cores
