"""The tier solver: a strong solve of a :class:`~gamedp.tiers.TieredGame`, tier by tier, shard by shard, on disk.

1. **Reachability, forward.** Tier by tier from the start's, one bit per index: a position is reachable when a
   reachable, unfinished position in a lower tier moves to it. Each tier's bits are a file of their own, kept
   until the tier's values are sealed (they hold its reachability from then on, as code 3). A game whose every
   index is a position to answer (``every_index``: BLOCKGAME boards, tic-tac-toe's 3^9) has them all.
2. **Values, backward.** From the last tier down; a tier is cut into shards of at most :data:`SHARD` indices
   (on an executor of several slots, first into :data:`PER_SLOT` a slot with as many reachable positions each, so
   that the workers finish it together; a tier too small for a task is solved by the driver, whole), which are
   independent: a shard reads its child tiers memory-mapped read-only and writes its own file atomically
   (temporary file, rename; a CRC per block, checked when read, so a working file torn by a machine crash is
   made again: only the database itself is worth an fsync), so memory is one shard plus what the map pages in,
   and a solve that is killed resumes at the first shard without a file. A game may solve a shard with a kernel
   of its own (``shard_values(tier, lo, hi, remoteness) -> (codes, remoteness, stats)``, a byte per code, e.g.
   64 boards per machine word); everything else stays the same. The executor decides where shards run (see
   :mod:`gamedp.executors`). When every shard of a tier is there, they are sealed into one tier file and removed,
   and so is the tier's reach file: the working files stay near 2 bits per index (plus the remoteness byte), the
   values of the tiers solved and the reach bits of those still to solve, and one tier's shards twice while it is
   sealed.
   Values are two bits per index (0 LOSE, 1 WIN, 2 TIE for the player to move, 3 not reachable; index i at bits
   2(i%4) of byte i//4), remoteness a byte when asked. Positions come to the kernels by index, through the
   game's :meth:`~gamedp.tiers.TieredGame.expansion`.
3. **The database** (same family as :mod:`gamedp.database`: header, CRC per block, answered without numba):
   the tier files' codes end to end, 2 bits per index of the whole index space with code 3 for an index play
   never reaches (``encoding.unreachable``; or 1 bit when every index is a WIN or LOSE), the remoteness, and
   per-tier statistics in its metadata. While it is written the tier files are still there (a solve killed then
   writes it again from them): the peak disk of a solve is about 4 bits per index, plus twice the remoteness.

Everything is deterministic, so the database comes out byte-identical however the shards were run. An index
space of at most :data:`SMALL` solved in this process skips the files and numba alike: :func:`solve_small`
runs the plain functions in memory and gives the very same database (``gamedp solve tictactoe``).

>>> from gamedp.games.connect4_tiers import connect4_table
>>> codes = solve_in_memory(connect4_table(3, 3, 3))       # plain Python: every index, reachable or not
>>> CODE_NAMES[codes[0][0]]                                # three in a row on 3x3: a tie with best play
'TIE'
"""

from __future__ import annotations

import functools
import json
import os
import shutil
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from gamedp.errors import GameDefinitionError, GamedpError, ResourceError
from gamedp.kernels import tier_values
from gamedp.solvers.statistics import code_at, compact, pack_codes, table_stats
from gamedp.tiers import Passes, TieredGame

CODE_NAMES = ("LOSE", "WIN", "TIE", "UNREACHABLE")
UNREACHABLE = 3
#: Indices per shard (a multiple of 256, so that a shard's codes are whole 64-byte blocks and a tier's shards lie
#: end to end in its sealed file): what bounds a worker's memory.
SHARD = 1 << 24
#: On several executor slots, each pass cuts a tier into this many tasks per slot (of at least MIN_SHARD indices),
#: each with about as many reachable positions (the work: they crowd into some column-height blocks; with equal
#: lengths, one of two workers waited on the other for ~10% of most tiers). Every task costs the scheduler's
#: time and a tier's tasks are a barrier: on 2 workers, 6x4 took 4.17 s with one task a slot and 4.41 s with 2
#: (medians of 5); 3 of shrinking sizes were slower than 2 of equal ones.
PER_SLOT, MIN_SHARD = 1, 1 << 16
#: Tiers smaller than a shard over this are solved by the driver itself, whatever the executor (with 16M shards,
#: tiers under 1M: their work, ~40 ns an index for both passes, is less than the scheduler's round trips cost;
#: 6x4 has 12 such tiers of its 25).
DRIVER_TIER = 16
#: Indices the forked process that passes over the first tiers while a local cluster starts does between two
#: looks at whether it is up (~5 ms of 6x4's largest tiers), so that the cluster takes the rest of a tier at once.
FIRST_STEP = 1 << 18
#: Test hooks: the shard size, and seconds to pause after each shard (so a test can kill a solve mid-tier).
SHARD_ENV, PAUSE_ENV = "GAMEDP_TEST_SHARD_SIZE", "GAMEDP_TEST_SHARD_PAUSE"
FORMAT = 4  # of the working files (4: shards cut by reachable positions, their range recorded); a change makes
# old ones stale
#: Index spaces up to this size are solved in memory by the plain functions (see TierSolve.small).
SMALL = 1 << 15
#: The most tiers one tier's children may lie in (the kernels take that many child arrays).
MAX_CHILD_TIERS = 4
Progress = Callable[[int, int, str], None]


def solve_in_memory(game: TieredGame) -> list[list[int]]:
    """Every index's value code (0 LOSE, 1 WIN, 2 TIE), tier by tier, by the plain functions: small games only."""
    f = game.functions()
    out = [0] * (game.max_children + 64)
    values: list[list[int]] = [[] for _ in range(game.num_tiers)]
    for t in range(game.num_tiers - 1, -1, -1):
        row = values[t] = [0] * game.sizes[t]
        for i in range(game.sizes[t]):
            key = f.unrank(t, i)
            prim = f.primitive(key)
            if prim:
                row[i] = (0, 0, 1, 2)[prim]
                continue
            seen = {values[f.tier_of(c)][f.rank(c)] for c in out[:f.children(key, out)]}
            row[i] = 1 if 0 in seen else 2 if 2 in seen else 0
    return values


def solve_small(game: TieredGame, remoteness: bool) -> tuple[Any, Any, list[dict]]:
    """The whole solve of a tiny index space in memory by the plain functions (no numba): the 2-bit outcomes
    (3: unreachable) and remoteness (or an empty array) of the whole index space, and each tier's statistics,
    exactly as the sharded solve makes them, as ``bytes``: nothing here imports numpy. A child is looked up by its
    key among the positions already solved, so only each position's own rank is computed."""
    f = game.functions()
    sizes, out = game.sizes, [0] * (game.max_children + 64)
    declared = [set(game.child_tiers(t)) for t in range(game.num_tiers)]
    if game.every_index:
        keys = [[f.unrank(t, i) for i in range(sizes[t])] for t in range(game.num_tiers)]
    else:  # the positions play reaches, tier by tier, then in index order
        reached: list[dict] = [{} for _ in sizes]  # key -> its index
        reached[game.start_tier][game.start] = f.rank(game.start)
        for t in range(game.num_tiers):
            for key in reached[t]:
                if not f.primitive(key):
                    for c in out[:f.children(key, out)]:
                        ct = f.tier_of(c)
                        if ct not in declared[t]:
                            _fail_key(game, (1, key, c), t)
                        if c not in reached[ct]:
                            ci = reached[ct][c] = f.rank(c)
                            if not 0 <= ci < sizes[ct]:
                                _fail_key(game, (2, key, c), t)
        keys = [sorted((i, key) for key, i in tier.items()) for tier in reached]
    codes = [bytearray(b"\3" * s) for s in sizes]
    rems = [bytearray(s) for s in sizes]
    # key -> (its option for the parent, its tier): a LOSE is a WIN for the parent (3B - r) and beats a TIE
    # (2B - r), which beats a WIN (r): the kernels' order, so the best option is the largest number.
    base = 1 << 20
    known: dict[int, tuple[int, int]] = {}
    tier_stats: list[dict] = [{}] * game.num_tiers
    primitive, children = f.primitive, f.children
    for t in range(game.num_tiers - 1, -1, -1):
        counts = [0] * 5  # positions, WIN, LOSE, TIE, terminal
        mine, tier_codes, tier_rems = declared[t], codes[t], rems[t]
        for i, key in (enumerate(keys[t]) if game.every_index else keys[t]):
            prim = primitive(key)
            n = 0 if prim else children(key, out)
            if prim or n == 0:
                if prim not in (0, 1, 2, 3):
                    _fail_key(game, (4, key, prim), t)
                code, r = (0, 0, 1, 2)[prim], 0
                counts[4] += 1
            else:
                best = -1
                for j in range(n):
                    option, ct = known.get(out[j], (-1, -1))
                    if ct not in mine:
                        _child(game, f, t, key, out[j])  # names what is wrong
                        _fail_key(game, (3, key, out[j]), t)
                    if option > best:
                        best = option
                code, r = (1, 3 * base - best + 1) if best > 2 * base else \
                    (2, 2 * base - best + 1) if best > base else (0, best + 1)
                if not remoteness:
                    r = 0
                elif r > 255:
                    _fail_key(game, (5, key, r), t)
            known[key] = (3 * base - r if code == 0 else 2 * base - r if code == 2 else r, t)
            tier_codes[i], tier_rems[i] = code, r
            counts[1 + (0 if code == 1 else 1 if code == 0 else 2)] += 1
        counts[0] = sum(counts[1:4])
        tier_stats[t] = dict(zip(("positions", "WIN", "LOSE", "TIE", "terminal"), counts))
    return pack_codes(b"".join(codes)), b"".join(rems) if remoteness else b"", tier_stats


def _child(game: TieredGame, f: Any, tier: int, key: int, child: int) -> tuple[int, int]:
    """The tier and index of ``child`` of ``key`` (in ``tier``), checked as the kernels check them."""
    ct = f.tier_of(child)
    if ct not in game.child_tiers(tier):
        _fail_key(game, (1, key, child), tier)
    ci = f.rank(child)
    if not 0 <= ci < game.sizes[ct]:
        _fail_key(game, (2, key, child), tier)
    return ct, ci


# -- the work directory ------------------------------------------------------------------------------------------
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


def work_dir(path: Path) -> Path:
    return path.with_name(path.name + ".tiers")


def identity(game: TieredGame, remoteness: bool, shard: int) -> str:
    return json.dumps({"format": FORMAT, "game_id": game.game_id, "variant": game.variant, "sizes": game.sizes,
                       "remoteness": remoteness, "shard": shard}, sort_keys=True)


def _shard_file(work: Path, tier: int, shard: int) -> Path:
    return work / f"tier{tier}.shard{shard}"


def _tier_file(work: Path, tier: int) -> Path:
    return work / f"tier{tier}.values"


def _reach_file(work: Path, tier: int) -> Path:
    return work / f"tier{tier}.reach"


def _marks_file(work: Path, tier: int, piece: int) -> Path:
    return work / f"tier{tier}.marks{piece}"


class _File:
    """A working file (a :class:`~gamedp.database.Container`) checked against the solve's identity."""

    def __init__(self, path: Path, ident: str):
        from gamedp.database import Container

        self.c = Container(path, "the solve will redo it")
        if self.c.meta.get("identity") != ident:
            self.c.close()
            raise _Stale(path)
        st = os.stat(path)
        self.stamp = (str(path), st.st_ino, st.st_mtime_ns, st.st_size)
        if self.stamp in _CHECKED:  # every shard of a tier maps the same child files: check them once per process
            self.c.take_as_verified()

    def trust(self) -> _File:
        """Count every block as checked, for a file its writer reported whole in this solve: a worker writes to a
        temporary file and renames it when done (a killed one leaves no torn file), and one found at a resume was
        checked by :func:`_finished`; only a machine crash tears a file, and it ends this solve too. (Checking
        again cost a 6x5 solve's driver ~3 s.)"""
        self.c.take_as_verified()
        return self

    def verify(self) -> None:
        """Every block checked (and remembered for this process)."""
        self.c.verify()
        _CHECKED.add(self.stamp)

    def section(self, name: str) -> memoryview:
        """A whole section, every block checked (once per process, for a file of one section)."""
        view = self.c.section(name)
        if len(self.c._sections) == 1:
            _CHECKED.add(self.stamp)
        return view

    def span(self, first: str, count: int) -> memoryview:
        """Sections ``first0..first{count-1}``, which lie end to end, as one read-only view (every block checked)."""
        import mmap

        start = stop = None
        for i in range(count):
            view = self.c.section(f"{first}{i}")  # checks the CRCs, unless this process has
            s = self.c._sections[f"{first}{i}"]  # by name: a tier file has a section per shard
            if stop is not None and s["offset"] != stop:
                raise _Stale(self.c.path)
            start = s["offset"] if start is None else start
            stop = s["offset"] + s["length"]
            view.release()
        _CHECKED.add(self.stamp)  # the solver reads a file's sections all together
        if start is None:
            return memoryview(b"")
        base = self.c._data  # the data area: sections' offsets count from it
        assert isinstance(self.c._map, mmap.mmap)
        return memoryview(self.c._map)[base + start:base + stop]

    def close(self) -> None:
        self.c.close()


#: Working files whose every block this process has checked: (path, inode, mtime, size), so a file made again
#: is checked again.
_CHECKED: set[tuple] = set()


class _Stale(Exception):
    pass


def _open(path: Path, ident: str) -> _File | None:
    """The working file at ``path`` if it is whole and of this solve; else None (and it is removed)."""
    from gamedp.database import DatabaseError

    if not path.exists():
        return None
    try:
        f = _File(path, ident)
    except (DatabaseError, _Stale, KeyError, ValueError, TypeError):
        path.unlink(missing_ok=True)
        return None
    try:
        f.verify()  # every block: working files skip fsync, so one a crash tore is redone, never trusted
    except DatabaseError:
        f.close()
        path.unlink(missing_ok=True)
        return None
    return f


# -- kernels: module-level functions of constants only, so numba keeps them on disk for every process ---------
def child_slot(slot, limits, tier, i, out, j, err):  # pragma: no cover
    """The kernels' slot of the ``j``-th child's tier and its index there; slot -1 (and ``err`` set) when the
    tier is not a declared child tier or the index is outside it."""
    ct, ci = out[2 * j], out[2 * j + 1]
    s = slot[ct] if 0 <= ct < slot.shape[0] else -1
    if s < 0 or ci < 0 or ci >= limits[s]:
        err[0], err[1], err[2], err[3], err[4] = 1 if s < 0 else 2, tier, i, ct, ci
        return -1, ci
    return s, ci


def mark_children(expand, params, tier, lo, hi, reach, slot, limits, m0, m1, m2, m3, state, out,
                  err):  # pragma: no cover
    """Set the reach bit of every child of the reachable, unfinished positions ``lo..hi-1`` of ``tier`` (``lo`` a
    multiple of 8)."""
    state[:] = -1
    for b in range(lo >> 3, min(reach.shape[0], (hi + 7) >> 3)):
        byte = reach[b]
        if byte == 0:
            continue
        for bit in range(8):
            if not (byte >> bit) & 1:
                continue
            i = (b << 3) + bit
            n = expand(params, tier, i, state, out)
            if n < 0:
                if n < -3:
                    err[0], err[1], err[2], err[3] = 4, tier, i, out[0]
                    return
                continue
            for j in range(n):
                s, ci = child_slot(slot, limits, tier, i, out, j, err)
                if s < 0:
                    return
                target = m0 if s == 0 else m1 if s == 1 else m2 if s == 2 else m3
                target[ci >> 3] |= 1 << (ci & 7)


def solve_shard(expand, params, tier, lo, hi, reach, slot, limits, c0, c1, c2, c3, r0, r1, r2, r3, want_rem,
                codes, rem, state, out, stats, err):  # pragma: no cover
    """Values of the indices ``lo..hi-1`` of ``tier`` into ``codes`` (2 bits each, from 3: unreachable) and ``rem``.
    stats: reachable positions, WIN, LOSE, TIE, terminal."""
    state[:] = -1
    for b in range(lo >> 3, (hi + 7) >> 3):
        byte = reach[b]
        if byte == 0:
            continue
        for bit in range(8):
            i = (b << 3) + bit
            if not (byte >> bit) & 1 or i >= hi:
                continue
            n = expand(params, tier, i, state, out)
            r = 0
            if n < 0:
                if n < -3:
                    err[0], err[1], err[2], err[3] = 4, tier, i, out[0]
                    return
                code = 0 if n == -1 else 1 if n == -2 else 2
                stats[4] += 1
            elif n == 0:
                code = 0
                stats[4] += 1
            else:
                best = -1
                for j in range(n):
                    s, ci = child_slot(slot, limits, tier, i, out, j, err)
                    if s < 0:
                        return
                    values = c0 if s == 0 else c1 if s == 1 else c2 if s == 2 else c3
                    v = (values[ci >> 2] >> ((ci & 3) << 1)) & 3
                    if v == 3:
                        err[0], err[1], err[2], err[3], err[4] = 3, tier, i, out[2 * j], ci
                        return
                    cr = 0
                    if want_rem:
                        cr = (r0 if s == 0 else r1 if s == 1 else r2 if s == 2 else r3)[ci]
                    best = max(best, tier_values.option(v, cr))
                    if best == 3 * tier_values.BASE and not want_rem:
                        break  # a child that is lost: nothing beats that
                code, r = tier_values.settle(best)
            tier_values.record(i - lo, code, codes, stats)
            if want_rem:
                if r > 255:
                    err[0], err[1], err[2], err[3] = 5, tier, i, r
                    return
                rem[i - lo] = r


@functools.lru_cache(maxsize=None)
def _kernels() -> Any:
    """The solver's numba kernels, compiled once per machine (cached on disk); the game's expansion comes in as a
    function value, so one compiled solver serves every game."""
    import types as pytypes

    from numba import njit, types

    from gamedp.aot import jit_functions
    from gamedp.tiers import expansion_signature

    jit_functions(tier_values)

    fn = types.FunctionType(expansion_signature())
    ro = types.Array(types.uint8, 1, "C", readonly=True)
    rw = types.uint8[::1]
    i64, a64 = types.int64, types.int64[::1]
    signatures = {
        mark_children: types.void(fn, a64, i64, i64, i64, ro, a64, a64, rw, rw, rw, rw, a64, a64, a64),
        solve_shard: types.void(fn, a64, i64, i64, i64, ro, a64, a64, ro, ro, ro, ro, ro, ro, ro, ro, types.boolean,
                                rw, rw, a64, a64, a64, a64),
    }
    helper = njit(types.UniTuple(i64, 2)(a64, a64, i64, i64, a64, i64, a64), cache=True, nogil=True,
                  inline="always")(child_slot)

    def jit(f: Any, sig: Any) -> Any:
        # The kernel with its helper as a compiled function (same code and name, so numba's disk cache still works)
        f = pytypes.FunctionType(f.__code__, {**f.__globals__, "child_slot": helper}, f.__name__)
        return njit(sig, cache=True, nogil=True, error_model="numpy")(f)

    return pytypes.SimpleNamespace(**{f.__name__: jit(f, sig) for f, sig in signatures.items()})


def place_codes(outcomes: Any, at: int, packed: Any, size: int) -> None:
    """Put ``size`` packed codes (index i at bits 2(i%4) of byte i//4; what follows them ignored) into
    ``outcomes`` from index ``at``, where every code is still 0, by whole bytes: shifted when ``at`` is not a
    multiple of 4.

    >>> import numpy as np
    >>> out = np.zeros(3, dtype=np.uint8)
    >>> place_codes(out, 3, pack_codes(np.array([1, 2, 3, 1, 2, 3], dtype=np.uint8)), 5)
    >>> [(int(out[g >> 2]) >> 2 * (g & 3)) & 3 for g in range(10)]
    [0, 0, 0, 1, 2, 3, 1, 2, 0, 0]
    """
    import numpy as np

    whole = size >> 2
    first, shift = at >> 2, (at & 3) << 1
    full = packed[:whole]
    if shift == 0:
        np.bitwise_or(outcomes[first:first + whole], full, out=outcomes[first:first + whole])
    else:  # each byte's codes straddle two bytes of the whole space
        np.bitwise_or(outcomes[first:first + whole], np.left_shift(full, shift), out=outcomes[first:first + whole])
        np.bitwise_or(outcomes[first + 1:first + 1 + whole], np.right_shift(full, 8 - shift),
                      out=outcomes[first + 1:first + 1 + whole])
    for i in range(whole << 2, size):
        g = at + i
        outcomes[g >> 2] |= ((int(packed[i >> 2]) >> ((i & 3) << 1)) & 3) << ((g & 3) << 1)


def _four(arrays: list, writable: bool = False) -> list:
    """The child tiers' arrays padded to the kernels' four slots."""
    import numpy as np

    return arrays + [_frozen(np.zeros(0, dtype=np.uint8), writable)] * (MAX_CHILD_TIERS - len(arrays))


def _frozen(a: Any, writable: bool = False) -> Any:
    """``a`` as the kernels' read-only array type (a view), unless ``writable``."""
    if writable:
        return a
    view = a.view()
    view.flags.writeable = False
    return view


def _fail(game: TieredGame, err: Any) -> None:
    """A kernel's error record (code, tier, index, then the child's tier and index, or a detail) as one error."""
    code, tier, index, detail, child_index = (int(x) for x in err)
    key = game.functions().unrank(tier, index)
    _fail_key(game, (code, key, detail if code in (4, 5) else f"at index {child_index} of tier {detail}"), tier)


def _fail_key(game: TieredGame, err: Any, tier: int) -> None:
    code, key, detail = err
    if code == 5:
        raise GamedpError(f"{game.label}: position {key} has remoteness {detail}, more than a byte holds (255); "
                          "solve without remoteness")
    message = {1: f"position {key} (tier {tier}) has the child {detail}, which is not in a declared child tier",
               2: f"position {key} (tier {tier}) has the child {detail}, which ranks outside its tier",
               3: f"position {key} (tier {tier}) has the child {detail}, which the reachability pass did not reach "
                  "(children must be the same in both passes)",
               4: f"primitive({key}) returned {detail}; expected 0-3"}[code]
    raise GameDefinitionError(f"{game.label}: {message}")


def _arrays(game: TieredGame, tier: int) -> tuple[Any, Any, Any, Any, Any]:
    """The passes' kernels (see :func:`_passes`), and what they need to run on ``tier``: the child tiers' slots and
    sizes, the state, the out buffer and the error record."""
    import numpy as np

    p = _passes(game)
    kids = game.child_tiers(tier)
    slot = np.full(game.num_tiers, -1, dtype=np.int64)
    slot[list(kids)] = np.arange(len(kids))
    limits = np.zeros(MAX_CHILD_TIERS, dtype=np.int64)
    limits[:len(kids)] = [game.sizes[c] for c in kids]
    return p, slot, limits, (np.empty(p.state_size, dtype=np.int64), np.empty(p.out_size, dtype=np.int64),
                             np.zeros(5, dtype=np.int64))


def _passes(game: TieredGame) -> Passes:
    """The game's own kernels for the two passes, else the solver's loops over its expansion."""
    own = game.passes()
    if own is not None:
        return own
    ex, k = game.expansion(), _kernels()
    return Passes(functools.partial(k.mark_children, ex.kernel), functools.partial(k.solve_shard, ex.kernel),
                  ex.params, ex.state_size, ex.out_size)


# -- one shard (runs wherever the executor puts it) ----------------------------------------------------------------
_GAMES: dict[tuple[str, str], TieredGame] = {}


def preload_passes(game_name: str, variant: tuple) -> None:
    """Load the passes' kernels (see :func:`_passes`) into this process, so that the local workers forked from it
    start with them rather than each load them again."""
    game = _game(game_name, variant)
    if not (game.every_index and hasattr(game, "shard_values")):  # else no forward pass and its own shard kernel
        _passes(game)


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
    path = _marks_file(work, job.tier, job.shard)
    if _finished(path, job) is not None:
        return
    game = _game(job.game_name, job.variant)
    marks = [np.zeros((game.sizes[c] + 7) >> 3, dtype=np.uint8) for c in game.child_tiers(job.tier)]
    reach_file = _File(_reach_file(work, job.tier), job.identity)
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
    p, slot, limits, (state, out, err) = _arrays(game, tier)
    p.mark_children(p.params, tier, lo, hi, reach, slot, limits, *_four(marks, writable=True), state, out, err)
    if err[0]:
        _fail(game, err)


def _finished(path: Path, job: Job) -> dict | None:
    """The metadata of the piece or shard file at ``path`` if it is whole, of this solve and of ``job``'s range;
    else None (and a file of another range is removed: a solve resumed on another number of workers cuts its
    tiers otherwise)."""
    done = _open(path, job.identity)
    if done is None:
        return None
    meta = done.c.meta
    done.close()
    if (meta.get("lo"), meta.get("hi")) != (job.lo, job.hi):
        path.unlink()
        return None
    return meta


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
    path = _shard_file(work, job.tier, job.shard)
    if _finished(path, job) is not None:
        return
    game = _game(job.game_name, job.variant)
    if hasattr(game, "shard_values"):  # the game's own kernel for a whole shard (e.g. 64 boards per word)
        codes, rem, stats = game.shard_values(job.tier, job.lo, job.hi, job.remoteness)
        _write_shard(job, path, pack_codes(codes), rem, stats)
        return
    reach_file = None if game.every_index else _File(_reach_file(work, job.tier), job.identity)
    files = [_File(_tier_file(work, c), job.identity) for c in game.child_tiers(job.tier)]
    try:
        reach = (np.full((game.sizes[job.tier] + 7) >> 3, 255, dtype=np.uint8) if reach_file is None
                 else np.frombuffer(reach_file.section("reach"), dtype=np.uint8))
        p, slot, limits, (state, out, err) = _arrays(game, job.tier)
        nshards = [f_.c.meta["shards"] for f_ in files]
        codes_l = _four([np.frombuffer(f_.span("codes", n), dtype=np.uint8) for f_, n in zip(files, nshards)])
        rem_l = _four([np.frombuffer(f_.span("remoteness", n), dtype=np.uint8) for f_, n in zip(files, nshards)]
                      if job.remoteness else [])
        codes = np.full((job.hi - job.lo + 3) >> 2, 255, dtype=np.uint8)  # every index unreachable (3) until solved
        rem = np.zeros(job.hi - job.lo if job.remoteness else 0, dtype=np.uint8)
        stats_a = np.zeros(5, dtype=np.int64)
        p.solve_shard(p.params, job.tier, job.lo, job.hi, reach, slot, limits, *codes_l, *rem_l, job.remoteness,
                      codes, rem, state, out, stats_a, err)
        del codes_l, rem_l, reach
    finally:
        if reach_file is not None:
            reach_file.close()
        for f_ in files:
            f_.close()
    if err[0]:
        _fail(game, err)
    stats = dict(zip(("positions", "WIN", "LOSE", "TIE", "terminal"), (int(x) for x in stats_a)))
    _write_shard(job, path, codes, rem, stats)


def _write_shard(job: Job, path: Path, codes: Any, rem: Any, stats: dict) -> None:
    from gamedp.database import write_container

    sections = [("codes", codes)] + ([("remoteness", rem)] if job.remoteness else [])
    write_container(path, {"identity": job.identity, "tier": job.tier, "shard": job.shard, "lo": job.lo,
                           "hi": job.hi, "stats": stats}, sections, durable=False)
    pause = float(os.environ.get(PAUSE_ENV) or 0)
    if pause:
        time.sleep(pause)


# -- the driver ----------------------------------------------------------------------------------------------------
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
        # beside the tier files.
        disk_need = max(total // 4 + total // 8 + biggest // 2 + rem + biggest, 2 * (total // 4 + rem))
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
        self._prepare_work()
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
        whole = [_open(_reach_file(work, t), self.ident) or _open(_tier_file(work, t), self.ident)
                 for t in range(game.num_tiers)]
        for f in whole:
            if f is not None:
                f.close()
        if all(f is not None for f in whole):
            return
        if game.every_index:  # every index is a position: all reachable, nothing to search or keep
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
        write_container(_reach_file(self.work, t), {"identity": self.ident, "tier": t, "cut": [count, bounds]},
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
            marks = _File(_marks_file(work, t, job.shard), self.ident).trust()
            try:
                for s, c in enumerate(kids):
                    view = marks.c.section(f"marks{s}")
                    np.bitwise_or(bits[c], np.frombuffer(view, dtype=np.uint8), out=bits[c])
                    view.release()
            finally:
                marks.close()

        executor.run(run_marks, jobs, merge)
        for job in jobs:  # only now: a solve killed before this point resumes from the pieces
            _marks_file(work, t, job.shard).unlink()

    def _reach_while_starting(self) -> tuple[int, int, dict[int, Any]]:
        """Start the executor (a local cluster: ~0.35 s of importing Dask and starting processes; 6x4's first 15
        tiers take about as long) while a process forked from this one passes over the first tiers, until it is
        told the cluster is up; return where to go on from (a tier, and an index in it) and the reachable indices
        found so far. (A thread would not do: the ahead-of-time kernels hold the GIL that the start needs.) Where
        the child fails or dies, its tiers are simply passed over again here; whatever stops this process meanwhile
        stops the child too."""
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
        except BaseException:  # noqa: S110 -- the parent passes over these tiers again, and says what fails there
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
        reach = _File(_reach_file(self.work, tier), self.ident)
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
            sealed = _open(_tier_file(self.work, t), self.ident)
            if sealed is not None:
                tier_stats[t] = sealed.c.meta["stats"]
                self.resumed_shards += int(sealed.c.meta["shards"])
                sealed.close()
                _reach_file(self.work, t).unlink(missing_ok=True)  # a solve killed between sealing and this
                done_before += size
                continue
            executor, count = self._plan(size)
            jobs = [Job(self.name, self.variant, str(self.work), self.ident, t, s, lo, hi, self.want_rem)
                    for s, (lo, hi) in enumerate(self._shard_cuts(t, count))]
            self.resumed_shards += sum(_finished(_shard_file(self.work, t, j.shard), j) is not None for j in jobs)
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
            files = [_File(_shard_file(self.work, t, j.shard), self.ident).trust() for j in jobs]
        except (DatabaseError, _Stale):
            raise GamedpError(f"a shard of tier {t} went missing from {self.work}; solve again to redo it") from None
        stats = {key: sum(f.c.meta["stats"][key] for f in files) for key in ("positions", "WIN", "LOSE", "TIE",
                                                                             "terminal")}
        try:
            sections = [(f"codes{i}", f.c.section("codes")) for i, f in enumerate(files)]
            if self.want_rem:
                sections += [(f"remoteness{i}", f.c.section("remoteness")) for i, f in enumerate(files)]
            write_container(_tier_file(self.work, t), {"identity": self.ident, "tier": t, "shards": len(jobs),
                                                       "stats": stats}, sections, durable=False)
            del sections
        finally:
            for f in files:
                f.close()
        for old in self.work.glob(f"tier{t}.shard*"):  # these jobs' shards, and any a solve cut otherwise left
            old.unlink(missing_ok=True)
        _reach_file(self.work, t).unlink(missing_ok=True)  # its codes say which indices are reachable now
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
        for t in range(game.num_tiers):
            f = _File(_tier_file(self.work, t), self.ident)
            try:
                n, at = f.c.meta["shards"], game.offsets[t]
                codes = np.frombuffer(f.span("codes", n), dtype=np.uint8)
                place_codes(outcomes, at, codes, game.sizes[t])
                if self.want_rem:
                    all_rem[at:at + game.sizes[t]] = np.frombuffer(f.span("remoteness", n), dtype=np.uint8)
                del codes
            finally:
                f.close()
        try:
            return self._write(outcomes, all_rem, tier_stats)
        finally:
            del all_rem

    def _write(self, outcomes: Any, all_rem: Any, tier_stats: list[dict]) -> dict:
        """Write the database: 2-bit ``outcomes`` (3: unreachable) and remoteness of the whole index space (numpy
        arrays, or bytes from :func:`solve_small`)."""
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
            whole = table_stats(outcomes, all_rem, total)
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
