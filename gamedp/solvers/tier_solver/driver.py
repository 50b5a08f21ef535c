"""The tier solver's driver: the whole solve of a tiered game (see :mod:`gamedp.solvers.tier_solver`), its
two passes tier by tier, the forked process that starts the forward pass while a cluster starts, the sealing
of tiers and the database written from them.
"""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path
from typing import Any, Callable

from gamedp.errors import GameDefinitionError, GamedpError, ResourceError
from gamedp.solvers.statistics import code_at, compact, table_stats, unreached_codes
from gamedp.solvers.tier_solver.files import (WorkFile, Stale, finished_meta, identity, marks_path, open_whole,
                                              place_codes, reach_path, shard_path, tier_path)
from gamedp.solvers.tier_solver.loops import MAX_CHILD_TIERS
from gamedp.solvers.tier_solver.plan import DRIVER_TIER, MIN_SHARD, PER_SLOT, SHARD, Job, capped, cuts, \
    job_variant, piece_bounds
from gamedp.solvers.tier_solver.small import SMALL, solve_small
from gamedp.solvers.tier_solver.worker import mark, preload_passes, run_marks, run_shard
from gamedp.solvers.tier_work import WorkLock, work_dir
from gamedp.tiers import TieredGame

CODE_NAMES = ("LOSE", "WIN", "TIE", "UNREACHABLE")
UNREACHABLE = 3
#: Indices the forked process that passes over the first tiers while a local cluster starts does between two
#: looks at whether it is up, so that the cluster takes the rest of a tier at once.
FIRST_STEP = 1 << 18
#: Test hook: the shard size.
SHARD_ENV = "GAMEDP_TEST_SHARD_SIZE"
Progress = Callable[[int, int, str], None]


def memory_need(game: TieredGame, remoteness: bool, shard: int = SHARD) -> int:
    """The bytes of memory a solve of ``game`` takes at its peak: a tier's reach bits twice, a shard's values (and
    remoteness), the database's outcomes."""
    return max(game.sizes) // 8 * 2 + shard * (1 + (4 if remoteness else 0)) // 2 + game.index_space // 4


class TierSolve:
    """The whole solve of ``game`` into the database at ``path`` (see the module docstring)."""

    def __init__(self, game: TieredGame, game_name: str, path: Path, remoteness: bool, executor: Any = None,
                 progress: Progress | None = None):
        from gamedp.executors import LocalExecutor

        self.game, self.name, self.path, self.want_rem = game, game_name, Path(path), remoteness
        self.executor = executor or LocalExecutor()
        self.local = LocalExecutor()  # for the tiers too small to be worth a task (see _plan)
        self.progress = progress
        self.shard = int(os.environ.get(SHARD_ENV) or SHARD)
        if self.shard % 256 or self.shard <= 0:
            raise GamedpError(f"the shard size must be a positive multiple of 256, not {self.shard}")
        self.work = work_dir(self.path)
        self.ident = identity(game, remoteness, self.shard)
        wide = [t for t in range(game.num_tiers) if len(game.child_tiers(t)) > MAX_CHILD_TIERS]
        if wide:
            raise GameDefinitionError(f"{game.label}: tier {wide[0]} has children in {len(game.child_tiers(wide[0]))} "
                                      f"tiers; the tier solver takes at most {MAX_CHILD_TIERS}")
        self.resumed_shards = 0
        self.variant = job_variant(game)
        #: A tiny index space in this process is solved by the plain functions, in memory: no numba to load, no
        #: files (a test's shard size asks for the sharded way).
        self.small = (game.index_space <= SMALL and isinstance(self.executor, LocalExecutor)
                      and not os.environ.get(SHARD_ENV))

    # -- resources ----------------------------------------------------------------------------------------------
    def check_resources(self) -> None:
        from gamedp.database import check_writable
        from gamedp.memory import available_memory

        total = self.game.index_space
        rem = total if self.want_rem else 0
        biggest = max(self.game.sizes)
        # The backward pass (values so far, reach bits still to use, one tier's shards twice), then the database
        # beside the tier files (and the reach bits, kept for the statistics where every index is solved).
        kept = total // 8 if self.game.every_index else 0
        disk_need = max(total // 4 + total // 8 + biggest // 2 + rem + biggest, 2 * (total // 4 + rem) + kept)
        need = memory_need(self.game, self.want_rem, self.shard)
        have = available_memory()
        if need > have:
            raise ResourceError(f"solving {self.game.label} needs about {need:,} bytes of memory even "
                                f"sharded (its largest tier has {biggest:,} indices; the database's outcomes "
                                f"{total // 4:,} bytes) but {have:,} are available; refusing to start")
        check_writable(self.path)  # now, not after the solve
        free = shutil.disk_usage(self.path.parent).free
        if disk_need > free:
            raise ResourceError(f"solving {self.game.label} needs about {disk_need:,} bytes of disk in "
                                f"{self.path.parent} but {free:,} are free; refusing to start")

    # -- the passes ---------------------------------------------------------------------------------------------
    def run(self) -> dict:
        self.check_resources()
        if self.small:
            return self._write(*solve_small(self.game, self.want_rem))
        with WorkLock(self.path) as lock:
            self._prepare_work()
            lock.mark()
            self.reach()
            tier_stats = self.values()
            stats = self.database(tier_stats)
            shutil.rmtree(self.work, ignore_errors=True)
        return stats

    def _prepare_work(self) -> None:
        from gamedp.database import remove_stale_temporaries

        self.work.mkdir(parents=True, exist_ok=True)
        # What killed writers left (a shard's or the database's temporary file can be as big as the result).
        for written in [self.path] + [self.work / p.name[1:-4].rsplit(".", 2)[0] for p in self.work.glob(".*.tmp")]:
            remove_stale_temporaries(written)
        stamp = self.work / "identity.json"
        try:
            same = stamp.read_text() == self.ident
        except OSError:
            same = False
        if not same:  # another solve's leftovers (other game, shard size, or remoteness): start clean
            for p in self.work.iterdir():
                if p.is_file():
                    p.unlink()
            tmp = stamp.with_suffix(".tmp")
            tmp.write_text(self.ident)
            os.replace(tmp, stamp)

    def reach(self) -> None:
        """The forward pass: each tier's reachable indices, one bit each, in a file per tier."""
        game, work = self.game, self.work
        # A tier whose values are sealed keeps its reachability in them (code 3), and its reach file is gone.
        whole = [open_whole(reach_path(work, t), self.ident) or open_whole(tier_path(work, t), self.ident)
                 for t in range(game.num_tiers)]
        for f in whole:
            if f is not None:
                f.close()
        if all(f is not None for f in whole) or hasattr(game, "tier_reach"):  # done, or the game's own
            return
        first, start, bits = self._reach_while_starting() if not self.executor.started else (0, 0, {})
        for t in range(first, game.num_tiers):
            self._reach_tier(t, bits, start if t == first else 0)

    def _reach_file_of(self, t: int, bits: dict[int, Any], count: int) -> tuple[Any, list[int] | None]:
        """Tier ``t``'s reachable indices (``bits[t]``, taken out, and the start if it is there) written to its
        reach file, with the cut of its ``count`` pieces (see :meth:`_plan`): kept there for the backward pass, to
        cut the tier alike without reading the bits. Returns them and the cut, None if the tier has nothing to
        pass over (no children, or nothing reachable); its children's arrays are in ``bits`` from now on."""
        import numpy as np

        from gamedp.database import write_container

        game, size = self.game, self.game.sizes[t]
        mine = bits.pop(t, None)
        if mine is None:
            mine = np.zeros((size + 7) >> 3, dtype=np.uint8)
        if t == game.start_tier:
            i = int(game.functions().rank(game.start))
            mine[i >> 3] |= np.uint8(1 << (i & 7))
        kids = game.child_tiers(t)
        bounds = piece_bounds(size, count, mine, self._runs(t, count)) if kids and mine.any() else None
        write_container(reach_path(self.work, t), {"identity": self.ident, "tier": t, "cut": [count, bounds]},
                        [("reach", mine)], durable=False)
        for c in kids:
            if c not in bits:
                bits[c] = np.zeros((game.sizes[c] + 7) >> 3, dtype=np.uint8)
        return mine, bounds

    def _reach_tier(self, t: int, bits: dict[int, Any], start: int = 0) -> None:
        """The forward pass over tier ``t``'s indices from ``start`` (a multiple of 256; past 0 when the forked
        process of :meth:`_reach_while_starting` did those before, the reach file written and its bits left in
        ``bits[t]``), adding its children's reachable indices to ``bits``, as :meth:`_plan` says."""
        import numpy as np

        game, work, size = self.game, self.work, self.game.sizes[t]
        executor, count = self._plan(size)
        if start == 0:
            mine, bounds = self._reach_file_of(t, bits, count)
            if bounds is None:
                return
        else:
            mine = bits.pop(t)
            bounds = piece_bounds(size, count, mine, self._runs(t, count), start)
        kids = game.child_tiers(t)
        jobs = [Job(self.name, self.variant, str(work), self.ident, t, piece, lo, hi, False)
                for piece, (lo, hi) in enumerate(capped(bounds, size))]
        del mine

        def merge(job: Job) -> None:
            """OR a finished piece's marks in while the other pieces run."""
            marks = WorkFile(marks_path(work, t, job.shard), self.ident).trust()
            try:
                for s, c in enumerate(kids):
                    view = marks.c.section(f"marks{s}")
                    np.bitwise_or(bits[c], np.frombuffer(view, dtype=np.uint8), out=bits[c])
                    view.release()
            finally:
                marks.close()

        executor.run(run_marks, jobs, merge)
        for job in jobs:  # only now: a solve killed before this point resumes from the pieces
            marks_path(work, t, job.shard).unlink()

    def _reach_while_starting(self) -> tuple[int, int, dict[int, Any]]:
        """Start the executor (a local cluster: importing Dask and starting processes take about as long as
        Connect-Four's first tiers; see docs/performance.md) while a process forked from this one passes over the
        first tiers, until it is told the cluster is up; return where to go on from (a tier, and an index in it) and
        the reachable indices found so far. (A thread would not do: the ahead-of-time kernels hold the GIL that the
        start needs.) Where the child fails or dies, its tiers are simply passed over again here; whatever stops
        this process meanwhile stops the child too."""
        import multiprocessing

        from gamedp.executors import START_METHOD

        if START_METHOD != "fork":
            self.executor.start()
            return 0, 0, {}
        preload_passes(self.name, self.variant)  # the child's kernels, and so those of the workers forked later
        here, there = multiprocessing.get_context("fork").Pipe()
        child = multiprocessing.get_context("fork").Process(target=self._reach_first_tiers,
                                                            args=(there, here, os.getpid()),
                                                            name="gamedp: first tiers", daemon=True)
        child.start()
        there.close()
        first, start, bits, handed = 0, 0, {}, False
        try:
            self.executor.start()
            here.send("stop")
            first, start, bits = here.recv()
            handed = True
        except (EOFError, OSError):  # the child failed (said nothing) or is gone
            pass
        finally:
            if not handed:  # a failed start or an interrupt here: the child's tiers are not wanted
                child.kill()
            child.join()
            here.close()
        return first, start, bits

    def _reach_first_tiers(self, conn: Any, parents_end: Any, parent: int) -> None:
        """The forked child of :meth:`_reach_while_starting`: tiers in this process, in steps of
        :data:`FIRST_STEP` indices, until ``conn`` says stop; then where to go on from and the reachable indices
        so far, sent back (the children's bits straight into ``bits``: no piece files). It dies with its parent (a
        SIGKILLed driver must not leave it writing beside a resumed solve), and leaves by ``os._exit``: flushing
        the standard streams, as a process normally does at its end, could wait forever on a lock that another
        thread of the parent (a progress bar's) held when it was forked."""
        import ctypes
        import signal

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
        parents_end.close()
        game, bits = self.game, {}
        try:
            for t in range(game.num_tiers):
                mine, bounds = self._reach_file_of(t, bits, self._plan(game.sizes[t])[1])
                kids = [bits[c] for c in game.child_tiers(t)]
                for lo in range(0, game.sizes[t] if bounds is not None else 0, FIRST_STEP):
                    if os.getppid() != parent:  # died before the signal was asked for
                        return
                    if conn.poll():
                        bits[t] = mine
                        conn.recv()
                        conn.send((t, lo, bits))
                        return
                    mark(game, t, lo, min(lo + FIRST_STEP, game.sizes[t]), mine, kids)
            conn.recv()
            conn.send((game.num_tiers, 0, bits))
        except BaseException:  # the parent passes over these tiers again, and says what fails there
            pass
        finally:
            os._exit(0)

    def _plan(self, size: int) -> tuple[Any, int]:
        """Where a tier of ``size`` indices runs, and into how many pieces a pass cuts it (before the cut by shard
        size): in the driver, whole, when the tier is small; else on the executor, whole on one slot, or
        :data:`PER_SLOT` pieces per slot, none smaller than :data:`MIN_SHARD`."""
        if size < self.shard // DRIVER_TIER:
            return self.local, 1
        slots = self.executor.slots()
        if slots == 1:
            return self.executor, 1
        return self.executor, max(1, min(PER_SLOT * slots, size // min(MIN_SHARD, self.shard)))

    def _runs(self, tier: int, count: int) -> tuple[int, list[int]] | None:
        """The moves of ``tier``'s runs of indices (see :meth:`~gamedp.tiers.TieredGame.move_runs`), when the tier
        is cut into pieces."""
        return self.game.move_runs(tier) if count > 1 else None

    def _shard_cuts(self, tier: int, count: int) -> list[tuple[int, int]]:
        """The backward pass's shards of ``tier`` cut into ``count`` pieces: by reachable positions when there
        are several and some indices are not positions (as the forward pass cut it, kept in its reach file, or
        else from the bits there), then by shard size; else by lengths alone, with no file to read."""
        import numpy as np

        size = self.game.sizes[tier]
        if count <= 1 or self.game.every_index:
            return cuts(size, count, self.shard)
        reach = WorkFile(reach_path(self.work, tier), self.ident)
        try:
            made, bounds = reach.c.meta.get("cut") or (None, None)
            if made != count or bounds is None:  # resumed on another number of workers, or a tier with no moves
                bits = np.frombuffer(reach.section("reach"), dtype=np.uint8)
                bounds = piece_bounds(size, count, bits, self._runs(tier, count))
                del bits
        finally:
            reach.close()
        return capped(bounds, self.shard)

    def values(self) -> list[dict]:
        """The backward pass, shard by shard; returns each tier's statistics."""
        game = self.game
        total = game.index_space
        done_before = 0
        tier_stats: list[dict] = [{}] * game.num_tiers
        self._report(0, total, "")
        for t in range(game.num_tiers - 1, -1, -1):
            size = game.sizes[t]
            sealed = open_whole(tier_path(self.work, t), self.ident)
            if sealed is not None:
                tier_stats[t] = sealed.c.meta["stats"]
                self.resumed_shards += int(sealed.c.meta["shards"])
                sealed.close()
                if not game.every_index:
                    reach_path(self.work, t).unlink(missing_ok=True)  # a solve killed between sealing and this
                done_before += size
                continue
            executor, count = self._plan(size)
            jobs = [Job(self.name, self.variant, str(self.work), self.ident, t, s, lo, hi, self.want_rem)
                    for s, (lo, hi) in enumerate(self._shard_cuts(t, count))]
            self.resumed_shards += sum(finished_meta(shard_path(self.work, t, j.shard), j) is not None for j in jobs)
            progress = {"done": done_before}

            def finished(job: Job, progress: dict = progress, t: int = t) -> None:
                progress["done"] += job.hi - job.lo
                self._report(progress["done"], total, f"tier {t}")

            executor.run(run_shard, jobs, finished)
            tier_stats[t] = self._seal(t, jobs)
            done_before += size
        return tier_stats

    def _seal(self, t: int, jobs: list[Job]) -> dict:
        from gamedp.database import DatabaseError, write_container

        try:
            files = [WorkFile(shard_path(self.work, t, j.shard), self.ident).trust() for j in jobs]
        except (DatabaseError, Stale):
            raise GamedpError(f"a shard of tier {t} went missing from {self.work}; solve again to redo it") from None
        stats = {key: sum(f.c.meta["stats"][key] for f in files) for key in ("positions", "WIN", "LOSE", "TIE",
                                                                             "terminal")}
        try:
            sections = [(f"codes{i}", f.c.section("codes")) for i, f in enumerate(files)]
            if self.want_rem:
                sections += [(f"remoteness{i}", f.c.section("remoteness")) for i, f in enumerate(files)]
            write_container(tier_path(self.work, t), {"identity": self.ident, "tier": t, "shards": len(jobs),
                                                       "stats": stats}, sections, durable=False)
            del sections
        finally:
            for f in files:
                f.close()
        for old in self.work.glob(f"tier{t}.shard*"):  # these jobs' shards, and any a solve cut otherwise left
            old.unlink(missing_ok=True)
        if not self.game.every_index:  # its codes say which indices are reachable now (else all are solved)
            reach_path(self.work, t).unlink(missing_ok=True)
        return stats

    def database(self, tier_stats: list[dict]) -> dict:
        """Write the finished database from the sealed tiers."""
        import numpy as np

        game = self.game
        total = game.index_space
        outcomes = np.zeros((total + 3) >> 2, dtype=np.uint8)
        rem_path = self.work / "remoteness.tmp"
        # Remoteness, a byte per index, goes through a mapped file: the page cache holds it, not this process.
        all_rem = (np.memmap(rem_path, mode="w+", dtype=np.uint8, shape=(total,)) if self.want_rem
                   else np.zeros(0, dtype=np.uint8))
        # The remoteness statistics count what play reaches: for a game whose every index is solved, the codes
        # again with 3 where it does not.
        counted = np.zeros_like(outcomes) if game.every_index and self.want_rem else outcomes
        for t in range(game.num_tiers):
            f = WorkFile(tier_path(self.work, t), self.ident)
            try:
                n, at = f.c.meta["shards"], game.offsets[t]
                codes = np.frombuffer(f.span("codes", n), dtype=np.uint8)
                place_codes(outcomes, at, codes, game.sizes[t])
                if counted is not outcomes:
                    place_codes(counted, at, codes | unreached_codes(self._tier_reach(t), len(codes)), game.sizes[t])
                if self.want_rem:
                    all_rem[at:at + game.sizes[t]] = np.frombuffer(f.span("remoteness", n), dtype=np.uint8)
                del codes
            finally:
                f.close()
        try:
            return self._write(outcomes, all_rem, tier_stats, counted)
        finally:
            del all_rem

    def _tier_reach(self, t: int) -> Any:
        """Tier ``t``'s reach bits: the game's own (see :meth:`reach`), or its reach file's."""
        import numpy as np

        if hasattr(self.game, "tier_reach"):
            return self.game.tier_reach(t)
        f = WorkFile(reach_path(self.work, t), self.ident)
        try:
            return np.frombuffer(f.section("reach"), dtype=np.uint8).copy()
        finally:
            f.close()

    def _write(self, outcomes: Any, all_rem: Any, tier_stats: list[dict], counted: Any) -> dict:
        """Write the database: 2-bit ``outcomes`` (3: unreachable) and remoteness of the whole index space (numpy
        arrays, or bytes from :func:`solve_small`); ``counted``: the outcomes the statistics count (see there)."""
        from gamedp.database import write_container

        game, total = self.game, self.game.index_space
        start = game.locate(game.start)
        code = code_at(outcomes, start)
        per_tier = [{"tier": t, **s} for t, s in enumerate(tier_stats)]
        stats: dict[str, Any] = {
            "positions": sum(s["positions"] for s in tier_stats),
            "index_space": total,
            "outcomes": {name: sum(s[name] for s in tier_stats) for name in ("WIN", "LOSE", "TIE")},
            "terminal": sum(s["terminal"] for s in tier_stats),
            "start": {"value": CODE_NAMES[code], "remoteness": int(all_rem[start]) if self.want_rem else None},
            "tiers": per_tier,
        }
        if game.every_index and self.want_rem:  # every index a position: counts by remoteness, longest win/loss
            whole = table_stats(counted, all_rem, total)
            stats["remoteness"], stats["longest"] = whole["remoteness"], whole["longest"]
        outcomes, bits = compact(outcomes, total)  # 1 bit per position when there is no TIE and none unreachable
        encoding = {"outcome_bits": bits, "remoteness": "u8" if self.want_rem else None}
        if bits == 2 and not game.every_index:
            encoding["unreachable"] = UNREACHABLE
        meta = {"game_id": game.game_id, "variant": game.variant, "size": total, "stats": stats,
                "encoding": encoding, "tiers": {"sizes": game.sizes}}
        sections = [("outcomes", outcomes)] + ([("remoteness", all_rem)] if self.want_rem else [])
        write_container(self.path, meta, sections)
        return stats

    def _report(self, done: int, total: int, what: str) -> None:
        if self.progress is not None:
            self.progress(done, total, what)


def solve_tiered(game: TieredGame, game_name: str, path: str | os.PathLike, *, remoteness: bool = False,
                 executor: Any = None, progress: Progress | None = None) -> dict:
    """Solve ``game`` into the database at ``path``; return its statistics (plus ``seconds`` and
    ``resumed_shards``, which the file does not keep, so that it is the same bytes however it was made)."""
    started = time.perf_counter()
    solve = TierSolve(game, game_name, Path(path), remoteness, executor, progress)
    stats = solve.run()
    return {**stats, "seconds": round(time.perf_counter() - started, 3), "resumed_shards": solve.resumed_shards}
