"""The compiled search and its memo table, as cached numba kernels.

The table is dense (``vals[position]``) when the game bounds its positions and the array fits, else an
open-addressing hash over two arrays (``keys``, ``vals``) that doubles when half full. A value of -1 means
"not searched", 0 "search under way" (meeting it again means a cycle), and anything else the encoded value:
outcome code in the low 2 bits (1 LOSE, 2 WIN, 3 TIE), remoteness above. When only outcomes are wanted, a
dense table is *packed*: value + 1 in a nibble, two positions a byte, so that BLOCKGAME's 2^25 boards take
16 MiB and stay in the processor's last-level cache.

The search takes the game's kernels as first-class function values with fixed signatures, so the compiled
search (one per table type, and with or without a primitive kernel; cached on disk like any kernel) serves
every game: nothing is compiled per game but the game's own kernels.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types
from numba.extending import overload

from gamedp.kernel_cache import CompilingNotice
from gamedp.solvers.search_status import (
    BAD_PRIMITIVE, CYCLE, NEED_ROOM, OK, OUT_OF_RANGE, PRIMITIVE_WITH_MOVES, REPORT_EVERY, STOPPED, TOO_MANY_CHILDREN)

CHILDREN_SIGNATURE = types.int64(types.int64, types.int64[::1])
PRIMITIVE_SIGNATURE = types.int64(types.int64)
# Ranks order the mover's options: a WIN (3B - r) beats a TIE (2B - r) beats a LOSE (r).
RANK_BASE = 1 << 40
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)


@njit(cache=True, nogil=True)
def slot(keys, vals, position):
    """Where ``position``'s value is (or would go): itself in a dense table, a probed slot in a hash."""
    if keys.shape[0] == 0:
        return position
    mask = np.uint64(keys.shape[0] - 1)
    s = (np.uint64(position) * _GOLDEN >> np.uint64(17)) & mask
    while keys[s] != -1 and keys[s] != position:
        s = (s + np.uint64(1)) & mask
    return np.int64(s)


def is_packed(vals) -> bool:
    """Whether the table packs two values a byte (in compiled code, a constant of the table's type)."""
    return vals.dtype == np.uint8


@overload(is_packed)
def _is_packed(vals):
    packed = vals.dtype == types.uint8
    return lambda vals: packed


@njit(cache=True, nogil=True)
def read(keys, vals, position):
    """``position``'s value (-1: not searched). Python may call ``read.py_func``: on a dense table that is a
    numpy index, and cheaper than loading the compiled kernel."""
    if is_packed(vals):
        return np.int64((vals[position >> 1] >> ((position & 1) << 2)) & 15) - 1
    if keys.shape[0] == 0:
        return np.int64(vals[position])
    return np.int64(vals[slot(keys, vals, position)])


@njit(cache=True, nogil=True)
def store(keys, vals, position, value):
    """Set ``position``'s value (a hash table must have room: see :func:`doubled`)."""
    if is_packed(vals):
        shift = (position & 1) << 2
        vals[position >> 1] = (vals[position >> 1] & ~(15 << shift)) | ((value + 1) << shift)
    else:
        vals[claim(keys, vals, position)] = value


@njit(cache=True, nogil=True)
def claim(keys, vals, position):
    """``position``'s slot, holding its key in a hash table."""
    s = slot(keys, vals, position)
    if keys.shape[0] != 0:
        keys[s] = position
    return s


@njit(cache=True, nogil=True)
def doubled(keys, vals):
    """The hash table rehashed into twice the room."""
    new_keys = np.full(keys.shape[0] * 2, -1, np.int64)
    new_vals = np.full(keys.shape[0] * 2, -1, vals.dtype)
    rehash_into(keys, vals, new_keys, new_vals)
    return new_keys, new_vals


@njit(cache=True, nogil=True)
def rehash_into(keys, vals, new_keys, new_vals):
    """Every entry of a hash table into another, empty (all -1), with room for them."""
    for i in range(keys.shape[0]):
        if keys[i] != -1:
            s = slot(new_keys, new_vals, keys[i])
            new_keys[s] = keys[i]
            new_vals[s] = vals[i]


@njit(cache=True, nogil=True)
def grown(a):
    """``a`` with twice the rows."""
    b = np.empty((2 * a.shape[0], a.shape[1]), a.dtype)
    b[: a.shape[0]] = a
    return b


@njit(cache=True, nogil=True)
def new_stack(columns, width, maxc):
    """A search's stack of 64 frames to start with (``columns`` numbers each, and ``width`` for its children),
    and a buffer for one position's children."""
    return np.empty((64, columns), np.int64), np.empty((64, width), np.int64), np.empty(maxc + 1, np.int64)


@njit(cache=True, nogil=True)
def make_room(depth, frames, kids, keys, vals):
    """What a search's walk asked for by NEED_ROOM: the stack grown when it is full, else the table doubled.
    Growing is the driver's job, so that the walk's loop never reassigns (and reference-counts) an array."""
    if depth == frames.shape[0]:
        return grown(frames), grown(kids), keys, vals
    keys, vals = doubled(keys, vals)
    return frames, kids, keys, vals


@njit(cache=True, nogil=True)
def rank_of_child(value, outcomes_only):
    """The mover's rank for a move into a child whose encoded value is ``value``."""
    code = value & 3
    r = 0 if outcomes_only else (value >> 2) + 1
    if code == 1:  # the child is lost for the opponent
        return 3 * RANK_BASE - r
    if code == 3:
        return 2 * RANK_BASE - r
    return np.int64(r)


@njit(cache=True, nogil=True)
def encode_rank(rank):
    """The encoded value of a position whose best move has ``rank``."""
    if rank > 2 * RANK_BASE:
        return 2 | ((3 * RANK_BASE - rank) << 2)
    if rank > RANK_BASE:
        return 3 | ((2 * RANK_BASE - rank) << 2)
    return 1 | (rank << 2)


def _search_signature(value_type, primitive_type):
    vals = value_type[::1]
    return types.Tuple((types.int64[::1], vals, types.int64, types.int64, types.int64, types.int64))(
        types.FunctionType(CHILDREN_SIGNATURE), primitive_type, types.int64, types.int64[::1], vals, types.int64,
        types.int64, types.int64, types.boolean, types.boolean, types.int64[::1])


_searches: dict = {}


def searcher(value_dtype, has_primitive: bool):
    """The search compiled for tables of ``value_dtype`` (uint8: packed, or int32) and games with or without
    a primitive kernel (without, it is passed as None). Each is loaded from the cache only when first used."""
    key = (np.dtype(value_dtype), has_primitive)
    if key not in _searches:
        value_type = types.uint8 if key[0] == np.uint8 else types.int32
        primitive_type = types.FunctionType(PRIMITIVE_SIGNATURE) if has_primitive else types.none
        with CompilingNotice("the compiled game search"):  # numba's cache has it after the first time
            _searches[key] = njit(_search_signature(value_type, primitive_type), cache=True, nogil=True)(search)
    return _searches[key]


def search(children, primitive, root, keys, vals, used, maxc, limit, outcomes_only, misere, watch):
    """Depth-first search from ``root``, not yet searched; returns the table and (status, position, detail):
    ``detail`` is the root's value when the status is OK, else what went wrong. ``watch``: see REPORT_EVERY."""
    frames, kids, buf = new_stack(4, maxc, maxc)
    pos, depth = root, 0
    while True:
        status, pos, detail, depth, used = walk(children, primitive, root, pos, depth, frames, kids,
                                                buf, keys, vals, used, maxc, limit, outcomes_only, misere, watch)
        if status != NEED_ROOM:
            return keys, vals, used, status, pos, detail
        frames, kids, keys, vals = make_room(depth, frames, kids, keys, vals)


@njit(cache=True, nogil=True)
def walk(children, primitive, root, pos, depth, frames, kids, buf, keys, vals, used, maxc, limit,
         outcomes_only, misere, watch):
    """The search's loop, from expanding ``pos`` above ``depth`` frames: (position, child count, next child,
    best rank so far), the children in ``kids``. It returns NEED_ROOM before a step that would overflow the
    stack or fill the hash table more than half; growing them is left to the caller, because arrays
    reassigned inside this loop would cost reference counting on every step (see :func:`make_room`)."""
    while True:
        if depth == frames.shape[0] or (keys.shape[0] != 0 and 2 * (used + 1) > keys.shape[0]):
            return NEED_ROOM, pos, 0, depth, used
        # Expand `pos`: its value at once (primitive, no moves, or a child already known lost when only
        # outcomes are wanted), else a new frame on the stack.
        n = children(pos, buf)
        if n > maxc:
            return TOO_MANY_CHILDREN, pos, n, depth, used
        code = 0 if primitive is None else primitive(pos)
        if code < 0 or code > 3:
            return BAD_PRIMITIVE, pos, code, depth, used
        if code != 0 and n > 0:
            return PRIMITIVE_WITH_MOVES, pos, n, depth, used
        if code == 0 and n == 0:
            code = 2 if misere else 1
        for j in range(n):
            c = buf[j]
            if c < 0 or (limit >= 0 and c >= limit):
                return OUT_OF_RANGE, pos, c, depth, used
            kids[depth, j] = c
            # A child already known to be lost wins at once, the children after it not even looked at (on
            # BLOCKGAME this cuts the positions searched from the empty board by a quarter).
            if outcomes_only:
                v = read(keys, vals, c)
                if v > 0 and v & 3 == 1:
                    code = 2
                    break
        used += 1
        if not used & REPORT_EVERY:
            watch[0] = used
            if watch[1]:
                return STOPPED, pos, 0, depth, used
        store(keys, vals, pos, code)  # 0 (under way) unless the value is known already
        if code != 0:
            if depth == 0:
                return OK, pos, code, depth, used
            frames[depth - 1, 3] = max(frames[depth - 1, 3], rank_of_child(code, outcomes_only))
            frames[depth - 1, 2] += 1
        else:
            frames[depth, 0], frames[depth, 1], frames[depth, 2], frames[depth, 3] = pos, n, 0, -1
            depth += 1
        # Scan the top frame's children; finish frames until one needs a child expanded.
        while True:
            f = depth - 1
            best, i = frames[f, 3], frames[f, 2]
            descend = False
            c = 0
            while i < frames[f, 1] and not (outcomes_only and best > 2 * RANK_BASE):
                c = kids[f, i]
                v = read(keys, vals, c)
                if v == -1:
                    descend = True
                    break
                if v == 0:
                    return CYCLE, frames[f, 0], c, depth, used
                best = max(best, rank_of_child(v, outcomes_only))
                i += 1
            frames[f, 3], frames[f, 2] = best, i
            if descend:
                pos = c
                break
            enc = encode_rank(best)
            store(keys, vals, frames[f, 0], enc)
            depth -= 1
            if depth == 0:
                return OK, root, enc, depth, used
            frames[depth - 1, 3] = max(frames[depth - 1, 3], rank_of_child(enc, outcomes_only))
            frames[depth - 1, 2] += 1
