"""The tier solver's jobs, run wherever the executor puts them: a forward piece (:func:`run_marks`) or a
backward shard (:func:`run_shard`). Each reads what it needs from the work directory, writes its own file
atomically, and is idempotent: a whole file already there wins, so a job run twice (a retried task, a resumed
solve) costs nothing.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

from gamedp.errors import GamedpError
from gamedp.solvers.statistics import pack_codes
from gamedp.solvers.tier_solver.files import WorkFile, finished_meta, marks_path, reach_path, shard_path, tier_path
from gamedp.solvers.tier_solver.loops import fail, four, frozen, kernel_arrays, passes_of
from gamedp.solvers.tier_solver.plan import Job
from gamedp.tiers import Passes, TieredGame

#: Test hook: seconds to pause after each shard (so a test can kill a solve mid-tier).
PAUSE_ENV = "GAMEDP_TEST_SHARD_PAUSE"
_GAMES: dict[tuple[str, str], TieredGame] = {}


def preload_passes(game_name: str, variant: tuple) -> None:
    """Load the passes' kernels (see :func:`passes_of`) into this process, so that the local workers forked from it
    start with them rather than each load them again."""
    game = _game(game_name, variant)
    if not (game.every_index and hasattr(game, "shard_values")):  # else no forward pass and its own shard kernel
        passes_of(game)


def _game(name: str, variant: tuple) -> TieredGame:
    key = (name, json.dumps(variant))  # a variant may hold lists (subtraction's moves)
    if key not in _GAMES:
        from gamedp.games.indexed import table_spec

        _GAMES[key] = table_spec(name, **dict(variant))
    return _GAMES[key]


def run_marks(job: Job) -> None:
    """The forward pass over one piece of a tier: its reachable positions' children, as one bit array per child
    tier, in a file of its own (the driver ORs the pieces). Idempotent, like :func:`run_shard`."""
    import numpy as np

    from gamedp.database import write_container

    work = _work(job)
    path = marks_path(work, job.tier, job.shard)
    if finished_meta(path, job) is not None:
        return
    game = _game(job.game_name, job.variant)
    marks = [np.zeros((game.sizes[c] + 7) >> 3, dtype=np.uint8) for c in game.child_tiers(job.tier)]
    reach_file = WorkFile(reach_path(work, job.tier), job.identity)
    try:
        reach = np.frombuffer(reach_file.section("reach"), dtype=np.uint8)
        mark(game, job.tier, job.lo, job.hi, reach, marks)
        del reach
    finally:
        reach_file.close()
    write_container(path, {"identity": job.identity, "tier": job.tier, "piece": job.shard, "lo": job.lo,
                           "hi": job.hi},
                    [(f"marks{s}", m) for s, m in enumerate(marks)], durable=False)


def mark(game: TieredGame, tier: int, lo: int, hi: int, reach: Any, marks: list) -> None:
    """Set in ``marks`` (a bit array per child tier) the children of ``tier``'s reachable indices ``lo..hi-1``
    (``reach``: the tier's reach bits; ``lo`` a multiple of 8)."""
    p, slot, limits, (state, out, err) = kernel_arrays(game, tier)
    p.mark_children(p.params, tier, lo, hi, reach, slot, limits, *four(marks, writable=True), state, out, err)
    if err[0]:
        fail(game, err)


def _work(job: Job) -> Path:
    work = Path(job.work)
    if not work.is_dir():
        raise GamedpError(f"the work directory {work} is not there on this worker; workers must see the database "
                          "directory (a shared file system)")
    return work


def run_shard(job: Job) -> None:
    """Solve one shard and write its file, statistics in its metadata. Idempotent: a whole file already there
    wins."""
    import numpy as np

    work = _work(job)
    path = shard_path(work, job.tier, job.shard)
    if finished_meta(path, job) is not None:
        return
    game = _game(job.game_name, job.variant)
    if hasattr(game, "shard_values"):  # the game's own kernel for a whole shard (e.g. 64 boards per word)
        codes, rem, stats = game.shard_values(job.tier, job.lo, job.hi, job.remoteness)
        _write_shard(job, path, pack_codes(codes), rem, stats)
        return
    reach_file = WorkFile(reach_path(work, job.tier), job.identity)
    files = [WorkFile(tier_path(work, c), job.identity) for c in game.child_tiers(job.tier)]
    try:
        reach = np.frombuffer(reach_file.section("reach"), dtype=np.uint8)
        p, slot, limits, (state, out, err) = kernel_arrays(game, job.tier)
        nshards = [f_.c.meta["shards"] for f_ in files]
        codes_l = four([np.frombuffer(f_.span("codes", n), dtype=np.uint8) for f_, n in zip(files, nshards)])
        rem_l = four([np.frombuffer(f_.span("remoteness", n), dtype=np.uint8) for f_, n in zip(files, nshards)]
                      if job.remoteness else [])
        kernel = (p, slot, limits, (*codes_l, *rem_l), state, out, err)
        stats_a = np.zeros(5, dtype=np.int64)
        codes, rem = _solve_range(job, reach, stats_a, *kernel)
        if game.every_index and not err[0]:
            # The indices play does not reach are solved too, uncounted: each pass leaves the other's codes 3
            # (all ones) and their remoteness 0.
            others, others_rem = _solve_range(job, frozen(np.invert(reach)), np.zeros(5, dtype=np.int64), *kernel)
            np.bitwise_and(codes, others, out=codes)
            np.bitwise_or(rem, others_rem, out=rem)
        del codes_l, rem_l, reach, kernel
    finally:
        reach_file.close()
        for f_ in files:
            f_.close()
    if err[0]:
        fail(game, err)
    stats = dict(zip(("positions", "WIN", "LOSE", "TIE", "terminal"), (int(x) for x in stats_a)))
    _write_shard(job, path, codes, rem, stats)


def _solve_range(job: Job, reach: Any, stats: Any, p: Passes, slot: Any, limits: Any, children: tuple, state: Any,
                 out: Any, err: Any) -> tuple[Any, Any]:
    """The codes and remoteness of ``job``'s reachable indices (those set in ``reach``; the rest left at code 3
    and remoteness 0), counted in ``stats``, by the backward pass's kernel given the child tiers' arrays."""
    import numpy as np

    codes = np.full((job.hi - job.lo + 3) >> 2, 255, dtype=np.uint8)
    rem = np.zeros(job.hi - job.lo if job.remoteness else 0, dtype=np.uint8)
    p.solve_shard(p.params, job.tier, job.lo, job.hi, reach, slot, limits, *children, job.remoteness, codes, rem,
                  state, out, stats, err)
    return codes, rem


def _write_shard(job: Job, path: Path, codes: Any, rem: Any, stats: dict) -> None:
    from gamedp.database import write_container

    sections = [("codes", codes)] + ([("remoteness", rem)] if job.remoteness else [])
    write_container(path, {"identity": job.identity, "tier": job.tier, "shard": job.shard, "lo": job.lo,
                           "hi": job.hi, "stats": stats}, sections, durable=False)
    pause = float(os.environ.get(PAUSE_ENV) or 0)
    if pause:
        time.sleep(pause)
