"""The tier solver's generic loops, numba kernels over any game's expansion, and their error records.

:func:`mark_children` (the forward pass) and :func:`solve_shard` (the backward pass) run over a range of one
tier's indices, with the game's :class:`~gamedp.tiers.Expansion` kernel as a function value, so that one
compiled solver serves every game; a game may give its own instead (:class:`~gamedp.tiers.Passes`, e.g.
:mod:`gamedp.kernels.connect4_tiers`), with the same arguments. Both leave an error record (code, tier, index,
detail) in ``err``, which :func:`fail` turns into one clear error.
"""

from __future__ import annotations

import functools
from typing import Any

from gamedp.errors import GameDefinitionError, GamedpError
from gamedp.kernels import tier_values
from gamedp.tiers import Passes, TieredGame

#: The most tiers one tier's children may lie in (the kernels take that many child arrays).
MAX_CHILD_TIERS = 4


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
def generic_kernels() -> Any:
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


def four(arrays: list, writable: bool = False) -> list:
    """The child tiers' arrays padded to the kernels' four slots."""
    import numpy as np

    return arrays + [frozen(np.zeros(0, dtype=np.uint8), writable)] * (MAX_CHILD_TIERS - len(arrays))


def frozen(a: Any, writable: bool = False) -> Any:
    """``a`` as the kernels' read-only array type (a view), unless ``writable``."""
    if writable:
        return a
    view = a.view()
    view.flags.writeable = False
    return view


def fail(game: TieredGame, err: Any) -> None:
    """A kernel's error record (code, tier, index, then the child's tier and index, or a detail) as one error."""
    code, tier, index, detail, child_index = (int(x) for x in err)
    key = game.functions().unrank(tier, index)
    fail_key(game, (code, key, detail if code in (4, 5) else f"at index {child_index} of tier {detail}"), tier)


def fail_key(game: TieredGame, err: Any, tier: int) -> None:
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


def kernel_arrays(game: TieredGame, tier: int) -> tuple[Any, Any, Any, Any, Any]:
    """The passes' kernels (see :func:`passes_of`), and what they need to run on ``tier``: the child tiers' slots and
    sizes, the state, the out buffer and the error record."""
    import numpy as np

    p = passes_of(game)
    kids = game.child_tiers(tier)
    slot = np.full(game.num_tiers, -1, dtype=np.int64)
    slot[list(kids)] = np.arange(len(kids))
    limits = np.zeros(MAX_CHILD_TIERS, dtype=np.int64)
    limits[:len(kids)] = [game.sizes[c] for c in kids]
    return p, slot, limits, (np.empty(p.state_size, dtype=np.int64), np.empty(p.out_size, dtype=np.int64),
                             np.zeros(5, dtype=np.int64))


def passes_of(game: TieredGame) -> Passes:
    """The game's own kernels for the two passes, else the solver's loops over its expansion."""
    own = game.passes()
    if own is not None:
        return own
    ex, k = game.expansion(), generic_kernels()
    return Passes(functools.partial(k.mark_children, ex.kernel), functools.partial(k.solve_shard, ex.kernel),
                  ex.params, ex.state_size, ex.out_size)
