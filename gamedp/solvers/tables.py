"""Dense tables: the strong solve of a whole index space, tier by tier, on every core.

A *table spec* is any object with ``game_id`` (str), ``variant`` (a JSON-serialisable dict of the game's
parameters), ``size`` (positions are the indices 0..size-1) and

- ``solve_table(remoteness: bool, progress=None) -> (outcomes, remoteness or None)``: ``outcomes`` packs the
  2-bit code of index i (0 LOSE, 1 WIN, 2 TIE, 3 DRAW) at bits 2*(i%4) of byte i//4 of a numpy uint8 array;
  remoteness is a uint8 array of length ``size``. ``progress(done, total)`` is called now and then;
- ``index(position) -> int``, ``position(index)``, ``parse_position(text)`` (and optionally
  ``format_position(position)``) for the front ends. These must not import numba: lookups run without it.

:class:`CompiledTable` is that protocol for any :class:`~gamedp.compiled.CompiledGame` whose positions are the
indices and which has a *tier* function where every move goes up a tier (e.g. pieces on the board). The
solver orders the indices by tier (a counting sort), then solves from the last tier down: a position's
children are all in solved tiers, so one pass over its children decides it. A large tier is cut into chunks
that threads solve at once with ``nogil`` numba kernels; runs of small tiers go to one kernel call. After a
tier, if a couple of seconds have passed since the last one, a checkpoint is written (atomically): a solve that
is killed resumes from its last checkpointed tier.

:func:`build_database` does the whole job behind ``gamedp solve``: memory guard, solve, statistics, the
database file.

Codes are packed four to a byte, index i at bits 2*(i%4) of byte i//4:

>>> [CODE_NAMES[code_at(bytes([0b11100100]), i)] for i in range(4)]
['LOSE', 'WIN', 'TIE', 'DRAW']
"""

from __future__ import annotations

import functools
import os
import threading
import time
from pathlib import Path
from typing import Any, Callable, Mapping, Protocol

from gamedp.compiled import CompiledGame
from gamedp.errors import GameDefinitionError, GamedpError, ResourceError, compile_failure
from gamedp.memory import available_memory

Progress = Callable[[int, int], None]
CODE_NAMES = ("LOSE", "WIN", "TIE", "DRAW")
#: Positions per kernel call: small enough for a smooth progress bar, large enough to hide the call.
BATCH = 1 << 16
#: Games with at least this many positions get solver kernels compiled around their own kernels.
SPECIALISE_FROM = 1 << 22
#: A checkpoint after a tier when at least this much solving time would otherwise be lost.
CHECKPOINT_SECONDS = 2.0
#: Test hook: seconds to pause after every tier (each tier then gets its own checkpoint), so a test can kill a
#: solve between tiers.
PAUSE_ENV = "GAMEDP_TEST_TIER_PAUSE"


class TableSpec(Protocol):
    game_id: str
    variant: dict
    size: int

    def solve_table(self, remoteness: bool, progress: Progress | None = None) -> tuple[Any, Any]: ...
    def index(self, position: Any) -> int: ...
    def position(self, index: int) -> Any: ...
    def parse_position(self, text: str) -> Any: ...


def code_at(outcomes: Any, index: int) -> int:
    """The 2-bit code of ``index`` in a packed outcome array."""
    return (int(outcomes[index >> 2]) >> ((index & 3) << 1)) & 3


class CompiledTable:
    """A compiled game over the index space 0..num_positions-1, with a tier function for the table solver.

    ``tier(position) -> int`` (a plain function or numba kernel) must give every position a tier in
    0..num_tiers-1 such that every child is in a higher tier than its parent; the solver checks this.
    """

    def __init__(self, game: CompiledGame, tier: Callable, num_tiers: int, *, game_id: str | None = None,
                 variant: Mapping[str, Any] | None = None):
        if game.num_positions is None:
            raise GameDefinitionError(f"{game.name}: a table needs num_positions (the size of the index space)")
        if num_tiers < 1:
            raise GameDefinitionError(f"{game.name}: num_tiers must be at least 1, not {num_tiers}")
        self.game = game
        self.tier = tier
        self.num_tiers = int(num_tiers)
        self.game_id = game_id or game.name
        self.variant = dict(variant or {})
        self.size = int(game.num_positions)
        #: The tier a resumed solve started from, else None (set by :meth:`solve_table`).
        self.resumed_below_tier: int | None = None

    def index(self, position: int) -> int:
        self.game.check_position(position)
        return int(position)

    def position(self, index: int) -> int:
        return int(index)

    def parse_position(self, text: str) -> int:
        return self.game.parse_position(text)

    def format_position(self, position: int) -> str:
        return self.game.format_position(position)

    def memory_bytes(self, remoteness: bool) -> int:
        """Bytes the solve needs at its peak: the order of indices, a code byte each, remoteness, the packing."""
        order = 4 if self.size < 1 << 32 else 8
        return self.size * (order + 1 + (1 if remoteness else 0)) + self.size // 2 + self.num_tiers * 16

    def solve_table(self, remoteness: bool, progress: Progress | None = None,
                    checkpoint: str | os.PathLike | None = None) -> tuple[Any, Any]:
        """Solve every index; see the module docstring. ``checkpoint`` names the file to resume from."""
        return _TierSolver(self, remoteness, progress, Path(checkpoint) if checkpoint else None).run()


class _TierSolver:
    def __init__(self, spec: CompiledTable, remoteness: bool, progress: Progress | None, checkpoint: Path | None):
        self.spec, self.want_rem, self.progress, self.checkpoint = spec, remoteness, progress, checkpoint
        self.pause = float(os.environ.get(PAUSE_ENV) or 0)

    def run(self) -> tuple[Any, Any]:
        from concurrent.futures import ThreadPoolExecutor

        import numpy as np

        spec = self.spec
        k = _kernels(spec.size >= SPECIALISE_FROM)
        game = spec.game
        children, tier = _jit(game.children_kernel, k.children_t), _jit(spec.tier, k.position_t)
        primitive = (_jit(game.primitive_kernel, k.position_t) if game.primitive_kernel is not None
                     else k.no_primitive)
        size, tiers = spec.size, spec.num_tiers
        counts = np.zeros(tiers, dtype=np.int64)
        bad = k.count_tiers(tier, size, counts)
        if bad >= 0:
            raise GameDefinitionError(f"{game.name}: tier({bad}) = {int(tier(bad))}, outside 0..{tiers - 1}")
        offsets = np.zeros(tiers + 1, dtype=np.int64)
        np.cumsum(counts, out=offsets[1:])
        order = np.empty(size, dtype=np.uint32 if size < 1 << 32 else np.int64)
        k.fill_order(tier, size, offsets[:-1].copy(), order)
        del counts

        codes, rem, top = self._resume(np)
        spec.resumed_below_tier = top if top < tiers else None
        workers = max(1, min(2, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 2))
        scratch = threading.local()  # each thread its own child buffer and error record

        def solve(lo: int, hi: int) -> None:
            if not hasattr(scratch, "out"):
                scratch.out = np.empty(game.max_children + 64, dtype=np.int64)
                scratch.err = np.zeros(3, dtype=np.int64)
            out, err = scratch.out, scratch.err
            k.solve_run(children, primitive, tier, bool(game.misere), order, lo, hi, codes, rem, self.want_rem,
                        game.max_children, out, err)
            if err[0]:
                self._fail(err)

        last_save = time.monotonic()
        with ThreadPoolExecutor(max_workers=workers) as pool:
            self._report(size - int(offsets[top]), size)
            while top > 0:
                hi = int(offsets[top])
                # The lowest tier boundary at most BATCH positions below: a run of small tiers, solved in order.
                low = top - 1 if self.pause else int(np.searchsorted(offsets, hi - BATCH, side="left"))
                low = min(max(low, 0), top - 1)
                lo = int(offsets[low])
                if hi - lo > BATCH and workers > 1:  # one big tier: chunks on every core
                    step = max(BATCH // 4, -(-(hi - lo) // (workers * 16)))
                    jobs = [(a, min(a + step, hi)) for a in range(lo, hi, step)]
                    futures = [pool.submit(solve, a, b) for a, b in jobs]
                    done = size - hi
                    for f, (a, b) in zip(futures, jobs):
                        f.result()
                        done += b - a
                        self._report(done, size)
                else:
                    solve(lo, hi)
                    self._report(size - lo, size)
                top = low
                if self.checkpoint and top > 0 and (self.pause or time.monotonic() - last_save >= CHECKPOINT_SECONDS):
                    self._save(codes, rem, top)
                    last_save = time.monotonic()
                if self.pause:
                    time.sleep(self.pause)
        del order
        packed = pack_codes(codes)
        del codes
        return packed, (rem if self.want_rem else None)

    def _report(self, done: int, total: int) -> None:
        if self.progress is not None:
            self.progress(done, total)

    def _fail(self, err: Any) -> None:
        name = self.spec.game.name
        code, pos, detail = (int(x) for x in err)
        message = {
            1: f"position {pos} has {detail} children, more than max_children={self.spec.game.max_children}",
            2: f"position {pos} has the child {detail}, outside 0..{self.spec.size - 1}",
            3: f"position {pos} (tier {int(_jit(self.spec.tier)(pos))}) has the child {detail} "
               f"(tier {int(_jit(self.spec.tier)(detail))}): every move must go up a tier",
            4: f"primitive({pos}) returned {detail}; expected 0-3",
            5: f"position {pos} is primitive but has {detail} moves; a position that ends the game has none",
        }.get(code)
        if code == 6:
            raise GamedpError(f"{name}: position {pos} has remoteness {detail}, more than a byte holds (255); "
                              "solve without remoteness")
        raise GameDefinitionError(f"{name}: {message}")

    # -- checkpoints -------------------------------------------------------------------------------------------
    def _identity(self) -> dict:
        s = self.spec
        return {"game_id": s.game_id, "variant": s.variant, "size": s.size, "num_tiers": s.num_tiers,
                "remoteness": self.want_rem}

    def _save(self, codes: Any, rem: Any, top: int) -> None:
        """Checkpoint the tiers from ``top`` up, packed as the database will be (so no bigger than it). One that
        cannot be written (a full disk, say) only costs the resume: the solve goes on without checkpoints."""
        import sys

        from gamedp.database import write_container

        outcomes, bits = compact(pack_codes(codes), len(codes))
        sections = [("codes", outcomes)] + ([("remoteness", rem)] if self.want_rem else [])
        try:
            write_container(self.checkpoint, {**self._identity(), "checkpoint": {"solved_from_tier": top,
                                                                                  "code_bits": bits}}, sections)
        except GamedpError as e:
            sys.stderr.write(f"gamedp: warning: {e}; going on without checkpoints (a killed solve would start "
                             "again)\n")
            self.checkpoint = None

    def _resume(self, np: Any) -> tuple[Any, Any, int]:
        """The codes, remoteness and lowest solved tier of a valid checkpoint, else a fresh start."""
        from gamedp.database import Container, DatabaseError

        size, tiers = self.spec.size, self.spec.num_tiers
        fresh = (np.zeros(size, dtype=np.uint8), np.zeros(size if self.want_rem else 0, dtype=np.uint8), tiers)
        if self.checkpoint is None or not self.checkpoint.exists():
            return fresh
        try:
            with Container(self.checkpoint) as c:
                meta = c.meta
                top = int(meta["checkpoint"]["solved_from_tier"])
                if any(meta.get(key) != value for key, value in self._identity().items()) or not 0 < top < tiers:
                    return fresh
                codes = unpack_codes(c.section("codes"), int(meta["checkpoint"]["code_bits"]), size)
                rem = (np.frombuffer(c.section("remoteness"), dtype=np.uint8).copy() if self.want_rem
                       else fresh[1])
        except (DatabaseError, KeyError, TypeError, ValueError):
            return fresh  # a damaged or foreign checkpoint: start clean
        if len(codes) != size or len(rem) != len(fresh[1]):
            return fresh
        return codes, rem, top


def _jit(fn: Callable, signature: Any = None) -> Callable:
    """``fn`` as a numba kernel compiled for ``signature``, with the plain functions of its module it calls
    (compiled once, cached on disk)."""
    import types

    from numba import njit
    from numba.core.registry import CPUDispatcher

    key, kernel = fn, _jitted.get(fn)
    if kernel is None:
        if isinstance(fn, CPUDispatcher):
            kernel = fn
        else:
            helpers = {name: _jit(g) for name in fn.__code__.co_names
                       if isinstance(g := fn.__globals__.get(name), types.FunctionType) and g is not fn}
            if helpers:
                fn = types.FunctionType(fn.__code__, {**fn.__globals__, **helpers}, fn.__name__, fn.__defaults__,
                                        fn.__closure__)
            kernel = njit(cache=True, nogil=True)(fn)
        _jitted[key] = kernel
    if signature is not None and signature.args not in kernel.overloads:
        try:
            kernel.compile(signature.args)
        except Exception as e:  # numba's whole message: where in the user's file, and which type failed
            raise compile_failure(f"the kernel {getattr(key, '__name__', key)}", signature, e) from None
    return kernel


_jitted: dict[Callable, Callable] = {}


@functools.lru_cache(maxsize=None)
def _kernels(specialised: bool) -> Any:
    """The solver's numba kernels (numba is imported only by a solve).

    Generic kernels take the game's kernels as first-class function values of fixed signatures: compiled once
    and cached, they serve every game, but call the game through a pointer. Specialised ones are compiled
    for the game's own kernels, which they inline: a second of compiling that pays off on large games.
    """
    import types as pytypes

    import numpy as np
    from numba import njit, types

    children_t = types.int64(types.int64, types.int64[::1])
    position_t = types.int64(types.int64)  # primitive and tier
    tier_f = types.FunctionType(position_t)
    orders = (types.uint32[::1], types.int64[::1])
    u8 = types.uint8[::1]

    def jit(signatures):
        return njit(nogil=True) if specialised else njit(signatures, cache=True, nogil=True)

    @njit(position_t, cache=True, nogil=True)
    def no_primitive(position):
        return 0

    @jit(types.int64(tier_f, types.int64, types.int64[::1]))
    def count_tiers(tier, size, counts):
        n = counts.shape[0]
        for i in range(size):
            t = tier(i)
            if t < 0 or t >= n:
                return i
            counts[t] += 1
        return -1

    @jit([types.void(tier_f, types.int64, types.int64[::1], o) for o in orders])
    def fill_order(tier, size, next_slot, order):
        for i in range(size):
            t = tier(i)
            order[next_slot[t]] = i
            next_slot[t] += 1

    @jit([types.void(types.FunctionType(children_t), types.FunctionType(position_t), tier_f, types.boolean, o,
                     types.int64, types.int64, u8, u8, types.boolean, types.int64, types.int64[::1],
                     types.int64[::1]) for o in orders])
    def solve_run(children, primitive, tier, misere, order, lo, hi, codes, rem, want_rem, max_children, out, err):
        # Highest tiers first: order is sorted by tier, so walk it backwards.
        size = codes.shape[0]
        for k in range(hi - 1, lo - 1, -1):
            p = np.int64(order[k])
            n = children(p, out)
            prim = primitive(p)
            if n > max_children:
                err[0], err[1], err[2] = 1, p, n
                return
            if prim != 0:
                if prim < 0 or prim > 3:
                    err[0], err[1], err[2] = 4, p, prim
                    return
                if n > 0:
                    err[0], err[1], err[2] = 5, p, n
                    return
                codes[p] = 0 if prim == 1 else 1 if prim == 2 else 2
                if want_rem:
                    rem[p] = 0
                continue
            if n == 0:
                codes[p] = 1 if misere else 0
                if want_rem:
                    rem[p] = 0
                continue
            t = tier(p)
            win, tie, lose = 1 << 30, 1 << 30, -1
            for j in range(n):
                c = out[j]
                if c < 0 or c >= size:
                    err[0], err[1], err[2] = 2, p, c
                    return
                if tier(c) <= t:
                    err[0], err[1], err[2] = 3, p, c
                    return
                code = codes[c]
                r = np.int64(rem[c]) if want_rem else 0
                if code == 0:
                    if r < win:
                        win = r
                elif code == 2:
                    if r < tie:
                        tie = r
                elif r > lose:
                    lose = r
            if win < 1 << 30:
                code, r = 1, win + 1
            elif tie < 1 << 30:
                code, r = 2, tie + 1
            else:
                code, r = 0, lose + 1
            codes[p] = code
            if want_rem:
                if r > 255:
                    err[0], err[1], err[2] = 6, p, r
                    return
                rem[p] = r

    return pytypes.SimpleNamespace(no_primitive=no_primitive, count_tiers=count_tiers, fill_order=fill_order,
                                   solve_run=solve_run, children_t=children_t, position_t=position_t)


# -- statistics and the database file ------------------------------------------------------------------------
def table_stats(outcomes: Any, remoteness: Any, size: int) -> dict:
    """Counts by outcome (and by remoteness), the longest win and loss, as ``gamedp solve`` prints them."""
    import numpy as np

    if remoteness is None:
        # Outcomes alone: count bits, 32 positions per word (low and high bit of each code).
        words = np.zeros(-(-len(outcomes) // 8), dtype=np.uint64)
        words.view(np.uint8)[:len(outcomes)] = outcomes
        low = words & np.uint64(0x5555555555555555)
        high = (words >> np.uint64(1)) & np.uint64(0x5555555555555555)
        counts = np.array([0] + [int(np.bitwise_count(w).sum()) for w in (low & ~high, high & ~low, low & high)])
        counts[0] = size - counts.sum()  # padding after the last position reads as LOSE, so LOSE is the rest
        hist = None
    else:
        hist = np.zeros((4, 256), dtype=np.int64)
        step = 1 << 22
        for start in range(0, size, step):
            stop = min(start + step, size)
            packed = outcomes[start // 4:-(-stop // 4)]
            codes = ((packed[:, None] >> np.array([0, 2, 4, 6], dtype=np.uint8)) & 3).ravel()[:stop - start]
            hist += np.bincount((codes.astype(np.int64) << 8) | remoteness[start:stop],
                                minlength=1024).reshape(4, 256)
        counts = hist.sum(axis=1)
    stats: dict[str, Any] = {"positions": size, "outcomes": {CODE_NAMES[c]: int(counts[c]) for c in range(4)
                                                             if counts[c]}}
    if hist is not None:
        stats["remoteness"] = {CODE_NAMES[c]: {str(r): int(hist[c, r]) for r in np.flatnonzero(hist[c])}
                               for c in range(3) if counts[c]}
        longest = {}
        for c in (1, 0):
            if counts[c]:
                r = int(np.flatnonzero(hist[c])[-1])
                at = np.flatnonzero(remoteness == r)
                at = at[((outcomes[at >> 2] >> ((at & 3) << 1).astype(np.uint8)) & 3) == c]
                longest[CODE_NAMES[c]] = {"remoteness": r, "index": int(at[0])}
        stats["longest"] = longest
    return stats


def pack_codes(codes: Any) -> Any:
    """Codes (one uint8 each) packed four to a byte, as ``solve_table`` returns them.

    >>> import numpy as np
    >>> pack_codes(np.array([0, 1, 2, 3, 1], dtype=np.uint8)).tolist()
    [228, 1]
    """
    import numpy as np

    padded = np.zeros(-(-len(codes) // 4) * 4, dtype=np.uint8)
    padded[:len(codes)] = codes
    quads = padded.reshape(-1, 4)
    return quads[:, 0] | (quads[:, 1] << 2) | (quads[:, 2] << 4) | (quads[:, 3] << 6)


def unpack_codes(data: Any, bits: int, size: int) -> Any:
    """``size`` codes (one uint8 each) from ``data`` packed at ``bits`` (1 or 2) per position, as
    :func:`compact` packs them.

    >>> import numpy as np
    >>> codes = np.array([0, 1, 1, 0, 1, 1, 1, 0, 1], dtype=np.uint8)
    >>> all((unpack_codes(*compact(pack_codes(codes), 9), 9) == codes)), unpack_codes(bytes([228, 1]), 2, 5).tolist()
    (True, [0, 1, 2, 3, 1])
    """
    import numpy as np

    data = np.frombuffer(data, dtype=np.uint8)
    if bits == 1:
        return np.unpackbits(data, bitorder="little")[:size].copy()
    if bits != 2 or len(data) * 4 < size:
        raise ValueError(f"cannot unpack {size} codes at {bits} bits from {len(data)} bytes")
    codes = np.empty(len(data) * 4, dtype=np.uint8)
    for j in range(4):
        codes[j::4] = (data >> 2 * j) & 3
    return codes[:size]


def compact(outcomes: Any, size: int) -> tuple[Any, int]:
    """The outcome section of a database: 1 bit per position when all are WIN or LOSE, else the 2-bit packing."""
    import numpy as np

    if np.any(outcomes & 0b10101010):
        return outcomes, 2
    nibble = np.zeros(256, dtype=np.uint8)  # bits 0, 2, 4, 6 of a byte -> bits 0..3
    for b in range(256):
        nibble[b] = (b & 1) | ((b >> 1) & 2) | ((b >> 2) & 4) | ((b >> 3) & 8)
    padded = np.zeros(-(-len(outcomes) // 2) * 2, dtype=np.uint8)
    padded[:len(outcomes)] = outcomes
    bits = nibble[padded[0::2]] | (nibble[padded[1::2]] << 4)
    return bits[:-(-size // 8)], 1


def memory_needed(spec: TableSpec, remoteness: bool) -> int:
    """The spec's own estimate, else a generous one: a byte per position of working space (four more with
    remoteness, which solvers keep in several planes)."""
    estimate = getattr(spec, "memory_bytes", None)
    if estimate is not None:
        return int(estimate(remoteness))
    return spec.size * (5 if remoteness else 1)


def check_memory(spec: TableSpec, remoteness: bool) -> None:
    from gamedp.database import describe

    need, have = memory_needed(spec, remoteness), available_memory()
    if need > have:
        raise ResourceError(f"solving {describe(spec.game_id, spec.variant)} needs about {need:,} bytes of memory "
                            f"but {have:,} bytes are available; refusing to start")


def checkpoint_path(path: Path) -> Path:
    return path.with_name(path.name + ".checkpoint")


def build_database(spec: TableSpec, path: str | os.PathLike, *, remoteness: bool = False,
                   progress: Progress | None = None) -> dict:
    """Solve ``spec`` and write its database to ``path`` atomically; return the statistics written.

    Refuses up front a solve that would not fit in memory or a path that cannot be written; a failed solve
    leaves any existing database untouched.
    """
    from gamedp.database import check_writable, remove_stale_temporaries, write_database

    path = Path(path)
    check_memory(spec, remoteness)
    check_writable(path)
    resume = checkpoint_path(path)
    for written in (path, resume):  # what killed writes left (a checkpoint's can be as big as the table)
        remove_stale_temporaries(written)
    started = time.perf_counter()
    if isinstance(spec, CompiledTable):
        outcomes, rem = spec.solve_table(remoteness, progress, checkpoint=resume)
    else:
        outcomes, rem = spec.solve_table(remoteness, progress)
    if remoteness and rem is None:
        raise GamedpError(f"{spec.game_id}: this game's solver gives no remoteness; solve without it")
    seconds = time.perf_counter() - started
    stats = table_stats(outcomes, rem, spec.size)
    stats["seconds"] = round(seconds, 3)
    data, bits = compact(outcomes, spec.size)

    def write() -> None:
        write_database(path, spec.game_id, spec.variant, spec.size, outcomes=data, outcome_bits=bits,
                       remoteness=rem, stats=stats)

    try:
        write()
    except GamedpError:
        if not resume.exists():
            raise
        resume.unlink()  # the solve is whole: its checkpoint's space is better used for the database
        write()
    try:
        resume.unlink()
    except FileNotFoundError:
        pass
    return stats
