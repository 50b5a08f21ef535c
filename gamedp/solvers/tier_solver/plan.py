"""Shard planning: how the tier solver cuts a tier into pieces of about equal work, and the job a piece is.

A pass over a tier runs as jobs (:class:`Job`, picklable, so that any executor can run them); :func:`cuts`
cuts a tier into them, by reachable positions (and the moves of each, when the game says) rather than by
length, every cut at a multiple of 256 indices. How many pieces a tier gets, and which tiers are not worth a
task at all, is the driver's choice (:meth:`~gamedp.solvers.tier_solver.driver.TierSolve._plan`), from the
constants here; the measurements behind them are on the performance page (docs/performance.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from gamedp.tiers import TieredGame

#: Indices per shard (a multiple of 256, so that a shard's codes are whole 64-byte blocks and a tier's shards lie
#: end to end in its sealed file): what bounds a worker's memory.
SHARD = 1 << 24
#: On several executor slots, each pass cuts a tier into this many tasks per slot (of at least MIN_SHARD indices),
#: each with about as many reachable positions (the work: they crowd into some column-height blocks, so pieces
#: of equal lengths leave one worker waiting on another). Every task costs the scheduler's time and a tier's
#: tasks are a barrier, so fewer, equal pieces beat more or shrinking ones.
PER_SLOT, MIN_SHARD = 1, 1 << 16
#: Tiers smaller than a shard over this are solved by the driver itself, whatever the executor (with 16M shards,
#: tiers under 1M: their work is less than the scheduler's round trips cost).
DRIVER_TIER = 16


@dataclass(frozen=True)
class Job:
    """One shard to solve: everything a worker in another process needs (picklable)."""
    game_name: str
    variant: tuple
    work: str
    identity: str
    tier: int
    shard: int
    lo: int
    hi: int
    remoteness: bool


def job_variant(game: TieredGame) -> tuple:
    """``game``'s variant as jobs carry it (picklable, hashable)."""
    return tuple(sorted(game.variant.items(), key=lambda kv: kv[0]))


def cuts(size: int, count: int, most: int, reach: Any = None, runs: tuple[int, list[int]] | None = None
         ) -> list[tuple[int, int]]:
    """``size`` indices cut into ``count`` pieces with about as much work each: as many reachable positions (the
    bits set in ``reach``; of equal lengths without it), each weighted by its moves plus one when ``runs`` gives
    them (see :meth:`~gamedp.tiers.TieredGame.move_runs`), and pieces longer than ``most`` cut again; every cut at
    a multiple of 256 (whole 64-byte blocks of codes, so that a tier's shards lie end to end in its file).

    >>> cuts(1000, 1, 4096), cuts(2048, 2, 512)
    ([(0, 1000)], [(0, 512), (512, 1024), (1024, 1536), (1536, 2048)])
    >>> import numpy as np
    >>> cuts(1024, 2, 1024, np.array([255] * 32 + [0] * 96, np.uint8))   # the reachable crowd the first 256
    [(0, 256), (256, 1024)]
    >>> cuts(1024, 2, 1024, np.full(128, 255, np.uint8), (256, [2, 0, 0, 0]))   # moves in the first 256
    [(0, 256), (256, 1024)]
    """
    return capped(piece_bounds(size, count, reach, runs), most)


def piece_bounds(size: int, count: int, reach: Any = None, runs: tuple[int, list[int]] | None = None,
                 start: int = 0) -> list[int]:
    """The bounds of :func:`cuts`' ``count`` pieces of the indices ``start..size-1`` (``start`` a multiple of 256),
    before the cut by length: ``[start, ..., size]``.

    >>> import numpy as np
    >>> piece_bounds(2048, 2, np.full(256, 255, np.uint8), start=1024)
    [1024, 1536, 2048]
    """
    import numpy as np

    if count <= 1 or size - start <= 256:
        return [start, size]
    if reach is None:
        return sorted({start, size, *(start + (size - start) * i // count // 256 * 256 for i in range(1, count))})
    part = reach[start >> 3:]
    ones = np.bitwise_count(np.pad(part, (0, -len(part) % 32))).reshape(-1, 32).sum(axis=1, dtype=np.int64)
    if runs is not None:
        run, moves = runs
        ones *= np.asarray(moves, dtype=np.int64)[(start + np.arange(len(ones)) * 256) // run] + 1
    before = np.cumsum(ones)  # the work of indices start..start+256(b+1)-1
    at = start + np.searchsorted(before, before[-1] * np.arange(1, count) // count) * 256 + 256
    return sorted({start, size, *(min(int(c), size) for c in at)})


def capped(bounds: list[int], most: int) -> list[tuple[int, int]]:
    """The pieces between ``bounds``, each longer than ``most`` cut into pieces of ``most`` (and the rest)."""
    return [(lo, min(lo + most, hi)) for a, hi in zip(bounds[:-1], bounds[1:]) for lo in range(a, hi, most)]
