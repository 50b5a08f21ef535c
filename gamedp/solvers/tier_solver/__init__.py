"""The tier solver: a strong solve of a :class:`~gamedp.tiers.TieredGame`, tier by tier, shard by shard, on disk.

1. **Reachability, forward.** Tier by tier from the start's, one bit per index: a position is reachable when a
   reachable, unfinished position in a lower tier moves to it. Each tier's bits are a file of their own, kept
   until the tier's values are sealed (they hold its reachability from then on, as code 3). A game whose every
   index is a position to answer (``every_index``: BLOCKGAME boards, tic-tac-toe's 3^9) has every index solved,
   but its statistics count only what play reaches, as every game's do: its reach files are kept to the end
   (its codes have no 3 to say it), or it gives its own (``tier_reach(tier) -> bits``, e.g. 64 boards a word).
2. **Values, backward.** From the last tier down; a tier is cut into shards of at most :data:`~.plan.SHARD` indices
   (on an executor of several slots, first into :data:`~.plan.PER_SLOT` a slot with as many reachable positions each, so
   that the workers finish it together; a tier too small for a task is solved by the driver, whole), which are
   independent: a shard reads its child tiers memory-mapped read-only and writes its own file atomically
   (temporary file, rename; a CRC per block, checked when read, so a working file torn by a machine crash is
   made again: only the database itself is worth an fsync), so memory is one shard plus what the map pages in,
   and a solve that is killed resumes at the first shard without a file. A game may solve a shard with a kernel
   of its own (``shard_values(tier, lo, hi, remoteness) -> (codes, remoteness, stats)``, a byte per code, e.g.
   64 boards per machine word; the statistics of the reachable positions only); everything else stays the
   same. The executor decides where shards run (see :mod:`gamedp.executors`). When every shard of a tier is
   there, they are sealed into one tier file and removed, and so is the tier's reach file: the working files
   stay near 2 bits per index (plus the remoteness byte), the values of the tiers solved and the reach bits of
   those still to solve, and one tier's shards twice while it is sealed.
   Values are two bits per index (0 LOSE, 1 WIN, 2 TIE for the player to move, 3 not reachable; index i at bits
   2(i%4) of byte i//4), remoteness a byte when asked. Positions come to the kernels by index, through the
   game's :meth:`~gamedp.tiers.TieredGame.expansion`.
3. **The database** (same family as :mod:`gamedp.database`: header, CRC per block, answered without numba):
   the tier files' codes end to end, 2 bits per index of the whole index space with code 3 for an index play
   never reaches (``encoding.unreachable``; or 1 bit when every index is a WIN or LOSE), the remoteness, and
   per-tier statistics in its metadata. While it is written the tier files are still there (a solve killed then
   writes it again from them): the peak disk of a solve is about 4 bits per index, plus twice the remoteness.

Everything is deterministic, so the database comes out byte-identical however the shards were run. An index
space of at most :data:`~.small.SMALL` solved in this process skips the files and numba alike: :func:`solve_small`
runs the plain functions in memory and gives the very same database (``gamedp solve tictactoe``).

The modules, one job each: :mod:`~gamedp.solvers.tier_solver.plan` (cutting tiers into jobs),
:mod:`~gamedp.solvers.tier_solver.files` (the working files), :mod:`~gamedp.solvers.tier_solver.loops` (the
generic numba loops), :mod:`~gamedp.solvers.tier_solver.worker` (a job, wherever it runs),
:mod:`~gamedp.solvers.tier_solver.driver` (the solve, and its forked head start) and
:mod:`~gamedp.solvers.tier_solver.small` (the solve in memory).

>>> from gamedp.games.connect4_tiers import connect4_table
>>> codes = solve_in_memory(connect4_table(3, 3, 3))       # plain Python: every index, reachable or not
>>> CODE_NAMES[codes[0][0]]                                # three in a row on 3x3: a tie with best play
'TIE'
"""

from __future__ import annotations

from gamedp.solvers.tier_solver.driver import CODE_NAMES, SHARD_ENV, TierSolve, memory_need, solve_tiered
from gamedp.solvers.tier_work import work_dir
from gamedp.solvers.tier_solver.plan import job_variant
from gamedp.solvers.tier_solver.small import solve_in_memory, solve_small
from gamedp.solvers.tier_solver.worker import PAUSE_ENV, preload_passes

__all__ = ["CODE_NAMES", "PAUSE_ENV", "SHARD_ENV", "TierSolve", "job_variant", "preload_passes", "solve_in_memory",
           "memory_need", "solve_small", "solve_tiered", "work_dir"]
